/* The Tegra GR3D fragment pipeline: a minimal rasterizer feeding the five
 * clocked units PSEQ -> MFU -> TEX -> ALU -> DW, joined by ports (latency and
 * capacity from the tegra.* knobs), quads recirculating until the program
 * ends.  docs/tegra-units.md. */
#ifndef ULP_UNITS_GR3D_FP_H
#define ULP_UNITS_GR3D_FP_H

#include "sim/clock.h"
#include "units/gr3d_quad.h"
#include "units/zs.h"

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
	const gr3d_vertex *vtx;
	unsigned nvtx;
	const uint16_t *idx;          /* 3 per triangle */
	unsigned ntris;               /* 1..GR3D_MAX_TRIS */
	gr3d_sampler sampler[GR3D_SAMPLERS];
	ulp_image *rt[GR3D_RTS];      /* at least one bound; all bound targets the same size */
	uint8_t rt_format[GR3D_RTS];  /* enum gr3d_rtfmt (0: RGBA8888) */
	uint8_t *stencil;             /* optional, width*height */
	/* early depth/stencil (units/zs.h): the unit runs between the rasterizer
	 * and PSEQ when zs_active(&zs_state); zs may be NULL (tests pass) */
	zs_state zs_state;
	zs_surface *zs;
	sim_timeline *tl;             /* optional */
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
	/* the early depth/stencil unit, when the draw used it (counters ZS_COUNTERS) */
	bool zs_used;
	sim_unit_stats zs;
	uint64_t zs_idle;
} gr3d_stats;

/* Draw: rasterize the triangles over the render-target area, run every quad
 * through the units, write the targets.  Returns false with d on bad set-up
 * or a watchdog stop. */
bool gr3d_fp_draw(const gr3d_draw *dr, gr3d_stats *st, ulp_diag *d);

#endif
