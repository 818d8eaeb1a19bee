// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MAD layer bookkeeping for one port's GSI QP, see <rdma/ib_mad_agent.h>
 * and Documentation/core/mad.rst: the agent table, the receive dispatch
 * decision and the outstanding-send state machine.
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).  Tables are scanned linearly: they hold
 * at most IB_MAD_AGENT_MAX and IB_MAD_SEND_MAX entries.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <rdma/ib_mad_wire.h>
#include <rdma/ib_mad_agent.h>

/* ---- agents ---- */

/* what each refusal returns, and its name */
struct agent_why_info {
	int err;
	const char *name;
};

static const struct agent_why_info agent_whys[IB_MAD_AGENT_WHY_NUM] = {
	[IB_MAD_AGENT_WHY_OK] = { 0, "ok" },
	[IB_MAD_AGENT_WHY_BAD_CLASS] = { -EINVAL, "bad_class" },
	[IB_MAD_AGENT_WHY_SMI_CLASS] = { -EINVAL, "smi_class" },
	[IB_MAD_AGENT_WHY_VENDOR_OUI] = { -EOPNOTSUPP, "vendor_oui" },
	[IB_MAD_AGENT_WHY_BAD_VERSION] = { -EINVAL, "bad_version" },
	[IB_MAD_AGENT_WHY_NO_METHODS] = { -EINVAL, "no_methods" },
	[IB_MAD_AGENT_WHY_BAD_METHOD] = { -EINVAL, "bad_method" },
	[IB_MAD_AGENT_WHY_CONFLICT] = { -EINVAL, "conflict" },
	[IB_MAD_AGENT_WHY_FULL] = { -ENOSPC, "full" },
	[IB_MAD_AGENT_WHY_NO_AGENT] = { -EINVAL, "no_agent" },
	[IB_MAD_AGENT_WHY_BUSY] = { -EBUSY, "busy" },
};

/*
 * Methods no agent may claim: 0 is no method, and TrapRepress is always
 * routed as a response (by TID), so a claim on it would never be used.
 */
#define UNCLAIMABLE_METHODS_WORD0 \
	(1U << 0 | 1U << IB_MAD_WIRE_METHOD_TRAP_REPRESS)

static int agent_refuse(enum ib_mad_agent_why w, enum ib_mad_agent_why *why)
{
	if (why)
		*why = w;
	return agent_whys[w].err;
}

void ib_mad_agent_table_init(struct ib_mad_agent_table *t, u32 first_hi_tid)
{
	u32 i, j;

	for (i = 0; i < IB_MAD_AGENT_MAX; i++) {
		struct ib_mad_agent_slot *a = &t->agent[i];

		a->used = false;
		a->hi_tid = 0;
		a->tid_next = 0;
		a->claim.mgmt_class = 0;
		a->claim.class_version = 0;
		for (j = 0; j < IB_MAD_AGENT_METHOD_WORDS; j++)
			a->claim.methods[j] = 0;
	}
	t->hi_tid_next = first_hi_tid & IB_MAD_WIRE_AGENT_ID_MASK;
}
EXPORT_SYMBOL(ib_mad_agent_table_init);

/* whether requests of @mgmt_class can be claimed at all on the GSI QP */
static bool class_claimable(u8 mgmt_class)
{
	return mgmt_class >= IB_MAD_AGENT_CLASS_FIRST &&
	       mgmt_class < IB_MAD_AGENT_VENDOR2_FIRST;
}

enum ib_mad_agent_why ib_mad_agent_claim_check(const struct ib_mad_agent_claim *claim)
{
	u32 j, any = 0;
	u8 c;

