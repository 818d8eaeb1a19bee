// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Verbs objects, part 1: user contexts, protection domains, memory
 * regions and memory windows.  CQs and SRQs are in verbs_cq.c, QPs in
 * verbs_qp.c, address handles in verbs_ah.c.  Lifetime and reference
 * rules: Documentation/core/verbs-objects.rst.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sched/task.h>
#include <rdma/ib_verbs.h>
#include "core_priv.h"

/* ---- user contexts ---- */

struct ib_ucontext *ib_alloc_ucontext_udata(struct ib_device *device,
					    struct ib_udata *udata)
{
	struct ib_ucontext *uctx;
	int ret;

	if (!device->ops.alloc_ucontext)
		return (struct ib_ucontext *)ERR_PTR(-EOPNOTSUPP);
	uctx = ib_zalloc_obj(device, ib_ucontext, udata);
	if (!uctx)
		return (struct ib_ucontext *)ERR_PTR(-ENOMEM);
	uctx->device = device;
	rdma_restrack_new(&uctx->res, RDMA_RESTRACK_CTX);
	rdma_restrack_set_name(&uctx->res, NULL);
	ret = device->ops.alloc_ucontext(uctx, udata);
	if (ret) {
		rdma_restrack_del(&uctx->res);
		kfree(uctx);
		return (struct ib_ucontext *)ERR_PTR(ret);
	}
	rdma_restrack_add(&uctx->res);
	return uctx;
}
EXPORT_SYMBOL(ib_alloc_ucontext_udata);

void ib_dealloc_ucontext(struct ib_ucontext *uctx)
{
	rdma_restrack_del(&uctx->res);
	if (uctx->device->ops.dealloc_ucontext)
		uctx->device->ops.dealloc_ucontext(uctx);
	kfree(uctx);
}
EXPORT_SYMBOL(ib_dealloc_ucontext);

/* ---- protection domains ---- */

/*
 * A kernel PD's local_dma_lkey: the lkey of a DMA MR (all of memory, local
 * write) that belongs to the PD itself.  It is not a restrack object and
 * holds no use of the PD, as upstream's kernel PDs on a device without a
 * reserved lkey; ib_dealloc_pd() deregisters it.
 */
static int pd_internal_mr(struct ib_pd *pd)
{
	struct ib_mr *mr = pd->device->ops.get_dma_mr(pd, IB_ACCESS_LOCAL_WRITE);

	if (IS_ERR(mr))
		return PTR_ERR(mr);
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_DMA;
	mr->uobject = NULL;
	mr->need_inval = false;
	mr->access = IB_ACCESS_LOCAL_WRITE;
	pd->internal_mr = mr;
	pd->local_dma_lkey = mr->lkey;
	return 0;
}

static struct ib_pd *alloc_pd(struct ib_device *device, unsigned int flags,
			      const char *caller, struct ib_udata *udata)
{
	struct ib_pd *pd;
	int ret;

	if (!device->ops.alloc_pd)
		return (struct ib_pd *)ERR_PTR(-EOPNOTSUPP);
	pd = ib_zalloc_obj(device, ib_pd, udata);
	if (!pd)
		return (struct ib_pd *)ERR_PTR(-ENOMEM);
	pd->device = device;
	pd->flags = flags;
	atomic_set(&pd->usecnt, 0);
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, caller);
	ret = device->ops.alloc_pd(pd, udata);
	if (ret)
		goto err_res;
	if (!udata && device->ops.get_dma_mr) {
		ret = pd_internal_mr(pd);
		if (ret)
			goto err_dealloc;
	}
	rdma_restrack_add(&pd->res);
	return pd;

err_dealloc:
	if (device->ops.dealloc_pd)
		device->ops.dealloc_pd(pd, udata);
err_res:
	rdma_restrack_del(&pd->res);
	kfree(pd);
	return (struct ib_pd *)ERR_PTR(ret);
}

struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller)
{
	return alloc_pd(device, flags, caller ? caller : "ib_core", NULL);
}
EXPORT_SYMBOL(__ib_alloc_pd);

struct ib_pd *ib_alloc_pd_user(struct ib_device *device,
			       struct ib_ucontext *uctx, struct ib_udata *udata)
{
	return alloc_pd(device, 0, NULL, udata);
}
EXPORT_SYMBOL(ib_alloc_pd_user);

