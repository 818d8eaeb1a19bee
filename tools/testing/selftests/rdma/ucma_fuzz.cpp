// SPDX-License-Identifier: GPL-2.0
//
// ucma_fuzz: random rdma_ucm write() commands to /dev/infiniband/rdma_cm
// from several threads of several processes (issue 15, malformed input;
// Documentation/security.rst, "Fuzzing").
//
//   ucma_fuzz [--seed N] [--cmds N] [--procs N] [--threads N] [--kill PCT]
//             ADDR
//
// ADDR is an IPv4 address of an RDMA device (rxe0's netdev): IDs bound,
// listening, resolving and connecting to it meet each other, so requests
// reach listeners, CONNECT_REQUEST events create IDs, and teardown runs
// with connections half made.  Each process opens the device file twice
// (MIGRATE_ID moves IDs between them) and runs --threads threads, each
// writing commands built from one table (one row per command: payload
// size and where its ID, response pointer, addresses and option buffer
// are): the IDs the process holds, ones it destroyed and made-up ones;
// response pointers to a buffer, NULL, unmapped or kernel addresses;
// addresses of the device, of other families and garbage; lengths short
// and long; and raw garbage.  Events are drained with GET_EVENT (the
// files are O_NONBLOCK, except in processes that will be killed: there a
// thread may sleep in GET_EVENT when the SIGKILL comes).  --kill PCT of
// the processes get SIGKILL at a random moment; the others close their
// files with whatever IDs are left.
//
// It fails (exit 1) when a write() returns a length other than the one
// written, or an errno the kernel must not leak (0, or above 133: its
// internal ERESTARTSYS, ENOTSUPP, ...), or when a killed process does
// not die within 30 s.  Leaks and splats are the harness's to find; that
// every ID went with its file shows when rdma_ucm and rdma_cm unload.
// The seed is printed; the same seed writes the same commands from each
// thread (the interleaving, and so the kernel's answers, vary).
#include <rdma/rdma_user_cm.h>

#include "fuzz_rng.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace {

const char *const DEV = "/dev/infiniband/rdma_cm";
constexpr int NO = -1;

// One row per command: where the fields the fuzzer aims are.
struct cmd_row {
	uint32_t op;
	const char *name;
	size_t size;		// the payload (after the header)
	int id;			// offset of the ID, or NO
	int resp;		// offset of the response pointer, or NO
	int addr[2];		// offsets of addresses, or NO
	bool storage;		// the addresses are sockaddr_storage (else _in6)
	int optval;		// offset of an option buffer pointer, or NO
	unsigned weight;
};