	if (!claim)
		return IB_MAD_AGENT_WHY_OK;
	c = claim->mgmt_class;
	if (c == IB_MAD_WIRE_CLASS_SUBN_LID || c == IB_MAD_WIRE_CLASS_SUBN_DR)
		return IB_MAD_AGENT_WHY_SMI_CLASS;
	if (c >= IB_MAD_AGENT_VENDOR2_FIRST && c <= IB_MAD_AGENT_VENDOR2_LAST)
		return IB_MAD_AGENT_WHY_VENDOR_OUI;
	if (!class_claimable(c))
		return IB_MAD_AGENT_WHY_BAD_CLASS;
	if (claim->class_version >= IB_MAD_AGENT_CLASS_VERSIONS)
		return IB_MAD_AGENT_WHY_BAD_VERSION;
	for (j = 0; j < IB_MAD_AGENT_METHOD_WORDS; j++)
		any |= claim->methods[j];
	if (!any)
		return IB_MAD_AGENT_WHY_NO_METHODS;
	if (claim->methods[0] & UNCLAIMABLE_METHODS_WORD0)
		return IB_MAD_AGENT_WHY_BAD_METHOD;
	return IB_MAD_AGENT_WHY_OK;
}
EXPORT_SYMBOL(ib_mad_agent_claim_check);

/* whether @a already claims any request @claim would */
static bool claims_overlap(const struct ib_mad_agent_slot *a,
			   const struct ib_mad_agent_claim *claim)
{
	u32 j;

	if (!a->used || a->claim.mgmt_class != claim->mgmt_class ||
	    a->claim.class_version != claim->class_version)
		return false;
	for (j = 0; j < IB_MAD_AGENT_METHOD_WORDS; j++)
		if (a->claim.methods[j] & claim->methods[j])
			return true;
	return false;
}

int ib_mad_agent_by_hi_tid(const struct ib_mad_agent_table *t, u32 hi_tid)
{
	u32 i;

	for (i = 0; i < IB_MAD_AGENT_MAX; i++)
		if (t->agent[i].used && t->agent[i].hi_tid == hi_tid)
			return (int)i;
	return -1;
}
EXPORT_SYMBOL(ib_mad_agent_by_hi_tid);

/* the next hi_tid from the cursor on that no agent holds */
static u32 take_hi_tid(struct ib_mad_agent_table *t)
{
	u32 id = t->hi_tid_next & IB_MAD_WIRE_AGENT_ID_MASK;

	/* at most IB_MAD_AGENT_MAX - 1 values are taken: this ends */
	while (ib_mad_agent_by_hi_tid(t, id) >= 0)
		id = ib_mad_wire_next_agent_id(id);
	t->hi_tid_next = ib_mad_wire_next_agent_id(id);
	return id;
}

int ib_mad_agent_register(struct ib_mad_agent_table *t,
			  const struct ib_mad_agent_claim *claim,
			  enum ib_mad_agent_why *why)
{
	enum ib_mad_agent_why w = ib_mad_agent_claim_check(claim);
	struct ib_mad_agent_slot *a;
	int free_idx = -1;
	u32 i, j;

	if (w != IB_MAD_AGENT_WHY_OK)
		return agent_refuse(w, why);
	for (i = 0; i < IB_MAD_AGENT_MAX; i++) {
		if (claim && claims_overlap(&t->agent[i], claim))
			return agent_refuse(IB_MAD_AGENT_WHY_CONFLICT, why);
		if (!t->agent[i].used && free_idx < 0)
			free_idx = (int)i;
	}
	if (free_idx < 0)
		return agent_refuse(IB_MAD_AGENT_WHY_FULL, why);

	a = &t->agent[free_idx];
	a->hi_tid = take_hi_tid(t);
	a->tid_next = 0;
	a->claim.mgmt_class = claim ? claim->mgmt_class : 0;
	a->claim.class_version = claim ? claim->class_version : 0;
	for (j = 0; j < IB_MAD_AGENT_METHOD_WORDS; j++)
		a->claim.methods[j] = claim ? claim->methods[j] : 0;
	a->used = true;
	if (why)
		*why = IB_MAD_AGENT_WHY_OK;
	return free_idx;
}
EXPORT_SYMBOL(ib_mad_agent_register);

int ib_mad_agent_unregister(struct ib_mad_agent_table *t,
			    const struct ib_mad_send_table *s, u32 agent,
			    enum ib_mad_agent_why *why)
{
	if (agent >= IB_MAD_AGENT_MAX || !t->agent[agent].used)
		return agent_refuse(IB_MAD_AGENT_WHY_NO_AGENT, why);
	if (ib_mad_send_first_of_agent(s, agent) >= 0)
		return agent_refuse(IB_MAD_AGENT_WHY_BUSY, why);
	t->agent[agent].used = false;
	if (why)
		*why = IB_MAD_AGENT_WHY_OK;
	return 0;
}
EXPORT_SYMBOL(ib_mad_agent_unregister);

