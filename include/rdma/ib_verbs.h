/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The in-kernel verbs API of this stack: the objects (PD, MR, MW, CQ, QP,
 * SRQ, AH), their attributes and the calls kernel code makes on them.
 * Names and meanings follow upstream Linux so that kernel code and habits
 * carry over.  Type-level parts used by pure-logic files live in their own
 * headers (ib_qp_state.h, ib_gid_table.h, ...).
 *
 * Object lifetime and reference rules: Documentation/core/verbs-objects.rst.
 * Summary: core allocates PD/MW/CQ/QP/SRQ/AH/ucontext memory of the size
 * the driver declares (INIT_RDMA_OBJ_SIZE), the driver fills it in its
 * create op; MRs are allocated by the driver.  Each object holds a use
 * (usecnt) of the objects it was created on (QP: PD, CQs, SRQ; MR: PD ...);
 * destroying an object with users fails with -EBUSY.
 */
#ifndef _RDMA_IB_VERBS_H
#define _RDMA_IB_VERBS_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/if_ether.h>
#include <linux/uaccess.h>
#include <linux/scatterlist.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <rdma/ib_qp_state.h>
#include <rdma/ib_placement.h>
#include <rdma/ib_device.h>
#include <rdma/ib_dma.h>
#include <rdma/ib_gid_table.h>
#include <rdma/restrack.h>

