// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma_cm ID state machine as data, see <rdma/rdma_cm_state.h>.
 *
 * One table, cma_rules[]: calls first, then completions and ib_cm events.
 * A rule names a set of inputs and a set of states; the first rule that
 * names both decides.  The closing rules catch the rest: a call is
 * refused, any other input is dropped.
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <rdma/rdma_cm_state.h>

#define ST(s)		(1u << RDMA_CM_##s)
#define OP(o)		(1ull << RDMA_CM_OP_##o)
#define IN(i)		(1ull << RDMA_CM_IN_##i)
#define SAME		0xff	/* rule.next: stay in the current state */
#define NOEV		RDMA_CM_NO_EVENT

#define ALL_STATES	((1u << RDMA_CM_STATE_COUNT) - 1)
#define GOING		(ST(DESTROYING) | ST(DEVICE_REMOVAL))
#define LIVE		(ALL_STATES & ~GOING)
#define ALL_CALLS	((1ull << (RDMA_CM_OP_UNDO_CONNECT + 1)) - 1)
#define ALL_INPUTS	(((1ull << RDMA_CM_IN_COUNT) - 1) & ~ALL_CALLS)

/* Where an event's status comes from */
enum {
	STATUS_ZERO,
	STATUS_TIMEDOUT,	/* -ETIMEDOUT */
	STATUS_INPUT,		/* the status that came with the input */
};

struct cma_rule {
	u64 ins;	/* OP()/IN() set */
	u32 states;	/* ST() set */
	u8 verdict;
	u8 next;	/* enum rdma_cm_state or SAME */
	u8 report;
	u8 work;
	u8 status;	/* STATUS_* */
	u8 why;
};

#define GO_ST(i, s, nx, ev, w, st) \
	{ i, s, RDMA_CM_SM_GO, nx, ev, w, st, RDMA_CM_WHY_NONE }
#define GO(i, s, nx, ev, w) \
	GO_ST(i, s, nx, ev, w, STATUS_ZERO)
