#!/bin/bash
# cost: 90 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# mlx-lite on simulated ConnectX functions (mlx_lite_fwsim), our stack:
#  - "rdma link add NAME type mlx_lite_sim netdev IF" makes a function
#    that mlx_lite binds to and registers as NAME; "rdma dev", "rdma link"
#    and sysfs show the firmware version of the model's profile, the node
#    GUID from the netdev's MAC, the port state of the netdev; RoCE GIDs
#    follow the netdev's addresses, and the HCA's RoCE address table
#    (SET_ROCE_ADDRESS; the model's fnN/gids) follows ib_core's table,
#    emptied at unregistration; sysfs board_id is the model's PSID
#    (QUERY_ADAPTER); in exclusive netns mode "rdma dev set" moves a
#    device and it returns to init_net when its namespace is deleted;
#    the PCI driver is registered with the ConnectX-4 Lx..7 Ethernet IDs; no uverbs char device (kernel verbs
#    only); a second function on one netdev is refused
#  - the model's command trace (debugfs) shows the bring-up
#  - removal by "rdma link delete", by deleting the netdev, by rmmod
#    mlx_lite (the function stays and is bound again by the next insmod)
#    and by rmmod mlx_lite_fwsim
#  - faults (debugfs inject_next, fnN/inject): a failing bring-up command
#    is a clean refusal; bad requests are refused without a log line; a
#    fatal health syndrome unregisters the device (the driver logs the
#    IB_EVENT_DEVICE_FATAL it dispatches) and the function is reset and
#    removed; port state follows the firmware's PORT_CHANGE events
#  - MLXL_CYCLES add/delete cycles (3 in make check, 100 in check-full);
#    check-full: every profile (cx4lx, cx5, cx6dx, cx7) boots (the
#    module's profile parameter, written between functions); the host
#    tests (mlxl_fwsim_test) boot every profile in make check
#  - mlx_lite_objtest makes and destroys every kernel verbs object on mlxl0
#    (PD, DMA and fast-reg MRs, CQ (resized up and down), SRQ (limit armed), RC/UD QPs through their
#    states, AH); the GSI QP is the MAD layer's QP1 (the device has a data
#    path), a second one is refused by the driver and the model ends with the bring-up's objects only, no
#    refusal (illegal QP transitions never reach it), RC INIT->RTR->RTS
#    included (its source GID is in the firmware's table); MLXL_RC_CONNECT=0
#    leaves that step out
#  - asynchronous object events the model raises (fnN/inject async=T:N)
#    reach the event handlers of a CQ, SRQ and QP mlx_lite_objtest hold=1
#    keeps, as ib_core's event types; unknown and destroyed numbers are
#    dropped with a log line
# Every function's end is judged by the model (debugfs totals): no
# firmware page, object or DMA buffer left, no command refused.
. "$REPO/tools/testing/vm/lib.sh"

ML=$MODDIR/drivers/infiniband/hw/mlx-lite
DBG=/sys/kernel/debug/mlx_lite_fwsim
CYCLES=${MLXL_CYCLES:-$([ "${CHECK_TIER:-check}" = full ] && echo 100 || echo 3)}
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cleanup() {
	ip netns del ns1 2>/dev/null
	rdma system set netns shared 2>/dev/null
	rmmod mlx_lite_fwsim 2>/dev/null
	rmmod mlx_lite 2>/dev/null
	ip link del veth0 2>/dev/null
}
trap cleanup EXIT

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds
wait_for() {
	local n=$(($1 * 5))
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		sleep 0.2
	done
}

no_dev() { ! rdma dev show "$1" >/dev/null 2>&1; }
has_dev() { rdma dev show "$1" >/dev/null 2>&1; }

# the EUI-64 node GUID of a MAC, as sysfs prints it
guid_of_mac() {
	local -a b
	IFS=: read -r -a b <<<"$1"
	printf '%02x%s:%sff:fe%s:%s%s\n' $((0x${b[0]} ^ 2)) "${b[1]}" "${b[2]}" \
		"${b[3]}" "${b[4]}" "${b[5]}"
}

