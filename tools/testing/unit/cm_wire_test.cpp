// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/cm_wire.c.
//
// The expected layouts here are written from IBTA vol. 1, ch. 12 and the
// reference note (docs/rdma-cm.md, 2.3), independently of the field
// tables in cm_wire.c:
//   - Spots: every field of every message as (byte, bit, width); each
//     table entry must have its spot, and a member at its maximum must
//     set exactly the spot's bits (nothing spills into a neighbour);
//   - Images: one message of each type with a distinct value in every
//     field, its bytes written by hand at explicit offsets; encode must
//     produce them and decode must give the struct back;
//   - the REQ and REP that upstream rdma_cm over rxe sends (note 2.4);
//   - random round trips, reserved bits ignored, every refusal.

#include <rdma/cma_wire.h>
#include <rdma/ib_cm_wire.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Mad = std::vector<u8>;

const u32 kMad = IB_MAD_WIRE_SIZE;
const u32 kData = IB_MAD_WIRE_DATA_LEN;

void be(u8 *p, u64 v, int n) {
  for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = (u8)v;
}

// n bytes of a pattern that differs per @seed
void fill(u8 *p, int n, int seed) {
  for (int i = 0; i < n; i++) p[i] = (u8)(i * 7 + seed);
}

struct ib_cm_wire_msg Zero(u16 attr) {
  struct ib_cm_wire_msg m;
  memset(&m, 0, sizeof(m));
  m.attr_id = attr;
  return m;
}

// a CM MAD's header bytes, by hand
Mad Header(u16 attr, u64 tid, u32 attr_mod) {
  Mad m(kMad, 0);
  m[0] = 1;
  m[1] = 0x07;
  m[2] = 2;
  m[3] = 0x03;
  be(&m[8], tid, 8);
  be(&m[16], attr, 2);
  be(&m[20], attr_mod, 4);
  return m;
}

void ExpectImage(const struct ib_cm_wire_msg &m, const Mad &want) {
  Mad got(kMad, 0xa5);
  ASSERT_EQ(ib_cm_wire_encode(got.data(), kMad, &m), 0);
  for (u32 i = 0; i < kMad; i++)
    EXPECT_EQ((int)got[i], (int)want[i]) << "MAD byte " << i << " (data byte " << (int)i - 24 << ")";
  struct ib_cm_wire_msg back;
  enum ib_cm_wire_why why = IB_CM_WHY_NUM;
  ASSERT_EQ(ib_cm_wire_decode(want.data(), kMad, &back, &why), 0) << ib_cm_wire_why_str(why);
  EXPECT_EQ(why, IB_CM_WHY_OK);
  EXPECT_EQ(0, memcmp(&back, &m, sizeof(m)));
}

// ---------------------------------------------------------------- spots

struct Spot {
  const char *name;
  int byte, bit, width, shift;
};

#define PATH_SPOTS(p, at)                                                        \
  {p ".local_lid", (at), 0, 16, 0}, {p ".remote_lid", (at) + 2, 0, 16, 0},       \
      {p ".local_gid", (at) + 4, 0, 128, 0}, {p ".remote_gid", (at) + 20, 0, 128, 0}, \
      {p ".flow_label", (at) + 36, 0, 20, 0}, {p ".packet_rate", (at) + 39, 2, 6, 0}, \
      {p ".traffic_class", (at) + 40, 0, 8, 0}, {p ".hop_limit", (at) + 41, 0, 8, 0}, \
      {p ".sl", (at) + 42, 0, 4, 0}, {p ".subnet_local", (at) + 42, 4, 1, 0},     \
      {p ".local_ack_timeout", (at) + 43, 0, 5, 0}

const std::vector<Spot> kReqSpots = {
    {"local_comm_id", 0, 0, 32, 0},
    {"vendor_id", 5, 0, 24, 0},
    {"service_id", 8, 0, 64, 0},
    {"local_ca_guid", 16, 0, 64, 0},
    {"local_qkey", 28, 0, 32, 0},
    {"local_qpn", 32, 0, 24, 0},
    {"responder_resources", 35, 0, 8, 0},
    {"local_eecn", 36, 0, 24, 0},
    {"initiator_depth", 39, 0, 8, 0},
    {"remote_eecn", 40, 0, 24, 0},
    {"remote_cm_response_timeout", 43, 0, 5, 0},
    {"transport_type", 43, 5, 2, 0},
    {"flow_control", 43, 7, 1, 0},
    {"starting_psn", 44, 0, 24, 0},
    {"local_cm_response_timeout", 47, 0, 5, 0},
    {"retry_count", 47, 5, 3, 0},
    {"pkey", 48, 0, 16, 0},
    {"mtu", 50, 0, 4, 0},
    {"rdc_exists", 50, 4, 1, 0},
    {"rnr_retry_count", 50, 5, 3, 0},
    {"max_cm_retries", 51, 0, 4, 0},
    {"srq", 51, 4, 1, 0},
    {"ext_transport_type", 51, 5, 3, 0},
    PATH_SPOTS("primary", 52),
    PATH_SPOTS("alternate", 96),
    {"sap_supported", 139, 5, 1, 0},
    {"private_data", 140, 0, 92 * 8, 0},
};

const std::vector<Spot> kMraSpots = {
    {"local_comm_id", 0, 0, 32, 0}, {"remote_comm_id", 4, 0, 32, 0},
    {"msg_mraed", 8, 0, 2, 0},      {"service_timeout", 9, 0, 5, 0},
    {"private_data", 10, 0, 222 * 8, 0},
};

const std::vector<Spot> kRejSpots = {
    {"local_comm_id", 0, 0, 32, 0}, {"remote_comm_id", 4, 0, 32, 0},
    {"msg_rejected", 8, 0, 2, 0},   {"ari_length", 9, 0, 7, 0},
    {"reason", 10, 0, 16, 0},       {"ari", 12, 0, 72 * 8, 0},
    {"private_data", 84, 0, 148 * 8, 0},
};

const std::vector<Spot> kRepSpots = {
    {"local_comm_id", 0, 0, 32, 0},
    {"remote_comm_id", 4, 0, 32, 0},
    {"local_qkey", 8, 0, 32, 0},
    {"local_qpn", 12, 0, 24, 0},
    {"vendor_id", 15, 0, 8, 16},
    {"local_eecn", 16, 0, 24, 0},
    {"vendor_id", 19, 0, 8, 8},
    {"starting_psn", 20, 0, 24, 0},
    {"vendor_id", 23, 0, 8, 0},
    {"responder_resources", 24, 0, 8, 0},
    {"initiator_depth", 25, 0, 8, 0},
    {"target_ack_delay", 26, 0, 5, 0},
    {"failover_accepted", 26, 5, 2, 0},
    {"flow_control", 26, 7, 1, 0},
    {"rnr_retry_count", 27, 0, 3, 0},
    {"srq", 27, 3, 1, 0},
    {"local_ca_guid", 28, 0, 64, 0},
    {"private_data", 36, 0, 196 * 8, 0},
};

