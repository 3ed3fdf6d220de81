/* The ALU's slots, shared by its run (alu.c) and its plan (alu_plan.c):
 * operand kinds, how a slot forms its result, the modifiers and the FP20
 * operand read, and what one packet on one quad reads. */
#ifndef ULP_UNITS_ALU_SLOT_H
#define ULP_UNITS_ALU_SLOT_H

#include "units/gr3d/alu.h"

enum alu_operand_kind {
	OPD_CONST,                    /* #0, #1, imm0..2, register 74, unknown registers */
	OPD_REG,                      /* row, global or cond: a raw 20-bit word, FP20 or FX10 */
	OPD_UNIFORM,                  /* the same, one word for the quad */
	OPD_ALU, OPD_POSX, OPD_POSY, OPD_PFACE,
};

/* How a slot forms rA*rB op rC*rD (chosen once by alu_compile). */
enum alu_form {
	FORM_MAD,                     /* rA*rB + rC*rD */
	FORM_MAD_K,                   /* rA*rB + a constant rC*rD (slot.xy); MUL adds -0 */
	FORM_ADD_K,                   /* FORM_MAD_K with rB = #1: rA + the constant */
	FORM_MIN, FORM_MAX,           /* of the two products */
	FORM_CSEL,                    /* (rA < 0) ? rB : rC */
	FORM_PICK,                    /* CSEL with a constant rA: only the side it selects */
	FORM_CONST,                   /* reads only constants: the result is slot.xy */
};

/* How run_packet writes a slot's value when a register copy formed it in
 * binary32 lanes (alu.c copy_reg: an FP20 value in every lane), planned by
 * alu_compile (not arith=exact): */
enum alu_wr {
	WR_OTHER,                     /* write_slot, from the binary64 values */
	WR_FP20,                      /* a row or global register as FP20: enc20_f32 */
	WR_FX10,                      /* one FX10 half of a row or global: fx10_lanes (when
	                               * alu_unit.fx10_lanes) */
};

/* FP20 operand value of a raw word (tegra.fp20.read_subnormals). */
GR3D_HOT double fp20_read(bool subnormals, uint32_t raw)
{
	if (!(raw & FP20_EXP_MASK) && !subnormals)
		return 0.0;
	return gr3d_fp20(raw);
}

/* What one packet on one quad reads, with the facts that hold for the
 * whole packet looked up once. */
typedef struct alu_pass {
	const alu_unit *unit;
	const gr3d_ctx *c;
	gr3d_quad *q;
	const double (*prev)[GR3D_PIXELS];   /* aluK of the previous packet */
	const double (*cur)[GR3D_PIXELS];    /* and of this one's earlier slots */
	bool subnormals;                     /* tegra.fp20.read_subnormals */
	bool shadow;                         /* some pixel holds TEX's pre-fetch view */
	bool values;                         /* every slot's aluK value is wanted (alu_run_packet):
	                                      * alu_slot.unread does not apply */
	bool quad;                           /* the slots may be formed as vectors (alu.c q_slots):
	                                      * a run (not values), not arith=exact */
	bool kern;                           /* and a packet's kernel may be tried (alu_copy.c): not
	                                      * where alu_exec has tried it (alu_unit.kexec) */
} alu_pass;

/* Modifiers in the order abs, x2, minus one, negate (docs/tegra-units.md).
 * Without a branch: an unused step is exact (v * 1, v - 0, no sign change). */
GR3D_HOT double modify(const alu_operand *o, double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	b &= o->abs_mask;
	memcpy(&v, &b, sizeof v);
	v = v * o->mul - o->sub;
	memcpy(&b, &v, sizeof b);
	b ^= o->neg_mask;
	memcpy(&v, &b, sizeof v);
	return v;
}

/* One slot's result for the four pixels of ap->q (alu.c). */
void alu_slot_result(const alu_pass *ap, const alu_slot *s, double out[GR3D_PIXELS]);

/* alu.c's pieces of an EXEC, for its batch (alu_batch.c): */
unsigned alu_live_pixels(const gr3d_quad *q);          /* not killed: bit p */
bool alu_any_shadow(const gr3d_quad *q);               /* some pixel holds TEX's pre-fetch view */
void alu_load_view(const alu_unit *a, gr3d_quad *q, unsigned e);   /* EXEC e's batch view */
/* ALU_CTR_INSTRUCTIONS of EXEC e for a quad with these live pixels */
uint64_t alu_slot_ops(const alu_unit *a, unsigned e, unsigned live);
/* the clocks EXEC e occupies the ALU */
unsigned alu_clocks(const alu_unit *a, unsigned e);

/* A packet of copies as one kernel (alu_copy.c): plans p as one (sets
 * p->kern, after alu_init's copy plan); runs it on quad q's live pixels
 * (not 0), or returns false, having written nothing (a word copy_reg
 * declines, a value out of the near rules' range); it ends no pre-fetch
 * view (its caller does: alu_copy_kern.view_rows). */
void alu_copy_plan(alu_unit *a, const gr3d_ctx *c, alu_packet *p);
bool alu_copy_run_plain(const alu_unit *a, const alu_packet *p, const alu_copy_kern *k, gr3d_quad *q, unsigned live);
#if defined(__x86_64__)
bool alu_copy_run_avx2(const alu_unit *a, const alu_packet *p, const alu_copy_kern *k, gr3d_quad *q, unsigned live);
#endif

/* Compiles and plans every packet of ctx->prog into a (alu_plan.c). */
void alu_plan_draw(alu_unit *a, const gr3d_ctx *ctx);

#endif
