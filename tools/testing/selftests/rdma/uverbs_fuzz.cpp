// SPDX-License-Identifier: GPL-2.0
//
// uverbs_fuzz: random uverbs write() commands from several threads of
// several processes (Documentation/security.rst, "Fuzzing").
//
//   uverbs_fuzz [--seed N] [--cmds N] [--procs N] [--threads N]
//               [--per-proc N] [--kill PCT] [--ring-budget MIB] DEVICE
//   uverbs_fuzz --flush-spin DEVICE
//
// Each process opens the device's uverbs file, gets a context and runs
// --threads threads that write commands: valid ones built from the
// handles the process holds (and handles it destroyed, and made-up
// ones), the same with bytes, sizes, flags or the response pointer
// mutated, and raw garbage; extended commands and ioctl()s too.  The
// rings of its CQs, QPs and SRQs are mmapped and scribbled: producer and
// consumer indexes set to anything, slots filled with WQEs of random
// opcodes, keys, lengths and SGE counts, then the send doorbell rung.
// Its QPs are driven to RTS with each other as peers, so the data path
// runs on what was scribbled.  --kill PCT of the processes are killed
// (SIGKILL) at a random moment; all others end after --per-proc
// commands.  Up to --procs processes run at once until --cmds commands
// have been written in all.  The queue sizes one process gets accepted
// stay within --ring-budget MiB (64); larger ones are rewritten to sizes
// the device refuses (see "queue memory").
//
// It fails (exit 1) when a write() returns a length other than the one
// written, or an errno the kernel must not leak (0, or above 133: its
// internal ERESTARTSYS, ENOTSUPP, ...), or when a killed process does
// not die within 30 s (an unkillable task).  The kernel's own reports
// (KASAN, lockdep, soft lockups, hung tasks) are the harness's to find.
//
// The seed is printed; the same seed writes the same commands from each
// thread (the threads' interleaving, and so the kernel's answers, vary).
#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rdma_user_rxe.h>

#include "fuzz_rng.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

// one stream per thread, from (seed, process, thread)
using Rng = fuzz_rng;

// What all processes add to: a MAP_SHARED page.
struct Shared {
	std::atomic<uint64_t> cmds, ok, failed, mutated, scribbles, mmaps, ioctls, gated;
	std::atomic<uint32_t> violations;
	char first_violation[256];
};
Shared *sh;

void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void violation(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (sh->violations.fetch_add(1) == 0)
		memcpy(sh->first_violation, buf, sizeof(buf));
	fprintf(stderr, "uverbs_fuzz: VIOLATION %s\n", buf);
}

enum Kind { PD, CQ, QP, SRQ, MR, MW, AH, NKINDS };

// A core response followed by the driver's (the uapi structs end in
// flexible arrays, so they cannot be members of one struct).
template <class C, class D> struct Resp2 {
	alignas(8) uint8_t b[sizeof(C) + sizeof(D)];
	C core() const
	{
		C c;
		memcpy(&c, b, sizeof(C));
		return c;
	}
	D drv() const
	{
		D d;
		memcpy(&d, b + sizeof(C), sizeof(D));
		return d;
	}
};

struct Ring {
	uint8_t *base;
	size_t size;
	int kind;	// CQ, QP (send), SRQ, or -QP-1 for a receive queue
	uint32_t handle;
};

constexpr size_t ARENA = 1 << 20;
constexpr unsigned MAX_RINGS = 48;
constexpr unsigned POOL = 64;

// One process's view: the uverbs file and what it holds.
struct Proc {
	int fd = -1;
	int async_fd = -1;
	uint8_t gid[16] = {};
	int sgid = 1;
	uint8_t *arena = nullptr;
	std::mutex m;
	std::vector<uint32_t> h[NKINDS];
	std::vector<uint32_t> dead[NKINDS];
	std::vector<uint32_t> qpns, lkeys, rkeys, ah_nums;
	std::vector<Ring> rings;
	std::vector<int> channels;
	uint64_t ring_bytes = 0;	// what its accepted queue sizes may have cost
	ib_uverbs_query_device_resp dev{};

	void add(int k, uint32_t v)
	{
		std::lock_guard<std::mutex> g(m);
		if (h[k].size() >= POOL)
			h[k].erase(h[k].begin());
		h[k].push_back(v);
	}
	void addv(std::vector<uint32_t> &v, uint32_t x)
	{
		std::lock_guard<std::mutex> g(m);
		if (v.size() >= POOL)
			v.erase(v.begin());
		v.push_back(x);
	}
	// a handle of kind @k: mostly a live one, sometimes a destroyed or a
	// made-up one
	uint32_t pick(Rng &r, int k)
	{
		std::lock_guard<std::mutex> g(m);
		uint32_t c = r.below(100);
		if (c < 80 && !h[k].empty())
			return h[k][r.below((uint32_t)h[k].size())];
		if (c < 92 && !dead[k].empty())
			return dead[k][r.below((uint32_t)dead[k].size())];
		return (uint32_t)r.edgy(32);
	}
	uint32_t pickv(Rng &r, std::vector<uint32_t> &v)
	{
		std::lock_guard<std::mutex> g(m);
		if (!v.empty() && r.pct(85))
			return v[r.below((uint32_t)v.size())];
		return (uint32_t)r.edgy(32);
	}
	void destroyed(int k, uint32_t v)
	{
		std::lock_guard<std::mutex> g(m);
		for (size_t i = 0; i < h[k].size(); i++)
			if (h[k][i] == v) {
				h[k].erase(h[k].begin() + (long)i);
				break;
			}
		if (dead[k].size() >= POOL)
			dead[k].erase(dead[k].begin());
		dead[k].push_back(v);
	}
};

// ---- writing a command

// Where the kernel writes responses: a mutated out size makes it write
// (or clear) up to 1 MiB, and a mutated pointer lands anywhere nearby,
// so each thread points it at the middle of a 4 MiB region of its own.
constexpr size_t SCRATCH = 4 << 20;
thread_local uint8_t *scratch;

uint8_t *out_buf()
{
	if (!scratch) {
		void *a = mmap(nullptr, SCRATCH, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a == MAP_FAILED) {
			perror("uverbs_fuzz: mmap");
			_exit(3);
		}
		scratch = (uint8_t *)a;
	}
	return scratch + SCRATCH / 4;
}

bool exact;	// no mutation (--flush-spin builds its QP with this)

bool leaked(int e)
{
	return e <= 0 || e > 133;
}

// ---- queue memory
//
// The rings of CQs, QPs and SRQs (and a QP's WQE copies) are charged to
// the memory cgroup the fuzzer runs in.  A process keeps the queue sizes
// the device would accept within --ring-budget MiB, counted from the
// bytes each command carries as written (so mutated and raw commands
// too), and never credited back while it lives.  A size over the budget
// is rewritten to 0xffffffff, which the device must refuse.  Without the
// bound, sizes up to the device's maxima (1 Mi WRs of 32 SGEs) fill any
// cgroup, and then the fuzzer's own page faults meet its OOM killer.
uint64_t ring_budget = 64ULL << 20;

uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p2 = 1;

	while (p2 < v)
		p2 <<= 1;
	return p2;
}

// a ring of @n entries of @elem bytes: one slot more than asked, each a
// power of two of at least 64 bytes, behind a page of indexes
uint64_t ring_cost(uint32_t n, uint64_t elem)
{
	return 4096 + pow2_at_least((uint64_t)n + 1) * pow2_at_least(elem < 64 ? 64 : elem);
}

uint32_t field(const uint8_t *b, size_t len, size_t off)
{
	uint32_t v = 0;

	if (off + 4 <= len)
		memcpy(&v, b + off, 4);
	return v;
}

// a CREATE_QP's queue sizes, legacy or extended (@T), its core at @core
struct QpSizes {
	uint32_t swr, rwr, ssge, rsge, inl, srq;
	size_t swr_at;
};

template <class T> QpSizes qp_sizes(const uint8_t *b, size_t len, size_t core)
{
	QpSizes q;

	q.swr = field(b, len, core + offsetof(T, max_send_wr));
	q.rwr = field(b, len, core + offsetof(T, max_recv_wr));
	q.ssge = field(b, len, core + offsetof(T, max_send_sge));
	q.rsge = field(b, len, core + offsetof(T, max_recv_sge));
	q.inl = field(b, len, core + offsetof(T, max_inline_data));
	q.srq = field(b, len, core + offsetof(T, is_srq)) & 0xff;
	q.swr_at = core + offsetof(T, max_send_wr);
	return q;
}

