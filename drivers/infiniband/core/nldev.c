// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * NLDEV, the RDMA netlink client that iproute2's "rdma" and libibverbs
 * talk to: device and port queries, link add/delete through registered
 * link types, rename, and the system (namespace mode) query.
 *
 * Every request attribute is validated against nldev_policy (exact sizes
 * for integers, NUL-terminated bounded strings); commands not implemented
 * yet answer EOPNOTSUPP with an extack message.
 */
#include <linux/module.h>
#include <linux/kdev_t.h>
#include <linux/kmod.h>
#include <linux/rwsem.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/rdma/rdma_netlink.h>
#include <rdma/rdma_netlink.h>

#include "core_priv.h"

#define LINK_TYPE_MAX	32
#define CHARDEV_TYPE_MAX 32

static const struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IB_DEVICE_NAME_MAX - 1 },
	[RDMA_NLDEV_ATTR_PORT_INDEX]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_NDEV_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IFNAMSIZ - 1 },
	[RDMA_NLDEV_ATTR_LINK_TYPE]	= { .type = NLA_NUL_STRING,
					    .len = LINK_TYPE_MAX - 1 },
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = { .type = NLA_U8 },
	[RDMA_NLDEV_NET_NS_FD]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE]	= { .type = NLA_NUL_STRING,
					    .len = CHARDEV_TYPE_MAX - 1 },
	[RDMA_NLDEV_ATTR_STAT_RES]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_LQPN]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_CQN]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_MRN]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_PDN]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_CTXN]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_SRQN]	= { .type = NLA_U32 },
};

/* Payload size of a fixed-size policy type, 0 for the others. */
static int fixed_len(u8 type)
{
	switch (type) {
	case NLA_U8:
		return sizeof(u8);
	case NLA_U16:
		return sizeof(u16);
	case NLA_U32:
		return sizeof(u32);
	case NLA_U64:
		return sizeof(u64);
	default:
		return 0;
	}
}

int nldev_parse(const struct nlmsghdr *nlh, struct nlattr **tb,
		struct netlink_ext_ack *extack)
{
	const struct nlattr *nla;
	int rem, want;

	/*
	 * Integers must have exactly their size.  The generic parser only
	 * warns in the kernel log about a wrong size (and about trailing
	 * bytes); refuse both here, quietly, with a message for the sender.
	 */
	if (nlh->nlmsg_len < NLMSG_HDRLEN)
		return -EINVAL;
	nlmsg_for_each_attr(nla, nlh, 0, rem) {
		if (nla_type(nla) >= RDMA_NLDEV_ATTR_MAX)
			continue;
		want = fixed_len(nldev_policy[nla_type(nla)].type);
		if (want && nla_len(nla) != want) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "attribute has the wrong size");
			return -EINVAL;
		}
	}
	/* so are bytes that do not form an attribute */
	if (rem > 0) {
		NL_SET_ERR_MSG(extack, "bytes left over after the attributes");
		return -EINVAL;
	}
	/* liberal about unknown attribute ids, strict about known ones */
	return nlmsg_parse_deprecated(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
				      nldev_policy, extack);
}

static int put_u64(struct sk_buff *msg, int attr, u64 value)
{
	return nla_put_u64_64bit(msg, attr, value, RDMA_NLDEV_ATTR_PAD);
}

static int fill_dev_handle(struct sk_buff *msg, struct ib_device *dev)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, dev->index) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME, dev->name))
		return -EMSGSIZE;
	return 0;
}

static const char *dev_protocol(struct ib_device *dev)
{
	u32 caps;

	if (!dev->port_data)
		return NULL;
	caps = dev->port_data[1].immutable.core_cap_flags;
	if (caps & (RDMA_CORE_CAP_PROT_ROCE | RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP))
		return "roce";
	if (caps & RDMA_CORE_CAP_PROT_IWARP)
		return "iw";
	if (caps & RDMA_CORE_CAP_PROT_IB)
		return "ib";
	return NULL;
}

