// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the firmware model's data path (fwsim_dp.c), driven the way a
 * driver drives a ConnectX.  The driver brings the model up; the objects
 * are made by commands this file builds from the document's layouts, the
 * WQEs are written here, and the doorbells rung through
 * fwsim_mmio_write64().  One model instance talks to itself (its GID 0 is
 * both ends).  Included by mlxl_kunit.c (shares its rig), and by the
 * host test mlxl_fwsim_dp_test.cpp behind a small KUnit shim.
 */

#define DP_PAGES	16
#define DP_VA		0x7f0000001000ull	/* the MTT MKey's start */
#define DP_QKEY		0x11111111u
#define DP_LOG_Q	3			/* 8 WQEBBs, 8 receive WQEs */
#define DP_LOG_STRIDE	2			/* 64-B receive WQE: 4 SGEs */
#define DP_LOG_CQ	3

struct dp_cq {
	u32 cqn;
	struct mlxl_dma buf;
	struct mlxl_dma dbr;
	u32 ci;
};

struct dp_qp {
	u32 qpn;
	bool rc;
	struct mlxl_dma buf;
	struct mlxl_dma dbr;
	u16 sq_pi;
	u16 rq_pi;
};

struct dpt {
	struct kunit *test;
	u8 gid[16];		/* this instance's GID 0 */
	u8 peer[16];		/* the RC QPs' destination GID */
	struct rig *r;
	u32 pd;
	u32 lkey;		/* MTT MKey over mem, every right */
	u32 ro_key;		/* MTT MKey over mem, local and remote read */
	u32 pa_key;		/* PA MKey over mem, every right */
	u32 mk_idx[3];
	struct mlxl_dma mem;
	struct dp_cq scq;
	struct dp_cq rcq;
	struct dp_qp a, b;	/* RC, connected to each other */
	struct dp_qp u, v;	/* UD */
};

/* a WQE being built */
struct wb {
	u8 w[256];
	u32 n;
};

static const u8 dp_gid[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1,
};

static u32 dp_exec(struct dpt *t, u32 in_len, u32 out_len)
{
	struct mlxl_dev *dev = t->r->dev;
	int err = mlxl_cmd_exec(dev, dev->in, in_len, dev->out, out_len);

	KUNIT_ASSERT_EQ_MSG(t->test, err, 0, "%s: status 0x%x, model: %s",
			    mlxl_cmd_name(dev->err_opcode), dev->err_status,
			    fwsim_err_str(t->r->fw->last_err));
	return fwsim_rd(dev->out, 0x08, 23, 0);
}

static u8 *dp_in(struct dpt *t, u16 op, u32 len)
{
	mlxl_cmd_hdr(t->r->dev->in, len, op, 0);
	return t->r->dev->in;
}

static void dp_alloc(struct dpt *t, struct mlxl_dma *d, u32 size)
{
	KUNIT_ASSERT_EQ(t->test, rig_alloc(t->r, d, size, 4096), 0);
}

static void *va_ptr(struct dpt *t, u64 va)
{
	return (u8 *)t->mem.cpu + (va - DP_VA);
}

static u32 dp_mkey(struct dpt *t, u32 acc, bool pa, u32 variant, u32 slot)
{
	u32 n = DP_PAGES, i, len = 0x110 + (pa ? 0 : 8 * n);
	u8 *in = dp_in(t, MLXL_OP_CREATE_MKEY, len);

	fwsim_wr(in, 0x10, 14, 10, acc);
	fwsim_wr(in, 0x10, 9, 8, pa ? 0 : 1);
	fwsim_wr(in, 0x14, 31, 8, 0xffffff);
	fwsim_wr(in, 0x14, 7, 0, variant);
	fwsim_wr(in, 0x1c, 23, 0, t->pd);
	fwsim_wr64(in, 0x20, pa ? t->mem.bus : DP_VA);
	fwsim_wr64(in, 0x28, (u64)n * 4096);
	if (!pa) {
		fwsim_wr(in, 0x44, 31, 0, n / 2);
		fwsim_wr(in, 0x48, 5, 0, 12);
		fwsim_wr(in, 0x60, 31, 0, n / 2);
		for (i = 0; i < n; i++)
			fwsim_wr64(in, 0x110 + 8 * i, (t->mem.bus + 4096ull * i) | 3);
	}
	t->mk_idx[slot] = dp_exec(t, len, 0x10);
	return t->mk_idx[slot] << 8 | variant;
}

static void dp_cq_new(struct dpt *t, struct dp_cq *cq)
{
	u32 i;
	u8 *in;

	dp_alloc(t, &cq->buf, 4096);
	dp_alloc(t, &cq->dbr, 64);
	for (i = 0; i < (1u << DP_LOG_CQ); i++)
		((u8 *)cq->buf.cpu)[64 * i + 63] = 0xf0;
	in = dp_in(t, MLXL_OP_CREATE_CQ, 0x118);
	fwsim_wr(in, 0x1c, 28, 24, DP_LOG_CQ);
	fwsim_wr(in, 0x1c, 23, 0, t->r->dev->uar);
	fwsim_wr(in, 0x24, 31, 0, t->r->dev->eqn);
	fwsim_wr64(in, 0x48, cq->dbr.bus);
	fwsim_wr64(in, 0x110, cq->buf.bus);
	cq->cqn = dp_exec(t, 0x118, 0x10);
	cq->ci = 0;
}

