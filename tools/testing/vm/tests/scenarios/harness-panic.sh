#!/bin/bash
# Harness self-test (vm-dies.sh): the guest kernel panics mid-run (a
# scratch module calls panic()).  The runner must fail this scenario and
# every one after it, and say so.
. "$REPO/tools/testing/vm/lib.sh"
ko=$MODDIR/tools/testing/vm/modules/harness_panic.ko
[ -f "$ko" ] || die "$ko not built (make check builds it)"
echo "harness-panic: panicking the guest kernel"
insmod "$ko"
sleep 60
die "still running 60 s after the panic module was loaded"
