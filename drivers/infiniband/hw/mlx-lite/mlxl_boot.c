// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: bring-up and teardown of the HCA in the documented order, and
 * the firmware pages the driver gives and takes back.  The EQ is created
 * here; the events layer (mlxl_events.c) arms it and switches commands to
 * event mode.  A dead device is not commanded down but reset
 * (mlxl_reset_function).  Pure: builds on the host, where
 * tools/testing/unit runs it against fwsim.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "mlxl_dev.h"
#include "mlxl_async.h"

#define EQ_LOG_SIZE	7	/* 128 EQEs, 8 KiB */

static int wait_ready(struct mlxl_dev *dev, u32 timeout_ms)
{
	const struct mlxl_ops *ops = dev->ops;
	u64 deadline = ops->now_ns(dev->ctx) + timeout_ms * MLXL_NS_PER_MS;

	while (ops->rd32(dev->ctx, MLXL_IS_INITIALIZING) & MLXL_INITIALIZING_BIT) {
		if (ops->now_ns(dev->ctx) > deadline)
			return -ETIMEDOUT;
		ops->sleep_us(dev->ctx, 2000);
	}
	return 0;
}

/* ---- pages */
static int pages_find(const struct mlxl_dev *dev, u64 bus)
{
	u32 i;

	for (i = 0; i < dev->npages; i++)
		if (dev->pages[i].bus == bus)
			return (int)i;
	return -1;
}

static void pages_drop(struct mlxl_dev *dev, u32 i)
{
	dev->ops->dma_free(dev->ctx, &dev->pages[i]);
	dev->pages[i] = dev->pages[--dev->npages];
}

/* Give n pages, in commands of up to MLXL_PAGES_PER_CMD. */
int mlxl_pages_give(struct mlxl_dev *dev, u32 n)
{
	u32 chunk, i, first, len;
	int err;

	while (n) {
		chunk = n < MLXL_PAGES_PER_CMD ? n : MLXL_PAGES_PER_CMD;
		if (dev->npages + chunk > dev->pages_cap)
			return -ENOMEM;
		len = MLXL_MANAGE_PAGES_PAS + 8 * chunk;
		mlxl_cmd_hdr(dev->in, len, MLXL_OP_MANAGE_PAGES, MLXL_PAGES_GIVE);
		MLXL_SET(dev->in, MLXL_F_MANAGE_PAGES_IN_NUM, chunk);
		first = dev->npages;
		for (i = 0; i < chunk; i++) {
			struct mlxl_dma *p = &dev->pages[dev->npages];

			err = dev->ops->dma_alloc(dev->ctx, p, MLXL_FW_PAGE_SIZE,
						  MLXL_FW_PAGE_SIZE);
			if (err)
				goto err_free;
			dev->npages++;
			mlxl_set64(dev->in, MLXL_MANAGE_PAGES_PAS + 8 * i, p->bus);
		}
		err = mlxl_cmd_exec(dev, dev->in, len, dev->out, MLXL_HDR_LEN);
		if (err)
			goto err_free;
		n -= chunk;
	}
	return 0;

err_free:
	/* the firmware did not take this chunk */
	while (dev->npages > first)
		pages_drop(dev, dev->npages - 1);
	return err;
}

/*
 * Take back every page the driver gave.  Each page the firmware returns
 * must be one the driver gave; a command that returns nothing ends the
 * loop with -EIO.
 */
int mlxl_pages_reclaim_all(struct mlxl_dev *dev)
{
	u32 rounds = dev->npages + 1;
	u32 n, got, i, len, unknown = 0;
	int err, at;

	while (dev->npages && rounds--) {
		n = dev->npages < MLXL_PAGES_PER_CMD ? dev->npages :
						       MLXL_PAGES_PER_CMD;
		len = MLXL_MANAGE_PAGES_PAS + 8 * n;
		mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_MANAGE_PAGES,
			     MLXL_PAGES_TAKE);
		MLXL_SET(dev->in, MLXL_F_MANAGE_PAGES_IN_NUM, n);
		err = mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, len);
		if (err)
			return err;
		got = MLXL_GET(dev->out, MLXL_F_MANAGE_PAGES_OUT_NUM);
		if (!got || got > n)
			return -EIO;
		for (i = 0; i < got; i++) {
			at = pages_find(dev, mlxl_get64(dev->out,
					MLXL_MANAGE_PAGES_PAS + 8 * i));
			if (at < 0)
				unknown++;	/* not a page we gave */
			else
				pages_drop(dev, (u32)at);
		}
		if (unknown)
			return -EIO;
	}
	return dev->npages ? -EIO : 0;
}

