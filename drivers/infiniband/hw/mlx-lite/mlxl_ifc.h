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
	MLXL_OP_QUERY_ADAPTER		= 0x101,
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
	MLXL_OP_CREATE_MKEY		= 0x200,
	MLXL_OP_QUERY_MKEY		= 0x201,
	MLXL_OP_DESTROY_MKEY		= 0x202,
	MLXL_OP_CREATE_EQ		= 0x301,
	MLXL_OP_DESTROY_EQ		= 0x302,
	MLXL_OP_CREATE_CQ		= 0x400,
	MLXL_OP_DESTROY_CQ		= 0x401,
	MLXL_OP_QUERY_CQ		= 0x402,
	MLXL_OP_MODIFY_CQ		= 0x403,
	MLXL_OP_CREATE_QP		= 0x500,
	MLXL_OP_DESTROY_QP		= 0x501,
	MLXL_OP_RST2INIT_QP		= 0x502,
	MLXL_OP_INIT2RTR_QP		= 0x503,
	MLXL_OP_RTR2RTS_QP		= 0x504,
	MLXL_OP_RTS2RTS_QP		= 0x505,
	MLXL_OP_SQERR2RTS_QP		= 0x506,
	MLXL_OP_2ERR_QP			= 0x507,
	MLXL_OP_2RST_QP			= 0x50a,
	MLXL_OP_QUERY_QP		= 0x50b,
	MLXL_OP_INIT2INIT_QP		= 0x50e,
	MLXL_OP_CREATE_SRQ		= 0x700,
	MLXL_OP_DESTROY_SRQ		= 0x701,
	MLXL_OP_QUERY_SRQ		= 0x702,
	MLXL_OP_ARM_RQ			= 0x703,
	MLXL_OP_QUERY_NIC_VPORT_CONTEXT	= 0x754,
	MLXL_OP_MODIFY_NIC_VPORT_CONTEXT = 0x755,
	MLXL_OP_QUERY_ROCE_ADDRESS	= 0x760,
	MLXL_OP_SET_ROCE_ADDRESS	= 0x761,
	MLXL_OP_ALLOC_PD		= 0x800,
	MLXL_OP_DEALLOC_PD		= 0x801,
	MLXL_OP_ALLOC_UAR		= 0x802,
	MLXL_OP_DEALLOC_UAR		= 0x803,
	MLXL_OP_ACCESS_REG		= 0x805,
	MLXL_OP_NOP			= 0x80d,
	MLXL_OP_ALLOC_TRANSPORT_DOMAIN	= 0x816,
	MLXL_OP_DEALLOC_TRANSPORT_DOMAIN = 0x817,
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

/* QUERY_ADAPTER out: vendor ids and the board id (PSID) */
#define MLXL_F_QA_IEEE_VENDOR_ID	0x28, 23, 0
#define MLXL_F_QA_VSD_VENDOR_ID		0x2c, 15, 0
#define MLXL_QA_PSID			0x100	/* 16 bytes, NUL-padded */
#define MLXL_PSID_LEN			16
#define MLXL_QUERY_ADAPTER_OUT_LEN	0x110

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
#define MLXL_C_LOG_MAX_SRQ		0x14, 20, 16
#define MLXL_C_LOG_MAX_SRQ_SZ		0x10, 31, 24
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
#define MLXL_C_CQ_MODERATION		0x44, 29, 29
#define MLXL_C_UD			0x44, 2, 2
#define MLXL_C_RC			0x44, 0, 0
#define MLXL_C_UAR_4K			0x48, 31, 31
#define MLXL_C_LOG_PG_SZ		0x48, 7, 0
#define MLXL_C_BF			0x4c, 31, 31
#define MLXL_C_DRIVER_VERSION		0x4c, 30, 30
#define MLXL_C_LOG_BF_REG_SIZE		0x4c, 20, 16
#define MLXL_C_LOG_MAX_TRANSPORT_DOMAIN	0x64, 28, 24
#define MLXL_C_LOG_MAX_PD		0x64, 20, 16
#define MLXL_C_ROCE_RW_SUPPORTED	0x74, 30, 30
#define MLXL_C_MAX_NUM_EQS		0x8c, 15, 0
#define MLXL_C_LOG_UAR_PAGE_SZ		0x90, 15, 0
#define MLXL_C_NUM_VHCA_PORTS		0xc0, 15, 8
#define MLXL_C_SW_OWNER_ID		0xc0, 1, 1
#define MLXL_PORT_TYPE_ETH		1

