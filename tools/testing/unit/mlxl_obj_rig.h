// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host rig for the tests of the firmware model's object plane: a booted
// device (class Obj) with helpers that build each object command with the
// driver's layouts, and a RoCE port with a PD and a CQ (class Qp) with
// helpers that bring a QP to any state.  The legal QP transitions are
// listed here from the reference note (mlx-lite.md §4.4 and the IB QP
// state machine), not read from the model.
#ifndef MLXL_OBJ_RIG_H
#define MLXL_OBJ_RIG_H

#include <gtest/gtest.h>

#include <cerrno>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "mlxl_rig.h"

const uint16_t modify_ops[] = {
	MLXL_OP_RST2INIT_QP, MLXL_OP_INIT2INIT_QP, MLXL_OP_INIT2RTR_QP,
	MLXL_OP_RTR2RTS_QP, MLXL_OP_RTS2RTS_QP, MLXL_OP_SQERR2RTS_QP,
	MLXL_OP_2ERR_QP, MLXL_OP_2RST_QP,
};

inline bool has_qpc(uint16_t op)
{
	return op != MLXL_OP_2ERR_QP && op != MLXL_OP_2RST_QP;
}

inline const char *state_name(unsigned int s)
{
	switch (s) {
	case MLXL_QPS_RST: return "RST";
	case MLXL_QPS_INIT: return "INIT";
	case MLXL_QPS_RTR: return "RTR";
	case MLXL_QPS_RTS: return "RTS";
	case MLXL_QPS_SQER: return "SQER";
	case MLXL_QPS_ERR: return "ERR";
	default: return "?";
	}
}

inline const char *st_name(unsigned int st)
{
	return st == MLXL_QPT_RC ? "RC" : st == MLXL_QPT_UD ? "UD" : "GSI";
}

// The legal transitions, from the reference note (mlx-lite.md §4.4 and the
// IB QP state machine): RC has no SQER; every state goes to ERR and RST.
struct Edge {
	uint8_t st, from;
	uint16_t op;
	uint8_t to;
};

inline std::vector<Edge> expected_edges()
{
	std::vector<Edge> v;

	for (uint8_t st : { MLXL_QPT_RC, MLXL_QPT_UD, MLXL_QPT_GSI }) {
		bool rc = st == MLXL_QPT_RC;

		v.push_back({ st, MLXL_QPS_RST, MLXL_OP_RST2INIT_QP, MLXL_QPS_INIT });
		v.push_back({ st, MLXL_QPS_INIT, MLXL_OP_INIT2INIT_QP, MLXL_QPS_INIT });
		v.push_back({ st, MLXL_QPS_INIT, MLXL_OP_INIT2RTR_QP, MLXL_QPS_RTR });
		v.push_back({ st, MLXL_QPS_RTR, MLXL_OP_RTR2RTS_QP, MLXL_QPS_RTS });
		v.push_back({ st, MLXL_QPS_RTS, MLXL_OP_RTS2RTS_QP, MLXL_QPS_RTS });
		if (!rc)
			v.push_back({ st, MLXL_QPS_SQER, MLXL_OP_SQERR2RTS_QP, MLXL_QPS_RTS });
		for (uint8_t s : { MLXL_QPS_RST, MLXL_QPS_INIT, MLXL_QPS_RTR,
				   MLXL_QPS_RTS, MLXL_QPS_SQER, MLXL_QPS_ERR }) {
			if (rc && s == MLXL_QPS_SQER)
				continue;
			v.push_back({ st, s, MLXL_OP_2ERR_QP, MLXL_QPS_ERR });
			v.push_back({ st, s, MLXL_OP_2RST_QP, MLXL_QPS_RST });
		}
	}
	return v;
}

inline const fwsim_qp_edge *model_edge(const Edge &e)
{
	for (uint32_t i = 0; i < fwsim_nr_qp_edges; i++) {
		const fwsim_qp_edge *m = &fwsim_qp_edges[i];

		if (m->st == e.st && m->from == e.from && m->opcode == e.op)
			return m;
	}
	return nullptr;
}

