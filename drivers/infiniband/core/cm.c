// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_cm: the IB connection manager over RoCE (Documentation/core/cm.rst).
 *
 * This file holds the CM IDs, the tables that find them (local comm ID,
 * remote comm ID + CA GUID, remote QPN + CA GUID, listen service IDs,
 * pending SIDR requests), the glue that steps the state machine of
 * cm_state.c and carries out its actions, the timers, event delivery
 * and the per-device client.  Messages and the user calls that send them
 * are in cm_msg.c.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/xarray.h>
#include <rdma/ib_cache.h>
#include "cm_priv.h"

#define CREATE_TRACE_POINTS
#include <trace/events/ib_cm.h>

MODULE_AUTHOR("rdma-oot");
MODULE_DESCRIPTION("IB connection manager over RoCE");
MODULE_LICENSE("Dual BSD/GPL");

struct cm_globals cm;

/* events one run of an ID's delivery work hands out before it requeues */
#define CM_EV_BATCH	32

static void cm_ev_work(struct work_struct *work);
static void cm_timewait_work(struct work_struct *work);
static void cm_mra_work(struct work_struct *work);

/* ------------------------------------------------------------ IDs */

void cm_id_get(struct cm_id_priv *p)
{
	refcount_inc(&p->refs);
}

static void cm_dev_release(struct kref *ref)
{
	kfree(container_of(ref, struct cm_device, ref));
}

static void cm_id_free(struct cm_id_priv *p)
{
	kref_put(&p->cm_dev->ref, cm_dev_release);
	kfree(p);
}

void cm_id_put(struct cm_id_priv *p)
{
	if (!refcount_dec_and_test(&p->refs))
		return;
	if (p->self_free)
		cm_id_free(p);
	else
		complete(&p->released);
}

struct cm_id_priv *cm_alloc_id(struct cm_device *cm_dev,
				      ib_cm_handler handler, void *context)
{
	struct cm_id_priv *p;
	int ret, t;

	p = (struct cm_id_priv *)kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return (struct cm_id_priv *)ERR_PTR(-ENOMEM);
	p->id.cm_handler = handler;
	p->id.context = context;
	p->id.device = cm_dev->ib_dev;
	p->id.remote_cm_qpn = 1;
	p->cm_dev = cm_dev;
	refcount_set(&p->refs, 1);
	init_completion(&p->released);
	mutex_init(&p->mutex);
	for (t = 0; t < CM_TBL_COUNT; t++)
		RB_CLEAR_NODE(&p->node[t]);
	INIT_LIST_HEAD(&p->dev_node);
	INIT_DELAYED_WORK(&p->timewait_work, cm_timewait_work);
	INIT_DELAYED_WORK(&p->mra_work, cm_mra_work);
	spin_lock_init(&p->ev_lock);
	INIT_LIST_HEAD(&p->ev_list);
	INIT_WORK(&p->ev_work, cm_ev_work);

	mutex_lock(&cm.lock);
	if (cm_dev->going_away) {
		ret = -ENODEV;
		goto err_unlock;
	}
	ret = xa_alloc_cyclic(&cm.local_ids, &p->xa_index, p, xa_limit_32b,
			      &cm.xa_next, GFP_KERNEL);
	if (ret < 0)
		goto err_unlock;
	p->local_id = p->xa_index ^ cm.id_mask;
	p->id.local_id = cpu_to_be32(p->local_id);
	list_add_tail(&p->dev_node, &cm.id_list);
	kref_get(&cm_dev->ref);
	mutex_unlock(&cm.lock);
	return p;

err_unlock:
	mutex_unlock(&cm.lock);
	kfree(p);
	return (struct cm_id_priv *)ERR_PTR(ret);
}

/* the ID with local comm ID @local_id, with a reference, or NULL */
struct cm_id_priv *cm_find_local(u32 local_id)
{
	struct cm_id_priv *p;

	mutex_lock(&cm.lock);
	p = (struct cm_id_priv *)xa_load(&cm.local_ids, local_id ^ cm.id_mask);
	if (p && p->local_id == local_id)
		cm_id_get(p);
	else
		p = NULL;
	mutex_unlock(&cm.lock);
	return p;
}

