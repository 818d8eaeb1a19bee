// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Verbs objects, part 2: completion queues and shared receive queues.
 * Both are allocated by core, filled by the driver, and refuse to go away
 * (-EBUSY) while QPs use them.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include "core_priv.h"

/* ---- completion queues ---- */

static struct ib_cq *create_cq(struct ib_device *device,
			       const struct ib_cq_init_attr *attr,
			       ib_comp_handler comp_handler,
			       void (*event_handler)(struct ib_event *, void *),
			       void *cq_context, const char *caller,
			       struct ib_udata *udata)
{
	u32 vectors = device->num_comp_vectors ? device->num_comp_vectors : 1;
	struct ib_cq *cq;
	int ret;

	if (!device->ops.create_cq)
		return (struct ib_cq *)ERR_PTR(-EOPNOTSUPP);
	if (!attr->cqe || attr->comp_vector >= vectors ||
	    (device->attrs.max_cqe > 0 &&
	     attr->cqe > (unsigned int)device->attrs.max_cqe))
		return (struct ib_cq *)ERR_PTR(-EINVAL);
	cq = ib_zalloc_obj(device, ib_cq, udata);
	if (!cq)
		return (struct ib_cq *)ERR_PTR(-ENOMEM);
	cq->device = device;
	cq->comp_handler = comp_handler;
	cq->event_handler = event_handler;
	cq->cq_context = cq_context;
	cq->comp_vector = attr->comp_vector;
	atomic_set(&cq->usecnt, 0);
	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, caller);
	ret = device->ops.create_cq(cq, attr, udata);
	if (ret) {
		rdma_restrack_del(&cq->res);
		kfree(cq);
		return (struct ib_cq *)ERR_PTR(ret);
	}
	rdma_restrack_add(&cq->res);
	return cq;
}

/* A kernel CQ, owned by module @caller in "rdma res". */
struct ib_cq *__ib_create_cq(struct ib_device *device, ib_comp_handler comp,
			     void (*on_event)(struct ib_event *, void *),
			     void *ctx, const struct ib_cq_init_attr *attr,
			     const char *caller)
{
	return create_cq(device, attr, comp, on_event, ctx,
			 caller ? caller : "ib_core", NULL);
}
EXPORT_SYMBOL(__ib_create_cq);

struct ib_cq *ib_create_cq_user(struct ib_device *device,
				struct ib_ucontext *uctx,
				const struct ib_cq_init_attr *attr,
				ib_comp_handler comp_handler,
				void (*event_handler)(struct ib_event *, void *),
				void *cq_context, struct ib_udata *udata)
{
	return create_cq(device, attr, comp_handler, event_handler, cq_context,
			 NULL, udata);
}
EXPORT_SYMBOL(ib_create_cq_user);

int ib_resize_cq_user(struct ib_cq *cq, int cqe, struct ib_udata *udata)
{
	if (!cq->device->ops.resize_cq)
		return -EOPNOTSUPP;
	if (cqe < 1 || (cq->device->attrs.max_cqe > 0 &&
			cqe > cq->device->attrs.max_cqe))
		return -EINVAL;
	return cq->device->ops.resize_cq(cq, cqe, udata);
}
EXPORT_SYMBOL(ib_resize_cq_user);

int ib_resize_cq(struct ib_cq *cq, int cqe)
{
	return ib_resize_cq_user(cq, cqe, NULL);
}
EXPORT_SYMBOL(ib_resize_cq);

