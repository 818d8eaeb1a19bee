// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit cases of the mlx_lite suite for events, health and faults;
 * included by mlxl_kunit.c (they share its rig).  The rig adds an
 * interrupt: the model's raise is delivered once the model call that
 * raised it returned, to the driver's handler with interrupts off; a
 * command waiter in event mode runs the case's on_wait hook (to act
 * while a command is in flight), then takes a completion event if there
 * is one, else lets the rig's clock run a slice.  Cases never assert
 * while the events layer runs: its work items must be stopped first.
 */
#include "mlxl_events.h"
#include "fwsim/fwsim_inj.h"
#include "mlxl_async.h"

struct rig_ev {
	struct rig *r;
	struct mutex cmd_lock;
	struct mlxl_events ev;
	void (*handler)(void *arg);
	void *harg;
	bool in_irq;
	bool pending;
	u32 irqs;
	void (*on_wait)(struct rig_ev *x);
	u32 hook_runs;
	u32 waits;
	u32 wakeups;
	bool poll_health;		/* the health timer, on the rig's clock */
	u64 next_health;
	u16 fatal_op;			/* the firmware dies on this command */
	u32 fatal_told;
	u32 port_downs, port_ups;
	const struct mlxl_ev_client *client;	/* NULL: rx_client */
	u32 nasync;
	u8 async_type[8];
	u32 async_obj[8];
};

static struct rig_ev *rx_of(void *ctx)
{
	return (struct rig_ev *)((struct rig *)ctx)->ext;
}

/* deliver raised interrupts, never nested, with interrupts off */
static void rx_kick(struct rig_ev *x)
{
	unsigned long flags;
	u32 n;

	if (x->in_irq)
		return;
	for (n = 0; n < 1000 && x->pending && x->handler; n++) {
		x->pending = false;
		x->in_irq = true;
		local_irq_save(flags);
		x->handler(x->harg);
		local_irq_restore(flags);
		x->in_irq = false;
		x->irqs++;
	}
}

static void rx_irq(void *ctx, u32 vector)
{
	if (vector == 0)
		rx_of(ctx)->pending = true;
}

static void rx_wr32(void *ctx, u32 off, u32 val)
{
	struct rig *r = (struct rig *)ctx;
	struct rig_ev *x = rx_of(ctx);

	if (off == MLXL_IS_CMD_DBELL && x->fatal_op) {
		const u8 *e = (const u8 *)r->dev->cmdq.cpu + 0x10;

		if ((e[0] << 8 | e[1]) == x->fatal_op)
			fwsim_health_fatal(r->fw, 0x8);
	}
	fwsim_mmio_write32(r->fw, off, val);
	rx_kick(x);
}

static void rx_sleep(void *ctx, u32 us)
{
	struct rig_ev *x = rx_of(ctx);

	rig_sleep(ctx, us);
	if (x->poll_health && x->r->clock_ns >= x->next_health) {
		x->next_health = x->r->clock_ns + MLXL_HEALTH_PERIOD_MS * MLXL_NS_PER_MS;
		mlxl_health_poll(x->r->dev);
	}
}

static int rx_request_irq(void *ctx, u32 vector, void (*handler)(void *arg),
			  void *arg)
{
	struct rig_ev *x = rx_of(ctx);

	if (vector || x->handler)
		return -EINVAL;
	x->handler = handler;
	x->harg = arg;
	return 0;
}

static void rx_free_irq(void *ctx, u32 vector)
{
	struct rig_ev *x = rx_of(ctx);

	x->handler = NULL;
	x->harg = NULL;
}

static bool rx_cmd_wait(struct mlxl_dev *dev, u32 us)
{
	struct rig_ev *x = rx_of(dev->ctx);

	if (!us)
		return mlxl_ev_cmd_wait(dev, 0);	/* forget old events */
	x->waits++;
	if (x->on_wait) {
		x->on_wait(x);
		rx_kick(x);
	}
	if (try_wait_for_completion(&x->ev.cmd_done)) {
		x->wakeups++;
		return true;
	}
	rig_sleep(dev->ctx, us);
	return false;
}

static void rx_port(void *owner, bool up)
{
	struct rig_ev *x = (struct rig_ev *)owner;

	if (up)
		x->port_ups++;
	else
		x->port_downs++;
}

