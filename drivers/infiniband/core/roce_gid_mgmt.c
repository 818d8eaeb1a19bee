// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RoCE GIDs from the addresses of a port's netdev (ops.get_netdev).
 *
 * Per RoCE port and per supported GID type (v1 for RDMA_CORE_CAP_PROT_ROCE,
 * v2 for ..._ROCE_UDP_ENCAP): the default GID fe80::<EUI-64 of the MAC>
 * while the netdev is registered, then one entry per IPv4 address
 * (::ffff:a.b.c.d) and per IPv6 address, IPv4 first at a rescan.
 *
 * How: address and netdev notifiers do not touch tables (inet6addr ones
 * run in atomic context, inetaddr and netdev ones under RTNL); they queue
 * "netdev X changed" on an ordered work queue.  The work looks at every
 * registered device holding a use (ib_for_each_device), and for each port
 * bound to X recomputes the wanted entries from X's current addresses and
 * syncs the table to them (ib_gid_cache_sync): a burst of notifications
 * becomes one sync and one IB_EVENT_GID_CHANGE per changed port.  The work
 * takes no RTNL, so unregistering a device under RTNL never waits on it.
 *
 * A device's entries follow its own netdev wherever it is (a netdev that
 * moves to another namespace keeps its addresses' entries; the NETDEV_*
 * events of the move only cause a resync).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/netdevice.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <rdma/ib_cache.h>

#include "core_priv.h"

static struct workqueue_struct *roce_gid_wq;

struct roce_netdev_work {
	struct work_struct work;
	struct net_device *ndev;	/* held */
	netdevice_tracker tracker;
};

/* GID types of @port, in table order (v1 before v2, as upstream). */
static u32 port_gid_types(struct ib_device *dev, u32 port, u8 *types)
{
	u32 flags = dev->port_data[port].immutable.core_cap_flags;
	u32 n = 0;

	if (flags & RDMA_CORE_CAP_PROT_ROCE)
		types[n++] = IB_GID_TYPE_ROCE;
	if (flags & RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP)
		types[n++] = IB_GID_TYPE_ROCE_UDP_ENCAP;
	return n;
}

struct want_list {
	struct ib_gid_want *v;
	u32 n, cap;
	const u8 *types;
	u32 ntypes;
};

static void want_add(struct want_list *w, const u8 *gid)
{
	u32 t;

	for (t = 0; t < w->ntypes && w->n < w->cap; t++) {
		memcpy(w->v[w->n].gid, gid, RDMA_GID_BYTES);
		w->v[w->n].type = w->types[t];
		w->n++;
	}
}

static void want_ipv4(struct want_list *w, struct net_device *ndev)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	u8 gid[RDMA_GID_BYTES];

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev)
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			rdma_gid_from_ipv4((const u8 *)&ifa->ifa_address, gid);
			want_add(w, gid);
		}
	rcu_read_unlock();
}

static void want_ipv6(struct want_list *w, struct net_device *ndev)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;

	idev = in6_dev_get(ndev);
	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list)
		want_add(w, ifp->addr.s6_addr);
	read_unlock_bh(&idev->lock);
	in6_dev_put(idev);
#endif
}

/*
 * Sync @port of @dev (bound to @ndev) to @ndev's addresses; announce a
 * change.  Sleeps (allocation).
 */
static void roce_sync_port(struct ib_device *dev, u32 port,
			   struct net_device *ndev)
{
	u8 types[2], gid[RDMA_GID_BYTES];
	struct want_list w = {};
	bool present, changed;

	w.ntypes = port_gid_types(dev, port, types);
	w.types = types;
	w.cap = rdma_gid_table_len(dev, port);
	if (!w.ntypes || !w.cap)
		return;
	w.v = (struct ib_gid_want *)kcalloc(w.cap, sizeof(*w.v), GFP_KERNEL);
	if (!w.v)
		return;
	present = READ_ONCE(ndev->reg_state) == NETREG_REGISTERED;
	if (present) {
		rdma_gid_default_from_mac(ndev->dev_addr, gid);
		want_add(&w, gid);
		want_ipv4(&w, ndev);
		want_ipv6(&w, ndev);
	}
	changed = ib_gid_cache_sync(dev, port, (u32)ndev->ifindex, present,
				    w.v, w.n);
	kfree(w.v);
	if (changed)
		rdma_gid_changed(dev, port);
}

