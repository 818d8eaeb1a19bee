// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/ucma_resp.c: the records
// rdma_ucm's QUERY(PATH), QUERY_ROUTE and QUERY(GID) return, checked byte
// by byte against the SA PathRecord layout, against how librdmacm v44
// reads them back (ucma_convert_path: flow label = word >> 8, hop limit
// the low byte, reversible the top bit, SL the low nibble, MTU/rate/PLT
// the low bits), and against struct sockaddr_ib's offsets.

#include "ucma_cmd_check.h"
#include "ucma_resp.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace {

ucma_path sample()
{
  ucma_path p{};
  p.service_id = 0x0000000001061d2fULL; // PS_TCP, port 7471
  for (int i = 0; i < 16; i++) {
    p.dgid[i] = (uint8_t)(0xd0 + i);
    p.sgid[i] = (uint8_t)(0x50 + i);
  }
  p.flow_label = 0xabcde;
  p.hop_limit = 64;
  p.traffic_class = 0x88;
  p.pkey = 0xffff;
  p.sl = 3;
  p.mtu = 3; // IB_MTU_1024
  p.rate = 0;
  p.packet_life_time = 18;
  return p;
}

uint32_t be32_at(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint16_t be16_at(const uint8_t *p)
{
  return (uint16_t)(p[0] << 8 | p[1]);
}

TEST(UcmaResp, PathRecordLayout)
{
  ib_path_rec_data d;
  memset(&d, 0xa5, sizeof(d));
  ucma_path p = sample();
  ucma_fill_path_rec_data(&p, &d);
  const uint8_t *r = reinterpret_cast<const uint8_t *>(d.path_rec);

  EXPECT_EQ(d.flags, 0x2bu); // GMP | PRIMARY | BIDIRECTIONAL
  EXPECT_EQ(d.reserved, 0u);
  const uint8_t sid[8] = {0, 0, 0, 0, 0x01, 0x06, 0x1d, 0x2f};
  EXPECT_EQ(memcmp(r + 0, sid, 8), 0);
  EXPECT_EQ(memcmp(r + 8, p.dgid, 16), 0);
  EXPECT_EQ(memcmp(r + 24, p.sgid, 16), 0);
  EXPECT_EQ(be16_at(r + 40), 0); // DLID: none on RoCE
  EXPECT_EQ(be16_at(r + 42), 0); // SLID
  // what librdmacm's ucma_convert_path reads back
  uint32_t fl_hop = be32_at(r + 44);
  EXPECT_EQ(fl_hop >> 8, 0xabcdeu);
  EXPECT_EQ(fl_hop & 0xff, 64u);
  EXPECT_EQ(fl_hop >> 31, 0u); // raw traffic
  EXPECT_EQ(r[48], 0x88);
  EXPECT_EQ(r[49] >> 7, 1); // reversible
  EXPECT_EQ(r[49] & 0x7f, 1); // one path
  EXPECT_EQ(be16_at(r + 50), 0xffff);
  EXPECT_EQ(be16_at(r + 52) & 0xf, 3);
  EXPECT_EQ(r[54], (2 << 6) | 3);
  EXPECT_EQ(r[55], (2 << 6) | 0);
  EXPECT_EQ(r[56], (2 << 6) | 18);
  for (int i = 57; i < 64; i++)
    EXPECT_EQ(r[i], 0) << "byte " << i;
}

TEST(UcmaResp, PathRecordMasksOversizedFields)
{
  ib_path_rec_data d;
  ucma_path p = sample();
  p.flow_label = 0xffffffff;
  p.sl = 0xff;
  p.packet_life_time = 0xff;
  ucma_fill_path_rec_data(&p, &d);
  const uint8_t *r = reinterpret_cast<const uint8_t *>(d.path_rec);
  EXPECT_EQ(be32_at(r + 44) >> 8, 0xfffffu);
  EXPECT_EQ(be32_at(r + 44) >> 28, 0u) << "flow label spilled into raw/reserved";
  EXPECT_EQ(be16_at(r + 52), 0xf);
  EXPECT_EQ(r[56], (2 << 6) | 0x3f);
}

TEST(UcmaResp, UserPathRec)
{
  ib_user_path_rec u;
  memset(&u, 0xa5, sizeof(u));
  ucma_path p = sample();
  ucma_fill_user_path_rec(&p, &u);
  EXPECT_EQ(memcmp(u.dgid, p.dgid, 16), 0);
  EXPECT_EQ(memcmp(u.sgid, p.sgid, 16), 0);
  EXPECT_EQ(u.dlid, 0);
  EXPECT_EQ(u.slid, 0);
  EXPECT_EQ(u.raw_traffic, 0u);
  EXPECT_EQ(be32_at(reinterpret_cast<const uint8_t *>(&u.flow_label)), 0xabcdeu);
  EXPECT_EQ(u.reversible, 1u);
  EXPECT_EQ(u.mtu, 3u);
  EXPECT_EQ(be16_at(reinterpret_cast<const uint8_t *>(&u.pkey)), 0xffff);
  EXPECT_EQ(u.hop_limit, 64);
  EXPECT_EQ(u.traffic_class, 0x88);
  EXPECT_EQ(u.numb_path, 1);
  EXPECT_EQ(u.sl, 3);
  EXPECT_EQ(u.mtu_selector, 2);
  EXPECT_EQ(u.rate_selector, 2);
  EXPECT_EQ(u.packet_life_time_selector, 2);
  EXPECT_EQ(u.packet_life_time, 18);
  EXPECT_EQ(u.preference, 0);
}

TEST(UcmaResp, SockaddrIb)
{
  __kernel_sockaddr_storage ss;
  memset(&ss, 0xa5, sizeof(ss));
  uint8_t gid[16];
  for (int i = 0; i < 16; i++)
    gid[i] = (uint8_t)i;
  EXPECT_EQ(ucma_fill_sib(&ss, 0xffff, gid, 0x0000000001061d2fULL), 48u);
  const uint8_t *s = reinterpret_cast<const uint8_t *>(&ss);
  EXPECT_EQ(ss.ss_family, 27); // AF_IB
  EXPECT_EQ(be16_at(s + 2), 0xffff);
  EXPECT_EQ(be32_at(s + 4), 0u); // flowinfo
  EXPECT_EQ(memcmp(s + 8, gid, 16), 0);
  const uint8_t sid[8] = {0, 0, 0, 0, 0x01, 0x06, 0x1d, 0x2f};
  EXPECT_EQ(memcmp(s + 24, sid, 8), 0);
  for (int i = 32; i < 40; i++)
    EXPECT_EQ(s[i], 0xff) << "SID mask byte " << i;
  for (size_t i = 40; i < sizeof(ss); i++)
    ASSERT_EQ(s[i], 0) << "byte " << i << " past the mask";
}

TEST(UcmaResp, IpToGid)
{
  __kernel_sockaddr_storage ss{};
  uint8_t gid[16];
  auto *in = reinterpret_cast<sockaddr_in *>(&ss);
  in->sin_family = AF_INET;
  const uint8_t a4[4] = {10, 0, 0, 1};
  memcpy(&in->sin_addr, a4, 4);
  ASSERT_EQ(ucma_ip_to_gid(&ss, sizeof(sockaddr_in), gid), 0);
  const uint8_t v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
  EXPECT_EQ(memcmp(gid, v4, 16), 0);

  auto *in6 = reinterpret_cast<sockaddr_in6 *>(&ss);
  memset(&ss, 0, sizeof(ss));
  in6->sin6_family = AF_INET6;
  const uint8_t a6[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  memcpy(&in6->sin6_addr, a6, 16);
  ASSERT_EQ(ucma_ip_to_gid(&ss, sizeof(sockaddr_in6), gid), 0);
  EXPECT_EQ(memcmp(gid, &in6->sin6_addr, 16), 0);

  // too short for its family, or no IP family: zeros and EINVAL
  EXPECT_EQ(ucma_ip_to_gid(&ss, sizeof(sockaddr_in6) - 1, gid), -EINVAL);
  for (int i = 0; i < 16; i++)
    EXPECT_EQ(gid[i], 0);
  ss.ss_family = 27;
  EXPECT_EQ(ucma_ip_to_gid(&ss, sizeof(ss), gid), -EINVAL);
}

} // namespace
