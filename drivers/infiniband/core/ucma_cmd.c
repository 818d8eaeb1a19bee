// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm commands, one handler each.  ucma_write() has checked the
 * header and copied the payload (ucma_cmd_check()); each handler runs the
 * command's payload check before it looks up the ID, then calls rdma_cm
 * under the context's mutex.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/string.h>

#include "ucma_priv.h"
#include "ucma_resp.h"

/*
 * Context @id of the writing file with its mutex held and its rdma_cm ID
 * alive (-ENODEV once its device went away); @need_dev: and bound to a
 * device (-EINVAL).
 */
static struct ucma_context *ucma_lock_id(struct ucma_cmd *c, u32 id,
					 bool need_dev)
{
	struct ucma_context *ctx;
	int ret = 0;

	ctx = ucma_get_ctx(c->file, id);
	if (IS_ERR(ctx))
		return ctx;
	mutex_lock(&ctx->mutex);
	if (!ctx->cm_id)
		ret = -ENODEV;
	else if (need_dev && !ctx->cm_id->device)
		ret = -EINVAL;
	if (ret) {
		mutex_unlock(&ctx->mutex);
		ucma_put_ctx(ctx);
		return (struct ucma_context *)ERR_PTR(ret);
	}
	return ctx;
}

static void ucma_unlock_id(struct ucma_context *ctx)
{
	mutex_unlock(&ctx->mutex);
	ucma_put_ctx(ctx);
}

static u32 ucma_src_family(const struct rdma_cm_id *cm_id)
{
	return cm_id->route.addr.src_addr.ss_family;
}

/* ---- IDs ---- */

static int ucma_create_id(struct ucma_cmd *c)
{
	const struct rdma_ucm_create_id *cmd =
		(const struct rdma_ucm_create_id *)c->payload;
	struct rdma_ucm_create_id_resp resp = {};
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	u8 qp_type;
	int ret;

	ret = ucma_check_create_id(cmd, &qp_type);
	if (ret)
		return ret;
	ctx = ucma_alloc_ctx(c->file);
	if (!ctx)
		return -ENOMEM;
	ctx->uid = cmd->uid;
	cm_id = rdma_create_user_id(ucma_event_handler, ctx,
				    (enum rdma_ucm_port_space)cmd->ps,
				    (enum ib_qp_type)qp_type);
	if (IS_ERR(cm_id)) {
		ret = (int)PTR_ERR(cm_id);
		goto err_ctx;
	}
	ctx->cm_id = cm_id;
	resp.id = ctx->id;
	ret = ucma_copy_resp(c, &resp);
	if (ret)
		goto err_ctx;
	ucma_publish_ctx(ctx);
	return 0;

err_ctx:
	xa_erase(&ucma_ctx_table, ctx->id);
	ucma_destroy_ctx(ctx);
	return ret;
}

static int ucma_destroy_id(struct ucma_cmd *c)
{
	const struct rdma_ucm_destroy_id *cmd =
		(const struct rdma_ucm_destroy_id *)c->payload;
	struct rdma_ucm_destroy_id_resp resp = {};
	struct ucma_context *ctx;

	ctx = ucma_take_ctx(c->file, cmd->id);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	resp.events_reported = ucma_destroy_ctx(ctx);
	return ucma_copy_resp(c, &resp);
}

/* ---- addresses and routes ---- */

/* BIND and BIND_IP: @addr is in the payload, checked */
static int ucma_do_bind(struct ucma_cmd *c, u32 id, void *addr)
{
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_id(c, id, false);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	ret = rdma_bind_addr(ctx->cm_id, (struct sockaddr *)addr);
	ucma_unlock_id(ctx);
	return ret;
}

static int ucma_bind_ip(struct ucma_cmd *c)
{
	struct rdma_ucm_bind_ip *cmd = (struct rdma_ucm_bind_ip *)c->payload;
	int ret = ucma_check_bind_ip(cmd);

	return ret ? ret : ucma_do_bind(c, cmd->id, &cmd->addr);
}

