/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fwsim data path: the model's own layout of send/receive WQEs, CQEs and
 * doorbells (from the mlx-lite document, sections 2.2, 2.3 and 5), the key
 * translation and the transport seam between a requester and a responder.
 * Included by fwsim.h; type-level only.
 */
#ifndef FWSIM_DP_H
#define FWSIM_DP_H

#include <linux/types.h>

struct fwsim;
struct fwsim_mkey;

/* UAR registers (offset in the 4 KiB UAR page) */
#define FWSIM_UAR_CQ_DB		0x020
#define FWSIM_UAR_BF		0x800

/* send WQE: 64-byte WQEBBs of 16-byte DS units */
#define FWSIM_WQEBB		64
#define FWSIM_DS		16
#define FWSIM_MAX_DS		63		/* ds_count is 6 bits */
/* ctrl segment */
#define FWSIM_CTRL_OPMOD	0x00, 31, 24
#define FWSIM_CTRL_IDX		0x00, 23, 8
#define FWSIM_CTRL_OPCODE	0x00, 7, 0
#define FWSIM_CTRL_QPN		0x04, 31, 8
#define FWSIM_CTRL_DS		0x04, 5, 0
#define FWSIM_CTRL_FENCE	0x08, 7, 5	/* byte 11 = fm_ce_se */
#define FWSIM_CTRL_CE		0x08, 3, 2
#define FWSIM_CTRL_SE		0x08, 1, 1
#define FWSIM_CTRL_IMM		0x0c		/* be32 immediate / inval rkey */
/* remote address segment (16 B) */
#define FWSIM_RADDR_VA		0x00		/* be64 */
#define FWSIM_RADDR_RKEY	0x08		/* be32 */
/* atomic segment (16 B) */
#define FWSIM_ATOMIC_SWAP_ADD	0x00		/* be64 */
#define FWSIM_ATOMIC_COMPARE	0x08		/* be64 */
/* datagram segment (48 B) */
#define FWSIM_DGRAM_LEN		48
#define FWSIM_DGRAM_QKEY	0x00		/* be32 */
#define FWSIM_DGRAM_DQPN	0x08, 23, 0
#define FWSIM_DGRAM_RMAC	0x14		/* 6 bytes */
#define FWSIM_DGRAM_TCLASS	0x1a		/* byte */
#define FWSIM_DGRAM_HOP		0x1b		/* byte */
#define FWSIM_DGRAM_FLOW	0x1c, 19, 0
#define FWSIM_DGRAM_RGID	0x20		/* 16 bytes */
/* data segment (16 B) and inline segment (be32 count | bit 31, data) */
#define FWSIM_DSEG_COUNT	0x00		/* be32 */
#define FWSIM_DSEG_LKEY		0x04		/* be32 */
#define FWSIM_DSEG_ADDR		0x08		/* be64 */
#define FWSIM_INLINE		0x80000000u
/* receive WQE terminator when fewer SGEs than the stride holds */
#define FWSIM_TERM_LKEY		0x100

/* WQE opcodes the model knows */
enum {
	FWSIM_WQE_NOP = 0x00, FWSIM_WQE_SEND_INV = 0x01,
	FWSIM_WQE_WRITE = 0x08, FWSIM_WQE_WRITE_IMM = 0x09,
	FWSIM_WQE_SEND = 0x0a, FWSIM_WQE_SEND_IMM = 0x0b,
	FWSIM_WQE_READ = 0x10, FWSIM_WQE_CS = 0x11, FWSIM_WQE_FA = 0x12,
	FWSIM_WQE_UMR = 0x25,
};

