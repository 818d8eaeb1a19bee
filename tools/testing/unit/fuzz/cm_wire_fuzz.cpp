// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/core/{mad_wire,cm_wire,cma_wire}.c.
// Input: any bytes; only the first 300 are used.  Each decoder gets an
// exact-size heap copy (ASan catches any read past the length) and:
//   - the MAD receive check and header decode never crash, and agree with
//     the raw bytes when they accept;
//   - every CM message type (and LAP, APR, an unknown ID) is decoded from
//     the bytes as MAD data, and the bytes as a whole MAD are decoded, once
//     as they are and once behind a valid CM header; whatever decodes is
//     re-encoded and decoded again: the structs and the encodings must be
//     equal, and the encoding must be the input with the bits no field
//     covers cleared;
//   - rdma_cm's header and service-ID split round-trip when they accept.
#include <rdma/cma_wire.h>
#include <rdma/ib_cm_wire.h>
#include <rdma/ib_mad_wire.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const size_t kMaxLen = 300;

void check(bool ok) {
  if (!ok) abort();
}

// the bits the fields of @d cover in the MAD data
std::vector<u8> Coverage(const struct ib_cm_wire_msg_desc *d) {
  std::vector<u8> c(IB_MAD_WIRE_DATA_LEN, 0);
  for (u32 i = 0; i < d->nfields; i++) {
    const struct ib_wire_field *f = &d->fields[i];
    if (f->flags & IB_WIRE_F_BYTES)
      memset(&c[f->byte], 0xff, f->width / 8);
    else
      ib_wire_field_set(c.data(), f, ~0ULL);
  }
  return c;
}

void check_data(u16 attr, const u8 *p, size_t len) {
  std::vector<u8> in(p, p + len);
  const struct ib_cm_wire_msg_desc *d = ib_cm_wire_desc(attr);
  u32 size = d ? d->host_size : 64;
  std::vector<u8> a(size), b(size);
  enum ib_cm_wire_why why = IB_CM_WHY_NUM;
  int err = ib_cm_wire_decode_data(attr, in.data(), (u32)len, a.data(), size, &why);
  check((u32)why < IB_CM_WHY_NUM && (err == 0) == (why == IB_CM_WHY_OK));
  if (!d) {
    check(err != 0);
    return;
  }
  check(err == 0 || len < IB_MAD_WIRE_DATA_LEN || err == -EPROTO);
  if (err)
    return;
  std::vector<u8> out(IB_MAD_WIRE_DATA_LEN), again(IB_MAD_WIRE_DATA_LEN);
  check(ib_cm_wire_encode_data(attr, out.data(), (u32)out.size(), a.data(), size) == 0);
  check(ib_cm_wire_decode_data(attr, out.data(), (u32)out.size(), b.data(), size, &why) == 0);
  check(memcmp(a.data(), b.data(), size) == 0);
  check(ib_cm_wire_encode_data(attr, again.data(), (u32)again.size(), b.data(), size) == 0);
  check(out == again);
  std::vector<u8> cover = Coverage(d);
  for (u32 i = 0; i < IB_MAD_WIRE_DATA_LEN; i++) check(out[i] == (in[i] & cover[i]));
}

void check_mad(const u8 *p, size_t len) {
  std::vector<u8> in(p, p + len);
  struct ib_cm_wire_msg a, b;
  enum ib_cm_wire_why why = IB_CM_WHY_NUM;
  int err = ib_cm_wire_decode(in.data(), (u32)len, &a, &why);
  check((u32)why < IB_CM_WHY_NUM && (err == 0) == (why == IB_CM_WHY_OK));
  if (err)
    return;
  check(len >= IB_MAD_WIRE_SIZE && in[1] == IB_MAD_WIRE_CLASS_CM);
  check(a.attr_id == (in[16] << 8 | in[17]) && ib_cm_wire_desc(a.attr_id));
  u8 out[IB_MAD_WIRE_SIZE], again[IB_MAD_WIRE_SIZE];
  check(ib_cm_wire_encode(out, sizeof(out), &a) == 0);
  check(ib_cm_wire_decode(out, sizeof(out), &b, &why) == 0);
  check(memcmp(&a, &b, sizeof(a)) == 0);
  check(ib_cm_wire_encode(again, sizeof(again), &b) == 0);
  check(memcmp(out, again, sizeof(out)) == 0);
  // the header comes back but for status, class-specific (4..7) and the
  // reserved bytes (18..19), which a CM message sends as zero
  for (int i = 0; i < IB_MAD_WIRE_HDR_LEN; i++)
    check(out[i] == ((i >= 4 && i < 8) || i == 18 || i == 19 ? 0 : in[i]));
}

