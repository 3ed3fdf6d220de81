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
 * watchdog names any of them.
 *
 * The one step order (GPU_STEP_ORDER, units/gpu.c) puts the units on every
 * clock: this one, the fragment half alone (gr3d_fp_draw) and the vertex
 * shader units alone (pica_batch_run). */
#ifndef ULP_UNITS_GPU_H
#define ULP_UNITS_GPU_H

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
	/* vertices: count jobs, job k made by make_job (vertex k of the draw);
	 * make_job must not depend on time (vertex fetch makes and shades the
	 * jobs ahead, vfetch_shade_ahead) */
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
	/* stop the draw with an error when its clock reaches this cycle (0:
	 * none): the replay's whole-run budget (--max-cycles, docs/robustness.md) */
	uint64_t max_cycles;
	/* host threads for the GR3D blocks (sim.threads): 0 picks one per
	 * block where the host has the cores; with two blocks and 2 threads
	 * the blocks run side by side once setup has handed them their last
	 * triangle (sim/core/clock_par.h).  The results do not depend on it. */
	unsigned threads;
	/* cycles per lock-step window (sim.thread_window); 0: the rest of
	 * the draw without a timeline, 32768 with one */
	uint64_t thread_window;
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
	bool threaded;                    /* host: the blocks ran on two threads (not a result) */
	double host_par_cpu, host_par_critical;   /* host: sim_par_host's figures */
	uint64_t host_par_windows;
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

/* ---- the fragment half alone, the vertex shader units alone ------------ */

/* Draw: rasterize the triangles over the render-target area, run every quad
 * through the units, write the targets.  Returns false with d on bad set-up
 * or a watchdog stop. */
bool gr3d_fp_draw(const gr3d_draw *dr, gr3d_stats *st, ulp_diag *d);

/* Run jobs through `units` shader units fed round-robin (a vertex batch, as
 * the vertex pipeline spreads it): one port of capacity 2 per unit in, one
 * shared out port.  on_result gets each output vertex in completion order.
 * Returns false with d on a shader error or a watchdog stop. */
typedef struct pica_batch_stats {
	uint64_t cycles, instructions, invocations;
	sim_unit_stats unit[4];
	uint64_t unit_idle[4];
	sim_unit_stats fetch;             /* vertex fetch's */
} pica_batch_stats;

bool pica_batch_run(const pica_program *prog, const pica_uniforms *unif, const ulp_config *cfg,
                    const pica_env *env, unsigned units, uint32_t njobs,
                    void (*make_job)(void *ctx, uint32_t id, pica_job *job),
                    void (*on_result)(void *ctx, const pica_result *r), void *ctx,
                    sim_timeline *tl, pica_batch_stats *stats, ulp_diag *d);

/* ---- the one step order ------------------------------------------------ */

/* The kinds of unit a clock holds.  GPU_STEP_PRIM is whoever takes the
 * shader units' results: primitive assembly, or pica_batch_run's sink. */
enum gpu_step_kind {
	GPU_STEP_DW, GPU_STEP_ALU, GPU_STEP_TEX, GPU_STEP_MFU, GPU_STEP_PSEQ, GPU_STEP_ZS, GPU_STEP_RASTER,
	GPU_STEP_SETUP, GPU_STEP_CLIP, GPU_STEP_GSH, GPU_STEP_PRIM, GPU_STEP_VSH, GPU_STEP_VFETCH,
	GPU_STEP_KINDS
};

typedef struct gpu_step {
	uint8_t kind;                 /* enum gpu_step_kind */
	bool per_block;               /* one per GR3D block */
} gpu_step;

/* Every kind once, consumers before producers. */
extern const gpu_step GPU_STEP_ORDER[GPU_STEP_KINDS];

enum { GPU_STEP_INSTANCES = 4 };  /* GR3D blocks, shader units */

/* The units of one clock by kind; NULL: none. */
typedef struct gpu_step_units {
	sim_unit *u[GPU_STEP_KINDS][GPU_STEP_INSTANCES];
} gpu_step_units;

/* Puts the units on c in GPU_STEP_ORDER: the per-block kinds (which lead
 * the table) block by block, block A's then block B's; then every other
 * kind, instance by instance.  False when the clock is full. */
bool gpu_clock_add_units(sim_clock *c, const gpu_step_units *s);

#endif
