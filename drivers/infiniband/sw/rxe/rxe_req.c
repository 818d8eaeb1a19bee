// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester: takes send WQEs from the SQ ring (into private copies),
 * runs local operations, turns remote ones into request packets (PSNs,
 * path MTU segmentation, extended headers, payload from the local SGEs)
 * and drives the per-QP work that also runs the completer (rxe_comp.c).
 * Documentation/rxe/datapath.rst, "Requester and completer".
 */
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/mm.h>
#include <linux/jiffies.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

/* at most this many PSNs sent and not acknowledged */
#define RXE_REQ_WINDOW		128
/* ask for an ACK at least every this many packets (power of two) */
#define RXE_REQ_ACK_EVERY	32
/* packets sent per pass before the runner yields */
#define RXE_REQ_BUDGET		64
/* passes of one run (a pass answers the requests of the one before) */
#define RXE_REQ_LOOKS		16
/* entries of the private copies at first (they grow to the ring) */
#define RXE_REQ_COPIES_MIN	16

/* ---- pure helpers ---- */

/*
 * rdma-core v45+ lays the FLUSH operands over the start of wr.wr: the
 * address (8 bytes), the length and the R_Key (4 each), the placement
 * type and the selectivity level (1 each).
 */
void rxe_wqe_flush(const struct rxe_send_wqe *wqe, struct rxe_wqe_flush *f)
{
	const u8 *u = (const u8 *)&wqe->wr.wr;

	memcpy(&f->remote_addr, u, 8);
	memcpy(&f->length, u + 8, 4);
	memcpy(&f->rkey, u + 12, 4);
	f->type = u[16];
	f->level = u[17];
}

u32 rxe_mtu_bytes(u32 mtu)
{
	if (mtu < IB_MTU_256)
		mtu = IB_MTU_256;
	if (mtu > IB_MTU_4096)
		mtu = IB_MTU_4096;
	return 128U << mtu;
}

u32 rxe_msg_pkts(u32 len, u32 mtu_bytes)
{
	return len ? DIV_ROUND_UP(len, mtu_bytes) : 1;
}

/* IBTA vol. 1, table 45: RNR NAK timer field -> microseconds */
static const u32 rxe_rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120,
	160, 240, 320, 480, 640, 960, 1280, 1920,
	2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

u32 rxe_rnr_timer_us(u8 code)
{
	return rxe_rnr_us[code & 31];
}

u64 rxe_ack_timeout_us(u8 timeout)
{
	if (!timeout)
		return 0;
	/* 4.096 us * 2^t = 4096 ns << t */
	return (4096ULL << (timeout & 31)) / 1000;
}

u64 rxe_ack_backoff_us(u8 timeout, u32 expired)
{
	return rxe_ack_timeout_us(timeout) <<
	       min_t(u32, expired, RXE_RETRY_BACKOFF_SHIFT);
}

/* ---- ring bookkeeping ---- */

u32 rxe_req_ring_next(struct rxe_qp *qp, u32 index)
{
	return rxe_queue_next(index, qp->sq.queue->index_mask);
}

struct rxe_swqe *rxe_req_swqe(struct rxe_qp *qp, u32 index)
{
	return &qp->req.swqe[index & qp->req.cmask];
}

static struct rxe_send_wqe *rxe_req_copy(struct rxe_req *req, u32 index)
{
	return (struct rxe_send_wqe *)(req->copies +
		((size_t)(index & req->cmask) << req->log2_elem));
}

void rxe_swqe_finish(struct rxe_qp *qp, struct rxe_swqe *sw, u8 state,
		     u8 status)
{
	if ((sw->kind == RXE_SWQE_READ || sw->kind == RXE_SWQE_ATOMIC) &&
	    sw->state != RXE_SWQE_DONE && sw->state != RXE_SWQE_ERROR &&
	    qp->req.rd_atomic)
		qp->req.rd_atomic--;
	sw->state = state;
	sw->status = status;
	if (state == RXE_SWQE_ERROR)
		qp->req.stopped = true;
}

void rxe_wqe_seek(struct rxe_send_wqe *wqe, u32 off)
{
	struct rxe_dma_info *dma = &wqe->dma;
	u32 i = 0;

	dma->resid = dma->length - off;
	while (i < dma->num_sge && off >= dma->sge[i].length &&
	       dma->sge[i].length) {
		off -= dma->sge[i].length;
		i++;
	}
	/* zero-length SGEs in between are skipped by the copy */
	dma->cur_sge = i;
	dma->sge_offset = off;
}

