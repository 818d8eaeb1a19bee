// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: data path formats (mlxl_wqe.h).  Pure: the segments are
 * written byte by byte, big-endian, into buffers the caller owns.
 */
#include "mlxl_wqe.h"

#define MLXL_EINVAL	22

static void put8(u8 *p, u32 off, u8 v)
{
	p[off] = v;
}

static void put16(u8 *p, u32 off, u16 v)
{
	p[off] = (u8)(v >> 8);
	p[off + 1] = (u8)v;
}

static void put32(u8 *p, u32 off, u32 v)
{
	p[off] = (u8)(v >> 24);
	p[off + 1] = (u8)(v >> 16);
	p[off + 2] = (u8)(v >> 8);
	p[off + 3] = (u8)v;
}

static void put64(u8 *p, u32 off, u64 v)
{
	put32(p, off, (u32)(v >> 32));
	put32(p, off + 4, (u32)v);
}

static u32 get32(const u8 *p, u32 off)
{
	return (u32)p[off] << 24 | (u32)p[off + 1] << 16 |
	       (u32)p[off + 2] << 8 | p[off + 3];
}

/* the opcodes and their segments; one row per supported work request */
static const struct mlxl_wr_op wr_ops[] = {
	{ MLXL_WR_SEND, MLXL_WQE_SEND, MLXL_WC_SEND,
	  MLXL_SEG_DATA | MLXL_QP_RC | MLXL_QP_UD },
	{ MLXL_WR_SEND_IMM, MLXL_WQE_SEND_IMM, MLXL_WC_SEND,
	  MLXL_SEG_DATA | MLXL_QP_RC | MLXL_QP_UD },
	{ MLXL_WR_SEND_INV, MLXL_WQE_SEND_INV, MLXL_WC_SEND,
	  MLXL_SEG_DATA | MLXL_QP_RC },
	{ MLXL_WR_RDMA_WRITE, MLXL_WQE_RDMA_WRITE, MLXL_WC_RDMA_WRITE,
	  MLXL_SEG_RADDR | MLXL_SEG_DATA | MLXL_QP_RC },
	{ MLXL_WR_RDMA_WRITE_IMM, MLXL_WQE_RDMA_WRITE_IMM, MLXL_WC_RDMA_WRITE,
	  MLXL_SEG_RADDR | MLXL_SEG_DATA | MLXL_QP_RC },
	{ MLXL_WR_RDMA_READ, MLXL_WQE_RDMA_READ, MLXL_WC_RDMA_READ,
	  MLXL_SEG_RADDR | MLXL_SEG_DATA | MLXL_QP_RC },
	{ MLXL_WR_ATOMIC_CS, MLXL_WQE_ATOMIC_CS, MLXL_WC_COMP_SWAP,
	  MLXL_SEG_RADDR | MLXL_SEG_ATOMIC | MLXL_SEG_DATA | MLXL_QP_RC },
	{ MLXL_WR_ATOMIC_FA, MLXL_WQE_ATOMIC_FA, MLXL_WC_FETCH_ADD,
	  MLXL_SEG_RADDR | MLXL_SEG_ATOMIC | MLXL_SEG_DATA | MLXL_QP_RC },
	{ MLXL_WR_LOCAL_INV, MLXL_WQE_UMR, MLXL_WC_LOCAL_INV,
	  MLXL_SEG_UMR | MLXL_QP_RC },
	{ MLXL_WR_REG_MR, MLXL_WQE_UMR, MLXL_WC_REG_MR,
	  MLXL_SEG_UMR | MLXL_QP_RC },
};

const struct mlxl_wr_op *mlxl_wr_op(u32 wr)
{
	u32 i;

	for (i = 0; i < sizeof(wr_ops) / sizeof(wr_ops[0]); i++)
		if (wr_ops[i].wr == wr)
			return &wr_ops[i];
	return NULL;
}

