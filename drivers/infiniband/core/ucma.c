// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm: the misc device /dev/infiniband/rdma_cm through which
 * librdmacm drives rdma_cm IDs (ABI 4, Documentation/core/rdma_ucm.rst).
 *
 * This file holds the file (open, write dispatch, poll, release), the
 * contexts (one per user ID, found by number in a global table and owned
 * by one file), the event queue and its bookkeeping, MIGRATE_ID, and the
 * module's registration.  The commands are in ucma_cmd.c, multicast in
 * ucma_mcast.c.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/poll.h>
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/cred.h>
#include <linux/sysctl.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include "ucma_priv.h"
#include "ucma_resp.h"

MODULE_DESCRIPTION("RDMA connection manager for user space (rdma_cm device)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS("rdma-client-rdma_cm");

DEFINE_XARRAY_ALLOC(ucma_ctx_table);
DEFINE_XARRAY_ALLOC(ucma_mc_table);

/* device-removal work; drained before the module goes */
static struct workqueue_struct *ucma_wq;

/* net.rdma_ucm.max_backlog: LISTEN's backlog outside 1..this becomes this */
int ucma_max_backlog = 1024;

/* ---- contexts ---- */

static void ucma_close_work(struct work_struct *work);

/*
 * A new context of @file, listed on it, with a number reserved in the
 * table that lookups do not find until ucma_publish_ctx().
 */
struct ucma_context *ucma_alloc_ctx(struct ucma_file *file)
{
	struct ucma_context *ctx;

	ctx = (struct ucma_context *)kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return NULL;
	refcount_set(&ctx->ref, 1);
	init_completion(&ctx->comp);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->mc_list);
	INIT_WORK(&ctx->close_work, ucma_close_work);
	ctx->file = file;
	if (xa_alloc(&ucma_ctx_table, &ctx->id, NULL, xa_limit_32b,
		     GFP_KERNEL_ACCOUNT)) {
		mutex_destroy(&ctx->mutex);
		kfree(ctx);
		return NULL;
	}
	mutex_lock(&file->mut);
	list_add_tail(&ctx->list, &file->ctx_list);
	mutex_unlock(&file->mut);
	return ctx;
}

/* Let lookups find @ctx (its slot is reserved, so this cannot fail). */
void ucma_publish_ctx(struct ucma_context *ctx)
{
	xa_store(&ucma_ctx_table, ctx->id, ctx, GFP_KERNEL);
}

/*
 * Context @id of @file: with a reference (@take false), or taken out of
 * the table (@take true: the caller then owns the table's reference and
 * passes it to ucma_destroy_ctx()).
 */
static struct ucma_context *ucma_find_ctx(struct ucma_file *file, u32 id,
					  bool take)
{
	struct ucma_context *ctx;
	int ret = 0;

	xa_lock(&ucma_ctx_table);
	ctx = (struct ucma_context *)xa_load(&ucma_ctx_table, id);
	if (!ctx)
		ret = -ENOENT;
	else if (ctx->file != file)
		ret = -EINVAL;
	else if (take)
		__xa_erase(&ucma_ctx_table, id);
	else if (!refcount_inc_not_zero(&ctx->ref))
		ret = -ENOENT;
	xa_unlock(&ucma_ctx_table);
	return ret ? (struct ucma_context *)ERR_PTR(ret) : ctx;
}

struct ucma_context *ucma_get_ctx(struct ucma_file *file, u32 id)
{
	return ucma_find_ctx(file, id, false);
}

struct ucma_context *ucma_take_ctx(struct ucma_file *file, u32 id)
{
	return ucma_find_ctx(file, id, true);
}

void ucma_put_ctx(struct ucma_context *ctx)
{
	if (refcount_dec_and_test(&ctx->ref))
		complete(&ctx->comp);
}

/* Destroy @ctx's rdma_cm ID, if it still has one; the context stays. */
static void ucma_drop_cm_id(struct ucma_context *ctx)
{
	struct rdma_cm_id *cm_id;

	mutex_lock(&ctx->mutex);
	cm_id = ctx->cm_id;
	ctx->cm_id = NULL;
	mutex_unlock(&ctx->mutex);
	if (cm_id)
		rdma_destroy_id(cm_id);
}

/*
 * Move @ctx's undelivered events (and those naming it as the new ID of a
 * CONNECT_REQUEST) to @purged; they are gone from the queue.
 */
static void ucma_purge_events(struct ucma_context *ctx,
			      struct list_head *purged)
{
	struct ucma_event *ev, *tmp;

