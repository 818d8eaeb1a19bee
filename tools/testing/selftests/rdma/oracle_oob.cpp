// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: the TCP channel (see oracle_oob.h).
#include "oracle_oob.h"
#include "oracle.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace oracle {

const char *msg_name(uint32_t type)
{
	static const char *const names[] = { "?",	  "HELLO", "HELLO_ACK", "INFO",
					     "GO",	  "DONE",  "OK",	"MWKEY",
					     "PASS", "STATS", "BYE",	"FAIL" };
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

static void put32(uint8_t *&p, uint32_t v)
{
	for (int i = 3; i >= 0; i--)
		*p++ = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *&p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p, (uint32_t)v);
}

static uint32_t get32(const uint8_t *&p)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v = v << 8 | *p++;
	return v;
}

static uint64_t get64(const uint8_t *&p)
{
	uint64_t hi = get32(p);
	return hi << 32 | get32(p);
}

static void encode(const Msg &m, uint8_t *out)
{
	uint8_t *p = out;
	put32(p, m.type);
	put32(p, m.phase);
	put64(p, m.round);
	for (uint64_t v : m.v)
		put64(p, v);
	memcpy(p, m.text, sizeof(m.text));
	p[sizeof(m.text) - 1] = 0;
}

static Msg decode(const uint8_t *in)
{
	Msg m;
	const uint8_t *p = in;
	m.type = get32(p);
	m.phase = get32(p);
	m.round = get64(p);
	for (uint64_t &v : m.v)
		v = get64(p);
	memcpy(m.text, p, sizeof(m.text));
	m.text[sizeof(m.text) - 1] = 0;
	return m;
}

static std::string addr_str(const sockaddr *sa)
{
	char h[INET6_ADDRSTRLEN] = "?";
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const sockaddr_in *)sa)->sin_addr, h, sizeof(h));
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const sockaddr_in6 *)sa)->sin6_addr, h, sizeof(h));
	return h;
}

