// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The send work request table (rxe_wr_ops.h).  Pure: builds on the host
 * too.  The QP types are those upstream 6.1 rxe accepts, plus RDMA
 * ATOMIC WRITE and RDMA FLUSH on RC (IBTA vol. 1, annex A19; not defined
 * for UC/UD).
 */
#include "rxe_wr_ops.h"

#define RC		RXE_QPT_BIT(IB_QPT_RC)
#define RC_UC		(RC | RXE_QPT_BIT(IB_QPT_UC))
#define ANY_SEND	(RC_UC | RXE_QPT_BIT(IB_QPT_UD) | RXE_QPT_BIT(IB_QPT_GSI))

/* packets of a message: [first][last] */
#define PKTS(first, middle, last, only)	{ { (middle), (last) }, { (first), (only) } }
#define ONE_PKT(op)	PKTS(RXE_NO_PKT, RXE_NO_PKT, RXE_NO_PKT, op)
#define NO_PKTS		ONE_PKT(RXE_NO_PKT)

#define SEND_PKTS(last, only) \
	PKTS(RXE_OP_SEND_FIRST, RXE_OP_SEND_MIDDLE, last, only)
#define WRITE_PKTS(last, only) \
	PKTS(RXE_OP_WRITE_FIRST, RXE_OP_WRITE_MIDDLE, last, only)

#define OP_SENT(types, sent, fl, k, wc, ...) {				\
	.qp_types = (u16)(types),					\
	.sent_types = (u16)(sent),					\
	.flags = (u8)(fl),						\
	.kind = (u8)(k),						\
	.wc_opcode = (u8)(wc),						\
	.pkt = __VA_ARGS__,						\
}
#define OP(types, fl, k, wc, ...) \
	OP_SENT(types, types, fl, k, wc, __VA_ARGS__)

/* indexed by the uapi opcode, 0 .. 15 */
static const struct rxe_wr_op rxe_wr_ops[] = {
	[IB_UVERBS_WR_RDMA_WRITE] =
		OP(RC_UC, RXE_WR_INLINE, RXE_SWQE_WRITE, IB_UVERBS_WC_RDMA_WRITE,
		   WRITE_PKTS(RXE_OP_WRITE_LAST, RXE_OP_WRITE_ONLY)),
	[IB_UVERBS_WR_RDMA_WRITE_WITH_IMM] =
		OP(RC_UC, RXE_WR_INLINE, RXE_SWQE_WRITE, IB_UVERBS_WC_RDMA_WRITE,
		   WRITE_PKTS(RXE_OP_WRITE_LAST_IMM, RXE_OP_WRITE_ONLY_IMM)),
	[IB_UVERBS_WR_SEND] =
		OP(ANY_SEND, RXE_WR_INLINE, RXE_SWQE_SEND, IB_UVERBS_WC_SEND,
		   SEND_PKTS(RXE_OP_SEND_LAST, RXE_OP_SEND_ONLY)),
	[IB_UVERBS_WR_SEND_WITH_IMM] =
		OP(ANY_SEND, RXE_WR_INLINE, RXE_SWQE_SEND, IB_UVERBS_WC_SEND,
		   SEND_PKTS(RXE_OP_SEND_LAST_IMM, RXE_OP_SEND_ONLY_IMM)),
	[IB_UVERBS_WR_RDMA_READ] =
		OP(RC, RXE_WR_RD_CREDIT, RXE_SWQE_READ, IB_UVERBS_WC_RDMA_READ,
		   ONE_PKT(RXE_OP_READ_REQ)),
	[IB_UVERBS_WR_ATOMIC_CMP_AND_SWP] =
		OP(RC, RXE_WR_RD_CREDIT, RXE_SWQE_ATOMIC, IB_UVERBS_WC_COMP_SWAP,
		   ONE_PKT(RXE_OP_CMP_SWAP)),
	[IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD] =
		OP(RC, RXE_WR_RD_CREDIT, RXE_SWQE_ATOMIC, IB_UVERBS_WC_FETCH_ADD,
		   ONE_PKT(RXE_OP_FETCH_ADD)),
	[IB_UVERBS_WR_LOCAL_INV] =
		OP(RC, 0, RXE_SWQE_LOCAL, IB_UVERBS_WC_LOCAL_INV, NO_PKTS),
	[IB_UVERBS_WR_BIND_MW] =
		OP(RC_UC, 0, RXE_SWQE_LOCAL, IB_UVERBS_WC_BIND_MW, NO_PKTS),
	/* UD sends it as a plain SEND (no IETH in UD); UC has no such packet */
	[IB_UVERBS_WR_SEND_WITH_INV] =
		OP_SENT(RC_UC | RXE_QPT_BIT(IB_QPT_UD),
			RC | RXE_QPT_BIT(IB_QPT_UD), RXE_WR_INLINE,
			RXE_SWQE_SEND, IB_UVERBS_WC_SEND,
		   SEND_PKTS(RXE_OP_SEND_LAST_INV, RXE_OP_SEND_ONLY_INV)),
	[IB_UVERBS_WR_TSO] = OP(0, 0, 0, 0, NO_PKTS),
	[IB_UVERBS_WR_RDMA_READ_WITH_INV] =
		OP(RC, RXE_WR_RD_CREDIT, RXE_SWQE_READ, IB_UVERBS_WC_RDMA_READ,
		   ONE_PKT(RXE_OP_READ_REQ)),
	[IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP] = OP(0, 0, 0, 0, NO_PKTS),
	[IB_UVERBS_WR_MASKED_ATOMIC_FETCH_AND_ADD] = OP(0, 0, 0, 0, NO_PKTS),
	/* the responder keeps a resource for it: it takes a credit */
	[RDMA_UVERBS_WR_FLUSH] =
		OP(RC, RXE_WR_RD_CREDIT | RXE_WR_EMPTY_RESP, RXE_SWQE_ATOMIC,
		   RDMA_UVERBS_WC_FLUSH, ONE_PKT(RXE_OP_FLUSH)),
	[RDMA_UVERBS_WR_ATOMIC_WRITE] =
		OP(RC, RXE_WR_VALUE8 | RXE_WR_RD_CREDIT | RXE_WR_EMPTY_RESP,
		   RXE_SWQE_ATOMIC, RDMA_UVERBS_WC_ATOMIC_WRITE,
		   ONE_PKT(RXE_OP_ATOMIC_WRITE)),
};

static const struct rxe_wr_op rxe_wr_reg_mr =
	OP(RC, RXE_WR_KERNEL, RXE_SWQE_LOCAL, RXE_WC_REG_MR, NO_PKTS);

const struct rxe_wr_op *rxe_wr_op(u32 wr_opcode)
{
	const struct rxe_wr_op *op = NULL;

	if (wr_opcode < sizeof(rxe_wr_ops) / sizeof(rxe_wr_ops[0]))
		op = &rxe_wr_ops[wr_opcode];
	else if (wr_opcode == RXE_WR_REG_MR)
		op = &rxe_wr_reg_mr;
	return op && op->qp_types ? op : NULL;
}

int rxe_wr_pkt_op(u32 wr_opcode, bool first, bool last)
{
	const struct rxe_wr_op *op = rxe_wr_op(wr_opcode);

	return op ? op->pkt[first][last] : RXE_NO_PKT;
}