/* the 48-byte datagram segment of an address vector */
static void put_dgram(u8 *p, const struct mlxl_swr *w)
{
	const struct mlxl_av *av = w->av;
	u32 i;

	put32(p, 0, w->qkey);
	put32(p, 8, 0x80000000u | (w->dqpn & 0xffffff));	/* extended AV */
	put8(p, 12, (u8)(av->stat_rate << 4 | (av->sl & 7) << 1));
	put16(p, 14, (u16)(0xc000 | (av->flow_label & 0x3fff)));  /* udp sport */
	for (i = 0; i < 6; i++)
		put8(p, 20 + i, av->rmac[i]);
	put8(p, 26, av->tclass);
	put8(p, 27, av->hop_limit);
	put32(p, 28, 1u << 30 | (u32)av->sgid_index << 20 |
	      (av->flow_label & 0xfffff));
	for (i = 0; i < 16; i++)
		put8(p, 32 + i, av->rgid[i]);
}

/* UMR ctrl + mkey context (+ inline pages) of LOCAL_INV / REG_MR; bytes */
static int put_umr(u8 *p, u32 room, const struct mlxl_swr *w)
{
	u32 pbytes, i;

	if (w->opcode == MLXL_WR_LOCAL_INV) {
		put8(p, 0, MLXL_UMR_CHECK_NOT_FREE);
		put64(p, 8, MLXL_MASK_FREE);
		put8(p, 48, MLXL_MKEY_FREE);
		return 48 + 64;
	}
	if (!w->npages || w->npages > MLXL_UMR_MAX_PAGES)
		return -MLXL_EINVAL;
	pbytes = (w->npages * 8 + 63) & ~63u;
	if (48 + 64 + pbytes > room)
		return -MLXL_EINVAL;
	put8(p, 0, MLXL_UMR_CHECK_NOT_FREE | MLXL_UMR_INLINE);
	put16(p, 4, (u16)(pbytes / 16));
	put64(p, 8, MLXL_MASK_LEN | MLXL_MASK_PAGE_SIZE |
	      MLXL_MASK_START_ADDR | MLXL_MASK_EN_RINVAL | MLXL_MASK_KEY |
	      MLXL_MASK_LR | MLXL_MASK_LW | MLXL_MASK_RR | MLXL_MASK_RW |
	      MLXL_MASK_A | MLXL_MASK_FREE);
	p += 48;
	put8(p, 2, (u8)(w->perm | MLXL_MKEY_ACCESS_MTT));
	put32(p, 4, 0xffffff00u | (w->mkey & 0xff));
	put32(p, 12, 1u << 24);		/* remote invalidation allowed */
	put64(p, 16, w->iova);
	put64(p, 24, w->length);
	put32(p, 52, pbytes / 16);
	put8(p, 59, (u8)w->page_shift);
	p += 64;
	for (i = 0; i < w->npages; i++)
		put64(p, 8 * i, w->pages[i] | 3);	/* read and write */
	return 48 + 64 + (int)pbytes;
}

/* gather list or inline data at p; bytes, or -EINVAL */
static int put_data(u8 *p, u32 room, const struct mlxl_swr *w,
		    u32 max_inline)
{
	u32 i, len = 0, off = 4;

	if (!(w->flags & MLXL_SF_INLINE)) {
		if (w->num_sge * MLXL_DS > room)
			return -MLXL_EINVAL;
		for (i = 0; i < w->num_sge; i++) {
			put32(p, 16 * i, w->sg[i].length);
			put32(p, 16 * i + 4, w->sg[i].lkey);
			put64(p, 16 * i + 8, w->sg[i].addr);
		}
		return (int)(w->num_sge * MLXL_DS);
	}
	for (i = 0; i < w->num_sge; i++)
		len += w->sg[i].length;
	if (len > max_inline || 4 + len > room)
		return -MLXL_EINVAL;
	for (i = 0; i < w->num_sge; i++) {
		const u8 *src = (const u8 *)(unsigned long)w->sg[i].addr;
		u32 k;

		for (k = 0; k < w->sg[i].length; k++)
			p[off++] = src[k];
	}
	put32(p, 0, MLXL_INLINE_BIT | len);
	return len ? (int)((4 + len + 15) & ~15u) : 16;
}

