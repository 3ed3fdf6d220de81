/* Tegra fragment backend: constant folding as the ALU computes, dead
 * operation removal, the IR lowering caps (tegra_int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_int.h"
#include "isa/fp20.h"
#include "isa/tegra/tegra_isa.h"

/* The host encoding of an immediate, the driver's uniform upload's
 * (docs/ASSUMPTIONS.md "FP20 host encoding": grate's float_to_fp20
 * truncates): the same float in a uniform and in an immediate must give the
 * same word, or `u == 5.737` fails (piglit uniform-initializer). */
uint32_t tfp_imm_bits(float k) { return fp20_encode(k, ULP_ROUND_TRUNCATE) & FP20_MASK; }
float tfp_fp20(float k) { return fp20_round(k, ULP_ROUND_TRUNCATE); }

static bool same_bits(float x, float y)
{
	return memcmp(&x, &y, sizeof x) == 0;
}

float tfp_xval(const tfp_opnd *o)
{
	if (o->kind != TO_IMM || !o->xfold)
		return o->k;
	if (same_bits(o->k, o->xk_of))
		return o->xk;
	if (same_bits(o->k, -o->xk_of))       /* modify(): -x */
		return -o->xk;
	if (same_bits(o->k, fabsf(o->xk_of)))  /* |x| */
		return fabsf(o->xk);
	return o->k;    /* changed otherwise (1 - k ...): the FP20 value, as before */
}

/* The ALU's a*b op c*1 on constants in double, then the condition code. */
static double alu_value(uint8_t op, uint8_t cc, double a, double b, double c)
{
	double x = a * b, v;
	switch (op) {
	case TA_MUL: v = x; break;
	case TA_MIN: v = x < c ? x : c; break;
	case TA_MAX: v = x > c ? x : c; break;
	default: v = x + c; break;
	}
	if (cc != TC_NONE)
		v = (cc == TC_EQ ? v == 0.0 : cc == TC_GT ? v > 0.0 : v >= 0.0) ? 1.0 : 0.0;
	return v;
}

/* What the ALU computes on constants (tegra-units.md: a*b op c*1 in double,
 * condition code, one FP20 rounding), reading each constant's FP20 word;
 * and beside it what arith=exact's ALU computes (each constant's binary32,
 * one binary32 rounding: units/gr3d/alu.c, docs/exact.md), which only exact
 * mode reads (fill_ximm).  A CSEL on a constant picks its operand. */
bool tfp_fold(uint8_t op, uint8_t cc, const tfp_opnd *a, const tfp_opnd *b, const tfp_opnd *c,
              tfp_opnd *r)
{
	if (op == TA_CSEL && a->kind == TO_IMM) {
		*r = tfp_fp20(a->k) < 0.0f ? *b : *c;
		return true;
	}
	if (a->kind != TO_IMM || b->kind != TO_IMM || c->kind != TO_IMM)
		return false;
	double v = alu_value(op, cc, tfp_fp20(a->k), tfp_fp20(b->k), tfp_fp20(c->k));
	double xv = alu_value(op, cc, tfp_xval(a), tfp_xval(b), tfp_xval(c));
	float k = fp20_round(v, ULP_ROUND_NEAREST_EVEN);
	*r = (tfp_opnd){ .kind = TO_IMM, .k = k, .xfold = true, .xk = (float)xv, .xk_of = k };
	return true;
}

void tegra_ir_caps(ir_caps *caps)
{
	memset(caps, 0, sizeof *caps);
	static const unsigned native[] = {
		IR_OP_CMP, IR_OP_SEQ, IR_OP_SNE, IR_OP_SGT, IR_OP_SLE, IR_OP_DP2, IR_OP_DPH,
		IR_OP_FRC, IR_OP_SIN, IR_OP_COS, IR_OP_SQRT, IR_OP_LIT,
		IR_OP_FBFETCH,   /* PSEQ's destination fetch (tegra_sched.c place_fetch) */
	};
	for (size_t i = 0; i < sizeof native / sizeof native[0]; i++)
		caps->native |= UINT64_C(1) << native[i];
	caps->src_abs = true;
	caps->sat = true;
	caps->texture = true;
}

