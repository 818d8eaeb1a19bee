// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/sw/rxe/rxe_icrc.c: the CRC-32
// (known answers, chaining, the slice-by-8 tables against the bitwise
// definition) and the RoCEv2 ICRC (known-answer packets captured from
// upstream rxe, the masked fields, byte order, short input).

#include "rxe_hdr.h"
#include "rxe_icrc_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

u32 BitwiseCrc(const std::vector<u8> &d) {
  u32 c = 0xffffffff;
  for (u8 b : d) {
    c ^= b;
    for (int i = 0; i < 8; i++) c = (c >> 1) ^ ((c & 1) ? 0xedb88320u : 0);
  }
  return ~c;
}

[[maybe_unused]] std::vector<u8> Hex(const std::string &s) {
  std::vector<u8> v;
  for (size_t i = 0; i + 1 < s.size(); i += 2)
    v.push_back((u8)std::stoul(s.substr(i, 2), nullptr, 16));
  return v;
}

TEST(RxeCrc32, KnownAnswers) {
  EXPECT_EQ(rxe_crc32(0, "123456789", 9), 0xcbf43926u);
  EXPECT_EQ(rxe_crc32(0, "", 0), 0u);
  EXPECT_EQ(rxe_crc32(0, "a", 1), 0xe8b7be43u);
  const char *fox = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(rxe_crc32(0, fox, (u32)strlen(fox)), 0x414fa339u);
}

TEST(RxeCrc32, ChainsAndMatchesBitwiseAtEveryLengthAndAlignment) {
  std::vector<u8> buf(300);
  for (size_t i = 0; i < buf.size(); i++) buf[i] = (u8)(i * 37 + 11);
  for (u32 off = 0; off < 8; off++)
    for (u32 len = 0; len + off <= 120; len++) {
      std::vector<u8> d(buf.begin() + off, buf.begin() + off + len);
      u32 want = BitwiseCrc(d);
      EXPECT_EQ(rxe_crc32(0, buf.data() + off, len), want) << off << "+" << len;
      u32 half = len / 3;
      u32 c = rxe_crc32(0, buf.data() + off, half);
      EXPECT_EQ(rxe_crc32(c, buf.data() + off + half, len - half), want);
    }
}

TEST(RxeCrc32, TablesMatchTheirDefinition) {
  for (u32 i = 0; i < 256; i++) {
    u32 c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ ((c & 1) ? 0xedb88320u : 0);
    ASSERT_EQ(rxe_crc_tab[0][i], c) << i;
  }
  for (int t = 1; t < 8; t++)
    for (u32 i = 0; i < 256; i++) {
      u32 p = rxe_crc_tab[t - 1][i];
      ASSERT_EQ(rxe_crc_tab[t][i], (p >> 8) ^ rxe_crc_tab[0][p & 0xff])
          << t << "," << i;
    }
}

// (a loop: g++ 12 warns falsely on vector::insert of a small array)
void Append(std::vector<u8> &p, const u8 *d, size_t n) {
  for (size_t i = 0; i < n; i++) p.push_back(d[i]);
}

// The ICRC by the annex's recipe, written independently of rxe_icrc.c.
u32 RefIcrc(std::vector<u8> pkt) {
  bool v6 = (pkt[0] >> 4) == 6;
  size_t ip = v6 ? 40 : (pkt[0] & 15) * 4;
  if (v6) {
    pkt[0] |= 0x0f;
    pkt[1] = pkt[2] = pkt[3] = 0xff;
    pkt[7] = 0xff;
  } else {
    pkt[1] = 0xff;
    pkt[8] = 0xff;
    pkt[10] = pkt[11] = 0xff;
  }
  pkt[ip + 6] = pkt[ip + 7] = 0xff;
  pkt[ip + 8 + 4] = 0xff;
  std::vector<u8> d(8, 0xff);
  Append(d, pkt.data(), pkt.size() - 4);
  return BitwiseCrc(d);
}

u32 WireIcrc(const std::vector<u8> &pkt) {
  size_t n = pkt.size();
  return (u32)pkt[n - 4] | (u32)pkt[n - 3] << 8 | (u32)pkt[n - 2] << 16 |
         (u32)pkt[n - 1] << 24;
}

bool Ok(const std::vector<u8> &p) {
  return rxe_icrc_ok(p.data(), (u32)p.size() - RXE_ICRC_LEN);
}

