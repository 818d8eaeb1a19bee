// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/class/infiniband/<dev>/: device files and ports/<N>/ directories
 * (Documentation/core/sysfs.rst lists every file).
 *
 * Everything is shown live (ib_query_port, the GID cache, the driver's
 * P_Key op); nothing is copied at creation.  The functions take the
 * ib_device and the struct device / kobject to populate, so the same
 * files can be made for another struct device of the same ib_device (a
 * per-namespace "compat" device): such a device must have
 * dev_set_drvdata(d, ibdev), which ib_sysfs_add_device_attrs() does.
 *
 * Removal: kobject_del()/sysfs_remove_groups() wait for readers inside a
 * show(); show()s take only the GID cache's rwlock (never a lock that
 * unregistration holds while removing files), so that wait always ends.
 */
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/kobject.h>
#include <linux/string.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_port_str.h>

#include "core_priv.h"

/* ---- device files ------------------------------------------------------- */

static struct ib_device *to_ibdev(struct device *d)
{
	return (struct ib_device *)dev_get_drvdata(d);
}

static ssize_t show_guid(char *buf, __be64 guid)
{
	u64 g = be64_to_cpu(guid);

	return sysfs_emit(buf, "%04x:%04x:%04x:%04x\n", (u16)(g >> 48),
			  (u16)(g >> 32), (u16)(g >> 16), (u16)g);
}

static ssize_t node_type_show(struct device *d, struct device_attribute *a,
			      char *buf)
{
	struct ib_device *dev = to_ibdev(d);

	return sysfs_emit(buf, "%u: %s\n", dev->node_type,
			  ib_node_type_str(dev->node_type));
}

static ssize_t node_guid_show(struct device *d, struct device_attribute *a,
			      char *buf)
{
	return show_guid(buf, READ_ONCE(to_ibdev(d)->node_guid));
}

static ssize_t sys_image_guid_show(struct device *d,
				   struct device_attribute *a, char *buf)
{
	return show_guid(buf, READ_ONCE(to_ibdev(d)->attrs.sys_image_guid));
}

/* The driver's string; empty for a driver without one (rxe). */
static ssize_t fw_ver_show(struct device *d, struct device_attribute *a,
			   char *buf)
{
	char fw[IB_FW_VERSION_NAME_MAX];

	ib_get_device_fw_str(to_ibdev(d), fw);
	return sysfs_emit(buf, "%s\n", fw);
}

static ssize_t node_desc_show(struct device *d, struct device_attribute *a,
			      char *buf)
{
	struct ib_device *dev = to_ibdev(d);
	char desc[sizeof(dev->node_desc) + 1];

	memcpy(desc, dev->node_desc, sizeof(dev->node_desc));
	desc[sizeof(dev->node_desc)] = '\0';
	return sysfs_emit(buf, "%s\n", desc);
}

/*
 * The bytes written, up to 64, become the description as they are (a
 * trailing newline included, as upstream); the rest is zeroed.
 */
static ssize_t node_desc_store(struct device *d, struct device_attribute *a,
			       const char *buf, size_t count)
{
	struct ib_device *dev = to_ibdev(d);
	char desc[sizeof(dev->node_desc)] = {};

	memcpy(desc, buf, min(count, sizeof(desc)));
	memcpy(dev->node_desc, desc, sizeof(desc));
	return (ssize_t)count;
}

static DEVICE_ATTR_RO(fw_ver);
static DEVICE_ATTR_RW(node_desc);
static DEVICE_ATTR_RO(node_guid);
static DEVICE_ATTR_RO(node_type);
static DEVICE_ATTR_RO(sys_image_guid);

/* in the order ls shows them */
static struct attribute *core_dev_files[] = {
	&dev_attr_fw_ver.attr, &dev_attr_node_desc.attr,
	&dev_attr_node_guid.attr, &dev_attr_node_type.attr,
	&dev_attr_sys_image_guid.attr, NULL,
};

static const struct attribute_group ib_dev_group = {
	.attrs = core_dev_files,
};

