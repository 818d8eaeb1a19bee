/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QP states, QP types, modify-QP attribute masks and the IBTA state
 * machine check.  Type-level only: this header is also compiled as C++
 * on the host (tools/testing/unit) against small shim headers.
 */
#ifndef _RDMA_IB_QP_STATE_H
#define _RDMA_IB_QP_STATE_H

#include <linux/types.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>

enum ib_qp_state {
	IB_QPS_RESET,
	IB_QPS_INIT,
	IB_QPS_RTR,
	IB_QPS_RTS,
	IB_QPS_SQD,
	IB_QPS_SQE,
	IB_QPS_ERR
};

#define IB_QPS_COUNT	(IB_QPS_ERR + 1)

/* Values shared with user space come from the uapi enum. */
enum ib_qp_type {
	IB_QPT_SMI = 0,				/* subnet management, QP0 */
	IB_QPT_GSI = 1,				/* general services, QP1 */
	IB_QPT_RC = IB_UVERBS_QPT_RC,		/* reliable connected */
	IB_QPT_UC = IB_UVERBS_QPT_UC,		/* unreliable connected */
	IB_QPT_UD = IB_UVERBS_QPT_UD,		/* unreliable datagram */
	IB_QPT_RAW_IPV6 = 5,
	IB_QPT_RAW_ETHERTYPE = 6,
	IB_QPT_RAW_PACKET = IB_UVERBS_QPT_RAW_PACKET,	/* raw Ethernet */
	IB_QPT_XRC_INI = IB_UVERBS_QPT_XRC_INI,	/* XRC initiator */
	IB_QPT_XRC_TGT = IB_UVERBS_QPT_XRC_TGT,	/* XRC target */
	IB_QPT_MAX,				/* end of the types above */
	IB_QPT_DRIVER = IB_UVERBS_QPT_DRIVER	/* driver-private types */
};

/* Bit positions follow the IBTA Modify QP attribute list. */
enum ib_qp_attr_mask {
	IB_QP_STATE			= 1 << 0,
	IB_QP_CUR_STATE			= 1 << 1,
	IB_QP_EN_SQD_ASYNC_NOTIFY	= 1 << 2,
	IB_QP_ACCESS_FLAGS		= 1 << 3,
	IB_QP_PKEY_INDEX		= 1 << 4,
	IB_QP_PORT			= 1 << 5,
	IB_QP_QKEY			= 1 << 6,
	IB_QP_AV			= 1 << 7,
	IB_QP_PATH_MTU			= 1 << 8,
	IB_QP_TIMEOUT			= 1 << 9,
	IB_QP_RETRY_CNT			= 1 << 10,
	IB_QP_RNR_RETRY			= 1 << 11,
	IB_QP_RQ_PSN			= 1 << 12,
	IB_QP_MAX_QP_RD_ATOMIC		= 1 << 13,
	IB_QP_ALT_PATH			= 1 << 14,
	IB_QP_MIN_RNR_TIMER		= 1 << 15,
	IB_QP_SQ_PSN			= 1 << 16,
	IB_QP_MAX_DEST_RD_ATOMIC	= 1 << 17,
	IB_QP_PATH_MIG_STATE		= 1 << 18,
	IB_QP_CAP			= 1 << 19,
	IB_QP_DEST_QPN			= 1 << 20,
	IB_QP_RESERVED1			= 1 << 21,
	IB_QP_RESERVED2			= 1 << 22,
	IB_QP_RESERVED3			= 1 << 23,
	IB_QP_RESERVED4			= 1 << 24,
	IB_QP_RATE_LIMIT		= 1 << 25,

	IB_QP_ATTR_STANDARD_BITS	= (1 << 21) - 1
};

/* Why a transition was refused (IB_QP_TRANSITION_OK when it was not). */
enum ib_qp_transition_verdict {
	IB_QP_TRANSITION_OK,
	IB_QP_TRANSITION_BAD_ARG,	/* state or QP type out of range */
	IB_QP_TRANSITION_ILLEGAL,	/* no such edge in the state machine */
	IB_QP_TRANSITION_CUR_STATE,	/* CUR_STATE given where not allowed */
	IB_QP_TRANSITION_MISSING,	/* a required attribute is absent */
	IB_QP_TRANSITION_EXTRA,		/* an attribute not allowed here */
};

/**
 * ib_qp_transition_attrs() - attributes of one edge of the state machine
 * @cur: current state
 * @next: requested state
 * @type: QP type
 * @req: out, attributes that must be present (IB_QP_STATE excluded)
 * @opt: out, attributes that may be present
 *
 * Return: true when the edge exists for @type, false otherwise (and for
 * out-of-range arguments); @req and @opt are zero then.
 */
bool ib_qp_transition_attrs(enum ib_qp_state cur, enum ib_qp_state next,
			    enum ib_qp_type type, u32 *req, u32 *opt);

/**
 * ib_qp_transition_check() - judge a modify-QP request
 * @cur: current state
 * @next: requested state (equal to @cur when IB_QP_STATE is not in @mask)
 * @type: QP type
 * @mask: attribute mask of the request
 * @bad: optional out, the offending attribute bits for _MISSING/_EXTRA
 */
enum ib_qp_transition_verdict
ib_qp_transition_check(enum ib_qp_state cur, enum ib_qp_state next,
		       enum ib_qp_type type, u32 mask, u32 *bad);

/**
 * ib_modify_qp_is_ok() - may a QP of @type move from @cur to @next with @mask
 *
 * Same meaning as upstream's function of this name.
 */
bool ib_modify_qp_is_ok(enum ib_qp_state cur, enum ib_qp_state next,
			enum ib_qp_type type, enum ib_qp_attr_mask mask);

/* Short names ("RESET", "RC", ...); "?" for out-of-range values. */
const char *ib_qp_state_str(enum ib_qp_state state);
const char *ib_qp_type_str(enum ib_qp_type type);
const char *ib_qp_transition_verdict_str(enum ib_qp_transition_verdict v);

#endif /* _RDMA_IB_QP_STATE_H */
