// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Multicast groups of a device: the MGIDs its UD QPs are attached to
 * (ib_attach_mcast), each with its QPs, and the netdev's memberships that
 * make the groups' packets arrive.
 *
 * Limits are the ones the device advertises: RXE_MAX_MCAST_GRP groups,
 * RXE_MAX_MCAST_QP_ATTACH QPs in one group, RXE_MAX_TOT_MCAST_QP_ATTACH
 * attachments in all; past them attach fails with ENOMEM.  Each attach that
 * answers 0 is undone by one detach (ib_core counts them in qp->usecnt):
 * attaching a QP that is in the group already answers 0 and counts (the
 * LID means nothing on RoCE, so uverbs' attachments (MGID, LID 1) and
 * (MGID, LID 2) are two counts of one membership); the QP leaves the group
 * at the last detach.  Detaching a QP that is not in the group (or from an
 * unknown group) answers EINVAL.
 *
 * Locking: mcg_mutex serialises attach, detach and cleanup (process
 * context); mcg_lock (bh) covers the table itself, so that the receive
 * path (rxe_mcast_get_qps) reads it in softirq.  An attached QP cannot be
 * destroyed (ib_destroy_qp refuses), so the table's QP pointers stay
 * valid; the receive path takes a reference of each before it lets go of
 * mcg_lock.
 *
 * The netdev: a group's Ethernet address is added (dev_mc_add) while the
 * group exists, and the IP layer joins the group on the netdev (IPv4
 * ip_mc_inc_group, IPv6 ipv6_dev_mc_inc): without that membership the IP
 * stack drops the group's packets, and does not loop our own sends back.
 * Those joins need RTNL, which a detach may be called under (device
 * removal from the netdev notifier), so joins and leaves run from an
 * ordered workqueue, each with its own netdev reference.
 */
#include <linux/hashtable.h>
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/jhash.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>

#include "rxe.h"
#include "rxe_obj.h"

struct rxe_mcg_ip {
	struct work_struct work;
	struct net_device *ndev;	/* held until the work ran */
	netdevice_tracker tracker;
	union ib_gid mgid;
	bool join;
};

struct rxe_mcg {
	struct hlist_node node;		/* in rxe->mcg_hash */
	union ib_gid mgid;
	u8 mac[ETH_ALEN];
	u32 nr_qps;
	struct rxe_qp *qps[RXE_MAX_MCAST_QP_ATTACH];
	u32 attached[RXE_MAX_MCAST_QP_ATTACH];	/* attaches of qps[i] */
	struct rxe_mcg_ip *leave;	/* allocated with the group */
};

static struct workqueue_struct *rxe_mcast_wq;

static void rxe_mcg_ip_fn(struct work_struct *w)
{
	struct rxe_mcg_ip *ip = container_of(w, struct rxe_mcg_ip, work);
	const struct in6_addr *a6 = (const struct in6_addr *)ip->mgid.raw;
	struct in_device *in_dev;

	rtnl_lock();
	if (rdma_gid_is_v4mapped(ip->mgid.raw)) {
		in_dev = __in_dev_get_rtnl(ip->ndev);
		if (in_dev && ip->join)
			ip_mc_inc_group(in_dev, a6->s6_addr32[3]);
		else if (in_dev)
			__ip_mc_dec_group(in_dev, a6->s6_addr32[3], GFP_KERNEL);
	} else if (ip->join) {
		ipv6_dev_mc_inc(ip->ndev, a6);
	} else {
		ipv6_dev_mc_dec(ip->ndev, a6);
	}
	rtnl_unlock();
	netdev_put(ip->ndev, &ip->tracker);
	kfree(ip);
}

static struct rxe_mcg_ip *rxe_mcg_ip_new(const union ib_gid *mgid, bool join)
{
	struct rxe_mcg_ip *ip;

