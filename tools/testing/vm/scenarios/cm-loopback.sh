#!/bin/bash
# cost: 90 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The IB connection manager ib_cm (Documentation/core/cm.rst) on rxe0:
# the KUnit suite ib_cm connects, rejects, times out and disconnects CM
# IDs of port 1 with each other (every CM MAD goes out of QP1 to the
# port's own IPv4 GID and back) and finally removes rxe0 with a listener,
# a connection and a waiting REQ alive.  Then, with rxe0 back, ib_cm_hold
# keeps a listener, an ID in REQ_RCVD and one in REQ_SENT: rmmod ib_cm
# must refuse, "rdma link delete rxe0" must end the REQ with a flush
# error, and the IDs must be destroyed cleanly afterwards.  Last, ib_cm
# leaves a live device by rmmod, and the stack unloads.
# kunit-modules: ib_cm_kunit
. "$REPO/tools/testing/vm/lib.sh"

CORE=$MODDIR/drivers/infiniband/core
RXE0_GID=0000:0000:0000:0000:0000:ffff:0a00:0001

stack_load ours || die "cannot load our stack"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm"
rxe0_up
insmod "$CORE/tests/ib_cm_kunit.ko" dev=rxe0 || die "insmod ib_cm_kunit"
rmmod ib_cm_kunit || die "rmmod ib_cm_kunit"
rxe0_again
insmod "$CORE/tests/ib_cm_hold.ko" dev=rxe0 || die "insmod ib_cm_hold"
dmesg | grep -q 'ib_cm_hold: listening, REQ_RCVD 1, REQ_SENT 1' ||
	die "ib_cm_hold: IDs not in place: $(dmesg | grep ib_cm_hold)"
echo "ok: a listener, a REQ_RCVD and a REQ_SENT ID are alive"
rmmod ib_cm 2>/dev/null && die "ib_cm unloaded under a user with live IDs"
echo "ok: rmmod ib_cm refused while ib_cm_hold holds IDs"
rdma link delete rxe0 || die "rdma link delete rxe0 with live CM IDs"
rdma dev show rxe0 >/dev/null 2>&1 && die "rxe0 still exists"
rmmod ib_cm_hold || die "rmmod ib_cm_hold"
dmesg | grep -q 'ib_cm_hold: REQ_ERROR status 5$' ||
	die "the waiting REQ did not end with a flush error (5): $(dmesg | grep ib_cm_hold)"
dmesg | grep -q 'ib_cm_hold: all IDs destroyed' || die "ib_cm_hold: exit incomplete"
echo "ok: device removal ended the REQ (flush), the IDs were destroyed after it"
rmmod ib_cm || die "rmmod ib_cm"

# ib_cm loaded after the device exists, unloaded while it still does
rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0 (3)"
gid_wait rxe0 1 "$RXE0_GID"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm (2)"
rmmod ib_cm || die "rmmod ib_cm (2)"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm (3)"
stack_unload || die "unload"
ip link del veth0 2>/dev/null
exit 0
