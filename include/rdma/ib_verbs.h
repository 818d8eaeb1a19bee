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
#include <rdma/ib_gid_table.h>

/* A GID as 16 bytes, or as the subnet prefix and interface id of IB. */
union ib_gid {
	u8 raw[RDMA_GID_BYTES];
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

#endif /* _RDMA_IB_VERBS_H */