static void dp_modify(struct dpt *t, struct dp_qp *q, u16 op, u32 dest,
		      u8 rnr_retry)
{
	struct mlxl_qp_mod m = {
		.port = 1, .qkey = DP_QKEY, .rre = true, .rwe = true,
		.rae = true, .min_rnr_timer = 12, .path_mtu = 3,
		.max_dest_rd_atomic = 4, .max_rd_atomic = 4, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = rnr_retry, .dest_qpn = dest,
		.path = { .rmac = { 2, 0, 0, 0, 0, 1 }, .sgid_index = 0,
			  .hop_limit = 64, .roce_v2 = 1 },
	};
	u32 len;

	memcpy(m.path.rgid, t->peer, 16);
	len = mlxl_qp_modify_in(t->r->dev->in, op, q->qpn, q->rc, &m,
				mlxl_qp_carries(op, q->rc));
	dp_exec(t, len, 0x10);
}

static void dp_qp_new(struct dpt *t, struct dp_qp *q, bool rc)
{
	u8 *in;

	q->rc = rc;
	dp_alloc(t, &q->buf, 4096);
	dp_alloc(t, &q->dbr, 64);
	in = dp_in(t, MLXL_OP_CREATE_QP, 0x118);
	fwsim_wr(in, 0x18, 23, 16, rc ? FWSIM_QPT_RC : FWSIM_QPT_UD);
	fwsim_wr(in, 0x18, 12, 11, 3);
	fwsim_wr(in, 0x1c, 23, 0, t->pd);
	fwsim_wr(in, 0x20, 22, 19, DP_LOG_Q);
	fwsim_wr(in, 0x20, 18, 16, DP_LOG_STRIDE);
	fwsim_wr(in, 0x20, 14, 11, DP_LOG_Q);
	fwsim_wr(in, 0x20, 7, 6, fwsim_cap(t->r->fw, 2, 0x00, 1, 0) ? 1 : 0);
	fwsim_wr(in, 0x24, 23, 0, t->r->dev->uar);
	fwsim_wr(in, 0x94, 23, 0, t->scq.cqn);
	fwsim_wr(in, 0xb4, 23, 0, t->rcq.cqn);
	fwsim_wr64(in, 0xb8, q->dbr.bus);
	fwsim_wr64(in, 0x110, q->buf.bus);
	q->qpn = dp_exec(t, 0x118, 0x10);
}

static void dp_rts(struct dpt *t, struct dp_qp *q, u32 dest, u8 rnr_retry)
{
	dp_modify(t, q, MLXL_OP_RST2INIT_QP, dest, rnr_retry);
	dp_modify(t, q, MLXL_OP_INIT2RTR_QP, dest, rnr_retry);
	dp_modify(t, q, MLXL_OP_RTR2RTS_QP, dest, rnr_retry);
}

static struct dpt *dp_up_gids(struct kunit *test, u8 rnr_retry, const u8 *gid,
			      const u8 *peer)
{
	struct dpt *t = (struct dpt *)kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u8 *in;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->test = test;
	memcpy(t->gid, gid, 16);
	memcpy(t->peer, peer, 16);
	t->r = rig_new(test, FWSIM_CX6DX);
	KUNIT_ASSERT_EQ(test, mlxl_boot(t->r->dev), 0);
	t->r->fw->roce_en = true;
	t->r->fw->gids[0].valid = true;
	memcpy(t->r->fw->gids[0].raw, gid, 16);
	in = dp_in(t, MLXL_OP_ALLOC_PD, 0x10);
	t->pd = dp_exec(t, 0x10, 0x10);
	(void)in;
	dp_alloc(t, &t->mem, DP_PAGES * 4096);
	t->lkey = dp_mkey(t, 0x1f, false, 0x5a, 0);
	t->ro_key = dp_mkey(t, 0x05, false, 0x11, 1);
	t->pa_key = dp_mkey(t, 0x1f, true, 0x22, 2);
	dp_cq_new(t, &t->scq);
	dp_cq_new(t, &t->rcq);
	dp_qp_new(t, &t->a, true);
	dp_qp_new(t, &t->b, true);
	dp_qp_new(t, &t->u, false);
	dp_qp_new(t, &t->v, false);
	dp_rts(t, &t->a, t->b.qpn, rnr_retry);
	dp_rts(t, &t->b, t->a.qpn, rnr_retry);
	dp_rts(t, &t->u, 0, 0);
	dp_rts(t, &t->v, 0, 0);
	return t;
}

static struct dpt *fdp_up(struct kunit *test, u8 rnr_retry)
{
	return dp_up_gids(test, rnr_retry, dp_gid, dp_gid);
}

static void dp_destroy(struct dpt *t, u16 op, u32 num)
{
	u8 *in = dp_in(t, op, 0x10);

	fwsim_wr(in, 0x08, 23, 0, num);
	dp_exec(t, 0x10, 0x10);
}

static void fdp_down(struct dpt *t)
{
	u32 i;

	dp_destroy(t, MLXL_OP_DESTROY_QP, t->a.qpn);
	dp_destroy(t, MLXL_OP_DESTROY_QP, t->b.qpn);
	dp_destroy(t, MLXL_OP_DESTROY_QP, t->u.qpn);
	dp_destroy(t, MLXL_OP_DESTROY_QP, t->v.qpn);
	dp_destroy(t, MLXL_OP_DESTROY_CQ, t->scq.cqn);
	dp_destroy(t, MLXL_OP_DESTROY_CQ, t->rcq.cqn);
	for (i = 0; i < 3; i++)
		dp_destroy(t, MLXL_OP_DESTROY_MKEY, t->mk_idx[i]);
	dp_destroy(t, MLXL_OP_DEALLOC_PD, t->pd);
	mlxl_shutdown(t->r->dev);
	KUNIT_EXPECT_EQ(t->test, fwsim_objects_alive(t->r->fw), 0u);
}

