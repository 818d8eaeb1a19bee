// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: the op table and the round-paced phases of SEND, SEND_IMM,
// WRITE, WRITE_IMM and READ.  A phase moves --iters messages of one kind
// in one direction, --depth at a time: per round the target gets ready
// (receives posted, target memory filled with guard bytes or, for READ,
// with the plan's data) and says GO; the initiator posts the round, checks
// every completion and its own buffers, and says DONE; the target checks
// what arrived.  --lossy (UC/UD): arrivals are matched by content against
// the messages sent, losses and duplicates counted.
#include "oracle_ctx.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace oracle {

static void phase_send(Ctx &c, Op op, Dir d);
static void phase_write(Ctx &c, Op op, Dir d);
static void phase_read(Ctx &c, Op op, Dir d);

enum { RC = 1 << QPT_RC, UC = 1 << QPT_UC, UD = 1 << QPT_UD };

const OpInfo op_info[OP_COUNT] = {
	// name        transports    0-byte both_ways run
	{ "send",      RC | UC | UD, true,  false, phase_send },
	{ "send_imm",  RC | UC | UD, true,  false, phase_send },
	{ "write",     RC | UC,      true,  false, phase_write },
	{ "write_imm", RC | UC,      true,  false, phase_write },
	{ "read",      RC,           true,  false, phase_read },
	{ "fetch_add", RC,           false, true,  phase_atomic },
	{ "cmp_swap",  RC,           false, true,  phase_atomic },
	// upstream 6.1 rxe lacks it
	{ "atomic_write", RC,        false, true,  phase_atomic_write, true },
	{ "send_inv",  RC,           true,  false, phase_send_inv },
	{ "inv_write", RC,           false, false, phase_inv_write, false, true },
	{ "aw_refused", RC,          false, false, phase_aw_refused, true, true },
};

ibv_wr_opcode wr_opcode(Op op)
{
	static const ibv_wr_opcode t[OP_COUNT] = {
		IBV_WR_SEND,	     IBV_WR_SEND_WITH_IMM,    IBV_WR_RDMA_WRITE,
		IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ, IBV_WR_ATOMIC_FETCH_AND_ADD,
		IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_WRITE, IBV_WR_SEND_WITH_INV,
		IBV_WR_RDMA_WRITE, IBV_WR_ATOMIC_WRITE,
	};
	return t[op];
}

ibv_wc_opcode wc_opcode(Op op)
{
	static const ibv_wc_opcode t[OP_COUNT] = {
		IBV_WC_SEND,	   IBV_WC_SEND,	     IBV_WC_RDMA_WRITE, IBV_WC_RDMA_WRITE,
		IBV_WC_RDMA_READ, IBV_WC_FETCH_ADD, IBV_WC_COMP_SWAP,  IBV_WC_ATOMIC_WRITE,
		IBV_WC_SEND,	   IBV_WC_RDMA_WRITE, IBV_WC_ATOMIC_WRITE,
	};
	return t[op];
}

static uint8_t src_guard(const MsgPlan &m)
{
	return (uint8_t)(m.key >> 56);
}

uint8_t round_guard(const Ctx &c, Op op, Dir d, uint64_t r)
{
	return (uint8_t)key_of(c.cfg.seed, 0x7467, c.pass, (uint64_t)op << 1 | d, r);
}

static bool use_inline(const Ctx &c, Op op, const MsgPlan &m)
{
	return m.inl && m.size && m.size <= c.ib.max_inline && op != OP_READ;
}

size_t tgt_data(const Ctx &c, uint64_t n, const MsgPlan &m)
{
	return c.lay.tgt_at(n, c.cfg.depth) + Layout::GAP + m.tgt_off;
}

// ---- the initiator

