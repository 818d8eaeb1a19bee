// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: field access by bit position in big-endian command buffers,
 * the command layout table and the status decode table.  Pure: builds on
 * the host too (tools/testing/unit).
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "mlxl_ifc.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static u32 be32_at(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void be32_put(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static u32 field_mask(unsigned int hi, unsigned int lo)
{
	unsigned int width = hi - lo + 1;

	return width >= 32 ? 0xffffffffu : ((1u << width) - 1) << lo;
}

/* A field never crosses its 32-bit word; hi < lo or hi > 31 reads as 0. */
u32 mlxl_get(const u8 *buf, unsigned int off, unsigned int hi, unsigned int lo)
{
	if (hi > 31 || lo > hi)
		return 0;
	return (be32_at(buf + (off & ~3u)) & field_mask(hi, lo)) >> lo;
}

/* Bits of val above the field's width are dropped. */
void mlxl_set(u8 *buf, unsigned int off, unsigned int hi, unsigned int lo,
	      u32 val)
{
	u8 *p = buf + (off & ~3u);
	u32 mask;

	if (hi > 31 || lo > hi)
		return;
	mask = field_mask(hi, lo);
	be32_put(p, (be32_at(p) & ~mask) | ((val << lo) & mask));
}

u64 mlxl_get64(const u8 *buf, unsigned int off)
{
	return (u64)be32_at(buf + off) << 32 | be32_at(buf + off + 4);
}

void mlxl_set64(u8 *buf, unsigned int off, u64 val)
{
	be32_put(buf + off, (u32)(val >> 32));
	be32_put(buf + off + 4, (u32)val);
}

/* ---- status decode */
struct stat_desc {
	u8 status;
	int err;		/* positive errno */
	const char *text;
};

static const struct stat_desc stat_table[] = {
	{ MLXL_STAT_OK, 0, "ok" },
	{ MLXL_STAT_INT_ERR, EIO, "internal error" },
	{ MLXL_STAT_BAD_OP, EINVAL, "bad operation" },
	{ MLXL_STAT_BAD_PARAM, EINVAL, "bad parameter" },
	{ MLXL_STAT_BAD_SYS_STATE, EIO, "bad system state" },
	{ MLXL_STAT_BAD_RES, EINVAL, "bad resource" },
	{ MLXL_STAT_RES_BUSY, EBUSY, "resource busy" },
	{ MLXL_STAT_NOT_READY, EAGAIN, "not ready" },
	{ MLXL_STAT_LIM, ENOMEM, "limits exceeded" },
	{ MLXL_STAT_BAD_RES_STATE, EINVAL, "bad resource state" },
	{ MLXL_STAT_IX, EINVAL, "bad index" },
	{ MLXL_STAT_NO_RES, EAGAIN, "no resources" },
	{ MLXL_STAT_BAD_QP_STATE, EINVAL, "bad QP state" },
	{ MLXL_STAT_BAD_PKT, EINVAL, "bad packet" },
	{ MLXL_STAT_BAD_SIZE, EINVAL, "bad size or too many outstanding CQEs" },
	{ MLXL_STAT_BAD_INP_LEN, EIO, "bad input length" },
	{ MLXL_STAT_BAD_OUTP_LEN, EIO, "bad output length" },
	{ MLXL_STAT_ABORTED, EIO, "aborted (not delivered)" },
};

static const struct stat_desc *stat_find(unsigned int status)
{
	unsigned int i;

	for (i = 0; i < N_ELEMS(stat_table); i++)
		if (stat_table[i].status == status)
			return &stat_table[i];
	return NULL;
}

/* Negative errno for a command status; an unknown status is -EIO. */
int mlxl_cmd_status_errno(unsigned int status)
{
	const struct stat_desc *d = stat_find(status);

	return d ? -d->err : -EIO;
}

const char *mlxl_cmd_status_str(unsigned int status)
{
	const struct stat_desc *d = stat_find(status);

	return d ? d->text : "unknown status";
}

