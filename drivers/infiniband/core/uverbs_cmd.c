// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The uverbs write() commands: one table per command space (legacy and
 * extended), keyed by command number, giving the handler and the core
 * request/response sizes that uverbs_cmd_check.c validates the header
 * against.  A command not in the table answers EOPNOTSUPP; every command
 * but GET_CONTEXT needs the file's user context (EINVAL without one).
 *
 * Handlers run with the device alive (the caller read-holds the uverbs
 * device's disassoc_rwsem) and get the core request zero-padded to the
 * table size.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>

#include "uverbs.h"

struct uverbs_cmd_def {
	int (*handler)(struct uverbs_cmd_ctx *ctx);
	struct uverbs_cmd_size size;	/* the minimum core request, response */
	/*
	 * Extended commands: the core request as far as we know it, if more
	 * than the minimum (fields older libraries do not send).
	 */
	u16 req_known;
	bool no_context;		/* runs before GET_CONTEXT */
};

/* The largest core request of any command (EX_MODIFY_QP is 120 bytes). */
#define UVERBS_MAX_REQ	128

/*
 * Write @len bytes of core response; a longer response space is zeroed,
 * a shorter one (extended commands) gets the first bytes.
 */
int uverbs_copy_resp(struct uverbs_cmd_ctx *ctx, const void *resp, size_t len)
{
	size_t space = ctx->layout.core_out_len;
	u8 __user *to = (u8 __user *)ctx->resp;

	if (copy_to_user(to, resp, min(space, len)))
		return -EFAULT;
	if (space > len && clear_user(to + len, space - len))
		return -EFAULT;
	return 0;
}

u32 uverbs_ex_resp_len(struct uverbs_cmd_ctx *ctx, size_t len)
{
	return (u32)min_t(size_t, ctx->layout.core_out_len, len);
}

void uverbs_dev_limits(struct ib_device *dev, struct uverbs_dev_limits *lim)
{
	const struct ib_device_attr *a = &dev->attrs;

	lim->max_qp_wr = (u32)max(a->max_qp_wr, 0);
	lim->max_send_sge = (u32)max(a->max_send_sge, 0);
	lim->max_recv_sge = (u32)max(a->max_recv_sge, 0);
	lim->max_cqe = (u32)max(a->max_cqe, 0);
	lim->max_srq_wr = (u32)max(a->max_srq_wr, 0);
	lim->max_srq_sge = (u32)max(a->max_srq_sge, 0);
	lim->num_comp_vectors = dev->num_comp_vectors ? dev->num_comp_vectors : 1;
	lim->phys_port_cnt = dev->phys_port_cnt;
}

/* The driver's part of the command: after the core request and response. */
void uverbs_init_udata(struct uverbs_cmd_ctx *ctx, struct ib_udata *udata)
{
	const struct uverbs_cmd_layout *l = &ctx->layout;

	udata->inbuf = l->drv_in_len ? ctx->buf + l->drv_in_off : NULL;
	udata->inlen = l->drv_in_len;
	udata->outbuf = l->drv_out_len ?
			(u8 __user *)ctx->resp + l->core_out_len : NULL;
	udata->outlen = l->drv_out_len;
	/* the driver ties what it hands out (mmap cookies) to the context */
	udata->uctx = ctx->ucontext ? ctx->ucontext->ib_uctx : NULL;
}

/* ---- GET_CONTEXT ---- */

static struct uverbs_ucontext *ucontext_alloc(struct uverbs_file *file)
{
	struct uverbs_ucontext *uctx;

	uctx = (struct uverbs_ucontext *)kzalloc(sizeof(*uctx), GFP_KERNEL_ACCOUNT);
	if (!uctx)
		return NULL;
	uctx->file = file;
	xa_init_flags(&uctx->objects, XA_FLAGS_ALLOC);
	spin_lock_init(&uctx->comp_lock);
	INIT_LIST_HEAD(&uctx->comp_files);
	INIT_LIST_HEAD(&uctx->list);
	return uctx;
}

static int cmd_get_context(struct uverbs_cmd_ctx *ctx)
{
	struct uverbs_file *file = ctx->file;
	struct uverbs_device *udev = file->udev;
	struct ib_uverbs_get_context_resp resp = {};
	struct uverbs_async_file *async;
	struct uverbs_ucontext *uctx;
	struct ib_ucontext *ib_uctx;
	struct ib_udata udata;
	struct file *filp;
	int fd, ret;

	mutex_lock(&file->context_mutex);
	if (file->ucontext) {
		ret = -EINVAL;		/* one context per file */
		goto out_unlock;
	}
	uctx = ucontext_alloc(file);
	if (!uctx) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	uverbs_init_udata(ctx, &udata);
	ib_uctx = ib_alloc_ucontext_udata(ctx->ib_dev, &udata);
	if (IS_ERR(ib_uctx)) {
		ret = PTR_ERR(ib_uctx);
		goto err_free;
	}
	ib_uctx->ufile = file;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_uctx;
	}
	filp = uverbs_async_file_create(udev, &async);
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		goto err_fd;
	}

	resp.async_fd = (u32)fd;
	resp.num_comp_vectors = ctx->ib_dev->num_comp_vectors ?
				ctx->ib_dev->num_comp_vectors : 1;
	ret = uverbs_copy_resp(ctx, &resp, sizeof(resp));
	if (ret)
		goto err_file;

	uctx->async = async;
	uctx->ib_uctx = ib_uctx;
	mutex_lock(&udev->contexts_mutex);
	list_add_tail(&uctx->list, &udev->contexts);
	mutex_unlock(&udev->contexts_mutex);
	fd_install(fd, filp);
	/* commands read it without the mutex */
	smp_store_release(&file->ucontext, uctx);
	mutex_unlock(&file->context_mutex);
	return 0;

