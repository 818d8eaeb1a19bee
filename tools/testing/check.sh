#!/bin/bash
# The test suite: "make check" (CHECK_TIER=check, what CI runs, <= 45 min
# with the test kernel cached) or "make check-full" (CHECK_TIER=full: also
# the long matrices, the upstream halves, soaks).  Stages: dependencies,
# test kernel (cached), module build checks, host C++ tests and fuzzing,
# harness self-tests, one QEMU boot for KUnit and the VM scenarios, one
# boot that must die, then the two-VM wire pairs.
#
# Every stage appends "PASS|FAIL <case>" lines to build/check/results.txt.
# Accounting: a stage that exits non-zero without recording a failure gets
# "FAIL stage:<name>"; every case a stage must produce (its census) that
# is missing gets "FAIL <case> (no result)".  The last lines printed are
# the slowest stages and cases, then "N passed, N failed"; any failure
# exits 1.
#
# Environment: CHECK_TIER (check|full), FUZZ_SECONDS (per fuzz target),
# SCENARIOS (VM scenarios to run instead of the tier's), VM_LANES (VMs
# that share the scenarios, at the same time; default 2), VM_TIMEOUT,
# WIRE_TIMEOUT, WIRE_PAIRS (names in tools/testing/vm/wire instead of the
# tier's), CHECK_STAGES (stage names to run, default all).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
vm=$repo/tools/testing/vm
out=$repo/build/check
results=$out/results.txt
timings=$out/timings.txt
tier=${CHECK_TIER:-check}
case "$tier" in
check|full) ;;
*) echo "check: CHECK_TIER must be check or full" >&2; exit 2 ;;
esac
export CHECK_TIER=$tier
rm -rf "$out"
mkdir -p "$out"
: >"$results"
: >"$timings"
t0=$(date +%s)

# shellcheck source=tools/testing/accounting.sh
. "$repo/tools/testing/accounting.sh"

want() {	# want STAGE: run this stage (CHECK_STAGES)
	[ -z "${CHECK_STAGES:-}" ] || [[ " $CHECK_STAGES " == *" $1 "* ]]
}

# modules_ok: the test build's modules are there to load (built by this
# run, or by an earlier one when CHECK_STAGES leaves "build" out)
modules_ok() {
	if want build; then
		grep -q '^PASS build:w1$' "$results"
	else
		[ -f "$repo/build/kbuild/w1/drivers/infiniband/sw/rxe/rdma_rxe.ko" ]
	fi
}

summary() {
	local passed failed
	passed=$(grep -c '^PASS ' "$results")
	failed=$(grep -c '^FAIL ' "$results")
	echo
	echo "slowest stages and cases (seconds):"
	sort -rn "$timings" | head -n 10 | awk '{ printf "  %6d  %s\n", $1, $2 }'
	if [ "$failed" -gt 0 ]; then
		echo
		echo "failed cases:"
		grep '^FAIL ' "$results" | sed 's/^FAIL /  /'
	fi
	echo
	echo "$tier took $(( $(date +%s) - t0 )) s; results in $results"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit $?
}

echo "check: tier $tier"
stage "dependencies"
if ! "$repo/tools/testing/deps.sh"; then
	echo "FAIL deps" >>"$results"
	summary
fi

stage "test kernel"
if kdir=$("$vm/build-kernel.sh"); then
	echo "PASS build:test-kernel" | tee -a "$results"
	echo "kernel: $kdir (built in $(cat "$kdir/.build-seconds") s, cached)"
else
	echo "FAIL build:test-kernel" | tee -a "$results"
	summary
fi

if want build; then
	stage "module build checks"
	build_cases=(build:w1 build:sparse build:cxx-compat build:stock-headers build:harness
		     build:export-signatures)
	[ -x "$repo/../shared/tools/upstream-overlap" ] && build_cases+=(build:upstream-overlap)
	run_stage build "${build_cases[@]}" -- \
		"$repo/tools/testing/build-checks.sh" "$results" "$kdir" "$timings"
fi

if want host; then
	stage "host tests"
	host_cases=(host-build:cmake host-build:cxx-compat host-build:c-compat host-build:tests fuzz-build)
	for f in "$repo"/tools/testing/unit/fuzz/*.cpp; do
		host_cases+=("fuzz:$(basename "$f" .cpp)")
	done
	run_stage host "${host_cases[@]}" -- \
		"$repo/tools/testing/unit/run.sh" "$results" --fuzz-seconds "${FUZZ_SECONDS:-$([ "$tier" = full ] && echo 60 || echo 5)}"
	# census: at least one case per TEST/TEST_F/TEST_P in the sources
	declared=$(cat "$repo"/tools/testing/unit/*_test.cpp | grep -cE '^TEST(_F|_P)?\(')
	ran=$(grep -cE '^(PASS|FAIL) host:' "$results")
	if [ "$ran" -lt "$declared" ]; then
		record FAIL "host:census ($ran cases reported, $declared TEST macros in the sources)"
	fi
fi

if want selftests; then
	stage "in-VM user-space tests (build)"
	run_stage selftests build:selftests -- build_selftests
fi

if want harness; then
	stage "harness self-tests"
	run_stage harness -- "$vm/tests/run.sh" "$results" "$kdir"
fi

# scenarios of this tier: every one in scenarios/, less those marked
# "# tier: full" unless the tier is full
tier_scenarios() {
	local s
	for s in "$vm"/scenarios/*.sh; do
		if [ "$tier" != full ] && grep -q '^# tier: full' "$s"; then
			continue
		fi
		basename "$s" .sh
	done
}

# scenario_cost NAME: its "# cost: SECONDS" line (what it took in a
# two-VM make check), or 100
scenario_cost() {
	local c
	c=$(sed -n 's/^# cost: *\([0-9][0-9]*\).*/\1/p' "$vm/scenarios/$1.sh" 2>/dev/null | head -n 1)
	echo "${c:-100}"
}