static int fill_dev_info(struct sk_buff *msg, struct ib_device *dev)
{
	const char *proto = dev_protocol(dev);
	char fw[IB_FW_VERSION_NAME_MAX];

	if (fill_dev_handle(msg, dev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, dev->phys_port_cnt) ||
	    put_u64(msg, RDMA_NLDEV_ATTR_CAP_FLAGS, dev->attrs.device_cap_flags) ||
	    put_u64(msg, RDMA_NLDEV_ATTR_NODE_GUID, be64_to_cpu(dev->node_guid)) ||
	    put_u64(msg, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID,
		    be64_to_cpu(dev->attrs.sys_image_guid)) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, (u8)dev->node_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, 0))
		return -EMSGSIZE;
	if (proto && nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_PROTOCOL, proto))
		return -EMSGSIZE;
	/* "rdma dev" prints fw only when the attribute is there */
	ib_get_device_fw_str(dev, fw);
	if (fw[0] && nla_put_string(msg, RDMA_NLDEV_ATTR_FW_VERSION, fw))
		return -EMSGSIZE;
	return 0;
}

static int fill_port_info(struct sk_buff *msg, struct ib_device *dev, u32 port,
			  const struct net *net)
{
	struct ib_port_attr attr;
	struct net_device *ndev;
	int ret;

	ret = ib_query_port(dev, port, &attr);
	if (ret)
		return ret;
	if (fill_dev_handle(msg, dev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	if (rdma_port_get_link_layer(dev, port) == IB_LINK_LAYER_INFINIBAND) {
		if (put_u64(msg, RDMA_NLDEV_ATTR_CAP_FLAGS, attr.port_cap_flags) ||
		    put_u64(msg, RDMA_NLDEV_ATTR_SUBNET_PREFIX, attr.subnet_prefix) ||
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_LID, attr.lid) ||
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_SM_LID, attr.sm_lid) ||
		    nla_put_u8(msg, RDMA_NLDEV_ATTR_LMC, attr.lmc))
			return -EMSGSIZE;
	}
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_STATE, (u8)attr.state) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, attr.phys_state))
		return -EMSGSIZE;

	/* the netdev is named only to its own namespace */
	ndev = ib_device_get_netdev(dev, port);
	if (ndev) {
		if (net_eq(dev_net(ndev), net) &&
		    (nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX, ndev->ifindex) ||
		     nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME, ndev->name)))
			ret = -EMSGSIZE;
		dev_put(ndev);
	}
	return ret;
}

/* Reply to a doit: one message of type @cmd, then unicast it. */
static int reply(struct sk_buff *skb, struct nlmsghdr *nlh, unsigned int cmd,
		 int (*fill)(struct sk_buff *msg, void *arg), void *arg)
{
	struct sk_buff *msg;
	struct nlmsghdr *rh;
	int ret;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rh = nlmsg_put(msg, NETLINK_CB(skb).portid, nlh->nlmsg_seq,
		       RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0, 0);
	if (!rh) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ret = fill(msg, arg);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	nlmsg_end(msg, rh);
	return rdma_nl_unicast(sock_net(skb->sk), msg, NETLINK_CB(skb).portid);
}

/*
 * Device from the request's DEV_INDEX, with a use held; only devices the
 * requester's namespace may see exist for it.
 */
static struct ib_device *request_device(const struct net *net,
					struct nlattr **tb,
					struct netlink_ext_ack *extack)
{
	struct ib_device *dev;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		NL_SET_ERR_MSG(extack, "device index missing");
		return NULL;
	}
	dev = ib_device_get_by_index(net,
				     nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]));
	if (!dev)
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_DEV_INDEX],
				    "no such device");
	return dev;
}