#define ROW(op, type, id, resp, a0, a1, st, opt, w) \
	{ RDMA_USER_CM_CMD_##op, #op, sizeof(struct type), id, resp, { a0, a1 }, st, opt, w }
#define OFF(type, field) ((int)offsetof(struct type, field))

const cmd_row rows[] = {
	ROW(CREATE_ID, rdma_ucm_create_id, NO, OFF(rdma_ucm_create_id, response), NO, NO,
	    false, NO, 12),
	ROW(DESTROY_ID, rdma_ucm_destroy_id, OFF(rdma_ucm_destroy_id, id),
	    OFF(rdma_ucm_destroy_id, response), NO, NO, false, NO, 5),
	ROW(BIND_IP, rdma_ucm_bind_ip, OFF(rdma_ucm_bind_ip, id), NO,
	    OFF(rdma_ucm_bind_ip, addr), NO, false, NO, 6),
	ROW(RESOLVE_IP, rdma_ucm_resolve_ip, OFF(rdma_ucm_resolve_ip, id), NO,
	    OFF(rdma_ucm_resolve_ip, src_addr), OFF(rdma_ucm_resolve_ip, dst_addr), false, NO, 6),
	ROW(RESOLVE_ROUTE, rdma_ucm_resolve_route, OFF(rdma_ucm_resolve_route, id), NO, NO, NO,
	    false, NO, 6),
	ROW(QUERY_ROUTE, rdma_ucm_query, OFF(rdma_ucm_query, id), OFF(rdma_ucm_query, response),
	    NO, NO, false, NO, 3),
	ROW(CONNECT, rdma_ucm_connect, OFF(rdma_ucm_connect, id), NO, NO, NO, false, NO, 6),
	ROW(LISTEN, rdma_ucm_listen, OFF(rdma_ucm_listen, id), NO, NO, NO, false, NO, 6),
	ROW(ACCEPT, rdma_ucm_accept, OFF(rdma_ucm_accept, id), NO, NO, NO, false, NO, 6),
	ROW(REJECT, rdma_ucm_reject, OFF(rdma_ucm_reject, id), NO, NO, NO, false, NO, 3),
	ROW(DISCONNECT, rdma_ucm_disconnect, OFF(rdma_ucm_disconnect, id), NO, NO, NO, false, NO,
	    4),
	ROW(INIT_QP_ATTR, rdma_ucm_init_qp_attr, OFF(rdma_ucm_init_qp_attr, id),
	    OFF(rdma_ucm_init_qp_attr, response), NO, NO, false, NO, 4),
	ROW(GET_EVENT, rdma_ucm_get_event, NO, OFF(rdma_ucm_get_event, response), NO, NO, false,
	    NO, 10),
	ROW(GET_OPTION, rdma_ucm_set_option, OFF(rdma_ucm_set_option, id), NO, NO, NO, false,
	    OFF(rdma_ucm_set_option, optval), 1),
	ROW(SET_OPTION, rdma_ucm_set_option, OFF(rdma_ucm_set_option, id), NO, NO, NO, false,
	    OFF(rdma_ucm_set_option, optval), 4),
	ROW(NOTIFY, rdma_ucm_notify, OFF(rdma_ucm_notify, id), NO, NO, NO, false, NO, 2),
	ROW(JOIN_IP_MCAST, rdma_ucm_join_ip_mcast, OFF(rdma_ucm_join_ip_mcast, id),
	    OFF(rdma_ucm_join_ip_mcast, response), OFF(rdma_ucm_join_ip_mcast, addr), NO, false,
	    NO, 2),
	ROW(LEAVE_MCAST, rdma_ucm_destroy_id, OFF(rdma_ucm_destroy_id, id),
	    OFF(rdma_ucm_destroy_id, response), NO, NO, false, NO, 2),
	ROW(MIGRATE_ID, rdma_ucm_migrate_id, OFF(rdma_ucm_migrate_id, id),
	    OFF(rdma_ucm_migrate_id, response), NO, NO, false, NO, 3),
	ROW(QUERY, rdma_ucm_query, OFF(rdma_ucm_query, id), OFF(rdma_ucm_query, response), NO, NO,
	    false, NO, 4),
	ROW(BIND, rdma_ucm_bind, OFF(rdma_ucm_bind, id), NO, OFF(rdma_ucm_bind, addr), NO, true,
	    NO, 6),
	ROW(RESOLVE_ADDR, rdma_ucm_resolve_addr, OFF(rdma_ucm_resolve_addr, id), NO,
	    OFF(rdma_ucm_resolve_addr, src_addr), OFF(rdma_ucm_resolve_addr, dst_addr), true, NO,
	    6),
	ROW(JOIN_MCAST, rdma_ucm_join_mcast, OFF(rdma_ucm_join_mcast, id),
	    OFF(rdma_ucm_join_mcast, response), OFF(rdma_ucm_join_mcast, addr), NO, true, NO, 2),
};

struct config {
	uint64_t seed = 0;
	uint64_t cmds = 20000;
	unsigned procs = 2, threads = 3, kill_pct = 30;
	in_addr addr{};
};

config cfg;
std::atomic<bool> violated{false};

void violation(const char *fmt, const char *name, long a, long b)
{
	char what[160];

	snprintf(what, sizeof(what), fmt, name, a, b);
	fprintf(stderr, "ucma_fuzz: VIOLATION %s\n", what);	/* one line, whole */
	violated = true;
}

constexpr size_t PAGE = 4096;

// A page the kernel may write, followed by one it cannot: a pointer near
// its end makes a copy to user space fault part way, never overrun memory
// the fuzzer uses.
uint8_t *guarded_page()
{
	void *m = mmap(nullptr, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);

	if (m == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	if (mprotect((uint8_t *)m + PAGE, PAGE, PROT_NONE)) {
		perror("mprotect");
		exit(2);
	}
	return (uint8_t *)m;
}

// One process's state, shared by its threads.
struct proc {
	int fd[2];
	std::mutex lock;
	std::vector<uint32_t> ids, gone;	// held, destroyed
	uint8_t *resp[2];	// response pages (guarded), one per file
};

uint32_t pick_id(proc &p, fuzz_rng &r)
{
	std::lock_guard<std::mutex> g(p.lock);

	if (!p.ids.empty() && r.pct(75))
		return p.ids[r.below((uint32_t)p.ids.size())];
	if (!p.gone.empty() && r.pct(50))
		return p.gone[r.below((uint32_t)p.gone.size())];
	return (uint32_t)r.edgy(32);
}

uint64_t pick_ptr(fuzz_rng &r, void *good)
{
	switch (r.below(10)) {
	case 0: return 0;
	case 1: return 1;				// unaligned, unmapped
	case 2: return 0xffff888000000000ULL;		// the kernel's
	case 3: return (uint64_t)(uintptr_t)good + PAGE - 3;	// runs into the guard page
	default: return (uint64_t)(uintptr_t)good;
	}
}

// A port of a small set, so binds, listens and connects meet.
uint16_t pick_port(fuzz_rng &r)
{
	return htons((uint16_t)(r.pct(85) ? 20700 + r.below(4) : r.edgy(16)));
}

void fill_in6(fuzz_rng &r, sockaddr_in6 *a)
{
	auto *a4 = reinterpret_cast<sockaddr_in *>(a);

	switch (r.below(8)) {
	case 0:	// IPv6 loopback / unroutable
		a->sin6_family = AF_INET6;
		a->sin6_port = pick_port(r);
		a->sin6_addr.s6_addr[15] = (uint8_t)r.below(3);
		break;
	case 1:	// garbage family and bytes
		for (size_t i = 0; i < sizeof(*a); i++)
			reinterpret_cast<uint8_t *>(a)[i] = (uint8_t)r.next();
		break;
	case 2:	// any address
		a4->sin_family = AF_INET;
		a4->sin_port = pick_port(r);
		break;
	case 3:	// an address of no device
		a4->sin_family = AF_INET;
		a4->sin_port = pick_port(r);
		a4->sin_addr.s_addr = htonl(0x0afe0000U | r.below(0x10000));
		break;
	case 4:	// multicast
		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(0xef010000U | r.below(0x100));
		break;
	default:	// the device's
		a4->sin_family = AF_INET;
		a4->sin_port = pick_port(r);
		a4->sin_addr = cfg.addr;
		break;
	}
}

// One command from @row into @buf (header included); returns its length.
size_t build(proc &p, int side, fuzz_rng &r, const cmd_row &row, uint8_t *buf,
	     uint8_t *optbuf)
{
	auto *hdr = reinterpret_cast<rdma_ucm_cmd_hdr *>(buf);
	uint8_t *pl = buf + sizeof(*hdr);
	size_t len = row.size;

	memset(pl, 0, row.size);
	if (r.pct(20))	// noise in every field first
		for (size_t i = 0; i < row.size; i++)
			if (r.pct(15))
				pl[i] = (uint8_t)r.next();
	if (row.id != NO) {
		uint32_t id = pick_id(p, r);

		memcpy(pl + row.id, &id, sizeof(id));
	}
	if (row.resp != NO) {
		uint64_t v = pick_ptr(r, p.resp[side]);

		memcpy(pl + row.resp, &v, sizeof(v));
	}
	for (int a : row.addr) {
		if (a == NO)
			continue;
		if (row.storage) {
			sockaddr_in6 s{};

			fill_in6(r, &s);
			memcpy(pl + a, &s, sizeof(s));
		} else {
			fill_in6(r, reinterpret_cast<sockaddr_in6 *>(pl + a));
		}
	}
	if (row.optval != NO) {
		uint64_t v = pick_ptr(r, optbuf);
		auto *o = reinterpret_cast<rdma_ucm_set_option *>(pl);

		memcpy(pl + row.optval, &v, sizeof(v));
		o->level = r.pct(80) ? (uint32_t)r.below(2) : (uint32_t)r.edgy(32);
		o->optname = r.pct(80) ? (uint32_t)r.below(5) : (uint32_t)r.edgy(32);
		o->optlen = r.pct(70) ? (uint32_t)r.below(9) : (uint32_t)r.edgy(32);
		for (int i = 0; i < 8; i++)
			optbuf[i] = (uint8_t)(r.pct(50) ? r.below(2) : r.next());
	}
	switch (row.op) {
	case RDMA_USER_CM_CMD_CREATE_ID: {
		auto *c = reinterpret_cast<rdma_ucm_create_id *>(pl);

		c->uid = r.next();
		c->ps = (uint16_t)(r.pct(85) ? (r.pct(70) ? (unsigned)RDMA_PS_TCP : (unsigned)RDMA_PS_UDP)
						 : r.edgy(16));
		c->qp_type = r.pct(85) ? (c->ps == RDMA_PS_UDP ? 4 : 2) : (uint8_t)r.next();
		break;
	}
	case RDMA_USER_CM_CMD_LISTEN:
		reinterpret_cast<rdma_ucm_listen *>(pl)->backlog = (uint32_t)r.edgy(32);
		break;
	case RDMA_USER_CM_CMD_RESOLVE_IP:
		reinterpret_cast<rdma_ucm_resolve_ip *>(pl)->timeout_ms =
			r.pct(80) ? 100 + r.below(2000) : (uint32_t)r.edgy(32);
		break;
	case RDMA_USER_CM_CMD_RESOLVE_ROUTE:
		reinterpret_cast<rdma_ucm_resolve_route *>(pl)->timeout_ms =
			r.pct(80) ? 100 + r.below(2000) : (uint32_t)r.edgy(32);
		break;
	case RDMA_USER_CM_CMD_RESOLVE_ADDR: {
		auto *c = reinterpret_cast<rdma_ucm_resolve_addr *>(pl);

		c->timeout_ms = r.pct(80) ? 100 + r.below(2000) : (uint32_t)r.edgy(32);
		c->src_size = r.pct(70) ? (r.pct(50) ? 0 : sizeof(sockaddr_in)) : (uint16_t)r.edgy(16);
		c->dst_size = r.pct(80) ? sizeof(sockaddr_in) : (uint16_t)r.edgy(16);
		break;
	}
	case RDMA_USER_CM_CMD_BIND:
		reinterpret_cast<rdma_ucm_bind *>(pl)->addr_size =
			r.pct(80) ? sizeof(sockaddr_in) : (uint16_t)r.edgy(16);
		break;
	case RDMA_USER_CM_CMD_JOIN_MCAST: {
		auto *c = reinterpret_cast<rdma_ucm_join_mcast *>(pl);

		c->addr_size = r.pct(80) ? sizeof(sockaddr_in) : (uint16_t)r.edgy(16);
		c->join_flags = (uint16_t)(r.pct(80) ? r.below(3) : r.edgy(16));
		break;
	}
	case RDMA_USER_CM_CMD_CONNECT:
	case RDMA_USER_CM_CMD_ACCEPT: {
		auto *cp = reinterpret_cast<rdma_ucm_conn_param *>(
			pl + (row.op == RDMA_USER_CM_CMD_ACCEPT ? offsetof(rdma_ucm_accept, conn_param)
								 : offsetof(rdma_ucm_connect, conn_param)));

		cp->qp_num = r.pct(80) ? 0x11 + r.below(64) : (uint32_t)r.edgy(32);
		cp->private_data_len = (uint8_t)(r.pct(80) ? r.below(57) : r.next());
		cp->responder_resources = (uint8_t)r.below(20);
		cp->initiator_depth = (uint8_t)r.below(20);
		cp->retry_count = (uint8_t)r.below(9);
		cp->rnr_retry_count = (uint8_t)r.below(9);
		cp->valid = (uint8_t)(r.pct(80) ? 1 : r.next());
		break;
	}
	case RDMA_USER_CM_CMD_INIT_QP_ATTR:
		reinterpret_cast<rdma_ucm_init_qp_attr *>(pl)->qp_state =
			r.pct(85) ? r.below(7) : (uint32_t)r.edgy(32);
		break;
	case RDMA_USER_CM_CMD_QUERY:
		reinterpret_cast<rdma_ucm_query *>(pl)->option =
			r.pct(85) ? r.below(3) : (uint32_t)r.edgy(32);
		break;
	case RDMA_USER_CM_CMD_MIGRATE_ID: {
		static const int bad[] = { -1, 0, 1, 2, 1000 };

		reinterpret_cast<rdma_ucm_migrate_id *>(pl)->fd =
			(uint32_t)(r.pct(80) ? p.fd[r.below(2)] : bad[r.below(5)]);
		break;
	}
	default:
		break;
	}
	hdr->cmd = row.op;
	hdr->out = (uint16_t)(row.resp != NO ? (r.pct(85) ? 4096 : r.edgy(16)) : 0);
	// lengths: as the row says, short, long, or the header alone
	switch (r.below(12)) {
	case 0: len = r.below((uint32_t)row.size); break;
	case 1: len = row.size + 1 + r.below(64); break;
	default: break;
	}
	hdr->in = (uint16_t)len;
	if (r.pct(3))	// the header lies about the length
		hdr->in = (uint16_t)r.edgy(16);
	if (r.pct(3))	// an unknown or edge command
		hdr->cmd = r.pct(50) ? (uint32_t)(r.below(8) + RDMA_USER_CM_CMD_JOIN_MCAST + 1)
				     : (uint32_t)r.edgy(32);
	return sizeof(*hdr) + len;
}

// What a successful command left for the pool: new IDs, gone IDs.
void account(proc &p, int side, const cmd_row &row, const uint8_t *pl, long ret)
{
	uint64_t rp = 0;

	if (ret <= 0)
		return;
	if (row.resp != NO)
		memcpy(&rp, pl + row.resp, sizeof(rp));
	bool good = rp == (uint64_t)(uintptr_t)p.resp[side];
	std::lock_guard<std::mutex> g(p.lock);

	switch (row.op) {
	case RDMA_USER_CM_CMD_CREATE_ID:
	case RDMA_USER_CM_CMD_JOIN_IP_MCAST:
	case RDMA_USER_CM_CMD_JOIN_MCAST:
		if (good && p.ids.size() < 256)
			p.ids.push_back(reinterpret_cast<const rdma_ucm_create_id_resp *>(
						p.resp[side])->id);
		break;
	case RDMA_USER_CM_CMD_GET_EVENT:
		if (good && p.ids.size() < 256)
			p.ids.push_back(reinterpret_cast<const rdma_ucm_event_resp *>(p.resp[side])->id);
		break;
	case RDMA_USER_CM_CMD_DESTROY_ID: {
		uint32_t id;

		memcpy(&id, pl + row.id, sizeof(id));
		for (size_t i = 0; i < p.ids.size(); i++) {
			if (p.ids[i] == id) {
				p.ids[i] = p.ids.back();
				p.ids.pop_back();
				if (p.gone.size() < 64)
					p.gone.push_back(id);
				break;
			}
		}
		break;
	}
	default:
		break;
	}
}

const cmd_row &pick_row(fuzz_rng &r)
{
	static unsigned total;

	if (!total)
		for (const auto &row : rows)
			total += row.weight;
	unsigned w = r.below(total);

	for (const auto &row : rows) {
		if (w < row.weight)
			return row;
		w -= row.weight;
	}
	return rows[0];
}

void worker(proc &p, uint64_t seed, uint64_t n)
{
	fuzz_rng r{seed};
	std::vector<uint8_t> buf(sizeof(rdma_ucm_cmd_hdr) + 1024);
	uint8_t *optbuf = guarded_page();	// GET_OPTION writes optlen bytes

	for (uint64_t i = 0; i < n && !violated; i++) {
		int side = (int)r.below(2);

		if (r.pct(2)) {	// raw garbage
			size_t len = r.below((uint32_t)buf.size());

			for (size_t k = 0; k < len; k++)
				buf[k] = (uint8_t)r.next();
			long ret = write(p.fd[side], buf.data(), len);

			if (ret >= 0 && (size_t)ret != len)
				violation("%s: write returned %ld of %ld bytes", "garbage", ret, (long)len);
			else if (ret < 0 && (errno <= 0 || errno > 133))
				violation("%s: errno %ld leaked (length %ld)", "garbage", errno, (long)len);
			continue;
		}
		const cmd_row &row = pick_row(r);
		size_t len = build(p, side, r, row, buf.data(), optbuf);
		long ret = write(p.fd[side], buf.data(), len);

		if (ret >= 0 && (size_t)ret != len)
			violation("%s: write returned %ld of %ld bytes", row.name, ret, (long)len);
		else if (ret < 0 && (errno <= 0 || errno > 133))
			violation("%s: errno %ld leaked (length %ld)", row.name, errno, (long)len);
		else
			account(p, side, row, buf.data() + sizeof(rdma_ucm_cmd_hdr), ret);
	}
}

// One fuzzing process: its files, its threads, then close with what is left.
int child(uint64_t seed, uint64_t n, bool blocking)
{
	proc *p = new proc();
	int flags = O_RDWR | O_CLOEXEC | (blocking ? 0 : O_NONBLOCK);

	for (int i = 0; i < 2; i++) {
		p->resp[i] = guarded_page();
		p->fd[i] = open(DEV, flags);
		if (p->fd[i] < 0) {
			perror(DEV);
			return 2;
		}
	}
	std::vector<std::thread> th;

	for (unsigned t = 0; t < cfg.threads; t++)
		th.emplace_back(worker, std::ref(*p), seed * 1000 + t, n / cfg.threads + 1);
	for (auto &t : th)
		t.join();
	return violated ? 1 : 0;
}

bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && *s && !*end;
}

void usage()
{
	fprintf(stderr, "usage: ucma_fuzz [--seed N] [--cmds N] [--procs N] [--threads N] "
			"[--kill PCT] ADDR\n");
	exit(2);
}

} // namespace

