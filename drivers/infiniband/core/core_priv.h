/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* ib_core internals shared between its files; not for drivers. */
#ifndef _IB_CORE_PRIV_H
#define _IB_CORE_PRIV_H

#include <linux/netlink.h>
#include <net/netlink.h>
#include <rdma/ib_device.h>

extern struct class ib_class;

int ib_devices_init(void);
void ib_devices_exit(void);
int ib_device_check_name(const char *name);
struct ib_device *ib_device_get_next(unsigned long *index);
struct ib_device *ib_device_get_next_any(unsigned long *index);

/* netns.c */
const void *ib_class_namespace(struct device *d);
void ib_compat_devs_add(struct ib_device *ibdev);
void ib_compat_devs_del(struct ib_device *ibdev);
int rdma_netns_init_module(void);
void rdma_netns_exit_module(void);

/* sysfs.c: the attributes of a device, also shown by its compat dirs */
static inline int ib_sysfs_compat_add(struct ib_device *ibdev,
				      struct device *cdev)
{
	return 0;
}

static inline void ib_sysfs_compat_del(struct ib_device *ibdev,
				       struct device *cdev)
{
}

/* netlink.c / nldev.c */
#define RDMA_NL_ADMIN	0x1	/* needs CAP_NET_ADMIN */

struct rdma_nl_cmd {
	int (*doit)(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack);
	int (*dump)(struct sk_buff *skb, struct netlink_callback *cb);
	u8 flags;
};

const struct rdma_nl_cmd *nldev_cmd(unsigned int op);
int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 portid);
int rdma_nl_init(void);
void rdma_nl_exit(void);
void rdma_links_exit(void);

#endif /* _IB_CORE_PRIV_H */
