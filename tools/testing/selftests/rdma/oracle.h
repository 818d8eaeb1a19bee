// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle, the data oracle: a client and a server that move RDMA
// traffic between two hosts (or namespaces, or VMs) over a real link and
// check every byte, every completion and every atomic result against a
// plan both sides derive from one seed.  See
// Documentation/dev-tools/data-oracle.rst.
//
// This header: exit codes, the op table, the options, the failure lines,
// the pattern generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace oracle {

// Exit codes (0 is a pass).  Teardown tests accept 0 or 3, never 1.
enum {
	EXIT_MISMATCH = 1,	// wrong data, imm, atomic result, guard touched
	EXIT_USAGE = 2,		// bad command line or configuration
	EXIT_ERROR = 3,		// verbs/transport error, timeout, peer gone
};

enum Qpt { QPT_RC, QPT_UC, QPT_UD, QPT_COUNT };
enum Dir { C2S, S2C };

enum Op {
	OP_SEND,
	OP_SEND_IMM,
	OP_WRITE,
	OP_WRITE_IMM,
	OP_READ,
	OP_FETCH_ADD,
	OP_CMP_SWAP,
	OP_ATOMIC_WRITE,	// IBTA 1.5; only when asked for (--ops)
	OP_SEND_INV,
	OP_INV_WRITE,	// the last step: WRITE through an invalidated rkey
	// the last step: ATOMIC WRITE from the side whose device has it to the
	// side whose device lacks it (upstream 6.1): an error, nothing written
	OP_AW_REFUSED,
	OP_COUNT
};

struct Ctx;

struct OpInfo {
	const char *name;
	unsigned int qpts;	// bit (1 << Qpt): legal there, and in the default set
	bool zero_len;		// 0-byte messages are legal
	bool both_ways;		// one phase runs both directions at the same time
	void (*run)(Ctx &c, Op op, Dir dir);
	bool opt_in = false;	// legal on qpts, but not in the default set
	bool last = false;	// runs once, after the passes, and breaks the QP
};

extern const OpInfo op_info[OP_COUNT];	// oracle_ops.cpp

inline const char *dir_name(Dir d)
{
	return d == C2S ? "c2s" : "s2c";
}

extern const char *const qpt_name[QPT_COUNT];

// What both sides must agree on: the client's values, sent to the server.
struct Config {
	uint64_t seed = 0;
	int qpt = QPT_RC;
	uint32_t ops = 0;	// bit (1 << Op); 0: the transport's default
	uint32_t iters = 100;
	uint32_t depth = 16;
	uint32_t max_size = 0;	// 0: 16384 (RC/UC) or the path MTU (UD)
	uint32_t sge = 3;
	uint32_t mtu = 0;	// bytes; 0: the active MTU of both ports
	uint32_t lossy = 0;
	uint32_t duration_ms = 0;
	uint32_t settle_ms = 500;
	uint32_t srq = 0;	// receives through a shared receive queue
};

// Config fields, as bits of Options::given (which ones the command line set).
enum {
	CFG_SEED = 1 << 0,
	CFG_QPT = 1 << 1,
	CFG_OPS = 1 << 2,
	CFG_ITERS = 1 << 3,
	CFG_DEPTH = 1 << 4,
	CFG_MAX_SIZE = 1 << 5,
	CFG_SGE = 1 << 6,
	CFG_MTU = 1 << 7,
	CFG_LOSSY = 1 << 8,
	CFG_DURATION = 1 << 9,
	CFG_SETTLE = 1 << 10,
	CFG_SRQ = 1 << 11,
};

struct Options {
	Config cfg;
	unsigned int given = 0;
	std::string dev;	// "": the first device
	std::string host;	// the server's address; "" makes this the server
	std::string bind;	// server: the address to listen on
	int gid_index = -1;
	int ib_port = 1;
	std::string port = "18515";
	double timeout = 30;
	int verbose = 0;
	// --lossy-link: this side's link drops packets (see phase_inv_write)
	bool lossy_link = false;
	// --test-hide-atomic-write: this side says its device lacks ATOMIC
	// WRITE (aw_refused's proof: a device that executes it must fail it)
	bool hide_atomic_write = false;
	// --until: the client repeats the plan while this file is absent
	std::string until;
	// --odp: this side's memory is registered IBV_ACCESS_ON_DEMAND and a
	// fork() every 50 ms write-protects it (every page faults again)
	bool odp = false;

	bool client() const { return !host.empty(); }
};

// ---- failure lines

// Which message a check is about.
struct Where {
	Op op;
	Dir dir;
	uint64_t msg;
	uint32_t size;
};

// Set by main: who prints (client/server), the seed and the pass, for the
// end of every failure line; the hook tells the peer (one line over TCP).
void fail_context(const char *role, uint64_t seed, bool known);
void fail_pass(uint32_t pass);
void fail_hook(void (*hook)(int code, const std::string &line));

// "rdma_oracle: ERROR <text> (<role>, seed S, pass P)"; exits EXIT_ERROR
// (or @code).
[[noreturn]] void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// "rdma_oracle: ERROR <op> <dir> msg N size S: <text>"
[[noreturn]] void error_at(const Where &w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
// "rdma_oracle: MISMATCH <op> <dir> msg N size S offset O: <what>: got 0xGG want 0xWW"
[[noreturn]] void mismatch(const Where &w, long long off, unsigned int got, unsigned int want,
			   const char *what);
// "rdma_oracle: MISMATCH <op> <dir> msg N size S: <what>: got X want Y"
[[noreturn]] void mismatch_val(const Where &w, const char *what, uint64_t got, uint64_t want);
// The peer's failure line, re-printed with its exit code.
[[noreturn]] void peer_failed(int code, const std::string &line);
// A usage error before any peer exists: message, exit 2.
[[noreturn]] void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	// "rdma_oracle: ..."
double now_s();

// ---- deterministic streams

inline uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

// A key from a list of numbers (order matters).
inline uint64_t key_of(uint64_t a, uint64_t b, uint64_t c = 0, uint64_t d = 0, uint64_t e = 0)
{
	return mix64(mix64(mix64(mix64(mix64(a) ^ b) ^ c) ^ d) ^ e);
}

struct Rng {
	uint64_t s;
	explicit Rng(uint64_t key) : s(key) {}
	uint64_t next() { return mix64(s++); }
	// uniform enough in [0, n) (n > 0)
	uint32_t below(uint32_t n) { return (uint32_t)((next() >> 32) * n >> 32); }
	// [lo, hi]
	uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }
	bool one_in(uint32_t n) { return below(n) == 0; }
};

// The payload byte at @off of the message with pattern @key.
inline uint8_t pat_byte(uint64_t key, uint64_t off)
{
	return (uint8_t)(mix64(key ^ ((off >> 3) * 0xd1342543de82ef95ull)) >> ((off & 7) * 8));
}

// Fills @dst with the pattern bytes [@off, @off + @len) of @key.
void pat_fill(uint64_t key, uint64_t off, uint8_t *dst, size_t len);
// The first i < @len with p[i] != pattern byte @off + i, or @len.
size_t pat_cmp(uint64_t key, uint64_t off, const uint8_t *p, size_t len);
// The first i < @len with p[i] != @g, or @len.
size_t guard_cmp(uint8_t g, const uint8_t *p, size_t len);

} // namespace oracle
