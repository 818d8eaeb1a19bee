// SPDX-License-Identifier: GPL-2.0
//
// verbs_churn: creates and destroys PD, comp channel, CQ, MR, SRQ, QP (to
// RTS), AH in a loop on $VERBS_DEV (default rxe0), holding one set of
// objects the whole time, until the device goes away under it.
//
//   verbs_churn MAX_SECONDS
//
// Prints "running" after the first round.  When a verb fails, it waits
// (<= 30 s) for IBV_EVENT_DEVICE_FATAL on the async fd, then checks that a
// new verb fails with EIO, frees what it holds and closes the device.  One
// summary line: "churn: rounds N first-error E fatal yes|no after EIO|E".
// Exit 0: fatal event seen and later verbs fail with EIO.  1: setup failed,
// 2: no fatal event, 3: later verb did not fail with EIO, 4: the device was
// still there after MAX_SECONDS (the loop stopped by itself).
#include "verbs_common.h"

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

using namespace verbs;

namespace {

std::atomic<bool> fatal{false};

void async_reader(ibv_context *ctx)
{
	for (;;) {
		ibv_async_event ev{};
		if (ibv_get_async_event(ctx, &ev))
			return;
		ibv_event_type t = ev.event_type;
		ibv_ack_async_event(&ev);
		if (t == IBV_EVENT_DEVICE_FATAL) {
			fatal = true;
			return;
		}
	}
}

struct Set {
	ibv_pd *pd = nullptr;
	ibv_comp_channel *ch = nullptr;
	ibv_cq *cq = nullptr;
	ibv_mr *mr = nullptr;
	ibv_srq *srq = nullptr;
	ibv_qp *qp = nullptr;
	ibv_ah *ah = nullptr;
};

char mem[1 << 16] __attribute__((aligned(4096)));

// One set of objects; returns 0 or the errno of the failing verb.
int make(ibv_context *ctx, Set &s, const ibv_gid &gid, int gi)
{
	if (!(s.pd = ibv_alloc_pd(ctx)))
		return errno;
	if (!(s.ch = ibv_create_comp_channel(ctx)))
		return errno;
	if (!(s.cq = ibv_create_cq(ctx, 16, nullptr, s.ch, 0)))
		return errno;
	if (!(s.mr = ibv_reg_mr(s.pd, mem, sizeof(mem), IBV_ACCESS_LOCAL_WRITE)))
		return errno;
	ibv_srq_init_attr sa{};
	sa.attr.max_wr = 8;
	sa.attr.max_sge = 1;
	if (!(s.srq = ibv_create_srq(s.pd, &sa)))
		return errno;
	if (!(s.qp = make_qp(s.pd, s.cq, IBV_QPT_RC)))
		return errno;
	if (int r = qp_to(s.qp, IBV_QPS_RTS, gid, gi))
		return r;
	ibv_ah_attr av = self_av(gid, gi);
	if (!(s.ah = ibv_create_ah(s.pd, &av)))
		return errno;
	return 0;
}

// Frees @s; returns the first error (0 when all went).
int drop(Set &s)
{
	int first = 0, r;
	auto note = [&](int e) { if (e && !first) first = e; };
	if (s.ah && (r = ibv_destroy_ah(s.ah)))
		note(r);
	if (s.qp && (r = ibv_destroy_qp(s.qp)))
		note(r);
	if (s.srq && (r = ibv_destroy_srq(s.srq)))
		note(r);
	if (s.mr && (r = ibv_dereg_mr(s.mr)))
		note(r);
	if (s.cq && (r = ibv_destroy_cq(s.cq)))
		note(r);
	if (s.ch && (r = ibv_destroy_comp_channel(s.ch)))
		note(r);
	if (s.pd && (r = ibv_dealloc_pd(s.pd)))
		note(r);
	s = Set{};
	return first;
}

} // namespace

int main(int argc, char **argv)
{
	int max_s = argc > 1 ? atoi(argv[1]) : 60;
	ibv_context *ctx = open_dev();
	ibv_gid gid{};
	int gi = ctx ? roce_v2_gid(ctx, &gid) : -1;
	if (gi < 0) {
		fprintf(stderr, "churn: no device or no RoCEv2 GID\n");
		return 1;
	}
	std::thread(async_reader, ctx).detach();

	Set held;
	if (int r = make(ctx, held, gid, gi)) {
		fprintf(stderr, "churn: setup: %s\n", strerror(r));
		return 1;
	}
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(max_s);
	long rounds = 0;
	int err = 0;
	while (!err && std::chrono::steady_clock::now() < end) {
		Set s;
		err = make(ctx, s, gid, gi);
		int r = drop(s);
		if (!err)
			err = r;
		if (++rounds == 1) {
			printf("running\n");
			fflush(stdout);
		}
	}
	if (!err) {
		printf("churn: rounds %ld device still there after %d s\n", rounds, max_s);
		drop(held);
		ibv_close_device(ctx);
		return 4;
	}
	for (int i = 0; i < 300 && !fatal; i++)
		usleep(100000);
	errno = 0;
	ibv_pd *pd = ibv_alloc_pd(ctx);
	int after = pd ? 0 : errno;
	printf("churn: rounds %ld first-error %s fatal %s after %s\n", rounds, strerror(err),
	       fatal ? "yes" : "no", after ? strerror(after) : "success");
	fflush(stdout);
	if (pd)
		ibv_dealloc_pd(pd);
	drop(held);
	ibv_close_device(ctx);
	if (!fatal)
		return 2;
	return after == EIO ? 0 : 3;
}
