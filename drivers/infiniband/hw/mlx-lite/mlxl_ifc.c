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
	L(MLXL_OP_QUERY_ISSI, "QUERY_ISSI", 0x10, MLXL_QUERY_ISSI_OUT_LEN,
	  NOFIELDS, FIELDS(query_issi_out)),
	L(MLXL_OP_SET_ISSI, "SET_ISSI", 0x10, 0x10,
	  FIELDS(set_issi_in), NOFIELDS),
	L(MLXL_OP_SET_DRIVER_VERSION, "SET_DRIVER_VERSION",
	  MLXL_SET_DRIVER_VERSION_IN_LEN, 0x10, NOFIELDS, NOFIELDS),
	L(MLXL_OP_CREATE_EQ, "CREATE_EQ", MLXL_CREATE_EQ_PAS, 0x10,
	  FIELDS(create_eq_in), FIELDS(eq_number_fld)),
	L(MLXL_OP_DESTROY_EQ, "DESTROY_EQ", 0x10, 0x10,
	  FIELDS(eq_number_fld), NOFIELDS),
	L(MLXL_OP_ALLOC_UAR, "ALLOC_UAR", 0x10, 0x10,
	  NOFIELDS, FIELDS(uar_fld)),
	L(MLXL_OP_DEALLOC_UAR, "DEALLOC_UAR", 0x10, 0x10,
	  FIELDS(uar_fld), NOFIELDS),
	L(MLXL_OP_ACCESS_REG, "ACCESS_REG", 0x10, 0x10,
	  FIELDS(access_reg_in), NOFIELDS),
	L(MLXL_OP_NOP, "NOP", 0x10, 0x10, NOFIELDS, NOFIELDS),
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