err_file:
	uverbs_async_file_detach(async);
	uverbs_async_file_put(async);
	fput(filp);
err_fd:
	put_unused_fd(fd);
err_uctx:
	ib_dealloc_ucontext(ib_uctx);
err_free:
	xa_destroy(&uctx->objects);
	kfree(uctx);
out_unlock:
	mutex_unlock(&file->context_mutex);
	return ret;
}

/* ---- QUERY_DEVICE (legacy and extended) ---- */

static void fill_device_resp(struct ib_device *dev, const struct ib_device_attr *a,
			     struct ib_uverbs_query_device_resp *r)
{
	r->fw_ver = a->fw_ver;
	r->node_guid = dev->node_guid;
	r->sys_image_guid = a->sys_image_guid;
	r->max_mr_size = a->max_mr_size;
	r->page_size_cap = a->page_size_cap;
	r->vendor_id = a->vendor_id;
	r->vendor_part_id = a->vendor_part_id;
	r->hw_ver = a->hw_ver;
	r->max_qp = a->max_qp;
	r->max_qp_wr = a->max_qp_wr;
	/* the full 64-bit set is in the extended response */
	r->device_cap_flags = lower_32_bits(a->device_cap_flags);
	r->max_sge = min(a->max_send_sge, a->max_recv_sge);
	r->max_sge_rd = a->max_sge_rd;
	r->max_cq = a->max_cq;
	r->max_cqe = a->max_cqe;
	r->max_mr = a->max_mr;
	r->max_pd = a->max_pd;
	r->max_qp_rd_atom = a->max_qp_rd_atom;
	r->max_ee_rd_atom = a->max_ee_rd_atom;
	r->max_res_rd_atom = a->max_res_rd_atom;
	r->max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	r->max_ee_init_rd_atom = a->max_ee_init_rd_atom;
	r->atomic_cap = a->atomic_cap;
	r->max_ee = a->max_ee;
	r->max_rdd = a->max_rdd;
	r->max_mw = a->max_mw;
	r->max_raw_ipv6_qp = a->max_raw_ipv6_qp;
	r->max_raw_ethy_qp = a->max_raw_ethy_qp;
	r->max_mcast_grp = a->max_mcast_grp;
	r->max_mcast_qp_attach = a->max_mcast_qp_attach;
	r->max_total_mcast_qp_attach = a->max_total_mcast_qp_attach;
	r->max_ah = a->max_ah;
	r->max_srq = a->max_srq;
	r->max_srq_wr = a->max_srq_wr;
	r->max_srq_sge = a->max_srq_sge;
	r->max_pkeys = a->max_pkeys;
	r->local_ca_ack_delay = a->local_ca_ack_delay;
	r->phys_port_cnt = (u8)dev->phys_port_cnt;
}