/*
 * Take back n pages the firmware offers (a page request with a negative
 * count); each must be one the driver gave.
 */
int mlxl_pages_take(struct mlxl_dev *dev, u32 n)
{
	u32 rounds = n + 1, want, got, i;
	int err, at;

	while (n && rounds--) {
		want = n < MLXL_PAGES_PER_CMD ? n : MLXL_PAGES_PER_CMD;
		mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_MANAGE_PAGES,
			     MLXL_PAGES_TAKE);
		MLXL_SET(dev->in, MLXL_F_MANAGE_PAGES_IN_NUM, want);
		err = mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out,
				    MLXL_MANAGE_PAGES_PAS + 8 * want);
		if (err)
			return err;
		got = MLXL_GET(dev->out, MLXL_F_MANAGE_PAGES_OUT_NUM);
		if (!got || got > want)
			return -EIO;
		for (i = 0; i < got; i++) {
			at = pages_find(dev, mlxl_get64(dev->out,
					MLXL_MANAGE_PAGES_PAS + 8 * i));
			if (at < 0)
				return -EIO;	/* not a page we gave */
			pages_drop(dev, (u32)at);
		}
		n -= got;
	}
	return n ? -EIO : 0;
}

int mlxl_pages_satisfy(struct mlxl_dev *dev, u16 kind)
{
	s32 num;
	int err;

	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_QUERY_PAGES, kind);
	err = mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, MLXL_HDR_LEN);
	if (err)
		return err;
	num = (s32)MLXL_GET(dev->out, MLXL_F_QUERY_PAGES_NUM);
	if (num < 0)
		return -EIO;	/* the firmware returns pages only at runtime */
	return num ? mlxl_pages_give(dev, (u32)num) : 0;
}

/* ---- commands of the bring-up */
static int simple(struct mlxl_dev *dev, u16 opcode, u16 op_mod, u32 out_len)
{
	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, opcode, op_mod);
	return mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, out_len);
}

static int set_issi(struct mlxl_dev *dev)
{
	int err;

	err = simple(dev, MLXL_OP_QUERY_ISSI, 0, MLXL_QUERY_ISSI_OUT_LEN);
	if (err)
		return err;
	if (!(MLXL_GET(dev->out, MLXL_F_QUERY_ISSI_SUPPORTED) & 2))
		return -EOPNOTSUPP;	/* ISSI 1 layouts only */
	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_SET_ISSI, 0);
	MLXL_SET(dev->in, MLXL_F_ISSI_CURRENT, 1);
	return mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, MLXL_HDR_LEN);
}

static int host_endianness(struct mlxl_dev *dev)
{
	u16 probe = 1;
	u32 len = MLXL_ACCESS_REG_DATA + MLXL_REG_HOST_ENDIANNESS_LEN;

	mlxl_cmd_hdr(dev->in, len, MLXL_OP_ACCESS_REG, MLXL_ACCESS_REG_WRITE);
	MLXL_SET(dev->in, MLXL_F_ACCESS_REG_ID, MLXL_REG_HOST_ENDIANNESS);
	dev->in[MLXL_ACCESS_REG_DATA] = *(u8 *)&probe ? 0 : 0x80;
	return mlxl_cmd_exec(dev, dev->in, len, dev->out, len);
}

static int query_cap(struct mlxl_dev *dev, u16 type, bool cur, u8 *dst)
{
	u32 i;
	int err;

	err = simple(dev, MLXL_OP_QUERY_HCA_CAP,
		     (u16)(type << 1 | (cur ? MLXL_CAP_OPMOD_CUR : 0)),
		     MLXL_HCA_CAP_MSG_LEN);
	if (err)
		return err;
	for (i = 0; i < MLXL_HCA_CAP_LEN; i++)
		dst[i] = dev->out[MLXL_HCA_CAP_OFF + i];
	return 0;
}

