// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: module setup, the bus fronts' common probe and remove, and the
 * RDMA device it registers with ib_core (identity, port, firmware string).
 *
 * Lifetime (Documentation/mlx-lite/index.rst):
 *  - probe() boots the HCA and registers an ib_device; the bound function's
 *    drvdata is a struct mlxl_bind that outlives the ib_device.
 *  - ops.dealloc_driver, which ib_core calls exactly once after the last
 *    user is gone (from remove(), from "rdma link delete", or from a
 *    queued unregistration), tears the HCA down and completes
 *    bind->released.  It is the only place the HCA is torn down.
 *  - remove() unregisters the device if it is still registered, then
 *    waits for bind->released; the function's memory is the front's
 *    again when remove() returns.
 *  - bind->lock guards bind->ib: once dealloc_driver cleared it under the
 *    lock, the ib_device's memory may be gone.
 *  - Events (mlxl_events.h) run from after the bring-up until
 *    dealloc_driver stops them, before the teardown.  A dead device
 *    (health) gets IB_EVENT_DEVICE_FATAL and a queued unregistration, so
 *    its teardown, a function reset, is dealloc_driver's too.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>

#include "mlxl_ib.h"
#include "mlxl_events.h"
#include "mlxl_sim.h"
#include "mlxl_roce.h"
#include "mlxl_front.h"
#include "mlxl_verbs.h"

#define MLXL_PORT		1
#define MLXL_VENDOR_ID		0x02c9	/* Mellanox */
#define MLXL_PAGES_CAP		8192	/* firmware pages one function may hold */
#define MLXL_DEFAULT_GIDS	256
#define MLXL_MAX_MAD_SIZE	256
/* RoCEv2 headers around a payload at most: IPv6, UDP, BTH, extended headers, ICRC */
#define MLXL_ROCE_OVERHEAD	96

struct mlxl_bind {
	struct mutex lock;
	struct mlxl_ib *ib;		/* NULL once dealloc_driver ran */
	bool removing;			/* remove() started: no deleted() */
	struct completion released;
	struct mlxl_sim_pdata *pd;	/* simulated function, or NULL */
};

/* ---- ib_device ops */

static enum ib_mtu mlxl_path_mtu(unsigned int netdev_mtu)
{
	unsigned int room = netdev_mtu > MLXL_ROCE_OVERHEAD ?
			    netdev_mtu - MLXL_ROCE_OVERHEAD : 0;

	if (room >= 4096)
		return IB_MTU_4096;
	if (room >= 2048)
		return IB_MTU_2048;
	if (room >= 1024)
		return IB_MTU_1024;
	if (room >= 512)
		return IB_MTU_512;
	return IB_MTU_256;
}

static int mlxl_query_device(struct ib_device *ib, struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	*attr = ib->attrs;
	return 0;
}

static int mlxl_query_port(struct ib_device *ib, u32 port,
			   struct ib_port_attr *attr)
{
	struct net_device *ndev = to_mib(ib)->ndev;
	bool up = READ_ONCE(to_mib(ib)->port_up);

	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = mlxl_path_mtu(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = to_mib(ib)->gid_tbl_len;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 1u << 30;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	attr->max_vl_num = 1;
	return 0;
}

static int mlxl_port_immutable(struct ib_device *ib, u32 port,
			       struct ib_port_immutable *im)
{
	im->pkey_tbl_len = 1;
	im->gid_tbl_len = to_mib(ib)->gid_tbl_len;
	im->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	im->max_mad_size = MLXL_MAX_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer mlxl_link_layer(struct ib_device *ib, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static struct net_device *mlxl_get_netdev(struct ib_device *ib, u32 port)
{
	struct net_device *ndev = to_mib(ib)->ndev;

	dev_hold(ndev);
	return ndev;
}

static int mlxl_query_pkey(struct ib_device *ib, u32 port, u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = 0xffff;
	return 0;
}

/* as the firmware reports it: major.minor.subminor */
static void mlxl_fw_str(struct ib_device *ib, char *str)
{
	u64 v = ib->attrs.fw_ver;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%04u",
		 (unsigned int)(v >> 32), (unsigned int)(v >> 16 & 0xffff),
		 (unsigned int)(v & 0xffff));
}

/* the HCA's RoCE address table follows ib_core's GID table (mlxl_gid.c) */
static int mlxl_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct mlxl_ib *mib = container_of(attr->device, struct mlxl_ib, ib);

