// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx_lite_fwsim: simulated ConnectX functions for the test VM.
 *
 *   rdma link add mlxl0 type mlx_lite_sim netdev veth0
 *
 * creates a function (the firmware model, struct fwsim, behind BAR0 and
 * DMA seams) attached to veth0 and registers it as a platform device
 * that mlx_lite binds to (mlxl_sim.h); the driver registers "mlxl0".
 * "rdma link delete mlxl0", removing veth0 and unloading this module
 * remove the function.
 *
 * DMA: every buffer the driver allocates gets a bus address in a private
 * address space (never a physical address), with an unmapped page after
 * it, so a DMA to driver memory it did not give, or already freed, is
 * refused and recorded (FWSIM_E_DMA).  Kernel users' buffers come through
 * the platform device's DMA API, direct on the test kernel: below the
 * private space an address is physical and must be a RAM page.
 *
 * Lifetime of a struct sim_fn: a kref, held by the function list while
 * the function is listed and by each queued removal.  The platform device
 * is unregistered exactly once, by whoever sets ->dying under sim_lock
 * (sim_kill()); the memory goes with the last reference.  Lock order:
 * RTNL -> sim_lock -> fw_lock -> the DMA map's lock.
 *
 * debugfs (mlx_lite_fwsim/): "totals" counts functions and what the model
 * found at each function's end (pages the driver did not take back,
 * objects it did not destroy, DMA buffers it did not free, refusals;
 * pages_reset: pages a function reset dropped, which are not leaks);
 * fnN/trace lists the function's last commands; fnN/inject and
 * inject_next take faults (fwsim_inj.c).
 *
 * Interrupts: the model raises a vector from inside a model call (under
 * fw_lock); sim_fw_irq() only queues irq_work, which calls the driver's
 * handler with interrupts off, as MSI-X would.  MMIO writes to UAR pages
 * (EQ doorbells, possibly from that handler) are posted: recorded under
 * db_lock and applied to the model by db_work, as posted writes reach a
 * device later.  free_irq() waits for both.
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/if_arp.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>
#include <rdma/rdma_netlink.h>

#include "../mlxl_sim.h"
#include "fwsim.h"
#include "fwsim_inj.h"

static char *profile = "cx6dx";
module_param(profile, charp, 0644);
MODULE_PARM_DESC(profile, "model of the functions created from now on: cx4lx, cx5, cx6dx or cx7 (default cx6dx)");

/* PCI device IDs of the PFs the profiles model */
static const struct {
	const char *name;
	enum fwsim_profile prof;
	u32 part_id;
} sim_profiles[] = {
	{ "cx4lx", FWSIM_CX4LX, 0x1015 },
	{ "cx5", FWSIM_CX5, 0x1017 },
	{ "cx6dx", FWSIM_CX6DX, 0x101d },
	{ "cx7", FWSIM_CX7, 0x1021 },
};

#define SIM_IOVA_BASE	0x0000100000000000ull

struct sim_dma {
	u64 iova;
	void *cpu;
	u32 size;			/* whole pages */
};

/* an EQ doorbell posted, not yet applied */
struct sim_db {
	u32 ci;
	u32 uar;
	u8 state;
};

/* a 64-bit UAR write posted, not yet applied */
struct sim_db64 {
	u32 off;
	u64 val;
};

#define SIM_DB64_RING	256

struct sim_fn {
	struct kref ref;
	struct list_head list;		/* sim_fns, under sim_lock */
	bool listed;
	bool dying;			/* sim_kill() claimed it */
	u32 id;
	struct net_device *ndev;	/* held */
	struct platform_device *pdev;
	struct work_struct kill_work;
	struct dentry *dbg;

	struct mutex fw_lock;		/* the model: one access at a time */
	struct fwsim *fw;

	spinlock_t irq_lock;		/* guards irq_handler, irq_arg */
	void (*irq_handler)(void *arg);
	void *irq_arg;
	struct work_struct irq_work;
	spinlock_t db_lock;		/* guards db[] */
	struct sim_db db[FWSIM_MAX_EQS];
	struct sim_db64 db64[SIM_DB64_RING];	/* under db_lock */
	u32 db64_head, db64_tail;
	u64 db64_overruns;
	struct work_struct db_work;
	struct delayed_work release_work;	/* "delay_ms" injection */

	struct xarray dma;		/* bus page number -> struct sim_dma; its lock guards the rest */
	u64 next_iova;
	u32 dma_live;
};

static DEFINE_MUTEX(sim_lock);
static LIST_HEAD(sim_fns);
static u32 sim_next_id;
static struct workqueue_struct *sim_wq;
static struct dentry *sim_dbg;

