#!/bin/bash
# Two test VMs on one wire: boot VM A and VM B under QEMU TCG, joined by a
# QEMU socket netdev on 127.0.0.1, each running one guest script as a
# scenario, and record one result for the pair.
#
#   wire-pair.sh [options] GUEST_SCRIPT_A GUEST_SCRIPT_B
#
# Options:
#   --results FILE   append "PASS|FAIL vm-wire:<name>" here; <name> is script
#                    A's basename without ".sh" and a trailing "-a"
#   --timings FILE   append "seconds vm-wire:<name>" here
#   --kdir DIR       test-kernel build tree (default: build-kernel.sh --dir)
#   --moddir DIR     our built modules (passed to run-vm.sh)
#   --timeout S      per-VM run timeout in seconds (default 900)
#
# VM A: run-vm.sh --net listen:PORT:52:54:00:00:00:01, output in build/wire/NAME/a;
# VM B: run-vm.sh --net connect:PORT:52:54:00:00:00:02, output in build/wire/NAME/b,
# started once A's QEMU listens on PORT.  Both boot with --smp 1 --mem 1G
# --stack none.  The guest scripts must synchronise over the wire (B retries
# until A answers, each with a deadline), never through host files.  After
# its script each VM runs the zz-harness-leak self-test, so that each VM's
# kmemleak verdict is shown able to find a leak.  The pair passes only if
# both run-vm.sh runs pass (scenario, leak self-test, kmemleak, boot).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

results=
timings=
kdir=
moddir=
timeout_s=900

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }

scripts=()
while [ $# -gt 0 ]; do
	case "$1" in
	--results) results=$2; shift ;;
	--timings) timings=$2; shift ;;
	--kdir) kdir=$2; shift ;;
	--moddir) moddir=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	-h|--help) usage ;;
	-*) echo "wire-pair: unknown option $1" >&2; usage ;;
	*) scripts+=("$1") ;;
	esac
	shift