	return mlxl_gid_write(mib->hw, &mib->cmd_lock, mib->ndev, attr, true);
}

static int mlxl_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct mlxl_ib *mib = container_of(attr->device, struct mlxl_ib, ib);

	return mlxl_gid_write(mib->hw, &mib->cmd_lock, mib->ndev, attr, false);
}

static void mlxl_free_hw(struct mlxl_ib *mib)
{
	kvfree(mib->pages);
	kvfree(mib->hw);
	mib->pages = NULL;
	mib->hw = NULL;
}

/*
 * The HCA goes down here and nowhere else.  A shutdown the firmware
 * refused leaves memory in its hands: that memory is the front's and the
 * driver forgets it (freeing it could let the device write into reused
 * memory).
 */
static void mlxl_dealloc_driver(struct ib_device *ib)
{
	struct mlxl_ib *mib = to_mib(ib);
	struct mlxl_bind *bind = mib->bind;
	struct mlxl_sim_pdata *pd;
	bool tell;

	mlxl_ev_stop(&mib->ev);
	mlxl_verbs_hw_fini(mib);
	mutex_lock(&mib->cmd_lock);
	mlxl_shutdown(mib->hw);
	if (mib->hw->step != MLXL_STEP_NONE)
		dev_err(&ib->dev, "firmware refused teardown at step %d (%s status 0x%x syndrome 0x%x); its memory is left to the device\n",
			mib->hw->step, mlxl_cmd_name(mib->hw->err_opcode),
			mib->hw->err_status, mib->hw->err_syndrome);
	mutex_unlock(&mib->cmd_lock);
	mlxl_free_hw(mib);
	mutex_destroy(&mib->cmd_lock);

	mutex_lock(&bind->lock);
	bind->ib = NULL;
	tell = !bind->removing;
	pd = bind->pd;
	mutex_unlock(&bind->lock);
	/* the user deleted the device: the function goes too */
	if (tell && pd && pd->deleted)
		pd->deleted(pd);
	complete(&bind->released);
}

/* sysfs board_id: the PSID the firmware reported, as mlx5_ib shows it */
static ssize_t board_id_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	struct mlxl_ib *mib = to_mib(rdma_device_to_ibdev(d));

	return sysfs_emit(buf, "%s\n", mib->board_id);
}
static DEVICE_ATTR_RO(board_id);

static struct attribute *mlxl_dev_attrs[] = {
	&dev_attr_board_id.attr,
	NULL,
};

static const struct attribute_group mlxl_dev_group = {
	.attrs = mlxl_dev_attrs,
};

static const struct ib_device_ops mlxl_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MLX5,
	.query_device = mlxl_query_device,
	.query_port = mlxl_query_port,
	.get_port_immutable = mlxl_port_immutable,
	.get_link_layer = mlxl_link_layer,
	.get_netdev = mlxl_get_netdev,
	.dealloc_driver = mlxl_dealloc_driver,
	.query_pkey = mlxl_query_pkey,
	.get_dev_fw_str = mlxl_fw_str,
	.device_group = &mlxl_dev_group,
	.add_gid = mlxl_add_gid,
	.del_gid = mlxl_del_gid,
};

static void mlxl_port_change(void *owner, bool up)
{
	struct mlxl_ib *mib = (struct mlxl_ib *)owner;
	struct ib_event e = {
		.device = &mib->ib,
		.event = up ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR,
		.element.port_num = MLXL_PORT,
	};

	WRITE_ONCE(mib->port_up, up);
	ib_dispatch_event(&e);
}

