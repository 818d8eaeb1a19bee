// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: waiting, buffers with guards, the receive ring (see
// oracle_ctx.h).
#include "oracle_ctx.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace oracle {

static size_t round_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

void Layout::compute(const Config &cfg, uint32_t grh)
{
	const size_t d = cfg.depth, max = cfg.max_size;
	src_slot = round_up(max + (cfg.sge + 1) * GAP, 64);
	recv_slot = round_up(grh + max + (cfg.sge + 1) * GAP, 64);
	tgt_slot = round_up(GAP + SLACK + max + GAP, 64);
	win_len = round_up(GAP + SLACK + max + GAP, 64);
	src = 0;
	recv = src + d * src_slot;
	tgt = recv + d * recv_slot;
	cells = tgt + 2 * d * tgt_slot;
	win = cells + (2 + 2 * d) * CELL;
	total = round_up(win + win_len, 4096);
}

size_t Scatter::at(uint32_t i) const
{
	size_t off = base + Layout::GAP;
	for (uint32_t j = 0; j < i; j++)
		off += len[j] + Layout::GAP;
	return off;
}

uint64_t Scatter::total() const
{
	uint64_t t = 0;
	for (uint32_t i = 0; i < n; i++)
		t += len[i];
	return t;
}

uint64_t wr_id_of(Op op, Dir d, uint32_t pass, uint64_t n)
{
	return (uint64_t)(op + 1) << 56 | (uint64_t)d << 55 | (uint64_t)(pass & 0x7fff) << 40 |
	       (n & 0xffffffffffull);
}

uint64_t recv_wr_id(uint64_t seq)
{
	return 0xffull << 56 | (seq & 0xffffffffffffffull);
}

void check_wc(const ibv_wc &wc, uint64_t wr_id, ibv_wc_opcode opcode, const Where &w,
	      const char *what)
{
	if (wc.status != IBV_WC_SUCCESS)
		error_at(w, "%s: completion status %s (%d), vendor_err 0x%x, wr_id 0x%llx", what,
			 ibv_wc_status_str(wc.status), wc.status, wc.vendor_err,
			 (unsigned long long)wc.wr_id);
	if (wc.wr_id != wr_id)
		mismatch_val(w, (std::string(what) + ": completion wr_id").c_str(), wc.wr_id, wr_id);
	if (wc.opcode != opcode)
		mismatch_val(w, (std::string(what) + ": completion opcode").c_str(), wc.opcode,
			     opcode);
}

// ---- waiting

bool Ctx::next_wc(ibv_cq *cq, ibv_wc &wc, double until)
{
	bool armed = false;
	for (;;) {
		int k = ibv_poll_cq(cq, 1, &wc);
		if (k < 0)
			die(EXIT_ERROR, "ibv_poll_cq failed (%d)", k);
		if (k == 1)
			return true;
		if (now_s() >= until)
			return false;
		if (!armed) {
			// arm, then look again: a completion between the poll
			// and the arming raises no event
			if (int e = ibv_req_notify_cq(cq, 0))
				die(EXIT_ERROR, "ibv_req_notify_cq: %s", strerror(e));
			armed = true;
			continue;
		}
		block(until);
		armed = false;	// re-arm after every wake-up: the event may be spent
	}
}

ibv_wc Ctx::wait_wc(ibv_cq *cq, const Where &w, const char *what)
{
	ibv_wc wc{};
	if (!next_wc(cq, wc, now_s() + o.timeout))
		error_at(w, "%s: no completion within %gs", what, o.timeout);
	return wc;
}

void Ctx::block(double until)
{
	pollfd p[3];
	nfds_t n = 0;
	// (before the QP exists, only the peer)
	p[n++] = pollfd{ ib.ch ? ib.ch->fd : -1, POLLIN, 0 };
	p[n++] = pollfd{ ib.ctx ? ib.ctx->async_fd : -1, POLLIN, 0 };
	if (!oob.closed())
		p[n++] = pollfd{ oob.fd(), POLLIN, 0 };
	// a missed CQ event costs at most 20 ms
	double left = until - now_s();
	int ms = left <= 0 ? 0 : std::min(20, (int)(left * 1000) + 1);
	if (poll(p, n, ms) < 0 && errno != EINTR)
		die(EXIT_ERROR, "poll: %s", strerror(errno));
	if (p[0].revents) {
		ibv_cq *cq;
		void *cq_ctx;
		// the channel is non-blocking: drain it
		while (!ibv_get_cq_event(ib.ch, &cq, &cq_ctx))
			ibv_ack_cq_events(cq, 1);
	}
	if (p[1].revents)
		check_async();
	if (n > 2 && p[2].revents)
		oob.pump();
	if (oob.eof() && !bye)
		die(EXIT_ERROR, "peer closed the connection (peer vanished)");
}