static int ms_until(double deadline)
{
	double left = deadline - now_s();
	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

static void tune(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

Oob::~Oob()
{
	if (fd_ >= 0)
		close(fd_);
}

void Oob::serve(const std::string &bind, const std::string &port, double deadline, bool verbose)
{
	addrinfo hints{}, *res = nullptr;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	int r = getaddrinfo(bind.empty() ? nullptr : bind.c_str(), port.c_str(), &hints, &res);
	if (r)
		usage_error("--bind %s port %s: %s", bind.c_str(), port.c_str(), gai_strerror(r));

	std::vector<pollfd> ls;
	std::string why;
	for (addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			why = strerror(errno);	// e.g. no IPv6 in this kernel
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		// one socket per family, whatever net.ipv6.bindv6only says
		if (a->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (::bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 1)) {
			why = addr_str(a->ai_addr) + ": " + strerror(errno);
			close(fd);
			continue;
		}
		if (verbose)
			say("listening on [%s]:%s", addr_str(a->ai_addr).c_str(), port.c_str());
		ls.push_back(pollfd{ fd, POLLIN, 0 });
	}
	freeaddrinfo(res);
	if (ls.empty())
		die(EXIT_ERROR, "cannot listen on port %s: %s", port.c_str(), why.c_str());

	while (fd_ < 0) {
		int n = poll(ls.data(), ls.size(), ms_until(deadline));
		if (n < 0 && errno != EINTR)
			die(EXIT_ERROR, "poll: %s", strerror(errno));
		if (n == 0 && now_s() >= deadline)
			die(EXIT_ERROR, "no client connected to port %s within the timeout",
			    port.c_str());
		for (pollfd &p : ls) {
			if (fd_ >= 0 || !(p.revents & POLLIN))
				continue;
			sockaddr_storage ss{};
			socklen_t sl = sizeof(ss);
			int fd = accept4(p.fd, (sockaddr *)&ss, &sl, SOCK_CLOEXEC);
			if (fd >= 0) {
				fd_ = fd;
				peer_ = addr_str((sockaddr *)&ss);
			}
		}
	}
	for (pollfd &p : ls)
		close(p.fd);
	tune(fd_);
}

// One non-blocking connect attempt to @a, waiting until @deadline; the fd
// or -1 (errno-like reason in @why).
static int try_connect(const addrinfo *a, double deadline, std::string &why)
{
	int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
	if (fd < 0) {
		why = strerror(errno);
		return -1;
	}
	if (connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS) {
		why = strerror(errno);
		close(fd);
		return -1;
	}
	pollfd p{ fd, POLLOUT, 0 };
	int err = 0;
	socklen_t el = sizeof(err);
	if (poll(&p, 1, ms_until(deadline)) != 1 ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) || err) {
		why = err ? strerror(err) : "timed out";
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

void Oob::connect_to(const std::string &host, const std::string &port, double deadline)
{
	addrinfo hints{}, *res = nullptr;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	int r = getaddrinfo(host.c_str(), port.c_str(), &hints, &res);
	if (r)
		usage_error("%s port %s: %s", host.c_str(), port.c_str(), gai_strerror(r));
	std::string why = "no address";
	// the server may not listen yet: try again until the deadline
	while (fd_ < 0) {
		for (addrinfo *a = res; a && fd_ < 0; a = a->ai_next) {
			fd_ = try_connect(a, deadline, why);
			if (fd_ >= 0)
				peer_ = addr_str(a->ai_addr);
		}
		if (fd_ >= 0)
			break;
		if (now_s() >= deadline) {
			freeaddrinfo(res);
			die(EXIT_ERROR, "cannot connect to %s port %s: %s", host.c_str(),
			    port.c_str(), why.c_str());
		}
		usleep(200 * 1000);
	}
	freeaddrinfo(res);
	tune(fd_);
}

void Oob::send(const Msg &m)
{
	uint8_t buf[Msg::WIRE];
	encode(m, buf);
	size_t done = 0;
	while (done < sizeof(buf)) {
		ssize_t n = ::send(fd_, buf + done, sizeof(buf) - done, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			// the peer may have failed first: its line is worth more
			pump();
			die(EXIT_ERROR, "peer connection lost sending %s: %s", msg_name(m.type),
			    n < 0 ? strerror(errno) : "closed");
		}
		done += (size_t)n;
	}
}

void Oob::pump()
{
	for (;;) {
		uint8_t buf[4096];
		ssize_t n = recv(fd_, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			eof_ = true;
			break;
		}
		rx_.append((const char *)buf, (size_t)n);
	}
	while (rx_.size() >= Msg::WIRE) {
		Msg m = decode((const uint8_t *)rx_.data());
		rx_.erase(0, Msg::WIRE);
		if (m.type == M_FAIL)
			peer_failed((int)m.v[0], m.text);
		q_.push_back(m);
	}
}

bool Oob::pop(Msg &m)
{
	if (q_.empty())
		return false;
	m = q_.front();
	q_.pop_front();
	return true;
}

void Oob::fail_notify(int code, const std::string &line)
{
	if (fd_ < 0)
		return;
	Msg m;
	m.type = M_FAIL;
	m.v[0] = (uint64_t)code;
	snprintf(m.text, sizeof(m.text), "%s", line.c_str());
	uint8_t buf[Msg::WIRE];
	encode(m, buf);
	if (::send(fd_, buf, sizeof(buf), MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)sizeof(buf))
		return;
	shutdown(fd_, SHUT_WR);
	double end = now_s() + 2;
	for (;;) {
		pollfd p{ fd_, POLLIN, 0 };
		if (poll(&p, 1, ms_until(end)) != 1)
			break;
		char sink[4096];
		if (recv(fd_, sink, sizeof(sink), 0) <= 0)
			break;
	}
}

} // namespace oracle
