#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# roce_inject.py SRC DST KIND...: send hand-made RoCEv2 packets (raw IPv4,
# IP_HDRINCL, any source address) whose ICRC is computed here with zlib,
# independently of the kernel.  KIND: gsi (UD SEND_ONLY to QP1 with the
# GSI Q_Key and a junk 256-byte MAD), badicrc (the same, ICRC off by one
# bit), badop (opcode 0x66), badqkey (Q_Key 0x1234), noqp (destination QPN
# 0x4242); and to a connected QP, with 64 bytes of 0xee:
#   {rc,uc}write:QPN:PSN:RKEY:VA   RDMA WRITE_ONLY
#   {rc,uc}send:QPN:PSN            SEND_ONLY
import socket, struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]
def pkt(op, qpn, body, qkey=0x80010000, corrupt=False, psn=7, ext=None):
    bth = bytes([op, 0x00, 0xff, 0xff, 0]) + qpn.to_bytes(3, 'big') + b'\0' + psn.to_bytes(3, 'big')
    deth = struct.pack('>I', qkey) + b'\0' + (1).to_bytes(3, 'big')
    if ext is None:
        ext = deth if op in (0x64, 0x65) else b''
    l4 = bth + ext + body
    ulen = 8 + len(l4) + 4
    udp = struct.pack('>HHHH', 0xc001, 4791, ulen, 0)
    tot = 20 + ulen
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, tot, 0x1234, 0x4000, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    m = bytearray(ip + udp + l4)
    m[1] = 0xff; m[8] = 0xff; m[10] = m[11] = 0xff
    m[26] = m[27] = 0xff
    m[28 + 4] = 0xff
    icrc = zlib.crc32(b'\xff' * 8 + bytes(m)) & 0xffffffff
    if corrupt:
        icrc ^= 1
    return ip + udp + l4 + struct.pack('<I', icrc)
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
mad = bytes([1, 1, 1, 0x81]) + bytes(252)   # junk MAD
data = b'\xee' * 64
# transport bits of the opcode, and the WRITE_ONLY / SEND_ONLY opcodes
TR = {'rc': 0x00, 'uc': 0x20}
def connected(kind):
    name, *args = kind.split(':')
    tr, op = TR[name[:2]], name[2:]
    if op == 'write':
        qpn, psn, rkey, va = (int(a, 0) for a in args)
        reth = struct.pack('>QII', va, rkey, len(data))
        return pkt(tr | 0x0a, qpn, data, psn=psn, ext=reth)
    qpn, psn = (int(a, 0) for a in args)
    return pkt(tr | 0x04, qpn, data, psn=psn, ext=b'')
for kind in sys.argv[3:]:
    if ':' in kind:
        p = connected(kind)
    else:
        p = {'gsi': lambda: pkt(0x64, 1, mad),
             'badicrc': lambda: pkt(0x64, 1, mad, corrupt=True),
             'badop': lambda: pkt(0x66, 1, mad),
             'badqkey': lambda: pkt(0x64, 1, mad, qkey=0x1234),
             'noqp': lambda: pkt(0x64, 0x4242, mad)}[kind]()
    s.sendto(p, (dst, 0))
print('sent', sys.argv[3:])
