// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_rxe: module setup, "rdma link add NAME type rxe netdev IF", and the
 * netdev notifier that follows the bound netdev.
 *
 * Lifetime (Documentation/rxe/index.rst): an rxe_dev is on rxe_dev_list
 * from newlink until ops.dealloc_driver, which core calls exactly once,
 * from whoever did the unregistration (netlink DELLINK, our notifier, or
 * ib_unregister_driver() at module exit), right before it frees the
 * memory.  Holding rxe_dev_mutex therefore keeps every listed rxe_dev's
 * memory valid.  Lock order: RTNL (notifier) -> rxe_dev_mutex; nothing
 * that unregisters a device is called with rxe_dev_mutex held, because
 * dealloc_driver takes it.
 */
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/rdma_netlink.h>

#include "rxe.h"
#include "rxe_dp.h"

DEFINE_MUTEX(rxe_dev_mutex);
static LIST_HEAD(rxe_dev_list);

/* Caller holds rxe_dev_mutex. */
static struct rxe_dev *rxe_find_locked(const struct net_device *ndev)
{
	struct rxe_dev *rxe;

	lockdep_assert_held(&rxe_dev_mutex);

	list_for_each_entry(rxe, &rxe_dev_list, list)
		if (rxe->ndev == ndev)
			return rxe;
	return NULL;
}

/*
 * The list is also read under RCU by the receive path (rxe_get_rcv_dev):
 * wait for such readers before the device's memory can go.
 */
void rxe_dev_list_del(struct rxe_dev *rxe)
{
	mutex_lock(&rxe_dev_mutex);
	list_del_rcu(&rxe->list);
	mutex_unlock(&rxe_dev_mutex);
	synchronize_rcu();
	INIT_LIST_HEAD(&rxe->list);
}

/*
 * Receive path (softirq): a use of the registered device bound to @ndev,
 * or NULL.  Caller holds rcu_read_lock().
 */
struct rxe_dev *rxe_get_rcv_dev(const struct net_device *ndev)
{
	struct rxe_dev *rxe;

	list_for_each_entry_rcu(rxe, &rxe_dev_list, list)
		if (READ_ONCE(rxe->ndev) == ndev)
			return ib_device_try_get(&rxe->ib_dev) ? rxe : NULL;
	return NULL;
}

/*
 * Take a use of the device bound to @ndev, or NULL.  A device that is not
 * registered yet (newlink in progress) or already unregistering is not
 * returned.
 */
static struct rxe_dev *rxe_get_by_netdev(const struct net_device *ndev)
{
	struct rxe_dev *rxe;

	mutex_lock(&rxe_dev_mutex);
	rxe = rxe_find_locked(ndev);
	if (rxe && !ib_device_try_get(&rxe->ib_dev))
		rxe = NULL;
	mutex_unlock(&rxe_dev_mutex);
	return rxe;
}

/* Undo a newlink whose registration failed: nobody else has seen it. */
static void rxe_free_unregistered(struct rxe_dev *rxe)
{
	rxe_dev_list_del(rxe);
	rxe_net_put(rxe->sock_net);
	dev_put(rxe->ndev);
	rxe->ndev = NULL;
	ib_dealloc_device(&rxe->ib_dev);
}

static int rxe_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct rxe_dev *rxe;
	bool gone;
	int ret;

	if (is_vlan_dev(ndev))
		return -EPERM;
	if (ndev->type != ARPHRD_ETHER)
		return -EINVAL;

	rxe = ib_alloc_device(rxe_dev, ib_dev);
	if (!rxe)
		return -ENOMEM;
	/* born in the netdev's namespace, with that namespace's sockets */
	ret = rxe_net_get(dev_net(ndev));
	if (ret) {
		ib_dealloc_device(&rxe->ib_dev);
		return ret;
	}
	rxe->sock_net = dev_net(ndev);
	rdma_dev_set_net(&rxe->ib_dev, dev_net(ndev));
	dev_hold(ndev);
	rxe_init_device(rxe, ndev);

	/* check and insert at once: two racing newlinks on one netdev */
	mutex_lock(&rxe_dev_mutex);
	if (rxe_find_locked(ndev)) {
		mutex_unlock(&rxe_dev_mutex);
		rxe_net_put(rxe->sock_net);
		dev_put(ndev);
		rxe->ndev = NULL;
		ib_dealloc_device(&rxe->ib_dev);
		return -EEXIST;
	}
	list_add_tail_rcu(&rxe->list, &rxe_dev_list);
	mutex_unlock(&rxe_dev_mutex);

	/*
	 * Once registered, the device can be deleted by someone else at any
	 * moment (DELLINK, our notifier); keep its memory until we are done.
	 */
	get_device(&rxe->ib_dev.dev);
	ret = ib_register_device(&rxe->ib_dev, ibdev_name, NULL);
	if (ret) {
		rxe_free_unregistered(rxe);
		put_device(&rxe->ib_dev.dev);
		return ret;
	}

	/*
	 * The netdev may have been unregistered while we registered: its
	 * NETDEV_UNREGISTER event then found the device not yet registered
	 * and left it alone.  reg_state changes before that event is sent,
	 * and the notifier looks the device up under rxe_dev_mutex, so
	 * checking under the mutex here sees it either way.
	 */
	mutex_lock(&rxe_dev_mutex);
	gone = READ_ONCE(ndev->reg_state) != NETREG_REGISTERED;
	if (!gone)
		rxe->port_state = rxe_port_state(ndev);
	mutex_unlock(&rxe_dev_mutex);
	if (gone) {
		if (ib_device_try_get(&rxe->ib_dev))
			ib_unregister_device_and_put(&rxe->ib_dev);
		ret = -ENODEV;
	}
	put_device(&rxe->ib_dev.dev);
	return ret;
}