/* CQE (64 B) */
#define FWSIM_CQE_LEN		64
#define FWSIM_CQE_FLAGS_RQPN	0x18		/* [28] GRH, [23:0] source QP */
#define FWSIM_CQE_SRQN		0x20
#define FWSIM_CQE_IMM		0x24
#define FWSIM_CQE_BYTE_CNT	0x2c
#define FWSIM_CQE_VENDOR_SYND	0x36
#define FWSIM_CQE_SYND		0x37
#define FWSIM_CQE_QPN		0x38		/* [31:24] WQE opcode, [23:0] QPN */
#define FWSIM_CQE_WQE_CNT	0x3c		/* be16 */
#define FWSIM_CQE_OP_OWN	0x3f
#define FWSIM_CQE_GRH		(1u << 28)
enum {
	FWSIM_CQE_REQ = 0, FWSIM_CQE_RESP_WRITE_IMM = 1, FWSIM_CQE_RESP_SEND = 2,
	FWSIM_CQE_RESP_SEND_IMM = 3, FWSIM_CQE_RESP_SEND_INV = 4,
	FWSIM_CQE_REQ_ERR = 13, FWSIM_CQE_RESP_ERR = 14, FWSIM_CQE_INVALID = 15,
};
/* error CQE syndromes (and the NAK classes of the seam) */
enum {
	FWSIM_SYN_OK = 0x00,
	FWSIM_SYN_LOC_LEN = 0x01, FWSIM_SYN_LOC_QP_OP = 0x02,
	FWSIM_SYN_LOC_PROT = 0x04, FWSIM_SYN_FLUSH = 0x05,
	FWSIM_SYN_LOC_ACCESS = 0x11, FWSIM_SYN_REM_INV_REQ = 0x12,
	FWSIM_SYN_REM_ACCESS = 0x13, FWSIM_SYN_REM_OP = 0x14,
	FWSIM_SYN_RETRY = 0x15, FWSIM_SYN_RNR = 0x16,
};
/* the GRH a UD receive buffer starts with */
#define FWSIM_GRH_LEN		40
/* EQE type of a completion */
#define FWSIM_EVT_COMP		0x00

/* ---- key translation (fwsim_mkey.c, pure) */
enum {
	FWSIM_ACC_LR = 1, FWSIM_ACC_LW = 2, FWSIM_ACC_RR = 4, FWSIM_ACC_RW = 8,
	FWSIM_ACC_A = 16,
};

enum fwsim_kerr {
	FWSIM_K_OK,
	FWSIM_K_KEY,		/* no such MKey, other variant, or invalidated */
	FWSIM_K_PD,		/* MKey of another PD */
	FWSIM_K_ACCESS,		/* access right missing */
	FWSIM_K_BOUNDS,		/* outside [start, start + len) */
	FWSIM_K_ALIGN,		/* atomic: not 8 bytes, 8-byte aligned */
};

/*
 * Check key for [va, va + len) with access acc in PD pd; *mk is the MKey
 * on success.  acc FWSIM_ACC_A also demands len 8 at an 8-byte aligned va.
 */
enum fwsim_kerr fwsim_key_check(const struct fwsim *fw, u32 key, u32 pd,
				u32 acc, u64 va, u64 len,
				const struct fwsim_mkey **mk);
/*
 * Bus address of va in a checked MKey and the bytes contiguous from there
 * (at most max); false when an MTT entry lacks the right (write: bit 1).
 */
bool fwsim_key_bus(const struct fwsim *fw, const struct fwsim_mkey *mk,
		   u64 va, u32 max, bool write, u64 *bus, u32 *run);

/* ---- transport seam: one message from a requester to a responder */
enum fwsim_xop {
	FWSIM_XOP_SEND, FWSIM_XOP_SEND_IMM, FWSIM_XOP_SEND_INV,
	FWSIM_XOP_WRITE, FWSIM_XOP_WRITE_IMM, FWSIM_XOP_READ,
	FWSIM_XOP_CS, FWSIM_XOP_FA,
};

struct fwsim_xmsg {
	u8 op;			/* enum fwsim_xop */
	u8 st;			/* service type: RC or UD */
	bool solicited;
	u32 src_qpn;
	u32 dst_qpn;
	u32 qkey;		/* UD */
	u8 sgid[16];
	u8 dgid[16];
	u8 tclass;
	u8 hop_limit;
	u32 flow_label;
	const u8 *payload;	/* SEND, WRITE */
	u32 len;		/* payload, or READ length */
	u64 raddr;
	u32 rkey;
	u64 swap_add;
	u64 compare;
	u32 imm;		/* immediate, or rkey to invalidate */
	u8 *resp;		/* READ data lands here (len bytes) */
};

/* NAK classes are error CQE syndromes; RNR is its own answer */
#define FWSIM_XNAK_RNR		0xff
struct fwsim_xreply {
	u8 nak;			/* 0 ACK, FWSIM_SYN_* class, FWSIM_XNAK_RNR */
	u64 orig;		/* atomics: the original value */
};

/*
 * Execute msg on the responder fw (the instance owning dgid): consume a
 * receive WQE, scatter, write, read or do the atomic, write responder
 * CQEs, and answer.  Writes nothing on a violation.
 */
void fwsim_dp_respond(struct fwsim *fw, const struct fwsim_xmsg *msg,
		      struct fwsim_xreply *reply);
/* flush every outstanding WQE of a QP in ERR (the 2ERR command) */
void fwsim_dp_flush(struct fwsim *fw, u32 qpn);

#endif /* FWSIM_DP_H */
