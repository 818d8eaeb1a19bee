// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle: the command line and the rules a configuration must keep.
#include "oracle_cli.h"
#include "oracle_ib.h"
#include "oracle_plan.h"

#include <getopt.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace oracle {

static const char USAGE[] =
	"usage: rdma_oracle [options]         server\n"
	"       rdma_oracle [options] HOST    client (HOST: IPv4/IPv6 address or name)\n"
	"  -d, --ib-dev DEV     RDMA device (default: the first)\n"
	"  -i, --ib-port N      its port (default 1)\n"
	"  -g, --gid-index N    source GID index (required; the peer's GID comes over TCP)\n"
	"  -p, --port PORT      TCP port of the exchange (default 18515)\n"
	"      --bind ADDR      server: listen on ADDR only (default: IPv4 and IPv6)\n"
	"      --qp rc|uc|ud    transport (default rc)\n"
	"      --mtu N          path MTU 256|512|1024|2048|4096 (default: the ports' active MTU)\n"
	"      --ops LIST       comma list of send,send_imm,write,write_imm,read,fetch_add,\n"
	"                       cmp_swap,send_inv,inv_write (default: all the transport has),\n"
	"                       atomic_write, aw_refused (ATOMIC WRITE to a device without it)\n"
	"      --iters N        messages per op kind and direction (default 100)\n"
	"      --depth N        outstanding WRs, SQ and RQ size (default 16)\n"
	"      --max-size N     largest message (default 16384; UD: the path MTU)\n"
	"      --sge N          most SGEs per WR (default 3)\n"
	"      --lossy          UC/UD: count lost and duplicated messages, do not fail\n"
	"      --settle MS      --lossy: quiet time that ends a round (default 500)\n"
	"      --srq            receives through a shared receive queue (ibv_post_srq_recv)\n"
	"      --lossy-link     the link drops packets: a WRITE through an invalidated rkey\n"
	"                       may end in a retry error (its NAK lost), not only an access error\n"
	"      --odp            this side's memory is registered on demand (IBV_ACCESS_ON_DEMAND)\n"
	"                       and write-protected by a fork() every 50 ms (both sides give it)\n"
	"      --test-hide-atomic-write  this side claims its device lacks ATOMIC WRITE\n"
	"                       (proves that aw_refused fails against a device that has it)\n"
	"      --duration S     repeat the plan until S seconds have passed\n"
	"      --until FILE     also repeat it while FILE does not exist (the client\n"
	"                       decides; a server ignores it)\n"
	"      --timeout S      longest wait for a completion or the peer (default 30)\n"
	"      --seed S         the plan's seed (client; default: time-based)\n"
	"  -v, --verbose        progress lines\n"
	"The client's plan options rule; a server option that differs is an error.\n"
	"Exit: 0 pass, 1 data mismatch, 2 usage, 3 verbs/transport/peer error or timeout.\n";

enum {
	O_BIND = 256,
	O_QP,
	O_MTU,
	O_OPS,
	O_ITERS,
	O_DEPTH,
	O_MAX_SIZE,
	O_SGE,
	O_LOSSY,
	O_SETTLE,
	O_SRQ,
	O_LOSSY_LINK,
	O_ODP,
	O_HIDE_AW,
	O_DURATION,
	O_UNTIL,
	O_TIMEOUT,
	O_SEED,
};

static uint64_t num(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-' || v < lo || v > hi)
		usage_error("%s %s: want a number in %" PRIu64 "..%" PRIu64, opt, s, lo, hi);
	return v;
}

static double seconds(const char *opt, const char *s, double lo)
{
	char *end = nullptr;
	double v = strtod(s, &end);
	if (!*s || *end || !(v >= lo) || v > 1e7)
		usage_error("%s %s: want seconds >= %g", opt, s, lo);
	return v;
}

