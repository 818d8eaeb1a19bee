/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fwsim: a model of the mlx5-family firmware's control plane (init segment,
 * command queue, mailboxes, HCA lifecycle, pages, capabilities, UARs, EQs)
 * and its object plane (PDs, transport domains, MKeys, CQs, SRQs, QPs, the
 * RoCE address table and the NIC vport context), and its data path
 * (fwsim_dp.h: doorbells, WQE execution, CQEs, the transport seam).
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
	/*
	 * Optional: the function raises MSI-X vector @vector (an armed EQ got
	 * an EQE).  Called with the model's state in use: the front must not
	 * call back into the model from here (defer, as an interrupt does).
	 */
	void (*irq)(void *ctx, u32 vector);
	/*
	 * Optional: the model instance whose GID table holds dgid (16 bytes),
	 * for the data path's deliveries; NULL: nobody (RC requests then
	 * time out, UD messages are lost).  Without this op every message
	 * loops back to the sending instance.
	 */
	struct fwsim *(*route)(void *ctx, const u8 *dgid);
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
	FWSIM_E_QP_STATE,	/* QP command not legal from the QP's state */
	FWSIM_E_QP_FIELD,	/* QP field missing, or set where not allowed */
	FWSIM_E_INDEX,		/* table index out of range */
	FWSIM_E_EQ_DOORBELL,	/* EQ doorbell for an unknown EQ or foreign UAR */
	FWSIM_E_DP_DOORBELL,	/* send or CQ doorbell: unknown object, foreign UAR */
	FWSIM_E_DP_PRODUCER,	/* SQ producer counter beyond the ring */
	FWSIM_E_DP_WQE,		/* malformed or unsupported WQE (error CQE 0x02) */
	FWSIM_E_CQ_OVERRUN,	/* a CQE found the CQ full */
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

/*
 * Object tables: fixed size, no allocation.  The effective limit of each
 * is the smaller of the table and 1 << the capability's log_max_*.
 * Handles: PD, transport domain, MKey index, CQN and SRQN are the table
 * index + 1; QPN is FWSIM_QPN_BASE + index.
 */
#define FWSIM_MAX_PDS		64
#define FWSIM_MAX_TDS		16
#define FWSIM_MAX_MKEYS		128
#define FWSIM_MAX_CQS		64
#define FWSIM_MAX_SRQS		16
#define FWSIM_MAX_QPS		64
#define FWSIM_QPN_BASE		0x40
#define FWSIM_PAS_POOL		4096	/* 8-byte entries: MTTs and buffer pages */
#define FWSIM_MAX_GIDS		256
#define FWSIM_MKC_LEN		0x40
#define FWSIM_CQC_LEN		0x40
#define FWSIM_SRQC_LEN		0x40
#define FWSIM_QPC_LEN		0xe8
#define FWSIM_ROCE_ADDR_LEN	0x20
#define FWSIM_DP_MAX_WQE	1024		/* 16 WQEBBs */
#define FWSIM_DP_MAX_MSG	(64 * 1024)	/* largest message executed */

/* QP states and service types (the qpc encodings) */
enum fwsim_qp_state {
	FWSIM_QPS_RST = 0,
	FWSIM_QPS_INIT = 1,
	FWSIM_QPS_RTR = 2,
	FWSIM_QPS_RTS = 3,
	FWSIM_QPS_SQER = 4,
	FWSIM_QPS_ERR = 6,
};

enum fwsim_qp_st {
	FWSIM_QPT_RC = 0x0,
	FWSIM_QPT_UD = 0x2,
	FWSIM_QPT_GSI = 0x8,	/* QP1 */
};

/*
 * The qpc fields the model knows on QP transitions; fwsim_qpf[] gives each
 * one's name and position in the command input (qpc starts at byte 0x18).
 */