int ib_mad_agent_claimant(const struct ib_mad_agent_table *t, u8 mgmt_class,
			  u8 class_version, u8 method)
{
	u32 i;

	for (i = 0; i < IB_MAD_AGENT_MAX; i++) {
		const struct ib_mad_agent_slot *a = &t->agent[i];

		if (a->used && a->claim.mgmt_class == mgmt_class &&
		    a->claim.class_version == class_version &&
		    ib_mad_agent_claims_method(&a->claim, method))
			return (int)i;
	}
	return -1;
}
EXPORT_SYMBOL(ib_mad_agent_claimant);

u64 ib_mad_agent_next_tid(struct ib_mad_agent_table *t, u32 agent)
{
	struct ib_mad_agent_slot *a;

	if (agent >= IB_MAD_AGENT_MAX || !t->agent[agent].used)
		return 0;
	a = &t->agent[agent];
	return ib_mad_wire_tid(a->hi_tid, a->tid_next++);
}
EXPORT_SYMBOL(ib_mad_agent_next_tid);

const char *ib_mad_agent_why_str(enum ib_mad_agent_why why)
{
	if ((u32)why >= IB_MAD_AGENT_WHY_NUM)
		return "unknown";
	return agent_whys[why].name;
}
EXPORT_SYMBOL(ib_mad_agent_why_str);

/* ---- outstanding sends ---- */

/* a free slot is all zero bytes (IB_MAD_SEND_FREE, false, 0) */
static void slot_clear(struct ib_mad_send_slot *p)
{
	u8 *b = (u8 *)p;
	u32 i;

	for (i = 0; i < sizeof(*p); i++)
		b[i] = 0;
}

void ib_mad_send_table_init(struct ib_mad_send_table *s)
{
	u32 i;

	for (i = 0; i < IB_MAD_SEND_MAX; i++)
		slot_clear(&s->slot[i]);
	s->seq_next = 0;
	s->used = 0;
}
EXPORT_SYMBOL(ib_mad_send_table_init);

u64 ib_mad_send_deadline(u64 now_ms, u32 timeout_ms)
{
	if (now_ms > ~0ULL - timeout_ms)
		return ~0ULL;
	return now_ms + timeout_ms;
}
EXPORT_SYMBOL(ib_mad_send_deadline);

u64 ib_mad_send_give_up_ms(u32 timeout_ms, u32 retries)
{
	/* at most 2^32 * 2^32: fits */
	return (u64)timeout_ms * ((u64)retries + 1);
}
EXPORT_SYMBOL(ib_mad_send_give_up_ms);

static void act_none(struct ib_mad_send_action *act, int slot)
{
	act->what = IB_MAD_SEND_DO_NOTHING;
	act->status = IB_MAD_SEND_OK;
	act->agent = 0;
	act->slot = slot;
	act->resent = 0;
	act->tid = 0;
}

static void act_fill(struct ib_mad_send_action *act, u32 slot,
		     const struct ib_mad_send_slot *p, enum ib_mad_send_do what)
{
	act->what = (u8)what;
	act->status = IB_MAD_SEND_OK;
	act->agent = p->agent;
	act->slot = (int)slot;
	act->resent = p->resent;
	act->tid = p->tid;
}

/* report @slot completed with @status and free it */
static void send_complete(struct ib_mad_send_table *s, u32 slot,
		     enum ib_mad_send_status status,
		     struct ib_mad_send_action *act)
{
	act_fill(act, slot, &s->slot[slot], IB_MAD_SEND_DO_COMPLETE);
	act->status = (u8)status;
	slot_clear(&s->slot[slot]);
	s->used--;
}

/*
 * A waiting send completes now with @status; a posted one still owns its
 * buffer in the QP, so it sets *@later and completes at its send
 * completion.
 */
