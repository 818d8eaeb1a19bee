// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle, the data oracle: main, the command line, the failure
// lines, the handshake, the passes and the summary.
//
//   rdma_oracle -d rxe1 -g 1                 # server
//   rdma_oracle -d rxe0 -g 1 10.0.0.2        # client
//
// Documentation/dev-tools/data-oracle.rst describes what it checks.
#include "oracle_cli.h"
#include "oracle_ctx.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <thread>

namespace oracle {

const char *const qpt_name[QPT_COUNT] = { "rc", "uc", "ud" };

static const uint32_t PROTO = 2;	// bumped when the messages change

// ---- failure lines

static const char *g_role = "?";
static uint64_t g_seed;
static uint32_t g_pass;
static void (*g_hook)(int code, const std::string &line);
static bool g_failing;
static bool g_seed_known;

void fail_context(const char *role, uint64_t seed, bool known)
{
	g_role = role;
	g_seed = seed;
	g_seed_known = known;
}

void fail_pass(uint32_t pass)
{
	g_pass = pass;
}

void fail_hook(void (*hook)(int code, const std::string &line))
{
	g_hook = hook;
}

double now_s()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static std::string vfmt(const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	return buf;
}

void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	std::string s = vfmt(fmt, ap);
	va_end(ap);
	printf("rdma_oracle: %s\n", s.c_str());
	fflush(stdout);
}

static const char *label(int code)
{
	switch (code) {
	case EXIT_MISMATCH:
		return "MISMATCH";
	case EXIT_USAGE:
		return "usage:";
	default:
		return "ERROR";
	}
}

// Prints the one failure line, tells the peer, exits with @code.
[[noreturn]] static void finish(int code, const std::string &body)
{
	char ctx[128] = "";
	if (g_seed_known)
		snprintf(ctx, sizeof(ctx), " (%s, seed %" PRIu64 ", pass %u)", g_role, g_seed,
			 g_pass);
	else if (strcmp(g_role, "?"))
		snprintf(ctx, sizeof(ctx), " (%s)", g_role);
	std::string line = std::string("rdma_oracle: ") + label(code) + " " + body + ctx;
	fflush(stdout);
	fprintf(stderr, "%s\n", line.c_str());
	fflush(stderr);
	if (g_hook && !g_failing) {
		g_failing = true;
		g_hook(code, line);
	}
	exit(code);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	std::string s = vfmt(fmt, ap);
	va_end(ap);
	finish(code, s);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	std::string s = vfmt(fmt, ap);
	va_end(ap);
	finish(EXIT_USAGE, s);
}

static std::string where_str(const Where &w)
{
	char b[160];
	snprintf(b, sizeof(b), "%s %s msg %" PRIu64 " size %u", op_info[w.op].name,
		 dir_name(w.dir), w.msg, w.size);
	return b;
}

void error_at(const Where &w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	std::string s = vfmt(fmt, ap);
	va_end(ap);
	finish(EXIT_ERROR, where_str(w) + ": " + s);
}

void mismatch(const Where &w, long long off, unsigned int got, unsigned int want, const char *what)
{
	char b[128];
	snprintf(b, sizeof(b), " offset %lld: ", off);
	char gw[64];
	snprintf(gw, sizeof(gw), ": got 0x%02x want 0x%02x", got, want);
	finish(EXIT_MISMATCH, where_str(w) + b + what + gw);
}

void mismatch_val(const Where &w, const char *what, uint64_t got, uint64_t want)
{
	char gw[96];
	snprintf(gw, sizeof(gw), ": got 0x%" PRIx64 " want 0x%" PRIx64, got, want);
	finish(EXIT_MISMATCH, where_str(w) + ": " + what + gw);
}

void peer_failed(int code, const std::string &line)
{
	if (code != EXIT_MISMATCH && code != EXIT_USAGE)
		code = EXIT_ERROR;
	// "rdma_oracle: MISMATCH <what>" -> "rdma_oracle: MISMATCH reported by the peer: <what>"
	std::string what = line;
	std::string prefix = std::string("rdma_oracle: ") + label(code) + " ";
	if (!what.compare(0, prefix.size(), prefix))
		what.erase(0, prefix.size());
	fflush(stdout);
	fprintf(stderr, "rdma_oracle: %s reported by the peer: %s\n", label(code), what.c_str());
	fflush(stderr);
	exit(code);
}

