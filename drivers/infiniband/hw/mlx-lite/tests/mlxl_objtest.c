// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx_lite_objtest: every kernel verbs object of an mlx-lite device made
 * and destroyed through ib_core's kernel API, at insmod time.
 *
 *   insmod mlx_lite_objtest.ko dev=mlxl0
 *
 * Each step logs "mlx_lite_objtest: <step>: ok" or "...: FAIL <why>"; the
 * last line is "mlx_lite_objtest: PASS <n> steps" or "FAIL <m> of <n>
 * steps", and insmod fails (-EIO) on any failure, so the module stays
 * loaded only when everything passed.  Illegal QP transitions are
 * tried too: each must be refused before the firmware sees it (the
 * model's refusal count stays 0; the VM scenario checks that).
 * RC INIT->RTR->RTS names a source GID the firmware must hold in its RoCE
 * address table (the driver programs it through SET_ROCE_ADDRESS); with
 * rc_connect=0 it is logged as skipped, and a device without a RoCEv2 GID
 * fails the step.
 *
 *   insmod mlx_lite_objtest.ko dev=mlxl0 hold=1
 *
 * instead makes a CQ, an SRQ and an RC QP on it, each with an event
 * handler, and keeps them until rmmod: their firmware numbers are the
 * read-only parameters cqn, srqn and qpn, and the events their handlers
 * got are counted in cq_events (IB_EVENT_CQ_ERR on that CQ), qp_events
 * and srq_events (bit e set: ib_event_type e on that QP/SRQ) and
 * bad_events (an event with the wrong object, context or type).  The VM
 * scenario raises the model's events (fnN/inject "async=T:N") and reads
 * them.
 */
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include "../mlxl_verbs.h"

static char *dev = "mlxl0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "the mlx-lite RDMA device to test");
static bool rc_connect = true;
module_param(rc_connect, bool, 0444);
MODULE_PARM_DESC(rc_connect, "also RC INIT->RTR->RTS (needs the firmware's GID table programmed)");

static bool hold;
module_param(hold, bool, 0444);
MODULE_PARM_DESC(hold, "keep a CQ, SRQ and QP with event handlers until rmmod");
static uint cqn, srqn, qpn;
module_param(cqn, uint, 0444);
module_param(srqn, uint, 0444);
module_param(qpn, uint, 0444);
static uint cq_events, qp_events, srq_events, bad_events;
module_param(cq_events, uint, 0444);
module_param(qp_events, uint, 0444);
module_param(srq_events, uint, 0444);
module_param(bad_events, uint, 0444);

#define T_MAX_GIDS	64
#define T_FRMR_PAGES	8
#define T_QKEY		0x11111111u
#define T_GSI_QKEY	0x80010000u

struct objtest {
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_mr *dma_mr;
	struct ib_mr *frmr;
	struct ib_cq *cq;
	struct ib_srq *srq;
	int v2_gid;			/* a RoCEv2 GID index, or -1 */
	union ib_gid gid;
	u32 steps;
	u32 fails;
};

static void step(struct objtest *t, const char *name, bool ok, long val)
{
	t->steps++;
	if (ok) {
		pr_info("mlx_lite_objtest: %s: ok\n", name);
		return;
	}
	t->fails++;
	pr_err("mlx_lite_objtest: %s: FAIL (%ld)\n", name, val);
}

#define STEP(t, name, cond, val)	step((t), (name), (cond), (long)(val))

static void find_v2_gid(struct objtest *t)
{
	struct rdma_gid_entry e;
	int i;

	t->v2_gid = -1;
	for (i = 0; i < T_MAX_GIDS; i++) {
		if (rdma_query_gid_entry(t->ibdev, 1, i, &e))
			continue;
		if (e.gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
			t->v2_gid = i;
			t->gid = e.gid;
			return;
		}
	}
}

static int to_state(struct ib_qp *qp, enum ib_qp_state s)
{
	struct ib_qp_attr a = { .qp_state = s };

	return ib_modify_qp(qp, &a, IB_QP_STATE);
}

static bool query_state(struct ib_qp *qp, enum ib_qp_state s)
{
	struct ib_qp_attr a;
	struct ib_qp_init_attr ia;

	return !ib_query_qp(qp, &a, IB_QP_STATE, &ia) && a.qp_state == s;
}

/* ---- PD, MRs, CQ, SRQ */

static void t_base(struct objtest *t)
{
	struct ib_cq_init_attr ca = { .cqe = 15 };
	struct ib_srq_init_attr sa = {
		.attr = { .max_wr = 16, .max_sge = 1, .srq_limit = 4 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_srq_attr q;
	struct scatterlist sg[T_FRMR_PAGES + 1];
	int i, n;

	t->pd = ib_alloc_pd(t->ibdev, 0);
	STEP(t, "alloc_pd", !IS_ERR(t->pd), PTR_ERR_OR_ZERO(t->pd));
	if (IS_ERR(t->pd)) {
		t->pd = NULL;
		return;
	}
	STEP(t, "pd local_dma_lkey (internal DMA MR)",
	     t->pd->internal_mr && t->pd->local_dma_lkey, t->pd->local_dma_lkey);

	t->dma_mr = ib_get_dma_mr(t->pd, IB_ACCESS_LOCAL_WRITE |
				  IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE);
	STEP(t, "get_dma_mr", !IS_ERR(t->dma_mr), PTR_ERR_OR_ZERO(t->dma_mr));
	if (IS_ERR(t->dma_mr))
		t->dma_mr = NULL;
	else
		STEP(t, "dma_mr keys", t->dma_mr->lkey &&
		     t->dma_mr->lkey == t->dma_mr->rkey &&
		     t->dma_mr->lkey != t->pd->local_dma_lkey, t->dma_mr->lkey);
	STEP(t, "get_dma_mr remote write without local write refused",
	     PTR_ERR(ib_get_dma_mr(t->pd, IB_ACCESS_REMOTE_WRITE)) == -EINVAL, 0);

	t->frmr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, T_FRMR_PAGES);
	STEP(t, "alloc_mr MEM_REG", !IS_ERR(t->frmr), PTR_ERR_OR_ZERO(t->frmr));
	if (IS_ERR(t->frmr)) {
		t->frmr = NULL;
	} else {
		/* one page more than the MR has: the last is not taken */
		sg_init_table(sg, T_FRMR_PAGES + 1);
		for (i = 0; i <= T_FRMR_PAGES; i++) {
			sg_dma_address(&sg[i]) = 0x40000000ull + 0x10000ull * i;
			sg_dma_len(&sg[i]) = PAGE_SIZE;
		}
		n = ib_map_mr_sg(t->frmr, sg, T_FRMR_PAGES + 1, NULL, PAGE_SIZE);
		STEP(t, "map_mr_sg takes max_num_sg pages", n == T_FRMR_PAGES, n);
		n = ib_map_mr_sg(t->frmr, sg, 2, NULL, PAGE_SIZE);
		STEP(t, "map_mr_sg 2 pages", n == 2 &&
		     t->frmr->length == 2 * PAGE_SIZE &&
		     t->frmr->iova == 0x40000000ull, n);
	}
	STEP(t, "alloc_mr over the limit refused",
	     IS_ERR(ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 1u << 20)), 0);

	t->cq = ib_create_cq(t->ibdev, NULL, NULL, NULL, &ca);
	STEP(t, "create_cq", !IS_ERR(t->cq), PTR_ERR_OR_ZERO(t->cq));
	if (IS_ERR(t->cq)) {
		t->cq = NULL;
		return;
	}
	STEP(t, "cq capacity", t->cq->cqe >= 15, t->cq->cqe);
	n = ib_req_notify_cq(t->cq, IB_CQ_NEXT_COMP);
	STEP(t, "req_notify_cq", n == 0, n);
	n = ib_resize_cq(t->cq, 63);
	STEP(t, "resize_cq up to 63", !n && t->cq->cqe >= 63, n ? n : t->cq->cqe);
	n = ib_resize_cq(t->cq, 15);
	STEP(t, "resize_cq down to 15", !n && t->cq->cqe >= 15 && t->cq->cqe < 63,
	     n ? n : t->cq->cqe);
	n = ib_resize_cq(t->cq, t->ibdev->attrs.max_cqe + 1);
	STEP(t, "resize_cq beyond max_cqe refused", n == -EINVAL, n);

	t->srq = ib_create_srq(t->pd, &sa);
	STEP(t, "create_srq", !IS_ERR(t->srq), PTR_ERR_OR_ZERO(t->srq));
	if (IS_ERR(t->srq)) {
		t->srq = NULL;
		return;
	}
	n = ib_query_srq(t->srq, &q);
	STEP(t, "query_srq", !n && q.srq_limit == 4 && q.max_wr >= 16, n ? n : q.srq_limit);
	q.srq_limit = 8;
	n = ib_modify_srq(t->srq, &q, IB_SRQ_LIMIT);
	STEP(t, "modify_srq limit 8 (ARM_RQ)", n == 0, n);
	n = ib_query_srq(t->srq, &q);
	STEP(t, "query_srq limit 8", !n && q.srq_limit == 8, n ? n : q.srq_limit);
	q.srq_limit = q.max_wr + 1;
	n = ib_modify_srq(t->srq, &q, IB_SRQ_LIMIT);
	STEP(t, "modify_srq limit beyond max_wr refused", n == -EINVAL, n);
	q.max_wr = 64;
	n = ib_modify_srq(t->srq, &q, IB_SRQ_MAX_WR);
	STEP(t, "modify_srq max_wr (resize) refused", n == -EINVAL, n);
}

/* ---- QPs */

static struct ib_qp *make_qp(struct objtest *t, enum ib_qp_type type,
			     struct ib_srq *srq, const char *name)
{
	struct ib_qp_init_attr ia = {
		.send_cq = t->cq,
		.recv_cq = t->cq,
		.srq = srq,
		.cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 16,
			 .max_send_sge = 1, .max_recv_sge = srq ? 0 : 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = type,
		.port_num = type == IB_QPT_GSI ? 1 : 0,
	};
	struct ib_qp *qp = ib_create_qp(t->pd, &ia);

	STEP(t, name, !IS_ERR(qp), PTR_ERR_OR_ZERO(qp));
	if (IS_ERR(qp))
		return NULL;
	STEP(t, "create_qp caps", ia.cap.max_send_wr >= 16 &&
	     (srq || ia.cap.max_recv_wr >= 16), ia.cap.max_send_wr);
	return qp;
}

static void end_qp(struct objtest *t, struct ib_qp *qp, const char *what)
{
	int n;

	n = to_state(qp, IB_QPS_ERR);
	STEP(t, "modify to ERR", !n && query_state(qp, IB_QPS_ERR), n);
	n = to_state(qp, IB_QPS_RESET);
	STEP(t, "modify to RESET", !n && query_state(qp, IB_QPS_RESET), n);
	n = ib_destroy_qp(qp);
	STEP(t, what, !n, n);
}

static void t_rc_connect(struct objtest *t, struct ib_qp *qp)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_RTR,
		.path_mtu = IB_MTU_1024,
		.dest_qp_num = qp->qp_num,
		.rq_psn = 0x123,
		.max_dest_rd_atomic = 4,
		.min_rnr_timer = 12,
	};
	struct ib_qp_attr q;
	struct ib_qp_init_attr ia;
	int n;

	a.ah_attr.ah_flags = IB_AH_GRH;
	a.ah_attr.port_num = 1;
	a.ah_attr.sl = 3;
	a.ah_attr.grh.sgid_index = (u8)t->v2_gid;
	a.ah_attr.grh.dgid = t->gid;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.traffic_class = 0x68;
	a.ah_attr.grh.flow_label = 0x1234;
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			 IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	STEP(t, "RC INIT->RTR", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "RC query after RTR", !n && q.qp_state == IB_QPS_RTR &&
	     q.path_mtu == IB_MTU_1024 && q.dest_qp_num == qp->qp_num &&
	     q.rq_psn == 0x123 && q.max_dest_rd_atomic == 4 &&
	     q.min_rnr_timer == 12 && q.ah_attr.sl == 3 &&
	     q.ah_attr.grh.hop_limit == 64 &&
	     q.ah_attr.grh.traffic_class == 0x68 &&
	     q.ah_attr.grh.flow_label == 0x1234 &&
	     !memcmp(q.ah_attr.grh.dgid.raw, t->gid.raw, 16), n);

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 0x456;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 6;
	a.max_rd_atomic = 4;
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT |
			 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			 IB_QP_MAX_QP_RD_ATOMIC);
	STEP(t, "RC RTR->RTS", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "RC query after RTS", !n && q.qp_state == IB_QPS_RTS &&
	     q.sq_psn == 0x456 && q.timeout == 14 && q.retry_cnt == 7 &&
	     q.rnr_retry == 6 && q.max_rd_atomic == 4, n);

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.min_rnr_timer = 9;
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_MIN_RNR_TIMER);
	STEP(t, "RC RTS->RTS", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "RC query after RTS->RTS", !n && q.min_rnr_timer == 9, n);
	n = to_state(qp, IB_QPS_SQD);
	STEP(t, "RC RTS->SQD not supported (no SQD in the firmware)",
	     n == -EOPNOTSUPP && query_state(qp, IB_QPS_RTS), n);
}

