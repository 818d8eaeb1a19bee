#!/bin/bash
# The demo, run inside the VM: load our modules, show them, run the KUnit
# suites and print their summary.
. "$REPO/tools/testing/vm/lib.sh"
say() { printf '\n$ %s\n' "$*"; }

say "insmod ib_core.ko"
stack_load ours || die "load"
say "lsmod"
lsmod
say "grep ib_modify_qp_is_ok /proc/kallsyms"
grep -w 'ib_modify_qp_is_ok' /proc/kallsyms
say "KUnit suites"
for ko in $(find "$MODDIR/drivers" -name '*_kunit.ko' | sort); do
	dmesg -C
	insmod "$ko" && rmmod "$(basename "$ko" .ko)"
	dmesg | sed -n 's/^\[[ 0-9.]*\] //; /^# [a-z_]*: pass:/p; /^\s*not ok/p'
done
say "rmmod ib_core"
stack_unload && echo "unloaded; kernel log clean: $(dmesg | grep -Ec 'WARNING|BUG|leak') reports"
