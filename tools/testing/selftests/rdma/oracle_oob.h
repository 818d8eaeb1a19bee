// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle's out-of-band channel: one TCP connection between client and
// server carrying fixed-size messages (big-endian on the wire) for the
// configuration, the QP and memory exchange, and the round
// synchronisation.  A side that fails sends M_FAIL with its failure line,
// so the other side exits too.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

namespace oracle {

enum MsgType : uint32_t {
	M_HELLO = 1,	// client -> server: the Config, the client's port MTU
	M_HELLO_ACK,	// server -> client: the resolved Config
	M_INFO,		// both ways: QPN, PSN, GID, MR, rd_atomic
	M_GO,		// target -> initiator: round ready (receives posted, memory set)
	M_DONE,		// initiator -> target: every completion of the round arrived
	M_OK,		// phase checked; v[]: the receiver's counts
	M_MWKEY,	// window owner -> peer: rkey, address, length of the bound window
	M_PASS,		// client -> server: v[0] 1: another pass, 0: done
	M_STATS,	// at the end: one (op, dir)'s receiver counts
	M_BYE,
	M_FAIL,		// v[0]: the exit code; text: the failure line
};

const char *msg_name(uint32_t type);

struct Msg {
	uint32_t type = 0;
	uint32_t phase = 0;	// the phase sequence number, checked on receipt
	uint64_t round = 0;
	uint64_t v[12] = {};
	char text[200] = {};

	static constexpr size_t WIRE = 4 + 4 + 8 + 12 * 8 + 200;
};

class Oob {
public:
	Oob() = default;
	Oob(const Oob &) = delete;
	Oob &operator=(const Oob &) = delete;
	~Oob();

	// Server: listens on @bind (or on IPv4 and IPv6 if empty), accepts
	// one client; dies (EXIT_ERROR) if none connects by @deadline.
	void serve(const std::string &bind, const std::string &port, double deadline, bool verbose);
	// Client: connects to @host, retrying until @deadline.
	void connect_to(const std::string &host, const std::string &port, double deadline);

	int fd() const { return fd_; }
	std::string peer() const { return peer_; }
	void send(const Msg &m);
	// Reads what has arrived, without blocking.  M_FAIL ends the process
	// (peer_failed); end of file is remembered (eof()).
	void pump();
	bool closed() const { return eof_; }			// end of file seen
	bool eof() const { return eof_ && q_.empty(); }	// ... and nothing left
	bool pop(Msg &m);
	// Best effort on the way out: M_FAIL with @line, then half-close and
	// wait (at most 2 s) for the peer to close, so the line is not lost.
	void fail_notify(int code, const std::string &line);

private:
	int fd_ = -1;
	bool eof_ = false;
	std::string rx_;
	std::deque<Msg> q_;
	std::string peer_;
};

} // namespace oracle
