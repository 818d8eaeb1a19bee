// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs: creation with the SQ/RQ rings, attributes and the state
 * moves the driver does itself (RESET empties the rings, ERR flushes).
 * Core has checked every transition before rxe_modify_qp() runs.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/numa.h>
#include <linux/slab.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

static int rxe_qp_check_init(struct rxe_dev *rxe, struct ib_qp_init_attr *init,
			     struct ib_udata *udata)
{
	const struct ib_device_attr *a = &rxe->ib_dev.attrs;
	struct ib_qp_cap *cap = &init->cap;

	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		if (udata || init->port_num != RXE_PORT)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->create_flags)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (cap->max_send_wr > (u32)a->max_qp_wr ||
	    cap->max_send_sge > (u32)a->max_send_sge ||
	    cap->max_inline_data > RXE_MAX_INLINE_DATA)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > (u32)a->max_qp_wr ||
			   cap->max_recv_sge > (u32)a->max_recv_sge))
		return -EINVAL;
	if (udata && (udata->inlen || udata->outlen <
		      sizeof(struct rxe_create_qp_resp)))
		return -EINVAL;
	return 0;
}

static int rxe_qp_make_queues(struct rxe_dev *rxe, struct rxe_qp *qp,
			      struct ib_qp_init_attr *init,
			      struct ib_udata *udata,
			      struct rxe_create_qp_resp *resp)
{
	struct rxe_ucontext *uctx = rxe_udata_uctx(&rxe->ib_dev, udata);
	enum rxe_queue_side side = udata ? RXE_QUEUE_USER_PRODUCER :
					   RXE_QUEUE_KERNEL;
	struct ib_qp_cap *cap = &init->cap;
	u32 sge = cap->max_send_sge, inl = cap->max_inline_data;
	u32 wqe_size = rxe_sq_wqe_size(&sge, &inl);

	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->rq.lock);
	qp->sq.queue = rxe_queue_create(rxe, cap->max_send_wr, wqe_size, side,
					uctx, &resp->sq_mi);
	if (IS_ERR(qp->sq.queue)) {
		int ret = PTR_ERR(qp->sq.queue);

		qp->sq.queue = NULL;
		return ret;
	}
	qp->sq.max_wr = qp->sq.queue->capacity;
	qp->sq.max_sge = sge;
	qp->sq.max_inline = inl;
	cap->max_send_wr = qp->sq.max_wr;
	cap->max_send_sge = sge;
	cap->max_inline_data = inl;

	if (init->srq) {
		/* rq_mi stays zero: librxe maps no RQ */
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		return 0;
	}
	qp->rq.queue = rxe_queue_create(rxe, cap->max_recv_wr,
					rxe_rq_wqe_size(cap->max_recv_sge),
					side, uctx, &resp->rq_mi);
	if (IS_ERR(qp->rq.queue)) {
		int ret = PTR_ERR(qp->rq.queue);

		qp->rq.queue = NULL;
		rxe_queue_destroy(qp->sq.queue);
		qp->sq.queue = NULL;
		return ret;
	}
	qp->rq.max_wr = qp->rq.queue->capacity;
	qp->rq.max_sge = cap->max_recv_sge;
	cap->max_recv_wr = qp->rq.max_wr;
	return 0;
}

/* the CPU a new QP sends from: the online CPUs in turn (rxe_dp.h) */
static int rxe_qp_pick_cpu(void)
{
	static atomic_t next = ATOMIC_INIT(0);
	unsigned int n = (unsigned int)atomic_inc_return(&next);

	return (int)cpumask_local_spread(n % num_online_cpus(), NUMA_NO_NODE);
}

