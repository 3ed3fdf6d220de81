/* Two replays of one trace compared in full (tests that a host-side choice,
 * threads or the ahead path, leaves every simulated result as it was). */
#ifndef ULP_TEST_REPLAY_PAIR_H
#define ULP_TEST_REPLAY_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/timeline.h"
#include "traces/replay/replay.h"

/* The sample traces the replay comparisons run (traces/samples/<name>.json). */
enum { TEST_NSAMPLES = 7 };
extern const char *const TEST_SAMPLES[TEST_NSAMPLES];

/* Loads traces/samples/<name>.json into t (asserts that it loads); its path
 * into path (n bytes). */
void test_sample_load(trace *t, const char *name, char *path, size_t n);

/* The GPUs the sample comparisons run on: 0 the defaults (tegra2), 1 the
 * tegra3 preset on one host thread, 2 and on two. */
void test_gpu_setting(ulp_config *c, unsigned setting);

/* Every timeline event a run emitted, in order. */
typedef struct test_ev_log {
	sim_tl_event *ev;
	size_t n, cap;
} test_ev_log;

/* A timeline sink appending to l. */
sim_tl_sink test_ev_sink(test_ev_log *l);

typedef struct test_run {
	bool ok;
	char msg[sizeof(((ulp_diag *)0)->msg)];
	replay_result res;
	test_ev_log log;
} test_run;

/* Replays t under c (with a timeline when record; max_cycles 0: no budget),
 * the image kept, into *r. */
void test_replay_run(const trace *t, const ulp_config *c, bool record, uint64_t max_cycles, test_run *r);
void test_run_free(test_run *r);

/* Asserts that two replays' results are the same: cycles (vertex and
 * fragment), draws, vertices, triangles, fragments, every unit's stats, the
 * ports' high-water marks and the image. */
void test_results_same(const replay_result *x, const replay_result *y, const char *what);

/* Asserts that a and b computed the same: outcome and message, cycles, draws,
 * fragments, every unit's stats, the ports' high-water marks, the image and
 * every timeline event in order. */
void test_runs_same(const test_run *a, const test_run *b, const char *what);

#endif
