/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rdma_cm ID state machine as data: which calls each state allows and
 * where they lead, and which event each completion or ib_cm event becomes
 * in each state.  Type-level only: this header and cma_state.c are also
 * compiled as C++ on the host (tools/testing/unit).
 *
 * rdma_cm asks rdma_cm_sm_step() under the ID's state lock (and, for any
 * step into or out of CONNECT or one that reports an event, the handler
 * mutex too) and sets act.next before it drops the lock; that makes every
 * step a compare-and-exchange from the state it was asked about.  A call
 * that moved the state and then failed puts it back with its UNDO input
 * (or rdma_cm_sm_comp_exch()); an UNDO that finds another state is
 * refused and means the ID moved on meanwhile (device removal, destroy).
 *
 * Nothing leaves DESTROYING.  A completion or event for a DESTROYING or
 * DEVICE_REMOVAL ID is dropped, so no callback runs once destroy began.
 */
#ifndef _RDMA_RDMA_CM_STATE_H
#define _RDMA_RDMA_CM_STATE_H

#include <linux/types.h>
#include <rdma/ib_cm_state.h>

/* ID states; values as upstream's enum rdma_cm_state. */
enum rdma_cm_state {
	RDMA_CM_IDLE = 0,
	RDMA_CM_ADDR_QUERY = 1,
	RDMA_CM_ADDR_RESOLVED = 2,
	RDMA_CM_ROUTE_QUERY = 3,
	RDMA_CM_ROUTE_RESOLVED = 4,
	RDMA_CM_CONNECT = 5,
	RDMA_CM_DISCONNECT = 6,
	RDMA_CM_ADDR_BOUND = 7,
	RDMA_CM_LISTEN = 8,
	RDMA_CM_DEVICE_REMOVAL = 9,
	RDMA_CM_DESTROYING = 10,
};

#define RDMA_CM_STATE_COUNT	(RDMA_CM_DESTROYING + 1)

/*
 * Events of an ID.  The numbers are ABI: rdma_ucm returns them in
 * struct rdma_ucm_event_resp.event (uapi <rdma/rdma_user_cm.h>, which does
 * not name them), and librdmacm's enum rdma_cm_event_type in
 * <rdma/rdma_cma.h> has the same values.
 */
enum rdma_cm_event_type {
	RDMA_CM_EVENT_ADDR_RESOLVED = 0,
	RDMA_CM_EVENT_ADDR_ERROR = 1,
	RDMA_CM_EVENT_ROUTE_RESOLVED = 2,
	RDMA_CM_EVENT_ROUTE_ERROR = 3,
	RDMA_CM_EVENT_CONNECT_REQUEST = 4,
	RDMA_CM_EVENT_CONNECT_RESPONSE = 5,
	RDMA_CM_EVENT_CONNECT_ERROR = 6,
	RDMA_CM_EVENT_UNREACHABLE = 7,
	RDMA_CM_EVENT_REJECTED = 8,
	RDMA_CM_EVENT_ESTABLISHED = 9,
	RDMA_CM_EVENT_DISCONNECTED = 10,
	RDMA_CM_EVENT_DEVICE_REMOVAL = 11,
	RDMA_CM_EVENT_MULTICAST_JOIN = 12,
	RDMA_CM_EVENT_MULTICAST_ERROR = 13,
	RDMA_CM_EVENT_ADDR_CHANGE = 14,
	RDMA_CM_EVENT_TIMEWAIT_EXIT = 15,
};

#define RDMA_CM_EVENT_COUNT	(RDMA_CM_EVENT_TIMEWAIT_EXIT + 1)
/* rdma_cm_sm_action.report when no event is delivered */
#define RDMA_CM_NO_EVENT	0xff

