// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GID cache: one GID table per port, sized by the port's immutable
 * gid_tbl_len, with the slot rules of gid_table.c.
 *
 * Locking: each port's table has a rwlock; readers (sysfs, uverbs,
 * netlink, address resolution) take it for reading and never sleep under
 * it, writers take it for writing, so readers may run in any context.
 * Writers come from the RoCE work (roce_gid_mgmt.c, one ordered work
 * queue) and from drivers/tests through the rdma_gid_cache_* calls; they
 * are process context and serialise on the port's wlock (a mutex).
 *
 * Drivers that program a hardware GID table (ops.add_gid/del_gid, RoCE
 * ports only) are called under wlock but outside the rwlock, so they may
 * sleep: add_gid before the entry becomes visible (it stays out when
 * add_gid fails), del_gid after it left, and del_gid for every entry
 * still there when the tables are freed.  No writer holds RTNL (the RoCE
 * work takes none), so a driver may wait on its firmware there.
 *
 * Lifetime: ib_cache_setup_one() runs in ib_register_device() before the
 * device becomes visible; ib_cache_cleanup_one() in unregistration once
 * every client and user is gone and the port sysfs files are removed, so
 * nobody can be reading a table when it is freed.
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

struct ib_gid_port_cache {
	rwlock_t lock;
	struct mutex wlock;		/* writers, and driver calls */
	bool drv;			/* RoCE port of a driver with add/del_gid */
	void **ctx;			/* drivers' per-slot context */
	struct rdma_gid_table table;
	struct rdma_gid_slot slots[];
};

static struct ib_gid_port_cache *port_cache(struct ib_device *dev, u32 port)
{
	if (!rdma_is_port_valid(dev, port) || !dev->port_data)
		return NULL;
	return dev->port_data[port].gid_cache;
}

/* ---- setup and teardown ------------------------------------------------ */

static void drv_del_all(struct ib_device *dev, u32 port,
			struct ib_gid_port_cache *c);

void ib_cache_cleanup_one(struct ib_device *dev)
{
	struct ib_gid_port_cache *c;
	u32 port;

	if (!dev->port_data)
		return;
	rdma_for_each_port(dev, port) {
		c = dev->port_data[port].gid_cache;
		if (!c)
			continue;
		drv_del_all(dev, port, c);
		mutex_destroy(&c->wlock);
		kfree(c->ctx);
		kfree(c);
		dev->port_data[port].gid_cache = NULL;
	}
}

