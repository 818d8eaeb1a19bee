// SPDX-License-Identifier: GPL-2.0
//
// datapath: the soft-RoCE data path through libibverbs (librxe), on one
// device: two QPs connected to each other through the device's RoCEv2 GID
// (IPv4-mapped, and IPv6 where the address family matters), byte-exact
// data checks, exact completion statuses, opcodes, lengths and flags.
//
//   VERBS_DEV=rxe0 DP_WAIT=20 DP_QUIET=2 datapath [gtest options]
//
// DP_WAIT: seconds one completion/event may take before the case fails
// (TCG is slow); DP_QUIET: seconds a "nothing arrives" check waits.
// Needs rxe0 on an up netdev with an IPv4 address and a global IPv6
// address (the datapath-selftest scenario: veth0, 10.0.0.1/24, fd00::1/64).
// The cases:
// Documentation/dev-tools/datapath-selftest.rst; upstream 6.1 exclusions:
// verbs-differences.rst ("Data path").
#include "datapath.h"

#include <arpa/inet.h>

#include <gtest/gtest.h>

using namespace dp;

namespace {

double quiet_s()
{
	return atof(env("DP_QUIET", "2").c_str());
}

constexpr unsigned int ALL_ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

// Completion @i of @w has @status, @wr_id and, for a successful one,
// @opcode (-1: not checked).  Of an error completion only wr_id, status,
// qp_num and vendor_err are defined (ibv_poll_cq(3)).
::testing::AssertionResult wc_is(const std::vector<ibv_wc> &w, size_t i, ibv_wc_status status,
				 int opcode, uint64_t wr_id)
{
	if (w.size() <= i)
		return ::testing::AssertionFailure()
		       << "timeout: " << w.size() << " completion(s) in " << wait_s()
		       << " s, wanted #" << i << " (" << wc_status(status) << ")";
	const ibv_wc &c = w[i];
	if (c.status != status)
		return ::testing::AssertionFailure()
		       << "wc #" << i << " status " << wc_status(c.status) << " (" << c.status
		       << "), want " << wc_status(status) << " (" << status << ")";
	if (c.wr_id != wr_id)
		return ::testing::AssertionFailure()
		       << "wc #" << i << " wr_id " << c.wr_id << ", want " << wr_id;
	if (status == IBV_WC_SUCCESS && opcode >= 0 && (int)c.opcode != opcode)
		return ::testing::AssertionFailure()
		       << "wc #" << i << " opcode " << c.opcode << ", want " << opcode;
	return ::testing::AssertionSuccess();
}

class Dp : public DevTest {
protected:
	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(open_active());
		mtu_enum = pa.active_mtu;
		mtu = 128u << mtu_enum;
		gi4 = roce_v2_gid(ctx, &gid4, AF_INET);
		ASSERT_GE(gi4, 0) << "no IPv4 RoCEv2 GID on port 1";
		gi6 = roce_v2_gid(ctx, &gid6, AF_INET6);
		ASSERT_GE(gi6, 0) << "no IPv6 RoCEv2 GID on port 1";
	}
	void TearDown() override
	{
		// windows, then QPs, then the MRs (the other order is
		// Dp.MwType2DeallocAfterQpDestroy)
		for (ibv_mw *m : mws)
			EXPECT_EQ(ibv_dealloc_mw(m), 0);
		close_all();
	}

	// Connects p (a -> b) with @o, over the IPv4 GID unless @af6.
	void connect(PairOpts o = PairOpts{}, bool af6 = false)
	{
		o.a.mtu = o.b.mtu = mtu_enum;
		o.a.access |= IBV_ACCESS_REMOTE_ATOMIC;
		o.b.access |= IBV_ACCESS_REMOTE_ATOMIC;
		o.a.rd_atomic = o.b.rd_atomic = 4;
		std::string err = af6 ? pair_up(p, ctx, pd, gid6, gi6, o) :
					pair_up(p, ctx, pd, gid4, gi4, o);
		ASSERT_EQ(err, "");
	}
	// A registered buffer, freed at TearDown.
	Buf &buf(size_t n, unsigned int access = ALL_ACCESS) { return new_buf(n, access); }
	ibv_mw *mw(ibv_mw_type t)
	{
		ibv_mw *m = ibv_alloc_mw(pd, t);
		EXPECT_NE(m, nullptr) << "alloc_mw: " << strerror(errno);
		if (m)
			mws.push_back(m);
		return m;
	}
	// Binds type-2 @m to @b[off, off+len) through QP b with a new key;
	// returns the rkey (0 on failure, with a test failure recorded).
	uint32_t bind2(ibv_mw *m, Buf &b, size_t off, size_t len, unsigned int access)
	{
		ibv_send_wr wr{}, *bad = nullptr;
		wr.wr_id = 0xb1d;
		wr.opcode = IBV_WR_BIND_MW;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.bind_mw.mw = m;
		wr.bind_mw.rkey = ibv_inc_rkey(m->rkey);
		wr.bind_mw.bind_info.mr = b.mr;
		wr.bind_mw.bind_info.addr = b.addr(off);
		wr.bind_mw.bind_info.length = len;
		wr.bind_mw.bind_info.mw_access_flags = access;
		int r = ibv_post_send(p.b, &wr, &bad);
		EXPECT_EQ(r, 0) << "post BIND_MW: " << strerror(r);
		auto w = poll_n(p.cq_b, 1);
		EXPECT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_BIND_MW, 0xb1d));
		return r || !wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_BIND_MW, 0xb1d) ? 0 :
										   wr.bind_mw.rkey;
	}
	// An RDMA WRITE of @n pattern bytes from a to @raddr/@rkey, expecting
	// @st; returns the pattern.
	std::vector<uint8_t> write_a(uint64_t raddr, uint32_t rkey, size_t n, ibv_wc_status st,
				     uint64_t wr_id = 1)
	{
		Buf &s = buf(n);
		fill(s.p, n, (unsigned int)wr_id + 77);
		EXPECT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, wr_id, { s.sge(0, (uint32_t)n) }, raddr,
				    rkey),
			  0);
		auto w = poll_n(p.cq_a, 1);
		EXPECT_TRUE(wc_is(w, 0, st, IBV_WC_RDMA_WRITE, wr_id));
		return std::vector<uint8_t>(s.p, s.p + n);
	}
	// No completion on @cq for DP_QUIET seconds.
	void expect_quiet(ibv_cq *cq, const char *what)
	{
		auto w = poll_n(cq, 1, quiet_s());
		EXPECT_EQ(w.size(), 0u) << what << ": unexpected completion, status "
					<< wc_status(w.empty() ? 0 : w[0].status) << " wr_id "
					<< (w.empty() ? 0 : w[0].wr_id);
	}

	ibv_gid gid4{}, gid6{};
	int gi4 = -1, gi6 = -1;
	ibv_mtu mtu_enum = IBV_MTU_1024;
	uint32_t mtu = 1024;
	std::vector<ibv_mw *> mws;
};

// ---- every size for SEND, RDMA WRITE, RDMA READ (RC)

enum class Op { Send, Write, Read };
enum class Size { Zero, One, MtuMinus1, Mtu, MtuPlus1, Multi, MiB };
struct XferCase {
	Op op;
	Size size;
	bool v6;
};

