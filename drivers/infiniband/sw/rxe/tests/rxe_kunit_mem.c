// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite for the data path's memory access (rxe_mr_copy.c): copies
 * through a fast-reg page list across page boundaries and at the MR's
 * bounds, SGE-list copies with their cursor and every key/PD/right
 * check, rkeys of MRs and windows, and the 8-byte atomics.  Kernel
 * memory stands in for the pages: for rxe a DMA address is the kernel
 * address.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/scatterlist.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"
#include "rxe_test_hooks.h"

struct km_env {
	struct rxe_dev *rxe;
	struct rxe_pd *pd, *pd2;
	struct rxe_qp *qp;		/* only device and PD are used */
	u8 *buf;			/* 4 pages */
};

static struct rxe_pd *km_pd(struct kunit *test, struct rxe_dev *rxe)
{
	struct rxe_pd *pd = (struct rxe_pd *)kunit_kzalloc(test, sizeof(*pd),
							   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pd);
	pd->ibpd.device = &rxe->ib_dev;
	KUNIT_ASSERT_EQ(test, rxe_alloc_pd(&pd->ibpd, NULL), 0);
	return pd;
}

static void km_setup(struct kunit *test, struct km_env *e)
{
	struct ib_device_attr *a;

	e->rxe = (struct rxe_dev *)kunit_kzalloc(test, sizeof(*e->rxe),
						 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->rxe);
	a = &e->rxe->ib_dev.attrs;
	a->max_pd = RXE_MAX_PD;
	a->max_mr = RXE_MAX_MR;
	a->max_mw = RXE_MAX_MW;
	rxe_pools_init(e->rxe);
	e->pd = km_pd(test, e->rxe);
	e->pd2 = km_pd(test, e->rxe);
	e->qp = (struct rxe_qp *)kunit_kzalloc(test, sizeof(*e->qp),
					       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->qp);
	e->qp->ibqp.device = &e->rxe->ib_dev;
	e->qp->ibqp.pd = &e->pd->ibpd;
	e->buf = (u8 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 2);
	KUNIT_ASSERT_NOT_NULL(test, e->buf);
}

static void km_teardown(struct km_env *e)
{
	free_pages((unsigned long)e->buf, 2);
	rxe_dealloc_pd(&e->pd2->ibpd, NULL);
	rxe_dealloc_pd(&e->pd->ibpd, NULL);
	rxe_pools_cleanup(e->rxe);
}

/*
 * A fast-reg MR over pages 0..2 of the buffer starting @off into page 0
 * (length 2 pages), registered with @access.
 */
static struct rxe_mr *km_fast_mr(struct kunit *test, struct km_env *e,
				 u32 off, int access)
{
	struct scatterlist sg;
	unsigned int sg_off = off;
	struct ib_mr *ibmr;
	struct rxe_mr *mr;

	ibmr = rxe_alloc_mr(&e->pd->ibpd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibmr));
	mr = to_rmr(ibmr);
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = (u64)(uintptr_t)e->buf;
	sg_dma_len(&sg) = 2 * PAGE_SIZE + off;
	ibmr->page_size = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, rxe_map_mr_sg(ibmr, &sg, 1, &sg_off), 1);
	KUNIT_ASSERT_EQ(test, rxe_mr_fast_reg(e->pd, mr, ibmr->lkey, access),
			0);
	return mr;
}