enum fwsim_qpf_id {
	FWSIM_QPF_MTU,
	FWSIM_QPF_LOG_MSG_MAX,
	FWSIM_QPF_REMOTE_QPN,
	FWSIM_QPF_PKEY_INDEX,
	FWSIM_QPF_ACK_TIMEOUT,
	FWSIM_QPF_SRC_ADDR_INDEX,
	FWSIM_QPF_STAT_RATE,
	FWSIM_QPF_HOP_LIMIT,
	FWSIM_QPF_TCLASS,
	FWSIM_QPF_FLOW_LABEL,
	FWSIM_QPF_RGID,
	FWSIM_QPF_ECN,
	FWSIM_QPF_DSCP,
	FWSIM_QPF_UDP_SPORT,
	FWSIM_QPF_ETH_PRIO,
	FWSIM_QPF_SL,
	FWSIM_QPF_PORT,		/* primary_address_path.vhca_port_num */
	FWSIM_QPF_RMAC,
	FWSIM_QPF_LOG_SRA_MAX,
	FWSIM_QPF_RETRY_COUNT,
	FWSIM_QPF_RNR_RETRY,
	FWSIM_QPF_NEXT_SEND_PSN,
	FWSIM_QPF_LOG_RRA_MAX,
	FWSIM_QPF_RRE,
	FWSIM_QPF_RWE,
	FWSIM_QPF_RAE,
	FWSIM_QPF_MIN_RNR_NAK,
	FWSIM_QPF_NEXT_RCV_PSN,
	FWSIM_QPF_Q_KEY,
	FWSIM_NR_QPF,
};

/* opt_param_mask bits */
enum {
	FWSIM_OPT_RRE = 1u << 1,
	FWSIM_OPT_RAE = 1u << 2,
	FWSIM_OPT_RWE = 1u << 3,
	FWSIM_OPT_PKEY_INDEX = 1u << 4,
	FWSIM_OPT_Q_KEY = 1u << 5,
	FWSIM_OPT_RNR_TIMEOUT = 1u << 6,
	FWSIM_OPT_PRI_PATH = 1u << 7,
	FWSIM_OPT_SRA_MAX = 1u << 8,
	FWSIM_OPT_RRA_MAX = 1u << 9,
	FWSIM_OPT_RETRY_COUNT = 1u << 12,
	FWSIM_OPT_RNR_RETRY = 1u << 13,
	FWSIM_OPT_ACK_TIMEOUT = 1u << 14,
	FWSIM_OPT_PRI_PORT = 1u << 16,
};

struct fwsim_qpf_desc {
	const char *name;
	u16 off;		/* in the command input */
	u8 hi;
	u8 lo;
	u8 len;			/* > 0: a byte range at off instead of bits */
	u32 opt;		/* the opt_param_mask bit that carries it, or 0 */
};

/*
 * One legal QP transition for one service type.  req: fields that must be
 * nonzero (a zero there is "missing"); opt: fields that may be set; optpar:
 * the opt_param_mask bits allowed, each of which also allows its fields.
 * Every other known qpc field must be zero on that edge.
 */
struct fwsim_qp_edge {
	u8 from;
	u16 opcode;
	u8 to;
	u8 st;
	u32 req;		/* bit i: fwsim_qpf id i */
	u32 opt;
	u32 optpar;
};

extern const struct fwsim_qpf_desc fwsim_qpf[FWSIM_NR_QPF];
extern const struct fwsim_qp_edge fwsim_qp_edges[];
extern const u32 fwsim_nr_qp_edges;

/*
 * Pure check of a QP transition command: in (in_len bytes) as sent for a
 * QP of service type st in state cur.  FWSIM_E_QP_STATE when no edge
 * leaves cur with opcode for st; FWSIM_E_QP_FIELD for a missing required
 * field, a field or opt_param_mask bit not allowed on the edge (*bad is
 * then the fwsim_qpf id, or FWSIM_NR_QPF + the bit number).  *edge is the
 * matching edge whenever one exists.
 */
enum fwsim_err fwsim_qp_edge_check(u8 cur, u16 opcode, u8 st, const u8 *in,
				   u32 in_len, const struct fwsim_qp_edge **edge,
				   u32 *bad);

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
	u32 refs;		/* CQs reporting to it */
	u32 uar;
	u32 intr;
	u32 npas;
	u64 pas0;
	u64 mask[4];
	u32 pi;			/* EQEs written */
	u32 ci;			/* as the driver last wrote it (24 bits) */
	bool armed;		/* one interrupt on the next EQE, then disarmed */
};

struct fwsim_pd {
	bool used;
	u32 refs;		/* MKeys, QPs and SRQs using it */
};

/* what a data-path model needs to translate through an MKey */
struct fwsim_mkey {
	bool used;
	u8 mode;		/* 0 PA, 1 MTT */
	u8 variant;		/* mkey_7_0 */
	u8 access;		/* mkc bits a, rw, rr, lw, lr as bits 4..0 */
	bool length64;
	u8 log_page_size;
	u32 pd;
	u64 start;
	u64 len;
	u32 mtt_off;		/* into fw->pas_pool */
	u32 n_mtt;
	bool free;		/* invalidated: no translation until loaded */
	u8 mkc[FWSIM_MKC_LEN];
};

