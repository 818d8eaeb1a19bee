// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Verbs objects, part 4: address vectors and address handles.
 *
 * On a RoCE port an address vector is an IP conversation: the GRH is
 * mandatory, the source GID slot must hold a RoCEv2 entry (the only kind
 * this stack sends), and the destination MAC comes from the neighbour
 * table of the source GID's netdev namespace: multicast GIDs map directly,
 * addresses of this host take the owning netdev's MAC, anything else is
 * routed out of the source netdev and resolved by ARP / neighbour
 * discovery.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/inetdevice.h>
#include <linux/etherdevice.h>
#include <net/route.h>
#include <net/ip.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/if_inet6.h>
#include <net/neighbour.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include "core_priv.h"

/* How long a sleeping caller waits for ARP/ND to answer. */
#define AH_RESOLVE_WAIT_MS	2000
#define AH_RESOLVE_STEP_MS	20

static bool gid_is_v4mapped(const union ib_gid *gid)
{
	return ipv6_addr_v4mapped((const struct in6_addr *)gid->raw);
}

/* The hardware address of @n once valid, waiting for it if allowed. */
static int neigh_mac(struct neigh_table *tbl, const void *key,
		     struct net_device *ndev, u8 *mac, bool may_sleep)
{
	unsigned int waited = 0;
	struct neighbour *n;
	int ret = -EHOSTUNREACH;

	n = neigh_lookup(tbl, key, ndev);
	if (!n) {
		n = neigh_create(tbl, key, ndev);
		if (IS_ERR(n))
			return -EHOSTUNREACH;
	}
	neigh_event_send(n, NULL);
	for (;;) {
		u8 state = READ_ONCE(n->nud_state);

		if (state & NUD_VALID) {
			neigh_ha_snapshot((char *)mac, n, ndev);
			ret = 0;
			break;
		}
		if ((state & NUD_FAILED) || !may_sleep ||
		    waited >= AH_RESOLVE_WAIT_MS)
			break;
		msleep(AH_RESOLVE_STEP_MS);
		waited += AH_RESOLVE_STEP_MS;
	}
	neigh_release(n);
	return ret;
}

/* MAC of the netdev owning local address @owner, else of @ndev. */
static void local_mac(struct net_device *owner, struct net_device *ndev, u8 *mac)
{
	if (owner && !(owner->flags & IFF_LOOPBACK) &&
	    owner->addr_len == ETH_ALEN)
		ether_addr_copy(mac, owner->dev_addr);
	else
		ether_addr_copy(mac, ndev->dev_addr);
}

static int dmac_ipv4(struct net_device *ndev, const union ib_gid *sgid,
		     const union ib_gid *dgid, u8 *mac, bool may_sleep)
{
	struct net *net = dev_net(ndev);
	__be32 daddr = ((const struct in6_addr *)dgid->raw)->s6_addr32[3];
	__be32 saddr = ((const struct in6_addr *)sgid->raw)->s6_addr32[3];
	struct net_device *owner;
	struct flowi4 fl4 = {};
	struct rtable *rt;
	__be32 nh;
	int ret;

	if (ipv4_is_multicast(daddr)) {
		ip_eth_mc_map(daddr, (char *)mac);
		return 0;
	}
	owner = __ip_dev_find(net, daddr, true);
	if (owner) {
		local_mac(owner, ndev, mac);
		dev_put(owner);
		return 0;
	}
	fl4.daddr = daddr;
	fl4.saddr = saddr;
	fl4.flowi4_oif = ndev->ifindex;
	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return -EHOSTUNREACH;
	nh = rt_nexthop(rt, daddr);
	ret = neigh_mac(&arp_tbl, &nh, rt->dst.dev, mac, may_sleep);
	ip_rt_put(rt);
	return ret;
}

static struct net_device *ipv6_owner(struct net *net, const struct in6_addr *a)
{
	struct net_device *d, *found = NULL;

