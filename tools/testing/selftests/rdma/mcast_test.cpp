// SPDX-License-Identifier: GPL-2.0
//
// mcast: multicast of UD QPs through libibverbs (ibv_attach_mcast,
// ibv_detach_mcast) on one device, Documentation/rxe/multicast.rst.
//
//   VERBS_DEV=rxe0 MCAST_NETDEV=veth0 mcast
//
// Several UD QPs attached to one IPv4 group each receive one datagram
// sent to it, byte for byte; a detached QP or one with another Q_Key gets
// nothing; RC QPs and unicast GIDs are refused (EINVAL); attaching twice
// is accepted once, detaching twice is EINVAL; one group under two LIDs
// is two attachments of one membership; a QP with attachments
// cannot be destroyed (EBUSY); unsignaled sends still arrive when their
// AH and QP are destroyed right after posting; a process that dies with attachments
// leaves no group on the netdev; malformed raw commands get their errno.
#include "verbs_common.h"

#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr uint32_t kMcastQpn = 0xffffff;
constexpr uint32_t kQkey = 0x1234abcd;
constexpr size_t kGrh = 40;
constexpr size_t kLen = 777;	// not a multiple of 4: the pad bytes too

// ::ffff:239.77.x.y, x.y given
ibv_gid group(uint8_t x, uint8_t y)
{
	ibv_gid g{};
	g.raw[10] = 0xff;
	g.raw[11] = 0xff;
	g.raw[12] = 239;
	g.raw[13] = 77;
	g.raw[14] = x;
	g.raw[15] = y;
	return g;
}

// "01005e4dXXYY": the group's Ethernet address as /proc/net/dev_mcast shows it
std::string group_mac(const ibv_gid &g)
{
	char s[13];
	snprintf(s, sizeof(s), "01005e%02x%02x%02x", g.raw[13] & 0x7f, g.raw[14], g.raw[15]);
	return s;
}

bool netdev_has_mac(const std::string &mac)
{
	std::ifstream f("/proc/net/dev_mcast");
	std::string line, dev = verbs::env("MCAST_NETDEV", "veth0");
	while (std::getline(f, line))
		if (line.find(" " + dev + " ") != std::string::npos &&
		    line.find(mac) != std::string::npos)
			return true;
	return false;
}

bool wait_mac(const std::string &mac, bool present, int ms = 3000)
{
	for (int i = 0; i < ms / 50; i++) {
		if (netdev_has_mac(mac) == present)
			return true;
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
	}
	return netdev_has_mac(mac) == present;
}

// One UD QP with its own CQ and a registered receive buffer.
struct UdQp {
	ibv_cq *cq = nullptr;
	ibv_qp *qp = nullptr;
	ibv_mr *mr = nullptr;
	std::vector<uint8_t> buf = std::vector<uint8_t>(kGrh + kLen + 64);

	bool make(ibv_context *ctx, ibv_pd *pd, const ibv_gid &gid, int sgid, uint32_t qkey,
		  ibv_qp_type type = IBV_QPT_UD)
	{
		cq = ibv_create_cq(ctx, 16, nullptr, nullptr, 0);
		if (!cq)
			return false;
		qp = verbs::make_qp(pd, cq, type);
		mr = ibv_reg_mr(pd, buf.data(), buf.size(), IBV_ACCESS_LOCAL_WRITE);
		if (!qp || !mr)
			return false;
		verbs::qp_opts o;
		o.qkey = qkey;
		return verbs::qp_to(qp, IBV_QPS_RTS, gid, sgid, o) == 0;
	}
	int post_recv()
	{
		ibv_sge sge{(uintptr_t)buf.data(), (uint32_t)buf.size(), mr->lkey};
		ibv_recv_wr wr{}, *bad;
		wr.wr_id = 7;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		return ibv_post_recv(qp, &wr, &bad);
	}
	// completions (success or not) within @ms, or until @want came and
	// then @linger ms more (a duplicate would show)
	std::vector<ibv_wc> poll(int ms, size_t want = SIZE_MAX, int linger = 100)
	{
		std::vector<ibv_wc> out;
		auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
		while (std::chrono::steady_clock::now() < end) {
			ibv_wc wc{};
			if (ibv_poll_cq(cq, 1, &wc) == 1) {
				out.push_back(wc);
				if (out.size() == want) {
					auto l = std::chrono::steady_clock::now() +
						 std::chrono::milliseconds(linger);
					end = std::min(end, l);
				}
			} else {
				std::this_thread::sleep_for(std::chrono::milliseconds(2));
			}
		}
		return out;
	}
	void destroy()
	{
		if (qp) {
			EXPECT_EQ(ibv_destroy_qp(qp), 0);
		}
		if (mr)
			ibv_dereg_mr(mr);
		if (cq)
			ibv_destroy_cq(cq);
		qp = nullptr;
		mr = nullptr;
		cq = nullptr;
	}
};