# totals_ok: every ended function ended clean, and as many ended as began
# (LABEL for messages)
totals_ok() {
	local t created destroyed
	t=$(cat "$DBG/totals") || { fail "$1: no $DBG/totals"; return; }
	created=$(sed -n 's/^created //p' <<<"$t")
	destroyed=$(sed -n 's/^destroyed //p' <<<"$t")
	for k in pages_left objects_left dma_left refusals; do
		[ "$(sed -n "s/^$k //p" <<<"$t")" = 0 ] || fail "$1: model totals: $k not 0: $(tr '\n' ' ' <<<"$t")"
	done
	[ "$created" = "$destroyed" ] || fail "$1: $created functions created, $destroyed ended"
}

load_sim() {
	insmod "$ML/mlx_lite_fwsim.ko" "$@" || die "insmod mlx_lite_fwsim $*"
}

stack_load ours || die "load our stack"
insmod "$ML/mlx_lite.ko" || die "insmod mlx_lite"
load_sim

# the PCI front: registered, and its ID table is the Ethernet PFs and VFs
# of ConnectX-4 Lx .. ConnectX-7 (no card in the VM: nothing binds)
[ -d /sys/bus/pci/drivers/mlx_lite ] || fail "no PCI driver mlx_lite"
pci_ids=$(modinfo -F alias "$ML/mlx_lite.ko" |
	sed -n 's/^pci:v000015B3d0000\([0-9A-F]\{4\}\)sv\*sd\*bc\*sc\*i\*$/\1/p' | sort | tr '\n' ' ')
[ "$pci_ids" = "1015 1016 1017 1018 1019 101A 101B 101C 101D 101E 101F 1021 " ] ||
	fail "mlx_lite PCI IDs: '$pci_ids'"
modinfo -F parm "$ML/mlx_lite.ko" | grep -q "^netdev:" || fail "no netdev parameter"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
ip -b - <<-EOF || die "veth pair"
	link add veth0 type veth peer name veth1
	link set veth0 up
	link set veth1 up
EOF

# ---- two functions, what users see
rdma link add mlxl0 type mlx_lite_sim netdev veth0 || die "rdma link add mlxl0"
rdma link add mlxl1 type mlx_lite_sim netdev veth1 || die "rdma link add mlxl1"
devs=$(rdma dev)
echo "$devs"
for d in mlxl0 mlxl1; do
	grep -q "^[0-9]*: $d: node_type ca fw 22.36.1010 " <<<"$devs" ||
		fail "rdma dev: no '$d: node_type ca fw 22.36.1010' (cx6dx firmware)"
	[ "$(cat /sys/class/infiniband/$d/fw_ver)" = 22.36.1010 ] ||
		fail "$d sysfs fw_ver: $(cat /sys/class/infiniband/$d/fw_ver)"
done
# board id (PSID) from QUERY_ADAPTER, per profile
for d in mlxl0 mlxl1; do
	[ "$(cat /sys/class/infiniband/$d/board_id)" = MT_0000000359 ] ||
		fail "$d board_id '$(cat /sys/class/infiniband/$d/board_id)', want MT_0000000359 (cx6dx)"
done
mac=$(cat /sys/class/net/veth0/address)
[ "$(cat /sys/class/infiniband/mlxl0/node_guid)" = "$(guid_of_mac "$mac")" ] ||
	fail "mlxl0 node_guid $(cat /sys/class/infiniband/mlxl0/node_guid), MAC $mac wants $(guid_of_mac "$mac")"
links=$(rdma link)
echo "$links"
grep -q "^link mlxl0/1 state ACTIVE physical_state LINK_UP netdev veth0" <<<"$links" ||
	fail "rdma link: mlxl0/1 not ACTIVE on veth0"
# the port state comes from the firmware's PORT_CHANGE events
link_is() { grep -q "^link $1/1 state $2 " <<<"$(rdma link)"; }
ip link set veth0 down
wait_for 5 link_is mlxl0 DOWN || fail "mlxl0/1 not DOWN with veth0 down"
ip link set veth0 up
wait_for 5 link_is mlxl0 ACTIVE || fail "mlxl0/1 not ACTIVE with veth0 up again"
for f in /sys/class/infiniband_verbs/uverbs*/ibdev; do
	[ -e "$f" ] || continue
	case "$(cat "$f")" in mlxl*) fail "a uverbs char device for $(cat "$f") (kernel verbs only)" ;; esac
done
rdma link add mlxl2 type mlx_lite_sim netdev veth0 2>/dev/null &&
	fail "a second function on veth0 was accepted"
has_dev mlxl2 && fail "mlxl2 exists"