// A valid nonzero value for each transition field, written with the
// driver's layout (so the model's field table is checked against it too).
// GID index 1 is set up by the fixture.
inline void set_qpf(uint8_t *in, int f)
{
	switch (f) {
	case FWSIM_QPF_MTU: MLXL_SET(in, MLXL_F_QPC_MTU, 3); break;
	case FWSIM_QPF_LOG_MSG_MAX: MLXL_SET(in, MLXL_F_QPC_LOG_MSG_MAX, 30); break;
	case FWSIM_QPF_REMOTE_QPN: MLXL_SET(in, MLXL_F_QPC_REMOTE_QPN, 0x123); break;
	case FWSIM_QPF_PKEY_INDEX: MLXL_SET(in, MLXL_F_ADS_PKEY_INDEX, 1); break;
	case FWSIM_QPF_ACK_TIMEOUT: MLXL_SET(in, MLXL_F_ADS_ACK_TIMEOUT, 14); break;
	case FWSIM_QPF_SRC_ADDR_INDEX: MLXL_SET(in, MLXL_F_ADS_SRC_ADDR_INDEX, 1); break;
	case FWSIM_QPF_STAT_RATE: MLXL_SET(in, MLXL_F_ADS_STAT_RATE, 7); break;
	case FWSIM_QPF_HOP_LIMIT: MLXL_SET(in, MLXL_F_ADS_HOP_LIMIT, 64); break;
	case FWSIM_QPF_TCLASS: MLXL_SET(in, MLXL_F_ADS_TCLASS, 0x28); break;
	case FWSIM_QPF_FLOW_LABEL: MLXL_SET(in, MLXL_F_ADS_FLOW_LABEL, 0x12345); break;
	case FWSIM_QPF_RGID:
		in[MLXL_ADS_RGID_RIP] = 0xfe;
		in[MLXL_ADS_RGID_RIP + 1] = 0x80;
		in[MLXL_ADS_RGID_RIP + 15] = 0x02;
		break;
	case FWSIM_QPF_ECN: MLXL_SET(in, MLXL_F_ADS_ECN, 1); break;
	case FWSIM_QPF_DSCP: MLXL_SET(in, MLXL_F_ADS_DSCP, 10); break;
	case FWSIM_QPF_UDP_SPORT: MLXL_SET(in, MLXL_F_ADS_UDP_SPORT, 0xc001); break;
	case FWSIM_QPF_ETH_PRIO: MLXL_SET(in, MLXL_F_ADS_ETH_PRIO, 3); break;
	case FWSIM_QPF_SL: MLXL_SET(in, MLXL_F_ADS_SL, 3); break;
	case FWSIM_QPF_PORT: MLXL_SET(in, MLXL_F_ADS_VHCA_PORT_NUM, 1); break;
	case FWSIM_QPF_RMAC:
		MLXL_SET(in, MLXL_F_ADS_RMAC_47_32, 0x0200);
		MLXL_SET(in, MLXL_F_ADS_RMAC_31_0, 0x00000001);
		break;
	case FWSIM_QPF_LOG_SRA_MAX: MLXL_SET(in, MLXL_F_QPC_LOG_SRA_MAX, 3); break;
	case FWSIM_QPF_RETRY_COUNT: MLXL_SET(in, MLXL_F_QPC_RETRY_COUNT, 7); break;
	case FWSIM_QPF_RNR_RETRY: MLXL_SET(in, MLXL_F_QPC_RNR_RETRY, 7); break;
	case FWSIM_QPF_NEXT_SEND_PSN: MLXL_SET(in, MLXL_F_QPC_NEXT_SEND_PSN, 0x100); break;
	case FWSIM_QPF_LOG_RRA_MAX: MLXL_SET(in, MLXL_F_QPC_LOG_RRA_MAX, 3); break;
	case FWSIM_QPF_RRE: MLXL_SET(in, MLXL_F_QPC_RRE, 1); break;
	case FWSIM_QPF_RWE: MLXL_SET(in, MLXL_F_QPC_RWE, 1); break;
	case FWSIM_QPF_RAE: MLXL_SET(in, MLXL_F_QPC_RAE, 1); break;
	case FWSIM_QPF_MIN_RNR_NAK: MLXL_SET(in, MLXL_F_QPC_MIN_RNR_NAK, 12); break;
	case FWSIM_QPF_NEXT_RCV_PSN: MLXL_SET(in, MLXL_F_QPC_NEXT_RCV_PSN, 0x200); break;
	case FWSIM_QPF_Q_KEY: MLXL_SET(in, MLXL_F_QPC_Q_KEY, 0x11111111); break;
	default: ADD_FAILURE() << "no value for field " << f;
	}
}


