# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree RDMA stack: ib_core, ib_uverbs, rdma_rxe, ib_cm, rdma_cm,
# rdma_ucm, mlx_lite and mlx_lite_fwsim.  See README.md.
#
#   make [modules]        build the modules against KDIR
#   make kernel           build the cached test kernel (the default KDIR)
#   make check            the CI suite (<= 45 min, kernel cached); last line "N passed, N failed"
#   make check-full       everything: long matrices, upstream halves, soaks
#   make demo             boot the test VM and show what works
#   make vm [CMD='...'] [STACK=upstream]   shell (or one command) in the test VM
#   make modules_install  install to /lib/modules/<rel>/updates
#   make bench            benchmarks (host; perftest upstream vs ours in the perf-flavor VM)
#   make clean

TESTING   := $(CURDIR)/tools/testing
TEST_KDIR := $(shell $(TESTING)/vm/build-kernel.sh --dir)
KDIR      ?= $(TEST_KDIR)
STACK     ?= ours

.PHONY: all modules kernel check check-full demo vm modules_install bench clean deps

all: modules

deps:
	$(TESTING)/deps.sh

kernel: deps
	$(TESTING)/vm/build-kernel.sh >/dev/null

ifeq ($(KDIR),$(TEST_KDIR))
modules: kernel
endif
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install

check:
	CHECK_TIER=check $(TESTING)/check.sh

check-full:
	CHECK_TIER=full $(TESTING)/check.sh

demo: modules
	$(TESTING)/vm/demo.sh

vm: modules
ifdef CMD
	$(TESTING)/vm/run-vm.sh --stack $(STACK) --cmd "$$CMD"
else
	$(TESTING)/vm/run-vm.sh --stack $(STACK) --shell
endif

bench:
	$(MAKE) -C tools/bench

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf build
