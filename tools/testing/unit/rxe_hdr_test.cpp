// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/sw/rxe/rxe_hdr.c and the inline
// accessors of rxe_hdr.h: the opcode table's invariants for every opcode,
// the receive parser (accepts every opcode at valid lengths, rejects
// short, bad-pad, bad-TVer and unknown packets), accessor round trips and
// PSN arithmetic across the 24-bit wrap.

#include "rxe_hdr.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

const u32 kHdrBits[RXE_NUM_HDR_TYPES] = {
    RXE_DETH_MASK, RXE_FETH_MASK, RXE_RETH_MASK, RXE_ATMETH_MASK, RXE_AETH_MASK,
    RXE_ATMACK_MASK, RXE_IMMDT_MASK, RXE_IETH_MASK,
};
const u8 kHdrLen[RXE_NUM_HDR_TYPES] = {
    RXE_DETH_LEN, RXE_FETH_LEN, RXE_RETH_LEN, RXE_ATMETH_LEN, RXE_AETH_LEN,
    RXE_ATMACK_LEN, RXE_IMMDT_LEN, RXE_IETH_LEN,
};

std::vector<u8> AllOpcodes() {
  std::vector<u8> ops;
  for (unsigned op = 0x00; op <= 0x14; op++) ops.push_back((u8)op);
  ops.push_back(0x16);
  ops.push_back(0x17);
  ops.push_back(0x1c);
  ops.push_back(0x1d);
  for (unsigned op = 0x20; op <= 0x2b; op++) ops.push_back((u8)op);
  ops.push_back(0x64);
  ops.push_back(0x65);
  return ops;
}

TEST(RxeOpcodeTable, ExactlyTheSupportedOpcodesExist) {
  std::set<u8> want;
  for (u8 op : AllOpcodes()) want.insert(op);
  for (unsigned op = 0; op < 256; op++) {
    const struct rxe_opcode_info *oi = rxe_opcode_info((u8)op);
    EXPECT_EQ(oi != nullptr, want.count((u8)op) == 1) << std::hex << op;
    if (oi) {
      EXPECT_NE(oi->name, nullptr);
    }
  }
}

TEST(RxeOpcodeTable, NamesAreUniqueAndCarryTheTransport) {
  std::set<std::string> names;
  for (u8 op : AllOpcodes()) {
    const struct rxe_opcode_info *oi = rxe_opcode_info(op);
    ASSERT_NE(oi, nullptr);
    std::string n = oi->name;
    EXPECT_TRUE(names.insert(n).second) << n;
    const char *tr = (op & RXE_TR_MASK) == RXE_TR_RC ? "RC_"
                     : (op & RXE_TR_MASK) == RXE_TR_UC ? "UC_" : "UD_";
    EXPECT_EQ(n.rfind(tr, 0), 0u) << n;
  }
}

TEST(RxeOpcodeTable, OffsetsFollowWireOrderAndSumToHdrLen) {
  for (u8 op : AllOpcodes()) {
    const struct rxe_opcode_info *oi = rxe_opcode_info(op);
    ASSERT_NE(oi, nullptr);
    unsigned at = RXE_BTH_LEN;
    for (int t = 0; t < RXE_NUM_HDR_TYPES; t++) {
      if (oi->mask & kHdrBits[t]) {
        EXPECT_EQ(oi->offset[t], at) << oi->name << " hdr " << t;
        at += kHdrLen[t];
      } else {
        EXPECT_EQ(oi->offset[t], 0) << oi->name << " hdr " << t;
      }
    }
    EXPECT_EQ(oi->hdr_len, at) << oi->name;
    EXPECT_LE(oi->hdr_len, RXE_MAX_HDR_LEN) << oi->name;
  }
}