static void post_data(Ctx &c, Op op, Dir d, uint64_t n, const MsgPlan &m)
{
	const Where w{ op, d, n, m.size };
	Scatter s = c.src_scatter(m, n);
	c.sc_fill(s, src_guard(m), m.key, op == OP_READ ? 0 : m.size);

	ibv_sge sg[MAX_SGE];
	c.sc_sges(s, sg);
	ibv_send_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id_of(op, d, c.pass, n);
	wr.sg_list = s.n ? sg : nullptr;
	wr.num_sge = (int)s.n;
	wr.opcode = wr_opcode(op);
	wr.send_flags = IBV_SEND_SIGNALED;
	if (use_inline(c, op, m))
		wr.send_flags |= IBV_SEND_INLINE;
	if (op == OP_SEND_IMM || op == OP_WRITE_IMM)
		wr.imm_data = htonl(m.imm);
	if (op == OP_WRITE || op == OP_WRITE_IMM || op == OP_READ) {
		wr.wr.rdma.remote_addr = c.raddr(tgt_data(c, n, m));
		wr.wr.rdma.rkey = c.peer.rkey;
	}
	if (c.cfg.qpt == QPT_UD) {
		wr.wr.ud.ah = c.ib.ah;
		wr.wr.ud.remote_qpn = c.peer.qpn;
		wr.wr.ud.remote_qkey = ud_qkey();
	}
	if (int e = ibv_post_send(c.ib.qp, &wr, &bad))
		error_at(w, "ibv_post_send: %s", strerror(e));
	if (wr.send_flags & IBV_SEND_INLINE) {
		// inline data is copied at post time: the buffer must not matter now
		for (uint32_t i = 0; i < s.n; i++) {
			uint8_t *p = c.at(s.at(i));
			for (uint32_t k = 0; k < s.len[i]; k++)
				p[k] = (uint8_t)~p[k];
		}
	}
}

static void finish_data(Ctx &c, Op op, Dir d, uint64_t n, const MsgPlan &m)
{
	const Where w{ op, d, n, m.size };
	ibv_wc wc = c.wait_wc(c.ib.scq, w, "initiator");
	check_wc(wc, wr_id_of(op, d, c.pass, n), wc_opcode(op), w, "initiator");
	Scatter s = c.src_scatter(m, n);
	if (op == OP_READ)
		c.sc_check(s, src_guard(m), m.key, 0, m.size, true, w, "READ data at the initiator");
	else if (use_inline(c, op, m))
		c.sc_check(s, src_guard(m), m.key, 0, 0, false, w, "inline source buffer");
	else
		c.sc_check(s, src_guard(m), m.key, 0, m.size, true, w, "source buffer");
}

static void initiator_rounds(Ctx &c, Op op, Dir d)
{
	const uint64_t count = plan_count(c.cfg, op);
	const uint32_t depth = c.cfg.depth;
	Stats &st = c.stats[op][d];
	std::vector<MsgPlan> ms;
	for (uint64_t r = 0; r * depth < count; r++) {
		const uint64_t lo = r * depth, hi = std::min(count, lo + depth);
		c.expect(M_GO, r);
		ms.clear();
		for (uint64_t n = lo; n < hi; n++) {
			ms.push_back(c.plan(op, d, n));
			post_data(c, op, d, n, ms.back());
		}
		for (uint64_t n = lo; n < hi; n++) {
			finish_data(c, op, d, n, ms[n - lo]);
			st.ok++;	// the target's counts replace these at the end
			st.bytes += ms[n - lo].size;
		}
		c.tell(M_DONE, r);
	}
	st.sent += count;
	c.expect(M_OK, 0);
}

// ---- the target: memory

// -v, before a MISMATCH line: the target data as runs of P(attern),
// G(uard) and X (neither), by offset in the message.
static void region_map(Ctx &c, size_t data, uint64_t key, uint32_t size, uint8_t g)
{
	if (!c.o.verbose)
		return;
	std::string s;
	char cls = 0;
	size_t start = 0;
	int runs = 0;
	for (size_t i = 0; i <= size; i++) {
		const uint8_t b = i < size ? c.at(data)[i] : 0;
		const char k = i == size ? 0 : b == pat_byte(key, i) ? 'P' : b == g ? 'G' : 'X';
		if (k == cls)
			continue;
		if (cls && runs++ < 32)
			s += " " + std::string(1, cls) + "[" + std::to_string(start) + "," +
			     std::to_string(i) + ")";
		cls = k;
		start = i;
	}
	say("target data map (size %u, guard 0x%02x):%s%s", size, g, s.c_str(),
	    runs > 32 ? " ..." : "");
}

void region_exact(Ctx &c, const Where &w, size_t slot, size_t slot_len, size_t data, uint64_t key,
		  uint32_t size, uint8_t g, const char *what)
{
	size_t k = pat_cmp(key, 0, c.at(data), size);
	if (k < size) {
		region_map(c, data, key, size, g);
		mismatch(w, (long long)k, c.at(data)[k], pat_byte(key, k), what);
	}
	std::string gw = std::string(what) + ", guard";
	c.guard_check(slot, data - slot, g, w, -(long long)(data - slot), (gw + " before").c_str());
	c.guard_check(data + size, slot + slot_len - data - size, g, w, size,
		      (gw + " after").c_str());
}