static int set_caps(struct mlxl_dev *dev)
{
	u8 *cap = dev->in + MLXL_HCA_CAP_OFF;
	u32 i, log_qp;
	bool roce;
	int err;

	err = query_cap(dev, MLXL_CAP_GENERAL, false, dev->cap_max);
	if (err)
		return err;
	err = query_cap(dev, MLXL_CAP_GENERAL, true, dev->cap_cur);
	if (err)
		return err;
	if (MLXL_GET(dev->cap_cur, MLXL_C_PORT_TYPE) != MLXL_PORT_TYPE_ETH)
		return -EPROTONOSUPPORT;	/* IB personality */

	mlxl_cmd_hdr(dev->in, MLXL_HCA_CAP_MSG_LEN, MLXL_OP_SET_HCA_CAP,
		     MLXL_CAP_GENERAL << 1);
	for (i = 0; i < MLXL_HCA_CAP_LEN; i++)
		cap[i] = dev->cap_cur[i];
	MLXL_SET(cap, MLXL_C_CMDIF_CHECKSUM, 0);
	MLXL_SET(cap, MLXL_C_LOG_UAR_PAGE_SZ, 0);	/* 4 KiB UARs */
	MLXL_SET(cap, MLXL_C_PKEY_TABLE_SIZE, 0);	/* 128 entries */
	roce = MLXL_GET(dev->cap_max, MLXL_C_ROCE) &&
	       MLXL_GET(dev->cap_max, MLXL_C_ROCE_RW_SUPPORTED);
	MLXL_SET(cap, MLXL_C_ROCE, roce);
	log_qp = MLXL_GET(dev->cap_max, MLXL_C_LOG_MAX_QP);
	MLXL_SET(cap, MLXL_C_LOG_MAX_QP, log_qp < 18 ? log_qp : 18);
	err = mlxl_cmd_exec(dev, dev->in, MLXL_HCA_CAP_MSG_LEN, dev->out,
			    MLXL_HDR_LEN);
	if (err || !roce)
		return err;
	return query_cap(dev, MLXL_CAP_ROCE, true, dev->roce_cap);
}

static int set_driver_version(struct mlxl_dev *dev)
{
	static const char ver[] = "Linux,mlx_lite,0.1";
	u32 i;

	if (!MLXL_GET(dev->cap_cur, MLXL_C_DRIVER_VERSION))
		return 0;
	mlxl_cmd_hdr(dev->in, MLXL_SET_DRIVER_VERSION_IN_LEN,
		     MLXL_OP_SET_DRIVER_VERSION, 0);
	for (i = 0; i < sizeof(ver) - 1; i++)
		dev->in[MLXL_DRIVER_VERSION_OFF + i] = (u8)ver[i];
	return mlxl_cmd_exec(dev, dev->in, MLXL_SET_DRIVER_VERSION_IN_LEN,
			     dev->out, MLXL_HDR_LEN);
}

