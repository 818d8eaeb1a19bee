// SPDX-License-Identifier: GPL-2.0
//
// uverbs_abi: the uverbs char device as libibverbs and raw write()s see it.
//
//   UVERBS_ABI_DEV=rxe0 UVERBS_ABI_NETDEV=veth0 UVERBS_ABI_PEER=veth1 uverbs_abi
//
// Needs an RDMA device on a veth pair (the scenario uverbs-discovery sets
// it up).  The events test takes the peer down and up; the removal test
// deletes the device ("rdma link delete") and so runs last.  Set
// UVERBS_ABI_UPSTREAM=1 against upstream's modules: ours-only checks are
// skipped and the removal test records what happens instead of failing.
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace {

std::string env(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

bool upstream() { return env("UVERBS_ABI_UPSTREAM", "0") == "1"; }

// Runs a shell command; true when it exited 0.
bool sh(const std::string &cmd)
{
	int st = system(cmd.c_str());
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

// The named device, opened.
struct Device {
	ibv_context *ctx = nullptr;
	std::string uverbs;	// "uverbs0"

	Device()
	{
		int n = 0;
		ibv_device **list = ibv_get_device_list(&n);
		std::string want = env("UVERBS_ABI_DEV", "rxe0");
		for (int i = 0; list && i < n; i++)
			if (want == ibv_get_device_name(list[i])) {
				ctx = ibv_open_device(list[i]);
				uverbs = list[i]->dev_name;
			}
		if (list)
			ibv_free_device_list(list);
	}
	~Device()
	{
		if (ctx)
			ibv_close_device(ctx);
	}
	std::string path() const { return "/dev/infiniband/" + uverbs; }
};

// A write() of @len bytes of @buf; returns errno, or 0 when it wrote len.
int write_err(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);
	if (n < 0)
		return errno;
	return n == (ssize_t)len ? 0 : -1;
}

template <typename Req>
struct LegacyCmd {
	ib_uverbs_cmd_hdr hdr;
	Req req;
} __attribute__((packed));

struct ExQueryDevice {
	ib_uverbs_cmd_hdr hdr;
	ib_uverbs_ex_cmd_hdr ex;
	ib_uverbs_ex_query_device req;
} __attribute__((packed));

// A legacy command whose core request starts with the response pointer.
template <typename Req, typename Resp>
LegacyCmd<Req> legacy_cmd(uint32_t command, Resp *resp)
{
	LegacyCmd<Req> c{};
	c.hdr.command = command;
	c.hdr.in_words = sizeof(c) / 4;
	c.hdr.out_words = sizeof(Resp) / 4;
	c.req.response = (uintptr_t)resp;
	return c;
}

LegacyCmd<ib_uverbs_query_device> query_device_cmd(ib_uverbs_query_device_resp *resp)
{
	return legacy_cmd<ib_uverbs_query_device>(IB_USER_VERBS_CMD_QUERY_DEVICE, resp);
}

LegacyCmd<ib_uverbs_get_context> get_context_cmd(ib_uverbs_get_context_resp *resp)
{
	return legacy_cmd<ib_uverbs_get_context>(IB_USER_VERBS_CMD_GET_CONTEXT, resp);
}

LegacyCmd<ib_uverbs_query_port> query_port_cmd(ib_uverbs_query_port_resp *resp,
					       uint8_t port)
{
	auto c = legacy_cmd<ib_uverbs_query_port>(IB_USER_VERBS_CMD_QUERY_PORT, resp);
	c.req.port_num = port;
	return c;
}

ExQueryDevice ex_query_device_cmd(void *resp, size_t resp_len)
{
	ExQueryDevice c{};
	c.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_QUERY_DEVICE;
	c.hdr.in_words = sizeof(c.req) / 8;
	c.hdr.out_words = (uint16_t)(resp_len / 8);
	c.ex.response = (uintptr_t)resp;
	return c;
}

// Waits up to @ms for the async fd to become readable, then reads one event.
bool next_async_event(ibv_context *ctx, ibv_async_event *ev, int ms)
{
	pollfd p{};
	p.fd = ctx->async_fd;
	p.events = POLLIN;
	if (poll(&p, 1, ms) != 1 || !(p.revents & POLLIN))
		return false;
	return ibv_get_async_event(ctx, ev) == 0;
}

// Waits (up to 20 s) for an async event of @type, acking whatever comes.
bool wait_async_event(ibv_context *ctx, ibv_event_type type)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (std::chrono::steady_clock::now() < end) {
		ibv_async_event ev{};
		if (!next_async_event(ctx, &ev, 1000))
			continue;
		ibv_event_type got = ev.event_type;
		ibv_ack_async_event(&ev);
		printf("  async event %s\n", ibv_event_type_str(got));
		if (got == type)
			return true;
	}
	return false;
}

class Uverbs : public ::testing::Test {
protected:
	void SetUp() override
	{
		ASSERT_NE(dev.ctx, nullptr) << "cannot open " << env("UVERBS_ABI_DEV", "rxe0");
		fd = dev.ctx->cmd_fd;
	}
	Device dev;
	int fd = -1;
};

TEST_F(Uverbs, AsyncFdIsACloexecFd)
{
	int flags = fcntl(dev.ctx->async_fd, F_GETFD);
	ASSERT_GE(flags, 0);
	EXPECT_TRUE(flags & FD_CLOEXEC);
	EXPECT_NE(dev.ctx->async_fd, fd);
	EXPECT_GE(dev.ctx->num_comp_vectors, 1);
}

TEST_F(Uverbs, CharDeviceMatchesSysfs)
{
	struct stat st {};
	ASSERT_EQ(stat(dev.path().c_str(), &st), 0);
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(major(st.st_rdev), 231u);
	EXPECT_GE(minor(st.st_rdev), 192u);
	EXPECT_EQ(st.st_mode & 0777, 0666u);
}

TEST_F(Uverbs, InWordsNotMatchingLength)
{
	ib_uverbs_query_device_resp resp{};
	auto c = query_device_cmd(&resp);
	c.hdr.in_words++;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
	EXPECT_EQ(write_err(fd, &c, 4), EINVAL);	// shorter than a header
}

TEST_F(Uverbs, ShortCoreRequest)
{
	ib_uverbs_query_port_resp resp{};
	auto c = query_port_cmd(&resp, 1);
	c.hdr.in_words = 4;	// header + 8 bytes, the request needs 16
	EXPECT_EQ(write_err(fd, &c, 16), ENOSPC);
}

TEST_F(Uverbs, ShortResponse)
{
	ib_uverbs_query_device_resp resp{};
	auto c = query_device_cmd(&resp);
	c.hdr.out_words = 10;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), ENOSPC);
}

