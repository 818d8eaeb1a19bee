// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm: IDs (create, count, destroy), their state steps and event
 * delivery, the devices (an ib_client), module init.  Rules in
 * Documentation/core/rdma_cm.rst.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <net/net_namespace.h>
#include "cma_priv.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rdma_cma.h>

MODULE_DESCRIPTION("RDMA connection manager (IP-addressed IDs over ib_cm)");
MODULE_LICENSE("Dual BSD/GPL");

DEFINE_MUTEX(cma_lock);
struct workqueue_struct *cma_wq;
LIST_HEAD(cma_dev_list);
LIST_HEAD(cma_listen_any);

static int cma_add_one(struct ib_device *dev);
static void cma_remove_one(struct ib_device *dev, void *client_data);

static struct ib_client cma_client = {
	.name = "cma",
	.add = cma_add_one,
	.remove = cma_remove_one,
};

/* ---------------------------------------------------------------- state */

enum rdma_cm_state cma_state(struct rdma_id_private *p)
{
	enum rdma_cm_state s;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	s = p->state;
	spin_unlock_irqrestore(&p->lock, flags);
	return s;
}

/*
 * Step the state machine for @in and, on GO, move to act->next at once
 * (compare and exchange under p->lock).
 */
enum rdma_cm_sm_verdict cma_step(struct rdma_id_private *p,
				 enum rdma_cm_sm_input in, int status,
				 struct rdma_cm_sm_action *act)
{
	enum rdma_cm_sm_verdict v;
	enum rdma_cm_state old;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	old = p->state;
	v = rdma_cm_sm_step(old, in, status, act);
	if (v == RDMA_CM_SM_GO)
		p->state = (enum rdma_cm_state)act->next;
	spin_unlock_irqrestore(&p->lock, flags);
	if (v == RDMA_CM_SM_GO && act->next != old)
		trace_cm_state(p, old, act->next, in);
	return v;
}

void cma_trace_state(struct rdma_id_private *p, enum rdma_cm_state old,
		     enum rdma_cm_state next, enum rdma_cm_sm_input in)
{
	trace_cm_state(p, old, next, in);
}

/*
 * Call the ID's handler; the caller holds the handler mutex and has
 * stepped the state machine to an event.  Returns the handler's answer.
 */
int cma_deliver(struct rdma_id_private *p, struct rdma_cm_event *ev)
{
	int ret;

	lockdep_assert_held(&p->handler_mutex);
	ret = p->id.event_handler(&p->id, ev);
	trace_cm_event(p, cma_state(p), ev->event, ev->status, ret);
	return ret;
}

/*
 * A completion of the ID's own work (address, route): step @in and
 * report the event it makes; a handler's non-zero answer destroys the
 * ID.  Called with the handler mutex held.
 */
void cma_report(struct rdma_id_private *p, enum rdma_cm_sm_input in,
		int status)
{
	struct rdma_cm_sm_action act;
	struct rdma_cm_event ev = {};

	lockdep_assert_held(&p->handler_mutex);
	if (cma_step(p, in, status, &act) != RDMA_CM_SM_GO ||
	    act.report == RDMA_CM_NO_EVENT)
		return;
	ev.event = (enum rdma_cm_event_type)act.report;
	ev.status = act.status;
	if (cma_deliver(p, &ev))
		cma_handler_failed(p);
}

/* ------------------------------------------------------------- lifetime */

void cma_id_get(struct rdma_id_private *p)
{
	refcount_inc(&p->refcount);
}

void cma_id_put(struct rdma_id_private *p)
{
	if (refcount_dec_and_test(&p->refcount))
		complete(&p->comp);
}

static void cma_destroy_work(struct work_struct *w)
{
	struct rdma_id_private *p =
		container_of(w, struct rdma_id_private, destroy_work);

	cma_destroy_now(p, p->destroy_prev, true);
}

struct rdma_id_private *cma_id_alloc(struct net *net,
				     rdma_cm_event_handler handler,
				     void *context, enum rdma_ucm_port_space ps,
				     enum ib_qp_type qp_type,
				     const char *caller)
{
	struct rdma_id_private *p;

	p = (struct rdma_id_private *)kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	p->id.event_handler = handler;
	p->id.context = context;
	p->id.ps = ps;
	p->id.qp_type = qp_type;
	p->net = get_net(net);
	p->id.route.addr.dev_addr.net = net;
	spin_lock_init(&p->lock);
	p->state = RDMA_CM_IDLE;
	mutex_init(&p->handler_mutex);
	refcount_set(&p->refcount, 1);
	init_completion(&p->comp);
	INIT_LIST_HEAD(&p->dev_node);
	INIT_HLIST_NODE(&p->bind_node);
	INIT_LIST_HEAD(&p->lrefs);
	INIT_LIST_HEAD(&p->any_node);
	INIT_LIST_HEAD(&p->mc_list);
	INIT_DELAYED_WORK(&p->addr_work, cma_addr_work);
	INIT_WORK(&p->route_work, cma_route_work);
	INIT_WORK(&p->destroy_work, cma_destroy_work);
	cma_addr_change_init(p);
	p->seq_num = get_random_u32() & 0xffffff;
	p->qkey = RDMA_UDP_QKEY;
	p->caller = caller;
	p->row.id = p;
	rdma_restrack_new(&p->row.res, RDMA_RESTRACK_CM_ID);
	return p;
}

