// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz: making the packets of each class (wire_fuzz.h).
#include "wire_fuzz.h"

namespace wire_fuzz {

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
	if (c == C_CM) {	/* no target: QP1 */
		gen_cm(out);
		return;
	}
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

} // namespace wire_fuzz
