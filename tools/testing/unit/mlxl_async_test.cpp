// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Asynchronous object events: the driver's EQE type -> (event, object
// class) map, the model's EQEs for them (fwsim_raise_async) as the driver
// reads them, and the "async=T:N" injection request.
#include <gtest/gtest.h>

#include <vector>

#include "mlxl_rig.h"
#include "mlxl_async.h"
#include "fwsim/fwsim_inj.h"

namespace {

struct Seen {
	u8 type;
	u8 qtype;
	u32 at20;
	u32 at38;
	u8 at2b;
};

u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

void record(struct mlxl_dev *, const u8 *eqe, void *arg)
{
	auto *v = static_cast<std::vector<Seen> *>(arg);

	if (eqe[0x01] == MLXL_EVENT_CMD)
		return;
	v->push_back(Seen{eqe[0x01], eqe[0x34], be32(eqe + 0x20),
			  be32(eqe + 0x38), eqe[0x2b]});
}

struct MapRow {
	u8 type;
	mlxl_async_ev ev;
	mlxl_async_class cls;
};

const MapRow kMap[] = {
	{0x00, MLXL_AEV_COMP, MLXL_ASYNC_CQ},
	{0x01, MLXL_AEV_PATH_MIG, MLXL_ASYNC_QP},
	{0x02, MLXL_AEV_COMM_EST, MLXL_ASYNC_QP},
	{0x03, MLXL_AEV_SQ_DRAINED, MLXL_ASYNC_QP},
	{0x04, MLXL_AEV_CQ_ERR, MLXL_ASYNC_CQ},
	{0x05, MLXL_AEV_QP_FATAL, MLXL_ASYNC_QP},
	{0x07, MLXL_AEV_PATH_MIG_ERR, MLXL_ASYNC_QP},
	{0x10, MLXL_AEV_QP_REQ_ERR, MLXL_ASYNC_QP},
	{0x11, MLXL_AEV_QP_ACCESS_ERR, MLXL_ASYNC_QP},
	{0x12, MLXL_AEV_SRQ_ERR, MLXL_ASYNC_SRQ},
	{0x13, MLXL_AEV_QP_LAST_WQE, MLXL_ASYNC_QP},
	{0x14, MLXL_AEV_SRQ_LIMIT, MLXL_ASYNC_SRQ},
};

} // namespace

TEST(MlxlAsync, EveryTypeMapsOrIsNone)
{
	for (unsigned t = 0; t < 256; t++) {
		const MapRow *row = nullptr;

		for (const MapRow &m : kMap)
			if (m.type == t)
				row = &m;
		mlxl_async_ev ev = mlxl_async_ev_of((u8)t);
		if (!row) {
			EXPECT_EQ(ev, MLXL_AEV_NONE) << "type " << t;
			EXPECT_FALSE(fwsim_async_type((u8)t)) << "type " << t;
			if (t < 64) {
				EXPECT_FALSE((MLXL_ASYNC_EVENT_MASK >> t) & 1) << "type " << t;
			}
			continue;
		}
		EXPECT_EQ(ev, row->ev) << "type " << t;
		EXPECT_EQ(mlxl_async_class_of(ev), row->cls) << "type " << t;
		EXPECT_TRUE((MLXL_ASYNC_EVENT_MASK >> t) & 1) << "type " << t;
		EXPECT_EQ(fwsim_async_type((u8)t), t != 0) << "type " << t;
	}
	EXPECT_EQ(mlxl_async_class_of(MLXL_AEV_NONE), MLXL_ASYNC_NONE);
}

// the model's EQEs carry the object number where the driver reads it
TEST(MlxlAsync, ModelEqeLayout)
{
	Rig r(FWSIM_CX6DX);
	std::vector<Seen> seen;

	ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
	mlxl_eq_poll(r.dev.get(), record, &seen, false);
	seen.clear();
	EXPECT_FALSE(fwsim_raise_async(r.fw.get(), 0x00, 5));
	EXPECT_FALSE(fwsim_raise_async(r.fw.get(), 0x04, 0x1000000));
	EXPECT_FALSE(fwsim_raise_async(r.fw.get(), 0x0b, 5));
	ASSERT_TRUE(fwsim_raise_async(r.fw.get(), 0x04, 0xabcdef));
	ASSERT_TRUE(fwsim_raise_async(r.fw.get(), 0x05, 0x123));
	ASSERT_TRUE(fwsim_raise_async(r.fw.get(), 0x14, 0x77));
	mlxl_eq_poll(r.dev.get(), record, &seen, false);
	ASSERT_EQ(seen.size(), 3u);
	EXPECT_EQ(seen[0].type, 0x04);
	EXPECT_EQ(seen[0].at20 & 0xffffff, 0xabcdefu);
	EXPECT_EQ(seen[0].at2b, 1);
	EXPECT_EQ(seen[1].type, 0x05);
	EXPECT_EQ(seen[1].at38 & 0xffffff, 0x123u);
	EXPECT_EQ(seen[1].qtype, 0);
	EXPECT_EQ(seen[2].type, 0x14);
	EXPECT_EQ(seen[2].at38 & 0xffffff, 0x77u);
	EXPECT_EQ(seen[2].qtype, 0);
	EXPECT_EQ(r.fw->nr_errs, 0u);
	mlxl_shutdown(r.dev.get());
}

// no EQ, no event: before the bring-up the model raises nothing
TEST(MlxlAsync, NothingBeforeInit)
{
	Rig r;

	EXPECT_FALSE(fwsim_raise_async(r.fw.get(), 0x04, 1));
}

TEST(MlxlAsync, InjectParse)
{
	const char *bad[] = {
		"async=", "async=4", "async=4:", "async=:4", "async=0:1",
		"async=0x09:1", "async=4:0x1000000", "async=0x104:1",
		"async=4:1:2", "async=4:x", "async=4:1 count=2", "async =4:1",
		"async=-4:1",
	};
	struct fwsim_inj inj;

	for (const char *b : bad)
		EXPECT_EQ(fwsim_inj_parse(b, (u32)strlen(b), &inj), -1) << b;
	ASSERT_EQ(fwsim_inj_parse("async=0x13:0xffffff\n", 20, &inj), 0);
	EXPECT_EQ(inj.kind, FWSIM_INJ_ASYNC);
	EXPECT_EQ(inj.async_type, 0x13);
	EXPECT_EQ(inj.async_obj, 0xffffffu);
	ASSERT_EQ(fwsim_inj_parse("async=4:9", 9, &inj), 0);
	EXPECT_EQ(inj.async_type, 4);
	EXPECT_EQ(inj.async_obj, 9u);
}
