// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * On-demand paging (IB_ACCESS_ON_DEMAND) for user MRs.
 *
 * Registration pins nothing: it records the user range, takes an MMU
 * interval notifier on the registering process's mm and maps what is
 * already present (a snapshot that faults nothing).  The data path finds
 * each page it touches in odp->pfns[] (hmm pfn values, 0 = not mapped);
 * a missing page, or a read-only one for a write, is faulted in with
 * hmm_range_fault() and the copy retried.
 *
 * Rules:
 *  - odp->lock (a mutex) guards pfns[].  The invalidation callback takes
 *    it before the kernel changes or frees a page of the range, so a
 *    copy that found its pages under the lock may use them until it
 *    unlocks.  Under the lock: no allocation that can enter reclaim, no
 *    mmap_lock, no user-memory access (reclaim and munmap call the
 *    invalidation with those held).
 *  - Faulting takes mmap_lock for read and a use of the mm; never under
 *    odp->lock.  Results are published under odp->lock only if no
 *    invalidation ran since the fault began (mmu_interval_read_retry).
 *  - Every ODP access sleeps: the responder runs in its work item, a
 *    user QP's requester and completer in theirs or in a system call.
 *    Kernel QPs never reach a user MR (the PD check).
 *  - Pages granted for writing are marked dirty when their mapping is
 *    dropped (invalidation or deregistration), while still mapped.
 *  - Deregistration drops every mapping under the lock, then removes the
 *    notifier (which waits for a running invalidation); the caller holds
 *    the last reference, so no copy is in flight.
 */
#include <linux/highmem.h>
#include <linux/hmm.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "rxe.h"
#include "rxe_obj.h"
#include "rxe_dp.h"

/* pages one data-path fault asks for (a packet spans at most two) */
#define RXE_ODP_FAULT_PAGES	16
/* how long a fault retries while invalidations keep colliding with it */
#define RXE_ODP_FAULT_MSECS	1000

struct rxe_odp {
	struct mmu_interval_notifier notifier;
	struct mutex lock;
	unsigned long uaddr;	/* user address of the MR's first byte */
	unsigned long start;	/* page-aligned user address of pfns[0] */
	unsigned long npages;
	bool writable;
	unsigned long *pfns;
};

static bool rxe_odp_present(unsigned long pfn, bool write)
{
	if (!(pfn & HMM_PFN_VALID))
		return false;
	return !write || (pfn & HMM_PFN_WRITE);
}

/* Under odp->lock: forget the mapping of page @i (dirty if writable). */
static void rxe_odp_drop(struct rxe_odp *odp, unsigned long i)
{
	unsigned long pfn = odp->pfns[i];

	lockdep_assert_held(&odp->lock);
	if (!(pfn & HMM_PFN_VALID))
		return;
	if (pfn & HMM_PFN_WRITE)
		set_page_dirty(compound_head(hmm_pfn_to_page(pfn)));
	odp->pfns[i] = 0;
}

static bool rxe_odp_invalidate(struct mmu_interval_notifier *mni,
			       const struct mmu_notifier_range *range,
			       unsigned long cur_seq)
{
	struct rxe_odp *odp = container_of(mni, struct rxe_odp, notifier);
	unsigned long end = odp->start + (odp->npages << PAGE_SHIFT);
	unsigned long first = max(range->start, odp->start);
	unsigned long last = min(range->end, end);
	unsigned long i;

	if (!mmu_notifier_range_blockable(range))
		return false;
	mutex_lock(&odp->lock);
	mmu_interval_set_seq(mni, cur_seq);
	if (first < last)
		for (i = (first - odp->start) >> PAGE_SHIFT;
		     i <= (last - 1 - odp->start) >> PAGE_SHIFT; i++)
			rxe_odp_drop(odp, i);
	mutex_unlock(&odp->lock);
	return true;
}

static const struct mmu_interval_notifier_ops rxe_odp_ops = {
	.invalidate = rxe_odp_invalidate,
};

/*
 * Map pages [@first, @first + @n), with @pfns room for @n entries: fault
 * them in when @fault (for writing when @write), else record only what
 * the process has mapped now.  0, or -EFAULT when a page cannot be had
 * (unmapped, a write to read-only memory, the process gone).
 */
