// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues.  The kernel always produces CQEs; user CQs are
 * consumed by librxe through the shared ring (struct ib_uverbs_wc per
 * slot), kernel CQs by rxe_poll_cq() (struct ib_wc per slot).  A full CQ
 * never overwrites: the CQE is dropped and IB_EVENT_CQ_ERR raised.
 */
#include <linux/slab.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_test_hooks.h"

#ifdef RXE_KUNIT
void (*rxe_kunit_resize_hook)(void *obj);
#endif

static int rxe_cq_check_size(struct rxe_dev *rxe, int cqe)
{
	if (cqe <= 0 || cqe > rxe->ib_dev.attrs.max_cqe)
		return -EINVAL;
	return 0;
}

int rxe_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	struct rxe_create_cq_resp resp = {};
	int ret;

	if (attr->flags)
		return -EOPNOTSUPP;
	ret = rxe_cq_check_size(rxe, attr->cqe);
	if (ret)
		return ret;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	mutex_init(&cq->resize_mutex);
	spin_lock_init(&cq->lock);
	cq->is_user = udata != NULL;
	cq->queue = rxe_queue_create(rxe, attr->cqe, sizeof(union rxe_cqe),
				     udata ? RXE_QUEUE_USER_CONSUMER :
					     RXE_QUEUE_KERNEL,
				     rxe_udata_uctx(ibcq->device, udata),
				     &resp.mi);
	if (IS_ERR(cq->queue))
		return PTR_ERR(cq->queue);
	if (udata) {
		ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (ret)
			goto err;
	}
	ret = rxe_pool_add(&rxe->cq_pool, &cq->elem);
	if (ret)
		goto err;
	ibcq->cqe = cq->queue->capacity;
	return 0;
err:
	rxe_queue_destroy(cq->queue);
	cq->queue = NULL;
	return ret;
}

int rxe_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct rxe_queue *q;
	unsigned long flags;
	int ret;

	ret = rxe_cq_check_size(rxe, cqe);
	if (ret)
		return ret;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	/*
	 * Resizes of one CQ are serialised: a second one must not read
	 * the ring the first is about to free.
	 */
	mutex_lock(&cq->resize_mutex);
	rxe_kunit_resize_point(cq);
	q = rxe_queue_create(rxe, cqe, cq->queue->elem_size, cq->queue->side,
			     rxe_udata_uctx(ibcq->device, udata), &resp.mi);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto unlock;
	}
	if (udata) {
		ret = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (ret)
			goto out;
	}
	/* not below what the CQ holds now */
	spin_lock_irqsave(&cq->lock, flags);
	ret = rxe_queue_transfer(cq->queue, q, cqe);
	if (!ret)
		swap(cq->queue, q);
	spin_unlock_irqrestore(&cq->lock, flags);
	if (!ret)
		ibcq->cqe = cq->queue->capacity;
out:
	rxe_queue_destroy(q);
unlock:
	mutex_unlock(&cq->resize_mutex);
	return ret;
}

int rxe_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rxe_cq *cq = to_rcq(ibcq);

	rxe_pool_del(&cq->elem);
	rxe_queue_destroy(cq->queue);
	cq->queue = NULL;
	mutex_destroy(&cq->resize_mutex);
	return 0;
}

int rxe_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	cq->notify |= flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && !rxe_queue_empty(cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

int rxe_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	union rxe_cqe *cqe;
	unsigned long flags;
	int n = 0;

	if (cq->is_user)
		return -EINVAL;
	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && !rxe_queue_empty(cq->queue)) {
		cqe = (union rxe_cqe *)rxe_queue_consumer_slot(cq->queue);
		wc[n++] = cqe->ibwc;
		rxe_queue_advance_consumer(cq->queue);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/*
 * wc_flags as libibverbs reads them from a user CQE (enum ibv_wc_flags,
 * which has no uapi header): from bit 2 on they differ from the kernel's.
 * Kernel-only bits (SMAC, VLAN, network header type) are not reported.
 * Upstream 6.1 rxe copies the kernel bits, so user space sees
 * IP_CSUM_OK for a send with invalidate.
 */
static const struct {
	u32 kernel;
	u32 user;
} rxe_uwc_flags[] = {
	{ IB_WC_GRH, 1U << 0 },			/* IBV_WC_GRH */
	{ IB_WC_WITH_IMM, 1U << 1 },		/* IBV_WC_WITH_IMM */
	{ IB_WC_IP_CSUM_OK, 1U << 2 },		/* IBV_WC_IP_CSUM_OK */
	{ IB_WC_WITH_INVALIDATE, 1U << 3 },	/* IBV_WC_WITH_INV */
};

static u32 rxe_wc_flags_to_user(int flags)
{
	u32 user = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rxe_uwc_flags); i++)
		if ((u32)flags & rxe_uwc_flags[i].kernel)
			user |= rxe_uwc_flags[i].user;
	return user;
}

static void rxe_cqe_to_user(struct ib_uverbs_wc *uwc, const struct ib_wc *wc)
{
	memset(uwc, 0, sizeof(*uwc));
	uwc->wr_id = wc->wr_id;
	uwc->status = wc->status;
	uwc->opcode = wc->opcode;
	uwc->vendor_err = wc->vendor_err;
	uwc->byte_len = wc->byte_len;
	uwc->ex.invalidate_rkey = wc->ex.invalidate_rkey;
	uwc->qp_num = wc->qp ? wc->qp->qp_num : 0;
	uwc->src_qp = wc->src_qp;
	uwc->wc_flags = rxe_wc_flags_to_user(wc->wc_flags);
	uwc->pkey_index = wc->pkey_index;
	uwc->slid = (u16)wc->slid;
	uwc->sl = wc->sl;
	uwc->dlid_path_bits = wc->dlid_path_bits;
	uwc->port_num = (u8)wc->port_num;
}

int rxe_cq_post(struct rxe_cq *cq, const struct ib_wc *wc, bool solicited)
{
	union rxe_cqe *cqe;
	unsigned long flags;
	bool signal = false;

	spin_lock_irqsave(&cq->lock, flags);
	if (rxe_queue_full(cq->queue)) {
		spin_unlock_irqrestore(&cq->lock, flags);
		if (cq->ibcq.event_handler) {
			struct ib_event ev = {
				.device = cq->ibcq.device,
				.event = IB_EVENT_CQ_ERR,
				.element.cq = &cq->ibcq,
			};

			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		}
		return -EOVERFLOW;
	}
	cqe = (union rxe_cqe *)rxe_queue_producer_slot(cq->queue);
	if (cq->is_user)
		rxe_cqe_to_user(&cqe->uwc, wc);
	else
		cqe->ibwc = *wc;
	rxe_queue_advance_producer(cq->queue);
	if ((cq->notify & IB_CQ_NEXT_COMP) ||
	    ((cq->notify & IB_CQ_SOLICITED) && solicited)) {
		cq->notify = 0;
		signal = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (signal && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}