/* the device is dead: tell its users, then let it go (dealloc_driver) */
static void mlxl_fatal(void *owner)
{
	struct mlxl_ib *mib = (struct mlxl_ib *)owner;
	struct ib_event e = {
		.device = &mib->ib,
		.event = IB_EVENT_DEVICE_FATAL,
		.element.port_num = MLXL_PORT,
	};

	if (!ib_device_try_get(&mib->ib))
		return;		/* already being unregistered */
	dev_info(&mib->ib.dev, "device fatal error (health syndrome 0x%x): unregistering\n",
		 mib->hw->fatal_synd);
	ib_dispatch_event(&e);
	ib_unregister_device_queued(&mib->ib);
	ib_device_put(&mib->ib);
}

static const struct mlxl_ev_client mlxl_ev_client = {
	.port_change = mlxl_port_change,
	.fatal = mlxl_fatal,
	.async = mlxl_async,
};

/* the device's attributes from the capabilities the HCA runs with */
static void mlxl_fill_attrs(struct mlxl_ib *mib, u32 part_id)
{
	const u8 *cap = mib->hw->cap_cur;
	struct ib_device_attr *a = &mib->ib.attrs;
	u8 eui[8];

	strscpy(mib->board_id, mib->hw->board_id, sizeof(mib->board_id));
	a->fw_ver = (u64)mib->hw->fw_rev_major << 32 |
		    (u64)mib->hw->fw_rev_minor << 16 | mib->hw->fw_rev_sub;
	a->vendor_id = MLXL_VENDOR_ID;
	a->vendor_part_id = part_id;
	a->max_qp = 1 << MLXL_GET(cap, MLXL_C_LOG_MAX_QP);
	a->max_qp_wr = 1 << MLXL_GET(cap, MLXL_C_LOG_MAX_QP_SZ);
	a->max_cq = 1 << MLXL_GET(cap, MLXL_C_LOG_MAX_CQ);
	a->max_cqe = (1 << MLXL_GET(cap, MLXL_C_LOG_MAX_CQ_SZ)) - 1;
	a->max_mr = 1 << MLXL_GET(cap, MLXL_C_LOG_MAX_MKEY);
	a->max_pd = 1 << MLXL_GET(cap, MLXL_C_LOG_MAX_PD);
	a->max_pkeys = 1;
	a->page_size_cap = ~(u64)(MLXL_FW_PAGE_SIZE - 1);
	/* GUIDs from the port's MAC, EUI-64 style, as RoCE HCAs derive them */
	addrconf_addr_eui48(eui, mib->ndev->dev_addr);
	memcpy(&mib->ib.node_guid, eui, sizeof(eui));
	a->sys_image_guid = mib->ib.node_guid;
	mib->gid_tbl_len = MLXL_GET(mib->hw->roce_cap, MLXL_RC_ADDR_TABLE_SIZE);
	if (!mib->gid_tbl_len)
		mib->gid_tbl_len = MLXL_DEFAULT_GIDS;
}

/*
 * Boot the HCA behind @ops/@ctx and register it as @name on @parent.
 * The bound function's drvdata (@bind) is set up by the caller.
 */
