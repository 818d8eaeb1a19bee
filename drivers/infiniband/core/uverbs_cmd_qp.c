// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs commands of queue pairs: CREATE_QP (legacy and extended),
 * MODIFY_QP (legacy and extended), QUERY_QP, DESTROY_QP and POST_SEND,
 * which for rxe is only the send queue's doorbell (zero work requests: the
 * WQEs are in the ring user space shares with the driver).
 *
 * Every state change goes through ib_modify_qp_with_udata(), which checks
 * the transition and resolves a RoCE address vector; here only what the
 * request itself says is checked (uverbs_check_modify_qp()).
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "uverbs.h"

/* ---- address vectors ---- */

static bool port_is_roce(struct ib_device *dev, u32 port)
{
	return rdma_port_get_link_layer(dev, port) == IB_LINK_LAYER_ETHERNET;
}

/* @d->port_num has been checked. */
void uverbs_ah_attr_from_user(struct ib_device *dev, struct rdma_ah_attr *ah,
			      const struct ib_uverbs_qp_dest *d)
{
	memset(ah, 0, sizeof(*ah));
	ah->type = port_is_roce(dev, d->port_num) ? RDMA_AH_ATTR_TYPE_ROCE :
						    RDMA_AH_ATTR_TYPE_IB;
	ah->port_num = d->port_num;
	ah->sl = d->sl;
	ah->static_rate = d->static_rate;
	if (ah->type == RDMA_AH_ATTR_TYPE_IB) {
		ah->ib.dlid = d->dlid;
		ah->ib.src_path_bits = d->src_path_bits;
	}
	if (d->is_global) {
		ah->ah_flags = IB_AH_GRH;
		memcpy(ah->grh.dgid.raw, d->dgid, sizeof(ah->grh.dgid.raw));
		ah->grh.flow_label = d->flow_label;
		ah->grh.sgid_index = d->sgid_index;
		ah->grh.hop_limit = d->hop_limit;
		ah->grh.traffic_class = d->traffic_class;
	}
}

static void ah_attr_to_user(const struct rdma_ah_attr *ah,
			    struct ib_uverbs_qp_dest *d)
{
	d->port_num = (u8)ah->port_num;
	d->sl = ah->sl;
	d->static_rate = ah->static_rate;
	if (ah->type == RDMA_AH_ATTR_TYPE_IB) {
		d->dlid = ah->ib.dlid;
		d->src_path_bits = ah->ib.src_path_bits;
	}
	d->is_global = !!(ah->ah_flags & IB_AH_GRH);
	if (d->is_global) {
		memcpy(d->dgid, ah->grh.dgid.raw, sizeof(d->dgid));
		d->flow_label = ah->grh.flow_label;
		d->sgid_index = ah->grh.sgid_index;
		d->hop_limit = ah->grh.hop_limit;
		d->traffic_class = ah->grh.traffic_class;
	}
}

/* ---- CREATE_QP ---- */

/* The CQs and SRQ a new QP is created on (the PD: uverbs_create_begin). */
struct qp_refs {
	struct ib_uobject *send_cq, *recv_cq, *srq;
};

static void put_refs(struct qp_refs *r)
{
	if (r->srq)
		uverbs_uobj_put(r->srq);
	if (r->recv_cq)
		uverbs_uobj_put(r->recv_cq);
	if (r->send_cq)
		uverbs_uobj_put(r->send_cq);
}

static int get_refs(struct uverbs_ucontext *uctx,
		    const struct ib_uverbs_ex_create_qp *cmd,
		    struct ib_qp_init_attr *init, struct qp_refs *r)
{
	init->send_cq = (struct ib_cq *)uverbs_obj_use(uctx, UVERBS_OBJ_CQ,
						       cmd->send_cq_handle,
						       &r->send_cq);
	if (IS_ERR(init->send_cq))
		goto err;
	init->recv_cq = (struct ib_cq *)uverbs_obj_use(uctx, UVERBS_OBJ_CQ,
						       cmd->recv_cq_handle,
						       &r->recv_cq);
	if (IS_ERR(init->recv_cq))
		goto err;
	if (cmd->is_srq) {
		init->srq = (struct ib_srq *)uverbs_obj_use(uctx, UVERBS_OBJ_SRQ,
							    cmd->srq_handle,
							    &r->srq);
		if (IS_ERR(init->srq))
			goto err;
	}
	return 0;
err:
	put_refs(r);
	return -EINVAL;
}