	lockdep_assert_held(&ctx->file->mut);
	list_for_each_entry_safe(ev, tmp, &ctx->file->event_list, list) {
		if (ev->ctx == ctx || ev->conn_req_ctx == ctx)
			list_move_tail(&ev->list, purged);
	}
}

/*
 * Destroy @ctx, already out of the table (or never in it), with the
 * reference the table held: wait for the commands still using it, destroy
 * its rdma_cm ID (which waits for its handler), drop its undelivered
 * events (a listener's pending CONNECT_REQUESTs destroy their new IDs),
 * free its multicast groups.  Return: the events it reported.
 */
u32 ucma_destroy_ctx(struct ucma_context *ctx)
{
	struct ucma_event *ev, *tmp;
	struct ucma_file *file;
	LIST_HEAD(purged);
	u32 reported;

	ucma_put_ctx(ctx);
	wait_for_completion(&ctx->comp);

	ucma_drop_cm_id(ctx);

	file = ctx->file;
	mutex_lock(&file->mut);
	ucma_purge_events(ctx, &purged);
	reported = ctx->events_reported;
	list_del(&ctx->list);
	mutex_unlock(&file->mut);

	list_for_each_entry_safe(ev, tmp, &purged, list) {
		if (ev->ctx == ctx && ev->conn_req_ctx) {
			xa_erase(&ucma_ctx_table, ev->conn_req_ctx->id);
			ucma_destroy_ctx(ev->conn_req_ctx);
		}
		list_del(&ev->list);
		kfree(ev);
	}
	ucma_free_mcs(ctx);
	mutex_destroy(&ctx->mutex);
	kfree(ctx);
	return reported;
}

/* The device went away: destroy the ID now; the context stays. */
static void ucma_close_work(struct work_struct *work)
{
	struct ucma_context *ctx =
		container_of(work, struct ucma_context, close_work);

	ucma_drop_cm_id(ctx);
	ucma_put_ctx(ctx);
}

/* ---- events ---- */

void ucma_copy_ah_attr(struct ib_uverbs_ah_attr *dst,
		       const struct rdma_ah_attr *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->grh.dgid, src->grh.dgid.raw, sizeof(dst->grh.dgid));
	dst->grh.flow_label = src->grh.flow_label;
	dst->grh.sgid_index = src->grh.sgid_index;
	dst->grh.hop_limit = src->grh.hop_limit;
	dst->grh.traffic_class = src->grh.traffic_class;
	if (src->type == RDMA_AH_ATTR_TYPE_IB) {
		dst->dlid = src->ib.dlid;
		dst->src_path_bits = src->ib.src_path_bits;
	}
	dst->sl = src->sl;
	dst->static_rate = src->static_rate;
	dst->is_global = !!(src->ah_flags & IB_AH_GRH);
	dst->port_num = (u8)src->port_num;
}

static void ucma_copy_conn_event(struct rdma_ucm_conn_param *dst,
				 const struct rdma_conn_param *src)
{
	/* the peer's QP, then what it lets ours do, then its data */
	dst->qp_num = src->qp_num;
	dst->qkey = src->qkey;
	dst->srq = src->srq;
	dst->initiator_depth = src->initiator_depth;
	dst->responder_resources = src->responder_resources;
	dst->rnr_retry_count = src->rnr_retry_count;
	dst->retry_count = src->retry_count;
	dst->flow_control = src->flow_control;
	if (!src->private_data)
		return;
	dst->private_data_len = src->private_data_len;
	memcpy(dst->private_data, src->private_data, dst->private_data_len);
}

static bool ucma_is_mc_event(enum rdma_cm_event_type type)
{
	return type == RDMA_CM_EVENT_MULTICAST_JOIN ||
	       type == RDMA_CM_EVENT_MULTICAST_ERROR;
}

static void ucma_copy_ud_event(struct rdma_ucm_ud_param *dst,
			       const struct rdma_ud_param *src, bool mc)
{
	/* a multicast event's private data is the group's context */
	if (!mc && src->private_data && src->private_data_len) {
		memcpy(dst->private_data, src->private_data,
		       src->private_data_len);
		dst->private_data_len = src->private_data_len;
	}
	ucma_copy_ah_attr(&dst->ah_attr, &src->ah_attr);
	dst->qp_num = src->qp_num;
	dst->qkey = src->qkey;
}

