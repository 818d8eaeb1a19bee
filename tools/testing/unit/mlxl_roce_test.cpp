// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mlx-lite RoCE address table: the SET_ROCE_ADDRESS input the driver builds
// for ib_core's GID entries (mlxl_roce.c), field by field, and the model's
// table after the driver programmed and cleared entries.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "mlxl_rig.h"
#include "mlxl_roce.h"

namespace {

const u8 kMac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

mlxl_roce_addr v4_entry()
{
	mlxl_roce_addr a{};
	const u8 gid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 99, 1, 1 };

	memcpy(a.gid, gid, sizeof(gid));
	memcpy(a.mac, kMac, sizeof(kMac));
	a.v2 = true;
	a.vlan = MLXL_VLAN_NONE;
	return a;
}

mlxl_roce_addr v6_entry()
{
	mlxl_roce_addr a = v4_entry();
	const u8 gid[16] = { 0xfd, 0, 0, 0x99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };

	memcpy(a.gid, gid, sizeof(gid));
	return a;
}

} // namespace

TEST(MlxlRoceAddr, Ipv4MappedV2)
{
	u8 in[MLXL_SET_ROCE_ADDRESS_IN_LEN];
	mlxl_roce_addr a = v4_entry();

	memset(in, 0xa5, sizeof(in));
	ASSERT_EQ(mlxl_roce_addr_in(in, 3, 0, &a), 0);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_IN_OPCODE), (u32)MLXL_OP_SET_ROCE_ADDRESS);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_INDEX), 3u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_PORT), 0u);
	EXPECT_EQ(memcmp(in + MLXL_ROCE_ADDR_GID, a.gid, 16), 0);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_MAC_47_32), 0x0211u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_MAC_31_0), 0x22334455u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_VLAN_VALID), 0u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_VLAN_ID), 0u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_L3_TYPE), (u32)MLXL_ROCE_L3_IPV4);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_VERSION), (u32)MLXL_ROCE_V2);
	// bytes outside the fields the layout names stay zero
	for (u32 i = 0x2c; i < sizeof(in); i++)
		EXPECT_EQ(in[i], 0) << i;
}

TEST(MlxlRoceAddr, Ipv6V1VlanAndVhcaPort)
{
	u8 in[MLXL_SET_ROCE_ADDRESS_IN_LEN];
	mlxl_roce_addr a = v6_entry();

	a.v2 = false;
	a.vlan = 4094;
	ASSERT_EQ(mlxl_roce_addr_in(in, 255, 1, &a), 0);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_INDEX), 255u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_PORT), 1u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_L3_TYPE), (u32)MLXL_ROCE_L3_IPV6);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_VERSION), (u32)MLXL_ROCE_V1);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_VLAN_VALID), 1u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_VLAN_ID), 4094u);
	a.vlan = 4095;
	EXPECT_EQ(mlxl_roce_addr_in(in, 1, 0, &a), -EINVAL);
}

TEST(MlxlRoceAddr, ClearIsAllZeroAddress)
{
	u8 in[MLXL_SET_ROCE_ADDRESS_IN_LEN];

	memset(in, 0xa5, sizeof(in));
	ASSERT_EQ(mlxl_roce_addr_in(in, 7, 0, nullptr), 0);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ROCE_ADDR_INDEX), 7u);
	for (u32 i = MLXL_ROCE_ADDR; i < sizeof(in); i++)
		EXPECT_EQ(in[i], 0) << i;
}

// what the driver programs is what the model holds, and clearing empties it
TEST(MlxlRoceAddr, ModelTableFollows)
{
	Rig r(FWSIM_CX6DX);
	mlxl_roce_addr a4 = v4_entry(), a6 = v6_entry();

	ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
	ASSERT_EQ(mlxl_roce_addr_set(r.dev.get(), 1, &a4), 0);
	ASSERT_EQ(mlxl_roce_addr_set(r.dev.get(), 2, &a6), 0);
	EXPECT_TRUE(fwsim_gid_valid(r.fw.get(), 1));
	EXPECT_TRUE(fwsim_gid_valid(r.fw.get(), 2));
	EXPECT_FALSE(fwsim_gid_valid(r.fw.get(), 0));
	EXPECT_EQ(memcmp(r.fw->gids[2].raw, a6.gid, 16), 0);
	EXPECT_EQ(fwsim_rd(r.fw->gids[1].raw, 0x18, 11, 8), (u32)MLXL_ROCE_L3_IPV4);
	EXPECT_EQ(fwsim_rd(r.fw->gids[2].raw, 0x18, 11, 8), (u32)MLXL_ROCE_L3_IPV6);
	ASSERT_EQ(mlxl_roce_addr_set(r.dev.get(), 1, nullptr), 0);
	EXPECT_FALSE(fwsim_gid_valid(r.fw.get(), 1));
	EXPECT_TRUE(fwsim_gid_valid(r.fw.get(), 2));
	ASSERT_EQ(mlxl_roce_addr_set(r.dev.get(), 2, nullptr), 0);
	EXPECT_FALSE(fwsim_gid_valid(r.fw.get(), 2));
	// past the table: refused by the firmware, reported as an error
	EXPECT_NE(mlxl_roce_addr_set(r.dev.get(), 100000, &a4), 0);
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(r.dev->step, MLXL_STEP_NONE);
}
