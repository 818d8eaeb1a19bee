// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The handle table of a user context: every PD, MR, MW, CQ, QP, SRQ and
 * AH user space created through this file, keyed by a u32 handle.
 *
 * A handle is reserved (NULL entry) before the object is created and
 * filled after, so a half-made object is never found.  Lookups run under
 * the xarray lock and take a shared use of the uobject (usecnt > 0); a
 * destroy takes it exclusively (usecnt 0 -> -1) or fails with EBUSY, so a
 * destroy racing another command on the same handle never frees what that
 * command uses, and commands never wait for each other.
 *
 * Teardown (close of the file, removal of the device) destroys what is
 * left in dependency order: QPs, SRQs, AHs, MWs, MRs, CQs, PDs; then the
 * completion channels are closed and the driver's context freed.  See
 * Documentation/core/uverbs.rst.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "uverbs.h"

static int destroy_object(struct ib_uobject *uobj, struct ib_udata *udata);

/* Teardown order: users of an object before the object. */
static const enum uverbs_obj_type teardown_order[] = {
	UVERBS_OBJ_QP,
	UVERBS_OBJ_SRQ,
	UVERBS_OBJ_AH,
	UVERBS_OBJ_MW,
	UVERBS_OBJ_MR,
	UVERBS_OBJ_CQ,
	UVERBS_OBJ_PD,
};
static_assert(ARRAY_SIZE(teardown_order) == UVERBS_OBJ_MAX);

struct ib_uobject *uverbs_uobj_alloc(struct uverbs_ucontext *uctx,
				     enum uverbs_obj_type type, u64 user_handle)
{
	struct ib_uobject *uobj;
	int ret;

	uobj = (struct ib_uobject *)kzalloc(sizeof(*uobj), GFP_KERNEL_ACCOUNT);
	if (!uobj)
		return (struct ib_uobject *)ERR_PTR(-ENOMEM);
	atomic_set(&uobj->usecnt, -1);	/* nobody may use it before commit */
	uobj->type = type;
	uobj->user_handle = user_handle;
	uobj->uctx = uctx;
	INIT_LIST_HEAD(&uobj->async_events);
	INIT_LIST_HEAD(&uobj->comp_events);
	mutex_init(&uobj->mcast_lock);
	INIT_LIST_HEAD(&uobj->mcasts);
	/* a NULL entry reserves the handle; lookups see nothing yet */
	ret = xa_alloc(&uctx->objects, &uobj->handle, NULL, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		mutex_destroy(&uobj->mcast_lock);
		kfree(uobj);
		return (struct ib_uobject *)ERR_PTR(ret);
	}
	return uobj;
}

/* The object exists and user space got its handle: make it findable. */
void uverbs_uobj_commit(struct ib_uobject *uobj, void *object)
{
	uobj->object = object;
	atomic_set(&uobj->usecnt, 0);
	/* the slot is reserved: storing into it cannot allocate */
	xa_store(&uobj->uctx->objects, uobj->handle, uobj, GFP_KERNEL);
}

