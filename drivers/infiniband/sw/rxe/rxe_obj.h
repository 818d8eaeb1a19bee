/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe's verbs objects.  Core allocates ucontext/PD/MW/CQ/QP/SRQ/AH with
 * the ib_ object first (INIT_RDMA_OBJ_SIZE); MRs are ours.  Objects that
 * are found by number (keys, QPN, SRQ number, AH number) are in a
 * per-device rxe_pool.  Documentation/rxe/index.rst describes the rules.
 */
#ifndef _RXE_OBJ_H
#define _RXE_OBJ_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/rdma_user_rxe.h>

#include "rxe_pool.h"
#include "rxe_queue.h"
#include "rxe_runner.h"
#include "rxe_req.h"
#include "rxe_resp.h"

struct rxe_dev;

struct rxe_ucontext {
	struct ib_ucontext ibuc;
};

struct rxe_pd {
	struct ib_pd ibpd;
	struct rxe_elem elem;
};

struct rxe_ah {
	struct ib_ah ibah;
	struct rxe_elem elem;		/* index = ah_num of UD WQEs */
	struct rxe_av av;
};

struct rxe_cq {
	struct ib_cq ibcq;
	struct rxe_elem elem;
	struct mutex resize_mutex;	/* one resize at a time; outside lock */
	spinlock_t lock;
	struct rxe_queue *queue;	/* replaced under both */
	u8 notify;			/* IB_CQ_SOLICITED / _NEXT_COMP armed */
	bool is_user;
};

/* a CQE slot: kernel CQs keep ib_wc, user CQs the uapi ib_uverbs_wc */
union rxe_cqe {
	struct ib_wc ibwc;
	struct ib_uverbs_wc uwc;
};

struct rxe_srq {
	struct ib_srq ibsrq;
	struct rxe_elem elem;		/* index = srq_num */
	struct mutex modify_mutex;	/* one modify at a time; outside lock */
	spinlock_t lock;
	struct rxe_queue *queue;	/* replaced under both */
	u32 max_sge;
	u32 limit;			/* armed while non-zero */
	bool is_user;
};

struct rxe_wq {
	spinlock_t lock;
	struct rxe_queue *queue;	/* NULL: an RQ replaced by an SRQ */
	/*
	 * One consumer at a time walks the ring (rxe_runner.h, under
	 * @lock), so completions keep WQE order while CQEs are posted
	 * unlocked.
	 */
	struct rxe_runner run;
	u32 max_wr;
	u32 max_sge;
	u32 max_inline;
};

struct rxe_qp {
	struct ib_qp ibqp;
	struct rxe_elem elem;		/* index = qp_num (but GSI: 1) */
	bool is_user;
	int cpu;			/* where its packets leave (rxe_dp.h) */
	enum ib_sig_type sq_sig_type;
	struct rxe_wq sq;		/* consumed by the requester */
	struct rxe_wq rq;		/* consumed by the responder */
	/* state and attributes, under state_lock */
	spinlock_t state_lock;
	enum ib_qp_state state;
	bool sq_draining;
	struct ib_qp_attr attr;
	struct rxe_av pri_av;
	struct rxe_av alt_av;
	/* the data path (rxe_dp.h): send side and receive side */
	struct rxe_req req;
	struct rxe_resp resp;
};

enum rxe_mr_state {
	RXE_MR_FREE,			/* fast-reg MR before IB_WR_REG_MR */
	RXE_MR_INVALID,
	RXE_MR_VALID,
};

struct rxe_mr {
	struct ib_mr ibmr;
	struct rxe_elem elem;
	spinlock_t lock;
	enum rxe_mr_state state;
	struct ib_umem *umem;
	/* on-demand paging (rxe_odp.c) instead of umem and pages; set
	 * before the MR is visible, cleared when nothing uses it
	 */
	struct rxe_odp *odp;
	/* page list: user pages (kernel addresses) or fast-reg entries */
	u64 *pages;
	u32 npages;
	u32 max_pages;
	unsigned int page_shift;
	atomic_t num_mw;		/* windows bound to it */
	/*
	 * Set under lock with num_mw seen zero, by a deregistration (for
	 * good) or a reregistration (until it ends): a bind tests it and
	 * raises num_mw under the same lock, so no window can link to an
	 * MR that is going away or changing.
	 */
	bool no_bind;
};

enum rxe_mw_state {
	RXE_MW_FREE,
	RXE_MW_VALID,
	RXE_MW_INVALID,
};

struct rxe_mw {
	struct ib_mw ibmw;
	struct rxe_elem elem;
	spinlock_t lock;
	enum rxe_mw_state state;
	struct rxe_mr *mr;		/* bound to, with a reference */
	struct rxe_qp *qp;		/* type 2: the QP it is bound through */
	u64 addr;
	u64 length;
	int access;
};

static inline struct rxe_ucontext *to_ruc(struct ib_ucontext *uc)
{
	return container_of(uc, struct rxe_ucontext, ibuc);
}

static inline struct rxe_pd *to_rpd(struct ib_pd *pd)
{
	return container_of(pd, struct rxe_pd, ibpd);
}

static inline struct rxe_ah *to_rah(struct ib_ah *ah)
{
	return container_of(ah, struct rxe_ah, ibah);
}

static inline struct rxe_cq *to_rcq(struct ib_cq *cq)
{
	return container_of(cq, struct rxe_cq, ibcq);
}

static inline struct rxe_srq *to_rsrq(struct ib_srq *srq)
{
	return container_of(srq, struct rxe_srq, ibsrq);
}