/* Core's files, then the driver's (ops.device_group), on @d. */
int ib_sysfs_add_device_attrs(struct ib_device *dev, struct device *d)
{
	int ret;

	dev_set_drvdata(d, dev);
	ret = sysfs_create_group(&d->kobj, &ib_dev_group);
	if (ret || !dev->ops.device_group)
		return ret;
	ret = sysfs_create_group(&d->kobj, dev->ops.device_group);
	if (ret)
		sysfs_remove_group(&d->kobj, &ib_dev_group);
	return ret;
}

void ib_sysfs_del_device_attrs(struct ib_device *dev, struct device *d)
{
	if (dev->ops.device_group)
		sysfs_remove_group(&d->kobj, dev->ops.device_group);
	sysfs_remove_group(&d->kobj, &ib_dev_group);
}

/* ---- port files --------------------------------------------------------- */

struct ib_port_attr_file {
	struct attribute attr;
	ssize_t (*show)(struct ib_device *dev, u32 port,
			const struct ib_port_attr_file *f, char *buf);
	u32 index;		/* table files: the entry */
	char name[12];		/* table files: "<index>" */
};

/* A named group of files "0".."len-1" (gids/, pkeys/, types/, ndevs/). */
struct ib_port_table {
	struct attribute_group group;
	struct attribute **ptrs;	/* len + 1, NULL-terminated */
	struct ib_port_attr_file *files;
};

struct ib_sysfs_port {
	struct kobject kobj;		/* ports/<port> */
	struct kobject gid_attrs;	/* ports/<port>/gid_attrs */
	struct ib_device *dev;
	u32 port;
	struct ib_port_table gids, pkeys, types, ndevs;
	bool gids_added, pkeys_added, types_added, ndevs_added;
	bool gid_attrs_added;
	struct ib_port_counters *counters;	/* hw_counters/, or NULL */
};

struct ib_sysfs_ports {
	struct kobject *dir;		/* ports/ */
	u32 count;
	struct ib_sysfs_port *port[];
};

static ssize_t port_show(struct ib_sysfs_port *p, struct attribute *attr,
			 char *buf)
{
	struct ib_port_attr_file *f =
		container_of(attr, struct ib_port_attr_file, attr);

	return f->show(p->dev, p->port, f, buf);
}

static ssize_t port_kobj_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	return port_show(container_of(kobj, struct ib_sysfs_port, kobj), attr,
			 buf);
}

static ssize_t gid_attrs_kobj_show(struct kobject *kobj,
				   struct attribute *attr, char *buf)
{
	return port_show(container_of(kobj, struct ib_sysfs_port, gid_attrs),
			 attr, buf);
}

static const struct sysfs_ops port_sysfs_ops = {
	.show = port_kobj_show,
};

static const struct sysfs_ops gid_attrs_sysfs_ops = {
	.show = gid_attrs_kobj_show,
};

/* What each ib_query_port()-backed file shows (ib_port_attr_file.index). */
enum port_field {
	PF_STATE, PF_PHYS_STATE, PF_LID, PF_SM_LID, PF_LMC, PF_SM_SL,
	PF_CAP_MASK, PF_RATE,
};

static ssize_t rate_emit(const struct ib_port_attr *a, char *buf)
{
	struct ib_port_rate r;

	if (ib_port_rate_get(a->active_speed, a->active_width, &r))
		return -EINVAL;
	return sysfs_emit(buf, "%d%s Gb/sec (%dX%s)\n", r.gbps,
			  r.half ? ".5" : "", r.lanes, r.speed_name);
}

