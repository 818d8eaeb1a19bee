// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMA devices and network namespaces (Documentation/core/netns.rst).
 *
 * Every device lives in one namespace (ib_device.net).  In shared mode
 * (the default) every namespace may use every device; in exclusive mode
 * only the device's own.  sysfs follows the same rule: the "infiniband"
 * class is tagged by namespace, a device's directory is in its own
 * namespace, and in shared mode each other namespace gets a "compat"
 * directory of the same name showing the same attributes.
 *
 * Locks: rdma_nets_mutex guards the namespace list, the mode and every
 * device's compat list.  Order: dev->unreg_mutex -> rdma_nets_mutex ->
 * devices_rwsem (the last taken inside device lookups).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_device.h>

#include "core_priv.h"

struct rdma_netns {
	struct list_head list;	/* on rdma_nets */
	struct net *net;
};

struct ib_compat_dev {
	struct device dev;
	struct ib_device *ibdev;	/* its memory is held by us */
	possible_net_t net;
	struct list_head list;		/* on ibdev->compat_devs */
	struct ib_sysfs_ports *ports;	/* the same port files as ibdev's */
};

static unsigned int rdma_netns_id;
static LIST_HEAD(rdma_nets);
static DEFINE_MUTEX(rdma_nets_mutex);
static bool shared_mode = true;

bool rdma_netns_shared(void)
{
	return READ_ONCE(shared_mode);
}
EXPORT_SYMBOL(rdma_netns_shared);

bool rdma_dev_access_netns(const struct ib_device *dev, const struct net *net)
{
	return READ_ONCE(shared_mode) || net_eq(net, rdma_dev_net(dev));
}
EXPORT_SYMBOL(rdma_dev_access_netns);

/* ---- sysfs: namespace tags and compat directories ------------------------ */

static void compat_dev_release(struct device *d)
{
	struct ib_compat_dev *cdev = container_of(d, struct ib_compat_dev, dev);

	put_device(&cdev->ibdev->dev);
	kfree(cdev);
}

static const struct device_type compat_dev_type = {
	.name = "ib_compat",
	.release = compat_dev_release,
};

const void *ib_class_namespace(struct device *d)
{
	if (d->type == &compat_dev_type)
		return read_pnet(&container_of(d, struct ib_compat_dev, dev)->net);
	return rdma_dev_net(container_of(d, struct ib_device, dev));
}

/* Caller holds rdma_nets_mutex. */
static int compat_dev_add_locked(struct ib_device *ibdev, struct net *net)
{
	struct ib_compat_dev *cdev;
	int ret;

	lockdep_assert_held(&rdma_nets_mutex);

	cdev = (struct ib_compat_dev *)kzalloc(sizeof(*cdev), GFP_KERNEL);
	if (!cdev)
		return -ENOMEM;
	device_initialize(&cdev->dev);
	cdev->dev.type = &compat_dev_type;
	cdev->dev.class = &ib_class;
	cdev->dev.parent = ibdev->dev.parent;
	get_device(&ibdev->dev);
	cdev->ibdev = ibdev;
	write_pnet(&cdev->net, net);
	ret = dev_set_name(&cdev->dev, "%s", dev_name(&ibdev->dev));
	if (!ret)
		ret = device_add(&cdev->dev);
	if (ret) {
		put_device(&cdev->dev);
		return ret;
	}
	ret = ib_sysfs_add_device_attrs(ibdev, &cdev->dev);
	if (ret) {
		device_unregister(&cdev->dev);
		return ret;
	}
	cdev->ports = ib_sysfs_add_ports(ibdev, &cdev->dev.kobj);
	if (IS_ERR(cdev->ports)) {
		ret = (int)PTR_ERR(cdev->ports);
		ib_sysfs_del_device_attrs(ibdev, &cdev->dev);
		device_unregister(&cdev->dev);
		return ret;
	}
	list_add_tail(&cdev->list, &ibdev->compat_devs);
	return 0;
}

/* Caller holds rdma_nets_mutex.  @net NULL: every compat dev. */
static void compat_devs_del_locked(struct ib_device *ibdev,
				   const struct net *net)
{
	struct ib_compat_dev *cdev, *tmp;

	lockdep_assert_held(&rdma_nets_mutex);

	list_for_each_entry_safe(cdev, tmp, &ibdev->compat_devs, list) {
		if (net && !net_eq(read_pnet(&cdev->net), net))
			continue;
		list_del(&cdev->list);
		ib_sysfs_del_ports(cdev->ports);
		ib_sysfs_del_device_attrs(ibdev, &cdev->dev);
		device_unregister(&cdev->dev);
	}
}

/*
 * Shared mode: give @ibdev a directory in every other namespace.  Called
 * after device_add() of the device itself, before it is REGISTERED.
 */
