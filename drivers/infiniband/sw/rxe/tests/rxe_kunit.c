// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for rxe's object layer on a made-up device (pools and
 * attributes only): CQ overflow and arming, CQ resize, SRQ limit arming,
 * flush to ERR in posting order, fast-reg MR page lists with REG_MR and
 * LOCAL_INV, and a local error moving the QP to ERR.  The objects are
 * created through the driver ops as core would call them for kernel
 * users (udata NULL).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/scatterlist.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"
#include "rxe_test_hooks.h"

struct kt_counts {
	int comp;			/* comp_handler calls */
	int cq_err;
	int srq_limit;
	int qp_fatal;
};

static void kt_comp(struct ib_cq *cq, void *ctx)
{
	((struct kt_counts *)ctx)->comp++;
}

static void kt_event(struct ib_event *ev, void *ctx)
{
	struct kt_counts *c = (struct kt_counts *)ctx;

	switch (ev->event) {
	case IB_EVENT_CQ_ERR:
		c->cq_err++;
		break;
	case IB_EVENT_SRQ_LIMIT_REACHED:
		c->srq_limit++;
		break;
	case IB_EVENT_QP_FATAL:
		c->qp_fatal++;
		break;
	default:
		break;
	}
}

static struct rxe_dev *kt_dev(struct kunit *test)
{
	struct rxe_dev *rxe = (struct rxe_dev *)kunit_kzalloc(test,
						sizeof(*rxe), GFP_KERNEL);
	struct ib_device_attr *a;

	KUNIT_ASSERT_NOT_NULL(test, rxe);
	a = &rxe->ib_dev.attrs;
	strscpy(rxe->ib_dev.name, "rxe_kunit", sizeof(rxe->ib_dev.name));
	a->max_pd = RXE_MAX_PD;
	a->max_mr = RXE_MAX_MR;
	a->max_mw = RXE_MAX_MW;
	a->max_cq = RXE_MAX_CQ;
	a->max_cqe = RXE_MAX_CQE;
	a->max_qp = RXE_MAX_QP;
	a->max_qp_wr = RXE_MAX_QP_WR;
	a->max_send_sge = RXE_MAX_SGE;
	a->max_recv_sge = RXE_MAX_SGE;
	a->max_srq = RXE_MAX_SRQ;
	a->max_srq_wr = RXE_MAX_SRQ_WR;
	a->max_srq_sge = RXE_MAX_SRQ_SGE;
	a->max_ah = RXE_MAX_AH;
	rxe_pools_init(rxe);
	return rxe;
}

static struct rxe_cq *kt_cq(struct kunit *test, struct rxe_dev *rxe, int cqe,
			    struct kt_counts *c)
{
	struct rxe_cq *cq = (struct rxe_cq *)kunit_kzalloc(test, sizeof(*cq),
							   GFP_KERNEL);
	struct ib_cq_init_attr attr = { .cqe = (unsigned int)cqe };

	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq->ibcq.device = &rxe->ib_dev;
	cq->ibcq.comp_handler = kt_comp;
	cq->ibcq.event_handler = kt_event;
	cq->ibcq.cq_context = c;
	KUNIT_ASSERT_EQ(test, rxe_create_cq(&cq->ibcq, &attr, NULL), 0);
	return cq;
}

static void kt_wc(struct ib_wc *wc, u64 wr_id)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->opcode = IB_WC_RECV;
}

static void rxe_kunit_cq_overflow(struct kunit *test)
{
	struct rxe_dev *rxe = kt_dev(test);
	struct kt_counts c = {};
	struct rxe_cq *cq = kt_cq(test, rxe, 3, &c);
	struct ib_wc wc, out[8];
	int i, n;

	KUNIT_EXPECT_EQ(test, cq->ibcq.cqe, 3);
	for (i = 0; i < 3; i++) {
		kt_wc(&wc, 100 + i);
		KUNIT_EXPECT_EQ(test, rxe_cq_post(cq, &wc, false), 0);
	}
	kt_wc(&wc, 999);
	KUNIT_EXPECT_EQ(test, rxe_cq_post(cq, &wc, false), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, c.cq_err, 1);
	KUNIT_EXPECT_EQ(test, c.comp, 0);	/* never armed */

	n = rxe_poll_cq(&cq->ibcq, 8, out);
	KUNIT_ASSERT_EQ(test, n, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, out[i].wr_id, (u64)(100 + i));
	KUNIT_EXPECT_EQ(test, rxe_poll_cq(&cq->ibcq, 8, out), 0);

	rxe_destroy_cq(&cq->ibcq, NULL);
	rxe_pools_cleanup(rxe);
}

