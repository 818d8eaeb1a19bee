#!/bin/bash
# Runs inside the test VM (from init.sh): each scenario script in turn,
# with a timeout, its output and the kernel log of its run saved to the
# output share as NAME.log, NAME.dmesg and NAME.rc ("rc seconds taint-before taint-after");
# with SCENARIO_TRACE=1 (VM_ENV=SCENARIO_TRACE) also NAME.trace, every
# command with a time stamp (tools/testing/vm/trace-top.py sums it up).
# The host (run-vm.sh) judges them.  Ends with a kmemleak scan over
# everything the scenarios did (no scenario clears kmemleak).
set -u
OUT=${OUT:-/run/out}
timeout_s=${SCENARIO_TIMEOUT:-1500}
# the leak verdict leaves out what was allocated before the scenarios
# (kmemleak reports each object's allocation time in jiffies)
sed -n 's/^jiffies: //p' /proc/timer_list | head -n 1 >"$OUT/kmemleak.start"

# group_procs PGID: "PID:COMM ..." of the processes in process group PGID,
# read by the shell from /proc (no pgrep: every exec costs about half a
# second under TCG, and mostly nothing is left)
group_procs() {
	local d st comm pgrp out=
	for d in /proc/[0-9]*; do
		{ read -r st <"$d/stat"; } 2>/dev/null || continue
		comm=${st#*(}
		comm=${comm%)*}
		# after the comm: state ppid pgrp ...
		read -r _ _ pgrp _ <<<"${st##*) }"
		[ "$pgrp" = "$1" ] && out+="${d#/proc/}:$comm "
	done
	echo "$out"
}

# reap_group PGID: TERM, then KILL, what is left in process group PGID
reap_group() {
	local i left
	left=$(group_procs "$1")
	[ -n "$left" ] || return 0
	echo "run-scenarios: left running: $left"
	kill -TERM -- "-$1" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		pgrep -g "$1" >/dev/null || return 0
		[ "$i" = 50 ] && kill -KILL -- "-$1" 2>/dev/null
		sleep 0.2
	done
	echo "run-scenarios: still running after SIGKILL: $(pgrep -g "$1" -l | tr '\n' ' ')"
}

for s in "$@"; do
	name=${s##*/}
	name=${name%.sh}
	dmesg -C
	echo "== scenario $name" >/dev/kmsg
	# (read by the shell: every exec costs about half a second under TCG)
	read -r taint_before </proc/sys/kernel/tainted
	start=$EPOCHSECONDS
	read -r _ u0 n0 s0 idle0 w0 i0 q0 _ </proc/stat
	# a scenario whose full tier needs longer says so in a header line
	# "# scenario-timeout-full: SECONDS"
	t=$timeout_s
	if [ "${CHECK_TIER:-check}" = full ]; then
		v=$(sed -n 's/^# scenario-timeout-full: \([0-9][0-9]*\)$/\1/p' "$s" | head -n 1)
		[ -n "$v" ] && [ "$v" -gt "$t" ] && t=$v
	fi
	if [ -n "${SCENARIO_TRACE:-}" ]; then
		# a time-stamped trace of every command (no fork per line):
		# where a scenario spends its time
		# (a function whose stderr the scenario captures captures its
		# trace lines too: such a scenario may fail when traced)
		BASH_ENV=$REPO/tools/testing/vm/trace.bashenv timeout -k 10 "$t" \
			bash "$s" >"$OUT/$name.log" 2>"$OUT/$name.trace" </dev/null &
	else
		timeout -k 10 "$t" bash "$s" >"$OUT/$name.log" 2>&1 </dev/null &
	fi
	pgid=$!
	wait "$pgid"
	rc=$?
	# timeout(1) leads a process group of its own: what the scenario
	# left running (a server it did not wait for, a bpftrace still
	# detaching) goes before the unload; what a kill cannot end (stuck
	# in the kernel) keeps the stack from unloading and fails below
	reap_group "$pgid" >>"$OUT/$name.log" 2>&1
	# named network namespaces a scenario left (its cleanup trap does
	# not run when the timeout kills it) go too: the rdma netns mode
	# changes only while no other namespace exists
	for ns in /run/netns/*; do
		[ -e "$ns" ] || continue
		ip netns del "${ns##*/}" &&
			echo "run-scenarios: removed network namespace ${ns##*/} left by $name"
	done >>"$OUT/$name.log" 2>&1
	# whatever the scenario left loaded goes now, so the next one starts
	# clean; a stack that cannot be unloaded fails the scenario
	if ! (. "$REPO/tools/testing/vm/lib.sh" && stack_unload) >>"$OUT/$name.log" 2>&1; then
		echo "run-scenarios: could not unload the stack after $name" >>"$OUT/$name.log"
		[ "$rc" = 0 ] && rc=99
	fi
	end=$EPOCHSECONDS
	# busy: the share of the scenario's time the guest CPU was not idle
	# (an idle TCG guest leaves its host core to the other VM)
	read -r _ u1 n1 s1 idle1 w1 i1 q1 _ </proc/stat
	b=$(( (u1 - u0) + (n1 - n0) + (s1 - s0) + (i1 - i0) + (q1 - q0) ))
	busy=$(( 100 * b / (b + idle1 - idle0 + w1 - w0 + 1) ))
	dmesg >"$OUT/$name.dmesg"
	read -r taint_after </proc/sys/kernel/tainted
	echo "$rc $((end - start)) $taint_before $taint_after $busy" >"$OUT/$name.rc"
	echo "scenario $name: rc=$rc ($((end - start)) s, CPU busy $busy %)"
done

# Leaks of the whole run (kmemleak_scan in lib.sh: two scans); the host
# judges kmemleak.txt (kmemleak-split.py).  kmemleak.rc says whether the
# scan ran: "done", or "off" when kmemleak could not scan.
if (. "$REPO/tools/testing/vm/lib.sh" && kmemleak_scan) >"$OUT/kmemleak.txt" 2>"$OUT/kmemleak.err"; then
	echo done >"$OUT/kmemleak.rc"
else
	echo off >"$OUT/kmemleak.rc"
fi
