/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The RoCEv2 wire format as rxe sends and receives it: base and extended
 * transport headers (IBTA vol. 1, ch. 9), the opcode table, the receive
 * parser, PSN arithmetic and the ICRC.  One definition for both
 * directions.  Type-level only: rxe_hdr.c and rxe_icrc.c also build as
 * C++ on the host (tools/testing/unit), where they are unit-tested and
 * fuzzed.
 *
 * Multi-byte fields are big-endian on the wire; the accessors below read
 * and write them byte by byte, so they work on any host and on unaligned
 * buffers.  Every accessor takes a pointer to the start of its header.
 */
#ifndef _RXE_HDR_H
#define _RXE_HDR_H

#include <linux/types.h>

/* ---- header lengths (bytes) ---- */
#define RXE_BTH_LEN		12
#define RXE_RETH_LEN		16
#define RXE_AETH_LEN		4
#define RXE_ATMETH_LEN		28
#define RXE_ATMACK_LEN		8
#define RXE_DETH_LEN		8
#define RXE_FETH_LEN		4
#define RXE_IMMDT_LEN		4
#define RXE_IETH_LEN		4
#define RXE_ICRC_LEN		4
/* the longest BTH + extended headers of any opcode */
#define RXE_MAX_HDR_LEN		(RXE_BTH_LEN + RXE_ATMETH_LEN)

#define RXE_PSN_MASK		0xffffffU
#define RXE_QPN_MASK		0xffffffU
/* destination QPN of multicast UD packets */
#define RXE_MCAST_QPN		0xffffffU
#define RXE_BTH_TVER		0
#define RXE_DEFAULT_PKEY	0xffff
/* Q_Keys with the high bit set are privileged (GSI's is 0x80010000) */
#define RXE_GSI_QKEY		0x80010000U

/* ---- opcodes: transport (bits 7..5) | operation (bits 4..0) ---- */
enum rxe_transport {
	RXE_TR_RC = 0x00,
	RXE_TR_UC = 0x20,
	RXE_TR_RD = 0x40,
	RXE_TR_UD = 0x60,
};

#define RXE_TR_MASK		0xe0

enum rxe_op {
	RXE_OP_SEND_FIRST = 0x00,
	RXE_OP_SEND_MIDDLE = 0x01,
	RXE_OP_SEND_LAST = 0x02,
	RXE_OP_SEND_LAST_IMM = 0x03,
	RXE_OP_SEND_ONLY = 0x04,
	RXE_OP_SEND_ONLY_IMM = 0x05,
	RXE_OP_WRITE_FIRST = 0x06,
	RXE_OP_WRITE_MIDDLE = 0x07,
	RXE_OP_WRITE_LAST = 0x08,
	RXE_OP_WRITE_LAST_IMM = 0x09,
	RXE_OP_WRITE_ONLY = 0x0a,
	RXE_OP_WRITE_ONLY_IMM = 0x0b,
	RXE_OP_READ_REQ = 0x0c,
	RXE_OP_READ_RESP_FIRST = 0x0d,
	RXE_OP_READ_RESP_MIDDLE = 0x0e,
	RXE_OP_READ_RESP_LAST = 0x0f,
	RXE_OP_READ_RESP_ONLY = 0x10,
	RXE_OP_ACK = 0x11,
	RXE_OP_ATOMIC_ACK = 0x12,
	RXE_OP_CMP_SWAP = 0x13,
	RXE_OP_FETCH_ADD = 0x14,
	RXE_OP_SEND_LAST_INV = 0x16,
	RXE_OP_SEND_ONLY_INV = 0x17,
	RXE_OP_FLUSH = 0x1c,		/* RC only (IBTA 1.5, annex A19) */
	RXE_OP_ATOMIC_WRITE = 0x1d,	/* RC only (IBTA 1.5, annex A19) */
};

/* e.g. RXE_OPCODE(RXE_TR_UC, RXE_OP_SEND_ONLY) */
#define RXE_OPCODE(tr, op)	((u8)((tr) | (op)))

/*
 * What an opcode carries and means: one mask per opcode in the table
 * (rxe_opcode_info()).  The first group names the headers present, in
 * wire order after the BTH.
 */
enum rxe_hdr_type {
	RXE_HDR_DETH,
	RXE_HDR_FETH,		/* FLUSH: before its RETH (IBTA 1.5, A19.4.1) */
	RXE_HDR_RETH,
	RXE_HDR_ATMETH,
	RXE_HDR_AETH,
	RXE_HDR_ATMACK,
	RXE_HDR_IMMDT,
	RXE_HDR_IETH,
	RXE_NUM_HDR_TYPES
};

