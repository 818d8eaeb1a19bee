/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx-lite: the events layer (kernel only): the EQ's interrupt handler,
 * commands in event mode, page requests, port changes, health polling
 * and the fatal-error path.
 *
 * Contexts and locks:
 *  - mlxl_ev_irq() is the MSI-X handler (hard-irq context): it only
 *    consumes EQEs, wakes the command waiter and queues work.
 *  - Page requests are served by a work item that takes the command lock
 *    like any command: a request that arrives while a command runs is
 *    served after that command; the firmware never needs the pages to
 *    complete a command already posted.
 *  - The health poll (delayed work, every health_period) marks the device
 *    dead (mlxl_set_fatal): the command waiter is woken and gives up, and
 *    client->fatal runs once, in process context, after mlxl_ev_notify().
 *  - mlxl_ev_stop() must be called without the command lock: it waits for
 *    the work items, which take it.
 */
#ifndef MLXL_EVENTS_H
#define MLXL_EVENTS_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "mlxl_dev.h"

#define MLXL_EQ_VECTOR		0	/* the one EQ's MSI-X vector */
#define MLXL_HEALTH_PERIOD_MS	2000

struct mlxl_ev_client {
	/* port 1 went up or down (PORT_CHANGE EQE); process context */
	void (*port_change)(void *owner, bool up);
	/* the device is dead; once, process context */
	void (*fatal)(void *owner);
	/*
	 * Asynchronous object events, for the objects code: type is the EQE
	 * type (0x00 completion: obj = CQN; 0x04 CQ error: CQN; QP events
	 * 0x01-0x03, 0x05, 0x07, 0x10, 0x11, 0x13: QPN; SRQ events 0x12,
	 * 0x14: SRQN).  Called from the interrupt handler: must not sleep.
	 * NULL: such events are counted and dropped.
	 */
	void (*async)(void *owner, u8 type, u32 obj);
};

struct mlxl_events {
	struct mlxl_dev *dev;
	struct mutex *cmd_lock;
	const struct mlxl_ev_client *client;
	void *owner;
	unsigned long health_period;	/* jiffies; 0: no health poll */
	bool irq;			/* request_irq done */
	struct completion cmd_done;
	struct work_struct page_work;
	struct work_struct port_work;
	struct work_struct fatal_work;
	struct delayed_work health_work;

	spinlock_t lock;		/* guards the fields below */
	s32 page_req;			/* pages asked for, not yet served; < 0: to take */
	bool port_pending;
	bool port_up;
	bool notify;			/* the client may be told */
	bool fatal_seen;
	bool fatal_told;
	u32 pages_given, pages_taken, page_errs;
	u32 async_dropped;
};

int mlxl_ev_start(struct mlxl_events *ev, struct mlxl_dev *dev,
		  struct mutex *cmd_lock, const struct mlxl_ev_client *client,
		  void *owner, unsigned long health_period);
void mlxl_ev_notify(struct mlxl_events *ev);
void mlxl_ev_stop(struct mlxl_events *ev);
void mlxl_ev_irq(void *arg);
bool mlxl_ev_cmd_wait(struct mlxl_dev *dev, u32 us);
void mlxl_ev_health(struct mlxl_events *ev);

#endif /* MLXL_EVENTS_H */
