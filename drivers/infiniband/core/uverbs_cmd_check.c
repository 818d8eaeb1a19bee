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

#include <rdma/ib_placement.h>

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

/* ---- per-command request checks ---- */

#define MR_ACCESS_KNOWN	((u32)(RDMA_UVERBS_ACCESS_FLUSH_PERSISTENT << 1) - 1)

int uverbs_check_mr_access(u32 access, u32 *out)
{
	u32 optional = (u32)IB_UVERBS_ACCESS_OPTIONAL_RANGE;

	if (access & ~(MR_ACCESS_KNOWN | optional))
		return -EINVAL;
	/* the responder may write: so must the local side */
	if ((access & (IB_UVERBS_ACCESS_REMOTE_WRITE |
		       IB_UVERBS_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	*out = access & ~optional;
	return 0;
}

static bool wraps(u64 base, u64 length)
{
	return base + length < base;
}

int uverbs_check_mr_range(u64 start, u64 length, u64 hca_va, u64 page_size)
{
	u64 offset_mask = page_size - 1;

	if (!length || wraps(start, length) || wraps(hca_va, length))
		return -EINVAL;
	if ((start & offset_mask) != (hca_va & offset_mask))
		return -EINVAL;
	return 0;
}

/* IB_MR_REREG_TRANS, _PD, _ACCESS (uapi: IBV_REREG_MR_CHANGE_*) */
#define REREG_TRANS		1u
#define REREG_KNOWN		7u

int uverbs_check_rereg_mr(u32 flags, u64 start, u64 length, u64 hca_va,
			  u64 page_size)
{
	if (!flags)
		return -EINVAL;
	if (flags & ~REREG_KNOWN)
		return -EINVAL;
	if (flags & REREG_TRANS) {
		if (!start || !hca_va)
			return -EINVAL;
		return uverbs_check_mr_range(start, length, hca_va, page_size);
	}
	return 0;
}

int uverbs_check_alloc_mw(const struct ib_uverbs_alloc_mw *cmd)
{
	/* IB_MW_TYPE_1, IB_MW_TYPE_2 */
	if (cmd->mw_type != 1 && cmd->mw_type != 2)
		return -EINVAL;
	if (cmd->reserved[0] || cmd->reserved[1] || cmd->reserved[2])
		return -EINVAL;
	return 0;
}

int uverbs_check_create_cq(u32 cqe, u32 comp_vector,
			   const struct uverbs_dev_limits *lim)
{
	if (!cqe || cqe > lim->max_cqe)
		return -EINVAL;
	if (comp_vector >= lim->num_comp_vectors)
		return -EINVAL;
	return 0;
}

int uverbs_check_ex_create_cq(const struct ib_uverbs_ex_create_cq *cmd)
{
	if (cmd->comp_mask || cmd->reserved)
		return -EINVAL;
	/* completion timestamps, ignore-overrun: not offered */
	if (cmd->flags)
		return -EOPNOTSUPP;
	return 0;
}

int uverbs_check_create_qp(u8 qp_type, bool is_srq,
			   const struct ib_uverbs_qp_cap *cap,
			   const struct uverbs_dev_limits *lim)
{
	switch (qp_type) {
	case IB_UVERBS_QPT_RC:
	case IB_UVERBS_QPT_UC:
	case IB_UVERBS_QPT_UD:
		break;
	case IB_UVERBS_QPT_RAW_PACKET:
	case IB_UVERBS_QPT_XRC_INI:
	case IB_UVERBS_QPT_XRC_TGT:
	case IB_UVERBS_QPT_DRIVER:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
	if (cap->max_send_wr > lim->max_qp_wr ||
	    cap->max_send_sge > lim->max_send_sge)
		return -EINVAL;
	/* a QP on an SRQ has no receive queue of its own */
	if (!is_srq && (cap->max_recv_wr > lim->max_qp_wr ||
			cap->max_recv_sge > lim->max_recv_sge))
		return -EINVAL;
	return 0;
}

#define CREATE_QP_FLAGS_KNOWN						\
	((u32)(IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |		\
	       IB_UVERBS_QP_CREATE_SCATTER_FCS |			\
	       IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |			\
	       IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING))

int uverbs_check_ex_create_qp(const struct ib_uverbs_ex_create_qp *cmd)
{
	if (cmd->comp_mask & ~(u32)IB_UVERBS_CREATE_QP_MASK_IND_TABLE)
		return -EINVAL;
	if (cmd->reserved || (cmd->create_flags & ~CREATE_QP_FLAGS_KNOWN))
		return -EINVAL;
	/* receive work queue indirection tables: no WQs here */
	if (cmd->comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE)
		return -EOPNOTSUPP;
	return 0;
}

static bool port_ok(u32 port, const struct uverbs_dev_limits *lim)
{
	return port >= 1 && port <= lim->phys_port_cnt;
}

/* Q_Keys with the high bit are for privileged (kernel) consumers. */
#define QKEY_PRIVILEGED		0x80000000u

int uverbs_check_modify_qp(struct ib_uverbs_modify_qp *cmd, bool ex,
			   u32 qp_port, const struct uverbs_dev_limits *lim,
			   u32 *mask)
{
	u32 m = cmd->attr_mask;
	u32 known = IB_QP_ATTR_STANDARD_BITS | (ex ? IB_QP_RATE_LIMIT : 0);

	if (m & ~known)
		return -EOPNOTSUPP;
	if (((m & IB_QP_STATE) && cmd->qp_state > IB_QPS_ERR) ||
	    ((m & IB_QP_CUR_STATE) && cmd->cur_qp_state > IB_QPS_ERR))
		return -EINVAL;
	if ((m & IB_QP_PORT) && !port_ok(cmd->port_num, lim))
		return -EINVAL;
	if (m & IB_QP_AV) {
		if (!port_ok(cmd->dest.port_num, lim))
			return -EINVAL;
		if ((m & IB_QP_STATE) && cmd->qp_state == IB_QPS_RTR) {
			/* INIT->RTR: the path is on the port the QP has */
			if (qp_port && cmd->dest.port_num != qp_port)
				return -EINVAL;
		} else if (m & IB_QP_PORT) {
			if (cmd->port_num != cmd->dest.port_num)
				return -EINVAL;
		} else {
			/* a new primary path moves the QP to its port */
			m |= IB_QP_PORT;
			cmd->port_num = cmd->dest.port_num;
		}
	}
	if ((m & IB_QP_ALT_PATH) &&
	    (!port_ok(cmd->alt_port_num, lim) ||
	     cmd->alt_port_num != cmd->alt_dest.port_num))
		return -EINVAL;
	if ((m & IB_QP_QKEY) && (cmd->qkey & QKEY_PRIVILEGED))
		return -EPERM;
	*mask = m;
	return 0;
}

int uverbs_check_ah_attr(const struct ib_uverbs_ah_attr *attr,
			 const struct uverbs_dev_limits *lim)
{
	return port_ok(attr->port_num, lim) ? 0 : -EINVAL;
}

int uverbs_check_create_srq(u32 max_wr, u32 max_sge,
			    const struct uverbs_dev_limits *lim)
{
	if (!max_wr || max_wr > lim->max_srq_wr || max_sge > lim->max_srq_sge)
		return -EINVAL;
	return 0;
}

int uverbs_check_modify_srq(u32 attr_mask)
{
	return (attr_mask & ~UVERBS_SRQ_ATTR_MASK) ? -EINVAL : 0;
}

int uverbs_check_post_send(const struct ib_uverbs_post_send *cmd)
{
	if (cmd->wqe_size < sizeof(struct ib_uverbs_send_wr))
		return -EINVAL;
	/* work requests come through the rxe ring; this is its doorbell */
	if (cmd->wr_count || cmd->sge_count)
		return -EOPNOTSUPP;
	return 0;
}