static int ucma_bind(struct ucma_cmd *c)
{
	struct rdma_ucm_bind *cmd = (struct rdma_ucm_bind *)c->payload;
	int ret = ucma_check_bind(cmd);

	return ret ? ret : ucma_do_bind(c, cmd->id, &cmd->addr);
}

/* RESOLVE_ADDR and RESOLVE_IP: @src NULL for none */
static int ucma_do_resolve(struct ucma_cmd *c, u32 id, void *src, void *dst,
			   u32 timeout_ms)
{
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_id(c, id, false);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	ret = rdma_resolve_addr(ctx->cm_id, (struct sockaddr *)src,
				(const struct sockaddr *)dst, timeout_ms);
	ucma_unlock_id(ctx);
	return ret;
}

static int ucma_resolve_ip(struct ucma_cmd *c)
{
	struct rdma_ucm_resolve_ip *cmd =
		(struct rdma_ucm_resolve_ip *)c->payload;
	int ret = ucma_check_resolve_ip(cmd);

	if (ret)
		return ret;
	return ucma_do_resolve(c, cmd->id,
			       cmd->src_addr.sin6_family ? &cmd->src_addr : NULL,
			       &cmd->dst_addr, cmd->timeout_ms);
}

static int ucma_resolve_addr(struct ucma_cmd *c)
{
	struct rdma_ucm_resolve_addr *cmd =
		(struct rdma_ucm_resolve_addr *)c->payload;
	int ret = ucma_check_resolve_addr(cmd);

	if (ret)
		return ret;
	return ucma_do_resolve(c, cmd->id,
			       cmd->src_size ? &cmd->src_addr : NULL,
			       &cmd->dst_addr, cmd->timeout_ms);
}

/* ---- queries ---- */

static __be16 ucma_pkey_be(void)
{
	return cpu_to_be16(0xffff);
}

/* The ID's path as plain values; false if it has none yet. */
static bool ucma_get_path(struct rdma_cm_id *cm_id, struct ucma_path *p)
{
	const struct ib_cm_roce_path *rp = cm_id->route.path_rec;
	union ib_gid sgid, dgid;

	if (!rp || !cm_id->device)
		return false;
	memset(p, 0, sizeof(*p));
	p->service_id = be64_to_cpu(rdma_get_service_id(cm_id,
		(struct sockaddr *)&cm_id->route.addr.dst_addr));
	rdma_read_gids(cm_id, &sgid, &dgid);
	memcpy(p->sgid, sgid.raw, sizeof(p->sgid));
	memcpy(p->dgid, dgid.raw, sizeof(p->dgid));
	p->flow_label = rp->flow_label;
	p->hop_limit = rp->hop_limit ? rp->hop_limit : 64;
	p->traffic_class = rp->traffic_class;
	p->pkey = rp->pkey;
	p->mtu = (u8)rp->mtu;
	p->packet_life_time = rp->packet_life_time;
	return true;
}

static void ucma_copy_in6(struct sockaddr_in6 *dst,
			  const struct sockaddr_storage *src)
{
	u32 len = ucma_addr_len(src->ss_family);

	memcpy(dst, src, min_t(u32, len, sizeof(*dst)));
}