TEST(RxeOpcodeTable, FlagInvariants) {
  for (u8 op : AllOpcodes()) {
    const struct rxe_opcode_info *oi = rxe_opcode_info(op);
    ASSERT_NE(oi, nullptr);
    const u32 m = oi->mask;
    const char *n = oi->name;
    // exactly one of request / response
    EXPECT_NE(!!(m & RXE_REQ_MASK), !!(m & RXE_RESP_MASK)) << n;
    // exactly one operation kind, except plain ACKs
    int kinds = !!(m & RXE_SEND_MASK) + !!(m & RXE_WRITE_MASK) +
                !!(m & RXE_READ_MASK) + !!(m & RXE_ATOMIC_MASK) +
                !!(m & RXE_ATOMIC_WRITE_MASK) + !!(m & RXE_FLUSH_MASK);
    EXPECT_EQ(kinds, op == 0x11 ? 0 : 1) << n;
    // position: MIDDLE alone, or START and/or END
    if (m & RXE_MIDDLE_MASK) {
      EXPECT_FALSE(m & (RXE_START_MASK | RXE_END_MASK)) << n;
    } else {
      EXPECT_TRUE(m & (RXE_START_MASK | RXE_END_MASK)) << n;
    }
    EXPECT_EQ(!!(m & RXE_COMP_MASK), !!(m & RXE_END_MASK)) << n;
    // payload: sends, writes, atomic writes and read responses only
    EXPECT_EQ(!!(m & RXE_PAYLOAD_MASK),
              !!(m & (RXE_SEND_MASK | RXE_WRITE_MASK | RXE_ATOMIC_WRITE_MASK)) ||
                  ((m & RXE_READ_MASK) && (m & RXE_RESP_MASK)))
        << n;
    // RETH starts writes and carries reads
    if (m & RXE_WRITE_MASK) {
      EXPECT_EQ(!!(m & RXE_RETH_MASK), !!(m & RXE_START_MASK)) << n;
    }
    if (((m & RXE_READ_MASK) && (m & RXE_REQ_MASK)) ||
        (m & (RXE_ATOMIC_WRITE_MASK | RXE_FLUSH_MASK))) {
      EXPECT_TRUE(m & RXE_RETH_MASK) << n;
    }
    // the FETH is FLUSH's
    EXPECT_EQ(!!(m & RXE_FETH_MASK), !!(m & RXE_FLUSH_MASK)) << n;
    // an atomic write and a flush are one packet of RC
    if (m & (RXE_ATOMIC_WRITE_MASK | RXE_FLUSH_MASK)) {
      EXPECT_EQ(m & (RXE_START_MASK | RXE_END_MASK), RXE_START_MASK | RXE_END_MASK) << n;
      EXPECT_EQ(op & RXE_TR_MASK, RXE_TR_RC) << n;
    }
    // AETH on every response but read response middles
    if (m & RXE_RESP_MASK) {
      EXPECT_EQ(!!(m & RXE_AETH_MASK), !(m & RXE_MIDDLE_MASK)) << n;
    } else {
      EXPECT_FALSE(m & (RXE_AETH_MASK | RXE_ATMACK_MASK)) << n;
    }
    EXPECT_EQ(!!(m & RXE_ATMETH_MASK),
              (m & RXE_ATOMIC_MASK) && (m & RXE_REQ_MASK)) << n;
    EXPECT_EQ(!!(m & RXE_ATMACK_MASK),
              (m & RXE_ATOMIC_MASK) && (m & RXE_RESP_MASK)) << n;
    // DETH exactly on UD
    EXPECT_EQ(!!(m & RXE_DETH_MASK), (op & RXE_TR_MASK) == RXE_TR_UD) << n;
    // the ACK request is RC's, on the last packet of a request
    EXPECT_EQ(!!(m & RXE_ACK_REQ_MASK),
              (op & RXE_TR_MASK) == RXE_TR_RC && (m & RXE_REQ_MASK) &&
                  (m & RXE_END_MASK))
        << n;
    // receive WQEs: first packet of sends, writes with immediate
    bool rwr = ((m & RXE_SEND_MASK) && (m & RXE_START_MASK)) ||
               ((m & RXE_WRITE_MASK) && (m & RXE_IMMDT_MASK));
    EXPECT_EQ(!!(m & RXE_RWR_MASK), rwr) << n;
    if (m & (RXE_IMMDT_MASK | RXE_IETH_MASK)) {
      EXPECT_TRUE(m & RXE_END_MASK) << n;
    }
    EXPECT_FALSE((m & RXE_IMMDT_MASK) && (m & RXE_IETH_MASK)) << n;
  }
}

