// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/gid_table.c: the RoCE GID
// table's slot rules (default GID in slot 0, addresses in the lowest free
// slot from 1, no duplicates, removal by address and by netdev).

#include <cstring>
#include <rdma/ib_gid_table.h>

#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <vector>

namespace {

using Gid = std::array<u8, RDMA_GID_BYTES>;

constexpr u8 kV2 = IB_GID_TYPE_ROCE_UDP_ENCAP;
constexpr u32 kEth = 3;

Gid V4(u8 a, u8 b, u8 c, u8 d) {
  Gid g{};
  const u8 addr[4] = {a, b, c, d};
  rdma_gid_from_ipv4(addr, g.data());
  return g;
}

Gid V6Global(u8 last) {
  Gid g{};
  g[0] = 0x20;
  g[1] = 0x01;
  g[2] = 0x0d;
  g[3] = 0xb8;
  g[15] = last;
  return g;
}

class GidTable : public ::testing::Test {
 protected:
  void SetUp() override {
    slots_.resize(8);
    table_.slots = slots_.data();
    table_.len = static_cast<u32>(slots_.size());
  }
  std::vector<rdma_gid_slot> slots_;
  rdma_gid_table table_{};
};

TEST(GidFormat, DefaultGidIsLinkLocalEui64) {
  const u8 mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  Gid g{};
  rdma_gid_default_from_mac(mac, g.data());
  const Gid want = {0xfe, 0x80, 0, 0, 0, 0, 0, 0,
                    0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56};
  EXPECT_EQ(g, want);
}

TEST(GidFormat, Eui64BackToMac) {
  const u8 mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  Gid g{};
  u8 back[6] = {};
  rdma_gid_default_from_mac(mac, g.data());
  ASSERT_TRUE(rdma_gid_eui64_to_mac(g.data(), back));
  EXPECT_EQ(0, memcmp(back, mac, sizeof(mac)));
  g[12] = 0xfd;  // not an EUI-64 interface id
  EXPECT_FALSE(rdma_gid_eui64_to_mac(g.data(), back));
}

TEST(GidFormat, Ipv4Mapped) {
  const Gid want = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
  EXPECT_EQ(V4(10, 0, 0, 1), want);
}

TEST(GidFormat, Zero) {
  Gid z{};
  EXPECT_TRUE(rdma_gid_is_zero(z.data()));
  EXPECT_FALSE(rdma_gid_is_zero(V4(0, 0, 0, 0).data()));  // ::ffff:0.0.0.0
}

TEST_F(GidTable, AddressesTakeLowestFreeSlotFromOne) {
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 1).data(), kV2, kEth), 1);
  EXPECT_EQ(rdma_gid_table_add(&table_, V6Global(1).data(), kV2, kEth), 2);
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 2).data(), kV2, kEth), 3);
  EXPECT_EQ(rdma_gid_table_del(&table_, V6Global(1).data(), kV2, kEth), 2);
  // the hole is reused
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 3).data(), kV2, kEth), 2);
  EXPECT_EQ(rdma_gid_table_find(&table_, V4(10, 0, 0, 3).data(), kV2), 2);
  EXPECT_FALSE(slots_[0].used);  // the default slot is never handed out
}

TEST_F(GidTable, DuplicatesRefusedWithoutChange) {
  ASSERT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 1).data(), kV2, kEth), 1);
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 1).data(), kV2, kEth), -EEXIST);
  // same bytes on another netdev or of another type is another entry
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 1).data(), kV2, kEth + 1), 2);
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, 1).data(),
                               IB_GID_TYPE_ROCE, kEth), 3);
}

TEST_F(GidTable, LinkLocalEqualToDefaultNotDuplicated) {
  const u8 mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  Gid def{};
  rdma_gid_default_from_mac(mac, def.data());
  ASSERT_EQ(rdma_gid_table_set_default(&table_, def.data(), kV2, kEth), 0);
  EXPECT_EQ(rdma_gid_table_add(&table_, def.data(), kV2, kEth), -EEXIST);
  EXPECT_EQ(rdma_gid_table_find(&table_, def.data(), kV2), 0);
  // deleting by address never removes the default
  EXPECT_EQ(rdma_gid_table_del(&table_, def.data(), kV2, kEth), -ENOENT);
  rdma_gid_table_clear_default(&table_);
  EXPECT_EQ(rdma_gid_table_find(&table_, def.data(), kV2), -ENOENT);
}

