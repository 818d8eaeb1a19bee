// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mlx-lite bring-up and teardown through the firmware model (fwsim), and
// the model's refusals: commands out of phase, bad mailbox chains, double
// page gives, pages leaked at teardown, wrong ownership, reserved fields,
// capability writes, timeouts that take no real time, and an injected
// failure at every step of the bring-up unwinding to zero.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "mlxl_rig.h"
#include "tests/mlxl_golden.h"

namespace {

std::vector<uint16_t> trace_ops(const fwsim *fw, uint32_t from)
{
	std::vector<uint16_t> v;

	for (uint32_t i = from; i < fw->trace_pos; i++)
		v.push_back(fwsim_trace_get(fw, i)->opcode);
	return v;
}

uint32_t total_errs(const fwsim *fw)
{
	return fw->nr_errs;
}

} // namespace

std::string profile_name(const ::testing::TestParamInfo<fwsim_profile> &i)
{
	static const char *const n[] = { "CX4Lx", "CX5", "CX6Dx", "CX7" };

	return n[i.param];
}

class BringUp : public ::testing::TestWithParam<fwsim_profile> {};

TEST_P(BringUp, FullBringUpAndTeardown)
{
	Rig r(GetParam());
	size_t before = r.live_allocs();

	ASSERT_EQ(mlxl_boot(r.dev.get()), 0)
		<< mlxl_cmd_name(r.dev->err_opcode) << " status "
		<< mlxl_cmd_status_str(r.dev->err_status) << " delivery "
		<< mlxl_delivery_str(r.dev->err_delivery) << " model: "
		<< fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(total_errs(r.fw.get()), 0u) << fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_INITIALIZED);
	EXPECT_EQ(r.dev->step, MLXL_STEP_EQ);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), r.fw->boot_pages + r.fw->init_pages);
	EXPECT_EQ(r.dev->npages, fwsim_pages_held(r.fw.get()));
	for (uint32_t i = 0; i < r.dev->npages; i++)
		EXPECT_TRUE(fwsim_page_held(r.fw.get(), r.dev->pages[i].bus));
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 2u);	// UAR + EQ
	EXPECT_GE(r.dev->uar, (uint32_t)FWSIM_FIRST_UAR);
	EXPECT_EQ(MLXL_GET(r.dev->cap_cur, MLXL_C_ROCE), 1u);
	EXPECT_EQ(MLXL_GET(r.dev->cap_cur, MLXL_C_CMDIF_CHECKSUM), 0u);
	EXPECT_EQ(MLXL_GET(r.dev->roce_cap, MLXL_RC_DEST_UDP_PORT), 4791u);
	EXPECT_EQ(r.fw->host_endianness, 0);	// little-endian host
	EXPECT_STREQ(r.fw->driver_version, "Linux,mlx_lite,0.1");
	// QUERY_ADAPTER: the profile's board id (PSID)
	EXPECT_STREQ(r.dev->board_id, fwsim_profile_psid(GetParam()));
	EXPECT_EQ(strncmp(r.dev->board_id, "MT_", 3), 0);
	EXPECT_EQ(strlen(r.dev->board_id), 13u);
	EXPECT_EQ(r.dev->fw_rev_major * 1000000 + r.dev->fw_rev_minor,
		  (r.fw->fw_rev & 0xffff) * 1000000 + (r.fw->fw_rev >> 16));
	EXPECT_EQ(trace_ops(r.fw.get(), 0),
		  std::vector<uint16_t>(std::begin(mlxl_golden_boot), std::end(mlxl_golden_boot)));

	uint32_t mark = r.fw->trace_pos;
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(total_errs(r.fw.get()), 0u) << fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(r.dev->step, MLXL_STEP_NONE);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 0u);
	EXPECT_EQ(r.dev->npages, 0u);
	EXPECT_EQ(r.live_allocs(), before);
	EXPECT_EQ(trace_ops(r.fw.get(), mark),
		  std::vector<uint16_t>(std::begin(mlxl_golden_down), std::end(mlxl_golden_down)));
}

