// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/mad_agent.c: agent
// registration (every class value against an oracle written from the
// reference note, rdma-cm.md section 1, versions, methods, conflicts, the
// bound), TIDs, the receive dispatch (one case per drop reason, the
// response rules, TID routing, the Get/Set answer) and the send state
// machine (retries counted exactly, deadlines from the send completion,
// timer order, cancel, modify).

#include <rdma/ib_mad_agent.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr u8 kGet = IB_MAD_WIRE_METHOD_GET;
constexpr u8 kSet = IB_MAD_WIRE_METHOD_SET;
constexpr u8 kSend = IB_MAD_WIRE_METHOD_SEND;
constexpr u8 kTrap = IB_MAD_WIRE_METHOD_TRAP;
constexpr u8 kGetResp = IB_MAD_WIRE_METHOD_GET_RESP;
constexpr u8 kSa = IB_MAD_WIRE_CLASS_SA;
constexpr u8 kCm = IB_MAD_WIRE_CLASS_CM;
constexpr u8 kPerf = IB_MAD_WIRE_CLASS_PERF;

ib_mad_agent_claim Claim(u8 cls, u8 ver, std::initializer_list<unsigned> methods) {
  ib_mad_agent_claim c;
  memset(&c, 0, sizeof(c));
  c.mgmt_class = cls;
  c.class_version = ver;
  for (unsigned m : methods) c.methods[m / 32] |= 1u << (m % 32);
  return c;
}

ib_mad_wire_hdr Hdr(u8 cls, u8 ver, u8 method, u64 tid, u16 attr = 0x10) {
  ib_mad_wire_hdr h;
  memset(&h, 0, sizeof(h));
  h.base_version = 1;
  h.mgmt_class = cls;
  h.class_version = ver;
  h.method = method;
  h.tid = tid;
  h.attr_id = attr;
  return h;
}

