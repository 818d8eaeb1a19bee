// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/sw/rxe/rxe_param.c: netdev MTU to
// path MTU with the RoCEv2 overhead, MAC to EUI-64 GUID, and the attribute
// constants that must match 6.1 rxe (upstream's rxe_param.h).

#include "rxe_param.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

TEST(RxePathMtu, Bytes) {
  EXPECT_EQ(rxe_path_mtu_bytes(IB_MTU_256), 256u);
  EXPECT_EQ(rxe_path_mtu_bytes(IB_MTU_512), 512u);
  EXPECT_EQ(rxe_path_mtu_bytes(IB_MTU_1024), 1024u);
  EXPECT_EQ(rxe_path_mtu_bytes(IB_MTU_2048), 2048u);
  EXPECT_EQ(rxe_path_mtu_bytes(IB_MTU_4096), 4096u);
  EXPECT_EQ(rxe_path_mtu_bytes(0), 0u);
  EXPECT_EQ(rxe_path_mtu_bytes(6), 0u);
  EXPECT_EQ(rxe_path_mtu_bytes(-1), 0u);
}

TEST(RxePathMtu, StandardEthernet) {
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(1500), IB_MTU_1024);
}

TEST(RxePathMtu, JumboFrames) {
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(9000), IB_MTU_4096);
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(65535), IB_MTU_4096);
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(0xffffffffu), IB_MTU_4096);
}

TEST(RxePathMtu, TinyMtusGiveSmallestCode) {
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(0), IB_MTU_256);
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(1), IB_MTU_256);
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(68), IB_MTU_256);
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(RXE_ROCE_V2_OVERHEAD),
            IB_MTU_256);
  EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(576), IB_MTU_256);
}

// Each code is reached exactly when its payload plus the overhead fits.
TEST(RxePathMtu, Boundaries) {
  for (int code = IB_MTU_512; code <= IB_MTU_4096; code++) {
    unsigned int edge = rxe_path_mtu_bytes(code) + RXE_ROCE_V2_OVERHEAD;
    EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(edge), code) << edge;
    EXPECT_EQ(rxe_path_mtu_from_netdev_mtu(edge - 1), code - 1) << edge;
  }
}

// Larger netdev MTUs never give a smaller path MTU.
TEST(RxePathMtu, Monotonic) {
  int prev = rxe_path_mtu_from_netdev_mtu(0);
  for (unsigned int mtu = 1; mtu <= 10000; mtu++) {
    int cur = rxe_path_mtu_from_netdev_mtu(mtu);
    ASSERT_GE(cur, prev) << mtu;
    ASSERT_GE(cur, IB_MTU_256);
    ASSERT_LE(cur, IB_MTU_4096);
    prev = cur;
  }
}

TEST(RxePathMtu, OverheadCoversIpv4AndIpv6) {
  // IPv4 (20) is covered by the IPv6 (40) allowance; UDP, BTH, ICRC always.
  EXPECT_GE(RXE_ROCE_V2_OVERHEAD, 20 + 8 + 12 + 4);
  EXPECT_GE(RXE_ROCE_V2_OVERHEAD, 40 + 8 + 12 + 4);
}

TEST(RxeEui64, KnownMac) {
  const u8 mac[RXE_MAC_LEN] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  // 5054:00ff:fe12:3456
  EXPECT_EQ(rxe_mac_to_eui64(mac), 0x505400fffe123456ULL);
}

TEST(RxeEui64, UniversalLocalBitFlips) {
  const u8 global_mac[RXE_MAC_LEN] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
  const u8 local_mac[RXE_MAC_LEN] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
  EXPECT_EQ(rxe_mac_to_eui64(global_mac), 0x021122fffe334455ULL);
  EXPECT_EQ(rxe_mac_to_eui64(local_mac), 0x001122fffe334455ULL);
}

TEST(RxeEui64, AllOnesAndZeros) {
  const u8 ones[RXE_MAC_LEN] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  const u8 zeros[RXE_MAC_LEN] = {0, 0, 0, 0, 0, 0};
  EXPECT_EQ(rxe_mac_to_eui64(ones), 0xfdfffffffeffffffULL);
  EXPECT_EQ(rxe_mac_to_eui64(zeros), 0x020000fffe000000ULL);
}

TEST(RxeEui64, BytesLandInPlace) {
  // Each MAC byte appears in exactly its EUI-64 position.
  const u8 zeros[RXE_MAC_LEN] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < RXE_MAC_LEN; i++) {
    u8 mac[RXE_MAC_LEN] = {0, 0, 0, 0, 0, 0};
    mac[i] = 0x80;
    u64 eui = rxe_mac_to_eui64(mac) ^ rxe_mac_to_eui64(zeros);
    int pos = i < 3 ? i : i + 2;  // ff:fe sits in bytes 3 and 4
    EXPECT_EQ(eui, 0x80ULL << (8 * (7 - pos))) << i;
  }
}

