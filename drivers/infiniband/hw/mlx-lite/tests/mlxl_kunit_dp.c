// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the data path (mlxl_dp.c) on the rig of mlxl_kunit.c (included
 * there).  A function is brought up against the model and PD, CQ and QPs
 * are made by the driver's own create paths on an unregistered ib_device
 * around the rig's mlxl_dev.  Sends are checked in the SQ buffer, the
 * doorbell record and the captured 64-bit doorbell writes; completions
 * are CQEs written by hand into the CQ ring as the device would (doc
 * §5.4), and poll_cq's results are checked.
 */
#include <rdma/ib_verbs.h>
#include "mlxl_ib.h"
#include "mlxl_verbs.h"
#include "mlxl_async.h"

#define DP_MAX_W64	16

/* the 64-bit doorbell writes of a case */
static struct {
	u32 n;
	u32 off[DP_MAX_W64];
	u64 val[DP_MAX_W64];
} dp_w64;

static void dp_wr64(void *ctx, u32 off, u64 val)
{
	if (dp_w64.n < DP_MAX_W64) {
		dp_w64.off[dp_w64.n] = off;
		dp_w64.val[dp_w64.n] = val;
	}
	dp_w64.n++;
	rig_wr64(ctx, off, val);
}

struct dp {
	struct rig *r;
	struct mlxl_ib *mib;
	struct mlxl_pd *pd;
	struct mlxl_cq *cq;
	struct mlxl_qp *qp;
	u32 uar_base;
};

static struct mlxl_qp *dp_qp(struct kunit *test, struct dp *d,
			     enum ib_qp_type type, u32 swr, u32 rwr,
			     enum ib_sig_type sig)
{
	struct mlxl_qp *qp = (struct mlxl_qp *)kunit_kzalloc(test, sizeof(*qp),
							     GFP_KERNEL);
	struct ib_qp_init_attr init = {
		.send_cq = &d->cq->ibcq,
		.recv_cq = &d->cq->ibcq,
		.cap = { .max_send_wr = swr, .max_recv_wr = rwr,
			 .max_send_sge = 2, .max_recv_sge = 2,
			 .max_inline_data = 40 },
		.sq_sig_type = sig,
		.qp_type = type,
	};

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->ibqp.device = &d->mib->ib;
	qp->ibqp.pd = &d->pd->ibpd;
	qp->ibqp.send_cq = &d->cq->ibcq;
	qp->ibqp.recv_cq = &d->cq->ibcq;
	qp->ibqp.qp_type = type;
	KUNIT_ASSERT_EQ(test, mlxl_create_qp(&qp->ibqp, &init, NULL), 0);
	return qp;
}