static bool cma_ps_ok(enum rdma_ucm_port_space ps, enum ib_qp_type qp_type)
{
	switch (ps) {
	case RDMA_PS_TCP:
		return qp_type == IB_QPT_RC;
	case RDMA_PS_UDP:
	case RDMA_PS_IPOIB:
		return qp_type == IB_QPT_UD;
	case RDMA_PS_IB:
		return qp_type == IB_QPT_RC || qp_type == IB_QPT_UD ||
		       qp_type == IB_QPT_UC;
	default:
		return false;
	}
}

struct rdma_cm_id *__rdma_create_kernel_id(struct net *net,
					   rdma_cm_event_handler event_handler,
					   void *context,
					   enum rdma_ucm_port_space ps,
					   enum ib_qp_type qp_type,
					   const char *caller)
{
	struct rdma_id_private *p;

	if (!net || !event_handler || !cma_ps_ok(ps, qp_type))
		return (struct rdma_cm_id *)ERR_PTR(-EINVAL);
	p = cma_id_alloc(net, event_handler, context, ps, qp_type, caller);
	if (!p)
		return (struct rdma_cm_id *)ERR_PTR(-ENOMEM);
	/* NULL @caller: a user ID, owned by the calling task */
	rdma_restrack_set_name(&p->row.res, caller);
	return &p->id;
}
EXPORT_SYMBOL_GPL(__rdma_create_kernel_id);

struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type)
{
	return __rdma_create_kernel_id(current->nsproxy->net_ns, event_handler,
				       context, ps, qp_type, NULL);
}
EXPORT_SYMBOL_GPL(rdma_create_user_id);

/* ------------------------------------------------------------- devices */

struct cma_device *cma_find_dev_locked(struct ib_device *dev)
{
	struct cma_device *cd;

	lockdep_assert_held(&cma_lock);
	list_for_each_entry(cd, &cma_dev_list, node)
		if (cd->device == dev)
			return cd;
	return NULL;
}

/*
 * Attach @p to @dev/@port with source GID slot @sgid_index; -ENODEV if
 * rdma_cm does not know the device or it is going.
 */
int cma_attach_dev_locked(struct rdma_id_private *p, struct cma_device *cd,
			  u32 port, u8 sgid_index)
{
	lockdep_assert_held(&cma_lock);
	if (cd->removing || !rdma_dev_access_netns(cd->device, p->net))
		return -ENODEV;
	if (p->cma_dev)
		return p->cma_dev == cd ? 0 : -EINVAL;
	p->cma_dev = cd;
	cd->nids++;
	list_add_tail(&p->dev_node, &cd->id_list);
	p->id.device = cd->device;
	p->id.port_num = port;
	p->path.port_num = port;
	p->path.sgid_index = sgid_index;
	p->path.pkey = 0xffff;
	p->row.res.device = cd->device;
	rdma_restrack_add(&p->row.res);
	return 0;
}

int cma_attach_dev(struct rdma_id_private *p, struct ib_device *dev,
		   u32 port, u8 sgid_index)
{
	struct cma_device *cd;
	int ret = -ENODEV;

	mutex_lock(&cma_lock);
	cd = cma_find_dev_locked(dev);
	if (cd)
		ret = cma_attach_dev_locked(p, cd, port, sgid_index);
	mutex_unlock(&cma_lock);
	return ret;
}

void cma_detach_dev(struct rdma_id_private *p)
{
	struct cma_device *cd;

	/* waits for a dump that reads the row */
	rdma_restrack_unlist(&p->row.res);
	mutex_lock(&cma_lock);
	cd = p->cma_dev;
	if (cd) {
		list_del_init(&p->dev_node);
		p->cma_dev = NULL;
		if (!--cd->nids)
			wake_up(&cd->wq);
	}
	mutex_unlock(&cma_lock);
}

