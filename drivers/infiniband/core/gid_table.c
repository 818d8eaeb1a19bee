// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Slot bookkeeping of a port's GID table (see <rdma/ib_gid_table.h>).
 * Pure logic: only type-level headers, also built as C++ on the host.
 */
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <rdma/ib_gid_table.h>

static bool same_bytes(const u8 *a, const u8 *b)
{
	unsigned int i;

	for (i = 0; i < RDMA_GID_BYTES; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void copy_gid(u8 *dst, const u8 *src)
{
	unsigned int i;

	for (i = 0; i < RDMA_GID_BYTES; i++)
		dst[i] = src[i];
}

static void clear_slot(struct rdma_gid_slot *s)
{
	unsigned int i;

	for (i = 0; i < RDMA_GID_BYTES; i++)
		s->gid[i] = 0;
	s->ifindex = 0;
	s->type = 0;
	s->used = 0;
}

bool rdma_gid_is_zero(const u8 *gid)
{
	unsigned int i;

	for (i = 0; i < RDMA_GID_BYTES; i++)
		if (gid[i])
			return false;
	return true;
}
EXPORT_SYMBOL(rdma_gid_is_zero);

void rdma_gid_default_from_mac(const u8 *mac, u8 *gid)
{
	unsigned int i;

	/* link-local prefix fe80::/64 */
	for (i = 0; i < RDMA_GID_BYTES; i++)
		gid[i] = 0;
	gid[0] = 0xfe;
	gid[1] = 0x80;
	/* modified EUI-64: MAC halves around ff:fe, universal/local bit flipped */
	gid[8] = mac[0] ^ 0x02;
	gid[9] = mac[1];
	gid[10] = mac[2];
	gid[11] = 0xff;
	gid[12] = 0xfe;
	gid[13] = mac[3];
	gid[14] = mac[4];
	gid[15] = mac[5];
}
EXPORT_SYMBOL(rdma_gid_default_from_mac);

bool rdma_gid_eui64_to_mac(const u8 *gid, u8 *mac)
{
	if (gid[11] != 0xff || gid[12] != 0xfe)
		return false;
	mac[0] = gid[8] ^ 0x02;
	mac[1] = gid[9];
	mac[2] = gid[10];
	mac[3] = gid[13];
	mac[4] = gid[14];
	mac[5] = gid[15];
	return true;
}
EXPORT_SYMBOL(rdma_gid_eui64_to_mac);

void rdma_gid_from_ipv4(const u8 *addr4, u8 *gid)
{
	unsigned int i;

	for (i = 0; i < 10; i++)
		gid[i] = 0;
	gid[10] = 0xff;
	gid[11] = 0xff;
	for (i = 0; i < 4; i++)
		gid[12 + i] = addr4[i];
}
EXPORT_SYMBOL(rdma_gid_from_ipv4);

bool rdma_gid_is_v4mapped(const u8 *gid)
{
	unsigned int i;

	for (i = 0; i < 10; i++)
		if (gid[i])
			return false;
	return gid[10] == 0xff && gid[11] == 0xff;
}
EXPORT_SYMBOL(rdma_gid_is_v4mapped);

/* IPv4 224.0.0.0/4 inside ::ffff:0:0/96, else IPv6 ff00::/8 */
bool rdma_gid_is_multicast(const u8 *gid)
{
	if (rdma_gid_is_v4mapped(gid))
		return (gid[12] & 0xf0) == 0xe0;
	return gid[0] == 0xff;
}
EXPORT_SYMBOL(rdma_gid_is_multicast);

/*
 * RFC 1112: 01:00:5e and the low 23 bits of the group; RFC 2464: 33:33
 * and the low 32 bits of the IPv6 group.
 */
void rdma_gid_mcast_mac(const u8 *gid, u8 *mac)
{
	if (rdma_gid_is_v4mapped(gid)) {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
		mac[3] = gid[13] & 0x7f;
	} else {
		mac[0] = 0x33;
		mac[1] = 0x33;
		mac[2] = gid[12];
		mac[3] = gid[13];
	}
	mac[4] = gid[14];
	mac[5] = gid[15];
}
EXPORT_SYMBOL(rdma_gid_mcast_mac);

static bool slot_matches(const struct rdma_gid_slot *s, const u8 *gid,
			 u8 type, u32 ifindex)
{
	return s->used && s->type == type && s->ifindex == ifindex &&
	       same_bytes(s->gid, gid);
}

int rdma_gid_table_set_default(struct rdma_gid_table *t, const u8 *gid,
			       u8 type, u32 ifindex)
{
	if (!t->len)
		return -EINVAL;
	copy_gid(t->slots[0].gid, gid);
	t->slots[0].type = type;
	t->slots[0].ifindex = ifindex;
	t->slots[0].used = 1;
	return 0;
}
EXPORT_SYMBOL(rdma_gid_table_set_default);

void rdma_gid_table_clear_default(struct rdma_gid_table *t)
{
	if (t->len)
		clear_slot(&t->slots[0]);
}
EXPORT_SYMBOL(rdma_gid_table_clear_default);

int rdma_gid_table_add(struct rdma_gid_table *t, const u8 *gid, u8 type,
		       u32 ifindex)
{
	int free_slot = -1;
	u32 i;

	if (rdma_gid_is_zero(gid))
		return -EINVAL;
	for (i = 0; i < t->len; i++) {
		if (slot_matches(&t->slots[i], gid, type, ifindex))
			return -EEXIST;
		if (i && !t->slots[i].used && free_slot < 0)
			free_slot = (int)i;
	}
	if (free_slot < 0)
		return -ENOSPC;
	copy_gid(t->slots[free_slot].gid, gid);
	t->slots[free_slot].type = type;
	t->slots[free_slot].ifindex = ifindex;
	t->slots[free_slot].used = 1;
	return free_slot;
}
EXPORT_SYMBOL(rdma_gid_table_add);

int rdma_gid_table_del(struct rdma_gid_table *t, const u8 *gid, u8 type,
		       u32 ifindex)
{
	u32 i;

	for (i = 1; i < t->len; i++)
		if (slot_matches(&t->slots[i], gid, type, ifindex)) {
			clear_slot(&t->slots[i]);
			return (int)i;
		}
	return -ENOENT;
}
EXPORT_SYMBOL(rdma_gid_table_del);

u32 rdma_gid_table_del_netdev(struct rdma_gid_table *t, u32 ifindex)
{
	u32 i, n = 0;

	for (i = 0; i < t->len; i++)
		if (t->slots[i].used && t->slots[i].ifindex == ifindex) {
			clear_slot(&t->slots[i]);
			n++;
		}
	return n;
}
EXPORT_SYMBOL(rdma_gid_table_del_netdev);

int rdma_gid_table_find(const struct rdma_gid_table *t, const u8 *gid, u8 type)
{
	u32 i;

	for (i = 0; i < t->len; i++)
		if (t->slots[i].used && t->slots[i].type == type &&
		    same_bytes(t->slots[i].gid, gid))
			return (int)i;
	return -ENOENT;
}
EXPORT_SYMBOL(rdma_gid_table_find);
