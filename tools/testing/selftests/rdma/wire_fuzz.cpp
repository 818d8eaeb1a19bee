// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz: forged and mutated RoCEv2 packets with a valid ICRC against
// live QPs (Documentation/dev-tools/wire-fuzz.rst).  Every packet is made
// here, byte by byte from the IBTA layouts, and its ICRC computed here
// (CRC-32 over 8 bytes of 0xff, then the IP, UDP and IB transport headers
// with the variant fields masked to ones, RoCEv2 annex A17.4.2), so a
// wrong ICRC is always a deliberate one.  Packets leave through
//   - a raw IPv4 socket (IP_HDRINCL): any source address, any IP field;
//   - plain UDP sockets bound to local addresses (--udp ADDR), unconnected
//     and with IP_PMTUDISC_DO: the kernel then writes DF and IP ID 0, the
//     only IP fields the ICRC covers that a UDP socket does not choose.
//
// The targets come from the command line (--target, one per QP, as
// wire_victim --fuzz prints them).  A target whose mode is "sentinel" only
// ever gets packets from wrong source addresses: nothing may change it.
// An "exposed" one gets packets from its peer's address too, which may
// legitimately change its window or kill the QP.  Random QPNs, the
// --pool QPNs (other users' RC/UC QPs, e.g. the data oracle's) and QPNs
// that cannot exist only get packets from addresses that are no QP's
// peer (--right lists those).
//
// Seeded (printed; --seed N repeats the same packet sequence for the same
// targets), bounded (--packets N, --seconds S).  At the end a count per
// class and socket, and what the receiving rxe's counters must at least
// show ("expect" lines, read by scenario rxe-wire-fuzz).
#include <arpa/inet.h>
#include <getopt.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_rng.h"

namespace {

using rng = fuzz_rng;	/* one stream per run */

/* ---- CRC-32 (the zlib/Ethernet one), table made at start ---- */

uint32_t crc_tab[256];

void crc_init()
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
		crc_tab[i] = c;
	}
}