const std::vector<Spot> kRtuSpots = {
    {"local_comm_id", 0, 0, 32, 0},
    {"remote_comm_id", 4, 0, 32, 0},
    {"private_data", 8, 0, 224 * 8, 0},
};

const std::vector<Spot> kDreqSpots = {
    {"local_comm_id", 0, 0, 32, 0},
    {"remote_comm_id", 4, 0, 32, 0},
    {"remote_qpn_eecn", 8, 0, 24, 0},
    {"private_data", 12, 0, 220 * 8, 0},
};

const std::vector<Spot> kSidrReqSpots = {
    {"request_id", 0, 0, 32, 0},
    {"pkey", 4, 0, 16, 0},
    {"service_id", 8, 0, 64, 0},
    {"private_data", 16, 0, 216 * 8, 0},
};

const std::vector<Spot> kSidrRepSpots = {
    {"request_id", 0, 0, 32, 0}, {"status", 4, 0, 8, 0},
    {"info_length", 5, 0, 8, 0}, {"vendor_id", 6, 0, 16, 8},
    {"qpn", 8, 0, 24, 0},        {"vendor_id", 11, 0, 8, 0},
    {"service_id", 12, 0, 64, 0}, {"qkey", 20, 0, 32, 0},
    {"info", 24, 0, 72 * 8, 0},  {"private_data", 96, 0, 136 * 8, 0},
};

struct MsgSpots {
  u16 attr;
  const char *name;
  const std::vector<Spot> *spots;
  int priv_off, priv_len;  // note 2.3
};

const MsgSpots kMsgs[] = {
    {IB_CM_WIRE_ATTR_REQ, "REQ", &kReqSpots, 140, 92},
    {IB_CM_WIRE_ATTR_MRA, "MRA", &kMraSpots, 10, 222},
    {IB_CM_WIRE_ATTR_REJ, "REJ", &kRejSpots, 84, 148},
    {IB_CM_WIRE_ATTR_REP, "REP", &kRepSpots, 36, 196},
    {IB_CM_WIRE_ATTR_RTU, "RTU", &kRtuSpots, 8, 224},
    {IB_CM_WIRE_ATTR_DREQ, "DREQ", &kDreqSpots, 12, 220},
    {IB_CM_WIRE_ATTR_DREP, "DREP", &kRtuSpots, 8, 224},
    {IB_CM_WIRE_ATTR_SIDR_REQ, "SIDR_REQ", &kSidrReqSpots, 16, 216},
    {IB_CM_WIRE_ATTR_SIDR_REP, "SIDR_REP", &kSidrRepSpots, 96, 136},
};

void set_bits(u8 *buf, int first, int width) {
  for (int i = first; i < first + width; i++) buf[i / 8] |= (u8)(0x80 >> (i % 8));
}

// the bits a message's spots cover
std::vector<u8> Coverage(const std::vector<Spot> &spots) {
  std::vector<u8> c(kData, 0);
  for (const Spot &s : spots) set_bits(c.data(), s.byte * 8 + s.bit, s.width);
  return c;
}

const struct ib_wire_field *Find(const struct ib_cm_wire_msg_desc *d, const Spot &s) {
  for (u32 i = 0; i < d->nfields; i++)
    if (!strcmp(d->fields[i].name, s.name) && d->fields[i].shift == s.shift) return &d->fields[i];
  return nullptr;
}

// OR @v into an integer member of @size bytes, whatever the host's byte order
void OrMember(u8 *m, u8 size, u64 v) {
  switch (size) {
    case 1: *m = (u8)(*m | v); break;
    case 2: { u16 x; memcpy(&x, m, 2); x = (u16)(x | v); memcpy(m, &x, 2); break; }
    case 4: { u32 x; memcpy(&x, m, 4); x = (u32)(x | v); memcpy(m, &x, 4); break; }
    default: { u64 x; memcpy(&x, m, 8); x |= v; memcpy(m, &x, 8); break; }
  }
}

u64 Ones(int width) { return width == 64 ? ~0ULL : (1ULL << width) - 1; }

// set the member behind @f to the all-ones of its field
void SetMax(u8 *host, const struct ib_wire_field *f) {
  if (f->flags & IB_WIRE_F_BYTES)
    memset(host + f->member, 0xff, f->member_size);
  else
    OrMember(host + f->member, f->member_size, Ones(f->width) << f->shift);
}

TEST(CmWireTable, MessagesAttributesAndPrivateData) {
  for (const MsgSpots &ms : kMsgs) {
    const struct ib_cm_wire_msg_desc *d = ib_cm_wire_desc(ms.attr);
    ASSERT_NE(d, nullptr) << ms.name;
    EXPECT_STREQ(d->name, ms.name);
    EXPECT_STREQ(ib_cm_wire_attr_str(ms.attr), ms.name);
    EXPECT_EQ(d->attr_id, ms.attr);
    EXPECT_EQ(d->priv_off, ms.priv_off) << ms.name;
    EXPECT_EQ(d->priv_len, ms.priv_len) << ms.name;
    EXPECT_EQ(d->priv_off + d->priv_len, (int)kData) << ms.name;
    EXPECT_EQ(d->nfields, ms.spots->size()) << ms.name;
  }
  EXPECT_EQ(ib_cm_wire_desc(IB_CM_WIRE_ATTR_LAP), nullptr);
  EXPECT_EQ(ib_cm_wire_desc(IB_CM_WIRE_ATTR_APR), nullptr);
  EXPECT_EQ(ib_cm_wire_desc(0x000f), nullptr);
  EXPECT_STREQ(ib_cm_wire_attr_str(IB_CM_WIRE_ATTR_LAP), "LAP");
  EXPECT_STREQ(ib_cm_wire_attr_str(IB_CM_WIRE_ATTR_APR), "APR");
  EXPECT_STREQ(ib_cm_wire_attr_str(0x001b), "unknown");
  EXPECT_EQ(IB_CM_WIRE_ATTR_REQ, 0x0010);
  EXPECT_EQ(IB_CM_WIRE_ATTR_SIDR_REP, 0x0018);
  EXPECT_EQ(IB_CM_WIRE_ATTR_LAP, 0x0019);
  EXPECT_EQ(IB_CM_WIRE_ATTR_APR, 0x001a);
  EXPECT_EQ(ib_cm_wire_attr_index(0x0010), 0);
  EXPECT_EQ(ib_cm_wire_attr_index(0x001a), 10);
  EXPECT_EQ(ib_cm_wire_attr_index(0x000f), -1);
  EXPECT_EQ(ib_cm_wire_attr_index(0x001b), -1);
}

