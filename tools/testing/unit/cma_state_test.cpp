// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/cma_state.c: every (state,
// input) pair against an oracle written state by state from the reference
// note (rdma-cm.md, sections 3.5-3.12 and the design rules of section 6),
// the note's edges by name, invariants, compare-and-exchange, the ib_cm
// event mapping and the event numbers' ABI.

#include <rdma/rdma_cm_state.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr unsigned kOracleStates = 11;
constexpr unsigned kOracleInputs = 43;
constexpr int kInStatus = 4242;  // status passed with every input

constexpr unsigned kNoEv = RDMA_CM_NO_EVENT;
constexpr unsigned kAutoBind = RDMA_CM_DO_AUTO_BIND;
constexpr unsigned kCancelAddr = RDMA_CM_DO_CANCEL_ADDR;
constexpr unsigned kCancelRoute = RDMA_CM_DO_CANCEL_ROUTE;
constexpr unsigned kCancelListen = RDMA_CM_DO_CANCEL_LISTEN;
constexpr unsigned kNewId = RDMA_CM_DO_NEW_ID;
constexpr unsigned kMra = RDMA_CM_DO_DELAYED_MRA;
constexpr unsigned kQpErr = RDMA_CM_DO_QP_ERR;

struct Want {
  unsigned verdict;
  unsigned next;
  unsigned report;
  unsigned work;
  int status;
  unsigned why;
  int err;
  bool known;
};

Want Go(unsigned next, unsigned report = kNoEv, unsigned work = 0, int status = 0) {
  return {RDMA_CM_SM_GO, next, report, work, status, RDMA_CM_WHY_NONE, 0, true};
}
Want Refuse(unsigned cur, unsigned why) {
  return {RDMA_CM_SM_REFUSE, cur, kNoEv, 0, 0, why, -EINVAL, true};
}
Want Drop(unsigned cur, unsigned why, int err = 0) {
  return {RDMA_CM_SM_DROP, cur, kNoEv, 0, 0, why, err, true};
}
Want Unknown() { return {0, 0, 0, 0, 0, 0, 0, false}; }

bool Going(unsigned s) { return s == RDMA_CM_DESTROYING || s == RDMA_CM_DEVICE_REMOVAL; }

// What a state with something pending must cancel when it is left by
// destroy or device removal (section 6, rule 3).
unsigned CancelsOf(unsigned s) {
  switch (s) {
    case RDMA_CM_ADDR_QUERY:
      return kCancelAddr;
    case RDMA_CM_ROUTE_QUERY:
      return kCancelRoute;
    case RDMA_CM_LISTEN:
      return kCancelListen;
    default:
      return 0;
  }
}

Want Otherwise(unsigned s, unsigned in) {
  if (in >= kOracleInputs) return Unknown();
  if (in <= RDMA_CM_OP_UNDO_CONNECT)
    return Refuse(s, Going(s) ? RDMA_CM_WHY_GONE : RDMA_CM_WHY_WRONG_STATE);
  if (in == RDMA_CM_IN_REQ || in == RDMA_CM_IN_SIDR_REQ)
    return Drop(s, RDMA_CM_WHY_NOT_LISTENING, -ECONNABORTED);
  if (in == RDMA_CM_IN_CM_OTHER) return Drop(s, RDMA_CM_WHY_NOT_REPORTED);
  return Drop(s, Going(s) ? RDMA_CM_WHY_GONE : RDMA_CM_WHY_UNEXPECTED);
}

// Inputs every state but the going ones takes the same way.
bool Common(unsigned s, unsigned in, Want *w) {
  switch (in) {
    case RDMA_CM_OP_DESTROY:
      if (s == RDMA_CM_DESTROYING) return false;
      *w = Go(RDMA_CM_DESTROYING, kNoEv, CancelsOf(s));
      return true;
    case RDMA_CM_OP_LEAVE_MCAST:
      if (s == RDMA_CM_DESTROYING) return false;
      *w = Go(s);
      return true;
    case RDMA_CM_OP_SET_REUSEADDR:
      if (s == RDMA_CM_DESTROYING || s == RDMA_CM_LISTEN) return false;
      *w = Go(s);
      return true;
    default:
      break;
  }
  if (Going(s)) return false;
  switch (in) {
    case RDMA_CM_IN_DEVICE_GONE:
      *w = Go(RDMA_CM_DEVICE_REMOVAL, RDMA_CM_EVENT_DEVICE_REMOVAL, CancelsOf(s));
      return true;
    case RDMA_CM_IN_JOIN_OK:
      *w = Go(s, RDMA_CM_EVENT_MULTICAST_JOIN);
      return true;
    case RDMA_CM_IN_JOIN_FAIL:
      *w = Go(s, RDMA_CM_EVENT_MULTICAST_ERROR, 0, kInStatus);
      return true;
    case RDMA_CM_IN_ADDR_CHANGE:
      *w = Go(s, RDMA_CM_EVENT_ADDR_CHANGE);
      return true;
    case RDMA_CM_IN_NEIGH_CHANGE:
      *w = Go(s, RDMA_CM_EVENT_UNREACHABLE, 0, -ETIMEDOUT);
      return true;
    default:
      return false;
  }
}

