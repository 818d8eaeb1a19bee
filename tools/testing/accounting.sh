# shellcheck shell=bash
# Result accounting of check.sh, sourced with $results (the PASS/FAIL
# lines), $timings ("seconds name" lines) and $t0 (start time) set.  The
# harness self-tests (vm/tests/run.sh) source it too.

# stage TITLE: a heading with the time since the start
stage() { printf '\n=== %s (%d s)\n' "$*" $(( $(date +%s) - t0 )); }

# record PASS|FAIL CASE: one result line, shown and kept
record() {
	echo "$1 $2"
	echo "$1 $2" >>"$results"
}

# run_stage NAME [CASE...] -- CMD [ARG...]: run CMD, which appends result
# lines to $results, and check what it did:
# - it exits non-zero but recorded no failure: "FAIL stage:NAME (exit N)";
# - a CASE (its census: cases it must produce) has no result line at all:
#   "FAIL CASE (no result)".
# The stage's wall time goes to $timings as "stage:NAME".
run_stage() {
	local name=$1 start rc before c
	local -a cases=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		cases+=("$1")
		shift
	done
	[ "${1:-}" = -- ] || { echo "run_stage: no -- before the command" >&2; return 2; }
	shift
	before=$(wc -l <"$results")
	start=$(date +%s)
	"$@"
	rc=$?
	echo "$(( $(date +%s) - start )) stage:$name" >>"$timings"
	if [ "$rc" != 0 ] && ! tail -n +"$((before + 1))" "$results" | grep -q '^FAIL '; then
		record FAIL "stage:$name (exit status $rc, no failure recorded)"
	fi
	for c in "${cases[@]}"; do
		tail -n +"$((before + 1))" "$results" | grep -qE "^(PASS|FAIL) $(re_quote "$c")( |\$)" ||
			record FAIL "$c (no result)"
	done
	return 0
}

# re_quote STRING: STRING as an extended regular expression matching itself
re_quote() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }

# build_selftests: the in-VM user-space tools into build/selftests
build_selftests() {
	local log=$out/selftests.log
	if cmake -S "$repo/tools/testing/selftests" -B "$repo/build/selftests" >"$log" 2>&1 &&
	   cmake --build "$repo/build/selftests" -j2 >>"$log" 2>&1; then
		record PASS build:selftests
	else
		record FAIL build:selftests
		tail -n 30 "$log"
	fi
}
