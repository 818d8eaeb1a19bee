/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RDMA devices: what a driver allocates, fills and registers, and what
 * clients (ib_uverbs; upstream also rdma_cm, ...) see of it.  Lifetime
 * rules are in Documentation/core/device-lifetime.rst.
 */
#ifndef _RDMA_IB_DEVICE_H
#define _RDMA_IB_DEVICE_H

#include <linux/types.h>
#include <linux/device.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/xarray.h>
#include <linux/netdevice.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/rdma_netlink.h>
#include <rdma/ib_port_types.h>
#include <rdma/restrack.h>

#define IB_DEVICE_NAME_MAX	64
#define IB_FW_VERSION_NAME_MAX	64

struct ib_device;
struct ib_udata;
struct ib_gid_attr;
struct ib_ucontext;
struct ib_pd;
struct ib_mr;
struct ib_mw;
struct ib_cq;
struct ib_cq_init_attr;
struct ib_qp;
union ib_gid;
struct ib_qp_attr;
struct ib_qp_init_attr;
struct ib_srq;
struct ib_srq_attr;
struct ib_srq_init_attr;
struct ib_ah;
struct rdma_ah_init_attr;
struct ib_send_wr;
struct ib_recv_wr;
struct ib_wc;
struct scatterlist;
struct vm_area_struct;

/* Node types (RDMA_NODE_IB_CA, ...) come from <uapi/rdma/rdma_netlink.h>. */

enum rdma_link_layer {
	IB_LINK_LAYER_UNSPECIFIED = 0,
	IB_LINK_LAYER_INFINIBAND = 1,
	IB_LINK_LAYER_ETHERNET = 2,
};

/* IANA-assigned UDP destination port of RoCEv2 */
#define ROCE_V2_UDP_DPORT	4791

/* Port protocol capabilities (ib_port_immutable.core_cap_flags). */
#define RDMA_CORE_CAP_PROT_IB		0x00100000
#define RDMA_CORE_CAP_PROT_ROCE		0x00200000
#define RDMA_CORE_CAP_PROT_IWARP	0x00400000
#define RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP 0x00800000
/* Port services (the same word): a MAD layer on QP1, the IB CM on it */
#define RDMA_CORE_CAP_IB_MAD		0x00000001
#define RDMA_CORE_CAP_IB_CM		0x00000004
#define RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP \
	(RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP | RDMA_CORE_CAP_IB_MAD | \
	 RDMA_CORE_CAP_IB_CM)

/* Async events; numbers are the user ABI of the async event file. */
enum ib_event_type {
	IB_EVENT_CQ_ERR = 0,
	IB_EVENT_QP_FATAL = 1,
	IB_EVENT_QP_REQ_ERR = 2,
	IB_EVENT_QP_ACCESS_ERR = 3,
	IB_EVENT_COMM_EST = 4,
	IB_EVENT_SQ_DRAINED = 5,
	IB_EVENT_PATH_MIG = 6,
	IB_EVENT_PATH_MIG_ERR = 7,
	IB_EVENT_DEVICE_FATAL = 8,
	IB_EVENT_PORT_ACTIVE = 9,
	IB_EVENT_PORT_ERR = 10,
	IB_EVENT_LID_CHANGE = 11,
	IB_EVENT_PKEY_CHANGE = 12,
	IB_EVENT_SM_CHANGE = 13,
	IB_EVENT_SRQ_ERR = 14,
	IB_EVENT_SRQ_LIMIT_REACHED = 15,
	IB_EVENT_QP_LAST_WQE_REACHED = 16,
	IB_EVENT_CLIENT_REREGISTER = 17,
	IB_EVENT_GID_CHANGE = 18,
	IB_EVENT_WQ_FATAL = 19,
};

struct ib_event {
	struct ib_device *device;
	enum ib_event_type event;
	union {
		u32 port_num;		/* port events */
		struct ib_cq *cq;	/* CQ_ERR */
		struct ib_qp *qp;	/* QP events */
		struct ib_srq *srq;	/* SRQ_ERR, SRQ_LIMIT_REACHED */
		void *object;
	} element;
};

struct ib_event_handler {
	struct ib_device *device;
	void (*handler)(struct ib_event_handler *handler, struct ib_event *event);
	struct list_head list;
};

/* Port attributes that never change while the device is registered. */
struct ib_port_immutable {
	int pkey_tbl_len;
	int gid_tbl_len;
	u32 core_cap_flags;
	u32 max_mad_size;
};