int mlxl_wqe_build(u8 *buf, u8 st, u32 qpn, u32 pc, const struct mlxl_swr *w,
		   u32 max_inline)
{
	const struct mlxl_wr_op *op = mlxl_wr_op(w->opcode);
	u32 off = 16, i;
	u8 fm = 0;
	int n;

	for (i = 0; i < MLXL_MAX_WQE_BYTES; i++)
		buf[i] = 0;
	if (!op || !(op->segs & (st == MLXL_QPT_RC ? MLXL_QP_RC : MLXL_QP_UD)))
		return -MLXL_EINVAL;
	if (st != MLXL_QPT_RC) {
		if (!w->av)
			return -MLXL_EINVAL;
		put_dgram(buf + off, w);
		off += 48;
	}
	if (op->segs & MLXL_SEG_RADDR) {
		put64(buf, off, w->raddr);
		put32(buf, off + 8, w->rkey);
		off += 16;
	}
	if (op->segs & MLXL_SEG_ATOMIC) {
		put64(buf, off, w->swap_add);
		put64(buf, off + 8, w->opcode == MLXL_WR_ATOMIC_CS ? w->compare : 0);
		off += 16;
	}
	if (op->segs & MLXL_SEG_UMR)
		n = put_umr(buf + off, MLXL_MAX_WQE_BYTES - off, w);
	else
		n = put_data(buf + off, MLXL_MAX_WQE_BYTES - off, w, max_inline);
	if (n < 0)
		return n;
	off += (u32)n;

	if (w->flags & MLXL_SF_FENCE)
		fm |= MLXL_FM_FENCE;
	else if (op->segs & MLXL_SEG_UMR)
		fm |= MLXL_FM_SMALL;
	if (w->flags & MLXL_SF_SIGNALED)
		fm |= MLXL_CE_CQE;
	if (w->flags & MLXL_SF_SOLICITED)
		fm |= MLXL_SE;
	put32(buf, 0, (pc & 0xffff) << 8 | op->hw);
	put32(buf, 4, (qpn & 0xffffff) << 8 | (off / MLXL_DS));
	put8(buf, 11, fm);
	if (w->opcode == MLXL_WR_SEND_IMM || w->opcode == MLXL_WR_RDMA_WRITE_IMM)
		for (i = 0; i < 4; i++)
			buf[12 + i] = ((const u8 *)&w->imm_be)[i];
	else if (w->opcode == MLXL_WR_SEND_INV || w->opcode == MLXL_WR_LOCAL_INV)
		put32(buf, 12, w->inv_rkey);
	else if (w->opcode == MLXL_WR_REG_MR)
		put32(buf, 12, w->mkey);
	return (int)(off / MLXL_DS);
}

void mlxl_sq_copy(u8 *ring, u32 log_size, u32 pc, const u8 *buf, u32 nbb)
{
	u32 mask = (1u << log_size) - 1, i, k;

	for (i = 0; i < nbb; i++) {
		u8 *dst = ring + ((pc + i) & mask) * MLXL_WQEBB;

		for (k = 0; k < MLXL_WQEBB; k++)
			dst[k] = buf[i * MLXL_WQEBB + k];
	}
}

void mlxl_recv_wqe(u8 *wqe, u32 log_stride, const struct mlxl_sge *sg,
		   u32 num_sge)
{
	u32 i;

	for (i = 0; i < num_sge; i++) {
		put32(wqe, 16 * i, sg[i].length);
		put32(wqe, 16 * i + 4, sg[i].lkey);
		put64(wqe, 16 * i + 8, sg[i].addr);
	}
	if (num_sge < (1u << log_stride)) {
		put32(wqe, 16 * i, 0);
		put32(wqe, 16 * i + 4, MLXL_TERM_LKEY);
		put64(wqe, 16 * i + 8, 0);
	}
}

bool mlxl_cqe_sw_owned(const u8 *cqe, u32 ci, u32 log_size)
{
	u8 op_own = cqe[MLXL_CQE_SIZE - 1];

	return (op_own >> 4) != MLXL_CQE_INVALID &&
	       (op_own & 1) == ((ci >> log_size) & 1);
}

void mlxl_cqe_parse(const u8 *cqe, struct mlxl_cqe *c)
{
	u32 frq = get32(cqe, 0x18);
	u32 sdq = get32(cqe, 0x38);
	u32 i;

	c->opcode = cqe[0x3f] >> 4;
	c->owner = cqe[0x3f] & 1;
	c->vendor_err = cqe[0x36];
	c->syndrome = cqe[0x37];
	c->wqe_op = (u8)(sdq >> 24);
	c->qpn = sdq & 0xffffff;
	c->grh = ((frq >> 28) & 3) != 0;
	c->src_qp = frq & 0xffffff;
	c->srqn = get32(cqe, 0x20) & 0xffffff;
	for (i = 0; i < 4; i++)
		((u8 *)&c->imm_be)[i] = cqe[0x24 + i];
	c->inv_rkey = get32(cqe, 0x24);
	c->byte_cnt = get32(cqe, 0x2c);
	c->wqe_counter = (u16)((u16)cqe[0x3c] << 8 | cqe[0x3d]);
}