void PrintTo(const XferCase &c, std::ostream *os)
{
	*os << "op " << (int)c.op << " size " << (int)c.size << (c.v6 ? " IPv6" : " IPv4");
}

size_t bytes_of(Size s, size_t mtu)
{
	switch (s) {
	case Size::Zero: return 0;
	case Size::One: return 1;
	case Size::MtuMinus1: return mtu - 1;
	case Size::Mtu: return mtu;
	case Size::MtuPlus1: return mtu + 1;
	case Size::Multi: return 3 * mtu + 7;
	case Size::MiB: return 1 << 20;
	}
	return 0;
}

class Xfer : public Dp, public ::testing::WithParamInterface<XferCase> {};

TEST_P(Xfer, ByteExact)
{
	const XferCase c = GetParam();
	const size_t n = bytes_of(c.size, mtu);
	const size_t guard = 64;
	ASSERT_NO_FATAL_FAILURE(connect(PairOpts{}, c.v6));
	Buf &src = buf(n + guard), &dst = buf(n + guard);
	fill(src.p, n, (unsigned int)n);
	std::vector<ibv_sge> none;
	auto sg = [&](Buf &b) { return n ? std::vector<ibv_sge>{ b.sge(0, (uint32_t)n) } : none; };

	switch (c.op) {
	case Op::Send: {
		ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, (uint32_t)(n + guard)) }), 0);
		ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, sg(src)), 0);
		auto wa = poll_n(p.cq_a, 1);
		EXPECT_TRUE(wc_is(wa, 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
		auto wb = poll_n(p.cq_b, 1);
		ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
		EXPECT_EQ(wb[0].byte_len, n);
		EXPECT_EQ(wb[0].qp_num, p.b->qp_num);
		EXPECT_EQ(wb[0].wc_flags & (IBV_WC_WITH_IMM | IBV_WC_WITH_INV), 0u);
		break;
	}
	case Op::Write: {
		ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, 1, sg(src), dst.addr(), dst.mr->rkey), 0);
		auto wa = poll_n(p.cq_a, 1);
		ASSERT_TRUE(wc_is(wa, 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 1));
		EXPECT_EQ(wa[0].qp_num, p.a->qp_num);
		EXPECT_EQ(poll_n(p.cq_b, 1, 0).size(), 0u) << "a WRITE completed at the responder";
		break;
	}
	case Op::Read: {
		// a reads b's memory (src) into its own (dst)
		ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_READ, 1, sg(dst), src.addr(), src.mr->rkey), 0);
		auto wa = poll_n(p.cq_a, 1);
		ASSERT_TRUE(wc_is(wa, 0, IBV_WC_SUCCESS, IBV_WC_RDMA_READ, 1));
		EXPECT_EQ(poll_n(p.cq_b, 1, 0).size(), 0u) << "a READ completed at the responder";
		break;
	}
	}
	EXPECT_EQ(diff(dst.p, src.p, n), "");
	EXPECT_EQ(untouched(dst.p + n, guard), "") << "beyond the message";
}

std::vector<XferCase> xfer_cases()
{
	std::vector<XferCase> v;
	for (Op op : { Op::Send, Op::Write, Op::Read }) {
		for (Size s : { Size::Zero, Size::One, Size::MtuMinus1, Size::Mtu, Size::MtuPlus1,
				Size::Multi, Size::MiB })
			v.push_back({ op, s, false });
		for (Size s : { Size::One, Size::Multi })
			v.push_back({ op, s, true });
	}
	return v;
}

std::string xfer_name(const ::testing::TestParamInfo<XferCase> &i)
{
	static const char *ops[] = { "Send", "Write", "Read" };
	static const char *sizes[] = { "0", "1", "MtuMinus1", "Mtu", "MtuPlus1", "3MtuPlus7",
				       "1MiB" };
	return std::string(ops[(int)i.param.op]) + "_" + sizes[(int)i.param.size] +
	       (i.param.v6 ? "_v6" : "_v4");
}

INSTANTIATE_TEST_SUITE_P(Sizes, Xfer, ::testing::ValuesIn(xfer_cases()), xfer_name);

// ---- immediate data

TEST_F(Dp, SendWithImm)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &src = buf(100), &dst = buf(200);
	fill(src.p, 100, 5);
	ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, 200) }), 0);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND_WITH_IMM, 1, { src.sge(0, 100) }, htonl(0x12345678)), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	auto wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
	EXPECT_EQ(wb[0].byte_len, 100u);
	EXPECT_TRUE(wb[0].wc_flags & IBV_WC_WITH_IMM);
	EXPECT_EQ(ntohl(wb[0].imm_data), 0x12345678u);
	EXPECT_EQ(diff(dst.p, src.p, 100), "");
	EXPECT_EQ(untouched(dst.p + 100, 100), "");
}

TEST_F(Dp, WriteWithImm)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	uint32_t imm = 0xa1b2c3d4;
	for (size_t n : { (size_t)0, (size_t)(3 * mtu + 7) }) {
		SCOPED_TRACE("size " + std::to_string(n));
		Buf &src = buf(n + 16), &dst = buf(n + 16);
		fill(src.p, n, 9);
		// the receive WQE is consumed but gets no data: no SGE
		ASSERT_EQ(post_recv(p.b, 7 + n, {}), 0);
		std::vector<ibv_sge> s;
		if (n)
			s.push_back(src.sge(0, (uint32_t)n));
		ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 1 + n, s, dst.addr(),
				    dst.mr->rkey, htonl(imm)),
			  0);
		EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 1 + n));
		auto wb = poll_n(p.cq_b, 1);
		ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, 7 + n));
		EXPECT_TRUE(wb[0].wc_flags & IBV_WC_WITH_IMM);
		EXPECT_EQ(ntohl(wb[0].imm_data), imm);
		EXPECT_EQ(wb[0].byte_len, n);
		EXPECT_EQ(diff(dst.p, src.p, n), "");
		EXPECT_EQ(untouched(dst.p + n, 16), "");
		imm++;
	}
}

// ---- atomics: values as the application sees them (host order)

class Atomic : public Dp {
protected:
	void run(ibv_wr_opcode op, uint64_t cmp_add, uint64_t swap, uint64_t want_remote)
	{
		ASSERT_NO_FATAL_FAILURE(connect());
		Buf &rem = buf(64), &loc = buf(64);
		const uint64_t orig = 0x0102030405060708ull;
		memcpy(rem.p + 8, &orig, 8);
		ASSERT_EQ(post_atomic(p.a, op, 3, loc.sge(16, 8), rem.addr(8), rem.mr->rkey, cmp_add,
				      swap),
			  0);
		auto w = poll_n(p.cq_a, 1);
		ASSERT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS,
				  op == IBV_WR_ATOMIC_CMP_AND_SWP ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD,
				  3));
		uint64_t got_orig, got_rem;
		memcpy(&got_orig, loc.p + 16, 8);
		memcpy(&got_rem, rem.p + 8, 8);
		EXPECT_EQ(got_orig, orig) << std::hex << "returned original 0x" << got_orig;
		EXPECT_EQ(got_rem, want_remote) << std::hex << "remote now 0x" << got_rem;
		EXPECT_EQ(untouched(loc.p, 16), "");
		EXPECT_EQ(untouched(loc.p + 24, 40), "");
		EXPECT_EQ(untouched(rem.p, 8), "");
		EXPECT_EQ(untouched(rem.p + 16, 48), "");
	}
};

