// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Protection domains and memory regions.
 *
 * MR keys are (pool index << 8) | key byte; lkey and rkey are the same
 * key, the rkey only when remote access (read, write, atomic, or a FLUSH
 * target's) is granted (0 otherwise), as in Linux 6.1.  User MRs pin their
 * pages through core's ib_umem, or with IB_ACCESS_ON_DEMAND pin nothing
 * (rxe_odp.c); fast-reg MRs (IB_MR_TYPE_MEM_REG) get a page list from
 * map_mr_sg() and become usable with IB_WR_REG_MR (rxe_post.c).  The page
 * list is what the data path translates addresses with.
 */
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>
/* core's ib_umem (ours, not the kernel tree's): Kbuild tells */
#include <rdma/ib_umem.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"
#include "rxe_mr_map.h"

/* the rights a peer uses the rkey for (a FLUSH target's too) */
#define RXE_ACCESS_REMOTE	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_ATOMIC | \
				 IB_ACCESS_FLUSH_GLOBAL | \
				 IB_ACCESS_FLUSH_PERSISTENT)

int rxe_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rxe_pd *pd = to_rpd(ibpd);

	return rxe_pool_add(&to_rdev(ibpd->device)->pd_pool, &pd->elem);
}

int rxe_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	rxe_pool_del(&to_rpd(ibpd)->elem);
	return 0;
}

static u8 rxe_key_byte(void)
{
	return (u8)get_random_u32();
}

static void rxe_mr_set_keys(struct rxe_mr *mr, u32 key, int access)
{
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = (access & RXE_ACCESS_REMOTE) ? key : 0;
	mr->ibmr.access = access;
}

/* a new MR on @pd with its index; keys from a random key byte */
static struct rxe_mr *rxe_mr_new(struct ib_pd *pd, int access, gfp_t gfp)
{
	struct rxe_dev *rxe = to_rdev(pd->device);
	struct rxe_mr *mr;
	int ret;

	mr = (struct rxe_mr *)kzalloc(sizeof(*mr), gfp);
	if (!mr)
		return (struct rxe_mr *)ERR_PTR(-ENOMEM);
	ret = rxe_pool_add(&rxe->mr_pool, &mr->elem);
	if (ret) {
		kfree(mr);
		return (struct rxe_mr *)ERR_PTR(ret);
	}
	spin_lock_init(&mr->lock);
	atomic_set(&mr->num_mw, 0);
	mr->ibmr.device = pd->device;
	mr->ibmr.pd = pd;
	rxe_mr_set_keys(mr, mr->elem.index << 8 | rxe_key_byte(), access);
	return mr;
}

static void rxe_mr_free(struct rxe_mr *mr)
{
	rxe_pool_del(&mr->elem);
	rxe_odp_release(mr);
	if (mr->umem)
		ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kfree(mr);
}

struct ib_mr *rxe_get_dma_mr(struct ib_pd *pd, int access)
{
	struct rxe_mr *mr = rxe_mr_new(pd, access, GFP_KERNEL);

	if (IS_ERR(mr))
		return (struct ib_mr *)ERR_CAST(mr);
	mr->ibmr.type = IB_MR_TYPE_DMA;
	mr->state = RXE_MR_VALID;
	return &mr->ibmr;
}

struct rxe_mr *rxe_mr_lookup(struct rxe_dev *rxe, u32 key)
{
	struct rxe_elem *elem = rxe_pool_get(&rxe->mr_pool, key >> 8);

	return elem ? container_of(elem, struct rxe_mr, elem) : NULL;
}

/* The block size of @umem's translation (rxe_mr_map.h). */
static unsigned int rxe_umem_shift(struct ib_umem *umem)
{
	struct rxe_map_fit fit;
	struct scatterlist *sg;
	unsigned int i;

	rxe_map_fit_init(&fit, umem->address & PAGE_MASK);
	for_each_sgtable_sg(&umem->sgt_append.sgt, sg, i)
		rxe_map_fit_add(&fit, sg->length);
	return rxe_map_fit_shift(&fit, PAGE_SHIFT, RXE_MAP_MAX_SHIFT);
}

