// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/ucma_cmd_check.c: the
// rdma_ucm write() header check and every payload validator.
//
// Input: an rdma_ucm write() buffer as user space would send it (header,
// payload, anything after).  The target does what the glue (ucma.c) will:
// check the header, copy in_copy payload bytes into a zeroed buffer of
// exactly in_len bytes (so ASan sees any read past the structure), take
// the response pointer, then run the command's validator.  For SET_OPTION
// the bytes after the payload stand for what optval points to.
// Invariants checked:
//   - the header check agrees with a model of the framing rules written
//     here independently, errno and layout;
//   - the layout stays inside the write() buffer and the response space;
//   - accepted payloads satisfy the documented rules (address lengths and
//     families, port spaces, option lengths, private data bounds...);
//   - every check only ever returns 0 or a known errno.

#include "ucma_cmd_check.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void Fail(const char *what, uint32_t cmd, int ret) {
  std::fprintf(stderr, "ucma_cmd_fuzz: %s (command %u, ret %d)\n", what, cmd,
               ret);
  std::abort();
}

bool KnownErrno(int ret) {
  return ret == 0 || ret == -EINVAL || ret == -ENOSYS || ret == -ENOSPC ||
         ret == -EOPNOTSUPP || ret == -EFAULT;
}

void Expect(bool ok, const char *what, uint32_t cmd, int ret) {
  if (!ok)
    Fail(what, cmd, ret);
}

// The framing rules (Documentation/core/rdma_ucm.rst), in their order.
int Model(const uint8_t *data, size_t size, rdma_ucm_cmd_hdr *h) {
  if (size < 8)
    return -EINVAL;
  std::memcpy(h, data, sizeof(*h));
  if (h->cmd >= 23)
    return -EINVAL;
  if (h->in + 8ul > size)
    return -EINVAL;
  if (h->cmd == RDMA_USER_CM_CMD_GET_OPTION)
    return -ENOSYS;
  const ucma_cmd_def *d = ucma_cmd_lookup(h->cmd);
  if (h->in < d->in_min)
    return -EINVAL;
  if (d->out_len && h->out < d->out_min)
    return -ENOSPC;
  return 0;
}

// An accepted address has its family's exact length; a sockaddr_in6
// field (@in6) holds AF_INET and AF_INET6 only.
void CheckAccepted(uint32_t cmd, uint16_t family, uint32_t size, bool in6) {
  uint32_t want = family == 2    ? 16
                  : family == 10 ? 28
                  : family == 27 && !in6 ? 48
                                         : 0;
  Expect(want && want == size, "address accepted", cmd, 0);
}

void CheckKssAccepted(uint32_t cmd, const __kernel_sockaddr_storage *a,
                      uint32_t size) {
  CheckAccepted(cmd, a->ss_family, size, false);
}

void CheckIn6Accepted(uint32_t cmd, const sockaddr_in6 *a, uint32_t size) {
  CheckAccepted(cmd, a->sin6_family, size, true);
}

void CheckAddresses(uint32_t cmd, const uint8_t *req) {
  int ret = 0;
  uint32_t size = 0;

  switch (cmd) {
    case RDMA_USER_CM_CMD_BIND: {
      auto *c = reinterpret_cast<const rdma_ucm_bind *>(req);
      ret = ucma_check_bind(c);
      if (!ret) {
        Expect(!c->reserved, "bind reserved", cmd, ret);
        CheckKssAccepted(cmd, &c->addr, c->addr_size);
      }
      break;
    }
    case RDMA_USER_CM_CMD_RESOLVE_ADDR: {
      auto *c = reinterpret_cast<const rdma_ucm_resolve_addr *>(req);
      ret = ucma_check_resolve_addr(c);
      if (!ret) {
        Expect(!c->reserved, "resolve reserved", cmd, ret);
        if (c->src_size)
          CheckKssAccepted(cmd, &c->src_addr, c->src_size);
        CheckKssAccepted(cmd, &c->dst_addr, c->dst_size);
      }
      break;
    }
    case RDMA_USER_CM_CMD_JOIN_MCAST: {
      auto *c = reinterpret_cast<const rdma_ucm_join_mcast *>(req);
      ret = ucma_check_join_mcast(c);
      if (!ret) {
        Expect(c->join_flags <= 1, "join flags", cmd, ret);
        CheckKssAccepted(cmd, &c->addr, c->addr_size);
      }
      break;
    }
    case RDMA_USER_CM_CMD_BIND_IP: {
      auto *c = reinterpret_cast<const rdma_ucm_bind_ip *>(req);
      ret = ucma_check_bind_ip(c);
      if (!ret)
        CheckIn6Accepted(cmd, &c->addr, ucma_addr_len(c->addr.sin6_family));
      break;
    }
    case RDMA_USER_CM_CMD_RESOLVE_IP: {
      auto *c = reinterpret_cast<const rdma_ucm_resolve_ip *>(req);
      ret = ucma_check_resolve_ip(c);
      if (!ret) {
        if (c->src_addr.sin6_family)
          CheckIn6Accepted(cmd, &c->src_addr,
                           ucma_addr_len(c->src_addr.sin6_family));
        CheckIn6Accepted(cmd, &c->dst_addr,
                         ucma_addr_len(c->dst_addr.sin6_family));
      }
      break;
    }
    case RDMA_USER_CM_CMD_JOIN_IP_MCAST: {
      auto *c = reinterpret_cast<const rdma_ucm_join_ip_mcast *>(req);
      ret = ucma_check_join_ip_mcast(c, &size);
      if (!ret)
        CheckIn6Accepted(cmd, &c->addr, size);
      break;
    }
    default:
      return;
  }
  Expect(KnownErrno(ret), "address errno", cmd, ret);
}