/* a function, a PD and a CQ of 2^cq_log entries */
static void dp_up(struct kunit *test, struct dp *d, u32 cq_log)
{
	struct ib_cq_init_attr ca = { .cqe = (1u << cq_log) - 1 };

	memset(&dp_w64, 0, sizeof(dp_w64));
	d->r = rig_new(test, FWSIM_CX6DX);
	d->r->dops.wr64 = dp_wr64;
	KUNIT_ASSERT_EQ(test, mlxl_boot(d->r->dev), 0);
	d->mib = (struct mlxl_ib *)kunit_kzalloc(test, sizeof(*d->mib), GFP_KERNEL);
	d->pd = (struct mlxl_pd *)kunit_kzalloc(test, sizeof(*d->pd), GFP_KERNEL);
	d->cq = (struct mlxl_cq *)kunit_kzalloc(test, sizeof(*d->cq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d->mib);
	KUNIT_ASSERT_NOT_NULL(test, d->pd);
	KUNIT_ASSERT_NOT_NULL(test, d->cq);
	d->mib->hw = d->r->dev;
	mutex_init(&d->mib->cmd_lock);
	mlxl_async_init(d->mib);
	mlxl_verbs_attrs(d->mib);
	d->mib->ib.attrs.max_cqe = 1 << 16;
	d->pd->ibpd.device = &d->mib->ib;
	d->cq->ibcq.device = &d->mib->ib;
	KUNIT_ASSERT_EQ(test, mlxl_verbs_ops.alloc_pd(&d->pd->ibpd, NULL), 0);
	KUNIT_ASSERT_EQ(test, mlxl_verbs_ops.create_cq(&d->cq->ibcq, &ca, NULL), 0);
	KUNIT_ASSERT_EQ(test, d->cq->hw.log_size, cq_log);
	d->uar_base = d->r->dev->uar * 4096;
}

static void dp_down(struct kunit *test, struct dp *d, struct mlxl_qp **qps,
		    u32 nqps)
{
	u32 i;

	for (i = 0; i < nqps; i++)
		KUNIT_EXPECT_EQ(test, mlxl_destroy_qp(&qps[i]->ibqp, NULL), 0);
	KUNIT_EXPECT_EQ(test, mlxl_verbs_ops.destroy_cq(&d->cq->ibcq, NULL), 0);
	KUNIT_EXPECT_EQ(test, mlxl_verbs_ops.dealloc_pd(&d->pd->ibpd, NULL), 0);
	mlxl_shutdown(d->r->dev);
	if (!mlxl_is_fatal(d->r->dev))
		expect_all_released(test, d->r);
}

static u32 be32_at(const void *p, u32 off)
{
	return be32_to_cpup((const __be32 *)((const u8 *)p + off));
}

/* write a CQE the way the device does, at consumer index ci */
static u8 *dp_cqe(struct dp *d, u32 ci, u8 op, u32 qpn, u16 counter)
{
	u32 log = d->cq->hw.log_size;
	u8 *c = (u8 *)d->cq->hw.buf.cpu + (ci & ((1u << log) - 1)) * 64;

	memset(c, 0, 63);
	*(__be32 *)(c + 0x38) = cpu_to_be32(qpn);
	*(__be16 *)(c + 0x3c) = cpu_to_be16(counter);
	wmb();
	c[0x3f] = (u8)(op << 4 | ((ci >> log) & 1));
	return c;
}

static int dp_send(struct mlxl_qp *qp, struct ib_send_wr *wr)
{
	const struct ib_send_wr *bad = NULL;

	return mlxl_dp_ops.post_send(&qp->ibqp, wr, &bad);
}

static void mlxl_dp_post_send_bytes(struct kunit *test)
{
	struct dp d;
	struct mlxl_qp *qp;
	u8 data[40];
	struct ib_sge sg = { .addr = 0x1122334455667788ull, .length = 0x100,
			     .lkey = 0xabcd01 };
	struct ib_rdma_wr rw = {};
	struct ib_send_wr *wr = &rw.wr;
	const struct ib_send_wr *bad = NULL;
	const u8 *sq, *w;
	__be32 *db;
	u32 qpn, bf_half, i;
	int err;

	dp_up(test, &d, 2);
	qp = dp_qp(test, &d, IB_QPT_RC, 4, 0, IB_SIGNAL_REQ_WR);
	qpn = qp->qpn;
	sq = (const u8 *)qp->buf.cpu + qp->sq_off;
	db = (__be32 *)qp->db.cpu;
	/* 2 WQEBBs of the largest RC send: a ring of 8 */
	KUNIT_ASSERT_EQ(test, qp->log_sq_size, 3u);
	bf_half = (1u << MLXL_GET(d.r->dev->cap_cur, MLXL_C_LOG_BF_REG_SIZE)) / 2;

	wr->opcode = IB_WR_SEND;
	wr->sg_list = &sg;
	wr->num_sge = 1;
	wr->wr_id = 100;
	wr->send_flags = IB_SEND_SIGNALED | IB_SEND_SOLICITED;
	/* RESET, INIT and RTR take no sends */
	qp->ibqp.state = IB_QPS_INIT;
	err = mlxl_dp_ops.post_send(&qp->ibqp, wr, &bad);
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_send_wr *)wr);
	KUNIT_EXPECT_EQ(test, dp_w64.n, 0u);
	qp->ibqp.state = IB_QPS_RTS;

	KUNIT_ASSERT_EQ(test, dp_send(qp, wr), 0);
	/* ctrl: wqe_index 0, SEND; qpn, ds 2; CE 2 and SE */
	KUNIT_EXPECT_EQ(test, be32_at(sq, 0), 0x0000000au);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 4), qpn << 8 | 2);
	KUNIT_EXPECT_EQ(test, sq[11], 0x0a);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 16), 0x100u);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 20), 0xabcd01u);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 24), 0x11223344u);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(db[1]), 1u);
	KUNIT_ASSERT_EQ(test, dp_w64.n, 1u);
	KUNIT_EXPECT_EQ(test, dp_w64.off[0], d.uar_base + 0x800);
	KUNIT_EXPECT_EQ(test, dp_w64.val[0], (u64)0x0000000a << 32 | (qpn << 8 | 2));

	/* unsignalled; the other BlueFlame half */
	wr->wr_id = 101;
	wr->send_flags = 0;
	KUNIT_ASSERT_EQ(test, dp_send(qp, wr), 0);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 64), 0x0000010au);
	KUNIT_EXPECT_EQ(test, sq[64 + 11], 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(db[1]), 2u);
	KUNIT_EXPECT_EQ(test, dp_w64.off[1], d.uar_base + 0x800 + bf_half);
	KUNIT_EXPECT_EQ(test, dp_w64.val[1], (u64)0x0000010a << 32 | (qpn << 8 | 2));

	/* five more, the last signalled: head 7 */
	for (i = 0; i < 5; i++) {
		wr->wr_id = 102 + i;
		wr->send_flags = i == 4 ? IB_SEND_SIGNALED : 0;
		KUNIT_ASSERT_EQ(test, dp_send(qp, wr), 0);
	}
	KUNIT_EXPECT_EQ(test, be32_to_cpu(db[1]), 7u);
	KUNIT_EXPECT_EQ(test, dp_w64.off[6], d.uar_base + 0x800);
	/* a 2-WQEBB WQE does not fit in the one WQEBB left */
	rw.remote_addr = 0x1000;
	rw.rkey = 0x55;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (u8)(i + 1);
	sg.addr = (u64)(uintptr_t)data;
	sg.length = sizeof(data);
	wr->opcode = IB_WR_RDMA_WRITE;
	wr->send_flags = IB_SEND_INLINE | IB_SEND_SIGNALED;
	wr->wr_id = 200;
	KUNIT_EXPECT_EQ(test, dp_send(qp, wr), -ENOMEM);
	KUNIT_EXPECT_EQ(test, dp_w64.n, 7u);

	/* the device completes up to WQE 6 with one CQE: 6 slots free */
	dp_cqe(&d, 0, MLXL_CQE_REQ, qpn, 6)[0x38] = MLXL_WQE_SEND;
	{
		struct ib_wc wc[4];

		KUNIT_ASSERT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 4, wc), 1);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, 106ull);
		KUNIT_EXPECT_EQ(test, (int)wc[0].status, (int)IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, (int)wc[0].opcode, (int)IB_WC_SEND);
		KUNIT_EXPECT_PTR_EQ(test, wc[0].qp, &qp->ibqp);
	}
	KUNIT_EXPECT_EQ(test, be32_to_cpu(((__be32 *)d.cq->hw.db.cpu)[0]), 1u);

	/* the inline RDMA WRITE at 7 wraps to WQEBB 0: ctrl, raddr, 40 B */
	KUNIT_ASSERT_EQ(test, dp_send(qp, wr), 0);
	w = sq + 7 * 64;
	KUNIT_EXPECT_EQ(test, be32_at(w, 0), 0x00000708u);
	KUNIT_EXPECT_EQ(test, be32_at(w, 4), qpn << 8 | 5);
	KUNIT_EXPECT_EQ(test, be32_at(w, 16), 0u);
	KUNIT_EXPECT_EQ(test, be32_at(w, 20), 0x1000u);
	KUNIT_EXPECT_EQ(test, be32_at(w, 24), 0x55u);
	KUNIT_EXPECT_EQ(test, be32_at(w, 32), 0x80000000u | 40);
	KUNIT_EXPECT_EQ(test, w[36], 1);
	KUNIT_EXPECT_EQ(test, w[63], 28);
	KUNIT_EXPECT_EQ(test, sq[0], 29);	/* continues at the ring's start */
	KUNIT_EXPECT_EQ(test, sq[11], 40);
	KUNIT_EXPECT_EQ(test, sq[12], 0);	/* padding */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(db[1]), 9u);
	KUNIT_EXPECT_EQ(test, dp_w64.val[7], (u64)0x00000708 << 32 | (qpn << 8 | 5));
	/* too much inline, too many SGEs, an opcode RC has not */
	sg.length = qp->cap.max_inline_data + 1;
	KUNIT_EXPECT_EQ(test, dp_send(qp, wr), -EINVAL);
	wr->num_sge = 3;
	wr->send_flags = 0;
	KUNIT_EXPECT_EQ(test, dp_send(qp, wr), -EINVAL);
	wr->num_sge = 1;
	wr->opcode = IB_WR_BIND_MW;
	KUNIT_EXPECT_EQ(test, dp_send(qp, wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, dp_w64.n, 8u);
	dp_down(test, &d, &qp, 1);
}

