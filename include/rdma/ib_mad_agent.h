/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bookkeeping of the MAD layer on one port's GSI QP (QP1), as plain
 * data: who is registered for which requests, where a received MAD goes,
 * and what each outstanding send does next.  Documentation/core/mad.rst
 * states the rules.
 *
 * Type-level only: mad_agent.c also builds as C++ on the host
 * (tools/testing/unit), where it is unit-tested and fuzzed.  Nothing here
 * allocates, locks, sleeps or reads a clock: the caller owns the tables
 * (fixed arrays, sizes below), serialises calls on them, and passes the
 * time in as milliseconds of any monotonic clock.
 *
 * The caller keeps its own per-agent and per-send objects (handlers,
 * buffers, address handles) in arrays indexed like the tables here.
 */
#ifndef _RDMA_IB_MAD_AGENT_H
#define _RDMA_IB_MAD_AGENT_H

#include <linux/types.h>
#include <rdma/ib_mad_wire.h>

/* ---- agents ---- */

/* agents registered at once on one port */
#define IB_MAD_AGENT_MAX		32
/* class versions an agent may claim: 0 .. 7 */
#define IB_MAD_AGENT_CLASS_VERSIONS	8
/* request methods 0 .. 127 (a method with bit 7 set is a response) */
#define IB_MAD_AGENT_METHODS		128
#define IB_MAD_AGENT_METHOD_WORDS	(IB_MAD_AGENT_METHODS / 32)
/*
 * Classes an agent may claim on the GSI QP: 0x02 .. 0x2f.  0 and 0x50 and
 * above (but 0x81) are reserved; 0x01 and 0x81 (SMI) belong to QP0, which
 * RoCE ports do not have; vendor range 2 (0x30 .. 0x4f) is claimed per
 * OUI, which this table does not do.
 */
#define IB_MAD_AGENT_CLASS_FIRST	0x02
#define IB_MAD_AGENT_VENDOR2_FIRST	0x30
#define IB_MAD_AGENT_VENDOR2_LAST	0x4f

/*
 * What an agent claims: requests of one class and class version with a
 * method in @methods (bit m of word m / 32 is method m).  An agent
 * registered without a claim only sends; every agent, with a claim or
 * not, receives the responses to its own sends.
 */
struct ib_mad_agent_claim {
	u8 mgmt_class;
	u8 class_version;
	u32 methods[IB_MAD_AGENT_METHOD_WORDS];
};

struct ib_mad_agent_slot {
	bool used;
	/* routes responses: the upper 32 bits of the agent's TIDs */
	u32 hi_tid;
	/* lower 32 bits of the TID ib_mad_agent_next_tid() gives next */
	u32 tid_next;
	struct ib_mad_agent_claim claim;
};

struct ib_mad_agent_table {
	struct ib_mad_agent_slot agent[IB_MAD_AGENT_MAX];
	/* hi_tid the next registration tries first */
	u32 hi_tid_next;
};

/* Why a registration or unregistration was refused. */
enum ib_mad_agent_why {
	IB_MAD_AGENT_WHY_OK = 0,
	IB_MAD_AGENT_WHY_BAD_CLASS,	/* reserved class value (-EINVAL) */
	IB_MAD_AGENT_WHY_SMI_CLASS,	/* SMI: needs QP0, none here (-EINVAL) */
	IB_MAD_AGENT_WHY_VENDOR_OUI,	/* vendor range 2 (-EOPNOTSUPP) */
	IB_MAD_AGENT_WHY_BAD_VERSION,	/* class version >= 8 (-EINVAL) */
	IB_MAD_AGENT_WHY_NO_METHODS,	/* a class but no method (-EINVAL) */
	IB_MAD_AGENT_WHY_BAD_METHOD,	/* method 0 or TrapRepress (-EINVAL) */
	IB_MAD_AGENT_WHY_CONFLICT,	/* a method claimed by another (-EINVAL) */
	IB_MAD_AGENT_WHY_FULL,		/* IB_MAD_AGENT_MAX agents (-ENOSPC) */
	IB_MAD_AGENT_WHY_NO_AGENT,	/* no agent at that index (-EINVAL) */
	IB_MAD_AGENT_WHY_BUSY,		/* sends outstanding (-EBUSY) */
	IB_MAD_AGENT_WHY_NUM
};

