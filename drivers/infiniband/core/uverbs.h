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
#include <linux/wait.h>
#include <linux/xarray.h>
#include <rdma/ib_device.h>
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
	/* port events of @ib_dev fan out to every context's async file */
	struct ib_event_handler event_handler;
	spinlock_t async_lock;		/* @async_files; taken in atomic context */
	struct list_head async_files;
};

/* A bounded queue of async event descriptors, read() by user space. */
struct uverbs_async_file {
	struct kref ref;		/* the uverbs file's and the anon file's */
	struct uverbs_device *udev;	/* get_device() held */
	struct list_head list;		/* in udev->async_files, under async_lock */
	spinlock_t lock;		/* everything below */
	struct list_head events;
	unsigned int count;		/* queued events */
	unsigned int dropped;		/* lost to a full queue */
	bool fatal_pending;		/* report DEVICE_FATAL after the queue */
	bool closed;			/* no more events: EIO once drained */
	wait_queue_head_t wait;
};

/*
 * The user context of one open file (GET_CONTEXT).  Objects (PD, CQ, QP...)
 * will live in @objects, keyed by the handle user space passes back.
 */
struct uverbs_ucontext {
	struct uverbs_async_file *async;
	struct xarray objects;		/* handle -> object, XA_FLAGS_ALLOC */
};

/* One open of /dev/infiniband/uverbsN. */
struct uverbs_file {
	struct uverbs_device *udev;	/* get_device() held */
	struct mutex context_mutex;	/* creating @ucontext */
	/* set once by GET_CONTEXT (smp_store_release), freed at release */
	struct uverbs_ucontext *ucontext;
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

/* uverbs_cmd.c */
ssize_t uverbs_cmd_write(struct uverbs_file *file, struct ib_device *ib_dev,
			 const char __user *buf, size_t count);

/* uverbs_event.c */
struct file *uverbs_async_file_create(struct uverbs_device *udev,
				      struct uverbs_async_file **out);
void uverbs_async_file_detach(struct uverbs_async_file *async);
void uverbs_async_file_put(struct uverbs_async_file *async);
void uverbs_event_handler(struct ib_event_handler *handler,
			  struct ib_event *event);
void uverbs_async_disassociate(struct uverbs_device *udev);

#endif /* _UVERBS_H */