static struct ucma_event *ucma_new_event(struct ucma_context *ctx,
					 struct rdma_cm_id *cm_id,
					 const struct rdma_cm_event *event)
{
	struct ucma_event *uev;
	bool mc = ucma_is_mc_event(event->event);

	uev = (struct ucma_event *)kzalloc(sizeof(*uev), GFP_KERNEL_ACCOUNT);
	if (!uev)
		return NULL;
	uev->ctx = ctx;
	uev->resp.uid = ctx->uid;
	uev->resp.id = ctx->id;
	uev->resp.event = event->event;
	uev->resp.status = (u32)event->status;
	if (cm_id->qp_type == IB_QPT_UD || mc)
		ucma_copy_ud_event(&uev->resp.param.ud, &event->param.ud, mc);
	else
		ucma_copy_conn_event(&uev->resp.param.conn,
				     &event->param.conn);
	uev->resp.ece = event->ece;
	return uev;
}

/* Called with the ID's handler mutex held, so ctx->file is stable. */
static void ucma_queue_event(struct ucma_context *ctx, struct ucma_event *uev)
{
	struct ucma_file *file = ctx->file;

	mutex_lock(&file->mut);
	list_add_tail(&uev->list, &file->event_list);
	mutex_unlock(&file->mut);
	wake_up_interruptible(&file->poll_wait);
}

/*
 * A request for listener @lctx: a context for the new ID, owned by the
 * event until GET_EVENT delivers it.  A listener out of backlog refuses
 * with -ENOMEM, which drops the request without a reply (the peer sends
 * it again).
 */
static int ucma_connect_request(struct ucma_context *lctx,
				struct rdma_cm_id *cm_id,
				struct rdma_cm_event *event)
{
	struct ucma_context *ctx;
	struct ucma_event *uev;

	if (!atomic_add_unless(&lctx->backlog, -1, 0))
		return -ENOMEM;
	ctx = ucma_alloc_ctx(lctx->file);
	if (!ctx)
		goto err_backlog;
	uev = ucma_new_event(lctx, cm_id, event);
	if (!uev)
		goto err_ctx;
	ctx->cm_id = cm_id;
	cm_id->context = ctx;
	uev->conn_req_ctx = ctx;
	uev->resp.id = ctx->id;
	ucma_queue_event(lctx, uev);
	return 0;

err_ctx:
	xa_erase(&ucma_ctx_table, ctx->id);
	mutex_lock(&lctx->file->mut);
	list_del(&ctx->list);
	mutex_unlock(&lctx->file->mut);
	mutex_destroy(&ctx->mutex);
	kfree(ctx);
err_backlog:
	atomic_inc(&lctx->backlog);
	return -ENOMEM;
}

int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *event)
{
	struct ucma_context *ctx = (struct ucma_context *)cm_id->context;
	struct ucma_multicast *mc;
	struct ucma_event *uev;

	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return ucma_connect_request(ctx, cm_id, event);

	if (event->event == RDMA_CM_EVENT_DEVICE_REMOVAL &&
	    refcount_inc_not_zero(&ctx->ref)) {
		if (!queue_work(ucma_wq, &ctx->close_work))
			ucma_put_ctx(ctx);
	}

	if (ucma_is_mc_event(event->event)) {
		mc = (struct ucma_multicast *)event->param.ud.private_data;
		if (!mc)
			return 0;
		uev = ucma_new_event(ctx, cm_id, event);
		if (!uev)
			return 0;
		uev->mc = mc;
		uev->resp.uid = mc->uid;
		uev->resp.id = mc->id;
		ucma_queue_event(ctx, uev);
		return 0;
	}

	/* a new ID nobody accepted yet has nobody to tell */
	if (!ctx->uid)
		return 0;
	uev = ucma_new_event(ctx, cm_id, event);
	if (uev)
		ucma_queue_event(ctx, uev);
	return 0;
}

int ucma_copy_resp(struct ucma_cmd *c, const void *resp)
{
	if (!c->l->out_len)
		return 0;
	if (copy_to_user(u64_to_user_ptr(c->resp), resp, c->l->out_len))
		return -EFAULT;
	return 0;
}

/* GET_EVENT: the oldest event; blocks unless the file is O_NONBLOCK. */
int ucma_get_event(struct ucma_cmd *c, struct file *filp)
{
	struct ucma_file *file = c->file;
	struct ucma_event *uev;
	int ret;

	mutex_lock(&file->mut);
	while (list_empty(&file->event_list)) {
		mutex_unlock(&file->mut);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(file->poll_wait,
					     !list_empty(&file->event_list)))
			return -ERESTARTSYS;
		mutex_lock(&file->mut);
	}
	uev = list_first_entry(&file->event_list, struct ucma_event, list);
	ret = ucma_copy_resp(c, &uev->resp);
	if (ret)
		goto out;
	list_del(&uev->list);
	uev->ctx->events_reported++;
	if (uev->mc)
		uev->mc->events_reported++;
	if (uev->conn_req_ctx) {
		atomic_inc(&uev->ctx->backlog);
		ucma_publish_ctx(uev->conn_req_ctx);
	}
	mutex_unlock(&file->mut);
	kfree(uev);
	return 0;
