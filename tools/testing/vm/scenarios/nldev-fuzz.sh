#!/bin/bash
# 10,000 malformed/random RDMA netlink requests: each gets an answer, the
# kernel logs no report, and ib_core still unloads (no reference leaked).
. "$REPO/tools/testing/vm/lib.sh"
fuzz=$REPO/build/selftests/nl_fuzz
[ -x "$fuzz" ] || die "$fuzz not built (make check builds it)"
stack_load ours || die "load"
"$fuzz" -n "${NL_FUZZ_COUNT:-10000}" -s 1 || die "nl_fuzz"
rdma sys show >/dev/null || die "rdma sys after fuzzing"
stack_unload || die "ib_core does not unload after fuzzing"
