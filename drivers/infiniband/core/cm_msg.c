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

void cm_dest_from_path(const struct ib_cm_roce_path *path,
		       struct rdma_mad_dest *dest)
{
	memset(dest, 0, sizeof(*dest));
	dest->dgid = path->dgid;
	dest->sgid_index = path->sgid_index;
	dest->hop_limit = path->hop_limit;
	dest->traffic_class = path->traffic_class;
	dest->flow_label = path->flow_label;
	dest->remote_qpn = 1;
	dest->remote_qkey = RDMA_MAD_QP1_QKEY;
}

static u64 cm_node_guid(const struct cm_id_priv *p)
{
	return be64_to_cpu(p->cm_dev->ib_dev->node_guid);
}

static u32 cm_copy_priv(u8 *dst, u32 dst_len, const struct cm_tx_args *args)
{
	u32 len = 0;

	if (args && args->private_data) {
		len = min_t(u32, args->private_data_len, dst_len);
		memcpy(dst, args->private_data, len);
	}
	return len;
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

/* the peer's comm ID in the message being answered, else the known one */
static u32 cm_rx_sender(const struct cm_id_priv *p,
			const struct ib_cm_wire_msg *rx)
{
	if (!rx)
		return p->remote_id;
	switch (rx->attr_id) {
	case IB_CM_WIRE_ATTR_REQ:
		return rx->req.local_comm_id;
	case IB_CM_WIRE_ATTR_REP:
		return rx->rep.local_comm_id;
	case IB_CM_WIRE_ATTR_DREQ:
		return rx->dreq.local_comm_id;
	default:
		return p->remote_id;
	}
}

static void cm_build_rej(struct cm_id_priv *p, enum ib_cm_sm_tx tx,
			 const struct cm_tx_args *args,
			 const struct ib_cm_wire_msg *rx, enum ib_cm_state from,
			 struct ib_cm_wire_msg *m)
{
	struct ib_cm_rej_fields *rej = &m->rej;
	u64 guid;

	m->attr_id = IB_CM_WIRE_ATTR_REJ;
	m->tid = rx ? rx->tid : p->req_tid;
	rej->local_comm_id = p->local_id;
	rej->remote_comm_id = cm_rx_sender(p, rx);
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
		cm_copy_priv(rej->private_data, IB_CM_WIRE_REJ_PRIV_LEN, args);
		return;
	}
	rej->reason = ib_cm_tx_rej_reason(tx);
	if (tx == IB_CM_TX_REJ_TIMEOUT) {
		guid = cpu_to_be64(cm_node_guid(p));
		memcpy(rej->ari, &guid, sizeof(guid));
		rej->ari_length = sizeof(guid);
	}
}

static void cm_build_sidr_rep(struct cm_id_priv *p, enum ib_cm_sm_tx tx,
			      const struct cm_tx_args *args,
			      struct ib_cm_wire_msg *m)
{
	struct ib_cm_sidr_rep_fields *r = &m->sidr_rep;
	const struct ib_cm_sidr_rep_param *sp = args ? args->sidr_rep : NULL;

	m->attr_id = IB_CM_WIRE_ATTR_SIDR_REP;
	m->tid = p->sidr_tid;
	r->request_id = p->remote_id;
	r->service_id = p->service_id;
	if (tx != IB_CM_TX_SIDR_REP || !sp) {
		r->status = (u8)ib_cm_tx_sidr_status(tx);
		return;
	}
	r->status = (u8)sp->status;
	r->qpn = sp->qp_num;
	r->qkey = sp->qkey;
	if (sp->info_length) {
		r->info_length = sp->info_length;
		memcpy(r->info, sp->info, sp->info_length);
	}
	if (sp->private_data)
		memcpy(r->private_data, sp->private_data, sp->private_data_len);
}

