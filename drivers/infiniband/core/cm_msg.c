// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_cm's messages: what each tx code of the state machine puts on the
 * wire (built with cm_wire.c, sent through the MAD layer), the replies to
 * messages that name no ID, the user calls that send, and the QP
 * attributes of a connection (Documentation/core/cm.rst).
 */
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include "cm_priv.h"

struct cm_tx_buf {
	struct ib_cm_wire_msg msg;
	u8 mad[IB_MAD_WIRE_SIZE];
};

#define CM_OFF(field)	offsetof(struct ib_cm_wire_msg, field)
#define CM_LAYOUT(attr, msg, sender, receiver)				\
	{ IB_CM_WIRE_ATTR_##attr, sender, receiver,			\
	  CM_OFF(msg.private_data), IB_CM_WIRE_##attr##_PRIV_LEN }
/* a message of a connection: both comm IDs, local first */
#define CM_CONN_LAYOUT(attr, msg)					\
	CM_LAYOUT(attr, msg, CM_OFF(msg.local_comm_id),			\
		  CM_OFF(msg.remote_comm_id))

static const struct cm_msg_layout cm_layouts[] = {
	CM_LAYOUT(REQ, req, CM_OFF(req.local_comm_id), CM_NO_OFF),
	CM_CONN_LAYOUT(MRA, mra),
	CM_CONN_LAYOUT(REJ, rej),
	CM_CONN_LAYOUT(REP, rep),
	CM_CONN_LAYOUT(RTU, rtu),
	CM_CONN_LAYOUT(DREQ, dreq),
	CM_CONN_LAYOUT(DREP, drep),
	/* SIDR: one request ID, the requester's */
	CM_LAYOUT(SIDR_REQ, sidr_req, CM_OFF(sidr_req.request_id), CM_NO_OFF),
	CM_LAYOUT(SIDR_REP, sidr_rep, CM_NO_OFF, CM_OFF(sidr_rep.request_id)),
};

const struct cm_msg_layout *cm_msg_layout(u16 attr_id)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cm_layouts); i++)
		if (cm_layouts[i].attr_id == attr_id)
			return &cm_layouts[i];
	return NULL;
}

void cm_dest_from_path(const struct ib_cm_roce_path *path,
		       struct rdma_mad_dest *dest)
{
	const struct rdma_mad_dest d = {
		.dgid = path->dgid,
		.sgid_index = path->sgid_index,
		.hop_limit = path->hop_limit,
		.traffic_class = path->traffic_class,
		.flow_label = path->flow_label,
		.remote_qpn = 1,
		.remote_qkey = RDMA_MAD_QP1_QKEY,
	};

	*dest = d;
}

static u64 cm_node_guid(const struct cm_id_priv *p)
{
	return be64_to_cpu(p->cm_dev->ib_dev->node_guid);
}

/* which message a REJ or MRA from @from answers */
static u8 cm_msg_answered(enum ib_cm_state from)
{
	switch (from) {
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
		return IB_CM_WIRE_MSG_REQ;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		return IB_CM_WIRE_MSG_REP;
	default:
		return IB_CM_WIRE_MSG_OTHER;
	}
}

/* the attribute each tx code sends */
static u16 cm_tx_attr(enum ib_cm_sm_tx tx)
{
	switch (tx) {
	case IB_CM_TX_REQ:		return IB_CM_WIRE_ATTR_REQ;
	case IB_CM_TX_MRA:		return IB_CM_WIRE_ATTR_MRA;
	case IB_CM_TX_REJ:
	case IB_CM_TX_REJ_TIMEOUT:
	case IB_CM_TX_REJ_BAD_SID:
	case IB_CM_TX_REJ_STALE:
	case IB_CM_TX_REJ_CONSUMER:	return IB_CM_WIRE_ATTR_REJ;
	case IB_CM_TX_REP:		return IB_CM_WIRE_ATTR_REP;
	case IB_CM_TX_RTU:		return IB_CM_WIRE_ATTR_RTU;
	case IB_CM_TX_DREQ:		return IB_CM_WIRE_ATTR_DREQ;
	case IB_CM_TX_DREP:		return IB_CM_WIRE_ATTR_DREP;
	case IB_CM_TX_SIDR_REQ:		return IB_CM_WIRE_ATTR_SIDR_REQ;
	case IB_CM_TX_SIDR_REP:
	case IB_CM_TX_SIDR_REP_NO_SID:
	case IB_CM_TX_SIDR_REP_REJECT:	return IB_CM_WIRE_ATTR_SIDR_REP;
	default:			return 0;
	}
}

