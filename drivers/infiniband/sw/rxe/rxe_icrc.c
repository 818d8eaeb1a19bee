// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The RoCEv2 invariant CRC (rxe_hdr.h).  Pure: builds on the host too.
 * (Placeholder of the data-path contract.)
 */
#include "rxe_hdr.h"

u32 rxe_crc32(u32 crc, const void *buf, u32 len)
{
	return crc;
}

void rxe_icrc_put(u8 *l3, u32 len)
{
}

bool rxe_icrc_ok(const u8 *l3, u32 len)
{
	return false;
}
