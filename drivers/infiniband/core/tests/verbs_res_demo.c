// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Not a test by itself: while loaded, a mock device "kres0" carries a set
 * of kernel verbs objects so that "rdma res show qp|cq|mr|pd|srq" has
 * something to print (VM checks of nldev_res.c):
 *   PD, CQ, SRQ, an RC QP in INIT (port 1) on the SRQ, a UD QP in RTS,
 *   a DMA MR and a fast-registration MR.
 */
#include "verbs_mock.h"

static struct {
	struct mock_dev *m;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_srq *srq;
	struct ib_qp *rc, *ud;
	struct ib_mr *dma_mr, *reg_mr;
} demo;

static struct ib_qp *demo_qp(enum ib_qp_type type, struct ib_srq *srq)
{
	struct ib_qp_init_attr init = {
		.send_cq = demo.cq,
		.recv_cq = demo.cq,
		.srq = srq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = type,
	};

	return ib_create_qp(demo.pd, &init);
}

static int demo_modify(struct ib_qp *qp, enum ib_qp_state state, int mask)
{
	struct ib_qp_attr attr = {
		.qp_state = state,
		.port_num = 1,
		.qkey = 0x11111111,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE,
	};

	return ib_modify_qp(qp, &attr, IB_QP_STATE | mask);
}

static void demo_free(void)
{
	if (!IS_ERR_OR_NULL(demo.rc))
		ib_destroy_qp(demo.rc);
	if (!IS_ERR_OR_NULL(demo.ud))
		ib_destroy_qp(demo.ud);
	if (!IS_ERR_OR_NULL(demo.srq))
		ib_destroy_srq(demo.srq);
	if (!IS_ERR_OR_NULL(demo.dma_mr))
		ib_dereg_mr(demo.dma_mr);
	if (!IS_ERR_OR_NULL(demo.reg_mr))
		ib_dereg_mr(demo.reg_mr);
	if (!IS_ERR_OR_NULL(demo.cq))
		ib_destroy_cq(demo.cq);
	if (!IS_ERR_OR_NULL(demo.pd))
		ib_dealloc_pd(demo.pd);
	if (demo.m)
		mock_destroy(demo.m);
	memset(&demo, 0, sizeof(demo));
}

static int __init demo_init(void)
{
	struct ib_cq_init_attr ca = { .cqe = 16 };
	struct ib_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	const int ud_init = IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY;
	const int rc_init = IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS;

	demo.m = mock_dev_create("kres%d");
	if (!demo.m)
		return -ENOMEM;
	demo.pd = ib_alloc_pd(&demo.m->ibdev, 0);
	if (IS_ERR(demo.pd))
		goto fail;
	demo.cq = ib_create_cq(&demo.m->ibdev, NULL, NULL, NULL, &ca);
	if (IS_ERR(demo.cq))
		goto fail;
	demo.srq = ib_create_srq(demo.pd, &sa);
	demo.rc = demo_qp(IB_QPT_RC, IS_ERR(demo.srq) ? NULL : demo.srq);
	demo.ud = demo_qp(IB_QPT_UD, NULL);
	if (IS_ERR(demo.rc) || IS_ERR(demo.ud))
		goto fail;
	if (demo_modify(demo.rc, IB_QPS_INIT, rc_init) ||
	    demo_modify(demo.ud, IB_QPS_INIT, ud_init) ||
	    demo_modify(demo.ud, IB_QPS_RTR, 0) ||
	    demo_modify(demo.ud, IB_QPS_RTS, IB_QP_SQ_PSN))
		goto fail;
	demo.dma_mr = ib_get_dma_mr(demo.pd, IB_ACCESS_LOCAL_WRITE);
	demo.reg_mr = ib_alloc_mr(demo.pd, IB_MR_TYPE_MEM_REG, 4);
	return 0;
fail:
	demo_free();
	return -EINVAL;
}

static void __exit demo_exit(void)
{
	demo_free();
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("Kernel verbs objects on a mock device, for rdma res checks");