/* the TID of what @p sends: the request's it answers, or a new one */
static u64 cm_tx_tid(const struct cm_id_priv *p, u16 attr,
		     const struct ib_cm_wire_msg *rx)
{
	switch (attr) {
	case IB_CM_WIRE_ATTR_REJ:
		return rx ? rx->tid : p->req_tid;
	case IB_CM_WIRE_ATTR_DREQ:
		return ib_cm_wire_new_tid(p->port->hi_tid, p->local_id);
	case IB_CM_WIRE_ATTR_DREP:
		return rx ? rx->tid : p->dreq_tid;
	case IB_CM_WIRE_ATTR_SIDR_REQ:
	case IB_CM_WIRE_ATTR_SIDR_REP:
		return p->sidr_tid;
	default:
		return p->req_tid;
	}
}

/* the private data a user call hands to @tx, and its length */
static const void *cm_tx_priv(enum ib_cm_sm_tx tx,
			      const struct cm_tx_args *args, u32 *len)
{
	*len = 0;
	if (!args)
		return NULL;
	switch (tx) {
	case IB_CM_TX_REQ:		/* comes with the whole REQ */
	case IB_CM_TX_REJ_TIMEOUT:	/* ib_cm's own REJs carry none */
	case IB_CM_TX_REJ_BAD_SID:
	case IB_CM_TX_REJ_STALE:
	case IB_CM_TX_REJ_CONSUMER:
		return NULL;
	case IB_CM_TX_REP:
		*len = args->rep->private_data_len;
		return args->rep->private_data;
	case IB_CM_TX_SIDR_REP:
		if (!args->sidr_rep)
			return NULL;
		*len = args->sidr_rep->private_data_len;
		return args->sidr_rep->private_data;
	default:
		*len = args->private_data_len;
		return args->private_data;
	}
}

static void cm_build_rej(struct cm_id_priv *p, enum ib_cm_sm_tx tx,
			 const struct cm_tx_args *args,
			 const struct ib_cm_wire_msg *rx, enum ib_cm_state from,
			 struct ib_cm_rej_fields *rej)
{
	__be64 guid;

	/* the peer's ID as the message being answered names it */
	if (rx && rx->attr_id == IB_CM_WIRE_ATTR_REQ)
		rej->remote_comm_id = rx->req.local_comm_id;
	else if (rx && rx->attr_id == IB_CM_WIRE_ATTR_REP)
		rej->remote_comm_id = rx->rep.local_comm_id;
	else if (rx && rx->attr_id == IB_CM_WIRE_ATTR_DREQ)
		rej->remote_comm_id = rx->dreq.local_comm_id;
	rej->msg_rejected = cm_msg_answered(from);
	if (rx && rx->attr_id == IB_CM_WIRE_ATTR_REP)
		rej->msg_rejected = IB_CM_WIRE_MSG_REP;
	else if (rx && rx->attr_id == IB_CM_WIRE_ATTR_REQ)
		rej->msg_rejected = IB_CM_WIRE_MSG_REQ;
	if (tx == IB_CM_TX_REJ) {
		rej->reason = args->reason;
		rej->ari_length = args->ari_length;
		if (args->ari_length)
			memcpy(rej->ari, args->ari, args->ari_length);
		return;
	}
	rej->reason = ib_cm_tx_rej_reason(tx);
	if (tx == IB_CM_TX_REJ_TIMEOUT) {
		guid = cpu_to_be64(cm_node_guid(p));
		memcpy(rej->ari, &guid, sizeof(guid));
		rej->ari_length = sizeof(guid);
	}
}

