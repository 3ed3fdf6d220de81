/* The Tegra GR3D fragment pipeline: the rasterizer (units/gr3d/raster.h) feeding
 * the five clocked units PSEQ -> MFU -> TEX -> ALU -> DW, joined by ports
 * (latency and capacity from the tegra.* knobs), quads recirculating until
 * the program ends.  docs/tegra-units.md.
 *
 * gr3d_fp is the fragment half as one object that goes on a clock: the
 * one-clock GPU (units/gpu.h) puts it behind setup; gr3d_fp_draw (units/gpu.h)
 * runs it alone on triangles already in window coordinates (tegra run, the
 * unit tests).  Both put its units on the clock in the one step order
 * (units/gpu.c). */
#ifndef ULP_UNITS_GR3D_FP_H
#define ULP_UNITS_GR3D_FP_H

#include "sim/core/clock.h"
#include "units/gr3d/alu.h"
#include "units/gr3d/chain.h"
#include "units/gr3d/dw.h"
#include "units/gr3d/gr3d_quad.h"
#include "units/gr3d/mfu.h"
#include "units/gr3d/pseq.h"
#include "units/gr3d/raster.h"
#include "units/gr3d/tex.h"
#include "units/gr3d/zs.h"

/* A vertex in window coordinates (pixels, y up = row index up; z the
 * window depth, 0..1 after the viewport's depth range), with its clip w and
 * the TRAM words the linker would store for it. */
typedef struct gr3d_vertex {
	double x, y, w;
	double z;
	uint32_t tram[GR3D_TRAM_ROWS][4];
} gr3d_vertex;

typedef struct gr3d_draw {
	const tegra_fp_decoded *prog;
	const ulp_config *cfg;
	uint32_t uniforms[TEGRA_FP_NUM_CONST];
	/* arith=exact: u_k read as FP20 is xuniform[k] where bit k of
	 * xuniform_mask is set (the binary32 the driver encoded; docs/exact.md) */
	float xuniform[TEGRA_FP_NUM_CONST];
	uint32_t xuniform_mask;
	const gr3d_vertex *vtx;
	unsigned nvtx;
	const uint16_t *idx;          /* 3 per triangle */
	unsigned ntris;               /* 1..GR3D_MAX_TRIS */
	gr3d_sampler sampler[GR3D_SAMPLERS];
	ulp_image *rt[GR3D_RTS];      /* at least one bound; all bound targets the same size */
	uint8_t rt_format[GR3D_RTS];  /* enum gr3d_rtfmt (0: RGBA8888) */
	uint8_t *stencil;             /* optional, width*height */
	/* early depth/stencil (units/gr3d/zs.h): the unit runs between the rasterizer
	 * and PSEQ when zs_active(&zs_state); zs may be NULL (tests pass) */
	zs_state zs_state;
	zs_surface *zs;
	sim_timeline *tl;             /* optional */
	gr3d_probe *probe;            /* optional: the viewer's observer (gr3d_quad.h) */
} gr3d_draw;

enum { GR3D_UNITS = 5 };          /* pseq, mfu, tex, alu, dw */

typedef struct gr3d_stats {
	uint64_t cycles, quads, pixels, pixel_execs;
	unsigned max_qid;
	const char *name[GR3D_UNITS];
	sim_unit_stats unit[GR3D_UNITS];
	uint64_t idle[GR3D_UNITS];
	const sim_counter_def *counter_defs[GR3D_UNITS];
	uint8_t ncounters[GR3D_UNITS];
	/* the most tokens mfu->tex, tex->alu and alu->dw held (their port marks) */
	uint32_t mid_marks[3];
	/* the early depth/stencil unit, when the draw used it (counters ZS_COUNTERS) */
	bool zs_used;
	sim_unit_stats zs;
	uint64_t zs_idle;
} gr3d_stats;

