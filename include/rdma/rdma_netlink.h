/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RDMA netlink, driver side: link types that "rdma link add NAME type T
 * netdev IF" creates.  The wire protocol is <uapi/rdma/rdma_netlink.h>.
 */
#ifndef _RDMA_RDMA_NETLINK_H
#define _RDMA_RDMA_NETLINK_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/netdevice.h>

struct rdma_link_ops {
	struct list_head list;		/* private to ib_core */
	const char *type;		/* "rxe" */
	/*
	 * Create and register a device named @ibdev_name on @ndev (which the
	 * caller holds for the duration of the call).  Runs in process
	 * context with RTNL not held, inside ib_core's link-ops lock:
	 * rdma_link_unregister() waits for running newlink() calls, so a
	 * driver that unregisters its link ops first in module exit is safe.
	 */
	int (*newlink)(const char *ibdev_name, struct net_device *ndev);
};

void rdma_link_register(struct rdma_link_ops *ops);
void rdma_link_unregister(struct rdma_link_ops *ops);

/* Lets ib_core autoload the driver of link type @type. */
#define MODULE_ALIAS_RDMA_LINK(type) MODULE_ALIAS("rdma-link-" type)

#endif /* _RDMA_RDMA_NETLINK_H */