class Obj : public ::testing::Test {
public:
	Rig r;
	fwsim_profile prof = FWSIM_CX5;

	explicit Obj(fwsim_profile p = FWSIM_CX5) : r(p), prof(p) {}

	void SetUp() override
	{
		ASSERT_EQ(mlxl_boot(r.dev.get()), 0);
		ASSERT_EQ(r.fw->nr_errs, 0u);
	}

	uint8_t *in() { return r.dev->in; }
	uint8_t *out() { return r.dev->out; }

	void hdr(uint16_t op, uint32_t in_len = MLXL_HDR_LEN, uint16_t op_mod = 0)
	{
		mlxl_cmd_hdr(in(), in_len, op, op_mod);
	}

	int exec(uint32_t in_len, uint32_t out_len = MLXL_HDR_LEN)
	{
		return mlxl_cmd_exec(r.dev.get(), in(), in_len, out(), out_len);
	}

	// the command failed with this status and this recorded refusal
	::testing::AssertionResult refused(int rc, unsigned int status, fwsim_err e)
	{
		if (rc == 0)
			return ::testing::AssertionFailure() << "accepted";
		if (r.dev->err_status != status)
			return ::testing::AssertionFailure()
			       << "status 0x" << std::hex << (unsigned)r.dev->err_status
			       << " model: " << fwsim_err_str(r.fw->last_err);
		if (r.dev->err_syndrome != FWSIM_SYND(e))
			return ::testing::AssertionFailure()
			       << "model: " << fwsim_err_str(r.fw->last_err)
			       << ", wanted " << fwsim_err_str(e);
		return ::testing::AssertionSuccess();
	}

	uint64_t dma(uint32_t size, uint32_t align = 4096)
	{
		mlxl_dma d{};

		EXPECT_EQ(r.alloc(&d, size, align), 0);
		return d.bus;
	}

	// ---- simple objects
	uint32_t alloc_pd()
	{
		hdr(MLXL_OP_ALLOC_PD);
		EXPECT_EQ(exec(MLXL_HDR_LEN), 0) << fwsim_err_str(r.fw->last_err);
		return MLXL_GET(out(), MLXL_F_PD);
	}

	int dealloc_pd(uint32_t pd)
	{
		hdr(MLXL_OP_DEALLOC_PD);
		MLXL_SET(in(), MLXL_F_PD, pd);
		return exec(MLXL_HDR_LEN);
	}

	uint32_t alloc_td()
	{
		hdr(MLXL_OP_ALLOC_TRANSPORT_DOMAIN);
		EXPECT_EQ(exec(MLXL_HDR_LEN), 0);
		return MLXL_GET(out(), MLXL_F_TRANSPORT_DOMAIN);
	}

	int dealloc_td(uint32_t td)
	{
		hdr(MLXL_OP_DEALLOC_TRANSPORT_DOMAIN);
		MLXL_SET(in(), MLXL_F_TRANSPORT_DOMAIN, td);
		return exec(MLXL_HDR_LEN);
	}

	int destroy(uint16_t op, uint32_t num)
	{
		hdr(op);
		MLXL_SET(in(), MLXL_F_CQN, num);	// 0x08[23:0] for every object
		return exec(MLXL_HDR_LEN);
	}

	// ---- MKey
	void mkey_pa(uint32_t pd, bool len64, uint64_t start = 0, uint64_t len = 0)
	{
		hdr(MLXL_OP_CREATE_MKEY, MLXL_CREATE_MKEY_MTT);
		MLXL_SET(in(), MLXL_F_MKC_LW, 1);
		MLXL_SET(in(), MLXL_F_MKC_LR, 1);
		MLXL_SET(in(), MLXL_F_MKC_RR, 1);
		MLXL_SET(in(), MLXL_F_MKC_RW, 1);
		MLXL_SET(in(), MLXL_F_MKC_A, 1);
		MLXL_SET(in(), MLXL_F_MKC_ACCESS_MODE_1_0, MLXL_MKC_ACCESS_PA);
		MLXL_SET(in(), MLXL_F_MKC_QPN, MLXL_MKC_QPN_NONE);
		MLXL_SET(in(), MLXL_F_MKC_MKEY_7_0, 0x5a);
		MLXL_SET(in(), MLXL_F_MKC_LENGTH64, len64);
		MLXL_SET(in(), MLXL_F_MKC_PD, pd);
		mlxl_set64(in(), MLXL_MKC_START_ADDR, start);
		mlxl_set64(in(), MLXL_MKC_LEN, len);
	}

