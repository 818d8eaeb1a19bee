// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Posting work requests and the local part of the send queue.
 *
 * Kernel QPs post WRs converted to the uapi WQE layout, so the SQ and RQ
 * rings look the same for kernel and user QPs; user QPs post into the
 * ring themselves and ring the doorbell (post_send with no WR).  The
 * requester (rxe_req.c) consumes the SQ: it runs local operations
 * (REG_MR, LOCAL_INV, BIND_MW) with rxe_send_do_local() in WQE order,
 * sends the remote ones, and flushes everything in ERR.
 */
#include <linux/string.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

/* the kernel-only opcodes the pure table (rxe_wr_ops.h) numbers itself */
static_assert(RXE_WR_REG_MR == IB_WR_REG_MR);
static_assert(RXE_WC_REG_MR == IB_WC_REG_MR);

/* Is @opcode with @flags/@num_sge/@len acceptable on @qp? */
bool rxe_send_wqe_ok(struct rxe_qp *qp, u32 opcode, u32 send_flags,
		     u32 num_sge, u32 len)
{
	const struct rxe_wr_op *op = rxe_wr_op(opcode);

	if (!op || !(op->qp_types & RXE_QPT_BIT(qp->ibqp.qp_type)))
		return false;
	if ((op->flags & RXE_WR_KERNEL) && qp->is_user)
		return false;
	if (send_flags & IB_SEND_INLINE) {
		if (!(op->flags & RXE_WR_INLINE) || len > qp->sq.max_inline)
			return false;
	} else if (op->kind != RXE_SWQE_LOCAL && num_sge > qp->sq.max_sge) {
		return false;
	}
	return true;
}

void rxe_wc_fill(struct ib_wc *wc, struct rxe_qp *qp, u64 wr_id,
		 enum ib_wc_status status, enum ib_wc_opcode opcode)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->status = status;
	wc->opcode = opcode;
	wc->qp = &qp->ibqp;
	wc->port_num = RXE_PORT;
}

/* ---- receive side ---- */

static int rxe_fill_recv_wqe(struct rxe_recv_wqe *wqe, u32 slot_len,
			     const struct ib_recv_wr *wr, u32 max_sge)
{
	u32 len = 0;
	int i;

	if (wr->num_sge < 0 || (u32)wr->num_sge > max_sge ||
	    rxe_rq_wqe_size(wr->num_sge) > slot_len)
		return -EINVAL;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i].addr = wr->sg_list[i].addr;
		wqe->dma.sge[i].length = wr->sg_list[i].length;
		wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		len += wr->sg_list[i].length;
	}
	wqe->dma.length = len;
	wqe->dma.resid = len;
	wqe->dma.num_sge = wr->num_sge;
	return 0;
}

/* post @wr chain to a kernel RQ/SRQ ring under its owner's lock */
int rxe_post_recv_ring(struct rxe_queue *q, const struct ib_recv_wr *wr,
		       u32 max_sge, const struct ib_recv_wr **bad_wr)
{
	int ret;

	for (; wr; wr = wr->next) {
		if (rxe_queue_full(q)) {
			ret = -ENOMEM;
			goto bad;
		}
		ret = rxe_fill_recv_wqe((struct rxe_recv_wqe *)
					rxe_queue_producer_slot(q),
					1U << q->log2_elem, wr, max_sge);
		if (ret)
			goto bad;
		rxe_queue_advance_producer(q);
	}
	return 0;
bad:
	*bad_wr = wr;
	return ret;
}

/*
 * Flush in WQE order: the WQE the responder holds (older than any in the
 * ring), then the ring.  The responder posting a CQE holds the RQ busy
 * too (rxe_rq_complete_begin), so CQEs never overtake each other.  A
 * user QP's producer index is user memory: a pass ends after one ring's
 * worth (what is posted while the QP is in ERR has no flush promised).
 */