TEST(CmWireTable, SpotsOfAMessageDoNotOverlap) {
  for (const MsgSpots &ms : kMsgs) {
    std::vector<int> owner(kData * 8, -1);
    for (size_t i = 0; i < ms.spots->size(); i++) {
      const Spot &s = (*ms.spots)[i];
      for (int b = s.byte * 8 + s.bit; b < s.byte * 8 + s.bit + s.width; b++) {
        ASSERT_LT(b, (int)kData * 8) << ms.name << " " << s.name;
        EXPECT_EQ(owner[b], -1) << ms.name << " " << s.name << " bit " << b;
        owner[b] = (int)i;
      }
    }
  }
}

TEST(CmWireTable, EveryFieldAtItsMaximumSetsExactlyItsBits) {
  for (const MsgSpots &ms : kMsgs) {
    const struct ib_cm_wire_msg_desc *d = ib_cm_wire_desc(ms.attr);
    ASSERT_NE(d, nullptr);
    for (const Spot &s : *ms.spots) {
      const struct ib_wire_field *f = Find(d, s);
      ASSERT_NE(f, nullptr) << ms.name << " has no field " << s.name;
      EXPECT_EQ(f->byte, s.byte) << ms.name << " " << s.name;
      EXPECT_EQ(f->bit, s.bit) << ms.name << " " << s.name;
      EXPECT_EQ(f->width, s.width) << ms.name << " " << s.name;
      std::vector<u8> host(d->host_size, 0);
      SetMax(host.data(), f);
      u8 data[kData];
      ASSERT_EQ(ib_cm_wire_encode_data(ms.attr, data, kData, host.data(), d->host_size), 0)
          << ms.name << " " << s.name;
      u8 want[kData] = {};
      set_bits(want, s.byte * 8 + s.bit, s.width);
      for (u32 i = 0; i < kData; i++)
        EXPECT_EQ((int)data[i], (int)want[i]) << ms.name << " " << s.name << " data byte " << i;
    }
  }
}

// ---------------------------------------------------------------- images

void PutPath(u8 *p, const struct ib_cm_wire_path &w) {
  be(p + 0, w.local_lid, 2);
  be(p + 2, w.remote_lid, 2);
  memcpy(p + 4, w.local_gid, 16);
  memcpy(p + 20, w.remote_gid, 16);
  be(p + 36, (u64)w.flow_label << 12, 4);  // 20 bits, then 12 of which 6 are rate
  p[39] |= (u8)w.packet_rate;
  p[40] = w.traffic_class;
  p[41] = w.hop_limit;
  p[42] = (u8)(w.sl << 4 | w.subnet_local << 3);
  p[43] = (u8)(w.local_ack_timeout << 3);
}

struct ib_cm_wire_path Path(int seed) {
  struct ib_cm_wire_path p;
  memset(&p, 0, sizeof(p));
  p.local_lid = (u16)(0x1111 * seed);
  p.remote_lid = (u16)(0x2222 * seed);
  fill(p.local_gid, 16, 0x10 * seed);
  fill(p.remote_gid, 16, 0x20 * seed);
  p.flow_label = 0xabcde - seed;
  p.packet_rate = (u8)(0x2a - seed);
  p.traffic_class = (u8)(0x30 + seed);
  p.hop_limit = (u8)(0x40 + seed);
  p.sl = (u8)(0xd - seed);
  p.subnet_local = (u8)(seed & 1);
  p.local_ack_timeout = (u8)(0x1b - seed);
  return p;
}

TEST(CmWireImage, Req) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_REQ);
  m.tid = 0x0000abcd11223344ULL;
  m.attr_mod = 0x00000005;
  struct ib_cm_req_fields &q = m.req;
  q.local_comm_id = 0x11223344;
  q.vendor_id = 0xa1b2c3;
  q.service_id = 0x0000000001061d2fULL;
  q.local_ca_guid = 0x505400fffe123456ULL;
  q.local_qkey = 0x0badcafe;
  q.local_qpn = 0xd00d01;
  q.responder_resources = 0x21;
  q.local_eecn = 0x0e0e0e;
  q.initiator_depth = 0x12;
  q.remote_eecn = 0x0f0f0f;
  q.remote_cm_response_timeout = 20;
  q.transport_type = 1;
  q.flow_control = 1;
  q.starting_psn = 0x5a3c1e;
  q.local_cm_response_timeout = 19;
  q.retry_count = 6;
  q.pkey = 0xfffe;
  q.mtu = 4;
  q.rdc_exists = 1;
  q.rnr_retry_count = 5;
  q.max_cm_retries = 14;
  q.srq = 1;
  q.ext_transport_type = 6;  // ignored unless the transport is 3
  q.primary = Path(1);
  q.alternate = Path(2);
  q.sap_supported = 1;
  fill(q.private_data, 92, 3);

  Mad want = Header(0x0010, 0x0000abcd11223344ULL, 5);
  u8 *d = &want[24];
  be(d + 0, 0x11223344, 4);
  be(d + 5, 0xa1b2c3, 3);
  be(d + 8, 0x0000000001061d2fULL, 8);
  be(d + 16, 0x505400fffe123456ULL, 8);
  be(d + 28, 0x0badcafe, 4);
  be(d + 32, 0xd00d01, 3);
  d[35] = 0x21;
  be(d + 36, 0x0e0e0e, 3);
  d[39] = 0x12;
  be(d + 40, 0x0f0f0f, 3);
  d[43] = 20 << 3 | 1 << 1 | 1;
  be(d + 44, 0x5a3c1e, 3);
  d[47] = 19 << 3 | 6;
  be(d + 48, 0xfffe, 2);
  d[50] = 4 << 4 | 1 << 3 | 5;
  d[51] = 14 << 4 | 1 << 3 | 6;
  PutPath(d + 52, q.primary);
  PutPath(d + 96, q.alternate);
  d[139] |= 1 << 2;  // SAP supported shares the byte with the alternate ACK timeout
  fill(d + 140, 92, 3);
  ExpectImage(m, want);
  EXPECT_TRUE(ib_cm_wire_req_has_alt_path(&m.req));
}