static int create_eq(struct mlxl_dev *dev)
{
	u32 bytes = MLXL_EQE_SIZE << EQ_LOG_SIZE;
	u32 npas = bytes / MLXL_FW_PAGE_SIZE, len, i;
	u64 mask;
	int err;

	err = dev->ops->dma_alloc(dev->ctx, &dev->eq_buf, bytes,
				  MLXL_FW_PAGE_SIZE);
	if (err)
		return err;
	/* every EQE starts hardware-owned */
	for (i = 0; i < (1u << EQ_LOG_SIZE); i++)
		((u8 *)dev->eq_buf.cpu)[i * MLXL_EQE_SIZE + 0x3f] = 1;

	len = MLXL_CREATE_EQ_PAS + 8 * npas;
	mlxl_cmd_hdr(dev->in, len, MLXL_OP_CREATE_EQ, 0);
	MLXL_SET(dev->in, MLXL_F_EQC_LOG_SIZE, EQ_LOG_SIZE);
	MLXL_SET(dev->in, MLXL_F_EQC_UAR_PAGE, dev->uar);
	MLXL_SET(dev->in, MLXL_F_EQC_INTR, 0);
	MLXL_SET(dev->in, MLXL_F_EQC_LOG_PAGE_SIZE, 0);
	mask = 1ull << MLXL_EVENT_CMD | 1ull << MLXL_EVENT_PAGE_REQ |
	       1ull << MLXL_EVENT_PORT_CHANGE | 1ull << MLXL_EVENT_INTERNAL_ERR |
	       MLXL_ASYNC_EVENT_MASK;
	mlxl_set64(dev->in, MLXL_CREATE_EQ_BITMASK, mask);
	for (i = 0; i < npas; i++)
		mlxl_set64(dev->in, MLXL_CREATE_EQ_PAS + 8 * i,
			   dev->eq_buf.bus + (u64)i * MLXL_FW_PAGE_SIZE);
	err = mlxl_cmd_exec(dev, dev->in, len, dev->out, MLXL_HDR_LEN);
	if (err) {
		dev->ops->dma_free(dev->ctx, &dev->eq_buf);
		return err;
	}
	dev->eqn = MLXL_GET(dev->out, MLXL_F_EQ_NUMBER);
	dev->eq_log_size = EQ_LOG_SIZE;
	dev->eq_ci = 0;
	return 0;
}

static int destroy_eq(struct mlxl_dev *dev)
{
	int err;

	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_DESTROY_EQ, 0);
	MLXL_SET(dev->in, MLXL_F_EQ_NUMBER, dev->eqn);
	err = mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, MLXL_HDR_LEN);
	/* the buffer is freed only once the firmware let go of it */
	if (!err && !mlxl_is_fatal(dev))
		dev->ops->dma_free(dev->ctx, &dev->eq_buf);
	return err;
}

static int dealloc_uar(struct mlxl_dev *dev)
{
	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_DEALLOC_UAR, 0);
	MLXL_SET(dev->in, MLXL_F_UAR, dev->uar);
	return mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, MLXL_HDR_LEN);
}

static int teardown_hca(struct mlxl_dev *dev)
{
	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_TEARDOWN_HCA, 0);
	MLXL_SET(dev->in, MLXL_F_TEARDOWN_PROFILE, MLXL_TEARDOWN_GRACEFUL);
	return mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, MLXL_HDR_LEN);
}

int mlxl_cmdq_setup(struct mlxl_dev *dev)
{
	const struct mlxl_ops *ops = dev->ops;
	u32 v;
	int err;

	err = wait_ready(dev, MLXL_PRE_INIT_TIMEOUT_MS);
	if (err)
		return err;
	v = ops->rd32(dev->ctx, MLXL_IS_CMDIF_REV);
	if (v >> 16 != MLXL_CMDIF_REV)
		return -EOPNOTSUPP;
	dev->fw_rev_sub = v & 0xffff;
	v = ops->rd32(dev->ctx, MLXL_IS_FW_REV);
	dev->fw_rev_major = v & 0xffff;
	dev->fw_rev_minor = v >> 16;
	v = ops->rd32(dev->ctx, MLXL_IS_CMDQ_ADDR_L_SZ);
	dev->log_cmdq_size = (v >> 4) & 0xf;
	dev->log_cmdq_stride = v & 0xf;
	if (dev->log_cmdq_size + dev->log_cmdq_stride > 12 ||
	    dev->log_cmdq_stride < 6)
		return -EINVAL;
	err = mlxl_cmd_init(dev);
	if (err)
		return err;
	ops->wr32(dev->ctx, MLXL_IS_CMDQ_ADDR_H, (u32)(dev->cmdq.bus >> 32));
	ops->wr32(dev->ctx, MLXL_IS_CMDQ_ADDR_L_SZ,
		  (u32)dev->cmdq.bus & MLXL_CMDQ_ADDR_L_MASK);
	err = wait_ready(dev, MLXL_INIT_TIMEOUT_MS);
	if (err)
		mlxl_cmd_cleanup(dev);
	return err;
}

/*
 * Undo what the bring-up did, from dev->step down.  A refusal that would
 * leave memory in the firmware's hands (EQ buffer, pages) stops the
 * unwind there: that memory is not freed and dev->step says where.  A
 * device found dead, before or during the unwind, is reset instead.
 */