// What a command in @b may allocate for queues (0: nothing, or refused
// by the device's limits); *@size_off: the field to rewrite when over.
uint64_t queue_cost(const Proc &p, const uint8_t *b, size_t len, size_t *size_off)
{
	const ib_uverbs_query_device_resp &d = p.dev;
	uint32_t command = field(b, len, 0);
	bool ex = command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	size_t core = ex ? 24 : 8;
	uint32_t num = command & IB_USER_VERBS_CMD_COMMAND_MASK;

#define F(type, member) field(b, len, core + offsetof(type, member))
#define AT(type, member) (core + offsetof(type, member))
	if (!ex && (num == IB_USER_VERBS_CMD_CREATE_CQ || num == IB_USER_VERBS_CMD_RESIZE_CQ)) {
		uint32_t cqe = num == IB_USER_VERBS_CMD_CREATE_CQ ?
			F(ib_uverbs_create_cq, cqe) : F(ib_uverbs_resize_cq, cqe);
		*size_off = num == IB_USER_VERBS_CMD_CREATE_CQ ?
			AT(ib_uverbs_create_cq, cqe) : AT(ib_uverbs_resize_cq, cqe);
		return cqe > d.max_cqe ? 0 : ring_cost(cqe, sizeof(ib_uverbs_wc));
	}
	if (ex && num == IB_USER_VERBS_EX_CMD_CREATE_CQ) {
		uint32_t cqe = F(ib_uverbs_ex_create_cq, cqe);
		*size_off = AT(ib_uverbs_ex_create_cq, cqe);
		return cqe > d.max_cqe ? 0 : ring_cost(cqe, sizeof(ib_uverbs_wc));
	}
	if ((!ex && num == IB_USER_VERBS_CMD_CREATE_QP) ||
	    (ex && num == IB_USER_VERBS_EX_CMD_CREATE_QP)) {
		QpSizes q = ex ? qp_sizes<ib_uverbs_ex_create_qp>(b, len, core) :
				 qp_sizes<ib_uverbs_create_qp>(b, len, core);
		uint32_t swr = q.swr, ssge = q.ssge, inl = q.inl;
		*size_off = q.swr_at;
		if (swr > d.max_qp_wr || ssge > d.max_sge)
			return 0;
		uint64_t extra = (uint64_t)ssge * sizeof(rxe_sge);
		uint64_t sq = ring_cost(swr, sizeof(rxe_send_wqe) + (inl > extra ? inl : extra));
		/* the WQE copies grow up to the ring; their descriptors beside */
		uint64_t cost = 2 * sq + pow2_at_least((uint64_t)swr + 1) * 128;
		if (!q.srq && q.rwr <= d.max_qp_wr && q.rsge <= d.max_sge)
			cost += ring_cost(q.rwr, sizeof(rxe_recv_wqe) +
					       (uint64_t)q.rsge * sizeof(rxe_sge));
		return cost;
	}
	if (!ex && num == IB_USER_VERBS_CMD_CREATE_SRQ) {
		uint32_t wr = F(ib_uverbs_create_srq, max_wr), sge = F(ib_uverbs_create_srq, max_sge);
		*size_off = AT(ib_uverbs_create_srq, max_wr);
		if (wr > d.max_srq_wr || sge > d.max_srq_sge)
			return 0;
		return ring_cost(wr, sizeof(rxe_recv_wqe) + (uint64_t)sge * sizeof(rxe_sge));
	}
	if (!ex && num == IB_USER_VERBS_CMD_MODIFY_SRQ) {
		uint32_t wr = F(ib_uverbs_modify_srq, max_wr);
		*size_off = AT(ib_uverbs_modify_srq, max_wr);
		if (!(F(ib_uverbs_modify_srq, attr_mask) & IBV_SRQ_MAX_WR) || wr > d.max_srq_wr)
			return 0;
		/* the SRQ's SGE count is not in the command: the largest */
		return ring_cost(wr, sizeof(rxe_recv_wqe) + (uint64_t)d.max_srq_sge * sizeof(rxe_sge));
	}
#undef F
#undef AT
	return 0;
}

// Charges @b's queue cost to @p's budget, or rewrites its size to one
// the device refuses.  Returns what was charged.
uint64_t queue_gate(Proc &p, uint8_t *b, size_t len)
{
	size_t off = 0;
	uint64_t cost = queue_cost(p, b, len, &off);

	if (!cost)
		return 0;
	std::lock_guard<std::mutex> g(p.m);
	if (p.ring_bytes + cost <= ring_budget) {
		p.ring_bytes += cost;
		return cost;
	}
	uint32_t over = 0xffffffff;
	if (off + 4 <= len)
		memcpy(b + off, &over, 4);
	sh->gated++;
	return 0;
}

// write() @len bytes of @buf (its queue sizes gated first); checks the
// answer; 0 or the errno
int wr(Proc &p, uint8_t *buf, size_t len, bool mutated)
{
	uint64_t cost = queue_gate(p, buf, len);
	ssize_t n = write(p.fd, buf, len);
	int e = n < 0 ? errno : 0;

	if (e && cost) {	/* refused: nothing was allocated */
		std::lock_guard<std::mutex> g(p.m);
		p.ring_bytes -= cost;
	}

	sh->cmds++;
	if (mutated)
		sh->mutated++;
	if (n >= 0 && (size_t)n != len) {
		uint32_t cmd;
		memcpy(&cmd, buf, sizeof(cmd));
		violation("command 0x%x: write of %zu returned %zd", cmd, len, n);
		return EIO;
	}
	if (n < 0 && leaked(e)) {
		uint32_t cmd = 0;
		if (len >= 4)
			memcpy(&cmd, buf, sizeof(cmd));
		violation("command 0x%x (%zu bytes): errno %d leaked", cmd, len, e);
	}
	if (e)
		sh->failed++;
	else
		sh->ok++;
	return e;
}

// a read-only object: a response written there faults
const uint8_t junk_ro[64] = { 1 };

// Mutate a command in place: a byte, a bit, the sizes, the response.
// Returns the new length.
size_t mutate(Rng &r, std::vector<uint8_t> &b, size_t len)
{
	int n = 1 + (int)r.below(3);
	while (n--) {
		switch (r.below(8)) {
		case 0:	/* a byte anywhere */
			if (len)
				b[r.below((uint32_t)len)] = (uint8_t)r.next();
			break;
		case 1:	/* a bit anywhere */
			if (len)
				b[r.below((uint32_t)len)] ^= (uint8_t)(1u << r.below(8));
			break;
		case 2: {	/* in_words */
			uint16_t w = (uint16_t)r.edgy(16);
			memcpy(&b[4], &w, 2);
			break;
		}
		case 3: {	/* out_words */
			uint16_t w = (uint16_t)r.edgy(16);
			memcpy(&b[6], &w, 2);
			break;
		}
		case 4:	/* shorter */
			len = r.below((uint32_t)len + 1);
			break;
		case 5: {	/* longer, with junk */
			size_t more = r.below(256);
			if (b.size() < len + more)
				b.resize(len + more);
			for (size_t i = 0; i < more; i++)
				b[len + i] = (uint8_t)r.next();
			len += more;
			break;
		}
		case 6: {	/* the response pointer (first field) */
			static const uint64_t bad[] = {
				0, 1, 0xffffffffffffffffULL, 0xffff888000000000ULL,
				0x7ffffffff000ULL,
			};
			uint64_t v = r.pct(30) ? (uint64_t)(uintptr_t)junk_ro
					       : bad[r.below(5)];
			if (len >= 16)
				memcpy(&b[8], &v, 8);
			break;
		}
		default: {	/* the command word's flag bits */
			uint32_t c;
			memcpy(&c, &b[0], 4);
			c ^= 1u << r.below(32);
			memcpy(&b[0], &c, 4);
			break;
		}
		}
	}
	return len;
}

// A legacy command: header, @core (whose first u64 is the response
// pointer when @resp_len), @drv bytes of driver data.  The response
// lands in @resp.  Mutated now and then.  Returns the errno (0: done,
// and the response is valid).
int cmd(Proc &p, Rng &r, uint32_t command, void *core, size_t core_len, void *resp,
	size_t resp_len, const void *drv = nullptr, size_t drv_len = 0)
{
	std::vector<uint8_t> b(8 + core_len + drv_len);
	ib_uverbs_cmd_hdr hdr{};
	size_t len = b.size();

	uint8_t *out = out_buf();
	if (resp_len) {
		uint64_t ptr = (uint64_t)(uintptr_t)out;
		memcpy(core, &ptr, sizeof(ptr));
		memset(out, 0, resp_len);
	}
	hdr.command = command;
	hdr.in_words = (uint16_t)(len / 4);
	hdr.out_words = (uint16_t)(resp_len / 4);
	memcpy(b.data(), &hdr, 8);
	memcpy(b.data() + 8, core, core_len);
	if (drv_len)
		memcpy(b.data() + 8 + core_len, drv, drv_len);
	bool mut = !exact && r.pct(12);
	if (mut)
		len = mutate(r, b, len);
	int e = wr(p, b.data(), len, mut);
	if (resp_len)
		memcpy(resp, out, resp_len);
	return mut && !e ? -1 : e;	// a mutated success: the response is not trusted
}

