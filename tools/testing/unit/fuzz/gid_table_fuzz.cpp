// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/gid_table.c: input bytes are
// a sequence of operations (set/clear default, add, delete, delete netdev)
// on a small table; after each one the table must agree with a simple
// reference model, and the table's invariants must hold (no duplicate
// entries, no zero GID in a used slot >= 1, slot 0 only from set_default).
#include <rdma/ib_gid_table.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

constexpr u32 kSlots = 6;

struct Entry {
  std::array<u8, RDMA_GID_BYTES> gid{};
  u8 type = 0;
  u32 ifindex = 0;
  bool used = false;
  bool operator==(const Entry &o) const {
    return used == o.used && (!used || (gid == o.gid && type == o.type &&
                                        ifindex == o.ifindex));
  }
};

void check(bool ok) {
  if (!ok)
    abort();
}

// A GID from few bits so that collisions (duplicates) are common.
std::array<u8, RDMA_GID_BYTES> make_gid(u8 b) {
  std::array<u8, RDMA_GID_BYTES> g{};
  if (b & 0x80)
    return g;  // the zero GID
  g[0] = 0x20;
  g[15] = b & 0x0f;
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<rdma_gid_slot> slots(kSlots);
  rdma_gid_table t{slots.data(), kSlots};
  std::array<Entry, kSlots> model{};

  for (size_t i = 0; i + 3 <= size; i += 3) {
    u8 op = data[i] % 5, type = data[i + 1] & 1 ? 2 : 1;
    u32 ifindex = (data[i + 1] >> 1) & 3;
    auto gid = make_gid(data[i + 2]);
    bool zero = rdma_gid_is_zero(gid.data());

    switch (op) {
    case 0: {  // set default
      check(rdma_gid_table_set_default(&t, gid.data(), type, ifindex) == 0);
      model[0] = Entry{gid, type, ifindex, true};
      break;
    }
    case 1:
      rdma_gid_table_clear_default(&t);
      model[0] = Entry{};
      break;
    case 2: {  // add
      int want;
      int dup = -1, free_slot = -1;
      for (u32 s = 0; s < kSlots; s++) {
        const Entry &e = model[s];
        if (dup < 0 && e.used && e.gid == gid && e.type == type && e.ifindex == ifindex)
          dup = static_cast<int>(s);
        if (s && !e.used && free_slot < 0)
          free_slot = static_cast<int>(s);
      }
      want = zero ? -EINVAL : dup >= 0 ? -EEXIST : free_slot < 0 ? -ENOSPC : free_slot;
      int got = rdma_gid_table_add(&t, gid.data(), type, ifindex);
      check(got == want);
      if (got >= 0)
        model[got] = Entry{gid, type, ifindex, true};
      break;
    }
    case 3: {  // delete
      int want = -ENOENT;
      for (u32 s = 1; s < kSlots && want < 0; s++) {
        const Entry &e = model[s];
        if (e.used && e.gid == gid && e.type == type && e.ifindex == ifindex)
          want = static_cast<int>(s);
      }
      check(rdma_gid_table_del(&t, gid.data(), type, ifindex) == want);
      if (want > 0)
        model[want] = Entry{};
      break;
    }
    default: {  // netdev gone
      u32 n = 0;
      for (auto &e : model)
        if (e.used && e.ifindex == ifindex) {
          e = Entry{};
          n++;
        }
      check(rdma_gid_table_del_netdev(&t, ifindex) == n);
      break;
    }
    }

    for (u32 s = 0; s < kSlots; s++) {
      Entry got;
      got.used = slots[s].used;
      for (u32 b = 0; b < RDMA_GID_BYTES; b++)
        got.gid[b] = slots[s].gid[b];
      got.type = slots[s].type;
      got.ifindex = slots[s].ifindex;
      check(got == model[s]);
      if (s && got.used)
        check(!rdma_gid_is_zero(slots[s].gid));
      if (!got.used)
        check(rdma_gid_is_zero(slots[s].gid));
    }
  }
  return 0;
}
