#!/bin/bash
# cost: 63 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# RDMA netlink with no device: iproute2's rdma gets the same answers from
# our ib_core as from upstream's; bad requests are refused with errors.
. "$REPO/tools/testing/vm/lib.sh"

probe() {	# what the rdma tool prints for the requests that must succeed
	rdma sys show || echo "rdma sys failed"
	rdma dev show || echo "rdma dev failed"
	rdma link show || echo "rdma link failed"
}

stack_load ours || die "load ours"
ours=$(probe 2>&1)
# requests that must fail, each with a message, none with a splat
rdma link add fz0 type nosuchtype netdev lo 2>/dev/null && die "unknown link type accepted"
rdma link add fz0 type rxe netdev nosuchif0 2>/dev/null && die "unknown netdev accepted"
rdma link add 'fz%d' type rxe netdev lo 2>/dev/null && die "name with % accepted"
rdma dev show nosuchdev 2>/dev/null && die "unknown device shown"
rdma link delete nosuchdev 2>/dev/null && die "unknown device deleted"
rdma system set netns bogus 2>/dev/null && die "bogus netns mode accepted"
rdma system set netns shared || die "setting the current mode must succeed"
stack_unload || die "unload ours"

stack_load upstream || die "load upstream"
upstream=$(probe 2>&1)
stack_unload || die "unload upstream"

echo "--- ours:"; echo "$ours"
echo "--- upstream:"; echo "$upstream"
[ "$ours" = "$upstream" ] || die "outputs differ"