// The values ibv_devinfo prints for 6.1 rxe (upstream's rxe_param.h).
TEST(RxeAttrs, ReferenceValues) {
  EXPECT_EQ(RXE_VENDOR_ID, 0xFFFFFF);
  EXPECT_EQ(RXE_VENDOR_PART_ID, 0);
  EXPECT_EQ(RXE_HW_VER, 0);
  EXPECT_EQ(RXE_FW_VER, 0ULL);
  EXPECT_EQ(RXE_MAX_MR_SIZE, 0xFFFFFFFFFFFFFFFFULL);
  EXPECT_EQ(RXE_PAGE_SIZE_CAP, 0xFFFFF000ULL);
  EXPECT_EQ(RXE_MAX_QP, 1048560);
  EXPECT_EQ(RXE_MAX_QP_WR, 1048576);
  EXPECT_EQ(RXE_MAX_SGE, 32);
  EXPECT_EQ(RXE_MAX_SGE_RD, 32);
  EXPECT_EQ(RXE_MAX_CQ, 1048576);
  EXPECT_EQ(RXE_MAX_CQE, 32767);
  EXPECT_EQ(RXE_MAX_MR, 524287);
  EXPECT_EQ(RXE_MAX_MW, 524287);
  EXPECT_EQ(RXE_MAX_PD, 1048576);
  EXPECT_EQ(RXE_MAX_QP_RD_ATOM, 128);
  EXPECT_EQ(RXE_MAX_QP_INIT_RD_ATOM, 128);
  EXPECT_EQ(RXE_MAX_RES_RD_ATOM, 258048);
  EXPECT_EQ(RXE_ATOMIC_CAP, 1);
  EXPECT_EQ(RXE_MAX_MCAST_GRP, 8192);
  EXPECT_EQ(RXE_MAX_MCAST_QP_ATTACH, 56);
  EXPECT_EQ(RXE_MAX_TOT_MCAST_QP_ATTACH, 458752);
  EXPECT_EQ(RXE_MAX_AH, 32767);
  EXPECT_EQ(RXE_MAX_SRQ, 917503);
  EXPECT_EQ(RXE_MAX_SRQ_WR, 1048576);
  EXPECT_EQ(RXE_MAX_SRQ_SGE, 27);
  EXPECT_EQ(RXE_MAX_PKEYS, 64);
  EXPECT_EQ(RXE_LOCAL_CA_ACK_DELAY, 15);
  EXPECT_EQ(RXE_GID_TBL_LEN, 1024);
  EXPECT_EQ(RXE_PKEY_TBL_LEN, 1);
  EXPECT_EQ(RXE_PORT_CAP_FLAGS, 0x00010000);
  EXPECT_EQ(RXE_MAX_MSG_SZ, 0x800000);
  EXPECT_EQ(RXE_MAX_VL_NUM, 1);
  EXPECT_EQ(RXE_MAX_MAD_SIZE, 256);
  EXPECT_EQ(RXE_UVERBS_ABI_VER, 2);
}

// The twelve device capability flags 6.1 rxe sets, by bit number (IBTA / uapi numbering).
TEST(RxeAttrs, DeviceCapFlags) {
  const u64 expected = (1ULL << 1) |   // BAD_PKEY_CNTR
                       (1ULL << 2) |   // BAD_QKEY_CNTR
                       (1ULL << 4) |   // AUTO_PATH_MIG
                       (1ULL << 5) |   // CHANGE_PHY_PORT
                       (1ULL << 6) |   // UD_AV_PORT_ENFORCE
                       (1ULL << 10) |  // PORT_ACTIVE_EVENT
                       (1ULL << 11) |  // SYS_IMAGE_GUID
                       (1ULL << 12) |  // RC_RNR_NAK_GEN
                       (1ULL << 13) |  // SRQ_RESIZE
                       (1ULL << 21) |  // MEM_MGT_EXTENSIONS
                       (1ULL << 17) |  // MEM_WINDOW
                       (1ULL << 24) |  // MEM_WINDOW_TYPE_2B
                       (1ULL << 40) |  // ATOMIC_WRITE (IBTA 1.5)
                       (1ULL << 38);   // FLUSH_GLOBAL (IBTA 1.5)
  EXPECT_EQ(RXE_DEVICE_CAP_FLAGS, expected);
}

struct EthSpeedCase {
  uint32_t mbps;
  uint8_t width;
  uint16_t speed;
};

// What 6.1's ibv_devinfo shows for RoCE ports on links of these speeds.
TEST(RxeEthSpeed, MatchesReferenceRanges) {
  const EthSpeedCase cases[] = {
      {0, RXE_WIDTH_1X, RXE_SPEED_SDR},       {100, RXE_WIDTH_1X, RXE_SPEED_SDR},
      {1000, RXE_WIDTH_1X, RXE_SPEED_SDR},    {2500, RXE_WIDTH_1X, RXE_SPEED_FDR10},
      {10000, RXE_WIDTH_1X, RXE_SPEED_FDR10}, {20000, RXE_WIDTH_4X, RXE_SPEED_DDR},
      {25000, RXE_WIDTH_1X, RXE_SPEED_EDR},   {40000, RXE_WIDTH_4X, RXE_SPEED_FDR10},
      {100000, RXE_WIDTH_4X, RXE_SPEED_EDR},  {0xffffffffu, RXE_WIDTH_4X, RXE_SPEED_EDR},
  };
  for (const auto &c : cases) {
    uint8_t width = 0;
    uint16_t speed = 0;
    rxe_eth_width_speed(c.mbps, &width, &speed);
    EXPECT_EQ(width, c.width) << c.mbps << " Mb/s";
    EXPECT_EQ(speed, c.speed) << c.mbps << " Mb/s";
  }
}

}  // namespace
