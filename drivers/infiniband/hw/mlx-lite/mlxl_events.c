// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: the events layer (see mlxl_events.h for its rules).
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include "mlxl_events.h"

/* EQE layout (doc §5.6) */
#define EQE_TYPE	0x01
#define EQE_SUB_TYPE	0x03
#define EQE_DATA	0x20
#define EQE_PAGES_NUM	0x24
#define EQE_OBJ		0x38
#define PORT_ACTIVE_SUB	4

static u32 be32_at(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void ev_fatal(struct mlxl_events *ev)
{
	unsigned long flags;
	bool first;

	complete(&ev->cmd_done);	/* the waiter sees the device dead */
	spin_lock_irqsave(&ev->lock, flags);
	first = !ev->fatal_seen;
	ev->fatal_seen = true;
	spin_unlock_irqrestore(&ev->lock, flags);
	if (first)
		queue_work(system_wq, &ev->fatal_work);
}

static void ev_eqe(struct mlxl_dev *dev, const u8 *eqe, void *arg)
{
	struct mlxl_events *ev = (struct mlxl_events *)arg;
	u8 type = eqe[EQE_TYPE];

	switch (type) {
	case MLXL_EVENT_CMD:
		complete(&ev->cmd_done);
		break;
	case MLXL_EVENT_PAGE_REQ:
		spin_lock(&ev->lock);
		ev->page_req += (s32)be32_at(eqe + EQE_PAGES_NUM);
		spin_unlock(&ev->lock);
		queue_work(system_wq, &ev->page_work);
		break;
	case MLXL_EVENT_PORT_CHANGE:
		spin_lock(&ev->lock);
		ev->port_pending = true;
		ev->port_up = eqe[EQE_SUB_TYPE] == PORT_ACTIVE_SUB;
		spin_unlock(&ev->lock);
		queue_work(system_wq, &ev->port_work);
		break;
	case MLXL_EVENT_INTERNAL_ERR:
		mlxl_set_fatal(dev, 0);
		ev_fatal(ev);
		break;
	case MLXL_EVENT_CQ_ERROR:
		if (ev->client->async)
			ev->client->async(ev->owner, type,
					  be32_at(eqe + EQE_DATA) & 0xffffff);
		else
			ev->async_dropped++;
		break;
	default:
		if (ev->client->async)
			ev->client->async(ev->owner, type,
					  be32_at(eqe + EQE_OBJ) & 0xffffff);
		else
			ev->async_dropped++;
		break;
	}
}

/* the MSI-X handler: hard-irq context, never twice at once */
void mlxl_ev_irq(void *arg)
{
	struct mlxl_events *ev = (struct mlxl_events *)arg;

	mlxl_eq_poll(ev->dev, ev_eqe, ev, true);
}

bool mlxl_ev_cmd_wait(struct mlxl_dev *dev, u32 us)
{
	struct mlxl_events *ev = (struct mlxl_events *)dev->events;

	if (!us) {
		/* a dead device shows by its flag, set before the wake-up */
		reinit_completion(&ev->cmd_done);
		return false;
	}
	return wait_for_completion_timeout(&ev->cmd_done,
					   usecs_to_jiffies(us)) != 0;
}

static void ev_page_work(struct work_struct *w)
{
	struct mlxl_events *ev = container_of(w, struct mlxl_events, page_work);
	unsigned long flags;
	s32 n;
	int err;

	spin_lock_irqsave(&ev->lock, flags);
	n = ev->page_req;
	ev->page_req = 0;
	spin_unlock_irqrestore(&ev->lock, flags);
	if (!n)
		return;
	mutex_lock(ev->cmd_lock);
	if (n > 0)
		err = mlxl_pages_give(ev->dev, (u32)n);
	else
		err = mlxl_pages_take(ev->dev, (u32)-n);
	mutex_unlock(ev->cmd_lock);
	spin_lock_irqsave(&ev->lock, flags);
	if (err)
		ev->page_errs++;
	else if (n > 0)
		ev->pages_given += (u32)n;
	else
		ev->pages_taken += (u32)-n;
	spin_unlock_irqrestore(&ev->lock, flags);
	if (err && !mlxl_is_fatal(ev->dev))
		pr_warn_ratelimited("mlx_lite: page request of %d pages failed: %d\n",
				    n, err);
}

static void ev_port_work(struct work_struct *w)
{
	struct mlxl_events *ev = container_of(w, struct mlxl_events, port_work);
	unsigned long flags;
	bool tell, up;

	spin_lock_irqsave(&ev->lock, flags);
	tell = ev->port_pending && ev->notify;
	up = ev->port_up;
	if (tell)
		ev->port_pending = false;
	spin_unlock_irqrestore(&ev->lock, flags);
	if (tell && ev->client->port_change)
		ev->client->port_change(ev->owner, up);
}

static void ev_fatal_work(struct work_struct *w)
{
	struct mlxl_events *ev = container_of(w, struct mlxl_events, fatal_work);
	unsigned long flags;
	bool tell;

	spin_lock_irqsave(&ev->lock, flags);
	tell = ev->fatal_seen && ev->notify && !ev->fatal_told;
	if (tell)
		ev->fatal_told = true;
	spin_unlock_irqrestore(&ev->lock, flags);
	if (tell && ev->client->fatal)
		ev->client->fatal(ev->owner);
}

/* one health poll: the device is marked dead, or the next poll queued */
void mlxl_ev_health(struct mlxl_events *ev)
{
	if (mlxl_health_poll(ev->dev))
		ev_fatal(ev);
}

static void ev_health_work(struct work_struct *w)
{
	struct mlxl_events *ev = container_of(to_delayed_work(w),
					      struct mlxl_events, health_work);

	mlxl_ev_health(ev);
	if (!mlxl_is_fatal(ev->dev))
		queue_delayed_work(system_wq, &ev->health_work,
				   ev->health_period);
}

/*
 * Take over the EQ of a booted device: interrupt, arm, event mode, and
 * the health poll.  Without an interrupt seam commands keep polling.
 */
int mlxl_ev_start(struct mlxl_events *ev, struct mlxl_dev *dev,
		  struct mutex *cmd_lock, const struct mlxl_ev_client *client,
		  void *owner, unsigned long health_period)
{
	const struct mlxl_ops *ops = dev->ops;
	int err;

	memset(ev, 0, sizeof(*ev));
	ev->dev = dev;
	ev->cmd_lock = cmd_lock;
	ev->client = client;
	ev->owner = owner;
	ev->health_period = health_period;
	init_completion(&ev->cmd_done);
	spin_lock_init(&ev->lock);
	INIT_WORK(&ev->page_work, ev_page_work);
	INIT_WORK(&ev->port_work, ev_port_work);
	INIT_WORK(&ev->fatal_work, ev_fatal_work);
	INIT_DELAYED_WORK(&ev->health_work, ev_health_work);
	dev->events = ev;

	if (ops->request_irq && dev->step >= MLXL_STEP_EQ) {
		err = ops->request_irq(dev->ctx, MLXL_EQ_VECTOR, mlxl_ev_irq, ev);
		if (err)
			return err;
		ev->irq = true;
		mutex_lock(cmd_lock);
		dev->cmd_wait = mlxl_ev_cmd_wait;
		mutex_unlock(cmd_lock);
		/*
		 * The EQ is not armed yet, so no interrupt can run: consume
		 * what the polling era left and arm.
		 */
		mlxl_ev_irq(ev);
	}
	if (health_period) {
		dev->health_last = ops->rd32(dev->ctx, MLXL_IS_HEALTH_COUNTER) &
				   0xffffff;
		dev->health_misses = 0;
		queue_delayed_work(system_wq, &ev->health_work, health_period);
	}
	return 0;
}

/* the client is ready (device registered): events may be told from now */
void mlxl_ev_notify(struct mlxl_events *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&ev->lock, flags);
	ev->notify = true;
	spin_unlock_irqrestore(&ev->lock, flags);
	queue_work(system_wq, &ev->port_work);
	queue_work(system_wq, &ev->fatal_work);
}

/* no handler, work item or poll runs once this returns */
void mlxl_ev_stop(struct mlxl_events *ev)
{
	struct mlxl_dev *dev = ev->dev;
	unsigned long flags;

	if (!dev)
		return;
	spin_lock_irqsave(&ev->lock, flags);
	ev->notify = false;
	spin_unlock_irqrestore(&ev->lock, flags);
	cancel_delayed_work_sync(&ev->health_work);
	if (ev->irq) {
		dev->ops->free_irq(dev->ctx, MLXL_EQ_VECTOR);
		ev->irq = false;
	}
	cancel_work_sync(&ev->page_work);
	cancel_work_sync(&ev->port_work);
	cancel_work_sync(&ev->fatal_work);
	mutex_lock(ev->cmd_lock);
	dev->cmd_wait = NULL;
	mutex_unlock(ev->cmd_lock);
	dev->events = NULL;
	ev->dev = NULL;
}
