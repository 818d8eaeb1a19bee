// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/ucma_cmd_check.c: the
// rdma_ucm write() framing (<uapi/rdma/rdma_user_cm.h>, ABI 4), the
// command table against the sizes of the reference note's table 4.3 and
// what librdmacm v44 writes, and the payload validators.  Expected sizes
// are literals, so a table built from the wrong structure fails here.

#include "ucma_cmd_check.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// One row of table 4.3: payload the kernel reads, the write() librdmacm
// v44 issues (header + its struct), the out it sets, the response the
// kernel writes at most and at least needs, the response pointer offset.
struct Row {
  uint32_t cmd;
  const char *name;
  uint16_t payload;
  uint16_t v44_write;
  uint16_t v44_out;
  uint16_t resp;
  uint16_t resp_min;
  uint8_t resp_ptr;
};

constexpr uint8_t kNo = UCMA_NO_PTR;

// QUERY's response depends on the option: 0 here, see the Query tests.
constexpr Row kRows[] = {
    {0, "CREATE_ID", 24, 32, 4, 4, 4, 8},
    {1, "DESTROY_ID", 16, 24, 4, 4, 4, 0},
    {2, "BIND_IP", 40, 48, 0, 0, 0, kNo},
    {3, "RESOLVE_IP", 64, 72, 0, 0, 0, kNo},
    {4, "RESOLVE_ROUTE", 8, 16, 0, 0, 0, kNo},
    {5, "QUERY_ROUTE", 16, 24, 208, 208, 200, 0},
    {6, "CONNECT", 288, 296, 0, 0, 0, kNo},
    {7, "LISTEN", 8, 16, 0, 0, 0, kNo},
    {8, "ACCEPT", 296, 304, 0, 0, 0, kNo},
    {9, "REJECT", 264, 272, 0, 0, 0, kNo},
    {10, "DISCONNECT", 4, 12, 0, 0, 0, kNo},
    {11, "INIT_QP_ATTR", 16, 24, 144, 144, 144, 0},
    {12, "GET_EVENT", 8, 16, 336, 336, 324, 0},
    {14, "SET_OPTION", 24, 32, 0, 0, 0, kNo},
    {15, "NOTIFY", 8, 16, 0, 0, 0, kNo},
    {16, "JOIN_IP_MCAST", 48, 56, 4, 4, 4, 0},
    {17, "LEAVE_MCAST", 16, 24, 4, 4, 4, 0},
    {18, "MIGRATE_ID", 16, 24, 4, 4, 4, 0},
    {19, "QUERY", 16, 24, 280, 0, 0, 0},
    {20, "BIND", 136, 144, 0, 0, 0, kNo},
    {21, "RESOLVE_ADDR", 272, 280, 0, 0, 0, kNo},
    {22, "JOIN_MCAST", 152, 160, 4, 4, 4, 0},
};

bool IsEce(uint32_t cmd) {
  return cmd == RDMA_USER_CM_CMD_CONNECT || cmd == RDMA_USER_CM_CMD_ACCEPT;
}

// A write() buffer of @total bytes with the header filled in.
std::vector<uint8_t> Write(uint32_t cmd, uint16_t in, uint16_t out,
                           size_t total) {
  std::vector<uint8_t> b(total < 8 ? 8 : total, 0);
  rdma_ucm_cmd_hdr h{};
  h.cmd = cmd;
  h.in = in;
  h.out = out;
  std::memcpy(b.data(), &h, sizeof(h));
  b.resize(total);
  return b;
}

int Check(const std::vector<uint8_t> &b, ucma_cmd_layout *l) {
  return ucma_cmd_check(b.data(), b.size(), l);
}

