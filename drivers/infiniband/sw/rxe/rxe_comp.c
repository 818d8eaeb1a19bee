// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The completer: matches RC responses (ACK, NAK, RNR NAK, read
 * responses, atomic ACKs) to the WQEs the requester sent, writes read
 * and atomic results into the local SGEs, decides retransmissions
 * (sequence NAK, lost read responses, the retry and RNR timers) and
 * completes WQEs in order from the head of the SQ.  It runs inside the
 * requester's work (rxe_req.c); see Documentation/rxe/datapath.rst.
 */
#include <linux/jiffies.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

/* queued responses beyond this are dropped (the peer resends) */
#define RXE_COMP_MAX_QUEUED	4096

void rxe_comp_rcv(struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_req *req = &qp->req;

	if (qp->ibqp.qp_type != IB_QPT_RC || READ_ONCE(req->dead) ||
	    skb_queue_len(&req->resp_pkts) >= RXE_COMP_MAX_QUEUED) {
		rxe_counter_inc(to_rdev(qp->ibqp.device), RXE_CNT_RCV_DROP);
		kfree_skb(skb);
		return;
	}
	skb_queue_tail(&req->resp_pkts, skb);
	rxe_req_note(qp);
}

static bool rxe_swqe_finished(const struct rxe_swqe *sw)
{
	return sw->kind == RXE_SWQE_LOCAL || sw->state == RXE_SWQE_DONE ||
	       sw->state == RXE_SWQE_ERROR;
}

static bool rxe_swqe_rd(const struct rxe_swqe *sw)
{
	return sw->kind == RXE_SWQE_READ || sw->kind == RXE_SWQE_ATOMIC;
}

/* an RDMA ATOMIC WRITE or FLUSH: answered by an empty read response */
static bool rxe_swqe_empty_resp(const struct rxe_swqe *sw)
{
	const struct rxe_wr_op *op = rxe_wr_op(sw->wqe->wr.opcode);

	return op && (op->flags & RXE_WR_EMPTY_RESP);
}

/* the acknowledged PSNs advanced: the retry count starts again */
static void rxe_comp_progress(struct rxe_qp *qp, u32 una)
{
	struct rxe_req *req = &qp->req;

	if (rxe_psn_diff(una, req->una) <= 0)
		return;
	req->una = una;
	req->goback_wait = false;
	req->retry_left = qp->attr.retry_cnt;
	req->rnr_left = qp->attr.rnr_retry;
	if (rxe_psn_diff(req->sent_psn, una) > 0)
		rxe_req_arm_retry(qp, true);
	else
		del_timer(&req->retry_timer);
}

/*
 * Retransmit from @psn: the WQE holding it resends from there (a read
 * from its next missing response), every later one from its start.
 */
void rxe_req_goback(struct rxe_qp *qp, u32 psn)
{
	struct rxe_req *req = &qp->req;
	struct rxe_swqe *sw;
	bool found = false;
	u32 idx;

	for (idx = req->head; idx != req->next;
	     idx = rxe_req_ring_next(qp, idx)) {
		sw = rxe_req_swqe(qp, idx);
		if (rxe_swqe_finished(sw))
			continue;
		if (!found) {
			if (rxe_psn_diff(sw->last_psn, psn) < 0)
				continue;
			found = true;
			req->cur = idx;
			if (sw->kind == RXE_SWQE_READ)
				sw->next_psn = sw->rd_psn;
			else if (sw->kind == RXE_SWQE_ATOMIC ||
				 rxe_psn_diff(psn, sw->first_psn) < 0)
				sw->next_psn = sw->first_psn;
			else
				sw->next_psn = psn;
		} else {
			sw->next_psn = sw->kind == RXE_SWQE_READ ? sw->rd_psn :
				       sw->first_psn;
		}
		sw->state = RXE_SWQE_SENDING;
	}
	req->goback_wait = true;
	req->wait_start = jiffies;
}

/*
 * A retransmission asked for by the peer (a sequence NAK) or by a gap in
 * its responses: one until there is progress.  The responses to what
 * was sent before it keep arriving and show the same gap again; going
 * back for each of them resent the whole window per stale packet (with
 * 128 reads outstanding, 512 responses each time) and lost the real
 * answers behind that flood.  A lost retransmission is the retry
 * timer's to repair.
 */