const u8 kPeerA[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
const u8 kPeerB[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2};

class Mad : public ::testing::Test {
 protected:
  ib_mad_agent_table t;
  ib_mad_send_table s;
  u64 now = 1000;

  void SetUp() override {
    memset(&t, 0x5a, sizeof(t));
    memset(&s, 0xa5, sizeof(s));
    ib_mad_agent_table_init(&t, 0);
    ib_mad_send_table_init(&s);
  }

  int Reg(const ib_mad_agent_claim *c, ib_mad_agent_why *why = nullptr) {
    return ib_mad_agent_register(&t, c, why);
  }
  int Reg(const ib_mad_agent_claim &c) { return Reg(&c); }
  int RegSendOnly() { return Reg(nullptr); }

  int Post(int agent, u64 tid, u8 cls, u32 timeout, u32 retries,
           const u8 *peer = nullptr) {
    ib_mad_send_args a = {(u32)agent, tid, cls, timeout, retries, peer};
    return ib_mad_send_post(&s, &t, &a);
  }

  ib_mad_send_action Wc(int slot, bool ok = true) {
    ib_mad_send_action a;
    EXPECT_EQ(0, ib_mad_send_on_wc(&s, (u32)slot, ok, now, &a));
    return a;
  }

  ib_mad_send_action Timer() {
    ib_mad_send_action a;
    ib_mad_send_on_timer(&s, now, &a);
    return a;
  }

  ib_mad_rx Rx(const ib_mad_wire_hdr &h, const u8 *src = nullptr) {
    ib_mad_rx out;
    memset(&out, 0x77, sizeof(out));
    const ib_mad_rx_verdict v = ib_mad_rx_dispatch(&t, &s, &h, src, &out);
    EXPECT_EQ((unsigned)v, out.verdict);
    return out;
  }

  u32 Hi(int agent) { return t.agent[agent].hi_tid; }
};

void ExpectDrop(const ib_mad_rx &r, unsigned why) {
  EXPECT_EQ(IB_MAD_RX_DROP, r.verdict) << ib_mad_rx_why_str((ib_mad_rx_why)r.why);
  EXPECT_EQ(why, r.why) << ib_mad_rx_why_str((ib_mad_rx_why)r.why);
  EXPECT_EQ(-1, r.agent);
  EXPECT_EQ(-1, r.slot);
}

void ExpectComplete(const ib_mad_send_action &a, int slot, unsigned status) {
  EXPECT_EQ(IB_MAD_SEND_DO_COMPLETE, a.what);
  EXPECT_EQ(slot, a.slot);
  EXPECT_EQ(status, a.status) << ib_mad_send_status_str((ib_mad_send_status)a.status);
}

// ---------------------------------------------------------- registration

// The oracle: what the reference note's class ranges say of each value.
ib_mad_agent_why ClassOracle(unsigned c) {
  if (c == 0x01 || c == 0x81) return IB_MAD_AGENT_WHY_SMI_CLASS;
  if (c >= 0x30 && c <= 0x4f) return IB_MAD_AGENT_WHY_VENDOR_OUI;
  if (c >= 0x02 && c <= 0x2f) return IB_MAD_AGENT_WHY_OK;
  return IB_MAD_AGENT_WHY_BAD_CLASS;
}

int ErrnoOf(ib_mad_agent_why w) {
  switch (w) {
    case IB_MAD_AGENT_WHY_OK: return 0;
    case IB_MAD_AGENT_WHY_VENDOR_OUI: return -EOPNOTSUPP;
    case IB_MAD_AGENT_WHY_FULL: return -ENOSPC;
    case IB_MAD_AGENT_WHY_BUSY: return -EBUSY;
    default: return -EINVAL;
  }
}

TEST_F(Mad, EveryClassValueIsTakenOrRefusedWithItsReason) {
  for (unsigned c = 0; c < 256; c++) {
    ib_mad_agent_table_init(&t, 0);
    const ib_mad_agent_claim cl = Claim((u8)c, 1, {kGet});
    ib_mad_agent_why why = IB_MAD_AGENT_WHY_NUM;
    const int r = Reg(&cl, &why);
    const ib_mad_agent_why want = ClassOracle(c);
    EXPECT_EQ(want, why) << "class " << c << ": " << ib_mad_agent_why_str(why);
    if (want == IB_MAD_AGENT_WHY_OK)
      EXPECT_EQ(0, r) << "class " << c;
    else
      EXPECT_EQ(ErrnoOf(want), r) << "class " << c;
    EXPECT_EQ(want, ib_mad_agent_claim_check(&cl));
  }
}

TEST_F(Mad, ClassVersionsAboveSevenAreRefused) {
  for (unsigned v = 0; v < 256; v++) {
    ib_mad_agent_table_init(&t, 0);
    const ib_mad_agent_claim cl = Claim(kSa, (u8)v, {kGet});
    ib_mad_agent_why why;
    const int r = Reg(&cl, &why);
    if (v < 8) {
      EXPECT_EQ(0, r) << v;
      EXPECT_EQ(IB_MAD_AGENT_WHY_OK, why);
    } else {
      EXPECT_EQ(-EINVAL, r) << v;
      EXPECT_EQ(IB_MAD_AGENT_WHY_BAD_VERSION, why);
    }
  }
}

TEST_F(Mad, AClaimNeedsAMethodAndNeitherZeroNorTrapRepress) {
  ib_mad_agent_why why;
  const ib_mad_agent_claim none = Claim(kSa, 2, {});
  EXPECT_EQ(-EINVAL, Reg(&none, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_NO_METHODS, why);
  for (unsigned m = 0; m < 128; m++) {
    ib_mad_agent_table_init(&t, 0);
    const ib_mad_agent_claim cl = Claim(kSa, 2, {kGet, m});
    const bool bad = m == 0 || m == IB_MAD_WIRE_METHOD_TRAP_REPRESS;
    EXPECT_EQ(bad ? -EINVAL : 0, Reg(&cl, &why)) << m;
    EXPECT_EQ(bad ? IB_MAD_AGENT_WHY_BAD_METHOD : IB_MAD_AGENT_WHY_OK, why) << m;
  }
}

TEST_F(Mad, ASendOnlyAgentClaimsNothing) {
  ib_mad_agent_why why = IB_MAD_AGENT_WHY_NUM;
  EXPECT_EQ(0, Reg(nullptr, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_OK, why);
  EXPECT_EQ(1, RegSendOnly());  // any number of them
  for (unsigned m = 0; m < 256; m++)
    EXPECT_EQ(-1, ib_mad_agent_claimant(&t, 0, 0, (u8)m));
  EXPECT_EQ(IB_MAD_AGENT_WHY_OK, ib_mad_agent_claim_check(nullptr));
}

TEST_F(Mad, OneClassVersionMethodHasOneAgent) {
  ASSERT_EQ(0, Reg(Claim(kSa, 2, {kGet, kSet})));
  ib_mad_agent_table before;
  memcpy(&before, &t, sizeof(t));

  ib_mad_agent_why why;
  const ib_mad_agent_claim overlap = Claim(kSa, 2, {kSet, kSend});
  EXPECT_EQ(-EINVAL, Reg(&overlap, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_CONFLICT, why);
  EXPECT_EQ(0, memcmp(&before, &t, sizeof(t))) << "a refusal changes nothing";

  EXPECT_EQ(1, Reg(Claim(kSa, 2, {kSend})));  // the methods left
  EXPECT_EQ(2, Reg(Claim(kSa, 3, {kGet})));   // another version
  EXPECT_EQ(3, Reg(Claim(kPerf, 2, {kGet}))); // another class
  EXPECT_EQ(0, ib_mad_agent_claimant(&t, kSa, 2, kGet));
  EXPECT_EQ(0, ib_mad_agent_claimant(&t, kSa, 2, kSet));
  EXPECT_EQ(1, ib_mad_agent_claimant(&t, kSa, 2, kSend));
  EXPECT_EQ(2, ib_mad_agent_claimant(&t, kSa, 3, kGet));
  EXPECT_EQ(3, ib_mad_agent_claimant(&t, kPerf, 2, kGet));
  EXPECT_EQ(-1, ib_mad_agent_claimant(&t, kSa, 2, kTrap));
  EXPECT_EQ(-1, ib_mad_agent_claimant(&t, kSa, 4, kGet));
}

TEST_F(Mad, ConflictsAreFoundInEveryMethodWord) {
  for (unsigned m : {1u, 31u, 32u, 63u, 64u, 100u, 127u}) {
    ib_mad_agent_table_init(&t, 0);
    ASSERT_EQ(0, Reg(Claim(kSa, 2, {m})));
    ib_mad_agent_why why;
    const ib_mad_agent_claim again = Claim(kSa, 2, {m});
    EXPECT_EQ(-EINVAL, Reg(&again, &why)) << m;
    EXPECT_EQ(IB_MAD_AGENT_WHY_CONFLICT, why) << m;
    EXPECT_EQ(0, ib_mad_agent_claimant(&t, kSa, 2, (u8)m));
  }
}

TEST_F(Mad, TheTableHoldsItsBoundAndNoMore) {
  for (int i = 0; i < IB_MAD_AGENT_MAX; i++)
    ASSERT_EQ(i, Reg(Claim(kSa, 2, {(unsigned)i + 1 == 7 ? 100u : (unsigned)i + 1})));
  ib_mad_agent_why why;
  EXPECT_EQ(-ENOSPC, Reg(nullptr, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_FULL, why);
  ASSERT_EQ(0, ib_mad_agent_unregister(&t, &s, 5, &why));
  EXPECT_EQ(5, RegSendOnly()) << "the freed index is reused";
}

TEST_F(Mad, UnregisterNeedsARegisteredAgentWithoutSends) {
  ib_mad_agent_why why;
  EXPECT_EQ(-EINVAL, ib_mad_agent_unregister(&t, &s, 0, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_NO_AGENT, why);
  EXPECT_EQ(-EINVAL, ib_mad_agent_unregister(&t, &s, IB_MAD_AGENT_MAX, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_NO_AGENT, why);

  ASSERT_EQ(0, Reg(Claim(kSa, 2, {kGet})));
  const int slot = Post(0, ib_mad_agent_next_tid(&t, 0), kSa, 100, 1);
  ASSERT_GE(slot, 0);
  EXPECT_EQ(slot, ib_mad_send_first_of_agent(&s, 0));
  EXPECT_EQ(-EBUSY, ib_mad_agent_unregister(&t, &s, 0, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_BUSY, why);

  ib_mad_send_action a;
  ASSERT_EQ(0, ib_mad_send_cancel(&s, (u32)slot, &a));
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, a.what);  // posted: waits for its wc
  EXPECT_EQ(-EBUSY, ib_mad_agent_unregister(&t, &s, 0, nullptr));
  ExpectComplete(Wc(slot), slot, IB_MAD_SEND_ERR_CANCELED);
  EXPECT_EQ(-1, ib_mad_send_first_of_agent(&s, 0));
  EXPECT_EQ(0, ib_mad_agent_unregister(&t, &s, 0, &why));
  EXPECT_EQ(IB_MAD_AGENT_WHY_OK, why);
  EXPECT_EQ(-1, ib_mad_agent_claimant(&t, kSa, 2, kGet));
  EXPECT_EQ(-EINVAL, ib_mad_agent_unregister(&t, &s, 0, nullptr)) << "twice";
  EXPECT_EQ(0, Reg(Claim(kSa, 2, {kGet}))) << "the claim is free again";
}

// ------------------------------------------------------------------ TIDs

TEST_F(Mad, HiTidsAreHandedOutCyclicallyIn24Bits) {
  ib_mad_agent_table_init(&t, 0x1fffffe);  // masked to 24 bits
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(1, RegSendOnly());
  ASSERT_EQ(2, RegSendOnly());
  EXPECT_EQ(0xfffffeu, Hi(0));
  EXPECT_EQ(0xffffffu, Hi(1));
  EXPECT_EQ(0u, Hi(2));
  // unregistered hi_tids are not reused at once
  ASSERT_EQ(0, ib_mad_agent_unregister(&t, &s, 1, nullptr));
  ASSERT_EQ(1, RegSendOnly());
  EXPECT_EQ(1u, Hi(1));
}

TEST_F(Mad, AHiTidInUseIsSkipped) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(1, RegSendOnly());
  EXPECT_EQ(0u, Hi(0));
  EXPECT_EQ(1u, Hi(1));
  t.hi_tid_next = 0;  // as after 2^24 registrations
  ASSERT_EQ(2, RegSendOnly());
  EXPECT_EQ(2u, Hi(2));
  EXPECT_EQ(0, ib_mad_agent_by_hi_tid(&t, 0));
  EXPECT_EQ(2, ib_mad_agent_by_hi_tid(&t, 2));
  EXPECT_EQ(-1, ib_mad_agent_by_hi_tid(&t, 3));
}

TEST_F(Mad, TidsAreTheHiTidOverAPerAgentCounter) {
  ib_mad_agent_table_init(&t, 0x123456);
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(1, RegSendOnly());
  EXPECT_EQ(0x0012345600000000ull, ib_mad_agent_next_tid(&t, 0));
  EXPECT_EQ(0x0012345600000001ull, ib_mad_agent_next_tid(&t, 0));
  EXPECT_EQ(0x0012345700000000ull, ib_mad_agent_next_tid(&t, 1));
  EXPECT_EQ(0x0012345600000002ull, ib_mad_agent_next_tid(&t, 0));
  t.agent[1].tid_next = 0xffffffff;
  EXPECT_EQ(0x00123457ffffffffull, ib_mad_agent_next_tid(&t, 1));
  EXPECT_EQ(0x0012345700000000ull, ib_mad_agent_next_tid(&t, 1)) << "wraps in 32 bits";
  EXPECT_EQ(0u, ib_mad_agent_next_tid(&t, 2));
  EXPECT_EQ(0u, ib_mad_agent_next_tid(&t, IB_MAD_AGENT_MAX));
  ASSERT_EQ(0, ib_mad_agent_unregister(&t, &s, 1, nullptr));
  EXPECT_EQ(0u, ib_mad_agent_next_tid(&t, 1)) << "unregistered";
}

// -------------------------------------------------------------- dispatch

TEST_F(Mad, DropsBaseVersionsOtherThanOne) {
  ASSERT_EQ(0, Reg(Claim(kSa, 2, {kGet})));
  for (unsigned b : {0u, 2u, 0x80u, 0xffu}) {
    ib_mad_wire_hdr h = Hdr(kSa, 2, kGet, 0);
    h.base_version = (u8)b;
    ExpectDrop(Rx(h), IB_MAD_RX_WHY_BASE_VERSION);
  }
}

TEST_F(Mad, DropsSubnetManagementOnTheGsiQp) {
  for (unsigned c : {0x01u, 0x81u}) {
    ExpectDrop(Rx(Hdr((u8)c, 1, kGet, 0)), IB_MAD_RX_WHY_WRONG_QP);
    ExpectDrop(Rx(Hdr((u8)c, 1, kGetResp, 0)), IB_MAD_RX_WHY_WRONG_QP);
  }
}

TEST_F(Mad, DropsCmMethodsOtherThanSendExceptOnClassPortInfo) {
  ASSERT_EQ(0, Reg(Claim(kCm, 2, {kSend})));
  ExpectDrop(Rx(Hdr(kCm, 2, kGet, 0, 0x10)), IB_MAD_RX_WHY_CM_METHOD);
  ExpectDrop(Rx(Hdr(kCm, 2, kGetResp, 0, 0x10)), IB_MAD_RX_WHY_CM_METHOD);
  // ClassPortInfo passes; nobody claimed CM Get: the layer answers it
  const ib_mad_rx r = Rx(Hdr(kCm, 2, kGet, 0, IB_MAD_WIRE_ATTR_CLASS_PORT_INFO));
  EXPECT_EQ(IB_MAD_RX_REPLY, r.verdict);
  EXPECT_EQ(IB_MAD_RX_WHY_UNCLAIMED, r.why);
  EXPECT_EQ(IB_MAD_WIRE_STATUS_BAD_METHOD_ATTR, r.reply_status);
}

TEST_F(Mad, DropsCmSendsOfOtherClassVersions) {
  ASSERT_EQ(0, Reg(Claim(kCm, 1, {kSend})));
  ExpectDrop(Rx(Hdr(kCm, 1, kSend, 0)), IB_MAD_RX_WHY_CM_CLASS_VERSION);
}

TEST_F(Mad, DeliversARequestToItsClaimant) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(1, Reg(Claim(kCm, 2, {kSend})));
  const ib_mad_rx r = Rx(Hdr(kCm, 2, kSend, 0x1234567800000001ull));
  EXPECT_EQ(IB_MAD_RX_REQUEST, r.verdict);
  EXPECT_EQ(IB_MAD_RX_WHY_NONE, r.why);
  EXPECT_EQ(1, r.agent);
  EXPECT_EQ(-1, r.slot);
}

TEST_F(Mad, DropsOrAnswersRequestsNobodyClaimed) {
  ASSERT_EQ(0, Reg(Claim(kSa, 2, {kGet})));
  // Send, Trap, Report: dropped
  for (unsigned m : {kSend, kTrap, (u8)IB_MAD_WIRE_METHOD_REPORT, (u8)0x7f}) {
    const ib_mad_rx r = Rx(Hdr(kSa, 2, (u8)m, 0));
    ExpectDrop(r, IB_MAD_RX_WHY_UNCLAIMED);
  }
  // Get and Set: a GetResp with "unsupported method/attribute"
  for (const ib_mad_wire_hdr &h : {Hdr(kSa, 2, kSet, 0), Hdr(kSa, 3, kGet, 0),
                                   Hdr(kPerf, 1, kGet, 0)}) {
    const ib_mad_rx r = Rx(h);
    EXPECT_EQ(IB_MAD_RX_REPLY, r.verdict);
    EXPECT_EQ(IB_MAD_RX_WHY_UNCLAIMED, r.why);
    EXPECT_EQ(0x000c, r.reply_status);
    EXPECT_EQ(-1, r.agent);
  }
}

TEST_F(Mad, RequestsOfClassesNoAgentCanClaimAreUnsupported) {
  for (unsigned c = 0; c < 256; c++) {
    if (c == 0x01 || c == 0x81 || c == kCm) continue;  // checked above
    const bool claimable = c >= 0x02 && c <= 0x2f;
    const ib_mad_rx send = Rx(Hdr((u8)c, 1, kSend, 0));
    ExpectDrop(send, claimable ? IB_MAD_RX_WHY_UNCLAIMED : IB_MAD_RX_WHY_UNSUPPORTED_CLASS);
    const ib_mad_rx get = Rx(Hdr((u8)c, 1, kGet, 0));
    EXPECT_EQ(IB_MAD_RX_REPLY, get.verdict) << c;
    EXPECT_EQ(claimable ? IB_MAD_RX_WHY_UNCLAIMED : IB_MAD_RX_WHY_UNSUPPORTED_CLASS, get.why) << c;
  }
  ExpectDrop(Rx(Hdr(kSa, 8, kSend, 0)), IB_MAD_RX_WHY_UNSUPPORTED_CLASS);
  EXPECT_EQ(IB_MAD_RX_WHY_UNSUPPORTED_CLASS, Rx(Hdr(kSa, 0xff, kGet, 0)).why);
}

TEST_F(Mad, WhichMethodsAreResponses) {
  ASSERT_EQ(0, RegSendOnly());
  // Every method with bit 7, TrapRepress, and BM with the response bit
  // route by TID: with no send outstanding they find none.
  for (unsigned m = 0x80; m < 0x100; m++)
    ExpectDrop(Rx(Hdr(kSa, 2, (u8)m, 0)), IB_MAD_RX_WHY_NO_SEND);
  ExpectDrop(Rx(Hdr(kSa, 2, IB_MAD_WIRE_METHOD_TRAP_REPRESS, 0)), IB_MAD_RX_WHY_NO_SEND);
  ib_mad_wire_hdr bm = Hdr(IB_MAD_WIRE_CLASS_BM, 1, kSend, 0);
  bm.attr_mod = IB_MAD_WIRE_BM_ATTR_MOD_RESP;
  ExpectDrop(Rx(bm), IB_MAD_RX_WHY_NO_SEND);
  bm.attr_mod = 0;
  ExpectDrop(Rx(bm), IB_MAD_RX_WHY_UNCLAIMED);  // a BM request
  // the other methods are requests
  for (unsigned m = 1; m < 0x80; m++) {
    if (m == IB_MAD_WIRE_METHOD_TRAP_REPRESS) continue;
    const ib_mad_rx r = Rx(Hdr(kSa, 2, (u8)m, 0));
    EXPECT_EQ(IB_MAD_RX_WHY_UNCLAIMED, r.why) << m;
  }
}

TEST_F(Mad, ResponsesGoToTheAgentNamedByTheTidsHighWord) {
  ASSERT_EQ(0, Reg(Claim(kSa, 2, {kGet})));  // claims SA Get requests
  ASSERT_EQ(1, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 1);
  const int slot = Post(1, tid, kSa, 100, 0);
  ASSERT_GE(slot, 0);
  const ib_mad_rx r = Rx(Hdr(kSa, 2, kGetResp, tid));
  EXPECT_EQ(IB_MAD_RX_RESPONSE, r.verdict);
  EXPECT_EQ(1, r.agent) << "by TID, not by class";
  EXPECT_EQ(slot, r.slot);
  // the claimant's hi_tid with the sender's counter: not agent 0's send
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, ib_mad_wire_tid(Hi(0), (u32)tid))),
             IB_MAD_RX_WHY_NO_SEND);
  // a hi_tid nobody holds, and the top byte set
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, ib_mad_wire_tid(0x777, (u32)tid))),
             IB_MAD_RX_WHY_NO_TID_AGENT);
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, tid | 1ull << 56)), IB_MAD_RX_WHY_NO_TID_AGENT);
  // a send may carry another agent's TID (an answer echoes the asker's),
  // but a response goes by the TID's agent, which did not send it
  const u64 foreign = ib_mad_wire_tid(Hi(0), 0x4242);
  ASSERT_GE(Post(1, foreign, kSa, 100, 0), 0);
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, foreign)), IB_MAD_RX_WHY_NO_SEND);
}

