// SPDX-License-Identifier: GPL-2.0
//
// cm_events: rdma_cm events that take a setup to see, through librdmacm
// (scenario ucma; Documentation/core/rdma_ucm.rst, rdma_cm.rst).
//
//   cm_events backlog ADDR PORT
//   cm_events addr-change ADDR PORT NETDEV
//   cm_events addr-change-disconnect ADDR PORT NETDEV
//
// backlog: the backlog counts connection requests queued to the listener
// and not yet read by rdma_get_cm_event().  A listener with backlog 1 that
// has not read its first request refuses the second silently: no REJ goes
// back, so the second client sees no event and its ib_cm sends the REQ
// again; once the listener reads the first request, the retried second one
// is queued too.  Both are accepted and both clients see ESTABLISHED; the
// second never sees REJECTED.  (Upstream 6.1 behaves so: the rdma_ucm
// handler answers ENOMEM, which ib_cm takes as "drop, do not reject".)
//
// addr-change: a connection on ADDR (both ends on NETDEV's device) and
// the listener; NETDEV's MAC is changed ("ip link set NETDEV address"):
// the client's ID, the server's and the listener each get
// RDMA_CM_EVENT_ADDR_CHANGE once; setting the MAC back (the one the IDs
// remember) brings none.  addr-change-disconnect then disconnects over
// the same connection: the client's DREQ reaches the server's ID
// (DISCONNECTED), whose own rdma_disconnect answers with the DREP that is
// the client's DISCONNECTED.
//
// Exit 0 when all of that held; the first broken expectation is printed.
#include <arpa/inet.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

const char *addr;
int port;

[[noreturn]] void fail(const char *what)
{
	printf("cm_events: FAIL: %s (errno %d %s)\n", what, errno, strerror(errno));
	exit(1);
}

// the next event on @ch within @ms (acked; its type, id and listen id kept)
struct ev {
	rdma_cm_event_type type;
	rdma_cm_id *id;
	int status;
};

bool next_event(rdma_event_channel *ch, int ms, ev *out)
{
	pollfd p{ ch->fd, POLLIN, 0 };
	rdma_cm_event *e;

	if (poll(&p, 1, ms) <= 0)
		return false;
	if (rdma_get_cm_event(ch, &e))
		fail("rdma_get_cm_event");
	*out = ev{ e->event, e->id, e->status };
	rdma_ack_cm_event(e);
	return true;
}

ev expect(rdma_event_channel *ch, rdma_cm_event_type want, int ms, const char *who)
{
	ev e;
	char m[160];

	if (!next_event(ch, ms, &e)) {
		snprintf(m, sizeof(m), "%s: no %s within %d ms", who, rdma_event_str(want), ms);
		fail(m);
	}
	if (e.type != want) {
		snprintf(m, sizeof(m), "%s: %s (status %d), expected %s", who,
			 rdma_event_str(e.type), e.status, rdma_event_str(want));
		fail(m);
	}
	return e;
}

sockaddr_in sa()
{
	sockaddr_in s{};

	s.sin_family = AF_INET;
	s.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &s.sin_addr) != 1)
		fail("bad address");
	return s;
}

struct client {
	rdma_event_channel *ch;
	rdma_cm_id *id;
	ibv_pd *pd;
	ibv_cq *cq;
};

// a client with its own channel, resolved and with a QP, not connected
client client_new(const char *who)
{
	client c{};
	sockaddr_in dst = sa();
	ibv_qp_init_attr qa{};

	c.ch = rdma_create_event_channel();
	if (!c.ch || rdma_create_id(c.ch, &c.id, nullptr, RDMA_PS_TCP))
		fail("client id");
	if (rdma_resolve_addr(c.id, nullptr, (sockaddr *)&dst, 2000))
		fail("rdma_resolve_addr");
	expect(c.ch, RDMA_CM_EVENT_ADDR_RESOLVED, 5000, who);
	if (rdma_resolve_route(c.id, 2000))
		fail("rdma_resolve_route");
	expect(c.ch, RDMA_CM_EVENT_ROUTE_RESOLVED, 5000, who);
	c.pd = ibv_alloc_pd(c.id->verbs);
	c.cq = c.pd ? ibv_create_cq(c.id->verbs, 4, nullptr, nullptr, 0) : nullptr;
	qa.send_cq = qa.recv_cq = c.cq;
	qa.cap.max_send_wr = qa.cap.max_recv_wr = 1;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	qa.qp_type = IBV_QPT_RC;
	if (!c.cq || rdma_create_qp(c.id, c.pd, &qa))
		fail("client QP");
	return c;
}

