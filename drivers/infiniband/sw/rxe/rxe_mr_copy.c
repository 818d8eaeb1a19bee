// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory access for the data path: MR copies, SGE lists, rkeys and
 * atomics.
 *
 * Translation: an MR maps [ibmr.iova, ibmr.iova + ibmr.length).
 *  - user MRs: mr->pages[] are kernel addresses of blocks of the pinned
 *    range (rxe_mr_map.h; 2^page_shift bytes each, PAGE_SIZE or more);
 *    byte ibmr.iova sits umem->address modulo the block size into block 0;
 *  - fast-reg MRs: mr->pages[] are the page-aligned addresses from
 *    ib_sg_to_pages() (pages of ibmr.page_size; for rxe a DMA address is
 *    the kernel virtual address); byte ibmr.iova sits at its offset
 *    inside a page of that size;
 *  - DMA MRs: the iova is the kernel virtual address itself;
 *  - ODP MRs (mr->odp): pages found or faulted in by rxe_odp.c, which
 *    copies under its own mutex (it may sleep): the checks here run
 *    under mr->lock, the copy after it is dropped (keys, access and range
 *    of an ODP MR never change).
 * Page list, keys, access and PD change only under mr->lock (rereg swaps
 * the translation under it and releases the old pinning afterwards), so
 * a copy holds mr->lock while it translates and copies: a packet's worth
 * of bytes at most.  Deregistration waits for the references lookups
 * hold (rxe_pool_del).
 */
#include <linux/atomic.h>
#include <rdma/ib_umem.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

/* Under mr->lock: is [@iova, @iova + @len) inside @mr? */
static bool rxe_mr_range_ok(const struct rxe_mr *mr, u64 iova, u64 len)
{
	lockdep_assert_held(&mr->lock);
	if (iova + len < iova)
		return false;
	if (mr->ibmr.type == IB_MR_TYPE_DMA)
		return true;
	return iova >= mr->ibmr.iova && len <= mr->ibmr.length &&
	       iova - mr->ibmr.iova <= mr->ibmr.length - len;
}

/* Under mr->lock: offset of @iova from the start of page 0. */
static u64 rxe_mr_page_offset(const struct rxe_mr *mr, u64 iova)
{
	u64 first;

	lockdep_assert_held(&mr->lock);

	if (mr->ibmr.type == IB_MR_TYPE_USER)
		first = mr->umem ? mr->umem->address &
				   ((1ULL << mr->page_shift) - 1) : 0;
	else
		first = mr->ibmr.iova & ((1ULL << mr->page_shift) - 1);
	return iova - mr->ibmr.iova + first;
}

/*
 * Under mr->lock, range checked: the kernel address of @iova and how
 * many bytes follow it contiguously (up to @len); NULL when the page
 * list does not cover it.
 */
static u8 *rxe_mr_kaddr(const struct rxe_mr *mr, u64 iova, u32 len,
			u32 *chunk)
{
	u64 off, idx, in_page, page_size;

	if (mr->ibmr.type == IB_MR_TYPE_DMA) {
		*chunk = len;
		return (u8 *)(uintptr_t)iova;
	}
	if (!mr->pages || mr->page_shift < 9 || mr->page_shift > 31)
		return NULL;
	page_size = 1ULL << mr->page_shift;
	off = rxe_mr_page_offset(mr, iova);
	idx = off >> mr->page_shift;
	if (idx >= mr->npages)
		return NULL;
	in_page = off & (page_size - 1);
	*chunk = (u32)min_t(u64, len, page_size - in_page);
	return (u8 *)(uintptr_t)(mr->pages[idx] + in_page);
}

/* Under mr->lock, range checked. */
static int rxe_mr_copy_locked(struct rxe_mr *mr, u64 iova, u8 *buf, u32 len,
			      enum rxe_copy_dir dir)
{
	u32 chunk;
	u8 *p;

	lockdep_assert_held(&mr->lock);

