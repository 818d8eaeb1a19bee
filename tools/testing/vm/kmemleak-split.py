#!/usr/bin/env python3
"""Split a kmemleak report into the harness's own deliberate leak and the rest.

usage: kmemleak-split.py REPORT
prints "harness N" (objects leaked by the harness_leak self-test module:
its backtrace names harness_leak, or its hex dump shows the marker
"harness-leak-selftest") and "other M", then every other object's report.
Exit status 0 when M is 0, 1 otherwise, 2 when REPORT cannot be read.
"""
import sys


def main(argv):
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
    other = [b for b in blocks if b not in mine]
    print(f'harness {len(mine)}')
    print(f'other {len(other)}')
    for b in other[:20]:
        print('\n'.join(b))
    return 0 if not other else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