uint32_t crc_update(uint32_t c, const uint8_t *p, size_t n)
{
	while (n--)
		c = crc_tab[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

/*
 * The ICRC of @pkt (IPv4 header first, through the pad): masked copy of
 * TOS, TTL, header checksum, UDP checksum and BTH resv8a.
 */
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

enum {
	TR_RC = 0x00, TR_UC = 0x20, TR_RD = 0x40, TR_UD = 0x60, TR_CNP = 0x80, TR_XRC = 0xa0,
};

enum {
	OP_SEND_FIRST, OP_SEND_MIDDLE, OP_SEND_LAST, OP_SEND_LAST_IMM, OP_SEND_ONLY,
	OP_SEND_ONLY_IMM, OP_WRITE_FIRST, OP_WRITE_MIDDLE, OP_WRITE_LAST, OP_WRITE_LAST_IMM,
	OP_WRITE_ONLY, OP_WRITE_ONLY_IMM, OP_READ_REQ, OP_READ_RESP_FIRST, OP_READ_RESP_MIDDLE,
	OP_READ_RESP_LAST, OP_READ_RESP_ONLY, OP_ACK, OP_ATOMIC_ACK, OP_CMP_SWAP, OP_FETCH_ADD,
	OP_RESERVED_21, OP_SEND_LAST_INV, OP_SEND_ONLY_INV,
};

/* extension headers, in wire order, and the payload flag */
enum {
	H_DETH = 1 << 0,	/* 8 */
	H_RETH = 1 << 1,	/* 16 */
	H_ATMETH = 1 << 2,	/* 28 */
	H_AETH = 1 << 3,	/* 4 */
	H_ATMACK = 1 << 4,	/* 8 */
	H_IMM = 1 << 5,		/* 4 */
	H_IETH = 1 << 6,	/* 4 */
	H_PAY = 1 << 7,		/* carries a payload */
	H_RESP = 1 << 8,	/* a response (to a requester) */
	H_VALID = 1 << 9,	/* an opcode the RC/UC/UD receivers implement */
};

const int BTH_LEN = 12;
const int PSN_MASK = 0xffffff;

/* headers of @opcode as IBTA 9.2 defines them for RC, UC and UD */
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

/* ---- targets ---- */

struct target {
	std::string name;
	char type = 0;			/* 'r' RC, 'u' UC, 'd' UD */
	uint32_t qpn = 0, psn = 0;
	uint32_t rkey = 0, len = 0;
	uint64_t va = 0;
	uint32_t qkey = 0;
	uint32_t mtu = 1024;
	bool sentinel = false;
	in_addr_t src = 0;		/* its peer's address (network order) */
	bool rd = false;		/* an outstanding READ: responses welcome */
	uint32_t rdpsn = 0, rdlen = 0;
};

uint8_t tr_of(const target &t)
{
	return t.type == 'r' ? TR_RC : t.type == 'u' ? TR_UC : TR_UD;
}

/* ---- one packet ---- */

struct packet {
	uint8_t opcode = 0;
	uint8_t flags = 0;		/* BTH byte 1 (SE, M, pad, TVer) */
	uint16_t pkey = 0xffff;
	uint32_t qpn = 0, psn = 0;
	bool ackreq = false;
	std::vector<uint8_t> ext;	/* extension headers */
	std::vector<uint8_t> pay;
	int pad = -1;			/* -1: the right one */
	in_addr_t src = 0;
	bool src_martian = false;	/* the IP layer may drop it */
	bool bad_icrc = false;
	int cut = -1;			/* keep this many bytes of BTH..pad */
	uint8_t ihl = 5;		/* > 5: IP options (NOPs) */
	int udplen_delta = 0;		/* raw: UDP length off by this */
	bool via_udp = false;
};

/* the transport part (BTH through pad), no ICRC */
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

/* ---- what the receiver's counters must show ---- */

enum outcome {
	O_UNKNOWN,	/* anything may happen to it */
	O_ICRC,		/* rcvd_icrc_err */
	O_PARSE,	/* not parsed: rcvd_dropped only */
	O_DROP,		/* parsed (rcvd_pkts), then dropped (rcvd_dropped) */
	O_PARSED,	/* parsed (rcvd_pkts), then who knows */
};

/* ---- the run ---- */

struct klass {
	const char *name;
	unsigned weight;
	unsigned raw = 0, udp = 0;
};

enum class_id {
	C_LEGIT, C_WRONGSRC, C_PSN, C_RKEY, C_BOUNDS, C_READ, C_ATOMIC, C_OPCODE, C_TRUNC,
	C_PAD, C_QKEY, C_PKEY, C_GSI, C_NOQP, C_POOL, C_RESP, C_BIGPAY, C_MSG, C_HDRBITS,
	C_IPOPT, C_BADICRC, C_MARTIAN, C_NCLASS,
};

klass classes[C_NCLASS] = {
	{ "legit", 4 },		/* well-formed, right PSN, rkey, range */
	{ "wrongsrc", 8 },	/* a good packet from another address */
	{ "psn", 8 },		/* PSNs around the expected one */
	{ "rkey", 6 },		/* bad, random, foreign-PD, no-remote-access rkeys */
	{ "bounds", 6 },	/* VA/length at and beyond the MR */
	{ "read", 5 },		/* READ requests: lengths to 2^32 */
	{ "atomic", 5 },	/* atomics, unaligned VAs */
	{ "opcode", 8 },	/* random opcodes, every transport */
	{ "trunc", 5 },		/* shorter than BTH + extension headers */
	{ "pad", 4 },		/* wrong pad counts */
	{ "qkey", 4 },		/* UD Q_Keys */
	{ "pkey", 2 },		/* P_Keys */
	{ "gsi", 2 },		/* QPN 1 */
	{ "noqp", 4 },		/* QPNs that do not exist */
	{ "pool", 6 },		/* random and --pool QPNs, wrong sources */
	{ "resp", 8 },		/* ACK/NAK/READ responses/atomic ACKs */
	{ "bigpay", 3 },	/* payload longer than the path MTU */
	{ "msg", 5 },		/* multi-packet messages, one step mutated */
	{ "hdrbits", 3 },	/* SE, MigReq, TVer, ackreq, FECN/BECN bits */
	{ "ipopt", 2 },		/* IPv4 options, odd TOS/TTL/ID/DF */
	{ "badicrc", 4 },	/* any of the above with a wrong ICRC */
	{ "martian", 1 },	/* sources the IP layer may refuse */
};

struct config {
	uint64_t seed = 0;
	bool seed_set = false;
	uint64_t packets = 1000;
	double seconds = 0;
	in_addr_t dst = 0;
	std::vector<target> targets;
	std::vector<in_addr_t> right;		/* every QP's peer address */
	std::vector<in_addr_t> udp_addrs;	/* local addresses for UDP sockets */
	std::vector<uint32_t> pool;		/* other RC/UC QPNs (wrong sources only) */
	std::vector<uint32_t> bad_rkeys;	/* valid keys a target must refuse */
	uint64_t only = UINT64_MAX;		/* send only this packet number */
	unsigned pps = 0;
	bool verbose = false;
	std::vector<bool> enabled = std::vector<bool>(C_NCLASS, true);
};

struct udp_sock {
	int fd;
	in_addr_t addr;
	uint16_t port;	/* network order */
};

struct fuzzer {
	config cfg;
	rng r;
	int raw_fd = -1;
	std::vector<udp_sock> udps;
	/* what the receiver must count at least (icrc: at least and at most) */
	uint64_t exp_icrc = 0, exp_icrc_max = 0, exp_drop = 0, exp_pkts = 0;
	uint64_t send_err = 0, sent = 0;
	uint64_t sent_bytes = 0;

	bool is_right(in_addr_t a) const
	{
		for (in_addr_t x : cfg.right)
			if (x == a)
				return true;
		return false;
	}
	const target *find(uint32_t qpn) const
	{
		for (const target &t : cfg.targets)
			if (t.qpn == qpn)
				return &t;
		return nullptr;
	}
	bool in_pool(uint32_t qpn) const
	{
		for (uint32_t q : cfg.pool)
			if (q == qpn)
				return true;
		return false;
	}

	/* a source that is no QP's peer: a UDP address or a random one */
	in_addr_t wrong_src()
	{
		std::vector<in_addr_t> local;

		for (const udp_sock &u : udps)
			if (!is_right(u.addr))
				local.push_back(u.addr);
		for (;;) {
			in_addr_t a;

			if (!local.empty() && r.pct(40))
				return local[r.below((uint32_t)local.size())];
			if (r.pct(50)) {
				/* a neighbour on the destination's /24 */
				uint32_t h = ntohl(cfg.dst);

				a = htonl((h & 0xffffff00U) | (2 + r.below(250)));
			} else {
				/* unicast, not 0/8, 10.0.0.0/24 taken above, 127/8, 169.254/16 */
				uint32_t h = 0x01000000U + r.below(0xdf000000U - 0x01000000U);

				if ((h >> 24) == 127 || (h >> 16) == 0xa9fe)
					continue;
				a = htonl(h);
			}
			if (!is_right(a) && a != cfg.dst)
				return a;
		}
	}

	/* a source for target @t: its peer only if exposed and @right */
	in_addr_t src_for(const target &t, bool right)
	{
		if (right && !t.sentinel)
			return t.src;
		for (;;) {
			in_addr_t a = wrong_src();

			if (a != t.src)
				return a;
		}
	}

	/* exposed targets get their peer's address half of the time */
	in_addr_t src_mix(const target &t) { return src_for(t, r.pct(50)); }

	const target &pick(char type = 0)
	{
		for (int tries = 0; tries < 64; tries++) {
			const target &t = cfg.targets[r.below((uint32_t)cfg.targets.size())];

			if (!type || t.type == type)
				return t;
		}
		return cfg.targets[0];
	}
	bool have(char type) const
	{
		for (const target &t : cfg.targets)
			if (t.type == type)
				return true;
		return false;
	}

	uint32_t psn_near(uint32_t e)
	{
		static const int32_t d[] = {
			0, 0, 0, 1, -1, 2, -2, 3, 16, -16, 0x7ffffe, 0x7fffff, 0x800000,
			-0x800000, 0x800001, -0x7fffff, 0xfffff, 0xffffff,
		};
		switch (r.below(5)) {
		case 0:
			return e;
		case 1:
		case 2:
			return (e + (uint32_t)d[r.below(sizeof(d) / sizeof(d[0]))]) & PSN_MASK;
		case 3:
			return r.pct(50) ? PSN_MASK : r.below(2);	/* the wrap */
		default:
			return r.below(1U << 24);
		}
	}

	uint32_t rkey_bad(const target &t)
	{
		switch (r.below(8)) {
		case 0:
			return t.rkey ^ 1;		/* another key byte */
		case 1:
			return t.rkey + 0x100;		/* the next index */
		case 2:
			return t.rkey - 0x100;
		case 3:
			return r.pct(50) ? 0 : 0xffffffffU;
		case 4:
		case 5:
			if (!cfg.bad_rkeys.empty())
				return cfg.bad_rkeys[r.below((uint32_t)cfg.bad_rkeys.size())];
			/* fall through */
		case 6:
			/* another target's key: valid, but not this QP's MR (PD is shared) */
			return pick().rkey;
		default:
			return (uint32_t)r.next();
		}
	}

	/* a VA and length at or beyond the MR [va, va+len) */
	void range_bad(const target &t, uint64_t &va, uint32_t &len)
	{
		uint64_t end = t.va + t.len;

		switch (r.below(12)) {
		case 0:
			va = end - 1; len = 2; break;
		case 1:
			va = end; len = 1; break;
		case 2:
			va = t.va - 1; len = 1; break;
		case 3:
			va = t.va - 1; len = t.len; break;
		case 4:
			va = t.va; len = t.len + 1; break;
		case 5:
			va = t.va + 8; len = t.len; break;
		case 6:
			va = UINT64_MAX - 7; len = 16; break;		/* 64-bit wrap */
		case 7:
			va = t.va; len = 0x80000000U; break;
		case 8:
			va = t.va + t.len / 2; len = 0xffffffffU; break;
		case 9:
			va = 0; len = 64; break;
		case 10:
			va = end; len = 0; break;			/* empty, just past */
		default:
			va = t.va + r.below(t.len + 1); len = t.len - (uint32_t)(va - t.va) + 1 +
							      r.below(4096);
			break;
		}
	}

	/* an RC/UC/UD request header set for target @t */
	packet base(const target &t, uint8_t op, in_addr_t src)
	{
		packet p;

		p.opcode = (uint8_t)(tr_of(t) | op);
		p.qpn = t.qpn;
		p.psn = t.psn;
		p.src = src;
		p.ackreq = t.type == 'r';
		if (t.type == 'd') {
			put32(p.ext, t.qkey);
			put32(p.ext, 0x77);	/* resv8 + source QPN */
		}
		return p;
	}

	std::vector<uint8_t> payload(size_t n)
	{
		std::vector<uint8_t> b(n);
		uint8_t v = (uint8_t)r.next();

		for (size_t i = 0; i < n; i++)
			b[i] = (uint8_t)(v + i);
		return b;
	}

	void reth(packet &p, uint64_t va, uint32_t rkey, uint32_t len)
	{
		put64(p.ext, va);
		put32(p.ext, rkey);
		put32(p.ext, len);
	}

	/* a WRITE_ONLY (or SEND_ONLY for UD) of up to a path MTU into @t */
	packet write_only(const target &t, in_addr_t src, uint64_t va, uint32_t rkey, uint32_t len,
			  size_t paylen)
	{
		if (t.type == 'd') {
			packet p = base(t, OP_SEND_ONLY, src);

			p.pay = payload(paylen);
			return p;
		}
		bool imm = r.pct(20);
		packet p = base(t, imm ? OP_WRITE_ONLY_IMM : OP_WRITE_ONLY, src);

		reth(p, va, rkey, len);
		if (imm)
			put32(p.ext, (uint32_t)r.next());
		p.pay = payload(paylen);
		return p;
	}

	/* SEND_ONLY, with immediate, or (RC, @inv) with invalidate */
	packet send_only(const target &t, in_addr_t src, size_t paylen, bool inv = true)
	{
		unsigned k = r.below(t.type == 'r' && inv ? 3 : 2);
		packet p = base(t, k == 0 ? OP_SEND_ONLY : k == 1 ? OP_SEND_ONLY_IMM : OP_SEND_ONLY_INV,
				src);

		if (k == 1)
			put32(p.ext, (uint32_t)r.next());
		if (k == 2)
			put32(p.ext, r.pct(50) ? t.rkey : rkey_bad(t));
		p.pay = payload(paylen);
		return p;
	}

	/* a legitimate request: in the window, the right key and PSN */
	packet legit(const target &t, in_addr_t src)
	{
		uint32_t n = 1 + r.below(256);

		if (t.type == 'd' || r.pct(30))
			return send_only(t, src, t.type == 'd' ? n : r.below(200), false);
		uint64_t va = t.va + r.below(t.len - n + 1);
		return write_only(t, src, va, t.rkey, n, n);
	}

	void gen(std::vector<packet> &out, class_id c);
	void gen_resp(std::vector<packet> &out, const target &t, in_addr_t src);
	void gen_msg(std::vector<packet> &out, const target &t, in_addr_t src);

	outcome judge(const packet &p, const std::vector<uint8_t> &l4) const;
	void send(const packet &p, class_id c, uint64_t n);
	int run();
};

void fuzzer::gen_resp(std::vector<packet> &out, const target &t, in_addr_t src)
{
	packet p;
	uint32_t e = t.rd ? t.rdpsn : t.psn;
	unsigned k = r.below(6);
	static const uint8_t syn[] = {
		0x00, 0x1f, 0x20, 0x3f, 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x7f, 0x40, 0x5f, 0xff,
	};

	p.opcode = TR_RC | OP_ACK;
	p.qpn = t.qpn;
	p.src = src;
	p.psn = r.pct(60) ? e : psn_near(e);
	put32(p.ext, (uint32_t)syn[r.below(sizeof(syn))] << 24 | r.below(4));
	switch (k) {
	case 0:		/* ACK, RNR NAK, NAKs: every syndrome class */
		out.push_back(p);
		return;
	case 1:		/* atomic ACK */
		p.opcode = TR_RC | OP_ATOMIC_ACK;
		put64(p.ext, r.next());
		out.push_back(p);
		return;
	case 2: {	/* READ response ONLY: the right length, or not */
		uint32_t n = t.rd ? t.rdlen : 64;

		if (r.pct(50))
			n = r.below(1400);
		p.opcode = TR_RC | OP_READ_RESP_ONLY;
		p.pay = payload(n);
		out.push_back(p);
		return;
	}
	default: {	/* FIRST, MIDDLE..., LAST; a step may be missing or repeated */
		uint32_t n = 2 + r.below(4), skip = r.pct(30) ? r.below(n) : n;
		uint32_t twice = r.pct(20) ? r.below(n) : n;
		std::vector<uint8_t> aeth(p.ext);

		for (uint32_t i = 0; i < n; i++) {
			packet q = p;

			q.psn = (p.psn + i) & PSN_MASK;
			q.opcode = TR_RC | (i == 0 ? OP_READ_RESP_FIRST :
					    i == n - 1 ? OP_READ_RESP_LAST : OP_READ_RESP_MIDDLE);
			if (q.opcode == (TR_RC | OP_READ_RESP_MIDDLE))
				q.ext.clear();
			q.pay = payload(i == n - 1 ? 1 + r.below(t.mtu) : t.mtu);
			if (r.pct(5))
				q.pay.resize(r.below(t.mtu + 200));
			if (i == skip)
				continue;
			out.push_back(q);
			if (i == twice)
				out.push_back(q);
		}
		return;
	}
	}
}

/* a multi-packet SEND or WRITE, with one step mutated */
void fuzzer::gen_msg(std::vector<packet> &out, const target &t, in_addr_t src)
{
	bool write = r.pct(50);
	uint32_t n = 2 + r.below(4), mtu = t.mtu;
	uint32_t last = 1 + r.below(mtu), total = (n - 1) * mtu + last, rlen = total;
	uint32_t mut = r.below(n), how = r.below(8);
	uint64_t va = t.va;
	uint32_t rkey = t.rkey, psn = t.psn;

	if (write && t.len > total)
		va = t.va + r.below(t.len - total + 1);
	if (write && how == 7)
		range_bad(t, va, rlen);	/* the RETH's range, not the packets' sizes */
	for (uint32_t i = 0; i < n; i++) {
		uint8_t op;

		if (write)
			op = i == 0 ? OP_WRITE_FIRST : i == n - 1 ? OP_WRITE_LAST : OP_WRITE_MIDDLE;
		else
			op = i == 0 ? OP_SEND_FIRST : i == n - 1 ? OP_SEND_LAST : OP_SEND_MIDDLE;
		packet p = base(t, op, src);

		p.ackreq = t.type == 'r' && i == n - 1;
		p.psn = (psn + i) & PSN_MASK;
		if (write && i == 0)
			reth(p, va, rkey, rlen);
		p.pay = payload(i == n - 1 ? last : mtu);
		if (i == mut) {
			switch (how) {
			case 0:
				continue;				/* lost */
			case 1:
				out.push_back(p);			/* duplicated */
				break;
			case 2:
				p.psn = psn_near(p.psn);
				break;
			case 3:
				p.pay.resize(r.below(mtu + 100));	/* short, or long */
				break;
			case 4:
				p.opcode = (uint8_t)(tr_of(t) | r.below(12));	/* another step */
				break;
			case 5:
				p.src = wrong_src();			/* someone else's */
				break;
			case 6:
				if (write && i == 0) {
					p.ext.clear();
					reth(p, va, rkey_bad(t), rlen);
				}
				break;
			default:
				break;
			}
		}
		out.push_back(p);
	}
}

void fuzzer::gen(std::vector<packet> &out, class_id c)
{
	const target &t = pick();
	packet p;

	switch (c) {
	case C_LEGIT:
		out.push_back(legit(t, src_for(t, true)));
		return;
	case C_WRONGSRC:
		out.push_back(legit(t, src_for(t, false)));
		return;
	case C_PSN:
		p = legit(t, src_mix(t));
		p.psn = psn_near(t.psn);
		out.push_back(p);
		return;
	case C_RKEY: {
		if (t.type == 'd')
			break;
		uint32_t n = 1 + r.below(128);
		packet q = write_only(t, src_mix(t), t.va + r.below(t.len - n + 1), rkey_bad(t), n, n);

		out.push_back(q);
		return;
	}
	case C_BOUNDS: {
		if (t.type == 'd')
			break;
		uint64_t va;
		uint32_t len;

		range_bad(t, va, len);
		out.push_back(write_only(t, src_mix(t), va, t.rkey, len,
					 len < t.mtu ? len : r.below(t.mtu + 1)));
		return;
	}
	case C_READ: {
		if (t.type == 'd')
			break;
		static const uint32_t lens[] = {
			0, 1, 64, 1024, 0x7fffffff, 0x80000000U, 0x80000001U, 0xffffffffU,
			0x800000, 0x800001, 0x7fffff,
		};
		uint64_t va = t.va;
		uint32_t len = lens[r.below(sizeof(lens) / sizeof(lens[0]))];
		uint32_t rkey = t.rkey;

		if (r.pct(30))
			range_bad(t, va, len);
		else if (len <= t.len && r.pct(50))
			len = 1 + r.below(t.len);
		if (r.pct(20))
			rkey = rkey_bad(t);
		p = base(t, OP_READ_REQ, src_mix(t));
		p.psn = r.pct(70) ? t.psn : psn_near(t.psn);
		reth(p, va, rkey, len);
		out.push_back(p);
		return;
	}
	case C_ATOMIC: {
		if (t.type == 'd')
			break;
		uint64_t va = (t.va + r.below(t.len - 8)) & ~7ULL;

		if (r.pct(50))
			va += 1 + r.below(7);			/* unaligned */
		else if (r.pct(30))
			va = t.va + t.len - r.below(8);		/* the end */
		p = base(t, r.pct(50) ? OP_CMP_SWAP : OP_FETCH_ADD, src_mix(t));
		p.psn = r.pct(70) ? t.psn : psn_near(t.psn);
		put64(p.ext, va);
		put32(p.ext, r.pct(80) ? t.rkey : rkey_bad(t));
		put64(p.ext, r.next());
		put64(p.ext, r.next());
		out.push_back(p);
		return;
	}
	case C_OPCODE: {
		static const uint8_t trs[] = { TR_RC, TR_UC, TR_RD, TR_UD, TR_CNP, TR_XRC, 0xc0, 0xe0 };
		uint8_t op = (uint8_t)(trs[r.below(8)] | r.below(32));
		unsigned h = op_hdrs(op);

		p = legit(t, src_mix(t));
		p.opcode = op;
		if (h & H_VALID) {
			/* the right headers for it, random contents */
			p.ext.clear();
			for (size_t i = 0; i < ext_len(h); i++)
				p.ext.push_back((uint8_t)r.next());
			if (!(h & H_PAY))
				p.pay.clear();
		} else {
			p.ext = payload(r.below(48));
		}
		if (r.pct(30))
			p.qpn = r.below(1U << 24);
		if (p.qpn != t.qpn || (!(h & H_VALID) && r.pct(50)))
			p.src = wrong_src();
		out.push_back(p);
		return;
	}
	case C_TRUNC: {
		p = legit(t, src_mix(t));
		if (r.pct(50))
			gen(out, (class_id)(C_RKEY + r.below(3)));
		if (!out.empty()) {
			p = out.back();
			out.pop_back();
		}
		size_t hdr = BTH_LEN + p.ext.size();

		p.cut = (int)r.below((uint32_t)hdr);
		out.push_back(p);
		return;
	}
	case C_PAD:
		p = legit(t, src_mix(t));
		if (r.pct(30))
			p.pay.resize(r.below(4));
		p.pad = (int)r.below(4);
		out.push_back(p);
		return;
	case C_QKEY:
		if (!have('d'))
			break;
		{
			const target &u = pick('d');
			static const uint32_t qk[] = { 0, 0x80010000U, 0x80000000U, 0xffffffffU };

			uint32_t k = r.pct(50) ? qk[r.below(4)] : u.qkey ^ (1U << r.below(32));
			uint32_t sqp = r.below(1U << 24);

			p = send_only(u, src_mix(u), r.below(600));
			for (int i = 0; i < 4; i++) {	/* the DETH: Q_Key, source QPN */
				p.ext[i] = (uint8_t)(k >> (24 - 8 * i));
				p.ext[5 + i % 3] = (uint8_t)(sqp >> (16 - 8 * (i % 3)));
			}
			out.push_back(p);
		}
		return;
	case C_PKEY: {
		static const uint16_t pk[] = { 0x0000, 0x7fff, 0x8000, 0x8001, 0x1234, 0xfffe };

		p = legit(t, src_mix(t));
		p.pkey = pk[r.below(6)];
		out.push_back(p);
		return;
	}
	case C_GSI: {
		static const uint32_t qk[] = { 0x80010000U, 0, 0x11111111U };

		p.opcode = (uint8_t)(r.pct(80) ? TR_UD | OP_SEND_ONLY : r.below(256));
		p.qpn = 1;
		p.src = wrong_src();
		p.psn = r.below(1U << 24);
		put32(p.ext, qk[r.below(3)]);
		put32(p.ext, r.below(1U << 24));
		p.pay = payload(r.pct(80) ? 256 : r.below(1400));
		out.push_back(p);
		return;
	}
	case C_NOQP:
	case C_POOL: {
		uint32_t qpn;

		if (c == C_NOQP) {
			static const uint32_t q[] = { 0, 2, 16, 0x100001, 0xfffffe, 0xffffff };

			qpn = r.pct(50) ? q[r.below(6)] : 0x100001 + r.below(0xfffffe - 0x100001);
		} else if (!cfg.pool.empty() && r.pct(70)) {
			qpn = cfg.pool[r.below((uint32_t)cfg.pool.size())];
		} else {
			qpn = 17 + r.below(0x100000 - 17);
		}
		if (r.pct(30)) {
			/* responses, as if to someone's requester */
			target fake = t;

			fake.qpn = qpn;
			fake.type = 'r';
			fake.rd = false;
			fake.psn = r.below(1U << 24);
			gen_resp(out, fake, wrong_src());
			return;
		}
		p = legit(t, wrong_src());
		p.qpn = qpn;
		p.opcode = (uint8_t)((p.opcode & 0x1f) | (r.pct(50) ? TR_RC : TR_UC));
		if (r.pct(30))
			p.psn = r.below(1U << 24);
		out.push_back(p);
		return;
	}
	case C_RESP:
		if (t.type != 'r')
			break;
		gen_resp(out, t, src_mix(t));
		return;
	case C_BIGPAY: {
		size_t n = t.mtu + 1 + r.below(1400 - t.mtu);

		p = r.pct(50) || t.type == 'd' ? send_only(t, src_mix(t), n) :
						 write_only(t, src_mix(t), t.va, t.rkey, (uint32_t)n, n);
		out.push_back(p);
		return;
	}
	case C_MSG:
		if (t.type == 'd')
			break;
		gen_msg(out, t, src_mix(t));
		return;
	case C_HDRBITS:
		p = legit(t, src_mix(t));
		p.flags = (uint8_t)r.next();	/* SE, M, TVer (pad stays right) */
		p.ackreq = r.pct(50);
		out.push_back(p);
		return;
	case C_IPOPT:
		p = legit(t, src_mix(t));
		p.ihl = (uint8_t)(5 + r.below(11));
		if (r.pct(20))
			p.udplen_delta = r.pct(50) ? -(int)r.below(8) - 1 : 1 + (int)r.below(8);
		out.push_back(p);
		return;
	case C_BADICRC:
		gen(out, (class_id)r.below(C_BADICRC));
		for (packet &q : out)
			q.bad_icrc = true;
		return;
	case C_MARTIAN: {
		static const char *m[] = { "127.0.0.1", "0.0.0.0", "255.255.255.255", "224.0.0.1",
					   "169.254.1.1" };

		p = legit(t, t.src);
		p.src = inet_addr(m[r.below(5)]);
		if (r.pct(30))
			p.src = cfg.dst;
		p.src_martian = true;
		out.push_back(p);
		return;
	}
	default:
		break;
	}
	/* not for this target's type: a legit packet from a wrong source */
	out.push_back(legit(t, src_for(t, false)));
}

/*
 * What the receiver must do with @p (its transport part @l4, no ICRC),
 * from the IBTA rules alone: too short for the ICRC check, not parsable,
 * not for any QP that could take it.
 */
outcome fuzzer::judge(const packet &p, const std::vector<uint8_t> &l4) const
{
	if (p.src_martian || p.udplen_delta)
		return O_UNKNOWN;
	if (p.bad_icrc || l4.size() < (size_t)BTH_LEN)
		return O_ICRC;
	uint8_t op = l4[0];
	unsigned h = op_hdrs(op);
	size_t hdr = BTH_LEN + ext_len(h);
	int pad = (l4[1] >> 4) & 3;

	if ((l4[1] & 0x0f) != 0 || !(h & H_VALID) || l4.size() < hdr)
		return O_PARSE;
	size_t body = l4.size() - hdr;
	if (!(h & H_PAY) && (body || pad))
		return O_PARSE;
	if ((size_t)pad > body)
		return O_PARSE;
	if (pad && (size_t)pad == body)
		return O_UNKNOWN;	/* pad without payload: IBTA leaves it open */

	uint32_t qpn = (uint32_t)l4[5] << 16 | l4[6] << 8 | l4[7];
	uint16_t pkey = (uint16_t)(l4[2] << 8 | l4[3]);
	const target *t = find(qpn);

	if ((qpn >= 2 && qpn < 17) || qpn == 0 || qpn > 0x100000)
		return O_DROP;		/* no QP can have it */
	if ((pkey & 0x7fff) != 0x7fff)
		return t || in_pool(qpn) ? O_DROP : O_PARSED;
	if (t) {
		if ((op & 0xe0) != tr_of(*t))
			return O_DROP;
		if (t->type != 'd' && p.src != t->src)
			return O_DROP;
		if (t->type == 'd') {
			uint32_t qk = (uint32_t)l4[12] << 24 | l4[13] << 16 | l4[14] << 8 | l4[15];

			if (qk != t->qkey)
				return O_DROP;
		}
		return O_PARSED;
	}
	if (in_pool(qpn) && !is_right(p.src))
		return O_DROP;
	return O_PARSED;
}

void fuzzer::send(const packet &p, class_id c, uint64_t n)
{
	std::vector<uint8_t> l4 = l4_bytes(p);
	const udp_sock *us = nullptr;
	bool raw_only = p.ihl != 5 || p.udplen_delta || p.src_martian;

	if (!raw_only && p.via_udp) {
		for (const udp_sock &u : udps)
			if (u.addr == p.src)
				us = &u;
	}
	/* the IP and UDP headers as they will be on the wire */
	size_t ihl = us ? 20 : p.ihl * 4;
	size_t tot = ihl + 8 + l4.size() + 4;
	std::vector<uint8_t> pkt(ihl, 0);
	uint16_t id = us ? 0 : (uint16_t)(1 + r.below(0xfffe));
	uint16_t sport = us ? us->port : htons((uint16_t)(0xc000 + r.below(0x3fff)));
	uint16_t ulen = (uint16_t)(8 + l4.size() + 4 + (us ? 0 : p.udplen_delta));

	pkt[0] = (uint8_t)(0x40 | ihl / 4);
	pkt[1] = us ? 0 : (uint8_t)r.next();		/* TOS: masked */
	pkt[2] = (uint8_t)(tot >> 8);
	pkt[3] = (uint8_t)tot;
	pkt[4] = (uint8_t)(id >> 8);
	pkt[5] = (uint8_t)id;
	pkt[6] = us || r.pct(70) ? 0x40 : 0;		/* DF */
	pkt[8] = us ? 64 : (uint8_t)(1 + r.below(255));	/* TTL: masked */
	pkt[9] = 17;
	memcpy(&pkt[12], &p.src, 4);
	memcpy(&pkt[16], &cfg.dst, 4);
	for (size_t i = 20; i < ihl; i++)
		pkt[i] = 1;				/* NOP options */
	pkt.push_back((uint8_t)(ntohs(sport) >> 8));
	pkt.push_back((uint8_t)ntohs(sport));
	pkt.push_back(4791 >> 8);
	pkt.push_back(4791 & 0xff);
	pkt.push_back((uint8_t)(ulen >> 8));
	pkt.push_back((uint8_t)ulen);
	pkt.push_back(0);				/* UDP checksum: none */
	pkt.push_back(0);
	pkt.insert(pkt.end(), l4.begin(), l4.end());
	uint32_t crc = icrc(pkt);
	if (p.bad_icrc)
		crc ^= 1U << r.below(32);
	for (int i = 0; i < 4; i++)
		pkt.push_back((uint8_t)(crc >> (8 * i)));

	if (cfg.verbose) {
		char a[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &p.src, a, sizeof(a));
		printf("#%" PRIu64 " %s %s from %s len %zu:", n, classes[c].name, us ? "udp" : "raw",
		       a, pkt.size());
		for (size_t i = 0; i < pkt.size(); i++)
			printf(" %02x", pkt[i]);
		printf("\n");
	}
	if (n != cfg.only && cfg.only != UINT64_MAX)
		return;

	sockaddr_in to{};
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = cfg.dst;
	ssize_t ret;
	if (us) {
		to.sin_port = htons(4791);
		ret = sendto(us->fd, pkt.data() + 28, pkt.size() - 28, 0, (sockaddr *)&to,
			     sizeof(to));
	} else {
		ret = sendto(raw_fd, pkt.data(), pkt.size(), 0, (sockaddr *)&to, sizeof(to));
	}
	if (ret < 0) {
		if (send_err++ < 5)
			fprintf(stderr, "wire_fuzz: packet %" PRIu64 " (%s, %zu bytes): %s\n", n,
				classes[c].name, pkt.size(), strerror(errno));
		return;
	}
	sent++;
	sent_bytes += pkt.size();
	if (us)
		classes[c].udp++;
	else
		classes[c].raw++;
	switch (judge(p, l4)) {
	case O_ICRC:
		exp_icrc++;
		exp_icrc_max++;
		break;
	case O_PARSE:
		exp_drop++;
		break;
	case O_DROP:
		exp_drop++;
		exp_pkts++;
		break;
	case O_PARSED:
		exp_pkts++;
		break;
	default:
		/* a UDP length that lies may leave the ICRC where rxe does not look */
		if (p.bad_icrc || p.udplen_delta)
			exp_icrc_max++;
		break;
	}
}

double now_s()
{
	timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int fuzzer::run()
{
	unsigned total = 0;

	for (int c = 0; c < C_NCLASS; c++)
		if (cfg.enabled[c])
			total += classes[c].weight;
	if (!total) {
		fprintf(stderr, "wire_fuzz: no class enabled\n");
		return 2;
	}
	double t0 = now_s();
	uint64_t n = 0;
	std::vector<packet> ps;

	while (n < cfg.packets) {
		if (cfg.seconds > 0 && now_s() - t0 >= cfg.seconds)
			break;
		unsigned w = r.below(total);
		int c = 0;

		for (; c < C_NCLASS; c++) {
			if (!cfg.enabled[c])
				continue;
			if (w < classes[c].weight)
				break;
			w -= classes[c].weight;
		}
		ps.clear();
		gen(ps, (class_id)c);
		bool udp = r.pct(50);
		for (packet &p : ps) {
			p.via_udp = udp;
			send(p, (class_id)c, n++);
			if (cfg.pps && n % 16 == 0)
				usleep(16 * 1000000 / cfg.pps);
		}
	}
	double secs = now_s() - t0;

	printf("wire_fuzz: %-10s %8s %8s\n", "class", "raw", "udp");
	for (int c = 0; c < C_NCLASS; c++)
		if (classes[c].raw || classes[c].udp)
			printf("wire_fuzz: %-10s %8u %8u\n", classes[c].name, classes[c].raw,
			       classes[c].udp);
	printf("wire_fuzz: sent %" PRIu64 " packets (%" PRIu64 " bytes) in %.1f s, %" PRIu64
	       " send errors\n", sent, sent_bytes, secs, send_err);
	printf("wire_fuzz: expect rcvd_icrc_err %" PRIu64 " %" PRIu64 " rcvd_dropped %" PRIu64
	       " rcvd_pkts %" PRIu64 "\n", exp_icrc, exp_icrc_max, exp_drop, exp_pkts);
	printf("wire_fuzz: reproduce with --seed %" PRIu64 " --packets %" PRIu64
	       " and the same targets\n", cfg.seed, n);
	return send_err && !sent ? 1 : 0;
}

/* ---- command line ---- */

bool parse_addr(const char *s, in_addr_t *a)
{
	in_addr x;

	if (inet_pton(AF_INET, s, &x) != 1)
		return false;
	*a = x.s_addr;
	return true;
}

bool parse_num(const std::string &s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s.c_str(), &end, 0);
	return !errno && !s.empty() && !*end;
}

/* name=NAME,type=rc|uc|ud,qpn=N,psn=N,rkey=N,va=N,len=N,qkey=N,mtu=N,
 * src=ADDR,mode=sentinel|exposed[,rdpsn=N,rdlen=N] */
bool parse_target(const char *arg, target &t)
{
	std::string s(arg);
	size_t pos = 0;

	while (pos <= s.size()) {
		size_t e = s.find(',', pos);
		std::string kv = s.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
		size_t eq = kv.find('=');
		uint64_t v = 0;

		pos = e == std::string::npos ? s.size() + 1 : e + 1;
		if (kv.empty())
			continue;
		if (eq == std::string::npos)
			return false;
		std::string k = kv.substr(0, eq), val = kv.substr(eq + 1);

		if (k == "name") {
			t.name = val;
		} else if (k == "type") {
			if (val != "rc" && val != "uc" && val != "ud")
				return false;
			t.type = val == "rc" ? 'r' : val == "uc" ? 'u' : 'd';
		} else if (k == "src") {
			if (!parse_addr(val.c_str(), &t.src))
				return false;
		} else if (k == "mode") {
			if (val != "sentinel" && val != "exposed")
				return false;
			t.sentinel = val == "sentinel";
		} else if (!parse_num(val, &v)) {
			return false;
		} else if (k == "qpn") {
			t.qpn = (uint32_t)v;
		} else if (k == "psn") {
			t.psn = (uint32_t)v & PSN_MASK;
		} else if (k == "rkey") {
			t.rkey = (uint32_t)v;
		} else if (k == "va") {
			t.va = v;
		} else if (k == "len") {
			t.len = (uint32_t)v;
		} else if (k == "qkey") {
			t.qkey = (uint32_t)v;
		} else if (k == "mtu") {
			t.mtu = (uint32_t)v;
		} else if (k == "rdpsn") {
			t.rd = true;
			t.rdpsn = (uint32_t)v & PSN_MASK;
		} else if (k == "rdlen") {
			t.rdlen = (uint32_t)v;
		}
		/* other keys (what the victim knows besides) are ignored */
	}
	if (!t.type || !t.qpn || !t.src || t.mtu < 256 || t.mtu > 1024)
		return false;
	if (t.type != 'd' && t.len < 256)
		return false;	/* room for the legitimate writes */
	return true;
}

template <typename F> bool each_item(const char *list, F f)
{
	std::string s(list);
	size_t pos = 0;

	while (pos <= s.size()) {
		size_t e = s.find(',', pos);
		std::string item = s.substr(pos, e == std::string::npos ? std::string::npos : e - pos);

		pos = e == std::string::npos ? s.size() + 1 : e + 1;
		if (!item.empty() && !f(item))
			return false;
	}
	return true;
}

void usage(FILE *f)
{
	fprintf(f,
		"usage: wire_fuzz --dst ADDR --target SPEC [--target SPEC...] [options]\n"
		"  --dst ADDR          the rxe device's IPv4 address\n"
		"  --target SPEC       name=N,type=rc|uc|ud,qpn=N,psn=N,rkey=N,va=N,len=N,\n"
		"                      qkey=N,mtu=N,src=PEER,mode=sentinel|exposed[,rdpsn=N,rdlen=N]\n"
		"                      (wire_victim --fuzz prints them)\n"
		"  --right LIST        addresses that are some QP's peer (never a wrong source)\n"
		"  --udp LIST          local addresses to send from through UDP sockets\n"
		"  --pool LIST         other RC/UC QPNs to aim at from wrong sources\n"
		"  --bad-rkeys LIST    valid keys the targets must refuse\n"
		"  --seed N            the packet sequence (default: from the clock; printed)\n"
		"  --packets N         how many (default 1000)\n"
		"  --seconds S         stop after S seconds\n"
		"  --pps N             at most N packets a second\n"
		"  --classes LIST      only these classes (default all)\n"
		"  --only N            make the whole sequence, send only packet N (with -v:\n"
		"                      find it in the dump)\n"
		"  -v                  print every packet (class, socket, source, bytes)\n");
}

} // namespace

int main(int argc, char **argv)
{
	enum { O_DST = 256, O_TARGET, O_RIGHT, O_UDP, O_POOL, O_BADRK, O_SEED, O_PACKETS, O_SECONDS,
	       O_PPS, O_CLASSES, O_ONLY };
	static const option opts[] = {
		{ "dst", required_argument, nullptr, O_DST },
		{ "target", required_argument, nullptr, O_TARGET },
		{ "right", required_argument, nullptr, O_RIGHT },
		{ "udp", required_argument, nullptr, O_UDP },
		{ "pool", required_argument, nullptr, O_POOL },
		{ "bad-rkeys", required_argument, nullptr, O_BADRK },
		{ "seed", required_argument, nullptr, O_SEED },
		{ "packets", required_argument, nullptr, O_PACKETS },
		{ "seconds", required_argument, nullptr, O_SECONDS },
		{ "pps", required_argument, nullptr, O_PPS },
		{ "classes", required_argument, nullptr, O_CLASSES },
		{ "only", required_argument, nullptr, O_ONLY },
		{ "help", no_argument, nullptr, 'h' },
		{ nullptr, 0, nullptr, 0 },
	};
	fuzzer f;
	config &c = f.cfg;
	int o;
	uint64_t v;

	while ((o = getopt_long(argc, argv, "vh", opts, nullptr)) != -1) {
		bool ok = true;

		switch (o) {
		case O_DST:
			ok = parse_addr(optarg, &c.dst);
			break;
		case O_TARGET: {
			target t;

			ok = parse_target(optarg, t);
			if (ok)
				c.targets.push_back(t);
			break;
		}
		case O_RIGHT:
		case O_UDP:
			ok = each_item(optarg, [&](const std::string &s) {
				in_addr_t a;

				if (!parse_addr(s.c_str(), &a))
					return false;
				(o == O_RIGHT ? c.right : c.udp_addrs).push_back(a);
				return true;
			});
			break;
		case O_POOL:
		case O_BADRK:
			ok = each_item(optarg, [&](const std::string &s) {
				if (!parse_num(s, &v) || v > UINT32_MAX)
					return false;
				(o == O_POOL ? c.pool : c.bad_rkeys).push_back((uint32_t)v);
				return true;
			});
			break;
		case O_SEED:
			ok = parse_num(optarg, &c.seed);
			c.seed_set = true;
			break;
		case O_PACKETS:
			ok = parse_num(optarg, &c.packets);
			break;
		case O_SECONDS:
			c.seconds = atof(optarg);
			ok = c.seconds > 0;
			break;
		case O_PPS:
			ok = parse_num(optarg, &v) && v && v < 1000000;
			c.pps = (unsigned)v;
			break;
		case O_ONLY:
			ok = parse_num(optarg, &c.only);
			break;
		case O_CLASSES:
			c.enabled.assign(C_NCLASS, false);
			ok = each_item(optarg, [&](const std::string &s) {
				for (int k = 0; k < C_NCLASS; k++)
					if (s == classes[k].name) {
						c.enabled[k] = true;
						return true;
					}
				return false;
			});
			break;
		case 'v':
			c.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (!ok) {
			fprintf(stderr, "wire_fuzz: bad argument to %s: %s\n", argv[optind - 1],
				optarg ? optarg : "");
			return 2;
		}
	}
	if (optind != argc || !c.dst || c.targets.empty()) {
		usage(stderr);
		return 2;
	}
	/* every target's peer is a right address */
	for (const target &t : c.targets)
		if (!f.is_right(t.src))
			c.right.push_back(t.src);
	if (!c.seed_set) {
		timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c.seed = (uint64_t)ts.tv_sec * 1000003ULL ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
	}
	f.r.s = c.seed;
	crc_init();
	printf("wire_fuzz: seed %" PRIu64 "\n", c.seed);

	f.raw_fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (f.raw_fd < 0) {
		fprintf(stderr, "wire_fuzz: raw socket: %s (needs CAP_NET_RAW)\n", strerror(errno));
		return 1;
	}
	for (in_addr_t a : c.udp_addrs) {
		udp_sock u{ socket(AF_INET, SOCK_DGRAM, 0), a, 0 };
		int pmtu = IP_PMTUDISC_DO;
		sockaddr_in sa{};
		socklen_t sl = sizeof(sa);

		sa.sin_family = AF_INET;
		sa.sin_addr.s_addr = a;
		if (u.fd < 0 || bind(u.fd, (sockaddr *)&sa, sizeof(sa)) ||
		    setsockopt(u.fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) ||
		    getsockname(u.fd, (sockaddr *)&sa, &sl)) {
			char s[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &a, s, sizeof(s));
			fprintf(stderr, "wire_fuzz: UDP socket on %s: %s\n", s, strerror(errno));
			return 1;
		}
		u.port = sa.sin_port;
		f.udps.push_back(u);
	}
	for (const target &t : c.targets) {
		char s[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &t.src, s, sizeof(s));
		printf("wire_fuzz: target %s %s qpn 0x%x psn 0x%x peer %s %s\n", t.name.c_str(),
		       t.type == 'r' ? "rc" : t.type == 'u' ? "uc" : "ud", t.qpn, t.psn, s,
		       t.sentinel ? "sentinel (wrong sources only)" : "exposed");
	}
	fflush(stdout);
	return f.run();
}
