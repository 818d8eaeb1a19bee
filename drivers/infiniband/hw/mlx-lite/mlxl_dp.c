// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: the kernel data path (Documentation/mlx-lite/datapath.rst):
 * post_send, post_recv, post_srq_recv, poll_cq and req_notify_cq on the
 * formats of mlxl_wqe.c.
 *
 * Rules:
 *  - posting: the WQEs, wmb, the doorbell record (SQ: dword1, RQ/SRQ:
 *    dword0), wmb, and for sends one 64-bit write of the last WQE's first
 *    8 bytes to the BlueFlame half of the bring-up UAR, then the other
 *    half next time; a queue's head moves under its lock;
 *  - sends are refused (-EINVAL, *bad_wr) in RESET, INIT and RTR,
 *    receives in RESET;
 *  - poll_cq runs under the CQ's lock and moves the tails: a requester
 *    CQE completes the WQE at its wqe_counter, unsignalled WQEs before it
 *    end silently; a responder CQE consumes the RQ in order, or the SRQ
 *    entry at wqe_counter;
 *  - lock order: a CQ's lock, then a queue's;
 *  - a dead device (mlxl_is_fatal) rings nothing: posts are accepted
 *    into the rings, and poll_cq completes every outstanding work request
 *    of the CQ's QPs as IB_WC_WR_FLUSH_ERR, as the device would have
 *    flushed them; the CQ ring is not read any more.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mlxl_ib.h"
#include "mlxl_verbs.h"
#include "mlxl_wqe.h"

#define MLXL_UAR_BYTES		4096
#define MLXL_UAR_CQ_DB		0x20
#define MLXL_UAR_BF		0x800

/* the numbers of mlxl_wqe.h are ib_core's */
#define SAME(a, b)	BUILD_BUG_ON((int)(a) != (int)(b))

static void dp_assert_numbers(void)
{
	SAME(MLXL_WR_SEND, IB_WR_SEND);
	SAME(MLXL_WR_SEND_IMM, IB_WR_SEND_WITH_IMM);
	SAME(MLXL_WR_SEND_INV, IB_WR_SEND_WITH_INV);
	SAME(MLXL_WR_RDMA_WRITE, IB_WR_RDMA_WRITE);
	SAME(MLXL_WR_RDMA_WRITE_IMM, IB_WR_RDMA_WRITE_WITH_IMM);
	SAME(MLXL_WR_RDMA_READ, IB_WR_RDMA_READ);
	SAME(MLXL_WR_ATOMIC_CS, IB_WR_ATOMIC_CMP_AND_SWP);
	SAME(MLXL_WR_ATOMIC_FA, IB_WR_ATOMIC_FETCH_AND_ADD);
	SAME(MLXL_WR_LOCAL_INV, IB_WR_LOCAL_INV);
	SAME(MLXL_WR_REG_MR, IB_WR_REG_MR);
	SAME(MLXL_WC_SEND, IB_WC_SEND);
	SAME(MLXL_WC_RDMA_WRITE, IB_WC_RDMA_WRITE);
	SAME(MLXL_WC_RDMA_READ, IB_WC_RDMA_READ);
	SAME(MLXL_WC_COMP_SWAP, IB_WC_COMP_SWAP);
	SAME(MLXL_WC_FETCH_ADD, IB_WC_FETCH_ADD);
	SAME(MLXL_WC_LOCAL_INV, IB_WC_LOCAL_INV);
	SAME(MLXL_WC_REG_MR, IB_WC_REG_MR);
	SAME(MLXL_WC_RECV, IB_WC_RECV);
	SAME(MLXL_WC_RECV_RDMA_WITH_IMM, IB_WC_RECV_RDMA_WITH_IMM);
	SAME(MLXL_WS_LOC_LEN, IB_WC_LOC_LEN_ERR);
	SAME(MLXL_WS_LOC_QP_OP, IB_WC_LOC_QP_OP_ERR);
	SAME(MLXL_WS_LOC_PROT, IB_WC_LOC_PROT_ERR);
	SAME(MLXL_WS_WR_FLUSH, IB_WC_WR_FLUSH_ERR);
	SAME(MLXL_WS_MW_BIND, IB_WC_MW_BIND_ERR);
	SAME(MLXL_WS_BAD_RESP, IB_WC_BAD_RESP_ERR);
	SAME(MLXL_WS_LOC_ACCESS, IB_WC_LOC_ACCESS_ERR);
	SAME(MLXL_WS_REM_INV_REQ, IB_WC_REM_INV_REQ_ERR);
	SAME(MLXL_WS_REM_ACCESS, IB_WC_REM_ACCESS_ERR);
	SAME(MLXL_WS_REM_OP, IB_WC_REM_OP_ERR);
	SAME(MLXL_WS_RETRY_EXC, IB_WC_RETRY_EXC_ERR);
	SAME(MLXL_WS_RNR_RETRY_EXC, IB_WC_RNR_RETRY_EXC_ERR);
	SAME(MLXL_WS_REM_ABORT, IB_WC_REM_ABORT_ERR);
	SAME(MLXL_WS_GENERAL, IB_WC_GENERAL_ERR);
	SAME(MLXL_WCF_GRH, IB_WC_GRH);
	SAME(MLXL_WCF_IMM, IB_WC_WITH_IMM);
	SAME(MLXL_WCF_INV, IB_WC_WITH_INVALIDATE);
	SAME(MLXL_SF_FENCE, IB_SEND_FENCE);
	SAME(MLXL_SF_SIGNALED, IB_SEND_SIGNALED);
	SAME(MLXL_SF_SOLICITED, IB_SEND_SOLICITED);
	SAME(MLXL_SF_INLINE, IB_SEND_INLINE);
	BUILD_BUG_ON(sizeof(struct mlxl_sge) != sizeof(struct ib_sge));
	BUILD_BUG_ON(offsetof(struct mlxl_sge, length) !=
		     offsetof(struct ib_sge, length));
	BUILD_BUG_ON(offsetof(struct mlxl_sge, lkey) !=
		     offsetof(struct ib_sge, lkey));
}