	if (dir == RXE_COPY_TO_MR && mr->umem && !mr->umem->writable)
		return -EFAULT;
	while (len) {
		p = rxe_mr_kaddr(mr, iova, len, &chunk);
		if (!p || !chunk)
			return -EFAULT;
		if (dir == RXE_COPY_TO_MR)
			memcpy(p, buf, chunk);
		else
			memcpy(buf, p, chunk);
		iova += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

int rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
		enum rxe_copy_dir dir)
{
	bool ok;
	int ret = -EFAULT;

	if (!len)
		return 0;
	spin_lock_bh(&mr->lock);
	ok = mr->state == RXE_MR_VALID && rxe_mr_range_ok(mr, iova, len);
	if (ok && !mr->odp)
		ret = rxe_mr_copy_locked(mr, iova, (u8 *)buf, len, dir);
	spin_unlock_bh(&mr->lock);
	if (ok && mr->odp)
		ret = rxe_odp_copy(mr, iova, (u8 *)buf, len, dir);
	return ret;
}

/*
 * Copy @len bytes at @addr of the MR named by local key @lkey, checking
 * under its lock that the key, state, PD, rights and range all hold.
 */
static int rxe_lkey_copy(struct rxe_pd *pd, int access, u32 lkey, u64 addr,
			 u8 *buf, u32 len, enum rxe_copy_dir dir)
{
	struct rxe_dev *rxe = to_rdev(pd->ibpd.device);
	struct rxe_mr *mr = rxe_mr_lookup(rxe, lkey);
	int ret = -EACCES;
	bool ok;

	if (!mr)
		return -EACCES;
	spin_lock_bh(&mr->lock);
	ok = mr->ibmr.lkey == lkey && mr->state == RXE_MR_VALID &&
	     mr->ibmr.pd == &pd->ibpd &&
	     (mr->ibmr.access & access) == access &&
	     rxe_mr_range_ok(mr, addr, len);
	if (ok && !mr->odp)
		ret = rxe_mr_copy_locked(mr, addr, buf, len, dir) ? -EACCES : 0;
	spin_unlock_bh(&mr->lock);
	if (ok && mr->odp)
		ret = rxe_odp_copy(mr, addr, buf, len, dir) ? -EACCES : 0;
	rxe_elem_put(&mr->elem);
	return ret;
}

int rxe_dma_copy(struct rxe_pd *pd, int access, struct rxe_dma_info *dma,
		 void *buf, u32 len, enum rxe_copy_dir dir)
{
	u8 *p = (u8 *)buf;
	u32 sge_i = dma->cur_sge;
	u32 off = dma->sge_offset;
	struct rxe_sge *sge;
	u32 chunk;
	int ret;

	if (len > dma->resid)
		return -EINVAL;
	while (len) {
		if (sge_i >= dma->num_sge)
			return -EINVAL;
		sge = &dma->sge[sge_i];
		if (off >= sge->length) {
			/* used up, or a zero-length SGE: next one */
			sge_i++;
			off = 0;
			continue;
		}
		chunk = min(len, sge->length - off);
		ret = rxe_lkey_copy(pd, access, sge->lkey, sge->addr + off, p,
				    chunk, dir);
		if (ret)
			return ret;
		off += chunk;
		p += chunk;
		len -= chunk;
		dma->resid -= chunk;
		dma->cur_sge = sge_i;
		dma->sge_offset = off;
	}
	return 0;
}

/*
 * A bound window: its MR with a reference and the MR address of @iova,
 * after the checks of IBA 10.6.7.2 (state, key, PD, QP of a type-2
 * window, rights, range).
 */
static struct rxe_mr *rxe_mw_rkey_get(struct rxe_qp *qp, u32 rkey, u64 *iova,
				      u64 len, int access)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_elem *elem = rxe_pool_get(&rxe->mw_pool, rkey >> 8);
	struct rxe_mr *mr = NULL;
	struct rxe_mw *mw;
	u64 va = *iova;

