# shellcheck shell=bash
# Wire pair "rxe-interop", sourced by the guest scripts rxe-interop-{a,b}.sh
# (A: our stack, B: upstream's) and rxe-interop-upstream-{a,b}.sh
# (upstream's on both: proves the scripts).  Set before sourcing: SIDE (A or
# B) and SIDE_STACK (ours or upstream).
#
# Each guest puts rxe0 on its wire NIC (A 10.99.0.1 and fd99::1, B
# 10.99.0.2 and fd99::2) and both run the same list in the same order, each
# run on a TCP port of its own (the only synchronisation): every run once
# with the server in A and the client in B, once the other way round.  The
# client retries connecting while the server is not up yet (the other VM
# may still be booting: the first run waits up to 600 s, --timeout).  The data oracle (rdma_oracle) checks every byte
# and every atomic result in both directions of each run:
#   rc-v4, rc-v6   RC, every op but SEND_WITH_INV (upstream 6.1 reports an
#                  invalidation with the wrong wc_flags, see
#                  Documentation/dev-tools/verbs-differences.rst)
#   uc-v4, ud-v6   UC and UD
#   rc-v6-srq      (check-full) RC over IPv6 with receives through a
#                  shared receive queue (--srq): SEND, SEND_IMM, WRITE_IMM
#   corrupt        A (ours) inverts a payload byte of every 5th packet before
#                  the ICRC (test build): the oracle must report a MISMATCH
#   atomic-twice   A executes every atomic twice: a MISMATCH too
# (the last two only when A runs our stack, and only in make check-full);
#   aw-refused     (A ours, B upstream 6.1) A posts an ATOMIC WRITE, which
#                  6.1 does not know: B's cell stays untouched and A's WQE
#                  completes in error (6.1 drops the opcode: retry error)
# then ibv_rc_pingpong -c both ways, then rdma_cm's tools both ways
# (cm-interop.inc.sh).  make check-full also adds path MTUs
# 256 and 4096 and the other stock
# tools (pingpongs with --chk, perftest), which only prove that the tools
# run.
set -u
# shellcheck source=SCRIPTDIR/../lib.sh
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"
. "$REPO/tools/testing/vm/oracle.sh"

case "$SIDE" in
A) ADDR=10.99.0.1 ADDR6=fd99::1 MAC=52:54:00:00:00:01 PEER=10.99.0.2 ;;
B) ADDR=10.99.0.2 ADDR6=fd99::2 MAC=52:54:00:00:00:02 PEER=10.99.0.1 ;;
*) die "SIDE must be A or B" ;;
esac
# is A a test build of ours (fault injection)?
A_OURS=0
case "$(basename "$0")" in
rxe-interop-a.sh|rxe-interop-b.sh) A_OURS=1 ;;
esac

OPS=send,send_imm,write,write_imm,read,fetch_add,cmp_swap
# label  expect  oracle arguments (G4/G6: GID index)
RUNS=(
	"rc-v4 pass --qp rc -g G4 --ops $OPS"
	"rc-v6 pass --qp rc -g G6 --ops $OPS"
	"uc-v4 pass --qp uc -g G4"
	"ud-v6 pass --qp ud -g G6"
)
if [ "${CHECK_TIER:-check}" = full ]; then
	RUNS+=(
		"rc-v6-srq pass --qp rc -g G6 --srq --ops send,send_imm,write_imm"
		"rc-v4-256 pass --qp rc -g G4 --mtu 256 --ops $OPS"
		"rc-v4-4096 pass --qp rc -g G4 --mtu 4096 --ops $OPS --max-size 65536"
		"ud-v4-4096 pass --qp ud -g G4 --mtu 4096"
		"uc-v4-srq pass --qp uc -g G4 --srq"
		"ud-v4-srq pass --qp ud -g G4 --srq"
	)
fi
[ "$A_OURS" = 1 ] && RUNS+=("aw-refused pass --qp rc -g G4 --ops aw_refused")
# the oracle's proof on the wire: check-full (datapath-oracle proves it
# on a veth path in make check)
[ "$A_OURS" = 1 ] && [ "${CHECK_TIER:-check}" = full ] && RUNS+=(
	"corrupt mismatch --qp rc -g G4 --ops send,write,read --iters 20"
	"atomic-twice mismatch --qp rc -g G4 --ops fetch_add --iters 20"
)
# the stock tools: one in make check (that they run across the wire),
# all in check-full
TOOLS=("rc-pingpong ibv_rc_pingpong -g G4 -n 10 -c")
[ "${CHECK_TIER:-check}" = full ] && TOOLS=(
	"rc-pingpong ibv_rc_pingpong -g G4 -n 10 -c"
	"ud-pingpong ibv_ud_pingpong -g G4 -n 10 -s 1000 -c"
	"write-bw ib_write_bw -x G4 -n 10 -F"
	"read-bw ib_read_bw -x G4 -n 10 -F"
	"atomic-bw ib_atomic_bw -x G4 -n 10 -F"
)