// CONNECT: the calls on a connection and what ib_cm reports.
Want Connect(unsigned s, unsigned in) {
  switch (in) {
    case RDMA_CM_OP_ACCEPT:
    case RDMA_CM_OP_REJECT:
    case RDMA_CM_OP_DISCONNECT:
      return Go(s);
    case RDMA_CM_OP_UNDO_CONNECT:
      return Go(RDMA_CM_ROUTE_RESOLVED);
    case RDMA_CM_IN_REP:
      return Go(s, RDMA_CM_EVENT_CONNECT_RESPONSE, kMra);
    case RDMA_CM_IN_REP_QP_OK:
      return Go(s, RDMA_CM_EVENT_ESTABLISHED, kMra);
    case RDMA_CM_IN_REP_QP_FAIL:
      return Go(s, RDMA_CM_EVENT_CONNECT_ERROR, kMra, kInStatus);
    case RDMA_CM_IN_ESTABLISHED:
    case RDMA_CM_IN_SIDR_REP_OK:
      return Go(s, RDMA_CM_EVENT_ESTABLISHED);
    case RDMA_CM_IN_CM_TIMEOUT:
      return Go(s, RDMA_CM_EVENT_UNREACHABLE, 0, -ETIMEDOUT);
    case RDMA_CM_IN_SIDR_REP_FAIL:
      return Go(s, RDMA_CM_EVENT_UNREACHABLE, 0, kInStatus);
    case RDMA_CM_IN_REJ:
      return Go(s, RDMA_CM_EVENT_REJECTED, kQpErr, kInStatus);
    case RDMA_CM_IN_DREQ:
    case RDMA_CM_IN_DREP:
      return Go(RDMA_CM_DISCONNECT, RDMA_CM_EVENT_DISCONNECTED);
    case RDMA_CM_IN_DREQ_TIMEOUT:
      return Go(RDMA_CM_DISCONNECT, RDMA_CM_EVENT_DISCONNECTED, 0, -ETIMEDOUT);
    default:
      return Otherwise(s, in);
  }
}

Want Expected(unsigned s, unsigned in) {
  if (in >= kOracleInputs || s >= kOracleStates) return Unknown();
  Want w;
  if (Common(s, in, &w)) return w;
  switch (s) {
    case RDMA_CM_IDLE:
      if (in == RDMA_CM_OP_BIND) return Go(RDMA_CM_ADDR_BOUND);
      if (in == RDMA_CM_OP_RESOLVE_ADDR || in == RDMA_CM_OP_LISTEN)
        return Go(RDMA_CM_ADDR_BOUND, kNoEv, kAutoBind);
      if (in == RDMA_CM_OP_CLEAR_REUSEADDR || in == RDMA_CM_OP_SET_AFONLY) return Go(s);
      break;
    case RDMA_CM_ADDR_BOUND:
      if (in == RDMA_CM_OP_RESOLVE_ADDR) return Go(RDMA_CM_ADDR_QUERY, kNoEv, kCancelAddr);
      if (in == RDMA_CM_OP_LISTEN) return Go(RDMA_CM_LISTEN);
      if (in == RDMA_CM_OP_JOIN_MCAST || in == RDMA_CM_OP_SET_AFONLY) return Go(s);
      if (in == RDMA_CM_OP_UNDO_BIND) return Go(RDMA_CM_IDLE);
      break;
    case RDMA_CM_ADDR_QUERY:
      if (in == RDMA_CM_OP_UNDO_RESOLVE_ADDR) return Go(RDMA_CM_ADDR_BOUND);
      if (in == RDMA_CM_IN_ADDR_OK)
        return Go(RDMA_CM_ADDR_RESOLVED, RDMA_CM_EVENT_ADDR_RESOLVED);
      if (in == RDMA_CM_IN_ADDR_FAIL)
        return Go(RDMA_CM_ADDR_BOUND, RDMA_CM_EVENT_ADDR_ERROR, 0, kInStatus);
      break;
    case RDMA_CM_ADDR_RESOLVED:
      if (in == RDMA_CM_OP_RESOLVE_ROUTE) return Go(RDMA_CM_ROUTE_QUERY, kNoEv, kCancelRoute);
      if (in == RDMA_CM_OP_JOIN_MCAST) return Go(s);
      break;
    case RDMA_CM_ROUTE_QUERY:
      if (in == RDMA_CM_OP_UNDO_RESOLVE_ROUTE)
        return Go(RDMA_CM_ADDR_RESOLVED, kNoEv, kCancelRoute);
      if (in == RDMA_CM_IN_ROUTE_OK)
        return Go(RDMA_CM_ROUTE_RESOLVED, RDMA_CM_EVENT_ROUTE_RESOLVED);
      if (in == RDMA_CM_IN_ROUTE_FAIL)
        return Go(RDMA_CM_ADDR_RESOLVED, RDMA_CM_EVENT_ROUTE_ERROR, 0, kInStatus);
      break;
    case RDMA_CM_ROUTE_RESOLVED:
      if (in == RDMA_CM_OP_CONNECT) return Go(RDMA_CM_CONNECT);
      break;
    case RDMA_CM_CONNECT:
      return Connect(s, in);
    case RDMA_CM_DISCONNECT:
      if (in == RDMA_CM_OP_DISCONNECT) return Go(s);
      if (in == RDMA_CM_IN_TIMEWAIT_EXIT) return Go(s, RDMA_CM_EVENT_TIMEWAIT_EXIT);
      break;
    case RDMA_CM_LISTEN:
      if (in == RDMA_CM_IN_REQ) return Go(s, RDMA_CM_EVENT_CONNECT_REQUEST, kNewId | kMra);
      if (in == RDMA_CM_IN_SIDR_REQ) return Go(s, RDMA_CM_EVENT_CONNECT_REQUEST, kNewId);
      if (in == RDMA_CM_OP_UNDO_LISTEN) return Go(RDMA_CM_ADDR_BOUND, kNoEv, kCancelListen);
      break;
    case RDMA_CM_DEVICE_REMOVAL:
    case RDMA_CM_DESTROYING:
      break;
    default:
      return Unknown();
  }
  return Otherwise(s, in);
}

