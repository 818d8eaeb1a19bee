// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fwsim: init segment registers and the command transport (queue entries,
 * ownership, mailbox chains, delivery status).  Pure: builds on the host.
 *
 * Rules the transport enforces, in this order, for each posted slot:
 * the slot is hardware-owned; type is 7; the token is nonzero; lengths
 * are within FWSIM_MAX_MSG and at least a command header; when checksums
 * are on, the entry signature holds; each mailbox pointer is 1 KiB
 * aligned; block k of a chain carries block number k, the entry's token,
 * zero reserved bytes and (checksums on) valid signatures; the chain is
 * as long as the length needs.  The first failure ends the command with
 * its delivery status and ownership back to software.
 */
#include <linux/types.h>
#include "fwsim.h"

/* layout of the transport (the model's own copy; see fwsim.h) */
#define E_TYPE		0x00, 31, 24
#define E_IN_LEN	0x04, 31, 0
#define E_IN_PTR	0x08
#define E_IN_INLINE	0x10
#define E_OUT_INLINE	0x20
#define E_OUT_PTR	0x30
#define E_OUT_LEN	0x38, 31, 0
#define E_TOKEN		0x3c, 31, 24
#define E_SIG		0x3c, 23, 16
#define E_STATUS	0x3c, 7, 1
#define E_OWNER		0x3c, 0, 0
#define INLINE_LEN	16
#define BLK_DATA	512
#define BLK_SIZE	576
#define BLK_RSVD	0x200	/* 48 bytes */
#define BLK_NEXT	0x230
#define BLK_NUM		0x238, 31, 0
#define BLK_RSVD1	0x23c, 31, 24
#define BLK_TOKEN	0x23c, 23, 16
#define BLK_CTRL_SIG	0x23c, 15, 8
#define BLK_SIG		0x23c, 7, 0

enum {
	DLV_OK = 0x0, DLV_SIG = 0x1, DLV_TOKEN = 0x2, DLV_BLOCK = 0x3,
	DLV_OUT_ALIGN = 0x4, DLV_IN_ALIGN = 0x5, DLV_IN_LEN = 0x7,
	DLV_OUT_LEN = 0x8, DLV_RSVD = 0x9, DLV_DESC = 0x10,
};

/* init segment offsets */
#define IS_FW_REV	0x000
#define IS_CMDIF_REV	0x004
#define IS_CMDQ_H	0x010
#define IS_CMDQ_L	0x014
#define IS_DBELL	0x018
#define IS_INIT		0x1fc
#define IS_EXEC_TO	0xff8
#define IS_QINIT_TO	0xffc
#define IS_TIMER_H	0x1000
#define IS_TIMER_L	0x1004
#define IS_HEALTH_CNT	0x1010

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

void fwsim_bzero(void *p, u32 len)
{
	u8 *b = (u8 *)p;

	while (len--)
		*b++ = 0;
}

void fwsim_bcopy(void *dst, const void *src, u32 len)
{
	u8 *d = (u8 *)dst;
	const u8 *s = (const u8 *)src;

	while (len--)
		*d++ = *s++;
}

/*
 * The model's own big-endian accessors: it shares no code or positions with
 * the driver's mlxl_ifc.c, so that a mistake there is not repeated here.
 */
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

static u32 mask_of(u32 hi, u32 lo)
{
	u32 w = hi - lo + 1;

	return w >= 32 ? 0xffffffffu : ((1u << w) - 1) << lo;
}

u32 fwsim_rd(const u8 *buf, u32 off, u32 hi, u32 lo)
{
	return (be32_at(buf + (off & ~3u)) & mask_of(hi, lo)) >> lo;
}

void fwsim_wr(u8 *buf, u32 off, u32 hi, u32 lo, u32 val)
{
	u8 *p = buf + (off & ~3u);
	u32 m = mask_of(hi, lo);

	be32_put(p, (be32_at(p) & ~m) | ((val << lo) & m));
}

u64 fwsim_rd64(const u8 *buf, u32 off)
{
	return (u64)be32_at(buf + off) << 32 | be32_at(buf + off + 4);
}

void fwsim_wr64(u8 *buf, u32 off, u64 val)
{
	be32_put(buf + off, (u32)(val >> 32));
	be32_put(buf + off + 4, (u32)val);
}

