/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: command and mailbox layouts of the mlx5 command interface, as
 * data.  Pure: only type-level headers; also built as C++ on the host.
 *
 * A field is named by three numbers: the byte offset of the big-endian
 * 32-bit word that holds it, its most significant bit and its least
 * significant bit within that word (bit 31 = MSB).  The MLXL_F_* macros
 * expand to those three numbers, so MLXL_SET(buf, MLXL_F_X, v) and
 * MLXL_GET(buf, MLXL_F_X) reach the field.  Offsets are facts of the
 * device's programming interface (see Documentation/mlx-lite/design.rst).
 * The firmware model (fwsim/) must not include this header: it keeps its
 * own table so that a wrong offset here cannot hide behind the same wrong
 * offset there.
 */
#ifndef MLXL_IFC_H
#define MLXL_IFC_H

#include <linux/types.h>

u32 mlxl_get(const u8 *buf, unsigned int off, unsigned int hi, unsigned int lo);
void mlxl_set(u8 *buf, unsigned int off, unsigned int hi, unsigned int lo,
	      u32 val);
u64 mlxl_get64(const u8 *buf, unsigned int off);
void mlxl_set64(u8 *buf, unsigned int off, u64 val);

#define MLXL_GET(buf, fld)		mlxl_get((buf), fld)
#define MLXL_SET(buf, fld, val)		mlxl_set((buf), fld, (val))

/* ---- init segment (BAR0 offset 0), 32-bit big-endian registers */
#define MLXL_IS_FW_REV			0x000
#define MLXL_IS_CMDIF_REV		0x004
#define MLXL_IS_CMDQ_ADDR_H		0x010
#define MLXL_IS_CMDQ_ADDR_L_SZ		0x014
#define MLXL_IS_CMD_DBELL		0x018
#define MLXL_IS_INITIALIZING		0x1fc
#define MLXL_IS_HEALTH_SYND		0x23c
#define MLXL_IS_CMD_EXEC_TO		0xff8
#define MLXL_IS_CMD_Q_INIT_TO		0xffc
#define MLXL_IS_HEALTH_COUNTER		0x1010
#define MLXL_IS_SIZE			0x1050

#define MLXL_CMDIF_REV			5
#define MLXL_INITIALIZING_BIT		0x80000000u
#define MLXL_CMDQ_ADDR_L_MASK		0xfffff000u

/* ---- command queue entry (64 bytes) */
#define MLXL_CQE_SIZE			64
#define MLXL_F_CQE_TYPE			0x00, 31, 24
#define MLXL_F_CQE_IN_LEN		0x04, 31, 0
#define MLXL_CQE_IN_PTR			0x08	/* 64-bit */
#define MLXL_CQE_IN_INLINE		0x10	/* 16 bytes */
#define MLXL_CQE_OUT_INLINE		0x20	/* 16 bytes */
#define MLXL_CQE_OUT_PTR		0x30	/* 64-bit */
#define MLXL_F_CQE_OUT_LEN		0x38, 31, 0
#define MLXL_F_CQE_TOKEN		0x3c, 31, 24
#define MLXL_F_CQE_SIG			0x3c, 23, 16
#define MLXL_F_CQE_STATUS		0x3c, 7, 1
#define MLXL_F_CQE_OWNER		0x3c, 0, 0
#define MLXL_CQE_TYPE_PCIE		7
#define MLXL_INLINE_LEN			16

/* ---- mailbox block (576 bytes, 1 KiB aligned) */
#define MLXL_MBOX_DATA_LEN		512
#define MLXL_MBOX_SIZE			576
#define MLXL_MBOX_ALIGN			1024
#define MLXL_MBOX_NEXT			0x230	/* 64-bit */
#define MLXL_F_MBOX_BLOCK_NUM		0x238, 31, 0
#define MLXL_F_MBOX_TOKEN		0x23c, 23, 16
#define MLXL_F_MBOX_CTRL_SIG		0x23c, 15, 8
#define MLXL_F_MBOX_SIG			0x23c, 7, 0