/* Parse a doit request and get the device it names (a use held). */
static struct ib_device *parse_device_request(struct sk_buff *skb,
					     struct nlmsghdr *nlh,
					     struct nlattr **tb,
					     struct netlink_ext_ack *extack,
					     int *err)
{
	struct ib_device *dev;

	*err = nldev_parse(nlh, tb, extack);
	if (*err)
		return NULL;
	dev = request_device(sock_net(skb->sk), tb, extack);
	if (!dev)
		*err = -EINVAL;
	return dev;
}

/* ---- GET ---- */

static int fill_dev_cb(struct sk_buff *msg, void *arg)
{
	return fill_dev_info(msg, (struct ib_device *)arg);
}

static int nldev_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *dev;
	int ret;

	dev = parse_device_request(skb, nlh, tb, extack, &ret);
	if (!dev)
		return ret;
	ret = reply(skb, nlh, RDMA_NLDEV_CMD_GET, fill_dev_cb, dev);
	ib_device_put(dev);
	return ret;
}

/*
 * A dump of one @cmd message per device the requester's namespace may
 * see, filled by @fill; resumes at cb->args[0] (a device index).
 */
static int dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
			unsigned int cmd,
			int (*fill)(struct sk_buff *msg, struct ib_device *dev))
{
	unsigned long index = cb->args[0];
	struct ib_device *dev;

	for (; (dev = ib_device_get_next(&index)); index++) {
		struct nlmsghdr *nlh;
		bool full = false;

		if (rdma_dev_access_netns(dev, sock_net(skb->sk))) {
			nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq,
					RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
					0, NLM_F_MULTI);
			full = !nlh || fill(skb, dev);
			if (full && nlh)
				nlmsg_cancel(skb, nlh);
			else if (!full)
				nlmsg_end(skb, nlh);
		}
		ib_device_put(dev);
		if (full)
			break;
	}
	cb->args[0] = index;
	return skb->len;
}

static int nldev_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return dump_devices(skb, cb, RDMA_NLDEV_CMD_GET, fill_dev_info);
}

/* ---- PORT_GET ---- */

struct port_req {
	struct ib_device *dev;
	u32 port;
	const struct net *net;
};

static int fill_port_cb(struct sk_buff *msg, void *arg)
{
	struct port_req *req = (struct port_req *)arg;

	return fill_port_info(msg, req->dev, req->port, req->net);
}

static int nldev_port_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct port_req req;
	int ret;

	ret = nldev_parse(nlh, tb, extack);
	if (ret)
		return ret;
	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		NL_SET_ERR_MSG(extack, "port index missing");
		return -EINVAL;
	}
	req.dev = request_device(sock_net(skb->sk), tb, extack);
	if (!req.dev)
		return -EINVAL;
	req.port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	req.net = sock_net(skb->sk);
	if (!rdma_is_port_valid(req.dev, req.port)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "no such port");
		ret = -EINVAL;
	} else {
		ret = reply(skb, nlh, RDMA_NLDEV_CMD_PORT_GET, fill_port_cb, &req);
	}
	ib_device_put(req.dev);
	return ret;
}

/* Ports of the device named by DEV_INDEX; cb->args[0] = next port. */
static int nldev_port_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *dev;
	u32 port;

	if (nldev_parse(cb->nlh, tb, NULL))
		return -EINVAL;
	dev = request_device(sock_net(skb->sk), tb, NULL);
	if (!dev)
		return -EINVAL;
	for (port = max_t(u32, cb->args[0], 1); port <= dev->phys_port_cnt; port++) {
		struct nlmsghdr *nlh;

		nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq,
				RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET),
				0, NLM_F_MULTI);
		if (!nlh || fill_port_info(skb, dev, port, sock_net(skb->sk))) {
			if (nlh)
				nlmsg_cancel(skb, nlh);
			break;
		}
		nlmsg_end(skb, nlh);
	}
	cb->args[0] = port;
	ib_device_put(dev);
	return skb->len;
}

/* ---- SET (rename, netns) ---- */