/* ibv_query_port()'s answer, grouped by topic. */
struct ib_port_attr {
	/* state and link */
	enum ib_port_state state;
	u8 phys_state, active_width;
	u16 active_speed;
	enum ib_mtu max_mtu, active_mtu;
	u32 phys_mtu, max_msg_sz;
	/* tables and capabilities */
	int gid_tbl_len;
	u16 pkey_tbl_len;
	unsigned int ip_gids:1;
	u32 port_cap_flags;
	u16 port_cap_flags2;
	u8 max_vl_num, init_type_reply;
	/* InfiniBand subnet (zero on RoCE) */
	u64 subnet_prefix;
	u32 lid, sm_lid;
	u8 lmc, sm_sl, subnet_timeout;
	/* error counters */
	u32 bad_pkey_cntr, qkey_viol_cntr;
};

/* ibv_query_device()'s answer, grouped by topic. */
/* ib_device_attr.kernel_cap_flags */
#define IBK_ALLOW_USER_UNREG	(1ULL << 0)	/* "rdma link delete" may remove it */
/* "rdma dev set DEV netns NS" may move it (exclusive mode only) */
#define IBK_ALLOW_NETNS_CHANGE	(1ULL << 1)
/* lives in its netdev's namespace and follows it (rxe); users cannot move it */
#define IBK_NETNS_FOLLOWS_NETDEV (1ULL << 2)
/* user MRs may be IB_ACCESS_ON_DEMAND (ib_device_attr.odp says for which verbs) */
#define IBK_ON_DEMAND_PAGING	(1ULL << 3)

/*
 * On-demand paging capabilities.  The bit values are the ones libibverbs
 * reports (general: IBV_ODP_SUPPORT*, per transport: IBV_ODP_SUPPORT_SEND
 * and on), so uverbs passes them through unchanged.
 */
#define RDMA_ODP_ENABLED	(1U << 0)	/* rdma_odp_caps.general */
#define RDMA_ODP_IMPLICIT	(1U << 1)	/* one MR for the whole address space */
#define RDMA_ODP_OP_SEND	(1U << 0)	/* rdma_odp_caps.ops[] */
#define RDMA_ODP_OP_RECV	(1U << 1)
#define RDMA_ODP_OP_WRITE	(1U << 2)
#define RDMA_ODP_OP_READ	(1U << 3)
#define RDMA_ODP_OP_ATOMIC	(1U << 4)
#define RDMA_ODP_OP_SRQ_RECV	(1U << 5)

/* the index of rdma_odp_caps.ops[] */
enum rdma_odp_transport {
	RDMA_ODP_RC,
	RDMA_ODP_UC,
	RDMA_ODP_UD,
	RDMA_ODP_XRC,
	RDMA_ODP_TRANSPORTS
};

struct rdma_odp_caps {
	u64 general;
	u32 ops[RDMA_ODP_TRANSPORTS];	/* what an ODP MR may serve */
};

struct ib_device_attr {
	/* identity */
	u64 fw_ver;
	__be64 sys_image_guid;
	u32 vendor_id, vendor_part_id, hw_ver;
	u64 device_cap_flags, kernel_cap_flags;
	/* memory */
	u64 max_mr_size, page_size_cap;
	int max_mr, max_mw, max_pd;
	unsigned int max_fast_reg_page_list_len;
	/* queues */
	int max_qp, max_qp_wr, max_send_sge, max_recv_sge, max_sge_rd;
	int max_cq, max_cqe;
	int max_srq, max_srq_wr, max_srq_sge;
	int max_ah;
	/* RDMA read / atomics */
	int max_qp_rd_atom, max_qp_init_rd_atom, max_res_rd_atom;
	int max_ee_rd_atom, max_ee_init_rd_atom;
	int atomic_cap, masked_atomic_cap;
	/* legacy and raw */
	int max_ee, max_rdd, max_raw_ipv6_qp, max_raw_ethy_qp;
	/* multicast */
	int max_mcast_grp, max_mcast_qp_attach, max_total_mcast_qp_attach;
	/* partitions and timing */
	u16 max_pkeys;
	u8 local_ca_ack_delay;
	/* on-demand paging (with IBK_ON_DEMAND_PAGING) */
	struct rdma_odp_caps odp;
};

/* One hardware counter of a port ("rdma statistic", sysfs hw_counters). */
struct rdma_stat_desc {
	const char *name;
};

