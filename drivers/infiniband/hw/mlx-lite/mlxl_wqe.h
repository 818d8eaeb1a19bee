/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the data path's formats (doc §5.1-§5.5, Documentation/
 * mlx-lite/datapath.rst): send WQEs from 16-byte segments, receive WQEs,
 * the SQ ring of 64-byte WQEBBs, 64-byte CQEs into completion fields,
 * the error syndrome table and the CQ arm word.  Pure: only type-level
 * headers; also built as C++ on the host (tools/testing/unit).
 *
 * Rules:
 *  - every multi-byte field is big-endian in memory;
 *  - a send WQE is built contiguous (at most MLXL_MAX_WQE_BYTES) and
 *    copied into the ring one WQEBB at a time, so a WQE that runs past
 *    the ring's end continues at its start;
 *  - ds_count counts the 16-byte units of the WQE including the ctrl
 *    segment; the WQEBB count is ds_count rounded up to 4 units;
 *  - the work request and completion numbers here are ib_core's
 *    (enum ib_wr_opcode, ib_wc_opcode, ib_wc_status, ib_wc_flags); the
 *    kernel glue asserts they agree (mlxl_dp.c).
 */
#ifndef MLXL_WQE_H
#define MLXL_WQE_H

#include <linux/types.h>
#include "mlxl_ifc.h"
#include "mlxl_qpc.h"

#define MLXL_WQEBB		64
#define MLXL_DS			16
#define MLXL_MAX_WQE_BYTES	1024	/* 16 WQEBBs */
#define MLXL_CQE_SIZE		64
#define MLXL_TERM_LKEY		0x100	/* receive list terminator */
#define MLXL_INLINE_BIT		0x80000000u
#define MLXL_GRH_BYTES		40
#define MLXL_UMR_MAX_PAGES	((MLXL_MAX_WQE_BYTES - 16 - 48 - 64) / 8)

/* send WQE opcodes (ctrl dw0 [7:0]) */
enum {
	MLXL_WQE_NOP		= 0x00,
	MLXL_WQE_SEND_INV	= 0x01,
	MLXL_WQE_RDMA_WRITE	= 0x08,
	MLXL_WQE_RDMA_WRITE_IMM	= 0x09,
	MLXL_WQE_SEND		= 0x0a,
	MLXL_WQE_SEND_IMM	= 0x0b,
	MLXL_WQE_RDMA_READ	= 0x10,
	MLXL_WQE_ATOMIC_CS	= 0x11,
	MLXL_WQE_ATOMIC_FA	= 0x12,
	MLXL_WQE_UMR		= 0x25,
};

/* ctrl byte 11 */
enum {
	MLXL_FM_SMALL		= 1 << 5,
	MLXL_FM_FENCE		= 2 << 5,
	MLXL_CE_CQE		= 2 << 2,
	MLXL_SE			= 1 << 1,
};

/* CQE opcodes (op_own [7:4]) */
enum {
	MLXL_CQE_REQ		= 0,
	MLXL_CQE_RESP_WR_IMM	= 1,
	MLXL_CQE_RESP_SEND	= 2,
	MLXL_CQE_RESP_SEND_IMM	= 3,
	MLXL_CQE_RESP_SEND_INV	= 4,
	MLXL_CQE_RESIZE		= 5,
	MLXL_CQE_SIG_ERR	= 12,
	MLXL_CQE_REQ_ERR	= 13,
	MLXL_CQE_RESP_ERR	= 14,
	MLXL_CQE_INVALID	= 15,
};

/* ib_core's numbers, for pure code (asserted in mlxl_dp.c) */
enum {
	MLXL_WR_SEND = 2, MLXL_WR_SEND_IMM = 3, MLXL_WR_SEND_INV = 9,
	MLXL_WR_RDMA_WRITE = 0, MLXL_WR_RDMA_WRITE_IMM = 1,
	MLXL_WR_RDMA_READ = 4, MLXL_WR_ATOMIC_CS = 5, MLXL_WR_ATOMIC_FA = 6,
	MLXL_WR_LOCAL_INV = 7, MLXL_WR_REG_MR = 0x20,
};