static void rxe_comp_goback_once(struct rxe_qp *qp, u32 psn)
{
	if (qp->req.goback_wait)
		return;
	rxe_req_goback(qp, psn);
}

/*
 * Everything up to @psn is acknowledged.  Returns a read/atomic WQE the
 * ACK passes over without its response (lost: read it again), or NULL.
 */
static struct rxe_swqe *rxe_comp_ack(struct rxe_qp *qp, u32 psn)
{
	struct rxe_req *req = &qp->req;
	struct rxe_swqe *sw;
	u32 idx;

	if (rxe_psn_diff(psn, req->una) < 0)
		return NULL;	/* old news */
	for (idx = req->head; idx != req->next;
	     idx = rxe_req_ring_next(qp, idx)) {
		sw = rxe_req_swqe(qp, idx);
		if (rxe_swqe_finished(sw))
			continue;
		if (rxe_psn_diff(sw->first_psn, psn) > 0)
			break;
		if (rxe_swqe_rd(sw)) {
			rxe_comp_progress(qp, sw->rd_psn);
			return sw;
		}
		if (rxe_psn_diff(sw->last_psn, psn) > 0)
			break;	/* part of a long message */
		rxe_swqe_finish(qp, sw, RXE_SWQE_DONE, IB_WC_SUCCESS);
	}
	rxe_comp_progress(qp, rxe_psn_add(psn, 1));
	return NULL;
}

/* the oldest unfinished WQE; sends/writes wholly before @psn are acked */
static struct rxe_swqe *rxe_comp_first(struct rxe_qp *qp, u32 psn)
{
	struct rxe_swqe *sw;
	u32 idx;

	for (idx = qp->req.head; idx != qp->req.next;
	     idx = rxe_req_ring_next(qp, idx)) {
		sw = rxe_req_swqe(qp, idx);
		if (rxe_swqe_finished(sw))
			continue;
		/* (also one being resent: the peer had all of it) */
		if (rxe_swqe_rd(sw) || rxe_psn_diff(sw->last_psn, psn) >= 0)
			return sw;
		/* implicitly acknowledged by a later response */
		rxe_swqe_finish(qp, sw, RXE_SWQE_DONE, IB_WC_SUCCESS);
		rxe_comp_progress(qp, rxe_psn_add(sw->last_psn, 1));
	}
	return NULL;
}

/* the WQE holding @psn, or NULL */
static struct rxe_swqe *rxe_comp_find(struct rxe_qp *qp, u32 psn)
{
	struct rxe_swqe *sw;
	u32 idx;

	for (idx = qp->req.head; idx != qp->req.next;
	     idx = rxe_req_ring_next(qp, idx)) {
		sw = rxe_req_swqe(qp, idx);
		if (!rxe_swqe_finished(sw) &&
		    rxe_psn_diff(sw->last_psn, psn) >= 0)
			return rxe_psn_diff(sw->first_psn, psn) <= 0 ? sw :
									NULL;
	}
	return NULL;
}

static void rxe_comp_local_err(struct rxe_qp *qp, struct rxe_swqe *sw,
			       int ret)
{
	rxe_swqe_finish(qp, sw, RXE_SWQE_ERROR,
			ret == -EINVAL ? IB_WC_LOC_LEN_ERR :
					 IB_WC_LOC_PROT_ERR);
}

/*
 * A response to a PSN after the one @sw waits for (its next read
 * response, or its atomic ACK) arrived first: the peer answers in PSN
 * order, so that answer is lost (an implicit NAK).  Ask again
 * from there instead of waiting for the retry timer; for the last
 * packet of a read and for every atomic, later responses are the only
 * sign of the loss.  Answers still on their way from before a
 * retransmission show the same gap: rxe_comp_goback_once() keeps that
 * to one retransmission.
 */
static void rxe_comp_gap(struct rxe_qp *qp, struct rxe_swqe *sw, u32 psn)
{
	u32 want;

	if (sw->kind == RXE_SWQE_READ)
		want = sw->rd_psn;
	else if (sw->kind == RXE_SWQE_ATOMIC)
		want = sw->first_psn;
	else
		return;
	if (rxe_psn_diff(psn, want) > 0)
		rxe_comp_goback_once(qp, want);
}