static const char *const dlv_names[] = {
	[MLXL_DLV_OK] = "ok",
	[MLXL_DLV_SIGNATURE] = "signature error",
	[MLXL_DLV_TOKEN] = "token error",
	[MLXL_DLV_BAD_BLOCK] = "bad block number",
	[MLXL_DLV_OUT_PTR_ALIGN] = "output pointer not aligned",
	[MLXL_DLV_IN_PTR_ALIGN] = "input pointer not aligned",
	[MLXL_DLV_FW_ERR] = "firmware internal error",
	[MLXL_DLV_IN_LEN] = "input length error",
	[MLXL_DLV_OUT_LEN] = "output length error",
	[MLXL_DLV_RES_FLD] = "reserved fields not cleared",
	[0x0a] = NULL, [0x0b] = NULL, [0x0c] = NULL, [0x0d] = NULL,
	[0x0e] = NULL, [0x0f] = NULL,
	[MLXL_DLV_CMD_DESC] = "bad command descriptor",
};

const char *mlxl_delivery_str(unsigned int dlv)
{
	if (dlv < N_ELEMS(dlv_names) && dlv_names[dlv])
		return dlv_names[dlv];
	return "unknown delivery status";
}

/* ---- command layouts */
#define FLD_(n, o, h, l)	{ .name = (n), .off = (o), .hi = (h), .lo = (l) }
#define FLD(n, ...)		FLD_(n, __VA_ARGS__)

static const struct mlxl_field func_in[] = {
	FLD("embedded_cpu_function", MLXL_F_FUNC_ECPU),
	FLD("function_id", MLXL_F_FUNC_ID),
};

static const struct mlxl_field set_issi_in[] = {
	FLD("current_issi", MLXL_F_ISSI_CURRENT),
};

static const struct mlxl_field query_adapter_out[] = {
	FLD("ieee_vendor_id", MLXL_F_QA_IEEE_VENDOR_ID),
	FLD("vsd_vendor_id", MLXL_F_QA_VSD_VENDOR_ID),
};

static const struct mlxl_field query_issi_out[] = {
	FLD("current_issi", MLXL_F_ISSI_CURRENT),
	FLD("supported_issi_dw0", MLXL_F_QUERY_ISSI_SUPPORTED),
};

static const struct mlxl_field query_pages_out[] = {
	FLD("embedded_cpu_function", MLXL_F_FUNC_ECPU),
	FLD("function_id", MLXL_F_FUNC_ID),
	FLD("num_pages", MLXL_F_QUERY_PAGES_NUM),
};

static const struct mlxl_field manage_pages_in[] = {
	FLD("embedded_cpu_function", MLXL_F_FUNC_ECPU),
	FLD("function_id", MLXL_F_FUNC_ID),
	FLD("input_num_entries", MLXL_F_MANAGE_PAGES_IN_NUM),
};

static const struct mlxl_field manage_pages_out[] = {
	FLD("output_num_entries", MLXL_F_MANAGE_PAGES_OUT_NUM),
};

static const struct mlxl_field teardown_in[] = {
	FLD("profile", MLXL_F_TEARDOWN_PROFILE),
};

static const struct mlxl_field teardown_out[] = {
	FLD("state", MLXL_F_TEARDOWN_OUT_STATE),
};

static const struct mlxl_field access_reg_in[] = {
	FLD("register_id", MLXL_F_ACCESS_REG_ID),
	FLD("argument", MLXL_F_ACCESS_REG_ARG),
};

static const struct mlxl_field uar_fld[] = {
	FLD("uar", MLXL_F_UAR),
};

static const struct mlxl_field create_eq_in[] = {
	FLD("eqc.oi", MLXL_F_EQC_OI),
	FLD("eqc.page_offset", MLXL_F_EQC_PAGE_OFFSET),
	FLD("eqc.log_eq_size", MLXL_F_EQC_LOG_SIZE),
	FLD("eqc.uar_page", MLXL_F_EQC_UAR_PAGE),
	FLD("eqc.intr", MLXL_F_EQC_INTR),
	FLD("eqc.log_page_size", MLXL_F_EQC_LOG_PAGE_SIZE),
};

static const struct mlxl_field eq_number_fld[] = {
	FLD("eq_number", MLXL_F_EQ_NUMBER),
};

/* a 64-bit field as its two words */
#define FLD64(n, o)	FLD_(n "[63:32]", (o), 31, 0), FLD_(n "[31:0]", (o) + 4, 31, 0)

static const struct mlxl_field pd_fld[] = {
	FLD("pd", MLXL_F_PD),
};