/* the key under which @p stands in table @t */
static void cm_id_key(enum cm_table t, const struct cm_id_priv *p,
		      struct cm_key *k)
{
	k->guid = 0;
	k->ptr = NULL;
	switch (t) {
	case CM_TBL_LISTEN:
		k->num = p->service_id;
		k->ptr = p->cm_dev;
		break;
	case CM_TBL_REMOTE_ID:
		k->num = p->remote_id;
		k->guid = p->remote_ca_guid;
		break;
	case CM_TBL_REMOTE_QPN:
		k->num = p->remote_qpn;
		k->guid = p->remote_ca_guid;
		break;
	default:	/* CM_TBL_SIDR */
		k->num = p->remote_id;
		k->ptr = &p->path.dgid;
		break;
	}
}

/* order of two keys of table @t: <0, 0, >0 */
static int cm_key_cmp(enum cm_table t, const struct cm_key *a,
		      const struct cm_key *b)
{
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	if (t == CM_TBL_SIDR)
		return memcmp(a->ptr, b->ptr, sizeof(union ib_gid));
	if (a->ptr != b->ptr)
		return (uintptr_t)a->ptr < (uintptr_t)b->ptr ? -1 : 1;
	return 0;
}

static struct cm_id_priv *cm_node_id(enum cm_table t, struct rb_node *n)
{
	return (struct cm_id_priv *)((u8 *)n -
				     offsetof(struct cm_id_priv, node[t]));
}

/* an ID of table @t with @key (no reference), or NULL */
struct cm_id_priv *cm_find(enum cm_table t, const struct cm_key *key)
{
	struct rb_node *n;
	struct cm_key k;
	int c;

	lockdep_assert_held(&cm.lock);
	n = cm.table[t].rb_node;
	while (n) {
		cm_id_key(t, cm_node_id(t, n), &k);
		c = cm_key_cmp(t, key, &k);
		if (!c)
			return cm_node_id(t, n);
		n = c < 0 ? n->rb_left : n->rb_right;
	}
	return NULL;
}

/* equal keys (a stale peer's) go right of the ones there */
void cm_table_add(struct cm_id_priv *p, enum cm_table t)
{
	struct rb_node **link = &cm.table[t].rb_node, *parent = NULL;
	struct cm_key mine, k;

	lockdep_assert_held(&cm.lock);
	if (!RB_EMPTY_NODE(&p->node[t]))
		return;
	cm_id_key(t, p, &mine);
	while (*link) {
		parent = *link;
		cm_id_key(t, cm_node_id(t, parent), &k);
		link = cm_key_cmp(t, &mine, &k) < 0 ? &parent->rb_left :
						      &parent->rb_right;
	}
	rb_link_node(&p->node[t], parent, link);
	rb_insert_color(&p->node[t], &cm.table[t]);
}

void cm_table_del(struct cm_id_priv *p, enum cm_table t)
{
	lockdep_assert_held(&cm.lock);
	if (RB_EMPTY_NODE(&p->node[t]))
		return;
	rb_erase(&p->node[t], &cm.table[t]);
	RB_CLEAR_NODE(&p->node[t]);
}

/* enter the remote-ID and remote-QPN tables (a connection being made) */
void cm_enter_remote_tables(struct cm_id_priv *p)
{
	cm_table_add(p, CM_TBL_REMOTE_ID);
	cm_table_add(p, CM_TBL_REMOTE_QPN);
}

void cm_leave_remote_tables(struct cm_id_priv *p)
{
	mutex_lock(&cm.lock);
	cm_table_del(p, CM_TBL_REMOTE_ID);
	cm_table_del(p, CM_TBL_REMOTE_QPN);
	cm_table_del(p, CM_TBL_SIDR);
	mutex_unlock(&cm.lock);
}

/* ------------------------------------------------------------ events */

struct cm_event_work *cm_alloc_ev(void)
{
	return (struct cm_event_work *)kzalloc(sizeof(struct cm_event_work),
					       GFP_KERNEL);
}

void cm_free_ev(struct cm_event_work *ev)
{
	if (!ev)
		return;
	if (ev->listen)
		cm_id_put(ev->listen);
	kfree(ev);
}

