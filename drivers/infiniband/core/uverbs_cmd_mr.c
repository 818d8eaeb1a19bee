// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs commands of protection domains, memory regions and memory
 * windows: ALLOC_PD, DEALLOC_PD, REG_MR, REREG_MR, DEREG_MR, ALLOC_MW,
 * DEALLOC_MW.  The request checks are the pure ones of uverbs_cmd_check.c;
 * core (ib_*_user) checks the rest and counts the PD's users, so a PD with
 * MRs, MWs, QPs, SRQs or AHs answers DEALLOC_PD with EBUSY.
 */
#include <linux/mm.h>

#include "uverbs.h"

int uverbs_cmd_alloc_pd(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct uverbs_create c;
	struct ib_pd *pd;
	int ret;

	ret = uverbs_create_begin(ctx, UVERBS_OBJ_PD, 0, NULL, &c);
	if (ret)
		return ret;
	pd = ib_alloc_pd_user(ctx->ib_dev, ctx->ucontext->ib_uctx, &c.udata);
	resp.pd_handle = c.uobj->handle;
	return uverbs_create_end(ctx, &c, pd, &resp, sizeof(resp));
}

int uverbs_cmd_dealloc_pd(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_dealloc_pd *cmd =
		(const struct ib_uverbs_dealloc_pd *)ctx->req;

	return uverbs_destroy_handle(ctx, UVERBS_OBJ_PD, cmd->pd_handle);
}

int uverbs_cmd_reg_mr(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_reg_mr *cmd = (const struct ib_uverbs_reg_mr *)ctx->req;
	struct ib_uverbs_reg_mr_resp resp = {};
	struct uverbs_create c;
	struct ib_mr *mr;
	u32 access;
	int ret;

	ret = uverbs_check_mr_range(cmd->start, cmd->length, cmd->hca_va,
				    PAGE_SIZE);
	if (!ret)
		ret = uverbs_check_mr_access(cmd->access_flags, &access);
	if (!ret)
		ret = uverbs_create_begin(ctx, UVERBS_OBJ_MR, 0, &cmd->pd_handle,
					  &c);
	if (ret)
		return ret;
	mr = ib_reg_user_mr_udata(c.pd, cmd->start, cmd->length, cmd->hca_va,
				  (int)access, &c.udata);
	if (!IS_ERR(mr)) {
		resp.mr_handle = c.uobj->handle;
		resp.lkey = mr->lkey;
		resp.rkey = mr->rkey;
	}
	return uverbs_create_end(ctx, &c, mr, &resp, sizeof(resp));
}

int uverbs_cmd_rereg_mr(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_rereg_mr *cmd =
		(const struct ib_uverbs_rereg_mr *)ctx->req;
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uobject *uobj, *pd_uobj = NULL;
	struct ib_mr *mr, *new_mr = NULL;
	struct ib_pd *pd;
	struct ib_udata udata;
	u64 start, length, hca_va;
	u32 access = 0;
	int ret;

	ret = uverbs_check_rereg_mr(cmd->flags, cmd->start, cmd->length,
				    cmd->hca_va, PAGE_SIZE);
	if (!ret && (cmd->flags & IB_MR_REREG_ACCESS))
		ret = uverbs_check_mr_access(cmd->access_flags, &access);
	if (ret)
		return ret;

	/* alone on it: the MR may be replaced under the same handle */
	uobj = uverbs_uobj_get_excl(ctx->ucontext, UVERBS_OBJ_MR, cmd->mr_handle);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mr = (struct ib_mr *)uobj->object;
	pd = mr->pd;
	if (cmd->flags & IB_MR_REREG_PD) {
		pd = (struct ib_pd *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_PD,
						    cmd->pd_handle, &pd_uobj);
		if (IS_ERR(pd)) {
			ret = PTR_ERR(pd);
			pd_uobj = NULL;
			goto out;
		}
	}
	if (!(cmd->flags & IB_MR_REREG_ACCESS))
		access = (u32)mr->access;
	if (cmd->flags & IB_MR_REREG_TRANS) {
		start = cmd->start;
		length = cmd->length;
		hca_va = cmd->hca_va;
	} else {
		start = mr->iova;
		length = mr->length;
		hca_va = mr->iova;
	}

	uverbs_init_udata(ctx, &udata);
	ret = ib_rereg_user_mr(mr, (int)cmd->flags, start, length, hca_va,
			       (int)access, pd, &udata, &new_mr);
	if (ret)
		goto out;
	if (new_mr) {
		/* core deregistered the old one: the handle names the new */
		new_mr->uobject = uobj;
		uobj->object = new_mr;
		mr = new_mr;
	}
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	ret = uverbs_copy_resp(ctx, &resp, sizeof(resp));
out:
	if (pd_uobj)
		uverbs_uobj_put(pd_uobj);
	uverbs_uobj_put_excl(uobj);
	return ret;
}

int uverbs_cmd_dereg_mr(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_dereg_mr *cmd =
		(const struct ib_uverbs_dereg_mr *)ctx->req;

	return uverbs_destroy_handle(ctx, UVERBS_OBJ_MR, cmd->mr_handle);
}

int uverbs_cmd_alloc_mw(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_alloc_mw *cmd =
		(const struct ib_uverbs_alloc_mw *)ctx->req;
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct uverbs_create c;
	struct ib_mw *mw;
	int ret;

	ret = uverbs_check_alloc_mw(cmd);
	if (!ret)
		ret = uverbs_create_begin(ctx, UVERBS_OBJ_MW, 0, &cmd->pd_handle,
					  &c);
	if (ret)
		return ret;
	mw = ib_alloc_mw_user(c.pd, (enum ib_mw_type)cmd->mw_type, &c.udata);
	if (!IS_ERR(mw)) {
		resp.mw_handle = c.uobj->handle;
		resp.rkey = mw->rkey;
	}
	return uverbs_create_end(ctx, &c, mw, &resp, sizeof(resp));
}

int uverbs_cmd_dealloc_mw(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_dealloc_mw *cmd =
		(const struct ib_uverbs_dealloc_mw *)ctx->req;

	return uverbs_destroy_handle(ctx, UVERBS_OBJ_MW, cmd->mw_handle);
}
