// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device registry, clients and async events of ib_core.
 *
 * Locks, outermost first (Documentation/core/device-lifetime.rst):
 *   clients_rwsem         the client list; held for reading while a
 *                         registering device adds every client, for writing
 *                         while a client is inserted or erased
 *   devices_rwsem         the device table, names and device states; never
 *                         held across a driver or client callback
 *   dev->client_data_rwsem  one device's client contexts
 *   dev->event_handler_lock (spinlock) one device's event handlers
 * No callback into a driver or client runs with devices_rwsem held, so a
 * client's add() may look devices up.
 */
#include <linux/module.h>
#include <linux/kmod.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/rcupdate.h>
#include <rdma/ib_device.h>

#include "core_priv.h"

/* Registered devices by index; indexes are handed out cyclically from 0. */
static DEFINE_XARRAY_FLAGS(devices, XA_FLAGS_ALLOC);
static u32 devices_next_index;
static DECLARE_RWSEM(devices_rwsem);

/* Registered clients by id; ids only grow, so id order is registration order. */
static DEFINE_XARRAY_FLAGS(clients, XA_FLAGS_ALLOC);
static u32 clients_next_id;
static u32 clients_highest_id;
static DECLARE_RWSEM(clients_rwsem);

/* One client's presence on one device. */
struct ib_client_ctx {
	void *data;
	struct rcu_head rcu;
};

static void ib_device_release(struct device *d)
{
	struct ib_device *dev = container_of(d, struct ib_device, dev);

	xa_destroy(&dev->client_data);
	rdma_restrack_clean(dev);
	mutex_destroy(&dev->unreg_mutex);
	kfree(dev->port_data);
	kfree(dev);
}

/* Tagged by namespace: a device's directory shows in its own (netns.c). */
struct class ib_class = {
	.name = "infiniband",
	.dev_release = ib_device_release,
	.ns_type = &net_ns_type_operations,
	.namespace = ib_class_namespace,
};

static void ib_unregistration_work(struct work_struct *work);

/* queued unregistrations (ib_unregister_device_queued) */
static struct workqueue_struct *ib_unreg_wq;

struct ib_device *_ib_alloc_device(size_t size)
{
	struct ib_device *dev;

	if (size < sizeof(*dev))
		return NULL;
	dev = (struct ib_device *)kzalloc(size, GFP_KERNEL);
	if (!dev)
		return NULL;

	device_initialize(&dev->dev);
	dev->dev.class = &ib_class;
	dev->node_type = RDMA_NODE_IB_CA;
	dev->state = IB_DEV_ALLOCATED;
	refcount_set(&dev->refcount, 0);
	init_completion(&dev->unreg_completion);
	mutex_init(&dev->unreg_mutex);
	INIT_WORK(&dev->unregistration_work, ib_unregistration_work);
	rdma_dev_set_net(dev, &init_net);
	init_rwsem(&dev->client_data_rwsem);
	xa_init_flags(&dev->client_data, XA_FLAGS_ALLOC);
	rdma_restrack_init(dev);
	spin_lock_init(&dev->event_handler_lock);
	INIT_LIST_HEAD(&dev->event_handler_list);
	INIT_LIST_HEAD(&dev->compat_devs);
	return dev;
}
EXPORT_SYMBOL(_ib_alloc_device);

void ib_dealloc_device(struct ib_device *dev)
{
	/* Freeing a registered device is a driver bug; leak rather than crash. */
	if (WARN_ON(dev->state != IB_DEV_ALLOCATED))
		return;
	put_device(&dev->dev);
}
EXPORT_SYMBOL(ib_dealloc_device);

/*
 * Merge @ops into the device's: a callback or object size @ops has fills
 * the device's slot only while that slot is empty, so a driver may set
 * common ops first and variant ops after (or the other way round); the
 * owner, driver id and ABI version of @ops, when set, replace the
 * device's.  Every member of struct ib_device_ops is listed here (the
 * device KUnit suite checks that none is missing).
 */
