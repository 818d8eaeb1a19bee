// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: mlx-lite's bring-up and teardown against the firmware model, in
 * the kernel.  The rig gives the model DMA memory by made-up bus
 * addresses (never physical ones; freed memory becomes unreachable) and
 * a clock that moves only when the driver sleeps, so timeouts take no
 * real time.  Every case ends with the model holding no page and no
 * object and the rig no allocation.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mlxl_dev.h"
#include "fwsim/fwsim.h"
#include "mlxl_qpc.h"
#include "mlxl_golden.h"

#define RIG_PAGES	8192

struct rig_region {
	struct list_head list;
	u64 bus;
	u32 size;
	void *mem;
};

struct rig {
	struct fwsim *fw;
	struct mlxl_dev *dev;
	struct mlxl_dma *pages;
	struct list_head regions;
	u32 live;
	u64 next_bus;
	u64 clock_ns;
	u64 slept_ns;
	struct fwsim_ops fops;
	struct mlxl_ops dops;
	void *ext;			/* the events cases' (mlxl_kunit_events.c) */
};

static struct rig_region *rig_find(struct rig *r, u64 addr, u32 len)
{
	struct rig_region *g;

	list_for_each_entry(g, &r->regions, list)
		if (addr >= g->bus && len <= g->size && addr - g->bus <= g->size - len)
			return g;
	return NULL;
}

static int rig_dma_read(void *ctx, u64 addr, void *buf, u32 len)
{
	struct rig_region *g = rig_find((struct rig *)ctx, addr, len);

	if (!g)
		return -EFAULT;
	memcpy(buf, (u8 *)g->mem + (addr - g->bus), len);
	return 0;
}

static int rig_dma_write(void *ctx, u64 addr, const void *buf, u32 len)
{
	struct rig_region *g = rig_find((struct rig *)ctx, addr, len);

	if (!g)
		return -EFAULT;
	memcpy((u8 *)g->mem + (addr - g->bus), buf, len);
	return 0;
}

static u64 rig_now(void *ctx)
{
	return ((struct rig *)ctx)->clock_ns;
}

static u32 rig_rd32(void *ctx, u32 off)
{
	return fwsim_mmio_read32(((struct rig *)ctx)->fw, off);
}

static void rig_wr32(void *ctx, u32 off, u32 val)
{
	fwsim_mmio_write32(((struct rig *)ctx)->fw, off, val);
}

static void rig_wr64(void *ctx, u32 off, u64 val)
{
	fwsim_mmio_write64(((struct rig *)ctx)->fw, off, val);
}

static int rig_alloc(void *ctx, struct mlxl_dma *d, u32 size, u32 align)
{
	struct rig *r = (struct rig *)ctx;
	struct rig_region *g;
	u64 bus;

	g = (struct rig_region *)kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	g->mem = vzalloc(size);
	if (!g->mem) {
		kfree(g);
		return -ENOMEM;
	}
	bus = (r->next_bus + align - 1) & ~((u64)align - 1);
	r->next_bus = bus + size + 4096;	/* a gap: overruns hit nothing */
	g->bus = bus;
	g->size = size;
	list_add_tail(&g->list, &r->regions);
	r->live++;
	d->cpu = g->mem;
	d->bus = bus;
	d->size = size;
	return 0;
}

static void rig_free_region(struct rig *r, struct rig_region *g)
{
	list_del(&g->list);
	vfree(g->mem);
	kfree(g);
	r->live--;
}

static void rig_free(void *ctx, struct mlxl_dma *d)
{
	struct rig *r = (struct rig *)ctx;
	struct rig_region *g;

	if (!d->cpu)
		return;
	list_for_each_entry(g, &r->regions, list)
		if (g->bus == d->bus) {
			rig_free_region(r, g);
			break;
		}
	d->cpu = NULL;
	d->bus = 0;
	d->size = 0;
}

static void rig_sleep(void *ctx, u32 us)
{
	struct rig *r = (struct rig *)ctx;

	r->clock_ns += 1000ull * us;
	r->slept_ns += 1000ull * us;
}

