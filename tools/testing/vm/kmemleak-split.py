#!/usr/bin/env python3
"""Split a kmemleak report into the harness's own deliberate leak and the rest.

usage: kmemleak-split.py [--since JIFFIES] REPORT
prints "harness N" (objects leaked by the harness_leak self-test module:
its backtrace names harness_leak, or its hex dump shows the marker
"harness-leak-selftest"), "boot B" (with --since: objects allocated
before that jiffies value, i.e. before the scenarios began) and "other
M", then every other object's report.
Exit status 0 when M is 0, 1 otherwise, 2 when REPORT cannot be read.
"""
import re
import sys

JIFFIES = re.compile(r'^\s*comm ".*", pid \d+, jiffies (\d+)')


def jiffies(block):
    """when the object was allocated (kmemleak's "jiffies N" line)"""
    for line in block:
        m = JIFFIES.match(line)
        if m:
            return int(m.group(1))
    return None


def main(argv):
    since = None
    if len(argv) == 4 and argv[1] == '--since':
        since = int(argv[2])
        argv = [argv[0], argv[3]]
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        text = open(argv[1], errors='replace').read()
    except OSError as e:
        print(f'kmemleak-split: {e}', file=sys.stderr)
        return 2
    blocks = []
    for line in text.splitlines():
        if line.startswith('unreferenced object '):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    mine = [b for b in blocks
            if any('harness_leak' in l or 'harness-leak-sel' in l for l in b)]
    rest = [b for b in blocks if b not in mine]
    boot = [b for b in rest
            if since is not None and jiffies(b) is not None and jiffies(b) < since]
    other = [b for b in rest if b not in boot]
    print(f'harness {len(mine)}')
    print(f'boot {len(boot)}')
    print(f'other {len(other)}')
    for b in other[:20]:
        print('\n'.join(b))
    return 0 if not other else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
