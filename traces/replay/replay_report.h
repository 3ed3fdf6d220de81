/* The results of a folder replay (ulpsim replay DIR: one trace per frame,
 * a capture) as the combined summary and the machine-readable report, and
 * the report's reader and the merge of shard reports (ulpsim replay
 * --merge); docs/replay.md "Many frames: --jobs, --shard, --merge" and
 * "The report".  Here, below cli/, so that the fuzz target fuzz_replay_report
 * (docs/robustness.md) reads reports as the CLI does.  The summary is a
 * function of the frames' results alone (no host figures), so a serial
 * run, a --jobs run and a merge of shard reports print the same bytes. */
#ifndef ULP_REPLAY_REPORT_H
#define ULP_REPLAY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"

struct cJSON;

/* Limits: frames in a folder, a frame's file name, shards, a message, the
 * summary's list of slowest frames. */
enum { RDIR_MAX_FRAMES = 100000, RDIR_NAME_MAX = 256, RDIR_MAX_SHARDS = 1000000 };
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
/* The report's text (ends with a newline; free it), NULL when out of memory. */
char *rdir_report_text(const rdir_run *r);
/* Writes the report atomically (temp + rename). */
bool rdir_report_write(const rdir_run *r, const char *path, ulp_diag *d);

/* A report read back: run points into root (strings), frames and settings. */
typedef struct rdir_report {
	const char *path;
	struct cJSON *root;
	rdir_run run;
	rdir_frame *frames;
	char **settings;
} rdir_report;

/* The report in text (NUL-terminated) named path in messages, checked: its
 * format and version, every field's type and range, and exactly its
 * shard's frames by index.  False with d ("PATH: $.json.path: ...").
 * Call rdir_report_free afterwards either way. */
bool rdir_report_parse(rdir_report *rp, const char *text, const char *path, ulp_diag *d);
/* The same, the text read from the file path. */
bool rdir_report_read(rdir_report *rp, const char *path, ulp_diag *d);
void rdir_report_free(rdir_report *rp);

/* The shard reports rp[0..n) joined into the whole run: they must agree on
 * one capture, one split and one set of options, and hold every shard
 * once.  *out is the whole run (1/1) over *all, n frames in folder order
 * (free *all; out points into the reports, which must outlive it).  False
 * with d naming the report at fault. */
bool rdir_report_merge(const rdir_report *rp, size_t n, rdir_run *out, rdir_frame **all, ulp_diag *d);

#endif
