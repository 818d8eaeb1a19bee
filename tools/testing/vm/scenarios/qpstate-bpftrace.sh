#!/bin/bash
# cost: 114 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# QP states seen by bpftrace (issue 4, acceptance 2): a user process
# (verbs_objects --drive-qp) moves one RC QP RESET->INIT->RTR->RTS->ERR;
# with our stack tools/bpf/qpstate.bt (tracepoint rdma_core:qp_modify)
# must print the four transitions for that QP, and a kprobe on
# ib_modify_qp must see the four requested states from that process (both
# probes in one bpftrace run: attaching costs minutes under TCG).
# Upstream 6.1 has no such tracepoint and its user path does not call
# ib_modify_qp: what it shows is recorded, not judged (see
# Documentation/dev-tools/verbs-differences.rst).
# VERBS_STACKS (default: ours in make check, "upstream ours" in check-full) picks the stacks.
. "$REPO/tools/testing/vm/lib.sh"

T=$REPO/build/selftests/verbs_objects
QPSTATE=$REPO/tools/bpf/qpstate.bt
[ -x "$T" ] || die "$T not built (make check builds it)"
work=$(mktemp -d)

# requested state (first member of struct ib_qp_attr) and mask, by comm
KPROBE='kprobe:ib_modify_qp /comm == "verbs_objects"/ {
	printf("kprobe ib_modify_qp comm %s state %d mask 0x%x\n", comm, *(uint32 *)arg1, arg2);
}'

# drive OUT: one QP through its states; prints the QP number
drive() {
	VERBS_DEV=rxe0 timeout 120 "$T" --drive-qp 0 >"$1" 2>&1 || { cat "$1"; return 1; }
	grep -q '^done' "$1" || { cat "$1"; return 1; }
	awk '/^qpn /{print $2}' "$1"
}

# traced NAME PROGRAM: start bpftrace, drive a QP, stop; output in
# $work/NAME.bt, the QP number in $work/NAME.qpn
traced() {
	local name=$1 prog=$2
	bpftrace_start "$work/$name.bt" "$prog" || { cat "$work/$name.bt"; return 1; }
	drive "$work/$name.drive" >"$work/$name.qpn" || { bpftrace_stop "$BPFTRACE_PID"; return 2; }
	sleep 1
	bpftrace_stop "$BPFTRACE_PID" || return 3
	echo "--- $name (QP $(cat "$work/$name.qpn"))"
	grep -v __BPFTRACE_NOTIFY "$work/$name.bt"
}

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# ours: one bpftrace run with both probes (attaching costs minutes under a
# loaded TCG); the shipped script's lines and the kprobe's lines differ
ours_case() {
	[ -f "$QPSTATE" ] || { fail "ours: $QPSTATE missing"; return; }
	traced both "$(cat "$QPSTATE")
$KPROBE" || { fail "ours: bpftrace run failed ($?)"; return; }
	qpn=$(cat "$work/both.qpn")
	for tr in RESET-\>INIT INIT-\>RTR RTR-\>RTS RTS-\>ERR; do
		grep -qE "^rxe0 QP$qpn RC $tr ok\$" "$work/both.bt" ||
			fail "ours: tracepoint: no line 'rxe0 QP$qpn RC $tr ok'"
	done
	got=$(awk '/^kprobe ib_modify_qp/{printf "%s ", $6}' "$work/both.bt")
	# INIT=1 RTR=2 RTS=3 ERR=6 (enum ib_qp_state)
	[ "$got" = "1 2 3 6 " ] || fail "ours: kprobe saw requested states '$got', want '1 2 3 6 '"
}

# upstream, recorded: the tracepoint's absence and, through a tracefs
# kprobe (bpftrace would add minutes), the calls of ib_modify_qp
upstream_case() {
	local tr=/sys/kernel/tracing n
	# upstream's rdma_core system exists (CQ events); qp_modify does not
	[ -d $tr/events/rdma_core/qp_modify ] &&
		echo "upstream: has an rdma_core:qp_modify tracepoint" ||
		echo "upstream: no rdma_core:qp_modify tracepoint"
	echo 'p:verbs_qpstate ib_modify_qp state=+0(%si):u32 mask=%dx' >>$tr/kprobe_events ||
		{ echo "upstream: kprobe on ib_modify_qp refused"; return; }
	echo 1 >$tr/events/kprobes/verbs_qpstate/enable
	: >$tr/trace
	drive "$work/up.drive" >"$work/up.qpn" || fail "upstream: drive-qp failed"
	echo 0 >$tr/events/kprobes/verbs_qpstate/enable
	n=$(grep -c 'verbs_objects.*verbs_qpstate' $tr/trace)
	grep verbs_qpstate $tr/trace | grep -v '^#'
	echo '-:verbs_qpstate' >>$tr/kprobe_events
	echo "upstream: $n ib_modify_qp call(s) from the user process's QP $(cat "$work/up.qpn") (6.1's user path bypasses it)"
}

for stack in ${VERBS_STACKS:-$(by_tier ours "upstream ours")}; do
	echo "=== $stack"
	stack_load "$stack" || die "load $stack"
	rxe0_up
	"${stack}_case"
	rdma link delete rxe0
	ip link del veth0
	stack_unload || die "unload $stack"
done
rm -rf "$work"
[ "$fails" = 0 ] || die "$fails failure(s) above"
echo "qpstate-bpftrace: all checks passed"
