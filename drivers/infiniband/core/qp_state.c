// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The IBTA QP state machine (IBTA vol. 1, chapter 10.3 and the Modify QP
 * verb, chapter 11.2.5), as data.
 *
 * Two tables describe it.  edge_targets[] says which (current, next) pairs
 * are edges at all; that does not depend on the QP type.  edge_rules[] then
 * gives, per group of source states, target state and group of QP types,
 * the attributes a Modify QP on that edge must carry and those it may
 * carry.  A pair/type combination that no rule names is an edge without
 * attributes (e.g. any state to RESET).
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).
 */
#include <linux/types.h>
#include <linux/export.h>
#include <rdma/ib_qp_state.h>

#define ST(s)	(1u << (s))
#define QT(t)	(1u << (t))

/* QP type groups */
#define QT_MGMT		(QT(IB_QPT_SMI) | QT(IB_QPT_GSI))
#define QT_DGRAM	(QT(IB_QPT_UD) | QT_MGMT)
#define QT_CONNECTED	(QT(IB_QPT_RC) | QT(IB_QPT_UC) | \
			 QT(IB_QPT_XRC_INI) | QT(IB_QPT_XRC_TGT))
#define QT_RD_ATOMIC	(QT(IB_QPT_RC) | QT(IB_QPT_XRC_TGT))

/* Attribute groups used below */
#define A_PKEY_QKEY	(IB_QP_PKEY_INDEX | IB_QP_QKEY)
#define A_CONN_INIT	(IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)
#define A_CONN_PATH	(IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | \
			 IB_QP_RQ_PSN)
#define A_RESPONDER	(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
#define A_REQ_LIMITS	(IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
			 IB_QP_MAX_QP_RD_ATOMIC)
#define A_REQUESTER	(A_REQ_LIMITS | IB_QP_SQ_PSN)
#define A_RTS_TUNE	(IB_QP_CUR_STATE | IB_QP_ALT_PATH | \
			 IB_QP_ACCESS_FLAGS | IB_QP_PATH_MIG_STATE)

/* Legal targets of each state, independent of the QP type. */
static const u8 edge_targets[IB_QPS_COUNT] = {
	[IB_QPS_RESET] = ST(IB_QPS_RESET) | ST(IB_QPS_INIT),
	[IB_QPS_INIT]  = ST(IB_QPS_RESET) | ST(IB_QPS_INIT) | ST(IB_QPS_RTR) |
			 ST(IB_QPS_ERR),
	[IB_QPS_RTR]   = ST(IB_QPS_RESET) | ST(IB_QPS_RTS) | ST(IB_QPS_ERR),
	[IB_QPS_RTS]   = ST(IB_QPS_RESET) | ST(IB_QPS_RTS) | ST(IB_QPS_SQD) |
			 ST(IB_QPS_ERR),
	[IB_QPS_SQD]   = ST(IB_QPS_RESET) | ST(IB_QPS_RTS) | ST(IB_QPS_SQD) |
			 ST(IB_QPS_ERR),
	[IB_QPS_SQE]   = ST(IB_QPS_RESET) | ST(IB_QPS_RTS) | ST(IB_QPS_ERR),
	[IB_QPS_ERR]   = ST(IB_QPS_RESET) | ST(IB_QPS_ERR),
};

/* States in which the caller may assert the current state (CUR_STATE). */
#define CUR_STATE_SOURCES \
	(ST(IB_QPS_RTR) | ST(IB_QPS_RTS) | ST(IB_QPS_SQD) | ST(IB_QPS_SQE))

struct qp_edge_rule {
	u8 from;	/* ST() set of source states */
	u8 to;		/* target state */
	u16 types;	/* QT() set of QP types */
	u32 req;
	u32 opt;
};

/*
 * At most one rule matches a (from, to, type) triple; the unit tests
 * check that.  Rules are grouped by target state.
 */