/* A GID as 16 bytes, or as the subnet prefix and interface id of IB. */
union ib_gid {
	u8 raw[RDMA_GID_BYTES];
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

/*
 * A GID table entry as ops.add_gid/del_gid see it; @ndev is the port's
 * netdev when the entry is its (valid for the call only), else NULL.
 */
struct ib_gid_attr {
	struct net_device *ndev;
	const struct ib_device *device;
	union ib_gid gid;
	enum ib_gid_type gid_type;
	u16 index;
	u32 port_num;
};

struct ib_uobject;		/* uverbs' handle of a user object (opaque) */
struct ib_umem;			/* pinned user memory, <rdma/ib_umem.h> */

/* ---- user data of a driver call (the udata part of a uverbs command) ---- */

struct ib_udata {
	const void __user *inbuf;
	void __user *outbuf;
	size_t inlen;
	size_t outlen;
	/*
	 * The user context the call is made for (set by whoever builds the
	 * udata or by core's *_user functions, which know it); drivers use
	 * it to tie mmap cookies to their context.  NULL if unknown.
	 */
	struct ib_ucontext *uctx;
};

/*
 * Driver data in and out of a uverbs command: never beyond the lengths
 * user space gave.  What user space did not send reads as zero; what it
 * has no room for is not written (a driver that needs a minimum checks
 * inlen/outlen itself and fails with EINVAL).
 */
static inline int ib_copy_from_udata(void *dest, struct ib_udata *udata,
				     size_t len)
{
	size_t n = min(len, udata->inlen);

	if (n && copy_from_user(dest, udata->inbuf, n))
		return -EFAULT;
	memset((char *)dest + n, 0, len - n);
	return 0;
}

static inline int ib_copy_to_udata(struct ib_udata *udata, const void *src,
				   size_t len)
{
	size_t n = min(len, udata->outlen);

	return n && copy_to_user(udata->outbuf, src, n) ? -EFAULT : 0;
}

/* A user context: one per uverbs file, after GET_CONTEXT. */
struct ib_ucontext {
	struct ib_device *device;
	void *ufile;			/* uverbs' file (opaque to drivers) */
	struct rdma_restrack_entry res;
};

/*
 * Core allocates driver objects: a driver declares the size of its struct
 * that embeds the ib_ object at offset 0, e.g.
 *   INIT_RDMA_OBJ_SIZE(ib_pd, rxe_pd, ibpd)
 * in its ib_device_ops.
 */
#define INIT_RDMA_OBJ_SIZE(ib_struct, drv_struct, member)		\
	.size_##ib_struct =						\
		(sizeof(struct drv_struct) +				\
		 BUILD_BUG_ON_ZERO(offsetof(struct drv_struct, member)) +	\
		 BUILD_BUG_ON_ZERO(!__same_type(((struct drv_struct *)NULL)->member, \
						struct ib_struct)))

/* ---- access flags (uapi values) ---- */

enum ib_access_flags {
	/* what a remote peer or a local WR may do with the memory */
	IB_ACCESS_LOCAL_WRITE = IB_UVERBS_ACCESS_LOCAL_WRITE,
	IB_ACCESS_REMOTE_READ = IB_UVERBS_ACCESS_REMOTE_READ,
	IB_ACCESS_REMOTE_WRITE = IB_UVERBS_ACCESS_REMOTE_WRITE,
	IB_ACCESS_REMOTE_ATOMIC = IB_UVERBS_ACCESS_REMOTE_ATOMIC,
	IB_ACCESS_MW_BIND = IB_UVERBS_ACCESS_MW_BIND,
	/* how the region is addressed and backed */
	IB_ZERO_BASED = IB_UVERBS_ACCESS_ZERO_BASED,
	IB_ACCESS_HUGETLB = IB_UVERBS_ACCESS_HUGETLB,
	IB_ACCESS_ON_DEMAND = IB_UVERBS_ACCESS_ON_DEMAND,
	/* the targets of RDMA FLUSH (IBTA 1.5) */
	IB_ACCESS_FLUSH_GLOBAL = RDMA_UVERBS_ACCESS_FLUSH_GLOBAL,
	IB_ACCESS_FLUSH_PERSISTENT = RDMA_UVERBS_ACCESS_FLUSH_PERSISTENT,
	/* bits a device may ignore (IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS) */
	IB_ACCESS_OPTIONAL = IB_UVERBS_ACCESS_OPTIONAL_RANGE,
	IB_ACCESS_RELAXED_ORDERING = IB_UVERBS_ACCESS_RELAXED_ORDERING,
	IB_ACCESS_SUPPORTED = ((IB_ACCESS_FLUSH_PERSISTENT << 1) - 1) |
			      IB_ACCESS_OPTIONAL,
};

/* ---- protection domain ---- */

struct ib_pd {
	struct ib_device *device;
	struct ib_uobject *uobject;	/* NULL for kernel PDs */
	atomic_t usecnt;		/* MRs, MWs, QPs, SRQs, AHs on it */
	/* kernel PDs: the lkey of all of memory (internal_mr's) */
	u32 local_dma_lkey;
	u32 flags;
	/* kernel PDs: a DMA MR of the PD, owned by it, not in restrack */
	struct ib_mr *internal_mr;
	struct rdma_restrack_entry res;
};

/* ---- memory regions and windows ---- */

struct ib_mr {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	u32 lkey;
	u32 rkey;
	u64 iova;
	u64 length;
	unsigned int page_size;
	enum ib_mr_type type;
	int access;			/* enum ib_access_flags */
	bool need_inval;		/* registered by IB_WR_REG_MR */
	struct rdma_restrack_entry res;
};

/* ib_rereg_user_mr() / REREG_MR flags: what changes (uapi values) */
enum ib_mr_rereg_flags {
	IB_MR_REREG_TRANS = 1 << 0,
	IB_MR_REREG_PD = 1 << 1,
	IB_MR_REREG_ACCESS = 1 << 2,
	IB_MR_REREG_SUPPORTED = (IB_MR_REREG_ACCESS << 1) - 1
};

enum ib_mw_type {
	IB_MW_TYPE_1 = 1,
	IB_MW_TYPE_2 = 2,
};

struct ib_mw {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	u32 rkey;
	enum ib_mw_type type;
};

/* ---- completion queues ---- */

/* Completion status; the numbers are the user ABI (ibv_wc_status). */
enum ib_wc_status {
	IB_WC_SUCCESS = 0,
	/* local errors */
	IB_WC_LOC_LEN_ERR = 1, IB_WC_LOC_QP_OP_ERR = 2, IB_WC_LOC_EEC_OP_ERR = 3,
	IB_WC_LOC_PROT_ERR = 4, IB_WC_WR_FLUSH_ERR = 5, IB_WC_MW_BIND_ERR = 6,
	IB_WC_BAD_RESP_ERR = 7, IB_WC_LOC_ACCESS_ERR = 8,
	/* reported by the remote end, or retries used up */
	IB_WC_REM_INV_REQ_ERR = 9, IB_WC_REM_ACCESS_ERR = 10, IB_WC_REM_OP_ERR = 11,
	IB_WC_RETRY_EXC_ERR = 12, IB_WC_RNR_RETRY_EXC_ERR = 13,
	IB_WC_LOC_RDD_VIOL_ERR = 14, IB_WC_REM_INV_RD_REQ_ERR = 15,
	IB_WC_REM_ABORT_ERR = 16, IB_WC_INV_EECN_ERR = 17,
	IB_WC_INV_EEC_STATE_ERR = 18,
	/* anything else */
	IB_WC_FATAL_ERR = 19, IB_WC_RESP_TIMEOUT_ERR = 20, IB_WC_GENERAL_ERR = 21
};

/* What completed; user-visible values come from the uapi enum. */
enum ib_wc_opcode {
	IB_WC_SEND = IB_UVERBS_WC_SEND, IB_WC_RDMA_WRITE = IB_UVERBS_WC_RDMA_WRITE,
	IB_WC_RDMA_READ = IB_UVERBS_WC_RDMA_READ,
	IB_WC_COMP_SWAP = IB_UVERBS_WC_COMP_SWAP,
	IB_WC_FETCH_ADD = IB_UVERBS_WC_FETCH_ADD,
	IB_WC_BIND_MW = IB_UVERBS_WC_BIND_MW, IB_WC_LOCAL_INV = IB_UVERBS_WC_LOCAL_INV,
	IB_WC_LSO = IB_UVERBS_WC_TSO,
	IB_WC_FLUSH = RDMA_UVERBS_WC_FLUSH,
	IB_WC_ATOMIC_WRITE = RDMA_UVERBS_WC_ATOMIC_WRITE,
	/* kernel consumers only */
	IB_WC_REG_MR, IB_WC_MASKED_COMP_SWAP, IB_WC_MASKED_FETCH_ADD,
	IB_WC_RECV = 1 << 7,		/* receive completions have this bit */
	IB_WC_RECV_RDMA_WITH_IMM
};

enum ib_wc_flags {
	IB_WC_GRH = 1,
	IB_WC_WITH_IMM = 1 << 1,
	IB_WC_WITH_INVALIDATE = 1 << 2,
	IB_WC_IP_CSUM_OK = 1 << 3,
	IB_WC_WITH_SMAC = 1 << 4,
	IB_WC_WITH_VLAN = 1 << 5,
	IB_WC_WITH_NETWORK_HDR_TYPE = 1 << 6,
};

struct ib_qp;

struct ib_wc {
	u64 wr_id;
	enum ib_wc_status status;
	enum ib_wc_opcode opcode;
	u32 vendor_err, byte_len;
	struct ib_qp *qp;		/* the QP the work request was on */
	union {
		__be32 imm_data;	/* IB_WC_WITH_IMM */
		u32 invalidate_rkey;	/* IB_WC_WITH_INVALIDATE */
	} ex;
	/* receive side: where it came from */
	u32 src_qp, slid;
	int wc_flags;			/* enum ib_wc_flags */
	u16 pkey_index;
	u8 sl, dlid_path_bits;
	u32 port_num;
	u8 smac[ETH_ALEN];
	u16 vlan_id;
	u8 network_hdr_type;
};

struct ib_cq;
struct ib_event;
typedef void (*ib_comp_handler)(struct ib_cq *cq, void *cq_context);

struct ib_cq_init_attr {
	unsigned int cqe;
	u32 comp_vector;
	u32 flags;
};

/* How a kernel CQ is polled (the values of upstream's netlink attribute). */
enum ib_poll_context {
	IB_POLL_SOFTIRQ,
	IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
	IB_POLL_DIRECT,
};

struct ib_cq {
	struct ib_device *device;
	struct ib_uobject *uobject;
	ib_comp_handler comp_handler;	/* a completion after an arm */
	void (*event_handler)(struct ib_event *event, void *context);
	void *cq_context;
	int cqe;			/* capacity, set by the driver */
	u32 comp_vector;
	atomic_t usecnt;		/* QPs using it */
	/* who polls a kernel CQ (rdma res "poll-ctx"); 0 unless its owner says */
	u8 poll_ctx;
	struct rdma_restrack_entry res;
};

/* ---- shared receive queues ---- */

enum ib_srq_type {
	IB_SRQT_BASIC = IB_UVERBS_SRQT_BASIC,
	IB_SRQT_XRC = IB_UVERBS_SRQT_XRC,
	IB_SRQT_TM = IB_UVERBS_SRQT_TM,
};

struct ib_srq_attr {
	u32 max_wr;
	u32 max_sge;
	u32 srq_limit;
};

struct ib_srq_init_attr {
	void (*event_handler)(struct ib_event *event, void *srq_context);
	void *srq_context;
	struct ib_srq_attr attr;
	enum ib_srq_type srq_type;
};

struct ib_srq {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	void (*event_handler)(struct ib_event *event, void *srq_context);
	void *srq_context;
	enum ib_srq_type srq_type;
	atomic_t usecnt;		/* QPs using it */
	struct rdma_restrack_entry res;
};

/* ---- address handles ---- */

enum rdma_ah_attr_type {
	RDMA_AH_ATTR_TYPE_UNDEFINED,
	RDMA_AH_ATTR_TYPE_IB,
	RDMA_AH_ATTR_TYPE_ROCE,
	RDMA_AH_ATTR_TYPE_OPA,
};

enum ib_ah_flags {
	IB_AH_GRH = 1,
};

struct ib_global_route {
	union ib_gid dgid;
	u32 flow_label;
	u8 sgid_index;
	u8 hop_limit;
	u8 traffic_class;
};

struct rdma_ah_attr {
	struct ib_global_route grh;
	u8 sl;
	u8 static_rate;
	u32 port_num;
	u8 ah_flags;			/* IB_AH_GRH */
	enum rdma_ah_attr_type type;
	/*
	 * Filled by core before the driver sees it: the source GID entry
	 * (RoCE: must be a RoCEv2 entry) and, for RoCE, the destination MAC
	 * resolved through the neighbour table.
	 */
	struct rdma_ah_sgid {
		union ib_gid gid;
		enum ib_gid_type gid_type;
		int ndev_ifindex;
	} sgid_attr;
	struct {
		u8 dmac[ETH_ALEN];
	} roce;
	struct {
		u16 dlid;
		u8 src_path_bits;
	} ib;
};

/* ib_create_ah / CREATE_AH flags */
enum rdma_create_ah_flags {
	RDMA_CREATE_AH_SLEEPABLE = 1 << 0,
};

enum rdma_destroy_ah_flags {
	RDMA_DESTROY_AH_SLEEPABLE = 1 << 0,
};

struct rdma_ah_init_attr {
	struct rdma_ah_attr *ah_attr;
	u32 flags;			/* enum rdma_create_ah_flags */
};

struct ib_ah {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	enum rdma_ah_attr_type type;
};

/* ---- queue pairs ---- */

enum ib_sig_type {
	IB_SIGNAL_ALL_WR,
	IB_SIGNAL_REQ_WR
};

enum ib_qp_create_flags {
	IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK = IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK,
	IB_QP_CREATE_SCATTER_FCS = IB_UVERBS_QP_CREATE_SCATTER_FCS,
	IB_QP_CREATE_CVLAN_STRIPPING = IB_UVERBS_QP_CREATE_CVLAN_STRIPPING,
	IB_QP_CREATE_PCI_WRITE_END_PADDING = IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING,
};

struct ib_qp_cap {
	u32 max_send_wr, max_recv_wr;	/* queue depths */
	u32 max_send_sge, max_recv_sge;	/* scatter/gather entries per WR */
	u32 max_inline_data;		/* bytes a send WR may carry inline */
	u32 max_rdma_ctxs;
};

struct ib_qp_init_attr {
	void (*event_handler)(struct ib_event *event, void *qp_context);
	void *qp_context;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_srq *srq;
	struct ib_qp_cap cap;		/* in: wanted; out: what the QP has */
	enum ib_sig_type sq_sig_type;
	enum ib_qp_type qp_type;
	u32 create_flags;		/* enum ib_qp_create_flags */
	u32 port_num;			/* SMI/GSI only */
};

enum ib_mig_state {
	IB_MIG_MIGRATED,
	IB_MIG_REARM,
	IB_MIG_ARMED
};

/* Modify/query QP attributes; which ones count is the IB_QP_* mask. */
struct ib_qp_attr {
	enum ib_qp_state qp_state, cur_qp_state;
	enum ib_mtu path_mtu;
	enum ib_mig_state path_mig_state;
	u32 qkey, rq_psn, sq_psn, dest_qp_num;
	int qp_access_flags;		/* enum ib_access_flags (remote ones) */
	struct ib_qp_cap cap;
	struct rdma_ah_attr ah_attr, alt_ah_attr;	/* primary, alternate path */
	u16 pkey_index, alt_pkey_index;
	u8 en_sqd_async_notify, sq_draining;
	u8 max_rd_atomic, max_dest_rd_atomic;	/* initiator, responder depth */
	u8 min_rnr_timer;
	u32 port_num;
	u8 timeout, retry_cnt, rnr_retry;
	u32 alt_port_num;
	u8 alt_timeout;
	u32 rate_limit;
};

struct ib_qp {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_srq *srq;
	struct ib_uobject *uobject;
	void (*event_handler)(struct ib_event *event, void *qp_context);
	void *qp_context;
	u32 qp_num;
	enum ib_qp_type qp_type;
	u32 port;
	/*
	 * The state as core knows it: set by ib_modify_qp() after the driver
	 * accepted a change, and by ib_qp_state_changed() when the driver
	 * moves the QP itself (to ERR or SQE).  Under @state_lock.
	 */
	spinlock_t state_lock;
	enum ib_qp_state state;
	struct mutex modify_mutex;	/* one modify at a time */
	/* multicast attachments (ib_attach_mcast): no destroy while > 0 */
	atomic_t usecnt;
	struct rdma_restrack_entry res;
};

/* ---- work requests (kernel consumers) ---- */

enum ib_wr_opcode {
	/* sends */
	IB_WR_SEND = IB_UVERBS_WR_SEND, IB_WR_SEND_WITH_IMM = IB_UVERBS_WR_SEND_WITH_IMM,
	IB_WR_SEND_WITH_INV = IB_UVERBS_WR_SEND_WITH_INV,
	IB_WR_LSO = IB_UVERBS_WR_TSO,
	/* RDMA and atomics */
	IB_WR_RDMA_WRITE = IB_UVERBS_WR_RDMA_WRITE,
	IB_WR_RDMA_WRITE_WITH_IMM = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
	IB_WR_RDMA_READ = IB_UVERBS_WR_RDMA_READ,
	IB_WR_RDMA_READ_WITH_INV = IB_UVERBS_WR_RDMA_READ_WITH_INV,
	IB_WR_ATOMIC_CMP_AND_SWP = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
	IB_WR_ATOMIC_FETCH_AND_ADD = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
	/* local memory operations */
	IB_WR_LOCAL_INV = IB_UVERBS_WR_LOCAL_INV, IB_WR_BIND_MW = IB_UVERBS_WR_BIND_MW,
	IB_WR_MASKED_ATOMIC_CMP_AND_SWP = IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP,
	IB_WR_MASKED_ATOMIC_FETCH_AND_ADD = IB_UVERBS_WR_MASKED_ATOMIC_FETCH_AND_ADD,
	/* memory placement (IBTA 1.5) */
	IB_WR_FLUSH = RDMA_UVERBS_WR_FLUSH,
	IB_WR_ATOMIC_WRITE = RDMA_UVERBS_WR_ATOMIC_WRITE,
	/* kernel only */
	IB_WR_REG_MR = 0x20,
	IB_WR_REG_MR_INTEGRITY,
};

enum ib_send_flags {
	IB_SEND_FENCE = 1,
	IB_SEND_SIGNALED = 1 << 1,
	IB_SEND_SOLICITED = 1 << 2,
	IB_SEND_INLINE = 1 << 3,
	IB_SEND_IP_CSUM = 1 << 4,
};

struct ib_sge {
	u64 addr;
	u32 length;
	u32 lkey;
};

/* A send-queue work request; opcode-specific parts wrap it (rdma_wr()...). */
struct ib_send_wr {
	struct ib_send_wr *next;	/* NULL ends the list */
	u64 wr_id;			/* echoed in the completion */
	struct ib_sge *sg_list;
	int num_sge;
	enum ib_wr_opcode opcode;
	int send_flags;			/* enum ib_send_flags */
	union {
		__be32 imm_data;	/* *_WITH_IMM */
		u32 invalidate_rkey;	/* SEND_WITH_INV, LOCAL_INV */
	} ex;
};

struct ib_rdma_wr {
	struct ib_send_wr wr;
	u64 remote_addr;
	u32 rkey;
};

struct ib_atomic_wr {
	struct ib_send_wr wr;
	u64 remote_addr;
	u64 compare_add;
	u64 swap;
	u32 rkey;
};

struct ib_ud_wr {
	struct ib_send_wr wr;
	struct ib_ah *ah;
	u32 remote_qpn;
	u32 remote_qkey;
	u16 pkey_index;
};

/* IB_WR_REG_MR: make @mr (mapped by ib_map_mr_sg) valid with @key/@access */
struct ib_reg_wr {
	struct ib_send_wr wr;
	struct ib_mr *mr;
	u32 key;
	int access;
};

static inline const struct ib_rdma_wr *rdma_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_rdma_wr, wr);
}

