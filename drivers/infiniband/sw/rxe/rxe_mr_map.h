/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The translation table of a pinned user MR, built from the physically
 * contiguous runs of its pages (the scatterlist entries of its ib_umem).
 * Type-level only: rxe_mr_map.c also builds as C++ on the host
 * (tools/testing/unit).
 *
 * The table has one kernel address per block of 2^shift bytes of the
 * MR's virtual range, block 0 holding the MR's first byte, entry j the
 * kernel address of block j's start as the run holding the block's bytes
 * extends to it.  Within a run kernel addresses follow virtual ones
 * linearly (the direct map is linear), so a block size fits the MR when
 * no block holds bytes of two runs: every run but the first starts on a
 * block boundary.  The largest fitting size is chosen (at most
 * RXE_MAP_MAX_SHIFT), so a buffer in 2 MiB pages gets one entry per
 * 2 MiB instead of one per 4 KiB page, and filling the table costs one
 * store per block.
 *
 * An entry may name kernel addresses outside the runs (the part of a
 * block in front of the MR's first byte or behind its last); the data
 * path never reaches them, since it checks ranges against the MR first.
 */
#ifndef _RXE_MR_MAP_H
#define _RXE_MR_MAP_H

#include <linux/types.h>

#define RXE_MAP_MIN_SHIFT	12
#define RXE_MAP_MAX_SHIFT	30

/* the block-size candidates seen so far: fed run by run, in order */
struct rxe_map_fit {
	u64 va;		/* virtual start of the next run */
	u64 bits;	/* OR of the starts of every run but the first */
	u64 runs;
};

/* start at @va, the (page-aligned) virtual address of the first run */
void rxe_map_fit_init(struct rxe_map_fit *fit, u64 va);

/* the next run: @len bytes */
void rxe_map_fit_add(struct rxe_map_fit *fit, u64 len);

/* log2 of the largest block size that fits, within [@min, @max] */
unsigned int rxe_map_fit_shift(const struct rxe_map_fit *fit,
			       unsigned int min, unsigned int max);

/* entries of a table of 2^@shift blocks covering [@va, @va + @len) */
u64 rxe_map_blocks(u64 va, u64 len, unsigned int shift);

/*
 * Fill the entries of the blocks that the run [@va, @va + @len) at @kaddr
 * covers: @table has @max entries, block 0 starts at @va0 (aligned to
 * 2^@shift), *@filled entries are filled so far and grows.  Returns 0, or
 * -1 when the run does not fit (it does not start where the last one
 * ended on a block boundary, or passes the table's end).
 */
int rxe_map_fill(u64 *table, u64 max, u64 *filled, u64 va0,
		 unsigned int shift, u64 va, u64 kaddr, u64 len);

#endif /* _RXE_MR_MAP_H */