static void rxe_comp_read_resp(struct rxe_qp *qp, struct rxe_pkt *pkt)
{
	u32 psn = pkt->info.psn, mtu = rxe_req_mtu(qp);
	struct rxe_swqe *sw = rxe_comp_first(qp, psn);
	struct rxe_send_wqe *wqe;
	u32 off, len;
	int want, again, ret;
	u8 op;

	if (!sw)
		return;	/* stale */
	if (sw->kind == RXE_SWQE_ATOMIC && psn == sw->first_psn &&
	    rxe_swqe_empty_resp(sw)) {
		if ((pkt->info.opcode & ~RXE_TR_MASK) != RXE_OP_READ_RESP_ONLY ||
		    pkt->info.paylen)
			return;
		rxe_swqe_finish(qp, sw, RXE_SWQE_DONE, IB_WC_SUCCESS);
		rxe_comp_progress(qp, rxe_psn_add(psn, 1));
		return;
	}
	if (sw->kind != RXE_SWQE_READ || psn != sw->rd_psn) {
		/* older: stale; later: a response is missing */
		rxe_comp_gap(qp, sw, psn);
		return;
	}
	if (psn == sw->first_psn)
		want = psn == sw->last_psn ? RXE_OP_READ_RESP_ONLY :
					     RXE_OP_READ_RESP_FIRST;
	else
		want = psn == sw->last_psn ? RXE_OP_READ_RESP_LAST :
					     RXE_OP_READ_RESP_MIDDLE;
	/*
	 * A read asked again from a missing response (rxe_req_goback) is
	 * a new request to the responder: its answer starts here with
	 * FIRST, or ONLY for the last packet.  Same bytes at the same PSN.
	 */
	again = psn == sw->last_psn ? RXE_OP_READ_RESP_ONLY :
				      RXE_OP_READ_RESP_FIRST;
	op = pkt->info.opcode & ~RXE_TR_MASK;
	wqe = sw->wqe;
	off = (u32)rxe_psn_diff(psn, sw->first_psn) * mtu;
	len = min(mtu, wqe->dma.length - off);
	if ((op != want && op != again) || pkt->info.paylen != len)
		return;
	rxe_wqe_seek(wqe, off);
	ret = rxe_dma_copy(to_rpd(qp->ibqp.pd), IB_ACCESS_LOCAL_WRITE,
			   &wqe->dma, rxe_pkt_payload(pkt), len,
			   RXE_COPY_TO_MR);
	if (ret) {
		rxe_comp_local_err(qp, sw, ret);
		return;
	}
	sw->rd_psn = rxe_psn_add(psn, 1);
	if (psn == sw->last_psn)
		rxe_swqe_finish(qp, sw, RXE_SWQE_DONE, IB_WC_SUCCESS);
	rxe_comp_progress(qp, sw->rd_psn);
}

static void rxe_comp_atomic_ack(struct rxe_qp *qp, struct rxe_pkt *pkt)
{
	u32 psn = pkt->info.psn;
	struct rxe_swqe *sw = rxe_comp_first(qp, psn);
	u64 orig;
	int ret;

	if (!sw)
		return;
	if (sw->kind != RXE_SWQE_ATOMIC || sw->first_psn != psn ||
	    rxe_swqe_empty_resp(sw)) {
		rxe_comp_gap(qp, sw, psn);
		return;
	}
	orig = rxe_atmack_orig(rxe_pkt_ext(pkt, RXE_HDR_ATMACK));
	rxe_wqe_seek(sw->wqe, 0);
	ret = rxe_dma_copy(to_rpd(qp->ibqp.pd), IB_ACCESS_LOCAL_WRITE,
			   &sw->wqe->dma, &orig, sizeof(orig), RXE_COPY_TO_MR);
	if (ret) {
		rxe_comp_local_err(qp, sw, ret);
		return;
	}
	rxe_swqe_finish(qp, sw, RXE_SWQE_DONE, IB_WC_SUCCESS);
	rxe_comp_progress(qp, rxe_psn_add(psn, 1));
}