/* queue @ev for delivery on @p; none once destroy started */
static void cm_queue_event(struct cm_id_priv *p, struct cm_event_work *ev)
{
	lockdep_assert_held(&p->mutex);
	if (p->destroying) {
		cm_free_ev(ev);
		return;
	}
	spin_lock_irq(&p->ev_lock);
	list_add_tail(&ev->list, &p->ev_list);
	spin_unlock_irq(&p->ev_lock);
	/* each queued run of the work holds a reference */
	cm_id_get(p);
	p->ev_queued = true;
	if (!queue_work(cm.wq, &p->ev_work))
		cm_id_put(p);
}

static void cm_destroy(struct cm_id_priv *p, int err, bool from_handler);

static void cm_ev_work(struct work_struct *work)
{
	struct cm_id_priv *p = container_of(work, struct cm_id_priv, ev_work);
	struct cm_event_work *ev;
	enum ib_cm_state st;
	int n, ret;

	for (n = 0; n < CM_EV_BATCH; n++) {
		spin_lock_irq(&p->ev_lock);
		ev = list_first_entry_or_null(&p->ev_list,
					      struct cm_event_work, list);
		if (ev)
			list_del(&ev->list);
		spin_unlock_irq(&p->ev_lock);
		if (!ev)
			break;
		ret = 0;
		if (!READ_ONCE(p->destroying)) {
			st = (enum ib_cm_state)READ_ONCE(p->state);
			ret = p->id.cm_handler(&p->id, &ev->ev);
			trace_cm_event(p->local_id, st, ev->ev.event, ret);
		}
		cm_free_ev(ev);
		if (ret && !READ_ONCE(p->destroying))
			cm_destroy(p, ret, true);
	}
	if (n == CM_EV_BATCH) {
		cm_id_get(p);
		if (!queue_work(cm.wq, &p->ev_work))
			cm_id_put(p);
	}
	cm_id_put(p);
}

/* ------------------------------------------------------------ stepping */

static void cm_set_state(struct cm_id_priv *p, enum ib_cm_state st)
{
	lockdep_assert_held(&p->mutex);
	if (p->state != st)
		trace_cm_state(p->local_id, p->remote_id, p->service_id,
			       p->state, st);
	p->state = st;
	p->id.state = st;
}

/* stop the armed MAD and the MRA timer: their end is no timeout now */
static void cm_cancel_armed(struct cm_id_priv *p)
{
	lockdep_assert_held(&p->mutex);
	if (p->armed) {
		p->armed = false;
		rdma_mad_cancel(p->armed_agent, p->armed_send);
	}
	if (p->mra_pending) {
		p->mra_pending = false;
		cancel_delayed_work(&p->mra_work);
	}
}

/*
 * Step @p with @in and carry out the action in the order of
 * <rdma/ib_cm_state.h>: cancel, state, tables and timewait, send,
 * event.  @ev (consumed) is the event to deliver if the step reports
 * one, filled but for .event.  @rx_msg: the message being answered.
 */
