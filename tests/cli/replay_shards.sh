#!/usr/bin/env bash
# The sharding of `ulpsim replay DIR` run as a user runs it on many hosts
# (docs/replay.md "Many frames"): the shards of FRAMES as GNU parallel jobs,
# their reports merged, the merge compared with a serial run of the whole
# folder, byte for byte (summary and report).  Called by the Criterion test
# replay_dir.gnu_parallel_shards (tests/cli/test_replay_dir.c).
#   tests/cli/replay_shards.sh FRAMES OUT N
# ULPSIM_BIN: the binary (default build/ulpsim).  Exit 0 when equal.
set -euo pipefail
frames=$1 out=$2 n=$3
bin=${ULPSIM_BIN:-build/ulpsim}
command -v parallel >/dev/null || { echo "replay_shards.sh: GNU parallel is missing (make deps)" >&2; exit 3; }
mkdir -p "$out"
"$bin" replay "$frames" --jobs 1 --report "$out/serial.json" >"$out/serial.txt" 2>/dev/null
# one job per shard, two at a time; each shard replays its frames on one worker
seq 1 "$n" | parallel --will-cite --halt now,fail=1 -j2 \
    "$bin" replay "$frames" --shard "{}/$n" --jobs 1 --report "$out/shard{}.json" ">$out/shard{}.txt" "2>/dev/null"
reports=()
for k in $(seq "$n" -1 1); do reports+=("$out/shard$k.json"); done   # any order
"$bin" replay --merge "${reports[@]}" --report "$out/merged.json" >"$out/merged.txt"
cmp "$out/serial.txt" "$out/merged.txt"
cmp "$out/serial.json" "$out/merged.json"
