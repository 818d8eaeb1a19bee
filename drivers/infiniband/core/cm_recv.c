// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_cm's receive side: a CM MAD is decoded (cm_wire.c), its ID found in
 * the tables (listener, duplicate, stale, local comm ID as
 * <rdma/ib_cm_state.h> orders the lookups), and the ID stepped with the
 * message's input and an event carrying copies of its fields.
 */
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include "cm_priv.h"

/* ------------------------------------------------------------ receive */

/* the local GID entry a passive ID answers from: the one the REQ names */
static int cm_local_gid(struct cm_port *port, const u8 *gid,
			struct ib_cm_roce_path *path)
{
	struct rdma_gid_entry e;
	union ib_gid g;
	int ret;

	memcpy(g.raw, gid, sizeof(g.raw));
	ret = rdma_find_gid_entry(port->cm_dev->ib_dev, &g, IB_GID_TYPE_ROCE_UDP_ENCAP,
				  port->port_num, &e);
	if (ret)
		return ret;
	path->sgid_index = (u8)e.index;
	path->sgid = e.gid;
	return 0;
}

static bool cm_gid_v4(const union ib_gid *g)
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(g->raw, prefix, sizeof(prefix));
}

/*
 * The local GID entry a reply to @src goes out of when the message names
 * none of ours: the first RoCE v2 entry of the sender's family.
 */
void cm_reply_gid(struct cm_port *port, const union ib_gid *src,
		  struct ib_cm_roce_path *path)
{
	struct ib_device *dev = port->cm_dev->ib_dev;
	u32 i, n = rdma_gid_table_len(dev, port->port_num);
	struct rdma_gid_entry e;

	for (i = 0; i < n; i++) {
		if (rdma_query_gid_entry(dev, port->port_num, i, &e) ||
		    e.gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
		    cm_gid_v4(&e.gid) != cm_gid_v4(src))
			continue;
		path->sgid_index = (u8)i;
		path->sgid = e.gid;
		return;
	}
}

static void cm_path_from_rx(struct cm_port *port,
			    const struct rdma_mad_recv *rx,
			    struct ib_cm_roce_path *path)
{
	path->port_num = port->port_num;
	path->dgid = rx->src_gid;
	path->hop_limit = 64;
	path->pkey = 0xffff;
	path->mtu = IB_MTU_1024;
}

/* who the peer is: its comm ID, CA, QP and where its PSNs start */
static void cm_take_peer(struct cm_id_priv *p, u32 comm_id, u64 ca_guid,
			 u32 qpn, u32 qkey, u32 psn)
{
	p->remote_id = comm_id;
	p->id.remote_id = cpu_to_be32(comm_id);
	p->remote_ca_guid = ca_guid;
	p->remote_qpn = qpn;
	p->remote_qkey = qkey;
	p->sq_psn = psn;
}

/*
 * What a REQ tells the ID that sent it (@passive false: our own REQ)
 * or the ID it made on the listener's side (the peer's QP, its PSN, the
 * depths swapped to be ours).
 */
void cm_take_req(struct cm_id_priv *p, const struct ib_cm_req_fields *req,
		 bool passive)
{
	p->service_id = req->service_id;
	p->id.service_id = cpu_to_be64(req->service_id);
	p->qp_type = req->transport_type == IB_CM_WIRE_TRANSPORT_UC ?
		     IB_QPT_UC : IB_QPT_RC;
	p->retry_count = req->retry_count;
	p->rnr_retry_count = req->rnr_retry_count;
	p->max_cm_retries = req->max_cm_retries;
	if (!passive) {
		p->local_qpn = req->local_qpn;
		p->rq_psn = req->starting_psn;
		p->responder_resources = req->responder_resources;
		p->initiator_depth = req->initiator_depth;
		return;
	}
	cm_take_peer(p, req->local_comm_id, req->local_ca_guid,
		     req->local_qpn, req->local_qkey, req->starting_psn);
	p->responder_resources = req->initiator_depth;
	p->initiator_depth = req->responder_resources;
	p->timeout_ms = ib_cm_time_ms(req->local_cm_response_timeout);
}

