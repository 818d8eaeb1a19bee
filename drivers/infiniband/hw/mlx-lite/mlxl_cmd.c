// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: the command queue.  One slot (slot 0), input and output
 * mailbox chains from two preallocated pools, tokens that skip zero, a
 * timeout measured on the ops clock.  Polling mode spins on the owner
 * bit; event mode (dev->cmd_wait set, once the EQ exists) sleeps until
 * the completion EQE or a slice passes, the owner bit deciding either
 * way.  On a dead device (mlxl_is_fatal) nothing is sent: commands that
 * release resources succeed with an empty output so teardown can go on,
 * the others fail with -EIO; a waiter gives up as soon as the device is
 * found dead.  Pure: builds on the host.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "mlxl_dev.h"

static void bzero_(void *p, u32 len)
{
	u8 *b = (u8 *)p;

	while (len--)
		*b++ = 0;
}

static void bcopy_(void *dst, const void *src, u32 len)
{
	u8 *d = (u8 *)dst;
	const u8 *s = (const u8 *)src;

	while (len--)
		*d++ = *s++;
}

static u32 nblocks(u32 len)
{
	return len > MLXL_INLINE_LEN ?
		(len - MLXL_INLINE_LEN + MLXL_MBOX_DATA_LEN - 1) / MLXL_MBOX_DATA_LEN : 0;
}

static u8 *entry_of(struct mlxl_dev *dev, u32 slot)
{
	return (u8 *)dev->cmdq.cpu + (slot << dev->log_cmdq_stride);
}

int mlxl_cmd_init(struct mlxl_dev *dev)
{
	const struct mlxl_ops *ops = dev->ops;
	u32 pool = MLXL_MAX_BLOCKS * MLXL_MBOX_ALIGN;
	int err;

	err = ops->dma_alloc(dev->ctx, &dev->cmdq, 4096, 4096);
	if (err)
		return err;
	err = ops->dma_alloc(dev->ctx, &dev->in_boxes, pool, MLXL_MBOX_ALIGN);
	if (err)
		goto err_cmdq;
	err = ops->dma_alloc(dev->ctx, &dev->out_boxes, pool, MLXL_MBOX_ALIGN);
	if (err)
		goto err_in;
	dev->token = 0;
	if (!dev->cmd_timeout_ns)
		dev->cmd_timeout_ns = MLXL_CMD_TIMEOUT_MS * MLXL_NS_PER_MS;
	return 0;

err_in:
	ops->dma_free(dev->ctx, &dev->in_boxes);
err_cmdq:
	ops->dma_free(dev->ctx, &dev->cmdq);
	return err;
}

void mlxl_cmd_cleanup(struct mlxl_dev *dev)
{
	dev->ops->dma_free(dev->ctx, &dev->out_boxes);
	dev->ops->dma_free(dev->ctx, &dev->in_boxes);
	dev->ops->dma_free(dev->ctx, &dev->cmdq);
}

void mlxl_cmd_hdr(u8 *in, u32 in_len, u16 opcode, u16 op_mod)
{
	bzero_(in, in_len);
	MLXL_SET(in, MLXL_F_IN_OPCODE, opcode);
	MLXL_SET(in, MLXL_F_IN_OP_MOD, op_mod);
}

/* Chain n blocks of pool; copy len bytes of data into them if data. */
static void build_chain(struct mlxl_dma *pool, u32 n, const u8 *data,
			u32 len, u8 token)
{
	u32 k, chunk;

	for (k = 0; k < n; k++) {
		u8 *blk = (u8 *)pool->cpu + k * MLXL_MBOX_ALIGN;

		bzero_(blk, MLXL_MBOX_SIZE);
		if (data) {
			chunk = len - k * MLXL_MBOX_DATA_LEN;
			if (chunk > MLXL_MBOX_DATA_LEN)
				chunk = MLXL_MBOX_DATA_LEN;
			bcopy_(blk, data + k * MLXL_MBOX_DATA_LEN, chunk);
		}
		mlxl_set64(blk, MLXL_MBOX_NEXT, k + 1 < n ?
			   pool->bus + (u64)(k + 1) * MLXL_MBOX_ALIGN : 0);
		MLXL_SET(blk, MLXL_F_MBOX_BLOCK_NUM, k);
		MLXL_SET(blk, MLXL_F_MBOX_TOKEN, token);
	}
}

#define CMD_WAIT_SLICE_US	100000	/* event mode: re-check at least this often */
#define SYND_DEAD		0xbadd00deu

/* commands a dead device "completes" so that cleanup can proceed */
static bool ok_when_dead(u16 opcode)
{
	switch (opcode) {
	case MLXL_OP_TEARDOWN_HCA:
	case MLXL_OP_DISABLE_HCA:
	case MLXL_OP_MANAGE_PAGES:
	case MLXL_OP_DESTROY_MKEY:
	case MLXL_OP_DESTROY_EQ:
	case MLXL_OP_DESTROY_CQ:
	case MLXL_OP_DESTROY_QP:
	case MLXL_OP_2ERR_QP:
	case MLXL_OP_2RST_QP:
	case MLXL_OP_DESTROY_SRQ:
	case MLXL_OP_DEALLOC_PD:
	case MLXL_OP_DEALLOC_UAR:
	case MLXL_OP_DEALLOC_TRANSPORT_DOMAIN:
		return true;
	default:
		return false;
	}
}

