// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Verbs objects, part 3: queue pairs.  Every state change of a QP passes
 * through modify_qp() below (kernel and user alike), which owns
 * qp->state, checks the IBTA state machine before the driver sees the
 * request and fires the rdma_core tracepoints.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include <trace/events/rdma_core.h>
#include "core_priv.h"

static bool qp_type_supported(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
	case IB_QPT_GSI:
		return true;
	default:
		return false;
	}
}

/* A wanted size above a device limit (a limit of 0: not declared). */
static bool over(u32 want, int limit)
{
	return limit > 0 && want > (u32)limit;
}

static int check_qp_init(struct ib_pd *pd, const struct ib_qp_init_attr *init,
			 bool user)
{
	struct ib_device *device = pd->device;
	const struct ib_device_attr *da = &device->attrs;
	const struct ib_qp_cap *cap = &init->cap;

	if (!qp_type_supported(init->qp_type))
		return -EOPNOTSUPP;
	if (init->qp_type == IB_QPT_GSI &&
	    (user || !rdma_is_port_valid(device, init->port_num)))
		return -EINVAL;
	if (!init->send_cq || !init->recv_cq ||
	    init->send_cq->device != device || init->recv_cq->device != device)
		return -EINVAL;
	if (init->srq && init->srq->device != device)
		return -EINVAL;
	if (init->sq_sig_type != IB_SIGNAL_ALL_WR &&
	    init->sq_sig_type != IB_SIGNAL_REQ_WR)
		return -EINVAL;
	if (over(cap->max_send_wr, da->max_qp_wr) ||
	    over(cap->max_send_sge, da->max_send_sge))
		return -EINVAL;
	if (!init->srq && (over(cap->max_recv_wr, da->max_qp_wr) ||
			   over(cap->max_recv_sge, da->max_recv_sge)))
		return -EINVAL;
	return 0;
}

static struct ib_qp *create_qp(struct ib_pd *pd, struct ib_qp_init_attr *init,
			       const char *caller, struct ib_udata *udata)
{
	struct ib_device *device = pd->device;
	struct ib_qp *qp;
	int ret;

	if (!device->ops.create_qp)
		return (struct ib_qp *)ERR_PTR(-EOPNOTSUPP);
	ret = check_qp_init(pd, init, !caller);
	if (ret)
		return (struct ib_qp *)ERR_PTR(ret);
	qp = ib_zalloc_obj(device, ib_qp, udata);
	if (!qp)
		return (struct ib_qp *)ERR_PTR(-ENOMEM);
	qp->device = device;
	qp->pd = pd;
	qp->send_cq = init->send_cq;
	qp->recv_cq = init->recv_cq;
	qp->srq = init->srq;
	qp->event_handler = init->event_handler;
	qp->qp_context = init->qp_context;
	qp->qp_type = init->qp_type;
	qp->port = init->qp_type == IB_QPT_GSI ? init->port_num : 0;
	spin_lock_init(&qp->state_lock);
	qp->state = IB_QPS_RESET;
	mutex_init(&qp->modify_mutex);
	rdma_restrack_new(&qp->res, RDMA_RESTRACK_QP);
	rdma_restrack_set_name(&qp->res, caller);
	ret = device->ops.create_qp(qp, init, udata);
	if (ret) {
		rdma_restrack_del(&qp->res);
		mutex_destroy(&qp->modify_mutex);
		kfree(qp);
		return (struct ib_qp *)ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	atomic_inc(&qp->send_cq->usecnt);
	atomic_inc(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_inc(&qp->srq->usecnt);
	rdma_restrack_add(&qp->res);
	return qp;
}

struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller)
{
	return create_qp(pd, qp_init_attr, caller ? caller : "ib_core", NULL);
}
EXPORT_SYMBOL(ib_create_qp_kernel);

struct ib_qp *ib_create_qp_udata(struct ib_pd *pd, struct ib_ucontext *uctx,
				 struct ib_qp_init_attr *attr,
				 struct ib_udata *udata)
{
	return create_qp(pd, attr, NULL, udata);
}
EXPORT_SYMBOL(ib_create_qp_udata);

static enum ib_qp_state qp_state_get(struct ib_qp *qp)
{
	enum ib_qp_state state;
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	state = qp->state;
	spin_unlock_irqrestore(&qp->state_lock, flags);
	return state;
}

/* Record @state; fire rdma_core:qp_state when it is a change. */
static void qp_state_set(struct ib_qp *qp, enum ib_qp_state state)
{
	enum ib_qp_state old;
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	old = qp->state;
	qp->state = state;
	spin_unlock_irqrestore(&qp->state_lock, flags);
	if (old != state)
		trace_qp_state(qp, old, state);
}

void ib_qp_state_changed(struct ib_qp *qp, enum ib_qp_state state)
{
	if ((unsigned int)state > IB_QPS_ERR)
		return;
	qp_state_set(qp, state);
}
EXPORT_SYMBOL(ib_qp_state_changed);

/* Check and resolve an address vector of @qp (primary or alternate path). */
static int qp_resolve_av(struct ib_qp *qp, struct rdma_ah_attr *ah, u32 port)
{
	if (!ah->port_num)
		ah->port_num = port;
	if (!rdma_is_port_valid(qp->device, ah->port_num) ||
	    (port && ah->port_num != port))
		return -EINVAL;
	return rdma_resolve_ah_attr(qp->device, ah);
}

/* Everything core checks before the driver sees a modify request. */
static int check_modify(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
			enum ib_qp_state cur, enum ib_qp_state next)
{
	struct ib_device *device = qp->device;
	u32 port;
	int ret;

	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		return -EINVAL;
	if (!ib_modify_qp_is_ok(cur, next, qp->qp_type,
				(enum ib_qp_attr_mask)mask))
		return -EINVAL;
	if ((mask & IB_QP_PORT) && !rdma_is_port_valid(device, attr->port_num))
		return -EINVAL;
	if ((mask & IB_QP_PORT) && qp->qp_type == IB_QPT_GSI &&
	    attr->port_num != qp->port)
		return -EINVAL;
	port = (mask & IB_QP_PORT) ? attr->port_num : qp->port;
	if (mask & IB_QP_AV) {
		ret = qp_resolve_av(qp, &attr->ah_attr, port);
		if (ret)
			return ret;
	}
	if (mask & IB_QP_ALT_PATH) {
		if (!rdma_is_port_valid(device, attr->alt_port_num))
			return -EINVAL;
		ret = qp_resolve_av(qp, &attr->alt_ah_attr, attr->alt_port_num);
		if (ret)
			return ret;
	}
	return 0;
}

static int modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int attr_mask,
		     struct ib_udata *udata)
{
	enum ib_qp_state cur, next;
	int ret;