/* the path of a REQ's new ID: the sender's choices for the primary path */
static void cm_req_path(struct cm_id_priv *p,
			const struct ib_cm_req_fields *req)
{
	const struct ib_cm_wire_path *w = &req->primary;
	u8 life = ib_cm_req_packet_life_time(w->local_ack_timeout);

	p->path.mtu = (enum ib_mtu)req->mtu;
	p->path.pkey = req->pkey;
	p->path.flow_label = w->flow_label;
	p->path.traffic_class = w->traffic_class;
	p->path.hop_limit = w->hop_limit;
	p->path.packet_life_time = life;
	p->path_timeout = min_t(u8, life + 1, IB_CM_TIME_EXP_MAX);
}

/*
 * A request (REQ, SIDR_REQ) for service @sid, called with cm.lock held
 * after the duplicate lookups; drops it.  With no listener the request
 * gets the machine's orphan answer.  Else a new ID of the listener's is
 * returned locked, with its path and port set, and *@evp an event that
 * holds the listener until it is delivered; NULL if memory ran out.
 */
static struct cm_id_priv *cm_new_passive(struct cm_port *port, u64 sid,
					 enum ib_cm_sm_input in,
					 const struct rdma_mad_recv *rx,
					 const struct ib_cm_wire_msg *msg,
					 const struct ib_cm_roce_path *path,
					 struct cm_event_work **evp)
{
	struct cm_key key = { .num = sid, .ptr = port->cm_dev };
	struct cm_id_priv *listen, *p;
	struct ib_cm_sm_action act;
	struct cm_event_work *ev;

	lockdep_assert_held(&cm.lock);
	listen = cm_find(CM_TBL_LISTEN, &key);
	if (!listen || ib_cm_sm_step(IB_CM_LISTEN, in, &act) != IB_CM_SM_GO ||
	    !(act.work & IB_CM_DO_NEW_ID)) {
		mutex_unlock(&cm.lock);
		cm_send_orphan(port, rx, msg, ib_cm_sm_orphan_tx(in));
		return NULL;
	}
	cm_id_get(listen);
	mutex_unlock(&cm.lock);

	ev = cm_alloc_ev();
	if (!ev)
		goto err_put;
	p = cm_alloc_id(port->cm_dev, listen->id.cm_handler, listen->id.context);
	if (IS_ERR(p))
		goto err_free;
	/* the listener's reference goes with the event */
	ev->listen = listen;
	mutex_lock(&p->mutex);
	p->port = port;
	p->path = *path;
	*evp = ev;
	return p;

err_free:
	kfree(ev);
err_put:
	cm_id_put(listen);
	return NULL;
}

/* hand a new passive ID its first event, with the request's data */
static void cm_deliver_passive(struct cm_id_priv *p, struct cm_event_work *ev,
			       enum ib_cm_sm_input in,
			       const struct ib_cm_wire_msg *msg)
{
	const struct cm_msg_layout *l = cm_msg_layout(msg->attr_id);

	lockdep_assert_held(&p->mutex);
	memcpy(ev->priv, (const u8 *)msg + l->priv_off, l->priv_len);
	ev->ev.private_data = ev->priv;
	cm_step(p, in, NULL, ev, msg);
	mutex_unlock(&p->mutex);
}

/* a known (comm ID, CA GUID) or QPN: step its owner, no new ID */
static void cm_step_found(struct cm_id_priv *p, enum ib_cm_sm_input in,
			  const struct ib_cm_wire_msg *msg)
{
	mutex_lock(&p->mutex);
	cm_step(p, in, NULL, NULL, msg);
	mutex_unlock(&p->mutex);
	cm_id_put(p);
}