rdma_cm_sm_action Step(unsigned s, unsigned in, int status = kInStatus) {
  rdma_cm_sm_action act;
  std::memset(&act, 0xa5, sizeof(act));
  const rdma_cm_sm_verdict v = rdma_cm_sm_step(
      static_cast<rdma_cm_state>(s), static_cast<rdma_cm_sm_input>(in), status, &act);
  EXPECT_EQ(static_cast<unsigned>(v), act.verdict);
  return act;
}

std::string S(unsigned s) { return rdma_cm_state_str(static_cast<rdma_cm_state>(s)); }
std::string I(unsigned in) { return rdma_cm_sm_input_str(static_cast<rdma_cm_sm_input>(in)); }
std::string V(unsigned v) { return rdma_cm_sm_verdict_str(static_cast<rdma_cm_sm_verdict>(v)); }
std::string W(unsigned w) { return rdma_cm_sm_why_str(static_cast<rdma_cm_sm_why>(w)); }
std::string E(unsigned e) {
  return e == kNoEv ? "-" : rdma_cm_event_str(static_cast<rdma_cm_event_type>(e));
}

// ---------------------------------------------------------------------------
// The full cross product, one CTest case per (state, input).

using Pair = std::tuple<unsigned, unsigned>;

class CmaStateMatrix : public ::testing::TestWithParam<Pair> {};

TEST_P(CmaStateMatrix, MatchesOracle) {
  const unsigned s = std::get<0>(GetParam());
  const unsigned in = std::get<1>(GetParam());
  const Want w = Expected(s, in);
  ASSERT_TRUE(w.known) << "the oracle has no entry for state " << s
                       << ", input " << in << ": a state or input was added";
  const rdma_cm_sm_action a = Step(s, in);
  EXPECT_EQ(V(a.verdict), V(w.verdict));
  EXPECT_EQ(S(a.next), S(w.next));
  EXPECT_EQ(E(a.report), E(w.report));
  EXPECT_EQ(a.work, w.work) << std::hex << "work 0x" << unsigned{a.work};
  EXPECT_EQ(a.status, w.status);
  EXPECT_EQ(W(a.why), W(w.why));
  EXPECT_EQ(a.err, w.err);
}

