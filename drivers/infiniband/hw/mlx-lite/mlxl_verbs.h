/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: kernel verbs objects made by firmware commands
 * (Documentation/mlx-lite/objects.rst).  Each object struct embeds the
 * ib_ object first; ib_core allocates PD, CQ, QP, SRQ and AH memory of
 * the sizes in mlxl_verbs_ops, the driver allocates MRs.
 *
 * Rules:
 *  - every command runs under mib->cmd_lock (mlxl_obj_cmd());
 *  - an object's DMA memory is freed only after the firmware let go of
 *    it (its DESTROY succeeded); a refused destroy keeps the memory;
 *  - handles: pdn, mkey index, cqn, srqn and qpn as the firmware gave
 *    them; the GSI QP's ib qp_num is 1, its firmware qpn is qp->qpn.
 */
#ifndef MLXL_VERBS_H
#define MLXL_VERBS_H

#include <rdma/ib_verbs.h>
#include "mlxl_dev.h"
#include "mlxl_qpc.h"
#include "mlxl_wqe.h"

struct mlxl_ib;

/* one posted work request (mlxl_dp.c) */
struct mlxl_wq_slot {
	u64 wr_id;
	u8 nbb;			/* SQ: WQEBBs of the WQE starting here */
	u8 sig;			/* SQ: completes with a CQE */
	u8 wc_op;		/* SQ: its completion's opcode */
};

/*
 * A work queue's software state (mlxl_dp.c): head is the producer
 * counter (WQEBBs for an SQ, WQEs for an RQ/SRQ) under lock; tail is the
 * consumer's, moved by poll_cq under its CQ's lock.
 */
struct mlxl_wq {
	spinlock_t lock;
	struct mlxl_wq_slot *slot;	/* 2^log_size */
	u32 log_size;
	u32 head, tail;
	u32 bf_off;			/* SQ: the BlueFlame half to ring */
	u32 bf_half;
};

struct mlxl_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

struct mlxl_mr {
	struct ib_mr ibmr;
	u32 index;			/* mkey index */
	u32 max_pages;			/* MTT MRs: entries of the MKey */
	u32 npages;			/* entries map_mr_sg filled */
	u64 *page_list;			/* page addresses, max_pages of them */
	struct mlxl_dma scratch;	/* what unmapped MTT entries point at */
};

/* a CQ's hardware part, also an SRQ's private CQ */
struct mlxl_cq_hw {
	u32 cqn;
	u32 log_size;
	struct mlxl_dma buf;
	struct mlxl_dma db;		/* doorbell record: ci, arm */
	u32 arm_sn;
};

struct mlxl_cq {
	struct ib_cq ibcq;
	struct mlxl_cq_hw hw;
	spinlock_t lock;		/* poll, arm; the QP lists */
	u32 ci;
	struct list_head send_qps, recv_qps;	/* mlxl_qp.send_node... */
};

struct mlxl_srq {
	struct ib_srq ibsrq;
	u32 srqn;
	u32 max_wr;
	u32 max_sge;
	struct mlxl_cq_hw cq;		/* the firmware's srqc.cqn */
	struct mlxl_dma buf;
	struct mlxl_dma db;
	u32 log_stride;
	struct mlxl_wq rq;
};

struct mlxl_ah {
	struct ib_ah ibah;
	struct mlxl_av av;
};

struct mlxl_qp {
	struct ib_qp ibqp;
	u32 qpn;			/* the firmware's */
	u8 st;				/* MLXL_QPT_* */
	struct ib_qp_cap cap;
	u32 log_sq_size;		/* WQEBBs */
	u32 log_rq_size;
	u32 log_rq_stride;
	u32 sq_off;			/* the SQ after the RQ in buf */
	struct mlxl_dma buf;
	struct mlxl_dma db;		/* doorbell record: rq, sq */
	enum ib_sig_type sq_sig_type;
	/* data path (mlxl_dp.c) */
	struct mlxl_wq sq, rq;
	struct mlxl_cq *scq, *rcq;
	struct list_head send_node, recv_node;	/* on the CQs' lists */
	u8 wqe[MLXL_MAX_WQE_BYTES];		/* the WQE being built */
};

static inline struct mlxl_pd *to_mpd(struct ib_pd *pd)
{
	return container_of(pd, struct mlxl_pd, ibpd);
}

static inline struct mlxl_cq *to_mcq(struct ib_cq *cq)
{
	return container_of(cq, struct mlxl_cq, ibcq);
}

static inline struct mlxl_srq *to_msrq(struct ib_srq *srq)
{
	return container_of(srq, struct mlxl_srq, ibsrq);
}

static inline struct mlxl_qp *to_mqp(struct ib_qp *qp)
{
	return container_of(qp, struct mlxl_qp, ibqp);
}

extern const struct ib_device_ops mlxl_verbs_ops;

/* the device's object limits from the capabilities (before registering) */
void mlxl_verbs_attrs(struct mlxl_ib *mib);
/* RoCE on in the vport, before registering; off before the HCA goes */
int mlxl_verbs_hw_init(struct mlxl_ib *mib);
void mlxl_verbs_hw_fini(struct mlxl_ib *mib);

/*
 * Asynchronous object events (Documentation/mlx-lite/events.rst): the
 * events layer's async hook (interrupt context) finds the CQ, QP or SRQ
 * by its firmware number and calls its handler under the table's lock.
 * An object is in its table from its CREATE's success until before its
 * DESTROY is sent; xa_erase waits for a handler that runs on it.
 */
void mlxl_async_init(struct mlxl_ib *mib);
void mlxl_async(void *owner, u8 type, u32 obj);

/* shared by mlxl_verbs.c and mlxl_qp.c */
int mlxl_obj_cmd(struct mlxl_ib *mib, u32 in_len, u32 out_len);
void mlxl_obj_cmd_err(struct mlxl_ib *mib, const char *what, int err);
int mlxl_buf_alloc(struct mlxl_ib *mib, struct mlxl_dma *d, u32 size);
void mlxl_buf_free(struct mlxl_ib *mib, struct mlxl_dma *d);
void mlxl_put_pas(u8 *in, u32 off, const struct mlxl_dma *d, u32 npages);
void mlxl_av_from_ah(struct mlxl_av *av, const struct rdma_ah_attr *a);

int mlxl_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		   struct ib_udata *udata);
int mlxl_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata);
int mlxl_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_qp_init_attr *init);
int mlxl_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);

/* data path (mlxl_dp.c) */
extern const struct ib_device_ops mlxl_dp_ops;
void mlxl_dp_cq_init(struct mlxl_cq *cq);
bool mlxl_dp_cq_busy(struct mlxl_cq *cq);
int mlxl_dp_wq_alloc(struct mlxl_wq *wq, u32 log_size);
void mlxl_dp_wq_free(struct mlxl_wq *wq);
int mlxl_dp_qp_init(struct mlxl_ib *mib, struct mlxl_qp *qp);
void mlxl_dp_qp_attach(struct mlxl_qp *qp);
void mlxl_dp_qp_detach(struct mlxl_qp *qp);
void mlxl_dp_qp_fini(struct mlxl_qp *qp);

#endif /* MLXL_VERBS_H */
