/* gem5-style stats.txt: one "name  value  # description" line per statistic
 * with hierarchical dotted names (docs/outputs.md lists them):
 *
 *   ---------- Begin Simulation Statistics ----------
 *   sim.cycles                     1234  # cycles simulated
 *   gpu.vsh0.busy_cycles            800  # ...
 *   gpu.vsh0.stall_cycles::dependency  ...
 *   draw0.sim.cycles                ...  (one block per begin/end_draw pair)
 *   ---------- End Simulation Statistics   ----------
 *
 *   { the config used, as ulp_config_dump_json writes it }
 *
 * Deterministic: host figures (host_seconds, sim_cycles_per_s,
 * silicon_slowdown) are written only when opts.host is set, so two runs of
 * the same job give byte-identical files.
 *
 * The writer keeps pointers to the units and reads their live stats at
 * begin_draw / end_draw / close.  Per-draw sections are streamed to an
 * anonymous temporary file as each draw ends (memory does not grow with the
 * number of draws) and copied after the run totals at close.  The output is
 * created at open (a bad path fails before the run) and committed at close
 * through base/fileio.h: a failed run leaves no partial file. */
#ifndef ULP_SIM_STATS_TXT_H
#define ULP_SIM_STATS_TXT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/clock.h"
#include "sim/core/config.h"
#include "sim/core/unit.h"

typedef struct stats_txt_opts {
	const char *prefix;         /* before unit names; NULL: "gpu" */
	bool host;                  /* write the host figures (not deterministic) */
	uint32_t silicon_mhz;       /* > 0: sim.seconds and silicon_slowdown */
	const ulp_config *cfg;      /* written after the statistics; NULL: none */
} stats_txt_opts;

typedef struct stats_txt stats_txt;

/* A port's high-water mark (sim_port.max_count): the most items it held,
 * of its capacity.  close writes <prefix>.port.<name>.max_count for each
 * port named ("->" in a name written "_to_"). */
typedef struct stats_port_mark {
	char name[40];
	uint32_t capacity, max_count;
} stats_port_mark;
enum { STATS_MAX_PORTS = 64 };
/* Raises the run's marks to these (the highest per name over calls; ports
 * past STATS_MAX_PORTS are left out). */
void stats_txt_port_marks(stats_txt *s, const stats_port_mark *m, unsigned n);
/* A port's mark (for callers that hold sim_ports). */
stats_port_mark stats_port_mark_of(const char *name, uint32_t capacity, uint32_t max_count);

stats_txt *stats_txt_open(const char *path, sim_unit *const *units, unsigned nunits,
                          const stats_txt_opts *opts, ulp_diag *d);
/* Snapshot every unit's stats at `cycle` (a draw starts). */
bool stats_txt_begin_draw(stats_txt *s, uint64_t cycle, ulp_diag *d);
/* Write drawN.* with the differences since begin_draw (the draw ends). */
bool stats_txt_end_draw(stats_txt *s, uint64_t cycle, ulp_diag *d);
/* Write the totals over `cycles`, copy the draws, commit; frees s. */
bool stats_txt_close(stats_txt *s, uint64_t cycles, double host_seconds, ulp_diag *d);
void stats_txt_abort(stats_txt *s);   /* frees s, no file */

/* One call for a finished run on a clock (no draws), its ports' marks too. */
bool stats_txt_write_clock(const char *path, const sim_clock *c, const stats_txt_opts *opts,
                           double host_seconds, ulp_diag *d);

#endif
