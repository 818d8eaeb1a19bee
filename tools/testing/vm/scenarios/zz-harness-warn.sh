#!/bin/bash
# cost: 4 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Harness self-test: a scratch module WARNs; the runner must notice.
# expect: kernel-report
. "$REPO/tools/testing/vm/lib.sh"
ko=$MODDIR/tools/testing/vm/modules/harness_warn.ko
[ -f "$ko" ] || die "$ko not built (make check builds it)"
insmod "$ko" || die "insmod"
rmmod harness_warn || die "rmmod"
