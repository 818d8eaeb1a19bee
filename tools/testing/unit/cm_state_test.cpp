// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/cm_state.c: every (state,
// input) pair against an oracle written state by state from the reference
// note (rdma-cm.md, sections 2.5-2.7), the note's edges by name, the
// machine's invariants, and the timer arithmetic.

#include <rdma/ib_cm_state.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

// The oracle knows this many states and inputs; a state or input added to
// the header without an oracle entry fails its matrix cases.
constexpr unsigned kOracleStates = 16;
constexpr unsigned kOracleInputs = 33;

constexpr unsigned kNoEv = IB_CM_NO_EVENT;
constexpr unsigned kCancel = IB_CM_DO_CANCEL;
constexpr unsigned kArm = IB_CM_DO_ARM;
constexpr unsigned kExtend = IB_CM_DO_EXTEND;
constexpr unsigned kTw = IB_CM_DO_TIMEWAIT;
constexpr unsigned kNewId = IB_CM_DO_NEW_ID;
constexpr unsigned kUnlisten = IB_CM_DO_UNLISTEN;
constexpr unsigned kAgain = IB_CM_DO_AGAIN;

struct Want {
  unsigned verdict;
  unsigned next;
  unsigned tx;
  unsigned report;
  unsigned work;
  unsigned why;
  bool known;
};

Want Go(unsigned next, unsigned tx = IB_CM_TX_NONE, unsigned report = kNoEv,
        unsigned work = 0) {
  return {IB_CM_SM_GO, next, tx, report, work, IB_CM_WHY_NONE, true};
}
Want Answer(unsigned cur, unsigned tx, unsigned why) {
  return {IB_CM_SM_ANSWER, cur, tx, kNoEv, 0, why, true};
}
Want Drop(unsigned cur, unsigned why) {
  return {IB_CM_SM_DROP, cur, IB_CM_TX_NONE, kNoEv, 0, why, true};
}
Want Refuse(unsigned cur, unsigned why) {
  return {IB_CM_SM_REFUSE, cur, IB_CM_TX_NONE, kNoEv, 0, why, true};
}
Want Unknown() { return {0, 0, 0, 0, 0, 0, false}; }

bool IsDestroy(unsigned in) {
  return in == IB_CM_IN_DESTROY || in == IB_CM_IN_DESTROY_NO_REJ;
}
bool IsAnyRej(unsigned in) {
  return in == IB_CM_IN_RECV_REJ || in == IB_CM_IN_RECV_REJ_STALE;
}

// What a pair does when the state's own list below does not name it.
Want Otherwise(unsigned s, unsigned in) {
  if (in >= kOracleInputs) return Unknown();
  if (in <= IB_CM_IN_DESTROY_NO_REJ) return Refuse(s, IB_CM_WHY_WRONG_STATE);
  switch (in) {
    case IB_CM_IN_TIMEOUT:
    case IB_CM_IN_TIMEWAIT_DONE:
      return Drop(s, IB_CM_WHY_STALE_TIMER);
    case IB_CM_IN_RECV_MRA_OTHER:
    case IB_CM_IN_RECV_LAP:
    case IB_CM_IN_RECV_APR:
      return Drop(s, IB_CM_WHY_UNSUPPORTED);
    case IB_CM_IN_RECV_RTU:  // any RTU but the awaited one is a repeat
    case IB_CM_IN_DUP_REQ:
    case IB_CM_IN_DUP_REP:
      return Drop(s, IB_CM_WHY_DUPLICATE);
    default:
      return Drop(s, IB_CM_WHY_UNEXPECTED);
  }
}

// Active side, REQ out (REQ_SENT, MRA_REQ_RCVD).
Want ReqOut(unsigned s, unsigned in) {
  if (in == IB_CM_IN_SEND_REJ) return Go(IB_CM_IDLE, IB_CM_TX_REJ, kNoEv, kCancel);
  if (IsDestroy(in)) return Go(IB_CM_IDLE, IB_CM_TX_REJ_TIMEOUT, kNoEv, kCancel);
  if (in == IB_CM_IN_RECV_MRA_REQ)
    return s == IB_CM_REQ_SENT
               ? Go(IB_CM_MRA_REQ_RCVD, IB_CM_TX_NONE, IB_CM_MRA_RECEIVED, kExtend)
               : Drop(s, IB_CM_WHY_DUPLICATE);
  if (in == IB_CM_IN_RECV_REJ)
    return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kCancel);
  if (in == IB_CM_IN_RECV_REJ_STALE)
    return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kCancel | kTw);
  if (in == IB_CM_IN_RECV_REP)
    return Go(IB_CM_REP_RCVD, IB_CM_TX_NONE, IB_CM_REP_RECEIVED, kCancel);
  if (in == IB_CM_IN_STALE_REP)
    return Answer(s, IB_CM_TX_REJ_STALE, IB_CM_WHY_STALE_CONN);
  if (in == IB_CM_IN_TIMEOUT) return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_REQ_ERROR);
  return Otherwise(s, in);
}

// Passive side, REQ to answer (REQ_RCVD, MRA_REQ_SENT).
Want ReqIn(unsigned s, unsigned in) {
  if (in == IB_CM_IN_SEND_MRA && s == IB_CM_REQ_RCVD)
    return Go(IB_CM_MRA_REQ_SENT, IB_CM_TX_MRA);
  if (in == IB_CM_IN_SEND_REJ) return Go(IB_CM_IDLE, IB_CM_TX_REJ);
  if (in == IB_CM_IN_SEND_REP) return Go(IB_CM_REP_SENT, IB_CM_TX_REP, kNoEv, kArm);
  if (in == IB_CM_IN_DESTROY_NO_REJ && s == IB_CM_REQ_RCVD) return Go(IB_CM_IDLE);
  if (IsDestroy(in)) return Go(IB_CM_IDLE, IB_CM_TX_REJ_CONSUMER);
  if (in == IB_CM_IN_RECV_REJ) return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED);
  if (in == IB_CM_IN_RECV_REJ_STALE)
    return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kTw);
  if (in == IB_CM_IN_DUP_REQ && s == IB_CM_MRA_REQ_SENT)
    return Answer(s, IB_CM_TX_MRA, IB_CM_WHY_DUPLICATE);
  return Otherwise(s, in);
}

