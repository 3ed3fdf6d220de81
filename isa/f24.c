#include "isa/f24.h"

#include <math.h>
#include <string.h>

/* pica200.md §2.1: 1 sign, 7 exponent (bias 63), 16 mantissa; exponent 0 =
 * zero/subnormal (decoded exactly, as Azahar does); no negative zero (§2.2). */
const ulp_minifloat F24_FORMAT = {
	.name = "f24", .ebits = 7, .mbits = 16, .bias = 63,
	.subnormals = true, .neg_zero = false,
};

const f24_mode F24_MODE_DEFAULT = {
	.round = ULP_ROUND_TRUNCATE,
	.max_neg_inf = F24_MAX_FORMULA,
	.exact = false,
};

float f24_decode(uint32_t bits) { return (float)mf_decode(&F24_FORMAT, bits & 0xFFFFFFu); }

uint32_t f24_encode(float v, enum ulp_round r) { return mf_encode(&F24_FORMAT, v, r); }

/* DP3/DP4: each product rounded, summed in component order, each sum
 * rounded (knob-free assumption, docs/ASSUMPTIONS.md "f24 dot order"). */
float f24_dot(const float *a, const float *b, int n, const f24_mode *m)
{
	float acc = f24_mul(a[0], b[0], m);
	for (int i = 1; i < n; i++)
		acc = f24_add(acc, f24_mul(a[i], b[i], m), m);
	return acc;
}

/* No flush in MAX/MIN (max(s,0) = s).  NaN asymmetry from the formula. */
float f24_max(float a, float b, const f24_mode *m)
{
	if (m->max_neg_inf == F24_MAX_NEG_INF && isinf(b) && b < 0 && a == 0.0f)
		return b;
	return (a > b) ? a : b;
}

float f24_min(float a, float b, const f24_mode *m)
{
	(void)m;
	return (a < b) ? a : b;
}

/* Special functions: exact libm, then rounded (precision on silicon is
 * unknown: pica200.md §8 q3, docs/ASSUMPTIONS.md). */
float f24_rcp(float a, const f24_mode *m) { return f24_result(1.0 / (double)f24_operand(a, m), m); }

float f24_rsq(float a, const f24_mode *m)
{
	return f24_result(1.0 / sqrt((double)f24_operand(a, m)), m);
}

float f24_ex2(float a, const f24_mode *m) { return f24_result(exp2((double)f24_operand(a, m)), m); }

float f24_lg2(float a, const f24_mode *m) { return f24_result(log2((double)f24_operand(a, m)), m); }

float f24_flr(float a, const f24_mode *m) { return f24_result(floor((double)f24_operand(a, m)), m); }

float f24_sge(float a, float b) { return (a >= b) ? 1.0f : 0.0f; }

float f24_slt(float a, float b) { return (a < b) ? 1.0f : 0.0f; }