/* Verbs enums the driver ops below take (the rest: ib_verbs.h). */
enum ib_mr_type {
	IB_MR_TYPE_MEM_REG,		/* fast registration (IB_WR_REG_MR) */
	IB_MR_TYPE_SG_GAPS,
	IB_MR_TYPE_DM,
	IB_MR_TYPE_USER,		/* ib_reg_user_mr_udata / REG_MR */
	IB_MR_TYPE_DMA,			/* all of memory, ib_get_dma_mr */
	IB_MR_TYPE_INTEGRITY,
};

enum ib_cq_notify_flags {
	IB_CQ_SOLICITED = 1 << 0,
	IB_CQ_NEXT_COMP = 1 << 1,
	IB_CQ_SOLICITED_MASK = IB_CQ_SOLICITED | IB_CQ_NEXT_COMP,
	IB_CQ_REPORT_MISSED_EVENTS = 1 << 2,
};

enum ib_srq_attr_mask {
	IB_SRQ_MAX_WR = 1 << 0,		/* resize */
	IB_SRQ_LIMIT = 1 << 1,		/* arm the limit event */
};

/*
 * What a driver implements.  Only the ops a driver supports are set; core
 * checks for NULL before calling and refuses registration without the
 * mandatory ones (query_device, query_port, get_port_immutable).
 */
struct ib_device_ops {
	struct module *owner;
	enum rdma_driver_id driver_id;
	u32 uverbs_abi_ver;

	int (*query_device)(struct ib_device *dev, struct ib_device_attr *attr,
			    struct ib_udata *udata);
	int (*query_port)(struct ib_device *dev, u32 port,
			  struct ib_port_attr *attr);
	int (*get_port_immutable)(struct ib_device *dev, u32 port,
				  struct ib_port_immutable *immutable);
	enum rdma_link_layer (*get_link_layer)(struct ib_device *dev, u32 port);
	/* Returns a held reference (dev_put() it) or NULL. */
	struct net_device *(*get_netdev)(struct ib_device *dev, u32 port);
	/*
	 * Port counters: names (port_stats[0..num_port_stats-1]) and their
	 * current values, written to @values in the same order.
	 */
	const struct rdma_stat_desc *port_stats;
	u32 num_port_stats;
	int (*get_hw_stats)(struct ib_device *dev, u32 port, u64 *values,
			    u32 num);
	/* Called once, after the last client is gone, before memory is freed. */
	void (*dealloc_driver)(struct ib_device *dev);
	/* P_Key table entry (sysfs ports/N/pkeys/I); -EINVAL past the end. */
	int (*query_pkey)(struct ib_device *dev, u32 port, u16 index, u16 *pkey);
	/*
	 * The firmware version as users read it (sysfs fw_ver, "rdma dev"):
	 * a NUL-terminated string of at most IB_FW_VERSION_NAME_MAX bytes.
	 */
	void (*get_dev_fw_str)(struct ib_device *dev, char *str);
	/* Driver's own files in the device's sysfs directory (may be NULL). */
	const struct attribute_group *device_group;
	/*
	 * RoCE GID table entries (Documentation/core/gid-table.rst): core
	 * calls add_gid before an entry of a RoCE port becomes visible in its
	 * table (a failure keeps it out) and del_gid after it left it, and
	 * for every entry left at unregistration, before dealloc_driver.
	 * Process context, never under RTNL, serialised per port; may sleep.
	 * *@context is the driver's per-entry pointer (NULL at add), handed
	 * back at del.  Both may be NULL.
	 */
	int (*add_gid)(const struct ib_gid_attr *attr, void **context);
	int (*del_gid)(const struct ib_gid_attr *attr, void **context);

	/*
	 * Verbs objects (include/rdma/ib_verbs.h).  Core allocates the
	 * objects of the sizes below (INIT_RDMA_OBJ_SIZE) and frees them
	 * after destroy; create ops fill them, return 0 or -errno.  @udata is
	 * NULL for kernel callers.  Destroy ops of objects core allocated may
	 * fail only for user objects being busy; core has checked usecnt.
	 */
	int (*alloc_ucontext)(struct ib_ucontext *uctx, struct ib_udata *udata);
	void (*dealloc_ucontext)(struct ib_ucontext *uctx);
	/* mmap of the uverbs file, for a cookie the driver gave out */
	int (*mmap)(struct ib_ucontext *uctx, struct vm_area_struct *vma);
	/* the device is going away under a live context: stop using user memory */
	void (*disassociate_ucontext)(struct ib_ucontext *uctx);

