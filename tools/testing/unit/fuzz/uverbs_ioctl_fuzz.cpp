// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/uverbs_ioctl_check.c: the
// ioctl(RDMA_VERBS_IOCTL) header and attribute checks ib_uverbs runs
// before it looks at the device.
//
// Input: the ioctl buffer as user space passes it (struct
// ib_uverbs_ioctl_hdr, then attributes); a short input is zero-padded to
// the header.  The target applies what uverbs_ioctl.c does: check the
// header, then the attributes the header counts (as far as the input
// holds them), then reads the inline values and the table buffer fit.
// Invariants checked on every input:
//   - only 0, -EINVAL or -EPROTONOSUPPORT come back;
//   - an accepted header names a served method and its length matches;
//   - accepted attributes: every mandatory one found once, each at an
//     index inside the array with the id the method wants, a length in the
//     method's range, inline values 1, 2, 4 or 8 bytes;
//   - the GID table fit never promises more bytes than the buffer has.

#include "uverbs_ioctl_check.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void Fail(const char *what, int ret) {
  std::fprintf(stderr, "uverbs_ioctl_fuzz: %s (ret %d)\n", what, ret);
  std::abort();
}

bool Known(int ret) { return ret == 0 || ret == -EINVAL || ret == -EPROTONOSUPPORT; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ib_uverbs_ioctl_hdr hdr{};
  std::memcpy(&hdr, data, size < sizeof(hdr) ? size : sizeof(hdr));
  const uverbs_ioctl_method *m = nullptr;
  int ret = uverbs_ioctl_check_hdr(&hdr, &m);
  if (!Known(ret)) Fail("header: unexpected errno", ret);
  if (ret) return 0;
  if (!m || uverbs_ioctl_method_find(hdr.object_id, hdr.method_id) != m)
    Fail("header: accepted without its method", ret);
  if (hdr.length != sizeof(hdr) + hdr.num_attrs * sizeof(ib_uverbs_attr))
    Fail("header: accepted a length that does not match", ret);

  // the attributes the input holds (the kernel copies num_attrs of them)
  size_t have = size > sizeof(hdr) ? (size - sizeof(hdr)) / sizeof(ib_uverbs_attr) : 0;
  uint16_t n = (uint16_t)(have < hdr.num_attrs ? have : hdr.num_attrs);
  std::vector<ib_uverbs_attr> attrs(n ? n : 1);
  if (n) std::memcpy(attrs.data(), data + sizeof(hdr), n * sizeof(ib_uverbs_attr));
  uverbs_ioctl_args args;
  ret = uverbs_ioctl_check_attrs(m, attrs.data(), n, &args);
  if (!Known(ret)) Fail("attributes: unexpected errno", ret);
  if (ret) return 0;
  if (args.m != m) Fail("attributes: another method", ret);
  for (unsigned j = 0; j < m->nattrs; j++) {
    const uverbs_ioctl_attr_spec &s = m->attrs[j];
    int at = args.at[j];
    if (at < 0) {
      if (s.mandatory) Fail("attributes: a mandatory one missing", ret);
      continue;
    }
    if (at >= n) Fail("attributes: index outside the array", ret);
    const ib_uverbs_attr &a = attrs[at];
    if (a.attr_id != s.id) Fail("attributes: wrong id at the index", ret);
    if (a.len < s.min_len || a.len > s.max_len) Fail("attributes: length out of range", ret);
    for (unsigned k = j + 1; k < m->nattrs; k++)
      if (args.at[k] == at) Fail("attributes: one index for two", ret);
    if (!s.out) {
      if (a.len != 1 && a.len != 2 && a.len != 4 && a.len != 8)
        Fail("attributes: inline value of an odd size", ret);
      uint64_t v = uverbs_ioctl_inline(&a);
      if (a.len < 8 && (v >> (8 * a.len)))
        Fail("attributes: inline value wider than its length", ret);
    }
  }
  if (m->method == UVERBS_METHOD_QUERY_GID_TABLE) {
    uint64_t esize = uverbs_ioctl_inline(&attrs[args.at[0]]);
    uint32_t len = attrs[args.at[2]].len, max = 0;
    ret = uverbs_gid_table_fit(esize, len, &max);
    if (ret != 0 && ret != -EINVAL) Fail("table fit: unexpected errno", ret);
    if (!ret && (max == 0 || (uint64_t)max * esize != len))
      Fail("table fit: entries do not fill the buffer exactly", ret);
  }
  return 0;
}