/* Empty table; the first agent gets @first_hi_tid (masked to 24 bits). */
void ib_mad_agent_table_init(struct ib_mad_agent_table *t, u32 first_hi_tid);

static inline void ib_mad_agent_claim_method(struct ib_mad_agent_claim *c,
					     u8 method)
{
	if (method < IB_MAD_AGENT_METHODS)
		c->methods[method / 32] |= 1U << (method % 32);
}

static inline bool ib_mad_agent_claims_method(const struct ib_mad_agent_claim *c,
					      u8 method)
{
	return method < IB_MAD_AGENT_METHODS &&
	       (c->methods[method / 32] >> (method % 32) & 1);
}

/*
 * Whether @claim may be registered on its own (values only, not against
 * other agents); @claim NULL is a send-only agent.
 */
enum ib_mad_agent_why ib_mad_agent_claim_check(const struct ib_mad_agent_claim *claim);

struct ib_mad_send_table;

/*
 * Register an agent with @claim (NULL: send only).  Returns its index
 * (0 .. IB_MAD_AGENT_MAX - 1) or -errno as listed with enum
 * ib_mad_agent_why, and sets *@why if @why is not NULL.  The agent gets
 * the next hi_tid, cyclically within 24 bits, that no agent here holds.
 */
int ib_mad_agent_register(struct ib_mad_agent_table *t,
			  const struct ib_mad_agent_claim *claim,
			  enum ib_mad_agent_why *why);

/*
 * Unregister agent @agent.  Refused with -EBUSY while @s holds a send of
 * the agent: cancel them first (ib_mad_send_first_of_agent()).
 */
int ib_mad_agent_unregister(struct ib_mad_agent_table *t,
			    const struct ib_mad_send_table *s, u32 agent,
			    enum ib_mad_agent_why *why);

/* the agent that holds @hi_tid, or -1 */
int ib_mad_agent_by_hi_tid(const struct ib_mad_agent_table *t, u32 hi_tid);

/* the agent that claimed (class, version, method), or -1 */
int ib_mad_agent_claimant(const struct ib_mad_agent_table *t, u8 mgmt_class,
			  u8 class_version, u8 method);

/*
 * A new TID of agent @agent: its hi_tid in the upper 32 bits, a counter of
 * the agent in the lower 32 (wrapping).  0 for an unused index.
 */
u64 ib_mad_agent_next_tid(struct ib_mad_agent_table *t, u32 agent);

const char *ib_mad_agent_why_str(enum ib_mad_agent_why why);

/* ---- outstanding sends ---- */

/* sends outstanding at once on one port */
#define IB_MAD_SEND_MAX			128

enum ib_mad_send_state {
	IB_MAD_SEND_FREE = 0,
	/* posted, its send completion not seen yet */
	IB_MAD_SEND_POSTED,
	/* sent, waiting for a response until deadline_ms */
	IB_MAD_SEND_WAIT,
};

struct ib_mad_send_slot {
	u8 state;		/* enum ib_mad_send_state */
	u8 agent;
	u8 mgmt_class;
	bool canceled;		/* complete with CANCELED at send completion */
	bool answered;		/* a response came while still POSTED */
	bool has_peer;		/* a response must come from peer_gid */
	u32 timeout_ms;		/* per try; 0: no response expected */
	u32 retries;		/* resends allowed after the first send */
	u32 resent;		/* resends so far */
	u64 tid;
	u64 deadline_ms;	/* WAIT: when the try times out */
	u64 seq;		/* post order, breaks ties */
	u8 peer_gid[16];
};

struct ib_mad_send_table {
	struct ib_mad_send_slot slot[IB_MAD_SEND_MAX];
	u64 seq_next;
	u32 used;
};

