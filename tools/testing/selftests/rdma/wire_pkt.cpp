// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz's packet builder (wire_pkt.h).  The ICRC is CRC-32 over 8
// bytes of 0xff, then the IP, UDP and IB transport headers with the
// variant fields masked to ones (RoCEv2 annex A17.4.2).
#include "wire_pkt.h"

namespace wire_fuzz {

/* ---- CRC-32 (the zlib/Ethernet one), table made at start ---- */

namespace {

uint32_t crc_tab[256];

uint32_t crc_update(uint32_t c, const uint8_t *p, size_t n)
{
	while (n--)
		c = crc_tab[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

} // namespace

void crc_init()
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
		crc_tab[i] = c;
	}
}

uint32_t icrc(const std::vector<uint8_t> &pkt)
{
	static const uint8_t lrh[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	std::vector<uint8_t> m(pkt);
	size_t ihl = (m[0] & 0xf) * 4;

	m[1] = 0xff;
	m[8] = 0xff;
	m[10] = m[11] = 0xff;
	if (m.size() >= ihl + 8) {
		m[ihl + 6] = m[ihl + 7] = 0xff;
	}
	if (m.size() >= ihl + 8 + 5)
		m[ihl + 8 + 4] = 0xff;
	uint32_t c = crc_update(0xffffffffU, lrh, sizeof(lrh));
	c = crc_update(c, m.data(), m.size());
	return ~c;
}

/* ---- the IBTA transport headers we forge ---- */

unsigned op_hdrs(uint8_t opcode)
{
	unsigned op = opcode & 0x1f, tr = opcode & 0xe0;
	static const unsigned rc[24] = {
		H_PAY, H_PAY, H_PAY, H_PAY | H_IMM, H_PAY, H_PAY | H_IMM,
		H_PAY | H_RETH, H_PAY, H_PAY, H_PAY | H_IMM, H_PAY | H_RETH,
		H_PAY | H_RETH | H_IMM, H_RETH, H_RESP | H_PAY | H_AETH, H_RESP | H_PAY,
		H_RESP | H_PAY | H_AETH, H_RESP | H_PAY | H_AETH, H_RESP | H_AETH,
		H_RESP | H_AETH | H_ATMACK, H_ATMETH, H_ATMETH, 0, H_PAY | H_IETH,
		H_PAY | H_IETH,
	};

	switch (tr) {
	case TR_RC:
		if (op < 24 && op != OP_RESERVED_21)
			return rc[op] | H_VALID;
		return 0;
	case TR_UC:
		return op <= OP_WRITE_ONLY_IMM ? rc[op] | H_VALID : 0;
	case TR_UD:
		if (op == OP_SEND_ONLY)
			return H_PAY | H_DETH | H_VALID;
		if (op == OP_SEND_ONLY_IMM)
			return H_PAY | H_DETH | H_IMM | H_VALID;
		return 0;
	default:
		return 0;
	}
}

size_t ext_len(unsigned h)
{
	return (h & H_DETH ? 8 : 0) + (h & H_RETH ? 16 : 0) + (h & H_ATMETH ? 28 : 0) +
	       (h & H_AETH ? 4 : 0) + (h & H_ATMACK ? 8 : 0) + (h & H_IMM ? 4 : 0) +
	       (h & H_IETH ? 4 : 0);
}

void put32(std::vector<uint8_t> &b, uint32_t v)
{
	for (int i = 3; i >= 0; i--)
		b.push_back((uint8_t)(v >> (8 * i)));
}

void put64(std::vector<uint8_t> &b, uint64_t v)
{
	put32(b, (uint32_t)(v >> 32));
	put32(b, (uint32_t)v);
}

std::vector<uint8_t> l4_bytes(const packet &p)
{
	std::vector<uint8_t> b;
	int pad = p.pad >= 0 ? p.pad : (int)((4 - p.pay.size() % 4) % 4);

	b.push_back(p.opcode);
	b.push_back((uint8_t)((p.flags & 0xcf) | (pad & 3) << 4));
	b.push_back((uint8_t)(p.pkey >> 8));
	b.push_back((uint8_t)p.pkey);
	b.push_back(0);
	b.push_back((uint8_t)(p.qpn >> 16));
	b.push_back((uint8_t)(p.qpn >> 8));
	b.push_back((uint8_t)p.qpn);
	put32(b, (p.ackreq ? 0x80000000U : 0) | (p.psn & PSN_MASK));
	b.insert(b.end(), p.ext.begin(), p.ext.end());
	b.insert(b.end(), p.pay.begin(), p.pay.end());
	for (int i = 0; i < pad; i++)
		b.push_back(0);
	if (p.cut >= 0 && (size_t)p.cut < b.size())
		b.resize(p.cut);
	return b;
}

} // namespace wire_fuzz