/* "rdma dev set DEV netns NS": @fd is the tool's open /run/netns/NS. */
static int set_netns_put(struct sk_buff *skb, struct ib_device *dev,
			 struct nlattr *fd_attr,
			 struct netlink_ext_ack *extack)
{
	struct net *net;
	int ret = -EOPNOTSUPP;

	if (rdma_netns_shared()) {
		NL_SET_ERR_MSG(extack,
			       "devices move between namespaces only in exclusive mode (rdma system set netns exclusive)");
	} else if (dev->attrs.kernel_cap_flags & IBK_NETNS_FOLLOWS_NETDEV) {
		NL_SET_ERR_MSG(extack,
			       "this device follows its netdev: move the netdev (ip link set IF netns NS)");
	} else if (!(dev->attrs.kernel_cap_flags & IBK_ALLOW_NETNS_CHANGE)) {
		NL_SET_ERR_MSG(extack, "this driver cannot move its devices");
	} else {
		ret = 0;
	}
	if (ret) {
		ib_device_put(dev);
		return ret;
	}

	net = get_net_ns_by_fd(nla_get_u32(fd_attr));
	if (IS_ERR(net)) {
		NL_SET_ERR_MSG_ATTR(extack, fd_attr, "not a network namespace");
		ib_device_put(dev);
		return PTR_ERR(net);
	}
	if (!netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack, "no CAP_NET_ADMIN in the target namespace");
		ret = -EPERM;
		ib_device_put(dev);
	} else {
		ret = ib_device_move_net_put(dev, net);
		if (ret)
			NL_SET_ERR_MSG(extack, "the device could not be moved");
	}
	put_net(net);
	return ret;
}

static int nldev_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *dev;
	int ret;

	dev = parse_device_request(skb, nlh, tb, extack, &ret);
	if (!dev)
		return ret;
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME]) {
		ret = ib_device_rename(dev, (const char *)nla_data(tb[RDMA_NLDEV_ATTR_DEV_NAME]));
		if (ret)
			NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_DEV_NAME],
					    "cannot rename to this name");
	} else if (tb[RDMA_NLDEV_NET_NS_FD]) {
		/* consumes our use of dev */
		return set_netns_put(skb, dev, tb[RDMA_NLDEV_NET_NS_FD],
				     extack);
	} else {
		NL_SET_ERR_MSG(extack, "nothing to set");
		ret = -EINVAL;
	}
	ib_device_put(dev);
	return ret;
}

/* ---- link types ---- */

static LIST_HEAD(link_ops);
static DECLARE_RWSEM(link_ops_rwsem);

static struct rdma_link_ops *find_link_ops(const char *type)
{
	struct rdma_link_ops *ops;

	list_for_each_entry(ops, &link_ops, list)
		if (!strcmp(ops->type, type))
			return ops;
	return NULL;
}

void rdma_link_register(struct rdma_link_ops *ops)
{
	down_write(&link_ops_rwsem);
	if (!WARN_ON(find_link_ops(ops->type)))
		list_add(&ops->list, &link_ops);
	up_write(&link_ops_rwsem);
}
EXPORT_SYMBOL(rdma_link_register);

/* Waits for newlink() calls of this type still running. */
void rdma_link_unregister(struct rdma_link_ops *ops)
{
	down_write(&link_ops_rwsem);
	list_del_init(&ops->list);
	up_write(&link_ops_rwsem);
}
EXPORT_SYMBOL(rdma_link_unregister);

void rdma_links_exit(void)
{
	WARN_ON(!list_empty(&link_ops));
}

