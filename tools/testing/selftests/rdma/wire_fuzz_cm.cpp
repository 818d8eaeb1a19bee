// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz class "cm": CM MADs (IBTA 12.6, layouts in the rdma-cm
// reference note) to QP1 of the target from --cm-src, as a peer's ib_cm
// would send them, and mutated.  REQs and SIDR_REQs name the listeners'
// service IDs (--cm-sid) and carry rdma_cm's private-data header, so a
// well-formed one reaches the listening application; the target's replies
// arrive on a UDP socket bound to --cm-src:4791 and are counted by
// attribute, and a REP or MRA teaches the fuzzer the target's comm ID of
// that connection: later RTUs, REJs, DREQs, DREPs, MRAs, LAPs and
// duplicate REQs then aim at live connections in every state.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "wire_fuzz.h"

namespace wire_fuzz {

namespace {

constexpr size_t MAD_LEN = 256, MAD_HDR = 24, CM_DATA = MAD_LEN - MAD_HDR;
constexpr uint8_t CM_CLASS = 0x07, CM_CLASS_VERSION = 2, METHOD_SEND = 0x03;
constexpr uint32_t GSI_QKEY = 0x80010000U;
constexpr uint16_t A_CPI = 0x0001, A_REQ = 0x0010, A_MRA = 0x0011, A_REJ = 0x0012,
		   A_REP = 0x0013, A_RTU = 0x0014, A_DREQ = 0x0015, A_DREP = 0x0016,
		   A_SIDR_REQ = 0x0017, A_SIDR_REP = 0x0018, A_LAP = 0x0019, A_APR = 0x001a;

void set(std::vector<uint8_t> &b, size_t off, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		b[off + i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

uint64_t get(const uint8_t *b, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v = v << 8 | b[i];
	return v;
}

/* ::ffff:a.b.c.d */
void put_gid4(std::vector<uint8_t> &b, size_t off, in_addr_t a)
{
	memset(&b[off], 0, 16);
	b[off + 10] = 0xff;
	b[off + 11] = 0xff;
	memcpy(&b[off + 12], &a, 4);
}

/* rdma_cm's header at @off: IPv4, source port @sport, @src -> @dst */
void put_cma_hdr(std::vector<uint8_t> &b, size_t off, uint16_t sport, in_addr_t src, in_addr_t dst)
{
	b[off] = 0x00;
	b[off + 1] = 0x40;
	set(b, off + 2, sport, 2);
	memcpy(&b[off + 16], &src, 4);
	memcpy(&b[off + 32], &dst, 4);
}

/* fields worth an edge value: offsets into the CM data of REQ (most) */
struct field {
	uint8_t off, bytes;
};
const field req_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 28, 4 }, { 32, 3 }, { 35, 1 }, { 39, 1 },
	{ 43, 1 }, { 44, 3 }, { 47, 1 }, { 48, 2 }, { 50, 1 }, { 51, 1 }, { 52, 2 }, { 56, 16 },
	{ 72, 16 }, { 88, 4 }, { 93, 1 }, { 94, 1 }, { 95, 1 }, { 96, 2 }, { 100, 16 },
	{ 140, 1 }, { 141, 1 }, { 142, 2 }, { 156, 4 }, { 172, 4 },
};

} // namespace

int fuzzer::cm_open()
{
	sockaddr_in sa{};

	cm_fd = socket(AF_INET, SOCK_DGRAM, 0);
	sa.sin_family = AF_INET;
	sa.sin_port = htons(4791);
	sa.sin_addr.s_addr = cfg.cm_src;
	if (cm_fd < 0 || bind(cm_fd, (sockaddr *)&sa, sizeof(sa)) ||
	    fcntl(cm_fd, F_SETFL, O_NONBLOCK)) {
		fprintf(stderr, "wire_fuzz: UDP 4791 on the --cm-src address: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

packet fuzzer::cm_packet(uint16_t attr, uint64_t tid, const std::vector<uint8_t> &body)
{
	packet p;
	std::vector<uint8_t> mad(MAD_LEN, 0);

	mad[0] = 1;
	mad[1] = CM_CLASS;
	mad[2] = CM_CLASS_VERSION;
	mad[3] = METHOD_SEND;
	set(mad, 8, tid, 8);
	set(mad, 16, attr, 2);
	memcpy(&mad[MAD_HDR], body.data(), body.size() < CM_DATA ? body.size() : CM_DATA);
	p.opcode = TR_UD | OP_SEND_ONLY;
	p.qpn = 1;
	p.src = cfg.cm_src;
	p.psn = r.below(1U << 24);
	put32(p.ext, GSI_QKEY);
	put32(p.ext, 1);		/* from QP1 */
	p.pay = mad;
	return p;
}

std::vector<uint8_t> fuzzer::cm_req_body(uint32_t comm_id, uint64_t sid)
{
	std::vector<uint8_t> b(CM_DATA, 0);

	set(b, 0, comm_id, 4);
	set(b, 8, sid, 8);
	set(b, 16, 0x0200000000000000ULL | (r.next() & 0xffffffffffULL), 8);	/* CA GUID */
	set(b, 32, (0x11 + r.below(0xffff)) << 8 | 4, 4);	/* QPN, responder resources */
	set(b, 36, 4, 4);					/* initiator depth */
	set(b, 40, 20 << 3, 4);			/* remote CM timeout 20, RC, no flow control */
	set(b, 44, r.below(1U << 24) << 8 | 20 << 3 | 7, 4);	/* PSN, local timeout, retries */
	set(b, 48, 0xffff, 2);
	b[50] = 3 << 4 | 7;			/* MTU 1024, RNR retry 7 */
	b[51] = (uint8_t)(r.below(4) << 4);	/* max CM retries: few, the run is short */
	set(b, 52, 0xffff, 2);
	set(b, 54, 0xffff, 2);
	put_gid4(b, 56, cfg.cm_src);
	put_gid4(b, 72, cfg.dst);
	b[93] = 64;				/* hop limit */
	b[95] = 19 << 3;			/* local ACK timeout */
	put_cma_hdr(b, 140, (uint16_t)(1024 + r.below(60000)), cfg.cm_src, cfg.dst);
	return b;
}

std::vector<uint8_t> fuzzer::cm_sidr_body(uint32_t req_id, uint64_t sid)
{
	std::vector<uint8_t> b(CM_DATA, 0);

	set(b, 0, req_id, 4);
	set(b, 4, 0xffff, 2);
	set(b, 8, sid, 8);
	put_cma_hdr(b, 16, (uint16_t)(1024 + r.below(60000)), cfg.cm_src, cfg.dst);
	return b;
}

/* 1 to 4 changes: a byte, a bit, a field at an edge, the header, the length */
void fuzzer::cm_mutate(std::vector<uint8_t> &mad)
{
	unsigned n = 1 + r.below(4);

	for (unsigned i = 0; i < n; i++) {
		switch (r.below(8)) {
		case 0:
			mad[r.below(MAD_LEN)] = (uint8_t)r.next();
			break;
		case 1:
		case 2: {
			size_t off = MAD_HDR + r.below(CM_DATA);

			mad[off] ^= (uint8_t)(1U << r.below(8));
			break;
		}
		case 3:
		case 4: {
			const field &f = req_fields[r.below(sizeof(req_fields) / sizeof(req_fields[0]))];

			if (f.bytes <= 8)
				set(mad, MAD_HDR + f.off, r.edgy(f.bytes * 8), f.bytes);
			else
				for (int k = 0; k < f.bytes; k++)
					mad[MAD_HDR + f.off + k] = (uint8_t)r.edgy(8);
			break;
		}
		case 5: {	/* the MAD header: version, class, method, status, attribute */
			static const uint8_t off[] = { 0, 1, 2, 3, 4, 5, 16, 17, 20, 23 };

			mad[off[r.below(sizeof(off))]] = (uint8_t)r.edgy(8);
			break;
		}
		case 6:		/* shorter or longer than a MAD */
			mad.resize(r.pct(70) ? r.below(MAD_LEN) : MAD_LEN + 1 + r.below(800));
			return;
		default:	/* the attribute: another CM message, or none */
			set(mad, 16, r.pct(80) ? A_REQ + r.below(11) : r.edgy(16), 2);
			break;
		}
	}
}

void fuzzer::gen_cm(std::vector<packet> &out)
{
	const uint64_t sid = cfg.cm_sids.empty() ? 0x0000000001060000ULL | 7471 :
			     cfg.cm_sids[r.below((uint32_t)cfg.cm_sids.size())];
	bool mutate = r.pct(45);
	unsigned k = r.below(100);
	packet p;

	cm_poll();
	if (k < 30 || cm_conns.empty()) {
		/* a new connection (REQ) or a SIDR lookup; remembered when intact */
		uint32_t id = (uint32_t)r.next();
		uint64_t tid = r.next();
		bool sidr = (sid >> 16 & 0xff) == 0x11 || r.pct(15);

		p = sidr ? cm_packet(A_SIDR_REQ, tid, cm_sidr_body(id, sid)) :
			   cm_packet(A_REQ, tid, cm_req_body(id, sid));
		if (!mutate && !sidr) {
			cm_conn c{ id, 0, tid, sid, p.pay };

			if (cm_conns.size() >= 256)
				cm_conns[r.below(256)] = c;
			else
				cm_conns.push_back(c);
		}
	} else if (k < 85) {
		/* a step of a connection we opened: ours and (if known) theirs */
		const cm_conn &c = cm_conns[r.below((uint32_t)cm_conns.size())];
		static const uint16_t step[] = {
			A_RTU, A_RTU, A_RTU, A_DREQ, A_DREQ, A_DREP, A_REJ, A_MRA, A_LAP, A_APR,
			A_REQ,
		};
		uint16_t a = step[r.below(sizeof(step) / sizeof(step[0]))];
		std::vector<uint8_t> b(CM_DATA, 0);

		if (a == A_REQ) {		/* a duplicate */
			p = cm_packet(A_REQ, c.tid, {});
			p.pay = c.req;
		} else {
			set(b, 0, c.ours, 4);
			set(b, 4, c.theirs, 4);
			if (a == A_REJ) {
				b[8] = (uint8_t)(r.below(3) << 6);
				set(b, 10, r.pct(50) ? 28 : r.below(40), 2);
			} else if (a == A_MRA) {
				b[8] = (uint8_t)(r.below(3) << 6);
				b[9] = (uint8_t)(r.below(32) << 3);
			}
			p = cm_packet(a, a == A_DREQ ? r.next() : c.tid, b);
		}
	} else if (k < 95) {
		/* replies nobody asked for: random comm IDs */
		static const uint16_t any[] = { A_REP, A_RTU, A_REJ, A_MRA, A_DREQ, A_DREP, A_SIDR_REP };
		std::vector<uint8_t> b(CM_DATA);

		for (uint8_t &x : b)
			x = (uint8_t)r.next();
		p = cm_packet(any[r.below(sizeof(any) / sizeof(any[0]))], r.next(), b);
	} else {
		/* other classes, methods and attributes of the CM class */
		std::vector<uint8_t> b(CM_DATA, 0);

		p = cm_packet(r.pct(50) ? A_CPI : (uint16_t)r.edgy(16), r.next(), b);
		p.pay[3] = (uint8_t)(r.pct(50) ? 0x01 : r.edgy(8));
	}
	if (mutate)
		cm_mutate(p.pay);
	else
		cm_legit++;
	if (p.pay.size() >= MAD_HDR) {
		uint16_t a = (uint16_t)get(&p.pay[16], 2);

		cm_sent[a >= A_REQ && a <= A_APR ? a : 0]++;
	}
	out.push_back(p);
}

/* the target's CM MADs to us: counted; REP and MRA name their comm ID */
void fuzzer::cm_poll()
{
	uint8_t buf[2048];

	for (;;) {
		ssize_t n = recv(cm_fd, buf, sizeof(buf), 0);

		if (n < 0)
			return;
		/* BTH, DETH, MAD, ICRC */
		if (n < (ssize_t)(BTH_LEN + 8 + MAD_LEN) || buf[BTH_LEN + 8 + 1] != CM_CLASS) {
			cm_rcvd_other++;
			continue;
		}
		const uint8_t *mad = buf + BTH_LEN + 8;
		uint16_t a = (uint16_t)get(mad + 16, 2);
		uint32_t theirs = (uint32_t)get(mad + MAD_HDR, 4);
		uint32_t ours = (uint32_t)get(mad + MAD_HDR + 4, 4);

		cm_rcvd[a >= A_REQ && a <= A_APR ? a : 0]++;
		if (a != A_REP && a != A_MRA)
			continue;
		for (cm_conn &c : cm_conns)
			if (c.ours == ours)
				c.theirs = theirs;
	}
}

void fuzzer::cm_report() const
{
	static const char *const name[] = {
		"REQ", "MRA", "REJ", "REP", "RTU", "DREQ", "DREP", "SIDR_REQ", "SIDR_REP", "LAP", "APR",
	};

	printf("wire_fuzz: cm sent %" PRIu64 " intact,", cm_legit);
	for (unsigned a = A_REQ; a <= A_APR; a++)
		printf(" %s %" PRIu64, name[a - A_REQ], cm_sent[a]);
	printf(", other %" PRIu64 "\n", cm_sent[0]);
	printf("wire_fuzz: cm received");
	for (unsigned a = A_REQ; a <= A_APR; a++)
		printf(" %s %" PRIu64, name[a - A_REQ], cm_rcvd[a]);
	printf(", other %" PRIu64 "\n", cm_rcvd[0] + cm_rcvd_other);
}

} // namespace wire_fuzz
