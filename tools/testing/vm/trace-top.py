#!/usr/bin/env python3
"""Where a scenario spends its time: sum up a SCENARIO_TRACE trace.

usage: trace-top.py NAME.trace [N]
A trace line is "+ <EPOCHREALTIME> <command>" (bash -x with that PS4);
each command is charged the time until the next line.  Prints the N
(default 25) most expensive commands (by text, with their count), then
the total.
"""
import collections
import re
import sys

LINE = re.compile(r'^\++ (\d+\.\d+) (.*)$')


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    n = int(argv[2]) if len(argv) == 3 else 25
    rows = []
    for line in open(argv[1], errors='replace'):
        m = LINE.match(line.rstrip('\n'))
        if m:
            rows.append((float(m.group(1)), m.group(2)[:100]))
    cost = collections.Counter()
    count = collections.Counter()
    for (t, cmd), (t2, _) in zip(rows, rows[1:]):
        cost[cmd] += t2 - t
        count[cmd] += 1
    for cmd, c in cost.most_common(n):
        print(f'{c:8.2f} s {count[cmd]:5d}x  {cmd}')
    if rows:
        print(f'{rows[-1][0] - rows[0][0]:8.2f} s total, {len(rows)} commands')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
