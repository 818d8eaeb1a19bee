/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_cm's private objects, shared by cm.c (IDs, tables, the glue around
 * the state machine) and cm_msg.c (messages, sends, QP attributes).
 * Documentation/core/cm.rst, "Locking", says which lock guards what.
 */
#ifndef _IB_CM_PRIV_H
#define _IB_CM_PRIV_H

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/mutex.h>
#include <linux/kref.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_cm_wire.h>
#include <rdma/ib_mad.h>

/* the longest private data of any message (RTU, DREP) */
#define CM_PRIV_MAX	IB_CM_WIRE_RTU_PRIV_LEN
/* AGAIN steps one destroy may take (ESTABLISHED, DREQ_SENT, TIMEWAIT) */
#define CM_STEPS_MAX	4

struct cm_device;

/*
 * The tables that find an ID by a key (cm.table[], cm_id_priv.node[]),
 * each a red-black tree under cm.lock, ordered by the key cm_find()
 * matches: its number, then the GUID, then the pointer or GID.
 */
enum cm_table {
	CM_TBL_LISTEN,		/* service ID + device */
	CM_TBL_REMOTE_ID,	/* remote comm ID + remote CA GUID */
	CM_TBL_REMOTE_QPN,	/* remote QPN + remote CA GUID */
	CM_TBL_SIDR,		/* request ID + source GID, while pending */
	CM_TBL_COUNT
};

/* a cm_find() key: which fields count depends on the table */
struct cm_key {
	u64 num;		/* service ID, comm ID, QPN, request ID */
	u64 guid;
	const void *ptr;	/* cm_device (listen), source GID (SIDR) */
};

struct cm_port {
	struct cm_device *cm_dev;
	u32 port_num;
	/* claims the CM class; sends our requests (REQ, DREQ, SIDR_REQ) */
	struct rdma_mad_agent *agent;
	/*
	 * sends the armed REP: its TID is the peer's REQ TID, which on
	 * loopback is also our REQ's TID on the first agent
	 */
	struct rdma_mad_agent *reply_agent;
	u32 hi_tid;
};

struct cm_device {
	struct kref ref;		/* the client's, one per ID */
	struct ib_device *ib_dev;
	bool going_away;		/* under cm.lock */
	u8 ack_delay;			/* the CA's local ACK delay */
	u32 nports;
	struct cm_port port[];		/* [0] is port 1 */
};

/* an event waiting for delivery, with copies of what it points to */
struct cm_event_work {
	struct list_head list;
	struct ib_cm_event ev;
	struct ib_cm_roce_path path;
	struct cm_id_priv *listen;	/* ref held until delivered */
	u8 priv[CM_PRIV_MAX];
	u8 info[IB_CM_WIRE_INFO_LEN];
};

struct cm_id_priv {
	struct ib_cm_id id;		/* .state mirrors state below */
	struct cm_device *cm_dev;
	refcount_t refs;		/* creator, armed send, event work */
	struct completion released;	/* refs reached zero */
	bool self_free;			/* the last put frees (handler asked) */

	/* guards everything below but the list nodes */
	struct mutex mutex;
	enum ib_cm_state state;
	bool destroying;
	bool ev_queued;			/* ev_work was ever queued */

	/* tables (under cm.lock) */
	u32 xa_index;			/* local comm ID ^ cm.id_mask */
	struct rb_node node[CM_TBL_COUNT];	/* in cm.table[], or cleared */
	struct list_head dev_node;	/* cm.id_list */

	/* what the connection knows */
	u32 local_id;
	u32 remote_id;
	u64 service_id;
	u64 remote_ca_guid;
	u32 local_qpn;
	u32 remote_qpn;
	u32 remote_qkey;
	u32 rq_psn;			/* our starting PSN */
	u32 sq_psn;			/* the peer's starting PSN */
	enum ib_qp_type qp_type;
	u8 responder_resources;
	u8 initiator_depth;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 path_timeout;		/* QP local ACK timeout, timewait */
	u8 max_cm_retries;
	u8 service_timeout;		/* our MRA's */
	bool mra_delayed;		/* our MRA goes out only on a duplicate */
	u32 timeout_ms;			/* our armed sends */
	struct ib_cm_roce_path path;
	struct cm_port *port;

	u64 req_tid;			/* REP, RTU, MRA, REJ of the REQ */
	u64 dreq_tid;			/* DREP */
	u64 sidr_tid;			/* SIDR_REP */

	/*
	 * the armed send (IB_CM_DO_ARM), its end steps IB_CM_IN_TIMEOUT;
	 * named by its MAD-layer send ID, never by its TID, which the REQ,
	 * the DREQ and the peer's answers to them share
	 */
	bool armed;
	struct rdma_mad_agent *armed_agent;
	u64 armed_send;
	bool mra_pending;		/* mra_work runs as our timeout */

