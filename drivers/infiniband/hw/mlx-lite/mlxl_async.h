/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the asynchronous object events of the EQ (doc §4.3, §5.6)
 * and what each one is for ib_core.  Pure: type-level headers only.
 *
 * Rules:
 *  - an EQE type names its object class: 0x00 completion and 0x04 CQ
 *    error a CQ; 0x01-0x03, 0x05, 0x07, 0x10, 0x11 and 0x13 (last WQE
 *    of a QP on an SRQ) a QP; 0x12 and 0x14 an SRQ;
 *  - the object number is the CQN at EQE byte 0x20 for a CQ error, and
 *    the CQN/QPN/SRQN at byte 0x38 [23:0] for every other type;
 *  - the boot EQ subscribes to every type in MLXL_ASYNC_EVENT_MASK.
 */
#ifndef MLXL_ASYNC_H
#define MLXL_ASYNC_H

#include <linux/types.h>

enum mlxl_async_class {
	MLXL_ASYNC_NONE,	/* not an object event */
	MLXL_ASYNC_CQ,
	MLXL_ASYNC_QP,
	MLXL_ASYNC_SRQ,
};

/* what the event is; the kernel maps it to an ib_event_type */
enum mlxl_async_ev {
	MLXL_AEV_NONE,
	MLXL_AEV_COMP,		/* completion: the CQ's comp_handler */
	MLXL_AEV_CQ_ERR,
	MLXL_AEV_PATH_MIG,
	MLXL_AEV_COMM_EST,
	MLXL_AEV_SQ_DRAINED,
	MLXL_AEV_QP_FATAL,
	MLXL_AEV_PATH_MIG_ERR,
	MLXL_AEV_QP_REQ_ERR,
	MLXL_AEV_QP_ACCESS_ERR,
	MLXL_AEV_QP_LAST_WQE,
	MLXL_AEV_SRQ_ERR,
	MLXL_AEV_SRQ_LIMIT,
	MLXL_AEV_COUNT,
};

/* EQE types (doc §4.3) */
enum {
	MLXL_EQE_COMP			= 0x00,
	MLXL_EQE_PATH_MIG		= 0x01,
	MLXL_EQE_COMM_EST		= 0x02,
	MLXL_EQE_SQ_DRAINED		= 0x03,
	MLXL_EQE_CQ_ERROR		= 0x04,
	MLXL_EQE_WQ_CATAS		= 0x05,
	MLXL_EQE_PATH_MIG_FAILED	= 0x07,
	MLXL_EQE_WQ_INVAL_REQ		= 0x10,
	MLXL_EQE_WQ_ACCESS		= 0x11,
	MLXL_EQE_SRQ_CATAS		= 0x12,
	MLXL_EQE_SRQ_LAST_WQE		= 0x13,
	MLXL_EQE_SRQ_LIMIT		= 0x14,
};

#define MLXL_ASYNC_EVENT_MASK						\
	(1ull << MLXL_EQE_COMP | 1ull << MLXL_EQE_PATH_MIG |		\
	 1ull << MLXL_EQE_COMM_EST | 1ull << MLXL_EQE_SQ_DRAINED |	\
	 1ull << MLXL_EQE_CQ_ERROR | 1ull << MLXL_EQE_WQ_CATAS |	\
	 1ull << MLXL_EQE_PATH_MIG_FAILED | 1ull << MLXL_EQE_WQ_INVAL_REQ | \
	 1ull << MLXL_EQE_WQ_ACCESS | 1ull << MLXL_EQE_SRQ_CATAS |	\
	 1ull << MLXL_EQE_SRQ_LAST_WQE | 1ull << MLXL_EQE_SRQ_LIMIT)

/* the event of an EQE type (MLXL_AEV_NONE: not an object event) */
enum mlxl_async_ev mlxl_async_ev_of(u8 type);
/* the class of object an event is about */
enum mlxl_async_class mlxl_async_class_of(enum mlxl_async_ev ev);

#endif /* MLXL_ASYNC_H */