static void cm_recv_req(struct cm_port *port, const struct rdma_mad_recv *rx,
			const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_req_fields *req = &msg->req;
	struct cm_key key = {
		.num = req->local_comm_id,
		.guid = req->local_ca_guid,
	};
	struct ib_cm_req_event_param *param;
	struct ib_cm_roce_path path = {};
	struct cm_event_work *ev = NULL;
	struct cm_id_priv *found, *p;

	cm_path_from_rx(port, rx, &path);
	if (cm_local_gid(port, req->primary.remote_gid, &path))
		return;	/* not addressed to a GID of ours: dropped */

	mutex_lock(&cm.lock);
	found = cm_find(CM_TBL_REMOTE_ID, &key);
	if (found) {
		cm_id_get(found);
		mutex_unlock(&cm.lock);
		cm_step_found(found, IB_CM_IN_DUP_REQ, msg);
		return;
	}
	key.num = req->local_qpn;
	found = cm_find(CM_TBL_REMOTE_QPN, &key);
	if (found) {
		cm_id_get(found);
		mutex_unlock(&cm.lock);
		cm_send_orphan(port, rx, msg, IB_CM_TX_REJ_STALE);
		cm_step_found(found, IB_CM_IN_SEND_DREQ, NULL);
		return;
	}
	p = cm_new_passive(port, req->service_id, IB_CM_IN_RECV_REQ, rx, msg,
			   &path, &ev);
	if (!p)
		return;
	cm_req_path(p, req);
	cm_take_req(p, req, true);
	p->req_tid = msg->tid;
	mutex_lock(&cm.lock);
	cm_enter_remote_tables(p);
	mutex_unlock(&cm.lock);

	/* the event reports what the new ID took from the REQ */
	ev->path = p->path;
	param = &ev->ev.param.req_rcvd;
	param->listen_id = &ev->listen->id;
	param->primary_path = &ev->path;
	param->port = (u8)port->port_num;
	param->qp_type = p->qp_type;
	param->remote_ca_guid = cpu_to_be64(p->remote_ca_guid);
	param->remote_qpn = p->remote_qpn;
	param->remote_qkey = p->remote_qkey;
	param->starting_psn = p->sq_psn;
	param->srq = req->srq;
	param->responder_resources = p->responder_resources;
	param->initiator_depth = p->initiator_depth;
	param->flow_control = req->flow_control;
	param->retry_count = p->retry_count;
	param->rnr_retry_count = p->rnr_retry_count;
	param->local_cm_response_timeout = req->local_cm_response_timeout;
	param->remote_cm_response_timeout = req->remote_cm_response_timeout;
	cm_deliver_passive(p, ev, IB_CM_IN_RECV_REQ, msg);
}

static void cm_recv_sidr_req(struct cm_port *port,
			     const struct rdma_mad_recv *rx,
			     const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_sidr_req_fields *sreq = &msg->sidr_req;
	struct ib_cm_sidr_req_event_param *param;
	struct cm_key key = { .num = sreq->request_id, .ptr = &rx->src_gid };
	struct ib_cm_roce_path path = {};
	struct cm_event_work *ev = NULL;
	struct cm_id_priv *p;

	cm_path_from_rx(port, rx, &path);
	cm_reply_gid(port, &rx->src_gid, &path);
	path.pkey = sreq->pkey;
	mutex_lock(&cm.lock);
	if (cm_find(CM_TBL_SIDR, &key)) {
		mutex_unlock(&cm.lock);
		return;	/* the first is still pending */
	}
	p = cm_new_passive(port, sreq->service_id, IB_CM_IN_RECV_SIDR_REQ, rx,
			   msg, &path, &ev);
	if (!p)
		return;
	p->service_id = sreq->service_id;
	p->id.service_id = cpu_to_be64(sreq->service_id);
	p->remote_id = sreq->request_id;
	p->id.remote_id = cpu_to_be32(sreq->request_id);
	p->sidr_tid = msg->tid;
	mutex_lock(&cm.lock);
	cm_table_add(p, CM_TBL_SIDR);
	mutex_unlock(&cm.lock);

	ev->path = p->path;
	param = &ev->ev.param.sidr_req_rcvd;
	param->listen_id = &ev->listen->id;
	param->path = &ev->path;
	param->service_id = p->id.service_id;
	param->pkey = sreq->pkey;
	param->port = (u8)port->port_num;
	cm_deliver_passive(p, ev, IB_CM_IN_RECV_SIDR_REQ, msg);
}

/* what a REP tells the active ID, before the machine takes it */
static void cm_take_rep(struct cm_id_priv *p,
			const struct ib_cm_rep_fields *rep)
{
	cm_take_peer(p, rep->local_comm_id, rep->local_ca_guid,
		     rep->local_qpn, rep->local_qkey, rep->starting_psn);
	p->responder_resources = rep->initiator_depth;
	p->initiator_depth = rep->responder_resources;
	p->rnr_retry_count = rep->rnr_retry_count;
	p->path_timeout = ib_cm_ack_timeout(rep->target_ack_delay,
					    p->path_timeout ?
					    p->path_timeout - 1 : 0);
}