/* ---- WQE writer (the document's layout, section 5.1) */
static void wb_ctrl(struct wb *b, struct dp_qp *q, u8 op, u8 fm_ce_se, u32 imm)
{
	memset(b, 0, sizeof(*b));
	fwsim_wr(b->w, 0x00, 31, 0, (u32)q->sq_pi << 8 | op);
	fwsim_wr(b->w, 0x04, 31, 8, q->qpn);
	b->w[11] = fm_ce_se;
	fwsim_wr(b->w, 0x0c, 31, 0, imm);
	b->n = 16;
}

static void wb_raddr(struct wb *b, u64 va, u32 rkey)
{
	fwsim_wr64(b->w, b->n, va);
	fwsim_wr(b->w, b->n + 8, 31, 0, rkey);
	b->n += 16;
}

static void wb_atomic(struct wb *b, u64 swap_add, u64 cmp)
{
	fwsim_wr64(b->w, b->n, swap_add);
	fwsim_wr64(b->w, b->n + 8, cmp);
	b->n += 16;
}

static void wb_data(struct wb *b, u32 len, u32 lkey, u64 addr)
{
	fwsim_wr(b->w, b->n, 31, 0, len);
	fwsim_wr(b->w, b->n + 4, 31, 0, lkey);
	fwsim_wr64(b->w, b->n + 8, addr);
	b->n += 16;
}

static void wb_inline(struct wb *b, const void *data, u32 len)
{
	fwsim_wr(b->w, b->n, 31, 0, FWSIM_INLINE | len);
	memcpy(b->w + b->n + 4, data, len);
	b->n += ALIGN(4 + len, 16);
}

static void wb_dgram(struct wb *b, u32 qkey, u32 dqpn, const u8 *dgid)
{
	fwsim_wr(b->w, b->n, 31, 0, qkey);
	fwsim_wr(b->w, b->n + 8, 23, 0, dqpn);
	b->w[b->n + 0x1b] = 64;
	memcpy(b->w + b->n + 0x20, dgid, 16);
	b->n += 48;
}

/* copy the WQE into the ring (wrapping), advance the producer counter */
static void dp_post(struct dpt *t, struct dp_qp *q, struct wb *b)
{
	u32 ds = b->n / 16, nbb = (b->n + 63) / 64, i;
	u8 *sq = (u8 *)q->buf.cpu + (64u << DP_LOG_Q);

	fwsim_wr(b->w, 0x04, 5, 0, ds);
	for (i = 0; i < nbb; i++)
		memcpy(sq + ((q->sq_pi + i) & ((1u << DP_LOG_Q) - 1)) * 64,
		       b->w + 64 * i, 64);
	q->sq_pi += nbb;
	fwsim_wr((u8 *)q->dbr.cpu, 4, 31, 0, q->sq_pi);
}

/* the 64-bit doorbell: the ctrl segment's first 8 bytes */
static void dp_ring(struct dpt *t, struct dp_qp *q, struct wb *b)
{
	u64 val = fwsim_rd64(b->w, 0);

	fwsim_mmio_write64(t->r->fw, t->r->dev->uar * 4096 + 0x800, val);
}

static void fdp_send(struct dpt *t, struct dp_qp *q, struct wb *b)
{
	dp_post(t, q, b);
	dp_ring(t, q, b);
}

/* a receive WQE of n SGEs (lens[i] bytes at vas[i], lkey) */
static void dp_recv(struct dpt *t, struct dp_qp *q, u32 n, const u32 *lens,
		    const u64 *vas, u32 lkey)
{
	u8 *w = (u8 *)q->buf.cpu + (q->rq_pi & ((1u << DP_LOG_Q) - 1)) * 64;
	u32 i;

	memset(w, 0, 64);
	for (i = 0; i < n; i++) {
		fwsim_wr(w, 16 * i, 31, 0, lens[i]);
		fwsim_wr(w, 16 * i + 4, 31, 0, lkey);
		fwsim_wr64(w, 16 * i + 8, vas[i]);
	}
	if (n < 4)
		fwsim_wr(w, 16 * n + 4, 31, 0, FWSIM_TERM_LKEY);
	q->rq_pi++;
	fwsim_wr((u8 *)q->dbr.cpu, 0, 31, 0, q->rq_pi);
}

static void dp_recv1(struct dpt *t, struct dp_qp *q, u32 len, u64 va)
{
	dp_recv(t, q, 1, &len, &va, t->lkey);
}

/* the next CQE software owns, or NULL */
static const u8 *dp_poll(struct dpt *t, struct dp_cq *cq)
{
	u32 mask = (1u << DP_LOG_CQ) - 1;
	const u8 *c = (const u8 *)cq->buf.cpu + 64 * (cq->ci & mask);

	if ((c[63] >> 4) == FWSIM_CQE_INVALID ||
	    (c[63] & 1) != ((cq->ci >> DP_LOG_CQ) & 1))
		return NULL;
	cq->ci++;
	fwsim_wr((u8 *)cq->dbr.cpu, 0, 31, 0, cq->ci & 0xffffff);
	return c;
}

#define CQE_OP(c)	((c)[63] >> 4)
#define CQE_SYND(c)	((c)[FWSIM_CQE_SYND])
#define CQE_BYTES(c)	fwsim_rd((c), FWSIM_CQE_BYTE_CNT, 31, 0)
#define CQE_IMM(c)	fwsim_rd((c), FWSIM_CQE_IMM, 31, 0)
#define CQE_QPN(c)	fwsim_rd((c), FWSIM_CQE_QPN, 23, 0)
#define CQE_WOP(c)	fwsim_rd((c), FWSIM_CQE_QPN, 31, 24)
#define CQE_CNT(c)	fwsim_rd((c), FWSIM_CQE_WQE_CNT, 31, 16)

