// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/cm_state.c and cma_state.c:
// random input sequences on an ib_cm ID and an rdma_cm ID.
//
// Input: 2-byte records, a trailing odd byte ignored.
//   byte 0  bit 7: clear for the ib_cm ID, set for the rdma_cm ID
//           bit 6: clear: bits 0-5 are the input (values past the last
//                  input probe the range check);
//                  set: bits 0-5 pick, modulo their number, one of the
//                  inputs that GO from the current state (so that long
//                  chains such as bind, resolve, route, connect are easy)
//   byte 1  argument: the rdma_cm input status (int8), the ib_cm -> rdma_cm
//           event flags (bit 0 kernel QP, bit 1 ok), a probe state for
//           compare-and-exchange (bits 4-7, past the last state too)
// Every event the ib_cm ID reports is also fed to the rdma_cm ID, through
// rdma_cm_sm_ib_input(), as ib_cm would.  An rdma_cm ID that reaches
// DESTROYING is followed by a new one in IDLE.
//
// Checked for the input taken, and for every input (0-127) the first time
// a run reaches a state: states stay in range, a refusal or drop changes
// nothing and reports nothing, refusals are for calls only, the answer is
// the same when asked twice, TIMEWAIT is left only by its timer or
// destroy, nothing leaves DESTROYING, destroy ends within three steps,
// compare-and-exchange agrees with the steps, names are never NULL.

#include <rdma/ib_cm_state.h>
#include <rdma/rdma_cm_state.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

constexpr unsigned kInputSpace = 128;

[[noreturn]] void Fail(const char *machine, const char *what, unsigned state,
                       unsigned in) {
  std::fprintf(stderr, "cm_state_fuzz: %s: %s (state %u, input %u)\n", machine,
               what, state, in);
  std::abort();
}