/*
 * @umem's translation (one kernel address per block of the largest size
 * its runs allow), installed as @mr's; the old one is released.
 */
static int rxe_mr_map_umem(struct rxe_mr *mr, struct ib_umem *umem,
			   u64 iova, u64 length)
{
	unsigned int shift = rxe_umem_shift(umem);
	u64 va0 = umem->address & ~((1ULL << shift) - 1);
	u64 va = umem->address & PAGE_MASK, max, n = 0;
	struct scatterlist *sg;
	unsigned int i;
	u64 *pages;

	max = rxe_map_blocks(va, (u64)ib_umem_num_pages(umem) << PAGE_SHIFT,
			     shift);
	if (!max || max > U32_MAX)
		return -EINVAL;
	pages = (u64 *)kvmalloc_array(max, sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!pages)
		return -ENOMEM;
	for_each_sgtable_sg(&umem->sgt_append.sgt, sg, i) {
		if (rxe_map_fill(pages, max, &n, va0, shift, va,
				 (u64)(uintptr_t)page_address(sg_page(sg)),
				 sg->length)) {
			kvfree(pages);
			return -EINVAL;
		}
		va += sg->length;
	}
	if (n != max) {
		kvfree(pages);
		return -EINVAL;
	}
	/* the data path translates under mr->lock (rxe_mr_copy.c) */
	spin_lock_bh(&mr->lock);
	swap(mr->pages, pages);
	mr->npages = (u32)n;
	mr->max_pages = (u32)max;
	mr->page_shift = shift;
	mr->ibmr.page_size = 1U << shift;
	swap(mr->umem, umem);
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	spin_unlock_bh(&mr->lock);
	/* the old translation, nobody uses it any more */
	kvfree(pages);
	ib_umem_release(umem);
	return 0;
}

static int rxe_mr_pin(struct rxe_mr *mr, u64 start, u64 length, u64 iova,
		      int access)
{
	struct ib_umem *umem;
	int ret;

	umem = ib_umem_get(mr->ibmr.device, start, length, access);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	ret = rxe_mr_map_umem(mr, umem, iova, length);
	if (ret)
		ib_umem_release(umem);
	return ret;
}

struct ib_mr *rxe_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct rxe_mr *mr;
	int ret;

	if (access & ~IB_ACCESS_SUPPORTED)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	mr = rxe_mr_new(pd, access, GFP_KERNEL_ACCOUNT);
	if (IS_ERR(mr))
		return (struct ib_mr *)ERR_CAST(mr);
	if (access & IB_ACCESS_ON_DEMAND) {
		/* HUGETLB is a hint: faults map PAGE_SIZE pieces anyway */
		ret = rxe_odp_reg(mr, start, length, access);
		if (!ret) {
			mr->ibmr.iova = iova;
			mr->ibmr.length = length;
			mr->page_shift = PAGE_SHIFT;
			mr->ibmr.page_size = PAGE_SIZE;
		}
	} else {
		ret = rxe_mr_pin(mr, start, length, iova, access);
	}
	if (ret) {
		rxe_mr_free(mr);
		return (struct ib_mr *)ERR_PTR(ret);
	}
	mr->ibmr.type = IB_MR_TYPE_USER;
	mr->state = RXE_MR_VALID;
	return &mr->ibmr;
}

/*
 * No window is bound to @mr and none can bind until no_bind is cleared
 * (true); false when a window is bound or another rereg runs.
 */
static bool rxe_mr_close_binds(struct rxe_mr *mr)
{
	bool ok;

	spin_lock_bh(&mr->lock);
	ok = !mr->no_bind && atomic_read(&mr->num_mw) == 0;
	if (ok)
		mr->no_bind = true;
	spin_unlock_bh(&mr->lock);
	return ok;
}

/*
 * In place: a new translation is pinned before the old one is released,
 * so a failure leaves the MR as it was.  Keys stay (only the rkey follows
 * the new access rights).
 */
struct ib_mr *rxe_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *pd, struct ib_udata *udata)
{
	struct rxe_mr *mr = to_rmr(ibmr);
	int new_access = flags & IB_MR_REREG_ACCESS ? access : ibmr->access;
	int ret;