# vm_lanes LANES SCENARIO...: the scenarios split over LANES VMs that run
# at the same time (longest first, each to the least loaded VM; each VM
# runs its share in name order).  The guest's work is mostly one shell
# step at a time, so a second VM uses the host core the first leaves
# idle.  VM N writes to $out/vm (N = 1) or $out/vm-N, its leak verdict is
# vm:kmemleak or vm:kmemleak-N, its output is shown after all have ended.
vm_lanes() {
	local lanes=$1 s i best rc=0
	shift
	local -a load=() members=() pids=()
	for ((i = 0; i < lanes; i++)); do load[i]=0; members[i]=""; done
	while read -r _ s; do
		best=0
		for ((i = 1; i < lanes; i++)); do
			[ "${load[i]}" -lt "${load[best]}" ] && best=$i
		done
		load[best]=$(( load[best] + $(scenario_cost "$s") ))
		members[best]="${members[best]} $s"
	done < <(for s in "$@"; do echo "$(scenario_cost "$s") $s"; done | sort -k1,1nr -k2)
	for ((i = 0; i < lanes; i++)); do
		[ -n "${members[i]}" ] || continue
		local -a mine
		read -r -a mine < <(tr ' ' '\n' <<<"${members[i]}" | sed '/^$/d' | sort | tr '\n' ' ')
		local dir=$out/vm leak=kmemleak
		[ "$i" = 0 ] || { dir=$out/vm-$((i + 1)); leak=kmemleak-$((i + 1)); }
		echo "vm lane $((i + 1)): ${mine[*]} (cost ${load[i]})"
		"$vm/run-vm.sh" --kdir "$kdir" --moddir "$repo/build/kbuild/w1" \
			--out "$dir" --results "$results" --timings "$timings" --kmemleak-case "$leak" \
			--timeout "${VM_TIMEOUT:-$([ "${CHECK_TIER:-check}" = full ] && echo 14400 || echo 4800)}" \
			"${mine[@]}" >"$out/vm-lane-$((i + 1)).out" 2>&1 &
		pids[i]=$!
	done
	for ((i = 0; i < lanes; i++)); do
		[ -n "${pids[i]:-}" ] || continue
		wait "${pids[i]}" || rc=1
		echo "--- vm lane $((i + 1))"
		cat "$out/vm-lane-$((i + 1)).out"
	done
	return $rc
}

if want vm; then
	stage "VM: KUnit and scenarios"
	if modules_ok; then
		if [ -n "${SCENARIOS:-}" ]; then
			read -r -a scen <<<"$SCENARIOS"
		else
			mapfile -t scen < <(tier_scenarios)
		fi
		lanes=${VM_LANES:-2}
		[ "$lanes" -le "${#scen[@]}" ] || lanes=${#scen[@]}
		vm_cases=(vm:kmemleak)
		for ((i = 2; i <= lanes; i++)); do vm_cases+=("vm:kmemleak-$i"); done
		for s in "${scen[@]}"; do vm_cases+=("vm:$s"); done
		run_stage vm "${vm_cases[@]}" -- vm_lanes "$lanes" "${scen[@]}"
	else
		record FAIL "vm:not-run (modules did not build)"
	fi
fi

if want vm-dies; then
	stage "harness self-test: a VM that dies"
	run_stage vm-dies harness:vm-dies -- "$vm/tests/vm-dies.sh" "$results" "$kdir" \
		"$repo/build/kbuild/w1" "$out/vm-dies"
fi

# wire pairs of this tier: "NAME" for wire/NAME-a.sh + wire/NAME-b.sh;
# a pair marked "# tier: full" in its -a script runs only in full
tier_pairs() {
	local a
	for a in "$vm"/wire/*-a.sh; do
		if [ "$tier" != full ] && grep -q '^# tier: full' "$a"; then
			continue
		fi
		basename "$a" -a.sh
	done
}

if want wire; then
	if [ -n "${WIRE_PAIRS:-}" ]; then
		read -r -a pairs <<<"$WIRE_PAIRS"
	else
		mapfile -t pairs < <(tier_pairs)
	fi
	for p in "${pairs[@]}"; do
		stage "VM: two VMs on one wire: $p"
		if modules_ok; then
			run_stage "wire-$p" "vm-wire:$p" -- \
				"$vm/wire-pair.sh" --kdir "$kdir" --moddir "$repo/build/kbuild/w1" \
				--results "$results" --timings "$timings" \
				--timeout "${WIRE_TIMEOUT:-1500}" \
				"$vm/wire/$p-a.sh" "$vm/wire/$p-b.sh"
		else
			record FAIL "vm-wire:$p (modules did not build)"
		fi
	done
fi

summary