/* poll one CQE of opcode op (and syndrome synd for errors) */
static const u8 *dp_expect(struct dpt *t, struct dp_cq *cq, u8 op, u8 synd)
{
	const u8 *c = dp_poll(t, cq);

	KUNIT_ASSERT_NOT_NULL_MSG(t->test, c, "no CQE on CQ %u (want op %u)",
				  cq->cqn, op);
	KUNIT_EXPECT_EQ(t->test, CQE_OP(c), op);
	if (op == FWSIM_CQE_REQ_ERR || op == FWSIM_CQE_RESP_ERR)
		KUNIT_EXPECT_EQ(t->test, CQE_SYND(c), synd);
	return c;
}

static void dp_expect_empty(struct dpt *t, struct dp_cq *cq)
{
	KUNIT_EXPECT_NULL(t->test, dp_poll(t, cq));
}

#define SIG	0x08		/* fm_ce_se: CQE on completion */

/* SEND and SEND_IMM with SGE lists and inline data, RC */
static void fwsim_dp_send_recv(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	u8 *m = (u8 *)t->mem.cpu;
	static const char inl[] = "inline-data-21-bytes";
	u32 lens[2] = { 5, 100 };
	u64 vas[2] = { DP_VA + 0x5000, DP_VA + 0x6ffe };	/* across pages */
	struct wb b;
	const u8 *c;
	u32 i;

	for (i = 0; i < 400; i++)
		m[0xfe0 + i] = (u8)(i * 7 + 1);
	/* gather from the MTT MKey (crossing a page) and the PA MKey */
	dp_recv(t, &t->b, 2, lens, vas, t->lkey);
	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, SIG, 0);
	wb_data(&b, 40, t->lkey, DP_VA + 0xfe0);
	wb_data(&b, 60, t->pa_key, t->mem.bus + 0x1028);
	fdp_send(t, &t->a, &b);
	c = dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, CQE_QPN(c), t->a.qpn);
	KUNIT_EXPECT_EQ(test, CQE_WOP(c), (u32)FWSIM_WQE_SEND);
	KUNIT_EXPECT_EQ(test, CQE_CNT(c), 0u);
	c = dp_expect(t, &t->rcq, FWSIM_CQE_RESP_SEND, 0);
	KUNIT_EXPECT_EQ(test, CQE_BYTES(c), 100u);
	KUNIT_EXPECT_EQ(test, CQE_QPN(c), t->b.qpn);
	KUNIT_EXPECT_EQ(test, CQE_CNT(c), 0u);
	/* the gathered stream: mem 0xfe0..0x1008, then mem 0x1028..0x1064 */
	KUNIT_EXPECT_EQ(test, memcmp(va_ptr(t, DP_VA + 0x5000), m + 0xfe0, 5), 0);
	KUNIT_EXPECT_EQ(test, memcmp(va_ptr(t, DP_VA + 0x6ffe), m + 0xfe5, 35), 0);
	KUNIT_EXPECT_EQ(test, memcmp(va_ptr(t, DP_VA + 0x6ffe + 35), m + 0x1028, 60), 0);
	/* inline, with an immediate, unsignalled NOP before it */
	dp_recv1(t, &t->b, 64, DP_VA + 0x8000);
	wb_ctrl(&b, &t->a, FWSIM_WQE_NOP, 0, 0);
	dp_post(t, &t->a, &b);
	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND_IMM, SIG | 0x02, 0x12345678);
	wb_inline(&b, inl, sizeof(inl));
	fdp_send(t, &t->a, &b);
	c = dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, CQE_CNT(c), 2u);		/* the NOP had no CQE */
	c = dp_expect(t, &t->rcq, FWSIM_CQE_RESP_SEND_IMM, 0);
	KUNIT_EXPECT_EQ(test, CQE_BYTES(c), (u32)sizeof(inl));
	KUNIT_EXPECT_EQ(test, CQE_IMM(c), 0x12345678u);
	KUNIT_EXPECT_EQ(test, memcmp(va_ptr(t, DP_VA + 0x8000), inl, sizeof(inl)), 0);
	dp_expect_empty(t, &t->scq);
	dp_expect_empty(t, &t->rcq);
	KUNIT_EXPECT_EQ(test, t->r->fw->nr_errs, 0u);
	fdp_down(t);
}

