#!/bin/bash
# make bench: perftest and ibv_reg_mr timings of upstream's RDMA modules and
# ours, side by side in one boot of the test VM, on the "perf" flavor of the
# test kernel (no KASAN/lockdep/kmemleak...).  Prints a table with the
# ours/upstream ratio per row and writes build/bench/results-<time>.csv;
# every run is also appended to build/bench/history.csv.
#
#   tools/bench/run.sh [--flavor perf|debug]
#
# --flavor debug runs on the test kernel of make check instead (no build
# needed, but the debug set distorts every number): the table and the CSV
# say "debug".  BENCH_BW_ITERS, BENCH_LAT_ITERS, BENCH_ROW_TIMEOUT, BENCH_REG_MIB, BENCH_REG_REPS, BENCH_REG_HUGE_MIB, BENCH_CM_CONNS,
# BENCH_STACKS, BENCH_ROWS, BENCH_PROFILE, BENCH_NETEM_LOSS, BENCH_NETEM_TIMEOUT,
# BENCH_NETEM_BW_ITERS, BENCH_NETEM_LAT_ITERS pass through to the VM (see
# vm-bench.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
vm=$repo/tools/testing/vm
flavor=${BENCH_FLAVOR:-perf}
while [ $# -gt 0 ]; do
	case "$1" in
	--flavor) flavor=$2; shift ;;
	*) echo "bench: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
case "$flavor" in perf|debug) ;; *) echo "bench: unknown flavor $flavor" >&2; exit 2 ;; esac

build=$repo/build/bench
mkdir -p "$build"

# 1. the kernel (built once, cached; the perf flavor takes ~20+ min)
kdir=$("$vm/build-kernel.sh" --flavor "$flavor")

# 2. our modules against that kernel, in a copy of the sources so the
#    normal build in drivers/ stays as it is
mods=$build/modules-$flavor
mkdir -p "$mods"
(cd "$repo" && git ls-files -z -c -o --exclude-standard Kbuild drivers include |
	while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
	xargs -0 cp -p --parents -t "$mods/")
echo "bench: building our modules against $kdir" >&2
make -s -C "$kdir" M="$mods" modules -j"$(nproc)" >"$build/modules-$flavor.log" 2>&1 || {
	tail -n 30 "$build/modules-$flavor.log" >&2; exit 1; }

# 3. the verbs benchmark tool (host build; the VM mounts the host root)
cmake -S "$here/verbs" -B "$build/verbs" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build/verbs" -j"$(nproc)" >/dev/null

# 4. one boot, both stacks
out=$build/vm
rm -rf "$out"
mkdir -p "$out"
export BENCH_BW_ITERS=${BENCH_BW_ITERS:-1000} BENCH_LAT_ITERS=${BENCH_LAT_ITERS:-2000}
export BENCH_ROW_TIMEOUT=${BENCH_ROW_TIMEOUT:-300}
export BENCH_REG_MIB=${BENCH_REG_MIB:-1024} BENCH_REG_REPS=${BENCH_REG_REPS:-5}
export BENCH_REG_HUGE_MIB=${BENCH_REG_HUGE_MIB:-512} BENCH_CM_CONNS=${BENCH_CM_CONNS:-100}
export BENCH_STACKS=${BENCH_STACKS:-upstream ours}
export BENCH_ROWS=${BENCH_ROWS:-} BENCH_PROFILE=${BENCH_PROFILE:-0}
export BENCH_NETEM_LOSS=${BENCH_NETEM_LOSS:-1%} BENCH_NETEM_TIMEOUT=${BENCH_NETEM_TIMEOUT:-90}
export BENCH_NETEM_BW_ITERS=${BENCH_NETEM_BW_ITERS:-200} BENCH_NETEM_LAT_ITERS=${BENCH_NETEM_LAT_ITERS:-500}
cmd=$(printf 'BENCH_ROW_TIMEOUT=%q BENCH_BW_ITERS=%q BENCH_LAT_ITERS=%q BENCH_REG_MIB=%q BENCH_REG_REPS=%q BENCH_REG_HUGE_MIB=%q BENCH_CM_CONNS=%q BENCH_STACKS=%q BENCH_ROWS=%q BENCH_PROFILE=%q ' \
	"$BENCH_ROW_TIMEOUT" "$BENCH_BW_ITERS" "$BENCH_LAT_ITERS" "$BENCH_REG_MIB" "$BENCH_REG_REPS" "$BENCH_REG_HUGE_MIB" "$BENCH_CM_CONNS" "$BENCH_STACKS" "$BENCH_ROWS" "$BENCH_PROFILE")
cmd+=$(printf 'BENCH_NETEM_LOSS=%q BENCH_NETEM_TIMEOUT=%q BENCH_NETEM_BW_ITERS=%q BENCH_NETEM_LAT_ITERS=%q bash tools/bench/vm-bench.sh' \
	"$BENCH_NETEM_LOSS" "$BENCH_NETEM_TIMEOUT" "$BENCH_NETEM_BW_ITERS" "$BENCH_NETEM_LAT_ITERS")
# a guest that panics before the bench starts (e.g. the early timer check
# of a heavily loaded host) is booted again, at most three times
for boot in 1 2 3; do
	set +e
	"$vm/run-vm.sh" --kdir "$kdir" --moddir "$mods" --stack none --out "$out" \
		--mem 3G --timeout 2400 --cmd "$cmd" 2>&1 |
		tee "$build/vm.log" | grep --line-buffered -o 'bench:.*' >&2
	vmrc=${PIPESTATUS[0]}
	set -e
	[ ! -f "$out/bench.raw" ] && grep -q 'Kernel panic' "$out/console.log" || break
	echo "bench: the guest panicked while booting (try $boot):" >&2
	grep -m1 'Kernel panic' "$out/console.log" >&2
	cp "$out/console.log" "$build/console-panic-$boot.log"
done
note=""
[ "$vmrc" = 0 ] || note="vm-exit-$vmrc"
if grep -q 'kernel reported problems' "$build/vm.log"; then
	note="${note:+$note;}kernel-report"
	echo "bench: the kernel reported problems during the run (console: $out/console.log)" >&2
fi

# 5. table + CSV
stamp=$(date -u +%Y%m%dT%H%M%SZ)
python3 "$here/report.py" --raw "$out/bench.raw" --flavor "$flavor" --reg-mib "$BENCH_REG_MIB" \
	--reg-huge-mib "$BENCH_REG_HUGE_MIB" --rows "$BENCH_ROWS" --netem-loss "$BENCH_NETEM_LOSS" \
	--kernel "$(cat "$kdir/.kernelrelease")" \
	--commit "$(git -C "$repo" describe --always --dirty)" --stamp "$stamp" \
	--note "$note" --csv "$build/results-$stamp.csv" --history "$build/history.csv"