static void rxe_kunit_mr_copy(struct kunit *test)
{
	struct km_env e = {};
	struct rxe_mr *mr;
	u8 data[300], back[300];
	u64 iova;
	int i;

	km_setup(test, &e);
	mr = km_fast_mr(test, &e, 100, IB_ACCESS_LOCAL_WRITE);
	iova = mr->ibmr.iova;
	KUNIT_EXPECT_EQ(test, iova, (u64)(uintptr_t)e.buf + 100);
	KUNIT_EXPECT_EQ(test, mr->ibmr.length, (u64)(2 * PAGE_SIZE));
	for (i = 0; i < (int)sizeof(data); i++)
		data[i] = (u8)(i * 7 + 1);

	/* across the first page boundary */
	iova += PAGE_SIZE - 100 - 150;
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, iova, data, sizeof(data),
					  RXE_COPY_TO_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(e.buf + PAGE_SIZE - 150, data,
				     sizeof(data)), 0);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, iova, back, sizeof(back),
					  RXE_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, data, sizeof(data)), 0);

	/* the last byte is in, one more is out; nothing is written then */
	iova = mr->ibmr.iova + 2 * PAGE_SIZE - 1;
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, iova, data, 1, RXE_COPY_TO_MR),
			0);
	KUNIT_EXPECT_EQ(test, e.buf[2 * PAGE_SIZE + 99], data[0]);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, iova, data, 2, RXE_COPY_TO_MR),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, e.buf[2 * PAGE_SIZE + 100], 0);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, mr->ibmr.iova - 1, data, 1,
					  RXE_COPY_TO_MR), -EFAULT);
	KUNIT_EXPECT_EQ(test, e.buf[99], 0);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, ~0ULL - 2, data, 8,
					  RXE_COPY_FROM_MR), -EFAULT);

	/* invalidated: no access */
	KUNIT_EXPECT_EQ(test, rxe_mr_invalidate(e.pd, mr->ibmr.lkey), 0);
	KUNIT_EXPECT_EQ(test, rxe_mr_copy(mr, mr->ibmr.iova, data, 1,
					  RXE_COPY_TO_MR), -EFAULT);
	KUNIT_EXPECT_EQ(test, rxe_dereg_mr(&mr->ibmr, NULL), 0);
	km_teardown(&e);
}

static void km_sge(struct rxe_sge *sge, u8 *addr, u32 len, u32 lkey)
{
	sge->addr = (u64)(uintptr_t)addr;
	sge->length = len;
	sge->lkey = lkey;
}

static void rxe_kunit_dma_copy(struct kunit *test)
{
	struct km_env e = {};
	u64 store[(sizeof(struct rxe_dma_info) +
		   4 * sizeof(struct rxe_sge)) / sizeof(u64)] = {};
	struct rxe_dma_info *dma = (struct rxe_dma_info *)store;
	struct ib_mr *ro, *rw, *other;
	u8 data[64];
	int i;

	km_setup(test, &e);
	rw = rxe_get_dma_mr(&e.pd->ibpd, IB_ACCESS_LOCAL_WRITE);
	ro = rxe_get_dma_mr(&e.pd->ibpd, 0);
	other = rxe_get_dma_mr(&e.pd2->ibpd, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rw));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ro));
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	for (i = 0; i < (int)sizeof(data); i++)
		data[i] = (u8)(0x40 + i);

	/* 10 bytes, an empty SGE, 20 bytes, 40 bytes */
	km_sge(&dma->sge[0], e.buf, 10, rw->lkey);
	km_sge(&dma->sge[1], e.buf + 100, 0, 0);
	km_sge(&dma->sge[2], e.buf + 200, 20, rw->lkey);
	km_sge(&dma->sge[3], e.buf + 300, 40, rw->lkey);
	dma->num_sge = 4;
	dma->length = 70;
	dma->resid = 70;
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, IB_ACCESS_LOCAL_WRITE, dma,
					   data, 25, RXE_COPY_TO_MR), 0);
	KUNIT_EXPECT_EQ(test, dma->cur_sge, 2U);
	KUNIT_EXPECT_EQ(test, dma->sge_offset, 15U);
	KUNIT_EXPECT_EQ(test, dma->resid, 45U);
	KUNIT_EXPECT_EQ(test, memcmp(e.buf, data, 10), 0);
	KUNIT_EXPECT_EQ(test, memcmp(e.buf + 200, data + 10, 15), 0);
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, IB_ACCESS_LOCAL_WRITE, dma,
					   data + 25, 30, RXE_COPY_TO_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(e.buf + 215, data + 25, 5), 0);
	KUNIT_EXPECT_EQ(test, memcmp(e.buf + 300, data + 30, 25), 0);
	/* more than is left */
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, IB_ACCESS_LOCAL_WRITE, dma,
					   data, 16, RXE_COPY_TO_MR), -EINVAL);

	/* key byte, PD, rights */
	memset(dma, 0, sizeof(*dma));
	dma->num_sge = 1;
	dma->resid = 4;
	km_sge(&dma->sge[0], e.buf + 500, 4, rw->lkey ^ 1);
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, IB_ACCESS_LOCAL_WRITE, dma,
					   data, 4, RXE_COPY_TO_MR), -EACCES);
	dma->sge[0].lkey = other->lkey;
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, IB_ACCESS_LOCAL_WRITE, dma,
					   data, 4, RXE_COPY_TO_MR), -EACCES);
	dma->sge[0].lkey = ro->lkey;
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, IB_ACCESS_LOCAL_WRITE, dma,
					   data, 4, RXE_COPY_TO_MR), -EACCES);
	KUNIT_EXPECT_EQ(test, e.buf[500], 0);
	/* a local read needs no right */
	KUNIT_EXPECT_EQ(test, rxe_dma_copy(e.pd, 0, dma, data, 4,
					   RXE_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, data[0], 0);
	KUNIT_EXPECT_EQ(test, dma->resid, 0U);

	rxe_dereg_mr(rw, NULL);
	rxe_dereg_mr(ro, NULL);
	rxe_dereg_mr(other, NULL);
	km_teardown(&e);
}

