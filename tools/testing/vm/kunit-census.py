#!/usr/bin/env python3
"""List the KUnit suites our test modules declare, from their sources.

usage: kunit-census.py ROOT
prints one line per suite: "<module> <suite> <number of cases>", for every
tests/Kbuild under ROOT/drivers: each obj-m module's objects ("X-y := a.o
b.o", or X.o alone) map to a.c, b.c; in those, every "kunit_test_suite(s)
(&v, ...)" names a "struct kunit_suite v = { .name = "S", .test_cases = C }"
and C's array of KUNIT_CASE*() entries gives the case count (a
parameterised case is one case, as ktap.py counts it).

The VM runner compares this census with the KTAP the run produced: a
declared suite that never reported, or reported another number of cases,
is a failure.  Exit status 1 when a declaration cannot be understood (the
census must not silently shrink).
"""
import os
import re
import sys

OBJ_M = re.compile(r'^obj-(?:m|\$\(CONFIG_KUNIT\))\s*\+=\s*(.+)$', re.M)
OBJS = re.compile(r'^([\w-]+)-y\s*[:+]?=\s*(.+)$', re.M)
REGISTER = re.compile(r'\bkunit_test_suites?\s*\(([^;]*?)\)\s*;', re.S)
SUITE = re.compile(r'struct\s+kunit_suite\s+(\w+)\s*=\s*\{(.*?)\};', re.S)
CASES = re.compile(r'struct\s+kunit_case\s+(\w+)\s*\[\s*\]\s*=\s*\{(.*?)\};', re.S)
CASE = re.compile(r'\bKUNIT_CASE(?:_PARAM|_SLOW|_ATTR|_PARAM_ATTR)?\s*\(')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def modules(kbuild):
    """{module: [source paths]} of one tests/Kbuild"""
    d = os.path.dirname(kbuild)
    text = re.sub(r'\\\n', ' ', open(kbuild).read())
    text = re.sub(r'#[^\n]*', '', text)
    parts = {}
    for m in OBJS.finditer(text):
        parts.setdefault(m.group(1), []).extend(m.group(2).split())
    out = {}
    for m in OBJ_M.finditer(text):
        for obj in m.group(1).split():
            if not obj.endswith('.o'):
                continue
            mod = obj[:-2]
            objs = parts.get(mod, [obj])
            out[mod] = [os.path.join(d, o[:-2] + '.c') for o in objs]
    return out


def suites(src):
    """[(suite name, case count)] registered in one source file"""
    text = strip_comments(open(src).read())
    found = []
    cases = {m.group(1): len(CASE.findall(m.group(2))) for m in CASES.finditer(text)}
    defs = {m.group(1): m.group(2) for m in SUITE.finditer(text)}
    for reg in REGISTER.finditer(text):
        for var in re.findall(r'&?\s*(\w+)', reg.group(1)):
            body = defs.get(var)
            if body is None:
                raise ValueError(f'{src}: suite variable {var} not found')
            name = re.search(r'\.name\s*=\s*"([^"]+)"', body)
            tc = re.search(r'\.test_cases\s*=\s*(\w+)', body)
            if not name or not tc or tc.group(1) not in cases:
                raise ValueError(f'{src}: suite {var}: no .name or .test_cases array')
            found.append((name.group(1), cases[tc.group(1)]))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = []
    try:
        for top, _, files in os.walk(os.path.join(argv[1], 'drivers')):
            if os.path.basename(top) != 'tests' or 'Kbuild' not in files:
                continue
            for mod, srcs in sorted(modules(os.path.join(top, 'Kbuild')).items()):
                for src in srcs:
                    if os.path.exists(src):
                        rows += [(mod, s, n) for s, n in suites(src)]
    except (OSError, ValueError) as e:
        print(f'kunit-census: {e}', file=sys.stderr)
        return 1
    for mod, s, n in sorted(rows):
        print(mod, s, n)
    return 0 if rows else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
