// SPDX-License-Identifier: GPL-2.0
//
// nl_fuzz: throws malformed and random RDMA netlink requests at the kernel.
//
//   nl_fuzz [-n COUNT] [-s SEED] [-D INDEX]
//
// Every request must be answered (an error, an ACK, a reply, or a dump that
// ends in NLMSG_DONE) within a timeout; the kernel log is judged by the VM
// harness.  The seed (default: from the clock) is printed first, so a run
// that failed can be repeated with -s.
//
// -D INDEX names a real device (its ib_core index): most requests that are
// not device-changing then carry that device index (and often port 1)
// first, so they get past the device lookup into the attribute parsing of
// each command.  Device-changing commands (NEWLINK, DELLINK, SET, SYS_SET)
// always get indices and names that exist nowhere, so the device stays.
// Exit 0 when every request got an answer; 1 otherwise.
//
//   nl_fuzz -R get|dellink:INDEX
//
// sends one well-formed GET or DELLINK for the device INDEX and prints the
// kernel's answer ("answer: 0" or "answer: -ERRNO (text)"); exit 0 when
// the kernel refused it, 1 when it accepted it, 2 when there was no answer.
// This reaches the kernel where iproute2 stops first: "rdma link delete
// NAME" resolves NAME itself and sends nothing for a device it cannot see.
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kNldev = RDMA_NL_NLDEV;

struct Stats {
	unsigned long sent = 0, errors = 0, acks = 0, replies = 0, dumps = 0;
	unsigned long unanswered = 0;
};

class Builder {
public:
	explicit Builder(uint16_t type, uint16_t flags, uint32_t seq)
	{
		nlmsghdr h{};
		h.nlmsg_type = type;
		h.nlmsg_flags = flags;
		h.nlmsg_seq = seq;
		append(&h, sizeof(h));
	}
	void attr(uint16_t type, const void *data, size_t len)
	{
		nlattr a{};
		a.nla_type = type;
		a.nla_len = static_cast<uint16_t>(NLA_HDRLEN + len);
		append(&a, sizeof(a));
		append(data, len);
		pad();
	}
	void raw(const void *data, size_t len) { append(data, len); }
	std::vector<uint8_t> finish(bool fix_len = true)
	{
		if (fix_len)
			hdr()->nlmsg_len = static_cast<uint32_t>(buf_.size());
		return buf_;
	}
	nlmsghdr *hdr() { return reinterpret_cast<nlmsghdr *>(buf_.data()); }

private:
	void append(const void *p, size_t n)
	{
		const uint8_t *b = static_cast<const uint8_t *>(p);
		buf_.insert(buf_.end(), b, b + n);
	}
	void pad()
	{
		while (buf_.size() % 4)
			buf_.push_back(0);
	}
	std::vector<uint8_t> buf_;
};

// Reads until this request is answered; true when it was.
bool await_answer(int fd, uint32_t seq, bool dump, Stats &st)
{
	std::vector<uint8_t> buf(65536);
	for (;;) {
		pollfd p{fd, POLLIN, 0};
		if (poll(&p, 1, 5000) <= 0)
			return false;
		ssize_t n = recv(fd, buf.data(), buf.size(), 0);
		if (n < 0)
			return errno == ENOBUFS;	// answer lost to a full socket: counted as answered
		for (auto *h = reinterpret_cast<nlmsghdr *>(buf.data());
		     NLMSG_OK(h, static_cast<unsigned>(n)); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				auto *e = static_cast<nlmsgerr *>(NLMSG_DATA(h));
				(e->error ? st.errors : st.acks)++;
				return true;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				st.dumps++;
				return true;
			}
			st.replies++;
			if (!dump && !(h->nlmsg_flags & NLM_F_MULTI))
				continue;	// the ACK follows
		}
	}
}

bool device_changing(uint16_t client, uint16_t op)
{
	return client == kNldev &&
	       (op == RDMA_NLDEV_CMD_NEWLINK || op == RDMA_NLDEV_CMD_DELLINK ||
		op == RDMA_NLDEV_CMD_SET || op == RDMA_NLDEV_CMD_SYS_SET);
}

