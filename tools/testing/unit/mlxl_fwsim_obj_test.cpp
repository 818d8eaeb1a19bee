// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The firmware model's object plane through the real command path: PDs,
// transport domains, MKeys, CQs, SRQs, QP objects, the RoCE address table
// and the NIC vport context.  Round trips, limits from the capabilities,
// busy and unknown-handle refusals, reserved fields and the teardown rules.
// The QP transition table is in mlxl_fwsim_qp_test.cpp.
#include "mlxl_obj_rig.h"

// ---- PD and transport domain
TEST_F(Obj, PdRoundTripAndUnknown)
{
	uint32_t a = alloc_pd(), b = alloc_pd();

	EXPECT_NE(a, b);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 4u);	// UAR, EQ, 2 PDs
	EXPECT_EQ(dealloc_pd(a), 0);
	EXPECT_TRUE(refused(dealloc_pd(a), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_TRUE(refused(dealloc_pd(0), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_TRUE(refused(dealloc_pd(0xffffff), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_EQ(dealloc_pd(b), 0);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 2u);
}

TEST_F(Obj, PdLimitFromCaps)
{
	MLXL_SET(r.fw->caps[0][1], MLXL_C_LOG_MAX_PD, 1);	// two PDs
	alloc_pd();
	alloc_pd();
	hdr(MLXL_OP_ALLOC_PD);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_LIM, FWSIM_E_LIMIT));
	EXPECT_EQ(r.dev->err_opcode, MLXL_OP_ALLOC_PD);
}

TEST_F(Obj, PdTableLimit)
{
	for (int i = 0; i < FWSIM_MAX_PDS; i++)
		alloc_pd();
	hdr(MLXL_OP_ALLOC_PD);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_LIM, FWSIM_E_LIMIT));
}

TEST_F(Obj, PdReservedFields)
{
	hdr(MLXL_OP_ALLOC_PD);
	in()[0x0b] = 1;
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));
	uint32_t pd = alloc_pd();
	hdr(MLXL_OP_DEALLOC_PD);
	MLXL_SET(in(), MLXL_F_PD, pd);
	in()[0x08] = 1;		// above the 24-bit pd
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));
}

TEST_F(Obj, TransportDomain)
{
	uint32_t td = alloc_td();

	EXPECT_NE(td, 0u);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 3u);
	EXPECT_TRUE(refused(dealloc_td(td + 1), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_EQ(dealloc_td(td), 0);
	EXPECT_TRUE(refused(dealloc_td(td), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	MLXL_SET(r.fw->caps[0][1], MLXL_C_LOG_MAX_TRANSPORT_DOMAIN, 0);	// one
	alloc_td();
	hdr(MLXL_OP_ALLOC_TRANSPORT_DOMAIN);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_LIM, FWSIM_E_LIMIT));
}

TEST_F(Obj, ObjectCommandsNeedAnInitializedHca)
{
	Rig q;

	ASSERT_EQ(q.enable(), 0);
	EXPECT_EQ(q.simple(MLXL_OP_ALLOC_PD), -EIO);
	EXPECT_EQ(q.dev->err_status, MLXL_STAT_BAD_SYS_STATE);
	EXPECT_EQ(q.simple(MLXL_OP_QUERY_NIC_VPORT_CONTEXT, 0,
			   MLXL_QUERY_NIC_VPORT_OUT_LEN), -EIO);
	EXPECT_EQ(q.errs(FWSIM_E_PHASE), 2u);
}

// ---- MKey
TEST_F(Obj, MkeyPaWholeMemory)
{
	uint32_t pd = alloc_pd();

	mkey_pa(pd, true);
	ASSERT_EQ(exec(MLXL_CREATE_MKEY_MTT), 0) << fwsim_err_str(r.fw->last_err);
	uint32_t idx = MLXL_GET(out(), MLXL_F_MKEY_INDEX);
	const fwsim_mkey &mk = r.fw->mkeys[idx - 1];
	EXPECT_TRUE(mk.used);
	EXPECT_TRUE(mk.length64);
	EXPECT_EQ(mk.mode, 0);
	EXPECT_EQ(mk.pd, pd);
	EXPECT_EQ(mk.variant, 0x5a);
	EXPECT_EQ(mk.access, 0x1f);

	hdr(MLXL_OP_QUERY_MKEY);
	MLXL_SET(in(), MLXL_F_MKEY_INDEX, idx);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_MKEY_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_MKC_PD), pd);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_MKC_MKEY_7_0), 0x5au);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_MKC_LENGTH64), 1u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_MKC_A), 1u);

	// the PD is busy while the MKey uses it
	EXPECT_TRUE(refused(dealloc_pd(pd), MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_MKEY, idx), 0);
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_MKEY, idx), MLXL_STAT_BAD_RES,
			    FWSIM_E_RESOURCE));
	hdr(MLXL_OP_QUERY_MKEY);
	MLXL_SET(in(), MLXL_F_MKEY_INDEX, idx);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN, MLXL_QUERY_MKEY_OUT_LEN),
			    MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_EQ(dealloc_pd(pd), 0);
}

