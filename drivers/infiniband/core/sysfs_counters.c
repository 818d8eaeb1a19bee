// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/class/infiniband/<dev>/ports/<N>/hw_counters/: one file per port
 * counter the driver names (ops.port_stats), read live through
 * ops.get_hw_stats, plus "lifespan" as upstream has it.  Upstream caches
 * the values for "lifespan" milliseconds; we always read them fresh, so
 * the file only remembers what was written (0..10000 ms, kept in jiffies
 * like upstream, so it reads back rounded to the tick: 10 ms is 12 at
 * HZ=250), for scripts that set it.
 */
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <rdma/ib_device.h>

#include "core_priv.h"

#define LIFESPAN_FILE	U32_MAX
#define LIFESPAN_MAX_MS	10000

struct counter_file {
	struct attribute attr;
	u32 index;		/* into ops.port_stats, or LIFESPAN_FILE */
};

struct ib_port_counters {
	struct kobject kobj;
	struct ib_device *dev;
	u32 port;
	unsigned long lifespan;		/* jiffies */
	struct attribute_group group;
	struct attribute **ptrs;	/* num + 2, NULL-terminated */
	struct counter_file *files;	/* num + 1 */
	bool group_added;
};

static ssize_t counters_show(struct kobject *kobj, struct attribute *attr,
			     char *buf)
{
	struct ib_port_counters *c = container_of(kobj, struct ib_port_counters, kobj);
	struct counter_file *f = container_of(attr, struct counter_file, attr);
	u32 num = c->dev->ops.num_port_stats;
	u64 *values;
	ssize_t ret;

	if (f->index == LIFESPAN_FILE)
		return sysfs_emit(buf, "%u\n",
				  jiffies_to_msecs(READ_ONCE(c->lifespan)));
	values = (u64 *)kcalloc(num, sizeof(*values), GFP_KERNEL);
	if (!values)
		return -ENOMEM;
	ret = c->dev->ops.get_hw_stats(c->dev, c->port, values, num);
	if (!ret)
		ret = sysfs_emit(buf, "%llu\n", (unsigned long long)values[f->index]);
	kfree(values);
	return ret;
}

static ssize_t counters_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct ib_port_counters *c = container_of(kobj, struct ib_port_counters, kobj);
	struct counter_file *f = container_of(attr, struct counter_file, attr);
	unsigned int ms;
	int ret;

	if (f->index != LIFESPAN_FILE)
		return -EINVAL;
	ret = kstrtouint(buf, 10, &ms);
	if (ret)
		return ret;
	if (ms > LIFESPAN_MAX_MS)
		return -EINVAL;
	WRITE_ONCE(c->lifespan, msecs_to_jiffies(ms));
	return (ssize_t)count;
}

static const struct sysfs_ops counters_sysfs_ops = {
	.show = counters_show,
	.store = counters_store,
};

static void counters_release(struct kobject *kobj)
{
	struct ib_port_counters *c = container_of(kobj, struct ib_port_counters, kobj);

	kfree(c->ptrs);
	kfree(c->files);
	kfree(c);
}

static struct kobj_type counters_ktype = {
	.release = counters_release,
	.sysfs_ops = &counters_sysfs_ops,
};

void ib_sysfs_del_counters(struct ib_port_counters *c)
{
	if (!c)
		return;
	if (c->group_added)
		sysfs_remove_group(&c->kobj, &c->group);
	kobject_del(&c->kobj);
	kobject_put(&c->kobj);
}

/* NULL when the device has no port counters; ERR_PTR on failure. */
struct ib_port_counters *ib_sysfs_add_counters(struct ib_device *dev, u32 port,
					       struct kobject *parent)
{
	u32 num = dev->ops.num_port_stats, i;
	struct ib_port_counters *c;
	int ret;

	if (!num || !dev->ops.get_hw_stats || !dev->ops.port_stats)
		return NULL;
	c = (struct ib_port_counters *)kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return (struct ib_port_counters *)ERR_PTR(-ENOMEM);
	c->dev = dev;
	c->port = port;
	c->lifespan = msecs_to_jiffies(10);	/* upstream's default */
	kobject_init(&c->kobj, &counters_ktype);
	c->files = (struct counter_file *)kcalloc(num + 1, sizeof(*c->files),
						  GFP_KERNEL);
	c->ptrs = (struct attribute **)kcalloc(num + 2, sizeof(*c->ptrs),
					       GFP_KERNEL);
	if (!c->files || !c->ptrs) {
		kobject_put(&c->kobj);
		return (struct ib_port_counters *)ERR_PTR(-ENOMEM);
	}
	for (i = 0; i <= num; i++) {
		struct counter_file *f = &c->files[i];

		sysfs_attr_init(&f->attr);
		if (i < num) {
			f->attr.name = dev->ops.port_stats[i].name;
			f->attr.mode = 0444;
			f->index = i;
		} else {
			f->attr.name = "lifespan";
			f->attr.mode = 0644;
			f->index = LIFESPAN_FILE;
		}
		c->ptrs[i] = &f->attr;
	}
	c->group.attrs = c->ptrs;

	ret = kobject_add(&c->kobj, parent, "hw_counters");
	if (ret) {
		kobject_put(&c->kobj);
		return (struct ib_port_counters *)ERR_PTR(ret);
	}
	ret = sysfs_create_group(&c->kobj, &c->group);
	if (ret) {
		ib_sysfs_del_counters(c);
		return (struct ib_port_counters *)ERR_PTR(ret);
	}
	c->group_added = true;
	return c;
}