TEST_F(Atomic, CmpSwapHit)
{
	run(IBV_WR_ATOMIC_CMP_AND_SWP, 0x0102030405060708ull, 0x1122334455667788ull,
	    0x1122334455667788ull);
}

TEST_F(Atomic, CmpSwapMiss)
{
	// the byte-swapped compare value must not match
	run(IBV_WR_ATOMIC_CMP_AND_SWP, 0x0807060504030201ull, 0x1122334455667788ull,
	    0x0102030405060708ull);
}

TEST_F(Atomic, FetchAdd)
{
	// carries across bytes: 0x...0708 + 0x...00f9 = 0x...0801
	run(IBV_WR_ATOMIC_FETCH_AND_ADD, 0x10000000000000f9ull, 0,
	    0x0102030405060708ull + 0x10000000000000f9ull);
}

// ---- RDMA ATOMIC WRITE (IBTA 1.5): ibv_wr_atomic_write on an ibv_qp_ex

class AtomicWrite : public Dp {
protected:
	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(Dp::SetUp());
		PairOpts o;
		o.send_ops = IBV_QP_EX_WITH_ATOMIC_WRITE | IBV_QP_EX_WITH_RDMA_WRITE;
		ASSERT_NO_FATAL_FAILURE(connect(o));
		qx = ibv_qp_to_qp_ex(p.a);
		ASSERT_NE(qx, nullptr);
	}
	// ATOMIC WRITE of @v to @raddr/@rkey; the completion's status
	void post(uint64_t wr_id, uint32_t rkey, uint64_t raddr, const uint8_t v[8])
	{
		ibv_wr_start(qx);
		qx->wr_id = wr_id;
		qx->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_atomic_write(qx, rkey, raddr, v);
		ASSERT_EQ(ibv_wr_complete(qx), 0);
	}
	ibv_qp_ex *qx = nullptr;
};

TEST_F(AtomicWrite, StoresTheEightBytesAsGiven)
{
	Buf &rem = buf(64);
	const uint8_t v[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	ASSERT_NO_FATAL_FAILURE(post(41, rem.mr->rkey, rem.addr(16), v));
	auto w = poll_n(p.cq_a, 1);
	ASSERT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_ATOMIC_WRITE, 41));
	EXPECT_EQ(w[0].byte_len, 8u);
	EXPECT_EQ(diff(rem.p + 16, v, 8), "");
	EXPECT_EQ(untouched(rem.p, 16), "");
	EXPECT_EQ(untouched(rem.p + 24, 40), "");
	// no receive WQE, no completion on the responder
	expect_quiet(p.cq_b, "atomic write at the responder");
}

TEST_F(AtomicWrite, OrderedAfterEarlierWrites)
{
	Buf &rem = buf(4096), &src = buf(4096);
	fill(src.p, 4096, 9);
	const uint8_t flag[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	ibv_wr_start(qx);
	qx->wr_id = 50;
	qx->wr_flags = 0;
	ibv_wr_rdma_write(qx, rem.mr->rkey, rem.addr(0));
	ibv_wr_set_sge(qx, src.mr->lkey, src.addr(0), 4088);
	qx->wr_id = 51;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(qx, rem.mr->rkey, rem.addr(4088), flag);
	ASSERT_EQ(ibv_wr_complete(qx), 0);
	auto w = poll_n(p.cq_a, 1);
	ASSERT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_ATOMIC_WRITE, 51));
	EXPECT_EQ(diff(rem.p, src.p, 4088), "");
	EXPECT_EQ(diff(rem.p + 4088, flag, 8), "");
}

// refused by the responder: the error completion, and nothing stored
struct AtomicWriteRefusal {
	const char *name;
	unsigned int access;	// of the target MR
	size_t off;		// into it
	ibv_wc_status status;
};

class AtomicWriteRefused : public AtomicWrite,
			   public ::testing::WithParamInterface<AtomicWriteRefusal> {};

TEST_P(AtomicWriteRefused, NothingStored)
{
	const AtomicWriteRefusal &c = GetParam();
	Buf &rem = buf(64, c.access);
	const uint8_t v[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	ASSERT_NO_FATAL_FAILURE(post(42, rem.mr->rkey, rem.addr(c.off), v));
	auto w = poll_n(p.cq_a, 1);
	ASSERT_TRUE(wc_is(w, 0, c.status, -1, 42));
	EXPECT_EQ(untouched(rem.p, 64), "");
}

INSTANTIATE_TEST_SUITE_P(
	Cases, AtomicWriteRefused,
	::testing::Values(AtomicWriteRefusal{ "misaligned", ALL_ACCESS, 4, IBV_WC_REM_INV_REQ_ERR },
			  AtomicWriteRefusal{ "no_remote_write",
					      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ, 8,
					      IBV_WC_REM_ACCESS_ERR },
			  AtomicWriteRefusal{ "beyond_the_mr", ALL_ACCESS, 4096,
					      IBV_WC_REM_ACCESS_ERR }),
	[](const ::testing::TestParamInfo<AtomicWriteRefusal> &i) {
		return std::string(i.param.name);
	});

// ---- memory windows, invalidation

TEST_F(Dp, MwType1BindWriteRead)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(16384, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w1 = mw(IBV_MW_TYPE_1);
	ASSERT_NE(w1, nullptr);
	ibv_mw_bind mb{};
	mb.wr_id = 0xb1;
	mb.send_flags = IBV_SEND_SIGNALED;
	mb.bind_info.mr = m.mr;
	mb.bind_info.addr = m.addr(4096);
	mb.bind_info.length = 8192;
	mb.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	ASSERT_EQ(ibv_bind_mw(p.b, w1, &mb), 0) << strerror(errno);
	ASSERT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_SUCCESS, IBV_WC_BIND_MW, 0xb1));
	ASSERT_NE(w1->rkey, m.mr->rkey);
	// write 3000 bytes into the window, read them back through it
	auto data = write_a(m.addr(4096 + 100), w1->rkey, 3000, IBV_WC_SUCCESS, 2);
	EXPECT_EQ(diff(m.p + 4096 + 100, data.data(), 3000), "");
	EXPECT_EQ(untouched(m.p + 4096, 100), "");
	Buf &back = buf(3000);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_READ, 3, { back.sge(0, 3000) }, m.addr(4096 + 100),
			    w1->rkey),
		  0);
	ASSERT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_READ, 3));
	EXPECT_EQ(diff(back.p, data.data(), 3000), "");
}

// The window's bounds hold, not just the MR's: a WRITE starting 8 bytes
// before the window fails and writes nothing.
TEST_F(Dp, MwType1WindowBounds)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(16384, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w1 = mw(IBV_MW_TYPE_1);
	ASSERT_NE(w1, nullptr);
	ibv_mw_bind mb{};
	mb.wr_id = 0xb1;
	mb.send_flags = IBV_SEND_SIGNALED;
	mb.bind_info.mr = m.mr;
	mb.bind_info.addr = m.addr(4096);
	mb.bind_info.length = 8192;
	mb.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	ASSERT_EQ(ibv_bind_mw(p.b, w1, &mb), 0) << strerror(errno);
	ASSERT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_SUCCESS, IBV_WC_BIND_MW, 0xb1));
	write_a(m.addr(4096 - 8), w1->rkey, 16, IBV_WC_REM_ACCESS_ERR, 4);
	EXPECT_EQ(untouched(m.p, 16384), "");
}