struct fwsim_cq {
	bool used;
	u8 log_size;
	u32 uar;
	u32 eqn;
	u32 refs;		/* QPs and SRQs completing to it */
	u64 dbr;
	u32 pas_off;
	u32 npas;
	/* data path (fwsim_dp.c) */
	u32 pi;			/* CQEs written */
	u32 sol_pi;		/* pi after the last solicited or error CQE */
	bool armed;
	bool arm_sol;		/* armed for solicited completions only */
	u32 arm_ci;		/* ci of the arm word */
	bool overrun;		/* in error: takes no more CQEs */
	u8 cqc[FWSIM_CQC_LEN];
};

struct fwsim_srq {
	bool used;
	u32 pd;
	u32 cqn;
	u32 refs;		/* QPs receiving from it */
	u64 dbr;
	u32 pas_off;
	u32 npas;
	u8 srqc[FWSIM_SRQC_LEN];
};

struct fwsim_qp {
	bool used;
	u8 st;
	u8 state;
	u32 pd;
	u32 uar;
	u32 cqn_snd;
	u32 cqn_rcv;
	u32 srqn;		/* 0: none */
	u64 dbr;
	u32 pas_off;
	u32 npas;
	/* data path (fwsim_dp.c): consumer counters, RNR attempts left */
	u16 sq_cc;
	u16 rq_cc;
	u8 rnr_left;
	bool rnr_wait;
	u8 qpc[FWSIM_QPC_LEN];
};

struct fwsim_roce_addr {
	bool valid;
	u8 raw[FWSIM_ROCE_ADDR_LEN];	/* roce_addr_layout as set */
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
	struct fwsim_pd pds[FWSIM_MAX_PDS];
	u32 nr_pds;
	bool tds[FWSIM_MAX_TDS];
	u32 nr_tds;
	struct fwsim_mkey mkeys[FWSIM_MAX_MKEYS];
	u32 nr_mkeys;
	struct fwsim_cq cqs[FWSIM_MAX_CQS];
	u32 nr_cqs;
	struct fwsim_srq srqs[FWSIM_MAX_SRQS];
	u32 nr_srqs;
	struct fwsim_qp qps[FWSIM_MAX_QPS];
	u32 nr_qps;
	u64 pas_pool[FWSIM_PAS_POOL];
	u8 pas_used[FWSIM_PAS_POOL / 8];	/* bitmap */
	u32 pas_in_use;

	/* port 1: RoCE address (GID) table and NIC vport context */
	struct fwsim_roce_addr gids[FWSIM_MAX_GIDS];
	bool roce_en;
	bool disable_uc_lb;
	bool disable_mc_lb;
	u32 mtu;
	u8 perm_mac[6];

	/* fault injection: next command with this opcode fails */
	u16 inj_opcode;
	u8 inj_status;
	u32 inj_syndrome;
	u32 inj_count;

	/*
	 * Events and health (fwsim_eq.c).  fatal: the firmware is dead: the
	 * health counter stops, doorbells are ignored (no completion, no
	 * EQE) until a function reset (nic_interface = 7).
	 */
	bool fatal;
	bool health_stuck;	/* counter frozen without a syndrome */
	u32 health_frozen;	/* the counter's value once frozen */
	u8 health_synd;
	bool nic_disabled;	/* reset done, command queue not set up again */
	u32 hold_next;		/* the next n commands are held, not run */
	u32 held;		/* slots held (posted, not yet run) */
	s32 page_give_back;	/* pages the model asked the driver to take */
	bool port_up;
	u32 eqes;		/* EQEs written */
	u32 eqes_dropped;	/* EQEs lost: the EQ was full (CI not updated) */
	u32 irqs;		/* interrupts raised */
	u32 resets;		/* function resets */
	u32 pages_reset;	/* pages dropped by function resets */

