/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Rings shared with user space (CQ, SQ, RQ, SRQ): the uapi struct
 * rxe_queue_buf header followed by power-of-two slots, in vmalloc_user()
 * memory that user space maps through a cookie (rxe_mmap.c).
 *
 * Each index has one writer.  The kernel keeps a private copy of every
 * index it writes and publishes it with a release store; an index written
 * by user space is read with an acquire load and masked, never trusted.
 * Kernel QPs/CQs write both indices themselves.  Callers serialise each
 * side of a ring with the owning object's lock.
 */
#ifndef _RXE_QUEUE_H
#define _RXE_QUEUE_H

#include <linux/kref.h>
#include <linux/list.h>
#include <uapi/rdma/rdma_user_rxe.h>

#include "rxe_queue_math.h"

struct rxe_dev;
struct rxe_ucontext;
struct ib_udata;

/*
 * The memory of a ring, refcounted: by its queue, by a pending cookie and
 * by every user mapping, so a mapping outlives the object ("valid but
 * dead") and the memory goes with the last of them.
 */
struct rxe_mmap_info {
	struct kref ref;
	void *buf;
	u32 size;			/* mapped length, page aligned */
	u64 offset;			/* the cookie; 0 for kernel rings */
	struct rxe_dev *rxe;
	struct rxe_ucontext *uctx;	/* who may map it; NULL: unknown */
	struct list_head pending;	/* on rxe->mmap_pending until mapped */
};

enum rxe_queue_side {
	RXE_QUEUE_KERNEL,		/* both indices kernel-written */
	RXE_QUEUE_USER_PRODUCER,	/* SQ/RQ/SRQ of a user QP */
	RXE_QUEUE_USER_CONSUMER,	/* CQ of a user context */
};

struct rxe_queue {
	struct rxe_queue_buf *buf;
	struct rxe_mmap_info *ip;
	enum rxe_queue_side side;
	u32 log2_elem;
	u32 index_mask;
	u32 capacity;
	u32 elem_size;			/* what one entry needs (<= slot) */
	u32 prod;			/* private copies of the kernel's */
	u32 cons;			/* indices */
};

/*
 * A ring with room for @num_elem entries of @elem_size bytes.  With a
 * user side, a cookie is put on @uctx's pending list and described in
 * @mi for the udata answer.
 */
struct rxe_queue *rxe_queue_create(struct rxe_dev *rxe, u32 num_elem,
				   u32 elem_size, enum rxe_queue_side side,
				   struct rxe_ucontext *uctx, struct mminfo *mi);
void rxe_queue_destroy(struct rxe_queue *q);
/*
 * Resizing: copy the unconsumed entries of @from, oldest first, to the
 * start of the new ring @to (made by rxe_queue_create with the same side
 * and element size for @wanted entries); -EINVAL if there are more than
 * @wanted.  Under the owner's lock.
 */
int rxe_queue_transfer(struct rxe_queue *from, struct rxe_queue *to,
		       u32 wanted);
/* empty the ring: both indices 0, slots zeroed */
void rxe_queue_reset(struct rxe_queue *q);

static inline u32 rxe_queue_producer(const struct rxe_queue *q)
{
	if (q->side == RXE_QUEUE_USER_PRODUCER)
		return smp_load_acquire(&q->buf->producer_index) & q->index_mask;
	return q->prod;
}

static inline u32 rxe_queue_consumer(const struct rxe_queue *q)
{
	if (q->side == RXE_QUEUE_USER_CONSUMER)
		return smp_load_acquire(&q->buf->consumer_index) & q->index_mask;
	return q->cons;
}

static inline u32 rxe_queue_count(const struct rxe_queue *q)
{
	return rxe_queue_used(rxe_queue_producer(q), rxe_queue_consumer(q),
			      q->index_mask);
}

static inline bool rxe_queue_empty(const struct rxe_queue *q)
{
	return rxe_queue_count(q) == 0;
}

static inline bool rxe_queue_full(const struct rxe_queue *q)
{
	return rxe_queue_is_full(rxe_queue_producer(q), rxe_queue_consumer(q),
				 q->index_mask);
}

static inline void *rxe_queue_slot(const struct rxe_queue *q, u32 index)
{
	return q->buf->data + ((size_t)(index & q->index_mask) << q->log2_elem);
}

/* the slot the kernel produces into next (kernel-side producers only) */
static inline void *rxe_queue_producer_slot(const struct rxe_queue *q)
{
	return rxe_queue_slot(q, q->prod);
}

static inline void rxe_queue_advance_producer(struct rxe_queue *q)
{
	q->prod = rxe_queue_next(q->prod, q->index_mask);
	smp_store_release(&q->buf->producer_index, q->prod);
}

/* the oldest entry (kernel-side consumers only); check empty first */
static inline void *rxe_queue_consumer_slot(const struct rxe_queue *q)
{
	return rxe_queue_slot(q, q->cons);
}

static inline void rxe_queue_advance_consumer(struct rxe_queue *q)
{
	q->cons = rxe_queue_next(q->cons, q->index_mask);
	smp_store_release(&q->buf->consumer_index, q->cons);
}

/* rxe_mmap.c */
struct rxe_mmap_info *rxe_mmap_info_create(struct rxe_dev *rxe, u32 size,
					   bool user, struct rxe_ucontext *uctx);
void rxe_mmap_info_put(struct rxe_mmap_info *ip);
/* the queue is going away: a cookie nobody took is withdrawn */
void rxe_mmap_info_withdraw(struct rxe_mmap_info *ip);

#endif /* _RXE_QUEUE_H */
