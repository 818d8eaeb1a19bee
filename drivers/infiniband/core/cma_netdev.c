// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm and the netdevs under its IDs: RDMA_CM_EVENT_ADDR_CHANGE.
 *
 * An ID attached to a device is bound to a netdev (dev_addr.bound_dev_if)
 * and remembers that netdev's MAC (dev_addr.src_dev_addr).  When the
 * netdev's MAC changes (NETDEV_CHANGEADDR: "ip link set DEV address ...")
 * or a bond it is fails over (NETDEV_BONDING_FAILOVER, as upstream) and
 * the MAC is no longer the remembered one, every such ID in a live state
 * hears ADDR_CHANGE once per notification: its connections now send from
 * an address the peer does not know (the consumer reconnects).  The ID
 * keeps the old MAC, as upstream's does.  A handler that returns non-zero
 * destroys its ID.
 *
 * Locking: the notifier runs under RTNL and takes cma_lock, the order
 * device removal from a netdev notifier has too; the event is delivered
 * from cma_wq under the handler mutex, holding a reference of the ID that
 * destroy takes back when it cancels the work.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>

#include "cma_priv.h"

static void cma_addr_change_work(struct work_struct *w)
{
	struct rdma_id_private *p =
		container_of(w, struct rdma_id_private, addr_change_work);
	struct rdma_cm_event ev = {};
	struct rdma_cm_sm_action act;

	mutex_lock(&p->handler_mutex);
	if (cma_step(p, RDMA_CM_IN_ADDR_CHANGE, 0, &act) == RDMA_CM_SM_GO &&
	    act.report != RDMA_CM_NO_EVENT) {
		ev.event = (enum rdma_cm_event_type)act.report;
		if (cma_deliver(p, &ev))
			cma_handler_failed(p);
	}
	mutex_unlock(&p->handler_mutex);
	cma_id_put(p);
}

void cma_addr_change_init(struct rdma_id_private *p)
{
	INIT_WORK(&p->addr_change_work, cma_addr_change_work);
}

/* destroy: no ADDR_CHANGE runs or is queued after this */
void cma_addr_change_cancel(struct rdma_id_private *p)
{
	if (cancel_work_sync(&p->addr_change_work))
		cma_id_put(p);
}

static bool cma_uses_ndev(struct rdma_id_private *p, struct net_device *ndev)
{
	const struct rdma_dev_addr *da = &p->id.route.addr.dev_addr;

	return da->bound_dev_if == ndev->ifindex && net_eq(p->net, dev_net(ndev)) &&
	       memcmp(da->src_dev_addr, ndev->dev_addr,
		      min_t(size_t, ndev->addr_len, MAX_ADDR_LEN));
}

static int cma_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev =
		netdev_notifier_info_to_dev((const struct netdev_notifier_info *)ptr);
	struct rdma_id_private *p;
	struct cma_device *cd;

	if (event != NETDEV_CHANGEADDR &&
	    !(event == NETDEV_BONDING_FAILOVER && netif_is_bond_master(ndev)))
		return NOTIFY_DONE;
	ASSERT_RTNL();
	mutex_lock(&cma_lock);
	list_for_each_entry(cd, &cma_dev_list, node) {
		list_for_each_entry(p, &cd->id_list, dev_node) {
			if (!cma_uses_ndev(p, ndev))
				continue;
			cma_id_get(p);
			if (!queue_work(cma_wq, &p->addr_change_work))
				cma_id_put(p);
		}
	}
	mutex_unlock(&cma_lock);
	return NOTIFY_DONE;
}

static struct notifier_block cma_netdev_nb = {
	.notifier_call = cma_netdev_event,
};

int cma_netdev_register(void)
{
	return register_netdevice_notifier(&cma_netdev_nb);
}

void cma_netdev_unregister(void)
{
	unregister_netdevice_notifier(&cma_netdev_nb);
}
