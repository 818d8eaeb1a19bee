// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The event files of a user context, anonymous-inode fds user space
 * read()s one descriptor at a time (poll()/epoll: EPOLLIN while one is
 * queued):
 *
 * - the async file (GET_CONTEXT): struct ib_uverbs_async_event_desc for
 *   port events of the device (element = port number) and for events of
 *   the context's CQs, QPs and SRQs (element = their user_handle);
 * - completion channels (CREATE_COMP_CHANNEL): struct
 *   ib_uverbs_comp_event_desc, one per completion event of a CQ created on
 *   the channel (one per arm, REQ_NOTIFY_CQ).
 *
 * An object event stays linked to its uobject until read: reading it
 * counts it in the uobject (the counts destroy responses report, which
 * libibverbs waits for), destroying the object unqueues what was not read.
 * Handlers run in atomic context: GFP_ATOMIC, irq-safe spinlocks only.
 * Queues are bounded; an event beyond the bound is dropped and counted.
 * When the device goes away the async file gets a final
 * IB_EVENT_DEVICE_FATAL after what is queued; a closed queue returns EIO
 * once drained.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uverbs.h"

/* Completion events queued per channel before new ones are dropped. */
#define UVERBS_COMP_QUEUE_MAX	16384

struct uverbs_event {
	struct list_head list;		/* in the queue */
	struct list_head obj_list;	/* in its uobject's list, if any */
	u32 *counter;			/* the uobject's count of read events */
	union {
		struct ib_uverbs_async_event_desc async;
		struct ib_uverbs_comp_event_desc comp;
	} desc;
};

/* ---- the queue both kinds of files share ---- */

static void ev_queue_init(struct uverbs_ev_queue *q)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->events);
	init_waitqueue_head(&q->wait);
}

/* Caller holds q->lock; frees @ev if it cannot be queued. */
static bool ev_queue_add_locked(struct uverbs_ev_queue *q,
				struct uverbs_event *ev, unsigned int max)
{
	lockdep_assert_held(&q->lock);
	if (q->closed || q->count >= max) {
		if (!q->closed)
			q->dropped++;
		kfree(ev);
		return false;
	}
	list_add_tail(&ev->list, &q->events);
	q->count++;
	wake_up_interruptible(&q->wait);
	return true;
}

/* Caller holds q->lock. */
static void ev_unlink_locked(struct uverbs_ev_queue *q, struct uverbs_event *ev)
{
	lockdep_assert_held(&q->lock);
	list_del(&ev->list);
	list_del_init(&ev->obj_list);
	q->count--;
}

/* No more events; drop the queued ones; readers get EIO. */
static void ev_queue_close(struct uverbs_ev_queue *q)
{
	struct uverbs_event *ev, *tmp;

	spin_lock_irq(&q->lock);
	q->closed = true;
	list_for_each_entry_safe(ev, tmp, &q->events, list) {
		ev_unlink_locked(q, ev);
		kfree(ev);
	}
	spin_unlock_irq(&q->lock);
	wake_up_interruptible(&q->wait);
}

/*
 * read() of one descriptor of @size bytes.  @fatal (async file only):
 * a pending DEVICE_FATAL to give once the queue is empty.
 */
static ssize_t ev_queue_read(struct uverbs_ev_queue *q, struct file *filp,
			     char __user *buf, size_t count, size_t size,
			     bool *fatal)
{
	struct ib_uverbs_async_event_desc fatal_desc = {};
	struct uverbs_event *ev;
	const void *desc;
	ssize_t ret;

	if (count < size)
		return -EINVAL;

	spin_lock_irq(&q->lock);
	while (list_empty(&q->events) && !(fatal && *fatal)) {
		bool closed = q->closed;

		spin_unlock_irq(&q->lock);
		if (closed)
			return -EIO;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(q->wait, !list_empty(&q->events) ||
					     (fatal && *fatal) || q->closed))
			return -ERESTARTSYS;
		spin_lock_irq(&q->lock);
	}
	ev = list_first_entry_or_null(&q->events, struct uverbs_event, list);
	if (ev) {
		ev_unlink_locked(q, ev);
		/* user space has it: destroy responses count it */
		if (ev->counter)
			(*ev->counter)++;
		desc = &ev->desc;
	} else {
		*fatal = false;
		fatal_desc.event_type = IB_EVENT_DEVICE_FATAL;
		desc = &fatal_desc;
	}
	spin_unlock_irq(&q->lock);

	/* on a fault the event is lost, as if read */
	ret = copy_to_user(buf, desc, size) ? -EFAULT : (ssize_t)size;
	kfree(ev);
	return ret;
}

static __poll_t ev_queue_poll(struct uverbs_ev_queue *q, struct file *filp,
			      struct poll_table_struct *wait, bool *fatal)
{
	__poll_t mask = 0;

	poll_wait(filp, &q->wait, wait);
	spin_lock_irq(&q->lock);
	if (!list_empty(&q->events) || (fatal && *fatal))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (q->closed)
		mask = EPOLLERR;
	spin_unlock_irq(&q->lock);
	return mask;
}

/* ---- the async event file ---- */

