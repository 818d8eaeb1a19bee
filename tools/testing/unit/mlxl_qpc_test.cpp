// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The driver's QP transitions (mlxl_qpc.c) against ib_core's QP state
// table (qp_state.c), the firmware model's transition table
// (fwsim_qp_edge_check) and the expected edge set (mlxl_obj_rig.h): for
// every (from, to) pair of IB states and each QP type, the driver takes
// the transition exactly when the expected table has it, every attribute
// ib_core requires on it is one the command carries, and the command the
// driver builds from those attributes is accepted by the model.
#include "mlxl_obj_rig.h"

#include <rdma/ib_qp_state.h>
#include "mlxl_qpc.h"

namespace {

// the firmware's state of an IB state; -1 for SQD (the firmware has none)
int fw_state(int s)
{
	switch (s) {
	case IB_QPS_RESET: return MLXL_QPS_RST;
	case IB_QPS_INIT: return MLXL_QPS_INIT;
	case IB_QPS_RTR: return MLXL_QPS_RTR;
	case IB_QPS_RTS: return MLXL_QPS_RTS;
	case IB_QPS_SQE: return MLXL_QPS_SQER;
	case IB_QPS_ERR: return MLXL_QPS_ERR;
	default: return -1;
	}
}

bool spec_has(uint8_t st, int from, int to)
{
	for (const Edge &e : expected_edges())
		if (e.st == st && e.from == from && e.to == to)
			return true;
	return false;
}

mlxl_qp_mod full_mod()
{
	mlxl_qp_mod m = {};

	m.port = 1;
	m.pkey_index = 0;
	m.qkey = 0x11111111;
	m.rre = m.rwe = m.rae = true;
	m.min_rnr_timer = 12;
	m.path_mtu = 3;
	m.max_dest_rd_atomic = 4;
	m.max_rd_atomic = 4;
	m.timeout = 14;
	m.retry_cnt = 7;
	m.rnr_retry = 6;
	m.dest_qpn = 0x45;
	m.rq_psn = 0x123;
	m.sq_psn = 0x456;
	for (int i = 0; i < 16; i++)
		m.path.rgid[i] = (uint8_t)(i + 1);
	for (int i = 0; i < 6; i++)
		m.path.rmac[i] = (uint8_t)(0x10 + i);
	m.path.sgid_index = 1;
	m.path.hop_limit = 64;
	m.path.tclass = 0x68;
	m.path.sl = 3;
	m.path.flow_label = 0x1234;
	m.path.roce_v2 = 1;
	return m;
}

struct QpType {
	uint8_t st;
	ib_qp_type type;
};

const QpType types[] = {
	{ MLXL_QPT_RC, IB_QPT_RC }, { MLXL_QPT_UD, IB_QPT_UD },
	{ MLXL_QPT_GSI, IB_QPT_GSI },
};

} // namespace