TEST(RxeOpcodeTable, KnownEntries) {
  const struct rxe_opcode_info *oi;
  oi = rxe_opcode_info(RXE_OPCODE(RXE_TR_RC, RXE_OP_WRITE_ONLY_IMM));
  ASSERT_NE(oi, nullptr);
  EXPECT_EQ(oi->hdr_len, RXE_BTH_LEN + RXE_RETH_LEN + RXE_IMMDT_LEN);
  EXPECT_EQ(oi->offset[RXE_HDR_IMMDT], RXE_BTH_LEN + RXE_RETH_LEN);
  oi = rxe_opcode_info(RXE_OPCODE(RXE_TR_UD, RXE_OP_SEND_ONLY_IMM));
  ASSERT_NE(oi, nullptr);
  EXPECT_EQ(oi->hdr_len, RXE_BTH_LEN + RXE_DETH_LEN + RXE_IMMDT_LEN);
  EXPECT_EQ(oi->offset[RXE_HDR_DETH], RXE_BTH_LEN);
  EXPECT_EQ(oi->offset[RXE_HDR_IMMDT], RXE_BTH_LEN + RXE_DETH_LEN);
  oi = rxe_opcode_info(RXE_OPCODE(RXE_TR_RC, RXE_OP_ATOMIC_ACK));
  ASSERT_NE(oi, nullptr);
  EXPECT_EQ(oi->hdr_len, RXE_BTH_LEN + RXE_AETH_LEN + RXE_ATMACK_LEN);
  oi = rxe_opcode_info(RXE_OPCODE(RXE_TR_RC, RXE_OP_CMP_SWAP));
  ASSERT_NE(oi, nullptr);
  EXPECT_EQ(oi->hdr_len, RXE_MAX_HDR_LEN);
  oi = rxe_opcode_info(RXE_OPCODE(RXE_TR_RC, RXE_OP_ATOMIC_WRITE));
  ASSERT_NE(oi, nullptr);
  EXPECT_EQ(oi->hdr_len, RXE_BTH_LEN + RXE_RETH_LEN);
  EXPECT_EQ(oi->offset[RXE_HDR_RETH], RXE_BTH_LEN);
  EXPECT_EQ(rxe_opcode_info(0x15), nullptr);
  oi = rxe_opcode_info(RXE_OPCODE(RXE_TR_RC, RXE_OP_FLUSH));
  ASSERT_NE(oi, nullptr);
  EXPECT_EQ(oi->hdr_len, RXE_BTH_LEN + RXE_FETH_LEN + RXE_RETH_LEN);
  EXPECT_EQ(oi->offset[RXE_HDR_FETH], RXE_BTH_LEN);  // FETH before RETH
  EXPECT_EQ(oi->offset[RXE_HDR_RETH], RXE_BTH_LEN + RXE_FETH_LEN);
  EXPECT_FALSE(oi->mask & RXE_PAYLOAD_MASK);
  EXPECT_EQ(rxe_opcode_info(0x3c), nullptr);  // no UC flush
  EXPECT_EQ(rxe_opcode_info(0x3d), nullptr);  // no UC atomic write
  EXPECT_EQ(rxe_opcode_info(0x2c), nullptr);
  EXPECT_EQ(rxe_opcode_info(0x60), nullptr);
  EXPECT_EQ(rxe_opcode_info(0x66), nullptr);
  EXPECT_EQ(rxe_opcode_info(0x44), nullptr);  // RD
  EXPECT_EQ(rxe_opcode_info(0xff), nullptr);
}

// a packet (BTH .. ICRC) of @op with @pay payload bytes and @pad pad
std::vector<u8> Packet(u8 op, u32 pay, u8 pad) {
  const struct rxe_opcode_info *oi = rxe_opcode_info(op);
  u32 hl = oi ? oi->hdr_len : RXE_BTH_LEN;
  std::vector<u8> p(hl + pay + pad + RXE_ICRC_LEN, 0xa5);
  rxe_bth_set(p.data(), op, true, pad, 0xffff, 0x123456, true, 0xabcdef);
  return p;
}