static void rxe_kunit_rkey(struct kunit *test)
{
	struct km_env e = {};
	struct rxe_qp *qp2;
	struct rxe_mr *mr, *got;
	struct rxe_mw *mw;
	u64 iova, va;

	km_setup(test, &e);
	mr = km_fast_mr(test, &e, 0, IB_ACCESS_LOCAL_WRITE |
			IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND);
	iova = mr->ibmr.iova;
	KUNIT_EXPECT_EQ(test, mr->ibmr.rkey, mr->ibmr.lkey);

	got = rxe_rkey_get(e.qp, mr->ibmr.rkey, iova, 2 * PAGE_SIZE,
			   IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_PTR_EQ(test, got, mr);
	if (got)
		rxe_elem_put(&got->elem);
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mr->ibmr.rkey ^ 0x80, iova,
					     8, IB_ACCESS_REMOTE_READ));
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mr->ibmr.rkey, iova, 8,
					     IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mr->ibmr.rkey, iova + 1,
					     2 * PAGE_SIZE,
					     IB_ACCESS_REMOTE_READ));
	e.qp->ibqp.pd = &e.pd2->ibpd;
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mr->ibmr.rkey, iova, 8,
					     IB_ACCESS_REMOTE_READ));
	e.qp->ibqp.pd = &e.pd->ibpd;

	/* a type-2 window over the second page, bound through e.qp */
	mw = (struct rxe_mw *)kunit_kzalloc(test, sizeof(*mw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->ibmw.device = &e.rxe->ib_dev;
	mw->ibmw.pd = &e.pd->ibpd;
	mw->ibmw.type = IB_MW_TYPE_2;
	KUNIT_ASSERT_EQ(test, rxe_alloc_mw(&mw->ibmw, NULL), 0);
	KUNIT_EXPECT_GE(test, mw->ibmw.rkey >> 8, (u32)RXE_MIN_MW_INDEX);
	KUNIT_ASSERT_EQ(test, rxe_bind_mw(e.qp, mw->ibmw.rkey,
					  mw->ibmw.rkey + 1, mr->ibmr.lkey,
					  iova + PAGE_SIZE, PAGE_SIZE,
					  IB_ACCESS_REMOTE_READ), 0);
	got = rxe_rkey_get(e.qp, mw->ibmw.rkey, iova + PAGE_SIZE, PAGE_SIZE,
			   IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_PTR_EQ(test, got, mr);
	if (got)
		rxe_elem_put(&got->elem);
	/* outside the window though inside the MR */
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mw->ibmw.rkey, iova, 8,
					     IB_ACCESS_REMOTE_READ));
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mw->ibmw.rkey,
					     iova + PAGE_SIZE, 8,
					     IB_ACCESS_REMOTE_WRITE));
	/* another QP (same PD) may not use a type-2 window */
	qp2 = (struct rxe_qp *)kunit_kzalloc(test, sizeof(*qp2), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp2);
	qp2->ibqp.device = &e.rxe->ib_dev;
	qp2->ibqp.pd = &e.pd->ibpd;
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(qp2, mw->ibmw.rkey,
					     iova + PAGE_SIZE, 8,
					     IB_ACCESS_REMOTE_READ));
	/* zero-based window: address 0 is the window's start */
	KUNIT_EXPECT_EQ(test, rxe_invalidate_mw(e.qp, mw->ibmw.rkey, false), 0);
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mw->ibmw.rkey,
					     iova + PAGE_SIZE, 8,
					     IB_ACCESS_REMOTE_READ));
	KUNIT_ASSERT_EQ(test, rxe_bind_mw(e.qp, mw->ibmw.rkey,
					  mw->ibmw.rkey + 1, mr->ibmr.lkey,
					  iova + PAGE_SIZE, 64,
					  IB_ACCESS_REMOTE_READ |
					  IB_ZERO_BASED), 0);
	va = 16;
	got = rxe_rkey_iova_get(e.qp, mw->ibmw.rkey, &va, 48,
				IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_PTR_EQ(test, got, mr);
	KUNIT_EXPECT_EQ(test, va, iova + PAGE_SIZE + 16);
	if (got)
		rxe_elem_put(&got->elem);
	va = 16;
	KUNIT_EXPECT_NULL(test, rxe_rkey_iova_get(e.qp, mw->ibmw.rkey, &va,
						  49, IB_ACCESS_REMOTE_READ));
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mw->ibmw.rkey, 16, 8,
					     IB_ACCESS_REMOTE_READ));

	rxe_dealloc_mw(&mw->ibmw);
	KUNIT_EXPECT_EQ(test, rxe_dereg_mr(&mr->ibmr, NULL), 0);
	km_teardown(&e);
}

