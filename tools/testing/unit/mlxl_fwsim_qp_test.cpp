// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The firmware model's QP transition table through the real command path:
// the model's rows are exactly the legal edges listed in mlxl_obj_rig.h;
// each edge is taken from a QP brought to its source state; each (state,
// command) pair outside the list is refused with the state error; and for
// each edge each required field dropped, each allowed field and
// opt_param_mask bit set, each other field and bit set.  Also the RoCE
// values a transition carries.
#include "mlxl_obj_rig.h"

TEST_F(Qp, ModelTableIsTheExpectedEdgeSet)
{
	std::set<std::tuple<int, int, int, int>> want, have;

	for (const Edge &e : expected_edges())
		want.insert({ e.st, e.from, e.op, e.to });
	for (uint32_t i = 0; i < fwsim_nr_qp_edges; i++) {
		const fwsim_qp_edge &m = fwsim_qp_edges[i];

		EXPECT_TRUE(have.insert({ m.st, m.from, m.opcode, m.to }).second)
			<< "duplicate row " << i;
		EXPECT_EQ(m.req & m.opt, 0u) << "row " << i;
	}
	EXPECT_EQ(have, want);
}

// facts from the reference note's RoCE recipe: what each edge must carry
TEST_F(Qp, KeyRequirements)
{
	auto req = [&](uint8_t st, uint8_t from, uint16_t op) { return required(st, from, op); };
	uint32_t rc_rtr = req(MLXL_QPT_RC, MLXL_QPS_INIT, MLXL_OP_INIT2RTR_QP);

	for (int f : { FWSIM_QPF_MTU, FWSIM_QPF_REMOTE_QPN, FWSIM_QPF_RGID,
		       FWSIM_QPF_HOP_LIMIT, FWSIM_QPF_RMAC })
		EXPECT_TRUE(rc_rtr & (1u << f)) << fwsim_qpf[f].name;
	EXPECT_TRUE(req(MLXL_QPT_RC, MLXL_QPS_RST, MLXL_OP_RST2INIT_QP) &
		    (1u << FWSIM_QPF_PORT));
	for (uint8_t st : { MLXL_QPT_UD, MLXL_QPT_GSI }) {
		uint32_t m = req(st, MLXL_QPS_RST, MLXL_OP_RST2INIT_QP);

		EXPECT_TRUE(m & (1u << FWSIM_QPF_Q_KEY));
		EXPECT_TRUE(m & (1u << FWSIM_QPF_PORT));
	}
}

// every (state, command) pair outside the table: refused, state unchanged
TEST_F(Qp, IllegalPairsRefused)
{
	std::set<std::tuple<int, int, int>> legal;

	for (const Edge &e : expected_edges())
		legal.insert({ e.st, e.from, e.op });
	int checked = 0;
	for (uint8_t st : { MLXL_QPT_RC, MLXL_QPT_UD }) {
		for (uint8_t s : { MLXL_QPS_RST, MLXL_QPS_INIT, MLXL_QPS_RTR,
				   MLXL_QPS_RTS, MLXL_QPS_SQER, MLXL_QPS_ERR }) {
			if (st == MLXL_QPT_RC && s == MLXL_QPS_SQER)
				continue;
			for (uint16_t op : modify_ops) {
				if (legal.count({ st, s, op }))
					continue;
				SCOPED_TRACE(std::string(st_name(st)) + " " + state_name(s) +
					     " " + mlxl_cmd_name(op));
				uint32_t qpn = qp_in_state(st, s);
				EXPECT_TRUE(refused(modify(op, qpn, 0), MLXL_STAT_BAD_QP_STATE,
						    FWSIM_E_QP_STATE));
				EXPECT_EQ(qp_state(qpn), (unsigned)s);
				EXPECT_EQ(destroy(MLXL_OP_DESTROY_QP, qpn), 0);
				checked++;
			}
		}
	}
	EXPECT_EQ(checked, 5 * 8 - 15 + 6 * 8 - 18);
	// and RC has no SQER to be put in
	uint32_t qpn = qp_in_state(MLXL_QPT_RC, MLXL_QPS_RTS);
	EXPECT_EQ(fwsim_qp_set_state(r.fw.get(), qpn, FWSIM_QPS_SQER), -1);
}