/* What a send asks for. */
struct ib_mad_send_args {
	u32 agent;
	u64 tid;		/* any TID; responses route by its upper 32 bits */
	u8 mgmt_class;
	u32 timeout_ms;		/* 0: complete at send completion */
	u32 retries;
	const u8 *peer_gid;	/* 16 bytes, or NULL: any source may answer */
};

/* What the caller does after a send event. */
enum ib_mad_send_do {
	IB_MAD_SEND_DO_NOTHING = 0,
	/* post the slot's buffer again, unchanged (same TID) */
	IB_MAD_SEND_DO_RESEND,
	/* call the agent's send handler with status; the slot is free */
	IB_MAD_SEND_DO_COMPLETE,
};

/* The status a completed send reports (ib_wc_status in brackets). */
enum ib_mad_send_status {
	IB_MAD_SEND_OK = 0,		/* sent, answered if asked (SUCCESS) */
	IB_MAD_SEND_ERR_WC,		/* its send completion failed (that) */
	IB_MAD_SEND_ERR_TIMEOUT,	/* no response (RESP_TIMEOUT_ERR) */
	IB_MAD_SEND_ERR_CANCELED,	/* canceled (WR_FLUSH_ERR) */
};

struct ib_mad_send_action {
	u8 what;	/* enum ib_mad_send_do */
	u8 status;	/* enum ib_mad_send_status; COMPLETE only */
	u8 agent;
	int slot;	/* -1 when no slot was concerned */
	u32 resent;	/* resends made (send_buf.retries) */
	u64 tid;
};

void ib_mad_send_table_init(struct ib_mad_send_table *s);

/*
 * Take a slot for a send of agent args->agent of @t; the caller posts the
 * buffer.  Returns the slot or -EINVAL (no such agent), -ENOSPC (no free
 * slot).
 */
int ib_mad_send_post(struct ib_mad_send_table *s,
		     const struct ib_mad_agent_table *t,
		     const struct ib_mad_send_args *args);

/*
 * The send completion of a POSTED slot (@ok: its work completion
 * succeeded), at @now_ms: complete it (canceled, failed, no response
 * expected, or already answered) or start waiting for the response until
 * @now_ms + timeout_ms.  -EINVAL if the slot is not POSTED.
 */
int ib_mad_send_on_wc(struct ib_mad_send_table *s, u32 slot, bool ok,
		      u64 now_ms, struct ib_mad_send_action *act);

/*
 * The response that ib_mad_rx_dispatch() matched to @slot was delivered:
 * complete a WAIT slot; a POSTED one completes at its send completion.
 * -EINVAL for a slot that could not have matched.
 */
int ib_mad_send_on_response(struct ib_mad_send_table *s, u32 slot,
			    struct ib_mad_send_action *act);

/*
 * The timer at @now_ms: of the WAIT slots whose deadline has passed, the
 * one with the earliest deadline (then the earliest posted) is resent if
 * it has resends left, else completed with ERR_TIMEOUT.  Call until it
 * says NOTHING (slot -1).  A resent slot is POSTED again and its next
 * deadline runs from its next send completion.
 */
void ib_mad_send_on_timer(struct ib_mad_send_table *s, u64 now_ms,
			  struct ib_mad_send_action *act);

/*
 * Cancel @slot: a WAIT slot completes now with ERR_CANCELED, a POSTED one
 * when its send completion comes.  Cancelling twice is harmless.  -EINVAL
 * for a free slot.
 */
int ib_mad_send_cancel(struct ib_mad_send_table *s, u32 slot,
		       struct ib_mad_send_action *act);

/*
 * New per-try timeout for @slot (the CM on an MRA): a WAIT slot's
 * deadline becomes @now_ms + @timeout_ms, later tries use it too.  0
 * cancels.  -EINVAL for a free or canceled slot, or one that expects no
 * response.
 */
int ib_mad_send_modify(struct ib_mad_send_table *s, u32 slot, u32 timeout_ms,
		       u64 now_ms, struct ib_mad_send_action *act);

/* The earliest deadline of the WAIT slots; false when none waits. */
bool ib_mad_send_next_deadline(const struct ib_mad_send_table *s, u64 *deadline_ms);