#define CM_REQUIRE(cond)                      \
  do {                                        \
    if (!(cond)) Fail("ib_cm", #cond, s, in); \
  } while (0)
#define CMA_REQUIRE(cond)                       \
  do {                                          \
    if (!(cond)) Fail("rdma_cm", #cond, s, in); \
  } while (0)

// ------------------------------------------------------------------ ib_cm

ib_cm_sm_action CmStep(unsigned s, unsigned in) {
  ib_cm_sm_action a, b;
  std::memset(&a, 0x5a, sizeof(a));
  std::memset(&b, 0xa5, sizeof(b));
  const ib_cm_sm_verdict v = ib_cm_sm_step(static_cast<ib_cm_state>(s),
                                           static_cast<ib_cm_sm_input>(in), &a);
  ib_cm_sm_step(static_cast<ib_cm_state>(s), static_cast<ib_cm_sm_input>(in), &b);
  CM_REQUIRE(static_cast<unsigned>(v) == a.verdict);
  CM_REQUIRE(a.verdict == b.verdict && a.next == b.next && a.tx == b.tx &&
             a.report == b.report && a.work == b.work && a.why == b.why &&
             a.err == b.err);
  return a;
}

// Destroy from @s0: at most three GO steps, each without an event, the
// last one into IDLE and without AGAIN.
void CmCheckDestroy(unsigned s0) {
  for (unsigned in : {IB_CM_IN_DESTROY, IB_CM_IN_DESTROY_NO_REJ}) {
    unsigned s = s0;
    for (unsigned steps = 1;; steps++) {
      const ib_cm_sm_action a = CmStep(s, in);
      CM_REQUIRE(a.verdict == IB_CM_SM_GO);
      CM_REQUIRE(a.report == IB_CM_NO_EVENT);
      CM_REQUIRE(((a.work & IB_CM_DO_AGAIN) != 0) == (a.next != IB_CM_IDLE));
      s = a.next;
      if (!(a.work & IB_CM_DO_AGAIN)) break;
      CM_REQUIRE(steps < 3);
    }
  }
}

ib_cm_sm_action CmCheck(unsigned s, unsigned in) {
  const ib_cm_sm_action a = CmStep(s, in);
  const bool call = ib_cm_sm_is_call(static_cast<ib_cm_sm_input>(in));

  CM_REQUIRE(ib_cm_sm_input_str(static_cast<ib_cm_sm_input>(in)) != nullptr);
  CM_REQUIRE(a.verdict < IB_CM_SM_VERDICT_COUNT);
  CM_REQUIRE(a.next < IB_CM_STATE_COUNT);
  CM_REQUIRE(a.tx < IB_CM_TX_COUNT);
  CM_REQUIRE(a.why < IB_CM_WHY_COUNT);
  CM_REQUIRE(a.report == IB_CM_NO_EVENT || a.report < IB_CM_EVENT_COUNT);
  if (in >= IB_CM_IN_COUNT) {
    CM_REQUIRE(a.verdict == IB_CM_SM_REFUSE && a.why == IB_CM_WHY_BAD_ARG);
    CM_REQUIRE(a.err == -EINVAL && a.next == s);
    return a;
  }
  if (a.verdict == IB_CM_SM_GO) {
    CM_REQUIRE(a.why == IB_CM_WHY_NONE && a.err == 0);
  } else {
    CM_REQUIRE(a.next == s && a.report == IB_CM_NO_EVENT && a.work == 0);
    CM_REQUIRE(a.why != IB_CM_WHY_NONE);
    CM_REQUIRE((a.verdict == IB_CM_SM_REFUSE) == call);
    CM_REQUIRE((a.verdict == IB_CM_SM_REFUSE) == (a.err < 0));
    CM_REQUIRE((a.verdict == IB_CM_SM_ANSWER) == (a.tx != IB_CM_TX_NONE));
  }
  if (s == IB_CM_TIMEWAIT && a.next != IB_CM_TIMEWAIT)
    CM_REQUIRE(in == IB_CM_IN_TIMEWAIT_DONE || in == IB_CM_IN_DESTROY ||
               in == IB_CM_IN_DESTROY_NO_REJ);
  if (a.work & IB_CM_DO_NEW_ID) {
    CM_REQUIRE(s == IB_CM_LISTEN && a.next == IB_CM_LISTEN);
    const ib_cm_sm_action child = CmStep(IB_CM_IDLE, in);
    CM_REQUIRE(child.verdict == IB_CM_SM_GO && child.report != IB_CM_NO_EVENT);
  }
  return a;
}

void CmSweep(unsigned s) {
  const unsigned in = kInputSpace;

  CM_REQUIRE(ib_cm_state_str(static_cast<ib_cm_state>(s)) != nullptr);
  for (unsigned i = 0; i < kInputSpace; i++) CmCheck(s, i);
  CmCheckDestroy(s);
}

// ---------------------------------------------------------------- rdma_cm

rdma_cm_sm_action CmaStep(unsigned s, unsigned in, int status) {
  rdma_cm_sm_action a, b;
  std::memset(&a, 0x5a, sizeof(a));
  std::memset(&b, 0xa5, sizeof(b));
  const rdma_cm_sm_verdict v = rdma_cm_sm_step(
      static_cast<rdma_cm_state>(s), static_cast<rdma_cm_sm_input>(in), status, &a);
  rdma_cm_sm_step(static_cast<rdma_cm_state>(s), static_cast<rdma_cm_sm_input>(in),
                  status, &b);
  CMA_REQUIRE(static_cast<unsigned>(v) == a.verdict);
  CMA_REQUIRE(a.verdict == b.verdict && a.next == b.next && a.report == b.report &&
              a.work == b.work && a.why == b.why && a.status == b.status &&
              a.err == b.err);
  return a;
}

rdma_cm_sm_action CmaCheck(unsigned s, unsigned in, int status) {
  const rdma_cm_sm_action a = CmaStep(s, in, status);
  const bool call = rdma_cm_sm_is_call(static_cast<rdma_cm_sm_input>(in));

  CMA_REQUIRE(rdma_cm_sm_input_str(static_cast<rdma_cm_sm_input>(in)) != nullptr);
  CMA_REQUIRE(a.verdict < RDMA_CM_SM_VERDICT_COUNT);
  CMA_REQUIRE(a.next < RDMA_CM_STATE_COUNT);
  CMA_REQUIRE(a.why < RDMA_CM_WHY_COUNT);
  CMA_REQUIRE(a.report == RDMA_CM_NO_EVENT || a.report < RDMA_CM_EVENT_COUNT);
  if (in >= RDMA_CM_IN_COUNT) {
    CMA_REQUIRE(a.verdict == RDMA_CM_SM_REFUSE && a.why == RDMA_CM_WHY_BAD_ARG);
    CMA_REQUIRE(a.err == -EINVAL && a.next == s);
    return a;
  }
  if (a.verdict == RDMA_CM_SM_GO) {
    CMA_REQUIRE(a.why == RDMA_CM_WHY_NONE && a.err == 0);
    CMA_REQUIRE((a.report == RDMA_CM_NO_EVENT) == call);
    if (a.report == RDMA_CM_NO_EVENT) CMA_REQUIRE(a.status == 0);
    if (a.next != s) {
      rdma_cm_state copy = static_cast<rdma_cm_state>(s);
      CMA_REQUIRE(rdma_cm_sm_comp_exch(&copy, copy, static_cast<rdma_cm_state>(a.next)) == 0);
      CMA_REQUIRE(copy == static_cast<rdma_cm_state>(a.next));
    }
    if (a.work & RDMA_CM_DO_AUTO_BIND) {
      CMA_REQUIRE(s == RDMA_CM_IDLE && a.next == RDMA_CM_ADDR_BOUND);
      const rdma_cm_sm_action again = CmaStep(a.next, in, status);
      CMA_REQUIRE(again.verdict == RDMA_CM_SM_GO && again.next != a.next);
    }
  } else {
    CMA_REQUIRE(a.next == s && a.report == RDMA_CM_NO_EVENT && a.work == 0);
    CMA_REQUIRE(a.status == 0 && a.why != RDMA_CM_WHY_NONE);
    CMA_REQUIRE((a.verdict == RDMA_CM_SM_REFUSE) == call);
    if (call) CMA_REQUIRE(a.err == -EINVAL);
  }
  if (s == RDMA_CM_DESTROYING) CMA_REQUIRE(a.next == s && a.verdict != RDMA_CM_SM_GO);
  if (s == RDMA_CM_DESTROYING || s == RDMA_CM_DEVICE_REMOVAL)
    CMA_REQUIRE(a.report == RDMA_CM_NO_EVENT);
  return a;
}

void CmaSweep(unsigned s, int status) {
  unsigned in = kInputSpace;

  CMA_REQUIRE(rdma_cm_state_str(static_cast<rdma_cm_state>(s)) != nullptr);
  for (unsigned i = 0; i < kInputSpace; i++) CmaCheck(s, i, status);
  // destroy: one step into DESTROYING, from anywhere but DESTROYING
  in = RDMA_CM_OP_DESTROY;
  const rdma_cm_sm_action d = CmaStep(s, in, 0);
  if (s == RDMA_CM_DESTROYING)
    CMA_REQUIRE(d.verdict == RDMA_CM_SM_REFUSE);
  else
    CMA_REQUIRE(d.verdict == RDMA_CM_SM_GO && d.next == RDMA_CM_DESTROYING);
}

// Compare and exchange from @s toward @probe agrees with move_ok.
void CmaProbe(unsigned s, unsigned probe) {
  const unsigned in = probe;
  rdma_cm_state copy = static_cast<rdma_cm_state>(s);
  const bool legal = rdma_cm_sm_move_ok(copy, static_cast<rdma_cm_state>(probe));
  const int r = rdma_cm_sm_comp_exch(&copy, copy, static_cast<rdma_cm_state>(probe));

  CMA_REQUIRE((r == 0) == legal);
  CMA_REQUIRE(static_cast<unsigned>(copy) == (legal ? probe : s));
  if (s == RDMA_CM_DESTROYING || probe >= RDMA_CM_STATE_COUNT) CMA_REQUIRE(!legal);
}

// The rules are data, so coverage alone does not tell states apart: one
// function per state (an instantiation each, never inlined, so none is
// folded away) lets the fuzzer see them.
volatile unsigned visited;

template <unsigned Machine, unsigned N>
__attribute__((noinline)) void Hit() {
  visited = Machine << 8 | N;
}

template <unsigned Machine, unsigned N, unsigned Count>
void Visit(unsigned s) {
  if constexpr (N < Count) {
    if (s == N)
      Hit<Machine, N>();
    else
      Visit<Machine, N + 1, Count>(s);
  }
}

struct Run {
  unsigned cm = IB_CM_IDLE;
  unsigned cma = RDMA_CM_IDLE;
  uint32_t cm_swept = 0;
  uint32_t cma_swept = 0;

  void Sweep(int status) {
    if (!(cm_swept & (1u << cm))) {
      cm_swept |= 1u << cm;
      CmSweep(cm);
    }
    if (!(cma_swept & (1u << cma))) {
      cma_swept |= 1u << cma;
      CmaSweep(cma, status);
    }
  }

  // The input byte @b means for a machine whose GO inputs from the
  // current state are those for which @goes() is true.
  template <typename F>
  static unsigned Pick(uint8_t b, unsigned count, F goes) {
    if (!(b & 0x40)) return b & 0x3f;
    unsigned n = 0, list[64];
    for (unsigned i = 0; i < count && i < 64; i++)
      if (goes(i)) list[n++] = i;
    return n ? list[(b & 0x3f) % n] : b & 0x3f;
  }

  void CmaInput(unsigned in, int status) {
    cma = CmaCheck(cma, in, status).next;
    if (cma == RDMA_CM_DESTROYING) cma = RDMA_CM_IDLE;  // the next ID
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Run run;

  run.Sweep(0);
  for (; size >= 2; data += 2, size -= 2) {
    const uint8_t arg = data[1];
    const int status = static_cast<int8_t>(arg);

    CmaProbe(run.cma, arg >> 4);
    if (data[0] & 0x80) {
      const unsigned in = Run::Pick(data[0], RDMA_CM_IN_COUNT, [&](unsigned i) {
        return CmaStep(run.cma, i, status).verdict == RDMA_CM_SM_GO;
      });
      run.CmaInput(in, status);
    } else {
      const unsigned in = Run::Pick(data[0], IB_CM_IN_COUNT, [&](unsigned i) {
        return CmStep(run.cm, i).verdict == IB_CM_SM_GO;
      });
      const ib_cm_sm_action a = CmCheck(run.cm, in);
      run.cm = a.next;
      if (a.report != IB_CM_NO_EVENT)
        run.CmaInput(rdma_cm_sm_ib_input(static_cast<ib_cm_event_type>(a.report),
                                         arg & 1, (arg & 2) != 0),
                     status);
    }
    run.Sweep(status);
    Visit<0, 0, IB_CM_STATE_COUNT>(run.cm);
    Visit<1, 0, RDMA_CM_STATE_COUNT>(run.cma);
  }
  return 0;
}