static void rxe_kunit_atomic(struct kunit *test)
{
	struct km_env e = {};
	struct rxe_mr *mr;
	u64 *word, orig = 0;
	u64 iova;

	km_setup(test, &e);
	mr = km_fast_mr(test, &e, 0, IB_ACCESS_LOCAL_WRITE |
			IB_ACCESS_REMOTE_ATOMIC);
	iova = mr->ibmr.iova + PAGE_SIZE + 8;
	word = (u64 *)(e.buf + PAGE_SIZE + 8);
	*word = 5;
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(mr, iova, RXE_OP_FETCH_ADD, 3, 0,
					    &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 5ULL);
	KUNIT_EXPECT_EQ(test, *word, 8ULL);
	/* compare fails: unchanged */
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(mr, iova, RXE_OP_CMP_SWAP, 7, 100,
					    &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 8ULL);
	KUNIT_EXPECT_EQ(test, *word, 8ULL);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(mr, iova, RXE_OP_CMP_SWAP, 8, 100,
					    &orig), 0);
	KUNIT_EXPECT_EQ(test, orig, 8ULL);
	KUNIT_EXPECT_EQ(test, *word, 100ULL);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(mr, iova + 4, RXE_OP_FETCH_ADD, 1,
					    0, &orig), -EINVAL);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic(mr, mr->ibmr.iova + 2 * PAGE_SIZE,
					    RXE_OP_FETCH_ADD, 1, 0, &orig),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, rxe_dereg_mr(&mr->ibmr, NULL), 0);
	km_teardown(&e);
}