/*
 * The rest of destroy once the state is DESTROYING; @prev is the state
 * it left (what to cancel).  @with_cm: destroy the ib_cm ID too (false
 * when an ib_cm handler returns non-zero and ib_cm destroys it).
 */
void cma_destroy_now(struct rdma_id_private *p, enum rdma_cm_state prev,
		     bool with_cm)
{
	struct ib_cm_id *cm_id;

	if (prev == RDMA_CM_ADDR_QUERY)
		cma_cancel_addr(p);
	if (prev == RDMA_CM_ROUTE_QUERY)
		cancel_work_sync(&p->route_work);
	cma_cancel_listen(p);
	cm_id = p->cm_id;
	p->cm_id = NULL;
	if (cm_id && with_cm)
		ib_destroy_cm_id(cm_id);
	cma_leave_all_mc(p);
	/* no work of the ID runs once it is DESTROYING: stop the queued */
	cancel_delayed_work_sync(&p->addr_work);
	cancel_work_sync(&p->route_work);
	if (p->id.qp)
		cma_modify_qp_err(p);
	cma_detach_dev(p);
	/* off the device list: no new ADDR_CHANGE is queued */
	cma_addr_change_cancel(p);
	rdma_restrack_del(&p->row.res);
	cma_release_port(p);
	cma_id_put(p);
	wait_for_completion(&p->comp);
	put_net(p->net);
	kfree(p);
}

void rdma_destroy_id(struct rdma_cm_id *id)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	enum rdma_cm_state prev;

	mutex_lock(&p->handler_mutex);
	prev = cma_state(p);
	if (cma_step(p, RDMA_CM_OP_DESTROY, 0, &act) != RDMA_CM_SM_GO) {
		/* already DESTROYING: a handler's return owns the ID */
		mutex_unlock(&p->handler_mutex);
		return;
	}
	mutex_unlock(&p->handler_mutex);
	cma_destroy_now(p, prev, true);
}
EXPORT_SYMBOL_GPL(rdma_destroy_id);

/*
 * A handler returned non-zero from a work item of the ID (address,
 * route, device removal): mark it DESTROYING now (no more events) and
 * finish the destroy from cma_wq.
 */
void cma_handler_failed(struct rdma_id_private *p)
{
	struct rdma_cm_sm_action act;
	enum rdma_cm_state prev;

	lockdep_assert_held(&p->handler_mutex);
	prev = cma_state(p);
	if (cma_step(p, RDMA_CM_OP_DESTROY, 0, &act) != RDMA_CM_SM_GO)
		return;
	p->destroy_prev = prev;
	queue_work(cma_wq, &p->destroy_work);
}

void rdma_lock_handler(struct rdma_cm_id *id)
{
	mutex_lock(&cma_priv(id)->handler_mutex);
}
EXPORT_SYMBOL_GPL(rdma_lock_handler);

void rdma_unlock_handler(struct rdma_cm_id *id)
{
	mutex_unlock(&cma_priv(id)->handler_mutex);
}
EXPORT_SYMBOL_GPL(rdma_unlock_handler);

static int cma_add_one(struct ib_device *dev)
{
	struct rdma_id_private *p;
	struct cma_device *cd;
	u32 port;
	bool roce = false;

	rdma_for_each_port(dev, port)
		roce |= rdma_cap_ib_cm(dev, port);
	if (!roce)
		return -EOPNOTSUPP;
	cd = (struct cma_device *)kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return -ENOMEM;
	cd->device = dev;
	INIT_LIST_HEAD(&cd->id_list);
	INIT_LIST_HEAD(&cd->listeners);
	init_waitqueue_head(&cd->wq);
	mutex_lock(&cma_lock);
	list_add_tail(&cd->node, &cma_dev_list);
	/* wildcard listeners listen on new devices too (best effort) */
	list_for_each_entry(p, &cma_listen_any, any_node)
		if (rdma_dev_access_netns(dev, p->net))
			cma_listen_on_dev_locked(p, cd);
	mutex_unlock(&cma_lock);
	ib_set_client_data(dev, &cma_client, cd);
	return 0;
}

/* Tell one ID its device is going; destroy it if the handler says so. */
static void cma_id_device_gone(struct rdma_id_private *p)
{
	struct rdma_cm_event ev = {};
	struct rdma_cm_sm_action act;
	enum rdma_cm_state prev;
	int ret;

	mutex_lock(&p->handler_mutex);
	prev = cma_state(p);
	if (cma_step(p, RDMA_CM_IN_DEVICE_GONE, 0, &act) != RDMA_CM_SM_GO) {
		mutex_unlock(&p->handler_mutex);
		return;
	}
	if (p->id.qp)
		cma_modify_qp_err(p);
	ev.event = RDMA_CM_EVENT_DEVICE_REMOVAL;
	ret = cma_deliver(p, &ev);
	if (ret) {
		/* the caller holds a reference: destroy from cma_wq */
		cma_handler_failed(p);
		mutex_unlock(&p->handler_mutex);
		return;
	}
	mutex_unlock(&p->handler_mutex);
	/*
	 * Outside the handler mutex: ib_destroy_cm_id() of a listener waits
	 * for its request handler, which takes it (and drops the request,
	 * the listener being in DEVICE_REMOVAL).  The address/route work
	 * of a removed ID is dropped when it runs.
	 */
	if (prev == RDMA_CM_LISTEN)
		cma_cancel_listen(p);
}

