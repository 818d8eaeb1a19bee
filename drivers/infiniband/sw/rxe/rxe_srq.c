// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues.  The limit event: IB_SRQ_LIMIT with a non-zero
 * limit arms the SRQ; when taking a WQE leaves fewer than the limit
 * posted, IB_EVENT_SRQ_LIMIT_REACHED is raised once and the SRQ disarmed
 * (limit 0) until the next IB_SRQ_LIMIT.
 */
#include <linux/slab.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_test_hooks.h"

static int rxe_srq_check(struct rxe_dev *rxe, const struct ib_srq_attr *attr,
			 enum ib_srq_attr_mask mask, u32 cur_max_wr)
{
	const struct ib_device_attr *a = &rxe->ib_dev.attrs;

	if (mask & IB_SRQ_MAX_WR) {
		if (attr->max_wr == 0 || attr->max_wr > (u32)a->max_srq_wr)
			return -EINVAL;
		if ((mask & IB_SRQ_LIMIT) && attr->srq_limit > attr->max_wr)
			return -EINVAL;
	}
	if ((mask & IB_SRQ_LIMIT) && !(mask & IB_SRQ_MAX_WR) &&
	    attr->srq_limit > cur_max_wr)
		return -EINVAL;
	return 0;
}

int rxe_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibsrq->device);
	struct rxe_srq *srq = to_rsrq(ibsrq);
	struct rxe_create_srq_resp resp = {};
	int ret;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	ret = rxe_srq_check(rxe, &init->attr,
			    (enum ib_srq_attr_mask)(IB_SRQ_MAX_WR | IB_SRQ_LIMIT),
			    0);
	if (ret)
		return ret;
	if (init->attr.max_sge > (u32)rxe->ib_dev.attrs.max_srq_sge)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	mutex_init(&srq->modify_mutex);
	spin_lock_init(&srq->lock);
	srq->is_user = udata != NULL;
	srq->max_sge = init->attr.max_sge;
	srq->queue = rxe_queue_create(rxe, init->attr.max_wr,
				      rxe_rq_wqe_size(init->attr.max_sge),
				      udata ? RXE_QUEUE_USER_PRODUCER :
					      RXE_QUEUE_KERNEL,
				      rxe_udata_uctx(ibsrq->device, udata),
				      &resp.mi);
	if (IS_ERR(srq->queue))
		return PTR_ERR(srq->queue);
	ret = rxe_pool_add(&rxe->srq_pool, &srq->elem);
	if (ret)
		goto err;
	resp.srq_num = srq->elem.index;
	if (udata) {
		ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (ret) {
			rxe_pool_del(&srq->elem);
			goto err;
		}
	}
	srq->limit = init->attr.srq_limit;
	init->attr.max_wr = srq->queue->capacity;
	return 0;
err:
	rxe_queue_destroy(srq->queue);
	srq->queue = NULL;
	return ret;
}

static int rxe_srq_resize(struct rxe_dev *rxe, struct rxe_srq *srq, u32 max_wr,
			  struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd = {};
	struct mminfo mi = {};
	struct rxe_queue *q;
	int ret;

	lockdep_assert_held(&srq->modify_mutex);
	if (udata) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		ret = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (ret)
			return ret;
	}
	q = rxe_queue_create(rxe, max_wr, srq->queue->elem_size,
			     srq->queue->side,
			     rxe_udata_uctx(srq->ibsrq.device, udata), &mi);
	if (IS_ERR(q))
		return PTR_ERR(q);
	if (udata && copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				  sizeof(mi))) {
		ret = -EFAULT;
		goto out;
	}
	spin_lock_bh(&srq->lock);
	ret = rxe_queue_transfer(srq->queue, q, max_wr);
	if (!ret)
		swap(srq->queue, q);
	spin_unlock_bh(&srq->lock);
out:
	rxe_queue_destroy(q);
	return ret;
}

int rxe_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibsrq->device);
	struct rxe_srq *srq = to_rsrq(ibsrq);
	int ret;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	/* a concurrent resize must not free the ring read here */
	mutex_lock(&srq->modify_mutex);
	rxe_kunit_resize_point(srq);
	ret = rxe_srq_check(rxe, attr, mask, srq->queue->capacity);
	if (ret)
		goto out;
	if (mask & IB_SRQ_MAX_WR) {
		ret = rxe_srq_resize(rxe, srq, attr->max_wr, udata);
		if (ret)
			goto out;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_bh(&srq->lock);
		srq->limit = attr->srq_limit;
		spin_unlock_bh(&srq->lock);
	}
out:
	mutex_unlock(&srq->modify_mutex);
	return ret;
}

int rxe_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);

	spin_lock_bh(&srq->lock);
	attr->max_wr = srq->queue->capacity;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_bh(&srq->lock);
	return 0;
}

int rxe_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);

	rxe_pool_del(&srq->elem);
	rxe_queue_destroy(srq->queue);
	srq->queue = NULL;
	mutex_destroy(&srq->modify_mutex);
	return 0;
}

int rxe_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);
	int ret;

	if (srq->is_user) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_bh(&srq->lock);
	ret = rxe_post_recv_ring(srq->queue, wr, srq->max_sge, bad_wr);
	spin_unlock_bh(&srq->lock);
	return ret;
}

int rxe_srq_consume(struct rxe_srq *srq, void *wqe, size_t len)
{
	struct rxe_queue *q;
	bool fire = false;

	spin_lock_bh(&srq->lock);
	q = srq->queue;
	if (rxe_queue_empty(q)) {
		spin_unlock_bh(&srq->lock);
		return -EAGAIN;
	}
	memcpy(wqe, rxe_queue_consumer_slot(q),
	       min_t(size_t, len, 1U << q->log2_elem));
	rxe_queue_advance_consumer(q);
	if (srq->limit && rxe_queue_count(q) < srq->limit) {
		srq->limit = 0;
		fire = true;
	}
	spin_unlock_bh(&srq->lock);
	if (fire && srq->ibsrq.event_handler) {
		struct ib_event ev = {
			.device = srq->ibsrq.device,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
			.element.srq = &srq->ibsrq,
		};

		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	return 0;
}
