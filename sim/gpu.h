/* The GPU's draw pipeline on one clock: every unit of a draw, vertex and
 * fragment work overlapping (docs/ARCHITECTURE.md "How a draw flows").
 *
 *   vfetch -> vsh0..3 -> prim [-> gsh] -> clip -> setup -> raster -> PSEQ -> MFU -> TEX -> ALU -> DW
 *                                          ^  TRAM slot free                          |
 *                                          +------------- (PSEQ: quad done) ----------+
 *
 * With a geometry shader, vsh3 is gsh (units/gsh.c) and prim feeds it the
 * input primitives; its triangles go to clip.
 * The units are units/vfetch.c, pica_shader.c, prim.c, gsh.c, clip.c, setup.c and
 * the fragment half gr3d_fp (raster.c, pseq.c, mfu.c, tex.c, alu.c, dw.c).
 * Each reports busy/stall/idle, counters and timeline events; the clock's
 * watchdog names any of them. */
#ifndef ULP_SIM_GPU_H
#define ULP_SIM_GPU_H

#include "units/clip.h"
#include "units/gr3d_fp.h"
#include "units/gsh.h"
#include "units/pica_shader.h"
#include "units/prim.h"
#include "units/setup.h"

typedef struct gpu_draw {
	const ulp_config *cfg;
	sim_timeline *tl;                 /* optional */
	/* vertices: count jobs, job k made by make_job (vertex k of the draw) */
	const pica_program *prog;
	const pica_uniforms *unif;
	pica_env env;
	unsigned vunits;                  /* 1..4 (pica_vertex_units) */
	uint32_t count;
	enum prim_mode mode;
	void (*make_job)(void *ctx, uint32_t id, pica_job *job);
	void *ctx;
	/* a geometry shader (NULL: none) on the fourth unit; mode is then the
	 * input primitive's (PRIM_GEOMETRY, gs.per vertices) */
	const pica_program *gs_prog;
	const pica_uniforms *gs_unif;
	gsh_config gs;
	clip_state clip;
	setup_state setup;
	/* the fragment side: prog, cfg, uniforms, sampler, rt, stencil (vtx/idx unused) */
	gr3d_draw frag;
} gpu_draw;

enum { GPU_MAX_UNITS = 16 };

typedef struct gpu_stats {
	uint64_t cycles;                  /* the draw, start to drain */
	uint64_t vertex_cycles;           /* until the last shaded vertex reached prim */
	uint64_t fragment_cycles;         /* from the first triangle leaving setup to the end */
	uint64_t triangles, clipped, culled, fragments, quads;
	unsigned nunits;
	sim_unit unit[GPU_MAX_UNITS];     /* name, stats, counters of every unit */
} gpu_stats;

/* Every unit a draw can have, producers first: vfetch, vsh0..vsh3, prim,
 * gsh, clip, setup, raster, pseq, mfu, tex, alu, dw (with their counters). */
enum { GPU_NUNIT_NAMES = 15 };
typedef struct gpu_unit_info {
	const char *name;
	const sim_counter_def *counters;
	uint8_t ncounters;
} gpu_unit_info;
extern const gpu_unit_info GPU_UNITS[GPU_NUNIT_NAMES];

bool gpu_draw_run(const gpu_draw *g, gpu_stats *st, ulp_diag *d);

#endif