	int (*alloc_pd)(struct ib_pd *pd, struct ib_udata *udata);
	int (*dealloc_pd)(struct ib_pd *pd, struct ib_udata *udata);

	/* MRs are allocated by the driver */
	struct ib_mr *(*get_dma_mr)(struct ib_pd *pd, int access);
	struct ib_mr *(*reg_user_mr)(struct ib_pd *pd, u64 start, u64 length,
				     u64 virt_addr, int access,
				     struct ib_udata *udata);
	/*
	 * Change what @flags says (IB_MR_REREG_*) in place and return NULL,
	 * or return a new MR replacing @mr (core then deregisters @mr), or an
	 * ERR_PTR leaving @mr as it was.
	 */
	struct ib_mr *(*rereg_user_mr)(struct ib_mr *mr, int flags, u64 start,
				       u64 length, u64 virt_addr, int access,
				       struct ib_pd *pd, struct ib_udata *udata);
	int (*dereg_mr)(struct ib_mr *mr, struct ib_udata *udata);
	struct ib_mr *(*alloc_mr)(struct ib_pd *pd, enum ib_mr_type type,
				  u32 max_num_sg);
	int (*map_mr_sg)(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
			 unsigned int *sg_offset);

	int (*alloc_mw)(struct ib_mw *mw, struct ib_udata *udata);
	int (*dealloc_mw)(struct ib_mw *mw);

	int (*create_cq)(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			 struct ib_udata *udata);
	int (*resize_cq)(struct ib_cq *cq, int cqe, struct ib_udata *udata);
	int (*destroy_cq)(struct ib_cq *cq, struct ib_udata *udata);
	/* > 0 with IB_CQ_REPORT_MISSED_EVENTS: completions are waiting */
	int (*req_notify_cq)(struct ib_cq *cq, enum ib_cq_notify_flags flags);
	int (*poll_cq)(struct ib_cq *cq, int num_entries, struct ib_wc *wc);

	/* init->cap is in/out: the driver writes what the QP really has */
	int (*create_qp)(struct ib_qp *qp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata);
	/* core has checked the transition and resolved a RoCE AV */
	int (*modify_qp)(struct ib_qp *qp, struct ib_qp_attr *attr,
			 int attr_mask, struct ib_udata *udata);
	int (*query_qp)(struct ib_qp *qp, struct ib_qp_attr *attr,
			int attr_mask, struct ib_qp_init_attr *init);
	int (*destroy_qp)(struct ib_qp *qp, struct ib_udata *udata);
	/*
	 * Kernel QPs: post the list.  User QPs (rxe): @wr is NULL and this
	 * is the doorbell of POST_SEND with zero WRs: the SQ ring has news.
	 */
	int (*post_send)(struct ib_qp *qp, const struct ib_send_wr *wr,
			 const struct ib_send_wr **bad_wr);
	int (*post_recv)(struct ib_qp *qp, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr);

	int (*create_srq)(struct ib_srq *srq, struct ib_srq_init_attr *init,
			  struct ib_udata *udata);
	int (*modify_srq)(struct ib_srq *srq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask, struct ib_udata *udata);
	int (*query_srq)(struct ib_srq *srq, struct ib_srq_attr *attr);
	int (*destroy_srq)(struct ib_srq *srq, struct ib_udata *udata);
	int (*post_srq_recv)(struct ib_srq *srq, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr);

	/* init->ah_attr has been checked and resolved by core */
	int (*create_ah)(struct ib_ah *ah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata);
	int (*destroy_ah)(struct ib_ah *ah, u32 flags);

	/*
	 * Multicast of UD QPs: core has checked that @qp is UD and @gid a
	 * multicast GID.  Attaching twice and detaching what is not attached
	 * are the driver's to answer.
	 */
	int (*attach_mcast)(struct ib_qp *qp, union ib_gid *gid, u16 lid);
	int (*detach_mcast)(struct ib_qp *qp, union ib_gid *gid, u16 lid);

	size_t size_ib_ucontext;
	size_t size_ib_pd;
	size_t size_ib_mw;
	size_t size_ib_cq;
	size_t size_ib_qp;
	size_t size_ib_srq;
	size_t size_ib_ah;
};

struct ib_gid_port_cache;
struct ib_sysfs_ports;