static ssize_t port_field_show(struct ib_device *dev, u32 port,
			       const struct ib_port_attr_file *f, char *buf)
{
	struct ib_port_attr a;
	int ret;

	ret = ib_query_port(dev, port, &a);
	if (ret)
		return ret;
	switch ((enum port_field)f->index) {
	case PF_STATE:
		return sysfs_emit(buf, "%u: %s\n", (unsigned int)a.state,
				  ib_port_state_str(a.state));
	case PF_PHYS_STATE:
		return sysfs_emit(buf, "%u: %s\n", (unsigned int)a.phys_state,
				  ib_port_phys_state_str(a.phys_state));
	case PF_LID:
		return sysfs_emit(buf, "0x%x\n", a.lid);
	case PF_SM_LID:
		return sysfs_emit(buf, "0x%x\n", a.sm_lid);
	case PF_LMC:
		return sysfs_emit(buf, "%u\n", a.lmc);
	case PF_SM_SL:
		return sysfs_emit(buf, "%u\n", a.sm_sl);
	case PF_CAP_MASK:
		return sysfs_emit(buf, "0x%08x\n", a.port_cap_flags);
	case PF_RATE:
		return rate_emit(&a, buf);
	}
	return -EINVAL;
}

static ssize_t link_layer_show(struct ib_device *dev, u32 port,
			       const struct ib_port_attr_file *f, char *buf)
{
	const char *s;

	switch (rdma_port_get_link_layer(dev, port)) {
	case IB_LINK_LAYER_INFINIBAND:
		s = "InfiniBand";
		break;
	case IB_LINK_LAYER_ETHERNET:
		s = "Ethernet";
		break;
	default:
		s = "Unknown";
		break;
	}
	return sysfs_emit(buf, "%s\n", s);
}

#define PORT_FILE(_name, _show, _field)				\
	static struct ib_port_attr_file port_file_##_name = {		\
		.attr = { .name = #_name, .mode = 0444 },		\
		.show = _show,						\
		.index = _field,					\
	}

PORT_FILE(state, port_field_show, PF_STATE);
PORT_FILE(phys_state, port_field_show, PF_PHYS_STATE);
PORT_FILE(lid, port_field_show, PF_LID);
PORT_FILE(sm_lid, port_field_show, PF_SM_LID);
PORT_FILE(lid_mask_count, port_field_show, PF_LMC);
PORT_FILE(sm_sl, port_field_show, PF_SM_SL);
PORT_FILE(cap_mask, port_field_show, PF_CAP_MASK);
PORT_FILE(rate, port_field_show, PF_RATE);
PORT_FILE(link_layer, link_layer_show, 0);

static struct attribute *port_default_attrs[] = {
	&port_file_state.attr,
	&port_file_phys_state.attr,
	&port_file_lid.attr,
	&port_file_sm_lid.attr,
	&port_file_lid_mask_count.attr,
	&port_file_sm_sl.attr,
	&port_file_cap_mask.attr,
	&port_file_rate.attr,
	&port_file_link_layer.attr,
	NULL,
};
ATTRIBUTE_GROUPS(port_default);

/* Empty slots read as the all-zero GID: readers walk the whole table. */
static ssize_t gid_show(struct ib_device *dev, u32 port,
			const struct ib_port_attr_file *f, char *buf)
{
	union ib_gid gid = {};

	if (rdma_query_gid(dev, port, (int)f->index, &gid))
		memset(&gid, 0, sizeof(gid));
	return sysfs_emit(buf, "%pI6\n", gid.raw);
}

/* Empty slots: EINVAL, what libibverbs expects. */
static ssize_t gid_type_show(struct ib_device *dev, u32 port,
			     const struct ib_port_attr_file *f, char *buf)
{
	struct rdma_gid_entry e;

	if (rdma_query_gid_entry(dev, port, (int)f->index, &e))
		return -EINVAL;
	return sysfs_emit(buf, "%s\n", rdma_gid_type_str(e.gid_type));
}

static ssize_t gid_ndev_show(struct ib_device *dev, u32 port,
			     const struct ib_port_attr_file *f, char *buf)
{
	char name[IFNAMSIZ];

	if (rdma_query_gid_netdev_name(dev, port, (int)f->index, name))
		return -EINVAL;
	return sysfs_emit(buf, "%s\n", name);
}

static ssize_t pkey_show(struct ib_device *dev, u32 port,
			 const struct ib_port_attr_file *f, char *buf)
{
	u16 pkey;
	int ret;

	ret = ib_query_pkey(dev, port, (u16)f->index, &pkey);
	if (ret)
		return ret;
	return sysfs_emit(buf, "0x%04x\n", pkey);
}

