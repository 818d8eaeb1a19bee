#!/bin/bash
# cost: 90 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# mlx-lite on simulated ConnectX functions (mlx_lite_fwsim), our stack:
#  - "rdma link add NAME type mlx_lite_sim netdev IF" makes a function
#    that mlx_lite binds to and registers as NAME; "rdma dev", "rdma link"
#    and sysfs show the firmware version of the model's profile, the node
#    GUID from the netdev's MAC, the port state of the netdev; RoCE GIDs
#    follow the netdev's addresses; no uverbs char device (kernel verbs
#    only); a second function on one netdev is refused
#  - the model's command trace (debugfs) shows the bring-up
#  - removal by "rdma link delete", by deleting the netdev, by rmmod
#    mlx_lite (the function stays and is bound again by the next insmod)
#    and by rmmod mlx_lite_fwsim
#  - MLXL_CYCLES add/delete cycles (3 in make check, 100 in check-full);
#    check-full: every profile (cx4lx, cx5, cx6dx, cx7) boots (the
#    module's profile parameter, written between functions); the host
#    tests (mlxl_fwsim_test) boot every profile in make check
# Every function's end is judged by the model (debugfs totals): no
# firmware page, object or DMA buffer left, no command refused.
. "$REPO/tools/testing/vm/lib.sh"

ML=$MODDIR/drivers/infiniband/hw/mlx-lite
DBG=/sys/kernel/debug/mlx_lite_fwsim
CYCLES=${MLXL_CYCLES:-$([ "${CHECK_TIER:-check}" = full ] && echo 100 || echo 3)}
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cleanup() {
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
mac=$(cat /sys/class/net/veth0/address)
[ "$(cat /sys/class/infiniband/mlxl0/node_guid)" = "$(guid_of_mac "$mac")" ] ||
	fail "mlxl0 node_guid $(cat /sys/class/infiniband/mlxl0/node_guid), MAC $mac wants $(guid_of_mac "$mac")"
links=$(rdma link)
echo "$links"
grep -q "^link mlxl0/1 state ACTIVE physical_state LINK_UP netdev veth0" <<<"$links" ||
	fail "rdma link: mlxl0/1 not ACTIVE on veth0"
ip link set veth0 down
grep -q "^link mlxl0/1 state DOWN " <<<"$(rdma link)" || fail "mlxl0/1 not DOWN with veth0 down"
ip link set veth0 up
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

# the model saw the bring-up in order, every command answered OK
state=$(cat "$DBG"/fn0/state)
grep -q "^phase initialized$" <<<"$state" ||
	fail "function 0 not initialized: $(tr '\n' ' ' <<<"$state")"
trace=$(cat "$DBG"/fn0/trace)
ops=$(awk '!/^#/ { print $2 }' <<<"$trace" | tr '\n' ' ')
case "$ops" in
*0x0104*0x010a*0x010b*0x0107*0x0108*0x0109*0x0107*0x0108*0x0102*0x0802*0x0301*) ;;
*) fail "bring-up order in the trace: $ops" ;;
esac
awk '!/^#/ && ($6 != "0x00" || $7 != "0x00") { bad = 1 } END { exit bad }' <<<"$trace" ||
	fail "a bring-up command failed: $(awk '!/^#/ && ($6 != "0x00" || $7 != "0x00")' <<<"$trace")"

echo "mlx-lite: two functions checked after $SECONDS s"

# ---- removals
rdma link delete mlxl0 || fail "rdma link delete mlxl0"
no_dev mlxl0 || fail "mlxl0 still there after delete"
wait_for 10 test ! -e "$DBG"/fn0 || fail "function 0 not removed after rdma link delete"

echo "rmmod mlx_lite with mlxl1 live"
rmmod mlx_lite || fail "rmmod mlx_lite"
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
