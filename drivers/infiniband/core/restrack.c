// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Resource tracking for "rdma res": each device keeps one allocating
 * xarray per object type.  An entry is listed between rdma_restrack_add()
 * and rdma_restrack_del(); a dumper pins a listed entry with
 * rdma_restrack_get() and the owner's del waits until every pin is gone,
 * so a dump never reads a freed object.
 */
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "core_priv.h"

void rdma_restrack_init(struct ib_device *dev)
{
	int i;

	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_init_flags(&dev->res[i], XA_FLAGS_ALLOC);
}

/* The device is being freed: every object is gone by now. */
void rdma_restrack_clean(struct ib_device *dev)
{
	int i;

	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_destroy(&dev->res[i]);
}

/*
 * How far before its restrack entry each tracked object keeps its device
 * pointer; 0 for types whose objects are not verbs objects of ours (the
 * entry's own @device is used then).
 */
#define DEV_BEFORE_RES(type) \
	(offsetof(struct type, res) - offsetof(struct type, device))

static const size_t res_dev_gap[RDMA_RESTRACK_MAX] = {
	[RDMA_RESTRACK_PD] = DEV_BEFORE_RES(ib_pd),
	[RDMA_RESTRACK_CQ] = DEV_BEFORE_RES(ib_cq),
	[RDMA_RESTRACK_QP] = DEV_BEFORE_RES(ib_qp),
	[RDMA_RESTRACK_MR] = DEV_BEFORE_RES(ib_mr),
	[RDMA_RESTRACK_CTX] = DEV_BEFORE_RES(ib_ucontext),
	[RDMA_RESTRACK_SRQ] = DEV_BEFORE_RES(ib_srq),
};

static struct ib_device *res_device(struct rdma_restrack_entry *res)
{
	size_t gap = res_dev_gap[res->type];

	if (!gap)
		return res->device;
	return *(struct ib_device **)((char *)res - gap);
}

void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type)
{
	res->valid = false;
	res->user = false;
	res->type = type;
	res->task = NULL;
	res->kern_name = NULL;
	res->id = 0;
	res->device = NULL;
	kref_init(&res->kref);
	init_completion(&res->comp);
}
EXPORT_SYMBOL(rdma_restrack_new);

void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller)
{
	if (res->task) {
		put_task_struct(res->task);
		res->task = NULL;
	}
	if (caller) {
		res->user = false;
		res->kern_name = caller;
		return;
	}
	res->user = true;
	res->kern_name = NULL;
	get_task_struct(current);
	res->task = current;
}
EXPORT_SYMBOL(rdma_restrack_set_name);

/*
 * @res is owned by whoever owns @parent: an object made on behalf of
 * another one (rdma_cm's new ID of a listener runs in a work item, not
 * in the listening task).
 */
void rdma_restrack_parent_name(struct rdma_restrack_entry *res,
			       const struct rdma_restrack_entry *parent)
{
	if (res->task) {
		put_task_struct(res->task);
		res->task = NULL;
	}
	res->user = parent->user;
	res->kern_name = parent->kern_name;
	if (parent->task) {
		get_task_struct(parent->task);
		res->task = parent->task;
	}
}
EXPORT_SYMBOL(rdma_restrack_parent_name);

void rdma_restrack_add(struct rdma_restrack_entry *res)
{
	struct ib_device *dev;
	struct xarray *xa;
	int ret = -EBUSY;

	if (res->type >= RDMA_RESTRACK_MAX)
		return;
	dev = res_device(res);
	if (!dev)
		return;
	res->device = dev;
	/* fresh pin count: this may list an entry again after a refused destroy */
	kref_init(&res->kref);
	reinit_completion(&res->comp);
	xa = &dev->res[res->type];
	/* A QP is listed under its number when that is free (QP1 per port is not). */
	if (res->type == RDMA_RESTRACK_QP) {
		res->id = container_of(res, struct ib_qp, res)->qp_num;
		ret = xa_insert(xa, res->id, res, GFP_KERNEL);
	}
	if (ret)
		ret = xa_alloc(xa, &res->id, res, xa_limit_32b, GFP_KERNEL);
	res->valid = !ret;
}
EXPORT_SYMBOL(rdma_restrack_add);

static void restrack_release(struct kref *kref)
{
	struct rdma_restrack_entry *res =
		container_of(kref, struct rdma_restrack_entry, kref);

	complete(&res->comp);
}

int rdma_restrack_get(struct rdma_restrack_entry *res)
{
	return kref_get_unless_zero(&res->kref);
}

void rdma_restrack_put(struct rdma_restrack_entry *res)
{
	kref_put(&res->kref, restrack_release);
}

void rdma_restrack_unlist(struct rdma_restrack_entry *res)
{
	if (!res->valid)
		return;
	xa_erase(&res->device->res[res->type], res->id);
	res->valid = false;
	rdma_restrack_put(res);
	wait_for_completion(&res->comp);
}
EXPORT_SYMBOL(rdma_restrack_unlist);

/*
 * Unlist the entry and wait for dumpers still holding it.  Also the undo
 * of rdma_restrack_new()/_set_name() when the object never got listed.
 */
void rdma_restrack_del(struct rdma_restrack_entry *res)
{
	rdma_restrack_unlist(res);
	if (res->task) {
		put_task_struct(res->task);
		res->task = NULL;
	}
}
EXPORT_SYMBOL(rdma_restrack_del);

bool rdma_is_visible_in_pid_ns(struct rdma_restrack_entry *res)
{
	if (!res->user)
		return task_active_pid_ns(current) == &init_pid_ns;
	/* 0: the owner is not in the caller's pid namespace tree */
	return res->task && task_pid_vnr(res->task);
}
EXPORT_SYMBOL(rdma_is_visible_in_pid_ns);

int rdma_restrack_count(struct ib_device *device,
			enum rdma_restrack_type type, bool show_details)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct rdma_restrack_entry *res;
	unsigned long index;
	int n = 0;

	if (type >= RDMA_RESTRACK_MAX)
		return 0;
	xa_lock(&device->res[type]);
	xa_for_each(&device->res[type], index, res)
		if (ns == &init_pid_ns ||
		    (res->user && res->task &&
		     ns == task_active_pid_ns(res->task)))
			n++;
	xa_unlock(&device->res[type]);
	return n;
}
EXPORT_SYMBOL(rdma_restrack_count);

/*
 * The first listed entry of @type with id >= *@id, pinned (put it with
 * rdma_restrack_put()); *@id is its id.  NULL past the last one.
 */
struct rdma_restrack_entry *rdma_restrack_get_next(struct ib_device *device,
						   enum rdma_restrack_type type,
						   unsigned long *id)
{
	struct xarray *xa = &device->res[type];
	struct rdma_restrack_entry *res;

	xa_lock(xa);
	for (;;) {
		res = (struct rdma_restrack_entry *)xa_find(xa, id, ULONG_MAX,
							     XA_PRESENT);
		if (!res || rdma_restrack_get(res))
			break;
		(*id)++;
	}
	xa_unlock(xa);
	return res;
}

/* The entry of @type listed under @id, pinned; NULL if none. */
struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *device,
						   enum rdma_restrack_type type,
						   u32 id)
{
	struct xarray *xa = &device->res[type];
	struct rdma_restrack_entry *res;

	xa_lock(xa);
	res = (struct rdma_restrack_entry *)xa_load(xa, id);
	if (res && !rdma_restrack_get(res))
		res = NULL;
	xa_unlock(xa);
	return res;
}
