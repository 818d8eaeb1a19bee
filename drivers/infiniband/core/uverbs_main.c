// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_uverbs: the user verbs char devices /dev/infiniband/uverbsN, one per
 * RDMA device, through which libibverbs drives the stack.
 *
 * The verbs go through the write() ABI.  ioctl() serves the GID queries
 * only (uverbs_ioctl.c) and answers EPROTONOSUPPORT to every other method:
 * libibverbs v44 then uses write() for each of those verbs, and any other
 * answer to its INVOKE_WRITE probe would make it send all legacy commands
 * through ioctl.
 *
 * Lifetime (Documentation/core/uverbs.rst): the ib_device may go away
 * while files are open.  remove() never waits for user space; it detaches
 * the device under disassoc_rwsem, after which every file operation on an
 * old file fails with EIO and the async files report DEVICE_FATAL.  The
 * uverbs_device itself is freed when its last file closes.
 */
#include <linux/cdev.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <net/netlink.h>
#include <uapi/rdma/rdma_netlink.h>

#include "uverbs.h"

#define UVERBS_MAJOR		231
#define UVERBS_BASE_MINOR	192
#define UVERBS_FIXED_MINORS	32
#define UVERBS_MAX_DEVICES	256
#define UVERBS_DYNAMIC_MINORS	(UVERBS_MAX_DEVICES - UVERBS_FIXED_MINORS)

static dev_t fixed_region = MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR);
static dev_t dynamic_region;
static DEFINE_IDA(uverbs_ida);
static int uverbs_add(struct ib_device *ib_dev);
static void uverbs_remove(struct ib_device *ib_dev, void *client_data);
static int uverbs_get_nl_info(struct ib_device *ib_dev, void *client_data,
			      struct ib_client_nl_info *res);

static struct ib_client uverbs_client = {
	.name = "uverbs",
	.add = uverbs_add,
	.remove = uverbs_remove,
	.get_nl_info = uverbs_get_nl_info,
};

static dev_t uverbs_devt(int devnum)
{
	if (devnum < UVERBS_FIXED_MINORS)
		return fixed_region + devnum;
	return dynamic_region + devnum - UVERBS_FIXED_MINORS;
}

/* ---- class infiniband_verbs ---- */

static char *uverbs_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static CLASS_ATTR_STRING(abi_version, 0444, __stringify(IB_USER_VERBS_ABI_VERSION));

static struct attribute *uverbs_class_attrs[] = {
	&class_attr_abi_version.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_class);

static struct class uverbs_class = {
	.name = "infiniband_verbs",
	.class_groups = uverbs_class_groups,
	.devnode = uverbs_devnode,
};

static struct uverbs_device *to_udev(struct device *dev)
{
	return container_of(dev, struct uverbs_device, dev);
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct uverbs_device *udev = to_udev(dev);
	ssize_t ret = -ENODEV;

	down_read(&udev->disassoc_rwsem);
	if (udev->ib_dev)
		ret = sysfs_emit(buf, "%s\n", dev_name_ib(udev->ib_dev));
	up_read(&udev->disassoc_rwsem);
	return ret;
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_udev(dev)->abi_ver);
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *uverbs_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_dev);

static void uverbs_device_release(struct device *dev)
{
	struct uverbs_device *udev = to_udev(dev);

	WARN_ON(!list_empty(&udev->async_files));
	mutex_destroy(&udev->contexts_mutex);
	cleanup_srcu_struct(&udev->mmap_srcu);
	ida_free(&uverbs_ida, udev->devnum);
	kfree(udev);
}

/* ---- file operations ---- */

static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct uverbs_device *udev =
		container_of(inode->i_cdev, struct uverbs_device, cdev);
	struct uverbs_file *file;
	int ret = 0;

	down_read(&udev->disassoc_rwsem);
	if (!udev->ib_dev)
		ret = -ENXIO;		/* removed: no new users */
	else if (!rdma_dev_access_netns(udev->ib_dev, current->nsproxy->net_ns))
		ret = -EPERM;		/* exclusive mode, another namespace's */
	else
		get_device(&udev->dev);
	up_read(&udev->disassoc_rwsem);
	if (ret)
		return ret;

	file = (struct uverbs_file *)kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);
	if (!file) {
		put_device(&udev->dev);
		return -ENOMEM;
	}
	file->udev = udev;
	mutex_init(&file->context_mutex);
	mutex_init(&file->umap_lock);
	INIT_LIST_HEAD(&file->umaps);
	filp->private_data = file;
	return stream_open(inode, filp);
}