static void rxe_rq_flush(struct rxe_qp *qp)
{
	struct rxe_cq *cq = to_rcq(qp->ibqp.recv_cq);
	struct rxe_wq *rq = &qp->rq;
	struct rxe_recv_wqe *wqe;
	struct ib_wc wc;
	u32 n = 0;
	u64 wr_id;

	spin_lock_bh(&rq->lock);
	if (!rxe_runner_claim(&rq->run, &rq->lock))
		goto out;
	for (;;) {
		if (qp->resp.wqe_taken) {
			qp->resp.wqe_taken = false;
			wr_id = rxe_resp_wqe(&qp->resp)->wr_id;
		} else if (rq->queue && !rxe_queue_empty(rq->queue) &&
			   n++ <= rq->queue->index_mask) {
			wqe = (struct rxe_recv_wqe *)
			      rxe_queue_consumer_slot(rq->queue);
			wr_id = READ_ONCE(wqe->wr_id);
			rxe_queue_advance_consumer(rq->queue);
		} else {
			if (rxe_runner_release(&rq->run, &rq->lock))
				break;
			n = 0;	/* asked again: a new pass */
			continue;
		}
		rxe_wc_fill(&wc, qp, wr_id, IB_WC_WR_FLUSH_ERR, IB_WC_RECV);
		spin_unlock_bh(&rq->lock);
		rxe_cq_post(cq, &wc, false);
		spin_lock_bh(&rq->lock);
	}
out:
	spin_unlock_bh(&rq->lock);
}

int rxe_rq_take(struct rxe_qp *qp)
{
	struct rxe_wq *rq = &qp->rq;
	int ret = -EAGAIN;

	spin_lock_bh(&rq->lock);
	if (rq->queue && !rq->run.busy && !qp->resp.wqe_taken &&
	    !rxe_queue_empty(rq->queue)) {
		memcpy(qp->resp.wqe_buf, rxe_queue_consumer_slot(rq->queue),
		       min_t(size_t, sizeof(qp->resp.wqe_buf),
			     1U << rq->queue->log2_elem));
		rxe_queue_advance_consumer(rq->queue);
		qp->resp.wqe_taken = true;
		ret = 0;
	}
	spin_unlock_bh(&rq->lock);
	return ret;
}

void rxe_rq_hold(struct rxe_qp *qp)
{
	spin_lock_bh(&qp->rq.lock);
	qp->resp.wqe_taken = true;
	spin_unlock_bh(&qp->rq.lock);
}

void rxe_rq_forget(struct rxe_qp *qp)
{
	spin_lock_bh(&qp->rq.lock);
	qp->resp.wqe_taken = false;
	spin_unlock_bh(&qp->rq.lock);
}

bool rxe_rq_complete_begin(struct rxe_qp *qp)
{
	struct rxe_wq *rq = &qp->rq;
	bool ok = false;

	spin_lock_bh(&rq->lock);
	/* when a flush runs, it completes the WQE */
	if (qp->resp.wqe_taken && rxe_runner_claim(&rq->run, &rq->lock)) {
		qp->resp.wqe_taken = false;
		ok = true;
	}
	spin_unlock_bh(&rq->lock);
	return ok;
}

void rxe_rq_complete_end(struct rxe_qp *qp)
{
	struct rxe_wq *rq = &qp->rq;
	bool again;

	spin_lock_bh(&rq->lock);
	again = rxe_runner_stop(&rq->run, &rq->lock);
	spin_unlock_bh(&rq->lock);
	/* a flush was asked for meanwhile */
	if (again)
		rxe_rq_flush(qp);
}

int rxe_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state state = rxe_qp_state(qp);
	int ret;

	if (qp->is_user || ibqp->srq || !qp->rq.queue ||
	    state == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_bh(&qp->rq.lock);
	ret = rxe_post_recv_ring(qp->rq.queue, wr, qp->rq.max_sge, bad_wr);
	spin_unlock_bh(&qp->rq.lock);
	if (state == IB_QPS_ERR)
		rxe_rq_flush(qp);
	return ret;
}

/* ---- send side ---- */