/* roce_cap */
#define MLXL_RC_QP_TS_FORMAT		0x00, 1, 0
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

/* ---- object commands (RoCE kernel verbs) */

/* ALLOC_PD out / DEALLOC_PD in; the transport domain likewise */
#define MLXL_F_PD			0x08, 23, 0
#define MLXL_F_TRANSPORT_DOMAIN		0x08, 23, 0

/* CREATE_MKEY in; mkc at 0x10 (also QUERY_MKEY out) */
#define MLXL_MKC			0x10	/* 64 bytes */
#define MLXL_F_MKC_A			0x10, 14, 14
#define MLXL_F_MKC_RW			0x10, 13, 13
#define MLXL_F_MKC_RR			0x10, 12, 12
#define MLXL_F_MKC_LW			0x10, 11, 11
#define MLXL_F_MKC_LR			0x10, 10, 10
#define MLXL_F_MKC_ACCESS_MODE_1_0	0x10, 9, 8
#define MLXL_F_MKC_QPN			0x14, 31, 8
#define MLXL_F_MKC_MKEY_7_0		0x14, 7, 0
#define MLXL_F_MKC_LENGTH64		0x1c, 31, 31
#define MLXL_F_MKC_PD			0x1c, 23, 0
#define MLXL_MKC_START_ADDR		0x20	/* 64-bit */
#define MLXL_MKC_LEN			0x28	/* 64-bit */
#define MLXL_F_MKC_XLT_OCTWORD_SIZE	0x44, 31, 0
#define MLXL_F_MKC_LOG_PAGE_SIZE	0x48, 5, 0	/* absolute shift */
#define MLXL_F_CREATE_MKEY_XLT_ACTUAL	0x60, 31, 0
#define MLXL_CREATE_MKEY_MTT		0x110	/* 8 bytes per entry */
#define MLXL_F_MKEY_INDEX		0x08, 23, 0	/* out; in of the rest */
#define MLXL_QUERY_MKEY_OUT_LEN		0x130
#define MLXL_MKC_QPN_NONE		0xffffff
enum { MLXL_MKC_ACCESS_PA = 0, MLXL_MKC_ACCESS_MTT = 1 };
enum { MLXL_MTT_READ = 1, MLXL_MTT_WRITE = 2 };

/* CREATE_CQ / MODIFY_CQ in, QUERY_CQ out; cqc at 0x10 */
#define MLXL_CQC			0x10	/* 64 bytes */
#define MLXL_F_CQC_CQE_SZ		0x10, 23, 21
#define MLXL_F_CQC_OI			0x10, 17, 17
#define MLXL_F_CQC_PERIOD_MODE		0x10, 16, 15
#define MLXL_F_CQC_PAGE_OFFSET		0x18, 11, 6
#define MLXL_F_CQC_LOG_SIZE		0x1c, 28, 24
#define MLXL_F_CQC_UAR_PAGE		0x1c, 23, 0
#define MLXL_F_CQC_PERIOD		0x20, 27, 16
#define MLXL_F_CQC_MAX_COUNT		0x20, 15, 0
#define MLXL_F_CQC_C_EQN		0x24, 31, 0
#define MLXL_F_CQC_LOG_PAGE_SIZE	0x28, 28, 24	/* relative to 4 KiB */
#define MLXL_CQC_DBR_ADDR		0x48	/* 64-bit */
#define MLXL_CREATE_CQ_PAS		0x110
#define MLXL_F_CQN			0x08, 23, 0	/* out; in of the rest */
#define MLXL_F_MODIFY_CQ_SELECT		0x0c, 31, 0
#define MLXL_QUERY_CQ_OUT_LEN		0x110
enum { MLXL_MODIFY_CQ_PERIOD = 1u << 0, MLXL_MODIFY_CQ_COUNT = 1u << 1 };
/* MODIFY_CQ op_mod 1 resizes: select bits, PAS list at 0x110 */
enum { MLXL_MODIFY_CQ_OPMOD_RESIZE = 1, MLXL_RESIZE_CQ_LOG_SIZE = 1u << 0,
       MLXL_RESIZE_CQ_PG_OFFSET = 1u << 1, MLXL_RESIZE_CQ_PG_SIZE = 1u << 2 };
