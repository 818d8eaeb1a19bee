// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: the HCA's RoCE address table follows ib_core's GID cache.
 *
 * ib_core calls ops.add_gid before an entry becomes visible and
 * ops.del_gid after it left (and for every entry left at unregistration,
 * before dealloc_driver), in process context, serialised per port by the
 * cache's writer mutex and never under RTNL (Documentation/core/
 * gid-table.rst).  Each call is one SET_ROCE_ADDRESS at the entry's index
 * under the device's command mutex; the firmware's answer is waited for
 * here, which is why RTNL must not be held by the caller.
 */
#include <linux/if_vlan.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

#include "mlxl_sim.h"
#include "mlxl_roce.h"

int mlxl_gid_write(struct mlxl_dev *hw, struct mutex *cmd_lock,
		   struct net_device *port_ndev, const struct ib_gid_attr *attr,
		   bool add)
{
	struct net_device *ndev = attr->ndev ? attr->ndev : port_ndev;
	struct mlxl_roce_addr a = {};
	int err;

	might_sleep();
	if (add) {
		if (attr->gid_type != IB_GID_TYPE_ROCE &&
		    attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
			return -EINVAL;
		memcpy(a.gid, attr->gid.raw, sizeof(a.gid));
		memcpy(a.mac, ndev->dev_addr, sizeof(a.mac));
		a.v2 = attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP;
		a.vlan = is_vlan_dev(ndev) ? vlan_dev_vlan_id(ndev) :
					     MLXL_VLAN_NONE;
	}
	mutex_lock(cmd_lock);
	err = mlxl_roce_addr_set(hw, attr->index, add ? &a : NULL);
	if (err)
		dev_warn_ratelimited(&attr->device->dev,
				     "%s GID index %u: %d (%s status 0x%x syndrome 0x%x)\n",
				     add ? "adding" : "clearing", attr->index,
				     err, mlxl_cmd_name(hw->err_opcode),
				     hw->err_status, hw->err_syndrome);
	mutex_unlock(cmd_lock);
	return err;
}