static inline const struct ib_atomic_wr *atomic_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_atomic_wr, wr);
}

static inline const struct ib_ud_wr *ud_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_ud_wr, wr);
}

static inline const struct ib_reg_wr *reg_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_reg_wr, wr);
}

struct ib_recv_wr {
	struct ib_recv_wr *next;
	u64 wr_id;
	struct ib_sge *sg_list;
	int num_sge;
};

/* ---- the kernel verbs API (core verbs.c) ---- */

struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller);
#define ib_alloc_pd(device, flags) \
	__ib_alloc_pd((device), (flags), KBUILD_MODNAME)
/* -EBUSY while objects use it */
int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata);
static inline int ib_dealloc_pd(struct ib_pd *pd)
{
	return ib_dealloc_pd_user(pd, NULL);
}

struct ib_mr *ib_get_dma_mr(struct ib_pd *pd, int access);
struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			  u32 max_num_sg);
/*
 * Map the DMA addresses of @sg into @mr's page list in @page_size pages;
 * returns the number of entries mapped.
 */
int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size);
/*
 * For drivers' map_mr_sg: split @sgl into @mr->page_size pages and call
 * @set_page for each; the first and last entry may be partial pages, the
 * others must be page aligned.  Returns entries consumed.
 */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset_p,
		   int (*set_page)(struct ib_mr *mr, u64 addr));