static void rxe_kunit_cq_arm(struct kunit *test)
{
	struct rxe_dev *rxe = kt_dev(test);
	struct kt_counts c = {};
	struct rxe_cq *cq = kt_cq(test, rxe, 8, &c);
	struct ib_wc wc;

	KUNIT_EXPECT_EQ(test, rxe_req_notify_cq(&cq->ibcq,
			(enum ib_cq_notify_flags)(IB_CQ_NEXT_COMP |
						  IB_CQ_REPORT_MISSED_EVENTS)), 0);
	kt_wc(&wc, 1);
	rxe_cq_post(cq, &wc, false);
	KUNIT_EXPECT_EQ(test, c.comp, 1);
	rxe_cq_post(cq, &wc, false);
	KUNIT_EXPECT_EQ(test, c.comp, 1);	/* one event per arm */

	/* solicited-only arm ignores unsolicited completions */
	KUNIT_EXPECT_EQ(test, rxe_req_notify_cq(&cq->ibcq,
			(enum ib_cq_notify_flags)(IB_CQ_SOLICITED |
						  IB_CQ_REPORT_MISSED_EVENTS)), 1);
	rxe_cq_post(cq, &wc, false);
	KUNIT_EXPECT_EQ(test, c.comp, 1);
	rxe_cq_post(cq, &wc, true);
	KUNIT_EXPECT_EQ(test, c.comp, 2);

	rxe_destroy_cq(&cq->ibcq, NULL);
	rxe_pools_cleanup(rxe);
}

static void rxe_kunit_cq_resize(struct kunit *test)
{
	struct rxe_dev *rxe = kt_dev(test);
	struct kt_counts c = {};
	struct rxe_cq *cq = kt_cq(test, rxe, 7, &c);
	struct ib_wc wc, out[16];
	int i;

	for (i = 0; i < 5; i++) {
		kt_wc(&wc, i);
		rxe_cq_post(cq, &wc, false);
	}
	/* not below what it holds */
	KUNIT_EXPECT_EQ(test, rxe_resize_cq(&cq->ibcq, 4, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_resize_cq(&cq->ibcq, RXE_MAX_CQE + 1, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_resize_cq(&cq->ibcq, 5, NULL), 0);
	KUNIT_EXPECT_EQ(test, cq->ibcq.cqe, 7);
	KUNIT_EXPECT_EQ(test, rxe_resize_cq(&cq->ibcq, 20, NULL), 0);
	KUNIT_EXPECT_EQ(test, cq->ibcq.cqe, 31);
	KUNIT_ASSERT_EQ(test, rxe_poll_cq(&cq->ibcq, 16, out), 5);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, out[i].wr_id, (u64)i);

	rxe_destroy_cq(&cq->ibcq, NULL);
	rxe_pools_cleanup(rxe);
}

static struct rxe_pd *kt_pd(struct kunit *test, struct rxe_dev *rxe)
{
	struct rxe_pd *pd = (struct rxe_pd *)kunit_kzalloc(test, sizeof(*pd),
							   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pd);
	pd->ibpd.device = &rxe->ib_dev;
	KUNIT_ASSERT_EQ(test, rxe_alloc_pd(&pd->ibpd, NULL), 0);
	return pd;
}

static int kt_post_recvs(struct rxe_srq *srq, int n, u64 first)
{
	struct ib_recv_wr wr = {};
	const struct ib_recv_wr *bad;
	int i, ret;

	for (i = 0; i < n; i++) {
		wr.wr_id = first + i;
		ret = rxe_post_srq_recv(&srq->ibsrq, &wr, &bad);
		if (ret)
			return ret;
	}
	return 0;
}

/* an SRQ of 8 WRs (15 slots) of one SGE on @pd, events counted in @c */
static struct rxe_srq *kt_srq(struct kunit *test, struct rxe_dev *rxe,
			      struct rxe_pd *pd, struct kt_counts *c)
{
	struct rxe_srq *srq = (struct rxe_srq *)kunit_kzalloc(test,
						sizeof(*srq), GFP_KERNEL);
	struct ib_srq_init_attr init = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};

	KUNIT_ASSERT_NOT_NULL(test, srq);
	srq->ibsrq.device = &rxe->ib_dev;
	srq->ibsrq.pd = &pd->ibpd;
	srq->ibsrq.event_handler = kt_event;
	srq->ibsrq.srq_context = c;
	KUNIT_ASSERT_EQ(test, rxe_create_srq(&srq->ibsrq, &init, NULL), 0);
	KUNIT_EXPECT_EQ(test, init.attr.max_wr, 15U);
	return srq;
}

