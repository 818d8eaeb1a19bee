// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/uverbs_ioctl_check.c: the
// ioctl(RDMA_VERBS_IOCTL) header and attribute rules, with the requests
// libibverbs v44 builds (rdma-core libibverbs/cmd_device.c:
// __ibv_query_gid_ex, _ibv_query_gid_table, and the INVOKE_WRITE probe).

#include "uverbs_ioctl_check.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace {

ib_uverbs_attr Attr(uint16_t id, uint16_t len, uint64_t data,
                    uint16_t flags = UVERBS_ATTR_F_MANDATORY) {
  ib_uverbs_attr a{};
  a.attr_id = id;
  a.len = len;
  a.flags = flags;
  a.data = data;
  return a;
}

ib_uverbs_ioctl_hdr Hdr(uint16_t obj, uint16_t method, uint16_t nattrs) {
  ib_uverbs_ioctl_hdr h{};
  h.length = static_cast<uint16_t>(sizeof(h) + nattrs * sizeof(ib_uverbs_attr));
  h.object_id = obj;
  h.method_id = method;
  h.num_attrs = nattrs;
  h.driver_id = 14;  // RDMA_DRIVER_RXE, as librxe sends it
  return h;
}

// QUERY_GID_ENTRY as __ibv_query_gid_ex sends it: port and index as
// 8-byte consts, flags as a u32, the 32-byte entry out.
std::vector<ib_uverbs_attr> GidEntryAttrs() {
  return {Attr(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8, 1),
          Attr(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8, 5),
          Attr(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 0),
          Attr(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, 32, 0x7000)};
}

const uverbs_ioctl_method *GidEntry() {
  return uverbs_ioctl_method_find(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY);
}

const uverbs_ioctl_method *GidTable() {
  return uverbs_ioctl_method_find(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE);
}

TEST(UverbsIoctlHdr, ServedMethodsPass) {
  const uverbs_ioctl_method *m = nullptr;
  ib_uverbs_ioctl_hdr h = Hdr(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, 4);
  EXPECT_EQ(0, uverbs_ioctl_check_hdr(&h, &m));
  EXPECT_EQ(GidEntry(), m);
  h = Hdr(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, 4);
  EXPECT_EQ(0, uverbs_ioctl_check_hdr(&h, &m));
  EXPECT_EQ(GidTable(), m);
}

// libibverbs must see EPROTONOSUPPORT for everything else: for the
// INVOKE_WRITE probe that keeps all write-style commands on write(), for
// GET_CONTEXT that keeps the write GET_CONTEXT (and its async fd).
TEST(UverbsIoctlHdr, EveryOtherMethodIsProtoNotSupported) {
  const uverbs_ioctl_method *m = nullptr;
  const uint16_t others[][2] = {
      {UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE},
      {UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES},
      {UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT},
      {UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT},
      {UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT},
      {UVERBS_OBJECT_DEVICE, 7},
      {UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE},
      {UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE},
      {UVERBS_OBJECT_ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC},
      {0xffff, 0xffff},
  };
  for (const auto &o : others) {
    ib_uverbs_ioctl_hdr h = Hdr(o[0], o[1], 1);
    EXPECT_EQ(-EPROTONOSUPPORT, uverbs_ioctl_check_hdr(&h, &m)) << o[0] << "/" << o[1];
  }
}

TEST(UverbsIoctlHdr, LengthMustMatchAttrs) {
  const uverbs_ioctl_method *m = nullptr;
  ib_uverbs_ioctl_hdr h = Hdr(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, 4);
  h.length += 1;
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_hdr(&h, &m));
  h.length -= 2;
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_hdr(&h, &m));
  // more attributes than a page holds, even with a consistent length
  h = Hdr(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, 300);
  h.length = static_cast<uint16_t>(sizeof(h) + 300 * sizeof(ib_uverbs_attr));
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_hdr(&h, &m));
  // an unknown method with a bad length: the length first
  h = Hdr(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, 1);
  h.length = 3;
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_hdr(&h, &m));
}

TEST(UverbsIoctlHdr, ReservedFieldsAreProtoNotSupported) {
  const uverbs_ioctl_method *m = nullptr;
  ib_uverbs_ioctl_hdr h = Hdr(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, 4);
  h.reserved1 = 1;
  EXPECT_EQ(-EPROTONOSUPPORT, uverbs_ioctl_check_hdr(&h, &m));
  h.reserved1 = 0;
  h.reserved2 = 1;
  EXPECT_EQ(-EPROTONOSUPPORT, uverbs_ioctl_check_hdr(&h, &m));
}