/* ---- queue state, from the create paths */

int mlxl_dp_wq_alloc(struct mlxl_wq *wq, u32 log_size)
{
	spin_lock_init(&wq->lock);
	wq->log_size = log_size;
	wq->head = 0;
	wq->tail = 0;
	wq->slot = (struct mlxl_wq_slot *)kcalloc(1u << log_size,
						   sizeof(*wq->slot), GFP_KERNEL);
	return wq->slot ? 0 : -ENOMEM;
}

void mlxl_dp_wq_free(struct mlxl_wq *wq)
{
	kfree(wq->slot);
	wq->slot = NULL;
}

void mlxl_dp_cq_init(struct mlxl_cq *cq)
{
	dp_assert_numbers();
	spin_lock_init(&cq->lock);
	cq->ci = 0;
	INIT_LIST_HEAD(&cq->send_qps);
	INIT_LIST_HEAD(&cq->recv_qps);
}

/* QPs use the CQ: its ring is not resized under them */
bool mlxl_dp_cq_busy(struct mlxl_cq *cq)
{
	unsigned long flags;
	bool busy;

	spin_lock_irqsave(&cq->lock, flags);
	busy = !list_empty(&cq->send_qps) || !list_empty(&cq->recv_qps);
	spin_unlock_irqrestore(&cq->lock, flags);
	return busy;
}

int mlxl_dp_qp_init(struct mlxl_ib *mib, struct mlxl_qp *qp)
{
	int err = 0;

	INIT_LIST_HEAD(&qp->send_node);
	INIT_LIST_HEAD(&qp->recv_node);
	qp->sq.bf_half = (1u << MLXL_GET(mib->hw->cap_cur,
					 MLXL_C_LOG_BF_REG_SIZE)) / 2;
	qp->sq.bf_off = 0;
	if (qp->cap.max_send_wr)
		err = mlxl_dp_wq_alloc(&qp->sq, qp->log_sq_size);
	if (!err && qp->cap.max_recv_wr)
		err = mlxl_dp_wq_alloc(&qp->rq, qp->log_rq_size);
	if (err)
		mlxl_dp_qp_fini(qp);
	return err;
}

void mlxl_dp_qp_fini(struct mlxl_qp *qp)
{
	mlxl_dp_wq_free(&qp->sq);
	mlxl_dp_wq_free(&qp->rq);
}

