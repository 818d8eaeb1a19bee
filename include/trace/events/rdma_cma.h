/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of rdma_cm (instantiated in drivers/infiniband/core/cma.c):
 *   rdma_cma:cm_state  every state change of an ID (old -> new, and why)
 *   rdma_cma:cm_event  every event handed to an ID's handler, with the
 *                      handler's return value
 * bpftrace: see Documentation/core/rdma_cm.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdma_cma

#if !defined(_TRACE_RDMA_CMA_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RDMA_CMA_H

#include <linux/tracepoint.h>

TRACE_EVENT(cm_state,
	TP_PROTO(const void *id, u32 old_state, u32 new_state, u32 input),
	TP_ARGS(id, old_state, new_state, input),

	TP_STRUCT__entry(
		__field(const void *, id)
		__field(u32, old_state)
		__field(u32, new_state)
		__field(u32, input)
	),

	TP_fast_assign(
		__entry->id = id;
		__entry->old_state = old_state;
		__entry->new_state = new_state;
		__entry->input = input;
	),

	TP_printk("id=%p %u -> %u input=%u", __entry->id, __entry->old_state,
		  __entry->new_state, __entry->input)
);

TRACE_EVENT(cm_event,
	TP_PROTO(const void *id, u32 state, u32 event, int status, int ret),
	TP_ARGS(id, state, event, status, ret),

	TP_STRUCT__entry(
		__field(const void *, id)
		__field(u32, state)
		__field(u32, event)
		__field(int, status)
		__field(int, ret)
	),

	TP_fast_assign(
		__entry->id = id;
		__entry->state = state;
		__entry->event = event;
		__entry->status = status;
		__entry->ret = ret;
	),

	TP_printk("id=%p state=%u event=%u status=%d ret=%d", __entry->id,
		  __entry->state, __entry->event, __entry->status, __entry->ret)
);

#endif /* _TRACE_RDMA_CMA_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH trace/events
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rdma_cma
#include <trace/define_trace.h>