class Mcast : public ::testing::Test {
protected:
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	ibv_gid gid{};
	int sgid = -1;
	UdQp sender;
	std::vector<uint8_t> payload = std::vector<uint8_t>(kLen);
	ibv_mr *smr = nullptr;

	void SetUp() override
	{
		ctx = verbs::open_dev();
		ASSERT_NE(ctx, nullptr) << "no device " << verbs::env("VERBS_DEV", "rxe0");
		pd = ibv_alloc_pd(ctx);
		ASSERT_NE(pd, nullptr);
		sgid = verbs::roce_v2_gid(ctx, &gid, AF_INET);
		ASSERT_GE(sgid, 0) << "no IPv4 RoCEv2 GID";
		ASSERT_TRUE(sender.make(ctx, pd, gid, sgid, kQkey));
		for (size_t i = 0; i < kLen; i++)
			payload[i] = (uint8_t)(i * 31 + 7);
		smr = ibv_reg_mr(pd, payload.data(), payload.size(), 0);
		ASSERT_NE(smr, nullptr);
	}
	void TearDown() override
	{
		sender.destroy();
		if (smr)
			ibv_dereg_mr(smr);
		if (pd)
			ibv_dealloc_pd(pd);
		if (ctx)
			ibv_close_device(ctx);
	}
	// one datagram of the payload to @mgid (multicast QPN), completed
	void send_to(const ibv_gid &mgid, uint32_t qkey = kQkey)
	{
		ibv_ah_attr av = verbs::self_av(mgid, sgid);
		ibv_ah *ah = ibv_create_ah(pd, &av);
		ASSERT_NE(ah, nullptr) << errno;
		ibv_sge sge{(uintptr_t)payload.data(), (uint32_t)kLen, smr->lkey};
		ibv_send_wr wr{}, *bad;
		wr.wr_id = 1;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = kMcastQpn;
		wr.wr.ud.remote_qkey = qkey;
		ASSERT_EQ(ibv_post_send(sender.qp, &wr, &bad), 0);
		auto wcs = sender.poll(5000, 1, 0);
		ASSERT_EQ(wcs.size(), 1u);
		EXPECT_EQ(wcs[0].status, IBV_WC_SUCCESS);
		EXPECT_EQ(ibv_destroy_ah(ah), 0);
	}
	// @q got exactly one datagram: the payload, byte for byte
	void expect_one(UdQp &q, int ms = 5000)
	{
		auto wcs = q.poll(ms, 1);
		ASSERT_EQ(wcs.size(), 1u) << "QP " << q.qp->qp_num;
		EXPECT_EQ(wcs[0].status, IBV_WC_SUCCESS);
		EXPECT_EQ(wcs[0].opcode, IBV_WC_RECV);
		EXPECT_EQ(wcs[0].byte_len, kGrh + kLen);
		EXPECT_EQ(wcs[0].src_qp, sender.qp->qp_num);
		EXPECT_TRUE(wcs[0].wc_flags & IBV_WC_GRH);
		EXPECT_EQ(memcmp(q.buf.data() + kGrh, payload.data(), kLen), 0);
	}
};

