// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/sw/rxe/rxe_queue_math.c: ring
// geometry (slot count, slot size, mapped length), masked index
// arithmetic, and the QP WQE sizes that decide the caps users get back
// (the rings of <uapi/rdma/rdma_user_rxe.h> as librxe of rdma-core v44 maps them).

#include "rxe_queue_math.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

struct rxe_queue_geom Geom(u32 n, u32 elem) {
  struct rxe_queue_geom g = {};
  EXPECT_TRUE(rxe_queue_geometry(n, elem, &g)) << n << " x " << elem;
  return g;
}

TEST(RxeQueueGeometry, SlotsAreNextPowerOfTwoAboveRequest) {
  EXPECT_EQ(Geom(0, 64).slots, 1u);
  EXPECT_EQ(Geom(1, 64).slots, 2u);
  EXPECT_EQ(Geom(3, 64).slots, 4u);
  EXPECT_EQ(Geom(4, 64).slots, 8u);
  EXPECT_EQ(Geom(100, 64).slots, 128u);
  EXPECT_EQ(Geom(127, 64).slots, 128u);
  EXPECT_EQ(Geom(128, 64).slots, 256u);
}

TEST(RxeQueueGeometry, CapacityIsSlotsMinusOne) {
  // CREATE_CQ with cqe=100 answers 127 (as upstream 6.1 rxe answers)
  EXPECT_EQ(Geom(100, 128).capacity, 127u);
  EXPECT_EQ(Geom(32767, 128).capacity, 32767u);
  EXPECT_EQ(Geom(1, 64).capacity, 1u);
}

TEST(RxeQueueGeometry, ElementSizeAtLeastCacheLineAndPowerOfTwo) {
  EXPECT_EQ(Geom(1, 1).log2_elem, 6u);
  EXPECT_EQ(Geom(1, 48).log2_elem, 6u);
  EXPECT_EQ(Geom(1, 64).log2_elem, 6u);
  EXPECT_EQ(Geom(1, 65).log2_elem, 7u);
  EXPECT_EQ(Geom(1, 224).log2_elem, 8u);
  EXPECT_EQ(Geom(1, 256).log2_elem, 8u);
  EXPECT_EQ(Geom(1, 720).log2_elem, 10u);
}

TEST(RxeQueueGeometry, BufferAndMapLength) {
  struct rxe_queue_geom g = Geom(100, 128);
  EXPECT_EQ(g.buf_len, 384u + 128u * 128u);
  EXPECT_EQ(rxe_queue_map_len(&g, 4096), 20480u);
  g = Geom(0, 64);
  EXPECT_EQ(g.buf_len, 448u);
  EXPECT_EQ(rxe_queue_map_len(&g, 4096), 4096u);
  // exactly a page stays a page
  g = Geom(2, 1024);  // 4 slots x 1024 + 384
  EXPECT_EQ(rxe_queue_map_len(&g, 4096), 8192u);
}

TEST(RxeQueueGeometry, RejectsTooLarge) {
  struct rxe_queue_geom g = {7, 7, 7, 7};
  EXPECT_FALSE(rxe_queue_geometry(RXE_QUEUE_MAX_SLOTS, 64, &g));
  EXPECT_FALSE(rxe_queue_geometry(0xffffffffu, 64, &g));
  EXPECT_FALSE(rxe_queue_geometry(1, RXE_QUEUE_MAX_ELEM + 1, &g));
  EXPECT_EQ(g.slots, 7u);
  EXPECT_TRUE(rxe_queue_geometry(RXE_QUEUE_MAX_SLOTS - 1, 64, &g));
  EXPECT_EQ(g.slots, RXE_QUEUE_MAX_SLOTS);
}

TEST(RxeQueueIndex, EmptyFullCountMasked) {
  const u32 mask = 7;
  EXPECT_TRUE(rxe_queue_is_empty(0, 0, mask));
  EXPECT_TRUE(rxe_queue_is_empty(3, 3, mask));
  EXPECT_FALSE(rxe_queue_is_empty(4, 3, mask));
  EXPECT_TRUE(rxe_queue_is_full(7, 0, mask));
  EXPECT_TRUE(rxe_queue_is_full(2, 3, mask));
  EXPECT_FALSE(rxe_queue_is_full(1, 3, mask));
  EXPECT_EQ(rxe_queue_used(5, 2, mask), 3u);
  EXPECT_EQ(rxe_queue_used(1, 6, mask), 3u);  // wrapped
  EXPECT_EQ(rxe_queue_used(6, 7, mask), 7u);  // full
  EXPECT_EQ(rxe_queue_next(7, mask), 0u);
  EXPECT_EQ(rxe_queue_next(3, mask), 4u);
}

TEST(RxeQueueIndex, UntrustedIndexBitsAboveMaskIgnored) {
  const u32 mask = 7;
  // a user may write any value; we compare masked values only
  EXPECT_TRUE(rxe_queue_is_empty(0x13, 0x3, mask));
  EXPECT_TRUE(rxe_queue_is_full(0x2, 0xf3, mask));
  EXPECT_EQ(rxe_queue_used(0xf5, 2, mask), 3u);
}

TEST(RxeQueueIndex, WalkTheWholeRing) {
  const u32 mask = 3;
  u32 prod = 0, cons = 0, n = 0;
  while (!rxe_queue_is_full(prod, cons, mask)) {
    prod = rxe_queue_next(prod, mask);
    n++;
  }
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(rxe_queue_used(prod, cons, mask), 3u);
  while (!rxe_queue_is_empty(prod, cons, mask))
    cons = rxe_queue_next(cons, mask);
  EXPECT_EQ(cons, 3u);
}

TEST(RxeWqeSize, SendCapsFromExtraSpace) {
  // upstream 6.1 rxe: sge 1, inline 0 -> caps 1/16
  u32 sge = 1, inl = 0;
  EXPECT_EQ(rxe_sq_wqe_size(&sge, &inl), 224u);
  EXPECT_EQ(sge, 1u);
  EXPECT_EQ(inl, 16u);

  sge = 1;
  inl = 64;  // inline wins
  EXPECT_EQ(rxe_sq_wqe_size(&sge, &inl), 272u);
  EXPECT_EQ(sge, 4u);
  EXPECT_EQ(inl, 64u);

  sge = 32;
  inl = 512;
  EXPECT_EQ(rxe_sq_wqe_size(&sge, &inl), 720u);
  EXPECT_EQ(sge, 32u);
  EXPECT_EQ(inl, 512u);

  sge = 0;
  inl = 0;
  EXPECT_EQ(rxe_sq_wqe_size(&sge, &inl), 208u);
  EXPECT_EQ(sge, 0u);
  EXPECT_EQ(inl, 0u);

  sge = 0;
  inl = 20;  // not a multiple of 16: sge rounds down
  rxe_sq_wqe_size(&sge, &inl);
  EXPECT_EQ(sge, 1u);
  EXPECT_EQ(inl, 20u);
}

TEST(RxeWqeSize, RecvSize) {
  EXPECT_EQ(rxe_rq_wqe_size(0), 40u);
  EXPECT_EQ(rxe_rq_wqe_size(1), 56u);
  EXPECT_EQ(rxe_rq_wqe_size(27), 472u);
}

}  // namespace