TEST_P(BringUp, LoadUnloadCycles)
{
	Rig r(GetParam());

	// 100: the page set's tombstones must not pile up across cycles
	for (int i = 0; i < 100; i++) {
		ASSERT_EQ(mlxl_boot(r.dev.get()), 0) << "cycle " << i;
		mlxl_shutdown(r.dev.get());
		ASSERT_EQ(fwsim_pages_held(r.fw.get()), 0u) << "cycle " << i;
		ASSERT_EQ(r.live_allocs(), 0u) << "cycle " << i;
	}
	EXPECT_EQ(total_errs(r.fw.get()), 0u);
}

TEST_P(BringUp, ManyPagesTakeSeveralCommands)
{
	Rig r(GetParam());

	r.fw->boot_pages = 0;			// no boot pages at all
	r.fw->init_pages = 2 * MLXL_PAGES_PER_CMD + 5;
	ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), r.fw->init_pages);
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
	EXPECT_EQ(r.live_allocs(), 0u);
	EXPECT_EQ(total_errs(r.fw.get()), 0u);
}

INSTANTIATE_TEST_SUITE_P(Profiles, BringUp,
	::testing::Values(FWSIM_CX4LX, FWSIM_CX5, FWSIM_CX6DX, FWSIM_CX7),
	profile_name);

// An injected failure at each command of the bring-up: mlxl_boot fails
// with that status's errno and the unwind leaves nothing behind.
class BootFault : public ::testing::TestWithParam<uint16_t> {};

TEST_P(BootFault, UnwindsToZero)
{
	Rig r;

	fwsim_inject(r.fw.get(), GetParam(), MLXL_STAT_BAD_RES_STATE, 0x1234, 1);
	EXPECT_EQ(mlxl_boot(r.dev.get()), -EINVAL);
	EXPECT_EQ(r.dev->err_opcode, GetParam());
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_RES_STATE);
	EXPECT_EQ(r.dev->err_syndrome, 0x1234u);
	EXPECT_EQ(r.errs(FWSIM_E_INJECTED), 1u);
	EXPECT_EQ(r.fw->nr_errs, 1u) << fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(r.dev->step, MLXL_STEP_NONE);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 0u);
	EXPECT_EQ(r.live_allocs(), 0u);
}

INSTANTIATE_TEST_SUITE_P(EachCommand, BootFault,
	::testing::Values(MLXL_OP_QUERY_ISSI, MLXL_OP_SET_ISSI,
			  MLXL_OP_QUERY_PAGES, MLXL_OP_MANAGE_PAGES,
			  MLXL_OP_ACCESS_REG, MLXL_OP_QUERY_HCA_CAP,
			  MLXL_OP_SET_HCA_CAP, MLXL_OP_INIT_HCA,
			  MLXL_OP_SET_DRIVER_VERSION, MLXL_OP_QUERY_ADAPTER,
			  MLXL_OP_ALLOC_UAR,
			  MLXL_OP_CREATE_EQ),
	[](const ::testing::TestParamInfo<uint16_t> &i) {
		return std::string(mlxl_cmd_name(i.param));
	});

TEST(BootFault, EnableHcaFails)
{
	Rig r;

	fwsim_inject(r.fw.get(), MLXL_OP_ENABLE_HCA, MLXL_STAT_INT_ERR, 1, 1);
	EXPECT_EQ(mlxl_boot(r.dev.get()), -EIO);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED);
	EXPECT_EQ(r.live_allocs(), 0u);
}

TEST(BootFault, DmaAllocationFailsAtEveryPoint)
{
	for (int n = 0; n < 8; n++) {
		Rig r;

		r.fw->boot_pages = 2;
		r.fw->init_pages = 2;
		r.fail_alloc_after = n;
		EXPECT_EQ(mlxl_boot(r.dev.get()), -ENOMEM) << n;
		EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u) << n;
		EXPECT_EQ(r.live_allocs(), 0u) << n;
		EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED) << n;
	}
}

// ---- commands out of phase
TEST(Phase, InitHcaRightAfterEnable)
{
	Rig r;

	ASSERT_EQ(r.enable(), 0);
	mlxl_cmd_hdr(r.dev->in, MLXL_INIT_HCA_IN_LEN, MLXL_OP_INIT_HCA, 0);
	EXPECT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_INIT_HCA_IN_LEN,
				r.dev->out, MLXL_HDR_LEN), -EIO);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_SYS_STATE);
	EXPECT_EQ(r.dev->err_syndrome, FWSIM_SYND(FWSIM_E_PHASE));
	EXPECT_EQ(r.errs(FWSIM_E_PHASE), 1u);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_ENABLED);
}

