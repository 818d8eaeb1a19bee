#!/bin/bash
# cost: 174 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# On-demand paging (issue 14): IBV_ACCESS_ON_DEMAND MRs on our rxe.
#  1. the odp selftest (build/selftests/odp) on rxe0: caps, accesses to
#     untouched memory, a READ-mapped zero page written later, pages
#     replaced between accesses, SEND between ODP buffers, fork with the child
#     alive, munmap while registered;
#  2. the data oracle with --odp on both sides (every byte of every op,
#     the memory write-protected by a fork every 50 ms), RC (UC and UD in
#     make check-full),
#     between rxe0 in ns1 and rxe1 in ns2;
#  3. the oracle's own proof: with test_corrupt_every the --odp run must
#     report a mismatch.
# Upstream 6.1 has no ODP in rxe: ours only.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"
. "$REPO/tools/testing/vm/oracle.sh"

T=$REPO/build/selftests/odp
[ -x "$T" ] || die "$T not built (make check builds it)"
fails=0

stack_load ours || die "load our stack"
rxe0_up
VERBS_DEV=rxe0 DP_WAIT=${DP_WAIT:-20} timeout -k 5 600 "$T" 2>&1
rc=$?
echo "odp selftest: rc=$rc"
[ "$rc" = 0 ] || { echo "FAIL: odp selftest"; fails=$((fails + 1)); }
rxe0_down

trap ns_pair_down EXIT
ns_pair_up 9000
iters=$(by_tier 30 200)
RUNS=("odp-rc pass --qp rc -g $NS_G4 --mtu 1024 --iters $iters --odp --timeout 120")
# UC and UD share RC's fault path (rxe_odp.c): make check-full
[ "${CHECK_TIER:-check}" = full ] && RUNS+=(
	"odp-uc pass --qp uc -g $NS_G6 --mtu 4096 --iters $iters --odp --timeout 120"
	"odp-ud pass --qp ud -g $NS_G4 --mtu 1024 --iters $iters --odp --timeout 120"
)
for r in "${RUNS[@]}"; do
	read -r label want args <<<"$r"
	# shellcheck disable=SC2086
	oracle_run "$label" ns2 ns1 10.0.0.2 rxe1 rxe0 $args
	oracle_judge "$label" "$want" || fails=$((fails + 1))
	grep -h "odp:" "$ORACLE_WORK/$label".* 2>/dev/null | head -2
done
rxe_param test_corrupt_every 5
oracle_run odp-corrupt ns2 ns1 10.0.0.2 rxe1 rxe0 --qp rc -g "$NS_G4" --mtu 1024 --iters 20 \
	--ops send,write,read --odp --timeout 120
rxe_param test_corrupt_every 0
oracle_judge odp-corrupt mismatch || fails=$((fails + 1))

column -t "$ORACLE_WORK/results"
rm -rf "$ORACLE_WORK"
[ "$fails" = 0 ] || die "$fails failure(s) above"
echo "odp: all checks passed"