TEST_F(Dp, MwType2BindWriteRead)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(16384, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w2 = mw(IBV_MW_TYPE_2);
	ASSERT_NE(w2, nullptr);
	uint32_t rkey = bind2(w2, m, 4096, 8192, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(rkey, 0u);
	auto data = write_a(m.addr(4096 + 8192 - 2000), rkey, 2000, IBV_WC_SUCCESS, 2);
	EXPECT_EQ(diff(m.p + 4096 + 8192 - 2000, data.data(), 2000), "");
	EXPECT_EQ(untouched(m.p + 4096 + 8192, 4096), "");
	Buf &back = buf(2000);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_READ, 3, { back.sge(0, 2000) },
			    m.addr(4096 + 8192 - 2000), rkey),
		  0);
	ASSERT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_READ, 3));
	EXPECT_EQ(diff(back.p, data.data(), 2000), "");
}

// A WRITE one byte past the window's end fails and writes nothing.
TEST_F(Dp, MwType2WindowBounds)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(16384, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w2 = mw(IBV_MW_TYPE_2);
	ASSERT_NE(w2, nullptr);
	uint32_t rkey = bind2(w2, m, 4096, 8192, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(rkey, 0u);
	write_a(m.addr(4096 + 8192 - 7), rkey, 8, IBV_WC_REM_ACCESS_ERR, 4);
	EXPECT_EQ(untouched(m.p, 16384), "");
}

// A type-2 window bound through a QP outlives the QP: destroying the QP
// first, then the window, is legal and must leave nothing behind.
TEST_F(Dp, MwType2DeallocAfterQpDestroy)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(8192, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w2 = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	ASSERT_NE(w2, nullptr);
	uint32_t rkey = bind2(w2, m, 0, 4096, IBV_ACCESS_REMOTE_WRITE);
	EXPECT_NE(rkey, 0u);
	p.reset();
	EXPECT_EQ(ibv_dealloc_mw(w2), 0);
	EXPECT_EQ(ibv_dereg_mr(m.mr), 0) << "the MR is still held by the window";
	m.mr = nullptr;
}

TEST_F(Dp, SendWithInvalidateMw)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(8192, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w2 = mw(IBV_MW_TYPE_2);
	ASSERT_NE(w2, nullptr);
	uint32_t rkey = bind2(w2, m, 0, 4096, IBV_ACCESS_REMOTE_WRITE);
	ASSERT_NE(rkey, 0u);
	write_a(m.addr(0), rkey, 64, IBV_WC_SUCCESS, 2);

	Buf &src = buf(32), &dst = buf(64);
	fill(src.p, 32, 3);
	ASSERT_EQ(post_recv(p.b, 8, { dst.sge(0, 64) }), 0);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND_WITH_INV, 3, { src.sge(0, 32) }, rkey), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 3));
	auto wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 8));
	EXPECT_TRUE(wb[0].wc_flags & IBV_WC_WITH_INV) << "wc_flags " << wb[0].wc_flags;
	EXPECT_EQ(wb[0].invalidated_rkey, rkey);
	EXPECT_EQ(wb[0].byte_len, 32u);
	EXPECT_EQ(diff(dst.p, src.p, 32), "");
	// the key is dead
	write_a(m.addr(0), rkey, 64, IBV_WC_REM_ACCESS_ERR, 4);
}

TEST_F(Dp, LocalInvalidateMw)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &m = buf(8192, ALL_ACCESS | IBV_ACCESS_MW_BIND);
	ibv_mw *w2 = mw(IBV_MW_TYPE_2);
	ASSERT_NE(w2, nullptr);
	uint32_t rkey = bind2(w2, m, 0, 4096, IBV_ACCESS_REMOTE_WRITE);
	ASSERT_NE(rkey, 0u);
	write_a(m.addr(0), rkey, 64, IBV_WC_SUCCESS, 2);

	std::vector<ibv_sge> none;
	ibv_send_wr wr = wr_of(IBV_WR_LOCAL_INV, 0x11, none);
	wr.invalidate_rkey = rkey;
	ASSERT_EQ(post(p.b, wr), 0);
	ASSERT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_SUCCESS, IBV_WC_LOCAL_INV, 0x11));
	write_a(m.addr(0), rkey, 64, IBV_WC_REM_ACCESS_ERR, 4);
}

// ---- SGE lists, inline

// The image @b should have: GUARD, with @data's bytes scattered over
// @segs (offset, length) in order.
std::vector<uint8_t> scattered(size_t len, const std::vector<std::pair<size_t, size_t>> &segs,
			       const std::vector<uint8_t> &data)
{
	std::vector<uint8_t> img(len, GUARD);
	size_t k = 0;
	for (auto [off, n] : segs)
		for (size_t i = 0; i < n && k < data.size(); i++)
			img[off + i] = data[k++];
	return img;
}

TEST_F(Dp, SgeLists)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	const std::vector<std::pair<size_t, size_t>> gather = { { 1, 7 }, { 1001, 1500 },
								 { 4099, 333 } };
	const std::vector<std::pair<size_t, size_t>> scatter = { { 3, 5 }, { 503, 1000 },
								  { 2001, 17 }, { 3005, 2000 } };
	Buf &src = buf(8192);
	fill(src.p, 8192, 11);
	std::vector<ibv_sge> gs;
	std::vector<uint8_t> msg;
	for (auto [off, n] : gather) {
		gs.push_back(src.sge(off, (uint32_t)n));
		msg.insert(msg.end(), src.p + off, src.p + off + n);
	}
	auto sgl = [&](Buf &b) {
		std::vector<ibv_sge> v;
		for (auto [off, n] : scatter)
			v.push_back(b.sge(off, (uint32_t)n));
		return v;
	};

	// SEND: 3 SGEs -> 4 SGEs
	Buf &d1 = buf(8192);
	ASSERT_EQ(post_recv(p.b, 7, sgl(d1)), 0);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, gs), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	auto wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
	EXPECT_EQ(wb[0].byte_len, msg.size());
	EXPECT_EQ(diff(d1.p, scattered(8192, scatter, msg).data(), 8192), "") << "SEND";

	// WRITE: 3 SGEs gathered to one remote range at an odd address
	Buf &d2 = buf(8192);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, 2, gs, d2.addr(7), d2.mr->rkey), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 2));
	EXPECT_EQ(diff(d2.p, scattered(8192, { { 7, msg.size() } }, msg).data(), 8192), "")
		<< "WRITE";

	// READ: one remote range at an odd address scattered to 4 SGEs
	Buf &d3 = buf(8192);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_READ, 3, sgl(d3), d2.addr(7), d2.mr->rkey), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_READ, 3));
	// 3522 bytes of scatter capacity, the read is of all of it
	std::vector<uint8_t> rd(d2.p + 7, d2.p + 7 + 3022);
	EXPECT_EQ(diff(d3.p, scattered(8192, scatter, rd).data(), 8192), "") << "READ";
}

