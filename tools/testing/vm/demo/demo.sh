#!/bin/bash
# The demo, run inside the VM: load our modules, show them, run the KUnit
# suites and print their summary.
. "$REPO/tools/testing/vm/lib.sh"
say() { printf '\n$ %s\n' "$*"; }

say "insmod ib_core.ko ib_uverbs.ko rdma_rxe.ko"
stack_load ours || die "load"
say "lsmod"
lsmod
say "grep ib_modify_qp_is_ok /proc/kallsyms"
grep -w 'ib_modify_qp_is_ok' /proc/kallsyms
say "rdma system show    (RDMA netlink answered by our ib_core)"
rdma system show
say "ip link add veth0 type veth peer name veth1; ip link set veth0 up; ip link set veth1 up"
ip link add veth0 type veth peer name veth1 && ip link set veth0 up && ip link set veth1 up
say "rdma link add rxe0 type rxe netdev veth0"
rdma link add rxe0 type rxe netdev veth0
say "rdma dev"
rdma dev
say "rdma link"
rdma link
say "ibv_devices; ibv_devinfo    (rdma-core's stock rxe provider on our uverbs)"
ibv_devices
ibv_devinfo -d rxe0
say "rdma res; rdma statistic show link rxe0/1"
rdma res; rdma statistic show link rxe0/1
say "bpftrace tools/bpf/qpstate.bt &    (QP state changes, while the tools below run)"
ip addr add 10.0.0.1/24 dev veth0
for i in $(seq 100); do grep -q ffff:0a00:0001 /sys/class/infiniband/rxe0/ports/1/gids/1 2>/dev/null && break; sleep 0.2; done
bt_out=$(mktemp)
bt_pid=
bpftrace_start "$bt_out" "$(cat "$REPO/tools/bpf/qpstate.bt")" && bt_pid=$BPFTRACE_PID || echo "bpftrace did not start"
say "ibv_rc_pingpong -d rxe0 -g 1 -n 100 -c &  ibv_rc_pingpong -d rxe0 -g 1 -n 100 -c 10.0.0.1"
ibv_rc_pingpong -d rxe0 -g 1 -n 100 -c >/dev/null 2>&1 &
srv=$!
sleep 2
ibv_rc_pingpong -d rxe0 -g 1 -n 100 -c 10.0.0.1
wait "$srv"
say "ib_write_bw -d rxe0 -x 1 -D 2 &  ib_write_bw -d rxe0 -x 1 -D 2 127.0.0.1"
ib_write_bw -d rxe0 -x 1 -D 2 >/dev/null 2>&1 &
srv=$!
sleep 3
ib_write_bw -d rxe0 -x 1 -D 2 127.0.0.1 | sed -n '/#bytes/,/^-/p'
wait "$srv"
[ -n "$bt_pid" ] && bpftrace_stop "$bt_pid"
say "the qpstate.bt trace of those runs"
grep -v '^__BPFTRACE\|^Attaching' "$bt_out"; rm -f "$bt_out"
say "rdma statistic show link rxe0/1"
rdma statistic show link rxe0/1
say "ip link set veth1 down; rdma link    (the port follows the netdev)"
ip link set veth1 down; rdma link
say "rdma link delete rxe0; rdma dev"
rdma link delete rxe0; rdma dev
ip link del veth0
say "rdma system set netns exclusive; a device born in ns1, then following its netdev to ns2"
rdma system set netns exclusive
ip netns add ns1; ip netns add ns2
ip link add veth0 netns ns1 type veth peer name veth1 netns ns2
ip -n ns1 link set veth0 up; ip -n ns2 link set veth1 up
ip netns exec ns1 rdma link add rxe0 type rxe netdev veth0
say "rdma dev; ip netns exec ns1 rdma dev; ip netns exec ns1 ss -Hnul"
echo "init_net:"; rdma dev; echo "ns1:"; ip netns exec ns1 rdma dev; ip netns exec ns1 ss -Hnul
say "ip -n ns1 link set veth0 netns ns2; sleep 1; ip netns exec ns2 rdma dev"
ip -n ns1 link set veth0 netns ns2; sleep 1; ip netns exec ns2 rdma dev
ip netns del ns1; ip netns del ns2
for i in $(seq 50); do rdma system set netns shared 2>/dev/null && break; sleep 0.2; done
say "KUnit suites"
for ko in $(find "$MODDIR/drivers" -name '*_kunit.ko' ! -name '*netns_kunit.ko' | sort); do
	dmesg -C
	insmod "$ko" && rmmod "$(basename "$ko" .ko)"
	dmesg | sed -n 's/^\[[ 0-9.]*\] //; /^# [a-z_]*: pass:/p; /^\s*not ok/p'
done
say "rmmod rdma_rxe ib_uverbs ib_core"
stack_unload && echo "unloaded; kernel log clean: $(dmesg | grep -Ec 'WARNING|BUG|leak') reports"