/* the suite's exit: whatever the case left, even after a failed assertion */
static void rig_exit(struct kunit *test)
{
	struct rig *r = (struct rig *)test->priv;
	struct rig_region *g, *t;

	if (!r)
		return;
	list_for_each_entry_safe(g, t, &r->regions, list)
		rig_free_region(r, g);
	vfree(r->pages);
	vfree(r->dev);
	vfree(r->fw);
	test->priv = NULL;
}

static struct rig *rig_new(struct kunit *test, enum fwsim_profile prof)
{
	struct rig *r = (struct rig *)kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	INIT_LIST_HEAD(&r->regions);
	r->fw = (struct fwsim *)vzalloc(sizeof(*r->fw));
	r->dev = (struct mlxl_dev *)vzalloc(sizeof(*r->dev));
	r->pages = (struct mlxl_dma *)vzalloc(RIG_PAGES * sizeof(*r->pages));
	test->priv = r;
	KUNIT_ASSERT_NOT_NULL(test, r->fw);
	KUNIT_ASSERT_NOT_NULL(test, r->dev);
	KUNIT_ASSERT_NOT_NULL(test, r->pages);
	r->next_bus = 0x1000000000ull;
	r->clock_ns = 1000000000ull;
	r->fops.dma_read = rig_dma_read;
	r->fops.dma_write = rig_dma_write;
	r->fops.now_ns = rig_now;
	fwsim_init(r->fw, prof, &r->fops, r);
	r->dops.rd32 = rig_rd32;
	r->dops.wr32 = rig_wr32;
	r->dops.wr64 = rig_wr64;
	r->dops.dma_alloc = rig_alloc;
	r->dops.dma_free = rig_free;
	r->dops.now_ns = rig_now;
	r->dops.sleep_us = rig_sleep;
	r->dev->ops = &r->dops;
	r->dev->ctx = r;
	r->dev->pages = r->pages;
	r->dev->pages_cap = RIG_PAGES;
	return r;
}

/*
 * Real time a 61 s command timeout on the rig's clock may take: far below
 * it, with room for an emulated CPU on a loaded host.
 */
#define RIG_REAL_TIME_MAX_NS	(10 * NSEC_PER_SEC)

/* nothing left anywhere: the model, the driver, the rig */
static void expect_all_released(struct kunit *test, struct rig *r)
{
	KUNIT_EXPECT_EQ(test, (int)r->dev->step, (int)MLXL_STEP_NONE);
	KUNIT_EXPECT_EQ(test, (int)r->fw->phase, (int)FWSIM_PH_DISABLED);
	KUNIT_EXPECT_EQ(test, fwsim_pages_held(r->fw), 0u);
	KUNIT_EXPECT_EQ(test, fwsim_objects_alive(r->fw), 0u);
	KUNIT_EXPECT_EQ(test, r->dev->npages, 0u);
	KUNIT_EXPECT_EQ(test, r->live, 0u);
}

static void expect_trace(struct kunit *test, struct rig *r, u32 from,
			 const u16 *ops, u32 n)
{
	const struct fwsim_trace_ent *t;
	u32 i;

	KUNIT_ASSERT_EQ(test, r->fw->trace_pos - from, n);
	for (i = 0; i < n; i++) {
		t = fwsim_trace_get(r->fw, from + i);
		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_EXPECT_EQ_MSG(test, t->opcode, ops[i], "command %u", i);
		KUNIT_EXPECT_EQ_MSG(test, t->status, 0, "command %u", i);
	}
}

static const enum fwsim_profile profiles[] = {
	FWSIM_CX4LX, FWSIM_CX5, FWSIM_CX6DX, FWSIM_CX7,
};