TEST_F(Obj, MkeyPaRange)
{
	uint32_t pd = alloc_pd();

	mkey_pa(pd, false, 0x1000, 0x20000);
	ASSERT_EQ(exec(MLXL_CREATE_MKEY_MTT), 0);
	const fwsim_mkey &mk = r.fw->mkeys[MLXL_GET(out(), MLXL_F_MKEY_INDEX) - 1];
	EXPECT_EQ(mk.start, 0x1000u);
	EXPECT_EQ(mk.len, 0x20000u);
	// length64 with a range, and an empty range, are refused
	mkey_pa(pd, true, 0x1000, 0x1000);
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	mkey_pa(pd, false, 0x1000, 0);
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
}

TEST_F(Obj, MkeyMttKeepsTheTranslation)
{
	uint32_t pd = alloc_pd();
	std::vector<uint64_t> pages;
	uint32_t len = mkey_mtt(pd, 5, 0x7000'0000, &pages);

	ASSERT_EQ(exec(len), 0) << fwsim_err_str(r.fw->last_err);
	uint32_t idx = MLXL_GET(out(), MLXL_F_MKEY_INDEX);
	const fwsim_mkey &mk = r.fw->mkeys[idx - 1];
	EXPECT_EQ(mk.mode, 1);
	EXPECT_EQ(mk.start, 0x7000'0000u);
	EXPECT_EQ(mk.len, 5u * 4096);
	EXPECT_EQ(mk.log_page_size, 12);
	ASSERT_EQ(mk.n_mtt, 5u);
	for (uint32_t i = 0; i < 5; i++)
		EXPECT_EQ(r.fw->pas_pool[mk.mtt_off + i] & ~3ull, pages[i]) << i;
	EXPECT_EQ(r.fw->pas_in_use, 5u);
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_MKEY, idx), 0);
	EXPECT_EQ(r.fw->pas_in_use, 0u);
}

TEST_F(Obj, MkeyRefusals)
{
	uint32_t pd = alloc_pd(), len;

	mkey_pa(pd, true);
	MLXL_SET(in(), MLXL_F_MKC_ACCESS_MODE_1_0, 2);		// KLM
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	mkey_pa(pd, true);
	MLXL_SET(in(), MLXL_F_MKC_QPN, 5);			// bound to a QP
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	mkey_pa(pd, true);
	MLXL_SET(in(), MLXL_F_MKC_LW, 0);			// remote write without local
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	mkey_pa(pd + 1, true);					// unknown PD
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	mkey_pa(pd, true);
	in()[0x12] |= 0x80;					// mkc.umr_en: no UMR
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));

	len = mkey_mtt(pd, 3);
	MLXL_SET(in(), MLXL_F_MKC_XLT_OCTWORD_SIZE, 1);		// 3 entries need 2
	MLXL_SET(in(), MLXL_F_CREATE_MKEY_XLT_ACTUAL, 1);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = mkey_mtt(pd, 3);
	mlxl_set64(in(), MLXL_CREATE_MKEY_MTT + 8, mlxl_get64(in(), MLXL_CREATE_MKEY_MTT + 8) + 0x800);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PAGE_ALIGN));
	len = mkey_mtt(pd, 3);
	mlxl_set64(in(), MLXL_CREATE_MKEY_MTT + 16, 0x7777'0000'0000ull | 3);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_DMA));
	len = mkey_mtt(pd, 3);
	mlxl_set64(in(), MLXL_CREATE_MKEY_MTT + 24, 0x1000);	// the padding entry
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = mkey_mtt(pd, 3);
	EXPECT_TRUE(refused(exec(len - 16), MLXL_STAT_BAD_INP_LEN, FWSIM_E_IN_LEN));
	EXPECT_EQ(r.fw->nr_mkeys, 0u);
	EXPECT_EQ(r.fw->pas_in_use, 0u);
}

TEST_F(Obj, MkeyLimitFromCaps)
{
	uint32_t pd = alloc_pd();

	MLXL_SET(r.fw->caps[0][1], MLXL_C_LOG_MAX_MKEY, 1);
	for (int i = 0; i < 2; i++) {
		mkey_pa(pd, true);
		ASSERT_EQ(exec(MLXL_CREATE_MKEY_MTT), 0);
	}
	mkey_pa(pd, true);
	EXPECT_TRUE(refused(exec(MLXL_CREATE_MKEY_MTT), MLXL_STAT_LIM, FWSIM_E_LIMIT));
}