done
[ ${#scripts[@]} = 2 ] || { echo "wire-pair: need two guest scripts" >&2; usage; }
case "$timeout_s" in
''|*[!0-9]*) echo "wire-pair: --timeout wants seconds" >&2; exit 2 ;;
esac
for s in "${scripts[@]}"; do
	[ -f "$s" ] || { echo "wire-pair: no guest script $s" >&2; exit 2; }
	# the guest mounts tmpfs over these: the script would not be found there
	case "$(cd "$(dirname "$s")" && pwd)/" in
	/tmp/*|/run/*|/var/tmp/*|/dev/shm/*)
		echo "wire-pair: $s is hidden in the guest (tmpfs there); put it elsewhere" >&2
		exit 2 ;;
	esac
done
script_a=${scripts[0]}
script_b=${scripts[1]}
name=$(basename "$script_a" .sh)
name=${name%-a}
name_a=$(basename "$script_a" .sh)
name_b=$(basename "$script_b" .sh)
[ -z "$kdir" ] || kdir=$(cd "$kdir" && pwd) || exit 2
if [ -n "$results" ]; then
	mkdir -p "$(dirname "$results")" || exit 2
	results=$(cd "$(dirname "$results")" && pwd)/$(basename "$results")
fi

wire=$repo/build/wire/$name
out_a=$wire/a
out_b=$wire/b
# our QEMUs: the ones whose output share is one of our --out directories
our_qemus() {
	local p
	# (pgrep -x cannot match the name: the kernel keeps only 15 characters)
	for p in $(pgrep -f '^qemu-system-x86_64 '); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null |
			grep -q -e "path=$out_a," -e "path=$out_b," && echo "$p"
	done
	return 0
}
if [ -n "$(our_qemus)" ]; then
	echo "wire-pair: QEMU already running on $wire (another wire-pair in this tree?):" >&2
	our_qemus | xargs ps -o pid,etime,args -p >&2
	[ -z "$results" ] || echo "FAIL vm-wire:$name" >>"$results"
	exit 1
fi
rm -rf "$out_a" "$out_b"
mkdir -p "$out_a" "$out_b" || exit 1

common=(--smp 1 --mem 1G --stack none --timeout "$timeout_s")
[ -z "$kdir" ] || common+=(--kdir "$kdir")
[ -z "$moddir" ] || common+=(--moddir "$moddir")

t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }

pid_a=
pid_b=
recorded=
cleanup() {
	local p q
	for p in $pid_a $pid_b; do
		# run-vm.sh runs in its own session (setsid): its process group
		kill -0 "$p" 2>/dev/null && kill -TERM -- "-$p" 2>/dev/null
	done
	# timeout(1) in run-vm.sh puts QEMU in a process group of its own
	q=$(our_qemus)
	if [ -n "$q" ]; then
		# shellcheck disable=SC2086
		kill -TERM $q 2>/dev/null
		sleep 2
		q=$(our_qemus)
		# shellcheck disable=SC2086
		[ -z "$q" ] || kill -KILL $q 2>/dev/null
	fi
	return 0
}
trap cleanup EXIT
trap 'echo "wire-pair: interrupted" >&2; [ -n "$recorded" ] || record FAIL; exit 130' INT TERM HUP

record() {	# record PASS|FAIL
	recorded=$1
	echo "$1 vm-wire:$name"
	[ -z "$results" ] || echo "$1 vm-wire:$name" >>"$results"
}

show_logs() {
	local d n
	for d in "$out_a/$name_a" "$out_b/$name_b"; do
		n=$(basename "$d")
		echo "---- $d.log:"
		if [ -f "$d.log" ]; then cat "$d.log"; else echo "(none: $n did not start)"; fi
	done
	for d in "$out_a" "$out_b"; do
		echo "---- $d/run-vm.out:"
		cat "$d/run-vm.out" 2>/dev/null
	done
	echo "----"
}

fail_early() {
	echo "wire-pair: $*" >&2
	record FAIL
	cleanup
	show_logs
	# QEMU's own errors (e.g. it could not bind the port) are on its console
	echo "---- $out_a/console.log (last lines):"
	tail -n 20 "$out_a/console.log" 2>/dev/null
	exit 1
}

# A free TCP port on loopback (the kernel picks one; QEMU binds it next).
port=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
	fail_early "could not pick a free port"

listening() { ss -Hltn "sport = :$port" | grep -q "127.0.0.1:$port"; }
listening && fail_early "port $port already in use"
# ... and the listener must be A's QEMU, not another process that took the port
a_listens() {
	local q
	q=$(our_qemus)
	[ -n "$q" ] && ss -Hltnp "sport = :$port" | grep -q -E "pid=(${q//$'\n'/|}),"
}

echo "wire-pair: $name: wire on 127.0.0.1:$port; output in $wire/{a,b}"
setsid "$here/run-vm.sh" "${common[@]}" --net "listen:$port:52:54:00:00:00:01" \
	--out "$out_a" --results "$out_a/results.txt" --prefix wire-a: \
	"$script_a" zz-harness-leak </dev/null >"$out_a/run-vm.out" 2>&1 &
pid_a=$!

# QEMU listens as soon as it has started; bounded wait (a loaded host is slow).
for ((i = 0; i < 120; i++)); do
	a_listens && break
	kill -0 "$pid_a" 2>/dev/null || fail_early "VM A exited before listening on port $port"
	sleep 0.5
done
a_listens || fail_early "VM A's QEMU did not listen on port $port within 60 s$(
	listening && echo " (another process took the port)")"
echo "wire-pair: A listens after $(elapsed) s; starting B"

setsid "$here/run-vm.sh" "${common[@]}" --net "connect:$port:52:54:00:00:00:02" \
	--out "$out_b" --results "$out_b/results.txt" --prefix wire-b: \
	"$script_b" zz-harness-leak </dev/null >"$out_b/run-vm.out" 2>&1 &
pid_b=$!

# run-vm.sh kills its QEMU after --timeout; this watchdog covers the rest.
deadline=$(( $(date +%s) + timeout_s + 60 ))
rc_a=
rc_b=
while [ -z "$rc_a" ] || [ -z "$rc_b" ]; do
	if [ -z "$rc_a" ] && ! kill -0 "$pid_a" 2>/dev/null; then
		wait "$pid_a"; rc_a=$?
		echo "wire-pair: VM A done after $(elapsed) s (rc $rc_a)"
	fi
	if [ -z "$rc_b" ] && ! kill -0 "$pid_b" 2>/dev/null; then
		wait "$pid_b"; rc_b=$?
		echo "wire-pair: VM B done after $(elapsed) s (rc $rc_b)"
	fi
	if [ "$(date +%s)" -gt "$deadline" ]; then
		echo "wire-pair: timed out after $(elapsed) s; killing both VMs" >&2
		cleanup
		rc_a=${rc_a:-124}
		rc_b=${rc_b:-124}
		break
	fi
	sleep 1
done
pid_a=
pid_b=

# Verdict: both run-vm.sh passed, and each recorded its scenario as PASS
# and nothing as FAIL.
why=()
[ "$rc_a" = 0 ] || why+=("VM A: run-vm.sh exit status $rc_a")
[ "$rc_b" = 0 ] || why+=("VM B: run-vm.sh exit status $rc_b")
grep -qx "PASS wire-a:$name_a" "$out_a/results.txt" 2>/dev/null ||
	why+=("VM A: no 'PASS wire-a:$name_a'")
grep -qx "PASS wire-b:$name_b" "$out_b/results.txt" 2>/dev/null ||
	why+=("VM B: no 'PASS wire-b:$name_b'")
while read -r _ c; do
	why+=("failed case: $c")
done < <(cat "$out_a/results.txt" "$out_b/results.txt" 2>/dev/null | grep '^FAIL ')

echo "wire-pair: $name took $(elapsed) s"
[ -z "$timings" ] || echo "$(elapsed) vm-wire:$name" >>"$timings"
grep -qx "PASS wire-a:zz-harness-leak:leak-found" "$out_a/results.txt" 2>/dev/null ||
	why+=("VM A: its kmemleak verdict did not find the self-test's leak")
grep -qx "PASS wire-b:zz-harness-leak:leak-found" "$out_b/results.txt" 2>/dev/null ||
	why+=("VM B: its kmemleak verdict did not find the self-test's leak")
if [ ${#why[@]} = 0 ]; then
	record PASS
	exit 0
fi
record FAIL
echo "wire-pair: $name failed:"
printf '  %s\n' "${why[@]}"
show_logs
exit 1