TEST(RxeHdrParse, AcceptsEveryOpcodeAtValidLengths) {
  for (u8 op : AllOpcodes()) {
    const struct rxe_opcode_info *oi = rxe_opcode_info(op);
    std::vector<std::pair<u32, u8>> cases = {{0, 0}};
    if (oi->mask & RXE_PAYLOAD_MASK)
      cases.insert(cases.end(), {{1, 3}, {2, 2}, {3, 1}, {4, 0}, {1024, 0},
                                 {4093, 3}});
    for (auto [pay, pad] : cases) {
      std::vector<u8> p = Packet(op, pay, pad);
      struct rxe_hdr_info info;
      memset(&info, 0xee, sizeof(info));
      ASSERT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info), RXE_PARSE_OK)
          << oi->name << " pay " << pay << " pad " << (int)pad;
      EXPECT_EQ(info.opcode, op);
      EXPECT_EQ(info.mask, oi->mask);
      EXPECT_EQ(info.hdr_len, oi->hdr_len);
      EXPECT_EQ(info.paylen, pay);
      EXPECT_EQ(info.pad, pad);
      EXPECT_EQ(info.psn, 0xabcdefu);
      EXPECT_EQ(info.qpn, 0x123456u);
      EXPECT_EQ(info.pkey, 0xffff);
      EXPECT_EQ(info.flags, RXE_INFO_SE | RXE_INFO_ACKREQ);
    }
  }
}

TEST(RxeHdrParse, RejectsShortPackets) {
  struct rxe_hdr_info info;
  for (u8 op : AllOpcodes()) {
    std::vector<u8> p = Packet(op, 0, 0);
    for (u32 len = 0; len < p.size(); len++)
      EXPECT_EQ(rxe_hdr_parse(p.data(), len, &info), RXE_PARSE_SHORT)
          << rxe_opcode_info(op)->name << " len " << len;
  }
}

TEST(RxeHdrParse, RejectsBadPad) {
  struct rxe_hdr_info info;
  for (u8 op : AllOpcodes()) {
    const struct rxe_opcode_info *oi = rxe_opcode_info(op);
    if (oi->mask & RXE_PAYLOAD_MASK) {
      // pad without payload, or as long as the body
      for (u8 pad = 1; pad <= 3; pad++) {
        std::vector<u8> p = Packet(op, 0, pad);
        EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info),
                  RXE_PARSE_LENGTH) << oi->name;
        p = Packet(op, 0, 0);
        p[1] = (u8)(p[1] | pad << 4);
        EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info),
                  RXE_PARSE_LENGTH) << oi->name;
      }
    } else {
      // no payload, no pad at all
      std::vector<u8> p = Packet(op, 0, 0);
      p.push_back(0);
      EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info),
                RXE_PARSE_LENGTH) << oi->name;
      p = Packet(op, 0, 0);
      p[1] |= 1 << 4;
      EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info),
                RXE_PARSE_LENGTH) << oi->name;
    }
  }
}

TEST(RxeHdrParse, RejectsPayloadOverU16) {
  struct rxe_hdr_info info;
  std::vector<u8> p = Packet(0x04, 0x10000, 0);
  EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info), RXE_PARSE_LENGTH);
  p = Packet(0x04, 0xffff, 1);
  EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info), RXE_PARSE_OK);
  EXPECT_EQ(info.paylen, 0xffff);
}

TEST(RxeHdrParse, RejectsBadTverAndUnknownOpcodes) {
  struct rxe_hdr_info info;
  for (u8 tver = 1; tver < 16; tver++) {
    std::vector<u8> p = Packet(0x04, 8, 0);
    p[1] = (u8)((p[1] & 0xf0) | tver);
    EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info), RXE_PARSE_TVER);
  }
  for (unsigned op = 0; op < 256; op++) {
    if (rxe_opcode_info((u8)op)) continue;
    std::vector<u8> p(64, 0);
    p[0] = (u8)op;
    EXPECT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info), RXE_PARSE_OPCODE)
        << op;
  }
}

TEST(RxeHdrParse, FlagsFromBth) {
  struct rxe_hdr_info info;
  std::vector<u8> p = Packet(0x11, 0, 0);
  p[1] = 0x40;  // MIG, no SE
  p[4] = 0xc0;  // FECN, BECN
  p[8] = 0;     // no AckReq
  ASSERT_EQ(rxe_hdr_parse(p.data(), (u32)p.size(), &info), RXE_PARSE_OK);
  EXPECT_EQ(info.flags, RXE_INFO_MIG | RXE_INFO_FECN | RXE_INFO_BECN);
}

