// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs commands ATTACH_MCAST and DETACH_MCAST: a UD QP joins and leaves
 * multicast groups (ibv_attach_mcast, ibv_detach_mcast; librdmacm's
 * rdma_join_multicast on a QP of its own).
 *
 * The QP's uobject lists what user space attached, so that:
 *  - attaching a (GID, LID) the QP already has answers 0 and changes
 *    nothing, detaching one it does not have answers EINVAL;
 *  - DESTROY_QP of a QP with attachments answers EBUSY (ib_destroy_qp);
 *  - teardown (file closed, process killed, device removed) detaches
 *    whatever is left before it destroys the QP.
 * The rest (UD only, multicast GIDs only, EOPNOTSUPP without a driver op)
 * is ib_attach_mcast()'s.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "uverbs.h"

struct uverbs_mcast {
	struct list_head list;		/* in ib_uobject.mcasts */
	union ib_gid gid;
	u16 lid;
};

static struct uverbs_mcast *mcast_find(struct ib_uobject *uobj,
				       const u8 *gid, u16 lid)
{
	struct uverbs_mcast *m;

	lockdep_assert_held(&uobj->mcast_lock);
	list_for_each_entry(m, &uobj->mcasts, list)
		if (m->lid == lid && !memcmp(m->gid.raw, gid, sizeof(m->gid.raw)))
			return m;
	return NULL;
}

int uverbs_cmd_attach_mcast(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_attach_mcast *cmd =
		(const struct ib_uverbs_attach_mcast *)ctx->req;
	struct ib_uobject *uobj;
	struct uverbs_mcast *m;
	struct ib_qp *qp;
	int ret = 0;

	qp = (struct ib_qp *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_QP,
					    cmd->qp_handle, &uobj);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	mutex_lock(&uobj->mcast_lock);
	if (mcast_find(uobj, cmd->gid, cmd->mlid))
		goto out;
	m = (struct uverbs_mcast *)kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(m->gid.raw, cmd->gid, sizeof(m->gid.raw));
	m->lid = cmd->mlid;
	ret = ib_attach_mcast(qp, &m->gid, m->lid);
	if (ret) {
		kfree(m);
		goto out;
	}
	list_add_tail(&m->list, &uobj->mcasts);
out:
	mutex_unlock(&uobj->mcast_lock);
	uverbs_uobj_put(uobj);
	return ret;
}

int uverbs_cmd_detach_mcast(struct uverbs_cmd_ctx *ctx)
{
	const struct ib_uverbs_detach_mcast *cmd =
		(const struct ib_uverbs_detach_mcast *)ctx->req;
	struct ib_uobject *uobj;
	struct uverbs_mcast *m;
	struct ib_qp *qp;
	int ret;

	qp = (struct ib_qp *)uverbs_obj_use(ctx->ucontext, UVERBS_OBJ_QP,
					    cmd->qp_handle, &uobj);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	mutex_lock(&uobj->mcast_lock);
	m = mcast_find(uobj, cmd->gid, cmd->mlid);
	if (!m) {
		ret = -EINVAL;
		goto out;
	}
	ret = ib_detach_mcast(qp, &m->gid, m->lid);
	if (ret)
		goto out;
	list_del(&m->list);
	kfree(m);
out:
	mutex_unlock(&uobj->mcast_lock);
	uverbs_uobj_put(uobj);
	return ret;
}

void uverbs_mcast_detach_all(struct ib_uobject *uobj)
{
	struct ib_qp *qp = (struct ib_qp *)uobj->object;
	struct uverbs_mcast *m, *next;

	mutex_lock(&uobj->mcast_lock);
	list_for_each_entry_safe(m, next, &uobj->mcasts, list) {
		/* a failure keeps the QP busy: teardown reports it as left */
		if (ib_detach_mcast(qp, &m->gid, m->lid))
			continue;
		list_del(&m->list);
		kfree(m);
	}
	mutex_unlock(&uobj->mcast_lock);
}
