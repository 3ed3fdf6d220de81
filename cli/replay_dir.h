/* ulpsim replay DIR: every trace of a folder (a capture: one trace per
 * frame) on N local worker processes, one shard of it (--shard K/N), the
 * machine-readable report (--report) and the merge of shard reports
 * (--merge); docs/replay.md "Many frames: --jobs, --shard, --merge".
 *
 * cli/replay_dir.c lists, validates and replays the frames; the combined
 * summary and the report (written, read and merged) are
 * traces/replay/replay_report.h's; cli/replay_report.c is --merge. */
#ifndef ULP_CLI_REPLAY_DIR_H
#define ULP_CLI_REPLAY_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "traces/replay/replay.h"
#include "traces/replay/replay_report.h"

/* Limits of a folder run besides the report's (traces/replay/replay_report.h). */
enum { RDIR_MAX_JOBS = 1024 };

/* 0 every frame ok, 1 a check failed, 2 a frame could not be replayed. */
int rdir_exit_status(const rdir_run *r);

/* ulpsim replay DIR [options] / ulpsim replay --merge R1 R2 ... */
int cmd_replay_dir(int argc, char **argv, const char *dir);
int cmd_replay_merge(int argc, char **argv);

/* The --stats writer of one replay (cli/cmd_replay.c): begin sets o's draw
 * hook; end closes the file after a good run (or removes it), false with d. */
typedef struct replay_stats {
	const char *path;
	const ulp_config *cfg;
	stats_txt *w;
	bool failed;
	ulp_diag d;
} replay_stats;
void replay_stats_begin(replay_stats *s, const char *path, const ulp_config *cfg, replay_opts *o);
bool replay_stats_end(replay_stats *s, bool ok, replay_result *res, ulp_diag *d);

#endif