TEST_F(Uverbs, UnknownCommand)
{
	ib_uverbs_query_device_resp resp{};
	auto c = query_device_cmd(&resp);
	c.hdr.command = 0x7e;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EOPNOTSUPP);
	c.hdr.command = 0x100;	// bits outside the command mask
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
	c.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | 0x7e;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EOPNOTSUPP);
}

TEST_F(Uverbs, QueryDeviceMatchesLibrary)
{
	ib_uverbs_query_device_resp resp{};
	auto c = query_device_cmd(&resp);
	ASSERT_EQ(write_err(fd, &c, sizeof(c)), 0);
	ibv_device_attr attr{};
	ASSERT_EQ(ibv_query_device(dev.ctx, &attr), 0);
	EXPECT_EQ(resp.max_qp, (uint32_t)attr.max_qp);
	EXPECT_EQ(resp.vendor_id, attr.vendor_id);
	EXPECT_EQ(resp.phys_port_cnt, attr.phys_port_cnt);
	EXPECT_EQ(resp.node_guid, attr.node_guid);
}

TEST_F(Uverbs, ExQueryDevice)
{
	std::vector<uint64_t> buf(64, ~0ULL);
	auto *resp = reinterpret_cast<ib_uverbs_ex_query_device_resp *>(buf.data());
	auto c = ex_query_device_cmd(resp, sizeof(*resp));
	ASSERT_EQ(write_err(fd, &c, sizeof(c)), 0);
	EXPECT_EQ(resp->response_length, sizeof(*resp));
	EXPECT_EQ(resp->comp_mask, 0u);

	// a response space ending at response_length is enough
	std::fill(buf.begin(), buf.end(), ~0ULL);
	size_t small = offsetof(ib_uverbs_ex_query_device_resp, odp_caps);
	c = ex_query_device_cmd(resp, small);
	ASSERT_EQ(write_err(fd, &c, sizeof(c)), 0);
	EXPECT_EQ(resp->response_length, small);
	EXPECT_EQ(buf[small / 8], ~0ULL) << "wrote past the response space";

	c = ex_query_device_cmd(resp, sizeof(*resp));
	c.ex.cmd_hdr_reserved = 1;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
	c = ex_query_device_cmd(resp, sizeof(*resp));
	c.req.comp_mask = 1;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
	c = ex_query_device_cmd(resp, sizeof(*resp));
	c.req.reserved = 1;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
	c = ex_query_device_cmd(resp, sizeof(*resp));
	c.hdr.in_words = 2;	// length no longer matches
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
	c = ex_query_device_cmd(nullptr, 0);	// no response pointer, no space: fine
	c.ex.response = 0;
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), 0);
	c.hdr.out_words = 38;	// space without a pointer
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
}