void mlxl_dp_qp_attach(struct mlxl_qp *qp)
{
	struct mlxl_cq *scq = qp->scq, *rcq = qp->rcq;
	unsigned long flags;

	spin_lock_irqsave(&scq->lock, flags);
	list_add_tail(&qp->send_node, &scq->send_qps);
	spin_unlock_irqrestore(&scq->lock, flags);
	spin_lock_irqsave(&rcq->lock, flags);
	list_add_tail(&qp->recv_node, &rcq->recv_qps);
	spin_unlock_irqrestore(&rcq->lock, flags);
}

void mlxl_dp_qp_detach(struct mlxl_qp *qp)
{
	struct mlxl_cq *scq = qp->scq, *rcq = qp->rcq;
	unsigned long flags;

	spin_lock_irqsave(&scq->lock, flags);
	list_del_init(&qp->send_node);
	spin_unlock_irqrestore(&scq->lock, flags);
	spin_lock_irqsave(&rcq->lock, flags);
	list_del_init(&qp->recv_node);
	spin_unlock_irqrestore(&rcq->lock, flags);
}

/* ---- posting */

static u8 perm_of(int access)
{
	return MLXL_PERM_LR |
	       (access & IB_ACCESS_LOCAL_WRITE ? MLXL_PERM_LW : 0) |
	       (access & IB_ACCESS_REMOTE_READ ? MLXL_PERM_RR : 0) |
	       (access & IB_ACCESS_REMOTE_WRITE ? MLXL_PERM_RW : 0) |
	       (access & IB_ACCESS_REMOTE_ATOMIC ? MLXL_PERM_A : 0);
}

/* the driver's terms of wr; false: something it cannot carry */
static bool swr_of(struct mlxl_qp *qp, const struct ib_send_wr *wr,
		   struct mlxl_swr *w)
{
	memset(w, 0, sizeof(*w));
	if (wr->num_sge < 0 || (u32)wr->num_sge > qp->cap.max_send_sge)
		return false;
	w->opcode = wr->opcode;
	w->flags = wr->send_flags & (IB_SEND_FENCE | IB_SEND_SIGNALED |
				     IB_SEND_SOLICITED | IB_SEND_INLINE);
	if (qp->sq_sig_type == IB_SIGNAL_ALL_WR)
		w->flags |= IB_SEND_SIGNALED;
	w->sg = (const struct mlxl_sge *)wr->sg_list;
	w->num_sge = wr->num_sge;
	w->imm_be = (__force u32)wr->ex.imm_data;
	w->inv_rkey = wr->ex.invalidate_rkey;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		w->raddr = rdma_wr(wr)->remote_addr;
		w->rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		w->raddr = atomic_wr(wr)->remote_addr;
		w->rkey = atomic_wr(wr)->rkey;
		w->compare = atomic_wr(wr)->compare_add;
		w->swap_add = wr->opcode == IB_WR_ATOMIC_CMP_AND_SWP ?
			      atomic_wr(wr)->swap : atomic_wr(wr)->compare_add;
		break;
	case IB_WR_REG_MR: {
		struct mlxl_mr *mr = container_of(reg_wr(wr)->mr,
						  struct mlxl_mr, ibmr);

		if (!mr->page_list || !mr->ibmr.page_size)
			return false;
		w->mkey = reg_wr(wr)->key;
		w->perm = perm_of(reg_wr(wr)->access);
		w->iova = mr->ibmr.iova;
		w->length = mr->ibmr.length;
		w->page_shift = ilog2(mr->ibmr.page_size);
		w->pages = mr->page_list;
		w->npages = mr->npages;
		break;
	}
	default:
		break;
	}
	if (qp->st != MLXL_QPT_RC) {
		const struct ib_ud_wr *ud = ud_wr(wr);

		if (!ud->ah)
			return false;
		w->av = &container_of(ud->ah, struct mlxl_ah, ibah)->av;
		w->dqpn = ud->remote_qpn;
		w->qkey = ud->remote_qkey;
	}
	return true;
}