int rxe_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_create_qp_resp resp = {};
	int ret;

	ret = rxe_qp_check_init(rxe, init, udata);
	if (ret)
		return ret;
	if (init->qp_type == IB_QPT_GSI && cmpxchg(&rxe->gsi_qp, NULL, ibqp))
		return -EBUSY;
	ret = rxe_qp_make_queues(rxe, qp, init, udata, &resp);
	if (ret)
		goto err_gsi;
	if (udata) {
		ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (ret)
			goto err_queues;
	}
	ret = rxe_pool_add(&rxe->qp_pool, &qp->elem);
	if (ret)
		goto err_queues;

	qp->is_user = udata != NULL;
	qp->cpu = rxe_qp_pick_cpu();
	qp->sq_sig_type = init->sq_sig_type;
	spin_lock_init(&qp->state_lock);
	qp->state = IB_QPS_RESET;
	qp->attr.qp_state = IB_QPS_RESET;
	qp->attr.path_mtu = IB_MTU_256;
	qp->attr.port_num = RXE_PORT;
	qp->attr.cap = init->cap;
	ibqp->qp_num = init->qp_type == IB_QPT_GSI ? RXE_GSI_QPN :
						      qp->elem.index;
	rxe_req_init(qp);
	rxe_resp_init(qp);
	if (init->qp_type == IB_QPT_GSI)
		WRITE_ONCE(rxe->gsi_index, qp->elem.index);
	return 0;

err_queues:
	rxe_queue_destroy(qp->rq.queue);
	rxe_queue_destroy(qp->sq.queue);
	qp->rq.queue = NULL;
	qp->sq.queue = NULL;
err_gsi:
	if (init->qp_type == IB_QPT_GSI)
		cmpxchg(&rxe->gsi_qp, ibqp, NULL);
	return ret;
}

enum ib_qp_state rxe_qp_state(struct rxe_qp *qp)
{
	enum ib_qp_state s;

	spin_lock_bh(&qp->state_lock);
	s = qp->state;
	spin_unlock_bh(&qp->state_lock);
	return s;
}

static int rxe_qp_check_attr(struct rxe_qp *qp, struct ib_qp_attr *attr,
			     int mask)
{
	if ((mask & IB_QP_PORT) && attr->port_num != RXE_PORT)
		return -EINVAL;
	if ((mask & IB_QP_ALT_PATH) && attr->alt_port_num != RXE_PORT)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > RXE_MAX_QP_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > RXE_MAX_QP_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= RXE_PKEY_TBL_LEN)
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	return 0;
}

/* one attribute of ib_qp_attr: the mask bit and how to copy it */
#define RXE_QP_COPY(bit, field)					\
	do {							\
		if (mask & (bit))				\
			qp->attr.field = attr->field;		\
	} while (0)

static void rxe_qp_store_attr(struct rxe_qp *qp, struct ib_qp_attr *attr,
			      int mask)
{
	RXE_QP_COPY(IB_QP_ACCESS_FLAGS, qp_access_flags);
	RXE_QP_COPY(IB_QP_PKEY_INDEX, pkey_index);
	RXE_QP_COPY(IB_QP_PORT, port_num);
	RXE_QP_COPY(IB_QP_QKEY, qkey);
	RXE_QP_COPY(IB_QP_PATH_MTU, path_mtu);
	RXE_QP_COPY(IB_QP_TIMEOUT, timeout);
	RXE_QP_COPY(IB_QP_RETRY_CNT, retry_cnt);
	RXE_QP_COPY(IB_QP_RNR_RETRY, rnr_retry);
	RXE_QP_COPY(IB_QP_MIN_RNR_TIMER, min_rnr_timer);
	RXE_QP_COPY(IB_QP_MAX_QP_RD_ATOMIC, max_rd_atomic);
	RXE_QP_COPY(IB_QP_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic);
	RXE_QP_COPY(IB_QP_PATH_MIG_STATE, path_mig_state);
	RXE_QP_COPY(IB_QP_DEST_QPN, dest_qp_num);
	RXE_QP_COPY(IB_QP_EN_SQD_ASYNC_NOTIFY, en_sqd_async_notify);
	if (mask & IB_QP_RQ_PSN)
		qp->attr.rq_psn = attr->rq_psn & 0xffffff;
	if (mask & IB_QP_SQ_PSN)
		qp->attr.sq_psn = attr->sq_psn & 0xffffff;
	if (mask & IB_QP_AV) {
		qp->attr.ah_attr = attr->ah_attr;
		rxe_av_from_attr(&qp->pri_av, &attr->ah_attr);
	}
	if (mask & IB_QP_ALT_PATH) {
		qp->attr.alt_ah_attr = attr->alt_ah_attr;
		qp->attr.alt_pkey_index = attr->alt_pkey_index;
		qp->attr.alt_port_num = attr->alt_port_num;
		qp->attr.alt_timeout = attr->alt_timeout;
		rxe_av_from_attr(&qp->alt_av, &attr->alt_ah_attr);
	}
}

