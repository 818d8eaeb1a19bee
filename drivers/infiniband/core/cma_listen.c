// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm listening: one ib_cm listener per (device, service ID), shared
 * by every listening ID of that port (a wildcard one on every device,
 * devices added later included; a bound one on its own device).  A
 * request finds its listening ID through the bind list of the
 * namespace of the netdev it arrived on, and becomes a new ID in the
 * listener's namespace, delivered as CONNECT_REQUEST with the new ID's
 * handler mutex held (and the listener's).
 */
#include <linux/slab.h>
#include <linux/netdevice.h>
#include "cma_priv.h"

static int cma_req_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *e);

static __be64 cma_listen_sid(struct rdma_id_private *p)
{
	return rdma_get_service_id(&p->id, cma_src(p));
}

int cma_listen_on_dev_locked(struct rdma_id_private *p, struct cma_device *cd)
{
	__be64 sid = cma_listen_sid(p);
	struct cma_cm_listener *cl;
	struct cma_lref *ref;
	struct ib_cm_id *cm_id;
	int ret;

	lockdep_assert_held(&cma_lock);
	if (cd->removing)
		return 0;
	ref = (struct cma_lref *)kzalloc(sizeof(*ref), GFP_KERNEL);
	if (!ref)
		return -ENOMEM;
	list_for_each_entry(cl, &cd->listeners, node)
		if (cl->sid == sid)
			goto found;
	cl = (struct cma_cm_listener *)kzalloc(sizeof(*cl), GFP_KERNEL);
	if (!cl) {
		ret = -ENOMEM;
		goto err_ref;
	}
	cm_id = ib_create_cm_id(cd->device, cma_req_handler, cl);
	if (IS_ERR(cm_id)) {
		ret = (int)PTR_ERR(cm_id);
		goto err_cl;
	}
	ret = ib_cm_listen(cm_id, sid);
	if (ret)
		goto err_cm;
	cl->cm_id = cm_id;
	cl->cma_dev = cd;
	cl->sid = sid;
	INIT_LIST_HEAD(&cl->refs);
	list_add_tail(&cl->node, &cd->listeners);
found:
	ref->cl = cl;
	list_add_tail(&ref->cl_node, &cl->refs);
	list_add_tail(&ref->id_node, &p->lrefs);
	if (!p->cma_dev) {
		/* a bound listener's row is its own (its device's) */
		ref->row.id = p;
		rdma_restrack_new(&ref->row.res, RDMA_RESTRACK_CM_ID);
		rdma_restrack_parent_name(&ref->row.res, &p->row.res);
		ref->row.res.device = cd->device;
		rdma_restrack_add(&ref->row.res);
	}
	return 0;
err_cm:
	ib_destroy_cm_id(cm_id);
err_cl:
	kfree(cl);
err_ref:
	kfree(ref);
	return ret;
}

/* drop @ref; an unused listener moves to @dead for cma_free_dead() */
static void cma_drop_ref_locked(struct cma_lref *ref, struct list_head *dead)
{
	struct cma_cm_listener *cl = ref->cl;

	lockdep_assert_held(&cma_lock);
	/* never listed (bound listener): a no-op */
	rdma_restrack_del(&ref->row.res);
	list_del(&ref->cl_node);
	list_del(&ref->id_node);
	kfree(ref);
	if (list_empty(&cl->refs))
		list_move_tail(&cl->node, dead);
}

/* outside cma_lock: ib_destroy_cm_id() waits for cma_req_handler() */
static void cma_free_dead(struct list_head *dead)
{
	struct cma_cm_listener *cl, *tmp;

	list_for_each_entry_safe(cl, tmp, dead, node) {
		list_del(&cl->node);
		ib_destroy_cm_id(cl->cm_id);
		kfree(cl);
	}
}

void cma_cancel_listen(struct rdma_id_private *p)
{
	struct cma_lref *ref, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&cma_lock);
	if (p->on_any) {
		list_del_init(&p->any_node);
		p->on_any = false;
	}
	list_for_each_entry_safe(ref, tmp, &p->lrefs, id_node)
		cma_drop_ref_locked(ref, &dead);
	mutex_unlock(&cma_lock);
	cma_free_dead(&dead);
}