static void ring_send(struct mlxl_ib *mib, struct mlxl_qp *qp, u64 ctrl)
{
	__be32 *db = (__be32 *)qp->db.cpu;

	lockdep_assert_held(&qp->sq.lock);
	wmb();		/* the WQEs before the doorbell record */
	WRITE_ONCE(db[1], cpu_to_be32(qp->sq.head & 0xffff));
	wmb();		/* the record before the doorbell */
	mib->hw->ops->wr64(mib->hw->ctx, mib->hw->uar * MLXL_UAR_BYTES +
			   MLXL_UAR_BF + qp->sq.bf_off, ctrl);
	qp->sq.bf_off ^= qp->sq.bf_half;
}

static int mlxl_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			  const struct ib_send_wr **bad_wr)
{
	struct mlxl_ib *mib = to_mib(ibqp->device);
	struct mlxl_qp *qp = to_mqp(ibqp);
	struct mlxl_wq *sq = &qp->sq;
	enum ib_qp_state state = READ_ONCE(ibqp->state);
	u32 mask = (1u << sq->log_size) - 1, n = 0, nbb;
	struct mlxl_swr w;
	unsigned long flags;
	u64 ctrl = 0;
	int err = 0, ds;

	if (!sq->slot || state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&sq->lock, flags);
	for (; wr; wr = wr->next) {
		const struct mlxl_wr_op *op;

		if (!swr_of(qp, wr, &w)) {
			err = -EINVAL;
			break;
		}
		ds = mlxl_wqe_build(qp->wqe, qp->st, qp->qpn, sq->head, &w,
				    qp->cap.max_inline_data);
		if (ds < 0) {
			err = -EINVAL;
			break;
		}
		nbb = mlxl_wqebbs((u32)ds);
		if (sq->head - READ_ONCE(sq->tail) + nbb > mask + 1) {
			err = -ENOMEM;
			break;
		}
		op = mlxl_wr_op(w.opcode);
		mlxl_sq_copy((u8 *)qp->buf.cpu + qp->sq_off, sq->log_size,
			     sq->head, qp->wqe, nbb);
		sq->slot[sq->head & mask] = (struct mlxl_wq_slot){
			.wr_id = wr->wr_id,
			.nbb = (u8)nbb,
			.sig = !!(w.flags & IB_SEND_SIGNALED),
			.wc_op = op->wc,
		};
		ctrl = be64_to_cpu(*(__be64 *)qp->wqe);
		sq->head += nbb;
		n++;
	}
	if (n && !mlxl_is_fatal(mib->hw))
		ring_send(mib, qp, ctrl);
	spin_unlock_irqrestore(&sq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}

/* post receives into a ring of 2^wq->log_size WQEs of 16 << log_stride */
static int post_rq(struct mlxl_wq *wq, u8 *ring, u32 log_stride, u32 max_sge,
		   __be32 *db, const struct ib_recv_wr *wr,
		   const struct ib_recv_wr **bad_wr)
{
	u32 mask = (1u << wq->log_size) - 1, n = 0;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&wq->lock, flags);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || (u32)wr->num_sge > max_sge) {
			err = -EINVAL;
			break;
		}
		if (wq->head - READ_ONCE(wq->tail) > mask) {
			err = -ENOMEM;
			break;
		}
		mlxl_recv_wqe(ring + ((wq->head & mask) << (log_stride + 4)),
			      log_stride, (const struct mlxl_sge *)wr->sg_list,
			      (u32)wr->num_sge);
		wq->slot[wq->head & mask].wr_id = wr->wr_id;
		wq->head++;
		n++;
	}
	if (n) {
		wmb();		/* the WQEs before the doorbell record */
		WRITE_ONCE(db[0], cpu_to_be32(wq->head & 0xffff));
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}