static struct rdma_link_ops rxe_link_ops = {
	.type = "rxe",
	.newlink = rxe_newlink,
};

/* NETDEV_UP/DOWN/CHANGE: announce port state changes, not repeats. */
static void rxe_port_event(struct net_device *ndev)
{
	enum ib_port_state state = rxe_port_state(ndev);
	struct ib_event ev = {};
	struct rxe_dev *rxe;

	mutex_lock(&rxe_dev_mutex);
	rxe = rxe_find_locked(ndev);
	if (rxe && rxe->port_state != state) {
		rxe->port_state = state;
		ev.device = &rxe->ib_dev;
		ev.event = state == IB_PORT_ACTIVE ? IB_EVENT_PORT_ACTIVE :
						     IB_EVENT_PORT_ERR;
		ev.element.port_num = RXE_PORT;
		if (state != IB_PORT_ACTIVE)
			rxe_counter_inc(rxe, RXE_CNT_LINK_DOWNED);
		/* handlers run under a spinlock and do not sleep */
		ib_dispatch_event(&ev);
	}
	mutex_unlock(&rxe_dev_mutex);
}

/*
 * The netdev moved to another namespace (ip link set IF netns NS): the
 * device follows it, re-registered there with its users disassociated.
 * Upstream deletes the device instead.  Called from rxe_move_wq, never
 * under RTNL (disassociating waits for the users' commands), with a use
 * of the device, which the move consumes.
 */
static void rxe_follow_netdev(struct rxe_dev *rxe, struct net *net)
{
	struct net *old;
	int ret;

	ret = rxe_net_get(net);
	if (ret) {
		dev_warn(&rxe->ib_dev.dev,
			 "no RoCE sockets in the netdev's new namespace (%d); removing the device\n",
			 ret);
		ib_unregister_device_and_put(&rxe->ib_dev);
		return;
	}
	/* dealloc_driver, whenever it runs from now on, drops the new one */
	mutex_lock(&rxe_dev_mutex);
	old = rxe->sock_net;
	rxe->sock_net = net;
	mutex_unlock(&rxe_dev_mutex);
	ret = ib_device_move_net_put(&rxe->ib_dev, net);
	if (ret)
		pr_debug("rxe: device went away while following its netdev\n");
	rxe_net_put(old);
}

/*
 * Moves run in the order the netdev moved (an ordered workqueue), each
 * with a use of the device and a reference on the namespace it went to.
 */
static struct workqueue_struct *rxe_move_wq;

struct rxe_move {
	struct work_struct work;
	struct rxe_dev *rxe;
	struct net *net;
};

static void rxe_move_work(struct work_struct *w)
{
	struct rxe_move *m = container_of(w, struct rxe_move, work);

	rxe_follow_netdev(m->rxe, m->net);
	put_net(m->net);
	kfree(m);
}

/* under RTNL: queue the move of @rxe (with a use, consumed) to @net */
static void rxe_queue_move(struct rxe_dev *rxe, struct net *net)
{
	struct rxe_move *m = (struct rxe_move *)kmalloc(sizeof(*m), GFP_KERNEL);

	ASSERT_RTNL();
	if (!m) {
		/* cannot follow: let it go, as upstream always does */
		ib_unregister_device_queued(&rxe->ib_dev);
		ib_device_put(&rxe->ib_dev);
		return;
	}
	INIT_WORK(&m->work, rxe_move_work);
	m->rxe = rxe;
	m->net = get_net(net);
	queue_work(rxe_move_wq, &m->work);
}