static void async_file_free(struct kref *ref)
{
	struct uverbs_async_file *async =
		container_of(ref, struct uverbs_async_file, ref);

	ev_queue_close(&async->q);
	put_device(&async->udev->dev);
	kfree(async);
}

void uverbs_async_file_put(struct uverbs_async_file *async)
{
	kref_put(&async->ref, async_file_free);
}

static ssize_t async_read(struct file *filp, char __user *buf, size_t count,
			  loff_t *pos)
{
	struct uverbs_async_file *async = (struct uverbs_async_file *)filp->private_data;

	return ev_queue_read(&async->q, filp, buf, count,
			     sizeof(struct ib_uverbs_async_event_desc),
			     &async->fatal_pending);
}

static __poll_t async_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct uverbs_async_file *async = (struct uverbs_async_file *)filp->private_data;

	return ev_queue_poll(&async->q, filp, wait, &async->fatal_pending);
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

	async = (struct uverbs_async_file *)kzalloc(sizeof(*async), GFP_KERNEL_ACCOUNT);
	if (!async)
		return (struct file *)ERR_PTR(-ENOMEM);
	kref_init(&async->ref);
	get_device(&udev->dev);
	async->udev = udev;
	INIT_LIST_HEAD(&async->list);
	ev_queue_init(&async->q);

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

/* Caller holds async->q.lock. */
static void async_close_locked(struct uverbs_async_file *async, bool fatal)
{
	lockdep_assert_held(&async->q.lock);
	if (!async->q.closed)
		async->fatal_pending = fatal;
	async->q.closed = true;
	wake_up_interruptible(&async->q.wait);
}

/* The context goes away: no more events; readers drain, then get EIO. */
void uverbs_async_file_detach(struct uverbs_async_file *async)
{
	struct uverbs_device *udev = async->udev;

	spin_lock_irq(&udev->async_lock);
	list_del_init(&async->list);
	spin_unlock_irq(&udev->async_lock);

	spin_lock_irq(&async->q.lock);
	async_close_locked(async, false);
	spin_unlock_irq(&async->q.lock);
}

/* The device goes away (its event handler is already unregistered). */
void uverbs_async_disassociate(struct uverbs_device *udev)
{
	struct uverbs_async_file *async, *tmp;

	spin_lock_irq(&udev->async_lock);
	list_for_each_entry_safe(async, tmp, &udev->async_files, list) {
		list_del_init(&async->list);
		spin_lock(&async->q.lock);
		async_close_locked(async, true);
		spin_unlock(&async->q.lock);
	}
	spin_unlock_irq(&udev->async_lock);
}

static struct uverbs_event *event_alloc(void)
{
	struct uverbs_event *ev;

	ev = (struct uverbs_event *)kzalloc(sizeof(*ev), GFP_ATOMIC);
	if (ev)
		INIT_LIST_HEAD(&ev->obj_list);
	return ev;
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
	struct uverbs_event *ev;
	unsigned long flags;

	/* object events come through their objects' handlers */
	if (!is_port_event(event->event))
		return;
	spin_lock_irqsave(&udev->async_lock, flags);
	list_for_each_entry(async, &udev->async_files, list) {
		ev = event_alloc();
		spin_lock(&async->q.lock);
		if (!ev) {
			async->q.dropped++;
		} else {
			ev->desc.async.element = event->element.port_num;
			ev->desc.async.event_type = event->event;
			ev_queue_add_locked(&async->q, ev, UVERBS_ASYNC_QUEUE_MAX);
		}
		spin_unlock(&async->q.lock);
	}
	spin_unlock_irqrestore(&udev->async_lock, flags);
}

/* ---- object events ---- */

/*
 * Queue an event of @uobj on @q, linked into @obj_events and counted in
 * @counter once read.
 */
static void obj_event_queue(struct uverbs_ev_queue *q, struct uverbs_event *ev,
			    struct list_head *obj_events, u32 *counter,
			    unsigned int max)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	if (!ev) {
		q->dropped++;
	} else {
		ev->counter = counter;
		if (ev_queue_add_locked(q, ev, max))
			list_add_tail(&ev->obj_list, obj_events);
	}
	spin_unlock_irqrestore(&q->lock, flags);
}

/* event_handler of user CQs, QPs and SRQs: @context is the uobject. */
void uverbs_obj_event_handler(struct ib_event *event, void *context)
{
	struct ib_uobject *uobj = (struct ib_uobject *)context;
	struct uverbs_event *ev = event_alloc();

	if (ev) {
		ev->desc.async.element = uobj->user_handle;
		ev->desc.async.event_type = event->event;
	}
	obj_event_queue(&uobj->uctx->async->q, ev, &uobj->async_events,
			&uobj->async_events_reported, UVERBS_ASYNC_QUEUE_MAX);
}

/* comp_handler of user CQs: one event per call (per arm). */
void uverbs_comp_handler(struct ib_cq *cq, void *context)
{
	struct ib_uobject *uobj = (struct ib_uobject *)context;
	struct uverbs_event *ev;

	if (!uobj->comp)
		return;			/* a CQ without a channel */
	ev = event_alloc();
	if (ev)
		ev->desc.comp.cq_handle = uobj->user_handle;
	obj_event_queue(&uobj->comp->q, ev, &uobj->comp_events,
			&uobj->comp_events_reported, UVERBS_COMP_QUEUE_MAX);
}

