// SPDX-License-Identifier: GPL-2.0
//
// Helpers of the data-path selftest (datapath_test.cpp): registered
// buffers with a byte pattern and guard bytes, two QPs on one device
// connected to each other, work-request builders, completion polling with
// a deadline (never hangs).
#pragma once

#include "verbs_common.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace dp {

using namespace verbs;

// Seconds one wait for a completion or event may take ($DP_WAIT, default
// 20: TCG is slow).
inline double wait_s()
{
	return atof(env("DP_WAIT", "20").c_str());
}

inline double now_s()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

constexpr uint8_t GUARD = 0xa5;

// Page-aligned memory, registered with @access, filled with GUARD; or
// (init_mapped) fresh anonymous pages nobody touched.
struct Buf {
	uint8_t *p = nullptr;
	size_t len = 0;
	ibv_mr *mr = nullptr;
	bool mapped = false;	// p is an mmap of len bytes (init_mapped)
	void *region = nullptr;	// or p lies in this mmap (init_in)
	size_t region_len = 0;

	Buf() = default;
	Buf(const Buf &) = delete;
	Buf &operator=(const Buf &) = delete;
	~Buf()
	{
		if (mr)
			ibv_dereg_mr(mr);
		if (region)
			munmap(region, region_len);
		else if (mapped)
			munmap(p, len);
		else if (len)
			free(p);
	}
	// @n bytes at @off of @map (an mmap of @map_len bytes, which the Buf
	// owns from now on), registered with @access: 0 or an errno
	int init_in(ibv_pd *pd, void *map, size_t map_len, size_t off, size_t n,
		    unsigned int access)
	{
		region = map;
		region_len = map_len;
		p = (uint8_t *)map + off;
		len = n;
		mr = ibv_reg_mr(pd, p, len, access);
		return mr ? 0 : errno;
	}
	// @pages untouched pages from mmap, registered with @access: 0 or an errno
	int init_mapped(ibv_pd *pd, size_t pages, unsigned int access)
	{
		void *m = mmap(nullptr, pages * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return errno;
		p = (uint8_t *)m;
		len = pages * 4096;
		mapped = true;
		mr = ibv_reg_mr(pd, p, len, access);
		return mr ? 0 : errno;
	}
	// 0 or an errno
	int init(ibv_pd *pd, size_t n, unsigned int access)
	{
		len = n ? n : 1;
		if (posix_memalign((void **)&p, 4096, (len + 4095) & ~(size_t)4095))
			return ENOMEM;
		memset(p, GUARD, len);
		if (!pd)
			return 0;
		mr = ibv_reg_mr(pd, p, len, access);
		return mr ? 0 : errno;
	}
	uint64_t addr(size_t off = 0) const { return (uint64_t)(uintptr_t)(p + off); }
	ibv_sge sge(size_t off, uint32_t n) const
	{
		ibv_sge s{};
		s.addr = addr(off);
		s.length = n;
		s.lkey = mr ? mr->lkey : 0;
		return s;
	}
};

// A pattern that differs per byte and per @seed.
inline void fill(uint8_t *p, size_t n, unsigned int seed)
{
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

// "" if @got equals @want over @n bytes, else where they differ first.
inline std::string diff(const uint8_t *got, const uint8_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			char m[96];
			snprintf(m, sizeof(m), "byte %zu of %zu: got 0x%02x, want 0x%02x", i, n,
				 got[i], want[i]);
			return m;
		}
	return "";
}

// "" if @n bytes at @p are all GUARD, else the first that is not.
inline std::string untouched(const uint8_t *p, size_t n)
{
	std::vector<uint8_t> g(n, GUARD);
	return diff(p, g.data(), n);
}

// Polls @cq until @n completions arrived or wait_s() passed; returns
// what arrived (fewer than @n on timeout).
inline std::vector<ibv_wc> poll_n(ibv_cq *cq, size_t n, double secs = -1)
{
	std::vector<ibv_wc> out;
	double end = now_s() + (secs < 0 ? wait_s() : secs);

	while (out.size() < n) {
		ibv_wc wc[8];
		int k = ibv_poll_cq(cq, 8, wc);
		if (k < 0)
			break;
		for (int i = 0; i < k; i++)
			out.push_back(wc[i]);
		if (k == 0) {
			if (now_s() > end)
				break;
			usleep(200);
		}
	}
	return out;
}

inline const char *wc_status(int s);

// One completion on @cq within wait_s(): @wr_id with @status (copied to
// @out when given).
inline ::testing::AssertionResult one_wc(ibv_cq *cq, ibv_wc_status status, uint64_t wr_id,
					 ibv_wc *out = nullptr)
{
	auto w = poll_n(cq, 1);
	if (w.empty())
		return ::testing::AssertionFailure() << "no completion in " << wait_s() << " s";
	if (out)
		*out = w[0];
	if (w[0].status != status || w[0].wr_id != wr_id)
		return ::testing::AssertionFailure()
		       << "completion wr_id " << w[0].wr_id << " status " << wc_status(w[0].status)
		       << ", want wr_id " << wr_id << " status " << wc_status(status);
	return ::testing::AssertionSuccess();
}

inline const char *wc_status(int s)
{
	return ibv_wc_status_str((ibv_wc_status)s);
}

// Two QPs of one type on one device, a -> b, each with its own CQ.
struct Pair {
	ibv_cq *cq_a = nullptr, *cq_b = nullptr;
	ibv_qp *a = nullptr, *b = nullptr;