TEST(Phase, CommandsBeforeEnable)
{
	Rig r;

	ASSERT_EQ(mlxl_cmdq_setup(r.dev.get()), 0);
	EXPECT_EQ(r.simple(MLXL_OP_QUERY_ISSI, 0, MLXL_QUERY_ISSI_OUT_LEN), -EIO);
	EXPECT_EQ(r.simple(MLXL_OP_ALLOC_UAR), -EIO);
	EXPECT_EQ(r.simple(MLXL_OP_DISABLE_HCA, 0, MLXL_ENABLE_HCA_OUT_LEN), -EIO);
	EXPECT_EQ(r.errs(FWSIM_E_PHASE), 3u);
	EXPECT_EQ(r.simple(MLXL_OP_NOP), 0);	// NOP is valid in every phase
	EXPECT_EQ(r.simple(MLXL_OP_ENABLE_HCA, 0, MLXL_ENABLE_HCA_OUT_LEN), 0);
	EXPECT_EQ(r.simple(MLXL_OP_ENABLE_HCA, 0, MLXL_ENABLE_HCA_OUT_LEN), -EIO);
	EXPECT_EQ(r.errs(FWSIM_E_PHASE), 4u);
}

TEST(Phase, CapsBeforeBootPages)
{
	Rig r;

	ASSERT_EQ(r.enable(), 0);
	ASSERT_EQ(r.set_issi(), 0);
	EXPECT_EQ(r.simple(MLXL_OP_QUERY_HCA_CAP, 1, MLXL_HCA_CAP_MSG_LEN), -EIO);
	EXPECT_EQ(r.errs(FWSIM_E_PAGES_OWED), 1u);
	// init pages are not the ones owed now
	EXPECT_EQ(r.simple(MLXL_OP_QUERY_PAGES, MLXL_PAGES_INIT), -EIO);
	EXPECT_EQ(r.errs(FWSIM_E_PHASE), 1u);
}

TEST(Phase, TeardownWithObjectsAlive)
{
	Rig r;

	ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
	EXPECT_EQ(r.simple(MLXL_OP_TEARDOWN_HCA), -EINVAL);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_RES_STATE);
	EXPECT_EQ(r.errs(FWSIM_E_BUSY), 1u);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_INITIALIZED);
	// the UAR the EQ uses cannot go first either
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_DEALLOC_UAR, 0);
	MLXL_SET(r.dev->in, MLXL_F_UAR, r.dev->uar);
	EXPECT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_HDR_LEN), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_BUSY), 2u);
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
}

// ---- pages
class Pages : public ::testing::Test {
protected:
	Rig r;
	mlxl_dma a{}, b{};

	void SetUp() override
	{
		r.fw->boot_pages = 4;
		ASSERT_EQ(r.enable(), 0);
		ASSERT_EQ(r.set_issi(), 0);
		ASSERT_EQ(r.alloc(&a, 4096, 4096), 0);
		ASSERT_EQ(r.alloc(&b, 4096, 4096), 0);
	}

	int give(std::vector<uint64_t> addrs)
	{
		uint32_t len = MLXL_MANAGE_PAGES_PAS + 8 * (uint32_t)addrs.size();

		mlxl_cmd_hdr(r.dev->in, len, MLXL_OP_MANAGE_PAGES, MLXL_PAGES_GIVE);
		MLXL_SET(r.dev->in, MLXL_F_MANAGE_PAGES_IN_NUM, (uint32_t)addrs.size());
		for (size_t i = 0; i < addrs.size(); i++)
			mlxl_set64(r.dev->in, MLXL_MANAGE_PAGES_PAS + 8 * (uint32_t)i, addrs[i]);
		return mlxl_cmd_exec(r.dev.get(), r.dev->in, len, r.dev->out, MLXL_HDR_LEN);
	}

	int take(uint32_t n)
	{
		mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_MANAGE_PAGES, MLXL_PAGES_TAKE);
		MLXL_SET(r.dev->in, MLXL_F_MANAGE_PAGES_IN_NUM, n);
		return mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				     MLXL_MANAGE_PAGES_PAS + 8 * n);
	}
};