enum {
	MLXL_WC_SEND = 0, MLXL_WC_RDMA_WRITE = 1, MLXL_WC_RDMA_READ = 2,
	MLXL_WC_COMP_SWAP = 3, MLXL_WC_FETCH_ADD = 4, MLXL_WC_LOCAL_INV = 6,
	MLXL_WC_REG_MR = 10, MLXL_WC_RECV = 1 << 7,
	MLXL_WC_RECV_RDMA_WITH_IMM = (1 << 7) + 1,
};

enum {
	MLXL_WS_SUCCESS = 0, MLXL_WS_LOC_LEN = 1, MLXL_WS_LOC_QP_OP = 2,
	MLXL_WS_LOC_PROT = 4, MLXL_WS_WR_FLUSH = 5, MLXL_WS_MW_BIND = 6,
	MLXL_WS_BAD_RESP = 7, MLXL_WS_LOC_ACCESS = 8, MLXL_WS_REM_INV_REQ = 9,
	MLXL_WS_REM_ACCESS = 10, MLXL_WS_REM_OP = 11, MLXL_WS_RETRY_EXC = 12,
	MLXL_WS_RNR_RETRY_EXC = 13, MLXL_WS_REM_ABORT = 16,
	MLXL_WS_GENERAL = 21,
};

enum {
	MLXL_WCF_GRH = 1, MLXL_WCF_IMM = 1 << 1, MLXL_WCF_INV = 1 << 2,
};

/* send flags (ib_send_flags) */
enum {
	MLXL_SF_FENCE = 1, MLXL_SF_SIGNALED = 1 << 1, MLXL_SF_SOLICITED = 1 << 2,
	MLXL_SF_INLINE = 1 << 3,
};

/* which segments follow the ctrl segment */
enum {
	MLXL_SEG_RADDR	= 1 << 0,
	MLXL_SEG_ATOMIC	= 1 << 1,
	MLXL_SEG_DATA	= 1 << 2,	/* gather list or inline data */
	MLXL_SEG_UMR	= 1 << 3,	/* UMR ctrl + mkey context (+ pages) */
	MLXL_QP_RC	= 1 << 6,	/* postable on RC QPs */
	MLXL_QP_UD	= 1 << 7,	/* postable on UD and GSI QPs */
};

struct mlxl_wr_op {
	u8 wr;		/* MLXL_WR_* */
	u8 hw;		/* MLXL_WQE_* */
	u8 wc;		/* MLXL_WC_* of its completion */
	u8 segs;	/* MLXL_SEG_* | MLXL_QP_* */
};

/* the row of work request opcode wr; NULL: not supported */
const struct mlxl_wr_op *mlxl_wr_op(u32 wr);

struct mlxl_sge {
	u64 addr;	/* inline: the kernel virtual address of the data */
	u32 length;
	u32 lkey;
};

/* one send work request, in the driver's terms */
struct mlxl_swr {
	u32 opcode;		/* MLXL_WR_* */
	u32 flags;		/* MLXL_SF_* */
	u32 imm_be;		/* immediate, as the consumer's big-endian bytes */
	u32 inv_rkey;		/* SEND_INV, LOCAL_INV */
	u64 raddr;
	u32 rkey;
	u64 swap_add;		/* ATOMIC_CS swap, ATOMIC_FA add */
	u64 compare;
	const struct mlxl_av *av;	/* UD */
	u32 dqpn, qkey;
	const struct mlxl_sge *sg;
	u32 num_sge;
	/* REG_MR: the MKey, its rights (MLXL_PERM_*), its pages */
	u32 mkey;
	u8 perm;
	u64 iova, length;
	u32 page_shift;
	const u64 *pages;
	u32 npages;
};

