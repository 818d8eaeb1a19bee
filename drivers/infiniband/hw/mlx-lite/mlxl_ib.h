/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the registered RDMA device of one function, shared by the
 * device code (mlxl_main.c) and the verbs objects (mlxl_verbs.c,
 * mlxl_qp.c).  Commands go through hw under cmd_lock.
 */
#ifndef MLXL_IB_H
#define MLXL_IB_H

#include <linux/mutex.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "mlxl_dev.h"
#include "mlxl_events.h"

struct mlxl_bind;
struct net_device;

struct mlxl_ib {
	struct ib_device ib;
	struct mlxl_dev *hw;		/* the HCA; commands under cmd_lock */
	struct mutex cmd_lock;
	struct mlxl_dma *pages;		/* hw->pages */
	struct net_device *ndev;	/* held by the front */
	struct mlxl_bind *bind;
	u32 gid_tbl_len;
	bool roce_en;			/* the vport's roce_en, under cmd_lock */
	char board_id[MLXL_PSID_LEN + 1];
	struct mlxl_events ev;
	bool port_up;			/* from PORT_CHANGE events */
	/* live objects by firmware number, for async events (mlxl_verbs.c) */
	struct xarray cqs, qps, srqs;
	atomic_t async_unknown;		/* events for numbers not in them */
};

static inline struct mlxl_ib *to_mib(struct ib_device *ib)
{
	return container_of(ib, struct mlxl_ib, ib);
}

#endif /* MLXL_IB_H */