static int create_qp(struct uverbs_cmd_ctx *ctx,
		     const struct ib_uverbs_ex_create_qp *cmd, bool ex)
{
	struct uverbs_ucontext *uctx = ctx->ucontext;
	struct ib_uverbs_ex_create_qp_resp resp = {};
	struct ib_uverbs_qp_cap cap = {
		.max_send_wr = cmd->max_send_wr,
		.max_recv_wr = cmd->max_recv_wr,
		.max_send_sge = cmd->max_send_sge,
		.max_recv_sge = cmd->max_recv_sge,
		.max_inline_data = cmd->max_inline_data,
	};
	struct ib_qp_init_attr init = {};
	struct uverbs_dev_limits lim;
	struct qp_refs refs = {};
	struct uverbs_create c;
	struct ib_qp *qp;
	int ret;

	uverbs_dev_limits(ctx->ib_dev, &lim);
	ret = uverbs_check_create_qp(cmd->qp_type, cmd->is_srq, &cap, &lim);
	if (!ret)
		ret = get_refs(uctx, cmd, &init, &refs);
	if (ret)
		return ret;
	ret = uverbs_create_begin(ctx, UVERBS_OBJ_QP, cmd->user_handle,
				  &cmd->pd_handle, &c);
	if (ret)
		goto out;
	init.event_handler = uverbs_obj_event_handler;
	init.qp_context = c.uobj;
	init.cap.max_send_wr = cap.max_send_wr;
	init.cap.max_recv_wr = cap.max_recv_wr;
	init.cap.max_send_sge = cap.max_send_sge;
	init.cap.max_recv_sge = cap.max_recv_sge;
	init.cap.max_inline_data = cap.max_inline_data;
	init.sq_sig_type = cmd->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init.qp_type = (enum ib_qp_type)cmd->qp_type;
	init.create_flags = cmd->create_flags;
	qp = ib_create_qp_udata(c.pd, uctx->ib_uctx, &init, &c.udata);
	/* what the QP really has: librxe sizes its checks from these */
	resp.base.qp_handle = c.uobj->handle;
	if (!IS_ERR(qp))
		resp.base.qpn = qp->qp_num;
	resp.base.max_send_wr = init.cap.max_send_wr;
	resp.base.max_recv_wr = init.cap.max_recv_wr;
	resp.base.max_send_sge = init.cap.max_send_sge;
	resp.base.max_recv_sge = init.cap.max_recv_sge;
	resp.base.max_inline_data = init.cap.max_inline_data;
	if (ex)
		resp.response_length = uverbs_ex_resp_len(ctx, sizeof(resp));
	ret = uverbs_create_end(ctx, &c, qp, &resp,
				ex ? sizeof(resp) : sizeof(resp.base));
out:
	put_refs(&refs);
	return ret;
}

int uverbs_cmd_create_qp(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_create_qp *cmd =
		(const struct ib_uverbs_create_qp *)ctx->req;
	struct ib_uverbs_ex_create_qp ex = {
		.user_handle = cmd->user_handle,
		.pd_handle = cmd->pd_handle,
		.send_cq_handle = cmd->send_cq_handle,
		.recv_cq_handle = cmd->recv_cq_handle,
		.srq_handle = cmd->srq_handle,
		.max_send_wr = cmd->max_send_wr,
		.max_recv_wr = cmd->max_recv_wr,
		.max_send_sge = cmd->max_send_sge,
		.max_recv_sge = cmd->max_recv_sge,
		.max_inline_data = cmd->max_inline_data,
		.sq_sig_all = cmd->sq_sig_all,
		.qp_type = cmd->qp_type,
		.is_srq = cmd->is_srq,
	};

	return create_qp(ctx, &ex, false);
}