static const struct qp_edge_rule edge_rules[] = {
	/* RESET -> INIT: addressing of the QP; INIT -> INIT: change it */
	{ ST(IB_QPS_RESET), IB_QPS_INIT, QT(IB_QPT_UD),
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY, 0 },
	{ ST(IB_QPS_RESET), IB_QPS_INIT, QT(IB_QPT_RAW_PACKET),
	  IB_QP_PORT, 0 },
	{ ST(IB_QPS_RESET), IB_QPS_INIT, QT_CONNECTED, A_CONN_INIT, 0 },
	{ ST(IB_QPS_RESET), IB_QPS_INIT, QT_MGMT, A_PKEY_QKEY, 0 },
	{ ST(IB_QPS_INIT), IB_QPS_INIT, QT(IB_QPT_UD),
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY },
	{ ST(IB_QPS_INIT), IB_QPS_INIT, QT_CONNECTED, 0, A_CONN_INIT },
	{ ST(IB_QPS_INIT), IB_QPS_INIT, QT_MGMT, 0, A_PKEY_QKEY },

	/* INIT -> RTR: connected QPs learn their peer */
	{ ST(IB_QPS_INIT), IB_QPS_RTR, QT(IB_QPT_UC) | QT(IB_QPT_XRC_INI),
	  A_CONN_PATH,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ ST(IB_QPS_INIT), IB_QPS_RTR, QT_RD_ATOMIC,
	  A_CONN_PATH | A_RESPONDER,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ ST(IB_QPS_INIT), IB_QPS_RTR, QT_DGRAM, 0, A_PKEY_QKEY },

	/* RTR -> RTS: the send side starts */
	{ ST(IB_QPS_RTR), IB_QPS_RTS, QT_DGRAM,
	  IB_QP_SQ_PSN, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ ST(IB_QPS_RTR), IB_QPS_RTS, QT(IB_QPT_UC),
	  IB_QP_SQ_PSN, A_RTS_TUNE },
	{ ST(IB_QPS_RTR), IB_QPS_RTS, QT(IB_QPT_RC),
	  A_REQUESTER, A_RTS_TUNE | IB_QP_MIN_RNR_TIMER },
	{ ST(IB_QPS_RTR), IB_QPS_RTS, QT(IB_QPT_XRC_INI),
	  A_REQUESTER, A_RTS_TUNE },
	{ ST(IB_QPS_RTR), IB_QPS_RTS, QT(IB_QPT_XRC_TGT),
	  IB_QP_TIMEOUT | IB_QP_SQ_PSN, A_RTS_TUNE | IB_QP_MIN_RNR_TIMER },
	{ ST(IB_QPS_RTR) | ST(IB_QPS_RTS), IB_QPS_RTS,
	  QT(IB_QPT_RAW_PACKET), 0, IB_QP_RATE_LIMIT },

	/* RTS -> RTS and SQD -> RTS: tune a running QP */
	{ ST(IB_QPS_RTS) | ST(IB_QPS_SQD), IB_QPS_RTS, QT_DGRAM,
	  0, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ ST(IB_QPS_RTS) | ST(IB_QPS_SQD), IB_QPS_RTS,
	  QT(IB_QPT_UC) | QT(IB_QPT_XRC_INI), 0, A_RTS_TUNE },
	{ ST(IB_QPS_RTS) | ST(IB_QPS_SQD), IB_QPS_RTS, QT_RD_ATOMIC,
	  0, A_RTS_TUNE | IB_QP_MIN_RNR_TIMER },

	/* SQE -> RTS: recover from a send queue error (no RC: it goes to ERR) */
	{ ST(IB_QPS_SQE), IB_QPS_RTS, QT_DGRAM,
	  0, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ ST(IB_QPS_SQE), IB_QPS_RTS, QT(IB_QPT_UC),
	  0, IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS },

	/* RTS -> SQD: drain, optionally with an async event when drained */
	{ ST(IB_QPS_RTS), IB_QPS_SQD, QT_DGRAM | QT_CONNECTED,
	  0, IB_QP_EN_SQD_ASYNC_NOTIFY },

	/* SQD -> SQD: the only place the path may be rewritten */
	{ ST(IB_QPS_SQD), IB_QPS_SQD, QT_DGRAM, 0, A_PKEY_QKEY },
	{ ST(IB_QPS_SQD), IB_QPS_SQD, QT(IB_QPT_UC),
	  0, IB_QP_AV | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	     IB_QP_PKEY_INDEX | IB_QP_PATH_MIG_STATE },
	{ ST(IB_QPS_SQD), IB_QPS_SQD, QT(IB_QPT_RC),
	  0, A_CONN_INIT | IB_QP_AV | A_REQ_LIMITS | A_RESPONDER |
	     IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE },
	{ ST(IB_QPS_SQD), IB_QPS_SQD, QT(IB_QPT_XRC_INI),
	  0, A_CONN_INIT | IB_QP_AV | A_REQ_LIMITS |
	     IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE },
	{ ST(IB_QPS_SQD), IB_QPS_SQD, QT(IB_QPT_XRC_TGT),
	  0, A_CONN_INIT | IB_QP_AV | IB_QP_TIMEOUT | A_RESPONDER |
	     IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE },
};

static bool args_in_range(enum ib_qp_state cur, enum ib_qp_state next,
			  enum ib_qp_type type)
{
	return (unsigned int)cur < IB_QPS_COUNT &&
	       (unsigned int)next < IB_QPS_COUNT &&
	       (unsigned int)type < IB_QPT_MAX;
}