/*
 * The device goes: every ID on it hears DEVICE_REMOVAL once, then this
 * waits until their users destroyed them all (as upstream does).
 */
static void cma_remove_one(struct ib_device *dev, void *client_data)
{
	struct cma_device *cd = (struct cma_device *)client_data;
	struct rdma_id_private *p;

	mutex_lock(&cma_lock);
	cd->removing = true;
	mutex_unlock(&cma_lock);
	for (;;) {
		p = NULL;
		mutex_lock(&cma_lock);
		list_for_each_entry(p, &cd->id_list, dev_node) {
			if (cma_state(p) != RDMA_CM_DEVICE_REMOVAL &&
			    cma_state(p) != RDMA_CM_DESTROYING) {
				cma_id_get(p);
				goto found;
			}
		}
		p = NULL;
found:
		mutex_unlock(&cma_lock);
		if (!p)
			break;
		cma_id_device_gone(p);
		cma_id_put(p);
	}
	wait_event(cd->wq, !READ_ONCE(cd->nids));
	cma_dev_drop_listeners(cd);
	mutex_lock(&cma_lock);
	list_del(&cd->node);
	mutex_unlock(&cma_lock);
	kfree(cd);
}

/* -------------------------------------------------------------- strings */

const char *rdma_event_msg(enum rdma_cm_event_type event)
{
	const char *s = rdma_cm_event_str(event);

	return strcmp(s, "?") ? s : "unrecognized event";
}
EXPORT_SYMBOL_GPL(rdma_event_msg);

const char *rdma_reject_msg(struct rdma_cm_id *id, int reason)
{
	switch (reason) {
	case IB_CM_REJ_NO_QP: return "no QP";
	case IB_CM_REJ_NO_RESOURCES: return "no resources";
	case IB_CM_REJ_TIMEOUT: return "timeout";
	case IB_CM_REJ_UNSUPPORTED: return "unsupported request";
	case IB_CM_REJ_INVALID_COMM_ID: return "invalid comm ID";
	case IB_CM_REJ_INVALID_SERVICE_ID: return "invalid service ID";
	case IB_CM_REJ_INVALID_TRANSPORT_TYPE: return "invalid transport type";
	case IB_CM_REJ_STALE_CONN: return "stale connection";
	case IB_CM_REJ_INVALID_MTU: return "invalid MTU";
	case IB_CM_REJ_CONSUMER_DEFINED: return "consumer defined";
	case IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED:
		return "vendor option not supported";
	default: return "unrecognized reason";
	}
}
EXPORT_SYMBOL_GPL(rdma_reject_msg);

bool rdma_is_consumer_reject(struct rdma_cm_id *id, int reason)
{
	return reason == IB_CM_REJ_CONSUMER_DEFINED;
}
EXPORT_SYMBOL_GPL(rdma_is_consumer_reject);

const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len)
{
	if (ev->event != RDMA_CM_EVENT_REJECTED ||
	    !rdma_is_consumer_reject(id, ev->status)) {
		*data_len = 0;
		return NULL;
	}
	*data_len = ev->param.conn.private_data_len;
	return ev->param.conn.private_data;
}
EXPORT_SYMBOL_GPL(rdma_consumer_reject_data);

/* ----------------------------------------------------------------- init */

static int __init cma_init(void)
{
	int ret;

	cma_wq = alloc_ordered_workqueue("rdma_cm", WQ_MEM_RECLAIM);
	if (!cma_wq)
		return -ENOMEM;
	ret = ib_register_client(&cma_client);
	if (ret)
		goto err_wq;
	ret = cma_netdev_register();
	if (ret)
		goto err_client;
	return 0;
err_client:
	ib_unregister_client(&cma_client);
err_wq:
	destroy_workqueue(cma_wq);
	return ret;
}

static void __exit cma_cleanup(void)
{
	cma_netdev_unregister();
	ib_unregister_client(&cma_client);
	destroy_workqueue(cma_wq);
}

module_init(cma_init);
module_exit(cma_cleanup);