out:
	mutex_unlock(&file->mut);
	return ret;
}

/* ---- MIGRATE_ID ---- */

static void ucma_lock_files(struct ucma_file *a, struct ucma_file *b)
{
	if (a < b) {
		mutex_lock(&a->mut);
		mutex_lock_nested(&b->mut, SINGLE_DEPTH_NESTING);
	} else {
		mutex_lock(&b->mut);
		mutex_lock_nested(&a->mut, SINGLE_DEPTH_NESTING);
	}
}

static void ucma_set_file(struct ucma_context *ctx, struct ucma_file *to)
{
	xa_lock(&ucma_ctx_table);
	ctx->file = to;
	xa_unlock(&ucma_ctx_table);
}

/*
 * Move @ctx from @from to @to with its undelivered events, in order (and
 * the new IDs its pending CONNECT_REQUESTs own).
 */
static void ucma_move_ctx(struct ucma_context *ctx, struct ucma_file *from,
			  struct ucma_file *to)
{
	struct ucma_event *ev, *tmp;

	lockdep_assert_held(&from->mut);
	lockdep_assert_held(&to->mut);
	list_for_each_entry_safe(ev, tmp, &from->event_list, list) {
		if (ev->ctx != ctx)
			continue;
		list_move_tail(&ev->list, &to->event_list);
		if (ev->conn_req_ctx) {
			list_move_tail(&ev->conn_req_ctx->list, &to->ctx_list);
			ucma_set_file(ev->conn_req_ctx, to);
		}
	}
	list_move_tail(&ctx->list, &to->ctx_list);
	ucma_set_file(ctx, to);
}

int ucma_migrate_id(struct ucma_cmd *c)
{
	const struct rdma_ucm_migrate_id *cmd =
		(const struct rdma_ucm_migrate_id *)c->payload;
	struct rdma_ucm_migrate_resp resp = {};
	struct ucma_file *from, *to = c->file;
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	struct fd f;
	int ret;

	f = fdget(cmd->fd);
	if (!f.file)
		return -ENOENT;
	if (!ucma_is_ucma_file(f.file)) {
		ret = -EINVAL;
		goto out_fd;
	}
	from = (struct ucma_file *)f.file->private_data;
	ctx = ucma_get_ctx(from, cmd->id);
	if (IS_ERR(ctx)) {
		ret = (int)PTR_ERR(ctx);
		goto out_fd;
	}

	mutex_lock(&ctx->mutex);
	cm_id = ctx->cm_id;
	/* no event of the ID can be queued meanwhile */
	if (cm_id)
		rdma_lock_handler(cm_id);
	if (from != to) {
		ucma_lock_files(from, to);
		ucma_move_ctx(ctx, from, to);
		resp.events_reported = ctx->events_reported;
		mutex_unlock(&from->mut);
		mutex_unlock(&to->mut);
		wake_up_interruptible(&to->poll_wait);
	} else {
		mutex_lock(&to->mut);
		resp.events_reported = ctx->events_reported;
		mutex_unlock(&to->mut);
	}
	if (cm_id)
		rdma_unlock_handler(cm_id);
	mutex_unlock(&ctx->mutex);
	ucma_put_ctx(ctx);
	ret = ucma_copy_resp(c, &resp);
out_fd:
	fdput(f);
	return ret;
}

/* ---- the file ---- */

static int ucma_open(struct inode *inode, struct file *filp)
{
	struct ucma_file *file;

	file = (struct ucma_file *)kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);
	if (!file)
		return -ENOMEM;
	mutex_init(&file->mut);
	INIT_LIST_HEAD(&file->ctx_list);
	INIT_LIST_HEAD(&file->event_list);
	init_waitqueue_head(&file->poll_wait);
	file->filp = filp;
	filp->private_data = file;
	return stream_open(inode, filp);
}

/* The process is gone: destroy every ID it still has. */
static int ucma_release(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = (struct ucma_file *)filp->private_data;
	struct ucma_context *ctx;

	for (;;) {
		mutex_lock(&file->mut);
		ctx = list_first_entry_or_null(&file->ctx_list,
					       struct ucma_context, list);
		mutex_unlock(&file->mut);
		if (!ctx)
			break;
		xa_erase(&ucma_ctx_table, ctx->id);
		ucma_destroy_ctx(ctx);
	}
	mutex_destroy(&file->mut);
	kfree(file);
	return 0;
}

