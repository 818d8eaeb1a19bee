// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/uverbs_cmd_check.c: the
// write() header checks and the per-command request checks ib_uverbs runs
// before it looks at any object.
//
// Input: a uverbs write() buffer as user space would send it (header,
// extended header if the command says so, core request, driver data).
// The target applies what uverbs_cmd.c does: split the command number,
// look up the table sizes (the same uapi structures), check the header,
// then run the command's request check on the zero-padded core request.
// Invariants checked on every accepted input:
//   - the layout stays inside the buffer and the response space;
//   - accepted requests satisfy the documented rules (access flags, MR
//     range, CQ entries and vector, QP caps, modify mask and ports...);
//   - every check is deterministic and only ever returns 0 or a known errno.

#include "uverbs_cmd_check.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

[[noreturn]] void Fail(const char *what, uint32_t cmd, int ret) {
  std::fprintf(stderr, "uverbs_cmd_fuzz: %s (command 0x%08x, ret %d)\n", what,
               cmd, ret);
  std::abort();
}

struct Sizes {
  uint16_t req, resp;
};

// The legacy table of uverbs_cmd.c (core request, response).
Sizes Legacy(uint32_t num, bool *known) {
  *known = true;
  switch (num) {
    case IB_USER_VERBS_CMD_ALLOC_PD:
      return {sizeof(ib_uverbs_alloc_pd), sizeof(ib_uverbs_alloc_pd_resp)};
    case IB_USER_VERBS_CMD_REG_MR:
      return {sizeof(ib_uverbs_reg_mr), sizeof(ib_uverbs_reg_mr_resp)};
    case IB_USER_VERBS_CMD_REREG_MR:
      return {sizeof(ib_uverbs_rereg_mr), sizeof(ib_uverbs_rereg_mr_resp)};
    case IB_USER_VERBS_CMD_ALLOC_MW:
      return {sizeof(ib_uverbs_alloc_mw), sizeof(ib_uverbs_alloc_mw_resp)};
    case IB_USER_VERBS_CMD_CREATE_CQ:
      return {sizeof(ib_uverbs_create_cq), sizeof(ib_uverbs_create_cq_resp)};
    case IB_USER_VERBS_CMD_CREATE_QP:
      return {sizeof(ib_uverbs_create_qp), sizeof(ib_uverbs_create_qp_resp)};
    case IB_USER_VERBS_CMD_MODIFY_QP:
      return {sizeof(ib_uverbs_modify_qp), 0};
    case IB_USER_VERBS_CMD_CREATE_AH:
      return {sizeof(ib_uverbs_create_ah), sizeof(ib_uverbs_create_ah_resp)};
    case IB_USER_VERBS_CMD_CREATE_SRQ:
      return {sizeof(ib_uverbs_create_srq), sizeof(ib_uverbs_create_srq_resp)};
    case IB_USER_VERBS_CMD_MODIFY_SRQ:
      return {sizeof(ib_uverbs_modify_srq), 0};
    case IB_USER_VERBS_CMD_POST_SEND:
      return {sizeof(ib_uverbs_post_send), sizeof(ib_uverbs_post_send_resp)};
    default:
      *known = false;
      return {0, 0};
  }
}

Sizes Extended(uint32_t num, bool *known) {
  *known = true;
  switch (num) {
    case IB_USER_VERBS_EX_CMD_CREATE_CQ:
      return {offsetof(ib_uverbs_ex_create_cq, reserved) + 4,
              offsetof(ib_uverbs_ex_create_cq_resp, response_length) + 4};
    case IB_USER_VERBS_EX_CMD_CREATE_QP:
      return {offsetof(ib_uverbs_ex_create_qp, comp_mask) + 4,
              offsetof(ib_uverbs_ex_create_qp_resp, response_length) + 4};
    case IB_USER_VERBS_EX_CMD_MODIFY_QP:
      return {sizeof(ib_uverbs_modify_qp),
              offsetof(ib_uverbs_ex_modify_qp_resp, response_length) + 4};
    default:
      *known = false;
      return {0, 0};
  }
}

uverbs_dev_limits Limits() {
  uverbs_dev_limits l{};
  l.max_qp_wr = 1048576;
  l.max_send_sge = 32;
  l.max_recv_sge = 32;
  l.max_cqe = 32767;
  l.max_srq_wr = 1048576;
  l.max_srq_sge = 27;
  l.num_comp_vectors = 2;
  l.phys_port_cnt = 1;
  return l;
}

bool KnownErrno(int ret) {
  return ret == 0 || ret == -EINVAL || ret == -EOPNOTSUPP || ret == -EPERM ||
         ret == -ENOSPC;
}

void CheckMrAccess(uint32_t cmd, uint32_t access) {
  uint32_t out = 0xdeadbeef, out2 = 0;
  int ret = uverbs_check_mr_access(access, &out);
  if (!KnownErrno(ret) || ret != uverbs_check_mr_access(access, &out2))
    Fail("mr_access unstable", cmd, ret);
  if (ret)
    return;
  // bits 0..7, and the FLUSH targets 8 and 9 (IBTA 1.5)
  if (out & ~0x3ffu)
    Fail("mr_access passes unknown or optional bits", cmd, ret);
  if ((out & (IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC)) &&
      !(out & IB_UVERBS_ACCESS_LOCAL_WRITE))
    Fail("remote write without local write accepted", cmd, ret);
}