TEST_F(Pages, DoubleGiveInOneCommand)
{
	EXPECT_EQ(give({ a.bus, a.bus }), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_DOUBLE), 1u);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);	// nothing taken
}

TEST_F(Pages, DoubleGiveAcrossCommands)
{
	EXPECT_EQ(give({ a.bus }), 0);
	EXPECT_EQ(give({ b.bus, a.bus }), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_DOUBLE), 1u);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 1u);
	EXPECT_FALSE(fwsim_page_held(r.fw.get(), b.bus));
}

TEST_F(Pages, UnalignedPage)
{
	EXPECT_EQ(give({ a.bus + 0x800 }), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_ALIGN), 1u);
	EXPECT_EQ(give({ 0 }), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_ALIGN), 2u);
}

TEST_F(Pages, MoreThanOwed)
{
	mlxl_dma c{}, d{}, e{};

	ASSERT_EQ(r.alloc(&c, 4096, 4096), 0);
	ASSERT_EQ(r.alloc(&d, 4096, 4096), 0);
	ASSERT_EQ(r.alloc(&e, 4096, 4096), 0);
	EXPECT_EQ(give({ a.bus, b.bus, c.bus, d.bus, e.bus }), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_EXCESS), 1u);
}

TEST_F(Pages, TakeMoreThanHeld)
{
	EXPECT_EQ(give({ a.bus }), 0);
	EXPECT_EQ(take(2), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_TAKE), 1u);
	EXPECT_EQ(take(1), 0);
	EXPECT_EQ(mlxl_get64(r.dev->out, MLXL_MANAGE_PAGES_PAS), a.bus);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
}

TEST_F(Pages, CountLongerThanList)
{
	// claims 2 entries, carries 1
	mlxl_cmd_hdr(r.dev->in, MLXL_MANAGE_PAGES_PAS + 8, MLXL_OP_MANAGE_PAGES,
		     MLXL_PAGES_GIVE);
	MLXL_SET(r.dev->in, MLXL_F_MANAGE_PAGES_IN_NUM, 2);
	mlxl_set64(r.dev->in, MLXL_MANAGE_PAGES_PAS, a.bus);
	EXPECT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_MANAGE_PAGES_PAS + 8,
				r.dev->out, MLXL_HDR_LEN), -EIO);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_INP_LEN);
	EXPECT_EQ(r.errs(FWSIM_E_IN_LEN), 1u);
}

TEST(PageLeak, DisableWithPagesHeld)
{
	Rig r;

	ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
	r.dev->step = MLXL_STEP_INITIALIZED;	// skip the EQ and UAR by hand
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_DESTROY_EQ, 0);
	MLXL_SET(r.dev->in, MLXL_F_EQ_NUMBER, r.dev->eqn);
	ASSERT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_HDR_LEN), 0);
	r.free(&r.dev->eq_buf);
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_DEALLOC_UAR, 0);
	MLXL_SET(r.dev->in, MLXL_F_UAR, r.dev->uar);
	ASSERT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_HDR_LEN), 0);
	ASSERT_EQ(r.simple(MLXL_OP_TEARDOWN_HCA), 0);

	// DISABLE_HCA without taking the pages back: refused, recorded
	EXPECT_EQ(r.simple(MLXL_OP_DISABLE_HCA, 0, MLXL_ENABLE_HCA_OUT_LEN), -EINVAL);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_RES_STATE);
	EXPECT_EQ(r.errs(FWSIM_E_PAGE_LEAK), 1u);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), r.fw->boot_pages + r.fw->init_pages);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_TORN_DOWN);

	// the proper order still works afterwards
	r.dev->step = MLXL_STEP_ENABLED;
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED);
	EXPECT_EQ(r.live_allocs(), 0u);
}