static bool port_is_roce(struct ib_device *dev, u32 port)
{
	return dev->port_data[port].immutable.core_cap_flags &
	       (RDMA_CORE_CAP_PROT_ROCE | RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP);
}

/* Every RoCE port of @dev from its netdev's current addresses. */
void roce_gid_rescan_device(struct ib_device *dev)
{
	struct net_device *ndev;
	u32 port;

	rdma_for_each_port(dev, port) {
		if (!port_is_roce(dev, port))
			continue;
		ndev = ib_device_get_netdev(dev, port);
		if (ndev) {
			roce_sync_port(dev, port, ndev);
			dev_put(ndev);
		} else if (rdma_gid_cache_flush_port(dev, port)) {
			rdma_gid_changed(dev, port);
		}
	}
}

static int sync_if_bound(struct ib_device *dev, void *data)
{
	struct net_device *changed = (struct net_device *)data;
	struct net_device *ndev;
	u32 port;

	rdma_for_each_port(dev, port) {
		if (!port_is_roce(dev, port))
			continue;
		ndev = ib_device_get_netdev(dev, port);
		if (ndev == changed)
			roce_sync_port(dev, port, ndev);
		if (ndev)
			dev_put(ndev);
	}
	return 0;
}

static void roce_netdev_work_fn(struct work_struct *work)
{
	struct roce_netdev_work *w =
		container_of(work, struct roce_netdev_work, work);

	ib_for_each_device(sync_if_bound, w->ndev);
	netdev_put(w->ndev, &w->tracker);
	kfree(w);
}

/* Any context.  Losing an update to a failed allocation is what upstream does too. */
static void queue_netdev_sync(struct net_device *ndev)
{
	struct roce_netdev_work *w;

	w = (struct roce_netdev_work *)kzalloc(sizeof(*w), GFP_ATOMIC);
	if (!w)
		return;
	INIT_WORK(&w->work, roce_netdev_work_fn);
	w->ndev = ndev;
	netdev_hold(ndev, &w->tracker, GFP_ATOMIC);
	queue_work(roce_gid_wq, &w->work);
}

/* An address appeared on or left @ndev. */
static int addr_event(unsigned long event, struct net_device *ndev)
{
	if (event == NETDEV_UP || event == NETDEV_DOWN)
		queue_netdev_sync(ndev);
	return NOTIFY_DONE;
}

static int inetaddr_event(struct notifier_block *nb, unsigned long event,
			  void *ptr)
{
	return addr_event(event, ((const struct in_ifaddr *)ptr)->ifa_dev->dev);
}

static int inet6addr_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	return addr_event(event,
			  ((const struct inet6_ifaddr *)ptr)->idev->dev);
}

static int netdevice_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(
		(const struct netdev_notifier_info *)ptr);

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_UNREGISTER:
	case NETDEV_UP:
	case NETDEV_CHANGEADDR:
		queue_netdev_sync(ndev);
		break;
	default:
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block inetaddr_nb = {
	.notifier_call = inetaddr_event,
};

static struct notifier_block inet6addr_nb = {
	.notifier_call = inet6addr_event,
};

static struct notifier_block netdevice_nb = {
	.notifier_call = netdevice_event,
};

int roce_gid_mgmt_init(void)
{
	int ret;

	roce_gid_wq = alloc_ordered_workqueue("ib_roce_gid", 0);
	if (!roce_gid_wq)
		return -ENOMEM;
	ret = register_inetaddr_notifier(&inetaddr_nb);
	if (ret)
		goto err_wq;
#if IS_ENABLED(CONFIG_IPV6)
	ret = register_inet6addr_notifier(&inet6addr_nb);
	if (ret)
		goto err_inet;
#endif
	ret = register_netdevice_notifier(&netdevice_nb);
	if (ret)
		goto err_inet6;
	return 0;

err_inet6:
#if IS_ENABLED(CONFIG_IPV6)
	unregister_inet6addr_notifier(&inet6addr_nb);
err_inet:
#endif
	unregister_inetaddr_notifier(&inetaddr_nb);
err_wq:
	destroy_workqueue(roce_gid_wq);
	return ret;
}

/* No device is registered any more; drain what the notifiers queued. */
void roce_gid_mgmt_exit(void)
{
	unregister_netdevice_notifier(&netdevice_nb);
#if IS_ENABLED(CONFIG_IPV6)
	unregister_inet6addr_notifier(&inet6addr_nb);
#endif
	unregister_inetaddr_notifier(&inetaddr_nb);
	destroy_workqueue(roce_gid_wq);
}
