// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mlx-lite layouts: field access by bit position, the layout table, the
// status decode, and the cross-check of the driver's layouts against the
// firmware model's own field table.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>

#include "mlxl_ifc.h"
#include "fwsim/fwsim.h"

TEST(MlxlIfc, SetGetRoundTripAndNeighboursUntouched)
{
	uint8_t buf[16];

	memset(buf, 0xa5, sizeof(buf));
	mlxl_set(buf, 0x0c, 28, 24, 0x1f);
	EXPECT_EQ(mlxl_get(buf, 0x0c, 28, 24), 0x1fu);
	// bits 31:29 and 23:0 of the word keep their 0xa5 pattern
	EXPECT_EQ(buf[0x0c] & 0xe0, 0xa5 & 0xe0);
	EXPECT_EQ(buf[0x0d], 0xa5);
	EXPECT_EQ(buf[0x0e], 0xa5);
	EXPECT_EQ(buf[0x0f], 0xa5);
	for (int i = 0; i < 12; i++)
		EXPECT_EQ(buf[i], 0xa5) << i;
}

TEST(MlxlIfc, BigEndianPlacement)
{
	uint8_t buf[16] = {};

	MLXL_SET(buf, MLXL_F_IN_OPCODE, MLXL_OP_ENABLE_HCA);
	MLXL_SET(buf, MLXL_F_IN_OP_MOD, 0x1234);
	EXPECT_EQ(buf[0], 0x01);
	EXPECT_EQ(buf[1], 0x04);
	EXPECT_EQ(buf[2], 0x00);
	EXPECT_EQ(buf[6], 0x12);
	EXPECT_EQ(buf[7], 0x34);
	MLXL_SET(buf, MLXL_F_FUNC_ECPU, 1);
	EXPECT_EQ(buf[8], 0x80);
	mlxl_set64(buf, 8, 0x0102030405060708ull);
	EXPECT_EQ(buf[8], 0x01);
	EXPECT_EQ(buf[15], 0x08);
	EXPECT_EQ(mlxl_get64(buf, 8), 0x0102030405060708ull);
}

TEST(MlxlIfc, ValueWiderThanFieldIsCut)
{
	uint8_t buf[4] = {};

	mlxl_set(buf, 0x00, 7, 1, 0xff);
	EXPECT_EQ(buf[3], 0xfe);
	EXPECT_EQ(mlxl_get(buf, 0x00, 7, 1), 0x7fu);
	mlxl_set(buf, 0x00, 31, 0, 0xdeadbeef);
	EXPECT_EQ(mlxl_get(buf, 0x00, 31, 0), 0xdeadbeefu);
	// a malformed field reads 0 and writes nothing
	EXPECT_EQ(mlxl_get(buf, 0, 3, 4), 0u);
	mlxl_set(buf, 0, 40, 0, 0);
	EXPECT_EQ(mlxl_get(buf, 0x00, 31, 0), 0xdeadbeefu);
}

TEST(MlxlIfc, StatusDecode)
{
	EXPECT_EQ(mlxl_cmd_status_errno(0x00), 0);
	EXPECT_EQ(mlxl_cmd_status_errno(0x01), -EIO);
	EXPECT_EQ(mlxl_cmd_status_errno(0x02), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x03), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x04), -EIO);
	EXPECT_EQ(mlxl_cmd_status_errno(0x05), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x06), -EBUSY);
	EXPECT_EQ(mlxl_cmd_status_errno(0x07), -EAGAIN);
	EXPECT_EQ(mlxl_cmd_status_errno(0x08), -ENOMEM);
	EXPECT_EQ(mlxl_cmd_status_errno(0x09), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x0a), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x0f), -EAGAIN);
	EXPECT_EQ(mlxl_cmd_status_errno(0x10), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x30), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x40), -EINVAL);
	EXPECT_EQ(mlxl_cmd_status_errno(0x50), -EIO);
	EXPECT_EQ(mlxl_cmd_status_errno(0x51), -EIO);
	EXPECT_EQ(mlxl_cmd_status_errno(0xfe), -EIO);
	EXPECT_EQ(mlxl_cmd_status_errno(0x77), -EIO);
	EXPECT_STREQ(mlxl_cmd_status_str(0x04), "bad system state");
	EXPECT_STREQ(mlxl_cmd_status_str(0x77), "unknown status");
	EXPECT_STREQ(mlxl_delivery_str(0x02), "token error");
	EXPECT_STREQ(mlxl_delivery_str(0x10), "bad command descriptor");
	EXPECT_STREQ(mlxl_delivery_str(0x0b), "unknown delivery status");
	EXPECT_STREQ(mlxl_delivery_str(0x7f), "unknown delivery status");
}

