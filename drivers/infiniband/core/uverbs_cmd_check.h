/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Header checks of the uverbs write() ABI (legacy and extended commands),
 * as pure logic: type-level headers only, so tools/testing/unit compiles
 * and tests it on the host as C++.  The rules are those of
 * Documentation/core/uverbs.rst ("write() framing").
 */
#ifndef _UVERBS_CMD_CHECK_H
#define _UVERBS_CMD_CHECK_H

#include <linux/types.h>
#include <uapi/rdma/ib_user_verbs.h>

/* The write() buffer starts with these; an extended one adds ex_cmd_hdr. */
#define UVERBS_HDR_LEN		sizeof(struct ib_uverbs_cmd_hdr)
#define UVERBS_EX_HDR_LEN	(sizeof(struct ib_uverbs_cmd_hdr) + \
				 sizeof(struct ib_uverbs_ex_cmd_hdr))

/* Core sizes of one command, from the command table. */
struct uverbs_cmd_size {
	u16 req;	/* core request (legacy: starts with u64 response if resp) */
	u16 resp;	/* core response; 0 for a command without one */
};

/* Where the parts of a checked command are; offsets into the write() buffer. */
struct uverbs_cmd_layout {
	u32 core_in_off, core_in_len;	/* as sent: may be longer than req (ex) */
	u32 drv_in_off, drv_in_len;	/* driver (udata) request */
	u32 core_out_len, drv_out_len;	/* response parts at the response pointer */
};

/*
 * Split hdr->command into the command number and the extended flag.
 * -EINVAL if bits other than the flag and the number are set.
 */
int uverbs_cmd_number(u32 command, u32 *num, bool *ex);

/*
 * Check a legacy command's header against write()'s @count and the table's
 * sizes and fill @out.  -EINVAL if in_words does not match count, -ENOSPC
 * if the core request or response space is too small.
 */
int uverbs_cmd_check_legacy(const struct ib_uverbs_cmd_hdr *hdr, size_t count,
			    const struct uverbs_cmd_size *sz,
			    struct uverbs_cmd_layout *out);

/*
 * The same for an extended command (count >= UVERBS_EX_HDR_LEN already
 * checked by the caller, who read @ex).  -EINVAL for a length mismatch, a
 * non-zero reserved field, or response sizes without a response pointer
 * (and the reverse); -ENOSPC for a core request or response too small.
 */
int uverbs_cmd_check_ex(const struct ib_uverbs_cmd_hdr *hdr,
			const struct ib_uverbs_ex_cmd_hdr *ex, size_t count,
			const struct uverbs_cmd_size *sz,
			struct uverbs_cmd_layout *out);

#endif /* _UVERBS_CMD_CHECK_H */
