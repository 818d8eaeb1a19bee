// SPDX-License-Identifier: GPL-2.0
//
// ucma_abi: rdma_ucm's write() ABI (version 4) spoken raw to
// /dev/infiniband/rdma_cm, without librdmacm: the device node and
// abi_version, malformed headers and lengths, unknown IDs and IDs of
// another file, GET_EVENT with O_NONBLOCK and poll(), and the event
// accounting of DESTROY_ID and MIGRATE_ID (events_reported counts what
// GET_EVENT delivered; undelivered events die with their ID).
//
// The event cases need an RDMA device with the IPv4 address UCMA_ADDR
// (e.g. 10.0.0.1 on rxe0's netdev); without it they are skipped.
//
//   UCMA_ADDR=10.0.0.1 ucma_abi [gtest options]
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_user_cm.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

const char *const DEV = "/dev/infiniband/rdma_cm";
constexpr uint32_t EV_ADDR_RESOLVED = 0;
constexpr uint32_t EV_CONNECT_REQUEST = 4;

int open_dev(int flags = 0)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC | flags);
	EXPECT_GE(fd, 0) << DEV << ": " << strerror(errno);
	return fd;
}

// One command: header, then @payload; -errno or the bytes written.
template <typename T>
long cmd(int fd, uint32_t op, T &payload, uint16_t out = 0, size_t in = sizeof(T))
{
	std::vector<uint8_t> buf(sizeof(rdma_ucm_cmd_hdr) + sizeof(T));
	rdma_ucm_cmd_hdr hdr = {op, (uint16_t)in, out};
	memcpy(buf.data(), &hdr, sizeof(hdr));
	memcpy(buf.data() + sizeof(hdr), &payload, sizeof(T));
	long r = write(fd, buf.data(), sizeof(hdr) + in);
	return r < 0 ? -errno : r;
}

long raw(int fd, const void *p, size_t len)
{
	long r = write(fd, p, len);
	return r < 0 ? -errno : r;
}

long create_id(int fd, uint64_t uid, uint32_t *id, uint16_t ps = RDMA_PS_TCP)
{
	rdma_ucm_create_id_resp resp{};
	rdma_ucm_create_id c{};
	c.uid = uid;
	c.response = (uintptr_t)&resp;
	c.ps = ps;
	long r = cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, c, sizeof(resp));
	*id = resp.id;
	return r;
}

// DESTROY_ID: -errno, or events_reported
long destroy_id(int fd, uint32_t id)
{
	rdma_ucm_destroy_id_resp resp{};
	rdma_ucm_destroy_id d{};
	d.id = id;
	d.response = (uintptr_t)&resp;
	long r = cmd(fd, RDMA_USER_CM_CMD_DESTROY_ID, d, sizeof(resp));
	return r < 0 ? r : resp.events_reported;
}

long get_event(int fd, rdma_ucm_event_resp *ev)
{
	rdma_ucm_get_event g{};
	g.response = (uintptr_t)ev;
	return cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, g, sizeof(*ev));
}