void ib_set_device_ops(struct ib_device *dev, const struct ib_device_ops *ops)
{
	struct ib_device_ops *d = &dev->ops;

#define IB_OPS_FILL(member) do { if (!d->member) d->member = ops->member; } while (0)
	if (ops->owner)
		d->owner = ops->owner;
	if (ops->driver_id != RDMA_DRIVER_UNKNOWN)
		d->driver_id = ops->driver_id;
	if (ops->uverbs_abi_ver)
		d->uverbs_abi_ver = ops->uverbs_abi_ver;
	IB_OPS_FILL(query_device);
	IB_OPS_FILL(query_port);
	IB_OPS_FILL(get_port_immutable);
	IB_OPS_FILL(get_link_layer);
	IB_OPS_FILL(get_netdev);
	if (!d->port_stats && ops->port_stats) {
		d->port_stats = ops->port_stats;
		d->num_port_stats = ops->num_port_stats;
	}
	IB_OPS_FILL(get_hw_stats);
	IB_OPS_FILL(dealloc_driver);
	IB_OPS_FILL(query_pkey);
	IB_OPS_FILL(get_dev_fw_str);
	IB_OPS_FILL(device_group);
	IB_OPS_FILL(add_gid);
	IB_OPS_FILL(del_gid);
	IB_OPS_FILL(alloc_ucontext);
	IB_OPS_FILL(dealloc_ucontext);
	IB_OPS_FILL(mmap);
	IB_OPS_FILL(disassociate_ucontext);
	IB_OPS_FILL(alloc_pd);
	IB_OPS_FILL(dealloc_pd);
	IB_OPS_FILL(get_dma_mr);
	IB_OPS_FILL(reg_user_mr);
	IB_OPS_FILL(rereg_user_mr);
	IB_OPS_FILL(dereg_mr);
	IB_OPS_FILL(alloc_mr);
	IB_OPS_FILL(map_mr_sg);
	IB_OPS_FILL(alloc_mw);
	IB_OPS_FILL(dealloc_mw);
	IB_OPS_FILL(create_cq);
	IB_OPS_FILL(resize_cq);
	IB_OPS_FILL(destroy_cq);
	IB_OPS_FILL(req_notify_cq);
	IB_OPS_FILL(poll_cq);
	IB_OPS_FILL(create_qp);
	IB_OPS_FILL(modify_qp);
	IB_OPS_FILL(query_qp);
	IB_OPS_FILL(destroy_qp);
	IB_OPS_FILL(post_send);
	IB_OPS_FILL(post_recv);
	IB_OPS_FILL(create_srq);
	IB_OPS_FILL(modify_srq);
	IB_OPS_FILL(query_srq);
	IB_OPS_FILL(destroy_srq);
	IB_OPS_FILL(post_srq_recv);
	IB_OPS_FILL(create_ah);
	IB_OPS_FILL(destroy_ah);
	IB_OPS_FILL(attach_mcast);
	IB_OPS_FILL(detach_mcast);
	IB_OPS_FILL(size_ib_ucontext);
	IB_OPS_FILL(size_ib_pd);
	IB_OPS_FILL(size_ib_mw);
	IB_OPS_FILL(size_ib_cq);
	IB_OPS_FILL(size_ib_qp);
	IB_OPS_FILL(size_ib_srq);
	IB_OPS_FILL(size_ib_ah);
#undef IB_OPS_FILL
}
EXPORT_SYMBOL(ib_set_device_ops);

void ib_get_device_fw_str(struct ib_device *dev, char *str)
{
	str[0] = '\0';
	if (dev->ops.get_dev_fw_str)
		dev->ops.get_dev_fw_str(dev, str);
	str[IB_FW_VERSION_NAME_MAX - 1] = '\0';
}
EXPORT_SYMBOL(ib_get_device_fw_str);

/* ---- names ---------------------------------------------------------- */

/* Caller holds devices_rwsem. */
static struct ib_device *find_by_name_locked(const char *name)
{
	struct ib_device *dev;
	unsigned long index;

	lockdep_assert_held(&devices_rwsem);

	xa_for_each(&devices, index, dev)
		if (!strcmp(name, dev->name))
			return dev;
	return NULL;
}

/*
 * A name is 1..IB_DEVICE_NAME_MAX-1 characters without '/', with either no
 * '%' or exactly one "%d", which becomes the lowest free number.
 */
int ib_device_check_name(const char *name)
{
	const char *pct = strchr(name, '%');
	size_t len = strnlen(name, IB_DEVICE_NAME_MAX);

	if (!len || len >= IB_DEVICE_NAME_MAX || strchr(name, '/'))
		return -EINVAL;
	if (pct && (pct[1] != 'd' || strchr(pct + 1, '%')))
		return -EINVAL;
	return 0;
}