	ip = (struct rxe_mcg_ip *)kzalloc(sizeof(*ip), GFP_KERNEL_ACCOUNT);
	if (!ip)
		return NULL;
	INIT_WORK(&ip->work, rxe_mcg_ip_fn);
	ip->mgid = *mgid;
	ip->join = join;
	return ip;
}

static void rxe_mcg_ip_queue(struct rxe_dev *rxe, struct rxe_mcg_ip *ip)
{
	ip->ndev = rxe->ndev;
	netdev_hold(ip->ndev, &ip->tracker, GFP_KERNEL);
	queue_work(rxe_mcast_wq, &ip->work);
}

static u32 rxe_mcg_hash(const union ib_gid *mgid)
{
	return jhash(mgid->raw, sizeof(mgid->raw), 0);
}

/* The group of @mgid, under either lock. */
static struct rxe_mcg *rxe_mcg_find(struct rxe_dev *rxe,
				    const union ib_gid *mgid)
{
	struct rxe_mcg *mcg;

	hash_for_each_possible(rxe->mcg_hash, mcg, node, rxe_mcg_hash(mgid))
		if (!memcmp(mcg->mgid.raw, mgid->raw, sizeof(mgid->raw)))
			return mcg;
	return NULL;
}

static int rxe_mcg_index(const struct rxe_mcg *mcg, const struct rxe_qp *qp)
{
	u32 i;

	for (i = 0; i < mcg->nr_qps; i++)
		if (mcg->qps[i] == qp)
			return (int)i;
	return -1;
}

/* A new group, in the table and on the netdev. */
static struct rxe_mcg *rxe_mcg_create(struct rxe_dev *rxe,
				      const union ib_gid *mgid)
{
	struct rxe_mcg_ip *join;
	struct rxe_mcg *mcg;

	lockdep_assert_held(&rxe->mcg_mutex);
	if (rxe->mcg_count >= RXE_MAX_MCAST_GRP)
		return (struct rxe_mcg *)ERR_PTR(-ENOMEM);
	mcg = (struct rxe_mcg *)kzalloc(sizeof(*mcg), GFP_KERNEL_ACCOUNT);
	if (!mcg)
		goto err;
	join = rxe_mcg_ip_new(mgid, true);
	if (!join)
		goto err_mcg;
	mcg->leave = rxe_mcg_ip_new(mgid, false);
	if (!mcg->leave)
		goto err_join;
	mcg->mgid = *mgid;
	rdma_gid_mcast_mac(mgid->raw, mcg->mac);
	if (dev_mc_add(rxe->ndev, mcg->mac))
		goto err_leave;
	rxe_mcg_ip_queue(rxe, join);
	spin_lock_bh(&rxe->mcg_lock);
	hash_add(rxe->mcg_hash, &mcg->node, rxe_mcg_hash(mgid));
	rxe->mcg_count++;
	spin_unlock_bh(&rxe->mcg_lock);
	return mcg;

err_leave:
	kfree(mcg->leave);
err_join:
	kfree(join);
err_mcg:
	kfree(mcg);
err:
	return (struct rxe_mcg *)ERR_PTR(-ENOMEM);
}

/* @mcg, out of the table already, leaves the netdev and is freed. */
static void rxe_mcg_free(struct rxe_dev *rxe, struct rxe_mcg *mcg)
{
	lockdep_assert_held(&rxe->mcg_mutex);
	dev_mc_del(rxe->ndev, mcg->mac);
	rxe_mcg_ip_queue(rxe, mcg->leave);
	kfree(mcg);
}

