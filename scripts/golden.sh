#!/usr/bin/env bash
# Golden outputs for speed work: every figure a speed-up must leave bit for
# bit as it was (docs/speed.md).  Writes them to DIR:
#   - ulpsim-bench --check for both Tegra bench programs at two sizes
#     (cycles, every unit's busy/idle/stall/counters, a hash of the target);
#   - every sample trace replayed: image, stats, Perfetto, VCD and Kanata;
#   - `ulpsim tegra run --stats` over every grate test and Xrender program.
# Compare two runs with `diff -r OLD NEW`.
#
# usage: scripts/golden.sh DIR [BUILD]   (BUILD defaults to build/)
set -euo pipefail
out=${1:?usage: scripts/golden.sh DIR [BUILD]}
build=${2:-build}
corpus=${ULPSIM_CORPUS:-../shared/corpus}
bin=$build/ulpsim
bench=$build/ulpsim-bench
mkdir -p "$out"

for c in fs_vs blend_sat; do
	for s in 160x120 64x48; do
		ULPSIM_CORPUS=$corpus "$bench" tegra --case "$c" --size "$s" --reps 1 --check \
			> "$out/bench_${c}_$s.txt" 2>&1
		grep -v -E 'M +(pixel-EXECs|cycles)/s' "$out/bench_${c}_$s.txt" \
			> "$out/bench_${c}_$s.check" || true
		rm "$out/bench_${c}_$s.txt"
	done
done

for t in traces/samples/*.json; do
	case $t in *case.json) continue ;; esac
	n=$(basename "$t" .json)
	"$bin" replay "$t" -o "$out/$n.png" --stats "$out/$n.stats.txt" \
		--timeline "$out/$n.perfetto.json" --kanata "$out/$n.kanata.log" 2> /dev/null
	"$bin" replay "$t" --timeline "$out/$n.vcd" 2> /dev/null
	# the stats end with host timings: keep what is simulated
	grep -v -i -E 'host|seconds|per_second|wall' "$out/$n.stats.txt" > "$out/$n.stats" || true
	rm "$out/$n.stats.txt"
done

find "$corpus/tegra" -name '*.asm' -o -name '*_fs.txt' | sort | while read -r p; do
	n=$(echo "${p#"$corpus"/tegra/}" | tr '/' '_')
	"$bin" tegra run "$p" --size 24x16 --varying t0=0.25,0.5,0.75,1 \
		--uniform u0=0.5 --uniform u1=0.25 -o "$out/run_$n.png" --stats \
		> "$out/run_$n.txt" 2>&1 || echo "exit $?" >> "$out/run_$n.txt"
done
echo "golden: $(find "$out" -type f | wc -l) files in $out"
