/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The IB CM connection state machine (IBTA vol. 1, chapter 12) as data,
 * and the CM timer arithmetic.  Type-level only: this header and
 * cm_state.c are also compiled as C++ on the host (tools/testing/unit).
 *
 * ib_cm calls ib_cm_sm_step() under the CM ID's lock with the ID's state
 * and one input (a call of the CM user, a message received for the ID,
 * what the duplicate and stale lookups found, a timer) and carries out the
 * action it gets back, in this order: cancel the outstanding MAD, set the
 * state, leave the tables / start timewait, send the message (armed with
 * timeout and retries when asked), deliver the event.  The machine keeps
 * no state of its own.
 *
 * Lookups happen before the machine is asked: a REQ goes to the listener
 * of its service ID (IB_CM_IN_RECV_REQ on the listener says to make a new
 * ID, which is then stepped with the same input from IDLE); a REQ or REP
 * whose (remote comm ID, remote CA GUID) is already known is
 * IB_CM_IN_DUP_REQ/_DUP_REP on the ID that owns it; one whose (remote QPN,
 * remote CA GUID) is known is IB_CM_IN_STALE_REQ/_STALE_REP, and the owner
 * of that QPN is then asked for IB_CM_IN_SEND_DREQ.  A DREQ whose remote
 * QPN is not our QPN never reaches the machine, nor does a second SIDR_REQ
 * with the same (request ID, source) while the first is pending.  A
 * duplicate DREQ is IB_CM_IN_RECV_DREQ in DREQ_RCVD or TIMEWAIT.
 * Messages that name no ID at all: ib_cm_sm_orphan_tx().
 */
#ifndef _RDMA_IB_CM_STATE_H
#define _RDMA_IB_CM_STATE_H

#include <linux/types.h>

/* Connection states; the values are those of upstream's enum ib_cm_state. */
enum ib_cm_state {
	IB_CM_IDLE = 0,
	IB_CM_LISTEN = 1,
	IB_CM_REQ_SENT = 2,
	IB_CM_REQ_RCVD = 3,
	IB_CM_MRA_REQ_SENT = 4,
	IB_CM_MRA_REQ_RCVD = 5,
	IB_CM_REP_SENT = 6,
	IB_CM_REP_RCVD = 7,
	IB_CM_MRA_REP_SENT = 8,
	IB_CM_MRA_REP_RCVD = 9,
	IB_CM_ESTABLISHED = 10,
	IB_CM_DREQ_SENT = 11,
	IB_CM_DREQ_RCVD = 12,
	IB_CM_TIMEWAIT = 13,
	IB_CM_SIDR_REQ_SENT = 14,
	IB_CM_SIDR_REQ_RCVD = 15,
};

#define IB_CM_STATE_COUNT	(IB_CM_SIDR_REQ_RCVD + 1)

/*
 * Events delivered to the CM user; values as upstream's enum
 * ib_cm_event_type.  No alternate path support: the LAP/APR events are
 * listed for their numbers and never delivered.
 */
enum ib_cm_event_type {
	IB_CM_REQ_ERROR = 0,
	IB_CM_REQ_RECEIVED = 1,
	IB_CM_REP_ERROR = 2,
	IB_CM_REP_RECEIVED = 3,
	IB_CM_RTU_RECEIVED = 4,
	IB_CM_USER_ESTABLISHED = 5,
	IB_CM_DREQ_ERROR = 6,
	IB_CM_DREQ_RECEIVED = 7,
	IB_CM_DREP_RECEIVED = 8,
	IB_CM_TIMEWAIT_EXIT = 9,
	IB_CM_MRA_RECEIVED = 10,
	IB_CM_REJ_RECEIVED = 11,
	IB_CM_LAP_ERROR = 12,
	IB_CM_LAP_RECEIVED = 13,
	IB_CM_APR_RECEIVED = 14,
	IB_CM_SIDR_REQ_ERROR = 15,
	IB_CM_SIDR_REQ_RECEIVED = 16,
	IB_CM_SIDR_REP_RECEIVED = 17,
};

#define IB_CM_EVENT_COUNT	(IB_CM_SIDR_REP_RECEIVED + 1)
/* ib_cm_sm_action.report when no event is delivered */
#define IB_CM_NO_EVENT		0xff