static int dead(struct mlxl_dev *dev, const u8 *in, u8 *out, u32 out_len)
{
	u16 opcode = (u16)MLXL_GET(in, MLXL_F_IN_OPCODE);

	bzero_(out, out_len);
	if (ok_when_dead(opcode))
		return 0;
	dev->err_opcode = opcode;
	dev->err_delivery = 0;
	dev->err_status = MLXL_STAT_ABORTED;
	dev->err_syndrome = SYND_DEAD;
	return -EIO;
}

/*
 * Run one command and wait for it.  0 on success; -EIO for a delivery
 * failure; the status's errno for a firmware refusal (dev->err_* say
 * which); -ETIMEDOUT if the device never gives the slot back; on a dead
 * device, see above.
 */
int mlxl_cmd_exec(struct mlxl_dev *dev, const u8 *in, u32 in_len, u8 *out,
		  u32 out_len)
{
	const struct mlxl_ops *ops = dev->ops;
	u8 *e = entry_of(dev, 0);
	volatile const u8 *own = e + 0x3f;
	u32 nin = nblocks(in_len), nout = nblocks(out_len), k, chunk;
	u64 deadline;
	u8 token, dlv, status;

	if (in_len < 8 || in_len > MLXL_MAX_MSG || out_len < 8 ||
	    out_len > MLXL_MAX_MSG)
		return -EINVAL;
	if (mlxl_is_fatal(dev))
		return dead(dev, in, out, out_len);
	if (*own & 1)
		return -EBUSY;	/* an earlier command never completed */

	token = ++dev->token;
	if (!token)
		token = ++dev->token;

	build_chain(&dev->in_boxes, nin, in + MLXL_INLINE_LEN,
		    in_len - (nin ? MLXL_INLINE_LEN : in_len), token);
	build_chain(&dev->out_boxes, nout, NULL, 0, token);

	bzero_(e, MLXL_CQE_SIZE);
	MLXL_SET(e, MLXL_F_CQE_TYPE, MLXL_CQE_TYPE_PCIE);
	MLXL_SET(e, MLXL_F_CQE_IN_LEN, in_len);
	MLXL_SET(e, MLXL_F_CQE_OUT_LEN, out_len);
	bcopy_(e + MLXL_CQE_IN_INLINE, in,
	       in_len < MLXL_INLINE_LEN ? in_len : MLXL_INLINE_LEN);
	if (nin)
		mlxl_set64(e, MLXL_CQE_IN_PTR, dev->in_boxes.bus);
	if (nout)
		mlxl_set64(e, MLXL_CQE_OUT_PTR, dev->out_boxes.bus);
	MLXL_SET(e, MLXL_F_CQE_TOKEN, token);
	MLXL_SET(e, MLXL_F_CQE_OWNER, 1);

	if (dev->cmd_wait)
		dev->cmd_wait(dev, 0);	/* forget earlier events */
	ops->wr32(dev->ctx, MLXL_IS_CMD_DBELL, 1u << 0);

	deadline = ops->now_ns(dev->ctx) + dev->cmd_timeout_ns;
	while (*own & 1) {
		if (mlxl_is_fatal(dev))
			return dead(dev, in, out, out_len);
		if (ops->now_ns(dev->ctx) > deadline) {
			dev->err_opcode = (u16)MLXL_GET(in, MLXL_F_IN_OPCODE);
			dev->err_delivery = 0;
			dev->err_status = MLXL_STAT_ABORTED;
			return -ETIMEDOUT;
		}
		if (dev->cmd_wait)
			dev->cmd_wait(dev, CMD_WAIT_SLICE_US);
		else
			ops->sleep_us(dev->ctx, 10);
	}

	dlv = (u8)MLXL_GET(e, MLXL_F_CQE_STATUS);
	if (dlv) {
		dev->err_opcode = (u16)MLXL_GET(in, MLXL_F_IN_OPCODE);
		dev->err_delivery = dlv;
		dev->err_status = 0;
		dev->err_syndrome = 0;
		return -EIO;
	}

	bcopy_(out, e + MLXL_CQE_OUT_INLINE,
	       out_len < MLXL_INLINE_LEN ? out_len : MLXL_INLINE_LEN);
	for (k = 0; k < nout; k++) {
		chunk = out_len - MLXL_INLINE_LEN - k * MLXL_MBOX_DATA_LEN;
		if (chunk > MLXL_MBOX_DATA_LEN)
			chunk = MLXL_MBOX_DATA_LEN;
		bcopy_(out + MLXL_INLINE_LEN + k * MLXL_MBOX_DATA_LEN,
		       (u8 *)dev->out_boxes.cpu + k * MLXL_MBOX_ALIGN, chunk);
	}

	status = (u8)MLXL_GET(out, MLXL_F_OUT_STATUS);
	if (status) {
		dev->err_opcode = (u16)MLXL_GET(in, MLXL_F_IN_OPCODE);
		dev->err_delivery = 0;
		dev->err_status = status;
		dev->err_syndrome = MLXL_GET(out, MLXL_F_OUT_SYNDROME);
		return mlxl_cmd_status_errno(status);
	}
	return 0;
}