/* The verbs object points back at its uobject. */
static void set_uobject(struct ib_uobject *uobj, void *object)
{
	switch (uobj->type) {
	case UVERBS_OBJ_PD:
		((struct ib_pd *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_MR:
		((struct ib_mr *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_MW:
		((struct ib_mw *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_CQ:
		((struct ib_cq *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_QP:
		((struct ib_qp *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_SRQ:
		((struct ib_srq *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_AH:
		((struct ib_ah *)object)->uobject = uobj;
		break;
	case UVERBS_OBJ_MAX:
		break;
	}
}

int uverbs_create_begin(struct uverbs_cmd_ctx *ctx, enum uverbs_obj_type type,
			u64 user_handle, const u32 *pd_handle,
			struct uverbs_create *c)
{
	memset(c, 0, sizeof(*c));
	if (pd_handle) {
		c->pd = (struct ib_pd *)uverbs_obj_use(ctx->ucontext,
						       UVERBS_OBJ_PD,
						       *pd_handle, &c->pd_uobj);
		if (IS_ERR(c->pd))
			return PTR_ERR(c->pd);
	}
	c->uobj = uverbs_uobj_alloc(ctx->ucontext, type, user_handle);
	if (IS_ERR(c->uobj)) {
		if (c->pd_uobj)
			uverbs_uobj_put(c->pd_uobj);
		return PTR_ERR(c->uobj);
	}
	uverbs_init_udata(ctx, &c->udata);
	return 0;
}

/*
 * @object is what core created (or an ERR_PTR) and @resp, holding the
 * handle, is ready: write it to user space and commit.  If that fails,
 * destroy the object again.
 */
int uverbs_create_end(struct uverbs_cmd_ctx *ctx, struct uverbs_create *c,
		      void *object, const void *resp, size_t len)
{
	struct ib_uobject *uobj = c->uobj;
	struct ib_udata udata = { .uctx = uobj->uctx->ib_uctx };
	int ret;

	if (c->pd_uobj)
		uverbs_uobj_put(c->pd_uobj);
	if (IS_ERR(object)) {
		uverbs_uobj_abort(uobj);
		return PTR_ERR(object);
	}
	set_uobject(uobj, object);
	ret = uverbs_copy_resp(ctx, resp, len);
	if (!ret) {
		uverbs_uobj_commit(uobj, object);
		return 0;
	}
	uobj->object = object;
	if (destroy_object(uobj, &udata))
		return ret;	/* cannot happen: nobody uses it yet; leak it */
	uverbs_purge_obj_events(uobj);
	uverbs_uobj_abort(uobj);
	return ret;
}

/* Creation failed (no object, or it was destroyed again). */
void uverbs_uobj_abort(struct ib_uobject *uobj)
{
	xa_erase(&uobj->uctx->objects, uobj->handle);
	uverbs_uobj_free(uobj);
}

void uverbs_uobj_free(struct ib_uobject *uobj)
{
	if (uobj->comp)
		uverbs_comp_file_put(uobj->comp);
	mutex_destroy(&uobj->mcast_lock);
	kfree(uobj);
}

/*
 * Find @handle of @type with the xarray locked and, if @destroy, take it
 * exclusively, else shared.
 */
static struct ib_uobject *uobj_lookup(struct uverbs_ucontext *uctx,
				      enum uverbs_obj_type type, u32 handle,
				      bool destroy)
{
	struct ib_uobject *uobj;
	int ret = 0;

	xa_lock(&uctx->objects);
	uobj = (struct ib_uobject *)xa_load(&uctx->objects, handle);
	if (!uobj)
		ret = -ENOENT;
	else if (uobj->type != type)
		ret = -EINVAL;
	else if (destroy && atomic_cmpxchg(&uobj->usecnt, 0, -1) != 0)
		ret = -EBUSY;
	else if (!destroy && !atomic_inc_unless_negative(&uobj->usecnt))
		ret = -EBUSY;
	xa_unlock(&uctx->objects);
	return ret ? (struct ib_uobject *)ERR_PTR(ret) : uobj;
}

struct ib_uobject *uverbs_uobj_get(struct uverbs_ucontext *uctx,
				   enum uverbs_obj_type type, u32 handle)
{
	return uobj_lookup(uctx, type, handle, false);
}

void *uverbs_obj_use(struct uverbs_ucontext *uctx, enum uverbs_obj_type type,
		     u32 handle, struct ib_uobject **out)
{
	struct ib_uobject *uobj = uobj_lookup(uctx, type, handle, false);

	if (IS_ERR(uobj))
		return ERR_PTR(-EINVAL);
	*out = uobj;
	return uobj->object;
}

void uverbs_uobj_put(struct ib_uobject *uobj)
{
	atomic_dec(&uobj->usecnt);
}

/* Use @handle alone (the object changes under it: REREG_MR). */
struct ib_uobject *uverbs_uobj_get_excl(struct uverbs_ucontext *uctx,
					enum uverbs_obj_type type, u32 handle)
{
	return uobj_lookup(uctx, type, handle, true);
}

void uverbs_uobj_put_excl(struct ib_uobject *uobj)
{
	atomic_set(&uobj->usecnt, 0);
}

/* The core destroy call of each type, with the (cleared) driver udata. */
static int destroy_object(struct ib_uobject *uobj, struct ib_udata *udata)
{
	switch (uobj->type) {
	case UVERBS_OBJ_PD:
		return ib_dealloc_pd_user((struct ib_pd *)uobj->object, udata);
	case UVERBS_OBJ_MR:
		return ib_dereg_mr_user((struct ib_mr *)uobj->object, udata);
	case UVERBS_OBJ_MW:
		return ib_dealloc_mw((struct ib_mw *)uobj->object);
	case UVERBS_OBJ_CQ:
		return ib_destroy_cq_user((struct ib_cq *)uobj->object, udata);
	case UVERBS_OBJ_QP:
		return ib_destroy_qp_user((struct ib_qp *)uobj->object, udata);
	case UVERBS_OBJ_SRQ:
		return ib_destroy_srq_user((struct ib_srq *)uobj->object, udata);
	case UVERBS_OBJ_AH:
		return rdma_destroy_ah_user((struct ib_ah *)uobj->object,
					    RDMA_DESTROY_AH_SLEEPABLE, udata);
	case UVERBS_OBJ_MAX:
		break;
	}
	return -EINVAL;
}

/* @uobj is held exclusively: destroy its object, or give it back. */
static int destroy_locked(struct ib_uobject *uobj)
{
	/* destroy commands take no driver data: the driver sees an empty udata */
	struct ib_udata udata = { .uctx = uobj->uctx->ib_uctx };
	int ret;

	ret = destroy_object(uobj, &udata);
	if (ret) {
		atomic_set(&uobj->usecnt, 0);
		return ret;
	}
	/* the driver calls no handler of a destroyed object: drop its events */
	uverbs_purge_obj_events(uobj);
	xa_erase(&uobj->uctx->objects, uobj->handle);
	return 0;
}

int uverbs_uobj_destroy(struct uverbs_ucontext *uctx, enum uverbs_obj_type type,
			u32 handle, struct ib_uobject **out)
{
	struct ib_uobject *uobj = uobj_lookup(uctx, type, handle, true);
	int ret;

	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = destroy_locked(uobj);
	if (ret)
		return ret;
	*out = uobj;
	return 0;
}

int uverbs_destroy_handle(struct uverbs_cmd_ctx *ctx, enum uverbs_obj_type type,
			  u32 handle)
{
	return uverbs_destroy_counted(ctx, type, handle, NULL, NULL);
}

int uverbs_destroy_counted(struct uverbs_cmd_ctx *ctx,
			   enum uverbs_obj_type type, u32 handle,
			   u32 *comp_events, u32 *async_events)
{
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_uobj_destroy(ctx->ucontext, type, handle, &uobj);
	if (ret)
		return ret;
	if (comp_events)
		*comp_events = uobj->comp_events_reported;
	if (async_events)
		*async_events = uobj->async_events_reported;
	uverbs_uobj_free(uobj);
	return 0;
}

/* the first object teardown could not destroy, for the report */
struct teardown_left {
	unsigned int count;
	enum uverbs_obj_type type;
	u32 handle;
	int err;
	int usecnt;	/* > 0: commands held it; 0: its destroy failed */
};

static void teardown_note(struct teardown_left *left, struct ib_uobject *uobj,
			  int err)
{
	if (!left->count++) {
		left->type = uobj->type;
		left->handle = uobj->handle;
		left->err = err;
		left->usecnt = atomic_read(&uobj->usecnt);
	}
}

/* Destroy every object of @type; what is left is counted in @left. */
static void destroy_all_of(struct uverbs_ucontext *uctx,
			   enum uverbs_obj_type type,
			   struct teardown_left *left)
{
	struct ib_uobject *uobj;
	unsigned long index;
	int ret;

	xa_for_each(&uctx->objects, index, uobj) {
		if (uobj->type != type)
			continue;
		/* no command runs: nobody else holds it */
		if (atomic_cmpxchg(&uobj->usecnt, 0, -1) != 0) {
			teardown_note(left, uobj, -EBUSY);
			continue;
		}
		/* a destroy command refuses with attachments; teardown drops them */
		if (type == UVERBS_OBJ_QP)
			uverbs_mcast_detach_all(uobj);
		ret = destroy_locked(uobj);
		if (ret) {
			teardown_note(left, uobj, ret);
			continue;
		}
		uverbs_uobj_free(uobj);
	}
}

void uverbs_ucontext_teardown(struct uverbs_ucontext *uctx, bool disassociate)
{
	struct ib_ucontext *ib_uctx = uctx->ib_uctx;
	struct teardown_left left = {};
	unsigned int pass, i;

	if (!ib_uctx)
		return;
	/* a second pass catches an object a driver still held busy */
	for (pass = 0; pass < 2; pass++) {
		memset(&left, 0, sizeof(left));
		for (i = 0; i < ARRAY_SIZE(teardown_order); i++)
			destroy_all_of(uctx, teardown_order[i], &left);
		if (!left.count)
			break;
	}
	uverbs_comp_files_detach(uctx);
	uctx->ib_uctx = NULL;
	if (left.count) {
		/* a driver bug: leak the context rather than free it in use */
		pr_err("ib_uverbs: %s: %u objects could not be destroyed (the first: type %d handle %u: %d, usecnt %d)\n",
		       dev_name_ib(ib_uctx->device), left.count, left.type,
		       left.handle, left.err, left.usecnt);
		return;
	}
	if (disassociate && ib_uctx->device->ops.disassociate_ucontext)
		ib_uctx->device->ops.disassociate_ucontext(ib_uctx);
	ib_dealloc_ucontext(ib_uctx);
}