TEST(PageLeak, ReclaimRejectsUnknownPage)
{
	Rig r;

	ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
	r.dev->step = MLXL_STEP_ENABLED;
	ASSERT_EQ(r.simple(MLXL_OP_DESTROY_EQ), 0);	// EQ 0
	r.free(&r.dev->eq_buf);
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_DEALLOC_UAR, 0);
	MLXL_SET(r.dev->in, MLXL_F_UAR, r.dev->uar);
	ASSERT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_HDR_LEN), 0);
	ASSERT_EQ(r.simple(MLXL_OP_TEARDOWN_HCA), 0);
	// the driver's record of one page is wrong: the firmware returns a
	// page the driver does not know, and the driver refuses it
	uint64_t real = r.dev->pages[0].bus;
	r.dev->pages[0].bus = 0x7777'0000'0000ull;
	EXPECT_EQ(mlxl_pages_reclaim_all(r.dev.get()), -EIO);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
	EXPECT_EQ(r.dev->npages, 1u);			// the bogus record stays
	EXPECT_EQ(r.dev->pages[0].bus, 0x7777'0000'0000ull);
	r.dev->pages[0].bus = real;
	r.free(&r.dev->pages[0]);
}

// ---- transport: ownership, mailbox chains, reserved fields
class Transport : public ::testing::Test {
public:
	Rig r;

	void SetUp() override { ASSERT_EQ(r.enable(), 0); }

	uint8_t *entry() { return static_cast<uint8_t *>(r.dev->cmdq.cpu); }
	uint8_t *in_block(unsigned int k)
	{
		return static_cast<uint8_t *>(r.dev->in_boxes.cpu) + k * MLXL_MBOX_ALIGN;
	}

	// Post QUERY_ISSI with a 2-block input (padded, so known-field checks
	// do not matter: in_len 0x10 + 600 is zero beyond the header) by hand.
	void post_chain(uint32_t in_len, uint8_t token = 0x42)
	{
		uint32_t n = (in_len - 16 + 511) / 512;
		uint8_t *e = entry();

		memset(e, 0, 64);
		for (uint32_t k = 0; k < n; k++) {
			uint8_t *b = in_block(k);
			memset(b, 0, MLXL_MBOX_SIZE);
			mlxl_set64(b, MLXL_MBOX_NEXT,
				   k + 1 < n ? r.dev->in_boxes.bus + (k + 1) * MLXL_MBOX_ALIGN : 0);
			MLXL_SET(b, MLXL_F_MBOX_BLOCK_NUM, k);
			MLXL_SET(b, MLXL_F_MBOX_TOKEN, token);
		}
		MLXL_SET(e, MLXL_F_CQE_TYPE, 7);
		MLXL_SET(e, MLXL_F_CQE_IN_LEN, in_len);
		MLXL_SET(e, MLXL_F_CQE_OUT_LEN, 0x10);
		mlxl_set64(e, MLXL_CQE_IN_PTR, r.dev->in_boxes.bus);
		MLXL_SET(e + MLXL_CQE_IN_INLINE, MLXL_F_IN_OPCODE, MLXL_OP_NOP);
		MLXL_SET(e, MLXL_F_CQE_TOKEN, token);
		MLXL_SET(e, MLXL_F_CQE_OWNER, 1);
	}

	unsigned int ring()
	{
		fwsim_mmio_write32(r.fw.get(), MLXL_IS_CMD_DBELL, 1);
		EXPECT_EQ(MLXL_GET(entry(), MLXL_F_CQE_OWNER), 0u);
		return MLXL_GET(entry(), MLXL_F_CQE_STATUS);
	}
};

TEST_F(Transport, GoodChain)
{
	post_chain(0x10 + 600);
	EXPECT_EQ(ring(), (unsigned int)MLXL_DLV_OK);
	EXPECT_EQ(r.fw->nr_errs, 0u);
}

// One corruption of a posted entry or its input chain each: the delivery
// status the entry comes back with and the refusal the model records.
struct ChainCase {
	const char *name;
	uint8_t token;
	void (*corrupt)(Transport &t);
	unsigned int delivery;
	fwsim_err err;
};

class TransportChain : public Transport,
		       public ::testing::WithParamInterface<ChainCase> {};

TEST_P(TransportChain, Refused)
{
	const ChainCase &c = GetParam();

	post_chain(0x10 + 600, c.token);
	c.corrupt(*this);
	EXPECT_EQ(ring(), c.delivery);
	EXPECT_EQ(r.errs(c.err), 1u);
	EXPECT_EQ(r.fw->nr_errs, 1u);
}

