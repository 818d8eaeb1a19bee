// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: the event queue (ownership, consumer index, doorbell), the
 * health checks and the reset that ends a dead function.  Pure: builds
 * on the host; the events layer (mlxl_events.c) calls it from the
 * interrupt handler and the health poll.
 *
 * It also maps EQE types to object events (mlxl_async.h).
 *
 * Rules:
 *  - EQE n (n counting every EQE consumed) is the driver's when its owner
 *    bit equals (n >> log_size) & 1; the driver consumes at most
 *    MLXL_EQ_BUDGET per call and then writes eqn << 24 | ci to its UAR
 *    (+0x40 arm, +0x48 no arm).
 *  - The device is dead when the health syndrome is nonzero, the firmware
 *    version reads all ones (the function is gone), nic_interface reads
 *    disabled or SW reset, or the health counter stood still for
 *    MLXL_HEALTH_MISSES polls in a row.
 *  - A dead function is ended by a function reset (nic_interface = 7)
 *    and only once the device reports it done (nic_interface reads 1)
 *    does the driver free the memory the device held: until then the
 *    device might still write to it.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include "mlxl_dev.h"
#include "mlxl_async.h"

#define EQE_TYPE		0x01
#define EQE_OWNER		0x3f
#define UAR_EQ_ARM		0x40
#define UAR_EQ_NOARM		0x48
#define IS_HEALTH_FW_VER	0x230
#define NIC_IF_SHIFT		8
#define NIC_IF_MASK		7
#define NIC_IF_DISABLED		1
#define NIC_IF_SW_RESET		7
#define RESET_TIMEOUT_MS	2000

bool mlxl_is_fatal(const struct mlxl_dev *dev)
{
	return *(volatile const bool *)&dev->fatal;
}

void mlxl_set_fatal(struct mlxl_dev *dev, u8 synd)
{
	if (!dev->fatal_synd)
		dev->fatal_synd = synd;
	*(volatile bool *)&dev->fatal = true;
}

static void eq_doorbell(struct mlxl_dev *dev, bool arm)
{
	dev->ops->wr32(dev->ctx, dev->uar * 4096u + (arm ? UAR_EQ_ARM : UAR_EQ_NOARM),
		       dev->eqn << 24 | (dev->eq_ci & 0xffffff));
}

/*
 * Hand each EQE the driver owns to fn, at most MLXL_EQ_BUDGET, then
 * update the consumer index (and arm).  Returns the number consumed.
 */
u32 mlxl_eq_poll(struct mlxl_dev *dev, mlxl_eqe_fn fn, void *arg, bool arm)
{
	u32 mask = (1u << dev->eq_log_size) - 1, n;
	const volatile u8 *eqe;

	for (n = 0; n < MLXL_EQ_BUDGET; n++) {
		eqe = (const volatile u8 *)dev->eq_buf.cpu +
		      (dev->eq_ci & mask) * MLXL_EQE_SIZE;
		if ((eqe[EQE_OWNER] ^ (dev->eq_ci >> dev->eq_log_size)) & 1)
			break;		/* still the device's */
		fn(dev, (const u8 *)eqe, arg);
		dev->eq_ci++;
	}
	if (!mlxl_is_fatal(dev))
		eq_doorbell(dev, arm);
	return n;
}

bool mlxl_health_poll(struct mlxl_dev *dev)
{
	const struct mlxl_ops *ops = dev->ops;
	u32 v, nic;

	if (mlxl_is_fatal(dev))
		return true;
	if (ops->rd32(dev->ctx, IS_HEALTH_FW_VER) == 0xffffffffu) {
		mlxl_set_fatal(dev, 0xff);	/* the function is gone */
		return true;
	}
	nic = ops->rd32(dev->ctx, MLXL_IS_CMDQ_ADDR_L_SZ) >> NIC_IF_SHIFT & NIC_IF_MASK;
	if (nic == NIC_IF_DISABLED || nic == NIC_IF_SW_RESET) {
		mlxl_set_fatal(dev, 0xfe);
		return true;
	}
	v = ops->rd32(dev->ctx, MLXL_IS_HEALTH_SYND) >> 16 & 0xff;
	if (v) {
		mlxl_set_fatal(dev, (u8)v);
		return true;
	}
	v = ops->rd32(dev->ctx, MLXL_IS_HEALTH_COUNTER) & 0xffffff;
	if (v == dev->health_last) {
		if (++dev->health_misses >= MLXL_HEALTH_MISSES) {
			mlxl_set_fatal(dev, 0);
			return true;
		}
	} else {
		dev->health_misses = 0;
	}
	dev->health_last = v;
	return false;
}

