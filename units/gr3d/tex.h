/* TEX: the texture unit of the Tegra GR3D fragment pipeline (tegra-fp.md
 * §2.4 TEX word): one fetch per EXEC from sampler 0..15, coordinates from a
 * row-register triple, the texel returned as four FX10 values in a
 * register pair (lo.l, lo.h, hi.l, hi.h = channels 0..3). */
#ifndef ULP_UNITS_TEX_H
#define ULP_UNITS_TEX_H

#include "units/gr3d/gr3d_quad.h"

enum tex_counter { TEX_CTR_FETCHES, TEX_CTR_TEXELS, TEX_CTR_COUNT };
extern const sim_counter_def TEX_COUNTERS[TEX_CTR_COUNT];

/* Rows whose coordinate registers a plan holds (a TEX reading the row the
 * MFU wrote: tegra.tex.src_row_from_mfu); another row resolves per fetch. */
enum { TEX_PLAN_ROWS = 4 };

/* One level of a sampler as a fetch reads it, taken out of the image once
 * per fetch (or per quad, or per draw: tex_plan.l0): a register store could
 * alias the image's fields, and reloading them for every pixel costs more
 * than the fetch. */
typedef struct tex_level_view {
	const uint8_t *rgba;          /* NULL: no image, every fetch is 0 */
	int w, h;
	double fw, fh;
	uint8_t wrap_s, wrap_t;
} tex_level_view;

/* One EXEC's fetch, its registers resolved once per draw (tex_init). */
typedef struct tex_plan {
	/* the sampler (fixed for the draw) lets the AVX2 build fetch a quad
	 * whose four pixels are live on four lanes (tex.c tex_lanes_avx2):
	 * the host runs AVX2, not arith=exact, no LOD, level 0 has an image */
	bool lanes;
	bool linear;                  /* the sampler's mag filter (bilinear) */
	tex_level_view l0;            /* level 0 as fetch_quad reads it */
	uint8_t sampler;
	bool bias;                    /* TXB: r3 (or r1) of the first live pixel */
	uint8_t dst[2];               /* the destination pair lo, hi */
	/* s, t, bias of the EXEC's own row ([0]) or, with src_row_from_mfu, of
	 * row r ([r]) */
	uint8_t src[TEX_PLAN_ROWS][3];
} tex_plan;

typedef struct tex_unit {
	gr3d_stage s;
	bool shadow;                  /* tegra.tex.fp20_reads_see_coords */
	bool src_from_mfu;            /* tegra.tex.src_row_from_mfu */
	bool avx2;                    /* the host runs AVX2: tex_quad's wide build (tests turn
	                               * it off for the reference) */
	bool fetch[TEGRA_FP_MAX_EXEC];   /* EXEC e's TEX is enabled */
	bool end_view[TEGRA_FP_MAX_EXEC];   /* without a fetch: clear tex_shadow (tex_init) */
	tex_plan plan[TEGRA_FP_MAX_EXEC];
} tex_unit;

void tex_init(tex_unit *t, gr3d_ctx *ctx);

/* Sample level lvl of a sampler (level 0 = img when no chain is built) at
 * normalised (s, t) with the magnification filter (nearest or bilinear
 * within the level): four FX10 codes.  Returns the number of texels read. */
unsigned tex_sample(const gr3d_sampler *sm, unsigned lvl, double s, double t, uint32_t out[4]);

/* The quad's LOD: log2 of the largest screen-space footprint of (s*W, t*H)
 * over the quad (pixel 1 right of 0, pixel 2 below it), plus bias and the
 * sampler's lod_bias.  0 when the footprint is 0 or not finite. */
double tex_lod(const gr3d_sampler *sm, const double s[4], const double t[4], double bias);

/* The full filter at a LOD: lod <= 0 magnifies (level 0, mag filter); else
 * the min filter within the level nearest to lod (mip nearest) or a blend of
 * the two levels around it (mip linear), clamped to the last level. */
unsigned tex_filter(const gr3d_sampler *sm, double lod, double s, double t, uint32_t out[4]);

/* Builds the mip chain of sm->img into owned[1..] (level k = 2x2 box filter
 * of level k-1, rounded; D16 averages the 16-bit depth); owned[0] stays
 * NULL.  Caller frees owned[].  Without mipmap, levels the caller gave
 * (nlevels > 1) are kept. */
bool tex_build_levels(gr3d_sampler *sm, ulp_image *owned[GR3D_TEX_LEVELS], ulp_diag *d);

/* Does a sampler read a bound render target (its image or a level of it)?
 * Then what TEX reads depends on when DW wrote (ahead.h, chain.h). */
bool tex_samples_target(const gr3d_ctx *ctx);

#endif
