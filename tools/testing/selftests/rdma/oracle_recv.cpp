// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: the receiving side of SEND, SEND_IMM, SEND_WITH_INV and
// WRITE_IMM: a receive completion and its buffer against the plan, and
// which sent message an arrival is (--lossy, and to name a loss or
// duplicate without it).
#include "oracle_ctx.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cinttypes>
#include <cstring>

namespace oracle {

// ---- the target: receives

static void grh_check(Ctx &c, const Where &w, const RecvPost &p, uint32_t size, bool imm)
{
	if (c.ib.gid_type != IBV_GID_TYPE_ROCE_V2)
		return;		// only RoCE v2's IP header layout is checked
	uint8_t h[Layout::GRH];
	c.sc_read(p.sc, 0, h, sizeof(h));
	// UDP + BTH + DETH (+ ImmDt) + padded payload + ICRC
	const uint32_t l4 = 8 + 12 + 8 + (imm ? 4 : 0) + ((size + 3) & ~3u) + 4;
	auto want = [&](int off, unsigned int v, const char *what) {
		if (h[off] != (uint8_t)v)
			mismatch(w, off - (int)Layout::GRH, h[off], (uint8_t)v, what);
	};
	const ibv_gid &src = c.peer.gid, &dst = c.ib.gid;
	if (gid_is_v4(src) && gid_is_v4(dst)) {
		// the IPv4 header is in the last 20 bytes
		want(20, 0x45, "GRH: IPv4 version/IHL");
		want(22, (20 + l4) >> 8, "GRH: IPv4 total length");
		want(23, (20 + l4) & 0xff, "GRH: IPv4 total length");
		want(29, 17, "GRH: IPv4 protocol");
		for (int i = 0; i < 4; i++) {
			want(32 + i, src.raw[12 + i], "GRH: IPv4 source address");
			want(36 + i, dst.raw[12 + i], "GRH: IPv4 destination address");
		}
	} else if (!gid_is_v4(src) && !gid_is_v4(dst)) {
		if (h[0] >> 4 != 6)
			mismatch(w, -40, h[0], 0x60, "GRH: IPv6 version");
		want(4, l4 >> 8, "GRH: IPv6 payload length");
		want(5, l4 & 0xff, "GRH: IPv6 payload length");
		want(6, 17, "GRH: IPv6 next header");
		for (int i = 0; i < 16; i++) {
			want(8 + i, src.raw[i], "GRH: source GID");
			want(24 + i, dst.raw[i], "GRH: destination GID");
		}
	}
}

// A receive completion must name our QP (with --srq, the SRQ's receives
// could complete on any QP attached to it).
static void qpn_check(Ctx &c, const Where &w, const ibv_wc &wc)
{
	if (wc.qp_num != c.ib.qp->qp_num)
		mismatch_val(w, "receive completion qp_num", wc.qp_num, c.ib.qp->qp_num);
}

// The completion's fields against message @m: byte_len, immediate,
// invalidated rkey (@inv), UD source QPN and GRH.
static void recv_meta(Ctx &c, Op op, const Where &w, const MsgPlan &m, const ibv_wc &wc,
		      uint32_t inv, const RecvPost &p)
{
	const uint32_t len = op == OP_WRITE_IMM ? m.size : m.size + c.grh;
	if (wc.byte_len != len)
		mismatch_val(w, "receive byte_len", wc.byte_len, len);
	const bool imm = op == OP_SEND_IMM || op == OP_WRITE_IMM;
	if (!(wc.wc_flags & IBV_WC_WITH_IMM) != !imm)
		mismatch_val(w, "receive wc_flags & IBV_WC_WITH_IMM", wc.wc_flags & IBV_WC_WITH_IMM,
			     imm ? IBV_WC_WITH_IMM : 0);
	if (imm && ntohl(wc.imm_data) != m.imm)
		mismatch_val(w, "receive imm_data", ntohl(wc.imm_data), m.imm);
	const bool is_inv = op == OP_SEND_INV;
	if (!(wc.wc_flags & IBV_WC_WITH_INV) != !is_inv)
		mismatch_val(w, "receive wc_flags & IBV_WC_WITH_INV", wc.wc_flags & IBV_WC_WITH_INV,
			     is_inv ? IBV_WC_WITH_INV : 0);
	if (is_inv && wc.invalidated_rkey != inv)
		mismatch_val(w, "receive invalidated_rkey", wc.invalidated_rkey, inv);
	if (c.cfg.qpt == QPT_UD) {
		if (wc.src_qp != c.peer.qpn)
			mismatch_val(w, "receive src_qp", wc.src_qp, c.peer.qpn);
		if (!(wc.wc_flags & IBV_WC_GRH))
			mismatch_val(w, "receive wc_flags & IBV_WC_GRH", 0, IBV_WC_GRH);
		grh_check(c, w, p, m.size, imm);
	}
}

// ---- which message an arrival is

static uint64_t seen_count(Ctx &c, Op op, Dir d)
{
	auto &seen = c.stats[op][d].seen;
	return c.pass < seen.size() ?
		       (uint64_t)std::count(seen[c.pass].begin(), seen[c.pass].end(), true) :
		       0;
}

static bool was_seen(Ctx &c, Op op, Dir d, uint32_t pass, uint64_t n)
{
	auto &seen = c.stats[op][d].seen;
	return pass < seen.size() && n < seen[pass].size() && seen[pass][n];
}

static Op arrival_kind(const ibv_wc &wc)
{
	if (wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM)
		return OP_WRITE_IMM;
	return wc.wc_flags & IBV_WC_WITH_IMM ? OP_SEND_IMM : OP_SEND;
}

struct Ident {
	bool found = false;
	uint32_t pass = 0;
	uint64_t n = 0;
	MsgPlan m;
	long long best = -1;	// no match: the closest candidate, its first bad byte
	uint64_t bn = 0;
	uint8_t bgot = 0;
	uint64_t bkey = 0;
};

const PlanCache &Ctx::plans(Op op, Dir d, uint32_t p)
{
	for (const PlanCache &pc : plan_cache)
		if (pc.op == op && pc.dir == d && pc.pass == p)
			return pc;
	// forget passes before the previous one
	plan_cache.erase(std::remove_if(plan_cache.begin(), plan_cache.end(),
					[&](const PlanCache &pc) { return pc.pass + 1 < pass; }),
			 plan_cache.end());
	plan_cache.emplace_back();
	PlanCache &pc = plan_cache.back();
	pc.op = op;
	pc.dir = d;
	pc.pass = p;
	for (uint64_t n = 0; n < plan_count(cfg, op); n++) {
		pc.msgs.push_back(plan_msg(cfg, mtu, op, d, p, n));
		pc.by_size[pc.msgs.back().size].push_back(n);
	}
	return pc;
}

// Which message of kind @op in @d the successful arrival @wc (at the ring
// head) is: same size (and immediate), same bytes, sent in this pass or
// the one before (late ones may arrive in a later phase); one not seen
// before if several match (empty ones all do).
static Ident identify(Ctx &c, Op op, Dir d, const ibv_wc &wc, const RecvPost &p)
{
	Ident id;
	const bool wimm = op == OP_WRITE_IMM;
	if (!wimm && wc.byte_len < c.grh)
		return id;
	const uint32_t size = wimm ? wc.byte_len : wc.byte_len - c.grh;
	bool unseen = false;
	for (uint32_t pass = c.pass + 1; !unseen && pass-- > 0 && pass + 2 > c.pass;) {
		const PlanCache &pc = c.plans(op, d, pass);
		auto it = pc.by_size.find(size);
		if (it == pc.by_size.end())
			continue;
		for (size_t k = 0; !unseen && k < it->second.size(); k++) {
			const uint64_t n = it->second[k];
			const MsgPlan &m = pc.msgs[n];
			if (op != OP_SEND && m.imm != ntohl(wc.imm_data))
				continue;
			if (!wimm) {
				uint8_t got = 0;
				size_t bad = c.sc_cmp(p.sc, m.key, c.grh, size, &got);
				if (bad != SIZE_MAX) {
					if ((long long)(bad - c.grh) > id.best) {
						id.best = (long long)(bad - c.grh);
						id.bn = n;
						id.bgot = got;
						id.bkey = m.key;
					}
					continue;
				}
			}
			bool was = was_seen(c, op, d, pass, n);
			if (!id.found || !was) {
				id.found = true;
				unseen = !was;
				id.pass = pass;
				id.n = n;
				id.m = m;
			}
		}
	}
	return id;
}

// Without --lossy: the arrival at the ring head should be message @n
// (@m) of @op.  If it is not but is another message that was sent, say
// so: a loss, duplicate or reordering.  RC must never do that (MISMATCH);
// on UC/UD it is a loss the run did not allow (--lossy): ERROR.
static void expect_arrival(Ctx &c, Op op, Dir d, uint64_t n, const MsgPlan &m, const ibv_wc &wc,
			   const RecvPost &p)
{
	if (op == OP_SEND_INV)
		return;
	const bool wimm = op == OP_WRITE_IMM;
	uint8_t got = 0;
	if (wc.byte_len == (wimm ? m.size : m.size + c.grh) &&
	    (op == OP_SEND || ntohl(wc.imm_data) == m.imm) &&
	    (wimm || c.sc_cmp(p.sc, m.key, c.grh, m.size, &got) == SIZE_MAX))
		return;
	const Op kind = arrival_kind(wc);
	if (kind != op)
		return;		// the detailed checks name what is wrong
	Ident id = identify(c, op, d, wc, p);
	if (!id.found || (id.pass == c.pass && id.n == n))
		return;
	const Where w{ op, d, n, m.size };
	char what[160];
	snprintf(what, sizeof(what), "message %" PRIu64 "%s arrived in place of this one (%s)",
		 id.n, id.pass == c.pass ? "" : " of the previous pass",
		 id.pass < c.pass || id.n < n ? "a duplicate or late message" :
						"lost or reordered");
	if (c.cfg.qpt == QPT_RC)
		mismatch_val(w, what, id.n, n);
	error_at(w, "%s; a lossy link needs --lossy", what);
}

void recv_check(Ctx &c, Op op, Dir d, uint64_t n, const MsgPlan &m, const ibv_wc &wc, uint32_t inv)
{
	const Where w{ op, d, n, m.size };
	RecvPost &p = c.ring_head();
	check_wc(wc, recv_wr_id(p.seq),
		 op == OP_WRITE_IMM ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV, w, "receive");
	qpn_check(c, w, wc);
	expect_arrival(c, op, d, n, m, wc, p);
	recv_meta(c, op, w, m, wc, inv, p);
	if (op == OP_WRITE_IMM)
		c.sc_check(p.sc, p.guard, 0, 0, 0, true, w, "receive buffer of a WRITE_IMM");
	else
		c.sc_check(p.sc, p.guard, m.key, c.grh, m.size, true, w, "received payload");
	c.ring_done++;
	c.stats[op][d].ok++;
	c.stats[op][d].bytes += m.size;
}

// --lossy: counts the arrival at the ring head as the message it is
// (none: MISMATCH against the closest candidate).  A WRITE_IMM of this or
// the previous round of the running WRITE_IMM phase (@phase_op) also has
// its target memory checked.
static void lossy_arrival(Ctx &c, Dir d, const ibv_wc &wc, Op phase_op, uint64_t lo_prev)
{
	RecvPost &p = c.ring_head();
	const bool wimm = wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM;
	const Op op = wc.status == IBV_WC_SUCCESS ? arrival_kind(wc) : phase_op;
	Where w{ op, d, 0, wc.byte_len };
	check_wc(wc, recv_wr_id(p.seq), wimm ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV, w,
		 "receive (message not identified yet)");
	qpn_check(c, w, wc);
	if (!(c.cfg.ops & (1u << op)))
		mismatch_val(w, "received a message of a kind never sent: byte_len", wc.byte_len, 0);
	Ident id = identify(c, op, d, wc, p);
	if (!id.found && id.best >= 0)
		mismatch(Where{ op, d, id.bn, w.size - (wimm ? 0 : c.grh) }, id.best, id.bgot,
			 pat_byte(id.bkey, (uint64_t)id.best),
			 "received message matches no message sent (closest shown)");
	if (!id.found)
		mismatch_val(w, "received a message of a size/immediate never sent: byte_len",
			     wc.byte_len, 0);

	const MsgPlan &m = id.m;
	w.msg = id.n;
	w.size = m.size;
	recv_meta(c, op, w, m, wc, 0, p);
	// UC may leave bytes of an incomplete SEND behind the message: only
	// the gaps between pieces are checked there
	const bool tail = c.cfg.qpt == QPT_UD;
	if (wimm)
		c.sc_check(p.sc, p.guard, 0, 0, 0, tail, w, "receive buffer of a WRITE_IMM");
	else
		c.sc_check(p.sc, p.guard, m.key, c.grh, m.size, tail, w, "received payload");
	if (wimm && id.pass == c.pass && phase_op == OP_WRITE_IMM && id.n >= lo_prev)
		region_exact(c, w, c.lay.tgt_at(id.n, c.cfg.depth), c.lay.tgt_slot,
			     tgt_data(c, id.n, m), m.key, m.size,
			     round_guard(c, op, d, id.n / c.cfg.depth), "target data of a WRITE_IMM");
	c.ring_done++;

	Stats &st = c.stats[op][d];
	if (st.seen.size() <= id.pass)
		st.seen.resize(id.pass + 1);
	if (st.seen[id.pass].size() < plan_count(c.cfg, op))
		st.seen[id.pass].resize(plan_count(c.cfg, op));
	const uint64_t at = ((uint64_t)id.pass << 40 | id.n) + 1;
	if (st.seen[id.pass][id.n]) {
		st.dup++;
	} else {
		if (at < st.last)
			st.reordered++;
		st.last = std::max(st.last, at);
		st.seen[id.pass][id.n] = true;
		st.ok++;
		st.bytes += m.size;
	}
}

// Takes arrivals until all @hi messages of the phase so far are here or
// none came for --settle ms.
void lossy_collect(Ctx &c, Op op, Dir d, uint64_t lo_prev, uint64_t hi)
{
	const double quiet = c.cfg.settle_ms / 1000.0;
	double until = now_s() + quiet;
	while (seen_count(c, op, d) < hi) {
		ibv_wc wc;
		if (!c.next_wc(c.ib.rcq, wc, until))
			break;
		lossy_arrival(c, d, wc, op, lo_prev);
		until = now_s() + quiet;
	}
}

} // namespace oracle