// ---- rings

void map_ring(Proc &p, Rng &r, const mminfo &mi, int kind, uint32_t handle)
{
	if (!mi.size)
		return;
	size_t size = mi.size;
	off_t off = (off_t)mi.offset;
	if (r.pct(5))
		size += 4096 * (1 + r.below(4));	/* too long */
	if (r.pct(3))
		off += 4096;			/* somebody else's cookie, or none */
	void *a = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd, off);
	sh->mmaps++;
	if (a == MAP_FAILED)
		return;
	std::lock_guard<std::mutex> g(p.m);
	if (p.rings.size() >= MAX_RINGS) {
		munmap(a, size);	/* nobody else has seen it */
		return;
	}
	p.rings.push_back(Ring{ (uint8_t *)a, size, kind, handle });
}

uint32_t *ring_u32(Ring &g, size_t off)
{
	return off + 4 <= g.size ? (uint32_t *)(g.base + off) : nullptr;
}

void fill_sge(Proc &p, Rng &r, rxe_sge *s)
{
	s->addr = r.pct(80) ? (uint64_t)(uintptr_t)(p.arena + r.below(ARENA)) : r.edgy(64);
	s->length = r.pct(80) ? r.below(8192) : (uint32_t)r.edgy(32);
	s->lkey = p.pickv(r, p.lkeys);
}

void fill_send_wqe(Proc &p, Rng &r, uint8_t *slot, size_t slot_size)
{
	rxe_send_wqe w;
	memset(&w, 0, sizeof(w));
	w.wr.wr_id = r.next();
	w.wr.opcode = r.pct(90) ? r.below(16) : (uint32_t)r.edgy(32);	/* to ATOMIC WRITE */
	w.wr.send_flags = r.pct(70) ? r.below(16) : (uint32_t)r.edgy(32);
	w.wr.ex.imm_data = (uint32_t)r.next();
	if (r.pct(50)) {
		w.wr.wr.rdma.remote_addr = r.pct(80) ?
			(uint64_t)(uintptr_t)(p.arena + r.below(ARENA)) : r.edgy(64);
		w.wr.wr.rdma.rkey = p.pickv(r, p.rkeys);
	} else if (r.pct(50)) {
		w.wr.wr.ud.remote_qpn = p.pickv(r, p.qpns);
		w.wr.wr.ud.remote_qkey = r.pct(50) ? 0x11111111 : (uint32_t)r.next();
		w.wr.wr.ud.ah_num = p.pickv(r, p.ah_nums);
	} else {
		w.wr.wr.mw.addr = (uint64_t)(uintptr_t)(p.arena + r.below(ARENA));
		w.wr.wr.mw.length = r.edgy(64);
		w.wr.wr.mw.mr_lkey = p.pickv(r, p.lkeys);
		w.wr.wr.mw.mw_rkey = p.pickv(r, p.rkeys);
		w.wr.wr.mw.rkey = (uint32_t)r.next();
		w.wr.wr.mw.access = (uint32_t)r.edgy(32);
	}
	w.iova = w.wr.wr.rdma.remote_addr;
	uint32_t nsge = r.pct(85) ? r.below(5) : (uint32_t)r.edgy(32);
	w.dma.num_sge = nsge;
	w.dma.length = w.dma.resid = r.pct(70) ? r.below(16384) : (uint32_t)r.edgy(32);
	w.dma.cur_sge = r.pct(90) ? 0 : (uint32_t)r.edgy(32);
	w.dma.sge_offset = r.pct(90) ? 0 : (uint32_t)r.edgy(32);
	if (r.pct(10)) {	/* the kernel's scratch fields, written anyway */
		w.status = (uint32_t)r.next();
		w.state = (uint32_t)r.next();
		w.first_psn = (uint32_t)r.next();
		w.has_rd_atomic = (uint32_t)r.next();
	}
	size_t head = sizeof(w) < slot_size ? sizeof(w) : slot_size;
	memcpy(slot, &w, head);
	for (uint32_t i = 0; i < nsge && i < 8; i++) {
		size_t off = sizeof(w) + i * sizeof(rxe_sge);
		if (off + sizeof(rxe_sge) > slot_size)
			break;
		rxe_sge s;
		fill_sge(p, r, &s);
		memcpy(slot + off, &s, sizeof(s));
	}
}

void fill_recv_wqe(Proc &p, Rng &r, uint8_t *slot, size_t slot_size)
{
	rxe_recv_wqe w;
	memset(&w, 0, sizeof(w));
	w.wr_id = r.next();
	uint32_t nsge = r.pct(85) ? r.below(4) : (uint32_t)r.edgy(32);
	w.dma.num_sge = nsge;
	w.dma.length = w.dma.resid = r.pct(70) ? r.below(16384) : (uint32_t)r.edgy(32);
	size_t head = sizeof(w) < slot_size ? sizeof(w) : slot_size;
	memcpy(slot, &w, head);
	for (uint32_t i = 0; i < nsge && i < 8; i++) {
		size_t off = sizeof(w) + i * sizeof(rxe_sge);
		if (off + sizeof(rxe_sge) > slot_size)
			break;
		rxe_sge s;
		fill_sge(p, r, &s);
		memcpy(slot + off, &s, sizeof(s));
	}
}

void doorbell(Proc &p, Rng &r, uint32_t qp);

// Scribble one mapped ring: its slots, its indexes (ours and the
// kernel's), then ring the doorbell of a QP.
void scribble(Proc &p, Rng &r)
{
	Ring g;
	{
		std::lock_guard<std::mutex> l(p.m);
		if (p.rings.empty())
			return;
		g = p.rings[r.below((uint32_t)p.rings.size())];
	}
	sh->scribbles++;
	volatile uint32_t *hdr = (volatile uint32_t *)g.base;
	uint32_t log2 = hdr[0] & 31, mask = hdr[1];
	size_t slot_size = (size_t)1 << log2;
	volatile uint32_t *prod = ring_u32(g, 128), *cons = ring_u32(g, 256);
	if (!prod || !cons)
		return;
	uint32_t n = 1 + r.below(8);
	uint32_t pi = *prod;
	for (uint32_t i = 0; i < n; i++) {
		size_t off = 384 + (size_t)((pi + i) & mask) * slot_size;
		if (off + slot_size > g.size)
			break;
		if (g.kind == QP)
			fill_send_wqe(p, r, g.base + off, slot_size);
		else if (g.kind != CQ)
			fill_recv_wqe(p, r, g.base + off, slot_size);
		else if (r.pct(20))
			memset(g.base + off, (int)r.below(256), slot_size);
	}
	switch (r.below(10)) {
	case 0: *prod = (uint32_t)r.edgy(32); break;	/* anything */
	case 1: *cons = (uint32_t)r.edgy(32); break;
	case 2: *prod = (*cons - 1) & mask; break;	/* full */
	case 3: *cons = *prod; break;			/* consumed all */
	default:
		if (g.kind == CQ)
			*cons = *prod;	/* poll everything: keep the CQ open */
		else
			*prod = (pi + n) & mask;
		break;
	}
	if (g.kind == QP && r.pct(80))
		doorbell(p, r, g.handle);
	if (r.pct(5))	/* the header the kernel wrote */
		hdr[r.below(2)] = (uint32_t)r.edgy(32);
}

// ---- the commands

uint8_t ctype(Rng &r)
{
	static const uint8_t t[] = { IB_UVERBS_QPT_RC, IB_UVERBS_QPT_UC, IB_UVERBS_QPT_UD };
	return r.pct(95) ? t[r.below(3)] : (uint8_t)r.next();
}

void doorbell(Proc &p, Rng &r, uint32_t qp)
{
	ib_uverbs_post_send c{};
	ib_uverbs_post_send_resp resp;
	c.qp_handle = qp;
	c.wqe_size = 128;
	cmd(p, r, IB_USER_VERBS_CMD_POST_SEND, &c, sizeof(c), &resp, sizeof(resp));
}

// a destroy command of a @kind handle: request @C (the handle in
// @handle), response @R (or none)
struct no_resp {};
template <class C, class R = no_resp>
void destroy(Proc &p, Rng &r, int kind, uint32_t command, uint32_t C::*handle)
{
	C c{};
	R resp;
	size_t resp_len = std::is_same<R, no_resp>::value ? 0 : sizeof(resp);

	c.*handle = p.pick(r, kind);
	if (!cmd(p, r, command, &c, sizeof(c), resp_len ? &resp : nullptr, resp_len))
		p.destroyed(kind, c.*handle);
}

