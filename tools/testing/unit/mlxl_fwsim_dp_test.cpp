// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host tests of the firmware model's key translation (fwsim_mkey.c):
// lkey/rkey -> MKey (index, variant), PD, invalidation, access rights,
// bounds, atomic alignment, and PA / MTT page walking.  The MKey table is
// filled directly: these are the pure rules, not the commands.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>

#include "fwsim/fwsim.h"

namespace {

constexpr uint32_t PD = 3;
constexpr uint64_t VA = 0x7000'0800;	// not page aligned: first page partial
constexpr uint64_t LEN = 3 * 4096;	// pages 0x7000'0000 .. 0x7000'3000

class Key : public ::testing::Test {
public:
	std::unique_ptr<fwsim> fw{new fwsim()};

	void SetUp() override
	{
		std::memset(fw.get(), 0, sizeof(*fw));
		fwsim_mkey &m = fw->mkeys[4];		// index 5
		m.used = true;
		m.mode = 1;
		m.variant = 0x5a;
		m.access = FWSIM_ACC_LR | FWSIM_ACC_LW | FWSIM_ACC_RR |
			   FWSIM_ACC_RW | FWSIM_ACC_A;
		m.log_page_size = 12;
		m.pd = PD;
		m.start = VA;
		m.len = LEN;
		m.mtt_off = 10;
		m.n_mtt = 4;
		fw->pas_pool[10] = 0x9000'0000 | 3;
		fw->pas_pool[11] = 0x5000'0000 | 3;
		fw->pas_pool[12] = 0x1000'0000 | 1;	// read only
		fw->pas_pool[13] = 0x2000'0000 | 3;
		fwsim_mkey &p = fw->mkeys[6];		// index 7: PA, whole space
		p.used = true;
		p.mode = 0;
		p.variant = 0x01;
		p.access = FWSIM_ACC_LR | FWSIM_ACC_LW;
		p.length64 = true;
		p.pd = PD;
	}

	static constexpr uint32_t key = 5u << 8 | 0x5a;
	static constexpr uint32_t pa_key = 7u << 8 | 0x01;

