/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_uverbs internals: the per-device char device, the per-open file with
 * its user context, the async event file and the command table.  Lifetime
 * and locking rules are in Documentation/core/uverbs.rst.
 */
#ifndef _UVERBS_H
#define _UVERBS_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <rdma/ib_device.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_cmd_check.h"

/* Events an async file holds before it drops (and counts) new ones. */
#define UVERBS_ASYNC_QUEUE_MAX	256

/*
 * One per (ib_device, uverbs client): /dev/infiniband/uverbsN.  The memory
 * is owned by @dev (class infiniband_verbs); every open file holds a
 * reference, so it outlives the ib_device when files stay open.
 */
struct uverbs_device {
	struct device dev;
	struct cdev cdev;
	int devnum;			/* N of uverbsN */
	u32 abi_ver;			/* the driver's ABI, fixed at add() */
	u32 driver_id;			/* enum rdma_driver_id, for netlink */
	/*
	 * Read-held by every file operation while it uses @ib_dev;
	 * write-held by remove() to set it NULL (the device is going away).
	 */
	struct rw_semaphore disassoc_rwsem;
	struct ib_device *ib_dev;
	/*
	 * mmap() runs under the mm's mmap_lock, which write() may take
	 * (page faults) while holding disassoc_rwsem: mmap() therefore uses
	 * SRCU instead, and remove() sets @gone and waits for it before it
	 * destroys the contexts.
	 */
	struct srcu_struct mmap_srcu;
	bool gone;
	/* port events of @ib_dev fan out to every context's async file */
	struct ib_event_handler event_handler;
	spinlock_t async_lock;		/* @async_files; taken in atomic context */
	struct list_head async_files;
	/* live user contexts, torn down by remove(); under contexts_mutex */
	struct mutex contexts_mutex;
	struct list_head contexts;
};

/*
 * A bounded queue of event descriptors read() by user space: the async
 * file's and a completion channel's.
 */
struct uverbs_ev_queue {
	spinlock_t lock;		/* everything below; irq-safe */
	struct list_head events;	/* struct uverbs_event */
	unsigned int count;		/* queued events */
	unsigned int dropped;		/* lost to a full queue */
	bool closed;			/* no more events: EIO once drained */
	wait_queue_head_t wait;
};

/* A bounded queue of async event descriptors, read() by user space. */
struct uverbs_async_file {
	struct kref ref;		/* the uverbs file's and the anon file's */
	struct uverbs_device *udev;	/* get_device() held */
	struct list_head list;		/* in udev->async_files, under async_lock */
	struct uverbs_ev_queue q;
	bool fatal_pending;		/* report DEVICE_FATAL after the queue */
};

/* A completion channel (CREATE_COMP_CHANNEL): comp events of its CQs. */
struct uverbs_comp_file {
	struct kref ref;		/* the fd's, the context's, each CQ's */
	struct uverbs_ucontext *uctx;	/* owner; NULL once detached */
	struct list_head list;		/* in uctx->comp_files */
	struct uverbs_ev_queue q;
};

/* What a handle can name; also the teardown order (see uverbs_obj.c). */
enum uverbs_obj_type {
	UVERBS_OBJ_PD,
	UVERBS_OBJ_MR,
	UVERBS_OBJ_MW,
	UVERBS_OBJ_CQ,
	UVERBS_OBJ_QP,
	UVERBS_OBJ_SRQ,
	UVERBS_OBJ_AH,
	UVERBS_OBJ_MAX
};

struct uverbs_ucontext;
struct uverbs_comp_file;

/*
 * A user object: what a handle stands for.  The verbs object keeps a
 * pointer to it (->uobject) and it is the context of the object's event
 * handlers.  Reference counted: the handle table holds one, every command
 * using it holds one for the duration.
 */
