#!/bin/bash
# Self-tests of the harness's judges on fixture logs (kernel-reports.sh,
# ktap.py with its census, kmemleak-split.py) and of check.sh's accounting
# (accounting.sh) on stages that go wrong.  Usage: run.sh RESULTS [KDIR]
set -u
results=$1
kdir=${2:-$(cd "$(dirname "$0")/.." && ./build-kernel.sh --dir)}
here=$(cd "$(dirname "$0")" && pwd)
vm=$here/..
fx=$here/fixtures

record() {
	echo "$1 harness:$2"
	echo "$1 harness:$2" >>"$results"
}

for f in "$fx"/report-*.log; do
	name=$(basename "$f" .log)
	if "$vm/kernel-reports.sh" "$f" >/dev/null; then
		record FAIL "$name (not detected)"
	else
		record PASS "$name"
	fi
done
if "$vm/kernel-reports.sh" "$fx/clean.log" >/dev/null; then
	record PASS clean-log
else
	record FAIL "clean-log (false report)"
fi
for f in "$fx"/ktap-*.log; do
	name=$(basename "$f" .log)
	census=()
	[ -f "$fx/$name.census" ] && census=(--census "$fx/$name.census")
	if diff -u "$fx/$name.expected" <(python3 "$vm/ktap.py" --prefix kunit: "${census[@]}" "$f"); then
		record PASS "$name"
	else
		record FAIL "$name"
	fi
done
# a log without any KTAP is an error, not an empty pass
if python3 "$vm/ktap.py" "$fx/clean.log" >/dev/null; then
	record FAIL "ktap-none (accepted)"
else
	record PASS ktap-none
fi
# the census of our own sources is not empty and names the rxe suites
if python3 "$vm/kunit-census.py" "$here/../../../.." | grep -q ' rdma_rxe_requester [1-9]'; then
	record PASS kunit-census
else
	record FAIL "kunit-census (our sources' suites not found)"
fi
# kmemleak: the self-test's leak is told apart from a real one
if "$vm/kmemleak-split.py" "$fx/kmemleak-harness.txt" >/dev/null &&
   ! "$vm/kmemleak-split.py" "$fx/report-kmemleak.log" >/dev/null &&
   "$vm/kmemleak-split.py" "$fx/kmemleak-harness.txt" | grep -qx 'harness 1'; then
	record PASS kmemleak-split
else
	record FAIL kmemleak-split
fi
# ... and what the boot leaked (allocated before the scenarios) from what
# a scenario leaked
if [ "$("$vm/kmemleak-split.py" --since 4294900000 "$fx/kmemleak-boot.txt" | awk 'NR <= 3' | tr '\n' ' ')" = "harness 0 boot 1 other 1 " ]; then
	record PASS kmemleak-boot
else
	record FAIL kmemleak-boot
fi

# check.sh's accounting, on a scratch results file
acct() {	# acct NAME EXPECTED-LINE [run_stage args...]
	local name=$1 want=$2 got
	shift 2
	got=$(
		results=$(mktemp) timings=/dev/null t0=0
		export results
		# shellcheck source=../../accounting.sh
		. "$here/../../accounting.sh"
		run_stage "$@" >/dev/null 2>&1
		cat "$results"
		rm -f "$results"
	)
	if grep -qxF "$want" <<<"$got"; then
		record PASS "accounting-$name"
	else
		record FAIL "accounting-$name (want '$want', got: $(tr '\n' ' ' <<<"$got"))"
	fi
}
# a scenario that does not exist: run-vm.sh stops before booting
acct missing-scenario "FAIL stage:vm (exit status 2, no failure recorded)" \
	vm vm:no-such-scenario -- "$vm/run-vm.sh" --kdir "$kdir" no-such-scenario
acct missing-scenario-census "FAIL vm:no-such-scenario (no result)" \
	vm vm:no-such-scenario -- "$vm/run-vm.sh" --kdir "$kdir" no-such-scenario
# a VM that cannot boot (no kernel there)
acct no-kernel "FAIL stage:vm (exit status 1, no failure recorded)" \
	vm vm:core-load-unload -- "$vm/run-vm.sh" --kdir / core-load-unload
# a stage that records a PASS for one case but not another
acct missing-case "FAIL b (no result)" s a b -- sh -c 'echo "PASS a" >>"$results"'
# a stage whose own failure line is kept as it is, not doubled
acct stage-failed "FAIL x" s x -- sh -c 'echo "FAIL x" >>"$results"; exit 1'
# (and no "FAIL stage:s" beside it: checked by counting)
n=$(results=$(mktemp); export results timings=/dev/null t0=0
	. "$here/../../accounting.sh"
	run_stage s x -- sh -c 'echo "FAIL x" >>"$results"; exit 1' >/dev/null
	grep -c . "$results"; rm -f "$results")
if [ "$n" = 1 ]; then record PASS accounting-no-double; else record FAIL "accounting-no-double ($n lines)"; fi
exit 0
