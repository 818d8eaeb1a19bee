#!/bin/bash
# cost: 107 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# scenario-timeout-full: 4200
# The uverbs fuzzer (Documentation/security.rst, "Fuzzing"): uverbs_fuzz
# on rxe0 writes random, mutated and garbage commands from several
# threads of several processes, scribbles the rings it maps, rings the
# doorbell on what it wrote and kills some of its processes midway.
#   make check:       20 000 commands (UVERBS_FUZZ_CMDS)
#   make check-full:  1 000 000 commands
# First, item 4 of the threat model by hand (uverbs_fuzz --flush-spin):
# MODIFY_QP to ERR returns, and SIGKILL ends the process, while a thread
# keeps the QP's SQ full by writing its producer index.
# Passes when the fuzzer saw no violation (a short write, a leaked
# kernel-internal errno, a process SIGKILL could not end), every object
# it made is gone once its processes are (rdma res counts back to what
# they were before: ib_core's own GSI QP, CQ and PD),
# and the stack unloads.  The harness fails it on any kernel report.
# The seed is printed; UVERBS_FUZZ_SEED replays one.
. "$REPO/tools/testing/vm/lib.sh"
F=$REPO/build/selftests/uverbs_fuzz
[ -x "$F" ] || die "$F not built (make check builds it)"

stack_load ours || die "stack_load ours"
trap rxe0_down EXIT
rxe0_up
# rdma res: "0: rxe0: pd N cq N qp N cm_id N mr N ctx N srq N"
counts() { rdma res show | grep ' rxe0:' | grep -oE '[a-z_]+ [0-9]+' | grep -v ' 0$'; }
before=$(counts)
echo "rdma res before: $(echo $before)"

"$F" --flush-spin rxe0 || die "flush-spin failed"

seed=${UVERBS_FUZZ_SEED:-$(( $(date +%s%N) % 1000000007 ))}
cmds=${UVERBS_FUZZ_CMDS:-$(by_tier 20000 1000000)}
# The fuzzer keeps the queues each process gets accepted within its
# --ring-budget (64 MiB), and runs in a memory cgroup of its own as a
# backstop: what it makes is charged there, not to the whole VM.  An OOM
# kill anywhere is a kernel report, and so fails the scenario.
CG=/sys/fs/cgroup
memcg_child uvfuzz "${UVERBS_FUZZ_MEM:-512M}"
bash -c "echo \$\$ >$CG/uvfuzz/cgroup.procs &&
	exec '$F' --seed '$seed' --cmds '$cmds' --procs 2 --threads 3 rxe0" ||
	die "uverbs_fuzz failed (replay: UVERBS_FUZZ_SEED=$seed)"

for ((i = 0; i < 50; i++)); do
	left=$(counts)
	[ "$left" = "$before" ] && break
	sleep 0.2
done
[ "$left" = "$before" ] ||
	die "objects left after every fuzzer process ended: $(echo $left) (before: $(echo $before))"
echo "uverbs-fuzz: rdma res counts are back to $(echo $before)"
rmdir $CG/uvfuzz 2>/dev/null
rxe0_down
trap - EXIT
stack_unload || die "the stack does not unload after the fuzzer (replay: UVERBS_FUZZ_SEED=$seed)"
echo "uverbs-fuzz: ok (seed $seed)"