TEST_F(Qp, RocePathValues)
{
	uint32_t qpn = qp_in_state(MLXL_QPT_RC, MLXL_QPS_INIT);
	uint32_t req = required(MLXL_QPT_RC, MLXL_QPS_INIT, MLXL_OP_INIT2RTR_QP);
	auto try_rtr = [&](void (*tweak)(uint8_t *)) {
		hdr(MLXL_OP_INIT2RTR_QP, MLXL_QP_MODIFY_IN_LEN);
		MLXL_SET(in(), MLXL_F_QPN, qpn);
		for (int f = 0; f < FWSIM_NR_QPF; f++)
			if (req & (1u << f))
				set_qpf(in(), f);
		tweak(in());
		return exec(MLXL_QP_MODIFY_IN_LEN);
	};
	// GID index 5 was never set; MTU 6 does not exist
	EXPECT_TRUE(refused(try_rtr([](uint8_t *b) {
		MLXL_SET(b, MLXL_F_ADS_SRC_ADDR_INDEX, 5); }), MLXL_STAT_BAD_PARAM,
		FWSIM_E_PARAM));
	EXPECT_TRUE(refused(try_rtr([](uint8_t *b) {
		MLXL_SET(b, MLXL_F_QPC_MTU, 6); }), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	EXPECT_EQ(qp_state(qpn), (unsigned)MLXL_QPS_INIT);
	EXPECT_EQ(try_rtr([](uint8_t *b) { MLXL_SET(b, MLXL_F_ADS_SRC_ADDR_INDEX, 1); }), 0);
	hdr(MLXL_OP_QUERY_QP);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_QP_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_STATE), (unsigned)MLXL_QPS_RTR);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_REMOTE_QPN), 0x123u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ADS_SRC_ADDR_INDEX), 1u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_ADS_RMAC_47_32), 0x0200u);
	EXPECT_EQ(out()[MLXL_ADS_RGID_RIP], 0xfe);
	// back to reset: the transition fields are gone
	EXPECT_EQ(modify(MLXL_OP_2RST_QP, qpn, 0), 0);
	hdr(MLXL_OP_QUERY_QP);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	ASSERT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_QP_OUT_LEN), 0);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_STATE), (unsigned)MLXL_QPS_RST);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_REMOTE_QPN), 0u);
	EXPECT_EQ(MLXL_GET(out(), MLXL_F_QPC_PD), pd);	// create fields stay
}