static void cm_build_rep(struct cm_id_priv *p,
			 const struct ib_cm_rep_param *rp,
			 struct ib_cm_rep_fields *rep)
{
	rep->local_qpn = rp->qp_num;
	rep->starting_psn = rp->starting_psn;
	rep->local_ca_guid = cm_node_guid(p);
	rep->responder_resources = rp->responder_resources;
	rep->initiator_depth = rp->initiator_depth;
	rep->target_ack_delay = p->cm_dev->ack_delay & 0x1f;
	rep->failover_accepted = rp->failover_accepted;
	rep->flow_control = rp->flow_control;
	rep->rnr_retry_count = rp->rnr_retry_count;
	rep->srq = rp->srq;
}

static void cm_build_sidr_rep(enum ib_cm_sm_tx tx,
			      const struct ib_cm_sidr_rep_param *sp,
			      struct ib_cm_sidr_rep_fields *r)
{
	if (tx != IB_CM_TX_SIDR_REP || !sp) {
		r->status = (u8)ib_cm_tx_sidr_status(tx);
		return;
	}
	r->status = (u8)sp->status;
	r->qpn = sp->qp_num;
	r->qkey = sp->qkey;
	r->info_length = sp->info ? sp->info_length : 0;
	if (r->info_length)
		memcpy(r->info, sp->info, r->info_length);
}

/*
 * Fill @m for @tx: what every message has from the layout table (TID,
 * the two comm IDs, the user's private data), then what is its own.
 */
static int cm_build(struct cm_id_priv *p, enum ib_cm_sm_tx tx,
		    const struct cm_tx_args *args,
		    const struct ib_cm_wire_msg *rx, enum ib_cm_state from,
		    struct ib_cm_wire_msg *m)
{
	const struct cm_msg_layout *l = cm_msg_layout(cm_tx_attr(tx));
	const void *priv;
	u32 len;

	if (!l)
		return -EINVAL;
	m->attr_id = l->attr_id;
	m->tid = cm_tx_tid(p, l->attr_id, rx);
	cm_msg_put32(m, l->sender_off, p->local_id);
	cm_msg_put32(m, l->receiver_off, p->remote_id);
	priv = cm_tx_priv(tx, args, &len);
	if (priv)
		memcpy((u8 *)m + l->priv_off, priv, min_t(u32, len, l->priv_len));

	switch (l->attr_id) {
	case IB_CM_WIRE_ATTR_REQ:
		m->req = *args->req;
		break;
	case IB_CM_WIRE_ATTR_MRA:
		m->mra.msg_mraed = cm_msg_answered(p->state);
		m->mra.service_timeout = args->mra_service_timeout;
		break;
	case IB_CM_WIRE_ATTR_REJ:
		cm_build_rej(p, tx, args, rx, from, &m->rej);
		break;
	case IB_CM_WIRE_ATTR_REP:
		cm_build_rep(p, args->rep, &m->rep);
		break;
	case IB_CM_WIRE_ATTR_DREQ:
		m->dreq.remote_qpn_eecn = p->remote_qpn;
		break;
	case IB_CM_WIRE_ATTR_SIDR_REQ:
		m->sidr_req.pkey = p->path.pkey;
		m->sidr_req.service_id = p->service_id;
		break;
	case IB_CM_WIRE_ATTR_SIDR_REP:
		m->sidr_rep.service_id = p->service_id;
		cm_build_sidr_rep(tx, args ? args->sidr_rep : NULL,
				  &m->sidr_rep);
		break;
	}
	return 0;
}

