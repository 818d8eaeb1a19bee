#!/usr/bin/env python3
"""Turn KUnit's KTAP output (in kernel logs) into one line per test case.

usage: ktap.py [--prefix P] [--census FILE] LOG...
prints "PASS P<suite>.<case>" or "FAIL P<suite>.<case>" per case; a skipped
case is a FAIL (a skip never counts as a pass); cases a suite's plan
announced but that never reported (a crash mid-suite) are FAILs named
"<suite>.#<n>".  A suite whose own result line is "not ok" although none
of its cases failed (its init or exit failed) is a FAIL "P<suite> (suite
result not ok)".

--census FILE: lines "<module> <suite> <cases>" (kunit-census.py) of the
suites that must have run: each one missing from the logs is a FAIL
"P<suite> (declared by <module>, never ran)", each that reported another
number of cases than it declares a FAIL "P<suite> (N cases reported, M
declared)".

Exit status 1 when no log has any KTAP test at all.
"""
import re
import sys

LINE = re.compile(r'^(?:\[[ \d.]+\] )?(?P<body>.*)$')
RESULT = re.compile(r'^(?P<ind>\s*)(?P<ok>ok|not ok) (?P<num>\d+)(?: -)? (?P<name>[^#]*?)\s*(?:#\s*(?P<dir>.*))?$')
SUBTEST = re.compile(r'^(?P<ind>\s*)# Subtest: (?P<name>\S+)')
PLAN = re.compile(r'^(?P<ind>\s*)1\.\.(?P<n>\d+)')


def parse(lines, out, runs):
    """Appends (verdict, name) to @out and one (suite, cases reported,
    suite ok or None) per suite run to @runs."""
    suite = None          # current suite name
    suite_ind = None      # indentation of its cases
    plan = 0
    seen = set()
    failed = False

    def close_suite(suite_ok):
        if suite is None:
            return
        for n in range(1, plan + 1):
            if n not in seen:
                out.append(('FAIL', f'{suite}.#{n} (never reported)'))
        runs.append((suite, len(seen), suite_ok, failed))

    for body in lines:
        m = SUBTEST.match(body)
        # a Subtest deeper than the current suite's cases is a parameterised
        # case's own subtests: those roll up into the case's result line
        if m and (suite is None or suite_ind is None or
                  len(m.group('ind')) < suite_ind):
            close_suite(None)
            suite, suite_ind, plan, seen, failed = m.group('name'), None, 0, set(), False
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
                failed = failed or not ok
                out.append(('PASS' if ok else 'FAIL', f'{suite}.{name}'))
            elif ind < suite_ind:       # the suite's own result line
                close_suite(m.group('ok') == 'ok')
                suite = None
    close_suite(None)


def main(argv):
    prefix = ''
    census = None
    args = argv[1:]
    while len(args) >= 2 and args[0] in ('--prefix', '--census'):
        if args[0] == '--prefix':
            prefix = args[1]
        else:
            census = args[1]
        args = args[2:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    out = []
    runs = []
    for log in args:
        with open(log, errors='replace') as f:
            parse([LINE.match(l.rstrip('\n')).group('body') for l in f], out, runs)

    for suite, _, suite_ok, failed in runs:
        if suite_ok is False and not failed:
            out.append(('FAIL', f'{suite} (suite result not ok)'))
    if census is not None:
        with open(census) as f:
            for line in f:
                fields = line.split()
                if len(fields) != 3:
                    continue
                module, suite, declared = fields[0], fields[1], int(fields[2])
                reported = [n for s, n, _, _ in runs if s == suite]
                if not reported:
                    out.append(('FAIL', f'{suite} (declared by {module}, never ran)'))
                for n in reported:
                    if n != declared:
                        out.append(('FAIL', f'{suite} ({n} cases reported, {declared} declared)'))
    for verdict, name in out:
        print(f'{verdict} {prefix}{name}')
    return 0 if runs else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
