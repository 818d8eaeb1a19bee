#!/bin/bash
# RC over a lossy, reordering, duplicating link (issue 5, acceptance 3), our
# stack: namespaces ns1 and ns2 joined by a veth pair (veth0 10.0.0.1 in
# ns1, veth1 10.0.0.2 in ns2), rxe0 on veth0 and rxe1 on veth1 (each born
# in its namespace, with its RoCE socket there).  Conditions, one at a time,
# as a netem qdisc on BOTH veth ends (both directions):
#   clean, loss 1%, reorder 0.1%, reorder 1%, duplicate 1%
# (reorder X%: "delay 1ms reorder (100-X)%": X% of the packets are held
# 1 ms and overtaken by the ones behind them; the rest go at once).  Under
# each: ibv_rc_pingpong --chk (data checked), ib_write_bw, ib_read_bw,
# ib_atomic_bw (short runs, by iteration count).  Every run must pass; prints a throughput table
# (condition, tool, value, % of clean) and the retransmit counters.
# Upstream 6.1 keeps its RoCE socket in init_net: it cannot run between
# namespaces (see Documentation/dev-tools/datapath-tools.rst).
# NETEM_STACK (default ours), NETEM_CONDS and NETEM_TOOLS (labels) narrow it.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"

CONDS=(
	"clean -"
	"loss-1% loss 1%"
	"reorder-0.1% delay 1ms reorder 99.9%"
	"reorder-1% delay 1ms reorder 99%"
	"duplicate-1% duplicate 1%"
)
# iteration counts, not durations: perftest's duration mode reports 0 MB/s
# in a TCG guest
TOOLS=(
	"rc-pingpong ibv_rc_pingpong -g G -n 100 -c"
	"write-bw ib_write_bw -x G -s 4096 -n 200 -F"
	"read-bw ib_read_bw -x G -s 4096 -n 200 -F"
	"atomic-bw ib_atomic_bw -x G -n 200 -F"
)

# whatever happens, leave no namespace, device or qdisc to the next scenario
netem_cleanup() {
	local ns
	for ns in ns1 ns2; do
		ip netns exec "$ns" rdma link delete rxe0 2>/dev/null
		ip netns exec "$ns" rdma link delete rxe1 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
}
trap netem_cleanup EXIT

stack=${NETEM_STACK:-ours}
stack_load "$stack" || die "load $stack"
rdma_netns_mode shared || die "rdma netns mode shared"
ip netns add ns1 && ip netns add ns2 || die "netns add"
ip link add veth0 type veth peer name veth1 || die "veth add"
ip link set veth0 netns ns1 && ip link set veth1 netns ns2 || die "veth to namespaces"
ip -n ns1 addr add 10.0.0.1/24 dev veth0 && ip -n ns2 addr add 10.0.0.2/24 dev veth1 ||
	die "addresses"
ip -n ns1 link set veth0 up && ip -n ns2 link set veth1 up || die "veth up"
ip -n ns1 link set lo up && ip -n ns2 link set lo up
ip netns exec ns1 rdma link add rxe0 type rxe netdev veth0 || die "rxe0 in ns1"
ip netns exec ns2 rdma link add rxe1 type rxe netdev veth1 || die "rxe1 in ns2"
g0=$(gid_index_wait rxe0 4 ns1)
g1=$(gid_index_wait rxe1 4 ns2)
[ "$g0" = "$g1" ] || die "IPv4 GID index differs: rxe0 $g0, rxe1 $g1"
echo "rxe0 (ns1) and rxe1 (ns2): IPv4 RoCE v2 GID index $g0 (set up in ${SECONDS}s)"

# counters of both devices, summed, for the ones that show recovery
counters() {
	local c
	for c in retransmits duplicate_request out_of_seq_request rcvd_seq_err \
		 completer_retry_err retry_exceeded_err rcvd_dropped; do
		echo "$c=$(( $(cat /sys/class/infiniband/rxe0/ports/1/hw_counters/$c 2>/dev/null || echo 0) +
			     $(cat /sys/class/infiniband/rxe1/ports/1/hw_counters/$c 2>/dev/null || echo 0) ))"
	done | tr '\n' ' '
}