int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata)
{
	int ret;

	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	if (pd->internal_mr) {
		ret = pd->device->ops.dereg_mr(pd->internal_mr, NULL);
		if (ret)
			return ret;
		pd->internal_mr = NULL;
	}
	rdma_restrack_unlist(&pd->res);
	if (pd->device->ops.dealloc_pd) {
		ret = pd->device->ops.dealloc_pd(pd, udata);
		if (ret) {
			rdma_restrack_add(&pd->res);
			return ret;
		}
	}
	rdma_restrack_del(&pd->res);
	kfree(pd);
	return 0;
}
EXPORT_SYMBOL(ib_dealloc_pd_user);

/* ---- memory regions ---- */

/* Owner of a child object: the parent's kernel name, or the calling task. */
const char *ib_res_parent_name(const struct rdma_restrack_entry *parent)
{
	return parent->user ? NULL : parent->kern_name;
}

/* Core's part of a driver-allocated MR: links, PD use, restrack. */
static void mr_setup(struct ib_mr *mr, struct ib_pd *pd, enum ib_mr_type type,
		     const char *caller)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = type;
	mr->uobject = NULL;
	mr->need_inval = false;
	atomic_inc(&pd->usecnt);
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_set_name(&mr->res, caller);
	rdma_restrack_add(&mr->res);
}

/*
 * Access rights an MR of @dev may be given: remote write/atomic need
 * local write (-EINVAL); a FLUSH target needs the device's FLUSH
 * capability (-EOPNOTSUPP).
 */
static int check_mr_access(struct ib_device *dev, int access)
{
	u64 caps = dev->attrs.device_cap_flags;

	if (access & ~IB_ACCESS_SUPPORTED)
		return -EINVAL;
	if ((access & IB_ACCESS_ON_DEMAND) &&
	    !(dev->attrs.kernel_cap_flags & IBK_ON_DEMAND_PAGING))
		return -EOPNOTSUPP;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (((access & IB_ACCESS_FLUSH_GLOBAL) &&
	     !(caps & RDMA_UVERBS_DEVICE_FLUSH_GLOBAL)) ||
	    ((access & IB_ACCESS_FLUSH_PERSISTENT) &&
	     !(caps & RDMA_UVERBS_DEVICE_FLUSH_PERSISTENT)))
		return -EOPNOTSUPP;
	return 0;
}

struct ib_mr *ib_get_dma_mr(struct ib_pd *pd, int access)
{
	struct ib_mr *mr;

	int ret = check_mr_access(pd->device, access);

	if (ret)
		return (struct ib_mr *)ERR_PTR(ret);
	if (!pd->device->ops.get_dma_mr)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	mr = pd->device->ops.get_dma_mr(pd, access);
	if (IS_ERR(mr))
		return mr;
	mr->access = access;
	mr_setup(mr, pd, IB_MR_TYPE_DMA, ib_res_parent_name(&pd->res));
	return mr;
}
EXPORT_SYMBOL(ib_get_dma_mr);

struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			  u32 max_num_sg)
{
	struct ib_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG && type != IB_MR_TYPE_SG_GAPS)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	if (!max_num_sg)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	if (!pd->device->ops.alloc_mr)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	mr = pd->device->ops.alloc_mr(pd, type, max_num_sg);
	if (IS_ERR(mr))
		return mr;
	mr_setup(mr, pd, type, ib_res_parent_name(&pd->res));
	return mr;
}
EXPORT_SYMBOL(ib_alloc_mr);

struct ib_mr *ib_reg_user_mr_udata(struct ib_pd *pd, u64 start, u64 length,
				   u64 virt_addr, int access_flags,
				   struct ib_udata *udata)
{
	struct ib_mr *mr;
	int ret = check_mr_access(pd->device, access_flags);