/* What happened to an ID. */
enum rdma_cm_sm_input {
	/* calls */
	RDMA_CM_OP_BIND,
	RDMA_CM_OP_RESOLVE_ADDR,
	RDMA_CM_OP_RESOLVE_ROUTE,
	RDMA_CM_OP_LISTEN,
	RDMA_CM_OP_CONNECT,
	RDMA_CM_OP_ACCEPT,		/* with or without parameters */
	RDMA_CM_OP_REJECT,
	RDMA_CM_OP_DISCONNECT,
	RDMA_CM_OP_JOIN_MCAST,
	RDMA_CM_OP_LEAVE_MCAST,
	RDMA_CM_OP_SET_REUSEADDR,	/* turn it on */
	RDMA_CM_OP_CLEAR_REUSEADDR,
	RDMA_CM_OP_SET_AFONLY,
	RDMA_CM_OP_DESTROY,
	/* a call that moved the state failed: put the state back */
	RDMA_CM_OP_UNDO_BIND,
	RDMA_CM_OP_UNDO_RESOLVE_ADDR,
	RDMA_CM_OP_UNDO_RESOLVE_ROUTE,
	RDMA_CM_OP_UNDO_LISTEN,
	RDMA_CM_OP_UNDO_CONNECT,
	/* completions and notifications */
	RDMA_CM_IN_ADDR_OK,
	RDMA_CM_IN_ADDR_FAIL,		/* status: the negative errno */
	RDMA_CM_IN_ROUTE_OK,
	RDMA_CM_IN_ROUTE_FAIL,		/* status: the negative errno */
	RDMA_CM_IN_JOIN_OK,
	RDMA_CM_IN_JOIN_FAIL,		/* status: the negative errno */
	RDMA_CM_IN_DEVICE_GONE,
	RDMA_CM_IN_ADDR_CHANGE,		/* bonding failover changed the MAC */
	RDMA_CM_IN_NEIGH_CHANGE,	/* the neighbour's MAC changed */
	/* ib_cm events, see rdma_cm_sm_ib_input() */
	RDMA_CM_IN_REQ,			/* to a listener */
	RDMA_CM_IN_SIDR_REQ,		/* to a listener */
	RDMA_CM_IN_REP,			/* the ID has no kernel QP */
	RDMA_CM_IN_REP_QP_OK,		/* kernel QP moved to RTS */
	RDMA_CM_IN_REP_QP_FAIL,		/* status: the negative errno */
	RDMA_CM_IN_ESTABLISHED,		/* RTU received, or COMM_EST */
	RDMA_CM_IN_CM_TIMEOUT,		/* REQ, REP or SIDR_REQ retries out */
	RDMA_CM_IN_REJ,			/* status: the REJ reason */
	RDMA_CM_IN_DREQ,
	RDMA_CM_IN_DREP,
	RDMA_CM_IN_DREQ_TIMEOUT,
	RDMA_CM_IN_TIMEWAIT_EXIT,
	RDMA_CM_IN_SIDR_REP_OK,
	RDMA_CM_IN_SIDR_REP_FAIL,	/* status: the SIDR_REP status */
	RDMA_CM_IN_CM_OTHER,		/* MRA, LAP, APR: not reported */
	RDMA_CM_IN_COUNT
};

static inline bool rdma_cm_sm_is_call(enum rdma_cm_sm_input in)
{
	return (unsigned int)in <= RDMA_CM_OP_UNDO_CONNECT;
}

enum rdma_cm_sm_verdict {
	RDMA_CM_SM_GO,		/* set act.next, do act.work, report */
	RDMA_CM_SM_REFUSE,	/* a call in the wrong state: act.err */
	RDMA_CM_SM_DROP,	/* ignore; an ib_cm handler returns act.err */
	RDMA_CM_SM_VERDICT_COUNT
};