/* What happened to a CM ID. */
enum ib_cm_sm_input {
	/* calls of the CM user */
	IB_CM_IN_LISTEN,
	IB_CM_IN_SEND_REQ,
	IB_CM_IN_SEND_MRA,
	IB_CM_IN_SEND_REJ,
	IB_CM_IN_SEND_REP,
	IB_CM_IN_SEND_RTU,
	IB_CM_IN_SEND_DREQ,
	IB_CM_IN_SEND_DREP,
	IB_CM_IN_SEND_SIDR_REQ,
	IB_CM_IN_SEND_SIDR_REP,
	IB_CM_IN_ESTABLISH,		/* ib_cm_notify(IB_EVENT_COMM_EST) */
	IB_CM_IN_DESTROY,
	/* destroy after the REQ handler ran out of memory: no REJ */
	IB_CM_IN_DESTROY_NO_REJ,
	/* messages received for the ID */
	IB_CM_IN_RECV_REQ,
	IB_CM_IN_RECV_MRA_REQ,		/* MRA whose MessageMRAed is REQ */
	IB_CM_IN_RECV_MRA_REP,		/* ... is REP */
	IB_CM_IN_RECV_MRA_OTHER,	/* ... is LAP */
	IB_CM_IN_RECV_REJ,
	IB_CM_IN_RECV_REJ_STALE,	/* REJ with reason 10 (stale) */
	IB_CM_IN_RECV_REP,
	IB_CM_IN_RECV_RTU,
	IB_CM_IN_RECV_DREQ,
	IB_CM_IN_RECV_DREP,
	IB_CM_IN_RECV_SIDR_REQ,
	IB_CM_IN_RECV_SIDR_REP,
	IB_CM_IN_RECV_LAP,
	IB_CM_IN_RECV_APR,
	/* what the remote-ID and remote-QPN lookups found */
	IB_CM_IN_DUP_REQ,
	IB_CM_IN_DUP_REP,
	IB_CM_IN_STALE_REQ,
	IB_CM_IN_STALE_REP,
	/* timers */
	IB_CM_IN_TIMEOUT,		/* the armed MAD used up its retries */
	IB_CM_IN_TIMEWAIT_DONE,
	IB_CM_IN_COUNT
};

static inline bool ib_cm_sm_is_call(enum ib_cm_sm_input in)
{
	return (unsigned int)in <= IB_CM_IN_DESTROY_NO_REJ;
}

static inline bool ib_cm_sm_is_timer(enum ib_cm_sm_input in)
{
	return in == IB_CM_IN_TIMEOUT || in == IB_CM_IN_TIMEWAIT_DONE;
}

enum ib_cm_sm_verdict {
	IB_CM_SM_GO,		/* carry out the action */
	IB_CM_SM_ANSWER,	/* send act.tx once, unarmed; nothing else */
	IB_CM_SM_REFUSE,	/* a call in the wrong state: act.err */
	IB_CM_SM_DROP,		/* ignore the message or timer */
	IB_CM_SM_VERDICT_COUNT
};

/* The message to send. */
enum ib_cm_sm_tx {
	IB_CM_TX_NONE,
	IB_CM_TX_REQ,
	IB_CM_TX_MRA,
	IB_CM_TX_REJ,			/* the user's REJ, the user's reason */
	IB_CM_TX_REJ_TIMEOUT,		/* REJ 4, our node GUID in the ARI */
	IB_CM_TX_REJ_BAD_SID,		/* REJ 8, rejecting the REQ */
	IB_CM_TX_REJ_STALE,		/* REJ 10 */
	IB_CM_TX_REJ_CONSUMER,		/* REJ 28 */
	IB_CM_TX_REP,
	IB_CM_TX_RTU,
	IB_CM_TX_DREQ,
	IB_CM_TX_DREP,
	IB_CM_TX_SIDR_REQ,
	IB_CM_TX_SIDR_REP,		/* the user's SIDR_REP */
	IB_CM_TX_SIDR_REP_NO_SID,	/* SIDR_REP status 1 */
	IB_CM_TX_SIDR_REP_REJECT,	/* SIDR_REP status 2 */
	IB_CM_TX_COUNT
};

/* ib_cm_sm_action.work bits */
enum ib_cm_sm_work {
	/* cancel the outstanding MAD */
	IB_CM_DO_CANCEL		= 1 << 0,
	/* send tx with timeout and retries */
	IB_CM_DO_ARM		= 1 << 1,
	/* re-time the outstanding MAD by ib_cm_mra_timeout_ms() */
	IB_CM_DO_EXTEND		= 1 << 2,
	/* leave the remote-ID and remote-QPN tables, start timewait's timer */
	IB_CM_DO_TIMEWAIT	= 1 << 3,
	/* make a new ID and step it from IDLE with the same input */
	IB_CM_DO_NEW_ID		= 1 << 4,
	/* leave the listen table */
	IB_CM_DO_UNLISTEN	= 1 << 5,
	/* destroy goes on: step the new state with the same input */
	IB_CM_DO_AGAIN		= 1 << 6,
};