static const struct mlxl_field td_fld[] = {
	FLD("transport_domain", MLXL_F_TRANSPORT_DOMAIN),
};

static const struct mlxl_field create_mkey_in[] = {
	FLD("mkc.a", MLXL_F_MKC_A),
	FLD("mkc.rw", MLXL_F_MKC_RW),
	FLD("mkc.rr", MLXL_F_MKC_RR),
	FLD("mkc.lw", MLXL_F_MKC_LW),
	FLD("mkc.lr", MLXL_F_MKC_LR),
	FLD("mkc.access_mode_1_0", MLXL_F_MKC_ACCESS_MODE_1_0),
	FLD("mkc.qpn", MLXL_F_MKC_QPN),
	FLD("mkc.mkey_7_0", MLXL_F_MKC_MKEY_7_0),
	FLD("mkc.length64", MLXL_F_MKC_LENGTH64),
	FLD("mkc.pd", MLXL_F_MKC_PD),
	FLD64("mkc.start_addr", MLXL_MKC_START_ADDR),
	FLD64("mkc.len", MLXL_MKC_LEN),
	FLD("mkc.translations_octword_size", MLXL_F_MKC_XLT_OCTWORD_SIZE),
	FLD("mkc.log_page_size", MLXL_F_MKC_LOG_PAGE_SIZE),
	FLD("translations_octword_actual_size", MLXL_F_CREATE_MKEY_XLT_ACTUAL),
};

static const struct mlxl_field mkey_index_fld[] = {
	FLD("mkey_index", MLXL_F_MKEY_INDEX),
};

static const struct mlxl_field query_mkey_out[] = {
	FLD("mkc.pd", MLXL_F_MKC_PD),
	FLD("mkc.mkey_7_0", MLXL_F_MKC_MKEY_7_0),
	FLD64("mkc.len", MLXL_MKC_LEN),
};

static const struct mlxl_field create_cq_in[] = {
	FLD("cqc.cqe_sz", MLXL_F_CQC_CQE_SZ),
	FLD("cqc.oi", MLXL_F_CQC_OI),
	FLD("cqc.cq_period_mode", MLXL_F_CQC_PERIOD_MODE),
	FLD("cqc.page_offset", MLXL_F_CQC_PAGE_OFFSET),
	FLD("cqc.log_cq_size", MLXL_F_CQC_LOG_SIZE),
	FLD("cqc.uar_page", MLXL_F_CQC_UAR_PAGE),
	FLD("cqc.cq_period", MLXL_F_CQC_PERIOD),
	FLD("cqc.cq_max_count", MLXL_F_CQC_MAX_COUNT),
	FLD("cqc.c_eqn", MLXL_F_CQC_C_EQN),
	FLD("cqc.log_page_size", MLXL_F_CQC_LOG_PAGE_SIZE),
	FLD64("cqc.dbr_addr", MLXL_CQC_DBR_ADDR),
};

static const struct mlxl_field cqn_fld[] = {
	FLD("cqn", MLXL_F_CQN),
};

static const struct mlxl_field query_cq_out[] = {
	FLD("cqc.log_cq_size", MLXL_F_CQC_LOG_SIZE),
	FLD("cqc.c_eqn", MLXL_F_CQC_C_EQN),
	FLD("cqc.cq_period", MLXL_F_CQC_PERIOD),
	FLD("cqc.cq_max_count", MLXL_F_CQC_MAX_COUNT),
};

static const struct mlxl_field modify_cq_in[] = {
	FLD("cqn", MLXL_F_CQN),
	FLD("modify_field_select", MLXL_F_MODIFY_CQ_SELECT),
	FLD("cqc.log_cq_size", MLXL_F_CQC_LOG_SIZE),
	FLD("cqc.cq_period", MLXL_F_CQC_PERIOD),
	FLD("cqc.cq_max_count", MLXL_F_CQC_MAX_COUNT),
	FLD("cqc.log_page_size", MLXL_F_CQC_LOG_PAGE_SIZE),
};

