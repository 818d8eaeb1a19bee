#!/bin/bash
# cost: 56 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Verbs objects (issue 4, acceptance 1 and 3): the verbs_objects selftest
# (every object through libibverbs and raw uverbs writes, good and bad
# arguments with exact errnos) against upstream's modules, then ours, in
# this VM; per stack, "rdma res show qp|cq|mr|pd" must list the objects of
# a process holding them (verbs_objects --hold) with its pid and comm.
# Expected differences: Documentation/dev-tools/verbs-differences.rst.
# VERBS_STACKS (default: ours in make check, "upstream ours" in check-full) picks the stacks.
. "$REPO/tools/testing/vm/lib.sh"

T=${VERBS_OBJECTS:-$REPO/build/selftests/verbs_objects}
[ -x "$T" ] || die "$T not built (make check builds it)"
work=$(mktemp -d)

# res_check STACK: a holder process's objects in rdma res show
res_check() {
	local stack=$1 pid line i ok=0 what
	mkfifo "$work/hold.in"
	"$T" --hold <"$work/hold.in" >"$work/hold.out" 2>&1 &
	pid=$!
	exec 3>"$work/hold.in"
	for ((i = 0; i < 300; i++)); do
		grep -q '^ready' "$work/hold.out" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	line=$(grep '^ready' "$work/hold.out")
	echo "$stack holder: $line"
	if [ -n "$line" ]; then
		read -r _ _ _ _ qpn _ lkey _ rkey _ len <<<"$line"
		ok=1
		for what in pd cq mr qp; do
			rdma res show "$what" >"$work/res-$what" 2>&1
			echo "--- rdma res show $what"
			cat "$work/res-$what"
			grep -E "pid $pid( |$)" "$work/res-$what" | grep -q 'comm verbs_objects' ||
				{ echo "FAIL: $stack: rdma res show $what: no object with pid $pid comm verbs_objects"; ok=0; }
		done
		grep -E "lqpn $qpn .*type RC state RTS" "$work/res-qp" | grep -q "pid $pid" ||
			{ echo "FAIL: $stack: QP $qpn (RC, RTS) of pid $pid not listed"; ok=0; }
		grep -E "rkey $rkey lkey $lkey" "$work/res-mr" | grep -E "mrlen $len( |$)" | grep -q "pid $pid" ||
			{ echo "FAIL: $stack: MR lkey $lkey rkey $rkey mrlen $len of pid $pid not listed"; ok=0; }
	else
		echo "FAIL: $stack: holder did not get ready:"; cat "$work/hold.out"
	fi
	exec 3>&-
	wait "$pid"
	rm -f "$work/hold.in"
	# gone with the process
	if rdma res show qp 2>&1 | grep -qE "pid $pid( |$)"; then
		echo "FAIL: $stack: pid $pid's QP still listed after it exited"; ok=0
	fi
	[ "$ok" = 1 ]
}

fails=0
for stack in ${VERBS_STACKS:-$(by_tier ours "upstream ours")}; do
	echo "=== $stack"
	stack_load "$stack" || die "load $stack"
	rxe0_up
	# live into the log: a hung case shows where it hangs
	STACK=$stack VERBS_DEV=rxe0 timeout -k 5 600 "$T" 2>&1
	rc=$?
	echo "verbs_objects ($stack): rc=$rc"
	[ "$rc" = 0 ] || { echo "FAIL: verbs_objects against $stack"; fails=$((fails + 1)); }
	res_check "$stack" || fails=$((fails + 1))
	rxe0_down
	stack_unload || die "unload $stack"
done
rm -rf "$work"
[ "$fails" = 0 ] || die "$fails failure(s) above"
echo "verbs-objects: all checks passed"
