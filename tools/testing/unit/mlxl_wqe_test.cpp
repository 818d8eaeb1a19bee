// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The data path formats (mlxl_wqe.c) against byte vectors written from
// the tables of doc §5.1-§5.5 (ctrl segment, remote address, atomic,
// datagram, data, inline, receive terminator, CQE fields, syndromes,
// arm word), never produced by the builder itself.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mlxl_wqe.h"

namespace {

struct Wqe {
	u8 b[MLXL_MAX_WQE_BYTES];
};

u32 be32(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }
u64 be64(const u8 *p) { return (u64)be32(p) << 32 | be32(p + 4); }

mlxl_swr base(u32 op, const mlxl_sge *sg, u32 n)
{
	mlxl_swr w;
	memset(&w, 0, sizeof(w));
	w.opcode = op;
	w.sg = sg;
	w.num_sge = n;
	return w;
}

const mlxl_sge kSge[2] = {
	{ 0x1122334455667788ull, 0x100, 0xabcd01 },
	{ 0x99aabbccddeeff00ull, 0x20, 0x1234 },
};

TEST(MlxlWqe, RcSendCtrlSegment)
{
	Wqe q;
	mlxl_swr w = base(MLXL_WR_SEND, kSge, 1);
	w.flags = MLXL_SF_SIGNALED | MLXL_SF_SOLICITED;
	int ds = mlxl_wqe_build(q.b, MLXL_QPT_RC, 0x123456, 0x1abcd, &w, 0);
	// ctrl 16 + one data segment 16 = 2 DS
	ASSERT_EQ(ds, 2);
	const u8 want[16] = {
		0x00, 0xab, 0xcd, 0x0a,		// opmod 0, wqe_index 0xabcd, SEND
		0x12, 0x34, 0x56, 0x02,		// qpn, ds 2
		0x00, 0x00, 0x00, 0x0a,		// CE=2 <<2 | SE <<1
		0x00, 0x00, 0x00, 0x00,
	};
	EXPECT_EQ(0, memcmp(q.b, want, 16));
	const u8 data[16] = {
		0x00, 0x00, 0x01, 0x00, 0x00, 0xab, 0xcd, 0x01,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	};
	EXPECT_EQ(0, memcmp(q.b + 16, data, 16));
	EXPECT_EQ(mlxl_wqebbs(2), 1u);
}

TEST(MlxlWqe, FenceAndImmediate)
{
	Wqe q;
	mlxl_swr w = base(MLXL_WR_SEND_IMM, kSge, 0);
	const u8 imm[4] = { 0xde, 0xad, 0xbe, 0xef };
	memcpy(&w.imm_be, imm, 4);
	w.flags = MLXL_SF_FENCE;
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 0), 1);
	EXPECT_EQ(q.b[3], 0x0b);
	EXPECT_EQ(q.b[11], 0x40);		// fence mode 2 in [7:5]
	EXPECT_EQ(0, memcmp(q.b + 12, imm, 4));
	w = base(MLXL_WR_SEND_INV, kSge, 0);
	w.inv_rkey = 0x01020304;
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 0), 1);
	EXPECT_EQ(q.b[3], 0x01);
	EXPECT_EQ(be32(q.b + 12), 0x01020304u);
}

TEST(MlxlWqe, RdmaAndAtomicSegments)
{
	Wqe q;
	mlxl_swr w = base(MLXL_WR_RDMA_WRITE_IMM, kSge, 2);
	w.raddr = 0x0102030405060708ull;
	w.rkey = 0xcafe;
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 7, 3, &w, 0), 4);
	EXPECT_EQ(q.b[3], 0x09);
	EXPECT_EQ(q.b[7], 4);
	const u8 raddr[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0xca, 0xfe, 0, 0, 0, 0 };
	EXPECT_EQ(0, memcmp(q.b + 16, raddr, 16));
	EXPECT_EQ(be32(q.b + 48), 0x20u);		// second SGE's byte_count
	w = base(MLXL_WR_RDMA_READ, kSge, 1);
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 7, 3, &w, 0), 3);
	EXPECT_EQ(q.b[3], 0x10);

	w = base(MLXL_WR_ATOMIC_CS, kSge, 1);
	w.raddr = 0x1000;
	w.rkey = 5;
	w.swap_add = 0xaaaabbbbccccddddull;
	w.compare = 0x1111222233334444ull;
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 7, 0, &w, 0), 4);
	EXPECT_EQ(q.b[3], 0x11);
	EXPECT_EQ(be64(q.b + 32), 0xaaaabbbbccccddddull);	// swap first
	EXPECT_EQ(be64(q.b + 40), 0x1111222233334444ull);	// then compare
	w.opcode = MLXL_WR_ATOMIC_FA;
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 7, 0, &w, 0), 4);
	EXPECT_EQ(q.b[3], 0x12);
	EXPECT_EQ(be64(q.b + 32), 0xaaaabbbbccccddddull);
	EXPECT_EQ(be64(q.b + 40), 0u);
}