static const struct mlxl_field create_qp_in[] = {
	FLD("qpc.st", MLXL_F_QPC_ST),
	FLD("qpc.pm_state", MLXL_F_QPC_PM_STATE),
	FLD("qpc.pd", MLXL_F_QPC_PD),
	FLD("qpc.log_rq_size", MLXL_F_QPC_LOG_RQ_SIZE),
	FLD("qpc.log_rq_stride", MLXL_F_QPC_LOG_RQ_STRIDE),
	FLD("qpc.no_sq", MLXL_F_QPC_NO_SQ),
	FLD("qpc.log_sq_size", MLXL_F_QPC_LOG_SQ_SIZE),
	FLD("qpc.ts_format", MLXL_F_QPC_TS_FORMAT),
	FLD("qpc.rlky", MLXL_F_QPC_RLKY),
	FLD("qpc.uar_page", MLXL_F_QPC_UAR_PAGE),
	FLD("qpc.user_index", MLXL_F_QPC_USER_INDEX),
	FLD("qpc.log_page_size", MLXL_F_QPC_LOG_PAGE_SIZE),
	FLD("qpc.fre", MLXL_F_QPC_FRE),
	FLD("qpc.cqn_snd", MLXL_F_QPC_CQN_SND),
	FLD("qpc.page_offset", MLXL_F_QPC_PAGE_OFFSET),
	FLD("qpc.cqn_rcv", MLXL_F_QPC_CQN_RCV),
	FLD64("qpc.dbr_addr", MLXL_QPC_DBR_ADDR),
	FLD("qpc.rq_type", MLXL_F_QPC_RQ_TYPE),
	FLD("qpc.srqn_rmpn_xrqn", MLXL_F_QPC_SRQN),
};

static const struct mlxl_field qpn_fld[] = {
	FLD("qpn", MLXL_F_QPN),
};

/* every qpc field a transition may carry; the edge decides which */
static const struct mlxl_field qp_modify_in[] = {
	FLD("qpn", MLXL_F_QPN),
	FLD("opt_param_mask", MLXL_F_QP_OPT_PARAM_MASK),
	FLD("qpc.mtu", MLXL_F_QPC_MTU),
	FLD("qpc.log_msg_max", MLXL_F_QPC_LOG_MSG_MAX),
	FLD("qpc.remote_qpn", MLXL_F_QPC_REMOTE_QPN),
	FLD("ads.pkey_index", MLXL_F_ADS_PKEY_INDEX),
	FLD("ads.ack_timeout", MLXL_F_ADS_ACK_TIMEOUT),
	FLD("ads.src_addr_index", MLXL_F_ADS_SRC_ADDR_INDEX),
	FLD("ads.stat_rate", MLXL_F_ADS_STAT_RATE),
	FLD("ads.hop_limit", MLXL_F_ADS_HOP_LIMIT),
	FLD("ads.tclass", MLXL_F_ADS_TCLASS),
	FLD("ads.flow_label", MLXL_F_ADS_FLOW_LABEL),
	FLD_("ads.rgid_rip[0]", MLXL_ADS_RGID_RIP, 31, 0),
	FLD_("ads.rgid_rip[1]", MLXL_ADS_RGID_RIP + 4, 31, 0),
	FLD_("ads.rgid_rip[2]", MLXL_ADS_RGID_RIP + 8, 31, 0),
	FLD_("ads.rgid_rip[3]", MLXL_ADS_RGID_RIP + 12, 31, 0),
	FLD("ads.ecn", MLXL_F_ADS_ECN),
	FLD("ads.dscp", MLXL_F_ADS_DSCP),
	FLD("ads.udp_sport", MLXL_F_ADS_UDP_SPORT),
	FLD("ads.eth_prio", MLXL_F_ADS_ETH_PRIO),
	FLD("ads.sl", MLXL_F_ADS_SL),
	FLD("ads.vhca_port_num", MLXL_F_ADS_VHCA_PORT_NUM),
	FLD("ads.rmac_47_32", MLXL_F_ADS_RMAC_47_32),
	FLD("ads.rmac_31_0", MLXL_F_ADS_RMAC_31_0),
	FLD("qpc.log_sra_max", MLXL_F_QPC_LOG_SRA_MAX),
	FLD("qpc.retry_count", MLXL_F_QPC_RETRY_COUNT),
	FLD("qpc.rnr_retry", MLXL_F_QPC_RNR_RETRY),
	FLD("qpc.next_send_psn", MLXL_F_QPC_NEXT_SEND_PSN),
	FLD("qpc.log_rra_max", MLXL_F_QPC_LOG_RRA_MAX),
	FLD("qpc.rre", MLXL_F_QPC_RRE),
	FLD("qpc.rwe", MLXL_F_QPC_RWE),
	FLD("qpc.rae", MLXL_F_QPC_RAE),
	FLD("qpc.min_rnr_nak", MLXL_F_QPC_MIN_RNR_NAK),
	FLD("qpc.next_rcv_psn", MLXL_F_QPC_NEXT_RCV_PSN),
	FLD("qpc.q_key", MLXL_F_QPC_Q_KEY),
};

