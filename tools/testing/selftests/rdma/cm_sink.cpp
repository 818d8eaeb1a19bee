// SPDX-License-Identifier: GPL-2.0
//
// cm_sink: an rdma_cm listener for forged CM traffic (scenario
// cm-wire-fuzz, Documentation/security.rst).  It listens on ADDR:PORT in
// the TCP port space (RC connections, REQ) and the UDP one (SIDR), and
// answers what arrives the way servers do, chosen per request from a
// seeded stream: accept with a QP of its own (most), reject with private
// data, or destroy the new ID unanswered; an established connection is
// disconnected at once now and then; an ID that ends (disconnected,
// rejected, unreachable, error) is destroyed with its QP.  At most
// --max-live IDs live at once: past that it rejects.
//
//   cm_sink --addr 10.0.0.1 --port 7471 [--max-live 64] [--seed N]
//
// Runs until SIGTERM (then destroys everything and prints its counts) or
// SIGKILL (then the kernel must clean up after it).  Every event type it
// saw is counted; a line "cm_sink: listening" tells the caller it is up.
#include <arpa/inet.h>
#include <getopt.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "fuzz_rng.h"

namespace {

volatile sig_atomic_t stop;

void on_term(int) { stop = 1; }

struct conn {
	rdma_cm_id *id;
	bool qp = false;
};

struct sink {
	rdma_event_channel *ch = nullptr;
	rdma_cm_id *lis[2] = {};
	ibv_pd *pd = nullptr;
	ibv_cq *cq = nullptr;
	ibv_context *verbs = nullptr;
	std::map<rdma_cm_id *, conn> live;
	unsigned max_live = 64;
	fuzz_rng r{};
	unsigned long events[RDMA_CM_EVENT_ADDR_CHANGE + 8] = {};
	unsigned long accepted = 0, rejected = 0, dropped = 0, disconnected = 0;
	// refusals of forged parameters are the kernel's right: counted, not failures
	unsigned long accept_failed = 0, qp_failed = 0;
	unsigned long errors = 0;	// destroy failures: the only failures

	// PD and CQ of the device the first request came on (one rxe)
	bool verbs_for(rdma_cm_id *id)
	{
		if (pd)
			return id->verbs == verbs;
		verbs = id->verbs;
		pd = ibv_alloc_pd(verbs);
		cq = pd ? ibv_create_cq(verbs, 256, nullptr, nullptr, 0) : nullptr;
		return pd && cq;
	}

	void destroy(rdma_cm_id *id)
	{
		auto it = live.find(id);

		if (it != live.end() && it->second.qp)
			rdma_destroy_qp(id);
		if (it != live.end())
			live.erase(it);
		if (rdma_destroy_id(id))
			errors++;
	}

	void request(rdma_cm_id *id, const rdma_cm_event *ev)
	{
		static const char why[] = "cm_sink says no";
		bool ud = id->ps == RDMA_PS_UDP;
		unsigned pick = r.below(10);

		if (live.size() >= max_live || pick == 9 || !verbs_for(id)) {
			rejected++;
			rdma_reject(id, why, sizeof(why));
			if (rdma_destroy_id(id))
				errors++;
			return;
		}
		if (pick == 8) {	// unanswered: the peer times out
			dropped++;
			if (rdma_destroy_id(id))
				errors++;
			return;
		}
		ibv_qp_init_attr qa{};
		qa.send_cq = cq;
		qa.recv_cq = cq;
		qa.cap.max_send_wr = 2;
		qa.cap.max_recv_wr = 2;
		qa.cap.max_send_sge = 1;
		qa.cap.max_recv_sge = 1;
		qa.qp_type = ud ? IBV_QPT_UD : IBV_QPT_RC;
		live[id] = conn{ id };
		if (rdma_create_qp(id, pd, &qa)) {
			qp_failed++;
			destroy(id);
			return;
		}
		live[id].qp = true;
		rdma_conn_param cp{};
		cp.responder_resources = ev->param.conn.initiator_depth > 4 ? 4 :
					 ev->param.conn.initiator_depth;
		cp.initiator_depth = ev->param.conn.responder_resources > 4 ? 4 :
				     ev->param.conn.responder_resources;
		cp.rnr_retry_count = 7;
		if (rdma_accept(id, &cp)) {
			accept_failed++;
			destroy(id);
			return;
		}
		accepted++;
		if (ud)		// SIDR is done once answered
			destroy(id);
	}