/* fill @b->msg for @tx; 1: resend the stored MAD in @stored instead */
static int cm_build(struct cm_id_priv *p, enum ib_cm_sm_tx tx,
		    const struct cm_tx_args *args,
		    const struct ib_cm_wire_msg *rx, enum ib_cm_state from,
		    struct ib_cm_wire_msg *m)
{
	switch (tx) {
	case IB_CM_TX_REQ:
		m->attr_id = IB_CM_WIRE_ATTR_REQ;
		m->tid = p->req_tid;
		m->req = *args->req;
		return 0;
	case IB_CM_TX_MRA:
		m->attr_id = IB_CM_WIRE_ATTR_MRA;
		m->tid = p->req_tid;
		m->mra.local_comm_id = p->local_id;
		m->mra.remote_comm_id = p->remote_id;
		m->mra.msg_mraed = cm_msg_answered(p->state);
		m->mra.service_timeout = args->mra_service_timeout;
		cm_copy_priv(m->mra.private_data, IB_CM_WIRE_MRA_PRIV_LEN, args);
		return 0;
	case IB_CM_TX_REJ:
	case IB_CM_TX_REJ_TIMEOUT:
	case IB_CM_TX_REJ_BAD_SID:
	case IB_CM_TX_REJ_STALE:
	case IB_CM_TX_REJ_CONSUMER:
		cm_build_rej(p, tx, args, rx, from, m);
		return 0;
	case IB_CM_TX_REP: {
		const struct ib_cm_rep_param *rp = args->rep;

		m->attr_id = IB_CM_WIRE_ATTR_REP;
		m->tid = p->req_tid;
		m->rep.local_comm_id = p->local_id;
		m->rep.remote_comm_id = p->remote_id;
		m->rep.local_qpn = rp->qp_num;
		m->rep.starting_psn = rp->starting_psn;
		m->rep.local_ca_guid = cm_node_guid(p);
		m->rep.responder_resources = rp->responder_resources;
		m->rep.initiator_depth = rp->initiator_depth;
		m->rep.target_ack_delay = p->cm_dev->ack_delay & 0x1f;
		m->rep.failover_accepted = rp->failover_accepted;
		m->rep.flow_control = rp->flow_control;
		m->rep.rnr_retry_count = rp->rnr_retry_count;
		m->rep.srq = rp->srq;
		if (rp->private_data)
			memcpy(m->rep.private_data, rp->private_data,
			       rp->private_data_len);
		return 0;
	}
	case IB_CM_TX_RTU:
		m->attr_id = IB_CM_WIRE_ATTR_RTU;
		m->tid = p->req_tid;
		m->rtu.local_comm_id = p->local_id;
		m->rtu.remote_comm_id = p->remote_id;
		cm_copy_priv(m->rtu.private_data, IB_CM_WIRE_RTU_PRIV_LEN, args);
		return 0;
	case IB_CM_TX_DREQ:
		m->attr_id = IB_CM_WIRE_ATTR_DREQ;
		m->tid = ib_cm_wire_new_tid(p->port->hi_tid, p->local_id);
		m->dreq.local_comm_id = p->local_id;
		m->dreq.remote_comm_id = p->remote_id;
		m->dreq.remote_qpn_eecn = p->remote_qpn;
		cm_copy_priv(m->dreq.private_data, IB_CM_WIRE_DREQ_PRIV_LEN,
			     args);
		return 0;
	case IB_CM_TX_DREP:
		m->attr_id = IB_CM_WIRE_ATTR_DREP;
		m->tid = rx ? rx->tid : p->dreq_tid;
		m->drep.local_comm_id = p->local_id;
		m->drep.remote_comm_id = p->remote_id;
		cm_copy_priv(m->drep.private_data, IB_CM_WIRE_DREP_PRIV_LEN,
			     args);
		return 0;
	case IB_CM_TX_SIDR_REQ:
		m->attr_id = IB_CM_WIRE_ATTR_SIDR_REQ;
		m->tid = p->sidr_tid;
		m->sidr_req.request_id = p->local_id;
		m->sidr_req.pkey = p->path.pkey;
		m->sidr_req.service_id = p->service_id;
		cm_copy_priv(m->sidr_req.private_data,
			     IB_CM_WIRE_SIDR_REQ_PRIV_LEN, args);
		return 0;
	case IB_CM_TX_SIDR_REP:
	case IB_CM_TX_SIDR_REP_NO_SID:
	case IB_CM_TX_SIDR_REP_REJECT:
		cm_build_sidr_rep(p, tx, args, m);
		return 0;
	default:
		return -EINVAL;
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
	u8 *store = NULL;
	bool resend;
	int ret;

	lockdep_assert_held(&p->mutex);
	if (READ_ONCE(p->cm_dev->going_away) || !p->port)
		return -ENODEV;
	agent = p->port->agent;
	resend = !args && (tx == IB_CM_TX_MRA || tx == IB_CM_TX_REP ||
			   tx == IB_CM_TX_RTU);
	b = (struct cm_tx_buf *)kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	if (resend) {
		if ((tx == IB_CM_TX_MRA && !p->mra_valid) ||
		    (tx == IB_CM_TX_REP && !p->rep_valid) ||
		    (tx == IB_CM_TX_RTU && !p->rtu_valid)) {
			ret = -ENOENT;
			goto out;
		}
		mad = tx == IB_CM_TX_MRA ? p->mra_mad :
		      tx == IB_CM_TX_REP ? p->rep_mad : p->rtu_mad;
	} else {
		ret = cm_build(p, tx, args, rx_msg, from, &b->msg);
		if (ret)
			goto out;
		ret = ib_cm_wire_encode(b->mad, sizeof(b->mad), &b->msg);
		if (ret)
			goto out;
		mad = b->mad;
		if (tx == IB_CM_TX_MRA)
			store = p->mra_mad;
		else if (tx == IB_CM_TX_REP)
			store = p->rep_mad;
		else if (tx == IB_CM_TX_RTU)
			store = p->rtu_mad;
		if (store) {
			memcpy(store, b->mad, IB_MAD_WIRE_SIZE);
			p->mra_valid |= tx == IB_CM_TX_MRA;
			p->rep_valid |= tx == IB_CM_TX_REP;
			p->rtu_valid |= tx == IB_CM_TX_RTU;
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
	cm_id_get(p);
	ret = rdma_mad_send(agent, &dest, mad, p->timeout_ms,
			    ib_cm_retries(p->max_cm_retries), false, p);
	if (ret) {
		cm_id_put(p);
		goto out;
	}
	p->armed = true;
	p->armed_agent = agent;
	p->armed_tid = tx == IB_CM_TX_REQ ? p->req_tid :
		       tx == IB_CM_TX_REP ? p->req_tid :
		       tx == IB_CM_TX_SIDR_REQ ? p->sidr_tid :
		       ib_cm_wire_new_tid(p->port->hi_tid, p->local_id);
out:
	kfree(b);
	return ret;
}

/* a reply to a message that names no ID of ours */
void cm_send_orphan(struct cm_port *port, const struct rdma_mad_recv *rx,
		    const struct ib_cm_wire_msg *msg, enum ib_cm_sm_tx tx)
{
	struct ib_cm_roce_path path = {};
	struct rdma_mad_dest dest;
	struct cm_tx_buf *b;

	if (tx == IB_CM_TX_NONE || !port->agent)
		return;
	b = (struct cm_tx_buf *)kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return;
	b->msg.tid = msg->tid;
	switch (tx) {
	case IB_CM_TX_REJ_BAD_SID:
	case IB_CM_TX_REJ_STALE:
		b->msg.attr_id = IB_CM_WIRE_ATTR_REJ;
		b->msg.rej.remote_comm_id = msg->req.local_comm_id;
		b->msg.rej.msg_rejected = IB_CM_WIRE_MSG_REQ;
		b->msg.rej.reason = ib_cm_tx_rej_reason(tx);
		break;
	case IB_CM_TX_SIDR_REP_NO_SID:
		b->msg.attr_id = IB_CM_WIRE_ATTR_SIDR_REP;
		b->msg.sidr_rep.request_id = msg->sidr_req.request_id;
		b->msg.sidr_rep.service_id = msg->sidr_req.service_id;
		b->msg.sidr_rep.status = (u8)ib_cm_tx_sidr_status(tx);
		break;
	case IB_CM_TX_DREP:
		b->msg.attr_id = IB_CM_WIRE_ATTR_DREP;
		b->msg.drep.local_comm_id = msg->dreq.remote_comm_id;
		b->msg.drep.remote_comm_id = msg->dreq.local_comm_id;
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
	p->service_id = be64_to_cpu(param->service_id);
	p->id.service_id = param->service_id;
	p->local_qpn = param->qp_num;
	p->rq_psn = param->starting_psn;
	p->qp_type = param->qp_type;
	p->responder_resources = param->responder_resources;
	p->initiator_depth = param->initiator_depth;
	p->retry_count = param->retry_count;
	p->rnr_retry_count = param->rnr_retry_count;
	p->max_cm_retries = param->max_cm_retries;
	p->path_timeout = ib_cm_ack_timeout(p->cm_dev->ack_delay,
					    path->packet_life_time);
	p->timeout_ms = ib_cm_req_timeout_ms(path->packet_life_time,
					     param->remote_cm_response_timeout);
	p->req_tid = ib_cm_wire_new_tid(p->port->hi_tid, p->local_id);

	req->local_comm_id = p->local_id;
	req->service_id = p->service_id;
	req->local_ca_guid = cm_node_guid(p);
	req->local_qpn = param->qp_num;
	req->responder_resources = param->responder_resources;
	req->initiator_depth = param->initiator_depth;
	req->remote_cm_response_timeout = param->remote_cm_response_timeout;
	req->transport_type = param->qp_type == IB_QPT_UC ?
			      IB_CM_WIRE_TRANSPORT_UC : IB_CM_WIRE_TRANSPORT_RC;
	req->flow_control = param->flow_control;
	req->starting_psn = param->starting_psn;
	req->local_cm_response_timeout = param->local_cm_response_timeout;
	req->retry_count = param->retry_count;
	req->pkey = path->pkey;
	req->mtu = (u8)path->mtu;
	req->rnr_retry_count = param->rnr_retry_count;
	req->max_cm_retries = param->max_cm_retries;
	req->srq = param->srq;
	memcpy(req->primary.local_gid, p->path.sgid.raw, IB_CM_WIRE_GID_LEN);
	memcpy(req->primary.remote_gid, path->dgid.raw, IB_CM_WIRE_GID_LEN);
	req->primary.local_lid = 0xffff;	/* permissive LID on RoCE */
	req->primary.remote_lid = 0xffff;
	req->primary.flow_label = path->flow_label;
	req->primary.traffic_class = path->traffic_class;
	req->primary.hop_limit = path->hop_limit ? path->hop_limit : 64;
	req->primary.local_ack_timeout = p->path_timeout;
	if (param->private_data)
		memcpy(req->private_data, param->private_data,
		       param->private_data_len);
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
