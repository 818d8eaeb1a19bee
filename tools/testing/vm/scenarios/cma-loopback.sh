#!/bin/bash
# cost: 79 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The RDMA connection manager rdma_cm (Documentation/core/rdma_cm.rst) on
# rxe0: the KUnit suite rdma_cm resolves, binds, listens, connects,
# accepts, rejects and disconnects rdma_cm IDs addressed to 10.0.0.1
# (rxe0's own address: every CM MAD and every SEND goes out and back in
# through rxe0), runs SIDR and one UD SEND, joins an IPv4 group, connects
# over IPv6 the way rdma_ucm does (no kernel QP), and last removes rxe0 with a
# listener and a connected pair alive.  Then rdma_cm is checked for its
# module lifetime: rmmod rdma_cm is refused while rdma_cm_kunit is
# loaded, ib_cm cannot go before rdma_cm, and both leave a live device.
# kunit-modules: rdma_cm_kunit
. "$REPO/tools/testing/vm/lib.sh"

CORE=$MODDIR/drivers/infiniband/core
RXE0_GID=0000:0000:0000:0000:0000:ffff:0a00:0001

stack_load ours || die "cannot load our stack"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm"
insmod "$CORE/rdma_cm.ko" || die "insmod rdma_cm"
rxe0_up
# multicast groups route out of veth0; an IPv6 address for the IPv6 case
ip route add 224.0.0.0/4 dev veth0 || die "multicast route"
ip -6 addr add fd00::1/64 dev veth0 nodad || die "IPv6 address on veth0"
for ((i = 0; i < 100; i++)); do
	grep -qx 'fd00:0000:0000:0000:0000:0000:0000:0001' \
		/sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null && break
	sleep 0.2
done
[ "$i" = 100 ] && die "no fd00::1 GID on rxe0"
insmod "$CORE/tests/rdma_cm_kunit.ko" dev=rxe0 || die "insmod rdma_cm_kunit"
rmmod rdma_cm 2>/dev/null && die "rdma_cm unloaded under rdma_cm_kunit"
echo "ok: rmmod rdma_cm refused while rdma_cm_kunit is loaded"
rmmod rdma_cm_kunit || die "rmmod rdma_cm_kunit"
rxe0_again
rmmod ib_cm 2>/dev/null && die "ib_cm unloaded under rdma_cm"
echo "ok: rmmod ib_cm refused while rdma_cm is loaded"
# both leave a live device, and come back to it
rmmod rdma_cm || die "rmmod rdma_cm"
rmmod ib_cm || die "rmmod ib_cm"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm (2)"
insmod "$CORE/rdma_cm.ko" || die "insmod rdma_cm (2)"
stack_unload || die "unload"
ip link del veth0 2>/dev/null
exit 0