void client_connect(client &c)
{
	rdma_conn_param p{};

	p.retry_count = 3;
	p.rnr_retry_count = 3;
	if (rdma_connect(c.id, &p))
		fail("rdma_connect");
}

void client_free(client &c)
{
	rdma_destroy_qp(c.id);
	rdma_destroy_id(c.id);
	ibv_destroy_cq(c.cq);
	ibv_dealloc_pd(c.pd);
	rdma_destroy_event_channel(c.ch);
}

// the server's side of a request: a QP of its own, accepted
void accept_req(rdma_cm_id *id, ibv_pd **pd, ibv_cq **cq)
{
	ibv_qp_init_attr qa{};
	rdma_conn_param p{};

	if (!*pd) {
		*pd = ibv_alloc_pd(id->verbs);
		*cq = *pd ? ibv_create_cq(id->verbs, 8, nullptr, nullptr, 0) : nullptr;
	}
	qa.send_cq = qa.recv_cq = *cq;
	qa.cap.max_send_wr = qa.cap.max_recv_wr = 1;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	qa.qp_type = IBV_QPT_RC;
	p.rnr_retry_count = 3;
	if (!*cq || rdma_create_qp(id, *pd, &qa) || rdma_accept(id, &p))
		fail("server accept");
}

// a listener on ADDR:PORT with @backlog, its PD and CQ made on first use
struct server {
	rdma_event_channel *ch;
	rdma_cm_id *lis;
	ibv_pd *pd = nullptr;
	ibv_cq *cq = nullptr;
};

server server_new(int backlog)
{
	server s{};
	sockaddr_in me = sa();

	s.ch = rdma_create_event_channel();
	if (!s.ch || rdma_create_id(s.ch, &s.lis, nullptr, RDMA_PS_TCP) ||
	    rdma_bind_addr(s.lis, (sockaddr *)&me) || rdma_listen(s.lis, backlog))
		fail("listen");
	return s;
}

void server_free(server &s, std::initializer_list<rdma_cm_id *> ids)
{
	for (rdma_cm_id *id : ids) {
		rdma_destroy_qp(id);
		rdma_destroy_id(id);
	}
	rdma_destroy_id(s.lis);
	if (s.cq)
		ibv_destroy_cq(s.cq);
	if (s.pd)
		ibv_dealloc_pd(s.pd);
	rdma_destroy_event_channel(s.ch);
}

int backlog()
{
	server s = server_new(1);
	ev e;

	client a = client_new("client A"), b = client_new("client B");

	// A's request fills the backlog: the listener does not read it yet
	client_connect(a);
	pollfd p{ s.ch->fd, POLLIN, 0 };
	if (poll(&p, 1, 5000) <= 0)
		fail("the listener got no request from A");
	auto t0 = std::chrono::steady_clock::now();
	client_connect(b);
	// B: no answer at all while the backlog is full (no REJ)
	if (next_event(b.ch, 2500, &e)) {
		printf("cm_events: backlog: FAIL: client B got %s (status %d) while the backlog was full\n",
		       rdma_event_str(e.type), e.status);
		return 1;
	}
	printf("cm_events: backlog: B got no event in 2.5 s while the backlog was full\n");

	// read A's request: room again; B's resent REQ arrives later
	ev ra = expect(s.ch, RDMA_CM_EVENT_CONNECT_REQUEST, 1000, "listener (A)");
	ev rb = expect(s.ch, RDMA_CM_EVENT_CONNECT_REQUEST, 30000, "listener (B, resent)");
	double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("cm_events: backlog: B's request reached the listener %.1f s after B connected\n",
	       secs);
	accept_req(ra.id, &s.pd, &s.cq);
	accept_req(rb.id, &s.pd, &s.cq);
	expect(a.ch, RDMA_CM_EVENT_ESTABLISHED, 10000, "client A");
	expect(b.ch, RDMA_CM_EVENT_ESTABLISHED, 10000, "client B");
	// the server side is ESTABLISHED too, each once
	expect(s.ch, RDMA_CM_EVENT_ESTABLISHED, 10000, "listener's first ID");
	expect(s.ch, RDMA_CM_EVENT_ESTABLISHED, 10000, "listener's second ID");

	rdma_disconnect(a.id);
	rdma_disconnect(b.id);
	client_free(a);
	client_free(b);
	server_free(s, { ra.id, rb.id });
	printf("cm_events: backlog: ok\n");
	return 0;
}

