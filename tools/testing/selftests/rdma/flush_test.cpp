// SPDX-License-Identifier: GPL-2.0
//
// RDMA FLUSH (IBTA 1.5) from user space, without ibv_wr_flush(): rdma-core
// v44 has none.  The requester QP is created with raw uverbs commands on
// the context's command file (so that this test owns its SQ ring), with
// libibverbs' PD and CQ handles; it writes FLUSH WQEs the way rdma-core
// v45's librxe does (opcode 14, the operands over the start of wr.wr)
// and rings the doorbell.  The responder is an ordinary libibverbs QP,
// and completions are polled from the libibverbs CQ.  Device: $VERBS_DEV
// (default rxe0).
#include "datapath.h"

#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <sys/mman.h>

#include <gtest/gtest.h>

namespace {

using namespace dp;

// values of rdma-core v45 / the 6.2 uapi that v44 and 6.1 do not name
constexpr uint32_t WR_FLUSH = 14;
constexpr int WC_FLUSH = 8;
constexpr unsigned int ACCESS_FLUSH_GLOBAL = 1u << 8;
constexpr unsigned int ACCESS_FLUSH_PERSISTENT = 1u << 9;
constexpr uint8_t PLT_GLOBAL = 1, PLT_PERSISTENT = 2;
constexpr uint8_t SEL_RANGE = 0, SEL_MR = 1;
constexpr uint64_t CAP_FLUSH_GLOBAL = 1ull << 38;

// one legacy uverbs command on @fd: 0 or the errno
template <class C> int uverbs(int fd, uint32_t command, C &c, size_t resp_words)
{
	struct {
		ib_uverbs_cmd_hdr h;
		C c;
	} m{};
	m.h.command = command;
	m.h.in_words = (uint16_t)(sizeof(m) / 4);
	m.h.out_words = (uint16_t)resp_words;
	m.c = c;
	return write(fd, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : errno;
}

class Flush : public ::testing::Test {
protected:
	void SetUp() override
	{
		ctx = open_dev();
		ASSERT_NE(ctx, nullptr);
		ibv_device_attr_ex ax{};
		ASSERT_EQ(ibv_query_device_ex(ctx, nullptr, &ax), 0);
		ASSERT_TRUE(ax.device_cap_flags_ex & CAP_FLUSH_GLOBAL)
			<< "no FLUSH_GLOBAL capability (device_cap_flags_ex bit 38)";
		ibv_port_attr pa{};
		ASSERT_EQ(ibv_query_port(ctx, 1, &pa), 0);
		mtu = pa.active_mtu;
		gi = roce_v2_gid(ctx, &gid, AF_INET);
		ASSERT_GE(gi, 0);
		pd = ibv_alloc_pd(ctx);
		ASSERT_NE(pd, nullptr);
		cq = ibv_create_cq(ctx, 64, nullptr, nullptr, 0);
		ASSERT_NE(cq, nullptr);
		// the responder
		ibv_qp_init_attr ia{};
		ia.send_cq = ia.recv_cq = cq;
		ia.qp_type = IBV_QPT_RC;
		ia.cap.max_send_wr = ia.cap.max_recv_wr = 16;
		ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
		resp = ibv_create_qp(pd, &ia);
		ASSERT_NE(resp, nullptr);
		ASSERT_NO_FATAL_FAILURE(raw_qp());
		qp_opts o;
		o.dest_qpn = qpn;
		o.mtu = mtu;
		o.rd_atomic = 4;
		o.access = IBV_ACCESS_REMOTE_WRITE | ACCESS_FLUSH_GLOBAL | ACCESS_FLUSH_PERSISTENT;
		ASSERT_EQ(qp_to(resp, IBV_QPS_RTS, gid, gi, o), 0);
		ASSERT_NO_FATAL_FAILURE(raw_to_rts());
	}
	void TearDown() override
	{
		if (ring)
			munmap(ring, ring_len);
		if (qp_handle != ~0u) {
			ib_uverbs_destroy_qp d{};
			ib_uverbs_destroy_qp_resp r{};
			d.response = (uint64_t)(uintptr_t)&r;
			d.qp_handle = qp_handle;
			EXPECT_EQ(uverbs(ctx->cmd_fd, IB_USER_VERBS_CMD_DESTROY_QP, d, sizeof(r) / 4),
				  0);
		}
		if (resp)
			ibv_destroy_qp(resp);
		for (ibv_mr *m : mrs)
			ibv_dereg_mr(m);
		for (void *b : bufs)
			free(b);
		if (cq)
			ibv_destroy_cq(cq);
		if (pd)
			ibv_dealloc_pd(pd);
		if (ctx) {
			EXPECT_EQ(ibv_close_device(ctx), 0);
		}
	}

	// the requester: CREATE_QP with this PD and CQ, its SQ ring mapped
	void raw_qp()
	{
		ib_uverbs_create_qp c{};
		struct {
			ib_uverbs_create_qp_resp core;
			rxe_create_qp_resp drv;
		} r{};
		c.response = (uint64_t)(uintptr_t)&r;
		c.pd_handle = pd->handle;
		c.send_cq_handle = c.recv_cq_handle = cq->handle;
		c.max_send_wr = 16;
		c.max_recv_wr = 1;
		c.max_send_sge = c.max_recv_sge = 1;
		c.sq_sig_all = 0;
		c.qp_type = IB_UVERBS_QPT_RC;
		ASSERT_EQ(uverbs(ctx->cmd_fd, IB_USER_VERBS_CMD_CREATE_QP, c, sizeof(r) / 4), 0)
			<< strerror(errno);
		qp_handle = r.core.qp_handle;
		qpn = r.core.qpn;
		ring_len = r.drv.sq_mi.size;
		void *a = mmap(nullptr, ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->cmd_fd,
			       (off_t)r.drv.sq_mi.offset);
		ASSERT_NE(a, MAP_FAILED) << strerror(errno);
		ring = (uint8_t *)a;
	}
	void raw_modify(ib_uverbs_modify_qp &m)
	{
		m.qp_handle = qp_handle;
		ASSERT_EQ(uverbs(ctx->cmd_fd, IB_USER_VERBS_CMD_MODIFY_QP, m, 0), 0)
			<< "MODIFY_QP to " << (int)m.qp_state << ": " << strerror(errno);
	}
	void raw_to_rts()
	{
		ib_uverbs_modify_qp m{};
		m.qp_state = IBV_QPS_INIT;
		m.attr_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
		m.port_num = 1;
		ASSERT_NO_FATAL_FAILURE(raw_modify(m));
		m = {};
		m.qp_state = IBV_QPS_RTR;
		m.attr_mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		m.dest.is_global = 1;
		m.dest.port_num = 1;
		m.dest.hop_limit = 64;
		m.dest.sgid_index = (uint8_t)gi;
		memcpy(m.dest.dgid, gid.raw, 16);
		m.path_mtu = mtu;
		m.dest_qp_num = resp->qp_num;
		m.max_dest_rd_atomic = 1;
		m.min_rnr_timer = 12;
		ASSERT_NO_FATAL_FAILURE(raw_modify(m));
		m = {};
		m.qp_state = IBV_QPS_RTS;
		m.attr_mask = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			      IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
		m.timeout = 14;
		m.retry_cnt = 7;
		m.rnr_retry = 7;
		m.max_rd_atomic = 4;
		ASSERT_NO_FATAL_FAILURE(raw_modify(m));
	}

	// a FLUSH WQE at the producer index, as librxe v45 writes it; then
	// the doorbell
	void post_flush(uint64_t wr_id, uint32_t rkey, uint64_t addr, uint32_t len, uint8_t type,
			uint8_t level)
	{
		volatile uint32_t *hdr = (volatile uint32_t *)ring;
		const uint32_t mask = hdr[1];
		const size_t slot = (size_t)1 << (hdr[0] & 31);
		volatile uint32_t *prod = hdr + 32;
		const uint32_t p = *prod & mask;
		rxe_send_wqe w;
		memset(&w, 0, sizeof(w));
		w.wr.wr_id = wr_id;
		w.wr.opcode = WR_FLUSH;
		w.wr.send_flags = IBV_SEND_SIGNALED;
		uint8_t *u = (uint8_t *)&w.wr.wr;
		memcpy(u, &addr, 8);
		memcpy(u + 8, &len, 4);
		memcpy(u + 12, &rkey, 4);
		u[16] = type;
		u[17] = level;
		w.iova = addr;
		w.dma.length = w.dma.resid = len;
		ASSERT_LE(384 + (p + 1) * slot, ring_len);
		memcpy(ring + 384 + p * slot, &w, sizeof(w));
		__atomic_store_n(prod, (p + 1) & mask, __ATOMIC_RELEASE);
		ib_uverbs_post_send d{};
		ib_uverbs_post_send_resp r{};
		d.response = (uint64_t)(uintptr_t)&r;
		d.qp_handle = qp_handle;
		// librxe's doorbell: no WR, wqe_size that of an ibv_send_wr
		d.wqe_size = sizeof(ibv_send_wr);
		ASSERT_EQ(uverbs(ctx->cmd_fd, IB_USER_VERBS_CMD_POST_SEND, d, sizeof(r) / 4), 0)
			<< "doorbell: " << strerror(errno);
	}
	ibv_mr *mr(size_t n, unsigned int access)
	{
		void *b = nullptr;
		EXPECT_EQ(posix_memalign(&b, 4096, n), 0);
		bufs.push_back(b);
		memset(b, GUARD, n);
		ibv_mr *m = ibv_reg_mr(pd, b, n, access);
		if (m)
			mrs.push_back(m);
		return m;
	}

	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	ibv_cq *cq = nullptr;
	ibv_qp *resp = nullptr;
	ibv_gid gid{};
	int gi = -1;
	ibv_mtu mtu = IBV_MTU_1024;
	uint32_t qp_handle = ~0u, qpn = 0;
	uint8_t *ring = nullptr;
	size_t ring_len = 0;
	std::vector<ibv_mr *> mrs;
	std::vector<void *> bufs;
};

// one completion of @wr_id with @status (and, for a success, opcode FLUSH)
::testing::AssertionResult completes(ibv_cq *cq, uint64_t wr_id, ibv_wc_status status)
{
	ibv_wc wc{};
	::testing::AssertionResult r = one_wc(cq, status, wr_id, &wc);
	if (r && status == IBV_WC_SUCCESS && (int)wc.opcode != WC_FLUSH)
		return ::testing::AssertionFailure() << "opcode " << wc.opcode << ", want 8";
	return r;
}

// one FLUSH to an MR of @len bytes with @access, at @off into it
struct FlushCase {
	const char *name;
	unsigned int access;
	uint64_t off;		// ~0: address 0 (selectivity MR ignores it)
	uint32_t len;
	uint8_t type, level;
	ibv_wc_status status;
};

class FlushTo : public Flush, public ::testing::WithParamInterface<FlushCase> {};

TEST_P(FlushTo, Completes)
{
	const FlushCase &c = GetParam();
	ibv_mr *m = mr(8192, c.access);
	ASSERT_NE(m, nullptr) << strerror(errno);
	uint64_t addr = c.off == ~0ull ? 0 : (uint64_t)(uintptr_t)m->addr + c.off;
	ASSERT_NO_FATAL_FAILURE(post_flush(7, m->rkey, addr, c.len, c.type, c.level));
	EXPECT_TRUE(completes(cq, 7, c.status));
}

constexpr unsigned int LW = IBV_ACCESS_LOCAL_WRITE;

INSTANTIATE_TEST_SUITE_P(
	Cases, FlushTo,
	::testing::Values(
		FlushCase{ "global_range", LW | ACCESS_FLUSH_GLOBAL, 4096, 4096, PLT_GLOBAL,
			   SEL_RANGE, IBV_WC_SUCCESS },
		// selectivity MR: the range is ignored, however long
		FlushCase{ "global_whole_region", LW | ACCESS_FLUSH_GLOBAL, ~0ull, 12345678,
			   PLT_GLOBAL, SEL_MR, IBV_WC_SUCCESS },
		FlushCase{ "beyond_the_region", LW | ACCESS_FLUSH_GLOBAL, 6144, 4096, PLT_GLOBAL,
			   SEL_RANGE, IBV_WC_REM_ACCESS_ERR },
		FlushCase{ "without_flush_access", LW | IBV_ACCESS_REMOTE_WRITE, 0, 64, PLT_GLOBAL,
			   SEL_RANGE, IBV_WC_REM_ACCESS_ERR },
		// persistence through a global-only MR
		FlushCase{ "persistent_to_global_mr", LW | ACCESS_FLUSH_GLOBAL, 0, 64,
			   PLT_PERSISTENT, SEL_RANGE, IBV_WC_REM_ACCESS_ERR }),
	[](const ::testing::TestParamInfo<FlushCase> &i) { return std::string(i.param.name); });

// persistence is not offered: no MR gets it
TEST_F(Flush, PersistentMrIsNotOffered)
{
	errno = 0;
	EXPECT_EQ(mr(4096, IBV_ACCESS_LOCAL_WRITE | ACCESS_FLUSH_PERSISTENT), nullptr);
	EXPECT_EQ(errno, EOPNOTSUPP);
}

} // namespace
