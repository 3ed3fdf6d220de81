/* TEX: the texture unit of the Tegra GR3D fragment pipeline (tegra-fp.md
 * §2.4 TEX word): one fetch per EXEC from sampler 0..15, coordinates from a
 * row-register triple, the texel returned as four FX10 values in a
 * register pair (lo.l, lo.h, hi.l, hi.h = channels 0..3). */
#ifndef ULP_UNITS_TEX_H
#define ULP_UNITS_TEX_H

#include "units/gr3d_quad.h"

enum tex_counter { TEX_CTR_FETCHES, TEX_CTR_TEXELS, TEX_CTR_COUNT };
extern const sim_counter_def TEX_COUNTERS[TEX_CTR_COUNT];

typedef struct tex_unit {
	gr3d_stage s;
} tex_unit;

void tex_init(tex_unit *t, gr3d_ctx *ctx);

/* Sample level lvl of a sampler (level 0 = img when no chain is built) at
 * normalised (s, t): four FX10 codes.  Returns the number of texels read. */
unsigned tex_sample(const gr3d_sampler *sm, unsigned lvl, double s, double t, uint32_t out[4]);

/* The level a quad samples: log2 of the largest screen-space footprint of
 * (s*W, t*H) over the quad, plus bias, rounded to nearest and clamped. */
unsigned tex_level(const gr3d_sampler *sm, const double s[4], const double t[4], double bias);

/* Builds the mip chain of sm->img into owned[1..] (level k = 2x2 box filter
 * of level k-1, rounded); owned[0] stays NULL.  Caller frees owned[]. */
bool tex_build_levels(gr3d_sampler *sm, ulp_image *owned[GR3D_TEX_LEVELS], ulp_diag *d);

#endif
