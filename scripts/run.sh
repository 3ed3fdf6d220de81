#!/usr/bin/env bash
# make run: the main job on the bundled default.  Until the simulator core can
# replay traces, it converts the hardware-verified colours of grate's tests.
set -euo pipefail
bin=${1:-build/ulpsim}
echo "ulpsim: number formats of the Tegra colour path (tegra-fp.md §7):"
for v in 0.1 0.2 0.3 0.4 0.5 1.0; do "$bin" num fp20 "$v" --round truncate; done
"$bin" num f24 1.0
