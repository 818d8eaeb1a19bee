// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_core module entry points.
 *
 * The subsystem pieces (QP state machine, device registry, network
 * namespaces, GID tables, netlink, sysfs, verbs objects) live in their own
 * files; this one only ties them into a module.
 */
#include <linux/module.h>
#include <linux/init.h>

#include "core_priv.h"

static int __init ib_core_init(void)
{
	int ret;

	ret = ib_devices_init();
	if (ret)
		return ret;
	ret = rdma_netns_init_module();
	if (ret)
		goto err_devices;
	ret = roce_gid_mgmt_init();
	if (ret)
		goto err_netns;
	ret = rdma_nl_init();
	if (ret)
		goto err_gid;
	ret = ib_mad_init();
	if (ret)
		goto err_nl;
	return 0;

err_nl:
	rdma_nl_exit();
	rdma_links_exit();
err_gid:
	roce_gid_mgmt_exit();
err_netns:
	rdma_netns_exit_module();
err_devices:
	ib_devices_exit();
	return ret;
}

static void __exit ib_core_exit(void)
{
	ib_mad_exit();
	rdma_nl_exit();
	rdma_links_exit();
	roce_gid_mgmt_exit();
	rdma_netns_exit_module();
	ib_devices_exit();
}

module_init(ib_core_init);
module_exit(ib_core_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("RDMA core (out-of-tree replacement for ib_core)");
