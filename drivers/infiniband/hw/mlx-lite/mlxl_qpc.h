/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: QP transitions as the firmware takes them.  Which command
 * moves a QP from one state to another, which modify-QP attributes each
 * command can carry, and the command's input (QP context fields and
 * opt_param_mask) built from those attributes.  Pure: only type-level
 * headers; also built as C++ on the host (tools/testing/unit).
 *
 * Rules:
 *  - a transition the firmware has no command for (SQD, RC SQE) has
 *    opcode 0; an attribute the command cannot carry is not built;
 *  - RST2INIT carries its fields in the context itself; later commands
 *    carry an edge-optional field with its opt_param_mask bit (P_Key
 *    index, Q_Key, remote access, port, RNR timer);
 *  - RST2INIT always names port 1 (one port per function);
 *  - a hop limit below 2 is sent as MLXL_DEFAULT_HOP_LIMIT.
 */
#ifndef MLXL_QPC_H
#define MLXL_QPC_H

#include <linux/types.h>
#include <rdma/ib_qp_state.h>

#define MLXL_DEFAULT_HOP_LIMIT	64
#define MLXL_LOG_MSG_MAX	30

/* a RoCE address vector: a QP's primary path, an AH */
struct mlxl_av {
	u8 rgid[16];
	u8 rmac[6];
	u8 sgid_index;
	u8 hop_limit;
	u8 tclass;
	u8 sl;
	u8 stat_rate;
	u8 roce_v2;
	u32 flow_label;
};

/* the attributes of one modify request, as the firmware encodes them */
struct mlxl_qp_mod {
	u32 port;
	u32 pkey_index;
	u32 qkey;
	bool rre, rwe, rae;	/* remote read, write, atomic */
	u8 min_rnr_timer;
	u8 path_mtu;		/* enum ib_mtu: 1..5 as the firmware's */
	u8 max_dest_rd_atomic;
	u8 max_rd_atomic;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u32 dest_qpn;
	u32 rq_psn;
	u32 sq_psn;
	struct mlxl_av path;
};

/* the command of cur -> next for an RC (rc) or UD/GSI QP; 0: none */
u16 mlxl_qp_opcode(enum ib_qp_state cur, enum ib_qp_state next, bool rc);
/* the ib_qp_attr_mask bits opcode carries, besides the state bits */
u32 mlxl_qp_carries(u16 opcode, bool rc);
/*
 * Build the transition command opcode for QP qpn into in (zeroed here);
 * mask: the attributes of m to send (a subset of mlxl_qp_carries()).
 * Returns the input length.
 */
u32 mlxl_qp_modify_in(u8 *in, u16 opcode, u32 qpn, bool rc,
		      const struct mlxl_qp_mod *m, u32 mask);

#endif /* MLXL_QPC_H */
