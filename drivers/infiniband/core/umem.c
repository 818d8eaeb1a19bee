// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Pinned user memory for memory registration.  Pages are pinned with
 * FOLL_LONGTERM (they stay put while the MR lives) and charged to the
 * owner's mm->pinned_vm against RLIMIT_MEMLOCK before any is pinned.
 * The scatterlist has one entry per physically contiguous run of pages
 * (up to UMEM_MAX_SEGMENT bytes).
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
#define UMEM_SEG_PAGES		(UMEM_MAX_SEGMENT >> PAGE_SHIFT)
/* pages pinned per pin_user_pages_fast() call */
#define UMEM_BATCH		4096

/*
 * The pinned pages as physically contiguous runs, in address order, until
 * they become the scatterlist (one entry per run).
 */
struct umem_run {
	struct page *page;
	unsigned long pfn;
	unsigned long npages;
};

struct umem_runs {
	struct umem_run *run;
	unsigned long n, cap;
};

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
	sg_free_table(&umem->sgt_append.sgt);
}

static void unpin_runs(struct umem_runs *r)
{
	unsigned long i;

	for (i = 0; i < r->n; i++)
		unpin_user_page_range_dirty_lock(r->run[i].page,
						 r->run[i].npages, false);
	kvfree(r->run);
	r->run = NULL;
	r->n = 0;
}

/* @npages pinned pages from @page on, physically contiguous: one run more */
static int runs_add(struct umem_runs *r, struct page *page,
		    unsigned long npages)
{
	unsigned long pfn = page_to_pfn(page);
	struct umem_run *last = r->n ? &r->run[r->n - 1] : NULL;
	struct umem_run *grown;

	if (last && last->pfn + last->npages == pfn &&
	    last->npages + npages <= UMEM_SEG_PAGES) {
		last->npages += npages;
		return 0;
	}
	if (r->n == r->cap) {
		unsigned long cap = r->cap ? 2 * r->cap : 64;

		grown = (struct umem_run *)kvrealloc(r->run,
						     r->cap * sizeof(*grown),
						     cap * sizeof(*grown),
						     GFP_KERNEL_ACCOUNT);
		if (!grown)
			return -ENOMEM;
		r->run = grown;
		r->cap = cap;
	}
	r->run[r->n].page = page;
	r->run[r->n].pfn = pfn;
	r->run[r->n].npages = npages;
	r->n++;
	return 0;
}

/*
 * The pages of @batch[0 .. @n) as runs: pointers that follow each other
 * inside one folio (of the buddy allocator's sizes, so one memory
 * section) are physically contiguous, which is known from one look at
 * the folio instead of one pfn per page.  Returns how many were added.
 */
static unsigned long runs_add_batch(struct umem_runs *r, struct page **batch,
				    unsigned long n)
{
	unsigned long i = 0, k, room;
	struct folio *folio;

	while (i < n) {
		folio = page_folio(batch[i]);
		room = 1;
		if (folio_nr_pages(folio) <= MAX_ORDER_NR_PAGES)
			room = folio_nr_pages(folio) -
			       (unsigned long)(batch[i] - &folio->page);
		for (k = 1; k < room && i + k < n &&
			    batch[i + k] == batch[i] + k; k++)
			;
		if (runs_add(r, batch[i], k))
			break;
		i += k;
	}
	return i;
}

/* Pin the pages in batches, as runs of contiguous pages. */
static int pin_all(struct ib_umem *umem, unsigned int gup_flags,
		   struct umem_runs *runs)
{
	unsigned long left = umem->npages, added;
	unsigned long base = umem->address & PAGE_MASK;
	struct page **batch;
	int pinned, ret = 0;

	batch = (struct page **)kvmalloc_array(UMEM_BATCH, sizeof(*batch),
					       GFP_KERNEL);
	if (!batch)
		return -ENOMEM;
	while (left) {
		unsigned long want = min_t(unsigned long, left, UMEM_BATCH);

		cond_resched();
		pinned = pin_user_pages_fast(base, (int)want, gup_flags, batch);
		if (pinned <= 0) {
			ret = pinned ? pinned : -EFAULT;
			break;
		}
		base += (unsigned long)pinned << PAGE_SHIFT;
		left -= pinned;
		added = runs_add_batch(runs, batch, pinned);
		if (added < (unsigned long)pinned) {
			unpin_user_pages(batch + added, pinned - added);
			ret = -ENOMEM;
			break;
		}
	}
	kvfree(batch);
	return ret;
}

/* @runs become @umem's scatterlist, one entry per run. */
static int runs_to_sgt(struct ib_umem *umem, struct umem_runs *runs)
{
	struct sg_table *sgt = &umem->sgt_append.sgt;
	struct scatterlist *sg;
	unsigned int i;
	int ret;

	if (runs->n > UINT_MAX)
		return -ENOMEM;
	ret = sg_alloc_table(sgt, (unsigned int)runs->n, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	for_each_sgtable_sg(sgt, sg, i)
		sg_set_page(sg, runs->run[i].page,
			    (unsigned int)(runs->run[i].npages << PAGE_SHIFT), 0);
	umem->sgt_append.total_nents = sgt->orig_nents;
	kvfree(runs->run);
	runs->run = NULL;
	runs->n = 0;
	return 0;
}

struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access)
{
	unsigned int gup_flags = FOLL_LONGTERM;
	struct umem_runs runs = {};
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
	ret = pin_all(umem, gup_flags, &runs);
	if (!ret)
		ret = runs_to_sgt(umem, &runs);
	if (ret)
		goto out_unpin;
	return umem;

out_unpin:
	unpin_runs(&runs);
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
