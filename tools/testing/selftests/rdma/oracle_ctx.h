// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle's run state (Ctx), shared by the op phases: the memory
// layout, waiting for completions and peer messages (never longer than
// the deadline, watching async events), scattered buffers with guard
// bytes, the receive ring and the counts for the summary.
#pragma once

#include "oracle.h"
#include "oracle_ib.h"
#include "oracle_oob.h"
#include "oracle_plan.h"

#include <initializer_list>
#include <unordered_map>
#include <vector>

namespace oracle {

// Offsets into the one MR; both sides compute the same layout.
struct Layout {
	static constexpr size_t GAP = 64;	// guard bytes around and between pieces
	static constexpr size_t SLACK = 64;	// room for odd target offsets
	static constexpr size_t CELL = 64;	// an atomic cell: value at VAL, guards around
	static constexpr size_t VAL = 24;
	static constexpr uint32_t GRH = 40;

	size_t src_slot = 0, recv_slot = 0, tgt_slot = 0, win_len = 0;
	size_t src = 0;		// depth initiator slots: gather sources, READ sinks
	size_t recv = 0;	// depth receive slots
	size_t tgt = 0;		// 2 * depth target slots of WRITE and READ
	size_t cells = 0;	// FETCH_ADD and CMP_SWAP counters, depth result and ATOMIC WRITE cells
	size_t win = 0;		// the region a window is bound over (SEND_WITH_INV)
	size_t total = 0;

	void compute(const Config &cfg, uint32_t grh);
	size_t src_at(uint64_t n, uint32_t depth) const { return src + (n % depth) * src_slot; }
	size_t tgt_at(uint64_t n, uint32_t depth) const { return tgt + (n % (2 * depth)) * tgt_slot; }
	size_t fa_cell() const { return cells; }
	size_t cs_cell() const { return cells + CELL; }
	size_t res_cell(uint64_t n, uint32_t depth) const { return cells + (2 + n % depth) * CELL; }
	// ATOMIC WRITE targets: depth cells after the result cells
	size_t aw_cell(uint64_t n, uint32_t depth) const
	{
		return cells + (2 + depth + n % depth) * CELL;
	}
};

// A buffer made of pieces in one slot: piece i starts after i + 1 gaps of
// guard bytes and the pieces before it.  The byte stream of a message
// (receive: GRH first) runs through the pieces in order.
struct Scatter {
	size_t base = 0;	// the slot, as an MR offset
	size_t slot = 0;	// its length
	uint32_t n = 0;
	uint32_t len[MAX_SGE] = {};

	size_t at(uint32_t i) const;	// MR offset of piece i
	uint64_t total() const;
};

// Per (op, direction): what the summary prints.
struct Stats {
	uint64_t sent = 0;
	uint64_t ok = 0;
	uint64_t bytes = 0;
	uint64_t dup = 0;
	uint64_t reordered = 0;	// --lossy: arrived after a later message
	std::vector<std::vector<bool>> seen;	// --lossy: [pass][message]
	uint64_t last = 0;	// --lossy: (pass << 40 | message) + 1 of the latest
};

// The plan of one phase (op kind, direction, pass), indexed by message
// size: what --lossy and loss reports match arrivals against.
struct PlanCache {
	Op op = OP_SEND;
	Dir dir = C2S;
	uint32_t pass = 0;
	std::vector<MsgPlan> msgs;
	std::unordered_map<uint32_t, std::vector<uint64_t>> by_size;
};

struct RecvPost {
	uint64_t seq = 0;
	uint8_t guard = 0;
	Scatter sc;
};

struct Ctx {
	Options o;
	Config &cfg = o.cfg;
	Ib ib;
	Oob oob;
	Layout lay;
	PeerInfo peer;
	bool client = false;
	uint32_t mtu = 0;	// path MTU, bytes
	uint32_t grh = 0;	// 40 on UD
	uint32_t phase = 0;	// phase sequence number (both sides count alike)
	uint32_t pass = 0;
	bool qp_errors_ok = false;	// the last step breaks the QP on purpose
	bool bye = false;		// the peer may close now
	Stats stats[OP_COUNT][2];

	// the receive ring: depth receives posted (to the QP, or with --srq to
	// the SRQ), completing in order
	std::vector<RecvPost> ring;
	uint64_t ring_posted = 0, ring_done = 0;
	// --srq: the limit is armed when the ring is full and re-armed at the
	// top-up after each IBV_EVENT_SRQ_LIMIT_REACHED, which is counted
	static constexpr uint32_t SRQ_LIMIT = 1;
	bool srq_armed = false;
	uint64_t srq_events = 0;

	std::vector<PlanCache> plan_cache;	// this pass and the one before
	const PlanCache &plans(Op op, Dir d, uint32_t pass);

	// SEND_WITH_INV: the last rkey this side's window had (for the last step)
	uint32_t last_rkey = 0;
	uint64_t last_win = 0;	// MR offset of the last window
	uint32_t last_win_len = 0;