// ---- patterns

void pat_fill(uint64_t key, uint64_t off, uint8_t *dst, size_t len)
{
	size_t i = 0;
	while (i < len) {
		uint64_t pos = off + i;
		uint64_t word = mix64(key ^ ((pos >> 3) * 0xd1342543de82ef95ull));
		for (unsigned int b = pos & 7; b < 8 && i < len; b++)
			dst[i++] = (uint8_t)(word >> (8 * b));
	}
}

size_t pat_cmp(uint64_t key, uint64_t off, const uint8_t *p, size_t len)
{
	size_t i = 0;
	while (i < len) {
		uint64_t pos = off + i;
		uint64_t word = mix64(key ^ ((pos >> 3) * 0xd1342543de82ef95ull));
		for (unsigned int b = pos & 7; b < 8 && i < len; b++, i++)
			if (p[i] != (uint8_t)(word >> (8 * b)))
				return i;
	}
	return len;
}

size_t guard_cmp(uint8_t g, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != g)
			return i;
	return len;
}

} // namespace oracle

using namespace oracle;

// ---- the handshake

static Ctx *g_ctx;

static void notify_peer(int code, const std::string &line)
{
	if (g_ctx)
		g_ctx->oob.fail_notify(code, line);
}

static void put_cfg(Msg &m, const Config &c)
{
	const uint64_t v[12] = {
		c.seed, (uint64_t)c.qpt, c.ops,	  c.iters,	c.depth,     c.max_size,
		c.sge,	c.mtu,		 c.lossy, c.duration_ms, c.settle_ms, c.srq,
	};
	memcpy(m.v, v, sizeof(v));
}

static Config get_cfg(const Msg &m)
{
	Config c;
	c.seed = m.v[0];
	c.qpt = (int)m.v[1];
	c.ops = (uint32_t)m.v[2];
	c.iters = (uint32_t)m.v[3];
	c.depth = (uint32_t)m.v[4];
	c.max_size = (uint32_t)m.v[5];
	c.sge = (uint32_t)m.v[6];
	c.mtu = (uint32_t)m.v[7];
	c.lossy = (uint32_t)m.v[8];
	c.duration_ms = (uint32_t)m.v[9];
	c.settle_ms = (uint32_t)m.v[10];
	c.srq = (uint32_t)m.v[11];
	if (c.qpt < 0 || c.qpt >= QPT_COUNT || c.sge < 1 || c.sge > MAX_SGE || !c.depth ||
	    !c.iters || c.ops >= 1u << OP_COUNT || c.srq > 1)
		die(EXIT_ERROR, "protocol: a configuration out of range from the client");
	return c;
}

// Server: the client's configuration, checked against the options this
// server was given and completed (MTU, max size).
static void server_config(Ctx &c, const Msg &hello)
{
	if (hello.round >> 32 != PROTO)
		die(EXIT_USAGE, "the client speaks protocol %u, this server %u",
		    (unsigned int)(hello.round >> 32), PROTO);
	const uint32_t client_mtu = (uint32_t)hello.round;
	Config want = get_cfg(hello);
	const Config &mine = c.cfg;
	struct {
		unsigned int bit;
		const char *name;
		uint64_t a, b;
	} f[] = {
		{ CFG_QPT, "--qp", (uint64_t)mine.qpt, (uint64_t)want.qpt },
		{ CFG_OPS, "--ops", mine.ops, want.ops },
		{ CFG_ITERS, "--iters", mine.iters, want.iters },
		{ CFG_DEPTH, "--depth", mine.depth, want.depth },
		{ CFG_MAX_SIZE, "--max-size", mine.max_size, want.max_size },
		{ CFG_SGE, "--sge", mine.sge, want.sge },
		{ CFG_MTU, "--mtu", mine.mtu, want.mtu },
		{ CFG_LOSSY, "--lossy", mine.lossy, want.lossy },
		{ CFG_DURATION, "--duration", mine.duration_ms, want.duration_ms },
		{ CFG_SETTLE, "--settle", mine.settle_ms, want.settle_ms },
		{ CFG_SRQ, "--srq", mine.srq, want.srq },
		{ CFG_SEED, "--seed", mine.seed, want.seed },
	};
	for (auto &x : f)
		if ((c.o.given & x.bit) && x.a != x.b)
			die(EXIT_USAGE, "%s: this server has %" PRIu64 ", the client %" PRIu64
					" (the client's plan options rule; leave them out here)",
			    x.name, x.a, x.b);
	const uint32_t active = mtu_bytes(c.ib.port.active_mtu);
	if (!want.mtu)
		want.mtu = std::min(active, client_mtu);
	if (want.mtu > active)
		die(EXIT_USAGE, "--mtu %u is above %s port %d's active MTU %u (server side)", want.mtu,
		    c.ib.name.c_str(), c.o.ib_port, active);
	if (!want.max_size)
		want.max_size = want.qpt == QPT_UD ? want.mtu : 16384;
	std::string p = config_problem(want);
	if (!p.empty())
		die(EXIT_USAGE, "%s", p.c_str());
	c.cfg = want;
}

