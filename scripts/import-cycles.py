#!/usr/bin/env python3
"""Import cycles among the files of one Rust crate, following folders and re-exports.

The shared tool (../shared/tools/import-cycles.py) maps a `crate::a::b` path to the file `a/b.rs`
and so misses every path that reaches a module through a re-export (`crate::position` when the
file is `core/position.rs`, `crate::rules::Rules` when `Rules` lives in `rules/compiled.rs`). This
one resolves each path the way rustc does for the cases this repository uses: child modules,
`pub use` (also `use`, `pub(crate) use`, `pub use x::*`) in the module the path passes through,
`super::`, `self::` and paths relative to the current module. Unit tests (`#[cfg(test)] mod
tests { .. }`) are left out, as in the shared tool.

Usage: import-cycles.py SRC_DIR [MAX] [--edges] [--layers]
  prints the strongly connected components of more than one file, largest first, and the largest
  size last; exit 1 when it exceeds MAX. --edges prints every file's imports; --layers prints
  the imports that go up (core -> rules/play, rules -> play)."""
import os
import re
import sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
flags = {a for a in sys.argv[1:] if a.startswith('--')}
src = args[0]
limit = int(args[1]) if len(args) > 1 else 10**9

files = {}  # module path (tuple) -> file
for root, _, names in os.walk(src):
    for n in names:
        if n.endswith('.rs'):
            p = os.path.join(root, n)
            rel = os.path.relpath(p, src)[:-3].split(os.sep)
            if rel[-1] in ('mod', 'lib', 'main'):
                rel = rel[:-1]
            files[tuple(rel)] = p


def strip(text):
    """The code of a file without comments, string and char literals (one left-to-right scan, so
    that a quote inside a comment or a `{` inside a string does not count), nor unit tests."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            i = text.find('\n', i)
            i = n if i < 0 else i
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
        elif c == 'r' and re.match(r'r#*"', text[i:i + 8]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            j = text.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if j < 0 else j + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append('""')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^'\\])'", text[i:i + 4]):
            j = text.find("'", i + 2 if text[i + 1] == '\\' else i + 1)
            out.append("' '")
            i = j + 1
        else:
            out.append(c)
            i += 1
    text = ''.join(out)
    # unit tests apart: from `#[cfg(test)] mod NAME {` to its closing brace
    out, i = [], 0
    for m in re.finditer(r'#\[cfg\(test\)\]\s*mod\s+\w+\s*\{', text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return ''.join(out)


texts = {m: strip(open(p, encoding='utf-8').read()) for m, p in files.items()}


def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (aliases dropped)."""
    tree = re.sub(r'\s+', '', tree)
    i = tree.find('{')
    if i < 0:
        return [tree.split('as')[0] if re.search(r'\bas\b', tree) else tree]
    prefix, depth, parts, cur = tree[:i], 0, [], ''
    for ch in tree[i + 1:tree.rfind('}')]:
        if ch == ',' and depth == 0:
            parts.append(cur)
            cur = ''
            continue
        depth += {'{': 1, '}': -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    res = []
    for part in parts:
        if part:
            res += [prefix + x if x != 'self' else prefix.rstrip(':') for x in expand(part)]
    return res


USE = re.compile(r'(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);', re.S)
uses = {m: [] for m in files}  # module -> [(is_reexport, path string)]
for m, text in texts.items():
    for mm in USE.finditer(text):
        for path in expand(mm.group(2)):
            uses[m].append(path)


def absolute(mod, segs):
    """Segments of a path written in module `mod` -> absolute segments, or None if external."""
    segs = [s for s in segs if s]
    if not segs:
        return None
    if segs[0] == 'crate':
        return segs[1:]
    if segs[0] == 'self':
        return list(mod) + segs[1:]
    if segs[0] == 'super':
        base = list(mod)
        while segs and segs[0] == 'super':
            base = base[:-1]
            segs = segs[1:]
        return base + segs
    # relative to the current module: a child module or a name imported/re-exported here
    if tuple(mod) + (segs[0],) in files or segs[0] in names_in(mod):
        return list(mod) + segs
    return None


def names_in(mod):
    """Names brought into `mod` by its use statements -> absolute target segments."""
    out = {}
    for path in uses.get(tuple(mod), []):
        segs = path.split('::')
        if segs[-1] == '*':
            continue
        out[segs[-1]] = segs
    return out


def globs_in(mod):
    return [p.split('::')[:-1] for p in uses.get(tuple(mod), []) if p.endswith('::*')]


ITEM = r'\b(?:struct|enum|fn|const|static|type|trait|mod|union)\s+%s\b'


def defines(mod, name):
    return re.search(ITEM % re.escape(name), texts[tuple(mod)]) is not None


def lookup(mod, name, depth):
    """The file (module tuple) where `name`, reached through module `mod`, is defined (a child
    module counts as defined by its own file), or None when `mod` has no such name."""
    if depth > 20:
        return None
    child = tuple(mod) + (name,)
    if child in files:
        return child
    if defines(mod, name):
        return tuple(mod)
    named = names_in(mod).get(name)
    if named is not None:
        target = absolute(mod, named)
        if target is not None and target != list(mod) + [name]:
            return walk(target, depth + 1)
    for g in globs_in(mod):
        target = absolute(mod, g)
        if target is not None and tuple(target) in files:
            found = lookup(tuple(target), name, depth + 1)
            if found is not None:
                return found
    return None


def walk(segs, depth=0):
    """Absolute segments -> the file that defines the last item reached: each segment is looked
    up in the module (or the file of the item) the path has reached so far."""
    mod = ()
    for seg in segs:
        found = lookup(mod, seg, depth)
        if found is None:
            return mod  # a name this tool cannot follow (an associated item): charged to `mod`
        mod = found
    return mod


def resolve(segs):
    return walk(segs)


INLINE = re.compile(r'\b((?:crate|super|self)(?:::\w+)+)')
edges = {m: set() for m in files}
for m, text in texts.items():
    body = USE.sub(' ', text)
    paths = list(uses[m]) + INLINE.findall(body)
    for path in paths:
        a = absolute(m, path.split('::'))
        if a is None:
            continue
        t = resolve(a)
        if t is not None and t != m and t != () and not (len(t) < len(m) and m[:len(t)] == t and t in ((),)):
            # a module's own children import from their parent mod.rs: that's an edge too
            edges[m].add(t)

if '--edges' in flags:
    for m in sorted(files):
        print('/'.join(m) or 'lib', '->', ', '.join(sorted('/'.join(t) for t in edges[m])))

LAYER = {'core': 0, 'rules': 1, 'play': 2}
if '--layers' in flags:
    for m in sorted(files):
        for t in sorted(edges[m]):
            if m and t and m[0] in LAYER and t[0] in LAYER and LAYER[t[0]] > LAYER[m[0]]:
                print('up: %s -> %s' % ('/'.join(m), '/'.join(t)))

index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(comp)


for v in files:
    if v not in index:
        visit(v)
big = sorted((c for c in sccs if len(c) > 1), key=len, reverse=True)
for c in big:
    print('cycle of %d files: %s' % (len(c), ', '.join(sorted('/'.join(x) + '.rs' for x in c))))
n = len(big[0]) if big else 1
print('largest import cycle: %d file%s (%d files, %d import edges)'
      % (n, '' if n == 1 else 's', len(files), sum(len(e) for e in edges.values())))
sys.exit(0 if n <= limit else 1)