static void mark_live(tfp_prog *p, bool *lv, const tfp_opnd *o)
{
	if (o->kind == TO_VAL && o->v >= 0 && (uint32_t)o->v < p->nval)
		lv[o->v] = true;
}

/* Dead operations are dropped (only what reaches the colour or kill runs). */
bool tfp_eliminate_dead(tfp_prog *p)
{
	bool *lv = calloc(p->nval + 1, sizeof *lv);
	if (!lv)
		return false;
	for (unsigned c = 0; c < 4; c++)
		mark_live(p, lv, &p->out[c]);
	if (p->has_kill)
		mark_live(p, lv, &p->kill);
	for (size_t i = p->n; i-- > 0;) {
		tfp_op *o = &p->op[i];
		o->live = false;
		for (unsigned k = 0; k < 4; k++)
			if (o->dst[k] >= 0 && lv[o->dst[k]])
				o->live = true;
		if (!o->live)
			continue;
		for (unsigned k = 0; k < 3; k++)
			mark_live(p, lv, &o->s[k]);
	}
	free(lv);
	return true;
}

void tfp_prog_free(tfp_prog *p)
{
	free(p->op);
	memset(p, 0, sizeof *p);
}

bool tfp_same_opnd(const tfp_opnd *x, const tfp_opnd *y)
{
	uint32_t kx, ky;
	memcpy(&kx, &x->k, sizeof kx);
	memcpy(&ky, &y->k, sizeof ky);
	return x->kind == y->kind && x->half == y->half && x->neg == y->neg && x->abs == y->abs &&
	       x->m1 == y->m1 && x->x2 == y->x2 && x->v == y->v && (x->kind != TO_IMM || kx == ky);
}

/* x is >= 0, -0 or NaN whatever the inputs (depth: operations looked
 * through): a square or a product of such values, a sum, MAX or MIN of
 * them, a saturated or condition-code (0/1) result, |x|, and the SFU's
 * EX2, RSQ and SQRT (it takes |x|, tegra-units.md).  An RSQ, LG2 or SQRT of
 * such a value needs no select for NaN below 0. */
bool tfp_nonneg(const tfp_prog *p, const tfp_opnd *x, unsigned depth)
{
	if (x->kind == TO_IMM) {
		float v = x->abs ? fabsf(x->k) : x->k;
		v = x->x2 ? 2.0f * v : v;
		v = x->m1 ? v - 1.0f : v;
		return (x->neg ? -v : v) >= 0.0f;
	}
	if (x->m1 || x->neg)
		return false;
	if (x->abs)
		return true;
	if (x->kind != TO_VAL || depth > 8)
		return false;
	for (size_t i = p->n; i-- > 0;) {
		const tfp_op *o = &p->op[i];
		if ((o->kind != TF_ALU && o->kind != TF_SFU) || o->dst[0] != x->v)
			continue;
		if (o->kind == TF_SFU)
			return o->sfu == TEGRA_SFU_EX2 || o->sfu == TEGRA_SFU_RSQ || o->sfu == TEGRA_SFU_SQRT;
		if (o->sat || o->cc != TC_NONE)
			return true;
		const bool prod = tfp_same_opnd(&o->s[0], &o->s[1]) ||
		                  (tfp_nonneg(p, &o->s[0], depth + 1) && tfp_nonneg(p, &o->s[1], depth + 1));
		switch (o->alu) {
		case TA_MUL: return prod;
		case TA_MAX: return prod || tfp_nonneg(p, &o->s[2], depth + 1);
		case TA_CSEL: return tfp_nonneg(p, &o->s[1], depth + 1) && tfp_nonneg(p, &o->s[2], depth + 1);
		default: return prod && tfp_nonneg(p, &o->s[2], depth + 1);   /* MAD, MIN */
		}
	}
	return false;
}