static void finish_or_defer(struct ib_mad_send_table *s, u32 slot,
			    enum ib_mad_send_status status, bool *later,
			    struct ib_mad_send_action *act)
{
	if (s->slot[slot].state == IB_MAD_SEND_WAIT) {
		send_complete(s, slot, status, act);
		return;
	}
	*later = true;
	act_fill(act, slot, &s->slot[slot], IB_MAD_SEND_DO_NOTHING);
}

int ib_mad_send_post(struct ib_mad_send_table *s,
		     const struct ib_mad_agent_table *t,
		     const struct ib_mad_send_args *args)
{
	struct ib_mad_send_slot *p;
	u32 i;

	if (args->agent >= IB_MAD_AGENT_MAX || !t->agent[args->agent].used)
		return -EINVAL;
	for (i = 0; i < IB_MAD_SEND_MAX; i++)
		if (s->slot[i].state == IB_MAD_SEND_FREE)
			break;
	if (i == IB_MAD_SEND_MAX)
		return -ENOSPC;
	p = &s->slot[i];
	p->state = IB_MAD_SEND_POSTED;
	p->agent = (u8)args->agent;
	p->mgmt_class = args->mgmt_class;
	p->timeout_ms = args->timeout_ms;
	p->retries = args->retries;
	p->tid = args->tid;
	p->seq = s->seq_next++;
	if (args->peer_gid) {
		u32 k;

		p->has_peer = true;
		for (k = 0; k < sizeof(p->peer_gid); k++)
			p->peer_gid[k] = args->peer_gid[k];
	}
	s->used++;
	return (int)i;
}
EXPORT_SYMBOL(ib_mad_send_post);

static struct ib_mad_send_slot *slot_in(struct ib_mad_send_table *s, u32 slot,
					enum ib_mad_send_state state)
{
	if (slot >= IB_MAD_SEND_MAX || s->slot[slot].state != state)
		return NULL;
	return &s->slot[slot];
}

int ib_mad_send_on_wc(struct ib_mad_send_table *s, u32 slot, bool ok,
		      u64 now_ms, struct ib_mad_send_action *act)
{
	struct ib_mad_send_slot *p = slot_in(s, slot, IB_MAD_SEND_POSTED);

	act_none(act, -1);
	if (!p)
		return -EINVAL;
	if (p->canceled)
		send_complete(s, slot, IB_MAD_SEND_ERR_CANCELED, act);
	else if (!ok)
		send_complete(s, slot, IB_MAD_SEND_ERR_WC, act);
	else if (!p->timeout_ms || p->answered)
		send_complete(s, slot, IB_MAD_SEND_OK, act);
	else {
		p->state = IB_MAD_SEND_WAIT;
		p->deadline_ms = ib_mad_send_deadline(now_ms, p->timeout_ms);
		act_fill(act, slot, p, IB_MAD_SEND_DO_NOTHING);
	}
	return 0;
}
EXPORT_SYMBOL(ib_mad_send_on_wc);

/* whether a response may still be matched to @p */
static bool awaits_response(const struct ib_mad_send_slot *p)
{
	if (p->state == IB_MAD_SEND_FREE || !p->timeout_ms || p->canceled)
		return false;
	return p->state == IB_MAD_SEND_WAIT || !p->answered;
}

int ib_mad_send_on_response(struct ib_mad_send_table *s, u32 slot,
			    struct ib_mad_send_action *act)
{
	act_none(act, -1);
	if (slot >= IB_MAD_SEND_MAX || !awaits_response(&s->slot[slot]))
		return -EINVAL;
	finish_or_defer(s, slot, IB_MAD_SEND_OK, &s->slot[slot].answered, act);
	return 0;
}
EXPORT_SYMBOL(ib_mad_send_on_response);

/* whether @a comes before @b in timer order */
static bool expires_before(const struct ib_mad_send_slot *a,
			   const struct ib_mad_send_slot *b)
{
	if (a->deadline_ms != b->deadline_ms)
		return a->deadline_ms < b->deadline_ms;
	return a->seq < b->seq;
}

