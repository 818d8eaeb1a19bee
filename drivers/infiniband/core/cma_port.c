// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm port spaces: per (namespace, port space, port) a bind list of
 * the IDs that own the port.  A specific port is checked against every
 * owner (reuseaddr, afonly, wildcard and equal addresses); port 0 takes
 * a free port of the namespace's ephemeral range.  The passive side
 * finds its listener here.
 */
#include <linux/hashtable.h>
#include <linux/random.h>
#include <linux/capability.h>
#include <net/ip.h>
#include "cma_priv.h"

struct cma_bind_list {
	struct hlist_node node;		/* in cma_ports */
	struct net *net;		/* not counted: owners hold it */
	enum rdma_ucm_port_space ps;
	u16 port;
	struct hlist_head owners;	/* rdma_id_private.bind_node */
};

static DEFINE_MUTEX(cma_port_lock);
static DEFINE_HASHTABLE(cma_ports, 8);
static u16 cma_last_port;

static u32 cma_port_key(struct net *net, enum rdma_ucm_port_space ps, u16 port)
{
	return hash_ptr(net, 16) ^ ((u32)ps << 16) ^ port;
}

static struct cma_bind_list *cma_ps_find(struct net *net,
					 enum rdma_ucm_port_space ps, u16 port)
{
	struct cma_bind_list *bl;

	lockdep_assert_held(&cma_port_lock);
	hash_for_each_possible(cma_ports, bl, node, cma_port_key(net, ps, port))
		if (bl->net == net && bl->ps == ps && bl->port == port)
			return bl;
	return NULL;
}

static int cma_ps_add(struct rdma_id_private *p, u16 port)
{
	struct cma_bind_list *bl;

	lockdep_assert_held(&cma_port_lock);
	bl = (struct cma_bind_list *)kzalloc(sizeof(*bl), GFP_KERNEL_ACCOUNT);
	if (!bl)
		return -ENOMEM;
	bl->net = p->net;
	bl->ps = p->id.ps;
	bl->port = port;
	INIT_HLIST_HEAD(&bl->owners);
	hash_add(cma_ports, &bl->node, cma_port_key(p->net, p->id.ps, port));
	p->bind_list = bl;
	hlist_add_head(&p->bind_node, &bl->owners);
	cma_set_port(cma_src(p), htons(port));
	return 0;
}

/* May @p own a port @bl lists?  @reuse: @p's reuseaddr for the check. */
static int cma_check_port(struct cma_bind_list *bl, struct rdma_id_private *p,
			  bool reuse)
{
	struct rdma_id_private *cur;

	lockdep_assert_held(&cma_port_lock);
	hlist_for_each_entry(cur, &bl->owners, bind_node) {
		if (cur == p)
			continue;
		if (reuse && cur->reuseaddr)
			continue;
		if (p->afonly && cur->afonly &&
		    cma_src(p)->sa_family != cma_src(cur)->sa_family)
			continue;
		if (cma_any_addr(cma_src(p)) || cma_any_addr(cma_src(cur)))
			return -EADDRNOTAVAIL;
		if (cma_addr_eq(cma_src(p), cma_src(cur)))
			return -EADDRINUSE;
	}
	return 0;
}

static int cma_alloc_any_port(struct rdma_id_private *p)
{
	int low, high, range, i;
	u16 port;

	inet_get_local_port_range(p->net, &low, &high);
	range = high - low + 1;
	if (range <= 0)
		return -EADDRNOTAVAIL;
	port = (u16)(low + get_random_u32_below((u32)range));
	for (i = 0; i < range; i++) {
		if (port != cma_last_port &&
		    !cma_ps_find(p->net, p->id.ps, port) &&
		    !inet_is_local_reserved_port(p->net, port)) {
			cma_last_port = port;
			return cma_ps_add(p, port);
		}
		port = port >= high ? (u16)low : port + 1;
	}
	return -EADDRNOTAVAIL;
}