// Passive side, REP out (REP_SENT, MRA_REP_RCVD).
Want RepOut(unsigned s, unsigned in) {
  if (in == IB_CM_IN_SEND_REJ)
    return Go(IB_CM_TIMEWAIT, IB_CM_TX_REJ, kNoEv, kCancel | kTw);
  if (in == IB_CM_IN_ESTABLISH)
    return Go(IB_CM_ESTABLISHED, IB_CM_TX_NONE, IB_CM_USER_ESTABLISHED, kCancel);
  if (IsDestroy(in))
    return Go(IB_CM_TIMEWAIT, IB_CM_TX_REJ_CONSUMER, kNoEv, kCancel | kTw | kAgain);
  if (in == IB_CM_IN_RECV_MRA_REP)
    return s == IB_CM_REP_SENT
               ? Go(IB_CM_MRA_REP_RCVD, IB_CM_TX_NONE, IB_CM_MRA_RECEIVED, kExtend)
               : Drop(s, IB_CM_WHY_DUPLICATE);
  if (in == IB_CM_IN_RECV_REJ)
    return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kCancel);
  if (in == IB_CM_IN_RECV_REJ_STALE)
    return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kCancel | kTw);
  if (in == IB_CM_IN_RECV_RTU)
    return Go(IB_CM_ESTABLISHED, IB_CM_TX_NONE, IB_CM_RTU_RECEIVED, kCancel);
  if (in == IB_CM_IN_RECV_DREQ)
    return Go(IB_CM_DREQ_RCVD, IB_CM_TX_NONE, IB_CM_DREQ_RECEIVED, kCancel);
  if (in == IB_CM_IN_DUP_REQ) return Answer(s, IB_CM_TX_REP, IB_CM_WHY_DUPLICATE);
  if (in == IB_CM_IN_TIMEOUT) return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_REP_ERROR);
  return Otherwise(s, in);
}

// Active side, REP to answer (REP_RCVD, MRA_REP_SENT).
Want RepIn(unsigned s, unsigned in) {
  if (in == IB_CM_IN_SEND_MRA && s == IB_CM_REP_RCVD)
    return Go(IB_CM_MRA_REP_SENT, IB_CM_TX_MRA);
  if (in == IB_CM_IN_SEND_REJ) return Go(IB_CM_IDLE, IB_CM_TX_REJ);
  if (in == IB_CM_IN_SEND_RTU) return Go(IB_CM_ESTABLISHED, IB_CM_TX_RTU);
  if (IsDestroy(in)) return Go(IB_CM_IDLE, IB_CM_TX_REJ_CONSUMER);
  if (IsAnyRej(in)) return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kTw);
  if (s == IB_CM_REP_RCVD && in == IB_CM_IN_RECV_REP)
    return Drop(s, IB_CM_WHY_DUPLICATE);
  if (s == IB_CM_MRA_REP_SENT &&
      (in == IB_CM_IN_RECV_REP || in == IB_CM_IN_DUP_REP))
    return Answer(s, IB_CM_TX_MRA, IB_CM_WHY_DUPLICATE);
  return Otherwise(s, in);
}

