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
		# one read of /proc/modules, by the shell: every exec costs
		# about half a second under TCG
		local loaded=" " name
		while read -r name _; do loaded+="$name "; done </proc/modules
		# rdma_rxe's RoCE sockets need the kernel's UDP tunnel helpers
		# (modprobe only when one is not loaded yet)
		if [[ "$loaded" != *" udp_tunnel "* || "$loaded" != *" ip6_udp_tunnel "* ]]; then
			modprobe -a udp_tunnel ip6_udp_tunnel || return 1
		fi
		for m in $OUR_MODULES; do
			name=${m##*/}
			case "$loaded" in *" ${name%.ko} "*) continue ;; esac
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

# user_procs: "PID:COMM" of every process that is not a kernel thread
user_procs() {
	local d c
	for d in /proc/[0-9]*; do
		[ -s "$d/cmdline" ] || continue
		read -r c <"$d/comm" 2>/dev/null && printf '%s:%s ' "${d#/proc/}" "$c"
	done
}

# stack_unload: remove whichever stack is loaded.  Ours and upstream's
# modules share names, so one list in dependency order serves both.  A
# module still in use after 30 s fails; what holds it is printed.
RDMA_UNLOAD_ORDER="siw rdma_rxe mlx_lite_fwsim mlx_lite rdma_ucm ib_uverbs rdma_cm iw_cm ib_cm ib_core"
stack_unload() {
	local m loaded i name
	local -a present=()
	# one read of /proc/modules, by the shell: lsmod costs seconds under TCG
	loaded=" "
	while read -r name _; do loaded+="$name "; done </proc/modules
	for m in $RDMA_UNLOAD_ORDER; do
		case "$loaded" in *" $m "*) present+=("$m") ;; esac
	done
	[ "${#present[@]}" -gt 0 ] || return 0
	# first all at once, in dependency order (one rmmod process for all:
	# an exec costs about half a second); what is still loaded then is
	# retried one by one below
	rmmod "${present[@]}" 2>/dev/null && return 0
	loaded=" "
	while read -r name _; do loaded+="$name "; done </proc/modules
	for m in $RDMA_UNLOAD_ORDER; do
		case "$loaded" in *" $m "*) ;; *) continue ;; esac
		for ((i = 0; i < 30; i++)); do
			rmmod "$m" 2>/dev/null && break
			sleep 1
		done
		[ "$i" = 0 ] && continue
		if [ "$i" = 30 ] && ! rmmod "$m"; then
			echo "stack_unload: $m in use (refcnt $(cat /sys/module/$m/refcnt 2>&1)," \
				"holders: $(ls /sys/module/$m/holders 2>&1 | tr '\n' ' '))"
			echo "stack_unload: user processes: $(user_procs)"
			return 1
		fi
		echo "stack_unload: $m was in use for ${i}s"
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
# attached; its PID is in BPFTRACE_PID.  Call it in the shell that will
# stop it (not in $(...)): bpftrace must be that shell's child, so that
# bpftrace_stop can wait for its exit.  Under TCG attaching takes 7-17 s,
# much more with #include.
bpftrace_start() {
	local out=$1 prog=$2 i
	BPFTRACE_PID=
	__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 bpftrace -B none -e "$prog" >"$out" 2>&1 &
	BPFTRACE_PID=$!
	for ((i = 0; i < ${BPFTRACE_ATTACH_TIMEOUT:-180}; i++)); do
		grep -q __BPFTRACE_NOTIFY_PROBES_ATTACHED "$out" 2>/dev/null && return 0
		kill -0 "$BPFTRACE_PID" 2>/dev/null || { cat "$out" >&2; return 1; }
		sleep 1
	done
	echo "bpftrace_start: probes not attached in time" >&2
	bpftrace_stop "$BPFTRACE_PID"
	return 1
}

# bpftrace_stop PID: SIGINT (maps print), then wait until it has exited:
# a bpftrace still detaching holds a reference on the module of every
# tracepoint it attached to (ib_core cannot be unloaded).  Detaching costs
# tens of seconds under a loaded TCG; after $BPFTRACE_EXIT_TIMEOUT s
# (default 300) it is killed.  Fails when it had to be killed.
bpftrace_stop() {
	local i
	kill -INT "$1" 2>/dev/null || return 0
	for ((i = 0; i < ${BPFTRACE_EXIT_TIMEOUT:-300}; i++)); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null; return 0; }
		sleep 1
	done
	echo "bpftrace_stop: bpftrace $1 still running ${i}s after SIGINT: killed" >&2
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 1
}

