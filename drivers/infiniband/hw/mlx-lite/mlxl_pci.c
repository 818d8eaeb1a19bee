// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx-lite: the PCI front.  Binds the Ethernet-personality physical and
 * virtual functions of ConnectX-4 Lx, 5, 6, 6 Dx, 6 Lx and 7 (vendor
 * 0x15b3), maps BAR0 and fills struct mlxl_ops: MMIO through the mapping
 * (registers are big-endian), DMA memory from dma_alloc_coherent() under
 * a 64-bit mask (32-bit if the platform refuses it), time from ktime.
 * Commands are polled; the front uses no interrupts.
 *
 * The netdev: a function mlx_lite owns has no Ethernet driver (mlx5_core
 * is not bound to it), so no netdev of its own.  Its RoCE GIDs, port
 * state and MTU come from the netdev the module parameter "netdev" names
 * for it ("PCI_ADDRESS=IFNAME,..."), looked up in init_net at probe.  A
 * function the parameter names no netdev for is not bound (-ENODEV).
 * When that netdev is unregistered, the function is unbound (from a work
 * item: the netdev notifier runs under RTNL, unbinding must not).
 *
 * Documentation/mlx-lite/identity.rst, "Real cards".
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "mlxl_front.h"

#define MLXL_PCI_NAME		"mlx_lite"
#define MLXL_PCI_VENDOR		0x15b3
#define MLXL_MAP_MAX		16	/* PCI_ADDRESS=IFNAME pairs read */

static char *netdev_map = "";
module_param_named(netdev, netdev_map, charp, 0444);
MODULE_PARM_DESC(netdev,
		 "netdev of each PCI function: PCI_ADDRESS=IFNAME[,...] (e.g. 0000:03:00.0=eth2)");

static const struct pci_device_id mlxl_pci_ids[] = {
	{ PCI_VDEVICE(MELLANOX, 0x1015) },	/* ConnectX-4 Lx */
	{ PCI_VDEVICE(MELLANOX, 0x1016) },	/* ConnectX-4 Lx VF */
	{ PCI_VDEVICE(MELLANOX, 0x1017) },	/* ConnectX-5 */
	{ PCI_VDEVICE(MELLANOX, 0x1018) },	/* ConnectX-5 VF */
	{ PCI_VDEVICE(MELLANOX, 0x1019) },	/* ConnectX-5 Ex */
	{ PCI_VDEVICE(MELLANOX, 0x101a) },	/* ConnectX-5 Ex VF */
	{ PCI_VDEVICE(MELLANOX, 0x101b) },	/* ConnectX-6 */
	{ PCI_VDEVICE(MELLANOX, 0x101c) },	/* ConnectX-6 VF */
	{ PCI_VDEVICE(MELLANOX, 0x101d) },	/* ConnectX-6 Dx */
	{ PCI_VDEVICE(MELLANOX, 0x101e) },	/* ConnectX family VF (6 Dx, 6 Lx, 7) */
	{ PCI_VDEVICE(MELLANOX, 0x101f) },	/* ConnectX-6 Lx */
	{ PCI_VDEVICE(MELLANOX, 0x1021) },	/* ConnectX-7 */
	{ }
};
MODULE_DEVICE_TABLE(pci, mlxl_pci_ids);

struct mlxl_pci {
	struct pci_dev *pdev;
	void __iomem *bar;
	struct net_device *ndev;	/* held */
	netdevice_tracker tracker;
	struct mlxl_bind *bind;
	struct list_head list;		/* mlxl_pci_fns, under mlxl_pci_lock */
};

static DEFINE_MUTEX(mlxl_pci_lock);
static LIST_HEAD(mlxl_pci_fns);
static struct workqueue_struct *mlxl_pci_wq;

struct mlxl_pci_unbind {
	struct work_struct work;
	struct pci_dev *pdev;		/* held */
};

/* ---- struct mlxl_ops over BAR0 and the DMA API */

static u32 mlxl_pci_rd32(void *ctx, u32 off)
{
	return ioread32be(((struct mlxl_pci *)ctx)->bar + off);
}

static void mlxl_pci_wr32(void *ctx, u32 off, u32 val)
{
	/* iowrite32be orders the earlier writes to coherent memory */
	iowrite32be(val, ((struct mlxl_pci *)ctx)->bar + off);
}