int cm_step(struct cm_id_priv *p, enum ib_cm_sm_input in,
	    const struct cm_tx_args *args, struct cm_event_work *ev,
	    const struct ib_cm_wire_msg *rx_msg)
{
	struct ib_cm_sm_action act;
	enum ib_cm_state from;
	int ret = 0, n;
	u32 mra_ms;

	lockdep_assert_held(&p->mutex);
	for (n = 0; n < CM_STEPS_MAX; n++) {
		from = p->state;
		switch (ib_cm_sm_step(from, in, &act)) {
		case IB_CM_SM_REFUSE:
			ret = act.err;
			goto out;
		case IB_CM_SM_DROP:
			goto out;
		case IB_CM_SM_ANSWER:
				cm_send_tx(p, (enum ib_cm_sm_tx)act.tx, false, args,
				   rx_msg, from);
			goto out;
		default:
			break;
		}
		if (act.work & IB_CM_DO_CANCEL)
			cm_cancel_armed(p);
		cm_set_state(p, (enum ib_cm_state)act.next);
		if (act.work & IB_CM_DO_TIMEWAIT) {
			cm_leave_remote_tables(p);
			queue_delayed_work(cm.wq, &p->timewait_work,
					   msecs_to_jiffies(ib_cm_timewait_ms(p->path_timeout)));
		}
		if (act.work & IB_CM_DO_UNLISTEN) {
			mutex_lock(&cm.lock);
			cm_table_del(p, CM_TBL_LISTEN);
			mutex_unlock(&cm.lock);
		}
		if (act.tx != IB_CM_TX_NONE) {
			ret = cm_send_tx(p, (enum ib_cm_sm_tx)act.tx,
					 act.work & IB_CM_DO_ARM, args, rx_msg,
					 from);
			if (ret && (act.work & IB_CM_DO_ARM) &&
			    ib_cm_sm_is_call(in) && in != IB_CM_IN_DESTROY) {
				/* nothing went out: the call fails */
				cm_set_state(p, from);
				goto out;
			}
			ret = 0;
		}
		if (act.work & IB_CM_DO_EXTEND) {
			/* the peer's MRA: wait its service time, then time out */
			cm_cancel_armed(p);
			p->mra_pending = true;
			mra_ms = ib_cm_mra_timeout_ms(rx_msg ?
						      rx_msg->mra.service_timeout : 0,
						      p->path_timeout);
			queue_delayed_work(cm.wq, &p->mra_work,
					   msecs_to_jiffies(mra_ms));
		}
		if (act.report != IB_CM_NO_EVENT && ev) {
			ev->ev.event = (enum ib_cm_event_type)act.report;
			cm_queue_event(p, ev);
			ev = NULL;
		}
		if (!(act.work & IB_CM_DO_AGAIN))
			break;
	}
out:
	cm_free_ev(ev);
	return ret;
}

/* a timer or a send's end: the armed MAD or the MRA wait ran out */
void cm_timeout(struct cm_id_priv *p, enum ib_wc_status status)
{
	struct cm_event_work *ev = cm_alloc_ev();

	lockdep_assert_held(&p->mutex);
	if (ev)
		ev->ev.param.send_status = status;
	cm_step(p, IB_CM_IN_TIMEOUT, NULL, ev, NULL);
}

void cm_send_handler(struct rdma_mad_agent *agent,
		     const struct rdma_mad_send_done *done)
{
	struct cm_id_priv *p = (struct cm_id_priv *)done->context;

	if (!p)
		return;
	mutex_lock(&p->mutex);
	if (p->armed && p->armed_agent == agent &&
	    p->armed_send == done->send_id &&
	    done->status != IB_WC_WR_FLUSH_ERR && !p->destroying) {
		p->armed = false;
		cm_timeout(p, done->status);
	}
	mutex_unlock(&p->mutex);
	cm_id_put(p);
}

static void cm_mra_work(struct work_struct *work)
{
	struct cm_id_priv *p = container_of(to_delayed_work(work),
					    struct cm_id_priv, mra_work);

	mutex_lock(&p->mutex);
	if (p->mra_pending && !p->destroying) {
		p->mra_pending = false;
		cm_timeout(p, IB_WC_RESP_TIMEOUT_ERR);
	}
	mutex_unlock(&p->mutex);
}

static void cm_timewait_work(struct work_struct *work)
{
	struct cm_id_priv *p = container_of(to_delayed_work(work),
					    struct cm_id_priv, timewait_work);

	mutex_lock(&p->mutex);
	if (!p->destroying)
		cm_step(p, IB_CM_IN_TIMEWAIT_DONE, NULL, cm_alloc_ev(), NULL);
	mutex_unlock(&p->mutex);
}

/* ------------------------------------------------------------ create */

struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context)
{
	struct cm_device *cm_dev;
	struct cm_id_priv *p;

	cm_dev = (struct cm_device *)ib_get_client_data(device, &cm_client);
	if (!cm_dev)
		return (struct ib_cm_id *)ERR_PTR(-ENODEV);
	p = cm_alloc_id(cm_dev, cm_handler, context);
	if (IS_ERR(p))
		return (struct ib_cm_id *)p;
	return &p->id;
}
EXPORT_SYMBOL(ib_create_cm_id);