# RoCE GIDs follow the netdev's addresses
gid_has() { grep -qx "$2" /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null; }
gid_lacks() { ! gid_has "$@"; }
v4gid=0000:0000:0000:0000:0000:ffff:0a63:0101
ip addr add 10.99.1.1/24 dev veth0 || die "address on veth0"
wait_for 10 gid_has mlxl0 "$v4gid" || fail "no GID $v4gid on mlxl0 after adding 10.99.1.1"
ip addr del 10.99.1.1/24 dev veth0
wait_for 10 gid_lacks mlxl0 "$v4gid" || fail "GID $v4gid still on mlxl0 after removing 10.99.1.1"

# ... and the HCA's RoCE address table (SET_ROCE_ADDRESS, the model's
# fnN/gids) holds exactly ib_core's entries: index, GID, RoCE version
zero_gid=0000:0000:0000:0000:0000:0000:0000:0000
core_gids() {
	local p=/sys/class/infiniband/$1/ports/1
	# one grep per table (hundreds of files): "PATH/INDEX:VALUE"
	{
		grep -H . "$p"/gids/* | sed 's|^.*/\([0-9]*\):|gid \1:|'
		grep -H . "$p"/gid_attrs/types/* 2>/dev/null | sed 's|^.*/\([0-9]*\):|type \1:|'
	} | awk -F'[ :]' -v z="$zero_gid" '
		$1 == "gid" { i = $2; sub(/^gid [0-9]+:/, ""); if ($0 != z) g[i] = $0 }
		$1 == "type" { i = $2; t[i] = ($0 ~ /RoCE v2$/) ? "v2" : "v1" }
		END { for (i in g) print i, g[i], t[i] }' | sort -n
}
model_gids() { awk '{ print $1, $2, $3 }' "$DBG/$1/gids" | sort -n; }
gids_match() { [ "$(core_gids "$1")" = "$(model_gids "$2")" ] && [ -n "$(model_gids "$2")" ]; }
gids_diff() { diff <(core_gids "$1") <(model_gids "$2") | tr '\n' ' '; }
v6gid=fd00:0099:0000:0000:0000:0000:0000:0001
wait_for 10 gids_match mlxl0 fn0 || fail "mlxl0 at start: core vs model GIDs differ: $(gids_diff mlxl0 fn0)"
ip addr add 10.99.1.1/24 dev veth0 || die "IPv4 address on veth0"
ip addr add fd00:99::1/64 dev veth0 nodad || die "IPv6 address on veth0"
wait_for 10 gid_has mlxl0 "$v4gid" || fail "no GID $v4gid on mlxl0"
wait_for 10 gid_has mlxl0 "$v6gid" || fail "no GID $v6gid on mlxl0"
wait_for 10 gids_match mlxl0 fn0 || fail "mlxl0 with addresses: core vs model GIDs differ: $(gids_diff mlxl0 fn0)"
cat "$DBG/fn0/gids"
grep -q "^[0-9]* $v4gid v2 ipv4 $mac vlan none$" "$DBG/fn0/gids" ||
	fail "model: no RoCE v2 IPv4 entry $v4gid from $mac: $(cat "$DBG/fn0/gids")"
grep -q "^[0-9]* $v6gid v2 ipv6 $mac vlan none$" "$DBG/fn0/gids" ||
	fail "model: no RoCE v2 IPv6 entry $v6gid from $mac: $(cat "$DBG/fn0/gids")"
ip addr del 10.99.1.1/24 dev veth0
ip addr del fd00:99::1/64 dev veth0
wait_for 10 gid_lacks mlxl0 "$v4gid" || fail "GID $v4gid still on mlxl0"
wait_for 10 gid_lacks mlxl0 "$v6gid" || fail "GID $v6gid still on mlxl0"
wait_for 10 gids_match mlxl0 fn0 || fail "mlxl0 after removal: core vs model GIDs differ: $(gids_diff mlxl0 fn0)"
grep -q " \($v4gid\|$v6gid\) " "$DBG/fn0/gids" && fail "model still holds a removed address: $(cat "$DBG/fn0/gids")"

# the model saw the bring-up in order, every command answered OK
state=$(cat "$DBG"/fn0/state)
grep -q "^phase initialized$" <<<"$state" ||
	fail "function 0 not initialized: $(tr '\n' ' ' <<<"$state")"