TEST(UcmaCmdTable, EveryCommandMatchesTheNote) {
  EXPECT_EQ(UCMA_CMD_COUNT, 23);
  EXPECT_EQ(UCMA_HDR_LEN, 8u);
  for (const Row &r : kRows) {
    SCOPED_TRACE(r.name);
    const ucma_cmd_def *d = ucma_cmd_lookup(r.cmd);
    ASSERT_NE(d, nullptr);
    EXPECT_STREQ(d->name, r.name);
    EXPECT_EQ(d->in_len, r.payload);
    EXPECT_EQ(d->in_len + 8u, r.v44_write);
    EXPECT_EQ(d->out_len, r.resp);
    EXPECT_EQ(d->out_min, r.resp_min);
    EXPECT_EQ(d->resp_ptr, r.resp_ptr);
    EXPECT_EQ(d->in_min, IsEce(r.cmd) ? r.payload - 8 : r.payload);
    EXPECT_EQ(d->flags & UCMA_CMD_UNIMPL, 0u);
  }
}

TEST(UcmaCmdTable, SpecialEntries) {
  const ucma_cmd_def *d = ucma_cmd_lookup(RDMA_USER_CM_CMD_GET_OPTION);
  ASSERT_NE(d, nullptr);
  EXPECT_STREQ(d->name, "GET_OPTION");
  EXPECT_TRUE(d->flags & UCMA_CMD_UNIMPL);
  // CONNECT 280 and ACCEPT 288: the structures without the ece
  EXPECT_EQ(ucma_cmd_lookup(RDMA_USER_CM_CMD_CONNECT)->in_min, 280);
  EXPECT_EQ(ucma_cmd_lookup(RDMA_USER_CM_CMD_ACCEPT)->in_min, 288);
  EXPECT_TRUE(ucma_cmd_lookup(RDMA_USER_CM_CMD_QUERY)->flags &
              UCMA_CMD_RESP_BY_OPT);
  // SET_OPTION reads optval (offset 0); nothing else reads a pointer
  for (uint32_t c = 0; c < UCMA_CMD_COUNT; c++)
    EXPECT_EQ(ucma_cmd_lookup(c)->data_ptr,
              c == RDMA_USER_CM_CMD_SET_OPTION ? 0 : kNo)
        << c;
  EXPECT_EQ(ucma_cmd_lookup(UCMA_CMD_COUNT), nullptr);
  EXPECT_EQ(ucma_cmd_lookup(0xffffffffu), nullptr);
}

TEST(UcmaCmdCheck, EveryV44WriteIsAccepted) {
  for (const Row &r : kRows) {
    SCOPED_TRACE(r.name);
    auto b = Write(r.cmd, r.v44_write - 8, r.v44_out, r.v44_write);
    ucma_cmd_layout l{};
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_EQ(l.cmd, r.cmd);
    EXPECT_EQ(l.in_off, 8u);
    EXPECT_EQ(l.in_copy, r.payload);
    EXPECT_EQ(l.in_len, r.payload);
    EXPECT_EQ(l.out_space, r.v44_out);
    EXPECT_EQ(l.out_len, r.resp);
    EXPECT_EQ(l.resp_ptr, r.resp_ptr);
    EXPECT_EQ(l.ece, IsEce(r.cmd));
    EXPECT_LE(l.in_off + l.in_copy, b.size());
  }
}

TEST(UcmaCmdCheck, OneByteShortIsRefused) {
  for (const Row &r : kRows) {
    SCOPED_TRACE(r.name);
    ucma_cmd_layout l{};
    // the header tells the truth, the payload is short
    uint16_t min = IsEce(r.cmd) ? r.payload - 8 : r.payload;
    auto b = Write(r.cmd, min - 1, r.v44_out, 8 + min - 1);
    EXPECT_EQ(Check(b, &l), -EINVAL);
    // the header claims the full payload, the write is short
    b = Write(r.cmd, r.v44_write - 8, r.v44_out, r.v44_write - 1);
    EXPECT_EQ(Check(b, &l), -EINVAL);
  }
}

TEST(UcmaCmdCheck, ShortResponseSpaceIsNoSpace) {
  for (const Row &r : kRows) {
    if (!r.resp_min)
      continue;
    SCOPED_TRACE(r.name);
    ucma_cmd_layout l{};
    auto b = Write(r.cmd, r.payload, r.resp_min - 1, r.v44_write);
    EXPECT_EQ(Check(b, &l), -ENOSPC);
    b = Write(r.cmd, r.payload, r.resp_min, r.v44_write);
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_EQ(l.out_len, r.resp_min);
    b = Write(r.cmd, r.payload, 0xffff, r.v44_write);
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_EQ(l.out_len, r.resp);
  }
}

