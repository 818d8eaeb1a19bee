/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The send side of a QP: requester and completer state (rxe_req.c,
 * rxe_comp.c), embedded in struct rxe_qp as qp->req.
 *
 * Every WQE the requester takes from the SQ ring is copied into
 * kernel memory first (@copies) together with its progress (struct
 * rxe_swqe): user space may rewrite its ring at any time, the copy is
 * what is sent, retransmitted and completed.  The copies are sized by
 * what is outstanding, not by the ring: ring index i lives in entry
 * i & @cmask, and the arrays double (never beyond the ring) when a WQE
 * is to be taken and every entry holds one not yet completed.  A run
 * that may not sleep leaves the growth to the work item; a growth the
 * memory cgroup refuses waits for completions instead.  Ring indices,
 * in the order they follow each other:
 *
 *   head  oldest WQE not completed yet (= the ring's consumer index)
 *   cur   where the requester sends next (a retransmission moves it back)
 *   next  oldest WQE not taken yet (up to the ring's producer index)
 */
#ifndef _RXE_REQ_H
#define _RXE_REQ_H

#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "rxe_runner.h"
#include "rxe_wr_ops.h"

struct rxe_qp;
struct rxe_send_wqe;
struct ib_wc;

enum rxe_swqe_state {
	RXE_SWQE_SENDING,	/* request packets left to send */
	RXE_SWQE_SENT,		/* all sent; RC waits for the response */
	RXE_SWQE_DONE,		/* complete when it reaches the head */
	RXE_SWQE_ERROR,		/* complete with @status, then QP to ERR */
};

/* the requester's record of one taken WQE */
struct rxe_swqe {
	struct rxe_send_wqe *wqe;	/* the private copy */
	u32 first_psn;
	u32 last_psn;		/* a read: of its last response packet */
	u32 next_psn;		/* next request packet to send */
	u32 rd_psn;		/* a read: next response expected */
	u8 state;		/* enum rxe_swqe_state */
	u8 kind;		/* enum rxe_swqe_kind */
	u8 status;		/* enum ib_wc_status, for RXE_SWQE_ERROR */
};

/* bits of rxe_req.events: set by timers, taken by the work */
enum {
	RXE_REQ_EV_TIMEOUT,
	RXE_REQ_EV_RNR,
};

struct rxe_req {
	struct work_struct work;
	/* responses from rxe_rcv(), no QP reference (rxe_dp.h) */
	struct sk_buff_head resp_pkts;
	struct timer_list retry_timer;
	struct timer_list rnr_timer;
	unsigned long events;

	/* one runner at a time (work item or an inline caller) */
	spinlock_t lock;
	struct rxe_runner run;
	bool dead;		/* cleanup started */

	/* the rest belongs to the runner */
	struct rxe_swqe *swqe;	/* cmask + 1 entries */
	u8 *copies;		/* cmask + 1 entries of 1 << log2_elem bytes */
	u32 log2_elem;
	u32 cmask;		/* entries - 1; entries: a power of two */
	bool full;		/* a WQE waits for an entry */
	u32 head;
	u32 cur;
	u32 next;
	bool next_copied;	/* copies[next] holds slot next already */
	u32 psn;		/* next new PSN */
	u32 sent_psn;		/* PSNs before it were sent at least once */
	u32 una;		/* oldest PSN not acknowledged */
	u32 rd_atomic;		/* reads/atomics taken, not answered */
	u8 retry_left;
	u8 rnr_left;
	bool rnr_wait;		/* stopped by an RNR NAK */
	bool stopped;		/* a WQE failed: take nothing more */
	bool nomem;		/* no private copies: the QP goes to ERR */
	bool may_sleep;		/* the runner may sleep (work item, doorbell) */
	/* a packet went through the IP stack: send from qp->cpu only
	 * (rxe_wq in rxe_dp.h); written by the runner, read by posters */
	bool wire_sent;
	u32 rnr_psn;
	/* jiffies: the wait for an acknowledgement started (any response
	 * from the peer, a retransmission, or a send with nothing
	 * outstanding) */
	unsigned long wait_start;
	/*
	 * A retransmission is under way: until the acknowledged PSNs
	 * advance, the peer's answers to the old packets, which still
	 * arrive, ask for nothing more; only the retry timer resends.
	 */
	bool goback_wait;
};

/* rxe_req.c: run the requester and completer now (or have the running
 * instance look again); safe in any context but hard IRQ.  Only for
 * passes that send nothing (RESET, flush): packets leave from qp->cpu. */
void rxe_req_run(struct rxe_qp *qp);
/* the same where packets may leave (kernel post_send): now when this is
 * qp->cpu or the QP is in ERR (a flush sends nothing), else through the
 * work item there (rxe_dp.h) */
void rxe_req_run_local(struct rxe_qp *qp);

/*
 * Let others have the CPU between two packets when the runner is the
 * work item.  Without it, a kernel without forced preemption (the
 * distributions' default) let one pass keep a CPU for tens of
 * milliseconds in a slow guest, and the packets it had just sent waited
 * in that CPU's backlog for ksoftirqd; the peer saw silence.
 */
void rxe_req_yield(struct rxe_qp *qp);

/*
 * Double the entries of @swqe and @copies, keeping every taken WQE (and
 * the copy of @next, if made) at its index; the runner's.  0, -ENOSPC
 * when they already cover the ring, or -ENOMEM.
 */
int rxe_req_grow(struct rxe_qp *qp, gfp_t gfp);

/* ---- pure helpers (rxe_req.c), unit-tested by KUnit ---- */

/* a FLUSH WQE's operands (struct rxe_wqe_flush) from @wqe */
void rxe_wqe_flush(const struct rxe_send_wqe *wqe, struct rxe_wqe_flush *f);

/* bytes of one packet for path MTU enum @mtu (IB_MTU_256..4096) */
u32 rxe_mtu_bytes(u32 mtu);
/* request packets of a @len byte message at @mtu_bytes (0 bytes: 1) */
u32 rxe_msg_pkts(u32 len, u32 mtu_bytes);
/* IBTA RNR timer (AETH timer field 0..31) in microseconds */
u32 rxe_rnr_timer_us(u8 code);
/* the local ACK timeout 4.096 us * 2^@timeout in microseconds (0: none) */
u64 rxe_ack_timeout_us(u8 timeout);
/*
 * The wait after @expired retry-timer expiries without progress: the
 * timeout doubled per expiry, at most 2^RXE_RETRY_BACKOFF_SHIFT times.
 * The ACK timeout is a lower bound (a spurious expiry resends the whole
 * window); waiting longer each time lets a peer that is only slow catch
 * up before retry_cnt runs out.  With retry_cnt 7 the peer has 47
 * timeouts of silence instead of 8.
 */
#define RXE_RETRY_BACKOFF_SHIFT	3
u64 rxe_ack_backoff_us(u8 timeout, u32 expired);

/* payload bytes per request packet of @qp */
u32 rxe_req_mtu(struct rxe_qp *qp);

/* ---- rxe_comp.c: the completer, called by the runner ---- */
void rxe_comp_process(struct rxe_qp *qp);
/* complete finished WQEs from the head in order */
void rxe_comp_complete(struct rxe_qp *qp);
/* retransmit from @psn: resend request packets (and reads) from there */
void rxe_req_goback(struct rxe_qp *qp, u32 psn);
/* the WQE of a ring index */
struct rxe_swqe *rxe_req_swqe(struct rxe_qp *qp, u32 index);
u32 rxe_req_ring_next(struct rxe_qp *qp, u32 index);
/* @sw reached its final state */
void rxe_swqe_finish(struct rxe_qp *qp, struct rxe_swqe *sw, u8 state,
		     u8 status);
/* position the SGE cursor of @wqe at byte @off */
void rxe_wqe_seek(struct rxe_send_wqe *wqe, u32 off);
/* the retry timer after progress or a send */
void rxe_req_arm_retry(struct rxe_qp *qp, bool restart);
/* the local ACK timeout of @qp in jiffies (0: none) */
unsigned long rxe_req_retry_jiffies(struct rxe_qp *qp);

/* ---- rxe_post.c, send side ---- */
bool rxe_send_wqe_ok(struct rxe_qp *qp, u32 opcode, u32 send_flags,
		     u32 num_sge, u32 len);
enum ib_wc_opcode rxe_send_wc_opcode(u32 wr_opcode);
int rxe_send_do_local(struct rxe_qp *qp, const struct rxe_send_wqe *wqe);
void rxe_wc_fill(struct ib_wc *wc, struct rxe_qp *qp, u64 wr_id,
		 enum ib_wc_status status, enum ib_wc_opcode opcode);

#endif /* _RXE_REQ_H */