bool wait_readable(int fd, int ms)
{
	pollfd p = {fd, POLLIN, 0};
	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

const char *ucma_addr()
{
	const char *a = getenv("UCMA_ADDR");
	return a && *a ? a : nullptr;
}

// RESOLVE_IP of @id to UCMA_ADDR (port @port), legacy form
long resolve_ip(int fd, uint32_t id, uint16_t port = 0)
{
	rdma_ucm_resolve_ip r{};
	r.id = id;
	r.timeout_ms = 2000;
	auto *dst = reinterpret_cast<sockaddr_in *>(&r.dst_addr);
	dst->sin_family = AF_INET;
	dst->sin_port = htons(port);
	inet_pton(AF_INET, ucma_addr(), &dst->sin_addr);
	return cmd(fd, RDMA_USER_CM_CMD_RESOLVE_IP, r);
}

struct Fd {
	int fd;
	explicit Fd(int flags = 0) : fd(open_dev(flags)) {}
	~Fd() { if (fd >= 0) close(fd); }
};

TEST(UcmaAbi, DeviceNodeAndAbiVersion)
{
	struct stat st;
	ASSERT_EQ(stat(DEV, &st), 0) << strerror(errno);
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(st.st_mode & 0777, 0666u);
	std::ifstream f("/sys/class/misc/rdma_cm/abi_version");
	std::string v;
	ASSERT_TRUE(std::getline(f, v));
	EXPECT_EQ(v, "4");
}

TEST(UcmaAbi, MalformedHeaders)
{
	Fd f;
	uint8_t buf[512] = {};
	for (size_t len = 0; len < sizeof(rdma_ucm_cmd_hdr); len++)
		EXPECT_EQ(raw(f.fd, buf, len), -EINVAL) << "length " << len;

	rdma_ucm_cmd_hdr hdr = {23, 0, 0};
	EXPECT_EQ(raw(f.fd, &hdr, sizeof(hdr)), -EINVAL) << "command 23";
	hdr = {0xffffffffu, 0, 0};
	EXPECT_EQ(raw(f.fd, &hdr, sizeof(hdr)), -EINVAL) << "command ~0";
	// the header claims more payload than was written
	hdr = {RDMA_USER_CM_CMD_CREATE_ID, sizeof(rdma_ucm_create_id), 4};
	EXPECT_EQ(raw(f.fd, &hdr, sizeof(hdr)), -EINVAL);
	// GET_OPTION was never implemented
	hdr = {RDMA_USER_CM_CMD_GET_OPTION, 0, 0};
	EXPECT_EQ(raw(f.fd, &hdr, sizeof(hdr)), -ENOSYS);

	// a payload shorter than the command's structure
	rdma_ucm_create_id c{};
	uint32_t id = 0;
	c.response = (uintptr_t)&id;
	c.ps = RDMA_PS_TCP;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CREATE_ID, c, 4, sizeof(c) - 1), -EINVAL);
	// too little response space
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CREATE_ID, c, 3), -ENOSPC);
	// no response pointer
	c.response = 0;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CREATE_ID, c, 4), -EFAULT);
	// an unknown port space
	c.response = (uintptr_t)&id;
	c.ps = 0x1234;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CREATE_ID, c, 4), -EINVAL);
	// a response pointer nobody can write to
	c.ps = RDMA_PS_TCP;
	c.response = 8;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CREATE_ID, c, 4), -EFAULT);

	// CONNECT without the trailing ece is accepted up to the ID lookup
	rdma_ucm_connect cn{};
	cn.conn_param.valid = 1;
	cn.id = 0xfffffff0u;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CONNECT, cn, 0, offsetof(rdma_ucm_connect, ece)),
		  -ENOENT);
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_CONNECT, cn, 0, offsetof(rdma_ucm_connect, ece) - 1),
		  -EINVAL);

	// a bad address size
	rdma_ucm_bind b{};
	b.addr.ss_family = AF_INET;
	b.addr_size = sizeof(sockaddr_in6);
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_BIND, b), -EINVAL);
}

TEST(UcmaAbi, UnknownIds)
{
	Fd f;
	EXPECT_EQ(destroy_id(f.fd, 0xfffffff0u), -ENOENT);
	rdma_ucm_disconnect d{0xfffffff0u};
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_DISCONNECT, d), -ENOENT);
	rdma_ucm_query_addr_resp qr{};
	rdma_ucm_query q{};
	q.response = (uintptr_t)&qr;
	q.id = 0xfffffff0u;
	q.option = RDMA_USER_CM_QUERY_ADDR;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_QUERY, q, sizeof(qr)), -ENOENT);
	rdma_ucm_destroy_id leave{};
	rdma_ucm_destroy_id_resp lr{};
	leave.response = (uintptr_t)&lr;
	leave.id = 12345;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_LEAVE_MCAST, leave, sizeof(lr)), -ENOENT);
}

TEST(UcmaAbi, CreateQueryDestroy)
{
	Fd f;
	uint32_t id;
	ASSERT_GT(create_id(f.fd, 0x1111, &id), 0);
	// an unbound ID: no device, no addresses (librdmacm's AF_IB probe)
	rdma_ucm_query_addr_resp qr;
	memset(&qr, 0xa5, sizeof(qr));
	rdma_ucm_query q{};
	q.response = (uintptr_t)&qr;
	q.id = id;
	q.option = RDMA_USER_CM_QUERY_ADDR;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_QUERY, q, sizeof(qr)),
		  (long)(sizeof(rdma_ucm_cmd_hdr) + sizeof(q)));
	EXPECT_EQ(qr.node_guid, 0u);
	q.option = 7;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_QUERY, q, sizeof(qr)), -ENOSYS);
	// an option of the wrong length, an unknown one
	int one = 1;
	rdma_ucm_set_option so{};
	so.optval = (uintptr_t)&one;
	so.id = id;
	so.level = RDMA_OPTION_ID;
	so.optname = RDMA_OPTION_ID_REUSEADDR;
	so.optlen = 2;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_SET_OPTION, so), -EINVAL);
	so.optlen = sizeof(one);
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_SET_OPTION, so), (long)(8 + sizeof(so)));
	so.optname = 99;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_SET_OPTION, so), -ENOSYS);
	// a device-bound command on an unbound ID
	rdma_ucm_disconnect d{id};
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_DISCONNECT, d), -EINVAL);
	EXPECT_EQ(destroy_id(f.fd, id), 0);
	EXPECT_EQ(destroy_id(f.fd, id), -ENOENT);
}

