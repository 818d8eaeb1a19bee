// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Object indices (see rxe_pool.h).  Lookups take the xarray lock and a
 * reference that keeps the object's memory alive; deleting an element
 * removes it from the array first, so no new lookup finds it, then waits
 * until the last reference is dropped.
 */
#include <linux/sched.h>

#include "rxe.h"
#include "rxe_pool.h"

void rxe_pool_init(struct rxe_pool *pool, const char *name, u32 min_index,
		   u32 max_index, u32 max_count, int full_errno)
{
	pool->name = name;
	xa_init_flags(&pool->xa, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	pool->limit.min = min_index;
	pool->limit.max = max_index;
	pool->next = min_index;
	atomic_set(&pool->count, 0);
	pool->max_count = max_count;
	pool->full_errno = full_errno;
}

void rxe_pool_cleanup(struct rxe_pool *pool)
{
	xa_destroy(&pool->xa);
}

int rxe_pool_add_gfp(struct rxe_pool *pool, struct rxe_elem *elem, gfp_t gfp)
{
	int ret;

	if (atomic_inc_return(&pool->count) > (int)pool->max_count) {
		atomic_dec(&pool->count);
		return pool->full_errno;
	}
	elem->pool = pool;
	refcount_set(&elem->ref, 1);
	init_completion(&elem->released);
	ret = xa_alloc_cyclic_irq(&pool->xa, &elem->index, elem, pool->limit,
				  &pool->next, gfp);
	if (ret < 0) {
		atomic_dec(&pool->count);
		return ret == -EBUSY ? pool->full_errno : ret;
	}
	return 0;
}

void rxe_elem_put(struct rxe_elem *elem)
{
	if (refcount_dec_and_test(&elem->ref))
		complete(&elem->released);
}

void rxe_pool_del(struct rxe_elem *elem)
{
	struct rxe_pool *pool = elem->pool;

	xa_erase_irq(&pool->xa, elem->index);
	rxe_elem_put(elem);
	wait_for_completion(&elem->released);
	atomic_dec(&pool->count);
}

struct rxe_elem *rxe_pool_get(struct rxe_pool *pool, u32 index)
{
	struct rxe_elem *elem;
	unsigned long flags;

	xa_lock_irqsave(&pool->xa, flags);
	elem = (struct rxe_elem *)xa_load(&pool->xa, index);
	if (elem && !refcount_inc_not_zero(&elem->ref))
		elem = NULL;
	xa_unlock_irqrestore(&pool->xa, flags);
	return elem;
}

struct rxe_elem *rxe_pool_get_next(struct rxe_pool *pool, unsigned long *index)
{
	struct rxe_elem *elem;
	unsigned long flags;

	xa_lock_irqsave(&pool->xa, flags);
	for (;;) {
		elem = (struct rxe_elem *)xa_find(&pool->xa, index, ULONG_MAX,
						  XA_PRESENT);
		if (!elem || refcount_inc_not_zero(&elem->ref))
			break;
		(*index)++;	/* being deleted: skip it */
	}
	xa_unlock_irqrestore(&pool->xa, flags);
	return elem;
}

/* Object number ranges and limits (rxe_param.h), as 6.1's pools. */
void rxe_pools_init(struct rxe_dev *rxe)
{
	const struct ib_device_attr *a = &rxe->ib_dev.attrs;

	rxe_pool_init(&rxe->pd_pool, "pd", 1, RXE_MAX_PD, a->max_pd, -EINVAL);
	rxe_pool_init(&rxe->mr_pool, "mr", RXE_MIN_MR_INDEX, RXE_MAX_MR_INDEX,
		      a->max_mr, -ENOMEM);
	rxe_pool_init(&rxe->mw_pool, "mw", RXE_MIN_MW_INDEX, RXE_MAX_MW_INDEX,
		      a->max_mw, -EINVAL);
	rxe_pool_init(&rxe->cq_pool, "cq", 1, RXE_MAX_CQ, a->max_cq, -EINVAL);
	rxe_pool_init(&rxe->qp_pool, "qp", RXE_MIN_QP_INDEX, RXE_MAX_QP_INDEX,
		      a->max_qp, -EINVAL);
	rxe_pool_init(&rxe->srq_pool, "srq", RXE_MIN_SRQ_INDEX,
		      RXE_MAX_SRQ_INDEX, a->max_srq, -EINVAL);
	rxe_pool_init(&rxe->ah_pool, "ah", RXE_MIN_AH_INDEX, RXE_MAX_AH_INDEX,
		      a->max_ah, -EINVAL);
	spin_lock_init(&rxe->mmap_lock);
	INIT_LIST_HEAD(&rxe->mmap_pending);
	/* cookies are page offsets into the uverbs file; 0 is never one */
	rxe->mmap_next = PAGE_SIZE;
}

void rxe_pools_cleanup(struct rxe_dev *rxe)
{
	rxe_pool_cleanup(&rxe->pd_pool);
	rxe_pool_cleanup(&rxe->mr_pool);
	rxe_pool_cleanup(&rxe->mw_pool);
	rxe_pool_cleanup(&rxe->cq_pool);
	rxe_pool_cleanup(&rxe->qp_pool);
	rxe_pool_cleanup(&rxe->srq_pool);
	rxe_pool_cleanup(&rxe->ah_pool);
}