static u32 rxe_wqe_offset(const struct rxe_send_wqe *wqe)
{
	return wqe->dma.length - wqe->dma.resid;
}

/*
 * Payload bytes per packet: the path MTU (RC/UC), never more than the
 * netdev carries (the port's active MTU); UD: the active MTU.
 */
u32 rxe_req_mtu(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	u32 port = rxe->ndev ? rxe_mtu_bytes(rxe_path_mtu_from_netdev_mtu(
					READ_ONCE(rxe->ndev->mtu))) : 256;

	if (qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC)
		return min(rxe_mtu_bytes(qp->attr.path_mtu), port);
	return port;
}

/* ---- timers and the work item ---- */

static void rxe_req_retry_expired(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, req.retry_timer);

	set_bit(RXE_REQ_EV_TIMEOUT, &qp->req.events);
	rxe_req_kick(qp);
}

static void rxe_req_rnr_expired(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, req.rnr_timer);

	set_bit(RXE_REQ_EV_RNR, &qp->req.events);
	rxe_req_kick(qp);
}

unsigned long rxe_req_retry_jiffies(struct rxe_qp *qp)
{
	u32 expired = 0;
	u64 us;

	/* expiries since the last progress (retry_left counts them down) */
	if (qp->attr.retry_cnt > qp->req.retry_left)
		expired = qp->attr.retry_cnt - qp->req.retry_left;
	us = rxe_ack_backoff_us(qp->attr.timeout, expired);
	if (!us)
		return 0;
	return max(usecs_to_jiffies(us > 100000000ULL ? 100000000U : (u32)us),
		   1UL);
}

void rxe_req_arm_retry(struct rxe_qp *qp, bool restart)
{
	unsigned long j = rxe_req_retry_jiffies(qp);

	if (!j || qp->ibqp.qp_type != IB_QPT_RC || READ_ONCE(qp->req.dead))
		return;
	if (!restart && timer_pending(&qp->req.retry_timer))
		return;
	mod_timer(&qp->req.retry_timer, jiffies + j);
}

static void rxe_req_run_in(struct rxe_qp *qp, bool may_sleep);

void rxe_req_yield(struct rxe_qp *qp)
{
	if (qp->req.may_sleep)
		cond_resched();
}

static void rxe_req_work(struct work_struct *w)
{
	struct rxe_qp *qp = container_of(w, struct rxe_qp, req.work);

	rxe_req_run_in(qp, true);
}

/* a user's are charged (ENOMEM beyond its cgroup's limit) */
static gfp_t rxe_req_gfp(struct rxe_qp *qp)
{
	return qp->is_user ? GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL :
			     GFP_KERNEL;
}

void rxe_req_init(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;
	struct rxe_queue *q = qp->sq.queue;
	u32 slots = min_t(u32, q->index_mask + 1, RXE_REQ_COPIES_MIN);
	gfp_t gfp = rxe_req_gfp(qp);

	INIT_WORK(&req->work, rxe_req_work);
	skb_queue_head_init(&req->resp_pkts);
	timer_setup(&req->retry_timer, rxe_req_retry_expired, 0);
	timer_setup(&req->rnr_timer, rxe_req_rnr_expired, 0);
	spin_lock_init(&req->lock);
	req->log2_elem = q->log2_elem;
	req->cmask = slots - 1;
	req->swqe = (struct rxe_swqe *)kvcalloc(slots, sizeof(*req->swqe), gfp);
	req->copies = (u8 *)kvcalloc(slots, 1U << q->log2_elem, gfp);
	if (!req->swqe || !req->copies)
		req->nomem = true;
}

/* forget every taken WQE (RESET) */
static void rxe_req_forget(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;

	del_timer(&req->retry_timer);
	del_timer(&req->rnr_timer);
	skb_queue_purge(&req->resp_pkts);
	req->events = 0;
	req->head = 0;
	req->cur = 0;
	req->next = 0;
	req->next_copied = false;
	req->full = false;
	req->rd_atomic = 0;
	req->rnr_wait = false;
	req->stopped = false;
	req->goback_wait = false;
}

void rxe_req_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
		    int mask)
{
	struct rxe_req *req = &qp->req;
	enum ib_qp_state state = rxe_qp_state(qp);

	if ((mask & IB_QP_STATE) && state == IB_QPS_RESET) {
		del_timer_sync(&req->retry_timer);
		del_timer_sync(&req->rnr_timer);
		cancel_work_sync(&req->work);
		/* the runner forgets everything when it sees RESET */
		rxe_req_run(qp);
	}
	spin_lock_bh(&req->lock);
	if (mask & IB_QP_SQ_PSN) {
		req->psn = attr->sq_psn & RXE_PSN_MASK;
		req->una = req->psn;
		req->sent_psn = req->psn;
	}
	if (mask & IB_QP_RETRY_CNT)
		req->retry_left = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		req->rnr_left = attr->rnr_retry;
	spin_unlock_bh(&req->lock);
	if (mask & IB_QP_STATE)
		rxe_req_kick(qp);
}