TEST_F(Uverbs, SecondGetContext)
{
	ib_uverbs_get_context_resp resp{};
	auto c = get_context_cmd(&resp);
	EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL);
}

TEST_F(Uverbs, FreshFile)
{
	int raw = open(dev.path().c_str(), O_RDWR | O_CLOEXEC);
	ASSERT_GE(raw, 0);
	ib_uverbs_query_device_resp qd{};
	auto q = query_device_cmd(&qd);
	EXPECT_EQ(write_err(raw, &q, sizeof(q)), EINVAL) << "command before GET_CONTEXT";

	ib_uverbs_get_context_resp resp{};
	auto c = get_context_cmd(&resp);
	ASSERT_EQ(write_err(raw, &c, sizeof(c)), 0);
	int async = (int)resp.async_fd;
	EXPECT_GE(resp.num_comp_vectors, 1u);
	EXPECT_GE(fcntl(async, F_GETFD), 0);
	EXPECT_EQ(write_err(raw, &c, sizeof(c)), EINVAL) << "second GET_CONTEXT";
	EXPECT_EQ(write_err(raw, &q, sizeof(q)), 0);
	EXPECT_EQ(qd.phys_port_cnt, 1);

	// nothing queued: a non-blocking read says so
	ib_uverbs_async_event_desc desc{};
	ASSERT_EQ(fcntl(async, F_SETFL, O_NONBLOCK), 0);
	EXPECT_EQ(read(async, &desc, sizeof(desc)), -1);
	EXPECT_EQ(errno, EAGAIN);
	// ours refuses a short buffer at once; upstream only once an event is queued
	if (!upstream()) {
		EXPECT_EQ(read(async, &desc, 4), -1);
		EXPECT_EQ(errno, EINVAL);
	}
	close(async);
	close(raw);
}

// One RDMA_VERBS_IOCTL of @obj/@method with @attrs (written back into
// @attrs, as the kernel does); returns errno, or 0.
int verbs_ioctl(int fd, uint16_t obj, uint16_t method, std::vector<ib_uverbs_attr> &attrs,
		uint32_t driver_id = 14 /* RDMA_DRIVER_RXE */, int extra_len = 0)
{
	// the header, then the attributes (8-byte aligned, as the kernel reads them)
	std::vector<uint64_t> buf((sizeof(ib_uverbs_ioctl_hdr) + 8 * sizeof(ib_uverbs_attr)) / 8);
	auto *hdr = (ib_uverbs_ioctl_hdr *)buf.data();
	auto *at = (ib_uverbs_attr *)(hdr + 1);
	if (attrs.size() > 8)
		return -1;
	hdr->length = (uint16_t)(sizeof(*hdr) + attrs.size() * sizeof(ib_uverbs_attr) + extra_len);
	hdr->object_id = obj;
	hdr->method_id = method;
	hdr->num_attrs = (uint16_t)attrs.size();
	hdr->driver_id = driver_id;
	memcpy(at, attrs.data(), attrs.size() * sizeof(ib_uverbs_attr));
	errno = 0;
	int rc = ioctl(fd, RDMA_VERBS_IOCTL, hdr);
	int err = rc ? errno : 0;
	memcpy(attrs.data(), at, attrs.size() * sizeof(ib_uverbs_attr));
	return err;
}

ib_uverbs_attr attr(uint16_t id, uint16_t len, uint64_t data,
		    uint16_t flags = UVERBS_ATTR_F_MANDATORY)
{
	ib_uverbs_attr a{};
	a.attr_id = id;
	a.len = len;
	a.flags = flags;
	a.data = data;
	return a;
}

