// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm multicast for UD IDs on RoCE.  Not implemented yet: joins are
 * refused with -EOPNOTSUPP.
 */
#include "cma_priv.h"

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(rdma_join_multicast);

void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
}
EXPORT_SYMBOL_GPL(rdma_leave_multicast);

void cma_leave_all_mc(struct rdma_id_private *p)
{
}