/*
 * A user doorbell only queues the requester's look, and a datagram WQE
 * names its AH by number, looked up when the packet is built.  Destroying
 * the QP (rxe_destroy_qp) or an AH of its PD (rxe_destroy_ah) first lets
 * the queued look run, so what was posted before the destroy is sent:
 * 6.1 sends user WQEs within the doorbell, hardware has them on the wire
 * by then, and mckey destroys its AH and QP right after posting.  One
 * look sends at most RXE_REQ_BUDGET packets.  RC is not drained: its
 * responses would find no QP.
 */
void rxe_req_drain_doorbell(struct rxe_qp *qp)
{
	might_sleep();
	if (qp->ibqp.qp_type == IB_QPT_RC ||
	    rxe_qp_state(qp) != IB_QPS_RTS)
		return;
	flush_work(&qp->req.work);
}

void rxe_req_cleanup(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;

	spin_lock_bh(&req->lock);
	req->dead = true;
	spin_unlock_bh(&req->lock);
	del_timer_sync(&req->retry_timer);
	del_timer_sync(&req->rnr_timer);
	cancel_work_sync(&req->work);
	/* a timer that fired before it saw @dead may have queued the work */
	del_timer_sync(&req->retry_timer);
	del_timer_sync(&req->rnr_timer);
	cancel_work_sync(&req->work);
	skb_queue_purge(&req->resp_pkts);
	kvfree(req->swqe);
	kvfree(req->copies);
	req->swqe = NULL;
	req->copies = NULL;
}

void rxe_req_kick(struct rxe_qp *qp)
{
	if (!READ_ONCE(qp->req.dead))
		queue_work_on(qp->cpu, rxe_wq, &qp->req.work);
}

void rxe_req_note(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;
	bool asked;

	spin_lock_bh(&req->lock);
	asked = rxe_runner_ask(&req->run, &req->lock);
	spin_unlock_bh(&req->lock);
	if (!asked)
		rxe_req_kick(qp);
}

void rxe_req_doorbell(struct rxe_qp *qp)
{
	might_sleep();
	migrate_disable();
	if (raw_smp_processor_id() == qp->cpu || !READ_ONCE(qp->req.wire_sent))
		rxe_req_run_in(qp, true);
	else
		rxe_req_kick(qp);
	migrate_enable();
}

/* ---- taking WQEs ---- */

int rxe_req_grow(struct rxe_qp *qp, gfp_t gfp)
{
	struct rxe_req *req = &qp->req;
	u32 n = req->cmask + 1, elem = 1U << req->log2_elem;
	u32 used, i, idx, newmask;
	struct rxe_swqe *swqe;
	u8 *copies;

	if (n > qp->sq.queue->index_mask)
		return -ENOSPC;
	newmask = 2 * n - 1;
	swqe = (struct rxe_swqe *)kvcalloc(2 * n, sizeof(*swqe), gfp);
	copies = (u8 *)kvcalloc(2 * n, elem, gfp);
	if (!swqe || !copies) {
		kvfree(swqe);
		kvfree(copies);
		return -ENOMEM;
	}
	used = rxe_queue_used(req->next, req->head, qp->sq.queue->index_mask);
	if (req->next_copied)
		used++;
	for (i = 0, idx = req->head; i < used;
	     i++, idx = rxe_req_ring_next(qp, idx)) {
		swqe[idx & newmask] = req->swqe[idx & req->cmask];
		memcpy(copies + ((size_t)(idx & newmask) << req->log2_elem),
		       rxe_req_copy(req, idx), elem);
		/* only the taken ones point at their copy */
		if (idx != req->next)
			swqe[idx & newmask].wqe = (struct rxe_send_wqe *)
				(copies + ((size_t)(idx & newmask) <<
					   req->log2_elem));
	}
	kvfree(req->swqe);
	kvfree(req->copies);
	req->swqe = swqe;
	req->copies = copies;
	req->cmask = newmask;
	return 0;
}

/*
 * Room for the WQE at @next: an entry not holding a taken WQE, after
 * growing if need be.  False when it must wait (for the work item, or
 * for completions).
 */
