// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/cma_wire.c: rdma_cm's
// 36-byte header in REQ/SIDR_REQ private data against bytes written at
// the offsets of the reference note (docs/rdma-cm.md, 3.1), the private
// data budgets, and the RDMA IP CM service IDs (3.2).

#include <rdma/cma_wire.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace {

void be(u8 *p, u64 v, int n) {
  for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = (u8)v;
}

struct cma_wire_hdr V4(u32 src, u32 dst, u16 port) {
  struct cma_wire_hdr h;
  memset(&h, 0, sizeof(h));
  h.ip_version = 4;
  be((u8 *)&h.port, port, 2);
  be((u8 *)&h.src.ip4, src, 4);
  be((u8 *)&h.dst.ip4, dst, 4);
  return h;
}

struct cma_wire_hdr V6() {
  struct cma_wire_hdr h;
  memset(&h, 0, sizeof(h));
  h.ip_version = 6;
  be((u8 *)&h.port, 0xc350, 2);
  for (int i = 0; i < 16; i++) {
    h.src.ip6[i] = (u8)(0x20 + i);
    h.dst.ip6[i] = (u8)(0x80 + i);
  }
  return h;
}

// @h encodes to @want, and @want decodes to @h
void ExpectHdrImage(const struct cma_wire_hdr &h, const u8 (&want)[36]) {
  u8 got[36];
  memset(got, 0xee, sizeof(got));
  ASSERT_EQ(cma_wire_hdr_encode(got, sizeof(got), &h), 0);
  for (int i = 0; i < 36; i++) EXPECT_EQ((int)got[i], (int)want[i]) << "byte " << i;
  struct cma_wire_hdr back;
  ASSERT_EQ(cma_wire_hdr_decode(want, sizeof(want), &back), 0);
  EXPECT_EQ(0, memcmp(&back, &h, sizeof(h)));
}

TEST(CmaHdr, Ipv4Image) {
  u8 want[36] = {};
  want[0] = 0x00;
  want[1] = 0x40;
  be(want + 2, 45000, 2);
  be(want + 16, 0xc0a80101, 4);
  be(want + 32, 0xc0a80102, 4);
  ExpectHdrImage(V4(0xc0a80101, 0xc0a80102, 45000), want);
}

TEST(CmaHdr, Ipv6Image) {
  u8 want[36] = {};
  want[1] = 0x60;
  be(want + 2, 0xc350, 2);
  for (int i = 0; i < 16; i++) {
    want[4 + i] = (u8)(0x20 + i);
    want[20 + i] = (u8)(0x80 + i);
  }
  ExpectHdrImage(V6(), want);
}

TEST(CmaHdr, Ipv4PadAndTheLowNibbleAreIgnored) {
  struct cma_wire_hdr h = V4(0x0a000001, 0x0a000002, 1);
  u8 img[36];
  ASSERT_EQ(cma_wire_hdr_encode(img, sizeof(img), &h), 0);
  img[1] |= 0x0f;
  for (int i = 4; i < 16; i++) img[i] = 0xff;
  for (int i = 20; i < 32; i++) img[i] = 0xff;
  struct cma_wire_hdr back;
  ASSERT_EQ(cma_wire_hdr_decode(img, sizeof(img), &back), 0);
  EXPECT_EQ(0, memcmp(&back, &h, sizeof(h)));
}

TEST(CmaHdr, RefusesShortOtherVersionsAndOtherFamilies) {
  struct cma_wire_hdr h = V4(1, 2, 3);
  u8 img[36];
  ASSERT_EQ(cma_wire_hdr_encode(img, sizeof(img), &h), 0);
  struct cma_wire_hdr back;
  EXPECT_EQ(cma_wire_hdr_decode(img, 35, &back), -EINVAL);
  EXPECT_EQ(cma_wire_hdr_encode(img, 35, &h), -EINVAL);
  for (int v = 1; v < 256; v++) {
    img[0] = (u8)v;
    EXPECT_EQ(cma_wire_hdr_decode(img, sizeof(img), &back), -EINVAL) << v;
  }
  img[0] = 0;
  for (int ipv = 0; ipv < 16; ipv++) {
    img[1] = (u8)(ipv << 4);
    EXPECT_EQ(cma_wire_hdr_decode(img, sizeof(img), &back),
              ipv == 4 || ipv == 6 ? 0 : -EAFNOSUPPORT)
        << ipv;
  }
  for (u8 ipv : {0, 5, 0x46}) {
    h.ip_version = ipv;
    EXPECT_EQ(cma_wire_hdr_encode(img, sizeof(img), &h), -EAFNOSUPPORT) << (int)ipv;
  }
}