static void rx_fatal(void *owner)
{
	((struct rig_ev *)owner)->fatal_told++;
}

static const struct mlxl_ev_client rx_client = {
	.port_change = rx_port,
	.fatal = rx_fatal,
	.async = NULL,
};

static void rx_async(void *owner, u8 type, u32 obj)
{
	struct rig_ev *x = (struct rig_ev *)owner;

	if (x->nasync < ARRAY_SIZE(x->async_type)) {
		x->async_type[x->nasync] = type;
		x->async_obj[x->nasync] = obj;
	}
	x->nasync++;
}

static const struct mlxl_ev_client rx_client_async = {
	.port_change = rx_port,
	.fatal = rx_fatal,
	.async = rx_async,
};

static struct rig_ev *rx_new(struct kunit *test, enum fwsim_profile prof)
{
	struct rig *r = rig_new(test, prof);
	struct rig_ev *x;

	x = (struct rig_ev *)kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	x->r = r;
	r->ext = x;
	mutex_init(&x->cmd_lock);
	r->fops.irq = rx_irq;
	r->dops.wr32 = rx_wr32;
	r->dops.sleep_us = rx_sleep;
	r->dops.request_irq = rx_request_irq;
	r->dops.free_irq = rx_free_irq;
	return x;
}

/* boot and take the EQ over (event mode, no health timer) */
static int rx_boot_events(struct rig_ev *x)
{
	int err = mlxl_boot(x->r->dev);

	if (err)
		return err;
	err = mlxl_ev_start(&x->ev, x->r->dev, &x->cmd_lock,
			    x->client ? x->client : &rx_client, x, 0);
	if (err)
		return err;
	x->r->dev->cmd_wait = rx_cmd_wait;
	mlxl_ev_notify(&x->ev);
	flush_work(&x->ev.port_work);
	flush_work(&x->ev.fatal_work);
	return 0;
}

/* a rig booted in event mode with client (NULL: the default one) */
static struct rig_ev *rx_up(struct kunit *test, enum fwsim_profile prof,
			    const struct mlxl_ev_client *client)
{
	struct rig_ev *x = rx_new(test, prof);

	x->client = client;
	KUNIT_ASSERT_EQ(test, rx_boot_events(x), 0);
	return x;
}

static void rx_down(struct rig_ev *x)
{
	mlxl_ev_stop(&x->ev);
	mutex_lock(&x->cmd_lock);
	mlxl_shutdown(x->r->dev);
	mutex_unlock(&x->cmd_lock);
}

static int rx_nop(struct rig_ev *x)
{
	struct mlxl_dev *dev = x->r->dev;
	int err;

	mutex_lock(&x->cmd_lock);
	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_NOP, 0);
	err = mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out, MLXL_HDR_LEN);
	mutex_unlock(&x->cmd_lock);
	return err;
}

static void hook_release(struct rig_ev *x)
{
	if (x->hook_runs++ == 0)
		fwsim_release_cmds(x->r->fw);
}

/* once the EQ exists a command completes by its EQE, the clock still */
static void mlxl_ev_cmd_completes_by_event(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX6DX, NULL);
	struct rig *r = x->r;
	u64 slept;
	int err;

	KUNIT_EXPECT_EQ(test, r->dev->eq_ci, 1u);	/* CREATE_EQ's EQE, at the start */
	slept = r->slept_ns;
	fwsim_hold_cmds(r->fw, 1);
	x->on_wait = hook_release;
	err = rx_nop(x);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, x->hook_runs, 1u);
	KUNIT_EXPECT_EQ(test, x->wakeups, 1u);
	KUNIT_EXPECT_EQ(test, x->irqs, 1u);
	KUNIT_EXPECT_EQ(test, r->dev->eq_ci, 2u);
	KUNIT_EXPECT_EQ(test, r->slept_ns, slept);
	KUNIT_EXPECT_EQ(test, r->fw->eqes_dropped, 0u);
	rx_down(x);
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 0u);
	expect_all_released(test, r);
}