static void rxe_kunit_srq_limit(struct kunit *test)
{
	struct rxe_dev *rxe = kt_dev(test);
	struct rxe_pd *pd = kt_pd(test, rxe);
	struct kt_counts c = {};
	struct rxe_srq *srq = kt_srq(test, rxe, pd, &c);
	struct ib_srq_attr attr = {};
	struct rxe_recv_wqe wqe;
	int i;

	KUNIT_EXPECT_GE(test, srq->elem.index, (u32)RXE_MIN_SRQ_INDEX);

	KUNIT_ASSERT_EQ(test, kt_post_recvs(srq, 6, 10), 0);
	/* limit above max_wr */
	attr.srq_limit = 16;
	KUNIT_EXPECT_EQ(test, rxe_modify_srq(&srq->ibsrq, &attr, IB_SRQ_LIMIT,
					     NULL), -EINVAL);
	attr.srq_limit = 4;
	KUNIT_ASSERT_EQ(test, rxe_modify_srq(&srq->ibsrq, &attr, IB_SRQ_LIMIT,
					     NULL), 0);
	/* 6 -> 5 -> 4: not below 4 yet */
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), 0);
		KUNIT_EXPECT_EQ(test, wqe.wr_id, (u64)(10 + i));
	}
	KUNIT_EXPECT_EQ(test, c.srq_limit, 0);
	/* 3 < 4: fires once and disarms */
	KUNIT_ASSERT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), 0);
	KUNIT_EXPECT_EQ(test, c.srq_limit, 1);
	rxe_query_srq(&srq->ibsrq, &attr);
	KUNIT_EXPECT_EQ(test, attr.srq_limit, 0U);
	KUNIT_ASSERT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), 0);
	KUNIT_EXPECT_EQ(test, c.srq_limit, 1);

	/* re-arm with 2: 2 left, one more consumption fires again */
	attr.srq_limit = 2;
	KUNIT_ASSERT_EQ(test, rxe_modify_srq(&srq->ibsrq, &attr, IB_SRQ_LIMIT,
					     NULL), 0);
	KUNIT_ASSERT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), 0);
	KUNIT_EXPECT_EQ(test, c.srq_limit, 2);
	KUNIT_ASSERT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), 0);
	KUNIT_EXPECT_EQ(test, wqe.wr_id, 15ULL);
	KUNIT_EXPECT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), -EAGAIN);

	/* resize keeps what is posted, in order */
	KUNIT_ASSERT_EQ(test, kt_post_recvs(srq, 3, 20), 0);
	attr.max_wr = 2;
	KUNIT_EXPECT_EQ(test, rxe_modify_srq(&srq->ibsrq, &attr, IB_SRQ_MAX_WR,
					     NULL), -EINVAL);
	attr.max_wr = 40;
	KUNIT_ASSERT_EQ(test, rxe_modify_srq(&srq->ibsrq, &attr, IB_SRQ_MAX_WR,
					     NULL), 0);
	rxe_query_srq(&srq->ibsrq, &attr);
	KUNIT_EXPECT_EQ(test, attr.max_wr, 63U);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, rxe_srq_consume(srq, &wqe, sizeof(wqe)), 0);
		KUNIT_EXPECT_EQ(test, wqe.wr_id, (u64)(20 + i));
	}

	rxe_destroy_srq(&srq->ibsrq, NULL);
	rxe_dealloc_pd(&pd->ibpd, NULL);
	rxe_pools_cleanup(rxe);
}

/*
 * Resizes of one CQ, and modifies of one SRQ, are serialised
 * (Documentation/security.rst, item 8): a second call must not read the
 * queue the first is about to free.  At the first call's staging point
 * (queue read, the new one not yet made) a second call on the same
 * object starts from a thread; it must not reach that point before the
 * first call has left it.
 */
struct kt_resize {
	void *obj;		/* the CQ or SRQ */
	bool is_cq;
	atomic_t inside;	/* calls between staging point and return */
	atomic_t overlap;	/* a call reached the point while one was inside */
	struct completion done;
	int first_ret, second_ret;
};

static struct kt_resize *kt_resize_cur;

static int kt_resize_call(struct kt_resize *r, int size)
{
	struct ib_srq_attr attr = { .max_wr = (u32)size };

	if (r->is_cq)
		return rxe_resize_cq(&((struct rxe_cq *)r->obj)->ibcq, size,
				     NULL);
	return rxe_modify_srq(&((struct rxe_srq *)r->obj)->ibsrq, &attr,
			      IB_SRQ_MAX_WR, NULL);
}

static int kt_resize_thread(void *arg)
{
	struct kt_resize *r = (struct kt_resize *)arg;

	r->second_ret = kt_resize_call(r, 40);
	complete(&r->done);
	return 0;
}

static void kt_resize_hook(void *obj)
{
	struct kt_resize *r = kt_resize_cur;
	struct task_struct *t;

	if (!r || obj != r->obj)
		return;
	if (atomic_inc_return(&r->inside) > 1) {
		/* the second call, while the first is inside */
		atomic_inc(&r->overlap);
		atomic_dec(&r->inside);
		return;
	}
	if (completion_done(&r->done) || r->second_ret != 1) {
		/* the second call, after the first: nothing to stage */
		atomic_dec(&r->inside);
		return;
	}
	r->second_ret = -EINPROGRESS;
	t = kthread_run(kt_resize_thread, r, "rxe_kunit_resize");
	if (IS_ERR(t)) {
		r->second_ret = (int)PTR_ERR(t);
		complete(&r->done);
	} else {
		msleep(200);	/* time for the second call to get here */
	}
	atomic_dec(&r->inside);
}

