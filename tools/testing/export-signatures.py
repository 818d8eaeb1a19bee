#!/usr/bin/env python3
"""export-signatures.py REPO KSRC: every function our modules export
(EXPORT_SYMBOL*) whose name upstream declares too (KSRC/include/rdma,
KSRC/include/trace/events/ib_*, KSRC/drivers/infiniband/core/*.h) must have
upstream's return type and parameter types: a user of the upstream name
gets the upstream contract or a link error, never a silent mismatch.

Prints one line per mismatch and exits 1, or prints "export signatures:
N shared names, all as upstream" and exits 0.  Parameter names, spacing
and `extern` do not matter; types are compared as written after that.
"""
import glob
import os
import re
import sys


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def split_params(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return [p.strip() for p in out if p.strip()]


def norm_type(t):
    t = re.sub(r'\b(extern|static|inline|__must_check|__always_inline|'
               r'noinline|__attribute_const__|__printf\(\d+,\s*\d+\))\b', ' ', t)
    t = re.sub(r'\s*\*\s*', '*', t)
    return re.sub(r'\s+', ' ', t).strip()


def param_type(p):
    p = re.sub(r'\s+', ' ', p).strip()
    # function pointer: drop the name inside (*name)
    m = re.match(r'^(.*)\(\s*\*\s*\w*\s*\)\s*(\(.*\))$', p)
    if m:
        inner = ','.join(param_type(x) for x in split_params(m.group(2)[1:-1]))
        return norm_type(m.group(1)) + '(*)(' + inner + ')'
    p = re.sub(r'\[[^\]]*\]$', '*', p)  # array parameter: a pointer
    if p.endswith('*') or p in ('void', '...'):
        return norm_type(p)
    toks = re.findall(r'\*|\w+', p)
    words = [t for t in toks if t != '*']
    keep_all = (len(words) == 1 or
                (len(words) == 2 and words[0] in ('struct', 'union', 'enum')) or
                (len(words) == 3 and words[0] == 'const' and
                 words[1] in ('struct', 'union', 'enum')) or
                all(w in ('unsigned', 'signed', 'int', 'long', 'short', 'char', 'const')
                    for w in words))
    if not keep_all:
        p = re.sub(r'\w+$', '', p)
    return norm_type(p)


DECL = re.compile(r'(?:^|[;}\n])\s*([A-Za-z_][\w\s\*]*?[\s\*])\b(\w+)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*[;{]', re.S)


def prototypes(files):
    protos = {}
    for f in files:
        try:
            text = strip_comments(open(f, errors='replace').read())
        except OSError:
            continue
        text = re.sub(r'^\s*#.*?(?<!\\)$', ' ', text, flags=re.M)
        for m in DECL.finditer(text):
            ret, name, params = m.group(1), m.group(2), m.group(3)
            if re.search(r'\b(return|if|while|for|switch|sizeof|typedef|define)\b', ret):
                continue
            sig = (norm_type(ret), tuple(param_type(p) for p in split_params(params)))
            if sig[1] == ('void',):
                sig = (sig[0], ())
            protos.setdefault(name, set()).add(sig)
    return protos


def main():
    repo, ksrc = sys.argv[1], sys.argv[2]
    ours_c = [f for f in glob.glob(os.path.join(repo, 'drivers/**/*.c'), recursive=True)
              if '/tests/' not in f]
    exported = set()
    for f in ours_c:
        exported.update(re.findall(r'EXPORT_SYMBOL(?:_GPL)?\(\s*(\w+)\s*\)',
                                   open(f, errors='replace').read()))
    ours_h = (glob.glob(os.path.join(repo, 'include/**/*.h'), recursive=True) +
              glob.glob(os.path.join(repo, 'drivers/**/*.h'), recursive=True))
    ours = prototypes(ours_h + ours_c)
    up_files = (glob.glob(os.path.join(ksrc, 'include/rdma/*.h')) +
                glob.glob(os.path.join(ksrc, 'drivers/infiniband/core/*.h')))
    upstream = prototypes(up_files)
    shared = sorted(n for n in exported if n in upstream)
    bad = 0
    for n in shared:
        if n not in ours:
            print(f'{n}: exported, but no prototype found in our tree')
            bad += 1
            continue
        if not (ours[n] & upstream[n]):
            o = sorted(ours[n])[0]
            u = sorted(upstream[n])[0]
            print(f'{n}: ours {o[0]} ({", ".join(o[1])}); '
                  f'upstream {u[0]} ({", ".join(u[1])})')
            bad += 1
    if bad:
        print(f'export signatures: {bad} of {len(shared)} shared names differ from upstream')
        return 1
    print(f'export signatures: {len(shared)} shared names, all as upstream')
    return 0


if __name__ == '__main__':
    sys.exit(main())