TEST_F(Mad, AResponseMustMatchTidAndClassOfAnOutstandingSend) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 0));
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, tid + 1)), IB_MAD_RX_WHY_NO_SEND);
  ExpectDrop(Rx(Hdr(kPerf, 2, kGetResp, tid)), IB_MAD_RX_WHY_NO_SEND);
  EXPECT_EQ(IB_MAD_RX_RESPONSE, Rx(Hdr(kSa, 9, kGetResp, tid)).verdict)
      << "the class version plays no part";
}

TEST_F(Mad, ASendWithoutTimeoutTakesNoResponse) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 0, 3));
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, tid)), IB_MAD_RX_WHY_NO_SEND);
  ib_mad_send_action a;
  EXPECT_EQ(-EINVAL, ib_mad_send_on_response(&s, 0, &a));
}

TEST_F(Mad, AResponseMustComeFromTheSendsPeer) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 0, kPeerA));
  const ib_mad_wire_hdr h = Hdr(kSa, 2, kGetResp, tid);
  ExpectDrop(Rx(h, kPeerB), IB_MAD_RX_WHY_NO_SEND);
  ExpectDrop(Rx(h, nullptr), IB_MAD_RX_WHY_NO_SEND);
  EXPECT_EQ(IB_MAD_RX_RESPONSE, Rx(h, kPeerA).verdict);
  // a send that named no peer takes an answer from anyone
  const u64 tid2 = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(1, Post(0, tid2, kSa, 100, 0));
  EXPECT_EQ(1, Rx(Hdr(kSa, 2, kGetResp, tid2), kPeerB).slot);
  EXPECT_EQ(1, Rx(Hdr(kSa, 2, kGetResp, tid2), nullptr).slot);
}