TEST_F(Mcast, AttachedQpsEachReceiveOneCopy)
{
	const ibv_gid mg = group(1, 1);
	UdQp r[3];
	for (auto &q : r) {
		ASSERT_TRUE(q.make(ctx, pd, gid, sgid, kQkey));
		ASSERT_EQ(q.post_recv(), 0);
		ASSERT_EQ(q.post_recv(), 0);	// a second one must stay unused
		ASSERT_EQ(ibv_attach_mcast(q.qp, &mg, 0), 0);
	}
	ASSERT_TRUE(wait_mac(group_mac(mg), true)) << "netdev did not join " << group_mac(mg);
	std::this_thread::sleep_for(std::chrono::milliseconds(200));	// the IP join
	send_to(mg);
	for (auto &q : r)
		expect_one(q);
	for (auto &q : r) {
		EXPECT_EQ(ibv_detach_mcast(q.qp, &mg, 0), 0);
		q.destroy();
	}
	EXPECT_TRUE(wait_mac(group_mac(mg), false)) << "group left on the netdev";
}

TEST_F(Mcast, DetachedOrOtherQkeyGetsNothing)
{
	const ibv_gid mg = group(1, 2);
	UdQp stay, gone, other;
	ASSERT_TRUE(stay.make(ctx, pd, gid, sgid, kQkey));
	ASSERT_TRUE(gone.make(ctx, pd, gid, sgid, kQkey));
	ASSERT_TRUE(other.make(ctx, pd, gid, sgid, kQkey + 1));
	for (UdQp *q : {&stay, &gone, &other}) {
		ASSERT_EQ(q->post_recv(), 0);
		ASSERT_EQ(ibv_attach_mcast(q->qp, &mg, 0), 0);
	}
	ASSERT_EQ(ibv_detach_mcast(gone.qp, &mg, 0), 0);
	ASSERT_TRUE(wait_mac(group_mac(mg), true));
	std::this_thread::sleep_for(std::chrono::milliseconds(200));
	send_to(mg);
	expect_one(stay);
	EXPECT_TRUE(gone.poll(300).empty()) << "a detached QP received";
	EXPECT_TRUE(other.poll(1).empty()) << "a QP with another Q_Key received";
	EXPECT_EQ(ibv_detach_mcast(stay.qp, &mg, 0), 0);
	EXPECT_EQ(ibv_detach_mcast(other.qp, &mg, 0), 0);
	stay.destroy();
	gone.destroy();
	other.destroy();
}

TEST_F(Mcast, RefusedQpTypesAndGids)
{
	const ibv_gid mg = group(1, 3);
	UdQp rc, ud;
	ASSERT_TRUE(rc.make(ctx, pd, gid, sgid, kQkey, IBV_QPT_RC));
	EXPECT_EQ(ibv_attach_mcast(rc.qp, &mg, 0), EINVAL);
	ASSERT_TRUE(ud.make(ctx, pd, gid, sgid, kQkey));
	// the device's own unicast GID is no group
	EXPECT_EQ(ibv_attach_mcast(ud.qp, &gid, 0), EINVAL);
	EXPECT_EQ(ibv_detach_mcast(ud.qp, &mg, 0), EINVAL) << "detach of what is not attached";
	rc.destroy();
	ud.destroy();
}

TEST_F(Mcast, AttachTwiceDetachTwice)
{
	const ibv_gid mg = group(1, 4);
	UdQp q;
	ASSERT_TRUE(q.make(ctx, pd, gid, sgid, kQkey));
	ASSERT_EQ(q.post_recv(), 0);
	EXPECT_EQ(ibv_attach_mcast(q.qp, &mg, 0), 0);
	EXPECT_EQ(ibv_attach_mcast(q.qp, &mg, 0), 0);
	EXPECT_EQ(ibv_detach_mcast(q.qp, &mg, 0), 0);
	EXPECT_EQ(ibv_detach_mcast(q.qp, &mg, 0), EINVAL);
	// one detach undid both attaches
	EXPECT_TRUE(wait_mac(group_mac(mg), false));
	send_to(mg);
	EXPECT_TRUE(q.poll(300).empty());
	q.destroy();	// no attachment left: destroy works
}