static struct {
	u64 created, destroyed;
	u64 pages_left, objects_left, dma_left, refusals;
	u64 resets, pages_reset;
} sim_totals;			/* under sim_lock */

/* a fault for the next function created (debugfs inject_next) */
static struct fwsim_inj sim_inj_next;	/* under sim_lock */
static bool sim_inj_next_set;

/* ---- the model's seams: DMA by bus address, time */

/*
 * Kernel users' buffers (SGEs of ULPs and the MAD layer) reach the
 * function through the DMA API of its platform device, which on the test
 * kernel maps directly: their bus addresses are physical, below the
 * private space.  The model may touch only RAM pages there, one page at a
 * time through the kernel's mapping.
 */
static int sim_dma_phys(u64 addr, void *buf, u32 len, bool write)
{
	u8 *b = (u8 *)buf;

	while (len) {
		unsigned long pfn = (unsigned long)(addr >> PAGE_SHIFT);
		u32 off = (u32)(addr & ~PAGE_MASK);
		u32 n = min_t(u32, len, PAGE_SIZE - off);
		struct page *pg;
		u8 *p;

		if (!pfn_valid(pfn))
			return -EFAULT;
		pg = pfn_to_page(pfn);
		if (PageReserved(pg))
			return -EFAULT;
		p = (u8 *)kmap_local_page(pg);
		if (write)
			memcpy(p + off, b, n);
		else
			memcpy(b, p + off, n);
		kunmap_local(p);
		addr += n;
		b += n;
		len -= n;
	}
	return 0;
}

static int sim_dma_access(struct sim_fn *fn, u64 addr, void *buf, u32 len,
			  bool write)
{
	struct sim_dma *d;
	unsigned long flags;
	int ret = -EFAULT;

	if (addr < SIM_IOVA_BASE && len <= SIM_IOVA_BASE - addr)
		return sim_dma_phys(addr, buf, len, write);
	xa_lock_irqsave(&fn->dma, flags);
	d = (struct sim_dma *)xa_load(&fn->dma, (unsigned long)(addr >> PAGE_SHIFT));
	if (d && len <= d->size && addr - d->iova <= d->size - len) {
		u8 *p = (u8 *)d->cpu + (addr - d->iova);

		if (write)
			memcpy(p, buf, len);
		else
			memcpy(buf, p, len);
		ret = 0;
	}
	xa_unlock_irqrestore(&fn->dma, flags);
	return ret;
}

static int sim_fw_dma_read(void *ctx, u64 addr, void *buf, u32 len)
{
	return sim_dma_access((struct sim_fn *)ctx, addr, buf, len, false);
}

static int sim_fw_dma_write(void *ctx, u64 addr, const void *buf, u32 len)
{
	return sim_dma_access((struct sim_fn *)ctx, addr, (void *)buf, len, true);
}

static u64 sim_now_ns(void *ctx)
{
	return ktime_get_ns();
}

/* the model raised a vector (under fw_lock): the handler runs later */
static void sim_fw_irq(void *ctx, u32 vector)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;

	if (vector == 0)
		queue_work(sim_wq, &fn->irq_work);
}

/*
 * Data-path deliveries (under fw_lock) stay inside the function: to itself
 * when one of its GIDs is the destination, else nowhere (an RC request
 * times out, a UD message is lost).  No other function's lock is taken.
 */
static struct fwsim *sim_fw_route(void *ctx, const u8 *dgid)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	u32 i;

	for (i = 0; i < FWSIM_MAX_GIDS; i++)
		if (fn->fw->gids[i].valid && !memcmp(fn->fw->gids[i].raw, dgid, 16))
			return fn->fw;
	return NULL;
}

static const struct fwsim_ops sim_fw_ops = {
	.dma_read = sim_fw_dma_read,
	.dma_write = sim_fw_dma_write,
	.now_ns = sim_now_ns,
	.irq = sim_fw_irq,
	.route = sim_fw_route,
};

/* the driver's handler, with interrupts off as in a hard interrupt */
static void sim_irq_work(struct work_struct *w)
{
	struct sim_fn *fn = container_of(w, struct sim_fn, irq_work);
	unsigned long flags;

	spin_lock_irqsave(&fn->irq_lock, flags);
	if (fn->irq_handler)
		fn->irq_handler(fn->irq_arg);
	spin_unlock_irqrestore(&fn->irq_lock, flags);
}

#define SIM_DB_PENDING	1
#define SIM_DB_ARM	2
#define SIM_UAR_BASE	(FWSIM_FIRST_UAR * 4096u)

