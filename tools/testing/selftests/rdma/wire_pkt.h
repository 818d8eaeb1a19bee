// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz's packet builder: the IBTA transport headers it forges, one
// packet as fields, its bytes, and the RoCEv2 ICRC over them.
#ifndef WIRE_PKT_H
#define WIRE_PKT_H

#include <netinet/in.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wire_fuzz {

/* ---- the IBTA transport headers we forge ---- */

enum {
	TR_RC = 0x00, TR_UC = 0x20, TR_RD = 0x40, TR_UD = 0x60, TR_CNP = 0x80, TR_XRC = 0xa0,
};

enum {
	OP_SEND_FIRST, OP_SEND_MIDDLE, OP_SEND_LAST, OP_SEND_LAST_IMM, OP_SEND_ONLY,
	OP_SEND_ONLY_IMM, OP_WRITE_FIRST, OP_WRITE_MIDDLE, OP_WRITE_LAST, OP_WRITE_LAST_IMM,
	OP_WRITE_ONLY, OP_WRITE_ONLY_IMM, OP_READ_REQ, OP_READ_RESP_FIRST, OP_READ_RESP_MIDDLE,
	OP_READ_RESP_LAST, OP_READ_RESP_ONLY, OP_ACK, OP_ATOMIC_ACK, OP_CMP_SWAP, OP_FETCH_ADD,
	OP_RESERVED_21, OP_SEND_LAST_INV, OP_SEND_ONLY_INV,
};

/* extension headers, in wire order, and the payload flag */
enum {
	H_DETH = 1 << 0,	/* 8 */
	H_RETH = 1 << 1,	/* 16 */
	H_ATMETH = 1 << 2,	/* 28 */
	H_AETH = 1 << 3,	/* 4 */
	H_ATMACK = 1 << 4,	/* 8 */
	H_IMM = 1 << 5,		/* 4 */
	H_IETH = 1 << 6,	/* 4 */
	H_PAY = 1 << 7,		/* carries a payload */
	H_RESP = 1 << 8,	/* a response (to a requester) */
	H_VALID = 1 << 9,	/* an opcode the RC/UC/UD receivers implement */
};

const int BTH_LEN = 12;
const int PSN_MASK = 0xffffff;

/* headers of @opcode as IBTA 9.2 defines them for RC, UC and UD */
unsigned op_hdrs(uint8_t opcode);
/* bytes of the extension headers in @h */
size_t ext_len(unsigned h);
/* big-endian appends */
void put32(std::vector<uint8_t> &b, uint32_t v);
void put64(std::vector<uint8_t> &b, uint64_t v);

/* ---- one packet ---- */

struct packet {
	uint8_t opcode = 0;
	uint8_t flags = 0;		/* BTH byte 1 (SE, M, pad, TVer) */
	uint16_t pkey = 0xffff;
	uint32_t qpn = 0, psn = 0;
	bool ackreq = false;
	std::vector<uint8_t> ext;	/* extension headers */
	std::vector<uint8_t> pay;
	int pad = -1;			/* -1: the right one */
	in_addr_t src = 0;
	bool src_martian = false;	/* the IP layer may drop it */
	bool bad_icrc = false;
	int cut = -1;			/* keep this many bytes of BTH..pad */
	uint8_t ihl = 5;		/* > 5: IP options (NOPs) */
	int udplen_delta = 0;		/* raw: UDP length off by this */
	bool via_udp = false;
};

/* the transport part (BTH through pad), no ICRC */
std::vector<uint8_t> l4_bytes(const packet &p);

/* the CRC-32 table; once, before icrc() */
void crc_init();
/*
 * The ICRC of @pkt (IPv4 header first, through the pad): masked copy of
 * TOS, TTL, header checksum, UDP checksum and BTH resv8a.
 */
uint32_t icrc(const std::vector<uint8_t> &pkt);

} // namespace wire_fuzz

#endif