/* Caller holds devices_rwsem for writing. */
static int assign_name_locked(struct ib_device *dev, const char *fmt)
{
	char buf[IB_DEVICE_NAME_MAX];
	int i, ret;

	lockdep_assert_held_write(&devices_rwsem);

	ret = ib_device_check_name(fmt);
	if (ret)
		return ret;
	if (!strchr(fmt, '%')) {
		if (find_by_name_locked(fmt))
			return -EEXIST;
		strscpy(dev->name, fmt, sizeof(dev->name));
		return 0;
	}
	for (i = 0; i < 0x10000; i++) {
		if (snprintf(buf, sizeof(buf), fmt, i) >= (int)sizeof(buf))
			return -ENAMETOOLONG;
		if (!find_by_name_locked(buf)) {
			strscpy(dev->name, buf, sizeof(dev->name));
			return 0;
		}
	}
	return -ENFILE;
}

int ib_device_rename(struct ib_device *dev, const char *name)
{
	int ret;

	if (strchr(name, '%'))
		return -EINVAL;
	mutex_lock(&dev->unreg_mutex);
	down_write(&devices_rwsem);
	if (dev->state != IB_DEV_REGISTERED) {
		ret = -ENODEV;
		goto out;
	}
	if (!strcmp(name, dev->name)) {
		ret = 0;
		goto out;
	}
	ret = ib_device_check_name(name);
	if (ret)
		goto out;
	if (find_by_name_locked(name)) {
		ret = -EEXIST;
		goto out;
	}
	ret = device_rename(&dev->dev, name);
	if (!ret)
		strscpy(dev->name, name, sizeof(dev->name));
	up_write(&devices_rwsem);
	if (!ret) {
		/* the other namespaces' directories get the new name too */
		ib_compat_devs_del(dev);
		ib_compat_devs_add(dev);
	}
	mutex_unlock(&dev->unreg_mutex);
	return ret;
out:
	up_write(&devices_rwsem);
	mutex_unlock(&dev->unreg_mutex);
	return ret;
}
EXPORT_SYMBOL(ib_device_rename);

/* ---- references and lookup --------------------------------------------- */

bool ib_device_try_get(struct ib_device *dev)
{
	return refcount_inc_not_zero(&dev->refcount);
}
EXPORT_SYMBOL(ib_device_try_get);

void ib_device_put(struct ib_device *dev)
{
	if (refcount_dec_and_test(&dev->refcount))
		complete(&dev->unreg_completion);
}
EXPORT_SYMBOL(ib_device_put);

/*
 * The registered device of @index that @net may see, with a use held
 * (ib_device_put() it), or NULL.  @net NULL: any namespace (kernel
 * callers and tests that own the device).
 */
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index)
{
	struct ib_device *dev;

	down_read(&devices_rwsem);
	dev = (struct ib_device *)xa_load(&devices, index);
	if (dev && (dev->state != IB_DEV_REGISTERED || !ib_device_try_get(dev)))
		dev = NULL;
	up_read(&devices_rwsem);
	if (dev && net && !rdma_dev_access_netns(dev, net)) {
		ib_device_put(dev);
		dev = NULL;
	}
	return dev;
}
EXPORT_SYMBOL(ib_device_get_by_index);

struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id)
{
	struct ib_device *dev;

	down_read(&devices_rwsem);
	dev = find_by_name_locked(name);
	if (dev && ((driver_id != RDMA_DRIVER_UNKNOWN &&
		     dev->ops.driver_id != driver_id) ||
		    dev->state != IB_DEV_REGISTERED || !ib_device_try_get(dev)))
		dev = NULL;
	up_read(&devices_rwsem);
	return dev;
}
EXPORT_SYMBOL(ib_device_get_by_name);

/*
 * The first registered device at or after *index, with a reference held;
 * *index is set to its index.  NULL when there is none.
 */
struct ib_device *ib_device_get_next(unsigned long *index)
{
	struct ib_device *dev;