// QUERY_GID_ENTRY of port 1, @index into @e, as libibverbs builds it
std::vector<ib_uverbs_attr> gid_entry_attrs(uint32_t index, ib_uverbs_gid_entry *e,
					    uint32_t port = 1)
{
	return {attr(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8, port),
		attr(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8, index),
		attr(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 0),
		attr(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, sizeof(*e), (uintptr_t)e)};
}

std::string sysfs_line(const std::string &path)
{
	std::ifstream f(path);
	std::string line;
	if (!std::getline(f, line))
		return "";
	return line;
}

// ioctl() serves the GID queries and nothing else: every other method is
// EPROTONOSUPPORT (libibverbs' INVOKE_WRITE probe and GET_CONTEXT then
// stay on write()), another ioctl number ENOTTY
TEST_F(Uverbs, IoctlServesGidQueriesOnly)
{
	if (upstream())
		GTEST_SKIP() << "upstream implements the whole ioctl ABI";
	std::vector<ib_uverbs_attr> probe = {
		attr(UVERBS_ATTR_WRITE_CMD, 8, IB_USER_VERBS_CMD_QUERY_DEVICE)};
	EXPECT_EQ(verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, probe),
		  EPROTONOSUPPORT);
	std::vector<ib_uverbs_attr> none;
	for (uint16_t m : {UVERBS_METHOD_GET_CONTEXT, UVERBS_METHOD_QUERY_PORT,
			   UVERBS_METHOD_QUERY_CONTEXT, UVERBS_METHOD_INFO_HANDLES})
		EXPECT_EQ(verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, m, none), EPROTONOSUPPORT) << m;
	EXPECT_EQ(verbs_ioctl(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, none),
		  EPROTONOSUPPORT);
	ib_uverbs_ioctl_hdr hdr{};
	hdr.length = sizeof(hdr);
	errno = 0;
	EXPECT_EQ(ioctl(fd, _IOWR(RDMA_IOCTL_MAGIC, 2, ib_uverbs_ioctl_hdr), &hdr), -1);
	EXPECT_EQ(errno, ENOTTY);
}

// QUERY_GID_ENTRY says what sysfs says: the GID, its type, its netdev's
// ifindex; ENODATA for an empty entry
TEST_F(Uverbs, IoctlGidEntryMatchesSysfs)
{
	std::string ports = "/sys/class/infiniband/" + env("UVERBS_ABI_DEV", "rxe0") + "/ports/1/";
	int found = 0, last = -1;
	for (uint32_t i = 0; i < 8; i++) {
		ib_uverbs_gid_entry e{};
		auto a = gid_entry_attrs(i, &e);
		int err = verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, a);
		std::string gid = sysfs_line(ports + "gids/" + std::to_string(i));
		if (gid == "0000:0000:0000:0000:0000:0000:0000:0000") {
			EXPECT_EQ(err, ENODATA) << "empty entry " << i;
			continue;
		}
		ASSERT_EQ(err, 0) << "entry " << i;
		found++;
		last = (int)i;
		EXPECT_TRUE(a[3].flags & UVERBS_ATTR_F_VALID_OUTPUT);
		char text[40];
		const uint8_t *g = (const uint8_t *)e.gid;
		snprintf(text, sizeof(text),
			 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
			 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11],
			 g[12], g[13], g[14], g[15]);
		EXPECT_EQ(gid, text) << "entry " << i;
		EXPECT_EQ(e.gid_index, i);
		EXPECT_EQ(e.port_num, 1u);
		std::string type = sysfs_line(ports + "gid_attrs/types/" + std::to_string(i));
		EXPECT_EQ(e.gid_type, type == "RoCE v2" ? (uint32_t)IB_UVERBS_GID_TYPE_ROCE_V2
							: (uint32_t)IB_UVERBS_GID_TYPE_ROCE_V1)
			<< type;
		std::string ndev = sysfs_line(ports + "gid_attrs/ndevs/" + std::to_string(i));
		EXPECT_EQ(e.netdev_ifindex, if_nametoindex(ndev.c_str())) << ndev;
	}
	ASSERT_GE(found, 2) << "the link-local GID in both types at least";

	// and the library's verbs take this path now: the same answers
	ibv_gid_entry ge{};
	ASSERT_EQ(ibv_query_gid_ex(dev.ctx, 1, last, &ge, 0), 0);
	EXPECT_EQ(ge.gid_index, (uint32_t)last);
}