static void kt_resize_race(struct kunit *test, struct kt_resize *r)
{
	atomic_set(&r->inside, 0);
	atomic_set(&r->overlap, 0);
	init_completion(&r->done);
	r->second_ret = 1;	/* not started */
	kt_resize_cur = r;
	rxe_kunit_resize_hook = kt_resize_hook;
	r->first_ret = kt_resize_call(r, 20);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&r->done, 30 * HZ),
			0UL);
	rxe_kunit_resize_hook = NULL;
	kt_resize_cur = NULL;
	KUNIT_EXPECT_EQ(test, r->first_ret, 0);
	KUNIT_EXPECT_EQ(test, r->second_ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r->overlap), 0,
			    "a second %s resize ran beside the first",
			    r->is_cq ? "CQ" : "SRQ");
}

static void rxe_kunit_resize_serialised(struct kunit *test)
{
	struct rxe_dev *rxe = kt_dev(test);
	struct rxe_pd *pd = kt_pd(test, rxe);
	struct kt_counts c = {};
	struct rxe_cq *cq = kt_cq(test, rxe, 7, &c);
	struct rxe_srq *srq;
	struct kt_resize r = {};
	struct ib_wc wc, out[8];
	int i;

	for (i = 0; i < 3; i++) {
		kt_wc(&wc, i);
		rxe_cq_post(cq, &wc, false);
	}
	r.obj = cq;
	r.is_cq = true;
	kt_resize_race(test, &r);
	/* whichever came last, nothing was lost */
	KUNIT_ASSERT_EQ(test, rxe_poll_cq(&cq->ibcq, 8, out), 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, out[i].wr_id, (u64)i);

	srq = kt_srq(test, rxe, pd, &c);
	KUNIT_ASSERT_EQ(test, kt_post_recvs(srq, 3, 10), 0);
	r.obj = srq;
	r.is_cq = false;
	kt_resize_race(test, &r);

	rxe_destroy_srq(&srq->ibsrq, NULL);
	rxe_destroy_cq(&cq->ibcq, NULL);
	rxe_dealloc_pd(&pd->ibpd, NULL);
	rxe_pools_cleanup(rxe);
}

struct kt_qp {
	struct rxe_dev *rxe;
	struct rxe_pd *pd;
	struct rxe_cq *scq, *rcq;
	struct rxe_qp *qp;
	struct kt_counts c;
	enum ib_qp_type type;	/* 0: RC */
};