static int nldev_newlink(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	char name[IB_DEVICE_NAME_MAX], type[LINK_TYPE_MAX], ifname[IFNAMSIZ];
	struct rdma_link_ops *ops;
	struct net_device *ndev;
	int ret;

	ret = nldev_parse(nlh, tb, extack);
	if (ret)
		return ret;
	if (!tb[RDMA_NLDEV_ATTR_DEV_NAME] || !tb[RDMA_NLDEV_ATTR_LINK_TYPE] ||
	    !tb[RDMA_NLDEV_ATTR_NDEV_NAME]) {
		NL_SET_ERR_MSG(extack, "name, link type and netdev are required");
		return -EINVAL;
	}
	nla_strscpy(name, tb[RDMA_NLDEV_ATTR_DEV_NAME], sizeof(name));
	nla_strscpy(type, tb[RDMA_NLDEV_ATTR_LINK_TYPE], sizeof(type));
	nla_strscpy(ifname, tb[RDMA_NLDEV_ATTR_NDEV_NAME], sizeof(ifname));
	if (strchr(name, '%') || ib_device_check_name(name)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_DEV_NAME],
				    "invalid device name");
		return -EINVAL;
	}

	ndev = dev_get_by_name(sock_net(skb->sk), ifname);
	if (!ndev) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_NDEV_NAME],
				    "no such netdev in this namespace");
		return -ENODEV;
	}

	down_read(&link_ops_rwsem);
	ops = find_link_ops(type);
	if (!ops) {
		up_read(&link_ops_rwsem);
		request_module("rdma-link-%s", type);
		down_read(&link_ops_rwsem);
		ops = find_link_ops(type);
	}
	if (ops) {
		ret = ops->newlink(name, ndev);
	} else {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_LINK_TYPE],
				    "unknown link type");
		ret = -EINVAL;
	}
	up_read(&link_ops_rwsem);
	dev_put(ndev);
	return ret;
}

static int nldev_dellink(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct module *owner;
	struct ib_device *dev;
	int ret;

	dev = parse_device_request(skb, nlh, tb, extack, &ret);
	if (!dev)
		return ret;
	if (!(dev->attrs.kernel_cap_flags & IBK_ALLOW_USER_UNREG)) {
		NL_SET_ERR_MSG(extack, "this device cannot be deleted by users");
		ib_device_put(dev);
		return -EINVAL;
	}
	/* the driver's dealloc_driver runs below: keep its module */
	owner = dev->ops.owner;
	if (!try_module_get(owner)) {
		ib_device_put(dev);
		return -ENODEV;
	}
	ib_unregister_device_and_put(dev);
	module_put(owner);
	return 0;
}

/* ---- SYS ---- */

static int fill_sys_cb(struct sk_buff *msg, void *arg)
{
	if (nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_NETNS_MODE,
		       rdma_netns_shared() ? 1 : 0) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1))
		return -EMSGSIZE;
	return 0;
}

static int nldev_sys_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	int ret;

	ret = nldev_parse(nlh, tb, extack);
	if (ret)
		return ret;
	return reply(skb, nlh, RDMA_NLDEV_CMD_SYS_GET, fill_sys_cb, NULL);
}

static int nldev_sys_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	u8 mode;
	int ret;

	ret = nldev_parse(nlh, tb, extack);
	if (ret)
		return ret;
	if (!tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) {
		NL_SET_ERR_MSG(extack, "netns mode missing");
		return -EINVAL;
	}
	mode = nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]);
	if (mode > 1) {
		NL_SET_ERR_MSG(extack, "netns mode is 0 (exclusive) or 1 (shared)");
		return -EINVAL;
	}
	ret = rdma_set_netns_shared(mode == 1);
	if (ret == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "the mode changes only while no other network namespace exists");
	return ret;
}

/* ---- RES: resource summary and per-object dumps ---- */

/* What "rdma res" lists, in the order it prints them (no counters). */
static const struct {
	enum rdma_restrack_type type;
	const char *label;
} res_summary[] = {
	{ RDMA_RESTRACK_PD, "pd" },	{ RDMA_RESTRACK_CQ, "cq" },
	{ RDMA_RESTRACK_QP, "qp" },	{ RDMA_RESTRACK_CM_ID, "cm_id" },
	{ RDMA_RESTRACK_MR, "mr" },	{ RDMA_RESTRACK_CTX, "ctx" },
	{ RDMA_RESTRACK_SRQ, "srq" },
};