uint32_t parse_ops(const char *s)
{
	uint32_t ops = 0;
	std::string list = s;
	size_t at = 0;
	while (at <= list.size()) {
		size_t comma = list.find(',', at);
		std::string name = list.substr(at, comma == std::string::npos ? std::string::npos :
										 comma - at);
		int op = -1;
		for (int i = 0; i < OP_COUNT; i++)
			if (name == op_info[i].name)
				op = i;
		if (op < 0)
			usage_error("--ops: unknown op '%s'", name.c_str());
		ops |= 1u << op;
		if (comma == std::string::npos)
			break;
		at = comma + 1;
	}
	return ops;
}

std::string ops_str(uint32_t ops)
{
	std::string s;
	for (int i = 0; i < OP_COUNT; i++)
		if (ops & (1u << i))
			s += std::string(s.empty() ? "" : ",") + op_info[i].name;
	return s;
}

uint32_t default_ops(int qpt)
{
	uint32_t ops = 0;
	for (int i = 0; i < OP_COUNT; i++)
		if ((op_info[i].qpts & (1u << qpt)) && !op_info[i].opt_in)
			ops |= 1u << i;
	return ops;
}

void parse(int argc, char **argv, Options &o)
{
	static const option longs[] = {
		{ "ib-dev", required_argument, nullptr, 'd' },
		{ "ib-port", required_argument, nullptr, 'i' },
		{ "gid-index", required_argument, nullptr, 'g' },
		{ "port", required_argument, nullptr, 'p' },
		{ "bind", required_argument, nullptr, O_BIND },
		{ "qp", required_argument, nullptr, O_QP },
		{ "mtu", required_argument, nullptr, O_MTU },
		{ "ops", required_argument, nullptr, O_OPS },
		{ "iters", required_argument, nullptr, O_ITERS },
		{ "depth", required_argument, nullptr, O_DEPTH },
		{ "max-size", required_argument, nullptr, O_MAX_SIZE },
		{ "sge", required_argument, nullptr, O_SGE },
		{ "lossy", no_argument, nullptr, O_LOSSY },
		{ "settle", required_argument, nullptr, O_SETTLE },
		{ "srq", no_argument, nullptr, O_SRQ },
		{ "lossy-link", no_argument, nullptr, O_LOSSY_LINK },
		{ "odp", no_argument, nullptr, O_ODP },
		{ "test-hide-atomic-write", no_argument, nullptr, O_HIDE_AW },
		{ "duration", required_argument, nullptr, O_DURATION },
		{ "until", required_argument, nullptr, O_UNTIL },
		{ "timeout", required_argument, nullptr, O_TIMEOUT },
		{ "seed", required_argument, nullptr, O_SEED },
		{ "verbose", no_argument, nullptr, 'v' },
		{ "help", no_argument, nullptr, 'h' },
		{},
	};
	Config &c = o.cfg;
	int ch;
	while ((ch = getopt_long(argc, argv, "d:i:g:p:vh", longs, nullptr)) != -1) {
		switch (ch) {
		case 'd':
			o.dev = optarg;
			break;
		case 'i':
			o.ib_port = (int)num("-i", optarg, 1, 255);
			break;
		case 'g':
			o.gid_index = (int)num("-g", optarg, 0, 65535);
			break;
		case 'p':
			num("-p", optarg, 1, 65535);
			o.port = optarg;
			break;
		case O_BIND:
			o.bind = optarg;
			break;
		case O_QP: {
			int q = -1;
			for (int i = 0; i < QPT_COUNT; i++)
				if (!strcmp(optarg, qpt_name[i]))
					q = i;
			if (q < 0)
				usage_error("--qp %s: want rc, uc or ud", optarg);
			c.qpt = q;
			o.given |= CFG_QPT;
			break;
		}
		case O_MTU:
			c.mtu = (uint32_t)num("--mtu", optarg, 256, 4096);
			if (!mtu_enum(c.mtu))
				usage_error("--mtu %s: want 256, 512, 1024, 2048 or 4096", optarg);
			o.given |= CFG_MTU;
			break;
		case O_OPS:
			c.ops = parse_ops(optarg);
			o.given |= CFG_OPS;
			break;
		case O_ITERS:
			c.iters = (uint32_t)num("--iters", optarg, 1, 1u << 30);
			o.given |= CFG_ITERS;
			break;
		case O_DEPTH:
			c.depth = (uint32_t)num("--depth", optarg, 1, 1u << 16);
			o.given |= CFG_DEPTH;
			break;
		case O_MAX_SIZE:
			c.max_size = (uint32_t)num("--max-size", optarg, 1, 1u << 30);
			o.given |= CFG_MAX_SIZE;
			break;
		case O_SGE:
			c.sge = (uint32_t)num("--sge", optarg, 1, MAX_SGE);
			o.given |= CFG_SGE;
			break;
		case O_LOSSY_LINK:
			o.lossy_link = true;
			break;
		case O_ODP:
			o.odp = true;
			break;
		case O_HIDE_AW:
			o.hide_atomic_write = true;
			break;
		case O_LOSSY:
			c.lossy = 1;
			o.given |= CFG_LOSSY;
			break;
		case O_SETTLE:
			c.settle_ms = (uint32_t)num("--settle", optarg, 1, 600000);
			o.given |= CFG_SETTLE;
			break;
		case O_SRQ:
			c.srq = 1;
			o.given |= CFG_SRQ;
			break;
		case O_DURATION:
			c.duration_ms = (uint32_t)(seconds("--duration", optarg, 0) * 1000);
			o.given |= CFG_DURATION;
			break;
		case O_UNTIL:
			if (!*optarg)
				usage_error("--until: want a file name");
			o.until = optarg;
			break;
		case O_TIMEOUT:
			o.timeout = seconds("--timeout", optarg, 0.001);
			break;
		case O_SEED:
			c.seed = num("--seed", optarg, 0, UINT64_MAX);
			o.given |= CFG_SEED;
			break;
		case 'v':
			o.verbose++;
			break;
		case 'h':
			fputs(USAGE, stdout);
			exit(0);
		default:
			fputs(USAGE, stderr);
			exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		o.host = argv[optind++];
	if (optind < argc)
		usage_error("one HOST only (got '%s' too)", argv[optind]);
	if (o.gid_index < 0)
		usage_error("-g GIDIDX is required (the source GID index; see "
			    "/sys/class/infiniband/DEV/ports/1/gids/)");
	if (!o.host.empty() && !o.bind.empty())
		usage_error("--bind is for the server");

}

// Cross-field rules of a complete configuration; "" if it is fine.
std::string config_problem(const Config &c)
{
	char b[256];
	if (!c.ops)
		return "--ops: no op";
	for (int i = 0; i < OP_COUNT; i++)
		if ((c.ops & (1u << i)) && !(op_info[i].qpts & (1u << c.qpt))) {
			snprintf(b, sizeof(b), "--ops: %s is not a %s operation", op_info[i].name,
				 qpt_name[c.qpt]);
			return b;
		}
	if ((c.ops & (1u << OP_INV_WRITE)) && !(c.ops & (1u << OP_SEND_INV)))
		return "--ops: inv_write needs send_inv (it writes through the window send_inv "
		       "invalidated)";
	if ((c.ops & (1u << OP_INV_WRITE)) && (c.ops & (1u << OP_AW_REFUSED)))
		return "--ops: inv_write and aw_refused both break the QP: one of them";
	if (c.lossy && c.qpt == QPT_RC)
		return "--lossy is for UC and UD only: RC must deliver every message";
	if (c.qpt == QPT_UD && c.mtu && c.max_size > c.mtu) {
		snprintf(b, sizeof(b), "--max-size %u is above the path MTU %u (UD: one packet)",
			 c.max_size, c.mtu);
		return b;
	}
	return "";
}

} // namespace oracle
