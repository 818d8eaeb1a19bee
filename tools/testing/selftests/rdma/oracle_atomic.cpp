// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: the atomics and ATOMIC WRITE, both directions at once (each side owns one
// counter per kind, which only the other side changes: with one initiator
// per counter and RC executing in order, every returned value is known in
// advance), SEND_WITH_INV through type-2 memory windows, and the last
// step of an RC run: a WRITE through an invalidated rkey.
#include "oracle_ctx.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace oracle {

static uint8_t cell_guard(const Ctx &c, Op op, uint64_t n)
{
	return (uint8_t)key_of(c.cfg.seed, 0x63656c6c, c.pass, op, n);
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static void store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

// The 8-byte value of the cell at MR offset @cell, and its guards.
static void cell_check(Ctx &c, const Where &w, size_t cell, uint8_t g, uint64_t want,
		       const char *what)
{
	uint64_t got = load64(c.at(cell + Layout::VAL));
	if (got != want)
		mismatch_val(w, what, got, want);
	std::string gw = std::string(what) + ", guard";
	c.guard_check(cell, Layout::VAL, g, w, -(long long)Layout::VAL, gw.c_str());
	c.guard_check(cell + Layout::VAL + 8, Layout::CELL - Layout::VAL - 8, g, w, 8, gw.c_str());
}

// The end of a both-ways phase of @count 8-byte operations per side: both
// sides checked what the other did to them.
static void both_ways_done(Ctx &c, Op op, uint64_t count)
{
	c.tell(M_OK, 0);
	c.expect(M_OK, 0);
	for (Dir d : { C2S, S2C }) {
		Stats &st = c.stats[op][d];
		st.sent += count;
		st.ok += count;
		st.bytes += 8 * count;
	}
}

// Atomic @n of @op in @d on the peer's cell at (its) MR offset @cell; the
// original value lands in result cell @n.
static void post_atomic(Ctx &c, Op op, Dir d, uint64_t n, size_t cell)
{
	const Where w{ op, d, n, 8 };
	const size_t res = c.lay.res_cell(n, c.cfg.depth);
	memset(c.at(res), cell_guard(c, op, n), Layout::CELL);
	ibv_sge sg{ c.laddr(res + Layout::VAL), 8, c.ib.mr->lkey };
	ibv_send_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id_of(op, d, c.pass, n);
	wr.sg_list = &sg;
	wr.num_sge = 1;
	wr.opcode = wr_opcode(op);
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.atomic.remote_addr = c.raddr(cell + Layout::VAL);
	wr.wr.atomic.rkey = c.peer.rkey;
	if (op == OP_FETCH_ADD) {
		wr.wr.atomic.compare_add = fa_add(c.cfg, d, c.pass, n);
	} else {
		CsStep s = cs_step(c.cfg, d, c.pass, n);
		wr.wr.atomic.compare_add = s.compare;
		wr.wr.atomic.swap = s.swap;
	}
	if (int e = ibv_post_send(c.ib.qp, &wr, &bad))
		error_at(w, "ibv_post_send: %s", strerror(e));
}

void phase_atomic(Ctx &c, Op op, Dir)
{
	const Dir mine = c.client ? C2S : S2C;		// this side initiates
	const Dir theirs = c.client ? S2C : C2S;	// on this side's counter
	const bool fa = op == OP_FETCH_ADD;
	const size_t cell = fa ? c.lay.fa_cell() : c.lay.cs_cell();
	const uint64_t count = plan_count(c.cfg, op);
	const uint8_t g = cell_guard(c, op, ~0ull);

	memset(c.at(cell), g, Layout::CELL);
	store64(c.at(cell + Layout::VAL),
		fa ? fa_start(c.cfg, theirs, c.pass) : cs_value(c.cfg, theirs, c.pass, 0));
	c.tell(M_GO, 0);
	c.expect(M_GO, 0);

	// --depth outstanding all the time, results checked in posting order
	uint64_t posted = 0, done = 0, sum = fa_start(c.cfg, mine, c.pass);
	while (done < count) {
		while (posted < count && posted - done < c.cfg.depth)
			post_atomic(c, op, mine, posted++, cell);
		const Where w{ op, mine, done, 8 };
		ibv_wc wc = c.wait_wc(c.ib.scq, w, "initiator");
		check_wc(wc, wr_id_of(op, mine, c.pass, done), wc_opcode(op), w, "initiator");
		uint64_t want;
		if (fa) {
			want = sum;
			sum += fa_add(c.cfg, mine, c.pass, done);
		} else {
			want = cs_step(c.cfg, mine, c.pass, done).expect;
		}
		cell_check(c, w, c.lay.res_cell(done, c.cfg.depth), cell_guard(c, op, done), want,
			   fa ? "FETCH_ADD returned value" : "CMP_SWAP returned value");
		done++;
	}
	c.tell(M_DONE, 0);
	c.expect(M_DONE, 0);

	// the peer's operations are all done: this side's counter
	uint64_t fin;
	if (fa) {
		fin = fa_start(c.cfg, theirs, c.pass);
		for (uint64_t n = 0; n < count; n++)
			fin += fa_add(c.cfg, theirs, c.pass, n);
	} else {
		fin = cs_value(c.cfg, theirs, c.pass, c.cfg.iters);
	}
	cell_check(c, Where{ op, theirs, count - 1, 8 }, cell, g, fin,
		   fa ? "FETCH_ADD counter, final value" : "CMP_SWAP counter, final value");
	both_ways_done(c, op, count);
}

// ---- ATOMIC WRITE (IBTA 1.5), both directions at once: write n stores
// aw_value(n) into the peer's cell n % depth; RC executes in order, so
// each cell ends with the last value written to it, and a cell nobody
// wrote keeps its guard bytes.

// Posts ATOMIC WRITE @w.msg of @w.op (signalled): aw_value() of it into
// the peer's @cell.
static void post_atomic_write(Ctx &c, const Where &w, size_t cell)
{
	uint8_t v[8];

	if (!c.ib.qpx)
		error_at(w, "the QP has no ibv_qp_ex");
	store64(v, aw_value(c.cfg, w.dir, c.pass, w.msg));
	ibv_wr_start(c.ib.qpx);
	c.ib.qpx->wr_id = wr_id_of(w.op, w.dir, c.pass, w.msg);
	c.ib.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(c.ib.qpx, c.peer.rkey, c.raddr(cell + Layout::VAL), v);
	if (int e = ibv_wr_complete(c.ib.qpx))
		error_at(w, "ibv_wr_complete (ATOMIC WRITE): %s", strerror(e));
}

void phase_atomic_write(Ctx &c, Op op, Dir)
{
	const Dir mine = c.client ? C2S : S2C;
	const Dir theirs = c.client ? S2C : C2S;
	const uint64_t count = plan_count(c.cfg, op), depth = c.cfg.depth;

	for (uint64_t i = 0; i < depth; i++)
		memset(c.at(c.lay.aw_cell(i, c.cfg.depth)), cell_guard(c, op, i), Layout::CELL);
	c.tell(M_GO, 0);
	c.expect(M_GO, 0);

	uint64_t posted = 0, done = 0;
	while (done < count) {
		while (posted < count && posted - done < depth) {
			const Where pw{ op, mine, posted, 8 };
			post_atomic_write(c, pw, c.lay.aw_cell(posted, c.cfg.depth));
			posted++;
		}
		const Where w{ op, mine, done, 8 };
		ibv_wc wc = c.wait_wc(c.ib.scq, w, "initiator");
		check_wc(wc, wr_id_of(op, mine, c.pass, done), wc_opcode(op), w, "initiator");
		done++;
	}
	c.tell(M_DONE, 0);
	c.expect(M_DONE, 0);

	// the peer's writes are all done
	for (uint64_t i = 0; i < depth; i++) {
		const size_t cell = c.lay.aw_cell(i, c.cfg.depth);
		const uint8_t g = cell_guard(c, op, i);
		if (i >= count) {
			c.guard_check(cell, Layout::CELL, g, Where{ op, theirs, i, 8 }, 0,
				      "ATOMIC WRITE cell nobody wrote");
			continue;
		}
		const uint64_t last = i + (count - 1 - i) / depth * depth;
		cell_check(c, Where{ op, theirs, last, 8 }, cell, g,
			   aw_value(c.cfg, theirs, c.pass, last), "ATOMIC WRITE cell, last value");
	}
	both_ways_done(c, op, count);
}

// ---- SEND_WITH_INV

static uint64_t bind_wr_id(uint64_t n)
{
	return (uint64_t)(OP_COUNT + 1) << 56 | n;
}

// Binds this side's type-2 window to [@off, @off + @len) of the MR with
// @rkey (remote write only).
static void bind_window(Ctx &c, const Where &w, uint32_t rkey, size_t off, uint32_t len)
{
	ibv_send_wr wr{}, *bad = nullptr;
	wr.wr_id = bind_wr_id(w.msg);
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.bind_mw.mw = c.ib.mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info.mr = c.ib.mr;
	wr.bind_mw.bind_info.addr = c.laddr(off);
	wr.bind_mw.bind_info.length = len;
	wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
	if (int e = ibv_post_send(c.ib.qp, &wr, &bad))
		error_at(w, "ibv_post_send BIND_MW: %s", strerror(e));
	ibv_wc wc = c.wait_wc(c.ib.scq, w, "BIND_MW");
	check_wc(wc, bind_wr_id(w.msg), IBV_WC_BIND_MW, w, "BIND_MW");
	// librxe names the window to the kernel by ibv_mw::rkey, which must be
	// its current key (rxe checks it); a BIND_MW WR does not update it,
	// unlike ibv_bind_mw() for type 1.  Other providers ignore it.
	c.ib.mw->rkey = rkey;
}

// Posts a WRITE of @len pattern bytes of @key from initiator slot @slot
// (one piece) to @raddr through @rkey.
static void post_write(Ctx &c, const Where &w, uint64_t wr_id, uint64_t slot, uint64_t key,
		       uint32_t len, uint64_t raddr, uint32_t rkey)
{
	Scatter s;
	s.base = c.lay.src_at(slot, c.cfg.depth);
	s.slot = c.lay.src_slot;
	s.n = 1;
	s.len[0] = len;
	c.sc_fill(s, (uint8_t)(key >> 56), key, len);
	ibv_sge sg;
	c.sc_sges(s, &sg);
	ibv_send_wr wr{}, *bad = nullptr;
	wr.wr_id = wr_id;
	wr.sg_list = &sg;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (int e = ibv_post_send(c.ib.qp, &wr, &bad))
		error_at(w, "ibv_post_send WRITE: %s", strerror(e));
}

static void send_inv_initiator(Ctx &c, Op op, Dir d)
{
	const uint64_t count = plan_count(c.cfg, op);
	Stats &st = c.stats[op][d];
	// WRITE from slot 0, SEND from slot 1 (0 again after the WRITE
	// completed if --depth is 1)
	const uint64_t sslot = c.cfg.depth > 1 ? 1 : 0;
	for (uint64_t n = 0; n < count; n++) {
		const MsgPlan m = c.plan(op, d, n);
		const Where w{ op, d, n, m.size }, ww{ op, d, n, m.wsize };
		Msg k = c.expect(M_MWKEY, n);
		const uint32_t rkey = (uint32_t)k.v[0];
		const uint64_t win = c.raddr(c.lay.win + Layout::GAP + m.win_off);
		if (k.v[1] != win || k.v[2] != m.win_len)
			die(EXIT_ERROR, "protocol: window 0x%llx+%llu, the plan has 0x%llx+%u",
			    (unsigned long long)k.v[1], (unsigned long long)k.v[2],
			    (unsigned long long)win, m.win_len);

		post_write(c, ww, wr_id_of(op, d, c.pass, 2 * n), 0, m.wkey, m.wsize, win + m.woff,
			   rkey);
		if (!sslot) {
			ibv_wc wc = c.wait_wc(c.ib.scq, ww, "WRITE through the window");
			check_wc(wc, wr_id_of(op, d, c.pass, 2 * n), IBV_WC_RDMA_WRITE, ww,
				 "WRITE through the window");
		}
		MsgPlan sm = m;
		Scatter s = c.src_scatter(sm, sslot);
		const uint8_t g = (uint8_t)(m.key >> 56);
		c.sc_fill(s, g, m.key, m.size);
		ibv_sge sg[MAX_SGE];
		c.sc_sges(s, sg);
		ibv_send_wr wr{}, *bad = nullptr;
		wr.wr_id = wr_id_of(op, d, c.pass, 2 * n + 1);
		wr.sg_list = s.n ? sg : nullptr;
		wr.num_sge = (int)s.n;
		wr.opcode = IBV_WR_SEND_WITH_INV;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.invalidate_rkey = rkey;
		if (int e = ibv_post_send(c.ib.qp, &wr, &bad))
			error_at(w, "ibv_post_send SEND_WITH_INV: %s", strerror(e));

		if (sslot) {
			ibv_wc wc = c.wait_wc(c.ib.scq, ww, "WRITE through the window");
			check_wc(wc, wr_id_of(op, d, c.pass, 2 * n), IBV_WC_RDMA_WRITE, ww,
				 "WRITE through the window");
		}
		ibv_wc wc = c.wait_wc(c.ib.scq, w, "SEND_WITH_INV");
		check_wc(wc, wr_id_of(op, d, c.pass, 2 * n + 1), IBV_WC_SEND, w, "SEND_WITH_INV");
		c.sc_check(s, g, m.key, 0, m.size, true, w, "source buffer");
		c.tell(M_DONE, n);
		st.ok++;
		st.bytes += m.size + m.wsize;
	}
	st.sent += count;
	c.expect(M_OK, 0);
}

void phase_send_inv(Ctx &c, Op op, Dir d)
{
	if (c.initiator(d))
		return send_inv_initiator(c, op, d);
	const uint64_t count = plan_count(c.cfg, op);
	Stats &st = c.stats[op][d];
	for (uint64_t n = 0; n < count; n++) {
		const MsgPlan m = c.plan(op, d, n);
		const Where w{ op, d, n, m.size }, ww{ op, d, n, m.wsize };
		const uint8_t g = cell_guard(c, op, n);
		const size_t wstart = c.lay.win + Layout::GAP + m.win_off;

		c.ring_top_up();
		memset(c.at(c.lay.win), g, c.lay.win_len);
		const uint32_t rkey = ibv_inc_rkey(c.ib.mw->rkey);
		bind_window(c, w, rkey, wstart, m.win_len);
		c.last_rkey = rkey;
		c.last_win = wstart;
		c.last_win_len = m.win_len;
		c.tell(M_MWKEY, n, { rkey, c.laddr(wstart), m.win_len });

		// the SEND comes after the WRITE: when it is here, so is the data
		ibv_wc wc = c.wait_wc(c.ib.rcq, w, "receive");
		recv_check(c, op, d, n, m, wc, rkey);
		region_exact(c, ww, c.lay.win, c.lay.win_len, wstart + m.woff, m.wkey, m.wsize, g,
			     "data written through the window");
		st.bytes += m.wsize;
		c.expect(M_DONE, n);
	}
	st.sent += count;
	c.tell(M_OK, 0);
}

// ---- the last step

void phase_inv_write(Ctx &c, Op op, Dir d)
{
	const MsgPlan m = c.plan(op, d, 0);
	Stats &st = c.stats[op][d];
	st.sent++;
	st.ok++;
	// from here on the QPs break on purpose
	c.qp_errors_ok = true;
	if (!c.initiator(d)) {
		const Where w{ op, d, 0, m.wsize };
		const uint8_t g = cell_guard(c, op, 0);
		if (!c.last_rkey)
			die(EXIT_ERROR, "inv_write: no window was bound and invalidated before");
		memset(c.at(c.lay.win), g, c.lay.win_len);
		c.tell(M_MWKEY, 0, { c.last_rkey, c.laddr(c.last_win), c.last_win_len });
		c.expect(M_DONE, 0);
		c.guard_check(c.lay.win, c.lay.win_len, g, w, 0,
			      "window region after a WRITE through its invalidated rkey");
		c.tell(M_OK, 0);
		return;
	}
	Msg k = c.expect(M_MWKEY, 0);
	const uint32_t len = std::min<uint32_t>(m.wsize, (uint32_t)k.v[2]);
	const Where w{ op, d, 0, len };
	const uint64_t id = wr_id_of(op, d, c.pass, 0);
	post_write(c, w, id, 0, m.wkey, len, k.v[1], (uint32_t)k.v[0]);
	ibv_wc wc = c.wait_wc(c.ib.scq, w, "WRITE through an invalidated rkey");
	if (wc.wr_id != id)
		mismatch_val(w, "WRITE through an invalidated rkey: completion wr_id", wc.wr_id, id);
	if (wc.status == IBV_WC_SUCCESS)
		mismatch_val(w,
			     "WRITE through an invalidated rkey succeeded: completion status "
			     "(0 success, 10 REM_ACCESS_ERR)",
			     wc.status, IBV_WC_REM_ACCESS_ERR);
	// The responder NAKs and goes to ERR; when the link lost the NAK,
	// the retries meet a QP in ERR and end in a retry error.  Either
	// way the peer checks that the window's memory is untouched.
	if (wc.status == IBV_WC_RETRY_EXC_ERR && c.o.lossy_link)
		printf("rdma_oracle: inv_write %s: the NAK was lost: %s\n", dir_name(d),
		       ibv_wc_status_str(wc.status));
	else if (wc.status != IBV_WC_REM_ACCESS_ERR)
		error_at(w, "WRITE through an invalidated rkey: completion status %s (%d), want %s",
			 ibv_wc_status_str(wc.status), wc.status,
			 ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR));
	c.tell(M_DONE, 0);
	c.expect(M_OK, 0);
}