/* A user MR, as REG_MR makes it; for kernel callers holding an mm. */
struct ib_mr *ib_reg_user_mr_udata(struct ib_pd *pd, u64 start, u64 length,
				   u64 virt_addr, int access_flags,
				   struct ib_udata *udata);
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata);
static inline int ib_dereg_mr(struct ib_mr *mr)
{
	return ib_dereg_mr_user(mr, NULL);
}

struct ib_mw *ib_alloc_mw(struct ib_pd *pd, enum ib_mw_type type);
int ib_dealloc_mw(struct ib_mw *mw);

struct ib_cq *__ib_create_cq(struct ib_device *device, ib_comp_handler comp_handler,
			     void (*event_handler)(struct ib_event *, void *),
			     void *cq_context, const struct ib_cq_init_attr *cq_attr,
			     const char *caller);
/* A kernel CQ, owned (for "rdma res") by the calling module. */
#define ib_create_cq(dev, on_comp, on_event, ctx, attr) \
	__ib_create_cq(dev, on_comp, on_event, ctx, attr, KBUILD_MODNAME)
int ib_resize_cq(struct ib_cq *cq, int cqe);
/* -EBUSY while QPs use it */
int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata);
static inline int ib_destroy_cq(struct ib_cq *cq)
{
	return ib_destroy_cq_user(cq, NULL);
}
int ib_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags);
int ib_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc);

struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller);
static inline struct ib_qp *ib_create_qp(struct ib_pd *pd,
					 struct ib_qp_init_attr *init_attr)
{
	return ib_create_qp_kernel(pd, init_attr, KBUILD_MODNAME);
}
/*
 * Every QP state change, kernel or user, goes through here: checks the
 * transition (ib_modify_qp_is_ok), resolves a RoCE address vector, calls
 * the driver, fires the rdma_core:qp_modify tracepoint.  Never inlined so
 * that kprobe:ib_modify_qp sees all of them.
 */
int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr, int qp_attr_mask);
/* ib_modify_qp() with the driver's udata (uverbs) */
int ib_modify_qp_with_udata(struct ib_qp *qp, struct ib_qp_attr *attr,
			    int attr_mask, struct ib_udata *udata);
int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr, int qp_attr_mask,
		struct ib_qp_init_attr *qp_init_attr);
int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata);
static inline int ib_destroy_qp(struct ib_qp *qp)
{
	return ib_destroy_qp_user(qp, NULL);
}
/*
 * Multicast of UD QPs: EOPNOTSUPP without the driver op, EINVAL for a QP
 * that is not UD or a GID that is not multicast.  @lid is ignored on
 * RoCE.  A QP with attachments cannot be destroyed (EBUSY).
 */