// ---- CQ
TEST_F(Obj, CqRoundTripAndModeration)
{
	uint32_t cqn = create_cq();

	EXPECT_EQ(r.fw->eqs[r.dev->eqn].refs, 1u);
	hdr(MLXL_OP_QUERY_CQ);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_CQ_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_LOG_SIZE), 6u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_C_EQN), r.dev->eqn);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_UAR_PAGE), r.dev->uar);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_PERIOD), 0u);

	hdr(MLXL_OP_MODIFY_CQ, 0x110);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	MLXL_SET(in(), MLXL_F_MODIFY_CQ_SELECT, MLXL_MODIFY_CQ_PERIOD | MLXL_MODIFY_CQ_COUNT);
	MLXL_SET(in(), MLXL_F_CQC_PERIOD, 16);
	MLXL_SET(in(), MLXL_F_CQC_MAX_COUNT, 8);
	ASSERT_EQ(exec(0x110), 0) << fwsim_err_str(r.fw->last_err);
	hdr(MLXL_OP_QUERY_CQ);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_CQ_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_PERIOD), 16u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_MAX_COUNT), 8u);

	// a field its select bit does not name; resizing; unknown CQ
	hdr(MLXL_OP_MODIFY_CQ, 0x110);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	MLXL_SET(in(), MLXL_F_MODIFY_CQ_SELECT, MLXL_MODIFY_CQ_PERIOD);
	MLXL_SET(in(), MLXL_F_CQC_MAX_COUNT, 4);
	EXPECT_TRUE(refused(exec(0x110), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	hdr(MLXL_OP_MODIFY_CQ, 0x110, 2);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	MLXL_SET(in(), MLXL_F_MODIFY_CQ_SELECT, 1);
	EXPECT_TRUE(refused(exec(0x110), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	hdr(MLXL_OP_MODIFY_CQ, 0x110);		// moderation with a size
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	MLXL_SET(in(), MLXL_F_MODIFY_CQ_SELECT, MLXL_MODIFY_CQ_PERIOD);
	MLXL_SET(in(), MLXL_F_CQC_LOG_SIZE, 7);
	EXPECT_TRUE(refused(exec(0x110), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	hdr(MLXL_OP_MODIFY_CQ, 0x110);
	MLXL_SET(in(), MLXL_F_CQN, cqn + 1);
	MLXL_SET(in(), MLXL_F_MODIFY_CQ_SELECT, MLXL_MODIFY_CQ_PERIOD);
	EXPECT_TRUE(refused(exec(0x110), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));

	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, cqn), 0);
	EXPECT_EQ(r.fw->eqs[r.dev->eqn].refs, 0u);
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_CQ, cqn), MLXL_STAT_BAD_RES,
			    FWSIM_E_RESOURCE));
	EXPECT_EQ(r.fw->pas_in_use, 0u);
}