TEST(UcmaCmdCheck, ShortWriteOrBadNumber) {
  ucma_cmd_layout l{};
  EXPECT_EQ(ucma_cmd_check(nullptr, 0, &l), -EINVAL);
  auto b = Write(RDMA_USER_CM_CMD_DISCONNECT, 0, 0, 8);
  for (size_t n = 0; n < 8; n++)
    EXPECT_EQ(ucma_cmd_check(b.data(), n, &l), -EINVAL) << n;
  for (uint32_t c : {23u, 24u, 255u, 0x80000000u, 0xffffffffu}) {
    b = Write(c, 8, 0, 16);
    EXPECT_EQ(Check(b, &l), -EINVAL) << c;
  }
}

TEST(UcmaCmdCheck, HeaderLies) {
  ucma_cmd_layout l{};
  // in says more than was written
  auto b = Write(RDMA_USER_CM_CMD_LISTEN, 8, 0, 15);
  EXPECT_EQ(Check(b, &l), -EINVAL);
  b = Write(RDMA_USER_CM_CMD_LISTEN, 0xffff, 0, 16);
  EXPECT_EQ(Check(b, &l), -EINVAL);
  // a write longer than 8 + in: the rest is ignored
  b = Write(RDMA_USER_CM_CMD_LISTEN, 8, 0, 64);
  ASSERT_EQ(Check(b, &l), 0);
  EXPECT_EQ(l.in_copy, 8u);
  // a payload longer than the structure: only the structure is copied
  b = Write(RDMA_USER_CM_CMD_LISTEN, 40, 0, 48);
  ASSERT_EQ(Check(b, &l), 0);
  EXPECT_EQ(l.in_copy, 8u);
}

TEST(UcmaCmdCheck, GetOptionIsNotImplemented) {
  ucma_cmd_layout l{};
  auto b = Write(RDMA_USER_CM_CMD_GET_OPTION, 24, 64, 32);
  EXPECT_EQ(Check(b, &l), -ENOSYS);
  b = Write(RDMA_USER_CM_CMD_GET_OPTION, 0, 0, 8);
  EXPECT_EQ(Check(b, &l), -ENOSYS);
  // the length rule comes first, as in the framing order
  b = Write(RDMA_USER_CM_CMD_GET_OPTION, 24, 0, 16);
  EXPECT_EQ(Check(b, &l), -EINVAL);
}

TEST(UcmaCmdCheck, ConnectAndAcceptEce) {
  for (uint32_t c : {6u, 8u}) {
    SCOPED_TRACE(c);
    const uint16_t full = c == 6 ? 288 : 296;
    const uint16_t bare = full - 8;
    ucma_cmd_layout l{};
    auto b = Write(c, full, 0, 8 + full);
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_TRUE(l.ece);
    EXPECT_EQ(l.in_copy, full);
    // without the ece: copy what is there, zero the rest, no ECE
    b = Write(c, bare, 0, 8 + bare);
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_FALSE(l.ece);
    EXPECT_EQ(l.in_copy, bare);
    EXPECT_EQ(l.in_len, full);
    // half an ece is no ece
    b = Write(c, bare + 4, 0, 8 + bare + 4);
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_FALSE(l.ece);
    EXPECT_EQ(l.in_copy, bare + 4u);
    // longer than the structure
    b = Write(c, full + 16, 0, 8 + full + 16);
    ASSERT_EQ(Check(b, &l), 0);
    EXPECT_TRUE(l.ece);
    EXPECT_EQ(l.in_copy, full);
    b = Write(c, bare - 1, 0, 8 + bare - 1);
    EXPECT_EQ(Check(b, &l), -EINVAL);
  }
}

