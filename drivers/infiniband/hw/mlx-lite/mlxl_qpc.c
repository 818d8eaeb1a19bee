// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: QP transition commands from modify-QP attributes (mlxl_qpc.h).
 * Pure: builds on the host too (tools/testing/unit).
 */
#include <linux/types.h>
#include <rdma/ib_qp_state.h>
#include "mlxl_ifc.h"
#include "mlxl_qpc.h"

u16 mlxl_qp_opcode(enum ib_qp_state cur, enum ib_qp_state next, bool rc)
{
	if (cur > IB_QPS_ERR || next > IB_QPS_ERR || cur == IB_QPS_SQD ||
	    (rc && (cur == IB_QPS_SQE || next == IB_QPS_SQE)))
		return 0;
	if (next == IB_QPS_RESET)
		return MLXL_OP_2RST_QP;
	if (next == IB_QPS_ERR)
		return MLXL_OP_2ERR_QP;
	if (cur == IB_QPS_RESET && next == IB_QPS_INIT)
		return MLXL_OP_RST2INIT_QP;
	if (cur == IB_QPS_INIT && next == IB_QPS_INIT)
		return MLXL_OP_INIT2INIT_QP;
	if (cur == IB_QPS_INIT && next == IB_QPS_RTR)
		return MLXL_OP_INIT2RTR_QP;
	if (cur == IB_QPS_RTR && next == IB_QPS_RTS)
		return MLXL_OP_RTR2RTS_QP;
	if (cur == IB_QPS_RTS && next == IB_QPS_RTS)
		return MLXL_OP_RTS2RTS_QP;
	if (cur == IB_QPS_SQE && next == IB_QPS_RTS)
		return MLXL_OP_SQERR2RTS_QP;
	return 0;
}

u32 mlxl_qp_carries(u16 opcode, bool rc)
{
	switch (opcode) {
	case MLXL_OP_RST2INIT_QP:
	case MLXL_OP_INIT2INIT_QP:
		return IB_QP_PKEY_INDEX | IB_QP_PORT |
		       (rc ? IB_QP_ACCESS_FLAGS : IB_QP_QKEY);
	case MLXL_OP_INIT2RTR_QP:
		return rc ? IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			    IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
			    IB_QP_MIN_RNR_TIMER | IB_QP_PKEY_INDEX |
			    IB_QP_ACCESS_FLAGS :
			    IB_QP_PKEY_INDEX | IB_QP_QKEY;
	case MLXL_OP_RTR2RTS_QP:
		return rc ? IB_QP_SQ_PSN | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			    IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC |
			    IB_QP_ACCESS_FLAGS | IB_QP_MIN_RNR_TIMER :
			    IB_QP_SQ_PSN | IB_QP_QKEY;
	case MLXL_OP_RTS2RTS_QP:
		return rc ? IB_QP_ACCESS_FLAGS | IB_QP_MIN_RNR_TIMER : IB_QP_QKEY;
	case MLXL_OP_SQERR2RTS_QP:
		return rc ? 0 : IB_QP_QKEY;
	default:
		return 0;
	}
}

/* log2 of a depth rounded up; 0 for 0 and 1 */
static u32 log_depth(u32 n)
{
	u32 l = 0;

	while (l < 31 && (1u << l) < n)
		l++;
	return l;
}

static void put_path(u8 *in, const struct mlxl_av *av)
{
	const u8 *mac = av->rmac;
	u32 i;

	MLXL_SET(in, MLXL_F_ADS_SRC_ADDR_INDEX, av->sgid_index);
	MLXL_SET(in, MLXL_F_ADS_STAT_RATE, av->stat_rate);
	MLXL_SET(in, MLXL_F_ADS_HOP_LIMIT, av->hop_limit < 2 ?
		 MLXL_DEFAULT_HOP_LIMIT : av->hop_limit);
	MLXL_SET(in, MLXL_F_ADS_TCLASS, av->tclass);
	MLXL_SET(in, MLXL_F_ADS_FLOW_LABEL, av->flow_label);
	for (i = 0; i < 16; i++)
		in[MLXL_ADS_RGID_RIP + i] = av->rgid[i];
	if (av->roce_v2) {
		MLXL_SET(in, MLXL_F_ADS_DSCP, av->tclass >> 2);
		MLXL_SET(in, MLXL_F_ADS_ECN, av->tclass & 3);
	}
	MLXL_SET(in, MLXL_F_ADS_ETH_PRIO, av->sl & 7);
	MLXL_SET(in, MLXL_F_ADS_SL, av->sl & 0xf);
	MLXL_SET(in, MLXL_F_ADS_RMAC_47_32, (u32)mac[0] << 8 | mac[1]);
	MLXL_SET(in, MLXL_F_ADS_RMAC_31_0, (u32)mac[2] << 24 |
		 (u32)mac[3] << 16 | (u32)mac[4] << 8 | mac[5]);
}