std::string PairName(const ::testing::TestParamInfo<Pair> &info) {
  return S(std::get<0>(info.param)) + "__" + I(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(All, CmaStateMatrix,
                         ::testing::Combine(::testing::Range(0u, unsigned{RDMA_CM_STATE_COUNT}),
                                            ::testing::Range(0u, unsigned{RDMA_CM_IN_COUNT})),
                         PairName);

TEST(CmaStateOracle, CoversTheHeader) {
  EXPECT_EQ(unsigned{RDMA_CM_STATE_COUNT}, kOracleStates);
  EXPECT_EQ(unsigned{RDMA_CM_IN_COUNT}, kOracleInputs);
}

// ---------------------------------------------------------------------------
// Edges by name.

struct Hop {
  unsigned in;
  unsigned next;
  unsigned report;
};

void Walk(unsigned start, const std::vector<Hop> &hops) {
  unsigned s = start;
  for (const Hop &h : hops) {
    SCOPED_TRACE(S(s) + " + " + I(h.in));
    const rdma_cm_sm_action a = Step(s, h.in);
    ASSERT_EQ(V(a.verdict), V(RDMA_CM_SM_GO));
    EXPECT_EQ(S(a.next), S(h.next));
    EXPECT_EQ(E(a.report), E(h.report));
    s = a.next;
  }
}

TEST(CmaStateEdges, ActiveSide) {
  Walk(RDMA_CM_IDLE, {
      {RDMA_CM_OP_RESOLVE_ADDR, RDMA_CM_ADDR_BOUND, kNoEv},  // auto-bind
      {RDMA_CM_OP_RESOLVE_ADDR, RDMA_CM_ADDR_QUERY, kNoEv},
      {RDMA_CM_IN_ADDR_OK, RDMA_CM_ADDR_RESOLVED, RDMA_CM_EVENT_ADDR_RESOLVED},
      {RDMA_CM_OP_RESOLVE_ROUTE, RDMA_CM_ROUTE_QUERY, kNoEv},
      {RDMA_CM_IN_ROUTE_OK, RDMA_CM_ROUTE_RESOLVED, RDMA_CM_EVENT_ROUTE_RESOLVED},
      {RDMA_CM_OP_CONNECT, RDMA_CM_CONNECT, kNoEv},
      {RDMA_CM_IN_REP, RDMA_CM_CONNECT, RDMA_CM_EVENT_CONNECT_RESPONSE},
      {RDMA_CM_OP_ACCEPT, RDMA_CM_CONNECT, kNoEv},  // sends the RTU
      {RDMA_CM_OP_DISCONNECT, RDMA_CM_CONNECT, kNoEv},
      {RDMA_CM_IN_DREP, RDMA_CM_DISCONNECT, RDMA_CM_EVENT_DISCONNECTED},
      {RDMA_CM_IN_TIMEWAIT_EXIT, RDMA_CM_DISCONNECT, RDMA_CM_EVENT_TIMEWAIT_EXIT},
      {RDMA_CM_OP_DESTROY, RDMA_CM_DESTROYING, kNoEv},
  });
  EXPECT_EQ(Step(RDMA_CM_IDLE, RDMA_CM_OP_RESOLVE_ADDR).work, kAutoBind);
}

TEST(CmaStateEdges, PassiveSide) {
  Walk(RDMA_CM_IDLE, {
      {RDMA_CM_OP_BIND, RDMA_CM_ADDR_BOUND, kNoEv},
      {RDMA_CM_OP_LISTEN, RDMA_CM_LISTEN, kNoEv},
      {RDMA_CM_IN_REQ, RDMA_CM_LISTEN, RDMA_CM_EVENT_CONNECT_REQUEST},
  });
  EXPECT_EQ(Step(RDMA_CM_LISTEN, RDMA_CM_IN_REQ).work, kNewId | kMra);
  EXPECT_EQ(Step(RDMA_CM_LISTEN, RDMA_CM_IN_SIDR_REQ).work, kNewId);
  // the new ID starts in CONNECT
  Walk(RDMA_CM_CONNECT, {
      {RDMA_CM_OP_ACCEPT, RDMA_CM_CONNECT, kNoEv},
      {RDMA_CM_IN_ESTABLISHED, RDMA_CM_CONNECT, RDMA_CM_EVENT_ESTABLISHED},
      {RDMA_CM_IN_DREQ, RDMA_CM_DISCONNECT, RDMA_CM_EVENT_DISCONNECTED},
      {RDMA_CM_OP_DISCONNECT, RDMA_CM_DISCONNECT, kNoEv},  // sends the DREP
  });
}

TEST(CmaStateEdges, IbCmEventsInConnect) {
  const rdma_cm_sm_action rej = Step(RDMA_CM_CONNECT, RDMA_CM_IN_REJ, 28);
  EXPECT_EQ(E(rej.report), "REJECTED");
  EXPECT_EQ(rej.status, 28);
  EXPECT_EQ(rej.work, kQpErr);
  const rdma_cm_sm_action to = Step(RDMA_CM_CONNECT, RDMA_CM_IN_CM_TIMEOUT, 0);
  EXPECT_EQ(E(to.report), "UNREACHABLE");
  EXPECT_EQ(to.status, -110);
  const rdma_cm_sm_action sidr = Step(RDMA_CM_CONNECT, RDMA_CM_IN_SIDR_REP_FAIL, 2);
  EXPECT_EQ(E(sidr.report), "UNREACHABLE");
  EXPECT_EQ(sidr.status, 2);
  EXPECT_EQ(E(Step(RDMA_CM_CONNECT, RDMA_CM_IN_DREQ).report), "DISCONNECTED");
  EXPECT_EQ(Step(RDMA_CM_CONNECT, RDMA_CM_IN_DREQ).status, 0);
  EXPECT_EQ(Step(RDMA_CM_CONNECT, RDMA_CM_IN_DREQ_TIMEOUT).status, -ETIMEDOUT);
  EXPECT_EQ(V(Step(RDMA_CM_CONNECT, RDMA_CM_IN_CM_OTHER).verdict), V(RDMA_CM_SM_DROP));
}

TEST(CmaStateEdges, DisconnectedAtMostOnceTimewaitExitOnlyAfter) {
  for (unsigned in : {RDMA_CM_IN_DREQ, RDMA_CM_IN_DREP, RDMA_CM_IN_DREQ_TIMEOUT})
    EXPECT_EQ(V(Step(RDMA_CM_DISCONNECT, in).verdict), V(RDMA_CM_SM_DROP)) << I(in);
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++) {
    const rdma_cm_sm_action a = Step(s, RDMA_CM_IN_TIMEWAIT_EXIT);
    EXPECT_EQ(a.verdict == RDMA_CM_SM_GO, s == RDMA_CM_DISCONNECT) << S(s);
  }
  // every other ib_cm event is heard in CONNECT only
  for (unsigned in = RDMA_CM_IN_REP; in < RDMA_CM_IN_COUNT; in++) {
    if (in == RDMA_CM_IN_TIMEWAIT_EXIT) continue;
    for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++) {
      if (s == RDMA_CM_CONNECT) continue;
      EXPECT_EQ(V(Step(s, in).verdict), V(RDMA_CM_SM_DROP)) << S(s) << " " << I(in);
    }
  }
}