// (entry 0, the default GID, is always there)
TEST_F(Uverbs, IoctlGidEntryRefusals)
{
	ib_uverbs_gid_entry e{};
	auto run = [&](std::vector<ib_uverbs_attr> a, uint32_t drv = 14) {
		return verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, a, drv);
	};
	EXPECT_EQ(run(gid_entry_attrs(0, &e, 0)), EINVAL) << "port 0";
	EXPECT_EQ(run(gid_entry_attrs(0, &e, 2)), EINVAL) << "port 2";
	EXPECT_EQ(run(gid_entry_attrs(1u << 20, &e)), EINVAL) << "index past the table";
	auto a = gid_entry_attrs(0, &e);
	a[2].data = 1;
	EXPECT_EQ(run(a), EINVAL) << "flags";
	a = gid_entry_attrs(0, &e);
	a[3].len = 16;
	EXPECT_EQ(run(a), EINVAL) << "short entry buffer";
	a = gid_entry_attrs(0, &e);
	a.pop_back();
	EXPECT_EQ(run(a), EINVAL) << "no entry buffer";
	a = gid_entry_attrs(0, &e);
	a[3].data = 8;	// an unmapped address
	EXPECT_EQ(run(a), EFAULT);
	EXPECT_EQ(run(gid_entry_attrs(0, &e), 99), EINVAL) << "another driver's id";
	a = gid_entry_attrs(0, &e);
	a.push_back(attr(0x40, 8, 0));
	EXPECT_EQ(run(a), EPROTONOSUPPORT) << "unknown mandatory attribute";
	a.back().flags = 0;
	EXPECT_EQ(run(a), 0) << "unknown optional attribute";
	a = gid_entry_attrs(0, &e);
	EXPECT_EQ(verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, a, 14, 16),
		  EINVAL) << "length not matching num_attrs";

	// a file without a context answers nothing
	int raw = open(dev.path().c_str(), O_RDWR | O_CLOEXEC);
	ASSERT_GE(raw, 0);
	a = gid_entry_attrs(0, &e);
	EXPECT_EQ(verbs_ioctl(raw, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, a), EINVAL);
	close(raw);
}

// QUERY_GID_TABLE (ibv_query_gid_table) lists what QUERY_GID_ENTRY finds
TEST_F(Uverbs, IoctlGidTable)
{
	ibv_port_attr pa{};
	ASSERT_EQ(ibv_query_port(dev.ctx, 1, &pa), 0);
	std::vector<ibv_gid_entry> want;
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		ibv_gid_entry ge{};
		if (ibv_query_gid_ex(dev.ctx, 1, i, &ge, 0) == 0)
			want.push_back(ge);
	}
	ASSERT_GE(want.size(), 2u);
	std::vector<ibv_gid_entry> got(want.size() + 4);
	ssize_t n = ibv_query_gid_table(dev.ctx, got.data(), got.size(), 0);
	ASSERT_EQ(n, (ssize_t)want.size());
	for (size_t i = 0; i < want.size(); i++) {
		EXPECT_EQ(memcmp(&got[i].gid, &want[i].gid, sizeof(got[i].gid)), 0) << i;
		EXPECT_EQ(got[i].gid_index, want[i].gid_index);
		EXPECT_EQ(got[i].gid_type, want[i].gid_type);
		EXPECT_EQ(got[i].ndev_ifindex, want[i].ndev_ifindex);
	}
	// one entry too few: the call fails, nothing half done
	EXPECT_LT(ibv_query_gid_table(dev.ctx, got.data(), want.size() - 1, 0), 0);

	// a 16-byte stride: each entry cut to its GID
	std::vector<uint8_t> buf(16 * (want.size() + 1), 0xee);
	uint64_t num = 0;
	std::vector<ib_uverbs_attr> a = {
		attr(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, 16),
		attr(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, (uint16_t)buf.size(), (uintptr_t)buf.data()),
		attr(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8, (uintptr_t)&num)};
	ASSERT_EQ(verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, a), 0);
	ASSERT_EQ(num, want.size());
	for (size_t i = 0; i < want.size(); i++)
		EXPECT_EQ(memcmp(&buf[16 * i], &want[i].gid, 16), 0) << i;
	EXPECT_EQ(buf[16 * want.size()], 0xee) << "written past the entries";
	a[1].len = 17;	// not a whole number of entries
	EXPECT_EQ(verbs_ioctl(fd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, a), EINVAL);
}

