/* An ALU unit on its own for the unit tests (test_alu_quad.c, test_ahead.c,
 * test_alu_plan.c): a program assembled and decoded, the number formats'
 * modes in its config and context. */
#ifndef ULP_TESTS_UNITS_ALU_RIG_H
#define ULP_TESTS_UNITS_ALU_RIG_H

#include "tests/test_util.h"
#include "units/gr3d/alu.h"

typedef struct alu_rig {
	tegra_fp_decoded dec;
	ulp_config cfg;
	gr3d_ctx ctx;
	alu_unit unit;
} alu_rig;

typedef struct alu_rig_modes {
	enum ulp_round fp20, fx10;
	bool wrap;                    /* fx10 overflow wraps (else clamps) */
	bool subnormals;              /* tegra.fp20.read_subnormals */
	bool batch_view;              /* tegra.alu.batch_view */
} alu_rig_modes;

/* r (zeroed) with prog (named name in messages) assembled and decoded, cfg
 * at its defaults with the modes, and ctx on them (rows: the program's ALU
 * buffer size); asserts that the program assembles.  The caller sets what
 * else it needs (uniforms, rows) and then calls alu_init(&r->unit, &r->ctx). */
void alu_rig_setup(alu_rig *r, const char *prog, const char *name, alu_rig_modes m);
/* A rig (calloc'd: free it) set up so, u0 = 1.0 and u1 = FP20 inf (an odd
 * uniform), and its unit initialised. */
alu_rig *alu_rig_new(const char *prog, const char *name, alu_rig_modes m);

/* An FP20 word for a register: zeros and the odd codes (exponent 0 and 63)
 * often, FX10 pairs, values in [2^-7, 1] (colours), any word. */
uint32_t alu_rig_code(test_rng *g);
/* Quad q (id) at a random place, partial now and then, each register of
 * each pixel an alu_rig_code (or, for one quad in four, zeros and colours),
 * TEX's pre-fetch view of r0, r1 now and then, the batch's view words. */
void alu_rig_quad(test_rng *g, gr3d_quad *q, uint32_t id);

#endif