static int ucma_query_route(struct ucma_cmd *c)
{
	const struct rdma_ucm_query *cmd =
		(const struct rdma_ucm_query *)c->payload;
	struct rdma_ucm_query_route_resp *resp;
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	union ib_gid sgid, dgid;
	struct ucma_path p;
	int ret;

	resp = (struct rdma_ucm_query_route_resp *)kzalloc(sizeof(*resp),
							   GFP_KERNEL_ACCOUNT);
	if (!resp)
		return -ENOMEM;
	ctx = ucma_lock_id(c, cmd->id, false);
	if (IS_ERR(ctx)) {
		ret = (int)PTR_ERR(ctx);
		goto out;
	}
	cm_id = ctx->cm_id;
	ucma_copy_in6(&resp->src_addr, &cm_id->route.addr.src_addr);
	ucma_copy_in6(&resp->dst_addr, &cm_id->route.addr.dst_addr);
	if (cm_id->device) {
		resp->node_guid = (__force u64)cm_id->device->node_guid;
		resp->ibdev_index = cm_id->device->index;
		resp->port_num = (u8)cm_id->port_num;
		if (ucma_get_path(cm_id, &p)) {
			ucma_fill_user_path_rec(&p, &resp->ib_route[0]);
			resp->num_paths = 1;
		} else {
			rdma_read_gids(cm_id, &sgid, &dgid);
			memcpy(resp->ib_route[0].sgid, sgid.raw, 16);
			memcpy(resp->ib_route[0].dgid, dgid.raw, 16);
			resp->ib_route[0].pkey = ucma_pkey_be();
		}
	}
	ucma_unlock_id(ctx);
	ret = ucma_copy_resp(c, resp);
out:
	kfree(resp);
	return ret;
}

static void ucma_query_addr(struct rdma_cm_id *cm_id,
			    struct rdma_ucm_query_addr_resp *resp)
{
	const struct sockaddr_storage *src = &cm_id->route.addr.src_addr;
	const struct sockaddr_storage *dst = &cm_id->route.addr.dst_addr;

	resp->src_size = (u16)ucma_addr_len(src->ss_family);
	resp->dst_size = (u16)ucma_addr_len(dst->ss_family);
	memcpy(&resp->src_addr, src, resp->src_size);
	memcpy(&resp->dst_addr, dst, resp->dst_size);
}

/* An IP-addressed ID's addresses as AF_IB: its GIDs and service IDs. */
static void ucma_query_gid(struct rdma_cm_id *cm_id,
			   struct rdma_ucm_query_addr_resp *resp)
{
	struct sockaddr *src = (struct sockaddr *)&cm_id->route.addr.src_addr;
	struct sockaddr *dst = (struct sockaddr *)&cm_id->route.addr.dst_addr;
	union ib_gid sgid = {}, dgid = {};

	if (src->sa_family == AF_IB) {
		ucma_query_addr(cm_id, resp);
		return;
	}
	if (cm_id->device)
		rdma_read_gids(cm_id, &sgid, &dgid);
	resp->src_size = (u16)ucma_fill_sib(&resp->src_addr, 0xffff, sgid.raw,
		be64_to_cpu(rdma_get_service_id(cm_id, src)));
	resp->dst_size = (u16)ucma_fill_sib(&resp->dst_addr, 0xffff, dgid.raw,
		be64_to_cpu(rdma_get_service_id(cm_id, dst)));
}

static u32 ucma_query_path(struct rdma_cm_id *cm_id,
			   struct rdma_ucm_query_path_resp *resp, u32 space)
{
	u32 max = (space - sizeof(*resp)) / sizeof(resp->path_data[0]);
	struct ucma_path p;

	if (!max || !ucma_get_path(cm_id, &p))
		return 0;
	ucma_fill_path_rec_data(&p, &resp->path_data[0]);
	resp->num_paths = 1;
	return 1;
}

/* The largest QUERY response: ADDR and GID; PATH with two records. */
#define UCMA_QUERY_RESP_MAX \
	max_t(size_t, sizeof(struct rdma_ucm_query_addr_resp), \
	      sizeof(struct rdma_ucm_query_path_resp) + \
	      UCMA_QUERY_PATH_MAX * sizeof(struct ib_path_rec_data))