TEST_F(Qp, PortAndRoceEnable)
{
	uint32_t qpn = create_qp(MLXL_QPT_RC, pd, cq, cq);

	hdr(MLXL_OP_RST2INIT_QP, MLXL_QP_MODIFY_IN_LEN);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	MLXL_SET(in(), MLXL_F_ADS_VHCA_PORT_NUM, 2);
	EXPECT_TRUE(refused(exec(MLXL_QP_MODIFY_IN_LEN), MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
	// create-time fields are not transition fields
	hdr(MLXL_OP_RST2INIT_QP, MLXL_QP_MODIFY_IN_LEN);
	MLXL_SET(in(), MLXL_F_QPN, qpn);
	MLXL_SET(in(), MLXL_F_ADS_VHCA_PORT_NUM, 1);
	MLXL_SET(in(), MLXL_F_QPC_PD, pd);
	EXPECT_TRUE(refused(exec(MLXL_QP_MODIFY_IN_LEN), MLXL_STAT_BAD_PARAM,
			    FWSIM_E_RESERVED));
	// the port must have RoCE on: turn it off with no QP alive
	EXPECT_EQ(destroy(MLXL_OP_DESTROY_QP, qpn), 0);
	ASSERT_EQ(vport_modify(MLXL_VPORT_SEL_ROCE_EN, false), 0);
	qpn = create_qp(MLXL_QPT_RC, pd, cq, cq);
	EXPECT_TRUE(refused(modify(MLXL_OP_RST2INIT_QP, qpn, 1u << FWSIM_QPF_PORT),
			    MLXL_STAT_BAD_PARAM, FWSIM_E_PARAM));
}

// ---- each legal edge, parameterized
class QpEdge : public Qp, public ::testing::WithParamInterface<Edge> {
public:
	const fwsim_qp_edge *m = nullptr;
	uint32_t qpn = 0;

	void SetUp() override
	{
		Qp::SetUp();
		m = model_edge(GetParam());
		ASSERT_NE(m, nullptr) << "the model has no row for this edge";
	}

	uint32_t fresh()
	{
		if (qpn) {
			EXPECT_EQ(destroy(MLXL_OP_DESTROY_QP, qpn), 0);
		}
		qpn = qp_in_state(GetParam().st, GetParam().from);
		return qpn;
	}

	// positive control first, so that no case is vacuous
	void accepted_with_required()
	{
		const Edge &e = GetParam();

		fresh();
		EXPECT_EQ(modify(e.op, qpn, m->req), 0) << fwsim_err_str(r.fw->last_err);
		EXPECT_EQ(qp_state(qpn), (unsigned)e.to);
	}

	// the fields an opt_param_mask bit carries
	static uint32_t carried(uint32_t bit)
	{
		uint32_t f, v = 0;

		for (f = 0; f < FWSIM_NR_QPF; f++)
			if (fwsim_qpf[f].opt == bit)
				v |= 1u << f;
		return v;
	}
};

TEST_P(QpEdge, AcceptedWithTheRequiredFields)
{
	const Edge &e = GetParam();

	accepted_with_required();
	// the model's pure check agrees
	const fwsim_qp_edge *edge;
	uint32_t bad;
	hdr(e.op, MLXL_QP_MODIFY_IN_LEN);
	for (int f = 0; f < FWSIM_NR_QPF; f++)
		if (m->req & (1u << f))
			set_qpf(in(), f);
	EXPECT_EQ(fwsim_qp_edge_check(e.from, e.op, e.st, in(), MLXL_QP_MODIFY_IN_LEN,
				      &edge, &bad), FWSIM_E_NONE);
	EXPECT_EQ(edge, m);
}

TEST_P(QpEdge, EachRequiredFieldDropped)
{
	const Edge &e = GetParam();

	accepted_with_required();

	for (int f = 0; f < FWSIM_NR_QPF; f++) {
		if (!(m->req & (1u << f)))
			continue;
		SCOPED_TRACE(fwsim_qpf[f].name);
		fresh();
		EXPECT_TRUE(refused(modify(e.op, qpn, m->req & ~(1u << f)),
				    MLXL_STAT_BAD_PARAM, FWSIM_E_QP_FIELD));
		EXPECT_EQ(qp_state(qpn), (unsigned)e.from);
	}
}

TEST_P(QpEdge, EachOptionalFieldAccepted)
{
	const Edge &e = GetParam();

	accepted_with_required();

	for (int f = 0; f < FWSIM_NR_QPF; f++) {
		if (!(m->opt & (1u << f)))
			continue;
		SCOPED_TRACE(fwsim_qpf[f].name);
		fresh();
		EXPECT_EQ(modify(e.op, qpn, m->req | (1u << f)), 0)
			<< fwsim_err_str(r.fw->last_err);
		EXPECT_EQ(qp_state(qpn), (unsigned)e.to);
	}
	// each opt_param_mask bit with the fields it carries
	for (uint32_t b = 0; b < 32; b++) {
		if (!(m->optpar & (1u << b)))
			continue;
		SCOPED_TRACE("opt_param_mask bit " + std::to_string(b));
		EXPECT_NE(carried(1u << b), 0u);
		fresh();
		EXPECT_EQ(modify(e.op, qpn, m->req | carried(1u << b), 1u << b), 0)
			<< fwsim_err_str(r.fw->last_err);
		EXPECT_EQ(qp_state(qpn), (unsigned)e.to);
	}
}

TEST_P(QpEdge, FieldsNotOnTheEdgeRefused)
{
	const Edge &e = GetParam();

	accepted_with_required();
	uint32_t allowed = m->req | m->opt;

	if (!has_qpc(e.op)) {
		// qpn only: a qpc after it is reserved
		fresh();
		hdr(e.op, MLXL_QP_MODIFY_IN_LEN);
		MLXL_SET(in(), MLXL_F_QPN, qpn);
		set_qpf(in(), FWSIM_QPF_Q_KEY);
		EXPECT_TRUE(refused(exec(MLXL_QP_MODIFY_IN_LEN), MLXL_STAT_BAD_PARAM,
				    FWSIM_E_RESERVED));
		return;
	}
	for (int f = 0; f < FWSIM_NR_QPF; f++) {
		if (allowed & (1u << f))
			continue;
		SCOPED_TRACE(fwsim_qpf[f].name);
		fresh();
		EXPECT_TRUE(refused(modify(e.op, qpn, m->req | (1u << f)),
				    MLXL_STAT_BAD_PARAM, FWSIM_E_QP_FIELD));
		EXPECT_EQ(qp_state(qpn), (unsigned)e.from);
	}
	// every opt_param_mask bit the edge does not take, with its fields
	for (uint32_t b = 0; b < 32; b++) {
		if (m->optpar & (1u << b))
			continue;
		SCOPED_TRACE("opt_param_mask bit " + std::to_string(b));
		fresh();
		EXPECT_TRUE(refused(modify(e.op, qpn, m->req | carried(1u << b), 1u << b),
				    MLXL_STAT_BAD_PARAM, FWSIM_E_QP_FIELD));
	}
}

static std::string edge_name(const ::testing::TestParamInfo<Edge> &i)
{
	std::string op = mlxl_cmd_name(i.param.op);

	if (op[0] == '2')
		op = "To" + op.substr(1);
	return std::string(st_name(i.param.st)) + "_" + state_name(i.param.from) + "_" + op;
}

INSTANTIATE_TEST_SUITE_P(Table, QpEdge, ::testing::ValuesIn(expected_edges()), edge_name);