static int mlxl_probe_common(struct mlxl_bind *bind, struct device *parent,
			     const struct mlxl_ops *ops, void *ctx,
			     struct net_device *ndev, const char *name,
			     u32 part_id, bool user_unreg)
{
	struct mlxl_ib *mib;
	int err;

	mib = ib_alloc_device(mlxl_ib, ib);
	if (!mib)
		return -ENOMEM;
	mutex_init(&mib->cmd_lock);
	mlxl_async_init(mib);
	mib->hw = (struct mlxl_dev *)kvzalloc(sizeof(*mib->hw), GFP_KERNEL);
	mib->pages = (struct mlxl_dma *)kvcalloc(MLXL_PAGES_CAP, sizeof(*mib->pages),
						 GFP_KERNEL);
	if (!mib->hw || !mib->pages) {
		err = -ENOMEM;
		goto err_free;
	}
	mib->hw->ops = ops;
	mib->hw->ctx = ctx;
	mib->hw->pages = mib->pages;
	mib->hw->pages_cap = MLXL_PAGES_CAP;
	mib->ndev = ndev;
	mib->bind = bind;

	mutex_lock(&mib->cmd_lock);
	err = mlxl_boot(mib->hw);
	mutex_unlock(&mib->cmd_lock);
	if (err == -EPROTONOSUPPORT) {
		dev_err(parent, "InfiniBand port type: mlx_lite drives Ethernet (RoCE) functions only\n");
		err = -ENODEV;
		goto err_free;
	}
	if (err) {
		dev_err(parent, "HCA bring-up failed: %d (%s: status 0x%x syndrome 0x%x)\n",
			err, mlxl_cmd_name(mib->hw->err_opcode),
			mib->hw->err_status, mib->hw->err_syndrome);
		goto err_free;
	}

	mib->port_up = netif_running(ndev) && netif_carrier_ok(ndev);
	err = mlxl_ev_start(&mib->ev, mib->hw, &mib->cmd_lock, &mlxl_ev_client,
			    mib, msecs_to_jiffies(MLXL_HEALTH_PERIOD_MS));
	if (err) {
		dev_err(parent, "events: %d\n", err);
		goto err_shutdown;
	}

	ib_set_device_ops(&mib->ib, &mlxl_dev_ops);
	ib_set_device_ops(&mib->ib, &mlxl_verbs_ops);
	ib_set_device_ops(&mib->ib, &mlxl_dp_ops);
	mib->ib.node_type = RDMA_NODE_IB_CA;
	mib->ib.phys_port_cnt = 1;
	mib->ib.num_comp_vectors = 1;
	strscpy(mib->ib.node_desc, "mlx-lite", sizeof(mib->ib.node_desc));
	mlxl_fill_attrs(mib, part_id);
	mlxl_verbs_attrs(mib);
	err = mlxl_verbs_hw_init(mib);
	if (err) {
		dev_err(parent, "RoCE enable failed: %d\n", err);
		goto err_shutdown;
	}
	if (user_unreg)
		mib->ib.attrs.kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	/* a hardware function: movable, back to init_net when its netns dies */
	mib->ib.attrs.kernel_cap_flags |= IBK_ALLOW_NETNS_CHANGE;

	bind->ib = mib;
	/* from here on dealloc_driver owns the teardown */
	err = ib_register_device(&mib->ib, name, parent);
	if (err) {
		bind->ib = NULL;
		dev_err(parent, "RDMA device registration failed: %d\n", err);
		mlxl_verbs_hw_fini(mib);
		goto err_shutdown;
	}
	/* unless an unregistration already started: it waits for the put */
	if (ib_device_try_get(&mib->ib)) {
		mlxl_ev_notify(&mib->ev);
		ib_device_put(&mib->ib);
	}
	return 0;

err_shutdown:
	mlxl_ev_stop(&mib->ev);
	mutex_lock(&mib->cmd_lock);
	mlxl_shutdown(mib->hw);
	mutex_unlock(&mib->cmd_lock);

err_free:
	mlxl_free_hw(mib);
	mutex_destroy(&mib->cmd_lock);
	ib_dealloc_device(&mib->ib);
	return err;
}

/*
 * Unregister the function's device unless someone else already did, and
 * wait until dealloc_driver has run.  A device in the middle of a
 * namespace move has no uses to take: try again once the move is over.
 */