static const struct mlxl_field query_qp_out[] = {
	FLD("qpc.state", MLXL_F_QPC_STATE),
	FLD("qpc.st", MLXL_F_QPC_ST),
	FLD("qpc.pd", MLXL_F_QPC_PD),
	FLD("qpc.remote_qpn", MLXL_F_QPC_REMOTE_QPN),
};

static const struct mlxl_field create_srq_in[] = {
	FLD("srqc.log_srq_size", MLXL_F_SRQC_LOG_SIZE),
	FLD("srqc.rlky", MLXL_F_SRQC_RLKY),
	FLD("srqc.log_rq_stride", MLXL_F_SRQC_LOG_RQ_STRIDE),
	FLD("srqc.page_offset", MLXL_F_SRQC_PAGE_OFFSET),
	FLD("srqc.cqn", MLXL_F_SRQC_CQN),
	FLD("srqc.log_page_size", MLXL_F_SRQC_LOG_PAGE_SIZE),
	FLD("srqc.pd", MLXL_F_SRQC_PD),
	FLD("srqc.lwm", MLXL_F_SRQC_LWM),
	FLD64("srqc.dbr_addr", MLXL_SRQC_DBR_ADDR),
};

static const struct mlxl_field arm_rq_in[] = {
	FLD("srq_number", MLXL_F_ARM_RQ_SRQN),
	FLD("lwm", MLXL_F_ARM_RQ_LWM),
};

static const struct mlxl_field srqn_fld[] = {
	FLD("srqn", MLXL_F_SRQN),
};

static const struct mlxl_field query_srq_out[] = {
	FLD("srqc.log_srq_size", MLXL_F_SRQC_LOG_SIZE),
	FLD("srqc.cqn", MLXL_F_SRQC_CQN),
	FLD("srqc.pd", MLXL_F_SRQC_PD),
};

static const struct mlxl_field vport_in[] = {
	FLD("other_vport", MLXL_F_VPORT_OTHER),
	FLD("vport_number", MLXL_F_VPORT_NUMBER),
};

static const struct mlxl_field query_nic_vport_out[] = {
	FLD("nic_vport_context.roce_en", MLXL_F_NVQ_ROCE_EN),
	FLD("nic_vport_context.disable_uc_local_lb", MLXL_F_NVQ_DISABLE_UC_LB),
	FLD("nic_vport_context.disable_mc_local_lb", MLXL_F_NVQ_DISABLE_MC_LB),
	FLD("nic_vport_context.mtu", MLXL_F_NVQ_MTU),
	FLD("nic_vport_context.permanent_address_47_32", MLXL_F_NVQ_PERM_MAC_47_32),
	FLD("nic_vport_context.permanent_address_31_0", MLXL_F_NVQ_PERM_MAC_31_0),
};

static const struct mlxl_field modify_nic_vport_in[] = {
	FLD("other_vport", MLXL_F_VPORT_OTHER),
	FLD("vport_number", MLXL_F_VPORT_NUMBER),
	FLD("field_select", MLXL_F_MODIFY_VPORT_SELECT),
	FLD("nic_vport_context.roce_en", MLXL_F_NVM_ROCE_EN),
	FLD("nic_vport_context.disable_uc_local_lb", MLXL_F_NVM_DISABLE_UC_LB),
	FLD("nic_vport_context.disable_mc_local_lb", MLXL_F_NVM_DISABLE_MC_LB),
	FLD("nic_vport_context.mtu", MLXL_F_NVM_MTU),
	FLD("nic_vport_context.permanent_address_47_32", MLXL_F_NVM_PERM_MAC_47_32),
	FLD("nic_vport_context.permanent_address_31_0", MLXL_F_NVM_PERM_MAC_31_0),
};

