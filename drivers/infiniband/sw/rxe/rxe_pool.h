/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-device indices of rxe objects: one xarray per type, each with an
 * index range and a limit on the number of live objects (the device
 * attributes).  An element is findable by index from rxe_pool_add() until
 * rxe_pool_del(), which waits for the lookups still holding it.
 */
#ifndef _RXE_POOL_H
#define _RXE_POOL_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/xarray.h>

struct rxe_pool {
	const char *name;
	struct xarray xa;
	struct xa_limit limit;
	u32 next;		/* cyclic allocation hint */
	atomic_t count;
	u32 max_count;
	int full_errno;		/* what adding past max_count returns */
};

struct rxe_elem {
	struct rxe_pool *pool;
	u32 index;
	refcount_t ref;
	struct completion released;
};

void rxe_pool_init(struct rxe_pool *pool, const char *name, u32 min_index,
		   u32 max_index, u32 max_count, int full_errno);
/* all elements must be gone */
void rxe_pool_cleanup(struct rxe_pool *pool);
/* give @elem an index (elem->index) */
int rxe_pool_add_gfp(struct rxe_pool *pool, struct rxe_elem *elem, gfp_t gfp);
static inline int rxe_pool_add(struct rxe_pool *pool, struct rxe_elem *elem)
{
	return rxe_pool_add_gfp(pool, elem, GFP_KERNEL);
}

/* forget the index, drop the initial reference and wait for lookups */
void rxe_pool_del(struct rxe_elem *elem);
/* the element at @index with a reference taken, or NULL */
struct rxe_elem *rxe_pool_get(struct rxe_pool *pool, u32 index);
/* the first element at or after *@index, with a reference taken (and
 * *@index its index), or NULL */
struct rxe_elem *rxe_pool_get_next(struct rxe_pool *pool, unsigned long *index);
static inline void rxe_elem_get(struct rxe_elem *elem)
{
	refcount_inc(&elem->ref);
}

void rxe_elem_put(struct rxe_elem *elem);

#endif /* _RXE_POOL_H */
