// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm multicast: JOIN_IP_MCAST, JOIN_MCAST and LEAVE_MCAST.  A group
 * joined through an ID has a number of its own (the multicast ID user
 * space gets back and finds in MULTICAST_JOIN/ERROR events), is listed on
 * its context and lives until LEAVE_MCAST or the ID's destruction.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/string.h>

#include "ucma_priv.h"

/* Drop @mc's undelivered events; its context's mutex is held. */
static void ucma_purge_mc_events(struct ucma_multicast *mc)
{
	struct ucma_file *file = mc->ctx->file;
	struct ucma_event *ev, *tmp;

	lockdep_assert_held(&mc->ctx->mutex);
	mutex_lock(&file->mut);
	list_for_each_entry_safe(ev, tmp, &file->event_list, list) {
		if (ev->mc != mc)
			continue;
		list_del(&ev->list);
		kfree(ev);
	}
	mutex_unlock(&file->mut);
}

static int ucma_join(struct ucma_cmd *c, u32 id, u64 uid,
		     const void *addr, u32 addr_len, u8 join_state)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct ucma_multicast *mc;
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_get_ctx(c->file, id);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	mutex_lock(&ctx->mutex);
	if (!ctx->cm_id || !ctx->cm_id->device) {
		ret = ctx->cm_id ? -EINVAL : -ENODEV;
		goto out;
	}
	mc = (struct ucma_multicast *)kzalloc(sizeof(*mc), GFP_KERNEL_ACCOUNT);
	if (!mc) {
		ret = -ENOMEM;
		goto out;
	}
	mc->ctx = ctx;
	mc->uid = uid;
	mc->join_state = join_state;
	memcpy(&mc->addr, addr, min_t(u32, addr_len, sizeof(mc->addr)));
	ret = xa_alloc(&ucma_mc_table, &mc->id, NULL, xa_limit_31b,
		       GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_free;
	list_add_tail(&mc->list, &ctx->mc_list);
	ret = rdma_join_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr,
				  join_state, mc);
	if (ret)
		goto err_list;
	resp.id = mc->id;
	ret = ucma_copy_resp(c, &resp);
	if (ret)
		goto err_leave;
	xa_store(&ucma_mc_table, mc->id, mc, GFP_KERNEL);
	goto out;

err_leave:
	rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	ucma_purge_mc_events(mc);
err_list:
	list_del(&mc->list);
	xa_erase(&ucma_mc_table, mc->id);
err_free:
	kfree(mc);
out:
	mutex_unlock(&ctx->mutex);
	ucma_put_ctx(ctx);
	return ret;
}

int ucma_join_ip_mcast(struct ucma_cmd *c)
{
	const struct rdma_ucm_join_ip_mcast *cmd =
		(const struct rdma_ucm_join_ip_mcast *)c->payload;
	u32 size;
	int ret;

	ret = ucma_check_join_ip_mcast(cmd, &size);
	if (ret)
		return ret;
	return ucma_join(c, cmd->id, cmd->uid, &cmd->addr, size,
			 RDMA_CM_JOIN_FULLMEMBER);
}

int ucma_join_mcast(struct ucma_cmd *c)
{
	const struct rdma_ucm_join_mcast *cmd =
		(const struct rdma_ucm_join_mcast *)c->payload;
	int ret;

	ret = ucma_check_join_mcast(cmd);
	if (ret)
		return ret;
	return ucma_join(c, cmd->id, cmd->uid, &cmd->addr, cmd->addr_size,
			 cmd->join_flags == RDMA_MC_JOIN_FLAG_FULLMEMBER ?
			 RDMA_CM_JOIN_FULLMEMBER : RDMA_CM_JOIN_SENDONLY_FULLMEMBER);
}

/* Group @id of the writing file out of the table, with its context held. */
static struct ucma_multicast *ucma_take_mc(struct ucma_cmd *c, u32 id)
{
	struct ucma_multicast *mc;

	xa_lock(&ucma_mc_table);
	mc = (struct ucma_multicast *)xa_load(&ucma_mc_table, id);
	if (!mc)
		mc = (struct ucma_multicast *)ERR_PTR(-ENOENT);
	else if (READ_ONCE(mc->ctx->file) != c->file)
		mc = (struct ucma_multicast *)ERR_PTR(-EINVAL);
	else if (!refcount_inc_not_zero(&mc->ctx->ref))
		mc = (struct ucma_multicast *)ERR_PTR(-ENOENT);
	else
		__xa_erase(&ucma_mc_table, id);
	xa_unlock(&ucma_mc_table);
	return mc;
}

int ucma_leave_mcast(struct ucma_cmd *c)
{
	const struct rdma_ucm_destroy_id *cmd =
		(const struct rdma_ucm_destroy_id *)c->payload;
	struct rdma_ucm_destroy_id_resp resp = {};
	struct ucma_multicast *mc;
	struct ucma_context *ctx;

	mc = ucma_take_mc(c, cmd->id);
	if (IS_ERR(mc))
		return (int)PTR_ERR(mc);
	ctx = mc->ctx;
	mutex_lock(&ctx->mutex);
	if (ctx->cm_id)
		rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	list_del(&mc->list);
	ucma_purge_mc_events(mc);
	mutex_lock(&ctx->file->mut);
	resp.events_reported = mc->events_reported;
	mutex_unlock(&ctx->file->mut);
	mutex_unlock(&ctx->mutex);
	kfree(mc);
	ucma_put_ctx(ctx);
	return ucma_copy_resp(c, &resp);
}

void ucma_free_mcs(struct ucma_context *ctx)
{
	struct ucma_multicast *mc, *tmp;

	list_for_each_entry_safe(mc, tmp, &ctx->mc_list, list) {
		xa_erase(&ucma_mc_table, mc->id);
		list_del(&mc->list);
		kfree(mc);
	}
}
