// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * User contexts and the mmap handshake for shared rings.
 *
 * A ring created for user space gets a cookie: a page-aligned offset,
 * unique on the device, returned in udata as struct mminfo.  The cookie
 * waits on the device's pending list (tagged with the creating context
 * when core tells us which one) until that context's mmap() of the uverbs
 * file names it; it is then consumed.  Pending cookies, the queue and each
 * mapping hold references on the memory (struct rxe_mmap_info), so user
 * mappings stay valid after the object (and even the device) is gone.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "rxe.h"
#include "rxe_obj.h"

struct rxe_ucontext *rxe_udata_uctx(struct ib_device *dev,
				    struct ib_udata *udata)
{
	if (!udata || !udata->uctx || udata->uctx->device != dev)
		return NULL;
	return to_ruc(udata->uctx);
}

static void rxe_mmap_info_release(struct kref *ref)
{
	struct rxe_mmap_info *ip =
		container_of(ref, struct rxe_mmap_info, ref);

	vfree(ip->buf);
	kfree(ip);
}

void rxe_mmap_info_put(struct rxe_mmap_info *ip)
{
	kref_put(&ip->ref, rxe_mmap_info_release);
}

/*
 * A ring's memory.  A user ring is charged to the caller's memory cgroup
 * (beyond its limit the call fails with ENOMEM rather than waking the
 * OOM killer); its size is the user's choice, so a refusal is the user's
 * ENOMEM and never a line in dmesg.  rxe_mmap_ring() maps it page by page.
 */
static void *rxe_ring_alloc(u32 size, bool user)
{
	if (!user)
		return vzalloc(size);
	return __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			       __GFP_NOWARN | __GFP_ZERO);
}

/* Map the first pages of @buf (vmalloc memory) over all of @vma. */
static int rxe_mmap_ring(struct vm_area_struct *vma, void *buf)
{
	unsigned long off, len = vma->vm_end - vma->vm_start;
	int ret;

	for (off = 0; off < len; off += PAGE_SIZE) {
		ret = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page((u8 *)buf + off));
		if (ret)
			return ret;
	}
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	return 0;
}

struct rxe_mmap_info *rxe_mmap_info_create(struct rxe_dev *rxe, u32 size,
					   bool user, struct rxe_ucontext *uctx)
{
	struct rxe_mmap_info *ip;

	ip = (struct rxe_mmap_info *)kzalloc(sizeof(*ip), user ?
					     GFP_KERNEL_ACCOUNT : GFP_KERNEL);
	if (!ip)
		return (struct rxe_mmap_info *)ERR_PTR(-ENOMEM);
	ip->buf = rxe_ring_alloc(size, user);
	if (!ip->buf) {
		kfree(ip);
		return (struct rxe_mmap_info *)ERR_PTR(-ENOMEM);
	}
	kref_init(&ip->ref);
	ip->size = size;
	ip->rxe = rxe;
	ip->uctx = uctx;
	INIT_LIST_HEAD(&ip->pending);
	if (!user)
		return ip;

	spin_lock(&rxe->mmap_lock);
	ip->offset = rxe->mmap_next;
	rxe->mmap_next += ALIGN(size, SHMLBA);
	kref_get(&ip->ref);		/* the pending cookie's */
	list_add_tail(&ip->pending, &rxe->mmap_pending);
	spin_unlock(&rxe->mmap_lock);
	return ip;
}

void rxe_mmap_info_withdraw(struct rxe_mmap_info *ip)
{
	struct rxe_dev *rxe = ip->rxe;
	bool was_pending = false;

	spin_lock(&rxe->mmap_lock);
	if (!list_empty(&ip->pending)) {
		list_del_init(&ip->pending);
		was_pending = true;
	}
	spin_unlock(&rxe->mmap_lock);
	if (was_pending)
		rxe_mmap_info_put(ip);
}

static void rxe_vma_open(struct vm_area_struct *vma)
{
	struct rxe_mmap_info *ip = (struct rxe_mmap_info *)vma->vm_private_data;

	kref_get(&ip->ref);
}

static void rxe_vma_close(struct vm_area_struct *vma)
{
	struct rxe_mmap_info *ip = (struct rxe_mmap_info *)vma->vm_private_data;

	rxe_mmap_info_put(ip);
}

static const struct vm_operations_struct rxe_vm_ops = {
	.open = rxe_vma_open,
	.close = rxe_vma_close,
};

int rxe_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rxe_dev *rxe = to_rdev(uctx->device);
	struct rxe_ucontext *ruc = to_ruc(uctx);
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long len = vma->vm_end - vma->vm_start;
	struct rxe_mmap_info *ip, *found = NULL;
	int ret;

	spin_lock(&rxe->mmap_lock);
	list_for_each_entry(ip, &rxe->mmap_pending, pending) {
		if (ip->offset != offset)
			continue;
		if (ip->uctx && ip->uctx != ruc)
			break;
		if (len > ip->size)
			break;
		list_del_init(&ip->pending);	/* single use */
		found = ip;
		break;
	}
	spin_unlock(&rxe->mmap_lock);
	if (!found)
		return -EINVAL;

	ret = rxe_mmap_ring(vma, found->buf);
	if (ret) {
		/* give the cookie back: the user may retry */
		spin_lock(&rxe->mmap_lock);
		list_add(&found->pending, &rxe->mmap_pending);
		spin_unlock(&rxe->mmap_lock);
		return ret;
	}
	/* the pending list's reference becomes the mapping's */
	vma->vm_ops = &rxe_vm_ops;
	vma->vm_private_data = found;
	return 0;
}

int rxe_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	return 0;
}

/* Withdraw what this context never mapped (objects are destroyed first). */
static void rxe_ucontext_drop_pending(struct rxe_ucontext *ruc)
{
	struct rxe_dev *rxe = to_rdev(ruc->ibuc.device);
	struct rxe_mmap_info *ip, *tmp;
	LIST_HEAD(drop);

	spin_lock(&rxe->mmap_lock);
	list_for_each_entry_safe(ip, tmp, &rxe->mmap_pending, pending)
		if (ip->uctx == ruc)
			list_move(&ip->pending, &drop);
	spin_unlock(&rxe->mmap_lock);
	list_for_each_entry_safe(ip, tmp, &drop, pending) {
		list_del_init(&ip->pending);
		rxe_mmap_info_put(ip);
	}
}

void rxe_dealloc_ucontext(struct ib_ucontext *uctx)
{
	rxe_ucontext_drop_pending(to_ruc(uctx));
}

/*
 * The device goes away under a live context: uverbs has destroyed the
 * objects; mapped rings keep their memory until munmap() but nothing
 * uses them any more.  Only cookies never mapped are left to drop.
 */
void rxe_disassociate_ucontext(struct ib_ucontext *uctx)
{
	rxe_ucontext_drop_pending(to_ruc(uctx));
}