// CONNECT, ACCEPT, REJECT on an ID of each QP type and family.
void CheckPrivateData(uint32_t cmd, const uint8_t *req, uint8_t sel) {
  const uint8_t qpt = (sel & 1) ? 4 : 2;
  const uint32_t family = (sel & 2) ? 27 : 2;
  const uint32_t max = ucma_private_data_max(cmd, qpt, family);
  int ret;

  Expect(max <= 216, "private data budget", cmd, 0);
  if (cmd == RDMA_USER_CM_CMD_CONNECT || cmd == RDMA_USER_CM_CMD_ACCEPT) {
    const bool connect = cmd == RDMA_USER_CM_CMD_CONNECT;
    const rdma_ucm_conn_param *p =
        connect ? &reinterpret_cast<const rdma_ucm_connect *>(req)->conn_param
                : &reinterpret_cast<const rdma_ucm_accept *>(req)->conn_param;
    ret = ucma_check_conn_param(p, connect, max);
    Expect(KnownErrno(ret), "conn_param errno", cmd, ret);
    if (!ret && (p->valid || connect))
      Expect(p->valid && p->private_data_len <= max, "conn_param accepted",
             cmd, ret);
  } else if (cmd == RDMA_USER_CM_CMD_REJECT) {
    auto *c = reinterpret_cast<const rdma_ucm_reject *>(req);
    uint8_t reason = 0;
    ret = ucma_check_reject(c, max, &reason);
    Expect(KnownErrno(ret), "reject errno", cmd, ret);
    if (!ret)
      Expect((reason == 28 || reason == 35) && c->private_data_len <= max,
             "reject accepted", cmd, ret);
  }
}

void CheckSetOption(uint32_t cmd, const uint8_t *req, const uint8_t *rest,
                    size_t rest_len) {
  auto *c = reinterpret_cast<const rdma_ucm_set_option *>(req);
  int ret = ucma_check_set_option(c->level, c->optname, c->optlen);
  Expect(ret == 0 || ret == -EINVAL || ret == -ENOSYS, "set_option errno",
         cmd, ret);
  if (ret)
    return;
  Expect(c->optlen >= 1 && c->optlen <= UCMA_IB_PATH_MAX * 72,
         "option length unbounded", cmd, ret);
  if (c->level == RDMA_OPTION_ID)
    Expect(c->optname <= 3 && (c->optlen == 1 || c->optlen == 4),
           "ID option", cmd, ret);
  if (c->level != RDMA_OPTION_IB)
    return;
  Expect(c->optname == RDMA_OPTION_IB_PATH && c->optlen % 72 == 0,
         "IB option", cmd, ret);
  if (c->optlen > rest_len)
    return;
  // what the glue copies from optval: exactly optlen bytes
  std::vector<ib_path_rec_data> recs(c->optlen / 72);
  std::memcpy(recs.data(), rest, c->optlen);
  uint32_t idx = 0xffffffffu;
  ret = ucma_find_ib_path(recs.data(), c->optlen, &idx);
  Expect(ret == 0 || ret == -EINVAL, "ib_path errno", cmd, ret);
  if (!ret)
    Expect(idx < recs.size() && recs[idx].flags == 0x2b, "ib_path index", cmd,
           ret);
}