TEST(UcmaAbi, IdOfAnotherFile)
{
	Fd a, b;
	uint32_t id;
	ASSERT_GT(create_id(a.fd, 0x2222, &id), 0);
	EXPECT_EQ(destroy_id(b.fd, id), -EINVAL);
	rdma_ucm_listen l{id, 4};
	EXPECT_EQ(cmd(b.fd, RDMA_USER_CM_CMD_LISTEN, l), -EINVAL);
	EXPECT_EQ(destroy_id(a.fd, id), 0);
}

TEST(UcmaAbi, GetEventNonblock)
{
	Fd f(O_NONBLOCK);
	rdma_ucm_event_resp ev{};
	EXPECT_EQ(get_event(f.fd, &ev), -EAGAIN);
	EXPECT_FALSE(wait_readable(f.fd, 0));
	// response space below the event's minimum
	rdma_ucm_get_event g{};
	g.response = (uintptr_t)&ev;
	EXPECT_EQ(cmd(f.fd, RDMA_USER_CM_CMD_GET_EVENT, g, 100), -ENOSPC);
}

// An ID of @fd with ADDR_RESOLVED queued (not fetched).
uint32_t resolved_id(int fd, uint64_t uid)
{
	uint32_t id = 0;
	EXPECT_GT(create_id(fd, uid, &id), 0);
	EXPECT_GT(resolve_ip(fd, id), 0);
	EXPECT_TRUE(wait_readable(fd, 10000)) << "no event within 10 s";
	return id;
}

TEST(UcmaAbi, DestroyCountsEvents)
{
	if (!ucma_addr())
		GTEST_SKIP() << "UCMA_ADDR not set";
	Fd f(O_NONBLOCK);
	rdma_ucm_event_resp ev{};

	// undelivered: not counted, and gone with the ID
	uint32_t id = resolved_id(f.fd, 0x3333);
	EXPECT_EQ(destroy_id(f.fd, id), 0);
	EXPECT_EQ(get_event(f.fd, &ev), -EAGAIN);

	// delivered: counted
	id = resolved_id(f.fd, 0x4444);
	ASSERT_GT(get_event(f.fd, &ev), 0);
	EXPECT_EQ(ev.uid, 0x4444u);
	EXPECT_EQ(ev.id, id);
	EXPECT_EQ(ev.event, EV_ADDR_RESOLVED);
	EXPECT_EQ((int)ev.status, 0);
	// the ID has its device now: QUERY_ROUTE names it
	rdma_ucm_query_route_resp qr{};
	rdma_ucm_query q{};
	q.response = (uintptr_t)&qr;
	q.id = id;
	EXPECT_GT(cmd(f.fd, RDMA_USER_CM_CMD_QUERY_ROUTE, q, sizeof(qr)), 0);
	EXPECT_NE(qr.node_guid, 0u);
	EXPECT_EQ(destroy_id(f.fd, id), 1);
}

TEST(UcmaAbi, MigrateMovesEvents)
{
	if (!ucma_addr())
		GTEST_SKIP() << "UCMA_ADDR not set";
	Fd a(O_NONBLOCK), b(O_NONBLOCK);
	rdma_ucm_event_resp ev{};
	uint32_t id = resolved_id(a.fd, 0x5555);

	rdma_ucm_migrate_resp mr{};
	rdma_ucm_migrate_id m{};
	m.response = (uintptr_t)&mr;
	m.id = id;
	m.fd = (uint32_t)a.fd;
	ASSERT_GT(cmd(b.fd, RDMA_USER_CM_CMD_MIGRATE_ID, m, sizeof(mr)), 0);
	EXPECT_EQ(mr.events_reported, 0u);
	EXPECT_EQ(get_event(a.fd, &ev), -EAGAIN) << "the event stayed behind";
	ASSERT_GT(get_event(b.fd, &ev), 0);
	EXPECT_EQ(ev.id, id);
	EXPECT_EQ(destroy_id(a.fd, id), -EINVAL) << "the old file still owns it";
	EXPECT_EQ(destroy_id(b.fd, id), 1);
	// migrating from something that is not an rdma_cm file
	m.fd = 0;
	EXPECT_EQ(cmd(b.fd, RDMA_USER_CM_CMD_MIGRATE_ID, m, sizeof(mr)), -EINVAL);
}

