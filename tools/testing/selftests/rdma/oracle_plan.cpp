// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: the deterministic plan (see oracle_plan.h).
#include "oracle_plan.h"

#include <algorithm>
#include <vector>

namespace oracle {

// Domain tags, so that no two uses of the seed share a stream.
enum : uint64_t {
	TAG_MSG = 0x6d7367,
	TAG_ROT = 0x726f74,
	TAG_FA = 0x6661,
	TAG_CS = 0x6373,
	TAG_BAD = 0x626164,
	TAG_PSN = 0x70736e,
	TAG_WIN = 0x77696e,
	TAG_AW = 0x6177,
};

// The largest message of @op.
static uint32_t max_of(const Config &cfg, uint32_t mtu)
{
	return cfg.qpt == QPT_UD ? std::min(cfg.max_size, mtu) : cfg.max_size;
}

// The sizes every phase covers (those within [min, max]), in this order:
// 0, 1, mtu-1, mtu, mtu+1, a multi-MTU one, 3 MTUs, max-1, max.
static std::vector<uint32_t> special_sizes(bool zero, uint32_t mtu, uint32_t max, Rng &r)
{
	const uint32_t want[] = { 0,	   1,	    mtu - 1,	   mtu, mtu + 1,
				  2 * mtu + r.range(1, mtu - 1), 3 * mtu, max - 1, max };
	std::vector<uint32_t> out;
	for (uint32_t s : want) {
		if (s > max || (s == 0 && !zero))
			continue;
		if (std::find(out.begin(), out.end(), s) == out.end())
			out.push_back(s);
	}
	return out;
}

static uint32_t random_size(uint32_t mtu, uint32_t max, Rng &r)
{
	switch (r.below(4)) {
	case 0:
		return r.range(1, std::min(64u, max));
	case 1:
		return r.range(1, std::min(mtu, max));
	case 2:
		return r.range(1, max);
	default: {
		// around a packet boundary
		uint32_t k = r.range(1, std::max(1u, max / mtu));
		uint32_t s = k * mtu + r.below(3) - 1;
		return std::min(std::max(s, 1u), max);
	}
	}
}

uint32_t split(uint32_t total, uint32_t max_pieces, Rng &r, uint32_t *len)
{
	if (!total)
		return 0;
	uint32_t want = r.range(1, std::min(std::min(max_pieces, MAX_SGE), total));
	std::vector<uint32_t> pts;
	for (uint32_t i = 1; i < want; i++)
		pts.push_back(r.range(1, total - 1));
	std::sort(pts.begin(), pts.end());
	pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
	uint32_t at = 0, n = 0;
	for (uint32_t p : pts) {
		len[n++] = p - at;
		at = p;
	}
	len[n++] = total - at;
	return n;
}

uint64_t plan_count(const Config &cfg, Op op)
{
	if (op_info[op].last)
		return 1;
	return cfg.iters + (op == OP_CMP_SWAP ? 1 : 0);
}

MsgPlan plan_msg(const Config &cfg, uint32_t mtu, Op op, Dir dir, uint32_t pass, uint64_t n)
{
	MsgPlan m;
	Rng r(key_of(cfg.seed, TAG_MSG, pass, (uint64_t)op << 1 | dir, n));
	m.key = r.next();
	m.imm = (uint32_t)r.next();
	m.inl = r.one_in(2);

	uint32_t max = max_of(cfg, mtu);
	if (op == OP_FETCH_ADD || op == OP_CMP_SWAP) {
		m.size = 8;
	} else {
		Rng rot(key_of(cfg.seed, TAG_ROT, pass, (uint64_t)op << 1 | dir));
		std::vector<uint32_t> sp = special_sizes(op_info[op].zero_len, mtu, max, rot);
		uint64_t k = rot.next();
		if (n < sp.size())
			m.size = sp[(n + k) % sp.size()];
		else
			m.size = random_size(mtu, max, r);
	}
	m.nsge = split(m.size, cfg.sge, r, m.cut);
	m.tgt_off = r.below(64);

	if (op == OP_SEND_INV || op == OP_INV_WRITE) {
		Rng w(key_of(cfg.seed, TAG_WIN, pass, dir, n));
		m.win_len = w.range(1, cfg.max_size);
		m.win_off = w.below(64);
		m.wkey = w.next();
		m.wsize = w.range(1, m.win_len);
		m.woff = w.below(m.win_len - m.wsize + 1);
	}
	return m;
}

uint64_t aw_value(const Config &cfg, Dir dir, uint32_t pass, uint64_t n)
{
	return key_of(cfg.seed, TAG_AW, pass, dir, n);
}

uint64_t fa_start(const Config &cfg, Dir dir, uint32_t pass)
{
	return key_of(cfg.seed, TAG_FA, pass, dir, ~0ull);
}

uint64_t fa_add(const Config &cfg, Dir dir, uint32_t pass, uint64_t n)
{
	Rng r(key_of(cfg.seed, TAG_FA, pass, dir, n));
	uint64_t a;
	switch (r.below(4)) {
	case 0:
		a = r.range(1, 255);
		break;
	case 1:
		a = 0xffffffffull;	// carries across the 32-bit halves
		break;
	case 2:
		a = 1ull << r.below(64);
		break;
	default:
		a = r.next();
	}
	return a ? a : 1;
}

uint64_t cs_value(const Config &cfg, Dir dir, uint32_t pass, uint64_t i)
{
	return key_of(cfg.seed, TAG_CS, pass, dir, i);
}

uint64_t cs_bad_at(const Config &cfg, Dir dir, uint32_t pass)
{
	return key_of(cfg.seed, TAG_BAD, pass, dir) % (cfg.iters + 1);
}

CsStep cs_step(const Config &cfg, Dir dir, uint32_t pass, uint64_t n)
{
	uint64_t bad = cs_bad_at(cfg, dir, pass);
	CsStep s;
	uint64_t i = n <= bad ? n : n - 1;	// the chain position
	uint64_t cur = cs_value(cfg, dir, pass, i);
	s.bad = n == bad;
	s.expect = cur;
	if (s.bad) {
		Rng r(key_of(cfg.seed, TAG_BAD, pass, dir, 1));
		s.compare = cur ^ (1ull << r.below(64));
		s.swap = r.next();
	} else {
		s.compare = cur;
		s.swap = cs_value(cfg, dir, pass, i + 1);
	}
	return s;
}

uint32_t plan_psn(const Config &cfg, bool client)
{
	Rng r(key_of(cfg.seed, TAG_PSN, client));
	// half of the seeds start just below the wrap, so it happens early
	if (r.one_in(2))
		return 0xffffff - r.below(256);
	return (uint32_t)r.next() & 0xffffff;
}

} // namespace oracle
