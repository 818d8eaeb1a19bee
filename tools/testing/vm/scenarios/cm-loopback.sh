#!/bin/bash
# cost: 86 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# The IB connection manager ib_cm (Documentation/core/cm.rst) on rxe0:
# the KUnit suite ib_cm connects, rejects, times out and disconnects CM
# IDs of port 1 with each other (every CM MAD goes out of QP1 to the
# port's own IPv4 GID and back) and finally removes rxe0 with a listener,
# a connection and a waiting REQ alive.  Then, with rxe0 back, ib_cm_hold
# keeps a listener, an ID in REQ_RCVD and one in REQ_SENT: rmmod ib_cm
# must refuse, "rdma link delete rxe0" must end the REQ with a flush
# error, and the IDs must be destroyed cleanly afterwards.  Last, ib_cm
# leaves a live device by rmmod, and the stack unloads.  The suite runs
# with the ib_cm tracepoints on: a connection's states and events must
# show in the trace (check-full: also through tools/bpf/cmstate.bt).
# kunit-modules: ib_cm_kunit
. "$REPO/tools/testing/vm/lib.sh"

CORE=$MODDIR/drivers/infiniband/core
RXE0_GID=0000:0000:0000:0000:0000:ffff:0a00:0001

TR=/sys/kernel/tracing
WORK=$(mktemp -d /tmp/cm-loopback.XXXXXX)

stack_load ours || die "cannot load our stack"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm"
rxe0_up
# the suite runs with the ib_cm tracepoints on (tracefs), and in
# check-full also under tools/bpf/cmstate.bt
echo 1 >$TR/events/ib_cm/enable || die "no ib_cm tracepoints"
: >$TR/trace
bt=
if [ "${CHECK_TIER:-check}" = full ]; then
	bpftrace_start "$WORK/cmstate.out" "$(cat "$REPO/tools/bpf/cmstate.bt")" ||
		die "cmstate.bt did not attach"
	bt=$BPFTRACE_PID
fi
insmod "$CORE/tests/ib_cm_kunit.ko" dev=rxe0 || die "insmod ib_cm_kunit"
rmmod ib_cm_kunit || die "rmmod ib_cm_kunit"
echo 0 >$TR/events/ib_cm/enable
grep -E 'cm_(state|event):' $TR/trace >"$WORK/trace"
[ -z "$bt" ] || bpftrace_stop "$bt" || die "cmstate.bt did not exit"
echo "ib_cm tracepoints: $(grep -c cm_state: "$WORK/trace") state changes, $(grep -c cm_event: "$WORK/trace") events"
# a connection's whole life, seen from both sides
for want in 'cm_state: .* IDLE->REQ_SENT$' 'cm_state: .* REQ_RCVD->REP_SENT$' \
	    'cm_state: .* REP_RCVD->ESTABLISHED$' 'cm_state: .* REP_SENT->ESTABLISHED$' \
	    'cm_state: .*->DREQ_SENT$' 'cm_state: .*->TIMEWAIT$' \
	    'cm_event: .* REQ_RECEIVED in REQ_RCVD, handler returned 0$' \
	    'cm_event: .* REJ_RECEIVED in ' 'cm_event: .* TIMEWAIT_EXIT in '; do
	grep -qE "$want" "$WORK/trace" || die "no trace line matches '$want'; trace: $(head -n 20 "$WORK/trace")"
done
echo "ok: the tracepoints show REQ, REP, ESTABLISHED, DREQ, TIMEWAIT and the handlers' events"
if [ -n "$bt" ]; then
	grep -qE ' IDLE->REQ_SENT$' "$WORK/cmstate.out" &&
		grep -qE 'REQ_RECEIVED in REQ_RCVD, handler 0$' "$WORK/cmstate.out" ||
		die "cmstate.bt printed no connection: $(head -n 20 "$WORK/cmstate.out")"
	echo "ok: cmstate.bt: $(grep -c -- '->' "$WORK/cmstate.out") state changes"
fi
rm -rf "$WORK"
rxe0_again
insmod "$CORE/tests/ib_cm_hold.ko" dev=rxe0 || die "insmod ib_cm_hold"
dmesg | grep -q 'ib_cm_hold: listening, REQ_RCVD 1, REQ_SENT 1' ||
	die "ib_cm_hold: IDs not in place: $(dmesg | grep ib_cm_hold)"
echo "ok: a listener, a REQ_RCVD and a REQ_SENT ID are alive"
rmmod ib_cm 2>/dev/null && die "ib_cm unloaded under a user with live IDs"
echo "ok: rmmod ib_cm refused while ib_cm_hold holds IDs"
rdma link delete rxe0 || die "rdma link delete rxe0 with live CM IDs"
rdma dev show rxe0 >/dev/null 2>&1 && die "rxe0 still exists"
rmmod ib_cm_hold || die "rmmod ib_cm_hold"
dmesg | grep -q 'ib_cm_hold: REQ_ERROR status 5$' ||
	die "the waiting REQ did not end with a flush error (5): $(dmesg | grep ib_cm_hold)"
dmesg | grep -q 'ib_cm_hold: all IDs destroyed' || die "ib_cm_hold: exit incomplete"
echo "ok: device removal ended the REQ (flush), the IDs were destroyed after it"
rmmod ib_cm || die "rmmod ib_cm"

# ib_cm loaded after the device exists, unloaded while it still does
rdma link add rxe0 type rxe netdev veth0 || die "rdma link add rxe0 (3)"
gid_wait rxe0 1 "$RXE0_GID"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm (2)"
rmmod ib_cm || die "rmmod ib_cm (2)"
insmod "$CORE/ib_cm.ko" || die "insmod ib_cm (3)"
stack_unload || die "unload"
ip link del veth0 2>/dev/null
exit 0