int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid);
int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid);
/* A driver moved @qp to @state by itself (ERR, SQE): trace and record it. */
void ib_qp_state_changed(struct ib_qp *qp, enum ib_qp_state state);

/*
 * Post a list of work requests of a kernel QP/SRQ.  On failure *bad (if
 * given) points at the first request not posted.
 */
static inline int ib_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			       const struct ib_send_wr **bad)
{
	const struct ib_send_wr *first_bad;
	int ret = qp->device->ops.post_send(qp, wr, &first_bad);

	if (ret && bad)
		*bad = first_bad;
	return ret;
}

static inline int ib_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
			       const struct ib_recv_wr **bad)
{
	const struct ib_recv_wr *first_bad;
	int ret = qp->device->ops.post_recv(qp, wr, &first_bad);

	if (ret && bad)
		*bad = first_bad;
	return ret;
}

struct ib_srq *ib_create_srq(struct ib_pd *pd,
			     struct ib_srq_init_attr *srq_init_attr);
int ib_modify_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask);
int ib_query_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr);
/* -EBUSY while QPs use it */
int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata);
static inline int ib_destroy_srq(struct ib_srq *srq)
{
	return ib_destroy_srq_user(srq, NULL);
}

static inline int ib_post_srq_recv(struct ib_srq *srq,
				   const struct ib_recv_wr *wr,
				   const struct ib_recv_wr **bad)
{
	const struct ib_recv_wr *first_bad;
	int ret = srq->device->ops.post_srq_recv(srq, wr, &first_bad);

	if (ret && bad)
		*bad = first_bad;
	return ret;
}

