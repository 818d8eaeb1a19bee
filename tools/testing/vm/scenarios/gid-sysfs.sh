#!/bin/bash
# cost: 87 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The GID cache and /sys/class/infiniband: an rxe device on a veth with a
# fixed MAC shows the same files, the same values and the same GID table
# (through address changes) with our stack as with upstream's (upstream's
# run live in make check-full; make check compares with its recorded
# output, scenarios/reference/gid-sysfs.upstream.txt).  Known and
# documented differences (Documentation/core/sysfs.rst) are filtered out
# here.  Renaming and deletion under readers: gid-sysfs-race.
. "$REPO/tools/testing/vm/lib.sh"

MAC=52:54:00:12:34:56
SYS=/sys/class/infiniband

veth_add() { veth_pair_add $MAC; }
veth_del() { ip link del veth0 2>/dev/null; true; }

# listing DEV: every file and directory with its mode, except the GID and
# P_Key table entries (counted instead), power/, and what upstream's
# modules other than ib_core add: ib_cm's ports/1/cm_* and rxe's
# hw_counters (no counters without a data path).
listing() {
	(cd "$SYS/$1" && find . -mindepth 1 \
		\( -path ./power -o -path './ports/1/cm_*' -o -path './ports/1/hw_counters' \) -prune -o \
		\( -path './ports/1/gids/*' -o -path './ports/1/gid_attrs/*/*' -o -path './ports/1/pkeys/*' \) -prune -o \
		-printf '%M %p\n' | sort)
	for t in gids gid_attrs/types gid_attrs/ndevs pkeys; do
		echo "$t: $(ls "$SYS/$1/ports/1/$t" | wc -l) entries"
	done
}

# rd FILE: its first line, or "error" when it cannot be read (builtins
# only: a cat per file costs a fork and exec, half a second under TCG)
rd() {
	local v
	{ read -r v <"$1"; } 2>/dev/null || v=error
	echo "$v"
}

# values DEV: contents of every non-table file ("rate" differs, see below)
values() {
	local f
	for f in fw_ver node_desc node_guid node_type parent sys_image_guid \
		ports/1/cap_mask ports/1/lid ports/1/lid_mask_count ports/1/link_layer \
		ports/1/phys_state ports/1/sm_lid ports/1/sm_sl ports/1/state \
		ports/1/pkeys/0; do
		echo "$f: $(rd "$SYS/$1/$f")"
	done
}

# table DEV N: the first N GID slots with type and netdev ("error" if EINVAL)
table() {
	local i d=$SYS/$1/ports/1
	for ((i = 0; i < $2; i++)); do
		echo "$i $(rd $d/gids/$i) $(rd $d/gid_attrs/types/$i) $(rd $d/gid_attrs/ndevs/$i)"
	done
}

# the same steps for either stack; prints what is compared
probe() {
	local z=0000:0000:0000:0000:0000:0000:0000:0000
	veth_add
	rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0"
	echo "--- listing"; listing rxe0
	echo "--- values"; values rxe0
	echo "rate: $(cat $SYS/rxe0/ports/1/rate)" >&2
	gid_wait rxe0 0 fe80:0000:0000:0000:5054:00ff:fe12:3456
	# all 1024 slots readable in one go; every empty one is the zero GID
	echo "--- zero gids: $(cat $SYS/rxe0/ports/1/gids/* | grep -c "^$z\$")"
	echo "--- empty types/ndevs fail with EINVAL"
	cat $SYS/rxe0/ports/1/gid_attrs/types/5 2>&1 | sed 's/^.*: //'
	cat $SYS/rxe0/ports/1/gid_attrs/ndevs/5 2>&1 | sed 's/^.*: //'

	ip addr add 10.1.2.3/24 dev veth0 || die "ip addr add v4"
	ip addr add 2001:db8::5/64 dev veth0 || die "ip addr add v6"
	gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a01:0203
	gid_wait rxe0 2 2001:0db8:0000:0000:0000:0000:0000:0005
	echo "--- after adding 10.1.2.3 and 2001:db8::5"; table rxe0 4
	ip addr del 10.1.2.3/24 dev veth0 || die "ip addr del v4"
	gid_wait rxe0 1 $z
	echo "--- after deleting 10.1.2.3"; table rxe0 4
	ip addr add 10.1.2.7/24 dev veth0 || die "ip addr add v4 again"
	gid_wait rxe0 1 0000:0000:0000:0000:0000:ffff:0a01:0207
	echo "--- after adding 10.1.2.7 (lowest free slot)"; table rxe0 4
	ip link set veth0 address 52:54:00:12:34:57 || die "mac change"
	gid_wait rxe0 0 fe80:0000:0000:0000:5054:00ff:fe12:3457
	sleep 2
	echo "--- after a MAC change (old link-local is an address now)"; table rxe0 5
	ip link set veth0 address $MAC
	rdma link delete rxe0 || die "rdma link delete rxe0"
	veth_del
}

stack_load ours || die "load ours"
ours=$(probe) || die "probe ours"

echo "--- ours:"; echo "$ours"
stack_unload || die "unload ours"

# upstream's: live in make check-full, as recorded in make check (lib.sh
# "Upstream references")
if reference_live; then
	stack_load upstream || die "load upstream"
	upstream=$(probe) || die "probe upstream"
	# ibv_devinfo -v's GID lines through address changes, ours against
	# upstream, are compared by the uverbs-discovery scenario.
	stack_unload || die "unload upstream"
	echo "--- upstream:"; echo "$upstream"
	reference_check gid-sysfs <(echo "$upstream")
else
	upstream=$(cat "$REFDIR/gid-sysfs.upstream.txt") || die "no recorded reference"
	echo "--- upstream: as recorded in reference/gid-sysfs.upstream.txt (live: make check-full)"
fi
[ "$ours" = "$upstream" ] || { diff <(echo "$ours") <(echo "$upstream"); die "outputs differ"; }
echo "gid-sysfs: all checks passed"
