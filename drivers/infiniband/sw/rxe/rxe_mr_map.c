// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Translation tables of pinned user MRs from physically contiguous runs
 * (rxe_mr_map.h says the rules).  Type-level only.
 */
#include "rxe_mr_map.h"

void rxe_map_fit_init(struct rxe_map_fit *fit, u64 va)
{
	fit->va = va;
	fit->bits = 0;
	fit->runs = 0;
}

void rxe_map_fit_add(struct rxe_map_fit *fit, u64 len)
{
	/* a block must not hold two runs: later runs start on a boundary */
	if (fit->runs)
		fit->bits |= fit->va;
	fit->va += len;
	fit->runs++;
}

unsigned int rxe_map_fit_shift(const struct rxe_map_fit *fit,
			       unsigned int min, unsigned int max)
{
	unsigned int shift = max;
	u64 low;

	if (fit->bits) {
		low = fit->bits & (~fit->bits + 1);
		shift = 0;
		while (shift < 63 && (1ULL << shift) != low)
			shift++;
	}
	if (shift > max)
		shift = max;
	return shift < min ? min : shift;
}

u64 rxe_map_blocks(u64 va, u64 len, unsigned int shift)
{
	u64 first = va >> shift;
	u64 last = (va + len - 1) >> shift;

	return len ? last - first + 1 : 0;
}

int rxe_map_fill(u64 *table, u64 max, u64 *filled, u64 va0,
		 unsigned int shift, u64 va, u64 kaddr, u64 len)
{
	u64 size = 1ULL << shift;
	u64 j, last, base;

	if (!len || va < va0)
		return -1;
	j = (va - va0) >> shift;
	last = (va - va0 + len - 1) >> shift;
	if (last >= max)
		return -1;
	/* runs follow each other, each but the first on a block boundary */
	if (j != *filled || (*filled && ((va - va0) & (size - 1))))
		return -1;
	/* the kernel address of the start of the run's first block */
	base = kaddr - ((va - va0) & (size - 1));
	for (; j <= last; j++, base += size)
		table[j] = base;
	*filled = last + 1;
	return 0;
}
