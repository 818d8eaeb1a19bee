// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host unit tests for drivers/infiniband/core/uverbs_cmd_check.c: the
// write() header rules of legacy and extended uverbs commands
// (<uapi/rdma/ib_user_verbs.h>: struct ib_uverbs_cmd_hdr and
// ib_uverbs_ex_cmd_hdr), with the sizes libibverbs v44 sends.

#include "uverbs_cmd_check.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>

namespace {

// QUERY_PORT as libibverbs sends it: 24 bytes, in 6 / out 10 words.
constexpr uverbs_cmd_size kQueryPort = {16, 40};
// EX QUERY_DEVICE: core request 8, response known up to response_length.
constexpr uverbs_cmd_size kExQueryDevice = {8, 184};

ib_uverbs_cmd_hdr Hdr(uint32_t cmd, uint16_t in, uint16_t out) {
  ib_uverbs_cmd_hdr h{};
  h.command = cmd;
  h.in_words = in;
  h.out_words = out;
  return h;
}

ib_uverbs_ex_cmd_hdr ExHdr(uint64_t resp, uint16_t pin, uint16_t pout) {
  ib_uverbs_ex_cmd_hdr h{};
  h.response = resp;
  h.provider_in_words = pin;
  h.provider_out_words = pout;
  return h;
}

TEST(UverbsCmdNumber, SplitsTheExtendedFlag) {
  uint32_t num = 0;
  bool ex = true;
  EXPECT_EQ(uverbs_cmd_number(IB_USER_VERBS_CMD_QUERY_PORT, &num, &ex), 0);
  EXPECT_EQ(num, static_cast<uint32_t>(IB_USER_VERBS_CMD_QUERY_PORT));
  EXPECT_FALSE(ex);
  EXPECT_EQ(uverbs_cmd_number(0x80000001u, &num, &ex), 0);
  EXPECT_EQ(num, 1u);
  EXPECT_TRUE(ex);
}

TEST(UverbsCmdNumber, OtherBitsAreInvalid) {
  uint32_t num;
  bool ex;
  EXPECT_EQ(uverbs_cmd_number(0x100, &num, &ex), -EINVAL);
  EXPECT_EQ(uverbs_cmd_number(0x40000000u, &num, &ex), -EINVAL);
  EXPECT_EQ(uverbs_cmd_number(0xffffffffu, &num, &ex), -EINVAL);
}

TEST(UverbsCmdLegacy, LibibverbsQueryPort) {
  auto h = Hdr(IB_USER_VERBS_CMD_QUERY_PORT, 6, 10);
  uverbs_cmd_layout l{};
  ASSERT_EQ(uverbs_cmd_check_legacy(&h, 24, &kQueryPort, &l), 0);
  EXPECT_EQ(l.core_in_off, 8u);
  EXPECT_EQ(l.core_in_len, 16u);
  EXPECT_EQ(l.drv_in_off, 24u);
  EXPECT_EQ(l.drv_in_len, 0u);
  EXPECT_EQ(l.core_out_len, 40u);
  EXPECT_EQ(l.drv_out_len, 0u);
}

TEST(UverbsCmdLegacy, DriverDataFollowsTheCoreParts) {
  auto h = Hdr(IB_USER_VERBS_CMD_QUERY_PORT, 8, 14);
  uverbs_cmd_layout l{};
  ASSERT_EQ(uverbs_cmd_check_legacy(&h, 32, &kQueryPort, &l), 0);
  EXPECT_EQ(l.drv_in_off, 24u);
  EXPECT_EQ(l.drv_in_len, 8u);
  EXPECT_EQ(l.drv_out_len, 16u);
}

TEST(UverbsCmdLegacy, InWordsMustMatchTheLength) {
  auto h = Hdr(IB_USER_VERBS_CMD_QUERY_PORT, 6, 10);
  uverbs_cmd_layout l{};
  EXPECT_EQ(uverbs_cmd_check_legacy(&h, 28, &kQueryPort, &l), -EINVAL);
  EXPECT_EQ(uverbs_cmd_check_legacy(&h, 20, &kQueryPort, &l), -EINVAL);
}

TEST(UverbsCmdLegacy, ShortRequestOrResponseIsNoSpace) {
  uverbs_cmd_layout l{};
  auto h = Hdr(IB_USER_VERBS_CMD_QUERY_PORT, 4, 10);
  EXPECT_EQ(uverbs_cmd_check_legacy(&h, 16, &kQueryPort, &l), -ENOSPC);
  h = Hdr(IB_USER_VERBS_CMD_QUERY_PORT, 6, 9);
  EXPECT_EQ(uverbs_cmd_check_legacy(&h, 24, &kQueryPort, &l), -ENOSPC);
}

TEST(UverbsCmdEx, LibibverbsQueryDevice) {
  // CREATE_CQ: 32 bytes, in_words 1, out_words 38
  auto h = Hdr(0x80000001u, 1, 38);
  auto ex = ExHdr(0x1000, 0, 0);
  uverbs_cmd_layout l{};
  ASSERT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), 0);
  EXPECT_EQ(l.core_in_off, 24u);
  EXPECT_EQ(l.core_in_len, 8u);
  EXPECT_EQ(l.drv_in_off, 32u);
  EXPECT_EQ(l.core_out_len, 304u);
  EXPECT_EQ(l.drv_out_len, 0u);
}

TEST(UverbsCmdEx, LengthMustMatch) {
  auto h = Hdr(0x80000001u, 1, 38);
  auto ex = ExHdr(0x1000, 1, 0);
  uverbs_cmd_layout l{};
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -EINVAL);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 40, &kExQueryDevice, &l), 0);
  EXPECT_EQ(l.drv_in_len, 8u);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 8, &kExQueryDevice, &l), -EINVAL);
}

TEST(UverbsCmdEx, ReservedMustBeZero) {
  auto h = Hdr(0x80000001u, 1, 38);
  auto ex = ExHdr(0x1000, 0, 0);
  ex.cmd_hdr_reserved = 1;
  uverbs_cmd_layout l{};
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -EINVAL);
}

TEST(UverbsCmdEx, ShortCoreRequestOrResponse) {
  auto h = Hdr(0x80000001u, 0, 38);
  auto ex = ExHdr(0x1000, 1, 0);
  uverbs_cmd_layout l{};
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -ENOSPC);
  h = Hdr(0x80000001u, 1, 22);  // 176 < 184
  ex = ExHdr(0x1000, 0, 0);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -ENOSPC);
  h = Hdr(0x80000001u, 1, 23);  // exactly up to response_length
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), 0);
  EXPECT_EQ(l.core_out_len, 184u);
}

TEST(UverbsCmdEx, ResponseSpaceAndPointerGoTogether) {
  uverbs_cmd_layout l{};
  auto h = Hdr(0x80000001u, 1, 0);
  auto ex = ExHdr(0, 0, 0);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), 0);
  h = Hdr(0x80000001u, 1, 38);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -EINVAL);
  h = Hdr(0x80000001u, 1, 0);
  ex = ExHdr(0, 0, 2);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -EINVAL);
  ex = ExHdr(0x1000, 0, 0);
  EXPECT_EQ(uverbs_cmd_check_ex(&h, &ex, 32, &kExQueryDevice, &l), -EINVAL);
}

}  // namespace