trace=$(cat "$DBG"/fn0/trace)
ops=$(awk '!/^#/ { print $2 }' <<<"$trace" | tr '\n' ' ')
case "$ops" in
*0x0104*0x010a*0x010b*0x0107*0x0108*0x0109*0x0107*0x0108*0x0102*0x0101*0x0802*0x0301*) ;;
*) fail "bring-up order in the trace: $ops" ;;
esac
awk '!/^#/ && ($6 != "0x00" || $7 != "0x00") { bad = 1 } END { exit bad }' <<<"$trace" ||
	fail "a bring-up command failed: $(awk '!/^#/ && ($6 != "0x00" || $7 != "0x00")' <<<"$trace")"

# ---- namespace moves: in exclusive mode the device moves (its netdev
# stays where it is, and so do its GIDs); it returns to init_net when the
# namespace goes; shared mode refuses the move
in_ns1() { ip netns exec ns1 rdma dev show mlxl0 >/dev/null 2>&1; }
set_shared() { rdma system set netns shared 2>/dev/null; }
rdma system set netns exclusive || fail "rdma system set netns exclusive"
ip netns add ns1 || die "ip netns add ns1"
rdma dev set mlxl0 netns ns1 || fail "rdma dev set mlxl0 netns ns1"
in_ns1 || fail "mlxl0 not in ns1 after the move: $(ip netns exec ns1 rdma dev)"
has_dev mlxl0 && fail "mlxl0 still visible in init_net after the move"
has_dev mlxl1 || fail "mlxl1 gone from init_net"
[ "$(ip netns exec ns1 cat /sys/class/infiniband/mlxl0/board_id)" = MT_0000000359 ] ||
	fail "ns1 sysfs: mlxl0 board_id '$(ip netns exec ns1 cat /sys/class/infiniband/mlxl0/board_id)'"
grep -q "^0 fe80:" "$DBG/fn0/gids" || fail "model lost the default GID in the move: $(cat "$DBG/fn0/gids")"
ip netns del ns1
wait_for 20 has_dev mlxl0 || fail "mlxl0 not back in init_net after ns1 was deleted"
wait_for 20 set_shared || fail "rdma system set netns shared"
rdma system | grep -q "netns shared" || fail "not back in shared mode: $(rdma system)"
ip netns add ns1 || die "ip netns add ns1 (shared)"
rdma dev set mlxl0 netns ns1 2>/dev/null && fail "shared mode: mlxl0 moved to ns1"
has_dev mlxl0 || fail "mlxl0 gone after a refused move"
ip netns del ns1
wait_for 10 gids_match mlxl0 fn0 || fail "mlxl0 after the moves: core vs model GIDs differ: $(gids_diff mlxl0 fn0)"

echo "mlx-lite: two functions checked after $SECONDS s"

# ---- kernel verbs objects by firmware command (mlx_lite_objtest): every
# object made and destroyed through ib_core, illegal QP transitions refused
# before the firmware sees them (the model's refusal count stays 0), and
# the model holds exactly the bring-up's objects afterwards
st_field() { sed -n "s/^$2 //p" "$DBG/$1/state"; }
objs0=$(st_field fn0 objects_alive)
dma0=$(st_field fn0 dma_buffers)
last_seq() { awk '!/^#/ { n = $1 } END { print n + 0 }' "$DBG"/fn0/trace; }
pos0=$(last_seq)
if insmod "$ML/mlx_lite_objtest.ko" dev=mlxl0 rc_connect="${MLXL_RC_CONNECT:-1}"; then
	rmmod mlx_lite_objtest || fail "rmmod mlx_lite_objtest"
else
	fail "mlx_lite_objtest: $(dmesg | grep 'mlx_lite_objtest: .*FAIL' | tr '\n' ' ')"
fi
dmesg | grep "mlx_lite_objtest: " | tail -n 80
dmesg | grep -q "mlx_lite_objtest: PASS" || fail "mlx_lite_objtest did not pass"
[ "$(st_field fn0 objects_alive)" = "$objs0" ] ||
	fail "model objects after mlx_lite_objtest: $(st_field fn0 objects_alive), before $objs0"
[ "$(st_field fn0 dma_buffers)" = "$dma0" ] ||
	fail "DMA buffers after mlx_lite_objtest: $(st_field fn0 dma_buffers), before $dma0"
[ "$(st_field fn0 refusals)" = 0 ] ||
	fail "the model refused $(st_field fn0 refusals) command(s) during mlx_lite_objtest"