static int rxe_fill_send_wqe(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			     const struct ib_send_wr *wr)
{
	u32 len = 0;
	int i;

	if (wr->num_sge < 0)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (!rxe_send_wqe_ok(qp, wr->opcode, wr->send_flags, wr->num_sge, len))
		return -EINVAL;

	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		wqe->iova = rdma_wr(wr)->remote_addr;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
		wqe->iova = atomic_wr(wr)->remote_addr;
		break;
	case IB_WR_ATOMIC_WRITE:
		/* the operand: 8 bytes at the kernel address of the one SGE */
		if (wr->num_sge != 1 || wr->sg_list[0].length != sizeof(u64))
			return -EINVAL;
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		wqe->iova = rdma_wr(wr)->remote_addr;
		memcpy(wqe->dma.inline_data,
		       (void *)(uintptr_t)wr->sg_list[0].addr, sizeof(u64));
		wqe->dma.length = sizeof(u64);
		wqe->dma.resid = sizeof(u64);
		return 0;
	case IB_WR_FLUSH:
		/* no kernel work request carries FLUSH operands */
		return -EINVAL;
	case IB_WR_REG_MR:
		wqe->wr.wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.wr.reg.key = reg_wr(wr)->key;
		wqe->wr.wr.reg.access = reg_wr(wr)->access;
		break;
	default:
		break;
	}
	if (qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI) {
		struct rxe_ah *ah = to_rah(ud_wr(wr)->ah);

		wqe->wr.wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
		wqe->wr.wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
		wqe->wr.wr.ud.pkey_index = ud_wr(wr)->pkey_index;
		wqe->wr.wr.ud.ah_num = ah ? ah->elem.index : 0;
	}

	if (wr->send_flags & IB_SEND_INLINE) {
		u8 *p = wqe->dma.inline_data;

		for (i = 0; i < wr->num_sge; i++) {
			memcpy(p, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			p += wr->sg_list[i].length;
		}
	} else {
		for (i = 0; i < wr->num_sge; i++) {
			wqe->dma.sge[i].addr = wr->sg_list[i].addr;
			wqe->dma.sge[i].length = wr->sg_list[i].length;
			wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		}
		wqe->dma.num_sge = wr->num_sge;
	}
	wqe->dma.length = len;
	wqe->dma.resid = len;
	return 0;
}

static int rxe_post_send_kernel(struct rxe_qp *qp, const struct ib_send_wr *wr,
				const struct ib_send_wr **bad_wr)
{
	struct rxe_queue *q = qp->sq.queue;
	int ret = 0;

	spin_lock_bh(&qp->sq.lock);
	for (; wr; wr = wr->next) {
		if (rxe_queue_full(q)) {
			ret = -ENOMEM;
			break;
		}
		ret = rxe_fill_send_wqe(qp, (struct rxe_send_wqe *)
					rxe_queue_producer_slot(q), wr);
		if (ret)
			break;
		rxe_queue_advance_producer(q);
	}
	spin_unlock_bh(&qp->sq.lock);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/* Run one local WQE (a private copy); returns the WC status. */
int rxe_send_do_local(struct rxe_qp *qp, const struct rxe_send_wqe *wqe)
{
	struct rxe_pd *pd = to_rpd(qp->ibqp.pd);

	switch (wqe->wr.opcode) {
	case IB_WR_REG_MR:
		return rxe_mr_fast_reg(pd, to_rmr(wqe->wr.wr.reg.mr),
				       wqe->wr.wr.reg.key,
				       wqe->wr.wr.reg.access);
	case IB_WR_LOCAL_INV:
		if ((wqe->wr.ex.invalidate_rkey >> 8) >= RXE_MIN_MW_INDEX)
			return rxe_invalidate_mw(qp, wqe->wr.ex.invalidate_rkey,
						 false);
		return rxe_mr_invalidate(pd, wqe->wr.ex.invalidate_rkey);
	case IB_WR_BIND_MW:
		return rxe_bind_mw(qp, wqe->wr.wr.mw.mw_rkey,
				   wqe->wr.wr.mw.rkey, wqe->wr.wr.mw.mr_lkey,
				   wqe->wr.wr.mw.addr, wqe->wr.wr.mw.length,
				   (int)wqe->wr.wr.mw.access);
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
}

enum ib_wc_opcode rxe_send_wc_opcode(u32 wr_opcode)
{
	const struct rxe_wr_op *op = rxe_wr_op(wr_opcode);

	return op ? (enum ib_wc_opcode)op->wc_opcode : IB_WC_SEND;
}

/* the send side is the requester's (rxe_req.c) */
void rxe_sq_process(struct rxe_qp *qp)
{
	rxe_req_run(qp);
}

/* flush in ERR: the requester completes every send WQE in order */
void rxe_qp_flush(struct rxe_qp *qp)
{
	rxe_req_run(qp);
	rxe_rq_flush(qp);
}

int rxe_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state state = rxe_qp_state(qp);
	int ret = 0;

	/* like 6.1: nothing is sent before RTS (doorbell included) */
	if (state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	if (qp->is_user) {
		if (wr) {
			*bad_wr = wr;
			return -EINVAL;
		}
		/* the doorbell: the requester takes the new WQEs */
		rxe_req_doorbell(qp);
		return 0;
	}
	/* kernel posters: run the requester right away (as 6.1 does) */
	ret = rxe_post_send_kernel(qp, wr, bad_wr);
	rxe_req_run_local(qp);
	return ret;
}