TEST(UcmaCmdResponse, PointerRequiredWhereAResponseIsWritten) {
  ucma_cmd_layout l{};
  auto b = Write(RDMA_USER_CM_CMD_CREATE_ID, 24, 4, 32);
  ASSERT_EQ(Check(b, &l), 0);
  rdma_ucm_create_id c{};
  c.response = 0x7fff1000;
  u64 addr = 1;
  EXPECT_EQ(ucma_cmd_response(&c, &l, &addr), 0);
  EXPECT_EQ(addr, 0x7fff1000u);
  c.response = 0;
  c.uid = 0x1234;  // the uid at offset 0 is not the response
  EXPECT_EQ(ucma_cmd_response(&c, &l, &addr), -EFAULT);

  b = Write(RDMA_USER_CM_CMD_BIND_IP, 40, 0, 48);
  ASSERT_EQ(Check(b, &l), 0);
  rdma_ucm_bind_ip bi{};
  addr = 1;
  EXPECT_EQ(ucma_cmd_response(&bi, &l, &addr), 0);  // its field is unused
  EXPECT_EQ(addr, 0u);
}

ucma_cmd_layout QueryLayout(uint16_t out) {
  ucma_cmd_layout l{};
  auto b = Write(RDMA_USER_CM_CMD_QUERY, 16, out, 24);
  EXPECT_EQ(Check(b, &l), 0);
  return l;
}

TEST(UcmaQuery, ResponseByOption) {
  // ADDR and GID: min(out, 280), at least 272; PATH: the 8-byte header
  // and whole 72-byte records, two at most
  const struct {
    uint32_t option;
    uint16_t out;
    int ret;
    uint32_t len;
  } cases[] = {
      {0, 280, 0, 280},      {0, 1000, 0, 280},     {0, 272, 0, 272},
      {0, 271, -ENOSPC, 0},  {2, 280, 0, 280},      {2, 1000, 0, 280},
      {2, 272, 0, 272},      {2, 271, -ENOSPC, 0},  {1, 440, 0, 8 + 2 * 72},
      {1, 8 + 72 + 71, 0, 80}, {1, 8, 0, 8},        {1, 7, -ENOSPC, 0},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(testing::Message() << c.option << "/" << c.out);
    auto l = QueryLayout(c.out);
    ASSERT_EQ(ucma_query_check(c.option, &l), c.ret);
    if (!c.ret) {
      EXPECT_EQ(l.out_len, c.len);
    }
  }
}

TEST(UcmaQuery, UnknownOptionAndOtherCommands) {
  auto l = QueryLayout(440);
  EXPECT_EQ(ucma_query_check(3, &l), -ENOSYS);
  EXPECT_EQ(ucma_query_check(0xffffffffu, &l), -ENOSYS);
  auto b = Write(RDMA_USER_CM_CMD_QUERY_ROUTE, 16, 208, 24);
  ASSERT_EQ(Check(b, &l), 0);
  EXPECT_EQ(ucma_query_check(0, &l), -EINVAL);
}

TEST(UcmaCreateId, PortSpacesAndQpTypes) {
  rdma_ucm_create_id c{};
  uint8_t t = 0;
  c.ps = RDMA_PS_TCP;
  c.qp_type = 99;  // ignored outside the IB port space
  ASSERT_EQ(ucma_check_create_id(&c, &t), 0);
  EXPECT_EQ(t, 2);  // RC
  c.ps = RDMA_PS_UDP;
  ASSERT_EQ(ucma_check_create_id(&c, &t), 0);
  EXPECT_EQ(t, 4);  // UD
  c.ps = RDMA_PS_IPOIB;
  ASSERT_EQ(ucma_check_create_id(&c, &t), 0);
  EXPECT_EQ(t, 4);
  c.ps = RDMA_PS_IB;
  c.qp_type = 2;
  ASSERT_EQ(ucma_check_create_id(&c, &t), 0);
  EXPECT_EQ(t, 2);
  c.qp_type = 4;
  ASSERT_EQ(ucma_check_create_id(&c, &t), 0);
  EXPECT_EQ(t, 4);
  for (uint8_t q : {3, 9, 10}) {
    c.qp_type = q;
    EXPECT_EQ(ucma_check_create_id(&c, &t), -EOPNOTSUPP) << int(q);
  }
  for (uint8_t q : {0, 1, 5, 8, 11, 255}) {
    c.qp_type = q;
    EXPECT_EQ(ucma_check_create_id(&c, &t), -EINVAL) << int(q);
  }
  c.qp_type = 2;
  for (uint16_t ps : {0x0000, 0x0001, 0x0107, 0x013e, 0xffff}) {
    c.ps = ps;
    EXPECT_EQ(ucma_check_create_id(&c, &t), -EINVAL) << ps;
  }
}