void mlxl_shutdown(struct mlxl_dev *dev)
{
	if (dev->step >= MLXL_STEP_EQ && !mlxl_is_fatal(dev)) {
		if (destroy_eq(dev) && !mlxl_is_fatal(dev))
			return;
		dev->step = MLXL_STEP_UAR;
	}
	if (dev->step >= MLXL_STEP_UAR && !mlxl_is_fatal(dev)) {
		dealloc_uar(dev);
		dev->step = MLXL_STEP_INITIALIZED;
	}
	if (dev->step >= MLXL_STEP_INITIALIZED && !mlxl_is_fatal(dev)) {
		teardown_hca(dev);
		dev->step = MLXL_STEP_ENABLED;
	}
	if (dev->step >= MLXL_STEP_ENABLED && !mlxl_is_fatal(dev)) {
		if (mlxl_pages_reclaim_all(dev) && !mlxl_is_fatal(dev))
			return;
		simple(dev, MLXL_OP_DISABLE_HCA, 0, MLXL_ENABLE_HCA_OUT_LEN);
		dev->step = MLXL_STEP_CMDQ;
	}
	if (mlxl_is_fatal(dev)) {
		mlxl_reset_function(dev);
		return;
	}
	if (dev->step >= MLXL_STEP_CMDQ)
		mlxl_cmd_cleanup(dev);
	dev->step = MLXL_STEP_NONE;
}

/* the board id (PSID) as printable text; anything else ends it */
static int query_adapter(struct mlxl_dev *dev)
{
	u32 i;
	u8 c;
	int err;

	err = simple(dev, MLXL_OP_QUERY_ADAPTER, 0, MLXL_QUERY_ADAPTER_OUT_LEN);
	if (err)
		return err;
	for (i = 0; i < MLXL_PSID_LEN; i++) {
		c = dev->out[MLXL_QA_PSID + i];
		if (c < 0x21 || c > 0x7e)
			break;
		dev->board_id[i] = (char)c;
	}
	dev->board_id[i] = 0;
	return 0;
}

int mlxl_boot(struct mlxl_dev *dev)
{
	int err;

	dev->step = MLXL_STEP_NONE;
	err = mlxl_cmdq_setup(dev);
	if (err)
		return err;
	dev->step = MLXL_STEP_CMDQ;

	err = simple(dev, MLXL_OP_ENABLE_HCA, 0, MLXL_ENABLE_HCA_OUT_LEN);
	if (err)
		goto err_unwind;
	dev->step = MLXL_STEP_ENABLED;

	err = set_issi(dev);
	if (err)
		goto err_unwind;
	err = mlxl_pages_satisfy(dev, MLXL_PAGES_BOOT);
	if (err)
		goto err_unwind;
	err = host_endianness(dev);
	if (err)
		goto err_unwind;
	err = set_caps(dev);
	if (err)
		goto err_unwind;
	err = mlxl_pages_satisfy(dev, MLXL_PAGES_INIT);
	if (err)
		goto err_unwind;
	mlxl_cmd_hdr(dev->in, MLXL_INIT_HCA_IN_LEN, MLXL_OP_INIT_HCA, 0);
	err = mlxl_cmd_exec(dev, dev->in, MLXL_INIT_HCA_IN_LEN, dev->out,
			    MLXL_HDR_LEN);
	if (err)
		goto err_unwind;
	dev->step = MLXL_STEP_INITIALIZED;

	err = set_driver_version(dev);
	if (err)
		goto err_unwind;
	err = query_cap(dev, MLXL_CAP_GENERAL, true, dev->cap_cur);
	if (err)
		goto err_unwind;
	err = query_adapter(dev);
	if (err)
		goto err_unwind;
	err = simple(dev, MLXL_OP_ALLOC_UAR, 0, MLXL_HDR_LEN);
	if (err)
		goto err_unwind;
	dev->uar = MLXL_GET(dev->out, MLXL_F_UAR);
	dev->step = MLXL_STEP_UAR;

	err = create_eq(dev);
	if (err)
		goto err_unwind;
	dev->step = MLXL_STEP_EQ;
	return 0;

err_unwind:
	mlxl_shutdown(dev);
	return err;
}
