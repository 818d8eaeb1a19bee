// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/mad_agent.c: random
// sequences of register, unregister, send, send completion, timer,
// response, request, cancel and modify on one port, checked against a
// shadow model kept here.
//
// Input: 4-byte records (op, a, b, c); a trailing partial record is
// ignored.  op % 10 picks the operation:
//   0 register    a: class (bits 0-2 index a list, bit 7 send-only),
//                 b: class version (bits 0-3); bit 4 first turns the
//                 hi_tid cursor onto agent (a >> 3)'s hi_tid, as 2^24
//                 registrations would; c: methods (a bit per method of a
//                 list, 0 and TrapRepress included)
//   1 unregister  a: agent index (past the bound too)
//   2 post        a: agent, b: TID (bits 0-1: own next, a TID of a send
//                 outstanding, another agent's, random), class (bits 2-3),
//                 c: timeout (bits 0-1, 10 ms steps, 0: no response),
//                 retries (bits 2-3), peer (bits 4-5)
//   3 send wc     a: slot pick, b: bit 0 the wc failed, c: ms to advance
//   4 timer       a: ms to advance (times 4); every expired send fires
//   5 response    a: slot pick (its TID), b: method/class twist, c: source
//   6 request     a: class, b: version, c: method
//   7 cancel      a: slot pick
//   8 modify      a: slot pick, b: timeout (0 cancels)
//   9 raw MAD     the 3 bytes spread over a header (base version, class,
//                 method, TID of a send), dispatched raw
// A slot pick takes an occupied slot (a % their number) unless bit 7 of
// a is set: then a & 0x7f is the slot, free or not.  At the end every
// outstanding send is canceled and completed.
//
// Checked: every call's result against the shadow; no agent is handed a
// response to a send it did not post, nor a response twice; every send
// completes exactly once, with the status its history implies; a timed
// out send was resent exactly `retries` times; the timer fires in
// deadline order and only for expired sends; the tables never exceed
// their bounds; dispatch changes nothing.

#include <rdma/ib_mad_agent.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void Fail(const char *what, int line) {
  std::fprintf(stderr, "mad_agent_fuzz:%d: %s\n", line, what);
  std::abort();
}