int ib_cache_setup_one(struct ib_device *dev)
{
	struct ib_gid_port_cache *c;
	u32 port, len;

	rdma_for_each_port(dev, port) {
		if (dev->port_data[port].immutable.gid_tbl_len < 0) {
			ib_cache_cleanup_one(dev);
			return -EINVAL;
		}
		len = (u32)dev->port_data[port].immutable.gid_tbl_len;
		c = (struct ib_gid_port_cache *)kzalloc(struct_size(c, slots, len),
							GFP_KERNEL);
		if (!c) {
			ib_cache_cleanup_one(dev);
			return -ENOMEM;
		}
		rwlock_init(&c->lock);
		mutex_init(&c->wlock);
		c->table.slots = c->slots;
		c->table.len = len;
		dev->port_data[port].gid_cache = c;
		c->drv = (dev->ops.add_gid || dev->ops.del_gid) &&
			 (dev->port_data[port].immutable.core_cap_flags &
			  (RDMA_CORE_CAP_PROT_ROCE |
			   RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP));
		if (c->drv) {
			c->ctx = (void **)kcalloc(len ? len : 1, sizeof(*c->ctx),
						  GFP_KERNEL);
			if (!c->ctx) {
				ib_cache_cleanup_one(dev);
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/* ---- readers ------------------------------------------------------------ */

u32 rdma_gid_table_len(struct ib_device *dev, u32 port)
{
	struct ib_gid_port_cache *c = port_cache(dev, port);

	return c ? c->table.len : 0;
}
EXPORT_SYMBOL(rdma_gid_table_len);

/*
 * Copy slot @index: -EINVAL for a bad port/index, -ENODATA when empty.
 */
static int read_slot(struct ib_device *dev, u32 port, int index,
		     struct rdma_gid_slot *out)
{
	struct ib_gid_port_cache *c = port_cache(dev, port);
	unsigned long flags;
	int ret = 0;

	if (!c || index < 0 || (u32)index >= c->table.len)
		return -EINVAL;
	read_lock_irqsave(&c->lock, flags);
	*out = c->slots[index];
	read_unlock_irqrestore(&c->lock, flags);
	if (!out->used)
		ret = -ENODATA;
	return ret;
}

static void slot_to_entry(const struct rdma_gid_slot *s, u32 port, u32 index,
			  struct rdma_gid_entry *e)
{
	memcpy(e->gid.raw, s->gid, sizeof(e->gid.raw));
	e->gid_type = (enum ib_gid_type)s->type;
	e->ndev_ifindex = (int)s->ifindex;
	e->port = port;
	e->index = index;
}

int rdma_query_gid(struct ib_device *dev, u32 port, int index,
		   union ib_gid *gid)
{
	struct rdma_gid_slot s;
	int ret;

	ret = read_slot(dev, port, index, &s);
	if (ret)
		return -EINVAL;
	memcpy(gid->raw, s.gid, sizeof(gid->raw));
	return 0;
}
EXPORT_SYMBOL(rdma_query_gid);

int rdma_query_gid_entry(struct ib_device *dev, u32 port, int index,
			 struct rdma_gid_entry *entry)
{
	struct rdma_gid_slot s;
	int ret;

	ret = read_slot(dev, port, index, &s);
	if (ret)
		return ret;
	slot_to_entry(&s, port, (u32)index, entry);
	return 0;
}
EXPORT_SYMBOL(rdma_query_gid_entry);

int rdma_query_gid_netdev_name(struct ib_device *dev, u32 port, int index,
			       char *name)
{
	struct net_device *ndev;
	struct rdma_gid_slot s;
	int ret;

	ret = read_slot(dev, port, index, &s);
	if (ret)
		return ret;
	if (!s.ifindex)
		return -ENODATA;
	/*
	 * Entries of a port belong to the port's netdev (ifindex numbers are
	 * per namespace, so the number alone does not name a netdev).
	 */
	ndev = ib_device_get_netdev(dev, port);
	if (!ndev)
		return -ENODATA;
	ret = -ENODATA;
	if ((u32)ndev->ifindex == s.ifindex) {
		/* a concurrent rename may be seen half done, as upstream */
		strscpy(name, ndev->name, IFNAMSIZ);
		ret = 0;
	}
	dev_put(ndev);
	return ret;
}
EXPORT_SYMBOL(rdma_query_gid_netdev_name);

int rdma_find_gid_entry(struct ib_device *dev, const union ib_gid *gid,
			enum ib_gid_type gid_type, u32 port,
			struct rdma_gid_entry *entry)
{
	struct ib_gid_port_cache *c;
	unsigned long flags;
	u32 p;
	int i;

	rdma_for_each_port(dev, p) {
		if (port && p != port)
			continue;
		c = port_cache(dev, p);
		if (!c)
			continue;
		read_lock_irqsave(&c->lock, flags);
		i = rdma_gid_table_find(&c->table, gid->raw, (u8)gid_type);
		if (i >= 0 && entry)
			slot_to_entry(&c->slots[i], p, (u32)i, entry);
		read_unlock_irqrestore(&c->lock, flags);
		if (i >= 0)
			return 0;
	}
	return -ENOENT;
}
EXPORT_SYMBOL(rdma_find_gid_entry);

const char *rdma_gid_type_str(enum ib_gid_type gid_type)
{
	switch (gid_type) {
	case IB_GID_TYPE_IB:
	case IB_GID_TYPE_ROCE:
		return "IB/RoCE v1";
	case IB_GID_TYPE_ROCE_UDP_ENCAP:
		return "RoCE v2";
	}
	return "";
}
EXPORT_SYMBOL(rdma_gid_type_str);

int ib_query_pkey(struct ib_device *dev, u32 port, u16 index, u16 *pkey)
{
	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	if (!dev->ops.query_pkey)
		return -EOPNOTSUPP;
	return dev->ops.query_pkey(dev, port, index, pkey);
}
EXPORT_SYMBOL(ib_query_pkey);

/* ---- writers ------------------------------------------------------------ */

static bool type_ok(enum ib_gid_type t)
{
	return t == IB_GID_TYPE_IB || t == IB_GID_TYPE_ROCE ||
	       t == IB_GID_TYPE_ROCE_UDP_ENCAP;
}

/*
 * ---- driver calls (ops.add_gid/del_gid), under the port's wlock ----
 *
 * The rwlock is not held: readers see an entry only once the driver has
 * it, and no longer before the driver drops it.
 */

static void drv_attr(struct ib_device *dev, u32 port, u32 index,
		     const struct rdma_gid_slot *s, struct net_device *ndev,
		     struct ib_gid_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->ndev = ndev && (u32)ndev->ifindex == s->ifindex ? ndev : NULL;
	attr->device = dev;
	memcpy(attr->gid.raw, s->gid, sizeof(attr->gid.raw));
	attr->gid_type = (enum ib_gid_type)s->type;
	attr->index = (u16)index;
	attr->port_num = port;
}

static int drv_add(struct ib_device *dev, u32 port, struct ib_gid_port_cache *c,
		   u32 index, const struct rdma_gid_slot *s)
{
	struct ib_gid_attr attr;
	struct net_device *ndev;
	int ret;

	lockdep_assert_held(&c->wlock);
	if (!c->drv || !dev->ops.add_gid)
		return 0;
	ndev = ib_device_get_netdev(dev, port);
	drv_attr(dev, port, index, s, ndev, &attr);
	c->ctx[index] = NULL;
	ret = dev->ops.add_gid(&attr, &c->ctx[index]);
	if (ndev)
		dev_put(ndev);
	return ret;
}

static void drv_del(struct ib_device *dev, u32 port, struct ib_gid_port_cache *c,
		    u32 index, const struct rdma_gid_slot *s)
{
	struct ib_gid_attr attr;
	struct net_device *ndev;

	lockdep_assert_held(&c->wlock);
	if (!c->drv)
		return;
	if (dev->ops.del_gid) {
		ndev = ib_device_get_netdev(dev, port);
		drv_attr(dev, port, index, s, ndev, &attr);
		/* the entry is gone from the table whatever the driver says */
		dev->ops.del_gid(&attr, &c->ctx[index]);
		if (ndev)
			dev_put(ndev);
	}
	c->ctx[index] = NULL;
}

/* Empty slot @index (used), then tell the driver. */
static void slot_remove(struct ib_device *dev, u32 port,
			struct ib_gid_port_cache *c, u32 index)
{
	struct rdma_gid_slot old = c->slots[index];
	unsigned long flags;

	write_lock_irqsave(&c->lock, flags);
	memset(&c->slots[index], 0, sizeof(c->slots[index]));
	write_unlock_irqrestore(&c->lock, flags);
	drv_del(dev, port, c, index, &old);
}

static void drv_del_all(struct ib_device *dev, u32 port,
			struct ib_gid_port_cache *c)
{
	u32 i;

	if (!c->drv)
		return;
	mutex_lock(&c->wlock);
	for (i = 0; i < c->table.len; i++)
		if (c->slots[i].used)
			slot_remove(dev, port, c, i);
	mutex_unlock(&c->wlock);
}

/* The slot rdma_gid_table_add() would choose, without taking it. */
static int slot_for_add(const struct rdma_gid_table *t,
			const struct rdma_gid_slot *want)
{
	int free_slot = -ENOSPC;
	u32 i;

	if (rdma_gid_is_zero(want->gid))
		return -EINVAL;
	for (i = 0; i < t->len; i++) {
		const struct rdma_gid_slot *s = &t->slots[i];

		if (s->used && s->type == want->type &&
		    s->ifindex == want->ifindex &&
		    !memcmp(s->gid, want->gid, RDMA_GID_BYTES))
			return -EEXIST;
		if (i && !s->used && free_slot < 0)
			free_slot = (int)i;
	}
	return free_slot;
}

/* Add to the lowest free slot from 1: the slot, or -errno. */
static int slot_add(struct ib_device *dev, u32 port, struct ib_gid_port_cache *c,
		    const u8 *gid, u8 type, u32 ifindex)
{
	struct rdma_gid_slot want = {};
	unsigned long flags;
	int idx, ret;

	lockdep_assert_held(&c->wlock);
	memcpy(want.gid, gid, RDMA_GID_BYTES);
	want.type = type;
	want.ifindex = ifindex;
	want.used = 1;
	idx = slot_for_add(&c->table, &want);
	if (idx < 0)
		return idx;
	ret = drv_add(dev, port, c, (u32)idx, &want);
	if (ret)
		return ret;
	write_lock_irqsave(&c->lock, flags);
	ret = rdma_gid_table_add(&c->table, gid, type, ifindex);
	write_unlock_irqrestore(&c->lock, flags);
	WARN_ON(ret != idx);
	return ret;
}

/* Slot 0 := @gid unless it holds it already; true when it changed. */
static int slot_set_default(struct ib_device *dev, u32 port,
			    struct ib_gid_port_cache *c, const u8 *gid, u8 type,
			    u32 ifindex)
{
	struct rdma_gid_slot want = {};
	struct rdma_gid_slot *s0;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&c->wlock);
	if (!c->table.len)
		return -EINVAL;
	s0 = &c->slots[0];
	if (s0->used && s0->type == type && s0->ifindex == ifindex &&
	    !memcmp(s0->gid, gid, RDMA_GID_BYTES))
		return 0;
	if (s0->used)
		slot_remove(dev, port, c, 0);
	memcpy(want.gid, gid, RDMA_GID_BYTES);
	want.type = type;
	want.ifindex = ifindex;
	want.used = 1;
	ret = drv_add(dev, port, c, 0, &want);
	if (ret)
		return ret;
	write_lock_irqsave(&c->lock, flags);
	ret = rdma_gid_table_set_default(&c->table, gid, type, ifindex);
	write_unlock_irqrestore(&c->lock, flags);
	return ret < 0 ? ret : 1;
}

/* Remove from slots >= 1: the slot it was in, or -ENOENT. */
static int slot_del(struct ib_device *dev, u32 port, struct ib_gid_port_cache *c,
		    const u8 *gid, u8 type, u32 ifindex)
{
	u32 i;

	lockdep_assert_held(&c->wlock);
	for (i = 1; i < c->table.len; i++) {
		const struct rdma_gid_slot *s = &c->slots[i];

		if (s->used && s->type == type && s->ifindex == ifindex &&
		    !memcmp(s->gid, gid, RDMA_GID_BYTES)) {
			slot_remove(dev, port, c, i);
			return (int)i;
		}
	}
	return -ENOENT;
}

enum gid_write { GID_ADD, GID_DEL, GID_SET_DEFAULT };

static int write_entry(struct ib_device *dev, u32 port,
		       const union ib_gid *gid, enum ib_gid_type gid_type,
		       int ifindex, enum gid_write op)
{
	struct ib_gid_port_cache *c = port_cache(dev, port);
	int ret;

	if (!c || !type_ok(gid_type) || ifindex < 0)
		return -EINVAL;
	mutex_lock(&c->wlock);
	switch (op) {
	case GID_ADD:
		ret = slot_add(dev, port, c, gid->raw, (u8)gid_type, (u32)ifindex);
		break;
	case GID_DEL:
		ret = slot_del(dev, port, c, gid->raw, (u8)gid_type, (u32)ifindex);
		break;
	default:
		ret = slot_set_default(dev, port, c, gid->raw, (u8)gid_type,
				       (u32)ifindex);
		break;
	}
	mutex_unlock(&c->wlock);
	return ret < 0 ? ret : 0;
}

int rdma_gid_cache_add(struct ib_device *dev, u32 port,
		       const union ib_gid *gid, enum ib_gid_type gid_type,
		       int ifindex)
{
	return write_entry(dev, port, gid, gid_type, ifindex, GID_ADD);
}
EXPORT_SYMBOL(rdma_gid_cache_add);

int rdma_gid_cache_del(struct ib_device *dev, u32 port,
		       const union ib_gid *gid, enum ib_gid_type gid_type,
		       int ifindex)
{
	return write_entry(dev, port, gid, gid_type, ifindex, GID_DEL);
}
EXPORT_SYMBOL(rdma_gid_cache_del);

int rdma_gid_cache_set_default(struct ib_device *dev, u32 port,
			       const union ib_gid *gid,
			       enum ib_gid_type gid_type, int ifindex)
{
	return write_entry(dev, port, gid, gid_type, ifindex, GID_SET_DEFAULT);
}
EXPORT_SYMBOL(rdma_gid_cache_set_default);

u32 rdma_gid_cache_flush_port(struct ib_device *dev, u32 port)
{
	struct ib_gid_port_cache *c = port_cache(dev, port);
	unsigned long flags;
	u32 i, n = 0;

	if (!c)
		return 0;
	mutex_lock(&c->wlock);
	if (c->drv) {
		for (i = 0; i < c->table.len; i++)
			if (c->slots[i].used) {
				slot_remove(dev, port, c, i);
				n++;
			}
		mutex_unlock(&c->wlock);
		return n;
	}
	write_lock_irqsave(&c->lock, flags);
	for (i = 0; i < c->table.len; i++)
		if (c->slots[i].used) {
			memset(&c->slots[i], 0, sizeof(c->slots[i]));
			n++;
		}
	write_unlock_irqrestore(&c->lock, flags);
	mutex_unlock(&c->wlock);
	return n;
}
EXPORT_SYMBOL(rdma_gid_cache_flush_port);

void rdma_gid_changed(struct ib_device *dev, u32 port)
{
	struct ib_event ev = {
		.device = dev,
		.event = IB_EVENT_GID_CHANGE,
		.element.port_num = port,
	};

	ib_dispatch_event(&ev);
}
EXPORT_SYMBOL(rdma_gid_changed);

static bool wanted(const struct ib_gid_want *want, u32 n,
		   const struct rdma_gid_slot *s, u32 ifindex)
{
	u32 i;

	if (s->ifindex != ifindex)
		return false;
	for (i = 0; i < n; i++)
		if (want[i].type == s->type &&
		    !memcmp(want[i].gid, s->gid, RDMA_GID_BYTES))
			return true;
	return false;
}

/* ib_gid_cache_sync() for a port whose driver keeps its own table. */
static bool gid_sync_drv(struct ib_device *dev, u32 port,
			 struct ib_gid_port_cache *c, u32 ifindex,
			 bool has_default, const struct ib_gid_want *want, u32 n)
{
	bool changed = false;
	u32 i;

	lockdep_assert_held(&c->wlock);
	if (has_default) {
		if (slot_set_default(dev, port, c, want[0].gid, want[0].type,
				     ifindex) != 0)
			changed = true;
	} else if (c->slots[0].used) {
		slot_remove(dev, port, c, 0);
		changed = true;
	}
	for (i = 1; i < c->table.len; i++)
		if (c->slots[i].used && !wanted(want, n, &c->slots[i], ifindex)) {
			slot_remove(dev, port, c, i);
			changed = true;
		}
	for (i = has_default ? 1 : 0; i < n; i++)
		if (slot_add(dev, port, c, want[i].gid, want[i].type,
			     ifindex) >= 0)
			changed = true;
	return changed;
}

/*
 * Make @port's table hold exactly @want (all of netdev @ifindex): the
 * default entry in slot 0 when @has_default (then want[0] is it), the
 * rest in the lowest free slots, in @want order.  Entries that are
 * already there keep their slots.  Returns true when anything changed.
 */
bool ib_gid_cache_sync(struct ib_device *dev, u32 port, u32 ifindex,
		       bool has_default, const struct ib_gid_want *want, u32 n)
{
	struct ib_gid_port_cache *c = port_cache(dev, port);
	struct rdma_gid_slot *s0;
	unsigned long flags;
	bool changed = false;
	u32 i;

	if (!c || !c->table.len)
		return false;
	mutex_lock(&c->wlock);
	if (c->drv) {
		changed = gid_sync_drv(dev, port, c, ifindex, has_default,
				       want, n);
		mutex_unlock(&c->wlock);
		return changed;
	}
	write_lock_irqsave(&c->lock, flags);
	s0 = &c->slots[0];
	if (has_default) {
		if (!s0->used || s0->type != want[0].type ||
		    s0->ifindex != ifindex ||
		    memcmp(s0->gid, want[0].gid, RDMA_GID_BYTES)) {
			rdma_gid_table_set_default(&c->table, want[0].gid,
						   want[0].type, ifindex);
			changed = true;
		}
	} else if (s0->used) {
		rdma_gid_table_clear_default(&c->table);
		changed = true;
	}
	for (i = 1; i < c->table.len; i++)
		if (c->slots[i].used && !wanted(want, n, &c->slots[i], ifindex)) {
			memset(&c->slots[i], 0, sizeof(c->slots[i]));
			changed = true;
		}
	for (i = has_default ? 1 : 0; i < n; i++)
		if (rdma_gid_table_add(&c->table, want[i].gid, want[i].type,
				       ifindex) >= 0)
			changed = true;
	write_unlock_irqrestore(&c->lock, flags);
	mutex_unlock(&c->wlock);
	return changed;
}
