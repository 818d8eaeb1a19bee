// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows.  Type 1 windows are valid from allocation and bound or
 * moved by IB_WR_BIND_MW; type 2 windows start free, a bind makes them
 * valid (tied to the binding QP's number) and IB_WR_LOCAL_INV frees them.
 * A bound window counts on its MR (num_mw), which refuses deregistration
 * meanwhile, so the MR pointer needs no reference: the count is raised
 * under mr->lock after testing mr->no_bind (rxe_obj.h).
 *
 * A window is used, bound and invalidated only from its own PD; a type-2
 * window's rkey and its invalidation from the wire only through the QP it
 * was bound through.
 *
 * Lock order: mw->lock, then mr->lock.
 */
#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_test_hooks.h"

#ifdef RXE_KUNIT
void (*rxe_kunit_bind_hook)(struct rxe_mr *mr);
#endif

int rxe_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);
	int ret;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	ret = rxe_pool_add(&rxe->mw_pool, &mw->elem);
	if (ret)
		return ret;
	spin_lock_init(&mw->lock);
	ibmw->rkey = mw->elem.index << 8 | ((u8)get_random_u32());
	mw->state = ibmw->type == IB_MW_TYPE_2 ? RXE_MW_FREE : RXE_MW_VALID;
	return 0;
}

/* Under mw->lock: forget the binding. */
static void rxe_mw_unbind(struct rxe_mw *mw)
{
	lockdep_assert_held(&mw->lock);
	if (mw->mr) {
		atomic_dec(&mw->mr->num_mw);
		mw->mr = NULL;
	}
	mw->qp = NULL;
	mw->addr = 0;
	mw->length = 0;
	mw->access = 0;
}

int rxe_dealloc_mw(struct ib_mw *ibmw)
{
	struct rxe_mw *mw = to_rmw(ibmw);

	rxe_pool_del(&mw->elem);
	spin_lock_bh(&mw->lock);
	rxe_mw_unbind(mw);
	mw->state = RXE_MW_INVALID;
	spin_unlock_bh(&mw->lock);
	return 0;
}

static struct rxe_mw *rxe_mw_lookup(struct rxe_dev *rxe, u32 rkey)
{
	struct rxe_elem *elem = rxe_pool_get(&rxe->mw_pool, rkey >> 8);
	struct rxe_mw *mw;

	if (!elem)
		return NULL;
	mw = container_of(elem, struct rxe_mw, elem);
	if (mw->ibmw.rkey != rkey) {
		rxe_elem_put(elem);
		return NULL;
	}
	return mw;
}

/* Checks of IBA 10.6.7 for binding @mw to @mr; under mw->lock. */
static bool rxe_bind_ok(struct rxe_qp *qp, struct rxe_mw *mw,
			struct rxe_mr *mr, u64 addr, u64 length, int access)
{
	lockdep_assert_held(&mw->lock);
	if (mw->ibmw.pd != qp->ibqp.pd)
		return false;
	if (mw->ibmw.type == IB_MW_TYPE_1) {
		if (mw->state != RXE_MW_VALID || (access & IB_ZERO_BASED))
			return false;
	} else {
		if (mw->state != RXE_MW_FREE || !mr || length == 0)
			return false;
	}
	if (!mr)
		return true;	/* type 1 unbind */
	lockdep_assert_held(&mr->lock);
	if (mr->no_bind || mr->state != RXE_MR_VALID ||
	    mr->ibmr.pd != qp->ibqp.pd ||
	    (mr->ibmr.access & IB_ZERO_BASED) ||
	    !(mr->ibmr.access & IB_ACCESS_MW_BIND))
		return false;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->ibmr.access & IB_ACCESS_LOCAL_WRITE))
		return false;
	if (access & IB_ZERO_BASED)
		return length <= mr->ibmr.length;
	return addr >= mr->ibmr.iova && length <= mr->ibmr.length &&
	       addr - mr->ibmr.iova <= mr->ibmr.length - length;
}

/* Under mw->lock and, with @mr, mr->lock: check, then link. */
static int rxe_bind_locked(struct rxe_qp *qp, struct rxe_mw *mw,
			   struct rxe_mr *mr, u32 new_rkey, u64 addr,
			   u64 length, int access)
{
	if (!rxe_bind_ok(qp, mw, mr, addr, length, access))
		return IB_WC_MW_BIND_ERR;
	rxe_mw_unbind(mw);
	mw->ibmw.rkey = (mw->ibmw.rkey & ~0xffU) | (new_rkey & 0xff);
	mw->state = RXE_MW_VALID;
	mw->access = access;
	mw->addr = addr;
	mw->length = length;
	if (mr) {
		mw->mr = mr;
		atomic_inc(&mr->num_mw);
	}
	if (mw->ibmw.type == IB_MW_TYPE_2)
		mw->qp = qp;
	return IB_WC_SUCCESS;
}

int rxe_bind_mw(struct rxe_qp *qp, u32 mw_rkey, u32 new_rkey, u32 mr_lkey,
		u64 addr, u64 length, int access)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_mr *mr = NULL;
	struct rxe_mw *mw;
	int ret = IB_WC_SUCCESS;

	mw = rxe_mw_lookup(rxe, mw_rkey);
	if (!mw)
		return IB_WC_MW_BIND_ERR;
	if (length) {
		mr = rxe_mr_lookup(rxe, mr_lkey);
		if (mr && mr->ibmr.lkey != mr_lkey) {
			rxe_elem_put(&mr->elem);
			mr = NULL;
		}
		if (!mr) {
			ret = IB_WC_MW_BIND_ERR;
			goto out;
		}
	}
	/* KUnit stages a deregistration here (rxe_test_hooks.h) */
	rxe_kunit_bind_point(mr);
	spin_lock_bh(&mw->lock);
	if (mr) {
		spin_lock(&mr->lock);
		ret = rxe_bind_locked(qp, mw, mr, new_rkey, addr, length,
				      access);
		spin_unlock(&mr->lock);
	} else {
		ret = rxe_bind_locked(qp, mw, NULL, new_rkey, addr, length,
				      access);
	}
	spin_unlock_bh(&mw->lock);
	if (mr)
		rxe_elem_put(&mr->elem);
out:
	rxe_elem_put(&mw->elem);
	return ret;
}

/*
 * Invalidate a type-2 window: locally (LOCAL_INV) from a QP of its PD,
 * from the wire (@remote: SEND_WITH_INV) only on the QP it is bound
 * through.
 */
int rxe_invalidate_mw(struct rxe_qp *qp, u32 rkey, bool remote)
{
	struct rxe_mw *mw = rxe_mw_lookup(to_rdev(qp->ibqp.device), rkey);
	int ret = IB_WC_SUCCESS;

	if (!mw)
		return IB_WC_LOC_QP_OP_ERR;
	spin_lock_bh(&mw->lock);
	if (mw->state != RXE_MW_VALID || mw->ibmw.type == IB_MW_TYPE_1 ||
	    mw->ibmw.pd != qp->ibqp.pd || (remote && mw->qp != qp)) {
		ret = IB_WC_LOC_QP_OP_ERR;
	} else {
		rxe_mw_unbind(mw);
		mw->state = RXE_MW_FREE;
	}
	spin_unlock_bh(&mw->lock);
	rxe_elem_put(&mw->elem);
	return ret;
}
