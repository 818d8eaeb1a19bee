#!/bin/bash
# What an unprivileged user can make the kernel hold
# (Documentation/security.rst):
#   memcg   a QP's rings and private WQE copies are charged to the
#           creator's memory cgroup: memory.current grows by them, and a
#           cgroup too small for them gets ENOMEM
#   rtnl    a uverbs command stalled by its user (its bytes on a
#           userfaultfd range) does not keep RTNL held when the netdev
#           goes away: the rxe device's unregistration is queued, other
#           RTNL users go on, and it completes once the command ends
. "$REPO/tools/testing/vm/lib.sh"
H=$REPO/build/selftests/uverbs_hog
CG=/sys/fs/cgroup
[ -x "$H" ] || die "$H not built (make check builds it)"

stack_load ours || die "stack_load ours"
STALL_PID=
# the stalled process first: deleting veth0 waits for its command
cleanup() {
	[ -n "$STALL_PID" ] && kill -9 "$STALL_PID" 2>/dev/null
	rxe0_down
	rmdir $CG/hog 2>/dev/null
	return 0
}
trap cleanup EXIT
rxe0_up
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# ---- memcg
mountpoint -q $CG || mount -t cgroup2 none $CG || die "cannot mount cgroup2"
grep -qw memory $CG/cgroup.controllers || die "no memory controller (CONFIG_MEMCG)"
echo +memory >$CG/cgroup.subtree_control || die "cannot enable the memory controller"
mkdir -p $CG/hog || die "mkdir $CG/hog"

# hog_in MAX WR SGE: run uverbs_hog qp WR SGE in cgroup hog limited to MAX;
# prints the cgroup's memory.current while it holds the QP, then its answer
hog_in() {
	local ans cur
	echo "$1" >$CG/hog/memory.max || die "memory.max $1"
	coproc HOG { bash -c "echo \$\$ >$CG/hog/cgroup.procs && exec '$H' qp $2 $3" 2>&1; }
	read -r -t 120 ans <&"${HOG[0]}" || ans="(no answer)"
	cur=$(cat $CG/hog/memory.current)
	exec {HOG[1]}>&-
	wait "$HOG_PID"
	echo "$cur $ans"
}

read -r c1 a1 <<<"$(hog_in max 1 1)"
read -r c2 a2 <<<"$(hog_in max 4096 32)"
echo "memcg: QP 1x1: $a1 (memory.current $c1); QP 4096x32: $a2 (memory.current $c2)"
[ "$a1" = ok ] && [ "$a2" = ok ] || die "memcg: a QP without a limit failed"
grown=$(((${c2:-0} - ${c1:-0}) / 1048576))
echo "memcg: the 4096x32 QP charged $grown MiB more"
[ "$grown" -ge 8 ] || fail "memcg: the big QP's rings are not charged to its cgroup (+$grown MiB)"
ooms=$(awk '$1 == "oom_kill" { print $2 }' $CG/hog/memory.events)
read -r c3 a3 <<<"$(hog_in 16M 8192 32)"
ooms2=$(awk '$1 == "oom_kill" { print $2 }' $CG/hog/memory.events)
echo "memcg: QP 8192x32 in 16 MiB: $a3 (OOM kills in the cgroup: $ooms -> $ooms2)"
[ "$a3" = "error ENOMEM" ] ||
	fail "memcg: a QP larger than its cgroup's limit: '$a3', want ENOMEM"
rmdir $CG/hog

# ---- rtnl
coproc STALL { VERBS_DEV=rxe0 "$H" stall-cmd 2>&1; }
read -r -t 60 ans <&"${STALL[0]}"
[ "$ans" = stalled ] || die "stall-cmd: '$ans'"
echo "rtnl: a uverbs write() stalled in the kernel; deleting veth0"
ip link del veth0 &
del=$!
sleep 2
t0=$SECONDS
if timeout 30 ip link add dummy9 type dummy; then
	echo "rtnl: another RTNL user went on ($((SECONDS - t0)) s)"
	ip link del dummy9
else
	fail "rtnl: 'ip link add' waited 30 s: RTNL is held while the command is stalled"
fi
kill -0 "$del" 2>/dev/null || echo "note: ip link del returned before the command ended"
# the command ends; the unregistration then completes
exec {STALL[1]}>&-
read -r -t 60 ans <&"${STALL[0]}"
echo "rtnl: the stalled command ended: $ans"
wait "$STALL_PID"
for ((i = 0; i < 60; i++)); do kill -0 "$del" 2>/dev/null || break; sleep 1; done
kill -0 "$del" 2>/dev/null && die "ip link del veth0 still waits 60 s after the command ended"
wait "$del" || die "ip link del veth0 failed"
[ -e /sys/class/infiniband/rxe0 ] && fail "rxe0 still there after its netdev went away"
[ "$fails" = 0 ] || die "$fails check(s) failed"
echo "uverbs-limits: ok"
