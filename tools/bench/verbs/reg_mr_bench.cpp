// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// reg_mr_bench: time ibv_reg_mr() and ibv_dereg_mr() of one large buffer.
//
//   reg_mr_bench [-d DEV] [-s SIZE_MIB] [-r REPS] [-H]
//
// The buffer is anonymous memory touched once before the first repetition,
// so the timings are pinning + MR setup, not first-touch page faults.
// -H backs it with 2 MiB huge pages (MAP_HUGETLB: the pool must hold
// SIZE_MIB / 2 of them) and names the lines reg_mr_huge / dereg_mr_huge.
// Prints one "name value unit" line per measurement (medians over REPS),
// the format tools/bench/vm-bench.sh collects.

#include <infiniband/verbs.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double ms_since(Clock::time_point t0)
{
	return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

ibv_context *open_device(const std::string &name)
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	ibv_context *ctx = nullptr;

	if (!list)
		return nullptr;
	for (int i = 0; i < n && !ctx; i++)
		if (name.empty() || name == ibv_get_device_name(list[i]))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

int usage()
{
	std::fprintf(stderr, "usage: reg_mr_bench [-d DEV] [-s SIZE_MIB] [-r REPS] [-H]\n");
	return 2;
}

} // namespace

int main(int argc, char **argv)
{
	std::string dev;
	size_t mib = 1024;
	int reps = 5;
	bool huge = false;
	int opt;

	while ((opt = getopt(argc, argv, "d:s:r:H")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 's': mib = std::strtoul(optarg, nullptr, 0); break;
		case 'r': reps = std::atoi(optarg); break;
		case 'H': huge = true; break;
		default: return usage();
		}
	}
	if (mib == 0 || reps < 1 || (huge && mib % 2))
		return usage();

	ibv_context *ctx = open_device(dev);
	if (!ctx) {
		std::fprintf(stderr, "reg_mr_bench: cannot open device '%s'\n", dev.c_str());
		return 1;
	}
	ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd) {
		std::perror("reg_mr_bench: ibv_alloc_pd");
		return 1;
	}
	size_t len = mib << 20;
	void *buf = mmap(nullptr, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0), -1, 0);
	if (buf == MAP_FAILED) {
		std::perror("reg_mr_bench: mmap");
		return 1;
	}
	std::memset(buf, 0x5a, len);

	const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ;
	std::vector<double> reg, dereg;
	for (int i = 0; i < reps; i++) {
		auto t0 = Clock::now();
		ibv_mr *mr = ibv_reg_mr(pd, buf, len, access);
		double t = ms_since(t0);
		if (!mr) {
			std::perror("reg_mr_bench: ibv_reg_mr");
			return 1;
		}
		reg.push_back(t);
		t0 = Clock::now();
		int rc = ibv_dereg_mr(mr);
		t = ms_since(t0);
		if (rc) {
			errno = rc;
			std::perror("reg_mr_bench: ibv_dereg_mr");
			return 1;
		}
		dereg.push_back(t);
	}
	const char *sfx = huge ? "_huge" : "";
	std::printf("reg_mr%s %.3f ms\n", sfx, median(reg));
	std::printf("dereg_mr%s %.3f ms\n", sfx, median(dereg));

	munmap(buf, len);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