/* The fragment half on a clock.  Build it with gr3d_fp_new (the draw's state:
 * program, constants, samplers, targets; vtx/idx/ntris are not read), feed
 * raster_tri items into tri_in (their TRAM slot loaded through tram.h),
 * attach it to a clock, run, then gr3d_fp_finish. */
typedef struct gr3d_fp {
	gr3d_ctx ctx;
	gr3d_tram tram;               /* the block's TRAM (tram.h); a ring when setup reuses slots */
	bool tram_ring;
	unsigned max_qid;
	gr3d_quad *slots;
	uint16_t *free_slots;
	ulp_image *levels[GR3D_SAMPLERS][GR3D_TEX_LEVELS];
	raster_unit raster;
	/* early depth/stencil (units/gr3d/zs.c) between raster and pseq, when the
	 * draw's state turns it on: raster -> p_zs -> zs -> p_in -> pseq */
	bool zs_on, late_on;
	zs_state zs_state;
	zs_unit zs;
	zs_late late;                 /* ZS -> DW, late writes only (late_on) */
	sim_port p_zs;
	pseq_unit pseq;
	mfu_unit mfu;
	tex_unit tex;
	alu_unit alu;
	dw_unit dw;
	struct gr3d_ahead *ahead;     /* NULL: the general path (ahead.h) */
	bool chain_on;                /* MFU..DW as one computed unit (chain.h) */
	gr3d_chain chain;
	sim_port tri_in;              /* setup -> raster (raster_tri) */
	sim_port p_in, p_mfu, p_tex, p_alu, p_dw, p_recirc;
} gr3d_fp;

/* tram_slots: 1..GR3D_MAX_TRIS; ring: slots are reused (the TRAM counts
 * their holds); tri_capacity/tri_latency: the setup -> raster port. */
gr3d_fp *gr3d_fp_new(const gr3d_draw *dr, unsigned tram_slots, bool ring, uint32_t tri_capacity,
                     uint32_t tri_latency, ulp_diag *d);
void gr3d_fp_free(gr3d_fp *f);
/* Every unit, port and shared resource back to the state gr3d_fp_new left
 * (TRAM rows, targets and surfaces stay as they are), to run again on a
 * new clock. */
void gr3d_fp_reset(gr3d_fp *f);
/* Makes f block `block` (0: A, 1: B) of nblocks GR3D blocks alternating
 * horizontal swaths of 1 << swath_shift rows (Tegra 3, docs/tegra-units.md
 * "Tegra 3: two blocks"): its rasterizer walks only its own swaths, and
 * block B's units and ports are named with "_b" ("pseq_b", "raster->pseq_b";
 * block A keeps the one-block names).  Call before its units go on a clock. */
void gr3d_fp_set_block(gr3d_fp *f, unsigned block, unsigned nblocks, unsigned swath_shift);
/* The block's units, for the clock's step order (units/gpu.c): zs is NULL
 * when the draw has no depth/stencil test. */
typedef struct gr3d_fp_units {
	sim_unit *dw, *alu, *tex, *mfu, *pseq, *zs, *raster;
} gr3d_fp_units;
gr3d_fp_units gr3d_fp_units_of(gr3d_fp *f);
/* MFU, TEX, ALU and DW as one unit whose time is computed (chain.h), where
 * the draw allows it (timeline: a timeline records the run; budget: a
 * cycle budget may stop it); call before the clock is built.  Same
 * results either way. */
void gr3d_fp_chain(gr3d_fp *f, bool timeline, bool budget);
/* Adds the ports to c (watchdog reports). */
bool gr3d_fp_add_ports(gr3d_fp *f, sim_clock *c);
/* After the run: false with d when quads or triangles were left in flight;
 * st (optional) gets the units' stats (pseq..dw, and zs when it ran). */
bool gr3d_fp_finish(const gr3d_fp *f, const sim_clock *c, gr3d_stats *st, ulp_diag *d);

#endif