void cma_dev_drop_listeners(struct cma_device *cd)
{
	struct cma_cm_listener *cl, *tmp;
	struct cma_lref *ref, *rtmp;
	LIST_HEAD(dead);

	mutex_lock(&cma_lock);
	list_for_each_entry_safe(cl, tmp, &cd->listeners, node)
		list_for_each_entry_safe(ref, rtmp, &cl->refs, cl_node)
			cma_drop_ref_locked(ref, &dead);
	mutex_unlock(&cma_lock);
	cma_free_dead(&dead);
}

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	struct cma_device *cd;
	int ret;

	if (cma_state(p) == RDMA_CM_IDLE) {
		struct sockaddr_in any = {};

		any.sin_family = AF_INET;
		ret = rdma_bind_addr(id, (struct sockaddr *)&any);
		if (ret)
			return ret;
	}
	if (cma_step(p, RDMA_CM_OP_LISTEN, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	ret = cma_port_listen_check(p);
	if (ret)
		goto err;
	mutex_lock(&cma_lock);
	if (p->cma_dev) {
		ret = cma_listen_on_dev_locked(p, p->cma_dev);
	} else {
		list_add_tail(&p->any_node, &cma_listen_any);
		p->on_any = true;
		ret = 0;
		list_for_each_entry(cd, &cma_dev_list, node) {
			if (!rdma_dev_access_netns(cd->device, p->net))
				continue;
			ret = cma_listen_on_dev_locked(p, cd);
			if (ret)
				break;
		}
	}
	mutex_unlock(&cma_lock);
	if (ret)
		goto err_cancel;
	return 0;
err_cancel:
	cma_cancel_listen(p);
err:
	cma_step(p, RDMA_CM_OP_UNDO_LISTEN, 0, &act);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_listen);

/* ------------------------------------------------------------ requests */

static void cma_set_addr(struct sockaddr *sa, u8 ipv, const union cma_wire_addr *a,
			 __be16 port)
{
	if (ipv == 4) {
		struct sockaddr_in *s = (struct sockaddr_in *)sa;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = a->ip4;
		s->sin_port = port;
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)sa;

		s->sin6_family = AF_INET6;
		memcpy(&s->sin6_addr, a->ip6, 16);
		s->sin6_port = port;
	}
}

/*
 * The new ID of a request to @l, in CONNECT, attached to the device the
 * request came in on; ib_cm's @cm_id becomes its own.
 */
static struct rdma_id_private *cma_new_conn_id(struct rdma_id_private *l,
					       struct ib_cm_id *cm_id,
					       const struct ib_cm_roce_path *path,
					       const struct cma_wire_hdr *hdr,
					       u16 port, enum ib_qp_type qp_type,
					       struct net_device *ndev)
{
	struct rdma_dev_addr *da;
	struct rdma_id_private *p;
	int ret;

	p = cma_id_alloc(l->net, l->id.event_handler, l->id.context, l->id.ps,
			 qp_type, l->caller);
	if (!p)
		return (struct rdma_id_private *)ERR_PTR(-ENOMEM);
	rdma_restrack_parent_name(&p->row.res, &l->row.res);
	p->passive = true;
	p->tos = l->tos;
	p->tos_set = l->tos_set;
	p->timeout = l->timeout;
	p->timeout_set = l->timeout_set;
	p->min_rnr_timer = l->min_rnr_timer;
	p->min_rnr_timer_set = l->min_rnr_timer_set;
	cma_set_addr(cma_src(p), hdr->ip_version, &hdr->dst, htons(port));
	cma_set_addr(cma_dst(p), hdr->ip_version, &hdr->src, hdr->port);
	p->path = *path;
	p->path.pkey = 0xffff;
	p->id.route.path_rec = &p->path;
	p->id.route.num_pri_alt_paths = 1;
	ret = cma_attach_dev(p, cm_id->device, path->port_num,
			     path->sgid_index);
	if (ret) {
		rdma_restrack_del(&p->row.res);
		put_net(p->net);
		kfree(p);
		return (struct rdma_id_private *)ERR_PTR(ret);
	}
	da = &p->id.route.addr.dev_addr;
	da->bound_dev_if = ndev->ifindex;
	da->dev_type = ndev->type;
	memcpy(da->src_dev_addr, ndev->dev_addr,
	       min_t(size_t, ndev->addr_len, MAX_ADDR_LEN));
	p->state = RDMA_CM_CONNECT;
	p->cm_id = cm_id;
	return p;
}

static void cma_req_conn_param(const struct ib_cm_event *e,
			       struct rdma_cm_event *ev)
{
	const struct ib_cm_req_event_param *r = &e->param.req_rcvd;
	struct rdma_conn_param *c = &ev->param.conn;