// facts from the device's interface definition (mlx5_ifc.h bit widths)
TEST(MlxlIfc, KnownOffsets)
{
	struct {
		unsigned int off, hi, lo;
		unsigned int want_off, want_hi, want_lo;
	} f[] = {
		{ MLXL_F_ISSI_CURRENT, 0x08, 15, 0 },
		{ MLXL_F_QUERY_ISSI_SUPPORTED, 0x6c, 31, 0 },
		{ MLXL_F_QUERY_PAGES_NUM, 0x0c, 31, 0 },
		{ MLXL_F_MANAGE_PAGES_OUT_NUM, 0x08, 31, 0 },
		{ MLXL_F_EQC_LOG_SIZE, 0x1c, 28, 24 },
		{ MLXL_F_EQC_INTR, 0x24, 11, 0 },
		{ MLXL_F_EQ_NUMBER, 0x08, 7, 0 },
		{ MLXL_C_PORT_TYPE, 0x34, 9, 8 },
		{ MLXL_C_CMDIF_CHECKSUM, 0x40, 15, 14 },
		{ MLXL_C_LOG_UAR_PAGE_SZ, 0x90, 15, 0 },
		{ MLXL_F_MBOX_TOKEN, 0x23c, 23, 16 },
		{ MLXL_F_CQE_OWNER, 0x3c, 0, 0 },
	};
	for (auto &x : f) {
		EXPECT_EQ(x.off, x.want_off);
		EXPECT_EQ(x.hi, x.want_hi);
		EXPECT_EQ(x.lo, x.want_lo);
	}
	EXPECT_EQ(MLXL_CREATE_EQ_PAS, 0x110);
	EXPECT_EQ(MLXL_CREATE_EQ_BITMASK, 0x58);
	EXPECT_EQ(MLXL_MBOX_NEXT, 0x230);
	EXPECT_EQ(MLXL_HCA_CAP_MSG_LEN, 0x1010);
}

TEST(MlxlIfc, LayoutTableIsConsistent)
{
	std::set<unsigned int> seen;
	unsigned int i;

	for (i = 0; mlxl_cmd_layout_at(i); i++) {
		const mlxl_cmd_layout *l = mlxl_cmd_layout_at(i);

		SCOPED_TRACE(l->name);
		EXPECT_TRUE(seen.insert(l->opcode).second);
		EXPECT_EQ(mlxl_cmd_layout_find(l->opcode), l);
		EXPECT_STREQ(mlxl_cmd_name(l->opcode), l->name);
		EXPECT_GE(l->in_len, 0x10);
		EXPECT_GE(l->out_len, 0x0c);
		for (unsigned int k = 0; k < l->n_in; k++) {
			EXPECT_LT(l->in[k].off + 4u, l->in_len + 1u) << l->in[k].name;
			EXPECT_EQ(l->in[k].off % 4, 0u) << l->in[k].name;
			EXPECT_LE(l->in[k].lo, l->in[k].hi) << l->in[k].name;
		}
		for (unsigned int k = 0; k < l->n_out; k++)
			EXPECT_LT(l->out[k].off + 4u, l->out_len + 1u) << l->out[k].name;
	}
	EXPECT_GE(i, 46u);
	EXPECT_STREQ(mlxl_cmd_name(0x999), "UNKNOWN");
}