static int ucma_query(struct ucma_cmd *c)
{
	const struct rdma_ucm_query *cmd =
		(const struct rdma_ucm_query *)c->payload;
	struct rdma_ucm_query_addr_resp *addr;
	struct ucma_cmd_layout l = *c->l;
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	struct ucma_cmd qc = *c;
	void *resp;
	int ret;

	ret = ucma_query_check(cmd->option, &l);
	if (ret)
		return ret;
	resp = kzalloc(UCMA_QUERY_RESP_MAX, GFP_KERNEL_ACCOUNT);
	if (!resp)
		return -ENOMEM;
	ctx = ucma_lock_id(c, cmd->id, false);
	if (IS_ERR(ctx)) {
		ret = (int)PTR_ERR(ctx);
		goto out;
	}
	cm_id = ctx->cm_id;
	addr = (struct rdma_ucm_query_addr_resp *)resp;
	switch (cmd->option) {
	case RDMA_USER_CM_QUERY_ADDR:
	case RDMA_USER_CM_QUERY_GID:
		if (cm_id->device) {
			addr->node_guid = (__force u64)cm_id->device->node_guid;
			addr->ibdev_index = cm_id->device->index;
			addr->port_num = (u8)cm_id->port_num;
			addr->pkey = (__force u16)ucma_pkey_be();
		}
		if (cmd->option == RDMA_USER_CM_QUERY_ADDR)
			ucma_query_addr(cm_id, addr);
		else
			ucma_query_gid(cm_id, addr);
		break;
	default:
		ucma_query_path(cm_id,
				(struct rdma_ucm_query_path_resp *)resp,
				l.out_len);
		break;
	}
	ucma_unlock_id(ctx);
	qc.l = &l;
	ret = ucma_copy_resp(&qc, resp);
out:
	kfree(resp);
	return ret;
}

/* ---- connections ---- */

static void ucma_conn_param(struct rdma_conn_param *dst,
			    const struct rdma_ucm_conn_param *src,
			    bool with_qkey)
{
	memset(dst, 0, sizeof(*dst));
	/* the user's QP: rdma_cm has no kernel QP for user IDs */
	dst->qp_num = src->qp_num;
	dst->srq = src->srq;
	/* only an AF_IB ID chooses its Q_Key; IP IDs use RDMA_UDP_QKEY */
	if (with_qkey)
		dst->qkey = src->qkey;
	dst->initiator_depth = src->initiator_depth;
	dst->responder_resources = src->responder_resources;
	dst->retry_count = src->retry_count;
	dst->rnr_retry_count = src->rnr_retry_count;
	dst->flow_control = src->flow_control;
	if (src->private_data_len) {
		dst->private_data = src->private_data;
		dst->private_data_len = src->private_data_len;
	}
}

static int ucma_connect(struct ucma_cmd *c)
{
	const struct rdma_ucm_connect *cmd =
		(const struct rdma_ucm_connect *)c->payload;
	struct rdma_ucm_ece ece = {};
	struct rdma_conn_param p;
	struct ucma_context *ctx;
	u32 max;
	int ret;

	if (!cmd->conn_param.valid)
		return -EINVAL;
	ctx = ucma_lock_id(c, cmd->id, true);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	max = ucma_private_data_max(RDMA_USER_CM_CMD_CONNECT,
				    (u8)ctx->cm_id->qp_type,
				    ucma_src_family(ctx->cm_id));
	ret = ucma_check_conn_param(&cmd->conn_param, true, max);
	if (ret)
		goto out;
	ucma_conn_param(&p, &cmd->conn_param, false);
	if (c->l->ece)
		ece = cmd->ece;
	ret = rdma_connect_ece(ctx->cm_id, &p, &ece);
out:
	ucma_unlock_id(ctx);
	return ret;
}

static int ucma_listen(struct ucma_cmd *c)
{
	const struct rdma_ucm_listen *cmd =
		(const struct rdma_ucm_listen *)c->payload;
	struct ucma_context *ctx;
	u32 backlog;
	int ret;

	backlog = ucma_listen_backlog((s32)cmd->backlog,
				      (u32)READ_ONCE(ucma_max_backlog));
	ctx = ucma_lock_id(c, cmd->id, false);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	atomic_set(&ctx->backlog, (int)backlog);
	ret = rdma_listen(ctx->cm_id, (int)backlog);
	ucma_unlock_id(ctx);
	return ret;
}