int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata)
{
	int ret;

	if (atomic_read(&cq->usecnt))
		return -EBUSY;
	rdma_restrack_unlist(&cq->res);
	if (cq->device->ops.destroy_cq) {
		ret = cq->device->ops.destroy_cq(cq, udata);
		if (ret) {
			rdma_restrack_add(&cq->res);
			return ret;
		}
	}
	rdma_restrack_del(&cq->res);
	kfree(cq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_cq_user);

int ib_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags)
{
	if (!cq->device->ops.req_notify_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.req_notify_cq(cq, flags);
}
EXPORT_SYMBOL(ib_req_notify_cq);

int ib_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc)
{
	if (!cq->device->ops.poll_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.poll_cq(cq, num_entries, wc);
}
EXPORT_SYMBOL(ib_poll_cq);

/* ---- shared receive queues ---- */

static int check_srq_attr(const struct ib_device *device,
			  const struct ib_srq_attr *attr)
{
	const struct ib_device_attr *da = &device->attrs;

	if (!attr->max_wr)
		return -EINVAL;
	if (da->max_srq_wr > 0 && attr->max_wr > (u32)da->max_srq_wr)
		return -EINVAL;
	if (da->max_srq_sge > 0 && attr->max_sge > (u32)da->max_srq_sge)
		return -EINVAL;
	return 0;
}

static struct ib_srq *create_srq(struct ib_pd *pd,
				 struct ib_srq_init_attr *init,
				 const char *caller, struct ib_udata *udata)
{
	struct ib_device *device = pd->device;
	struct ib_srq *srq;
	int ret;

	if (!device->ops.create_srq)
		return (struct ib_srq *)ERR_PTR(-EOPNOTSUPP);
	if (init->srq_type != IB_SRQT_BASIC)
		return (struct ib_srq *)ERR_PTR(-EOPNOTSUPP);
	ret = check_srq_attr(device, &init->attr);
	if (ret)
		return (struct ib_srq *)ERR_PTR(ret);
	srq = ib_zalloc_obj(device, ib_srq, udata);
	if (!srq)
		return (struct ib_srq *)ERR_PTR(-ENOMEM);
	srq->device = device;
	srq->pd = pd;
	srq->event_handler = init->event_handler;
	srq->srq_context = init->srq_context;
	srq->srq_type = init->srq_type;
	atomic_set(&srq->usecnt, 0);
	rdma_restrack_new(&srq->res, RDMA_RESTRACK_SRQ);
	rdma_restrack_set_name(&srq->res, caller);
	ret = device->ops.create_srq(srq, init, udata);
	if (ret) {
		rdma_restrack_del(&srq->res);
		kfree(srq);
		return (struct ib_srq *)ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	rdma_restrack_add(&srq->res);
	return srq;
}

struct ib_srq *ib_create_srq(struct ib_pd *pd,
			     struct ib_srq_init_attr *srq_init_attr)
{
	const char *name = ib_res_parent_name(&pd->res);

	return create_srq(pd, srq_init_attr, name ? name : "ib_core", NULL);
}
EXPORT_SYMBOL(ib_create_srq);

struct ib_srq *ib_create_srq_udata(struct ib_pd *pd, struct ib_ucontext *uctx,
				   struct ib_srq_init_attr *attr,
				   struct ib_udata *udata)
{
	return create_srq(pd, attr, NULL, udata);
}
EXPORT_SYMBOL(ib_create_srq_udata);

int ib_modify_srq_user(struct ib_srq *srq, struct ib_srq_attr *attr,
		       enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	const struct ib_device_attr *da = &srq->device->attrs;

	if (!mask || (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT)))
		return -EINVAL;
	if ((mask & IB_SRQ_MAX_WR) &&
	    (!attr->max_wr ||
	     (da->max_srq_wr > 0 && attr->max_wr > (u32)da->max_srq_wr)))
		return -EINVAL;
	if (!srq->device->ops.modify_srq)
		return -EOPNOTSUPP;
	return srq->device->ops.modify_srq(srq, attr, mask, udata);
}
EXPORT_SYMBOL(ib_modify_srq_user);

int ib_modify_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask)
{
	return ib_modify_srq_user(srq, srq_attr, srq_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_srq);

int ib_query_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr)
{
	if (!srq->device->ops.query_srq)
		return -EOPNOTSUPP;
	return srq->device->ops.query_srq(srq, srq_attr);
}
EXPORT_SYMBOL(ib_query_srq);

int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata)
{
	struct ib_pd *pd = srq->pd;
	int ret;

	if (atomic_read(&srq->usecnt))
		return -EBUSY;
	rdma_restrack_unlist(&srq->res);
	if (srq->device->ops.destroy_srq) {
		ret = srq->device->ops.destroy_srq(srq, udata);
		if (ret) {
			rdma_restrack_add(&srq->res);
			return ret;
		}
	}
	atomic_dec(&pd->usecnt);
	rdma_restrack_del(&srq->res);
	kfree(srq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_srq_user);
