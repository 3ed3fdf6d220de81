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

/* Sample a sampler at normalised (s, t): four FX10 codes (exposed for tests).
 * Returns the number of texels read. */
unsigned tex_sample(const gr3d_sampler *sm, double s, double t, double bias, uint32_t out[4]);

#endif