// The LID means nothing on RoCE, but (MGID, LID) is what uverbs attaches:
// two LIDs are two attachments, each undone by its own detach, and the QP
// stays in the group (receives) until the last one.  A driver that counted
// one would refuse the second detach and leave the QP undestroyable.
TEST_F(Mcast, TwoLidsTwoAttachments)
{
	const ibv_gid mg = group(1, 8);
	UdQp q;
	ASSERT_TRUE(q.make(ctx, pd, gid, sgid, kQkey));
	ASSERT_EQ(q.post_recv(), 0);
	ASSERT_EQ(ibv_attach_mcast(q.qp, &mg, 1), 0);
	ASSERT_EQ(ibv_attach_mcast(q.qp, &mg, 2), 0);
	ASSERT_EQ(ibv_detach_mcast(q.qp, &mg, 1), 0);
	EXPECT_EQ(ibv_detach_mcast(q.qp, &mg, 1), EINVAL);
	EXPECT_EQ(ibv_destroy_qp(q.qp), EBUSY) << "LID 2 is still attached";
	ASSERT_TRUE(wait_mac(group_mac(mg), true));
	std::this_thread::sleep_for(std::chrono::milliseconds(200));
	send_to(mg);
	expect_one(q);
	EXPECT_EQ(ibv_detach_mcast(q.qp, &mg, 2), 0);
	EXPECT_TRUE(wait_mac(group_mac(mg), false));
	q.destroy();	// no attachment left: destroy works
}

TEST_F(Mcast, DestroyWhileAttachedIsBusy)
{
	const ibv_gid mg = group(1, 5);
	UdQp q;
	ASSERT_TRUE(q.make(ctx, pd, gid, sgid, kQkey));
	ASSERT_EQ(ibv_attach_mcast(q.qp, &mg, 0), 0);
	EXPECT_EQ(ibv_destroy_qp(q.qp), EBUSY);
	// the QP still works after the refused destroy
	ASSERT_EQ(q.post_recv(), 0);
	ASSERT_TRUE(wait_mac(group_mac(mg), true));
	std::this_thread::sleep_for(std::chrono::milliseconds(200));
	send_to(mg);
	expect_one(q);
	EXPECT_EQ(ibv_detach_mcast(q.qp, &mg, 0), 0);
	q.destroy();
}

// mckey's sender: a member of the group itself, unsignaled sends to it,
// then detached and its AH and QP destroyed at once (no completion waited for); every datagram still
// arrives, byte for byte: the destroys let the doorbells' queued look run
// first (Documentation/rxe/datapath.rst).  Without the drain this fails
// in a 2-CPU guest (seen), not always in a 1-CPU one, where the work item
// may run between the posts and the destroys.
TEST_F(Mcast, SendsBeforeDestroyArrive)
{
	constexpr int kSends = 12;
	const ibv_gid mg = group(1, 7);
	UdQp r, tx;
	ASSERT_TRUE(r.make(ctx, pd, gid, sgid, kQkey));
	for (int i = 0; i < kSends; i++)
		ASSERT_EQ(r.post_recv(), 0) << i;
	ASSERT_EQ(ibv_attach_mcast(r.qp, &mg, 0), 0);
	ASSERT_TRUE(wait_mac(group_mac(mg), true));
	std::this_thread::sleep_for(std::chrono::milliseconds(200));
	ASSERT_TRUE(tx.make(ctx, pd, gid, sgid, kQkey));
	ASSERT_EQ(ibv_attach_mcast(tx.qp, &mg, 0), 0);	// a member too, no receives
	ibv_ah_attr av = verbs::self_av(mg, sgid);
	ibv_ah *ah = ibv_create_ah(pd, &av);
	ASSERT_NE(ah, nullptr) << errno;
	ibv_sge sge{(uintptr_t)payload.data(), (uint32_t)kLen, smr->lkey};
	ibv_send_wr wr{}, *bad;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = kMcastQpn;
	wr.wr.ud.remote_qkey = kQkey;
	for (int i = 0; i < kSends; i++) {
		wr.wr_id = (uint64_t)i;
		ASSERT_EQ(ibv_post_send(tx.qp, &wr, &bad), 0) << i;
	}
	EXPECT_EQ(ibv_detach_mcast(tx.qp, &mg, 0), 0);
	EXPECT_EQ(ibv_destroy_ah(ah), 0);
	tx.destroy();
	auto wcs = r.poll(5000, kSends);
	ASSERT_EQ(wcs.size(), (size_t)kSends) << "datagrams posted before the destroy were lost";
	for (const ibv_wc &wc : wcs) {
		EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
		EXPECT_EQ(wc.byte_len, kGrh + kLen);
	}
	// every receive landed in the one buffer, each the same payload
	EXPECT_EQ(memcmp(r.buf.data() + kGrh, payload.data(), kLen), 0);
	EXPECT_EQ(ibv_detach_mcast(r.qp, &mg, 0), 0);
	r.destroy();
}

