#!/bin/bash
# cost: 68 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# Random and malformed RDMA netlink requests (NL_FUZZ_COUNT, default 10,000
# in make check, 50,000 in check-full) against our ib_core with rxe0
# present and a verbs_churn process creating and destroying objects on it,
# so most requests reach a real device and its resources: each request
# gets an answer, the kernel logs nothing about them, rxe0 is still there
# afterwards, and ib_core still unloads (no reference leaked).  The seed
# varies per run and is printed (NL_FUZZ_SEED repeats one).
. "$REPO/tools/testing/vm/lib.sh"
fuzz=$REPO/build/selftests/nl_fuzz
churn=$REPO/build/selftests/verbs_churn
[ -x "$fuzz" ] && [ -x "$churn" ] || die "$fuzz or $churn not built (make check builds them)"
stack_load ours || die "load"
rxe0_up
idx=$(rdma dev show rxe0 | sed -n 's/^\([0-9]*\): rxe0:.*/\1/p')
[ -n "$idx" ] || die "no index for rxe0"
VERBS_DEV=rxe0 "$churn" 600 >/tmp/churn.out 2>&1 &
cpid=$!
count=${NL_FUZZ_COUNT:-10000}
[ "${CHECK_TIER:-check}" = full ] && count=${NL_FUZZ_COUNT:-50000}
before=$(dmesg | wc -l)
"$fuzz" -n "$count" -D "$idx" ${NL_FUZZ_SEED:+-s "$NL_FUZZ_SEED"} || die "nl_fuzz"
kill "$cpid" 2>/dev/null
wait "$cpid"
tail -n 3 /tmp/churn.out
# rejections are quiet: not even a rate-limited warning per bad attribute
noise=$(dmesg | tail -n +"$((before + 1))" | grep -i 'netlink\|rdma\|infiniband\|ib_core')
[ -z "$noise" ] || die "kernel log noise while fuzzing: $noise"
rdma dev show rxe0 >/dev/null || die "rxe0 gone after fuzzing"
rdma sys show >/dev/null || die "rdma sys after fuzzing"
rxe0_down
stack_unload || die "ib_core does not unload after fuzzing"