# veth_pair_add MAC [IP-COMMAND...]: veth0 (with MAC) <-> veth1, both up,
# then each further argument as one ip(8) command (e.g. "addr add
# 10.0.0.1/24 dev veth0"); all in one "ip -batch" (one exec, not one per
# step: each costs about half a second under TCG).  ip names the failing
# line.
veth_pair_add() {
	local mac=$1 more=
	shift
	[ $# = 0 ] || printf -v more '%s\n' "$@"
	ip -batch - <<-EOF || die "veth pair${more:+ and: $*}"
	link add veth0 type veth peer name veth1
	link set veth0 address $mac
	link set veth0 up
	link set veth1 up
	$more
	EOF
}

# gid_wait DEV INDEX GID: poll (<= 20 s) until port 1's gids/INDEX reads
# GID (GID table updates are deferred to a work queue).
gid_wait() {
	local i g f=/sys/class/infiniband/$1/ports/1/gids/$2
	# read by the shell (no grep per poll: an exec costs about half a
	# second under TCG)
	for ((i = 0; i < 100; i++)); do
		g=
		{ read -r g <"$f"; } 2>/dev/null
		[ "$g" = "$3" ] && return 0
		sleep 0.2
	done
	die "$1 gids/$2 is $(cat "$f" 2>&1), expected $3"
}

# rxe0_up: rxe0 on veth0 (52:54:00:12:34:56, 10.0.0.1/24; peer veth1),
# once its IPv4 GID (index 1, RoCEv2) is in the table.
rxe0_up() {
	veth_pair_add 52:54:00:12:34:56 "addr add 10.0.0.1/24 dev veth0"
	rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0"
	gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a00:0001
}

# rxe0_again: after a KUnit suite's last case removed rxe0 (checked),
# create it again on veth0 and wait for its IPv4 GID.
rxe0_again() {
	rdma dev show rxe0 >/dev/null 2>&1 && die "rxe0 still exists after the removal case"
	echo "ok: rxe0 removed by the suite"
	rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0 again"
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
	for ((i = 0; i < 100; i++)); do
		rdma system set netns "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	rdma system set netns "$1"
}

# kmemleak_scan: print kmemleak's report of every object leaked so far.
# kmemleak reports an object only when it is older than 5 s at the start
# of a scan and an earlier scan has already seen it (the first scan that
# meets an object records its checksum and holds it back as possibly in
# use): so scan, sleep 7 s, scan again; everything allocated before the
# first scan began is then old enough.  (A wait measured with $SECONDS can
# be 5.0x s: the second scan then missed objects allocated just before the
# first.)  Returns 2 when kmemleak is off (not built, disabled at boot, or
# disabled itself).
kmemleak_scan() {
	local f=/sys/kernel/debug/kmemleak
	[ -w "$f" ] || { echo "kmemleak_scan: $f missing (kmemleak off)" >&2; return 2; }
	echo scan >"$f" || { echo "kmemleak_scan: scan refused (kmemleak disabled)" >&2; return 2; }
	sleep 7
	echo scan >"$f" || { echo "kmemleak_scan: scan refused (kmemleak disabled)" >&2; return 2; }
	cat "$f"
}

# Upstream references: a scenario that compares what users see of our
# stack with upstream 6.1's (gid-sysfs, uverbs-discovery) runs upstream's
# live only in make check-full (or with REFERENCE_LIVE=1); make check
# compares with upstream's output as recorded in
# scenarios/reference/NAME.upstream.txt.  The test kernel is pinned, so
# the recording holds; the live run checks that it does.
REFDIR=$REPO/tools/testing/vm/scenarios/reference
reference_live() { [ "${CHECK_TIER:-check}" = full ] || [ -n "${REFERENCE_LIVE:-}" ]; }

# reference_check NAME FILE: FILE (upstream's output, just produced live)
# must be the recorded reference; dies with the diff when it is not (the
# new output then replaces the file in the tree)
reference_check() {
	diff -u "$REFDIR/$1.upstream.txt" "$2" ||
		die "upstream's live output differs from $REFDIR/$1.upstream.txt (diff above): record it again"
	echo "upstream live = the recorded reference ($1.upstream.txt)"
}

# rmmod_wait MODULE SECONDS: rmmod MODULE, once a second until it goes (a
# destroyed CM ID may still finish its exchange); says how long it was busy.
rmmod_wait() {
	local i
	for ((i = 0; i < $2; i++)); do
		if rmmod "$1" 2>/dev/null; then
			[ "$i" = 0 ] || echo "$1 was busy for $i s"
			return 0
		fi
		sleep 1
	done
	return 1
}

# by_tier CHECK_VALUE FULL_VALUE: the value for this run's tier
# (CHECK_TIER: "check" for make check, "full" for make check-full)
by_tier() {
	if [ "${CHECK_TIER:-check}" = full ]; then echo "$2"; else echo "$1"; fi
}

# ns_pair_up [MTU]: namespaces ns1 and ns2 joined by a veth pair (veth0
# 10.0.0.1/24 and fd00::1/64 in ns1, veth1 10.0.0.2/24 and fd00::2/64 in
# ns2, MTU default 1500), rxe0 born in ns1 on veth0 and rxe1 in ns2 on
# veth1 (our stack: each device's RoCE socket lives in its namespace, so
# their packets cross the veth and its qdiscs).
# Sets NS_G4 and NS_G6 (the IPv4 and the global IPv6 RoCE v2 GID index,
# the same on both devices).  Undo with ns_pair_down.  NS_PAIR_MODE=exclusive:
# the same in exclusive mode (each namespace sees only its own device).
# The ip(8) steps run as three "ip -batch" (an exec costs about half a
# second under TCG; ip names a failing line).
ns_pair_up() {
	local mtu=${1:-1500} ns dev a4 a6 e mode=${NS_PAIR_MODE:-shared}
	rdma_netns_mode "$mode" || die "rdma netns mode $mode"
	NS_PAIR_UP_MODE=$mode
	# an earlier scenario killed at its timeout leaves its namespaces
	for ns in ns1 ns2; do
		[ -e "/run/netns/$ns" ] && ip netns del "$ns" 2>/dev/null &&
			echo "ns_pair_up: removed a stale $ns"
	done
	ip -batch - <<-EOF || die "namespaces and veth pair (MTU $mtu)"
	netns add ns1
	netns add ns2
	link add veth0 netns ns1 mtu $mtu type veth peer name veth1 netns ns2 mtu $mtu
	EOF
	for e in "ns1 veth0 10.0.0.1 fd00::1" "ns2 veth1 10.0.0.2 fd00::2"; do
		read -r ns dev a4 a6 <<<"$e"
		ip -n "$ns" -batch - <<-EOF || die "addresses and links up in $ns"
		addr add $a4/24 dev $dev
		addr add $a6/64 dev $dev nodad
		link set $dev up
		link set lo up
		EOF
	done
	ip netns exec ns1 rdma link add rxe0 type rxe netdev veth0 || die "rxe0 in ns1"
	ip netns exec ns2 rdma link add rxe1 type rxe netdev veth1 || die "rxe1 in ns2"
	# (gid_indexes_wait is in rdma-tools.sh; a global IPv6 GID: fd00::N)
	gid_indexes_wait rxe0 ns1
	NS_G4=$GID_4 NS_G6=$GID_6
	gid_indexes_wait rxe1 ns2
	[ "$GID_4" = "$NS_G4" ] || die "IPv4 GID index differs between rxe0 ($NS_G4) and rxe1 ($GID_4)"
	[ "$GID_6" = "$NS_G6" ] || die "IPv6 GID index differs between rxe0 ($NS_G6) and rxe1 ($GID_6)"
}

# ns_pair_down: undo ns_pair_up (quietly: parts may be gone already).  A
# device this namespace sees (shared mode) is deleted from here, both in
# one rdma process; in exclusive mode one it does not see from its
# namespace (in shared mode it is gone already); then both namespaces in
# one ip process.
ns_pair_down() {
	local e ns dev here=
	for e in "ns1 rxe0" "ns2 rxe1"; do
		ns=${e% *} dev=${e#* }
		if [ -e "/sys/class/infiniband/$dev" ]; then
			here+="link delete $dev"$'\n'
		elif [ "${NS_PAIR_UP_MODE:-}" != shared ] && [ -e "/run/netns/$ns" ]; then
			ip netns exec "$ns" rdma link delete "$dev" 2>/dev/null
		fi
	done
	[ -z "$here" ] || rdma -f -b - <<<"$here" >/dev/null 2>&1
	here=
	for ns in ns1 ns2; do
		[ -e "/run/netns/$ns" ] && here+="netns del $ns"$'\n'
	done
	[ -z "$here" ] || ip -force -batch - <<<"$here" >/dev/null 2>&1
	return 0
}

# netem_set QDISC-ARGS|-: the same netem qdisc on both veth ends of the
# namespace pair ("-": none)
netem_set() {
	local end ns dev
	for end in "ns1 veth0" "ns2 veth1"; do
		read -r ns dev <<<"$end"
		tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null
		if [ "$1" != - ]; then
			# shellcheck disable=SC2086
			tc -n "$ns" qdisc add dev "$dev" root netem $1 || die "tc netem $1 on $dev"
		fi
	done
}

# peer_ns_up: rxe0 on veth0 (10.0.0.1, MAC 52:54:00:12:34:56) in this
# namespace; its peer veth1 (10.0.0.2) in namespace "peer", from where
# roce_inject.py sends; removed on exit (EXIT trap).
peer_ns_up() {
	ip netns add peer || die "netns"
	trap 'ip netns del peer 2>/dev/null' EXIT
	veth_pair_add 52:54:00:12:34:56 "link set veth1 netns peer" "addr add 10.0.0.1/24 dev veth0"
	ip -n peer -batch - <<-EOF || die "veth1 in namespace peer"
	addr add 10.0.0.2/24 dev veth1
	link set veth1 up
	EOF
}

# memcg_child NAME MAX: cgroup2 at /sys/fs/cgroup with the memory
# controller on for its children, and child NAME with memory.max MAX;
# dies when the kernel has no memory controller
memcg_child() {
	local cg=/sys/fs/cgroup
	mountpoint -q $cg || mount -t cgroup2 none $cg || die "cannot mount cgroup2"
	grep -qw memory $cg/cgroup.controllers || die "no memory controller (CONFIG_MEMCG)"
	echo +memory >$cg/cgroup.subtree_control || die "cannot enable the memory controller"
	mkdir -p "$cg/$1" && echo "$2" >"$cg/$1/memory.max" || die "memory cgroup $1"
}