#define MLXL_MODIFY_CQ_PAS		0x110

/* CREATE_SRQ in, QUERY_SRQ out; srqc at 0x10 */
#define MLXL_SRQC			0x10	/* 64 bytes */
#define MLXL_F_SRQC_LOG_SIZE		0x10, 27, 24
#define MLXL_F_SRQC_RLKY		0x14, 28, 28
#define MLXL_F_SRQC_LOG_RQ_STRIDE	0x14, 26, 24
#define MLXL_F_SRQC_PAGE_OFFSET		0x18, 31, 26
#define MLXL_F_SRQC_CQN			0x18, 23, 0
#define MLXL_F_SRQC_LOG_PAGE_SIZE	0x20, 29, 24
#define MLXL_F_SRQC_PD			0x28, 23, 0
#define MLXL_F_SRQC_LWM			0x2c, 31, 16
/* ARM_RQ in (op_mod 1: an SRQ): srq number, limit (lwm) */
#define MLXL_F_ARM_RQ_SRQN		0x08, 23, 0
#define MLXL_F_ARM_RQ_LWM		0x0c, 15, 0
enum { MLXL_ARM_RQ_OPMOD_SRQ = 1 };
#define MLXL_SRQC_DBR_ADDR		0x38	/* 64-bit */
#define MLXL_CREATE_SRQ_PAS		0x110
#define MLXL_F_SRQN			0x08, 23, 0	/* out; in of the rest */
#define MLXL_QUERY_SRQ_OUT_LEN		0x110