void Ctx::check_async()
{
	ibv_async_event ev;
	while (!ibv_get_async_event(ib.ctx, &ev)) {
		ibv_event_type t = ev.event_type;
		ibv_ack_async_event(&ev);
		switch (t) {
		case IBV_EVENT_DEVICE_FATAL:
			die(EXIT_ERROR, "async event %s (device gone?)", ibv_event_type_str(t));
		case IBV_EVENT_QP_FATAL:
		case IBV_EVENT_QP_REQ_ERR:
		case IBV_EVENT_QP_ACCESS_ERR:
		case IBV_EVENT_CQ_ERR:
			if (!qp_errors_ok)
				die(EXIT_ERROR, "async event %s", ibv_event_type_str(t));
			break;
		case IBV_EVENT_SRQ_LIMIT_REACHED:
			// not an error: counted, re-armed at the next top-up
			srq_events++;
			srq_armed = false;
			if (o.verbose)
				say("async event %s", ibv_event_type_str(t));
			break;
		case IBV_EVENT_SRQ_ERR:
			die(EXIT_ERROR, "async event %s", ibv_event_type_str(t));
		case IBV_EVENT_PORT_ERR:
			say("note: async event %s", ibv_event_type_str(t));
			break;
		default:
			if (o.verbose)
				say("async event %s", ibv_event_type_str(t));
		}
	}
}

void Ctx::tell(uint32_t type, uint64_t round, std::initializer_list<uint64_t> v)
{
	Msg m;
	m.type = type;
	m.phase = phase;
	m.round = round;
	size_t i = 0;
	for (uint64_t x : v)
		if (i < sizeof(m.v) / sizeof(m.v[0]))
			m.v[i++] = x;
	oob.send(m);
}

Msg Ctx::recv_msg(const char *what)
{
	// the peer's own waits end within --timeout and it then reports:
	// give it the time to, so the first failure is the one printed
	const double limit = 2 * o.timeout + 5, until = now_s() + limit;
	Msg m;
	for (;;) {
		oob.pump();
		if (oob.pop(m))
			return m;
		if (oob.eof())
			die(EXIT_ERROR, "peer closed the connection waiting for %s (peer vanished)",
			    what);
		if (now_s() >= until)
			die(EXIT_ERROR, "no %s from the peer within %gs (phase %u)", what, limit, phase);
		block(until);
	}
}

Msg Ctx::expect(uint32_t type, uint64_t round)
{
	Msg m = recv_msg(msg_name(type));
	if (m.type != type || m.phase != phase || m.round != round)
		die(EXIT_ERROR, "protocol: got %s phase %u round %llu, want %s phase %u round %llu",
		    msg_name(m.type), m.phase, (unsigned long long)m.round, msg_name(type), phase,
		    (unsigned long long)round);
	return m;
}

// ---- buffers

void Ctx::sc_fill(const Scatter &s, uint8_t g, uint64_t key, uint32_t len)
{
	memset(at(s.base), g, s.slot);
	uint64_t pos = 0;
	for (uint32_t i = 0; i < s.n && pos < len; i++) {
		uint32_t k = (uint32_t)std::min<uint64_t>(s.len[i], len - pos);
		pat_fill(key, pos, at(s.at(i)), k);
		pos += s.len[i];
	}
}

size_t Ctx::sc_cmp(const Scatter &s, uint64_t key, uint32_t skip, uint32_t len, uint8_t *got)
{
	uint64_t pos = 0, from = skip, to = (uint64_t)skip + len;
	for (uint32_t i = 0; i < s.n && pos < to; pos += s.len[i], i++) {
		uint64_t a = std::max(pos, from), b = std::min(pos + s.len[i], to);
		if (a >= b)
			continue;
		const uint8_t *p = at(s.at(i)) + (a - pos);
		size_t d = pat_cmp(key, a - skip, p, b - a);
		if (d < b - a) {
			*got = p[d];
			return a + d;
		}
	}
	return SIZE_MAX;
}

