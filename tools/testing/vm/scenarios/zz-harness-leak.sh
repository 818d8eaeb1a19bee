#!/bin/bash
# cost: 9 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Harness self-test: a scratch module leaks one object and stays loaded;
# the end-of-run kmemleak verdict must report it (and only it counts as
# expected: any other unreferenced object still fails vm:kmemleak).
# expect: kmemleak
. "$REPO/tools/testing/vm/lib.sh"
ko=$MODDIR/tools/testing/vm/modules/harness_leak.ko
[ -f "$ko" ] || die "$ko not built (make check builds it)"
insmod "$ko" || die "insmod"
