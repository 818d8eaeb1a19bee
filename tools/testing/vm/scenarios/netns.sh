#!/bin/bash
# cost: 202 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# RDMA devices and network namespaces (Documentation/core/netns.rst).
# Shared mode: a soft-RoCE device created inside a namespace is born there
# (its RoCE socket too) and every namespace sees it.  Exclusive mode: each
# namespace sees only its own devices (netlink and sysfs); a device follows
# its netdev to another namespace and dies with it; "rdma dev set" on an
# rxe device is refused with a reason.  Then the KUnit suite that moves a
# mock device, and (make check-full) a record of what upstream 6.1 does
# with the same steps.
# kunit-modules: ib_core_netns_kunit
. "$REPO/tools/testing/vm/lib.sh"

RXE_KO=$MODDIR/drivers/infiniband/sw/rxe/rdma_rxe.ko
KUNIT_KO=$MODDIR/drivers/infiniband/core/tests/ib_core_netns_kunit.ko

in_ns() { local ns=$1; shift; if [ "$ns" = init ]; then "$@"; else ip netns exec "$ns" "$@"; fi; }
# The probes below parse and sort with shell builtins: under TCG every
# exec costs about half a second, and a pipeline of five cost seconds.
# words ITEM...: the items sorted, each followed by a space ("" for none)
words() {
	local -a a=("$@")
	local i j t
	for ((i = 1; i < ${#a[@]}; i++)); do
		t=${a[i]}
		for ((j = i - 1; j >= 0; j--)); do
			[[ ${a[j]} > $t ]] || break
			a[j + 1]=${a[j]}
		done
		a[j + 1]=$t
	done
	[ ${#a[@]} = 0 ] || printf '%s ' "${a[@]}"
}
devs_in() {
	local line
	local -a d=()
	while IFS= read -r line; do
		[[ $line =~ ^[0-9]+:\ ([^:]+): ]] && d+=("${BASH_REMATCH[1]}")
	done <<<"$(in_ns "$1" rdma dev show 2>&1)"
	words "${d[@]}"
}
sysfs_in() {
	local f
	local -a d=()
	if [ "$1" = init ]; then
		for f in /sys/class/infiniband/*; do [ -e "$f" ] && d+=("${f##*/}"); done
	else
		while IFS= read -r f; do [ -n "$f" ] && d+=("$f"); done <<<"$(in_ns "$1" ls /sys/class/infiniband 2>&1)"
	fi
	words "${d[@]}"
}
roce_sock_in() {
	local line n=0
	while IFS= read -r line; do
		[[ $line == *:4791\ * ]] && n=$((n + 1))
	done <<<"$(if [ "$1" = init ]; then ss -Hnul; else ss -N "$1" -Hnul; fi 2>/dev/null)"
	echo "$n"
}
# libibverbs' view: the devices ibv_devices lists from namespace $1
verbs_in() {
	local line i=0
	local -a d=()
	while read -r line _; do
		i=$((i + 1))
		[ "$i" -gt 2 ] && [ -n "$line" ] && d+=("$line")
	done <<<"$(in_ns "$1" ibv_devices 2>/dev/null)"
	words "${d[@]}"
}
# the uverbs char device of ib device $1
uverbs_of() {
	local f d
	for f in /sys/class/infiniband_verbs/uverbs*/ibdev; do
		{ read -r d <"$f"; } 2>/dev/null && [ "$d" = "$1" ] && { f=${f%/ibdev}; echo "${f##*/}"; return; }
	done
}
can_open() { in_ns "$1" sh -c "exec 3<>/dev/infiniband/$2" 2>/dev/null && echo yes || echo no; }
# expect WHAT GOT WANT
expect() { [ "$2" = "$3" ] || die "$1: got '$2', want '$3'"; echo "ok: $1 = '$3'"; }
# settle WHAT WANT CMD...: like expect, for a result that arrives
# asynchronously (a deleted namespace is cleaned up from a workqueue, and
# a device leaves netlink before its sysfs directories go)
settle() {
	local what=$1 want=$2 i got
	shift 2
	for ((i = 0; i < 100; i++)); do
		got=$("$@")
		[ "$got" = "$want" ] && break
		sleep 0.2
	done
	expect "$what" "$got" "$want"
}

# The mode changes only while no other namespace exists; a deleted
# namespace is cleaned up asynchronously, so retry for a while.
set_mode() {
	local i
	for ((i = 0; i < 100; i++)); do
		rdma system set netns "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	rdma system set netns "$1"
}

# veth0 in ns $1, its peer veth1 in ns $2 (or init)
veth_pair() {
	ip link add veth0 type veth peer name veth1 || die "veth add"
	ip link set veth0 address 52:54:00:12:34:56 netns "$1" || die "veth0 -> $1"
	[ "$2" = init ] || ip link set veth1 netns "$2" || die "veth1 -> $2"
	in_ns "$1" ip link set veth0 up && in_ns "$2" ip link set veth1 up || die "veth up"
}

stack_load ours || die "load ours"
# (/proc/modules read by the shell: lsmod costs seconds under TCG)
rxe_loaded=
while read -r m _; do [ "$m" = rdma_rxe ] && rxe_loaded=1; done </proc/modules
[ -n "$rxe_loaded" ] || insmod "$RXE_KO" || die "insmod rdma_rxe"

echo "=== ours, shared mode"
expect "mode" "$(rdma system show | grep -o 'netns [a-z]*')" "netns shared"
ip netns add ns1 || die "netns add"
veth_pair ns1 init
ip netns exec ns1 rdma link add rxe0 type rxe netdev veth0 || die "link add in ns1"
expect "devices seen from init_net" "$(devs_in init)" "rxe0 "
expect "devices seen from ns1" "$(devs_in ns1)" "rxe0 "
expect "sysfs in init_net (compat directory)" "$(sysfs_in init)" "rxe0 "
expect "sysfs in ns1" "$(sysfs_in ns1)" "rxe0 "
cat /sys/class/infiniband/rxe0/node_type 2>/dev/null
expect "RoCE sockets in ns1" "$(roce_sock_in ns1)" 2
expect "RoCE sockets in init_net" "$(roce_sock_in init)" 0
expect "verbs devices from init_net" "$(verbs_in init)" "rxe0 "
expect "verbs devices from ns1" "$(verbs_in ns1)" "rxe0 "
# the netdev is named only where it lives
rdma link show rxe0/1 | grep -q 'netdev veth0' && die "init_net sees ns1's netdev name"
ip netns exec ns1 rdma link show rxe0/1 | grep -q 'netdev veth0' || die "ns1 does not see its netdev"
rdma dev set rxe0 netns ns1 2>/tmp/err && die "rdma dev set netns accepted in shared mode"
grep -q 'exclusive' /tmp/err || die "no reason given: $(cat /tmp/err)"
ip netns del ns1
settle "devices after ns1 died" "" devs_in init
settle "sysfs after ns1 died" "" sysfs_in init

echo "=== ours, exclusive mode"
set_mode exclusive || die "cannot switch to exclusive"
expect "mode" "$(rdma system show | grep -o 'netns [a-z]*')" "netns exclusive"
ip netns add ns1 && ip netns add ns2 || die "netns add"
veth_pair ns1 ns2
ip netns exec ns1 rdma link add rxe0 type rxe netdev veth0 || die "link add in ns1"
ip netns exec ns2 rdma link add rxe1 type rxe netdev veth1 || die "link add in ns2"
expect "devices seen from init_net" "$(devs_in init)" ""
expect "devices seen from ns1" "$(devs_in ns1)" "rxe0 "
expect "devices seen from ns2" "$(devs_in ns2)" "rxe1 "
expect "sysfs in init_net" "$(sysfs_in init)" ""
expect "sysfs in ns1" "$(sysfs_in ns1)" "rxe0 "
expect "sysfs in ns2" "$(sysfs_in ns2)" "rxe1 "
expect "RoCE sockets in init_net" "$(roce_sock_in init)" 0
expect "RoCE sockets in ns1" "$(roce_sock_in ns1)" 2
expect "RoCE sockets in ns2" "$(roce_sock_in ns2)" 2
expect "verbs devices from init_net" "$(verbs_in init)" ""
expect "verbs devices from ns1" "$(verbs_in ns1)" "rxe0 "
uv=$(uverbs_of rxe0)
[ -n "$uv" ] || die "rxe0 has no uverbs device"
expect "open $uv from init_net" "$(can_open init "$uv")" no
expect "open $uv from ns1" "$(can_open ns1 "$uv")" yes
expect "open $uv from ns2" "$(can_open ns2 "$uv")" no
ip netns exec ns1 ibv_devinfo -d rxe0 | grep -q 'PORT_ACTIVE' || die "ibv_devinfo in ns1"
rdma link delete rxe0 2>/dev/null && die "init_net deleted ns1's device"
ip netns exec ns2 rdma dev show rxe0 2>/dev/null && die "ns2 sees ns1's device by name"
# iproute2 resolves names itself and sends nothing for a device it cannot
# see: ask the kernel directly, by ns1's index of rxe0
NLRAW=$REPO/build/selftests/nl_fuzz
idx=$(ip netns exec ns1 rdma dev show rxe0 | sed -n 's/^\([0-9]*\): rxe0:.*/\1/p')
[ -n "$idx" ] || die "no index for rxe0 in ns1"
"$NLRAW" -R "get:$idx" || die "kernel answered a GET of ns1's rxe0 (index $idx) from init_net"
ip netns exec ns2 "$NLRAW" -R "get:$idx" || die "kernel answered a GET of ns1's rxe0 from ns2"
"$NLRAW" -R "dellink:$idx" || die "kernel accepted a DELLINK of ns1's rxe0 from init_net"
ip netns exec ns1 rdma dev show rxe0 >/dev/null || die "rxe0 gone after a DELLINK from init_net"

# rxe devices live where their netdev lives: users cannot move them ...
ip netns exec ns1 rdma dev set rxe0 netns ns2 2>/tmp/err && die "rdma dev set netns accepted for rxe"
grep -q 'follows its netdev' /tmp/err || die "no reason given: $(cat /tmp/err)"
# ... but moving the netdev moves the device (queued: the notifier runs
# under RTNL and the move waits for the device's users)
ip netns exec ns1 ip link set veth0 netns ns2 || die "move veth0"
settle "devices seen from ns2 after the move" "rxe0 rxe1 " devs_in ns2
expect "devices seen from ns1 after the move" "$(devs_in ns1)" ""
settle "sysfs in ns2 after the move" "rxe0 rxe1 " sysfs_in ns2
settle "RoCE sockets in ns1 after the move" 0 roce_sock_in ns1
expect "RoCE sockets in ns2 after the move" "$(roce_sock_in ns2)" 2
ip netns exec ns2 rdma link show rxe0/1 | grep -q 'netdev veth0' || die "rxe0 lost its netdev"
expect "verbs devices from ns2 after the move" "$(verbs_in ns2)" "rxe0 rxe1 "
uv=$(uverbs_of rxe0)
expect "open $uv (new char device) from ns2" "$(can_open ns2 "$uv")" yes
expect "open $uv from ns1" "$(can_open ns1 "$uv")" no

# the namespace dies with both netdevs in it: both devices go.  No
# namespace sees every device in exclusive mode; shared mode does, and
# switching back to it waits until the dead namespaces are cleaned up.
ip netns del ns2
ip netns del ns1
set_mode shared || die "cannot switch back to shared"
settle "devices left anywhere" "" devs_in init
settle "sysfs left" "" sysfs_in init

echo "=== KUnit: a mock device moved between namespaces"
set_mode exclusive || die "cannot switch to exclusive"
# the suite finds this process by name and kills it to end its namespace
cp /bin/sleep /tmp/rdmakunitns || die "cp sleep"
unshare -n /tmp/rdmakunitns 600 &
holder=$!
sleep 0.5
insmod "$KUNIT_KO" || die "insmod netns KUnit"
rmmod ib_core_netns_kunit || die "rmmod netns KUnit"
kill $holder 2>/dev/null; wait $holder 2>/dev/null
set_mode shared || die "cannot switch back to shared"
rmmod rdma_rxe || die "rmmod rdma_rxe"
stack_unload || die "unload ours"

if [ "${CHECK_TIER:-check}" != full ]; then
	echo "upstream 6.1's behaviour is recorded in make check-full"
	exit 0
fi
echo "=== upstream 6.1, same steps (recorded, not compared)"
stack_load upstream || die "load upstream"
modprobe rdma_rxe || die "modprobe upstream rdma_rxe"
set_mode exclusive && echo "upstream: exclusive mode set"
ip netns add ns1
veth_pair ns1 init
ip netns exec ns1 rdma link add rxe0 type rxe netdev veth0 &&
	echo "upstream: link add in ns1 succeeded"
echo "upstream: devices seen from init_net: '$(devs_in init)', from ns1: '$(devs_in ns1)'"
echo "upstream: RoCE sockets in init_net: $(roce_sock_in init), in ns1: $(roce_sock_in ns1)"
rdma dev set rxe0 netns ns1 2>&1 | sed 's/^/upstream: rdma dev set netns: /'
ip netns del ns1
sleep 1
echo "upstream: devices after ns1 died: '$(devs_in init)'"
rdma link delete rxe0 2>/dev/null
set_mode shared || die "upstream: cannot switch back to shared"
rmmod rdma_rxe
stack_unload || die "unload upstream"