static void mlxl_dp_ud_send_and_recv(struct kunit *test)
{
	struct dp d;
	struct mlxl_qp *qp;
	struct mlxl_ah ah = {};
	struct ib_sge sg = { .addr = 0x5000, .length = 296, .lkey = 7 };
	struct ib_ud_wr uw = {};
	struct ib_recv_wr rw = { .sg_list = &sg, .num_sge = 1 };
	const struct ib_recv_wr *bad = NULL;
	struct ib_wc wc[4];
	const u8 *sq, *rq;
	u8 *c;
	u32 i;

	dp_up(test, &d, 2);
	qp = dp_qp(test, &d, IB_QPT_UD, 2, 4, IB_SIGNAL_ALL_WR);
	sq = (const u8 *)qp->buf.cpu + qp->sq_off;
	rq = (const u8 *)qp->buf.cpu;
	/* receives: RESET refuses them; then data segment + terminator */
	qp->ibqp.state = IB_QPS_RESET;
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.post_recv(&qp->ibqp, &rw, &bad), -EINVAL);
	qp->ibqp.state = IB_QPS_RTS;
	for (i = 0; i < 2; i++) {
		rw.wr_id = 300 + i;
		KUNIT_ASSERT_EQ(test, mlxl_dp_ops.post_recv(&qp->ibqp, &rw, &bad), 0);
	}
	KUNIT_EXPECT_EQ(test, be32_at(rq, 0), 296u);
	KUNIT_EXPECT_EQ(test, be32_at(rq, 4), 7u);
	KUNIT_EXPECT_EQ(test, be32_at(rq, 16), 0u);
	KUNIT_EXPECT_EQ(test, be32_at(rq, 20), 0x100u);
	KUNIT_EXPECT_EQ(test, be32_at(qp->db.cpu, 0), 2u);
	KUNIT_EXPECT_EQ(test, dp_w64.n, 0u);	/* no MMIO for receives */

	/* a UD send carries the datagram segment of its AH */
	ah.av.rmac[0] = 0x02;
	ah.av.rmac[5] = 0x55;
	ah.av.rgid[15] = 9;
	ah.av.hop_limit = 64;
	ah.av.sgid_index = 1;
	uw.ah = &ah.ibah;
	uw.remote_qpn = 0x123;
	uw.remote_qkey = 0x11112222;
	uw.wr.opcode = IB_WR_SEND;
	uw.wr.sg_list = &sg;
	uw.wr.num_sge = 1;
	uw.wr.wr_id = 400;
	KUNIT_ASSERT_EQ(test, dp_send(qp, &uw.wr), 0);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 4), qp->qpn << 8 | 5);
	KUNIT_EXPECT_EQ(test, sq[11], 0x08);	/* IB_SIGNAL_ALL_WR */
	KUNIT_EXPECT_EQ(test, be32_at(sq, 16), 0x11112222u);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 24), 0x80000123u);
	KUNIT_EXPECT_EQ(test, sq[16 + 20], 0x02);
	KUNIT_EXPECT_EQ(test, sq[16 + 25], 0x55);
	KUNIT_EXPECT_EQ(test, sq[16 + 27], 64);
	KUNIT_EXPECT_EQ(test, sq[16 + 47], 9);
	KUNIT_EXPECT_EQ(test, be32_at(sq, 64), 296u);
	uw.ah = NULL;
	KUNIT_EXPECT_EQ(test, dp_send(qp, &uw.wr), -EINVAL);

	/* a receive with immediate and GRH; an error CQE; the send's CQE */
	c = dp_cqe(&d, 0, MLXL_CQE_RESP_SEND_IMM, qp->qpn, 0);
	*(__be32 *)(c + 0x18) = cpu_to_be32(2u << 28 | 0x42);
	*(__be32 *)(c + 0x24) = cpu_to_be32(0xdeadbeef);
	*(__be32 *)(c + 0x2c) = cpu_to_be32(40 + 256);
	c = dp_cqe(&d, 1, MLXL_CQE_RESP_ERR, qp->qpn, 1);
	c[0x37] = 0x11;
	c[0x36] = 0x99;
	dp_cqe(&d, 2, MLXL_CQE_REQ, qp->qpn, 0)[0x38] = MLXL_WQE_SEND;
	KUNIT_ASSERT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 4, wc), 3);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 300ull);
	KUNIT_EXPECT_EQ(test, (int)wc[0].opcode, (int)IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc[0].wc_flags, IB_WC_GRH | IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc[0].ex.imm_data), 0xdeadbeefu);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 296u);
	KUNIT_EXPECT_EQ(test, wc[0].src_qp, 0x42u);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 301ull);
	KUNIT_EXPECT_EQ(test, (int)wc[1].status, (int)IB_WC_LOC_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, wc[1].vendor_err, 0x99u);
	KUNIT_EXPECT_EQ(test, wc[2].wr_id, 400ull);
	KUNIT_EXPECT_EQ(test, be32_at(d.cq->hw.db.cpu, 0), 3u);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 4, wc), 0);
	dp_down(test, &d, &qp, 1);
}

