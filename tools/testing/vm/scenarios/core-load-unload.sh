#!/bin/bash
# cost: 22 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# ib_core loads and unloads cleanly, twice, and exports the QP state API;
# ib_cm on top of it, twice, with no device (and ib_core refuses to go
# while ib_cm is loaded).
. "$REPO/tools/testing/vm/lib.sh"
for i in 1 2; do
	insmod "$MODDIR/drivers/infiniband/core/ib_core.ko" || die "insmod #$i"
	grep -q ' ib_modify_qp_is_ok	\[ib_core\]' /proc/kallsyms ||
		grep -qw ib_modify_qp_is_ok /proc/kallsyms || die "symbol missing"
	insmod "$MODDIR/drivers/infiniband/core/ib_cm.ko" || die "insmod ib_cm #$i"
	rmmod ib_core 2>/dev/null && die "ib_core unloaded under ib_cm"
	rmmod ib_cm || die "rmmod ib_cm #$i"
	rmmod ib_core || die "rmmod #$i"
done
lsmod | grep -q '^ib_core ' && die "ib_core still loaded"
echo "ib_core, ib_cm: 2 load/unload cycles clean"