static void mlxl_pci_wr64(void *ctx, u32 off, u64 val)
{
	/* the earlier descriptor and doorbell-record stores reach memory first */
	wmb();
	__raw_writeq((__force u64)cpu_to_be64(val),
		     ((struct mlxl_pci *)ctx)->bar + off);
}

/*
 * Coherent memory is aligned to its allocation order (whole pages): an
 * alignment beyond that cannot be given.
 */
static int mlxl_pci_dma_alloc(void *ctx, struct mlxl_dma *d, u32 size,
			      u32 align)
{
	struct mlxl_pci *p = (struct mlxl_pci *)ctx;
	dma_addr_t bus;
	void *cpu;

	if (!size || align > (PAGE_SIZE << get_order(size)))
		return -EINVAL;
	cpu = dma_alloc_coherent(&p->pdev->dev, size, &bus, GFP_KERNEL);
	if (!cpu)
		return -ENOMEM;
	d->cpu = cpu;
	d->bus = bus;
	d->size = size;
	return 0;
}

static void mlxl_pci_dma_free(void *ctx, struct mlxl_dma *d)
{
	struct mlxl_pci *p = (struct mlxl_pci *)ctx;

	if (!d->cpu)
		return;
	dma_free_coherent(&p->pdev->dev, d->size, d->cpu, (dma_addr_t)d->bus);
	d->cpu = NULL;
	d->bus = 0;
	d->size = 0;
}

static u64 mlxl_pci_now_ns(void *ctx)
{
	return ktime_get_ns();
}

static void mlxl_pci_sleep_us(void *ctx, u32 us)
{
	usleep_range(us, us + us / 4 + 10);
}

static const struct mlxl_ops mlxl_pci_ops = {
	.rd32 = mlxl_pci_rd32,
	.wr32 = mlxl_pci_wr32,
	.wr64 = mlxl_pci_wr64,
	.dma_alloc = mlxl_pci_dma_alloc,
	.dma_free = mlxl_pci_dma_free,
	.now_ns = mlxl_pci_now_ns,
	.sleep_us = mlxl_pci_sleep_us,
};

/* ---- the netdev of a function, from the "netdev" parameter */

/* IFNAME the parameter gives @pdev, into @name (IFNAMSIZ); false if none */
static bool mlxl_pci_ifname(struct pci_dev *pdev, char *name)
{
	const char *want = pci_name(pdev), *s = netdev_map, *eq, *end;
	size_t klen = strlen(want), vlen;
	u32 n;

	for (n = 0; n < MLXL_MAP_MAX && s && *s; n++) {
		end = strchrnul(s, ',');
		eq = strnchr(s, end - s, '=');
		if (eq && (size_t)(eq - s) == klen && !strncmp(s, want, klen)) {
			vlen = end - eq - 1;
			if (!vlen || vlen >= IFNAMSIZ)
				return false;
			memcpy(name, eq + 1, vlen);
			name[vlen] = 0;
			return true;
		}
		s = *end ? end + 1 : NULL;
	}
	return false;
}

static void mlxl_pci_unbind_work(struct work_struct *w)
{
	struct mlxl_pci_unbind *u = container_of(w, struct mlxl_pci_unbind, work);
	struct device *dev = &u->pdev->dev;
	bool ours;

	device_lock(dev);
	ours = dev->driver && !strcmp(dev->driver->name, MLXL_PCI_NAME);
	device_unlock(dev);
	if (ours)
		device_release_driver(dev);
	pci_dev_put(u->pdev);
	kfree(u);
}

/* The bound netdev is going: unbind its function, not under RTNL. */
static int mlxl_pci_netdev_event(struct notifier_block *nb, unsigned long event,
				 void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(
		(const struct netdev_notifier_info *)ptr);
	struct mlxl_pci_unbind *u;
	struct mlxl_pci *p;

	/* a registered netdev: unregister_netdevice_notifier() replaying */
	if (event != NETDEV_UNREGISTER || ndev->reg_state == NETREG_REGISTERED)
		return NOTIFY_DONE;
	mutex_lock(&mlxl_pci_lock);
	list_for_each_entry(p, &mlxl_pci_fns, list) {
		if (p->ndev != ndev)
			continue;
		u = (struct mlxl_pci_unbind *)kzalloc(sizeof(*u), GFP_KERNEL);
		if (!u) {
			dev_err(&p->pdev->dev, "cannot unbind: %s stays held\n",
				ndev->name);
			continue;
		}
		INIT_WORK(&u->work, mlxl_pci_unbind_work);
		u->pdev = pci_dev_get(p->pdev);
		queue_work(mlxl_pci_wq, &u->work);
	}
	mutex_unlock(&mlxl_pci_lock);
	return NOTIFY_DONE;
}

