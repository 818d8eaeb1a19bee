#!/bin/bash
# cost: 226 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# scenario-timeout-full: 1800
# rdma_cm and network namespaces (Documentation/core/rdma_cm.rst,
# "Network namespaces", "Resource tracking"), with unmodified librdmacm's
# rping: rxe0 in ns1 on veth0 (10.0.0.1), rxe1 in ns2 on veth1 (10.0.0.2)
# (ns_pair_up).  make check, exclusive mode:
#  - a listening rping server is a row of "rdma res show cm_id" in its
#    namespace only (LISTEN, ps TCP, pid/comm, src-addr), each end of a
#    connection a row in its own (CONNECT, lqpn, qp-type RC, dst-addr);
#    the client SIGKILLed: the server ends and no row is left;
#  - the same port listened on in ns1 and ns2 at once (wildcard address),
#    each server serving the other namespace's client, rping -V;
#  - a request to a port only ns1 listens on, arriving on ns2's device,
#    never reaches ns1's listener: ib_cm rejects it (REJ 8, no listener:
#    ns1's wildcard listener does not listen on ns2's device);
#  - an ID of ns1 cannot bind ns2's address;
# check-full: netem 25 % loss on the CM MADs (QP 1) leaving both veth
# ends: rping still connects (MAD retransmission), verifies and
# disconnects, and at least one MAD was lost; then shared mode: init_net lists ns2's rows; the same request is
# rejected with REJ 28 (ns1's wildcard listener listens on rxe1 too, ns2
# has no listener); rping -C 3 with the whole link at 25 % loss (RC
# retransmission too: about 120 s); a peer that vanishes after address
# resolution (netem 100 % loss on the server's side): the client hears
# UNREACHABLE -ETIMEDOUT after the REQ's retries (about 98 s), the server
# (its REP lost) too, and no CM ID is left.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"

CORE=$MODDIR/drivers/infiniband/core
W=$TOOLS_WORK
fails=0
port=21000

pass() { echo "PASS [${SECONDS}s] $*"; }
fail() { echo "FAIL [${SECONDS}s] $*"; fails=$((fails + 1)); }
next_port() { port=$((port + 1)); }

# cm_rows NS: "rdma res show cm_id" as NS sees it ("init": this one)
cm_rows() {
	if [ "$1" = init ]; then rdma res show cm_id 2>&1; else ip netns exec "$1" rdma res show cm_id 2>&1; fi
}

# rows_wait NS PATTERN [N]: until NS lists at least N (default 1) rows
# matching PATTERN (extended regex), <= 30 s; prints the rows (one rdma
# per poll, matched by the shell: an exec costs about half a second)
rows_wait() {
	local i n rows line
	for ((i = 0; i < 150; i++)); do
		n=0 rows=
		while IFS= read -r line; do
			[[ $line =~ $2 ]] && { n=$((n + 1)); rows+="$line"$'\n'; }
		done <<<"$(cm_rows "$1")"
		[ "$n" -ge "${3:-1}" ] && { printf '%s' "$rows"; return 0; }
		sleep 0.2
	done
	cm_rows "$1" | sed 's/^/    /'
	return 1
}

# rows_gone NS: NS lists no CM ID, <= 20 s
rows_gone() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -z "$(cm_rows "$1")" ] && return 0
		sleep 0.2
	done
	cm_rows "$1" | sed 's/^/    /'
	return 1
}

# server NS OUT ARGS...: rping -s in NS in the background (PID in SPID)
server() {
	local ns=$1 out=$2
	shift 2
	ip netns exec "$ns" timeout -k 5 "${RPING_TIMEOUT:-120}" rping -s "$@" >"$out" 2>&1 &
	SPID=$!
}

# client NS OUT ARGS...: rping -c in NS, in the foreground; its status
client() {
	local ns=$1 out=$2
	shift 2
	ip netns exec "$ns" timeout -k 5 "${RPING_TIMEOUT:-120}" rping -c "$@" >"$out" 2>&1
}

# pings FILE: verified ping lines rping -v printed
pings() { grep -c '^ping data: rdma-ping-' "$1" 2>/dev/null; }

# rping_ok LABEL SERVER_OUT CLIENT_OUT CLIENT_RC COUNT: judge a run
rping_ok() {
	local label=$1 so=$2 co=$3 rc=$4 count=$5 got
	got=$(pings "$co")
	if [ "$rc" = 0 ] && [ "${got:-0}" = "$count" ]; then
		pass "$label ($got verified pings)"
		return 0
	fi
	fail "$label: client rc $rc, $got of $count pings"
	tail -n 8 "$so" | sed 's/^/    server: /'
	tail -n 8 "$co" | sed 's/^/    client: /'
	return 1
}