static void profile_desc(const enum fwsim_profile *p, char *desc)
{
	strscpy(desc, fwsim_profile_str(*p), KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(profile, profiles, profile_desc);

/* bring-up and teardown in the documented order, nothing left */
static void mlxl_boot_and_teardown(struct kunit *test)
{
	const enum fwsim_profile *p = (const enum fwsim_profile *)test->param_value;
	struct rig *r = rig_new(test, *p);
	u32 mark;
	int err;

	err = mlxl_boot(r->dev);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "%s: status 0x%x, model: %s",
			    mlxl_cmd_name(r->dev->err_opcode), r->dev->err_status,
			    fwsim_err_str(r->fw->last_err));
	KUNIT_EXPECT_EQ(test, (int)r->fw->phase, (int)FWSIM_PH_INITIALIZED);
	KUNIT_EXPECT_EQ(test, (int)r->dev->step, (int)MLXL_STEP_EQ);
	KUNIT_EXPECT_EQ(test, fwsim_pages_held(r->fw),
			r->fw->boot_pages + r->fw->init_pages);
	KUNIT_EXPECT_EQ(test, fwsim_objects_alive(r->fw), 2u);	/* UAR, EQ */
	KUNIT_EXPECT_EQ(test, r->dev->fw_rev_major, r->fw->fw_rev & 0xffff);
	expect_trace(test, r, 0, mlxl_golden_boot,
		     ARRAY_SIZE(mlxl_golden_boot));
	mark = r->fw->trace_pos;
	mlxl_shutdown(r->dev);
	expect_trace(test, r, mark, mlxl_golden_down,
		     ARRAY_SIZE(mlxl_golden_down));
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 0u);
	expect_all_released(test, r);
}

/* 100 bring-up/teardown cycles of one function */
static void mlxl_load_unload_cycles(struct kunit *test)
{
	struct rig *r = rig_new(test, FWSIM_CX6DX);
	int i;

	for (i = 0; i < 100; i++) {
		KUNIT_ASSERT_EQ_MSG(test, mlxl_boot(r->dev), 0, "cycle %d", i);
		mlxl_shutdown(r->dev);
		KUNIT_ASSERT_EQ_MSG(test, fwsim_pages_held(r->fw), 0u, "cycle %d", i);
		KUNIT_ASSERT_EQ_MSG(test, r->live, 0u, "cycle %d", i);
	}
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 0u);
	expect_all_released(test, r);
}

/* the commands of the bring-up after ENABLE_HCA, each failing in turn */
static const u16 fault_ops[] = {
	MLXL_OP_QUERY_ISSI, MLXL_OP_SET_ISSI, MLXL_OP_QUERY_PAGES,
	MLXL_OP_MANAGE_PAGES, MLXL_OP_ACCESS_REG, MLXL_OP_QUERY_HCA_CAP,
	MLXL_OP_SET_HCA_CAP, MLXL_OP_INIT_HCA, MLXL_OP_SET_DRIVER_VERSION,
	MLXL_OP_QUERY_ADAPTER, MLXL_OP_ALLOC_UAR, MLXL_OP_CREATE_EQ,
};

