// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Header checks of the uverbs write() ABI, see uverbs_cmd_check.h.
 *
 * Pure logic: only type-level headers, so the file also builds as C++ on
 * the host (tools/testing/unit).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>

#include "uverbs_cmd_check.h"

int uverbs_cmd_number(u32 command, u32 *num, bool *ex)
{
	if (command & ~(u32)(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			     IB_USER_VERBS_CMD_COMMAND_MASK))
		return -EINVAL;
	*num = command & IB_USER_VERBS_CMD_COMMAND_MASK;
	*ex = (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) != 0;
	return 0;
}

/* Legacy: in_words/out_words count 4-byte words; in_words includes the header. */
int uverbs_cmd_check_legacy(const struct ib_uverbs_cmd_hdr *hdr, size_t count,
			    const struct uverbs_cmd_size *sz,
			    struct uverbs_cmd_layout *out)
{
	size_t out_len = (size_t)hdr->out_words * 4;

	if ((size_t)hdr->in_words * 4 != count)
		return -EINVAL;
	if (count < UVERBS_HDR_LEN + sz->req)
		return -ENOSPC;
	if (out_len < sz->resp)
		return -ENOSPC;
	out->core_in_off = UVERBS_HDR_LEN;
	out->core_in_len = sz->req;
	out->drv_in_off = UVERBS_HDR_LEN + sz->req;
	out->drv_in_len = (u32)(count - out->drv_in_off);
	out->core_out_len = sz->resp;
	out->drv_out_len = sz->resp ? (u32)(out_len - sz->resp) : 0;
	return 0;
}

/* Extended: all word counts are 8-byte units and exclude both headers. */
int uverbs_cmd_check_ex(const struct ib_uverbs_cmd_hdr *hdr,
			const struct ib_uverbs_ex_cmd_hdr *ex, size_t count,
			const struct uverbs_cmd_size *sz,
			struct uverbs_cmd_layout *out)
{
	size_t core_in = (size_t)hdr->in_words * 8;
	size_t drv_in = (size_t)ex->provider_in_words * 8;

	if (count < UVERBS_EX_HDR_LEN ||
	    core_in + drv_in != count - UVERBS_EX_HDR_LEN)
		return -EINVAL;
	if (core_in < sz->req)
		return -ENOSPC;
	if (ex->cmd_hdr_reserved)
		return -EINVAL;
	if (ex->response) {
		if (!hdr->out_words && !ex->provider_out_words)
			return -EINVAL;
		if ((size_t)hdr->out_words * 8 < sz->resp)
			return -ENOSPC;
	} else if (hdr->out_words || ex->provider_out_words) {
		return -EINVAL;
	}
	out->core_in_off = UVERBS_EX_HDR_LEN;
	out->core_in_len = (u32)core_in;
	out->drv_in_off = (u32)(UVERBS_EX_HDR_LEN + core_in);
	out->drv_in_len = (u32)drv_in;
	out->core_out_len = (u32)hdr->out_words * 8;
	out->drv_out_len = (u32)ex->provider_out_words * 8;
	return 0;
}