Want Expected(unsigned s, unsigned in) {
  if (in >= kOracleInputs) return Unknown();
  switch (s) {
    case IB_CM_IDLE:
      if (in == IB_CM_IN_LISTEN) return Go(IB_CM_LISTEN);
      if (in == IB_CM_IN_SEND_REQ) return Go(IB_CM_REQ_SENT, IB_CM_TX_REQ, kNoEv, kArm);
      if (in == IB_CM_IN_SEND_SIDR_REQ)
        return Go(IB_CM_SIDR_REQ_SENT, IB_CM_TX_SIDR_REQ, kNoEv, kArm);
      if (IsDestroy(in)) return Go(IB_CM_IDLE);
      if (in == IB_CM_IN_RECV_REQ)
        return Go(IB_CM_REQ_RCVD, IB_CM_TX_NONE, IB_CM_REQ_RECEIVED);
      if (in == IB_CM_IN_RECV_SIDR_REQ)
        return Go(IB_CM_SIDR_REQ_RCVD, IB_CM_TX_NONE, IB_CM_SIDR_REQ_RECEIVED);
      if (in == IB_CM_IN_STALE_REQ)
        return Answer(s, IB_CM_TX_REJ_STALE, IB_CM_WHY_STALE_CONN);
      return Otherwise(s, in);
    case IB_CM_LISTEN:
      if (in == IB_CM_IN_RECV_REQ || in == IB_CM_IN_RECV_SIDR_REQ)
        return Go(IB_CM_LISTEN, IB_CM_TX_NONE, kNoEv, kNewId);
      if (IsDestroy(in)) return Go(IB_CM_IDLE, IB_CM_TX_NONE, kNoEv, kUnlisten);
      return Otherwise(s, in);
    case IB_CM_REQ_SENT:
    case IB_CM_MRA_REQ_RCVD:
      return ReqOut(s, in);
    case IB_CM_REQ_RCVD:
    case IB_CM_MRA_REQ_SENT:
      return ReqIn(s, in);
    case IB_CM_REP_SENT:
    case IB_CM_MRA_REP_RCVD:
      return RepOut(s, in);
    case IB_CM_REP_RCVD:
    case IB_CM_MRA_REP_SENT:
      return RepIn(s, in);
    case IB_CM_ESTABLISHED:
      if (in == IB_CM_IN_SEND_DREQ) return Go(IB_CM_DREQ_SENT, IB_CM_TX_DREQ, kNoEv, kArm);
      if (in == IB_CM_IN_ESTABLISH) return Refuse(s, IB_CM_WHY_CONNECTED);
      if (IsDestroy(in))
        return Go(IB_CM_DREQ_SENT, IB_CM_TX_DREQ, kNoEv, kArm | kAgain);
      if (IsAnyRej(in)) return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kTw);
      if (in == IB_CM_IN_RECV_REP || in == IB_CM_IN_DUP_REP)
        return Answer(s, IB_CM_TX_RTU, IB_CM_WHY_DUPLICATE);
      if (in == IB_CM_IN_RECV_DREQ)
        return Go(IB_CM_DREQ_RCVD, IB_CM_TX_NONE, IB_CM_DREQ_RECEIVED);
      return Otherwise(s, in);
    case IB_CM_DREQ_SENT:
      if (IsDestroy(in)) return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, kNoEv, kCancel | kTw | kAgain);
      if (IsAnyRej(in))
        return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_REJ_RECEIVED, kCancel | kTw);
      if (in == IB_CM_IN_RECV_DREQ)
        return Go(IB_CM_DREQ_RCVD, IB_CM_TX_NONE, IB_CM_DREQ_RECEIVED, kCancel);
      if (in == IB_CM_IN_RECV_DREP)
        return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_DREP_RECEIVED, kCancel | kTw);
      if (in == IB_CM_IN_TIMEOUT)
        return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_DREQ_ERROR, kTw);
      return Otherwise(s, in);
    case IB_CM_DREQ_RCVD:
      if (in == IB_CM_IN_SEND_DREP) return Go(IB_CM_TIMEWAIT, IB_CM_TX_DREP, kNoEv, kTw);
      if (IsDestroy(in)) return Go(IB_CM_TIMEWAIT, IB_CM_TX_DREP, kNoEv, kTw | kAgain);
      if (in == IB_CM_IN_RECV_DREQ) return Drop(s, IB_CM_WHY_DUPLICATE);
      if (in == IB_CM_IN_RECV_DREP)
        return Go(IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_DREP_RECEIVED, kTw);
      return Otherwise(s, in);
    case IB_CM_TIMEWAIT:
      if (IsDestroy(in)) return Go(IB_CM_IDLE);
      if (in == IB_CM_IN_RECV_DREQ) return Answer(s, IB_CM_TX_DREP, IB_CM_WHY_DUPLICATE);
      if (in == IB_CM_IN_RECV_DREP) return Drop(s, IB_CM_WHY_DUPLICATE);
      if (in == IB_CM_IN_DUP_REQ) return Answer(s, IB_CM_TX_REJ_STALE, IB_CM_WHY_DUPLICATE);
      if (in == IB_CM_IN_TIMEWAIT_DONE)
        return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_TIMEWAIT_EXIT);
      return Otherwise(s, in);
    case IB_CM_SIDR_REQ_SENT:
      if (IsDestroy(in)) return Go(IB_CM_IDLE, IB_CM_TX_NONE, kNoEv, kCancel);
      if (in == IB_CM_IN_RECV_SIDR_REP)
        return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_SIDR_REP_RECEIVED, kCancel);
      if (in == IB_CM_IN_TIMEOUT)
        return Go(IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_SIDR_REQ_ERROR);
      return Otherwise(s, in);
    case IB_CM_SIDR_REQ_RCVD:
      if (in == IB_CM_IN_SEND_SIDR_REP) return Go(IB_CM_IDLE, IB_CM_TX_SIDR_REP);
      if (IsDestroy(in)) return Go(IB_CM_IDLE, IB_CM_TX_SIDR_REP_REJECT);
      return Otherwise(s, in);
    default:
      return Unknown();
  }
}

ib_cm_sm_action Step(unsigned s, unsigned in) {
  ib_cm_sm_action act;
  std::memset(&act, 0xa5, sizeof(act));
  const ib_cm_sm_verdict v = ib_cm_sm_step(static_cast<ib_cm_state>(s),
                                           static_cast<ib_cm_sm_input>(in), &act);
  EXPECT_EQ(static_cast<unsigned>(v), act.verdict);
  return act;
}

std::string S(unsigned s) { return ib_cm_state_str(static_cast<ib_cm_state>(s)); }
std::string I(unsigned in) { return ib_cm_sm_input_str(static_cast<ib_cm_sm_input>(in)); }
std::string V(unsigned v) { return ib_cm_sm_verdict_str(static_cast<ib_cm_sm_verdict>(v)); }
std::string T(unsigned t) { return ib_cm_sm_tx_str(static_cast<ib_cm_sm_tx>(t)); }
std::string W(unsigned w) { return ib_cm_sm_why_str(static_cast<ib_cm_sm_why>(w)); }
std::string E(unsigned e) {
  return e == kNoEv ? "-" : ib_cm_event_str(static_cast<ib_cm_event_type>(e));
}

// ---------------------------------------------------------------------------
// The full cross product, one CTest case per (state, input).

using Pair = std::tuple<unsigned, unsigned>;

class CmStateMatrix : public ::testing::TestWithParam<Pair> {};

TEST_P(CmStateMatrix, MatchesOracle) {
  const unsigned s = std::get<0>(GetParam());
  const unsigned in = std::get<1>(GetParam());
  const Want w = Expected(s, in);
  ASSERT_TRUE(w.known) << "the oracle has no entry for state " << s
                       << ", input " << in << ": a state or input was added";
  const ib_cm_sm_action a = Step(s, in);
  EXPECT_EQ(V(a.verdict), V(w.verdict));
  EXPECT_EQ(S(a.next), S(w.next));
  EXPECT_EQ(T(a.tx), T(w.tx));
  EXPECT_EQ(E(a.report), E(w.report));
  EXPECT_EQ(a.work, w.work) << std::hex << "work 0x" << unsigned{a.work};
  EXPECT_EQ(W(a.why), W(w.why));
  const int want_err =
      w.verdict != IB_CM_SM_REFUSE ? 0 : w.why == IB_CM_WHY_CONNECTED ? -EISCONN : -EINVAL;
  EXPECT_EQ(a.err, want_err);
}