TEST(UverbsIoctlAttrs, LibibverbsGidEntryRequestParses) {
  std::vector<ib_uverbs_attr> a = GidEntryAttrs();
  uverbs_ioctl_args args;
  ASSERT_EQ(0, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));
  for (int i = 0; i < 4; i++) EXPECT_EQ(i, args.at[i]);
  EXPECT_EQ(1u, uverbs_ioctl_inline(&a[0]));
  EXPECT_EQ(5u, uverbs_ioctl_inline(&a[1]));
}

TEST(UverbsIoctlAttrs, OrderDoesNotMatter) {
  std::vector<ib_uverbs_attr> a = GidEntryAttrs();
  std::swap(a[0], a[3]);
  uverbs_ioctl_args args;
  ASSERT_EQ(0, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));
  EXPECT_EQ(3, args.at[0]);
  EXPECT_EQ(0, args.at[3]);
}

TEST(UverbsIoctlAttrs, UnknownMandatoryIsProtoNotSupportedOptionalIgnored) {
  std::vector<ib_uverbs_attr> a = GidEntryAttrs();
  uverbs_ioctl_args args;
  a.push_back(Attr(0x20, 8, 0, 0));
  EXPECT_EQ(0, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 5, &args));
  a.back().flags = UVERBS_ATTR_F_MANDATORY;
  EXPECT_EQ(-EPROTONOSUPPORT, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 5, &args));
}

TEST(UverbsIoctlAttrs, MissingRepeatedOrMalformedIsInvalid) {
  uverbs_ioctl_args args;
  std::vector<ib_uverbs_attr> a = GidEntryAttrs();
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 3, &args));  // no RESP_ENTRY

  a = GidEntryAttrs();
  a.push_back(a[1]);
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 5, &args));  // index twice

  a = GidEntryAttrs();
  a[3].len = 31;  // shorter than struct ib_uverbs_gid_entry
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));

  a = GidEntryAttrs();
  a[0].len = 16;  // an inline value is at most 8 bytes
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));

  a = GidEntryAttrs();
  a[1].len = 3;  // not a u8/u16/u32/u64
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));

  a = GidEntryAttrs();
  a[2].len = 2;  // flags: u32 or u64
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));

  a = GidEntryAttrs();
  a[1].attr_data.reserved = 1;
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));

  a = GidEntryAttrs();
  a[1].flags |= 0x80;  // no such flag
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidEntry(), a.data(), 4, &args));
}

TEST(UverbsIoctlAttrs, GidTableFlagsAreOptional) {
  // _ibv_query_gid_table: entry size, flags, the entries, their number
  std::vector<ib_uverbs_attr> a = {
      Attr(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, 32),
      Attr(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 0),
      Attr(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 32 * 16, 0x8000),
      Attr(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8, 0x9000)};
  uverbs_ioctl_args args;
  ASSERT_EQ(0, uverbs_ioctl_check_attrs(GidTable(), a.data(), 4, &args));
  a.erase(a.begin() + 1);
  ASSERT_EQ(0, uverbs_ioctl_check_attrs(GidTable(), a.data(), 3, &args));
  EXPECT_EQ(-1, args.at[1]);
  a[2].len = 4;  // the number is a u64
  EXPECT_EQ(-EINVAL, uverbs_ioctl_check_attrs(GidTable(), a.data(), 3, &args));
}

TEST(UverbsIoctlInline, SizesReadInCpuOrder) {
  ib_uverbs_attr a = Attr(0, 4, 0);
  uint32_t v32 = 0xdeadbeef;
  std::memcpy(&a.data, &v32, sizeof(v32));
  EXPECT_EQ(0xdeadbeefu, uverbs_ioctl_inline(&a));
  a = Attr(0, 8, 0x1122334455667788ull);
  EXPECT_EQ(0x1122334455667788ull, uverbs_ioctl_inline(&a));
  uint16_t v16 = 0xabcd;
  a = Attr(0, 2, 0);
  std::memcpy(&a.data, &v16, sizeof(v16));
  EXPECT_EQ(0xabcdu, uverbs_ioctl_inline(&a));
}

TEST(UverbsIoctlGidTable, BufferFit) {
  uint32_t max = 0;
  EXPECT_EQ(0, uverbs_gid_table_fit(32, 32 * 10, &max));
  EXPECT_EQ(10u, max);
  EXPECT_EQ(0, uverbs_gid_table_fit(40, 400, &max));  // a longer entry: padded
  EXPECT_EQ(10u, max);
  EXPECT_EQ(0, uverbs_gid_table_fit(16, 64, &max));   // a shorter one: cut
  EXPECT_EQ(4u, max);
  EXPECT_EQ(-EINVAL, uverbs_gid_table_fit(0, 64, &max));
  EXPECT_EQ(-EINVAL, uverbs_gid_table_fit(32, 0, &max));
  EXPECT_EQ(-EINVAL, uverbs_gid_table_fit(32, 33, &max));
  EXPECT_EQ(-EINVAL, uverbs_gid_table_fit(1ull << 32, 64, &max));
}

}  // namespace