	/* the last MRA, REP, RTU sent: answers to duplicates */
	u8 mra_mad[IB_MAD_WIRE_SIZE];
	u8 rep_mad[IB_MAD_WIRE_SIZE];
	u8 rtu_mad[IB_MAD_WIRE_SIZE];
	bool rep_valid, rtu_valid, mra_valid;

	struct delayed_work timewait_work;
	struct delayed_work mra_work;	/* after an MRA: our own timeout */

	spinlock_t ev_lock;
	struct list_head ev_list;	/* cm_event_work, in step order */
	struct work_struct ev_work;
};

/* What a user call sends: its arguments, for the message builders. */
struct cm_tx_args {
	const void *private_data;
	u8 private_data_len;
	u8 reason;			/* REJ */
	const void *ari;
	u8 ari_length;
	const struct ib_cm_rep_param *rep;
	const struct ib_cm_sidr_rep_param *sidr_rep;
	const struct ib_cm_req_fields *req;	/* ours, built by the caller */
	u8 mra_service_timeout;
};

struct cm_globals {
	struct mutex lock;		/* the tables below, every list node */
	struct xarray local_ids;
	u32 xa_next;
	u32 id_mask;
	struct rb_root table[CM_TBL_COUNT];
	struct list_head id_list;	/* every ID, for device removal */
	struct workqueue_struct *wq;
};

extern struct cm_globals cm;

static inline struct cm_id_priv *cm_priv(struct ib_cm_id *id)
{
	return container_of(id, struct cm_id_priv, id);
}

/*
 * Where the fields every CM message shares stand in struct
 * ib_cm_wire_msg: the sender's comm ID (local comm ID, SIDR request ID),
 * the receiver's (remote comm ID, the request ID a SIDR_REP answers),
 * the private data.  CM_NO_OFF: the message has no such field.
 */
#define CM_NO_OFF	0xffff

struct cm_msg_layout {
	u16 attr_id;
	u16 sender_off;
	u16 receiver_off;
	u16 priv_off;
	u16 priv_len;
};

/* the layout of a message we handle, NULL for any other attribute */
const struct cm_msg_layout *cm_msg_layout(u16 attr_id);

static inline u32 cm_msg_get32(const struct ib_cm_wire_msg *m, u16 off)
{
	u32 v;

	memcpy(&v, (const u8 *)m + off, sizeof(v));
	return v;
}

static inline void cm_msg_put32(struct ib_cm_wire_msg *m, u16 off, u32 v)
{
	if (off != CM_NO_OFF)
		memcpy((u8 *)m + off, &v, sizeof(v));
}

/* cm.c */
void cm_id_get(struct cm_id_priv *p);
void cm_id_put(struct cm_id_priv *p);
int cm_step(struct cm_id_priv *p, enum ib_cm_sm_input in,
	    const struct cm_tx_args *args, struct cm_event_work *ev,
	    const struct ib_cm_wire_msg *rx_msg);
void cm_leave_remote_tables(struct cm_id_priv *p);
void cm_reply_gid(struct cm_port *port, const union ib_gid *src,
		  struct ib_cm_roce_path *path);
extern struct ib_client cm_client;

struct cm_id_priv *cm_alloc_id(struct cm_device *cm_dev,
			       ib_cm_handler handler, void *context);
struct cm_id_priv *cm_find_local(u32 local_id);
struct cm_id_priv *cm_find(enum cm_table t, const struct cm_key *key);
void cm_table_add(struct cm_id_priv *p, enum cm_table t);
void cm_table_del(struct cm_id_priv *p, enum cm_table t);
void cm_enter_remote_tables(struct cm_id_priv *p);
struct cm_event_work *cm_alloc_ev(void);
void cm_free_ev(struct cm_event_work *ev);
void cm_timeout(struct cm_id_priv *p, enum ib_wc_status status);

/* cm_recv.c */
void cm_take_req(struct cm_id_priv *p, const struct ib_cm_req_fields *req,
		 bool passive);
extern const struct rdma_mad_agent_ops cm_agent_ops;

/* cm_msg.c */
int cm_send_tx(struct cm_id_priv *p, enum ib_cm_sm_tx tx, bool arm,
	       const struct cm_tx_args *args,
	       const struct ib_cm_wire_msg *rx_msg, enum ib_cm_state from);
void cm_send_orphan(struct cm_port *port, const struct rdma_mad_recv *rx,
		    const struct ib_cm_wire_msg *msg, enum ib_cm_sm_tx tx);
void cm_reject_malformed(struct cm_port *port, const struct rdma_mad_recv *rx,
			 const struct ib_cm_wire_msg *msg,
			 enum ib_cm_wire_why why);
void cm_dest_from_path(const struct ib_cm_roce_path *path,
		       struct rdma_mad_dest *dest);
void cm_send_handler(struct rdma_mad_agent *agent,
		     const struct rdma_mad_send_done *done);

#endif /* _IB_CM_PRIV_H */