ops=$(awk '!/^#/ { print $2 }' "$DBG"/fn0/trace | sort -u | tr '\n' ' ')
# (the trace keeps the last 128 commands: the QPs' and the destroys)
for op in 0x0500 0x0501 0x0502 0x0503 0x0504 0x0505 0x0507 0x050a 0x050b \
	0x050e 0x0701 0x0401 0x0202 0x0801; do
	grep -qw "$op" <<<"$ops" || fail "mlx_lite_objtest: no command $op in the model's trace"
done
[ "$(last_seq)" -gt "$pos0" ] ||
	fail "mlx_lite_objtest sent no command"
# the device has a data path: the MAD layer made its QP1 (the function's
# one GSI QP) silently, so mlx_lite_objtest's own GSI QP is refused
dmesg | grep -E "mlxl[0-9].*(MAD|mad)" && fail "the MAD layer spoke about an mlx-lite device"
dmesg | grep -q "mlx_lite_objtest: .*second GSI QP refused (QP1 is the MAD layer's)" ||
	fail "mlx_lite_objtest: no MAD layer QP1 on mlxl0"
echo "mlx-lite: verbs objects checked after $SECONDS s"

# ---- asynchronous events (mlx_lite_objtest hold=1 keeps a CQ, an SRQ and
# an RC QP on it with event handlers; the model raises object events by
# their firmware numbers): each reaches the right handler with ib_core's
# event type, an unknown number is counted and dropped, and a destroyed
# object's number is unknown
P=/sys/module/mlx_lite_objtest/parameters
par() { cat "$P/$1"; }
dmesg_has() { dmesg | grep -qF "$1"; }
if insmod "$ML/mlx_lite_objtest.ko" dev=mlxl0 hold=1; then
	cqn=$(par cqn) qpn=$(par qpn) srqn=$(par srqn)
	for ev in "0x04:$cqn" "0x05:$qpn" "0x02:$qpn" "0x13:$qpn" "0x14:$srqn" \
		"0x12:$srqn" "0x02:0xfffff0"; do
		echo "async=$ev" >"$DBG"/fn0/inject || fail "async=$ev refused"
	done
	echo "async=0x00:$cqn" >"$DBG"/fn0/inject 2>/dev/null &&
		fail "inject accepted a completion event"
	# QP_FATAL 1, COMM_EST 4, QP_LAST_WQE_REACHED 16; SRQ_ERR 14, SRQ_LIMIT 15
	all_events() {
		[ "$(par cq_events)" = 1 ] && [ "$(par qp_events)" = $(((1 << 1) | (1 << 4) | (1 << 16))) ] &&
			[ "$(par srq_events)" = $(((1 << 14) | (1 << 15))) ]
	}
	wait_for 10 all_events ||
		fail "async events: cq $(par cq_events) qp $(par qp_events) srq $(par srq_events)"
	[ "$(par bad_events)" = 0 ] || fail "async events: $(par bad_events) with a wrong object or type"
	wait_for 5 dmesg_has "async event 0x02 for unknown object 0xfffff0 dropped" ||
		fail "async event for an unknown QP number not reported dropped"
	rmmod mlx_lite_objtest || fail "rmmod mlx_lite_objtest (hold)"
	dmesg | grep -q "mlx_lite_objtest: hold released: .*PASS" || fail "mlx_lite_objtest hold: teardown failed"
	echo "async=0x04:$cqn" >"$DBG"/fn0/inject || fail "async=0x04:$cqn refused"
	wait_for 5 dmesg_has "async event 0x04 for unknown object $(printf 0x%x "$cqn") dropped" ||
		fail "async event for a destroyed CQ not dropped"
else
	fail "mlx_lite_objtest hold=1: $(dmesg | grep 'mlx_lite_objtest: .*FAIL' | tr '\n' ' ')"
fi
[ "$(st_field fn0 objects_alive)" = "$objs0" ] ||
	fail "model objects after the async events: $(st_field fn0 objects_alive), before $objs0"
echo "mlx-lite: async events checked after $SECONDS s"

# ---- removals
rdma link delete mlxl0 || fail "rdma link delete mlxl0"
no_dev mlxl0 || fail "mlxl0 still there after delete"
wait_for 10 test ! -e "$DBG"/fn0 || fail "function 0 not removed after rdma link delete"

