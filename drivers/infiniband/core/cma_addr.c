// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm addresses: bind, address resolution through the ID's
 * namespace (route, then neighbour, polled until the caller's timeout),
 * and the choice of the RoCE device: the one whose port netdev is the
 * egress (or owner) of the address and whose GID table holds the source
 * address as a RoCE v2 GID.
 */
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <net/route.h>
#include <net/ip6_route.h>
#include <net/addrconf.h>
#include <net/neighbour.h>
#include <rdma/ib_cache.h>
#include "cma_priv.h"

#define CMA_ADDR_POLL_MS	10

bool cma_any_addr(const struct sockaddr *a)
{
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr == 0;
	if (a->sa_family == AF_INET6)
		return ipv6_addr_any(&((const struct sockaddr_in6 *)a)->sin6_addr);
	return true;
}

/* same family and IP (ports not compared) */
bool cma_addr_eq(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr);
}

__be16 cma_port_of(const struct sockaddr *a)
{
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_port;
	if (a->sa_family == AF_INET6)
		return ((const struct sockaddr_in6 *)a)->sin6_port;
	return 0;
}

void cma_set_port(struct sockaddr *a, __be16 port)
{
	if (a->sa_family == AF_INET)
		((struct sockaddr_in *)a)->sin_port = port;
	else if (a->sa_family == AF_INET6)
		((struct sockaddr_in6 *)a)->sin6_port = port;
}

void cma_addr_to_gid(const struct sockaddr *a, union ib_gid *gid)
{
	struct in6_addr *g = (struct in6_addr *)gid->raw;

	if (a->sa_family == AF_INET)
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)a)->sin_addr.s_addr,
				       g);
	else
		*g = ((const struct sockaddr_in6 *)a)->sin6_addr;
}

static size_t cma_addr_size(const struct sockaddr *a)
{
	return a->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
					 sizeof(struct sockaddr_in6);
}