static int cmd_query_device(struct uverbs_cmd_ctx *ctx)
{
	struct ib_uverbs_query_device_resp resp = {};
	struct ib_device_attr attr;
	int ret;

	ret = ib_query_device(ctx->ib_dev, &attr);
	if (ret)
		return ret;
	fill_device_resp(ctx->ib_dev, &attr, &resp);
	return uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

/* the ODP part of an extended QUERY_DEVICE answer (bit values pass through) */
static void odp_caps_out(struct ib_uverbs_ex_query_device_resp *r,
			 const struct rdma_odp_caps *odp)
{
	struct ib_uverbs_odp_caps *u = &r->odp_caps;

	u->general_caps = odp->general;
	u->per_transport_caps.rc_odp_caps = odp->ops[RDMA_ODP_RC];
	u->per_transport_caps.uc_odp_caps = odp->ops[RDMA_ODP_UC];
	u->per_transport_caps.ud_odp_caps = odp->ops[RDMA_ODP_UD];
	r->xrc_odp_caps = odp->ops[RDMA_ODP_XRC];
}

static int cmd_ex_query_device(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_ex_query_device *cmd =
		(const struct ib_uverbs_ex_query_device *)ctx->req;
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct ib_device_attr attr;
	int ret;

	if (cmd->comp_mask || cmd->reserved)
		return -EINVAL;
	ret = ib_query_device(ctx->ib_dev, &attr);
	if (ret)
		return ret;
	fill_device_resp(ctx->ib_dev, &attr, &resp.base);
	resp.device_cap_flags_ex = attr.device_cap_flags;
	if (attr.kernel_cap_flags & IBK_ON_DEMAND_PAGING)
		odp_caps_out(&resp, &attr.odp);
	/* timestamps, RSS, TM, DM: none yet, all zero */
	resp.response_length = uverbs_ex_resp_len(ctx, sizeof(resp));
	return uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

/* ---- QUERY_PORT ---- */

static int cmd_query_port(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_query_port *cmd =
		(const struct ib_uverbs_query_port *)ctx->req;
	struct ib_uverbs_query_port_resp resp = {};
	struct ib_device *dev = ctx->ib_dev;
	struct ib_port_attr a;
	int ret;

	ret = ib_query_port(dev, cmd->port_num, &a);
	if (ret)
		return ret;
	resp.port_cap_flags = a.port_cap_flags & ~(u32)IB_UVERBS_PCF_IP_BASED_GIDS;
	if (a.ip_gids)
		resp.port_cap_flags |= IB_UVERBS_PCF_IP_BASED_GIDS;
	resp.max_msg_sz = a.max_msg_sz;
	resp.bad_pkey_cntr = a.bad_pkey_cntr;
	resp.qkey_viol_cntr = a.qkey_viol_cntr;
	resp.gid_tbl_len = a.gid_tbl_len;
	resp.pkey_tbl_len = a.pkey_tbl_len;
	resp.lid = (u16)a.lid;
	resp.sm_lid = (u16)a.sm_lid;
	resp.state = (u8)a.state;
	resp.max_mtu = (u8)a.max_mtu;
	resp.active_mtu = (u8)a.active_mtu;
	resp.lmc = a.lmc;
	resp.max_vl_num = a.max_vl_num;
	resp.sm_sl = a.sm_sl;
	resp.subnet_timeout = a.subnet_timeout;
	resp.init_type_reply = a.init_type_reply;
	resp.active_width = a.active_width;
	resp.active_speed = (u8)a.active_speed;
	resp.phys_state = a.phys_state;
	resp.link_layer = (u8)rdma_port_get_link_layer(dev, cmd->port_num);
	return uverbs_copy_resp(ctx, &resp, sizeof(resp));
}

/* ---- tables ---- */

#define CMD_SIZES(req_t, resp_len)					\
	{ .req = sizeof(req_t), .resp = (resp_len) }
/* a legacy command: request and response structures */
#define CMD(fn, req_t, resp_len)					\
	{ .handler = (fn), .size = CMD_SIZES(req_t, resp_len) }
/* an extended one: minimum request up to @req_min_field, known request */
#define CMD_EX(fn, req_t, req_min_field, resp_len)			\
	{ .handler = (fn),						\
	  .size = { .req = offsetofend(req_t, req_min_field),		\
		    .resp = (resp_len) },				\
	  .req_known = sizeof(req_t) }
/* the size of an extended response up to response_length */
#define EX_RESP(resp_t)	offsetofend(resp_t, response_length)

static const struct uverbs_cmd_def legacy_cmds[] = {
	[IB_USER_VERBS_CMD_GET_CONTEXT] = {
		.handler = cmd_get_context,
		.size = CMD_SIZES(struct ib_uverbs_get_context,
				  sizeof(struct ib_uverbs_get_context_resp)),
		.no_context = true,
	},
	[IB_USER_VERBS_CMD_QUERY_DEVICE] =
		CMD(cmd_query_device, struct ib_uverbs_query_device,
		    sizeof(struct ib_uverbs_query_device_resp)),
	[IB_USER_VERBS_CMD_QUERY_PORT] =
		CMD(cmd_query_port, struct ib_uverbs_query_port,
		    sizeof(struct ib_uverbs_query_port_resp)),
	[IB_USER_VERBS_CMD_ALLOC_PD] =
		CMD(uverbs_cmd_alloc_pd, struct ib_uverbs_alloc_pd,
		    sizeof(struct ib_uverbs_alloc_pd_resp)),
	[IB_USER_VERBS_CMD_DEALLOC_PD] =
		CMD(uverbs_cmd_dealloc_pd, struct ib_uverbs_dealloc_pd, 0),
	[IB_USER_VERBS_CMD_CREATE_AH] =
		CMD(uverbs_cmd_create_ah, struct ib_uverbs_create_ah,
		    sizeof(struct ib_uverbs_create_ah_resp)),
	[IB_USER_VERBS_CMD_DESTROY_AH] =
		CMD(uverbs_cmd_destroy_ah, struct ib_uverbs_destroy_ah, 0),
	[IB_USER_VERBS_CMD_REG_MR] =
		CMD(uverbs_cmd_reg_mr, struct ib_uverbs_reg_mr,
		    sizeof(struct ib_uverbs_reg_mr_resp)),
	[IB_USER_VERBS_CMD_REREG_MR] =
		CMD(uverbs_cmd_rereg_mr, struct ib_uverbs_rereg_mr,
		    sizeof(struct ib_uverbs_rereg_mr_resp)),
	[IB_USER_VERBS_CMD_DEREG_MR] =
		CMD(uverbs_cmd_dereg_mr, struct ib_uverbs_dereg_mr, 0),
	[IB_USER_VERBS_CMD_ALLOC_MW] =
		CMD(uverbs_cmd_alloc_mw, struct ib_uverbs_alloc_mw,
		    sizeof(struct ib_uverbs_alloc_mw_resp)),
	[IB_USER_VERBS_CMD_DEALLOC_MW] =
		CMD(uverbs_cmd_dealloc_mw, struct ib_uverbs_dealloc_mw, 0),
	[IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL] =
		CMD(uverbs_cmd_create_comp_channel,
		    struct ib_uverbs_create_comp_channel,
		    sizeof(struct ib_uverbs_create_comp_channel_resp)),
	[IB_USER_VERBS_CMD_CREATE_CQ] =
		CMD(uverbs_cmd_create_cq, struct ib_uverbs_create_cq,
		    sizeof(struct ib_uverbs_create_cq_resp)),
	[IB_USER_VERBS_CMD_RESIZE_CQ] =
		CMD(uverbs_cmd_resize_cq, struct ib_uverbs_resize_cq,
		    sizeof(struct ib_uverbs_resize_cq_resp)),
	[IB_USER_VERBS_CMD_DESTROY_CQ] =
		CMD(uverbs_cmd_destroy_cq, struct ib_uverbs_destroy_cq,
		    sizeof(struct ib_uverbs_destroy_cq_resp)),
	[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] =
		CMD(uverbs_cmd_req_notify_cq, struct ib_uverbs_req_notify_cq, 0),
	[IB_USER_VERBS_CMD_CREATE_QP] =
		CMD(uverbs_cmd_create_qp, struct ib_uverbs_create_qp,
		    sizeof(struct ib_uverbs_create_qp_resp)),
	[IB_USER_VERBS_CMD_QUERY_QP] =
		CMD(uverbs_cmd_query_qp, struct ib_uverbs_query_qp,
		    sizeof(struct ib_uverbs_query_qp_resp)),
	[IB_USER_VERBS_CMD_MODIFY_QP] =
		CMD(uverbs_cmd_modify_qp, struct ib_uverbs_modify_qp, 0),
	[IB_USER_VERBS_CMD_DESTROY_QP] =
		CMD(uverbs_cmd_destroy_qp, struct ib_uverbs_destroy_qp,
		    sizeof(struct ib_uverbs_destroy_qp_resp)),
	[IB_USER_VERBS_CMD_POST_SEND] =
		CMD(uverbs_cmd_post_send, struct ib_uverbs_post_send,
		    sizeof(struct ib_uverbs_post_send_resp)),
	[IB_USER_VERBS_CMD_ATTACH_MCAST] =
		CMD(uverbs_cmd_attach_mcast, struct ib_uverbs_attach_mcast, 0),
	[IB_USER_VERBS_CMD_DETACH_MCAST] =
		CMD(uverbs_cmd_detach_mcast, struct ib_uverbs_detach_mcast, 0),
	[IB_USER_VERBS_CMD_CREATE_SRQ] =
		CMD(uverbs_cmd_create_srq, struct ib_uverbs_create_srq,
		    sizeof(struct ib_uverbs_create_srq_resp)),
	[IB_USER_VERBS_CMD_MODIFY_SRQ] =
		CMD(uverbs_cmd_modify_srq, struct ib_uverbs_modify_srq, 0),
	[IB_USER_VERBS_CMD_QUERY_SRQ] =
		CMD(uverbs_cmd_query_srq, struct ib_uverbs_query_srq,
		    sizeof(struct ib_uverbs_query_srq_resp)),
	[IB_USER_VERBS_CMD_DESTROY_SRQ] =
		CMD(uverbs_cmd_destroy_srq, struct ib_uverbs_destroy_srq,
		    sizeof(struct ib_uverbs_destroy_srq_resp)),
};

static const struct uverbs_cmd_def ex_cmds[] = {
	[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] = {
		.handler = cmd_ex_query_device,
		/* old libraries know the response only up to response_length */
		.size = CMD_SIZES(struct ib_uverbs_ex_query_device,
				  EX_RESP(struct ib_uverbs_ex_query_device_resp)),
	},
	[IB_USER_VERBS_EX_CMD_CREATE_CQ] =
		CMD_EX(uverbs_cmd_ex_create_cq, struct ib_uverbs_ex_create_cq,
		       reserved, EX_RESP(struct ib_uverbs_ex_create_cq_resp)),
	[IB_USER_VERBS_EX_CMD_CREATE_QP] =
		CMD_EX(uverbs_cmd_ex_create_qp, struct ib_uverbs_ex_create_qp,
		       comp_mask, EX_RESP(struct ib_uverbs_ex_create_qp_resp)),
	[IB_USER_VERBS_EX_CMD_MODIFY_QP] =
		CMD_EX(uverbs_cmd_ex_modify_qp, struct ib_uverbs_ex_modify_qp,
		       base, EX_RESP(struct ib_uverbs_ex_modify_qp_resp)),
};

static_assert(sizeof(struct ib_uverbs_modify_qp) <= UVERBS_MAX_REQ);
static_assert(sizeof(struct ib_uverbs_ex_modify_qp) <= UVERBS_MAX_REQ);
static_assert(sizeof(struct ib_uverbs_ex_create_qp) <= UVERBS_MAX_REQ);
static_assert(sizeof(struct ib_uverbs_create_ah) <= UVERBS_MAX_REQ);

static const struct uverbs_cmd_def *find_cmd(u32 num, bool ex)
{
	const struct uverbs_cmd_def *table = ex ? ex_cmds : legacy_cmds;
	size_t n = ex ? ARRAY_SIZE(ex_cmds) : ARRAY_SIZE(legacy_cmds);

	if (num >= n || !table[num].handler)
		return NULL;
	return &table[num];
}

/* ---- dispatch ---- */

/*
 * Read and check the header(s), find the command (*def), copy its core
 * request into @req.
 */
static int parse_cmd(struct uverbs_cmd_ctx *ctx, size_t count, u64 *req,
		     const struct uverbs_cmd_def **def_out)
{
	struct ib_uverbs_ex_cmd_hdr ex_hdr;
	const struct uverbs_cmd_def *def;
	struct ib_uverbs_cmd_hdr hdr;
	const char __user *core;
	u32 num, copy, known;
	bool ex;
	int ret;

	if (count < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, ctx->buf, sizeof(hdr)))
		return -EFAULT;
	ret = uverbs_cmd_number(hdr.command, &num, &ex);
	if (ret)
		return ret;
	def = find_cmd(num, ex);
	if (!def)
		return -EOPNOTSUPP;

	if (ex) {
		if (count < UVERBS_EX_HDR_LEN)
			return -EINVAL;
		if (copy_from_user(&ex_hdr, ctx->buf + sizeof(hdr), sizeof(ex_hdr)))
			return -EFAULT;
		ret = uverbs_cmd_check_ex(&hdr, &ex_hdr, count, &def->size,
					  &ctx->layout);
	} else {
		ret = uverbs_cmd_check_legacy(&hdr, count, &def->size, &ctx->layout);
	}
	if (ret)
		return ret;

	core = ctx->buf + ctx->layout.core_in_off;
	known = max_t(u32, def->size.req, def->req_known);
	copy = min_t(u32, ctx->layout.core_in_len, known);
	memset(req, 0, UVERBS_MAX_REQ);
	if (copy_from_user(req, core, copy))
		return -EFAULT;
	/* an extended request longer than we know must be zero past it */
	if (ctx->layout.core_in_len > known) {
		ret = check_zeroed_user(core + known,
					ctx->layout.core_in_len - known);
		if (ret <= 0)
			return ret ? ret : -EOPNOTSUPP;
	}

	if (ex)
		ctx->resp = u64_to_user_ptr(ex_hdr.response);
	else if (def->size.resp)	/* legacy: the request starts with it */
		ctx->resp = u64_to_user_ptr(req[0]);
	*def_out = def;
	return 0;
}

/* write() on /dev/infiniband/uverbsN, the device alive (see uverbs_main.c). */
ssize_t uverbs_cmd_write(struct uverbs_file *file, struct ib_device *ib_dev,
			 const char __user *buf, size_t count)
{
	u64 req[UVERBS_MAX_REQ / sizeof(u64)];
	const struct uverbs_cmd_def *def = NULL;
	struct uverbs_cmd_ctx ctx = {
		.file = file,
		.ib_dev = ib_dev,
		.ucontext = NULL,
		.req = req,
		.resp = NULL,
		.buf = buf,
	};
	int ret;

	ret = parse_cmd(&ctx, count, req, &def);
	if (ret)
		return ret;
	/* pairs with smp_store_release() in cmd_get_context() */
	ctx.ucontext = smp_load_acquire(&file->ucontext);
	if (!ctx.ucontext && !def->no_context)
		return -EINVAL;
	ret = def->handler(&ctx);
	return ret ? ret : (ssize_t)count;
}
