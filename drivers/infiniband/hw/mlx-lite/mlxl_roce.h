/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the port's RoCE address (GID) table in the HCA, programmed by
 * SET_ROCE_ADDRESS from ib_core's GID cache (ops.add_gid/del_gid).
 * mlxl_roce.c is pure (builds on the host); mlxl_gid.c is the kernel side.
 */
#ifndef MLXL_ROCE_H
#define MLXL_ROCE_H

#include <linux/types.h>
#include "mlxl_dev.h"

#define MLXL_GID_LEN		16
#define MLXL_VLAN_NONE		0xffff

struct mlxl_roce_addr {
	u8 gid[MLXL_GID_LEN];
	u8 mac[6];		/* source MAC of the entry's netdev */
	bool v2;		/* RoCE v2 (UDP); else v1 */
	u16 vlan;		/* 0..4094, or MLXL_VLAN_NONE */
};

/*
 * SET_ROCE_ADDRESS input for entry @index of the function's port into
 * @in (MLXL_SET_ROCE_ADDRESS_IN_LEN bytes): @a, or an all-zero address
 * (the entry cleared) when @a is NULL.  The l3 type is IPv4 for an
 * IPv4-mapped GID (::ffff:a.b.c.d), else IPv6.  vhca_port_num is 1 when
 * @num_vhca_ports is nonzero, else 0.  0, or -EINVAL for a VLAN id
 * above 4094.
 */
int mlxl_roce_addr_in(u8 *in, u32 index, u32 num_vhca_ports,
		      const struct mlxl_roce_addr *a);

/* Program entry @index (@a NULL: clear it).  Caller serialises commands. */
int mlxl_roce_addr_set(struct mlxl_dev *dev, u32 index,
		       const struct mlxl_roce_addr *a);

struct mutex;
struct net_device;
struct ib_gid_attr;

/*
 * mlxl_gid.c: ops.add_gid (@add) / ops.del_gid for entry @attr of the
 * device whose HCA is @hw, commands under @cmd_lock; the source MAC and
 * VLAN come from the entry's netdev, or @port_ndev.  Sleeps.
 */
int mlxl_gid_write(struct mlxl_dev *hw, struct mutex *cmd_lock,
		   struct net_device *port_ndev, const struct ib_gid_attr *attr,
		   bool add);

#endif /* MLXL_ROCE_H */
