#!/bin/bash
# cost: 60 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# ib_uverbs, discovery and context: libibverbs finds and opens rxe0 through
# our /dev/infiniband/uverbs0 and prints exactly what it prints with
# upstream's modules (live in make check-full, as recorded in
# scenarios/reference/uverbs-discovery.upstream.txt in make check)
# (ibv_devices, ibv_devinfo [-v], the infiniband_verbs
# sysfs class, the char device node); then the uverbs_abi selftest checks
# the write() ABI, async events and device removal with a context open.
. "$REPO/tools/testing/vm/lib.sh"

ABI_TEST=$REPO/build/selftests/uverbs_abi
MAC=52:54:00:12:34:56
[ -x "$ABI_TEST" ] || die "$ABI_TEST not built (make check builds it)"

veth_add() {
	ip link add veth0 type veth peer name veth1 || die "veth add"
	ip link set veth0 address $MAC || die "veth0 address"
	ip link set veth0 up && ip link set veth1 up || die "veth up"
}

# What user space sees of the device; must be identical for both stacks.
probe() {
	echo "--- ibv_devices"; ibv_devices 2>&1
	echo "--- ibv_devinfo"; ibv_devinfo 2>&1
	echo "--- ibv_devinfo -v"; ibv_devinfo -v 2>&1
	echo "--- sysfs"
	ls /sys/class/infiniband_verbs
	echo "abi_version: $(cat /sys/class/infiniband_verbs/abi_version)"
	for f in ibdev abi_version dev; do
		echo "uverbs0/$f: $(cat /sys/class/infiniband_verbs/uverbs0/$f)"
	done
	ls /sys/class/infiniband_verbs/uverbs0/device 2>&1 | head -n 1
	stat -c '%A %t:%T %n' /dev/infiniband/uverbs0
	echo "--- warnings"
	IBV_SHOW_WARNINGS=1 ibv_devices 2>&1 >/dev/null
}

# gids_are N LABEL: wait (bounded) until ibv_devinfo -v lists N GIDs (the
# GID table follows address changes from a work item), then print them
# under LABEL from that same run.  ibv_devinfo -v queries all 1024 GID
# entries (through sysfs with upstream's recorded run, through ioctl with
# ours), seconds under KASAN and TCG, so no run is wasted.
gids_are() {
	local i out
	for i in $(seq 50); do
		out=$(ibv_devinfo -v 2>&1)
		[ "$(grep -c 'GID\[' <<<"$out")" = "$1" ] && break
		sleep 0.2
	done
	[ "$(grep -c 'GID\[' <<<"$out")" = "$1" ] || echo "GIDs: wanted $1, have:"
	echo "--- $2"
	grep 'GID\[' <<<"$out"
}

# GIDs follow the netdev's addresses (IPv4, IPv6, removal)
gid_probe() {
	ip addr add 10.0.0.1/24 dev veth0 || die "add IPv4"
	gids_are 2 "GIDs with 10.0.0.1"
	ip addr add 2001:db8::1/64 dev veth0 nodad || die "add IPv6"
	gids_are 3 "GIDs with 10.0.0.1 and 2001:db8::1"
	ip addr del 10.0.0.1/24 dev veth0 || die "del IPv4"
	gids_are 2 "GIDs after removing 10.0.0.1"
}

# The one known difference, taken out of ours: the IBTA 1.5 capabilities
# (RDMA ATOMIC WRITE, FLUSH: device_cap_flags_ex bits 38-40), which
# upstream 6.1 lacks; ibv_devinfo -v shows them in device_cap_flags_ex and
# as "Unknown flags" below it.
PLACEMENT_CAPS=$((0x7 << 38))
without_placement_caps() {
	local line v after=0
	while IFS= read -r line; do
		if [[ "$line" =~ ^([[:space:]]*device_cap_flags_ex:[[:space:]]*0x)([0-9A-Fa-f]+)$ ]]; then
			v=$((0x${BASH_REMATCH[2]} & ~PLACEMENT_CAPS))
			printf '%s%X\n' "${BASH_REMATCH[1]}" "$v"
			after=1
			continue
		fi
		if ((after)) && [[ "$line" =~ ^([[:space:]]+Unknown\ flags:\ 0x)([0-9A-Fa-f]+)$ ]]; then
			v=$((0x${BASH_REMATCH[2]} & ~PLACEMENT_CAPS))
			((v)) && printf '%s%X\n' "${BASH_REMATCH[1]}" "$v"
			after=0
			continue
		fi
		[[ "$line" =~ ^$'\t\t\t\t\t' ]] || after=0
		printf '%s\n' "$line"
	done
}