	if (!elem)
		return NULL;
	mw = container_of(elem, struct rxe_mw, elem);
	spin_lock_bh(&mw->lock);
	if (mw->ibmw.rkey != rkey || mw->state != RXE_MW_VALID || !mw->mr ||
	    mw->ibmw.pd != qp->ibqp.pd ||
	    (mw->ibmw.type == IB_MW_TYPE_2 && mw->qp != qp) ||
	    (mw->access & access) != access)
		goto out;
	if (va + len < va || len > mw->length)
		goto out;
	if (mw->access & IB_ZERO_BASED) {
		if (va > mw->length - len)
			goto out;
		va += mw->addr;
	} else if (va < mw->addr || va - mw->addr > mw->length - len) {
		goto out;
	}
	/* a bound MR cannot be deregistered: it is alive */
	mr = mw->mr;
	rxe_elem_get(&mr->elem);
out:
	spin_unlock_bh(&mw->lock);
	rxe_elem_put(elem);
	if (mr) {
		spin_lock_bh(&mr->lock);
		if (mr->state != RXE_MR_VALID || mr->ibmr.pd != qp->ibqp.pd ||
		    !rxe_mr_range_ok(mr, va, len)) {
			spin_unlock_bh(&mr->lock);
			rxe_elem_put(&mr->elem);
			return NULL;
		}
		spin_unlock_bh(&mr->lock);
		*iova = va;
	}
	return mr;
}

struct rxe_mr *rxe_rkey_iova_get(struct rxe_qp *qp, u32 rkey, u64 *iova,
				 u64 len, int access)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_mr *mr;
	bool ok;

	if ((rkey >> 8) >= RXE_MIN_MW_INDEX)
		return rxe_mw_rkey_get(qp, rkey, iova, len, access);
	mr = rxe_mr_lookup(rxe, rkey);
	if (!mr)
		return NULL;
	spin_lock_bh(&mr->lock);
	ok = rkey && mr->ibmr.rkey == rkey && mr->state == RXE_MR_VALID &&
	     mr->ibmr.pd == qp->ibqp.pd &&
	     (mr->ibmr.access & access) == access &&
	     rxe_mr_range_ok(mr, *iova, len);
	spin_unlock_bh(&mr->lock);
	if (!ok) {
		rxe_elem_put(&mr->elem);
		return NULL;
	}
	return mr;
}

/*
 * Where the region @rkey names starts, as a requester addresses it, and
 * its length: an MR's iova and length, a window's bound range (0 for a
 * zero-based one).  False if the key names nothing.  Read without
 * holding anything: rxe_rkey_iova_get() checks the result again.
 */
static bool rxe_rkey_region(struct rxe_qp *qp, u32 rkey, u64 *iova, u64 *len)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_elem *elem;
	struct rxe_mr *mr;
	struct rxe_mw *mw;

	if ((rkey >> 8) >= RXE_MIN_MW_INDEX) {
		elem = rxe_pool_get(&rxe->mw_pool, rkey >> 8);
		if (!elem)
			return false;
		mw = container_of(elem, struct rxe_mw, elem);
		spin_lock_bh(&mw->lock);
		*iova = mw->access & IB_ZERO_BASED ? 0 : mw->addr;
		*len = mw->length;
		spin_unlock_bh(&mw->lock);
		rxe_elem_put(elem);
		return true;
	}
	mr = rxe_mr_lookup(rxe, rkey);
	if (!mr)
		return false;
	spin_lock_bh(&mr->lock);
	*iova = mr->ibmr.iova;
	*len = mr->ibmr.type == IB_MR_TYPE_DMA ? 0 : mr->ibmr.length;
	spin_unlock_bh(&mr->lock);
	rxe_elem_put(&mr->elem);
	return true;
}

struct rxe_mr *rxe_rkey_region_get(struct rxe_qp *qp, u32 rkey, int access)
{
	u64 iova, len;

	if (!rxe_rkey_region(qp, rkey, &iova, &len))
		return NULL;
	return rxe_rkey_iova_get(qp, rkey, &iova, len, access);
}

