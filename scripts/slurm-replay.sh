#!/usr/bin/env bash
# Replay a capture (a folder of frame traces) on a Slurm cluster: one
# job-array task per shard, then one merge (docs/replay.md "Many frames").
#
#   scripts/slurm-replay.sh submit N CAPTURE REPORTS [replay options...]
#       submits the array (N tasks) and a merge job that runs after all of
#       them (afterany: a shard with a failed check exits 1 but still writes
#       its report); prints the two job ids.  The merged summary lands in
#       REPORTS/summary.txt, the merged report in REPORTS/merged.json.
#   sbatch --array=1-N scripts/slurm-replay.sh CAPTURE REPORTS [replay options...]
#       the array alone: task K replays shard K/N of CAPTURE on the task's
#       cores (--cpus-per-task) into REPORTS/shard-K.json (and its summary
#       into REPORTS/shard-K.txt);
#   scripts/slurm-replay.sh merge REPORTS
#       joins REPORTS/shard-*.json; exit 0 all ok, 1 a check failed, 2 an error.
#
# CAPTURE and REPORTS must be on a file system every node sees; paths are
# taken relative to the folder sbatch was run from.  ulpsim is $ULPSIM, else
# `ulpsim` on the PATH, else build/ulpsim under the submit folder.  Replay
# options (--set, --config, --max-cycles, --permissive, --allow-paths,
# --out-dir) go to every shard; a merge refuses shards replayed with other
# options.  Tested without Slurm by tests/cli/slurm_replay.sh (the test
# replay_dir.slurm_script): task mode with SLURM_ARRAY_* set as Slurm sets
# them, merge mode, and submit mode through a fake sbatch.
#
#SBATCH --job-name=ulpsim-replay
#SBATCH --cpus-per-task=4
#SBATCH --output=ulpsim-replay-%A_%a.log
set -euo pipefail

ulpsim_bin() {
	if [ -n "${ULPSIM:-}" ]; then
		echo "$ULPSIM"
	elif command -v ulpsim >/dev/null 2>&1; then
		command -v ulpsim
	else
		echo "${SLURM_SUBMIT_DIR:-.}/build/ulpsim"
	fi
}

usage() {
	sed -n '2,24p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

merge() {
	local reports=$1 bin
	bin=$(ulpsim_bin)
	shopt -s nullglob
	local shards=("$reports"/shard-*.json)
	[ ${#shards[@]} -gt 0 ] || { echo "slurm-replay.sh: no $reports/shard-*.json to merge" >&2; exit 2; }
	local rc=0
	"$bin" replay --merge "${shards[@]}" --report "$reports/merged.json" >"$reports/summary.txt.tmp" || rc=$?
	# the summary only when the merge produced one (exit 0 or 1)
	if [ "$rc" -le 1 ]; then mv "$reports/summary.txt.tmp" "$reports/summary.txt"; else rm -f "$reports/summary.txt.tmp"; fi
	[ "$rc" -le 1 ] && cat "$reports/summary.txt"
	exit "$rc"
}

submit() {
	[ $# -ge 3 ] || usage
	local n=$1 capture=$2 reports=$3
	shift 3
	case $n in '' | *[!0-9]* | 0) echo "slurm-replay.sh: N must be a number of shards (1 or more)" >&2; exit 2 ;; esac
	[ -d "$capture" ] || { echo "slurm-replay.sh: $capture: not a folder" >&2; exit 2; }
	mkdir -p "$reports"
	local self jid mid
	self=$(readlink -f "${BASH_SOURCE[0]}")
	jid=$(sbatch --parsable --array="1-$n" "$self" "$capture" "$reports" "$@")
	mid=$(sbatch --parsable --dependency="afterany:$jid" --job-name=ulpsim-merge \
		--output="$reports/merge-%j.log" "$self" merge "$reports")
	echo "shards: job $jid (array 1-$n); merge: job $mid -> $reports/summary.txt"
}

task() {
	[ $# -ge 2 ] || usage
	local capture=$1 reports=$2
	shift 2
	: "${SLURM_ARRAY_TASK_ID:?run this through sbatch --array=1-N (or: $0 submit N ...)}"
	if [ -n "${SLURM_ARRAY_TASK_STEP:-}" ] && [ "$SLURM_ARRAY_TASK_STEP" != 1 ]; then
		echo "slurm-replay.sh: the array must be a range with step 1 (--array=1-N)" >&2
		exit 2
	fi
	local min=${SLURM_ARRAY_TASK_MIN:-1} max=${SLURM_ARRAY_TASK_MAX:-$SLURM_ARRAY_TASK_ID}
	local k=$((SLURM_ARRAY_TASK_ID - min + 1)) n=$((max - min + 1))
	local jobs=${SLURM_CPUS_PER_TASK:-0}
	mkdir -p "$reports"
	local rc=0
	"$(ulpsim_bin)" replay "$capture" --shard "$k/$n" --jobs "$jobs" --report "$reports/shard-$k.json" \
		"$@" >"$reports/shard-$k.txt" || rc=$?
	exit "$rc"
}

case ${1:-} in
	submit) shift; submit "$@" ;;
	merge) [ $# -eq 2 ] || usage; merge "$2" ;;
	'' | -h | --help) usage ;;
	*) task "$@" ;;
esac