# The other: on-demand paging (Documentation/rxe/odp.rst), which upstream
# 6.1 rxe lacks.  Ours lists capabilities under general_odp_caps and
# rc/uc/ud_odp_caps; this turns the block into upstream's (nothing, and
# "NO SUPPORT" for each transport).  Checked apart before that.
without_odp_caps() {
	awk '
	/^\t(general|rc|uc|ud)_odp_caps:$/ {
		print; inblk = 1
		if ($1 != "general_odp_caps:") print "\t\t\t\t\tNO SUPPORT"
		next
	}
	inblk && /^\t\t\t\t\t/ { next }
	{ inblk = 0; print }'
}

# run_stack ours|upstream: load, create rxe0, probe into $OUT_DIR/<stack>.txt,
# run the selftest, unload.
run_stack() {
	local stack=$1 upstream=0
	[ "$stack" = upstream ] && upstream=1
	stack_load "$stack" || die "load $stack"
	veth_add
	rdma link add rxe0 type rxe netdev veth0 || die "$stack: rdma link add rxe0"
	probe >"$work/$stack.txt"
	gid_probe >>"$work/$stack.txt"
	# the selftest against upstream proves the selftest: check-full only
	if [ "$stack" = ours ] || [ "${CHECK_TIER:-check}" = full ]; then
		echo "$stack: probed, running uverbs_abi"
		UVERBS_ABI_UPSTREAM=$upstream UVERBS_ABI_DEV=rxe0 UVERBS_ABI_NETDEV=veth0 \
			UVERBS_ABI_PEER=veth1 timeout 300 "$ABI_TEST" >"$work/$stack-abi.txt" 2>&1
		echo "$?" >"$work/$stack-abi.rc"
	else
		echo "(uverbs_abi against upstream: make check-full)" >"$work/$stack-abi.txt"
		echo 0 >"$work/$stack-abi.rc"
	fi
	rdma link delete rxe0 2>/dev/null
	ip link del veth0
	stack_unload || die "unload $stack"
}

work=$(mktemp -d)
run_stack ours
# upstream's: live in make check-full, as recorded in make check (lib.sh
# "Upstream references")
if reference_live; then
	run_stack upstream
	reference_check uverbs-discovery "$work/upstream.txt"
else
	cp "$REFDIR/uverbs-discovery.upstream.txt" "$work/upstream.txt"
	echo "(upstream 6.1: as recorded in reference/uverbs-discovery.upstream.txt; live in make check-full)" >"$work/upstream-abi.txt"
	echo 0 >"$work/upstream-abi.rc"
fi

echo "=== ours"; cat "$work/ours.txt"
echo "=== uverbs_abi (ours)"; cat "$work/ours-abi.txt"
echo "=== uverbs_abi (upstream, ours-only checks skipped)"; cat "$work/upstream-abi.txt"

grep -q "no userspace device-specific driver" "$work/ours.txt" &&
	die "libibverbs found no provider for our device"
grep -q "rxe0" "$work/ours.txt" || die "ibv_devices does not list rxe0"
ex=$(grep -m1 -oE 'device_cap_flags_ex:[[:space:]]*0x[0-9A-Fa-f]+' "$work/ours.txt" | grep -oE '[0-9A-Fa-f]+$')
(( (0x${ex:-0} >> 40) & 1 )) || die "ibv_devinfo -v: no ATOMIC_WRITE (bit 40) in device_cap_flags_ex (0x$ex)"
for c in ODP_SUPPORT SUPPORT_SEND SUPPORT_WRITE SUPPORT_READ SUPPORT_ATOMIC; do
	grep -q "^[[:space:]]*$c\$" "$work/ours.txt" || die "ibv_devinfo -v: ODP capability $c missing"
done
[ "$(grep -c '^[[:space:]]*SUPPORT_SEND$' "$work/ours.txt")" = 3 ] ||
	die "ibv_devinfo -v: SUPPORT_SEND is not listed for RC, UC and UD"
without_placement_caps <"$work/ours.txt" | without_odp_caps >"$work/ours-compared.txt"
# num_comp_vectors is the VM's CPU count for both stacks: against the
# recording (made in a VM of another size) it is not compared
if ! reference_live; then
	for f in upstream ours-compared; do
		sed -i 's/^\([[:space:]]*num_comp_vectors:[[:space:]]*\).*/\1(CPUs)/' "$work/$f.txt"
	done
fi
if ! diff -u "$work/upstream.txt" "$work/ours-compared.txt"; then
	die "ours and upstream differ (diff above: - upstream, + ours)"
fi
echo "ours and upstream: identical"
[ "$(cat "$work/ours-abi.rc")" = 0 ] || die "uverbs_abi failed against ours"
[ "$(cat "$work/upstream-abi.rc")" = 0 ] || die "uverbs_abi failed against upstream"
rm -rf "$work"
echo "uverbs-discovery: all checks passed"
