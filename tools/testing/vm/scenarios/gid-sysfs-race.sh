#!/bin/bash
# cost: 79 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Our /sys/class/infiniband/<dev> under change: a renamed device keeps its
# directory (ports and GID files included) under the new name; deleting
# the netdev, or the device, while readers loop over the GID and port
# files is clean (no splat, no leak, no stuck reader).
. "$REPO/tools/testing/vm/lib.sh"

MAC=52:54:00:12:34:56
SYS=/sys/class/infiniband
DEF=fe80:0000:0000:0000:5054:00ff:fe12:3456

stack_load ours || die "load ours"
veth_pair_add $MAC

echo "--- rename keeps the directory working"
rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0"
gid_wait rxe0 0 $DEF
rdma dev set rxe0 name foo || die "rename to foo"
[ -d $SYS/foo/ports/1/gids ] || die "no $SYS/foo after rename"
[ -e $SYS/rxe0 ] && die "$SYS/rxe0 still there after rename"
grep -qx $DEF $SYS/foo/ports/1/gids/0 || die "foo gids/0: $(cat $SYS/foo/ports/1/gids/0)"
grep -qx "RoCE v2" $SYS/foo/ports/1/gid_attrs/types/0 || die "foo types/0"
grep -qx veth0 $SYS/foo/ports/1/gid_attrs/ndevs/0 || die "foo ndevs/0"
ls -d $SYS/foo $SYS/foo/ports/1/gids/1023
rdma dev set foo name rxe0 || die "rename back"
[ -d $SYS/rxe0/ports/1 ] || die "no $SYS/rxe0 after renaming back"

echo "--- deletion while readers loop over the files"
reader() {	# the first 100 slots of each table and a few port files
	local d=$SYS/rxe0/ports/1
	while :; do
		cat $d/gids/? $d/gids/?? $d/gid_attrs/types/? $d/gid_attrs/types/?? \
			$d/gid_attrs/ndevs/? $d/gid_attrs/ndevs/?? \
			$d/state $d/rate $d/pkeys/0 $SYS/rxe0/node_desc >/dev/null 2>&1
	done
}
for how in netdev device; do
	[ -d $SYS/rxe0 ] || rdma link add rxe0 type rxe netdev veth0 || die "re-add ($how)"
	ip addr add 10.9.9.1/24 dev veth0 2>/dev/null
	gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a09:0901
	reader & r1=$!
	reader & r2=$!
	sleep 2
	if [ $how = device ]; then
		rdma link delete rxe0 || die "rdma link delete under readers"
	else
		ip link del veth0 || die "veth del under readers"
		veth_pair_add $MAC
	fi
	kill $r1 $r2
	wait $r1 $r2 2>/dev/null
	[ -e $SYS/rxe0 ] && die "rxe0 survived deleting the $how"
	echo "deleting the $how under readers: ok"
done
ip link del veth0
stack_unload || die "unload ours"
echo "gid-sysfs-race: all checks passed"