/* the lowest slot holding a send of @agent, or -1 */
int ib_mad_send_first_of_agent(const struct ib_mad_send_table *s, u32 agent);

/* @now_ms + @timeout_ms, saturating at the largest u64 */
u64 ib_mad_send_deadline(u64 now_ms, u32 timeout_ms);
/*
 * How long a send waits for its response at most, counted over its
 * tries only (send completions taken as instant): (retries + 1) * timeout.
 */
u64 ib_mad_send_give_up_ms(u32 timeout_ms, u32 retries);

const char *ib_mad_send_do_str(enum ib_mad_send_do what);
const char *ib_mad_send_status_str(enum ib_mad_send_status status);

/* ---- receive dispatch ---- */

enum ib_mad_rx_verdict {
	IB_MAD_RX_DROP = 0,
	/* drop, and answer with a GetResp carrying reply_status */
	IB_MAD_RX_REPLY,
	/* a response: to agent, then ib_mad_send_on_response(slot) */
	IB_MAD_RX_RESPONSE,
	/* a request: to the agent that claimed it */
	IB_MAD_RX_REQUEST,
};

/* Why a received MAD is not delivered. */
enum ib_mad_rx_why {
	IB_MAD_RX_WHY_NONE = 0,
	IB_MAD_RX_WHY_SIZE,		/* not 256 bytes */
	IB_MAD_RX_WHY_BASE_VERSION,	/* base version is not 1 */
	IB_MAD_RX_WHY_WRONG_QP,		/* SMI class on the GSI QP */
	IB_MAD_RX_WHY_CM_METHOD,	/* CM: not Send, nor ClassPortInfo */
	IB_MAD_RX_WHY_CM_CLASS_VERSION,	/* CM Send not of class version 2 */
	IB_MAD_RX_WHY_NO_TID_AGENT,	/* response: no agent has its hi_tid */
	IB_MAD_RX_WHY_NO_SEND,		/* response: nothing outstanding fits */
	IB_MAD_RX_WHY_UNSUPPORTED_CLASS,/* request: class/version no agent
					 * can claim here */
	IB_MAD_RX_WHY_UNCLAIMED,	/* request: method nobody claimed */
	IB_MAD_RX_WHY_NUM
};

struct ib_mad_rx {
	u8 verdict;		/* enum ib_mad_rx_verdict */
	u8 why;			/* enum ib_mad_rx_why; NONE when delivered */
	u16 reply_status;	/* REPLY: the GetResp status */
	int agent;		/* RESPONSE, REQUEST; -1 otherwise */
	int slot;		/* RESPONSE; -1 otherwise */
};

/*
 * Where the decoded header @hdr of a MAD received on the GSI QP goes.
 * @src_gid (16 bytes, NULL if the receive had no GRH) is the sender's GID;
 * a send posted with a peer_gid is answered only from that GID.  Changes
 * nothing: the caller delivers, then reports a response with
 * ib_mad_send_on_response().  Returns out->verdict.
 */
enum ib_mad_rx_verdict ib_mad_rx_dispatch(const struct ib_mad_agent_table *t,
					  const struct ib_mad_send_table *s,
					  const struct ib_mad_wire_hdr *hdr,
					  const u8 *src_gid,
					  struct ib_mad_rx *out);

/*
 * The same for the raw MAD (@len bytes after the GRH area): size checked,
 * header decoded into @hdr, then dispatched.
 */
enum ib_mad_rx_verdict ib_mad_rx_dispatch_raw(const struct ib_mad_agent_table *t,
					      const struct ib_mad_send_table *s,
					      const u8 *mad, u32 len,
					      const u8 *src_gid,
					      struct ib_mad_wire_hdr *hdr,
					      struct ib_mad_rx *out);

const char *ib_mad_rx_verdict_str(enum ib_mad_rx_verdict v);
const char *ib_mad_rx_why_str(enum ib_mad_rx_why why);

#endif /* _RDMA_IB_MAD_AGENT_H */