echo "rmmod mlx_lite with mlxl1 live"
# unregistration clears every entry (del_gid) before the HCA goes down:
# as many successful SET_ROCE_ADDRESS after this point as entries now
ngids=$(wc -l <"$DBG/fn1/gids")
[ "$ngids" -gt 0 ] || fail "mlxl1: no entry in the model's table"
seq0=$(awk '!/^#/ { s = $1 } END { print s }' "$DBG/fn1/trace")
rmmod mlx_lite || fail "rmmod mlx_lite"
[ -s "$DBG/fn1/gids" ] && fail "mlxl1 gone, the model still holds GIDs: $(cat "$DBG/fn1/gids")"
cleared=$(awk -v s="$seq0" '!/^#/ && $1 > s && $2 == "0x0761" && $7 == "0x00"' "$DBG/fn1/trace" | wc -l)
[ "$cleared" = "$ngids" ] || fail "mlxl1 teardown: $cleared SET_ROCE_ADDRESS for $ngids entries"
awk -v s="$seq0" '!/^#/ && $1 > s && $2 == "0x0761" { c = 1 } !/^#/ && $1 > s && $2 == "0x0103" && !c { bad = 1 } END { exit bad }' "$DBG/fn1/trace" ||
	fail "mlxl1: TEARDOWN_HCA before the GID entries were cleared"
no_dev mlxl1 || fail "mlxl1 still there without the driver"
[ -e "$DBG"/fn1 ] || fail "function 1 went with the driver"
insmod "$ML/mlx_lite.ko" || die "insmod mlx_lite again"
has_dev mlxl1 || fail "mlxl1 not back after insmod mlx_lite"

ip link del veth0 || fail "ip link del veth0"
wait_for 20 no_dev mlxl1 || fail "mlxl1 still there after its netdev went"
wait_for 10 test ! -e "$DBG"/fn1 || fail "function 1 not removed with its netdev"
totals_ok "after the removals"
echo "mlx-lite: removals checked after $SECONDS s"

# ---- every profile (check-full); cycles
ip link add veth0 type veth peer name veth1 && ip link set veth0 up || die "veth again"
if [ "${CHECK_TIER:-check}" = full ]; then
	for p in cx4lx:14.32.1010 cx5:16.35.2000 cx7:28.39.1002 cx6dx:22.36.1010; do
		echo "${p%%:*}" >/sys/module/mlx_lite_fwsim/parameters/profile || fail "set profile ${p%%:*}"
		rdma link add mlxl0 type mlx_lite_sim netdev veth0 || { fail "profile ${p%%:*}: rdma link add"; continue; }
		[ "$(cat /sys/class/infiniband/mlxl0/fw_ver)" = "${p#*:}" ] ||
			fail "profile ${p%%:*}: fw_ver $(cat /sys/class/infiniband/mlxl0/fw_ver), want ${p#*:}"
		grep -qx 'MT_[0-9]\{10\}' /sys/class/infiniband/mlxl0/board_id ||
			fail "profile ${p%%:*}: board_id '$(cat /sys/class/infiniband/mlxl0/board_id)'"
		rdma link delete mlxl0 || fail "profile ${p%%:*}: rdma link delete"
	done
	echo bogus >/sys/module/mlx_lite_fwsim/parameters/profile
	rdma link add mlxl0 type mlx_lite_sim netdev veth0 2>/dev/null && fail "a function of profile 'bogus' was made"
	echo cx6dx >/sys/module/mlx_lite_fwsim/parameters/profile
	echo "mlx-lite: profiles checked after $SECONDS s"
fi
for ((i = 0; i < CYCLES; i++)); do
	rdma link add mlxl0 type mlx_lite_sim netdev veth0 || { fail "cycle $i: rdma link add"; break; }
	rdma link delete mlxl0 || { fail "cycle $i: rdma link delete"; break; }
done
wait_for 20 test -z "$(ls -d "$DBG"/fn* 2>/dev/null)" || fail "functions left after the cycles"
totals_ok "after $CYCLES cycles"
echo "mlx-lite: $CYCLES cycles done after $SECONDS s"

# ---- faults injected through debugfs, fatal health, port events
ip link set veth1 up
fn_of() { dirname "$(grep -l "^netdev $1\$" "$DBG"/fn*/state | head -n 1)"; }
stat_of() { sed -n "s/^$2 //p" "$1"; }
dm0=$(dmesg | wc -l)
echo "opcode=0x109 status=0x3 syndrome=0x1234" >"$DBG"/inject_next ||
	fail "inject_next refused a valid request"