	Pair() = default;
	Pair(const Pair &) = delete;
	Pair &operator=(const Pair &) = delete;
	~Pair() { reset(); }
	void reset()
	{
		if (a)
			ibv_destroy_qp(a);
		if (b)
			ibv_destroy_qp(b);
		if (cq_a)
			ibv_destroy_cq(cq_a);
		if (cq_b)
			ibv_destroy_cq(cq_b);
		a = b = nullptr;
		cq_a = cq_b = nullptr;
	}
};

struct PairOpts {
	ibv_qp_type type = IBV_QPT_RC;
	uint32_t sge = 4;
	uint32_t inline_data = 0;
	uint32_t wr = 32;
	ibv_srq *srq_b = nullptr;	// b receives from this SRQ
	ibv_comp_channel *ch_b = nullptr;	// b's CQ reports events here
	qp_opts a, b;			// dest_qpn is filled in
	bool connect = true;		// else both stay in RESET
	uint64_t send_ops = 0;		// IBV_QP_EX_WITH_*: ibv_qp_ex QPs
};

inline ibv_qp *make_dp_qp(ibv_pd *pd, ibv_cq *cq, const PairOpts &o, ibv_srq *srq)
{
	ibv_qp_init_attr ia{};
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.srq = srq;
	ia.qp_type = o.type;
	ia.cap.max_send_wr = o.wr;
	ia.cap.max_recv_wr = srq ? 0 : o.wr;
	ia.cap.max_send_sge = o.sge;
	ia.cap.max_recv_sge = srq ? 0 : o.sge;
	ia.cap.max_inline_data = o.inline_data;
	if (!o.send_ops)
		return ibv_create_qp(pd, &ia);
	ibv_qp_init_attr_ex ix{};
	memcpy(&ix, &ia, sizeof(ia));	/* the same leading fields */
	ix.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	ix.pd = pd;
	ix.send_ops_flags = o.send_ops;
	return ibv_create_qp_ex(pd->context, &ix);
}

// Creates @p's CQs and QPs and (o.connect) brings both to RTS, each the
// other's peer through @gid; "" or what failed.
inline std::string pair_up(Pair &p, ibv_context *ctx, ibv_pd *pd, const ibv_gid &gid, int gi,
			   PairOpts o = PairOpts{})
{
	p.cq_a = ibv_create_cq(ctx, 2 * o.wr, nullptr, nullptr, 0);
	p.cq_b = ibv_create_cq(ctx, 2 * o.wr, nullptr, o.ch_b, 0);
	if (!p.cq_a || !p.cq_b)
		return std::string("create cq: ") + strerror(errno);
	p.a = make_dp_qp(pd, p.cq_a, o, nullptr);
	p.b = make_dp_qp(pd, p.cq_b, o, o.srq_b);
	if (!p.a || !p.b)
		return std::string("create qp: ") + strerror(errno);
	if (!o.connect)
		return "";
	o.a.dest_qpn = p.b->qp_num;
	o.b.dest_qpn = p.a->qp_num;
	if (int r = qp_to(p.a, IBV_QPS_RTS, gid, gi, o.a))
		return std::string("qp a to RTS: ") + strerror(r);
	if (int r = qp_to(p.b, IBV_QPS_RTS, gid, gi, o.b))
		return std::string("qp b to RTS: ") + strerror(r);
	return "";
}

// The frame of a one-device test: $VERBS_DEV open with port 1 active
// (pa), a PD, the QP pair p and registered buffers, torn down in the
// order QPs, buffers, PD, device.
class DevTest : public ::testing::Test {
protected:
	// SetUp's first part (its ASSERTs end SetUp)
	void open_active()
	{
		ctx = open_dev();
		ASSERT_NE(ctx, nullptr) << "cannot open " << env("VERBS_DEV", "rxe0");
		ASSERT_EQ(ibv_query_port(ctx, 1, &pa), 0);
		ASSERT_EQ(pa.state, IBV_PORT_ACTIVE);
		pd = ibv_alloc_pd(ctx);
		ASSERT_NE(pd, nullptr) << strerror(errno);
	}
	// TearDown's last part: nothing of the case may be left, so the
	// PD and the device must close without an error
	void close_all()
	{
		p.reset();
		for (Buf *b : bufs)
			delete b;
		bufs.clear();
		if (pd) {
			EXPECT_EQ(ibv_dealloc_pd(pd), 0);
		}
		if (ctx) {
			EXPECT_EQ(ibv_close_device(ctx), 0);
		}
	}
	// a new buffer of the case: @n bytes from malloc, or @pages untouched
	// pages from mmap when @pages is set; registered with @access
	Buf &new_buf(size_t n, unsigned int access, size_t pages = 0)
	{
		Buf *b = new Buf;
		bufs.push_back(b);
		int r = pages ? b->init_mapped(pd, pages, access) : b->init(pd, n, access);
		EXPECT_EQ(r, 0) << "reg_mr " << (pages ? pages * 4096 : n) << " access 0x"
				<< std::hex << access << std::dec << ": " << strerror(r);
		return *b;
	}

	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	ibv_port_attr pa{};
	Pair p;
	std::vector<Buf *> bufs;
};

inline int post_recv(ibv_qp *qp, uint64_t wr_id, std::vector<ibv_sge> sges)
{
	ibv_recv_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id;
	wr.sg_list = sges.empty() ? nullptr : sges.data();
	wr.num_sge = (int)sges.size();
	return ibv_post_recv(qp, &wr, &bad);
}

inline int post_srq_recv(ibv_srq *srq, uint64_t wr_id, ibv_sge sge)
{
	ibv_recv_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	return ibv_post_srq_recv(srq, &wr, &bad);
}

// A signaled send WR of @op over @sges (kept alive by the caller).
inline ibv_send_wr wr_of(ibv_wr_opcode op, uint64_t wr_id, std::vector<ibv_sge> &sges)
{
	ibv_send_wr wr{};
	wr.wr_id = wr_id;
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = sges.empty() ? nullptr : sges.data();
	wr.num_sge = (int)sges.size();
	return wr;
}

inline int post(ibv_qp *qp, ibv_send_wr &wr)
{
	ibv_send_wr *bad = nullptr;
	return ibv_post_send(qp, &wr, &bad);
}

// RDMA READ/WRITE (+imm) of @sges to @raddr/@rkey.
inline int post_rdma(ibv_qp *qp, ibv_wr_opcode op, uint64_t wr_id, std::vector<ibv_sge> sges,
		     uint64_t raddr, uint32_t rkey, uint32_t imm = 0)
{
	ibv_send_wr wr = wr_of(op, wr_id, sges);
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	wr.imm_data = imm;
	return post(qp, wr);
}

inline int post_send(ibv_qp *qp, ibv_wr_opcode op, uint64_t wr_id, std::vector<ibv_sge> sges,
		     uint32_t imm_or_rkey = 0, unsigned int extra_flags = 0)
{
	ibv_send_wr wr = wr_of(op, wr_id, sges);
	wr.send_flags |= extra_flags;
	if (op == IBV_WR_SEND_WITH_INV)
		wr.invalidate_rkey = imm_or_rkey;
	else
		wr.imm_data = imm_or_rkey;
	return post(qp, wr);
}

inline int post_atomic(ibv_qp *qp, ibv_wr_opcode op, uint64_t wr_id, ibv_sge sge, uint64_t raddr,
		       uint32_t rkey, uint64_t compare_add, uint64_t swap)
{
	std::vector<ibv_sge> sges{ sge };
	ibv_send_wr wr = wr_of(op, wr_id, sges);
	wr.wr.atomic.remote_addr = raddr;
	wr.wr.atomic.rkey = rkey;
	wr.wr.atomic.compare_add = compare_add;
	wr.wr.atomic.swap = swap;
	return post(qp, wr);
}

} // namespace dp