static void kt_qp_make_wr(struct kunit *test, struct kt_qp *t, u32 wr)
{
	struct ib_qp_init_attr init = {
		.cap = { .max_send_wr = wr, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = t->type ? t->type : IB_QPT_RC,
	};
	struct rxe_qp *qp;

	t->rxe = kt_dev(test);
	t->pd = kt_pd(test, t->rxe);
	t->scq = kt_cq(test, t->rxe, wr > 16 ? (int)wr : 16, &t->c);
	t->rcq = kt_cq(test, t->rxe, 16, &t->c);
	qp = (struct rxe_qp *)kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->ibqp.device = &t->rxe->ib_dev;
	qp->ibqp.pd = &t->pd->ibpd;
	qp->ibqp.send_cq = &t->scq->ibcq;
	qp->ibqp.recv_cq = &t->rcq->ibcq;
	qp->ibqp.qp_type = init.qp_type;
	qp->ibqp.event_handler = kt_event;
	qp->ibqp.qp_context = &t->c;
	spin_lock_init(&qp->ibqp.state_lock);
	mutex_init(&qp->ibqp.modify_mutex);
	init.send_cq = qp->ibqp.send_cq;
	init.recv_cq = qp->ibqp.recv_cq;
	KUNIT_ASSERT_EQ(test, rxe_create_qp(&qp->ibqp, &init, NULL), 0);
	KUNIT_EXPECT_GE(test, qp->ibqp.qp_num, (u32)RXE_MIN_QP_INDEX);
	/* caps: a power-of-two ring, one slot left free */
	KUNIT_EXPECT_EQ(test, init.cap.max_send_wr,
			roundup_pow_of_two(wr + 1) - 1);
	t->qp = qp;
}

static void kt_qp_make(struct kunit *test, struct kt_qp *t)
{
	kt_qp_make_wr(test, t, 8);
	/* 1 SGE gives 16 bytes of inline */
	KUNIT_EXPECT_EQ(test, t->qp->sq.max_inline, 16U);
}

static void kt_qp_to(struct kunit *test, struct kt_qp *t, enum ib_qp_state s)
{
	struct ib_qp_attr attr = { .qp_state = s };

	KUNIT_ASSERT_EQ(test, rxe_modify_qp(&t->qp->ibqp, &attr, IB_QP_STATE,
					    NULL), 0);
	t->qp->ibqp.state = s;		/* core's bookkeeping */
}

static void kt_qp_free(struct kt_qp *t)
{
	rxe_destroy_qp(&t->qp->ibqp, NULL);
	rxe_destroy_cq(&t->scq->ibcq, NULL);
	rxe_destroy_cq(&t->rcq->ibcq, NULL);
	rxe_dealloc_pd(&t->pd->ibpd, NULL);
	rxe_pools_cleanup(t->rxe);
}

/*
 * Send completions may come from the QP's work item when it was already
 * running (rxe_req_run() then leaves the work to it): wait for @want of
 * them, up to 5 s.
 */
static int kt_poll_wait(struct rxe_cq *cq, int want, struct ib_wc *out,
			int max)
{
	unsigned long end = jiffies + 5 * HZ;
	int n = 0;

	for (;;) {
		n += rxe_poll_cq(&cq->ibcq, max - n, out + n);
		if (n >= want || time_after(jiffies, end))
			return n;
		msleep(1);
	}
}

/*
 * A kernel post_send runs the requester inline only on the QP's CPU; from
 * any other CPU it is queued there. Wait until that queued run is over.
 */
static void kt_req_settle(struct rxe_qp *qp)
{
	flush_work(&qp->req.work);
}

static void rxe_kunit_flush_order(struct kunit *test)
{
	struct kt_qp t = {};
	const struct ib_send_wr *sbad;
	const struct ib_recv_wr *rbad;
	struct ib_send_wr swr = { .opcode = IB_WR_SEND };
	struct ib_recv_wr rwr = {};
	struct ib_wc out[16];
	int i;

	kt_qp_make(test, &t);
	/* nothing is sent before RTS; receives from INIT on */
	KUNIT_EXPECT_EQ(test, rxe_post_recv(&t.qp->ibqp, &rwr, &rbad), -EINVAL);
	kt_qp_to(test, &t, IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, rxe_post_send(&t.qp->ibqp, &swr, &sbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, sbad, (const struct ib_send_wr *)&swr);
	for (i = 0; i < 3; i++) {
		rwr.wr_id = 50 + i;
		KUNIT_ASSERT_EQ(test, rxe_post_recv(&t.qp->ibqp, &rwr, &rbad), 0);
	}
	kt_qp_to(test, &t, IB_QPS_RTR);
	kt_qp_to(test, &t, IB_QPS_RTS);
	/* RC sends complete when acknowledged; nothing answers here */
	for (i = 0; i < 3; i++) {
		swr.wr_id = 70 + i;
		KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &swr, &sbad), 0);
	}
	KUNIT_EXPECT_EQ(test, rxe_poll_cq(&t.scq->ibcq, 16, out), 0);
	/* a bad opcode for RC is refused at posting */
	swr.opcode = IB_WR_LSO;
	KUNIT_EXPECT_EQ(test, rxe_post_send(&t.qp->ibqp, &swr, &sbad), -EINVAL);

	kt_qp_to(test, &t, IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, kt_poll_wait(t.scq, 3, out, 16), 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, out[i].wr_id, (u64)(70 + i));
		KUNIT_EXPECT_EQ(test, out[i].status, IB_WC_WR_FLUSH_ERR);
		KUNIT_EXPECT_EQ(test, out[i].opcode, IB_WC_SEND);
		KUNIT_EXPECT_PTR_EQ(test, out[i].qp, &t.qp->ibqp);
	}
	KUNIT_ASSERT_EQ(test, rxe_poll_cq(&t.rcq->ibcq, 16, out), 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, out[i].wr_id, (u64)(50 + i));
		KUNIT_EXPECT_EQ(test, out[i].status, IB_WC_WR_FLUSH_ERR);
		KUNIT_EXPECT_EQ(test, out[i].opcode, IB_WC_RECV);
	}
	/* later posts are flushed right away, signaled or not */
	swr.opcode = IB_WR_SEND;
	swr.wr_id = 90;
	KUNIT_EXPECT_EQ(test, rxe_post_send(&t.qp->ibqp, &swr, &sbad), 0);
	rwr.wr_id = 91;
	KUNIT_EXPECT_EQ(test, rxe_post_recv(&t.qp->ibqp, &rwr, &rbad), 0);
	KUNIT_ASSERT_EQ(test, rxe_poll_cq(&t.scq->ibcq, 16, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].wr_id, 90ULL);
	KUNIT_ASSERT_EQ(test, rxe_poll_cq(&t.rcq->ibcq, 16, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].wr_id, 91ULL);

	/* RESET empties the rings */
	kt_qp_to(test, &t, IB_QPS_RESET);
	KUNIT_EXPECT_TRUE(test, rxe_queue_empty(t.qp->sq.queue));
	kt_qp_free(&t);
}

/*
 * What the requester took is its own copy (Documentation/security.rst,
 * item 10): a user may rewrite its ring slot at any time; the WQE in
 * flight, and its completion, keep what was posted.
 */