/* the WAIT slot first in timer order, or -1 */
static int first_waiting(const struct ib_mad_send_table *s)
{
	int best = -1;
	u32 i;

	for (i = 0; i < IB_MAD_SEND_MAX; i++) {
		const struct ib_mad_send_slot *p = &s->slot[i];

		if (p->state != IB_MAD_SEND_WAIT)
			continue;
		if (best < 0 || expires_before(p, &s->slot[best]))
			best = (int)i;
	}
	return best;
}

void ib_mad_send_on_timer(struct ib_mad_send_table *s, u64 now_ms,
			  struct ib_mad_send_action *act)
{
	int i = first_waiting(s);
	struct ib_mad_send_slot *p;

	act_none(act, -1);
	if (i < 0 || s->slot[i].deadline_ms > now_ms)
		return;
	p = &s->slot[i];
	if (p->resent >= p->retries) {
		send_complete(s, (u32)i, IB_MAD_SEND_ERR_TIMEOUT, act);
		return;
	}
	p->resent++;
	p->state = IB_MAD_SEND_POSTED;
	p->deadline_ms = 0;
	act_fill(act, (u32)i, p, IB_MAD_SEND_DO_RESEND);
}
EXPORT_SYMBOL(ib_mad_send_on_timer);

bool ib_mad_send_next_deadline(const struct ib_mad_send_table *s, u64 *deadline_ms)
{
	int i = first_waiting(s);

	if (i < 0)
		return false;
	*deadline_ms = s->slot[i].deadline_ms;
	return true;
}
EXPORT_SYMBOL(ib_mad_send_next_deadline);

int ib_mad_send_cancel(struct ib_mad_send_table *s, u32 slot,
		       struct ib_mad_send_action *act)
{
	act_none(act, -1);
	if (slot >= IB_MAD_SEND_MAX || s->slot[slot].state == IB_MAD_SEND_FREE)
		return -EINVAL;
	finish_or_defer(s, slot, IB_MAD_SEND_ERR_CANCELED,
			&s->slot[slot].canceled, act);
	return 0;
}
EXPORT_SYMBOL(ib_mad_send_cancel);

int ib_mad_send_modify(struct ib_mad_send_table *s, u32 slot, u32 timeout_ms,
		       u64 now_ms, struct ib_mad_send_action *act)
{
	struct ib_mad_send_slot *p;

	act_none(act, -1);
	if (slot >= IB_MAD_SEND_MAX)
		return -EINVAL;
	p = &s->slot[slot];
	if (p->state == IB_MAD_SEND_FREE || p->canceled || !p->timeout_ms)
		return -EINVAL;
	if (!timeout_ms)
		return ib_mad_send_cancel(s, slot, act);
	p->timeout_ms = timeout_ms;
	if (p->state == IB_MAD_SEND_WAIT)
		p->deadline_ms = ib_mad_send_deadline(now_ms, timeout_ms);
	act_fill(act, slot, p, IB_MAD_SEND_DO_NOTHING);
	return 0;
}
EXPORT_SYMBOL(ib_mad_send_modify);

int ib_mad_send_first_of_agent(const struct ib_mad_send_table *s, u32 agent)
{
	u32 i;

	for (i = 0; i < IB_MAD_SEND_MAX; i++)
		if (s->slot[i].state != IB_MAD_SEND_FREE &&
		    s->slot[i].agent == agent)
			return (int)i;
	return -1;
}
EXPORT_SYMBOL(ib_mad_send_first_of_agent);

static const char *const send_do_names[] = {
	[IB_MAD_SEND_DO_NOTHING] = "nothing",
	[IB_MAD_SEND_DO_RESEND] = "resend",
	[IB_MAD_SEND_DO_COMPLETE] = "complete",
};

static const char *const send_status_names[] = {
	[IB_MAD_SEND_OK] = "ok",
	[IB_MAD_SEND_ERR_WC] = "wc_error",
	[IB_MAD_SEND_ERR_TIMEOUT] = "timeout",
	[IB_MAD_SEND_ERR_CANCELED] = "canceled",
};

#define NAMES_LEN(a)	((u32)(sizeof(a) / sizeof((a)[0])))

/* @names[@v], or "unknown" past its @n entries */
static const char *name_of(const char *const *names, u32 n, u32 v)
{
	return v < n ? names[v] : "unknown";
}

