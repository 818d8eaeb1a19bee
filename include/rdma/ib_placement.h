/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The IBTA 1.5 memory placement operations, RDMA ATOMIC WRITE and RDMA
 * FLUSH (IBTA vol. 1, annex A19), which the 6.1 uapi does not name.  The
 * values are the ones user space uses (rdma-core v44 posts ATOMIC WRITE
 * as work request 15 and reads completion opcode 9; v45 adds FLUSH) and
 * later kernels' uapi gives them.  Our own names, so that they never
 * collide with a uapi that has them.  Type-level only.
 */
#ifndef _RDMA_IB_PLACEMENT_H
#define _RDMA_IB_PLACEMENT_H

/* send work request opcodes (the WQE's wr.opcode) */
#define RDMA_UVERBS_WR_FLUSH			14
#define RDMA_UVERBS_WR_ATOMIC_WRITE		15

/* send completion opcodes (ib_uverbs_wc.opcode) */
#define RDMA_UVERBS_WC_FLUSH			8
#define RDMA_UVERBS_WC_ATOMIC_WRITE		9

/* MR and QP access flags (ib_uverbs_access_flags) */
#define RDMA_UVERBS_ACCESS_FLUSH_GLOBAL		(1 << 8)
#define RDMA_UVERBS_ACCESS_FLUSH_PERSISTENT	(1 << 9)

/* device capability bits (ib_uverbs_ex_query_device_resp.device_cap_flags_ex) */
#define RDMA_UVERBS_DEVICE_FLUSH_GLOBAL		(1ULL << 38)
#define RDMA_UVERBS_DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#define RDMA_UVERBS_DEVICE_ATOMIC_WRITE		(1ULL << 40)

#endif
