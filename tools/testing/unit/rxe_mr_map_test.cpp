// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/sw/rxe/rxe_mr_map.c: the block
// size chosen for a pinned MR's runs, and that the table translates every
// byte of the MR to the kernel address its run gives it.

#include "rxe_mr_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

constexpr u64 kPage = 4096;
constexpr u64 kHuge = 2ULL << 20;

struct Seg {
  u64 kaddr;
  u64 len;
};

struct Map {
  unsigned int shift = 0;
  u64 va0 = 0;
  std::vector<u64> table;
  bool ok = false;
};

// What rxe_mr_map_umem() does with the scatterlist of a umem at @va.
Map Build(u64 va, const std::vector<Seg> &runs) {
  struct rxe_map_fit fit;
  Map m;
  u64 total = 0, n = 0, at = va;

  rxe_map_fit_init(&fit, va);
  for (const Seg &r : runs) {
    rxe_map_fit_add(&fit, r.len);
    total += r.len;
  }
  m.shift = rxe_map_fit_shift(&fit, RXE_MAP_MIN_SHIFT, RXE_MAP_MAX_SHIFT);
  m.va0 = va & ~((1ULL << m.shift) - 1);
  m.table.assign(rxe_map_blocks(va, total, m.shift), 0);
  for (const Seg &r : runs) {
    if (rxe_map_fill(m.table.data(), m.table.size(), &n, m.va0, m.shift, at,
                     r.kaddr, r.len))
      return m;
    at += r.len;
  }
  m.ok = n == m.table.size();
  return m;
}

// The kernel address of virtual address @x by the runs themselves.
u64 ByRuns(u64 va, const std::vector<Seg> &runs, u64 x) {
  for (const Seg &r : runs) {
    if (x < va + r.len)
      return r.kaddr + (x - va);
    va += r.len;
  }
  ADD_FAILURE() << "address past the runs";
  return 0;
}

// The kernel address of @x by the table, as rxe_mr_kaddr() computes it.
u64 ByTable(const Map &m, u64 x) {
  u64 off = x - m.va0;
  return m.table.at(off >> m.shift) + (off & ((1ULL << m.shift) - 1));
}

TEST(RxeMrMap, OneRunIsOneBlockOfTheLargestSize) {
  std::vector<Seg> runs = {{0xffff888000123000ULL, 5 * kPage}};
  Map m = Build(0x7f0000001000ULL, runs);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.shift, unsigned(RXE_MAP_MAX_SHIFT));
  ASSERT_EQ(m.table.size(), 1u);
  for (u64 x = 0x7f0000001000ULL; x < 0x7f0000006000ULL; x += 511)
    EXPECT_EQ(ByTable(m, x), ByRuns(0x7f0000001000ULL, runs, x));
}

TEST(RxeMrMap, ScatteredPagesGetOneEntryPerPage) {
  std::vector<Seg> runs;
  for (u64 i = 0; i < 8; i++)
    runs.push_back({0xffff888100000000ULL + (7 - i) * 3 * kPage, kPage});
  Map m = Build(0x10000ULL, runs);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.shift, 12u);
  ASSERT_EQ(m.table.size(), 8u);
  for (u64 i = 0; i < 8; i++)
    EXPECT_EQ(m.table[i], runs[i].kaddr);
}

TEST(RxeMrMap, HugePagesGetOneEntryPerHugePage) {
  // a buffer in 2 MiB pages that are not adjacent in memory
  std::vector<Seg> runs;
  for (u64 i = 0; i < 256; i++)
    runs.push_back({0xffff888200000000ULL + (i * 37 % 256) * kHuge, kHuge});
  Map m = Build(0x7f4000000000ULL, runs);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.shift, 21u);
  EXPECT_EQ(m.table.size(), 256u);
  for (u64 x = 0x7f4000000000ULL; x < 0x7f4000000000ULL + 256 * kHuge;
       x += 12345)
    ASSERT_EQ(ByTable(m, x), ByRuns(0x7f4000000000ULL, runs, x)) << x;
}

