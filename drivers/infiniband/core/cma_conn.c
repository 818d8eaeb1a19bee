// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm connections over ib_cm: the RoCE route, connect, accept,
 * reject, disconnect (RC: REQ/REP/RTU/REJ/DREQ/DREP; UD: SIDR), the
 * ib_cm events of a connection's ID, and the kernel QP's moves.
 */
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include "cma_priv.h"

#define CMA_CM_RESPONSE_TIMEOUT	20
#define CMA_MAX_CM_RETRIES	15
#define CMA_PACKET_LIFE_TIME	18
#define CMA_SIDR_TIMEOUT_MS	4096
/* what a REJECTED event and a REP's events carry (whole wire fields) */
#define CMA_REJ_PRIV		IB_CM_WIRE_REJ_PRIV_LEN
#define CMA_REP_PRIV		IB_CM_WIRE_REP_PRIV_LEN
#define CMA_SIDR_REP_PRIV	IB_CM_WIRE_SIDR_REP_PRIV_LEN

/* ---------------------------------------------------------------- route */

/* IB MTU of a RoCE v2 path over a netdev of @mtu (96 bytes of headers) */
static enum ib_mtu cma_roce_mtu(unsigned int mtu)
{
	unsigned int room = mtu > 96 ? mtu - 96 : 0;

	if (room >= 4096)
		return IB_MTU_4096;
	if (room >= 2048)
		return IB_MTU_2048;
	if (room >= 1024)
		return IB_MTU_1024;
	if (room >= 512)
		return IB_MTU_512;
	return room >= 256 ? IB_MTU_256 : (enum ib_mtu)0;
}

static int cma_build_path(struct rdma_id_private *p)
{
	struct rdma_dev_addr *da = &p->id.route.addr.dev_addr;
	struct ib_cm_roce_path *path = &p->path;
	struct net_device *ndev;
	u32 sport, dport;

	if (!da->bound_dev_if || !p->id.device)
		return -ENODEV;
	ndev = dev_get_by_index(p->net, da->bound_dev_if);
	if (!ndev)
		return -ENODEV;
	path->mtu = cma_roce_mtu(ndev->mtu);
	dev_put(ndev);
	if (!path->mtu)
		return -EINVAL;
	cma_addr_to_gid(cma_dst(p), &path->dgid);
	rdma_query_gid(p->id.device, path->port_num, path->sgid_index,
		       &path->sgid);
	sport = ntohs(cma_port_of(cma_src(p)));
	dport = ntohs(cma_port_of(cma_dst(p)));
	path->flow_label = (sport * 31 + dport) & 0xfffff;
	if (cma_dst(p)->sa_family == AF_INET6 &&
	    ((struct sockaddr_in6 *)cma_src(p))->sin6_flowinfo)
		path->flow_label =
			be32_to_cpu(((struct sockaddr_in6 *)cma_src(p))->sin6_flowinfo) &
			0xfffff;
	path->hop_limit = da->hoplimit > 0 && da->hoplimit < 256 ?
			  (u8)da->hoplimit : 64;
	path->traffic_class = p->tos;
	path->pkey = 0xffff;
	path->packet_life_time = p->timeout_set && p->timeout ?
				 p->timeout - 1 : CMA_PACKET_LIFE_TIME;
	p->id.route.path_rec = path;
	p->id.route.num_pri_alt_paths = 1;
	return 0;
}

void cma_route_work(struct work_struct *w)
{
	struct rdma_id_private *p =
		container_of(w, struct rdma_id_private, route_work);
	int ret;

	mutex_lock(&p->handler_mutex);
	if (cma_state(p) == RDMA_CM_ROUTE_QUERY) {
		ret = cma_build_path(p);
		cma_report(p, ret ? RDMA_CM_IN_ROUTE_FAIL : RDMA_CM_IN_ROUTE_OK,
			   ret);
	}
	mutex_unlock(&p->handler_mutex);
}

