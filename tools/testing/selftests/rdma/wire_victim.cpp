// SPDX-License-Identifier: GPL-2.0
//
// wire_victim: the target of forged RoCEv2 packets (scenario
// rxe-wire-spoof).  On $VERBS_DEV it brings one RC and one UC QP to RTR
// with the peer at PEER_IPV4 (its QPN 0x77, first PSN 0), each with an
// MR of 4 KiB (remote write, filled with 0x5a) and receives posted, then
// prints
//   rc QPN RKEY VA
//   uc QPN RKEY VA
// and for every line "check" read from stdin one line
//   rc changed N recvs M uc changed N recvs M
// (bytes of each MR that are no longer 0x5a, receive completions polled
// so far); EOF ends it.  A packet that is not from the peer must change
// nothing.
#include "verbs_common.h"

#include <arpa/inet.h>

#include <cstdio>
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

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: wire_victim PEER_IPV4\n");
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