TEST(CmWireImage, Mra) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_MRA);
  m.tid = 0x0102030405060708ULL;
  m.mra.local_comm_id = 0xa0a1a2a3;
  m.mra.remote_comm_id = 0xb0b1b2b3;
  m.mra.msg_mraed = IB_CM_WIRE_MSG_OTHER;
  m.mra.service_timeout = 24;
  fill(m.mra.private_data, 222, 5);
  Mad want = Header(0x0011, 0x0102030405060708ULL, 0);
  u8 *d = &want[24];
  be(d + 0, 0xa0a1a2a3, 4);
  be(d + 4, 0xb0b1b2b3, 4);
  d[8] = 2 << 6;
  d[9] = 24 << 3;
  fill(d + 10, 222, 5);
  ExpectImage(m, want);
}

TEST(CmWireImage, Rej) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_REJ);
  m.tid = 0x99;
  m.rej.local_comm_id = 0;
  m.rej.remote_comm_id = 0xc0c1c2c3;
  m.rej.msg_rejected = IB_CM_WIRE_MSG_REP;
  m.rej.ari_length = 72;
  m.rej.reason = IB_CM_WIRE_REJ_CONSUMER;
  fill(m.rej.ari, 72, 9);
  fill(m.rej.private_data, 148, 11);
  Mad want = Header(0x0012, 0x99, 0);
  u8 *d = &want[24];
  be(d + 4, 0xc0c1c2c3, 4);
  d[8] = 1 << 6;
  d[9] = 72 << 1;
  be(d + 10, 28, 2);
  fill(d + 12, 72, 9);
  fill(d + 84, 148, 11);
  ExpectImage(m, want);
}

TEST(CmWireImage, Rep) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_REP);
  m.tid = 0x0000abcd11223344ULL;
  m.attr_mod = 0x12345678;
  struct ib_cm_rep_fields &r = m.rep;
  r.local_comm_id = 0xd0d1d2d3;
  r.remote_comm_id = 0x11223344;
  r.local_qkey = 0x01234567;
  r.local_qpn = 0xabcdef;
  r.local_eecn = 0x123456;
  r.starting_psn = 0x654321;
  r.vendor_id = 0x00c1c2c3;
  r.local_ca_guid = 0x0011223344556677ULL;
  r.responder_resources = 4;
  r.initiator_depth = 3;
  r.target_ack_delay = 15;
  r.failover_accepted = IB_CM_WIRE_FAILOVER_REJECTED;
  r.flow_control = 1;
  r.rnr_retry_count = 6;
  r.srq = 1;
  fill(r.private_data, 196, 13);
  Mad want = Header(0x0013, 0x0000abcd11223344ULL, 0x12345678);
  u8 *d = &want[24];
  be(d + 0, 0xd0d1d2d3, 4);
  be(d + 4, 0x11223344, 4);
  be(d + 8, 0x01234567, 4);
  be(d + 12, 0xabcdef, 3);
  d[15] = 0xc1;
  be(d + 16, 0x123456, 3);
  d[19] = 0xc2;
  be(d + 20, 0x654321, 3);
  d[23] = 0xc3;
  d[24] = 4;
  d[25] = 3;
  d[26] = 15 << 3 | 2 << 1 | 1;
  d[27] = 6 << 5 | 1 << 4;
  be(d + 28, 0x0011223344556677ULL, 8);
  fill(d + 36, 196, 13);
  ExpectImage(m, want);
}

// RTU and DREP share their layout, not their struct
template <typename T>
void FillRtuLike(T &f) {
  f.local_comm_id = 0xe0e1e2e3;
  f.remote_comm_id = 0xf0f1f2f3;
  fill(f.private_data, 224, 17);
}

TEST(CmWireImage, RtuAndDrep) {
  for (u16 attr : {IB_CM_WIRE_ATTR_RTU, IB_CM_WIRE_ATTR_DREP}) {
    struct ib_cm_wire_msg m = Zero(attr);
    m.tid = 0x42;
    if (attr == IB_CM_WIRE_ATTR_RTU)
      FillRtuLike(m.rtu);
    else
      FillRtuLike(m.drep);
    Mad want = Header(attr, 0x42, 0);
    be(&want[24], 0xe0e1e2e3, 4);
    be(&want[28], 0xf0f1f2f3, 4);
    fill(&want[32], 224, 17);
    ExpectImage(m, want);
  }
}

TEST(CmWireImage, Dreq) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_DREQ);
  m.tid = 0x0000000700000009ULL;
  m.dreq.local_comm_id = 0x01020304;
  m.dreq.remote_comm_id = 0x05060708;
  m.dreq.remote_qpn_eecn = 0x0a0b0c;
  fill(m.dreq.private_data, 220, 19);
  Mad want = Header(0x0015, 0x0000000700000009ULL, 0);
  u8 *d = &want[24];
  be(d + 0, 0x01020304, 4);
  be(d + 4, 0x05060708, 4);
  be(d + 8, 0x0a0b0c, 3);
  fill(d + 12, 220, 19);
  ExpectImage(m, want);
}

TEST(CmWireImage, SidrReq) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_SIDR_REQ);
  m.tid = 0x77;
  m.sidr_req.request_id = 0x31323334;
  m.sidr_req.pkey = 0xffff;
  m.sidr_req.service_id = 0x0000000001110457ULL;
  fill(m.sidr_req.private_data, 216, 23);
  Mad want = Header(0x0017, 0x77, 0);
  u8 *d = &want[24];
  be(d + 0, 0x31323334, 4);
  be(d + 4, 0xffff, 2);
  be(d + 8, 0x0000000001110457ULL, 8);
  fill(d + 16, 216, 23);
  ExpectImage(m, want);
}

TEST(CmWireImage, SidrRep) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_SIDR_REP);
  m.tid = 0x77;
  m.attr_mod = 0xe0;
  struct ib_cm_sidr_rep_fields &r = m.sidr_rep;
  r.request_id = 0x31323334;
  r.status = IB_CM_WIRE_SIDR_REDIRECT;
  r.info_length = 16;
  r.vendor_id = 0x00a7b8c9;
  r.qpn = 0x00beef;
  r.service_id = 0x0000000001110457ULL;
  r.qkey = 0x01234567;
  fill(r.info, 72, 29);
  fill(r.private_data, 136, 31);
  Mad want = Header(0x0018, 0x77, 0xe0);
  u8 *d = &want[24];
  be(d + 0, 0x31323334, 4);
  d[4] = 4;
  d[5] = 16;
  be(d + 6, 0xa7b8, 2);
  be(d + 8, 0x00beef, 3);
  d[11] = 0xc9;
  be(d + 12, 0x0000000001110457ULL, 8);
  be(d + 20, 0x01234567, 4);
  fill(d + 24, 72, 29);
  fill(d + 96, 136, 31);
  ExpectImage(m, want);
}

// ------------------------------------------- rdma_cm over rxe (note 2.4)