TEST_F(Dp, InlineSendAndWrite)
{
	PairOpts o;
	o.inline_data = 64;
	ASSERT_NO_FATAL_FAILURE(connect(o));
	ibv_qp_attr qa{};
	ibv_qp_init_attr ia{};
	ASSERT_EQ(ibv_query_qp(p.a, &qa, IBV_QP_CAP, &ia), 0);
	const uint32_t max = qa.cap.max_inline_data;
	ASSERT_GE(max, 64u);

	// unregistered memory, lkey 0; overwritten right after post_send
	std::vector<uint8_t> msg(max), want(max);
	fill(msg.data(), max, 21);
	want = msg;
	ibv_sge s1{ (uintptr_t)msg.data(), 10, 0 }, s2{ (uintptr_t)(msg.data() + 10), max - 10, 0 };
	Buf &dst = buf(max + 64);
	ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, max + 64) }), 0);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, { s1, s2 }, 0, IBV_SEND_INLINE), 0);
	memset(msg.data(), 0, max);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	auto wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
	EXPECT_EQ(wb[0].byte_len, max);
	EXPECT_EQ(diff(dst.p, want.data(), max), "");
	EXPECT_EQ(untouched(dst.p + max, 64), "");

	// inline RDMA WRITE
	msg = want;
	Buf &d2 = buf(max + 64);
	ibv_sge s3{ (uintptr_t)msg.data(), max, 0 };
	std::vector<ibv_sge> sl{ s3 };
	ibv_send_wr wr = wr_of(IBV_WR_RDMA_WRITE, 2, sl);
	wr.send_flags |= IBV_SEND_INLINE;
	wr.wr.rdma.remote_addr = d2.addr(1);
	wr.wr.rdma.rkey = d2.mr->rkey;
	ASSERT_EQ(post(p.a, wr), 0);
	memset(msg.data(), 0, max);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 2));
	EXPECT_EQ(diff(d2.p + 1, want.data(), max), "");
	EXPECT_EQ(untouched(d2.p + 1 + max, 63), "");

	// one byte more than max_inline_data is refused at post time
	std::vector<uint8_t> big(max + 1);
	ibv_sge s4{ (uintptr_t)big.data(), max + 1, 0 };
	std::vector<ibv_sge> bl{ s4 };
	ibv_send_wr w2 = wr_of(IBV_WR_SEND, 3, bl);
	w2.send_flags |= IBV_SEND_INLINE;
	EXPECT_NE(post(p.a, w2), 0);
}

// ---- solicited events

TEST_F(Dp, SolicitedEvent)
{
	ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	ASSERT_NE(ch, nullptr);
	PairOpts o;
	o.ch_b = ch;
	connect(o);
	if (HasFatalFailure()) {
		p.reset();
		ibv_destroy_comp_channel(ch);
		return;
	}
	Buf &src = buf(64), &dst = buf(256);
	fill(src.p, 64, 1);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(post_recv(p.b, 10 + i, { dst.sge(128 * i, 128) }), 0);
	ASSERT_EQ(ibv_req_notify_cq(p.cq_b, 1), 0);
	int fl = fcntl(ch->fd, F_GETFL);
	fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK);

	// unsolicited: a completion, no event
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, { src.sge(0, 64) }), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	pollfd pf{ ch->fd, POLLIN, 0 };
	EXPECT_EQ(poll(&pf, 1, (int)(quiet_s() * 1000)), 0) << "event for an unsolicited message";
	EXPECT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_SUCCESS, IBV_WC_RECV, 10));

	// solicited: the event
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 2, { src.sge(0, 64) }, 0, IBV_SEND_SOLICITED), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 2));
	EXPECT_EQ(poll(&pf, 1, (int)(wait_s() * 1000)), 1) << "no event for a solicited message";
	ibv_cq *ecq = nullptr;
	void *ectx = nullptr;
	if (pf.revents & POLLIN) {
		EXPECT_EQ(ibv_get_cq_event(ch, &ecq, &ectx), 0);
		EXPECT_EQ(ecq, p.cq_b);
		if (ecq)
			ibv_ack_cq_events(ecq, 1);
	}
	EXPECT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_SUCCESS, IBV_WC_RECV, 11));
	EXPECT_EQ(diff(dst.p + 128, src.p, 64), "");
	p.reset();
	EXPECT_EQ(ibv_destroy_comp_channel(ch), 0);
}

// ---- UC

TEST_F(Dp, UcSendWrite)
{
	PairOpts o;
	o.type = IBV_QPT_UC;
	ASSERT_NO_FATAL_FAILURE(connect(o));
	const size_t n = 3 * mtu + 7;
	Buf &src = buf(n), &d1 = buf(n + 16), &d2 = buf(n + 16);
	fill(src.p, n, 31);
	ASSERT_EQ(post_recv(p.b, 7, { d1.sge(0, (uint32_t)(n + 16)) }), 0);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, { src.sge(0, (uint32_t)n) }), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	auto wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
	EXPECT_EQ(wb[0].byte_len, n);
	EXPECT_EQ(diff(d1.p, src.p, n), "") << "SEND";
	EXPECT_EQ(untouched(d1.p + n, 16), "");

	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, 2, { src.sge(0, (uint32_t)n) }, d2.addr(),
			    d2.mr->rkey),
		  0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 2));
	// with immediate: the receive completes after the data is placed
	ASSERT_EQ(post_recv(p.b, 8, {}), 0);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 3, { src.sge(0, 5) }, d2.addr(n),
			    d2.mr->rkey, htonl(0x55)),
		  0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 3));
	wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, 8));
	EXPECT_EQ(ntohl(wb[0].imm_data), 0x55u);
	EXPECT_EQ(wb[0].byte_len, 5u);
	EXPECT_EQ(diff(d2.p, src.p, n), "") << "WRITE";
	EXPECT_EQ(diff(d2.p + n, src.p, 5), "") << "WRITE_WITH_IMM";
	EXPECT_EQ(untouched(d2.p + n + 5, 11), "");
}

// ---- UD with GRH

class Ud : public Dp, public ::testing::WithParamInterface<bool> {
protected:
	// a UD send of @n bytes from a to b's QPN with @qkey through an AH to
	// the GID of the family
	int send_ud(Buf &src, size_t n, uint32_t qkey, uint64_t wr_id)
	{
		bool v6 = GetParam();
		if (!ah) {
			ibv_ah_attr av = self_av(v6 ? gid6 : gid4, v6 ? gi6 : gi4);
			ah = ibv_create_ah(pd, &av);
			if (!ah)
				return errno;
		}
		std::vector<ibv_sge> s;
		if (n)
			s.push_back(src.sge(0, (uint32_t)n));
		ibv_send_wr wr = wr_of(IBV_WR_SEND, wr_id, s);
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = p.b->qp_num;
		wr.wr.ud.remote_qkey = qkey;
		return post(p.a, wr);
	}
	void TearDown() override
	{
		if (ah)
			ibv_destroy_ah(ah);
		Dp::TearDown();
	}
	void connect_ud()
	{
		PairOpts o;
		o.type = IBV_QPT_UD;
		connect(o, GetParam());
	}
	ibv_ah *ah = nullptr;
};