static void cm_destroy(struct cm_id_priv *p, int err, bool from_handler)
{
	struct cm_event_work *ev, *tmp;
	LIST_HEAD(drop);
	bool queued;
	int t;

	mutex_lock(&p->mutex);
	WRITE_ONCE(p->destroying, true);
	/* no event is queued from here on */
	queued = p->ev_queued;
	cm_step(p, err == -ENOMEM ? IB_CM_IN_DESTROY_NO_REJ : IB_CM_IN_DESTROY,
		NULL, NULL, NULL);
	cm_cancel_armed(p);
	mutex_unlock(&p->mutex);

	cancel_delayed_work_sync(&p->timewait_work);
	cancel_delayed_work_sync(&p->mra_work);

	mutex_lock(&cm.lock);
	for (t = 0; t < CM_TBL_COUNT; t++)
		cm_table_del(p, (enum cm_table)t);
	list_del_init(&p->dev_node);
	xa_erase(&cm.local_ids, p->xa_index);
	mutex_unlock(&cm.lock);

	if (from_handler) {
		/* the running delivery work holds a reference: it frees */
		p->self_free = true;
		cm_id_put(p);
		return;
	}
	/*
	 * An ID that never had an event never runs its handler: destroying
	 * it under a lock that handlers take (rdma_cm's handler mutex, when
	 * a connect or listen fails) waits for nothing.
	 */
	if (queued && cancel_work_sync(&p->ev_work))
		cm_id_put(p);
	spin_lock_irq(&p->ev_lock);
	list_splice_init(&p->ev_list, &drop);
	spin_unlock_irq(&p->ev_lock);
	list_for_each_entry_safe(ev, tmp, &drop, list)
		cm_free_ev(ev);
	cm_id_put(p);
	wait_for_completion(&p->released);
	cm_id_free(p);
}

void ib_destroy_cm_id(struct ib_cm_id *cm_id)
{
	cm_destroy(cm_priv(cm_id), 0, false);
}
EXPORT_SYMBOL(ib_destroy_cm_id);

int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	struct cm_key key = {
		.num = be64_to_cpu(service_id),
		.ptr = p->cm_dev,
	};
	int ret;

	mutex_lock(&p->mutex);
	mutex_lock(&cm.lock);
	if (p->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	if (cm_find(CM_TBL_LISTEN, &key)) {
		ret = -EBUSY;
		goto out;
	}
	p->service_id = key.num;
	p->id.service_id = service_id;
	cm_table_add(p, CM_TBL_LISTEN);
	mutex_unlock(&cm.lock);
	ret = cm_step(p, IB_CM_IN_LISTEN, NULL, NULL, NULL);
	if (ret) {
		mutex_lock(&cm.lock);
		cm_table_del(p, CM_TBL_LISTEN);
		mutex_unlock(&cm.lock);
	}
	mutex_unlock(&p->mutex);
	return ret;
out:
	mutex_unlock(&cm.lock);
	mutex_unlock(&p->mutex);
	return ret;
}
EXPORT_SYMBOL(ib_cm_listen);

int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	int ret;

	if (event != IB_EVENT_COMM_EST)
		return -EINVAL;
	mutex_lock(&p->mutex);
	ret = cm_step(p, IB_CM_IN_ESTABLISH, NULL, cm_alloc_ev(), NULL);
	mutex_unlock(&p->mutex);
	return ret;
}
EXPORT_SYMBOL(ib_cm_notify);

/* ------------------------------------------------------------ client */

static void cm_remove_one(struct ib_device *ib_dev, void *client_data);