	down_read(&devices_rwsem);
	dev = (struct ib_device *)xa_find(&devices, index, ULONG_MAX, XA_PRESENT);
	while (dev && (dev->state != IB_DEV_REGISTERED || !ib_device_try_get(dev)))
		dev = (struct ib_device *)xa_find_after(&devices, index, ULONG_MAX,
							XA_PRESENT);
	up_read(&devices_rwsem);
	return dev;
}

/*
 * The first device in the table at or after *index in any state, with
 * only its memory held (put_device()).  For walks that must also see
 * devices being registered or unregistered.
 */
struct ib_device *ib_device_get_next_any(unsigned long *index)
{
	struct ib_device *dev;

	down_read(&devices_rwsem);
	dev = (struct ib_device *)xa_find(&devices, index, ULONG_MAX, XA_PRESENT);
	if (dev)
		get_device(&dev->dev);
	up_read(&devices_rwsem);
	return dev;
}

/*
 * Call fn for every registered device in index order, holding a reference
 * (not devices_rwsem) across each call; stops at the first non-zero return.
 */
int ib_for_each_device(int (*fn)(struct ib_device *dev, void *data), void *data)
{
	unsigned long index = 0;
	struct ib_device *dev;
	int ret = 0;

	for (;;) {
		dev = ib_device_get_next(&index);
		if (!dev)
			return ret;
		ret = fn(dev, data);
		ib_device_put(dev);
		if (ret)
			return ret;
		index++;
	}
}
EXPORT_SYMBOL(ib_for_each_device);

/* ---- clients ------------------------------------------------------------ */

static void client_use(struct ib_client *client)
{
	refcount_inc(&client->uses);
}

static void client_unuse(struct ib_client *client)
{
	if (refcount_dec_and_test(&client->uses))
		complete(&client->uses_zero);
}

/* Add @client to @dev unless it is there already. */
static int add_client_context(struct ib_device *dev, struct ib_client *client)
{
	struct ib_client_ctx *ctx;
	int ret = 0;

	ctx = (struct ib_client_ctx *)kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	down_write(&dev->client_data_rwsem);
	if (!client->registered ||
	    xa_load(&dev->client_data, client->client_id)) {
		up_write(&dev->client_data_rwsem);
		kfree(ctx);
		return 0;
	}
	ret = xa_err(xa_store(&dev->client_data, client->client_id, ctx,
			      GFP_KERNEL));
	up_write(&dev->client_data_rwsem);
	if (ret) {
		kfree(ctx);
		return ret;
	}

	client_use(client);
	ret = client->add ? client->add(dev) : 0;
	client_unuse(client);
	if (ret) {
		/* a client may decline a device (e.g. wrong transport) */
		down_write(&dev->client_data_rwsem);
		xa_erase(&dev->client_data, client->client_id);
		up_write(&dev->client_data_rwsem);
		kfree_rcu(ctx, rcu);
		return ret == -EOPNOTSUPP ? 0 : ret;
	}
	return 0;
}

/*
 * Remove @client_id from @dev if present; whoever erases the context calls
 * remove().  The client is looked up (and its use count raised) before the
 * context is erased: a client leaves the table only once no device has a
 * context of it, so an erased context always finds its client.
 */
static void remove_client_context(struct ib_device *dev, u32 client_id)
{
	struct ib_client_ctx *ctx;
	struct ib_client *client;

	down_read(&clients_rwsem);
	client = (struct ib_client *)xa_load(&clients, client_id);
	if (client)
		client_use(client);
	up_read(&clients_rwsem);
	if (!client)
		return;

	down_write(&dev->client_data_rwsem);
	ctx = (struct ib_client_ctx *)xa_erase(&dev->client_data, client_id);
	up_write(&dev->client_data_rwsem);
	if (ctx) {
		if (client->remove)
			client->remove(dev, ctx->data);
		kfree_rcu(ctx, rcu);
	}
	client_unuse(client);
}

static void remove_all_clients(struct ib_device *dev)
{
	u32 id;

	for (id = READ_ONCE(clients_highest_id) + 1; id-- > 0;)
		remove_client_context(dev, id);
}

void *ib_get_client_data(struct ib_device *dev, struct ib_client *client)
{
	struct ib_client_ctx *ctx;
	void *data = NULL;

	rcu_read_lock();
	ctx = (struct ib_client_ctx *)xa_load(&dev->client_data, client->client_id);
	if (ctx)
		data = READ_ONCE(ctx->data);
	rcu_read_unlock();
	return data;
}
EXPORT_SYMBOL(ib_get_client_data);

