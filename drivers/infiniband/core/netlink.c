// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The NETLINK_RDMA socket: one kernel socket per network namespace, and
 * the dispatch of requests to the handlers of the NLDEV client (nldev.c)
 * through a table indexed by command.
 *
 * Message type = (client << 10) | command; there is no family header, the
 * attributes start right after struct nlmsghdr.  Dumps end with NLMSG_DONE
 * and no ACK; other requests get their reply and then the ACK (or an error
 * with an extack message) from netlink_rcv_skb().
 */
#include <linux/module.h>
#include <linux/netlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/rdma/rdma_netlink.h>

#include "core_priv.h"

static unsigned int rdma_nl_net_id;

struct rdma_nl_net {
	struct sock *nls;
};

static int rdma_nl_rcv_msg(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack)
{
	unsigned int client = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
	unsigned int op = RDMA_NL_GET_OP(nlh->nlmsg_type);
	const struct rdma_nl_cmd *cmd;

	if (client != RDMA_NL_NLDEV) {
		NL_SET_ERR_MSG(extack, "only the NLDEV client is implemented");
		return -EINVAL;
	}
	cmd = nldev_cmd(op);
	if (!cmd || (!cmd->doit && !cmd->dump)) {
		NL_SET_ERR_MSG(extack, "unknown or unsupported NLDEV command");
		return -EOPNOTSUPP;
	}
	if ((cmd->flags & RDMA_NL_ADMIN) &&
	    !netlink_capable(skb, CAP_NET_ADMIN))
		return -EPERM;

	if (nlh->nlmsg_flags & NLM_F_DUMP) {
		struct netlink_dump_control c = {
			.dump = cmd->dump,
			.module = THIS_MODULE,
		};

		if (!cmd->dump) {
			NL_SET_ERR_MSG(extack, "command cannot dump");
			return -EOPNOTSUPP;
		}
		/* -EINTR from here tells netlink_rcv_skb() not to ACK */
		return netlink_dump_start(skb->sk, skb, nlh, &c);
	}
	if (!cmd->doit) {
		NL_SET_ERR_MSG(extack, "command only dumps");
		return -EOPNOTSUPP;
	}
	return cmd->doit(skb, nlh, extack);
}

static void rdma_nl_rcv(struct sk_buff *skb)
{
	netlink_rcv_skb(skb, rdma_nl_rcv_msg);
}

int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 portid)
{
	struct rdma_nl_net *rnet = (struct rdma_nl_net *)net_generic(net, rdma_nl_net_id);

	return nlmsg_unicast(rnet->nls, skb, portid);
}

static int __net_init rdma_nl_net_init(struct net *net)
{
	struct rdma_nl_net *rnet = (struct rdma_nl_net *)net_generic(net, rdma_nl_net_id);
	struct netlink_kernel_cfg cfg = {
		.input = rdma_nl_rcv,
	};

	rnet->nls = netlink_kernel_create(net, NETLINK_RDMA, &cfg);
	return rnet->nls ? 0 : -ENOMEM;
}

static void __net_exit rdma_nl_net_exit(struct net *net)
{
	struct rdma_nl_net *rnet = (struct rdma_nl_net *)net_generic(net, rdma_nl_net_id);

	netlink_kernel_release(rnet->nls);
	rnet->nls = NULL;
}

static struct pernet_operations rdma_nl_net_ops = {
	.init = rdma_nl_net_init,
	.exit = rdma_nl_net_exit,
	.id = &rdma_nl_net_id,
	.size = sizeof(struct rdma_nl_net),
};

int rdma_nl_init(void)
{
	return register_pernet_subsys(&rdma_nl_net_ops);
}

void rdma_nl_exit(void)
{
	unregister_pernet_subsys(&rdma_nl_net_ops);
}

/* socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA) loads us */
MODULE_ALIAS_NET_PF_PROTO(PF_NETLINK, NETLINK_RDMA);
