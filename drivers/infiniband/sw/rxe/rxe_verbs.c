// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe device attributes and the ib_device_ops that report them.  Port
 * values are read live from the netdev, so MTU and carrier changes need
 * nothing stored.
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>

#include "rxe.h"
#include "rxe_obj.h"


enum ib_port_state rxe_port_state(struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev) ?
		IB_PORT_ACTIVE : IB_PORT_DOWN;
}

static int rxe_query_device(struct ib_device *ib_dev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	/* librxe sends no driver data; 6.1 refuses any */
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	*attr = ib_dev->attrs;
	return 0;
}

static int rxe_query_port(struct ib_device *ib_dev, u32 port,
			  struct ib_port_attr *attr)
{
	struct net_device *ndev = to_rdev(ib_dev)->ndev;
	bool running = netif_running(ndev);

	attr->state = rxe_port_state(ndev);
	if (attr->state == IB_PORT_ACTIVE)
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	else if (running)
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	attr->active_width = to_rdev(ib_dev)->active_width;
	attr->active_speed = to_rdev(ib_dev)->active_speed;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = (enum ib_mtu)
		rxe_path_mtu_from_netdev_mtu(READ_ONCE(ndev->mtu));
	attr->phys_mtu = rxe_path_mtu_bytes(IB_MTU_4096);
	attr->max_msg_sz = RXE_MAX_MSG_SZ;
	attr->gid_tbl_len = RXE_GID_TBL_LEN;
	attr->pkey_tbl_len = RXE_PKEY_TBL_LEN;
	attr->port_cap_flags = RXE_PORT_CAP_FLAGS;
	attr->max_vl_num = RXE_MAX_VL_NUM;
	return 0;
}

static int rxe_get_port_immutable(struct ib_device *ib_dev, u32 port,
				  struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = RXE_PKEY_TBL_LEN;
	immutable->gid_tbl_len = RXE_GID_TBL_LEN;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = RXE_MAX_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer rxe_get_link_layer(struct ib_device *ib_dev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static struct net_device *rxe_get_netdev(struct ib_device *ib_dev, u32 port)
{
	struct net_device *ndev = to_rdev(ib_dev)->ndev;

	dev_hold(ndev);
	return ndev;
}

/* One P_Key, the full-membership default (sysfs ports/1/pkeys/0). */
static int rxe_query_pkey(struct ib_device *ib_dev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index >= RXE_PKEY_TBL_LEN)
		return -EINVAL;
	*pkey = RXE_DEFAULT_PKEY;
	return 0;
}

/* sysfs <dev>/parent: the bound netdev's name, as upstream rxe. */
static ssize_t parent_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	struct ib_device *ib_dev = rdma_device_to_ibdev(d);

	return sysfs_emit(buf, "%s\n", to_rdev(ib_dev)->ndev->name);
}
static DEVICE_ATTR_RO(parent);

static struct attribute *rxe_dev_attributes[] = {
	&dev_attr_parent.attr,
	NULL,
};

static const struct attribute_group rxe_dev_attr_group = {
	.attrs = rxe_dev_attributes,
};

/* Last use of the device: core frees the memory right after. */
static void rxe_dealloc_driver(struct ib_device *ib_dev)
{
	struct rxe_dev *rxe = to_rdev(ib_dev);

	rxe_dev_list_del(rxe);
	rxe_mcast_dev_cleanup(rxe);
	rxe_pools_cleanup(rxe);
	rxe_net_put(rxe->sock_net);
	dev_put(rxe->ndev);
	rxe->ndev = NULL;
}

static const struct ib_device_ops rxe_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = RXE_UVERBS_ABI_VER,
	.query_device = rxe_query_device,
	.query_port = rxe_query_port,
	.get_port_immutable = rxe_get_port_immutable,
	.get_link_layer = rxe_get_link_layer,
	.get_netdev = rxe_get_netdev,
	.port_stats = rxe_port_stats,
	.num_port_stats = RXE_NUM_COUNTERS,
	.get_hw_stats = rxe_get_hw_stats,
	.dealloc_driver = rxe_dealloc_driver,
	.query_pkey = rxe_query_pkey,
	.device_group = &rxe_dev_attr_group,

	.alloc_ucontext = rxe_alloc_ucontext,
	.dealloc_ucontext = rxe_dealloc_ucontext,
	.mmap = rxe_mmap,
	.disassociate_ucontext = rxe_disassociate_ucontext,
	.alloc_pd = rxe_alloc_pd,
	.dealloc_pd = rxe_dealloc_pd,
	.get_dma_mr = rxe_get_dma_mr,
	.reg_user_mr = rxe_reg_user_mr,
	.rereg_user_mr = rxe_rereg_user_mr,
	.dereg_mr = rxe_dereg_mr,
	.alloc_mr = rxe_alloc_mr,
	.map_mr_sg = rxe_map_mr_sg,
	.alloc_mw = rxe_alloc_mw,
	.dealloc_mw = rxe_dealloc_mw,
	.create_cq = rxe_create_cq,
	.resize_cq = rxe_resize_cq,
	.destroy_cq = rxe_destroy_cq,
	.req_notify_cq = rxe_req_notify_cq,
	.poll_cq = rxe_poll_cq,
	.create_qp = rxe_create_qp,
	.modify_qp = rxe_modify_qp,
	.query_qp = rxe_query_qp,
	.destroy_qp = rxe_destroy_qp,
	.post_send = rxe_post_send,
	.post_recv = rxe_post_recv,
	.create_srq = rxe_create_srq,
	.modify_srq = rxe_modify_srq,
	.query_srq = rxe_query_srq,
	.destroy_srq = rxe_destroy_srq,
	.post_srq_recv = rxe_post_srq_recv,
	.create_ah = rxe_create_ah,
	.destroy_ah = rxe_destroy_ah,

	.attach_mcast = rxe_attach_mcast,
	.detach_mcast = rxe_detach_mcast,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, rxe_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, rxe_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_mw, rxe_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_cq, rxe_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, rxe_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, rxe_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ah, rxe_ah, ibah),
};