void do_query(Proc &p, Rng &r)
{
	if (r.pct(50)) {
		ib_uverbs_query_device c{};
		ib_uverbs_query_device_resp resp;
		cmd(p, r, IB_USER_VERBS_CMD_QUERY_DEVICE, &c, sizeof(c), &resp, sizeof(resp));
	} else {
		ib_uverbs_query_port c{};
		ib_uverbs_query_port_resp resp;
		c.port_num = (uint8_t)(r.pct(80) ? 1 : r.next());
		cmd(p, r, IB_USER_VERBS_CMD_QUERY_PORT, &c, sizeof(c), &resp, sizeof(resp));
	}
}

void do_pd(Proc &p, Rng &r)
{
	if (r.pct(60)) {
		ib_uverbs_alloc_pd c{};
		ib_uverbs_alloc_pd_resp resp;
		if (!cmd(p, r, IB_USER_VERBS_CMD_ALLOC_PD, &c, sizeof(c), &resp, sizeof(resp)))
			p.add(PD, resp.pd_handle);
	} else {
		destroy<ib_uverbs_dealloc_pd>(p, r, PD, IB_USER_VERBS_CMD_DEALLOC_PD,
							&ib_uverbs_dealloc_pd::pd_handle);
	}
}

void do_mr(Proc &p, Rng &r)
{
	uint32_t what = r.below(10);
	if (what < 5) {
		ib_uverbs_reg_mr c{};
		ib_uverbs_reg_mr_resp resp;
		uint64_t off = r.below(ARENA);
		c.start = (uint64_t)(uintptr_t)(p.arena + off);
		c.length = 1 + r.below((uint32_t)(ARENA - off));
		void *tmp = nullptr;
		switch (r.below(10)) {
		case 0: c.start = r.edgy(64); break;
		case 1: c.length = r.edgy(64); break;
		case 2:	/* memory unmapped right after the registration */
			tmp = mmap(nullptr, 65536, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (tmp != MAP_FAILED) {
				c.start = (uint64_t)(uintptr_t)tmp;
				c.length = 65536;
			} else {
				tmp = nullptr;
			}
			break;
		default: break;
		}
		c.hca_va = r.pct(80) ? c.start : r.edgy(64);
		c.pd_handle = p.pick(r, PD);
		c.access_flags = r.pct(80) ? r.below(32) : (uint32_t)r.edgy(32);
		if (!cmd(p, r, IB_USER_VERBS_CMD_REG_MR, &c, sizeof(c), &resp, sizeof(resp))) {
			p.add(MR, resp.mr_handle);
			p.addv(p.lkeys, resp.lkey);
			p.addv(p.rkeys, resp.rkey);
		}
		if (tmp)
			munmap(tmp, 65536);
	} else if (what < 7) {
		ib_uverbs_rereg_mr c{};
		ib_uverbs_rereg_mr_resp resp;
		c.mr_handle = p.pick(r, MR);
		c.flags = (uint32_t)(r.pct(80) ? 1 + r.below(7) : r.edgy(32));
		uint64_t off = r.below(ARENA);
		c.start = (uint64_t)(uintptr_t)(p.arena + off);
		c.length = r.pct(90) ? 1 + r.below((uint32_t)(ARENA - off)) : r.edgy(64);
		c.hca_va = c.start;
		c.pd_handle = p.pick(r, PD);
		c.access_flags = r.below(32);
		if (!cmd(p, r, IB_USER_VERBS_CMD_REREG_MR, &c, sizeof(c), &resp, sizeof(resp))) {
			p.addv(p.lkeys, resp.lkey);
			p.addv(p.rkeys, resp.rkey);
		}
	} else {
		destroy<ib_uverbs_dereg_mr>(p, r, MR, IB_USER_VERBS_CMD_DEREG_MR,
							&ib_uverbs_dereg_mr::mr_handle);
	}
}

void do_mw(Proc &p, Rng &r)
{
	if (r.pct(60)) {
		ib_uverbs_alloc_mw c{};
		ib_uverbs_alloc_mw_resp resp;
		c.pd_handle = p.pick(r, PD);
		c.mw_type = (uint8_t)(r.pct(90) ? 1 + r.below(2) : r.next());
		if (!cmd(p, r, IB_USER_VERBS_CMD_ALLOC_MW, &c, sizeof(c), &resp, sizeof(resp))) {
			p.add(MW, resp.mw_handle);
			p.addv(p.rkeys, resp.rkey);
		}
	} else {
		destroy<ib_uverbs_dealloc_mw>(p, r, MW, IB_USER_VERBS_CMD_DEALLOC_MW,
							&ib_uverbs_dealloc_mw::mw_handle);
	}
}

void do_cq(Proc &p, Rng &r)
{
	uint32_t what = r.below(10);
	if (what < 4) {
		ib_uverbs_create_cq c{};
		Resp2<ib_uverbs_create_cq_resp, rxe_create_cq_resp> resp;
		c.user_handle = r.next();
		c.cqe = r.pct(90) ? 1 + r.below(300) : (uint32_t)r.edgy(32);
		c.comp_vector = r.pct(90) ? 0 : (uint32_t)r.edgy(32);
		c.comp_channel = -1;
		{
			std::lock_guard<std::mutex> g(p.m);
			if (!p.channels.empty() && r.pct(40))
				c.comp_channel = p.channels[r.below((uint32_t)p.channels.size())];
		}
		if (!cmd(p, r, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &resp, sizeof(resp))) {
			p.add(CQ, resp.core().cq_handle);
			if (r.pct(70))
				map_ring(p, r, resp.drv().mi, CQ, resp.core().cq_handle);
		}
	} else if (what < 6) {
		ib_uverbs_resize_cq c{};
		Resp2<ib_uverbs_resize_cq_resp, rxe_resize_cq_resp> resp;
		c.cq_handle = p.pick(r, CQ);
		c.cqe = r.pct(90) ? 1 + r.below(600) : (uint32_t)r.edgy(32);
		if (!cmd(p, r, IB_USER_VERBS_CMD_RESIZE_CQ, &c, sizeof(c), &resp, sizeof(resp)) &&
		    r.pct(50))
			map_ring(p, r, resp.drv().mi, CQ, c.cq_handle);
	} else if (what < 8) {
		ib_uverbs_req_notify_cq c{};
		c.cq_handle = p.pick(r, CQ);
		c.solicited_only = r.pct(90) ? r.below(2) : (uint32_t)r.next();
		cmd(p, r, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &c, sizeof(c), nullptr, 0);
	} else {
		destroy<ib_uverbs_destroy_cq, ib_uverbs_destroy_cq_resp>(p, r, CQ, IB_USER_VERBS_CMD_DESTROY_CQ,
							   &ib_uverbs_destroy_cq::cq_handle);
	}
}

void do_channel(Proc &p, Rng &r)
{
	if (r.pct(50)) {
		ib_uverbs_create_comp_channel c{};
		ib_uverbs_create_comp_channel_resp resp;
		if (!cmd(p, r, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &c, sizeof(c), &resp,
			 sizeof(resp))) {
			int fd = (int)resp.fd;
			fcntl(fd, F_SETFL, O_NONBLOCK);
			std::lock_guard<std::mutex> g(p.m);
			if (p.channels.size() >= 8) {	/* closed under CQs that use it */
				close(p.channels.front());
				p.channels.erase(p.channels.begin());
			}
			p.channels.push_back(fd);
		}
		return;
	}
	/* read the events that are there */
	int fd = p.async_fd;
	{
		std::lock_guard<std::mutex> g(p.m);
		if (!p.channels.empty() && r.pct(60))
			fd = p.channels[r.below((uint32_t)p.channels.size())];
	}
	char buf[64];
	size_t len = r.pct(80) ? sizeof(buf) : r.below(sizeof(buf));
	ssize_t n = read(fd, buf, len);
	if (n < 0 && leaked(errno) && errno != EBADF)
		violation("read of an event file: errno %d leaked", errno);
}

void do_qp(Proc &p, Rng &r)
{
	uint32_t what = r.below(10);
	if (what < 4) {
		ib_uverbs_create_qp c{};
		Resp2<ib_uverbs_create_qp_resp, rxe_create_qp_resp> resp;
		c.user_handle = r.next();
		c.pd_handle = p.pick(r, PD);
		c.send_cq_handle = p.pick(r, CQ);
		c.recv_cq_handle = r.pct(70) ? c.send_cq_handle : p.pick(r, CQ);
		c.is_srq = r.pct(20);
		c.srq_handle = c.is_srq ? p.pick(r, SRQ) : 0;
		c.max_send_wr = r.pct(90) ? 1 + r.below(64) : (uint32_t)r.edgy(32);
		c.max_recv_wr = r.pct(90) ? 1 + r.below(64) : (uint32_t)r.edgy(32);
		c.max_send_sge = r.pct(90) ? 1 + r.below(4) : (uint32_t)r.edgy(32);
		c.max_recv_sge = r.pct(90) ? 1 + r.below(4) : (uint32_t)r.edgy(32);
		c.max_inline_data = r.pct(90) ? r.below(128) : (uint32_t)r.edgy(32);
		c.sq_sig_all = (uint8_t)r.below(2);
		c.qp_type = ctype(r);
		if (!cmd(p, r, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), &resp, sizeof(resp))) {
			p.add(QP, resp.core().qp_handle);
			p.addv(p.qpns, resp.core().qpn);
			if (r.pct(80))
				map_ring(p, r, resp.drv().sq_mi, QP, resp.core().qp_handle);
			if (r.pct(70))
				map_ring(p, r, resp.drv().rq_mi, -QP - 1, resp.core().qp_handle);
		}
	} else if (what < 8) {
		ib_uverbs_modify_qp c{};
		c.qp_handle = p.pick(r, QP);
		uint32_t step = r.below(8);
		c.dest.is_global = 1;
		c.dest.port_num = 1;
		c.dest.hop_limit = 64;
		c.dest.sgid_index = (uint8_t)(r.pct(90) ? p.sgid : r.next());
		memcpy(c.dest.dgid, p.gid, 16);
		switch (step) {
		case 0:	/* RESET -> INIT */
			c.qp_state = IBV_QPS_INIT;
			c.attr_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				      (r.pct(50) ? IBV_QP_ACCESS_FLAGS : IBV_QP_QKEY);
			c.port_num = 1;
			c.qkey = 0x11111111;
			c.qp_access_flags = r.below(16);
			break;
		case 1:	/* INIT -> RTR, a peer among our own QPs */
			c.qp_state = IBV_QPS_RTR;
			c.attr_mask = IBV_QP_STATE;
			if (r.pct(80))
				c.attr_mask |= IBV_QP_AV | IBV_QP_PATH_MTU |
					       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					       IBV_QP_MAX_DEST_RD_ATOMIC |
					       IBV_QP_MIN_RNR_TIMER;
			c.path_mtu = (uint8_t)(1 + r.below(5));
			c.dest_qp_num = p.pickv(r, p.qpns);
			c.rq_psn = r.pct(50) ? 0 : (uint32_t)r.next() & 0xffffff;
			c.max_dest_rd_atomic = (uint8_t)r.below(17);
			c.min_rnr_timer = (uint8_t)r.below(32);
			break;
		case 2:	/* RTR -> RTS, retries short */
			c.qp_state = IBV_QPS_RTS;
			c.attr_mask = IBV_QP_STATE;
			if (r.pct(80))
				c.attr_mask |= IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
					       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					       IBV_QP_MAX_QP_RD_ATOMIC;
			c.sq_psn = r.pct(50) ? 0 : (uint32_t)r.next() & 0xffffff;
			c.timeout = (uint8_t)(1 + r.below(4));
			c.retry_cnt = (uint8_t)r.below(3);
			c.rnr_retry = (uint8_t)r.below(2);
			c.max_rd_atomic = (uint8_t)r.below(17);
			break;
		case 3:
			c.qp_state = IBV_QPS_ERR;
			c.attr_mask = IBV_QP_STATE;
			break;
		case 4:
			c.qp_state = r.pct(50) ? IBV_QPS_RESET : IBV_QPS_SQD;
			c.attr_mask = IBV_QP_STATE |
				      (r.pct(30) ? IBV_QP_EN_SQD_ASYNC_NOTIFY : 0);
			c.en_sqd_async_notify = 1;
			break;
		default:	/* anything */
			c.attr_mask = (uint32_t)r.edgy(32);
			c.qp_state = (uint8_t)r.below(8);
			c.cur_qp_state = (uint8_t)r.below(8);
			c.path_mtu = (uint8_t)r.next();
			c.dest_qp_num = p.pickv(r, p.qpns);
			c.max_rd_atomic = (uint8_t)r.next();
			c.max_dest_rd_atomic = (uint8_t)r.next();
			c.timeout = (uint8_t)r.next();
			c.port_num = (uint8_t)r.below(3);
			c.alt_port_num = (uint8_t)r.below(3);
			c.dest.sgid_index = (uint8_t)r.next();
			c.pkey_index = (uint16_t)r.edgy(16);
			c.sq_psn = (uint32_t)r.next();
			c.rq_psn = (uint32_t)r.next();
			break;
		}
		cmd(p, r, IB_USER_VERBS_CMD_MODIFY_QP, &c, sizeof(c), nullptr, 0);
	} else if (what < 9) {
		ib_uverbs_query_qp c{};
		ib_uverbs_query_qp_resp resp;
		c.qp_handle = p.pick(r, QP);
		c.attr_mask = (uint32_t)r.edgy(32);
		cmd(p, r, IB_USER_VERBS_CMD_QUERY_QP, &c, sizeof(c), &resp, sizeof(resp));
	} else {
		destroy<ib_uverbs_destroy_qp, ib_uverbs_destroy_qp_resp>(p, r, QP, IB_USER_VERBS_CMD_DESTROY_QP,
							   &ib_uverbs_destroy_qp::qp_handle);
	}
}