/* where @p keeps the last @tx it sent (MRA, REP, RTU), else NULL */
static u8 *cm_stored_mad(struct cm_id_priv *p, enum ib_cm_sm_tx tx,
			 bool **valid)
{
	switch (tx) {
	case IB_CM_TX_MRA:
		*valid = &p->mra_valid;
		return p->mra_mad;
	case IB_CM_TX_REP:
		*valid = &p->rep_valid;
		return p->rep_mad;
	case IB_CM_TX_RTU:
		*valid = &p->rtu_valid;
		return p->rtu_mad;
	default:
		*valid = NULL;
		return NULL;
	}
}

/*
 * Send what @tx says for @p, armed with the ID's timeout and retries if
 * @arm.  Duplicates of an MRA, REP or RTU get the stored MAD again.
 */
int cm_send_tx(struct cm_id_priv *p, enum ib_cm_sm_tx tx, bool arm,
	       const struct cm_tx_args *args,
	       const struct ib_cm_wire_msg *rx_msg, enum ib_cm_state from)
{
	struct rdma_mad_agent *agent;
	struct rdma_mad_dest dest;
	struct cm_tx_buf *b;
	const u8 *mad;
	bool *valid;
	u8 *store;
	int ret;

	lockdep_assert_held(&p->mutex);
	if (READ_ONCE(p->cm_dev->going_away) || !p->port)
		return -ENODEV;
	agent = p->port->agent;
	store = cm_stored_mad(p, tx, &valid);
	b = (struct cm_tx_buf *)kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	if (store && !args) {
		/* an answer to a duplicate: what went out before */
		if (!*valid) {
			ret = -ENOENT;
			goto out;
		}
		mad = store;
	} else {
		ret = cm_build(p, tx, args, rx_msg, from, &b->msg);
		if (ret)
			goto out;
		ret = ib_cm_wire_encode(b->mad, sizeof(b->mad), &b->msg);
		if (ret)
			goto out;
		mad = b->mad;
		if (store) {
			memcpy(store, b->mad, IB_MAD_WIRE_SIZE);
			*valid = true;
		}
		/* a delayed MRA goes out only to answer a duplicate */
		if (tx == IB_CM_TX_MRA && p->mra_delayed) {
			ret = 0;
			goto out;
		}
	}
	/* the REP's TID is the peer's: keep it apart from our requests' */
	if (tx == IB_CM_TX_REP)
		agent = p->port->reply_agent;
	cm_dest_from_path(&p->path, &dest);
	if (!arm) {
		ret = rdma_mad_send(agent, &dest, mad, 0, 0, false, NULL);
		goto out;
	}
	/* the send's reference, dropped by cm_send_handler() */
	cm_id_get(p);
	ret = rdma_mad_send_tracked(agent, &dest, mad, p->timeout_ms,
				    ib_cm_retries(p->max_cm_retries), false, p,
				    &p->armed_send);
	if (ret) {
		cm_id_put(p);
		goto out;
	}
	p->armed = true;
	p->armed_agent = agent;
out:
	kfree(b);
	return ret;
}

/*
 * A reply to a message that names no ID of ours (or that could not be
 * taken at all); @rej_reason: the reason of an IB_CM_TX_REJ.
 */