const char *ib_mad_send_do_str(enum ib_mad_send_do what)
{
	return name_of(send_do_names, NAMES_LEN(send_do_names), (u32)what);
}
EXPORT_SYMBOL(ib_mad_send_do_str);

const char *ib_mad_send_status_str(enum ib_mad_send_status status)
{
	return name_of(send_status_names, NAMES_LEN(send_status_names),
		       (u32)status);
}
EXPORT_SYMBOL(ib_mad_send_status_str);

/* ---- receive dispatch ---- */

/* the dispatch reason of each refusal of ib_mad_wire_check_hdr() */
static const u8 rx_why_of_wire[IB_MAD_WHY_NUM] = {
	[IB_MAD_WHY_OK] = IB_MAD_RX_WHY_NONE,
	[IB_MAD_WHY_SHORT] = IB_MAD_RX_WHY_SIZE,
	[IB_MAD_WHY_LONG] = IB_MAD_RX_WHY_SIZE,
	[IB_MAD_WHY_BASE_VERSION] = IB_MAD_RX_WHY_BASE_VERSION,
	[IB_MAD_WHY_SMI_NOT_QP0] = IB_MAD_RX_WHY_WRONG_QP,
	[IB_MAD_WHY_GSI_ON_QP0] = IB_MAD_RX_WHY_WRONG_QP,
	[IB_MAD_WHY_CM_METHOD] = IB_MAD_RX_WHY_CM_METHOD,
	[IB_MAD_WHY_CM_CLASS_VERSION] = IB_MAD_RX_WHY_CM_CLASS_VERSION,
};

static const char *const rx_verdict_names[] = {
	[IB_MAD_RX_DROP] = "drop",
	[IB_MAD_RX_REPLY] = "reply",
	[IB_MAD_RX_RESPONSE] = "response",
	[IB_MAD_RX_REQUEST] = "request",
};

static const char *const rx_why_names[IB_MAD_RX_WHY_NUM] = {
	[IB_MAD_RX_WHY_NONE] = "none",
	[IB_MAD_RX_WHY_SIZE] = "size",
	[IB_MAD_RX_WHY_BASE_VERSION] = "base_version",
	[IB_MAD_RX_WHY_WRONG_QP] = "wrong_qp",
	[IB_MAD_RX_WHY_CM_METHOD] = "cm_method",
	[IB_MAD_RX_WHY_CM_CLASS_VERSION] = "cm_class_version",
	[IB_MAD_RX_WHY_NO_TID_AGENT] = "no_tid_agent",
	[IB_MAD_RX_WHY_NO_SEND] = "no_send",
	[IB_MAD_RX_WHY_UNSUPPORTED_CLASS] = "unsupported_class",
	[IB_MAD_RX_WHY_UNCLAIMED] = "unclaimed",
};

static enum ib_mad_rx_verdict rx_set(struct ib_mad_rx *out,
				     enum ib_mad_rx_verdict v,
				     enum ib_mad_rx_why why, int agent, int slot)
{
	out->verdict = (u8)v;
	out->why = (u8)why;
	out->reply_status = 0;
	out->agent = agent;
	out->slot = slot;
	return v;
}

