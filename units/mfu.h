/* MFU: the multi-function unit of the Tegra GR3D fragment pipeline
 * (tegra-fp.md §2.4): per EXEC up to 3 instructions, each an SFU op on a
 * row register, two multipliers (mul0/mul1, the perspective "bar" set-up)
 * and four varying interpolations from TRAM rows (ipl). */
#ifndef ULP_UNITS_MFU_H
#define ULP_UNITS_MFU_H

#include "units/gr3d_quad.h"

enum mfu_counter { MFU_CTR_INSTRUCTIONS, MFU_CTR_SFU, MFU_CTR_MUL, MFU_CTR_IPL, MFU_CTR_COUNT };
extern const sim_counter_def MFU_COUNTERS[MFU_CTR_COUNT];

/* One MFU instruction with its registers resolved for its EXEC's row
 * (mfu_init), so the per-pixel loop does no decoding. */
typedef struct mfu_plan {
	uint8_t sfu_op;               /* TEGRA_SFU_* */
	bool sfu_w;                   /* the SFU reads the interpolated 1/w (tegra.mfu.w_reg) */
	uint8_t sfu_reg;              /* else: this register, written back */
	uint8_t nmul;
	/* reg: the r0..r3 destination; second: mul1 (a "bar" destination sets b1) */
	struct { uint8_t dst, src0, src1, reg; bool second; } mul[2];
	uint8_t src_base;             /* multiplier sources r0..r3 = r(src_base + k) */
	uint8_t nvar;                 /* interpolations, in var order */
	struct { uint8_t k, reg, row, fx, sat; } var[4];   /* var k -> rk of the row = reg */
} mfu_plan;

typedef struct mfu_unit {
	gr3d_stage s;                 /* first: s.u is the clock's view */
	mfu_plan plan[TEGRA_FP_MAX_EXEC][TEGRA_FP_MAX_PER_EXEC];
} mfu_unit;

void mfu_init(mfu_unit *m, gr3d_ctx *ctx);

/* One SFU op on v (exposed for the unit tests). */
double mfu_sfu(const gr3d_ctx *c, unsigned op, double v);

#endif