/* apply the posted EQ doorbells, in EQ order, the newest CI of each */
static void sim_db_work(struct work_struct *w)
{
	struct sim_fn *fn = container_of(w, struct sim_fn, db_work);
	struct sim_db db[FWSIM_MAX_EQS];
	struct sim_db64 d64;
	unsigned long flags;
	u32 i, n;

	spin_lock_irqsave(&fn->db_lock, flags);
	memcpy(db, fn->db, sizeof(db));
	memset(fn->db, 0, sizeof(fn->db));
	spin_unlock_irqrestore(&fn->db_lock, flags);
	mutex_lock(&fn->fw_lock);
	for (i = 0; i < FWSIM_MAX_EQS; i++)
		if (db[i].state & SIM_DB_PENDING)
			fwsim_mmio_write32(fn->fw, db[i].uar * 4096u +
					   (db[i].state & SIM_DB_ARM ? 0x40 : 0x48),
					   i << 24 | db[i].ci);
	/* 64-bit doorbells in the order they were written, a ring's worth */
	for (n = 0; n < SIM_DB64_RING; n++) {
		spin_lock_irqsave(&fn->db_lock, flags);
		if (fn->db64_head == fn->db64_tail) {
			spin_unlock_irqrestore(&fn->db_lock, flags);
			break;
		}
		d64 = fn->db64[fn->db64_tail++ % SIM_DB64_RING];
		spin_unlock_irqrestore(&fn->db_lock, flags);
		fwsim_mmio_write64(fn->fw, d64.off, d64.val);
	}
	mutex_unlock(&fn->fw_lock);
	if (n == SIM_DB64_RING)
		queue_work(sim_wq, &fn->db_work);
}

/* a UAR write; any context */
static void sim_post_db(struct sim_fn *fn, u32 off, u32 val)
{
	u32 eqn = val >> 24, reg = off & 0xfff;
	unsigned long flags;

	if ((reg != 0x40 && reg != 0x48) || eqn >= FWSIM_MAX_EQS) {
		/* not an EQ doorbell: let the model judge it in order */
		mutex_lock(&fn->fw_lock);
		fwsim_mmio_write32(fn->fw, off, val);
		mutex_unlock(&fn->fw_lock);
		return;
	}
	spin_lock_irqsave(&fn->db_lock, flags);
	fn->db[eqn].ci = val & 0xffffff;
	fn->db[eqn].uar = off >> 12;
	fn->db[eqn].state |= SIM_DB_PENDING | (reg == 0x40 ? SIM_DB_ARM : 0);
	spin_unlock_irqrestore(&fn->db_lock, flags);
	queue_work(sim_wq, &fn->db_work);
}

/* ---- the driver's seams (struct mlxl_ops) */

static u32 sim_rd32(void *ctx, u32 off)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	u32 v;

	mutex_lock(&fn->fw_lock);
	v = fwsim_mmio_read32(fn->fw, off);
	mutex_unlock(&fn->fw_lock);
	return v;
}

/* a command doorbell runs the command here, in the writer's context */
static void sim_wr32(void *ctx, u32 off, u32 val)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;

	if (off >= SIM_UAR_BASE) {
		sim_post_db(fn, off, val);
		return;
	}
	mutex_lock(&fn->fw_lock);
	fwsim_mmio_write32(fn->fw, off, val);
	mutex_unlock(&fn->fw_lock);
}

/* CQ and send doorbells; any context, applied in order by db_work */
static void sim_wr64(void *ctx, u32 off, u64 val)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	unsigned long flags;

	spin_lock_irqsave(&fn->db_lock, flags);
	if (fn->db64_head - fn->db64_tail >= SIM_DB64_RING) {
		/* a full ring: the write is lost, as on an overrun bus */
		fn->db64_overruns++;
	} else {
		fn->db64[fn->db64_head % SIM_DB64_RING].off = off;
		fn->db64[fn->db64_head % SIM_DB64_RING].val = val;
		fn->db64_head++;
	}
	spin_unlock_irqrestore(&fn->db_lock, flags);
	queue_work(sim_wq, &fn->db_work);
}

static void sim_unmap(struct sim_fn *fn, struct sim_dma *d)
{
	unsigned long i, first = (unsigned long)(d->iova >> PAGE_SHIFT);
	unsigned long flags;

	xa_lock_irqsave(&fn->dma, flags);
	for (i = 0; i < d->size >> PAGE_SHIFT; i++)
		__xa_erase(&fn->dma, first + i);
	fn->dma_live--;
	xa_unlock_irqrestore(&fn->dma, flags);
}