/* RDMA WRITE, WRITE_IMM, READ and both atomics: exact results */
static void fwsim_dp_rdma_atomics(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	u8 *m = (u8 *)t->mem.cpu;
	struct wb b;
	const u8 *c;
	u32 i;

	for (i = 0; i < 64; i++)
		m[i] = (u8)(0xa0 + i);
	wb_ctrl(&b, &t->a, FWSIM_WQE_WRITE, SIG, 0);
	wb_raddr(&b, DP_VA + 0x2ff0, t->lkey);
	wb_data(&b, 64, t->lkey, DP_VA);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, memcmp(m + 0x2ff0, m, 64), 0);
	dp_expect_empty(t, &t->rcq);
	/* WRITE_IMM consumes a receive WQE and writes no data into it */
	dp_recv1(t, &t->b, 16, DP_VA + 0x9000);
	wb_ctrl(&b, &t->a, FWSIM_WQE_WRITE_IMM, SIG, 0xcafe);
	wb_raddr(&b, DP_VA + 0x3100, t->lkey);
	wb_data(&b, 8, t->lkey, DP_VA + 8);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	c = dp_expect(t, &t->rcq, FWSIM_CQE_RESP_WRITE_IMM, 0);
	KUNIT_EXPECT_EQ(test, CQE_IMM(c), 0xcafeu);
	KUNIT_EXPECT_EQ(test, CQE_BYTES(c), 8u);
	KUNIT_EXPECT_EQ(test, memcmp(m + 0x3100, m + 8, 8), 0);
	KUNIT_EXPECT_EQ(test, m[0x9000], 0);
	/* READ 100 bytes back into two SGEs */
	for (i = 0; i < 100; i++)
		m[0x4000 + i] = (u8)(i ^ 0x5c);
	wb_ctrl(&b, &t->a, FWSIM_WQE_READ, SIG, 0);
	wb_raddr(&b, DP_VA + 0x4000, t->ro_key);
	wb_data(&b, 30, t->lkey, DP_VA + 0xa000);
	wb_data(&b, 70, t->lkey, DP_VA + 0xb000);
	fdp_send(t, &t->a, &b);
	c = dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, CQE_WOP(c), (u32)FWSIM_WQE_READ);
	KUNIT_EXPECT_EQ(test, CQE_BYTES(c), 100u);
	KUNIT_EXPECT_EQ(test, memcmp(m + 0xa000, m + 0x4000, 30), 0);
	KUNIT_EXPECT_EQ(test, memcmp(m + 0xb000, m + 0x4000 + 30, 70), 0);
	/* CMP_SWAP: match swaps, mismatch does not; both return the original */
	fwsim_wr64(m, 0xc000, 0x1111222233334444ull);
	wb_ctrl(&b, &t->a, FWSIM_WQE_CS, SIG, 0);
	wb_raddr(&b, DP_VA + 0xc000, t->lkey);
	wb_atomic(&b, 0xdeadbeef00000001ull, 0x1111222233334444ull);
	wb_data(&b, 8, t->lkey, DP_VA + 0xd000);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, fwsim_rd64(m, 0xc000), 0xdeadbeef00000001ull);
	KUNIT_EXPECT_EQ(test, fwsim_rd64(m, 0xd000), 0x1111222233334444ull);
	wb_ctrl(&b, &t->a, FWSIM_WQE_CS, SIG, 0);
	wb_raddr(&b, DP_VA + 0xc000, t->lkey);
	wb_atomic(&b, 5, 0x1111222233334444ull);
	wb_data(&b, 8, t->lkey, DP_VA + 0xd008);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, fwsim_rd64(m, 0xc000), 0xdeadbeef00000001ull);
	KUNIT_EXPECT_EQ(test, fwsim_rd64(m, 0xd008), 0xdeadbeef00000001ull);
	/* FETCH_ADD */
	wb_ctrl(&b, &t->a, FWSIM_WQE_FA, SIG, 0);
	wb_raddr(&b, DP_VA + 0xc000, t->lkey);
	wb_atomic(&b, 0xffffffffull, 0);
	wb_data(&b, 8, t->lkey, DP_VA + 0xd010);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, fwsim_rd64(m, 0xc000), 0xdeadbef000000000ull);
	KUNIT_EXPECT_EQ(test, fwsim_rd64(m, 0xd010), 0xdeadbeef00000001ull);
	KUNIT_EXPECT_EQ(test, t->r->fw->nr_errs, 0u);
	fdp_down(t);
}

/* rkey violations: remote access error 0x13, nothing written, flush */
enum { V_BAD_KEY, V_BOUNDS, V_ACCESS, V_ATOMIC_ALIGN, V_NR };
static const char *const v_names[V_NR] = {
	"bad key", "out of bounds", "no remote write", "unaligned atomic",
};

static void v_desc(const int *v, char *desc)
{
	strscpy(desc, v_names[*v], KUNIT_PARAM_DESC_SIZE);
}

static const int v_params[V_NR] = { V_BAD_KEY, V_BOUNDS, V_ACCESS, V_ATOMIC_ALIGN };
KUNIT_ARRAY_PARAM(v, v_params, v_desc);

static void fwsim_dp_rkey_violation(struct kunit *test)
{
	int v = *(const int *)test->param_value;
	struct dpt *t = fdp_up(test, 0);
	u8 *m = (u8 *)t->mem.cpu;
	struct wb b;
	const u8 *c;

	memset(m, 0x77, 64);
	if (v == V_ATOMIC_ALIGN) {
		wb_ctrl(&b, &t->a, FWSIM_WQE_FA, SIG, 0);
		wb_raddr(&b, DP_VA + 0x3004, t->lkey);
		wb_atomic(&b, 1, 0);
		wb_data(&b, 8, t->lkey, DP_VA + 0x100);
	} else {
		wb_ctrl(&b, &t->a, FWSIM_WQE_WRITE, SIG, 0);
		wb_raddr(&b, v == V_BOUNDS ? DP_VA + DP_PAGES * 4096 - 32 :
			 DP_VA + 0x3000,
			 v == V_BAD_KEY ? (t->lkey ^ 0x01) :
			 v == V_ACCESS ? t->ro_key : t->lkey);
		wb_data(&b, 64, t->lkey, DP_VA);
	}
	dp_post(t, &t->a, &b);
	/* a second WQE behind it is flushed */
	wb_ctrl(&b, &t->a, FWSIM_WQE_NOP, SIG, 0);
	fdp_send(t, &t->a, &b);
	c = dp_expect(t, &t->scq, FWSIM_CQE_REQ_ERR,
		      v == V_ATOMIC_ALIGN ? FWSIM_SYN_REM_INV_REQ :
		      FWSIM_SYN_REM_ACCESS);
	KUNIT_EXPECT_EQ(test, CQE_CNT(c), 0u);
	c = dp_expect(t, &t->scq, FWSIM_CQE_REQ_ERR, FWSIM_SYN_FLUSH);
	KUNIT_EXPECT_EQ(test, CQE_CNT(c), 1u);
	KUNIT_EXPECT_EQ(test, (int)t->r->fw->qps[t->a.qpn - FWSIM_QPN_BASE].state,
			(int)FWSIM_QPS_ERR);
	/* the responder's RC QP goes to ERR as well */
	KUNIT_EXPECT_EQ(test, (int)t->r->fw->qps[t->b.qpn - FWSIM_QPN_BASE].state,
			(int)FWSIM_QPS_ERR);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(m + 0x3000, 0, 64));
	KUNIT_EXPECT_TRUE(test, !memchr_inv(m + DP_PAGES * 4096 - 32, 0, 32));
	KUNIT_EXPECT_TRUE(test, !memchr_inv(m + 0x100, 0, 8));
	fdp_down(t);
}