// Each side's own device limits.
static void check_device(const Ctx &c)
{
	const Config &g = c.cfg;
	const ibv_device_attr &a = c.ib.dev;
	const char *dev = c.ib.name.c_str();
	if (g.depth > (uint32_t)a.max_qp_wr)
		die(EXIT_USAGE, "--depth %u: %s allows %d WRs per queue", g.depth, dev, a.max_qp_wr);
	if (2 * g.depth + 8 > (uint32_t)a.max_cqe)
		die(EXIT_USAGE, "--depth %u: %s allows %d CQEs", g.depth, dev, a.max_cqe);
	if (g.sge > (uint32_t)a.max_sge)
		die(EXIT_USAGE, "--sge %u: %s allows %d", g.sge, dev, a.max_sge);
	if ((g.ops & (1u << OP_READ)) && g.sge > (uint32_t)a.max_sge_rd)
		die(EXIT_USAGE, "--sge %u: %s allows %d for READ", g.sge, dev, a.max_sge_rd);
	if ((g.ops & (1u << OP_FETCH_ADD | 1u << OP_CMP_SWAP)) && a.atomic_cap == IBV_ATOMIC_NONE)
		die(EXIT_USAGE, "%s has no atomics: leave fetch_add,cmp_swap out of --ops", dev);
	if (g.srq && !a.max_srq)
		die(EXIT_USAGE, "%s has no shared receive queues (--srq)", dev);
	if (g.srq && g.depth > (uint32_t)a.max_srq_wr)
		die(EXIT_USAGE, "--depth %u: %s allows %d WRs per SRQ", g.depth, dev, a.max_srq_wr);
	if (g.srq && g.sge > (uint32_t)a.max_srq_sge)
		die(EXIT_USAGE, "--sge %u: %s allows %d per SRQ WR", g.sge, dev, a.max_srq_sge);
	if ((g.ops & (1u << OP_SEND_INV)) && !a.max_mw)
		die(EXIT_USAGE, "%s has no memory windows: leave send_inv out of --ops", dev);
	const uint32_t active = mtu_bytes(c.ib.port.active_mtu);
	if (g.mtu > active)
		die(EXIT_USAGE, "--mtu %u is above %s port %d's active MTU %u", g.mtu, dev,
		    c.o.ib_port, active);
}

static uint64_t gid_half(const ibv_gid &g, int half)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | g.raw[8 * half + i];
	return v;
}

static void exchange(Ctx &c)
{
	PeerInfo me = ib_local(c.ib);
	c.tell(M_INFO, 0,
	       { me.qpn, me.psn, gid_half(me.gid, 0), gid_half(me.gid, 1), me.addr, me.rkey, me.len,
		 me.rd_atomic });
	Msg m = c.expect(M_INFO, 0);
	PeerInfo &p = c.peer;
	p.qpn = (uint32_t)m.v[0];
	p.psn = (uint32_t)m.v[1];
	for (int i = 0; i < 16; i++)
		p.gid.raw[i] = (uint8_t)(m.v[2 + i / 8] >> (8 * (7 - i % 8)));
	p.addr = m.v[4];
	p.rkey = (uint32_t)m.v[5];
	p.len = m.v[6];
	p.rd_atomic = (uint32_t)m.v[7];
	if (p.len != c.lay.total)
		die(EXIT_ERROR, "protocol: the peer registered %" PRIu64 " bytes, want %zu", p.len,
		    c.lay.total);
}

// how long a server waits for its client at least (--timeout if longer)
constexpr double kClientWait = 120;

