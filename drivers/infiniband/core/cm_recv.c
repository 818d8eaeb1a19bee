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
	ret = rdma_find_gid(port->cm_dev->ib_dev, &g, IB_GID_TYPE_ROCE_UDP_ENCAP,
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

static void cm_recv_req(struct cm_port *port, const struct rdma_mad_recv *rx,
			const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_req_fields *req = &msg->req;
	struct cm_id_priv *listen, *dup, *stale, *p;
	struct ib_cm_req_event_param *param;
	struct ib_cm_roce_path path = {};
	struct ib_cm_sm_action act;
	struct cm_event_work *ev;

	cm_path_from_rx(port, rx, &path);
	if (cm_local_gid(port, req->primary.remote_gid, &path))
		return;	/* not addressed to a GID of ours: dropped */

	mutex_lock(&cm.lock);
	dup = cm_find_remote_id(req->local_comm_id, req->local_ca_guid);
	if (dup) {
		cm_id_get(dup);
		mutex_unlock(&cm.lock);
		mutex_lock(&dup->mutex);
		cm_step(dup, IB_CM_IN_DUP_REQ, NULL, NULL, msg);
		mutex_unlock(&dup->mutex);
		cm_id_put(dup);
		return;
	}
	stale = cm_find_remote_qpn(req->local_qpn, req->local_ca_guid);
	if (stale) {
		cm_id_get(stale);
		mutex_unlock(&cm.lock);
		cm_send_orphan(port, rx, msg, IB_CM_TX_REJ_STALE);
		mutex_lock(&stale->mutex);
		cm_step(stale, IB_CM_IN_SEND_DREQ, NULL, NULL, NULL);
		mutex_unlock(&stale->mutex);
		cm_id_put(stale);
		return;
	}
	listen = cm_find_listen(port->cm_dev, req->service_id);
	if (!listen || ib_cm_sm_step(IB_CM_LISTEN, IB_CM_IN_RECV_REQ, &act) !=
	    IB_CM_SM_GO || !(act.work & IB_CM_DO_NEW_ID)) {
		mutex_unlock(&cm.lock);
		cm_send_orphan(port, rx, msg,
			       ib_cm_sm_orphan_tx(IB_CM_IN_RECV_REQ));
		return;
	}
	cm_id_get(listen);
	mutex_unlock(&cm.lock);

	ev = cm_alloc_ev();
	if (!ev)
		goto err_put;
	p = cm_alloc_id(port->cm_dev, listen->id.cm_handler, listen->id.context);
	if (IS_ERR(p))
		goto err_put;
	/* the listener's reference goes with the event */
	ev->listen = listen;

	mutex_lock(&p->mutex);
	p->port = port;
	p->path = path;
	p->path.mtu = (enum ib_mtu)req->mtu;
	p->path.pkey = req->pkey;
	p->path.flow_label = req->primary.flow_label;
	p->path.traffic_class = req->primary.traffic_class;
	p->path.hop_limit = req->primary.hop_limit;
	p->path.packet_life_time =
		ib_cm_req_packet_life_time(req->primary.local_ack_timeout);
	p->path_timeout = p->path.packet_life_time + 1 > IB_CM_TIME_EXP_MAX ?
			  IB_CM_TIME_EXP_MAX : p->path.packet_life_time + 1;
	p->service_id = req->service_id;
	p->id.service_id = cpu_to_be64(req->service_id);
	p->remote_id = req->local_comm_id;
	p->id.remote_id = cpu_to_be32(req->local_comm_id);
	p->remote_ca_guid = req->local_ca_guid;
	p->remote_qpn = req->local_qpn;
	p->remote_qkey = req->local_qkey;
	p->sq_psn = req->starting_psn;
	p->qp_type = req->transport_type == IB_CM_WIRE_TRANSPORT_UC ?
		     IB_QPT_UC : IB_QPT_RC;
	p->responder_resources = req->initiator_depth;
	p->initiator_depth = req->responder_resources;
	p->retry_count = req->retry_count;
	p->rnr_retry_count = req->rnr_retry_count;
	p->max_cm_retries = req->max_cm_retries;
	p->timeout_ms = ib_cm_time_ms(req->local_cm_response_timeout);
	p->req_tid = msg->tid;

	mutex_lock(&cm.lock);
	cm_enter_remote_tables(p);
	mutex_unlock(&cm.lock);

	ev->path = p->path;
	param = &ev->ev.param.req_rcvd;
	param->listen_id = &listen->id;
	param->port = (u8)port->port_num;
	param->primary_path = &ev->path;
	param->remote_ca_guid = cpu_to_be64(req->local_ca_guid);
	param->remote_qkey = req->local_qkey;
	param->remote_qpn = req->local_qpn;
	param->qp_type = p->qp_type;
	param->starting_psn = req->starting_psn;
	param->responder_resources = p->responder_resources;
	param->initiator_depth = p->initiator_depth;
	param->local_cm_response_timeout = req->local_cm_response_timeout;
	param->flow_control = req->flow_control;
	param->remote_cm_response_timeout = req->remote_cm_response_timeout;
	param->retry_count = req->retry_count;
	param->rnr_retry_count = req->rnr_retry_count;
	param->srq = req->srq;
	memcpy(ev->priv, req->private_data, IB_CM_WIRE_REQ_PRIV_LEN);
	ev->ev.private_data = ev->priv;
	cm_step(p, IB_CM_IN_RECV_REQ, NULL, ev, msg);
	mutex_unlock(&p->mutex);
	return;

err_put:
	kfree(ev);
	cm_id_put(listen);
}

static void cm_recv_sidr_req(struct cm_port *port,
			     const struct rdma_mad_recv *rx,
			     const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_sidr_req_fields *sreq = &msg->sidr_req;
	struct ib_cm_sidr_req_event_param *param;
	struct ib_cm_roce_path path = {};
	struct cm_id_priv *listen, *p;
	struct cm_event_work *ev;

	cm_path_from_rx(port, rx, &path);
	mutex_lock(&cm.lock);
	if (cm_find_sidr(sreq->request_id, &rx->src_gid)) {
		mutex_unlock(&cm.lock);
		return;	/* the first is still pending */
	}
	listen = cm_find_listen(port->cm_dev, sreq->service_id);
	if (!listen) {
		mutex_unlock(&cm.lock);
		cm_send_orphan(port, rx, msg,
			       ib_cm_sm_orphan_tx(IB_CM_IN_RECV_SIDR_REQ));
		return;
	}
	cm_id_get(listen);
	mutex_unlock(&cm.lock);

	ev = cm_alloc_ev();
	if (!ev)
		goto err_put;
	p = cm_alloc_id(port->cm_dev, listen->id.cm_handler, listen->id.context);
	if (IS_ERR(p))
		goto err_put;
	ev->listen = listen;

	mutex_lock(&p->mutex);
	p->port = port;
	p->path = path;
	cm_reply_gid(port, &rx->src_gid, &p->path);
	p->path.pkey = sreq->pkey;
	p->service_id = sreq->service_id;
	p->id.service_id = cpu_to_be64(sreq->service_id);
	p->remote_id = sreq->request_id;
	p->id.remote_id = cpu_to_be32(sreq->request_id);
	p->sidr_tid = msg->tid;
	mutex_lock(&cm.lock);
	list_add_tail(&p->sidr_node, &cm.sidr_list);
	mutex_unlock(&cm.lock);

	ev->path = p->path;
	param = &ev->ev.param.sidr_req_rcvd;
	param->listen_id = &listen->id;
	param->service_id = cpu_to_be64(sreq->service_id);
	param->path = &ev->path;
	param->port = (u8)port->port_num;
	param->pkey = sreq->pkey;
	memcpy(ev->priv, sreq->private_data, IB_CM_WIRE_SIDR_REQ_PRIV_LEN);
	ev->ev.private_data = ev->priv;
	cm_step(p, IB_CM_IN_RECV_SIDR_REQ, NULL, ev, msg);
	mutex_unlock(&p->mutex);
	return;

err_put:
	kfree(ev);
	cm_id_put(listen);
}

/* REP: duplicate and stale lookups before the machine is asked */
static void cm_recv_rep(struct cm_port *port, const struct ib_cm_wire_msg *msg)
{
	const struct ib_cm_rep_fields *rep = &msg->rep;
	struct cm_id_priv *p, *dup, *stale;
	struct ib_cm_rep_event_param *param;
	struct cm_event_work *ev;

	p = cm_find_local(rep->remote_comm_id);
	if (!p)
		return;
	mutex_lock(&cm.lock);
	dup = cm_find_remote_id(rep->local_comm_id, rep->local_ca_guid);
	if (dup)
		cm_id_get(dup);
	stale = dup ? NULL : cm_find_remote_qpn(rep->local_qpn,
						rep->local_ca_guid);
	if (stale)
		cm_id_get(stale);
	mutex_unlock(&cm.lock);

	if (dup) {
		mutex_lock(&dup->mutex);
		cm_step(dup, IB_CM_IN_DUP_REP, NULL, NULL, msg);
		mutex_unlock(&dup->mutex);
		cm_id_put(dup);
		goto out;
	}
	if (stale) {
		mutex_lock(&p->mutex);
		cm_step(p, IB_CM_IN_STALE_REP, NULL, NULL, msg);
		mutex_unlock(&p->mutex);
		mutex_lock(&stale->mutex);
		cm_step(stale, IB_CM_IN_SEND_DREQ, NULL, NULL, NULL);
		mutex_unlock(&stale->mutex);
		cm_id_put(stale);
		goto out;
	}

	ev = cm_alloc_ev();
	mutex_lock(&p->mutex);
	if (p->state == IB_CM_REQ_SENT || p->state == IB_CM_MRA_REQ_RCVD) {
		p->remote_id = rep->local_comm_id;
		p->id.remote_id = cpu_to_be32(rep->local_comm_id);
		p->remote_ca_guid = rep->local_ca_guid;
		p->remote_qpn = rep->local_qpn;
		p->remote_qkey = rep->local_qkey;
		p->sq_psn = rep->starting_psn;
		p->responder_resources = rep->initiator_depth;
		p->initiator_depth = rep->responder_resources;
		p->rnr_retry_count = rep->rnr_retry_count;
		p->path_timeout = ib_cm_ack_timeout(rep->target_ack_delay,
						    p->path_timeout ?
						    p->path_timeout - 1 : 0);
		mutex_lock(&cm.lock);
		cm_enter_remote_tables(p);
		mutex_unlock(&cm.lock);
	}
	if (ev) {
		param = &ev->ev.param.rep_rcvd;
		param->remote_ca_guid = cpu_to_be64(rep->local_ca_guid);
		param->remote_qkey = rep->local_qkey;
		param->remote_qpn = rep->local_qpn;
		param->starting_psn = rep->starting_psn;
		param->responder_resources = rep->initiator_depth;
		param->initiator_depth = rep->responder_resources;
		param->target_ack_delay = rep->target_ack_delay;
		param->failover_accepted = rep->failover_accepted;
		param->flow_control = rep->flow_control;
		param->rnr_retry_count = rep->rnr_retry_count;
		param->srq = rep->srq;
		memcpy(ev->priv, rep->private_data, IB_CM_WIRE_REP_PRIV_LEN);
		ev->ev.private_data = ev->priv;
	}
	cm_step(p, IB_CM_IN_RECV_REP, NULL, ev, msg);
	mutex_unlock(&p->mutex);
out:
	cm_id_put(p);
}

/* every other message names our ID by the remote comm ID it carries */
static void cm_recv_other(struct cm_port *port, const struct rdma_mad_recv *rx,
			  const struct ib_cm_wire_msg *msg)
{
	enum ib_cm_sm_input in;
	struct cm_event_work *ev;
	struct cm_id_priv *p;
	u32 ours, theirs;
	bool check_theirs = true;
	const void *priv;
	u32 priv_len;

	switch (msg->attr_id) {
	case IB_CM_WIRE_ATTR_MRA:
		ours = msg->mra.remote_comm_id;
		theirs = msg->mra.local_comm_id;
		in = msg->mra.msg_mraed == IB_CM_WIRE_MSG_REQ ?
		     IB_CM_IN_RECV_MRA_REQ :
		     msg->mra.msg_mraed == IB_CM_WIRE_MSG_REP ?
		     IB_CM_IN_RECV_MRA_REP : IB_CM_IN_RECV_MRA_OTHER;
		/* the MRA of a REQ comes before we know the peer's ID */
		check_theirs = in != IB_CM_IN_RECV_MRA_REQ;
		priv = msg->mra.private_data;
		priv_len = IB_CM_WIRE_MRA_PRIV_LEN;
		break;
	case IB_CM_WIRE_ATTR_REJ:
		ours = msg->rej.remote_comm_id;
		theirs = msg->rej.local_comm_id;
		in = msg->rej.reason == IB_CM_WIRE_REJ_STALE_CONN ?
		     IB_CM_IN_RECV_REJ_STALE : IB_CM_IN_RECV_REJ;
		check_theirs = msg->rej.msg_rejected != IB_CM_WIRE_MSG_REQ;
		priv = msg->rej.private_data;
		priv_len = IB_CM_WIRE_REJ_PRIV_LEN;
		break;
	case IB_CM_WIRE_ATTR_RTU:
		ours = msg->rtu.remote_comm_id;
		theirs = msg->rtu.local_comm_id;
		in = IB_CM_IN_RECV_RTU;
		priv = msg->rtu.private_data;
		priv_len = IB_CM_WIRE_RTU_PRIV_LEN;
		break;
	case IB_CM_WIRE_ATTR_DREQ:
		ours = msg->dreq.remote_comm_id;
		theirs = msg->dreq.local_comm_id;
		in = IB_CM_IN_RECV_DREQ;
		priv = msg->dreq.private_data;
		priv_len = IB_CM_WIRE_DREQ_PRIV_LEN;
		break;
	case IB_CM_WIRE_ATTR_DREP:
		ours = msg->drep.remote_comm_id;
		theirs = msg->drep.local_comm_id;
		in = IB_CM_IN_RECV_DREP;
		priv = msg->drep.private_data;
		priv_len = IB_CM_WIRE_DREP_PRIV_LEN;
		break;
	case IB_CM_WIRE_ATTR_SIDR_REP:
		ours = msg->sidr_rep.request_id;
		theirs = 0;
		check_theirs = false;
		in = IB_CM_IN_RECV_SIDR_REP;
		priv = msg->sidr_rep.private_data;
		priv_len = IB_CM_WIRE_SIDR_REP_PRIV_LEN;
		break;
	default:
		return;
	}

	p = cm_find_local(ours);
	if (!p) {
		cm_send_orphan(port, rx, msg, ib_cm_sm_orphan_tx(in));
		return;
	}
	ev = cm_alloc_ev();
	mutex_lock(&p->mutex);
	if (check_theirs && p->remote_id != theirs)
		goto out_unlock;
	if (in == IB_CM_IN_RECV_DREQ) {
		if (msg->dreq.remote_qpn_eecn != p->local_qpn)
			goto out_unlock;
		p->dreq_tid = msg->tid;
	}
	if (ev) {
		memcpy(ev->priv, priv, priv_len);
		ev->ev.private_data = ev->priv;
		if (msg->attr_id == IB_CM_WIRE_ATTR_REJ) {
			ev->ev.param.rej_rcvd.reason =
				(enum ib_cm_rej_reason)msg->rej.reason;
			memcpy(ev->info, msg->rej.ari, IB_CM_WIRE_INFO_LEN);
			ev->ev.param.rej_rcvd.ari = ev->info;
			ev->ev.param.rej_rcvd.ari_length = msg->rej.ari_length;
		} else if (msg->attr_id == IB_CM_WIRE_ATTR_MRA) {
			ev->ev.param.mra_rcvd.service_timeout =
				msg->mra.service_timeout;
		} else if (msg->attr_id == IB_CM_WIRE_ATTR_SIDR_REP) {
			struct ib_cm_sidr_rep_event_param *sp =
				&ev->ev.param.sidr_rep_rcvd;

			sp->status = (enum ib_cm_sidr_status)msg->sidr_rep.status;
			sp->qkey = msg->sidr_rep.qkey;
			sp->qpn = msg->sidr_rep.qpn;
			memcpy(ev->info, msg->sidr_rep.info, IB_CM_WIRE_INFO_LEN);
			sp->info = ev->info;
			sp->info_len = msg->sidr_rep.info_length;
		}
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

	msg = (struct ib_cm_wire_msg *)kzalloc(sizeof(*msg), GFP_KERNEL);
	if (!msg)
		return;
	if (ib_cm_wire_decode(rx->mad, IB_MAD_WIRE_SIZE, msg, NULL))
		goto out;
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