bool ib_qp_transition_attrs(enum ib_qp_state cur, enum ib_qp_state next,
			    enum ib_qp_type type, u32 *req, u32 *opt)
{
	unsigned int i;

	*req = 0;
	*opt = 0;
	if (!args_in_range(cur, next, type) ||
	    !(edge_targets[cur] & ST(next)))
		return false;

	for (i = 0; i < sizeof(edge_rules) / sizeof(edge_rules[0]); i++) {
		const struct qp_edge_rule *r = &edge_rules[i];

		if (r->to == next && (r->from & ST(cur)) &&
		    (r->types & QT(type))) {
			*req = r->req;
			*opt = r->opt;
			break;
		}
	}
	return true;
}
EXPORT_SYMBOL(ib_qp_transition_attrs);

enum ib_qp_transition_verdict
ib_qp_transition_check(enum ib_qp_state cur, enum ib_qp_state next,
		       enum ib_qp_type type, u32 mask, u32 *bad)
{
	u32 req, opt, stray, absent;

	if (bad)
		*bad = 0;
	if (!args_in_range(cur, next, type))
		return IB_QP_TRANSITION_BAD_ARG;
	if ((mask & IB_QP_CUR_STATE) && !(CUR_STATE_SOURCES & ST(cur))) {
		if (bad)
			*bad = IB_QP_CUR_STATE;
		return IB_QP_TRANSITION_CUR_STATE;
	}
	if (!ib_qp_transition_attrs(cur, next, type, &req, &opt))
		return IB_QP_TRANSITION_ILLEGAL;

	absent = req & ~mask;
	if (absent) {
		if (bad)
			*bad = absent;
		return IB_QP_TRANSITION_MISSING;
	}
	stray = mask & ~(req | opt | (u32)IB_QP_STATE);
	if (stray) {
		if (bad)
			*bad = stray;
		return IB_QP_TRANSITION_EXTRA;
	}
	return IB_QP_TRANSITION_OK;
}
EXPORT_SYMBOL(ib_qp_transition_check);

bool ib_modify_qp_is_ok(enum ib_qp_state cur, enum ib_qp_state next,
			enum ib_qp_type type, enum ib_qp_attr_mask mask)
{
	return ib_qp_transition_check(cur, next, type, (u32)mask, NULL) ==
	       IB_QP_TRANSITION_OK;
}
EXPORT_SYMBOL(ib_modify_qp_is_ok);

static const char *const qp_state_names[IB_QPS_COUNT] = {
	[IB_QPS_RESET] = "RESET",
	[IB_QPS_INIT]  = "INIT",
	[IB_QPS_RTR]   = "RTR",
	[IB_QPS_RTS]   = "RTS",
	[IB_QPS_SQD]   = "SQD",
	[IB_QPS_SQE]   = "SQE",
	[IB_QPS_ERR]   = "ERR",
};


static const char *const verdict_names[] = {
	[IB_QP_TRANSITION_OK]		= "ok",
	[IB_QP_TRANSITION_BAD_ARG]	= "argument out of range",
	[IB_QP_TRANSITION_ILLEGAL]	= "no such transition",
	[IB_QP_TRANSITION_CUR_STATE]	= "current state may not be asserted",
	[IB_QP_TRANSITION_MISSING]	= "required attribute missing",
	[IB_QP_TRANSITION_EXTRA]	= "attribute not allowed",
};

const char *ib_qp_state_str(enum ib_qp_state state)
{
	if ((unsigned int)state >= IB_QPS_COUNT)
		return "?";
	return qp_state_names[state];
}
EXPORT_SYMBOL(ib_qp_state_str);

const char *ib_qp_type_str(enum ib_qp_type type)
{
	/* a switch: the type values have a hole (7) and C++ wants none */
	switch (type) {
	case IB_QPT_SMI:		return "SMI";
	case IB_QPT_GSI:		return "GSI";
	case IB_QPT_RC:			return "RC";
	case IB_QPT_UC:			return "UC";
	case IB_QPT_UD:			return "UD";
	case IB_QPT_RAW_IPV6:		return "RAW_IPV6";
	case IB_QPT_RAW_ETHERTYPE:	return "RAW_ETHERTYPE";
	case IB_QPT_RAW_PACKET:		return "RAW_PACKET";
	case IB_QPT_XRC_INI:		return "XRC_INI";
	case IB_QPT_XRC_TGT:		return "XRC_TGT";
	default:			return "?";
	}
}
EXPORT_SYMBOL(ib_qp_type_str);

const char *ib_qp_transition_verdict_str(enum ib_qp_transition_verdict v)
{
	if ((unsigned int)v >= sizeof(verdict_names) / sizeof(verdict_names[0]))
		return "?";
	return verdict_names[v];
}
EXPORT_SYMBOL(ib_qp_transition_verdict_str);