	void event(rdma_cm_event *ev)
	{
		rdma_cm_id *id = ev->id;
		rdma_cm_event_type type = ev->event;
		rdma_cm_event copy = *ev;

		if ((size_t)type < sizeof(events) / sizeof(events[0]) && !events[type]++) {
			/* for the caller, which may SIGKILL this process */
			printf("cm_sink: first %s\n", rdma_event_str(type));
			fflush(stdout);
		}
		rdma_ack_cm_event(ev);
		switch (type) {
		case RDMA_CM_EVENT_CONNECT_REQUEST:
			request(id, &copy);
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			if (r.below(3) == 0) {
				disconnected++;
				rdma_disconnect(id);
			}
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_REJECTED:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_CONNECT_ERROR:
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
			if (live.count(id))
				destroy(id);
			break;
		default:
			break;
		}
	}

	int listen_on(int k, const char *addr, int port, rdma_port_space ps)
	{
		sockaddr_in sa{};

		sa.sin_family = AF_INET;
		sa.sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
			return -1;
		if (rdma_create_id(ch, &lis[k], nullptr, ps) ||
		    rdma_bind_addr(lis[k], (sockaddr *)&sa) || rdma_listen(lis[k], 16)) {
			fprintf(stderr, "cm_sink: listen %s:%d (%s): %s\n", addr, port,
				ps == RDMA_PS_TCP ? "tcp" : "udp", strerror(errno));
			return -1;
		}
		return 0;
	}

	void report()
	{
		printf("cm_sink: accepted %lu rejected %lu unanswered %lu disconnected %lu "
		       "accept-failed %lu qp-failed %lu destroy-errors %lu live %zu\n", accepted,
		       rejected, dropped, disconnected, accept_failed, qp_failed, errors,
		       live.size());
		printf("cm_sink: events");
		for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
			if (events[i])
				printf(" %s=%lu", rdma_event_str((rdma_cm_event_type)i), events[i]);
		printf("\n");
		fflush(stdout);
	}
};

} // namespace

int main(int argc, char **argv)
{
	static const option opts[] = {
		{ "addr", required_argument, nullptr, 'a' },
		{ "port", required_argument, nullptr, 'p' },
		{ "max-live", required_argument, nullptr, 'm' },
		{ "seed", required_argument, nullptr, 's' },
		{ nullptr, 0, nullptr, 0 },
	};
	const char *addr = nullptr;
	int port = 0, o;
	sink s;

	s.r.s = (uint64_t)getpid();
	while ((o = getopt_long(argc, argv, "", opts, nullptr)) != -1) {
		switch (o) {
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'm': s.max_live = (unsigned)atoi(optarg); break;
		case 's': s.r.s = strtoull(optarg, nullptr, 0); break;
		default:
			fprintf(stderr, "usage: cm_sink --addr A --port P [--max-live N] [--seed N]\n");
			return 2;
		}
	}
	if (!addr || port <= 0 || port > 65535) {
		fprintf(stderr, "usage: cm_sink --addr A --port P [--max-live N] [--seed N]\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	s.ch = rdma_create_event_channel();
	if (!s.ch) {
		perror("cm_sink: rdma_create_event_channel");
		return 1;
	}
	if (s.listen_on(0, addr, port, RDMA_PS_TCP) || s.listen_on(1, addr, port, RDMA_PS_UDP))
		return 1;
	printf("cm_sink: listening on %s:%d (tcp and udp port spaces), seed %" PRIu64 "\n",
	       addr, port, s.r.s);
	fflush(stdout);
	while (!stop) {
		pollfd p{ s.ch->fd, POLLIN, 0 };
		rdma_cm_event *ev;

		if (poll(&p, 1, 200) <= 0)
			continue;
		if (rdma_get_cm_event(s.ch, &ev)) {
			if (errno == EINTR)
				continue;
			perror("cm_sink: rdma_get_cm_event");
			return 1;
		}
		s.event(ev);
	}
	while (!s.live.empty())
		s.destroy(s.live.begin()->first);
	for (rdma_cm_id *l : s.lis)
		rdma_destroy_id(l);
	if (s.cq)
		ibv_destroy_cq(s.cq);
	if (s.pd)
		ibv_dealloc_pd(s.pd);
	rdma_destroy_event_channel(s.ch);
	s.report();
	return s.errors ? 1 : 0;
}
