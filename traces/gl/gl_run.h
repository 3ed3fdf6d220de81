/* The outputs of a whole `ulpsim gl` run (docs/gl.md "Stats and timeline"):
 * the Gallium driver (frontends/gallium) gives every GL context its own
 * streaming replay session (traces/replay/session.h), and a program may
 * make several contexts; `--stats` and `--timeline` describe the run, all
 * of them.  Mesa-free, so the Criterion suite tests it without a Mesa build.
 *
 *   run = ulp_gl_run_open(stats_path, timeline_path, &d);
 *   per context, in creation order:
 *     cx = ulp_gl_run_add(run, &cfg, &res);  opts.tl = ulp_gl_ctx_timeline(cx);
 *     per draw: ulp_gl_ctx_draw_begin(cx); replay_session_command(draw); ulp_gl_ctx_draw_end(cx);
 *     at its end: ulp_gl_run_remove(run, cx)  (its figures are kept)
 *   ulp_gl_run_write(run, &d)         (any time, e.g. each presented frame:
 *                                      stats and timeline of the run so far)
 *   ulp_gl_run_close(run, &d)         (the same, then freed)
 *
 * stats.txt (sim/out/stats_txt.h): every unit's totals summed over the
 * contexts, the units in the order the contexts first listed them
 * (contexts in creation order), the port marks the highest of any, cycles
 * the sum (draws run one after another on one GPU); no per-draw sections,
 * no host figures, so the same program gives the same file.  The config
 * written after it is the first context's.
 *
 * The timeline (FILE.json: Perfetto / Chrome trace; FILE.vcd: VCD): one
 * cycle axis for the run.  Each context's session records into its own
 * sim_timeline on the context's axis; draw_end moves the draw's events
 * onto the run's axis (the run's cycles when the draw began) and into the
 * run's timeline, lanes matched by name; the run's events go to a
 * temporary file (tmpfile: memory stays bounded), and ulp_gl_run_write
 * writes the timeline anew from it.  Both files are written through
 * temporary files and renamed, so each is whole after every
 * ulp_gl_run_write (a program killed after N frames leaves the run up to
 * its last frame) and a failed write leaves the last good one. */
#ifndef ULP_TRACES_GL_RUN_H
#define ULP_TRACES_GL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "sim/core/timeline.h"
#include "traces/replay/replay.h"

typedef struct ulp_gl_run ulp_gl_run;
typedef struct ulp_gl_ctx ulp_gl_ctx;

/* stats_path, timeline_path: NULL or "" for none (timeline: *.json or
 * *.vcd).  NULL with d when the timeline cannot be created or out of
 * memory. */
ulp_gl_run *ulp_gl_run_open(const char *stats_path, const char *timeline_path, ulp_diag *d);
/* A context: cfg and res are its session's (they must outlive it until
 * ulp_gl_run_remove).  NULL when out of memory. */
ulp_gl_ctx *ulp_gl_run_add(ulp_gl_run *run, const ulp_config *cfg, replay_result *res);
/* The timeline the context's session records into (replay_opts.tl), NULL
 * when the run has none. */
sim_timeline *ulp_gl_ctx_timeline(ulp_gl_ctx *cx);
void ulp_gl_ctx_draw_begin(ulp_gl_ctx *cx);
void ulp_gl_ctx_draw_end(ulp_gl_ctx *cx);
/* The context ends: its figures are copied, its timeline flushed. */
void ulp_gl_run_remove(ulp_gl_run *run, ulp_gl_ctx *cx);
/* The run so far (every context, ended or not) as stats.txt; true when
 * there is no stats path. */
bool ulp_gl_run_write_stats(ulp_gl_run *run, ulp_diag *d);
/* stats.txt and the timeline of the run so far (every context, ended or
 * not; the timeline up to the last draw that ended).  The timeline is
 * written whole each time: the cost grows with the run's events. */
bool ulp_gl_run_write(ulp_gl_run *run, ulp_diag *d);
/* Simulated cycles of the run so far (every context's draws). */
uint64_t ulp_gl_run_cycles(const ulp_gl_run *run);
/* Writes stats.txt, commits the timeline, frees run (and any context not
 * removed). */
bool ulp_gl_run_close(ulp_gl_run *run, ulp_diag *d);

#endif