	if (flags & ~IB_MR_REREG_SUPPORTED)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	if (new_access & ~IB_ACCESS_SUPPORTED)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	if (ibmr->type != IB_MR_TYPE_USER)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	/* an ODP MR keeps its range and rights; none becomes one */
	if (mr->odp || (new_access & IB_ACCESS_ON_DEMAND))
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	/* no window bound, none while this runs; one rereg at a time */
	if (!rxe_mr_close_binds(mr))
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	ret = flags & IB_MR_REREG_TRANS ?
	      rxe_mr_pin(mr, start, length, iova, new_access) : 0;
	spin_lock_bh(&mr->lock);
	if (!ret) {
		if (flags & IB_MR_REREG_PD)
			ibmr->pd = pd;
		rxe_mr_set_keys(mr, ibmr->lkey, new_access);
	}
	mr->no_bind = false;
	spin_unlock_bh(&mr->lock);
	return ret ? (struct ib_mr *)ERR_PTR(ret) : NULL;
}

int rxe_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	/* windows bound to it must go first (IBA 10.6.7.2.6) */
	if (!rxe_mr_close_binds(mr))
		return -EINVAL;
	rxe_mr_free(mr);
	return 0;
}

struct ib_mr *rxe_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct rxe_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	if (max_num_sg > RXE_MAX_FAST_REG_PAGES)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	mr = rxe_mr_new(pd, 0, GFP_KERNEL);
	if (IS_ERR(mr))
		return (struct ib_mr *)ERR_CAST(mr);
	mr->pages = (u64 *)kvcalloc(max_num_sg ? max_num_sg : 1, sizeof(u64),
				    GFP_KERNEL);
	if (!mr->pages) {
		rxe_mr_free(mr);
		return (struct ib_mr *)ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	mr->ibmr.type = IB_MR_TYPE_MEM_REG;
	/* usable once IB_WR_REG_MR gives it keys and access */
	mr->state = RXE_MR_FREE;
	mr->ibmr.rkey = mr->ibmr.lkey;
	return &mr->ibmr;
}

static int rxe_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

int rxe_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	if (!ibmr->page_size || !is_power_of_2(ibmr->page_size))
		return -EINVAL;
	mr->npages = 0;
	mr->page_shift = ilog2(ibmr->page_size);
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rxe_set_page);
}

int rxe_mr_fast_reg(struct rxe_pd *pd, struct rxe_mr *mr, u32 key, int access)
{
	int ret = IB_WC_SUCCESS;

	spin_lock_bh(&mr->lock);
	if (mr->ibmr.type != IB_MR_TYPE_MEM_REG || mr->state != RXE_MR_FREE ||
	    mr->ibmr.pd != &pd->ibpd) {
		ret = IB_WC_LOC_QP_OP_ERR;
	} else if ((key >> 8) != (mr->ibmr.lkey >> 8)) {
		/* only the key byte is the consumer's */
		ret = IB_WC_LOC_QP_OP_ERR;
	} else {
		rxe_mr_set_keys(mr, key, access);
		mr->state = RXE_MR_VALID;
	}
	spin_unlock_bh(&mr->lock);
	return ret;
}

int rxe_mr_invalidate(struct rxe_pd *pd, u32 key)
{
	struct rxe_mr *mr = rxe_mr_lookup(to_rdev(pd->ibpd.device), key);
	int ret = IB_WC_SUCCESS;

	if (!mr)
		return IB_WC_LOC_QP_OP_ERR;
	spin_lock_bh(&mr->lock);
	if ((mr->ibmr.rkey ? mr->ibmr.rkey : mr->ibmr.lkey) != key ||
	    atomic_read(&mr->num_mw) > 0 ||
	    mr->ibmr.type != IB_MR_TYPE_MEM_REG ||
	    mr->ibmr.pd != &pd->ibpd)
		ret = IB_WC_LOC_QP_OP_ERR;
	else
		mr->state = RXE_MR_FREE;
	spin_unlock_bh(&mr->lock);
	rxe_elem_put(&mr->elem);
	return ret;
}
