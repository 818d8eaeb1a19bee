// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle's test plan: everything about message N of an op kind in a
// direction and pass (its size, payload pattern, gather list, immediate,
// placement, atomic operands) is a pure function of the seed, so both
// sides compute the same plan without exchanging it.
#pragma once

#include "oracle.h"

namespace oracle {

constexpr uint32_t MAX_SGE = 32;

struct MsgPlan {
	uint64_t key = 0;	// payload pattern
	uint32_t size = 0;
	uint32_t tgt_off = 0;	// WRITE/READ: offset in the target slot's slack
	uint32_t imm = 0;	// SEND_IMM/WRITE_IMM (host order)
	bool inl = false;	// IBV_SEND_INLINE, if size <= the QP's max_inline_data
	uint32_t nsge = 0;	// gather pieces (0 for an empty message)
	uint32_t cut[MAX_SGE] = {};	// their lengths, summing to size

	// SEND_WITH_INV: the window and the WRITE through it
	uint32_t win_off = 0;	// the window's start in the window region
	uint32_t win_len = 0;
	uint64_t wkey = 0;	// the WRITE's pattern
	uint32_t wsize = 0;
	uint32_t woff = 0;	// the WRITE's offset in the window
};

// Message @n of @op in @dir, pass @pass, for path MTU @mtu.
MsgPlan plan_msg(const Config &cfg, uint32_t mtu, Op op, Dir dir, uint32_t pass, uint64_t n);

// Splits @total bytes into 1..@max_pieces pieces (0 if @total is 0) at
// random points; their lengths go to @len; returns how many.
uint32_t split(uint32_t total, uint32_t max_pieces, Rng &r, uint32_t *len);

// How many messages a phase of @op has per direction (CMP_SWAP: one more,
// the deliberately failing compare).
uint64_t plan_count(const Config &cfg, Op op);

// FETCH_ADD on the counter that @dir's target owns: the start value and
// the value added by operation @n (never 0).
uint64_t fa_start(const Config &cfg, Dir dir, uint32_t pass);
uint64_t fa_add(const Config &cfg, Dir dir, uint32_t pass, uint64_t n);

// CMP_SWAP chain v0 -> v1 -> ... -> v(iters) on @dir's target counter;
// operation @bad_at() compares with a value that is not the current one.
uint64_t cs_value(const Config &cfg, Dir dir, uint32_t pass, uint64_t i);
uint64_t cs_bad_at(const Config &cfg, Dir dir, uint32_t pass);

// Operation @n of a CMP_SWAP phase: compare, swap, the value it returns
// and whether it is the failing one.
struct CsStep {
	uint64_t compare, swap, expect;
	bool bad;
};
CsStep cs_step(const Config &cfg, Dir dir, uint32_t pass, uint64_t n);

// ATOMIC WRITE @n in @dir: the 8 bytes it stores (as a host u64).
uint64_t aw_value(const Config &cfg, Dir dir, uint32_t pass, uint64_t n);

// A side's first send PSN (sometimes just below the 24-bit wrap).
uint32_t plan_psn(const Config &cfg, bool client);

} // namespace oracle
