/* Trace replay (docs/trace-format.md, docs/replay.md): executes a loaded
 * trace on the simulated GPU.
 *
 * The GPU is programmed as silicon is: the driver layer (traces/replay/driver_pica.h,
 * units/gr3d/gr3d_regs.h, units/geom/gr3d_state.h, traces/replay/replay_state.h) turns shaders,
 * constants, vertex elements, the viewport, scissor, textures, render
 * targets, depth/stencil, the linker and the draw into register writes; a
 * write of DRAWARRAYS/DRAWELEMENTS runs the draw the register models
 * describe on one clock (units/gpu.h), so raw register blocks replay as
 * they are (docs/registers.md). */
#ifndef ULP_SIM_REPLAY_H
#define ULP_SIM_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "sim/core/regstream.h"
#include "sim/core/unit.h"
#include "sim/out/stats_txt.h"
#include "traces/trace.h"


enum { REPLAY_MAX_UNITS = 24 };

typedef struct replay_result {
	uint64_t cycles;            /* simulated: each draw on one clock, draws one after another */
	/* per draw: until the last vertex was shaded / from the first triangle
	 * leaving setup to the end; they overlap, so they may sum past cycles */
	uint64_t vertex_cycles, fragment_cycles;
	uint64_t draws, vertices, triangles, clipped, culled, fragments;
	unsigned checkpoints, checks_failed;
	char first_failure[256];    /* what the first failed check said */
	struct ulp_image *image;    /* keep_image: colour buffer 0, top row first (free it) */
	float *depth;               /* keep_depth: the depth surface in 0..1, bottom row first (free it) */
	/* Every unit's stats summed over the run (vfetch, vsh0.., prim, gsh with a GS, clip,
	 * setup, raster, zs when the trace uses depth/stencil, pseq, mfu, tex,
	 * alu, dw: units/gpu.h); stats writers read
	 * them through these units. */
	sim_unit unit[REPLAY_MAX_UNITS];
	unsigned nunits;
	/* every port's high-water mark over the run (stats.txt) */
	stats_port_mark port[STATS_MAX_PORTS];
	unsigned nports;
	/* host, not a result: draws whose GR3D blocks ran on two threads (sim.threads) */
	uint64_t host_threaded_draws;
	double host_par_cpu, host_par_critical;   /* their CPU seconds apart (units/gpu.h) */
	uint64_t host_par_windows;                /* and the windows they ran in */
	double host_output_seconds;               /* checkpoints: images (PNG), their checks */
} replay_result;

/* Called before (end = false) and after (end = true) each draw. */
typedef void (*replay_draw_hook)(void *ctx, bool end, replay_result *res);

typedef struct replay_opts {
	const ulp_config *cfg;
	const char *out_dir;        /* checkpoint PNGs: <out_dir>/<name>.png (NULL: none) */
	const char *out_png;        /* the last checkpoint also here (NULL: none) */
	FILE *dump_commands;        /* the register stream, as it is produced (NULL: no) */
	struct sim_timeline *tl;    /* events of every stage, on one cycle axis (NULL: none) */
	bool keep_image;            /* return the final colour buffer 0 in res->image */
	bool keep_depth;            /* return the final depth surface in res->depth (if one is bound) */
	bool permissive;            /* PICA200 hang conditions warn instead of failing (--permissive) */
	void (*warn)(void *ctx, const char *msg);   /* those warnings (NULL: dropped) */
	void *warn_ctx;
	/* the viewer's observer of the fragment units (units/gr3d/gr3d_quad.h): the
	 * replay sets its base and target (colour buffer 0) for each draw and
	 * calls its snapshot after a framebuffer or clear command (NULL: none) */
	struct gr3d_probe *probe;
	replay_draw_hook draw_hook;
	void *hook_ctx;
	/* Called at each draw (after draw_hook's start) with its fragment program
	 * as the GR3D runs it, in grate syntax: the compiler's output for TGSI
	 * (the draw's variant: blend, shadow compare, swizzles), the source for
	 * grate, else the disassembly (NULL: none).  ctx is hook_ctx. */
	void (*fs_hook)(void *ctx, const char *grate);
	/* Called after each command (done of total); NULL: none. */
	void (*progress)(void *ctx, size_t done, size_t total, uint64_t cycles);
	void *progress_ctx;
	/* a budget of simulated cycles for the whole run (0: none): the draw
	 * that would pass it stops, and the replay fails (--max-cycles,
	 * docs/robustness.md) */
	uint64_t max_cycles;
} replay_opts;


/* Runs every command.  Returns false with d (the JSON path of the command)
 * when the trace cannot be replayed; a failed check is not an error: it is
 * counted in res->checks_failed. */
bool replay_run(const trace *t, const replay_opts *o, replay_result *res, ulp_diag *d);

/* Compiles (assembles, loads) every shader the trace names, as the replay
 * would with default state: false with "$.shaders.ID: file:line:col: ..."
 * (`ulpsim trace check`). */
bool replay_check_shaders(const trace *t, ulp_diag *d);

#endif