TEST(CmaStateEdges, RequestToANonListener) {
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++) {
    if (s == RDMA_CM_LISTEN) continue;
    EXPECT_EQ(Step(s, RDMA_CM_IN_REQ).err, -ECONNABORTED) << S(s);
    EXPECT_EQ(Step(s, RDMA_CM_IN_SIDR_REQ).err, -ECONNABORTED) << S(s);
  }
}

// Section 3.3, step 4 (CVE-2021-47391): an address request that failed
// back to ADDR_BOUND is cancelled before a new one starts.
TEST(CmaStateEdges, ResolveAgainAfterAddrErrorCancelsFirst) {
  const rdma_cm_sm_action err = Step(RDMA_CM_ADDR_QUERY, RDMA_CM_IN_ADDR_FAIL, -ETIMEDOUT);
  EXPECT_EQ(E(err.report), "ADDR_ERROR");
  EXPECT_EQ(err.status, -ETIMEDOUT);
  EXPECT_EQ(S(err.next), "ADDR_BOUND");
  const rdma_cm_sm_action again = Step(RDMA_CM_ADDR_BOUND, RDMA_CM_OP_RESOLVE_ADDR);
  EXPECT_EQ(S(again.next), "ADDR_QUERY");
  EXPECT_TRUE(again.work & kCancelAddr);
  // CVE-2021-47345: a second route query frees what the first left
  EXPECT_EQ(S(Step(RDMA_CM_ROUTE_QUERY, RDMA_CM_IN_ROUTE_FAIL).next), "ADDR_RESOLVED");
  EXPECT_TRUE(Step(RDMA_CM_ADDR_RESOLVED, RDMA_CM_OP_RESOLVE_ROUTE).work & kCancelRoute);
}

// Section 3.12 and rule 3 of section 6: leaving a state cancels its work.
TEST(CmaStateEdges, DestroyAndRemovalCancelByPreviousState) {
  EXPECT_EQ(Step(RDMA_CM_ADDR_QUERY, RDMA_CM_OP_DESTROY).work, kCancelAddr);
  EXPECT_EQ(Step(RDMA_CM_ROUTE_QUERY, RDMA_CM_OP_DESTROY).work, kCancelRoute);
  EXPECT_EQ(Step(RDMA_CM_LISTEN, RDMA_CM_OP_DESTROY).work, kCancelListen);
  EXPECT_EQ(Step(RDMA_CM_LISTEN, RDMA_CM_IN_DEVICE_GONE).work, kCancelListen);
  EXPECT_EQ(Step(RDMA_CM_CONNECT, RDMA_CM_OP_DESTROY).work, 0u);
  EXPECT_EQ(Step(RDMA_CM_DEVICE_REMOVAL, RDMA_CM_OP_DESTROY).work, 0u);
  EXPECT_EQ(E(Step(RDMA_CM_CONNECT, RDMA_CM_IN_DEVICE_GONE).report), "DEVICE_REMOVAL");
  EXPECT_EQ(V(Step(RDMA_CM_DEVICE_REMOVAL, RDMA_CM_IN_DEVICE_GONE).verdict),
            V(RDMA_CM_SM_DROP));
  EXPECT_EQ(S(Step(RDMA_CM_DEVICE_REMOVAL, RDMA_CM_OP_DESTROY).next), "DESTROYING");
}

