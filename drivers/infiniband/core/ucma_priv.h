/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_ucm internals: the file, the context of one user rdma_cm ID, its
 * multicast groups and queued events (Documentation/core/rdma_ucm.rst).
 *
 * Lock order: ctx->mutex, then the ID's handler mutex (rdma_lock_handler()
 * or the handler itself), then file->mut (two files: lower address first),
 * then the xarray locks.
 */
#ifndef _UCMA_PRIV_H
#define _UCMA_PRIV_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/fs.h>
#include <rdma/rdma_cm.h>

#include "ucma_cmd_check.h"

struct ucma_file {
	struct mutex mut;		/* ctx_list, event_list, ctx->file */
	struct file *filp;
	struct list_head ctx_list;	/* every context of this file */
	struct list_head event_list;	/* undelivered, oldest first */
	wait_queue_head_t poll_wait;
};

struct ucma_context {
	u32 id;				/* ucma_ctx_table index */
	/* 1 for the table (or the listener's pending event), 1 per user */
	refcount_t ref;
	struct completion comp;		/* ref reached 0 */
	/* serialises commands into rdma_cm; guards cm_id and mc_list */
	struct mutex mutex;
	struct ucma_file *file;		/* under file->mut and the table lock */
	struct rdma_cm_id *cm_id;	/* NULL once the device went away */
	u64 uid;			/* 0: a new ID not accepted yet */
	u32 events_reported;		/* under file->mut */
	atomic_t backlog;		/* CONNECT_REQUESTs still admitted */
	struct list_head list;		/* in file->ctx_list */
	struct list_head mc_list;
	struct work_struct close_work;	/* device removal */
};

struct ucma_multicast {
	struct ucma_context *ctx;
	u32 id;				/* ucma_mc_table index */
	u64 uid;
	u8 join_state;
	u32 events_reported;		/* under file->mut */
	struct list_head list;		/* in ctx->mc_list */
	struct sockaddr_storage addr;
};

struct ucma_event {
	struct ucma_context *ctx;
	/* CONNECT_REQUEST: the new ID's context, owned by this event */
	struct ucma_context *conn_req_ctx;
	struct ucma_multicast *mc;
	struct list_head list;
	struct rdma_ucm_event_resp resp;
};

/* One write(): what the handlers see. */
struct ucma_cmd {
	struct ucma_file *file;
	const struct ucma_cmd_layout *l;
	void *payload;			/* l->in_len bytes, zero-padded */
	u64 resp;			/* user address, 0 if none */
};

extern struct xarray ucma_ctx_table;
extern struct xarray ucma_mc_table;
extern int ucma_max_backlog;

/* ucma.c */
struct ucma_context *ucma_get_ctx(struct ucma_file *file, u32 id);
void ucma_put_ctx(struct ucma_context *ctx);
struct ucma_context *ucma_alloc_ctx(struct ucma_file *file);
void ucma_publish_ctx(struct ucma_context *ctx);
u32 ucma_destroy_ctx(struct ucma_context *ctx);
struct ucma_context *ucma_take_ctx(struct ucma_file *file, u32 id);
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev);
void ucma_copy_ah_attr(struct ib_uverbs_ah_attr *dst,
		       const struct rdma_ah_attr *src);
int ucma_get_event(struct ucma_cmd *c, struct file *filp);
int ucma_migrate_id(struct ucma_cmd *c);
int ucma_copy_resp(struct ucma_cmd *c, const void *resp);
bool ucma_is_ucma_file(struct file *filp);

/* ucma_cmd.c: run checked command c->l->cmd (-ENOSYS: none such) */
int ucma_run_cmd(struct ucma_cmd *c, struct file *filp);

/* ucma_mcast.c */
int ucma_join_ip_mcast(struct ucma_cmd *c);
int ucma_join_mcast(struct ucma_cmd *c);
int ucma_leave_mcast(struct ucma_cmd *c);
/* after the ID is destroyed: every group of @ctx, its events gone */
void ucma_free_mcs(struct ucma_context *ctx);

#endif /* _UCMA_PRIV_H */