std::string PairName(const ::testing::TestParamInfo<Pair> &info) {
  return S(std::get<0>(info.param)) + "__" + I(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(All, CmStateMatrix,
                         ::testing::Combine(::testing::Range(0u, unsigned{IB_CM_STATE_COUNT}),
                                            ::testing::Range(0u, unsigned{IB_CM_IN_COUNT})),
                         PairName);

TEST(CmStateOracle, CoversTheHeader) {
  EXPECT_EQ(unsigned{IB_CM_STATE_COUNT}, kOracleStates);
  EXPECT_EQ(unsigned{IB_CM_IN_COUNT}, kOracleInputs);
}

// ---------------------------------------------------------------------------
// The note's edges by name.

struct Hop {
  unsigned in;
  unsigned next;
  unsigned tx;
  unsigned report;
};

void Walk(unsigned start, const std::vector<Hop> &hops) {
  unsigned s = start;
  for (const Hop &h : hops) {
    SCOPED_TRACE(S(s) + " + " + I(h.in));
    const ib_cm_sm_action a = Step(s, h.in);
    ASSERT_EQ(V(a.verdict), V(IB_CM_SM_GO));
    EXPECT_EQ(S(a.next), S(h.next));
    EXPECT_EQ(T(a.tx), T(h.tx));
    EXPECT_EQ(E(a.report), E(h.report));
    s = a.next;
  }
}

TEST(CmStateEdges, ActiveConnectAndDisconnect) {
  Walk(IB_CM_IDLE, {
      {IB_CM_IN_SEND_REQ, IB_CM_REQ_SENT, IB_CM_TX_REQ, kNoEv},
      {IB_CM_IN_RECV_MRA_REQ, IB_CM_MRA_REQ_RCVD, IB_CM_TX_NONE, IB_CM_MRA_RECEIVED},
      {IB_CM_IN_RECV_REP, IB_CM_REP_RCVD, IB_CM_TX_NONE, IB_CM_REP_RECEIVED},
      {IB_CM_IN_SEND_MRA, IB_CM_MRA_REP_SENT, IB_CM_TX_MRA, kNoEv},
      {IB_CM_IN_SEND_RTU, IB_CM_ESTABLISHED, IB_CM_TX_RTU, kNoEv},
      {IB_CM_IN_SEND_DREQ, IB_CM_DREQ_SENT, IB_CM_TX_DREQ, kNoEv},
      {IB_CM_IN_RECV_DREP, IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_DREP_RECEIVED},
      {IB_CM_IN_TIMEWAIT_DONE, IB_CM_IDLE, IB_CM_TX_NONE, IB_CM_TIMEWAIT_EXIT},
  });
}

TEST(CmStateEdges, PassiveConnectAndDisconnect) {
  EXPECT_EQ(Step(IB_CM_LISTEN, IB_CM_IN_RECV_REQ).work, kNewId);
  Walk(IB_CM_IDLE, {
      {IB_CM_IN_RECV_REQ, IB_CM_REQ_RCVD, IB_CM_TX_NONE, IB_CM_REQ_RECEIVED},
      {IB_CM_IN_SEND_MRA, IB_CM_MRA_REQ_SENT, IB_CM_TX_MRA, kNoEv},
      {IB_CM_IN_SEND_REP, IB_CM_REP_SENT, IB_CM_TX_REP, kNoEv},
      {IB_CM_IN_RECV_MRA_REP, IB_CM_MRA_REP_RCVD, IB_CM_TX_NONE, IB_CM_MRA_RECEIVED},
      {IB_CM_IN_RECV_RTU, IB_CM_ESTABLISHED, IB_CM_TX_NONE, IB_CM_RTU_RECEIVED},
      {IB_CM_IN_RECV_DREQ, IB_CM_DREQ_RCVD, IB_CM_TX_NONE, IB_CM_DREQ_RECEIVED},
      {IB_CM_IN_SEND_DREP, IB_CM_TIMEWAIT, IB_CM_TX_DREP, kNoEv},
  });
}

TEST(CmStateEdges, CommEstInsteadOfRtu) {
  Walk(IB_CM_REP_SENT,
       {{IB_CM_IN_ESTABLISH, IB_CM_ESTABLISHED, IB_CM_TX_NONE, IB_CM_USER_ESTABLISHED}});
  EXPECT_EQ(Step(IB_CM_ESTABLISHED, IB_CM_IN_ESTABLISH).err, -EISCONN);
}

TEST(CmStateEdges, Sidr) {
  Walk(IB_CM_IDLE, {{IB_CM_IN_SEND_SIDR_REQ, IB_CM_SIDR_REQ_SENT, IB_CM_TX_SIDR_REQ, kNoEv},
                    {IB_CM_IN_RECV_SIDR_REP, IB_CM_IDLE, IB_CM_TX_NONE,
                     IB_CM_SIDR_REP_RECEIVED}});
  EXPECT_EQ(Step(IB_CM_LISTEN, IB_CM_IN_RECV_SIDR_REQ).work, kNewId);
  Walk(IB_CM_IDLE, {{IB_CM_IN_RECV_SIDR_REQ, IB_CM_SIDR_REQ_RCVD, IB_CM_TX_NONE,
                     IB_CM_SIDR_REQ_RECEIVED},
                    {IB_CM_IN_SEND_SIDR_REP, IB_CM_IDLE, IB_CM_TX_SIDR_REP, kNoEv}});
}

TEST(CmStateEdges, SimultaneousDisconnect) {
  Walk(IB_CM_DREQ_SENT,
       {{IB_CM_IN_RECV_DREQ, IB_CM_DREQ_RCVD, IB_CM_TX_NONE, IB_CM_DREQ_RECEIVED},
        {IB_CM_IN_RECV_DREP, IB_CM_TIMEWAIT, IB_CM_TX_NONE, IB_CM_DREP_RECEIVED}});
  EXPECT_EQ(Step(IB_CM_DREQ_SENT, IB_CM_IN_RECV_DREQ).work, kCancel);
}

// Section 2.7 and our rule for REP_SENT: what a repeated REQ gets.
TEST(CmStateEdges, DuplicateReq) {
  struct {
    unsigned state, verdict, tx;
  } const rows[] = {
      {IB_CM_REQ_RCVD, IB_CM_SM_DROP, IB_CM_TX_NONE},
      {IB_CM_MRA_REQ_SENT, IB_CM_SM_ANSWER, IB_CM_TX_MRA},
      {IB_CM_REP_SENT, IB_CM_SM_ANSWER, IB_CM_TX_REP},
      {IB_CM_MRA_REP_RCVD, IB_CM_SM_ANSWER, IB_CM_TX_REP},
      {IB_CM_ESTABLISHED, IB_CM_SM_DROP, IB_CM_TX_NONE},
      {IB_CM_TIMEWAIT, IB_CM_SM_ANSWER, IB_CM_TX_REJ_STALE},
  };
  for (const auto &r : rows) {
    const ib_cm_sm_action a = Step(r.state, IB_CM_IN_DUP_REQ);
    EXPECT_EQ(V(a.verdict), V(r.verdict)) << S(r.state);
    EXPECT_EQ(T(a.tx), T(r.tx)) << S(r.state);
    EXPECT_EQ(S(a.next), S(r.state));
  }
  EXPECT_EQ(ib_cm_tx_rej_reason(IB_CM_TX_REJ_STALE), 10);
}

TEST(CmStateEdges, DuplicateRepAndDreq) {
  EXPECT_EQ(T(Step(IB_CM_ESTABLISHED, IB_CM_IN_DUP_REP).tx), T(IB_CM_TX_RTU));
  EXPECT_EQ(T(Step(IB_CM_ESTABLISHED, IB_CM_IN_RECV_REP).tx), T(IB_CM_TX_RTU));
  EXPECT_EQ(T(Step(IB_CM_MRA_REP_SENT, IB_CM_IN_DUP_REP).tx), T(IB_CM_TX_MRA));
  EXPECT_EQ(V(Step(IB_CM_REQ_SENT, IB_CM_IN_DUP_REP).verdict), V(IB_CM_SM_DROP));
  EXPECT_EQ(T(Step(IB_CM_TIMEWAIT, IB_CM_IN_RECV_DREQ).tx), T(IB_CM_TX_DREP));
  EXPECT_EQ(V(Step(IB_CM_DREQ_RCVD, IB_CM_IN_RECV_DREQ).verdict), V(IB_CM_SM_DROP));
}

TEST(CmStateEdges, Stale) {
  EXPECT_EQ(T(Step(IB_CM_IDLE, IB_CM_IN_STALE_REQ).tx), T(IB_CM_TX_REJ_STALE));
  EXPECT_EQ(T(Step(IB_CM_REQ_SENT, IB_CM_IN_STALE_REP).tx), T(IB_CM_TX_REJ_STALE));
  // the REQ keeps going: it times out unless a good REP comes
  EXPECT_EQ(S(Step(IB_CM_REQ_SENT, IB_CM_IN_STALE_REP).next), S(IB_CM_REQ_SENT));
  // the owner of the QPN is sent a DREQ through SEND_DREQ
  EXPECT_EQ(T(Step(IB_CM_ESTABLISHED, IB_CM_IN_SEND_DREQ).tx), T(IB_CM_TX_DREQ));
}

// Section 2.5, "REJ received".
TEST(CmStateEdges, RejReceived) {
  for (unsigned s : {IB_CM_REQ_SENT, IB_CM_MRA_REQ_RCVD, IB_CM_REP_SENT, IB_CM_MRA_REP_RCVD}) {
    EXPECT_EQ(S(Step(s, IB_CM_IN_RECV_REJ).next), "IDLE") << S(s);
    EXPECT_EQ(S(Step(s, IB_CM_IN_RECV_REJ_STALE).next), "TIMEWAIT") << S(s);
    EXPECT_TRUE(Step(s, IB_CM_IN_RECV_REJ).work & kCancel) << S(s);
  }
  for (unsigned s : {IB_CM_REQ_RCVD, IB_CM_MRA_REQ_SENT}) {
    EXPECT_EQ(S(Step(s, IB_CM_IN_RECV_REJ).next), "IDLE") << S(s);
    EXPECT_EQ(S(Step(s, IB_CM_IN_RECV_REJ_STALE).next), "TIMEWAIT") << S(s);
  }
  for (unsigned s : {IB_CM_DREQ_SENT, IB_CM_REP_RCVD, IB_CM_MRA_REP_SENT, IB_CM_ESTABLISHED})
    EXPECT_EQ(S(Step(s, IB_CM_IN_RECV_REJ).next), "TIMEWAIT") << S(s);
  for (unsigned s : {IB_CM_IDLE, IB_CM_LISTEN, IB_CM_DREQ_RCVD, IB_CM_TIMEWAIT,
                     IB_CM_SIDR_REQ_SENT, IB_CM_SIDR_REQ_RCVD})
    EXPECT_EQ(V(Step(s, IB_CM_IN_RECV_REJ).verdict), V(IB_CM_SM_DROP)) << S(s);
}

// Section 2.5, "send errors".
TEST(CmStateEdges, RetriesExhausted) {
  EXPECT_EQ(E(Step(IB_CM_REQ_SENT, IB_CM_IN_TIMEOUT).report), "REQ_ERROR");
  EXPECT_EQ(E(Step(IB_CM_MRA_REQ_RCVD, IB_CM_IN_TIMEOUT).report), "REQ_ERROR");
  EXPECT_EQ(E(Step(IB_CM_REP_SENT, IB_CM_IN_TIMEOUT).report), "REP_ERROR");
  EXPECT_EQ(E(Step(IB_CM_MRA_REP_RCVD, IB_CM_IN_TIMEOUT).report), "REP_ERROR");
  EXPECT_EQ(S(Step(IB_CM_DREQ_SENT, IB_CM_IN_TIMEOUT).next), "TIMEWAIT");
  EXPECT_EQ(E(Step(IB_CM_DREQ_SENT, IB_CM_IN_TIMEOUT).report), "DREQ_ERROR");
  EXPECT_EQ(E(Step(IB_CM_SIDR_REQ_SENT, IB_CM_IN_TIMEOUT).report), "SIDR_REQ_ERROR");
  EXPECT_EQ(V(Step(IB_CM_ESTABLISHED, IB_CM_IN_TIMEOUT).verdict), V(IB_CM_SM_DROP));
}

// Section 2.5, "destroying an ID in each state".
TEST(CmStateEdges, DestroyReplies) {
  struct {
    unsigned state, tx;
  } const rows[] = {
      {IB_CM_IDLE, IB_CM_TX_NONE},
      {IB_CM_LISTEN, IB_CM_TX_NONE},
      {IB_CM_SIDR_REQ_SENT, IB_CM_TX_NONE},
      {IB_CM_SIDR_REQ_RCVD, IB_CM_TX_SIDR_REP_REJECT},
      {IB_CM_REQ_SENT, IB_CM_TX_REJ_TIMEOUT},
      {IB_CM_MRA_REQ_RCVD, IB_CM_TX_REJ_TIMEOUT},
      {IB_CM_REQ_RCVD, IB_CM_TX_REJ_CONSUMER},
      {IB_CM_REP_SENT, IB_CM_TX_REJ_CONSUMER},
      {IB_CM_MRA_REP_RCVD, IB_CM_TX_REJ_CONSUMER},
      {IB_CM_MRA_REQ_SENT, IB_CM_TX_REJ_CONSUMER},
      {IB_CM_REP_RCVD, IB_CM_TX_REJ_CONSUMER},
      {IB_CM_MRA_REP_SENT, IB_CM_TX_REJ_CONSUMER},
      {IB_CM_ESTABLISHED, IB_CM_TX_DREQ},
      {IB_CM_DREQ_SENT, IB_CM_TX_NONE},
      {IB_CM_DREQ_RCVD, IB_CM_TX_DREP},
      {IB_CM_TIMEWAIT, IB_CM_TX_NONE},
  };
  for (const auto &r : rows)
    EXPECT_EQ(T(Step(r.state, IB_CM_IN_DESTROY).tx), T(r.tx)) << S(r.state);
  EXPECT_EQ(T(Step(IB_CM_REQ_RCVD, IB_CM_IN_DESTROY_NO_REJ).tx), T(IB_CM_TX_NONE));
  EXPECT_EQ(ib_cm_tx_rej_reason(IB_CM_TX_REJ_TIMEOUT), 4);
  EXPECT_EQ(ib_cm_tx_rej_reason(IB_CM_TX_REJ_CONSUMER), 28);
  EXPECT_EQ(ib_cm_tx_sidr_status(IB_CM_TX_SIDR_REP_REJECT), 2);
}

TEST(CmStateEdges, Orphans) {
  EXPECT_EQ(T(ib_cm_sm_orphan_tx(IB_CM_IN_RECV_REQ)), T(IB_CM_TX_REJ_BAD_SID));
  EXPECT_EQ(ib_cm_tx_rej_reason(IB_CM_TX_REJ_BAD_SID), 8);
  EXPECT_EQ(T(ib_cm_sm_orphan_tx(IB_CM_IN_RECV_DREQ)), T(IB_CM_TX_DREP));
  EXPECT_EQ(T(ib_cm_sm_orphan_tx(IB_CM_IN_RECV_SIDR_REQ)), T(IB_CM_TX_SIDR_REP_NO_SID));
  EXPECT_EQ(ib_cm_tx_sidr_status(IB_CM_TX_SIDR_REP_NO_SID), 1);
  for (unsigned in = 0; in < IB_CM_IN_COUNT; in++) {
    if (in == IB_CM_IN_RECV_REQ || in == IB_CM_IN_RECV_DREQ || in == IB_CM_IN_RECV_SIDR_REQ)
      continue;
    EXPECT_EQ(T(ib_cm_sm_orphan_tx(static_cast<ib_cm_sm_input>(in))), T(IB_CM_TX_NONE)) << I(in);
  }
  for (unsigned t = 0; t < IB_CM_TX_COUNT; t++) {
    const bool rej = t >= IB_CM_TX_REJ_TIMEOUT && t <= IB_CM_TX_REJ_CONSUMER;
    const bool sidr = t == IB_CM_TX_SIDR_REP_NO_SID || t == IB_CM_TX_SIDR_REP_REJECT;
    EXPECT_EQ(ib_cm_tx_rej_reason(static_cast<ib_cm_sm_tx>(t)) != 0, rej) << T(t);
    EXPECT_EQ(ib_cm_tx_sidr_status(static_cast<ib_cm_sm_tx>(t)) >= 0, sidr) << T(t);
  }
}

// ---------------------------------------------------------------------------
// Invariants over every pair.

template <typename F>
void ForAllPairs(F f) {
  for (unsigned s = 0; s < IB_CM_STATE_COUNT; s++)
    for (unsigned in = 0; in < IB_CM_IN_COUNT; in++) {
      SCOPED_TRACE(S(s) + " + " + I(in));
      f(s, in, Step(s, in));
    }
}

TEST(CmStateInvariants, VerdictShapes) {
  ForAllPairs([](unsigned s, unsigned in, const ib_cm_sm_action &a) {
    const bool call = ib_cm_sm_is_call(static_cast<ib_cm_sm_input>(in));
    ASSERT_LT(a.verdict, unsigned{IB_CM_SM_VERDICT_COUNT});
    ASSERT_LT(a.next, unsigned{IB_CM_STATE_COUNT});
    ASSERT_LT(a.tx, unsigned{IB_CM_TX_COUNT});
    ASSERT_TRUE(a.report == kNoEv || a.report < unsigned{IB_CM_EVENT_COUNT});
    if (a.verdict == IB_CM_SM_GO) {
      EXPECT_EQ(a.why, unsigned{IB_CM_WHY_NONE});
      return;
    }
    // anything but GO leaves the ID as it is and reports nothing
    EXPECT_EQ(a.next, s);
    EXPECT_EQ(a.report, kNoEv);
    EXPECT_EQ(a.work, 0u);
    EXPECT_NE(a.why, unsigned{IB_CM_WHY_NONE});
    if (a.verdict == IB_CM_SM_REFUSE) {
      EXPECT_TRUE(call);
      EXPECT_LT(a.err, 0);
    } else {
      EXPECT_FALSE(call);
    }
    EXPECT_EQ(a.tx != IB_CM_TX_NONE, a.verdict == IB_CM_SM_ANSWER);
  });
}

TEST(CmStateInvariants, RequestsAreArmedAndOnlyThey) {
  ForAllPairs([](unsigned, unsigned, const ib_cm_sm_action &a) {
    if (a.verdict != IB_CM_SM_GO) return;
    const bool request = a.tx == IB_CM_TX_REQ || a.tx == IB_CM_TX_REP ||
                         a.tx == IB_CM_TX_DREQ || a.tx == IB_CM_TX_SIDR_REQ;
    EXPECT_EQ((a.work & kArm) != 0, request);
  });
}

TEST(CmStateInvariants, CancelOnlyWhereAMadIsOut) {
  const std::set<unsigned> armed = {IB_CM_REQ_SENT, IB_CM_MRA_REQ_RCVD, IB_CM_REP_SENT,
                                    IB_CM_MRA_REP_RCVD, IB_CM_DREQ_SENT,
                                    IB_CM_SIDR_REQ_SENT};
  ForAllPairs([&](unsigned s, unsigned, const ib_cm_sm_action &a) {
    if (a.work & kCancel) {
      EXPECT_TRUE(armed.count(s));
    }
    if (a.work & kExtend) {
      EXPECT_EQ(E(a.report), "MRA_RECEIVED");
    }
  });
}

TEST(CmStateInvariants, TimewaitIsEnteredWithItsTimer) {
  ForAllPairs([](unsigned s, unsigned, const ib_cm_sm_action &a) {
    const bool enters = a.verdict == IB_CM_SM_GO && a.next == IB_CM_TIMEWAIT &&
                        s != IB_CM_TIMEWAIT;
    EXPECT_EQ((a.work & kTw) != 0, enters);
  });
}

TEST(CmStateInvariants, TimewaitEndsOnlyOnItsTimerOrDestroy) {
  for (unsigned in = 0; in < IB_CM_IN_COUNT; in++) {
    const ib_cm_sm_action a = Step(IB_CM_TIMEWAIT, in);
    const bool leaves = a.next != IB_CM_TIMEWAIT;
    EXPECT_EQ(leaves, in == IB_CM_IN_TIMEWAIT_DONE || IsDestroy(in)) << I(in);
  }
}

TEST(CmStateInvariants, DestroyEndsInIdleWithinThreeSteps) {
  for (unsigned in : {IB_CM_IN_DESTROY, IB_CM_IN_DESTROY_NO_REJ}) {
    for (unsigned s0 = 0; s0 < IB_CM_STATE_COUNT; s0++) {
      unsigned s = s0, steps = 0;
      for (;;) {
        const ib_cm_sm_action a = Step(s, in);
        ASSERT_EQ(V(a.verdict), V(IB_CM_SM_GO)) << S(s);
        EXPECT_EQ(a.report, kNoEv) << S(s);
        EXPECT_EQ((a.work & kAgain) != 0, a.next != IB_CM_IDLE) << S(s);
        steps++;
        s = a.next;
        if (!(a.work & kAgain)) break;
        ASSERT_LE(steps, 3u) << "from " << S(s0);
      }
      EXPECT_EQ(S(s), "IDLE") << "from " << S(s0);
    }
  }
}

TEST(CmStateInvariants, EveryStateIsReachableFromIdle) {
  std::set<unsigned> seen = {IB_CM_IDLE};
  std::vector<unsigned> todo = {IB_CM_IDLE};
  while (!todo.empty()) {
    const unsigned s = todo.back();
    todo.pop_back();
    for (unsigned in = 0; in < IB_CM_IN_COUNT; in++) {
      const ib_cm_sm_action a = Step(s, in);
      if (a.verdict == IB_CM_SM_GO && seen.insert(a.next).second) todo.push_back(a.next);
    }
  }
  EXPECT_EQ(seen.size(), size_t{IB_CM_STATE_COUNT});
}

TEST(CmStateInvariants, OutOfRange) {
  for (unsigned s : {unsigned{IB_CM_STATE_COUNT}, 255u, 0xffffffffu})
    for (unsigned in : {0u, unsigned{IB_CM_IN_DESTROY}}) {
      const ib_cm_sm_action a = Step(s, in);
      EXPECT_EQ(V(a.verdict), V(IB_CM_SM_REFUSE));
      EXPECT_EQ(W(a.why), W(IB_CM_WHY_BAD_ARG));
      EXPECT_EQ(a.err, -EINVAL);
      EXPECT_EQ(a.next, static_cast<u8>(s));
    }
  for (unsigned in : {unsigned{IB_CM_IN_COUNT}, 64u, 0xffffffffu}) {
    const ib_cm_sm_action a = Step(IB_CM_ESTABLISHED, in);
    EXPECT_EQ(W(a.why), W(IB_CM_WHY_BAD_ARG));
    EXPECT_EQ(S(a.next), "ESTABLISHED");
  }
}

// Names are unique and never "?" in range, "?" just past it.
void ExpectNames(std::string (*name)(unsigned), unsigned count) {
  std::set<std::string> seen;
  for (unsigned i = 0; i < count; i++) {
    EXPECT_NE(name(i), "?") << i;
    EXPECT_TRUE(seen.insert(name(i)).second) << name(i);
  }
  EXPECT_EQ(name(count), "?");
  EXPECT_EQ(name(0xffffffffu), "?");
}

TEST(CmStateNames, UniqueAndBounded) {
  ExpectNames(S, IB_CM_STATE_COUNT);
  ExpectNames(I, IB_CM_IN_COUNT);
  ExpectNames(V, IB_CM_SM_VERDICT_COUNT);
  ExpectNames(T, IB_CM_TX_COUNT);
  ExpectNames(W, IB_CM_WHY_COUNT);
  ExpectNames([](unsigned e) -> std::string {
    return ib_cm_event_str(static_cast<ib_cm_event_type>(e));
  }, IB_CM_EVENT_COUNT);
  EXPECT_EQ(S(IB_CM_TIMEWAIT), "TIMEWAIT");
  EXPECT_EQ(E(IB_CM_REJ_RECEIVED), "REJ_RECEIVED");
}

// Section 2.5: the values are those upstream traces print.
TEST(CmStateNames, Values) {
  EXPECT_EQ(IB_CM_ESTABLISHED, 10);
  EXPECT_EQ(IB_CM_TIMEWAIT, 13);
  EXPECT_EQ(IB_CM_SIDR_REQ_RCVD, 15);
  EXPECT_EQ(IB_CM_TIMEWAIT_EXIT, 9);
  EXPECT_EQ(IB_CM_REJ_RECEIVED, 11);
  EXPECT_EQ(IB_CM_SIDR_REP_RECEIVED, 17);
}

// ---------------------------------------------------------------------------
// Timer arithmetic (section 2.6).

TEST(CmTimers, TimeMs) {
  for (unsigned t = 0; t <= 8; t++) EXPECT_EQ(ib_cm_time_ms(static_cast<u8>(t)), 1u) << t;
  EXPECT_EQ(ib_cm_time_ms(9), 2u);
  EXPECT_EQ(ib_cm_time_ms(18), 1024u);
  EXPECT_EQ(ib_cm_time_ms(19), 2048u);
  EXPECT_EQ(ib_cm_time_ms(20), 4096u);
  EXPECT_EQ(ib_cm_time_ms(24), 65536u);
  EXPECT_EQ(ib_cm_time_ms(31), 8388608u);
  EXPECT_EQ(ib_cm_time_ms(32), 8388608u);
  EXPECT_EQ(ib_cm_time_ms(255), 8388608u);
}

TEST(CmTimers, TimeNsIsExact) {
  EXPECT_EQ(ib_cm_time_ns(0), 4096u);
  EXPECT_EQ(ib_cm_time_ns(20), 4294967296ull);  // 4.29 s
  EXPECT_EQ(ib_cm_time_ns(31), 8796093022208ull);
  EXPECT_EQ(ib_cm_time_ns(200), 8796093022208ull);
  // the ms approximation is never longer than the exact value
  for (unsigned t = 0; t <= 31; t++) {
    const u64 ms = ib_cm_time_ms(static_cast<u8>(t));
    if (t > 8) {
      EXPECT_LE(ms * 1000000, ib_cm_time_ns(static_cast<u8>(t))) << t;
    }
  }
}

TEST(CmTimers, UpstreamParametersOverRxe) {
  // active REQ: 2 x 1024 + 4096 ms a try, 16 tries
  EXPECT_EQ(ib_cm_req_timeout_ms(18, 20), 6144u);
  EXPECT_EQ(ib_cm_give_up_ms(6144, 15), 98304u);
  // passive REP and DREQ
  EXPECT_EQ(ib_cm_time_ms(20), 4096u);
  // path timeout after the REP, then timewait
  EXPECT_EQ(ib_cm_ack_timeout(15, 18), 19);
  EXPECT_EQ(ib_cm_req_packet_life_time(19) + 1, 19);
  EXPECT_EQ(ib_cm_timewait_ms(19), 2048u);
  // rdma_cm's delayed MRA: 24 with the delay flag
  EXPECT_TRUE(ib_cm_mra_delayed(0x80 | 24));
  EXPECT_FALSE(ib_cm_mra_delayed(24));
  EXPECT_EQ(ib_cm_mra_service_timeout(0x80 | 24), 24);
  EXPECT_EQ(ib_cm_mra_timeout_ms(0x80 | 24, 19), 65536u + 2048u);
  // SIDR
  EXPECT_EQ(ib_cm_time_ms(20), 4096u);
}

TEST(CmTimers, Extremes) {
  EXPECT_EQ(ib_cm_req_timeout_ms(31, 31), 3u * 8388608u);
  EXPECT_EQ(ib_cm_req_timeout_ms(255, 255), 3u * 8388608u);
  EXPECT_EQ(ib_cm_mra_timeout_ms(0xff, 0xff), 2u * 8388608u);
  EXPECT_EQ(ib_cm_mra_service_timeout(0x7f), 31);
  EXPECT_EQ(ib_cm_retries(15), 15);
  EXPECT_EQ(ib_cm_retries(16), 15);
  EXPECT_EQ(ib_cm_retries(255), 15);
  EXPECT_EQ(ib_cm_give_up_ms(0xffffffffu, 255), 16ull * 0xffffffffull);
  EXPECT_EQ(ib_cm_give_up_ms(100, 0), 100u);
  EXPECT_EQ(ib_cm_req_packet_life_time(0), 0);
  EXPECT_EQ(ib_cm_req_packet_life_time(1), 0);
  EXPECT_EQ(ib_cm_req_packet_life_time(255), 30);
  EXPECT_EQ(ib_cm_timewait_ms(255), 8388608u);
}

// The note's rule for the ACK timeout, transcribed as written: t = plt + 1;
// if t >= delay, add 1 when delay >= t - 1; otherwise t = delay, plus 1
// when plt + 1 >= delay - 1; at most 31.  Inputs are 5-bit fields.
int NoteAckTimeout(int delay, int plt) {
  int t = plt + 1;
  if (t >= delay)
    t += (delay >= t - 1) ? 1 : 0;
  else
    t = delay + ((plt + 1 >= delay - 1) ? 1 : 0);
  return t > 31 ? 31 : t;
}

TEST(CmTimers, AckTimeoutMatchesTheNote) {
  for (int d = 0; d <= 31; d++)
    for (int p = 0; p <= 31; p++)
      EXPECT_EQ(ib_cm_ack_timeout(static_cast<u8>(d), static_cast<u8>(p)),
                NoteAckTimeout(d, p))
          << "delay " << d << " lifetime " << p;
  EXPECT_EQ(ib_cm_ack_timeout(0, 0), 2);
  EXPECT_EQ(ib_cm_ack_timeout(19, 18), 20);
  EXPECT_EQ(ib_cm_ack_timeout(20, 18), 21);
  EXPECT_EQ(ib_cm_ack_timeout(25, 18), 25);
  EXPECT_EQ(ib_cm_ack_timeout(31, 30), 31);
  EXPECT_EQ(ib_cm_ack_timeout(255, 255), 31);
  EXPECT_EQ(ib_cm_ack_timeout(0, 255), 31);
}

}  // namespace