# stop PID: end a background server (if still running) and reap it
stop() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# static_neigh: each end knows the other's MAC for good (ARP under netem
# loss is not what is tested, and a vanished peer must not make address
# resolution fail)
static_neigh() {
	local m0 m1
	m0=$(ip netns exec ns1 cat /sys/class/net/veth0/address)
	m1=$(ip netns exec ns2 cat /sys/class/net/veth1/address)
	ip -n ns1 neigh replace 10.0.0.2 lladdr "$m1" dev veth0 nud permanent &&
		ip -n ns2 neigh replace 10.0.0.1 lladdr "$m0" dev veth1 nud permanent ||
		die "static neighbours"
}

stack_load ours || die "cannot load our stack"
for m in ib_cm rdma_cm rdma_ucm; do
	insmod "$CORE/$m.ko" || die "insmod $m"
done

# ============================================== exclusive mode (make check)
echo "=== exclusive mode [${SECONDS}s]"
NS_PAIR_MODE=exclusive ns_pair_up
static_neigh
echo "namespaces up [${SECONDS}s]"

# rping ns1 -> ns2: the listener is a row in ns2 only, then each end of
# the connection a row in its own namespace; the client SIGKILLed then:
# the server ends, no row is left
next_port
server ns2 "$W/conn.server" -a 10.0.0.2 -p $port -V -C 100000 -S 64
if rows_wait ns2 "link rxe1/1 .*state LISTEN ps TCP .*comm rping src-addr 10\.0\.0\.2:$port" \
	>"$W/rows.listen"; then
	sed 's/^/    /' "$W/rows.listen"
	pass "listening server listed in ns2 (state LISTEN, ps TCP, pid/comm, src-addr)"
else
	fail "no LISTEN row in ns2 for rping -s on 10.0.0.2:$port"
fi
got="$(cm_rows ns1)$(cm_rows init)"
if [ -z "$got" ]; then
	pass "ns2's listener is not listed in ns1 nor in init_net"
else
	fail "ns1 or init_net lists another namespace's CM ID: $got"
fi
ip netns exec ns1 rping -c -a 10.0.0.2 -p $port -V -v -C 100000 -S 64 >"$W/conn.client" 2>&1 &
cpid=$!
CONN="lqpn [0-9]+ qp-type RC state CONNECT ps TCP .*comm rping"
if rows_wait ns1 "link rxe0/1 .*$CONN src-addr 10\.0\.0\.1:[0-9]+ dst-addr 10\.0\.0\.2:$port" >"$W/rows.connect" &&
	rows_wait ns2 "link rxe1/1 .*$CONN src-addr 10\.0\.0\.2:$port dst-addr 10\.0\.0\.1:[0-9]+" >>"$W/rows.connect"; then
	sed 's/^/    /' "$W/rows.connect"
	pass "each end of the connection listed in its namespace (lqpn, qp-type RC, CONNECT, dst-addr)"
else
	fail "no CONNECT row in ns1 and ns2 while rping runs"
fi
kill -9 $cpid
wait $cpid 2>/dev/null
echo "killed the client after $(pings "$W/conn.client") verified pings"
for ((i = 0; i < 100; i++)); do
	kill -0 $SPID 2>/dev/null || break
	sleep 0.2
done
kill -0 $SPID 2>/dev/null && fail "server still runs 20 s after its client was killed"
stop $SPID
if rows_gone ns1 && rows_gone ns2; then
	pass "no CM ID listed once both rpings are gone"
else
	fail "CM IDs listed after rping exited"
fi

# the same port, wildcard address, in both namespaces at once; each
# serves the other namespace's client (rping -V: data verified)
next_port
server ns1 "$W/same1.server" -a 0.0.0.0 -p $port -V -C 3
s1=$SPID
server ns2 "$W/same2.server" -a 0.0.0.0 -p $port -V -C 3
s2=$SPID
# a wildcard listener is a row on every device it listens on: its own
rows_wait ns1 "link rxe0/- .*state LISTEN ps TCP .*src-addr 0\.0\.0\.0:$port" >"$W/rows.same" &&
	rows_wait ns2 "link rxe1/- .*state LISTEN ps TCP .*src-addr 0\.0\.0\.0:$port" >>"$W/rows.same" ||
	fail "wildcard listeners on port $port not listed in both namespaces"