TEST(MlxlWqe, UdDatagramSegment)
{
	Wqe q;
	mlxl_av av;
	memset(&av, 0, sizeof(av));
	for (int i = 0; i < 16; i++)
		av.rgid[i] = (u8)(0xf0 + i);
	const u8 mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	memcpy(av.rmac, mac, 6);
	av.sgid_index = 3;
	av.hop_limit = 64;
	av.tclass = 0x10;
	av.sl = 5;
	av.flow_label = 0x12345;
	mlxl_swr w = base(MLXL_WR_SEND, kSge, 1);
	w.av = &av;
	w.dqpn = 0x000001;
	w.qkey = 0x80010000;
	// ctrl 1 + datagram 3 + data 1 = 5 DS, 2 WQEBBs
	int ds = mlxl_wqe_build(q.b, MLXL_QPT_GSI, 0x55, 0, &w, 0);
	ASSERT_EQ(ds, 5);
	EXPECT_EQ(mlxl_wqebbs(5), 2u);
	const u8 *d = q.b + 16;
	EXPECT_EQ(be32(d + 0), 0x80010000u);		// qkey
	EXPECT_EQ(be32(d + 8), 0x80000001u);		// extended AV | dest QPN
	EXPECT_EQ(d[12], (u8)(5 << 1));			// sl in [3:1]
	EXPECT_EQ(0, memcmp(d + 20, mac, 6));
	EXPECT_EQ(d[26], 0x10);
	EXPECT_EQ(d[27], 64);
	EXPECT_EQ(be32(d + 28), 0x40000000u | 3u << 20 | 0x12345u);
	EXPECT_EQ(d[32], 0xf0);
	EXPECT_EQ(d[47], 0xff);
	EXPECT_EQ(be32(q.b + 64), 0x100u);		// data segment after it
	// UD takes no RDMA
	w.opcode = MLXL_WR_RDMA_WRITE;
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_UD, 0x55, 0, &w, 0), 0);
	w.opcode = MLXL_WR_SEND;
	w.av = nullptr;
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_UD, 0x55, 0, &w, 0), 0);
}

TEST(MlxlWqe, InlinePaddingAndDsCount)
{
	Wqe q;
	std::vector<u8> data(200);
	for (size_t i = 0; i < data.size(); i++)
		data[i] = (u8)i;
	// (length, ds) from: ctrl 1 + round_up(4 + len, 16) / 16
	const struct { u32 len; int ds; } rows[] = {
		{ 0, 2 }, { 1, 2 }, { 12, 2 }, { 13, 3 }, { 28, 3 }, { 29, 4 },
		{ 60, 5 }, { 61, 6 }, { 200, 14 },
	};
	for (const auto &r : rows) {
		mlxl_sge sg = { (u64)(unsigned long)data.data(), r.len, 0 };
		mlxl_swr w = base(MLXL_WR_SEND, &sg, 1);
		w.flags = MLXL_SF_INLINE;
		ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 256), r.ds) << r.len;
		EXPECT_EQ(be32(q.b + 16), 0x80000000u | r.len);
		EXPECT_EQ(0, memcmp(q.b + 20, data.data(), r.len));
		// padding is zero up to the DS boundary
		for (u32 k = 20 + r.len; k < 16u * r.ds; k++)
			ASSERT_EQ(q.b[k], 0) << r.len << " at " << k;
	}
	// two SGEs gathered into one inline segment
	mlxl_sge sg2[2] = { { (u64)(unsigned long)data.data(), 3, 0 },
			    { (u64)(unsigned long)(data.data() + 10), 2, 0 } };
	mlxl_swr w = base(MLXL_WR_SEND, sg2, 2);
	w.flags = MLXL_SF_INLINE;
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 64), 2);
	const u8 want[9] = { 0x80, 0, 0, 5, 0, 1, 2, 10, 11 };
	EXPECT_EQ(0, memcmp(q.b + 16, want, 9));
	// more than the QP's inline capacity
	mlxl_sge big = { (u64)(unsigned long)data.data(), 65, 0 };
	w = base(MLXL_WR_SEND, &big, 1);
	w.flags = MLXL_SF_INLINE;
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 64), 0);
}

