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
#include <rdma/rdma_user_ioctl_cmds.h>

#include <fcntl.h>
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

TEST_F(Uverbs, NoIoctl)
{
	if (upstream())
		GTEST_SKIP() << "upstream implements the ioctl ABI";
	ib_uverbs_ioctl_hdr hdr{};
	hdr.length = sizeof(hdr);
	errno = 0;
	EXPECT_EQ(ioctl(fd, RDMA_VERBS_IOCTL, &hdr), -1);
	EXPECT_EQ(errno, ENOTTY);
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