sed 's/^/    /' "$W/rows.same"
kill -0 $s1 2>/dev/null && kill -0 $s2 2>/dev/null ||
	fail "a server of port $port did not stay up: $(cat "$W/same1.server" "$W/same2.server")"
crc1=0 crc2=0
client ns1 "$W/same1.client" -a 10.0.0.2 -p $port -V -v -C 3 || crc1=$?
client ns2 "$W/same2.client" -a 10.0.0.1 -p $port -V -v -C 3 || crc2=$?
wait $s1
wait $s2
rping_ok "port $port in ns2 (served ns1's client)" "$W/same2.server" "$W/same1.client" $crc1 3
rping_ok "port $port in ns1 (served ns2's client)" "$W/same1.server" "$W/same2.client" $crc2 3

# reject_probe MODE WANT: ns1's wildcard listener on a port ns2 does not
# listen on; ns1's client to 10.0.0.2 (arrives on ns2's rxe1) must be
# REJECTED with status WANT, and ns1's server must see no request
reject_probe() {
	local mode=$1 want=$2 crc=0
	next_port
	server ns1 "$W/rej-$mode.server" -d -a 0.0.0.0 -p $port -C 1
	rows_wait ns1 "state LISTEN ps TCP .*src-addr 0\.0\.0\.0:$port" >/dev/null ||
		fail "$mode: ns1's listener on $port not listed"
	client ns1 "$W/rej-$mode.client" -d -a 10.0.0.2 -p $port -C 1 || crc=$?
	stop $SPID
	if grep -q "RDMA_CM_EVENT_REJECTED, error $want\$" "$W/rej-$mode.client" &&
		! grep -q CONNECT_REQUEST "$W/rej-$mode.server"; then
		pass "$mode: ns1's listener not reached from ns2's device (REJECTED, status $want)"
	else
		fail "$mode: a request on ns2's device to ns1's port: want REJECTED $want, none at ns1's server"
		grep -i 'event\|error' "$W/rej-$mode.client" | tail -n 4 | sed 's/^/    client: /'
		grep -i 'event\|error' "$W/rej-$mode.server" | tail -n 4 | sed 's/^/    server: /'
	fi
}
reject_probe exclusive 8

# ns1 may not use ns2's address (nor so its device)
crc=0
client ns1 "$W/excl-src.client" -d -I 10.0.0.2 -a 10.0.0.2 -p $port -C 1 || crc=$?
if [ "$crc" != 0 ] && ! grep -q 'ROUTE_RESOLVED\|ESTABLISHED' "$W/excl-src.client"; then
	pass "exclusive: ns1 cannot bind ns2's address ($(grep -m1 -i 'error\|cannot' "$W/excl-src.client"))"
else
	fail "exclusive: ns1 bound ns2's address"
	tail -n 4 "$W/excl-src.client" | sed 's/^/    /'
fi

# ---- CM traffic under loss ----
# cm_loss LOSS|-: netem LOSS on the CM MADs only (RoCE v2 to QP 1: UDP
# 4791, BTH destination QP 1) leaving both veth ends; "-": none.  The data
# path stays clean: what is lost is REQ, REP, RTU, DREQ, DREP.
cm_loss() {
	local end ns dev
	for end in "ns1 veth0" "ns2 veth1"; do
		read -r ns dev <<<"$end"
		tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null
		[ "$1" = - ] && continue
		tc -n "$ns" qdisc add dev "$dev" root handle 1: prio bands 3 \
			priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 &&
		tc -n "$ns" qdisc add dev "$dev" parent 1:3 handle 30: netem loss "$1" &&
		tc -n "$ns" filter add dev "$dev" parent 1: protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			match u32 0x00000001 0x00ffffff at 32 flowid 1:3 ||
			die "CM loss qdisc on $dev"
	done
}
# cm_dropped: MADs netem dropped so far, both ends
cm_dropped() {
	local n=0 d end ns dev
	for end in "ns1 veth0" "ns2 veth1"; do
		read -r ns dev <<<"$end"
		d=$(tc -s -n "$ns" qdisc show dev "$dev" | sed -n '/netem/,/dropped/s/.*dropped \([0-9]*\).*/\1/p' | head -1)
		n=$((n + ${d:-0}))
	done
	echo $n
}