const ChainCase chain_cases[] = {
	{ "BadBlockNumber", 0x42,
	  [](Transport &t) { MLXL_SET(t.in_block(1), MLXL_F_MBOX_BLOCK_NUM, 2); },
	  MLXL_DLV_BAD_BLOCK, FWSIM_E_BLOCK_NUM },
	{ "BlockTokenDiffers", 0x42,
	  [](Transport &t) { MLXL_SET(t.in_block(1), MLXL_F_MBOX_TOKEN, 0x43); },
	  MLXL_DLV_TOKEN, FWSIM_E_TOKEN },
	{ "ZeroToken", 0, [](Transport &) {}, MLXL_DLV_TOKEN, FWSIM_E_TOKEN },
	{ "ChainTooShort", 0x42,
	  [](Transport &t) { mlxl_set64(t.in_block(0), MLXL_MBOX_NEXT, 0); },
	  MLXL_DLV_IN_LEN, FWSIM_E_CHAIN },
	{ "UnalignedMailbox", 0x42,
	  [](Transport &t) {
		  mlxl_set64(t.in_block(0), MLXL_MBOX_NEXT,
			     t.r.dev->in_boxes.bus + 1024 + 64);
	  },
	  MLXL_DLV_IN_PTR_ALIGN, FWSIM_E_MBOX_ALIGN },
	{ "MailboxReservedBytes", 0x42,
	  [](Transport &t) { t.in_block(0)[0x210] = 1; },
	  MLXL_DLV_RES_FLD, FWSIM_E_MBOX_RSVD },
	{ "ChainIntoFreedMemory", 0x42,
	  [](Transport &t) {
		  mlxl_set64(t.in_block(0), MLXL_MBOX_NEXT, 0x7700'0000'0000ull);
	  },
	  MLXL_DLV_CMD_DESC, FWSIM_E_DMA },
	{ "WrongType", 0x42,
	  [](Transport &t) { MLXL_SET(t.entry(), MLXL_F_CQE_TYPE, 3); },
	  MLXL_DLV_CMD_DESC, FWSIM_E_TYPE },
};

INSTANTIATE_TEST_SUITE_P(Chains, TransportChain, ::testing::ValuesIn(chain_cases),
	[](const ::testing::TestParamInfo<ChainCase> &i) {
		return std::string(i.param.name);
	});

TEST_F(Transport, DoorbellOnSoftwareOwnedSlot)
{
	post_chain(0x10);
	MLXL_SET(entry(), MLXL_F_CQE_OWNER, 0);
	fwsim_mmio_write32(r.fw.get(), MLXL_IS_CMD_DBELL, 1);
	EXPECT_EQ(r.errs(FWSIM_E_OWNERSHIP), 1u);
	// the model did not touch the entry
	EXPECT_EQ(MLXL_GET(entry(), MLXL_F_CQE_STATUS), 0u);
	EXPECT_EQ(MLXL_GET(entry() + MLXL_CQE_OUT_INLINE, MLXL_F_OUT_STATUS), 0u);
	EXPECT_EQ(MLXL_GET(entry(), MLXL_F_CQE_TYPE), 7u);
	EXPECT_EQ(r.fw->trace_pos, 1u);		// only ENABLE_HCA was executed
}

TEST_F(Transport, DriverRefusesHardwareOwnedSlot)
{
	MLXL_SET(entry(), MLXL_F_CQE_OWNER, 1);
	EXPECT_EQ(r.simple(MLXL_OP_NOP), -EBUSY);
}

TEST_F(Transport, TimeoutTakesNoRealTime)
{
	r.fw->cmdq_ready = false;	// the device stops answering
	r.slept_ns = 0;
	EXPECT_EQ(r.simple(MLXL_OP_NOP), -ETIMEDOUT);
	EXPECT_GE(r.slept_ns, (uint64_t)MLXL_CMD_TIMEOUT_MS * 1000000ull);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_ABORTED);
	EXPECT_EQ(r.errs(FWSIM_E_DOORBELL), 1u);
}

