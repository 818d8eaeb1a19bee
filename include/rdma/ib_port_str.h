/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How sysfs spells port and device attributes (Linux 6.1 strings, see
 * Documentation/core/sysfs.rst).  Pure: type-level headers only, also
 * built as C++ on the host (tools/testing/unit).
 */
#ifndef _RDMA_IB_PORT_STR_H
#define _RDMA_IB_PORT_STR_H

#include <linux/types.h>
#include <rdma/ib_port_types.h>

/* "ACTIVE" for IB_PORT_ACTIVE, ...; "<unknown>" out of range. */
const char *ib_port_state_str(unsigned int state);
/* "LinkUp" for IB_PORT_PHYS_STATE_LINK_UP, ...; "<unknown>" out of range. */
const char *ib_port_phys_state_str(unsigned int phys_state);
/* "CA" for RDMA_NODE_IB_CA, ...; "<unknown>" otherwise. */
const char *ib_node_type_str(unsigned int node_type);
/* Lanes of an enum ib_port_width value, or -1. */
int ib_width_lanes(unsigned int width);

/*
 * Port rate as sysfs "rate" shows it: whole Gb/s in @gbps, @half set for
 * a trailing ".5", lanes in @lanes and the speed name (" EDR", ...) in
 * @speed_name.  An unknown speed counts as SDR.  -1 for an unknown width.
 */
struct ib_port_rate {
	int gbps;
	int half;
	int lanes;
	const char *speed_name;
};
int ib_port_rate_get(unsigned int speed, unsigned int width,
		     struct ib_port_rate *rate);

#endif /* _RDMA_IB_PORT_STR_H */