TEST(CmaStateEdges, OptionsAndMulticast) {
  EXPECT_EQ(V(Step(RDMA_CM_LISTEN, RDMA_CM_OP_SET_REUSEADDR).verdict), V(RDMA_CM_SM_REFUSE));
  EXPECT_EQ(V(Step(RDMA_CM_CONNECT, RDMA_CM_OP_SET_REUSEADDR).verdict), V(RDMA_CM_SM_GO));
  EXPECT_EQ(V(Step(RDMA_CM_ADDR_BOUND, RDMA_CM_OP_CLEAR_REUSEADDR).verdict),
            V(RDMA_CM_SM_REFUSE));
  EXPECT_EQ(V(Step(RDMA_CM_ADDR_BOUND, RDMA_CM_OP_SET_AFONLY).verdict), V(RDMA_CM_SM_GO));
  EXPECT_EQ(V(Step(RDMA_CM_ADDR_QUERY, RDMA_CM_OP_SET_AFONLY).verdict), V(RDMA_CM_SM_REFUSE));
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++) {
    const bool ok = s == RDMA_CM_ADDR_BOUND || s == RDMA_CM_ADDR_RESOLVED;
    EXPECT_EQ(Step(s, RDMA_CM_OP_JOIN_MCAST).verdict == RDMA_CM_SM_GO, ok) << S(s);
  }
}

TEST(CmaStateEdges, ListenOnlyFromIdleOrBound) {
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++) {
    const rdma_cm_sm_action a = Step(s, RDMA_CM_OP_LISTEN);
    const bool ok = s == RDMA_CM_IDLE || s == RDMA_CM_ADDR_BOUND;
    EXPECT_EQ(a.verdict == RDMA_CM_SM_GO, ok) << S(s);
    if (!ok) {
      EXPECT_EQ(a.err, -EINVAL) << S(s);
    }
  }
}

// ---------------------------------------------------------------------------
// Compare and exchange.

TEST(CmaCompExch, FromAToBOrEinval) {
  rdma_cm_state st = RDMA_CM_ROUTE_RESOLVED;
  EXPECT_EQ(rdma_cm_sm_comp_exch(&st, RDMA_CM_ROUTE_RESOLVED, RDMA_CM_CONNECT), 0);
  EXPECT_EQ(st, RDMA_CM_CONNECT);
  // a second connect finds CONNECT, not ROUTE_RESOLVED
  EXPECT_EQ(rdma_cm_sm_comp_exch(&st, RDMA_CM_ROUTE_RESOLVED, RDMA_CM_CONNECT), -EINVAL);
  EXPECT_EQ(st, RDMA_CM_CONNECT);
  // an undo raced by device removal fails and leaves the state alone
  st = RDMA_CM_DEVICE_REMOVAL;
  EXPECT_EQ(rdma_cm_sm_comp_exch(&st, RDMA_CM_CONNECT, RDMA_CM_ROUTE_RESOLVED), -EINVAL);
  EXPECT_EQ(st, RDMA_CM_DEVICE_REMOVAL);
  // no move from IDLE straight to CONNECT, none out of DESTROYING
  st = RDMA_CM_IDLE;
  EXPECT_EQ(rdma_cm_sm_comp_exch(&st, RDMA_CM_IDLE, RDMA_CM_CONNECT), -EINVAL);
  st = RDMA_CM_DESTROYING;
  for (unsigned to = 0; to < RDMA_CM_STATE_COUNT; to++)
    EXPECT_EQ(rdma_cm_sm_comp_exch(&st, RDMA_CM_DESTROYING, static_cast<rdma_cm_state>(to)),
              -EINVAL);
  EXPECT_EQ(st, RDMA_CM_DESTROYING);
}

TEST(CmaCompExch, MovesAreExactlyTheStepsEdges) {
  std::set<std::pair<unsigned, unsigned>> edges;
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++)
    for (unsigned in = 0; in < RDMA_CM_IN_COUNT; in++) {
      const rdma_cm_sm_action a = Step(s, in);
      if (a.verdict == RDMA_CM_SM_GO && a.next != s) edges.insert({s, a.next});
    }
  for (unsigned f = 0; f < RDMA_CM_STATE_COUNT; f++)
    for (unsigned t = 0; t < RDMA_CM_STATE_COUNT; t++)
      EXPECT_EQ(rdma_cm_sm_move_ok(static_cast<rdma_cm_state>(f), static_cast<rdma_cm_state>(t)),
                edges.count({f, t}) == 1)
          << S(f) << " -> " << S(t);
  EXPECT_FALSE(rdma_cm_sm_move_ok(static_cast<rdma_cm_state>(RDMA_CM_STATE_COUNT),
                                  RDMA_CM_IDLE));
  EXPECT_FALSE(rdma_cm_sm_move_ok(RDMA_CM_IDLE, static_cast<rdma_cm_state>(200)));
}

// ---------------------------------------------------------------------------
// Invariants.