TEST_F(Mad, AWaitingSendWinsThenTheEarliestPosted) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 0));
  ASSERT_EQ(1, Post(0, tid, kSa, 100, 0));
  ASSERT_EQ(2, Post(0, tid, kSa, 100, 0));
  const ib_mad_wire_hdr h = Hdr(kSa, 2, kGetResp, tid);
  EXPECT_EQ(0, Rx(h).slot);
  Wc(2);
  EXPECT_EQ(2, Rx(h).slot);
  Wc(1);
  EXPECT_EQ(1, Rx(h).slot);
}

TEST_F(Mad, DispatchChangesNothing) {
  ASSERT_EQ(0, Reg(Claim(kSa, 2, {kGet})));
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 0));
  ib_mad_agent_table t0;
  ib_mad_send_table s0;
  memcpy(&t0, &t, sizeof(t));
  memcpy(&s0, &s, sizeof(s));
  Rx(Hdr(kSa, 2, kGetResp, tid));
  Rx(Hdr(kSa, 2, kGet, tid));
  EXPECT_EQ(0, memcmp(&t0, &t, sizeof(t)));
  EXPECT_EQ(0, memcmp(&s0, &s, sizeof(s)));
}

TEST_F(Mad, RawMadsMustBe256Bytes) {
  ASSERT_EQ(0, Reg(Claim(kCm, 2, {kSend})));
  u8 mad[300];
  memset(mad, 0, sizeof(mad));
  const ib_mad_wire_hdr want = Hdr(kCm, 2, kSend, 0x0102030405060708ull);
  ASSERT_EQ(0, ib_mad_wire_hdr_encode(mad, sizeof(mad), &want));
  ib_mad_wire_hdr h;
  ib_mad_rx r;
  for (u32 len : {0u, 23u, 24u, 255u, 257u, 300u}) {
    EXPECT_EQ(IB_MAD_RX_DROP, ib_mad_rx_dispatch_raw(&t, &s, mad, len, nullptr, &h, &r));
    EXPECT_EQ(IB_MAD_RX_WHY_SIZE, r.why) << len;
  }
  EXPECT_EQ(IB_MAD_RX_REQUEST, ib_mad_rx_dispatch_raw(&t, &s, mad, 256, nullptr, &h, &r));
  EXPECT_EQ(0, r.agent);
  EXPECT_EQ(want.tid, h.tid);
}