// Every input field the driver writes is one the model knows (and so may
// be nonzero); a wrong offset on either side shows here.
TEST(MlxlIfc, CrossCheckWithModelFieldTable)
{
	for (unsigned int i = 0; mlxl_cmd_layout_at(i); i++) {
		const mlxl_cmd_layout *l = mlxl_cmd_layout_at(i);

		for (unsigned int k = 0; k < l->n_in; k++) {
			const mlxl_field &f = l->in[k];

			EXPECT_TRUE(fwsim_in_field_known(l->opcode, f.off, f.hi, f.lo))
				<< l->name << "." << f.name;
		}
		// and the model refuses the bits next to a narrow field
		EXPECT_FALSE(fwsim_in_field_known(l->opcode, 0x00, 15, 0)) << l->name;
	}
	// reserved bits the model must not accept
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_ENABLE_HCA, 0x08, 30, 16));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_CREATE_EQ, 0x10, 16, 16));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_SET_ISSI, 0x08, 31, 16));
	// ... nor what a thin RoCE driver leaves alone: mkc.umr_en and
	// mkc.free, cqc.cc, qpc.state at create, create-time qpc fields on a
	// transition, the alternate address path, srqc.xrcd, a vport's
	// addresses list, anything in a 2ERR/2RST or ALLOC_PD beyond the
	// header and the number
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_CREATE_MKEY, 0x10, 15, 15));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_CREATE_MKEY, 0x10, 30, 30));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_CREATE_CQ, 0x10, 20, 20));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_CREATE_QP, 0x18, 31, 28));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_INIT2RTR_QP, 0x1c, 23, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_RTR2RTS_QP, 0x94, 23, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_INIT2RTR_QP, 0x5c, 15, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_CREATE_SRQ, 0x14, 23, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_MODIFY_NIC_VPORT_CONTEXT,
					  0x200 - 4, 31, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_2ERR_QP, 0x18, 31, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_ALLOC_PD, 0x08, 23, 0));
	EXPECT_FALSE(fwsim_in_field_known(MLXL_OP_DEALLOC_PD, 0x08, 31, 24));
}