/* a command the device loses, in event mode: 61 s on the rig's clock */
static void mlxl_ev_lost_cmd_times_out(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX5, NULL);
	struct rig *r = x->r;
	u64 t0, slept;
	int err;

	fwsim_hold_cmds(r->fw, 1);
	slept = r->slept_ns;
	t0 = ktime_get_ns();
	err = rx_nop(x);
	KUNIT_EXPECT_EQ(test, err, -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, r->slept_ns - slept, (u64)MLXL_CMD_TIMEOUT_MS * 1000000ull);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - t0, RIG_REAL_TIME_MAX_NS);
	/* it completes late: the slot is free again */
	fwsim_release_cmds(r->fw);
	rx_kick(x);
	KUNIT_EXPECT_EQ(test, rx_nop(x), 0);
	rx_down(x);
	expect_all_released(test, r);
}

static s32 hook_pages;

static void hook_page_request(struct rig_ev *x)
{
	if (x->hook_runs++ == 0) {
		fwsim_page_request(x->r->fw, hook_pages);
		fwsim_release_cmds(x->r->fw);
	}
}

/*
 * A page request (give, then take) while a command is in flight: served
 * by the work item once that command is done, never inside it.
 */
static void mlxl_ev_page_request_during_cmd(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX6DX, NULL);
	struct rig *r = x->r;
	u32 held0, mark;
	const struct fwsim_trace_ent *t;

	held0 = fwsim_pages_held(r->fw);

	mark = r->fw->trace_pos;
	hook_pages = 40;
	fwsim_hold_cmds(r->fw, 1);
	x->on_wait = hook_page_request;
	KUNIT_EXPECT_EQ(test, rx_nop(x), 0);
	flush_work(&x->ev.page_work);
	KUNIT_EXPECT_EQ(test, fwsim_pages_held(r->fw), held0 + 40);
	KUNIT_EXPECT_EQ(test, r->dev->npages, held0 + 40);
	KUNIT_EXPECT_EQ(test, r->fw->regular_owed, 0u);
	KUNIT_EXPECT_EQ(test, x->ev.pages_given, 40u);
	t = fwsim_trace_get(r->fw, mark);
	KUNIT_EXPECT_TRUE(test, t && t->opcode == MLXL_OP_NOP);
	t = fwsim_trace_get(r->fw, mark + 1);
	KUNIT_EXPECT_TRUE(test, t && t->opcode == MLXL_OP_MANAGE_PAGES &&
			  t->op_mod == MLXL_PAGES_GIVE && !t->status);

	mark = r->fw->trace_pos;
	hook_pages = -24;
	x->hook_runs = 0;
	fwsim_hold_cmds(r->fw, 1);
	KUNIT_EXPECT_EQ(test, rx_nop(x), 0);
	flush_work(&x->ev.page_work);
	KUNIT_EXPECT_EQ(test, fwsim_pages_held(r->fw), held0 + 16);
	KUNIT_EXPECT_EQ(test, r->dev->npages, held0 + 16);
	KUNIT_EXPECT_EQ(test, x->ev.pages_taken, 24u);
	KUNIT_EXPECT_EQ(test, x->ev.page_errs, 0u);
	t = fwsim_trace_get(r->fw, mark + 1);
	KUNIT_EXPECT_TRUE(test, t && t->opcode == MLXL_OP_MANAGE_PAGES &&
			  t->op_mod == MLXL_PAGES_TAKE && !t->status);
	rx_down(x);
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 0u);
	expect_all_released(test, r);
}

/* PORT_CHANGE EQEs reach the client, down and up */
static void mlxl_ev_port_change(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX7, NULL);
	struct rig *r = x->r;

	KUNIT_EXPECT_TRUE(test, fwsim_port_set(r->fw, false));
	rx_kick(x);
	flush_work(&x->ev.port_work);
	KUNIT_EXPECT_EQ(test, x->port_downs, 1u);
	KUNIT_EXPECT_TRUE(test, fwsim_port_set(r->fw, true));
	rx_kick(x);
	flush_work(&x->ev.port_work);
	KUNIT_EXPECT_EQ(test, x->port_ups, 1u);
	rx_down(x);
	expect_all_released(test, r);
}

/*
 * Object events reach the async hook with their type and the object
 * number from the type's place in the EQE (CQ error: 0x20, others: 0x38):
 * the boot EQ subscribes to them; without a hook they are counted.
 */