TEST(CmaPriv, BudgetsAreWhatTheHeaderLeaves) {
  EXPECT_EQ(CMA_WIRE_HDR_LEN, 36);
  EXPECT_EQ(CMA_WIRE_REQ_USER_LEN, 56);
  EXPECT_EQ(CMA_WIRE_SIDR_REQ_USER_LEN, 180);
  struct cma_wire_hdr h = V6();
  std::vector<u8> user(200, 0x5a);
  for (u32 priv_len : {92u, 216u}) {
    u32 budget = priv_len - 36;
    std::vector<u8> priv(priv_len, 0xee);
    ASSERT_EQ(cma_wire_build_priv(priv.data(), priv_len, &h, user.data(), budget), 0);
    for (u32 i = 36; i < priv_len; i++) EXPECT_EQ(priv[i], 0x5a) << i;
    EXPECT_EQ(cma_wire_build_priv(priv.data(), priv_len, &h, user.data(), budget + 1),
              -EINVAL);
    ASSERT_EQ(cma_wire_build_priv(priv.data(), priv_len, &h, user.data(), 3), 0);
    u8 hdr[36];
    ASSERT_EQ(cma_wire_hdr_encode(hdr, sizeof(hdr), &h), 0);
    EXPECT_EQ(0, memcmp(priv.data(), hdr, 36));
    EXPECT_EQ(priv[36 + 2], 0x5a);
    for (u32 i = 36 + 3; i < priv_len; i++) EXPECT_EQ(priv[i], 0) << i;
  }
  u8 small[35];
  EXPECT_EQ(cma_wire_build_priv(small, sizeof(small), &h, nullptr, 0), -EINVAL);
}

TEST(CmaSid, PortSpaceAndPort) {
  EXPECT_EQ(cma_wire_service_id(RDMA_PS_TCP, 7471), 0x0000000001061d2fULL);
  EXPECT_EQ(cma_wire_service_id(RDMA_PS_UDP, 0x0457), 0x0000000001110457ULL);
  EXPECT_EQ(cma_wire_service_id(RDMA_PS_IB, 0), 0x00000000013f0000ULL);
  EXPECT_EQ(cma_wire_service_id(RDMA_PS_IPOIB, 0xffff), 0x000000000002ffffULL);
  for (enum rdma_ucm_port_space ps : {RDMA_PS_IPOIB, RDMA_PS_IB, RDMA_PS_TCP, RDMA_PS_UDP}) {
    for (u16 port : {0, 1, 7471, 0xffff}) {
      enum rdma_ucm_port_space got_ps;
      u16 got_port;
      ASSERT_EQ(cma_wire_sid_split(cma_wire_service_id(ps, port), &got_ps, &got_port), 0);
      EXPECT_EQ(got_ps, ps);
      EXPECT_EQ(got_port, port);
    }
  }
}

TEST(CmaSid, SplitRefusesWhatIsNotAnIpCmServiceId) {
  enum rdma_ucm_port_space ps;
  u16 port;
  EXPECT_EQ(cma_wire_sid_split(0x0000000101061d2fULL, &ps, &port), -EINVAL);
  EXPECT_EQ(cma_wire_sid_split(0x8000000001061d2fULL, &ps, &port), -EINVAL);
  EXPECT_EQ(cma_wire_sid_split(0x0000000001071d2fULL, &ps, &port), -EINVAL);
  EXPECT_EQ(cma_wire_sid_split(0x0000000000001d2fULL, &ps, &port), -EINVAL);
  EXPECT_FALSE(cma_wire_ps_known(0x0107));
  EXPECT_TRUE(cma_wire_ps_known(0x0106));
}

TEST(CmaSid, AfIbPrefixIsEverythingButThePort) {
  // librdmacm's AF_IB probe binds this SID under this mask (note 0.1)
  EXPECT_EQ(CMA_WIRE_SID_PS_MASK, 0xffffffffffff0000ULL);
  EXPECT_EQ(cma_wire_service_id(RDMA_PS_TCP, 7471) & CMA_WIRE_SID_PS_MASK,
            0x0000000001060000ULL);
}

}  // namespace

TEST(CmaWireRoute, RoceMtuFromNetdevMtu) {
  // 1500 - 96 = 1404: 1024; the boundaries of each code
  EXPECT_EQ(cma_wire_roce_mtu(1500), 3);
  EXPECT_EQ(cma_wire_roce_mtu(9000), 5);
  EXPECT_EQ(cma_wire_roce_mtu(4096 + 96), 5);
  EXPECT_EQ(cma_wire_roce_mtu(4096 + 95), 4);
  EXPECT_EQ(cma_wire_roce_mtu(2048 + 96), 4);
  EXPECT_EQ(cma_wire_roce_mtu(1024 + 96), 3);
  EXPECT_EQ(cma_wire_roce_mtu(1024 + 95), 2);
  EXPECT_EQ(cma_wire_roce_mtu(256 + 96), 1);
  EXPECT_EQ(cma_wire_roce_mtu(256 + 95), 0);
  EXPECT_EQ(cma_wire_roce_mtu(0), 0);
  EXPECT_EQ(cma_wire_roce_mtu(0xffffffffu), 5);
}

TEST(CmaWireRoute, FlowLabelOfPorts) {
  EXPECT_EQ(cma_wire_flow_label(0, 0), 0u);
  EXPECT_EQ(cma_wire_flow_label(1, 2), 33u);
  EXPECT_EQ(cma_wire_flow_label(40000, 7471), (40000u * 31 + 7471) & 0xfffff);
  EXPECT_EQ(cma_wire_flow_label(0xffff, 0xffff), (0xffffu * 32) & 0xfffff);
}
