#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Host unit tests of the pure kernel files (see README.rst): configure and
# build with gcc, run ctest, build the libFuzzer targets with clang and run
# each for a while.  Entry point of `make check`.
#
# usage: run.sh RESULTS_FILE [--fuzz-seconds N]
#
# Appends one line per case to RESULTS_FILE:
#   PASS|FAIL host:<ctest name>        every GoogleTest case
#   PASS|FAIL host-build:<step>        cmake, cxx-compat, c-compat, tests
#   PASS|FAIL fuzz-build               clang configure + build
#   PASS|FAIL fuzz:<target>            each fuzz target, N seconds (0: seeds only)
# Exits 0 whatever the outcome (the caller counts lines), 2 on usage errors.
#
# Environment: BUILD_DIR (default <repo>/build/unit), FUZZ_BUILD_DIR
# (default <repo>/build/unit-fuzz), TMPDIR for fuzz scratch directories,
# FUZZ_JOBS (fuzz targets run at once; default: the number of CPUs).
set -u

usage() {
	echo "usage: $0 RESULTS_FILE [--fuzz-seconds N]" >&2
	exit 2
}

if [ $# -lt 1 ] || [ -z "$1" ]; then
	usage
fi
results=$1
shift
fuzz_seconds=20
while [ $# -gt 0 ]; do
	case $1 in
	--fuzz-seconds)
		[ $# -ge 2 ] || usage
		fuzz_seconds=$2
		shift 2
		;;
	--fuzz-seconds=*)
		fuzz_seconds=${1#*=}
		shift
		;;
	*)
		usage
		;;
	esac
done
[[ $fuzz_seconds =~ ^[0-9]+$ ]] || usage

case $results in
/*) ;;
*) results=$PWD/$results ;;
esac
if ! : >>"$results"; then
	echo "run.sh: cannot write $results" >&2
	exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=${BUILD_DIR:-$repo/build/unit}
fuzz_build=${FUZZ_BUILD_DIR:-$repo/build/unit-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)

npass=0
nfail=0
failed=()

# record PASS|FAIL NAME
record() {
	printf '%s %s\n' "$1" "$2" >>"$results"
	if [ "$1" = PASS ]; then
		npass=$((npass + 1))
	else
		nfail=$((nfail + 1))
		failed+=("$2")
		echo "FAIL $2"
	fi
}

step() {
	printf '\n=== run.sh: %s\n' "$*"
}

# build_target DIR TARGET LABEL
build_target() {
	step "build $1 --target $2"
	if cmake --build "$1" --target "$2" -j "$jobs" 2>&1; then
		record PASS "$3"
		return 0
	fi
	record FAIL "$3"
	return 1
}

xml_unescape() {
	local s=$1
	s=${s//&lt;/<}
	s=${s//&gt;/>}
	s=${s//&quot;/\"}
	s=${s//&apos;/\'}
	s=${s//&amp;/&}
	printf '%s' "$s"
}

# ---------------------------------------------------------------- host (gcc)
host() {
	local junit=$build/ctest-junit.xml line name status count=0
	local re='<testcase name="([^"]*)".* status="([a-z]+)"'

	step "configure $build (gcc)"
	if ! CC=gcc CXX=g++ cmake -S "$here" -B "$build" 2>&1; then
		record FAIL host-build:cmake
		record FAIL host-build:cxx-compat
		record FAIL host-build:c-compat
		record FAIL host-build:tests
		return
	fi
	record PASS host-build:cmake
	build_target "$build" unit_pure host-build:cxx-compat
	build_target "$build" unit_pure_c host-build:c-compat
	build_target "$build" unit_tests host-build:tests || return

	step "ctest (passing cases not listed here; see $results)"
	rm -f "$junit"
	ctest --test-dir "$build" -j "$jobs" --timeout 120 \
		--output-on-failure --output-junit "$junit" 2>&1 |
		grep -Ev -e '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed +[0-9.]+ sec$' \
			-e '^ +Start +[0-9]+: '

	if [ ! -s "$junit" ]; then
		echo "run.sh: ctest wrote no $junit"
		record FAIL host:ctest
		return
	fi
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		name=$(xml_unescape "${BASH_REMATCH[1]}")
		status=${BASH_REMATCH[2]}
		count=$((count + 1))
		case $status in
		run) record PASS "host:$name" ;;
		disabled) echo "run.sh: skipped disabled case $name" ;;
		*) record FAIL "host:$name" ;;
		esac
	done <"$junit"
	if [ "$count" -eq 0 ]; then
		echo "run.sh: no test cases in $junit"
		record FAIL host:ctest
	fi
}

# ------------------------------------------------------------- fuzz (clang)
# fuzz_start TARGET: run one fuzz target in the background, in a scratch
# directory of its own; FUZZ_DIR[TARGET] and FUZZ_PID[TARGET] say where
declare -A FUZZ_DIR FUZZ_PID
fuzz_start() {
	local t=$1 scratch
	local args=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

	if [ "$fuzz_seconds" -gt 0 ]; then
		step "fuzz $t for ${fuzz_seconds}s"
	else
		step "fuzz $t: seed corpus only"
	fi
	if ! scratch=$(mktemp -d "${TMPDIR:-/tmp}/unit-fuzz-$t.XXXXXX"); then
		FUZZ_DIR[$t]=
		return
	fi
	mkdir "$scratch/corpus"
	if [ -d "$here/fuzz/corpus/$t" ]; then
		cp -R "$here/fuzz/corpus/$t/." "$scratch/corpus/"
	fi
	args+=(-artifact_prefix="$scratch/")
	if [ "$fuzz_seconds" -gt 0 ]; then
		args+=(-max_total_time="$fuzz_seconds")
	else
		args+=(-runs=0)
	fi
	(cd "$scratch" && exec "$fuzz_build/$t" "${args[@]}" "$scratch/corpus") \
		>"$scratch/log" 2>&1 &
	FUZZ_DIR[$t]=$scratch
	FUZZ_PID[$t]=$!
}

# fuzz_finish TARGET: wait for it and record its result
fuzz_finish() {
	local t=$1 scratch=${FUZZ_DIR[$1]} rc

	if [ -z "$scratch" ]; then
		record FAIL "fuzz:$t"
		return
	fi
	wait "${FUZZ_PID[$t]}"
	rc=$?
	echo "--- fuzz $t"
	if [ "$rc" -eq 0 ]; then
		tail -n 12 "$scratch/log"
		rm -rf "$scratch"
		record PASS "fuzz:$t"
	else
		tail -n 60 "$scratch/log"
		echo "run.sh: $t exited $rc; log, corpus and crash inputs kept in $scratch"
		record FAIL "fuzz:$t"
	fi
}

fuzz() {
	local src t built=0 targets=()

	for src in "$here"/fuzz/*.cpp; do
		[ -e "$src" ] || continue
		t=${src##*/}
		targets+=("${t%.cpp}")
	done
	[ ${#targets[@]} -gt 0 ] || return

	step "configure $fuzz_build (clang, FUZZ=ON)"
	if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
		echo "run.sh: clang/clang++ not found"
		record FAIL fuzz-build
	elif ! CC=clang CXX=clang++ cmake -S "$here" -B "$fuzz_build" \
		-DFUZZ=ON -DUNIT_TESTS=OFF 2>&1; then
		record FAIL fuzz-build
	elif build_target "$fuzz_build" unit_fuzzers fuzz-build; then
		built=1
	fi

	# single-threaded targets, FUZZ_JOBS (default: the CPUs) at a time
	local jobs=${FUZZ_JOBS:-$(nproc)} i
	local -a running=()
	for t in "${targets[@]}"; do
		if [ "$built" -eq 1 ] && [ -x "$fuzz_build/$t" ]; then
			if [ "${#running[@]}" -ge "$jobs" ]; then
				fuzz_finish "${running[0]}"
				running=("${running[@]:1}")
			fi
			fuzz_start "$t"
			running+=("$t")
		else
			echo "run.sh: $t not built"
			record FAIL "fuzz:$t"
		fi
	done
	for i in "${running[@]}"; do
		fuzz_finish "$i"
	done
}

host
fuzz

step "done: $npass PASS, $nfail FAIL (appended to $results)"
if [ "$nfail" -gt 0 ]; then
	printf '  FAIL %s\n' "${failed[@]}"
fi
exit 0