// The model's table of QP transition fields names the same bits as the
// driver's layout: each field set through the driver's accessor is seen
// by the model at its own position and nowhere else.
TEST(MlxlIfc, ModelQpFieldsMatchDriverLayout)
{
	struct {
		int id;
		unsigned int off, hi, lo;	/* driver position; hi = 0: bytes */
		unsigned int len;
	} map[] = {
		{ FWSIM_QPF_MTU, MLXL_F_QPC_MTU, 0 },
		{ FWSIM_QPF_LOG_MSG_MAX, MLXL_F_QPC_LOG_MSG_MAX, 0 },
		{ FWSIM_QPF_REMOTE_QPN, MLXL_F_QPC_REMOTE_QPN, 0 },
		{ FWSIM_QPF_PKEY_INDEX, MLXL_F_ADS_PKEY_INDEX, 0 },
		{ FWSIM_QPF_ACK_TIMEOUT, MLXL_F_ADS_ACK_TIMEOUT, 0 },
		{ FWSIM_QPF_SRC_ADDR_INDEX, MLXL_F_ADS_SRC_ADDR_INDEX, 0 },
		{ FWSIM_QPF_STAT_RATE, MLXL_F_ADS_STAT_RATE, 0 },
		{ FWSIM_QPF_HOP_LIMIT, MLXL_F_ADS_HOP_LIMIT, 0 },
		{ FWSIM_QPF_TCLASS, MLXL_F_ADS_TCLASS, 0 },
		{ FWSIM_QPF_FLOW_LABEL, MLXL_F_ADS_FLOW_LABEL, 0 },
		{ FWSIM_QPF_RGID, MLXL_ADS_RGID_RIP, 0, 0, 16 },
		{ FWSIM_QPF_ECN, MLXL_F_ADS_ECN, 0 },
		{ FWSIM_QPF_DSCP, MLXL_F_ADS_DSCP, 0 },
		{ FWSIM_QPF_UDP_SPORT, MLXL_F_ADS_UDP_SPORT, 0 },
		{ FWSIM_QPF_ETH_PRIO, MLXL_F_ADS_ETH_PRIO, 0 },
		{ FWSIM_QPF_SL, MLXL_F_ADS_SL, 0 },
		{ FWSIM_QPF_PORT, MLXL_F_ADS_VHCA_PORT_NUM, 0 },
		{ FWSIM_QPF_RMAC, 0x56, 0, 0, 6 },	/* rmac_47_32 and rmac_31_0 */
		{ FWSIM_QPF_LOG_SRA_MAX, MLXL_F_QPC_LOG_SRA_MAX, 0 },
		{ FWSIM_QPF_RETRY_COUNT, MLXL_F_QPC_RETRY_COUNT, 0 },
		{ FWSIM_QPF_RNR_RETRY, MLXL_F_QPC_RNR_RETRY, 0 },
		{ FWSIM_QPF_NEXT_SEND_PSN, MLXL_F_QPC_NEXT_SEND_PSN, 0 },
		{ FWSIM_QPF_LOG_RRA_MAX, MLXL_F_QPC_LOG_RRA_MAX, 0 },
		{ FWSIM_QPF_RRE, MLXL_F_QPC_RRE, 0 },
		{ FWSIM_QPF_RWE, MLXL_F_QPC_RWE, 0 },
		{ FWSIM_QPF_RAE, MLXL_F_QPC_RAE, 0 },
		{ FWSIM_QPF_MIN_RNR_NAK, MLXL_F_QPC_MIN_RNR_NAK, 0 },
		{ FWSIM_QPF_NEXT_RCV_PSN, MLXL_F_QPC_NEXT_RCV_PSN, 0 },
		{ FWSIM_QPF_Q_KEY, MLXL_F_QPC_Q_KEY, 0 },
	};
	std::set<int> seen;

	ASSERT_EQ(sizeof(map) / sizeof(map[0]), (size_t)FWSIM_NR_QPF);
	for (auto &m : map) {
		const fwsim_qpf_desc &f = fwsim_qpf[m.id];
		uint8_t buf[MLXL_QP_MODIFY_IN_LEN] = {};

		SCOPED_TRACE(f.name);
		EXPECT_TRUE(seen.insert(m.id).second);
		if (m.len) {
			memset(buf + m.off, 0xff, m.len);
			EXPECT_EQ(f.len, m.len);
		} else {
			mlxl_set(buf, m.off, m.hi, m.lo, 0xffffffff);
			EXPECT_EQ(f.len, 0u);
		}
		// clear the model's idea of the field: nothing may remain
		if (f.len)
			memset(buf + f.off, 0, f.len);
		else
			mlxl_set(buf, f.off, f.hi, f.lo, 0);
		for (unsigned int i = 0; i < sizeof(buf); i++)
			EXPECT_EQ(buf[i], 0) << "byte " << i;
		// and the model's command table knows those bits
		if (!f.len) {
			EXPECT_TRUE(fwsim_in_field_known(MLXL_OP_INIT2RTR_QP, f.off,
							 f.hi, f.lo));
		}
		for (unsigned int b = f.off; b < (unsigned int)f.off + f.len; b++) {
			unsigned int hi = 31 - 8 * (b & 3);

			EXPECT_TRUE(fwsim_in_field_known(MLXL_OP_INIT2RTR_QP, b & ~3u,
							 hi, hi - 7)) << "byte " << b;
		}
	}
}