// ---------------------------------------------------------------- sends

TEST_F(Mad, PostNeedsAnAgentAndAFreeSlot) {
  EXPECT_EQ(-EINVAL, Post(0, 1, kSa, 0, 0));
  EXPECT_EQ(-EINVAL, Post(IB_MAD_AGENT_MAX, 1, kSa, 0, 0));
  ASSERT_EQ(0, RegSendOnly());
  for (int i = 0; i < IB_MAD_SEND_MAX; i++) ASSERT_EQ(i, Post(0, (u64)i, kSa, 100, 0));
  EXPECT_EQ((u32)IB_MAD_SEND_MAX, s.used);
  EXPECT_EQ(-ENOSPC, Post(0, 999, kSa, 100, 0));
  ExpectComplete(Wc(17, false), 17, IB_MAD_SEND_ERR_WC);
  EXPECT_EQ((u32)IB_MAD_SEND_MAX - 1, s.used);
  EXPECT_EQ(17, Post(0, 999, kSa, 100, 0));
}

TEST_F(Mad, ASendWithoutTimeoutCompletesAtItsWc) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(0, Post(0, 0x55, kSa, 0, 5));
  const ib_mad_send_action a = Wc(0);
  ExpectComplete(a, 0, IB_MAD_SEND_OK);
  EXPECT_EQ(0x55u, a.tid);
  EXPECT_EQ(0, a.agent);
  EXPECT_EQ(IB_MAD_SEND_FREE, s.slot[0].state);
  EXPECT_EQ(0u, s.used);
  ib_mad_send_action b;
  EXPECT_EQ(-EINVAL, ib_mad_send_on_wc(&s, 0, true, now, &b)) << "once only";
  EXPECT_EQ(-1, b.slot);
}

