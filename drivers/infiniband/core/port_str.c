// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Strings of port and device attributes for sysfs (see <rdma/ib_port_str.h>).
 * Pure logic: only type-level headers, also built as C++ on the host.
 */
#include <linux/types.h>
#include <linux/export.h>
#include <rdma/ib_port_str.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const port_state_names[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

static const char *const phys_state_names[] = {
	"<unknown>", "Sleep", "Polling", "Disabled",
	"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
	"Phy Test",
};

/* by RDMA_NODE_* (uapi/rdma/rdma_netlink.h), from 1 */
static const char *const node_type_names[] = {
	"<unknown>", "CA", "switch", "router", "RNIC", "usNIC", "usNIC UDP",
	"unspecified",
};

const char *ib_port_state_str(unsigned int state)
{
	return state < N_ELEMS(port_state_names) ? port_state_names[state] :
						    "<unknown>";
}
EXPORT_SYMBOL(ib_port_state_str);

const char *ib_port_phys_state_str(unsigned int phys_state)
{
	return phys_state < N_ELEMS(phys_state_names) ?
		phys_state_names[phys_state] : "<unknown>";
}
EXPORT_SYMBOL(ib_port_phys_state_str);

const char *ib_node_type_str(unsigned int node_type)
{
	return node_type < N_ELEMS(node_type_names) ?
		node_type_names[node_type] : "<unknown>";
}
EXPORT_SYMBOL(ib_node_type_str);

int ib_width_lanes(unsigned int width)
{
	switch (width) {
	case IB_WIDTH_1X:
		return 1;
	case IB_WIDTH_2X:
		return 2;
	case IB_WIDTH_4X:
		return 4;
	case IB_WIDTH_8X:
		return 8;
	case IB_WIDTH_12X:
		return 12;
	default:
		return -1;
	}
}
EXPORT_SYMBOL(ib_width_lanes);

struct speed_row {
	unsigned int speed;
	int deci_gbps;		/* per lane, tenths of Gb/s */
	const char *name;
};

static const struct speed_row speed_rows[] = {
	{ IB_SPEED_SDR, 25, " SDR" },
	{ IB_SPEED_DDR, 50, " DDR" },
	{ IB_SPEED_QDR, 100, " QDR" },
	{ IB_SPEED_FDR10, 100, " FDR10" },
	{ IB_SPEED_FDR, 140, " FDR" },
	{ IB_SPEED_EDR, 250, " EDR" },
	{ IB_SPEED_HDR, 500, " HDR" },
	{ IB_SPEED_NDR, 1000, " NDR" },
};

int ib_port_rate_get(unsigned int speed, unsigned int width,
		     struct ib_port_rate *rate)
{
	const struct speed_row *row = &speed_rows[0];	/* SDR if unknown */
	int lanes = ib_width_lanes(width);
	unsigned int i;
	int deci;

	if (lanes < 0)
		return -1;
	for (i = 0; i < N_ELEMS(speed_rows); i++)
		if (speed_rows[i].speed == speed)
			row = &speed_rows[i];
	deci = row->deci_gbps * lanes;
	rate->gbps = deci / 10;
	rate->half = deci % 10 != 0;
	rate->lanes = lanes;
	rate->speed_name = row->name;
	return 0;
}
EXPORT_SYMBOL(ib_port_rate_get);