void ib_set_client_data(struct ib_device *dev, struct ib_client *client,
			void *data)
{
	struct ib_client_ctx *ctx;

	down_read(&dev->client_data_rwsem);
	ctx = (struct ib_client_ctx *)xa_load(&dev->client_data, client->client_id);
	if (!WARN_ON(!ctx))
		WRITE_ONCE(ctx->data, data);
	up_read(&dev->client_data_rwsem);
}
EXPORT_SYMBOL(ib_set_client_data);

/* ---- client char devices (netlink GET_CHARDEV) --------------------------- */

/* A registered client by name, with a use held; NULL if there is none. */
static struct ib_client *client_get_by_name(const char *name)
{
	struct ib_client *client, *found = NULL;
	unsigned long id;

	down_read(&clients_rwsem);
	xa_for_each(&clients, id, client)
		if (client->registered && !strcmp(client->name, name)) {
			client_use(client);
			found = client;
			break;
		}
	up_read(&clients_rwsem);
	return found;
}

static int client_nl_info(struct ib_device *dev, struct ib_client *client,
			  struct ib_client_nl_info *res)
{
	struct ib_client_ctx *ctx;
	int ret;

	if (!client->get_nl_info)
		return -EOPNOTSUPP;
	if (!dev)
		return client->get_nl_info(NULL, NULL, res);
	/* read-held: remove_client_context() cannot erase (and remove()) */
	down_read(&dev->client_data_rwsem);
	ctx = (struct ib_client_ctx *)xa_load(&dev->client_data, client->client_id);
	ret = ctx ? client->get_nl_info(dev, ctx->data, res) : -EOPNOTSUPP;
	up_read(&dev->client_data_rwsem);
	return ret;
}

/*
 * Ask client @client_name about its char device on @dev (NULL: a client
 * without devices, e.g. upstream's rdma_cm).  An unknown client is loaded
 * through its "rdma-client-NAME" module alias and looked up once more.  On
 * success res->cdev is set with a reference the caller drops with
 * put_device().
 */
int ib_get_client_nl_info(struct ib_device *dev, const char *client_name,
			  struct ib_client_nl_info *res)
{
	struct ib_client *client;
	int ret;

	client = client_get_by_name(client_name);
	if (!client) {
		request_module("rdma-client-%s", client_name);
		client = client_get_by_name(client_name);
	}
	if (!client)
		return -EOPNOTSUPP;
	res->cdev = NULL;
	ret = client_nl_info(dev, client, res);
	client_unuse(client);
	if (!ret && !res->cdev)
		ret = -EINVAL;
	return ret;
}
EXPORT_SYMBOL(ib_get_client_nl_info);

/* Every registered device gets add() in index order. */
int ib_register_client(struct ib_client *client)
{
	unsigned long index = 0;
	struct ib_device *dev;
	int ret;

	refcount_set(&client->uses, 1);
	init_completion(&client->uses_zero);

	down_write(&clients_rwsem);
	ret = xa_alloc_cyclic(&clients, &client->client_id, client,
			      xa_limit_31b, &clients_next_id, GFP_KERNEL);
	if (ret < 0) {
		up_write(&clients_rwsem);
		return ret;
	}
	if (client->client_id > clients_highest_id)
		WRITE_ONCE(clients_highest_id, client->client_id);
	client->registered = true;

	for (;;) {
		dev = ib_device_get_next(&index);
		if (!dev)
			break;
		ret = add_client_context(dev, client);
		ib_device_put(dev);
		if (ret) {
			up_write(&clients_rwsem);
			ib_unregister_client(client);
			return ret;
		}
		index++;
	}
	up_write(&clients_rwsem);
	return 0;
}
EXPORT_SYMBOL(ib_register_client);