static void fault_desc(const u16 *op, char *desc)
{
	strscpy(desc, mlxl_cmd_name(*op), KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(fault, fault_ops, fault_desc);

/* a failed bring-up command unwinds to nothing, with a readable error */
static void mlxl_boot_fault_unwinds(struct kunit *test)
{
	const u16 *op = (const u16 *)test->param_value;
	struct rig *r = rig_new(test, FWSIM_CX5);

	fwsim_inject(r->fw, *op, MLXL_STAT_BAD_RES_STATE, 0x1234, 1);
	KUNIT_EXPECT_EQ(test, mlxl_boot(r->dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, r->dev->err_opcode, *op);
	KUNIT_EXPECT_EQ(test, r->dev->err_status, (u8)MLXL_STAT_BAD_RES_STATE);
	KUNIT_EXPECT_EQ(test, r->dev->err_syndrome, 0x1234u);
	KUNIT_EXPECT_EQ(test, fwsim_err_count(r->fw, FWSIM_E_INJECTED), 1u);
	KUNIT_EXPECT_EQ(test, r->fw->nr_errs, 1u);
	expect_all_released(test, r);
}

/*
 * A device whose initializing bit never clears: the driver gives up after
 * its timeout on the rig's clock, which costs no real time.
 */
static void mlxl_stuck_initializing_times_out(struct kunit *test)
{
	struct rig *r = rig_new(test, FWSIM_CX7);
	u64 t0 = ktime_get_ns();

	r->fw->cmdq_init_delay_ns = 3600ull * NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, mlxl_boot(r->dev), -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, r->slept_ns, (u64)MLXL_INIT_TIMEOUT_MS * 1000000ull);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - t0, (u64)NSEC_PER_SEC);
	expect_all_released(test, r);
}

/* a command the device never answers: the 61 s timeout, in no real time */
static void mlxl_cmd_timeout_takes_no_time(struct kunit *test)
{
	struct rig *r = rig_new(test, FWSIM_CX6DX);
	u64 t0;

	KUNIT_ASSERT_EQ(test, mlxl_cmdq_setup(r->dev), 0);
	r->dev->step = MLXL_STEP_CMDQ;
	r->fw->cmdq_ready = false;	/* the device stops answering */
	t0 = ktime_get_ns();
	mlxl_cmd_hdr(r->dev->in, MLXL_HDR_LEN, MLXL_OP_ENABLE_HCA, 0);
	KUNIT_EXPECT_EQ(test, mlxl_cmd_exec(r->dev, r->dev->in, MLXL_HDR_LEN,
					    r->dev->out, MLXL_ENABLE_HCA_OUT_LEN),
			-ETIMEDOUT);
	KUNIT_EXPECT_GE(test, r->slept_ns, (u64)MLXL_CMD_TIMEOUT_MS * 1000000ull);
	KUNIT_EXPECT_LT(test, ktime_get_ns() - t0, RIG_REAL_TIME_MAX_NS);
	KUNIT_EXPECT_EQ(test, r->dev->err_status, (u8)MLXL_STAT_ABORTED);
	mlxl_shutdown(r->dev);
	expect_all_released(test, r);
}


/*
 * Every legal QP edge accepted and every illegal one refused, by the
 * driver's transition commands (mlxl_qpc.c) and by the model alike: for
 * each QP type and each (from, to) pair of IB states, the driver has a
 * command exactly when the model's table has that edge, and the command it
 * builds with every attribute it carries is accepted by the model's edge
 * check.  ib_core's own table (which the driver asks first) is checked
 * against both on the host (tools/testing/unit/mlxl_qpc_test.cpp).
 */
static int qpc_fw_state(int s)
{
	static const int map[] = {
		[IB_QPS_RESET] = FWSIM_QPS_RST, [IB_QPS_INIT] = FWSIM_QPS_INIT,
		[IB_QPS_RTR] = FWSIM_QPS_RTR, [IB_QPS_RTS] = FWSIM_QPS_RTS,
		[IB_QPS_SQD] = -1, [IB_QPS_SQE] = FWSIM_QPS_SQER,
		[IB_QPS_ERR] = FWSIM_QPS_ERR,
	};

	return map[s];
}

static bool model_has_edge(u8 st, int from, int to)
{
	u32 i;

	for (i = 0; i < fwsim_nr_qp_edges; i++)
		if (fwsim_qp_edges[i].st == st && fwsim_qp_edges[i].from == from &&
		    fwsim_qp_edges[i].to == to)
			return true;
	return false;
}

static void mlxl_qp_edges_agree(struct kunit *test)
{
	static const u8 sts[] = { FWSIM_QPT_RC, FWSIM_QPT_UD, FWSIM_QPT_GSI };
	struct mlxl_qp_mod m = {
		.port = 1, .qkey = 0x11111111, .rre = true, .rwe = true,
		.rae = true, .min_rnr_timer = 12, .path_mtu = 3,
		.max_dest_rd_atomic = 4, .max_rd_atomic = 4, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 6, .dest_qpn = 0x45, .rq_psn = 1,
		.sq_psn = 2,
		.path = { .rgid = { 0xfe, 0x80, [15] = 1 },
			  .rmac = { 2, 0, 0, 0, 0, 1 }, .sgid_index = 1,
			  .hop_limit = 64, .sl = 3, .roce_v2 = 1 },
	};
	u8 *in = (u8 *)kunit_kzalloc(test, MLXL_QP_MODIFY_IN_LEN, GFP_KERNEL);
	u32 t, taken = 0;
	int cur, next;

	KUNIT_ASSERT_NOT_NULL(test, in);
	for (t = 0; t < ARRAY_SIZE(sts); t++) {
		bool rc = sts[t] == FWSIM_QPT_RC;

		for (cur = IB_QPS_RESET; cur <= IB_QPS_ERR; cur++) {
			for (next = IB_QPS_RESET; next <= IB_QPS_ERR; next++) {
				int fc = qpc_fw_state(cur), fn = qpc_fw_state(next);
				bool model = fc >= 0 && fn >= 0 &&
					     model_has_edge(sts[t], fc, fn);
				u16 op = mlxl_qp_opcode((enum ib_qp_state)cur,
							(enum ib_qp_state)next, rc);
				const struct fwsim_qp_edge *e;
				u32 bad, len;

				KUNIT_EXPECT_EQ_MSG(test, op != 0, model,
						    "st %u %d->%d", sts[t], cur, next);
				if (!op || !model)
					continue;
				taken++;
				len = mlxl_qp_modify_in(in, op, FWSIM_QPN_BASE, rc, &m,
							mlxl_qp_carries(op, rc));
				KUNIT_EXPECT_EQ_MSG(test,
						    fwsim_qp_edge_check((u8)fc, op, sts[t],
									in, len, &e, &bad),
						    FWSIM_E_NONE, "st %u %d->%d bad %u",
						    sts[t], cur, next, bad);
				KUNIT_EXPECT_TRUE(test, e && e->to == fn);
			}
		}
	}
	/* RC 15, UD 18, GSI 18 */
	KUNIT_EXPECT_EQ(test, taken, 51u);
}

#include "mlxl_kunit_events.c"
#include "mlxl_kunit_dp.c"
#include "fwsim_kunit_dp.c"

static struct kunit_case mlxl_cases[] = {
	KUNIT_CASE_PARAM(mlxl_boot_and_teardown, profile_gen_params),
	KUNIT_CASE(mlxl_load_unload_cycles),
	KUNIT_CASE_PARAM(mlxl_boot_fault_unwinds, fault_gen_params),
	KUNIT_CASE(mlxl_stuck_initializing_times_out),
	KUNIT_CASE(mlxl_cmd_timeout_takes_no_time),
	KUNIT_CASE(mlxl_qp_edges_agree),
	/* mlxl_kunit_events.c */
	KUNIT_CASE(mlxl_ev_cmd_completes_by_event),
	KUNIT_CASE(mlxl_ev_lost_cmd_times_out),
	KUNIT_CASE(mlxl_ev_page_request_during_cmd),
	KUNIT_CASE(mlxl_ev_port_change),
	KUNIT_CASE(mlxl_ev_async_events),
	KUNIT_CASE(mlxl_ev_async_no_client),
	KUNIT_CASE(mlxl_async_map),
	KUNIT_CASE_PARAM(mlxl_fatal_during_boot, fatal_gen_params),
	KUNIT_CASE(mlxl_fatal_while_cmd_waits),
	KUNIT_CASE(mlxl_fatal_stalled_counter),
	KUNIT_CASE(mlxl_inject_parse),
	/* mlxl_kunit_dp.c */
	KUNIT_CASE(mlxl_dp_post_send_bytes),
	KUNIT_CASE(mlxl_dp_ud_send_and_recv),
	KUNIT_CASE(mlxl_dp_poll_wrap_and_errors),
	KUNIT_CASE(mlxl_dp_arm),
	KUNIT_CASE(mlxl_dp_fatal_flush),
	/* fwsim_kunit_dp.c */
	KUNIT_CASE(fwsim_dp_send_recv),
	KUNIT_CASE(fwsim_dp_rdma_atomics),
	KUNIT_CASE_PARAM(fwsim_dp_rkey_violation, v_gen_params),
	KUNIT_CASE(fwsim_dp_ud),
	KUNIT_CASE(fwsim_dp_short_recv),
	KUNIT_CASE(fwsim_dp_rnr),
	KUNIT_CASE(fwsim_dp_rnr_infinite),
	KUNIT_CASE(fwsim_dp_flush_and_wrap),
	KUNIT_CASE(fwsim_dp_arm),
	KUNIT_CASE(fwsim_dp_producer_too_far),
	KUNIT_CASE(fwsim_dp_two_instances),
	KUNIT_CASE(fwsim_dp_cq_overrun),
	{}
};

static struct kunit_suite mlxl_suite = {
	.name = "mlx_lite",
	.exit = rig_exit,
	.test_cases = mlxl_cases,
};
kunit_test_suite(mlxl_suite);

MODULE_DESCRIPTION("KUnit: mlx-lite bring-up and teardown against the firmware model");
MODULE_LICENSE("Dual BSD/GPL");