/*
 * Reset the function and free what it held; 0, or -ETIMEDOUT when the
 * device never reported the reset done (its memory is then left to it).
 */
int mlxl_reset_function(struct mlxl_dev *dev)
{
	const struct mlxl_ops *ops = dev->ops;
	u64 deadline;
	u32 nic;

	if (dev->step == MLXL_STEP_NONE)
		return 0;
	ops->wr32(dev->ctx, MLXL_IS_CMDQ_ADDR_L_SZ,
		  ((u32)dev->cmdq.bus & MLXL_CMDQ_ADDR_L_MASK) |
		  NIC_IF_SW_RESET << NIC_IF_SHIFT);
	deadline = ops->now_ns(dev->ctx) + RESET_TIMEOUT_MS * MLXL_NS_PER_MS;
	for (;;) {
		nic = ops->rd32(dev->ctx, MLXL_IS_CMDQ_ADDR_L_SZ) >> NIC_IF_SHIFT &
		      NIC_IF_MASK;
		if (nic == NIC_IF_DISABLED)
			break;
		if (ops->now_ns(dev->ctx) > deadline)
			return -ETIMEDOUT;
		ops->sleep_us(dev->ctx, 2000);
	}
	ops->dma_free(dev->ctx, &dev->eq_buf);	/* nothing if already freed */
	while (dev->npages) {
		dev->npages--;
		ops->dma_free(dev->ctx, &dev->pages[dev->npages]);
	}
	mlxl_cmd_cleanup(dev);
	dev->step = MLXL_STEP_NONE;
	return 0;
}

enum mlxl_async_ev mlxl_async_ev_of(u8 type)
{
	switch (type) {
	case MLXL_EQE_COMP:		return MLXL_AEV_COMP;
	case MLXL_EQE_PATH_MIG:		return MLXL_AEV_PATH_MIG;
	case MLXL_EQE_COMM_EST:		return MLXL_AEV_COMM_EST;
	case MLXL_EQE_SQ_DRAINED:	return MLXL_AEV_SQ_DRAINED;
	case MLXL_EQE_CQ_ERROR:		return MLXL_AEV_CQ_ERR;
	case MLXL_EQE_WQ_CATAS:		return MLXL_AEV_QP_FATAL;
	case MLXL_EQE_PATH_MIG_FAILED:	return MLXL_AEV_PATH_MIG_ERR;
	case MLXL_EQE_WQ_INVAL_REQ:	return MLXL_AEV_QP_REQ_ERR;
	case MLXL_EQE_WQ_ACCESS:	return MLXL_AEV_QP_ACCESS_ERR;
	case MLXL_EQE_SRQ_CATAS:	return MLXL_AEV_SRQ_ERR;
	case MLXL_EQE_SRQ_LAST_WQE:	return MLXL_AEV_QP_LAST_WQE;
	case MLXL_EQE_SRQ_LIMIT:	return MLXL_AEV_SRQ_LIMIT;
	default:			return MLXL_AEV_NONE;
	}
}

enum mlxl_async_class mlxl_async_class_of(enum mlxl_async_ev ev)
{
	switch (ev) {
	case MLXL_AEV_COMP:
	case MLXL_AEV_CQ_ERR:
		return MLXL_ASYNC_CQ;
	case MLXL_AEV_SRQ_ERR:
	case MLXL_AEV_SRQ_LIMIT:
		return MLXL_ASYNC_SRQ;
	case MLXL_AEV_NONE:
	case MLXL_AEV_COUNT:
		return MLXL_ASYNC_NONE;
	default:
		return MLXL_ASYNC_QP;
	}
}
