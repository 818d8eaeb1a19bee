// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/qp_state.c, checked against
// the independent transcription in
// drivers/infiniband/core/tests/qp_state_vectors.h.

#include <rdma/ib_qp_state.h>

#include "qp_state_vectors.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr unsigned kNumStates = IB_QPS_COUNT;
constexpr unsigned kNumTypes = IB_QPT_MAX;
constexpr u32 kState = IB_QP_STATE;
constexpr u32 kCur = IB_QP_CUR_STATE;

// States in which IB_QP_CUR_STATE may be given.
bool CurStateAllowed(unsigned cur) {
  return cur == IB_QPS_RTR || cur == IB_QPS_RTS || cur == IB_QPS_SQD ||
         cur == IB_QPS_SQE;
}

struct Expect {
  bool legal;
  u32 req;
  u32 opt;
};

Expect Expected(unsigned type, unsigned cur, unsigned next) {
  Expect e{(qp_state_legal_next[cur] & (1u << next)) != 0, 0, 0};
  for (size_t i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
    const qp_state_vector &v = qp_state_vectors[i];
    if (v.type == type && v.cur == cur && v.next == next) {
      e.req = v.req;
      e.opt = v.opt;
    }
  }
  return e;
}

ib_qp_transition_verdict Check(unsigned cur, unsigned next, unsigned type,
                               u32 mask, u32 *bad) {
  return ib_qp_transition_check(static_cast<ib_qp_state>(cur),
                                static_cast<ib_qp_state>(next),
                                static_cast<ib_qp_type>(type), mask, bad);
}

bool IsOk(unsigned cur, unsigned next, unsigned type, u32 mask) {
  return ib_modify_qp_is_ok(static_cast<ib_qp_state>(cur),
                            static_cast<ib_qp_state>(next),
                            static_cast<ib_qp_type>(type),
                            static_cast<ib_qp_attr_mask>(mask));
}

std::string VerdictName(ib_qp_transition_verdict v) {
  return ib_qp_transition_verdict_str(v);
}

// ---------------------------------------------------------------------------
// Self-checks of the vectors (catch typos in the transcription itself).

TEST(QpStateVectors, NoDuplicateRows) {
  std::set<std::tuple<unsigned, unsigned, unsigned>> seen;
  for (size_t i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
    const qp_state_vector &v = qp_state_vectors[i];
    EXPECT_TRUE(seen.insert({v.type, v.cur, v.next}).second)
        << "row " << i << " repeats (type " << unsigned{v.type} << ", "
        << unsigned{v.cur} << " -> " << unsigned{v.next} << ")";
  }
}

TEST(QpStateVectors, RowsNameOnlyLegalEdges) {
  for (size_t i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
    const qp_state_vector &v = qp_state_vectors[i];
    ASSERT_LT(v.type, kNumTypes) << "row " << i;
    ASSERT_LT(v.cur, kNumStates) << "row " << i;
    ASSERT_LT(v.next, kNumStates) << "row " << i;
    EXPECT_NE(qp_state_legal_next[v.cur] & (1u << v.next), 0u)
        << "row " << i << " names an illegal edge";
  }
}

TEST(QpStateVectors, RowsAreWellFormed) {
  for (size_t i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
    const qp_state_vector &v = qp_state_vectors[i];
    EXPECT_NE(v.req | v.opt, 0u) << "row " << i << " is empty";
    EXPECT_EQ(v.req & v.opt, 0u) << "row " << i << " req and opt overlap";
    EXPECT_EQ((v.req | v.opt) & kState, 0u) << "row " << i << " names STATE";
    EXPECT_EQ(v.req & kCur, 0u) << "row " << i << " requires CUR_STATE";
    if ((v.req | v.opt) & kCur) {
      EXPECT_TRUE(CurStateAllowed(v.cur)) << "row " << i;
    }
    EXPECT_FALSE(v.type == IB_QPT_RAW_IPV6 || v.type == IB_QPT_RAW_ETHERTYPE)
        << "row " << i << ": raw IPv6/ethertype QPs take no attributes";
  }
}

TEST(QpStateVectors, LegalNextShape) {
  for (unsigned s = 0; s < kNumStates; s++) {
    EXPECT_EQ(qp_state_legal_next[s] >> kNumStates, 0u) << "state " << s;
    EXPECT_NE(qp_state_legal_next[s] & (1u << IB_QPS_RESET), 0u)
        << "every state may go to RESET";
  }
  EXPECT_EQ(qp_state_legal_next[IB_QPS_RESET] & (1u << IB_QPS_ERR), 0u)
      << "RESET -> ERR is illegal";
}