struct ib_port_data {
	struct ib_port_immutable immutable;
	struct ib_gid_port_cache *gid_cache;	/* cache.c, while registered */
};

/*
 * Registration state, see Documentation/core/device-lifetime.rst:
 * ALLOCATED -> REGISTERED -> UNREGISTERING -> (ALLOCATED again, or freed).
 */
enum ib_device_state {
	IB_DEV_ALLOCATED,
	IB_DEV_REGISTERED,
	IB_DEV_UNREGISTERING,
	IB_DEV_MOVING,		/* out of service while changing namespace */
};

struct ib_device {
	struct device dev;		/* in class "infiniband"; owns the memory */
	char name[IB_DEVICE_NAME_MAX];
	u32 index;			/* netlink DEV_INDEX, cyclic from 0 */
	struct ib_device_ops ops;
	u8 node_type;			/* RDMA_NODE_* */
	u32 phys_port_cnt;
	__be64 node_guid;
	char node_desc[64];
	struct ib_port_data *port_data;	/* [1..phys_port_cnt] */
	struct ib_device_attr attrs;	/* filled by the driver before registering */
	u32 num_comp_vectors;		/* completion vectors (IRQs); 0 means 1 */
	/*
	 * The device that DMA-maps kernel buffers (ib_dma.h), as given to
	 * ib_register_device(); NULL: a software device that reads kernel
	 * virtual addresses.
	 */
	struct device *dma_device;

	/* Registration users: ib_device_get()/ib_device_put(). */
	refcount_t refcount;
	struct completion unreg_completion;
	enum ib_device_state state;
	/* Serialises unregistration with namespace moves. */
	struct mutex unreg_mutex;
	/* ib_unregister_device_queued(): unregistration without the caller */
	struct work_struct unregistration_work;
	/*
	 * The namespace the device lives in (init_net unless the driver says
	 * otherwise before registering).  Changes only while the device is
	 * MOVING, i.e. with no users, so a use holder sees it stable.
	 */
	possible_net_t net;
	/* sysfs directories in other namespaces (shared mode); netns.c */
	struct list_head compat_devs;
	bool compat_ready;

	/* Clients' per-device data, by client id; under client_data_rwsem. */
	struct rw_semaphore client_data_rwsem;
	struct xarray client_data;

	/*
	 * Tracked objects per type, for "rdma res": rdma_restrack_add()/_del()
	 * (restrack.c); XA_FLAGS_ALLOC, the index is the netlink RES id.
	 */
	struct xarray res[RDMA_RESTRACK_MAX];

	spinlock_t event_handler_lock;
	struct list_head event_handler_list;

	/* sysfs ports/ directory of dev (sysfs.c), while registered */
	struct ib_sysfs_ports *sysfs_ports;
};

/*
 * What a client tells netlink RDMA_NLDEV_CMD_GET_CHARDEV about its char
 * device.  @nl_msg is the reply being built (a client may add attributes of
 * its own, e.g. RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID); @port is the requested
 * port or 0 for none.  The client sets @cdev (with get_device() held; core
 * puts it) and @abi.
 */
struct ib_client_nl_info {
	struct sk_buff *nl_msg;
	struct device *cdev;
	u32 port;
	u64 abi;
};

/* A user of every registered device (ib_uverbs; upstream also rdma_cm). */
struct ib_client {
	const char *name;
	int (*add)(struct ib_device *dev);
	void (*remove)(struct ib_device *dev, void *client_data);
	/*
	 * Optional: describe the client's char device for netlink.  @dev is
	 * NULL (and @client_data NULL) for a request naming no device.  Runs
	 * in process context while the client is on @dev (its remove() cannot
	 * start until this returns); may sleep.
	 */
	int (*get_nl_info)(struct ib_device *dev, void *client_data,
			   struct ib_client_nl_info *res);
	u32 client_id;			/* set by ib_register_client() */
	/* private to core */
	refcount_t uses;
	struct completion uses_zero;
	bool registered;
};

struct ib_device *_ib_alloc_device(size_t size);
#define ib_alloc_device(drv_struct, member)				\
	container_of(_ib_alloc_device(sizeof(struct drv_struct) +	\
		BUILD_BUG_ON_ZERO(offsetof(struct drv_struct, member))),	\
		struct drv_struct, member)
void ib_dealloc_device(struct ib_device *device);
void ib_set_device_ops(struct ib_device *device, const struct ib_device_ops *ops);
/* ops.get_dev_fw_str's string, or "" (@str: IB_FW_VERSION_NAME_MAX bytes) */
void ib_get_device_fw_str(struct ib_device *device, char *str);