void CheckMrRange(uint32_t cmd, uint64_t start, uint64_t len, uint64_t va) {
  int ret = uverbs_check_mr_range(start, len, va, 4096);
  if (!KnownErrno(ret))
    Fail("mr_range errno", cmd, ret);
  if (ret)
    return;
  if (!len || start + len < start || va + len < va ||
      (start & 4095) != (va & 4095))
    Fail("bad MR range accepted", cmd, ret);
}

void CheckModifyQp(uint32_t cmd, ib_uverbs_modify_qp *m, bool ex,
                   const uverbs_dev_limits &l) {
  uint32_t in_mask = m->attr_mask, mask = 0;
  int ret = uverbs_check_modify_qp(m, ex, 1, &l, &mask);
  if (!KnownErrno(ret))
    Fail("modify_qp errno", cmd, ret);
  if (ret)
    return;
  uint32_t known = IB_QP_ATTR_STANDARD_BITS | (ex ? IB_QP_RATE_LIMIT : 0);
  if ((mask & ~known) || (mask & in_mask) != in_mask)
    Fail("modify_qp mask", cmd, ret);
  if (((mask & IB_QP_STATE) && m->qp_state > IB_QPS_ERR) ||
      ((mask & IB_QP_CUR_STATE) && m->cur_qp_state > IB_QPS_ERR))
    Fail("modify_qp state out of range accepted", cmd, ret);
  if ((mask & IB_QP_PORT) && m->port_num != 1)
    Fail("modify_qp bad port accepted", cmd, ret);
  if ((mask & IB_QP_AV) && m->dest.port_num != 1)
    Fail("modify_qp bad AV port accepted", cmd, ret);
  if ((mask & IB_QP_QKEY) && (m->qkey & 0x80000000u))
    Fail("privileged qkey accepted", cmd, ret);
}