// MODIFY_CQ op_mod 1: a new ring, log size and PAS; the old PAS goes
TEST_F(Obj, CqResize)
{
	uint32_t cqn = create_cq();		// log 6: one page
	uint32_t in_use = r.fw->pas_in_use;
	auto resize = [&](uint32_t log, uint32_t sel) {
		uint32_t npas = ((64u << log) + 4095) / 4096;
		uint32_t len = MLXL_MODIFY_CQ_PAS + 8 * npas;
		uint64_t buf = dma(npas * 4096);

		hdr(MLXL_OP_MODIFY_CQ, len, MLXL_MODIFY_CQ_OPMOD_RESIZE);
		MLXL_SET(in(), MLXL_F_CQN, cqn);
		MLXL_SET(in(), MLXL_F_MODIFY_CQ_SELECT, sel);
		MLXL_SET(in(), MLXL_F_CQC_LOG_SIZE, log);
		for (uint32_t i = 0; i < npas; i++)
			mlxl_set64(in(), MLXL_MODIFY_CQ_PAS + 8 * i, buf + 4096ull * i);
		return len;
	};
	const uint32_t all = MLXL_RESIZE_CQ_LOG_SIZE | MLXL_RESIZE_CQ_PG_OFFSET |
			     MLXL_RESIZE_CQ_PG_SIZE;

	ASSERT_EQ(exec(resize(9, all)), 0) << fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(r.fw->pas_in_use, in_use + 7);	// 8 pages for 1 before
	hdr(MLXL_OP_QUERY_CQ);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_CQ_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_LOG_SIZE), 9u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_C_EQN), r.dev->eqn);

	ASSERT_EQ(exec(resize(2, MLXL_RESIZE_CQ_LOG_SIZE)), 0);
	EXPECT_EQ(r.fw->pas_in_use, in_use);
	hdr(MLXL_OP_QUERY_CQ);
	MLXL_SET(in(), MLXL_F_CQN, cqn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_CQ_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_CQC_LOG_SIZE), 2u);

	// no size select, unknown select bit, moderation with a resize,
	// beyond the capability, a short PAS list, an unknown CQ
	EXPECT_TRUE(refused(exec(resize(3, MLXL_RESIZE_CQ_PG_SIZE)),
			    MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	EXPECT_TRUE(refused(exec(resize(3, 8 | MLXL_RESIZE_CQ_LOG_SIZE)),
			    MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	uint32_t len = resize(3, MLXL_RESIZE_CQ_LOG_SIZE);
	MLXL_SET(in(), MLXL_F_CQC_PERIOD, 4);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = resize(3, MLXL_RESIZE_CQ_LOG_SIZE);	// the size only, no PAS for it
	MLXL_SET(in(), MLXL_F_CQC_LOG_SIZE,
		 MLXL_GET(r.fw->caps[0][1], MLXL_C_LOG_MAX_CQ_SZ) + 1);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = resize(9, MLXL_RESIZE_CQ_LOG_SIZE);
	EXPECT_TRUE(refused(exec(len - 8), MLXL_STAT_BAD_INP_LEN, FWSIM_E_IN_LEN));
	len = resize(3, MLXL_RESIZE_CQ_LOG_SIZE);
	MLXL_SET(in(), MLXL_F_CQN, cqn + 1);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_EQ(r.fw->pas_in_use, in_use);	// refusals take nothing

	// outstanding CQEs (producer - consumer) must fit the new ring
	struct fwsim_cq *cq = fwsim_cq_get(r.fw.get(), cqn);
	ASSERT_NE(cq, nullptr);
	fwsim_wr(cq->cqc, 0x2c, 31, 0, 6);
	fwsim_wr(cq->cqc, 0x28, 31, 0, 1);		// 5 outstanding
	EXPECT_TRUE(refused(exec(resize(2, MLXL_RESIZE_CQ_LOG_SIZE)),
			    MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
	EXPECT_EQ(exec(resize(3, MLXL_RESIZE_CQ_LOG_SIZE)), 0);

	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, cqn), 0);
	EXPECT_EQ(r.fw->pas_in_use, 0u);
}

TEST_F(Obj, CqRefusals)
{
	uint32_t len = cq_in(r.dev->eqn + 1);			// no such EQ
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = cq_in(r.dev->eqn);
	MLXL_SET(in(), MLXL_F_CQC_UAR_PAGE, r.dev->uar + 1);	// no such UAR
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = cq_in(r.dev->eqn);
	mlxl_set64(in(), MLXL_CQC_DBR_ADDR, mlxl_get64(in(), MLXL_CQC_DBR_ADDR) + 4);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = cq_in(r.dev->eqn);
	mlxl_set64(in(), MLXL_CQC_DBR_ADDR, 0x7777'0000'0000ull);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_DMA));
	len = cq_in(r.dev->eqn, 8);				// 16 KiB: 4 pages
	EXPECT_TRUE(refused(exec(len - 8), MLXL_STAT_BAD_INP_LEN, FWSIM_E_IN_LEN));
	len = cq_in(r.dev->eqn);
	MLXL_SET(in(), MLXL_F_CQC_LOG_SIZE, 23);		// above log_max_cq_sz
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = cq_in(r.dev->eqn);
	in()[0x11] |= 0x10;					// cqc.cc
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));
	EXPECT_EQ(r.fw->nr_cqs, 0u);
	EXPECT_EQ(r.fw->pas_in_use, 0u);
}

TEST_F(Obj, CqLimitFromCaps)
{
	MLXL_SET(r.fw->caps[0][1], MLXL_C_LOG_MAX_CQ, 2);	// four CQs
	for (int i = 0; i < 4; i++)
		create_cq();
	uint32_t len = cq_in(r.dev->eqn);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_LIM, FWSIM_E_LIMIT));
}

TEST_F(Obj, EqAndUarBusyWhileCqsUseThem)
{
	uint32_t cqn = create_cq();

	hdr(MLXL_OP_DESTROY_EQ);
	MLXL_SET(in(), MLXL_F_EQ_NUMBER, r.dev->eqn);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
	EXPECT_EQ(r.fw->nr_eqs, 1u);
	// a second UAR the CQ rings cannot go either
	hdr(MLXL_OP_ALLOC_UAR);
	ASSERT_EQ(exec(MLXL_HDR_LEN), 0);
	uint32_t uar = MLXL_GET(out(), MLXL_F_UAR);
	uint32_t len = cq_in(r.dev->eqn);
	MLXL_SET(in(), MLXL_F_CQC_UAR_PAGE, uar);
	ASSERT_EQ(exec(len), 0);
	uint32_t cq2 = MLXL_GET(out(), MLXL_F_CQN);
	hdr(MLXL_OP_DEALLOC_UAR);
	MLXL_SET(in(), MLXL_F_UAR, uar);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, cq2), 0);
	hdr(MLXL_OP_DEALLOC_UAR);
	MLXL_SET(in(), MLXL_F_UAR, uar);
	EXPECT_EQ(exec(MLXL_HDR_LEN), 0);
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, cqn), 0);
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
}