/* rdma_cm_sm_action.work bits */
enum rdma_cm_sm_work {
	/*
	 * bind first (to the source address, or a wildcard of the
	 * destination's family), then step the same input again
	 */
	RDMA_CM_DO_AUTO_BIND	= 1 << 0,
	/* cancel the address request, and wait for it, before going on */
	RDMA_CM_DO_CANCEL_ADDR	= 1 << 1,
	/* cancel the route query; free path records an earlier one left */
	RDMA_CM_DO_CANCEL_ROUTE	= 1 << 2,
	/* stop listening on every device */
	RDMA_CM_DO_CANCEL_LISTEN = 1 << 3,
	/* the event is for a new ID, made in CONNECT, given to the listener */
	RDMA_CM_DO_NEW_ID	= 1 << 4,
	/* RC: ib_send_cm_mra() with IB_CM_MRA_DELAY once the handler agreed */
	RDMA_CM_DO_DELAYED_MRA	= 1 << 5,
	/* move a kernel QP to ERR */
	RDMA_CM_DO_QP_ERR	= 1 << 6,
};

enum rdma_cm_sm_why {
	RDMA_CM_WHY_NONE,
	RDMA_CM_WHY_BAD_ARG,		/* state or input out of range */
	RDMA_CM_WHY_WRONG_STATE,	/* call not allowed in this state */
	RDMA_CM_WHY_GONE,		/* destroying, or the device went */
	RDMA_CM_WHY_NOT_LISTENING,	/* a request for a non-listener */
	RDMA_CM_WHY_UNEXPECTED,		/* completion for another state */
	RDMA_CM_WHY_NOT_REPORTED,	/* an ib_cm event rdma_cm ignores */
	RDMA_CM_WHY_COUNT
};

struct rdma_cm_sm_action {
	u8 verdict;	/* enum rdma_cm_sm_verdict */
	u8 next;	/* enum rdma_cm_state; the current state unless GO */
	u8 report;	/* enum rdma_cm_event_type, or RDMA_CM_NO_EVENT */
	u8 work;	/* enum rdma_cm_sm_work bits */
	u8 why;		/* enum rdma_cm_sm_why; RDMA_CM_WHY_NONE for GO */
	int status;	/* the event's status (0 when none is reported) */
	/*
	 * REFUSE: what the call returns.  DROP: what an ib_cm handler
	 * returns: 0, or -ECONNABORTED for a request the ID cannot take
	 * (ib_cm then rejects it).
	 */
	int err;
};

/**
 * rdma_cm_sm_step() - what @in does to an ID in @state
 * @in_status: the status that came with @in (see enum rdma_cm_sm_input);
 *	       copied to act->status for the inputs that carry one
 * @act: out, always filled (for out-of-range arguments: REFUSE, -EINVAL,
 *	 next = @state)
 *
 * Return: act->verdict.
 */
enum rdma_cm_sm_verdict rdma_cm_sm_step(enum rdma_cm_state state,
					enum rdma_cm_sm_input in,
					int in_status,
					struct rdma_cm_sm_action *act);

/* Is @from -> @to a move some step makes (a state to itself is not)? */
bool rdma_cm_sm_move_ok(enum rdma_cm_state from, enum rdma_cm_state to);

/*
 * Compare and exchange: if *@state is @from and @from -> @to is a move,
 * set *@state to @to and return 0; otherwise -EINVAL, *@state unchanged.
 */
int rdma_cm_sm_comp_exch(enum rdma_cm_state *state, enum rdma_cm_state from,
			 enum rdma_cm_state to);

/*
 * The input an ib_cm event is for rdma_cm.  @kernel_qp: the ID has a
 * kernel QP (REP); @ok: REP: the kernel QP reached RTS, SIDR_REP: status
 * 0.  Unknown events are RDMA_CM_IN_CM_OTHER.
 */
enum rdma_cm_sm_input rdma_cm_sm_ib_input(enum ib_cm_event_type ev,
					  bool kernel_qp, bool ok);

/* Short names; "?" for out-of-range values. */
const char *rdma_cm_state_str(enum rdma_cm_state state);
const char *rdma_cm_event_str(enum rdma_cm_event_type ev);
const char *rdma_cm_sm_input_str(enum rdma_cm_sm_input in);
const char *rdma_cm_sm_verdict_str(enum rdma_cm_sm_verdict v);
const char *rdma_cm_sm_why_str(enum rdma_cm_sm_why why);

#endif /* _RDMA_RDMA_CM_STATE_H */
