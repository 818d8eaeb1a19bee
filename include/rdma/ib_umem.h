/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Pinned user memory (core umem.c): what a driver's reg_user_mr (and
 * rereg) takes from user space.  ib_umem_get() pins the pages of
 * [addr, addr + size) of the calling process for as long as the umem
 * lives, charging them to the process' RLIMIT_MEMLOCK (mm->pinned_vm);
 * ib_umem_release() gives everything back.  The pages are listed in
 * @sgt_append.sgt in CPU terms (no DMA mapping: a software device reads
 * them with page_address()/kmap); every entry starts on a page boundary
 * and covers whole pages, the first one holding byte @address.
 */
#ifndef _RDMA_IB_UMEM_H
#define _RDMA_IB_UMEM_H

#include <linux/types.h>
#include <linux/scatterlist.h>
#include <linux/mm.h>

struct ib_device;
struct mm_struct;

struct ib_umem {
	struct ib_device *device;
	struct mm_struct *mm;		/* the pinning process' (mmgrab'd) */
	unsigned long address;		/* user address of the first byte */
	size_t length;
	u64 iova;			/* = address unless a driver changes it */
	bool writable;			/* pinned for writing (FOLL_WRITE) */
	unsigned long npages;		/* pages pinned and charged */
	struct sg_append_table sgt_append;
};

/* Pages spanned by [@addr, @addr + @len) (0 if that wraps). */
static inline unsigned long ib_umem_span_pages(unsigned long addr, size_t len)
{
	unsigned long first = addr & PAGE_MASK;
	unsigned long end = addr + len;

	if (end < addr || PAGE_ALIGN(end) < end)
		return 0;
	return (PAGE_ALIGN(end) - first) >> PAGE_SHIFT;
}

/* Number of PAGE_SIZE pages the umem spans (and pins). */
static inline size_t ib_umem_num_pages(const struct ib_umem *umem)
{
	return umem->npages;
}

/* Offset of the first byte inside the first page. */
static inline unsigned int ib_umem_offset(const struct ib_umem *umem)
{
	return umem->address & ~PAGE_MASK;
}

/*
 * Pin [@addr, @addr + @size) of the current process for @device with
 * @access (enum ib_access_flags; any write access pins for writing).
 * -EINVAL for a zero or wrapping range, -EOPNOTSUPP for on-demand paging,
 * -ENOMEM when RLIMIT_MEMLOCK would be exceeded (CAP_IPC_LOCK is exempt),
 * -EFAULT for memory that cannot be pinned.
 */
struct ib_umem *ib_umem_get(struct ib_device *device, unsigned long addr,
			    size_t size, int access);
/* Unpin, uncharge and free; NULL is allowed. */
void ib_umem_release(struct ib_umem *umem);

/* Iterate over the pinned pages, one struct page at a time. */
#define ib_umem_for_each_page(umem, iter)				\
	for_each_sgtable_page(&(umem)->sgt_append.sgt, iter, 0)

#endif /* _RDMA_IB_UMEM_H */
