#!/usr/bin/env bash
# The layer rule, checked from the code's own #include lines (run by make test):
#   - a file includes only files of its own folder or of a folder below it;
#   - no two files include each other, directly or through others.
# The order, lowest first (docs/ARCHITECTURE.md draws it).  Folders on one
# line are siblings: neither may include the other.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, sys
LAYERS = [
    "base include/ulpsim",
    "isa",
    "isa/pica isa/tegra",
    "sim/core",
    "sim/out sim/check",
    "frontends/tgsi",
    "frontends/ir",
    "frontends/pica frontends/tegra",
    "units/pica units/gr3d",
    "units/geom",
    "units",
    "traces",
    "traces/replay",
    "traces/piglit traces/gl",
    "cli viewer bench tests fuzz frontends/gallium",
    "tests/base tests/isa tests/sim tests/frontends tests/units tests/traces tests/cli",
]
rank = {}
for i, line in enumerate(LAYERS):
    for d in line.split():
        rank[d] = i
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
files = []
tops = sorted({d.split('/')[0] for d in rank})
for top in tops:
    for dp, dn, fn in os.walk(top):
        dn.sort()
        files += [os.path.join(dp, f) for f in sorted(fn) if f.endswith(('.c', '.h', '.def'))]
bad = []
graph = {}
for f in files:
    d = os.path.dirname(f)
    if d not in rank:
        bad.append(f"{f}: folder {d} has no layer in scripts/check_layers.sh")
        continue
    text = open(f, encoding="utf-8", errors="replace").read()
    for m in inc.finditer(text):
        tgt = m.group(1)
        path = tgt if os.path.exists(tgt) else os.path.join(d, tgt)
        if not os.path.exists(path):
            path = os.path.join("include", tgt)
        if not os.path.exists(path):
            if tgt.split("/")[0] in tops:
                bad.append(f"{f}: includes {tgt}, which does not exist")
            continue                   # a system header
        line = text.count("\n", 0, m.start()) + 1
        td = os.path.dirname(os.path.normpath(path))
        graph.setdefault(f, set()).add(os.path.normpath(path))
        if td == d:
            continue
        if td not in rank:
            bad.append(f"{f}:{line}: includes {tgt} from {td}, a folder with no layer")
        elif rank[td] >= rank[d]:
            how = "a sibling" if rank[td] == rank[d] else "a layer above"
            bad.append(f"{f}:{line}: includes {tgt}: {td} is {how} of {d}")
# include loops between files
state = {}
def visit(n, stack):
    state[n] = 1
    stack.append(n)
    for m in sorted(graph.get(n, ())):
        if state.get(m) == 1:
            bad.append("include loop: " + " -> ".join(stack[stack.index(m):] + [m]))
        elif m not in state:
            visit(m, stack)
    stack.pop()
    state[n] = 2
for n in sorted(graph):
    if n not in state:
        visit(n, [])
for b in bad:
    print("check_layers: " + b, file=sys.stderr)
if bad:
    sys.exit(1)
print(f"check_layers: {len(files)} files, {sum(len(v) for v in graph.values())} includes, no upward include, no loop")
PY