static int fill_res_summary(struct sk_buff *msg, struct ib_device *dev)
{
	struct nlattr *table, *entry;
	size_t i;

	if (fill_dev_handle(msg, dev))
		return -EMSGSIZE;
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(res_summary); i++) {
		entry = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
		if (!entry ||
		    nla_put_string(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME,
				   res_summary[i].label) ||
		    put_u64(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR,
			    (u64)rdma_restrack_count(dev, res_summary[i].type,
							 false))) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, entry);
	}
	nla_nest_end(msg, table);
	return 0;
}

static int fill_res_cb(struct sk_buff *msg, void *arg)
{
	return fill_res_summary(msg, (struct ib_device *)arg);
}

static int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *dev;
	int ret;

	dev = parse_device_request(skb, nlh, tb, extack, &ret);
	if (!dev)
		return ret;
	ret = reply(skb, nlh, RDMA_NLDEV_CMD_RES_GET, fill_res_cb, dev);
	ib_device_put(dev);
	return ret;
}

/* "rdma res": one summary per visible device. */
static int nldev_res_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return dump_devices(skb, cb, RDMA_NLDEV_CMD_RES_GET, fill_res_summary);
}

/* For the per-object dumps (nldev_res.c). */
struct ib_device *nldev_request_device(const struct net *net, struct nlattr **tb,
				       struct netlink_ext_ack *extack)
{
	return request_device(net, tb, extack);
}

int nldev_fill_dev_handle(struct sk_buff *msg, struct ib_device *dev)
{
	return fill_dev_handle(msg, dev);
}

int nldev_reply(struct sk_buff *skb, struct nlmsghdr *nlh, unsigned int cmd,
		int (*fill)(struct sk_buff *msg, void *arg), void *arg)
{
	return reply(skb, nlh, cmd, fill, arg);
}

/* ---- STAT: port hardware counters ---- */

struct stat_req {
	struct ib_device *dev;
	u32 port;
	u64 *values;
};

static int fill_stat_cb(struct sk_buff *msg, void *arg)
{
	struct stat_req *req = (struct stat_req *)arg;
	struct nlattr *table, *entry;
	u32 i;

	if (fill_dev_handle(msg, req->dev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port))
		return -EMSGSIZE;
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < req->dev->ops.num_port_stats; i++) {
		entry = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		if (!entry ||
		    nla_put_string(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
				   req->dev->ops.port_stats[i].name) ||
		    put_u64(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
			    req->values[i])) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, entry);
	}
	nla_nest_end(msg, table);
	return 0;
}

static int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct stat_req req = {};
	int ret;

	req.dev = parse_device_request(skb, nlh, tb, extack, &ret);
	if (!req.dev)
		return ret;
	if (tb[RDMA_NLDEV_ATTR_STAT_RES]) {
		NL_SET_ERR_MSG(extack, "per-QP counters are not supported");
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX] ||
	    !rdma_is_port_valid(req.dev,
				nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]))) {
		NL_SET_ERR_MSG(extack, "a valid port index is required");
		ret = -EINVAL;
		goto out;
	}
	req.port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (!req.dev->ops.get_hw_stats || !req.dev->ops.num_port_stats) {
		NL_SET_ERR_MSG(extack, "this device has no port counters");
		ret = -EINVAL;
		goto out;
	}
	req.values = (u64 *)kcalloc(req.dev->ops.num_port_stats, sizeof(u64),
			     GFP_KERNEL);
	if (!req.values) {
		ret = -ENOMEM;
		goto out;
	}
	ret = req.dev->ops.get_hw_stats(req.dev, req.port, req.values,
					req.dev->ops.num_port_stats);
	if (!ret)
		ret = reply(skb, nlh, RDMA_NLDEV_CMD_STAT_GET, fill_stat_cb, &req);
	kfree(req.values);
out:
	ib_device_put(req.dev);
	return ret;
}