TEST(MlxlQpc, EveryEdgeAgreesWithCoreModelAndSpec)
{
	static uint8_t in[MLXL_QP_MODIFY_IN_LEN];
	const mlxl_qp_mod m = full_mod();
	unsigned int taken[3] = {};

	for (unsigned int t = 0; t < 3; t++) {
		const QpType &q = types[t];
		bool rc = q.st == MLXL_QPT_RC;

		for (int cur = IB_QPS_RESET; cur <= IB_QPS_ERR; cur++) {
			for (int next = IB_QPS_RESET; next <= IB_QPS_ERR; next++) {
				int fc = fw_state(cur), fn = fw_state(next);
				bool spec = fc >= 0 && fn >= 0 && spec_has(q.st, fc, fn);
				// ib_core's table has no RESET -> ERR: the model's
				// 2ERR from RST is never asked for
				bool core_lacks = cur == IB_QPS_RESET && next == IB_QPS_ERR;
				uint32_t req = 0, opt = 0;
				bool core = ib_qp_transition_attrs((ib_qp_state)cur,
								   (ib_qp_state)next,
								   q.type, &req, &opt);
				uint16_t op = mlxl_qp_opcode((ib_qp_state)cur,
							     (ib_qp_state)next, rc);
				bool driver = core && op;
				std::string at = std::string(st_name(q.st)) + " " +
						 std::to_string(cur) + "->" +
						 std::to_string(next);

				if (core_lacks) {
					EXPECT_FALSE(core) << at << ": drop the exception";
				}
				EXPECT_EQ(driver, spec && !core_lacks) << at;
				if (!driver)
					continue;
				taken[t]++;
				EXPECT_TRUE(ib_modify_qp_is_ok((ib_qp_state)cur,
							       (ib_qp_state)next, q.type,
							       (ib_qp_attr_mask)(IB_QP_STATE | req)))
					<< at;
				EXPECT_EQ(req & ~mlxl_qp_carries(op, rc), 0u)
					<< at << ": required attributes the command cannot carry";

				const fwsim_qp_edge *e = nullptr;
				uint32_t bad = 0, len;

				len = mlxl_qp_modify_in(in, op, 0x40, rc, &m,
							IB_QP_STATE | req);
				EXPECT_EQ(fwsim_qp_edge_check((uint8_t)fc, op, q.st, in,
							      len, &e, &bad),
					  FWSIM_E_NONE) << at << " bad field " << bad;
				ASSERT_NE(e, nullptr) << at;
				EXPECT_EQ(e->to, fn) << at;

				// and with every attribute the command carries
				len = mlxl_qp_modify_in(in, op, 0x40, rc, &m,
							mlxl_qp_carries(op, rc));
				EXPECT_EQ(fwsim_qp_edge_check((uint8_t)fc, op, q.st, in,
							      len, &e, &bad),
					  FWSIM_E_NONE) << at << " (all carried) bad field " << bad;
			}
		}
	}
	EXPECT_EQ(taken[0], 14u);	// RC: 15 edges but RST -> ERR
	EXPECT_EQ(taken[1], 17u);	// UD: 18 edges but RST -> ERR
	EXPECT_EQ(taken[2], 17u);	// GSI
}

TEST(MlxlQpc, FirstTransitionCarriesFieldsWithoutMaskBits)
{
	static uint8_t in[MLXL_QP_MODIFY_IN_LEN];
	const mlxl_qp_mod m = full_mod();

	mlxl_qp_modify_in(in, MLXL_OP_RST2INIT_QP, 0x41, false, &m,
			  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QP_OPT_PARAM_MASK), 0u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QPC_Q_KEY), 0x11111111u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_VHCA_PORT_NUM), 1u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QPN), 0x41u);

	mlxl_qp_modify_in(in, MLXL_OP_RTS2RTS_QP, 0x41, false, &m, IB_QP_QKEY);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QP_OPT_PARAM_MASK), (uint32_t)MLXL_QP_OPT_Q_KEY);
}

TEST(MlxlQpc, PathFieldsAndHopLimit)
{
	static uint8_t in[MLXL_QP_MODIFY_IN_LEN];
	mlxl_qp_mod m = full_mod();

	m.path.hop_limit = 1;
	mlxl_qp_modify_in(in, MLXL_OP_INIT2RTR_QP, 0x42, true, &m,
			  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			  IB_QP_MAX_DEST_RD_ATOMIC);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_HOP_LIMIT), (uint32_t)MLXL_DEFAULT_HOP_LIMIT);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_TCLASS), 0x68u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_DSCP), 0x68u >> 2);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_SL), 3u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_RMAC_47_32), 0x1011u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_ADS_RMAC_31_0), 0x12131415u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QPC_LOG_RRA_MAX), 2u);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QPC_REMOTE_QPN), 0x45u);
	EXPECT_EQ(in[MLXL_ADS_RGID_RIP], 1);
	EXPECT_EQ(MLXL_GET(in, MLXL_F_QP_OPT_PARAM_MASK), 0u);
}

TEST(MlxlQpc, NoCommandForSqdOrRcSqe)
{
	for (int s = IB_QPS_RESET; s <= IB_QPS_ERR; s++) {
		EXPECT_EQ(mlxl_qp_opcode((ib_qp_state)s, IB_QPS_SQD, true), 0);
		EXPECT_EQ(mlxl_qp_opcode((ib_qp_state)s, IB_QPS_SQD, false), 0);
		EXPECT_EQ(mlxl_qp_opcode(IB_QPS_SQD, (ib_qp_state)s, false), 0);
		EXPECT_EQ(mlxl_qp_opcode((ib_qp_state)s, IB_QPS_SQE, true), 0);
	}
	EXPECT_EQ(mlxl_qp_opcode(IB_QPS_SQE, IB_QPS_RTS, true), 0);
	EXPECT_EQ(mlxl_qp_opcode(IB_QPS_SQE, IB_QPS_RTS, false),
		  (uint16_t)MLXL_OP_SQERR2RTS_QP);
}