	// MTT MKey over n pages of fresh memory at iova; returns the input length
	uint32_t mkey_mtt(uint32_t pd, uint32_t n, uint64_t iova = 0x10000,
			  std::vector<uint64_t> *pages = nullptr)
	{
		uint32_t oct = (n + 1) / 2;
		uint32_t len = MLXL_CREATE_MKEY_MTT + 16 * oct;

		hdr(MLXL_OP_CREATE_MKEY, len);
		MLXL_SET(in(), MLXL_F_MKC_LW, 1);
		MLXL_SET(in(), MLXL_F_MKC_LR, 1);
		MLXL_SET(in(), MLXL_F_MKC_ACCESS_MODE_1_0, MLXL_MKC_ACCESS_MTT);
		MLXL_SET(in(), MLXL_F_MKC_QPN, MLXL_MKC_QPN_NONE);
		MLXL_SET(in(), MLXL_F_MKC_PD, pd);
		mlxl_set64(in(), MLXL_MKC_START_ADDR, iova);
		mlxl_set64(in(), MLXL_MKC_LEN, 4096ull * n);
		MLXL_SET(in(), MLXL_F_MKC_XLT_OCTWORD_SIZE, oct);
		MLXL_SET(in(), MLXL_F_CREATE_MKEY_XLT_ACTUAL, oct);
		MLXL_SET(in(), MLXL_F_MKC_LOG_PAGE_SIZE, 12);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t p = dma(4096);

			if (pages)
				pages->push_back(p);
			mlxl_set64(in(), MLXL_CREATE_MKEY_MTT + 8 * i,
				   p | MLXL_MTT_READ | MLXL_MTT_WRITE);
		}
		return len;
	}

	// ---- CQ: 64-byte CQEs, 2^log_size of them, 4 KiB pages
	uint32_t cq_in(uint32_t eqn, uint32_t log_size = 6)
	{
		uint32_t bytes = 64u << log_size;
		uint32_t npas = (bytes + 4095) / 4096;
		uint32_t len = MLXL_CREATE_CQ_PAS + 8 * npas;
		uint64_t buf = dma(npas * 4096);

		hdr(MLXL_OP_CREATE_CQ, len);
		MLXL_SET(in(), MLXL_F_CQC_LOG_SIZE, log_size);
		MLXL_SET(in(), MLXL_F_CQC_UAR_PAGE, r.dev->uar);
		MLXL_SET(in(), MLXL_F_CQC_C_EQN, eqn);
		mlxl_set64(in(), MLXL_CQC_DBR_ADDR, dma(64, 64));
		for (uint32_t i = 0; i < npas; i++)
			mlxl_set64(in(), MLXL_CREATE_CQ_PAS + 8 * i, buf + 4096ull * i);
		return len;
	}

	uint32_t create_cq()
	{
		uint32_t len = cq_in(r.dev->eqn);

		EXPECT_EQ(exec(len), 0) << fwsim_err_str(r.fw->last_err);
		return MLXL_GET(out(), MLXL_F_CQN);
	}

	// ---- SRQ: 64 WQEs of 64 bytes
	uint32_t srq_in(uint32_t pd, uint32_t cqn)
	{
		uint32_t len = MLXL_CREATE_SRQ_PAS + 8;

		hdr(MLXL_OP_CREATE_SRQ, len);
		MLXL_SET(in(), MLXL_F_SRQC_LOG_SIZE, 6);
		MLXL_SET(in(), MLXL_F_SRQC_LOG_RQ_STRIDE, 2);
		MLXL_SET(in(), MLXL_F_SRQC_RLKY, 1);
		MLXL_SET(in(), MLXL_F_SRQC_CQN, cqn);
		MLXL_SET(in(), MLXL_F_SRQC_PD, pd);
		mlxl_set64(in(), MLXL_SRQC_DBR_ADDR, dma(64, 64));
		mlxl_set64(in(), MLXL_CREATE_SRQ_PAS, dma(4096));
		return len;
	}

	uint32_t create_srq(uint32_t pd, uint32_t cqn)
	{
		uint32_t len = srq_in(pd, cqn);

		EXPECT_EQ(exec(len), 0) << fwsim_err_str(r.fw->last_err);
		return MLXL_GET(out(), MLXL_F_SRQN);
	}

	// ---- QP: 64 RQ WQEs of 64 bytes + 64 SQ WQEBBs = 8 KiB, two pages
	uint32_t qp_in(uint8_t st, uint32_t pd, uint32_t scq, uint32_t rcq,
		       uint32_t srqn = 0)
	{
		uint32_t len = MLXL_CREATE_QP_PAS + 16;
		uint64_t buf = dma(8192);

		hdr(MLXL_OP_CREATE_QP, len);
		MLXL_SET(in(), MLXL_F_QPC_ST, st);
		MLXL_SET(in(), MLXL_F_QPC_PM_STATE, MLXL_QP_PM_MIGRATED);
		MLXL_SET(in(), MLXL_F_QPC_PD, pd);
		if (srqn) {
			MLXL_SET(in(), MLXL_F_QPC_RQ_TYPE, MLXL_RQ_SRQ);
			MLXL_SET(in(), MLXL_F_QPC_SRQN, srqn);
		} else {
			MLXL_SET(in(), MLXL_F_QPC_LOG_RQ_SIZE, 6);
			MLXL_SET(in(), MLXL_F_QPC_LOG_RQ_STRIDE, 2);
		}
		MLXL_SET(in(), MLXL_F_QPC_LOG_SQ_SIZE, 6);
		MLXL_SET(in(), MLXL_F_QPC_TS_FORMAT,
			 MLXL_GET(r.dev->roce_cap, MLXL_RC_QP_TS_FORMAT) ? 1 : 0);
		MLXL_SET(in(), MLXL_F_QPC_RLKY, 1);
		MLXL_SET(in(), MLXL_F_QPC_FRE, 1);
		MLXL_SET(in(), MLXL_F_QPC_UAR_PAGE, r.dev->uar);
		MLXL_SET(in(), MLXL_F_QPC_CQN_SND, scq);
		MLXL_SET(in(), MLXL_F_QPC_CQN_RCV, rcq);
		mlxl_set64(in(), MLXL_QPC_DBR_ADDR, dma(64, 64));
		mlxl_set64(in(), MLXL_CREATE_QP_PAS, buf);
		mlxl_set64(in(), MLXL_CREATE_QP_PAS + 8, buf + 4096);
		return len;
	}

	uint32_t create_qp(uint8_t st, uint32_t pd, uint32_t scq, uint32_t rcq,
			   uint32_t srqn = 0)
	{
		uint32_t len = qp_in(st, pd, scq, rcq, srqn);

		EXPECT_EQ(exec(len), 0) << fwsim_err_str(r.fw->last_err);
		return MLXL_GET(out(), MLXL_F_QPN);
	}

	unsigned int qp_state(uint32_t qpn)
	{
		hdr(MLXL_OP_QUERY_QP);
		MLXL_SET(in(), MLXL_F_QPN, qpn);
		EXPECT_EQ(exec(MLXL_HDR_LEN, MLXL_QUERY_QP_OUT_LEN), 0);
		return MLXL_GET(out(), MLXL_F_QPC_STATE);
	}

	// ---- port
	int vport_modify(uint32_t select, bool roce_en, uint32_t mtu = 0)
	{
		hdr(MLXL_OP_MODIFY_NIC_VPORT_CONTEXT, MLXL_MODIFY_NIC_VPORT_IN_LEN);
		MLXL_SET(in(), MLXL_F_MODIFY_VPORT_SELECT, select);
		MLXL_SET(in(), MLXL_F_NVM_ROCE_EN, roce_en);
		MLXL_SET(in(), MLXL_F_NVM_MTU, mtu);
		return exec(MLXL_MODIFY_NIC_VPORT_IN_LEN);
	}

	// RoCEv2 GID ::ffff:10.0.0.<index> (IPv4) or fe80::<index> (IPv6)
	void gid_in(uint32_t index, bool ipv4, uint32_t version = MLXL_ROCE_V2)
	{
		hdr(MLXL_OP_SET_ROCE_ADDRESS, MLXL_SET_ROCE_ADDRESS_IN_LEN);
		MLXL_SET(in(), MLXL_F_ROCE_ADDR_INDEX, index);
		uint8_t *g = in() + MLXL_ROCE_ADDR_GID;
		if (ipv4) {
			g[10] = g[11] = 0xff;
			g[12] = 10;
			g[15] = (uint8_t)index;
		} else {
			g[0] = 0xfe;
			g[1] = 0x80;
			g[15] = (uint8_t)(index + 1);
		}
		MLXL_SET(in(), MLXL_F_ROCE_ADDR_MAC_47_32, 0x0c42);
		MLXL_SET(in(), MLXL_F_ROCE_ADDR_MAC_31_0, 0xa1000011);
		MLXL_SET(in(), MLXL_F_ROCE_ADDR_L3_TYPE,
			 ipv4 ? MLXL_ROCE_L3_IPV4 : MLXL_ROCE_L3_IPV6);
		MLXL_SET(in(), MLXL_F_ROCE_ADDR_VERSION, version);
	}

	int set_gid(uint32_t index, bool ipv4 = false)
	{
		gid_in(index, ipv4);
		return exec(MLXL_SET_ROCE_ADDRESS_IN_LEN);
	}

	// the port as a RoCE driver brings it up: roce_en, two GIDs
	void port_up()
	{
		ASSERT_EQ(vport_modify(MLXL_VPORT_SEL_ROCE_EN, true), 0);
		ASSERT_EQ(set_gid(0), 0);
		ASSERT_EQ(set_gid(1, true), 0);
	}
};

