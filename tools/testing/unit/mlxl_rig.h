// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host rig for the mlx-lite tests: fake DMA memory with bus addresses that
// differ from CPU addresses (freed memory becomes unreachable), a fake
// clock that advances only when the code sleeps, and fwsim behind the
// driver's MMIO ops.
#ifndef MLXL_RIG_H
#define MLXL_RIG_H

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

// the pure files are built as C++ (unit_pure): no extern "C"
#include "mlxl_dev.h"
#include "fwsim/fwsim.h"

struct Rig {
	struct Region {
		uint64_t bus;
		uint32_t size;
		std::unique_ptr<uint8_t[]> mem;
	};
	std::map<uint64_t, Region> regions;	// by bus address
	uint64_t next_bus = 0x10'0000'0000ull;
	uint64_t clock_ns = 1'000'000'000ull;
	uint64_t slept_ns = 0;
	int fail_alloc_after = -1;		// fail the Nth allocation from now
	std::unique_ptr<fwsim> fw{new fwsim()};
	std::unique_ptr<mlxl_dev> dev{new mlxl_dev()};
	std::vector<mlxl_dma> pages = std::vector<mlxl_dma>(8192);

	fwsim_ops fops{};
	mlxl_ops dops{};

	explicit Rig(fwsim_profile prof = FWSIM_CX5)
	{
		fops.dma_read = [](void *c, u64 a, void *b, u32 l) {
			return static_cast<Rig *>(c)->dma(a, b, l, false);
		};
		fops.dma_write = [](void *c, u64 a, const void *b, u32 l) {
			return static_cast<Rig *>(c)->dma(a, const_cast<void *>(b), l, true);
		};
		fops.now_ns = [](void *c) -> u64 { return static_cast<Rig *>(c)->clock_ns; };
		fwsim_init(fw.get(), prof, &fops, this);

		dops.rd32 = [](void *c, u32 off) -> u32 {
			return fwsim_mmio_read32(static_cast<Rig *>(c)->fw.get(), off);
		};
		dops.wr32 = [](void *c, u32 off, u32 v) {
			fwsim_mmio_write32(static_cast<Rig *>(c)->fw.get(), off, v);
		};
		dops.dma_alloc = [](void *c, mlxl_dma *d, u32 size, u32 align) {
			return static_cast<Rig *>(c)->alloc(d, size, align);
		};
		dops.dma_free = [](void *c, mlxl_dma *d) {
			static_cast<Rig *>(c)->free(d);
		};
		dops.now_ns = [](void *c) -> u64 { return static_cast<Rig *>(c)->clock_ns; };
		dops.sleep_us = [](void *c, u32 us) {
			Rig *r = static_cast<Rig *>(c);
			r->clock_ns += 1000ull * us;
			r->slept_ns += 1000ull * us;
		};
		dev->ops = &dops;
		dev->ctx = this;
		dev->pages = pages.data();
		dev->pages_cap = (u32)pages.size();
	}

	int dma(uint64_t a, void *b, uint32_t l, bool write)
	{
		auto it = regions.upper_bound(a);
		if (it == regions.begin())
			return -1;
		--it;
		Region &r = it->second;
		if (a < r.bus || a + l > r.bus + r.size)
			return -1;
		uint8_t *p = r.mem.get() + (a - r.bus);
		if (write)
			memcpy(p, b, l);
		else
			memcpy(b, p, l);
		return 0;
	}

	int alloc(mlxl_dma *d, uint32_t size, uint32_t align)
	{
		if (fail_alloc_after == 0)
			return -12;	// -ENOMEM
		if (fail_alloc_after > 0)
			fail_alloc_after--;
		uint64_t bus = (next_bus + align - 1) & ~(uint64_t)(align - 1);
		next_bus = bus + size + 4096;	// a gap: overruns hit nothing
		Region r{bus, size, std::unique_ptr<uint8_t[]>(new uint8_t[size]())};
		d->cpu = r.mem.get();
		d->bus = bus;
		d->size = size;
		regions.emplace(bus, std::move(r));
		return 0;
	}

	void free(mlxl_dma *d)
	{
		if (!d->cpu)
			return;
		regions.erase(d->bus);
		d->cpu = nullptr;
		d->bus = 0;
		d->size = 0;
	}

	uint8_t *cpu_of(uint64_t bus)
	{
		auto it = regions.find(bus);
		return it == regions.end() ? nullptr : it->second.mem.get();
	}

	// command queue up and HCA enabled, as the first bring-up steps do
	int enable()
	{
		int err = mlxl_cmdq_setup(dev.get());
		if (err)
			return err;
		dev->step = MLXL_STEP_CMDQ;
		mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_ENABLE_HCA, 0);
		err = mlxl_cmd_exec(dev.get(), dev->in, MLXL_HDR_LEN, dev->out,
				    MLXL_ENABLE_HCA_OUT_LEN);
		if (!err)
			dev->step = MLXL_STEP_ENABLED;
		return err;
	}

	int set_issi()
	{
		mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, MLXL_OP_SET_ISSI, 0);
		MLXL_SET(dev->in, MLXL_F_ISSI_CURRENT, 1);
		return mlxl_cmd_exec(dev.get(), dev->in, MLXL_HDR_LEN, dev->out,
				     MLXL_HDR_LEN);
	}

	int simple(uint16_t opcode, uint16_t op_mod = 0, uint32_t out_len = MLXL_HDR_LEN)
	{
		mlxl_cmd_hdr(dev->in, MLXL_HDR_LEN, opcode, op_mod);
		return mlxl_cmd_exec(dev.get(), dev->in, MLXL_HDR_LEN, dev->out, out_len);
	}

	size_t live_allocs() const { return regions.size(); }
	uint32_t errs(fwsim_err e) const { return fwsim_err_count(fw.get(), e); }
};

#endif
