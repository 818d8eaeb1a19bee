#!/bin/bash
# cost: 45 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The MAD layer's kernel part (Documentation/core/mad.rst, "Kernel API"):
# ib_core gives rxe0 a GSI QP (QPN 1, RTS) as soon as the device exists;
# the KUnit suite ib_core_mad sends MADs from port 1 to its own IPv4 GID
# (request/response by TID, the layer's GetResp to an unclaimed Get,
# timeout after exactly retries + 1 sends, cancel on unregister) and
# finally removes rxe0 with agents registered and a send outstanding.
# Then rxe0 is created again and the stack unloaded with its QP1 in place.
# ib_cm is loaded throughout: its agents (CM class) share every QP1 with
# the suite's and go with the device.
# kunit-modules: ib_core_mad_kunit
. "$REPO/tools/testing/vm/lib.sh"

KUNIT_KO=$MODDIR/drivers/infiniband/core/tests/ib_core_mad_kunit.ko

# gsi_qp_check: rxe0's QP1 is listed, kernel-owned, of type GSI, in RTS
gsi_qp_check() {
	local i res
	for ((i = 0; i < 50; i++)); do
		res=$(rdma res show qp link rxe0/1 2>&1)
		echo "$res" | grep -qE 'lqpn 1 .*type GSI state RTS' && { echo "ok: $res"; return 0; }
		sleep 0.2
	done
	die "rxe0 has no GSI QP in RTS: $res"
}

stack_load ours || die "cannot load our stack"
insmod "$MODDIR/drivers/infiniband/core/ib_cm.ko" || die "insmod ib_cm"
rxe0_up
gsi_qp_check
insmod "$KUNIT_KO" dev=rxe0 || die "insmod ib_core_mad_kunit"
rmmod ib_core_mad_kunit || die "rmmod ib_core_mad_kunit"
rxe0_again
gsi_qp_check
# removal by rmmod with QP1 in place and its receives posted
stack_unload || die "unload"
ip link del veth0 2>/dev/null
exit 0