/* error CQE syndrome -> completion status (doc §5.4) */
static const struct {
	u8 syndrome;
	u8 status;
} synd_table[] = {
	{ 0x01, MLXL_WS_LOC_LEN },
	{ 0x02, MLXL_WS_LOC_QP_OP },
	{ 0x04, MLXL_WS_LOC_PROT },
	{ 0x05, MLXL_WS_WR_FLUSH },
	{ 0x06, MLXL_WS_MW_BIND },
	{ 0x10, MLXL_WS_BAD_RESP },
	{ 0x11, MLXL_WS_LOC_ACCESS },
	{ 0x12, MLXL_WS_REM_INV_REQ },
	{ 0x13, MLXL_WS_REM_ACCESS },
	{ 0x14, MLXL_WS_REM_OP },
	{ 0x15, MLXL_WS_RETRY_EXC },
	{ 0x16, MLXL_WS_RNR_RETRY_EXC },
	{ 0x22, MLXL_WS_REM_ABORT },
};

u32 mlxl_syndrome_status(u8 syndrome)
{
	u32 i;

	for (i = 0; i < sizeof(synd_table) / sizeof(synd_table[0]); i++)
		if (synd_table[i].syndrome == syndrome)
			return synd_table[i].status;
	return MLXL_WS_GENERAL;
}

/* requester completion opcode of a WQE opcode */
static u32 req_wc_opcode(u8 wqe_op)
{
	u32 i;

	for (i = 0; i < sizeof(wr_ops) / sizeof(wr_ops[0]); i++)
		if (wr_ops[i].hw == wqe_op)
			return wr_ops[i].wc;
	return MLXL_WC_SEND;
}

void mlxl_cqe_wc(const struct mlxl_cqe *c, struct mlxl_wc *wc)
{
	wc->status = MLXL_WS_SUCCESS;
	wc->flags = 0;
	wc->vendor_err = 0;
	wc->byte_len = c->byte_cnt;
	switch (c->opcode) {
	case MLXL_CQE_REQ:
		wc->opcode = req_wc_opcode(c->wqe_op);
		if (c->wqe_op == MLXL_WQE_ATOMIC_CS || c->wqe_op == MLXL_WQE_ATOMIC_FA)
			wc->byte_len = 8;
		break;
	case MLXL_CQE_RESP_WR_IMM:
		wc->opcode = MLXL_WC_RECV_RDMA_WITH_IMM;
		wc->flags = MLXL_WCF_IMM;
		break;
	case MLXL_CQE_RESP_SEND:
		wc->opcode = MLXL_WC_RECV;
		break;
	case MLXL_CQE_RESP_SEND_IMM:
		wc->opcode = MLXL_WC_RECV;
		wc->flags = MLXL_WCF_IMM;
		break;
	case MLXL_CQE_RESP_SEND_INV:
		wc->opcode = MLXL_WC_RECV;
		wc->flags = MLXL_WCF_INV;
		break;
	default:	/* REQ_ERR, RESP_ERR and what is not a completion */
		wc->opcode = c->opcode == MLXL_CQE_RESP_ERR ? (u32)MLXL_WC_RECV :
			     req_wc_opcode(c->wqe_op);
		wc->status = c->opcode == MLXL_CQE_REQ_ERR ||
			     c->opcode == MLXL_CQE_RESP_ERR ?
			     mlxl_syndrome_status(c->syndrome) : (u32)MLXL_WS_GENERAL;
		wc->vendor_err = c->vendor_err;
		wc->byte_len = 0;
		return;
	}
	if (c->opcode != MLXL_CQE_REQ && c->grh)
		wc->flags |= MLXL_WCF_GRH;
}

u32 mlxl_arm_word(u32 sn, bool solicited, u32 ci)
{
	return (sn & 3) << 28 | (solicited ? 1u << 24 : 0) | (ci & 0xffffff);
}
