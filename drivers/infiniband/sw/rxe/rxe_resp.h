/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The receive side of a QP: responder state (rxe_resp.c), embedded in
 * struct rxe_qp as qp->resp.
 */
#ifndef _RXE_RESP_H
#define _RXE_RESP_H

#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <uapi/rdma/rdma_user_rxe.h>

#include "rxe_param.h"

/* a receive WQE as the responder keeps it: header and the largest SGE list */
#define RXE_RESP_WQE_BYTES	(sizeof(struct rxe_recv_wqe) + \
				 RXE_MAX_SGE * sizeof(struct rxe_sge))

/* what kind of multi-packet message is in progress */
enum rxe_resp_msg {
	RXE_RESP_MSG_NONE,
	RXE_RESP_MSG_SEND,
	RXE_RESP_MSG_WRITE,
};

/*
 * A responder resource: an executed RDMA READ or atomic, kept to answer
 * its duplicates (IBA 9.7.5.1.3 / C9-116).  op 0: unused.
 */
struct rxe_resp_res {
	u8 op;			/* RXE_OP_READ_REQ, _CMP_SWAP, ... */
	u32 first_psn;
	u32 last_psn;		/* of the last response packet */
	u32 rkey;
	u64 va;			/* requester's address (read) */
	u32 length;		/* read length */
	u64 orig;		/* atomic: the original value returned */
};

struct rxe_resp {
	struct work_struct work;
	/* requests from rxe_rcv(), no QP reference (rxe_dp.h) */
	struct sk_buff_head req_pkts;

	/* the rest: under @mutex (the work item; modify) */
	struct mutex mutex;
	u32 psn;		/* expected PSN */
	u32 msn;		/* completed messages (RC) */
	enum rxe_resp_msg msg;
	bool nak_sent;		/* RC: sequence NAK sent, dropping */
	bool dup_ack;		/* RC: duplicates seen, ACK at the end of the run */
	bool drop_msg;		/* UC: dropping until a FIRST/ONLY */
	u32 msg_len;		/* bytes of the current message so far */
	/* RDMA WRITE in progress: next address, key and bytes still due */
	u64 write_va;
	u32 write_rkey;
	u32 write_resid;
	u32 write_len;		/* the RETH DMA length */

	/* receive WQE in use: wqe_taken under qp->rq.lock (see rxe_post.c) */
	bool wqe_taken;
	u64 wqe_buf[RXE_RESP_WQE_BYTES / sizeof(u64)];	/* a private copy */

	/* read/atomic responder resources, a ring */
	struct rxe_resp_res *res;
	u32 num_res;
	u32 res_next;
};

static inline struct rxe_recv_wqe *rxe_resp_wqe(struct rxe_resp *resp)
{
	return (struct rxe_recv_wqe *)resp->wqe_buf;
}

struct rxe_qp;

/*
 * rxe_post.c, the RQ's consumers (responder and flush) in WQE order:
 * take the oldest RQ WQE into qp->resp's copy (0, or -EAGAIN when the RQ
 * is empty or being flushed); an SRQ WQE, taken with rxe_srq_consume(),
 * is registered with rxe_rq_hold().  rxe_rq_complete_begin() asks to
 * post the CQE of the held WQE: false when a flush completed it instead;
 * after true, post it and call rxe_rq_complete_end().
 */
int rxe_rq_take(struct rxe_qp *qp);
void rxe_rq_hold(struct rxe_qp *qp);
bool rxe_rq_complete_begin(struct rxe_qp *qp);
void rxe_rq_complete_end(struct rxe_qp *qp);
/* forget the held WQE (RESET) */
void rxe_rq_forget(struct rxe_qp *qp);

#endif /* _RXE_RESP_H */