/* CQ of 4 entries: ownership flips at the ring's end, errors map */
static void mlxl_dp_poll_wrap_and_errors(struct kunit *test)
{
	struct dp d;
	struct mlxl_qp *qp;
	struct ib_sge sg = { .addr = 0x5000, .length = 8, .lkey = 7 };
	struct ib_send_wr wr = { .sg_list = &sg, .num_sge = 1,
				 .opcode = IB_WR_SEND };
	struct ib_wc wc[2];
	u32 ci = 0, i;
	u8 *c;

	dp_up(test, &d, 2);	/* 4 entries */
	for (i = 0; i < 4; i++)	/* as created: op_own 0xF0 */
		KUNIT_EXPECT_EQ(test, ((u8 *)d.cq->hw.buf.cpu)[i * 64 + 63], 0xf0);
	qp = dp_qp(test, &d, IB_QPT_RC, 8, 0, IB_SIGNAL_ALL_WR);
	qp->ibqp.state = IB_QPS_RTS;
	for (i = 0; i < 10; i++) {
		wr.wr_id = 500 + i;
		KUNIT_ASSERT_EQ(test, dp_send(qp, &wr), 0);
		/* a stale entry of the last pass is not taken */
		KUNIT_EXPECT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 2, wc), 0);
		dp_cqe(&d, ci, MLXL_CQE_REQ, qp->qpn, (u16)i)[0x38] = MLXL_WQE_SEND;
		ci++;
		KUNIT_ASSERT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 2, wc), 1);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, 500ull + i);
		KUNIT_EXPECT_EQ(test, be32_at(d.cq->hw.db.cpu, 0), ci);
	}
	/* an error CQE: remote access */
	wr.wr_id = 600;
	KUNIT_ASSERT_EQ(test, dp_send(qp, &wr), 0);
	c = dp_cqe(&d, ci, MLXL_CQE_REQ_ERR, qp->qpn, 10);
	c[0x37] = 0x13;
	c[0x38] = MLXL_WQE_SEND;
	KUNIT_ASSERT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 2, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 600ull);
	KUNIT_EXPECT_EQ(test, (int)wc[0].status, (int)IB_WC_REM_ACCESS_ERR);
	/* a CQE for a WQE not posted is dropped */
	dp_cqe(&d, ci + 1, MLXL_CQE_REQ, qp->qpn, 40);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 2, wc), 0);
	KUNIT_EXPECT_EQ(test, be32_at(d.cq->hw.db.cpu, 0), ci + 2);
	dp_down(test, &d, &qp, 1);
}

