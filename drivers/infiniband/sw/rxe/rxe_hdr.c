// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The opcode table and the receive parser (rxe_hdr.h).  Pure: builds on
 * the host too.
 *
 * One table per transport, indexed by the operation bits (opcode & 0x1f).
 * Each entry names the extended headers present; the header length and
 * the offset of each present header follow from that mask at compile
 * time (wire order: DETH, FETH, RETH, AtomicETH, AETH, AtomicAckETH,
 * ImmDt, IETH).  Offsets of absent headers are 0.
 *
 * Meaning flags, as the data path reads them:
 *   START   first packet of a message      MIDDLE  neither first nor last
 *   END     last packet of a message       COMP    the same as END, for
 *           responses too (the packet that completes a message)
 *   RWR     a request that consumes a receive WQE: the first packet of a
 *           send, and the RDMA writes with immediate that end a message
 *   ACK_REQ an RC request the responder must answer: the last packet of
 *           every RC request message (reads and atomics are one packet)
 */
#include "rxe_hdr.h"

/* bytes of header @t if @m has it */
#define RXE_HL(m, t, n)		(((m) & (1U << (t))) ? (n) : 0)

#define RXE_AT_DETH(m)		RXE_BTH_LEN
#define RXE_AT_FETH(m)		(RXE_AT_DETH(m) + RXE_HL(m, RXE_HDR_DETH, RXE_DETH_LEN))
#define RXE_AT_RETH(m)		(RXE_AT_FETH(m) + RXE_HL(m, RXE_HDR_FETH, RXE_FETH_LEN))
#define RXE_AT_ATMETH(m)	(RXE_AT_RETH(m) + RXE_HL(m, RXE_HDR_RETH, RXE_RETH_LEN))
#define RXE_AT_AETH(m)		(RXE_AT_ATMETH(m) + RXE_HL(m, RXE_HDR_ATMETH, RXE_ATMETH_LEN))
#define RXE_AT_ATMACK(m)	(RXE_AT_AETH(m) + RXE_HL(m, RXE_HDR_AETH, RXE_AETH_LEN))
#define RXE_AT_IMMDT(m)		(RXE_AT_ATMACK(m) + RXE_HL(m, RXE_HDR_ATMACK, RXE_ATMACK_LEN))
#define RXE_AT_IETH(m)		(RXE_AT_IMMDT(m) + RXE_HL(m, RXE_HDR_IMMDT, RXE_IMMDT_LEN))
#define RXE_AT_END(m)		(RXE_AT_IETH(m) + RXE_HL(m, RXE_HDR_IETH, RXE_IETH_LEN))

/* offset of header @t if present, else 0 */
#define RXE_OFF(m, t, at)	((u8)(((m) & (1U << (t))) ? (at) : 0))

#define RXE_OPC(str, m) {						\
	.name = (str),							\
	.mask = (m),							\
	.hdr_len = (u8)RXE_AT_END(m),					\
	.offset = {							\
		RXE_OFF(m, RXE_HDR_DETH, RXE_AT_DETH(m)),		\
		RXE_OFF(m, RXE_HDR_FETH, RXE_AT_FETH(m)),		\
		RXE_OFF(m, RXE_HDR_RETH, RXE_AT_RETH(m)),		\
		RXE_OFF(m, RXE_HDR_ATMETH, RXE_AT_ATMETH(m)),		\
		RXE_OFF(m, RXE_HDR_AETH, RXE_AT_AETH(m)),		\
		RXE_OFF(m, RXE_HDR_ATMACK, RXE_AT_ATMACK(m)),		\
		RXE_OFF(m, RXE_HDR_IMMDT, RXE_AT_IMMDT(m)),		\
		RXE_OFF(m, RXE_HDR_IETH, RXE_AT_IETH(m)),		\
	},								\
}
#define RXE_NO_OPC { .name = NULL, .mask = 0, .hdr_len = 0, .offset = { 0 } }

/* building blocks */
#define RQ	(RXE_REQ_MASK)
#define PL	(RXE_PAYLOAD_MASK)
#define FIRST	(RXE_START_MASK)
#define MID	(RXE_MIDDLE_MASK)
#define LAST	(RXE_END_MASK | RXE_COMP_MASK)
#define ONLY	(RXE_START_MASK | RXE_END_MASK | RXE_COMP_MASK)
#define SND	(RQ | PL | RXE_SEND_MASK)
#define WR	(RQ | PL | RXE_WRITE_MASK)
#define RSP	(RXE_RESP_MASK)
/* what RC adds to its request messages' last packets */
#define ARQ	(RXE_ACK_REQ_MASK)