	/* data path (fwsim_dp.c): one WQE and one message at a time */
	u8 dp_wqe[FWSIM_DP_MAX_WQE];
	u8 dp_rwqe[FWSIM_DP_MAX_WQE];	/* the responder's receive WQE */
	u8 dp_msg[FWSIM_DP_MAX_MSG];
	u32 dp_depth;		/* nested deliveries (loopback) */
	u32 dp_wqes;		/* WQEs executed */
	u32 dp_cqes;		/* CQEs written */
	u32 dp_drops;		/* UD messages dropped (no QP, qkey, no WQE) */

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
void fwsim_mmio_write64(struct fwsim *fw, u32 off, u64 val);

/* queries for tests and the simulated-device front */
u32 fwsim_pages_held(const struct fwsim *fw);
bool fwsim_page_held(const struct fwsim *fw, u64 addr);
u32 fwsim_err_count(const struct fwsim *fw, enum fwsim_err e);
const char *fwsim_err_str(enum fwsim_err e);
const char *fwsim_phase_str(enum fwsim_phase ph);
const char *fwsim_profile_str(enum fwsim_profile p);
const char *fwsim_profile_psid(enum fwsim_profile p);
u32 fwsim_objects_alive(const struct fwsim *fw);
const struct fwsim_trace_ent *fwsim_trace_get(const struct fwsim *fw,
					      u32 i);

/* fault injection */
void fwsim_inject(struct fwsim *fw, u16 opcode, u8 status, u32 syndrome,
		  u32 count);

/*
 * Events, health and faults (fwsim_eq.c).  EQEs go to the first EQ whose
 * event mask has the type; command completions are posted to it as type
 * 0x0a whenever such an EQ exists (the driver may ignore them while it
 * polls).  An armed EQ raises ops->irq for its vector once and disarms;
 * arming it with unconsumed EQEs raises it at once.
 */
bool fwsim_eq_post(struct fwsim *fw, u8 type, u8 sub_type, const u8 *data,
		   u32 len);
/* PAGE_REQUEST: > 0 the driver must give npages, < 0 take -npages */
bool fwsim_page_request(struct fwsim *fw, s32 npages);
/* the port went up or down: PORT_CHANGE EQE when it changed */
bool fwsim_port_set(struct fwsim *fw, bool up);
/*
 * An asynchronous object event (EQE type 0x01-0x05, 0x07, 0x10-0x14 but
 * not 0x00 completion) for object number objnum, live or not; false for
 * another type, a number above 24 bits, before INIT_HCA or when no EQ
 * takes the type.
 */
bool fwsim_raise_async(struct fwsim *fw, u8 type, u32 objnum);
bool fwsim_async_type(u8 type);
/* the firmware dies with health syndrome synd (nonzero) */
void fwsim_health_fatal(struct fwsim *fw, u8 synd);
/* the health counter stops (the firmware hangs without a syndrome) */
void fwsim_health_stall(struct fwsim *fw);
/* hold the next n commands posted; release runs every held one */
void fwsim_hold_cmds(struct fwsim *fw, u32 n);
void fwsim_release_cmds(struct fwsim *fw);
/* function reset (FLR / nic_interface = 7): everything the HCA held goes */
void fwsim_func_reset(struct fwsim *fw);

/*
 * Whether the model knows the input bits [hi:lo] of the dword at off of
 * command opcode (used by the layout cross-check test).
 */
bool fwsim_in_field_known(u16 opcode, u32 off, u32 hi, u32 lo);

/*
 * Test and data-path hook: the data path moves a QP to SQER or ERR on a
 * send error.  0, or -1 for an unknown QP or a state its type cannot reach.
 */
int fwsim_qp_set_state(struct fwsim *fw, u32 qpn, enum fwsim_qp_state state);

#include "fwsim_dp.h"

/* internal, between the fwsim files */
struct fwsim_cmd {
	u16 opcode;
	u16 op_mod;
	u32 in_len;
	u32 out_len;
	u8 status;
	u32 syndrome;
};

/* command status values the model answers with */
enum {
	FWSIM_ST_OK = 0x00, FWSIM_ST_BAD_OP = 0x02, FWSIM_ST_BAD_PARAM = 0x03,
	FWSIM_ST_BAD_SYS_STATE = 0x04, FWSIM_ST_BAD_RES = 0x05,
	FWSIM_ST_LIM = 0x08, FWSIM_ST_BAD_RES_STATE = 0x09,
	FWSIM_ST_BAD_INDEX = 0x0a, FWSIM_ST_BAD_QP_STATE = 0x10,
	FWSIM_ST_BAD_INP_LEN = 0x50, FWSIM_ST_BAD_OUTP_LEN = 0x51,
};

/* a known input field: dword offset and bits, or a byte range (len > 0) */
struct fwsim_kfld {
	u16 off;
	u8 hi;
	u8 lo;
	u16 len;
};

#define FWSIM_K_(o, h, l)	{ .off = (o), .hi = (h), .lo = (l), .len = 0 }
#define FWSIM_K(...)		FWSIM_K_(__VA_ARGS__)
#define FWSIM_KB(o, n)		{ .off = (o), .hi = 0, .lo = 0, .len = (n) }

#define FWSIM_PH(p)		(1u << FWSIM_PH_##p)
#define FWSIM_PH_ANY		((1u << FWSIM_NR_PHASES) - 1)

struct fwsim_cmd_desc {
	u16 opcode;
	u16 min_in;
	u16 min_out;
	u32 phases;
	const struct fwsim_kfld *known;
	u32 n_known;
	void (*handler)(struct fwsim *fw, struct fwsim_cmd *cmd);
};

#define FWSIM_KN(a)	(a), (u32)(sizeof(a) / sizeof((a)[0]))
#define FWSIM_D_(op, mi, mo, ph, k, nk, h) {				\
	.opcode = (op), .min_in = (mi), .min_out = (mo), .phases = (ph), \
	.known = (k), .n_known = (nk), .handler = (h),			\
}
#define FWSIM_D(op, mi, mo, ph, ...)	FWSIM_D_(op, mi, mo, ph, __VA_ARGS__)