#define DROP(i, s, y) \
	{ i, s, RDMA_CM_SM_DROP, SAME, NOEV, 0, STATUS_ZERO, RDMA_CM_WHY_##y }
#define REFUSE(i, s, y) \
	{ i, s, RDMA_CM_SM_REFUSE, SAME, NOEV, 0, STATUS_ZERO, \
	  RDMA_CM_WHY_##y }

#define EV(e)		RDMA_CM_EVENT_##e
#define TO(s)		RDMA_CM_##s

static const struct cma_rule cma_rules[] = {
	/* Active side: bind, resolve, connect */
	GO(OP(BIND), ST(IDLE), TO(ADDR_BOUND), NOEV, 0),
	GO(OP(RESOLVE_ADDR) | OP(LISTEN), ST(IDLE), TO(ADDR_BOUND), NOEV,
	   RDMA_CM_DO_AUTO_BIND),
	GO(OP(RESOLVE_ADDR), ST(ADDR_BOUND), TO(ADDR_QUERY), NOEV,
	   RDMA_CM_DO_CANCEL_ADDR),
	GO(OP(RESOLVE_ROUTE), ST(ADDR_RESOLVED), TO(ROUTE_QUERY), NOEV,
	   RDMA_CM_DO_CANCEL_ROUTE),
	GO(OP(CONNECT), ST(ROUTE_RESOLVED), TO(CONNECT), NOEV, 0),
	/* Passive side */
	GO(OP(LISTEN), ST(ADDR_BOUND), TO(LISTEN), NOEV, 0),
	/* Calls on a connection (they need an ib_cm ID) */
	GO(OP(ACCEPT) | OP(REJECT), ST(CONNECT), SAME, NOEV, 0),
	GO(OP(DISCONNECT), ST(CONNECT) | ST(DISCONNECT), SAME, NOEV, 0),
	/* Multicast (UD) and options */
	GO(OP(JOIN_MCAST), ST(ADDR_BOUND) | ST(ADDR_RESOLVED), SAME, NOEV, 0),
	GO(OP(LEAVE_MCAST), ALL_STATES & ~ST(DESTROYING), SAME, NOEV, 0),
	GO(OP(SET_REUSEADDR), ALL_STATES & ~(ST(LISTEN) | ST(DESTROYING)),
	   SAME, NOEV, 0),
	GO(OP(CLEAR_REUSEADDR), ST(IDLE), SAME, NOEV, 0),
	GO(OP(SET_AFONLY), ST(IDLE) | ST(ADDR_BOUND), SAME, NOEV, 0),

	/* Destroy: from anywhere, cancelling what the state has pending */
	GO(OP(DESTROY), ST(ADDR_QUERY), TO(DESTROYING), NOEV,
	   RDMA_CM_DO_CANCEL_ADDR),
	GO(OP(DESTROY), ST(ROUTE_QUERY), TO(DESTROYING), NOEV,
	   RDMA_CM_DO_CANCEL_ROUTE),
	GO(OP(DESTROY), ST(LISTEN), TO(DESTROYING), NOEV,
	   RDMA_CM_DO_CANCEL_LISTEN),
	GO(OP(DESTROY), ALL_STATES & ~ST(DESTROYING), TO(DESTROYING), NOEV,
	   0),

	/* Undo: back to where the failed call started */
	GO(OP(UNDO_BIND), ST(ADDR_BOUND), TO(IDLE), NOEV, 0),
	GO(OP(UNDO_RESOLVE_ADDR), ST(ADDR_QUERY), TO(ADDR_BOUND), NOEV, 0),
	GO(OP(UNDO_RESOLVE_ROUTE), ST(ROUTE_QUERY), TO(ADDR_RESOLVED), NOEV,
	   RDMA_CM_DO_CANCEL_ROUTE),
	GO(OP(UNDO_LISTEN), ST(LISTEN), TO(ADDR_BOUND), NOEV,
	   RDMA_CM_DO_CANCEL_LISTEN),
	GO(OP(UNDO_CONNECT), ST(CONNECT), TO(ROUTE_RESOLVED), NOEV, 0),

	REFUSE(ALL_CALLS, GOING, GONE),
	REFUSE(ALL_CALLS, ALL_STATES, WRONG_STATE),

	/* Resolution completions */
	GO(IN(ADDR_OK), ST(ADDR_QUERY), TO(ADDR_RESOLVED),
	   EV(ADDR_RESOLVED), 0),
	GO_ST(IN(ADDR_FAIL), ST(ADDR_QUERY), TO(ADDR_BOUND), EV(ADDR_ERROR), 0,
	      STATUS_INPUT),
	GO(IN(ROUTE_OK), ST(ROUTE_QUERY), TO(ROUTE_RESOLVED),
	   EV(ROUTE_RESOLVED), 0),
	GO_ST(IN(ROUTE_FAIL), ST(ROUTE_QUERY), TO(ADDR_RESOLVED),
	      EV(ROUTE_ERROR), 0, STATUS_INPUT),

	/* Notifications for any live ID */
	GO(IN(JOIN_OK), LIVE, SAME, EV(MULTICAST_JOIN), 0),
	GO_ST(IN(JOIN_FAIL), LIVE, SAME, EV(MULTICAST_ERROR), 0,
	      STATUS_INPUT),
	GO(IN(ADDR_CHANGE), LIVE, SAME, EV(ADDR_CHANGE), 0),
	GO_ST(IN(NEIGH_CHANGE), LIVE, SAME, EV(UNREACHABLE), 0,
	      STATUS_TIMEDOUT),
	GO(IN(DEVICE_GONE), ST(ADDR_QUERY), TO(DEVICE_REMOVAL),
	   EV(DEVICE_REMOVAL), RDMA_CM_DO_CANCEL_ADDR),
	GO(IN(DEVICE_GONE), ST(ROUTE_QUERY), TO(DEVICE_REMOVAL),
	   EV(DEVICE_REMOVAL), RDMA_CM_DO_CANCEL_ROUTE),
	GO(IN(DEVICE_GONE), ST(LISTEN), TO(DEVICE_REMOVAL),
	   EV(DEVICE_REMOVAL), RDMA_CM_DO_CANCEL_LISTEN),
	GO(IN(DEVICE_GONE), LIVE, TO(DEVICE_REMOVAL), EV(DEVICE_REMOVAL), 0),

	/* Requests reach listeners only */
	GO(IN(REQ), ST(LISTEN), SAME, EV(CONNECT_REQUEST),
	   RDMA_CM_DO_NEW_ID | RDMA_CM_DO_DELAYED_MRA),
	GO(IN(SIDR_REQ), ST(LISTEN), SAME, EV(CONNECT_REQUEST),
	   RDMA_CM_DO_NEW_ID),
	DROP(IN(REQ) | IN(SIDR_REQ), ALL_STATES, NOT_LISTENING),

	/* A connection being made: only CONNECT hears of it */
	GO(IN(REP), ST(CONNECT), SAME, EV(CONNECT_RESPONSE),
	   RDMA_CM_DO_DELAYED_MRA),
	GO(IN(REP_QP_OK), ST(CONNECT), SAME, EV(ESTABLISHED),
	   RDMA_CM_DO_DELAYED_MRA),
	GO_ST(IN(REP_QP_FAIL), ST(CONNECT), SAME, EV(CONNECT_ERROR),
	      RDMA_CM_DO_DELAYED_MRA, STATUS_INPUT),
	GO(IN(ESTABLISHED) | IN(SIDR_REP_OK), ST(CONNECT), SAME,
	   EV(ESTABLISHED), 0),
	GO_ST(IN(CM_TIMEOUT), ST(CONNECT), SAME, EV(UNREACHABLE), 0,
	      STATUS_TIMEDOUT),
	GO_ST(IN(SIDR_REP_FAIL), ST(CONNECT), SAME, EV(UNREACHABLE), 0,
	      STATUS_INPUT),
	GO_ST(IN(REJ), ST(CONNECT), SAME, EV(REJECTED), RDMA_CM_DO_QP_ERR,
	      STATUS_INPUT),

	/* Disconnection is reported once, timewait's end after it */
	GO(IN(DREQ) | IN(DREP), ST(CONNECT), TO(DISCONNECT),
	   EV(DISCONNECTED), 0),
	GO_ST(IN(DREQ_TIMEOUT), ST(CONNECT), TO(DISCONNECT),
	      EV(DISCONNECTED), 0, STATUS_TIMEDOUT),
	GO(IN(TIMEWAIT_EXIT), ST(DISCONNECT), SAME, EV(TIMEWAIT_EXIT), 0),

	DROP(IN(CM_OTHER), ALL_STATES, NOT_REPORTED),
	DROP(ALL_INPUTS, GOING, GONE),
	DROP(ALL_INPUTS, ALL_STATES, UNEXPECTED),
};

#define CMA_RULE_COUNT	(sizeof(cma_rules) / sizeof(cma_rules[0]))

static const struct cma_rule *cma_find_rule(unsigned int state,
					    unsigned int in)
{
	unsigned int i;

	for (i = 0; i < CMA_RULE_COUNT; i++) {
		const struct cma_rule *r = &cma_rules[i];

		if ((r->ins & (1ull << in)) && (r->states & (1u << state)))
			return r;
	}
	return NULL;
}

static int cma_verdict_errno(const struct cma_rule *r)
{
	if (r->verdict == RDMA_CM_SM_REFUSE)
		return -EINVAL;
	if (r->why == RDMA_CM_WHY_NOT_LISTENING)
		return -ECONNABORTED;
	return 0;
}

static int cma_event_status(const struct cma_rule *r, int in_status)
{
	switch (r->status) {
	case STATUS_TIMEDOUT:	return -ETIMEDOUT;
	case STATUS_INPUT:	return in_status;
	default:		return 0;
	}
}

enum rdma_cm_sm_verdict rdma_cm_sm_step(enum rdma_cm_state state,
					enum rdma_cm_sm_input in,
					int in_status,
					struct rdma_cm_sm_action *act)
{
	const struct cma_rule *r = NULL;

	if ((unsigned int)state < RDMA_CM_STATE_COUNT &&
	    (unsigned int)in < RDMA_CM_IN_COUNT)
		r = cma_find_rule(state, in);

	act->next = (u8)state;
	act->report = RDMA_CM_NO_EVENT;
	act->work = 0;
	act->status = 0;
	if (!r) {
		act->verdict = RDMA_CM_SM_REFUSE;
		act->why = RDMA_CM_WHY_BAD_ARG;
		act->err = -EINVAL;
		return RDMA_CM_SM_REFUSE;
	}
	act->verdict = r->verdict;
	if (r->next != SAME)
		act->next = r->next;
	act->report = r->report;
	act->work = r->work;
	act->why = r->why;
	act->status = cma_event_status(r, in_status);
	act->err = cma_verdict_errno(r);
	return (enum rdma_cm_sm_verdict)r->verdict;
}
EXPORT_SYMBOL(rdma_cm_sm_step);

bool rdma_cm_sm_move_ok(enum rdma_cm_state from, enum rdma_cm_state to)
{
	unsigned int i;

	if ((unsigned int)from >= RDMA_CM_STATE_COUNT ||
	    (unsigned int)to >= RDMA_CM_STATE_COUNT || from == to)
		return false;
	for (i = 0; i < CMA_RULE_COUNT; i++) {
		const struct cma_rule *r = &cma_rules[i];

		if (r->verdict == RDMA_CM_SM_GO && r->next == (u8)to &&
		    (r->states & (1u << from)))
			return true;
	}
	return false;
}
EXPORT_SYMBOL(rdma_cm_sm_move_ok);

int rdma_cm_sm_comp_exch(enum rdma_cm_state *state, enum rdma_cm_state from,
			 enum rdma_cm_state to)
{
	if (*state != from || !rdma_cm_sm_move_ok(from, to))
		return -EINVAL;
	*state = to;
	return 0;
}
EXPORT_SYMBOL(rdma_cm_sm_comp_exch);

enum rdma_cm_sm_input rdma_cm_sm_ib_input(enum ib_cm_event_type ev,
					  bool kernel_qp, bool ok)
{
	switch (ev) {
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
	case IB_CM_SIDR_REQ_ERROR:
		return RDMA_CM_IN_CM_TIMEOUT;
	case IB_CM_REQ_RECEIVED:
		return RDMA_CM_IN_REQ;
	case IB_CM_SIDR_REQ_RECEIVED:
		return RDMA_CM_IN_SIDR_REQ;
	case IB_CM_REP_RECEIVED:
		if (!kernel_qp)
			return RDMA_CM_IN_REP;
		return ok ? RDMA_CM_IN_REP_QP_OK : RDMA_CM_IN_REP_QP_FAIL;
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		return RDMA_CM_IN_ESTABLISHED;
	case IB_CM_DREQ_ERROR:
		return RDMA_CM_IN_DREQ_TIMEOUT;
	case IB_CM_DREQ_RECEIVED:
		return RDMA_CM_IN_DREQ;
	case IB_CM_DREP_RECEIVED:
		return RDMA_CM_IN_DREP;
	case IB_CM_TIMEWAIT_EXIT:
		return RDMA_CM_IN_TIMEWAIT_EXIT;
	case IB_CM_REJ_RECEIVED:
		return RDMA_CM_IN_REJ;
	case IB_CM_SIDR_REP_RECEIVED:
		return ok ? RDMA_CM_IN_SIDR_REP_OK : RDMA_CM_IN_SIDR_REP_FAIL;
	default:
		return RDMA_CM_IN_CM_OTHER;
	}
}
EXPORT_SYMBOL(rdma_cm_sm_ib_input);

/* ----------------------------------------------------------------- names */

static const char *const cma_state_names[RDMA_CM_STATE_COUNT] = {
	[RDMA_CM_IDLE]			= "IDLE",
	[RDMA_CM_ADDR_QUERY]		= "ADDR_QUERY",
	[RDMA_CM_ADDR_RESOLVED]		= "ADDR_RESOLVED",
	[RDMA_CM_ROUTE_QUERY]		= "ROUTE_QUERY",
	[RDMA_CM_ROUTE_RESOLVED]	= "ROUTE_RESOLVED",
	[RDMA_CM_CONNECT]		= "CONNECT",
	[RDMA_CM_DISCONNECT]		= "DISCONNECT",
	[RDMA_CM_ADDR_BOUND]		= "ADDR_BOUND",
	[RDMA_CM_LISTEN]		= "LISTEN",
	[RDMA_CM_DEVICE_REMOVAL]	= "DEVICE_REMOVAL",
	[RDMA_CM_DESTROYING]		= "DESTROYING",
};

static const char *const cma_event_names[RDMA_CM_EVENT_COUNT] = {
	[RDMA_CM_EVENT_ADDR_RESOLVED]	= "ADDR_RESOLVED",
	[RDMA_CM_EVENT_ADDR_ERROR]	= "ADDR_ERROR",
	[RDMA_CM_EVENT_ROUTE_RESOLVED]	= "ROUTE_RESOLVED",
	[RDMA_CM_EVENT_ROUTE_ERROR]	= "ROUTE_ERROR",
	[RDMA_CM_EVENT_CONNECT_REQUEST]	= "CONNECT_REQUEST",
	[RDMA_CM_EVENT_CONNECT_RESPONSE] = "CONNECT_RESPONSE",
	[RDMA_CM_EVENT_CONNECT_ERROR]	= "CONNECT_ERROR",
	[RDMA_CM_EVENT_UNREACHABLE]	= "UNREACHABLE",
	[RDMA_CM_EVENT_REJECTED]	= "REJECTED",
	[RDMA_CM_EVENT_ESTABLISHED]	= "ESTABLISHED",
	[RDMA_CM_EVENT_DISCONNECTED]	= "DISCONNECTED",
	[RDMA_CM_EVENT_DEVICE_REMOVAL]	= "DEVICE_REMOVAL",
	[RDMA_CM_EVENT_MULTICAST_JOIN]	= "MULTICAST_JOIN",
	[RDMA_CM_EVENT_MULTICAST_ERROR]	= "MULTICAST_ERROR",
	[RDMA_CM_EVENT_ADDR_CHANGE]	= "ADDR_CHANGE",
	[RDMA_CM_EVENT_TIMEWAIT_EXIT]	= "TIMEWAIT_EXIT",
};

static const char *const cma_input_names[RDMA_CM_IN_COUNT] = {
	[RDMA_CM_OP_BIND]		= "BIND",
	[RDMA_CM_OP_RESOLVE_ADDR]	= "RESOLVE_ADDR",
	[RDMA_CM_OP_RESOLVE_ROUTE]	= "RESOLVE_ROUTE",
	[RDMA_CM_OP_LISTEN]		= "LISTEN",
	[RDMA_CM_OP_CONNECT]		= "CONNECT",
	[RDMA_CM_OP_ACCEPT]		= "ACCEPT",
	[RDMA_CM_OP_REJECT]		= "REJECT",
	[RDMA_CM_OP_DISCONNECT]		= "DISCONNECT",
	[RDMA_CM_OP_JOIN_MCAST]		= "JOIN_MCAST",
	[RDMA_CM_OP_LEAVE_MCAST]	= "LEAVE_MCAST",
	[RDMA_CM_OP_SET_REUSEADDR]	= "SET_REUSEADDR",
	[RDMA_CM_OP_CLEAR_REUSEADDR]	= "CLEAR_REUSEADDR",
	[RDMA_CM_OP_SET_AFONLY]		= "SET_AFONLY",
	[RDMA_CM_OP_DESTROY]		= "DESTROY",
	[RDMA_CM_OP_UNDO_BIND]		= "UNDO_BIND",
	[RDMA_CM_OP_UNDO_RESOLVE_ADDR]	= "UNDO_RESOLVE_ADDR",
	[RDMA_CM_OP_UNDO_RESOLVE_ROUTE]	= "UNDO_RESOLVE_ROUTE",
	[RDMA_CM_OP_UNDO_LISTEN]	= "UNDO_LISTEN",
	[RDMA_CM_OP_UNDO_CONNECT]	= "UNDO_CONNECT",
	[RDMA_CM_IN_ADDR_OK]		= "ADDR_OK",
	[RDMA_CM_IN_ADDR_FAIL]		= "ADDR_FAIL",
	[RDMA_CM_IN_ROUTE_OK]		= "ROUTE_OK",
	[RDMA_CM_IN_ROUTE_FAIL]		= "ROUTE_FAIL",
	[RDMA_CM_IN_JOIN_OK]		= "JOIN_OK",
	[RDMA_CM_IN_JOIN_FAIL]		= "JOIN_FAIL",
	[RDMA_CM_IN_DEVICE_GONE]	= "DEVICE_GONE",
	[RDMA_CM_IN_ADDR_CHANGE]	= "ADDR_CHANGE",
	[RDMA_CM_IN_NEIGH_CHANGE]	= "NEIGH_CHANGE",
	[RDMA_CM_IN_REQ]		= "REQ",
	[RDMA_CM_IN_SIDR_REQ]		= "SIDR_REQ",
	[RDMA_CM_IN_REP]		= "REP",
	[RDMA_CM_IN_REP_QP_OK]		= "REP_QP_OK",
	[RDMA_CM_IN_REP_QP_FAIL]	= "REP_QP_FAIL",
	[RDMA_CM_IN_ESTABLISHED]	= "ESTABLISHED",
	[RDMA_CM_IN_CM_TIMEOUT]		= "CM_TIMEOUT",
	[RDMA_CM_IN_REJ]		= "REJ",
	[RDMA_CM_IN_DREQ]		= "DREQ",
	[RDMA_CM_IN_DREP]		= "DREP",
	[RDMA_CM_IN_DREQ_TIMEOUT]	= "DREQ_TIMEOUT",
	[RDMA_CM_IN_TIMEWAIT_EXIT]	= "TIMEWAIT_EXIT",
	[RDMA_CM_IN_SIDR_REP_OK]	= "SIDR_REP_OK",
	[RDMA_CM_IN_SIDR_REP_FAIL]	= "SIDR_REP_FAIL",
	[RDMA_CM_IN_CM_OTHER]		= "CM_OTHER",
};

static const char *const cma_verdict_names[RDMA_CM_SM_VERDICT_COUNT] = {
	[RDMA_CM_SM_GO]		= "go",
	[RDMA_CM_SM_REFUSE]	= "refuse",
	[RDMA_CM_SM_DROP]	= "drop",
};

static const char *const cma_why_names[RDMA_CM_WHY_COUNT] = {
	[RDMA_CM_WHY_NONE]		= "none",
	[RDMA_CM_WHY_BAD_ARG]		= "argument out of range",
	[RDMA_CM_WHY_WRONG_STATE]	= "not allowed in this state",
	[RDMA_CM_WHY_GONE]		= "destroying or device removed",
	[RDMA_CM_WHY_NOT_LISTENING]	= "not listening",
	[RDMA_CM_WHY_UNEXPECTED]	= "not expected in this state",
	[RDMA_CM_WHY_NOT_REPORTED]	= "not reported by rdma_cm",
};

#define CMA_NAME(tbl, v) \
	((unsigned int)(v) < sizeof(tbl) / sizeof(tbl[0]) ? \
	 tbl[(unsigned int)(v)] : "?")

const char *rdma_cm_state_str(enum rdma_cm_state state)
{
	return CMA_NAME(cma_state_names, state);
}
EXPORT_SYMBOL(rdma_cm_state_str);

const char *rdma_cm_event_str(enum rdma_cm_event_type ev)
{
	return CMA_NAME(cma_event_names, ev);
}
EXPORT_SYMBOL(rdma_cm_event_str);

const char *rdma_cm_sm_input_str(enum rdma_cm_sm_input in)
{
	return CMA_NAME(cma_input_names, in);
}
EXPORT_SYMBOL(rdma_cm_sm_input_str);

const char *rdma_cm_sm_verdict_str(enum rdma_cm_sm_verdict v)
{
	return CMA_NAME(cma_verdict_names, v);
}
EXPORT_SYMBOL(rdma_cm_sm_verdict_str);

const char *rdma_cm_sm_why_str(enum rdma_cm_sm_why why)
{
	return CMA_NAME(cma_why_names, why);
}
EXPORT_SYMBOL(rdma_cm_sm_why_str);
