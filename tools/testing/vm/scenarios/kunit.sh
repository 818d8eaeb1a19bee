#!/bin/bash
# cost: 51 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Load every KUnit module we built; results are KTAP in the kernel log,
# which the host parses into one result per case and checks against the
# suites the sources declare (all modules but the netns one, which the
# netns scenario runs, the MAD one, which mad-loopback runs on rxe0, and
# the CM one, which cm-loopback runs on rxe0 with ib_cm loaded, and the
# rdma_cm one, which cma-loopback runs on rxe0 with ib_cm and rdma_cm):
# kunit-modules: * !ib_core_netns_kunit !ib_core_mad_kunit !ib_cm_kunit !rdma_cm_kunit
. "$REPO/tools/testing/vm/lib.sh"
stack_load ours || die "cannot load our stack"
# ib_core_verbs resolves an AH to a local IPv4 address: give it one
ip link add kunit-v4 type veth peer name kunit-v4p || die "veth"
ip addr add 192.0.2.1/24 dev kunit-v4 || die "address"
ip link set kunit-v4 up || die "link up"
found=0
while read -r ko; do
	found=1
	insmod "$ko" || die "insmod $ko"
	rmmod "$(basename "$ko" .ko)" || die "rmmod $ko"
done < <(find "$MODDIR/drivers" -name '*_kunit.ko' ! -name '*netns_kunit.ko' \
	! -name '*mad_kunit.ko' ! -name 'ib_cm_kunit.ko' ! -name 'rdma_cm_kunit.ko' | sort)
# ib_core_netns_kunit needs a second namespace: the netns scenario runs it
[ "$found" = 1 ] || die "no KUnit modules under $MODDIR"
ip link del kunit-v4 || die "veth del"
stack_unload || die "unload"