static void cm_rep_event(struct cm_event_work *ev,
			 const struct ib_cm_rep_fields *rep)
{
	const struct ib_cm_rep_event_param param = {
		.remote_qpn = rep->local_qpn,
		.remote_qkey = rep->local_qkey,
		.starting_psn = rep->starting_psn,
		.remote_ca_guid = cpu_to_be64(rep->local_ca_guid),
		.srq = rep->srq,
		.flow_control = rep->flow_control,
		.rnr_retry_count = rep->rnr_retry_count,
		.responder_resources = rep->initiator_depth,
		.initiator_depth = rep->responder_resources,
		.target_ack_delay = rep->target_ack_delay,
		.failover_accepted = rep->failover_accepted,
	};

	ev->ev.param.rep_rcvd = param;
	memcpy(ev->priv, rep->private_data, IB_CM_WIRE_REP_PRIV_LEN);
	ev->ev.private_data = ev->priv;
}

/* REP: duplicate and stale lookups before the machine is asked */
static void cm_recv_rep(struct cm_port *port, const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_rep_fields *rep = &msg->rep;
	struct cm_key key = {
		.num = rep->local_comm_id,
		.guid = rep->local_ca_guid,
	};
	struct cm_id_priv *p, *dup, *stale = NULL;
	struct cm_event_work *ev;

	p = cm_find_local(rep->remote_comm_id);
	if (!p)
		return;
	mutex_lock(&cm.lock);
	dup = cm_find(CM_TBL_REMOTE_ID, &key);
	if (dup) {
		cm_id_get(dup);
	} else {
		key.num = rep->local_qpn;
		stale = cm_find(CM_TBL_REMOTE_QPN, &key);
		if (stale)
			cm_id_get(stale);
	}
	mutex_unlock(&cm.lock);

	if (dup) {
		cm_step_found(dup, IB_CM_IN_DUP_REP, msg);
		goto out;
	}
	if (stale) {
		mutex_lock(&p->mutex);
		cm_step(p, IB_CM_IN_STALE_REP, NULL, NULL, msg);
		mutex_unlock(&p->mutex);
		cm_step_found(stale, IB_CM_IN_SEND_DREQ, NULL);
		goto out;
	}

	ev = cm_alloc_ev();
	if (ev)
		cm_rep_event(ev, rep);
	mutex_lock(&p->mutex);
	if (p->state == IB_CM_REQ_SENT || p->state == IB_CM_MRA_REQ_RCVD) {
		/* the keys change: out of the trees (an ID reused) and in */
		mutex_lock(&cm.lock);
		cm_table_del(p, CM_TBL_REMOTE_ID);
		cm_table_del(p, CM_TBL_REMOTE_QPN);
		cm_take_rep(p, rep);
		cm_enter_remote_tables(p);
		mutex_unlock(&cm.lock);
	}
	cm_step(p, IB_CM_IN_RECV_REP, NULL, ev, msg);
	mutex_unlock(&p->mutex);
out:
	cm_id_put(p);
}

/* the machine's input for a message that names its ID by comm ID */
static enum ib_cm_sm_input cm_other_input(const struct ib_cm_wire_msg *msg)
{
	switch (msg->attr_id) {
	case IB_CM_WIRE_ATTR_MRA:
		if (msg->mra.msg_mraed == IB_CM_WIRE_MSG_REQ)
			return IB_CM_IN_RECV_MRA_REQ;
		return msg->mra.msg_mraed == IB_CM_WIRE_MSG_REP ?
		       IB_CM_IN_RECV_MRA_REP : IB_CM_IN_RECV_MRA_OTHER;
	case IB_CM_WIRE_ATTR_REJ:
		return msg->rej.reason == IB_CM_WIRE_REJ_STALE_CONN ?
		       IB_CM_IN_RECV_REJ_STALE : IB_CM_IN_RECV_REJ;
	case IB_CM_WIRE_ATTR_RTU:
		return IB_CM_IN_RECV_RTU;
	case IB_CM_WIRE_ATTR_DREQ:
		return IB_CM_IN_RECV_DREQ;
	case IB_CM_WIRE_ATTR_DREP:
		return IB_CM_IN_RECV_DREP;
	default:
		return IB_CM_IN_RECV_SIDR_REP;
	}
}