/* mkey context access bits (byte 2 of the mkey segment) */
enum {
	MLXL_PERM_LR = 1 << 2, MLXL_PERM_LW = 1 << 3, MLXL_PERM_RR = 1 << 4,
	MLXL_PERM_RW = 1 << 5, MLXL_PERM_A = 1 << 6,
};
#define MLXL_UMR_CHECK_NOT_FREE	(1 << 5)
#define MLXL_UMR_INLINE		(1 << 7)
#define MLXL_MKEY_FREE		(1 << 6)	/* mkey segment status */
#define MLXL_MKEY_ACCESS_MTT	1
/* mkey_mask bits a fast registration changes */
#define MLXL_MASK_LEN		(1ull << 0)
#define MLXL_MASK_PAGE_SIZE	(1ull << 1)
#define MLXL_MASK_START_ADDR	(1ull << 6)
#define MLXL_MASK_EN_RINVAL	(1ull << 8)
#define MLXL_MASK_KEY		(1ull << 13)
#define MLXL_MASK_LR		(1ull << 17)
#define MLXL_MASK_LW		(1ull << 18)
#define MLXL_MASK_RR		(1ull << 19)
#define MLXL_MASK_RW		(1ull << 20)
#define MLXL_MASK_A		(1ull << 21)
#define MLXL_MASK_FREE		(1ull << 29)

/*
 * Build the WQE of w for QP qpn (MLXL_QPT_*) at SQ producer counter pc
 * into buf (MLXL_MAX_WQE_BYTES, zeroed here).  Returns the WQE's ds_count
 * (>0), or -22 (EINVAL: bad opcode for the QP type, too big, too much
 * inline data).  max_inline: the QP's inline capacity.
 */
int mlxl_wqe_build(u8 *buf, u8 st, u32 qpn, u32 pc, const struct mlxl_swr *w,
		   u32 max_inline);
static inline u32 mlxl_wqebbs(u32 ds)
{
	return (ds + 3) / 4;
}
/* copy nbb WQEBBs of buf to the ring (2^log_size WQEBBs) at counter pc */
void mlxl_sq_copy(u8 *ring, u32 log_size, u32 pc, const u8 *buf, u32 nbb);

/*
 * A receive WQE of stride 2^(log_stride) data segments at wqe: the
 * segments of sg, then a terminator if fewer than the stride holds.
 */
void mlxl_recv_wqe(u8 *wqe, u32 log_stride, const struct mlxl_sge *sg,
		   u32 num_sge);

/* a CQE's fields, decoded */
struct mlxl_cqe {
	u8 opcode;		/* MLXL_CQE_* */
	u8 owner;
	u8 syndrome;
	u8 vendor_err;
	u8 wqe_op;		/* requester: the WQE's opcode */
	bool grh;
	u16 wqe_counter;
	u32 qpn;
	u32 srqn;
	u32 byte_cnt;
	u32 src_qp;
	u32 imm_be;		/* the immediate's bytes as they came */
	u32 inv_rkey;
};

/* entry ci of a CQ of 2^log_size entries is the driver's */
bool mlxl_cqe_sw_owned(const u8 *cqe, u32 ci, u32 log_size);
void mlxl_cqe_parse(const u8 *cqe, struct mlxl_cqe *c);

/* the completion fields of a CQE (ib_wc's, by their ib_core numbers) */
struct mlxl_wc {
	u32 status;
	u32 opcode;
	u32 byte_len;
	u32 flags;
	u32 vendor_err;
};
void mlxl_cqe_wc(const struct mlxl_cqe *c, struct mlxl_wc *wc);
/* an error CQE's syndrome as a completion status (one table) */
u32 mlxl_syndrome_status(u8 syndrome);
/* the CQ arm word (doc §5.5) */
u32 mlxl_arm_word(u32 sn, bool solicited, u32 ci);

#endif /* MLXL_WQE_H */