rdma link add mlxl0 type mlx_lite_sim netdev veth0 2>/dev/null &&
	fail "rdma link add succeeded with SET_HCA_CAP failing"
no_dev mlxl0 || fail "mlxl0 exists after a failed bring-up"
dmesg | tail -n +$((dm0 + 1)) | grep -q "HCA bring-up failed: .*status 0x3 syndrome 0x1234" ||
	fail "no readable bring-up error in dmesg"
wait_for 10 test -z "$(ls -d "$DBG"/fn* 2>/dev/null)" || fail "function left after a failed bring-up"
totals_ok "after a failed bring-up"
for bad in bogus opcode=0x104 health=0 "opcode=0x104 status=1 count=0" delay_ms=-1 \
	"opcode=0x104  status=1"; do
	dm0=$(dmesg | wc -l)
	echo "$bad" >"$DBG"/inject_next 2>/dev/null && fail "inject_next accepted '$bad'"
	[ "$(dmesg | wc -l)" = "$dm0" ] || fail "'$bad' wrote to the kernel log"
done

rdma link add mlxl0 type mlx_lite_sim netdev veth0 || fail "rdma link add for the port events"
fn=$(fn_of veth0)
wait_for 5 link_is mlxl0 ACTIVE || fail "mlxl0/1 not ACTIVE"
irqs=$(stat_of "$fn"/state irqs)
ip link set veth1 down		# veth0 loses its carrier
wait_for 5 link_is mlxl0 DOWN || fail "mlxl0/1 not DOWN without carrier"
grep -qx "port down" "$fn"/state || fail "the model's port is not down"
[ "$(stat_of "$fn"/state irqs)" -gt "$irqs" ] || fail "no interrupt for the port change"
ip link set veth1 up
wait_for 5 link_is mlxl0 ACTIVE || fail "mlxl0/1 not ACTIVE with carrier back"
# page requests; the first one's MANAGE_PAGES completes 300 ms late
p0=$(stat_of "$fn"/state pages_held)
echo "delay_ms=300" >"$fn"/inject || fail "delay_ms=300 refused"
echo "page_req=64" >"$fn"/inject || fail "page_req=64 refused"
wait_for 5 test "$(stat_of "$fn"/state pages_held)" = $((p0 + 64)) ||
	fail "pages held $(stat_of "$fn"/state pages_held) after a request for 64 more than $p0"
echo "page_req=-32" >"$fn"/inject || fail "page_req=-32 refused"
wait_for 5 test "$(stat_of "$fn"/state pages_held)" = $((p0 + 32)) ||
	fail "pages held $(stat_of "$fn"/state pages_held) after 32 were offered back"

# the firmware dies while a page request's command waits
dm0=$(dmesg | wc -l)
echo lose >"$fn"/inject || fail "lose refused"
echo "page_req=8" >"$fn"/inject || fail "page_req=8 refused"
wait_for 5 grep -qx "held 1" "$fn"/state || fail "the page request's command is not in flight"
echo "health=0x8" >"$fn"/inject || fail "health=0x8 refused"
wait_for 20 no_dev mlxl0 || fail "mlxl0 still there after a fatal health syndrome"
dmesg | tail -n +$((dm0 + 1)) | grep -q "mlxl0: device fatal error (health syndrome 0x8)" ||
	fail "no IB_EVENT_DEVICE_FATAL line from the driver"
wait_for 10 test ! -e "$fn" || fail "function not removed after its fatal error"
totals_ok "after a fatal error"
[ "$(stat_of "$DBG"/totals resets)" -ge 1 ] || fail "the dead function was not reset"
echo "mlx-lite: faults, health and port events checked after $SECONDS s"

# ---- unload with a live function
rdma link add mlxl0 type mlx_lite_sim netdev veth0 || fail "rdma link add before rmmod"
rmmod mlx_lite_fwsim || fail "rmmod mlx_lite_fwsim with a live function"
no_dev mlxl0 || fail "mlxl0 still there without its function"
rmmod mlx_lite || fail "rmmod mlx_lite"
dmesg | grep "mlx_lite_fwsim: function .* did not release" && fail "the model found something not released"
ip link del veth0
trap - EXIT
stack_unload || fail "stack unload"
[ "$fails" = 0 ] || exit 1
echo "mlx-lite: all checks passed ($CYCLES cycles)"
