/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The in-kernel verbs API of this stack.  It grows with each subsystem
 * piece; type-level parts live in their own headers so that pure-logic
 * files can include just those.
 */
#ifndef _RDMA_IB_VERBS_H
#define _RDMA_IB_VERBS_H

#include <rdma/ib_qp_state.h>
#include <rdma/ib_device.h>

#endif /* _RDMA_IB_VERBS_H */
