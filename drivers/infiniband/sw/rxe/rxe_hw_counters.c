// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe's port counters, shown by "rdma statistic" and (with sysfs)
 * hw_counters/.  Names and order are upstream rxe's, so scripts that read
 * them keep working.  The data path increments them (rxe_counter_inc());
 * until it exists they stay at zero.
 */
#include "rxe.h"

#define RXE_COUNTER_DESC(id, label) { .name = label },
const struct rdma_stat_desc rxe_port_stats[RXE_NUM_COUNTERS] = {
	RXE_COUNTER_TABLE(RXE_COUNTER_DESC)
};
#undef RXE_COUNTER_DESC

int rxe_get_hw_stats(struct ib_device *ib_dev, u32 port, u64 *values, u32 num)
{
	struct rxe_dev *rxe = to_rdev(ib_dev);
	u32 i;

	for (i = 0; i < num && i < RXE_NUM_COUNTERS; i++)
		values[i] = (u64)atomic64_read(&rxe->counters[i]);
	return 0;
}