static void t_rc(struct objtest *t)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE,
	};
	struct ib_qp_attr q;
	struct ib_qp_init_attr ia;
	struct ib_qp *qp;
	int n;

	qp = make_qp(t, IB_QPT_RC, NULL, "create_qp RC");
	if (!qp)
		return;
	STEP(t, "RC query in RESET", query_state(qp, IB_QPS_RESET), 0);
	n = to_state(qp, IB_QPS_RTR);
	STEP(t, "RC RESET->RTR refused", n == -EINVAL &&
	     query_state(qp, IB_QPS_RESET), n);
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
			 IB_QP_ACCESS_FLAGS);
	STEP(t, "RC RESET->INIT", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "RC query after INIT", !n && q.qp_state == IB_QPS_INIT &&
	     q.port_num == 1 && q.qp_access_flags == a.qp_access_flags &&
	     ia.qp_type == IB_QPT_RC && ia.send_cq == t->cq, n);
	n = to_state(qp, IB_QPS_RTS);
	STEP(t, "RC INIT->RTS refused", n == -EINVAL &&
	     query_state(qp, IB_QPS_INIT), n);
	n = to_state(qp, IB_QPS_SQE);
	STEP(t, "RC INIT->SQE refused", n == -EINVAL &&
	     query_state(qp, IB_QPS_INIT), n);
	a.qp_access_flags = IB_ACCESS_REMOTE_READ;
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_ACCESS_FLAGS);
	STEP(t, "RC INIT->INIT", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "RC query after INIT->INIT", !n &&
	     q.qp_access_flags == IB_ACCESS_REMOTE_READ, n);

	if (!rc_connect)
		pr_info("mlx_lite_objtest: RC INIT->RTR->RTS: skipped (rc_connect=0)\n");
	else if (t->v2_gid < 0)
		STEP(t, "RC INIT->RTR->RTS: a RoCEv2 GID", false, -ENOENT);
	else
		t_rc_connect(t, qp);
	end_qp(t, qp, "destroy_qp RC");

	if (!t->srq)
		return;
	qp = make_qp(t, IB_QPT_RC, t->srq, "create_qp RC on SRQ");
	if (!qp)
		return;
	n = ib_destroy_srq(t->srq);
	STEP(t, "destroy_srq in use refused", n == -EBUSY, n);
	n = ib_destroy_qp(qp);
	STEP(t, "destroy_qp RC on SRQ", !n, n);
}

