/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_cm internals shared by its files (cma.c, cma_addr.c, cma_port.c,
 * cma_conn.c, cma_mcast.c).  Locks, outermost first:
 *   id->handler_mutex (a listener's before its new ID's),
 *   cma_lock (devices, their ID lists, ib_cm listeners, wildcard listeners),
 *   cma_port_lock (the bind lists of every namespace),
 *   id->lock (a spinlock: the state byte).
 * The state changes only through cma_step() (rdma_cm_sm_step()).
 */
#ifndef _RDMA_CMA_PRIV_H
#define _RDMA_CMA_PRIV_H

#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/list.h>
#include <rdma/rdma_cm.h>
#include <rdma/restrack.h>
#include <rdma/cma_wire.h>

struct cma_device {
	struct list_head node;		/* in cma_dev_list */
	struct ib_device *device;
	struct list_head id_list;	/* IDs attached to the device */
	struct list_head listeners;	/* struct cma_cm_listener */
	u32 nids;			/* IDs on id_list */
	bool removing;
	wait_queue_head_t wq;		/* removal waits for nids == 0 */
};

/* One ib_cm listener per (device, service ID), shared by rdma_cm IDs. */
struct cma_cm_listener {
	struct list_head node;		/* in cma_device.listeners */
	struct cma_device *cma_dev;
	struct ib_cm_id *cm_id;
	__be64 sid;
	struct list_head refs;		/* struct cma_lref */
};

struct rdma_id_private;

/*
 * A row of "rdma res show cm_id" (RDMA_RESTRACK_CM_ID, read by
 * nldev_res.c): an ID attached to a device, or a wildcard listener on one
 * device it listens on.  Listed only while @id is alive.
 */
struct cma_res {
	struct rdma_restrack_entry res;
	struct rdma_id_private *id;
};

/* A listening ID's use of one ib_cm listener. */
struct cma_lref {
	struct list_head id_node;	/* in rdma_id_private.lrefs */
	struct list_head cl_node;	/* in cma_cm_listener.refs */
	struct cma_cm_listener *cl;
	struct cma_res row;		/* listed for a wildcard listener */
};

struct cma_bind_list;
struct cma_mc;

struct rdma_id_private {
	struct rdma_cm_id id;
	struct net *net;		/* counted (get_net) */
	spinlock_t lock;		/* state */
	enum rdma_cm_state state;
	struct mutex handler_mutex;
	refcount_t refcount;
	struct completion comp;

	/* device attachment, under cma_lock */
	struct cma_device *cma_dev;
	struct list_head dev_node;

	/* port, under cma_port_lock */
	struct cma_bind_list *bind_list;
	struct hlist_node bind_node;

	/* listening: ib_cm listeners used, wildcard list; under cma_lock */
	struct list_head lrefs;
	struct list_head any_node;	/* in cma_listen_any, if wildcard */
	bool on_any;

	struct ib_cm_id *cm_id;
	struct ib_cm_roce_path path;
	u8 dmac[ETH_ALEN];
	bool rep_received;		/* active: REP in, RTU not yet sent */
	bool passive;			/* made by a listener */

	/* address and route resolution */
	struct delayed_work addr_work;
	unsigned long addr_deadline;	/* jiffies */
	struct work_struct route_work;
	struct work_struct destroy_work;	/* a handler asked for it */
	struct work_struct addr_change_work;	/* cma_netdev.c; holds a ref */
	enum rdma_cm_state destroy_prev;

	/* options */
	u8 reuseaddr;
	u8 afonly;
	u8 afonly_set;
	u8 tos;
	u8 tos_set;
	u8 timeout;
	u8 timeout_set;
	u8 min_rnr_timer;
	u8 min_rnr_timer_set;

	u32 seq_num;
	u32 qkey;
	u32 qp_num;
	u8 srq;

	struct list_head mc_list;	/* struct cma_mc, under handler_mutex */

	const char *caller;		/* kernel owner */
	struct cma_res row;		/* restrack: listed while attached */
};

static inline struct rdma_id_private *cma_priv(struct rdma_cm_id *id)
{
	return container_of(id, struct rdma_id_private, id);
}