static void mlxl_dp_arm(struct kunit *test)
{
	struct dp d;
	struct mlxl_qp *qp;
	u32 cqn, word;

	dp_up(test, &d, 2);
	qp = dp_qp(test, &d, IB_QPT_RC, 4, 0, IB_SIGNAL_ALL_WR);
	cqn = d.cq->hw.cqn;
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.req_notify_cq(&d.cq->ibcq, IB_CQ_NEXT_COMP), 0);
	KUNIT_EXPECT_EQ(test, be32_at(d.cq->hw.db.cpu, 4), 0u);
	KUNIT_ASSERT_EQ(test, dp_w64.n, 1u);
	KUNIT_EXPECT_EQ(test, dp_w64.off[0], d.uar_base + 0x20);
	KUNIT_EXPECT_EQ(test, dp_w64.val[0], (u64)cqn);
	/* a completion event moves the sequence number; solicited only */
	mlxl_async(d.mib, MLXL_EQE_COMP, cqn);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.req_notify_cq(&d.cq->ibcq, IB_CQ_SOLICITED), 0);
	word = 1u << 28 | 1u << 24;
	KUNIT_EXPECT_EQ(test, be32_at(d.cq->hw.db.cpu, 4), word);
	KUNIT_EXPECT_EQ(test, dp_w64.val[1], (u64)word << 32 | cqn);
	/* a CQE waiting: REPORT_MISSED_EVENTS says so */
	dp_cqe(&d, 0, MLXL_CQE_REQ, qp->qpn, 0);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.req_notify_cq(&d.cq->ibcq,
			(enum ib_cq_notify_flags)(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)), 1);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.req_notify_cq(&d.cq->ibcq,
			IB_CQ_NEXT_COMP), 0);
	dp_down(test, &d, &qp, 1);
}

