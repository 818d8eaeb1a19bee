// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Pinned user memory for memory registration.  Pages are pinned with
 * FOLL_LONGTERM (they stay put while the MR lives) and charged to the
 * owner's mm->pinned_vm against RLIMIT_MEMLOCK before any is pinned.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/capability.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>

/* Largest scatterlist entry: contiguous pages merge up to this. */
#define UMEM_MAX_SEGMENT	((unsigned int)(UINT_MAX & PAGE_MASK))

static bool access_writes(int access)
{
	return access & (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			 IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_MW_BIND);
}

/* Charge @npages to @mm unless that passes RLIMIT_MEMLOCK. */
static int charge_pinned(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	s64 total = atomic64_add_return(npages, &mm->pinned_vm);

	if (total > 0 && (u64)total > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

/* Unpin every page listed so far (marking written pages dirty). */
static void unpin_listed(struct ib_umem *umem)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(&umem->sgt_append.sgt, sg, i)
		unpin_user_page_range_dirty_lock(sg_page(sg),
						 DIV_ROUND_UP(sg->length, PAGE_SIZE),
						 umem->writable);
	sg_free_append_table(&umem->sgt_append);
}

/* Pin the pages in batches of one page worth of pointers. */
static int pin_all(struct ib_umem *umem, unsigned int gup_flags)
{
	unsigned long left = umem->npages;
	unsigned long base = umem->address & PAGE_MASK;
	struct page **batch;
	int pinned, ret = 0;

	batch = (struct page **)__get_free_page(GFP_KERNEL);
	if (!batch)
		return -ENOMEM;
	while (left) {
		unsigned long want = min_t(unsigned long, left,
					   PAGE_SIZE / sizeof(struct page *));

		cond_resched();
		pinned = pin_user_pages_fast(base, (int)want, gup_flags, batch);
		if (pinned <= 0) {
			ret = pinned ? pinned : -EFAULT;
			break;
		}
		base += (unsigned long)pinned << PAGE_SHIFT;
		left -= pinned;
		ret = sg_alloc_append_table_from_pages(&umem->sgt_append, batch,
						       pinned, 0,
						       (unsigned long)pinned << PAGE_SHIFT,
						       UMEM_MAX_SEGMENT,
						       left, GFP_KERNEL_ACCOUNT);
		if (ret) {
			unpin_user_pages_dirty_lock(batch, pinned, false);
			break;
		}
	}
	free_page((unsigned long)batch);
	return ret;
}

struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access)
{
	unsigned int gup_flags = FOLL_LONGTERM;
	struct ib_umem *umem;
	unsigned long npages;
	int ret;

	if (access & IB_ACCESS_ON_DEMAND)
		return (struct ib_umem *)ERR_PTR(-EOPNOTSUPP);
	npages = size ? ib_umem_span_pages(addr, size) : 0;
	if (!npages || npages > INT_MAX)
		return (struct ib_umem *)ERR_PTR(-EINVAL);
	if (!current->mm)
		return (struct ib_umem *)ERR_PTR(-EFAULT);

	umem = (struct ib_umem *)kzalloc(sizeof(*umem), GFP_KERNEL_ACCOUNT);
	if (!umem)
		return (struct ib_umem *)ERR_PTR(-ENOMEM);
	umem->device = device;
	umem->address = addr;
	umem->iova = addr;
	umem->length = size;
	umem->npages = npages;
	umem->writable = access_writes(access);
	umem->mm = current->mm;
	mmgrab(umem->mm);

	ret = charge_pinned(umem->mm, npages);
	if (ret)
		goto out_free;
	if (umem->writable)
		gup_flags |= FOLL_WRITE;
	ret = pin_all(umem, gup_flags);
	if (ret)
		goto out_unpin;
	return umem;

out_unpin:
	unpin_listed(umem);
	atomic64_sub(npages, &umem->mm->pinned_vm);
out_free:
	mmdrop(umem->mm);
	kfree(umem);
	return (struct ib_umem *)ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_get);

void ib_umem_release(struct ib_umem *umem)
{
	if (IS_ERR_OR_NULL(umem))
		return;
	unpin_listed(umem);
	atomic64_sub(umem->npages, &umem->mm->pinned_vm);
	mmdrop(umem->mm);
	kfree(umem);
}
EXPORT_SYMBOL(ib_umem_release);