/* UC and RC share the send and write opcodes */
#define RXE_SEND_WRITE_TABLE(T, A)					\
	RXE_OPC(T "_SEND_FIRST", SND | FIRST | RXE_RWR_MASK),		\
	RXE_OPC(T "_SEND_MIDDLE", SND | MID),				\
	RXE_OPC(T "_SEND_LAST", SND | LAST | (A)),			\
	RXE_OPC(T "_SEND_LAST_WITH_IMMEDIATE",				\
		SND | LAST | RXE_IMMDT_MASK | (A)),			\
	RXE_OPC(T "_SEND_ONLY", SND | ONLY | RXE_RWR_MASK | (A)),	\
	RXE_OPC(T "_SEND_ONLY_WITH_IMMEDIATE",				\
		SND | ONLY | RXE_RWR_MASK | RXE_IMMDT_MASK | (A)),	\
	RXE_OPC(T "_RDMA_WRITE_FIRST", WR | FIRST | RXE_RETH_MASK),	\
	RXE_OPC(T "_RDMA_WRITE_MIDDLE", WR | MID),			\
	RXE_OPC(T "_RDMA_WRITE_LAST", WR | LAST | (A)),			\
	RXE_OPC(T "_RDMA_WRITE_LAST_WITH_IMMEDIATE",			\
		WR | LAST | RXE_RWR_MASK | RXE_IMMDT_MASK | (A)),	\
	RXE_OPC(T "_RDMA_WRITE_ONLY", WR | ONLY | RXE_RETH_MASK | (A)),	\
	RXE_OPC(T "_RDMA_WRITE_ONLY_WITH_IMMEDIATE",			\
		WR | ONLY | RXE_RWR_MASK | RXE_RETH_MASK |		\
		RXE_IMMDT_MASK | (A))

/*
 * RC: operations 0x00 .. 0x1d; not ours: 0x15 (RDMA WRITE with atomic),
 * 0x18 .. 0x1b (reserved)
 */
static const struct rxe_opcode_info rxe_rc_ops[] = {
	RXE_SEND_WRITE_TABLE("RC", ARQ),
	RXE_OPC("RC_RDMA_READ_REQUEST",
		RQ | RXE_READ_MASK | ONLY | RXE_RETH_MASK | ARQ),
	RXE_OPC("RC_RDMA_READ_RESPONSE_FIRST",
		RSP | PL | RXE_READ_MASK | FIRST | RXE_AETH_MASK),
	RXE_OPC("RC_RDMA_READ_RESPONSE_MIDDLE",
		RSP | PL | RXE_READ_MASK | MID),
	RXE_OPC("RC_RDMA_READ_RESPONSE_LAST",
		RSP | PL | RXE_READ_MASK | LAST | RXE_AETH_MASK),
	RXE_OPC("RC_RDMA_READ_RESPONSE_ONLY",
		RSP | PL | RXE_READ_MASK | ONLY | RXE_AETH_MASK),
	RXE_OPC("RC_ACKNOWLEDGE", RSP | ONLY | RXE_AETH_MASK),
	RXE_OPC("RC_ATOMIC_ACKNOWLEDGE",
		RSP | RXE_ATOMIC_MASK | ONLY | RXE_AETH_MASK |
		RXE_ATMACK_MASK),
	RXE_OPC("RC_COMPARE_SWAP",
		RQ | RXE_ATOMIC_MASK | ONLY | RXE_ATMETH_MASK | ARQ),
	RXE_OPC("RC_FETCH_ADD",
		RQ | RXE_ATOMIC_MASK | ONLY | RXE_ATMETH_MASK | ARQ),
	RXE_NO_OPC,
	RXE_OPC("RC_SEND_LAST_WITH_INVALIDATE",
		SND | LAST | RXE_IETH_MASK | ARQ),
	RXE_OPC("RC_SEND_ONLY_WITH_INVALIDATE",
		SND | ONLY | RXE_RWR_MASK | RXE_IETH_MASK | ARQ),
	RXE_NO_OPC, RXE_NO_OPC, RXE_NO_OPC, RXE_NO_OPC,
	/* FLUSH and ATOMIC WRITE: one packet, a resource, an empty answer */
	RXE_OPC("RC_RDMA_FLUSH",
		RQ | RXE_FLUSH_MASK | ONLY | RXE_FETH_MASK | RXE_RETH_MASK | ARQ),
	RXE_OPC("RC_RDMA_ATOMIC_WRITE",
		RQ | PL | RXE_ATOMIC_WRITE_MASK | ONLY | RXE_RETH_MASK | ARQ),
};