static inline struct rxe_qp *to_rqp(struct ib_qp *qp)
{
	return container_of(qp, struct rxe_qp, ibqp);
}

static inline struct rxe_mr *to_rmr(struct ib_mr *mr)
{
	return container_of(mr, struct rxe_mr, ibmr);
}

static inline struct rxe_mw *to_rmw(struct ib_mw *mw)
{
	return container_of(mw, struct rxe_mw, ibmw);
}

/* the user context of @udata's caller, or NULL for kernel objects */
struct rxe_ucontext *rxe_udata_uctx(struct ib_device *dev,
				    struct ib_udata *udata);

/* rxe_mmap.c */
int rxe_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata);
void rxe_dealloc_ucontext(struct ib_ucontext *uctx);
void rxe_disassociate_ucontext(struct ib_ucontext *uctx);
int rxe_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);

/* rxe_pd_mr.c */
int rxe_alloc_pd(struct ib_pd *pd, struct ib_udata *udata);
int rxe_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata);
struct ib_mr *rxe_get_dma_mr(struct ib_pd *pd, int access);
struct ib_mr *rxe_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *rxe_rereg_user_mr(struct ib_mr *mr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *pd, struct ib_udata *udata);
int rxe_dereg_mr(struct ib_mr *mr, struct ib_udata *udata);
struct ib_mr *rxe_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			   u32 max_num_sg);
int rxe_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
/* MR by lkey/rkey with a reference (rxe_elem_put(&mr->elem)), or NULL */
struct rxe_mr *rxe_mr_lookup(struct rxe_dev *rxe, u32 key);
/* IB_WR_REG_MR / IB_WR_LOCAL_INV on @mr: 0 or a WC status */
int rxe_mr_fast_reg(struct rxe_pd *pd, struct rxe_mr *mr, u32 key,
		    int access);
int rxe_mr_invalidate(struct rxe_pd *pd, u32 key);

/* rxe_mw.c */
int rxe_alloc_mw(struct ib_mw *mw, struct ib_udata *udata);
int rxe_dealloc_mw(struct ib_mw *mw);
/* IB_WR_BIND_MW / IB_WR_LOCAL_INV of an MW from @qp: 0 or a WC status */
int rxe_bind_mw(struct rxe_qp *qp, u32 mw_rkey, u32 new_rkey, u32 mr_lkey,
		u64 addr, u64 length, int access);
int rxe_invalidate_mw(struct rxe_qp *qp, u32 rkey, bool remote);

/* rxe_cq.c */
int rxe_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int rxe_resize_cq(struct ib_cq *cq, int cqe, struct ib_udata *udata);
int rxe_destroy_cq(struct ib_cq *cq, struct ib_udata *udata);
int rxe_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags);
int rxe_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc);
/*
 * Post @wc (wc->qp set) to @cq and signal an armed CQ; -EOVERFLOW, after
 * raising IB_EVENT_CQ_ERR, when the CQ is full.
 */
int rxe_cq_post(struct rxe_cq *cq, const struct ib_wc *wc, bool solicited);

/* rxe_qp.c */
int rxe_create_qp(struct ib_qp *qp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int rxe_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int rxe_query_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int rxe_destroy_qp(struct ib_qp *qp, struct ib_udata *udata);
/* move @qp to ERR on a local error: event, flush (takes no lock held) */
void rxe_qp_error(struct rxe_qp *qp, enum ib_event_type event);
/* move @qp to ERR and flush, without an event: false if already ERR/RESET */
bool rxe_qp_to_err(struct rxe_qp *qp);
/* flush every WQE of SQ and RQ with IB_WC_WR_FLUSH_ERR (QP in ERR) */
void rxe_qp_flush(struct rxe_qp *qp);
/* the QP's current state */
enum ib_qp_state rxe_qp_state(struct rxe_qp *qp);

/* rxe_post.c */
int rxe_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int rxe_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
/* post @wr chain to a kernel-produced RQ/SRQ ring, under its lock */
int rxe_post_recv_ring(struct rxe_queue *q, const struct ib_recv_wr *wr,
		       u32 max_sge, const struct ib_recv_wr **bad_wr);
/* run the local WQEs at the head of the SQ (and flush in ERR) */
void rxe_sq_process(struct rxe_qp *qp);

/* rxe_srq.c */
int rxe_create_srq(struct ib_srq *srq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int rxe_modify_srq(struct ib_srq *srq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int rxe_query_srq(struct ib_srq *srq, struct ib_srq_attr *attr);
int rxe_destroy_srq(struct ib_srq *srq, struct ib_udata *udata);
int rxe_post_srq_recv(struct ib_srq *srq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
/*
 * The responder took the oldest SRQ WQE (copied to @wqe, up to @len bytes):
 * consumes it and raises IB_EVENT_SRQ_LIMIT_REACHED once when the count
 * drops below an armed limit.  -EAGAIN when the SRQ is empty.
 */
int rxe_srq_consume(struct rxe_srq *srq, void *wqe, size_t len);

/* rxe_ah.c */
int rxe_create_ah(struct ib_ah *ah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int rxe_destroy_ah(struct ib_ah *ah, u32 flags);
/* fill @av from a resolved @attr */
void rxe_av_from_attr(struct rxe_av *av, const struct rdma_ah_attr *attr);
/* AH by number with a reference, or NULL */
struct rxe_ah *rxe_ah_lookup(struct rxe_dev *rxe, u32 ah_num);

#endif /* _RXE_OBJ_H */