static void rxe_comp_rnr(struct rxe_qp *qp, u32 psn, u8 timer)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_req *req = &qp->req;
	struct rxe_swqe *sw;
	unsigned long j;

	rxe_counter_inc(rxe, RXE_CNT_RCV_RNR);
	if (req->rnr_wait)
		return;
	rxe_comp_ack(qp, rxe_psn_add(psn, RXE_PSN_MASK));
	sw = rxe_comp_find(qp, psn);
	if (!sw)
		return;
	if (!req->rnr_left) {
		rxe_counter_inc(rxe, RXE_CNT_RNR_RETRY_EXCEEDED);
		rxe_swqe_finish(qp, sw, RXE_SWQE_ERROR,
				IB_WC_RNR_RETRY_EXC_ERR);
		return;
	}
	if (req->rnr_left != 7)
		req->rnr_left--;
	req->rnr_wait = true;
	req->rnr_psn = psn;
	del_timer(&req->retry_timer);
	j = usecs_to_jiffies(rxe_rnr_timer_us(timer));
	mod_timer(&req->rnr_timer, jiffies + max(j, 1UL));
}

/* IB_WC_* of a NAK code */
static u8 rxe_nak_status(u8 code)
{
	switch (code) {
	case RXE_NAK_INVALID_REQ:
		return IB_WC_REM_INV_REQ_ERR;
	case RXE_NAK_REMOTE_ACCESS:
		return IB_WC_REM_ACCESS_ERR;
	case RXE_NAK_INVALID_RD_REQ:
		return IB_WC_REM_INV_RD_REQ_ERR;
	default:
		return IB_WC_REM_OP_ERR;
	}
}

static void rxe_comp_aeth(struct rxe_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	u8 syn = rxe_aeth_syn(rxe_pkt_ext(pkt, RXE_HDR_AETH));
	u32 psn = pkt->info.psn;
	struct rxe_swqe *sw;

	switch (syn & RXE_AETH_TYPE_MASK) {
	case RXE_AETH_ACK:
		sw = rxe_comp_ack(qp, psn);
		if (sw)
			rxe_comp_goback_once(qp, sw->kind == RXE_SWQE_READ ?
					     sw->rd_psn : sw->first_psn);
		return;
	case RXE_AETH_RNR_NAK:
		rxe_comp_rnr(qp, psn, syn & RXE_AETH_VALUE_MASK);
		return;
	case RXE_AETH_NAK:
		break;
	default:
		return;
	}
	if (rxe_psn_diff(psn, qp->req.una) < 0)
		return;	/* about something already settled */
	rxe_comp_ack(qp, rxe_psn_add(psn, RXE_PSN_MASK));
	if ((syn & RXE_AETH_VALUE_MASK) == RXE_NAK_PSN_SEQ) {
		rxe_counter_inc(rxe, RXE_CNT_RCV_SEQ_ERR);
		rxe_comp_goback_once(qp, psn);
		return;
	}
	sw = rxe_comp_find(qp, psn);
	if (sw)
		rxe_swqe_finish(qp, sw, RXE_SWQE_ERROR,
				rxe_nak_status(syn & RXE_AETH_VALUE_MASK));
}

static void rxe_comp_pkt(struct rxe_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_req *req = &qp->req;
	u32 psn = pkt->info.psn;

	if (!(pkt->info.mask & RXE_RESP_MASK) ||
	    (pkt->info.opcode & RXE_TR_MASK) != RXE_TR_RC)
		return;
	/* only PSNs we sent */
	if (rxe_psn_diff(psn, req->sent_psn) >= 0)
		return;
	/*
	 * The peer answers: the retry timer measures its silence.  After a
	 * retransmission the peer first drains the answers to what was sent
	 * before (older PSNs too: duplicates it answers again); each expiry
	 * during that drain sent the window once more, which lengthened the
	 * drain, until retry_cnt ran out on a live peer.  The drain is
	 * finite: without progress nothing but the timer sends again.
	 */
	req->wait_start = jiffies;
	switch (pkt->info.opcode & ~RXE_TR_MASK) {
	case RXE_OP_READ_RESP_FIRST:
	case RXE_OP_READ_RESP_MIDDLE:
	case RXE_OP_READ_RESP_LAST:
	case RXE_OP_READ_RESP_ONLY:
		rxe_comp_read_resp(qp, pkt);
		break;
	case RXE_OP_ATOMIC_ACK:
		rxe_comp_atomic_ack(qp, pkt);
		break;
	case RXE_OP_ACK:
		rxe_comp_aeth(qp, pkt);
		break;
	default:
		break;
	}
}