static void rxe_kunit_private_copy(struct kunit *test)
{
	struct kt_qp t = {};
	const struct ib_send_wr *sbad;
	struct ib_rdma_wr rd = {
		.wr = { .wr_id = 1, .opcode = IB_WR_RDMA_READ,
			.send_flags = IB_SEND_SIGNALED },
		.remote_addr = 0x1000,
		.rkey = 0x77,
	};
	struct rxe_send_wqe *slot;
	struct rxe_swqe *sw;
	struct ib_wc out[4];

	kt_qp_make(test, &t);
	kt_qp_to(test, &t, IB_QPS_INIT);
	kt_qp_to(test, &t, IB_QPS_RTR);
	kt_qp_to(test, &t, IB_QPS_RTS);
	KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &rd.wr, &sbad), 0);
	kt_req_settle(t.qp);
	KUNIT_ASSERT_EQ(test, t.qp->req.next, 1U);	/* taken */
	sw = rxe_req_swqe(t.qp, 0);
	slot = (struct rxe_send_wqe *)rxe_queue_slot(t.qp->sq.queue, 0);
	KUNIT_EXPECT_PTR_NE(test, (void *)sw->wqe, (void *)slot);
	/* what a user could write into the slot now */
	slot->wr.wr_id = 99;
	slot->wr.opcode = IB_WR_SEND;
	slot->wr.wr.rdma.rkey = 0x1234;
	slot->dma.length = 1U << 20;
	KUNIT_EXPECT_EQ(test, sw->wqe->wr.opcode, (u32)IB_WR_RDMA_READ);
	KUNIT_EXPECT_EQ(test, sw->wqe->wr.wr.rdma.rkey, 0x77U);
	KUNIT_EXPECT_EQ(test, sw->wqe->dma.length, 0U);
	kt_qp_to(test, &t, IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, kt_poll_wait(t.scq, 1, out, 4), 1);
	KUNIT_EXPECT_EQ(test, out[0].wr_id, 1ULL);
	KUNIT_EXPECT_EQ(test, out[0].opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, out[0].status, IB_WC_WR_FLUSH_ERR);
	kt_qp_to(test, &t, IB_QPS_RESET);
	kt_qp_free(&t);
}

/*
 * The private copies are sized by what is outstanding, not by the ring
 * (Documentation/security.rst, item 6): a deep SQ starts small, and
 * grows as WQEs are taken and not completed, each keeping its copy.
 */
static void rxe_kunit_copies_grow(struct kunit *test)
{
	struct kt_qp t = {};
	const struct ib_send_wr *sbad;
	struct ib_rdma_wr wr = {
		.wr = { .opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED },
		.remote_addr = 0x1000,
		.rkey = 0x77,
	};
	struct ib_wc *out;
	struct rxe_swqe *sw;
	int i, n;

	out = (struct ib_wc *)kunit_kcalloc(test, 48, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	kt_qp_make_wr(test, &t, 1000);
	KUNIT_EXPECT_EQ(test, t.qp->sq.queue->index_mask, 1023U);
	KUNIT_EXPECT_LT(test, t.qp->req.cmask, 1023U);
	kt_qp_to(test, &t, IB_QPS_INIT);
	kt_qp_to(test, &t, IB_QPS_RTR);
	kt_qp_to(test, &t, IB_QPS_RTS);
	/* zero-length writes: sent, never acknowledged, all outstanding */
	for (i = 0; i < 40; i++) {
		wr.wr.wr_id = 100 + i;
		wr.remote_addr = 0x1000 + i;
		KUNIT_ASSERT_EQ(test,
				rxe_post_send(&t.qp->ibqp, &wr.wr, &sbad), 0);
	}
	kt_req_settle(t.qp);
	KUNIT_ASSERT_EQ(test, t.qp->req.next, 40U);
	KUNIT_EXPECT_EQ(test, t.qp->req.cmask, 63U);
	for (i = 0; i < 40; i++) {
		sw = rxe_req_swqe(t.qp, i);
		/* the copy is in the (new) array, at its index, intact */
		KUNIT_EXPECT_PTR_EQ(test, (void *)sw->wqe,
				    (void *)(t.qp->req.copies +
				     ((size_t)i << t.qp->req.log2_elem)));
		KUNIT_EXPECT_EQ(test, sw->wqe->wr.wr_id, 100ULL + i);
		KUNIT_EXPECT_EQ(test, sw->wqe->wr.wr.rdma.remote_addr,
				0x1000ULL + i);
		KUNIT_EXPECT_EQ(test, sw->state, (u8)RXE_SWQE_SENT);
	}
	kt_qp_to(test, &t, IB_QPS_ERR);
	n = kt_poll_wait(t.scq, 40, out, 48);
	KUNIT_ASSERT_EQ(test, n, 40);
	for (i = 0; i < 40; i++) {
		KUNIT_EXPECT_EQ(test, out[i].wr_id, 100ULL + i);
		KUNIT_EXPECT_EQ(test, out[i].status, IB_WC_WR_FLUSH_ERR);
	}
	kt_qp_to(test, &t, IB_QPS_RESET);
	kt_qp_free(&t);
}

/*
 * UC has no SEND with invalidate packet: posting it succeeds (as
 * upstream's does) and its WQE completes with IB_WC_LOC_QP_OP_ERR, after
 * the SEND before it went out.
 */
static void rxe_kunit_uc_send_inv(struct kunit *test)
{
	struct kt_qp t = { .type = IB_QPT_UC };
	const struct ib_send_wr *sbad;
	struct ib_send_wr send = {
		.wr_id = 1, .opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_send_wr inv = {
		.wr_id = 2, .opcode = IB_WR_SEND_WITH_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex = { .invalidate_rkey = 0x1234 },
	};
	struct ib_wc out[4];

	kt_qp_make(test, &t);
	kt_qp_to(test, &t, IB_QPS_INIT);
	kt_qp_to(test, &t, IB_QPS_RTR);
	kt_qp_to(test, &t, IB_QPS_RTS);
	KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &send, &sbad), 0);
	KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &inv, &sbad), 0);
	KUNIT_ASSERT_EQ(test, kt_poll_wait(t.scq, 2, out, 4), 2);
	KUNIT_EXPECT_EQ(test, out[0].wr_id, 1ULL);
	KUNIT_EXPECT_EQ(test, out[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, out[1].wr_id, 2ULL);
	KUNIT_EXPECT_EQ(test, out[1].status, IB_WC_LOC_QP_OP_ERR);
	kt_qp_to(test, &t, IB_QPS_ERR);
	kt_qp_to(test, &t, IB_QPS_RESET);
	kt_qp_free(&t);
}

