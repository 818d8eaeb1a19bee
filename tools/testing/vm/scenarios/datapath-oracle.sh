#!/bin/bash
# cost: 270 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# scenario-timeout-full: 3600
# The data oracle over a real link (issue 12): rxe0 in ns1 and rxe1 in ns2
# on a veth pair (MTU 9000, so path MTU 4096 is possible), rdma_oracle
# checking every byte of every SEND, WRITE, READ, the immediates, the
# invalidated keys and the atomics, both directions.  Runs (label: what):
#   rc-v4        RC, IPv4 GID, path MTU 1024, every op
#   rc-v6-4096   RC, IPv6 GID, path MTU 4096, every op
#   rc-v4-256-srq  RC, IPv4, path MTU 256, many small packets, deep
#                queue, receives through a shared receive queue (--srq)
#   uc-v6        UC, IPv6, MTU 1024
#   ud-v4        UD, IPv4, MTU 1024
# (check-full runs rc-v4-256, rc-v4-srq and ud-v6-srq on their own)
#   rc-v4-aw     RC, WRITE, ATOMIC WRITE (IBTA 1.5, ours only) and FETCH_ADD
# then the oracle's own proof (test build of rdma_rxe, rxe_test_hooks.h):
#   corrupt      test_corrupt_every=5: a payload byte inverted before the
#                ICRC; the oracle must report a MISMATCH
#   corrupt-aw   the same on ATOMIC WRITE: the cells' values must mismatch
#   atomic-twice test_atomic_twice=1: every atomic executed twice; the
#                oracle's FETCH_ADD check must report a MISMATCH
#   aw-refused-proof  the server claims its device lacks ATOMIC WRITE
#                (--test-hide-atomic-write): the aw_refused step
#                (rxe-interop runs it against upstream 6.1) must report a
#                MISMATCH, since rxe1 executes the write
# make check runs two of the proofs (corrupt, atomic-twice); make
# check-full adds corrupt-uc-write, corrupt-aw and aw-refused-proof, every
# transport on both address families and all three MTUs, larger messages
# and more iterations.
# ORACLE_RUNS (labels) narrows it.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"
. "$REPO/tools/testing/vm/oracle.sh"

trap ns_pair_down EXIT
stack_load ours || die "load our stack"
ns_pair_up 9000
echo "rxe0 (ns1) and rxe1 (ns2): GID index IPv4 $NS_G4, IPv6 $NS_G6 (set up in ${SECONDS}s)"

iters=$(by_tier 40 200)
# label  expect  oracle arguments (G4/G6: GID index)
RUNS=(
	"rc-v4 pass --qp rc -g G4 --mtu 1024 --iters $iters"
	"rc-v6-4096 pass --qp rc -g G6 --mtu 4096 --iters $iters --max-size 65536"
	"rc-v4-256-srq pass --qp rc -g G4 --mtu 256 --iters $iters --depth 64 --max-size 4096 --srq"
	"uc-v6 pass --qp uc -g G6 --mtu 1024 --iters $iters"
	"ud-v4 pass --qp ud -g G4 --mtu 1024 --iters $iters"
	"rc-v4-aw pass --qp rc -g G4 --mtu 1024 --iters $iters --ops write,atomic_write,fetch_add"
)
if [ "${CHECK_TIER:-check}" = full ]; then
	RUNS+=(
		"rc-v4-256 pass --qp rc -g G4 --mtu 256 --iters $iters --depth 64 --max-size 4096"
		"rc-v4-srq pass --qp rc -g G4 --mtu 1024 --iters $iters --srq"
		"ud-v6-srq pass --qp ud -g G6 --mtu 1024 --iters $iters --srq"
	)
	for qp in rc uc ud; do
		for fam in 4 6; do
			for mtu in 256 1024 4096; do
				RUNS+=("full-$qp-v$fam-$mtu pass --qp $qp -g G$fam --mtu $mtu --iters 300")
			done
		done
	done
	RUNS+=("full-rc-big pass --qp rc -g G4 --mtu 4096 --iters 50 --max-size 1048576")
	RUNS+=("full-uc-v6-srq pass --qp uc -g G6 --mtu 4096 --iters 300 --srq --sge 1")
fi

fails=0
for r in "${RUNS[@]}"; do
	read -r label want args <<<"$r"
	[ -z "${ORACLE_RUNS:-}" ] || [[ " $ORACLE_RUNS " == *" $label "* ]] || continue
	args=${args//G4/$NS_G4}
	args=${args//G6/$NS_G6}
	# shellcheck disable=SC2086
	oracle_run "$label" ns2 ns1 10.0.0.2 rxe1 rxe0 $args
	oracle_judge "$label" "$want" || fails=$((fails + 1))
done

# The oracle fails when the data is wrong: damage that the ICRC cannot see.
# proof LABEL PARAM VALUE ARGS...: with rdma_rxe's PARAM at VALUE the
# oracle (ARGS) must report a mismatch
proof() {
	local label=$1 param=$2 value=$3
	shift 3
	[ -z "${ORACLE_RUNS:-}" ] || [[ " $ORACLE_RUNS " == *" $label "* ]] || return 0
	rxe_param "$param" "$value"
	oracle_run "$label" ns2 ns1 10.0.0.2 rxe1 rxe0 "$@"
	rxe_param "$param" 0
	oracle_judge "$label" mismatch || fails=$((fails + 1))
}
proof corrupt test_corrupt_every 5 --qp rc -g "$NS_G4" --mtu 1024 --iters 20 \
	--ops send,write,read
proof atomic-twice test_atomic_twice 1 --qp rc -g "$NS_G4" --iters 20 --ops fetch_add
# the other checks' proofs: make check-full (each proven there)
full=$(by_tier "" 1)
[ -z "$full" ] || proof corrupt-uc-write test_corrupt_every 5 --qp uc -g "$NS_G4" --mtu 1024 \
	--iters 20 --ops write
[ -z "$full" ] || proof corrupt-aw test_corrupt_every 5 --qp rc -g "$NS_G4" --iters 20 \
	--ops atomic_write
# aw_refused (ATOMIC WRITE to a device without it; rxe-interop runs it
# against upstream 6.1) must fail when the device executes it: here the
# server only claims to lack it
if [ -n "$full" ] && { [ -z "${ORACLE_RUNS:-}" ] || [[ " $ORACLE_RUNS " == *" aw-refused-proof "* ]]; }; then
	ORACLE_SERVER_ARGS=--test-hide-atomic-write \
		oracle_run aw-refused-proof ns2 ns1 10.0.0.2 rxe1 rxe0 --qp rc -g "$NS_G4" --ops aw_refused
	oracle_judge aw-refused-proof mismatch || fails=$((fails + 1))
fi

echo
echo "=== datapath-oracle results"
column -t "$ORACLE_WORK/results"
for d in "ns1 rxe0" "ns2 rxe1"; do
	read -r ns dev <<<"$d"
	echo "$dev: $(ip netns exec "$ns" rdma statistic show link "$dev/1" 2>&1 | tr -s ' ' | fold -s -w 150)"
done
rm -rf "$ORACLE_WORK"
[ "$fails" = 0 ] || die "$fails oracle run(s) failed"
echo "datapath-oracle: all runs passed"