static int rxe_odp_map(struct rxe_odp *odp, unsigned long first,
		       unsigned long n, bool fault, bool write,
		       unsigned long *pfns)
{
	unsigned long start = odp->start + (first << PAGE_SHIFT);
	struct hmm_range range = {
		.notifier = &odp->notifier,
		.start = start,
		.end = start + (n << PAGE_SHIFT),
		.hmm_pfns = pfns,
		.default_flags = fault ? HMM_PFN_REQ_FAULT |
					 (write ? HMM_PFN_REQ_WRITE : 0) : 0,
	};
	struct mm_struct *mm = odp->notifier.mm;
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(RXE_ODP_FAULT_MSECS);
	unsigned long i;
	int ret;

	might_sleep();
	if (!mmget_not_zero(mm))
		return -EFAULT;
	for (;;) {
		if (time_after(jiffies, deadline)) {
			ret = -EBUSY;
			break;
		}
		range.notifier_seq = mmu_interval_read_begin(&odp->notifier);
		mmap_read_lock(mm);
		ret = hmm_range_fault(&range);
		mmap_read_unlock(mm);
		if (ret == -EBUSY)
			continue;
		if (ret)
			break;
		mutex_lock(&odp->lock);
		if (mmu_interval_read_retry(&odp->notifier,
					    range.notifier_seq)) {
			mutex_unlock(&odp->lock);
			continue;
		}
		for (i = 0; i < n; i++)
			if (pfns[i] & HMM_PFN_VALID)
				odp->pfns[first + i] = pfns[i];
		mutex_unlock(&odp->lock);
		break;
	}
	mmput_async(mm);
	return ret ? -EFAULT : 0;
}

/* pages one registration snapshot asks for at a time */
#define RXE_ODP_SNAP_PAGES	512

/*
 * What is mapped now, without faulting (registration): parts of the
 * range without a VMA stay unmapped.  Best effort: a failed allocation
 * or a fatal signal leaves the rest to faults.
 */