/* the retry timer expired: resend from the oldest unacknowledged PSN */
static void rxe_comp_timeout(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_req *req = &qp->req;
	unsigned long tmo = rxe_req_retry_jiffies(qp);
	struct rxe_swqe *sw;

	if (req->rnr_wait || rxe_psn_diff(req->sent_psn, req->una) <= 0)
		return;
	/*
	 * The timer counts from when it was set; the wait counts from the
	 * last progress.  An expiry that acknowledgements processed in the
	 * same pass overtook (they queue behind the requester's own burst)
	 * is no timeout: wait for the rest.
	 */
	if (tmo && time_before(jiffies, req->wait_start + tmo)) {
		if (!READ_ONCE(req->dead))
			mod_timer(&req->retry_timer, req->wait_start + tmo);
		return;
	}
	sw = rxe_comp_find(qp, req->una);
	if (!sw)
		return;
	if (!req->retry_left) {
		rxe_counter_inc(rxe, RXE_CNT_RETRY_EXCEEDED);
		rxe_swqe_finish(qp, sw, RXE_SWQE_ERROR, IB_WC_RETRY_EXC_ERR);
		return;
	}
	req->retry_left--;
	rxe_counter_inc(rxe, RXE_CNT_COMP_RETRY);
	rxe_req_goback(qp, req->una);
	rxe_req_arm_retry(qp, true);
}

void rxe_comp_process(struct rxe_qp *qp)
{
	struct rxe_req *req = &qp->req;
	struct sk_buff *skb;
	int n = 0;

	while (n++ < 256 && (skb = skb_dequeue(&req->resp_pkts))) {
		if (!req->stopped)
			rxe_comp_pkt(qp, rxe_pkt(skb));
		kfree_skb(skb);
		rxe_req_yield(qp);
	}
	if (!skb_queue_empty(&req->resp_pkts))
		rxe_req_kick(qp);
	if (test_and_clear_bit(RXE_REQ_EV_RNR, &req->events) &&
	    req->rnr_wait) {
		req->rnr_wait = false;
		rxe_req_goback(qp, req->rnr_psn);
		rxe_req_arm_retry(qp, true);
	}
	if (test_and_clear_bit(RXE_REQ_EV_TIMEOUT, &req->events) &&
	    !req->stopped)
		rxe_comp_timeout(qp);
}

/* a remote or transport error: to ERR, without an async event */
static void rxe_comp_to_err(struct rxe_qp *qp)
{
	rxe_qp_to_err(qp);
}

static bool rxe_status_local(u8 status)
{
	return status == IB_WC_LOC_QP_OP_ERR || status == IB_WC_LOC_LEN_ERR ||
	       status == IB_WC_LOC_PROT_ERR || status == IB_WC_MW_BIND_ERR;
}

void rxe_comp_complete(struct rxe_qp *qp)
{
	struct rxe_cq *cq = to_rcq(qp->ibqp.send_cq);
	struct rxe_req *req = &qp->req;
	struct rxe_send_wqe *wqe;
	struct rxe_swqe *sw;
	struct ib_wc wc;
	bool error;

	while (req->head != req->next) {
		sw = rxe_req_swqe(qp, req->head);
		if (sw->state != RXE_SWQE_DONE && sw->state != RXE_SWQE_ERROR)
			break;
		wqe = sw->wqe;
		error = sw->state == RXE_SWQE_ERROR;
		rxe_wc_fill(&wc, qp, wqe->wr.wr_id,
			    error ? (enum ib_wc_status)sw->status :
				    IB_WC_SUCCESS,
			    rxe_send_wc_opcode(wqe->wr.opcode));
		if (!error)
			wc.byte_len = wqe->dma.length;
		spin_lock_bh(&qp->sq.lock);
		if (req->cur == req->head)
			req->cur = rxe_req_ring_next(qp, req->cur);
		req->head = rxe_req_ring_next(qp, req->head);
		rxe_queue_advance_consumer(qp->sq.queue);
		spin_unlock_bh(&qp->sq.lock);
		if (error || qp->sq_sig_type == IB_SIGNAL_ALL_WR ||
		    (wqe->wr.send_flags & IB_SEND_SIGNALED))
			rxe_cq_post(cq, &wc, false);
		if (error) {
			if (rxe_status_local(sw->status))
				rxe_qp_error(qp, IB_EVENT_QP_FATAL);
			else
				rxe_comp_to_err(qp);
			return;
		}
	}
}