TEST(UcmaAddr, FamilyLengths) {
  EXPECT_EQ(ucma_addr_len(2), 16u);    // AF_INET
  EXPECT_EQ(ucma_addr_len(10), 28u);   // AF_INET6
  EXPECT_EQ(ucma_addr_len(27), 48u);   // AF_IB
  for (uint32_t f : {0u, 1u, 17u, 26u, 28u, 0xffffu, 0x1000au})
    EXPECT_EQ(ucma_addr_len(f), 0u) << f;
}

__kernel_sockaddr_storage Kss(uint16_t family) {
  __kernel_sockaddr_storage s{};
  s.ss_family = family;
  return s;
}

TEST(UcmaAddr, StorageNeedsTheFamilysExactLength) {
  const struct {
    uint16_t family;
    uint32_t len;
  } ok[] = {{2, 16}, {10, 28}, {27, 48}};
  for (auto &o : ok) {
    auto s = Kss(o.family);
    EXPECT_EQ(ucma_check_kss(&s, o.len, false), 0) << o.family;
    EXPECT_EQ(ucma_check_kss(&s, o.len - 1, false), -EINVAL);
    EXPECT_EQ(ucma_check_kss(&s, o.len + 1, false), -EINVAL);
    EXPECT_EQ(ucma_check_kss(&s, 128, false), -EINVAL);
    EXPECT_EQ(ucma_check_kss(&s, 0, false), -EINVAL);
    EXPECT_EQ(ucma_check_kss(&s, 0, true), 0);
  }
  for (uint16_t f : {0, 1, 17, 0xffff}) {
    auto s = Kss(f);
    for (uint32_t len : {0u, 16u, 28u, 48u, 128u})
      EXPECT_EQ(ucma_check_kss(&s, len, false), -EINVAL) << f << " " << len;
  }
}

TEST(UcmaAddr, In6FieldHoldsInetAndInet6Only) {
  sockaddr_in6 a{};
  uint32_t size = 99;
  a.sin6_family = 2;
  ASSERT_EQ(ucma_check_in6(&a, false, &size), 0);
  EXPECT_EQ(size, 16u);
  a.sin6_family = 10;
  ASSERT_EQ(ucma_check_in6(&a, false, &size), 0);
  EXPECT_EQ(size, 28u);
  a.sin6_family = 27;  // AF_IB is 48 bytes: no room
  EXPECT_EQ(ucma_check_in6(&a, false, &size), -EINVAL);
  a.sin6_family = 1;
  EXPECT_EQ(ucma_check_in6(&a, true, &size), -EINVAL);
  a.sin6_family = 0;
  EXPECT_EQ(ucma_check_in6(&a, false, &size), -EINVAL);
  ASSERT_EQ(ucma_check_in6(&a, true, &size), 0);
  EXPECT_EQ(size, 0u);
}

TEST(UcmaAddr, Commands) {
  rdma_ucm_bind b{};
  b.addr = Kss(2);
  b.addr_size = 16;
  EXPECT_EQ(ucma_check_bind(&b), 0);
  b.reserved = 1;
  EXPECT_EQ(ucma_check_bind(&b), -EINVAL);
  b.reserved = 0;
  b.addr_size = 0;
  EXPECT_EQ(ucma_check_bind(&b), -EINVAL);

  rdma_ucm_resolve_addr r{};
  r.dst_addr = Kss(27);
  r.dst_size = 48;
  EXPECT_EQ(ucma_check_resolve_addr(&r), 0);  // no source
  r.src_addr = Kss(10);
  r.src_size = 28;
  EXPECT_EQ(ucma_check_resolve_addr(&r), 0);
  r.src_size = 16;
  EXPECT_EQ(ucma_check_resolve_addr(&r), -EINVAL);
  r.src_size = 0;
  r.dst_size = 0;
  EXPECT_EQ(ucma_check_resolve_addr(&r), -EINVAL);
  r.dst_size = 48;
  r.reserved = 1;
  EXPECT_EQ(ucma_check_resolve_addr(&r), -EINVAL);

  rdma_ucm_bind_ip bi{};
  EXPECT_EQ(ucma_check_bind_ip(&bi), -EINVAL);
  bi.addr.sin6_family = 2;
  EXPECT_EQ(ucma_check_bind_ip(&bi), 0);

  rdma_ucm_resolve_ip ri{};
  ri.dst_addr.sin6_family = 10;
  EXPECT_EQ(ucma_check_resolve_ip(&ri), 0);
  ri.src_addr.sin6_family = 27;
  EXPECT_EQ(ucma_check_resolve_ip(&ri), -EINVAL);
  ri.src_addr.sin6_family = 2;
  ri.dst_addr.sin6_family = 0;
  EXPECT_EQ(ucma_check_resolve_ip(&ri), -EINVAL);
}