# loss_run LABEL COUNT: rping -V ns1 -> ns2 under the loss set up
loss_run() {
	local label=$1 count=$2 t0=$SECONDS crc=0
	next_port
	RPING_TIMEOUT=300 server ns2 "$W/$label.server" -a 10.0.0.2 -p $port -V -C "$count"
	sleep 1
	RPING_TIMEOUT=300 client ns1 "$W/$label.client" -a 10.0.0.2 -p $port -V -v -C "$count" || crc=$?
	wait $SPID
	rping_ok "$label: rping -V -C $count ($((SECONDS - t0)) s)" "$W/$label.server" "$W/$label.client" $crc "$count"
}

# CM MADs lost 25 %: a run loses none with some luck; up to 4 runs until
# one did (retransmission is what is tested).  make check-full: each lost
# MAD costs a retransmission timeout, 24-304 s in all under TCG.
if [ "${CHECK_TIER:-check}" = full ]; then
	cm_loss 25%
	for ((i = 1; i <= 4; i++)); do
		loss_run "cm-loss-$i" 2
		n=$(cm_dropped)
		[ "$n" -gt 0 ] && break
	done
	if [ "$n" -gt 0 ]; then
		pass "CM MADs under 25 % loss: $n dropped, retransmitted, connected"
	else
		fail "CM loss: netem dropped no MAD in 4 runs (filter matched nothing?)"
	fi
	cm_loss -
fi
rows_gone ns1 && rows_gone ns2 || fail "exclusive: CM IDs left"
ns_pair_down

# ================================================= shared mode (check-full)
if [ "${CHECK_TIER:-check}" = full ]; then
echo "=== shared mode [${SECONDS}s]"
ns_pair_up
static_neigh
# shared: every namespace sees both devices, so init_net lists the rows
next_port
server ns2 "$W/shared.server" -a 10.0.0.2 -p $port -V -C 3
rows_wait init "link rxe1/1 .*state LISTEN ps TCP .*src-addr 10\.0\.0\.2:$port" >/dev/null ||
	fail "shared: init_net does not list ns2's listener"
crc=0
client ns1 "$W/shared.client" -a 10.0.0.2 -p $port -V -v -C 3 || crc=$?
wait $SPID
rping_ok "shared: rping -V ns1 -> ns2" "$W/shared.server" "$W/shared.client" $crc 3
reject_probe shared 28
# the whole link lossy (CM and data)
netem_set "loss 25%"
loss_run link-loss 3
netem_set -
rows_gone init || fail "CM IDs left after the lossy link"
# ---- check-full: a peer that vanishes mid-handshake ----
next_port
RPING_TIMEOUT=300 server ns2 "$W/vanish.server" -d -a 10.0.0.2 -p $port -C 1
rows_wait ns2 "state LISTEN .*src-addr 10\.0\.0\.2:$port" >/dev/null || fail "vanish: no listener"
# the server's answers vanish (ns1 knows its MAC: static_neigh)
tc -n ns2 qdisc add dev veth1 root netem loss 100% || die "netem on veth1"
t0=$SECONDS
crc=0
RPING_TIMEOUT=300 client ns1 "$W/vanish.client" -d -a 10.0.0.2 -p $port -C 1 || crc=$?
took=$((SECONDS - t0))
wait $SPID
tc -n ns2 qdisc del dev veth1 root
echo "vanish: client ended after ${took} s (rc $crc)"
# 16 REQs 6.144 s apart: about 98 s; later than 150 s is no timeout
if grep -q 'RDMA_CM_EVENT_UNREACHABLE, error -110$' "$W/vanish.client" &&
	[ "$took" -le 150 ]; then
	pass "vanished peer: client hears UNREACHABLE -ETIMEDOUT after ${took} s"
else
	fail "vanished peer: no UNREACHABLE -ETIMEDOUT at the client within 150 s"
	tail -n 6 "$W/vanish.client" | sed 's/^/    client: /'
fi
if grep -q 'RDMA_CM_EVENT_UNREACHABLE, error -110$' "$W/vanish.server"; then
	pass "vanished peer: the accepting server hears UNREACHABLE -ETIMEDOUT (REP lost)"
else
	fail "vanished peer: server did not hear UNREACHABLE"
	tail -n 6 "$W/vanish.server" | sed 's/^/    server: /'
fi
rows_gone init || fail "CM IDs left after the vanished peer"

ns_pair_down
fi
rdma_netns_mode shared || fail "cannot switch back to shared mode"

# rdma_ucm, rdma_cm and ib_cm go too: no ID holds them
stack_unload || die "unload"
[ -d "${OUT:-}" ] && cp -r "$W" "$OUT/cma-netns-tools"
[ "$fails" = 0 ] || die "cma-netns: $fails check(s) failed"
echo "cma-netns: all checks passed"