/* remove() runs for every device the client is on. */
void ib_unregister_client(struct ib_client *client)
{
	struct ib_device *dev;
	unsigned long index;
	bool found;

	down_write(&clients_rwsem);
	if (!client->registered) {
		up_write(&clients_rwsem);
		return;
	}
	/* no new contexts from here on (adders check this under the rwsem) */
	client->registered = false;
	up_write(&clients_rwsem);

	do {
		found = false;
		down_read(&devices_rwsem);
		xa_for_each(&devices, index, dev)
			if (xa_load(&dev->client_data, client->client_id)) {
				/* memory only: the device may be unregistering */
				get_device(&dev->dev);
				found = true;
				break;
			}
		up_read(&devices_rwsem);
		if (found) {
			remove_client_context(dev, client->client_id);
			put_device(&dev->dev);
		}
	} while (found);

	down_write(&clients_rwsem);
	xa_erase(&clients, client->client_id);
	up_write(&clients_rwsem);

	client_unuse(client);
	wait_for_completion(&client->uses_zero);
}
EXPORT_SYMBOL(ib_unregister_client);

/* ---- registration ------------------------------------------------------- */

static int setup_ports(struct ib_device *dev)
{
	struct ib_port_data *pd;
	u32 port;
	int ret;

	if (!dev->phys_port_cnt || dev->phys_port_cnt > 255)
		return -EINVAL;
	pd = (struct ib_port_data *)kcalloc(dev->phys_port_cnt + 1, sizeof(*pd),
					     GFP_KERNEL);
	if (!pd)
		return -ENOMEM;
	rdma_for_each_port(dev, port) {
		ret = dev->ops.get_port_immutable(dev, port, &pd[port].immutable);
		if (ret) {
			kfree(pd);
			return ret;
		}
	}
	kfree(dev->port_data);
	dev->port_data = pd;
	return 0;
}

/*
 * A client that fails add() is simply not on this device; failing the
 * registration (or a move) here would race with a concurrent
 * unregistration of the (already visible) device over who frees it.
 */
static void add_all_clients(struct ib_device *dev)
{
	struct ib_client *client;
	unsigned long id;
	int ret;

	down_read(&clients_rwsem);
	xa_for_each(&clients, id, client) {
		ret = add_client_context(dev, client);
		if (ret)
			dev_warn(&dev->dev, "client %s not added: %d\n",
				 client->name, ret);
	}
	up_read(&clients_rwsem);
}

/*
 * In service (again): the registration's own use, REGISTERED so lookups
 * find it, then every client's add().  Registration and the end of a
 * namespace move.
 */
static void enable_device(struct ib_device *dev)
{
	reinit_completion(&dev->unreg_completion);
	refcount_set(&dev->refcount, 1);
	down_write(&devices_rwsem);
	dev->state = IB_DEV_REGISTERED;
	up_write(&devices_rwsem);
	add_all_clients(dev);
}

int ib_register_device(struct ib_device *dev, const char *name,
		       struct device *dma_device)
{
	int ret;

	if (!dev->ops.query_device || !dev->ops.query_port ||
	    !dev->ops.get_port_immutable)
		return -EINVAL;
	if (dev->state != IB_DEV_ALLOCATED)
		return -EBUSY;
	ret = setup_ports(dev);
	if (ret)
		return ret;
	dev->dev.parent = dma_device;
	dev->dma_device = dma_device;

	down_write(&devices_rwsem);
	ret = assign_name_locked(dev, name);
	if (!ret)
		ret = dev_set_name(&dev->dev, "%s", dev->name);
	if (!ret)
		ret = xa_alloc_cyclic(&devices, &dev->index, dev, xa_limit_31b,
				      &devices_next_index, GFP_KERNEL);
	if (ret < 0) {
		up_write(&devices_rwsem);
		return ret;
	}
	/* not yet REGISTERED: lookups skip it until clients are in */
	up_write(&devices_rwsem);

	/* [gid/sysfs] no uevent until the port files exist (see the hook below) */
	dev_set_uevent_suppress(&dev->dev, true);
	ret = device_add(&dev->dev);
	/* [gid/sysfs] hook: GID cache, RoCE GIDs, sysfs files; sends the uevent */
	if (!ret) {
		ret = ib_device_setup_gids_and_sysfs(dev);
		if (ret)
			device_del(&dev->dev);
	}
	if (ret) {
		down_write(&devices_rwsem);
		xa_erase(&devices, dev->index);
		up_write(&devices_rwsem);
		return ret;
	}
	ib_compat_devs_add(dev);
	enable_device(dev);
	return 0;
}
EXPORT_SYMBOL(ib_register_device);

