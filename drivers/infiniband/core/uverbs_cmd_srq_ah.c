// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs commands of shared receive queues and address handles:
 * CREATE_SRQ, MODIFY_SRQ, QUERY_SRQ, DESTROY_SRQ, CREATE_AH, DESTROY_AH.
 *
 * SRQ events (SRQ_ERR, SRQ_LIMIT_REACHED) go to the context's async file
 * with the SRQ's user_handle; DESTROY_SRQ reports how many were read.  An
 * AH on RoCE needs a GRH with a RoCEv2 source GID; core checks that and
 * resolves the destination MAC (rdma_create_user_ah).
 */
#include <linux/string.h>

#include "uverbs.h"

int uverbs_cmd_create_srq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_create_srq *cmd =
		(const struct ib_uverbs_create_srq *)ctx->req;
	struct ib_uverbs_create_srq_resp resp = {};
	struct ib_srq_init_attr init = {};
	struct uverbs_dev_limits lim;
	struct uverbs_create c;
	struct ib_srq *srq;
	int ret;

	uverbs_dev_limits(ctx->ib_dev, &lim);
	ret = uverbs_check_create_srq(cmd->max_wr, cmd->max_sge, &lim);
	if (!ret)
		ret = uverbs_create_begin(ctx, UVERBS_OBJ_SRQ, cmd->user_handle,
					  &cmd->pd_handle, &c);
	if (ret)
		return ret;
	init.event_handler = uverbs_obj_event_handler;
	init.srq_context = c.uobj;
	init.attr.max_wr = cmd->max_wr;
	init.attr.max_sge = cmd->max_sge;
	init.attr.srq_limit = cmd->srq_limit;
	init.srq_type = IB_SRQT_BASIC;
	srq = ib_create_srq_udata(c.pd, ctx->ucontext->ib_uctx, &init, &c.udata);
	/* what the SRQ really has */
	resp.srq_handle = c.uobj->handle;
	resp.max_wr = init.attr.max_wr;
	resp.max_sge = init.attr.max_sge;
	return uverbs_create_end(ctx, &c, srq, &resp, sizeof(resp));
}

int uverbs_cmd_modify_srq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_modify_srq *cmd =
		(const struct ib_uverbs_modify_srq *)ctx->req;
	struct ib_srq_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_udata udata;
	struct ib_srq *srq;
	int ret;

	ret = uverbs_check_modify_srq(cmd->attr_mask);
	if (ret)
		return ret;
	srq = (struct ib_srq *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_SRQ,
					      cmd->srq_handle, &uobj);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	attr.max_wr = cmd->max_wr;
	attr.srq_limit = cmd->srq_limit;
	/* rxe: its request holds where to write the resized ring's mminfo */
	uverbs_init_udata(ctx, &udata);
	ret = ib_modify_srq_user(srq, &attr, (enum ib_srq_attr_mask)cmd->attr_mask,
				 &udata);
	uverbs_uobj_put(uobj);
	return ret;
}

int uverbs_cmd_query_srq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_query_srq *cmd =
		(const struct ib_uverbs_query_srq *)ctx->req;
	struct ib_uverbs_query_srq_resp resp = {};
	struct ib_srq_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret;

	srq = (struct ib_srq *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_SRQ,
					      cmd->srq_handle, &uobj);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	ret = ib_query_srq(srq, &attr);
	uverbs_uobj_put(uobj);
	if (ret)
		return ret;
	resp.max_wr = attr.max_wr;
	resp.max_sge = attr.max_sge;
	resp.srq_limit = attr.srq_limit;
	return uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

int uverbs_cmd_destroy_srq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_destroy_srq *cmd =
		(const struct ib_uverbs_destroy_srq *)ctx->req;
	struct ib_uverbs_destroy_srq_resp resp = {};
	int ret;

	ret = uverbs_destroy_counted(ctx, UVERBS_OBJ_SRQ, cmd->srq_handle, NULL,
				     &resp.events_reported);
	return ret ? ret : uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

int uverbs_cmd_create_ah(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_create_ah *cmd =
		(const struct ib_uverbs_create_ah *)ctx->req;
	const struct ib_uverbs_ah_attr *a = &cmd->attr;
	struct ib_uverbs_create_ah_resp resp = {};
	struct ib_uverbs_qp_dest dest = {
		.flow_label = a->grh.flow_label,
		.dlid = a->dlid,
		.sgid_index = a->grh.sgid_index,
		.hop_limit = a->grh.hop_limit,
		.traffic_class = a->grh.traffic_class,
		.sl = a->sl,
		.src_path_bits = a->src_path_bits,
		.static_rate = a->static_rate,
		.is_global = a->is_global,
		.port_num = a->port_num,
	};
	struct rdma_ah_attr ah_attr;
	struct uverbs_dev_limits lim;
	struct uverbs_create c;
	struct ib_ah *ah;
	int ret;

	uverbs_dev_limits(ctx->ib_dev, &lim);
	ret = uverbs_check_ah_attr(a, &lim);
	if (!ret)
		ret = uverbs_create_begin(ctx, UVERBS_OBJ_AH, cmd->user_handle,
					  &cmd->pd_handle, &c);
	if (ret)
		return ret;
	memcpy(dest.dgid, a->grh.dgid, sizeof(dest.dgid));
	uverbs_ah_attr_from_user(ctx->ib_dev, &ah_attr, &dest);
	ah = rdma_create_user_ah(c.pd, &ah_attr, &c.udata);
	resp.ah_handle = c.uobj->handle;
	return uverbs_create_end(ctx, &c, ah, &resp, sizeof(resp));
}

int uverbs_cmd_destroy_ah(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_destroy_ah *cmd =
		(const struct ib_uverbs_destroy_ah *)ctx->req;

	return uverbs_destroy_handle(ctx, UVERBS_OBJ_AH, cmd->ah_handle);
}