/* the command tables of fwsim_obj.c, fwsim_qp.c and fwsim_port.c */
extern const struct fwsim_cmd_desc fwsim_obj_cmds[];
extern const u32 fwsim_nr_obj_cmds;
extern const struct fwsim_cmd_desc fwsim_qp_cmds[];
extern const u32 fwsim_nr_qp_cmds;
extern const struct fwsim_cmd_desc fwsim_port_cmds[];
extern const u32 fwsim_nr_port_cmds;

int fwsim_hca_dispatch(struct fwsim *fw, struct fwsim_cmd *cmd);
void fwsim_process_slot(struct fwsim *fw, u32 slot);
void fwsim_eq_cmd_done(struct fwsim *fw, u32 slot);
u32 fwsim_health_read(struct fwsim *fw, u32 off);
void fwsim_uar_write(struct fwsim *fw, u32 off, u32 val);
void fwsim_uar_write64(struct fwsim *fw, u32 off, u64 val);
bool fwsim_eq_post_to(struct fwsim *fw, u32 eqn, u8 type, const u8 *data,
		      u32 len);
void fwsim_obj_reset(struct fwsim *fw);
void fwsim_record(struct fwsim *fw, enum fwsim_err e);
void fwsim_fail(struct fwsim *fw, struct fwsim_cmd *cmd, u8 status,
		enum fwsim_err e);
bool fwsim_uar_valid(const struct fwsim *fw, u32 uar);
bool fwsim_uar_busy_obj(const struct fwsim *fw, u32 uar);
u32 fwsim_obj_count(const struct fwsim *fw);
void fwsim_port_reset(struct fwsim *fw);
void fwsim_hca_to_disabled(struct fwsim *fw);
struct fwsim_pd *fwsim_pd_get(struct fwsim *fw, u32 pd);
struct fwsim_cq *fwsim_cq_get(struct fwsim *fw, u32 cqn);
struct fwsim_srq *fwsim_srq_get(struct fwsim *fw, u32 srqn);
bool fwsim_dma_ok(struct fwsim *fw, u64 addr, u32 len);
int fwsim_pas_take(struct fwsim *fw, struct fwsim_cmd *cmd, u32 in_off,
		   u32 n, u64 pg, u64 flags, u32 *pool_off);
void fwsim_pas_put(struct fwsim *fw, u32 pool_off, u32 n);
u32 fwsim_cap(const struct fwsim *fw, u32 type, u32 off, u32 hi, u32 lo);
bool fwsim_gid_valid(const struct fwsim *fw, u32 index);
void fwsim_caps_init(struct fwsim *fw);
enum fwsim_err fwsim_caps_check_set(const struct fwsim *fw, const u8 *cap);
u32 fwsim_rd(const u8 *buf, u32 off, u32 hi, u32 lo);
void fwsim_wr(u8 *buf, u32 off, u32 hi, u32 lo, u32 val);
u64 fwsim_rd64(const u8 *buf, u32 off);
void fwsim_wr64(u8 *buf, u32 off, u64 val);
void fwsim_bzero(void *p, u32 len);
void fwsim_bcopy(void *dst, const void *src, u32 len);

#endif /* FWSIM_H */
