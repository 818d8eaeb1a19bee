// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Ring geometry and WQE sizes of rxe's shared queues: no locks, no
 * allocation, type-level headers only (also compiled as C++17 by
 * tools/testing/unit).
 */
#include "rxe_queue_math.h"

/* smallest power of two >= @v, for 1 <= v <= 2^31 */
static u32 rxe_pow2_ceil(u32 v)
{
	u32 p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static u32 rxe_log2(u32 pow2)
{
	u32 l = 0;

	while ((1U << l) < pow2)
		l++;
	return l;
}

bool rxe_queue_geometry(u32 num_elem, u32 elem_size, struct rxe_queue_geom *g)
{
	u32 slots, elem;

	if (num_elem >= RXE_QUEUE_MAX_SLOTS || elem_size > RXE_QUEUE_MAX_ELEM)
		return false;
	slots = rxe_pow2_ceil(num_elem + 1);
	elem = rxe_pow2_ceil(elem_size);
	if (elem < RXE_QUEUE_MIN_ELEM)
		elem = RXE_QUEUE_MIN_ELEM;
	g->slots = slots;
	g->log2_elem = rxe_log2(elem);
	g->capacity = slots - 1;
	g->buf_len = RXE_QUEUE_HDR_LEN + ((u64)slots << g->log2_elem);
	return true;
}

u64 rxe_queue_map_len(const struct rxe_queue_geom *g, u64 page_size)
{
	return (g->buf_len + page_size - 1) & ~(page_size - 1);
}

u32 rxe_sq_wqe_size(u32 *sge, u32 *inline_len)
{
	u32 extra = *sge * RXE_SGE_LEN;

	if (*inline_len > extra)
		extra = *inline_len;
	*sge = extra / RXE_SGE_LEN;
	*inline_len = extra;
	return RXE_SEND_WQE_HDR_LEN + extra;
}

u32 rxe_rq_wqe_size(u32 sge)
{
	return RXE_RECV_WQE_HDR_LEN + sge * RXE_SGE_LEN;
}