TEST(MlxlWqe, UnsupportedOpcodes)
{
	Wqe q;
	mlxl_swr w = base(8 /* BIND_MW */, kSge, 0);
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 0), 0);
	w.opcode = 10;	/* LSO */
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_RC, 1, 0, &w, 0), 0);
	EXPECT_EQ(mlxl_wr_op(8), nullptr);
	ASSERT_NE(mlxl_wr_op(MLXL_WR_SEND), nullptr);
	EXPECT_EQ(mlxl_wr_op(MLXL_WR_SEND)->hw, 0x0a);
}

TEST(MlxlWqe, LocalInvAndRegMrUmr)
{
	Wqe q;
	mlxl_swr w = base(MLXL_WR_LOCAL_INV, nullptr, 0);
	w.inv_rkey = 0x00abcd07;
	// ctrl 1 + umr ctrl 3 + mkey 4 = 8 DS
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 9, 0, &w, 0), 8);
	EXPECT_EQ(q.b[3], 0x25);
	EXPECT_EQ(be32(q.b + 12), 0x00abcd07u);
	EXPECT_EQ(q.b[16], 1 << 5);			// check not free
	EXPECT_EQ(be64(q.b + 24), 1ull << 29);		// mask: free
	EXPECT_EQ(q.b[64], 1 << 6);			// mkey status free
	const u64 pages[3] = { 0x10000, 0x11000, 0x12000 };
	w = base(MLXL_WR_REG_MR, nullptr, 0);
	w.mkey = 0x00abcd08;
	w.perm = MLXL_PERM_LR | MLXL_PERM_LW | MLXL_PERM_RR;
	w.iova = 0x7000;
	w.length = 0x2800;
	w.page_shift = 12;
	w.pages = pages;
	w.npages = 3;
	// ctrl 1 + umr 3 + mkey 4 + pages 64 B (4) = 12 DS, 3 WQEBBs
	ASSERT_EQ(mlxl_wqe_build(q.b, MLXL_QPT_RC, 9, 0, &w, 0), 12);
	EXPECT_EQ(q.b[16], (1 << 5) | (1 << 7));	// check not free, inline
	EXPECT_EQ(q.b[20], 0);
	EXPECT_EQ(q.b[21], 4);				// 64 B in octowords
	const u8 *m = q.b + 64;
	EXPECT_EQ(m[2], (1 << 2 | 1 << 3 | 1 << 4) | 1);	// rights | MTT
	EXPECT_EQ(be32(m + 4), 0xffffff08u);
	EXPECT_EQ(be64(m + 16), 0x7000u);
	EXPECT_EQ(be64(m + 24), 0x2800u);
	EXPECT_EQ(be32(m + 52), 4u);
	EXPECT_EQ(m[59], 12);
	EXPECT_EQ(be64(q.b + 128), 0x10003ull);
	EXPECT_EQ(be64(q.b + 144), 0x12003ull);
	EXPECT_EQ(be64(q.b + 152), 0u);
	w.npages = MLXL_UMR_MAX_PAGES + 1;
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_RC, 9, 0, &w, 0), 0);
	w.npages = 1;
	EXPECT_LT(mlxl_wqe_build(q.b, MLXL_QPT_UD, 9, 0, &w, 0), 0);
}

TEST(MlxlWqe, SqWrapsAtRingEnd)
{
	// ring of 8 WQEBBs; a 3-WQEBB WQE at counter 14 is at 6, 7, 0
	std::vector<u8> ring(8 * 64, 0xee);
	u8 wqe[3 * 64];
	for (int i = 0; i < 3 * 64; i++)
		wqe[i] = (u8)(i / 64 + 1);
	mlxl_sq_copy(ring.data(), 3, 14, wqe, 3);
	EXPECT_EQ(ring[6 * 64], 1);
	EXPECT_EQ(ring[7 * 64 + 63], 2);
	EXPECT_EQ(ring[0], 3);
	EXPECT_EQ(ring[63], 3);
	EXPECT_EQ(ring[64], 0xee);
	EXPECT_EQ(ring[5 * 64 + 63], 0xee);
}