static int ucma_accept(struct ucma_cmd *c)
{
	const struct rdma_ucm_accept *cmd =
		(const struct rdma_ucm_accept *)c->payload;
	struct rdma_ucm_ece ece = {};
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	struct rdma_conn_param p;
	u32 max;
	int ret;

	ctx = ucma_lock_id(c, cmd->id, true);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	cm_id = ctx->cm_id;
	if (!cmd->conn_param.valid) {
		/* the active side after CONNECT_RESPONSE: send the RTU */
		rdma_lock_handler(cm_id);
		ret = rdma_accept(cm_id, NULL);
		rdma_unlock_handler(cm_id);
		goto out;
	}
	max = ucma_private_data_max(RDMA_USER_CM_CMD_ACCEPT,
				    (u8)cm_id->qp_type, ucma_src_family(cm_id));
	ret = ucma_check_conn_param(&cmd->conn_param, false, max);
	if (ret)
		goto out;
	ucma_conn_param(&p, &cmd->conn_param,
			ucma_src_family(cm_id) == AF_IB);
	if (c->l->ece)
		ece = cmd->ece;
	/* events of the ID go to user space from here on, with this uid */
	rdma_lock_handler(cm_id);
	ctx->uid = cmd->uid;
	ret = rdma_accept_ece(cm_id, &p, &ece);
	if (ret)
		ctx->uid = 0;
	rdma_unlock_handler(cm_id);
out:
	ucma_unlock_id(ctx);
	return ret;
}

static int ucma_reject(struct ucma_cmd *c)
{
	const struct rdma_ucm_reject *cmd =
		(const struct rdma_ucm_reject *)c->payload;
	struct ucma_context *ctx;
	u8 reason;
	u32 max;
	int ret;

	ctx = ucma_lock_id(c, cmd->id, true);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	max = ucma_private_data_max(RDMA_USER_CM_CMD_REJECT,
				    (u8)ctx->cm_id->qp_type,
				    ucma_src_family(ctx->cm_id));
	ret = ucma_check_reject(cmd, max, &reason);
	if (!ret)
		ret = rdma_reject(ctx->cm_id, cmd->private_data,
				  cmd->private_data_len, reason);
	ucma_unlock_id(ctx);
	return ret;
}

static void ucma_copy_qp_attr(struct ib_uverbs_qp_attr *d,
			      const struct ib_qp_attr *s, int mask)
{
	memset(d, 0, sizeof(*d));
	d->qp_attr_mask = (u32)mask;
	d->qp_state = s->qp_state;
	d->cur_qp_state = s->cur_qp_state;
	d->path_mtu = s->path_mtu;
	d->path_mig_state = s->path_mig_state;
	d->qkey = s->qkey;
	d->rq_psn = s->rq_psn;
	d->sq_psn = s->sq_psn;
	d->dest_qp_num = s->dest_qp_num;
	d->qp_access_flags = (u32)s->qp_access_flags;
	ucma_copy_ah_attr(&d->ah_attr, &s->ah_attr);
	ucma_copy_ah_attr(&d->alt_ah_attr, &s->alt_ah_attr);
	d->max_send_wr = s->cap.max_send_wr;
	d->max_recv_wr = s->cap.max_recv_wr;
	d->max_send_sge = s->cap.max_send_sge;
	d->max_recv_sge = s->cap.max_recv_sge;
	d->max_inline_data = s->cap.max_inline_data;
	d->pkey_index = s->pkey_index;
	d->alt_pkey_index = s->alt_pkey_index;
	d->en_sqd_async_notify = s->en_sqd_async_notify;
	d->sq_draining = s->sq_draining;
	d->max_rd_atomic = s->max_rd_atomic;
	d->max_dest_rd_atomic = s->max_dest_rd_atomic;
	d->min_rnr_timer = s->min_rnr_timer;
	d->port_num = (u8)s->port_num;
	d->timeout = s->timeout;
	d->retry_cnt = s->retry_cnt;
	d->rnr_retry = s->rnr_retry;
	d->alt_port_num = (u8)s->alt_port_num;
	d->alt_timeout = s->alt_timeout;
}