static const char *const err_names[FWSIM_NR_ERRS] = {
	[FWSIM_E_NONE] = "none",
	[FWSIM_E_DMA] = "DMA outside host memory",
	[FWSIM_E_OWNERSHIP] = "doorbell for a software-owned slot",
	[FWSIM_E_DOORBELL] = "doorbell without a command queue",
	[FWSIM_E_TYPE] = "entry type not 7",
	[FWSIM_E_TOKEN] = "token mismatch",
	[FWSIM_E_BLOCK_NUM] = "bad mailbox block number",
	[FWSIM_E_MBOX_ALIGN] = "mailbox not 1 KiB aligned",
	[FWSIM_E_CHAIN] = "mailbox chain too short",
	[FWSIM_E_LENGTH] = "length above the model's limit",
	[FWSIM_E_SIGNATURE] = "bad signature",
	[FWSIM_E_MBOX_RSVD] = "mailbox reserved bytes not zero",
	[FWSIM_E_BAD_OPCODE] = "unknown opcode",
	[FWSIM_E_IN_LEN] = "input too short",
	[FWSIM_E_OUT_LEN] = "output too short",
	[FWSIM_E_PHASE] = "command out of phase",
	[FWSIM_E_RESERVED] = "reserved field not zero",
	[FWSIM_E_PARAM] = "bad parameter",
	[FWSIM_E_PAGE_ALIGN] = "page not 4 KiB aligned",
	[FWSIM_E_PAGE_DOUBLE] = "page given twice",
	[FWSIM_E_PAGE_EXCESS] = "more pages than owed",
	[FWSIM_E_PAGE_TAKE] = "more pages taken than held",
	[FWSIM_E_PAGES_OWED] = "pages owed",
	[FWSIM_E_PAGE_LEAK] = "pages held at DISABLE_HCA",
	[FWSIM_E_CAP_RO] = "read-only capability changed",
	[FWSIM_E_CAP_MAX] = "capability above maximum",
	[FWSIM_E_RESOURCE] = "unknown object",
	[FWSIM_E_BUSY] = "object busy",
	[FWSIM_E_LIMIT] = "no free object",
	[FWSIM_E_INJECTED] = "injected fault",
	[FWSIM_E_QP_STATE] = "QP command illegal in the QP's state",
	[FWSIM_E_QP_FIELD] = "QP field missing or not allowed",
	[FWSIM_E_INDEX] = "index out of range",
	[FWSIM_E_EQ_DOORBELL] = "bad EQ doorbell",
	[FWSIM_E_DP_DOORBELL] = "bad send or CQ doorbell",
	[FWSIM_E_DP_PRODUCER] = "SQ producer counter beyond the ring",
	[FWSIM_E_DP_WQE] = "malformed or unsupported WQE",
	[FWSIM_E_CQ_OVERRUN] = "CQ overrun",
};

const char *fwsim_err_str(enum fwsim_err e)
{
	return (unsigned int)e < N_ELEMS(err_names) ? err_names[e] : "?";
}

void fwsim_record(struct fwsim *fw, enum fwsim_err e)
{
	if ((unsigned int)e >= FWSIM_NR_ERRS || e == FWSIM_E_NONE)
		return;
	fw->err_count[e]++;
	fw->last_err = e;
	fw->nr_errs++;
}

u32 fwsim_err_count(const struct fwsim *fw, enum fwsim_err e)
{
	return (unsigned int)e < FWSIM_NR_ERRS ? fw->err_count[e] : 0;
}

static const u32 profile_fw_rev[FWSIM_NR_PROFILES][3] = {
	[FWSIM_CX4LX] = { 14, 32, 1010 },
	[FWSIM_CX5] = { 16, 35, 2000 },
	[FWSIM_CX6DX] = { 22, 36, 1010 },
	[FWSIM_CX7] = { 28, 39, 1002 },
};

void fwsim_init(struct fwsim *fw, enum fwsim_profile profile,
		const struct fwsim_ops *ops, void *ctx)
{
	const u32 *rev;

	fwsim_bzero(fw, sizeof(*fw));
	if ((unsigned int)profile >= FWSIM_NR_PROFILES)
		profile = FWSIM_CX5;
	rev = profile_fw_rev[profile];
	fw->ops = ops;
	fw->ctx = ctx;
	fw->profile = profile;
	fw->fw_rev = rev[1] << 16 | rev[0];
	fw->cmdif_rev_sub = 5u << 16 | rev[2];
	fw->initializing_until = 0;
	fw->cmdq_init_delay_ns = 1000000;	/* 1 ms */
	fw->boot_pages = 32;
	fw->init_pages = 256;
	fw->port_up = true;
	fwsim_caps_init(fw);
	fwsim_port_reset(fw);
}

