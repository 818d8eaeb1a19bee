/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Resource tracking: every PD, CQ, QP, SRQ, MR and user context of a
 * device is listed per type so that "rdma res" (NLDEV RES_*_GET) can dump
 * it with its owner.  A verbs object embeds one entry; core fills it
 * (ib_core verbs.c / uverbs) around the driver's create and destroy.
 * rdma_cm lists its IDs (RDMA_RESTRACK_CM_ID) while they are attached to
 * a device, and a wildcard listener once per device it listens on.
 */
#ifndef _RDMA_RESTRACK_H
#define _RDMA_RESTRACK_H

#include <linux/types.h>
#include <linux/kref.h>
#include <linux/completion.h>

struct ib_device;
struct task_struct;
struct sk_buff;

/* Resource types counted per device ("rdma res"); upstream's numbering. */
enum rdma_restrack_type {
	RDMA_RESTRACK_PD,
	RDMA_RESTRACK_CQ,
	RDMA_RESTRACK_QP,
	RDMA_RESTRACK_CM_ID,
	RDMA_RESTRACK_MR,
	RDMA_RESTRACK_CTX,
	RDMA_RESTRACK_COUNTER,
	RDMA_RESTRACK_SRQ,
	RDMA_RESTRACK_MAX
};

struct rdma_restrack_entry {
	/* listed in the device's table (between add and del) */
	bool valid;
	/* created for user space (task set) or by kernel code (kern_name) */
	bool user;
	enum rdma_restrack_type type;
	/* the owner: a task reference for user objects */
	struct task_struct *task;
	const char *kern_name;
	/* dumpers take a reference; del waits for them */
	struct kref kref;
	struct completion comp;
	/* index in the device's table of @type (the netlink RES id) */
	u32 id;
	struct ib_device *device;
};

/* Before the driver's create: type and owner (current task or caller). */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type);
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller);
void rdma_restrack_parent_name(struct rdma_restrack_entry *res,
			       const struct rdma_restrack_entry *parent);
/* After the driver's create succeeded / before the driver's destroy. */
void rdma_restrack_add(struct rdma_restrack_entry *res);
void rdma_restrack_del(struct rdma_restrack_entry *res);
/*
 * Unlist an entry (waits for dumpers) and keep its owner: for a destroy
 * attempt the driver may refuse (then listed again), or an object that
 * leaves its device and may join another; rdma_restrack_del() finishes.
 */
void rdma_restrack_unlist(struct rdma_restrack_entry *res);
/*
 * Number of entries of @type of @device the calling task may see: all of
 * them from the initial pid namespace, elsewhere those of tasks of the
 * caller's pid namespace (kernel ones are not).  @show_details: upstream's
 * driver-internal entries, of which this stack has none.
 */
int rdma_restrack_count(struct ib_device *device,
			enum rdma_restrack_type type, bool show_details);
/* May the calling task see @res (rdma res)?  The rule above. */
bool rdma_is_visible_in_pid_ns(struct rdma_restrack_entry *res);

#endif /* _RDMA_RESTRACK_H */
