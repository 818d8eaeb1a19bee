// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The one place the rdma_core tracepoints are instantiated. */
#define CREATE_TRACE_POINTS
#include <trace/events/rdma_core.h>