static bool rxe_req_room(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;
	u32 used = rxe_queue_used(req->next, req->head,
				  qp->sq.queue->index_mask);

	if (used > req->cmask) {
		if (!req->may_sleep) {
			req->full = true;
			rxe_req_kick(qp);
			return false;
		}
		if (rxe_req_grow(qp, rxe_req_gfp(qp) | __GFP_NOWARN)) {
			req->full = true;
			return false;
		}
	}
	req->full = false;
	return true;
}

/* check the private copy; 0 or a WC status */
static int rxe_req_check(struct rxe_qp *qp, struct rxe_swqe *sw, u32 mtu)
{
	struct rxe_send_wqe *wqe = sw->wqe;
	const struct rxe_wr_op *op = rxe_wr_op(wqe->wr.opcode);
	struct rxe_dma_info *dma = &wqe->dma;
	u32 flags = wqe->wr.send_flags;
	u64 len = 0;
	u32 i;

	if (op && (op->flags & RXE_WR_VALUE8)) {
		/* the operand is in the WQE (dma.atomic_wr): no SGE */
		len = sizeof(u64);
		dma->num_sge = 0;
	} else if (op && (op->flags & RXE_WR_EMPTY_RESP)) {
		/* FLUSH: no SGE, no payload; its length is the RETH's */
		dma->num_sge = 0;
	} else if (flags & IB_SEND_INLINE) {
		len = dma->length;
		dma->num_sge = 0;
	} else if (sw->kind != RXE_SWQE_LOCAL) {
		if (dma->num_sge > qp->sq.max_sge)
			return IB_WC_LOC_QP_OP_ERR;
		for (i = 0; i < dma->num_sge; i++)
			len += dma->sge[i].length;
	}
	if (!rxe_send_wqe_ok(qp, wqe->wr.opcode, flags, dma->num_sge,
			     (u32)min_t(u64, len, U32_MAX)))
		return IB_WC_LOC_QP_OP_ERR;
	if (!(op->sent_types & RXE_QPT_BIT(qp->ibqp.qp_type)))
		return IB_WC_LOC_QP_OP_ERR;
	if (len > RXE_MAX_MSG_SZ)
		return IB_WC_LOC_LEN_ERR;
	dma->length = (u32)len;
	dma->resid = (u32)len;
	dma->cur_sge = 0;
	dma->sge_offset = 0;
	/* compare-and-swap and fetch-and-add return 8 bytes into the SGEs */
	if (sw->kind == RXE_SWQE_ATOMIC && !(op->flags & RXE_WR_EMPTY_RESP) &&
	    len < sizeof(u64))
		return IB_WC_LOC_LEN_ERR;
	if ((qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI) &&
	    len > mtu)
		return IB_WC_LOC_LEN_ERR;
	return 0;
}

/*
 * Copy the WQE at ring index @next and give it its PSNs.  Returns false
 * when it must wait (fence, read/atomic limit, window).
 */
static bool rxe_req_take(struct rxe_qp *qp, u32 mtu)
{
	struct rxe_req *req = &qp->req;
	struct rxe_queue *q = qp->sq.queue;
	struct rxe_send_wqe *wqe;
	struct rxe_swqe *sw;
	u32 max_rd, npkts;
	const struct rxe_wr_op *op;
	int status;
	u8 kind;

	if (!rxe_req_room(qp))
		return false;
	sw = rxe_req_swqe(qp, req->next);

	/*
	 * Every decision is made on the private copy: the ring slot is
	 * user memory and may change between two reads.  The slot is
	 * copied once; a WQE that must wait is decided on again from the
	 * same copy.
	 */
	wqe = rxe_req_copy(req, req->next);
	if (!req->next_copied) {
		memcpy(wqe, rxe_queue_slot(q, req->next), 1U << req->log2_elem);
		req->next_copied = true;
	}
	op = rxe_wr_op(wqe->wr.opcode);
	kind = op ? op->kind : RXE_SWQE_LOCAL;
	max_rd = qp->attr.max_rd_atomic ? qp->attr.max_rd_atomic : 1;
	if ((kind == RXE_SWQE_READ || kind == RXE_SWQE_ATOMIC) &&
	    req->rd_atomic >= max_rd)
		return false;
	if (kind != RXE_SWQE_LOCAL && qp->ibqp.qp_type == IB_QPT_RC &&
	    rxe_psn_diff(req->psn, req->una) >= RXE_REQ_WINDOW)
		return false;
	if ((wqe->wr.send_flags & IB_SEND_FENCE) && req->rd_atomic)
		return false;

	memset(sw, 0, sizeof(*sw));
	sw->wqe = wqe;
	sw->kind = kind;
	req->next = rxe_req_ring_next(qp, req->next);
	req->next_copied = false;
	status = rxe_req_check(qp, sw, mtu);
	if (!status && sw->kind == RXE_SWQE_LOCAL)
		status = rxe_send_do_local(qp, wqe);
	if (status) {
		rxe_swqe_finish(qp, sw, RXE_SWQE_ERROR, (u8)status);
		return true;
	}
	if (sw->kind == RXE_SWQE_LOCAL) {
		sw->state = RXE_SWQE_DONE;
		return true;
	}
	if (sw->kind == RXE_SWQE_READ || sw->kind == RXE_SWQE_ATOMIC)
		req->rd_atomic++;
	npkts = sw->kind == RXE_SWQE_ATOMIC ? 1 :
		rxe_msg_pkts(wqe->dma.length, mtu);
	sw->first_psn = req->psn;
	sw->last_psn = rxe_psn_add(req->psn, npkts - 1);
	sw->next_psn = sw->first_psn;
	sw->rd_psn = sw->first_psn;
	sw->state = RXE_SWQE_SENDING;
	req->psn = rxe_psn_add(req->psn, npkts);
	return true;
}