	mutex_lock(&qp->modify_mutex);
	cur = qp_state_get(qp);
	next = (attr_mask & IB_QP_STATE) ? attr->qp_state : cur;
	if ((unsigned int)next > IB_QPS_ERR || (attr_mask & ~IB_QP_ATTR_STANDARD_BITS &
						~IB_QP_RATE_LIMIT))
		ret = -EINVAL;
	else
		ret = check_modify(qp, attr, attr_mask, cur, next);
	if (!ret)
		ret = qp->device->ops.modify_qp ?
			qp->device->ops.modify_qp(qp, attr, attr_mask, udata) :
			-EOPNOTSUPP;
	if (!ret) {
		if (attr_mask & IB_QP_PORT)
			qp->port = attr->port_num;
		if (attr_mask & IB_QP_STATE)
			qp_state_set(qp, next);
	}
	trace_qp_modify(qp, cur, next, attr_mask, ret);
	mutex_unlock(&qp->modify_mutex);
	return ret;
}

/*
 * The one entry kprobe:ib_modify_qp watches: kernel callers, and user
 * modifies without driver data (all of rxe's, since librxe sends none).
 */
noinline int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
			  int qp_attr_mask)
{
	return modify_qp(qp, qp_attr, qp_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_qp);

/* uverbs' entry; driver data, when there is some, reaches the driver */
noinline int ib_modify_qp_with_udata(struct ib_qp *qp, struct ib_qp_attr *attr,
				     int attr_mask, struct ib_udata *udata)
{
	if (!udata || (!udata->inlen && !udata->outlen))
		return ib_modify_qp(qp, attr, attr_mask);
	return modify_qp(qp, attr, attr_mask, udata);
}
EXPORT_SYMBOL(ib_modify_qp_with_udata);

int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr, int qp_attr_mask,
		struct ib_qp_init_attr *qp_init_attr)
{
	if (!qp->device->ops.query_qp)
		return -EOPNOTSUPP;
	memset(qp_attr, 0, sizeof(*qp_attr));
	if (qp_init_attr)
		memset(qp_init_attr, 0, sizeof(*qp_init_attr));
	return qp->device->ops.query_qp(qp, qp_attr, qp_attr_mask, qp_init_attr);
}
EXPORT_SYMBOL(ib_query_qp);

int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata)
{
	struct ib_pd *pd = qp->pd;
	struct ib_cq *scq = qp->send_cq, *rcq = qp->recv_cq;
	struct ib_srq *srq = qp->srq;
	int ret;

	/* multicast attachments first (ib_detach_mcast) */
	if (atomic_read(&qp->usecnt))
		return -EBUSY;
	rdma_restrack_unlist(&qp->res);
	if (qp->device->ops.destroy_qp) {
		ret = qp->device->ops.destroy_qp(qp, udata);
		if (ret) {
			rdma_restrack_add(&qp->res);
			return ret;
		}
	}
	atomic_dec(&pd->usecnt);
	atomic_dec(&scq->usecnt);
	atomic_dec(&rcq->usecnt);
	if (srq)
		atomic_dec(&srq->usecnt);
	rdma_restrack_del(&qp->res);
	mutex_destroy(&qp->modify_mutex);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_qp_user);

/*
 * Multicast: UD QPs and multicast GIDs only.  The LID means nothing on
 * RoCE, and our devices have no InfiniBand ports, so it is not checked.
 * qp->usecnt counts the attachments the driver accepted.
 */
static int mcast_op(struct ib_qp *qp, union ib_gid *gid, u16 lid, bool attach)
{
	int (*op)(struct ib_qp *qp, union ib_gid *gid, u16 lid);
	int ret;

	op = attach ? qp->device->ops.attach_mcast : qp->device->ops.detach_mcast;
	if (!op)
		return -EOPNOTSUPP;
	if (qp->qp_type != IB_QPT_UD || !rdma_gid_is_multicast(gid->raw))
		return -EINVAL;
	ret = op(qp, gid, lid);
	if (!ret && attach)
		atomic_inc(&qp->usecnt);
	else if (!ret)
		atomic_dec(&qp->usecnt);
	return ret;
}

int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return mcast_op(qp, gid, lid, true);
}
EXPORT_SYMBOL(ib_attach_mcast);

int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	return mcast_op(qp, gid, lid, false);
}
EXPORT_SYMBOL(ib_detach_mcast);