static void rxe_odp_snapshot(struct rxe_odp *odp)
{
	unsigned long i, n, *pfns;

	pfns = (unsigned long *)kmalloc_array(RXE_ODP_SNAP_PAGES,
					       sizeof(*pfns), GFP_KERNEL);
	if (!pfns)
		return;
	for (i = 0; i < odp->npages; i += n) {
		n = min_t(unsigned long, odp->npages - i, RXE_ODP_SNAP_PAGES);
		rxe_odp_map(odp, i, n, false, false, pfns);
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	kfree(pfns);
}

int rxe_odp_reg(struct rxe_mr *mr, u64 start, u64 length, int access)
{
	struct rxe_odp *odp;
	unsigned long first, last;
	int ret;

	if (!current->mm)
		return -EFAULT;
	/* implicit ODP (the whole address space) is not offered */
	if (!length || start + length < start || start + length > TASK_SIZE)
		return -EINVAL;
	first = start >> PAGE_SHIFT;
	last = (start + length - 1) >> PAGE_SHIFT;
	odp = (struct rxe_odp *)kzalloc(sizeof(*odp), GFP_KERNEL_ACCOUNT);
	if (!odp)
		return -ENOMEM;
	mutex_init(&odp->lock);
	odp->uaddr = (unsigned long)start;
	odp->start = first << PAGE_SHIFT;
	odp->npages = last - first + 1;
	odp->writable = access & (IB_ACCESS_LOCAL_WRITE |
				  IB_ACCESS_REMOTE_WRITE |
				  IB_ACCESS_REMOTE_ATOMIC);
	odp->pfns = (unsigned long *)kvcalloc(odp->npages, sizeof(*odp->pfns),
					      GFP_KERNEL_ACCOUNT);
	if (!odp->pfns) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = mmu_interval_notifier_insert(&odp->notifier, current->mm,
					   odp->start,
					   odp->npages << PAGE_SHIFT,
					   &rxe_odp_ops);
	if (ret)
		goto err_pfns;
	mr->odp = odp;
	rxe_odp_snapshot(odp);
	return 0;

err_pfns:
	kvfree(odp->pfns);
err_free:
	kfree(odp);
	return ret;
}

void rxe_odp_release(struct rxe_mr *mr)
{
	struct rxe_odp *odp = mr->odp;
	unsigned long i;

	if (!odp)
		return;
	mutex_lock(&odp->lock);
	for (i = 0; i < odp->npages; i++)
		rxe_odp_drop(odp, i);
	mutex_unlock(&odp->lock);
	mmu_interval_notifier_remove(&odp->notifier);
	mr->odp = NULL;
	kvfree(odp->pfns);
	kfree(odp);
}

/*
 * Lock @odp with pages [@first, @first + @n) mapped (for writing when
 * @write), faulting what is missing: 0 with odp->lock held, or -EFAULT
 * unlocked.  Each pass maps at least one missing page unless an
 * invalidation took one back meanwhile; the passes are bounded.
 */
static int rxe_odp_lock_pages(struct rxe_odp *odp, unsigned long first,
			      unsigned long n, bool write)
{
	unsigned long pfns[RXE_ODP_FAULT_PAGES];
	unsigned long i, tries;
	int ret;

	for (tries = 0; tries < n + 8; tries++) {
		mutex_lock(&odp->lock);
		for (i = 0; i < n; i++)
			if (!rxe_odp_present(odp->pfns[first + i], write))
				break;
		if (i == n)
			return 0;
		mutex_unlock(&odp->lock);
		ret = rxe_odp_map(odp, first + i,
				  min_t(unsigned long, n - i,
					RXE_ODP_FAULT_PAGES), true, write,
				  pfns);
		if (ret)
			return ret;
	}
	return -EFAULT;
}

/*
 * The pages under [@iova, @iova + @len) of @mr, locked: the user address
 * of @iova in *@uaddr and the first page's index in *@first.  The caller
 * checked the range against the MR.
 */
static int rxe_odp_lock_range(struct rxe_mr *mr, u64 iova, u64 len,
			      bool write, unsigned long *uaddr,
			      unsigned long *first)
{
	struct rxe_odp *odp = mr->odp;
	unsigned long ua = odp->uaddr + (unsigned long)(iova - mr->ibmr.iova);
	unsigned long f = (ua >> PAGE_SHIFT) - (odp->start >> PAGE_SHIFT);
	unsigned long l = ((ua + len - 1) >> PAGE_SHIFT) -
			  (odp->start >> PAGE_SHIFT);

	if (!len || l >= odp->npages || f > l)
		return -EFAULT;
	if (write && !odp->writable)
		return -EFAULT;
	*uaddr = ua;
	*first = f;
	return rxe_odp_lock_pages(odp, f, l - f + 1, write);
}

int rxe_odp_copy(struct rxe_mr *mr, u64 iova, u8 *buf, u32 len,
		 enum rxe_copy_dir dir)
{
	struct rxe_odp *odp = mr->odp;
	bool write = dir == RXE_COPY_TO_MR;
	unsigned long ua, i;
	u32 off, chunk;
	u8 *p;
	int ret;

	if (!len)
		return 0;
	ret = rxe_odp_lock_range(mr, iova, len, write, &ua, &i);
	if (ret)
		return ret;
	for (off = ua & ~PAGE_MASK; len; off = 0, i++) {
		chunk = min_t(u32, len, PAGE_SIZE - off);
		p = (u8 *)kmap_local_page(hmm_pfn_to_page(odp->pfns[i]));
		if (write)
			memcpy(p + off, buf, chunk);
		else
			memcpy(buf, p + off, chunk);
		kunmap_local(p);
		buf += chunk;
		len -= chunk;
	}
	mutex_unlock(&odp->lock);
	return 0;
}

int rxe_odp_word(struct rxe_mr *mr, u64 iova,
		 void (*op)(u64 *word, void *arg), void *arg)
{
	struct rxe_odp *odp = mr->odp;
	unsigned long ua, i;
	u8 *p;
	int ret;

	ret = rxe_odp_lock_range(mr, iova, 8, true, &ua, &i);
	if (ret)
		return ret;
	if (ua & 7) {
		mutex_unlock(&odp->lock);
		return -EINVAL;
	}
	p = (u8 *)kmap_local_page(hmm_pfn_to_page(odp->pfns[i]));
	op((u64 *)(p + (ua & ~PAGE_MASK)), arg);
	kunmap_local(p);
	mutex_unlock(&odp->lock);
	return 0;
}