static void cm_send_answer(struct cm_port *port, const struct rdma_mad_recv *rx,
			   const struct ib_cm_wire_msg *msg, enum ib_cm_sm_tx tx,
			   u16 rej_reason)
{
	const struct cm_msg_layout *l, *rx_l;
	struct ib_cm_roce_path path = {};
	struct rdma_mad_dest dest;
	struct cm_tx_buf *b;

	if (tx == IB_CM_TX_NONE || !port->agent)
		return;
	b = (struct cm_tx_buf *)kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return;
	b->msg.tid = msg->tid;
	/* the answer names the IDs the other way round */
	rx_l = cm_msg_layout(msg->attr_id);
	l = cm_msg_layout(cm_tx_attr(tx));
	if (!rx_l || !l)
		goto out;
	b->msg.attr_id = l->attr_id;
	if (rx_l->sender_off != CM_NO_OFF)
		cm_msg_put32(&b->msg, l->receiver_off,
			     cm_msg_get32(msg, rx_l->sender_off));
	if (rx_l->receiver_off != CM_NO_OFF)
		cm_msg_put32(&b->msg, l->sender_off,
			     cm_msg_get32(msg, rx_l->receiver_off));
	switch (tx) {
	case IB_CM_TX_REJ:
	case IB_CM_TX_REJ_BAD_SID:
	case IB_CM_TX_REJ_STALE:
		b->msg.rej.msg_rejected = IB_CM_WIRE_MSG_REQ;
		b->msg.rej.reason = tx == IB_CM_TX_REJ ? rej_reason :
				    ib_cm_tx_rej_reason(tx);
		break;
	case IB_CM_TX_SIDR_REP_NO_SID:
		b->msg.sidr_rep.service_id = msg->sidr_req.service_id;
		b->msg.sidr_rep.status = (u8)ib_cm_tx_sidr_status(tx);
		break;
	case IB_CM_TX_DREP:
		break;
	default:
		goto out;
	}
	if (ib_cm_wire_encode(b->mad, sizeof(b->mad), &b->msg))
		goto out;
	path.port_num = port->port_num;
	path.dgid = rx->src_gid;
	cm_reply_gid(port, &rx->src_gid, &path);
	cm_dest_from_path(&path, &dest);
	dest.remote_qpn = rx->src_qp;
	dest.pkey_index = rx->pkey_index;
	rdma_mad_send(port->agent, &dest, b->mad, 0, 0, false, NULL);
out:
	kfree(b);
}

void cm_send_orphan(struct cm_port *port, const struct rdma_mad_recv *rx,
		    const struct ib_cm_wire_msg *msg, enum ib_cm_sm_tx tx)
{
	cm_send_answer(port, rx, msg, tx, 0);
}

/*
 * A REQ the codec refused after reading all of it (@why): REJ with the
 * reason that names the field, so the sender does not retry in vain.
 * Anything else that does not decode is dropped.
 */
void cm_reject_malformed(struct cm_port *port, const struct rdma_mad_recv *rx,
			 const struct ib_cm_wire_msg *msg,
			 enum ib_cm_wire_why why)
{
	u16 reason;

	if (msg->attr_id != IB_CM_WIRE_ATTR_REQ)
		return;
	switch (why) {
	case IB_CM_WHY_TRANSPORT:
		reason = IB_CM_REJ_INVALID_TRANSPORT_TYPE;
		break;
	case IB_CM_WHY_MTU:
		reason = IB_CM_REJ_INVALID_MTU;
		break;
	default:
		return;
	}
	cm_send_answer(port, rx, msg, IB_CM_TX_REJ, reason);
}

/* ------------------------------------------------------------ user calls */

static int cm_call(struct ib_cm_id *cm_id, enum ib_cm_sm_input in,
		   const struct cm_tx_args *args)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	int ret;

	mutex_lock(&p->mutex);
	ret = cm_step(p, in, args, NULL, NULL);
	mutex_unlock(&p->mutex);
	return ret;
}