/* RDMA ATOMIC WRITE: the 8 bytes as given, aligned, inside the MR */
static void rxe_kunit_atomic_write(struct kunit *test)
{
	static const u8 val[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct km_env e = {};
	struct rxe_mr *mr;
	u64 iova;
	u8 *at;

	km_setup(test, &e);
	mr = km_fast_mr(test, &e, 0, IB_ACCESS_LOCAL_WRITE |
			IB_ACCESS_REMOTE_WRITE);
	iova = mr->ibmr.iova + PAGE_SIZE + 16;
	at = e.buf + PAGE_SIZE + 16;
	memset(at - 8, 0xee, 24);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic_write(mr, iova, val), 0);
	KUNIT_EXPECT_EQ(test, memcmp(at, val, 8), 0);
	/* its neighbours untouched */
	KUNIT_EXPECT_EQ(test, at[-1], 0xee);
	KUNIT_EXPECT_EQ(test, at[8], 0xee);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic_write(mr, iova + 4, val), -EINVAL);
	KUNIT_EXPECT_EQ(test, at[4], 5);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic_write(mr, mr->ibmr.iova +
						  2 * PAGE_SIZE, val), -EFAULT);
	KUNIT_EXPECT_EQ(test, rxe_mr_atomic_write(mr, mr->ibmr.iova - 8, val),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, rxe_dereg_mr(&mr->ibmr, NULL), 0);
	km_teardown(&e);
}