/* a dead device: everything outstanding comes back flushed */
static void mlxl_dp_fatal_flush(struct kunit *test)
{
	struct dp d;
	struct mlxl_qp *qp;
	struct ib_sge sg = { .addr = 0x5000, .length = 8, .lkey = 7 };
	struct ib_send_wr wr = { .sg_list = &sg, .num_sge = 1,
				 .opcode = IB_WR_SEND };
	struct ib_recv_wr rw = { .sg_list = &sg, .num_sge = 1 };
	const struct ib_recv_wr *bad = NULL;
	struct ib_wc wc[8];
	u32 n64, i;
	int n;

	dp_up(test, &d, 3);
	qp = dp_qp(test, &d, IB_QPT_RC, 4, 4, IB_SIGNAL_REQ_WR);
	qp->ibqp.state = IB_QPS_RTS;
	for (i = 0; i < 2; i++) {
		wr.wr_id = 700 + i;
		KUNIT_ASSERT_EQ(test, dp_send(qp, &wr), 0);	/* unsignalled */
		rw.wr_id = 800 + i;
		KUNIT_ASSERT_EQ(test, mlxl_dp_ops.post_recv(&qp->ibqp, &rw, &bad), 0);
	}
	/* a CQE the dead device left is not read */
	dp_cqe(&d, 0, MLXL_CQE_REQ, qp->qpn, 0);
	mlxl_set_fatal(d.r->dev, 0x8);
	n64 = dp_w64.n;
	wr.wr_id = 702;
	KUNIT_ASSERT_EQ(test, dp_send(qp, &wr), 0);	/* accepted, not rung */
	KUNIT_EXPECT_EQ(test, dp_w64.n, n64);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.req_notify_cq(&d.cq->ibcq,
			(enum ib_cq_notify_flags)(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)), 1);
	n = mlxl_dp_ops.poll_cq(&d.cq->ibcq, 8, wc);
	KUNIT_ASSERT_EQ(test, n, 5);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, (int)wc[i].status, (int)IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 700ull);
	KUNIT_EXPECT_EQ(test, wc[2].wr_id, 702ull);
	KUNIT_EXPECT_EQ(test, wc[3].wr_id, 800ull);
	KUNIT_EXPECT_EQ(test, (int)wc[3].opcode, (int)IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc[4].wr_id, 801ull);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.poll_cq(&d.cq->ibcq, 8, wc), 0);
	KUNIT_EXPECT_EQ(test, mlxl_dp_ops.req_notify_cq(&d.cq->ibcq,
			(enum ib_cq_notify_flags)(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)), 0);
	dp_down(test, &d, &qp, 1);
}