static int sim_dma_alloc(void *ctx, struct mlxl_dma *m, u32 size, u32 align)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	struct sim_dma *d;
	unsigned long i, first, flags;
	u64 iova;
	int err;

	if (!size || (align & (align - 1)))
		return -EINVAL;
	if (align < PAGE_SIZE)
		align = PAGE_SIZE;
	d = (struct sim_dma *)kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->size = (u32)PAGE_ALIGN(size);
	d->cpu = alloc_pages_exact(d->size, GFP_KERNEL | __GFP_ZERO);
	if (!d->cpu) {
		kfree(d);
		return -ENOMEM;
	}
	xa_lock_irqsave(&fn->dma, flags);
	iova = (fn->next_iova + align - 1) & ~((u64)align - 1);
	/* an unmapped page after each buffer: overruns hit nothing */
	fn->next_iova = iova + d->size + PAGE_SIZE;
	d->iova = iova;
	first = (unsigned long)(iova >> PAGE_SHIFT);
	err = 0;
	for (i = 0; i < d->size >> PAGE_SHIFT && !err; i++)
		err = xa_err(__xa_store(&fn->dma, first + i, d, GFP_ATOMIC));
	if (err) {
		while (i--)
			__xa_erase(&fn->dma, first + i);
	} else {
		fn->dma_live++;
	}
	xa_unlock_irqrestore(&fn->dma, flags);
	if (err) {
		free_pages_exact(d->cpu, d->size);
		kfree(d);
		return err;
	}
	m->cpu = d->cpu;
	m->bus = iova;
	m->size = size;
	return 0;
}

static void sim_dma_free(void *ctx, struct mlxl_dma *m)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	struct sim_dma *d;

	if (!m->cpu)
		return;
	d = (struct sim_dma *)xa_load(&fn->dma, (unsigned long)(m->bus >> PAGE_SHIFT));
	if (WARN_ON(!d || d->iova != m->bus))
		return;
	sim_unmap(fn, d);
	free_pages_exact(d->cpu, d->size);
	kfree(d);
	m->cpu = NULL;
	m->bus = 0;
	m->size = 0;
}

static void sim_sleep_us(void *ctx, u32 us)
{
	usleep_range(us, us + us / 4 + 10);
}

static int sim_request_irq(void *ctx, u32 vector, void (*handler)(void *arg),
			   void *arg)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	unsigned long flags;
	int err = 0;

	if (vector != 0 || !handler)
		return -EINVAL;
	spin_lock_irqsave(&fn->irq_lock, flags);
	if (fn->irq_handler) {
		err = -EBUSY;
	} else {
		fn->irq_handler = handler;
		fn->irq_arg = arg;
	}
	spin_unlock_irqrestore(&fn->irq_lock, flags);
	return err;
}

static void sim_free_irq(void *ctx, u32 vector)
{
	struct sim_fn *fn = (struct sim_fn *)ctx;
	unsigned long flags;

	spin_lock_irqsave(&fn->irq_lock, flags);
	fn->irq_handler = NULL;
	fn->irq_arg = NULL;
	spin_unlock_irqrestore(&fn->irq_lock, flags);
	cancel_work_sync(&fn->irq_work);
	/* the handler's last doorbells reach the model before the EQ goes */
	flush_work(&fn->db_work);
}

static const struct mlxl_ops sim_dev_ops = {
	.rd32 = sim_rd32,
	.wr32 = sim_wr32,
	.wr64 = sim_wr64,
	.dma_alloc = sim_dma_alloc,
	.dma_free = sim_dma_free,
	.now_ns = sim_now_ns,
	.sleep_us = sim_sleep_us,
	.request_irq = sim_request_irq,
	.free_irq = sim_free_irq,
};

/* ---- functions */

static void sim_fn_release(struct kref *ref)
{
	struct sim_fn *fn = container_of(ref, struct sim_fn, ref);
	struct sim_dma *d;
	unsigned long idx;

	cancel_work_sync(&fn->irq_work);
	cancel_work_sync(&fn->db_work);
	cancel_delayed_work_sync(&fn->release_work);
	/* buffers the driver never freed (counted in sim_kill) */
	xa_for_each(&fn->dma, idx, d) {
		if (d->iova >> PAGE_SHIFT != idx)
			continue;
		sim_unmap(fn, d);
		free_pages_exact(d->cpu, d->size);
		kfree(d);
	}
	xa_destroy(&fn->dma);
	mutex_destroy(&fn->fw_lock);
	vfree(fn->fw);
	dev_put(fn->ndev);
	kfree(fn);
}

static void sim_fn_put(struct sim_fn *fn)
{
	kref_put(&fn->ref, sim_fn_release);
}

static u32 sim_refusals(const struct fwsim *fw)
{
	u32 e, n = 0;

	/* an injected fault is the test's doing, not a refusal */
	for (e = FWSIM_E_NONE + 1; e < FWSIM_NR_ERRS; e++)
		if (e != FWSIM_E_INJECTED)
			n += fwsim_err_count(fw, (enum fwsim_err)e);
	return n;
}