/* ---- delivery status (entry byte 0x3f, bits 7:1) */
enum mlxl_delivery {
	MLXL_DLV_OK		= 0x00,
	MLXL_DLV_SIGNATURE	= 0x01,
	MLXL_DLV_TOKEN		= 0x02,
	MLXL_DLV_BAD_BLOCK	= 0x03,
	MLXL_DLV_OUT_PTR_ALIGN	= 0x04,
	MLXL_DLV_IN_PTR_ALIGN	= 0x05,
	MLXL_DLV_FW_ERR		= 0x06,
	MLXL_DLV_IN_LEN		= 0x07,
	MLXL_DLV_OUT_LEN	= 0x08,
	MLXL_DLV_RES_FLD	= 0x09,
	MLXL_DLV_CMD_DESC	= 0x10,
};

/* ---- command status (output byte 0) */
enum mlxl_cmd_stat {
	MLXL_STAT_OK			= 0x00,
	MLXL_STAT_INT_ERR		= 0x01,
	MLXL_STAT_BAD_OP		= 0x02,
	MLXL_STAT_BAD_PARAM		= 0x03,
	MLXL_STAT_BAD_SYS_STATE		= 0x04,
	MLXL_STAT_BAD_RES		= 0x05,
	MLXL_STAT_RES_BUSY		= 0x06,
	MLXL_STAT_NOT_READY		= 0x07,
	MLXL_STAT_LIM			= 0x08,
	MLXL_STAT_BAD_RES_STATE		= 0x09,
	MLXL_STAT_IX			= 0x0a,
	MLXL_STAT_NO_RES		= 0x0f,
	MLXL_STAT_BAD_QP_STATE		= 0x10,
	MLXL_STAT_BAD_PKT		= 0x30,
	MLXL_STAT_BAD_SIZE		= 0x40,
	MLXL_STAT_BAD_INP_LEN		= 0x50,
	MLXL_STAT_BAD_OUTP_LEN		= 0x51,
	MLXL_STAT_ABORTED		= 0xfe,	/* synthesized by the driver */
};

int mlxl_cmd_status_errno(unsigned int status);
const char *mlxl_cmd_status_str(unsigned int status);
const char *mlxl_delivery_str(unsigned int dlv);

/* ---- opcodes */
enum mlxl_opcode {
	MLXL_OP_QUERY_HCA_CAP		= 0x100,
	MLXL_OP_INIT_HCA		= 0x102,
	MLXL_OP_TEARDOWN_HCA		= 0x103,
	MLXL_OP_ENABLE_HCA		= 0x104,
	MLXL_OP_DISABLE_HCA		= 0x105,
	MLXL_OP_QUERY_PAGES		= 0x107,
	MLXL_OP_MANAGE_PAGES		= 0x108,
	MLXL_OP_SET_HCA_CAP		= 0x109,
	MLXL_OP_QUERY_ISSI		= 0x10a,
	MLXL_OP_SET_ISSI		= 0x10b,
	MLXL_OP_SET_DRIVER_VERSION	= 0x10d,
	MLXL_OP_CREATE_EQ		= 0x301,
	MLXL_OP_DESTROY_EQ		= 0x302,
	MLXL_OP_ALLOC_UAR		= 0x802,
	MLXL_OP_DEALLOC_UAR		= 0x803,
	MLXL_OP_ACCESS_REG		= 0x805,
	MLXL_OP_NOP			= 0x80d,
};

/* ---- every command: header */
#define MLXL_F_IN_OPCODE		0x00, 31, 16
#define MLXL_F_IN_UID			0x00, 15, 0
#define MLXL_F_IN_OP_MOD		0x04, 15, 0
#define MLXL_F_OUT_STATUS		0x00, 31, 24
#define MLXL_F_OUT_SYNDROME		0x04, 31, 0
#define MLXL_HDR_LEN			0x10

