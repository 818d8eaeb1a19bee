/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What rxe does with each send work request opcode: which QP types may
 * post it, how the requester treats it, the request packets it becomes
 * and the completion opcode it gets.  One table (rxe_wr_ops.c) for
 * posting, the requester and the completer.  Type-level only: also
 * built as C++ on the host (tools/testing/unit), where the table is
 * checked against the wire opcode table of rxe_hdr.c.
 */
#ifndef _RXE_WR_OPS_H
#define _RXE_WR_OPS_H

#include <linux/types.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <rdma/ib_qp_state.h>
#include <rdma/ib_placement.h>

#include "rxe_hdr.h"

/* the kernel-only opcodes' numbers (rxe_post.c asserts them) */
#define RXE_WR_REG_MR		0x20	/* IB_WR_REG_MR */
#define RXE_WC_REG_MR		10	/* IB_WC_REG_MR */

#define RXE_QPT_BIT(t)		(1U << (t))

/* how the requester treats a WQE */
enum rxe_swqe_kind {
	RXE_SWQE_LOCAL,		/* REG_MR, LOCAL_INV, BIND_MW: no PSN */
	RXE_SWQE_SEND,
	RXE_SWQE_WRITE,
	RXE_SWQE_READ,		/* answered by read responses */
	RXE_SWQE_ATOMIC,	/* one packet, answered by its own response */
};

enum rxe_wr_flags {
	RXE_WR_INLINE = 1 << 0,		/* may carry inline data */
	RXE_WR_KERNEL = 1 << 1,		/* kernel QPs only */
	/* its 8-byte operand is in the WQE (dma.atomic_wr), not in SGEs */
	RXE_WR_VALUE8 = 1 << 2,
	/* takes one of the initiator's max_rd_atomic credits */
	RXE_WR_RD_CREDIT = 1 << 3,
	/* answered by an empty RDMA READ response (ATOMIC WRITE, FLUSH) */
	RXE_WR_EMPTY_RESP = 1 << 4,
};

/*
 * A FLUSH WQE's operands: the first member of the WQE's wr.wr union as
 * rdma-core v45+ writes it (the 6.1 uapi does not name it), read from
 * there with rxe_wqe_flush().
 */
struct rxe_wqe_flush {
	u64 remote_addr;
	u32 length;
	u32 rkey;
	u8 type;	/* placement: RXE_FLUSH_GLOBAL | RXE_FLUSH_PERSISTENT */
	u8 level;	/* selectivity: RXE_FLUSH_RANGE or RXE_FLUSH_MR */
};

#define RXE_NO_PKT		(-1)

struct rxe_wr_op {
	u16 qp_types;		/* RXE_QPT_BIT()s that may post it */
	/*
	 * Those of qp_types whose transport has its packets; posted on
	 * another, the WQE completes with IB_WC_LOC_QP_OP_ERR (UC: SEND
	 * with invalidate, which upstream accepts and then fails so).
	 */
	u16 sent_types;
	u8 flags;		/* enum rxe_wr_flags */
	u8 kind;		/* enum rxe_swqe_kind */
	u8 wc_opcode;		/* completion opcode (IB_WC_*) */
	/* request packet operation (RXE_OP_*) by [first][last] */
	s8 pkt[2][2];
};

/* the entry of @wr_opcode, or NULL when rxe does not handle it */
const struct rxe_wr_op *rxe_wr_op(u32 wr_opcode);

/*
 * The operation of the packet of @wr_opcode that is (or is not) the
 * first and the last of its message; RXE_NO_PKT for none.  Reads and
 * atomics are always one request packet: (true, true).
 */
int rxe_wr_pkt_op(u32 wr_opcode, bool first, bool last);

#endif
