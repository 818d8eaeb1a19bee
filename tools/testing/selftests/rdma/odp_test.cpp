// SPDX-License-Identifier: GPL-2.0
//
// odp: on-demand paging (IBV_ACCESS_ON_DEMAND) through libibverbs, on one
// device: two RC QPs connected to each other as in the datapath selftest,
// the memory under test registered with ON_DEMAND and never pinned.
// Byte-exact checks of what lands where:
//   - the device advertises ODP (ibv_query_device_ex odp_caps), no
//     implicit ODP (a whole-address-space MR is refused);
//   - RDMA WRITE, READ and atomics into memory that was never touched;
//   - a page mapped read-only (the zero page, after an RDMA READ) is
//     faulted again for a write, which the process then sees;
//   - the pages replaced between accesses (mmap MAP_FIXED; the test kernel
//     has no madvise): the next access sees the new (zero) pages, a later
//     write lands in the process's memory;
//   - SEND from and into ODP memory after a fork() took write access away;
//   - fork() with the child alive: an RDMA WRITE lands in the parent's
//     copy, the child keeps its own;
//   - munmap() while registered: the next RDMA WRITE completes with a
//     remote access error, and deregistration still works.
//
//   VERBS_DEV=rxe0 DP_WAIT=20 odp [gtest options]
#include "datapath.h"

#include <sys/wait.h>

using namespace dp;

namespace {

constexpr size_t PAGE = 4096;
constexpr unsigned int ALL_ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

class Odp : public DevTest {
protected:
	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(open_active());
		gi = roce_v2_gid(ctx, &gid, AF_INET);
		ASSERT_GE(gi, 0) << "no IPv4 RoCEv2 GID on port 1";
		PairOpts o;
		o.a.mtu = o.b.mtu = pa.active_mtu;
		o.a.access = o.b.access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
					  IBV_ACCESS_REMOTE_ATOMIC;
		o.a.rd_atomic = o.b.rd_atomic = 4;
		ASSERT_EQ(pair_up(p, ctx, pd, gid, gi, o), "");
	}
	void TearDown() override { close_all(); }
	Buf &odp(size_t pages, unsigned int access = ALL_ACCESS)
	{
		return new_buf(0, access | IBV_ACCESS_ON_DEMAND, pages);
	}
	Buf &buf(size_t n) { return new_buf(n, ALL_ACCESS); }
	// QP a writes @n bytes of @src at @dst_off of @dst: completion @st
	::testing::AssertionResult write(Buf &src, Buf &dst, size_t dst_off, size_t n,
					 ibv_wc_status st = IBV_WC_SUCCESS)
	{
		int r = post_rdma(p.a, IBV_WR_RDMA_WRITE, ++wr_id, { src.sge(0, (uint32_t)n) },
				  dst.addr(dst_off), dst.mr->rkey);
		if (r)
			return ::testing::AssertionFailure() << "post WRITE: " << strerror(r);
		return one_wc(p.cq_a, st, wr_id);
	}
	// QP a reads @n bytes at @off of @from into @into
	::testing::AssertionResult read(Buf &from, size_t off, Buf &into, size_t n)
	{
		memset(into.p, GUARD, n);
		int r = post_rdma(p.a, IBV_WR_RDMA_READ, ++wr_id, { into.sge(0, (uint32_t)n) },
				  from.addr(off), from.mr->rkey);
		if (r)
			return ::testing::AssertionFailure() << "post READ: " << strerror(r);
		return one_wc(p.cq_a, IBV_WC_SUCCESS, wr_id);
	}

	ibv_gid gid{};
	int gi = -1;
	uint64_t wr_id = 0;
};