/* UC: sends 0x00 .. 0x05, writes 0x06 .. 0x0b */
static const struct rxe_opcode_info rxe_uc_ops[] = {
	RXE_SEND_WRITE_TABLE("UC", 0),
};

/* UD: SEND_ONLY (0x04) and SEND_ONLY_WITH_IMMEDIATE (0x05) */
static const struct rxe_opcode_info rxe_ud_ops[] = {
	RXE_OPC("UD_SEND_ONLY", SND | ONLY | RXE_RWR_MASK | RXE_DETH_MASK),
	RXE_OPC("UD_SEND_ONLY_WITH_IMMEDIATE",
		SND | ONLY | RXE_RWR_MASK | RXE_DETH_MASK | RXE_IMMDT_MASK),
};

#define RXE_ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

const struct rxe_opcode_info *rxe_opcode_info(u8 opcode)
{
	const struct rxe_opcode_info *oi = NULL;
	unsigned int op = opcode & ~RXE_TR_MASK & 0xff;

	switch (opcode & RXE_TR_MASK) {
	case RXE_TR_RC:
		if (op < RXE_ARRAY_LEN(rxe_rc_ops))
			oi = &rxe_rc_ops[op];
		break;
	case RXE_TR_UC:
		if (op < RXE_ARRAY_LEN(rxe_uc_ops))
			oi = &rxe_uc_ops[op];
		break;
	case RXE_TR_UD:
		if (op >= RXE_OP_SEND_ONLY &&
		    op - RXE_OP_SEND_ONLY < RXE_ARRAY_LEN(rxe_ud_ops))
			oi = &rxe_ud_ops[op - RXE_OP_SEND_ONLY];
		break;
	default:
		break;
	}
	return oi && oi->name ? oi : NULL;
}

enum rxe_parse_err rxe_hdr_parse(const u8 *bth, u32 len,
				 struct rxe_hdr_info *info)
{
	const struct rxe_opcode_info *oi;
	u32 body, pad, paylen;
	u8 flags = 0;

	if (len < RXE_BTH_LEN + RXE_ICRC_LEN)
		return RXE_PARSE_SHORT;
	if (rxe_bth_tver(bth) != RXE_BTH_TVER)
		return RXE_PARSE_TVER;
	oi = rxe_opcode_info(rxe_bth_opcode(bth));
	if (!oi)
		return RXE_PARSE_OPCODE;
	if (len < (u32)oi->hdr_len + RXE_ICRC_LEN)
		return RXE_PARSE_SHORT;

	/* payload and pad, between the headers and the ICRC */
	body = len - oi->hdr_len - RXE_ICRC_LEN;
	pad = rxe_bth_pad(bth);
	if (!(oi->mask & RXE_PAYLOAD_MASK)) {
		if (body || pad)
			return RXE_PARSE_LENGTH;
	} else if (pad >= body && (pad || body)) {
		/* pad only after at least one payload byte */
		return RXE_PARSE_LENGTH;
	}
	paylen = body - pad;
	if (paylen > 0xffff)
		return RXE_PARSE_LENGTH;

	if (rxe_bth_se(bth))
		flags |= RXE_INFO_SE;
	if (rxe_bth_ackreq(bth))
		flags |= RXE_INFO_ACKREQ;
	if (rxe_bth_mig(bth))
		flags |= RXE_INFO_MIG;
	if (rxe_bth_fecn(bth))
		flags |= RXE_INFO_FECN;
	if (rxe_bth_becn(bth))
		flags |= RXE_INFO_BECN;

	info->mask = oi->mask;
	info->psn = rxe_bth_psn(bth);
	info->qpn = rxe_bth_qpn(bth);
	info->pkey = rxe_bth_pkey(bth);
	info->paylen = (u16)paylen;
	info->opcode = rxe_bth_opcode(bth);
	info->hdr_len = oi->hdr_len;
	info->pad = (u8)pad;
	info->flags = flags;
	return RXE_PARSE_OK;
}