/*
 * Remove the function: the platform device goes (the driver lets go of
 * the function first), then the model's verdict is counted.  Once per
 * function; a second call returns at once.
 */
static void sim_kill(struct sim_fn *fn)
{
	bool unlisted = false;
	u32 pages, objs, refusals, resets, pages_reset;

	mutex_lock(&sim_lock);
	if (fn->dying) {
		mutex_unlock(&sim_lock);
		return;
	}
	fn->dying = true;
	if (fn->listed) {
		list_del(&fn->list);
		fn->listed = false;
		unlisted = true;
	}
	mutex_unlock(&sim_lock);

	platform_device_unregister(fn->pdev);
	debugfs_remove_recursive(fn->dbg);

	mutex_lock(&fn->fw_lock);
	pages = fwsim_pages_held(fn->fw);
	objs = fwsim_objects_alive(fn->fw);
	refusals = sim_refusals(fn->fw);
	resets = fn->fw->resets;
	pages_reset = fn->fw->pages_reset;
	mutex_unlock(&fn->fw_lock);
	if (pages || objs || fn->dma_live)
		pr_warn("mlx_lite_fwsim: function %u ended with %u firmware pages, %u objects and %u DMA buffers the driver did not release\n",
			fn->id, pages, objs, fn->dma_live);
	mutex_lock(&sim_lock);
	sim_totals.destroyed++;
	sim_totals.pages_left += pages;
	sim_totals.objects_left += objs;
	sim_totals.dma_left += fn->dma_live;
	sim_totals.refusals += refusals;
	sim_totals.resets += resets;
	sim_totals.pages_reset += pages_reset;
	mutex_unlock(&sim_lock);
	if (unlisted)
		sim_fn_put(fn);
}

static void sim_kill_work(struct work_struct *w)
{
	struct sim_fn *fn = container_of(w, struct sim_fn, kill_work);

	sim_kill(fn);
	sim_fn_put(fn);
}

/* queue the removal of @fn, which the caller keeps alive over the call */
static void sim_queue_kill(struct sim_fn *fn)
{
	kref_get(&fn->ref);
	if (!queue_work(sim_wq, &fn->kill_work))
		sim_fn_put(fn);
}

/* the driver: the user deleted the RDMA device */
static void sim_deleted(struct mlxl_sim_pdata *pd)
{
	sim_queue_kill((struct sim_fn *)pd->front);
}

