#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Turn vm-bench.sh's raw lines ("STACK ROW VALUE|fail") into the table
make bench prints and a CSV; append the same rows to a history CSV."""

import argparse
import csv
import os
import sys

# row -> (unit, which direction is better, description)
ROWS = {
    "write_bw_64k": ("MiB/s", "higher", "ib_write_bw 64 KiB, 1 QP, average"),
    "send_rate_64b_q4": ("Mpps", "higher", "ib_send_bw 64 B, 4 QPs, message rate"),
    "send_lat_2b": ("usec", "lower", "ib_send_lat 2 B, typical"),
    "read_lat_2b": ("usec", "lower", "ib_read_lat 2 B, typical"),
    "read_bw_64k": ("MiB/s", "higher", "ib_read_bw 64 KiB, 1 QP, average"),
    "atomic_rate": ("Mpps", "higher", "ib_atomic_bw 8 B FETCH_ADD, message rate"),
    # rxe0 -> rxe1 across a veth pair with netem loss on both ends
    "netem_write_bw_64k": ("MiB/s", "higher", "ib_write_bw 64 KiB, rxe0->rxe1, netem loss {loss}"),
    "netem_read_bw_64k": ("MiB/s", "higher", "ib_read_bw 64 KiB, rxe0->rxe1, netem loss {loss}"),
    "netem_send_lat_2b": ("usec", "lower", "ib_send_lat 2 B, rxe0->rxe1, netem loss {loss}, average"),
}
NETEM_LOSS = "1%"
STACKS = ("upstream", "ours")
FIELDS = ["time", "flavor", "kernel", "commit", "row", "unit", "better",
          "upstream", "ours", "ratio", "note"]


def row_info(name):
    if name in ROWS:
        unit, better, what = ROWS[name]
        return unit, better, what.format(loss=NETEM_LOSS)
    if name.startswith(("reg_mr_", "dereg_mr_")):
        size = name.rsplit("_", 1)[1].upper().replace("M", " MiB")
        verb = "ibv_reg_mr" if name.startswith("reg") else "ibv_dereg_mr"
        pages = " in 2 MiB pages" if "_huge_" in name else ""
        return ("ms", "lower", f"{verb} {size}{pages}, median")
    if name.startswith("cmtime_connect_"):
        n = name.rsplit("_", 1)[1]
        return ("us", "lower", f"cmtime connect, {n} connections, us per connection")
    return ("?", "?", name)


def bench_row(name):
    """The BENCH_ROWS name that runs table row @name."""
    if name.startswith(("reg_mr_huge_", "dereg_mr_huge_")):
        return "reg_mr_huge"
    if name.startswith(("reg_mr_", "dereg_mr_")):
        return "reg_mr"
    if name.startswith("cmtime_connect_"):
        return "cmtime"
    return name


def parse_raw(path, reg_mib, reg_huge_mib, only=()):
    values, order = {}, []
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) != 3:
                    continue
                stack, row, value = parts
                if row not in order:
                    order.append(row)
                values[(stack, row)] = value
    except FileNotFoundError:
        pass
    # a VM that died early still gives every row
    for row in list(ROWS) + [f"{v}_{reg_mib}m" for v in ("reg_mr", "dereg_mr")] + \
            [f"{v}_huge_{reg_huge_mib}m" for v in ("reg_mr", "dereg_mr")]:
        if row not in order and (not only or bench_row(row) in only):
            order.append(row)
    return values, order


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--flavor", required=True)
    ap.add_argument("--kernel", default="")
    ap.add_argument("--commit", default="")
    ap.add_argument("--stamp", required=True)
    ap.add_argument("--note", default="")
    ap.add_argument("--reg-mib", default="1024")
    ap.add_argument("--reg-huge-mib", default="512")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--history", required=True)
    ap.add_argument("--rows", default="",
                    help="BENCH_ROWS: the rows that ran (default all)")
    ap.add_argument("--netem-loss", default="1%",
                    help="BENCH_NETEM_LOSS: the loss of the netem_* rows")
    a = ap.parse_args()
    global NETEM_LOSS
    NETEM_LOSS = a.netem_loss

    values, order = parse_raw(a.raw, a.reg_mib, a.reg_huge_mib,
                              tuple(a.rows.split()))
    out = []
    for row in order:
        unit, better, _ = row_info(row)
        up = values.get(("upstream", row), "fail")
        ours = values.get(("ours", row), "fail")
        u, o = number(up), number(ours)
        ratio = f"{o / u:.3f}" if u and o is not None else "-"
        out.append({"time": a.stamp, "flavor": a.flavor, "kernel": a.kernel,
                    "commit": a.commit, "row": row, "unit": unit,
                    "better": better, "upstream": up, "ours": ours,
                    "ratio": ratio,
                    "note": ";".join(n for n in (a.note, f"netem-loss={a.netem_loss}"
                                                 if row.startswith("netem_") else "") if n)})

    title = f"make bench {a.stamp}: kernel {a.kernel} ({a.flavor} flavor), ours at {a.commit}"
    print(title)
    if a.flavor != "perf":
        print("WARNING: debug kernel (KASAN, lockdep, kmemleak...): "
              "these numbers are not performance numbers")
    if a.note:
        print(f"note: {a.note}")
    w = max(len(row_info(r["row"])[2]) for r in out)
    hdr = f"{'row':<{w}}  {'unit':<6} {'upstream':>10} {'ours':>10} {'ours/up':>8}  better"
    print(hdr)
    print("-" * len(hdr))
    for r in out:
        print(f"{row_info(r['row'])[2]:<{w}}  {r['unit']:<6} {r['upstream']:>10} "
              f"{r['ours']:>10} {r['ratio']:>8}  {r['better']}")

    with open(a.csv, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=FIELDS)
        wr.writeheader()
        wr.writerows(out)
    new = not os.path.exists(a.history) or os.path.getsize(a.history) == 0
    with open(a.history, "a", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            wr.writeheader()
        wr.writerows(out)
    print(f"CSV: {a.csv} (history: {a.history})")
    have = [r for r in out if number(r["upstream"]) is not None]
    return 0 if have else 1


if __name__ == "__main__":
    sys.exit(main())
