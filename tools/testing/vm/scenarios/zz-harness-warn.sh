#!/bin/bash
# Harness self-test: a scratch module WARNs; the runner must notice.
# expect: kernel-report
. "$REPO/tools/testing/vm/lib.sh"
ko=$MODDIR/tools/testing/vm/modules/harness_warn.ko
[ -f "$ko" ] || die "$ko not built (make check builds it)"
insmod "$ko" || die "insmod"
rmmod harness_warn || die "rmmod"