static int mlxl_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			  const struct ib_recv_wr **bad_wr)
{
	struct mlxl_qp *qp = to_mqp(ibqp);

	if (!qp->rq.slot || READ_ONCE(ibqp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	return post_rq(&qp->rq, (u8 *)qp->buf.cpu, qp->log_rq_stride,
		       qp->cap.max_recv_sge, (__be32 *)qp->db.cpu, wr, bad_wr);
}

static int mlxl_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad_wr)
{
	struct mlxl_srq *srq = to_msrq(ibsrq);

	return post_rq(&srq->rq, (u8 *)srq->buf.cpu, srq->log_stride,
		       srq->max_sge, (__be32 *)srq->db.cpu, wr, bad_wr);
}

/* ---- polling */

/* a requester CQE: complete up to its WQE; false: not one of ours */
static bool sq_complete(struct mlxl_qp *qp, const struct mlxl_cqe *c,
			struct ib_wc *wc)
{
	struct mlxl_wq *sq = &qp->sq;
	u32 mask = (1u << sq->log_size) - 1;
	u32 out = READ_ONCE(sq->head) - sq->tail;
	u32 dist = (c->wqe_counter - sq->tail) & 0xffff;
	struct mlxl_wq_slot *s;
	u32 bound = mask + 1;

	if (!sq->slot || dist >= out)
		return false;
	/* unsignalled WQEs before it completed without a CQE */
	while ((sq->tail & 0xffff) != c->wqe_counter && bound--) {
		s = &sq->slot[sq->tail & mask];
		if (!s->nbb)
			return false;
		sq->tail += s->nbb;
	}
	s = &sq->slot[sq->tail & mask];
	wc->wr_id = s->wr_id;
	wc->opcode = (enum ib_wc_opcode)s->wc_op;
	sq->tail += s->nbb ? s->nbb : 1;
	return true;
}

static bool rq_complete(struct mlxl_wq *wq, u32 index, struct ib_wc *wc)
{
	u32 mask = (1u << wq->log_size) - 1;

	if (!wq->slot || READ_ONCE(wq->head) == wq->tail)
		return false;
	wc->wr_id = wq->slot[index & mask].wr_id;
	wq->tail++;
	return true;
}

/* one CQE into wc; false: nothing to report for it */
static bool poll_one(struct mlxl_ib *mib, const u8 *cqe, struct ib_wc *wc)
{
	struct mlxl_cqe c;
	struct mlxl_wc w;
	struct mlxl_qp *qp;
	bool req;

	mlxl_cqe_parse(cqe, &c);
	if (c.opcode == MLXL_CQE_RESIZE || c.opcode == MLXL_CQE_SIG_ERR)
		return false;
	qp = (struct mlxl_qp *)xa_load(&mib->qps, c.qpn);
	if (!qp)
		return false;
	mlxl_cqe_wc(&c, &w);
	memset(wc, 0, sizeof(*wc));
	wc->status = (enum ib_wc_status)w.status;
	wc->opcode = (enum ib_wc_opcode)w.opcode;
	wc->byte_len = w.byte_len;
	wc->wc_flags = (int)w.flags;
	wc->vendor_err = w.vendor_err;
	wc->qp = &qp->ibqp;
	wc->port_num = 1;
	req = c.opcode == MLXL_CQE_REQ || c.opcode == MLXL_CQE_REQ_ERR;
	if (req) {
		if (!sq_complete(qp, &c, wc))
			return false;
		if (c.opcode == MLXL_CQE_REQ &&
		    (c.wqe_op == MLXL_WQE_ATOMIC_CS || c.wqe_op == MLXL_WQE_ATOMIC_FA))
			wc->byte_len = 8;
		return true;
	}
	if (qp->ibqp.srq) {
		if (!rq_complete(&to_msrq(qp->ibqp.srq)->rq, c.wqe_counter, wc))
			return false;
	} else if (!rq_complete(&qp->rq, qp->rq.tail, wc)) {
		return false;
	}
	if (w.flags & MLXL_WCF_IMM)
		wc->ex.imm_data = (__force __be32)c.imm_be;
	else if (w.flags & MLXL_WCF_INV)
		wc->ex.invalidate_rkey = c.inv_rkey;
	wc->src_qp = c.src_qp;
	wc->network_hdr_type = 0;
	return true;
}

/* a dead device: every outstanding work request flushed, in software */
static int poll_flush(struct mlxl_cq *cq, int num, struct ib_wc *wc)
{
	struct mlxl_qp *qp;
	int n = 0;

	lockdep_assert_held(&cq->lock);
	list_for_each_entry(qp, &cq->send_qps, send_node) {
		struct mlxl_wq *sq = &qp->sq;
		u32 mask = (1u << sq->log_size) - 1, bound = mask + 1;

		spin_lock(&sq->lock);
		while (sq->slot && n < num && sq->tail != sq->head && bound--) {
			struct mlxl_wq_slot *s = &sq->slot[sq->tail & mask];

			memset(&wc[n], 0, sizeof(wc[n]));
			wc[n].wr_id = s->wr_id;
			wc[n].status = IB_WC_WR_FLUSH_ERR;
			wc[n].opcode = (enum ib_wc_opcode)s->wc_op;
			wc[n].qp = &qp->ibqp;
			n++;
			sq->tail += s->nbb ? s->nbb : 1;
		}
		spin_unlock(&sq->lock);
	}
	list_for_each_entry(qp, &cq->recv_qps, recv_node) {
		struct mlxl_wq *rq = &qp->rq;
		u32 mask = (1u << rq->log_size) - 1;

		spin_lock(&rq->lock);
		while (rq->slot && n < num && rq->tail != rq->head) {
			memset(&wc[n], 0, sizeof(wc[n]));
			wc[n].wr_id = rq->slot[rq->tail & mask].wr_id;
			wc[n].status = IB_WC_WR_FLUSH_ERR;
			wc[n].opcode = IB_WC_RECV;
			wc[n].qp = &qp->ibqp;
			n++;
			rq->tail++;
		}
		spin_unlock(&rq->lock);
	}
	return n;
}

static int mlxl_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct mlxl_ib *mib = to_mib(ibcq->device);
	struct mlxl_cq *cq = to_mcq(ibcq);
	u32 mask = (1u << cq->hw.log_size) - 1, seen = 0;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	if (mlxl_is_fatal(mib->hw)) {
		n = poll_flush(cq, num, wc);
		goto out;
	}
	while (n < num && seen <= mask) {
		const u8 *cqe = (const u8 *)cq->hw.buf.cpu +
				(cq->ci & mask) * MLXL_CQE_SIZE;

		if (!mlxl_cqe_sw_owned(cqe, cq->ci, cq->hw.log_size))
			break;
		dma_rmb();	/* the CQE after its owner bit */
		cq->ci++;
		seen++;
		if (poll_one(mib, cqe, &wc[n]))
			n++;
	}
	if (seen)
		WRITE_ONCE(((__be32 *)cq->hw.db.cpu)[0],
			   cpu_to_be32(cq->ci & 0xffffff));
out:
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/* work a poll would report now */
static bool cq_pending(struct mlxl_ib *mib, struct mlxl_cq *cq)
{
	u32 mask = (1u << cq->hw.log_size) - 1;
	struct mlxl_qp *qp;

	lockdep_assert_held(&cq->lock);
	if (!mlxl_is_fatal(mib->hw))
		return mlxl_cqe_sw_owned((const u8 *)cq->hw.buf.cpu +
					 (cq->ci & mask) * MLXL_CQE_SIZE,
					 cq->ci, cq->hw.log_size);
	list_for_each_entry(qp, &cq->send_qps, send_node)
		if (READ_ONCE(qp->sq.head) != qp->sq.tail)
			return true;
	list_for_each_entry(qp, &cq->recv_qps, recv_node)
		if (READ_ONCE(qp->rq.head) != qp->rq.tail)
			return true;
	return false;
}

static int mlxl_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mlxl_ib *mib = to_mib(ibcq->device);
	struct mlxl_cq *cq = to_mcq(ibcq);
	__be32 *db = (__be32 *)cq->hw.db.cpu;
	unsigned long irqf;
	u32 word;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqf);
	word = mlxl_arm_word(READ_ONCE(cq->hw.arm_sn),
			     (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED,
			     cq->ci);
	WRITE_ONCE(db[1], cpu_to_be32(word));
	wmb();		/* the record before the doorbell */
	if (!mlxl_is_fatal(mib->hw))
		mib->hw->ops->wr64(mib->hw->ctx, mib->hw->uar * MLXL_UAR_BYTES +
				   MLXL_UAR_CQ_DB,
				   (u64)word << 32 | cq->hw.cqn);
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq_pending(mib, cq))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqf);
	return ret;
}

const struct ib_device_ops mlxl_dp_ops = {
	.post_send = mlxl_post_send,
	.post_recv = mlxl_post_recv,
	.post_srq_recv = mlxl_post_srq_recv,
	.poll_cq = mlxl_poll_cq,
	.req_notify_cq = mlxl_req_notify_cq,
};