static struct rxe_mw *km_mw(struct kunit *test, struct km_env *e,
			     struct rxe_pd *pd, enum ib_mw_type type)
{
	struct rxe_mw *mw = (struct rxe_mw *)kunit_kzalloc(test, sizeof(*mw),
							   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->ibmw.device = &e->rxe->ib_dev;
	mw->ibmw.pd = &pd->ibpd;
	mw->ibmw.type = type;
	KUNIT_ASSERT_EQ(test, rxe_alloc_mw(&mw->ibmw, NULL), 0);
	return mw;
}

static struct rxe_qp *km_qp(struct kunit *test, struct km_env *e,
			    struct rxe_pd *pd)
{
	struct rxe_qp *qp = (struct rxe_qp *)kunit_kzalloc(test, sizeof(*qp),
							   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->ibqp.device = &e->rxe->ib_dev;
	qp->ibqp.pd = &pd->ibpd;
	return qp;
}

/* A window is bound, used and invalidated only from its own PD (and QP). */
static void rxe_kunit_mw_isolation(struct kunit *test)
{
	struct km_env e = {};
	struct rxe_qp *qp2, *qp3;
	struct rxe_mw *mw1, *mw2;
	struct rxe_mr *mr, *got;
	u64 iova;

	km_setup(test, &e);
	mr = km_fast_mr(test, &e, 0, IB_ACCESS_LOCAL_WRITE |
			IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND);
	iova = mr->ibmr.iova;
	qp2 = km_qp(test, &e, e.pd);	/* e.qp's PD, another QP */
	qp3 = km_qp(test, &e, e.pd2);	/* another PD */

	/* a type-1 window of another PD cannot be bound to this MR */
	mw1 = km_mw(test, &e, e.pd2, IB_MW_TYPE_1);
	KUNIT_EXPECT_EQ(test, rxe_bind_mw(e.qp, mw1->ibmw.rkey,
					  mw1->ibmw.rkey, mr->ibmr.lkey, iova,
					  PAGE_SIZE, IB_ACCESS_REMOTE_READ),
			IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_NULL(test, mw1->mr);

	/* a type-2 window bound through e.qp */
	mw2 = km_mw(test, &e, e.pd, IB_MW_TYPE_2);
	KUNIT_ASSERT_EQ(test, rxe_bind_mw(e.qp, mw2->ibmw.rkey,
					  mw2->ibmw.rkey, mr->ibmr.lkey, iova,
					  PAGE_SIZE, IB_ACCESS_REMOTE_READ), 0);
	/* not revoked from another PD, locally or from the wire */
	KUNIT_EXPECT_NE(test, rxe_invalidate_mw(qp3, mw2->ibmw.rkey, false), 0);
	KUNIT_EXPECT_NE(test, rxe_invalidate_mw(qp3, mw2->ibmw.rkey, true), 0);
	/* nor from the wire on another QP of its PD */
	KUNIT_EXPECT_NE(test, rxe_invalidate_mw(qp2, mw2->ibmw.rkey, true), 0);
	got = rxe_rkey_get(e.qp, mw2->ibmw.rkey, iova, 8, IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_PTR_EQ(test, got, mr);
	if (got)
		rxe_elem_put(&got->elem);
	/* the window's own QP from the wire may */
	KUNIT_EXPECT_EQ(test, rxe_invalidate_mw(e.qp, mw2->ibmw.rkey, true), 0);
	KUNIT_EXPECT_NULL(test, rxe_rkey_get(e.qp, mw2->ibmw.rkey, iova, 8,
					     IB_ACCESS_REMOTE_READ));
	/* a local invalidation from any QP of its PD */
	KUNIT_ASSERT_EQ(test, rxe_bind_mw(e.qp, mw2->ibmw.rkey,
					  mw2->ibmw.rkey + 1, mr->ibmr.lkey,
					  iova, PAGE_SIZE,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, rxe_invalidate_mw(qp2, mw2->ibmw.rkey, false), 0);

	rxe_dealloc_mw(&mw2->ibmw);
	rxe_dealloc_mw(&mw1->ibmw);
	KUNIT_EXPECT_EQ(test, rxe_dereg_mr(&mr->ibmr, NULL), 0);
	km_teardown(&e);
}

/* a deregistration that starts while a bind holds the MR it looked up */
struct km_race {
	struct rxe_mr *mr;
	struct rxe_pool *pool;
	struct completion done;
	int ret;
};

static struct km_race *km_race_cur;

static int km_dereg_thread(void *arg)
{
	struct km_race *r = (struct km_race *)arg;

	r->ret = rxe_dereg_mr(&r->mr->ibmr, NULL);
	complete(&r->done);
	return 0;
}

/*
 * At the bind's staging point: start the deregistration and let it run
 * until it refuses or waits for the bind's reference (the MR has left
 * the pool).
 */
static void km_bind_hook(struct rxe_mr *mr)
{
	struct km_race *r = km_race_cur;
	struct task_struct *t;
	int i;

	rxe_kunit_bind_hook = NULL;
	t = kthread_run(km_dereg_thread, r, "rxe_kunit_dereg");
	if (IS_ERR(t)) {
		r->ret = (int)PTR_ERR(t);
		complete(&r->done);
		return;
	}
	for (i = 0; i < 1000; i++) {
		if (completion_done(&r->done) ||
		    !xa_load(&r->pool->xa, mr->elem.index))
			break;
		msleep(10);
	}
}

static void rxe_kunit_dereg_races_bind(struct kunit *test)
{
	struct km_env e = {};
	struct km_race r = {};
	struct rxe_mw *mw;
	int ret;

	km_setup(test, &e);
	r.mr = km_fast_mr(test, &e, 0, IB_ACCESS_LOCAL_WRITE |
			  IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND);
	r.pool = &e.rxe->mr_pool;
	init_completion(&r.done);
	mw = km_mw(test, &e, e.pd, IB_MW_TYPE_1);
	km_race_cur = &r;
	rxe_kunit_bind_hook = km_bind_hook;
	ret = rxe_bind_mw(e.qp, mw->ibmw.rkey, mw->ibmw.rkey, r.mr->ibmr.lkey,
			  r.mr->ibmr.iova, PAGE_SIZE, IB_ACCESS_REMOTE_READ);
	rxe_kunit_bind_hook = NULL;
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&r.done, 30 * HZ),
			0UL);
	/* the deregistration won: the window must not point at the freed MR */
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	KUNIT_EXPECT_EQ(test, ret, IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_NULL(test, mw->mr);
	mw->mr = NULL;		/* if linked, it is freed: not to be touched */
	rxe_dealloc_mw(&mw->ibmw);
	km_teardown(&e);
}

static struct kunit_case rxe_kunit_mem_cases[] = {
	KUNIT_CASE(rxe_kunit_mr_copy),
	KUNIT_CASE(rxe_kunit_dma_copy),
	KUNIT_CASE(rxe_kunit_rkey),
	KUNIT_CASE(rxe_kunit_atomic),
	KUNIT_CASE(rxe_kunit_atomic_write),
	KUNIT_CASE(rxe_kunit_mw_isolation),
	KUNIT_CASE(rxe_kunit_dereg_races_bind),
	{}
};

static struct kunit_suite rxe_kunit_mem_suite = {
	.name = "rdma_rxe_memory",
	.test_cases = rxe_kunit_mem_cases,
};
kunit_test_suite(rxe_kunit_mem_suite);
