// SPDX-License-Identifier: GPL-2.0
//
// The fuzzers' randomness (uverbs_fuzz, wire_fuzz): splitmix64, one
// stream per seed, so a printed seed replays the same choices.
#pragma once

#include <cstdint>

struct fuzz_rng {
	uint64_t s;

	uint64_t next()
	{
		uint64_t z = (s += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return z ^ (z >> 31);
	}
	uint32_t below(uint32_t n) { return n ? (uint32_t)(next() % n) : 0; }
	bool pct(unsigned p) { return below(100) < p; }
	// a value a field of @bits bits might take: zero, small, an edge,
	// one bit, or anything
	uint64_t edgy(int bits)
	{
		uint64_t max = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

		switch (below(6)) {
		case 0: return 0;
		case 1: return below(8);
		case 2: return max;
		case 3: return max >> 1;
		case 4: return (1ULL << below((uint32_t)bits)) & max;
		default: return next() & max;
		}
	}
};