static inline struct sockaddr *cma_src(struct rdma_id_private *p)
{
	return (struct sockaddr *)&p->id.route.addr.src_addr;
}

static inline struct sockaddr *cma_dst(struct rdma_id_private *p)
{
	return (struct sockaddr *)&p->id.route.addr.dst_addr;
}

extern struct mutex cma_lock;
extern struct workqueue_struct *cma_wq;
extern struct list_head cma_dev_list;
extern struct list_head cma_listen_any;	/* wildcard listeners */

/* cma.c */
struct rdma_id_private *cma_id_alloc(struct net *net,
				     rdma_cm_event_handler handler,
				     void *context, enum rdma_ucm_port_space ps,
				     enum ib_qp_type qp_type,
				     const char *caller);
void cma_id_get(struct rdma_id_private *p);
void cma_id_put(struct rdma_id_private *p);
enum rdma_cm_sm_verdict cma_step(struct rdma_id_private *p,
				 enum rdma_cm_sm_input in, int status,
				 struct rdma_cm_sm_action *act);
enum rdma_cm_state cma_state(struct rdma_id_private *p);
void cma_trace_state(struct rdma_id_private *p, enum rdma_cm_state old,
		     enum rdma_cm_state next, enum rdma_cm_sm_input in);
int cma_deliver(struct rdma_id_private *p, struct rdma_cm_event *ev);
void cma_report(struct rdma_id_private *p, enum rdma_cm_sm_input in,
		int status);
void cma_handler_failed(struct rdma_id_private *p);
void cma_destroy_now(struct rdma_id_private *p, enum rdma_cm_state prev,
		     bool with_cm);
int cma_attach_dev(struct rdma_id_private *p, struct ib_device *dev,
		   u32 port, u8 sgid_index);
int cma_attach_dev_locked(struct rdma_id_private *p, struct cma_device *cd,
			  u32 port, u8 sgid_index);
void cma_detach_dev(struct rdma_id_private *p);
struct cma_device *cma_find_dev_locked(struct ib_device *dev);

/* cma_addr.c */
bool cma_any_addr(const struct sockaddr *a);
bool cma_addr_eq(const struct sockaddr *a, const struct sockaddr *b);
__be16 cma_port_of(const struct sockaddr *a);
void cma_set_port(struct sockaddr *a, __be16 port);
void cma_addr_to_gid(const struct sockaddr *a, union ib_gid *gid);
int cma_acquire_dev_by_addr(struct rdma_id_private *p,
			    const struct sockaddr *a, int ifindex);
void cma_cancel_addr(struct rdma_id_private *p);
void cma_addr_work(struct work_struct *w);

/* cma_port.c */
int cma_bind_port(struct rdma_id_private *p);
int cma_port_listen_check(struct rdma_id_private *p);
void cma_release_port(struct rdma_id_private *p);
struct rdma_id_private *cma_find_listener(struct net *net,
					  enum rdma_ucm_port_space ps,
					  u16 port,
					  const struct cma_wire_hdr *hdr,
					  struct ib_device *dev);

/* cma_conn.c */
void cma_route_work(struct work_struct *w);
int cma_ib_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *e);
void cma_path_ah(struct rdma_id_private *p, struct rdma_ah_attr *ah);

/* cma_listen.c */
void cma_cancel_listen(struct rdma_id_private *p);
int cma_listen_on_dev_locked(struct rdma_id_private *p,
			     struct cma_device *cd);
void cma_dev_drop_listeners(struct cma_device *cd);
void cma_modify_qp_err(struct rdma_id_private *p);
int cma_init_kernel_qp(struct rdma_id_private *p);

/* cma_mcast.c */
void cma_leave_all_mc(struct rdma_id_private *p);

/* cma_netdev.c: ADDR_CHANGE when the bound netdev's MAC changes */
void cma_addr_change_init(struct rdma_id_private *p);
void cma_addr_change_cancel(struct rdma_id_private *p);
int cma_netdev_register(void);
void cma_netdev_unregister(void);

#endif /* _RDMA_CMA_PRIV_H */
