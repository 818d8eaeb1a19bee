// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libFuzzer target for drivers/infiniband/sw/rxe/rxe_hdr.c and rxe_icrc.c.
// Input: one flag byte (bit 0: IPv6), then a RoCEv2 UDP payload (BTH
// through ICRC).  Checks:
//   - rxe_hdr_parse() never reads past @len, and when it accepts, what it
//     reports adds up (headers + payload + pad + ICRC == len), matches
//     the opcode table and the BTH, and obeys the pad rules;
//   - rxe_icrc_ok() on the raw input never crashes; after rxe_icrc_put()
//     behind a well-formed IP/UDP header it holds, stays true when the
//     masked fields change and turns false when a covered bit flips.
#include "rxe_hdr.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(bool ok) {
  if (!ok)
    abort();
}

void check_parse(const u8 *p, u32 len) {
  // an exact-size heap copy: ASan catches any read past len
  std::vector<u8> buf(p, p + len);
  struct rxe_hdr_info info;
  memset(&info, 0, sizeof(info));
  if (rxe_hdr_parse(buf.data(), len, &info) != RXE_PARSE_OK)
    return;
  const struct rxe_opcode_info *oi = rxe_opcode_info(buf[0]);
  check(oi != nullptr && oi->name != nullptr);
  check(info.opcode == buf[0] && info.mask == oi->mask &&
        info.hdr_len == oi->hdr_len);
  check((u32)info.hdr_len + info.paylen + info.pad + RXE_ICRC_LEN == len);
  check(info.pad <= 3 && info.pad == rxe_bth_pad(buf.data()));
  if (!(oi->mask & RXE_PAYLOAD_MASK))
    check(info.paylen == 0 && info.pad == 0);
  if (info.pad)
    check(info.paylen > 0);
  check(info.qpn == rxe_bth_qpn(buf.data()) && info.qpn <= RXE_QPN_MASK);
  check(info.psn == rxe_bth_psn(buf.data()) && info.psn <= RXE_PSN_MASK);
  check(info.pkey == rxe_bth_pkey(buf.data()));
  check(rxe_bth_tver(buf.data()) == 0);
  check(!!(info.flags & RXE_INFO_SE) == rxe_bth_se(buf.data()));
  check(!!(info.flags & RXE_INFO_ACKREQ) == rxe_bth_ackreq(buf.data()));
  static const u8 hlen[RXE_NUM_HDR_TYPES] = {
      RXE_DETH_LEN, RXE_FETH_LEN, RXE_RETH_LEN, RXE_ATMETH_LEN, RXE_AETH_LEN,
      RXE_ATMACK_LEN, RXE_IMMDT_LEN, RXE_IETH_LEN};
  for (int t = 0; t < RXE_NUM_HDR_TYPES; t++)
    if (oi->mask & (1U << t))
      check(oi->offset[t] >= RXE_BTH_LEN &&
            oi->offset[t] + hlen[t] <= oi->hdr_len);
}

void check_icrc(bool v6, const u8 *p, u32 len) {
  u32 iplen = v6 ? 40 : 20;
  u32 n = iplen + 8 + len;  // IP + UDP + payload (its last 4: the ICRC)
  std::vector<u8> pkt(n, 0);
  if (v6) {
    pkt[0] = 0x60;
    pkt[4] = (u8)((8 + len) >> 8);
    pkt[5] = (u8)(8 + len);
    pkt[6] = 17;
    pkt[7] = 64;
  } else {
    pkt[0] = 0x45;
    pkt[2] = (u8)(n >> 8);
    pkt[3] = (u8)n;
    pkt[8] = 64;
    pkt[9] = 17;
  }
  pkt[iplen + 2] = 0x12;
  pkt[iplen + 3] = 0xb7;
  pkt[iplen + 4] = (u8)((8 + len) >> 8);
  pkt[iplen + 5] = (u8)(8 + len);
  if (len)
    memcpy(pkt.data() + iplen + 8, p, len);

  bool enough = len >= RXE_BTH_LEN + RXE_ICRC_LEN;
  u32 covered = n - RXE_ICRC_LEN;
  if (!enough) {
    // too short for a BTH: nothing is written, nothing is accepted
    std::vector<u8> before = pkt;
    if (n >= RXE_ICRC_LEN) {
      rxe_icrc_put(pkt.data(), covered < iplen + 8 + RXE_BTH_LEN ? covered : 0);
      check(pkt == before);
    }
    return;
  }
  rxe_icrc_put(pkt.data(), covered);
  check(rxe_icrc_ok(pkt.data(), covered));
  // masked fields: TTL/TOS/checksum or TC/flow label/hop limit, UDP
  // checksum, BTH resv8a
  std::vector<u8> m = pkt;
  if (v6) {
    m[0] ^= 0x0f;
    m[1] ^= 0xff;
    m[3] ^= 0x5a;
    m[7] ^= 0x3c;
  } else {
    m[1] ^= 0xb8;
    m[8] ^= 0x7f;
    m[10] ^= 0x12;
  }
  m[iplen + 6] ^= 0x34;
  m[iplen + 8 + 4] ^= 0xc0;
  check(rxe_icrc_ok(m.data(), covered));
  // one covered bit, chosen by the input, flips
  u32 at = iplen + 8 + RXE_BTH_LEN + (p[len - 1] % (len - RXE_BTH_LEN));
  if (at >= covered)
    at = iplen + 8 + 5;  // BTH dest QPN
  m = pkt;
  m[at] ^= (u8)(1 << (p[0] & 7));
  check(!rxe_icrc_ok(m.data(), covered));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 8192)
    return 0;
  bool v6 = data[0] & 1;
  const u8 *p = data + 1;
  u32 len = (u32)(size - 1);

  check_parse(p, len);
  check_icrc(v6, p, len);
  // arbitrary bytes as an IP packet: no crash, no read past the end
  if (len >= RXE_ICRC_LEN) {
    std::vector<u8> raw(p, p + len);
    (void)rxe_icrc_ok(raw.data(), len - RXE_ICRC_LEN);
  }
  return 0;
}