/* fill @path's sgid from its entry: a RoCE v2 GID of the ID's device */
static int cm_path_sgid(struct cm_id_priv *p, struct ib_cm_roce_path *path)
{
	struct rdma_gid_entry e;
	int ret;

	if (path->port_num < 1 || path->port_num > p->cm_dev->nports ||
	    !p->cm_dev->port[path->port_num - 1].agent)
		return -EINVAL;
	ret = rdma_query_gid_entry(p->cm_dev->ib_dev, path->port_num,
				   path->sgid_index, &e);
	if (ret)
		return ret;
	if (e.gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	path->sgid = e.gid;
	p->port = &p->cm_dev->port[path->port_num - 1];
	return 0;
}

/* the REQ @param asks for, from @p's path and comm ID */
static struct ib_cm_req_fields cm_req_fields(const struct cm_id_priv *p,
					     const struct ib_cm_req_param *param)
{
	const struct ib_cm_roce_path *path = &p->path;
	struct ib_cm_req_fields req = {
		.local_comm_id = p->local_id,
		.service_id = be64_to_cpu(param->service_id),
		.local_ca_guid = cm_node_guid(p),
		.local_qpn = param->qp_num,
		.starting_psn = param->starting_psn,
		.pkey = path->pkey,
		.responder_resources = param->responder_resources,
		.initiator_depth = param->initiator_depth,
		.remote_cm_response_timeout = param->remote_cm_response_timeout,
		.transport_type = param->qp_type == IB_QPT_UC ?
				  IB_CM_WIRE_TRANSPORT_UC :
				  IB_CM_WIRE_TRANSPORT_RC,
		.flow_control = param->flow_control,
		.local_cm_response_timeout = param->local_cm_response_timeout,
		.retry_count = param->retry_count,
		.mtu = (u8)path->mtu,
		.rnr_retry_count = param->rnr_retry_count,
		.max_cm_retries = param->max_cm_retries,
		.srq = param->srq,
		.primary = {
			/* RoCE has no LIDs: the permissive LID stands in */
			.local_lid = 0xffff,
			.remote_lid = 0xffff,
			.flow_label = path->flow_label,
			.traffic_class = path->traffic_class,
			.hop_limit = path->hop_limit ? path->hop_limit : 64,
			.local_ack_timeout = p->path_timeout,
		},
	};

	memcpy(req.primary.local_gid, path->sgid.raw, IB_CM_WIRE_GID_LEN);
	memcpy(req.primary.remote_gid, path->dgid.raw, IB_CM_WIRE_GID_LEN);
	if (param->private_data)
		memcpy(req.private_data, param->private_data,
		       param->private_data_len);
	return req;
}

int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	struct ib_cm_roce_path *path = param->primary_path;
	struct cm_tx_args args = {};
	struct ib_cm_req_fields *req;
	int ret;

	if (!path || param->private_data_len > IB_CM_WIRE_REQ_PRIV_LEN ||
	    (param->qp_type != IB_QPT_RC && param->qp_type != IB_QPT_UC))
		return -EINVAL;
	req = (struct ib_cm_req_fields *)kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	mutex_lock(&p->mutex);
	if (p->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	p->path = *path;
	ret = cm_path_sgid(p, &p->path);
	if (ret)
		goto out;
	p->path_timeout = ib_cm_ack_timeout(p->cm_dev->ack_delay,
					    path->packet_life_time);
	p->timeout_ms = ib_cm_req_timeout_ms(path->packet_life_time,
					     param->remote_cm_response_timeout);
	p->req_tid = ib_cm_wire_new_tid(p->port->hi_tid, p->local_id);
	*req = cm_req_fields(p, param);
	cm_take_req(p, req, false);
	args.req = req;
	ret = cm_step(p, IB_CM_IN_SEND_REQ, &args, NULL, NULL);
out:
	mutex_unlock(&p->mutex);
	kfree(req);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	struct cm_tx_args args = { .rep = param };
	int ret;

	if (param->private_data_len > IB_CM_WIRE_REP_PRIV_LEN)
		return -EINVAL;
	mutex_lock(&p->mutex);
	if (p->state != IB_CM_REQ_RCVD && p->state != IB_CM_MRA_REQ_SENT) {
		ret = -EINVAL;
		goto out;
	}
	p->local_qpn = param->qp_num;
	p->rq_psn = param->starting_psn;
	p->responder_resources = param->responder_resources;
	p->initiator_depth = param->initiator_depth;
	ret = cm_step(p, IB_CM_IN_SEND_REP, &args, NULL, NULL);
out:
	mutex_unlock(&p->mutex);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rep);

static int cm_send_priv(struct ib_cm_id *cm_id, enum ib_cm_sm_input in,
			const void *private_data, u8 len, u32 max)
{
	struct cm_tx_args args = {
		.private_data = private_data,
		.private_data_len = len,
	};

	if (len > max)
		return -EINVAL;
	return cm_call(cm_id, in, &args);
}

int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len)
{
	return cm_send_priv(cm_id, IB_CM_IN_SEND_RTU, private_data,
			    private_data_len, IB_CM_WIRE_RTU_PRIV_LEN);
}
EXPORT_SYMBOL(ib_send_cm_rtu);

