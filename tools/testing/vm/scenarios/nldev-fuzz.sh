#!/bin/bash
# 10,000 malformed/random RDMA netlink requests: each gets an answer, the
# kernel logs nothing about them, and ib_core still unloads (no reference leaked).
. "$REPO/tools/testing/vm/lib.sh"
fuzz=$REPO/build/selftests/nl_fuzz
[ -x "$fuzz" ] || die "$fuzz not built (make check builds it)"
stack_load ours || die "load"
before=$(dmesg | wc -l)
"$fuzz" -n "${NL_FUZZ_COUNT:-10000}" -s 1 || die "nl_fuzz"
# rejections are quiet: not even a rate-limited warning per bad attribute
noise=$(dmesg | tail -n +"$((before + 1))" | grep -i 'netlink\|rdma\|infiniband\|ib_core')
[ -z "$noise" ] || die "kernel log noise while fuzzing: $noise"
rdma sys show >/dev/null || die "rdma sys after fuzzing"
stack_unload || die "ib_core does not unload after fuzzing"
