#!/bin/bash
# Wire pair "udp-echo", guest B (run by wire-pair.sh, with udp-echo-a.sh in
# the other VM): eth0 gets 10.99.0.2/24, then COUNT datagrams go to A's echo
# server at 10.99.0.1:4790, one at a time, each resent every second until its
# echo comes back (the first one until A has booted), all within DEADLINE
# seconds.  Every echo must carry exactly the payload sent.  Afterwards the
# neighbour table must hold A's MAC.
set -u
# shellcheck source=SCRIPTDIR/../lib.sh
. "$REPO/tools/testing/vm/lib.sh"

ADDR=10.99.0.2
SERVER=10.99.0.1
PORT=4790
COUNT=20
DEADLINE=120
MAC=52:54:00:00:00:02
SERVER_MAC=52:54:00:00:00:01

wire_eth0_up "$ADDR/24" "$MAC"

python3 - "$SERVER" "$PORT" "$COUNT" "$DEADLINE" <<'EOF' || die "UDP echo exchange with $SERVER:$PORT failed"
import os, socket, sys, time
server, port, count, deadline = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
t0 = time.monotonic()
end = t0 + deadline
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 0))
sent_before = {}     # earlier payloads: a late duplicate echo of one is fine
rtts = []
sends = 0
for seq in range(count):
    payload = b"udp-echo %d %s" % (seq, os.urandom(8).hex().encode()) + bytes(range(256)) * 4
    got = False
    while not got:
        now = time.monotonic()
        if now >= end:
            print(f"B: no echo for datagram {seq} within {deadline:.0f} s "
                  f"({sends} datagrams sent)", file=sys.stderr)
            sys.exit(1)
        try:
            s.sendto(payload, (server, port))
            sends += 1
        except OSError as e:          # e.g. neighbour not resolved yet
            print(f"B: send {seq}: {e}", flush=True)
        t_send = time.monotonic()
        retry = t_send + 1.0
        while True:
            now = time.monotonic()
            if now >= retry:
                break
            s.settimeout(retry - now)
            try:
                data, peer = s.recvfrom(65536)
            except socket.timeout:
                break
            except OSError as e:
                print(f"B: recv {seq}: {e}", flush=True)
                break
            if peer != (server, port):
                print(f"B: datagram from unexpected {peer}", file=sys.stderr)
                sys.exit(1)
            if data == payload:
                rtts.append(time.monotonic() - t_send)
                got = True
                break
            if data in sent_before:
                continue
            print(f"B: echo of datagram {seq} differs from what was sent: "
                  f"{len(data)} bytes {data[:40]!r}... vs {len(payload)} bytes {payload[:40]!r}...",
                  file=sys.stderr)
            sys.exit(1)
    if seq == 0:
        print(f"B: first echo after {time.monotonic() - t0:.1f} s ({sends} sends)", flush=True)
    sent_before[payload] = seq
ms = sorted(r * 1000 for r in rtts)
print(f"B: {count}/{count} echoes match ({len(payload)} bytes each, {sends} sends); "
      f"rtt ms min {ms[0]:.1f} median {ms[len(ms) // 2]:.1f} max {ms[-1]:.1f}; "
      f"total {time.monotonic() - t0:.1f} s", flush=True)
EOF

ip neigh show dev eth0
ip neigh show "$SERVER" dev eth0 | grep -qi "lladdr $SERVER_MAC" ||
	die "no neighbour entry $SERVER lladdr $SERVER_MAC on eth0"
echo "B: ok"