int rxe_attach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 lid)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_mcg *mcg;
	int i, ret = 0;

	mutex_lock(&rxe->mcg_mutex);
	mcg = rxe_mcg_find(rxe, mgid);
	i = mcg ? rxe_mcg_index(mcg, qp) : -1;
	if (i >= 0) {
		/* bounded: uverbs keeps one attachment per (MGID, u16 LID) */
		mcg->attached[i]++;
		goto out;
	}
	if ((mcg && mcg->nr_qps >= RXE_MAX_MCAST_QP_ATTACH) ||
	    rxe->mcg_attached >= RXE_MAX_TOT_MCAST_QP_ATTACH) {
		ret = -ENOMEM;
		goto out;
	}
	if (!mcg) {
		mcg = rxe_mcg_create(rxe, mgid);
		if (IS_ERR(mcg)) {
			ret = PTR_ERR(mcg);
			goto out;
		}
	}
	spin_lock_bh(&rxe->mcg_lock);
	mcg->attached[mcg->nr_qps] = 1;
	mcg->qps[mcg->nr_qps++] = qp;
	rxe->mcg_attached++;
	spin_unlock_bh(&rxe->mcg_lock);
out:
	mutex_unlock(&rxe->mcg_mutex);
	return ret;
}

int rxe_detach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 lid)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_mcg *mcg;
	bool empty = false;
	int i, ret = 0;

	mutex_lock(&rxe->mcg_mutex);
	mcg = rxe_mcg_find(rxe, mgid);
	i = mcg ? rxe_mcg_index(mcg, qp) : -1;
	if (i < 0) {
		ret = -EINVAL;
		goto out;
	}
	if (--mcg->attached[i])
		goto out;
	spin_lock_bh(&rxe->mcg_lock);
	mcg->nr_qps--;
	mcg->qps[i] = mcg->qps[mcg->nr_qps];
	mcg->attached[i] = mcg->attached[mcg->nr_qps];
	rxe->mcg_attached--;
	if (!mcg->nr_qps) {
		hash_del(&mcg->node);
		rxe->mcg_count--;
		empty = true;
	}
	spin_unlock_bh(&rxe->mcg_lock);
	if (empty)
		rxe_mcg_free(rxe, mcg);
out:
	mutex_unlock(&rxe->mcg_mutex);
	return ret;
}

u32 rxe_mcast_get_qps(struct rxe_dev *rxe, const union ib_gid *mgid,
		      struct rxe_qp **qps, u32 max)
{
	struct rxe_mcg *mcg;
	u32 n = 0;

	spin_lock_bh(&rxe->mcg_lock);
	mcg = rxe_mcg_find(rxe, mgid);
	if (mcg) {
		for (n = 0; n < mcg->nr_qps && n < max; n++) {
			qps[n] = mcg->qps[n];
			rxe_elem_get(&qps[n]->elem);
		}
	}
	spin_unlock_bh(&rxe->mcg_lock);
	return n;
}

void rxe_mcast_dev_init(struct rxe_dev *rxe)
{
	mutex_init(&rxe->mcg_mutex);
	spin_lock_init(&rxe->mcg_lock);
	hash_init(rxe->mcg_hash);
	rxe->mcg_count = 0;
	rxe->mcg_attached = 0;
}

/*
 * The device is going: no QP is left (each was detached before it was
 * destroyed), so no group should be either; free any all the same.
 */
void rxe_mcast_dev_cleanup(struct rxe_dev *rxe)
{
	struct hlist_node *tmp;
	struct rxe_mcg *mcg;
	unsigned int bkt;

	mutex_lock(&rxe->mcg_mutex);
	hash_for_each_safe(rxe->mcg_hash, bkt, tmp, mcg, node) {
		spin_lock_bh(&rxe->mcg_lock);
		hash_del(&mcg->node);
		rxe->mcg_count--;
		rxe->mcg_attached -= mcg->nr_qps;
		spin_unlock_bh(&rxe->mcg_lock);
		rxe_mcg_free(rxe, mcg);
	}
	mutex_unlock(&rxe->mcg_mutex);
	mutex_destroy(&rxe->mcg_mutex);
}

int rxe_mcast_init(void)
{
	rxe_mcast_wq = alloc_ordered_workqueue("rxe_mcast", 0);
	return rxe_mcast_wq ? 0 : -ENOMEM;
}

/* after every device is gone: the last leaves run, their netdevs let go */
void rxe_mcast_exit(void)
{
	destroy_workqueue(rxe_mcast_wq);
}