static int uverbs_release(struct inode *inode, struct file *filp)
{
	struct uverbs_file *file = (struct uverbs_file *)filp->private_data;
	struct uverbs_ucontext *uctx = file->ucontext;
	struct uverbs_device *udev = file->udev;

	if (uctx) {
		/*
		 * No command runs on this file any more.  Unless remove()
		 * already did, destroy the objects (newest users first).
		 */
		down_read(&udev->disassoc_rwsem);
		if (udev->ib_dev)
			uverbs_ucontext_teardown(uctx, false);
		mutex_lock(&udev->contexts_mutex);
		list_del_init(&uctx->list);
		mutex_unlock(&udev->contexts_mutex);
		up_read(&udev->disassoc_rwsem);

		uverbs_async_file_detach(uctx->async);
		uverbs_async_file_put(uctx->async);
		xa_destroy(&uctx->objects);
		kfree(uctx);
	}
	mutex_destroy(&file->context_mutex);
	mutex_destroy(&file->umap_lock);
	put_device(&udev->dev);
	kfree(file);
	return 0;
}

static ssize_t uverbs_write(struct file *filp, const char __user *buf,
			    size_t count, loff_t *pos)
{
	struct uverbs_file *file = (struct uverbs_file *)filp->private_data;
	struct uverbs_device *udev = file->udev;
	ssize_t ret;

	/*
	 * The commands carry user pointers: refuse a write done on behalf of
	 * another process (a passed fd written through splice, a setuid
	 * helper) rather than act with its credentials.
	 */
	if (filp->f_cred != current_cred())
		return -EACCES;

	down_read(&udev->disassoc_rwsem);
	if (udev->ib_dev)
		ret = uverbs_cmd_write(file, udev->ib_dev, buf, count);
	else
		ret = -EIO;		/* the device is gone */
	up_read(&udev->disassoc_rwsem);
	return ret;
}

/*
 * A ring of a driver object (rxe: the cookie came in a create response).
 * The driver keeps the memory until munmap, also after the device is gone.
 */
static int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct uverbs_file *file = (struct uverbs_file *)filp->private_data;
	struct uverbs_device *udev = file->udev;
	struct uverbs_ucontext *uctx;
	struct ib_device *ib_dev;
	int ret, idx;

	/* not disassoc_rwsem: see uverbs_device.mmap_srcu */
	idx = srcu_read_lock(&udev->mmap_srcu);
	ib_dev = READ_ONCE(udev->ib_dev);
	/* pairs with smp_store_release() in GET_CONTEXT */
	uctx = smp_load_acquire(&file->ucontext);
	if (READ_ONCE(udev->gone) || !ib_dev)
		ret = -EIO;
	else if (!uctx || !uctx->ib_uctx)
		ret = -EINVAL;
	else if (!ib_dev->ops.mmap)
		ret = -ENODEV;
	else
		ret = uverbs_umap_mmap(file, uctx->ib_uctx, vma);
	srcu_read_unlock(&udev->mmap_srcu, idx);
	return ret;
}

static const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.write = uverbs_write,
	.unlocked_ioctl = uverbs_ioctl,
	.mmap = uverbs_mmap,
	.open = uverbs_open,
	.release = uverbs_release,
	.llseek = no_llseek,
};

/* ---- ib_client ---- */