// ---------------------------------------------------------------------------
// The full (type, cur, next) matrix, one CTest case per combination.

using Triple = std::tuple<unsigned, unsigned, unsigned>;  // type, cur, next

class QpStateMatrix : public ::testing::TestWithParam<Triple> {
 protected:
  unsigned type() const { return std::get<0>(GetParam()); }
  unsigned cur() const { return std::get<1>(GetParam()); }
  unsigned next() const { return std::get<2>(GetParam()); }

  // Expected verdict of a mask on this (legal) edge.
  ib_qp_transition_verdict Want(const Expect &e, u32 mask, u32 *bad) const {
    if ((mask & kCur) && !CurStateAllowed(cur())) {
      *bad = kCur;
      return IB_QP_TRANSITION_CUR_STATE;
    }
    if (e.req & ~mask) {
      *bad = e.req & ~mask;
      return IB_QP_TRANSITION_MISSING;
    }
    if (mask & ~(e.req | e.opt | kState)) {
      *bad = mask & ~(e.req | e.opt | kState);
      return IB_QP_TRANSITION_EXTRA;
    }
    *bad = 0;
    return IB_QP_TRANSITION_OK;
  }

  void ExpectVerdict(u32 mask, ib_qp_transition_verdict want, u32 want_bad) {
    u32 bad = 0xdeadbeef;
    ib_qp_transition_verdict got = Check(cur(), next(), type(), mask, &bad);
    EXPECT_EQ(VerdictName(got), VerdictName(want)) << "mask 0x" << std::hex
                                                   << mask;
    EXPECT_EQ(bad, want_bad) << "mask 0x" << std::hex << mask;
    EXPECT_EQ(Check(cur(), next(), type(), mask, nullptr), got)
        << "verdict depends on bad == NULL, mask 0x" << std::hex << mask;
    EXPECT_EQ(IsOk(cur(), next(), type(), mask),
              want == IB_QP_TRANSITION_OK)
        << "mask 0x" << std::hex << mask;
  }
};

TEST_P(QpStateMatrix, Transition) {
  const Expect e = Expected(type(), cur(), next());

  u32 req = 0xdeadbeef, opt = 0xdeadbeef;
  bool legal = ib_qp_transition_attrs(static_cast<ib_qp_state>(cur()),
                                      static_cast<ib_qp_state>(next()),
                                      static_cast<ib_qp_type>(type()), &req,
                                      &opt);
  // Fatal: once the attribute sets differ, the verdict checks below are noise.
  ASSERT_EQ(legal, e.legal) << "edge legality differs";
  ASSERT_EQ(req, e.req) << "required attributes differ";
  ASSERT_EQ(opt, e.opt) << "optional attributes differ";

  if (!e.legal) {
    // Without CUR_STATE (which takes precedence) any mask is ILLEGAL.
    ExpectVerdict(kState, IB_QP_TRANSITION_ILLEGAL, 0);
    ExpectVerdict(0, IB_QP_TRANSITION_ILLEGAL, 0);
    ExpectVerdict(IB_QP_ATTR_STANDARD_BITS & ~kCur, IB_QP_TRANSITION_ILLEGAL,
                  0);
    if (CurStateAllowed(cur()))
      ExpectVerdict(kState | kCur, IB_QP_TRANSITION_ILLEGAL, 0);
    else
      ExpectVerdict(kState | kCur, IB_QP_TRANSITION_CUR_STATE, kCur);
    return;
  }

  u32 bad;
  // Minimal and maximal masks, with and without IB_QP_STATE.
  ExpectVerdict(e.req | kState, IB_QP_TRANSITION_OK, 0);
  ExpectVerdict(e.req, IB_QP_TRANSITION_OK, 0);
  ExpectVerdict(e.req | e.opt | kState, IB_QP_TRANSITION_OK, 0);
  ExpectVerdict(e.req | e.opt, IB_QP_TRANSITION_OK, 0);

  // Each required bit removed.
  for (unsigned b = 0; b < 32; b++) {
    const u32 bit = 1u << b;
    if (!(e.req & bit))
      continue;
    ExpectVerdict((e.req | e.opt | kState) & ~bit, IB_QP_TRANSITION_MISSING,
                  bit);
  }
  // All required bits removed at once.
  if (e.req)
    ExpectVerdict(e.opt | kState, IB_QP_TRANSITION_MISSING, e.req);

  // Each bit outside req|opt|STATE added (CUR_STATE may win instead).
  for (unsigned b = 0; b < 32; b++) {
    const u32 bit = 1u << b;
    if ((e.req | e.opt | kState) & bit)
      continue;
    const u32 mask = e.req | kState | bit;
    ib_qp_transition_verdict w = Want(e, mask, &bad);
    if (bit == kCur && !CurStateAllowed(cur())) {
      ASSERT_EQ(w, IB_QP_TRANSITION_CUR_STATE);
    } else {
      ASSERT_EQ(w, IB_QP_TRANSITION_EXTRA);
    }
    ExpectVerdict(mask, w, bad);
  }

  // Each optional bit alone on top of the required ones.
  for (unsigned b = 0; b < 32; b++) {
    const u32 bit = 1u << b;
    if (e.opt & bit)
      ExpectVerdict(e.req | kState | bit, IB_QP_TRANSITION_OK, 0);
  }

  // MISSING wins over EXTRA.
  if (e.req) {
    const u32 lowest_req = e.req & (~e.req + 1);
    ExpectVerdict((e.req & ~lowest_req) | IB_QP_RESERVED1 | kState,
                  IB_QP_TRANSITION_MISSING, lowest_req);
  }
}