int uverbs_cmd_ex_create_qp(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_ex_create_qp *cmd =
		(const struct ib_uverbs_ex_create_qp *)ctx->req;
	int ret;

	ret = uverbs_check_ex_create_qp(cmd);
	if (ret)
		return ret;
	return create_qp(ctx, cmd, true);
}

/* ---- MODIFY_QP ---- */

/* The attributes @mask names, from the request. */
static void fill_qp_attr(struct ib_device *dev, struct ib_qp_attr *a,
			 const struct ib_uverbs_ex_modify_qp *cmd, u32 mask)
{
	const struct ib_uverbs_modify_qp *b = &cmd->base;

	a->qp_state = (enum ib_qp_state)b->qp_state;
	a->cur_qp_state = (enum ib_qp_state)b->cur_qp_state;
	a->path_mtu = (enum ib_mtu)b->path_mtu;
	a->path_mig_state = (enum ib_mig_state)b->path_mig_state;
	a->qkey = b->qkey;
	a->rq_psn = b->rq_psn;
	a->sq_psn = b->sq_psn;
	a->dest_qp_num = b->dest_qp_num;
	a->qp_access_flags = (int)b->qp_access_flags;
	a->pkey_index = b->pkey_index;
	a->en_sqd_async_notify = b->en_sqd_async_notify;
	a->max_rd_atomic = b->max_rd_atomic;
	a->max_dest_rd_atomic = b->max_dest_rd_atomic;
	a->min_rnr_timer = b->min_rnr_timer;
	a->port_num = b->port_num;
	a->timeout = b->timeout;
	a->retry_cnt = b->retry_cnt;
	a->rnr_retry = b->rnr_retry;
	if (mask & IB_QP_ALT_PATH) {
		a->alt_port_num = b->alt_port_num;
		a->alt_timeout = b->alt_timeout;
		a->alt_pkey_index = b->alt_pkey_index;
		uverbs_ah_attr_from_user(dev, &a->alt_ah_attr, &b->alt_dest);
	}
	if (mask & IB_QP_AV)
		uverbs_ah_attr_from_user(dev, &a->ah_attr, &b->dest);
	a->rate_limit = cmd->rate_limit;
}

static int modify_qp(struct uverbs_cmd_ctx *ctx,
		     struct ib_uverbs_ex_modify_qp *cmd, bool ex)
{
	struct uverbs_dev_limits lim;
	struct ib_uobject *uobj;
	struct ib_qp_attr *attr;
	struct ib_udata udata;
	struct ib_qp *qp;
	u32 mask;
	int ret;

	qp = (struct ib_qp *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_QP,
					    cmd->base.qp_handle, &uobj);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	uverbs_dev_limits(ctx->ib_dev, &lim);
	ret = uverbs_check_modify_qp(&cmd->base, ex, qp->port, &lim, &mask);
	if (ret)
		goto out;
	attr = (struct ib_qp_attr *)kzalloc(sizeof(*attr), GFP_KERNEL_ACCOUNT);
	if (!attr) {
		ret = -ENOMEM;
		goto out;
	}
	fill_qp_attr(ctx->ib_dev, attr, cmd, mask);
	uverbs_init_udata(ctx, &udata);
	ret = ib_modify_qp_with_udata(qp, attr, (int)mask, &udata);
	kfree(attr);
out:
	uverbs_uobj_put(uobj);
	return ret;
}

int uverbs_cmd_modify_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_modify_qp cmd = {};

	memcpy(&cmd.base, ctx->req, sizeof(cmd.base));
	return modify_qp(ctx, &cmd, false);
}