// POST_SEND / POST_RECV / POST_SRQ_RECV with work requests in the
// command (the path the kernel's own parser takes)
void do_post(Proc &p, Rng &r)
{
	uint32_t nwr = r.pct(90) ? r.below(4) : (uint32_t)r.edgy(32);
	uint32_t nsge = r.pct(90) ? r.below(6) : (uint32_t)r.edgy(32);
	uint32_t which = r.below(3);
	size_t wqe_size = which == 0 ? sizeof(ib_uverbs_send_wr) : sizeof(ib_uverbs_recv_wr);
	if (r.pct(10))
		wqe_size = r.below(256);
	size_t body = (size_t)(nwr < 8 ? nwr : 8) * wqe_size + (size_t)(nsge < 16 ? nsge : 16) *
		      sizeof(ib_uverbs_sge);
	std::vector<uint8_t> core(24 + body);
	uint32_t resp = 0;
	uint32_t handle = which == 2 ? p.pick(r, SRQ) : p.pick(r, QP);
	memcpy(&core[8], &handle, 4);
	memcpy(&core[12], &nwr, 4);
	memcpy(&core[16], &nsge, 4);
	uint32_t ws = (uint32_t)wqe_size;
	memcpy(&core[20], &ws, 4);
	/* work requests, then the SGEs: plausible fields or junk */
	for (size_t off = 24; off < core.size(); off += 4) {
		uint32_t v = r.pct(50) ? r.below(4) : p.pickv(r, r.pct(50) ? p.lkeys : p.rkeys);
		memcpy(&core[off], &v, core.size() - off < 4 ? core.size() - off : 4);
	}
	static const uint32_t cmds[] = { IB_USER_VERBS_CMD_POST_SEND, IB_USER_VERBS_CMD_POST_RECV,
					 IB_USER_VERBS_CMD_POST_SRQ_RECV };
	cmd(p, r, cmds[which], core.data(), core.size(), &resp, sizeof(resp));
}

void do_srq(Proc &p, Rng &r)
{
	uint32_t what = r.below(10);
	if (what < 4) {
		ib_uverbs_create_srq c{};
		Resp2<ib_uverbs_create_srq_resp, rxe_create_srq_resp> resp;
		c.user_handle = r.next();
		c.pd_handle = p.pick(r, PD);
		c.max_wr = r.pct(90) ? 1 + r.below(64) : (uint32_t)r.edgy(32);
		c.max_sge = r.pct(90) ? 1 + r.below(4) : (uint32_t)r.edgy(32);
		c.srq_limit = r.pct(90) ? r.below(8) : (uint32_t)r.edgy(32);
		if (!cmd(p, r, IB_USER_VERBS_CMD_CREATE_SRQ, &c, sizeof(c), &resp, sizeof(resp))) {
			p.add(SRQ, resp.core().srq_handle);
			if (r.pct(70))
				map_ring(p, r, resp.drv().mi, SRQ, resp.core().srq_handle);
		}
	} else if (what < 7) {
		ib_uverbs_modify_srq c{};
		mminfo mi{};
		rxe_modify_srq_cmd drv{};
		c.srq_handle = p.pick(r, SRQ);
		c.attr_mask = r.pct(80) ? 1 + r.below(3) : (uint32_t)r.edgy(32);
		c.max_wr = r.pct(90) ? 1 + r.below(128) : (uint32_t)r.edgy(32);
		c.srq_limit = r.below(16);
		uint8_t *where = out_buf() + SCRATCH / 2;	/* cmd() leaves it alone */
		memset(where, 0, sizeof(mi));
		drv.mmap_info_addr = r.pct(85) ? (uint64_t)(uintptr_t)where : r.edgy(64);
		if (!cmd(p, r, IB_USER_VERBS_CMD_MODIFY_SRQ, &c, sizeof(c), nullptr, 0, &drv,
			 sizeof(drv)) && (c.attr_mask & 1) && r.pct(50)) {
			memcpy(&mi, where, sizeof(mi));
			map_ring(p, r, mi, SRQ, c.srq_handle);
		}
	} else if (what < 8) {
		ib_uverbs_query_srq c{};
		ib_uverbs_query_srq_resp resp;
		c.srq_handle = p.pick(r, SRQ);
		cmd(p, r, IB_USER_VERBS_CMD_QUERY_SRQ, &c, sizeof(c), &resp, sizeof(resp));
	} else {
		destroy<ib_uverbs_destroy_srq, ib_uverbs_destroy_srq_resp>(p, r, SRQ, IB_USER_VERBS_CMD_DESTROY_SRQ,
							   &ib_uverbs_destroy_srq::srq_handle);
	}
}