int ib_register_device(struct ib_device *device, const char *name,
		       struct device *dma_device);
void ib_unregister_device(struct ib_device *device);
void ib_unregister_device_and_put(struct ib_device *device);
/*
 * Unregister and free the device from a work item, for callers that may
 * not wait for its users (a netdev notifier holds RTNL).  The caller
 * holds a use (ib_device_get/try_get) across the call; the driver must
 * have ops.dealloc_driver.  Queuing twice unregisters once.
 */
void ib_unregister_device_queued(struct ib_device *device);
void ib_unregister_driver(enum rdma_driver_id driver_id);
int ib_device_rename(struct ib_device *device, const char *name);

bool ib_device_try_get(struct ib_device *device);
void ib_device_put(struct ib_device *device);
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index);
struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id);
int ib_for_each_device(int (*fn)(struct ib_device *dev, void *data), void *data);

int ib_register_client(struct ib_client *client);
void ib_unregister_client(struct ib_client *client);
void *ib_get_client_data(struct ib_device *device, struct ib_client *client);
int ib_get_client_nl_info(struct ib_device *device, const char *client_name,
			  struct ib_client_nl_info *res);
void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data);

void ib_register_event_handler(struct ib_event_handler *handler);
void ib_unregister_event_handler(struct ib_event_handler *handler);
void ib_dispatch_event(const struct ib_event *event);
#define INIT_IB_EVENT_HANDLER(_ptr, _device, _handler)		\
	do {							\
		(_ptr)->device = (_device);			\
		(_ptr)->handler = (_handler);			\
		INIT_LIST_HEAD(&(_ptr)->list);			\
	} while (0)

int ib_query_port(struct ib_device *device, u32 port, struct ib_port_attr *attr);
int ib_query_device(struct ib_device *device, struct ib_device_attr *attr);
int ib_query_pkey(struct ib_device *device, u32 port, u16 index, u16 *pkey);
enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *device, u32 port);
struct net_device *ib_device_get_netdev(struct ib_device *device, u32 port);

/* ---- namespaces (Documentation/core/netns.rst) ---- */

static inline struct net *rdma_dev_net(const struct ib_device *device)
{
	return read_pnet(&device->net);
}

/* Before ib_register_device(): the namespace the device is born in. */
static inline void rdma_dev_set_net(struct ib_device *device, struct net *net)
{
	write_pnet(&device->net, net);
}

/* May @net see @device?  Shared mode: always; exclusive: its own only. */
bool rdma_dev_access_netns(const struct ib_device *device,
			   const struct net *net);
bool rdma_netns_shared(void);
/* "rdma system set netns shared|exclusive"; -EBUSY while other netns exist */
int rdma_set_netns_shared(bool shared);
/*
 * Move a registered device to @net, consuming the caller's use (as
 * ib_unregister_device_and_put does): clients are removed, users waited
 * for, the device re-appears in @net with clients added again.
 */
int ib_device_move_net_put(struct ib_device *device, struct net *net);

static inline bool rdma_is_port_valid(const struct ib_device *device, u32 port)
{
	return port >= 1 && port <= device->phys_port_cnt;
}

#define rdma_for_each_port(device, iter)				\
	for (iter = 1; iter <= (device)->phys_port_cnt; iter++)

/*
 * The ib_device behind a struct device that ib_core populated in sysfs
 * (the device's own, or a per-namespace one): for drivers' show()s.
 */
/* @port_num of @device has a MAD layer (QP1) */
static inline bool rdma_cap_ib_mad(const struct ib_device *device, u32 port_num)
{
	return device->port_data[port_num].immutable.core_cap_flags &
	       RDMA_CORE_CAP_IB_MAD;
}

/* @port_num of @device speaks the IB CM over its MAD layer */
static inline bool rdma_cap_ib_cm(const struct ib_device *device, u32 port_num)
{
	return device->port_data[port_num].immutable.core_cap_flags &
	       RDMA_CORE_CAP_IB_CM;
}

static inline struct ib_device *rdma_device_to_ibdev(struct device *d)
{
	return (struct ib_device *)dev_get_drvdata(d);
}

static inline const char *dev_name_ib(const struct ib_device *device)
{
	return device->name;
}

#endif /* _RDMA_IB_DEVICE_H */
