#!/bin/bash
# Boot the test kernel under QEMU (TCG) with the host root read-only over
# 9p and run scenarios, one command, or an interactive shell in it.
#
#   run-vm.sh [options] SCENARIO...     run scenarios (names in scenarios/ or paths)
#   run-vm.sh [options] --cmd 'CMD'     run CMD, print its output, exit with its status
#   run-vm.sh [options] --shell         interactive shell (serial console)
#
# Options:
#   --stack ours|upstream|none  which RDMA modules are loaded (default $STACK or ours)
#   --moddir DIR     where our built .ko files are (default: the work tree)
#   --kdir DIR       test-kernel build tree (default: build-kernel.sh --dir)
#   --out DIR        output share (default: a fresh temporary directory)
#   --results FILE   append "PASS|FAIL <prefix><case>" lines here
#   --timings FILE   append "seconds <prefix><scenario>" lines here
#   --prefix P       case-name prefix for --results (default "vm:")
#   --kmemleak-case C  the name of the end-of-run leak verdict (default
#                    "kmemleak"; each VM of a parallel run has its own)
#   --timeout S      whole-run timeout in seconds (default 1800)
#   --net MODE:PORT[:MAC]  virtio-net on a QEMU socket netdev, MODE listen or
#                    connect (two VMs on one wire); MAC default 52:54:00:12:34:56
#   --smp N --mem SIZE     (default 2 and 2G)
#
# A scenario fails when its script exits non-zero, times out, or the kernel
# log of its run has a WARN, BUG, oops, KASAN, lockdep, kmemleak, hung-task
# or "Unknown symbol" report, or the kernel gets tainted with anything but
# O (out-of-tree module) and N (test).  KUnit output of the scenarios is
# parsed into one case per KUnit test case, and checked against the census
# of the suites our sources declare (kunit-census.py) for the modules the
# scenarios name in a "# kunit-modules: GLOB... [!GLOB...]" line.  After the
# last scenario, kmemleak scans twice (vm:kmemleak); the only leak allowed
# is the one of the zz-harness-leak self-test ("# expect: kmemleak"), which
# must be found.
#
# Environment passed into the guest: CHECK_TIER, and the variables named
# in VM_ENV (e.g. VM_ENV="NETEM_CONDS DP_TOOLS").
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

stack=${STACK:-ours}
moddir=$repo
kdir=
out=
results=
timings=
prefix=vm:
kmemleak_case=kmemleak
run_timeout=1800
net=
smp=2
mem=2G
mode=scenarios
cmd=
scenarios=()

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--stack) stack=$2; shift ;;
	--moddir) moddir=$(cd "$2" && pwd); shift ;;
	--kdir) kdir=$2; shift ;;
	--out) out=$2; shift ;;
	--results) results=$2; shift ;;
	--timings) timings=$2; shift ;;
	--prefix) prefix=$2; shift ;;
	--kmemleak-case) kmemleak_case=$2; shift ;;
	--timeout) run_timeout=$2; shift ;;
	--net) net=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mem) mem=$2; shift ;;
	--shell) mode=shell ;;
	--cmd) mode=cmd; cmd=$2; shift ;;
	-h|--help) usage ;;
	-*) echo "run-vm: unknown option $1" >&2; usage ;;
	*) scenarios+=("$1") ;;
	esac
	shift
done

[ -n "$kdir" ] || kdir=$("$here/build-kernel.sh" --dir)
kdir=$(cd "$kdir" 2>/dev/null && pwd) || { echo "run-vm: no directory $kdir" >&2; exit 1; }
bzimage=$kdir/arch/x86/boot/bzImage
if [ ! -f "$kdir/.built" ] || [ ! -f "$bzimage" ]; then
	echo "run-vm: no test kernel at $kdir; run 'make kernel' first" >&2
	exit 1