// IPv4 192.168.1.1:45000 connects to 192.168.1.2:7471 (TCP port space);
// both rxe devices sit on veths with MTU 1500.
const u32 kSrcIp = 0xc0a80101, kDstIp = 0xc0a80102;
const u16 kSport = 45000, kDport = 7471;
const u64 kActiveGuid = 0x505400fffe123456ULL;   // MAC 52:54:00:12:34:56
const u64 kPassiveGuid = 0x505400fffe654321ULL;  // MAC 52:54:00:65:43:21
const u32 kActiveCommId = 0x9a3f0c21, kPassiveCommId = 0x5e6f7081;
const u64 kReqTid = 0x000000019a3f0c21ULL;  // agent 1, the active comm ID
const u8 kUser[4] = {0xde, 0xad, 0xbe, 0xef};

void V4Gid(u8 *p, u32 ip) {
  memset(p, 0, 16);
  p[10] = p[11] = 0xff;
  be(p + 12, ip, 4);
}

// the REQ's bytes, field by field as upstream cm.c/cma.c fill them
Mad RxeReqImage() {
  Mad m = Header(0x0010, kReqTid, 0);  // ECE options 0
  u8 *d = &m[24];
  be(d + 0, kActiveCommId, 4);
  // vendor ID 0 (rxe has no ECE)
  be(d + 8, 0x0000000001060000ULL | kDport, 8);
  be(d + 16, kActiveGuid, 8);
  // Q_Key 0 (RC)
  be(d + 32, 0x000011, 3);        // the user QP
  d[35] = 1;                      // responder resources
  d[39] = 1;                      // initiator depth
  d[43] = 20 << 3 | 0 << 1 | 0;   // remote CM timeout 20, RC, no flow control
  be(d + 44, 0x5a3c1e, 3);        // the ID's random seq_num
  d[47] = 20 << 3 | 7;            // local CM timeout 20, retry 7
  be(d + 48, 0xffff, 2);          // P_Key
  d[50] = 3 << 4 | 0 << 3 | 7;    // IB_MTU_1024, no RDC, RNR retry 7
  d[51] = 15 << 4;                // max CM retries 15, no SRQ, not XRC
  be(d + 52, 0xffff, 2);          // permissive LIDs
  be(d + 54, 0xffff, 2);
  V4Gid(d + 56, kSrcIp);
  V4Gid(d + 72, kDstIp);
  be(d + 88, (u64)((kSport * 31u + kDport) & 0xfffff) << 12, 4);  // rate 0
  d[92] = 0;                      // traffic class (TOS 0)
  d[93] = 64;                     // hop limit from the route's TTL
  d[94] = 0;                      // SL 0, subnet local 0
  d[95] = 19 << 3;                // local ACK timeout
  // private data: the cma header (note 3.1), then the user's bytes
  u8 *p = d + 140;
  p[0] = 0x00;
  p[1] = 0x40;
  be(p + 2, kSport, 2);
  be(p + 16, kSrcIp, 4);
  be(p + 32, kDstIp, 4);
  memcpy(p + 36, kUser, sizeof(kUser));
  return m;
}

TEST(CmWireRxe, TheReqUpstreamSendsDecodesFieldByField) {
  Mad img = RxeReqImage();
  struct ib_cm_wire_msg m;
  enum ib_cm_wire_why why;
  ASSERT_EQ(ib_cm_wire_decode(img.data(), kMad, &m, &why), 0) << ib_cm_wire_why_str(why);
  EXPECT_EQ(m.attr_id, IB_CM_WIRE_ATTR_REQ);
  EXPECT_EQ(m.tid, kReqTid);
  EXPECT_EQ(ib_mad_wire_tid_agent(m.tid), 1u);
  EXPECT_EQ(ib_mad_wire_tid_low(m.tid), kActiveCommId);
  EXPECT_EQ(m.attr_mod, 0u);
  const struct ib_cm_req_fields &q = m.req;
  EXPECT_EQ(q.local_comm_id, kActiveCommId);
  EXPECT_EQ(q.vendor_id, 0u);
  EXPECT_EQ(q.service_id, 0x0000000001061d2fULL);
  EXPECT_EQ(q.local_ca_guid, kActiveGuid);
  EXPECT_EQ(q.local_qkey, 0u);
  EXPECT_EQ(q.local_qpn, 0x11u);
  EXPECT_EQ(q.responder_resources, 1);
  EXPECT_EQ(q.local_eecn, 0u);
  EXPECT_EQ(q.initiator_depth, 1);
  EXPECT_EQ(q.remote_eecn, 0u);
  EXPECT_EQ(q.remote_cm_response_timeout, 20);
  EXPECT_EQ(q.transport_type, IB_CM_WIRE_TRANSPORT_RC);
  EXPECT_EQ(q.flow_control, 0);
  EXPECT_EQ(q.starting_psn, 0x5a3c1eu);
  EXPECT_EQ(q.local_cm_response_timeout, 20);
  EXPECT_EQ(q.retry_count, 7);
  EXPECT_EQ(q.pkey, 0xffff);
  EXPECT_EQ(q.mtu, IB_CM_WIRE_MTU_1024);
  EXPECT_EQ(q.rdc_exists, 0);
  EXPECT_EQ(q.rnr_retry_count, 7);
  EXPECT_EQ(q.max_cm_retries, 15);
  EXPECT_EQ(q.srq, 0);
  EXPECT_EQ(q.ext_transport_type, 0);
  EXPECT_EQ(q.primary.local_lid, 0xffff);
  EXPECT_EQ(q.primary.remote_lid, 0xffff);
  u8 gid[16];
  V4Gid(gid, kSrcIp);
  EXPECT_EQ(0, memcmp(q.primary.local_gid, gid, 16));
  V4Gid(gid, kDstIp);
  EXPECT_EQ(0, memcmp(q.primary.remote_gid, gid, 16));
  EXPECT_EQ(q.primary.flow_label, 0x56667u);  // 45000 * 31 + 7471, 20 bits
  EXPECT_EQ(q.primary.packet_rate, 0);
  EXPECT_EQ(q.primary.traffic_class, 0);
  EXPECT_EQ(q.primary.hop_limit, 64);
  EXPECT_EQ(q.primary.sl, 0);
  EXPECT_EQ(q.primary.subnet_local, 0);
  EXPECT_EQ(q.primary.local_ack_timeout, 19);
  EXPECT_FALSE(ib_cm_wire_req_has_alt_path(&q));
  u8 zero_path[44] = {};
  EXPECT_EQ(0, memcmp(&img[24 + 96], zero_path, 44));
  EXPECT_EQ(q.sap_supported, 0);

  enum rdma_ucm_port_space ps;
  u16 port;
  ASSERT_EQ(cma_wire_sid_split(q.service_id, &ps, &port), 0);
  EXPECT_EQ(ps, RDMA_PS_TCP);
  EXPECT_EQ(port, kDport);

  struct cma_wire_hdr h;
  ASSERT_EQ(cma_wire_hdr_decode(q.private_data, sizeof(q.private_data), &h), 0);
  EXPECT_EQ(h.ip_version, 4);
  u8 want_port[2] = {(u8)(kSport >> 8), (u8)kSport};
  EXPECT_EQ(0, memcmp(&h.port, want_port, 2));
  u8 want_ip[4];
  be(want_ip, kSrcIp, 4);
  EXPECT_EQ(0, memcmp(&h.src.ip4, want_ip, 4));
  be(want_ip, kDstIp, 4);
  EXPECT_EQ(0, memcmp(&h.dst.ip4, want_ip, 4));
  // the passive side sees 56 bytes of user data, the sender's then zeros
  const u8 *user = q.private_data + CMA_WIRE_HDR_LEN;
  EXPECT_EQ(CMA_WIRE_REQ_USER_LEN, 56);
  EXPECT_EQ(user[0], 0xde);
  EXPECT_EQ(user[3], 0xef);
  for (int i = 4; i < CMA_WIRE_REQ_USER_LEN; i++) EXPECT_EQ(user[i], 0) << i;
}