static u64 now(struct fwsim *fw)
{
	return fw->ops->now_ns(fw->ctx);
}

u32 fwsim_mmio_read32(struct fwsim *fw, u32 off)
{
	switch (off) {
	case IS_FW_REV:
		return fw->fw_rev;
	case IS_CMDIF_REV:
		return fw->cmdif_rev_sub;
	case IS_CMDQ_H:
		return fw->cmdq_addr_h;
	case IS_CMDQ_L:
		return fw->cmdq_addr_l | (fw->nic_disabled ? 1u << 8 : 0) |
		       FWSIM_CMDQ_LOG_SIZE << 4 | FWSIM_CMDQ_LOG_STRIDE;
	case IS_INIT:
		/* bit 30: firmware reset supported */
		return (now(fw) < fw->initializing_until ? 0x80000000u : 0) |
		       0x40000000u;
	case IS_EXEC_TO:
	case IS_QINIT_TO:
		return 0;	/* not provided: the driver uses its defaults */
	case IS_TIMER_H:
		return (u32)(now(fw) >> 32);
	case IS_TIMER_L:
		return (u32)now(fw);
	case IS_HEALTH_CNT:
		return fwsim_health_read(fw, off);
	default:
		if (off >= 0x200 && off < 0x240)
			return fwsim_health_read(fw, off);
		return 0;
	}
}

void fwsim_mmio_write32(struct fwsim *fw, u32 off, u32 val)
{
	u32 slot;

	switch (off) {
	case IS_CMDQ_H:
		fw->cmdq_addr_h = val;
		fw->cmdq_ready = false;
		break;
	case IS_CMDQ_L:
		if (((val >> 8) & 7) == 7) {
			fwsim_func_reset(fw);	/* nic_interface = SW_RESET */
			break;
		}
		fw->nic_disabled = false;
		fw->cmdq_addr_l = val & 0xfffff000u;
		fw->cmdq_base = (u64)fw->cmdq_addr_h << 32 | fw->cmdq_addr_l;
		fw->cmdq_ready = fw->cmdq_base != 0;
		fw->initializing_until = now(fw) + fw->cmdq_init_delay_ns;
		break;
	case IS_DBELL:
		if (fw->fatal)
			break;		/* dead firmware: no completion */
		if (!fw->cmdq_ready || now(fw) < fw->initializing_until) {
			fwsim_record(fw, FWSIM_E_DOORBELL);
			break;
		}
		for (slot = 0; slot < 32; slot++) {
			if (!(val & (1u << slot)))
				continue;
			if (slot >= (1u << FWSIM_CMDQ_LOG_SIZE)) {
				fwsim_record(fw, FWSIM_E_DOORBELL);
				continue;
			}
			if (fw->hold_next) {
				fw->hold_next--;
				fw->held |= 1u << slot;
				continue;
			}
			fwsim_process_slot(fw, slot);
		}
		break;
	default:
		if (off >= FWSIM_FIRST_UAR * 4096u)
			fwsim_uar_write(fw, off, val);
		break;	/* writes to read-only registers are ignored */
	}
}

/* 64-bit writes exist only in UAR pages (CQ and send doorbells) */
void fwsim_mmio_write64(struct fwsim *fw, u32 off, u64 val)
{
	if (off < FWSIM_FIRST_UAR * 4096u || (off & 7)) {
		fwsim_record(fw, FWSIM_E_DOORBELL);
		return;
	}
	fwsim_uar_write64(fw, off, val);
}

static bool dma_rd(struct fwsim *fw, u64 addr, void *buf, u32 len)
{
	if (fw->ops->dma_read(fw->ctx, addr, buf, len)) {
		fwsim_record(fw, FWSIM_E_DMA);
		return false;
	}
	return true;
}

