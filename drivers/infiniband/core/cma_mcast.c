// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm multicast for UD IDs on RoCE v2: IPv4 groups only.  The MGID
 * is the group as an IPv4-mapped address (::ffff:a.b.c.d); a full-member
 * join also joins the group (IGMP) on the ID's netdev.  Nothing else
 * goes on the wire: MULTICAST_JOIN is reported from a work item at once,
 * with the AH of the group, QPN 0xffffff and the ID's Q_Key; the user
 * attaches its QP to the MGID itself (ibv_attach_mcast).  The event's
 * ud.private_data is the context given to rdma_join_multicast().
 */
#include <linux/inetdevice.h>
#include <linux/igmp.h>
#include <linux/rtnetlink.h>
#include <net/ip.h>
#include "cma_priv.h"

#define CMA_MC_QPN	0xffffff
#define CMA_MC_HOPLIMIT	64

struct cma_mc {
	struct list_head node;		/* in rdma_id_private.mc_list */
	struct rdma_id_private *p;
	struct sockaddr_in addr;
	void *context;
	bool igmp;			/* joined on @ifindex */
	int ifindex;
	struct work_struct work;	/* reports MULTICAST_JOIN */
	struct rdma_ah_attr ah;
};

static void cma_mc_work(struct work_struct *w)
{
	struct cma_mc *mc = container_of(w, struct cma_mc, work);
	struct rdma_id_private *p = mc->p;
	struct rdma_cm_sm_action act;
	struct rdma_cm_event ev = {};

	mutex_lock(&p->handler_mutex);
	if (cma_step(p, RDMA_CM_IN_JOIN_OK, 0, &act) != RDMA_CM_SM_GO ||
	    act.report == RDMA_CM_NO_EVENT)
		goto out;
	ev.event = (enum rdma_cm_event_type)act.report;
	ev.param.ud.private_data = mc->context;
	ev.param.ud.ah_attr = mc->ah;
	ev.param.ud.qp_num = CMA_MC_QPN;
	ev.param.ud.qkey = p->qkey;
	if (cma_deliver(p, &ev))
		cma_handler_failed(p);
out:
	mutex_unlock(&p->handler_mutex);
}

/* IGMP join (@join) or leave of @mc's group on its netdev */
static int cma_mc_igmp(struct rdma_id_private *p, struct cma_mc *mc, bool join)
{
	struct net_device *ndev;
	struct in_device *in_dev;
	int ret = 0;

	rtnl_lock();
	ndev = __dev_get_by_index(p->net, mc->ifindex);
	in_dev = ndev ? __in_dev_get_rtnl(ndev) : NULL;
	if (!in_dev)
		ret = -ENODEV;
	else if (join)
		ip_mc_inc_group(in_dev, mc->addr.sin_addr.s_addr);
	else
		ip_mc_dec_group(in_dev, mc->addr.sin_addr.s_addr);
	rtnl_unlock();
	return ret;
}

static void cma_mc_free(struct rdma_id_private *p, struct cma_mc *mc)
{
	cancel_work_sync(&mc->work);
	if (mc->igmp)
		cma_mc_igmp(p, mc, false);
	kfree(mc);
}

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	struct rdma_id_private *p = cma_priv(id);
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	struct rdma_cm_sm_action act;
	union ib_gid mgid;
	unsigned long flags;
	struct cma_mc *mc;
	int ret;

	if (!addr || id->qp_type != IB_QPT_UD)
		return -EINVAL;
	if (addr->sa_family != AF_INET)
		return -EOPNOTSUPP;	/* IPv6 groups on RoCE v2: upstream too */
	if (!ipv4_is_multicast(sin->sin_addr.s_addr))
		return -EINVAL;
	if (cma_step(p, RDMA_CM_OP_JOIN_MCAST, 0, &act) != RDMA_CM_SM_GO)
		return act.err;
	if (!id->device || !id->route.addr.dev_addr.bound_dev_if)
		return -ENODEV;
	mc = (struct cma_mc *)kzalloc(sizeof(*mc), GFP_KERNEL_ACCOUNT);
	if (!mc)
		return -ENOMEM;
	mc->p = p;
	mc->addr = *sin;
	mc->context = context;
	mc->ifindex = id->route.addr.dev_addr.bound_dev_if;
	INIT_WORK(&mc->work, cma_mc_work);
	cma_addr_to_gid(addr, &mgid);
	mc->ah.type = RDMA_AH_ATTR_TYPE_ROCE;
	mc->ah.port_num = id->port_num;
	mc->ah.ah_flags = IB_AH_GRH;
	mc->ah.grh.dgid = mgid;
	mc->ah.grh.sgid_index = p->path.sgid_index;
	mc->ah.grh.hop_limit = CMA_MC_HOPLIMIT;
	ip_eth_mc_map(sin->sin_addr.s_addr, (char *)mc->ah.roce.dmac);
	if (join_state & RDMA_CM_JOIN_FULLMEMBER) {
		ret = cma_mc_igmp(p, mc, true);
		if (ret)
			goto err;
		mc->igmp = true;
	}
	spin_lock_irqsave(&p->lock, flags);
	list_add_tail(&mc->node, &p->mc_list);
	spin_unlock_irqrestore(&p->lock, flags);
	queue_work(cma_wq, &mc->work);
	return 0;
err:
	kfree(mc);
	return ret;
}
EXPORT_SYMBOL_GPL(rdma_join_multicast);

void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct rdma_id_private *p = cma_priv(id);
	struct cma_mc *mc, *found = NULL;
	unsigned long flags;

	if (!addr || addr->sa_family != AF_INET)
		return;
	spin_lock_irqsave(&p->lock, flags);
	list_for_each_entry(mc, &p->mc_list, node) {
		if (cma_addr_eq((struct sockaddr *)&mc->addr, addr)) {
			list_del(&mc->node);
			found = mc;
			break;
		}
	}
	spin_unlock_irqrestore(&p->lock, flags);
	if (found)
		cma_mc_free(p, found);
}
EXPORT_SYMBOL_GPL(rdma_leave_multicast);

/* destroy: every group left, no join report pending */
void cma_leave_all_mc(struct rdma_id_private *p)
{
	struct cma_mc *mc;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&p->lock, flags);
		mc = list_first_entry_or_null(&p->mc_list, struct cma_mc, node);
		if (mc)
			list_del(&mc->node);
		spin_unlock_irqrestore(&p->lock, flags);
		if (!mc)
			return;
		cma_mc_free(p, mc);
	}
}