void do_ah(Proc &p, Rng &r)
{
	if (r.pct(60)) {
		ib_uverbs_create_ah c{};
		Resp2<ib_uverbs_create_ah_resp, rxe_create_ah_resp> resp;
		c.user_handle = r.next();
		c.pd_handle = p.pick(r, PD);
		c.attr.is_global = (uint8_t)(r.pct(90) ? 1 : r.below(256));
		c.attr.port_num = (uint8_t)(r.pct(90) ? 1 : r.below(256));
		c.attr.grh.sgid_index = (uint8_t)(r.pct(85) ? p.sgid : r.below(256));
		c.attr.grh.hop_limit = 64;
		memcpy(c.attr.grh.dgid, p.gid, 16);
		if (r.pct(10))
			c.attr.grh.dgid[r.below(16)] ^= (uint8_t)r.next();
		if (!cmd(p, r, IB_USER_VERBS_CMD_CREATE_AH, &c, sizeof(c), &resp, sizeof(resp))) {
			p.add(AH, resp.core().ah_handle);
			p.addv(p.ah_nums, resp.drv().ah_num);
		}
	} else {
		destroy<ib_uverbs_destroy_ah>(p, r, AH, IB_USER_VERBS_CMD_DESTROY_AH,
							&ib_uverbs_destroy_ah::ah_handle);
	}
}

void do_mcast(Proc &p, Rng &r)
{
	ib_uverbs_attach_mcast c{};
	c.gid[0] = 0xff;
	c.gid[15] = (uint8_t)r.below(4);
	c.qp_handle = p.pick(r, QP);
	c.mlid = (uint16_t)r.edgy(16);
	cmd(p, r, r.pct(60) ? IB_USER_VERBS_CMD_ATTACH_MCAST : IB_USER_VERBS_CMD_DETACH_MCAST, &c,
	    sizeof(c), nullptr, 0);
}

// an extended command: the two headers and random core and driver parts
void do_ex(Proc &p, Rng &r)
{
	static const uint32_t ex[] = {
		IB_USER_VERBS_EX_CMD_QUERY_DEVICE, IB_USER_VERBS_EX_CMD_CREATE_CQ,
		IB_USER_VERBS_EX_CMD_CREATE_QP, IB_USER_VERBS_EX_CMD_MODIFY_QP,
		IB_USER_VERBS_EX_CMD_CREATE_FLOW, IB_USER_VERBS_EX_CMD_DESTROY_FLOW,
		IB_USER_VERBS_EX_CMD_CREATE_WQ, IB_USER_VERBS_EX_CMD_MODIFY_CQ,
	};
	uint8_t *resp = out_buf();
	uint32_t in8 = r.pct(80) ? r.below(16) : (uint32_t)r.edgy(16);
	uint32_t pin8 = r.pct(80) ? r.below(3) : (uint32_t)r.edgy(16);
	size_t body = (size_t)((in8 + pin8) < 64 ? in8 + pin8 : 64) * 8;
	std::vector<uint8_t> b(24 + body);
	ib_uverbs_cmd_hdr hdr{};
	ib_uverbs_ex_cmd_hdr xh{};
	hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | ex[r.below(8)];
	hdr.in_words = (uint16_t)in8;
	hdr.out_words = (uint16_t)(r.pct(80) ? r.below(64) : r.edgy(16));
	xh.response = r.pct(85) ? (uint64_t)(uintptr_t)resp : r.edgy(64);
	xh.provider_in_words = (uint16_t)pin8;
	xh.provider_out_words = (uint16_t)r.below(8);
	xh.cmd_hdr_reserved = r.pct(90) ? 0 : (uint32_t)r.next();
	memcpy(b.data(), &hdr, 8);
	memcpy(b.data() + 8, &xh, 16);
	for (size_t i = 24; i < b.size(); i += 4) {
		uint32_t v = r.pct(50) ? r.below(8) : p.pick(r, (int)r.below(NKINDS));
		memcpy(&b[i], &v, 4);
	}
	bool mut = r.pct(20);
	size_t len = mut ? mutate(r, b, b.size()) : b.size();
	wr(p, b.data(), len, mut);
}

// a random command number with random bytes
void do_raw(Proc &p, Rng &r)
{
	std::vector<uint8_t> b(8 + r.below(512));
	for (auto &x : b)
		x = (uint8_t)r.next();
	ib_uverbs_cmd_hdr hdr{};
	hdr.command = r.pct(70) ? r.below(64) : (uint32_t)r.next();
	hdr.in_words = (uint16_t)(r.pct(70) ? b.size() / 4 : r.edgy(16));
	hdr.out_words = (uint16_t)r.edgy(16);
	memcpy(b.data(), &hdr, 8);
	size_t len = r.pct(80) ? b.size() & ~3UL : b.size();
	wr(p, b.data(), len, true);
}

// RDMA_VERBS_IOCTL with random headers and attributes
void do_ioctl(Proc &p, Rng &r)
{
	uint8_t buf[24 + 8 * 16];
	uint8_t *out = out_buf();
	ib_uverbs_ioctl_hdr h{};
	uint32_t nattr = r.pct(80) ? r.below(9) : (uint32_t)r.edgy(16);
	h.length = (uint16_t)(r.pct(80) ? 24 + 16 * (nattr < 8 ? nattr : 8) : r.edgy(16));
	// half of them the GID queries ioctl serves (DEVICE QUERY_GID_TABLE and QUERY_GID_ENTRY)
	bool gid = r.pct(50);
	h.object_id = (uint16_t)(gid ? (uint32_t)UVERBS_OBJECT_DEVICE : r.pct(70) ? r.below(32) : r.edgy(16));
	h.method_id = (uint16_t)(gid ? (uint32_t)UVERBS_METHOD_QUERY_GID_TABLE + r.below(2) : r.pct(70) ? r.below(16) : r.edgy(16));
	h.num_attrs = (uint16_t)nattr;
	h.reserved1 = r.pct(90) ? 0 : r.next();
	h.driver_id = (uint32_t)(r.pct(60) ? 14 /* RDMA_DRIVER_RXE */ : r.pct(50) ? 0 : r.below(32));
	memcpy(buf, &h, sizeof(h));
	for (unsigned i = 0; i < 8; i++) {
		ib_uverbs_attr a{};
		a.attr_id = (uint16_t)(r.pct(60) ? r.below(gid ? 4 : 16) : r.edgy(16));
		a.len = (uint16_t)(r.pct(30) ? 8 : r.pct(70) ? r.below(64) : r.edgy(16));
		a.flags = (uint16_t)(r.pct(80) ? r.below(4) : r.edgy(16));
		a.data = r.pct(40) ? (uint64_t)(uintptr_t)out : r.pct(50) ? p.pick(r, (int)r.below(NKINDS))
								    : r.edgy(64);
		memcpy(buf + 24 + 16 * i, &a, sizeof(a));
	}
	sh->ioctls++;
	sh->cmds++;
	int n = ioctl(p.fd, RDMA_VERBS_IOCTL, buf);
	if (n < 0 && leaked(errno))
		violation("ioctl object %u method %u: errno %d leaked", h.object_id, h.method_id,
			  errno);
}

// mmap() of offsets and sizes nobody was given
void do_mmap(Proc &p, Rng &r)
{
	size_t len = 4096 * (1 + r.below(4));
	off_t off = (off_t)(r.pct(70) ? 4096ULL * r.below(4096) : r.edgy(40) & ~4095ULL);
	sh->mmaps++;
	void *a = mmap(nullptr, len, PROT_READ | (r.pct(50) ? PROT_WRITE : 0), MAP_SHARED, p.fd, off);
	if (a != MAP_FAILED)
		munmap(a, len);
	else if (leaked(errno))
		violation("mmap offset 0x%llx: errno %d leaked", (unsigned long long)off, errno);
}