static void mlxl_ev_async_events(struct kunit *test)
{
	static const u8 types[] = { 0x04, 0x05, 0x13, 0x14, 0x01 };
	static const u32 objs[] = { 0x9, 0x123456, 0x42, 0x7, 0xffffff };
	struct rig_ev *x = rx_up(test, FWSIM_CX6DX, &rx_client_async);
	struct rig *r = x->r;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		KUNIT_EXPECT_TRUE(test, fwsim_raise_async(r->fw, types[i], objs[i]));
	/* not object events, or numbers beyond 24 bits: the model refuses */
	KUNIT_EXPECT_FALSE(test, fwsim_raise_async(r->fw, 0x00, 1));
	KUNIT_EXPECT_FALSE(test, fwsim_raise_async(r->fw, 0x09, 1));
	KUNIT_EXPECT_FALSE(test, fwsim_raise_async(r->fw, 0x06, 1));
	KUNIT_EXPECT_FALSE(test, fwsim_raise_async(r->fw, 0x04, 0x1000000));
	rx_kick(x);
	KUNIT_EXPECT_EQ(test, rx_nop(x), 0);	/* commands still complete */
	rx_down(x);
	KUNIT_ASSERT_EQ(test, x->nasync, (u32)ARRAY_SIZE(types));
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		KUNIT_EXPECT_EQ(test, x->async_type[i], types[i]);
		KUNIT_EXPECT_EQ(test, x->async_obj[i], objs[i]);
	}
	KUNIT_EXPECT_EQ(test, x->ev.async_dropped, 0u);
	KUNIT_EXPECT_EQ(test, r->fw->eqes_dropped, 0u);
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 0u);
	expect_all_released(test, r);
}

/* without an async hook, object events are counted and dropped */
static void mlxl_ev_async_no_client(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX5, NULL);
	struct rig *r = x->r;

	KUNIT_EXPECT_TRUE(test, fwsim_raise_async(r->fw, 0x12, 3));
	KUNIT_EXPECT_TRUE(test, fwsim_raise_async(r->fw, 0x04, 3));
	rx_kick(x);
	rx_down(x);
	KUNIT_EXPECT_EQ(test, x->ev.async_dropped, 2u);
	expect_all_released(test, r);
}

/* EQE type -> (event, object class), every type 0..63 */
static void mlxl_async_map(struct kunit *test)
{
	static const struct {
		u8 type;
		enum mlxl_async_ev ev;
		enum mlxl_async_class cls;
	} map[] = {
		{ 0x00, MLXL_AEV_COMP, MLXL_ASYNC_CQ },
		{ 0x01, MLXL_AEV_PATH_MIG, MLXL_ASYNC_QP },
		{ 0x02, MLXL_AEV_COMM_EST, MLXL_ASYNC_QP },
		{ 0x03, MLXL_AEV_SQ_DRAINED, MLXL_ASYNC_QP },
		{ 0x04, MLXL_AEV_CQ_ERR, MLXL_ASYNC_CQ },
		{ 0x05, MLXL_AEV_QP_FATAL, MLXL_ASYNC_QP },
		{ 0x07, MLXL_AEV_PATH_MIG_ERR, MLXL_ASYNC_QP },
		{ 0x10, MLXL_AEV_QP_REQ_ERR, MLXL_ASYNC_QP },
		{ 0x11, MLXL_AEV_QP_ACCESS_ERR, MLXL_ASYNC_QP },
		{ 0x12, MLXL_AEV_SRQ_ERR, MLXL_ASYNC_SRQ },
		{ 0x13, MLXL_AEV_QP_LAST_WQE, MLXL_ASYNC_QP },
		{ 0x14, MLXL_AEV_SRQ_LIMIT, MLXL_ASYNC_SRQ },
	};
	u32 t, i, hits = 0;

	for (t = 0; t < 64; t++) {
		enum mlxl_async_ev ev = mlxl_async_ev_of((u8)t);

		for (i = 0; i < ARRAY_SIZE(map) && map[i].type != t; i++)
			;
		if (i == ARRAY_SIZE(map)) {
			KUNIT_EXPECT_EQ_MSG(test, (int)ev, (int)MLXL_AEV_NONE, "type 0x%x", t);
			KUNIT_EXPECT_EQ(test, (int)mlxl_async_class_of(ev),
					(int)MLXL_ASYNC_NONE);
			KUNIT_EXPECT_FALSE(test, fwsim_async_type((u8)t));
			continue;
		}
		hits++;
		KUNIT_EXPECT_EQ_MSG(test, (int)ev, (int)map[i].ev, "type 0x%x", t);
		KUNIT_EXPECT_EQ_MSG(test, (int)mlxl_async_class_of(ev),
				    (int)map[i].cls, "type 0x%x", t);
		KUNIT_EXPECT_TRUE(test, (MLXL_ASYNC_EVENT_MASK >> t) & 1);
		/* the model raises every object event but completions */
		KUNIT_EXPECT_EQ(test, fwsim_async_type((u8)t), t != 0);
	}
	KUNIT_EXPECT_EQ(test, hits, (u32)ARRAY_SIZE(map));
}