/* ---- building packets ---- */

static u8 rxe_req_transport(struct rxe_qp *qp)
{
	switch (qp->ibqp.qp_type) {
	case IB_QPT_RC:
		return RXE_TR_RC;
	case IB_QPT_UC:
		return RXE_TR_UC;
	default:
		return RXE_TR_UD;
	}
}

/* payload of @len bytes at the WQE's offset @off into @buf; 0 or status */
static int rxe_req_payload(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			   u32 off, u8 *buf, u32 len)
{
	int ret;

	if (!len)
		return 0;
	if (wqe->wr.send_flags & IB_SEND_INLINE) {
		if (off + len > qp->sq.max_inline)
			return IB_WC_LOC_LEN_ERR;
		memcpy(buf, wqe->dma.inline_data + off, len);
		return 0;
	}
	if (rxe_wqe_offset(wqe) != off)
		rxe_wqe_seek(wqe, off);
	ret = rxe_dma_copy(to_rpd(qp->ibqp.pd), 0, &wqe->dma, buf, len,
			   RXE_COPY_FROM_MR);
	if (ret == -EINVAL)
		return IB_WC_LOC_LEN_ERR;
	return ret ? IB_WC_LOC_PROT_ERR : 0;
}

/* the extended headers of one request packet */
static void rxe_req_ext(struct rxe_qp *qp, struct rxe_pkt *pkt,
			struct rxe_swqe *sw, u32 off)
{
	struct rxe_send_wqe *wqe = sw->wqe;
	u32 mask = pkt->info.mask;
	u32 qkey;

	if (mask & RXE_FLUSH_MASK) {
		struct rxe_wqe_flush f;

		rxe_wqe_flush(wqe, &f);
		rxe_feth_set(rxe_pkt_ext(pkt, RXE_HDR_FETH), f.type, f.level);
		rxe_reth_set(rxe_pkt_ext(pkt, RXE_HDR_RETH), f.remote_addr,
			     f.rkey, f.length);
	} else if (mask & RXE_RETH_MASK) {
		rxe_reth_set(rxe_pkt_ext(pkt, RXE_HDR_RETH),
			     wqe->wr.wr.rdma.remote_addr + off,
			     wqe->wr.wr.rdma.rkey, wqe->dma.length - off);
	}
	if (mask & RXE_ATMETH_MASK)
		rxe_atmeth_set(rxe_pkt_ext(pkt, RXE_HDR_ATMETH),
			       wqe->wr.wr.atomic.remote_addr,
			       wqe->wr.wr.atomic.rkey,
			       wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP ?
			       wqe->wr.wr.atomic.swap :
			       wqe->wr.wr.atomic.compare_add,
			       wqe->wr.wr.atomic.compare_add);
	if (mask & RXE_IMMDT_MASK)
		rxe_immdt_set(rxe_pkt_ext(pkt, RXE_HDR_IMMDT),
			      (const u8 *)&wqe->wr.ex.imm_data);
	if (mask & RXE_IETH_MASK)
		rxe_ieth_set(rxe_pkt_ext(pkt, RXE_HDR_IETH),
			     wqe->wr.ex.invalidate_rkey);
	if (mask & RXE_DETH_MASK) {
		qkey = wqe->wr.wr.ud.remote_qkey;
		if (qkey & 0x80000000U)
			qkey = qp->attr.qkey;
		rxe_deth_set(rxe_pkt_ext(pkt, RXE_HDR_DETH), qkey,
			     qp->ibqp.qp_num);
	}
}