static int uverbs_add(struct ib_device *ib_dev)
{
	struct uverbs_device *udev;
	int devnum, ret;

	/* a kernel-verbs device (no user contexts) gets no char device */
	if (!ib_dev->ops.alloc_ucontext)
		return -EOPNOTSUPP;
	devnum = ida_alloc_max(&uverbs_ida, UVERBS_MAX_DEVICES - 1, GFP_KERNEL);
	if (devnum < 0)
		return devnum;
	udev = (struct uverbs_device *)kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev) {
		ida_free(&uverbs_ida, devnum);
		return -ENOMEM;
	}
	ret = init_srcu_struct(&udev->mmap_srcu);
	if (ret) {
		kfree(udev);
		ida_free(&uverbs_ida, devnum);
		return ret;
	}
	udev->devnum = devnum;
	udev->abi_ver = ib_dev->ops.uverbs_abi_ver;
	udev->driver_id = ib_dev->ops.driver_id;
	init_rwsem(&udev->disassoc_rwsem);
	udev->ib_dev = ib_dev;
	spin_lock_init(&udev->async_lock);
	INIT_LIST_HEAD(&udev->async_files);
	mutex_init(&udev->contexts_mutex);
	INIT_LIST_HEAD(&udev->contexts);

	/* from here on the release function frees udev and the devnum */
	device_initialize(&udev->dev);
	udev->dev.class = &uverbs_class;
	udev->dev.parent = ib_dev->dev.parent;	/* none for soft devices */
	udev->dev.groups = uverbs_dev_groups;
	udev->dev.release = uverbs_device_release;
	udev->dev.devt = uverbs_devt(devnum);
	ret = dev_set_name(&udev->dev, "uverbs%d", devnum);
	if (ret)
		goto err_put;
	cdev_init(&udev->cdev, &uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_put;

	INIT_IB_EVENT_HANDLER(&udev->event_handler, ib_dev, uverbs_event_handler);
	ib_register_event_handler(&udev->event_handler);
	ib_set_client_data(ib_dev, &uverbs_client, udev);
	return 0;

err_put:
	put_device(&udev->dev);
	return ret;
}

/* Never waits for user space: open files are orphaned, not closed. */
static void uverbs_remove(struct ib_device *ib_dev, void *client_data)
{
	struct uverbs_device *udev = (struct uverbs_device *)client_data;
	struct uverbs_ucontext *uctx, *tmp;

	if (!udev)
		return;
	/* no new opens; sysfs files go away */
	cdev_device_del(&udev->cdev, &udev->dev);

	/*
	 * Wait for file operations using the device, then cut them off:
	 * every context loses its objects and the driver's context now,
	 * while the device is still there.
	 */
	down_write(&udev->disassoc_rwsem);
	WRITE_ONCE(udev->gone, true);
	synchronize_srcu(&udev->mmap_srcu);
	mutex_lock(&udev->contexts_mutex);
	list_for_each_entry_safe(uctx, tmp, &udev->contexts, list) {
		uverbs_ucontext_teardown(uctx, true);
		/* the driver may be unloaded next: it forgets the mappings now */
		uverbs_umaps_disassociate(uctx->file);
		list_del_init(&uctx->list);
	}
	mutex_unlock(&udev->contexts_mutex);
	WRITE_ONCE(udev->ib_dev, NULL);
	up_write(&udev->disassoc_rwsem);

	ib_unregister_event_handler(&udev->event_handler);
	uverbs_async_disassociate(udev);
	put_device(&udev->dev);
}

static int uverbs_get_nl_info(struct ib_device *ib_dev, void *client_data,
			      struct ib_client_nl_info *res)
{
	struct uverbs_device *udev = (struct uverbs_device *)client_data;

	if (!ib_dev || !udev)
		return -EOPNOTSUPP;	/* uverbs has only per-device files */
	if (nla_put_u32(res->nl_msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
			udev->driver_id))
		return -EMSGSIZE;
	res->abi = udev->abi_ver;
	res->cdev = &udev->dev;
	get_device(res->cdev);
	return 0;
}

/* ---- module ---- */

static int __init uverbs_init(void)
{
	int ret;

	ret = register_chrdev_region(fixed_region, UVERBS_FIXED_MINORS,
				     "infiniband_verbs");
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&dynamic_region, 0, UVERBS_DYNAMIC_MINORS,
				  "infiniband_verbs");
	if (ret)
		goto err_fixed;
	ret = class_register(&uverbs_class);
	if (ret)
		goto err_dynamic;
	ret = ib_register_client(&uverbs_client);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_unregister(&uverbs_class);
err_dynamic:
	unregister_chrdev_region(dynamic_region, UVERBS_DYNAMIC_MINORS);
err_fixed:
	unregister_chrdev_region(fixed_region, UVERBS_FIXED_MINORS);
	return ret;
}

static void __exit uverbs_exit(void)
{
	/* open files pin the module (fops owner): every device is released */
	ib_unregister_client(&uverbs_client);
	class_unregister(&uverbs_class);
	unregister_chrdev_region(dynamic_region, UVERBS_DYNAMIC_MINORS);
	unregister_chrdev_region(fixed_region, UVERBS_FIXED_MINORS);
	ida_destroy(&uverbs_ida);
}

module_init(uverbs_init);
module_exit(uverbs_exit);

MODULE_ALIAS("rdma-client-uverbs");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("RDMA user verbs char devices (out-of-tree replacement for ib_uverbs)");
