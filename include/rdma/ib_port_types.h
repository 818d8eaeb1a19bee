/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Port-level enumerations shared by ib_core, drivers and pure-logic files.
 * Type-level only: also compiled as C++ on the host (tools/testing/unit).
 */
#ifndef _RDMA_IB_PORT_TYPES_H
#define _RDMA_IB_PORT_TYPES_H

/* Logical port state (IBTA PortInfo:PortState), numbered from NOP = 0. */
enum ib_port_state {
	IB_PORT_NOP, IB_PORT_DOWN, IB_PORT_INIT, IB_PORT_ARMED, IB_PORT_ACTIVE,
	IB_PORT_ACTIVE_DEFER
};

/* Physical port state (IBTA PortInfo:PortPhysicalState), from SLEEP = 1. */
enum ib_port_phys_state {
	IB_PORT_PHYS_STATE_SLEEP = 1, IB_PORT_PHYS_STATE_POLLING,
	IB_PORT_PHYS_STATE_DISABLED, IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING,
	IB_PORT_PHYS_STATE_LINK_UP, IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY,
	IB_PORT_PHYS_STATE_PHY_TEST
};

/* Path MTU codes, IBTA 9.7.3 (the user ABI uses the same numbers). */
enum ib_mtu { IB_MTU_256 = 1, IB_MTU_512, IB_MTU_1024, IB_MTU_2048, IB_MTU_4096 };

/* Link width (PortInfo:LinkWidthActive) and speed (LinkSpeedActive/Ext). */
enum ib_port_width {
	IB_WIDTH_1X = 1, IB_WIDTH_2X = 16, IB_WIDTH_4X = 2, IB_WIDTH_8X = 4,
	IB_WIDTH_12X = 8
};

enum ib_port_speed {
	IB_SPEED_SDR = 1, IB_SPEED_DDR = 2, IB_SPEED_QDR = 4, IB_SPEED_FDR10 = 8,
	IB_SPEED_FDR = 16, IB_SPEED_EDR = 32, IB_SPEED_HDR = 64, IB_SPEED_NDR = 128
};

#endif /* _RDMA_IB_PORT_TYPES_H */