/* Returns true when this call did the unregistration. */
static bool __ib_unregister_device(struct ib_device *dev)
{
	mutex_lock(&dev->unreg_mutex);
	down_write(&devices_rwsem);
	if (dev->state != IB_DEV_REGISTERED) {
		up_write(&devices_rwsem);
		mutex_unlock(&dev->unreg_mutex);
		return false;
	}
	dev->state = IB_DEV_UNREGISTERING;
	up_write(&devices_rwsem);

	/* clients first: their remove() lets go of the references they hold */
	remove_all_clients(dev);

	/* drop registration's own reference, wait for every other user */
	ib_device_put(dev);
	wait_for_completion(&dev->unreg_completion);

	/*
	 * A client registering concurrently may have added itself after the
	 * sweep above while holding a reference; nobody can add now.
	 */
	remove_all_clients(dev);

	ib_compat_devs_del(dev);
	/* [gid/sysfs] hook: port files, then GID cache; nobody uses them now */
	ib_device_cleanup_gids_and_sysfs(dev);
	device_del(&dev->dev);
	down_write(&devices_rwsem);
	xa_erase(&devices, dev->index);
	dev->state = IB_DEV_ALLOCATED;
	up_write(&devices_rwsem);
	mutex_unlock(&dev->unreg_mutex);
	return true;
}

void ib_unregister_device(struct ib_device *dev)
{
	__ib_unregister_device(dev);
}
EXPORT_SYMBOL(ib_unregister_device);

static void free_unregistered(struct ib_device *dev)
{
	if (dev->ops.dealloc_driver)
		dev->ops.dealloc_driver(dev);
	ib_dealloc_device(dev);
}

/*
 * For callers holding a reference from a lookup (netlink DELLINK, a
 * netdev notifier): drop it, unregister, and free the device.  When two
 * such callers race, one unregisters and frees, the other only drops.
 */
void ib_unregister_device_and_put(struct ib_device *dev)
{
	bool mine;

	get_device(&dev->dev);
	ib_device_put(dev);
	mine = __ib_unregister_device(dev);
	put_device(&dev->dev);
	if (mine)
		free_unregistered(dev);
}
EXPORT_SYMBOL(ib_unregister_device_and_put);

static void ib_unregistration_work(struct work_struct *work)
{
	struct ib_device *dev = container_of(work, struct ib_device,
					     unregistration_work);

	if (__ib_unregister_device(dev))
		free_unregistered(dev);
	put_device(&dev->dev);
}

