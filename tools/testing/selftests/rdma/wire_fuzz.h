// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz: the run's configuration, its targets, the classes of packets
// and the fuzzer (wire_fuzz.cpp: sending, judging, the command line;
// wire_fuzz_gen.cpp: making packets of each class).
#ifndef WIRE_FUZZ_H
#define WIRE_FUZZ_H

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_rng.h"
#include "wire_pkt.h"

namespace wire_fuzz {

using rng = fuzz_rng;	/* one stream per run */

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

inline uint8_t tr_of(const target &t)
{
	return t.type == 'r' ? TR_RC : t.type == 'u' ? TR_UC : TR_UD;
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
	C_IPOPT, C_BADICRC, C_MARTIAN, C_CM, C_NCLASS,
};

extern klass classes[C_NCLASS];

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
	/* class cm (wire_fuzz_cm.cpp): only with --cm-src */
	in_addr_t cm_src = 0;			/* CM MADs come from here (UDP 4791) */
	std::vector<uint64_t> cm_sids;		/* service IDs listened on */
	std::vector<bool> enabled = std::vector<bool>(C_NCLASS, true);
};

struct udp_sock {
	int fd;
	in_addr_t addr;
	uint16_t port;	/* network order */
};

/* a connection the CM fuzzer opened: our comm ID, the target's once known */
struct cm_conn {
	uint32_t ours = 0, theirs = 0;
	uint64_t tid = 0;
	uint64_t sid = 0;
	std::vector<uint8_t> req;	/* the REQ's MAD, for duplicates */
};

struct fuzzer {
	config cfg;
	rng r;
	int raw_fd = -1;
	/* class cm: replies arrive on cm_fd (cm_src:4791), counted by attribute */
	int cm_fd = -1;
	std::vector<cm_conn> cm_conns;
	uint64_t cm_sent[0x20] = {}, cm_rcvd[0x20] = {};
	uint64_t cm_rcvd_other = 0, cm_legit = 0;
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
	/* class cm (wire_fuzz_cm.cpp) */
	int cm_open();
	void gen_cm(std::vector<packet> &out);
	void cm_poll();
	void cm_report() const;
	packet cm_packet(uint16_t attr, uint64_t tid, const std::vector<uint8_t> &body);
	std::vector<uint8_t> cm_req_body(uint32_t comm_id, uint64_t sid);
	std::vector<uint8_t> cm_sidr_body(uint32_t req_id, uint64_t sid);
	void cm_mutate(std::vector<uint8_t> &mad);
	void gen_msg(std::vector<packet> &out, const target &t, in_addr_t src);

	outcome judge(const packet &p, const std::vector<uint8_t> &l4) const;
	void send(const packet &p, class_id c, uint64_t n);
	int run();
};

} // namespace wire_fuzz

#endif