static void setup(Ctx &c)
{
	Config &g = c.cfg;
	const double deadline = now_s() + c.o.timeout;
	if (c.client) {
		if (!(c.o.given & CFG_SEED)) {
			timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			g.seed = (uint32_t)mix64((uint64_t)ts.tv_sec * 1000000000ull +
						 (uint64_t)ts.tv_nsec + (uint64_t)getpid());
		}
		fail_context("client", g.seed, true);
		say("seed %" PRIu64, g.seed);
		// connected first, so that the server hears about a usage error
		c.oob.connect_to(c.o.host, c.o.port, deadline);
		if (!g.ops)
			g.ops = default_ops(g.qpt);
		std::string p = config_problem(g);
		if (!p.empty())
			usage_error("%s", p.c_str());
		const uint32_t active = mtu_bytes(c.ib.port.active_mtu);
		if (g.mtu > active)
			usage_error("--mtu %u is above %s port %d's active MTU %u", g.mtu,
				    c.ib.name.c_str(), c.o.ib_port, active);
		Msg m;
		m.type = M_HELLO;
		m.round = (uint64_t)PROTO << 32 | active;
		put_cfg(m, g);
		c.oob.send(m);
		Msg ack = c.expect(M_HELLO_ACK, 0);
		g = get_cfg(ack);
	} else {
		fail_context("server", 0, false);
		// the client starts once this listens, through ip netns exec and
		// timeout in a loaded TCG guest: 30 s was seen too short for that
		c.oob.serve(c.o.bind, c.o.port, std::max(deadline, now_s() + kClientWait),
			    c.o.verbose);
		Msg hello = c.recv_msg("HELLO");
		if (hello.type != M_HELLO)
			die(EXIT_ERROR, "protocol: got %s, want HELLO", msg_name(hello.type));
		server_config(c, hello);
		fail_context("server", g.seed, true);
		say("seed %" PRIu64, g.seed);
		Msg m;
		m.type = M_HELLO_ACK;
		put_cfg(m, g);
		c.oob.send(m);
	}
	check_device(c);

	c.mtu = g.mtu;
	c.grh = g.qpt == QPT_UD ? Layout::GRH : 0;
	c.lay.compute(g, c.grh);
	if (c.lay.total > (1ull << 32))
		die(EXIT_USAGE, "--depth %u and --max-size %u need %zu MiB of buffers per side",
		    g.depth, g.max_size, c.lay.total >> 20);
	c.ib.psn = plan_psn(g, c.client);
	ib_setup(c.ib, g, c.lay.total, g.ops & (1u << OP_SEND_INV));
	exchange(c);
	ib_connect(c.ib, g, c.peer);
	// both QPs are ready to receive before anything is sent
	c.tell(M_GO, 0);
	c.expect(M_GO, 0);
	say("%s %s mtu %u ops %s iters %u depth %u max-size %u sge %u%s%s%s",
	    c.client ? "client" : "server", qpt_name[g.qpt], g.mtu, ops_str(g.ops).c_str(), g.iters,
	    g.depth, g.max_size, g.sge, g.srq ? " srq" : "", g.lossy ? " lossy" : "",
	    g.duration_ms ? " duration" : "");
	say("local %s port %d gid[%d] %s qpn 0x%x psn 0x%x inline %u; peer %s gid %s qpn 0x%x psn 0x%x",
	    c.ib.name.c_str(), c.o.ib_port, c.o.gid_index, gid_str(c.ib.gid).c_str(),
	    c.ib.qp->qp_num, c.ib.psn, c.ib.max_inline, c.oob.peer().c_str(),
	    gid_str(c.peer.gid).c_str(), c.peer.qpn, c.peer.psn);
}

// ---- the run

static void run_phase(Ctx &c, Op op, Dir d, double t0)
{
	c.phase++;
	if (c.o.verbose)
		say("%.1fs pass %u phase %u: %s %s", now_s() - t0, c.pass, c.phase, op_info[op].name,
		    op_info[op].both_ways ? "both ways" : dir_name(d));
	op_info[op].run(c, op, d);
}

