// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: SET_ROCE_ADDRESS, the layout of one RoCE address table entry
 * (roce_addr_layout, Documentation/mlx-lite/identity.rst).  Pure.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "mlxl_roce.h"

static bool gid_is_v4mapped(const u8 *gid)
{
	u32 i;

	for (i = 0; i < 10; i++)
		if (gid[i])
			return false;
	return gid[10] == 0xff && gid[11] == 0xff;
}

int mlxl_roce_addr_in(u8 *in, u32 index, u32 num_vhca_ports,
		      const struct mlxl_roce_addr *a)
{
	u32 i;

	if (a && a->vlan != MLXL_VLAN_NONE && a->vlan > 4094)
		return -EINVAL;
	mlxl_cmd_hdr(in, MLXL_SET_ROCE_ADDRESS_IN_LEN, MLXL_OP_SET_ROCE_ADDRESS, 0);
	MLXL_SET(in, MLXL_F_ROCE_ADDR_INDEX, index);
	MLXL_SET(in, MLXL_F_ROCE_ADDR_PORT, num_vhca_ports ? 1 : 0);
	if (!a)
		return 0;
	for (i = 0; i < MLXL_GID_LEN; i++)
		in[MLXL_ROCE_ADDR_GID + i] = a->gid[i];
	if (a->vlan != MLXL_VLAN_NONE) {
		MLXL_SET(in, MLXL_F_ROCE_ADDR_VLAN_VALID, 1);
		MLXL_SET(in, MLXL_F_ROCE_ADDR_VLAN_ID, a->vlan);
	}
	MLXL_SET(in, MLXL_F_ROCE_ADDR_MAC_47_32, (u32)a->mac[0] << 8 | a->mac[1]);
	MLXL_SET(in, MLXL_F_ROCE_ADDR_MAC_31_0,
		 (u32)a->mac[2] << 24 | (u32)a->mac[3] << 16 |
		 (u32)a->mac[4] << 8 | a->mac[5]);
	MLXL_SET(in, MLXL_F_ROCE_ADDR_L3_TYPE,
		 gid_is_v4mapped(a->gid) ? MLXL_ROCE_L3_IPV4 : MLXL_ROCE_L3_IPV6);
	MLXL_SET(in, MLXL_F_ROCE_ADDR_VERSION, a->v2 ? MLXL_ROCE_V2 : MLXL_ROCE_V1);
	return 0;
}

int mlxl_roce_addr_set(struct mlxl_dev *dev, u32 index,
		       const struct mlxl_roce_addr *a)
{
	int err;

	err = mlxl_roce_addr_in(dev->in, index,
				MLXL_GET(dev->cap_cur, MLXL_C_NUM_VHCA_PORTS), a);
	if (err)
		return err;
	return mlxl_cmd_exec(dev, dev->in, MLXL_SET_ROCE_ADDRESS_IN_LEN,
			     dev->out, MLXL_HDR_LEN);
}