struct rxe_mr *rxe_rkey_get(struct rxe_qp *qp, u32 rkey, u64 iova, u64 len,
			    int access)
{
	u64 va = iova;
	struct rxe_mr *mr = rxe_rkey_iova_get(qp, rkey, &va, len, access);

	/* a zero-based window moves the address: callers needing that
	 * use rxe_rkey_iova_get()
	 */
	if (mr && va != iova) {
		rxe_elem_put(&mr->elem);
		return NULL;
	}
	return mr;
}

/*
 * The aligned 8 bytes at @iova of @mr, which must be valid and writable
 * there: 0 with *@word, -EINVAL (misaligned) or -EFAULT.
 */
static int rxe_mr_word(struct rxe_mr *mr, u64 iova, u64 **word)
{
	u32 chunk;
	u8 *p;

	lockdep_assert_held(&mr->lock);
	if (iova & 7)
		return -EINVAL;
	if (mr->state != RXE_MR_VALID || !rxe_mr_range_ok(mr, iova, 8))
		return -EFAULT;
	if (mr->umem && !mr->umem->writable)
		return -EFAULT;
	p = rxe_mr_kaddr(mr, iova, 8, &chunk);
	if (!p || chunk != 8)
		return -EFAULT;
	if ((uintptr_t)p & 7)
		return -EINVAL;
	*word = (u64 *)p;
	return 0;
}

/* one atomic operation on a word of memory */
struct rxe_word_op {
	u8 op;			/* RXE_OP_CMP_SWAP, RXE_OP_FETCH_ADD, 0: store */
	u64 compare_add;
	u64 swap;
	u64 orig;
};

/*
 * A real atomic on the memory: atomic against every other QP and device
 * doing the same, and against CPU atomics of the owner.  A store is seen
 * whole or not at all, and only after every earlier write.
 */
static void rxe_word_apply(u64 *word, void *arg)
{
	struct rxe_word_op *w = (struct rxe_word_op *)arg;
	atomic64_t *v = (atomic64_t *)word;

	if (w->op == RXE_OP_CMP_SWAP)
		w->orig = (u64)atomic64_cmpxchg(v, (s64)w->compare_add,
						(s64)w->swap);
	else if (w->op == RXE_OP_FETCH_ADD)
		w->orig = (u64)atomic64_fetch_add((s64)w->compare_add, v);
	else
		smp_store_release(word, w->swap);
}

/* @w on the word at @iova of @mr: 0, -EINVAL (misaligned) or -EFAULT */
static int rxe_mr_word_op(struct rxe_mr *mr, u64 iova, struct rxe_word_op *w)
{
	u64 *word;
	bool odp;
	int ret;

	spin_lock_bh(&mr->lock);
	odp = mr->odp != NULL;
	if (!odp) {
		ret = rxe_mr_word(mr, iova, &word);
		if (!ret)
			rxe_word_apply(word, w);
	} else if (iova & 7) {
		ret = -EINVAL;
	} else {
		ret = mr->state == RXE_MR_VALID &&
		      rxe_mr_range_ok(mr, iova, 8) ? 0 : -EFAULT;
	}
	spin_unlock_bh(&mr->lock);
	if (odp && !ret)
		ret = rxe_odp_word(mr, iova, rxe_word_apply, w);
	return ret;
}

int rxe_mr_atomic(struct rxe_mr *mr, u64 iova, u8 op, u64 compare_add,
		  u64 swap, u64 *orig)
{
	struct rxe_word_op w = {
		.op = op == RXE_OP_CMP_SWAP ? RXE_OP_CMP_SWAP :
					      RXE_OP_FETCH_ADD,
		.compare_add = compare_add,
		.swap = swap,
	};
	int ret = rxe_mr_word_op(mr, iova, &w);

	if (!ret)
		*orig = w.orig;
	return ret;
}

int rxe_mr_atomic_write(struct rxe_mr *mr, u64 iova, const u8 *value)
{
	struct rxe_word_op w = { .op = 0 };

	memcpy(&w.swap, value, sizeof(w.swap));
	return rxe_mr_word_op(mr, iova, &w);
}