int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	return cm_send_priv(cm_id, IB_CM_IN_SEND_DREQ, private_data,
			    private_data_len, IB_CM_WIRE_DREQ_PRIV_LEN);
}
EXPORT_SYMBOL(ib_send_cm_dreq);

int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	return cm_send_priv(cm_id, IB_CM_IN_SEND_DREP, private_data,
			    private_data_len, IB_CM_WIRE_DREP_PRIV_LEN);
}
EXPORT_SYMBOL(ib_send_cm_drep);

int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len)
{
	struct cm_tx_args args = {
		.private_data = private_data,
		.private_data_len = private_data_len,
		.reason = (u8)reason,
		.ari = ari,
		.ari_length = ari ? ari_length : 0,
	};

	if (private_data_len > IB_CM_WIRE_REJ_PRIV_LEN ||
	    args.ari_length > IB_CM_WIRE_INFO_LEN)
		return -EINVAL;
	return cm_call(cm_id, IB_CM_IN_SEND_REJ, &args);
}
EXPORT_SYMBOL(ib_send_cm_rej);

int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	struct cm_tx_args args = {
		.private_data = private_data,
		.private_data_len = private_data_len,
		.mra_service_timeout = ib_cm_mra_service_timeout(service_timeout),
	};
	int ret;

	if (private_data_len > IB_CM_WIRE_MRA_PRIV_LEN)
		return -EINVAL;
	mutex_lock(&p->mutex);
	p->mra_delayed = ib_cm_mra_delayed(service_timeout);
	ret = cm_step(p, IB_CM_IN_SEND_MRA, &args, NULL, NULL);
	mutex_unlock(&p->mutex);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_mra);

int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	struct cm_tx_args args = {
		.private_data = param->private_data,
		.private_data_len = param->private_data_len,
	};
	int ret;

	if (!param->path ||
	    param->private_data_len > IB_CM_WIRE_SIDR_REQ_PRIV_LEN)
		return -EINVAL;
	mutex_lock(&p->mutex);
	if (p->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	p->path = *param->path;
	ret = cm_path_sgid(p, &p->path);
	if (ret)
		goto out;
	p->service_id = be64_to_cpu(param->service_id);
	p->id.service_id = param->service_id;
	p->timeout_ms = param->timeout_ms > U32_MAX ? U32_MAX :
			(u32)param->timeout_ms;
	p->max_cm_retries = param->max_cm_retries;
	p->sidr_tid = ib_cm_wire_new_tid(p->port->hi_tid, p->local_id);
	ret = cm_step(p, IB_CM_IN_SEND_SIDR_REQ, &args, NULL, NULL);
out:
	mutex_unlock(&p->mutex);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_req);

int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param)
{
	struct cm_tx_args args = { .sidr_rep = param };
	struct cm_id_priv *p = cm_priv(cm_id);
	int ret;

	if (param->info_length > IB_CM_WIRE_INFO_LEN ||
	    param->private_data_len > IB_CM_WIRE_SIDR_REP_PRIV_LEN)
		return -EINVAL;
	ret = cm_call(cm_id, IB_CM_IN_SEND_SIDR_REP, &args);
	if (!ret)
		cm_leave_remote_tables(p);	/* no longer pending */
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);

/* ------------------------------------------------------------ QP attributes */

static bool cm_state_in(enum ib_cm_state st, u32 mask)
{
	return (mask >> st) & 1;
}