TEST(RxeMrMap, UnalignedStartInsideAHugePageKeepsHugeBlocks) {
  // the MR starts 3 pages into a 2 MiB page and ends inside another
  u64 va = 0x7f4000000000ULL + 3 * kPage;
  std::vector<Seg> runs = {{0xffff888300003000ULL, kHuge - 3 * kPage},
                           {0xffff888300600000ULL, kHuge},
                           {0xffff888300200000ULL, 7 * kPage}};
  Map m = Build(va, runs);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.shift, 21u);
  EXPECT_EQ(m.table.size(), 3u);
  for (u64 x = va; x < va + 2 * kHuge + 4 * kPage; x += 999)
    ASSERT_EQ(ByTable(m, x), ByRuns(va, runs, x)) << x;
}

TEST(RxeMrMap, OneMisplacedRunLowersTheBlockSize) {
  // a 4 KiB page between two huge pages: no block may hold two runs
  std::vector<Seg> runs = {{0xffff888400000000ULL, kHuge},
                           {0xffff888500000000ULL, kPage},
                           {0xffff888400400000ULL, kHuge}};
  Map m = Build(0x7f4000000000ULL, runs);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.shift, 12u);
  EXPECT_EQ(m.table.size(), 2 * kHuge / kPage + 1);
}

TEST(RxeMrMap, FillRefusesRunsThatDoNotFollowTheFit) {
  u64 table[4] = {};
  u64 n = 0;
  // a hole: block 1 before block 0
  EXPECT_EQ(rxe_map_fill(table, 4, &n, 0, 21, kHuge, 0x1000000, kHuge), -1);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(rxe_map_fill(table, 4, &n, 0, 21, 0, 0x1000000, kPage), 0);
  EXPECT_EQ(n, 1u);
  // a second run inside block 0
  EXPECT_EQ(rxe_map_fill(table, 4, &n, 0, 21, kPage, 0x9000000, kPage), -1);
  // past the table's end
  EXPECT_EQ(rxe_map_fill(table, 4, &n, 0, 21, kHuge, 0x2000000, 4 * kHuge), -1);
  // before block 0, and empty
  EXPECT_EQ(rxe_map_fill(table, 4, &n, kHuge, 21, 0, 0x2000000, kPage), -1);
  EXPECT_EQ(rxe_map_fill(table, 4, &n, 0, 21, kHuge, 0x2000000, 0), -1);
  EXPECT_EQ(n, 1u);
}

TEST(RxeMrMap, BlocksCoverTheRange) {
  EXPECT_EQ(rxe_map_blocks(0, 0, 12), 0u);
  EXPECT_EQ(rxe_map_blocks(0, 1, 12), 1u);
  EXPECT_EQ(rxe_map_blocks(4095, 2, 12), 2u);
  EXPECT_EQ(rxe_map_blocks(kHuge - kPage, kHuge, 21), 2u);
  EXPECT_EQ(rxe_map_blocks(0, 1ULL << 30, 30), 1u);
}

TEST(RxeMrMap, RandomRunsTranslateLikeTheRuns) {
  std::mt19937_64 rng(14);
  for (int iter = 0; iter < 2000; iter++) {
    u64 va = (rng() % (1ULL << 35)) & ~(kPage - 1);
    std::vector<Seg> runs;
    u64 at = va;
    int nruns = 1 + int(rng() % 12);
    for (int i = 0; i < nruns; i++) {
      // runs end on 4 KiB, 64 KiB or 2 MiB boundaries
      u64 gran = (rng() % 3 == 0) ? kPage : (rng() % 2 ? 16 * kPage : kHuge);
      u64 end = ((at / gran) + 1 + rng() % 3) * gran;
      u64 kaddr = 0xffff888000000000ULL + (rng() % (1ULL << 34) & ~(kPage - 1));
      runs.push_back({kaddr, end - at});
      at = end;
    }
    Map m = Build(va, runs);
    ASSERT_TRUE(m.ok) << iter;
    ASSERT_GE(m.shift, 12u);
    // the block size is the largest one that fits
    if (m.shift < RXE_MAP_MAX_SHIFT) {
      bool bigger_fits = true;
      u64 s = va;
      for (size_t i = 0; i + 1 < runs.size(); i++) {
        s += runs[i].len;
        if (s & ((2ULL << m.shift) - 1))
          bigger_fits = false;
      }
      EXPECT_FALSE(bigger_fits) << iter;
    }
    for (int k = 0; k < 64; k++) {
      u64 x = va + rng() % (at - va);
      ASSERT_EQ(ByTable(m, x), ByRuns(va, runs, x)) << iter << " " << x;
    }
    ASSERT_EQ(ByTable(m, at - 1), ByRuns(va, runs, at - 1));
  }
}

}  // namespace
