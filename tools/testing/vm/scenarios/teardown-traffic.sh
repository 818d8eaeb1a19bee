#!/bin/bash
# cost: 270 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Teardown with traffic in flight, our stack under KASAN/lockdep: rxe0
# (born in ns1, on veth0) and rxe1 (ns2, veth1) carry RC SEND, WRITE, READ
# and atomics in both directions: two rdma_oracle pairs (one server on
# each device), running in init_net (devices are visible there in shared
# mode; their out-of-band TCP goes over lo) with --duration, every byte
# checked.  Then one removal, while the traffic runs:
#   link-delete    rdma link delete rxe0
#   netdev-delete  ip link del veth0 (both ends go: rxe0 and rxe1)
#   rmmod          rmmod rdma_rxe
#   netns-delete   ip netns del ns1 (no process is in it: the namespace
#                  exits and takes veth0, hence rxe0)
#   qp-destroy     kill -9 one client: its QPs are destroyed with its
#                  context while their work requests are in flight; its
#                  server must end; then the other pair, still running,
#                  is ended by ip netns del ns1 (a second netns-delete)
# Each case passes when the removal returns within $REMOVE_LIMIT s, every
# oracle process ends within that limit with status 0 or 3 (3: it got an
# error from the verbs or its peer; 1 would be wrong data; 124 a hang),
# the killed one excepted, and the stack unloads afterwards.  Leaks are
# judged by the end-of-run kmemleak verdict (vm:kmemleak).
# TEARDOWN_METHODS narrows the cases.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"
. "$REPO/tools/testing/vm/oracle.sh"

REMOVE_LIMIT=${REMOVE_LIMIT:-120}
ORACLE_TIMEOUT=900
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# traffic_start: two oracle pairs in init_net; sets PIDS (server and
# client of pair a, then of pair b) once both clients have connected and
# the devices have moved data.  All four processes start at once (a client
# retries its connect until its server listens: set-up under TCG is the
# slow part, so it runs in parallel).  --timeout 120: under a loaded TCG a
# client's set-up can outlast the default 30 s its server waits for it.
traffic_start() {
	local i base port p sdev cdev
	local -a ports=() args=(--qp rc -g "$NS_G4" --mtu 1024
		--ops send,send_imm,write,write_imm,read,fetch_add,cmp_swap --duration 600 --timeout 120)
	PIDS=()
	for pair in "a rxe1 rxe0" "b rxe0 rxe1"; do
		read -r p sdev cdev <<<"$pair"
		port=$ORACLE_PORT
		ORACLE_PORT=$((ORACLE_PORT + 1))
		timeout -k 5 "$ORACLE_TIMEOUT" "$ORACLE" -d "$sdev" -p "$port" "${args[@]}" \
			>"$ORACLE_WORK/$CASE-$p.server" 2>&1 &
		PIDS+=($!)
		timeout -k 5 "$ORACLE_TIMEOUT" "$ORACLE" -d "$cdev" -p "$port" "${args[@]}" \
			127.0.0.1 >"$ORACLE_WORK/$CASE-$p.client" 2>&1 &
		PIDS+=($!)
		ports+=("$port")
	done
	# both clients connected to their servers (tcp_has: read by the
	# shell; an ss costs up to 10 s while four oracles start)
	for port in "${ports[@]}"; do
		for ((i = 0; i < 300; i++)); do
			tcp_has "$port" 01 && break
			sleep 0.5
		done
		[ "$i" -lt 300 ] || { fail "$CASE: no client connected to port $port after 150 s"; return 1; }
	done
	echo "$CASE: both clients connected after $((SECONDS - t0)) s"
	# traffic in flight: the devices have sent packets for a while
	# (shared mode: rxe0 is in init_net's sysfs; read by the shell)
	local f=/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts now=0
	read -r base <"$f" || { fail "$CASE: no $f"; return 1; }
	for ((i = 0; i < 240; i++)); do
		sleep 0.5
		read -r now <"$f"
		[ $((now - base)) -gt 500 ] && return 0
	done
	fail "$CASE: no traffic after 120 s"
	return 1
}