size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

TEST_P(Ud, SendWithGrh)
{
	const bool v6 = GetParam();
	ASSERT_NO_FATAL_FAILURE(connect_ud());
	const ibv_gid &g = v6 ? gid6 : gid4;
	for (size_t n : { (size_t)0, (size_t)1, (size_t)mtu }) {
		SCOPED_TRACE("size " + std::to_string(n));
		Buf &src = buf(n), &dst = buf(40 + n + 32);
		fill(src.p, n, (unsigned int)n + 1);
		ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, (uint32_t)(40 + n + 32)) }), 0);
		ASSERT_EQ(send_ud(src, n, 0x11111111, 1), 0);
		EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
		auto wb = poll_n(p.cq_b, 1);
		ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
		EXPECT_EQ(wb[0].byte_len, 40 + n);
		EXPECT_EQ(wb[0].src_qp, p.a->qp_num);
		EXPECT_TRUE(wb[0].wc_flags & IBV_WC_GRH) << "wc_flags " << wb[0].wc_flags;
		EXPECT_EQ(diff(dst.p + 40, src.p, n), "");
		EXPECT_EQ(untouched(dst.p + 40 + n, 32), "");
		// UDP + BTH + DETH + padded payload + ICRC
		const size_t l4 = 8 + 12 + 8 + pad4(n) + 4;
		const uint8_t *h = dst.p;
		if (v6) {
			EXPECT_EQ(h[0] >> 4, 6) << "IP version";
			EXPECT_EQ((size_t)(h[4] << 8 | h[5]), l4) << "payload length";
			EXPECT_EQ(h[6], 17) << "next header";
			EXPECT_EQ(diff(h + 8, g.raw, 16), "") << "sgid";
			EXPECT_EQ(diff(h + 24, g.raw, 16), "") << "dgid";
		} else {
			// the IPv4 header is in the last 20 bytes
			EXPECT_EQ(h[20], 0x45) << "version/IHL";
			EXPECT_EQ((size_t)(h[22] << 8 | h[23]), 20 + l4) << "total length";
			EXPECT_EQ(h[29], 17) << "protocol";
			EXPECT_EQ(diff(h + 32, g.raw + 12, 4), "") << "source address";
			EXPECT_EQ(diff(h + 36, g.raw + 12, 4), "") << "destination address";
		}
	}
}

TEST_P(Ud, QkeyMismatchDropped)
{
	ASSERT_NO_FATAL_FAILURE(connect_ud());
	Buf &src = buf(64), &dst = buf(40 + 64);
	fill(src.p, 64, 4);
	ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, 40 + 64) }), 0);
	ASSERT_EQ(send_ud(src, 64, 0x22222222, 1), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	expect_quiet(p.cq_b, "Q_Key mismatch");
	EXPECT_EQ(untouched(dst.p, 40 + 64), "");
	// the right Q_Key still gets through to the same receive
	ASSERT_EQ(send_ud(src, 64, 0x11111111, 2), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 2));
	EXPECT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
	EXPECT_EQ(diff(dst.p + 40, src.p, 64), "");
}

INSTANTIATE_TEST_SUITE_P(Af, Ud, ::testing::Values(false, true),
			 [](const ::testing::TestParamInfo<bool> &i) {
				 return std::string(i.param ? "v6" : "v4");
			 });

// ---- SRQ

TEST_F(Dp, SrqReceiveAndLimit)
{
	ibv_srq_init_attr sa{};
	sa.attr.max_wr = 16;
	sa.attr.max_sge = 1;
	ibv_srq *srq = ibv_create_srq(pd, &sa);
	ASSERT_NE(srq, nullptr) << strerror(errno);
	PairOpts o;
	o.srq_b = srq;
	connect(o);
	if (!HasFatalFailure()) {
		Buf &src = buf(3 * 300), &dst = buf(4 * 512);
		fill(src.p, 3 * 300, 8);
		for (int i = 0; i < 4; i++)
			ASSERT_EQ(post_srq_recv(srq, 100 + i, dst.sge(512 * i, 512)), 0);
		ibv_srq_attr lim{};
		lim.srq_limit = 2;
		ASSERT_EQ(ibv_modify_srq(srq, &lim, IBV_SRQ_LIMIT), 0);
		for (int i = 0; i < 3; i++)
			ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1 + i,
					    { src.sge(300 * i, (uint32_t)(100 + 100 * i)) }),
				  0);
		auto wa = poll_n(p.cq_a, 3);
		auto wb = poll_n(p.cq_b, 3);
		for (int i = 0; i < 3; i++) {
			EXPECT_TRUE(wc_is(wa, i, IBV_WC_SUCCESS, IBV_WC_SEND, 1 + i));
			EXPECT_TRUE(wc_is(wb, i, IBV_WC_SUCCESS, IBV_WC_RECV, 100 + i));
			if (wb.size() > (size_t)i) {
				EXPECT_EQ(wb[i].byte_len, 100u + 100 * i);
				EXPECT_EQ(wb[i].qp_num, p.b->qp_num);
			}
			EXPECT_EQ(diff(dst.p + 512 * i, src.p + 300 * i, 100 + 100 * i), "");
		}
		// one WQE left < limit 2: the event, once
		bool seen = false;
		double end = now_s() + wait_s();
		while (!seen && now_s() < end) {
			ibv_async_event ev{};
			int t = async_event(ctx, 500, &ev);
			if (t == IBV_EVENT_SRQ_LIMIT_REACHED) {
				seen = true;
				EXPECT_EQ(ev.element.srq, srq);
			} else if (t >= 0) {
				ADD_FAILURE() << "unexpected async event " << ibv_event_type_str((ibv_event_type)t);
			}
		}
		EXPECT_TRUE(seen) << "no IBV_EVENT_SRQ_LIMIT_REACHED";
		// the limit is disarmed by the event
		ibv_srq_attr q{};
		EXPECT_EQ(ibv_query_srq(srq, &q), 0);
		EXPECT_EQ(q.srq_limit, 0u);
	}
	p.reset();
	EXPECT_EQ(ibv_destroy_srq(srq), 0);
}

// ---- RNR

TEST_F(Dp, RnrRetryInfiniteCompletesLater)
{
	PairOpts o;
	o.b.min_rnr_timer = 1;	// 0.01 ms
	o.a.rnr_retry = 7;
	ASSERT_NO_FATAL_FAILURE(connect(o));
	Buf &src = buf(2000), &dst = buf(2048);
	fill(src.p, 2000, 12);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, { src.sge(0, 2000) }), 0);
	auto early = poll_n(p.cq_a, 1, 0.5);
	EXPECT_EQ(early.size(), 0u) << "completed without a receive: "
				    << wc_status(early.empty() ? 0 : early[0].status);
	ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, 2048) }), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_SUCCESS, IBV_WC_SEND, 1));
	auto wb = poll_n(p.cq_b, 1);
	ASSERT_TRUE(wc_is(wb, 0, IBV_WC_SUCCESS, IBV_WC_RECV, 7));
	EXPECT_EQ(wb[0].byte_len, 2000u);
	EXPECT_EQ(diff(dst.p, src.p, 2000), "");
}