// ---- the QP transition table
class Qp : public Obj {
public:
	uint32_t pd = 0, cq = 0;

	void SetUp() override
	{
		Obj::SetUp();
		port_up();
		pd = alloc_pd();
		cq = create_cq();
	}

	// a transition command with the fields of mask set and opt_param_mask
	int modify(uint16_t op, uint32_t qpn, uint32_t fields, uint32_t optpar = 0)
	{
		uint32_t len = has_qpc(op) ? MLXL_QP_MODIFY_IN_LEN : MLXL_HDR_LEN;

		hdr(op, len);
		MLXL_SET(in(), MLXL_F_QPN, qpn);
		if (has_qpc(op))
			MLXL_SET(in(), MLXL_F_QP_OPT_PARAM_MASK, optpar);
		for (int f = 0; f < FWSIM_NR_QPF; f++)
			if (fields & (1u << f))
				set_qpf(in(), f);
		return exec(len);
	}

	// the fields the model's row requires; the row must exist
	uint32_t required(uint8_t st, uint8_t from, uint16_t op)
	{
		const fwsim_qp_edge *m = model_edge({ st, from, op, 0 });

		EXPECT_NE(m, nullptr);
		return m ? m->req : 0;
	}

	// a fresh QP of type st brought to state s along the legal edges
	uint32_t qp_in_state(uint8_t st, uint8_t s)
	{
		uint32_t qpn = create_qp(st, pd, cq, cq);

		if (s == MLXL_QPS_RST)
			return qpn;
		if (s == MLXL_QPS_ERR) {
			EXPECT_EQ(modify(MLXL_OP_2ERR_QP, qpn, 0), 0);
			EXPECT_EQ(qp_state(qpn), (unsigned)MLXL_QPS_ERR);
			return qpn;
		}
		const struct {
			uint8_t to;
			uint8_t from;
			uint16_t op;
		} path[] = {
			{ MLXL_QPS_INIT, MLXL_QPS_RST, MLXL_OP_RST2INIT_QP },
			{ MLXL_QPS_RTR, MLXL_QPS_INIT, MLXL_OP_INIT2RTR_QP },
			{ MLXL_QPS_RTS, MLXL_QPS_RTR, MLXL_OP_RTR2RTS_QP },
		};
		for (auto &p : path) {
			EXPECT_EQ(modify(p.op, qpn, required(st, p.from, p.op)), 0)
				<< mlxl_cmd_name(p.op) << ": " << fwsim_err_str(r.fw->last_err);
			EXPECT_EQ(qp_state(qpn), (unsigned)p.to) << mlxl_cmd_name(p.op);
			if (p.to == s)
				return qpn;
		}
		if (s == MLXL_QPS_SQER) {
			EXPECT_EQ(fwsim_qp_set_state(r.fw.get(), qpn, FWSIM_QPS_SQER), 0);
		}
		EXPECT_EQ(qp_state(qpn), (unsigned)s);
		return qpn;
	}
};

#endif
