// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe's port counters, shown by "rdma statistic" and (with sysfs)
 * hw_counters/.  Names and order are upstream rxe's, so scripts that read
 * them keep working.  The data path increments them (rxe_counter_inc());
 * until it exists they stay at zero.
 */
#include "rxe.h"

const struct rdma_stat_desc rxe_port_stats[RXE_NUM_COUNTERS] = {
	[RXE_CNT_SENT_PKTS]		= { .name = "sent_pkts" },
	[RXE_CNT_RCVD_PKTS]		= { .name = "rcvd_pkts" },
	[RXE_CNT_DUP_REQ]		= { .name = "duplicate_request" },
	[RXE_CNT_OUT_OF_SEQ_REQ]	= { .name = "out_of_seq_request" },
	[RXE_CNT_RCV_RNR]		= { .name = "rcvd_rnr_err" },
	[RXE_CNT_SND_RNR]		= { .name = "send_rnr_err" },
	[RXE_CNT_RCV_SEQ_ERR]		= { .name = "rcvd_seq_err" },
	[RXE_CNT_ACK_DEFERRED]		= { .name = "ack_deferred" },
	[RXE_CNT_RETRY_EXCEEDED]	= { .name = "retry_exceeded_err" },
	[RXE_CNT_RNR_RETRY_EXCEEDED]	= { .name = "retry_rnr_exceeded_err" },
	[RXE_CNT_COMP_RETRY]		= { .name = "completer_retry_err" },
	[RXE_CNT_SEND_ERR]		= { .name = "send_err" },
	[RXE_CNT_LINK_DOWNED]		= { .name = "link_downed" },
	[RXE_CNT_RDMA_SEND]		= { .name = "rdma_sends" },
	[RXE_CNT_RDMA_RECV]		= { .name = "rdma_recvs" },
};

int rxe_get_hw_stats(struct ib_device *ib_dev, u32 port, u64 *values, u32 num)
{
	struct rxe_dev *rxe = to_rdev(ib_dev);
	u32 i;

	for (i = 0; i < num && i < RXE_NUM_COUNTERS; i++)
		values[i] = (u64)atomic64_read(&rxe->counters[i]);
	return 0;
}