std::vector<Triple> AllTriples() {
  std::vector<Triple> v;
  for (unsigned t = 0; t < kNumTypes; t++)
    for (unsigned c = 0; c < kNumStates; c++)
      for (unsigned n = 0; n < kNumStates; n++)
        v.emplace_back(t, c, n);
  return v;
}

std::string TripleName(const ::testing::TestParamInfo<Triple> &info) {
  const unsigned t = std::get<0>(info.param);
  std::string type_name = ib_qp_type_str(static_cast<ib_qp_type>(t));
  if (type_name == "?")
    type_name = "T" + std::to_string(t);
  return type_name + "_" +
         ib_qp_state_str(static_cast<ib_qp_state>(std::get<1>(info.param))) +
         "_to_" +
         ib_qp_state_str(static_cast<ib_qp_state>(std::get<2>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(All, QpStateMatrix, ::testing::ValuesIn(AllTriples()),
                         TripleName);

// ---------------------------------------------------------------------------
// Precedence of the verdicts.

TEST(QpStatePrecedence, CurStateBeforeIllegal) {
  u32 bad = 0;
  // RESET -> ERR is illegal, but CUR_STATE from RESET is reported first.
  EXPECT_EQ(Check(IB_QPS_RESET, IB_QPS_ERR, IB_QPT_RC, kState | kCur, &bad),
            IB_QP_TRANSITION_CUR_STATE);
  EXPECT_EQ(bad, kCur);
  // From RTR it is allowed, so the illegal edge is reported.
  EXPECT_EQ(Check(IB_QPS_RTR, IB_QPS_SQD, IB_QPT_RC, kState | kCur, &bad),
            IB_QP_TRANSITION_ILLEGAL);
  EXPECT_EQ(bad, 0u);
}

TEST(QpStatePrecedence, CurStateBeforeMissing) {
  u32 bad = 0;
  // RESET -> INIT for RC requires PKEY|PORT|ACCESS; none given.
  EXPECT_EQ(Check(IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC, kState | kCur, &bad),
            IB_QP_TRANSITION_CUR_STATE);
  EXPECT_EQ(bad, kCur);
  EXPECT_EQ(Check(IB_QPS_INIT, IB_QPS_RTR, IB_QPT_UD, kCur, &bad),
            IB_QP_TRANSITION_CUR_STATE);
  EXPECT_EQ(Check(IB_QPS_ERR, IB_QPS_RESET, IB_QPT_UD, kCur, &bad),
            IB_QP_TRANSITION_CUR_STATE);
}

TEST(QpStatePrecedence, CurStateAllowedSources) {
  // CUR_STATE is optional on RTR/RTS/SQD/SQE -> RTS for UD.
  for (unsigned cur : {IB_QPS_RTR, IB_QPS_RTS, IB_QPS_SQD, IB_QPS_SQE}) {
    const u32 req = cur == IB_QPS_RTR ? u32{IB_QP_SQ_PSN} : 0u;
    EXPECT_TRUE(IsOk(cur, IB_QPS_RTS, IB_QPT_UD, kState | kCur | req))
        << ib_qp_state_str(static_cast<ib_qp_state>(cur));
  }
  // From SQD to SQD it is not optional: EXTRA, not CUR_STATE.
  u32 bad = 0;
  EXPECT_EQ(Check(IB_QPS_SQD, IB_QPS_SQD, IB_QPT_UD, kState | kCur, &bad),
            IB_QP_TRANSITION_EXTRA);
  EXPECT_EQ(bad, kCur);
}

TEST(QpStatePrecedence, BadArgBeforeCurState) {
  u32 bad = 1;
  EXPECT_EQ(Check(IB_QPS_RESET, IB_QPS_INIT, IB_QPT_MAX, kCur, &bad),
            IB_QP_TRANSITION_BAD_ARG);
  EXPECT_EQ(bad, 0u);
}

TEST(QpStatePrecedence, MissingBeforeExtra) {
  u32 bad = 0;
  EXPECT_EQ(Check(IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
                  kState | IB_QP_CAP | IB_QP_TIMEOUT, &bad),
            IB_QP_TRANSITION_MISSING);
  EXPECT_EQ(bad, u32{IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
                     IB_QP_MAX_QP_RD_ATOMIC});
}

// ---------------------------------------------------------------------------
// Out-of-range arguments.

void ExpectBadArg(unsigned cur, unsigned next, unsigned type) {
  for (u32 mask : {0u, kState, u32{IB_QP_ATTR_STANDARD_BITS}, kState | kCur}) {
    u32 bad = 0xdeadbeef;
    EXPECT_EQ(Check(cur, next, type, mask, &bad), IB_QP_TRANSITION_BAD_ARG)
        << "mask 0x" << std::hex << mask;
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(Check(cur, next, type, mask, nullptr), IB_QP_TRANSITION_BAD_ARG);
    EXPECT_FALSE(IsOk(cur, next, type, mask));
  }
  u32 req = 0xdeadbeef, opt = 0xdeadbeef;
  EXPECT_FALSE(ib_qp_transition_attrs(static_cast<ib_qp_state>(cur),
                                      static_cast<ib_qp_state>(next),
                                      static_cast<ib_qp_type>(type), &req,
                                      &opt));
  EXPECT_EQ(req, 0u);
  EXPECT_EQ(opt, 0u);
}

TEST(QpStateBadArg, CurSeven) { ExpectBadArg(7, IB_QPS_INIT, IB_QPT_RC); }

TEST(QpStateBadArg, NextSeven) { ExpectBadArg(IB_QPS_RESET, 7, IB_QPT_RC); }

TEST(QpStateBadArg, CurMinusOne) {
  ExpectBadArg(static_cast<unsigned>(-1), IB_QPS_RESET, IB_QPT_UD);
}

TEST(QpStateBadArg, NextMinusOne) {
  ExpectBadArg(IB_QPS_RESET, static_cast<unsigned>(-1), IB_QPT_RC);
}

TEST(QpStateBadArg, TypeMax) {
  ExpectBadArg(IB_QPS_RESET, IB_QPS_INIT, IB_QPT_MAX);
}

TEST(QpStateBadArg, TypeDriver) {
  ExpectBadArg(IB_QPS_RESET, IB_QPS_INIT, IB_QPT_DRIVER);
  ExpectBadArg(IB_QPS_RTS, IB_QPS_RTS, IB_QPT_DRIVER);
}

TEST(QpStateBadArg, TypeMinusOne) {
  ExpectBadArg(IB_QPS_RESET, IB_QPS_INIT, static_cast<unsigned>(-1));
}

TEST(QpStateBadArg, LargeValues) {
  ExpectBadArg(0x80000000u, IB_QPS_INIT, IB_QPT_RC);
  ExpectBadArg(IB_QPS_RESET, 64, IB_QPT_RC);
  ExpectBadArg(IB_QPS_RESET, IB_QPS_INIT, 32);
}

// ---------------------------------------------------------------------------
// A realistic RC bring-up, as a reader would write it.

TEST(QpStateScenario, RcBringUpAndTearDown) {
  EXPECT_TRUE(IsOk(IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC,
                   kState | IB_QP_PKEY_INDEX | IB_QP_PORT |
                       IB_QP_ACCESS_FLAGS));
  EXPECT_TRUE(IsOk(IB_QPS_INIT, IB_QPS_RTR, IB_QPT_RC,
                   kState | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
                       IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
                       IB_QP_MIN_RNR_TIMER));
  EXPECT_TRUE(IsOk(IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
                   kState | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
                       IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
                       IB_QP_MAX_QP_RD_ATOMIC));
  EXPECT_TRUE(IsOk(IB_QPS_RTS, IB_QPS_SQD, IB_QPT_RC,
                   kState | IB_QP_EN_SQD_ASYNC_NOTIFY));
  EXPECT_TRUE(IsOk(IB_QPS_SQD, IB_QPS_SQD, IB_QPT_RC, IB_QP_AV | IB_QP_PORT));
  EXPECT_TRUE(IsOk(IB_QPS_SQD, IB_QPS_RTS, IB_QPT_RC, kState));
  EXPECT_TRUE(IsOk(IB_QPS_RTS, IB_QPS_ERR, IB_QPT_RC, kState));
  EXPECT_TRUE(IsOk(IB_QPS_ERR, IB_QPS_RESET, IB_QPT_RC, kState));
  // The mistakes people make.
  EXPECT_FALSE(IsOk(IB_QPS_RESET, IB_QPS_ERR, IB_QPT_RC, kState));
  EXPECT_FALSE(IsOk(IB_QPS_RESET, IB_QPS_RTR, IB_QPT_RC, kState));
  EXPECT_FALSE(IsOk(IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
                    kState | IB_QP_SQ_PSN));
  EXPECT_FALSE(IsOk(IB_QPS_RTS, IB_QPS_RTS, IB_QPT_RC, kState | IB_QP_AV));
}

// ---------------------------------------------------------------------------
// Names.

TEST(QpStateStr, States) {
  const char *const want[] = {"RESET", "INIT", "RTR", "RTS",
                              "SQD",   "SQE",  "ERR"};
  static_assert(sizeof(want) / sizeof(want[0]) == kNumStates, "");
  for (unsigned s = 0; s < kNumStates; s++)
    EXPECT_STREQ(ib_qp_state_str(static_cast<ib_qp_state>(s)), want[s]);
  EXPECT_STREQ(ib_qp_state_str(static_cast<ib_qp_state>(7)), "?");
  EXPECT_STREQ(ib_qp_state_str(static_cast<ib_qp_state>(-1)), "?");
}

TEST(QpStateStr, Types) {
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_SMI), "SMI");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_GSI), "GSI");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_RC), "RC");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_UC), "UC");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_UD), "UD");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_RAW_IPV6), "RAW_IPV6");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_RAW_ETHERTYPE), "RAW_ETHERTYPE");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_RAW_PACKET), "RAW_PACKET");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_XRC_INI), "XRC_INI");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_XRC_TGT), "XRC_TGT");
  // 7 is the unnamed hole between RAW_ETHERTYPE and RAW_PACKET.
  EXPECT_STREQ(ib_qp_type_str(static_cast<ib_qp_type>(7)), "?");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_MAX), "?");
  EXPECT_STREQ(ib_qp_type_str(IB_QPT_DRIVER), "?");
  EXPECT_STREQ(ib_qp_type_str(static_cast<ib_qp_type>(-1)), "?");
}

TEST(QpStateStr, Verdicts) {
  std::set<std::string> names;
  for (unsigned v = IB_QP_TRANSITION_OK; v <= IB_QP_TRANSITION_EXTRA; v++) {
    const char *s =
        ib_qp_transition_verdict_str(static_cast<ib_qp_transition_verdict>(v));
    ASSERT_NE(s, nullptr);
    EXPECT_STRNE(s, "?") << "verdict " << v;
    EXPECT_STRNE(s, "") << "verdict " << v;
    EXPECT_TRUE(names.insert(s).second) << "verdict " << v << " name repeats";
  }
  EXPECT_STREQ(ib_qp_transition_verdict_str(IB_QP_TRANSITION_OK), "ok");
  EXPECT_STREQ(ib_qp_transition_verdict_str(
                   static_cast<ib_qp_transition_verdict>(
                       IB_QP_TRANSITION_EXTRA + 1)),
               "?");
  EXPECT_STREQ(ib_qp_transition_verdict_str(
                   static_cast<ib_qp_transition_verdict>(-1)),
               "?");
}

}  // namespace