void one(Proc &p, Rng &r)
{
	switch (r.below(20)) {
	case 0: do_query(p, r); break;
	case 1: do_pd(p, r); break;
	case 2: case 3: do_mr(p, r); break;
	case 4: do_mw(p, r); break;
	case 5: case 6: do_cq(p, r); break;
	case 7: do_channel(p, r); break;
	case 8: case 9: case 10: do_qp(p, r); break;
	case 11: do_post(p, r); break;
	case 12: do_srq(p, r); break;
	case 13: do_ah(p, r); break;
	case 14: do_mcast(p, r); break;
	case 15: do_ex(p, r); break;
	case 16: do_raw(p, r); break;
	case 17: do_ioctl(p, r); break;
	case 18: if (r.pct(20)) do_mmap(p, r); else scribble(p, r); break;
	default: scribble(p, r); break;
	}
}

// ---- a process

std::string dev_name;
std::string uverbs_path;

int sysfs_gid(uint8_t gid[16])
{
	std::string base = "/sys/class/infiniband/" + dev_name + "/ports/1/";
	for (int i = 0; i < 16; i++) {
		std::ifstream t(base + "gid_attrs/types/" + std::to_string(i));
		std::string type;
		if (!std::getline(t, type) || type != "RoCE v2")
			continue;
		std::ifstream g(base + "gids/" + std::to_string(i));
		std::string s;
		if (!std::getline(g, s))
			continue;
		unsigned v[8];
		if (sscanf(s.c_str(), "%x:%x:%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5], &v[6], &v[7]) != 8 || (!v[0] && !v[5]))
			continue;
		for (int k = 0; k < 8; k++) {
			gid[2 * k] = (uint8_t)(v[k] >> 8);
			gid[2 * k + 1] = (uint8_t)v[k];
		}
		return i;
	}
	return 1;
}

// the uverbs file opened, with a context (exits 3 when it cannot)
void open_ctx(Proc &p)
{
	p.fd = open(uverbs_path.c_str(), O_RDWR | O_CLOEXEC);
	if (p.fd < 0) {
		fprintf(stderr, "uverbs_fuzz: open %s: %s\n", uverbs_path.c_str(), strerror(errno));
		_exit(3);
	}
	ib_uverbs_get_context gc{};
	ib_uverbs_get_context_resp gr{};
	uint64_t ptr = (uint64_t)(uintptr_t)&gr;
	memcpy(&gc, &ptr, sizeof(ptr));
	struct {
		ib_uverbs_cmd_hdr h;
		ib_uverbs_get_context c;
	} g = { { IB_USER_VERBS_CMD_GET_CONTEXT, 4, 2 }, gc };
	if (write(p.fd, &g, sizeof(g)) != (ssize_t)sizeof(g)) {
		fprintf(stderr, "uverbs_fuzz: GET_CONTEXT: %s\n", strerror(errno));
		_exit(3);
	}
	p.async_fd = (int)gr.async_fd;
	fcntl(p.async_fd, F_SETFL, O_NONBLOCK);
	ib_uverbs_query_device qc{};
	ptr = (uint64_t)(uintptr_t)&p.dev;
	memcpy(&qc, &ptr, sizeof(ptr));
	struct {
		ib_uverbs_cmd_hdr h;
		ib_uverbs_query_device c;
	} q = { { IB_USER_VERBS_CMD_QUERY_DEVICE, sizeof(q) / 4, sizeof(p.dev) / 4 }, qc };
	if (write(p.fd, &q, sizeof(q)) != (ssize_t)sizeof(q)) {
		fprintf(stderr, "uverbs_fuzz: QUERY_DEVICE: %s\n", strerror(errno));
		_exit(3);
	}
}

[[noreturn]] void child(uint64_t seed, unsigned threads, uint64_t quota)
{
	Proc p;
	p.sgid = sysfs_gid(p.gid);
	p.arena = (uint8_t *)mmap(nullptr, ARENA, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p.arena == MAP_FAILED)
		_exit(3);
	memset(p.arena, 0xa5, ARENA);
	open_ctx(p);
	std::vector<std::thread> ts;
	uint64_t each = quota / threads + 1;
	for (unsigned t = 0; t < threads; t++)
		ts.emplace_back([&p, seed, t, each] {
			Rng tr{ seed ^ (0x1000193ULL * (t + 1)) };
			for (uint64_t i = 0; i < each; i++)
				one(p, tr);
		});
	for (auto &t : ts)
		t.join();
	/* exit with everything held: the close of the file destroys it */
	_exit(0);
}

std::string find_uverbs()
{
	DIR *d = opendir("/sys/class/infiniband_verbs");
	std::string found;
	for (dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		std::ifstream f(std::string("/sys/class/infiniband_verbs/") + e->d_name + "/ibdev");
		std::string name;
		if (std::getline(f, name) && name == dev_name)
			found = std::string("/dev/infiniband/") + e->d_name;
	}
	if (d)
		closedir(d);
	return found;
}

double now()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct Running {
	pid_t pid;
	double kill_at;	// 0: runs to the end of its quota
	double killed;	// when SIGKILL was sent
	double started;
};

// --flush-spin (security.rst, item 4): an RC QP in RTS whose SQ a
// thread keeps full (the producer index one behind the consumer, every
// slot a valid SEND) while the QP is moved to ERR.  The flush must not
// chase the producer: MODIFY_QP returns, and SIGKILL ends the process.
[[noreturn]] void flush_spin_child(int out)
{
	Proc p;
	Rng r{ 1 };
	exact = true;
	p.sgid = sysfs_gid(p.gid);
	open_ctx(p);
	auto must = [](int e, const char *what) {
		if (e) {
			fprintf(stderr, "uverbs_fuzz: flush-spin: %s: %s\n", what, strerror(e));
			_exit(3);
		}
	};
	ib_uverbs_alloc_pd pc{};
	ib_uverbs_alloc_pd_resp pr;
	must(cmd(p, r, IB_USER_VERBS_CMD_ALLOC_PD, &pc, sizeof(pc), &pr, sizeof(pr)), "ALLOC_PD");
	ib_uverbs_create_cq cc{};
	Resp2<ib_uverbs_create_cq_resp, rxe_create_cq_resp> cr;
	cc.cqe = 4096;
	cc.comp_channel = -1;
	must(cmd(p, r, IB_USER_VERBS_CMD_CREATE_CQ, &cc, sizeof(cc), &cr, sizeof(cr)), "CREATE_CQ");
	ib_uverbs_create_qp qc{};
	Resp2<ib_uverbs_create_qp_resp, rxe_create_qp_resp> qr;
	qc.pd_handle = pr.pd_handle;
	qc.send_cq_handle = qc.recv_cq_handle = cr.core().cq_handle;
	qc.max_send_wr = 255;
	qc.max_recv_wr = 16;
	qc.max_send_sge = qc.max_recv_sge = 1;
	qc.sq_sig_all = 1;
	qc.qp_type = IB_UVERBS_QPT_RC;
	must(cmd(p, r, IB_USER_VERBS_CMD_CREATE_QP, &qc, sizeof(qc), &qr, sizeof(qr)), "CREATE_QP");
	uint32_t qp = qr.core().qp_handle;
	mminfo mi = qr.drv().sq_mi;
	uint8_t *ring = (uint8_t *)mmap(nullptr, mi.size, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
					(off_t)mi.offset);
	if (ring == MAP_FAILED)
		must(errno, "mmap of the SQ");
	for (int step = 0; step < 3; step++) {
		ib_uverbs_modify_qp m{};
		m.qp_handle = qp;
		m.attr_mask = IBV_QP_STATE;
		if (step == 0) {
			m.qp_state = IBV_QPS_INIT;
			m.attr_mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
			m.port_num = 1;
		} else if (step == 1) {
			m.qp_state = IBV_QPS_RTR;
			m.attr_mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
			m.dest.is_global = 1;
			m.dest.port_num = 1;
			m.dest.hop_limit = 64;
			m.dest.sgid_index = (uint8_t)p.sgid;
			memcpy(m.dest.dgid, p.gid, 16);
			m.path_mtu = IBV_MTU_1024;
			m.dest_qp_num = qr.core().qpn;
			m.max_dest_rd_atomic = 1;
			m.min_rnr_timer = 1;
		} else {
			m.qp_state = IBV_QPS_RTS;
			m.attr_mask |= IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				       IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
			m.timeout = 14;
			m.retry_cnt = 7;
			m.rnr_retry = 7;
			m.max_rd_atomic = 1;
		}
		must(cmd(p, r, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m), nullptr, 0), "MODIFY_QP");
	}
	volatile uint32_t *hdr = (volatile uint32_t *)ring;
	uint32_t mask = hdr[1];
	size_t slot = (size_t)1 << (hdr[0] & 31);
	for (uint32_t i = 0; i <= mask; i++) {
		rxe_send_wqe w;
		memset(&w, 0, sizeof(w));
		w.wr.wr_id = i;
		w.wr.opcode = IBV_WR_SEND;
		w.wr.send_flags = IBV_SEND_SIGNALED;
		if (384 + (i + 1) * slot <= mi.size)
			memcpy(ring + 384 + i * slot, &w, sizeof(w) < slot ? sizeof(w) : slot);
	}
	volatile uint32_t *prod = hdr + 32, *cons = hdr + 64;
	std::thread([prod, cons, mask] {
		for (;;)
			*prod = (*cons + mask) & mask;	/* always full */
	}).detach();
	usleep(200000);
	ib_uverbs_modify_qp m{};
	m.qp_handle = qp;
	m.attr_mask = IBV_QP_STATE;
	m.qp_state = IBV_QPS_ERR;
	double t = now();
	int e = cmd(p, r, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m), nullptr, 0);
	dprintf(out, "modify-err %d %.0f\n", e, (now() - t) * 1000);
	for (;;) {	/* the doorbell, as a user would ring it */
		doorbell(p, r, qp);
		usleep(1000);
	}
}