TEST(CmWireRxe, TheReqUpstreamSendsIsWhatWeEncode) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_REQ);
  m.tid = ib_cm_wire_new_tid(1, kActiveCommId);
  struct ib_cm_req_fields &q = m.req;
  q.local_comm_id = kActiveCommId;
  q.service_id = cma_wire_service_id(RDMA_PS_TCP, kDport);
  q.local_ca_guid = kActiveGuid;
  q.local_qpn = 0x11;
  q.responder_resources = 1;
  q.initiator_depth = 1;
  q.remote_cm_response_timeout = 20;
  q.transport_type = IB_CM_WIRE_TRANSPORT_RC;
  q.starting_psn = 0x5a3c1e;
  q.local_cm_response_timeout = 20;
  q.retry_count = 7;
  q.pkey = 0xffff;
  q.mtu = IB_CM_WIRE_MTU_1024;
  q.rnr_retry_count = 7;
  q.max_cm_retries = 15;
  q.primary.local_lid = 0xffff;
  q.primary.remote_lid = 0xffff;
  V4Gid(q.primary.local_gid, kSrcIp);
  V4Gid(q.primary.remote_gid, kDstIp);
  q.primary.flow_label = (kSport * 31u + kDport) & 0xfffff;
  q.primary.hop_limit = 64;
  q.primary.local_ack_timeout = 19;
  // the cma header as the passive side reads it, put back with the user data
  Mad want = RxeReqImage();
  struct cma_wire_hdr h;
  ASSERT_EQ(cma_wire_hdr_decode(&want[24 + 140], CMA_WIRE_HDR_LEN, &h), 0);
  ASSERT_EQ(cma_wire_build_priv(q.private_data, sizeof(q.private_data), &h, kUser,
                                sizeof(kUser)),
            0);
  ExpectImage(m, want);
}

TEST(CmWireRxe, TheRepUpstreamSendsBack) {
  Mad want = Header(0x0013, kReqTid, 0);  // the REQ's TID
  u8 *d = &want[24];
  be(d + 0, kPassiveCommId, 4);
  be(d + 4, kActiveCommId, 4);
  // Q_Key not set: 0
  be(d + 12, 0x000012, 3);  // the passive user QP
  be(d + 20, 0x1b2c3d, 3);  // the passive ID's seq_num
  d[24] = 1;
  d[25] = 1;
  d[26] = 15 << 3;          // target ACK delay: rxe's local_ca_ack_delay; failover 0
  d[27] = 7 << 5;           // RNR retry 7, no SRQ
  be(d + 28, kPassiveGuid, 8);
  struct ib_cm_wire_msg m;
  enum ib_cm_wire_why why;
  ASSERT_EQ(ib_cm_wire_decode(want.data(), kMad, &m, &why), 0) << ib_cm_wire_why_str(why);
  const struct ib_cm_rep_fields &r = m.rep;
  EXPECT_EQ(m.tid, kReqTid);
  EXPECT_EQ(r.local_comm_id, kPassiveCommId);
  EXPECT_EQ(r.remote_comm_id, kActiveCommId);
  EXPECT_EQ(r.local_qkey, 0u);
  EXPECT_EQ(r.local_qpn, 0x12u);
  EXPECT_EQ(r.local_eecn, 0u);
  EXPECT_EQ(r.starting_psn, 0x1b2c3du);
  EXPECT_EQ(r.vendor_id, 0u);
  EXPECT_EQ(r.responder_resources, 1);
  EXPECT_EQ(r.initiator_depth, 1);
  EXPECT_EQ(r.target_ack_delay, 15);
  EXPECT_EQ(r.failover_accepted, IB_CM_WIRE_FAILOVER_ACCEPTED);
  EXPECT_EQ(r.flow_control, 0);
  EXPECT_EQ(r.rnr_retry_count, 7);
  EXPECT_EQ(r.srq, 0);
  EXPECT_EQ(r.local_ca_guid, kPassiveGuid);
  for (u8 b : r.private_data) EXPECT_EQ(b, 0);
  ExpectImage(m, want);
}

// ---------------------------------------------------------------- round trips

// a message with random values in every field, within the protocol's rules
void RandomBody(const struct ib_cm_wire_msg_desc *d, u8 *host, std::mt19937_64 &rng) {
  memset(host, 0, d->host_size);
  for (u32 i = 0; i < d->nfields; i++) {
    const struct ib_wire_field *f = &d->fields[i];
    u8 *m = host + f->member;
    if (f->flags & IB_WIRE_F_BYTES) {
      for (u32 j = 0; j < f->member_size; j++) m[j] = (u8)rng();
      continue;
    }
    OrMember(m, f->member_size, (rng() & Ones(f->width)) << f->shift);
  }
}

void MakeValid(struct ib_cm_wire_msg &m, std::mt19937_64 &rng) {
  switch (m.attr_id) {
    case IB_CM_WIRE_ATTR_REQ:
      m.req.transport_type = (u8)(rng() % 2);
      m.req.mtu = (u8)(1 + rng() % 5);
      break;
    case IB_CM_WIRE_ATTR_MRA: m.mra.msg_mraed = (u8)(rng() % 3); break;
    case IB_CM_WIRE_ATTR_REJ:
      m.rej.msg_rejected = (u8)(rng() % 3);
      m.rej.ari_length = (u8)(rng() % 73);
      break;
    case IB_CM_WIRE_ATTR_REP: m.rep.failover_accepted = (u8)(rng() % 3); break;
    case IB_CM_WIRE_ATTR_SIDR_REP:
      m.sidr_rep.status = (u8)(rng() % 6);
      m.sidr_rep.info_length = (u8)(rng() % 73);
      break;
    default: break;
  }
}

