// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The async event file of a user context: an anonymous-inode fd that
 * GET_CONTEXT returns.  read() gives one struct ib_uverbs_async_event_desc
 * per call; poll() reports EPOLLIN while one is queued.
 *
 * Port events of the device reach every context's file through one event
 * handler per uverbs device (atomic context: GFP_ATOMIC, spinlocks only).
 * The queue is bounded; events beyond UVERBS_ASYNC_QUEUE_MAX are dropped
 * and counted.  When the device goes away each file gets a final
 * IB_EVENT_DEVICE_FATAL after what is queued, then read() fails with EIO.
 */
#include <linux/anon_inodes.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uverbs.h"

struct uverbs_event {
	struct list_head list;
	struct ib_uverbs_async_event_desc desc;
};

static void async_file_free(struct kref *ref)
{
	struct uverbs_async_file *async =
		container_of(ref, struct uverbs_async_file, ref);
	struct uverbs_event *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, &async->events, list)
		kfree(ev);
	put_device(&async->udev->dev);
	kfree(async);
}

void uverbs_async_file_put(struct uverbs_async_file *async)
{
	kref_put(&async->ref, async_file_free);
}

/* Caller holds async->lock. */
static bool async_readable(const struct uverbs_async_file *async)
{
	return !list_empty(&async->events) || async->fatal_pending;
}

static ssize_t async_read(struct file *filp, char __user *buf, size_t count,
			  loff_t *pos)
{
	struct uverbs_async_file *async = (struct uverbs_async_file *)filp->private_data;
	struct ib_uverbs_async_event_desc desc;
	struct uverbs_event *ev;

	if (count < sizeof(desc))
		return -EINVAL;

	spin_lock_irq(&async->lock);
	while (!async_readable(async)) {
		bool closed = async->closed;

		spin_unlock_irq(&async->lock);
		if (closed)
			return -EIO;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(async->wait,
					     async_readable(async) || async->closed))
			return -ERESTARTSYS;
		spin_lock_irq(&async->lock);
	}
	ev = list_first_entry_or_null(&async->events, struct uverbs_event, list);
	if (ev) {
		list_del(&ev->list);
		async->count--;
		desc = ev->desc;
	} else {
		async->fatal_pending = false;
		memset(&desc, 0, sizeof(desc));
		desc.event_type = IB_EVENT_DEVICE_FATAL;
	}
	spin_unlock_irq(&async->lock);
	kfree(ev);

	if (copy_to_user(buf, &desc, sizeof(desc)))
		return -EFAULT;
	return sizeof(desc);
}

static __poll_t async_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct uverbs_async_file *async = (struct uverbs_async_file *)filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &async->wait, wait);
	spin_lock_irq(&async->lock);
	if (async_readable(async))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (async->closed)
		mask = EPOLLERR;
	spin_unlock_irq(&async->lock);
	return mask;
}

static int async_release(struct inode *inode, struct file *filp)
{
	uverbs_async_file_put((struct uverbs_async_file *)filp->private_data);
	return 0;
}

static const struct file_operations async_fops = {
	.owner = THIS_MODULE,
	.read = async_read,
	.poll = async_poll,
	.release = async_release,
	.llseek = no_llseek,
};

/*
 * A new async file on @udev, registered for its events.  Returns the file
 * (not yet installed in a descriptor); *out gets the caller's reference.
 */
struct file *uverbs_async_file_create(struct uverbs_device *udev,
				      struct uverbs_async_file **out)
{
	struct uverbs_async_file *async;
	struct file *filp;

	async = (struct uverbs_async_file *)kzalloc(sizeof(*async), GFP_KERNEL);
	if (!async)
		return (struct file *)ERR_PTR(-ENOMEM);
	kref_init(&async->ref);
	get_device(&udev->dev);
	async->udev = udev;
	INIT_LIST_HEAD(&async->list);
	spin_lock_init(&async->lock);
	INIT_LIST_HEAD(&async->events);
	init_waitqueue_head(&async->wait);

	filp = anon_inode_getfile("[infinibandevent]", &async_fops, async,
				  O_RDONLY);
	if (IS_ERR(filp)) {
		uverbs_async_file_put(async);
		return filp;
	}
	kref_get(&async->ref);		/* the file's */

	spin_lock_irq(&udev->async_lock);
	list_add_tail(&async->list, &udev->async_files);
	spin_unlock_irq(&udev->async_lock);
	*out = async;
	return filp;
}

/* Caller holds async->lock. */
static void async_close_locked(struct uverbs_async_file *async, bool fatal)
{
	if (!async->closed)
		async->fatal_pending = fatal;
	async->closed = true;
	wake_up_interruptible(&async->wait);
}

/* The context goes away: no more events; readers drain, then get EIO. */
void uverbs_async_file_detach(struct uverbs_async_file *async)
{
	struct uverbs_device *udev = async->udev;

	spin_lock_irq(&udev->async_lock);
	list_del_init(&async->list);
	spin_unlock_irq(&udev->async_lock);

	spin_lock_irq(&async->lock);
	async_close_locked(async, false);
	spin_unlock_irq(&async->lock);
}

/* The device goes away (its event handler is already unregistered). */
void uverbs_async_disassociate(struct uverbs_device *udev)
{
	struct uverbs_async_file *async, *tmp;

	spin_lock_irq(&udev->async_lock);
	list_for_each_entry_safe(async, tmp, &udev->async_files, list) {
		list_del_init(&async->list);
		spin_lock(&async->lock);
		async_close_locked(async, true);
		spin_unlock(&async->lock);
	}
	spin_unlock_irq(&udev->async_lock);
}

/* Caller holds async->lock; atomic context. */
static void async_queue_locked(struct uverbs_async_file *async, u64 element,
			       u32 type)
{
	struct uverbs_event *ev;

	if (async->closed)
		return;
	if (async->count >= UVERBS_ASYNC_QUEUE_MAX) {
		async->dropped++;
		return;
	}
	ev = (struct uverbs_event *)kzalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev) {
		async->dropped++;
		return;
	}
	ev->desc.element = element;
	ev->desc.event_type = type;
	list_add_tail(&ev->list, &async->events);
	async->count++;
	wake_up_interruptible(&async->wait);
}

static bool is_port_event(enum ib_event_type type)
{
	switch (type) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
	case IB_EVENT_DEVICE_FATAL:
		return true;
	default:
		return false;
	}
}

/* ib_dispatch_event() handler: interrupts off, device handler lock held. */
void uverbs_event_handler(struct ib_event_handler *handler,
			  struct ib_event *event)
{
	struct uverbs_device *udev =
		container_of(handler, struct uverbs_device, event_handler);
	struct uverbs_async_file *async;
	unsigned long flags;

	/* object events (QP, CQ, SRQ) will come through their objects */
	if (!is_port_event(event->event))
		return;
	spin_lock_irqsave(&udev->async_lock, flags);
	list_for_each_entry(async, &udev->async_files, list) {
		spin_lock(&async->lock);
		async_queue_locked(async, event->element.port_num, event->event);
		spin_unlock(&async->lock);
	}
	spin_unlock_irqrestore(&udev->async_lock, flags);
}