	if (ret)
		return (struct ib_mr *)ERR_PTR(ret);
	if (!length || start + length < start)
		return (struct ib_mr *)ERR_PTR(-EINVAL);
	if (!pd->device->ops.reg_user_mr)
		return (struct ib_mr *)ERR_PTR(-EOPNOTSUPP);
	mr = pd->device->ops.reg_user_mr(pd, start, length, virt_addr,
					 access_flags, udata);
	if (IS_ERR(mr))
		return mr;
	mr->access = access_flags;
	if (!mr->length) {
		mr->iova = virt_addr;
		mr->length = length;
	}
	mr_setup(mr, pd, IB_MR_TYPE_USER, ib_res_parent_name(&pd->res));
	return mr;
}
EXPORT_SYMBOL(ib_reg_user_mr_udata);

int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata)
{
	struct ib_pd *pd = mr->pd;
	struct task_struct *task;
	int ret;

	if (!mr->device->ops.dereg_mr)
		return -EOPNOTSUPP;
	rdma_restrack_unlist(&mr->res);
	/* the driver frees @mr: keep what core still has to release */
	task = mr->res.task;
	ret = mr->device->ops.dereg_mr(mr, udata);
	if (ret) {
		rdma_restrack_add(&mr->res);
		return ret;
	}
	if (task)
		put_task_struct(task);
	if (pd)
		atomic_dec(&pd->usecnt);
	return 0;
}
EXPORT_SYMBOL(ib_dereg_mr_user);

/*
 * Move @mr's use from @old to @pd (REREG_MR with IB_MR_REREG_PD); the
 * driver may have set mr->pd already.
 */
static void mr_move_pd(struct ib_mr *mr, struct ib_pd *old, struct ib_pd *pd)
{
	atomic_inc(&pd->usecnt);
	atomic_dec(&old->usecnt);
	mr->pd = pd;
}

int ib_rereg_user_mr(struct ib_mr *mr, int flags, u64 start, u64 length,
		     u64 virt_addr, int access_flags, struct ib_pd *pd,
		     struct ib_udata *udata, struct ib_mr **new_mr)
{
	struct ib_device *device = mr->device;
	struct ib_pd *old_pd = mr->pd;
	struct ib_udata cleared = {};
	struct ib_mr *nmr;
	int ret;

	*new_mr = NULL;
	if (!flags || (flags & ~IB_MR_REREG_SUPPORTED))
		return -EINVAL;
	if (flags & IB_MR_REREG_ACCESS) {
		ret = check_mr_access(device, access_flags);
		if (ret)
			return ret;
	}
	if ((flags & IB_MR_REREG_TRANS) &&
	    (!length || start + length < start))
		return -EINVAL;
	if (flags & IB_MR_REREG_PD) {
		if (!pd || pd->device != device)
			return -EINVAL;
	} else {
		pd = mr->pd;
	}
	if (!device->ops.rereg_user_mr)
		return -EOPNOTSUPP;

	nmr = device->ops.rereg_user_mr(mr, flags, start, length, virt_addr,
					access_flags, pd, udata);
	if (IS_ERR(nmr))
		return PTR_ERR(nmr);
	if (!nmr) {
		/* changed in place */
		if (flags & IB_MR_REREG_PD)
			mr_move_pd(mr, old_pd, pd);
		if (flags & IB_MR_REREG_ACCESS)
			mr->access = access_flags;
		if (flags & IB_MR_REREG_TRANS) {
			mr->iova = virt_addr;
			mr->length = length;
		}
		return 0;
	}

	/* a replacement: it takes the old one's place, owner and all */
	nmr->access = (flags & IB_MR_REREG_ACCESS) ? access_flags : mr->access;
	if (!nmr->length) {
		nmr->iova = (flags & IB_MR_REREG_TRANS) ? virt_addr : mr->iova;
		nmr->length = (flags & IB_MR_REREG_TRANS) ? length : mr->length;
	}
	mr_setup(nmr, pd, mr->type, ib_res_parent_name(&mr->res));
	mr->pd = old_pd;
	ret = ib_dereg_mr_user(mr, udata ? &cleared : NULL);
	if (ret)
		pr_debug("ib_core: %s: old MR of a rereg not released (%d)\n",
			 dev_name_ib(device), ret);
	*new_mr = nmr;
	return 0;
}
EXPORT_SYMBOL(ib_rereg_user_mr);

