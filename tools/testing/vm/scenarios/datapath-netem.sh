#!/bin/bash
# cost: 250 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# scenario-timeout-full: 4000
# The data path over a lossy, reordering, duplicating link, our stack:
# rxe0 in ns1 and rxe1 in ns2 on a veth pair (ns_pair_up), a netem qdisc on
# BOTH veth ends (requests and responses are both hit).  Under each
# condition the data oracle (rdma_oracle) runs RC with every op (data
# exact, every FETCH_ADD and CMP_SWAP executed exactly once), UC and UD
# with --lossy (what arrives is exact); and the condition must have done
# something: the recovery counters it should move did move.
#
#   make check:       "mixed" (loss 3%, duplicate 3%, 3% of the packets
#                     held 1 ms and overtaken), the oracle and
#                     ibv_rc_pingpong -c under it
#   make check-full:  also loss 1%, reorder 0.1%, reorder 1%, duplicate 1%
#                     one at a time, each with ibv_rc_pingpong -c; under
#                     clean, loss 1% and mixed also ib_write_bw, ib_read_bw
#                     and ib_atomic_bw, and a throughput table against clean;
#                     then the oracle's proof on this path: test_corrupt_every=5
#                     and test_atomic_twice=1 must each give a MISMATCH (make
#                     check proves the same checks in datapath-oracle)
#
# Upstream 6.1 cannot run this: its RoCE socket lives in init_net (see
# Documentation/dev-tools/datapath-scenarios.rst).  NETEM_CONDS narrows
# the conditions (labels).
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"
. "$REPO/tools/testing/vm/oracle.sh"

# label  netem  counters that must move (any of each "|" group; "," = and)
CONDS=(
	"mixed;loss 3% duplicate 3% delay 1ms reorder 97%;retransmits|rcvd_seq_err|completer_retry_err,duplicate_request,out_of_seq_request|rcvd_seq_err"
)
if [ "${CHECK_TIER:-check}" = full ]; then
	CONDS=(
		"clean;-;"
		"loss-1%;loss 1%;retransmits|rcvd_seq_err|completer_retry_err"
		"reorder-0.1%;delay 1ms reorder 99.9%;"
		"reorder-1%;delay 1ms reorder 99%;out_of_seq_request|rcvd_seq_err"
		"duplicate-1%;duplicate 1%;duplicate_request"
		"${CONDS[0]}"
	)
fi
iters=$(by_tier 30 100)
ORACLE_RUNS=(
	"rc pass --qp rc -g G4 --mtu 1024 --iters $iters --lossy-link"
	"uc pass --qp uc -g G4 --mtu 1024 --iters $iters --lossy"
	"ud pass --qp ud -g G4 --mtu 1024 --iters $iters --lossy"
)
# the stock tools (they move data; the oracle checks it)
TOOLS=(
	"rc-pingpong ibv_rc_pingpong -g G4 -n 100 -c"
	"write-bw ib_write_bw -x G4 -s 4096 -n 200 -F"
	"read-bw ib_read_bw -x G4 -s 4096 -n 200 -F"
	"atomic-bw ib_atomic_bw -x G4 -n 200 -F"
)