void ib_compat_devs_add(struct ib_device *ibdev)
{
	struct rdma_netns *rn;
	int ret;

	mutex_lock(&rdma_nets_mutex);
	ibdev->compat_ready = true;
	if (shared_mode)
		list_for_each_entry(rn, &rdma_nets, list) {
			if (net_eq(rn->net, rdma_dev_net(ibdev)))
				continue;
			ret = compat_dev_add_locked(ibdev, rn->net);
			if (ret)
				dev_warn(&ibdev->dev,
					 "no sysfs directory in a namespace: %d\n",
					 ret);
		}
	mutex_unlock(&rdma_nets_mutex);
}

void ib_compat_devs_del(struct ib_device *ibdev)
{
	mutex_lock(&rdma_nets_mutex);
	ibdev->compat_ready = false;
	compat_devs_del_locked(ibdev, NULL);
	mutex_unlock(&rdma_nets_mutex);
}

/* ---- mode ------------------------------------------------------------- */

/*
 * As upstream: the mode changes only while init_net is the only
 * namespace, so no device lives elsewhere and no compat directory exists
 * in either mode; nothing has to be converted.
 */
int rdma_set_netns_shared(bool shared)
{
	struct rdma_netns *rn;
	int ret = 0;

	mutex_lock(&rdma_nets_mutex);
	if (shared_mode == shared)
		goto out;
	list_for_each_entry(rn, &rdma_nets, list)
		if (!net_eq(rn->net, &init_net)) {
			ret = -EBUSY;
			goto out;
		}
	WRITE_ONCE(shared_mode, shared);
out:
	mutex_unlock(&rdma_nets_mutex);
	return ret;
}
EXPORT_SYMBOL(rdma_set_netns_shared);

/* ---- namespaces coming and going ----------------------------------------- */

static int __net_init rdma_netns_init(struct net *net)
{
	struct rdma_netns *rn = (struct rdma_netns *)net_generic(net, rdma_netns_id);
	unsigned long index = 0;
	struct ib_device *dev;

	rn->net = net;
	mutex_lock(&rdma_nets_mutex);
	list_add_tail(&rn->list, &rdma_nets);
	if (shared_mode) {
		while ((dev = ib_device_get_next_any(&index))) {
			if (dev->compat_ready &&
			    !net_eq(rdma_dev_net(dev), net) &&
			    compat_dev_add_locked(dev, net))
				dev_warn(&dev->dev,
					 "no sysfs directory in a new namespace\n");
			put_device(&dev->dev);
			index++;
		}
	}
	mutex_unlock(&rdma_nets_mutex);
	return 0;
}

/* The first device living in @net at or after *index, with a use held. */
static struct ib_device *next_in_net(struct net *net, unsigned long *index)
{
	struct ib_device *dev;

	while ((dev = ib_device_get_next(index))) {
		if (net_eq(rdma_dev_net(dev), net))
			return dev;
		ib_device_put(dev);
		(*index)++;
	}
	return NULL;
}

/*
 * Runs after the namespace's netdevs are gone or back in init_net (device
 * pernet ops exit first), so soft devices have followed their netdevs
 * already.  What is left goes back to init_net if its driver allows
 * moves, and is unregistered otherwise.
 */
static void __net_exit rdma_netns_exit(struct net *net)
{
	struct rdma_netns *rn = (struct rdma_netns *)net_generic(net, rdma_netns_id);
	unsigned long index = 0;
	struct ib_device *dev, *iter;

	mutex_lock(&rdma_nets_mutex);
	list_del(&rn->list);
	while ((iter = ib_device_get_next_any(&index))) {
		compat_devs_del_locked(iter, net);
		put_device(&iter->dev);
		index++;
	}
	mutex_unlock(&rdma_nets_mutex);

	/* init_net only exits when ib_core unloads, with no devices left */
	if (net_eq(net, &init_net))
		return;
	index = 0;
	while ((dev = next_in_net(net, &index))) {
		struct module *owner = dev->ops.owner;

		if (dev->attrs.kernel_cap_flags & IBK_ALLOW_NETNS_CHANGE) {
			if (ib_device_move_net_put(dev, &init_net))
				dev_warn(&dev->dev,
					 "could not return to init_net\n");
		} else if (try_module_get(owner)) {
			ib_unregister_device_and_put(dev);
			module_put(owner);
		} else {
			/* its module is unloading and unregisters it */
			ib_device_put(dev);
		}
		index++;
	}
}

static struct pernet_operations rdma_netns_ops = {
	.init = rdma_netns_init,
	.exit = rdma_netns_exit,
	.id = &rdma_netns_id,
	.size = sizeof(struct rdma_netns),
};

int rdma_netns_init_module(void)
{
	return register_pernet_subsys(&rdma_netns_ops);
}

void rdma_netns_exit_module(void)
{
	unregister_pernet_subsys(&rdma_netns_ops);
}