/* Why a step is not a plain GO. */
enum ib_cm_sm_why {
	IB_CM_WHY_NONE,
	IB_CM_WHY_BAD_ARG,	/* state or input out of range */
	IB_CM_WHY_WRONG_STATE,	/* call not allowed in this state (-EINVAL) */
	IB_CM_WHY_CONNECTED,	/* ESTABLISH when established (-EISCONN) */
	IB_CM_WHY_UNEXPECTED,	/* message this state does not take */
	IB_CM_WHY_DUPLICATE,	/* a retransmission of a message taken */
	IB_CM_WHY_STALE_CONN,	/* the peer's QPN belongs to a connection */
	IB_CM_WHY_STALE_TIMER,	/* timer of a MAD or wait no longer running */
	IB_CM_WHY_UNSUPPORTED,	/* LAP, APR: no alternate path support */
	IB_CM_WHY_COUNT
};

struct ib_cm_sm_action {
	u8 verdict;	/* enum ib_cm_sm_verdict */
	u8 next;	/* enum ib_cm_state; the current state unless GO */
	u8 tx;		/* enum ib_cm_sm_tx */
	u8 report;	/* enum ib_cm_event_type, or IB_CM_NO_EVENT */
	u8 work;	/* enum ib_cm_sm_work bits */
	u8 why;		/* enum ib_cm_sm_why; IB_CM_WHY_NONE for GO */
	int err;	/* REFUSE: what the call returns; 0 otherwise */
};

/**
 * ib_cm_sm_step() - what @in does to an ID in @state
 * @act: out, always filled (for out-of-range arguments: REFUSE, -EINVAL,
 *	 next = @state)
 *
 * Return: act->verdict.
 */
enum ib_cm_sm_verdict ib_cm_sm_step(enum ib_cm_state state,
				    enum ib_cm_sm_input in,
				    struct ib_cm_sm_action *act);

/*
 * The reply to a received message that matches no ID (a REQ or SIDR_REQ
 * without a listener, a DREQ for a connection gone); IB_CM_TX_NONE when
 * such a message is dropped.
 */
enum ib_cm_sm_tx ib_cm_sm_orphan_tx(enum ib_cm_sm_input in);

/* The IBTA REJ reason a tx code fixes, 0 for any other tx. */
u8 ib_cm_tx_rej_reason(enum ib_cm_sm_tx tx);
/* The SIDR_REP status a tx code fixes, -1 for any other tx. */
int ib_cm_tx_sidr_status(enum ib_cm_sm_tx tx);

/*
 * Timer arithmetic.  IBTA times are 5-bit exponents:
 * 4.096 us * 2^t.  Every function clamps an exponent above 31 to 31 (a
 * 5-bit field cannot carry more) before it shifts, so no input overflows.
 */
#define IB_CM_TIME_EXP_MAX	31
#define IB_CM_RETRIES_MAX	15	/* MaxCMRetries is 4 bits */
/* ib_send_cm_mra()'s flag: the MRA goes out only to answer a duplicate */
#define IB_CM_MRA_DELAY		0x80

/* 4.096 us * 2^t in ns, exact. */
u64 ib_cm_time_ns(u8 t);
/* 2^(t - 8) ms, at least 1 ms: what the CM arms its timers with */
u32 ib_cm_time_ms(u8 t);
/* Active side, per REQ try: two packet lifetimes and the peer's reply time */
u32 ib_cm_req_timeout_ms(u8 packet_life_time, u8 remote_cm_response_timeout);
/* Outstanding MAD after an MRA: its service time plus the path timeout */
u32 ib_cm_mra_timeout_ms(u8 service_timeout, u8 path_timeout);
/* The service timeout ib_send_cm_mra() takes, with IB_CM_MRA_DELAY: */
bool ib_cm_mra_delayed(u8 service_timeout_arg);
u8 ib_cm_mra_service_timeout(u8 service_timeout_arg);
/*
 * Path (QP local ACK) timeout from a CA ACK delay and a packet lifetime:
 * about log2(2 * 2^packet_life_time + 2^ca_ack_delay), at most 31.
 */
u8 ib_cm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time);
/* Passive side: a REQ's local ACK timeout less one, not below 0 */
u8 ib_cm_req_packet_life_time(u8 req_local_ack_timeout);
/* Timewait lasts the path timeout. */
u32 ib_cm_timewait_ms(u8 path_timeout);
u8 ib_cm_retries(u8 max_cm_retries);
/* How long a MAD armed with @timeout_ms and @max_cm_retries waits at most. */
u64 ib_cm_give_up_ms(u32 timeout_ms, u8 max_cm_retries);

/* Short names ("IDLE", "REQ_RECEIVED", ...); "?" for out-of-range values. */
const char *ib_cm_state_str(enum ib_cm_state state);
const char *ib_cm_event_str(enum ib_cm_event_type ev);
const char *ib_cm_sm_input_str(enum ib_cm_sm_input in);
const char *ib_cm_sm_verdict_str(enum ib_cm_sm_verdict v);
const char *ib_cm_sm_tx_str(enum ib_cm_sm_tx tx);
const char *ib_cm_sm_why_str(enum ib_cm_sm_why why);

#endif /* _RDMA_IB_CM_STATE_H */