TEST(MlxlWqe, ReceiveWqeTerminator)
{
	u8 wqe[64];
	memset(wqe, 0xee, sizeof(wqe));
	mlxl_recv_wqe(wqe, 2, kSge, 1);
	EXPECT_EQ(be32(wqe + 0), 0x100u);
	EXPECT_EQ(be32(wqe + 4), 0xabcd01u);
	EXPECT_EQ(be64(wqe + 8), 0x1122334455667788ull);
	EXPECT_EQ(be32(wqe + 16), 0u);			// byte_count 0
	EXPECT_EQ(be32(wqe + 20), 0x100u);		// terminator lkey
	memset(wqe, 0xee, sizeof(wqe));
	mlxl_recv_wqe(wqe, 1, kSge, 2);			// full: no terminator
	EXPECT_EQ(be32(wqe + 16), 0x20u);
	EXPECT_EQ(wqe[32], 0xee);
}

// a CQE as hardware writes it (doc §5.4 offsets)
std::vector<u8> cqe(u8 op, u8 owner, u32 qpn, u16 counter)
{
	std::vector<u8> c(64, 0);
	c[0x38] = 0x0a;
	c[0x39] = (u8)(qpn >> 16);
	c[0x3a] = (u8)(qpn >> 8);
	c[0x3b] = (u8)qpn;
	c[0x3c] = (u8)(counter >> 8);
	c[0x3d] = (u8)counter;
	c[0x3f] = (u8)(op << 4 | owner);
	return c;
}

TEST(MlxlWqe, CqeOwnershipAtBoundaries)
{
	for (u32 log = 0; log <= 12; log += 3) {
		u32 n = 1u << log;
		auto init = cqe(15, 0, 0, 0);		// op_own 0xF0
		EXPECT_FALSE(mlxl_cqe_sw_owned(init.data(), 0, log));
		EXPECT_FALSE(mlxl_cqe_sw_owned(init.data(), n, log));
		// first pass: owner 0 is ours
		auto p0 = cqe(0, 0, 1, 0);
		EXPECT_TRUE(mlxl_cqe_sw_owned(p0.data(), 0, log));
		EXPECT_TRUE(mlxl_cqe_sw_owned(p0.data(), n - 1, log));
		// second pass (ci n .. 2n-1): an owner-0 entry is stale
		EXPECT_FALSE(mlxl_cqe_sw_owned(p0.data(), n, log));
		EXPECT_FALSE(mlxl_cqe_sw_owned(p0.data(), 2 * n - 1, log));
		auto p1 = cqe(2, 1, 1, 0);
		EXPECT_TRUE(mlxl_cqe_sw_owned(p1.data(), n, log));
		EXPECT_FALSE(mlxl_cqe_sw_owned(p1.data(), 2 * n, log));
		EXPECT_TRUE(mlxl_cqe_sw_owned(p0.data(), 2 * n, log));
	}
}

TEST(MlxlWqe, CqeFields)
{
	auto c = cqe(3, 0, 0x00abcd, 0x1234);
	c[0x18] = 0x20;	// GRH present ([29:28] != 0), src QP 0x000001
	c[0x1b] = 0x01;
	c[0x20] = 0xff; c[0x21] = 0x00; c[0x22] = 0x00; c[0x23] = 0x07;
	c[0x24] = 0xde; c[0x25] = 0xad; c[0x26] = 0xbe; c[0x27] = 0xef;
	c[0x2c] = 0; c[0x2d] = 0; c[0x2e] = 0x01; c[0x2f] = 0x28;
	mlxl_cqe p;
	mlxl_cqe_parse(c.data(), &p);
	EXPECT_EQ(p.opcode, 3);
	EXPECT_EQ(p.qpn, 0xabcdu);
	EXPECT_EQ(p.wqe_counter, 0x1234);
	EXPECT_EQ(p.srqn, 7u);
	EXPECT_EQ(p.src_qp, 1u);
	EXPECT_TRUE(p.grh);
	EXPECT_EQ(p.byte_cnt, 0x128u);
	EXPECT_EQ(p.inv_rkey, 0xdeadbeefu);
	EXPECT_EQ(0, memcmp(&p.imm_be, c.data() + 0x24, 4));
	mlxl_wc wc;
	mlxl_cqe_wc(&p, &wc);
	EXPECT_EQ(wc.status, (u32)MLXL_WS_SUCCESS);
	EXPECT_EQ(wc.opcode, (u32)MLXL_WC_RECV);
	EXPECT_EQ(wc.flags, (u32)(MLXL_WCF_IMM | MLXL_WCF_GRH));
	EXPECT_EQ(wc.byte_len, 0x128u);

	const struct { u8 op; u32 wc; u32 flags; } resp[] = {
		{ 1, MLXL_WC_RECV_RDMA_WITH_IMM, MLXL_WCF_IMM },
		{ 2, MLXL_WC_RECV, 0 },
		{ 4, MLXL_WC_RECV, MLXL_WCF_INV },
	};
	for (const auto &r : resp) {
		auto x = cqe(r.op, 0, 1, 0);
		mlxl_cqe_parse(x.data(), &p);
		mlxl_cqe_wc(&p, &wc);
		EXPECT_EQ(wc.opcode, r.wc);
		EXPECT_EQ(wc.flags, r.flags);
	}
	// requester: the WQE opcode byte at 0x38 names the completion
	const struct { u8 wqe; u32 wc; } req[] = {
		{ 0x0a, MLXL_WC_SEND }, { 0x08, MLXL_WC_RDMA_WRITE },
		{ 0x10, MLXL_WC_RDMA_READ }, { 0x11, MLXL_WC_COMP_SWAP },
		{ 0x12, MLXL_WC_FETCH_ADD },
	};
	for (const auto &r : req) {
		auto x = cqe(0, 0, 1, 0);
		x[0x38] = r.wqe;
		mlxl_cqe_parse(x.data(), &p);
		mlxl_cqe_wc(&p, &wc);
		EXPECT_EQ(wc.opcode, r.wc);
	}
}

