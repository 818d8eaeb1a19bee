#!/bin/bash
# cost: 105 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Forged packets against connected QPs (Documentation/security.rst): an
# RC and a UC QP in RTR on rxe0 (10.0.0.1) whose peer is 10.0.0.2
# (wire_victim); packets made by roce_inject.py with a valid ICRC, the
# right QPN, PSN and rkey, come from the peer namespace.  From any other
# source address, or (UC) behind the expected PSN, they change nothing
# (no byte of the MR, no receive completion) and count as rcvd_dropped;
# the same packets from the peer's address do land (the forgery is good
# enough to be believed: the check can fail).
. "$REPO/tools/testing/vm/lib.sh"
INJ=$REPO/tools/testing/vm/roce_inject.py
V=$REPO/build/selftests/wire_victim
C=/sys/class/infiniband/rxe0/ports/1/hw_counters
[ -x "$V" ] || die "$V not built (make check builds it)"

stack_load ours || die "stack_load ours"
peer_ns_up
rdma link add rxe0 type rxe netdev veth0 || die "rdma link add"
gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a00:0001

coproc VICTIM { VERBS_DEV=rxe0 "$V" 10.0.0.2 2>&1; }
read -r -t 60 t rcqpn rcrkey rcva <&"${VICTIM[0]}" || die "wire_victim did not start"
[ "$t" = rc ] || die "wire_victim: $t $rcqpn"
read -r -t 60 t ucqpn ucrkey ucva <&"${VICTIM[0]}" || die "wire_victim: no UC line"
echo "victim: RC QP $rcqpn rkey $rcrkey, UC QP $ucqpn rkey $ucrkey (peer 10.0.0.2, PSN 0)"

fails=0
# state: "rc changed N recvs M uc changed N recvs M" after the packets
state() {
	echo check >&"${VICTIM[1]}"
	read -r -t 60 line <&"${VICTIM[0]}" || die "wire_victim stopped"
	echo "$line"
}
# inject DESC SRC WANT KIND: send one packet from SRC; WANT is the
# victim's state afterwards.  Once rxe has parsed the packet (rcvd_pkts),
# the responder's work item may still run: a change is polled for up to
# 4 s; no change is judged after 1 s more.
inject() {
	local desc=$1 src=$2 want=$3 got i d0 d1 p0 p
	shift 3
	# (counters read by the shell: a cat costs about half a second under TCG)
	read -r d0 <$C/rcvd_dropped || die "no $C/rcvd_dropped"
	read -r p0 <$C/rcvd_pkts || die "no $C/rcvd_pkts"
	ip netns exec peer python3 "$INJ" "$src" 10.0.0.1 "$@" >/dev/null || die "inject $desc"
	for ((i = 0; i < 20; i++)); do
		read -r p <$C/rcvd_pkts && [ "$p" -gt "$p0" ] && break
		sleep 0.2
	done
	[ "$i" = 20 ] && die "$desc: rxe0 never parsed the packet (rcvd_pkts $p0)"
	[ "$want" = "$last" ] && sleep 1
	for ((i = 0; i < 20; i++)); do
		got=$(state)
		[ "$got" = "$want" ] && break
		sleep 0.2
	done
	last=$got
	read -r d1 <$C/rcvd_dropped
	if [ "$got" = "$want" ]; then
		echo "ok   $desc: $got (rcvd_dropped +$((d1 - d0)))"
	else
		echo "FAIL $desc: victim '$got', want '$want'"
		fails=$((fails + 1))
	fi
}

clean="rc changed 0 recvs 0 uc changed 0 recvs 0"
last=$(state)
[ "$last" = "$clean" ] || die "wire_victim starts as '$last'"
inject "UC WRITE from 10.0.0.9" 10.0.0.9 "$clean" "ucwrite:$ucqpn:0:$ucrkey:$ucva"
inject "UC SEND from 10.0.0.9" 10.0.0.9 "$clean" "ucsend:$ucqpn:0"
inject "RC WRITE from 10.0.0.9" 10.0.0.9 "$clean" "rcwrite:$rcqpn:0:$rcrkey:$rcva"
inject "RC SEND from 10.0.0.9" 10.0.0.9 "$clean" "rcsend:$rcqpn:0"
inject "UC WRITE from the peer, PSN behind" 10.0.0.2 "$clean" \
	"ucwrite:$ucqpn:0xfffff0:$ucrkey:$ucva"
# the same packets from the peer land
inject "UC WRITE from the peer" 10.0.0.2 "rc changed 0 recvs 0 uc changed 64 recvs 0" \
	"ucwrite:$ucqpn:0:$ucrkey:$ucva"
inject "UC SEND from the peer" 10.0.0.2 "rc changed 0 recvs 0 uc changed 64 recvs 1" \
	"ucsend:$ucqpn:1"
inject "RC WRITE from the peer" 10.0.0.2 "rc changed 64 recvs 0 uc changed 64 recvs 1" \
	"rcwrite:$rcqpn:0:$rcrkey:$rcva"
inject "RC SEND from the peer" 10.0.0.2 "rc changed 64 recvs 1 uc changed 64 recvs 1" \
	"rcsend:$rcqpn:1"

exec {VICTIM[1]}>&-
wait "$VICTIM_PID"
rdma link del rxe0 || die "rdma link del"
[ "$fails" = 0 ] || die "$fails forged packet check(s) failed"
echo "rxe-wire-spoof: ok"