int uverbs_cmd_ex_modify_qp(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_ex_modify_qp_resp resp = {};
	struct ib_uverbs_ex_modify_qp cmd;
	int ret;

	memcpy(&cmd, ctx->req, sizeof(cmd));
	ret = modify_qp(ctx, &cmd, true);
	if (ret)
		return ret;
	resp.response_length = uverbs_ex_resp_len(ctx, sizeof(resp));
	return uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

/* ---- QUERY_QP, DESTROY_QP ---- */

static void fill_query_resp(const struct ib_qp_attr *a,
			    const struct ib_qp_init_attr *init,
			    struct ib_uverbs_query_qp_resp *r)
{
	r->qp_state = (u8)a->qp_state;
	r->cur_qp_state = (u8)a->cur_qp_state;
	r->path_mtu = (u8)a->path_mtu;
	r->path_mig_state = (u8)a->path_mig_state;
	r->qkey = a->qkey;
	r->rq_psn = a->rq_psn;
	r->sq_psn = a->sq_psn;
	r->dest_qp_num = a->dest_qp_num;
	r->qp_access_flags = (u32)a->qp_access_flags;
	r->pkey_index = a->pkey_index;
	r->alt_pkey_index = a->alt_pkey_index;
	r->sq_draining = a->sq_draining;
	r->max_rd_atomic = a->max_rd_atomic;
	r->max_dest_rd_atomic = a->max_dest_rd_atomic;
	r->min_rnr_timer = a->min_rnr_timer;
	r->port_num = (u8)a->port_num;
	r->timeout = a->timeout;
	r->retry_cnt = a->retry_cnt;
	r->rnr_retry = a->rnr_retry;
	r->alt_port_num = (u8)a->alt_port_num;
	r->alt_timeout = a->alt_timeout;
	ah_attr_to_user(&a->ah_attr, &r->dest);
	ah_attr_to_user(&a->alt_ah_attr, &r->alt_dest);
	r->max_send_wr = a->cap.max_send_wr;
	r->max_recv_wr = a->cap.max_recv_wr;
	r->max_send_sge = a->cap.max_send_sge;
	r->max_recv_sge = a->cap.max_recv_sge;
	r->max_inline_data = a->cap.max_inline_data;
	r->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
}

/* Both attribute structures of a query, allocated together. */
struct qp_query {
	struct ib_qp_attr attr;
	struct ib_qp_init_attr init;
	struct ib_uverbs_query_qp_resp resp;
};

int uverbs_cmd_query_qp(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_query_qp *cmd =
		(const struct ib_uverbs_query_qp *)ctx->req;
	struct ib_uobject *uobj;
	struct qp_query *q;
	struct ib_qp *qp;
	int ret;

	/* upstream tells a missing handle (ENOENT) here, as destroys do */
	uobj = uverbs_uobj_get(ctx->ucontext, UVERBS_OBJ_QP, cmd->qp_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = (struct ib_qp *)uobj->object;
	q = (struct qp_query *)kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	if (!q) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ib_query_qp(qp, &q->attr, (int)cmd->attr_mask, &q->init);
	if (!ret) {
		fill_query_resp(&q->attr, &q->init, &q->resp);
		ret = uverbs_copy_resp(ctx, &q->resp, sizeof(q->resp));
	}
	kfree(q);
out:
	uverbs_uobj_put(uobj);
	return ret;
}

int uverbs_cmd_destroy_qp(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_destroy_qp *cmd =
		(const struct ib_uverbs_destroy_qp *)ctx->req;
	struct ib_uverbs_destroy_qp_resp resp = {};
	int ret;

	ret = uverbs_destroy_counted(ctx, UVERBS_OBJ_QP, cmd->qp_handle, NULL,
				     &resp.events_reported);
	return ret ? ret : uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

/* ---- POST_SEND: the doorbell ---- */

int uverbs_cmd_post_send(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_post_send *cmd =
		(const struct ib_uverbs_post_send *)ctx->req;
	struct ib_uverbs_post_send_resp resp = {};
	const struct ib_send_wr *bad = NULL;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret, ret2;

	ret = uverbs_check_post_send(cmd);
	if (ret)
		return ret;
	qp = (struct ib_qp *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_QP,
					    cmd->qp_handle, &uobj);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	if (qp->device->ops.post_send)
		ret = qp->device->ops.post_send(qp, NULL, &bad);
	else
		ret = -EOPNOTSUPP;
	uverbs_uobj_put(uobj);
	/* no work request was in the command: none was bad */
	ret2 = uverbs_copy_resp(ctx, &resp, sizeof(resp));
	return ret ? ret : ret2;
}
