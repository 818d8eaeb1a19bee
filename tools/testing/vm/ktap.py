#!/usr/bin/env python3
"""Turn KUnit's KTAP output (in a kernel log) into one line per test case.

usage: ktap.py [--prefix P] LOG
prints "PASS P<suite>.<case>" or "FAIL P<suite>.<case>" per case; a skipped
case is a FAIL (a skip never counts as a pass); cases a suite's plan
announced but that never reported (a crash mid-suite) are FAILs named
"<suite>.#<n>".  Exit status 1 when the log has no KTAP test at all.
"""
import re
import sys

LINE = re.compile(r'^(?:\[[ \d.]+\] )?(?P<body>.*)$')
RESULT = re.compile(r'^(?P<ind>\s*)(?P<ok>ok|not ok) (?P<num>\d+)(?: -)? (?P<name>[^#]*?)\s*(?:#\s*(?P<dir>.*))?$')
SUBTEST = re.compile(r'^(?P<ind>\s*)# Subtest: (?P<name>\S+)')
PLAN = re.compile(r'^(?P<ind>\s*)1\.\.(?P<n>\d+)')


def main(argv):
    prefix = ''
    args = argv[1:]
    if len(args) >= 2 and args[0] == '--prefix':
        prefix, args = args[1], args[2:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], errors='replace') as f:
        lines = [LINE.match(l.rstrip('\n')).group('body') for l in f]

    out = []
    suite = None          # current suite name
    suite_ind = None      # indentation of its cases
    plan = 0
    seen = set()

    def close_suite():
        if suite is None:
            return
        for n in range(1, plan + 1):
            if n not in seen:
                out.append(('FAIL', f'{suite}.#{n} (never reported)'))

    for body in lines:
        m = SUBTEST.match(body)
        # a Subtest deeper than the current suite's cases is a parameterised
        # case's own subtests: those roll up into the case's result line
        if m and (suite is None or suite_ind is None or
                  len(m.group('ind')) < suite_ind):
            close_suite()
            suite, suite_ind, plan, seen = m.group('name'), None, 0, set()
            continue
        m = PLAN.match(body)
        if m and suite is not None and suite_ind is None:
            suite_ind = len(m.group('ind'))
            plan = int(m.group('n'))
            continue
        m = RESULT.match(body)
        if m and suite is not None and suite_ind is not None:
            ind = len(m.group('ind'))
            if ind == suite_ind:
                name = m.group('name').strip()
                directive = (m.group('dir') or '').strip().upper()
                ok = m.group('ok') == 'ok' and not directive.startswith('SKIP')
                seen.add(int(m.group('num')))
                out.append(('PASS' if ok else 'FAIL', f'{suite}.{name}'))
            elif ind < suite_ind:       # the suite's own result line
                close_suite()
                suite = None
    close_suite()
    for verdict, name in out:
        print(f'{verdict} {prefix}{name}')
    return 0 if out else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
