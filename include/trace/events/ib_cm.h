/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of the IB connection manager (ib_cm.ko, cm.c):
 *   ib_cm:cm_state  every state change of a CM ID
 *   ib_cm:cm_event  every event handed to a CM ID's handler, with the
 *                   state it was delivered in and the handler's return
 *                   value (non-zero destroys the ID)
 * The IDs are the local and remote communication IDs of the messages.
 * bpftrace: tools/bpf/cmstate.bt; see Documentation/core/cm.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ib_cm

#if !defined(_TRACE_IB_CM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IB_CM_H

#include <linux/tracepoint.h>
#include <rdma/ib_cm_state.h>

TRACE_EVENT(cm_state,
	TP_PROTO(u32 local_id, u32 remote_id, u64 service_id, u32 old_state,
		 u32 new_state),
	TP_ARGS(local_id, remote_id, service_id, old_state, new_state),

	TP_STRUCT__entry(
		__field(u32, local_id)
		__field(u32, remote_id)
		__field(u64, service_id)
		__field(u32, old_state)
		__field(u32, new_state)
	),

	TP_fast_assign(
		__entry->local_id = local_id;
		__entry->remote_id = remote_id;
		__entry->service_id = service_id;
		__entry->old_state = old_state;
		__entry->new_state = new_state;
	),

	/* "id 1a2b3c4d (remote 5e6f7a8b) sid 0x106 IDLE->REQ_SENT" */
	TP_printk("id %08x (remote %08x) sid 0x%llx %s->%s", __entry->local_id,
		  __entry->remote_id, (unsigned long long)__entry->service_id,
		  ib_cm_state_str((enum ib_cm_state)__entry->old_state),
		  ib_cm_state_str((enum ib_cm_state)__entry->new_state))
);

TRACE_EVENT(cm_event,
	TP_PROTO(u32 local_id, u32 state, u32 event, int ret),
	TP_ARGS(local_id, state, event, ret),

	TP_STRUCT__entry(
		__field(u32, local_id)
		__field(u32, state)
		__field(u32, event)
		__field(int, ret)
	),

	TP_fast_assign(
		__entry->local_id = local_id;
		__entry->state = state;
		__entry->event = event;
		__entry->ret = ret;
	),

	TP_printk("id %08x %s in %s, handler returned %d", __entry->local_id,
		  ib_cm_event_str((enum ib_cm_event_type)__entry->event),
		  ib_cm_state_str((enum ib_cm_state)__entry->state),
		  __entry->ret)
);

#endif /* _TRACE_IB_CM_H */

/* found through our include/ on NOSTDINC_FLAGS, as rdma_core.h is */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH trace/events
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ib_cm
#include <trace/define_trace.h>