static void t_ud(struct objtest *t, enum ib_qp_type type, const char *name)
{
	u32 qkey = type == IB_QPT_GSI ? T_GSI_QKEY : T_QKEY;
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT, .pkey_index = 0, .port_num = 1,
		.qkey = qkey,
	};
	struct ib_qp_attr q;
	struct ib_qp_init_attr ia;
	struct ib_qp *qp;
	int n;

	qp = make_qp(t, type, NULL, name);
	if (!qp)
		return;
	if (type == IB_QPT_GSI)
		STEP(t, "GSI qp_num is 1", qp->qp_num == 1, qp->qp_num);
	/* QP1's port is its creation's: no IB_QP_PORT */
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_QKEY |
			 (type == IB_QPT_GSI ? 0 : IB_QP_PORT));
	STEP(t, "UD RESET->INIT", !n, n);
	n = to_state(qp, IB_QPS_RTS);
	STEP(t, "UD INIT->RTS refused", n == -EINVAL &&
	     query_state(qp, IB_QPS_INIT), n);
	n = to_state(qp, IB_QPS_RTR);
	STEP(t, "UD INIT->RTR", !n, n);
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 0x789;
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN);
	STEP(t, "UD RTR->RTS", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "UD query after RTS", !n && q.qp_state == IB_QPS_RTS &&
	     q.qkey == qkey && q.sq_psn == 0x789 && q.port_num == 1 &&
	     ia.qp_type == type, n);
	a.qkey = qkey + 1;
	n = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_QKEY);
	STEP(t, "UD RTS->RTS qkey", !n, n);
	n = ib_query_qp(qp, &q, IB_QP_STATE, &ia);
	STEP(t, "UD query after RTS->RTS", !n && q.qkey == qkey + 1, n);
	n = to_state(qp, IB_QPS_INIT);
	STEP(t, "UD RTS->INIT refused", n == -EINVAL &&
	     query_state(qp, IB_QPS_RTS), n);
	/* legal for ib_core, but the firmware has no SQD: the driver says so */
	n = to_state(qp, IB_QPS_SQD);
	STEP(t, "UD RTS->SQD not supported", n == -EOPNOTSUPP &&
	     query_state(qp, IB_QPS_RTS), n);
	end_qp(t, qp, type == IB_QPT_GSI ? "destroy_qp GSI" : "destroy_qp UD");
}

