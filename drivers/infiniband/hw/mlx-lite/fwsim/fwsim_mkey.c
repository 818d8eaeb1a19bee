// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: translation of lkeys and rkeys through the MKey table.  Pure:
 * builds on the host.
 *
 * Rules:
 * - key = index << 8 | variant; the index names a live MKey (index + 1 in
 *   the table) whose variant byte is the key's low byte and which is not
 *   invalidated (free), else FWSIM_K_KEY;
 * - the MKey's PD is the QP's (FWSIM_K_PD);
 * - every right asked is in the MKey's access bits (FWSIM_K_ACCESS);
 * - [va, va + len) lies in [start, start + len) of the MKey, or anywhere
 *   for length64 (FWSIM_K_BOUNDS); a zero-length access is in bounds at
 *   any va of the range or its end;
 * - an atomic is 8 bytes at an 8-byte aligned va (FWSIM_K_ALIGN);
 * - PA MKeys translate va to the bus address va; MTT MKeys by page: the
 *   first entry holds the page of start, and a write needs the entry's
 *   write-enable bit (bit 1).
 */
#include <linux/types.h>
#include "fwsim.h"

enum fwsim_kerr fwsim_key_check(const struct fwsim *fw, u32 key, u32 pd,
				u32 acc, u64 va, u64 len,
				const struct fwsim_mkey **mk)
{
	u32 idx = key >> 8;
	const struct fwsim_mkey *m;

	*mk = NULL;
	if (!idx || idx > FWSIM_MAX_MKEYS)
		return FWSIM_K_KEY;
	m = &fw->mkeys[idx - 1];
	if (!m->used || m->free || m->variant != (key & 0xff))
		return FWSIM_K_KEY;
	if (m->pd != pd)
		return FWSIM_K_PD;
	if ((m->access & acc) != acc)
		return FWSIM_K_ACCESS;
	if (acc & FWSIM_ACC_A) {
		if (len != 8 || (va & 7))
			return FWSIM_K_ALIGN;
	}
	if (!m->length64) {
		if (va + len < va || va < m->start || len > m->len ||
		    va - m->start > m->len - len)
			return FWSIM_K_BOUNDS;
	} else if (va + len < va) {
		return FWSIM_K_BOUNDS;
	}
	*mk = m;
	return FWSIM_K_OK;
}

bool fwsim_key_bus(const struct fwsim *fw, const struct fwsim_mkey *mk,
		   u64 va, u32 max, bool write, u64 *bus, u32 *run)
{
	u64 pg, first, idx, e;

	if (mk->mode == 0) {
		*bus = va;
		*run = max;
		return true;
	}
	pg = 1ull << mk->log_page_size;
	first = mk->start & ~(pg - 1);
	idx = ((va & ~(pg - 1)) - first) >> mk->log_page_size;
	if (va < first || idx >= mk->n_mtt)
		return false;
	e = fw->pas_pool[mk->mtt_off + idx];
	if (!(e & 1) || (write && !(e & 2)))
		return false;
	*bus = (e & ~3ull) + (va & (pg - 1));
	*run = pg - (va & (pg - 1)) < max ? (u32)(pg - (va & (pg - 1))) : max;
	return true;
}
