/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The data path inside rxe: how packets, the requester, the completer and
 * the responder meet.  Documentation/rxe/datapath.rst tells the story;
 * in short:
 *
 *   post_send / doorbell -> requester (rxe_req.c) -> rxe_pkt_send()
 *   wire -> rxe_rcv() (rxe_recv.c) -> requests:  rxe_resp_rcv() (rxe_resp.c)
 *                                  -> responses: rxe_comp_rcv() (rxe_comp.c)
 *   responder -> ACK / read response / atomic ACK -> rxe_pkt_send()
 *   completer -> CQEs of the send queue, retransmission, RNR waits
 *
 * Each side of a QP runs in its own work item on rxe_wq, or in a caller
 * that may run it (below); a side never runs concurrently with itself.
 * Packets are sk_buffs whose cb holds a struct rxe_pkt.
 *
 * QP lifetime: rxe_rcv() holds a pool reference on the destination QP
 * only while it hands a packet over (rxe_resp_rcv()/rxe_comp_rcv()
 * queue it and schedule their work, then return; rxe_rcv() drops the
 * reference), or, for a request deferred to a local sender (struct
 * rxe_tx), until that sender has run the responder.  Queued packets hold
 * no reference: rxe_destroy_qp() first takes the QP out of the pool,
 * which waits for hand-overs (and deferred runs) in progress, then
 * rxe_resp_cleanup()/rxe_req_cleanup() cancel the work items and timers
 * and purge the queues.
 */
#ifndef _RXE_DP_H
#define _RXE_DP_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

#include "rxe_hdr.h"

struct rxe_dev;
struct rxe_qp;
struct rxe_pd;
struct rxe_mr;
struct rxe_av;
struct rxe_dma_info;
struct ib_qp_attr;

/*
 * rxe.c: the module's workqueue for QP work items.  It is per-CPU, and
 * every work item of a QP is queued on the QP's CPU (qp->cpu, chosen
 * round-robin at creation).  A veth, like any path through netif_rx,
 * queues a packet to the backlog of the CPU that sent it; two packets of
 * one QP sent from two CPUs could overtake each other, which UC and UD
 * cannot recover from and RC pays for in retransmissions.  So a packet
 * that goes on the wire leaves from qp->cpu: the requester runs in a
 * poster (kernel post_send, user doorbell) only there, or anywhere as
 * long as every packet of the QP was delivered locally (no backlog on
 * that path: rxe_req.wire_sent).  The responder runs in a local sender
 * only for requests delivered locally, whose responses are local too.
 * (A CPU that goes offline hands its queued work to unbound workers:
 * order holds, affinity does not.)
 */
extern struct workqueue_struct *rxe_wq;

/* what skb->cb holds for a RoCE packet inside rxe */
struct rxe_pkt {
	struct rxe_qp *qp;	/* rx: the destination QP (see below) */
	u8 *hdr;		/* the BTH inside the skb */
	struct rxe_hdr_info info;
};

static inline struct rxe_pkt *rxe_pkt(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct rxe_pkt) > sizeof(skb->cb));
	return (struct rxe_pkt *)skb->cb;
}

/* header @type of @pkt (present per info.mask), inside the skb */
u8 *rxe_pkt_ext(struct rxe_pkt *pkt, enum rxe_hdr_type type);
/* the payload: after the headers */
static inline u8 *rxe_pkt_payload(struct rxe_pkt *pkt)
{
	return pkt->hdr + pkt->info.hdr_len;
}

/* ---- rxe_net.c: sending ---- */

/*
 * A new packet of @opcode with @paylen payload bytes for @qp towards @av
 * (the QP's primary AV, or a UD WQE's).  The headers are zeroed; the
 * caller fills the BTH (rxe_bth_set), the extended headers and the
 * payload, then sends it.  info.mask/opcode/hdr_len/paylen/pad are set.
 * NULL when out of memory.
 */
struct sk_buff *rxe_pkt_new(struct rxe_qp *qp, const struct rxe_av *av,
			    u8 opcode, u32 paylen);
/*
 * What a sender learns from rxe_pkt_send() (@tx may be NULL).  With
 * @may_defer (the sender may sleep and holds no lock), a request that is
 * delivered locally (an address of this host) is queued to its QP's
 * responder without waking the work item: @resp_qp then holds that QP
 * with a reference, and the sender runs the responder itself after the
 * send returns (rxe_resp_run_deferred(), which drops the reference).
 * @wire: the packet left through the IP stack (not locally delivered).
 */
struct rxe_tx {
	bool may_defer;
	bool wire;
	struct rxe_qp *resp_qp;
};

/*
 * Add UDP/IP (from @av and the device's netdev, in its namespace), the
 * ICRC, and transmit.  Always consumes @skb.  0, or -errno when the
 * packet could not leave (no route: -EHOSTUNREACH; the caller treats
 * every error like a lost packet).  Counts sent_pkts.
 */
int rxe_pkt_send(struct rxe_qp *qp, const struct rxe_av *av,
		 struct sk_buff *skb, struct rxe_tx *tx);

/* ---- rxe_recv.c: receiving ---- */

/*
 * A RoCEv2 UDP payload arrived for @rxe (skb->data at the BTH, network
 * header set): ICRC, parse, find the QP (multicast: each attached QP),
 * check state, P_Key and (UD) Q_Key, then hand it to rxe_resp_rcv() or
 * rxe_comp_rcv().  Always consumes @skb.  @tx: the local sender's
 * (struct rxe_tx), or NULL from the wire.
 */
void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, struct rxe_tx *tx);

/* ---- rxe_req.c / rxe_comp.c: requester and completer ---- */

/* the requester's state in struct rxe_qp; rxe_req.h */
void rxe_req_init(struct rxe_qp *qp);
/* after ops.modify_qp stored @attr (@mask) and the new state */
void rxe_req_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
		    int mask);