/*
 * Send the packet of @sw at PSN @psn.  0 when it left (or was lost on
 * the way, which retransmission repairs), else a WC status.
 */
static int rxe_req_send_one(struct rxe_qp *qp, struct rxe_swqe *sw, u32 psn,
			    u32 mtu)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_send_wqe *wqe = sw->wqe;
	const struct rxe_wr_op *wop = rxe_wr_op(wqe->wr.opcode);
	bool value8 = wop && (wop->flags & RXE_WR_VALUE8);
	const struct rxe_av *av = &qp->pri_av;
	struct rxe_ah *ah = NULL;
	u32 idx = (u32)rxe_psn_diff(psn, sw->first_psn);
	u32 off = idx * mtu, len = wqe->dma.length, paylen = 0, dqpn;
	bool first = idx == 0, last, ackreq;
	struct rxe_tx tx = {
		.may_defer = qp->req.may_sleep,
		.wire = false,
		.resp_qp = NULL,
	};
	struct sk_buff *skb;
	struct rxe_pkt *pkt;
	int op, ret;

	switch (sw->kind) {
	case RXE_SWQE_READ:
	case RXE_SWQE_ATOMIC:
		/* one request packet; an atomic write carries its operand */
		op = rxe_wr_pkt_op(wqe->wr.opcode, true, true);
		last = true;
		if (value8)
			paylen = sizeof(u64);
		break;
	default:
		paylen = min(mtu, len - off);
		last = off + paylen >= len;
		op = rxe_wr_pkt_op(wqe->wr.opcode, first, last);
		break;
	}
	if (op == RXE_NO_PKT)
		return IB_WC_LOC_QP_OP_ERR;
	if (qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI) {
		ah = rxe_ah_lookup(rxe, wqe->wr.wr.ud.ah_num);
		if (ah && ah->ibah.pd != qp->ibqp.pd) {
			/* only the QP's own PD's address handles */
			rxe_elem_put(&ah->elem);
			ah = NULL;
		}
		if (!ah)
			return IB_WC_LOC_QP_OP_ERR;
		av = &ah->av;
		dqpn = wqe->wr.wr.ud.remote_qpn;
		/* UD has no SEND with invalidate */
		if (op == RXE_OP_SEND_ONLY_INV)
			op = RXE_OP_SEND_ONLY;
	} else {
		dqpn = qp->attr.dest_qp_num;
	}
	ret = 0;
	if (!rxe->ndev)
		goto out;	/* no wire (a made-up device): lost */
	skb = rxe_pkt_new(qp, av, RXE_OPCODE(rxe_req_transport(qp), op),
			  paylen);
	if (!skb)
		goto out;	/* like a lost packet */
	pkt = rxe_pkt(skb);
	ackreq = qp->ibqp.qp_type == IB_QPT_RC &&
		 (last || (psn & (RXE_REQ_ACK_EVERY - 1)) ==
			  RXE_REQ_ACK_EVERY - 1);
	rxe_bth_set(pkt->hdr, pkt->info.opcode,
		    last && (wqe->wr.send_flags & IB_SEND_SOLICITED),
		    pkt->info.pad, RXE_DEFAULT_PKEY, dqpn, ackreq, psn);
	rxe_req_ext(qp, pkt, sw, off);
	if (value8)
		memcpy(rxe_pkt_payload(pkt), wqe->dma.inline_data, sizeof(u64));
	else
		ret = rxe_req_payload(qp, wqe, off, rxe_pkt_payload(pkt),
				      paylen);
	if (ret) {
		kfree_skb(skb);
		goto out;
	}
	if (pkt->info.pad)
		memset(rxe_pkt_payload(pkt) + paylen, 0, pkt->info.pad);
	if (sw->kind == RXE_SWQE_SEND)
		rxe_counter_inc(rxe, RXE_CNT_RDMA_SEND);
	rxe_pkt_send(qp, av, skb, &tx);
	if (tx.wire && !qp->req.wire_sent)
		WRITE_ONCE(qp->req.wire_sent, true);
out:
	if (ah)
		rxe_elem_put(&ah->elem);
	if (tx.resp_qp)
		rxe_resp_run_deferred(&tx);
	return ret;
}

