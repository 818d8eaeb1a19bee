#!/bin/bash
# cost: 155 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Stock data-path tools (issue 5, acceptance 1), on upstream's modules, then
# ours, in this VM: ibv_rc/uc/ud/srq_pingpong (with --chk) over the IPv4 and
# the IPv6 RoCE v2 GID, and perftest ib_send/write/read/atomic_bw and _lat
# (RC) plus ib_send_bw -c UD over the IPv4 GID.  Server and client both on
# rxe0 (veth0, 10.0.0.1 and fd00::1): RoCE loopback.  A few iterations
# each: TCG is slow.
# Every tool must pass on ours.  On upstream a failure listed in
# UPSTREAM_KNOWN (documented in Documentation/dev-tools/datapath-tools.rst)
# is recorded, any other fails the scenario (the scenario itself would be
# wrong).  DP_STACKS (default ours; "upstream ours" in check-full) picks the stacks, DP_TOOLS
# (labels; default: a representative subset in make check, all in
# check-full) the tools.
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"

UPSTREAM_KNOWN=${UPSTREAM_KNOWN:-}

# label tool args... (G4/G6: the GID index of that family)
TOOLS=(
	"rc-pingpong-v4 ibv_rc_pingpong -g G4 -n 5 -c"
	"uc-pingpong-v4 ibv_uc_pingpong -g G4 -n 5 -c"
	"ud-pingpong-v4 ibv_ud_pingpong -g G4 -n 5 -s 1000 -c"
	"srq-pingpong-v4 ibv_srq_pingpong -g G4 -n 5 -q 2 -c"
	"rc-pingpong-v6 ibv_rc_pingpong -g G6 -n 5 -c"
	"uc-pingpong-v6 ibv_uc_pingpong -g G6 -n 5 -c"
	"ud-pingpong-v6 ibv_ud_pingpong -g G6 -n 5 -s 1000 -c"
	"srq-pingpong-v6 ibv_srq_pingpong -g G6 -n 5 -q 2 -c"
	"send-bw ib_send_bw -x G4 -n 5 -F"
	"send-lat ib_send_lat -x G4 -n 10 -F"
	"write-bw ib_write_bw -x G4 -n 5 -F"
	"write-lat ib_write_lat -x G4 -n 10 -F"
	"read-bw ib_read_bw -x G4 -n 5 -F"
	"read-lat ib_read_lat -x G4 -n 10 -F"
	"atomic-bw ib_atomic_bw -x G4 -n 5 -F"
	"atomic-lat ib_atomic_lat -x G4 -n 10 -F"
	"send-bw-ud ib_send_bw -c UD -s 512 -x G4 -n 5 -F"
)

# make check: the RC, UD and SRQ pingpongs (both address families) and a
# bandwidth run of SEND, READ and atomics; check-full: everything above
# (UC's data is checked by the data oracle in make check)
CHECK_SET="rc-pingpong-v4 ud-pingpong-v4 srq-pingpong-v6 send-bw read-bw atomic-bw"
[ -n "${DP_TOOLS:-}" ] || DP_TOOLS=$(by_tier "$CHECK_SET" "")

fails=0
for stack in ${DP_STACKS:-$(by_tier ours "upstream ours")}; do
	echo "=== $stack"
	stack_load "$stack" || die "load $stack"
	rxe0_up
	ip -6 addr add fd00::1/64 dev veth0 nodad || die "IPv6 address on veth0"
	g4=$(gid_index_wait rxe0 4)
	g6=$(gid_index_wait rxe0 6)
	echo "$stack: rxe0 RoCE v2 GIDs: IPv4 index $g4 ($(cat /sys/class/infiniband/rxe0/ports/1/gids/"$g4")), IPv6 index $g6 ($(cat /sys/class/infiniband/rxe0/ports/1/gids/"$g6"))"
	case "$(cat /sys/class/infiniband/rxe0/ports/1/gids/"$g6")" in
	fe80:*) die "$stack: no global IPv6 GID for fd00::1" ;;
	esac
	t0=$(date +%s)
	for t in "${TOOLS[@]}"; do
		read -r label tool args <<<"$t"
		[ -z "${DP_TOOLS:-}" ] || [[ " $DP_TOOLS " == *" $label "* ]] || continue
		args=${args//G4/$g4}
		args=${args//G6/$g6}
		ts=$(date +%s)
		# shellcheck disable=SC2086
		if tool_run "$stack-$label" "" "" 127.0.0.1 "$tool" -d rxe0 $args; then
			continue
		fi
		echo "    ($(( $(date +%s) - ts )) s)"
		if [ "$stack" = upstream ] && [[ " $UPSTREAM_KNOWN " == *" $label "* ]]; then
			echo "note: $label fails on upstream as documented; not counted"
			continue
		fi
		fails=$((fails + 1))
	done
	echo "$stack: tools took $(( $(date +%s) - t0 )) s"
	rdma statistic show link rxe0/1 2>&1 | tr -s ' ' | fold -s -w 120
	rxe0_down
	# no process may still hold the device
	stack_unload || die "unload $stack after the tools"
done

echo
echo "=== results (label: headline number; pingpong Mbit/s, bw MB/s average, lat usec typical)"
sort -k2 "$TOOLS_WORK/results" | column -t
rm -rf "$TOOLS_WORK"
[ "$fails" = 0 ] || die "$fails tool run(s) failed"
echo "datapath-tools: all tool runs passed"