	rcu_read_lock();
	for_each_netdev_rcu(net, d) {
		if (ipv6_chk_addr(net, a, d, 1)) {
			dev_hold(d);
			found = d;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

static int dmac_ipv6(struct net_device *ndev, const union ib_gid *sgid,
		     const union ib_gid *dgid, u8 *mac, bool may_sleep)
{
	const struct in6_addr *d6 = (const struct in6_addr *)dgid->raw;
	struct net *net = dev_net(ndev);
	const struct in6_addr *nh;
	struct net_device *owner;
	struct flowi6 fl6 = {};
	struct dst_entry *dst;
	int ret;

	if (ipv6_addr_is_multicast(d6)) {
		ipv6_eth_mc_map(d6, (char *)mac);
		return 0;
	}
	owner = ipv6_owner(net, d6);
	if (owner) {
		local_mac(owner, ndev, mac);
		dev_put(owner);
		return 0;
	}
	fl6.daddr = *d6;
	fl6.saddr = *(const struct in6_addr *)sgid->raw;
	fl6.flowi6_oif = ndev->ifindex;
	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error) {
		dst_release(dst);
		ret = -EHOSTUNREACH;
	} else {
		nh = rt6_nexthop((struct rt6_info *)dst, d6);
		ret = neigh_mac(&nd_tbl, nh, dst->dev, mac, may_sleep);
		dst_release(dst);
	}
	/* a link-local GID names its MAC even when ND gets no answer */
	if (ret && ipv6_addr_type(d6) & IPV6_ADDR_LINKLOCAL &&
	    rdma_gid_eui64_to_mac(dgid->raw, mac))
		ret = 0;
	return ret;
}

static int roce_resolve_dmac(struct ib_device *device, struct rdma_ah_attr *ah,
			     bool may_sleep)
{
	const union ib_gid *sgid = &ah->sgid_attr.gid;
	const union ib_gid *dgid = &ah->grh.dgid;
	struct net_device *ndev, *owner;
	struct rdma_gid_entry local;
	int ret;

	ndev = dev_get_by_index(rdma_dev_net(device), ah->sgid_attr.ndev_ifindex);
	if (!ndev)
		return -ENODEV;
	if (gid_is_v4mapped(dgid) != gid_is_v4mapped(sgid)) {
		ret = -EINVAL;	/* IPv4 cannot talk to IPv6 */
	} else if (!rdma_find_gid_entry(device, dgid, IB_GID_TYPE_ROCE_UDP_ENCAP, 0,
					&local)) {
		/*
		 * One of our own GIDs (loopback traffic): the MAC of its
		 * netdev, without asking ARP/ND about an address that may
		 * still be tentative.
		 */
		owner = dev_get_by_index(rdma_dev_net(device), local.ndev_ifindex);
		local_mac(owner, ndev, ah->roce.dmac);
		if (owner)
			dev_put(owner);
		ret = 0;
	} else if (gid_is_v4mapped(dgid)) {
		ret = dmac_ipv4(ndev, sgid, dgid, ah->roce.dmac, may_sleep);
	} else {
		ret = dmac_ipv6(ndev, sgid, dgid, ah->roce.dmac, may_sleep);
	}
	dev_put(ndev);
	return ret;
}

static int resolve_ah_attr(struct ib_device *device, struct rdma_ah_attr *ah,
			   bool may_sleep)
{
	struct rdma_gid_entry entry;
	bool roce;
	int ret;

	if (!rdma_is_port_valid(device, ah->port_num))
		return -EINVAL;
	roce = rdma_port_get_link_layer(device, ah->port_num) ==
	       IB_LINK_LAYER_ETHERNET;
	ah->type = roce ? RDMA_AH_ATTR_TYPE_ROCE : RDMA_AH_ATTR_TYPE_IB;
	memset(&ah->sgid_attr, 0, sizeof(ah->sgid_attr));
	if (!(ah->ah_flags & IB_AH_GRH))
		return roce ? -EINVAL : 0;

	ret = rdma_query_gid_entry(device, ah->port_num, ah->grh.sgid_index,
				   &entry);
	if (ret)	/* -ENODATA: an empty slot, as upstream answers */
		return ret == -ENODATA ? ret : -EINVAL;
	if (roce && entry.gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	ah->sgid_attr.gid = entry.gid;
	ah->sgid_attr.gid_type = entry.gid_type;
	ah->sgid_attr.ndev_ifindex = entry.ndev_ifindex;
	if (!roce)
		return 0;
	return roce_resolve_dmac(device, ah, may_sleep);
}

int rdma_resolve_ah_attr(struct ib_device *device, struct rdma_ah_attr *ah_attr)
{
	might_sleep();
	return resolve_ah_attr(device, ah_attr, true);
}
EXPORT_SYMBOL(rdma_resolve_ah_attr);

static struct ib_ah *create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			       u32 flags, struct ib_udata *udata)
{
	struct ib_device *device = pd->device;
	struct rdma_ah_init_attr init = {
		.ah_attr = ah_attr,
		.flags = flags,
	};
	gfp_t gfp = (flags & RDMA_CREATE_AH_SLEEPABLE) ? GFP_KERNEL : GFP_ATOMIC;
	struct ib_ah *ah;
	int ret;

	if (!device->ops.create_ah)
		return (struct ib_ah *)ERR_PTR(-EOPNOTSUPP);
	ret = resolve_ah_attr(device, ah_attr,
			      flags & RDMA_CREATE_AH_SLEEPABLE);
	if (ret)
		return (struct ib_ah *)ERR_PTR(ret);
	ah = (struct ib_ah *)kzalloc(max_t(size_t, device->ops.size_ib_ah,
					   sizeof(*ah)), gfp);
	if (!ah)
		return (struct ib_ah *)ERR_PTR(-ENOMEM);
	ah->device = device;
	ah->pd = pd;
	ah->type = ah_attr->type;
	ret = device->ops.create_ah(ah, &init, udata);
	if (ret) {
		kfree(ah);
		return (struct ib_ah *)ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return ah;
}

struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags)
{
	return create_ah(pd, ah_attr, flags, NULL);
}
EXPORT_SYMBOL(rdma_create_ah);

struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata)
{
	return create_ah(pd, ah_attr, RDMA_CREATE_AH_SLEEPABLE, udata);
}
EXPORT_SYMBOL(rdma_create_user_ah);

int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata)
{
	struct ib_pd *pd = ah->pd;
	int ret;

	if (ah->device->ops.destroy_ah) {
		ret = ah->device->ops.destroy_ah(ah, flags);
		if (ret)
			return ret;
	}
	atomic_dec(&pd->usecnt);
	kfree(ah);
	return 0;
}
EXPORT_SYMBOL(rdma_destroy_ah_user);

/* A kernel AH cannot be busy: a failure here is a driver bug. */
void rdma_destroy_ah(struct ib_ah *ah, u32 flags)
{
	int ret = rdma_destroy_ah_user(ah, flags, NULL);

	WARN_ONCE(ret, "rdma_destroy_ah: driver refused to destroy a kernel AH (%d)\n", ret);
}
EXPORT_SYMBOL(rdma_destroy_ah);