fi
# The guest mounts tmpfs over these, so host files there are invisible to it.
case "$moddir/" in
/tmp/*|/run/*|/var/tmp/*|/dev/shm/*)
	echo "run-vm: --moddir $moddir is hidden in the guest (tmpfs there); use a path elsewhere" >&2
	exit 2 ;;
esac
[ -n "$out" ] || out=$(mktemp -d /tmp/rdma-vm.XXXXXX)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*.rc "$out"/*.dmesg "$out"/*.log "$out"/*.reports "$out"/*.ktap \
	"$out"/kmemleak.* "$out"/kmemleak.err "$out"/kunit.census

resolved=()
if [ "$mode" = scenarios ]; then
	[ ${#scenarios[@]} -gt 0 ] || { echo "run-vm: nothing to run" >&2; usage; }
	for s in "${scenarios[@]}"; do
		if [ -f "$s" ]; then
			s="$(cd "$(dirname "$s")" && pwd)/$(basename "$s")"
			case "$s" in
			/tmp/*|/run/*|/var/tmp/*|/dev/shm/*)
				echo "run-vm: scenario $s is hidden in the guest (tmpfs there)" >&2
				exit 2 ;;
			esac
			resolved+=("$s")
		elif [ -f "$here/scenarios/$s.sh" ]; then
			resolved+=("$here/scenarios/$s.sh")
		else
			echo "run-vm: no scenario '$s'" >&2
			exit 2
		fi
	done
fi

{
	printf 'export %s=%q\n' REPO "$repo" MODDIR "$moddir" KDIR "$kdir" \
		STACK "$stack" MODE "$mode" CMD "$cmd" \
		SCENARIO_TIMEOUT "${SCENARIO_TIMEOUT:-1500}" CHECK_TIER "${CHECK_TIER:-check}"
	for v in ${VM_ENV:-}; do
		printf 'export %s=%q\n' "$v" "${!v:-}"
	done
	printf 'SCENARIOS=%q\n' "${resolved[*]:-}"
} >"$out/job.env"

netargs=()
if [ -n "$net" ]; then
	IFS=: read -r nmode nport nmac <<<"$net"
	nmac=${nmac:-52:54:00:12:34:56}
	case "$nmode" in
	listen|connect) ;;
	*) echo "run-vm: --net MODE must be listen or connect" >&2; exit 2 ;;
	esac
	# QEMU's socket netdev wants its own ':' syntax; MAC octets use ':' too.
	nmac=${nmac//-/:}
	netargs=(-netdev "socket,id=n0,$nmode=127.0.0.1:$nport"
		 -device "virtio-net-pci,netdev=n0,mac=$nmac")
fi

append="console=ttyS0 root=hostroot rootfstype=9p"
append+=" rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro"
append+=" init=$here/init.sh panic=-1 log_buf_len=8M quiet"
append+=" kmemleak=on hung_task_timeout_secs=300 oops=panic"
# the early IO-APIC timer check fails (panic) when a loaded host delays TCG
append+=" no_timer_check${VM_APPEND:+ $VM_APPEND}"

qemu=(qemu-system-x86_64 -machine q35 -cpu "${VM_CPU:-max}" -smp "$smp" -m "$mem"
      -nographic -no-reboot -kernel "$bzimage" -append "$append"
      -fsdev "local,id=r,path=/,security_model=none,readonly=on,multidevs=remap"
      -device virtio-9p-pci,fsdev=r,mount_tag=hostroot
      -fsdev "local,id=o,path=$out,security_model=none"
      -device virtio-9p-pci,fsdev=o,mount_tag=out
      -device virtio-rng-pci "${netargs[@]}")
[ "${#netargs[@]}" -gt 0 ] || qemu+=(-nic none)

console=$out/console.log
case "$mode" in
shell)
	exec "${qemu[@]}"
	;;
cmd)
	# the serial console is shown live: the command's output plus any
	# kernel message of warning level or worse
	# --foreground: Ctrl-C at the terminal reaches QEMU too
	timeout --foreground -k 10 "$run_timeout" "${qemu[@]}" </dev/null 2>&1 | tee "$console" |
		grep -v -e '^\s*$' -e 'SeaBIOS\|iPXE\|Booting from ROM'
	qrc=${PIPESTATUS[0]}
	rc=$(cat "$out/cmd.rc" 2>/dev/null || echo 125)
	[ "$qrc" = 124 ] && echo "run-vm: VM timed out after $run_timeout s" >&2 && rc=124
	if ! "$here/kernel-reports.sh" "$console" >/dev/null; then
		echo "run-vm: kernel reported problems (console: $console)" >&2
		[ "$rc" = 0 ] && rc=1
	fi
	exit "$rc"
	;;
esac

echo "run-vm: booting ($stack stack, ${#resolved[@]} scenario(s), output in $out)"
start=$(date +%s)
# QEMU runs in the background so that killing this script kills it too
# (timeout puts it in a process group of its own).
timeout -k 10 "$run_timeout" "${qemu[@]}" </dev/null >"$console" 2>&1 &
qpid=$!
trap 'kill "$qpid" 2>/dev/null; pkill -P "$qpid" 2>/dev/null; exit 130' INT TERM HUP
wait "$qpid"
qrc=$?
trap - INT TERM HUP
echo "run-vm: VM ran $(( $(date +%s) - start )) s (qemu rc $qrc)"

fails=0
record() {	# record PASS|FAIL case
	echo "$1 $prefix$2"
	[ -n "$results" ] && echo "$1 $prefix$2" >>"$results"
	[ "$1" = PASS ] || fails=$((fails + 1))
}

# Reports during boot are not any scenario's fault but still fail the run.
if ! "$here/kernel-reports.sh" "$out/boot.dmesg" 2>/dev/null && [ -f "$out/boot.dmesg" ]; then
	"$here/kernel-reports.sh" "$out/boot.dmesg"
	record FAIL boot
fi

# Taint bits we accept: O (out-of-tree module, 4096) and N (test, 262144).
taint_ok_mask=$(( ~(4096 | 262144) ))
ktap_logs=()
expect_leak=

for s in "${resolved[@]}"; do
	name=$(basename "$s" .sh)
	why=""
	report=0
	if [ ! -f "$out/$name.rc" ]; then
		why="did not finish (VM died or timed out)"
	else
		read -r rc secs taint0 taint1 _ <"$out/$name.rc"
		[ -z "$timings" ] || echo "$secs $prefix$name" >>"$timings"
		[ "$rc" = 0 ] || why="exit status $rc"
		[ "$rc" = 124 ] && why="timed out"
		# only taint this scenario added counts against it
		if [ $(( (taint1 & ~taint0) & taint_ok_mask )) -ne 0 ]; then
			why="$why${why:+; }kernel tainted ($taint0 -> $taint1)"
			report=1
		fi
		if ! "$here/kernel-reports.sh" "$out/$name.dmesg" >"$out/$name.reports"; then
			why="$why${why:+; }kernel report in its log"
			report=1
		fi
	fi
	if [ -f "$out/$name.dmesg" ] && grep -q 'KTAP version\|TAP version' "$out/$name.dmesg"; then
		ktap_logs+=("$out/$name.dmesg")
		if python3 "$here/ktap.py" "$out/$name.dmesg" | grep -q '^FAIL'; then
			echo "---- KUnit failures in $name:"
			grep -E -A 4 'EXPECTATION FAILED|ASSERTION FAILED|not ok' "$out/$name.dmesg" | head -n 60
		fi
	fi
	# Harness self-tests mark themselves "# expect: kernel-report": they
	# pass when the harness catches the report they provoke, and only then.
	if grep -q '^# expect: kernel-report' "$s"; then
		if [ "$report" = 1 ]; then
			record PASS "$name"
		else
			record FAIL "$name"
			echo "---- $name: the provoked kernel report was not detected"
		fi
		continue
	fi
	# "# expect: kmemleak": the scenario must succeed, and the leak it
	# leaves must be found by the verdict below
	grep -q '^# expect: kmemleak' "$s" && [ -z "$why" ] && expect_leak=$name
	if [ -z "$why" ]; then
		record PASS "$name"
	else
		record FAIL "$name"
		echo "---- $name: $why; last output:"
		tail -n 30 "$out/$name.log" 2>/dev/null
		[ -s "$out/$name.reports" ] && { echo "---- kernel reports:"; cat "$out/$name.reports"; }
		[ -f "$out/$name.rc" ] || "$here/kernel-reports.sh" "$console" | tail -n 60
		echo "----"
	fi
done

# KUnit: one result per case of every log, and the census of the suites
# the scenarios' "# kunit-modules:" lines name
census_globs=()
for s in "${resolved[@]}"; do
	read -r -a g < <(sed -n 's/^# kunit-modules: *//p' "$s" | head -n 1)
	census_globs+=("${g[@]}")
