// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: parser of the fault-injection language (fwsim_inj.h).  Pure:
 * builds on the host.
 */
#include <linux/types.h>
#include "fwsim_inj.h"
#include "fwsim.h"

struct tok {
	const char *p;
	u32 len;
};

static bool tok_is(const struct tok *t, const char *word)
{
	u32 i;

	for (i = 0; i < t->len; i++)
		if (!word[i] || word[i] != t->p[i])
			return false;
	return !word[i];
}

/* an unsigned decimal or 0x-hex number of at most 32 bits */
static bool num(const char *p, u32 len, u32 *out)
{
	u64 v = 0;
	u32 base = 10, i = 0, d;

	if (len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			d = (u32)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (u32)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (u32)(c - 'A' + 10);
		else
			return false;
		v = v * base + d;
		if (v > 0xffffffffull)
			return false;
	}
	*out = (u32)v;
	return true;
}

/* key=value: the value's number into *out, within [lo, hi] */
static bool kv(const struct tok *t, const char *key, u32 lo, u32 hi, u32 *out)
{
	u32 k = 0;

	while (key[k]) {
		if (k >= t->len || t->p[k] != key[k])
			return false;
		k++;
	}
	if (k >= t->len || t->p[k] != '=')
		return false;
	k++;
	return num(t->p + k, t->len - k, out) && *out >= lo && *out <= hi;
}

static bool is_key(const struct tok *t, const char *key)
{
	u32 k = 0;

	while (key[k]) {
		if (k >= t->len || t->p[k] != key[k])
			return false;
		k++;
	}
	return k < t->len && t->p[k] == '=';
}

#define MAX_TOKS	4

/* "async=T:N": T an object event type, N a 24-bit object number */
static bool async_kv(const struct tok *t, struct fwsim_inj *inj)
{
	u32 k = 6, c, type, obj;

	if (!is_key(t, "async"))
		return false;
	for (c = k; c < t->len && t->p[c] != ':'; c++)
		;
	if (c == t->len || !num(t->p + k, c - k, &type) ||
	    !num(t->p + c + 1, t->len - c - 1, &obj))
		return false;
	if (type > 0xff || !fwsim_async_type((u8)type) || obj > 0xffffff)
		return false;
	inj->kind = FWSIM_INJ_ASYNC;
	inj->async_type = (u8)type;
	inj->async_obj = obj;
	return true;
}

int fwsim_inj_parse(const char *buf, u32 len, struct fwsim_inj *inj)
{
	struct tok t[MAX_TOKS];
	u32 n = 0, i = 0, v, seen = 0, bit;
	bool neg;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > FWSIM_INJ_MAX_LEN)
		return -1;
	/* tokens separated by single spaces */
	while (i < len) {
		u32 start = i;

		while (i < len && buf[i] != ' ') {
			if (buf[i] <= ' ' || buf[i] > '~')
				return -1;
			i++;
		}
		if (i == start || n == MAX_TOKS)
			return -1;
		t[n].p = buf + start;
		t[n].len = i - start;
		n++;
		if (i < len && ++i == len)
			return -1;	/* trailing space */
	}

	inj->opcode = 0;
	inj->status = 0;
	inj->syndrome = 0;
	inj->count = 1;
	inj->delay_ms = 0;
	inj->synd = 0;
	inj->pages = 0;
	inj->async_type = 0;
	inj->async_obj = 0;
	if (n == 1) {
		if (is_key(&t[0], "async"))
			return async_kv(&t[0], inj) ? 0 : -1;
		if (tok_is(&t[0], "lose")) {
			inj->kind = FWSIM_INJ_LOSE;
			return 0;
		}
		if (tok_is(&t[0], "stall")) {
			inj->kind = FWSIM_INJ_STALL;
			return 0;
		}
		if (tok_is(&t[0], "stuck_init")) {
			inj->kind = FWSIM_INJ_STUCK_INIT;
			return 0;
		}
		if (kv(&t[0], "delay_ms", 1, FWSIM_INJ_MAX_DELAY_MS, &v)) {
			inj->kind = FWSIM_INJ_DELAY;
			inj->delay_ms = v;
			return 0;
		}
		if (kv(&t[0], "health", 1, 0xff, &v)) {
			inj->kind = FWSIM_INJ_HEALTH;
			inj->synd = (u8)v;
			return 0;
		}
		if (is_key(&t[0], "page_req")) {
			struct tok u = t[0];

			neg = u.len > 9 && u.p[9] == '-';
			if (neg) {
				/* "page_req=-N": parse N */
				if (!num(u.p + 10, u.len - 10, &v))
					return -1;
			} else if (!kv(&u, "page_req", 0, 0xffffffffu, &v)) {
				return -1;
			}
			if (!v || v > FWSIM_INJ_MAX_PAGES)
				return -1;
			inj->kind = FWSIM_INJ_PAGE_REQ;
			inj->pages = neg ? -(s32)v : (s32)v;
			return 0;
		}
	}
	inj->kind = FWSIM_INJ_CMD;
	for (i = 0; i < n; i++) {
		if (kv(&t[i], "opcode", 0, 0xffff, &v)) {
			bit = 1;
			inj->opcode = (u16)v;
		} else if (kv(&t[i], "status", 1, 0xff, &v)) {
			bit = 2;
			inj->status = (u8)v;
		} else if (kv(&t[i], "syndrome", 0, 0xffffffffu, &v)) {
			bit = 4;
			inj->syndrome = v;
		} else if (kv(&t[i], "count", 1, FWSIM_INJ_MAX_COUNT, &v)) {
			bit = 8;
			inj->count = v;
		} else {
			return -1;
		}
		if (seen & bit)
			return -1;
		seen |= bit;
	}
	return (seen & 3) == 3 ? 0 : -1;
}