// ---- SRQ
TEST_F(Obj, SrqRoundTripAndReferences)
{
	uint32_t pd = alloc_pd(), cqn = create_cq();
	uint32_t srqn = create_srq(pd, cqn);

	hdr(MLXL_OP_QUERY_SRQ);
	MLXL_SET(in(), MLXL_F_SRQN, srqn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_SRQ_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_SRQC_PD), pd);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_SRQC_CQN), cqn);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_SRQC_LOG_SIZE), 6u);

	EXPECT_TRUE(refused(dealloc_pd(pd), MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_CQ, cqn), MLXL_STAT_BAD_RES_STATE,
			    FWSIM_E_BUSY));
	uint32_t qpn = create_qp(MLXL_QPT_RC, pd, cqn, cqn, srqn);
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_SRQ, srqn), MLXL_STAT_BAD_RES_STATE,
			    FWSIM_E_BUSY));
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_QP, qpn), 0);
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_SRQ, srqn), 0);
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_SRQ, srqn), MLXL_STAT_BAD_RES,
			    FWSIM_E_RESOURCE));
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, cqn), 0);
	EXPECT_EQ(dealloc_pd(pd), 0);
}

// ARM_RQ (op_mod 1) sets the SRQ's limit, at most its size
TEST_F(Obj, SrqArmLimit)
{
	uint32_t pd = alloc_pd(), cqn = create_cq();
	uint32_t srqn = create_srq(pd, cqn);		// 64 WQEs
	auto arm = [&](uint16_t op_mod, uint32_t n, uint32_t lwm) {
		hdr(MLXL_OP_ARM_RQ, MLXL_HDR_LEN, op_mod);
		MLXL_SET(in(), MLXL_F_ARM_RQ_SRQN, n);
		MLXL_SET(in(), MLXL_F_ARM_RQ_LWM, lwm);
		return exec(MLXL_HDR_LEN);
	};
	auto lwm = [&]() {
		hdr(MLXL_OP_QUERY_SRQ);
		MLXL_SET(in(), MLXL_F_SRQN, srqn);
		EXPECT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_SRQ_OUT_LEN), 0);
		return MLXL_GET(out(), MLXL_F_SRQC_LWM);
	};

	ASSERT_EQ(arm(MLXL_ARM_RQ_OPMOD_SRQ, srqn, 12), 0) << fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(lwm(), 12u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_SRQC_LOG_SIZE), 6u);	// the rest kept
	EXPECT_EQ(arm(MLXL_ARM_RQ_OPMOD_SRQ, srqn, 64), 0);
	EXPECT_EQ(lwm(), 64u);
	EXPECT_TRUE(refused(arm(MLXL_ARM_RQ_OPMOD_SRQ, srqn, 65), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	EXPECT_TRUE(refused(arm(0, srqn, 4), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	EXPECT_TRUE(refused(arm(MLXL_ARM_RQ_OPMOD_SRQ, srqn + 1, 4), MLXL_STAT_BAD_RES,
			    FWSIM_E_RESOURCE));
	EXPECT_EQ(lwm(), 64u);
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_SRQ, srqn), 0);
	EXPECT_TRUE(refused(arm(MLXL_ARM_RQ_OPMOD_SRQ, srqn, 4), MLXL_STAT_BAD_RES,
			    FWSIM_E_RESOURCE));
}

TEST_F(Obj, SrqRefusalsAndLimit)
{
	uint32_t pd = alloc_pd(), cqn = create_cq(), len;

	len = srq_in(pd + 1, cqn);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = srq_in(pd, cqn + 1);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = srq_in(pd, cqn);
	in()[0x10] |= 0x10;					// srqc.state
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));
	MLXL_SET(r.fw->caps[0][1], MLXL_C_LOG_MAX_SRQ, 0);	// one SRQ
	create_srq(pd, cqn);
	len = srq_in(pd, cqn);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_LIM, FWSIM_E_LIMIT));
}