#define CM_ST(s)	(1u << IB_CM_##s)
#define CM_INIT_STATES	(CM_ST(REQ_SENT) | CM_ST(REQ_RCVD) | \
			 CM_ST(MRA_REQ_SENT) | CM_ST(MRA_REQ_RCVD) | \
			 CM_ST(REP_SENT) | CM_ST(REP_RCVD) | \
			 CM_ST(MRA_REP_SENT) | CM_ST(MRA_REP_RCVD) | \
			 CM_ST(ESTABLISHED))
#define CM_RTR_STATES	(CM_INIT_STATES & ~(CM_ST(REQ_SENT) | \
					    CM_ST(MRA_REQ_RCVD)))

int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct cm_id_priv *p = cm_priv(cm_id);
	struct rdma_ah_attr *ah = &qp_attr->ah_attr;
	bool rc = p->qp_type == IB_QPT_RC;
	int ret = 0;

	mutex_lock(&p->mutex);
	switch (qp_attr->qp_state) {
	case IB_QPS_INIT:
		if (!cm_state_in(p->state, CM_INIT_STATES)) {
			ret = -EINVAL;
			break;
		}
		*qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				IB_QP_PKEY_INDEX | IB_QP_PORT;
		qp_attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
		if (p->responder_resources)
			qp_attr->qp_access_flags |= IB_ACCESS_REMOTE_READ |
						    IB_ACCESS_REMOTE_ATOMIC;
		qp_attr->pkey_index = 0;
		qp_attr->port_num = p->path.port_num;
		break;
	case IB_QPS_RTR:
		if (!cm_state_in(p->state, CM_RTR_STATES)) {
			ret = -EINVAL;
			break;
		}
		*qp_attr_mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
				IB_QP_DEST_QPN | IB_QP_RQ_PSN;
		memset(ah, 0, sizeof(*ah));
		ah->type = RDMA_AH_ATTR_TYPE_ROCE;
		ah->ah_flags = IB_AH_GRH;
		ah->port_num = p->path.port_num;
		ah->grh.dgid = p->path.dgid;
		ah->grh.sgid_index = p->path.sgid_index;
		ah->grh.flow_label = p->path.flow_label;
		ah->grh.hop_limit = p->path.hop_limit ? p->path.hop_limit : 64;
		ah->grh.traffic_class = p->path.traffic_class;
		/* the MAC as every AH gets it: from the neighbour table */
		ret = rdma_resolve_ah_attr(p->cm_dev->ib_dev, ah);
		if (ret)
			break;
		qp_attr->path_mtu = p->path.mtu;
		qp_attr->dest_qp_num = p->remote_qpn;
		qp_attr->rq_psn = p->rq_psn;
		if (rc) {
			*qp_attr_mask |= IB_QP_MAX_DEST_RD_ATOMIC |
					 IB_QP_MIN_RNR_TIMER;
			qp_attr->max_dest_rd_atomic = p->responder_resources;
			qp_attr->min_rnr_timer = 0;
		}
		break;
	case IB_QPS_RTS:
		if (!cm_state_in(p->state, CM_RTR_STATES)) {
			ret = -EINVAL;
			break;
		}
		*qp_attr_mask = IB_QP_STATE | IB_QP_SQ_PSN;
		qp_attr->sq_psn = p->sq_psn;
		if (rc) {
			*qp_attr_mask |= IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
					 IB_QP_MAX_QP_RD_ATOMIC | IB_QP_TIMEOUT;
			qp_attr->retry_cnt = p->retry_count;
			qp_attr->rnr_retry = p->rnr_retry_count;
			qp_attr->max_rd_atomic = p->initiator_depth;
			qp_attr->timeout = p->path_timeout;
		}
		break;
	default:
		ret = -EINVAL;
		break;
	}
	mutex_unlock(&p->mutex);
	return ret;
}
EXPORT_SYMBOL(ib_cm_init_qp_attr);