static bool gid_equal(const u8 *a, const u8 *b)
{
	u32 i;

	for (i = 0; i < 16; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * The outstanding send of @agent that @hdr answers: same TID and class,
 * from the send's peer if it named one, still expecting a response.  A
 * send that waits wins over one still posted, then the earliest posted.
 */
static int match_send(const struct ib_mad_send_table *s, u32 agent,
		      const struct ib_mad_wire_hdr *hdr, const u8 *src_gid)
{
	int best = -1;
	u32 i;

	for (i = 0; i < IB_MAD_SEND_MAX; i++) {
		const struct ib_mad_send_slot *p = &s->slot[i];
		const struct ib_mad_send_slot *b;

		if (!awaits_response(p) || p->agent != agent ||
		    !ib_mad_wire_tid_match(p->tid, p->mgmt_class, hdr))
			continue;
		if (p->has_peer && (!src_gid || !gid_equal(p->peer_gid, src_gid)))
			continue;
		if (best < 0) {
			best = (int)i;
			continue;
		}
		b = &s->slot[best];
		if (p->state != b->state ? p->state == IB_MAD_SEND_WAIT :
					   p->seq < b->seq)
			best = (int)i;
	}
	return best;
}

/* a request nobody takes: Get and Set are answered, the rest dropped */
static enum ib_mad_rx_verdict rx_unclaimed(const struct ib_mad_wire_hdr *hdr,
					   enum ib_mad_rx_why why,
					   struct ib_mad_rx *out)
{
	if (!ib_mad_wire_wants_reply(hdr))
		return rx_set(out, IB_MAD_RX_DROP, why, -1, -1);
	rx_set(out, IB_MAD_RX_REPLY, why, -1, -1);
	out->reply_status = IB_MAD_WIRE_STATUS_BAD_METHOD_ATTR;
	return IB_MAD_RX_REPLY;
}

enum ib_mad_rx_verdict ib_mad_rx_dispatch(const struct ib_mad_agent_table *t,
					  const struct ib_mad_send_table *s,
					  const struct ib_mad_wire_hdr *hdr,
					  const u8 *src_gid,
					  struct ib_mad_rx *out)
{
	enum ib_mad_wire_why w = ib_mad_wire_check_hdr(hdr, false);
	int agent, slot;

	if (w != IB_MAD_WHY_OK)
		return rx_set(out, IB_MAD_RX_DROP,
			      (enum ib_mad_rx_why)rx_why_of_wire[w], -1, -1);

	if (ib_mad_wire_is_response(hdr)) {
		agent = ib_mad_agent_by_hi_tid(t, ib_mad_wire_tid_agent(hdr->tid));
		if (agent < 0)
			return rx_set(out, IB_MAD_RX_DROP,
				      IB_MAD_RX_WHY_NO_TID_AGENT, -1, -1);
		slot = match_send(s, (u32)agent, hdr, src_gid);
		if (slot < 0)
			return rx_set(out, IB_MAD_RX_DROP, IB_MAD_RX_WHY_NO_SEND,
				      -1, -1);
		return rx_set(out, IB_MAD_RX_RESPONSE, IB_MAD_RX_WHY_NONE,
			      agent, slot);
	}

	if (!class_claimable(hdr->mgmt_class) ||
	    hdr->class_version >= IB_MAD_AGENT_CLASS_VERSIONS)
		return rx_unclaimed(hdr, IB_MAD_RX_WHY_UNSUPPORTED_CLASS, out);
	agent = ib_mad_agent_claimant(t, hdr->mgmt_class, hdr->class_version,
				      hdr->method);
	if (agent < 0)
		return rx_unclaimed(hdr, IB_MAD_RX_WHY_UNCLAIMED, out);
	return rx_set(out, IB_MAD_RX_REQUEST, IB_MAD_RX_WHY_NONE, agent, -1);
}
EXPORT_SYMBOL(ib_mad_rx_dispatch);

enum ib_mad_rx_verdict ib_mad_rx_dispatch_raw(const struct ib_mad_agent_table *t,
					      const struct ib_mad_send_table *s,
					      const u8 *mad, u32 len,
					      const u8 *src_gid,
					      struct ib_mad_wire_hdr *hdr,
					      struct ib_mad_rx *out)
{
	if (len != IB_MAD_WIRE_SIZE || ib_mad_wire_hdr_decode(mad, len, hdr))
		return rx_set(out, IB_MAD_RX_DROP, IB_MAD_RX_WHY_SIZE, -1, -1);
	return ib_mad_rx_dispatch(t, s, hdr, src_gid, out);
}
EXPORT_SYMBOL(ib_mad_rx_dispatch_raw);

const char *ib_mad_rx_verdict_str(enum ib_mad_rx_verdict v)
{
	return name_of(rx_verdict_names, NAMES_LEN(rx_verdict_names), (u32)v);
}
EXPORT_SYMBOL(ib_mad_rx_verdict_str);

const char *ib_mad_rx_why_str(enum ib_mad_rx_why why)
{
	return name_of(rx_why_names, IB_MAD_RX_WHY_NUM, (u32)why);
}
EXPORT_SYMBOL(ib_mad_rx_why_str);