static const struct mlxl_field roce_addr_target[] = {
	FLD("roce_address_index", MLXL_F_ROCE_ADDR_INDEX),
	FLD("vhca_port_num", MLXL_F_ROCE_ADDR_PORT),
};

static const struct mlxl_field set_roce_addr_in[] = {
	FLD("roce_address_index", MLXL_F_ROCE_ADDR_INDEX),
	FLD("vhca_port_num", MLXL_F_ROCE_ADDR_PORT),
	FLD_("source_l3_address[0]", MLXL_ROCE_ADDR_GID, 31, 0),
	FLD_("source_l3_address[1]", MLXL_ROCE_ADDR_GID + 4, 31, 0),
	FLD_("source_l3_address[2]", MLXL_ROCE_ADDR_GID + 8, 31, 0),
	FLD_("source_l3_address[3]", MLXL_ROCE_ADDR_GID + 12, 31, 0),
	FLD("vlan_valid", MLXL_F_ROCE_ADDR_VLAN_VALID),
	FLD("vlan_id", MLXL_F_ROCE_ADDR_VLAN_ID),
	FLD("source_mac_47_32", MLXL_F_ROCE_ADDR_MAC_47_32),
	FLD("source_mac_31_0", MLXL_F_ROCE_ADDR_MAC_31_0),
	FLD("roce_l3_type", MLXL_F_ROCE_ADDR_L3_TYPE),
	FLD("roce_version", MLXL_F_ROCE_ADDR_VERSION),
};

static const struct mlxl_field query_roce_addr_out[] = {
	FLD("source_mac_47_32", MLXL_F_ROCE_ADDR_MAC_47_32),
	FLD("source_mac_31_0", MLXL_F_ROCE_ADDR_MAC_31_0),
	FLD("roce_l3_type", MLXL_F_ROCE_ADDR_L3_TYPE),
	FLD("roce_version", MLXL_F_ROCE_ADDR_VERSION),
};

#define FIELDS(a)	(a), N_ELEMS(a)
#define NOFIELDS	NULL, 0
/* L(): the in and out field lists are "pointer, count" pairs (FIELDS, NOFIELDS) */
#define LAYOUT_(op, nm, il, ol, fi, ni, fo, no) {			\
	.opcode = (op), .name = (nm), .in_len = (il), .out_len = (ol),	\
	.in = (fi), .n_in = (ni), .out = (fo), .n_out = (no),		\
}
#define L(op, nm, il, ol, ...)	LAYOUT_(op, nm, il, ol, __VA_ARGS__)