static void rxe_kunit_fast_reg(struct kunit *test)
{
	struct kt_qp t = {};
	struct scatterlist sgl[5];
	const u64 base = 0x100000;
	struct ib_reg_wr reg = {};
	struct ib_send_wr inv = { .opcode = IB_WR_LOCAL_INV };
	const struct ib_send_wr *bad;
	struct ib_wc out[8];
	struct ib_mr *ibmr;
	struct rxe_mr *mr;
	u32 key;
	int i;

	kt_qp_make(test, &t);
	KUNIT_EXPECT_TRUE(test, IS_ERR(rxe_alloc_mr(&t.pd->ibpd,
						    IB_MR_TYPE_USER, 4)));
	ibmr = rxe_alloc_mr(&t.pd->ibpd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	mr = to_rmr(ibmr);
	KUNIT_EXPECT_EQ(test, ibmr->lkey >> 8, mr->elem.index);
	KUNIT_EXPECT_EQ(test, mr->state, RXE_MR_FREE);

	sg_init_table(sgl, 5);
	for (i = 0; i < 5; i++) {
		sg_dma_address(&sgl[i]) = base + i * PAGE_SIZE;
		sg_dma_len(&sgl[i]) = PAGE_SIZE;
	}
	ibmr->page_size = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, rxe_map_mr_sg(ibmr, sgl, 3, NULL), 3);
	KUNIT_EXPECT_EQ(test, mr->npages, 3U);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, mr->pages[i], base + i * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ibmr->iova, base);
	KUNIT_EXPECT_EQ(test, ibmr->length, (u64)(3 * PAGE_SIZE));
	/* more entries than the MR has room for: partial */
	KUNIT_EXPECT_EQ(test, rxe_map_mr_sg(ibmr, sgl, 5, NULL), 4);
	KUNIT_ASSERT_EQ(test, rxe_map_mr_sg(ibmr, sgl, 3, NULL), 3);

	kt_qp_to(test, &t, IB_QPS_INIT);
	kt_qp_to(test, &t, IB_QPS_RTR);
	kt_qp_to(test, &t, IB_QPS_RTS);
	key = (ibmr->lkey & ~0xffU) | 0x5a;
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.wr.wr_id = 7;
	reg.mr = ibmr;
	reg.key = key;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ;
	KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &reg.wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, kt_poll_wait(t.scq, 1, out, 8), 1);
	KUNIT_EXPECT_EQ(test, out[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, out[0].opcode, IB_WC_REG_MR);
	KUNIT_EXPECT_EQ(test, mr->state, RXE_MR_VALID);
	KUNIT_EXPECT_EQ(test, ibmr->lkey, key);
	KUNIT_EXPECT_EQ(test, ibmr->rkey, key);

	/* unsignaled LOCAL_INV completes silently */
	inv.ex.invalidate_rkey = key;
	KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &inv, &bad), 0);
	kt_req_settle(t.qp);
	KUNIT_EXPECT_EQ(test, rxe_poll_cq(&t.scq->ibcq, 8, out), 0);
	KUNIT_EXPECT_EQ(test, mr->state, RXE_MR_FREE);

	/* a key of another index is a local error: QP to ERR */
	reg.key = key + 0x100;
	KUNIT_ASSERT_EQ(test, rxe_post_send(&t.qp->ibqp, &reg.wr, &bad), 0);
	kt_req_settle(t.qp);
	KUNIT_ASSERT_EQ(test, rxe_poll_cq(&t.scq->ibcq, 8, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].status, IB_WC_LOC_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, rxe_qp_state(t.qp), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, t.qp->ibqp.state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, t.c.qp_fatal, 1);

	KUNIT_EXPECT_EQ(test, rxe_dereg_mr(ibmr, NULL), 0);
	kt_qp_free(&t);
}

