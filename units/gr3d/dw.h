/* DW: the data-write unit of the Tegra GR3D fragment pipeline (tegra-fp.md
 * §2.4 DW word): writes a register pair to a render target (FX10 -> UNORM8
 * with the hardware-verified rule, then to the target's format: RGBA8888,
 * BGRA8888, RGB565, A8) or the stencil buffer, and sends the
 * quad back to PSEQ for its next EXEC, or as finished. */
#ifndef ULP_UNITS_DW_H
#define ULP_UNITS_DW_H

#include "units/gr3d/gr3d_quad.h"

enum dw_counter { DW_CTR_STORES, DW_CTR_PIXELS, DW_CTR_KILLED, DW_CTR_STENCIL, DW_CTR_QUADS_DONE,
                  DW_CTR_ZS_FAILED, DW_CTR_COUNT };
extern const sim_counter_def DW_COUNTERS[DW_CTR_COUNT];

/* What DW does in EXEC e, worked out once per draw from the DW word, the
 * row knob and the draw's targets (none of them changes during a draw). */
typedef struct dw_plan {
	ulp_image *rt;                /* the store's target; NULL: none bound */
	uint8_t lo, hi;               /* the source pair: registers rN, rN+1 of the row */
	uint8_t fmt;                  /* enum gr3d_rtfmt of rt */
	bool enable, stencil;
	/* a store into an RGBA8888/BGRA8888 target that nobody watches pixel by
	 * pixel (no viewer write log): bytes go to the target as they are */
	bool plain;
} dw_plan;

typedef struct dw_unit {
	gr3d_stage s;
	uint8_t unorm8[FX10_MASK + 1];    /* fx10_to_unorm8 of every FX10 code */
	uint8_t r5[256], g6[256];         /* RGB565 targets: UNORM8 -> stored 5/6 bits, expanded to 8 */
	dw_plan plan[TEGRA_FP_MAX_EXEC];  /* per EXEC of the draw's program */
	struct zs_late *late;             /* late depth/stencil writes here (zs.h), or NULL */
} dw_unit;

/* late: the late-write state ZS fills (zs.h), NULL when writes happen in ZS. */
void dw_init(dw_unit *w, gr3d_ctx *ctx, struct zs_late *late);

#endif
