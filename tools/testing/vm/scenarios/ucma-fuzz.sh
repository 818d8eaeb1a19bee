#!/bin/bash
# cost: 48 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# scenario-timeout-full: 2400
# The rdma_ucm fuzzer (issue 15, malformed input): ucma_fuzz writes
# random, mutated and garbage rdma_ucm commands to /dev/infiniband/rdma_cm
# from 3 threads of each of 2 processes at a time, with IDs bound,
# listening, resolving and connecting to rxe0's 10.0.0.1 so that they meet,
# and kills 30 % of its processes at a random moment (a thread may be
# asleep in a blocking GET_EVENT then).
#   make check:       6 000 commands (UCMA_FUZZ_CMDS)
#   make check-full:  200 000 commands
# Passes when the fuzzer saw no violation (a short write, a leaked
# kernel-internal errno, a process SIGKILL could not end), rdma_cm has no
# ID left once every process is gone (rdma_ucm and rdma_cm unload), and the
# stack unloads.  The harness fails it on any kernel report or leak.
# The seed is printed; UCMA_FUZZ_SEED replays one.
. "$REPO/tools/testing/vm/lib.sh"
F=$REPO/build/selftests/ucma_fuzz
[ -x "$F" ] || die "$F not built (make check builds it)"
CORE=$MODDIR/drivers/infiniband/core

stack_load ours || die "stack_load ours"
for m in ib_cm rdma_cm rdma_ucm; do
	insmod "$CORE/$m.ko" || die "insmod $m"
done
trap rxe0_down EXIT
rxe0_up

seed=${UCMA_FUZZ_SEED:-$(( $(date +%s%N) % 1000000007 ))}
cmds=${UCMA_FUZZ_CMDS:-$(by_tier 6000 200000)}
# what the fuzzer makes is charged to a memory cgroup of its own
CG=/sys/fs/cgroup
memcg_child ucmafuzz "${UCMA_FUZZ_MEM:-256M}"
bash -c "echo \$\$ >$CG/ucmafuzz/cgroup.procs &&
	exec '$F' --seed '$seed' --cmds '$cmds' --procs 2 --threads 3 --kill 30 10.0.0.1" ||
	die "ucma_fuzz failed (replay: UCMA_FUZZ_SEED=$seed)"
rmdir $CG/ucmafuzz 2>/dev/null

# every ID went with its file: rdma_ucm and rdma_cm unload (bounded: a
# destroyed ID may still wait for its CM exchange to time out)
for m in rdma_ucm rdma_cm; do
	rmmod_wait "$m" 60 ||
		die "$m still in use 60 s after the fuzzer ended (refcnt $(cat /sys/module/$m/refcnt)) (replay: UCMA_FUZZ_SEED=$seed)"
done
rxe0_down
trap - EXIT
stack_unload || die "the stack does not unload after the fuzzer (replay: UCMA_FUZZ_SEED=$seed)"
echo "ucma-fuzz: ok (seed $seed)"