/*
 * The function's one GSI QP is the MAD layer's QP1 (made when the device
 * registered, now that the device has a data path): a second is refused
 * by the driver before the firmware sees it.  Without a MAD port QP1 is
 * ours and goes through the UD steps.
 */
static void t_gsi(struct objtest *t)
{
	struct ib_qp_init_attr ia = {
		.send_cq = t->cq,
		.recv_cq = t->cq,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_GSI,
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(t->pd, &ia);

	if (!IS_ERR(qp)) {
		STEP(t, "GSI QP is ours: no MAD port QP1", 1, 0);
		ib_destroy_qp(qp);
		t_ud(t, IB_QPT_GSI, "create_qp GSI");
		return;
	}
	STEP(t, "second GSI QP refused (QP1 is the MAD layer's)",
	     PTR_ERR(qp) == -EBUSY, PTR_ERR(qp));
}

static void t_ah(struct objtest *t)
{
	struct rdma_ah_attr a = {};
	struct ib_ah *ah;

	if (t->v2_gid < 0) {
		pr_info("mlx_lite_objtest: create_ah: skipped (no RoCEv2 GID)\n");
		return;
	}
	a.ah_flags = IB_AH_GRH;
	a.port_num = 1;
	a.grh.sgid_index = (u8)t->v2_gid;
	a.grh.dgid = t->gid;
	a.grh.hop_limit = 64;
	ah = rdma_create_ah(t->pd, &a, RDMA_CREATE_AH_SLEEPABLE);
	STEP(t, "create_ah", !IS_ERR(ah), PTR_ERR_OR_ZERO(ah));
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

static void t_teardown(struct objtest *t)
{
	int n;

	if (t->srq) {
		n = ib_destroy_srq(t->srq);
		STEP(t, "destroy_srq", !n, n);
	}
	if (t->cq) {
		n = ib_destroy_cq(t->cq);
		STEP(t, "destroy_cq", !n, n);
	}
	if (t->frmr) {
		n = ib_dereg_mr(t->frmr);
		STEP(t, "dereg_mr MEM_REG", !n, n);
	}
	if (t->dma_mr) {
		n = ib_dereg_mr(t->dma_mr);
		STEP(t, "dereg_mr DMA", !n, n);
	}
	if (t->pd) {
		n = ib_dealloc_pd(t->pd);
		STEP(t, "dealloc_pd", !n, n);
	}
}

/* ---- held objects for asynchronous events (hold=1) */

static struct objtest held;
static struct ib_qp *held_qp;
static int held_ctx;		/* every handler's context */

static void ev_cq(struct ib_event *e, void *ctx)
{
	if (ctx == &held_ctx && e->event == IB_EVENT_CQ_ERR &&
	    e->device == held.ibdev && e->element.cq == held.cq)
		WRITE_ONCE(cq_events, cq_events + 1);
	else
		WRITE_ONCE(bad_events, bad_events + 1);
}

static void ev_qp(struct ib_event *e, void *ctx)
{
	if (ctx == &held_ctx && e->element.qp == held_qp &&
	    (unsigned int)e->event < 32)
		WRITE_ONCE(qp_events, qp_events | 1u << e->event);
	else
		WRITE_ONCE(bad_events, bad_events + 1);
}

static void ev_srq(struct ib_event *e, void *ctx)
{
	if (ctx == &held_ctx && e->element.srq == held.srq &&
	    (e->event == IB_EVENT_SRQ_ERR ||
	     e->event == IB_EVENT_SRQ_LIMIT_REACHED))
		WRITE_ONCE(srq_events, srq_events | 1u << e->event);
	else
		WRITE_ONCE(bad_events, bad_events + 1);
}

static void hold_release(struct objtest *t)
{
	int n;

	if (held_qp) {
		n = ib_destroy_qp(held_qp);
		STEP(t, "hold: destroy_qp", !n, n);
		held_qp = NULL;
	}
	t_teardown(t);
}

static int hold_make(struct objtest *t)
{
	struct ib_cq_init_attr ca = { .cqe = 15 };
	struct ib_srq_init_attr sa = {
		.event_handler = ev_srq,
		.srq_context = &held_ctx,
		.attr = { .max_wr = 16, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_qp_init_attr ia = {
		.event_handler = ev_qp,
		.qp_context = &held_ctx,
		.cap = { .max_send_wr = 16, .max_send_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};
	struct ib_qp *qp;

	t->pd = ib_alloc_pd(t->ibdev, 0);
	STEP(t, "hold: alloc_pd", !IS_ERR(t->pd), PTR_ERR_OR_ZERO(t->pd));
	if (IS_ERR(t->pd)) {
		t->pd = NULL;
		return -EIO;
	}
	t->cq = ib_create_cq(t->ibdev, NULL, ev_cq, &held_ctx, &ca);
	STEP(t, "hold: create_cq", !IS_ERR(t->cq), PTR_ERR_OR_ZERO(t->cq));
	if (IS_ERR(t->cq)) {
		t->cq = NULL;
		return -EIO;
	}
	t->srq = ib_create_srq(t->pd, &sa);
	STEP(t, "hold: create_srq", !IS_ERR(t->srq), PTR_ERR_OR_ZERO(t->srq));
	if (IS_ERR(t->srq)) {
		t->srq = NULL;
		return -EIO;
	}
	ia.send_cq = t->cq;
	ia.recv_cq = t->cq;
	ia.srq = t->srq;
	qp = ib_create_qp(t->pd, &ia);
	STEP(t, "hold: create_qp RC on the SRQ", !IS_ERR(qp), PTR_ERR_OR_ZERO(qp));
	if (IS_ERR(qp))
		return -EIO;
	held_qp = qp;
	cqn = to_mcq(t->cq)->hw.cqn;
	srqn = to_msrq(t->srq)->srqn;
	qpn = to_mqp(qp)->qpn;
	pr_info("mlx_lite_objtest: holding cqn 0x%x srqn 0x%x qpn 0x%x\n",
		cqn, srqn, qpn);
	return 0;
}

static int hold_init(void)
{
	held.ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_MLX5);
	if (!held.ibdev) {
		pr_err("mlx_lite_objtest: no device %s\n", dev);
		return -ENODEV;
	}
	if (hold_make(&held)) {
		hold_release(&held);
		ib_device_put(held.ibdev);
		pr_err("mlx_lite_objtest: FAIL hold: %u of %u steps\n",
		       held.fails, held.steps);
		return -EIO;
	}
	return 0;
}

static int __init objtest_init(void)
{
	struct objtest t = {};

	if (hold)
		return hold_init();

	t.ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_MLX5);
	if (!t.ibdev) {
		pr_err("mlx_lite_objtest: no device %s\n", dev);
		return -ENODEV;
	}
	find_v2_gid(&t);
	t_base(&t);
	if (t.pd && t.cq) {
		t_rc(&t);
		t_ud(&t, IB_QPT_UD, "create_qp UD");
		t_gsi(&t);
	}
	if (t.pd)
		t_ah(&t);
	t_teardown(&t);
	ib_device_put(t.ibdev);
	if (t.fails) {
		pr_err("mlx_lite_objtest: FAIL %u of %u steps\n", t.fails, t.steps);
		return -EIO;
	}
	pr_info("mlx_lite_objtest: PASS %u steps\n", t.steps);
	return 0;
}

static void __exit objtest_exit(void)
{
	if (!hold)
		return;
	hold_release(&held);
	ib_device_put(held.ibdev);
	pr_info("mlx_lite_objtest: hold released: cq_events %u qp_events 0x%x srq_events 0x%x bad_events %u, %s\n",
		cq_events, qp_events, srq_events, bad_events,
		held.fails ? "FAIL" : "PASS");
}

module_init(objtest_init);
module_exit(objtest_exit);

MODULE_DESCRIPTION("mlx-lite: kernel verbs objects through ib_core, made and destroyed");
MODULE_LICENSE("Dual BSD/GPL");