TEST(RxeAccessors, BthRoundTrip) {
  u8 b[RXE_BTH_LEN];
  memset(b, 0xff, sizeof(b));
  rxe_bth_set(b, 0x0a, true, 3, 0x8001, 0xfedcba98, true, 0x1234567);
  EXPECT_EQ(rxe_bth_opcode(b), 0x0a);
  EXPECT_TRUE(rxe_bth_se(b));
  EXPECT_FALSE(rxe_bth_mig(b));
  EXPECT_EQ(rxe_bth_pad(b), 3);
  EXPECT_EQ(rxe_bth_tver(b), 0);
  EXPECT_EQ(rxe_bth_pkey(b), 0x8001);
  EXPECT_FALSE(rxe_bth_fecn(b));
  EXPECT_FALSE(rxe_bth_becn(b));
  EXPECT_EQ(rxe_bth_qpn(b), 0xdcba98u);
  EXPECT_TRUE(rxe_bth_ackreq(b));
  EXPECT_EQ(rxe_bth_psn(b), 0x234567u);
  const u8 want[RXE_BTH_LEN] = {0x0a, 0xb0, 0x80, 0x01, 0x00, 0xdc,
                                0xba, 0x98, 0x80, 0x23, 0x45, 0x67};
  EXPECT_EQ(memcmp(b, want, sizeof(b)), 0);
}

TEST(RxeAccessors, ExtendedHeadersRoundTrip) {
  u8 h[RXE_ATMETH_LEN];
  rxe_reth_set(h, 0x0123456789abcdefULL, 0xdeadbeef, 0x10000);
  EXPECT_EQ(rxe_reth_va(h), 0x0123456789abcdefULL);
  EXPECT_EQ(rxe_reth_rkey(h), 0xdeadbeefu);
  EXPECT_EQ(rxe_reth_len(h), 0x10000u);
  EXPECT_EQ(h[0], 0x01);  // big-endian on the wire
  EXPECT_EQ(h[15], 0x00);

  rxe_aeth_set(h, RXE_AETH_NAK | RXE_NAK_REMOTE_ACCESS, 0xabcdef);
  EXPECT_EQ(rxe_aeth_syn(h), 0x62);
  EXPECT_EQ(rxe_aeth_msn(h), 0xabcdefu);

  rxe_atmeth_set(h, 0x1000, 0x42, 0x1111222233334444ULL,
                 0x5555666677778888ULL);
  EXPECT_EQ(rxe_atmeth_va(h), 0x1000u);
  EXPECT_EQ(rxe_atmeth_rkey(h), 0x42u);
  EXPECT_EQ(rxe_atmeth_swap_add(h), 0x1111222233334444ULL);
  EXPECT_EQ(rxe_atmeth_comp(h), 0x5555666677778888ULL);

  rxe_atmack_set(h, 0x8000000000000001ULL);
  EXPECT_EQ(rxe_atmack_orig(h), 0x8000000000000001ULL);

  memset(h, 0xff, sizeof(h));
  rxe_deth_set(h, RXE_GSI_QKEY, 0x1000001);
  EXPECT_EQ(rxe_deth_qkey(h), RXE_GSI_QKEY);
  EXPECT_EQ(h[4], 0);
  EXPECT_EQ(rxe_deth_sqp(h), 1u);

  const u8 imm[4] = {1, 2, 3, 4};
  u8 got[4];
  rxe_immdt_set(h, imm);
  rxe_immdt_get(h, got);
  EXPECT_EQ(memcmp(got, imm, 4), 0);
  EXPECT_EQ(memcmp(h, imm, 4), 0);

  rxe_ieth_set(h, 0xcafe0001);
  EXPECT_EQ(rxe_ieth_rkey(h), 0xcafe0001u);

  // FETH: one big-endian word, PLT in bits 3..0, SEL in bits 5..4
  rxe_feth_set(h, RXE_FLUSH_GLOBAL | RXE_FLUSH_PERSISTENT, RXE_FLUSH_MR);
  EXPECT_EQ(h[0], 0);
  EXPECT_EQ(h[1], 0);
  EXPECT_EQ(h[2], 0);
  EXPECT_EQ(h[3], 0x13);
  EXPECT_EQ(rxe_feth_plt(h), 3);
  EXPECT_EQ(rxe_feth_sel(h), RXE_FLUSH_MR);
  EXPECT_EQ(rxe_feth_reserved(h), 0u);
  h[0] = 0x80;
  h[3] |= 0x40;
  EXPECT_EQ(rxe_feth_reserved(h), 0x80000040u);
  EXPECT_EQ(rxe_feth_plt(h), 3);
}