int flush_spin()
{
	int pfd[2];
	if (pipe(pfd))
		return 2;
	pid_t pid = fork();
	if (!pid) {
		close(pfd[0]);
		flush_spin_child(pfd[1]);
	}
	close(pfd[1]);
	int rc = 0;
	pollfd pf{ pfd[0], POLLIN, 0 };
	char line[128] = "";
	ssize_t n = 0;
	if (poll(&pf, 1, 60000) == 1)
		n = read(pfd[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = 0;
	int e = -1;
	double ms = 0;
	if (sscanf(line, "modify-err %d %lf", &e, &ms) != 2) {
		printf("uverbs_fuzz: FAIL: flush-spin: MODIFY_QP to ERR did not return within 60 s "
		       "while the SQ was kept full ('%s')\n", line);
		rc = 1;
	} else if (e) {
		printf("uverbs_fuzz: FAIL: flush-spin: MODIFY_QP to ERR: %s\n", strerror(e));
		rc = 1;
	} else {
		printf("uverbs_fuzz: flush-spin: MODIFY_QP to ERR returned in %.0f ms with the SQ "
		       "kept full\n", ms);
	}
	sleep(3);	/* the flush and the doorbells go on meanwhile */
	kill(pid, SIGKILL);
	double t = now();
	int st;
	while (waitpid(pid, &st, WNOHANG) != pid) {
		if (now() - t > 30) {
			printf("uverbs_fuzz: FAIL: flush-spin: the process did not die within 30 s "
			       "of SIGKILL\n");
			return 1;
		}
		usleep(50000);
	}
	if (WIFEXITED(st)) {
		printf("uverbs_fuzz: FAIL: flush-spin: setup failed (exit %d)\n", WEXITSTATUS(st));
		return 1;
	}
	printf("uverbs_fuzz: flush-spin: SIGKILL ended the process in %.1f s\n", now() - t);
	if (!rc)
		printf("uverbs_fuzz: flush-spin ok\n");
	return rc;
}

} // namespace

int main(int argc, char **argv)
{
	uint64_t seed = 0, total = 20000, per_proc = 4000;
	unsigned procs = 2, threads = 3, kill_pct = 30;
	bool seeded = false, spin = false;

	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto val = [&](void) -> uint64_t {
			if (i + 1 >= argc) {
				fprintf(stderr, "uverbs_fuzz: %s needs a value\n", a.c_str());
				exit(2);
			}
			return strtoull(argv[++i], nullptr, 0);
		};
		if (a == "--seed") {
			seed = val();
			seeded = true;
		} else if (a == "--flush-spin") {
			spin = true;
		} else if (a == "--cmds") {
			total = val();
		} else if (a == "--per-proc") {
			per_proc = val();
		} else if (a == "--procs") {
			procs = (unsigned)val();
		} else if (a == "--threads") {
			threads = (unsigned)val();
		} else if (a == "--kill") {
			kill_pct = (unsigned)val();
		} else if (a == "--ring-budget") {
			ring_budget = val() << 20;
		} else if (a[0] != '-' && dev_name.empty()) {
			dev_name = a;
		} else {
			fprintf(stderr, "usage: uverbs_fuzz [--seed N] [--cmds N] [--procs N] "
					"[--threads N] [--per-proc N] [--kill PCT]\n"
					"                   [--ring-budget MIB] DEVICE\n"
					"       uverbs_fuzz --flush-spin DEVICE\n");
			return 2;
		}
	}
	if (dev_name.empty() || !procs || !threads || !per_proc) {
		fprintf(stderr, "uverbs_fuzz: a device, and non-zero counts\n");
		return 2;
	}
	if (!seeded) {
		timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
	}
	uverbs_path = find_uverbs();
	if (uverbs_path.empty()) {
		fprintf(stderr, "uverbs_fuzz: no uverbs file for %s\n", dev_name.c_str());
		return 2;
	}
	if (spin) {
		sh = (Shared *)mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		new (sh) Shared();
		return flush_spin();
	}
	sh = (Shared *)mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	new (sh) Shared();
	printf("uverbs_fuzz: seed %llu, %s, %llu commands, %u processes at once of %u threads, "
	       "%u%% killed, queues of %llu MiB per process\n", (unsigned long long)seed,
	       uverbs_path.c_str(), (unsigned long long)total, procs, threads, kill_pct,
	       (unsigned long long)(ring_budget >> 20));
	fflush(stdout);

	Rng r{ seed };
	std::vector<Running> run;
	unsigned started = 0, killed = 0, hung = 0;
	double t0 = now(), last_report = t0;
	while (sh->cmds < total || !run.empty()) {
		while (sh->cmds < total && run.size() < procs) {
			uint64_t cseed = r.next();
			bool kill = r.pct(kill_pct);
			double at = kill ? now() + 0.05 + (double)r.below(3000) / 1000.0 : 0;
			pid_t pid = fork();
			if (pid < 0) {
				perror("uverbs_fuzz: fork");
				return 2;
			}
			if (!pid)
				child(cseed, threads, per_proc);
			run.push_back(Running{ pid, at, 0, now() });
			started++;
		}
		usleep(20000);
		double t = now();
		for (size_t i = 0; i < run.size();) {
			Running &c = run[i];
			int st;
			if (waitpid(c.pid, &st, WNOHANG) == c.pid) {
				if (!c.killed && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
					violation("process %d ended with status 0x%x", c.pid, st);
				run.erase(run.begin() + (long)i);
				continue;
			}
			if (!c.killed && c.kill_at && t >= c.kill_at) {
				kill(c.pid, SIGKILL);
				c.killed = t;
				killed++;
			}
			if (!c.killed && t - c.started > 600) {
				violation("process %d did not end its %llu commands in 600 s",
					  c.pid, (unsigned long long)per_proc);
				kill(c.pid, SIGKILL);
				c.killed = t;
			}
			if (!c.killed && sh->cmds >= total) {
				/* the quota is spent: the rest end now */
				kill(c.pid, SIGKILL);
				c.killed = t;
			}
			if (c.killed && t - c.killed > 30) {
				violation("process %d did not die within 30 s of SIGKILL", c.pid);
				hung++;
				run.erase(run.begin() + (long)i);
				continue;
			}
			i++;
		}
		if (hung)
			break;
		if (t - last_report >= 30) {
			printf("uverbs_fuzz: %.0f s: %llu commands\n", t - t0,
			       (unsigned long long)sh->cmds.load());
			fflush(stdout);
			last_report = t;
		}
	}
	double dt = now() - t0;
	printf("uverbs_fuzz: seed %llu: %llu commands in %.1f s (%.0f/s): %llu succeeded, "
	       "%llu refused, %llu mutated, %llu ring scribbles, %llu mmaps, %llu ioctls, "
	       "%llu queue sizes over the budget; %u processes, %u killed\n",
	       (unsigned long long)seed, (unsigned long long)sh->cmds.load(), dt,
	       (double)sh->cmds.load() / (dt > 0 ? dt : 1), (unsigned long long)sh->ok.load(),
	       (unsigned long long)sh->failed.load(), (unsigned long long)sh->mutated.load(),
	       (unsigned long long)sh->scribbles.load(), (unsigned long long)sh->mmaps.load(),
	       (unsigned long long)sh->ioctls.load(), (unsigned long long)sh->gated.load(),
	       started, killed);
	if (sh->violations) {
		printf("uverbs_fuzz: FAIL: %u violations, the first: %s\n", sh->violations.load(),
		       sh->first_violation);
		return 1;
	}
	if (!sh->ok) {
		printf("uverbs_fuzz: FAIL: no command succeeded (nothing was exercised)\n");
		return 1;
	}
	printf("uverbs_fuzz: ok\n");
	return 0;
}
