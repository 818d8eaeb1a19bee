// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The IB CM connection state machine as data, see <rdma/ib_cm_state.h>.
 *
 * One table, cm_rules[], grouped by input.  A rule names a set of inputs
 * and a set of states; the first rule that names both decides.  The last
 * three rules catch what no earlier rule names: a call in any other state
 * is refused, a message is dropped, a timer is stale.
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <rdma/ib_cm_state.h>

#define ST(s)		(1u << IB_CM_##s)
#define IN(i)		(1ull << IB_CM_IN_##i)
#define SAME		0xff	/* rule.next: stay in the current state */
#define NOEV		IB_CM_NO_EVENT

#define ALL_STATES	((1u << IB_CM_STATE_COUNT) - 1)
#define ALL_CALLS	((1ull << (IB_CM_IN_DESTROY_NO_REJ + 1)) - 1)
#define ALL_TIMERS	(IN(TIMEOUT) | IN(TIMEWAIT_DONE))
#define ALL_MSGS	(((1ull << IB_CM_IN_COUNT) - 1) & \
			 ~(ALL_CALLS | ALL_TIMERS))
#define DESTROYS	(IN(DESTROY) | IN(DESTROY_NO_REJ))

/* State groups: our REQ or REP armed (OUT), the peer's to answer (IN) */
#define REQ_OUT		(ST(REQ_SENT) | ST(MRA_REQ_RCVD))
#define REQ_IN		(ST(REQ_RCVD) | ST(MRA_REQ_SENT))
#define REP_OUT		(ST(REP_SENT) | ST(MRA_REP_RCVD))
#define REP_IN		(ST(REP_RCVD) | ST(MRA_REP_SENT))

/* Work groups */
#define TO_TIMEWAIT	IB_CM_DO_TIMEWAIT
#define CANCEL_TW	(IB_CM_DO_CANCEL | IB_CM_DO_TIMEWAIT)

struct cm_rule {
	u64 ins;	/* IN() set */
	u32 states;	/* ST() set */
	u8 verdict;
	u8 next;	/* enum ib_cm_state or SAME */
	u8 tx;
	u8 report;
	u8 work;
	u8 why;
};