void set_mac(const char *netdev, const char *mac)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "ip link set dev %s address %s", netdev, mac);
	if (system(cmd))
		fail(cmd);
}

int addr_change(const char *netdev, bool disconnect)
{
	server s = server_new(4);
	client c = client_new("client");
	char old[32] = "", path[96];
	FILE *f;
	ev e;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", netdev);
	f = fopen(path, "r");
	if (!f || !fgets(old, sizeof(old), f))
		fail("read the netdev's MAC");
	fclose(f);
	old[strcspn(old, "\n")] = 0;

	client_connect(c);
	ev r = expect(s.ch, RDMA_CM_EVENT_CONNECT_REQUEST, 5000, "listener");
	accept_req(r.id, &s.pd, &s.cq);
	expect(c.ch, RDMA_CM_EVENT_ESTABLISHED, 10000, "client");
	expect(s.ch, RDMA_CM_EVENT_ESTABLISHED, 10000, "server's ID");

	set_mac(netdev, "52:54:00:aa:bb:cc");
	expect(c.ch, RDMA_CM_EVENT_ADDR_CHANGE, 5000, "client");
	// the server's channel: its connection's ID and the listener, once each
	bool conn = false, lis = false;
	for (int i = 0; i < 2; i++) {
		ev x = expect(s.ch, RDMA_CM_EVENT_ADDR_CHANGE, 5000, "server side");
		if (x.id == r.id && !conn)
			conn = true;
		else if (x.id == s.lis && !lis)
			lis = true;
		else
			fail("ADDR_CHANGE twice for one ID, or for an unknown one");
	}
	printf("cm_events: addr-change: the client, the server's ID and the listener heard it\n");

	// back to the MAC the IDs remember: nothing to report
	set_mac(netdev, old);
	if (next_event(c.ch, 1500, &e) || next_event(s.ch, 500, &e)) {
		printf("cm_events: addr-change: FAIL: %s after the MAC went back\n",
		       rdma_event_str(e.type));
		return 1;
	}
	if (!disconnect) {
		printf("cm_events: addr-change: ok\n");
		return 0;	// the IDs go with the process
	}
	// the client's DREQ is DISCONNECTED for the server's ID; the DREP
	// goes back when that side disconnects too, which is the client's
	// DISCONNECTED (without it the client waits for its DREQ to time out)
	if (rdma_disconnect(c.id))
		fail("rdma_disconnect after the MAC flap");
	expect(s.ch, RDMA_CM_EVENT_DISCONNECTED, 10000, "server's ID");
	if (rdma_disconnect(r.id))
		fail("the server's rdma_disconnect after the DREQ");
	expect(c.ch, RDMA_CM_EVENT_DISCONNECTED, 10000, "client");
	client_free(c);
	server_free(s, { r.id });
	printf("cm_events: addr-change: ok\n");
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc >= 4) {
		addr = argv[2];
		port = atoi(argv[3]);
	}
	if (argc == 4 && !strcmp(argv[1], "backlog"))
		return backlog();
	if (argc == 5 && !strcmp(argv[1], "addr-change"))
		return addr_change(argv[4], false);
	if (argc == 5 && !strcmp(argv[1], "addr-change-disconnect"))
		return addr_change(argv[4], true);
	fprintf(stderr, "usage: cm_events backlog ADDR PORT\n"
			"       cm_events addr-change[-disconnect] ADDR PORT NETDEV\n");
	return 2;
}