static bool dma_wr(struct fwsim *fw, u64 addr, const void *buf, u32 len)
{
	if (fw->ops->dma_write(fw->ctx, addr, buf, len)) {
		fwsim_record(fw, FWSIM_E_DMA);
		return false;
	}
	return true;
}

static u8 xor8(const u8 *p, u32 len)
{
	u8 x = 0;

	while (len--)
		x ^= *p++;
	return (u8)~x;
}

static bool checksums_on(const struct fwsim *fw)
{
	/* cmdif_checksum of the current general caps, @0x40[15:14] */
	return fwsim_rd(fw->caps[0][1], 0x40, 15, 14) != 0;
}

/*
 * Walk the chain at ptr for len bytes beyond the inline part; copy the
 * data into buf (input) or record the block addresses (output).
 * Returns the delivery status.
 */
static u8 walk_chain(struct fwsim *fw, u64 ptr, u32 len, u8 token, bool input,
		     u8 *buf)
{
	u8 blk[BLK_SIZE];
	u32 nblocks = (len + BLK_DATA - 1) / BLK_DATA;
	u32 k, i, chunk;

	for (k = 0; k < nblocks; k++) {
		if (!ptr) {
			fwsim_record(fw, FWSIM_E_CHAIN);
			return input ? DLV_IN_LEN : DLV_OUT_LEN;
		}
		if (ptr & 0x3ff) {
			fwsim_record(fw, FWSIM_E_MBOX_ALIGN);
			return input ? DLV_IN_ALIGN : DLV_OUT_ALIGN;
		}
		if (!dma_rd(fw, ptr, blk, BLK_SIZE))
			return DLV_DESC;
		if (fwsim_rd(blk, BLK_NUM) != k) {
			fwsim_record(fw, FWSIM_E_BLOCK_NUM);
			return DLV_BLOCK;
		}
		if (fwsim_rd(blk, BLK_TOKEN) != token) {
			fwsim_record(fw, FWSIM_E_TOKEN);
			return DLV_TOKEN;
		}
		for (i = 0; i < 48; i++)
			if (blk[BLK_RSVD + i])
				break;
		if (i < 48 || fwsim_rd(blk, BLK_RSVD1)) {
			fwsim_record(fw, FWSIM_E_MBOX_RSVD);
			return DLV_RSVD;
		}
		if (checksums_on(fw) &&
		    (xor8(blk + BLK_RSVD, 0x3e) != blk[0x23e] ||
		     (input && xor8(blk, 0x23f) != blk[0x23f]))) {
			fwsim_record(fw, FWSIM_E_SIGNATURE);
			return DLV_SIG;
		}
		chunk = len - k * BLK_DATA;
		if (chunk > BLK_DATA)
			chunk = BLK_DATA;
		if (input)
			fwsim_bcopy(buf + INLINE_LEN + k * BLK_DATA, blk, chunk);
		else
			fw->out_blocks[k] = ptr;
		ptr = fwsim_rd64(blk, BLK_NEXT);
	}
	return DLV_OK;
}

static void trace_add(struct fwsim *fw, const struct fwsim_cmd *cmd, u8 dlv)
{
	struct fwsim_trace_ent *t = &fw->trace[fw->trace_pos % FWSIM_TRACE_LEN];

	t->opcode = cmd->opcode;
	t->op_mod = cmd->op_mod;
	t->in_len = cmd->in_len;
	t->out_len = cmd->out_len;
	t->delivery = dlv;
	t->status = cmd->status;
	t->syndrome = cmd->syndrome;
	t->phase = (u8)fw->phase;
	fw->trace_pos++;
}

const struct fwsim_trace_ent *fwsim_trace_get(const struct fwsim *fw, u32 i)
{
	if (i >= fw->trace_pos || fw->trace_pos - i > FWSIM_TRACE_LEN)
		return NULL;
	return &fw->trace[i % FWSIM_TRACE_LEN];
}