static void rxe_wq_reset(struct rxe_wq *wq)
{
	if (!wq->queue)
		return;
	spin_lock_bh(&wq->lock);
	rxe_queue_reset(wq->queue);
	spin_unlock_bh(&wq->lock);
}

static void rxe_qp_event(struct rxe_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.event = type,
		.element.qp = &qp->ibqp,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

int rxe_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state new_state;
	bool drained = false;
	int ret;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	ret = rxe_qp_check_attr(qp, attr, mask);
	if (ret)
		return ret;

	spin_lock_bh(&qp->state_lock);
	rxe_qp_store_attr(qp, attr, mask);
	new_state = mask & IB_QP_STATE ? attr->qp_state : qp->state;
	qp->state = new_state;
	qp->attr.qp_state = new_state;
	if (mask & IB_QP_STATE) {
		qp->sq_draining = new_state == IB_QPS_SQD;
		if (qp->sq_draining && rxe_queue_empty(qp->sq.queue)) {
			/* an empty SQ has nothing in flight: drained now */
			qp->sq_draining = false;
			drained = qp->attr.en_sqd_async_notify;
		}
	}
	spin_unlock_bh(&qp->state_lock);

	rxe_req_modify(qp, attr, mask);
	rxe_resp_modify(qp, attr, mask);
	if (!(mask & IB_QP_STATE))
		return 0;
	switch (new_state) {
	case IB_QPS_RESET:
		rxe_wq_reset(&qp->sq);
		rxe_wq_reset(&qp->rq);
		break;
	case IB_QPS_ERR:
		rxe_qp_flush(qp);
		break;
	default:
		break;
	}
	if (drained)
		rxe_qp_event(qp, IB_EVENT_SQ_DRAINED);
	return 0;
}

/* to ERR, then the event (if @notify), then the flush */
static bool rxe_qp_move_err(struct rxe_qp *qp, enum ib_event_type event,
			    bool notify)
{
	bool moved;

	spin_lock_bh(&qp->state_lock);
	moved = qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET;
	if (moved) {
		qp->state = IB_QPS_ERR;
		qp->attr.qp_state = IB_QPS_ERR;
	}
	spin_unlock_bh(&qp->state_lock);
	if (!moved)
		return false;
	ib_qp_state_changed(&qp->ibqp, IB_QPS_ERR);
	if (notify)
		rxe_qp_event(qp, event);
	rxe_qp_flush(qp);
	return true;
}

void rxe_qp_error(struct rxe_qp *qp, enum ib_event_type event)
{
	rxe_qp_move_err(qp, event, true);
}

bool rxe_qp_to_err(struct rxe_qp *qp)
{
	return rxe_qp_move_err(qp, IB_EVENT_QP_FATAL, false);
}

int rxe_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct rxe_qp *qp = to_rqp(ibqp);

	spin_lock_bh(&qp->state_lock);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->sq_draining = qp->sq_draining;
	spin_unlock_bh(&qp->state_lock);

	attr->cap.max_send_wr = qp->sq.max_wr;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->sq.max_inline;
	attr->cap.max_recv_wr = qp->rq.queue ? qp->rq.max_wr : 0;
	attr->cap.max_recv_sge = qp->rq.queue ? qp->rq.max_sge : 0;

	memset(init, 0, sizeof(*init));
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sq_sig_type;
	init->qp_type = ibqp->qp_type;
	init->port_num = RXE_PORT;
	return 0;
}

int rxe_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);

	rxe_req_drain_doorbell(qp);
	/*
	 * No packet finds the QP after this; then stop both sides.  The
	 * GSI index goes first: a pool index is reused only after
	 * rxe_pool_del().
	 */
	if (ibqp->qp_type == IB_QPT_GSI)
		WRITE_ONCE(rxe->gsi_index, 0);
	rxe_pool_del(&qp->elem);
	if (ibqp->qp_type == IB_QPT_GSI)
		cmpxchg(&rxe->gsi_qp, ibqp, NULL);
	rxe_resp_cleanup(qp);
	rxe_req_cleanup(qp);
	rxe_queue_destroy(qp->rq.queue);
	rxe_queue_destroy(qp->sq.queue);
	qp->rq.queue = NULL;
	qp->sq.queue = NULL;
	return 0;
}