void check_mad_hdr(const u8 *p, size_t len) {
  std::vector<u8> in(p, p + len);
  struct ib_mad_wire_hdr h;
  enum ib_mad_wire_why why = IB_MAD_WHY_NUM;
  int err = ib_mad_wire_check_recv(in.data(), (u32)len, len & 1, &h, &why);
  check((u32)why < IB_MAD_WHY_NUM && (err == 0) == (why == IB_MAD_WHY_OK));
  check(ib_mad_wire_why_str(why) != nullptr);
  if (err == 0) {
    check(len == IB_MAD_WIRE_SIZE && h.base_version == 1);
    check(h.tid >> 56 == in[8] && (h.attr_mod & 0xff) == in[23]);
  }
  if (ib_mad_wire_hdr_decode(in.data(), (u32)len, &h) == 0) {
    u8 out[IB_MAD_WIRE_HDR_LEN];
    check(ib_mad_wire_hdr_encode(out, sizeof(out), &h) == 0);
    for (int i = 0; i < IB_MAD_WIRE_HDR_LEN; i++)
      check(out[i] == (i == 18 || i == 19 ? 0 : in[i]));
    (void)ib_mad_wire_is_response(&h);
    if (len >= IB_MAD_WIRE_HDR_LEN &&
        ib_mad_wire_make_reply(in.data(), (u32)len, 0x000c) == 0)
      check(in[3] == IB_MAD_WIRE_METHOD_GET_RESP);
  }
}

void check_cma(const u8 *p, size_t len) {
  std::vector<u8> in(p, p + len);
  struct cma_wire_hdr a, b;
  if (cma_wire_hdr_decode(in.data(), (u32)len, &a) == 0) {
    u8 out[CMA_WIRE_HDR_LEN];
    check(cma_wire_hdr_encode(out, sizeof(out), &a) == 0);
    check(cma_wire_hdr_decode(out, sizeof(out), &b) == 0);
    check(memcmp(&a, &b, sizeof(a)) == 0);
  }
  if (len >= 8) {
    u64 sid = 0;
    for (int i = 0; i < 8; i++) sid = sid << 8 | in[i];
    enum rdma_ucm_port_space ps;
    u16 port;
    if (cma_wire_sid_split(sid, &ps, &port) == 0)
      check(cma_wire_service_id(ps, port) == sid);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len = size < kMaxLen ? size : kMaxLen;

  check_mad_hdr(data, len);
  check_mad(data, len);
  for (u16 attr = IB_CM_WIRE_ATTR_REQ; attr <= IB_CM_WIRE_ATTR_APR + 1; attr++)
    check_data(attr, data, len);
  check_cma(data, len);

  // the same bytes behind a valid CM header, so the message checks run
  std::vector<u8> mad(IB_MAD_WIRE_SIZE, 0);
  memcpy(mad.data(), data, len < mad.size() ? len : mad.size());
  mad[0] = IB_MAD_WIRE_BASE_VERSION;
  mad[1] = IB_MAD_WIRE_CLASS_CM;
  mad[2] = IB_MAD_WIRE_CM_CLASS_VERSION;
  mad[3] = IB_MAD_WIRE_METHOD_SEND;
  mad[16] = 0;
  mad[17] = (u8)(IB_CM_WIRE_ATTR_REQ + (len ? data[0] : 0) % IB_CM_WIRE_NUM_ATTRS);
  check_mad(mad.data(), mad.size());
  return 0;
}
