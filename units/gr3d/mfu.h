/* MFU: the multi-function unit of the Tegra GR3D fragment pipeline
 * (tegra-fp.md §2.4): per EXEC up to 3 instructions, each an SFU op on a
 * row register, two multipliers (mul0/mul1, the perspective "bar" set-up)
 * and four varying interpolations from TRAM rows (ipl). */
#ifndef ULP_UNITS_MFU_H
#define ULP_UNITS_MFU_H

#include "units/gr3d/mfu_pair.h"

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
	/* var k -> rk of the row = reg; tram: the index of t->f[row][k][0] in t->f */
	struct { uint8_t k, reg, row, fx, sat, tram; } var[4];
	bool ipl_fp20;                /* every var is FP20 without saturation (mfu.c ipl_fp20) */
	/* the perspective set-up (rcp of 1/w with all 13 mantissa bits kept,
	 * bar = sfu * bar0, bar = sfu * bar1): run in one pass on a quad whose
	 * four pixels are active (mfu.c persp_setup) */
	bool persp;
	/* an SFU op on a register and no multiplier (mfu.c reg_sfu) */
	bool reg_sfu;
} mfu_plan;

/* A stage's exec (gr3d_stage.exec's type). */
typedef unsigned mfu_exec_fn(gr3d_stage *s, gr3d_quad *q, unsigned e);

/* One EXEC's MFU work, planned once per draw (mfu_init). */
typedef struct mfu_exec_plan {
	uint8_t count;                /* scheduled instructions (the cycles) */
	uint8_t ninst;                /* of them run: at most TEGRA_FP_MAX_PER_EXEC */
	bool ipl;                     /* some instruction interpolates: TEX reads its row */
	uint8_t row;                  /* the EXEC's row (e mod rows) */
	bool wide;                    /* the AVX2 build runs it: an instruction has a four-lane path */
	bool persp_ipl;               /* one instruction, persp and ipl_fp20: mfu.c mfu_persp_ipl_avx2 */
	/* an EXEC of one instruction interpolating vars 0..n-1 of one TRAM row
	 * into n registers in a row, with the perspective set-up (persp_ipl) or
	 * alone: mfu.c's ipl_row build for it (mfu.c row_plan), else NULL */
	mfu_exec_fn *row_fn;
	/* AVX2, and every instruction has a four-lane path (persp, reg_sfu,
	 * ipl_fp20 or nothing): mfu.c mfu_lanes_avx2 */
	bool lanes;
	/* the counters' increments for a quad with n active pixels: the
	 * instructions once, sfu_ops, multiplies and interpolations n times */
	uint32_t add[GR3D_PIXELS + 1][MFU_CTR_COUNT];
	mfu_plan inst[TEGRA_FP_MAX_PER_EXEC];
} mfu_exec_plan;

typedef struct mfu_unit {
	gr3d_stage s;                 /* first: s.u is the clock's view */
	uint8_t count[TEGRA_FP_MAX_EXEC];   /* exec[e].count, looked at for every EXEC */
	mfu_exec_plan exec[TEGRA_FP_MAX_EXEC];
	mfu_round round;              /* fp20.round's increment (mfu_pair.h) */
	bool avx2;                    /* the host runs AVX2: mfu.c's wide build */
} mfu_unit;

void mfu_init(mfu_unit *m, gr3d_ctx *ctx);

/* One instruction on quad q's active pixels (bit p of active), as mfu_exec
 * runs it, with triangle t's TRAM (NULL: none); wide: the four-lane build
 * where the host runs AVX2, else the pair one.  Exposed for the unit tests,
 * which compare a plan with and without persp. */
void mfu_run_inst(const gr3d_ctx *c, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                  unsigned active, bool wide);

/* One SFU op on v (exposed for the unit tests). */
double mfu_sfu(const gr3d_ctx *c, unsigned op, double v);

/* sfu_quad (mfu.c: mfu_sfu on four values in place, the op's switch once)
 * out of line, for mfu_lanes.h's SFU op on a register. */
void mfu_sfu_lanes(const gr3d_ctx *c, unsigned op, double v[GR3D_PIXELS]);

#endif