/* the firmware dies on a command of the bring-up */
static const u16 fatal_ops[] = {
	MLXL_OP_ENABLE_HCA,		/* before ENABLE_HCA took effect */
	MLXL_OP_SET_ISSI,		/* after ENABLE_HCA */
	MLXL_OP_MANAGE_PAGES,		/* while pages are given */
	MLXL_OP_SET_DRIVER_VERSION,	/* after INIT_HCA */
	MLXL_OP_CREATE_EQ,		/* creating the EQ */
};
KUNIT_ARRAY_PARAM(fatal, fatal_ops, fault_desc);

static void mlxl_fatal_during_boot(struct kunit *test)
{
	const u16 *op = (const u16 *)test->param_value;
	struct rig_ev *x = rx_new(test, FWSIM_CX6DX);
	struct rig *r = x->r;

	x->fatal_op = *op;
	x->poll_health = true;
	x->next_health = r->clock_ns;
	KUNIT_EXPECT_EQ(test, mlxl_boot(r->dev), -EIO);
	KUNIT_EXPECT_TRUE(test, r->dev->fatal);
	KUNIT_EXPECT_EQ(test, r->dev->fatal_synd, 0x8);
	/*
	 * The command that fails is the first that does not release
	 * anything: a MANAGE_PAGES "succeeds" on a dead device.
	 */
	KUNIT_EXPECT_EQ(test, r->dev->err_opcode,
			*op == MLXL_OP_MANAGE_PAGES ? MLXL_OP_ACCESS_REG : *op);
	KUNIT_EXPECT_EQ(test, r->dev->err_status, (u8)MLXL_STAT_ABORTED);
	KUNIT_EXPECT_EQ(test, r->fw->resets, 1u);
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 0u);
	expect_all_released(test, r);
}

static void hook_die(struct rig_ev *x)
{
	if (x->hook_runs++ == 0) {
		fwsim_health_fatal(x->r->fw, 0x1);
		mlxl_ev_health(&x->ev);
	}
}

/*
 * The firmware dies while a command waits: the waiter gets -EIO, the
 * client hears once, releasing commands "succeed", teardown resets the
 * function and everything is released (the model's pages by the reset).
 */
static void mlxl_fatal_while_cmd_waits(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX6DX, NULL);
	struct rig *r = x->r;
	struct mlxl_dev *dev = r->dev;
	u32 pages;
	int err;

	pages = fwsim_pages_held(r->fw);
	fwsim_hold_cmds(r->fw, 1);
	x->on_wait = hook_die;
	err = rx_nop(x);
	KUNIT_EXPECT_EQ(test, err, -EIO);
	KUNIT_EXPECT_EQ(test, x->wakeups, 1u);
	KUNIT_EXPECT_EQ(test, dev->err_status, (u8)MLXL_STAT_ABORTED);
	flush_work(&x->ev.fatal_work);
	KUNIT_EXPECT_EQ(test, x->fatal_told, 1u);
	mlxl_ev_health(&x->ev);
	flush_work(&x->ev.fatal_work);
	KUNIT_EXPECT_EQ(test, x->fatal_told, 1u);
	mutex_lock(&x->cmd_lock);
	mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_DEALLOC_PD, 0);
	KUNIT_EXPECT_EQ(test, mlxl_cmd_exec(dev, dev->in, MLXL_HDR_LEN, dev->out,
					    MLXL_HDR_LEN), 0);
	mutex_unlock(&x->cmd_lock);
	rx_down(x);
	KUNIT_EXPECT_EQ(test, r->fw->resets, 1u);
	KUNIT_EXPECT_EQ(test, r->fw->pages_reset, pages);
	expect_all_released(test, r);
}