// @real_dev: a real device index, or -1
std::vector<uint8_t> random_message(std::mt19937 &rng, uint32_t seq, bool &dump, long real_dev)
{
	std::uniform_int_distribution<int> pick(0, 99);
	uint16_t op = static_cast<uint16_t>(pick(rng) < 80 ? rng() % (RDMA_NLDEV_NUM_OPS + 3)
							 : rng() % 1024);
	uint16_t client = static_cast<uint16_t>(pick(rng) < 90 ? kNldev : rng() % 64);
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	dump = pick(rng) < 40;
	if (dump)
		flags |= NLM_F_DUMP;
	Builder b(static_cast<uint16_t>(RDMA_NL_GET_TYPE(client, op)), flags, seq);

	bool changing = device_changing(client, op);
	if (real_dev >= 0 && !changing && pick(rng) < 70) {
		uint32_t idx = static_cast<uint32_t>(real_dev);
		b.attr(RDMA_NLDEV_ATTR_DEV_INDEX, &idx, 4);
		if (pick(rng) < 50) {
			uint32_t port = pick(rng) < 80 ? 1 : static_cast<uint32_t>(rng() % 4);
			b.attr(RDMA_NLDEV_ATTR_PORT_INDEX, &port, 4);
		}
	}
	int nattrs = pick(rng) % 6;
	for (int i = 0; i < nattrs; i++) {
		uint16_t type = static_cast<uint16_t>(rng() % (RDMA_NLDEV_ATTR_MAX + 4));
		int shape = pick(rng);
		if (shape < 25) {		// u32, often a plausible index
			uint32_t v = pick(rng) < 50 ? rng() % 4 : static_cast<uint32_t>(rng());
			// device-changing commands never get the real device's index
			if (changing && real_dev >= 0 && v == static_cast<uint32_t>(real_dev))
				v = 0x7fff0000u + v;
			b.attr(type, &v, 4);
		} else if (shape < 35) {	// u8
			uint8_t v = static_cast<uint8_t>(rng());
			b.attr(type, &v, 1);
		} else if (shape < 55) {	// string: never names a real netdev or device
			std::string s = "fz" + std::to_string(rng() % 100000);
			if (pick(rng) < 20)
				s.append(static_cast<size_t>(rng() % 200), 'x');	// oversized
			b.attr(type, s.c_str(), s.size() + (pick(rng) < 80 ? 1 : 0));
		} else if (shape < 75) {	// random bytes of random length
			std::vector<uint8_t> v(rng() % 40);
			for (auto &c : v)
				c = static_cast<uint8_t>(rng());
			b.attr(type, v.data(), v.size());
		} else if (shape < 85) {	// truncated attribute header
			uint8_t junk[3] = {static_cast<uint8_t>(rng()), 0, 0};
			b.raw(junk, sizeof(junk));
		} else {			// attribute claiming more than is there
			nlattr a{};
			a.nla_type = type;
			a.nla_len = static_cast<uint16_t>(rng() % 4096);
			b.raw(&a, sizeof(a));
		}
	}
	bool fix = pick(rng) >= 5;
	auto msg = b.finish(fix);
	if (!fix)	// a length field that lies
		reinterpret_cast<nlmsghdr *>(msg.data())->nlmsg_len =
			static_cast<uint32_t>(rng() % 256);
	return msg;
}