/* what an ODP MR serves, per transport (ibv_devinfo -v: *_odp_caps) */
#define RXE_ODP_OPS_UD	(RDMA_ODP_OP_SEND | RDMA_ODP_OP_RECV | RDMA_ODP_OP_SRQ_RECV)
#define RXE_ODP_OPS_UC	(RXE_ODP_OPS_UD | RDMA_ODP_OP_WRITE)
#define RXE_ODP_OPS_RC	(RXE_ODP_OPS_UC | RDMA_ODP_OP_READ | RDMA_ODP_OP_ATOMIC)

static void rxe_init_attrs(struct ib_device_attr *a, __be64 guid)
{
	memset(a, 0, sizeof(*a));
	a->fw_ver = RXE_FW_VER;
	a->sys_image_guid = guid;
	a->vendor_id = RXE_VENDOR_ID;
	a->vendor_part_id = RXE_VENDOR_PART_ID;
	a->hw_ver = RXE_HW_VER;
	a->device_cap_flags = RXE_DEVICE_CAP_FLAGS;
	a->kernel_cap_flags = IBK_ALLOW_USER_UNREG | IBK_NETNS_FOLLOWS_NETDEV |
			      IBK_ON_DEMAND_PAGING;
	/* every ODP access is a copy through rxe_odp.c: all transports */
	a->odp.general = RDMA_ODP_ENABLED;
	a->odp.ops[RDMA_ODP_RC] = RXE_ODP_OPS_RC;
	a->odp.ops[RDMA_ODP_UC] = RXE_ODP_OPS_UC;
	a->odp.ops[RDMA_ODP_UD] = RXE_ODP_OPS_UD;
	a->max_mr_size = RXE_MAX_MR_SIZE;
	a->page_size_cap = RXE_PAGE_SIZE_CAP;
	a->max_mr = RXE_MAX_MR;
	a->max_mw = RXE_MAX_MW;
	a->max_pd = RXE_MAX_PD;
	a->max_fast_reg_page_list_len = RXE_MAX_FAST_REG_PAGES;
	a->max_qp = RXE_MAX_QP;
	a->max_qp_wr = RXE_MAX_QP_WR;
	a->max_send_sge = RXE_MAX_SGE;
	a->max_recv_sge = RXE_MAX_SGE;
	a->max_sge_rd = RXE_MAX_SGE_RD;
	a->max_cq = RXE_MAX_CQ;
	a->max_cqe = RXE_MAX_CQE;
	a->max_srq = RXE_MAX_SRQ;
	a->max_srq_wr = RXE_MAX_SRQ_WR;
	a->max_srq_sge = RXE_MAX_SRQ_SGE;
	a->max_ah = RXE_MAX_AH;
	a->max_qp_rd_atom = RXE_MAX_QP_RD_ATOM;
	a->max_qp_init_rd_atom = RXE_MAX_QP_INIT_RD_ATOM;
	a->max_res_rd_atom = RXE_MAX_RES_RD_ATOM;
	a->atomic_cap = RXE_ATOMIC_CAP;
	a->max_mcast_grp = RXE_MAX_MCAST_GRP;
	a->max_mcast_qp_attach = RXE_MAX_MCAST_QP_ATTACH;
	a->max_total_mcast_qp_attach = RXE_MAX_TOT_MCAST_QP_ATTACH;
	a->max_pkeys = RXE_MAX_PKEYS;
	a->local_ca_ack_delay = RXE_LOCAL_CA_ACK_DELAY;
}

/*
 * Port width and speed from the netdev's link speed.  Read once here, where
 * no lock is held: rxe_query_port() cannot take RTNL, since the netdev
 * notifier unregisters devices under RTNL and waits for their users.
 */
static void rxe_init_port_speed(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;
	u32 mbps = RXE_DEFAULT_ETH_MBPS;

	rtnl_lock();
	if (!__ethtool_get_link_ksettings(ndev, &ks) &&
	    ks.base.speed != (u32)SPEED_UNKNOWN)
		mbps = ks.base.speed;
	rtnl_unlock();
	rxe_eth_width_speed(mbps, &rxe->active_width, &rxe->active_speed);
}

/* Everything but registration: identity, attributes and ops from @ndev. */
void rxe_init_device(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct ib_device *ib_dev = &rxe->ib_dev;
	__be64 guid = cpu_to_be64(rxe_mac_to_eui64(ndev->dev_addr));

	rxe->ndev = ndev;
	INIT_LIST_HEAD(&rxe->list);
	rxe->port_state = rxe_port_state(ndev);
	rxe_init_port_speed(rxe, ndev);

	ib_set_device_ops(ib_dev, &rxe_dev_ops);
	ib_dev->node_type = RDMA_NODE_IB_CA;
	ib_dev->phys_port_cnt = 1;
	ib_dev->num_comp_vectors = num_possible_cpus();
	ib_dev->node_guid = guid;
	strscpy(ib_dev->node_desc, RXE_NODE_DESC, sizeof(ib_dev->node_desc));
	rxe_init_attrs(&ib_dev->attrs, guid);
	rxe_pools_init(rxe);
	rxe_mcast_dev_init(rxe);
}
