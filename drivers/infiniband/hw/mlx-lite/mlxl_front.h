/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: what a bus front (mlxl_pci.c; the simulated-function front is
 * in mlxl_main.c) calls to bind and unbind a function.
 */
#ifndef MLXL_FRONT_H
#define MLXL_FRONT_H

#include "mlxl_dev.h"

struct device;
struct net_device;
struct mlxl_bind;

/*
 * Boot the HCA behind @ops/@ctx and register its RDMA device on @parent
 * ("mlxl%d"), bound to @ndev (held by the front until after remove).
 * 0 with *@out set, or -errno (-ENODEV for a function with InfiniBand
 * personality).
 */
int mlxl_front_probe(struct device *parent, const struct mlxl_ops *ops,
		     void *ctx, struct net_device *ndev, u32 part_id,
		     struct mlxl_bind **out);
/* Unregister (unless done already) and tear down; sleeps. */
void mlxl_front_remove(struct mlxl_bind *bind);

int mlxl_pci_init(void);
void mlxl_pci_exit(void);

#endif /* MLXL_FRONT_H */