// one request (-R); the exit status as documented above
int raw_request(int fd, const char *spec)
{
	std::string s(spec);
	size_t colon = s.find(':');
	if (colon == std::string::npos)
		return 2;
	std::string cmd = s.substr(0, colon);
	uint32_t idx = static_cast<uint32_t>(strtoul(s.c_str() + colon + 1, nullptr, 0));
	uint16_t op;
	if (cmd == "get")
		op = RDMA_NLDEV_CMD_GET;
	else if (cmd == "dellink")
		op = RDMA_NLDEV_CMD_DELLINK;
	else
		return 2;
	Builder b(static_cast<uint16_t>(RDMA_NL_GET_TYPE(kNldev, op)), NLM_F_REQUEST | NLM_F_ACK, 1);
	b.attr(RDMA_NLDEV_ATTR_DEV_INDEX, &idx, 4);
	auto msg = b.finish();
	sockaddr_nl sa{};
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, msg.data(), msg.size(), 0, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) < 0) {
		printf("answer: send failed: %s\n", strerror(errno));
		return 2;
	}
	std::vector<uint8_t> buf(65536);
	for (;;) {
		pollfd p{fd, POLLIN, 0};
		if (poll(&p, 1, 5000) <= 0) {
			printf("answer: none within 5 s\n");
			return 2;
		}
		ssize_t n = recv(fd, buf.data(), buf.size(), 0);
		if (n < 0) {
			printf("answer: recv failed: %s\n", strerror(errno));
			return 2;
		}
		for (auto *h = reinterpret_cast<nlmsghdr *>(buf.data());
		     NLMSG_OK(h, static_cast<unsigned>(n)); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type != NLMSG_ERROR)
				continue;	// a GET's reply; its ACK follows
			int err = static_cast<nlmsgerr *>(NLMSG_DATA(h))->error;
			if (err)
				printf("answer: %d (%s)\n", err, strerror(-err));
			else
				printf("answer: 0\n");
			return err ? 0 : 1;
		}
	}
}

}  // namespace

int main(int argc, char **argv)
{
	unsigned long count = 10000;
	unsigned seed = static_cast<unsigned>(time(nullptr)) ^ static_cast<unsigned>(getpid());
	long real_dev = -1;
	const char *raw = nullptr;
	int c;
	while ((c = getopt(argc, argv, "n:s:D:R:")) != -1) {
		if (c == 'n')
			count = strtoul(optarg, nullptr, 0);
		else if (c == 's')
			seed = static_cast<unsigned>(strtoul(optarg, nullptr, 0));
		else if (c == 'D')
			real_dev = strtol(optarg, nullptr, 0);
		else if (c == 'R')
			raw = optarg;
		else {
			fprintf(stderr, "usage: %s [-n COUNT] [-s SEED] [-D DEVINDEX] | -R get|dellink:INDEX\n",
				argv[0]);
			return 2;
		}
	}
	if (raw) {
		int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA);
		if (fd < 0) {
			perror("socket(NETLINK_RDMA)");
			return 2;
		}
		int rc = raw_request(fd, raw);
		close(fd);
		return rc;
	}
	printf("nl_fuzz: seed %u, %lu requests%s\n", seed, count,
	       real_dev >= 0 ? ", aimed at a real device" : "");
	fflush(stdout);
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA);
	if (fd < 0) {
		perror("socket(NETLINK_RDMA)");
		return 1;
	}
	int one = 1;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	sockaddr_nl sa{};
	sa.nl_family = AF_NETLINK;

	std::mt19937 rng(seed);
	Stats st;
	for (unsigned long i = 0; i < count; i++) {
		bool dump = false;
		uint32_t seq = static_cast<uint32_t>(i + 1);
		auto msg = random_message(rng, seq, dump, real_dev);
		ssize_t n = sendto(fd, msg.data(), msg.size(), 0,
				   reinterpret_cast<sockaddr *>(&sa), sizeof(sa));
		st.sent++;
		if (n < 0)	// rejected at send time: an answer too
			{ st.errors++; continue; }
		if (msg.size() < sizeof(nlmsghdr) ||
		    reinterpret_cast<nlmsghdr *>(msg.data())->nlmsg_len < sizeof(nlmsghdr) ||
		    reinterpret_cast<nlmsghdr *>(msg.data())->nlmsg_len > msg.size())
			continue;	// the kernel silently drops malformed framing
		if (!await_answer(fd, seq, dump, st)) {
			st.unanswered++;
			fprintf(stderr, "request %lu (type 0x%x) got no answer\n", i,
				reinterpret_cast<nlmsghdr *>(msg.data())->nlmsg_type);
		}
	}
	printf("nl_fuzz: sent %lu, errors %lu, acks %lu, replies %lu, dumps %lu, unanswered %lu\n",
	       st.sent, st.errors, st.acks, st.replies, st.dumps, st.unanswered);
	close(fd);
	return st.unanswered ? 1 : 0;
}