enum rxe_hdr_mask {
	RXE_DETH_MASK = 1U << RXE_HDR_DETH,
	RXE_FETH_MASK = 1U << RXE_HDR_FETH,
	RXE_RETH_MASK = 1U << RXE_HDR_RETH,
	RXE_ATMETH_MASK = 1U << RXE_HDR_ATMETH,
	RXE_AETH_MASK = 1U << RXE_HDR_AETH,
	RXE_ATMACK_MASK = 1U << RXE_HDR_ATMACK,
	RXE_IMMDT_MASK = 1U << RXE_HDR_IMMDT,
	RXE_IETH_MASK = 1U << RXE_HDR_IETH,

	RXE_PAYLOAD_MASK = 1U << 8,	/* may carry payload */
	RXE_REQ_MASK = 1U << 9,		/* a request (responder's input) */
	RXE_RESP_MASK = 1U << 10,	/* a response (completer's input) */
	RXE_SEND_MASK = 1U << 11,
	RXE_WRITE_MASK = 1U << 12,
	RXE_READ_MASK = 1U << 13,
	RXE_ATOMIC_MASK = 1U << 14,
	RXE_RWR_MASK = 1U << 15,	/* consumes a receive WQE */
	RXE_COMP_MASK = 1U << 16,	/* last packet of a message */
	RXE_START_MASK = 1U << 17,	/* first packet of a message */
	RXE_MIDDLE_MASK = 1U << 18,
	RXE_END_MASK = 1U << 19,	/* = COMP for requests */
	RXE_ACK_REQ_MASK = 1U << 20,	/* the responder must answer it */
	/* RDMA ATOMIC WRITE: RETH and exactly 8 payload bytes */
	RXE_ATOMIC_WRITE_MASK = 1U << 21,
	/* RDMA FLUSH: FETH, RETH, no payload */
	RXE_FLUSH_MASK = 1U << 22,
};

struct rxe_opcode_info {
	const char *name;	/* "RC_SEND_FIRST" ...; NULL: not an opcode */
	u32 mask;		/* enum rxe_hdr_mask */
	u8 hdr_len;		/* BTH + extended headers */
	/* offset of each present header from the BTH start */
	u8 offset[RXE_NUM_HDR_TYPES];
};

/* rxe_hdr.c: the table entry of @opcode, or NULL if we do not handle it */
const struct rxe_opcode_info *rxe_opcode_info(u8 opcode);

/*
 * A parsed packet: what the receive path and the transport need without
 * going back to the table.  Fits in skb->cb together with two pointers.
 */
struct rxe_hdr_info {
	u32 mask;		/* the opcode's mask */
	u32 psn;
	u32 qpn;		/* destination QPN */
	u16 pkey;
	u16 paylen;		/* payload bytes without pad and ICRC */
	u8 opcode;
	u8 hdr_len;		/* BTH + extended headers */
	u8 pad;			/* pad bytes after the payload */
	u8 flags;		/* RXE_INFO_* */
};

enum {
	RXE_INFO_SE = 1 << 0,		/* solicited event */
	RXE_INFO_ACKREQ = 1 << 1,	/* BTH A bit */
	RXE_INFO_MIG = 1 << 2,
	RXE_INFO_FECN = 1 << 3,
	RXE_INFO_BECN = 1 << 4,
};

/* why rxe_hdr_parse() refused a packet (a counter each in the driver) */
enum rxe_parse_err {
	RXE_PARSE_OK = 0,
	RXE_PARSE_SHORT,	/* shorter than its headers + ICRC */
	RXE_PARSE_TVER,		/* transport version is not 0 */
	RXE_PARSE_OPCODE,	/* unknown or unsupported opcode */
	RXE_PARSE_LENGTH,	/* pad or payload impossible for the opcode */
};

/*
 * Parse the transport part of a received packet: @bth points at the BTH,
 * @len counts from there through the ICRC (the UDP payload).  Checks only
 * what needs no QP: lengths, version, opcode, pad; fills @info.
 */
enum rxe_parse_err rxe_hdr_parse(const u8 *bth, u32 len,
				 struct rxe_hdr_info *info);

/* ---- PSN arithmetic (24-bit serial numbers) ---- */

/* a - b as a signed distance in (-2^23, 2^23] */
static inline s32 rxe_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static inline u32 rxe_psn_add(u32 psn, u32 n)
{
	return (psn + n) & RXE_PSN_MASK;
}

/* ---- ICRC (rxe_icrc.c) ---- */