// Whole packets written byte by byte from the IBTA layouts (vol. 1,
// 9.2 BTH, 9.3 extended headers), not from our setters: the setters
// must produce exactly these bytes and the parser and accessors must
// read exactly these values back.
struct KnownPacket {
  const char *what;
  std::vector<u8> bytes;  // BTH onwards, through the ICRC (zero here)
};

TEST(RxeHdrKnownAnswer, SettersWriteAndParserReadsTheSpecBytes) {
  // RC RDMA WRITE FIRST, SE=0 pad 0, P_Key 0xffff, dest QP 0x000011,
  // AckReq 0, PSN 0x000100; RETH VA 0x00007f0012345000, R_Key 0x00001234,
  // DMA length 8192; 4 payload bytes a1 a2 a3 a4
  const KnownPacket write_first = {
      "RC_RDMA_WRITE_FIRST",
      {0x06, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x01, 0x00,
       0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x50, 0x00, 0x00, 0x00, 0x12, 0x34,
       0x00, 0x00, 0x20, 0x00, 0xa1, 0xa2, 0xa3, 0xa4, 0, 0, 0, 0}};
  // RC FETCH_ADD, AckReq 1, dest QP 0x000022, PSN 0xfffffe; AtomicETH VA
  // 0x0000000000001008, R_Key 0x00000501, add 5, compare 0
  const KnownPacket fetch_add = {
      "RC_FETCH_ADD",
      {0x14, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x22, 0x80, 0xff, 0xff, 0xfe,
       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x08, 0x00, 0x00, 0x05, 0x01,
       0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00,
       0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0}};
  // RC ACKNOWLEDGE as a NAK "remote access error" (syndrome 0x62), MSN 7
  const KnownPacket nak = {
      "RC_ACKNOWLEDGE",
      {0x11, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x33, 0x00, 0x00, 0x00, 0x09,
       0x62, 0x00, 0x00, 0x07, 0, 0, 0, 0}};
  // UD SEND ONLY WITH IMMEDIATE, SE 1, pad 3, dest QP 0x000044; DETH Q_Key
  // 0x80010000, source QP 0x000055; ImmDt de ad be ef; 1 payload byte 7e
  const KnownPacket ud_imm = {
      "UD_SEND_ONLY_WITH_IMMEDIATE",
      {0x65, 0xb0, 0xff, 0xff, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00, 0x00, 0x01,
       0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x55, 0xde, 0xad, 0xbe, 0xef,
       0x7e, 0x00, 0x00, 0x00, 0, 0, 0, 0}};

  std::vector<u8> b;
  struct rxe_hdr_info info;

  b.assign(write_first.bytes.size(), 0);
  rxe_bth_set(b.data(), 0x06, false, 0, 0xffff, 0x11, false, 0x100);
  rxe_reth_set(b.data() + RXE_BTH_LEN, 0x00007f0012345000ULL, 0x1234, 8192);
  memcpy(b.data() + 28, "\xa1\xa2\xa3\xa4", 4);
  EXPECT_EQ(b, write_first.bytes) << write_first.what;
  ASSERT_EQ(rxe_hdr_parse(write_first.bytes.data(), (u32)write_first.bytes.size(), &info),
            RXE_PARSE_OK);
  EXPECT_EQ(info.paylen, 4u);
  EXPECT_EQ(info.qpn, 0x11u);
  EXPECT_EQ(info.psn, 0x100u);
  EXPECT_EQ(rxe_reth_va(write_first.bytes.data() + 12), 0x00007f0012345000ULL);
  EXPECT_EQ(rxe_reth_rkey(write_first.bytes.data() + 12), 0x1234u);
  EXPECT_EQ(rxe_reth_len(write_first.bytes.data() + 12), 8192u);

  b.assign(fetch_add.bytes.size(), 0);
  rxe_bth_set(b.data(), 0x14, false, 0, 0xffff, 0x22, true, 0xfffffe);
  rxe_atmeth_set(b.data() + RXE_BTH_LEN, 0x1008, 0x501, 5, 0);
  EXPECT_EQ(b, fetch_add.bytes) << fetch_add.what;
  ASSERT_EQ(rxe_hdr_parse(fetch_add.bytes.data(), (u32)fetch_add.bytes.size(), &info),
            RXE_PARSE_OK);
  EXPECT_EQ(info.paylen, 0u);
  EXPECT_EQ(info.psn, 0xfffffeu);
  EXPECT_EQ(info.flags & RXE_INFO_ACKREQ, RXE_INFO_ACKREQ);
  EXPECT_EQ(rxe_atmeth_swap_add(fetch_add.bytes.data() + 12), 5u);

  b.assign(nak.bytes.size(), 0);
  rxe_bth_set(b.data(), 0x11, false, 0, 0xffff, 0x33, false, 9);
  rxe_aeth_set(b.data() + RXE_BTH_LEN, RXE_AETH_NAK | RXE_NAK_REMOTE_ACCESS, 7);
  EXPECT_EQ(b, nak.bytes) << nak.what;
  ASSERT_EQ(rxe_hdr_parse(nak.bytes.data(), (u32)nak.bytes.size(), &info), RXE_PARSE_OK);
  EXPECT_EQ(rxe_aeth_syn(nak.bytes.data() + 12) & RXE_AETH_TYPE_MASK, RXE_AETH_NAK);
  EXPECT_EQ(rxe_aeth_msn(nak.bytes.data() + 12), 7u);

  b.assign(ud_imm.bytes.size(), 0);
  rxe_bth_set(b.data(), 0x65, true, 3, 0xffff, 0x44, false, 1);
  rxe_deth_set(b.data() + RXE_BTH_LEN, 0x80010000, 0x55);
  const u8 imm[4] = {0xde, 0xad, 0xbe, 0xef};
  rxe_immdt_set(b.data() + RXE_BTH_LEN + RXE_DETH_LEN, imm);
  b[24] = 0x7e;
  EXPECT_EQ(b, ud_imm.bytes) << ud_imm.what;
  ASSERT_EQ(rxe_hdr_parse(ud_imm.bytes.data(), (u32)ud_imm.bytes.size(), &info), RXE_PARSE_OK);
  EXPECT_EQ(info.paylen, 1u);
  EXPECT_EQ(info.pad, 3);
  EXPECT_EQ(info.flags & RXE_INFO_SE, RXE_INFO_SE);
  EXPECT_EQ(rxe_deth_qkey(ud_imm.bytes.data() + 12), 0x80010000u);
  EXPECT_EQ(rxe_deth_sqp(ud_imm.bytes.data() + 12), 0x55u);
}

TEST(RxePsn, DiffAndAddWrap) {
  EXPECT_EQ(rxe_psn_add(0xffffff, 1), 0u);
  EXPECT_EQ(rxe_psn_add(0xfffffe, 5), 3u);
  EXPECT_EQ(rxe_psn_diff(0, 0xffffff), 1);
  EXPECT_EQ(rxe_psn_diff(0xffffff, 0), -1);
  EXPECT_EQ(rxe_psn_diff(5, 5), 0);
  EXPECT_EQ(rxe_psn_diff(3, 0xfffffe), 5);
  EXPECT_EQ(rxe_psn_diff(0x7fffff, 0), 0x7fffff);
  EXPECT_EQ(rxe_psn_diff(0x800000, 0), -0x800000);
  for (u32 base : {0u, 1u, 0x7fffffu, 0x800000u, 0xfffff0u, 0xffffffu})
    for (s32 d : {0, 1, 17, 0x3fffff, 0x7fffff}) {
      u32 b = rxe_psn_add(base, (u32)d);
      EXPECT_EQ(rxe_psn_diff(b, base), d) << base << " + " << d;
      EXPECT_EQ(rxe_psn_diff(base, b), -d) << base << " + " << d;
    }
}

}  // namespace