/* UD: GRH before the payload, source QP in the CQE, Q_Key mismatch dropped */
static void fwsim_dp_ud(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	u8 *m = (u8 *)t->mem.cpu;
	static const char msg[] = "ud datagram";
	struct wb b;
	const u8 *c;

	dp_recv1(t, &t->v, 40 + 64, DP_VA + 0x6000);
	wb_ctrl(&b, &t->u, FWSIM_WQE_SEND, SIG, 0);
	wb_dgram(&b, DP_QKEY, t->v.qpn, dp_gid);
	wb_inline(&b, msg, sizeof(msg));
	fdp_send(t, &t->u, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	c = dp_expect(t, &t->rcq, FWSIM_CQE_RESP_SEND, 0);
	KUNIT_EXPECT_EQ(test, CQE_BYTES(c), 40u + (u32)sizeof(msg));
	KUNIT_EXPECT_EQ(test, fwsim_rd(c, FWSIM_CQE_FLAGS_RQPN, 23, 0), t->u.qpn);
	KUNIT_EXPECT_EQ(test, fwsim_rd(c, FWSIM_CQE_FLAGS_RQPN, 28, 28), 1u);
	KUNIT_EXPECT_EQ(test, m[0x6000] >> 4, 6);			/* IPv6 */
	KUNIT_EXPECT_EQ(test, fwsim_rd(m, 0x6004, 31, 16), (u32)sizeof(msg));
	KUNIT_EXPECT_EQ(test, memcmp(m + 0x6008, dp_gid, 16), 0);	/* SGID */
	KUNIT_EXPECT_EQ(test, memcmp(m + 0x6018, dp_gid, 16), 0);	/* DGID */
	KUNIT_EXPECT_EQ(test, memcmp(m + 0x6028, msg, sizeof(msg)), 0);
	/* another Q_Key: dropped, the send still completes */
	dp_recv1(t, &t->v, 40 + 64, DP_VA + 0x7000);
	wb_ctrl(&b, &t->u, FWSIM_WQE_SEND, SIG, 0);
	wb_dgram(&b, DP_QKEY + 1, t->v.qpn, dp_gid);
	wb_inline(&b, msg, sizeof(msg));
	fdp_send(t, &t->u, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	dp_expect_empty(t, &t->rcq);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(m + 0x7000, 0, 104));
	KUNIT_EXPECT_EQ(test, t->r->fw->dp_drops, 1u);
	fdp_down(t);
}

/* a short receive buffer: local length error there, 0x12 at the requester */
static void fwsim_dp_short_recv(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	u8 *m = (u8 *)t->mem.cpu;
	struct wb b;

	memset(m, 0x3c, 64);
	dp_recv1(t, &t->b, 63, DP_VA + 0x5000);
	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, SIG, 0);
	wb_data(&b, 64, t->lkey, DP_VA);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ_ERR, FWSIM_SYN_REM_INV_REQ);
	dp_expect(t, &t->rcq, FWSIM_CQE_RESP_ERR, FWSIM_SYN_LOC_LEN);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(m + 0x5000, 0, 64));
	fdp_down(t);
}

/* RNR: no receive WQE; rnr_retry 0 fails at once with 0x16 */
static void fwsim_dp_rnr(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	struct wb b;

	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, SIG, 0);
	wb_data(&b, 8, t->lkey, DP_VA);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ_ERR, FWSIM_SYN_RNR);
	/* the responder keeps working */
	KUNIT_EXPECT_EQ(test, (int)t->r->fw->qps[t->b.qpn - FWSIM_QPN_BASE].state,
			(int)FWSIM_QPS_RTS);
	fdp_down(t);
}

/* rnr_retry 7: the WQE waits for a receive WQE and the next doorbell */
static void fwsim_dp_rnr_infinite(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 7);
	struct wb b;

	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, SIG, 0);
	wb_data(&b, 8, t->lkey, DP_VA);
	fdp_send(t, &t->a, &b);
	dp_expect_empty(t, &t->scq);
	dp_recv1(t, &t->b, 8, DP_VA + 0x5000);
	dp_ring(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	dp_expect(t, &t->rcq, FWSIM_CQE_RESP_SEND, 0);
	fdp_down(t);
}