struct ib_uobject {
	struct kref ref;
	/*
	 * Users: > 0 commands using the object (shared), -1 being destroyed
	 * (exclusive).  Lock free: a destroy racing a use gets EBUSY, never
	 * waits, so commands can hold several objects without lock order.
	 */
	atomic_t usecnt;
	enum uverbs_obj_type type;
	u32 handle;
	u64 user_handle;		/* echoed in events (CQ, QP, SRQ) */
	void *object;			/* struct ib_pd *, ib_mr *, ... */
	struct uverbs_ucontext *uctx;
	/*
	 * Events of this object queued but not yet read, and how many were
	 * read; under the lock of the queue they are on (the context's async
	 * file, the CQ's completion channel).  Destroy responses report the
	 * counts after unqueueing what is left.
	 */
	struct list_head async_events;
	u32 async_events_reported;
	struct uverbs_comp_file *comp;	/* CQ: its channel (referenced) */
	struct list_head comp_events;
	u32 comp_events_reported;
	/* QP: its multicast attachments (uverbs_cmd_mcast.c) */
	struct mutex mcast_lock;
	struct list_head mcasts;	/* struct uverbs_mcast, under mcast_lock */
};

/*
 * The user context of one open file (GET_CONTEXT): the driver's context,
 * the async event file, the handle table and the completion channels.
 */
struct uverbs_ucontext {
	struct uverbs_file *file;
	/* NULL once torn down (file closed or device removed) */
	struct ib_ucontext *ib_uctx;
	struct uverbs_async_file *async;
	struct xarray objects;		/* handle -> ib_uobject, XA_FLAGS_ALLOC */
	spinlock_t comp_lock;		/* @comp_files */
	struct list_head comp_files;
	struct list_head list;		/* in uverbs_device.contexts */
};

/* One open of /dev/infiniband/uverbsN. */
struct uverbs_file {
	struct uverbs_device *udev;	/* get_device() held */
	struct mutex context_mutex;	/* creating @ucontext */
	/* set once by GET_CONTEXT (smp_store_release), freed at release */
	struct uverbs_ucontext *ucontext;
	/* live mmaps of the file (uverbs_mmap.c); they hold the file */
	struct mutex umap_lock;
	struct list_head umaps;
};

/* One write() being executed: what a command handler gets. */
struct uverbs_cmd_ctx {
	struct uverbs_file *file;
	struct ib_device *ib_dev;	/* alive: disassoc_rwsem read-held */
	struct uverbs_ucontext *ucontext; /* NULL only for GET_CONTEXT */
	const void *req;		/* core request, zero-padded to the table size */
	void __user *resp;		/* core response, then driver response */
	struct uverbs_cmd_layout layout;
	const char __user *buf;		/* the whole write() buffer */
};

/* uverbs_cmd.c: helpers for the handlers */
int uverbs_copy_resp(struct uverbs_cmd_ctx *ctx, const void *resp, size_t len);
void uverbs_init_udata(struct uverbs_cmd_ctx *ctx, struct ib_udata *udata);
/* response_length of an extended response of full size @len */
u32 uverbs_ex_resp_len(struct uverbs_cmd_ctx *ctx, size_t len);
void uverbs_dev_limits(struct ib_device *dev, struct uverbs_dev_limits *lim);
ssize_t uverbs_cmd_write(struct uverbs_file *file, struct ib_device *ib_dev,
			 const char __user *buf, size_t count);
