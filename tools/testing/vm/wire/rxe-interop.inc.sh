# shellcheck shell=bash
# Wire pair "rxe-interop" (issue 5, acceptance 4), sourced by the guest
# scripts rxe-interop-{a,b}.sh (A: our stack, B: upstream's) and
# rxe-interop-upstream-{a,b}.sh (upstream's on both: proves the scripts).
# Set before sourcing: SIDE (A or B) and SIDE_STACK (ours or upstream).
#
# Each guest puts rxe0 on its wire NIC (A 10.99.0.1, B 10.99.0.2) and both
# run the same list of tool runs in the same order, each on a TCP port of
# its own (the tools' out-of-band channel: the only synchronisation): every
# tool once with the server in A and the client in B, once the other way
# round.  The client retries while the server is not up yet (the other VM
# may still be booting).  Every run must pass on both sides.
set -u
# shellcheck source=SCRIPTDIR/../lib.sh
. "$REPO/tools/testing/vm/lib.sh"
. "$REPO/tools/testing/vm/rdma-tools.sh"

case "$SIDE" in
A) ADDR=10.99.0.1 MAC=52:54:00:00:00:01 PEER=10.99.0.2 ;;
B) ADDR=10.99.0.2 MAC=52:54:00:00:00:02 PEER=10.99.0.1 ;;
*) die "SIDE must be A or B" ;;
esac

RUNS=(
	"rc-pingpong ibv_rc_pingpong -g G -n 10 -c"
	"ud-pingpong ibv_ud_pingpong -g G -n 10 -s 1000 -c"
	"write-bw ib_write_bw -x G -n 10 -F"
	"read-bw ib_read_bw -x G -n 10 -F"
	"atomic-bw ib_atomic_bw -x G -n 10 -F"
)

wire_eth0_up "$ADDR/24" "$MAC"
stack_load "$SIDE_STACK" || die "load $SIDE_STACK"
rdma link add rxe0 type rxe netdev eth0 || die "rdma link add rxe0"
g=$(gid_index_wait rxe0 4)
echo "$SIDE: $SIDE_STACK stack, rxe0 on eth0 ($ADDR), IPv4 RoCE v2 GID index $g"

fails=0
first=1
for r in "${RUNS[@]}"; do
	read -r label tool args <<<"$r"
	args=${args//G/$g}
	for server in A B; do
		if [ "$server" = "$SIDE" ]; then role=server; else role=client; fi
		# the first run waits for the other VM to boot
		if [ "$first" = 1 ]; then t=600; else t=240; fi
		first=0
		# shellcheck disable=SC2086
		TOOL_ROLE=$role TOOL_REMOTE=1 TOOL_TIMEOUT=$t \
			tool_run "$label-server-$server" "" "" "$PEER" "$tool" -d rxe0 $args ||
			fails=$((fails + 1))
	done
done

echo
echo "=== $SIDE ($SIDE_STACK): results (server-A: server in A; pingpong Mbit/s, bw MB/s)"
column -t "$TOOLS_WORK/results"
rdma statistic show link rxe0/1 2>&1 | tr -s ' ' | fold -s -w 120
rdma link delete rxe0 || die "rdma link delete rxe0"
stack_unload || die "unload $SIDE_STACK"
rm -rf "$TOOLS_WORK"
[ "$fails" = 0 ] || die "$fails run(s) failed in $SIDE"
echo "$SIDE: ok"