/* The netdev of @net that owns @a (held), or NULL. */
static struct net_device *cma_addr_owner(struct net *net,
					 const struct sockaddr *a, int ifindex)
{
	struct net_device *ndev, *found = NULL;

	if (a->sa_family == AF_INET)
		return ip_dev_find(net,
				   ((const struct sockaddr_in *)a)->sin_addr.s_addr);
	rcu_read_lock();
	for_each_netdev_rcu(net, ndev) {
		if (ifindex && ndev->ifindex != ifindex)
			continue;
		if (ipv6_chk_addr(net,
				  &((const struct sockaddr_in6 *)a)->sin6_addr,
				  ndev, 1)) {
			found = ndev;
			dev_hold(found);
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * Attach @p to the device whose port netdev is @ndev and whose GID table
 * holds @a as a RoCE v2 GID.  -ENODEV if none.
 */
static int cma_acquire_dev(struct rdma_id_private *p, const struct sockaddr *a,
			   struct net_device *ndev)
{
	struct rdma_gid_entry e;
	struct cma_device *cd;
	union ib_gid gid;
	int ret = -ENODEV;
	u32 port;

	cma_addr_to_gid(a, &gid);
	mutex_lock(&cma_lock);
	list_for_each_entry(cd, &cma_dev_list, node) {
		if (cd->removing || !rdma_dev_access_netns(cd->device, p->net))
			continue;
		rdma_for_each_port(cd->device, port) {
			struct net_device *pdev;
			bool same;

			if (!rdma_cap_ib_cm(cd->device, port))
				continue;
			pdev = ib_device_get_netdev(cd->device, port);
			same = pdev == ndev;
			if (pdev)
				dev_put(pdev);
			if (!same)
				continue;
			if (rdma_find_gid_entry(cd->device, &gid,
						IB_GID_TYPE_ROCE_UDP_ENCAP, port, &e))
				continue;
			ret = cma_attach_dev_locked(p, cd, port, (u8)e.index);
			goto out;
		}
	}
out:
	mutex_unlock(&cma_lock);
	return ret;
}

/*
 * Bind-time device choice: the owner of @a in the ID's namespace.
 * -EADDRNOTAVAIL if nobody owns it, -ENODEV if no RoCE device is on it.
 */
int cma_acquire_dev_by_addr(struct rdma_id_private *p,
			    const struct sockaddr *a, int ifindex)
{
	struct net_device *ndev;
	int ret;

	ndev = cma_addr_owner(p->net, a, ifindex);
	if (!ndev)
		return -EADDRNOTAVAIL;
	ret = cma_acquire_dev(p, a, ndev);
	if (!ret) {
		p->id.route.addr.dev_addr.bound_dev_if = ndev->ifindex;
		p->id.route.addr.dev_addr.dev_type = ndev->type;
		memcpy(p->id.route.addr.dev_addr.src_dev_addr, ndev->dev_addr,
		       min_t(size_t, ndev->addr_len, MAX_ADDR_LEN));
	}
	dev_put(ndev);
	return ret;
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	int ifindex = 0;
	int ret;

	if (!addr || (addr->sa_family != AF_INET &&
		      addr->sa_family != AF_INET6))
		return -EAFNOSUPPORT;
	if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)addr;

		if (ipv6_addr_type(&s6->sin6_addr) & IPV6_ADDR_LINKLOCAL) {
			if (!s6->sin6_scope_id)
				return -EINVAL;
			ifindex = (int)s6->sin6_scope_id;
		}
	}
	if (cma_step(p, RDMA_CM_OP_BIND, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	memset(cma_src(p), 0, sizeof(p->id.route.addr.src_addr));
	memcpy(cma_src(p), addr, cma_addr_size(addr));
	p->id.route.addr.dev_addr.bound_dev_if = ifindex;
	if (!p->afonly_set) {
		if (addr->sa_family == AF_INET)
			p->afonly = 1;
#if IS_ENABLED(CONFIG_IPV6)
		else
			p->afonly = p->net->ipv6.sysctl.bindv6only;
#endif
	}
	if (!cma_any_addr(addr)) {
		ret = cma_acquire_dev_by_addr(p, addr, ifindex);
		if (ret)
			goto err;
	}
	ret = cma_bind_port(p);
	if (ret)
		goto err_dev;
	return 0;
err_dev:
	cma_detach_dev(p);
err:
	memset(cma_src(p), 0, sizeof(p->id.route.addr.src_addr));
	cma_step(p, RDMA_CM_OP_UNDO_BIND, 0, &act);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_bind_addr);

/* ---------------------------------------------------- address resolution */

/* The route's result: egress netdev (held), source IP, neighbour MAC */
struct cma_route {
	struct net_device *ndev;
	struct sockaddr_storage src;
	u8 dmac[ETH_ALEN];
	int hoplimit;
};

static int cma_neigh(struct dst_entry *dst, const void *daddr,
		     struct net_device *ndev, u8 *dmac)
{
	struct neighbour *n;
	int ret = 0;

	n = dst_neigh_lookup(dst, daddr);
	if (!n)
		return -ENOMEM;
	if (n->nud_state & NUD_VALID) {
		neigh_ha_snapshot((char *)dmac, n, ndev);
	} else {
		neigh_event_send(n, NULL);
		ret = -EAGAIN;
	}
	neigh_release(n);
	return ret;
}

static int cma_route4(struct rdma_id_private *p, struct cma_route *r)
{
	struct sockaddr_in *src = (struct sockaddr_in *)&r->src;
	struct sockaddr_in *dst = (struct sockaddr_in *)cma_dst(p);
	struct flowi4 fl4 = {};
	struct rtable *rt;
	int ret = 0;

	fl4.daddr = dst->sin_addr.s_addr;
	fl4.saddr = ((struct sockaddr_in *)cma_src(p))->sin_addr.s_addr;
	fl4.flowi4_oif = p->id.route.addr.dev_addr.bound_dev_if;
	rt = ip_route_output_key(p->net, &fl4);
	if (IS_ERR(rt))
		return (int)PTR_ERR(rt);
	src->sin_family = AF_INET;
	src->sin_addr.s_addr = fl4.saddr;
	r->hoplimit = ip4_dst_hoplimit(&rt->dst);
	if (rt->rt_type == RTN_LOCAL || (rt->dst.dev->flags & IFF_LOOPBACK)) {
		/* one of our own addresses: the netdev that owns it */
		r->ndev = ip_dev_find(p->net, fl4.daddr);
		if (!r->ndev)
			ret = -ENODEV;
		else
			memcpy(r->dmac, r->ndev->dev_addr, ETH_ALEN);
	} else {
		r->ndev = rt->dst.dev;
		dev_hold(r->ndev);
		ret = cma_neigh(&rt->dst, &fl4.daddr, r->ndev, r->dmac);
	}
	ip_rt_put(rt);
	return ret;
}

#if IS_ENABLED(CONFIG_IPV6)
static int cma_route6(struct rdma_id_private *p, struct cma_route *r)
{
	struct sockaddr_in6 *src = (struct sockaddr_in6 *)&r->src;
	struct sockaddr_in6 *dst = (struct sockaddr_in6 *)cma_dst(p);
	struct flowi6 fl6 = {};
	struct dst_entry *de;
	int ret = 0;

	fl6.daddr = dst->sin6_addr;
	fl6.saddr = ((struct sockaddr_in6 *)cma_src(p))->sin6_addr;
	fl6.flowi6_oif = p->id.route.addr.dev_addr.bound_dev_if;
	if (!fl6.flowi6_oif && (ipv6_addr_type(&fl6.daddr) & IPV6_ADDR_LINKLOCAL))
		fl6.flowi6_oif = (int)dst->sin6_scope_id;
	de = ip6_route_output(p->net, NULL, &fl6);
	ret = de->error;
	if (ret)
		goto out;
	if (ipv6_addr_any(&fl6.saddr)) {
		ret = ipv6_dev_get_saddr(p->net, ip6_dst_idev(de)->dev,
					 &fl6.daddr, 0, &fl6.saddr);
		if (ret)
			goto out;
	}
	src->sin6_family = AF_INET6;
	src->sin6_addr = fl6.saddr;
	src->sin6_scope_id = ((struct sockaddr_in6 *)cma_src(p))->sin6_scope_id;
	r->hoplimit = ip6_dst_hoplimit(de);
	if (de->dev->flags & IFF_LOOPBACK) {
		r->ndev = cma_addr_owner(p->net, cma_dst(p), 0);
		if (!r->ndev)
			ret = -ENODEV;
		else
			memcpy(r->dmac, r->ndev->dev_addr, ETH_ALEN);
	} else {
		r->ndev = de->dev;
		dev_hold(r->ndev);
		ret = cma_neigh(de, &fl6.daddr, r->ndev, r->dmac);
	}
out:
	dst_release(de);
	return ret;
}
#else
static int cma_route6(struct rdma_id_private *p, struct cma_route *r)
{
	return -EAFNOSUPPORT;
}
#endif

/*
 * One attempt: -EAGAIN while the neighbour is being resolved.  On
 * success the source address, the device and the MACs are set.
 */
static int cma_resolve_once(struct rdma_id_private *p)
{
	struct rdma_dev_addr *da = &p->id.route.addr.dev_addr;
	struct cma_route r = {};
	__be16 port = cma_port_of(cma_src(p));
	int ret;

	if (cma_dst(p)->sa_family == AF_INET)
		ret = cma_route4(p, &r);
	else
		ret = cma_route6(p, &r);
	if (ret)
		goto out;
	cma_set_port((struct sockaddr *)&r.src, port);
	if (!p->cma_dev) {
		ret = cma_acquire_dev(p, (struct sockaddr *)&r.src, r.ndev);
		if (ret)
			goto out;
	}
	memcpy(cma_src(p), &r.src, cma_addr_size((struct sockaddr *)&r.src));
	memcpy(p->dmac, r.dmac, ETH_ALEN);
	memcpy(da->dst_dev_addr, r.dmac, ETH_ALEN);
	memcpy(da->src_dev_addr, r.ndev->dev_addr,
	       min_t(size_t, r.ndev->addr_len, MAX_ADDR_LEN));
	da->dev_type = r.ndev->type;
	da->bound_dev_if = r.ndev->ifindex;
	da->hoplimit = r.hoplimit;
out:
	if (r.ndev)
		dev_put(r.ndev);
	return ret;
}

void cma_addr_work(struct work_struct *w)
{
	struct rdma_id_private *p = container_of(to_delayed_work(w),
						 struct rdma_id_private,
						 addr_work);
	int ret;

	mutex_lock(&p->handler_mutex);
	if (cma_state(p) != RDMA_CM_ADDR_QUERY)
		goto out;
	ret = cma_resolve_once(p);
	if (ret == -EAGAIN) {
		if (time_before(jiffies, p->addr_deadline)) {
			queue_delayed_work(cma_wq, &p->addr_work,
					   msecs_to_jiffies(CMA_ADDR_POLL_MS));
			goto out;
		}
		ret = -ETIMEDOUT;
	}
	cma_report(p, ret ? RDMA_CM_IN_ADDR_FAIL : RDMA_CM_IN_ADDR_OK, ret);
out:
	mutex_unlock(&p->handler_mutex);
}

/* Destroy or device removal: no resolution work runs after this. */
void cma_cancel_addr(struct rdma_id_private *p)
{
	cancel_delayed_work_sync(&p->addr_work);
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr,
		      unsigned long timeout_ms)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	unsigned long flags;
	int ret;

	if (!dst_addr || (dst_addr->sa_family != AF_INET &&
			  dst_addr->sa_family != AF_INET6))
		return -EAFNOSUPPORT;
	if (cma_state(p) == RDMA_CM_IDLE) {
		struct sockaddr_storage any = {};

		if (src_addr) {
			ret = rdma_bind_addr(id, src_addr);
		} else {
			any.ss_family = dst_addr->sa_family;
			if (dst_addr->sa_family == AF_INET6)
				((struct sockaddr_in6 *)&any)->sin6_scope_id =
					((const struct sockaddr_in6 *)dst_addr)->sin6_scope_id;
			ret = rdma_bind_addr(id, (struct sockaddr *)&any);
		}
		if (ret)
			return ret;
	}
	if (cma_src(p)->sa_family != dst_addr->sa_family)
		return -EINVAL;
	if (cma_any_addr(dst_addr))
		return -EINVAL;
	if (cma_step(p, RDMA_CM_OP_RESOLVE_ADDR, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	spin_lock_irqsave(&p->lock, flags);
	memset(cma_dst(p), 0, sizeof(p->id.route.addr.dst_addr));
	memcpy(cma_dst(p), dst_addr, cma_addr_size(dst_addr));
	p->addr_deadline = jiffies + msecs_to_jiffies(timeout_ms ?: 1);
	spin_unlock_irqrestore(&p->lock, flags);
	queue_delayed_work(cma_wq, &p->addr_work, 0);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_resolve_addr);

void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid)
{
	struct rdma_id_private *p = cma_priv(cm_id);

	if (sgid) {
		if (p->path.port_num && cm_id->device)
			rdma_query_gid(cm_id->device, p->path.port_num,
				       p->path.sgid_index, sgid);
		else
			cma_addr_to_gid(cma_src(p), sgid);
	}
	if (dgid)
		cma_addr_to_gid(cma_dst(p), dgid);
}
EXPORT_SYMBOL_GPL(rdma_read_gids);