static void mlxl_remove_common(struct mlxl_bind *bind)
{
	struct mlxl_ib *mib;
	bool got;

	mutex_lock(&bind->lock);
	bind->removing = true;
	mutex_unlock(&bind->lock);
	for (;;) {
		mutex_lock(&bind->lock);
		mib = bind->ib;
		got = mib && ib_device_try_get(&mib->ib);
		mutex_unlock(&bind->lock);
		if (got)
			ib_unregister_device_and_put(&mib->ib);
		if (wait_for_completion_timeout(&bind->released, HZ))
			break;
	}
}

static struct mlxl_bind *mlxl_bind_alloc(struct mlxl_sim_pdata *pd)
{
	struct mlxl_bind *bind;

	bind = (struct mlxl_bind *)kzalloc(sizeof(*bind), GFP_KERNEL);
	if (!bind)
		return NULL;
	mutex_init(&bind->lock);
	init_completion(&bind->released);
	bind->pd = pd;
	return bind;
}

static void mlxl_bind_free(struct mlxl_bind *bind)
{
	mutex_destroy(&bind->lock);
	kfree(bind);
}

/* ---- other fronts (mlxl_front.h) */

int mlxl_front_probe(struct device *parent, const struct mlxl_ops *ops,
		     void *ctx, struct net_device *ndev, u32 part_id,
		     struct mlxl_bind **out)
{
	struct mlxl_bind *bind;
	int err;

	bind = mlxl_bind_alloc(NULL);
	if (!bind)
		return -ENOMEM;
	err = mlxl_probe_common(bind, parent, ops, ctx, ndev, "mlxl%d",
				part_id, false);
	if (err) {
		mlxl_bind_free(bind);
		return err;
	}
	*out = bind;
	return 0;
}

void mlxl_front_remove(struct mlxl_bind *bind)
{
	mlxl_remove_common(bind);
	mlxl_bind_free(bind);
}

/* ---- front: simulated functions (mlxl_sim.h) */

static int mlxl_sim_probe(struct platform_device *pdev)
{
	struct mlxl_sim_pdata *pd = (struct mlxl_sim_pdata *)dev_get_platdata(&pdev->dev);
	struct mlxl_bind *bind;
	int err;

	if (!pd || !pd->ops || !pd->ndev)
		return -EINVAL;
	bind = mlxl_bind_alloc(pd);
	if (!bind) {
		pd->probe_err = -ENOMEM;
		return -ENOMEM;
	}
	platform_set_drvdata(pdev, bind);
	err = mlxl_probe_common(bind, &pdev->dev, pd->ops, pd->ctx, pd->ndev,
				pd->ibdev_name[0] ? pd->ibdev_name : "mlxl%d",
				pd->vendor_part_id, true);
	if (err) {
		platform_set_drvdata(pdev, NULL);
		mlxl_bind_free(bind);
		pd->probe_err = err;
		return err;
	}
	pd->probe_err = 0;
	pd->bound = true;
	return 0;
}

static int mlxl_sim_remove(struct platform_device *pdev)
{
	struct mlxl_bind *bind = (struct mlxl_bind *)platform_get_drvdata(pdev);

	mlxl_remove_common(bind);
	bind->pd->bound = false;
	mlxl_bind_free(bind);
	return 0;
}

static struct platform_driver mlxl_sim_driver = {
	.probe = mlxl_sim_probe,
	.remove = mlxl_sim_remove,
	.driver = {
		.name = MLXL_SIM_DRV_NAME,
	},
};

static int __init mlxl_init(void)
{
	int err;

	err = platform_driver_register(&mlxl_sim_driver);
	if (err)
		return err;
	err = mlxl_pci_init();
	if (err)
		platform_driver_unregister(&mlxl_sim_driver);
	return err;
}

static void __exit mlxl_exit(void)
{
	mlxl_pci_exit();
	platform_driver_unregister(&mlxl_sim_driver);
}

module_init(mlxl_init);
module_exit(mlxl_exit);

MODULE_DESCRIPTION("mlx-lite: thin RoCE driver for ConnectX-4 Lx to ConnectX-7 functions");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS("platform:" MLXL_SIM_DRV_NAME);
