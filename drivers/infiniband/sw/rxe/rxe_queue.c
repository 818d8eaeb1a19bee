// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared rings: allocation, reset and resize (layout in rxe_queue.h and
 * Documentation/rxe/index.rst).
 */
#include <linux/build_bug.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "rxe.h"
#include "rxe_queue.h"

static_assert(sizeof(struct rxe_queue_buf) == RXE_QUEUE_HDR_LEN);
static_assert(sizeof(struct rxe_send_wqe) == RXE_SEND_WQE_HDR_LEN);
static_assert(sizeof(struct rxe_recv_wqe) == RXE_RECV_WQE_HDR_LEN);
static_assert(sizeof(struct rxe_sge) == RXE_SGE_LEN);

struct rxe_queue *rxe_queue_create(struct rxe_dev *rxe, u32 num_elem,
				   u32 elem_size, enum rxe_queue_side side,
				   struct rxe_ucontext *uctx, struct mminfo *mi)
{
	struct rxe_queue_geom g;
	struct rxe_queue *q;
	u64 len;

	if (!rxe_queue_geometry(num_elem, elem_size, &g))
		return (struct rxe_queue *)ERR_PTR(-EINVAL);
	len = rxe_queue_map_len(&g, PAGE_SIZE);
	q = (struct rxe_queue *)kzalloc(sizeof(*q), side == RXE_QUEUE_KERNEL ?
					GFP_KERNEL : GFP_KERNEL_ACCOUNT);
	if (!q)
		return (struct rxe_queue *)ERR_PTR(-ENOMEM);
	q->ip = rxe_mmap_info_create(rxe, (u32)len, side != RXE_QUEUE_KERNEL,
				     uctx);
	if (IS_ERR(q->ip)) {
		long err = PTR_ERR(q->ip);

		kfree(q);
		return (struct rxe_queue *)ERR_PTR(err);
	}
	q->buf = (struct rxe_queue_buf *)q->ip->buf;
	q->side = side;
	q->log2_elem = g.log2_elem;
	q->index_mask = g.slots - 1;
	q->capacity = g.capacity;
	q->elem_size = elem_size;
	q->buf->log2_elem_size = g.log2_elem;
	q->buf->index_mask = q->index_mask;
	if (mi) {
		mi->offset = side == RXE_QUEUE_KERNEL ? 0 : q->ip->offset;
		mi->size = side == RXE_QUEUE_KERNEL ? 0 : q->ip->size;
		mi->pad = 0;
	}
	return q;
}

void rxe_queue_destroy(struct rxe_queue *q)
{
	if (!q)
		return;
	rxe_mmap_info_withdraw(q->ip);
	rxe_mmap_info_put(q->ip);
	kfree(q);
}

void rxe_queue_reset(struct rxe_queue *q)
{
	q->prod = 0;
	q->cons = 0;
	smp_store_release(&q->buf->producer_index, 0);
	smp_store_release(&q->buf->consumer_index, 0);
	memset(q->buf->data, 0, (size_t)(q->index_mask + 1) << q->log2_elem);
}

int rxe_queue_transfer(struct rxe_queue *from, struct rxe_queue *to,
		       u32 wanted)
{
	u32 prod, cons, n, i;
	size_t len;

	prod = rxe_queue_producer(from);
	cons = rxe_queue_consumer(from);
	n = rxe_queue_used(prod, cons, from->index_mask);
	if (n > wanted || n > to->capacity)
		return -EINVAL;
	len = min_t(size_t, 1U << from->log2_elem, 1U << to->log2_elem);
	for (i = 0; i < n; i++)
		memcpy(rxe_queue_slot(to, i), rxe_queue_slot(from, cons + i),
		       len);
	to->prod = n;
	to->cons = 0;
	smp_store_release(&to->buf->producer_index, n);
	smp_store_release(&to->buf->consumer_index, 0);
	return 0;
}