int main(int argc, char **argv)
{
	static const option opts[] = {
		{ "seed", required_argument, nullptr, 's' },
		{ "cmds", required_argument, nullptr, 'c' },
		{ "procs", required_argument, nullptr, 'p' },
		{ "threads", required_argument, nullptr, 't' },
		{ "kill", required_argument, nullptr, 'k' },
		{ nullptr, 0, nullptr, 0 },
	};
	uint64_t v;
	int o;

	cfg.seed = (uint64_t)time(nullptr) ^ ((uint64_t)getpid() << 20);
	while ((o = getopt_long(argc, argv, "", opts, nullptr)) != -1) {
		if (o == '?' || !optarg || !parse_u64(optarg, &v))
			usage();
		switch (o) {
		case 's': cfg.seed = v; break;
		case 'c': cfg.cmds = v; break;
		case 'p': cfg.procs = (unsigned)(v ? v : 1); break;
		case 't': cfg.threads = (unsigned)(v ? v : 1); break;
		case 'k': cfg.kill_pct = (unsigned)(v > 100 ? 100 : v); break;
		}
	}
	if (optind != argc - 1 || inet_pton(AF_INET, argv[optind], &cfg.addr) != 1)
		usage();
	printf("ucma_fuzz: seed %llu, %llu commands, %u processes at once x %u threads, "
	       "kill %u%%\n", (unsigned long long)cfg.seed, (unsigned long long)cfg.cmds,
	       cfg.procs, cfg.threads, cfg.kill_pct);
	fflush(stdout);

	fuzz_rng r{cfg.seed};
	const uint64_t per_proc = 2000;
	uint64_t done = 0, nproc = 0, killed = 0;
	int rc = 0;
	struct job { pid_t pid; bool kill; timespec at; };
	std::vector<job> jobs;

	while (done < cfg.cmds || !jobs.empty()) {
		while (done < cfg.cmds && jobs.size() < cfg.procs) {
			uint64_t n = per_proc < cfg.cmds - done ? per_proc : cfg.cmds - done;
			bool k = r.pct(cfg.kill_pct);
			uint64_t s = r.next();
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 2;
			}
			if (pid == 0)
				_exit(child(s, n, k));
			timespec at;
			clock_gettime(CLOCK_MONOTONIC, &at);
			at.tv_nsec += (long)r.below(1500) * 1000000L;
			at.tv_sec += at.tv_nsec / 1000000000L;
			at.tv_nsec %= 1000000000L;
			jobs.push_back({ pid, k, at });
			done += n;
			nproc++;
		}
		usleep(20000);
		timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (size_t i = 0; i < jobs.size();) {
			job &j = jobs[i];
			int st;

			if (j.kill && (now.tv_sec > j.at.tv_sec ||
				       (now.tv_sec == j.at.tv_sec && now.tv_nsec >= j.at.tv_nsec))) {
				kill(j.pid, SIGKILL);
				killed++;
				// it must die: 30 s
				int w = 0;

				for (; w < 3000; w++) {
					if (waitpid(j.pid, &st, WNOHANG) == j.pid)
						break;
					usleep(10000);
				}
				if (w == 3000) {
					fprintf(stderr, "ucma_fuzz: VIOLATION process %d still alive 30 s "
						"after SIGKILL\n", (int)j.pid);
					return 1;
				}
				jobs.erase(jobs.begin() + (long)i);
				continue;
			}
			pid_t w = waitpid(j.pid, &st, WNOHANG);

			if (w == j.pid) {
				if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
					fprintf(stderr, "ucma_fuzz: process %d ended with status 0x%x\n",
						(int)j.pid, st);
					rc = 1;
				}
				jobs.erase(jobs.begin() + (long)i);
				continue;
			}
			i++;
		}
	}
	printf("ucma_fuzz: %llu processes, %llu killed: %s (seed %llu)\n",
	       (unsigned long long)nproc, (unsigned long long)killed, rc ? "FAILED" : "ok",
	       (unsigned long long)cfg.seed);
	return rc;
}