TEST_F(Transport, ReservedFieldNonZero)
{
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_QUERY_ISSI, 0);
	r.dev->in[0x0b] = 1;
	EXPECT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_QUERY_ISSI_OUT_LEN), -EINVAL);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_PARAM);
	EXPECT_EQ(r.dev->err_syndrome, FWSIM_SYND(FWSIM_E_RESERVED));
	EXPECT_EQ(r.errs(FWSIM_E_RESERVED), 1u);
	// uid: kernel commands carry 0
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_QUERY_ISSI, 0);
	MLXL_SET(r.dev->in, MLXL_F_IN_UID, 5);
	EXPECT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_QUERY_ISSI_OUT_LEN), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_RESERVED), 2u);
}

TEST_F(Transport, UnknownOpcodeAndShortLengths)
{
	EXPECT_EQ(r.simple(0x999), -EINVAL);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_OP);
	EXPECT_EQ(r.errs(FWSIM_E_BAD_OPCODE), 1u);
	EXPECT_EQ(r.simple(MLXL_OP_QUERY_ISSI, 0, 0x10), -EIO);
	EXPECT_EQ(r.dev->err_status, MLXL_STAT_BAD_OUTP_LEN);
	EXPECT_EQ(r.errs(FWSIM_E_OUT_LEN), 1u);
}

TEST_F(Transport, FunctionOtherThanSelf)
{
	mlxl_cmd_hdr(r.dev->in, MLXL_HDR_LEN, MLXL_OP_QUERY_PAGES, MLXL_PAGES_BOOT);
	MLXL_SET(r.dev->in, MLXL_F_FUNC_ID, 1);
	r.fw->phase = FWSIM_PH_ISSI_SET;
	EXPECT_EQ(mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HDR_LEN, r.dev->out,
				MLXL_HDR_LEN), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_PARAM), 1u);
}

// ---- capabilities
class Caps : public ::testing::Test {
protected:
	Rig r;

	void SetUp() override
	{
		r.fw->boot_pages = 0;
		ASSERT_EQ(r.enable(), 0);
		ASSERT_EQ(r.set_issi(), 0);
		ASSERT_EQ(r.simple(MLXL_OP_QUERY_HCA_CAP, 1, MLXL_HCA_CAP_MSG_LEN), 0);
		memcpy(cur, r.dev->out + MLXL_HCA_CAP_OFF, sizeof(cur));
	}

	int set(const uint8_t *cap)
	{
		mlxl_cmd_hdr(r.dev->in, MLXL_HCA_CAP_MSG_LEN, MLXL_OP_SET_HCA_CAP, 0);
		memcpy(r.dev->in + MLXL_HCA_CAP_OFF, cap, MLXL_HCA_CAP_LEN);
		return mlxl_cmd_exec(r.dev.get(), r.dev->in, MLXL_HCA_CAP_MSG_LEN,
				     r.dev->out, MLXL_HDR_LEN);
	}

	uint8_t cur[MLXL_HCA_CAP_LEN];
};

TEST_F(Caps, WritableFieldAccepted)
{
	MLXL_SET(cur, MLXL_C_ROCE, 1);
	EXPECT_EQ(set(cur), 0);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_CAPS_SET);
	EXPECT_EQ(r.fw->owed, r.fw->init_pages);
}

TEST_F(Caps, ReadOnlyFieldRefused)
{
	MLXL_SET(cur, MLXL_C_LOG_MAX_EQ, 2);
	EXPECT_EQ(set(cur), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_CAP_RO), 1u);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_ISSI_SET);
}

TEST_F(Caps, AboveMaximumRefused)
{
	MLXL_SET(cur, MLXL_C_LOG_MAX_QP, 25);
	EXPECT_EQ(set(cur), -EINVAL);
	EXPECT_EQ(r.errs(FWSIM_E_CAP_MAX), 1u);
}

TEST_F(Caps, ChecksumsOnAreVerified)
{
	// turn checksums on, then a mailbox with a wrong signature is refused
	MLXL_SET(cur, MLXL_C_CMDIF_CHECKSUM, 1);
	// SET itself goes out unsigned while checksums are still off
	ASSERT_EQ(set(cur), 0);
	EXPECT_EQ(r.simple(MLXL_OP_NOP), -EIO);
	EXPECT_EQ(r.dev->err_delivery, MLXL_DLV_SIGNATURE);
	EXPECT_EQ(r.errs(FWSIM_E_SIGNATURE), 1u);
}