static int sim_trace_show(struct seq_file *m, void *unused)
{
	struct sim_fn *fn = (struct sim_fn *)file_inode(m->file)->i_private;
	const struct fwsim_trace_ent *t;
	u32 i, end;

	seq_puts(m, "# seq opcode op_mod in_len out_len delivery status syndrome phase\n");
	mutex_lock(&fn->fw_lock);
	end = fn->fw->trace_pos;
	for (i = end > FWSIM_TRACE_LEN ? end - FWSIM_TRACE_LEN : 0; i < end; i++) {
		t = fwsim_trace_get(fn->fw, i);
		if (t)
			seq_printf(m, "%u 0x%04x 0x%04x %u %u 0x%02x 0x%02x 0x%08x %s\n",
				   i, t->opcode, t->op_mod, t->in_len, t->out_len,
				   t->delivery, t->status, t->syndrome,
				   fwsim_phase_str((enum fwsim_phase)t->phase));
	}
	mutex_unlock(&fn->fw_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_trace);

static int sim_state_show(struct seq_file *m, void *unused)
{
	struct sim_fn *fn = (struct sim_fn *)file_inode(m->file)->i_private;

	mutex_lock(&fn->fw_lock);
	seq_printf(m, "profile %s\nphase %s\npages_held %u\nobjects_alive %u\nrefusals %u\n",
		   fwsim_profile_str(fn->fw->profile),
		   fwsim_phase_str(fn->fw->phase), fwsim_pages_held(fn->fw),
		   fwsim_objects_alive(fn->fw), sim_refusals(fn->fw));
	seq_printf(m, "health %s syndrome 0x%02x\nport %s\neqes %u\neqes_dropped %u\nirqs %u\nresets %u\npages_reset %u\nheld %u\n",
		   fn->fw->fatal ? "fatal" : fn->fw->health_stuck ? "stalled" : "ok",
		   fn->fw->health_synd, fn->fw->port_up ? "up" : "down",
		   fn->fw->eqes, fn->fw->eqes_dropped, fn->fw->irqs,
		   fn->fw->resets, fn->fw->pages_reset, hweight32(fn->fw->held));
	mutex_unlock(&fn->fw_lock);
	seq_printf(m, "dma_buffers %u\nnetdev %s\n", fn->dma_live, netdev_name(fn->ndev));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_state);

/*
 * ---- fnN/gids: the RoCE address table as SET_ROCE_ADDRESS left it, one
 * valid entry a line: "INDEX GID v1|v2 ipv4|ipv6 MAC vlan ID|none", the
 * GID as sysfs ports/1/gids/INDEX prints it.
 */
static int sim_gids_show(struct seq_file *m, void *unused)
{
	struct sim_fn *fn = (struct sim_fn *)file_inode(m->file)->i_private;
	const u8 *r;
	u32 i, mac_hi, mac_lo;

	mutex_lock(&fn->fw_lock);
	for (i = 0; i < FWSIM_MAX_GIDS; i++) {
		if (!fwsim_gid_valid(fn->fw, i))
			continue;
		r = fn->fw->gids[i].raw;
		mac_hi = fwsim_rd(r, 0x10, 15, 0);
		mac_lo = fwsim_rd(r, 0x14, 31, 0);
		seq_printf(m, "%u %pI6 v%u %s %02x:%02x:%02x:%02x:%02x:%02x vlan ",
			   i, r, fwsim_rd(r, 0x18, 7, 0) == 2 ? 2 : 1,
			   fwsim_rd(r, 0x18, 11, 8) ? "ipv6" : "ipv4",
			   mac_hi >> 8, mac_hi & 0xff, mac_lo >> 24,
			   (mac_lo >> 16) & 0xff, (mac_lo >> 8) & 0xff, mac_lo & 0xff);
		if (fwsim_rd(r, 0x10, 28, 28))
			seq_printf(m, "%u\n", fwsim_rd(r, 0x10, 27, 16));
		else
			seq_puts(m, "none\n");
	}
	mutex_unlock(&fn->fw_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_gids);

static int sim_totals_show(struct seq_file *m, void *unused)
{
	mutex_lock(&sim_lock);
	seq_printf(m, "created %llu\ndestroyed %llu\npages_left %llu\nobjects_left %llu\ndma_left %llu\nrefusals %llu\nresets %llu\npages_reset %llu\n",
		   sim_totals.created, sim_totals.destroyed, sim_totals.pages_left,
		   sim_totals.objects_left, sim_totals.dma_left, sim_totals.refusals,
		   sim_totals.resets, sim_totals.pages_reset);
	mutex_unlock(&sim_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_totals);

/* "delay_ms": the held command completes now */
static void sim_release_work(struct work_struct *w)
{
	struct sim_fn *fn = container_of(to_delayed_work(w), struct sim_fn,
					 release_work);

	mutex_lock(&fn->fw_lock);
	fwsim_release_cmds(fn->fw);
	mutex_unlock(&fn->fw_lock);
}

static void sim_inj_apply(struct sim_fn *fn, const struct fwsim_inj *inj)
{
	struct fwsim *fw = fn->fw;

	mutex_lock(&fn->fw_lock);
	switch (inj->kind) {
	case FWSIM_INJ_CMD:
		fwsim_inject(fw, inj->opcode, inj->status, inj->syndrome,
			     inj->count);
		break;
	case FWSIM_INJ_DELAY:
		fwsim_hold_cmds(fw, 1);
		break;
	case FWSIM_INJ_LOSE:
		fwsim_hold_cmds(fw, 1);
		break;
	case FWSIM_INJ_HEALTH:
		fwsim_health_fatal(fw, inj->synd);
		break;
	case FWSIM_INJ_STALL:
		fwsim_health_stall(fw);
		break;
	case FWSIM_INJ_STUCK_INIT:
		fw->cmdq_init_delay_ns = 3600ull * NSEC_PER_SEC;
		break;
	case FWSIM_INJ_PAGE_REQ:
		fwsim_page_request(fw, inj->pages);
		break;
	case FWSIM_INJ_ASYNC:
		fwsim_raise_async(fw, inj->async_type, inj->async_obj);
		break;
	}
	mutex_unlock(&fn->fw_lock);
	if (inj->kind == FWSIM_INJ_DELAY)
		mod_delayed_work(sim_wq, &fn->release_work,
				 msecs_to_jiffies(inj->delay_ms));
}

static int sim_inj_get(const char __user *ubuf, size_t len,
		       struct fwsim_inj *inj)
{
	char buf[FWSIM_INJ_MAX_LEN + 2];

	if (!len || len > FWSIM_INJ_MAX_LEN + 1)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	return fwsim_inj_parse(buf, (u32)len, inj) ? -EINVAL : 0;
}

static ssize_t sim_inject_write(struct file *f, const char __user *ubuf,
				size_t len, loff_t *pos)
{
	struct sim_fn *fn = (struct sim_fn *)file_inode(f)->i_private;
	struct fwsim_inj inj;
	int err;

	err = sim_inj_get(ubuf, len, &inj);
	if (err)
		return err;
	sim_inj_apply(fn, &inj);
	return (ssize_t)len;
}

static const struct file_operations sim_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_inject_write,
	.llseek = no_llseek,
};

static ssize_t sim_inject_next_write(struct file *f, const char __user *ubuf,
				     size_t len, loff_t *pos)
{
	struct fwsim_inj inj;
	int err;

	err = sim_inj_get(ubuf, len, &inj);
	if (err)
		return err;
	mutex_lock(&sim_lock);
	sim_inj_next = inj;
	sim_inj_next_set = true;
	mutex_unlock(&sim_lock);
	return (ssize_t)len;
}

static const struct file_operations sim_inject_next_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_inject_next_write,
	.llseek = no_llseek,
};

/* the port follows the netdev: running with carrier */
static void sim_port_update(struct sim_fn *fn)
{
	bool up = netif_running(fn->ndev) && netif_carrier_ok(fn->ndev);

	mutex_lock(&fn->fw_lock);
	fwsim_port_set(fn->fw, up);
	mutex_unlock(&fn->fw_lock);
}

/*
 * The profile the module parameter names, and its PCI device ID.  The
 * parameter may be written at any time: read it under the parameter lock.
 */
static int sim_profile_of(struct mlxl_sim_pdata *pd, enum fwsim_profile *prof)
{
	unsigned int i;

	kernel_param_lock(THIS_MODULE);
	for (i = 0; i < ARRAY_SIZE(sim_profiles); i++)
		if (sysfs_streq(profile, sim_profiles[i].name))
			break;
	kernel_param_unlock(THIS_MODULE);
	if (i == ARRAY_SIZE(sim_profiles))
		return -EINVAL;
	*prof = sim_profiles[i].prof;
	pd->vendor_part_id = sim_profiles[i].part_id;
	return 0;
}

static int sim_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct mlxl_sim_pdata pd = {};
	enum fwsim_profile prof;
	struct sim_fn *fn, *other;
	struct fwsim_inj inj;
	bool inj_set;
	char dname[16];
	int err;

	if (ndev->type != ARPHRD_ETHER)
		return -EINVAL;
	if (sim_profile_of(&pd, &prof))
		return -EINVAL;
	/* the driver binds to the function as soon as it exists */
	request_module("mlx_lite");

	fn = (struct sim_fn *)kzalloc(sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	fn->fw = (struct fwsim *)vzalloc(sizeof(*fn->fw));
	if (!fn->fw) {
		kfree(fn);
		return -ENOMEM;
	}
	kref_init(&fn->ref);		/* the list's */
	INIT_WORK(&fn->kill_work, sim_kill_work);
	INIT_WORK(&fn->irq_work, sim_irq_work);
	INIT_WORK(&fn->db_work, sim_db_work);
	INIT_DELAYED_WORK(&fn->release_work, sim_release_work);
	spin_lock_init(&fn->irq_lock);
	spin_lock_init(&fn->db_lock);
	mutex_init(&fn->fw_lock);
	xa_init(&fn->dma);
	fn->next_iova = SIM_IOVA_BASE;
	fwsim_init(fn->fw, prof, &sim_fw_ops, fn);
	fn->fw->port_up = netif_running(ndev) && netif_carrier_ok(ndev);
	dev_hold(ndev);
	fn->ndev = ndev;

	/* one function per netdev; listed before anyone can see it */
	mutex_lock(&sim_lock);
	list_for_each_entry(other, &sim_fns, list)
		if (other->ndev == ndev) {
			mutex_unlock(&sim_lock);
			sim_fn_put(fn);
			return -EEXIST;
		}
	fn->id = sim_next_id++;
	list_add_tail(&fn->list, &sim_fns);
	fn->listed = true;
	sim_totals.created++;
	inj_set = sim_inj_next_set;
	inj = sim_inj_next;
	sim_inj_next_set = false;
	mutex_unlock(&sim_lock);
	if (inj_set)
		sim_inj_apply(fn, &inj);

	snprintf(dname, sizeof(dname), "fn%u", fn->id);
	fn->dbg = debugfs_create_dir(dname, sim_dbg);
	debugfs_create_file("trace", 0400, fn->dbg, fn, &sim_trace_fops);
	debugfs_create_file("state", 0400, fn->dbg, fn, &sim_state_fops);
	debugfs_create_file("gids", 0400, fn->dbg, fn, &sim_gids_fops);
	debugfs_create_file("inject", 0200, fn->dbg, fn, &sim_inject_fops);

	pd.ops = &sim_dev_ops;
	pd.ctx = fn;
	pd.ndev = ndev;
	strscpy(pd.ibdev_name, ibdev_name, sizeof(pd.ibdev_name));
	pd.deleted = sim_deleted;
	pd.front = fn;
	pd.probe_err = -ENODEV;		/* until a driver says otherwise */

	fn->pdev = platform_device_alloc(MLXL_SIM_DRV_NAME, (int)fn->id);
	if (!fn->pdev) {
		err = -ENOMEM;
		goto err_unlist;
	}
	/* a 64-bit function: kernel users' buffers map directly (sim_dma_phys) */
	err = dma_coerce_mask_and_coherent(&fn->pdev->dev, DMA_BIT_MASK(64));
	if (!err)
		err = platform_device_add_data(fn->pdev, &pd, sizeof(pd));
	if (!err)
		err = platform_device_add(fn->pdev);
	if (err) {
		platform_device_put(fn->pdev);
		fn->pdev = NULL;
		goto err_unlist;
	}
	/* probe ran during the add when mlx_lite is loaded */
	err = ((struct mlxl_sim_pdata *)dev_get_platdata(&fn->pdev->dev))->probe_err;
	if (err) {
		sim_kill(fn);
		return err;
	}
	return 0;

err_unlist:
	mutex_lock(&sim_lock);
	fn->dying = true;
	list_del(&fn->list);
	fn->listed = false;
	sim_totals.destroyed++;
	mutex_unlock(&sim_lock);
	debugfs_remove_recursive(fn->dbg);
	sim_fn_put(fn);
	return err;
}

static struct rdma_link_ops sim_link_ops = {
	.type = "mlx_lite_sim",
	.newlink = sim_newlink,
};

/*
 * The port's netdev changed state: the port follows (PORT_CHANGE EQE);
 * it went away: so does the function (not under RTNL).
 */
static int sim_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(
		(const struct netdev_notifier_info *)ptr);
	struct sim_fn *fn;

	if (event == NETDEV_UP || event == NETDEV_DOWN ||
	    event == NETDEV_CHANGE) {
		mutex_lock(&sim_lock);
		list_for_each_entry(fn, &sim_fns, list)
			if (fn->ndev == ndev)
				sim_port_update(fn);
		mutex_unlock(&sim_lock);
		return NOTIFY_DONE;
	}
	if (event != NETDEV_UNREGISTER || ndev->reg_state == NETREG_REGISTERED)
		return NOTIFY_DONE;
	mutex_lock(&sim_lock);
	list_for_each_entry(fn, &sim_fns, list)
		if (fn->ndev == ndev)
			sim_queue_kill(fn);
	mutex_unlock(&sim_lock);
	return NOTIFY_DONE;
}