/* ioctl(RDMA_VERBS_IOCTL): the GID queries (uverbs_ioctl.c) */
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* command handlers, by family (uverbs_cmd_*.c) */
int uverbs_cmd_alloc_pd(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_dealloc_pd(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_reg_mr(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_rereg_mr(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_dereg_mr(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_alloc_mw(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_dealloc_mw(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_comp_channel(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_create_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_resize_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_req_notify_cq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_create_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_modify_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_ex_modify_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_query_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_qp(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_post_send(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_modify_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_query_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_srq(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_create_ah(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_destroy_ah(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_attach_mcast(struct uverbs_cmd_ctx *ctx);
int uverbs_cmd_detach_mcast(struct uverbs_cmd_ctx *ctx);
/*
 * The QP of @uobj is about to be destroyed by teardown (file closed,
 * device gone): detach what user space left attached.
 */
void uverbs_mcast_detach_all(struct ib_uobject *uobj);

/* uverbs_cmd_qp.c: a user address vector (checked port) for core */
void uverbs_ah_attr_from_user(struct ib_device *dev, struct rdma_ah_attr *ah,
			      const struct ib_uverbs_qp_dest *d);

/* uverbs_obj.c: the handle table */
struct ib_uobject *uverbs_uobj_alloc(struct uverbs_ucontext *uctx,
				     enum uverbs_obj_type type, u64 user_handle);
void uverbs_uobj_commit(struct ib_uobject *uobj, void *object);

/* A create command in progress: its uobject, the PD it is on, the udata. */
struct uverbs_create {
	struct ib_uobject *uobj;
	struct ib_uobject *pd_uobj;	/* NULL: not made on a PD */
	struct ib_pd *pd;
	struct ib_udata udata;
};
/* Use the PD (if @pd_handle), reserve a handle; -errno or 0. */
int uverbs_create_begin(struct uverbs_cmd_ctx *ctx, enum uverbs_obj_type type,
			u64 user_handle, const u32 *pd_handle,
			struct uverbs_create *c);
/* After core's create (@object may be an ERR_PTR): respond and commit. */
int uverbs_create_end(struct uverbs_cmd_ctx *ctx, struct uverbs_create *c,
		      void *object, const void *resp, size_t len);
void uverbs_uobj_abort(struct ib_uobject *uobj);
/*
 * Use the object of @handle (shared) until uverbs_uobj_put().  -ENOENT: no
 * such handle; -EINVAL: another type; -EBUSY: being created or destroyed.
 */
struct ib_uobject *uverbs_uobj_get(struct uverbs_ucontext *uctx,
				   enum uverbs_obj_type type, u32 handle);
/* The same, as the create/modify commands answer: -EINVAL for all. */
void *uverbs_obj_use(struct uverbs_ucontext *uctx, enum uverbs_obj_type type,
		     u32 handle, struct ib_uobject **uobj);
void uverbs_uobj_put(struct ib_uobject *uobj);
struct ib_uobject *uverbs_uobj_get_excl(struct uverbs_ucontext *uctx,
					enum uverbs_obj_type type, u32 handle);
void uverbs_uobj_put_excl(struct ib_uobject *uobj);
/*
 * Destroy the object of @handle.  On success *out is the dead uobject
 * (its events unqueued, counters final): read them, then
 * uverbs_uobj_free() it.
 */
int uverbs_uobj_destroy(struct uverbs_ucontext *uctx, enum uverbs_obj_type type,
			u32 handle, struct ib_uobject **out);
void uverbs_uobj_free(struct ib_uobject *uobj);
/* A command's handler with only a handle to destroy and no response. */
int uverbs_destroy_handle(struct uverbs_cmd_ctx *ctx, enum uverbs_obj_type type,
			  u32 handle);
/* The same, giving the events read (either pointer may be NULL). */
int uverbs_destroy_counted(struct uverbs_cmd_ctx *ctx,
			   enum uverbs_obj_type type, u32 handle,
			   u32 *comp_events, u32 *async_events);
void uverbs_ucontext_teardown(struct uverbs_ucontext *uctx, bool disassociate);

/* uverbs_mmap.c */
int uverbs_umap_mmap(struct uverbs_file *file, struct ib_ucontext *uctx,
		     struct vm_area_struct *vma);
void uverbs_umaps_disassociate(struct uverbs_file *file);

/* uverbs_event.c */
struct file *uverbs_async_file_create(struct uverbs_device *udev,
				      struct uverbs_async_file **out);
void uverbs_async_file_detach(struct uverbs_async_file *async);
void uverbs_async_file_put(struct uverbs_async_file *async);
void uverbs_event_handler(struct ib_event_handler *handler,
			  struct ib_event *event);
void uverbs_async_disassociate(struct uverbs_device *udev);
/* object event handlers (context: the ib_uobject) */
void uverbs_obj_event_handler(struct ib_event *event, void *context);
void uverbs_comp_handler(struct ib_cq *cq, void *context);
/* drop the events of @uobj still queued (it is being destroyed) */
void uverbs_purge_obj_events(struct ib_uobject *uobj);
struct file *uverbs_comp_file_create(struct uverbs_ucontext *uctx,
				     struct uverbs_comp_file **out);
struct uverbs_comp_file *uverbs_comp_file_get(struct uverbs_ucontext *uctx,
					      int fd);
void uverbs_comp_file_put(struct uverbs_comp_file *comp);
void uverbs_comp_files_detach(struct uverbs_ucontext *uctx);

#endif /* _UVERBS_H */