static void rxe_kunit_qp_caps(struct kunit *test)
{
	struct rxe_dev *rxe = kt_dev(test);
	struct kt_counts c = {};
	struct rxe_cq *cq = kt_cq(test, rxe, 4, &c);
	struct rxe_pd *pd = kt_pd(test, rxe);
	struct rxe_qp *qp = (struct rxe_qp *)kunit_kzalloc(test, sizeof(*qp),
							   GFP_KERNEL);
	struct ib_qp_init_attr init = {
		.send_cq = &cq->ibcq,
		.recv_cq = &cq->ibcq,
		.qp_type = IB_QPT_UD,
	};

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->ibqp.device = &rxe->ib_dev;
	qp->ibqp.pd = &pd->ibpd;
	init.cap.max_send_wr = RXE_MAX_QP_WR + 1;
	KUNIT_EXPECT_EQ(test, rxe_create_qp(&qp->ibqp, &init, NULL), -EINVAL);
	init.cap.max_send_wr = 1;
	init.cap.max_send_sge = RXE_MAX_SGE + 1;
	KUNIT_EXPECT_EQ(test, rxe_create_qp(&qp->ibqp, &init, NULL), -EINVAL);
	init.cap.max_send_sge = 1;
	init.cap.max_inline_data = RXE_MAX_INLINE_DATA + 1;
	KUNIT_EXPECT_EQ(test, rxe_create_qp(&qp->ibqp, &init, NULL), -EINVAL);
	init.cap.max_inline_data = 64;
	init.qp_type = IB_QPT_XRC_INI;
	KUNIT_EXPECT_EQ(test, rxe_create_qp(&qp->ibqp, &init, NULL),
			-EOPNOTSUPP);
	init.qp_type = IB_QPT_UD;
	KUNIT_ASSERT_EQ(test, rxe_create_qp(&qp->ibqp, &init, NULL), 0);
	KUNIT_EXPECT_EQ(test, init.cap.max_send_sge, 4U);
	KUNIT_EXPECT_EQ(test, init.cap.max_inline_data, 64U);
	KUNIT_EXPECT_EQ(test, init.cap.max_send_wr, 1U);
	KUNIT_EXPECT_EQ(test, init.cap.max_recv_wr, 0U);
	rxe_destroy_qp(&qp->ibqp, NULL);
	rxe_dealloc_pd(&pd->ibpd, NULL);
	rxe_destroy_cq(&cq->ibcq, NULL);
	rxe_pools_cleanup(rxe);
}

static struct kunit_case rxe_kunit_cases[] = {
	KUNIT_CASE(rxe_kunit_cq_overflow),
	KUNIT_CASE(rxe_kunit_cq_arm),
	KUNIT_CASE(rxe_kunit_cq_resize),
	KUNIT_CASE(rxe_kunit_srq_limit),
	KUNIT_CASE(rxe_kunit_resize_serialised),
	KUNIT_CASE(rxe_kunit_qp_caps),
	KUNIT_CASE(rxe_kunit_flush_order),
	KUNIT_CASE(rxe_kunit_private_copy),
	KUNIT_CASE(rxe_kunit_copies_grow),
	KUNIT_CASE(rxe_kunit_fast_reg),
	KUNIT_CASE(rxe_kunit_uc_send_inv),
	{}
};

/* rxe.c is not in the test module: the data path's workqueue is ours */
struct workqueue_struct *rxe_wq;

static int rxe_kunit_suite_init(struct kunit_suite *suite)
{
	rxe_wq = alloc_workqueue("rxe_kunit_wq", WQ_CPU_INTENSIVE, 0);
	return rxe_wq ? 0 : -ENOMEM;
}

static void rxe_kunit_suite_exit(struct kunit_suite *suite)
{
	destroy_workqueue(rxe_wq);
}

static struct kunit_suite rxe_kunit_suite = {
	.name = "rdma_rxe_objects",
	.suite_init = rxe_kunit_suite_init,
	.suite_exit = rxe_kunit_suite_exit,
	.test_cases = rxe_kunit_cases,
};
kunit_test_suite(rxe_kunit_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_rxe's verbs objects");
MODULE_LICENSE("Dual BSD/GPL");