TEST(CmaStateInvariants, VerdictShapes) {
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++)
    for (unsigned in = 0; in < RDMA_CM_IN_COUNT; in++) {
      SCOPED_TRACE(S(s) + " + " + I(in));
      const rdma_cm_sm_action a = Step(s, in);
      const bool call = rdma_cm_sm_is_call(static_cast<rdma_cm_sm_input>(in));
      ASSERT_LT(a.next, unsigned{RDMA_CM_STATE_COUNT});
      ASSERT_TRUE(a.report == kNoEv || a.report < unsigned{RDMA_CM_EVENT_COUNT});
      if (a.verdict == RDMA_CM_SM_GO) {
        EXPECT_EQ(a.why, unsigned{RDMA_CM_WHY_NONE});
        EXPECT_EQ(a.err, 0);
        EXPECT_EQ(a.report != kNoEv, !call) << "calls report nothing, inputs report";
        if (a.report == kNoEv) {
          EXPECT_EQ(a.status, 0);
        }
        continue;
      }
      EXPECT_EQ(a.next, s);
      EXPECT_EQ(a.report, kNoEv);
      EXPECT_EQ(a.work, 0u);
      EXPECT_EQ(a.status, 0);
      EXPECT_EQ(a.verdict == RDMA_CM_SM_REFUSE, call);
      if (call) {
        EXPECT_EQ(a.err, -EINVAL);
      }
    }
}

TEST(CmaStateInvariants, NothingLeavesDestroying) {
  for (unsigned in = 0; in < RDMA_CM_IN_COUNT; in++) {
    const rdma_cm_sm_action a = Step(RDMA_CM_DESTROYING, in);
    EXPECT_EQ(S(a.next), "DESTROYING") << I(in);
    EXPECT_NE(V(a.verdict), V(RDMA_CM_SM_GO)) << I(in);
  }
}

TEST(CmaStateInvariants, NoEventAfterDestroyOrRemoval) {
  for (unsigned in = 0; in < RDMA_CM_IN_COUNT; in++) {
    EXPECT_EQ(Step(RDMA_CM_DESTROYING, in).report, kNoEv) << I(in);
    EXPECT_EQ(Step(RDMA_CM_DEVICE_REMOVAL, in).report, kNoEv) << I(in);
  }
}

TEST(CmaStateInvariants, DestroyReachesDestroyingInOneStep) {
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++) {
    if (s == RDMA_CM_DESTROYING) continue;
    const rdma_cm_sm_action a = Step(s, RDMA_CM_OP_DESTROY);
    EXPECT_EQ(V(a.verdict), V(RDMA_CM_SM_GO)) << S(s);
    EXPECT_EQ(S(a.next), "DESTROYING") << S(s);
  }
}

TEST(CmaStateInvariants, AutoBindGoesThroughBound) {
  for (unsigned s = 0; s < RDMA_CM_STATE_COUNT; s++)
    for (unsigned in = 0; in < RDMA_CM_IN_COUNT; in++) {
      const rdma_cm_sm_action a = Step(s, in);
      if (!(a.work & kAutoBind)) continue;
      EXPECT_EQ(S(s), "IDLE");
      EXPECT_EQ(S(a.next), "ADDR_BOUND");
      // the same call from ADDR_BOUND then moves on
      const rdma_cm_sm_action b = Step(a.next, in);
      EXPECT_EQ(V(b.verdict), V(RDMA_CM_SM_GO)) << I(in);
      EXPECT_NE(b.next, a.next) << I(in);
    }
}

TEST(CmaStateInvariants, OutOfRange) {
  for (unsigned s : {unsigned{RDMA_CM_STATE_COUNT}, 0xffffffffu}) {
    const rdma_cm_sm_action a = Step(s, RDMA_CM_OP_DESTROY);
    EXPECT_EQ(W(a.why), W(RDMA_CM_WHY_BAD_ARG));
    EXPECT_EQ(a.err, -EINVAL);
  }
  const rdma_cm_sm_action a = Step(RDMA_CM_CONNECT, RDMA_CM_IN_COUNT);
  EXPECT_EQ(V(a.verdict), V(RDMA_CM_SM_REFUSE));
  EXPECT_EQ(S(a.next), "CONNECT");
}

// ---------------------------------------------------------------------------
// ib_cm events, names, ABI.