// The command's request check on the zero-padded core request @req.
void CheckRequest(uint32_t command, uint32_t num, bool ex, const uint8_t *req) {
  const uverbs_dev_limits l = Limits();
  int ret = 0;

  if (!ex && num == IB_USER_VERBS_CMD_REG_MR) {
    ib_uverbs_reg_mr c;
    std::memcpy(&c, req, sizeof(c));
    CheckMrAccess(command, c.access_flags);
    CheckMrRange(command, c.start, c.length, c.hca_va);
  } else if (!ex && num == IB_USER_VERBS_CMD_REREG_MR) {
    ib_uverbs_rereg_mr c;
    std::memcpy(&c, req, sizeof(c));
    ret = uverbs_check_rereg_mr(c.flags, c.start, c.length, c.hca_va, 4096);
    if (!ret && (c.flags & 1) && (!c.start || !c.hca_va || !c.length))
      Fail("rereg TRANS without range accepted", command, ret);
    if (!ret && (!c.flags || (c.flags & ~7u)))
      Fail("rereg flags", command, ret);
    CheckMrAccess(command, c.access_flags);
  } else if (!ex && num == IB_USER_VERBS_CMD_ALLOC_MW) {
    ib_uverbs_alloc_mw c;
    std::memcpy(&c, req, sizeof(c));
    ret = uverbs_check_alloc_mw(&c);
    if (!ret && c.mw_type != 1 && c.mw_type != 2)
      Fail("MW type accepted", command, ret);
  } else if (num == IB_USER_VERBS_CMD_CREATE_CQ) {
    uint32_t cqe, vec;
    if (ex) {
      ib_uverbs_ex_create_cq c;
      std::memcpy(&c, req, sizeof(c));
      ret = uverbs_check_ex_create_cq(&c);
      if (!ret && (c.flags || c.comp_mask || c.reserved))
        Fail("ex_create_cq fields", command, ret);
      cqe = c.cqe;
      vec = c.comp_vector;
    } else {
      ib_uverbs_create_cq c;
      std::memcpy(&c, req, sizeof(c));
      cqe = c.cqe;
      vec = c.comp_vector;
    }
    ret = uverbs_check_create_cq(cqe, vec, &l);
    if (!ret && (!cqe || cqe > l.max_cqe || vec >= l.num_comp_vectors))
      Fail("create_cq bounds", command, ret);
  } else if (num == IB_USER_VERBS_CMD_CREATE_QP) {
    ib_uverbs_ex_create_qp c;
    std::memcpy(&c, req, sizeof(c));
    if (ex) {
      ret = uverbs_check_ex_create_qp(&c);
      if (!KnownErrno(ret))
        Fail("ex_create_qp errno", command, ret);
    }
    ib_uverbs_qp_cap cap{};
    // legacy create_qp has the fields after its leading response pointer
    if (!ex)
      std::memcpy(&c, req + 8, sizeof(ib_uverbs_create_qp) - 8);
    cap.max_send_wr = c.max_send_wr;
    cap.max_recv_wr = c.max_recv_wr;
    cap.max_send_sge = c.max_send_sge;
    cap.max_recv_sge = c.max_recv_sge;
    ret = uverbs_check_create_qp(c.qp_type, c.is_srq, &cap, &l);
    if (!ret && (c.qp_type < 2 || c.qp_type > 4 ||
                 cap.max_send_wr > l.max_qp_wr ||
                 cap.max_send_sge > l.max_send_sge))
      Fail("create_qp accepted out of bounds", command, ret);
  } else if (num == IB_USER_VERBS_CMD_MODIFY_QP) {
    ib_uverbs_modify_qp m;
    std::memcpy(&m, req, sizeof(m));
    CheckModifyQp(command, &m, ex, l);
  } else if (!ex && num == IB_USER_VERBS_CMD_CREATE_AH) {
    ib_uverbs_create_ah c;
    std::memcpy(&c, req, sizeof(c));
    ret = uverbs_check_ah_attr(&c.attr, &l);
    if (!ret && c.attr.port_num != 1)
      Fail("AH port accepted", command, ret);
  } else if (!ex && num == IB_USER_VERBS_CMD_CREATE_SRQ) {
    ib_uverbs_create_srq c;
    std::memcpy(&c, req, sizeof(c));
    ret = uverbs_check_create_srq(c.max_wr, c.max_sge, &l);
    if (!ret && (!c.max_wr || c.max_wr > l.max_srq_wr ||
                 c.max_sge > l.max_srq_sge))
      Fail("SRQ bounds", command, ret);
  } else if (!ex && num == IB_USER_VERBS_CMD_MODIFY_SRQ) {
    ib_uverbs_modify_srq c;
    std::memcpy(&c, req, sizeof(c));
    ret = uverbs_check_modify_srq(c.attr_mask);
    if (!ret && (c.attr_mask & ~3u))
      Fail("SRQ mask", command, ret);
  } else if (!ex && num == IB_USER_VERBS_CMD_POST_SEND) {
    ib_uverbs_post_send c;
    std::memcpy(&c, req, sizeof(c));
    ret = uverbs_check_post_send(&c);
    if (!ret && (c.wr_count || c.wqe_size < sizeof(ib_uverbs_send_wr)))
      Fail("POST_SEND accepted", command, ret);
  }
  if (!KnownErrno(ret))
    Fail("unknown errno", command, ret);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ib_uverbs_cmd_hdr hdr;
  if (size < sizeof(hdr))
    return 0;
  std::memcpy(&hdr, data, sizeof(hdr));

  uint32_t num = 0;
  bool ex = false;
  int ret = uverbs_cmd_number(hdr.command, &num, &ex);
  if (ret) {
    if (ret != -EINVAL)
      Fail("cmd_number errno", hdr.command, ret);
    return 0;
  }
  bool known = false;
  Sizes sz = ex ? Extended(num, &known) : Legacy(num, &known);
  if (!known)
    return 0;
  const uverbs_cmd_size csz = {sz.req, sz.resp};
  uverbs_cmd_layout l{};

  if (ex) {
    ib_uverbs_ex_cmd_hdr exh;
    if (size < UVERBS_EX_HDR_LEN)
      return 0;
    std::memcpy(&exh, data + sizeof(hdr), sizeof(exh));
    ret = uverbs_cmd_check_ex(&hdr, &exh, size, &csz, &l);
    if (!KnownErrno(ret))
      Fail("check_ex errno", hdr.command, ret);
    if (ret)
      return 0;
    if (l.core_in_off + static_cast<size_t>(l.core_in_len) + l.drv_in_len !=
            size ||
        l.core_in_len < sz.req ||
        l.core_out_len != static_cast<uint32_t>(hdr.out_words) * 8 ||
        l.drv_out_len != static_cast<uint32_t>(exh.provider_out_words) * 8)
      Fail("extended layout", hdr.command, 0);
    if (exh.response && l.core_out_len < sz.resp)
      Fail("extended response space", hdr.command, 0);
  } else {
    ret = uverbs_cmd_check_legacy(&hdr, size, &csz, &l);
    if (!KnownErrno(ret))
      Fail("check_legacy errno", hdr.command, ret);
    if (ret)
      return 0;
    if (size != static_cast<size_t>(hdr.in_words) * 4 ||
        l.drv_in_off + static_cast<size_t>(l.drv_in_len) != size ||
        l.core_in_off + static_cast<size_t>(l.core_in_len) > size ||
        l.core_out_len != sz.resp ||
        (sz.resp && l.core_out_len + l.drv_out_len !=
                        static_cast<uint32_t>(hdr.out_words) * 4))
      Fail("legacy layout", hdr.command, 0);
  }

  // what uverbs_cmd.c hands the handler: the request zero-padded
  uint8_t req[128] = {};
  size_t copy = l.core_in_len < sizeof(req) ? l.core_in_len : sizeof(req);
  std::memcpy(req, data + l.core_in_off, copy);
  CheckRequest(hdr.command, num, ex, req);
  return 0;
}
