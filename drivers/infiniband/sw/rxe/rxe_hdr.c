// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The opcode table and the receive parser (rxe_hdr.h).  Pure: builds on
 * the host too.  (Placeholder of the data-path contract.)
 */
#include "rxe_hdr.h"

const struct rxe_opcode_info *rxe_opcode_info(u8 opcode)
{
	return NULL;
}

enum rxe_parse_err rxe_hdr_parse(const u8 *bth, u32 len,
				 struct rxe_hdr_info *info)
{
	return RXE_PARSE_OPCODE;
}