TEST_F(Dp, RnrRetryZeroFails)
{
	PairOpts o;
	o.b.min_rnr_timer = 1;
	o.a.rnr_retry = 0;
	ASSERT_NO_FATAL_FAILURE(connect(o));
	Buf &src = buf(100);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, { src.sge(0, 100) }), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_RNR_RETRY_EXC_ERR, IBV_WC_SEND, 1));
	EXPECT_EQ(poll_n(p.cq_b, 1, 0).size(), 0u);
}

// ---- remote access errors: bad rkey, beyond the MR, missing rights

enum class Viol { BadRkey, BeyondMr, NoRights };
struct AccessCase {
	ibv_wr_opcode op;
	Viol v;
};

void PrintTo(const AccessCase &c, std::ostream *os)
{
	*os << "wr opcode " << c.op << " violation " << (int)c.v;
}

class RemoteAccess : public Dp, public ::testing::WithParamInterface<AccessCase> {};

TEST_P(RemoteAccess, RemAccessErr)
{
	const AccessCase c = GetParam();
	ASSERT_NO_FATAL_FAILURE(connect());
	const bool atomic = c.op == IBV_WR_ATOMIC_CMP_AND_SWP || c.op == IBV_WR_ATOMIC_FETCH_AND_ADD;
	unsigned int access = ALL_ACCESS;
	if (c.v == Viol::NoRights)
		access = IBV_ACCESS_LOCAL_WRITE |
			 (c.op == IBV_WR_RDMA_WRITE ? IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC :
			  c.op == IBV_WR_RDMA_READ  ? IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC :
						      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	Buf &rem = buf(4096, access), &loc = buf(4096);
	const uint32_t n = atomic ? 8 : 64;
	uint64_t raddr = rem.addr(64);
	uint32_t rkey = rem.mr->rkey;
	if (c.v == Viol::BadRkey)
		rkey ^= 0x00ffff00;	// another index, same key byte
	if (c.v == Viol::BeyondMr)
		raddr = atomic ? rem.addr(4096) : rem.addr(4096 - 32);
	fill(loc.p, 4096, 2);
	std::vector<uint8_t> before(loc.p, loc.p + 4096);
	if (atomic)
		ASSERT_EQ(post_atomic(p.a, c.op, 1, loc.sge(0, 8), raddr, rkey, 1, 2), 0);
	else
		ASSERT_EQ(post_rdma(p.a, c.op, 1, { loc.sge(0, n) }, raddr, rkey), 0);
	// a good WRITE behind it is flushed: the QP is in error
	Buf &ok = buf(4096);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, 2, { loc.sge(0, 8) }, ok.addr(), ok.mr->rkey), 0);
	auto w = poll_n(p.cq_a, 2);
	const int opc = c.op == IBV_WR_RDMA_WRITE ? IBV_WC_RDMA_WRITE :
			c.op == IBV_WR_RDMA_READ  ? IBV_WC_RDMA_READ :
			c.op == IBV_WR_ATOMIC_CMP_AND_SWP ? IBV_WC_COMP_SWAP :
							     IBV_WC_FETCH_ADD;
	EXPECT_TRUE(wc_is(w, 0, IBV_WC_REM_ACCESS_ERR, opc, 1));
	EXPECT_TRUE(wc_is(w, 1, IBV_WC_WR_FLUSH_ERR, -1, 2));
	EXPECT_EQ(untouched(rem.p, 4096), "") << "remote memory changed";
	EXPECT_EQ(diff(loc.p, before.data(), 4096), "") << "local memory changed";
	EXPECT_EQ(poll_n(p.cq_b, 1, 0).size(), 0u) << "a completion at the responder";
}

std::vector<AccessCase> access_cases()
{
	std::vector<AccessCase> v;
	for (ibv_wr_opcode op : { IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP,
				  IBV_WR_ATOMIC_FETCH_AND_ADD })
		for (Viol x : { Viol::BadRkey, Viol::BeyondMr, Viol::NoRights })
			v.push_back({ op, x });
	return v;
}

std::string access_name(const ::testing::TestParamInfo<AccessCase> &i)
{
	static const char *v[] = { "BadRkey", "BeyondMr", "NoRights" };
	const char *op = i.param.op == IBV_WR_RDMA_WRITE	 ? "Write" :
			 i.param.op == IBV_WR_RDMA_READ		 ? "Read" :
			 i.param.op == IBV_WR_ATOMIC_CMP_AND_SWP ? "CmpSwap" :
								   "FetchAdd";
	return std::string(op) + "_" + v[(int)i.param.v];
}

INSTANTIATE_TEST_SUITE_P(Viol, RemoteAccess, ::testing::ValuesIn(access_cases()), access_name);

// ---- local errors

TEST_F(Dp, BadLkeyLocProtErr)
{
	for (ibv_wr_opcode op : { IBV_WR_SEND, IBV_WR_RDMA_WRITE }) {
		SCOPED_TRACE(op == IBV_WR_SEND ? "SEND" : "RDMA_WRITE");
		p.reset();
		ASSERT_NO_FATAL_FAILURE(connect());
		Buf &src = buf(256), &dst = buf(256);
		ibv_mr *gone = ibv_reg_mr(pd, src.p, 256, IBV_ACCESS_LOCAL_WRITE);
		ASSERT_NE(gone, nullptr);
		uint32_t dead = gone->lkey;
		ASSERT_EQ(ibv_dereg_mr(gone), 0);
		ibv_sge s = src.sge(0, 100);
		s.lkey = dead;
		ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, 256) }), 0);
		if (op == IBV_WR_SEND)
			ASSERT_EQ(post_send(p.a, op, 1, { s }), 0);
		else
			ASSERT_EQ(post_rdma(p.a, op, 1, { s }, dst.addr(), dst.mr->rkey), 0);
		EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_LOC_PROT_ERR,
				  op == IBV_WR_SEND ? IBV_WC_SEND : IBV_WC_RDMA_WRITE, 1));
		EXPECT_EQ(untouched(dst.p, 256), "");
	}
}

TEST_F(Dp, RecvTooSmall)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &src = buf(64), &dst = buf(64);
	fill(src.p, 64, 6);
	ASSERT_EQ(post_recv(p.b, 7, { dst.sge(0, 16) }), 0);
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 1, { src.sge(0, 64) }), 0);
	EXPECT_TRUE(wc_is(poll_n(p.cq_b, 1), 0, IBV_WC_LOC_LEN_ERR, -1, 7));
	EXPECT_TRUE(wc_is(poll_n(p.cq_a, 1), 0, IBV_WC_REM_INV_REQ_ERR, IBV_WC_SEND, 1));
	EXPECT_EQ(untouched(dst.p + 16, 48), "") << "written beyond the receive buffer";
}

// ---- flush on QP error