	fwsim_kerr check(uint32_t k, uint32_t acc, uint64_t va, uint64_t len,
			 uint32_t pd = PD)
	{
		const fwsim_mkey *mk;

		return fwsim_key_check(fw.get(), k, pd, acc, va, len, &mk);
	}
};

TEST_F(Key, IndexVariantAndState)
{
	EXPECT_EQ(check(key, FWSIM_ACC_LR, VA, 16), FWSIM_K_OK);
	EXPECT_EQ(check(key ^ 1, FWSIM_ACC_LR, VA, 16), FWSIM_K_KEY);	// variant
	EXPECT_EQ(check(6u << 8 | 0x5a, FWSIM_ACC_LR, VA, 16), FWSIM_K_KEY); // unused
	EXPECT_EQ(check(0x5a, FWSIM_ACC_LR, VA, 16), FWSIM_K_KEY);	// index 0
	EXPECT_EQ(check((FWSIM_MAX_MKEYS + 1u) << 8, FWSIM_ACC_LR, VA, 16),
		  FWSIM_K_KEY);
	fw->mkeys[4].free = true;					// invalidated
	EXPECT_EQ(check(key, FWSIM_ACC_LR, VA, 16), FWSIM_K_KEY);
}

TEST_F(Key, ProtectionDomain)
{
	EXPECT_EQ(check(key, FWSIM_ACC_LR, VA, 16, PD + 1), FWSIM_K_PD);
}

TEST_F(Key, AccessRights)
{
	fw->mkeys[4].access = FWSIM_ACC_LR | FWSIM_ACC_RR;
	EXPECT_EQ(check(key, FWSIM_ACC_RR, VA, 8), FWSIM_K_OK);
	EXPECT_EQ(check(key, FWSIM_ACC_LW, VA, 8), FWSIM_K_ACCESS);
	EXPECT_EQ(check(key, FWSIM_ACC_RW, VA, 8), FWSIM_K_ACCESS);
	EXPECT_EQ(check(key, FWSIM_ACC_A, VA, 8), FWSIM_K_ACCESS);
}

TEST_F(Key, Bounds)
{
	EXPECT_EQ(check(key, FWSIM_ACC_RW, VA, LEN), FWSIM_K_OK);
	EXPECT_EQ(check(key, FWSIM_ACC_RW, VA, LEN + 1), FWSIM_K_BOUNDS);
	EXPECT_EQ(check(key, FWSIM_ACC_RW, VA - 1, 1), FWSIM_K_BOUNDS);
	EXPECT_EQ(check(key, FWSIM_ACC_RW, VA + LEN - 1, 2), FWSIM_K_BOUNDS);
	EXPECT_EQ(check(key, FWSIM_ACC_RW, VA + LEN, 0), FWSIM_K_OK);
	EXPECT_EQ(check(key, FWSIM_ACC_RW, ~0ull - 3, 8), FWSIM_K_BOUNDS);
	EXPECT_EQ(check(pa_key, FWSIM_ACC_LW, 0x1234'5678, 1 << 20), FWSIM_K_OK);
	EXPECT_EQ(check(pa_key, FWSIM_ACC_LW, ~0ull - 3, 8), FWSIM_K_BOUNDS);
}

TEST_F(Key, AtomicAlignment)
{
	EXPECT_EQ(check(key, FWSIM_ACC_A, VA + 8, 8), FWSIM_K_OK);
	EXPECT_EQ(check(key, FWSIM_ACC_A, VA + 4, 8), FWSIM_K_ALIGN);
	EXPECT_EQ(check(key, FWSIM_ACC_A, VA + 8, 4), FWSIM_K_ALIGN);
}

TEST_F(Key, MttWalk)
{
	const fwsim_mkey *mk;
	u64 bus;
	u32 run;

	ASSERT_EQ(fwsim_key_check(fw.get(), key, PD, FWSIM_ACC_LR, VA, LEN, &mk),
		  FWSIM_K_OK);
	// first entry: the page of start
	ASSERT_TRUE(fwsim_key_bus(fw.get(), mk, VA, 10000, false, &bus, &run));
	EXPECT_EQ(bus, 0x9000'0800u);
	EXPECT_EQ(run, 0x800u);
	ASSERT_TRUE(fwsim_key_bus(fw.get(), mk, VA + 0x800, 100, true, &bus, &run));
	EXPECT_EQ(bus, 0x5000'0000u);
	EXPECT_EQ(run, 100u);
	ASSERT_TRUE(fwsim_key_bus(fw.get(), mk, 0x7000'2ffc, 64, false, &bus, &run));
	EXPECT_EQ(bus, 0x1000'0ffcu);
	EXPECT_EQ(run, 4u);
	// the third page is read only: no write through it
	EXPECT_FALSE(fwsim_key_bus(fw.get(), mk, 0x7000'2000, 8, true, &bus, &run));
	ASSERT_TRUE(fwsim_key_bus(fw.get(), mk, 0x7000'3000, 8, true, &bus, &run));
	EXPECT_EQ(bus, 0x2000'0000u);
	EXPECT_FALSE(fwsim_key_bus(fw.get(), mk, 0x7000'4000, 8, false, &bus, &run));
	EXPECT_FALSE(fwsim_key_bus(fw.get(), mk, 0x6fff'f000, 8, false, &bus, &run));
}

TEST_F(Key, PaIsIdentity)
{
	const fwsim_mkey *mk;
	u64 bus;
	u32 run;

	ASSERT_EQ(fwsim_key_check(fw.get(), pa_key, PD, FWSIM_ACC_LW, 0xabc000,
				  4096, &mk), FWSIM_K_OK);
	ASSERT_TRUE(fwsim_key_bus(fw.get(), mk, 0xabc123, 777, true, &bus, &run));
	EXPECT_EQ(bus, 0xabc123u);
	EXPECT_EQ(run, 777u);
}

} // namespace

// ---- the KUnit data-path cases (tests/fwsim_kunit_dp.c) on the host rig
#include <stdexcept>
#include <string>

#include "mlxl_rig.h"
#include "mlxl_qpc.h"

struct rig;

struct kunit {
	const void *param_value;
	void *priv;
	std::vector<std::unique_ptr<Rig>> R;
	std::vector<std::unique_ptr<struct rig>> r;
};

struct rig {
	fwsim *fw;
	mlxl_dev *dev;
	Rig *R;
	fwsim_ops &fops;
};

namespace {

struct kunit_abort : std::runtime_error {
	kunit_abort() : std::runtime_error("assertion") {}
};

#define GFP_KERNEL	0
#define KUNIT_PARAM_DESC_SIZE	128
#define ALIGN(x, a)	(((x) + (a) - 1) & ~((a) - 1))
#define KUNIT_EXPECT_EQ(t, a, b)	EXPECT_EQ(a, b)
#define KUNIT_EXPECT_EQ_MSG(t, a, b, ...) EXPECT_EQ(a, b)
#define KUNIT_EXPECT_TRUE(t, a)		EXPECT_TRUE(a)
#define KUNIT_EXPECT_NULL(t, a)		EXPECT_EQ((const void *)(a), nullptr)
#define KUNIT_ASSERT_(c, what)						\
	do {								\
		if (!(c)) {						\
			ADD_FAILURE() << what;				\
			throw kunit_abort();				\
		}							\
	} while (0)
#define KUNIT_ASSERT_EQ(t, a, b)	KUNIT_ASSERT_((a) == (b), #a " == " #b)
#define KUNIT_ASSERT_EQ_MSG(t, a, b, fmt, ...)				\
	KUNIT_ASSERT_((a) == (b), #a " == " #b << " " << kfmt(fmt, __VA_ARGS__))
#define KUNIT_ASSERT_NOT_NULL(t, a)	KUNIT_ASSERT_((a) != nullptr, #a)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, a, fmt, ...)			\
	KUNIT_ASSERT_((a) != nullptr, #a << " " << kfmt(fmt, __VA_ARGS__))
#define KUNIT_ARRAY_PARAM(name, arr, desc)

template <typename... A> std::string kfmt(const char *fmt, A... a)
{
	char buf[256];

	snprintf(buf, sizeof(buf), fmt, a...);
	return buf;
}

void *kunit_kzalloc(struct kunit *, size_t size, int)
{
	static std::vector<std::unique_ptr<uint8_t[]>> keep;

	keep.emplace_back(new uint8_t[size]());
	return keep.back().get();
}

const void *memchr_inv(const void *p, int c, size_t n)
{
	const uint8_t *b = static_cast<const uint8_t *>(p);

	for (size_t i = 0; i < n; i++)
		if (b[i] != (uint8_t)c)
			return b + i;
	return nullptr;
}

void strscpy(char *d, const char *s, size_t n)
{
	snprintf(d, n, "%s", s);
}

struct rig *rig_new(struct kunit *test, enum fwsim_profile prof)
{
	Rig *R = new Rig(prof);

	test->R.emplace_back(R);
	test->r.emplace_back(new rig{R->fw.get(), R->dev.get(), R, R->fops});
	test->priv = test->r.back().get();
	return test->r.back().get();
}

// the host rigs live until the case ends
void rig_exit(struct kunit *test)
{
	test->priv = nullptr;
}

int rig_alloc(void *ctx, struct mlxl_dma *d, u32 size, u32 align)
{
	return static_cast<struct rig *>(ctx)->R->alloc(d, size, align);
}

// kernel idioms the host flags: partial designated initializers, unused
// context arguments, the KUnit macros' if without braces
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wdangling-else"
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../../drivers/infiniband/hw/mlx-lite/tests/fwsim_kunit_dp.c"
#pragma GCC diagnostic pop

void run(void (*fn)(struct kunit *), const void *param = nullptr)
{
	struct kunit k;

	k.param_value = param;
	try {
		fn(&k);
	} catch (const kunit_abort &) {
	}
}

TEST(Dp, SendRecv) { run(fwsim_dp_send_recv); }
TEST(Dp, RdmaAtomics) { run(fwsim_dp_rdma_atomics); }
TEST(Dp, RkeyBadKey) { run(fwsim_dp_rkey_violation, &v_params[V_BAD_KEY]); }
TEST(Dp, RkeyBounds) { run(fwsim_dp_rkey_violation, &v_params[V_BOUNDS]); }
TEST(Dp, RkeyAccess) { run(fwsim_dp_rkey_violation, &v_params[V_ACCESS]); }
TEST(Dp, RkeyAtomicAlign) { run(fwsim_dp_rkey_violation, &v_params[V_ATOMIC_ALIGN]); }
TEST(Dp, Ud) { run(fwsim_dp_ud); }
TEST(Dp, ShortRecv) { run(fwsim_dp_short_recv); }
TEST(Dp, Rnr) { run(fwsim_dp_rnr); }
TEST(Dp, RnrInfinite) { run(fwsim_dp_rnr_infinite); }
TEST(Dp, FlushAndWrap) { run(fwsim_dp_flush_and_wrap); }
TEST(Dp, Arm) { run(fwsim_dp_arm); }
TEST(Dp, ProducerTooFar) { run(fwsim_dp_producer_too_far); }
TEST(Dp, TwoInstances) { run(fwsim_dp_two_instances); }
TEST(Dp, CqOverrun) { run(fwsim_dp_cq_overrun); }

} // namespace