/* Both forms of the attributes, allocated together. */
struct ucma_qp_attrs {
	struct ib_qp_attr attr;
	struct ib_uverbs_qp_attr resp;
};

static int ucma_init_qp_attr(struct ucma_cmd *c)
{
	const struct rdma_ucm_init_qp_attr *cmd =
		(const struct rdma_ucm_init_qp_attr *)c->payload;
	struct ucma_context *ctx;
	struct ucma_qp_attrs *a;
	int mask = 0;
	int ret;

	ret = ucma_check_init_qp_attr(cmd);
	if (ret)
		return ret;
	a = (struct ucma_qp_attrs *)kzalloc(sizeof(*a), GFP_KERNEL_ACCOUNT);
	if (!a)
		return -ENOMEM;
	ctx = ucma_lock_id(c, cmd->id, true);
	if (IS_ERR(ctx)) {
		ret = (int)PTR_ERR(ctx);
		goto out;
	}
	a->attr.qp_state = (enum ib_qp_state)cmd->qp_state;
	ret = rdma_init_qp_attr(ctx->cm_id, &a->attr, &mask);
	ucma_unlock_id(ctx);
	if (ret)
		goto out;
	ucma_copy_qp_attr(&a->resp, &a->attr, mask);
	ret = ucma_copy_resp(c, &a->resp);
out:
	kfree(a);
	return ret;
}

/* ---- options ---- */

static int ucma_set_id_option(struct rdma_cm_id *cm_id, u32 optname,
			      const void *optval)
{
	switch (optname) {
	case RDMA_OPTION_ID_TOS:
		rdma_set_service_type(cm_id, *(const u8 *)optval);
		return 0;
	case RDMA_OPTION_ID_REUSEADDR:
		return rdma_set_reuseaddr(cm_id, *(const int *)optval ? 1 : 0);
	case RDMA_OPTION_ID_AFONLY:
		return rdma_set_afonly(cm_id, *(const int *)optval ? 1 : 0);
	case RDMA_OPTION_ID_ACK_TIMEOUT:
		return rdma_set_ack_timeout(cm_id, *(const u8 *)optval);
	default:
		return -ENOSYS;
	}
}

static int ucma_set_option(struct ucma_cmd *c)
{
	const struct rdma_ucm_set_option *cmd =
		(const struct rdma_ucm_set_option *)c->payload;
	struct ucma_context *ctx;
	void *optval;
	u32 index;
	int ret;

	ret = ucma_check_set_option(cmd->level, cmd->optname, cmd->optlen);
	if (ret)
		return ret;
	optval = kmalloc(cmd->optlen, GFP_KERNEL_ACCOUNT);
	if (!optval)
		return -ENOMEM;
	if (copy_from_user(optval, u64_to_user_ptr(cmd->optval),
			   cmd->optlen)) {
		ret = -EFAULT;
		goto out;
	}
	ctx = ucma_lock_id(c, cmd->id, false);
	if (IS_ERR(ctx)) {
		ret = (int)PTR_ERR(ctx);
		goto out;
	}
	if (cmd->level == RDMA_OPTION_ID) {
		ret = ucma_set_id_option(ctx->cm_id, cmd->optname, optval);
	} else {
		/* routes come from rdma_cm on RoCE: IB_PATH is refused */
		ret = ucma_find_ib_path((const struct ib_path_rec_data *)optval,
					cmd->optlen, &index);
		if (!ret)
			ret = -EOPNOTSUPP;
	}
	ucma_unlock_id(ctx);
out:
	kfree(optval);
	return ret;
}