TEST_F(Mad, AFailedWcCompletesWithItsError) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(0, Post(0, 1, kSa, 100, 5));
  ExpectComplete(Wc(0, false), 0, IB_MAD_SEND_ERR_WC);
}

TEST_F(Mad, TheWaitStartsAtTheSendCompletion) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(0, Post(0, 1, kSa, 100, 0));
  u64 d = 0;
  EXPECT_FALSE(ib_mad_send_next_deadline(&s, &d)) << "posted, not waiting";
  now += 50;
  const ib_mad_send_action a = Wc(0);
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, a.what);
  EXPECT_EQ(0, a.slot);
  EXPECT_EQ(IB_MAD_SEND_WAIT, s.slot[0].state);
  ASSERT_TRUE(ib_mad_send_next_deadline(&s, &d));
  EXPECT_EQ(1150u, d);
  now = 1149;
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, Timer().what);
  EXPECT_EQ(-1, Timer().slot);
  now = 1150;
  ExpectComplete(Timer(), 0, IB_MAD_SEND_ERR_TIMEOUT);
}

TEST_F(Mad, AResponseCompletesAWaitingSend) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 2));
  Wc(0);
  const ib_mad_rx r = Rx(Hdr(kSa, 2, kGetResp, tid));
  ASSERT_EQ(IB_MAD_RX_RESPONSE, r.verdict);
  ib_mad_send_action a;
  ASSERT_EQ(0, ib_mad_send_on_response(&s, (u32)r.slot, &a));
  ExpectComplete(a, 0, IB_MAD_SEND_OK);
  EXPECT_EQ(tid, a.tid);
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, tid)), IB_MAD_RX_WHY_NO_SEND);
  EXPECT_EQ(-EINVAL, ib_mad_send_on_response(&s, 0, &a));
}

