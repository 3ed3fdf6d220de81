/* The rasterizer: walks each set-up triangle's quad-aligned bounding box,
 * one quad of 2x2 pixels per cycle (empty quads cost nothing), with a
 * top-left-style tie rule, and hands covered quads with their perspective
 * weights to PSEQ (docs/tegra-units.md "Rasterizer").
 *
 *   setup --(raster_tri)--> [ raster ] --(gr3d_quad_in)--> PSEQ
 *
 * Each triangle names its TRAM slot; the rasterizer holds one reference on
 * the slot while it walks the triangle and one per quad it emits (PSEQ
 * drops those when the quads finish), so setup can reuse the slot when the
 * count reaches 0 (units/gr3d/tram.h). */
#ifndef ULP_UNITS_RASTER_H
#define ULP_UNITS_RASTER_H

#include "sim/core/port.h"
#include "units/gr3d/gr3d_quad.h"

/* A triangle in window coordinates, set up for the walk. */
typedef struct raster_tri {
	double x[3], y[3], iw[3];
	double z[3];                  /* window depth (0..1), interpolated linearly for ZS */
	double area;                  /* signed, > 0 counter-clockwise */
	int x0, y0, x1, y1;           /* quad-aligned bounding box (pixels); empty: y0 > y1 */
	/* edge k (opposite vertex k, counter-clockwise): e = ex*(py - oy) - ey*(px - ox) */
	double ex[3], ey[3], ox[3], oy[3];
	bool tie[3];                  /* a sample exactly on edge k belongs to this triangle */
	double inv_area;
	int sx0, sy0, sx1, sy1;       /* pixels kept: sx0 <= x < sx1, sy0 <= y < sy1 (scissor) */
	uint8_t slot;                 /* TRAM slot (gr3d_quad.tri) */
	bool front;                   /* pface */
} raster_tri;

/* The signed area raster_tri_setup finds (twice the triangle's; > 0
 * counter-clockwise): for a face cull before the set-up. */
static inline double raster_tri_area(const double x[3], const double y[3])
{
	return (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
}

/* Edge equations and bounding box (clipped to width x height) of the window
 * triangle (x, y, z, w).  front: the face the pface register reports. */
void raster_tri_setup(raster_tri *s, const double x[3], const double y[3], const double z[3],
                      const double w[3], uint32_t width, uint32_t height);

/* Keeps only pixels with minx <= x < maxx, miny <= y < maxy (window
 * coordinates, y up: Gallium's pipe_scissor_state); may empty the triangle. */
void raster_tri_scissor(raster_tri *s, int minx, int miny, int maxx, int maxy);

static inline bool raster_tri_empty(const raster_tri *s) { return s->y0 > s->y1; }

enum raster_counter { RASTER_CTR_TRIS, RASTER_CTR_QUADS, RASTER_CTR_COUNT };

typedef struct raster_unit {
	sim_unit u;                   /* first: the clock's view */
	sim_port *in, *out;
	gr3d_tram *tram;              /* may be NULL (every triangle owns its slot) */
	raster_tri cur;
	bool have;
	int qx, qy;
	/* the quad row qy being walked (row_set): each edge's row products
	 * ex*(py - oy) of its two pixel rows, formed once per row */
	bool row_set;
	double row_e[3][2];
	/* the same per pixel of a quad (row_e[v][k >> 1] at k), for the lanes
	 * of quad_mask: one unaligned load (no vector type in the struct, whose
	 * alignment would then exceed malloc's) */
	double row_q[3][GR3D_PIXELS];
	/* the quad columns [inside_lo, inside_hi] of the row known to lie wholly
	 * inside edge v (start_row, quad_mask): their test is skipped */
	int inside_lo[3], inside_hi[3];
	int scissor_lo, scissor_hi;   /* the quad columns of the row wholly inside the scissor */
	uint32_t next_id;             /* quads emitted in this draw */
	/* the tick's AVX2 build runs (raster_use_avx2); the plain build gives
	 * the same bits */
	bool avx2;
	/* Tegra 3's swath split (docs/tegra-units.md "Tegra 3: two blocks"):
	 * with nblocks > 1 the rasterizer walks only the rows of its own
	 * swaths, swath k = y >> swath_shift belonging to block k % nblocks */
	uint8_t block, nblocks, swath_shift;
} raster_unit;

extern const sim_counter_def RASTER_COUNTERS[RASTER_CTR_COUNT];

/* tram: the ring of TRAM slots the walk and the quads hold, or NULL. */
void raster_init(raster_unit *r, sim_port *in, sim_port *out, gr3d_tram *tram);

/* The tick's AVX2 build where on and the host runs AVX2 (raster_init's
 * choice), else its plain build: the same results (the tests compare). */
void raster_use_avx2(raster_unit *r, bool on);

/* The block (0: A, 1: B) whose swath holds pixel row y, for nblocks blocks
 * alternating swaths of 1 << swath_shift rows (GLOBAL_HORIZONTAL_SWATH_
 * RENDERING.ALTERNATE, tegra-fp.md §4). */
static inline unsigned raster_swath_block(int y, unsigned swath_shift, unsigned nblocks)
{
	return nblocks > 1 ? ((unsigned)y >> swath_shift) % nblocks : 0;
}

/* The blocks (bit b: block b) whose swaths the set-up triangle's box
 * touches; 0 for an empty triangle. */
unsigned raster_tri_blocks(const raster_tri *s, unsigned swath_shift, unsigned nblocks);

/* Nothing in hand and nothing queued. */
static inline bool raster_idle(const raster_unit *r) { return !r->have && sim_port_empty(r->in); }

#endif
