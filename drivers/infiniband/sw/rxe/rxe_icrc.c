// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The RoCEv2 invariant CRC (rxe_hdr.h).  Pure: builds on the host too.
 *
 * The ICRC is the standard CRC-32 (as Ethernet's FCS and zlib compute it)
 * of: 8 bytes of 0xff standing for the masked LRH of native InfiniBand,
 * the IP header, the UDP header, and the IB transport part through the
 * pad, where every field a router or switch may change on the way is
 * replaced by ones (RoCEv2 annex A17.4.2: IPv4 TOS, TTL and header
 * checksum; IPv6 traffic class, flow label and hop limit; UDP checksum;
 * BTH resv8a, the byte holding FECN/BECN).  It goes on the wire least
 * significant byte first, the order of an Ethernet FCS.
 */
#include "rxe_hdr.h"
#include "rxe_icrc_table.h"

#define RXE_IPV4_MIN_LEN	20
#define RXE_IPV6_LEN		40
#define RXE_UDP_LEN		8
/* the longest masked prefix: IPv4 with options, UDP, BTH */
#define RXE_ICRC_PREFIX_MAX	(60 + RXE_UDP_LEN + RXE_BTH_LEN)

static u32 rxe_crc_update(u32 c, const u8 *p, u32 len)
{
	while (len >= 8) {
		u32 lo = c ^ ((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
			      (u32)p[3] << 24);
		u32 hi = (u32)p[4] | (u32)p[5] << 8 | (u32)p[6] << 16 |
			 (u32)p[7] << 24;

		c = rxe_crc_tab[7][lo & 0xff] ^
		    rxe_crc_tab[6][(lo >> 8) & 0xff] ^
		    rxe_crc_tab[5][(lo >> 16) & 0xff] ^
		    rxe_crc_tab[4][lo >> 24] ^
		    rxe_crc_tab[3][hi & 0xff] ^
		    rxe_crc_tab[2][(hi >> 8) & 0xff] ^
		    rxe_crc_tab[1][(hi >> 16) & 0xff] ^
		    rxe_crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = rxe_crc_tab[0][(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

u32 rxe_crc32(u32 crc, const void *buf, u32 len)
{
	return ~rxe_crc_update(~crc, (const u8 *)buf, len);
}

/*
 * The ICRC of the packet whose IP header is at @l3, @len bytes through
 * the pad; false if @len cannot hold the IP, UDP and BTH headers.
 */
static bool rxe_icrc_calc(const u8 *l3, u32 len, u32 *icrc)
{
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	u8 pre[RXE_ICRC_PREFIX_MAX];
	u32 iplen, n, i, c;
	bool v6;

	if (len < 1)
		return false;
	v6 = (l3[0] >> 4) == 6;
	switch (l3[0] >> 4) {
	case 4:
		iplen = (u32)(l3[0] & 0xf) * 4;
		if (iplen < RXE_IPV4_MIN_LEN)
			return false;
		break;
	case 6:
		iplen = RXE_IPV6_LEN;
		break;
	default:
		return false;
	}
	n = iplen + RXE_UDP_LEN + RXE_BTH_LEN;
	if (len < n)
		return false;
	for (i = 0; i < n; i++)
		pre[i] = l3[i];

	if (v6) {
		pre[0] |= 0x0f;		/* traffic class, high nibble */
		pre[1] = 0xff;		/* traffic class low, flow label */
		pre[2] = 0xff;
		pre[3] = 0xff;
		pre[7] = 0xff;		/* hop limit */
	} else {
		pre[1] = 0xff;		/* TOS */
		pre[8] = 0xff;		/* TTL */
		pre[10] = 0xff;		/* header checksum */
		pre[11] = 0xff;
	}
	pre[iplen + 6] = 0xff;		/* UDP checksum */
	pre[iplen + 7] = 0xff;
	pre[iplen + RXE_UDP_LEN + 4] = 0xff;	/* BTH resv8a */

	c = rxe_crc_update(0xffffffffU, lrh, sizeof(lrh));
	c = rxe_crc_update(c, pre, n);
	c = rxe_crc_update(c, l3 + n, len - n);
	*icrc = ~c;
	return true;
}

void rxe_icrc_put(u8 *l3, u32 len)
{
	u32 icrc;
	u8 *p = l3 + len;

	if (!rxe_icrc_calc(l3, len, &icrc))
		return;
	p[0] = (u8)icrc;
	p[1] = (u8)(icrc >> 8);
	p[2] = (u8)(icrc >> 16);
	p[3] = (u8)(icrc >> 24);
}

bool rxe_icrc_ok(const u8 *l3, u32 len)
{
	const u8 *p = l3 + len;
	u32 icrc;

	if (!rxe_icrc_calc(l3, len, &icrc))
		return false;
	return icrc == ((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
			(u32)p[3] << 24);
}
