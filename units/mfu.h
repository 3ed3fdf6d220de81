/* MFU: the multi-function unit of the Tegra GR3D fragment pipeline
 * (tegra-fp.md §2.4): per EXEC up to 3 instructions, each an SFU op on a
 * row register, two multipliers (mul0/mul1, the perspective "bar" set-up)
 * and four varying interpolations from TRAM rows (ipl). */
#ifndef ULP_UNITS_MFU_H
#define ULP_UNITS_MFU_H

#include "units/gr3d_quad.h"

enum mfu_counter { MFU_CTR_INSTRUCTIONS, MFU_CTR_SFU, MFU_CTR_MUL, MFU_CTR_IPL, MFU_CTR_COUNT };
extern const sim_counter_def MFU_COUNTERS[MFU_CTR_COUNT];

typedef struct mfu_unit {
	gr3d_stage s;                 /* first: s.u is the clock's view */
} mfu_unit;

void mfu_init(mfu_unit *m, gr3d_ctx *ctx);

/* One SFU op on v (exposed for the unit tests). */
double mfu_sfu(const gr3d_ctx *c, unsigned op, double v);

#endif
