#!/usr/bin/env bash
# Runs libFuzzer targets for SECONDS each (make fuzz), or, with SECONDS
# given as "smoke", a fixed number of inputs each from seed 1 (make
# fuzz-smoke, what CI runs: the same inputs on every run, so that CI is
# reproducible; finding new bugs is the timed campaign's job).
#   fuzz/run.sh BUILD SECONDS|smoke CORPUS target...
# Seeds: files of the target's format from CORPUS (../shared/corpus) and
# traces/, copied once into BUILD/fuzz/seeds/<target>; the growing corpus
# is BUILD/fuzz/corpus/<target>; dictionaries fuzz/dict/<format>.dict.
# A finding (crash, sanitizer report, leak, timeout, out of memory) is
# written to BUILD/fuzz/findings/<target>-*; the script prints its path and
# exits 1 after running every target.  A summary line per target gives
# execs, execs/s and coverage (cov: edges, ft: features) from libFuzzer.
set -uo pipefail
build=${1:?usage: fuzz/run.sh BUILD SECONDS CORPUS target...}
secs=${2:?}
corpus=${3:?}
shift 3
cd "$(dirname "$0")/.."

# target -> the file names (globs) of its seeds, and its dictionary
seeds_of() {
	case $1 in
	fuzz_tgsi|fuzz_compile_pica|fuzz_compile_tegra) echo "*.tgsi" ;;
	fuzz_trace|fuzz_replay|fuzz_session) echo "*.json" ;;
	fuzz_shbin) echo "*.shbin" ;;
	fuzz_pica_asm) echo "*.pica *.vsh *.gsh" ;;
	fuzz_tegra_asm) echo "*.asm *_fs.txt" ;;
	fuzz_fp_words) echo "*.words" ;;
	fuzz_fp_container) echo "*.asm" ;;
	fuzz_png) echo "*.png" ;;
	fuzz_piglit) echo "test.txt" ;;
	fuzz_replay_report) echo "*.json *.txt" ;;
	fuzz_gl_state) echo "*.bin" ;;
	*) echo "none" ;;
	esac
}
dict_of() {
	case $1 in
	fuzz_tgsi|fuzz_compile_pica|fuzz_compile_tegra) echo tgsi ;;
	fuzz_trace|fuzz_replay|fuzz_session) echo trace ;;
	fuzz_pica_asm) echo pica_asm ;;
	fuzz_tegra_asm|fuzz_fp_words) echo tegra_asm ;;
	fuzz_fp_container) echo fp_container ;;
	fuzz_png) echo png ;;
	fuzz_piglit) echo piglit ;;
	fuzz_replay_report) echo replay_report ;;
	fuzz_gl_state) echo tgsi ;;
	*) echo "" ;;
	esac
}

# make fuzz-smoke: inputs per target, about 15 s each on a 2-core machine
# (a CI run's execs in 15 s, rounded down); the same seed every run.
smoke_runs_of() {
	case $1 in
	fuzz_tgsi|fuzz_fp_container|fuzz_shbin) echo 500000 ;;
	fuzz_compile_pica) echo 400000 ;;
	fuzz_compile_tegra|fuzz_fp_words|fuzz_png) echo 200000 ;;
	fuzz_pica_asm) echo 150000 ;;
	fuzz_trace) echo 50000 ;;
	fuzz_piglit|fuzz_tegra_asm|fuzz_replay|fuzz_session) echo 15000 ;;
	fuzz_replay_report) echo 40000 ;;
	fuzz_gl_state) echo 1500 ;;
	*) echo 20000 ;;
	esac
}

# The trace harnesses' side files (FUZZ_TRACE_DIR): those of the samples
# and of the bundled captures (traces/captures/*: frames of version 2 with
# their buffers and textures as hash-named files) in one folder, so that a
# capture frame seeds fuzz_trace, fuzz_replay and fuzz_session with its side
# files reachable.  Copies, not links: the side-file rules read only regular
# files inside the folder.
sidedir=$build/fuzz/sidefiles
rm -rf "$sidedir"
mkdir -p "$sidedir"
find traces/samples traces/captures -type f ! -name '*.json' ! -name '*.md' ! -name '*.py' \
	-exec cp {} "$sidedir/" \;

failed=0
mkdir -p "$build/fuzz/findings"
for t in "$@"; do
	bin=$build/fuzz/$t
	seeds=$build/fuzz/seeds/$t
	work=$build/fuzz/corpus/$t
	# the smoke starts from the seeds alone every time (a fresh folder), so
	# that its inputs do not depend on earlier runs on this machine
	[ "$secs" = smoke ] && work=$build/fuzz/smoke/$t && rm -rf "$work"
	mkdir -p "$work"
	if [ ! -d "$seeds" ]; then
		mkdir -p "$seeds"
		args=()
		set -f
		for g in $(seeds_of "$t"); do
			[ ${#args[@]} -gt 0 ] && args+=(-o)
			args+=(-name "$g")
		done
		set +f
		dirs=("$corpus" traces tests/fuzz_repro)
		[ "$t" = fuzz_trace ] || [ "$t" = fuzz_replay ] && dirs=(traces/samples traces/captures tests/fuzz_repro/trace)
		[ "$t" = fuzz_replay_report ] && dirs=(tests/fuzz_repro/replay_report)
		[ "$t" = fuzz_gl_state ] && dirs=(tests/fuzz_repro/gl_state)
		find -L "${dirs[@]}" \( "${args[@]}" \) -type f -size -64k 2>/dev/null | LC_ALL=C sort | head -400 |
			while read -r f; do cp "$f" "$seeds/$(echo "$f" | md5sum | cut -c1-16)"; done
		# the .fp container has no files in the corpus: its seeds are the
		# grate programs assembled into containers (when the CLI is built)
		if [ "$t" = fuzz_fp_container ]; then
			for f in "$seeds"/*; do
				case $f in *.fp) continue ;; esac
				if [ ! -x "$build/ulpsim" ]; then
					echo "fuzz: $t: $build/ulpsim is not built: no .fp seeds (make fuzz-build builds it)" >&2
					break
				fi
				"$build/ulpsim" tegra asm "$f" -o "$f.fp" >/dev/null 2>&1
				rm -f "$f"
			done
		fi
	fi
	d=$(dict_of "$t")
	dictopt=()
	[ -n "$d" ] && [ -f "fuzz/dict/$d.dict" ] && dictopt=(-dict="fuzz/dict/$d.dict")
	log=$build/fuzz/$t.log
	if [ "$secs" = smoke ]; then
		budget=(-runs="$(smoke_runs_of "$t")" -seed=1)
		what="$(smoke_runs_of "$t") runs"
	else
		budget=(-max_total_time="$secs" -seed="${FUZZ_SEED:-0}")
		what="${secs}s"
	fi
	FUZZ_TRACE_DIR=$sidedir "$bin" "${budget[@]}" -timeout=20 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$build/fuzz/findings/$t-" \
		"${dictopt[@]}" "$work" "$seeds" >"$log" 2>&1
	rc=$?
	runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
	eps=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
	echo "fuzz: $t: $what, ${runs:-?} execs, ${eps:-?} execs/s, ${cov:-no coverage line}"
	if [ $rc -ne 0 ]; then
		failed=1
		art=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
		echo "fuzz: $t: FINDING (exit $rc): reproducer ${art:-none written}; log $log" >&2
		grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" >&2 || true
	fi
done
exit $failed