	bool initiator(Dir d) const { return (d == C2S) == client; }
	uint8_t *at(size_t off) { return ib.mem + off; }
	uint64_t laddr(size_t off) const { return (uint64_t)(uintptr_t)(ib.mem + off); }
	uint64_t raddr(size_t off) const { return peer.addr + off; }
	MsgPlan plan(Op op, Dir d, uint64_t n) const { return plan_msg(cfg, mtu, op, d, pass, n); }

	// ---- waiting (oracle_ctx.cpp)

	// The next completion of @cq, or false if none came by @until.
	bool next_wc(ibv_cq *cq, ibv_wc &wc, double until);
	// The next completion of @cq; ERROR (exit 3) naming @w if none comes
	// within --timeout.
	ibv_wc wait_wc(ibv_cq *cq, const Where &w, const char *what);
	// Sleeps until something may have happened (a CQ event, an async
	// event, a peer message) or @until; handles async events and peer
	// failure.
	void block(double until);
	void check_async();
	void tell(uint32_t type, uint64_t round, std::initializer_list<uint64_t> v = {});
	// The next peer message, whatever it is (@what: for the failure line).
	Msg recv_msg(const char *what);
	// The next peer message, which must be @type of this phase and @round.
	Msg expect(uint32_t type, uint64_t round);

	// ---- buffers

	// Fills the whole slot with guard @g, then the pieces with pattern
	// bytes [0, @len) of @key.
	void sc_fill(const Scatter &s, uint8_t g, uint64_t key, uint32_t len);
	// The first stream offset in [@skip, @skip + @len) whose byte is not
	// pattern byte (offset - @skip) of @key, or SIZE_MAX; @got the byte.
	size_t sc_cmp(const Scatter &s, uint64_t key, uint32_t skip, uint32_t len, uint8_t *got);
	// Dies (MISMATCH) unless the stream holds @len bytes of @key after
	// @skip, the pieces after that are guard @g (if @tail) and every gap
	// is guard.
	void sc_check(const Scatter &s, uint8_t g, uint64_t key, uint32_t skip, uint32_t len,
		      bool tail, const Where &w, const char *what);
	// Copies stream bytes [@off, @off + @len) out.
	void sc_read(const Scatter &s, uint64_t off, uint8_t *out, uint32_t len);
	void sc_sges(const Scatter &s, ibv_sge *out);
	// A plan's gather list as a scatter in initiator slot @n.
	Scatter src_scatter(const MsgPlan &m, uint64_t n);
	// [@off, @off + @len) of the MR must be guard @g
	void guard_check(size_t off, size_t len, uint8_t g, const Where &w, long long rel,
			 const char *what);

	// ---- the receive ring

	// Posts receives until depth are outstanding; --srq: arms the limit
	// if it is not armed.
	void ring_top_up();
	RecvPost &ring_head() { return ring[ring_done % ring.size()]; }
};

// The phases (oracle_ops.cpp, oracle_atomic.cpp), as in op_info[].run
void phase_atomic(Ctx &c, Op op, Dir d);
void phase_atomic_write(Ctx &c, Op op, Dir d);
void phase_aw_refused(Ctx &c, Op op, Dir d);
void phase_send_inv(Ctx &c, Op op, Dir d);
void phase_inv_write(Ctx &c, Op op, Dir d);

// oracle_ops.cpp and oracle_recv.cpp, shared
ibv_wr_opcode wr_opcode(Op op);
ibv_wc_opcode wc_opcode(Op op);
// Checks the receive completion @wc at the ring's head as message @n of
// @op (SEND_WITH_INV: it invalidated @inv) and the buffer it landed in.
void recv_check(Ctx &c, Op op, Dir d, uint64_t n, const MsgPlan &m, const ibv_wc &wc,
		uint32_t inv);
// --lossy: takes arrivals until all @hi messages of the phase so far are
// here or none came for --settle ms (oracle_recv.cpp).
void lossy_collect(Ctx &c, Op op, Dir d, uint64_t lo_prev, uint64_t hi);
// The guard value of round @r of a phase; the MR offset of message @n's
// data in its WRITE/READ target slot.
uint8_t round_guard(const Ctx &c, Op op, Dir d, uint64_t r);
size_t tgt_data(const Ctx &c, uint64_t n, const MsgPlan &m);
// [@slot, @slot + @slot_len) of the MR must hold guard @g but for @size
// bytes of pattern @key at @data.
void region_exact(Ctx &c, const Where &w, size_t slot, size_t slot_len, size_t data, uint64_t key,
		  uint32_t size, uint8_t g, const char *what);

// wr_id of initiator WR @n of @op in @dir, and of receive @seq
uint64_t wr_id_of(Op op, Dir d, uint32_t pass, uint64_t n);
uint64_t recv_wr_id(uint64_t seq);

// Dies unless @wc succeeded with @opcode for @wr_id.
void check_wc(const ibv_wc &wc, uint64_t wr_id, ibv_wc_opcode opcode, const Where &w,
	      const char *what);

} // namespace oracle