/* ENABLE_HCA / DISABLE_HCA / QUERY_PAGES / MANAGE_PAGES in */
#define MLXL_F_FUNC_ECPU		0x08, 31, 31
#define MLXL_F_FUNC_ID			0x08, 15, 0
#define MLXL_ENABLE_HCA_OUT_LEN		0x0c

/* QUERY_ISSI out / SET_ISSI in */
#define MLXL_F_ISSI_CURRENT		0x08, 15, 0
#define MLXL_F_QUERY_ISSI_SUPPORTED	0x6c, 31, 0
#define MLXL_QUERY_ISSI_OUT_LEN		0x70

/* QUERY_PAGES */
enum { MLXL_PAGES_BOOT = 1, MLXL_PAGES_INIT = 2, MLXL_PAGES_REGULAR = 3 };
#define MLXL_F_QUERY_PAGES_NUM		0x0c, 31, 0	/* signed */

/* MANAGE_PAGES */
enum { MLXL_PAGES_CANT_GIVE = 0, MLXL_PAGES_GIVE = 1, MLXL_PAGES_TAKE = 2 };
#define MLXL_F_MANAGE_PAGES_IN_NUM	0x0c, 31, 0
#define MLXL_F_MANAGE_PAGES_OUT_NUM	0x08, 31, 0
#define MLXL_MANAGE_PAGES_PAS		0x10	/* 8 bytes per page */
#define MLXL_FW_PAGE_SIZE		4096u

/* QUERY_HCA_CAP / SET_HCA_CAP */
enum { MLXL_CAP_GENERAL = 0, MLXL_CAP_ATOMIC = 3, MLXL_CAP_ROCE = 4 };
#define MLXL_HCA_CAP_LEN		0x1000
#define MLXL_HCA_CAP_OFF		0x10	/* in QUERY out and SET in */
#define MLXL_HCA_CAP_MSG_LEN		0x1010
#define MLXL_CAP_OPMOD_CUR		1

/* cmd_hca_cap (general), offsets from the start of the capability */
#define MLXL_C_LOG_MAX_QP_SZ		0x10, 23, 16
#define MLXL_C_LOG_MAX_QP		0x10, 4, 0
#define MLXL_C_LOG_MAX_CQ_SZ		0x18, 23, 16
#define MLXL_C_LOG_MAX_CQ		0x18, 4, 0
#define MLXL_C_LOG_MAX_EQ_SZ		0x1c, 31, 24
#define MLXL_C_LOG_MAX_MKEY		0x1c, 21, 16
#define MLXL_C_LOG_MAX_EQ		0x1c, 3, 0
#define MLXL_C_RELEASE_ALL_PAGES	0x28, 26, 26
#define MLXL_C_CACHE_LINE_128		0x2c, 27, 27
#define MLXL_C_GID_TABLE_SIZE		0x2c, 15, 0
#define MLXL_C_PKEY_TABLE_SIZE		0x30, 15, 0
#define MLXL_C_PORT_TYPE		0x34, 9, 8
#define MLXL_C_NUM_PORTS		0x34, 7, 0
#define MLXL_C_CQE_VERSION		0x3c, 3, 0
#define MLXL_C_DRAIN_SIGERR		0x40, 16, 16
#define MLXL_C_CMDIF_CHECKSUM		0x40, 15, 14
#define MLXL_C_ROCE			0x40, 2, 2
#define MLXL_C_ATOMIC			0x40, 1, 1
#define MLXL_C_UD			0x44, 2, 2
#define MLXL_C_RC			0x44, 0, 0
#define MLXL_C_UAR_4K			0x48, 31, 31
#define MLXL_C_LOG_PG_SZ		0x48, 7, 0
#define MLXL_C_BF			0x4c, 31, 31
#define MLXL_C_DRIVER_VERSION		0x4c, 30, 30
#define MLXL_C_LOG_BF_REG_SIZE		0x4c, 20, 16
#define MLXL_C_LOG_MAX_PD		0x64, 20, 16
#define MLXL_C_ROCE_RW_SUPPORTED	0x74, 30, 30
#define MLXL_C_MAX_NUM_EQS		0x8c, 15, 0
#define MLXL_C_LOG_UAR_PAGE_SZ		0x90, 15, 0
#define MLXL_C_SW_OWNER_ID		0xc0, 1, 1
#define MLXL_PORT_TYPE_ETH		1

