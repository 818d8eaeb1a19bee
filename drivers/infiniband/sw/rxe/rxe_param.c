// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Pure helpers of the rxe device: no locks, no allocation, type-level
 * headers only (also compiled as C++17 by tools/testing/unit).
 */
#include <rdma/ib_gid_table.h>

#include "rxe_param.h"

unsigned int rxe_path_mtu_bytes(int code)
{
	if (code < IB_MTU_256 || code > IB_MTU_4096)
		return 0;
	/* code 1 is 256 bytes, each step doubles */
	return 128U << code;
}

enum ib_mtu rxe_path_mtu_from_netdev_mtu(unsigned int netdev_mtu)
{
	unsigned int payload;
	int code;

	if (netdev_mtu <= RXE_ROCE_V2_OVERHEAD)
		return IB_MTU_256;
	payload = netdev_mtu - RXE_ROCE_V2_OVERHEAD;
	for (code = IB_MTU_4096; code > IB_MTU_256; code--)
		if (rxe_path_mtu_bytes(code) <= payload)
			break;
	return (enum ib_mtu)code;
}

u64 rxe_mac_to_eui64(const u8 *mac)
{
	u8 gid[RDMA_GID_BYTES];
	u64 eui = 0;
	int i;

	/* one EUI-64 rule in the stack: the default GID's interface id */
	rdma_gid_default_from_mac(mac, gid);
	for (i = 8; i < RDMA_GID_BYTES; i++)
		eui = (eui << 8) | gid[i];
	return eui;
}

/* Ethernet link speed ranges, slowest first; the last one is open-ended. */
static const struct {
	u32 max_mbps;
	u8 width;
	u8 speed;
} rxe_eth_speeds[] = {
	{ .max_mbps = 1000, .width = RXE_WIDTH_1X, .speed = RXE_SPEED_SDR },
	{ .max_mbps = 10000, .width = RXE_WIDTH_1X, .speed = RXE_SPEED_FDR10 },
	{ .max_mbps = 20000, .width = RXE_WIDTH_4X, .speed = RXE_SPEED_DDR },
	{ .max_mbps = 25000, .width = RXE_WIDTH_1X, .speed = RXE_SPEED_EDR },
	{ .max_mbps = 40000, .width = RXE_WIDTH_4X, .speed = RXE_SPEED_FDR10 },
	{ .max_mbps = 0xffffffffU, .width = RXE_WIDTH_4X, .speed = RXE_SPEED_EDR },
};

void rxe_eth_width_speed(u32 mbps, u8 *width, u16 *speed)
{
	unsigned int i = 0;

	while (mbps > rxe_eth_speeds[i].max_mbps)
		i++;
	*width = rxe_eth_speeds[i].width;
	*speed = rxe_eth_speeds[i].speed;
}