TEST(MlxlWqe, EverySyndrome)
{
	// doc §5.4's syndrome list, and ib_wc_status numbers (ibv_wc_status)
	const struct { u8 synd; u32 status; } rows[] = {
		{ 0x01, 1 },	// local length -> LOC_LEN_ERR
		{ 0x02, 2 },	// local QP op -> LOC_QP_OP_ERR
		{ 0x04, 4 },	// local protection -> LOC_PROT_ERR
		{ 0x05, 5 },	// WR flushed -> WR_FLUSH_ERR
		{ 0x06, 6 },	// MW bind -> MW_BIND_ERR
		{ 0x10, 7 },	// bad response -> BAD_RESP_ERR
		{ 0x11, 8 },	// local access -> LOC_ACCESS_ERR
		{ 0x12, 9 },	// remote invalid request -> REM_INV_REQ_ERR
		{ 0x13, 10 },	// remote access -> REM_ACCESS_ERR
		{ 0x14, 11 },	// remote operation -> REM_OP_ERR
		{ 0x15, 12 },	// transport retry exceeded -> RETRY_EXC_ERR
		{ 0x16, 13 },	// RNR retry exceeded -> RNR_RETRY_EXC_ERR
		{ 0x22, 16 },	// remote aborted -> REM_ABORT_ERR
	};
	for (const auto &r : rows)
		EXPECT_EQ(mlxl_syndrome_status(r.synd), r.status) << (int)r.synd;
	for (u32 s = 0; s < 256; s++) {
		bool listed = false;
		for (const auto &r : rows)
			listed |= r.synd == s;
		if (!listed) {
			EXPECT_EQ(mlxl_syndrome_status((u8)s), 21u) << s;
		}
	}
	// an error CQE: syndrome at 0x37, vendor syndrome at 0x36
	auto c = cqe(13, 0, 5, 9);
	c[0x36] = 0x77;
	c[0x37] = 0x15;
	mlxl_cqe p;
	mlxl_wc wc;
	mlxl_cqe_parse(c.data(), &p);
	mlxl_cqe_wc(&p, &wc);
	EXPECT_EQ(wc.status, 12u);
	EXPECT_EQ(wc.vendor_err, 0x77u);
	c = cqe(14, 0, 5, 9);
	c[0x37] = 0x05;
	mlxl_cqe_parse(c.data(), &p);
	mlxl_cqe_wc(&p, &wc);
	EXPECT_EQ(wc.status, 5u);
	EXPECT_EQ(wc.opcode, (u32)MLXL_WC_RECV);
}

TEST(MlxlWqe, ArmWord)
{
	EXPECT_EQ(mlxl_arm_word(0, false, 0), 0u);
	EXPECT_EQ(mlxl_arm_word(1, false, 5), 0x10000005u);
	EXPECT_EQ(mlxl_arm_word(3, true, 0x1ffffff), 0x31ffffffu);
	EXPECT_EQ(mlxl_arm_word(6, false, 0), 0x20000000u);	// sn & 3
}

} // namespace
