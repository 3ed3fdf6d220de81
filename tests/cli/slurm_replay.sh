#!/usr/bin/env bash
# scripts/slurm-replay.sh without Slurm (docs/replay.md "Many frames"):
# its task mode run as Slurm runs an array's tasks (SLURM_ARRAY_TASK_ID,
# _MIN, _MAX, SLURM_CPUS_PER_TASK set per task, for --array=1-N and for an
# array that starts at 5), its merge mode, and its submit mode through a
# fake `sbatch` on PATH that runs the array's tasks and then the merge job
# in place.  Each merged summary and report must equal a serial run of the
# whole folder, byte for byte; misuse must exit 2.  Called by the Criterion
# test replay_dir.slurm_script (tests/cli/test_replay_dir.c).
#   tests/cli/slurm_replay.sh FRAMES OUT N
# ULPSIM_BIN: the binary (default build/ulpsim).  Exit 0 when all hold.
set -euo pipefail
frames=$1 out=$2 n=$3
bin=$(readlink -f "${ULPSIM_BIN:-build/ulpsim}")
script=$(readlink -f scripts/slurm-replay.sh)
export ULPSIM=$bin
mkdir -p "$out"
fail() { echo "slurm_replay.sh: $*" >&2; exit 1; }
"$bin" replay "$frames" --jobs 1 --report "$out/serial.json" >"$out/serial.txt" 2>/dev/null

# 1. task mode: the array's tasks one after the other, as Slurm would start them
for first in 1 5; do
	r=$out/tasks-$first
	for id in $(seq "$first" $((first + n - 1))); do
		SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=$first SLURM_ARRAY_TASK_MAX=$((first + n - 1)) \
			SLURM_ARRAY_TASK_STEP=1 SLURM_CPUS_PER_TASK=1 bash "$script" "$frames" "$r" 2>/dev/null
	done
	for k in $(seq 1 "$n"); do
		if [ ! -f "$r/shard-$k.json" ] || [ ! -f "$r/shard-$k.txt" ]; then fail "array from $first: no shard-$k report"; fi
	done
	# 2. merge mode
	bash "$script" merge "$r" >"$r/merge.out"
	cmp "$out/serial.txt" "$r/summary.txt" || fail "array from $first: the merged summary differs from a serial run"
	cmp "$out/serial.json" "$r/merged.json" || fail "array from $first: the merged report differs from a serial run"
	cmp "$r/summary.txt" "$r/merge.out" || fail "merge mode prints the summary"
done

# 3. submit mode through a fake sbatch: the array's tasks, then the merge job
fake=$out/bin
mkdir -p "$fake"
cat >"$fake/sbatch" <<'FAKE'
#!/usr/bin/env bash
# a stand-in for Slurm's sbatch: runs the job in place and prints its id
set -uo pipefail
echo "$*" >>"$SBATCH_LOG"
array="" parsable=0
while [ $# -gt 0 ]; do
	case $1 in
		--array=*) array=${1#--array=} ;;
		--parsable) parsable=1 ;;
		--*) ;;
		*) break ;;
	esac
	shift
done
id=$(( $(wc -l <"$SBATCH_LOG") + 100 ))
if [ -n "$array" ]; then
	lo=${array%-*} hi=${array#*-}
	for t in $(seq "$lo" "$hi"); do
		SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_TASK_MIN=$lo SLURM_ARRAY_TASK_MAX=$hi SLURM_CPUS_PER_TASK=1 \
			SLURM_SUBMIT_DIR=$PWD bash "$@" >/dev/null 2>&1
	done
else
	SLURM_SUBMIT_DIR=$PWD bash "$@" >/dev/null 2>&1
fi
[ "$parsable" = 1 ] && echo "$id" || echo "Submitted batch job $id"
FAKE
chmod +x "$fake/sbatch"
r=$out/submitted
export SBATCH_LOG=$out/sbatch.log
: >"$SBATCH_LOG"
line=$(PATH=$fake:$PATH bash "$script" submit "$n" "$frames" "$r")
[ "$line" = "shards: job 101 (array 1-$n); merge: job 102 -> $r/summary.txt" ] || fail "submit printed '$line'"
grep -q -- "--array=1-$n $script $frames $r\$" "$SBATCH_LOG" || fail "the array's sbatch line: $(cat "$SBATCH_LOG")"
grep -q -- "--dependency=afterany:101 .* $script merge $r\$" "$SBATCH_LOG" || fail "the merge's sbatch line: $(cat "$SBATCH_LOG")"
cmp "$out/serial.txt" "$r/summary.txt" || fail "submitted: the merged summary differs from a serial run"
cmp "$out/serial.json" "$r/merged.json" || fail "submitted: the merged report differs from a serial run"

# 4. misuse: exit 2
expect2() {
	local rc=0
	"$@" >/dev/null 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "exit $rc (not 2) for: $*"
}
expect2 bash "$script" merge "$out/empty-reports"
expect2 bash "$script" submit 0 "$frames" "$out/x"
expect2 bash "$script" submit 2 "$out/no-such-folder" "$out/x"
expect2 env SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_STEP=2 bash "$script" "$frames" "$out/x"
rc=0
env -u SLURM_ARRAY_TASK_ID bash "$script" "$frames" "$out/x" >/dev/null 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "a task outside an array succeeded"
echo "slurm_replay.sh: task, merge and submit modes equal a serial run ($n shards)"