// ---- QP objects
TEST_F(Obj, QpCreateQueryDestroy)
{
	uint32_t pd = alloc_pd(), scq = create_cq(), rcq = create_cq();
	uint32_t qpn = create_qp(MLXL_QPT_RC, pd, scq, rcq);

	EXPECT_GE(qpn, (uint32_t)FWSIM_QPN_BASE);
	hdr(MLXL_OP_QUERY_QP);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_QP_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_STATE), (unsigned)MLXL_QPS_RST);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_ST), (unsigned)MLXL_QPT_RC);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_PD), pd);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_CQN_SND), scq);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_CQN_RCV), rcq);
	const fwsim_qp &qp = r.fw->qps[qpn - FWSIM_QPN_BASE];
	EXPECT_EQ(qp.npas, 2u);
	EXPECT_NE(qp.dbr, 0u);

	// busy: PD and both CQs, and the EQ behind the CQs
	EXPECT_TRUE(refused(dealloc_pd(pd), MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_CQ, scq), MLXL_STAT_BAD_RES_STATE,
			    FWSIM_E_BUSY));
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_CQ, rcq), MLXL_STAT_BAD_RES_STATE,
			    FWSIM_E_BUSY));
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_QP, qpn), 0);
	EXPECT_TRUE(refused(destroy(MLXL_OP_DESTROY_QP, qpn), MLXL_STAT_BAD_RES,
			    FWSIM_E_RESOURCE));
	hdr(MLXL_OP_QUERY_QP);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN, MLXL_QUERY_QP_OUT_LEN),
			    MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	hdr(MLXL_OP_2ERR_QP);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, scq), 0);
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_CQ, rcq), 0);
	EXPECT_EQ(dealloc_pd(pd), 0);
	EXPECT_EQ(r.fw->pas_in_use, 0u);
}

TEST_F(Obj, QpCreateRefusals)
{
	uint32_t pd = alloc_pd(), cq = create_cq(), len;

	len = qp_in(MLXL_QPT_RC, pd + 1, cq, cq);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = qp_in(MLXL_QPT_RC, pd, cq + 1, cq);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq, 7);		// no such SRQ
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	MLXL_SET(in(), MLXL_F_QPC_UAR_PAGE, 0);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_RES, FWSIM_E_RESOURCE));
	len = qp_in(1, pd, cq, cq);				// UC: not modeled
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	MLXL_SET(in(), MLXL_F_QPC_PM_STATE, 0);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	MLXL_SET(in(), MLXL_F_QPC_TS_FORMAT, 2);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	EXPECT_TRUE(refused(exec(len - 8), MLXL_STAT_BAD_INP_LEN, FWSIM_E_IN_LEN));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	MLXL_SET(in(), MLXL_F_QPC_STATE, MLXL_QPS_RTS);		// created in RST only
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	MLXL_SET(in(), MLXL_F_QPC_REMOTE_QPN, 5);		// a transition field
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_RESERVED));
	EXPECT_EQ(r.fw->nr_qps, 0u);
	EXPECT_EQ(r.fw->cqs[cq - 1].refs, 0u);
	EXPECT_EQ(r.fw->pds[pd - 1].refs, 0u);
}

TEST_F(Obj, OneGsiQpAndTheQpLimit)
{
	uint32_t pd = alloc_pd(), cq = create_cq();

	create_qp(MLXL_QPT_GSI, pd, cq, cq);
	uint32_t len = qp_in(MLXL_QPT_GSI, pd, cq, cq);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_LIM, FWSIM_E_LIMIT));
	MLXL_SET(r.fw->caps[0][1], MLXL_C_LOG_MAX_QP, 1);	// two QPs
	create_qp(MLXL_QPT_UD, pd, cq, cq);
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_LIM, FWSIM_E_LIMIT));
}

class ObjCx6 : public Obj {
public:
	ObjCx6() : Obj(FWSIM_CX6DX) {}
};

