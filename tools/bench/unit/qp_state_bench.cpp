// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Micro-benchmark of ib_modify_qp_is_ok() (drivers/infiniband/core/qp_state.c).
// Built by tools/testing/unit/CMakeLists.txt with -DBENCH=ON; never run by
// the tests:
//   cmake -S tools/testing/unit -B build/unit-bench -DBENCH=ON
//   cmake --build build/unit-bench --target qp_state_bench
//   build/unit-bench/qp_state_bench

#include <rdma/ib_qp_state.h>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

namespace {

struct Step {
  ib_qp_state cur, next;
  ib_qp_type type;
  ib_qp_attr_mask mask;
};

ib_qp_attr_mask Mask(unsigned m) { return static_cast<ib_qp_attr_mask>(m); }

// What a verbs consumer does to an RC QP over its life.
const Step kRcLifecycle[] = {
    {IB_QPS_RESET, IB_QPS_INIT, IB_QPT_RC,
     Mask(IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)},
    {IB_QPS_INIT, IB_QPS_RTR, IB_QPT_RC,
     Mask(IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
          IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)},
    {IB_QPS_RTR, IB_QPS_RTS, IB_QPT_RC,
     Mask(IB_QP_STATE | IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
          IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC)},
    {IB_QPS_RTS, IB_QPS_RTS, IB_QPT_RC, Mask(IB_QP_MIN_RNR_TIMER)},
    {IB_QPS_RTS, IB_QPS_ERR, IB_QPT_RC, Mask(IB_QP_STATE)},
    {IB_QPS_ERR, IB_QPS_RESET, IB_QPT_RC, Mask(IB_QP_STATE)},
};

void BM_RcLifecycle(benchmark::State &state) {
  for (auto _ : state) {
    for (const Step &s : kRcLifecycle) {
      bool ok = ib_modify_qp_is_ok(s.cur, s.next, s.type, s.mask);
      benchmark::DoNotOptimize(ok);
    }
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<int64_t>(std::size(kRcLifecycle)));
}
BENCHMARK(BM_RcLifecycle);

// Uniform over in-range states and types, random standard-bit masks with
// IB_QP_STATE set: mostly refusals, some accepts.
void BM_Random(benchmark::State &state) {
  std::mt19937 rng(12345);
  std::vector<Step> steps(4096);
  for (Step &s : steps) {
    s.cur = static_cast<ib_qp_state>(rng() % IB_QPS_COUNT);
    s.next = static_cast<ib_qp_state>(rng() % IB_QPS_COUNT);
    s.type = static_cast<ib_qp_type>(rng() % IB_QPT_MAX);
    s.mask = Mask((rng() & IB_QP_ATTR_STANDARD_BITS) | IB_QP_STATE);
  }
  size_t i = 0;
  for (auto _ : state) {
    const Step &s = steps[i++ & (steps.size() - 1)];
    bool ok = ib_modify_qp_is_ok(s.cur, s.next, s.type, s.mask);
    benchmark::DoNotOptimize(ok);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Random);

}  // namespace

BENCHMARK_MAIN();