/* ---- GET_CHARDEV ---- */

struct chardev_req {
	struct ib_device *dev;		/* NULL: a client without devices */
	char type[CHARDEV_TYPE_MAX];
	u32 port;
};

static int fill_chardev_cb(struct sk_buff *msg, void *arg)
{
	struct chardev_req *req = (struct chardev_req *)arg;
	struct ib_client_nl_info info = { .nl_msg = msg, .port = req->port };
	int ret;

	ret = ib_get_client_nl_info(req->dev, req->type, &info);
	if (ret)
		return ret;
	if (put_u64(msg, RDMA_NLDEV_ATTR_CHARDEV, huge_encode_dev(info.cdev->devt)) ||
	    put_u64(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI, info.abi) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME, dev_name(info.cdev)))
		ret = -EMSGSIZE;
	put_device(info.cdev);
	return ret;
}

/* Which char device serves client CHARDEV_TYPE on DEV_INDEX (if given). */
static int nldev_get_chardev(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct chardev_req req = { .dev = NULL };
	int ret;

	ret = nldev_parse(nlh, tb, extack);
	if (ret)
		return ret;
	if (!tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE]) {
		NL_SET_ERR_MSG(extack, "char device type missing");
		return -EINVAL;
	}
	nla_strscpy(req.type, tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE], sizeof(req.type));
	if (tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		req.dev = request_device(sock_net(skb->sk), tb, extack);
		if (!req.dev)
			return -EINVAL;
	}
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		req.port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
		if (!req.dev || !rdma_is_port_valid(req.dev, req.port)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
					    "no such port");
			ret = -EINVAL;
		}
	}
	if (!ret) {
		ret = reply(skb, nlh, RDMA_NLDEV_CMD_GET_CHARDEV, fill_chardev_cb, &req);
		if (ret == -EOPNOTSUPP)
			NL_SET_ERR_MSG(extack, "no such char device client");
	}
	if (req.dev)
		ib_device_put(req.dev);
	return ret;
}

/* ---- table ---- */

static const struct rdma_nl_cmd nldev_cmds[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = {
		.doit = nldev_get_doit, .dump = nldev_get_dump,
	},
	[RDMA_NLDEV_CMD_SET] = {
		.doit = nldev_set_doit, .flags = RDMA_NL_ADMIN,
	},
	[RDMA_NLDEV_CMD_NEWLINK] = {
		.doit = nldev_newlink, .flags = RDMA_NL_ADMIN,
	},
	[RDMA_NLDEV_CMD_DELLINK] = {
		.doit = nldev_dellink, .flags = RDMA_NL_ADMIN,
	},
	[RDMA_NLDEV_CMD_PORT_GET] = {
		.doit = nldev_port_get_doit, .dump = nldev_port_get_dump,
	},
	[RDMA_NLDEV_CMD_SYS_GET] = {
		.doit = nldev_sys_get_doit,
	},
	[RDMA_NLDEV_CMD_SYS_SET] = {
		.doit = nldev_sys_set_doit, .flags = RDMA_NL_ADMIN,
	},
	[RDMA_NLDEV_CMD_RES_GET] = {
		.doit = nldev_res_get_doit, .dump = nldev_res_get_dump,
	},
	[RDMA_NLDEV_CMD_RES_QP_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_RES_CQ_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_RES_MR_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_RES_PD_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_RES_CTX_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_RES_SRQ_GET] = {
		.doit = nldev_res_obj_doit, .dump = nldev_res_obj_dump,
	},
	[RDMA_NLDEV_CMD_STAT_GET] = {
		.doit = nldev_stat_get_doit,
	},
	[RDMA_NLDEV_CMD_GET_CHARDEV] = {
		.doit = nldev_get_chardev,
	},
};

const struct rdma_nl_cmd *nldev_cmd(unsigned int op)
{
	if (op >= RDMA_NLDEV_NUM_OPS)
		return NULL;
	return &nldev_cmds[op];
}
