/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fwsim: a model of the mlx5-family firmware's control plane (init segment,
 * command queue, mailboxes, HCA lifecycle, pages, capabilities, UARs, EQs).
 * Pure: only type-level headers; the same files build in the kernel and as
 * C++ on the host.  The model reaches host memory and time only through
 * struct fwsim_ops.  It keeps its own field table and must not include the
 * driver's mlxl_ifc.h.
 *
 * The model is stricter than hardware: every refusal is recorded with a
 * fwsim_err code (fwsim_err_count(), fwsim_last_err()) besides the status,
 * syndrome or delivery status the driver sees.
 */
#ifndef FWSIM_H
#define FWSIM_H

#include <linux/types.h>

struct fwsim_ops {
	/* 0 on success; nonzero if [addr, addr + len) is not host memory */
	int (*dma_read)(void *ctx, u64 addr, void *buf, u32 len);
	int (*dma_write)(void *ctx, u64 addr, const void *buf, u32 len);
	u64 (*now_ns)(void *ctx);
};

enum fwsim_profile {
	FWSIM_CX4LX,
	FWSIM_CX5,
	FWSIM_CX6DX,
	FWSIM_CX7,
	FWSIM_NR_PROFILES,
};

enum fwsim_phase {
	FWSIM_PH_DISABLED,	/* before ENABLE_HCA, after DISABLE_HCA */
	FWSIM_PH_ENABLED,	/* ENABLE_HCA done */
	FWSIM_PH_ISSI_SET,	/* SET_ISSI done; boot pages owed */
	FWSIM_PH_CAPS_SET,	/* SET_HCA_CAP done; init pages owed */
	FWSIM_PH_INITIALIZED,	/* INIT_HCA done */
	FWSIM_PH_TORN_DOWN,	/* TEARDOWN_HCA done; pages to reclaim */
	FWSIM_NR_PHASES,
};

/* what the model refused or found wrong; recorded in order */
enum fwsim_err {
	FWSIM_E_NONE,
	FWSIM_E_DMA,		/* DMA to memory the host did not provide */
	FWSIM_E_OWNERSHIP,	/* doorbell for a slot software owns */
	FWSIM_E_DOORBELL,	/* doorbell before the queue was set up, or slot out of range */
	FWSIM_E_TYPE,		/* entry type is not 7 */
	FWSIM_E_TOKEN,		/* zero token, or a block's token differs */
	FWSIM_E_BLOCK_NUM,	/* block numbers not 0, 1, 2 ... */
	FWSIM_E_MBOX_ALIGN,	/* mailbox pointer not 1 KiB aligned */
	FWSIM_E_CHAIN,		/* chain shorter than the length needs */
	FWSIM_E_LENGTH,		/* length above what the model accepts */
	FWSIM_E_SIGNATURE,	/* signature wrong while checksums are on */
	FWSIM_E_MBOX_RSVD,	/* reserved bytes of a mailbox block not zero */
	FWSIM_E_BAD_OPCODE,
	FWSIM_E_IN_LEN,		/* shorter than the command's fixed input */
	FWSIM_E_OUT_LEN,	/* shorter than the command's output */
	FWSIM_E_PHASE,		/* command not valid in this HCA phase */
	FWSIM_E_RESERVED,	/* nonzero reserved field of the command */
	FWSIM_E_PARAM,		/* a field with a value the model refuses */
	FWSIM_E_PAGE_ALIGN,	/* page address not 4 KiB aligned */
	FWSIM_E_PAGE_DOUBLE,	/* page given twice */
	FWSIM_E_PAGE_EXCESS,	/* more pages given than owed */
	FWSIM_E_PAGE_TAKE,	/* more pages taken than held */
	FWSIM_E_PAGES_OWED,	/* command needs pages not yet given */
	FWSIM_E_PAGE_LEAK,	/* DISABLE_HCA with pages still held */
	FWSIM_E_CAP_RO,		/* SET_HCA_CAP changes a read-only capability */
	FWSIM_E_CAP_MAX,	/* SET_HCA_CAP above the maximum */
	FWSIM_E_RESOURCE,	/* unknown object */
	FWSIM_E_BUSY,		/* object in use, or objects alive at teardown */
	FWSIM_E_LIMIT,		/* no free object */
	FWSIM_E_INJECTED,	/* fault injected by the test */
	FWSIM_NR_ERRS,
};

/* syndromes the model reports (opaque to the driver, stable for tests) */
#define FWSIM_SYND(e)		(0x5f000000u | (u32)(e))

#define FWSIM_CMDQ_LOG_SIZE	5
#define FWSIM_CMDQ_LOG_STRIDE	6
#define FWSIM_MAX_MSG		(16 + 512 * 64)	/* 64 mailbox blocks */
#define FWSIM_MAX_PAGES		8192		/* power of two */
#define FWSIM_MAX_UARS		64
#define FWSIM_FIRST_UAR		3		/* pages 0-2 hold the init segment */
#define FWSIM_MAX_EQS		16
#define FWSIM_NR_VECTORS	8
#define FWSIM_TRACE_LEN		128
#define FWSIM_CAP_LEN		0x1000
#define FWSIM_NR_CAP_TYPES	3		/* general, atomic, roce */