COUNTERS="retransmits duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err retry_exceeded_err rcvd_dropped"
# counters: "name=value ..." of both devices summed (shared mode: both
# devices are in init_net's sysfs; read by the shell, no process each)
counters() {
	local c a b out=
	for c in $COUNTERS; do
		a=0 b=0
		read -r a 2>/dev/null </sys/class/infiniband/rxe0/ports/1/hw_counters/$c
		read -r b 2>/dev/null </sys/class/infiniband/rxe1/ports/1/hw_counters/$c
		out+="$c=$((a + b)) "
	done
	echo "$out"
}
# delta BEFORE AFTER NAME: how much NAME grew
delta() {
	local a=0 b=0 kv
	for kv in $1; do [ "${kv%%=*}" = "$3" ] && a=${kv#*=}; done
	for kv in $2; do [ "${kv%%=*}" = "$3" ] && b=${kv#*=}; done
	echo $((b - a))
}

trap ns_pair_down EXIT
stack_load ours || die "load our stack"
ns_pair_up
echo "rxe0 (ns1) and rxe1 (ns2): IPv4 RoCE v2 GID index $NS_G4 (set up in ${SECONDS}s)"

fails=0
failed=()
table=()
declare -A clean
for c in "${CONDS[@]}"; do
	IFS=';' read -r cond netem moves <<<"$c"
	[ -z "${NETEM_CONDS:-}" ] || [[ " $NETEM_CONDS " == *" $cond "* ]] || continue
	echo "=== $cond: netem $netem (at ${SECONDS}s)"
	netem_set "$netem"
	before=$(counters)
	for r in "${ORACLE_RUNS[@]}"; do
		read -r label want args <<<"$r"
		args=${args//G4/$NS_G4}
		# shellcheck disable=SC2086
		oracle_run "$cond-$label" ns2 ns1 10.0.0.2 rxe1 rxe0 $args
		if ! oracle_judge "$cond-$label" "$want"; then
			fails=$((fails + 1))
			failed+=("$cond-$label: $(grep -h -m 1 -E '^rdma_oracle: (MISMATCH|ERROR)' \
				"$ORACLE_WORK/$cond-$label.server" "$ORACLE_WORK/$cond-$label.client" | head -n 1)")
		fi
		grep -h 'lost\|dup' "$ORACLE_WORK/$cond-$label.client" | head -n 3 | sed 's/^/    /'
	done
	# the stock tools: the pingpong in make check, all in check-full
	# the stock tools: the pingpong in make check; in check-full all of
	# them under clean, loss-1% and mixed (the table's rows), the pingpong
	# under the rest
	tools=("${TOOLS[0]}")
	case "${CHECK_TIER:-check}:$cond" in
	full:clean|full:loss-1%|full:mixed) tools=("${TOOLS[@]}") ;;
	esac
	tails=0
	lossy=1
	[ "$cond" != clean ] || lossy=
	for t in "${tools[@]}"; do
		read -r label tool args <<<"$t"
		args=${args//G4/$NS_G4}
		# shellcheck disable=SC2086
		if TOOL_SERVER_ARGS="-d rxe1" TOOL_CLIENT_ARGS="-d rxe0" TOOL_LOSSY_TAIL=$lossy \
			tool_run "$cond-$label" ns2 ns1 10.0.0.2 "$tool" $args; then
			[ -z "$TOOL_LAST_TAIL" ] || tails=$((tails + 1))
			val=$(awk -v l="$cond-$label" '$1 == "PASS" && $2 == l { print $3, $4 }' "$TOOLS_WORK/results" | tail -n 1)
		else
			val="FAILED -"
			fails=$((fails + 1))
			failed+=("$cond-$label: $tool failed")
		fi
		read -r v unit <<<"$val"
		[ "$cond" = clean ] && clean[$label]=$v
		pct=-
		if [ -n "${clean[$label]:-}" ] && [ "$v" != FAILED ]; then
			pct=$(awk -v a="$v" -v b="${clean[$label]}" 'BEGIN { if (b > 0) printf "%.0f%%", 100 * a / b; else print "-" }')
		fi
		table+=("$cond $label $v $unit $pct")
	done
	after=$(counters)
	echo "counters during $cond: before: $before"
	echo "                       after:  $after"
	# the condition must have disturbed the traffic
	IFS=',' read -r -a groups <<<"$moves"
	for g in "${groups[@]}"; do
		moved=0
		for name in ${g//|/ }; do
			[ "$(delta "$before" "$after" "$name")" -gt 0 ] && moved=1
		done
		if [ "$moved" = 0 ]; then
			fails=$((fails + 1))
			failed+=("$cond: none of $g moved: netem did not disturb the traffic as it should")
			echo "FAIL $cond: none of the counters $g moved"
		fi
	done
	# one retry error per lost NAK of the last RC step (the oracle's
	# inv_write: the responder is in ERR) and per pingpong whose last ACK
	# was lost after its server closed; none otherwise
	lost_naks=$(cat "$ORACLE_WORK/$cond"-*.client "$ORACLE_WORK/$cond"-*.server 2>/dev/null |
		grep -c 'the NAK was lost')
	[ "$(delta "$before" "$after" retry_exceeded_err)" -le $((lost_naks + tails)) ] || {
		fails=$((fails + 1)); failed+=("$cond: retry_exceeded_err moved ($lost_naks NAK(s) lost, $tails pingpong tail(s))"); }
done

# the oracle fails on damaged data on this path too (check-full, or asked
# for by NETEM_CONDS)
if { [ -z "${NETEM_CONDS:-}" ] && [ "${CHECK_TIER:-check}" = full ]; } ||
   [[ " ${NETEM_CONDS:-} " == *" corrupt "* ]]; then
	netem_set "loss 3% duplicate 3% delay 1ms reorder 97%"
	rxe_param test_corrupt_every 5
	oracle_run corrupt ns2 ns1 10.0.0.2 rxe1 rxe0 --qp rc -g "$NS_G4" --mtu 1024 \
		--iters 20 --ops send,write,read
	rxe_param test_corrupt_every 0
	oracle_judge corrupt mismatch || { fails=$((fails + 1)); failed+=("corrupt: not caught"); }
	rxe_param test_atomic_twice 1
	oracle_run atomic-twice ns2 ns1 10.0.0.2 rxe1 rxe0 --qp rc -g "$NS_G4" --iters 20 \
		--ops fetch_add
	rxe_param test_atomic_twice 0
	oracle_judge atomic-twice mismatch || { fails=$((fails + 1)); failed+=("atomic-twice: not caught"); }
fi
netem_set -

if [ ${#table[@]} -gt 0 ]; then
	echo
	echo "=== throughput under netem (pingpong Mbit/s, perftest MB/s average)"
	{ echo "condition tool value unit %-of-clean"; printf '%s\n' "${table[@]}"; } | column -t
fi
echo
echo "=== oracle runs"
column -t "$ORACLE_WORK/results"
rm -rf "$ORACLE_WORK" "$TOOLS_WORK"
if [ "$fails" != 0 ]; then
	echo "=== failed"
	printf '%s\n' "${failed[@]}"
	die "$fails failure(s)"
fi
echo "datapath-netem: all runs passed"
