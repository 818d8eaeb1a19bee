// SPDX-License-Identifier: GPL-2.0
//
// wire_fuzz: forged and mutated RoCEv2 packets with a valid ICRC against
// live QPs (Documentation/dev-tools/wire-fuzz.rst).  Every packet is made
// by this tool, byte by byte from the IBTA layouts, and its ICRC computed
// by it (wire_pkt.cpp), so a wrong ICRC is always a deliberate one; the
// classes of packets are made in wire_fuzz_gen.cpp.  Packets leave through
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
#include <getopt.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "wire_fuzz.h"

namespace wire_fuzz {

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
	{ "cm", 0 },		/* CM MADs to QP1 (wire_fuzz_cm.cpp): with --cm-src only */
};

outcome fuzzer::judge(const packet &p, const std::vector<uint8_t> &l4) const
{
	if (p.udplen_delta)
		return O_UNKNOWN;
	/*
	 * A raw socket fills in a source address of 0 (raw(7)): the packet
	 * arrives from this host's address, and its ICRC, computed over
	 * 0.0.0.0, fails.
	 */
	if (p.src_martian && p.src == htonl(INADDR_ANY))
		return O_ICRC;
	if (p.src_martian)
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
		"  --cm-src ADDR       class cm: CM MADs from ADDR (also give it to --udp); the\n"
		"                      replies are read on ADDR:4791 (no rxe may own it)\n"
		"  --cm-sid LIST       class cm: the service IDs listened on (rdma_cm: TCP\n"
		"                      0x1060000|port, UDP 0x1110000|port)\n"
		"  With --classes cm no --target is needed.\n"
		"  -v                  print every packet (class, socket, source, bytes)\n");
}

} // namespace wire_fuzz

using namespace wire_fuzz;

int main(int argc, char **argv)
{
	enum { O_DST = 256, O_TARGET, O_RIGHT, O_UDP, O_POOL, O_BADRK, O_SEED, O_PACKETS, O_SECONDS,
	       O_PPS, O_CLASSES, O_ONLY, O_CM_SRC, O_CM_SID };
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
		{ "cm-src", required_argument, nullptr, O_CM_SRC },
		{ "cm-sid", required_argument, nullptr, O_CM_SID },
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
		case O_CM_SRC:
			ok = parse_addr(optarg, &c.cm_src);
			classes[C_CM].weight = 20;
			break;
		case O_CM_SID:
			ok = each_item(optarg, [&](const std::string &s) {
				if (!parse_num(s, &v))
					return false;
				c.cm_sids.push_back(v);
				return true;
			});
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
	bool cm_only = true;

	for (int k = 0; k < C_NCLASS; k++)
		if (c.enabled[k] && k != C_CM)
			cm_only = false;
	if (optind != argc || !c.dst || (c.targets.empty() && !cm_only) ||
	    (cm_only && !c.cm_src)) {
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
	if (c.cm_src && f.cm_open())
		return 1;
	int ret = f.run();

	if (c.cm_src) {
		/* the last replies: retransmissions are seconds apart, one is enough */
		usleep(1000000);
		f.cm_poll();
		f.cm_report();
	}
	return ret;
}