static int cm_add_one(struct ib_device *ib_dev)
{
	struct ib_mad_agent_claim claim = {
		.mgmt_class = IB_MAD_WIRE_CLASS_CM,
		.class_version = 2,
	};
	struct cm_device *cm_dev;
	struct rdma_mad_agent *a;
	bool any = false;
	u32 i;

	claim.methods[IB_MAD_WIRE_METHOD_SEND / 32] =
		1u << (IB_MAD_WIRE_METHOD_SEND % 32);
	cm_dev = (struct cm_device *)kzalloc(struct_size(cm_dev, port,
							 ib_dev->phys_port_cnt),
					     GFP_KERNEL);
	if (!cm_dev)
		return -ENOMEM;
	kref_init(&cm_dev->ref);
	cm_dev->ib_dev = ib_dev;
	cm_dev->nports = ib_dev->phys_port_cnt;
	cm_dev->ack_delay = ib_dev->attrs.local_ca_ack_delay;
	for (i = 0; i < cm_dev->nports; i++) {
		struct cm_port *port = &cm_dev->port[i];

		port->cm_dev = cm_dev;
		port->port_num = i + 1;
		if (!rdma_cap_ib_cm(ib_dev, i + 1))
			continue;
		a = rdma_mad_agent_register(ib_dev, i + 1, &claim,
					    &cm_agent_ops, port);
		if (IS_ERR(a)) {
			dev_warn(&ib_dev->dev, "ib_cm: port %u: no agent: %ld\n",
				 i + 1, PTR_ERR(a));
			continue;
		}
		port->agent = a;
		port->hi_tid = (u32)(rdma_mad_agent_new_tid(a) >> 32);
		a = rdma_mad_agent_register(ib_dev, i + 1, NULL, &cm_agent_ops,
					    port);
		if (IS_ERR(a)) {
			rdma_mad_agent_unregister(port->agent);
			port->agent = NULL;
			continue;
		}
		port->reply_agent = a;
		any = true;
	}
	if (!any) {
		kfree(cm_dev);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(ib_dev, &cm_client, cm_dev);
	return 0;
}

static void cm_remove_one(struct ib_device *ib_dev, void *client_data)
{
	struct cm_device *cm_dev = (struct cm_device *)client_data;
	struct cm_id_priv *p;
	u32 i, visited = 0;

	if (!cm_dev)
		return;
	mutex_lock(&cm.lock);
	cm_dev->going_away = true;
	mutex_unlock(&cm.lock);
	/*
	 * Error out what waits on the wire: each ID of the device once (the
	 * list only shrinks now: no new ID on a device going away).
	 */
	for (;;) {
		mutex_lock(&cm.lock);
		i = 0;
		p = NULL;
		list_for_each_entry(p, &cm.id_list, dev_node) {
			if (p->cm_dev == cm_dev && i++ == visited)
				break;
		}
		if (list_entry_is_head(p, &cm.id_list, dev_node)) {
			mutex_unlock(&cm.lock);
			break;
		}
		cm_id_get(p);
		mutex_unlock(&cm.lock);
		visited++;
		mutex_lock(&p->mutex);
		if (!p->destroying && (p->armed || p->mra_pending)) {
			cm_cancel_armed(p);
			cm_timeout(p, IB_WC_WR_FLUSH_ERR);
		}
		if (p->state == IB_CM_TIMEWAIT)
			mod_delayed_work(cm.wq, &p->timewait_work, 0);
		mutex_unlock(&p->mutex);
		cm_id_put(p);
	}
	for (i = 0; i < cm_dev->nports; i++) {
		struct cm_port *port = &cm_dev->port[i];

		if (port->reply_agent)
			rdma_mad_agent_unregister(port->reply_agent);
		if (port->agent)
			rdma_mad_agent_unregister(port->agent);
	}
	kref_put(&cm_dev->ref, cm_dev_release);
}

struct ib_client cm_client = {
	.name = "cm",
	.add = cm_add_one,
	.remove = cm_remove_one,
};

static int __init ib_cm_init(void)
{
	int ret, t;

	mutex_init(&cm.lock);
	xa_init_flags(&cm.local_ids, XA_FLAGS_ALLOC);
	for (t = 0; t < CM_TBL_COUNT; t++)
		cm.table[t] = RB_ROOT;
	INIT_LIST_HEAD(&cm.id_list);
	cm.id_mask = get_random_u32();
	cm.wq = alloc_workqueue("ib_cm", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!cm.wq)
		return -ENOMEM;
	ret = ib_register_client(&cm_client);
	if (ret)
		goto err_wq;
	return 0;

err_wq:
	destroy_workqueue(cm.wq);
	return ret;
}

static void __exit ib_cm_exit(void)
{
	ib_unregister_client(&cm_client);
	destroy_workqueue(cm.wq);
	WARN_ON(!xa_empty(&cm.local_ids));
	xa_destroy(&cm.local_ids);
}

module_init(ib_cm_init);
module_exit(ib_cm_exit);