/* send what @sw has left, up to *@budget packets */
static void rxe_req_send_wqe(struct rxe_qp *qp, struct rxe_swqe *sw, u32 mtu,
			     int *budget)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	bool rc = qp->ibqp.qp_type == IB_QPT_RC;
	int status;

	while (sw->state == RXE_SWQE_SENDING && *budget > 0) {
		if (rc && rxe_psn_diff(sw->next_psn, qp->req.psn) < 0 &&
		    rxe_psn_diff(sw->next_psn, sw->first_psn) > 0 &&
		    rxe_psn_diff(sw->next_psn, qp->req.una) >=
		    RXE_REQ_WINDOW + (int)RXE_REQ_ACK_EVERY)
			return;	/* a very long message: wait for ACKs */
		if (rc && rxe_psn_diff(qp->req.sent_psn, qp->req.una) <= 0)
			qp->req.wait_start = jiffies;	/* a new wait */
		status = rxe_req_send_one(qp, sw, sw->next_psn, mtu);
		if (status) {
			rxe_swqe_finish(qp, sw, RXE_SWQE_ERROR, (u8)status);
			return;
		}
		(*budget)--;
		rxe_req_yield(qp);
		if (rxe_psn_diff(sw->next_psn, qp->req.sent_psn) < 0)
			rxe_counter_inc(rxe, RXE_CNT_RETRANSMIT);
		if (rc)
			rxe_req_arm_retry(qp, false);
		if (sw->kind == RXE_SWQE_READ || sw->kind == RXE_SWQE_ATOMIC ||
		    sw->next_psn == sw->last_psn) {
			sw->next_psn = rxe_psn_add(sw->last_psn, 1);
			sw->state = rc ? RXE_SWQE_SENT : RXE_SWQE_DONE;
		} else {
			sw->next_psn = rxe_psn_add(sw->next_psn, 1);
		}
		if (rxe_psn_diff(sw->next_psn, qp->req.sent_psn) > 0)
			qp->req.sent_psn = sw->next_psn;
	}
}

/* the requester: (re)send from @cur, then take new WQEs */
static void rxe_req_send(struct rxe_qp *qp, enum ib_qp_state state,
			 int *budget)
{
	struct rxe_req *req = &qp->req;
	u32 mtu = rxe_req_mtu(qp), prod, mask = qp->sq.queue->index_mask;
	struct rxe_swqe *sw;

	while (*budget > 0 && !req->stopped && !req->rnr_wait) {
		if (req->cur == req->next) {
			if (state != IB_QPS_RTS)
				return;	/* SQD: finish what was taken */
			spin_lock_bh(&qp->sq.lock);
			prod = rxe_queue_producer(qp->sq.queue);
			spin_unlock_bh(&qp->sq.lock);
			/* head is the ring's consumer: anything not taken? */
			if (rxe_queue_used(prod, req->head, mask) <=
			    rxe_queue_used(req->next, req->head, mask) ||
			    !rxe_req_take(qp, mtu))
				return;
		}
		sw = rxe_req_swqe(qp, req->cur);
		if (sw->state == RXE_SWQE_SENDING)
			rxe_req_send_wqe(qp, sw, mtu, budget);
		if (sw->state == RXE_SWQE_SENDING)
			return;	/* out of budget or window */
		req->cur = rxe_req_ring_next(qp, req->cur);
	}
}

/* ---- ERR, RESET, SQD ---- */

/*
 * Flush the SQ: the WQEs taken (their own status if they failed), then
 * the ring.  A user QP's producer index is user memory: one call takes
 * at most one ring's worth beyond what was taken and returns true when
 * more is there (the caller runs again later, as after a budget).
 */
static bool rxe_req_flush(struct rxe_qp *qp)
{
	struct rxe_cq *cq = to_rcq(qp->ibqp.send_cq);
	struct rxe_req *req = &qp->req;
	struct rxe_queue *q = qp->sq.queue;
	u32 n = 0, slots = q->index_mask + 1;
	struct rxe_send_wqe *wqe;
	struct rxe_swqe *sw;
	bool more = false;
	u64 wr_id;
	u32 opcode;
	struct ib_wc wc;
	int status;

	del_timer(&req->retry_timer);
	del_timer(&req->rnr_timer);
	skb_queue_purge(&req->resp_pkts);
	for (;;) {
		spin_lock_bh(&qp->sq.lock);
		if (rxe_queue_empty(q)) {
			spin_unlock_bh(&qp->sq.lock);
			break;
		}
		/* nothing taken is left: stopping here loses nothing */
		if (n++ >= slots && req->head == req->next) {
			spin_unlock_bh(&qp->sq.lock);
			more = true;
			break;
		}
		if (req->head != req->next) {
			sw = rxe_req_swqe(qp, req->head);
			wr_id = sw->wqe->wr.wr_id;
			opcode = sw->wqe->wr.opcode;
			status = sw->state == RXE_SWQE_ERROR ? sw->status :
				 IB_WC_WR_FLUSH_ERR;
		} else {
			wqe = (struct rxe_send_wqe *)rxe_queue_slot(q,
								req->head);
			wr_id = READ_ONCE(wqe->wr.wr_id);
			opcode = READ_ONCE(wqe->wr.opcode);
			status = IB_WC_WR_FLUSH_ERR;
			req->next = rxe_req_ring_next(qp, req->next);
			req->next_copied = false;
		}
		req->head = rxe_req_ring_next(qp, req->head);
		rxe_queue_advance_consumer(q);
		spin_unlock_bh(&qp->sq.lock);
		rxe_wc_fill(&wc, qp, wr_id, (enum ib_wc_status)status,
			    rxe_send_wc_opcode(opcode));
		rxe_cq_post(cq, &wc, false);
	}
	req->cur = req->head;
	req->next = req->head;
	req->next_copied = false;
	req->rd_atomic = 0;
	req->rnr_wait = false;
	req->goback_wait = false;
	req->una = req->psn;
	return more;
}

