// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/port_str.c: the strings and
// the rate arithmetic behind sysfs state, phys_state, node_type and rate
// (Linux 6.1 spellings, see Documentation/core/sysfs.rst).

#include <rdma/ib_port_str.h>

#include <gtest/gtest.h>

#include <string>

namespace {

std::string Rate(unsigned int speed, unsigned int width) {
  ib_port_rate r{};
  if (ib_port_rate_get(speed, width, &r))
    return "EINVAL";
  return std::to_string(r.gbps) + (r.half ? ".5" : "") + " Gb/sec (" +
         std::to_string(r.lanes) + "X" + r.speed_name + ")";
}

TEST(PortStr, States) {
  EXPECT_STREQ(ib_port_state_str(IB_PORT_NOP), "NOP");
  EXPECT_STREQ(ib_port_state_str(IB_PORT_DOWN), "DOWN");
  EXPECT_STREQ(ib_port_state_str(IB_PORT_ACTIVE), "ACTIVE");
  EXPECT_STREQ(ib_port_state_str(IB_PORT_ACTIVE_DEFER), "ACTIVE_DEFER");
  EXPECT_STREQ(ib_port_state_str(6), "<unknown>");
  EXPECT_STREQ(ib_port_state_str(~0U), "<unknown>");
}

TEST(PortStr, PhysStates) {
  EXPECT_STREQ(ib_port_phys_state_str(0), "<unknown>");
  EXPECT_STREQ(ib_port_phys_state_str(IB_PORT_PHYS_STATE_POLLING), "Polling");
  EXPECT_STREQ(ib_port_phys_state_str(IB_PORT_PHYS_STATE_DISABLED), "Disabled");
  EXPECT_STREQ(ib_port_phys_state_str(IB_PORT_PHYS_STATE_LINK_UP), "LinkUp");
  EXPECT_STREQ(ib_port_phys_state_str(IB_PORT_PHYS_STATE_PHY_TEST), "Phy Test");
  EXPECT_STREQ(ib_port_phys_state_str(8), "<unknown>");
}

TEST(PortStr, NodeTypes) {
  EXPECT_STREQ(ib_node_type_str(1), "CA");
  EXPECT_STREQ(ib_node_type_str(4), "RNIC");
  EXPECT_STREQ(ib_node_type_str(6), "usNIC UDP");
  EXPECT_STREQ(ib_node_type_str(7), "unspecified");
  EXPECT_STREQ(ib_node_type_str(0), "<unknown>");
  EXPECT_STREQ(ib_node_type_str(8), "<unknown>");
}

TEST(PortStr, Widths) {
  EXPECT_EQ(ib_width_lanes(IB_WIDTH_1X), 1);
  EXPECT_EQ(ib_width_lanes(IB_WIDTH_2X), 2);
  EXPECT_EQ(ib_width_lanes(IB_WIDTH_4X), 4);
  EXPECT_EQ(ib_width_lanes(IB_WIDTH_8X), 8);
  EXPECT_EQ(ib_width_lanes(IB_WIDTH_12X), 12);
  EXPECT_EQ(ib_width_lanes(0), -1);
  EXPECT_EQ(ib_width_lanes(3), -1);
}

TEST(PortStr, Rates) {
  EXPECT_EQ(Rate(IB_SPEED_SDR, IB_WIDTH_1X), "2.5 Gb/sec (1X SDR)");
  EXPECT_EQ(Rate(IB_SPEED_FDR10, IB_WIDTH_1X), "10 Gb/sec (1X FDR10)");
  EXPECT_EQ(Rate(IB_SPEED_EDR, IB_WIDTH_1X), "25 Gb/sec (1X EDR)");
  EXPECT_EQ(Rate(IB_SPEED_EDR, IB_WIDTH_4X), "100 Gb/sec (4X EDR)");
  EXPECT_EQ(Rate(IB_SPEED_FDR, IB_WIDTH_4X), "56 Gb/sec (4X FDR)");
  EXPECT_EQ(Rate(IB_SPEED_SDR, IB_WIDTH_12X), "30 Gb/sec (12X SDR)");
  EXPECT_EQ(Rate(IB_SPEED_DDR, IB_WIDTH_2X), "10 Gb/sec (2X DDR)");
  EXPECT_EQ(Rate(IB_SPEED_NDR, IB_WIDTH_8X), "800 Gb/sec (8X NDR)");
  EXPECT_EQ(Rate(IB_SPEED_HDR, IB_WIDTH_1X), "50 Gb/sec (1X HDR)");
  // an unknown speed counts as SDR, an unknown width is an error
  EXPECT_EQ(Rate(0, IB_WIDTH_1X), "2.5 Gb/sec (1X SDR)");
  EXPECT_EQ(Rate(3, IB_WIDTH_4X), "10 Gb/sec (4X SDR)");
  EXPECT_EQ(Rate(IB_SPEED_EDR, 0), "EINVAL");
}

}  // namespace
