/* The replay's texture and colour-buffer driver pieces (docs/replay.md,
 * docs/trace-format.md): trace textures into the TEX unit's sampler, the
 * `sampler` command's state, colour-buffer formats. */
#ifndef ULP_SIM_REPLAY_TEX_H
#define ULP_SIM_REPLAY_TEX_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "traces/trace.h"
#include "units/gr3d/gr3d_quad.h"

struct cJSON;

/* A colour-buffer format name (TRACE_E_CBUFFMT) as an enum gr3d_rtfmt and its
 * bytes per pixel; false for any other name. */
bool replay_cbuf_format(const char *name, uint8_t *fmt, unsigned *bpp);

/* The RGBA8 view of colour b as a target of format fmt stores it
 * (gr3d_quad.h): RGB565 narrows as the DW does (tegra.dw.rgb565_round) and
 * reads back expanded, A8 keeps alpha only. */
void replay_cbuf_view(const ulp_config *cfg, unsigned fmt, uint8_t b[4]);

/* The TEX unit's format (enum gr3d_texfmt) of a trace texture format. */
uint8_t replay_tex_format(enum trace_texfmt f);

/* Binds texture t (every level) to sm: the levels become images in the TEX
 * unit's layout, owned by owned[] (freed and replaced). */
bool replay_texture(const trace_resource *t, gr3d_sampler *sm, ulp_image *owned[GR3D_TEX_LEVELS],
                    ulp_diag *d);

/* A sampler view's swizzle ("rrr1"; NULL: none) as enum tegra_swizzle codes. */
void replay_view_swizzle(const char *swz, uint8_t out[4]);

/* Applies a validated `sampler` command to sm; *shadow_cmp gets its
 * compare_func as an enum tegra_compare (frontends/tegra/tegra_compile.h). */
void replay_sampler_state(gr3d_sampler *sm, uint8_t *shadow_cmp, const struct cJSON *c);

#endif