/*
 * Runs under RTNL, so it never waits for the device's users (a user can
 * stall a uverbs command for as long as it likes): NETDEV_UNREGISTER
 * queues the unregistration, as upstream does, and a namespace move
 * (NETDEV_REGISTER in another namespace) queues the device's move.  The
 * netdev's own unregistration then waits, without RTNL, for the
 * reference the device holds (dropped by dealloc_driver).
 */
static int rxe_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(
		(const struct netdev_notifier_info *)ptr);
	struct rxe_dev *rxe;

	switch (event) {
	case NETDEV_UNREGISTER:
		/* a namespace move keeps reg_state; NETDEV_REGISTER follows */
		if (ndev->reg_state == NETREG_REGISTERED)
			break;
		rxe = rxe_get_by_netdev(ndev);
		if (rxe) {
			ib_unregister_device_queued(&rxe->ib_dev);
			ib_device_put(&rxe->ib_dev);
		}
		break;
	case NETDEV_REGISTER:
		rxe = rxe_get_by_netdev(ndev);
		if (!rxe)
			break;
		if (net_eq(rdma_dev_net(&rxe->ib_dev), dev_net(ndev)))
			ib_device_put(&rxe->ib_dev);
		else
			rxe_queue_move(rxe, dev_net(ndev));
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		rxe_port_event(ndev);
		break;
	default:
		/* NETDEV_CHANGEMTU: query_port reads the MTU live */
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block rxe_netdev_nb = {
	.notifier_call = rxe_netdev_event,
};

struct workqueue_struct *rxe_wq;

static int __init rxe_module_init(void)
{
	int ret;

	/*
	 * QP work items (rxe_dp.h): per-CPU, each QP's on its CPU; CPU
	 * intensive (a pass may take long, yielding between packets: other
	 * items on that CPU must not wait for it to end); freeing memory may
	 * wait on them
	 */
	rxe_wq = alloc_workqueue("rxe_wq", WQ_CPU_INTENSIVE | WQ_MEM_RECLAIM, 0);
	if (!rxe_wq)
		return -ENOMEM;
	rxe_move_wq = alloc_ordered_workqueue("rxe_move", 0);
	if (!rxe_move_wq) {
		ret = -ENOMEM;
		goto err_wq;
	}
	ret = rxe_mcast_init();
	if (ret)
		goto err_move_wq;
	ret = rxe_net_init();
	if (ret)
		goto err_mcast;
	ret = register_netdevice_notifier(&rxe_netdev_nb);
	if (ret)
		goto err_net;
	rdma_link_register(&rxe_link_ops);
	return 0;

err_net:
	rxe_net_exit_module();
err_mcast:
	rxe_mcast_exit();
err_move_wq:
	destroy_workqueue(rxe_move_wq);
err_wq:
	destroy_workqueue(rxe_wq);
	return ret;
}

/*
 * Exit order, and why:
 * 1. rdma_link_unregister(): no newlink starts from now on, and it
 *    returns only once no newlink of ours is running (ib_core calls
 *    newlink under its link-ops lock, which unregistering takes for
 *    writing).
 * 2. ib_unregister_driver(): unregisters and frees every device that is
 *    still registered.  The notifier stays live meanwhile, so a netdev
 *    that goes away now is still let go of (nobody waits for a netdev
 *    reference that only this step would drop).
 *    A queued move holds a use of its device, which unregistration
 *    waits for: the move runs meanwhile (its own workqueue), drops the
 *    use first thing and then finds the device gone.
 * 3. unregister_netdevice_notifier(): takes RTNL, so it also waits for a
 *    notifier call that is unregistering a device right now (one that
 *    ib_unregister_driver() skipped because it was already going away);
 *    after it, nothing queues a move, and destroying rxe_move_wq waits
 *    for the last one: no code of ours runs and the device list is empty.
 */
static void __exit rxe_module_exit(void)
{
	rdma_link_unregister(&rxe_link_ops);
	ib_unregister_driver(RDMA_DRIVER_RXE);
	unregister_netdevice_notifier(&rxe_netdev_nb);
	destroy_workqueue(rxe_move_wq);
	/* the groups' last IP leaves, queued by the devices' teardown */
	rxe_mcast_exit();
	WARN_ON(!list_empty(&rxe_dev_list));
	rxe_net_exit_module();
	destroy_workqueue(rxe_wq);
}

module_init(rxe_module_init);
module_exit(rxe_module_exit);

MODULE_DESCRIPTION("Soft-RoCE (RoCEv2 over any Ethernet netdev): the device");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("rxe");
