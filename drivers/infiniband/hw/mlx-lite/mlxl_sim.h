/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the attach point for simulated functions.  A front that models
 * a ConnectX function (mlx_lite_fwsim) registers a platform device named
 * MLXL_SIM_DRV_NAME whose platform data is a struct mlxl_sim_pdata; the
 * mlx_lite driver binds to it as it binds to a PCI function and reaches
 * the function only through pdata->ops.  Neither module links against the
 * other: either can be unloaded while the other stays.
 *
 * Rules:
 *  - The front keeps ctx, ndev and everything ops reach valid until
 *    platform_device_unregister() returns (the driver's remove() has then
 *    let go of the function).
 *  - The driver sets bound (and clears probe_err) when its probe succeeded,
 *    and sets probe_err when it failed, so the front can answer newlink.
 *  - deleted() is called by the driver when the user deleted the RDMA
 *    device (rdma link delete), never from its remove(): the front then
 *    unregisters the platform device.  Any context; must not wait.
 */
#ifndef MLXL_SIM_H
#define MLXL_SIM_H

#include <rdma/ib_device.h>
#include "mlxl_dev.h"

#define MLXL_SIM_DRV_NAME	"mlx_lite_sim"

struct net_device;

struct mlxl_sim_pdata {
	const struct mlxl_ops *ops;
	void *ctx;
	struct net_device *ndev;
	char ibdev_name[IB_DEVICE_NAME_MAX];
	u32 vendor_part_id;		/* the PCI device ID the function models */
	void (*deleted)(struct mlxl_sim_pdata *pd);
	void *front;			/* the front's own state */
	bool bound;
	int probe_err;
};

#endif /* MLXL_SIM_H */
