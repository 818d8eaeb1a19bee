// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs commands of completion channels and completion queues:
 * CREATE_COMP_CHANNEL, CREATE_CQ (legacy and extended), RESIZE_CQ,
 * DESTROY_CQ, REQ_NOTIFY_CQ.
 *
 * A CQ created on a channel queues one completion event there per arm
 * (uverbs_comp_handler); its async events (CQ_ERR) go to the context's
 * async file.  DESTROY_CQ reports how many of each user space read, which
 * libibverbs waits to have acknowledged before it returns.
 */
#include <linux/file.h>
#include <linux/fs.h>

#include "uverbs.h"

int uverbs_cmd_create_comp_channel(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct uverbs_comp_file *comp;
	struct file *filp;
	int fd, ret;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	filp = uverbs_comp_file_create(ctx->ucontext, &comp);
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		return PTR_ERR(filp);
	}
	resp.fd = (u32)fd;
	ret = uverbs_copy_resp(ctx, &resp, sizeof(resp));
	if (ret) {
		/* the channel stays listed in the context, closed, until teardown */
		fput(filp);
		put_unused_fd(fd);
		return ret;
	}
	fd_install(fd, filp);
	return 0;
}

/* CREATE_CQ of both kinds, the legacy request widened to the extended one. */
static int create_cq(struct uverbs_cmd_ctx *ctx,
		     const struct ib_uverbs_ex_create_cq *cmd, bool ex)
{
	struct uverbs_ucontext *uctx = ctx->ucontext;
	struct ib_uverbs_ex_create_cq_resp resp = {};
	struct ib_cq_init_attr attr = {};
	struct uverbs_dev_limits lim;
	struct uverbs_create c;
	struct ib_cq *cq;
	int ret;

	uverbs_dev_limits(ctx->ib_dev, &lim);
	ret = uverbs_check_create_cq(cmd->cqe, cmd->comp_vector, &lim);
	if (!ret)
		ret = uverbs_create_begin(ctx, UVERBS_OBJ_CQ, cmd->user_handle,
					  NULL, &c);
	if (ret)
		return ret;
	if (cmd->comp_channel >= 0) {
		c.uobj->comp = uverbs_comp_file_get(uctx, cmd->comp_channel);
		if (IS_ERR(c.uobj->comp)) {
			ret = PTR_ERR(c.uobj->comp);
			c.uobj->comp = NULL;
			return uverbs_create_end(ctx, &c, ERR_PTR(ret), NULL, 0);
		}
	}
	attr.cqe = cmd->cqe;
	attr.comp_vector = cmd->comp_vector;
	attr.flags = cmd->flags;
	cq = ib_create_cq_user(ctx->ib_dev, uctx->ib_uctx, &attr,
			       uverbs_comp_handler, uverbs_obj_event_handler,
			       c.uobj, &c.udata);
	resp.base.cq_handle = c.uobj->handle;
	if (!IS_ERR(cq))
		resp.base.cqe = (u32)cq->cqe;
	if (ex)
		resp.response_length = uverbs_ex_resp_len(ctx, sizeof(resp));
	return uverbs_create_end(ctx, &c, cq, &resp,
				 ex ? sizeof(resp) : sizeof(resp.base));
}

int uverbs_cmd_create_cq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_create_cq *cmd =
		(const struct ib_uverbs_create_cq *)ctx->req;
	struct ib_uverbs_ex_create_cq ex = {
		.user_handle = cmd->user_handle,
		.cqe = cmd->cqe,
		.comp_vector = cmd->comp_vector,
		.comp_channel = cmd->comp_channel,
	};

	return create_cq(ctx, &ex, false);
}

int uverbs_cmd_ex_create_cq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_ex_create_cq *cmd =
		(const struct ib_uverbs_ex_create_cq *)ctx->req;
	int ret;

	ret = uverbs_check_ex_create_cq(cmd);
	if (ret)
		return ret;
	return create_cq(ctx, cmd, true);
}

int uverbs_cmd_resize_cq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_resize_cq *cmd =
		(const struct ib_uverbs_resize_cq *)ctx->req;
	struct ib_uverbs_resize_cq_resp resp = {};
	struct uverbs_dev_limits lim;
	struct ib_uobject *uobj;
	struct ib_udata udata;
	struct ib_cq *cq;
	int ret;

	uverbs_dev_limits(ctx->ib_dev, &lim);
	ret = uverbs_check_create_cq(cmd->cqe, 0, &lim);
	if (ret)
		return ret;
	cq = (struct ib_cq *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_CQ,
					    cmd->cq_handle, &uobj);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	uverbs_init_udata(ctx, &udata);
	ret = ib_resize_cq_user(cq, (int)cmd->cqe, &udata);
	if (!ret) {
		resp.cqe = (u32)cq->cqe;
		ret = uverbs_copy_resp(ctx, &resp, sizeof(resp));
	}
	uverbs_uobj_put(uobj);
	return ret;
}

int uverbs_cmd_destroy_cq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_destroy_cq *cmd =
		(const struct ib_uverbs_destroy_cq *)ctx->req;
	struct ib_uverbs_destroy_cq_resp resp = {};
	int ret;

	ret = uverbs_destroy_counted(ctx, UVERBS_OBJ_CQ, cmd->cq_handle,
				     &resp.comp_events_reported,
				     &resp.async_events_reported);
	return ret ? ret : uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

int uverbs_cmd_req_notify_cq(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_req_notify_cq *cmd =
		(const struct ib_uverbs_req_notify_cq *)ctx->req;
	struct ib_uobject *uobj;
	struct ib_cq *cq;
	int ret;

	cq = (struct ib_cq *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_CQ,
					    cmd->cq_handle, &uobj);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	ret = ib_req_notify_cq(cq, cmd->solicited_only ? IB_CQ_SOLICITED :
							 IB_CQ_NEXT_COMP);
	uverbs_uobj_put(uobj);
	/* > 0 only with IB_CQ_REPORT_MISSED_EVENTS, which is not asked */
	return ret < 0 ? ret : 0;
}
