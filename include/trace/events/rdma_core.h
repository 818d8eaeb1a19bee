/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of ib_core's verbs objects (verbs_qp.c):
 *   rdma_core:qp_modify  every ib_modify_qp() attempt, with its result
 *   rdma_core:qp_state   every real QP state change (modify or driver)
 * bpftrace: tools/bpf/qpstate.bt; see Documentation/core/verbs-objects.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdma_core

#if !defined(_TRACE_RDMA_CORE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RDMA_CORE_H

#include <linux/tracepoint.h>
#include <rdma/ib_verbs.h>

TRACE_EVENT(qp_modify,
	TP_PROTO(const struct ib_qp *qp, u32 cur_state, u32 new_state,
		 u32 attr_mask, int ret),
	TP_ARGS(qp, cur_state, new_state, attr_mask, ret),

	TP_STRUCT__entry(
		__string(device, qp->device->name)
		__field(u32, qpn)
		__field(u32, qp_type)
		__field(u32, cur_state)
		__field(u32, new_state)
		__field(u32, attr_mask)
		__field(int, ret)
		__array(char, outcome, 16)
	),

	TP_fast_assign(
		__assign_str(device, qp->device->name);
		__entry->qpn = qp->qp_num;
		__entry->qp_type = qp->qp_type;
		__entry->cur_state = cur_state;
		__entry->new_state = new_state;
		__entry->attr_mask = attr_mask;
		__entry->ret = ret;
		/* "ok" or "err -22", ready for the text output */
		if (ret)
			snprintf(__entry->outcome, sizeof(__entry->outcome),
				 "err %d", ret);
		else
			strscpy(__entry->outcome, "ok", sizeof(__entry->outcome));
	),

	/* "rxe0 QP17 RC RESET->INIT ok" or "... err -22" */
	TP_printk("%s QP%u %s %s->%s %s", __get_str(device),
		  __entry->qpn,
		  ib_qp_type_str((enum ib_qp_type)__entry->qp_type),
		  ib_qp_state_str((enum ib_qp_state)__entry->cur_state),
		  ib_qp_state_str((enum ib_qp_state)__entry->new_state),
		  __entry->outcome)
);

TRACE_EVENT(qp_state,
	TP_PROTO(const struct ib_qp *qp, u32 old_state, u32 new_state),
	TP_ARGS(qp, old_state, new_state),

	TP_STRUCT__entry(
		__string(device, qp->device->name)
		__field(u32, qpn)
		__field(u32, qp_type)
		__field(u32, old_state)
		__field(u32, new_state)
	),

	TP_fast_assign(
		__assign_str(device, qp->device->name);
		__entry->qpn = qp->qp_num;
		__entry->qp_type = qp->qp_type;
		__entry->old_state = old_state;
		__entry->new_state = new_state;
	),

	TP_printk("%s QP%u %s %s->%s", __get_str(device), __entry->qpn,
		  ib_qp_type_str((enum ib_qp_type)__entry->qp_type),
		  ib_qp_state_str((enum ib_qp_state)__entry->old_state),
		  ib_qp_state_str((enum ib_qp_state)__entry->new_state))
);

#endif /* _TRACE_RDMA_CORE_H */

/*
 * Out of tree: "trace/events/rdma_core.h" is found through our include/,
 * which Kbuild puts on NOSTDINC_FLAGS ahead of the kernel's own headers.
 */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH trace/events
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rdma_core
#include <trace/define_trace.h>
