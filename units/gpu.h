/* The GPU's draw pipeline on one clock: every unit of a draw, vertex and
 * fragment work overlapping (docs/ARCHITECTURE.md "How a draw flows").
 *
 *   vfetch -> vsh0..3 -> prim [-> gsh] -> clip -> setup -> raster -> PSEQ -> MFU -> TEX -> ALU -> DW
 *                                          ^  TRAM slot free                          |
 *                                          +------------- (PSEQ: quad done) ----------+
 *
 * With a geometry shader, vsh3 is gsh (units/geom/gsh.c) and prim feeds it the
 * input primitives; its triangles go to clip.
 * The units are units/pica/vfetch.c, pica_shader.c, prim.c, gsh.c, clip.c, setup.c and
 * the fragment half gr3d_fp (raster.c, pseq.c, mfu.c, tex.c, alu.c, dw.c);
 * with two GR3D blocks (Tegra 3) two fragment halves behind setup, each
 * walking its own horizontal swaths (docs/tegra-units.md "Tegra 3: two
 * blocks").
 * Each reports busy/stall/idle, counters and timeline events; the clock's
 * watchdog names any of them. */
#ifndef ULP_SIM_GPU_H
#define ULP_SIM_GPU_H

#include "units/geom/clip.h"
#include "units/gr3d/gr3d_fp.h"
#include "units/geom/gsh.h"
#include "units/pica/pica_shader.h"
#include "units/geom/prim.h"
#include "units/geom/setup.h"
#include "sim/out/stats_txt.h"

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
	/* GR3D blocks (1, or 2 on Tegra 3: gr3d.instances) and, with 2, the
	 * swath split GLOBAL_HORIZONTAL_SWATH_RENDERING holds (gr3d_regs_swath):
	 * swaths of 1 << swath_shift rows alternating between blocks A and B
	 * when swath_alternate, else block A takes every triangle */
	unsigned blocks;                  /* 0 counts as 1 */
	bool swath_alternate;
	unsigned swath_shift;             /* 1..12 */
} gpu_draw;

enum { GPU_MAX_UNITS = 24 };

typedef struct gpu_stats {
	uint64_t cycles;                  /* the draw, start to drain */
	uint64_t vertex_cycles;           /* until the last shaded vertex reached prim */
	uint64_t fragment_cycles;         /* from the first triangle leaving setup to the end */
	uint64_t triangles, clipped, culled, fragments, quads;
	unsigned nunits;
	sim_unit unit[GPU_MAX_UNITS];     /* name, stats, counters of every unit */
	stats_port_mark port[SIM_CLOCK_MAX_PORTS];   /* every port's high-water mark */
	unsigned nports;
} gpu_stats;

/* Every unit a draw can have, producers first: vfetch, vsh0..vsh3, prim,
 * gsh, clip, setup, raster, pseq, mfu, tex, alu, dw (with their counters); zs
 * (after raster) when depth/stencil is on.  A second GR3D block adds
 * GPU_UNITS_B: raster_b, pseq_b, mfu_b, tex_b, alu_b, dw_b (and zs_b). */
enum { GPU_NUNIT_NAMES = 15, GPU_NUNIT_NAMES_B = 6 };
typedef struct gpu_unit_info {
	const char *name;
	const sim_counter_def *counters;
	uint8_t ncounters;
} gpu_unit_info;
extern const gpu_unit_info GPU_UNITS[GPU_NUNIT_NAMES];
extern const gpu_unit_info GPU_UNITS_B[GPU_NUNIT_NAMES_B];

bool gpu_draw_run(const gpu_draw *g, gpu_stats *st, ulp_diag *d);

#endif