int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size)
{
	if (!mr->device->ops.map_mr_sg)
		return -EOPNOTSUPP;
	if (!is_power_of_2(page_size) || page_size < SZ_4K)
		return -EINVAL;
	mr->page_size = page_size;
	return mr->device->ops.map_mr_sg(mr, sg, sg_nents, sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg);

/*
 * Walk the DMA ranges of @sgl in @mr->page_size pages.  A range may start
 * inside a page only if it is the first one or continues the previous
 * range exactly; the previous one may end inside a page only if this one
 * continues it.  Anything else is a gap the MR cannot express: stop there
 * and report how many entries were taken.  When @set_page refuses a page
 * (the MR is full), *@sg_offset_p says where in the current entry to go on.
 */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset_p,
		   int (*set_page)(struct ib_mr *mr, u64 addr))
{
	u64 psize = mr->page_size, pmask = ~(psize - 1);
	unsigned int first_off = sg_offset_p ? *sg_offset_p : 0;
	u64 prev_end = 0, next_page = 0;
	struct scatterlist *sg;
	int i;

	if (!psize || !is_power_of_2(psize))
		return -EINVAL;
	mr->length = 0;
	mr->iova = sgl ? sg_dma_address(sgl) + first_off : 0;

	for_each_sg(sgl, sg, sg_nents, i) {
		unsigned int off = i ? 0 : first_off;
		u64 addr = sg_dma_address(sg) + off;
		u64 end = addr + sg_dma_len(sg) - off;
		u64 page;

		if (i && ((prev_end & ~pmask) || (addr & ~pmask))) {
			if (addr != prev_end)
				break;
			/* continues the last page run */
			page = next_page;
		} else {
			page = addr & pmask;
		}
		for (; page < end; page += psize) {
			if (set_page(mr, page)) {
				u64 done = page > addr ? page - addr : 0;

				mr->length += done;
				if (sg_offset_p)
					*sg_offset_p = off + (unsigned int)done;
				return i;
			}
		}
		next_page = page;
		prev_end = end;
		mr->length += end - addr;
	}
	if (sg_offset_p)
		*sg_offset_p = 0;
	return i;
}
EXPORT_SYMBOL(ib_sg_to_pages);

/* A device without a DMA device sees kernel virtual addresses. */
int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg,
		       int nents)
{
	struct scatterlist *s = sg;
	int n;

	for (n = 0; n < nents && s; n++, s = sg_next(s)) {
		s->dma_address = (dma_addr_t)(uintptr_t)sg_virt(s);
		sg_dma_len(s) = s->length;
	}
	return nents;
}
EXPORT_SYMBOL(ib_dma_virt_map_sg);

/* ---- memory windows ---- */

struct ib_mw *ib_alloc_mw_user(struct ib_pd *pd, enum ib_mw_type type,
			       struct ib_udata *udata)
{
	struct ib_device *device = pd->device;
	struct ib_mw *mw;
	int ret;

	if (type != IB_MW_TYPE_1 && type != IB_MW_TYPE_2)
		return (struct ib_mw *)ERR_PTR(-EINVAL);
	if (!device->ops.alloc_mw)
		return (struct ib_mw *)ERR_PTR(-EOPNOTSUPP);
	mw = ib_zalloc_obj(device, ib_mw, udata);
	if (!mw)
		return (struct ib_mw *)ERR_PTR(-ENOMEM);
	mw->device = device;
	mw->pd = pd;
	mw->type = type;
	ret = device->ops.alloc_mw(mw, udata);
	if (ret) {
		kfree(mw);
		return (struct ib_mw *)ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return mw;
}
EXPORT_SYMBOL(ib_alloc_mw_user);

struct ib_mw *ib_alloc_mw(struct ib_pd *pd, enum ib_mw_type type)
{
	return ib_alloc_mw_user(pd, type, NULL);
}
EXPORT_SYMBOL(ib_alloc_mw);

int ib_dealloc_mw(struct ib_mw *mw)
{
	struct ib_pd *pd = mw->pd;
	int ret;

	if (mw->device->ops.dealloc_mw) {
		ret = mw->device->ops.dealloc_mw(mw);
		if (ret)
			return ret;
	}
	atomic_dec(&pd->usecnt);
	kfree(mw);
	return 0;
}
EXPORT_SYMBOL(ib_dealloc_mw);