/* QP commands: qpn, opt_param_mask, qpc at 0x18 (also QUERY_QP out) */
#define MLXL_F_QPN			0x08, 23, 0
#define MLXL_F_QP_OPT_PARAM_MASK	0x10, 31, 0
#define MLXL_QPC			0x18	/* 0xe8 bytes */
#define MLXL_F_QPC_STATE		0x18, 31, 28
#define MLXL_F_QPC_ST			0x18, 23, 16
#define MLXL_F_QPC_PM_STATE		0x18, 12, 11
#define MLXL_F_QPC_PD			0x1c, 23, 0
#define MLXL_F_QPC_MTU			0x20, 31, 29
#define MLXL_F_QPC_LOG_MSG_MAX		0x20, 28, 24
#define MLXL_F_QPC_LOG_RQ_SIZE		0x20, 22, 19
#define MLXL_F_QPC_LOG_RQ_STRIDE	0x20, 18, 16
#define MLXL_F_QPC_NO_SQ		0x20, 15, 15
#define MLXL_F_QPC_LOG_SQ_SIZE		0x20, 14, 11
#define MLXL_F_QPC_TS_FORMAT		0x20, 7, 6
#define MLXL_F_QPC_RLKY			0x20, 4, 4
#define MLXL_F_QPC_UAR_PAGE		0x24, 23, 0
#define MLXL_F_QPC_USER_INDEX		0x28, 23, 0
#define MLXL_F_QPC_LOG_PAGE_SIZE	0x2c, 28, 24
#define MLXL_F_QPC_REMOTE_QPN		0x2c, 23, 0
/* primary address path (ads) at qpc + 0x18 */
#define MLXL_F_ADS_PKEY_INDEX		0x30, 15, 0
#define MLXL_F_ADS_ACK_TIMEOUT		0x38, 31, 27
#define MLXL_F_ADS_SRC_ADDR_INDEX	0x38, 23, 16
#define MLXL_F_ADS_STAT_RATE		0x38, 11, 8
#define MLXL_F_ADS_HOP_LIMIT		0x38, 7, 0
#define MLXL_F_ADS_TCLASS		0x3c, 27, 20
#define MLXL_F_ADS_FLOW_LABEL		0x3c, 19, 0
#define MLXL_ADS_RGID_RIP		0x40	/* 16 bytes */
#define MLXL_F_ADS_ECN			0x50, 23, 22
#define MLXL_F_ADS_DSCP			0x50, 21, 16
#define MLXL_F_ADS_UDP_SPORT		0x50, 15, 0
#define MLXL_F_ADS_ETH_PRIO		0x54, 30, 28
#define MLXL_F_ADS_SL			0x54, 27, 24
#define MLXL_F_ADS_VHCA_PORT_NUM	0x54, 23, 16
#define MLXL_F_ADS_RMAC_47_32		0x54, 15, 0
#define MLXL_F_ADS_RMAC_31_0		0x58, 31, 0
#define MLXL_F_QPC_LOG_SRA_MAX		0x88, 23, 21
#define MLXL_F_QPC_RETRY_COUNT		0x88, 18, 16
#define MLXL_F_QPC_RNR_RETRY		0x88, 15, 13
#define MLXL_F_QPC_FRE			0x88, 11, 11
#define MLXL_F_QPC_NEXT_SEND_PSN	0x90, 23, 0
#define MLXL_F_QPC_CQN_SND		0x94, 23, 0
#define MLXL_F_QPC_LOG_RRA_MAX		0xa8, 23, 21
#define MLXL_F_QPC_RRE			0xa8, 15, 15
#define MLXL_F_QPC_RWE			0xa8, 14, 14
#define MLXL_F_QPC_RAE			0xa8, 13, 13
#define MLXL_F_QPC_PAGE_OFFSET		0xa8, 11, 6
#define MLXL_F_QPC_MIN_RNR_NAK		0xac, 28, 24
#define MLXL_F_QPC_NEXT_RCV_PSN		0xac, 23, 0
#define MLXL_F_QPC_CQN_RCV		0xb4, 23, 0
#define MLXL_QPC_DBR_ADDR		0xb8	/* 64-bit */
#define MLXL_F_QPC_Q_KEY		0xc0, 31, 0
#define MLXL_F_QPC_RQ_TYPE		0xc4, 26, 24
#define MLXL_F_QPC_SRQN			0xc4, 23, 0
#define MLXL_CREATE_QP_PAS		0x110
#define MLXL_QP_MODIFY_IN_LEN		0x110
#define MLXL_QUERY_QP_OUT_LEN		0x110

enum mlxl_qp_state {
	MLXL_QPS_RST = 0, MLXL_QPS_INIT = 1, MLXL_QPS_RTR = 2, MLXL_QPS_RTS = 3,
	MLXL_QPS_SQER = 4, MLXL_QPS_ERR = 6,
};
enum { MLXL_QPT_RC = 0x0, MLXL_QPT_UD = 0x2, MLXL_QPT_GSI = 0x8 };
enum { MLXL_QP_PM_MIGRATED = 3 };
enum { MLXL_RQ_REGULAR = 0, MLXL_RQ_SRQ = 1, MLXL_RQ_ZERO = 3 };
enum {
	MLXL_QP_OPT_RRE		= 1u << 1,
	MLXL_QP_OPT_RAE		= 1u << 2,
	MLXL_QP_OPT_RWE		= 1u << 3,
	MLXL_QP_OPT_PKEY_INDEX	= 1u << 4,
	MLXL_QP_OPT_Q_KEY	= 1u << 5,
	MLXL_QP_OPT_RNR_TIMEOUT	= 1u << 6,
	MLXL_QP_OPT_PRI_PATH	= 1u << 7,
	MLXL_QP_OPT_SRA_MAX	= 1u << 8,
	MLXL_QP_OPT_RRA_MAX	= 1u << 9,
	MLXL_QP_OPT_RETRY_COUNT	= 1u << 12,
	MLXL_QP_OPT_RNR_RETRY	= 1u << 13,
	MLXL_QP_OPT_ACK_TIMEOUT	= 1u << 14,
	MLXL_QP_OPT_PRI_PORT	= 1u << 16,
};

