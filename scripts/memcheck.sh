#!/usr/bin/env bash
# make memcheck: what ASan and UBSan cannot see (a read of memory nothing
# wrote: session 9 found one in the MFU only by replaying captures under
# valgrind).  Valgrind's memcheck runs the CLI over the sample traces and
# the bundled captures, with the computed stages on and off and on Tegra 3's
# two blocks and threads, every Tegra program of the corpus, and the bench's
# Tegra and PICA200 programs at a small size.  Any error fails (exit 1) and names the run.
#
# usage: scripts/memcheck.sh [BUILD]   (BUILD defaults to build/)
set -euo pipefail
build=${1:-build}
bin=$build/ulpsim
bench=$build/ulpsim-bench
corpus=${ULPSIM_CORPUS:-../shared/corpus}
command -v valgrind >/dev/null || { echo "memcheck: valgrind is needed (make deps)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vg=(valgrind --quiet --error-exitcode=99 --exit-on-first-error=yes --leak-check=no
    --undef-value-errors=yes --track-origins=yes)
runs=0 failed=0
run() {   # name, command...: a memcheck error (99) or a crash fails; the
	       # command's own verdicts (1: a check failed, as a capture's
	       # cycles on another GPU; 2: refused) do not
	local name=$1 rc=0
	shift
	runs=$((runs + 1))
	"${vg[@]}" --log-file="$tmp/log" "$@" > "$tmp/out" 2>&1 || rc=$?
	if [ "$rc" -eq 99 ] || [ "$rc" -ge 128 ]; then
		echo "memcheck: $name (exit $rc):" >&2
		cat "$tmp/log" "$tmp/out" >&2
		failed=$((failed + 1))
	fi
}
for t in traces/samples/*.json traces/captures/*/*.json; do
	case $t in *case.json) continue ;; esac
	run "$t" "$bin" replay "$t" -o "$tmp/a.png"
	run "$t (sim.gr3d_chain=false)" "$bin" replay "$t" -o "$tmp/b.png" --set sim.gr3d_chain=false
	run "$t (tegra3, two threads)" "$bin" replay "$t" -o "$tmp/c.png" --set preset=tegra3 --threads 2
done
# every Tegra program of the corpus (grate's tests, the Xrender programs) on a
# small target, with the computed stages and without
while read -r p; do
	run "tegra run $p" "$bin" tegra run "$p" --size 24x16 --varying t0=0.25,0.5,0.75,1 \
		--uniform u0=0.5 --uniform u1=0.25 -o "$tmp/d.png"
	run "tegra run $p (sim.gr3d_chain=false)" "$bin" tegra run "$p" --size 24x16 \
		--varying t0=0.25,0.5,0.75,1 --uniform u0=0.5 --uniform u1=0.25 -o "$tmp/d.png" \
		--set sim.gr3d_chain=false
done < <(find "$corpus/tegra" -name '*.asm' -o -name '*_fs.txt' | sort)
for c in fs_vs blend_sat; do
	run "bench tegra $c" env ULPSIM_CORPUS="$corpus" "$bench" tegra --case "$c" --size 32x24 --reps 1 --check
done
run "bench pica" env ULPSIM_CORPUS="$corpus" "$bench" pica --vertices 101 --reps 1 --check
if [ "$failed" -ne 0 ]; then
	echo "memcheck: $failed of $runs runs failed" >&2
	exit 1
fi
echo "memcheck: $runs runs, no errors"