# WIRE_ONLY=cm: the rdma_cm part alone (a shortcut when working on it)
if [ "${WIRE_ONLY:-}" = cm ]; then RUNS=(); TOOLS=(); fi

wire_eth0_up "$ADDR/24" "$MAC"
[ "${CHECK_TIER:-check}" = full ] && { ip link set eth0 mtu 9000 || die "eth0 mtu 9000"; }
ip -6 addr add "$ADDR6/64" dev eth0 nodad || die "IPv6 address on eth0"
stack_load "$SIDE_STACK" || die "load $SIDE_STACK"
rdma link add rxe0 type rxe netdev eth0 || die "rdma link add rxe0"
g4=$(gid_index_wait rxe0 4)
g6=$(gid_index_wait rxe0 6)
echo "$SIDE: $SIDE_STACK stack, rxe0 on eth0 ($ADDR, $ADDR6), RoCE v2 GID index IPv4 $g4, IPv6 $g6"

# the fault injection of a run, set in A only
inject() {	# inject LABEL on|off
	[ "$SIDE" = A ] && [ "$A_OURS" = 1 ] || return 0
	case "$1" in
	corrupt) rxe_param test_corrupt_every "$([ "$2" = on ] && echo 5 || echo 0)" ;;
	atomic-twice) rxe_param test_atomic_twice "$([ "$2" = on ] && echo 1 || echo 0)" ;;
	esac
}

fails=0
first=1
port=18700
for r in "${RUNS[@]}"; do
	read -r label want args <<<"$r"
	args=${args//G4/$g4}
	args=${args//G6/$g6}
	for server in A B; do
		# the first run waits for the other VM to boot
		if [ "$first" = 1 ]; then wait=600; else wait=240; fi
		first=0
		run=$label-server-$server
		t0=$SECONDS
		inject "$label" on
		if [ "$server" = "$SIDE" ]; then
			# (no wait for the listening socket: the client in the
			# other VM may connect and finish before a look at it)
			# shellcheck disable=SC2086
			timeout -k 5 $((wait + 300)) "$ORACLE" -d rxe0 -p "$port" --timeout "$wait" \
				$args >"$ORACLE_WORK/$run.server" 2>&1
			rc=$?
			cp "$ORACLE_WORK/$run.server" "$ORACLE_WORK/$run.client"
		else
			# shellcheck disable=SC2086
			# (the client retries connecting until --timeout)
			timeout -k 5 $((wait + 300)) "$ORACLE" -d rxe0 -p "$port" --timeout "$wait" \
				$args "$PEER" >"$ORACLE_WORK/$run.client" 2>&1
			rc=$?
			cp "$ORACLE_WORK/$run.client" "$ORACLE_WORK/$run.server"
		fi
		inject "$label" off
		# (each VM judges its own side: a MISMATCH seen by the peer
		# reaches this side over the out-of-band channel)
		ORACLE_RC_S=$rc ORACLE_RC_C=$rc ORACLE_SECS=$((SECONDS - t0))
		oracle_judge "$run" "$want" || fails=$((fails + 1))
		port=$((port + 1))
	done
done
for t in "${TOOLS[@]}"; do
	read -r label tool args <<<"$t"
	args=${args//G4/$g4}
	for server in A B; do
		if [ "$server" = "$SIDE" ]; then role=server; else role=client; fi
		# shellcheck disable=SC2086
		TOOL_ROLE=$role TOOL_REMOTE=1 TOOL_TIMEOUT=240 TOOL_PORT_FIXED=$port \
			tool_run "$label-server-$server" "" "" "$PEER" "$tool" -d rxe0 $args ||
			fails=$((fails + 1))
		port=$((port + 1))
	done
done

# rdma_cm across the wire: cm-interop.inc.sh
# shellcheck source=SCRIPTDIR/cm-interop.inc.sh
. "$REPO/tools/testing/vm/wire/cm-interop.inc.sh"
cm_interop || fails=$((fails + $?))

echo
echo "=== $SIDE ($SIDE_STACK): results (server-A: server in A)"
cat "$ORACLE_WORK/results" "$TOOLS_WORK/results" "$CM_W/results" 2>/dev/null | column -t
rdma statistic show link rxe0/1 2>&1 | tr -s ' ' | fold -s -w 120
rdma link delete rxe0 || die "rdma link delete rxe0"
stack_unload || die "unload $SIDE_STACK"
rm -rf "$ORACLE_WORK" "$TOOLS_WORK" "$CM_W"
[ "$fails" = 0 ] || die "$fails run(s) failed in $SIDE"
echo "$SIDE: ok"