# wait_all LIMIT PID...: wait for each PID (children of this shell), at
# most LIMIT s in all; sets EXITS to "pid:status ..." (124: still running
# at the deadline, then killed)
wait_all() {
	local limit=$1 end p
	shift
	end=$((SECONDS + limit))
	EXITS=
	for p in "$@"; do
		while kill -0 "$p" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do sleep 0.5; done
		if kill -0 "$p" 2>/dev/null; then
			kill -9 "$p" 2>/dev/null
			wait "$p" 2>/dev/null
			EXITS="$EXITS $p:124"
		else
			wait "$p"
			EXITS="$EXITS $p:$?"
		fi
	done
}

# judge_exits "PID:STATUS ...": every status 0 or 3
judge_exits() {
	local st p rc
	for st in $1; do
		p=${st%%:*}
		rc=${st#*:}
		case "$rc" in
		0|3) ;;
		124) fail "$CASE: oracle process $p still running $REMOVE_LIMIT s after the removal" ;;
		*) fail "$CASE: oracle process $p exited $rc" ;;
		esac
	done
}

one_case() {
	local t0 rc killed=
	local -a wait_set
	CASE=$1
	echo "--- $CASE"
	t0=$SECONDS
	stack_load ours || die "load our stack"
	ns_pair_up
	echo "$CASE: stack and namespaces up after $((SECONDS - t0)) s"
	traffic_start || { ns_pair_down; stack_unload; return; }
	echo "$CASE: traffic in flight after $((SECONDS - t0)) s; removing"
	t0=$SECONDS
	case "$CASE" in
	link-delete) timeout "$REMOVE_LIMIT" ip netns exec ns1 rdma link delete rxe0 ;;
	netdev-delete) timeout "$REMOVE_LIMIT" ip -n ns1 link del veth0 ;;
	rmmod) timeout "$REMOVE_LIMIT" rmmod rdma_rxe ;;
	netns-delete) timeout "$REMOVE_LIMIT" ip netns del ns1 ;;
	# (PIDS are timeout(1) processes: kill the oracle under it)
	qp-destroy) killed=${PIDS[1]}; pkill -9 -P "$killed"; kill -9 "$killed" ;;
	esac
	rc=$?
	[ "$rc" = 0 ] || fail "$CASE: the removal failed or hung (status $rc)"
	echo "$CASE: removal returned after $((SECONDS - t0)) s"
	# the processes: an error (3) or done (0), in time.  qp-destroy: the
	# killed client's server must end; the other pair is not affected and
	# is ended by deleting the devices
	wait_set=("${PIDS[@]}")
	if [ "$CASE" = qp-destroy ]; then
		wait_all "$REMOVE_LIMIT" "${PIDS[0]}"
		judge_exits "$EXITS"
		wait "$killed" 2>/dev/null
		# pair b still runs: end it by the namespace exit
		t0=$SECONDS
		timeout "$REMOVE_LIMIT" ip netns del ns1 ||
			fail "$CASE: ip netns del ns1 failed or hung after the kill"
		echo "$CASE: netns-delete under pair b returned after $((SECONDS - t0)) s"
		wait_set=("${PIDS[2]}" "${PIDS[3]}")
	fi
	wait_all "$REMOVE_LIMIT" "${wait_set[@]}"
	judge_exits "$EXITS"
	echo "$CASE: all processes ended after $((SECONDS - t0)) s"
	for f in "$ORACLE_WORK/$CASE"-*; do
		echo "  $(basename "$f"): $(grep -E '^rdma_oracle: (PASS|ERROR|MISMATCH)' "$f" | head -n 1)"
		grep -q '^rdma_oracle: MISMATCH' "$f" && fail "$CASE: wrong data in $(basename "$f")"
	done
	ns_pair_down
	if ! stack_unload; then
		fail "$CASE: the stack does not unload afterwards"
		lsmod | head -n 5
	fi
}

# make check: qp-destroy covers a namespace exit under traffic too
methods=$(by_tier "rmmod qp-destroy" \
		  "link-delete netdev-delete rmmod netns-delete qp-destroy")
for m in ${TEARDOWN_METHODS:-$methods}; do
	one_case "$m"
done
rm -rf "$ORACLE_WORK" "$TOOLS_WORK"
[ "$fails" = 0 ] || die "$fails failure(s) above"
echo "teardown-traffic: all cases passed"
