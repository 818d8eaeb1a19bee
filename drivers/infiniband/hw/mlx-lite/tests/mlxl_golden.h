/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bring-up and teardown command sequences of
 * Documentation/mlx-lite/driver.rst, as the model's trace must show them
 * on every profile.  One list for the KUnit suite and the host tests.
 */
#ifndef MLXL_GOLDEN_H
#define MLXL_GOLDEN_H

#include "../mlxl_ifc.h"

static const u16 mlxl_golden_boot[] = {
	MLXL_OP_ENABLE_HCA, MLXL_OP_QUERY_ISSI, MLXL_OP_SET_ISSI,
	MLXL_OP_QUERY_PAGES, MLXL_OP_MANAGE_PAGES, MLXL_OP_ACCESS_REG,
	MLXL_OP_QUERY_HCA_CAP, MLXL_OP_QUERY_HCA_CAP, MLXL_OP_SET_HCA_CAP,
	MLXL_OP_QUERY_HCA_CAP, MLXL_OP_QUERY_PAGES, MLXL_OP_MANAGE_PAGES,
	MLXL_OP_INIT_HCA, MLXL_OP_SET_DRIVER_VERSION, MLXL_OP_QUERY_HCA_CAP,
	MLXL_OP_QUERY_ADAPTER, MLXL_OP_ALLOC_UAR, MLXL_OP_CREATE_EQ,
};

static const u16 mlxl_golden_down[] = {
	MLXL_OP_DESTROY_EQ, MLXL_OP_DEALLOC_UAR, MLXL_OP_TEARDOWN_HCA,
	MLXL_OP_MANAGE_PAGES, MLXL_OP_DISABLE_HCA,
};

#endif /* MLXL_GOLDEN_H */