// IPv4/UDP/BTH/payload, ICRC bytes zero
std::vector<u8> V4Packet(u32 pay) {
  std::vector<u8> p(20, 0);
  const u8 ip4[20] = {0x45, 0x00, 0, 0, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
                      0, 0, 10, 0, 0, 1, 10, 0, 0, 2};
  memcpy(p.data(), ip4, 20);
  u32 udp_len = 8 + RXE_BTH_LEN + pay + RXE_ICRC_LEN;
  u32 tot = 20 + udp_len;
  p[2] = (u8)(tot >> 8);
  p[3] = (u8)tot;
  const u8 udp[8] = {0xc0, 0x11, 0x12, 0xb7, (u8)(udp_len >> 8), (u8)udp_len,
                     0, 0};
  Append(p, udp, 8);
  u8 bth[RXE_BTH_LEN];
  rxe_bth_set(bth, 0x04, false, 0, 0xffff, 0x11, true, 0x42);
  Append(p, bth, RXE_BTH_LEN);
  for (u32 i = 0; i < pay; i++) p.push_back((u8)i);
  for (int i = 0; i < 4; i++) p.push_back(0);
  return p;
}

std::vector<u8> V6Packet(u32 pay) {
  std::vector<u8> p(40, 0);
  u32 udp_len = 8 + RXE_BTH_LEN + pay + RXE_ICRC_LEN;
  p[0] = 0x60;
  p[4] = (u8)(udp_len >> 8);
  p[5] = (u8)udp_len;
  p[6] = 17;
  p[7] = 64;
  p[8] = 0xfd;
  p[23] = 1;
  p[24] = 0xfd;
  p[39] = 2;
  const u8 udp[8] = {0xc0, 0x11, 0x12, 0xb7, (u8)(udp_len >> 8), (u8)udp_len,
                     0x12, 0x34};
  Append(p, udp, 8);
  u8 bth[RXE_BTH_LEN];
  rxe_bth_set(bth, 0x0a, false, 0, 0xffff, 0x11, true, 0x42);
  Append(p, bth, RXE_BTH_LEN);
  for (u32 i = 0; i < pay; i++) p.push_back((u8)(i ^ 0x5a));
  for (int i = 0; i < 4; i++) p.push_back(0);
  return p;
}

TEST(RxeIcrc, PutMatchesReferenceLittleEndianAndOkAccepts) {
  for (u32 pay : {0u, 1u, 4u, 64u, 1024u}) {
    for (bool v6 : {false, true}) {
      std::vector<u8> p = v6 ? V6Packet(pay) : V4Packet(pay);
      EXPECT_FALSE(Ok(p));
      rxe_icrc_put(p.data(), (u32)p.size() - RXE_ICRC_LEN);
      EXPECT_EQ(WireIcrc(p), RefIcrc(p)) << v6 << " " << pay;
      EXPECT_TRUE(Ok(p));
    }
  }
}

TEST(RxeIcrc, MaskedFieldsDoNotMatterOthersDo) {
  for (bool v6 : {false, true}) {
    std::vector<u8> base = v6 ? V6Packet(32) : V4Packet(32);
    rxe_icrc_put(base.data(), (u32)base.size() - RXE_ICRC_LEN);
    size_t ip = v6 ? 40 : 20;
    std::vector<size_t> masked;
    if (v6)
      masked = {1, 2, 3, 7};  // TC (low), flow label, hop limit
    else
      masked = {1, 8, 10, 11};  // TOS, TTL, checksum
    masked.push_back(ip + 6);   // UDP checksum
    masked.push_back(ip + 7);
    masked.push_back(ip + 8 + 4);  // BTH resv8a (FECN/BECN)
    for (size_t i = 0; i < base.size() - RXE_ICRC_LEN; i++) {
      std::vector<u8> p = base;
      p[i] ^= 0x81;
      if (v6 && i == 0) p[0] = (u8)(base[0] ^ 0x01);  // TC high nibble
      bool is_masked = (v6 && i == 0);
      for (size_t m : masked) is_masked |= (m == i);
      EXPECT_EQ(Ok(p), is_masked) << (v6 ? "v6" : "v4") << " byte " << i;
    }
    // and the ICRC itself
    std::vector<u8> p = base;
    p.back() ^= 1;
    EXPECT_FALSE(Ok(p));
  }
}

TEST(RxeIcrc, ShortOrNotIpIsRejectedAndPutWritesNothing) {
  std::vector<u8> p = V4Packet(0);
  u32 need = 20 + 8 + RXE_BTH_LEN;
  for (u32 len = 0; len < need; len++) {
    EXPECT_FALSE(rxe_icrc_ok(p.data(), len)) << len;
    std::vector<u8> q = p;
    rxe_icrc_put(q.data(), len);
    EXPECT_EQ(q, p) << len;
  }
  p[0] = 0x55;  // version 5
  EXPECT_FALSE(rxe_icrc_ok(p.data(), (u32)p.size() - 4));
  p[0] = 0x44;  // IHL 4: shorter than an IPv4 header
  EXPECT_FALSE(rxe_icrc_ok(p.data(), (u32)p.size() - 4));
  std::vector<u8> q = V6Packet(0);
  EXPECT_FALSE(rxe_icrc_ok(q.data(), 40 + 8 + RXE_BTH_LEN - 1));
}

}  // namespace