void Ctx::sc_check(const Scatter &s, uint8_t g, uint64_t key, uint32_t skip, uint32_t len,
		   bool tail, const Where &w, const char *what)
{
	uint8_t got = 0;
	size_t bad = sc_cmp(s, key, skip, len, &got);
	if (bad != SIZE_MAX)
		mismatch(w, (long long)(bad - skip), got, pat_byte(key, bad - skip), what);

	std::string gw = std::string(what) + ", guard";
	uint64_t pos = 0;
	size_t end = s.base;	// end of the previous piece
	for (uint32_t i = 0; i < s.n; i++) {
		size_t a = s.at(i);
		guard_check(end, a - end, g, w, (long long)pos - skip - (long long)(a - end),
			    (gw + " before piece " + std::to_string(i)).c_str());
		if (tail) {
			// the piece's bytes after the message
			uint64_t from = std::max<uint64_t>(pos, (uint64_t)skip + len);
			if (from < pos + s.len[i])
				guard_check(a + (from - pos), pos + s.len[i] - from, g, w,
					    (long long)from - skip,
					    (gw + " after the message in piece " + std::to_string(i))
						    .c_str());
		}
		pos += s.len[i];
		end = a + s.len[i];
	}
	guard_check(end, s.base + s.slot - end, g, w, (long long)pos - skip,
		    (gw + " after the last piece").c_str());
}

void Ctx::sc_read(const Scatter &s, uint64_t off, uint8_t *out, uint32_t len)
{
	uint64_t pos = 0, to = off + len;
	for (uint32_t i = 0; i < s.n && pos < to; pos += s.len[i], i++) {
		uint64_t a = std::max(pos, off), b = std::min(pos + s.len[i], to);
		if (a < b)
			memcpy(out + (a - off), at(s.at(i)) + (a - pos), b - a);
	}
}

void Ctx::sc_sges(const Scatter &s, ibv_sge *out)
{
	for (uint32_t i = 0; i < s.n; i++) {
		out[i].addr = laddr(s.at(i));
		out[i].length = s.len[i];
		out[i].lkey = ib.mr->lkey;
	}
}

Scatter Ctx::src_scatter(const MsgPlan &m, uint64_t n)
{
	Scatter s;
	s.base = lay.src_at(n, cfg.depth);
	s.slot = lay.src_slot;
	s.n = m.nsge;
	memcpy(s.len, m.cut, sizeof(s.len));
	return s;
}

void Ctx::guard_check(size_t off, size_t len, uint8_t g, const Where &w, long long rel,
		      const char *what)
{
	size_t d = guard_cmp(g, at(off), len);
	if (d < len)
		mismatch(w, rel + (long long)d, at(off)[d], g, what);
}

// ---- the receive ring

void Ctx::ring_top_up()
{
	const uint32_t depth = cfg.depth;
	if (ring.size() != depth)
		ring.resize(depth);
	while (ring_posted - ring_done < depth) {
		uint64_t seq = ring_posted;
		RecvPost &p = ring[seq % depth];
		Rng r(key_of(cfg.seed, 0x72696e67, client, seq));
		p.seq = seq;
		p.guard = (uint8_t)r.next();
		p.sc.base = lay.recv + (seq % depth) * lay.recv_slot;
		p.sc.slot = lay.recv_slot;
		// random split points: the scatter list differs per receive
		p.sc.n = split(grh + cfg.max_size, cfg.sge, r, p.sc.len);
		memset(at(p.sc.base), p.guard, p.sc.slot);

		ibv_sge sg[MAX_SGE];
		sc_sges(p.sc, sg);
		ibv_recv_wr wr{};
		wr.wr_id = recv_wr_id(seq);
		wr.sg_list = sg;
		wr.num_sge = (int)p.sc.n;
		if (int e = ib_post_recv(ib, &wr))
			die(EXIT_ERROR, "%s: %s", ib.srq ? "ibv_post_srq_recv" : "ibv_post_recv",
			    strerror(e));
		ring_posted++;
	}
	if (!ib.srq)
		return;
	// an event raised by the last round's receives counts (and disarms)
	// before the limit is armed again; armed only with the ring full, so
	// that it cannot fire at once
	check_async();
	if (!srq_armed) {
		if (int e = ib_srq_arm(ib, SRQ_LIMIT))
			die(EXIT_ERROR, "ibv_modify_srq (IBV_SRQ_LIMIT %u): %s", SRQ_LIMIT,
			    strerror(e));
		srq_armed = true;
	}
}

} // namespace oracle