/* a UD/UC QP in RTS: the look its last doorbell queued has run (sleeps) */
void rxe_req_drain_doorbell(struct rxe_qp *qp);
/* stop and forget everything (QP leaving the pool, before its rings) */
void rxe_req_cleanup(struct rxe_qp *qp);
/* WQEs were posted, or the QP changed state: look at the send queue */
void rxe_req_kick(struct rxe_qp *qp);
/* the same, but a running requester looks again instead (any context) */
void rxe_req_note(struct rxe_qp *qp);
/*
 * A user doorbell (sleepable, no lock held): run the requester in the
 * caller when this CPU may send for @qp (rxe_wq above), else queue it.
 */
void rxe_req_doorbell(struct rxe_qp *qp);
/* a response packet (ACK, NAK, read response, atomic ACK) for @qp */
void rxe_comp_rcv(struct rxe_qp *qp, struct sk_buff *skb);

/* ---- rxe_resp.c: responder ---- */

void rxe_resp_init(struct rxe_qp *qp);
void rxe_resp_modify(struct rxe_qp *qp, const struct ib_qp_attr *attr,
		     int mask);
void rxe_resp_cleanup(struct rxe_qp *qp);
/* a request packet for @qp; @tx as for rxe_rcv() */
void rxe_resp_rcv(struct rxe_qp *qp, struct sk_buff *skb, struct rxe_tx *tx);
/* run the responder of @tx->resp_qp now, and drop its reference */
void rxe_resp_run_deferred(struct rxe_tx *tx);

/* ---- rxe_mr_copy.c: memory access for the data path ---- */

enum rxe_copy_dir {
	RXE_COPY_TO_MR,		/* buf -> memory */
	RXE_COPY_FROM_MR,	/* memory -> buf */
};

/*
 * Copy @len bytes between @buf and [@iova, @iova + @len) of a valid @mr.
 * The range must be inside the MR: 0 or -EFAULT.
 */
int rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u32 len,
		enum rxe_copy_dir dir);

/* ---- rxe_odp.c: on-demand paging of user MRs; every call may sleep ---- */

/*
 * Back @mr by [@start, @start + @length) of the caller's address space,
 * nothing pinned: 0 (mr->odp set), -EINVAL, -EFAULT or -ENOMEM.
 */
int rxe_odp_reg(struct rxe_mr *mr, u64 start, u64 length, int access);
/* undo rxe_odp_reg() once nothing uses @mr; nothing without mr->odp */
void rxe_odp_release(struct rxe_mr *mr);
/*
 * rxe_mr_copy() for an ODP MR whose state and range the caller checked:
 * missing pages are faulted in.  0 or -EFAULT.
 */
int rxe_odp_copy(struct rxe_mr *mr, u64 iova, u8 *buf, u32 len,
		 enum rxe_copy_dir dir);
/*
 * @op on the aligned, writable 8 bytes at @iova (checked by the caller
 * against the MR) while its page stays mapped: 0, -EINVAL (misaligned)
 * or -EFAULT.
 */
int rxe_odp_word(struct rxe_mr *mr, u64 iova,
		 void (*op)(u64 *word, void *arg), void *arg);

/*
 * Copy @len bytes between @buf and the SGE list of @dma starting at its
 * cursor (cur_sge, sge_offset), advancing the cursor and resid.  Each
 * lkey must name a valid MR of @pd allowing @access (0 for local read,
 * IB_ACCESS_LOCAL_WRITE to write): 0, -EINVAL when the list is too
 * short, -EACCES on a key, PD, access or bounds violation.
 */
int rxe_dma_copy(struct rxe_pd *pd, int access, struct rxe_dma_info *dma,
		 void *buf, u32 len, enum rxe_copy_dir dir);

/*
 * The MR behind @rkey (an MR's or a bound MW's) for remote access by
 * @qp to [@iova, @iova + @len) with @access (IB_ACCESS_REMOTE_*):
 * checks state, PD (and for type-2 MWs the QP), range and rights.
 * Returns the MR with a reference (rxe_elem_put(&mr->elem)), or NULL.
 */
struct rxe_mr *rxe_rkey_get(struct rxe_qp *qp, u32 rkey, u64 iova, u64 len,
			    int access);
/*
 * The same, for a zero-based type-2 window too: @iova is the address the
 * requester named and becomes the address inside the returned MR.
 * (rxe_rkey_get() refuses a window whose addresses are moved.)
 */
struct rxe_mr *rxe_rkey_iova_get(struct rxe_qp *qp, u32 rkey, u64 *iova,
				 u64 len, int access);
/* the same for all of the MR or window @rkey names (a FLUSH of a region) */
struct rxe_mr *rxe_rkey_region_get(struct rxe_qp *qp, u32 rkey, int access);

/*
 * 8-byte atomic at @iova of @mr (aligned, inside): compare-and-swap
 * (RXE_OP_CMP_SWAP) or fetch-and-add.  @orig gets the old value.  The
 * values are host-order u64; the memory is read and written as host u64,
 * as the application sees it.  0, -EFAULT (range) or -EINVAL (alignment).
 */
int rxe_mr_atomic(struct rxe_mr *mr, u64 iova, u8 op, u64 compare_add,
		  u64 swap, u64 *orig);
/*
 * RDMA ATOMIC WRITE: the 8 bytes at @value (as they came on the wire) to
 * @iova of @mr in one 64-bit store, after all earlier stores.  0,
 * -EINVAL (misaligned) or -EFAULT (not valid, out of range, read-only).
 */
int rxe_mr_atomic_write(struct rxe_mr *mr, u64 iova, const u8 *value);

#endif /* _RXE_DP_H */