/* a health counter that stands still for three polls: dead */
static void mlxl_fatal_stalled_counter(struct kunit *test)
{
	struct rig_ev *x = rx_up(test, FWSIM_CX5, NULL);
	struct rig *r = x->r;
	int i;

	for (i = 0; i < 5; i++) {
		rig_sleep(r, MLXL_HEALTH_PERIOD_MS * 1000);
		mlxl_ev_health(&x->ev);
	}
	KUNIT_EXPECT_FALSE(test, r->dev->fatal);
	fwsim_health_stall(r->fw);
	for (i = 0; i < MLXL_HEALTH_MISSES; i++) {
		KUNIT_EXPECT_FALSE(test, r->dev->fatal);
		rig_sleep(r, MLXL_HEALTH_PERIOD_MS * 1000);
		mlxl_ev_health(&x->ev);
	}
	KUNIT_EXPECT_TRUE(test, r->dev->fatal);
	flush_work(&x->ev.fatal_work);
	KUNIT_EXPECT_EQ(test, x->fatal_told, 1u);
	rx_down(x);
	KUNIT_EXPECT_EQ(test, r->fw->resets, 1u);
	expect_all_released(test, r);
}

/* the debugfs injection language: strict */
static void mlxl_inject_parse(struct kunit *test)
{
	static const char *const bad[] = {
		"", "\n", "opcode=0x104", "status=3", "opcode=0x104 status=0",
		"opcode=0x10000 status=1", "opcode=0x104 status=1 count=0",
		"opcode=0x104 status=1 opcode=0x104", "opcode=0x104  status=1",
		"opcode=0x104 status=1 ", "opcode=0x104 status=1 bogus=1",
		"delay_ms=0", "delay_ms=x", "health=0", "health=0x100", "lose 1",
		"page_req=0", "page_req=-", "page_req=5000", "opcode=-1 status=1",
		"health=1\n\n", "stall=1", "opcode=0x status=1",
		"syndrome=0x100000000 opcode=1 status=1",
		"async=", "async=4", "async=4:", "async=:4", "async=0:1",
		"async=0x09:1", "async=4:0x1000000", "async=0x104:1",
		"async=4:1:2", "async=4:x", "async=4:1 count=2",
	};
	static const char good[] = "opcode=0x104 status=0x3 syndrome=0x1234 count=2\n";
	struct fwsim_inj inj;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, fwsim_inj_parse(bad[i], (u32)strlen(bad[i]),
							  &inj), -1, "'%s'", bad[i]);
	KUNIT_EXPECT_EQ(test, fwsim_inj_parse(good, sizeof(good) - 1, &inj), 0);
	KUNIT_EXPECT_EQ(test, (int)inj.kind, (int)FWSIM_INJ_CMD);
	KUNIT_EXPECT_EQ(test, inj.opcode, 0x104);
	KUNIT_EXPECT_EQ(test, inj.status, 3);
	KUNIT_EXPECT_EQ(test, inj.syndrome, 0x1234u);
	KUNIT_EXPECT_EQ(test, inj.count, 2u);
	KUNIT_EXPECT_EQ(test, fwsim_inj_parse("health=0x8", 10, &inj), 0);
	KUNIT_EXPECT_EQ(test, inj.synd, 8);
	KUNIT_EXPECT_EQ(test, fwsim_inj_parse("page_req=-16", 12, &inj), 0);
	KUNIT_EXPECT_EQ(test, inj.pages, -16);
	KUNIT_EXPECT_EQ(test, fwsim_inj_parse("delay_ms=250", 12, &inj), 0);
	KUNIT_EXPECT_EQ(test, inj.delay_ms, 250u);
	KUNIT_EXPECT_EQ(test, fwsim_inj_parse("async=0x14:0x9\n", 15, &inj), 0);
	KUNIT_EXPECT_EQ(test, (int)inj.kind, (int)FWSIM_INJ_ASYNC);
	KUNIT_EXPECT_EQ(test, inj.async_type, 0x14);
	KUNIT_EXPECT_EQ(test, inj.async_obj, 9u);
	KUNIT_EXPECT_EQ(test, fwsim_inj_parse("lose", 4, &inj), 0);
	KUNIT_EXPECT_EQ(test, (int)inj.kind, (int)FWSIM_INJ_LOSE);
}
