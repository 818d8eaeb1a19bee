// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows.  Type 1 windows are valid from allocation and bound or
 * moved by IB_WR_BIND_MW; type 2 windows start free, a bind makes them
 * valid (tied to the binding QP's number) and IB_WR_LOCAL_INV frees them.
 * A bound window counts on its MR (num_mw), which refuses deregistration
 * meanwhile, so the MR pointer needs no reference.
 */
#include "rxe.h"
#include "rxe_obj.h"

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
	if (mw->ibmw.type == IB_MW_TYPE_1) {
		if (mw->state != RXE_MW_VALID || (access & IB_ZERO_BASED))
			return false;
	} else {
		if (mw->state != RXE_MW_FREE || mw->ibmw.pd != qp->ibqp.pd ||
		    !mr || length == 0)
			return false;
	}
	if (!mr)
		return true;	/* type 1 unbind */
	if (mr->state != RXE_MR_VALID || mr->ibmr.pd != qp->ibqp.pd ||
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
	spin_lock_bh(&mw->lock);
	if (!rxe_bind_ok(qp, mw, mr, addr, length, access)) {
		ret = IB_WC_MW_BIND_ERR;
	} else {
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
	}
	spin_unlock_bh(&mw->lock);
	if (mr)
		rxe_elem_put(&mr->elem);
out:
	rxe_elem_put(&mw->elem);
	return ret;
}

int rxe_invalidate_mw(struct rxe_qp *qp, u32 rkey)
{
	struct rxe_mw *mw = rxe_mw_lookup(to_rdev(qp->ibqp.device), rkey);
	int ret = IB_WC_SUCCESS;

	if (!mw)
		return IB_WC_LOC_QP_OP_ERR;
	spin_lock_bh(&mw->lock);
	if (mw->state != RXE_MW_VALID || mw->ibmw.type == IB_MW_TYPE_1) {
		ret = IB_WC_LOC_QP_OP_ERR;
	} else {
		rxe_mw_unbind(mw);
		mw->state = RXE_MW_FREE;
	}
	spin_unlock_bh(&mw->lock);
	rxe_elem_put(&mw->elem);
	return ret;
}