struct fwsim_trace_ent {
	u16 opcode;
	u16 op_mod;
	u32 in_len;
	u32 out_len;
	u8 delivery;
	u8 status;
	u32 syndrome;
	u8 phase;		/* phase when the command arrived */
};

struct fwsim_eq {
	bool used;
	u8 log_size;
	u32 uar;
	u32 intr;
	u32 npas;
	u64 pas0;
	u64 mask[4];
};

struct fwsim {
	const struct fwsim_ops *ops;
	void *ctx;
	enum fwsim_profile profile;

	/* init segment */
	u32 fw_rev;
	u32 cmdif_rev_sub;
	u32 cmdq_addr_h;
	u32 cmdq_addr_l;	/* address bits 31:12 as written */
	u64 cmdq_base;
	bool cmdq_ready;
	u64 initializing_until;	/* ns; initializing reads 1 before */
	u64 cmdq_init_delay_ns;
	u32 health_counter;

	/* HCA */
	enum fwsim_phase phase;
	u32 issi;
	u32 boot_pages;		/* demand, from the profile (tests may change) */
	u32 init_pages;
	u32 owed;		/* pages owed for the current phase */
	u32 regular_owed;	/* runtime demand (tests set it) */
	u8 host_endianness;
	char driver_version[64];

	/* pages: open-addressing set of 4 KiB page addresses, 0 = empty */
	u64 page_set[FWSIM_MAX_PAGES];
	u32 pages_held;
	u32 page_tomb;		/* deleted slots (all ones) */

	/* capabilities: [type][0 = max, 1 = cur] */
	u8 caps[FWSIM_NR_CAP_TYPES][2][FWSIM_CAP_LEN];

	/* objects */
	u8 uar_used[FWSIM_MAX_UARS];
	u32 nr_uars;
	struct fwsim_eq eqs[FWSIM_MAX_EQS];
	u32 nr_eqs;

	/* fault injection: next command with this opcode fails */
	u16 inj_opcode;
	u8 inj_status;
	u32 inj_syndrome;
	u32 inj_count;

	/* record */
	u32 err_count[FWSIM_NR_ERRS];
	enum fwsim_err last_err;
	u32 nr_errs;
	struct fwsim_trace_ent trace[FWSIM_TRACE_LEN];
	u32 trace_pos;		/* total commands seen */

	/* scratch for one command */
	u8 entry[64];
	u8 in[FWSIM_MAX_MSG];
	u8 out[FWSIM_MAX_MSG];
	u64 out_blocks[64];
};

void fwsim_init(struct fwsim *fw, enum fwsim_profile profile,
		const struct fwsim_ops *ops, void *ctx);

/* BAR0 access; values are the big-endian registers' numeric values */
u32 fwsim_mmio_read32(struct fwsim *fw, u32 off);
void fwsim_mmio_write32(struct fwsim *fw, u32 off, u32 val);

/* queries for tests and the simulated-device front */
u32 fwsim_pages_held(const struct fwsim *fw);
bool fwsim_page_held(const struct fwsim *fw, u64 addr);
u32 fwsim_err_count(const struct fwsim *fw, enum fwsim_err e);
const char *fwsim_err_str(enum fwsim_err e);
const char *fwsim_phase_str(enum fwsim_phase ph);
const char *fwsim_profile_str(enum fwsim_profile p);
u32 fwsim_objects_alive(const struct fwsim *fw);
const struct fwsim_trace_ent *fwsim_trace_get(const struct fwsim *fw,
					      u32 i);

/* fault injection */
void fwsim_inject(struct fwsim *fw, u16 opcode, u8 status, u32 syndrome,
		  u32 count);

/*
 * Whether the model knows the input bits [hi:lo] of the dword at off of
 * command opcode (used by the layout cross-check test).
 */
bool fwsim_in_field_known(u16 opcode, u32 off, u32 hi, u32 lo);

/* internal, between fwsim_cmd.c and fwsim_hca.c */
struct fwsim_cmd {
	u16 opcode;
	u16 op_mod;
	u32 in_len;
	u32 out_len;
	u8 status;
	u32 syndrome;
};
int fwsim_hca_dispatch(struct fwsim *fw, struct fwsim_cmd *cmd);
void fwsim_record(struct fwsim *fw, enum fwsim_err e);
void fwsim_caps_init(struct fwsim *fw);
enum fwsim_err fwsim_caps_check_set(const struct fwsim *fw, const u8 *cap);
u32 fwsim_rd(const u8 *buf, u32 off, u32 hi, u32 lo);
void fwsim_wr(u8 *buf, u32 off, u32 hi, u32 lo, u32 val);
u64 fwsim_rd64(const u8 *buf, u32 off);
void fwsim_wr64(u8 *buf, u32 off, u64 val);
void fwsim_bzero(void *p, u32 len);
void fwsim_bcopy(void *dst, const void *src, u32 len);

#endif /* FWSIM_H */