/* the event's own part: REJ reason and ARI, MRA time, SIDR_REP answer */
static void cm_other_event(struct cm_event_work *ev,
			   const struct ib_cm_wire_msg *msg)
{
	struct ib_cm_sidr_rep_event_param *sp = &ev->ev.param.sidr_rep_rcvd;
	struct ib_cm_rej_event_param *rej = &ev->ev.param.rej_rcvd;

	switch (msg->attr_id) {
	case IB_CM_WIRE_ATTR_REJ:
		memcpy(ev->info, msg->rej.ari, IB_CM_WIRE_INFO_LEN);
		rej->ari = ev->info;
		rej->ari_length = msg->rej.ari_length;
		rej->reason = (enum ib_cm_rej_reason)msg->rej.reason;
		break;
	case IB_CM_WIRE_ATTR_MRA:
		ev->ev.param.mra_rcvd.service_timeout = msg->mra.service_timeout;
		break;
	case IB_CM_WIRE_ATTR_SIDR_REP:
		memcpy(ev->info, msg->sidr_rep.info, IB_CM_WIRE_INFO_LEN);
		sp->status = (enum ib_cm_sidr_status)msg->sidr_rep.status;
		sp->qpn = msg->sidr_rep.qpn;
		sp->qkey = msg->sidr_rep.qkey;
		sp->info = ev->info;
		sp->info_len = msg->sidr_rep.info_length;
		break;
	}
}

/*
 * Every other message names our ID by the receiver's comm ID it
 * carries, and the peer by the sender's: that one must be the peer we
 * know, but for an MRA or REJ of our REQ, which comes before we know it.
 */
static void cm_recv_other(struct cm_port *port, const struct rdma_mad_recv *rx,
			  const struct ib_cm_wire_msg *msg)
{
	const struct cm_msg_layout *l = cm_msg_layout(msg->attr_id);
	enum ib_cm_sm_input in = cm_other_input(msg);
	struct cm_event_work *ev;
	struct cm_id_priv *p;
	bool check_sender;

	if (!l || l->receiver_off == CM_NO_OFF)
		return;
	check_sender = l->sender_off != CM_NO_OFF &&
		       in != IB_CM_IN_RECV_MRA_REQ;
	if (msg->attr_id == IB_CM_WIRE_ATTR_REJ &&
	    msg->rej.msg_rejected == IB_CM_WIRE_MSG_REQ)
		check_sender = false;
	p = cm_find_local(cm_msg_get32(msg, l->receiver_off));
	if (!p) {
		cm_send_orphan(port, rx, msg, ib_cm_sm_orphan_tx(in));
		return;
	}
	ev = cm_alloc_ev();
	mutex_lock(&p->mutex);
	if (check_sender && p->remote_id != cm_msg_get32(msg, l->sender_off))
		goto out_unlock;
	if (in == IB_CM_IN_RECV_DREQ) {
		if (msg->dreq.remote_qpn_eecn != p->local_qpn)
			goto out_unlock;
		p->dreq_tid = msg->tid;
	}
	if (ev) {
		memcpy(ev->priv, (const u8 *)msg + l->priv_off, l->priv_len);
		ev->ev.private_data = ev->priv;
		cm_other_event(ev, msg);
	}
	cm_step(p, in, NULL, ev, msg);
	ev = NULL;
out_unlock:
	mutex_unlock(&p->mutex);
	kfree(ev);
	cm_id_put(p);
}

static void cm_recv_handler(struct rdma_mad_agent *agent,
			    const struct rdma_mad_recv *rx)
{
	struct cm_port *port = (struct cm_port *)rdma_mad_agent_context(agent);
	struct ib_cm_wire_msg *msg;
	enum ib_cm_wire_why why;

	msg = (struct ib_cm_wire_msg *)kzalloc(sizeof(*msg), GFP_KERNEL);
	if (!msg)
		return;
	if (ib_cm_wire_decode(rx->mad, IB_MAD_WIRE_SIZE, msg, &why)) {
		cm_reject_malformed(port, rx, msg, why);
		goto out;
	}
	switch (msg->attr_id) {
	case IB_CM_WIRE_ATTR_REQ:
		cm_recv_req(port, rx, msg);
		break;
	case IB_CM_WIRE_ATTR_SIDR_REQ:
		cm_recv_sidr_req(port, rx, msg);
		break;
	case IB_CM_WIRE_ATTR_REP:
		cm_recv_rep(port, msg);
		break;
	default:
		cm_recv_other(port, rx, msg);
		break;
	}
out:
	kfree(msg);
}

const struct rdma_mad_agent_ops cm_agent_ops = {
	.recv_handler = cm_recv_handler,
	.send_handler = cm_send_handler,
};