// UC target data at one look: @k leading bytes of the message are there;
// @hole: bytes after the first missing one are not all guard.
struct RegionLook {
	uint32_t k;
	bool hole;
};

static RegionLook region_look(Ctx &c, size_t data, uint64_t key, uint32_t size, uint8_t g)
{
	const size_t k = pat_cmp(key, 0, c.at(data), size);
	const bool hole = k < size && guard_cmp(g, c.at(data + k), size - k) < size - k;
	return RegionLook{ (uint32_t)k, hole };
}

// A hole is a MISMATCH only when it stays: the device may be placing the
// message while it is read (and a copy need not run front to back), so a
// look can see a hole that the next one does not. Judged once the bytes
// have not changed for this long.
static const double HOLE_STABLE_S = 0.2;

// UC: how many leading bytes of the message are there; the rest must be
// untouched (a UC WRITE that lost a packet stops there); anything else
// that does not change for HOLE_STABLE_S is a MISMATCH.
static uint32_t region_state(Ctx &c, const Where &w, size_t slot, size_t data, uint64_t key,
			     uint32_t size, uint8_t g)
{
	RegionLook l = region_look(c, data, key, size, g);
	std::vector<uint8_t> seen;
	const double until = now_s() + c.o.timeout;
	double since = 0;
	while (l.hole) {
		const double t = now_s();
		if (t >= until)
			error_at(w, "UC WRITE: the target data kept changing for %gs", c.o.timeout);
		if (seen.empty() || memcmp(seen.data(), c.at(data), size)) {
			seen.assign(c.at(data), c.at(data) + size);
			since = t;
		} else if (t - since >= HOLE_STABLE_S) {
			// data after a hole: report the hole's start
			region_map(c, data, key, size, g);
			mismatch(w, (long long)l.k, c.at(data)[l.k], pat_byte(key, l.k),
				 "target data (a UC WRITE must be a prefix, then untouched)");
		}
		c.block(t + 0.005);
		l = region_look(c, data, key, size, g);
	}
	c.guard_check(slot, data - slot, g, w, -(long long)(data - slot), "target guard before");
	c.guard_check(data + size, slot + c.lay.tgt_slot - data - size, g, w, size,
		      "target guard after");
	return l.k;
}

// A non-lossy WRITE's data: after the initiator's completions it is there
// (RC); UC completes at the sender when sent, so wait for it.
static void region_wait(Ctx &c, Op op, Dir d, uint64_t n, const MsgPlan &m, uint8_t g)
{
	const Where w{ op, d, n, m.size };
	const size_t slot = c.lay.tgt_at(n, c.cfg.depth), data = tgt_data(c, n, m);
	if (c.cfg.qpt == QPT_RC) {
		region_exact(c, w, slot, c.lay.tgt_slot, data, m.key, m.size, g, "target data");
		return;
	}
	const double until = now_s() + c.o.timeout;
	for (;;) {
		uint32_t k = region_state(c, w, slot, data, m.key, m.size, g);
		if (k == m.size)
			return;
		if (now_s() >= until)
			error_at(w, "UC WRITE: %u of %u bytes arrived within %gs (lost?)", k, m.size,
				 c.o.timeout);
		c.block(std::min(until, now_s() + 0.002));
	}
}

// ---- --lossy

// --lossy WRITE/WRITE_IMM: waits until every region of the round is
// complete or nothing changed for --settle ms; a plain WRITE counts the
// complete ones.
static void region_settle(Ctx &c, Op op, Dir d, uint64_t lo, uint64_t hi, uint8_t g)
{
	const double quiet = c.cfg.settle_ms / 1000.0;
	double until = now_s() + quiet;
	uint64_t last = 0;
	std::vector<MsgPlan> ms;
	for (uint64_t n = lo; n < hi; n++)
		ms.push_back(c.plan(op, d, n));
	for (;;) {
		uint64_t sum = 0;
		bool all = true;
		for (uint64_t n = lo; n < hi; n++) {
			const MsgPlan &m = ms[n - lo];
			uint32_t k = region_state(c, Where{ op, d, n, m.size },
						  c.lay.tgt_at(n, c.cfg.depth), tgt_data(c, n, m),
						  m.key, m.size, g);
			sum += k;
			all = all && k == m.size;
		}
		if (all)
			break;
		if (sum != last) {
			last = sum;
			until = now_s() + quiet;
		}
		if (now_s() >= until)
			break;
		c.block(std::min(until, now_s() + 0.002));
	}
	if (op != OP_WRITE)
		return;
	Stats &st = c.stats[op][d];
	for (uint64_t n = lo; n < hi; n++) {
		const MsgPlan &m = ms[n - lo];
		if (pat_cmp(m.key, 0, c.at(tgt_data(c, n, m)), m.size) == m.size) {
			st.ok++;
			st.bytes += m.size;
		}
	}
}