TEST(CmWireRoundTrip, RandomMessagesOfEveryType) {
  std::mt19937_64 rng(7);
  for (const MsgSpots &ms : kMsgs) {
    const struct ib_cm_wire_msg_desc *d = ib_cm_wire_desc(ms.attr);
    ASSERT_NE(d, nullptr);
    for (int round = 0; round < 300; round++) {
      struct ib_cm_wire_msg m = Zero(ms.attr);
      m.tid = rng();
      m.attr_mod = (u32)rng();
      RandomBody(d, (u8 *)&m.req, rng);
      MakeValid(m, rng);
      u8 mad[kMad], again[kMad];
      ASSERT_EQ(ib_cm_wire_encode(mad, kMad, &m), 0) << ms.name;
      struct ib_cm_wire_msg back;
      enum ib_cm_wire_why why;
      ASSERT_EQ(ib_cm_wire_decode(mad, kMad, &back, &why), 0)
          << ms.name << " " << ib_cm_wire_why_str(why);
      ASSERT_EQ(0, memcmp(&back, &m, sizeof(m))) << ms.name << " round " << round;
      ASSERT_EQ(ib_cm_wire_encode(again, kMad, &back), 0);
      ASSERT_EQ(0, memcmp(mad, again, kMad)) << ms.name;
    }
  }
}

TEST(CmWireRoundTrip, TypedWrappersWorkOnTheDataAlone) {
  struct ib_cm_dreq_fields q, back;
  memset(&q, 0, sizeof(q));
  q.local_comm_id = 1;
  q.remote_comm_id = 2;
  q.remote_qpn_eecn = 0xabcdef;
  u8 data[kData];
  ASSERT_EQ(ib_cm_dreq_encode(data, kData, &q), 0);
  EXPECT_EQ(data[8], 0xab);
  EXPECT_EQ(data[10], 0xef);
  enum ib_cm_wire_why why;
  ASSERT_EQ(ib_cm_dreq_decode(data, kData, &back, &why), 0);
  EXPECT_EQ(0, memcmp(&q, &back, sizeof(q)));
  EXPECT_EQ(ib_cm_dreq_decode(data, kData - 1, &back, &why), -EINVAL);
  EXPECT_EQ(why, IB_CM_WHY_SHORT);
  EXPECT_EQ(ib_cm_dreq_encode(data, kData - 1, &q), -EINVAL);
  // a struct of another message is refused by its size
  EXPECT_EQ(ib_cm_wire_decode_data(IB_CM_WIRE_ATTR_REP, data, kData, &q, sizeof(q), &why),
            -EINVAL);
  EXPECT_EQ(ib_cm_wire_encode_data(IB_CM_WIRE_ATTR_REP, data, kData, &q, sizeof(q)), -EINVAL);
}

TEST(CmWireRoundTrip, ReservedBitsAreIgnoredOnReceiveAndZeroOnSend) {
  for (const MsgSpots &ms : kMsgs) {
    std::vector<u8> cover = Coverage(*ms.spots);
    Mad img = Header(ms.attr, 0x5555, 0);
    if (ms.attr == IB_CM_WIRE_ATTR_REQ) img[24 + 50] = 3 << 4;  // a valid MTU
    struct ib_cm_wire_msg clean, dirty;
    enum ib_cm_wire_why why;
    ASSERT_EQ(ib_cm_wire_decode(img.data(), kMad, &clean, &why), 0) << ms.name;
    img[18] = img[19] = 0xff;  // the MAD header's reserved bytes
    for (u32 i = 0; i < kData; i++) img[24 + i] |= (u8)~cover[i];
    ASSERT_EQ(ib_cm_wire_decode(img.data(), kMad, &dirty, &why), 0)
        << ms.name << " " << ib_cm_wire_why_str(why);
    EXPECT_EQ(0, memcmp(&clean, &dirty, sizeof(clean))) << ms.name;
    u8 out[kMad];
    ASSERT_EQ(ib_cm_wire_encode(out, kMad, &dirty), 0);
    EXPECT_EQ(out[18] | out[19], 0);
    for (u32 i = 0; i < kData; i++) EXPECT_EQ(out[24 + i] & ~cover[i], 0) << ms.name << " " << i;
  }
}

// ---------------------------------------------------------------- refusals

struct Refusal {
  int err;
  enum ib_cm_wire_why why;
};

Refusal Decode(const Mad &img, u32 len = kMad) {
  struct ib_cm_wire_msg m;
  enum ib_cm_wire_why why = IB_CM_WHY_NUM;
  int err = ib_cm_wire_decode(img.data(), len, &m, &why);
  return {err, why};
}

Mad ValidReq() { return RxeReqImage(); }

TEST(CmWireRefuse, ReqTransportTypes) {
  Mad img = ValidReq();
  for (int t = 0; t < 4; t++) {
    for (int ext = 0; ext < 8; ext++) {
      img[24 + 43] = (u8)(20 << 3 | t << 1);
      img[24 + 51] = (u8)(15 << 4 | ext);
      Refusal r = Decode(img);
      bool ok = t == 0 || t == 1 || (t == 3 && ext == 1);
      EXPECT_EQ(r.err, ok ? 0 : -EPROTO) << t << "/" << ext;
      EXPECT_EQ(r.why, ok ? IB_CM_WHY_OK : IB_CM_WHY_TRANSPORT);
    }
  }
  EXPECT_EQ(ib_cm_wire_why_rej_reason(IB_CM_WHY_TRANSPORT), IB_CM_WIRE_REJ_BAD_TRANSPORT);
  EXPECT_EQ(IB_CM_WIRE_REJ_BAD_TRANSPORT, 9);
}

TEST(CmWireRefuse, ReqMtuOutside256To4096) {
  Mad img = ValidReq();
  for (int mtu = 0; mtu < 16; mtu++) {
    img[24 + 50] = (u8)(mtu << 4 | 7);
    Refusal r = Decode(img);
    bool ok = mtu >= 1 && mtu <= 5;
    EXPECT_EQ(r.err, ok ? 0 : -EPROTO) << mtu;
    EXPECT_EQ(r.why, ok ? IB_CM_WHY_OK : IB_CM_WHY_MTU) << mtu;
  }
  EXPECT_EQ(ib_cm_wire_why_rej_reason(IB_CM_WHY_MTU), 26);
  EXPECT_EQ(ib_cm_wire_why_rej_reason(IB_CM_WHY_ARI_LEN), 0);
}