TEST_F(Mad, AResponseBeforeTheWcCompletesAtTheWc) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 2));
  const ib_mad_rx r = Rx(Hdr(kSa, 2, kGetResp, tid));
  ASSERT_EQ(IB_MAD_RX_RESPONSE, r.verdict);
  ib_mad_send_action a;
  ASSERT_EQ(0, ib_mad_send_on_response(&s, 0, &a));
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, a.what);
  // a second response finds nothing; the wc completes the send
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, tid)), IB_MAD_RX_WHY_NO_SEND);
  EXPECT_EQ(-EINVAL, ib_mad_send_on_response(&s, 0, &a));
  ExpectComplete(Wc(0), 0, IB_MAD_SEND_OK);
}

TEST_F(Mad, RetriesAreCountedExactly) {
  ASSERT_EQ(0, RegSendOnly());
  for (u32 retries : {0u, 1u, 3u, 15u}) {
    const int slot = Post(0, ib_mad_agent_next_tid(&t, 0), kSa, 40, retries);
    ASSERT_GE(slot, 0);
    u32 sends = 1, resends = 0;
    for (;;) {
      ASSERT_LE(sends, retries + 1) << "resent more often than allowed";
      now += 3;  // the wc comes a little later each time
      ASSERT_EQ(IB_MAD_SEND_DO_NOTHING, Wc(slot).what);
      now += 39;
      ASSERT_EQ(IB_MAD_SEND_DO_NOTHING, Timer().what);
      now += 1;
      const ib_mad_send_action a = Timer();
      if (a.what == IB_MAD_SEND_DO_RESEND) {
        EXPECT_EQ(slot, a.slot);
        EXPECT_EQ(++resends, a.resent);
        EXPECT_EQ(IB_MAD_SEND_POSTED, s.slot[slot].state);
        EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, Timer().what) << "resent: not waiting";
        sends++;
        continue;
      }
      ExpectComplete(a, slot, IB_MAD_SEND_ERR_TIMEOUT);
      EXPECT_EQ(retries, a.resent);
      break;
    }
    EXPECT_EQ(retries + 1, sends);
    EXPECT_EQ(retries, resends);
  }
}

TEST_F(Mad, TimersFireInDeadlineOrderThenPostOrder) {
  ASSERT_EQ(0, RegSendOnly());
  // slot: timeout, wc time
  const u32 timeout[5] = {300, 100, 200, 100, 50};
  const u64 wc_at[5] = {1000, 1000, 1000, 1000, 1050};
  for (int i = 0; i < 5; i++) ASSERT_EQ(i, Post(0, (u64)i, kSa, timeout[i], 0));
  for (int i = 4; i >= 0; i--) {
    now = wc_at[i];
    Wc(i);
  }
  u64 d;
  ASSERT_TRUE(ib_mad_send_next_deadline(&s, &d));
  EXPECT_EQ(1100u, d);
  // deadlines: 1300, 1100, 1200, 1100, 1100: slots 1, 3, 4, 2, 0
  now = 5000;
  std::vector<int> order;
  for (ib_mad_send_action a = Timer(); a.what != IB_MAD_SEND_DO_NOTHING; a = Timer()) {
    EXPECT_EQ(IB_MAD_SEND_DO_COMPLETE, a.what);
    order.push_back(a.slot);
  }
  EXPECT_EQ((std::vector<int>{1, 3, 4, 2, 0}), order);
  EXPECT_FALSE(ib_mad_send_next_deadline(&s, &d));
}

TEST_F(Mad, OnlyExpiredSendsFire) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(0, Post(0, 0, kSa, 100, 0));
  ASSERT_EQ(1, Post(0, 1, kSa, 200, 0));
  Wc(0);
  Wc(1);
  now += 150;
  ExpectComplete(Timer(), 0, IB_MAD_SEND_ERR_TIMEOUT);
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, Timer().what);
  EXPECT_EQ(IB_MAD_SEND_WAIT, s.slot[1].state);
}

TEST_F(Mad, CancelCompletesAWaitingSendNowAndAPostedOneAtItsWc) {
  ASSERT_EQ(0, RegSendOnly());
  const u64 tid = ib_mad_agent_next_tid(&t, 0);
  ASSERT_EQ(0, Post(0, tid, kSa, 100, 5));
  ASSERT_EQ(1, Post(0, tid + 1, kSa, 100, 5));
  Wc(0);
  ib_mad_send_action a;
  ASSERT_EQ(0, ib_mad_send_cancel(&s, 0, &a));
  ExpectComplete(a, 0, IB_MAD_SEND_ERR_CANCELED);
  EXPECT_EQ(-EINVAL, ib_mad_send_cancel(&s, 0, &a)) << "free now";

  ASSERT_EQ(0, ib_mad_send_cancel(&s, 1, &a));
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, a.what);
  ASSERT_EQ(0, ib_mad_send_cancel(&s, 1, &a)) << "twice is harmless";
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, a.what);
  ExpectDrop(Rx(Hdr(kSa, 2, kGetResp, tid + 1)), IB_MAD_RX_WHY_NO_SEND);
  ExpectComplete(Wc(1, true), 1, IB_MAD_SEND_ERR_CANCELED);
  EXPECT_EQ(0u, s.used);

  ASSERT_EQ(0, Post(0, tid, kSa, 0, 0));
  ASSERT_EQ(0, ib_mad_send_cancel(&s, 0, &a));
  // canceled wins over the wc error
  ExpectComplete(Wc(0, false), 0, IB_MAD_SEND_ERR_CANCELED);
  EXPECT_EQ(-EINVAL, ib_mad_send_cancel(&s, IB_MAD_SEND_MAX, &a));
}