/* the fields every command may carry with an opt_param_mask bit */
static u32 put_common(u8 *in, u16 opcode, const struct mlxl_qp_mod *m,
		      u32 mask)
{
	bool first = opcode == MLXL_OP_RST2INIT_QP;
	u32 opt = 0;

	if (first)
		MLXL_SET(in, MLXL_F_ADS_VHCA_PORT_NUM, 1);
	if (mask & IB_QP_PORT) {
		MLXL_SET(in, MLXL_F_ADS_VHCA_PORT_NUM, m->port);
		opt |= first ? 0 : MLXL_QP_OPT_PRI_PORT;
	}
	if (mask & IB_QP_PKEY_INDEX) {
		MLXL_SET(in, MLXL_F_ADS_PKEY_INDEX, m->pkey_index);
		opt |= first ? 0 : MLXL_QP_OPT_PKEY_INDEX;
	}
	if (mask & IB_QP_QKEY) {
		MLXL_SET(in, MLXL_F_QPC_Q_KEY, m->qkey);
		opt |= first ? 0 : MLXL_QP_OPT_Q_KEY;
	}
	if (mask & IB_QP_ACCESS_FLAGS) {
		MLXL_SET(in, MLXL_F_QPC_RRE, m->rre);
		MLXL_SET(in, MLXL_F_QPC_RWE, m->rwe);
		MLXL_SET(in, MLXL_F_QPC_RAE, m->rae);
		opt |= first ? 0 : MLXL_QP_OPT_RRE | MLXL_QP_OPT_RWE |
				   MLXL_QP_OPT_RAE;
	}
	if (mask & IB_QP_MIN_RNR_TIMER) {
		MLXL_SET(in, MLXL_F_QPC_MIN_RNR_NAK, m->min_rnr_timer);
		if (opcode != MLXL_OP_INIT2RTR_QP)
			opt |= MLXL_QP_OPT_RNR_TIMEOUT;
	}
	return opt;
}

u32 mlxl_qp_modify_in(u8 *in, u16 opcode, u32 qpn, bool rc,
		      const struct mlxl_qp_mod *m, u32 mask)
{
	u32 len = opcode == MLXL_OP_2ERR_QP || opcode == MLXL_OP_2RST_QP ?
		  MLXL_HDR_LEN : MLXL_QP_MODIFY_IN_LEN;
	u32 i;

	for (i = 0; i < len; i++)
		in[i] = 0;
	MLXL_SET(in, MLXL_F_IN_OPCODE, opcode);
	MLXL_SET(in, MLXL_F_QPN, qpn);
	if (len == MLXL_HDR_LEN)
		return len;
	mask &= mlxl_qp_carries(opcode, rc);
	MLXL_SET(in, MLXL_F_QP_OPT_PARAM_MASK, put_common(in, opcode, m, mask));
	if (rc && opcode == MLXL_OP_INIT2RTR_QP) {
		MLXL_SET(in, MLXL_F_QPC_LOG_MSG_MAX, MLXL_LOG_MSG_MAX);
		if (mask & IB_QP_PATH_MTU)
			MLXL_SET(in, MLXL_F_QPC_MTU, m->path_mtu);
		if (mask & IB_QP_DEST_QPN)
			MLXL_SET(in, MLXL_F_QPC_REMOTE_QPN, m->dest_qpn);
		if (mask & IB_QP_RQ_PSN)
			MLXL_SET(in, MLXL_F_QPC_NEXT_RCV_PSN, m->rq_psn);
		if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
			MLXL_SET(in, MLXL_F_QPC_LOG_RRA_MAX,
				 log_depth(m->max_dest_rd_atomic));
		if (mask & IB_QP_AV)
			put_path(in, &m->path);
	}
	if (mask & IB_QP_SQ_PSN)
		MLXL_SET(in, MLXL_F_QPC_NEXT_SEND_PSN, m->sq_psn);
	if (mask & IB_QP_TIMEOUT)
		MLXL_SET(in, MLXL_F_ADS_ACK_TIMEOUT, m->timeout);
	if (mask & IB_QP_RETRY_CNT)
		MLXL_SET(in, MLXL_F_QPC_RETRY_COUNT, m->retry_cnt);
	if (mask & IB_QP_RNR_RETRY)
		MLXL_SET(in, MLXL_F_QPC_RNR_RETRY, m->rnr_retry);
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		MLXL_SET(in, MLXL_F_QPC_LOG_SRA_MAX, log_depth(m->max_rd_atomic));
	return len;
}