TEST(CmWireRefuse, MraAndRejMessageCode3) {
  for (u16 attr : {IB_CM_WIRE_ATTR_MRA, IB_CM_WIRE_ATTR_REJ}) {
    Mad img = Header(attr, 1, 0);
    for (int code = 0; code < 4; code++) {
      img[24 + 8] = (u8)(code << 6 | 0x3f);  // the low 6 bits are reserved
      Refusal r = Decode(img);
      EXPECT_EQ(r.err, code < 3 ? 0 : -EPROTO) << attr << " " << code;
      EXPECT_EQ(r.why, code < 3 ? IB_CM_WHY_OK : IB_CM_WHY_MSG_CODE);
    }
  }
}

TEST(CmWireRefuse, RejAriLongerThanItsField) {
  Mad img = Header(IB_CM_WIRE_ATTR_REJ, 1, 0);
  for (int len = 0; len < 128; len++) {
    img[24 + 9] = (u8)(len << 1 | 1);  // bit 0 is reserved
    Refusal r = Decode(img);
    EXPECT_EQ(r.err, len <= 72 ? 0 : -EPROTO) << len;
    EXPECT_EQ(r.why, len <= 72 ? IB_CM_WHY_OK : IB_CM_WHY_ARI_LEN) << len;
  }
}

TEST(CmWireRefuse, RepFailover3) {
  Mad img = Header(IB_CM_WIRE_ATTR_REP, 1, 0);
  for (int fo = 0; fo < 4; fo++) {
    img[24 + 26] = (u8)(fo << 1);
    Refusal r = Decode(img);
    EXPECT_EQ(r.err, fo < 3 ? 0 : -EPROTO);
    EXPECT_EQ(r.why, fo < 3 ? IB_CM_WHY_OK : IB_CM_WHY_FAILOVER);
  }
}

TEST(CmWireRefuse, SidrRepStatusAndInfoLength) {
  Mad img = Header(IB_CM_WIRE_ATTR_SIDR_REP, 1, 0);
  for (int st = 0; st < 256; st++) {
    img[24 + 4] = (u8)st;
    Refusal r = Decode(img);
    EXPECT_EQ(r.err, st <= 5 ? 0 : -EPROTO) << st;
    EXPECT_EQ(r.why, st <= 5 ? IB_CM_WHY_OK : IB_CM_WHY_SIDR_STATUS) << st;
  }
  img[24 + 4] = 0;
  for (int len = 0; len < 256; len++) {
    img[24 + 5] = (u8)len;
    Refusal r = Decode(img);
    EXPECT_EQ(r.err, len <= 72 ? 0 : -EPROTO) << len;
    EXPECT_EQ(r.why, len <= 72 ? IB_CM_WHY_OK : IB_CM_WHY_INFO_LEN) << len;
  }
}

TEST(CmWireRefuse, LapAprAndUnknownAttributes) {
  for (u16 attr : {0x0019, 0x001a}) {
    Refusal r = Decode(Header(attr, 1, 0));
    EXPECT_EQ(r.err, -EOPNOTSUPP);
    EXPECT_EQ(r.why, IB_CM_WHY_LAP_APR);
    struct ib_cm_wire_msg m = Zero(attr);
    u8 out[kMad];
    EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), -EOPNOTSUPP);
  }
  for (u16 attr : {0x0000, 0x0001, 0x000f, 0x001b, 0x0110, 0xffff}) {
    Refusal r = Decode(Header(attr, 1, 0));
    EXPECT_EQ(r.err, -EINVAL) << attr;
    EXPECT_EQ(r.why, IB_CM_WHY_UNKNOWN_ATTR);
    struct ib_cm_wire_msg m = Zero(attr);
    u8 out[kMad];
    EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), -EINVAL);
  }
}

TEST(CmWireRefuse, HeadersThatAreNotACmSend) {
  const struct {
    int at;
    u8 value;
  } breaks[] = {{0, 2}, {1, 0x03}, {2, 1}, {2, 3}, {3, 0x83}, {3, 0x01}};
  for (const auto &b : breaks) {
    Mad img = ValidReq();
    img[b.at] = b.value;
    Refusal r = Decode(img);
    EXPECT_EQ(r.err, -EINVAL) << b.at;
    EXPECT_EQ(r.why, IB_CM_WHY_NOT_CM) << b.at;
  }
}

TEST(CmWireRefuse, ShortBuffers) {
  Mad img = ValidReq();
  for (u32 len : {0u, 23u, 24u, 255u}) {
    Refusal r = Decode(img, len);
    EXPECT_EQ(r.err, -EINVAL) << len;
    EXPECT_EQ(r.why, IB_CM_WHY_SHORT) << len;
  }
  struct ib_cm_wire_msg m;
  ASSERT_EQ(ib_cm_wire_decode(img.data(), kMad, &m, nullptr), 0);
  u8 out[kMad];
  EXPECT_EQ(ib_cm_wire_encode(out, kMad - 1, &m), -EINVAL);
}

TEST(CmWireRefuse, EncodeRefusesValuesWiderThanTheirFields) {
  struct ib_cm_wire_msg m = Zero(IB_CM_WIRE_ATTR_REQ);
  m.req.mtu = 3;
  u8 out[kMad];
  ASSERT_EQ(ib_cm_wire_encode(out, kMad, &m), 0);
  m.req.local_qpn = 0x1000000;
  EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), -ERANGE);
  m.req.local_qpn = 0;
  m.req.primary.flow_label = 0x100000;
  EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), -ERANGE);
  m = Zero(IB_CM_WIRE_ATTR_REP);
  m.rep.vendor_id = 0xffffff;
  EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), 0);
  m.rep.vendor_id = 0x1000000;
  EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), -ERANGE);
  m = Zero(IB_CM_WIRE_ATTR_REJ);
  m.rej.ari_length = 0x80;
  EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), -ERANGE);
  // what fits is written even where the protocol reserves it
  m.rej.ari_length = 0x7f;
  m.rej.msg_rejected = 3;
  EXPECT_EQ(ib_cm_wire_encode(out, kMad, &m), 0);
  EXPECT_EQ(Decode(Mad(out, out + kMad)).why, IB_CM_WHY_MSG_CODE);
}

TEST(CmWireRefuse, EveryRefusalHasANameAndAnErrno) {
  for (int w = 0; w < IB_CM_WHY_NUM; w++)
    EXPECT_STRNE(ib_cm_wire_why_str((enum ib_cm_wire_why)w), "unknown") << w;
  EXPECT_STREQ(ib_cm_wire_why_str(IB_CM_WHY_NUM), "unknown");
  EXPECT_STREQ(ib_cm_wire_why_str(IB_CM_WHY_ARI_LEN), "ari_length");
}

}  // namespace