/* 2ERR flushes every posted receive; the CQ owner bit wraps */
static void fwsim_dp_flush_and_wrap(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	struct wb b;
	const u8 *c;
	u32 i;
	u8 *in;

	/* 20 SEND/RECV pairs through 8-entry CQs: the owner bit flips */
	for (i = 0; i < 20; i++) {
		dp_recv1(t, &t->b, 8, DP_VA + 0x5000);
		wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, SIG, 0);
		wb_data(&b, 8, t->lkey, DP_VA + 8 * i);
		fdp_send(t, &t->a, &b);
		c = dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
		KUNIT_EXPECT_EQ(test, CQE_CNT(c), i);
		KUNIT_EXPECT_EQ(test, c[63] & 1, (i >> DP_LOG_CQ) & 1);
		c = dp_expect(t, &t->rcq, FWSIM_CQE_RESP_SEND, 0);
		KUNIT_EXPECT_EQ(test, CQE_CNT(c), i);
	}
	dp_recv1(t, &t->b, 8, DP_VA);
	dp_recv1(t, &t->b, 8, DP_VA);
	dp_recv1(t, &t->b, 8, DP_VA);
	in = dp_in(t, MLXL_OP_2ERR_QP, 0x10);
	fwsim_wr(in, 0x08, 23, 0, t->b.qpn);
	dp_exec(t, 0x10, 0x10);
	for (i = 0; i < 3; i++) {
		c = dp_expect(t, &t->rcq, FWSIM_CQE_RESP_ERR, FWSIM_SYN_FLUSH);
		KUNIT_EXPECT_EQ(test, CQE_CNT(c), 20 + i);
	}
	dp_expect_empty(t, &t->rcq);
	/* a WQE posted in ERR is flushed at its doorbell */
	dp_recv1(t, &t->b, 8, DP_VA);
	wb_ctrl(&b, &t->b, FWSIM_WQE_NOP, SIG, 0);
	fdp_send(t, &t->b, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ_ERR, FWSIM_SYN_FLUSH);
	dp_expect(t, &t->rcq, FWSIM_CQE_RESP_ERR, FWSIM_SYN_FLUSH);
	fdp_down(t);
}

/* one completion EQE per arm; solicited-only waits for a solicited CQE */
static void fwsim_dp_arm(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	struct fwsim_eq *eq;
	struct wb b;
	u32 pi0, i;

	eq = &t->r->fw->eqs[t->r->dev->eqn];
	/* the EQ is consumed up to here: no EQE is lost to a full EQ */
	fwsim_mmio_write32(t->r->fw, t->r->dev->uar * 4096 + 0x48,
			   t->r->dev->eqn << 24 | eq->pi);
	pi0 = eq->pi;
	fwsim_mmio_write64(t->r->fw, t->r->dev->uar * 4096 + 0x20,
			   (u64)(0u << 28 | t->scq.ci) << 32 | t->scq.cqn);
	for (i = 0; i < 2; i++) {
		wb_ctrl(&b, &t->a, FWSIM_WQE_NOP, SIG, 0);
		fdp_send(t, &t->a, &b);
	}
	KUNIT_EXPECT_EQ(test, eq->pi - pi0, 1u);
	KUNIT_EXPECT_EQ(test, fwsim_rd((u8 *)t->r->dev->eq_buf.cpu +
				       64 * (pi0 & ((1u << t->r->dev->eq_log_size) - 1)),
				       0x38, 23, 0), t->scq.cqn);
	dp_poll(t, &t->scq);
	dp_poll(t, &t->scq);
	/* armed with CQEs already beyond ci: at once */
	fwsim_mmio_write64(t->r->fw, t->r->dev->uar * 4096 + 0x20,
			   (u64)(1u << 28 | (t->scq.ci - 1)) << 32 | t->scq.cqn);
	KUNIT_EXPECT_EQ(test, eq->pi - pi0, 2u);
	/* solicited only: an unsolicited CQE raises nothing, a solicited one does */
	fwsim_mmio_write64(t->r->fw, t->r->dev->uar * 4096 + 0x20,
			   (u64)(2u << 28 | 1u << 24 | t->rcq.ci) << 32 | t->rcq.cqn);
	dp_recv1(t, &t->b, 8, DP_VA + 0x5000);
	dp_recv1(t, &t->b, 8, DP_VA + 0x5000);
	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, 0, 0);
	wb_data(&b, 8, t->lkey, DP_VA);
	fdp_send(t, &t->a, &b);
	KUNIT_EXPECT_EQ(test, eq->pi - pi0, 2u);
	wb_ctrl(&b, &t->a, FWSIM_WQE_SEND, 0x02, 0);
	wb_data(&b, 8, t->lkey, DP_VA);
	fdp_send(t, &t->a, &b);
	KUNIT_EXPECT_EQ(test, eq->pi - pi0, 3u);
	/* a doorbell for a CQ of another UAR is refused */
	fwsim_mmio_write64(t->r->fw, (t->r->dev->uar + 1) * 4096 + 0x20,
			   (u64)t->rcq.ci << 32 | t->rcq.cqn);
	KUNIT_EXPECT_EQ(test, fwsim_err_count(t->r->fw, FWSIM_E_DP_DOORBELL), 1u);
	fdp_down(t);
}