/*
 * RoCEv2 ICRC: CRC-32 over 8 bytes of 0xff, the IP header with its
 * variant fields masked to ones (IPv4: TOS, TTL, checksum; IPv6: traffic
 * class, flow label, hop limit), the UDP header with its checksum masked,
 * the BTH with resv8a (byte 4) masked, and the rest through the pad.
 * @l3 is the IPv4 or IPv6 header (version from its first nibble), @len
 * the bytes from there to the end of the pad; the ICRC follows at
 * @l3 + @len.  rxe_icrc_put() stores it, rxe_icrc_ok() checks it.
 * A @len too short for the IP + UDP + BTH headers: _ok is false, _put
 * writes nothing.
 */
void rxe_icrc_put(u8 *l3, u32 len);
bool rxe_icrc_ok(const u8 *l3, u32 len);
/* plain CRC-32 (IEEE, reflected) of @buf continuing from @crc */
u32 rxe_crc32(u32 crc, const void *buf, u32 len);

/* ---- byte access ---- */

static inline u16 rxe_get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 rxe_get24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
}

static inline u32 rxe_get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 rxe_get64(const u8 *p)
{
	return (u64)rxe_get32(p) << 32 | rxe_get32(p + 4);
}

static inline void rxe_put16(u8 *p, u16 v)
{
	p[0] = (u8)((v >> 8) & 0xff);
	p[1] = (u8)(v & 0xff);
}

static inline void rxe_put24(u8 *p, u32 v)
{
	p[0] = (u8)((v >> 16) & 0xff);
	p[1] = (u8)((v >> 8) & 0xff);
	p[2] = (u8)(v & 0xff);
}

static inline void rxe_put32(u8 *p, u32 v)
{
	p[0] = (u8)((v >> 24) & 0xff);
	p[1] = (u8)((v >> 16) & 0xff);
	p[2] = (u8)((v >> 8) & 0xff);
	p[3] = (u8)(v & 0xff);
}

static inline void rxe_put64(u8 *p, u64 v)
{
	rxe_put32(p, (u32)(v >> 32));
	rxe_put32(p + 4, (u32)v);
}

/* ---- BTH ---- */

static inline u8 rxe_bth_opcode(const u8 *bth)
{
	return bth[0];
}

static inline bool rxe_bth_se(const u8 *bth)
{
	return bth[1] & 0x80;
}

static inline bool rxe_bth_mig(const u8 *bth)
{
	return bth[1] & 0x40;
}

static inline u8 rxe_bth_pad(const u8 *bth)
{
	return (bth[1] >> 4) & 3;
}

static inline u8 rxe_bth_tver(const u8 *bth)
{
	return bth[1] & 0xf;
}

static inline u16 rxe_bth_pkey(const u8 *bth)
{
	return rxe_get16(bth + 2);
}

static inline bool rxe_bth_fecn(const u8 *bth)
{
	return bth[4] & 0x80;
}

static inline bool rxe_bth_becn(const u8 *bth)
{
	return bth[4] & 0x40;
}

static inline u32 rxe_bth_qpn(const u8 *bth)
{
	return rxe_get24(bth + 5);
}

static inline bool rxe_bth_ackreq(const u8 *bth)
{
	return bth[8] & 0x80;
}

static inline u32 rxe_bth_psn(const u8 *bth)
{
	return rxe_get24(bth + 9);
}

/* a whole BTH; reserved bits zero, TVer 0 */
static inline void rxe_bth_set(u8 *bth, u8 opcode, bool se, u8 pad, u16 pkey,
			       u32 qpn, bool ackreq, u32 psn)
{
	bth[0] = opcode;
	bth[1] = (u8)((se ? 0x80 : 0) | (pad & 3) << 4 | RXE_BTH_TVER);
	rxe_put16(bth + 2, pkey);
	bth[4] = 0;
	rxe_put24(bth + 5, qpn & RXE_QPN_MASK);
	bth[8] = ackreq ? 0x80 : 0;
	rxe_put24(bth + 9, psn & RXE_PSN_MASK);
}

/* ---- RETH: virtual address, R_Key, DMA length ---- */

static inline u64 rxe_reth_va(const u8 *h) { return rxe_get64(h); }
static inline u32 rxe_reth_rkey(const u8 *h) { return rxe_get32(h + 8); }
static inline u32 rxe_reth_len(const u8 *h) { return rxe_get32(h + 12); }

static inline void rxe_reth_set(u8 *h, u64 va, u32 rkey, u32 len)
{
	rxe_put64(h, va);
	rxe_put32(h + 8, rkey);
	rxe_put32(h + 12, len);
}

