/* ulpsim replay DIR: every trace of a folder (a capture: one trace per
 * frame) on N local worker processes, one shard of it (--shard K/N), the
 * machine-readable report (--report) and the merge of shard reports
 * (--merge); docs/replay.md "Many frames: --jobs, --shard, --merge".
 *
 * cli/replay_dir.c lists, validates and replays the frames; cli/replay_report.c
 * prints the combined summary and writes, reads and merges reports.  The
 * summary is a function of the frames' results alone (no host figures), so a
 * serial run, a --jobs run and a merge of shard reports print the same bytes. */
#ifndef ULP_CLI_REPLAY_DIR_H
#define ULP_CLI_REPLAY_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "traces/replay/replay.h"

/* Limits: frames in a folder, a frame's file name, shards, workers. */
enum { RDIR_MAX_FRAMES = 100000, RDIR_NAME_MAX = 256, RDIR_MAX_SHARDS = 1000000, RDIR_MAX_JOBS = 1024 };
enum { RDIR_MSG_MAX = 1024, RDIR_SLOWEST = 5 };

/* A frame's outcome.  PENDING and RUNNING only live in the workers' shared
 * table: a frame left RUNNING when its worker died becomes an ERROR. */
enum rdir_status { RDIR_PENDING, RDIR_RUNNING, RDIR_OK, RDIR_CHECK_FAILED, RDIR_ERROR };

typedef struct rdir_frame {
	unsigned index;                  /* in the folder's frames sorted by name */
	int status;                      /* enum rdir_status */
	char name[RDIR_NAME_MAX];        /* the file name, without the folder */
	char gpu[16];                    /* the trace's "gpu" */
	uint64_t draws, vertices, triangles, fragments;
	uint64_t cycles, vertex_cycles, fragment_cycles;
	uint64_t checkpoints, checks_failed;
	char message[RDIR_MSG_MAX];      /* CHECK_FAILED: the first failure; ERROR: the diagnostic */
} rdir_frame;

/* What a run covered: the summary's header and the report's identity. */
typedef struct rdir_run {
	const char *dir;                 /* the folder as given (no trailing '/') */
	unsigned total;                  /* frames in the folder */
	unsigned shard_k, shard_n;       /* 1/1: the whole folder */
	char digest[32];                 /* "fnv1a64:<16 hex>" of every frame's name and bytes */
	char **settings;                 /* the options that change results, in order */
	size_t nsettings;
	const rdir_frame *frames;        /* the shard's frames, by index */
	size_t nframes;
} rdir_run;

/* The combined summary (docs/replay.md): the table of frames, the slowest
 * ones, the failures and the totals. */
void rdir_summary_print(const rdir_run *r, FILE *f);
/* 0 every frame ok, 1 a check failed, 2 a frame could not be replayed. */
int rdir_exit_status(const rdir_run *r);
/* Writes the report (docs/replay.md "The report") atomically. */
bool rdir_report_write(const rdir_run *r, const char *path, ulp_diag *d);

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
