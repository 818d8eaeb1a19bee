// SPDX-License-Identifier: GPL-2.0
//
// wire_victim: the target of forged RoCEv2 packets.
//
// wire_victim PEER_IPV4 (scenario rxe-wire-spoof): on $VERBS_DEV it
// brings one RC and one UC QP to RTR with the peer at PEER_IPV4 (its QPN
// 0x77, first PSN 0), each with an MR of 4 KiB (remote write, filled with
// 0x5a) and receives posted, then prints
//   rc QPN RKEY VA
//   uc QPN RKEY VA
// and for every line "check" read from stdin one line
//   rc changed N recvs M uc changed N recvs M
// (bytes of each MR that are no longer 0x5a, receive completions polled
// so far); EOF ends it.  A packet that is not from the peer must change
// nothing.
//
// wire_victim --fuzz PEER_IPV4 (scenario rxe-wire-fuzz, wire_fuzz): live
// RC, UC and UD QPs in RTS whose memory sits inside larger buffers filled
// with a guard pattern; see fuzz_main() below.
#include "verbs_common.h"

#include <arpa/inet.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace verbs;

namespace {

struct target {
	ibv_cq *cq = nullptr;
	ibv_qp *qp = nullptr;
	ibv_mr *mr = nullptr;
	ibv_mr *rmr = nullptr;
	std::vector<uint8_t> mem = std::vector<uint8_t>(4096, 0x5a);
	std::vector<uint8_t> rbuf = std::vector<uint8_t>(8 * 256);
	int recvs = 0;
};

int setup(ibv_context *ctx, ibv_pd *pd, ibv_qp_type type, const ibv_gid &peer, int sgid,
	  target &t)
{
	t.cq = ibv_create_cq(ctx, 64, nullptr, nullptr, 0);
	t.mr = ibv_reg_mr(pd, t.mem.data(), t.mem.size(),
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	t.rmr = ibv_reg_mr(pd, t.rbuf.data(), t.rbuf.size(), IBV_ACCESS_LOCAL_WRITE);
	if (!t.cq || !t.mr || !t.rmr)
		return errno ? errno : ENOMEM;
	ibv_qp_init_attr ia = qp_init(t.cq, type, 4, 8);
	t.qp = ibv_create_qp(pd, &ia);
	if (!t.qp)
		return errno;
	qp_opts o;
	o.dest_qpn = 0x77;
	o.access = IBV_ACCESS_REMOTE_WRITE;
	if (int r = qp_to(t.qp, IBV_QPS_RTR, peer, sgid, o))
		return r;
	for (int i = 0; i < 8; i++) {
		ibv_sge sge{ (uintptr_t)(t.rbuf.data() + i * 256), 256, t.rmr->lkey };
		ibv_recv_wr wr{}, *bad = nullptr;
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		if (int r = ibv_post_recv(t.qp, &wr, &bad))
			return r;
	}
	return 0;
}

std::string report(const char *name, target &t)
{
	ibv_wc wc[8];
	int n;
	while ((n = ibv_poll_cq(t.cq, 8, wc)) > 0)
		for (int i = 0; i < n; i++)
			if (wc[i].status == IBV_WC_SUCCESS)
				t.recvs++;
	size_t changed = 0;
	for (uint8_t b : t.mem)
		changed += b != 0x5a;
	return std::string(name) + " changed " + std::to_string(changed) + " recvs " +
	       std::to_string(t.recvs);
}


/* ---- --fuzz ---- */

/*
 * A buffer of which only its windows may change; every other byte keeps a
 * guard pattern.  Windows start with a pattern of their own, so a change
 * there is seen too.
 */
struct region {
	std::string name;
	std::vector<uint8_t> buf;
	std::vector<std::pair<size_t, size_t>> wins;	/* offset, length */

	region(const std::string &n, size_t size) : name(n), buf(size) {}
	static uint8_t guard(size_t i) { return (uint8_t)(0xa5 ^ (i * 13) ^ (i >> 8)); }
	static uint8_t orig(size_t i) { return (uint8_t)(0x3c + i * 7); }
	bool in_win(size_t i) const
	{
		for (const auto &w : wins)
			if (i >= w.first && i < w.first + w.second)
				return true;
		return false;
	}
	void fill()
	{
		for (size_t i = 0; i < buf.size(); i++)
			buf[i] = in_win(i) ? orig(i) : guard(i);
	}
	uint8_t *at(size_t off) { return buf.data() + off; }
};

/* what changed in a region: guard bytes, window bytes and where */
struct damage {
	size_t guard = 0, win = 0;
	long gfirst = -1, wfirst = -1, wlast = -1;

	void scan(const region &r)
	{
		for (size_t i = 0; i < r.buf.size(); i++) {
			bool w = r.in_win(i);

			if (r.buf[i] == (w ? region::orig(i) : region::guard(i)))
				continue;
			if (w) {
				win++;
				if (wfirst < 0)
					wfirst = (long)i;
				wlast = (long)i;
			} else if (guard++ == 0) {
				gfirst = (long)i;
			}
		}
	}
};

const uint32_t FZ_PEER_QPN = 0xfffff0;	/* a QPN no rxe has: our answers die there */
const size_t FZ_MR_OFF = 1000, FZ_MR_LEN = 8200, FZ_MEM = 16384;
const size_t FZ_SLOTS = 8, FZ_SLOT = 512, FZ_GAP = 64;
const size_t FZ_RD_OFF = 2000, FZ_RD_LEN = 64;
const uint64_t FZ_RD_WRID = 0x1000;
const uint32_t FZ_QKEY = 0x11111111;

struct ftarget {
	std::string name;
	ibv_qp_type type;
	bool sentinel;
	ibv_pd *pd = nullptr;
	ibv_cq *cq = nullptr;
	ibv_qp *qp = nullptr;
	ibv_mr *mr = nullptr, *rmr = nullptr, *lmr = nullptr;
	std::unique_ptr<region> mem, recv, rd;
	bool dead = false;		/* flushed: no reposts until revived */
	bool rd_out = false;		/* the READ is outstanding */
	int recvs = 0, errs = 0, flushed = 0, reads = 0;
};

struct victim {
	ibv_context *ctx = nullptr;
	ibv_gid peer{};
	std::string peer_s;
	int sgid = -1;
	std::vector<std::unique_ptr<ftarget>> ts;
	/* memory no packet may change: an MR without remote access (on rc's
	 * PD) and one with every right on a PD no QP has */
	std::unique_ptr<region> nra, opd;
	ibv_pd *opd_pd = nullptr;
	ibv_mr *nra_mr = nullptr, *opd_mr = nullptr;
	int events = 0;

	int post_recv(ftarget &t, size_t slot)
	{
		ibv_sge sge{ (uintptr_t)t.recv->at(FZ_GAP + slot * (FZ_SLOT + FZ_GAP)),
			     (uint32_t)FZ_SLOT, t.rmr->lkey };
		ibv_recv_wr wr{}, *bad = nullptr;

		wr.wr_id = slot;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		return ibv_post_recv(t.qp, &wr, &bad);
	}
	int post_read(ftarget &t)
	{
		ibv_sge sge{ (uintptr_t)t.rd->at(FZ_RD_OFF), (uint32_t)FZ_RD_LEN, t.lmr->lkey };
		ibv_send_wr wr{}, *bad = nullptr;

		wr.wr_id = FZ_RD_WRID;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_RDMA_READ;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = 0x10000;
		wr.wr.rdma.rkey = 0x1234;
		int r = ibv_post_send(t.qp, &wr, &bad);
		if (!r)
			t.rd_out = true;
		return r;
	}
	/* RESET -> RTS with PSN 0, receives and (rc) the READ posted */
	int bring_up(ftarget &t)
	{
		qp_opts o;

		o.dest_qpn = FZ_PEER_QPN;
		o.access = t.type == IBV_QPT_RC ? IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
						  IBV_ACCESS_REMOTE_ATOMIC :
						  IBV_ACCESS_REMOTE_WRITE;
		o.qkey = FZ_QKEY;
		o.timeout = 0;		/* the peer never answers: no retries */
		o.rd_atomic = 4;
		if (int r = qp_to(t.qp, IBV_QPS_RTS, peer, sgid, o))
			return r;
		t.dead = false;
		for (size_t i = 0; i < FZ_SLOTS; i++)
			if (int r = post_recv(t, i))
				return r;
		if (t.rd)
			return post_read(t);
		return 0;
	}
	int add(const char *name, ibv_qp_type type, bool sentinel)
	{
		auto tp = std::make_unique<ftarget>();
		ftarget &t = *tp;
		int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			  IBV_ACCESS_REMOTE_ATOMIC;

		t.name = name;
		t.type = type;
		t.sentinel = sentinel;
		/* a PD each: another target's rkey is a foreign PD's */
		t.pd = ibv_alloc_pd(ctx);
		t.cq = ibv_create_cq(ctx, 64, nullptr, nullptr, 0);
		if (!t.pd || !t.cq)
			return errno ? errno : ENOMEM;
		t.recv = std::make_unique<region>(std::string(name) + ".recv",
						  FZ_GAP + FZ_SLOTS * (FZ_SLOT + FZ_GAP));
		for (size_t i = 0; i < FZ_SLOTS; i++)
			t.recv->wins.push_back({ FZ_GAP + i * (FZ_SLOT + FZ_GAP), FZ_SLOT });
		t.recv->fill();
		/* the whole buffer is registered; only the slots are posted */
		t.rmr = ibv_reg_mr(t.pd, t.recv->at(0), t.recv->buf.size(), IBV_ACCESS_LOCAL_WRITE);
		if (!t.rmr)
			return errno;
		if (type != IBV_QPT_UD) {
			t.mem = std::make_unique<region>(std::string(name) + ".mr", FZ_MEM);
			t.mem->wins.push_back({ FZ_MR_OFF, FZ_MR_LEN });
			t.mem->fill();
			t.mr = ibv_reg_mr(t.pd, t.mem->at(FZ_MR_OFF), FZ_MR_LEN, acc);
			if (!t.mr)
				return errno;
		}
		if (type == IBV_QPT_RC && !sentinel) {
			t.rd = std::make_unique<region>(std::string(name) + ".rd", 4096);
			t.rd->wins.push_back({ FZ_RD_OFF, FZ_RD_LEN });
			t.rd->fill();
			t.lmr = ibv_reg_mr(t.pd, t.rd->at(0), 4096, IBV_ACCESS_LOCAL_WRITE);
			if (!t.lmr)
				return errno;
		}
		ibv_qp_init_attr ia = qp_init(t.cq, type, 4, FZ_SLOTS);
		t.qp = ibv_create_qp(t.pd, &ia);
		if (!t.qp)
			return errno;
		if (int r = bring_up(t))
			return r;
		ts.push_back(std::move(tp));
		return 0;
	}
	void print_targets()
	{
		for (auto &tp : ts) {
			ftarget &t = *tp;

			printf("target name=%s,type=%s,qpn=%u,psn=0,mtu=1024,src=%s,mode=%s",
			       t.name.c_str(), t.type == IBV_QPT_RC ? "rc" : t.type == IBV_QPT_UC ? "uc" : "ud",
			       t.qp->qp_num, peer_s.c_str(), t.sentinel ? "sentinel" : "exposed");
			if (t.mr)
				printf(",rkey=0x%x,va=0x%llx,len=%zu", t.mr->rkey,
				       (unsigned long long)(uintptr_t)t.mem->at(FZ_MR_OFF), FZ_MR_LEN);
			if (t.type == IBV_QPT_UD)
				printf(",qkey=0x%x", FZ_QKEY);
			if (t.rd)
				printf(",rdpsn=0,rdlen=%zu", FZ_RD_LEN);
			printf("\n");
		}
		printf("badrkeys 0x%x,0x%x\nready\n", nra_mr->rkey, opd_mr->rkey);
		fflush(stdout);
	}
	/* poll completions, repost what was consumed, read async events */
	void service()
	{
		ibv_wc wc[16];
		int n;

		for (auto &tp : ts) {
			ftarget &t = *tp;

			while ((n = ibv_poll_cq(t.cq, 16, wc)) > 0) {
				for (int i = 0; i < n; i++) {
					if (wc[i].wr_id == FZ_RD_WRID) {
						t.rd_out = false;
						if (wc[i].status == IBV_WC_SUCCESS)
							t.reads++;
						else if (wc[i].status == IBV_WC_WR_FLUSH_ERR)
							t.flushed++;
						else
							t.errs++;
						continue;
					}
					if (wc[i].status == IBV_WC_SUCCESS)
						t.recvs++;
					else if (wc[i].status == IBV_WC_WR_FLUSH_ERR)
						t.flushed++;
					else
						t.errs++;
					if (wc[i].status == IBV_WC_WR_FLUSH_ERR)
						t.dead = true;
					if (!t.dead && wc[i].wr_id < FZ_SLOTS)
						post_recv(t, wc[i].wr_id);
				}
			}
		}
		ibv_async_event ev;
		int fl = fcntl(ctx->async_fd, F_GETFL);

		fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK);
		while (!ibv_get_async_event(ctx, &ev)) {
			events++;
			ibv_ack_async_event(&ev);
		}
	}
	static const char *state_name(ibv_qp *qp)
	{
		ibv_qp_attr a{};
		ibv_qp_init_attr ia{};

		if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
			return "?";
		switch (a.qp_state) {
		case IBV_QPS_RESET: return "RESET";
		case IBV_QPS_INIT: return "INIT";
		case IBV_QPS_RTR: return "RTR";
		case IBV_QPS_RTS: return "RTS";
		case IBV_QPS_SQD: return "SQD";
		case IBV_QPS_SQE: return "SQE";
		case IBV_QPS_ERR: return "ERR";
		default: return "?";
		}
	}
	void check()
	{
		size_t total = 0;

		service();
		for (auto &tp : ts) {
			ftarget &t = *tp;
			damage d;
			std::string where;

			for (region *r : { t.mem.get(), t.recv.get(), t.rd.get() }) {
				if (!r)
					continue;
				damage e;

				e.scan(*r);
				d.guard += e.guard;
				d.win += e.win;
				if (e.guard)
					where += " guard@" + r->name + "+" + std::to_string(e.gfirst);
				if (e.win)
					where += " " + r->name + "[" + std::to_string(e.wfirst) + ".." +
						 std::to_string(e.wlast) + "]";
			}
			total += d.guard;
			printf("%s guard %zu window %zu recvs %d errs %d flushed %d reads %d state %s%s\n",
			       t.name.c_str(), d.guard, d.win, t.recvs, t.errs, t.flushed, t.reads,
			       state_name(t.qp), where.c_str());
		}
		for (region *r : { nra.get(), opd.get() }) {
			damage e;

			e.scan(*r);
			total += e.guard;
			printf("%s guard %zu%s\n", r->name.c_str(), e.guard,
			       e.guard ? (" first@" + std::to_string(e.gfirst)).c_str() : "");
		}
		printf("end guard %zu events %d\n", total, events);
		fflush(stdout);
	}
	/* every exposed QP back to RTS with PSN 0 (fresh for the next round) */
	void revive()
	{
		int n = 0;

		service();
		for (auto &tp : ts) {
			ftarget &t = *tp;
			ibv_qp_attr a{};

			if (t.sentinel)
				continue;
			a.qp_state = IBV_QPS_RESET;
			if (ibv_modify_qp(t.qp, &a, IBV_QP_STATE) || bring_up(t)) {
				printf("revive %s: %s\n", t.name.c_str(), strerror(errno));
				continue;
			}
			n++;
		}
		printf("revived %d\n", n);
		fflush(stdout);
	}
	void free_all()
	{
		for (auto &tp : ts) {
			ftarget &t = *tp;

			ibv_destroy_qp(t.qp);
			for (ibv_mr *m : { t.mr, t.rmr, t.lmr })
				if (m)
					ibv_dereg_mr(m);
			ibv_destroy_cq(t.cq);
			ibv_dealloc_pd(t.pd);
		}
		ibv_dereg_mr(nra_mr);
		ibv_dereg_mr(opd_mr);
		ibv_dealloc_pd(opd_pd);
		ibv_close_device(ctx);
	}
};

/*
 * wire_victim --fuzz PEER_IPV4: on $VERBS_DEV, QPs in RTS whose peer is
 * PEER_IPV4 (QPN 0xfffff0, PSN 0; path MTU 1024), each on its own PD:
 *   rcs, ucs  sentinels: only packets from wrong addresses are aimed at
 *             them, so nothing may change (window, receives)
 *   rc, uc    exposed: packets from the peer's address too; rc has a READ
 *             of 64 bytes outstanding (responses to it are welcome)
 *   ud        exposed (UD has no peer), Q_Key 0x11111111
 * RC/UC: an MR of 8200 bytes at offset 1000 of a 16 KiB buffer (remote
 * write, read, atomic); every QP: 8 receives of 512 bytes, 64 guard
 * bytes around each, the whole buffer registered.  Besides: an MR
 * without remote access on rc's PD, and one with every right on a PD no
 * QP uses; their rkeys are printed as bad keys.  Everything outside
 * the windows (and both extra buffers entirely) must never change.
 * Prints one "target name=...,type=...,..." line per QP (wire_fuzz
 * --target takes it), "badrkeys K1,K2", "ready"; then reads commands:
 *   check    one line per QP: "NAME guard G window W recvs R errs E
 *            flushed F reads D state S [where]", one per extra buffer
 *            "NAME guard G", then "end guard TOTAL events N"
 *   revive   every exposed QP through RESET back to RTS, PSN 0,
 *            receives (and the READ) posted again: "revived N"
 * Between commands it reposts consumed receives every 20 ms.
 */
int fuzz_main(const char *peer_addr)
{
	victim v;

	v.peer.raw[10] = v.peer.raw[11] = 0xff;
	v.peer_s = peer_addr;
	if (inet_pton(AF_INET, peer_addr, v.peer.raw + 12) != 1) {
		fprintf(stderr, "wire_victim: bad address %s\n", peer_addr);
		return 2;
	}
	v.ctx = open_dev();
	if (!v.ctx) {
		fprintf(stderr, "wire_victim: cannot open %s\n", env("VERBS_DEV", "rxe0").c_str());
		return 1;
	}
	ibv_gid gid{};
	v.sgid = roce_v2_gid(v.ctx, &gid, AF_INET);
	if (v.sgid < 0) {
		fprintf(stderr, "wire_victim: no IPv4 RoCEv2 GID\n");
		return 1;
	}
	static const struct {
		const char *name;
		ibv_qp_type type;
		bool sentinel;
	} want[] = {
		{ "rcs", IBV_QPT_RC, true }, { "rc", IBV_QPT_RC, false },
		{ "ucs", IBV_QPT_UC, true }, { "uc", IBV_QPT_UC, false },
		{ "ud", IBV_QPT_UD, false },
	};
	for (const auto &w : want)
		if (int r = v.add(w.name, w.type, w.sentinel)) {
			fprintf(stderr, "wire_victim: %s: %s\n", w.name, strerror(r));
			return 1;
		}
	v.nra = std::make_unique<region>("noremote", 8192);
	v.nra->fill();
	v.nra_mr = ibv_reg_mr(v.ts[1]->pd, v.nra->at(FZ_MR_OFF), 4096, IBV_ACCESS_LOCAL_WRITE);
	v.opd = std::make_unique<region>("otherpd", 8192);
	v.opd->fill();
	v.opd_pd = ibv_alloc_pd(v.ctx);
	if (v.opd_pd)
		v.opd_mr = ibv_reg_mr(v.opd_pd, v.opd->at(FZ_MR_OFF), 4096,
				      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				      IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
	if (!v.nra_mr || !v.opd_mr) {
		fprintf(stderr, "wire_victim: extra MRs: %s\n", strerror(errno));
		return 1;
	}
	v.print_targets();

	std::string in;
	for (;;) {
		pollfd p{ 0, POLLIN, 0 };
		char buf[256];
		size_t nl;

		if (poll(&p, 1, 20) <= 0) {
			v.service();
			continue;
		}
		ssize_t n = read(0, buf, sizeof(buf));
		if (n <= 0)
			break;
		in.append(buf, (size_t)n);
		while ((nl = in.find('\n')) != std::string::npos) {
			std::string cmd = in.substr(0, nl);

			in.erase(0, nl + 1);
			if (cmd == "check")
				v.check();
			else if (cmd == "revive")
				v.revive();
			else
				printf("unknown command %s\n", cmd.c_str());
			fflush(stdout);
		}
	}
	v.free_all();
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fuzz"))
		return fuzz_main(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: wire_victim [--fuzz] PEER_IPV4\n");
		return 2;
	}
	ibv_gid peer{};
	peer.raw[10] = peer.raw[11] = 0xff;
	if (inet_pton(AF_INET, argv[1], peer.raw + 12) != 1) {
		fprintf(stderr, "wire_victim: bad address %s\n", argv[1]);
		return 2;
	}
	ibv_context *ctx = open_dev();
	if (!ctx) {
		fprintf(stderr, "wire_victim: cannot open %s\n", env("VERBS_DEV", "rxe0").c_str());
		return 1;
	}
	ibv_gid gid{};
	int sgid = roce_v2_gid(ctx, &gid, AF_INET);
	ibv_pd *pd = ibv_alloc_pd(ctx);
	if (sgid < 0 || !pd) {
		fprintf(stderr, "wire_victim: no IPv4 RoCEv2 GID or no PD\n");
		return 1;
	}
	target rc, uc;
	if (int r = setup(ctx, pd, IBV_QPT_RC, peer, sgid, rc)) {
		fprintf(stderr, "wire_victim: RC setup: %s\n", strerror(r));
		return 1;
	}
	if (int r = setup(ctx, pd, IBV_QPT_UC, peer, sgid, uc)) {
		fprintf(stderr, "wire_victim: UC setup: %s\n", strerror(r));
		return 1;
	}
	printf("rc %u %u %llu\n", rc.qp->qp_num, rc.mr->rkey,
	       (unsigned long long)(uintptr_t)rc.mem.data());
	printf("uc %u %u %llu\n", uc.qp->qp_num, uc.mr->rkey,
	       (unsigned long long)(uintptr_t)uc.mem.data());
	fflush(stdout);
	char line[64];
	while (fgets(line, sizeof(line), stdin)) {
		printf("%s %s\n", report("rc", rc).c_str(), report("uc", uc).c_str());
		fflush(stdout);
	}
	for (target *t : { &rc, &uc }) {
		ibv_destroy_qp(t->qp);
		ibv_dereg_mr(t->mr);
		ibv_dereg_mr(t->rmr);
		ibv_destroy_cq(t->cq);
	}
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