TEST_F(GidTable, FullTable) {
  for (u8 i = 1; i < 8; i++)
    ASSERT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 0, i).data(), kV2, kEth), i);
  EXPECT_EQ(rdma_gid_table_add(&table_, V4(10, 0, 1, 1).data(), kV2, kEth), -ENOSPC);
}

TEST_F(GidTable, ZeroGidRefused) {
  Gid z{};
  EXPECT_EQ(rdma_gid_table_add(&table_, z.data(), kV2, kEth), -EINVAL);
}

TEST_F(GidTable, DeleteUnknown) {
  EXPECT_EQ(rdma_gid_table_del(&table_, V4(10, 9, 9, 9).data(), kV2, kEth), -ENOENT);
}

TEST_F(GidTable, NetdevGoneClearsItsEntriesOnly) {
  const u8 mac[6] = {2, 0, 0, 0, 0, 1};
  Gid def{};
  rdma_gid_default_from_mac(mac, def.data());
  rdma_gid_table_set_default(&table_, def.data(), kV2, kEth);
  rdma_gid_table_add(&table_, V4(10, 0, 0, 1).data(), kV2, kEth);
  rdma_gid_table_add(&table_, V4(10, 0, 0, 2).data(), kV2, kEth + 1);
  rdma_gid_table_add(&table_, V6Global(7).data(), kV2, kEth);
  EXPECT_EQ(rdma_gid_table_del_netdev(&table_, kEth), 3u);
  EXPECT_EQ(rdma_gid_table_find(&table_, V4(10, 0, 0, 2).data(), kV2), 2);
  EXPECT_EQ(rdma_gid_table_find(&table_, V4(10, 0, 0, 1).data(), kV2), -ENOENT);
  EXPECT_TRUE(rdma_gid_is_zero(slots_[1].gid));
}

TEST(GidTableEmpty, LengthZero) {
  rdma_gid_table t{nullptr, 0};
  const Gid g = V4(1, 2, 3, 4);
  EXPECT_EQ(rdma_gid_table_set_default(&t, g.data(), kV2, 1), -EINVAL);
  EXPECT_EQ(rdma_gid_table_add(&t, g.data(), kV2, 1), -ENOSPC);
  EXPECT_EQ(rdma_gid_table_find(&t, g.data(), kV2), -ENOENT);
  rdma_gid_table_clear_default(&t);
}

TEST(GidMulticast, V4MappedAndV6Groups) {
  EXPECT_TRUE(rdma_gid_is_multicast(V4(239, 1, 2, 3).data()));
  EXPECT_TRUE(rdma_gid_is_multicast(V4(224, 0, 0, 1).data()));
  EXPECT_FALSE(rdma_gid_is_multicast(V4(10, 0, 0, 1).data()));
  EXPECT_FALSE(rdma_gid_is_multicast(V4(240, 0, 0, 1).data()));
  Gid v6{};
  v6[0] = 0xff;
  v6[1] = 0x0e;
  EXPECT_TRUE(rdma_gid_is_multicast(v6.data()));
  EXPECT_FALSE(rdma_gid_is_multicast(V6Global(1).data()));
  // 0xff in the first byte is multicast only outside the v4-mapped range
  Gid zero{};
  EXPECT_FALSE(rdma_gid_is_multicast(zero.data()));
}

TEST(GidMulticast, EthernetAddress) {
  u8 mac[6];
  rdma_gid_mcast_mac(V4(239, 129, 2, 3).data(), mac);
  const u8 want4[6] = {0x01, 0x00, 0x5e, 0x01, 0x02, 0x03};
  EXPECT_EQ(0, memcmp(mac, want4, 6));
  Gid v6{};
  v6[0] = 0xff;
  v6[1] = 0x12;
  v6[12] = 0xde;
  v6[13] = 0xad;
  v6[14] = 0xbe;
  v6[15] = 0xef;
  rdma_gid_mcast_mac(v6.data(), mac);
  const u8 want6[6] = {0x33, 0x33, 0xde, 0xad, 0xbe, 0xef};
  EXPECT_EQ(0, memcmp(mac, want6, 6));
}

}  // namespace