TEST_F(Dp, FlushRecvInOrder)
{
	ASSERT_NO_FATAL_FAILURE(connect());
	Buf &dst = buf(4 * 64);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(post_recv(p.b, 10 + i, { dst.sge(64 * i, 64) }), 0);
	ASSERT_EQ(qp_to_err(p.b), 0);
	auto w = poll_n(p.cq_b, 4);
	for (int i = 0; i < 4; i++) {
		EXPECT_TRUE(wc_is(w, i, IBV_WC_WR_FLUSH_ERR, -1, 10 + i));
		if (w.size() > (size_t)i) {
			EXPECT_EQ(w[i].qp_num, p.b->qp_num);
		}
	}
	EXPECT_EQ(poll_n(p.cq_b, 1, 0).size(), 0u);
}

TEST_F(Dp, FlushSendInOrder)
{
	// b never posts a receive: a's sends wait in RNR retries
	PairOpts o;
	o.b.min_rnr_timer = 1;
	o.a.rnr_retry = 7;
	ASSERT_NO_FATAL_FAILURE(connect(o));
	Buf &src = buf(4 * 64);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(post_send(p.a, IBV_WR_SEND, 20 + i, { src.sge(64 * i, 64) }), 0);
	EXPECT_EQ(poll_n(p.cq_a, 1, 0.5).size(), 0u) << "a send completed without a receive";
	ASSERT_EQ(qp_to_err(p.a), 0);
	auto w = poll_n(p.cq_a, 4);
	for (int i = 0; i < 4; i++) {
		EXPECT_TRUE(wc_is(w, i, IBV_WC_WR_FLUSH_ERR, -1, 20 + i));
		if (w.size() > (size_t)i) {
			EXPECT_EQ(w[i].qp_num, p.a->qp_num);
		}
	}
	EXPECT_EQ(poll_n(p.cq_a, 1, 0).size(), 0u);
}

// ---- MRs over 2 MiB pages: a user MR translates by the largest block
// its physically contiguous runs allow (rxe_mr_map.h), so these MRs use
// 2 MiB blocks; the MR starts and ends inside a large page

struct BigPageCase {
	bool hugetlb;	// MAP_HUGETLB, else transparent huge pages
};
void PrintTo(const BigPageCase &c, std::ostream *os)
{
	*os << (c.hugetlb ? "hugetlb" : "thp");
}
class BigPages : public Dp, public ::testing::WithParamInterface<BigPageCase> {
protected:
	static constexpr size_t kHuge = 2u << 20;
	// a 2 MiB aligned, populated region of @n huge pages, or nullptr
	void *region(size_t n, size_t *map_len)
	{
		if (GetParam().hugetlb) {
			*map_len = n * kHuge;
			void *m = mmap(nullptr, *map_len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
			if (m == MAP_FAILED)
				return nullptr;
			memset(m, GUARD, *map_len);
			return m;
		}
		// over-map, then trim to 2 MiB alignment so THP can back it
		size_t over = (n + 1) * kHuge;
		uint8_t *m = (uint8_t *)mmap(nullptr, over, PROT_READ | PROT_WRITE,
					     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return nullptr;
		uint8_t *a = (uint8_t *)(((uintptr_t)m + kHuge - 1) & ~(uintptr_t)(kHuge - 1));
		if (a > m)
			munmap(m, a - m);
		if (a + n * kHuge < m + over)
			munmap(a + n * kHuge, m + over - (a + n * kHuge));
		*map_len = n * kHuge;
		memset(a, GUARD, *map_len);
		return a;
	}
	void TearDown() override
	{
		Dp::TearDown();
		if (pool_set) {
			EXPECT_TRUE(set_pool(0));
		}
	}
	static bool set_pool(size_t n)
	{
		FILE *f = fopen("/proc/sys/vm/nr_hugepages", "w");
		if (!f)
			return false;
		fprintf(f, "%zu\n", n);
		return fclose(f) == 0;
	}
	bool pool_set = false;
	// kB of the calling process' memory in huge pages of either kind
	static long huge_kb()
	{
		FILE *f = fopen("/proc/self/smaps_rollup", "r");
		char line[256];
		long kb = 0, v;
		while (f && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "AnonHugePages: %ld", &v) == 1 ||
			    sscanf(line, "Private_Hugetlb: %ld", &v) == 1)
				kb += v;
		}
		if (f)
			fclose(f);
		return kb;
	}
};

TEST_P(BigPages, WriteAndReadEveryByte)
{
	const size_t pages = 2, off = 3 * 4096 + 5, n = 3 * (1u << 20) + 77;
	if (GetParam().hugetlb) {
		// room for this case's pages in the pool (the scenario runs as
		// root); emptied again at the end (pages in use then are freed
		// when unmapped)
		ASSERT_TRUE(set_pool(pages + 2)) << "nr_hugepages: " << strerror(errno);
		pool_set = true;
	}
	long before = huge_kb();
	size_t map_len = 0;
	void *m = region(pages, &map_len);
	ASSERT_NE(m, nullptr) << "mmap: " << strerror(errno);
	EXPECT_GE(huge_kb() - before, 2048L) << "no part of the region is in 2 MiB pages";
	Buf *big = new Buf;
	bufs.push_back(big);
	ASSERT_EQ(big->init_in(pd, m, map_len, off, n, ALL_ACCESS), 0);
	ASSERT_NO_FATAL_FAILURE(connect());

	// a WRITE of the whole MR, then short ones across each 2 MiB boundary
	Buf &src = buf(n), &back = buf(n);
	fill(src.p, n, 1414);
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, 1, { src.sge(0, (uint32_t)n) },
			    big->addr(), big->mr->rkey), 0);
	auto w = poll_n(p.cq_a, 1);
	ASSERT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 1));
	for (size_t b = kHuge; b < off + n; b += kHuge) {
		size_t at = b - off - 40;
		fill(src.p + at, 80, (unsigned int)b);
		ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_WRITE, 2, { src.sge(at, 80) },
				    big->addr(at), big->mr->rkey), 0);
		w = poll_n(p.cq_a, 1);
		ASSERT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE, 2)) << b;
	}
	EXPECT_EQ(diff(big->p, src.p, n), "");
	EXPECT_EQ(untouched((uint8_t *)m, off), "") << "before the MR";
	EXPECT_EQ(untouched(big->p + n, map_len - off - n), "") << "after the MR";

	// a READ of the whole MR back
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_READ, 3, { back.sge(0, (uint32_t)n) },
			    big->addr(), big->mr->rkey), 0);
	w = poll_n(p.cq_a, 1);
	ASSERT_TRUE(wc_is(w, 0, IBV_WC_SUCCESS, IBV_WC_RDMA_READ, 3));
	EXPECT_EQ(diff(back.p, src.p, n), "");
	// one byte past the MR's end is refused
	ASSERT_EQ(post_rdma(p.a, IBV_WR_RDMA_READ, 4, { back.sge(0, 2) },
			    big->addr(n - 1), big->mr->rkey), 0);
	w = poll_n(p.cq_a, 1);
	EXPECT_TRUE(wc_is(w, 0, IBV_WC_REM_ACCESS_ERR, IBV_WC_RDMA_READ, 4));
}

INSTANTIATE_TEST_SUITE_P(Dp, BigPages, ::testing::Values(BigPageCase{ false }, BigPageCase{ true }),
			 [](const ::testing::TestParamInfo<BigPageCase> &i) {
				 return std::string(i.param.hugetlb ? "Hugetlb" : "Thp");
			 });

} // namespace
