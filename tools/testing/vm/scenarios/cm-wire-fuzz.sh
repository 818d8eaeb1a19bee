#!/bin/bash
# cost: 96 (seconds in make check, two VMs sharing 2 cores; check.sh balances its VMs by it)
# scenario-timeout-full: 1800
# CM MADs from the wire (issue 15, malformed input; Documentation/security.rst):
# wire_fuzz --classes cm, in namespace cmfz on veth1 (10.0.0.3, no RDMA
# device: it reads the replies on UDP 4791 itself), sends CM MADs to QP1 of
# rxe0 (10.0.0.1 on veth0) where cm_sink listens on port 7471 in both
# rdma_cm port spaces and accepts, rejects or ignores what arrives: intact
# REQs and SIDR_REQs that reach it, follow-ups (RTU, REJ, DREQ, DREP, MRA,
# LAP, APR, duplicate REQs) for the connections they opened, replies nobody
# asked for, other attributes and methods, and all of these mutated (bytes,
# bits, fields at edges, the MAD header, lengths).  Meanwhile an rping pair
# on rxe0 (port 7472) pings with -V.
#   make check:       2 000 packets (CM_FUZZ_PACKETS); check-full 40 000
# Passes when:
#   - the CM answered the intact requests (REP, SIDR_REP and REJ seen by
#     the fuzzer, CONNECT_REQUEST seen by cm_sink): the MADs got through;
#   - the rping pair verified its data while the fuzzing ran;
#   - once cm_sink is SIGKILLed (connections open to a peer that never
#     finishes), no CM ID and no user QP remains, ib_cm, rdma_cm and
#     rdma_ucm unload, then the stack;
#   - the harness sees no kernel report and no leak.
# CM_FUZZ_SEED (with VM_ENV=CM_FUZZ_SEED) replays a run's packets.
. "$REPO/tools/testing/vm/lib.sh"
F=$REPO/build/selftests/wire_fuzz
S=$REPO/build/selftests/cm_sink
[ -x "$F" ] && [ -x "$S" ] || die "wire_fuzz or cm_sink not built (make check builds them)"
CORE=$MODDIR/drivers/infiniband/core
W=$(mktemp -d /tmp/cm-wire-fuzz.XXXXXX)

cleanup() {
	pkill -9 -x cm_sink 2>/dev/null
	pkill -9 -x rping 2>/dev/null
	ip netns del cmfz 2>/dev/null
	rxe0_down
}
stack_load ours || die "stack_load ours"
for m in ib_cm rdma_cm rdma_ucm; do
	insmod "$CORE/$m.ko" || die "insmod $m"
done
trap cleanup EXIT
rxe0_up
ip netns del cmfz 2>/dev/null
ip netns add cmfz || die "netns add cmfz"
ip link set veth1 netns cmfz || die "veth1 to cmfz"
ip -n cmfz addr add 10.0.0.3/24 dev veth1 && ip -n cmfz link set veth1 up &&
	ip -n cmfz link set lo up || die "veth1 in cmfz"

cm_ids() { rdma res show cm_id 2>/dev/null | grep -c 'lqpn\|cm-idn' || true; }
user_qps() { rdma res show qp 2>/dev/null | grep -vc 'lqpn 1 ' || true; }

"$S" --addr 10.0.0.1 --port 7471 >"$W/sink.out" 2>&1 &
spid=$!
for ((i = 0; i < 50; i++)); do
	grep -q '^cm_sink: listening' "$W/sink.out" && break
	sleep 0.2
done
[ "$i" -lt 50 ] || { cat "$W/sink.out"; die "cm_sink did not start"; }

seed=${CM_FUZZ_SEED:-$(( $(date +%s%N) % 1000000007 ))}
packets=${CM_FUZZ_PACKETS:-$(by_tier 2000 40000)}
# TCP (0x106) and UDP (0x111) port spaces, port 7471; 7473: nobody listens
sids=0x1061d2f,0x1111d2f,0x1061d31
ip netns exec cmfz "$F" --dst 10.0.0.1 --classes cm --cm-src 10.0.0.3 --udp 10.0.0.3 \
	--cm-sid $sids --seed "$seed" --packets "$packets" --pps 300 >"$W/fuzz.out" 2>&1 &
fpid=$!

# the legitimate pair, meanwhile
timeout -k 5 240 rping -s -a 10.0.0.1 -p 7472 -C 100 -S 200 -V >"$W/rping.s" 2>&1 &
rs=$!
sleep 1
timeout -k 5 240 rping -c -a 10.0.0.1 -p 7472 -C 100 -S 200 -V -v >"$W/rping.c" 2>&1
crc=$?
wait "$rs"; src=$?
fuzzing=no
kill -0 "$fpid" 2>/dev/null && fuzzing=yes
echo "rping: client rc $crc ($(grep -c '^ping data' "$W/rping.c") pings), server rc $src; the fuzzing still ran at its end: $fuzzing"
[ "$crc" = 0 ] && [ "$src" = 0 ] || {
	tail -n 5 "$W/rping.c" "$W/rping.s"
	die "rping failed while the CM was fuzzed (replay: CM_FUZZ_SEED=$seed)"
}
wait "$fpid"; frc=$?
grep -E '^wire_fuzz: (seed|cm|sent)' "$W/fuzz.out"
[ "$frc" = 0 ] || { tail -n 20 "$W/fuzz.out"; die "wire_fuzz failed (replay: CM_FUZZ_SEED=$seed)"; }

# the CM took the intact MADs: replies of each kind came back
recv_line=$(grep '^wire_fuzz: cm received' "$W/fuzz.out")
count() { echo "$recv_line" | grep -oE " $1 [0-9]+" | grep -oE '[0-9]+$'; }
for a in REP SIDR_REP REJ; do
	[ "$(count $a)" -gt 0 ] 2>/dev/null ||
		die "no $a came back: the CM MADs did not reach ib_cm (replay: CM_FUZZ_SEED=$seed)"
done
# ... and the intact ones reached the application, and connections were made
for e in CONNECT_REQUEST ESTABLISHED; do
	grep -q "^cm_sink: first RDMA_CM_EVENT_$e" "$W/sink.out" ||
		die "cm_sink saw no $e (replay: CM_FUZZ_SEED=$seed)"
done

# the listener dies with connections half open and established
kill -9 "$spid"
wait "$spid" 2>/dev/null
for ((i = 0; i < 100; i++)); do
	[ "$(cm_ids)" = 0 ] && [ "$(user_qps)" = 0 ] && break
	sleep 0.3
done
[ "$i" -lt 100 ] || {
	rdma res show 2>&1 | sed 's/^/    /'
	die "CM IDs or QPs remain 30 s after cm_sink was killed (replay: CM_FUZZ_SEED=$seed)"
}
echo "cm-wire-fuzz: nothing remains after the listener was killed"

ip netns del cmfz
for m in rdma_ucm rdma_cm ib_cm; do
	rmmod_wait "$m" 60 ||
		die "$m still in use 60 s after the fuzzing (refcnt $(cat /sys/module/$m/refcnt)) (replay: CM_FUZZ_SEED=$seed)"
done
rxe0_down
trap - EXIT
stack_unload || die "the stack does not unload after the fuzzing (replay: CM_FUZZ_SEED=$seed)"
echo "cm-wire-fuzz: ok (seed $seed)"