// ConnectX-6 Dx advertises qp_ts_format: QPs carry ts_format 1 there
TEST_F(ObjCx6, TsFormatFollowsTheRoceCap)
{
	uint32_t pd = alloc_pd(), cq = create_cq();
	uint32_t len = qp_in(MLXL_QPT_RC, pd, cq, cq);

	EXPECT_EQ(MLXL_GET(in(), MLXL_F_QPC_TS_FORMAT), 1u);
	EXPECT_EQ(exec(len), 0) << fwsim_err_str(r.fw->last_err);
	len = qp_in(MLXL_QPT_RC, pd, cq, cq);
	MLXL_SET(in(), MLXL_F_QPC_TS_FORMAT, 0);
	EXPECT_TRUE(refused(exec(len), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
}

// ---- the RoCE port
TEST_F(Obj, NicVportContext)
{
	hdr(MLXL_OP_QUERY_NIC_VPORT_CONTEXT);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_NIC_VPORT_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_ROCE_EN), 0u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_MTU), 1500u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_PERM_MAC_47_32), 0x0c42u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_PERM_MAC_31_0) >> 8, 0xa10000u);

	EXPECT_EQ(vport_modify(MLXL_VPORT_SEL_ROCE_EN | MLXL_VPORT_SEL_MTU, true, 4200), 0);
	hdr(MLXL_OP_QUERY_NIC_VPORT_CONTEXT);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_NIC_VPORT_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_ROCE_EN), 1u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_MTU), 4200u);

	// a value its select bit does not name, an unknown select bit,
	// another vport, an MTU out of range
	EXPECT_TRUE(refused(vport_modify(MLXL_VPORT_SEL_ROCE_EN, true, 1500),
			    MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	EXPECT_TRUE(refused(vport_modify(1u << 0, false), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	EXPECT_TRUE(refused(vport_modify(MLXL_VPORT_SEL_MTU, false, 20000),
			    MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	hdr(MLXL_OP_QUERY_NIC_VPORT_CONTEXT);
	MLXL_SET(in(), MLXL_F_VPORT_OTHER, 1);
	MLXL_SET(in(), MLXL_F_VPORT_NUMBER, 1);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN, MLXL_QUERY_NIC_VPORT_OUT_LEN),
			    MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));

	// RoCE cannot go off under a QP
	uint32_t pd = alloc_pd(), cq = create_cq();
	create_qp(MLXL_QPT_RC, pd, cq, cq);
	EXPECT_TRUE(refused(vport_modify(MLXL_VPORT_SEL_ROCE_EN, false),
			    MLXL_STAT_BAD_RES_STATE, FWSIM_E_BUSY));
}

TEST_F(Obj, NicVportPermanentMac)
{
	hdr(MLXL_OP_MODIFY_NIC_VPORT_CONTEXT, MLXL_MODIFY_NIC_VPORT_IN_LEN);
	MLXL_SET(in(), MLXL_F_MODIFY_VPORT_SELECT, MLXL_VPORT_SEL_PERM_ADDR);
	MLXL_SET(in(), MLXL_F_NVM_PERM_MAC_47_32, 0x0200);
	MLXL_SET(in(), MLXL_F_NVM_PERM_MAC_31_0, 0x12345678);
	ASSERT_EQ(exec(MLXL_MODIFY_NIC_VPORT_IN_LEN), 0);
	hdr(MLXL_OP_QUERY_NIC_VPORT_CONTEXT);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_NIC_VPORT_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_PERM_MAC_47_32), 0x0200u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_NVQ_PERM_MAC_31_0), 0x12345678u);
	// a multicast address is refused
	hdr(MLXL_OP_MODIFY_NIC_VPORT_CONTEXT, MLXL_MODIFY_NIC_VPORT_IN_LEN);
	MLXL_SET(in(), MLXL_F_MODIFY_VPORT_SELECT, MLXL_VPORT_SEL_PERM_ADDR);
	MLXL_SET(in(), MLXL_F_NVM_PERM_MAC_47_32, 0x0100);
	EXPECT_TRUE(refused(exec(MLXL_MODIFY_NIC_VPORT_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
}

TEST_F(Obj, RoceAddressTable)
{
	uint32_t size = MLXL_GET(r.dev->roce_cap, MLXL_RC_ADDR_TABLE_SIZE);

	ASSERT_GT(size, 2u);
	EXPECT_EQ(set_gid(0), 0);
	EXPECT_EQ(set_gid(size - 1, true), 0);
	hdr(MLXL_OP_QUERY_ROCE_ADDRESS);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_INDEX, size - 1);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_ROCE_ADDRESS_OUT_LEN), 0);
	EXPECT_EQ(out()[MLXL_ROCE_ADDR_GID + 10], 0xff);
	EXPECT_EQ(out()[MLXL_ROCE_ADDR_GID + 12], 10);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ROCE_ADDR_L3_TYPE), (unsigned)MLXL_ROCE_L3_IPV4);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ROCE_ADDR_VERSION), (unsigned)MLXL_ROCE_V2);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ROCE_ADDR_MAC_47_32), 0x0c42u);
	EXPECT_TRUE(fwsim_gid_valid(r.fw.get(), size - 1));

	// index beyond the table
	EXPECT_TRUE(refused(set_gid(size), MLXL_STAT_IX, FWSIM_E_INDEX));
	hdr(MLXL_OP_QUERY_ROCE_ADDRESS);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_INDEX, size);
	EXPECT_TRUE(refused(exec(MLXL_HDR_LEN, MLXL_QUERY_ROCE_ADDRESS_OUT_LEN),
			    MLXL_STAT_IX, FWSIM_E_INDEX));
	// a port number without num_vhca_ports
	gid_in(2, false);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_PORT, 1);
	EXPECT_TRUE(refused(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	// RoCE version 1 is 0, version 3 does not exist
	gid_in(2, false, MLXL_ROCE_V1);
	EXPECT_EQ(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), 0);
	gid_in(2, false, 3);
	EXPECT_TRUE(refused(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	// IPv4 flag with a GID that is not IPv4-mapped
	gid_in(2, false);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_L3_TYPE, MLXL_ROCE_L3_IPV4);
	EXPECT_TRUE(refused(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	// VLAN: an id needs vlan_valid; 4095 is reserved
	gid_in(2, false);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_VLAN_ID, 100);
	EXPECT_TRUE(refused(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_VLAN_VALID, 1);
	EXPECT_EQ(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), 0);
	gid_in(3, false);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_VLAN_VALID, 1);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_VLAN_ID, 4095);
	EXPECT_TRUE(refused(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	// a multicast source MAC
	gid_in(3, false);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_MAC_47_32, 0x0100);
	EXPECT_TRUE(refused(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_PARAM));
	// clearing: an all-zero address
	hdr(MLXL_OP_SET_ROCE_ADDRESS, MLXL_SET_ROCE_ADDRESS_IN_LEN);
	MLXL_SET(in(), MLXL_F_ROCE_ADDR_INDEX, 0);
	EXPECT_EQ(exec(MLXL_SET_ROCE_ADDRESS_IN_LEN), 0);
	EXPECT_FALSE(fwsim_gid_valid(r.fw.get(), 0));
	hdr(MLXL_OP_QUERY_ROCE_ADDRESS);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_ROCE_ADDRESS_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ROCE_ADDR_MAC_47_32), 0u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ROCE_ADDR_VERSION), 0u);
}

