/* TGSI -> Tegra 2/3 GR3D fragment program compiler.
 *
 * tgsi_shader -> IR (frontends/ir/, lowered with the Tegra caps) -> scalar
 * operations with IF/ELSE converted to selects (tegra_lower.c) -> EXEC /
 * packet scheduling and row-register allocation (tegra_sched.c) -> grate
 * fragment assembly text (tegra_emit.c) -> tegra_asm_assemble().  The text
 * is the --asm output.  docs/compiler.md "Tegra backend" describes the
 * mapping and the constraints it honours.
 *
 * What a driver feeds the program (the linker convention of docs/replay.md):
 *   IN[k].c      -> TRAM row k, component c, FP20 (MFU ipl tk.fp20, with the
 *                   perspective set-up rcp r4 / bar in the first MFU)
 *   CONST[0][n].c -> FP_CONST slot u(4n+c), FP20, when every read (and, with
 *                   indirect reads, every declared) n < 8; otherwise the
 *                   packed layout of uniform_src (read components only)
 *   SAMP[n]      -> tex n (1D/2D; SHADOW1D/2D: depth in the texel's red
 *                   channel, compared in the ALU with the sampler's function
 *                   (tegra_compile_opts) on the reference clamped to [0, 1],
 *                   result (r, r, r, 1))
 *   OUT[0] COLOR -> render target 1 (RGBA8: FX10 halves, saturated) */
#ifndef ULP_FRONTENDS_TEGRA_COMPILE_H
#define ULP_FRONTENDS_TEGRA_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontends/ir/ir.h"
#include "frontends/tgsi/tgsi.h"
#include "isa/tegra/tegra_prog.h"

enum { TEGRA_COMPILE_MAX_CONST = 8 };   /* 32 FP_CONST slots / 4: identity layout */
enum { TEGRA_COMPILE_MAX_CONST_DECL = 1024 };   /* CONST[0] elements the layout handles */

/* The most iterations a loop with a run-time exit is unrolled to. */
enum { TEGRA_LOOP_BOUND_MAX = 32 };

typedef struct tegra_compile_result {
	enum ir_refusal why;    /* IR_OK on success */
	ulp_diag d;             /* the refusal: file:line:col of the TGSI instruction */
	char *asm_text;         /* grate text (NULL when refused before emission) */
	size_t asm_len;
	tegra_fp_program prog;  /* valid when why == IR_OK */
	/* statistics */
	unsigned rows;          /* alu_buffer_size */
	unsigned execs, mfu_insts, alu_packets, alu_slots;
	unsigned tram_rows;     /* highest IN index + 1 */
	bool kills;
	/* FP_CONST u_k holds CONST[0] float 4n+c = uniform_src[k] (-1: unused);
	 * the identity k for k < 32 unless uniforms_packed */
	int16_t uniform_src[TEGRA_FP_NUM_CONST];
	bool uniforms_packed;
	/* > 0: a loop whose exit depends on run-time values was unrolled this
	 * many times; the program is exact for every trip count up to it.
	 * Below TEGRA_LOOP_BOUND_MAX, more did not fit the program */
	unsigned loop_bound;
	/* arith=exact: the binary32 of each embedded constant (docs/exact.md) */
	tegra_fp_ximm ximm;
} tegra_compile_result;

/* Sampler state a program is compiled for: the depth compare function of a
 * SHADOW1D/SHADOW2D sampler, `ref OP texel.r` (GL order, the reference
 * clamped to [0, 1]).  Zero-initialised = LEQUAL, GL's default. */
enum tegra_compare { TEGRA_CMP_LEQUAL, TEGRA_CMP_GEQUAL, TEGRA_CMP_LESS, TEGRA_CMP_GREATER,
	TEGRA_CMP_EQUAL, TEGRA_CMP_NOTEQUAL, TEGRA_CMP_ALWAYS, TEGRA_CMP_NEVER, TEGRA_CMP_COUNT };

/* The sampler view's swizzle applied to a fetch's result (Gallium's
 * swizzle_r..a; GL's depth texture modes on a shadow result (c, c, c, 1)):
 * per sampler and channel.  Zero-initialised = each channel itself. */
enum tegra_swizzle { TEGRA_SWZ_SAME, TEGRA_SWZ_R, TEGRA_SWZ_G, TEGRA_SWZ_B, TEGRA_SWZ_A, TEGRA_SWZ_ZERO,
	TEGRA_SWZ_ONE };

typedef struct tegra_compile_opts {
	uint8_t shadow_compare[16];     /* enum tegra_compare, per sampler */
	uint8_t swizzle[16][4];         /* enum tegra_swizzle, per sampler and channel */
} tegra_compile_opts;

/* Compiles a parsed FRAG shader.  Always fills res; returns true when
 * res->why == IR_OK.  Free with tegra_compile_result_free.  tegra_compile
 * uses the default options. */
bool tegra_compile(tgsi_shader *sh, const char *file, tegra_compile_result *res);
bool tegra_compile_with(tgsi_shader *sh, const char *file, const tegra_compile_opts *opts,
                        tegra_compile_result *res);
void tegra_compile_result_free(tegra_compile_result *res);

#endif