/* a producer counter more than the ring ahead runs nothing */
static void fwsim_dp_producer_too_far(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	struct wb b;

	wb_ctrl(&b, &t->a, FWSIM_WQE_NOP, SIG, 0);
	dp_post(t, &t->a, &b);
	fwsim_wr((u8 *)t->a.dbr.cpu, 4, 31, 0, (1u << DP_LOG_Q) + 1);
	dp_ring(t, &t->a, &b);
	dp_expect_empty(t, &t->scq);
	KUNIT_EXPECT_EQ(test, fwsim_err_count(t->r->fw, FWSIM_E_DP_PRODUCER), 1u);
	/* back in range: runs */
	fwsim_wr((u8 *)t->a.dbr.cpu, 4, 31, 0, 1);
	dp_ring(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	/* an opcode the model does not execute: 0x02 local QP operation */
	wb_ctrl(&b, &t->a, FWSIM_WQE_UMR, SIG, 0);
	fdp_send(t, &t->a, &b);
	dp_expect(t, &t->scq, FWSIM_CQE_REQ_ERR, FWSIM_SYN_LOC_QP_OP);
	fdp_down(t);
}

/* ---- two model instances, delivered by destination GID */
static const u8 dp_gid2[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2,
};
static struct fwsim *dp_pair[2];

static struct fwsim *dp_route(void *ctx, const u8 *dgid)
{
	u32 i;

	(void)ctx;
	for (i = 0; i < 2; i++)
		if (dp_pair[i] && !memcmp(dp_pair[i]->gids[0].raw, dgid, 16))
			return dp_pair[i];
	return NULL;
}

static void fwsim_dp_two_instances(struct kunit *test)
{
	struct dpt *x = dp_up_gids(test, 0, dp_gid, dp_gid2);
	struct dpt *y = dp_up_gids(test, 0, dp_gid2, dp_gid);
	u8 *mx = (u8 *)x->mem.cpu, *my = (u8 *)y->mem.cpu;
	struct wb b;
	const u8 *c;
	u32 i;

	dp_pair[0] = x->r->fw;
	dp_pair[1] = y->r->fw;
	x->r->fops.route = dp_route;
	y->r->fops.route = dp_route;
	for (i = 0; i < 64; i++)
		mx[i] = (u8)(0x30 + i);
	/* x's RC QP a sends to y's QP b (same QPN on both instances) */
	dp_recv1(y, &y->b, 64, DP_VA + 0x5000);
	wb_ctrl(&b, &x->a, FWSIM_WQE_SEND, SIG, 0);
	wb_data(&b, 64, x->lkey, DP_VA);
	fdp_send(x, &x->a, &b);
	dp_expect(x, &x->scq, FWSIM_CQE_REQ, 0);
	dp_expect_empty(x, &x->rcq);
	c = dp_expect(y, &y->rcq, FWSIM_CQE_RESP_SEND, 0);
	KUNIT_EXPECT_EQ(test, CQE_BYTES(c), 64u);
	KUNIT_EXPECT_EQ(test, memcmp(my + 0x5000, mx, 64), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mx + 0x5000, 0, 64));
	/* RDMA WRITE lands in y's memory, READ brings it back to x */
	wb_ctrl(&b, &x->a, FWSIM_WQE_WRITE, SIG, 0);
	wb_raddr(&b, DP_VA + 0x6000, y->lkey);
	wb_data(&b, 32, x->lkey, DP_VA + 16);
	fdp_send(x, &x->a, &b);
	dp_expect(x, &x->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, memcmp(my + 0x6000, mx + 16, 32), 0);
	wb_ctrl(&b, &x->a, FWSIM_WQE_READ, SIG, 0);
	wb_raddr(&b, DP_VA + 0x5000, y->lkey);
	wb_data(&b, 64, x->lkey, DP_VA + 0x7000);
	fdp_send(x, &x->a, &b);
	dp_expect(x, &x->scq, FWSIM_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, memcmp(mx + 0x7000, mx, 64), 0);
	/* UD by GID: y's QP v gets x's GID as the GRH source */
	dp_recv1(y, &y->v, 40 + 16, DP_VA + 0x8000);
	wb_ctrl(&b, &x->u, FWSIM_WQE_SEND, SIG, 0);
	wb_dgram(&b, DP_QKEY, y->v.qpn, dp_gid2);
	wb_inline(&b, "x", 2);
	fdp_send(x, &x->u, &b);
	dp_expect(x, &x->scq, FWSIM_CQE_REQ, 0);
	dp_expect(y, &y->rcq, FWSIM_CQE_RESP_SEND, 0);
	KUNIT_EXPECT_EQ(test, memcmp(my + 0x8008, dp_gid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(my + 0x8018, dp_gid2, 16), 0);
	/* a GID nobody owns: the RC request times out (0x15) */
	memset(y->r->fw->gids[0].raw, 0, 16);
	wb_ctrl(&b, &x->a, FWSIM_WQE_SEND, SIG, 0);
	fdp_send(x, &x->a, &b);
	dp_expect(x, &x->scq, FWSIM_CQE_REQ_ERR, FWSIM_SYN_RETRY);
	dp_pair[0] = NULL;
	dp_pair[1] = NULL;
	fdp_down(y);
	rig_exit(test);			/* y's rig; x's goes with the suite */
	test->priv = x->r;
	fdp_down(x);
}

/* a CQE finding the CQ full is lost; the CQ takes no more */
static void fwsim_dp_cq_overrun(struct kunit *test)
{
	struct dpt *t = fdp_up(test, 0);
	struct fwsim_cq *cq = &t->r->fw->cqs[t->scq.cqn - 1];
	struct wb b;
	u32 i;

	for (i = 0; i <= (1u << DP_LOG_CQ); i++) {
		wb_ctrl(&b, &t->a, FWSIM_WQE_NOP, SIG, 0);
		fdp_send(t, &t->a, &b);
	}
	KUNIT_EXPECT_EQ(test, cq->pi, 1u << DP_LOG_CQ);
	KUNIT_EXPECT_TRUE(test, cq->overrun);
	KUNIT_EXPECT_EQ(test, fwsim_err_count(t->r->fw, FWSIM_E_CQ_OVERRUN), 1u);
	for (i = 0; i < (1u << DP_LOG_CQ); i++)
		dp_expect(t, &t->scq, FWSIM_CQE_REQ, 0);
	wb_ctrl(&b, &t->a, FWSIM_WQE_NOP, SIG, 0);
	fdp_send(t, &t->a, &b);
	dp_expect_empty(t, &t->scq);
	fdp_down(t);
}