// ---- teardown
TEST_F(Obj, EveryObjectTypeCountsAndBlocksTeardown)
{
	uint32_t base = fwsim_objects_alive(r.fw.get());
	uint32_t pd = alloc_pd();
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base + 1);
	uint32_t td = alloc_td();
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base + 2);
	mkey_pa(pd, true);
	ASSERT_EQ(exec(MLXL_CREATE_MKEY_MTT), 0);
	uint32_t mkey = MLXL_GET(out(), MLXL_F_MKEY_INDEX);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base + 3);
	uint32_t cq = create_cq();
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base + 4);
	uint32_t srq = create_srq(pd, cq);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base + 5);
	uint32_t qp = create_qp(MLXL_QPT_UD, pd, cq, cq, srq);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base + 6);

	// TEARDOWN_HCA refused while each kind, last of all the QP, is alive
	struct {
		uint16_t op;
		uint32_t num;
	} order[] = {
		{ MLXL_OP_DESTROY_QP, qp }, { MLXL_OP_DESTROY_SRQ, srq },
		{ MLXL_OP_DESTROY_CQ, cq }, { MLXL_OP_DESTROY_MKEY, mkey },
		{ MLXL_OP_DEALLOC_PD, pd }, { MLXL_OP_DEALLOC_TRANSPORT_DOMAIN, td },
	};
	uint32_t busy = 0;
	for (auto &o : order) {
		hdr(MLXL_OP_TEARDOWN_HCA);
		EXPECT_TRUE(refused(exec(MLXL_HDR_LEN), MLXL_STAT_BAD_RES_STATE,
				    FWSIM_E_BUSY)) << mlxl_cmd_name(o.op);
		busy++;
		EXPECT_EQ(destroy(o.op, o.num), 0) << mlxl_cmd_name(o.op);
	}
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), base);
	EXPECT_EQ(r.errs(FWSIM_E_BUSY), busy);
	EXPECT_EQ(r.fw->pas_in_use, 0u);
	EXPECT_EQ(r.fw->eqs[r.dev->eqn].refs, 0u);
	uint32_t errs = r.fw->nr_errs;
	mlxl_shutdown(r.dev.get());
	EXPECT_EQ(r.fw->nr_errs, errs) << fwsim_err_str(r.fw->last_err);
	EXPECT_EQ(fwsim_objects_alive(r.fw.get()), 0u);
	EXPECT_EQ(fwsim_pages_held(r.fw.get()), 0u);
	EXPECT_EQ(r.fw->phase, FWSIM_PH_DISABLED);
}

TEST_F(Obj, DisableHcaResetsThePort)
{
	port_up();
	EXPECT_TRUE(r.fw->roce_en);
	mlxl_shutdown(r.dev.get());
	EXPECT_FALSE(r.fw->roce_en);
	EXPECT_FALSE(fwsim_gid_valid(r.fw.get(), 0));
	EXPECT_EQ(r.fw->mtu, 1500u);
}
