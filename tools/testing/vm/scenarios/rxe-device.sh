#!/bin/bash
# cost: 118 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# rdma_rxe, the soft-RoCE device itself (the data path has its own
# scenarios, datapath-*): "rdma link add" on a veth creates a device with
# the reference identity and port state, which follows the netdev
# (carrier, admin state, unregistration) and goes away with "rdma link
# delete", with the netdev, and with the module; add/delete cycles (2 in
# make check, 10 in check-full; each takes 3-5 s under TCG); the
# RoCE UDP sockets come and go with the devices.
. "$REPO/tools/testing/vm/lib.sh"

RXE_KO=$MODDIR/drivers/infiniband/sw/rxe/rdma_rxe.ko
MAC=52:54:00:12:34:56
GUID=5054:00ff:fe12:3456

rxe_load() { lsmod | grep -q "^rdma_rxe " || insmod "$RXE_KO" || die "insmod rdma_rxe"; }
rxe_unload() {
	if lsmod | grep -q '^rdma_rxe '; then
		rmmod rdma_rxe || die "rmmod rdma_rxe"
	fi
}
veth_add() {
	ip link add veth0 type veth peer name veth1 || die "veth add"
	ip link set veth0 address $MAC || die "veth0 address"
	ip link set veth0 up && ip link set veth1 up || die "veth up"
}
veth_del() { ip link del veth0 2>/dev/null; true; }
has_dev() { rdma dev show 2>/dev/null | grep -q ": $1: "; }
# RoCE UDP sockets (IPv4 + IPv6) open in this namespace
roce_socks() { ss -Hnul | grep -c ':4791 '; }
socks_are() { local n; n=$(roce_socks); [ "$n" = "$1" ] || die "$2: $n RoCE sockets, want $1"; }
# port_is DEV STATE PHYS: "rdma link" shows port 1 of DEV in that state
port_is() {
	local out
	out=$(rdma link show "$1/1") || die "rdma link show $1/1"
	echo "$out"
	echo "$out" | grep -q "state $2 physical_state $3" ||
		die "$1/1: expected state $2 physical_state $3"
}

stack_load ours || die "stack_load ours"
rxe_load
modinfo -F alias "$RXE_KO" | grep -qx 'rdma-link-rxe' || die "no rdma-link-rxe alias"
veth_add

socks_are 0 "before any device"
rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0"
socks_are 2 "with rxe0"

echo "--- rdma dev"
rdma dev || die "rdma dev"
echo "--- rdma link"
rdma link || die "rdma link"
has_dev rxe0 || die "rxe0 not listed"
dev=$(rdma dev show rxe0) || die "rdma dev show rxe0"
echo "$dev" | grep -q "node_guid $GUID" || die "node_guid is not $GUID"
echo "$dev" | grep -q "sys_image_guid $GUID" || die "sys_image_guid is not $GUID"
echo "$dev" | grep -q "node_type ca" || die "node_type is not ca"
rdma link show rxe0/1 | grep -q "netdev veth0" || die "rxe0/1 not bound to veth0"

echo "--- port state follows the netdev"
port_is rxe0 ACTIVE LINK_UP
ip link set veth1 down || die "veth1 down"	# veth0 loses carrier
port_is rxe0 DOWN POLLING
ip link set veth1 up || die "veth1 up"
port_is rxe0 ACTIVE LINK_UP
ip link set veth0 down || die "veth0 down"
port_is rxe0 DOWN DISABLED
ip link set veth0 up || die "veth0 up"
port_is rxe0 ACTIVE LINK_UP
ip link set veth0 mtu 9000 && ip link set veth0 mtu 1500 || die "mtu change"

echo "--- refusals"
rdma link add rxe1 type rxe netdev veth0 2>/dev/null && die "second rxe on veth0 accepted"
rdma link add rxe1 type rxe netdev lo 2>/dev/null && die "rxe on loopback accepted"
if ip link add link veth1 name veth1.5 type vlan id 5 2>/dev/null; then
	out=$(rdma link add rxe1 type rxe netdev veth1.5 2>&1) &&
		die "rxe on a VLAN device accepted"
	echo "$out" | grep -q "Operation not permitted" || die "vlan: $out"
	ip link del veth1.5
else
	echo "no VLAN support in this kernel: VLAN refusal not checked"
fi
has_dev rxe1 && die "a refused rxe1 exists"

echo "--- rdma link delete"
rdma link delete rxe0 || die "rdma link delete rxe0"
has_dev rxe0 && die "rxe0 still there after delete"
socks_are 0 "after rdma link delete"

echo "--- deleting the netdev removes the device"
rdma link add rxe0 type rxe netdev veth0 || die "re-add rxe0"
has_dev rxe0 || die "rxe0 not re-added"
veth_del
has_dev rxe0 && die "rxe0 survived its netdev"
veth_add

echo "--- rmmod rdma_rxe with a device present"
rdma link add rxe0 type rxe netdev veth0 || die "add rxe0 before rmmod"
rdma link add rxe1 type rxe netdev veth1 || die "add rxe1 before rmmod"
rxe_unload
has_dev rxe0 && die "rxe0 survived rmmod"
has_dev rxe1 && die "rxe1 survived rmmod"
socks_are 0 "after rmmod"
rxe_load

cycles=$(by_tier 2 10)
echo "--- $cycles add/delete cycles"
for i in $(seq 1 "$cycles"); do
	rdma link add rxe0 type rxe netdev veth0 || die "cycle $i: add"
	rdma link delete rxe0 || die "cycle $i: delete"
done
has_dev rxe0 && die "rxe0 listed after the cycles"
socks_are 0 "after the cycles"
ls /dev/infiniband/ 2>/dev/null | grep -q uverbs && die "uverbs char devices left: $(ls /dev/infiniband)"

veth_del
rxe_unload
stack_unload || die "stack_unload"
echo "rxe-device: all checks passed"