static void run(Ctx &c)
{
	const Config &g = c.cfg;
	const double t0 = now_s();
	for (c.pass = 0;; c.pass++) {
		fail_pass(c.pass);
		for (int i = 0; i < OP_COUNT; i++) {
			const Op op = (Op)i;
			if (!(g.ops & (1u << op)) || op_info[op].last)
				continue;
			if (op_info[op].both_ways) {
				run_phase(c, op, C2S, t0);
				continue;
			}
			for (Dir d : { C2S, S2C })
				run_phase(c, op, d, t0);
		}
		// the client decides whether there is another pass
		c.phase++;
		bool more;
		if (c.client) {
			more = g.duration_ms && (now_s() - t0) * 1000 < g.duration_ms;
			if (!c.o.until.empty() && access(c.o.until.c_str(), F_OK) != 0)
				more = true;
			c.tell(M_PASS, c.pass, { more });
		} else {
			more = c.expect(M_PASS, c.pass).v[0];
		}
		if (!more)
			break;
	}
	// the steps that break the QP: one at most (config_problem())
	for (int i = 0; i < OP_COUNT; i++)
		if ((g.ops & (1u << i)) && op_info[i].last)
			run_phase(c, (Op)i, g.seed & 1 ? S2C : C2S, t0);

	// the receivers' counts (--lossy: what arrived) replace the senders'
	c.phase++;
	for (int i = 0; i < OP_COUNT; i++)
		for (Dir d : { C2S, S2C }) {
			const Stats &st = c.stats[i][d];
			if (op_info[i].both_ways || op_info[i].last || c.initiator(d) || !st.sent)
				continue;
			c.tell(M_STATS, (uint64_t)i << 1 | d, { st.ok, st.bytes, st.dup, st.reordered });
		}
	c.tell(M_BYE, 0);
	for (;;) {
		Msg m = c.recv_msg("the peer's counts");
		if (m.type == M_BYE)
			break;
		const uint64_t i = m.round >> 1;
		if (m.type != M_STATS || m.phase != c.phase || i >= OP_COUNT)
			die(EXIT_ERROR, "protocol: got %s at the end", msg_name(m.type));
		Stats &st = c.stats[i][m.round & 1];
		st.ok = m.v[0];
		st.bytes = m.v[1];
		st.dup = m.v[2];
		st.reordered = m.v[3];
	}
	c.bye = true;

	say("%u pass%s in %.1fs", c.pass + 1, c.pass ? "es" : "", now_s() - t0);
	for (int i = 0; i < OP_COUNT; i++)
		for (Dir d : { C2S, S2C }) {
			const Stats &st = c.stats[i][d];
			if (!st.sent)
				continue;
			char extra[96] = "";
			if (g.lossy)
				snprintf(extra, sizeof(extra), " lost %" PRIu64 " dup %" PRIu64 "%s",
					 st.sent - std::min(st.ok, st.sent), st.dup,
					 st.reordered ? (" reordered " + std::to_string(st.reordered)).c_str() : "");
			say("%s %s %" PRIu64 " msgs %" PRIu64 " bytes ok%s", op_info[i].name,
			    dir_name(d), st.ok, st.bytes, extra);
		}
	if (g.srq) {
		c.check_async();	// an event raised by the last receives
		say("srq limit events %" PRIu64, c.srq_events);
	}
	say("PASS %s mtu %u seed %" PRIu64, qpt_name[g.qpt], g.mtu, g.seed);
}

static void on_sigbus(int)
{
	static const char m[] = "rdma_oracle: ERROR SIGBUS (device memory gone?)\n";
	if (write(2, m, sizeof(m) - 1) < 0) {
		// nothing left to do
	}
	_exit(EXIT_ERROR);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, nullptr, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGBUS, on_sigbus);

	static Ctx c;
	parse(argc, argv, c.o);
	c.client = c.o.client();
	fail_context(c.client ? "client" : "server", 0, false);
	g_ctx = &c;
	fail_hook(notify_peer);
	ib_open(c.ib, c.o);
	setup(c);
	// --odp: every page of the ON_DEMAND MR loses its write access at
	// each fork (copy-on-write), so the device faults it in again
	std::atomic<bool> stop{ false };
	std::atomic<uint64_t> forks{ 0 };
	std::thread churn;
	if (c.o.odp)
		churn = std::thread([&] {
			while (!stop) {
				usleep(50000);
				pid_t pid = fork();
				if (pid == 0)
					_exit(0);
				if (pid > 0 && waitpid(pid, nullptr, 0) == pid)
					forks++;
			}
		});
	run(c);
	if (churn.joinable()) {
		stop = true;
		churn.join();
		say("odp: %" PRIu64 " forks write-protected the memory", (uint64_t)forks);
	}
	return 0;
}
