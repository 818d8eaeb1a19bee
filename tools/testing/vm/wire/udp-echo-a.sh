#!/bin/bash
# Wire pair "udp-echo", guest A (run by wire-pair.sh, with udp-echo-b.sh in
# the other VM): eth0 gets 10.99.0.1/24, then a UDP echo server on
# 10.99.0.1:4790 answers every datagram until it has answered COUNT distinct
# ones ("udp-echo <seq> ..."), lingers a few seconds for B's retries, and
# exits.  Fails if B has not been served within DEADLINE seconds.
# tier: full (the rxe-interop pair covers the wire in make check)
set -u
# shellcheck source=SCRIPTDIR/../lib.sh
. "$REPO/tools/testing/vm/lib.sh"

ADDR=10.99.0.1
PORT=4790
COUNT=20
DEADLINE=120
MAC=52:54:00:00:00:01
PEER=10.99.0.2
PEER_MAC=52:54:00:00:00:02

wire_eth0_up "$ADDR/24" "$MAC"

python3 - "$ADDR" "$PORT" "$COUNT" "$DEADLINE" <<'EOF' || die "echo server failed"
import socket, sys, time
addr, port, count, deadline = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
end = time.monotonic() + deadline
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((addr, port))
print(f"A: echo server on {addr}:{port}, waiting for {count} datagrams", flush=True)
seen = set()
answered = 0
linger_end = None
while True:
    now = time.monotonic()
    stop = linger_end if linger_end is not None else end
    if now >= stop:
        break
    s.settimeout(stop - now)
    try:
        data, peer = s.recvfrom(65536)
    except socket.timeout:
        break
    s.sendto(data, peer)
    answered += 1
    f = data.split()
    if len(f) >= 2 and f[0] == b"udp-echo":
        seen.add(f[1])
    if len(seen) >= count and linger_end is None:
        print(f"A: {count} distinct datagrams answered (from {peer[0]}:{peer[1]})", flush=True)
        # B may still retry its last datagram if our answer got lost
        linger_end = min(end, time.monotonic() + 3)
print(f"A: answered {answered} datagrams, {len(seen)} distinct", flush=True)
if len(seen) < count:
    print(f"A: only {len(seen)} of {count} distinct datagrams within {deadline:.0f} s", file=sys.stderr)
    sys.exit(1)
EOF

ip neigh show dev eth0
ip neigh show "$PEER" dev eth0 | grep -qi "lladdr $PEER_MAC" ||
	die "no neighbour entry $PEER lladdr $PEER_MAC on eth0"
echo "A: ok"