# what one run added to the counters that show recovery: "name +N ..."
counters_delta() {
	local a b name
	declare -A was
	for a in $1; do was[${a%%=*}]=${a#*=}; done
	for b in $2; do
		name=${b%%=*}
		[ "${b#*=}" = "${was[$name]:-0}" ] ||
			printf '%s +%s ' "$name" $(( ${b#*=} - ${was[$name]:-0} ))
	done
}

fails=0
declare -A clean
table=()
failed=()	# one line per failed run, repeated at the very end
for c in "${CONDS[@]}"; do
	read -r cond netem <<<"$c"
	[ -z "${NETEM_CONDS:-}" ] || [[ " $NETEM_CONDS " == *" $cond "* ]] || continue
	echo "=== $cond${netem:+: netem $netem} (at ${SECONDS}s)"
	for end in "ns1 veth0" "ns2 veth1"; do
		read -r ns dev <<<"$end"
		tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null
		if [ "$netem" != - ]; then
			# shellcheck disable=SC2086
			tc -n "$ns" qdisc add dev "$dev" root netem $netem || die "tc netem $netem on $dev"
		fi
	done
	tc -n ns1 qdisc show dev veth0
	before=$(counters)
	for t in "${TOOLS[@]}"; do
		read -r label tool args <<<"$t"
		[ -z "${NETEM_TOOLS:-}" ] || [[ " $NETEM_TOOLS " == *" $label "* ]] || continue
		args=${args//G/$g0}
		ts=$(date +%s)
		run_before=$(counters)
		# server on rxe1 in ns2, client on rxe0 in ns1
		# shellcheck disable=SC2086
		if TOOL_SERVER_ARGS="-d rxe1" TOOL_CLIENT_ARGS="-d rxe0" \
			tool_run "$cond-$label" ns2 ns1 10.0.0.2 "$tool" $args; then
			val=$(awk -v l="$cond-$label" '$1 == "PASS" && $2 == l { print $3, $4 }' "$TOOLS_WORK/results" | tail -n 1)
		else
			val="FAILED -"
			fails=$((fails + 1))
			failed+=("$cond-$label: $(grep -m 1 "^FAIL $cond-$label " "$TOOLS_WORK/results" | cut -d' ' -f3-) $(grep -h -m 2 -iE 'error|status|fail' "$TOOLS_WORK/$cond-$label.client" "$TOOLS_WORK/$cond-$label.server" 2>/dev/null | tr -s ' \n' ' ')")
			failed+=("    counters now: $(counters)")
		fi
		echo "    $cond $label: $val ($(( $(date +%s) - ts )) s) $(counters_delta "$run_before" "$(counters)")"
		read -r v unit <<<"$val"
		[ "$cond" = clean ] && clean[$label]=$v
		pct=-
		if [ -n "${clean[$label]:-}" ] && [ "$v" != FAILED ]; then
			pct=$(awk -v a="$v" -v b="${clean[$label]}" 'BEGIN { if (b > 0) printf "%.0f%%", 100 * a / b; else print "-" }')
		fi
		table+=("$cond $label $v $unit $pct")
	done
	echo "counters during $cond: before: $before"
	echo "                       after:  $(counters)"
done

echo
echo "=== $stack: throughput under netem (pingpong Mbit/s, perftest MB/s average)"
{
	echo "condition tool value unit %-of-clean"
	printf '%s\n' "${table[@]}"
} | column -t

for end in "ns1 veth0" "ns2 veth1"; do
	read -r ns dev <<<"$end"
	tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null
done
t0=$SECONDS
netem_cleanup
rm -rf "$TOOLS_WORK"
echo "cleanup took $((SECONDS - t0))s; scenario ${SECONDS}s"
if [ "$fails" != 0 ]; then
	# last, where a CI summary that keeps only the tail shows it
	echo "=== failed runs"
	printf '%s\n' "${failed[@]}"
	die "$fails run(s) failed"
fi
echo "datapath-netem: all runs passed"
