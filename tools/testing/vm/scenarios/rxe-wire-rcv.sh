#!/bin/bash
# cost: 82 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The rxe receive path without requester or responder: RoCEv2 packets
# made by roce_inject.py (ICRC by zlib) reach rxe0 over a veth from a peer
# namespace and, from this host, through local delivery (lo); the port
# counters tell what rxe_rcv() did with each: a good ICRC is accepted
# (rcvd_pkts), a bad one is counted (rcvd_icrc_err), bad opcode / Q_Key /
# QPN are dropped (rcvd_dropped), all silently.
. "$REPO/tools/testing/vm/lib.sh"
INJ=$REPO/tools/testing/vm/roce_inject.py
C=/sys/class/infiniband/rxe0/ports/1/hw_counters

stack_load ours || die "stack_load ours"
peer_ns_up
ip addr add 10.0.0.3/32 dev lo
rdma link add rxe0 type rxe netdev veth0 || die "rdma link add"
gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a00:0001

# (read by the shell: a cat costs about half a second under TCG)
snap() {
	local p d i
	if read -r p <$C/rcvd_pkts && read -r d <$C/rcvd_dropped && read -r i <$C/rcvd_icrc_err; then
		echo "$p $d $i"
	else
		echo "? ? ?"	# no counters: no delta can match
	fi
}
# expect DESC PKTS DROPPED ICRC: counter deltas since the last call ("x":
# any)
last=$(snap)
deltas_ok() {
	local i a b want=("$@")
	read -r -a a <<<"$last"
	read -r -a b <<<"$now"
	for i in 0 1 2; do
		[ "${want[i]}" = x ] && continue
		[ $((b[i] - a[i])) -eq "${want[i]}" ] || return 1
	done
}
expect() {
	local desc=$1 n
	shift
	for ((n = 0; n < 20; n++)); do
		now=$(snap)
		deltas_ok "$@" && break
		sleep 0.2
	done
	echo "$desc: pkts/dropped/icrc $last -> $now (want +$*)"
	deltas_ok "$@" || die "$desc: counters"
	last=$now
}

# a good packet to QP1 parses (rcvd_pkts); without a GSI QP it is then
# dropped, with one it goes to the responder
ip netns exec peer python3 "$INJ" 10.0.0.2 10.0.0.1 gsi || die inject
expect "veth: good ICRC" 1 x 0
ip netns exec peer python3 "$INJ" 10.0.0.2 10.0.0.1 badicrc || die inject
expect "veth: bad ICRC" 0 0 1
ip netns exec peer python3 "$INJ" 10.0.0.2 10.0.0.1 badop || die inject
expect "veth: unknown opcode" 0 1 0
ip netns exec peer python3 "$INJ" 10.0.0.2 10.0.0.1 badqkey noqp || die inject
expect "veth: Q_Key, no QP" 2 2 0
python3 "$INJ" 10.0.0.3 10.0.0.1 gsi badicrc || die inject
expect "local delivery (lo)" 1 x 1
# to an address without an rxe device: not ours, not counted
python3 "$INJ" 10.0.0.3 10.0.0.3 gsi || die inject
sleep 1
expect "no device" 0 0 0

rdma link del rxe0 || die "rdma link del"
echo "rxe-wire-rcv: ok"