static struct notifier_block mlxl_pci_netdev_nb = {
	.notifier_call = mlxl_pci_netdev_event,
};

/* ---- the driver */

static int mlxl_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	char ifname[IFNAMSIZ];
	struct mlxl_pci *p;
	int err;

	if (!mlxl_pci_ifname(pdev, ifname)) {
		dev_info(&pdev->dev, "no netdev for this function: load mlx_lite with netdev=%s=IFNAME\n",
			 pci_name(pdev));
		return -ENODEV;
	}
	p = (struct mlxl_pci *)kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->pdev = pdev;
	INIT_LIST_HEAD(&p->list);
	p->ndev = dev_get_by_name(&init_net, ifname);
	if (p->ndev)
		netdev_tracker_alloc(p->ndev, &p->tracker, GFP_KERNEL);
	if (!p->ndev) {
		dev_err(&pdev->dev, "netdev %s not found in init_net\n", ifname);
		err = -ENODEV;
		goto err_free;
	}
	err = pci_enable_device_mem(pdev);
	if (err)
		goto err_ndev;
	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM)) {
		dev_err(&pdev->dev, "BAR0 is not a memory BAR\n");
		err = -ENODEV;
		goto err_disable;
	}
	err = pci_request_region(pdev, 0, MLXL_PCI_NAME);
	if (err)
		goto err_disable;
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err)
		err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (err) {
		dev_err(&pdev->dev, "no usable DMA mask\n");
		goto err_region;
	}
	pci_set_master(pdev);
	p->bar = pci_iomap(pdev, 0, 0);
	if (!p->bar) {
		err = -ENOMEM;
		goto err_master;
	}
	pci_set_drvdata(pdev, p);
	err = mlxl_front_probe(&pdev->dev, &mlxl_pci_ops, p, p->ndev,
			       pdev->device, &p->bind);
	if (err)
		goto err_unmap;
	mutex_lock(&mlxl_pci_lock);
	list_add_tail(&p->list, &mlxl_pci_fns);
	mutex_unlock(&mlxl_pci_lock);
	dev_info(&pdev->dev, "RoCE on %s\n", ifname);
	return 0;

err_unmap:
	pci_set_drvdata(pdev, NULL);
	pci_iounmap(pdev, p->bar);
err_master:
	pci_clear_master(pdev);
err_region:
	pci_release_region(pdev, 0);
err_disable:
	pci_disable_device(pdev);
err_ndev:
	netdev_put(p->ndev, &p->tracker);
err_free:
	kfree(p);
	return err;
}

static void mlxl_pci_remove(struct pci_dev *pdev)
{
	struct mlxl_pci *p = (struct mlxl_pci *)pci_get_drvdata(pdev);

	mutex_lock(&mlxl_pci_lock);
	list_del_init(&p->list);
	mutex_unlock(&mlxl_pci_lock);
	mlxl_front_remove(p->bind);
	pci_iounmap(pdev, p->bar);
	pci_clear_master(pdev);
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	netdev_put(p->ndev, &p->tracker);
	kfree(p);
}

static struct pci_driver mlxl_pci_driver = {
	.name = MLXL_PCI_NAME,
	.id_table = mlxl_pci_ids,
	.probe = mlxl_pci_probe,
	.remove = mlxl_pci_remove,
};

int mlxl_pci_init(void)
{
	int err;

	mlxl_pci_wq = alloc_workqueue("mlx_lite_pci", 0, 0);
	if (!mlxl_pci_wq)
		return -ENOMEM;
	err = register_netdevice_notifier(&mlxl_pci_netdev_nb);
	if (err)
		goto err_wq;
	err = pci_register_driver(&mlxl_pci_driver);
	if (err)
		goto err_nb;
	return 0;

err_nb:
	unregister_netdevice_notifier(&mlxl_pci_netdev_nb);
err_wq:
	destroy_workqueue(mlxl_pci_wq);
	return err;
}

/* no new unbind is queued once the notifier is gone; the queued ones run */
void mlxl_pci_exit(void)
{
	unregister_netdevice_notifier(&mlxl_pci_netdev_nb);
	destroy_workqueue(mlxl_pci_wq);
	pci_unregister_driver(&mlxl_pci_driver);
}