// ---- the last step: ATOMIC WRITE to a device without it
//
// The side whose device advertises ATOMIC WRITE posts one to the other's
// cell 0; the other (upstream 6.1 rxe, which drops the unknown opcode)
// must leave the cell alone, and the initiator must see the WQE fail: a
// retry error when the request was dropped, an invalid-request error when
// the peer NAKed it.  Needs exactly one side with the capability.
void phase_aw_refused(Ctx &c, Op op, Dir)
{
	c.qp_errors_ok = true;
	const bool mine = c.ib.atomic_write && !c.o.hide_atomic_write;
	c.tell(M_GO, 0, { mine });
	const bool theirs = c.expect(M_GO, 0).v[0];
	if (mine == theirs)
		die(EXIT_ERROR,
		    "aw_refused: wants exactly one device with ATOMIC WRITE (this side's %s it, "
		    "the peer's %s it)",
		    mine ? "has" : "lacks", theirs ? "has" : "lacks");
	const Dir d = mine == c.client ? C2S : S2C;
	const Where w{ op, d, 0, 8 };
	Stats &st = c.stats[op][d];
	st.sent++;
	st.ok++;
	const size_t cell = c.lay.aw_cell(0, c.cfg.depth);
	const uint8_t g = cell_guard(c, op, 0);
	if (!mine) {
		memset(c.at(cell), g, Layout::CELL);
		c.tell(M_GO, 1);
		c.expect(M_DONE, 0);
		c.guard_check(cell, Layout::CELL, g, w, 0,
			      "cell of an ATOMIC WRITE the device does not execute");
		c.tell(M_OK, 0);
		return;
	}
	c.expect(M_GO, 1);
	const uint64_t id = wr_id_of(op, d, c.pass, 0);
	post_atomic_write(c, w, cell);
	ibv_wc wc = c.wait_wc(c.ib.scq, w, "ATOMIC WRITE to a device without it");
	if (wc.wr_id != id)
		mismatch_val(w, "ATOMIC WRITE to a device without it: completion wr_id", wc.wr_id, id);
	if (wc.status == IBV_WC_SUCCESS)
		mismatch_val(w,
			     "ATOMIC WRITE to a device without it succeeded: completion status "
			     "(0 success, 12 RETRY_EXC_ERR)",
			     wc.status, IBV_WC_RETRY_EXC_ERR);
	if (wc.status != IBV_WC_RETRY_EXC_ERR && wc.status != IBV_WC_REM_INV_REQ_ERR)
		error_at(w, "ATOMIC WRITE to a device without it: completion status %s (%d), want %s "
			 "or %s", ibv_wc_status_str(wc.status), wc.status,
			 ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR),
			 ibv_wc_status_str(IBV_WC_REM_INV_REQ_ERR));
	printf("rdma_oracle: aw_refused %s: %s\n", dir_name(d), ibv_wc_status_str(wc.status));
	c.tell(M_DONE, 0);
	c.expect(M_OK, 0);
}

} // namespace oracle
