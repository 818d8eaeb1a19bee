// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/qp_state.c.
//
// Input: a sequence of 8-byte records
//   byte 0     cur   (int8: negative and >= IB_QPS_COUNT values included)
//   byte 1     next  (int8)
//   bytes 2-3  type  (int16 little endian: reaches IB_QPT_DRIVER and -1)
//   bytes 4-7  mask  (u32 little endian)
// A trailing partial record is ignored.
//
// For every record the verdict of ib_qp_transition_check() must follow from
// ib_qp_transition_attrs() and the argument ranges alone, must agree with
// ib_modify_qp_is_ok(), and in-range attributes must match the independent
// vectors in drivers/infiniband/core/tests/qp_state_vectors.h.

#include <rdma/ib_qp_state.h>

#include "qp_state_vectors.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr u32 kState = IB_QP_STATE;
constexpr u32 kCur = IB_QP_CUR_STATE;
constexpr u32 kKnownBits = (1u << 26) - 1;  // STATE .. RATE_LIMIT

[[noreturn]] void Fail(const char *what, int32_t cur, int32_t next,
                       int32_t type, u32 mask, int verdict, u32 bad) {
  std::fprintf(stderr,
               "qp_state_fuzz: %s: cur=%d next=%d type=%d mask=0x%08x "
               "verdict=%d bad=0x%08x\n",
               what, cur, next, type, mask, verdict, bad);
  std::abort();
}

bool InRange(int32_t cur, int32_t next, int32_t type) {
  return cur >= 0 && cur < IB_QPS_COUNT && next >= 0 &&
         next < IB_QPS_COUNT && type >= 0 && type < IB_QPT_MAX;
}

bool CurStateAllowed(int32_t cur) {
  return cur == IB_QPS_RTR || cur == IB_QPS_RTS || cur == IB_QPS_SQD ||
         cur == IB_QPS_SQE;
}

void CheckOne(int32_t cur, int32_t next, int32_t type, u32 mask) {
  const auto s_cur = static_cast<ib_qp_state>(cur);
  const auto s_next = static_cast<ib_qp_state>(next);
  const auto t = static_cast<ib_qp_type>(type);

  u32 bad = 0xa5a5a5a5;
  const ib_qp_transition_verdict v =
      ib_qp_transition_check(s_cur, s_next, t, mask, &bad);
  const int vi = static_cast<int>(v);
#define REQUIRE(cond)                                          \
  do {                                                         \
    if (!(cond))                                               \
      Fail(#cond, cur, next, type, mask, vi, bad);             \
  } while (0)

  REQUIRE(vi >= IB_QP_TRANSITION_OK && vi <= IB_QP_TRANSITION_EXTRA);
  REQUIRE(ib_qp_transition_check(s_cur, s_next, t, mask, nullptr) == v);
  REQUIRE(ib_modify_qp_is_ok(s_cur, s_next, t,
                             static_cast<ib_qp_attr_mask>(mask)) ==
          (v == IB_QP_TRANSITION_OK));

  u32 req = 0xa5a5a5a5, opt = 0xa5a5a5a5;
  const bool legal = ib_qp_transition_attrs(s_cur, s_next, t, &req, &opt);

  // Names never crash and are never NULL.
  REQUIRE(ib_qp_state_str(s_cur) != nullptr);
  REQUIRE(ib_qp_state_str(s_next) != nullptr);
  REQUIRE(ib_qp_type_str(t) != nullptr);
  REQUIRE(ib_qp_transition_verdict_str(v) != nullptr);

  if (!InRange(cur, next, type)) {
    REQUIRE(v == IB_QP_TRANSITION_BAD_ARG);
    REQUIRE(bad == 0);
    REQUIRE(!legal && req == 0 && opt == 0);
    return;
  }

  // In range: attributes are well formed and match the vectors.
  REQUIRE((req & opt) == 0);
  REQUIRE(((req | opt) & (kState | ~kKnownBits)) == 0);
  REQUIRE(legal == ((qp_state_legal_next[cur] & (1u << next)) != 0));
  if (!legal)
    REQUIRE(req == 0 && opt == 0);
  u32 want_req = 0, want_opt = 0;
  for (size_t i = 0; i < QP_STATE_VECTOR_COUNT; i++) {
    const qp_state_vector &row = qp_state_vectors[i];
    if (row.type == type && row.cur == cur && row.next == next) {
      want_req = row.req;
      want_opt = row.opt;
    }
  }
  REQUIRE(req == want_req && opt == want_opt);

  // The verdict, derived from the attributes in order of precedence.
  if ((mask & kCur) && !CurStateAllowed(cur)) {
    REQUIRE(v == IB_QP_TRANSITION_CUR_STATE);
    REQUIRE(bad == kCur);
  } else if (!legal) {
    REQUIRE(v == IB_QP_TRANSITION_ILLEGAL);
    REQUIRE(bad == 0);
  } else if (req & ~mask) {
    REQUIRE(v == IB_QP_TRANSITION_MISSING);
    REQUIRE(bad == (req & ~mask));
  } else if (mask & ~(req | opt | kState)) {
    REQUIRE(v == IB_QP_TRANSITION_EXTRA);
    REQUIRE(bad == (mask & ~(req | opt | kState)));
  } else {
    REQUIRE(v == IB_QP_TRANSITION_OK);
    REQUIRE(bad == 0);
  }
#undef REQUIRE
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (; size >= 8; data += 8, size -= 8) {
    const int32_t cur = static_cast<int8_t>(data[0]);
    const int32_t next = static_cast<int8_t>(data[1]);
    const int32_t type = static_cast<int16_t>(
        static_cast<uint16_t>(data[2] | (data[3] << 8)));
    const u32 mask = static_cast<u32>(data[4]) |
                     static_cast<u32>(data[5]) << 8 |
                     static_cast<u32>(data[6]) << 16 |
                     static_cast<u32>(data[7]) << 24;
    CheckOne(cur, next, type, mask);
  }
  return 0;
}