/* Own the port of the ID's source address (0: an ephemeral one). */
int cma_bind_port(struct rdma_id_private *p)
{
	u16 port = ntohs(cma_port_of(cma_src(p)));
	struct cma_bind_list *bl;
	int ret;

	if (port && port < PROT_SOCK &&
	    !ns_capable(p->net->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;
	mutex_lock(&cma_port_lock);
	if (!port) {
		ret = cma_alloc_any_port(p);
		goto out;
	}
	bl = cma_ps_find(p->net, p->id.ps, port);
	if (!bl) {
		ret = cma_ps_add(p, port);
		goto out;
	}
	ret = cma_check_port(bl, p, p->reuseaddr);
	if (!ret) {
		p->bind_list = bl;
		hlist_add_head(&p->bind_node, &bl->owners);
	}
out:
	mutex_unlock(&cma_port_lock);
	return ret;
}

/* Listen makes the ID exclusive: check again without reuseaddr. */
int cma_port_listen_check(struct rdma_id_private *p)
{
	int ret = 0;

	mutex_lock(&cma_port_lock);
	if (p->bind_list && p->reuseaddr) {
		ret = cma_check_port(p->bind_list, p, false);
		if (!ret)
			p->reuseaddr = 0;
	}
	mutex_unlock(&cma_port_lock);
	return ret;
}

void cma_release_port(struct rdma_id_private *p)
{
	struct cma_bind_list *bl;

	mutex_lock(&cma_port_lock);
	bl = p->bind_list;
	if (bl) {
		hlist_del_init(&p->bind_node);
		p->bind_list = NULL;
		if (hlist_empty(&bl->owners)) {
			hash_del(&bl->node);
			kfree(bl);
		}
	}
	mutex_unlock(&cma_port_lock);
}

/* Does listener @l take a request for @hdr (its header) on @dev? */
static bool cma_listener_match(struct rdma_id_private *l,
			       const struct cma_wire_hdr *hdr,
			       struct ib_device *dev)
{
	const struct sockaddr *a = cma_src(l);
	sa_family_t fam = hdr->ip_version == 4 ? AF_INET : AF_INET6;

	if (cma_state(l) != RDMA_CM_LISTEN)
		return false;
	if (l->id.device && l->id.device != dev)
		return false;
	if (!rdma_dev_access_netns(dev, l->net))
		return false;
	if (cma_any_addr(a)) {
		/* a wildcard of the other family takes it unless afonly */
		return a->sa_family == fam || !l->afonly;
	}
	if (a->sa_family != fam)
		return false;
	if (fam == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       hdr->dst.ip4;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       hdr->dst.ip6, 16);
}

/*
 * The listening ID of @net that takes a request to @port of @ps with
 * header @hdr on @dev, referenced; NULL if none.  A specific bind wins
 * over a wildcard.
 */
struct rdma_id_private *cma_find_listener(struct net *net,
					  enum rdma_ucm_port_space ps,
					  u16 port,
					  const struct cma_wire_hdr *hdr,
					  struct ib_device *dev)
{
	struct rdma_id_private *l, *found = NULL;
	struct cma_bind_list *bl;

	mutex_lock(&cma_port_lock);
	bl = cma_ps_find(net, ps, port);
	if (!bl)
		goto out;
	hlist_for_each_entry(l, &bl->owners, bind_node) {
		if (!cma_listener_match(l, hdr, dev))
			continue;
		if (!found || cma_any_addr(cma_src(found)))
			found = l;
	}
	if (found)
		cma_id_get(found);
out:
	mutex_unlock(&cma_port_lock);
	return found;
}

int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;
	int ret = 0;

	if (cma_step(p, reuse ? RDMA_CM_OP_SET_REUSEADDR :
			RDMA_CM_OP_CLEAR_REUSEADDR, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	mutex_lock(&cma_port_lock);
	p->reuseaddr = !!reuse;
	mutex_unlock(&cma_port_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_set_reuseaddr);

int rdma_set_afonly(struct rdma_cm_id *id, int afonly)
{
	struct rdma_id_private *p = cma_priv(id);
	struct rdma_cm_sm_action act;

	if (cma_step(p, RDMA_CM_OP_SET_AFONLY, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	mutex_lock(&cma_port_lock);
	p->afonly = !!afonly;
	p->afonly_set = 1;
	mutex_unlock(&cma_port_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rdma_set_afonly);

__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr)
{
	return cpu_to_be64(cma_wire_service_id(id->ps,
					       ntohs(cma_port_of(addr))));
}
EXPORT_SYMBOL_GPL(rdma_get_service_id);