// A process that dies with a QP attached: teardown detaches, the netdev
// leaves the group.
TEST_F(Mcast, ProcessDeathDetaches)
{
	const ibv_gid mg = group(1, 6);
	int p[2];
	ASSERT_EQ(pipe(p), 0);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		UdQp q;
		ibv_context *c = verbs::open_dev();
		ibv_pd *cpd = c ? ibv_alloc_pd(c) : nullptr;
		char ok = cpd && q.make(c, cpd, gid, sgid, kQkey) &&
			  !ibv_attach_mcast(q.qp, &mg, 0) ? 'y' : 'n';
		(void)!write(p[1], &ok, 1);
		pause();	// killed here, attached
		_exit(0);
	}
	close(p[1]);
	char ok = 0;
	ASSERT_EQ(read(p[0], &ok, 1), 1);
	close(p[0]);
	EXPECT_EQ(ok, 'y');
	EXPECT_TRUE(wait_mac(group_mac(mg), true));
	kill(pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	EXPECT_TRUE(wait_mac(group_mac(mg), false)) << "group stayed after the process died";
}

// Raw commands: unknown handle, wrong length, short request.
TEST_F(Mcast, RawCommandErrors)
{
	const ibv_gid mg = group(1, 7);
	struct {
		ib_uverbs_cmd_hdr hdr;
		ib_uverbs_attach_mcast cmd;
	} r{};
	static_assert(sizeof(r) == 32);
	memcpy(r.cmd.gid, mg.raw, 16);
	r.cmd.qp_handle = 0x7fffff;
	r.hdr.command = IB_USER_VERBS_CMD_ATTACH_MCAST;
	r.hdr.in_words = sizeof(r) / 4;
	errno = 0;
	EXPECT_EQ(write(ctx->cmd_fd, &r, sizeof(r)), -1);
	EXPECT_EQ(errno, EINVAL) << "unknown QP handle";
	r.hdr.command = IB_USER_VERBS_CMD_DETACH_MCAST;
	errno = 0;
	EXPECT_EQ(write(ctx->cmd_fd, &r, sizeof(r)), -1);
	EXPECT_EQ(errno, EINVAL) << "unknown QP handle (detach)";
	// in_words not the length written
	r.hdr.in_words = sizeof(r) / 4 + 1;
	errno = 0;
	EXPECT_EQ(write(ctx->cmd_fd, &r, sizeof(r)), -1);
	EXPECT_EQ(errno, EINVAL) << "length mismatch";
	// shorter than the request
	r.hdr.in_words = 4;
	errno = 0;
	EXPECT_EQ(write(ctx->cmd_fd, &r, 16), -1);
	EXPECT_EQ(errno, ENOSPC) << "short request";
}

} // namespace

int main(int argc, char **argv)
{
	::testing::InitGoogleTest(&argc, argv);
	return RUN_ALL_TESTS();
}