void ib_unregister_device_queued(struct ib_device *dev)
{
	WARN_ON(!refcount_read(&dev->refcount));
	WARN_ON(!dev->ops.dealloc_driver);
	/* the work item's hold on the memory; dropped when it is done */
	get_device(&dev->dev);
	if (!queue_work(ib_unreg_wq, &dev->unregistration_work))
		put_device(&dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device_queued);

/*
 * Unregister and free every device of a driver (its module is going
 * away), those whose queued unregistration is under way included: no
 * call into the driver is left when this returns.
 */
void ib_unregister_driver(enum rdma_driver_id driver_id)
{
	struct ib_device *dev;
	unsigned long index;
	bool found;

	do {
		found = false;
		down_read(&devices_rwsem);
		xa_for_each(&devices, index, dev)
			if (dev->ops.driver_id == driver_id &&
			    ib_device_try_get(dev)) {
				found = true;
				break;
			}
		up_read(&devices_rwsem);
		if (found)
			ib_unregister_device_and_put(dev);
	} while (found);
	flush_workqueue(ib_unreg_wq);
}
EXPORT_SYMBOL(ib_unregister_driver);

/* ---- namespace moves ---------------------------------------------------- */

/*
 * Take the device out of service exactly as unregistration does (clients
 * removed, then every use waited for), change its namespace and its sysfs
 * tag, and bring it back: same index and name, clients added again (so
 * uverbs creates a new char device, visible in @net).  unreg_mutex keeps
 * a concurrent unregistration out; it runs after us and finds the device
 * REGISTERED again, or before us and we find it gone (-ENODEV).
 */
int ib_device_move_net_put(struct ib_device *dev, struct net *net)
{
	struct net *old;
	int ret = 0;

	get_device(&dev->dev);
	ib_device_put(dev);
	mutex_lock(&dev->unreg_mutex);
	down_write(&devices_rwsem);
	if (dev->state != IB_DEV_REGISTERED) {
		ret = -ENODEV;
	} else if (!net_eq(rdma_dev_net(dev), net)) {
		dev->state = IB_DEV_MOVING;
		ret = 1;
	}
	up_write(&devices_rwsem);
	if (ret <= 0)
		goto out;

	remove_all_clients(dev);
	ib_device_put(dev);
	wait_for_completion(&dev->unreg_completion);
	remove_all_clients(dev);

	ib_compat_devs_del(dev);
	old = rdma_dev_net(dev);
	rdma_dev_set_net(dev, net);
	/* same name: only the kobject's namespace tag changes */
	ret = device_rename(&dev->dev, dev_name(&dev->dev));
	if (ret) {
		dev_warn(&dev->dev, "cannot move to the namespace: %d\n", ret);
		rdma_dev_set_net(dev, old);
	}
	ib_compat_devs_add(dev);
	enable_device(dev);
out:
	mutex_unlock(&dev->unreg_mutex);
	put_device(&dev->dev);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL(ib_device_move_net_put);

/* ---- events ------------------------------------------------------------- */

void ib_register_event_handler(struct ib_event_handler *h)
{
	unsigned long flags;

	spin_lock_irqsave(&h->device->event_handler_lock, flags);
	list_add_tail(&h->list, &h->device->event_handler_list);
	spin_unlock_irqrestore(&h->device->event_handler_lock, flags);
}
EXPORT_SYMBOL(ib_register_event_handler);

void ib_unregister_event_handler(struct ib_event_handler *h)
{
	unsigned long flags;

	spin_lock_irqsave(&h->device->event_handler_lock, flags);
	list_del_init(&h->list);
	spin_unlock_irqrestore(&h->device->event_handler_lock, flags);
}
EXPORT_SYMBOL(ib_unregister_event_handler);

/* Handlers run in registration order, in atomic context. */
void ib_dispatch_event(const struct ib_event *event)
{
	struct ib_device *dev = event->device;
	struct ib_event_handler *h;
	struct ib_event ev = *event;
	unsigned long flags;

	spin_lock_irqsave(&dev->event_handler_lock, flags);
	list_for_each_entry(h, &dev->event_handler_list, list)
		h->handler(h, &ev);
	spin_unlock_irqrestore(&dev->event_handler_lock, flags);
}
EXPORT_SYMBOL(ib_dispatch_event);

/* ---- queries ------------------------------------------------------------ */

int ib_query_port(struct ib_device *dev, u32 port, struct ib_port_attr *attr)
{
	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	return dev->ops.query_port(dev, port, attr);
}
EXPORT_SYMBOL(ib_query_port);

int ib_query_device(struct ib_device *dev, struct ib_device_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	return dev->ops.query_device(dev, attr, NULL);
}
EXPORT_SYMBOL(ib_query_device);

enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *dev, u32 port)
{
	if (dev->ops.get_link_layer)
		return dev->ops.get_link_layer(dev, port);
	return dev->node_type == RDMA_NODE_IB_CA ? IB_LINK_LAYER_INFINIBAND :
						   IB_LINK_LAYER_UNSPECIFIED;
}
EXPORT_SYMBOL(rdma_port_get_link_layer);

struct net_device *ib_device_get_netdev(struct ib_device *dev, u32 port)
{
	if (!rdma_is_port_valid(dev, port) || !dev->ops.get_netdev)
		return NULL;
	return dev->ops.get_netdev(dev, port);
}
EXPORT_SYMBOL(ib_device_get_netdev);

/* ---- module ------------------------------------------------------------- */

int ib_devices_init(void)
{
	int ret;

	ib_unreg_wq = alloc_workqueue("ib-unreg-wq", WQ_UNBOUND, 0);
	if (!ib_unreg_wq)
		return -ENOMEM;
	ret = class_register(&ib_class);
	if (ret)
		destroy_workqueue(ib_unreg_wq);
	return ret;
}

void ib_devices_exit(void)
{
	/* module refcounts keep drivers and clients loaded while we are */
	WARN_ON(!xa_empty(&devices));
	WARN_ON(!xa_empty(&clients));
	class_unregister(&ib_class);
	destroy_workqueue(ib_unreg_wq);
}