TEST(CmaIbInput, EveryIbCmEvent) {
  struct {
    unsigned ev;
    bool kqp, ok;
    unsigned want;
  } const rows[] = {
      {IB_CM_REQ_ERROR, false, false, RDMA_CM_IN_CM_TIMEOUT},
      {IB_CM_REQ_RECEIVED, false, false, RDMA_CM_IN_REQ},
      {IB_CM_REP_ERROR, false, false, RDMA_CM_IN_CM_TIMEOUT},
      {IB_CM_REP_RECEIVED, false, false, RDMA_CM_IN_REP},
      {IB_CM_REP_RECEIVED, false, true, RDMA_CM_IN_REP},
      {IB_CM_REP_RECEIVED, true, true, RDMA_CM_IN_REP_QP_OK},
      {IB_CM_REP_RECEIVED, true, false, RDMA_CM_IN_REP_QP_FAIL},
      {IB_CM_RTU_RECEIVED, false, false, RDMA_CM_IN_ESTABLISHED},
      {IB_CM_USER_ESTABLISHED, false, false, RDMA_CM_IN_ESTABLISHED},
      {IB_CM_DREQ_ERROR, false, false, RDMA_CM_IN_DREQ_TIMEOUT},
      {IB_CM_DREQ_RECEIVED, false, false, RDMA_CM_IN_DREQ},
      {IB_CM_DREP_RECEIVED, false, false, RDMA_CM_IN_DREP},
      {IB_CM_TIMEWAIT_EXIT, false, false, RDMA_CM_IN_TIMEWAIT_EXIT},
      {IB_CM_MRA_RECEIVED, false, false, RDMA_CM_IN_CM_OTHER},
      {IB_CM_REJ_RECEIVED, false, false, RDMA_CM_IN_REJ},
      {IB_CM_LAP_ERROR, false, false, RDMA_CM_IN_CM_OTHER},
      {IB_CM_LAP_RECEIVED, false, false, RDMA_CM_IN_CM_OTHER},
      {IB_CM_APR_RECEIVED, false, false, RDMA_CM_IN_CM_OTHER},
      {IB_CM_SIDR_REQ_ERROR, false, false, RDMA_CM_IN_CM_TIMEOUT},
      {IB_CM_SIDR_REQ_RECEIVED, false, false, RDMA_CM_IN_SIDR_REQ},
      {IB_CM_SIDR_REP_RECEIVED, false, true, RDMA_CM_IN_SIDR_REP_OK},
      {IB_CM_SIDR_REP_RECEIVED, false, false, RDMA_CM_IN_SIDR_REP_FAIL},
      {IB_CM_EVENT_COUNT, false, false, RDMA_CM_IN_CM_OTHER},
  };
  std::set<unsigned> seen;
  for (const auto &r : rows) {
    EXPECT_EQ(I(rdma_cm_sm_ib_input(static_cast<ib_cm_event_type>(r.ev), r.kqp, r.ok)),
              I(r.want))
        << ib_cm_event_str(static_cast<ib_cm_event_type>(r.ev));
    seen.insert(r.ev);
  }
  EXPECT_EQ(seen.size(), size_t{IB_CM_EVENT_COUNT} + 1) << "a row per ib_cm event";
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

TEST(CmaNames, UniqueAndBounded) {
  ExpectNames(S, RDMA_CM_STATE_COUNT);
  ExpectNames(I, RDMA_CM_IN_COUNT);
  ExpectNames(V, RDMA_CM_SM_VERDICT_COUNT);
  ExpectNames(W, RDMA_CM_WHY_COUNT);
  ExpectNames([](unsigned e) -> std::string {
    return rdma_cm_event_str(static_cast<rdma_cm_event_type>(e));
  }, RDMA_CM_EVENT_COUNT);
}

// Section 3.5 and 3.6: the numbers.
TEST(CmaAbi, Values) {
  EXPECT_EQ(RDMA_CM_EVENT_ADDR_RESOLVED, 0);
  EXPECT_EQ(RDMA_CM_EVENT_CONNECT_REQUEST, 4);
  EXPECT_EQ(RDMA_CM_EVENT_CONNECT_RESPONSE, 5);
  EXPECT_EQ(RDMA_CM_EVENT_UNREACHABLE, 7);
  EXPECT_EQ(RDMA_CM_EVENT_REJECTED, 8);
  EXPECT_EQ(RDMA_CM_EVENT_ESTABLISHED, 9);
  EXPECT_EQ(RDMA_CM_EVENT_DISCONNECTED, 10);
  EXPECT_EQ(RDMA_CM_EVENT_DEVICE_REMOVAL, 11);
  EXPECT_EQ(RDMA_CM_EVENT_ADDR_CHANGE, 14);
  EXPECT_EQ(RDMA_CM_EVENT_TIMEWAIT_EXIT, 15);
  EXPECT_EQ(RDMA_CM_CONNECT, 5);
  EXPECT_EQ(RDMA_CM_ADDR_BOUND, 7);
  EXPECT_EQ(RDMA_CM_DESTROYING, 10);
}

// librdmacm's header, when installed, lists the events in our order.
TEST(CmaAbi, MatchesLibrdmacm) {
  std::ifstream f("/usr/include/rdma/rdma_cma.h");
  if (!f) GTEST_SKIP() << "librdmacm headers not installed";
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  std::smatch body;
  ASSERT_TRUE(std::regex_search(text, body, std::regex("enum rdma_cm_event_type \\{([^}]*)\\}")));
  const std::string list = body[1].str();
  std::vector<std::string> names;
  const std::regex name("RDMA_CM_EVENT_([A-Z_]+)");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), name); it != std::sregex_iterator();
       ++it)
    names.push_back((*it)[1].str());
  ASSERT_EQ(names.size(), size_t{RDMA_CM_EVENT_COUNT});
  for (unsigned i = 0; i < names.size(); i++) EXPECT_EQ(E(i), names[i]) << i;
}

}  // namespace