/* SET_ROCE_ADDRESS in / QUERY_ROCE_ADDRESS in; roce_addr_layout at 0x10
 * (in SET's input and QUERY's output) */
#define MLXL_F_ROCE_ADDR_INDEX		0x08, 31, 16
#define MLXL_F_ROCE_ADDR_PORT		0x08, 3, 0
#define MLXL_ROCE_ADDR			0x10	/* 32 bytes */
#define MLXL_ROCE_ADDR_GID		0x10	/* 16 bytes */
#define MLXL_F_ROCE_ADDR_VLAN_VALID	0x20, 28, 28
#define MLXL_F_ROCE_ADDR_VLAN_ID	0x20, 27, 16
#define MLXL_F_ROCE_ADDR_MAC_47_32	0x20, 15, 0
#define MLXL_F_ROCE_ADDR_MAC_31_0	0x24, 31, 0
#define MLXL_F_ROCE_ADDR_L3_TYPE	0x28, 11, 8
#define MLXL_F_ROCE_ADDR_VERSION	0x28, 7, 0
#define MLXL_SET_ROCE_ADDRESS_IN_LEN	0x30
#define MLXL_QUERY_ROCE_ADDRESS_OUT_LEN	0x30
enum { MLXL_ROCE_L3_IPV4 = 0, MLXL_ROCE_L3_IPV6 = 1 };
enum { MLXL_ROCE_V1 = 0, MLXL_ROCE_V2 = 2 };

/* QUERY_NIC_VPORT_CONTEXT (context out at 0x10) and
 * MODIFY_NIC_VPORT_CONTEXT (context in at 0x100) */
#define MLXL_F_VPORT_OTHER		0x08, 31, 31
#define MLXL_F_VPORT_NUMBER		0x08, 15, 0
#define MLXL_F_MODIFY_VPORT_SELECT	0x0c, 31, 0
#define MLXL_QUERY_NIC_VPORT_OUT_LEN	0x110
#define MLXL_MODIFY_NIC_VPORT_IN_LEN	0x200
#define MLXL_F_NVQ_DISABLE_MC_LB	0x10, 2, 2
#define MLXL_F_NVQ_DISABLE_UC_LB	0x10, 1, 1
#define MLXL_F_NVQ_ROCE_EN		0x10, 0, 0
#define MLXL_F_NVQ_MTU			0x34, 15, 0
#define MLXL_F_NVQ_PERM_MAC_47_32	0x104, 15, 0
#define MLXL_F_NVQ_PERM_MAC_31_0	0x108, 31, 0
#define MLXL_F_NVM_DISABLE_MC_LB	0x100, 2, 2
#define MLXL_F_NVM_DISABLE_UC_LB	0x100, 1, 1
#define MLXL_F_NVM_ROCE_EN		0x100, 0, 0
#define MLXL_F_NVM_MTU			0x124, 15, 0
#define MLXL_F_NVM_PERM_MAC_47_32	0x1f4, 15, 0
#define MLXL_F_NVM_PERM_MAC_31_0	0x1f8, 31, 0
enum {
	MLXL_VPORT_SEL_ROCE_EN		= 1u << 1,
	MLXL_VPORT_SEL_PERM_ADDR	= 1u << 3,
	MLXL_VPORT_SEL_MTU		= 1u << 6,
	MLXL_VPORT_SEL_DISABLE_MC_LB	= 1u << 10,
	MLXL_VPORT_SEL_DISABLE_UC_LB	= 1u << 11,
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