/* Every payload a command copies fits here. */
union ucma_payload {
	struct rdma_ucm_accept accept;
	struct rdma_ucm_connect connect;
	struct rdma_ucm_reject reject;
	struct rdma_ucm_resolve_addr resolve_addr;
	struct rdma_ucm_join_mcast join_mcast;
	struct rdma_ucm_bind bind;
	struct rdma_ucm_resolve_ip resolve_ip;
};

static ssize_t ucma_write(struct file *filp, const char __user *buf,
			  size_t len, loff_t *pos)
{
	struct ucma_file *file = (struct ucma_file *)filp->private_data;
	u8 hdr[UCMA_HDR_LEN];
	union ucma_payload payload;
	struct ucma_cmd_layout l;
	struct ucma_cmd c;
	int ret;

	/* the opener's credentials, not those of whoever writes for it */
	if (filp->f_cred != current_cred())
		return -EACCES;
	if (copy_from_user(hdr, buf, min_t(size_t, len, sizeof(hdr))))
		return -EFAULT;
	ret = ucma_cmd_check(hdr, len, &l);
	if (ret)
		return ret;
	if (l.in_len > sizeof(payload))
		return -EINVAL;
	memset(&payload, 0, sizeof(payload));
	if (copy_from_user(&payload, buf + l.in_off, l.in_copy))
		return -EFAULT;

	c.file = file;
	c.l = &l;
	c.payload = &payload;
	ret = ucma_cmd_response(&payload, &l, &c.resp);
	if (ret)
		return ret;
	ret = ucma_run_cmd(&c, filp);
	return ret ? ret : (ssize_t)len;
}

static __poll_t ucma_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ucma_file *file = (struct ucma_file *)filp->private_data;

	poll_wait(filp, &file->poll_wait, wait);
	return list_empty_careful(&file->event_list) ? 0 :
						       EPOLLIN | EPOLLRDNORM;
}

static const struct file_operations ucma_fops = {
	.owner = THIS_MODULE,
	.llseek = no_llseek,
	.write = ucma_write,
	.poll = ucma_poll,
	.open = ucma_open,
	.release = ucma_release,
};

bool ucma_is_ucma_file(struct file *filp)
{
	return filp->f_op == &ucma_fops;
}

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", RDMA_USER_CM_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *ucma_attrs[] = {
	&dev_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ucma);

static struct miscdevice ucma_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rdma_cm",
	.fops = &ucma_fops,
	.groups = ucma_groups,
	.nodename = "infiniband/rdma_cm",
	.mode = 0666,
};

/* RDMA netlink GET_CHARDEV "rdma_cm": how librdmacm finds the device */
static int ucma_get_nl_info(struct ib_device *dev, void *client_data,
			    struct ib_client_nl_info *res)
{
	if (dev)
		return -EOPNOTSUPP;
	res->abi = RDMA_USER_CM_ABI_VERSION;
	res->cdev = get_device(ucma_misc.this_device);
	return 0;
}

static struct ib_client ucma_client = {
	.name = "rdma_cm",
	.get_nl_info = ucma_get_nl_info,
};

static struct ctl_table ucma_ctl_table[] = {
	{
		.procname = "max_backlog",
		.data = &ucma_max_backlog,
		.maxlen = sizeof(ucma_max_backlog),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = SYSCTL_ONE,
		.extra2 = SYSCTL_INT_MAX,
	},
	{}
};

static struct ctl_table_header *ucma_ctl_header;

static int __init ucma_init(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct rdma_ucm_event_resp) != 336);
	ucma_wq = alloc_ordered_workqueue("rdma_ucm", WQ_MEM_RECLAIM);
	if (!ucma_wq)
		return -ENOMEM;
	ret = misc_register(&ucma_misc);
	if (ret)
		goto err_wq;
	ucma_ctl_header = register_net_sysctl(&init_net, "net/rdma_ucm",
					      ucma_ctl_table);
	if (!ucma_ctl_header) {
		ret = -ENOMEM;
		goto err_misc;
	}
	ret = ib_register_client(&ucma_client);
	if (ret)
		goto err_sysctl;
	return 0;

err_sysctl:
	unregister_net_sysctl_table(ucma_ctl_header);
err_misc:
	misc_deregister(&ucma_misc);
err_wq:
	destroy_workqueue(ucma_wq);
	return ret;
}

static void __exit ucma_exit(void)
{
	ib_unregister_client(&ucma_client);
	unregister_net_sysctl_table(ucma_ctl_header);
	misc_deregister(&ucma_misc);
	destroy_workqueue(ucma_wq);
}

module_init(ucma_init);
module_exit(ucma_exit);