static const struct mlxl_cmd_layout layouts[] = {
	L(MLXL_OP_QUERY_HCA_CAP, "QUERY_HCA_CAP", 0x10, MLXL_HCA_CAP_MSG_LEN,
	  FIELDS(func_in), NOFIELDS),
	L(MLXL_OP_INIT_HCA, "INIT_HCA", MLXL_INIT_HCA_IN_LEN, 0x10,
	  NOFIELDS, NOFIELDS),
	L(MLXL_OP_TEARDOWN_HCA, "TEARDOWN_HCA", 0x10, 0x10,
	  FIELDS(teardown_in), FIELDS(teardown_out)),
	L(MLXL_OP_ENABLE_HCA, "ENABLE_HCA", 0x10, MLXL_ENABLE_HCA_OUT_LEN,
	  FIELDS(func_in), NOFIELDS),
	L(MLXL_OP_DISABLE_HCA, "DISABLE_HCA", 0x10, MLXL_ENABLE_HCA_OUT_LEN,
	  FIELDS(func_in), NOFIELDS),
	L(MLXL_OP_QUERY_PAGES, "QUERY_PAGES", 0x10, 0x10,
	  FIELDS(func_in), FIELDS(query_pages_out)),
	L(MLXL_OP_MANAGE_PAGES, "MANAGE_PAGES", 0x10, 0x10,
	  FIELDS(manage_pages_in), FIELDS(manage_pages_out)),
	L(MLXL_OP_SET_HCA_CAP, "SET_HCA_CAP", MLXL_HCA_CAP_MSG_LEN, 0x10,
	  FIELDS(func_in), NOFIELDS),
	L(MLXL_OP_QUERY_ADAPTER, "QUERY_ADAPTER", 0x10,
	  MLXL_QUERY_ADAPTER_OUT_LEN, NOFIELDS, FIELDS(query_adapter_out)),
	L(MLXL_OP_QUERY_ISSI, "QUERY_ISSI", 0x10, MLXL_QUERY_ISSI_OUT_LEN,
	  NOFIELDS, FIELDS(query_issi_out)),
	L(MLXL_OP_SET_ISSI, "SET_ISSI", 0x10, 0x10,
	  FIELDS(set_issi_in), NOFIELDS),
	L(MLXL_OP_SET_DRIVER_VERSION, "SET_DRIVER_VERSION",
	  MLXL_SET_DRIVER_VERSION_IN_LEN, 0x10, NOFIELDS, NOFIELDS),
	L(MLXL_OP_CREATE_MKEY, "CREATE_MKEY", MLXL_CREATE_MKEY_MTT, 0x10,
	  FIELDS(create_mkey_in), FIELDS(mkey_index_fld)),
	L(MLXL_OP_QUERY_MKEY, "QUERY_MKEY", 0x10, MLXL_QUERY_MKEY_OUT_LEN,
	  FIELDS(mkey_index_fld), FIELDS(query_mkey_out)),
	L(MLXL_OP_DESTROY_MKEY, "DESTROY_MKEY", 0x10, 0x10,
	  FIELDS(mkey_index_fld), NOFIELDS),
	L(MLXL_OP_CREATE_EQ, "CREATE_EQ", MLXL_CREATE_EQ_PAS, 0x10,
	  FIELDS(create_eq_in), FIELDS(eq_number_fld)),
	L(MLXL_OP_DESTROY_EQ, "DESTROY_EQ", 0x10, 0x10,
	  FIELDS(eq_number_fld), NOFIELDS),
	L(MLXL_OP_CREATE_CQ, "CREATE_CQ", MLXL_CREATE_CQ_PAS, 0x10,
	  FIELDS(create_cq_in), FIELDS(cqn_fld)),
	L(MLXL_OP_DESTROY_CQ, "DESTROY_CQ", 0x10, 0x10,
	  FIELDS(cqn_fld), NOFIELDS),
	L(MLXL_OP_QUERY_CQ, "QUERY_CQ", 0x10, MLXL_QUERY_CQ_OUT_LEN,
	  FIELDS(cqn_fld), FIELDS(query_cq_out)),
	L(MLXL_OP_MODIFY_CQ, "MODIFY_CQ", 0x110, 0x10,
	  FIELDS(modify_cq_in), NOFIELDS),
	L(MLXL_OP_CREATE_QP, "CREATE_QP", MLXL_CREATE_QP_PAS, 0x10,
	  FIELDS(create_qp_in), FIELDS(qpn_fld)),
	L(MLXL_OP_DESTROY_QP, "DESTROY_QP", 0x10, 0x10,
	  FIELDS(qpn_fld), NOFIELDS),
	L(MLXL_OP_RST2INIT_QP, "RST2INIT_QP", MLXL_QP_MODIFY_IN_LEN, 0x10,
	  FIELDS(qp_modify_in), NOFIELDS),
	L(MLXL_OP_INIT2RTR_QP, "INIT2RTR_QP", MLXL_QP_MODIFY_IN_LEN, 0x10,
	  FIELDS(qp_modify_in), NOFIELDS),
	L(MLXL_OP_RTR2RTS_QP, "RTR2RTS_QP", MLXL_QP_MODIFY_IN_LEN, 0x10,
	  FIELDS(qp_modify_in), NOFIELDS),
	L(MLXL_OP_RTS2RTS_QP, "RTS2RTS_QP", MLXL_QP_MODIFY_IN_LEN, 0x10,
	  FIELDS(qp_modify_in), NOFIELDS),
	L(MLXL_OP_SQERR2RTS_QP, "SQERR2RTS_QP", MLXL_QP_MODIFY_IN_LEN, 0x10,
	  FIELDS(qp_modify_in), NOFIELDS),
	L(MLXL_OP_2ERR_QP, "2ERR_QP", 0x10, 0x10, FIELDS(qpn_fld), NOFIELDS),
	L(MLXL_OP_2RST_QP, "2RST_QP", 0x10, 0x10, FIELDS(qpn_fld), NOFIELDS),
	L(MLXL_OP_QUERY_QP, "QUERY_QP", 0x10, MLXL_QUERY_QP_OUT_LEN,
	  FIELDS(qpn_fld), FIELDS(query_qp_out)),
	L(MLXL_OP_INIT2INIT_QP, "INIT2INIT_QP", MLXL_QP_MODIFY_IN_LEN, 0x10,
	  FIELDS(qp_modify_in), NOFIELDS),
	L(MLXL_OP_CREATE_SRQ, "CREATE_SRQ", MLXL_CREATE_SRQ_PAS, 0x10,
	  FIELDS(create_srq_in), FIELDS(srqn_fld)),
	L(MLXL_OP_DESTROY_SRQ, "DESTROY_SRQ", 0x10, 0x10,
	  FIELDS(srqn_fld), NOFIELDS),
	L(MLXL_OP_QUERY_SRQ, "QUERY_SRQ", 0x10, MLXL_QUERY_SRQ_OUT_LEN,
	  FIELDS(srqn_fld), FIELDS(query_srq_out)),
	L(MLXL_OP_ARM_RQ, "ARM_RQ", 0x10, 0x10, FIELDS(arm_rq_in), NOFIELDS),
	L(MLXL_OP_QUERY_NIC_VPORT_CONTEXT, "QUERY_NIC_VPORT_CONTEXT", 0x10,
	  MLXL_QUERY_NIC_VPORT_OUT_LEN, FIELDS(vport_in),
	  FIELDS(query_nic_vport_out)),
	L(MLXL_OP_MODIFY_NIC_VPORT_CONTEXT, "MODIFY_NIC_VPORT_CONTEXT",
	  MLXL_MODIFY_NIC_VPORT_IN_LEN, 0x10, FIELDS(modify_nic_vport_in),
	  NOFIELDS),
	L(MLXL_OP_QUERY_ROCE_ADDRESS, "QUERY_ROCE_ADDRESS", 0x10,
	  MLXL_QUERY_ROCE_ADDRESS_OUT_LEN, FIELDS(roce_addr_target),
	  FIELDS(query_roce_addr_out)),
	L(MLXL_OP_SET_ROCE_ADDRESS, "SET_ROCE_ADDRESS",
	  MLXL_SET_ROCE_ADDRESS_IN_LEN, 0x10, FIELDS(set_roce_addr_in), NOFIELDS),
	L(MLXL_OP_ALLOC_PD, "ALLOC_PD", 0x10, 0x10, NOFIELDS, FIELDS(pd_fld)),
	L(MLXL_OP_DEALLOC_PD, "DEALLOC_PD", 0x10, 0x10, FIELDS(pd_fld), NOFIELDS),
	L(MLXL_OP_ALLOC_UAR, "ALLOC_UAR", 0x10, 0x10,
	  NOFIELDS, FIELDS(uar_fld)),
	L(MLXL_OP_DEALLOC_UAR, "DEALLOC_UAR", 0x10, 0x10,
	  FIELDS(uar_fld), NOFIELDS),
	L(MLXL_OP_ACCESS_REG, "ACCESS_REG", 0x10, 0x10,
	  FIELDS(access_reg_in), NOFIELDS),
	L(MLXL_OP_NOP, "NOP", 0x10, 0x10, NOFIELDS, NOFIELDS),
	L(MLXL_OP_ALLOC_TRANSPORT_DOMAIN, "ALLOC_TRANSPORT_DOMAIN", 0x10, 0x10,
	  NOFIELDS, FIELDS(td_fld)),
	L(MLXL_OP_DEALLOC_TRANSPORT_DOMAIN, "DEALLOC_TRANSPORT_DOMAIN", 0x10,
	  0x10, FIELDS(td_fld), NOFIELDS),
};

const struct mlxl_cmd_layout *mlxl_cmd_layout_find(unsigned int opcode)
{
	unsigned int i;

	for (i = 0; i < N_ELEMS(layouts); i++)
		if (layouts[i].opcode == opcode)
			return &layouts[i];
	return NULL;
}

const struct mlxl_cmd_layout *mlxl_cmd_layout_at(unsigned int i)
{
	return i < N_ELEMS(layouts) ? &layouts[i] : NULL;
}

const char *mlxl_cmd_name(unsigned int opcode)
{
	const struct mlxl_cmd_layout *l = mlxl_cmd_layout_find(opcode);

	return l ? l->name : "UNKNOWN";
}