static void table_free(struct ib_port_table *t)
{
	kfree(t->ptrs);
	kfree(t->files);
	t->ptrs = NULL;
	t->files = NULL;
}

static int table_alloc(struct ib_port_table *t, const char *name, u32 len,
		       ssize_t (*show)(struct ib_device *, u32,
				       const struct ib_port_attr_file *, char *))
{
	u32 i;

	t->files = (struct ib_port_attr_file *)kcalloc(len, sizeof(*t->files),
						       GFP_KERNEL);
	t->ptrs = (struct attribute **)kcalloc(len + 1, sizeof(*t->ptrs),
					       GFP_KERNEL);
	if (!t->files || !t->ptrs) {
		table_free(t);
		return -ENOMEM;
	}
	for (i = 0; i < len; i++) {
		struct ib_port_attr_file *f = &t->files[i];

		snprintf(f->name, sizeof(f->name), "%u", i);
		sysfs_attr_init(&f->attr);
		f->attr.name = f->name;
		f->attr.mode = 0444;
		f->show = show;
		f->index = i;
		t->ptrs[i] = &f->attr;
	}
	t->group.name = name;
	t->group.attrs = t->ptrs;
	return 0;
}

static void port_release(struct kobject *kobj)
{
	struct ib_sysfs_port *p = container_of(kobj, struct ib_sysfs_port, kobj);

	table_free(&p->gids);
	table_free(&p->pkeys);
	table_free(&p->types);
	table_free(&p->ndevs);
	kfree(p);
}

/* Embedded in ib_sysfs_port, whose release frees the memory. */
static void gid_attrs_release(struct kobject *kobj)
{
}

static struct kobj_type port_ktype = {
	.release = port_release,
	.sysfs_ops = &port_sysfs_ops,
	.default_groups = port_default_groups,
};

static struct kobj_type gid_attrs_ktype = {
	.release = gid_attrs_release,
	.sysfs_ops = &gid_attrs_sysfs_ops,
};

static void port_del(struct ib_sysfs_port *p)
{
	ib_sysfs_del_counters(p->counters);
	if (p->gid_attrs_added) {
		if (p->types_added)
			sysfs_remove_group(&p->gid_attrs, &p->types.group);
		if (p->ndevs_added)
			sysfs_remove_group(&p->gid_attrs, &p->ndevs.group);
		kobject_del(&p->gid_attrs);
		kobject_put(&p->gid_attrs);
	}
	if (p->gids_added)
		sysfs_remove_group(&p->kobj, &p->gids.group);
	if (p->pkeys_added)
		sysfs_remove_group(&p->kobj, &p->pkeys.group);
	kobject_del(&p->kobj);
	kobject_put(&p->kobj);
}

static int port_add_tables(struct ib_sysfs_port *p)
{
	u32 gid_len = rdma_gid_table_len(p->dev, p->port);
	int pkey_len = p->dev->port_data[p->port].immutable.pkey_tbl_len;
	int ret;

	ret = table_alloc(&p->gids, "gids", gid_len, gid_show);
	if (!ret)
		ret = sysfs_create_group(&p->kobj, &p->gids.group);
	if (ret)
		return ret;
	p->gids_added = true;

	if (pkey_len > 0 && p->dev->ops.query_pkey) {
		ret = table_alloc(&p->pkeys, "pkeys", (u32)pkey_len, pkey_show);
		if (!ret)
			ret = sysfs_create_group(&p->kobj, &p->pkeys.group);
		if (ret)
			return ret;
		p->pkeys_added = true;
	}

	kobject_init(&p->gid_attrs, &gid_attrs_ktype);
	ret = kobject_add(&p->gid_attrs, &p->kobj, "gid_attrs");
	if (ret) {
		kobject_put(&p->gid_attrs);
		return ret;
	}
	p->gid_attrs_added = true;
	ret = table_alloc(&p->types, "types", gid_len, gid_type_show);
	if (!ret)
		ret = sysfs_create_group(&p->gid_attrs, &p->types.group);
	if (ret)
		return ret;
	p->types_added = true;
	ret = table_alloc(&p->ndevs, "ndevs", gid_len, gid_ndev_show);
	if (!ret)
		ret = sysfs_create_group(&p->gid_attrs, &p->ndevs.group);
	if (ret)
		return ret;
	p->ndevs_added = true;

	p->counters = ib_sysfs_add_counters(p->dev, p->port, &p->kobj);
	if (IS_ERR(p->counters)) {
		ret = (int)PTR_ERR(p->counters);
		p->counters = NULL;
	}
	return ret;
}