TEST_F(Uverbs, QueryPort)
{
	ibv_port_attr attr{};
	ASSERT_EQ(ibv_query_port(dev.ctx, 1, &attr), 0);
	EXPECT_EQ(attr.link_layer, IBV_LINK_LAYER_ETHERNET);
	EXPECT_EQ(attr.gid_tbl_len, 1024);
	EXPECT_NE(ibv_query_port(dev.ctx, 0, &attr), 0);
	EXPECT_NE(ibv_query_port(dev.ctx, 2, &attr), 0);

	ib_uverbs_query_port_resp resp{};
	for (uint8_t port : {0, 2, 255}) {
		auto c = query_port_cmd(&resp, port);
		EXPECT_EQ(write_err(fd, &c, sizeof(c)), EINVAL) << "port " << int(port);
	}
	auto c = query_port_cmd(&resp, 1);
	ASSERT_EQ(write_err(fd, &c, sizeof(c)), 0);
	EXPECT_EQ(resp.link_layer, IBV_LINK_LAYER_ETHERNET);
}

TEST_F(Uverbs, PortEvents)
{
	std::string peer = env("UVERBS_ABI_PEER", "veth1");
	ibv_port_attr attr{};
	ASSERT_EQ(ibv_query_port(dev.ctx, 1, &attr), 0);
	ASSERT_EQ(attr.state, IBV_PORT_ACTIVE) << "the test starts with the port up";

	ASSERT_TRUE(sh("ip link set " + peer + " down"));
	EXPECT_TRUE(wait_async_event(dev.ctx, IBV_EVENT_PORT_ERR));
	ASSERT_EQ(ibv_query_port(dev.ctx, 1, &attr), 0);
	EXPECT_EQ(attr.state, IBV_PORT_DOWN);

	ASSERT_TRUE(sh("ip link set " + peer + " up"));
	EXPECT_TRUE(wait_async_event(dev.ctx, IBV_EVENT_PORT_ACTIVE));
	ASSERT_EQ(ibv_query_port(dev.ctx, 1, &attr), 0);
	EXPECT_EQ(attr.state, IBV_PORT_ACTIVE);
}

// Last: deletes the device.  Ours must not wait for the open context.
TEST_F(Uverbs, ZzDeviceRemovalWithOpenContext)
{
	std::string name = env("UVERBS_ABI_DEV", "rxe0");
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		execlp("rdma", "rdma", "link", "delete", name.c_str(), (char *)nullptr);
		_exit(127);
	}
	int status = 0;
	bool done = false;
	/*
	 * Upstream blocks for good, so 10 s tell; ours only has to remove
	 * ~3000 sysfs files, which under TCG on a loaded host has taken more
	 * than 10 s: give it two minutes before calling it blocked.
	 */
	int limit = upstream() ? 100 : 1200;
	for (int i = 0; i < limit && !done; i++) {
		done = waitpid(pid, &status, WNOHANG) == pid;
		if (!done)
			std::this_thread::sleep_for(std::chrono::milliseconds(100));
	}
	if (!done) {
		// upstream 6.1: unregistration waits for every uverbs file
		printf("  rdma link delete is still blocked after %d s with a context open\n",
		       limit / 10);
		ibv_close_device(dev.ctx);
		dev.ctx = nullptr;
		waitpid(pid, &status, 0);
		printf("  ... and completed once the context was closed\n");
		if (upstream())
			GTEST_SKIP() << "upstream blocks rdma link delete while a context is open";
		FAIL() << "rdma link delete blocked by an open context";
	}
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "rdma link delete failed";
	printf("  rdma link delete completed with a context open\n");

	EXPECT_TRUE(wait_async_event(dev.ctx, IBV_EVENT_DEVICE_FATAL));
	ibv_port_attr attr{};
	int ret = ibv_query_port(dev.ctx, 1, &attr);
	EXPECT_NE(ret, 0);
	EXPECT_TRUE(ret == EIO || errno == EIO) << "ret " << ret << " errno " << errno;

	// the async file is drained and closed now
	ib_uverbs_async_event_desc desc{};
	EXPECT_EQ(read(dev.ctx->async_fd, &desc, sizeof(desc)), -1);
	EXPECT_EQ(errno, EIO);
	// and the char device node no longer opens
	int raw = open(dev.path().c_str(), O_RDWR);
	EXPECT_LT(raw, 0);
	if (raw >= 0)
		close(raw);
}

}  // namespace