static void purge_list(struct uverbs_ev_queue *q, struct list_head *obj_events)
{
	struct uverbs_event *ev, *tmp;

	spin_lock_irq(&q->lock);
	list_for_each_entry_safe(ev, tmp, obj_events, obj_list) {
		ev_unlink_locked(q, ev);
		kfree(ev);
	}
	spin_unlock_irq(&q->lock);
}

void uverbs_purge_obj_events(struct ib_uobject *uobj)
{
	purge_list(&uobj->uctx->async->q, &uobj->async_events);
	if (uobj->comp)
		purge_list(&uobj->comp->q, &uobj->comp_events);
}

/* ---- completion channels ---- */

static void comp_file_free(struct kref *ref)
{
	struct uverbs_comp_file *comp =
		container_of(ref, struct uverbs_comp_file, ref);

	ev_queue_close(&comp->q);
	kfree(comp);
}

void uverbs_comp_file_put(struct uverbs_comp_file *comp)
{
	kref_put(&comp->ref, comp_file_free);
}

static ssize_t comp_read(struct file *filp, char __user *buf, size_t count,
			 loff_t *pos)
{
	struct uverbs_comp_file *comp = (struct uverbs_comp_file *)filp->private_data;

	return ev_queue_read(&comp->q, filp, buf, count,
			     sizeof(struct ib_uverbs_comp_event_desc), NULL);
}

static __poll_t comp_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct uverbs_comp_file *comp = (struct uverbs_comp_file *)filp->private_data;

	return ev_queue_poll(&comp->q, filp, wait, NULL);
}

static int comp_release(struct inode *inode, struct file *filp)
{
	struct uverbs_comp_file *comp = (struct uverbs_comp_file *)filp->private_data;

	/* nobody can read any more: stop queueing (CQs may still hold it) */
	ev_queue_close(&comp->q);
	uverbs_comp_file_put(comp);
	return 0;
}

static const struct file_operations comp_fops = {
	.owner = THIS_MODULE,
	.read = comp_read,
	.poll = comp_poll,
	.release = comp_release,
	.llseek = no_llseek,
};

/*
 * A new completion channel of @uctx.  Returns the file (not yet installed
 * in a descriptor; its reference is the file's); *out is the channel.
 */
struct file *uverbs_comp_file_create(struct uverbs_ucontext *uctx,
				     struct uverbs_comp_file **out)
{
	struct uverbs_comp_file *comp;
	struct file *filp;

	comp = (struct uverbs_comp_file *)kzalloc(sizeof(*comp), GFP_KERNEL_ACCOUNT);
	if (!comp)
		return (struct file *)ERR_PTR(-ENOMEM);
	kref_init(&comp->ref);
	ev_queue_init(&comp->q);
	filp = anon_inode_getfile("[infinibandevent]", &comp_fops, comp,
				  O_RDONLY);
	if (IS_ERR(filp)) {
		kfree(comp);
		return filp;
	}
	kref_get(&comp->ref);		/* the context's */
	comp->uctx = uctx;
	spin_lock_irq(&uctx->comp_lock);
	list_add_tail(&comp->list, &uctx->comp_files);
	spin_unlock_irq(&uctx->comp_lock);
	*out = comp;
	return filp;
}

/*
 * The channel behind @fd, referenced, if it is one of @uctx's (as upstream:
 * -EBADF for anything else).
 */
struct uverbs_comp_file *uverbs_comp_file_get(struct uverbs_ucontext *uctx,
					      int fd)
{
	struct uverbs_comp_file *comp = NULL;
	struct file *filp = fget(fd);

	if (!filp)
		return (struct uverbs_comp_file *)ERR_PTR(-EBADF);
	if (filp->f_op == &comp_fops) {
		comp = (struct uverbs_comp_file *)filp->private_data;
		/* detached channels have no owner any more */
		if (READ_ONCE(comp->uctx) == uctx)
			kref_get(&comp->ref);
		else
			comp = NULL;
	}
	fput(filp);
	return comp ? comp : (struct uverbs_comp_file *)ERR_PTR(-EBADF);
}

/* Teardown of @uctx (its CQs are gone): close its channels (EIO). */
void uverbs_comp_files_detach(struct uverbs_ucontext *uctx)
{
	struct uverbs_comp_file *comp;

	spin_lock_irq(&uctx->comp_lock);
	while ((comp = list_first_entry_or_null(&uctx->comp_files,
						struct uverbs_comp_file, list))) {
		list_del_init(&comp->list);
		WRITE_ONCE(comp->uctx, NULL);
		spin_unlock_irq(&uctx->comp_lock);
		ev_queue_close(&comp->q);
		uverbs_comp_file_put(comp);
		spin_lock_irq(&uctx->comp_lock);
	}
	spin_unlock_irq(&uctx->comp_lock);
}
