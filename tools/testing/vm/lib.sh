# Helpers for in-VM scenario scripts: ". $REPO/tools/testing/vm/lib.sh".
# Environment from init.sh: REPO, MODDIR (our built modules), KDIR (test
# kernel tree; upstream's modules are installed for modprobe), STACK, OUT.

# Our modules in load order (paths relative to MODDIR).
OUR_MODULES="drivers/infiniband/core/ib_core.ko drivers/infiniband/core/ib_uverbs.ko drivers/infiniband/sw/rxe/rdma_rxe.ko"
# Upstream's, by name, in load order (modprobe resolves dependencies).
UPSTREAM_MODULES="ib_core ib_uverbs rdma_cm rdma_ucm rdma_rxe"

die() { echo "FAIL: $*" >&2; exit 1; }

# stack_load [ours|upstream]: load the RDMA stack.
stack_load() {
	local which=${1:-${STACK:-ours}} m
	case "$which" in
	ours)
		# rdma_rxe's RoCE sockets need the kernel's UDP tunnel helpers
		modprobe -a udp_tunnel ip6_udp_tunnel || return 1
		for m in $OUR_MODULES; do
			grep -q "^$(basename "$m" .ko) " /proc/modules && continue
			case "$m" in
			# RXE_MODPARAMS: extra parameters for rdma_rxe.ko (none by default)
			# shellcheck disable=SC2086
			*/rdma_rxe.ko) insmod "$MODDIR/$m" ${RXE_MODPARAMS:-} || return 1 ;;
			*) insmod "$MODDIR/$m" || return 1 ;;
			esac
		done ;;
	upstream)
		for m in $UPSTREAM_MODULES; do
			modprobe "$m" || return 1
		done ;;
	none) ;;
	*) echo "stack_load: unknown stack '$which'" >&2; return 1 ;;
	esac
}

# stack_unload: remove whichever stack is loaded.  Ours and upstream's
# modules share names, so one list in dependency order serves both.
RDMA_UNLOAD_ORDER="siw rdma_rxe mlx_lite rdma_ucm ib_uverbs rdma_cm iw_cm ib_cm ib_core"
stack_unload() {
	local m loaded
	# one read of /proc/modules: lsmod costs seconds under TCG
	loaded=" $(cut -d' ' -f1 /proc/modules | tr '\n' ' ') "
	for m in $RDMA_UNLOAD_ORDER; do
		case "$loaded" in *" $m "*) rmmod "$m" || return 1 ;; esac
	done
	return 0
}

# wire_eth0_up ADDR/PREFIX MAC: bring up the VM's wire NIC (run-vm --net)
# with an address, after checking it has the expected MAC.
wire_eth0_up() {
	ip link set eth0 up || die "cannot bring eth0 up"
	ip addr add "$1" dev eth0 || die "cannot add $1 to eth0"
	ip -br link show eth0
	ip -br addr show eth0
	grep -qix "$2" /sys/class/net/eth0/address ||
		die "eth0 has MAC $(cat /sys/class/net/eth0/address), expected $2"
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

# veth_pair_add MAC: veth0 (with MAC) <-> veth1, both up.
veth_pair_add() {
	ip link add veth0 type veth peer name veth1 || die "veth add"
	ip link set veth0 address "$1" || die "veth0 address"
	ip link set veth0 up && ip link set veth1 up || die "veth up"
}

# gid_wait DEV INDEX GID: poll (<= 20 s) until port 1's gids/INDEX reads
# GID (GID table updates are deferred to a work queue).
gid_wait() {
	local i f=/sys/class/infiniband/$1/ports/1/gids/$2
	for ((i = 0; i < 100; i++)); do
		grep -qx "$3" "$f" 2>/dev/null && return 0
		sleep 0.2
	done
	die "$1 gids/$2 is $(cat "$f" 2>&1), expected $3"
}

# rxe0_up: rxe0 on veth0 (52:54:00:12:34:56, 10.0.0.1/24; peer veth1),
# once its IPv4 GID (index 1, RoCEv2) is in the table.
rxe0_up() {
	veth_pair_add 52:54:00:12:34:56
	ip addr add 10.0.0.1/24 dev veth0 || die "address on veth0"
	rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0"
	gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a00:0001
}

# rxe0_down: undo rxe0_up (quietly: parts may be gone already).
rxe0_down() {
	rdma link delete rxe0 2>/dev/null
	ip link del veth0 2>/dev/null
}

# rdma_netns_mode shared|exclusive: the mode changes only while no other
# namespace exists, and a deleted one is cleaned up asynchronously: retry
# for a while.
rdma_netns_mode() {
	local i
	for i in $(seq 100); do
		rdma system set netns "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	rdma system set netns "$1"
}
