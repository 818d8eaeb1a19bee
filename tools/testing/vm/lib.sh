# Helpers for in-VM scenario scripts: ". $REPO/tools/testing/vm/lib.sh".
# Environment from init.sh: REPO, MODDIR (our built modules), KDIR (test
# kernel tree; upstream's modules are installed for modprobe), STACK, OUT.

# Our modules in load order (paths relative to MODDIR).
OUR_MODULES="drivers/infiniband/core/ib_core.ko"
# Upstream's, by name, in load order (modprobe resolves dependencies), and
# every upstream RDMA module in an order that can unload them.
UPSTREAM_MODULES="ib_core ib_uverbs rdma_cm rdma_ucm rdma_rxe"
UPSTREAM_UNLOAD="siw rdma_rxe rdma_ucm ib_uverbs rdma_cm iw_cm ib_cm ib_core"

die() { echo "FAIL: $*" >&2; exit 1; }

# stack_load [ours|upstream]: load the RDMA stack.
stack_load() {
	local which=${1:-${STACK:-ours}} m
	case "$which" in
	ours)
		for m in $OUR_MODULES; do
			lsmod | grep -q "^$(basename "$m" .ko) " && continue
			insmod "$MODDIR/$m" || return 1
		done ;;
	upstream)
		for m in $UPSTREAM_MODULES; do
			modprobe "$m" || return 1
		done ;;
	none) ;;
	*) echo "stack_load: unknown stack '$which'" >&2; return 1 ;;
	esac
}

# stack_unload: remove whichever stack is loaded, last loaded first.
stack_unload() {
	local m mods=""
	for m in $OUR_MODULES; do mods="$(basename "$m" .ko) $mods"; done
	for m in $mods; do
		lsmod | grep -q "^$m " && { rmmod "$m" || return 1; }
	done
	for m in $UPSTREAM_UNLOAD; do
		lsmod | grep -q "^$m " && { modprobe -r "$m" || return 1; }
	done
	return 0
}

# bpftrace_start OUTFILE PROGRAM: start bpftrace in the background and wait
# (up to $BPFTRACE_ATTACH_TIMEOUT s, default 180) until its probes are
# attached.  Prints the PID.  Under TCG attaching takes 7-17 s, much more
# with #include.  Stop it with bpftrace_stop PID (maps print on SIGINT).
bpftrace_start() {
	local out=$1 prog=$2 pid i
	__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 bpftrace -B none -e "$prog" >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < ${BPFTRACE_ATTACH_TIMEOUT:-180}; i++)); do
		grep -q __BPFTRACE_NOTIFY_PROBES_ATTACHED "$out" 2>/dev/null && { echo "$pid"; return 0; }
		kill -0 "$pid" 2>/dev/null || { cat "$out" >&2; return 1; }
		sleep 1
	done
	kill "$pid" 2>/dev/null
	echo "bpftrace_start: probes not attached in time" >&2
	return 1
}

bpftrace_stop() {
	kill -INT "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}