int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;

	if (!timeout_ms)
		return -EINVAL;
	if (cma_step(p, RDMA_CM_OP_RESOLVE_ROUTE, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	queue_work(cma_wq, &p->route_work);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_resolve_route);

/* ------------------------------------------------------------ kernel QP */

void cma_modify_qp_err(struct rdma_id_private *p)
{
	struct ib_qp_attr attr = {};

	attr.qp_state = IB_QPS_ERR;
	ib_modify_qp(p->id.qp, &attr, IB_QP_STATE);
}

static int cma_modify_qp(struct rdma_id_private *p, enum ib_qp_state state)
{
	struct ib_qp_attr attr = {};
	int mask, ret;

	attr.qp_state = state;
	ret = rdma_init_qp_attr(&p->id, &attr, &mask);
	if (ret)
		return ret;
	return ib_modify_qp(p->id.qp, &attr, mask);
}

/* the kernel QP to RTR then RTS, from the connection's ib_cm ID */
static int cma_modify_qp_rtr_rts(struct rdma_id_private *p)
{
	int ret;

	ret = cma_modify_qp(p, IB_QPS_INIT);
	if (!ret)
		ret = cma_modify_qp(p, IB_QPS_RTR);
	if (!ret)
		ret = cma_modify_qp(p, IB_QPS_RTS);
	return ret;
}

/* a new kernel QP: UD straight to RTS, connected types to INIT */
int cma_init_kernel_qp(struct rdma_id_private *p)
{
	struct ib_qp_attr attr = {};
	int ret;

	ret = cma_modify_qp(p, IB_QPS_INIT);
	if (ret || p->id.qp_type != IB_QPT_UD)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(p->id.qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(p->id.qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr)
{
	struct rdma_id_private *p = cma_priv(id);
	struct ib_qp *qp;
	int ret;

	if (!id->device || !pd || pd->device != id->device || id->qp)
		return -EINVAL;
	qp_init_attr->port_num = id->port_num;
	qp = ib_create_qp(pd, qp_init_attr);
	if (IS_ERR(qp))
		return (int)PTR_ERR(qp);
	id->qp = qp;
	ret = cma_init_kernel_qp(p);
	if (ret)
		goto err;
	p->qp_num = qp->qp_num;
	p->srq = !!qp_init_attr->srq;
	return 0;
err:
	id->qp = NULL;
	ib_destroy_qp(qp);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_create_qp);

void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct rdma_id_private *p = cma_priv(id);
	struct ib_qp *qp;

	mutex_lock(&p->handler_mutex);
	qp = id->qp;
	id->qp = NULL;
	mutex_unlock(&p->handler_mutex);
	if (qp)
		ib_destroy_qp(qp);
}
EXPORT_SYMBOL_GPL(rdma_destroy_qp);

int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask)
{
	struct rdma_id_private *p = cma_priv(id);
	int ret;

	if (!id->device)
		return -EINVAL;
	if (id->qp_type == IB_QPT_UD || !p->cm_id) {
		if (qp_attr->qp_state != IB_QPS_INIT && id->qp_type != IB_QPT_UD)
			return -EINVAL;
		qp_attr->pkey_index = 0;
		qp_attr->port_num = id->port_num;
		*qp_attr_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
		if (id->qp_type == IB_QPT_UD) {
			qp_attr->qkey = p->qkey;
			*qp_attr_mask |= IB_QP_QKEY;
		} else {
			qp_attr->qp_access_flags = 0;
			*qp_attr_mask |= IB_QP_ACCESS_FLAGS;
		}
		return 0;
	}
	ret = ib_cm_init_qp_attr(p->cm_id, qp_attr, qp_attr_mask);
	if (ret)
		return ret;
	if (qp_attr->qp_state == IB_QPS_RTR) {
		qp_attr->rq_psn = p->seq_num;
		if (p->min_rnr_timer_set) {
			qp_attr->min_rnr_timer = p->min_rnr_timer;
			*qp_attr_mask |= IB_QP_MIN_RNR_TIMER;
		}
	}
	if (qp_attr->qp_state == IB_QPS_RTS && p->timeout_set) {
		qp_attr->timeout = p->timeout;
		*qp_attr_mask |= IB_QP_TIMEOUT;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_init_qp_attr);

/* ------------------------------------------------------- ib_cm events */

/* the AH toward the peer of a resolved or accepted UD ID */
void cma_path_ah(struct rdma_id_private *p, struct rdma_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->type = RDMA_AH_ATTR_TYPE_ROCE;
	ah->port_num = p->path.port_num;
	ah->ah_flags = IB_AH_GRH;
	ah->grh.dgid = p->path.dgid;
	ah->grh.sgid_index = p->path.sgid_index;
	ah->grh.hop_limit = p->path.hop_limit;
	ah->grh.traffic_class = p->path.traffic_class;
	ah->grh.flow_label = p->path.flow_label;
	memcpy(ah->roce.dmac, p->dmac, ETH_ALEN);
}

static void cma_rep_conn_param(const struct ib_cm_event *e,
			       struct rdma_conn_param *c)
{
	const struct ib_cm_rep_event_param *r = &e->param.rep_rcvd;

	c->private_data = e->private_data;
	c->private_data_len = e->private_data ? CMA_REP_PRIV : 0;
	c->responder_resources = r->responder_resources;
	c->initiator_depth = r->initiator_depth;
	c->flow_control = r->flow_control;
	c->rnr_retry_count = r->rnr_retry_count;
	c->srq = r->srq;
	c->qp_num = r->remote_qpn;
}

/*
 * A non-zero handler answer: DESTROYING now; ib_cm destroys its ID when
 * the ib_cm handler returns the answer, cma_wq the rest.
 */
static int cma_cm_handler_failed(struct rdma_id_private *p, int ret)
{
	lockdep_assert_held(&p->handler_mutex);
	p->cm_id = NULL;
	cma_handler_failed(p);
	return ret;
}

int cma_ib_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *e)
{
	struct rdma_id_private *p = (struct rdma_id_private *)cm_id->context;
	struct rdma_cm_event ev = {};
	struct rdma_cm_sm_action act;
	enum rdma_cm_sm_input in;
	int status = 0, ret;
	bool ok = true;

	mutex_lock(&p->handler_mutex);
	if (p->cm_id != cm_id)
		goto drop;
	if (e->event == IB_CM_REP_RECEIVED &&
	    cma_state(p) == RDMA_CM_CONNECT) {
		if (p->id.qp) {
			status = cma_modify_qp_rtr_rts(p);
			if (!status)
				status = ib_send_cm_rtu(cm_id, NULL, 0);
			ok = !status;
		} else {
			p->rep_received = true;
		}
	}
	if (e->event == IB_CM_SIDR_REP_RECEIVED) {
		ok = e->param.sidr_rep_rcvd.status == IB_SIDR_SUCCESS;
		if (!ok)
			status = e->param.sidr_rep_rcvd.status;
	}
	if (e->event == IB_CM_REJ_RECEIVED)
		status = e->param.rej_rcvd.reason;
	in = rdma_cm_sm_ib_input(e->event, p->id.qp != NULL, ok);
	if (cma_step(p, in, status, &act) != RDMA_CM_SM_GO)
		goto drop;
	if ((act.work & RDMA_CM_DO_QP_ERR) && p->id.qp)
		cma_modify_qp_err(p);
	if (act.report == RDMA_CM_NO_EVENT)
		goto drop;
	ev.event = (enum rdma_cm_event_type)act.report;
	ev.status = act.status;
	switch (e->event) {
	case IB_CM_REP_RECEIVED:
		cma_rep_conn_param(e, &ev.param.conn);
		break;
	case IB_CM_REJ_RECEIVED:
		ev.param.conn.private_data = e->private_data;
		ev.param.conn.private_data_len = e->private_data ?
						 CMA_REJ_PRIV : 0;
		break;
	case IB_CM_SIDR_REP_RECEIVED:
		if (!ok)
			break;
		p->qkey = e->param.sidr_rep_rcvd.qkey;
		cma_path_ah(p, &ev.param.ud.ah_attr);
		ev.param.ud.qp_num = e->param.sidr_rep_rcvd.qpn;
		ev.param.ud.qkey = e->param.sidr_rep_rcvd.qkey;
		ev.param.ud.private_data = e->private_data;
		ev.param.ud.private_data_len = e->private_data ?
					       CMA_SIDR_REP_PRIV : 0;
		break;
	default:
		break;
	}
	ret = cma_deliver(p, &ev);
	if (ret) {
		ret = cma_cm_handler_failed(p, ret);
		mutex_unlock(&p->handler_mutex);
		return ret;
	}
drop:
	mutex_unlock(&p->handler_mutex);
	return 0;
}

/* -------------------------------------------------------------- connect */

static void cma_fill_hdr(struct rdma_id_private *p, struct cma_wire_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->port = cma_port_of(cma_src(p));
	if (cma_src(p)->sa_family == AF_INET) {
		h->ip_version = 4;
		h->src.ip4 = ((struct sockaddr_in *)cma_src(p))->sin_addr.s_addr;
		h->dst.ip4 = ((struct sockaddr_in *)cma_dst(p))->sin_addr.s_addr;
	} else {
		h->ip_version = 6;
		memcpy(h->src.ip6, &((struct sockaddr_in6 *)cma_src(p))->sin6_addr, 16);
		memcpy(h->dst.ip6, &((struct sockaddr_in6 *)cma_dst(p))->sin6_addr, 16);
	}
}

static __be64 cma_dst_sid(struct rdma_id_private *p)
{
	return rdma_get_service_id(&p->id, cma_dst(p));
}

/*
 * The private data of a REQ or SIDR_REQ (@len bytes on the wire at
 * most): our header and the user's bytes; kfree() it.
 */
static u8 *cma_req_priv(struct rdma_id_private *p, struct rdma_conn_param *c,
			u32 len)
{
	struct cma_wire_hdr h;
	u8 *priv;

	if (c->private_data_len > len - CMA_WIRE_HDR_LEN)
		return (u8 *)ERR_PTR(-EINVAL);
	priv = (u8 *)kzalloc(len, GFP_KERNEL);
	if (!priv)
		return (u8 *)ERR_PTR(-ENOMEM);
	cma_fill_hdr(p, &h);
	if (cma_wire_build_priv(priv, len, &h, (const u8 *)c->private_data,
				c->private_data_len)) {
		kfree(priv);
		return (u8 *)ERR_PTR(-EINVAL);
	}
	return priv;
}

static int cma_connect_ud(struct rdma_id_private *p,
			  struct rdma_conn_param *c)
{
	struct ib_cm_sidr_req_param req = {};
	u8 *priv;
	int ret;

	priv = cma_req_priv(p, c, IB_CM_WIRE_SIDR_REQ_PRIV_LEN);
	if (IS_ERR(priv))
		return (int)PTR_ERR(priv);
	req.service_id = cma_dst_sid(p);
	req.path = &p->path;
	req.timeout_ms = CMA_SIDR_TIMEOUT_MS;
	req.max_cm_retries = CMA_MAX_CM_RETRIES;
	req.private_data = priv;
	req.private_data_len = CMA_WIRE_HDR_LEN + c->private_data_len;
	ret = ib_send_cm_sidr_req(p->cm_id, &req);
	kfree(priv);
	return ret;
}

static int cma_connect_rc(struct rdma_id_private *p,
			  struct rdma_conn_param *c)
{
	struct ib_cm_req_param req = {};
	u8 *priv;
	int ret;

	priv = cma_req_priv(p, c, IB_CM_WIRE_REQ_PRIV_LEN);
	if (IS_ERR(priv))
		return (int)PTR_ERR(priv);
	req.service_id = cma_dst_sid(p);
	req.primary_path = &p->path;
	req.qp_type = p->id.qp_type;
	req.qp_num = p->id.qp ? p->id.qp->qp_num : c->qp_num;
	req.starting_psn = p->seq_num;
	req.srq = p->id.qp ? p->srq : c->srq;
	req.responder_resources = c->responder_resources;
	req.initiator_depth = c->initiator_depth;
	req.flow_control = c->flow_control;
	req.retry_count = min_t(u8, c->retry_count, 7);
	req.rnr_retry_count = min_t(u8, c->rnr_retry_count, 7);
	req.local_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req.remote_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req.max_cm_retries = CMA_MAX_CM_RETRIES;
	req.private_data = priv;
	req.private_data_len = CMA_WIRE_HDR_LEN + c->private_data_len;
	ret = ib_send_cm_req(p->cm_id, &req);
	kfree(priv);
	return ret;
}

int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	struct ib_cm_id *cm_id;
	int ret;

	lockdep_assert_held(&p->handler_mutex);
	if (!conn_param)
		return -EINVAL;
	if (cma_step(p, RDMA_CM_OP_CONNECT, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	if (!id->qp) {
		p->qp_num = conn_param->qp_num;
		p->srq = conn_param->srq;
	}
	cm_id = ib_create_cm_id(id->device, cma_ib_handler, p);
	if (IS_ERR(cm_id)) {
		ret = (int)PTR_ERR(cm_id);
		goto err;
	}
	p->cm_id = cm_id;
	if (id->qp_type == IB_QPT_UD)
		ret = cma_connect_ud(p, conn_param);
	else
		ret = cma_connect_rc(p, conn_param);
	if (ret)
		goto err_cm;
	return 0;
err_cm:
	p->cm_id = NULL;
	/* the handler mutex keeps cma_ib_handler off this ID meanwhile */
	ib_destroy_cm_id(cm_id);
err:
	cma_step(p, RDMA_CM_OP_UNDO_CONNECT, 0, &act);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_connect_locked);

int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct rdma_id_private *p = cma_priv(id);
	int ret;

	mutex_lock(&p->handler_mutex);
	ret = rdma_connect_locked(id, conn_param);
	mutex_unlock(&p->handler_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_connect);

int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece)
{
	return rdma_connect(id, conn_param);
}
EXPORT_SYMBOL_GPL(rdma_connect_ece);

/* --------------------------------------------------------------- accept */

static int cma_accept_rc(struct rdma_id_private *p, struct rdma_conn_param *c)
{
	struct ib_cm_rep_param rep = {};
	int ret;

	if (c->private_data_len > IB_CM_WIRE_REP_PRIV_LEN)
		return -EINVAL;
	if (p->id.qp) {
		ret = cma_modify_qp_rtr_rts(p);
		if (ret)
			return ret;
	}
	rep.qp_num = p->id.qp ? p->id.qp->qp_num : c->qp_num;
	rep.starting_psn = p->seq_num;
	rep.srq = p->id.qp ? p->srq : c->srq;
	rep.flow_control = c->flow_control;
	rep.rnr_retry_count = min_t(u8, c->rnr_retry_count, 7);
	rep.responder_resources = c->responder_resources;
	rep.initiator_depth = c->initiator_depth;
	rep.private_data = c->private_data;
	rep.private_data_len = c->private_data_len;
	return ib_send_cm_rep(p->cm_id, &rep);
}

static int cma_accept_ud(struct rdma_id_private *p, struct rdma_conn_param *c)
{
	struct ib_cm_sidr_rep_param rep = {};

	if (c->private_data_len > IB_CM_WIRE_SIDR_REP_PRIV_LEN)
		return -EINVAL;
	if (c->qkey)
		p->qkey = c->qkey;
	rep.status = IB_SIDR_SUCCESS;
	rep.qp_num = p->id.qp ? p->id.qp->qp_num : c->qp_num;
	rep.qkey = p->qkey;
	rep.private_data = c->private_data;
	rep.private_data_len = c->private_data_len;
	return ib_send_cm_sidr_rep(p->cm_id, &rep);
}

int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	int ret;

	lockdep_assert_held(&p->handler_mutex);
	if (cma_step(p, RDMA_CM_OP_ACCEPT, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	if (!p->cm_id)
		return -EINVAL;
	if (p->rep_received) {
		/* active side after CONNECT_RESPONSE: the RTU */
		ret = ib_send_cm_rtu(p->cm_id, NULL, 0);
		if (!ret)
			p->rep_received = false;
		return ret;
	}
	if (!conn_param)
		return -EINVAL;
	if (!id->qp) {
		p->qp_num = conn_param->qp_num;
		p->srq = conn_param->srq;
	}
	if (id->qp_type == IB_QPT_UD)
		return cma_accept_ud(p, conn_param);
	ret = cma_accept_rc(p, conn_param);
	if (ret) {
		if (id->qp)
			cma_modify_qp_err(p);
		ib_send_cm_rej(p->cm_id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_accept);

int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece)
{
	return rdma_accept(id, conn_param);
}
EXPORT_SYMBOL_GPL(rdma_accept_ece);

int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;

	if (cma_step(p, RDMA_CM_OP_REJECT, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	if (!p->cm_id)
		return -EINVAL;
	if (id->qp_type == IB_QPT_UD) {
		struct ib_cm_sidr_rep_param rep = {};

		if (private_data_len > IB_CM_WIRE_SIDR_REP_PRIV_LEN)
			return -EINVAL;
		rep.status = IB_SIDR_REJECT;
		rep.private_data = private_data;
		rep.private_data_len = private_data_len;
		return ib_send_cm_sidr_rep(p->cm_id, &rep);
	}
	if (private_data_len > IB_CM_WIRE_REJ_PRIV_LEN)
		return -EINVAL;
	if (id->qp)
		cma_modify_qp_err(p);
	return ib_send_cm_rej(p->cm_id, reason ? (enum ib_cm_rej_reason)reason :
			      IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			      private_data, private_data_len);
}
EXPORT_SYMBOL_GPL(rdma_reject);

int rdma_disconnect(struct rdma_cm_id *id)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	int ret;

	if (cma_step(p, RDMA_CM_OP_DISCONNECT, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	if (!p->cm_id || id->qp_type == IB_QPT_UD)
		return -EINVAL;
	if (id->qp)
		cma_modify_qp_err(p);
	ret = ib_send_cm_dreq(p->cm_id, NULL, 0);
	if (ret)
		ret = ib_send_cm_drep(p->cm_id, NULL, 0);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_disconnect);

int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	struct rdma_id_private *p = cma_priv(id);

	if (!p->cm_id)
		return -EINVAL;
	return ib_cm_notify(p->cm_id, event);
}
EXPORT_SYMBOL_GPL(rdma_notify);

/* ------------------------------------------------------------- options */

void rdma_set_service_type(struct rdma_cm_id *id, int tos)
{
	struct rdma_id_private *p = cma_priv(id);

	p->tos = (u8)tos;
	p->tos_set = 1;
}
EXPORT_SYMBOL_GPL(rdma_set_service_type);

int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout)
{
	struct rdma_id_private *p = cma_priv(id);

	if (id->qp_type != IB_QPT_RC || timeout > 31)
		return -EINVAL;
	p->timeout = timeout;
	p->timeout_set = 1;
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_set_ack_timeout);

int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer)
{
	struct rdma_id_private *p = cma_priv(id);

	if (id->qp_type != IB_QPT_RC || min_rnr_timer > 31)
		return -EINVAL;
	p->min_rnr_timer = min_rnr_timer;
	p->min_rnr_timer_set = 1;
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_set_min_rnr_timer);