/* roce_cap */
#define MLXL_RC_ROCE_VERSION		0x10, 7, 0
#define MLXL_RC_DEST_UDP_PORT		0x14, 15, 0
#define MLXL_RC_ADDR_TABLE_SIZE		0x1c, 15, 0

/* INIT_HCA in */
#define MLXL_INIT_HCA_IN_LEN		0x20
#define MLXL_INIT_HCA_SW_OWNER_ID	0x10	/* 16 bytes */

/* TEARDOWN_HCA */
#define MLXL_F_TEARDOWN_PROFILE		0x08, 15, 0
#define MLXL_F_TEARDOWN_OUT_STATE	0x0c, 0, 0
enum { MLXL_TEARDOWN_GRACEFUL = 0, MLXL_TEARDOWN_FORCE = 1 };

/* SET_DRIVER_VERSION in */
#define MLXL_DRIVER_VERSION_OFF		0x10
#define MLXL_DRIVER_VERSION_LEN		0x40
#define MLXL_SET_DRIVER_VERSION_IN_LEN	0x50

/* ACCESS_REG */
#define MLXL_F_ACCESS_REG_ID		0x08, 15, 0
#define MLXL_F_ACCESS_REG_ARG		0x0c, 31, 0
#define MLXL_ACCESS_REG_DATA		0x10
enum { MLXL_ACCESS_REG_WRITE = 0, MLXL_ACCESS_REG_READ = 1 };
#define MLXL_REG_HOST_ENDIANNESS	0x7004
#define MLXL_REG_HOST_ENDIANNESS_LEN	16

/* ALLOC_UAR out / DEALLOC_UAR in */
#define MLXL_F_UAR			0x08, 23, 0

/* CREATE_EQ in; eqc at 0x10 */
#define MLXL_CREATE_EQ_EQC		0x10
#define MLXL_F_EQC_OI			0x10, 17, 17
#define MLXL_F_EQC_PAGE_OFFSET		0x18, 11, 6
#define MLXL_F_EQC_LOG_SIZE		0x1c, 28, 24
#define MLXL_F_EQC_UAR_PAGE		0x1c, 23, 0
#define MLXL_F_EQC_INTR			0x24, 11, 0
#define MLXL_F_EQC_LOG_PAGE_SIZE	0x28, 28, 24
#define MLXL_CREATE_EQ_BITMASK		0x58	/* 4 x 64-bit words */
#define MLXL_CREATE_EQ_PAS		0x110
#define MLXL_F_EQ_NUMBER		0x08, 7, 0	/* out; DESTROY_EQ in */
#define MLXL_EQE_SIZE			64
enum {
	MLXL_EVENT_CQ_ERROR	= 0x04,
	MLXL_EVENT_INTERNAL_ERR	= 0x08,
	MLXL_EVENT_PORT_CHANGE	= 0x09,
	MLXL_EVENT_CMD		= 0x0a,
	MLXL_EVENT_PAGE_REQ	= 0x0b,
};

/* ---- layouts as data: name and position of the fields a command uses */
struct mlxl_field {
	const char *name;
	u16 off;
	u8 hi;
	u8 lo;
};

struct mlxl_cmd_layout {
	u16 opcode;
	const char *name;
	u16 in_len;		/* fixed part; variable lists follow */
	u16 out_len;
	const struct mlxl_field *in;
	unsigned int n_in;
	const struct mlxl_field *out;
	unsigned int n_out;
};

const struct mlxl_cmd_layout *mlxl_cmd_layout_find(unsigned int opcode);
const struct mlxl_cmd_layout *mlxl_cmd_layout_at(unsigned int i);
const char *mlxl_cmd_name(unsigned int opcode);

#endif /* MLXL_IFC_H */