/*
 * Check @ah_attr and fill its sgid entry and (RoCE) the destination MAC
 * from the neighbour table: -EINVAL without GRH on RoCE, for a bad port
 * or an empty/non-RoCEv2 sgid slot; -EHOSTUNREACH if the neighbour cannot
 * be resolved.  Used by ib_create_ah and ib_modify_qp (IB_QP_AV).
 */
int rdma_resolve_ah_attr(struct ib_device *device, struct rdma_ah_attr *ah_attr);
struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags);
void rdma_destroy_ah(struct ib_ah *ah, u32 flags);

/*
 * Used by uverbs (which allocates nothing itself): create an object for a
 * user context with the driver's udata.  The caller sets ->uobject after.
 */
struct ib_pd *ib_alloc_pd_user(struct ib_device *device,
			       struct ib_ucontext *uctx, struct ib_udata *udata);
struct ib_cq *ib_create_cq_user(struct ib_device *device,
				struct ib_ucontext *uctx,
				const struct ib_cq_init_attr *attr,
				ib_comp_handler comp_handler,
				void (*event_handler)(struct ib_event *, void *),
				void *cq_context, struct ib_udata *udata);
struct ib_qp *ib_create_qp_udata(struct ib_pd *pd, struct ib_ucontext *uctx,
				 struct ib_qp_init_attr *attr,
				 struct ib_udata *udata);
struct ib_srq *ib_create_srq_udata(struct ib_pd *pd, struct ib_ucontext *uctx,
				   struct ib_srq_init_attr *attr,
				   struct ib_udata *udata);
struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata);
int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata);
struct ib_mw *ib_alloc_mw_user(struct ib_pd *pd, enum ib_mw_type type,
			       struct ib_udata *udata);
int ib_rereg_user_mr(struct ib_mr *mr, int flags, u64 start, u64 length,
		     u64 virt_addr, int access_flags, struct ib_pd *pd,
		     struct ib_udata *udata, struct ib_mr **new_mr);
int ib_resize_cq_user(struct ib_cq *cq, int cqe, struct ib_udata *udata);
int ib_modify_srq_user(struct ib_srq *srq, struct ib_srq_attr *attr,
		       enum ib_srq_attr_mask mask, struct ib_udata *udata);
struct ib_ucontext *ib_alloc_ucontext_udata(struct ib_device *device,
					    struct ib_udata *udata);
void ib_dealloc_ucontext(struct ib_ucontext *uctx);

/* Allocate a driver object of the size declared in ops (core use) */
#define rdma_zalloc_drv_obj(ib_dev, ib_type)				\
	((struct ib_type *)kzalloc((ib_dev)->ops.size_##ib_type, GFP_KERNEL))

#endif /* _RDMA_IB_VERBS_H */
