#!/bin/bash
# cost: 60 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Device removal under object churn (issue 4, acceptance 4): two
# verbs_churn processes create and destroy PD/comp channel/CQ/MR/SRQ/QP/
# AH in a loop on rxe0 while the device goes away by (a) rdma link delete,
# (b) deleting the netdev, (c) rmmod rdma_rxe, (d) moving the netdev to
# another namespace (exclusive mode).  Ours: the removal completes within
# $REMOVE_LIMIT s, each process sees IBV_EVENT_DEVICE_FATAL and later verbs
# fail with EIO, and exits cleanly; leaks are the end-of-run kmemleak verdict's (vm:kmemleak).
# (Kernel splats fail the scenario through the harness.)  Upstream 6.1 is
# run first and only recorded: rxe has no disassociate_ucontext, so its
# removal waits for the processes (documented in
# Documentation/dev-tools/verbs-differences.rst).
# VERBS_STACKS (default: ours in make check, "upstream ours" in check-full) picks the stacks,
# VERBS_TEARDOWN_METHODS (default: two in make check, all four in
# check-full) the removals.
. "$REPO/tools/testing/vm/lib.sh"

C=$REPO/build/selftests/verbs_churn
[ -x "$C" ] || die "$C not built (make check builds it)"
REMOVE_LIMIT=${REMOVE_LIMIT:-120}
work=$(mktemp -d)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

rxe_load() {
	grep -q '^rdma_rxe ' /proc/modules && return 0
	if [ "$1" = ours ]; then
		insmod "$MODDIR/drivers/infiniband/sw/rxe/rdma_rxe.ko"
	else
		modprobe rdma_rxe
	fi
}

# removal METHOD: the command that takes rxe0 away
removal() {
	case "$1" in
	link-delete) rdma link delete rxe0 ;;
	netdev-delete) ip link del veth0 ;;
	rmmod) rmmod rdma_rxe ;;
	netns-move) ip link set veth0 netns vmove ;;
	esac
}

# one_case STACK METHOD
one_case() {
	local stack=$1 method=$2 max i p t0 rpid rrc rs="" crc
	local -a pids
	echo "--- $stack: $method"
	[ "$method" = netns-move ] && { rdma_netns_mode exclusive || die "exclusive mode"; ip netns add vmove; }
	rxe_load "$stack" || die "load rdma_rxe"
	rxe0_up
	# upstream's removal waits for the processes: let them end sooner
	max=120
	[ "$stack" = upstream ] && max=15
	for i in 1 2; do
		VERBS_DEV=rxe0 "$C" "$max" >"$work/churn$i" 2>&1 &
		pids+=($!)
	done
	for ((i = 0; i < 300; i++)); do
		[ "$(grep -l '^running' "$work/churn1" "$work/churn2" 2>/dev/null | wc -l)" = 2 ] && break
		sleep 0.2
	done
	grep -q '^running' "$work/churn1" && grep -q '^running' "$work/churn2" ||
		{ cat "$work/churn1" "$work/churn2"; die "$stack: churn did not start"; }

	t0=$(date +%s)
	removal "$method" >"$work/removal" 2>&1 &
	rpid=$!
	while [ $(( $(date +%s) - t0 )) -lt "$REMOVE_LIMIT" ]; do
		kill -0 "$rpid" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$rpid" 2>/dev/null; then
		rs="still blocked after $REMOVE_LIMIT s"
	fi
	# the churn processes end by themselves (device gone, or max seconds)
	i=1
	for p in "${pids[@]}"; do
		wait "$p"
		crc=$?
		echo "$stack $method churn$i: rc=$crc $(grep '^churn:' "$work/churn$i")"
		if [ "$stack" = ours ] && [ "$crc" != 0 ]; then
			fail "ours $method: churn$i exited $crc (2: no DEVICE_FATAL, 3: later verb not EIO, 4: device stayed)"
			cat "$work/churn$i"
		fi
		i=$((i + 1))
	done
	wait "$rpid"
	rrc=$?
	echo "$stack $method: removal rc=$rrc, $(( $(date +%s) - t0 )) s until it and both processes ended${rs:+ ($rs)} $(tr '\n' ' ' <"$work/removal")"
	if [ "$stack" = ours ]; then
		[ -z "$rs" ] || fail "ours $method: removal $rs"
		[ "$rrc" = 0 ] || fail "ours $method: removal failed (rc $rrc)"
		# a move completes after its users let go (a queued work)
		for ((i = 0; i < 50; i++)); do
			rdma dev show rxe0 >/dev/null 2>&1 || break
			sleep 0.2
		done
		rdma dev show rxe0 >/dev/null 2>&1 && fail "ours $method: rxe0 still listed"
	fi

	# clean up whatever is left for the next case
	rdma link delete rxe0 2>/dev/null
	ip link del veth0 2>/dev/null
	ip link del veth1 2>/dev/null
	if [ "$method" = netns-move ]; then
		ip netns del vmove
		rdma_netns_mode shared || die "shared mode"
	fi
	return 0
}

for stack in ${VERBS_STACKS:-$(by_tier ours "upstream ours")}; do
	echo "=== $stack"
	stack_load "$stack" || die "load $stack"
	# make check: the removals teardown-traffic does not do there
	# (netdev-delete, netns-move); check-full: all four
	for method in ${VERBS_TEARDOWN_METHODS:-$(by_tier "netdev-delete netns-move" "link-delete netdev-delete rmmod netns-move")}; do
		one_case "$stack" "$method"
	done
	stack_unload || die "unload $stack"
done

rm -rf "$work"
[ "$fails" = 0 ] || die "$fails failure(s) above"
echo "verbs-teardown: all checks passed"
