#!/bin/bash
# cost: 110 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# What iproute2's rdma prints for a soft-RoCE device, ours against
# upstream's in the same VM: link add, dev, link, system, res (summary and
# per-object), statistic, hw_counters, link delete.  Same netdev, same MAC,
# so the GUIDs match too.
#
# Both ib_cores run the MAD layer: every RoCE port has a kernel GSI QP
# (QP1) with a CQ and a PD ("comm [ib_core]" in rdma res), compared too.
# Keys are random in both (rxe draws the low byte of every lkey):
# local_dma_lkey values are compared as present, not by value.
any_key() {
	sed -E -e 's/local_dma_lkey 0x[0-9a-f]+/local_dma_lkey KEY/'
}
# One known difference, taken out of ours: our counters beyond upstream's fifteen
# (retransmits and the receive drop reasons, Documentation/rxe/index.rst).
RXE_EXTRA_COUNTERS='retransmits|rcvd_icrc_err|rcvd_access_err|rcvd_dropped'
without_extra_counters() {
	sed -E -e "s/ ($RXE_EXTRA_COUNTERS) [0-9]+//g" \
	    -e "/(^| )($RXE_EXTRA_COUNTERS)(:| *$)/d"
}
# A second one, taken out of ours: the IBTA 1.5 capabilities (RDMA ATOMIC
# WRITE, FLUSH: device_cap_flags bits 38-40), which upstream 6.1 lacks and
# iproute2 6.1 prints as UNKNOWN in "rdma -d dev".
without_placement_caps() {
	sed -E -e '/caps: </s/(, UNKNOWN)+>/>/'
}
. "$REPO/tools/testing/vm/lib.sh"

RXE_KO=$MODDIR/drivers/infiniband/sw/rxe/rdma_rxe.ko

probe() {
	ip link add veth0 type veth peer name veth1 || die "veth add"
	ip link set veth0 address 52:54:00:12:34:56 || die "veth0 address"
	ip link set veth0 up && ip link set veth1 up || die "veth up"
	echo "# rdma link add"; rdma link add rxe0 type rxe netdev veth0 2>&1; echo "rc $?"
	for cmd in "dev" "dev show rxe0" "link" "link show rxe0/1" "system" \
		   "res" "res show rxe0" "res show qp" "res show cq" "res show mr" \
		   "res show pd" "statistic" "statistic show link rxe0/1" \
		   "-j dev" "-d dev"; do
		echo "# rdma $cmd"
		# shellcheck disable=SC2086
		rdma $cmd 2>&1
		echo "rc $?"
	done
	echo "# hw_counters"
	ls -l /sys/class/infiniband/rxe0/ports/1/hw_counters | awk 'NR>1{print $1, $NF}'
	(cd /sys/class/infiniband/rxe0/ports/1/hw_counters && grep . *)
	echo "# rdma link delete"; rdma link delete rxe0 2>&1; echo "rc $?"
	echo "# rdma dev after delete"; rdma dev 2>&1; echo "rc $?"
	ip link del veth0
}

# pid_ns_check: kernel-owned objects (the res demo module's, on kres0)
# are listed in the initial pid namespace only, as upstream does
pid_ns_check() {
	local init_qps ns_qps ns_sum
	insmod "$MODDIR/drivers/infiniband/core/tests/ib_core_verbs_res_demo.ko" ||
		die "insmod ib_core_verbs_res_demo"
	init_qps=$(rdma res show qp | grep -c 'link kres0/')
	ns_qps=$(unshare --pid --fork --mount-proc rdma res show qp | grep -c 'link kres0/')
	ns_sum=$(unshare --pid --fork --mount-proc rdma res show kres0)
	rmmod ib_core_verbs_res_demo || die "rmmod ib_core_verbs_res_demo"
	echo "pid namespaces: kres0 QPs listed: $init_qps in the initial one, $ns_qps in a new one ($ns_sum)"
	[ "$init_qps" = 2 ] || die "rdma res show qp: $init_qps kernel QPs of kres0, want 2"
	[ "$ns_qps" = 0 ] || die "a new pid namespace lists $ns_qps kernel QPs"
	[[ "$ns_sum" == *" qp 0 "* ]] || die "a new pid namespace counts kernel QPs: $ns_sum"
}

stack_load ours || die "load ours"
lsmod | grep -q '^rdma_rxe ' || insmod "$RXE_KO" || die "insmod rdma_rxe"
ours=$(probe)
ours_all=$ours
ours=$(echo "$ours" | without_extra_counters | without_placement_caps | any_key)
rmmod rdma_rxe || die "rmmod rdma_rxe"
# after the probe: kres0 would take device index 0 from rxe0
pid_ns_check
stack_unload || die "unload ours"

stack_load upstream || die "load upstream"
upstream=$(probe | any_key)
stack_unload || die "unload upstream"

echo "--- ours:"; echo "$ours_all"
for c in ${RXE_EXTRA_COUNTERS//|/ }; do
	echo "$ours_all" | grep -q "^$c:0$" || die "counter $c missing from hw_counters"
done
echo "$ours_all" | grep -Eq 'caps: <.*, UNKNOWN>' ||
	die "rdma -d dev does not show our IBTA 1.5 capabilities"
echo "$upstream" | grep -q 'UNKNOWN' && die "upstream shows unknown capabilities too"
if [ "$ours" != "$upstream" ]; then
	echo "--- differences (< ours, > upstream):"
	diff <(echo "$ours") <(echo "$upstream")
	die "outputs differ"
fi
echo "identical to upstream"
