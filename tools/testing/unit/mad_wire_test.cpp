// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/mad_wire.c: the bit-field
// codec against a bit-by-bit reference, the 24-byte MAD header against
// bytes written at the offsets of IBTA vol. 1, 13.4.3 (independent of the
// header's field table), the receive checks (one case per refusal), the
// response rules, the Get/Set answer and the TID helpers.

#include <rdma/ib_mad_wire.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

namespace {

// big-endian @n bytes of @v at @p: the test's own byte writer
void be(u8 *p, u64 v, int n) {
  for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = (u8)v;
}

using Mad = std::vector<u8>;

// ---- the codec against a reference that moves one bit at a time ----

bool ref_bit(const u8 *buf, u32 pos) { return buf[pos / 8] >> (7 - pos % 8) & 1; }

void ref_set_bit(u8 *buf, u32 pos, bool on) {
  u8 m = (u8)(0x80 >> (pos % 8));
  buf[pos / 8] = on ? (u8)(buf[pos / 8] | m) : (u8)(buf[pos / 8] & ~m);
}

struct ib_wire_field Field(u16 byte, u8 bit, u16 width) {
  struct ib_wire_field f = {"f", byte, bit, 0, width, 0, 8, 0};
  return f;
}

TEST(WireField, GetAndSetMatchTheBitReferenceForEveryPlacement) {
  std::mt19937_64 rng(1);
  for (u8 bit = 0; bit < 8; bit++) {
    for (u16 width = 1; width <= 64; width++) {
      struct ib_wire_field f = Field(3, bit, width);
      u32 first = 3 * 8 + bit;
      for (int round = 0; round < 4; round++) {
        u8 buf[16], want[16];
        for (u8 &b : buf) b = (u8)rng();
        memcpy(want, buf, sizeof(buf));
        u64 v = rng();
        u64 mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
        for (u32 i = 0; i < width; i++)
          ref_set_bit(want, first + i, v >> (width - 1 - i) & 1);
        ib_wire_field_set(buf, &f, v);
        ASSERT_EQ(0, memcmp(buf, want, sizeof(buf)))
            << "bit " << (int)bit << " width " << width;
        u64 got = 0;
        for (u32 i = 0; i < width; i++) got = got << 1 | ref_bit(want, first + i);
        EXPECT_EQ(ib_wire_field_get(buf, &f), got);
        EXPECT_EQ(got, v & mask);
      }
    }
  }
}

TEST(WireField, EndCountsEveryTouchedByte) {
  struct ib_wire_field f = Field(10, 7, 2);
  EXPECT_EQ(ib_wire_field_end(&f), 12u);
  f = Field(10, 0, 8);
  EXPECT_EQ(ib_wire_field_end(&f), 11u);
  f = Field(0, 4, 64);
  EXPECT_EQ(ib_wire_field_end(&f), 9u);
}

struct Host {
  u32 word;
  u16 split;
  u8 bytes[4];
};

// word: 20 bits at byte 1 bit 4; split: high byte at 0, low byte at 8
const struct ib_wire_field kHostFields[] = {
    {"word", 1, 4, 0, 20, offsetof(Host, word), 4, 0},
    {"split_hi", 0, 0, 8, 8, offsetof(Host, split), 2, 0},
    {"split_lo", 8, 0, 0, 8, offsetof(Host, split), 2, IB_WIRE_F_LOWER},
    {"bytes", 4, 0, 0, 32, offsetof(Host, bytes), 4, IB_WIRE_F_BYTES},
};

TEST(WirePack, PacksUnpacksSplitAndByteFields) {
  Host h;
  memset(&h, 0, sizeof(h));
  h.word = 0xabcde;
  h.split = 0x1234;
  h.bytes[0] = 1, h.bytes[1] = 2, h.bytes[2] = 3, h.bytes[3] = 4;
  u8 buf[9] = {};
  ASSERT_EQ(ib_wire_pack(buf, sizeof(buf), kHostFields, 4, &h, sizeof(h)), 0);
  const u8 want[9] = {0x12, 0x0a, 0xbc, 0xde, 1, 2, 3, 4, 0x34};
  EXPECT_EQ(0, memcmp(buf, want, sizeof(buf)));
  Host back;
  memset(&back, 0xee, sizeof(back));
  ASSERT_EQ(ib_wire_unpack(buf, sizeof(buf), kHostFields, 4, &back, sizeof(back)), 0);
  EXPECT_EQ(0, memcmp(&h, &back, sizeof(h)));
}

TEST(WirePack, RefusesValuesWiderThanTheirFields) {
  Host h;
  memset(&h, 0, sizeof(h));
  u8 buf[9] = {};
  h.word = 1u << 20;
  EXPECT_EQ(ib_wire_pack(buf, sizeof(buf), kHostFields, 4, &h, sizeof(h)), -ERANGE);
  h.word = 0;
  h.split = 0xffff;  // the two parts carry all 16 bits
  EXPECT_EQ(ib_wire_pack(buf, sizeof(buf), kHostFields, 4, &h, sizeof(h)), 0);
  // only the low part: the member's high byte has no field
  EXPECT_EQ(ib_wire_pack(buf, sizeof(buf), &kHostFields[2], 1, &h, sizeof(h)), 0);
  struct ib_wire_field top = kHostFields[2];
  top.flags = 0;
  EXPECT_EQ(ib_wire_pack(buf, sizeof(buf), &top, 1, &h, sizeof(h)), -ERANGE);
}

TEST(WirePack, RefusesFieldsPastTheBufferOrTheMember) {
  Host h;
  memset(&h, 0, sizeof(h));
  u8 buf[9] = {};
  EXPECT_EQ(ib_wire_unpack(buf, 8, kHostFields, 4, &h, sizeof(h)), -EINVAL);
  EXPECT_EQ(ib_wire_pack(buf, 8, kHostFields, 4, &h, sizeof(h)), -EINVAL);
  EXPECT_EQ(ib_wire_unpack(buf, 9, kHostFields, 4, &h, 6), -EINVAL);
  struct ib_wire_field bad = kHostFields[0];
  bad.width = 40;  // wider than its 4-byte member
  EXPECT_EQ(ib_wire_unpack(buf, 9, &bad, 1, &h, sizeof(h)), -EINVAL);
  bad = kHostFields[3];
  bad.bit = 1;  // byte strings start on a byte
  EXPECT_EQ(ib_wire_unpack(buf, 9, &bad, 1, &h, sizeof(h)), -EINVAL);
}

// ---- the MAD header ----

Mad HdrImage() {
  Mad m(IB_MAD_WIRE_SIZE, 0);
  m[0] = 1;                             // base version
  m[1] = 0x07;                          // class
  m[2] = 2;                             // class version
  m[3] = 0x03;                          // method
  be(&m[4], 0x1234, 2);                 // status
  be(&m[6], 0x5678, 2);                 // class specific
  be(&m[8], 0x0102030405060708ULL, 8);  // TID
  be(&m[16], 0x0010, 2);                // attribute ID
  be(&m[20], 0xdeadbeef, 4);            // attribute modifier
  return m;
}

struct ib_mad_wire_hdr HdrStruct() {
  struct ib_mad_wire_hdr h;
  memset(&h, 0, sizeof(h));
  h.base_version = 1;
  h.mgmt_class = 0x07;
  h.class_version = 2;
  h.method = 0x03;
  h.status = 0x1234;
  h.class_specific = 0x5678;
  h.tid = 0x0102030405060708ULL;
  h.attr_id = 0x0010;
  h.attr_mod = 0xdeadbeef;
  return h;
}

TEST(MadHdr, DecodesTheKnownImage) {
  Mad m = HdrImage();
  struct ib_mad_wire_hdr h;
  ASSERT_EQ(ib_mad_wire_hdr_decode(m.data(), (u32)m.size(), &h), 0);
  struct ib_mad_wire_hdr want = HdrStruct();
  EXPECT_EQ(0, memcmp(&h, &want, sizeof(h)));
  EXPECT_EQ(h.tid, 0x0102030405060708ULL);
  EXPECT_EQ(h.attr_mod, 0xdeadbeefU);
}

TEST(MadHdr, EncodesTheKnownImageWithReservedZero) {
  Mad m(IB_MAD_WIRE_SIZE, 0xaa);
  struct ib_mad_wire_hdr h = HdrStruct();
  ASSERT_EQ(ib_mad_wire_hdr_encode(m.data(), (u32)m.size(), &h), 0);
  Mad want = HdrImage();
  for (int i = 0; i < IB_MAD_WIRE_HDR_LEN; i++) EXPECT_EQ(m[i], want[i]) << "byte " << i;
  // the class data is not the header's business
  for (size_t i = IB_MAD_WIRE_HDR_LEN; i < m.size(); i++) ASSERT_EQ(m[i], 0xaa);
}

TEST(MadHdr, ReservedBytesAreIgnored) {
  Mad m = HdrImage();
  m[18] = 0xff;
  m[19] = 0xff;
  struct ib_mad_wire_hdr h;
  ASSERT_EQ(ib_mad_wire_hdr_decode(m.data(), (u32)m.size(), &h), 0);
  struct ib_mad_wire_hdr want = HdrStruct();
  EXPECT_EQ(0, memcmp(&h, &want, sizeof(h)));
}

TEST(MadHdr, EachFieldAtItsMaximumStaysInItsBytes) {
  struct Spot {
    const char *name;
    int at, len;
  } spots[] = {{"base_version", 0, 1}, {"mgmt_class", 1, 1},  {"class_version", 2, 1},
               {"method", 3, 1},       {"status", 4, 2},      {"class_specific", 6, 2},
               {"tid", 8, 8},          {"attr_id", 16, 2},    {"attr_mod", 20, 4}};
  u32 n = 0;
  const struct ib_wire_field *f = ib_mad_wire_hdr_fields(&n);
  ASSERT_EQ(n, sizeof(spots) / sizeof(spots[0]));
  for (const Spot &s : spots) {
    struct ib_mad_wire_hdr h;
    memset(&h, 0, sizeof(h));
    bool found = false;
    for (u32 i = 0; i < n; i++) {
      if (strcmp(f[i].name, s.name)) continue;
      found = true;
      memset((u8 *)&h + f[i].member, 0xff, f[i].member_size);
    }
    ASSERT_TRUE(found) << s.name;
    u8 m[IB_MAD_WIRE_HDR_LEN];
    ASSERT_EQ(ib_mad_wire_hdr_encode(m, sizeof(m), &h), 0);
    for (int i = 0; i < IB_MAD_WIRE_HDR_LEN; i++)
      EXPECT_EQ(m[i], i >= s.at && i < s.at + s.len ? 0xff : 0) << s.name << " byte " << i;
  }
}

TEST(MadHdr, ShortBuffersAreRefused) {
  u8 m[IB_MAD_WIRE_HDR_LEN] = {};
  struct ib_mad_wire_hdr h = HdrStruct();
  EXPECT_EQ(ib_mad_wire_hdr_decode(m, IB_MAD_WIRE_HDR_LEN - 1, &h), -EINVAL);
  EXPECT_EQ(ib_mad_wire_hdr_encode(m, IB_MAD_WIRE_HDR_LEN - 1, &h), -EINVAL);
  EXPECT_EQ(ib_mad_wire_hdr_decode(m, IB_MAD_WIRE_HDR_LEN, &h), 0);
}

// ---- receive checks ----

Mad CmMad(u8 method = 0x03, u16 attr = 0x0010) {
  Mad m = HdrImage();
  m[3] = method;
  be(&m[16], attr, 2);
  return m;
}

int Check(const Mad &m, bool qp0, enum ib_mad_wire_why *why, size_t len = 0) {
  struct ib_mad_wire_hdr h;
  return ib_mad_wire_check_recv(m.data(), (u32)(len ? len : m.size()), qp0, &h, why);
}

TEST(MadCheck, AcceptsACmSend) {
  Mad m = CmMad();
  enum ib_mad_wire_why why = IB_MAD_WHY_NUM;
  struct ib_mad_wire_hdr h;
  EXPECT_EQ(ib_mad_wire_check_recv(m.data(), (u32)m.size(), false, &h, &why), 0);
  EXPECT_EQ(why, IB_MAD_WHY_OK);
  EXPECT_EQ(h.attr_id, 0x0010);
  EXPECT_EQ(ib_mad_wire_check_recv(m.data(), (u32)m.size(), false, &h, nullptr), 0);
}

TEST(MadCheck, RefusesWrongSizes) {
  Mad m = CmMad();
  enum ib_mad_wire_why why;
  EXPECT_EQ(Check(m, false, &why, 255), -EINVAL);
  EXPECT_EQ(why, IB_MAD_WHY_SHORT);
  EXPECT_EQ(Check(m, false, &why, 23), -EINVAL);
  EXPECT_EQ(why, IB_MAD_WHY_SHORT);
  m.resize(257);
  EXPECT_EQ(Check(m, false, &why), -EINVAL);
  EXPECT_EQ(why, IB_MAD_WHY_LONG);
}

TEST(MadCheck, RefusesOtherBaseVersions) {
  enum ib_mad_wire_why why;
  for (int v : {0, 2, 0x80, 0xff}) {
    Mad m = CmMad();
    m[0] = (u8)v;
    EXPECT_EQ(Check(m, false, &why), -EPROTONOSUPPORT) << v;
    EXPECT_EQ(why, IB_MAD_WHY_BASE_VERSION);
  }
}

TEST(MadCheck, KeepsSubnetManagementOnQp0AndTheRestOff) {
  enum ib_mad_wire_why why;
  for (u8 cls : {0x01, 0x81}) {
    Mad m = CmMad();
    m[1] = cls;
    m[3] = 0x01;
    EXPECT_EQ(Check(m, false, &why), -EPROTO);
    EXPECT_EQ(why, IB_MAD_WHY_SMI_NOT_QP0);
    EXPECT_EQ(Check(m, true, &why), 0);
  }
  for (u8 cls : {0x03, 0x04, 0x07}) {
    Mad m = CmMad();
    m[1] = cls;
    EXPECT_EQ(Check(m, true, &why), -EPROTO);
    EXPECT_EQ(why, IB_MAD_WHY_GSI_ON_QP0);
  }
}

TEST(MadCheck, CmTakesOnlySendExceptForClassPortInfo) {
  enum ib_mad_wire_why why;
  for (u8 method : {0x01, 0x02, 0x05, 0x06, 0x07, 0x81, 0x83, 0x86}) {
    Mad m = CmMad(method);
    EXPECT_EQ(Check(m, false, &why), -EOPNOTSUPP) << (int)method;
    EXPECT_EQ(why, IB_MAD_WHY_CM_METHOD);
    m = CmMad(method, IB_MAD_WIRE_ATTR_CLASS_PORT_INFO);
    EXPECT_EQ(Check(m, false, &why), 0) << (int)method;
  }
}

TEST(MadCheck, CmSendMustBeClassVersion2) {
  enum ib_mad_wire_why why;
  for (int v : {0, 1, 3, 0xff}) {
    Mad m = CmMad();
    m[2] = (u8)v;
    EXPECT_EQ(Check(m, false, &why), -EPROTONOSUPPORT) << v;
    EXPECT_EQ(why, IB_MAD_WHY_CM_CLASS_VERSION);
  }
  // other classes keep their own versions
  Mad sa = CmMad(0x01);
  sa[1] = 0x03;
  EXPECT_EQ(Check(sa, false, &why), 0);
}

TEST(MadCheck, EveryRefusalHasAName) {
  EXPECT_STREQ(ib_mad_wire_why_str(IB_MAD_WHY_OK), "ok");
  EXPECT_STREQ(ib_mad_wire_why_str(IB_MAD_WHY_CM_METHOD), "cm_method");
  for (int w = 0; w < IB_MAD_WHY_NUM; w++)
    EXPECT_STRNE(ib_mad_wire_why_str((enum ib_mad_wire_why)w), "unknown") << w;
  EXPECT_STREQ(ib_mad_wire_why_str(IB_MAD_WHY_NUM), "unknown");
}

TEST(MadCheck, DecodedHeadersGetTheSameVerdict) {
  // one image per rule (and the CM Send that passes), on both QPs
  std::vector<Mad> images = {CmMad(), CmMad(0x01), CmMad(0x01, IB_MAD_WIRE_ATTR_CLASS_PORT_INFO)};
  for (u8 b : {0x00, 0x02}) {
    images.push_back(CmMad());
    images.back()[0] = b;
  }
  for (u8 cls : {0x01, 0x81, 0x03}) {
    images.push_back(CmMad(0x01));
    images.back()[1] = cls;
  }
  images.push_back(CmMad());
  images.back()[2] = 1;
  unsigned seen = 0;
  for (const Mad &m : images) {
    for (bool qp0 : {false, true}) {
      enum ib_mad_wire_why want;
      struct ib_mad_wire_hdr h;
      Check(m, qp0, &want);
      ASSERT_EQ(ib_mad_wire_hdr_decode(m.data(), (u32)m.size(), &h), 0);
      EXPECT_EQ(ib_mad_wire_check_hdr(&h, qp0), want)
          << ib_mad_wire_why_str(want) << " qp0 " << qp0;
      seen |= 1u << want;
    }
  }
  // every rule but the two sizes was exercised
  EXPECT_EQ(seen, ((1u << IB_MAD_WHY_NUM) - 1) & ~(1u << IB_MAD_WHY_SHORT | 1u << IB_MAD_WHY_LONG));
}

// ---- responses, answers, TIDs ----

TEST(MadResponse, MethodBitTrapRepressAndBaseboardBit) {
  struct ib_mad_wire_hdr h = HdrStruct();
  h.attr_mod = 0;
  EXPECT_FALSE(ib_mad_wire_is_response(&h));
  for (u8 m : {0x81, 0x86, 0x83, 0x07}) {
    h.method = m;
    EXPECT_TRUE(ib_mad_wire_is_response(&h)) << (int)m;
  }
  h.method = 0x02;
  h.mgmt_class = 0x05;
  EXPECT_FALSE(ib_mad_wire_is_response(&h));
  h.attr_mod = 1;
  EXPECT_TRUE(ib_mad_wire_is_response(&h));
  h.attr_mod = 0x80000000U;
  EXPECT_FALSE(ib_mad_wire_is_response(&h));
  h.mgmt_class = 0x07;
  h.attr_mod = 1;
  EXPECT_FALSE(ib_mad_wire_is_response(&h));
}

TEST(MadReply, GetAndSetGetAGetRespWithTheStatus) {
  for (u8 method : {0x01, 0x02}) {
    Mad m = CmMad(method, IB_MAD_WIRE_ATTR_CLASS_PORT_INFO);
    struct ib_mad_wire_hdr h;
    ASSERT_EQ(ib_mad_wire_hdr_decode(m.data(), (u32)m.size(), &h), 0);
    EXPECT_TRUE(ib_mad_wire_wants_reply(&h));
    Mad before = m;
    ASSERT_EQ(ib_mad_wire_make_reply(m.data(), (u32)m.size(), 0x000c), 0);
    EXPECT_EQ(m[3], 0x81);
    EXPECT_EQ(m[4], 0x00);
    EXPECT_EQ(m[5], 0x0c);
    for (size_t i = 0; i < m.size(); i++) {
      if (i != 3 && i != 4 && i != 5) {
        EXPECT_EQ(m[i], before[i]) << i;
      }
    }
  }
}

TEST(MadReply, NothingElseIsAnswered) {
  for (u8 method : {0x03, 0x05, 0x06, 0x07, 0x81, 0x86}) {
    Mad m = CmMad(method);
    struct ib_mad_wire_hdr h;
    ASSERT_EQ(ib_mad_wire_hdr_decode(m.data(), (u32)m.size(), &h), 0);
    EXPECT_FALSE(ib_mad_wire_wants_reply(&h)) << (int)method;
    EXPECT_EQ(ib_mad_wire_make_reply(m.data(), (u32)m.size(), 0x000c), -EINVAL);
  }
  Mad m = CmMad(0x01);
  EXPECT_EQ(ib_mad_wire_make_reply(m.data(), 10, 0x000c), -EINVAL);
}

TEST(MadTid, AgentInTheHighWordOwnNumberInTheLow) {
  u64 tid = ib_mad_wire_tid(0xabcdef, 0x12345678);
  EXPECT_EQ(tid, 0x00abcdef12345678ULL);
  EXPECT_EQ(ib_mad_wire_tid_agent(tid), 0xabcdefU);
  EXPECT_EQ(ib_mad_wire_tid_low(tid), 0x12345678U);
  // on the wire the agent ID is in bytes 8..11 of the MAD
  Mad m = CmMad();
  struct ib_mad_wire_hdr h = HdrStruct();
  h.tid = tid;
  ASSERT_EQ(ib_mad_wire_hdr_encode(m.data(), (u32)m.size(), &h), 0);
  const u8 want[8] = {0x00, 0xab, 0xcd, 0xef, 0x12, 0x34, 0x56, 0x78};
  EXPECT_EQ(0, memcmp(&m[8], want, 8));
}

TEST(MadTid, AgentIdsWrapWithin24Bits) {
  EXPECT_EQ(ib_mad_wire_next_agent_id(0), 1U);
  EXPECT_EQ(ib_mad_wire_next_agent_id(0xfffffe), 0xffffffU);
  EXPECT_EQ(ib_mad_wire_next_agent_id(0xffffff), 0U);
}

TEST(MadTid, AResponseMatchesByTidAndClass) {
  struct ib_mad_wire_hdr r = HdrStruct();
  EXPECT_TRUE(ib_mad_wire_tid_match(r.tid, 0x07, &r));
  EXPECT_FALSE(ib_mad_wire_tid_match(r.tid + 1, 0x07, &r));
  EXPECT_FALSE(ib_mad_wire_tid_match(r.tid, 0x03, &r));
}

}  // namespace
