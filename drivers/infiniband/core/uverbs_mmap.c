// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mmap() of the uverbs file: the driver maps what a create response gave
 * a cookie for (rxe: rings in vmalloc_user memory), and uverbs owns the
 * mapping's vm_operations from then on.
 *
 * The driver's vm_operations live in the driver module, which may be
 * unloaded while user space still has the mapping (rmmod rdma_rxe with a
 * process holding objects).  So every mapping gets uverbs' operations
 * (ib_uverbs stays loaded: the mapping holds the uverbs file), which
 * forward open/close to the driver's while the device is there.  When the
 * device goes away, uverbs_umaps_disassociate() gives the driver its
 * close for every mapping still alive; the mapping itself stays: the pages
 * user space mapped keep a reference of their own, so they stay readable
 * and writable, just dead, until munmap().
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "uverbs.h"

/* One live mapping (vm_private_data of the vma). */
struct uverbs_umap {
	struct list_head list;		/* in uverbs_file.umaps, under umap_lock */
	struct vm_area_struct *vma;
	const struct vm_operations_struct *drv_ops;
	void *drv_priv;
	bool live;			/* the driver still knows the mapping */
};

static struct uverbs_file *vma_file(struct vm_area_struct *vma)
{
	return (struct uverbs_file *)vma->vm_file->private_data;
}

/* Call a driver vm operation with the driver's private data in place. */
static void drv_call(struct uverbs_umap *m, struct vm_area_struct *vma,
		     void (*op)(struct vm_area_struct *vma))
{
	vma->vm_private_data = m->drv_priv;
	op(vma);
	vma->vm_private_data = m;
}

/* A new vma sharing an old one's mapping (fork, split). */
static void umap_open(struct vm_area_struct *vma)
{
	struct uverbs_umap *old = (struct uverbs_umap *)vma->vm_private_data;
	struct uverbs_file *file = vma_file(vma);
	struct uverbs_umap *m;

	m = (struct uverbs_umap *)kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	mutex_lock(&file->umap_lock);
	if (!m) {
		/* cannot track it: it stays mapped, the driver is not told */
		vma->vm_private_data = NULL;
		mutex_unlock(&file->umap_lock);
		return;
	}
	m->vma = vma;
	vma->vm_private_data = m;
	if (old && old->live) {
		m->drv_ops = old->drv_ops;
		m->drv_priv = old->drv_priv;
		m->live = true;
		if (m->drv_ops->open)
			drv_call(m, vma, m->drv_ops->open);
	}
	list_add_tail(&m->list, &file->umaps);
	mutex_unlock(&file->umap_lock);
}

static void umap_close(struct vm_area_struct *vma)
{
	struct uverbs_umap *m = (struct uverbs_umap *)vma->vm_private_data;
	struct uverbs_file *file = vma_file(vma);

	if (!m)
		return;
	mutex_lock(&file->umap_lock);
	list_del(&m->list);
	if (m->live && m->drv_ops->close)
		drv_call(m, vma, m->drv_ops->close);
	mutex_unlock(&file->umap_lock);
	kfree(m);
}

static const struct vm_operations_struct uverbs_vm_ops = {
	.open = umap_open,
	.close = umap_close,
};

/*
 * The driver's mmap of @uctx, then uverbs' operations on the vma.  Caller
 * holds the device (mmap_srcu).
 */
int uverbs_umap_mmap(struct uverbs_file *file, struct ib_ucontext *uctx,
		     struct vm_area_struct *vma)
{
	struct uverbs_umap *m;
	int ret;

	m = (struct uverbs_umap *)kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	ret = uctx->device->ops.mmap(uctx, vma);
	if (ret) {
		kfree(m);
		return ret;
	}
	m->vma = vma;
	m->drv_ops = vma->vm_ops;
	m->drv_priv = vma->vm_private_data;
	m->live = m->drv_ops != NULL;
	vma->vm_ops = &uverbs_vm_ops;
	vma->vm_private_data = m;
	mutex_lock(&file->umap_lock);
	list_add_tail(&m->list, &file->umaps);
	mutex_unlock(&file->umap_lock);
	return 0;
}

/*
 * The device goes away (remove(), the driver still loaded): the driver
 * forgets every mapping of @file now, as if unmapped; the vmas stay.
 */
void uverbs_umaps_disassociate(struct uverbs_file *file)
{
	struct vm_area_struct tmp;
	struct uverbs_umap *m;

	mutex_lock(&file->umap_lock);
	list_for_each_entry(m, &file->umaps, list) {
		if (!m->live)
			continue;
		m->live = false;
		if (!m->drv_ops->close)
			continue;
		/*
		 * Not the vma itself: its mm's lock is not held here, and
		 * the driver needs only its own data and the geometry.
		 */
		tmp = *m->vma;
		tmp.vm_private_data = m->drv_priv;
		m->drv_ops->close(&tmp);
	}
	mutex_unlock(&file->umap_lock);
}