static u8 execute(struct fwsim *fw, struct fwsim_cmd *cmd, u64 addr)
{
	u8 *e = fw->entry;
	u8 token = (u8)fwsim_rd(e, E_TOKEN);
	u32 in_len = fwsim_rd(e, E_IN_LEN);
	u32 out_len = fwsim_rd(e, E_OUT_LEN);
	u32 k, nblk, chunk;
	u8 dlv;

	cmd->in_len = in_len;
	cmd->out_len = out_len;
	if (fwsim_rd(e, E_TYPE) != 7) {
		fwsim_record(fw, FWSIM_E_TYPE);
		return DLV_DESC;
	}
	if (!token) {
		fwsim_record(fw, FWSIM_E_TOKEN);
		return DLV_TOKEN;
	}
	if (in_len < 8 || in_len > FWSIM_MAX_MSG) {
		fwsim_record(fw, in_len < 8 ? FWSIM_E_IN_LEN : FWSIM_E_LENGTH);
		return DLV_IN_LEN;
	}
	if (out_len < 8 || out_len > FWSIM_MAX_MSG) {
		fwsim_record(fw, out_len < 8 ? FWSIM_E_OUT_LEN : FWSIM_E_LENGTH);
		return DLV_OUT_LEN;
	}
	if (checksums_on(fw)) {
		u8 sig = e[0x3d];
		u8 st = e[0x3f];

		/* signature covers the entry with itself and the status zeroed */
		e[0x3d] = 0;
		e[0x3f] = st & 1;
		if (xor8(e, 64) != sig) {
			e[0x3d] = sig;
			e[0x3f] = st;
			fwsim_record(fw, FWSIM_E_SIGNATURE);
			return DLV_SIG;
		}
		e[0x3d] = sig;
		e[0x3f] = st;
	}

	fwsim_bzero(fw->in, in_len);
	fwsim_bcopy(fw->in, e + E_IN_INLINE,
		    in_len < INLINE_LEN ? in_len : INLINE_LEN);
	if (in_len > INLINE_LEN) {
		dlv = walk_chain(fw, fwsim_rd64(e, E_IN_PTR),
				 in_len - INLINE_LEN, token, true, fw->in);
		if (dlv)
			return dlv;
	}
	if (out_len > INLINE_LEN) {
		dlv = walk_chain(fw, fwsim_rd64(e, E_OUT_PTR),
				 out_len - INLINE_LEN, token, false, NULL);
		if (dlv)
			return dlv;
	}

	cmd->opcode = (u16)fwsim_rd(fw->in, 0x00, 31, 16);
	cmd->op_mod = (u16)fwsim_rd(fw->in, 0x04, 15, 0);
	fwsim_bzero(fw->out, out_len);
	fwsim_hca_dispatch(fw, cmd);
	fwsim_wr(fw->out, 0x00, 31, 24, cmd->status);
	fwsim_wr(fw->out, 0x04, 31, 0, cmd->status ? cmd->syndrome : 0);

	/* scatter */
	fwsim_bcopy(e + E_OUT_INLINE, fw->out,
		    out_len < INLINE_LEN ? out_len : INLINE_LEN);
	if (out_len > INLINE_LEN) {
		nblk = (out_len - INLINE_LEN + BLK_DATA - 1) / BLK_DATA;
		for (k = 0; k < nblk; k++) {
			chunk = out_len - INLINE_LEN - k * BLK_DATA;
			if (chunk > BLK_DATA)
				chunk = BLK_DATA;
			if (!dma_wr(fw, fw->out_blocks[k],
				    fw->out + INLINE_LEN + k * BLK_DATA, chunk))
				return DLV_DESC;
		}
	}
	(void)addr;
	return DLV_OK;
}

void fwsim_process_slot(struct fwsim *fw, u32 slot)
{
	u64 addr = fw->cmdq_base + ((u64)slot << FWSIM_CMDQ_LOG_STRIDE);
	struct fwsim_cmd cmd;
	u8 dlv;

	fwsim_bzero(&cmd, sizeof(cmd));
	if (!dma_rd(fw, addr, fw->entry, 64))
		return;
	if (!fwsim_rd(fw->entry, E_OWNER)) {
		fwsim_record(fw, FWSIM_E_OWNERSHIP);
		return;		/* hardware ignores the doorbell */
	}
	dlv = execute(fw, &cmd, addr);
	trace_add(fw, &cmd, dlv);
	fwsim_wr(fw->entry, E_STATUS, dlv);
	fwsim_wr(fw->entry, E_OWNER, 0);
	if (checksums_on(fw)) {
		fw->entry[0x3d] = 0;
		fw->entry[0x3d] = xor8(fw->entry, 64);
	}
	if (dma_wr(fw, addr, fw->entry, 64))
		fwsim_eq_cmd_done(fw, slot);
}