/* ---- FETH (FLUSH): placement type bits 3..0, selectivity bits 5..4 ---- */

enum {
	RXE_FLUSH_GLOBAL = 1 << 0,	/* placement: global visibility */
	RXE_FLUSH_PERSISTENT = 1 << 1,	/* placement: persistence */
	RXE_FLUSH_RANGE = 0,		/* selectivity: the RETH's range */
	RXE_FLUSH_MR = 1,		/* selectivity: the whole region */
};

static inline u8 rxe_feth_plt(const u8 *h) { return h[3] & 0x0f; }
static inline u8 rxe_feth_sel(const u8 *h) { return (h[3] >> 4) & 0x03; }
static inline u32 rxe_feth_reserved(const u8 *h) { return rxe_get32(h) & ~0x3fU; }

static inline void rxe_feth_set(u8 *h, u8 plt, u8 sel)
{
	rxe_put32(h, (u32)(plt & 0x0f) | (u32)(sel & 0x03) << 4);
}

/* ---- AETH: syndrome and MSN ---- */

/* syndrome bits 6..5 */
enum rxe_aeth_type {
	RXE_AETH_ACK = 0x00,
	RXE_AETH_RNR_NAK = 0x20,
	RXE_AETH_NAK = 0x60,
};

#define RXE_AETH_TYPE_MASK	0x60
#define RXE_AETH_VALUE_MASK	0x1f	/* credits, RNR timer or NAK code */
/* an ACK that advertises no end-to-end credits */
#define RXE_AETH_NO_CREDITS	0x1f

enum rxe_nak_code {
	RXE_NAK_PSN_SEQ = 0,
	RXE_NAK_INVALID_REQ = 1,
	RXE_NAK_REMOTE_ACCESS = 2,
	RXE_NAK_REMOTE_OP = 3,
	RXE_NAK_INVALID_RD_REQ = 4,
};

static inline u8 rxe_aeth_syn(const u8 *h) { return h[0]; }
static inline u32 rxe_aeth_msn(const u8 *h) { return rxe_get24(h + 1); }

static inline void rxe_aeth_set(u8 *h, u8 syn, u32 msn)
{
	h[0] = syn;
	rxe_put24(h + 1, msn);
}

/* ---- AtomicETH: VA, R_Key, swap (or add) data, compare data ---- */

static inline u64 rxe_atmeth_va(const u8 *h) { return rxe_get64(h); }
static inline u32 rxe_atmeth_rkey(const u8 *h) { return rxe_get32(h + 8); }
static inline u64 rxe_atmeth_swap_add(const u8 *h) { return rxe_get64(h + 12); }
static inline u64 rxe_atmeth_comp(const u8 *h) { return rxe_get64(h + 20); }

static inline void rxe_atmeth_set(u8 *h, u64 va, u32 rkey, u64 swap_add,
				  u64 comp)
{
	rxe_put64(h, va);
	rxe_put32(h + 8, rkey);
	rxe_put64(h + 12, swap_add);
	rxe_put64(h + 20, comp);
}

/* ---- AtomicAckETH: the original remote data ---- */

static inline u64 rxe_atmack_orig(const u8 *h) { return rxe_get64(h); }
static inline void rxe_atmack_set(u8 *h, u64 orig) { rxe_put64(h, orig); }

/* ---- DETH: Q_Key and source QP ---- */

static inline u32 rxe_deth_qkey(const u8 *h) { return rxe_get32(h); }
static inline u32 rxe_deth_sqp(const u8 *h) { return rxe_get24(h + 5); }

static inline void rxe_deth_set(u8 *h, u32 qkey, u32 sqp)
{
	rxe_put32(h, qkey);
	h[4] = 0;
	rxe_put24(h + 5, sqp & RXE_QPN_MASK);
}

/*
 * ---- ImmDt and IETH ----
 * The immediate is opaque: kept as the four wire bytes (a __be32 in
 * ib_wc/ib_send_wr terms), so no byte order is applied.
 */
static inline void rxe_immdt_get(const u8 *h, u8 imm[4])
{
	imm[0] = h[0];
	imm[1] = h[1];
	imm[2] = h[2];
	imm[3] = h[3];
}

static inline void rxe_immdt_set(u8 *h, const u8 imm[4])
{
	h[0] = imm[0];
	h[1] = imm[1];
	h[2] = imm[2];
	h[3] = imm[3];
}

static inline u32 rxe_ieth_rkey(const u8 *h) { return rxe_get32(h); }
static inline void rxe_ieth_set(u8 *h, u32 rkey) { rxe_put32(h, rkey); }

#endif /* _RXE_HDR_H */