TEST_F(Odp, CapsAdvertised)
{
	ibv_device_attr_ex ax{};
	ASSERT_EQ(ibv_query_device_ex(ctx, nullptr, &ax), 0);
	EXPECT_TRUE(ax.odp_caps.general_caps & IBV_ODP_SUPPORT);
	EXPECT_FALSE(ax.odp_caps.general_caps & IBV_ODP_SUPPORT_IMPLICIT);
	const uint32_t rc = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV | IBV_ODP_SUPPORT_WRITE |
			    IBV_ODP_SUPPORT_READ | IBV_ODP_SUPPORT_ATOMIC | IBV_ODP_SUPPORT_SRQ_RECV;
	EXPECT_EQ(ax.odp_caps.per_transport_caps.rc_odp_caps, rc);
	EXPECT_EQ(ax.odp_caps.per_transport_caps.ud_odp_caps,
		  (uint32_t)(IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV | IBV_ODP_SUPPORT_SRQ_RECV));
	EXPECT_EQ(ax.xrc_odp_caps, 0u);
	// implicit ODP (the whole address space) is refused
	errno = 0;
	ibv_mr *mr = ibv_reg_mr(pd, nullptr, SIZE_MAX, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	EXPECT_EQ(mr, nullptr);
	EXPECT_EQ(errno, EINVAL);
	if (mr)
		ibv_dereg_mr(mr);
}

// an RDMA WRITE across three never-touched pages, off page boundaries
TEST_F(Odp, WriteIntoUntouchedMemory)
{
	Buf &d = odp(4);
	const size_t off = 1000, n = 2 * PAGE + 100;
	Buf &s = buf(n);
	fill(s.p, n, 1);
	ASSERT_TRUE(write(s, d, off, n));
	EXPECT_EQ(diff(d.p + off, s.p, n), "");
	EXPECT_TRUE(all_zero(d.p, off));
	EXPECT_TRUE(all_zero(d.p + off + n, d.len - off - n));
}

// a READ maps the zero page read-only; a later WRITE must get its own page
TEST_F(Odp, ReadThenWriteRefaultsForWriting)
{
	Buf &d = odp(2);
	Buf &r = buf(PAGE);
	ASSERT_TRUE(read(d, 0, r, PAGE));
	EXPECT_TRUE(all_zero(r.p, PAGE)) << "a never-written page reads as zeros";
	Buf &s = buf(PAGE);
	fill(s.p, PAGE, 2);
	ASSERT_TRUE(write(s, d, 0, PAGE));
	EXPECT_EQ(diff(d.p, s.p, PAGE), "") << "the process sees the RDMA WRITE";
	ASSERT_TRUE(read(d, 0, r, PAGE));
	EXPECT_EQ(diff(r.p, s.p, PAGE), "");
}

// the CPU writes, the peer reads; MAP_FIXED replaces the pages; again
TEST_F(Odp, PagesReplacedBetweenAccesses)
{
	Buf &d = odp(3);
	Buf &r = buf(2 * PAGE);
	Buf &s = buf(2 * PAGE);
	for (unsigned int k = 0; k < 20; k++) {
		fill(d.p + PAGE / 2, 2 * PAGE, 100 + k);
		ASSERT_TRUE(read(d, PAGE / 2, r, 2 * PAGE)) << "round " << k;
		ASSERT_EQ(diff(r.p, d.p + PAGE / 2, 2 * PAGE), "") << "round " << k;
		// the test kernel has no madvise(): MAP_FIXED over the range
		// drops its pages the same way (an invalidation, then zero pages)
		ASSERT_EQ(mmap(d.p, d.len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
			  (void *)d.p)
			<< "round " << k << ": " << strerror(errno);
		ASSERT_TRUE(read(d, PAGE / 2, r, 2 * PAGE)) << "round " << k;
		ASSERT_TRUE(all_zero(r.p, 2 * PAGE)) << "round " << k << ": stale page after MAP_FIXED";
		fill(s.p, 2 * PAGE, 200 + k);
		ASSERT_TRUE(write(s, d, PAGE / 2, 2 * PAGE)) << "round " << k;
		ASSERT_EQ(diff(d.p + PAGE / 2, s.p, 2 * PAGE), "") << "round " << k;
	}
}

TEST_F(Odp, AtomicsOnUntouchedMemory)
{
	Buf &d = odp(2);
	Buf &r = buf(8);
	const size_t off = PAGE + 64;
	ASSERT_EQ(post_atomic(p.a, IBV_WR_ATOMIC_FETCH_AND_ADD, ++wr_id, r.sge(0, 8), d.addr(off),
			      d.mr->rkey, 5, 0),
		  0);
	ASSERT_TRUE(one_wc(p.cq_a, IBV_WC_SUCCESS, wr_id));
	uint64_t v;
	memcpy(&v, r.p, 8);
	EXPECT_EQ(v, 0u);
	memcpy(&v, d.p + off, 8);
	EXPECT_EQ(v, 5u);
	ASSERT_EQ(post_atomic(p.a, IBV_WR_ATOMIC_CMP_AND_SWP, ++wr_id, r.sge(0, 8), d.addr(off),
			      d.mr->rkey, 5, 0x1122334455667788ull),
		  0);
	ASSERT_TRUE(one_wc(p.cq_a, IBV_WC_SUCCESS, wr_id));
	memcpy(&v, r.p, 8);
	EXPECT_EQ(v, 5u);
	memcpy(&v, d.p + off, 8);
	EXPECT_EQ(v, 0x1122334455667788ull);
}

// the local side is ODP too: SEND from ODP memory into an ODP receive
// buffer, both behind a fork() that write-protected every page
TEST_F(Odp, SendBetweenBuffersAfterFork)
{
	Buf &src = odp(2, IBV_ACCESS_LOCAL_WRITE);
	Buf &dst = odp(2, IBV_ACCESS_LOCAL_WRITE);
	const size_t n = PAGE + 333;
	fill(src.p + 10, n, 3);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(0);
	int st = 0;
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_EQ(post_recv(p.b, ++wr_id, { dst.sge(20, (uint32_t)n) }), 0);
	const uint64_t recv_id = wr_id;
	ASSERT_EQ(post_send(p.a, IBV_WR_SEND, ++wr_id, { src.sge(10, (uint32_t)n) }), 0);
	ASSERT_TRUE(one_wc(p.cq_a, IBV_WC_SUCCESS, wr_id));
	ASSERT_TRUE(one_wc(p.cq_b, IBV_WC_SUCCESS, recv_id));
	EXPECT_EQ(diff(dst.p + 20, src.p + 10, n), "");
	EXPECT_TRUE(all_zero(dst.p, 20));
}

// the child shares the pages copy-on-write: the parent's MR follows the
// parent's copy, the child's stays as it was
TEST_F(Odp, ForkChildKeepsItsCopy)
{
	Buf &d = odp(1);
	fill(d.p, PAGE, 4);
	std::vector<uint8_t> before(d.p, d.p + PAGE);
	int go[2], verdict[2];
	ASSERT_EQ(pipe(go), 0);
	ASSERT_EQ(pipe(verdict), 0);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		char c;
		close(go[1]);
		close(verdict[0]);
		// wait until the parent's RDMA WRITE completed
		if (::read(go[0], &c, 1) != 1)
			_exit(2);
		c = memcmp(d.p, before.data(), PAGE) ? 'x' : 'k';
		_exit(::write(verdict[1], &c, 1) == 1 ? 0 : 3);
	}
	close(go[0]);
	close(verdict[1]);
	Buf &s = buf(PAGE);
	fill(s.p, PAGE, 5);
	EXPECT_TRUE(write(s, d, 0, PAGE));
	EXPECT_EQ(diff(d.p, s.p, PAGE), "") << "the parent sees the RDMA WRITE";
	char c = 'g';
	EXPECT_EQ(::write(go[1], &c, 1), 1);
	c = 0;
	EXPECT_EQ(::read(verdict[0], &c, 1), 1);
	EXPECT_EQ(c, 'k') << "the child's copy changed";
	int st = 0;
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(go[1]);
	close(verdict[0]);
}

// unmapped under the MR: remote access error, no crash, dereg works
TEST_F(Odp, MunmapWhileRegistered)
{
	Buf &d = odp(2);
	Buf &s = buf(PAGE);
	fill(s.p, PAGE, 6);
	ASSERT_TRUE(write(s, d, 0, PAGE));
	ASSERT_EQ(munmap(d.p, d.len), 0);
	EXPECT_TRUE(write(s, d, 0, PAGE, IBV_WC_REM_ACCESS_ERR));
	EXPECT_EQ(ibv_dereg_mr(d.mr), 0);
	// unmapped and deregistered above: nothing left for ~Buf
	d.mr = nullptr;
	d.mapped = false;
	d.len = 0;
}

} // namespace

int main(int argc, char **argv)
{
	::testing::InitGoogleTest(&argc, argv);
	return RUN_ALL_TESTS();
}