static void rxe_req_check_drained(struct rxe_qp *qp)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.event = IB_EVENT_SQ_DRAINED,
		.element.qp = &qp->ibqp,
	};
	bool notify = false;

	if (qp->req.head != qp->req.next)
		return;
	spin_lock_bh(&qp->state_lock);
	if (qp->state == IB_QPS_SQD && qp->sq_draining) {
		qp->sq_draining = false;
		notify = qp->attr.en_sqd_async_notify;
	}
	spin_unlock_bh(&qp->state_lock);
	if (notify && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/* one pass of requester and completer; true when there is more to do */
static bool rxe_req_pass(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;
	enum ib_qp_state state = rxe_qp_state(qp);
	int budget = RXE_REQ_BUDGET;

	if (state == IB_QPS_RESET) {
		rxe_req_forget(qp);
		return false;
	}
	if (req->nomem && state != IB_QPS_ERR) {
		rxe_qp_error(qp, IB_EVENT_QP_FATAL);
		state = rxe_qp_state(qp);
	}
	if (state == IB_QPS_ERR)
		return rxe_req_flush(qp);
	if (state != IB_QPS_RTS && state != IB_QPS_SQD && state != IB_QPS_SQE)
		return false;
	rxe_comp_process(qp);
	if (rxe_qp_state(qp) == IB_QPS_ERR)
		return true;
	rxe_req_send(qp, state, &budget);
	rxe_comp_complete(qp);
	if (state == IB_QPS_SQD)
		rxe_req_check_drained(qp);
	if (req->full && rxe_queue_used(req->next, req->head,
					qp->sq.queue->index_mask) <= req->cmask) {
		/* completions made room: take again (in the work item) */
		req->full = false;
		return true;
	}
	return budget <= 0;
}

/*
 * @may_sleep: the caller may sleep and holds no lock (the work item, a
 * user doorbell); the runner then yields the CPU between packets and runs
 * the responders of the requests it delivers locally (struct rxe_tx).
 * One call makes at most RXE_REQ_LOOKS passes; more goes to the work item.
 */
static void rxe_req_run_in(struct rxe_qp *qp, bool may_sleep)
{
	struct rxe_req *req = &qp->req;
	int looks = 0;
	bool more;

	spin_lock_bh(&req->lock);
	if (req->dead || !rxe_runner_claim(&req->run, &req->lock)) {
		spin_unlock_bh(&req->lock);
		return;
	}
	req->may_sleep = may_sleep;
	do {
		spin_unlock_bh(&req->lock);
		more = rxe_req_pass(qp) || ++looks >= RXE_REQ_LOOKS;
		if (may_sleep)
			cond_resched();
		spin_lock_bh(&req->lock);
		if (more) {
			/* yield: the work item goes on later */
			rxe_runner_stop(&req->run, &req->lock);
			spin_unlock_bh(&req->lock);
			rxe_req_kick(qp);
			return;
		}
	} while (!rxe_runner_release(&req->run, &req->lock));
	spin_unlock_bh(&req->lock);
}

void rxe_req_run(struct rxe_qp *qp)
{
	rxe_req_run_in(qp, false);
}

void rxe_req_run_local(struct rxe_qp *qp)
{
	/* in ERR nothing is sent: flush now, wherever this runs */
	if (rxe_qp_state(qp) == IB_QPS_ERR) {
		rxe_req_run_in(qp, false);
		return;
	}
	if (get_cpu() == qp->cpu)
		rxe_req_run_in(qp, false);
	else
		rxe_req_kick(qp);
	put_cpu();
}
