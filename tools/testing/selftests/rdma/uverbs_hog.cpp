// SPDX-License-Identifier: GPL-2.0
//
// uverbs_hog: what an unprivileged user can make the kernel hold, for the
// security scenarios (Documentation/security.rst).
//
//   uverbs_hog qp WR SGE   one RC QP with WR send and receive WRs of SGE
//                          SGEs each; prints "ok" or "error ERRNO-NAME",
//                          then waits for EOF on stdin (the memory stays
//                          allocated until then)
//   uverbs_hog stall-cmd   a uverbs command written from a userfaultfd
//                          range: prints "stalled" once the kernel waits
//                          inside write() for the command's bytes (with
//                          the device's disassociation lock held),
//                          resolves the fault at EOF on stdin, prints how
//                          the write ended ("write N" / "write error N")
//
// The device is $VERBS_DEV (default rxe0).
#include "verbs_common.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

using namespace verbs;

namespace {

void wait_eof()
{
	char buf[64];
	while (fgets(buf, sizeof(buf), stdin))
		;
}

int hog_qp(ibv_context *ctx, int wr, int sge)
{
	ibv_pd *pd = ibv_alloc_pd(ctx);
	ibv_cq *cq = pd ? ibv_create_cq(ctx, 16, nullptr, nullptr, 0) : nullptr;
	if (!cq) {
		printf("error setup %s\n", strerror(errno));
		return 1;
	}
	ibv_qp_init_attr ia = qp_init(cq, IBV_QPT_RC, (uint32_t)wr, (uint32_t)wr, (uint32_t)sge);
	errno = 0;
	ibv_qp *qp = ibv_create_qp(pd, &ia);
	if (qp)
		printf("ok\n");
	else
		printf("error %s\n", strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	fflush(stdout);
	wait_eof();
	if (qp)
		ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	return 0;
}

int stall_cmd(ibv_context *ctx)
{
	const size_t len = 4096;
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		printf("error userfaultfd %s\n", strerror(errno));
		return 1;
	}
	uffdio_api api{};
	api.api = UFFD_API;
	if (ioctl(uffd, UFFDIO_API, &api)) {
		printf("error UFFDIO_API %s\n", strerror(errno));
		return 1;
	}
	void *mem = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	if (mem == MAP_FAILED) {
		printf("error mmap %s\n", strerror(errno));
		return 1;
	}
	uffdio_register reg{};
	reg.range.start = (uintptr_t)mem;
	reg.range.len = len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		printf("error UFFDIO_REGISTER %s\n", strerror(errno));
		return 1;
	}
	ssize_t result = 0;
	int err = 0;
	std::thread t([&] {
		result = write(ctx->cmd_fd, mem, 16);
		err = errno;
	});
	// the fault arrives on the uffd once the kernel waits in the command
	pollfd p{ uffd, POLLIN, 0 };
	if (poll(&p, 1, 60000) != 1) {
		printf("error no fault within 60 s\n");
		fflush(stdout);
		_exit(1);
	}
	printf("stalled\n");
	fflush(stdout);
	wait_eof();
	// a zero page: command 0 with no room for its answer; the write
	// fails, or finds the device gone
	uffdio_zeropage zp{};
	zp.range.start = (uintptr_t)mem;
	zp.range.len = len;
	ioctl(uffd, UFFDIO_ZEROPAGE, &zp);
	t.join();
	if (result < 0)
		printf("write error %d\n", err);
	else
		printf("write %zd\n", result);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	std::string mode = argc > 1 ? argv[1] : "";
	if (!(mode == "qp" && argc == 4) && !(mode == "stall-cmd" && argc == 2)) {
		fprintf(stderr, "usage: uverbs_hog qp WR SGE | stall-cmd\n");
		return 2;
	}
	ibv_context *ctx = open_dev();
	if (!ctx) {
		printf("error cannot open %s\n", env("VERBS_DEV", "rxe0").c_str());
		return 1;
	}
	int ret = mode == "qp" ? hog_qp(ctx, atoi(argv[2]), atoi(argv[3])) : stall_cmd(ctx);
	ibv_close_device(ctx);
	return ret;
}