static struct ib_sysfs_port *port_add(struct ib_device *dev, u32 port,
				      struct kobject *dir)
{
	struct ib_sysfs_port *p;
	int ret;

	p = (struct ib_sysfs_port *)kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return (struct ib_sysfs_port *)ERR_PTR(-ENOMEM);
	p->dev = dev;
	p->port = port;
	kobject_init(&p->kobj, &port_ktype);
	ret = kobject_add(&p->kobj, dir, "%u", port);
	if (ret) {
		kobject_put(&p->kobj);
		return (struct ib_sysfs_port *)ERR_PTR(ret);
	}
	ret = port_add_tables(p);
	if (ret) {
		port_del(p);
		return (struct ib_sysfs_port *)ERR_PTR(ret);
	}
	return p;
}

void ib_sysfs_del_ports(struct ib_sysfs_ports *ports)
{
	u32 i;

	if (!ports)
		return;
	for (i = 0; i < ports->count; i++)
		port_del(ports->port[i]);
	kobject_del(ports->dir);
	kobject_put(ports->dir);
	kfree(ports);
}

/* ports/ and ports/<N>/... under @parent; ERR_PTR on failure. */
struct ib_sysfs_ports *ib_sysfs_add_ports(struct ib_device *dev,
					  struct kobject *parent)
{
	struct ib_sysfs_ports *ports;
	struct ib_sysfs_port *p;
	u32 port;

	ports = (struct ib_sysfs_ports *)kzalloc(
		struct_size(ports, port, dev->phys_port_cnt), GFP_KERNEL);
	if (!ports)
		return (struct ib_sysfs_ports *)ERR_PTR(-ENOMEM);
	ports->dir = kobject_create_and_add("ports", parent);
	if (!ports->dir) {
		kfree(ports);
		return (struct ib_sysfs_ports *)ERR_PTR(-ENOMEM);
	}
	rdma_for_each_port(dev, port) {
		p = port_add(dev, port, ports->dir);
		if (IS_ERR(p)) {
			ib_sysfs_del_ports(ports);
			return (struct ib_sysfs_ports *)p;
		}
		ports->port[ports->count++] = p;
	}
	return ports;
}

/* ---- registration hooks (called from device.c) -------------------------- */

int ib_device_setup_gids_and_sysfs(struct ib_device *dev)
{
	struct ib_sysfs_ports *ports;
	int ret;

	ret = ib_cache_setup_one(dev);
	if (ret)
		return ret;
	roce_gid_rescan_device(dev);
	ret = ib_sysfs_add_device_attrs(dev, &dev->dev);
	if (ret)
		goto err_cache;
	ports = ib_sysfs_add_ports(dev, &dev->dev.kobj);
	if (IS_ERR(ports)) {
		ret = (int)PTR_ERR(ports);
		goto err_attrs;
	}
	dev->sysfs_ports = ports;
	/* everything is in place: now udev may look */
	dev_set_uevent_suppress(&dev->dev, false);
	kobject_uevent(&dev->dev.kobj, KOBJ_ADD);
	return 0;

err_attrs:
	ib_sysfs_del_device_attrs(dev, &dev->dev);
err_cache:
	ib_cache_cleanup_one(dev);
	return ret;
}

void ib_device_cleanup_gids_and_sysfs(struct ib_device *dev)
{
	ib_sysfs_del_ports(dev->sysfs_ports);
	dev->sysfs_ports = NULL;
	ib_sysfs_del_device_attrs(dev, &dev->dev);
	ib_cache_cleanup_one(dev);
}
