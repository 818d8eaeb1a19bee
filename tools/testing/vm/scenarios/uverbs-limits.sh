#!/bin/bash
# cost: 91 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# What an unprivileged user can make the kernel hold
# (Documentation/security.rst):
#   memcg   a QP's rings and private WQE copies are charged to the
#           creator's memory cgroup: memory.current grows by them, and a
#           cgroup too small for them gets ENOMEM; the copies are sized
#           by what is outstanding (a new QP: a few), not by the ring;
#           the largest QP the device allows (2 GiB rings) is refused
#           with ENOMEM and no allocation warning in dmesg
#   rtnl    a uverbs command stalled by its user (its bytes on a
#           userfaultfd range) does not keep RTNL held when the netdev
#           moves to another namespace or goes away: the rxe device's move
#           or unregistration is queued, other RTNL users go on, and it
#           completes once the command ends
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
	ip netns del lim 2>/dev/null
	rmdir $CG/hog 2>/dev/null
	return 0
}
trap cleanup EXIT
rxe0_up
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# ---- memcg
memcg_child hog max

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
# 4096 WRs: 8192-slot rings of 1 KiB slots (32 SGEs), 8 MiB each, less
# the small QP's; copies sized by the ring would be 8 MiB more
[ "$grown" -ge 15 ] || fail "memcg: the big QP's rings are not charged to its cgroup (+$grown MiB)"
[ "$grown" -lt 20 ] || fail "memcg: the big QP charged +$grown MiB: private copies sized by the ring"
ooms=$(awk '$1 == "oom_kill" { print $2 }' $CG/hog/memory.events)
read -r c3 a3 <<<"$(hog_in 16M 8192 32)"
ooms2=$(awk '$1 == "oom_kill" { print $2 }' $CG/hog/memory.events)
echo "memcg: QP 8192x32 in 16 MiB: $a3 (OOM kills in the cgroup: $ooms -> $ooms2)"
[ "$a3" = "error ENOMEM" ] ||
	fail "memcg: a QP larger than its cgroup's limit: '$a3', want ENOMEM"
# the device's largest QP (1 Mi WRs of 32 SGEs: rings of 2 GiB, more
# than the VM has): the refusal is the user's ENOMEM, with nothing in dmesg
warned=$(dmesg | grep -cE 'vmalloc error|page allocation failure')
read -r c4 a4 <<<"$(hog_in 64M 1048576 32)"
warned2=$(dmesg | grep -cE 'vmalloc error|page allocation failure')
echo "memcg: QP 1048576x32 in 64 MiB: $a4 (allocation warnings in dmesg: $warned -> $warned2)"
[ "$a4" = "error ENOMEM" ] || fail "memcg: the largest QP: '$a4', want ENOMEM"
[ "$warned2" = "$warned" ] || fail "memcg: the largest QP's refusal printed an allocation warning"
rmdir $CG/hog

# ---- rtnl
# stall_start: a uverbs command on rxe0 stalled in the kernel ($STALL_PID)
stall_start() {
	coproc STALL { VERBS_DEV=rxe0 "$H" stall-cmd 2>&1; }
	read -r -t 60 ans <&"${STALL[0]}"
	[ "$ans" = stalled ] || die "stall-cmd: '$ans'"
}
# stall_end: let the stalled command end
stall_end() {
	exec {STALL[1]}>&-
	read -r -t 60 ans <&"${STALL[0]}"
	echo "rtnl: the stalled command ended: $ans"
	wait "$STALL_PID"
	STALL_PID=
}
# rtnl_free WHAT: another RTNL user goes on while the command is stalled
# (one waiting for RTNL cannot be killed: it is let go by stall_end, and
# rtnl_reap collects it)
RT_PID=
rtnl_free() {
	local t0=$SECONDS i
	ip link add dummy9 type dummy &
	RT_PID=$!
	for ((i = 0; i < 30; i++)); do kill -0 "$RT_PID" 2>/dev/null || break; sleep 1; done
	if kill -0 "$RT_PID" 2>/dev/null; then
		fail "rtnl: $1: 'ip link add' waited 30 s: RTNL is held while the command is stalled"
	else
		echo "rtnl: $1: another RTNL user went on ($((SECONDS - t0)) s)"
	fi
}
rtnl_reap() {
	wait "$RT_PID"
	ip link del dummy9 2>/dev/null
}
# wait_pid PID WHAT: PID ends within 60 s
wait_pid() {
	for ((i = 0; i < 60; i++)); do kill -0 "$1" 2>/dev/null || break; sleep 1; done
	kill -0 "$1" 2>/dev/null && die "$2 still waits 60 s after the command ended"
	wait "$1" || die "$2 failed"
}
# settle_dev [NS]: rxe0 seen from namespace NS (default: init_net) within
# 20 s; in exclusive mode a namespace sees only its own devices
settle_dev() {
	local i
	for ((i = 0; i < 100; i++)); do
		${1:+ip netns exec "$1"} rdma dev show rxe0 >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# the netdev moves to another namespace: the device follows it (its users
# disassociated) without RTNL held meanwhile; then it moves back
rxe0_down
rdma_netns_mode exclusive || die "exclusive mode"
ip netns add lim || die "netns add lim"
rxe0_up
stall_start
echo "rtnl: a uverbs write() stalled in the kernel; moving veth0 to netns lim"
ip link set veth0 netns lim &
mv=$!
sleep 2
rtnl_free "netns move"
stall_end
rtnl_reap
wait_pid "$mv" "ip link set veth0 netns lim"
settle_dev lim || fail "rxe0 did not follow veth0 to netns lim"
# (PID 1 lives in init_net)
ip -n lim link set veth0 netns 1 || die "veth0 back to init_net"
settle_dev || fail "rxe0 did not follow veth0 back to init_net"
ip netns del lim
rdma_netns_mode shared || die "shared mode"

# the netdev is deleted
stall_start
echo "rtnl: a uverbs write() stalled in the kernel; deleting veth0"
ip link del veth0 &
del=$!
sleep 2
rtnl_free "netdev deleted"
kill -0 "$del" 2>/dev/null || echo "note: ip link del returned before the command ended"
# the command ends; the unregistration then completes
stall_end
rtnl_reap
wait_pid "$del" "ip link del veth0"
[ -e /sys/class/infiniband/rxe0 ] && fail "rxe0 still there after its netdev went away"
[ "$fails" = 0 ] || die "$fails check(s) failed"
echo "uverbs-limits: ok"
