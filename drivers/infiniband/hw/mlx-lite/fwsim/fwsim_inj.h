/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fwsim: the fault-injection language of the debugfs files fnN/inject and
 * inject_next (Documentation/mlx-lite/driver.rst).  One request a write:
 *
 *   opcode=N status=N [syndrome=N] [count=N]   the next count commands
 *                                              with opcode fail so
 *   delay_ms=N       the next command completes N ms late
 *   lose             the next command never completes
 *   health=N         the firmware dies with health syndrome N
 *   stall            the health counter stops
 *   stuck_init       the next command queue setup never ends initializing
 *   page_req=N       a page request: give N pages (N > 0) or take -N
 *   async=T:N        an asynchronous event of EQE type T (an object
 *                    event, fwsim_async_type()) for object number N
 *                    (24 bits), e.g. async=0x04:0x9 (CQ error on CQ 9)
 *
 * Numbers are decimal or 0x-hex; anything else, a repeated or missing
 * key, or a value out of range is refused.  Pure: builds on the host.
 */
#ifndef FWSIM_INJ_H
#define FWSIM_INJ_H

#include <linux/types.h>

enum fwsim_inj_kind {
	FWSIM_INJ_CMD,
	FWSIM_INJ_DELAY,
	FWSIM_INJ_LOSE,
	FWSIM_INJ_HEALTH,
	FWSIM_INJ_STALL,
	FWSIM_INJ_STUCK_INIT,
	FWSIM_INJ_PAGE_REQ,
	FWSIM_INJ_ASYNC,
};

struct fwsim_inj {
	enum fwsim_inj_kind kind;
	u16 opcode;
	u8 status;
	u32 syndrome;
	u32 count;
	u32 delay_ms;
	u8 synd;
	s32 pages;
	u8 async_type;
	u32 async_obj;
};

#define FWSIM_INJ_MAX_LEN	128
#define FWSIM_INJ_MAX_DELAY_MS	600000
#define FWSIM_INJ_MAX_COUNT	1000000
#define FWSIM_INJ_MAX_PAGES	4096

/* 0, or -1 if buf (len bytes, not NUL-terminated) is not one request */
int fwsim_inj_parse(const char *buf, u32 len, struct fwsim_inj *inj);

#endif /* FWSIM_INJ_H */
