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
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_qp_state.h>

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

/*
 * Per-command checks of the request contents (Documentation/core/uverbs.rst,
 * "Commands"), before any object is looked up.  Each returns 0 or the
 * errno the command answers.
 */

/* What the device allows, from ib_device_attr and the device. */
struct uverbs_dev_limits {
	u32 max_qp_wr, max_send_sge, max_recv_sge;
	u32 max_cqe;
	u32 max_srq_wr, max_srq_sge;
	u32 num_comp_vectors;		/* at least 1 */
	u32 phys_port_cnt;
};

/*
 * REG_MR / REREG_MR access flags.  -EINVAL for unknown bits or remote
 * write/atomic without local write; -EOPNOTSUPP for on-demand paging.
 * *out: the flags to pass on, the optional range (bits 20-29, e.g.
 * relaxed ordering) dropped.
 */
int uverbs_check_mr_access(u32 access, u32 *out);

/*
 * REG_MR range: -EINVAL for length 0, start or hca_va + length wrapping,
 * or start and hca_va at different offsets in a page of @page_size.
 */
int uverbs_check_mr_range(u64 start, u64 length, u64 hca_va, u64 page_size);

/*
 * REREG_MR flags: -EINVAL without any, -EOPNOTSUPP for unknown ones; with
 * IB_MR_REREG_TRANS the range as for REG_MR, start and hca_va non-zero.
 */
int uverbs_check_rereg_mr(u32 flags, u64 start, u64 length, u64 hca_va,
			  u64 page_size);

/* ALLOC_MW: type 1 or 2 (-EINVAL), reserved bytes zero (-EINVAL). */
int uverbs_check_alloc_mw(const struct ib_uverbs_alloc_mw *cmd);

/*
 * CREATE_CQ: 1 <= cqe <= max_cqe and comp_vector < num_comp_vectors
 * (-EINVAL).
 */
int uverbs_check_create_cq(u32 cqe, u32 comp_vector,
			   const struct uverbs_dev_limits *lim);

/* EX_CREATE_CQ extras: comp_mask/reserved zero (-EINVAL), no flags (-EOPNOTSUPP). */
int uverbs_check_ex_create_cq(const struct ib_uverbs_ex_create_cq *cmd);

/*
 * CREATE_QP type and caps: RC, UC and UD only (-EOPNOTSUPP for the other
 * types, -EINVAL for unknown numbers); send caps, and receive caps unless
 * @is_srq, within the device's (-EINVAL).
 */
int uverbs_check_create_qp(u8 qp_type, bool is_srq,
			   const struct ib_uverbs_qp_cap *cap,
			   const struct uverbs_dev_limits *lim);

/* EX_CREATE_QP extras: comp_mask/create_flags (-EINVAL/-EOPNOTSUPP). */
int uverbs_check_ex_create_qp(const struct ib_uverbs_ex_create_qp *cmd);

/*
 * MODIFY_QP (@ex: EX_MODIFY_QP) before the QP state machine: mask bits
 * beyond IB_QP_DEST_QPN (extended: also RATE_LIMIT) -EOPNOTSUPP; states
 * beyond ERR, invalid ports, an RTR address vector on another port than
 * the QP's (@qp_port, 0 = unknown), an alternate path with mismatched
 * ports -EINVAL; a privileged Q_Key (bit 31) -EPERM.  An address vector
 * outside RTR without IB_QP_PORT implies the port: *mask and
 * cmd->port_num are updated.
 */
int uverbs_check_modify_qp(struct ib_uverbs_modify_qp *cmd, bool ex,
			   u32 qp_port, const struct uverbs_dev_limits *lim,
			   u32 *mask);

/* CREATE_AH: port valid (-EINVAL). */
int uverbs_check_ah_attr(const struct ib_uverbs_ah_attr *attr,
			 const struct uverbs_dev_limits *lim);

/* CREATE_SRQ: 1 <= max_wr <= max_srq_wr, max_sge <= max_srq_sge (-EINVAL). */
int uverbs_check_create_srq(u32 max_wr, u32 max_sge,
			    const struct uverbs_dev_limits *lim);

/* MODIFY_SRQ attr_mask: IBV_SRQ_MAX_WR (1) | IBV_SRQ_LIMIT (2) only. */
#define UVERBS_SRQ_ATTR_MASK	3u
int uverbs_check_modify_srq(u32 attr_mask);

/*
 * POST_SEND: wqe_size at least struct ib_uverbs_send_wr (-EINVAL); only
 * the doorbell (wr_count 0, sge_count 0) is supported (-EOPNOTSUPP).
 */
int uverbs_check_post_send(const struct ib_uverbs_post_send *cmd);

#endif /* _UVERBS_CMD_CHECK_H */