/*
 * RESOLVE_ROUTE, DISCONNECT and NOTIFY: one rdma_cm call on a bound ID,
 * named by the payload's first field.
 */
static int ucma_id_call(struct ucma_cmd *c)
{
	const struct rdma_ucm_resolve_route *rr =
		(const struct rdma_ucm_resolve_route *)c->payload;
	const struct rdma_ucm_notify *nt =
		(const struct rdma_ucm_notify *)c->payload;
	struct ucma_context *ctx;
	int ret;

	BUILD_BUG_ON(offsetof(struct rdma_ucm_resolve_route, id) != 0 ||
		     offsetof(struct rdma_ucm_disconnect, id) != 0 ||
		     offsetof(struct rdma_ucm_notify, id) != 0);
	ctx = ucma_lock_id(c, rr->id, true);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	if (c->l->cmd == RDMA_USER_CM_CMD_RESOLVE_ROUTE)
		ret = rdma_resolve_route(ctx->cm_id, rr->timeout_ms);
	else if (c->l->cmd == RDMA_USER_CM_CMD_NOTIFY)
		ret = rdma_notify(ctx->cm_id, (enum ib_event_type)nt->event);
	else
		ret = rdma_disconnect(ctx->cm_id);
	ucma_unlock_id(ctx);
	return ret;
}

int ucma_run_cmd(struct ucma_cmd *c, struct file *filp)
{
	switch (c->l->cmd) {
	/* IDs */
	case RDMA_USER_CM_CMD_CREATE_ID: return ucma_create_id(c);
	case RDMA_USER_CM_CMD_DESTROY_ID: return ucma_destroy_id(c);
	case RDMA_USER_CM_CMD_MIGRATE_ID: return ucma_migrate_id(c);
	case RDMA_USER_CM_CMD_SET_OPTION: return ucma_set_option(c);
	case RDMA_USER_CM_CMD_GET_EVENT: return ucma_get_event(c, filp);
	/* addresses: the current commands, then the legacy IP-only ones */
	case RDMA_USER_CM_CMD_BIND: return ucma_bind(c);
	case RDMA_USER_CM_CMD_RESOLVE_ADDR: return ucma_resolve_addr(c);
	case RDMA_USER_CM_CMD_QUERY: return ucma_query(c);
	case RDMA_USER_CM_CMD_BIND_IP: return ucma_bind_ip(c);
	case RDMA_USER_CM_CMD_RESOLVE_IP: return ucma_resolve_ip(c);
	case RDMA_USER_CM_CMD_QUERY_ROUTE: return ucma_query_route(c);
	case RDMA_USER_CM_CMD_RESOLVE_ROUTE: return ucma_id_call(c);
	/* connections */
	case RDMA_USER_CM_CMD_LISTEN: return ucma_listen(c);
	case RDMA_USER_CM_CMD_CONNECT: return ucma_connect(c);
	case RDMA_USER_CM_CMD_ACCEPT: return ucma_accept(c);
	case RDMA_USER_CM_CMD_REJECT: return ucma_reject(c);
	case RDMA_USER_CM_CMD_DISCONNECT: return ucma_id_call(c);
	case RDMA_USER_CM_CMD_INIT_QP_ATTR: return ucma_init_qp_attr(c);
	case RDMA_USER_CM_CMD_NOTIFY: return ucma_id_call(c);
	/* multicast */
	case RDMA_USER_CM_CMD_JOIN_MCAST: return ucma_join_mcast(c);
	case RDMA_USER_CM_CMD_JOIN_IP_MCAST: return ucma_join_ip_mcast(c);
	case RDMA_USER_CM_CMD_LEAVE_MCAST: return ucma_leave_mcast(c);
	default:
		return -ENOSYS;
	}
}