done
if [ ${#census_globs[@]} -gt 0 ]; then
	if python3 "$here/kunit-census.py" "$repo" >"$out/kunit.census.all"; then
		while read -r mod suite n; do
			keep=0
			for g in "${census_globs[@]}"; do
				# shellcheck disable=SC2053
				case "$g" in
				!*) [[ $mod == ${g#!} ]] && { keep=0; break; } ;;
				*) [[ $mod == $g ]] && keep=1 ;;
				esac
			done
			[ "$keep" = 1 ] && echo "$mod $suite $n"
		done <"$out/kunit.census.all" >"$out/kunit.census"
	else
		record FAIL "kunit:census (kunit-census.py failed)"
	fi
fi
if [ ${#ktap_logs[@]} -gt 0 ] || [ -s "$out/kunit.census" ]; then
	census_args=()
	[ -f "$out/kunit.census" ] && census_args=(--census "$out/kunit.census")
	python3 "$here/ktap.py" --prefix kunit: "${census_args[@]}" "${ktap_logs[@]}" /dev/null >"$out/kunit.ktap"
	while read -r verdict case; do
		echo "$verdict $case"
		[ -n "$results" ] && echo "$verdict $case" >>"$results"
		[ "$verdict" = PASS ] || fails=$((fails + 1))
	done <"$out/kunit.ktap"
fi

if [ "$mode" = scenarios ] && [ ${#resolved[@]} -gt 0 ]; then
	if [ "$(cat "$out/kmemleak.rc" 2>/dev/null)" != done ]; then
		record FAIL "$kmemleak_case"
		echo "---- kmemleak did not scan: $(cat "$out/kmemleak.err" 2>/dev/null || echo 'the VM did not get there')"
	else
		since=$(cat "$out/kmemleak.start" 2>/dev/null)
		"$here/kmemleak-split.py" ${since:+--since "$since"} "$out/kmemleak.txt" >"$out/kmemleak.split"
		krc=$?
		boot_leaks=$(sed -n 's/^boot //p' "$out/kmemleak.split")
		[ "${boot_leaks:-0}" = 0 ] ||
			echo "note: kmemleak: $boot_leaks object(s) leaked during the boot (allocated before the scenarios; not judged)"
		harness_leaks=$(sed -n 's/^harness //p' "$out/kmemleak.split")
		if [ "$krc" = 0 ]; then
			record PASS "$kmemleak_case"
		else
			record FAIL "$kmemleak_case"
			tail -n +3 "$out/kmemleak.split" | head -n 60
		fi
		if [ -n "$expect_leak" ]; then
			if [ "${harness_leaks:-0}" -gt 0 ]; then
				record PASS "$expect_leak:leak-found"
			else
				record FAIL "$expect_leak:leak-found"
				echo "---- kmemleak did not report the leak of $expect_leak"
			fi
		fi
	fi
fi

# A panic or a report outside any scenario's window (e.g. during shutdown).
if grep -q 'Kernel panic' "$console"; then
	record FAIL panic
	grep -B5 -A30 'Kernel panic' "$console" | head -60
fi

[ "$fails" = 0 ]