	c->private_data = (const u8 *)e->private_data + CMA_WIRE_HDR_LEN;
	c->private_data_len = CMA_WIRE_REQ_USER_LEN;
	c->responder_resources = r->responder_resources;
	c->initiator_depth = r->initiator_depth;
	c->flow_control = r->flow_control;
	c->retry_count = r->retry_count;
	c->rnr_retry_count = r->rnr_retry_count;
	c->srq = r->srq;
	c->qp_num = r->remote_qpn;
}

/*
 * REQ or SIDR_REQ on a new ib_cm ID of one of our listeners.  A non-zero
 * return makes ib_cm destroy @cm_id (REJ 28, or nothing for -ENOMEM).
 */
static int cma_req_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *e)
{
	struct cma_cm_listener *cl = (struct cma_cm_listener *)cm_id->context;
	const struct ib_cm_roce_path *path;
	struct rdma_id_private *l, *p;
	struct rdma_cm_event ev = {};
	struct rdma_cm_sm_action act;
	enum rdma_ucm_port_space ps;
	enum rdma_cm_sm_input in;
	struct cma_wire_hdr hdr;
	struct net_device *ndev;
	enum ib_qp_type qp_type;
	u32 priv_len;
	u16 port;
	int ret;

	if (e->event == IB_CM_REQ_RECEIVED) {
		path = e->param.req_rcvd.primary_path;
		qp_type = e->param.req_rcvd.qp_type;
		priv_len = IB_CM_WIRE_REQ_PRIV_LEN;
		in = RDMA_CM_IN_REQ;
	} else if (e->event == IB_CM_SIDR_REQ_RECEIVED) {
		path = e->param.sidr_req_rcvd.path;
		qp_type = IB_QPT_UD;
		priv_len = IB_CM_WIRE_SIDR_REQ_PRIV_LEN;
		in = RDMA_CM_IN_SIDR_REQ;
	} else {
		return 0;
	}
	if (!e->private_data || !path)
		return -EINVAL;
	ret = cma_wire_hdr_decode((const u8 *)e->private_data, priv_len, &hdr);
	if (ret)
		return ret;
	ret = cma_wire_sid_split(be64_to_cpu(cl->sid), &ps, &port);
	if (ret)
		return ret;
	ndev = ib_device_get_netdev(cm_id->device, path->port_num);
	if (!ndev)
		return -ENODEV;
	if (!(ndev->flags & IFF_UP)) {
		ret = -ENETDOWN;
		goto out_ndev;
	}
	l = cma_find_listener(dev_net(ndev), ps, port, &hdr, cm_id->device);
	if (!l) {
		ret = -ECONNREFUSED;
		goto out_ndev;
	}
	if (l->id.qp_type != qp_type) {
		ret = -EINVAL;
		goto out_l;
	}
	mutex_lock(&l->handler_mutex);
	if (cma_step(l, in, 0, &act) != RDMA_CM_SM_GO) {
		ret = act.err ?: -ECONNABORTED;
		goto out_unlock_l;
	}
	p = cma_new_conn_id(l, cm_id, path, &hdr, port, qp_type, ndev);
	if (IS_ERR(p)) {
		ret = (int)PTR_ERR(p);
		goto out_unlock_l;
	}
	cma_trace_state(p, RDMA_CM_IDLE, RDMA_CM_CONNECT, in);
	cm_id->context = p;
	cm_id->cm_handler = cma_ib_handler;
	ev.event = RDMA_CM_EVENT_CONNECT_REQUEST;
	if (qp_type == IB_QPT_UD) {
		ev.param.ud.private_data =
			(const u8 *)e->private_data + CMA_WIRE_HDR_LEN;
		ev.param.ud.private_data_len = CMA_WIRE_SIDR_REQ_USER_LEN;
	} else {
		cma_req_conn_param(e, &ev);
	}
	mutex_lock_nested(&p->handler_mutex, SINGLE_DEPTH_NESTING);
	ret = cma_deliver(p, &ev);
	if (ret) {
		/* ib_cm destroys cm_id on our return; the rest goes now */
		p->cm_id = NULL;
		cma_step(p, RDMA_CM_OP_DESTROY, 0, &act);
		mutex_unlock(&p->handler_mutex);
		mutex_unlock(&l->handler_mutex);
		cma_destroy_now(p, RDMA_CM_CONNECT, false);
		goto out_l;
	}
	mutex_unlock(&p->handler_mutex);
out_unlock_l:
	mutex_unlock(&l->handler_mutex);
out_l:
	cma_id_put(l);
out_ndev:
	dev_put(ndev);
	return ret;
}