TEST(UcmaAddr, Join) {
  rdma_ucm_join_mcast j{};
  j.addr = Kss(2);
  j.addr_size = 16;
  EXPECT_EQ(ucma_check_join_mcast(&j), 0);
  j.join_flags = RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER;
  EXPECT_EQ(ucma_check_join_mcast(&j), 0);
  j.join_flags = RDMA_MC_JOIN_FLAG_RESERVED;
  EXPECT_EQ(ucma_check_join_mcast(&j), -EINVAL);
  j.join_flags = 0;
  j.addr_size = 28;
  EXPECT_EQ(ucma_check_join_mcast(&j), -EINVAL);
  j.addr = Kss(0);  // no family, no length: still no address
  j.addr_size = 0;
  EXPECT_EQ(ucma_check_join_mcast(&j), -EINVAL);

  rdma_ucm_join_ip_mcast ji{};
  uint32_t size = 0;
  EXPECT_EQ(ucma_check_join_ip_mcast(&ji, &size), -EINVAL);
  ji.addr.sin6_family = 10;
  ASSERT_EQ(ucma_check_join_ip_mcast(&ji, &size), 0);
  EXPECT_EQ(size, 28u);
  ji.addr.sin6_family = 27;
  EXPECT_EQ(ucma_check_join_ip_mcast(&ji, &size), -EINVAL);
}

TEST(UcmaPrivateData, Budgets) {
  const uint32_t inet = 2, ib = 27;
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_CONNECT, 2, inet), 56u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_CONNECT, 4, inet), 180u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_CONNECT, 2, ib), 92u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_CONNECT, 4, ib), 216u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_ACCEPT, 2, inet), 196u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_ACCEPT, 4, inet), 136u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_REJECT, 2, inet), 148u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_REJECT, 4, inet), 136u);
  EXPECT_EQ(ucma_private_data_max(RDMA_USER_CM_CMD_LISTEN, 2, inet), 0u);
}

TEST(UcmaPrivateData, Bounds) {
  EXPECT_EQ(ucma_check_private_data(0, 0), 0);
  EXPECT_EQ(ucma_check_private_data(56, 56), 0);
  EXPECT_EQ(ucma_check_private_data(57, 56), -EINVAL);
  EXPECT_EQ(ucma_check_private_data(256, 1000), 0);
  EXPECT_EQ(ucma_check_private_data(257, 1000), -EINVAL);
  EXPECT_EQ(ucma_check_private_data(0xffffffffu, 0xffffffffu), -EINVAL);
}

TEST(UcmaPrivateData, ConnParam) {
  rdma_ucm_conn_param p{};
  p.private_data_len = 255;
  EXPECT_EQ(ucma_check_conn_param(&p, true, 56), -EINVAL);  // not valid
  EXPECT_EQ(ucma_check_conn_param(&p, false, 196), 0);       // no params
  p.valid = 1;
  EXPECT_EQ(ucma_check_conn_param(&p, false, 196), -EINVAL);
  p.private_data_len = 56;
  EXPECT_EQ(ucma_check_conn_param(&p, true, 56), 0);
  p.private_data_len = 57;
  EXPECT_EQ(ucma_check_conn_param(&p, true, 56), -EINVAL);
}

