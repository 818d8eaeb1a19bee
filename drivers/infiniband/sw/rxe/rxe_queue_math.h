/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Geometry of the rings rxe shares with user space (struct rxe_queue_buf
 * of <uapi/rdma/rdma_user_rxe.h>, as rdma-core's librxe reads it) and the
 * index arithmetic on them.  Type-level only:
 * rxe_queue_math.c also builds as C++ on the host (tools/testing/unit).
 *
 * A ring of capacity N has a power-of-two number of slots, at least N + 1,
 * so that "full" and "empty" differ: empty when producer == consumer,
 * full when the slot after the producer is the consumer's.  Indices are
 * always kept masked (0 .. slots - 1).
 */
#ifndef _RXE_QUEUE_MATH_H
#define _RXE_QUEUE_MATH_H

#include <linux/types.h>

/* bytes before the slots: sizeof(struct rxe_queue_buf) of the uapi */
#define RXE_QUEUE_HDR_LEN	384
/* smallest slot: one cache line */
#define RXE_QUEUE_MIN_ELEM	64
/* largest ring we build: slot count and slot size limits */
#define RXE_QUEUE_MAX_SLOTS	(1U << 24)
#define RXE_QUEUE_MAX_ELEM	(1U << 16)

struct rxe_queue_geom {
	u32 slots;		/* power of two */
	u32 log2_elem;		/* slot size is 1 << log2_elem */
	u32 capacity;		/* slots - 1: what users may post */
	u64 buf_len;		/* header + slots */
};

/*
 * Ring for @num_elem entries of @elem_size bytes each.  Returns false (and
 * leaves @g alone) if that is beyond RXE_QUEUE_MAX_SLOTS/_ELEM.
 */
bool rxe_queue_geometry(u32 num_elem, u32 elem_size, struct rxe_queue_geom *g);

/* Bytes to map: the ring rounded up to whole pages of @page_size. */
u64 rxe_queue_map_len(const struct rxe_queue_geom *g, u64 page_size);

static inline u32 rxe_queue_next(u32 index, u32 mask)
{
	return (index + 1) & mask;
}

static inline u32 rxe_queue_used(u32 prod, u32 cons, u32 mask)
{
	return (prod - cons) & mask;
}

static inline bool rxe_queue_is_empty(u32 prod, u32 cons, u32 mask)
{
	return ((prod ^ cons) & mask) == 0;
}

static inline bool rxe_queue_is_full(u32 prod, u32 cons, u32 mask)
{
	return rxe_queue_next(prod, mask) == (cons & mask);
}

/*
 * Send and receive WQE sizing for the QP caps a user asked for (as
 * upstream 6.1's rxe_qp.c).  @sge and @inline_len are the wanted
 * max_send_sge and max_inline_data; on return they hold what the SQ
 * really offers: the space behind the WQE header serves both, so
 * sge = extra / 16 and inline = extra.  Returns the SQ element size
 * (header + extra).
 */
u32 rxe_sq_wqe_size(u32 *sge, u32 *inline_len);
/* RQ/SRQ element size for @sge scatter entries. */
u32 rxe_rq_wqe_size(u32 sge);

/* sizes of the uapi WQE headers (checked against the uapi in rxe_queue.c) */
#define RXE_SEND_WQE_HDR_LEN	208
#define RXE_RECV_WQE_HDR_LEN	40
#define RXE_SGE_LEN		16

#endif /* _RXE_QUEUE_MATH_H */