#define REQUIRE(cond)                    \
  do {                                   \
    if (!(cond)) Fail(#cond, __LINE__);  \
  } while (0)

const u8 kClasses[8] = {0x03, 0x04, 0x07, 0x01, 0x30, 0x2f, 0x50, 0x00};
const u8 kMethods[8] = {0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0x00, 0x7f};
const u8 kPeerA[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
const u8 kPeerB[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2};

const u8 *Peer(unsigned bits) {
  switch (bits & 3) {
    case 1: return kPeerA;
    case 2: return kPeerB;
    default: return nullptr;
  }
}

struct ShadowAgent {
  bool used = false;
  bool has_claim = false;
  u8 cls = 0, ver = 0;
  bool method[128] = {};
  u32 hi = 0;
};

struct ShadowSend {
  bool used = false;
  bool waiting = false;  // else posted
  bool canceled = false;
  bool answered = false;
  u64 id = 0;  // unique per post
  u32 agent = 0;
  u64 tid = 0;
  u8 cls = 0;
  u32 timeout = 0, retries = 0, resent = 0;
  u64 deadline = 0, seq = 0;
  const u8 *peer = nullptr;
};

struct Run {
  ib_mad_agent_table t;
  ib_mad_send_table s;
  ShadowAgent ag[IB_MAD_AGENT_MAX];
  ShadowSend sd[IB_MAD_SEND_MAX];
  std::vector<u8> completed;  // by post id: times completed
  u64 now = 0, posts = 0;

  Run() {
    ib_mad_agent_table_init(&t, 0xfffff0);
    ib_mad_send_table_init(&s);
  }

  // ---- helpers ----

  int Pick(u8 a) {
    if (a & 0x80) return a & 0x7f;
    int used[IB_MAD_SEND_MAX], n = 0;
    for (int i = 0; i < IB_MAD_SEND_MAX; i++)
      if (sd[i].used) used[n++] = i;
    return n ? used[a % n] : 0;
  }

  void Completed(const ib_mad_send_action &act, unsigned status) {
    REQUIRE(act.what == IB_MAD_SEND_DO_COMPLETE);
    REQUIRE(act.slot >= 0 && act.slot < IB_MAD_SEND_MAX);
    ShadowSend &x = sd[act.slot];
    REQUIRE(x.used);
    REQUIRE(act.status == status);
    REQUIRE(act.agent == x.agent && act.tid == x.tid && act.resent == x.resent);
    if (status == IB_MAD_SEND_ERR_TIMEOUT) REQUIRE(x.resent == x.retries);
    REQUIRE(completed[x.id] == 0);  // exactly once
    completed[x.id]++;
    x = ShadowSend();
    REQUIRE(s.slot[act.slot].state == IB_MAD_SEND_FREE);
  }

  void CheckTables() {
    u32 n = 0;
    for (int i = 0; i < IB_MAD_SEND_MAX; i++) {
      const ShadowSend &x = sd[i];
      const ib_mad_send_slot &p = s.slot[i];
      n += x.used;
      if (!x.used) {
        REQUIRE(p.state == IB_MAD_SEND_FREE);
        continue;
      }
      REQUIRE(p.state == (x.waiting ? IB_MAD_SEND_WAIT : IB_MAD_SEND_POSTED));
      REQUIRE(p.agent == x.agent && p.tid == x.tid && p.resent == x.resent);
      REQUIRE(p.resent <= p.retries);
      if (x.waiting) REQUIRE(p.deadline_ms == x.deadline);
      REQUIRE(ag[x.agent].used);  // no send outlives its agent
    }
    REQUIRE(s.used == n && n <= IB_MAD_SEND_MAX);
    for (int i = 0; i < IB_MAD_AGENT_MAX; i++) {
      REQUIRE(t.agent[i].used == ag[i].used);
      if (!ag[i].used) continue;
      REQUIRE(t.agent[i].hi_tid == ag[i].hi);
      REQUIRE(ag[i].hi <= IB_MAD_WIRE_AGENT_ID_MASK);
      for (int j = 0; j < i; j++) REQUIRE(!ag[j].used || ag[j].hi != ag[i].hi);
    }
  }

  // ---- operations ----

  void Register(u8 a, u8 b, u8 c) {
    ib_mad_agent_claim cl;
    std::memset(&cl, 0, sizeof(cl));
    cl.mgmt_class = kClasses[a & 7];
    cl.class_version = b & 15;
    for (int i = 0; i < 8; i++)
      if (c >> i & 1) ib_mad_agent_claim_method(&cl, kMethods[i]);
    const bool send_only = a & 0x80;
    if (b & 0x10) t.hi_tid_next = ag[(a >> 3) % IB_MAD_AGENT_MAX].hi;

    // what the rules say
    ib_mad_agent_why want = IB_MAD_AGENT_WHY_OK;
    if (!send_only) {
      const u8 k = cl.mgmt_class;
      bool any = false, bad = false;
      for (int m = 0; m < 128; m++)
        if (ib_mad_agent_claims_method(&cl, (u8)m)) {
          any = true;
          bad |= m == 0 || m == 7;
        }
      if (k == 1 || k == 0x81) want = IB_MAD_AGENT_WHY_SMI_CLASS;
      else if (k >= 0x30 && k <= 0x4f) want = IB_MAD_AGENT_WHY_VENDOR_OUI;
      else if (k < 2 || k > 0x2f) want = IB_MAD_AGENT_WHY_BAD_CLASS;
      else if (cl.class_version >= 8) want = IB_MAD_AGENT_WHY_BAD_VERSION;
      else if (!any) want = IB_MAD_AGENT_WHY_NO_METHODS;
      else if (bad) want = IB_MAD_AGENT_WHY_BAD_METHOD;
      for (int i = 0; want == IB_MAD_AGENT_WHY_OK && i < IB_MAD_AGENT_MAX; i++) {
        if (!ag[i].used || !ag[i].has_claim || ag[i].cls != cl.mgmt_class ||
            ag[i].ver != cl.class_version)
          continue;
        for (int m = 0; m < 128; m++)
          if (ag[i].method[m] && ib_mad_agent_claims_method(&cl, (u8)m))
            want = IB_MAD_AGENT_WHY_CONFLICT;
      }
    }
    int free_idx = -1;
    for (int i = 0; i < IB_MAD_AGENT_MAX && free_idx < 0; i++)
      if (!ag[i].used) free_idx = i;
    if (want == IB_MAD_AGENT_WHY_OK && free_idx < 0) want = IB_MAD_AGENT_WHY_FULL;

    ib_mad_agent_why why = IB_MAD_AGENT_WHY_NUM;
    const int r = ib_mad_agent_register(&t, send_only ? nullptr : &cl, &why);
    REQUIRE(why == want);
    REQUIRE(ib_mad_agent_why_str(why) != nullptr);
    if (want != IB_MAD_AGENT_WHY_OK) {
      REQUIRE(r < 0);
      return;
    }
    REQUIRE(r == free_idx);
    ShadowAgent &x = ag[r];
    x = ShadowAgent();
    x.used = true;
    x.has_claim = !send_only;
    x.cls = cl.mgmt_class;
    x.ver = cl.class_version;
    for (int m = 0; m < 128; m++) x.method[m] = !send_only && ib_mad_agent_claims_method(&cl, (u8)m);
    x.hi = t.agent[r].hi_tid;
  }

  void Unregister(u8 a) {
    const u32 i = a % (IB_MAD_AGENT_MAX + 2);
    ib_mad_agent_why why;
    const int r = ib_mad_agent_unregister(&t, &s, i, &why);
    if (i >= IB_MAD_AGENT_MAX || !ag[i].used) {
      REQUIRE(r == -EINVAL && why == IB_MAD_AGENT_WHY_NO_AGENT);
      return;
    }
    bool busy = false;
    for (const ShadowSend &x : sd) busy |= x.used && x.agent == i;
    if (busy) {
      REQUIRE(r == -EBUSY && why == IB_MAD_AGENT_WHY_BUSY);
      return;
    }
    REQUIRE(r == 0);
    ag[i].used = false;
  }

  void Post(u8 a, u8 b, u8 c) {
    const u32 agent = a % (IB_MAD_AGENT_MAX + 1);
    u64 tid;
    switch (b & 3) {
      case 0: tid = ib_mad_agent_next_tid(&t, agent); break;
      case 1: tid = sd[Pick(a & 0x7f)].tid; break;
      case 2: tid = ib_mad_wire_tid(ag[(a >> 3) % IB_MAD_AGENT_MAX].hi, b); break;
      default: tid = (u64)a << 40 | (u64)b << 20 | c; break;
    }
    ib_mad_send_args args = {agent, tid, kClasses[b >> 2 & 3], (c & 3) * 10u,
                             (u32)(c >> 2 & 3), Peer(c >> 4)};
    int n = 0;
    for (const ShadowSend &x : sd) n += x.used;
    const int r = ib_mad_send_post(&s, &t, &args);
    if (agent >= IB_MAD_AGENT_MAX || !ag[agent].used) {
      REQUIRE(r == -EINVAL);
      return;
    }
    if (n == IB_MAD_SEND_MAX) {
      REQUIRE(r == -ENOSPC);
      return;
    }
    REQUIRE(r >= 0 && r < IB_MAD_SEND_MAX && !sd[r].used);
    ShadowSend &x = sd[r];
    x.used = true;
    x.id = posts++;
    completed.push_back(0);
    x.agent = agent;
    x.tid = tid;
    x.cls = args.mgmt_class;
    x.timeout = args.timeout_ms;
    x.retries = args.retries;
    x.peer = args.peer_gid;
    x.seq = x.id;
  }

  void Wc(u8 a, u8 b, u8 c) {
    now += c;
    const int i = Pick(a);
    ShadowSend &x = sd[i];
    ib_mad_send_action act;
    const int r = ib_mad_send_on_wc(&s, (u32)i, !(b & 1), now, &act);
    if (!x.used || x.waiting) {
      REQUIRE(r == -EINVAL && act.what == IB_MAD_SEND_DO_NOTHING);
      return;
    }
    REQUIRE(r == 0);
    if (x.canceled) return Completed(act, IB_MAD_SEND_ERR_CANCELED);
    if (b & 1) return Completed(act, IB_MAD_SEND_ERR_WC);
    if (!x.timeout || x.answered) return Completed(act, IB_MAD_SEND_OK);
    REQUIRE(act.what == IB_MAD_SEND_DO_NOTHING);
    x.waiting = true;
    x.deadline = now + x.timeout;
  }

  void Timer(u8 a) {
    now += (u64)a * 4;
    u64 last = 0;
    for (int guard = 0;; guard++) {
      REQUIRE(guard <= IB_MAD_SEND_MAX);  // each slot fires once per call
      // the shadow's choice: earliest deadline, then earliest post
      int want = -1;
      for (int i = 0; i < IB_MAD_SEND_MAX; i++) {
        const ShadowSend &x = sd[i];
        if (!x.used || !x.waiting || x.deadline > now) continue;
        if (want < 0 || x.deadline < sd[want].deadline ||
            (x.deadline == sd[want].deadline && x.seq < sd[want].seq))
          want = i;
      }
      ib_mad_send_action act;
      ib_mad_send_on_timer(&s, now, &act);
      if (want < 0) {
        REQUIRE(act.what == IB_MAD_SEND_DO_NOTHING && act.slot == -1);
        return;
      }
      REQUIRE(act.slot == want);
      ShadowSend &x = sd[want];
      REQUIRE(x.deadline >= last);
      last = x.deadline;
      if (x.resent < x.retries) {
        REQUIRE(act.what == IB_MAD_SEND_DO_RESEND);
        x.resent++;
        REQUIRE(act.resent == x.resent && act.tid == x.tid);
        x.waiting = false;
      } else {
        Completed(act, IB_MAD_SEND_ERR_TIMEOUT);
      }
    }
  }

  // which slot the rules say @h from @src answers, or -1 / -2 (no agent)
  int Expected(const ib_mad_wire_hdr &h, const u8 *src) {
    int agent = -1;
    for (int i = 0; i < IB_MAD_AGENT_MAX; i++)
      if (ag[i].used && ag[i].hi == (u32)(h.tid >> 32)) agent = i;
    if (agent < 0) return -2;
    int best = -1;
    for (int i = 0; i < IB_MAD_SEND_MAX; i++) {
      const ShadowSend &x = sd[i];
      if (!x.used || x.agent != (u32)agent || !x.timeout || x.canceled) continue;
      if (!x.waiting && x.answered) continue;
      if (x.tid != h.tid || x.cls != h.mgmt_class) continue;
      if (x.peer && (!src || std::memcmp(x.peer, src, 16))) continue;
      if (best < 0 || (x.waiting && !sd[best].waiting) ||
          (x.waiting == sd[best].waiting && x.seq < sd[best].seq))
        best = i;
    }
    return best;
  }

  ib_mad_rx Dispatch(const ib_mad_wire_hdr &h, const u8 *src) {
    static ib_mad_agent_table t0;
    static ib_mad_send_table s0;
    std::memcpy(&t0, &t, sizeof(t));
    std::memcpy(&s0, &s, sizeof(s));
    ib_mad_rx out;
    const ib_mad_rx_verdict v = ib_mad_rx_dispatch(&t, &s, &h, src, &out);
    REQUIRE((unsigned)v == out.verdict);
    REQUIRE(!std::memcmp(&t0, &t, sizeof(t)) && !std::memcmp(&s0, &s, sizeof(s)));
    REQUIRE(ib_mad_rx_why_str((ib_mad_rx_why)out.why) != nullptr);
    REQUIRE((out.why == IB_MAD_RX_WHY_NONE) ==
            (v == IB_MAD_RX_RESPONSE || v == IB_MAD_RX_REQUEST));
    REQUIRE((v == IB_MAD_RX_REPLY) == (out.reply_status != 0));
    if (v == IB_MAD_RX_REPLY) REQUIRE(h.method == 1 || h.method == 2);
    if (v != IB_MAD_RX_RESPONSE) REQUIRE(out.slot == -1);
    if (v == IB_MAD_RX_DROP || v == IB_MAD_RX_REPLY) REQUIRE(out.agent == -1);
    return out;
  }

  void CheckResponse(const ib_mad_wire_hdr &h, const u8 *src, const ib_mad_rx &out) {
    const int want = Expected(h, src);
    if (want == -2) {
      REQUIRE(out.verdict == IB_MAD_RX_DROP && out.why == IB_MAD_RX_WHY_NO_TID_AGENT);
      return;
    }
    if (want == -1) {
      REQUIRE(out.verdict == IB_MAD_RX_DROP && out.why == IB_MAD_RX_WHY_NO_SEND);
      return;
    }
    // the agent gets a response to a send of its own, answered once
    REQUIRE(out.verdict == IB_MAD_RX_RESPONSE && out.slot == want);
    ShadowSend &x = sd[want];
    REQUIRE(out.agent == (int)x.agent && ag[x.agent].hi == (u32)(h.tid >> 32));
    ib_mad_send_action act;
    REQUIRE(ib_mad_send_on_response(&s, (u32)want, &act) == 0);
    if (x.waiting) return Completed(act, IB_MAD_SEND_OK);
    REQUIRE(act.what == IB_MAD_SEND_DO_NOTHING);
    x.answered = true;
  }

  void Response(u8 a, u8 b, u8 c) {
    const int i = Pick(a);
    ib_mad_wire_hdr h;
    std::memset(&h, 0, sizeof(h));
    h.base_version = 1;
    h.mgmt_class = sd[i].used ? sd[i].cls : kClasses[b & 7];
    if (b & 0x08) h.mgmt_class = kClasses[b & 7];
    h.class_version = 2;
    h.method = (b & 0x10) ? IB_MAD_WIRE_METHOD_TRAP_REPRESS : (u8)(0x80 | (b >> 5));
    h.tid = sd[i].tid;
    if (h.mgmt_class == IB_MAD_WIRE_CLASS_CM) h.attr_id = IB_MAD_WIRE_ATTR_CLASS_PORT_INFO;
    if (h.mgmt_class == 0x01 || h.mgmt_class == 0x30 || h.mgmt_class == 0x50 ||
        h.mgmt_class == 0)
      h.mgmt_class = IB_MAD_WIRE_CLASS_SA;  // kept to classes that pass checks
    const u8 *src = Peer(c);
    const ib_mad_rx out = Dispatch(h, src);
    CheckResponse(h, src, out);
  }

  void Request(u8 a, u8 b, u8 c) {
    ib_mad_wire_hdr h;
    std::memset(&h, 0, sizeof(h));
    h.base_version = 1;
    h.mgmt_class = (a & 0x80) ? a : kClasses[a & 7];
    h.class_version = b & 15;
    h.method = (c & 0x80) ? (u8)(c & 0x7f) : kMethods[c & 7];
    h.attr_id = 0x10;
    const ib_mad_rx out = Dispatch(h, nullptr);
    if (ib_mad_wire_is_response(&h) || ib_mad_wire_check_hdr(&h, false) != IB_MAD_WHY_OK)
      return;
    int want = -1;
    for (int i = 0; i < IB_MAD_AGENT_MAX; i++)
      if (ag[i].used && ag[i].has_claim && ag[i].cls == h.mgmt_class &&
          ag[i].ver == h.class_version && ag[i].method[h.method])
        want = i;
    if (want >= 0) {
      REQUIRE(out.verdict == IB_MAD_RX_REQUEST && out.agent == want);
      return;
    }
    REQUIRE(out.why == IB_MAD_RX_WHY_UNCLAIMED || out.why == IB_MAD_RX_WHY_UNSUPPORTED_CLASS);
    const bool get_set = h.method == 1 || h.method == 2;
    REQUIRE(out.verdict == (get_set ? IB_MAD_RX_REPLY : IB_MAD_RX_DROP));
    if (get_set) REQUIRE(out.reply_status == IB_MAD_WIRE_STATUS_BAD_METHOD_ATTR);
  }

  void Cancel(u8 a) {
    const int i = Pick(a);
    ShadowSend &x = sd[i];
    ib_mad_send_action act;
    const int r = ib_mad_send_cancel(&s, (u32)i, &act);
    if (!x.used) {
      REQUIRE(r == -EINVAL);
      return;
    }
    REQUIRE(r == 0);
    if (x.waiting) return Completed(act, IB_MAD_SEND_ERR_CANCELED);
    REQUIRE(act.what == IB_MAD_SEND_DO_NOTHING);
    x.canceled = true;
  }

  void Modify(u8 a, u8 b) {
    const int i = Pick(a);
    ShadowSend &x = sd[i];
    const u32 ms = b;
    ib_mad_send_action act;
    const int r = ib_mad_send_modify(&s, (u32)i, ms, now, &act);
    if (!x.used || x.canceled || !x.timeout) {
      REQUIRE(r == -EINVAL);
      return;
    }
    REQUIRE(r == 0);
    if (!ms) {
      if (x.waiting) return Completed(act, IB_MAD_SEND_ERR_CANCELED);
      x.canceled = true;
      return;
    }
    x.timeout = ms;
    if (x.waiting) x.deadline = now + ms;
  }

  void Raw(u8 a, u8 b, u8 c) {
    u8 mad[IB_MAD_WIRE_SIZE + 1];
    std::memset(mad, 0, sizeof(mad));
    const int i = Pick(c);
    ib_mad_wire_hdr h;
    std::memset(&h, 0, sizeof(h));
    h.base_version = (a & 0x80) ? (u8)(a >> 4) : 1;
    h.mgmt_class = kClasses[a & 7];
    h.class_version = (a >> 3) & 3;
    h.method = b;
    h.tid = sd[i].tid;
    h.attr_id = (c & 0x40) ? IB_MAD_WIRE_ATTR_CLASS_PORT_INFO : 0x10;
    h.attr_mod = b & 1;
    REQUIRE(ib_mad_wire_hdr_encode(mad, sizeof(mad), &h) == 0);
    const u32 len = (c & 0x20) ? IB_MAD_WIRE_SIZE + 1 : IB_MAD_WIRE_SIZE;
    ib_mad_wire_hdr got;
    ib_mad_rx out;
    ib_mad_rx_dispatch_raw(&t, &s, mad, len, kPeerA, &got, &out);
    if (len != IB_MAD_WIRE_SIZE) {
      REQUIRE(out.verdict == IB_MAD_RX_DROP && out.why == IB_MAD_RX_WHY_SIZE);
      return;
    }
    const ib_mad_rx again = Dispatch(got, kPeerA);
    REQUIRE(again.verdict == out.verdict && again.why == out.why &&
            again.agent == out.agent && again.slot == out.slot);
    if (out.verdict == IB_MAD_RX_RESPONSE) CheckResponse(got, kPeerA, out);
  }

  void Drain() {
    for (int i = 0; i < IB_MAD_SEND_MAX; i++) {
      if (!sd[i].used) continue;
      Cancel((u8)(0x80 | i));
      if (sd[i].used) Wc((u8)(0x80 | i), 0, 0);
      REQUIRE(!sd[i].used);
    }
    for (size_t id = 0; id < completed.size(); id++) REQUIRE(completed[id] == 1);
    REQUIRE(s.used == 0);
    for (int i = 0; i < IB_MAD_AGENT_MAX; i++)
      if (ag[i].used) {
        REQUIRE(ib_mad_agent_unregister(&t, &s, (u32)i, nullptr) == 0);
        ag[i].used = false;
      }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Run r;
  Run *run = &r;

  for (; size >= 4; data += 4, size -= 4) {
    const u8 a = data[1], b = data[2], c = data[3];
    switch (data[0] % 10) {
      case 0: run->Register(a, b, c); break;
      case 1: run->Unregister(a); break;
      case 2: run->Post(a, b, c); break;
      case 3: run->Wc(a, b, c); break;
      case 4: run->Timer(a); break;
      case 5: run->Response(a, b, c); break;
      case 6: run->Request(a, b, c); break;
      case 7: run->Cancel(a); break;
      case 8: run->Modify(a, b); break;
      default: run->Raw(a, b, c); break;
    }
    run->CheckTables();
  }
  run->Drain();
  run->CheckTables();
  return 0;
}