TEST(UcmaPrivateData, Reject) {
  rdma_ucm_reject r{};
  uint8_t reason = 0;
  ASSERT_EQ(ucma_check_reject(&r, 148, &reason), 0);
  EXPECT_EQ(reason, 28);  // consumer defined
  r.reason = 35;
  ASSERT_EQ(ucma_check_reject(&r, 148, &reason), 0);
  EXPECT_EQ(reason, 35);
  for (uint8_t bad : {1, 27, 29, 34, 36, 255}) {
    r.reason = bad;
    EXPECT_EQ(ucma_check_reject(&r, 148, &reason), -EINVAL) << int(bad);
  }
  r.reason = 28;
  r.private_data_len = 148;
  EXPECT_EQ(ucma_check_reject(&r, 148, &reason), 0);
  r.private_data_len = 149;
  EXPECT_EQ(ucma_check_reject(&r, 148, &reason), -EINVAL);
}

TEST(UcmaMisc, InitQpAttrAndBacklog) {
  rdma_ucm_init_qp_attr a{};
  for (uint32_t s = 0; s <= 6; s++) {
    a.qp_state = s;
    EXPECT_EQ(ucma_check_init_qp_attr(&a), 0) << s;
  }
  for (uint32_t s : {7u, 8u, 0xffffffffu}) {
    a.qp_state = s;
    EXPECT_EQ(ucma_check_init_qp_attr(&a), -EINVAL) << s;
  }
  EXPECT_EQ(ucma_listen_backlog(0, 1024), 1024u);
  EXPECT_EQ(ucma_listen_backlog(-1, 1024), 1024u);
  EXPECT_EQ(ucma_listen_backlog(INT32_MIN, 1024), 1024u);
  EXPECT_EQ(ucma_listen_backlog(1, 1024), 1u);
  EXPECT_EQ(ucma_listen_backlog(1024, 1024), 1024u);
  EXPECT_EQ(ucma_listen_backlog(1025, 1024), 1024u);
}

TEST(UcmaSetOption, Table) {
  const struct {
    uint32_t level, name, len;
    int ret;
  } cases[] = {
      {0, 0, 1, 0},        {0, 0, 0, -EINVAL},  {0, 0, 4, -EINVAL},
      {0, 1, 4, 0},        {0, 1, 1, -EINVAL},  {0, 1, 8, -EINVAL},
      {0, 2, 4, 0},        {0, 2, 2, -EINVAL},  {0, 3, 1, 0},
      {0, 3, 4, -EINVAL},  {0, 4, 1, -ENOSYS},  {0, 0xffffffffu, 4, -ENOSYS},
      {1, 1, 72, 0},       {1, 1, 144, 0},      {1, 1, 72 * 16, 0},
      {1, 1, 72 * 17, -EINVAL},                 {1, 1, 0, -EINVAL},
      {1, 1, 73, -EINVAL}, {1, 1, 71, -EINVAL}, {1, 1, 0xffffffffu, -EINVAL},
      {1, 0, 72, -ENOSYS}, {1, 2, 72, -ENOSYS}, {2, 1, 72, -ENOSYS},
      {0xffffffffu, 0, 1, -ENOSYS},
  };
  for (auto &c : cases)
    EXPECT_EQ(ucma_check_set_option(c.level, c.name, c.len), c.ret)
        << c.level << "/" << c.name << "/" << c.len;
}

TEST(UcmaSetOption, IbPathNeedsAPrimaryBidirectionalRecord) {
  ib_path_rec_data recs[3] = {};
  uint32_t idx = 99;
  EXPECT_EQ(ucma_find_ib_path(recs, sizeof(recs), &idx), -EINVAL);
  recs[0].flags = 0x2f;  // also ALTERNATE: not the wanted record
  recs[2].flags = 0x2b;  // GMP | PRIMARY | OUTBOUND | INBOUND_REVERSE
  ASSERT_EQ(ucma_find_ib_path(recs, sizeof(recs), &idx), 0);
  EXPECT_EQ(idx, 2u);
  // only the records within optlen count
  EXPECT_EQ(ucma_find_ib_path(recs, 2 * sizeof(recs[0]), &idx), -EINVAL);
}

}  // namespace