// An ID of @fd connecting to UCMA_ADDR:@port (a REQ for a QP number
// nobody has); its ADDR_RESOLVED and ROUTE_RESOLVED are delivered.
uint32_t connect_to(int fd, uint64_t uid, uint16_t port)
{
	rdma_ucm_event_resp ev{};
	uint32_t id = 0;
	EXPECT_GT(create_id(fd, uid, &id), 0);
	EXPECT_GT(resolve_ip(fd, id, port), 0);
	EXPECT_TRUE(wait_readable(fd, 10000));
	EXPECT_GT(get_event(fd, &ev), 0);
	EXPECT_EQ(ev.event, EV_ADDR_RESOLVED) << "status " << (int)ev.status;
	rdma_ucm_resolve_route rr{id, 2000};
	EXPECT_GT(cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ROUTE, rr), 0);
	EXPECT_TRUE(wait_readable(fd, 10000));
	EXPECT_GT(get_event(fd, &ev), 0);
	EXPECT_EQ(ev.event, 2u) << "ROUTE_RESOLVED; status " << (int)ev.status;
	rdma_ucm_connect cn{};
	cn.id = id;
	cn.conn_param.valid = 1;
	cn.conn_param.qp_num = 0x123;
	cn.conn_param.retry_count = 7;
	cn.conn_param.rnr_retry_count = 7;
	EXPECT_GT(cmd(fd, RDMA_USER_CM_CMD_CONNECT, cn), 0);
	return id;
}

TEST(UcmaAbi, ListenerTakesPendingRequestsAlong)
{
	if (!ucma_addr())
		GTEST_SKIP() << "UCMA_ADDR not set";
	Fd srv(O_NONBLOCK), cli(O_NONBLOCK), cli2(O_NONBLOCK);
	const uint16_t port = 18999;

	uint32_t lid;
	ASSERT_GT(create_id(srv.fd, 0x6666, &lid), 0);
	rdma_ucm_bind_ip b{};
	b.id = lid;
	auto *sin = reinterpret_cast<sockaddr_in *>(&b.addr);
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	inet_pton(AF_INET, ucma_addr(), &sin->sin_addr);
	ASSERT_GT(cmd(srv.fd, RDMA_USER_CM_CMD_BIND_IP, b), 0);
	rdma_ucm_listen l{lid, 2};
	ASSERT_GT(cmd(srv.fd, RDMA_USER_CM_CMD_LISTEN, l), 0);

	// the request: uid of the listener, id of a new ID; the new ID is
	// usable, and refuses the request
	uint32_t c1 = connect_to(cli.fd, 0x7777, port);
	ASSERT_TRUE(wait_readable(srv.fd, 20000)) << "no CONNECT_REQUEST";
	rdma_ucm_event_resp req{};
	ASSERT_GT(get_event(srv.fd, &req), 0);
	EXPECT_EQ(req.event, EV_CONNECT_REQUEST);
	EXPECT_EQ(req.uid, 0x6666u);
	EXPECT_NE(req.id, lid);
	rdma_ucm_reject rj{};
	rj.id = req.id;
	EXPECT_GT(cmd(srv.fd, RDMA_USER_CM_CMD_REJECT, rj), 0);
	EXPECT_EQ(destroy_id(srv.fd, req.id), 0);

	// a second request, left undelivered: its new ID is not reachable
	// yet, and goes with the listener, which counts only the first
	uint32_t c2 = connect_to(cli2.fd, 0x8888, port);
	ASSERT_TRUE(wait_readable(srv.fd, 20000)) << "no second CONNECT_REQUEST";
	for (uint32_t i = 0; i < 64; i++) {
		if (i != lid) {
			EXPECT_LT(destroy_id(srv.fd, i), 0) << "ID " << i << " destroyed";
		}
	}
	EXPECT_EQ(destroy_id(srv.fd, lid), 1);
	EXPECT_EQ(get_event(srv.fd, &req), -EAGAIN);
	EXPECT_GE(destroy_id(cli.fd, c1), 2);
	EXPECT_GE(destroy_id(cli2.fd, c2), 2);
}

TEST(UcmaAbi, CloseWithLiveIds)
{
	int fd = open_dev();
	uint32_t id;
	for (int i = 0; i < 8; i++)
		ASSERT_GT(create_id(fd, 0x8000 + i, &id), 0);
	if (ucma_addr())
		resolved_id(fd, 0x9000);
	EXPECT_EQ(close(fd), 0);
}

} // namespace