TEST_F(Mad, ModifyRetimesTheWaitAndLaterTries) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(0, Post(0, 1, kSa, 100, 1));
  Wc(0);  // deadline 1100
  now = 1050;
  ib_mad_send_action a;
  ASSERT_EQ(0, ib_mad_send_modify(&s, 0, 500, now, &a));
  EXPECT_EQ(IB_MAD_SEND_DO_NOTHING, a.what);
  u64 d;
  ASSERT_TRUE(ib_mad_send_next_deadline(&s, &d));
  EXPECT_EQ(1550u, d);
  now = 1550;
  EXPECT_EQ(IB_MAD_SEND_DO_RESEND, Timer().what);
  now = 1600;
  Wc(0);
  ASSERT_TRUE(ib_mad_send_next_deadline(&s, &d));
  EXPECT_EQ(2100u, d) << "the next try waits the new timeout";
  // while posted: only the timeout changes
  ASSERT_EQ(1, Post(0, 2, kSa, 100, 0));
  ASSERT_EQ(0, ib_mad_send_modify(&s, 1, 30, now, &a));
  now = 1700;
  Wc(1);
  EXPECT_EQ(1730u, s.slot[1].deadline_ms);
}

TEST_F(Mad, ModifyToZeroCancelsAndSomeSlotsCannotBeModified) {
  ASSERT_EQ(0, RegSendOnly());
  ASSERT_EQ(0, Post(0, 1, kSa, 100, 1));
  Wc(0);
  ib_mad_send_action a;
  ASSERT_EQ(0, ib_mad_send_modify(&s, 0, 0, now, &a));
  ExpectComplete(a, 0, IB_MAD_SEND_ERR_CANCELED);
  EXPECT_EQ(-EINVAL, ib_mad_send_modify(&s, 0, 10, now, &a)) << "free";
  EXPECT_EQ(-EINVAL, ib_mad_send_modify(&s, IB_MAD_SEND_MAX, 10, now, &a));
  ASSERT_EQ(0, Post(0, 1, kSa, 0, 0));
  EXPECT_EQ(-EINVAL, ib_mad_send_modify(&s, 0, 10, now, &a)) << "expects no response";
  ASSERT_EQ(1, Post(0, 2, kSa, 100, 0));
  ASSERT_EQ(0, ib_mad_send_cancel(&s, 1, &a));
  EXPECT_EQ(-EINVAL, ib_mad_send_modify(&s, 1, 10, now, &a)) << "canceled";
}

TEST_F(Mad, EventsOnTheWrongSlotAreRefused) {
  ASSERT_EQ(0, RegSendOnly());
  ib_mad_send_action a;
  EXPECT_EQ(-EINVAL, ib_mad_send_on_wc(&s, 0, true, now, &a));
  EXPECT_EQ(-EINVAL, ib_mad_send_on_wc(&s, IB_MAD_SEND_MAX, true, now, &a));
  EXPECT_EQ(-EINVAL, ib_mad_send_on_response(&s, IB_MAD_SEND_MAX, &a));
  ASSERT_EQ(0, Post(0, 1, kSa, 100, 0));
  Wc(0);
  EXPECT_EQ(-EINVAL, ib_mad_send_on_wc(&s, 0, true, now, &a)) << "waiting";
}

TEST(MadTime, DeadlinesSaturateAndGiveUpIsTriesTimesTimeout) {
  EXPECT_EQ(150u, ib_mad_send_deadline(100, 50));
  EXPECT_EQ(~0ull, ib_mad_send_deadline(~0ull - 10, 11));
  EXPECT_EQ(~0ull - 1, ib_mad_send_deadline(~0ull - 11, 10));
  EXPECT_EQ(0u, ib_mad_send_give_up_ms(0, 100));
  EXPECT_EQ(100u, ib_mad_send_give_up_ms(100, 0));
  EXPECT_EQ(1600u, ib_mad_send_give_up_ms(100, 15));
  EXPECT_EQ(0xffffffffull << 32, ib_mad_send_give_up_ms(0xffffffff, 0xffffffff));
}

// ----------------------------------------------------------------- names

template <typename E>
void ExpectNames(const char *(*str)(E), unsigned count) {
  std::set<std::string> seen;
  for (unsigned i = 0; i < count; i++) {
    const char *n = str(static_cast<E>(i));
    ASSERT_NE(nullptr, n);
    EXPECT_STRNE("unknown", n) << i;
    EXPECT_TRUE(seen.insert(n).second) << n;
  }
  EXPECT_STREQ("unknown", str(static_cast<E>(count)));
  EXPECT_STREQ("unknown", str(static_cast<E>(-1)));
}

TEST(MadNames, EveryValueHasItsOwnName) {
  ExpectNames(ib_mad_agent_why_str, IB_MAD_AGENT_WHY_NUM);
  ExpectNames(ib_mad_rx_why_str, IB_MAD_RX_WHY_NUM);
  ExpectNames(ib_mad_rx_verdict_str, IB_MAD_RX_REQUEST + 1);
  ExpectNames(ib_mad_send_do_str, IB_MAD_SEND_DO_COMPLETE + 1);
  ExpectNames(ib_mad_send_status_str, IB_MAD_SEND_ERR_CANCELED + 1);
}

}  // namespace