static struct notifier_block sim_netdev_nb = {
	.notifier_call = sim_netdev_event,
};

static int __init sim_init(void)
{
	enum fwsim_profile prof;
	struct mlxl_sim_pdata pd;
	int err;

	if (sim_profile_of(&pd, &prof)) {
		pr_err("mlx_lite_fwsim: unknown profile '%s'\n", profile);
		return -EINVAL;
	}
	sim_wq = alloc_workqueue("mlx_lite_fwsim", 0, 0);
	if (!sim_wq)
		return -ENOMEM;
	err = register_netdevice_notifier(&sim_netdev_nb);
	if (err) {
		destroy_workqueue(sim_wq);
		return err;
	}
	sim_dbg = debugfs_create_dir("mlx_lite_fwsim", NULL);
	debugfs_create_file("totals", 0444, sim_dbg, NULL, &sim_totals_fops);
	debugfs_create_file("inject_next", 0200, sim_dbg, NULL,
			    &sim_inject_next_fops);
	rdma_link_register(&sim_link_ops);
	return 0;
}

/*
 * No newlink runs once rdma_link_unregister() returns and no removal is
 * queued by the notifier once it is unregistered; the listed functions
 * are removed here, and queued removals run before the workqueue goes.
 */
static void __exit sim_exit(void)
{
	struct sim_fn *fn;

	rdma_link_unregister(&sim_link_ops);
	unregister_netdevice_notifier(&sim_netdev_nb);
	for (;;) {
		mutex_lock(&sim_lock);
		fn = list_first_entry_or_null(&sim_fns, struct sim_fn, list);
		if (fn)
			kref_get(&fn->ref);
		mutex_unlock(&sim_lock);
		if (!fn)
			break;
		sim_kill(fn);
		sim_fn_put(fn);
	}
	destroy_workqueue(sim_wq);
	debugfs_remove_recursive(sim_dbg);
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("mlx-lite firmware model: simulated ConnectX functions for tests");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("mlx_lite_sim");