#define GO(i, s, nx, t, ev, w) \
	{ i, s, IB_CM_SM_GO, IB_CM_##nx, IB_CM_TX_##t, ev, w, IB_CM_WHY_NONE }
#define ANSWER(i, s, t, y) \
	{ i, s, IB_CM_SM_ANSWER, SAME, IB_CM_TX_##t, NOEV, 0, IB_CM_WHY_##y }
#define DROP(i, s, y) \
	{ i, s, IB_CM_SM_DROP, SAME, IB_CM_TX_NONE, NOEV, 0, IB_CM_WHY_##y }
#define REFUSE(i, s, y) \
	{ i, s, IB_CM_SM_REFUSE, SAME, IB_CM_TX_NONE, NOEV, 0, IB_CM_WHY_##y }

static const struct cm_rule cm_rules[] = {
	/* Calls of the user */
	GO(IN(LISTEN), ST(IDLE), LISTEN, NONE, NOEV, 0),
	GO(IN(SEND_REQ), ST(IDLE), REQ_SENT, REQ, NOEV, IB_CM_DO_ARM),
	GO(IN(SEND_MRA), ST(REQ_RCVD), MRA_REQ_SENT, MRA, NOEV, 0),
	GO(IN(SEND_MRA), ST(REP_RCVD), MRA_REP_SENT, MRA, NOEV, 0),
	GO(IN(SEND_REJ), REQ_OUT, IDLE, REJ, NOEV, IB_CM_DO_CANCEL),
	GO(IN(SEND_REJ), REQ_IN | REP_IN, IDLE, REJ, NOEV, 0),
	GO(IN(SEND_REJ), REP_OUT, TIMEWAIT, REJ, NOEV, CANCEL_TW),
	GO(IN(SEND_REP), REQ_IN, REP_SENT, REP, NOEV, IB_CM_DO_ARM),
	GO(IN(SEND_RTU), REP_IN, ESTABLISHED, RTU, NOEV, 0),
	GO(IN(SEND_DREQ), ST(ESTABLISHED), DREQ_SENT, DREQ, NOEV,
	   IB_CM_DO_ARM),
	GO(IN(SEND_DREP), ST(DREQ_RCVD), TIMEWAIT, DREP, NOEV, TO_TIMEWAIT),
	GO(IN(SEND_SIDR_REQ), ST(IDLE), SIDR_REQ_SENT, SIDR_REQ, NOEV,
	   IB_CM_DO_ARM),
	GO(IN(SEND_SIDR_REP), ST(SIDR_REQ_RCVD), IDLE, SIDR_REP, NOEV, 0),
	GO(IN(ESTABLISH), REP_OUT, ESTABLISHED, NONE, IB_CM_USER_ESTABLISHED,
	   IB_CM_DO_CANCEL),
	REFUSE(IN(ESTABLISH), ST(ESTABLISHED), CONNECTED),

	/*
	 * Destroy: each state's way out, always toward IDLE.  Where the way
	 * passes through another state, AGAIN says to step that one too.
	 */
	GO(DESTROYS, ST(IDLE), IDLE, NONE, NOEV, 0),
	GO(DESTROYS, ST(LISTEN), IDLE, NONE, NOEV, IB_CM_DO_UNLISTEN),
	GO(DESTROYS, ST(SIDR_REQ_SENT), IDLE, NONE, NOEV, IB_CM_DO_CANCEL),
	GO(DESTROYS, ST(SIDR_REQ_RCVD), IDLE, SIDR_REP_REJECT, NOEV, 0),
	GO(DESTROYS, REQ_OUT, IDLE, REJ_TIMEOUT, NOEV, IB_CM_DO_CANCEL),
	GO(IN(DESTROY), ST(REQ_RCVD), IDLE, REJ_CONSUMER, NOEV, 0),
	GO(IN(DESTROY_NO_REJ), ST(REQ_RCVD), IDLE, NONE, NOEV, 0),
	GO(DESTROYS, ST(MRA_REQ_SENT) | REP_IN, IDLE, REJ_CONSUMER, NOEV, 0),
	GO(DESTROYS, REP_OUT, TIMEWAIT, REJ_CONSUMER, NOEV,
	   CANCEL_TW | IB_CM_DO_AGAIN),
	GO(DESTROYS, ST(ESTABLISHED), DREQ_SENT, DREQ, NOEV,
	   IB_CM_DO_ARM | IB_CM_DO_AGAIN),
	GO(DESTROYS, ST(DREQ_SENT), TIMEWAIT, NONE, NOEV,
	   CANCEL_TW | IB_CM_DO_AGAIN),
	GO(DESTROYS, ST(DREQ_RCVD), TIMEWAIT, DREP, NOEV,
	   TO_TIMEWAIT | IB_CM_DO_AGAIN),
	/* the timewait timer runs on without the ID */
	GO(DESTROYS, ST(TIMEWAIT), IDLE, NONE, NOEV, 0),

	/* Requests: a listener hands them to a new ID, which starts IDLE */
	GO(IN(RECV_REQ) | IN(RECV_SIDR_REQ), ST(LISTEN), LISTEN, NONE, NOEV,
	   IB_CM_DO_NEW_ID),
	GO(IN(RECV_REQ), ST(IDLE), REQ_RCVD, NONE, IB_CM_REQ_RECEIVED, 0),
	GO(IN(RECV_SIDR_REQ), ST(IDLE), SIDR_REQ_RCVD, NONE,
	   IB_CM_SIDR_REQ_RECEIVED, 0),

	/* MRA: the peer needs more time for our REQ or REP */
	GO(IN(RECV_MRA_REQ), ST(REQ_SENT), MRA_REQ_RCVD, NONE,
	   IB_CM_MRA_RECEIVED, IB_CM_DO_EXTEND),
	DROP(IN(RECV_MRA_REQ), ST(MRA_REQ_RCVD), DUPLICATE),
	GO(IN(RECV_MRA_REP), ST(REP_SENT), MRA_REP_RCVD, NONE,
	   IB_CM_MRA_RECEIVED, IB_CM_DO_EXTEND),
	DROP(IN(RECV_MRA_REP), ST(MRA_REP_RCVD), DUPLICATE),
	DROP(IN(RECV_MRA_OTHER) | IN(RECV_LAP) | IN(RECV_APR), ALL_STATES,
	     UNSUPPORTED),

	/*
	 * REJ: before the connection is up it ends it (a stale REJ keeps the
	 * peer's identity in timewait); after our REP was taken, or once
	 * disconnecting, it always goes through timewait.
	 */
	GO(IN(RECV_REJ), REQ_OUT | REP_OUT, IDLE, NONE, IB_CM_REJ_RECEIVED,
	   IB_CM_DO_CANCEL),
	GO(IN(RECV_REJ), REQ_IN, IDLE, NONE, IB_CM_REJ_RECEIVED, 0),
	GO(IN(RECV_REJ_STALE), REQ_OUT | REP_OUT, TIMEWAIT, NONE,
	   IB_CM_REJ_RECEIVED, CANCEL_TW),
	GO(IN(RECV_REJ_STALE), REQ_IN, TIMEWAIT, NONE, IB_CM_REJ_RECEIVED,
	   TO_TIMEWAIT),
	GO(IN(RECV_REJ) | IN(RECV_REJ_STALE), ST(DREQ_SENT), TIMEWAIT, NONE,
	   IB_CM_REJ_RECEIVED, CANCEL_TW),
	GO(IN(RECV_REJ) | IN(RECV_REJ_STALE), REP_IN | ST(ESTABLISHED),
	   TIMEWAIT, NONE, IB_CM_REJ_RECEIVED, TO_TIMEWAIT),

	/* REP: taken while our REQ is out; later ones are duplicates */
	GO(IN(RECV_REP), REQ_OUT, REP_RCVD, NONE, IB_CM_REP_RECEIVED,
	   IB_CM_DO_CANCEL),
	ANSWER(IN(RECV_REP) | IN(DUP_REP), ST(ESTABLISHED), RTU, DUPLICATE),
	ANSWER(IN(RECV_REP) | IN(DUP_REP), ST(MRA_REP_SENT), MRA, DUPLICATE),
	DROP(IN(RECV_REP), ST(REP_RCVD), DUPLICATE),
	DROP(IN(DUP_REP), ALL_STATES, DUPLICATE),

	/* RTU: ends the passive side's wait; any other RTU is a repeat */
	GO(IN(RECV_RTU), REP_OUT, ESTABLISHED, NONE, IB_CM_RTU_RECEIVED,
	   IB_CM_DO_CANCEL),
	DROP(IN(RECV_RTU), ALL_STATES, DUPLICATE),

	/* DREQ (its QPN checked by the caller) */
	GO(IN(RECV_DREQ), REP_OUT | ST(DREQ_SENT), DREQ_RCVD, NONE,
	   IB_CM_DREQ_RECEIVED, IB_CM_DO_CANCEL),
	GO(IN(RECV_DREQ), ST(ESTABLISHED), DREQ_RCVD, NONE,
	   IB_CM_DREQ_RECEIVED, 0),
	ANSWER(IN(RECV_DREQ), ST(TIMEWAIT), DREP, DUPLICATE),
	DROP(IN(RECV_DREQ), ST(DREQ_RCVD), DUPLICATE),

	/* DREP */
	GO(IN(RECV_DREP), ST(DREQ_SENT), TIMEWAIT, NONE, IB_CM_DREP_RECEIVED,
	   CANCEL_TW),
	GO(IN(RECV_DREP), ST(DREQ_RCVD), TIMEWAIT, NONE, IB_CM_DREP_RECEIVED,
	   TO_TIMEWAIT),
	DROP(IN(RECV_DREP), ST(TIMEWAIT), DUPLICATE),

	/* SIDR_REP */
	GO(IN(RECV_SIDR_REP), ST(SIDR_REQ_SENT), IDLE, NONE,
	   IB_CM_SIDR_REP_RECEIVED, IB_CM_DO_CANCEL),

	/*
	 * A repeated REQ gets what the ID last said or would say: the MRA,
	 * the REP (the peer has not seen it), or, from timewait, stale.
	 */
	ANSWER(IN(DUP_REQ), ST(MRA_REQ_SENT), MRA, DUPLICATE),
	ANSWER(IN(DUP_REQ), REP_OUT, REP, DUPLICATE),
	ANSWER(IN(DUP_REQ), ST(TIMEWAIT), REJ_STALE, DUPLICATE),
	DROP(IN(DUP_REQ), ALL_STATES, DUPLICATE),

	/* Stale: the peer's QPN is still ours in another connection */
	ANSWER(IN(STALE_REQ), ST(IDLE), REJ_STALE, STALE_CONN),
	ANSWER(IN(STALE_REP), REQ_OUT, REJ_STALE, STALE_CONN),

	/* Timers */
	GO(IN(TIMEOUT), REQ_OUT, IDLE, NONE, IB_CM_REQ_ERROR, 0),
	GO(IN(TIMEOUT), REP_OUT, IDLE, NONE, IB_CM_REP_ERROR, 0),
	GO(IN(TIMEOUT), ST(DREQ_SENT), TIMEWAIT, NONE, IB_CM_DREQ_ERROR,
	   TO_TIMEWAIT),
	GO(IN(TIMEOUT), ST(SIDR_REQ_SENT), IDLE, NONE, IB_CM_SIDR_REQ_ERROR,
	   0),
	GO(IN(TIMEWAIT_DONE), ST(TIMEWAIT), IDLE, NONE, IB_CM_TIMEWAIT_EXIT,
	   0),

	/* Everything else */
	REFUSE(ALL_CALLS, ALL_STATES, WRONG_STATE),
	DROP(ALL_MSGS, ALL_STATES, UNEXPECTED),
	DROP(ALL_TIMERS, ALL_STATES, STALE_TIMER),
};

/* errno of a refused call, by reason */
static int cm_refusal_errno(u8 why)
{
	return why == IB_CM_WHY_CONNECTED ? -EISCONN : -EINVAL;
}

static const struct cm_rule *cm_find_rule(unsigned int state, unsigned int in)
{
	unsigned int i;

	for (i = 0; i < sizeof(cm_rules) / sizeof(cm_rules[0]); i++) {
		const struct cm_rule *r = &cm_rules[i];

		if ((r->ins & (1ull << in)) && (r->states & (1u << state)))
			return r;
	}
	return NULL;
}

enum ib_cm_sm_verdict ib_cm_sm_step(enum ib_cm_state state,
				    enum ib_cm_sm_input in,
				    struct ib_cm_sm_action *act)
{
	const struct cm_rule *r = NULL;

	if ((unsigned int)state < IB_CM_STATE_COUNT &&
	    (unsigned int)in < IB_CM_IN_COUNT)
		r = cm_find_rule(state, in);

	act->next = (u8)state;
	act->tx = IB_CM_TX_NONE;
	act->report = IB_CM_NO_EVENT;
	act->work = 0;
	if (!r) {
		act->verdict = IB_CM_SM_REFUSE;
		act->why = IB_CM_WHY_BAD_ARG;
		act->err = -EINVAL;
		return IB_CM_SM_REFUSE;
	}
	act->verdict = r->verdict;
	if (r->next != SAME)
		act->next = r->next;
	act->tx = r->tx;
	act->report = r->report;
	act->work = r->work;
	act->why = r->why;
	act->err = r->verdict == IB_CM_SM_REFUSE ? cm_refusal_errno(r->why) : 0;
	return (enum ib_cm_sm_verdict)r->verdict;
}
EXPORT_SYMBOL(ib_cm_sm_step);

enum ib_cm_sm_tx ib_cm_sm_orphan_tx(enum ib_cm_sm_input in)
{
	switch (in) {
	case IB_CM_IN_RECV_REQ:		return IB_CM_TX_REJ_BAD_SID;
	case IB_CM_IN_RECV_SIDR_REQ:	return IB_CM_TX_SIDR_REP_NO_SID;
	case IB_CM_IN_RECV_DREQ:	return IB_CM_TX_DREP;
	default:			return IB_CM_TX_NONE;
	}
}
EXPORT_SYMBOL(ib_cm_sm_orphan_tx);

u8 ib_cm_tx_rej_reason(enum ib_cm_sm_tx tx)
{
	switch (tx) {
	case IB_CM_TX_REJ_TIMEOUT:	return 4;
	case IB_CM_TX_REJ_BAD_SID:	return 8;
	case IB_CM_TX_REJ_STALE:	return 10;
	case IB_CM_TX_REJ_CONSUMER:	return 28;
	default:			return 0;
	}
}
EXPORT_SYMBOL(ib_cm_tx_rej_reason);

int ib_cm_tx_sidr_status(enum ib_cm_sm_tx tx)
{
	switch (tx) {
	case IB_CM_TX_SIDR_REP_NO_SID:	return 1;
	case IB_CM_TX_SIDR_REP_REJECT:	return 2;
	default:			return -1;
	}
}
EXPORT_SYMBOL(ib_cm_tx_sidr_status);

/* ---------------------------------------------------------------- timers */

static unsigned int cm_exp(unsigned int t)
{
	return t > IB_CM_TIME_EXP_MAX ? IB_CM_TIME_EXP_MAX : t;
}

u64 ib_cm_time_ns(u8 t)
{
	return (u64)4096 << cm_exp(t);
}
EXPORT_SYMBOL(ib_cm_time_ns);

/* 4.096 us is taken as 2^-8 ms: 2^(t - 8) ms, rounded up to 1 ms */
u32 ib_cm_time_ms(u8 t)
{
	unsigned int e = cm_exp(t);

	return e > 8 ? 1u << (e - 8) : 1;
}
EXPORT_SYMBOL(ib_cm_time_ms);

u32 ib_cm_req_timeout_ms(u8 packet_life_time, u8 remote_cm_response_timeout)
{
	return 2 * ib_cm_time_ms(packet_life_time) +
	       ib_cm_time_ms(remote_cm_response_timeout);
}
EXPORT_SYMBOL(ib_cm_req_timeout_ms);

u32 ib_cm_mra_timeout_ms(u8 service_timeout, u8 path_timeout)
{
	return ib_cm_time_ms(ib_cm_mra_service_timeout(service_timeout)) +
	       ib_cm_time_ms(path_timeout);
}
EXPORT_SYMBOL(ib_cm_mra_timeout_ms);

bool ib_cm_mra_delayed(u8 service_timeout_arg)
{
	return (service_timeout_arg & IB_CM_MRA_DELAY) != 0;
}
EXPORT_SYMBOL(ib_cm_mra_delayed);

u8 ib_cm_mra_service_timeout(u8 service_timeout_arg)
{
	return (u8)cm_exp(service_timeout_arg & ~IB_CM_MRA_DELAY);
}
EXPORT_SYMBOL(ib_cm_mra_service_timeout);

/*
 * 2^a + 2^b for the two terms a = lifetime + 1 (there and back) and
 * b = ACK delay: the larger exponent, one more when the smaller is within
 * one of it (the sum then reaches or nears the next power of two).
 */
u8 ib_cm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time)
{
	unsigned int a = cm_exp(packet_life_time) + 1;
	unsigned int b = cm_exp(ca_ack_delay);
	unsigned int hi = a > b ? a : b;
	unsigned int lo = a > b ? b : a;

	if (hi - lo <= 1)
		hi++;
	return (u8)cm_exp(hi);
}
EXPORT_SYMBOL(ib_cm_ack_timeout);

u8 ib_cm_req_packet_life_time(u8 req_local_ack_timeout)
{
	unsigned int t = cm_exp(req_local_ack_timeout);

	return (u8)(t ? t - 1 : 0);
}
EXPORT_SYMBOL(ib_cm_req_packet_life_time);

u32 ib_cm_timewait_ms(u8 path_timeout)
{
	return ib_cm_time_ms(path_timeout);
}
EXPORT_SYMBOL(ib_cm_timewait_ms);

u8 ib_cm_retries(u8 max_cm_retries)
{
	return max_cm_retries > IB_CM_RETRIES_MAX ? IB_CM_RETRIES_MAX :
						     max_cm_retries;
}
EXPORT_SYMBOL(ib_cm_retries);

u64 ib_cm_give_up_ms(u32 timeout_ms, u8 max_cm_retries)
{
	return (u64)timeout_ms * (ib_cm_retries(max_cm_retries) + 1u);
}
EXPORT_SYMBOL(ib_cm_give_up_ms);

/* ----------------------------------------------------------------- names */

static const char *const cm_state_names[IB_CM_STATE_COUNT] = {
	[IB_CM_IDLE]		= "IDLE",
	[IB_CM_LISTEN]		= "LISTEN",
	[IB_CM_REQ_SENT]	= "REQ_SENT",
	[IB_CM_REQ_RCVD]	= "REQ_RCVD",
	[IB_CM_MRA_REQ_SENT]	= "MRA_REQ_SENT",
	[IB_CM_MRA_REQ_RCVD]	= "MRA_REQ_RCVD",
	[IB_CM_REP_SENT]	= "REP_SENT",
	[IB_CM_REP_RCVD]	= "REP_RCVD",
	[IB_CM_MRA_REP_SENT]	= "MRA_REP_SENT",
	[IB_CM_MRA_REP_RCVD]	= "MRA_REP_RCVD",
	[IB_CM_ESTABLISHED]	= "ESTABLISHED",
	[IB_CM_DREQ_SENT]	= "DREQ_SENT",
	[IB_CM_DREQ_RCVD]	= "DREQ_RCVD",
	[IB_CM_TIMEWAIT]	= "TIMEWAIT",
	[IB_CM_SIDR_REQ_SENT]	= "SIDR_REQ_SENT",
	[IB_CM_SIDR_REQ_RCVD]	= "SIDR_REQ_RCVD",
};

static const char *const cm_event_names[IB_CM_EVENT_COUNT] = {
	[IB_CM_REQ_ERROR]		= "REQ_ERROR",
	[IB_CM_REQ_RECEIVED]		= "REQ_RECEIVED",
	[IB_CM_REP_ERROR]		= "REP_ERROR",
	[IB_CM_REP_RECEIVED]		= "REP_RECEIVED",
	[IB_CM_RTU_RECEIVED]		= "RTU_RECEIVED",
	[IB_CM_USER_ESTABLISHED]	= "USER_ESTABLISHED",
	[IB_CM_DREQ_ERROR]		= "DREQ_ERROR",
	[IB_CM_DREQ_RECEIVED]		= "DREQ_RECEIVED",
	[IB_CM_DREP_RECEIVED]		= "DREP_RECEIVED",
	[IB_CM_TIMEWAIT_EXIT]		= "TIMEWAIT_EXIT",
	[IB_CM_MRA_RECEIVED]		= "MRA_RECEIVED",
	[IB_CM_REJ_RECEIVED]		= "REJ_RECEIVED",
	[IB_CM_LAP_ERROR]		= "LAP_ERROR",
	[IB_CM_LAP_RECEIVED]		= "LAP_RECEIVED",
	[IB_CM_APR_RECEIVED]		= "APR_RECEIVED",
	[IB_CM_SIDR_REQ_ERROR]		= "SIDR_REQ_ERROR",
	[IB_CM_SIDR_REQ_RECEIVED]	= "SIDR_REQ_RECEIVED",
	[IB_CM_SIDR_REP_RECEIVED]	= "SIDR_REP_RECEIVED",
};

static const char *const cm_input_names[IB_CM_IN_COUNT] = {
	[IB_CM_IN_LISTEN]		= "LISTEN",
	[IB_CM_IN_SEND_REQ]		= "SEND_REQ",
	[IB_CM_IN_SEND_MRA]		= "SEND_MRA",
	[IB_CM_IN_SEND_REJ]		= "SEND_REJ",
	[IB_CM_IN_SEND_REP]		= "SEND_REP",
	[IB_CM_IN_SEND_RTU]		= "SEND_RTU",
	[IB_CM_IN_SEND_DREQ]		= "SEND_DREQ",
	[IB_CM_IN_SEND_DREP]		= "SEND_DREP",
	[IB_CM_IN_SEND_SIDR_REQ]	= "SEND_SIDR_REQ",
	[IB_CM_IN_SEND_SIDR_REP]	= "SEND_SIDR_REP",
	[IB_CM_IN_ESTABLISH]		= "ESTABLISH",
	[IB_CM_IN_DESTROY]		= "DESTROY",
	[IB_CM_IN_DESTROY_NO_REJ]	= "DESTROY_NO_REJ",
	[IB_CM_IN_RECV_REQ]		= "RECV_REQ",
	[IB_CM_IN_RECV_MRA_REQ]		= "RECV_MRA_REQ",
	[IB_CM_IN_RECV_MRA_REP]		= "RECV_MRA_REP",
	[IB_CM_IN_RECV_MRA_OTHER]	= "RECV_MRA_OTHER",
	[IB_CM_IN_RECV_REJ]		= "RECV_REJ",
	[IB_CM_IN_RECV_REJ_STALE]	= "RECV_REJ_STALE",
	[IB_CM_IN_RECV_REP]		= "RECV_REP",
	[IB_CM_IN_RECV_RTU]		= "RECV_RTU",
	[IB_CM_IN_RECV_DREQ]		= "RECV_DREQ",
	[IB_CM_IN_RECV_DREP]		= "RECV_DREP",
	[IB_CM_IN_RECV_SIDR_REQ]	= "RECV_SIDR_REQ",
	[IB_CM_IN_RECV_SIDR_REP]	= "RECV_SIDR_REP",
	[IB_CM_IN_RECV_LAP]		= "RECV_LAP",
	[IB_CM_IN_RECV_APR]		= "RECV_APR",
	[IB_CM_IN_DUP_REQ]		= "DUP_REQ",
	[IB_CM_IN_DUP_REP]		= "DUP_REP",
	[IB_CM_IN_STALE_REQ]		= "STALE_REQ",
	[IB_CM_IN_STALE_REP]		= "STALE_REP",
	[IB_CM_IN_TIMEOUT]		= "TIMEOUT",
	[IB_CM_IN_TIMEWAIT_DONE]	= "TIMEWAIT_DONE",
};

static const char *const cm_verdict_names[IB_CM_SM_VERDICT_COUNT] = {
	[IB_CM_SM_GO]		= "go",
	[IB_CM_SM_ANSWER]	= "answer",
	[IB_CM_SM_REFUSE]	= "refuse",
	[IB_CM_SM_DROP]		= "drop",
};

static const char *const cm_tx_names[IB_CM_TX_COUNT] = {
	[IB_CM_TX_NONE]			= "none",
	[IB_CM_TX_REQ]			= "REQ",
	[IB_CM_TX_MRA]			= "MRA",
	[IB_CM_TX_REJ]			= "REJ",
	[IB_CM_TX_REJ_TIMEOUT]		= "REJ(timeout)",
	[IB_CM_TX_REJ_BAD_SID]		= "REJ(invalid service ID)",
	[IB_CM_TX_REJ_STALE]		= "REJ(stale)",
	[IB_CM_TX_REJ_CONSUMER]		= "REJ(consumer)",
	[IB_CM_TX_REP]			= "REP",
	[IB_CM_TX_RTU]			= "RTU",
	[IB_CM_TX_DREQ]			= "DREQ",
	[IB_CM_TX_DREP]			= "DREP",
	[IB_CM_TX_SIDR_REQ]		= "SIDR_REQ",
	[IB_CM_TX_SIDR_REP]		= "SIDR_REP",
	[IB_CM_TX_SIDR_REP_NO_SID]	= "SIDR_REP(unsupported)",
	[IB_CM_TX_SIDR_REP_REJECT]	= "SIDR_REP(reject)",
};

static const char *const cm_why_names[IB_CM_WHY_COUNT] = {
	[IB_CM_WHY_NONE]		= "none",
	[IB_CM_WHY_BAD_ARG]		= "argument out of range",
	[IB_CM_WHY_WRONG_STATE]		= "not allowed in this state",
	[IB_CM_WHY_CONNECTED]		= "already established",
	[IB_CM_WHY_UNEXPECTED]		= "not expected in this state",
	[IB_CM_WHY_DUPLICATE]		= "duplicate",
	[IB_CM_WHY_STALE_CONN]		= "stale connection",
	[IB_CM_WHY_STALE_TIMER]		= "timer no longer running",
	[IB_CM_WHY_UNSUPPORTED]		= "alternate path not supported",
};

#define CM_NAME(tbl, v) \
	((unsigned int)(v) < sizeof(tbl) / sizeof(tbl[0]) ? \
	 tbl[(unsigned int)(v)] : "?")

const char *ib_cm_state_str(enum ib_cm_state state)
{
	return CM_NAME(cm_state_names, state);
}
EXPORT_SYMBOL(ib_cm_state_str);

const char *ib_cm_event_str(enum ib_cm_event_type ev)
{
	return CM_NAME(cm_event_names, ev);
}
EXPORT_SYMBOL(ib_cm_event_str);

const char *ib_cm_sm_input_str(enum ib_cm_sm_input in)
{
	return CM_NAME(cm_input_names, in);
}
EXPORT_SYMBOL(ib_cm_sm_input_str);

const char *ib_cm_sm_verdict_str(enum ib_cm_sm_verdict v)
{
	return CM_NAME(cm_verdict_names, v);
}
EXPORT_SYMBOL(ib_cm_sm_verdict_str);

const char *ib_cm_sm_tx_str(enum ib_cm_sm_tx tx)
{
	return CM_NAME(cm_tx_names, tx);
}
EXPORT_SYMBOL(ib_cm_sm_tx_str);

const char *ib_cm_sm_why_str(enum ib_cm_sm_why why)
{
	return CM_NAME(cm_why_names, why);
}
EXPORT_SYMBOL(ib_cm_sm_why_str);
