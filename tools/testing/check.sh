#!/bin/bash
# The whole test suite ("make check"): dependencies, test kernel (cached),
# module build checks, host C++ tests and fuzzing, harness self-tests, then
# one QEMU boot that runs the KUnit suites and the VM scenarios.  Every
# stage appends "PASS|FAIL <case>" lines to build/check/results.txt; the
# last line printed is "N passed, N failed" and any failure exits 1.
#
# Environment: FUZZ_SECONDS (per fuzz target, default 20), SCENARIOS (VM
# scenarios to run, default all in tools/testing/vm/scenarios), VM_TIMEOUT.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/check
results=$out/results.txt
rm -rf "$out"
mkdir -p "$out"
: >"$results"
t0=$(date +%s)

stage() { printf '\n=== %s (%d s)\n' "$*" $(( $(date +%s) - t0 )); }

summary() {
	local passed failed
	passed=$(grep -c '^PASS ' "$results")
	failed=$(grep -c '^FAIL ' "$results")
	if [ "$failed" -gt 0 ]; then
		echo
		echo "failed cases:"
		grep '^FAIL ' "$results" | sed 's/^FAIL /  /'
	fi
	echo
	echo "check took $(( $(date +%s) - t0 )) s; results in $results"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit $?
}

stage "dependencies"
if ! "$repo/tools/testing/deps.sh"; then
	echo "FAIL deps" >>"$results"
	summary
fi

stage "test kernel"
if kdir=$("$repo/tools/testing/vm/build-kernel.sh"); then
	echo "PASS build:test-kernel" | tee -a "$results"
	echo "kernel: $kdir (built in $(cat "$kdir/.build-seconds") s, cached)"
else
	echo "FAIL build:test-kernel" | tee -a "$results"
	summary
fi

stage "module build checks"
"$repo/tools/testing/build-checks.sh" "$results" "$kdir"

stage "host tests"
"$repo/tools/testing/unit/run.sh" "$results" --fuzz-seconds "${FUZZ_SECONDS:-20}"

stage "in-VM user-space tests (build)"
if cmake -S "$repo/tools/testing/selftests" -B "$repo/build/selftests" >"$out/selftests.log" 2>&1 &&
   cmake --build "$repo/build/selftests" -j2 >>"$out/selftests.log" 2>&1; then
	echo "PASS build:selftests" | tee -a "$results"
else
	echo "FAIL build:selftests" | tee -a "$results"
	tail -n 30 "$out/selftests.log"
fi

stage "harness self-tests"
"$repo/tools/testing/vm/tests/run.sh" "$results"

stage "VM: KUnit and scenarios"
if grep -q '^PASS build:w1$' "$results"; then
	if [ -n "${SCENARIOS:-}" ]; then
		read -r -a scen <<<"$SCENARIOS"
	else
		scen=()
		for s in "$repo"/tools/testing/vm/scenarios/*.sh; do
			scen+=("$(basename "$s" .sh)")
		done
	fi
	"$repo/tools/testing/vm/run-vm.sh" --kdir "$kdir" --moddir "$repo/build/kbuild/w1" \
		--out "$out/vm" --results "$results" --timeout "${VM_TIMEOUT:-4800}" "${scen[@]}"
else
	echo "FAIL vm:not-run (modules did not build)" | tee -a "$results"
fi

stage "VM: two VMs on one wire"
"$repo/tools/testing/vm/wire-pair.sh" --kdir "$kdir" --results "$results" \
	"$repo/tools/testing/vm/wire/udp-echo-a.sh" "$repo/tools/testing/vm/wire/udp-echo-b.sh"

stage "VM: our rxe and upstream's on one wire"
# issue 5, acceptance 4: every tool both ways between the two stacks
if grep -q '^PASS build:w1$' "$results"; then
	"$repo/tools/testing/vm/wire-pair.sh" --kdir "$kdir" --moddir "$repo/build/kbuild/w1" \
		--results "$results" \
		"$repo/tools/testing/vm/wire/rxe-interop-a.sh" "$repo/tools/testing/vm/wire/rxe-interop-b.sh"
else
	echo "FAIL vm-wire:rxe-interop (modules did not build)" | tee -a "$results"
fi

summary
