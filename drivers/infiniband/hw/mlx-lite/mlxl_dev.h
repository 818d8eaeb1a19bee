/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the device state the command interface and the bring-up work
 * on, and the ops table through which they reach the device (MMIO seam),
 * DMA memory (DMA seam) and time (time seam).  Pure: only type-level
 * headers; the bus fronts (PCI, simulated function, host tests) fill the
 * ops.
 */
#ifndef MLXL_DEV_H
#define MLXL_DEV_H

#include <linux/types.h>
#include "mlxl_ifc.h"

struct mlxl_dma {
	void *cpu;
	u64 bus;
	u32 size;
};

struct mlxl_ops {
	/* BAR0 registers; values are the big-endian registers' numbers */
	u32 (*rd32)(void *ctx, u32 off);
	/* ordered after all earlier writes to DMA memory */
	void (*wr32)(void *ctx, u32 off, u32 val);
	/*
	 * One 64-bit big-endian register write (the CQ doorbell, a send
	 * doorbell); any context, including hard-irq and under spinlocks;
	 * ordered after all earlier writes to DMA memory.
	 */
	void (*wr64)(void *ctx, u32 off, u64 val);
	/* zeroed coherent memory, bus address aligned to align; 0 or -errno */
	int (*dma_alloc)(void *ctx, struct mlxl_dma *d, u32 size, u32 align);
	void (*dma_free)(void *ctx, struct mlxl_dma *d);
	u64 (*now_ns)(void *ctx);
	void (*sleep_us)(void *ctx, u32 us);
	/*
	 * Interrupt seam (optional; without it commands stay in polling
	 * mode).  request_irq: from now on handler(arg) runs each time MSI-X
	 * vector fires, in hard-irq context (it must not sleep), never twice
	 * at once.  free_irq: no call of the handler runs or starts once it
	 * returns.
	 */
	int (*request_irq)(void *ctx, u32 vector, void (*handler)(void *arg),
			   void *arg);
	void (*free_irq)(void *ctx, u32 vector);
};

#define MLXL_MAX_BLOCKS		32
#define MLXL_MAX_MSG		(MLXL_INLINE_LEN + MLXL_MAX_BLOCKS * MLXL_MBOX_DATA_LEN)
/* pages one MANAGE_PAGES carries within MLXL_MAX_MSG */
#define MLXL_PAGES_PER_CMD	((MLXL_MAX_MSG - MLXL_MANAGE_PAGES_PAS) / 8)

#define MLXL_NS_PER_MS		1000000ull
#define MLXL_PRE_INIT_TIMEOUT_MS	120000
#define MLXL_INIT_TIMEOUT_MS	2000
#define MLXL_CMD_TIMEOUT_MS	61000

enum mlxl_boot_step {
	MLXL_STEP_NONE,
	MLXL_STEP_CMDQ,
	MLXL_STEP_ENABLED,
	MLXL_STEP_INITIALIZED,
	MLXL_STEP_UAR,
	MLXL_STEP_EQ,
};

struct mlxl_dev {
	const struct mlxl_ops *ops;
	void *ctx;

	/* command interface */
	struct mlxl_dma cmdq;
	struct mlxl_dma in_boxes;	/* MLXL_MAX_BLOCKS blocks, 1 KiB apart */
	struct mlxl_dma out_boxes;
	u32 log_cmdq_size;
	u32 log_cmdq_stride;
	u8 token;
	u64 cmd_timeout_ns;
	/* the last failed command, for readable errors */
	u16 err_opcode;
	u8 err_delivery;
	u8 err_status;
	u32 err_syndrome;
	u8 in[MLXL_MAX_MSG];
	u8 out[MLXL_MAX_MSG];

	/* firmware pages the driver gave; the front provides the array */
	struct mlxl_dma *pages;
	u32 pages_cap;
	u32 npages;

	/* identity and capabilities */
	u32 fw_rev_major, fw_rev_minor, fw_rev_sub;
	char board_id[MLXL_PSID_LEN + 1];	/* PSID, QUERY_ADAPTER */
	u8 cap_cur[MLXL_HCA_CAP_LEN];
	u8 cap_max[MLXL_HCA_CAP_LEN];
	u8 roce_cap[MLXL_HCA_CAP_LEN];

	/* objects of the bring-up */
	enum mlxl_boot_step step;
	u32 uar;
	u32 eqn;
	struct mlxl_dma eq_buf;
	u32 eq_log_size;

	/* events (mlxl_eq.c); eq_ci is the EQ handler's alone */
	u32 eq_ci;
	/*
	 * Event mode when set: wait up to us for a command-completion event
	 * (true if one came); us == 0, before a command is posted: forget
	 * the events that came before.  The owner bit decides; this only
	 * waits.
	 */
	bool (*cmd_wait)(struct mlxl_dev *dev, u32 us);
	void *events;			/* the events layer's state */
	/*
	 * The device is dead (health, mlxl_eq.c): no command is sent, waiters
	 * give up; teardown resets the function instead of commanding it.
	 */
	bool fatal;
	u8 fatal_synd;
	u32 health_last;
	u32 health_misses;
};

int mlxl_cmd_init(struct mlxl_dev *dev);
void mlxl_cmd_cleanup(struct mlxl_dev *dev);
int mlxl_cmd_exec(struct mlxl_dev *dev, const u8 *in, u32 in_len, u8 *out,
		  u32 out_len);
void mlxl_cmd_hdr(u8 *in, u32 in_len, u16 opcode, u16 op_mod);

int mlxl_pages_give(struct mlxl_dev *dev, u32 n);
int mlxl_pages_reclaim_all(struct mlxl_dev *dev);
int mlxl_pages_take(struct mlxl_dev *dev, u32 n);
int mlxl_pages_satisfy(struct mlxl_dev *dev, u16 kind);

/* mlxl_eq.c */
#define MLXL_EQ_BUDGET		128	/* EQEs per CI update */
#define MLXL_HEALTH_MISSES	3	/* polls with a still counter: dead */
typedef void (*mlxl_eqe_fn)(struct mlxl_dev *dev, const u8 *eqe, void *arg);
u32 mlxl_eq_poll(struct mlxl_dev *dev, mlxl_eqe_fn fn, void *arg, bool arm);
bool mlxl_health_poll(struct mlxl_dev *dev);
void mlxl_set_fatal(struct mlxl_dev *dev, u8 synd);
bool mlxl_is_fatal(const struct mlxl_dev *dev);
int mlxl_reset_function(struct mlxl_dev *dev);

int mlxl_cmdq_setup(struct mlxl_dev *dev);
int mlxl_boot(struct mlxl_dev *dev);
void mlxl_shutdown(struct mlxl_dev *dev);

#endif /* MLXL_DEV_H */