void CheckPayload(const ucma_cmd_layout &l, const uint8_t *req,
                  const uint8_t *rest, size_t rest_len) {
  const uint32_t cmd = l.cmd;
  int ret = 0;

  u64 addr = 1;
  ret = ucma_cmd_response(req, &l, &addr);
  Expect(ret == 0 || ret == -EFAULT, "response errno", cmd, ret);
  if (l.resp_ptr == UCMA_NO_PTR)
    Expect(!ret && !addr, "response without pointer", cmd, ret);
  else
    Expect((ret == 0) == (addr != 0), "response pointer", cmd, ret);

  CheckAddresses(cmd, req);
  CheckPrivateData(cmd, req, rest_len ? rest[0] : 0);

  switch (cmd) {
    case RDMA_USER_CM_CMD_CREATE_ID: {
      auto *c = reinterpret_cast<const rdma_ucm_create_id *>(req);
      uint8_t t = 0;
      ret = ucma_check_create_id(c, &t);
      Expect(KnownErrno(ret), "create_id errno", cmd, ret);
      if (!ret)
        Expect((t == 2 || t == 4) &&
                   (c->ps == RDMA_PS_TCP || c->ps == RDMA_PS_UDP ||
                    c->ps == RDMA_PS_IB || c->ps == RDMA_PS_IPOIB),
               "create_id accepted", cmd, ret);
      break;
    }
    case RDMA_USER_CM_CMD_INIT_QP_ATTR: {
      auto *c = reinterpret_cast<const rdma_ucm_init_qp_attr *>(req);
      ret = ucma_check_init_qp_attr(c);
      Expect(ret == (c->qp_state > 6 ? -EINVAL : 0), "qp_state", cmd, ret);
      break;
    }
    case RDMA_USER_CM_CMD_LISTEN: {
      auto *c = reinterpret_cast<const rdma_ucm_listen *>(req);
      u32 b = ucma_listen_backlog(static_cast<s32>(c->backlog), 1024);
      Expect(b >= 1 && b <= 1024, "backlog", cmd, 0);
      break;
    }
    case RDMA_USER_CM_CMD_QUERY: {
      auto *c = reinterpret_cast<const rdma_ucm_query *>(req);
      ucma_cmd_layout q = l;
      ret = ucma_query_check(c->option, &q);
      Expect(ret == 0 || ret == -ENOSPC || ret == -ENOSYS, "query errno", cmd,
             ret);
      if (!ret)
        Expect(q.out_len >= 8 && q.out_len <= q.out_space &&
                   q.out_len <= sizeof(rdma_ucm_query_addr_resp),
               "query response", cmd, ret);
      break;
    }
    case RDMA_USER_CM_CMD_SET_OPTION:
      CheckSetOption(cmd, req, rest, rest_len);
      break;
    default:
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // the write() buffer on its own allocation: reads past it are caught
  std::vector<uint8_t> buf(data, data + size);
  const uint8_t *b = size ? buf.data() : nullptr;
  ucma_cmd_layout l{};
  rdma_ucm_cmd_hdr h{};

  int ret = ucma_cmd_check(b, size, &l);
  int want = Model(data, size, &h);
  if (ret != want)
    Fail("header check disagrees with the rules", h.cmd, ret);
  if (ret)
    return 0;

  const ucma_cmd_def *d = l.def;
  Expect(d == ucma_cmd_lookup(h.cmd) && l.cmd == h.cmd, "layout command",
         h.cmd, 0);
  Expect(l.in_off == 8 && l.in_off + static_cast<size_t>(l.in_copy) <= size,
         "payload outside the buffer", h.cmd, 0);
  Expect(l.in_copy <= h.in && l.in_copy <= l.in_len && l.in_len == d->in_len &&
             l.in_copy >= d->in_min,
         "payload length", h.cmd, 0);
  Expect(l.in_copy == l.in_len || (d->flags & UCMA_CMD_ECE),
         "short payload accepted", h.cmd, 0);
  Expect(!l.ece || ((d->flags & UCMA_CMD_ECE) && l.in_copy == l.in_len),
         "ece without its bytes", h.cmd, 0);
  Expect(l.out_space == h.out && l.out_len <= h.out &&
             l.out_len <= d->out_len && (!d->out_len || l.out_len >= d->out_min),
         "response length", h.cmd, 0);
  Expect(l.resp_ptr == UCMA_NO_PTR || l.resp_ptr + 8u <= l.in_len,
         "response pointer outside the payload", h.cmd, 0);
  Expect(d->data_ptr == UCMA_NO_PTR || d->data_ptr + 8u <= l.in_len,
         "data pointer outside the payload", h.cmd, 0);

  // the zero-padded structure, exactly in_len bytes
  std::vector<uint8_t> req(l.in_len, 0);
  std::memcpy(req.data(), buf.data() + l.in_off, l.in_copy);
  const size_t after = 8 + static_cast<size_t>(h.in);
  CheckPayload(l, req.data(), buf.data() + after, size - after);
  return 0;
}
