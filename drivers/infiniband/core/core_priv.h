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
/* the MAD layer's client (mad.c) */
int ib_mad_init(void);
void ib_mad_exit(void);
int ib_device_check_name(const char *name);
struct ib_device *ib_device_get_next(unsigned long *index);
struct ib_device *ib_device_get_next_any(unsigned long *index);

/* netns.c */
const void *ib_class_namespace(struct device *d);
void ib_compat_devs_add(struct ib_device *ibdev);
void ib_compat_devs_del(struct ib_device *ibdev);
int rdma_netns_init_module(void);
void rdma_netns_exit_module(void);


/* netlink.c / nldev.c */
#define RDMA_NL_ADMIN	0x1	/* needs CAP_NET_ADMIN */

struct rdma_nl_cmd {
	int (*doit)(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack);
	int (*dump)(struct sk_buff *skb, struct netlink_callback *cb);
	u8 flags;
};

const struct rdma_nl_cmd *nldev_cmd(unsigned int op);
int nldev_parse(const struct nlmsghdr *nlh, struct nlattr **tb,
		struct netlink_ext_ack *extack);
struct ib_device *nldev_request_device(const struct net *net, struct nlattr **tb,
				       struct netlink_ext_ack *extack);
int nldev_fill_dev_handle(struct sk_buff *msg, struct ib_device *dev);
int nldev_reply(struct sk_buff *skb, struct nlmsghdr *nlh, unsigned int cmd,
		int (*fill)(struct sk_buff *msg, void *arg), void *arg);
/* nldev_res.c: RES_{QP,CQ,MR,PD,CTX,SRQ}_GET */
int nldev_res_obj_dump(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_obj_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 portid);
int rdma_nl_init(void);
void rdma_nl_exit(void);
void rdma_links_exit(void);

/* cache.c: per-port GID tables */
struct ib_gid_want {
	u8 gid[16];
	u8 type;		/* enum ib_gid_type */
};

int ib_cache_setup_one(struct ib_device *dev);
void ib_cache_cleanup_one(struct ib_device *dev);
bool ib_gid_cache_sync(struct ib_device *dev, u32 port, u32 ifindex,
		       bool has_default, const struct ib_gid_want *want, u32 n);

/* roce_gid_mgmt.c: RoCE GIDs from the bound netdev's addresses */
void roce_gid_rescan_device(struct ib_device *dev);
int roce_gid_mgmt_init(void);
void roce_gid_mgmt_exit(void);

/* sysfs.c: files under /sys/class/infiniband/<dev>/ */
int ib_sysfs_add_device_attrs(struct ib_device *dev, struct device *d);
void ib_sysfs_del_device_attrs(struct ib_device *dev, struct device *d);
struct ib_sysfs_ports *ib_sysfs_add_ports(struct ib_device *dev,
					  struct kobject *parent);
void ib_sysfs_del_ports(struct ib_sysfs_ports *ports);
/* sysfs_counters.c: ports/<N>/hw_counters/ */
struct ib_port_counters;
struct ib_port_counters *ib_sysfs_add_counters(struct ib_device *dev, u32 port,
					       struct kobject *parent);
void ib_sysfs_del_counters(struct ib_port_counters *c);

/*
 * device.c hooks (registration: after device_add, before the device is
 * REGISTERED; unregistration: after the last user, before device_del).
 */
int ib_device_setup_gids_and_sysfs(struct ib_device *dev);
void ib_device_cleanup_gids_and_sysfs(struct ib_device *dev);

/* restrack.c: per-device object tables ("rdma res") */
void rdma_restrack_init(struct ib_device *dev);
void rdma_restrack_clean(struct ib_device *dev);
int rdma_restrack_get(struct rdma_restrack_entry *res);
void rdma_restrack_put(struct rdma_restrack_entry *res);
struct rdma_restrack_entry *rdma_restrack_get_next(struct ib_device *device,
						   enum rdma_restrack_type type,
						   unsigned long *id);
struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *device,
						   enum rdma_restrack_type type,
						   u32 id);


/*
 * verbs*.c: a core-allocated driver object, never smaller than the ib_
 * struct itself (a driver may leave its size at 0).
 */
/*
 * A driver object; one a user asks for (@udata set) is charged to the
 * caller's memory cgroup.
 */
#define ib_zalloc_obj(dev, ib_type, udata)				\
	((struct ib_type *)kzalloc(max_t(size_t, (dev)->ops.size_##ib_type, \
					 sizeof(struct ib_type)),	\
				   (udata) ? GFP_KERNEL_ACCOUNT : GFP_KERNEL))

/* the restrack owner a child object inherits: kernel name, or NULL (task) */
const char *ib_res_parent_name(const struct rdma_restrack_entry *parent);

#endif /* _IB_CORE_PRIV_H */