// ---- the phases

static void phase_send(Ctx &c, Op op, Dir d)
{
	if (c.initiator(d))
		return initiator_rounds(c, op, d);
	const uint64_t count = plan_count(c.cfg, op);
	const uint32_t depth = c.cfg.depth;
	for (uint64_t r = 0; r * depth < count; r++) {
		const uint64_t lo = r * depth, hi = std::min(count, lo + depth);
		c.ring_top_up();
		c.tell(M_GO, r);
		if (c.cfg.lossy) {
			c.expect(M_DONE, r);
			lossy_collect(c, op, d, 0, hi);
			continue;
		}
		for (uint64_t n = lo; n < hi; n++) {
			MsgPlan m = c.plan(op, d, n);
			ibv_wc wc = c.wait_wc(c.ib.rcq, Where{ op, d, n, m.size }, "receive");
			recv_check(c, op, d, n, m, wc, 0);
		}
		c.expect(M_DONE, r);
	}
	c.stats[op][d].sent += count;
	c.tell(M_OK, 0);
}

static void phase_write(Ctx &c, Op op, Dir d)
{
	if (c.initiator(d))
		return initiator_rounds(c, op, d);
	const uint64_t count = plan_count(c.cfg, op);
	const uint32_t depth = c.cfg.depth;
	const bool imm = op == OP_WRITE_IMM;
	for (uint64_t r = 0; r * depth < count; r++) {
		const uint64_t lo = r * depth, hi = std::min(count, lo + depth);
		const uint8_t g = round_guard(c, op, d, r);
		for (uint64_t n = lo; n < hi; n++)
			memset(c.at(c.lay.tgt_at(n, depth)), g, c.lay.tgt_slot);
		if (imm)
			c.ring_top_up();
		c.tell(M_GO, r);
		if (c.cfg.lossy) {
			c.expect(M_DONE, r);
			if (imm)
				lossy_collect(c, op, d, lo >= depth ? lo - depth : 0, hi);
			region_settle(c, op, d, lo, hi, g);
			continue;
		}
		for (uint64_t n = lo; imm && n < hi; n++) {
			MsgPlan m = c.plan(op, d, n);
			const Where w{ op, d, n, m.size };
			ibv_wc wc = c.wait_wc(c.ib.rcq, w, "receive");
			recv_check(c, op, d, n, m, wc, 0);
			// the immediate completes after the data is placed
			region_exact(c, w, c.lay.tgt_at(n, depth), c.lay.tgt_slot, tgt_data(c, n, m),
				     m.key, m.size, g, "target data");
		}
		c.expect(M_DONE, r);
		for (uint64_t n = lo; !imm && n < hi; n++) {
			MsgPlan m = c.plan(op, d, n);
			region_wait(c, op, d, n, m, g);
			c.stats[op][d].ok++;
			c.stats[op][d].bytes += m.size;
		}
	}
	c.stats[op][d].sent += count;
	c.tell(M_OK, 0);
}

static void phase_read(Ctx &c, Op op, Dir d)
{
	if (c.initiator(d))
		return initiator_rounds(c, op, d);
	const uint64_t count = plan_count(c.cfg, op);
	const uint32_t depth = c.cfg.depth;
	for (uint64_t r = 0; r * depth < count; r++) {
		const uint64_t lo = r * depth, hi = std::min(count, lo + depth);
		const uint8_t g = round_guard(c, op, d, r);
		for (uint64_t n = lo; n < hi; n++) {
			MsgPlan m = c.plan(op, d, n);
			memset(c.at(c.lay.tgt_at(n, depth)), g, c.lay.tgt_slot);
			pat_fill(m.key, 0, c.at(tgt_data(c, n, m)), m.size);
		}
		c.tell(M_GO, r);
		c.expect(M_DONE, r);
		// a READ must leave its source as it was
		for (uint64_t n = lo; n < hi; n++) {
			MsgPlan m = c.plan(op, d, n);
			region_exact(c, Where{ op, d, n, m.size }, c.lay.tgt_at(n, depth),
				     c.lay.tgt_slot, tgt_data(c, n, m), m.key, m.size, g,
				     "READ source at the target");
			c.stats[op][d].ok++;
			c.stats[op][d].bytes += m.size;
		}
	}
	c.stats[op][d].sent += count;
	c.tell(M_OK, 0);
}

} // namespace oracle
