/* PICA200 float24: sign bit 23, exponent bits 16..22 (bias 63), mantissa
 * bits 0..15.  1.0 = 0x3F0000.  (pica200.md §2.1)
 *
 * Shader registers hold f24 values as host floats: every f24 value is exactly
 * representable in binary32, so arithmetic is done in double and rounded
 * back with f24_round() under an explicit mode.  The rules are the hardware
 * facts of pica200.md §2.2 (3dbrew "Floating-Point Behavior"):
 *   - no negative zero; inf*0 = 0 in MUL/MAD/DP*; NaN*0 = NaN
 *   - subnormal inputs and outputs flushed to +0, except in CMP and MAX/MIN
 *   - MAX/MIN are (a > b) ? a : b and (a < b) ? a : b
 *   - MAD is not fused: the product is rounded first. */
#ifndef ULP_ISA_F24_H
#define ULP_ISA_F24_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa/minifloat.h"

extern const ulp_minifloat F24_FORMAT;

#define F24_ONE 0x3F0000u
#define F24_MIN_NORMAL 0x1p-62

/* max(0, -inf): the sources disagree (pica200.md §2.2, §8 q4). */
enum f24_max_neg_inf {
	F24_MAX_FORMULA = 0,  /* (a > b) ? a : b  -> max(0,-inf) = 0  (default) */
	F24_MAX_NEG_INF,      /* 3dbrew's table: max(0,-inf) = -inf */
};

typedef struct f24_mode {
	enum ulp_round round;             /* knob f24.round, default truncate */
	enum f24_max_neg_inf max_neg_inf; /* knob f24.max_zero_neg_inf */
	bool exact;                       /* arith=exact: binary32 (docs/exact.md) */
} f24_mode;

extern const f24_mode F24_MODE_DEFAULT;

/* Raw bits <-> host float (decode is exact; encode of an f24-exact float is
 * exact; other floats round with r). */
float f24_decode(uint32_t bits);
uint32_t f24_encode(float v, enum ulp_round r);


/* Arithmetic as the shader unit does it (operands are f24 register values). */
float f24_dot(const float *a, const float *b, int n, const f24_mode *m);
float f24_max(float a, float b, const f24_mode *m);
float f24_min(float a, float b, const f24_mode *m);
float f24_rcp(float a, const f24_mode *m);
float f24_rsq(float a, const f24_mode *m);
float f24_ex2(float a, const f24_mode *m);
float f24_lg2(float a, const f24_mode *m);
float f24_flr(float a, const f24_mode *m);
float f24_sge(float a, float b);   /* a >= b ? 1 : 0; NaN -> 0 */
float f24_slt(float a, float b);   /* a <  b ? 1 : 0; NaN -> 0 */

/* ---- the hot operations, inline (the shader core calls them per component) ----
 *
 * Round a double to an f24 register value: mantissa to 16 bits, |v| >= 2^64
 * -> inf, |v| < 2^-62 -> +0, NaN -> NaN, -0 -> +0.
 * Hot path: round a double's 52-bit mantissa to 16 bits in place. */
static inline float f24_round(double v, enum ulp_round r)
{
	if (isnan(v))
		return NAN;
	double a = fabs(v);
	if (a < F24_MIN_NORMAL)            /* subnormal results flush to +0 (§2.2) */
		return 0.0f;
	if (isinf(v))
		return (float)v;
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	const uint64_t drop = (1ull << 36) - 1;     /* 52 - 16 mantissa bits */
	uint64_t rem = bits & drop;
	bits &= ~drop;
	if (r == ULP_ROUND_NEAREST_EVEN &&
	    (rem > (1ull << 35) || (rem == (1ull << 35) && (bits >> 36 & 1))))
		bits += 1ull << 36;                  /* a carry bumps the exponent */
	memcpy(&v, &bits, sizeof v);
	if (fabs(v) >= 0x1p64)                     /* largest f24 is just below 2^64 */
		return v < 0 ? -INFINITY : INFINITY;
	return (float)v;
}

/* An f32 input (uniform upload, vertex attribute) as a register value:
 * converted to float24 with r, or kept with arith=exact (docs/exact.md).
 * The value is f24_decode(f24_encode(v, r)) (float24 keeps subnormals here,
 * steps of 2^-78 below 2^-62; -0 is +0; NaN the canonical NaN), worked
 * out on v's bits: vertex fetch converts every attribute component.
 * tests/isa/test_f24_vec.c checks it against the composition. */
static inline float f24_of_f32(float v, enum ulp_round r, bool exact)
{
	if (exact)
		return v;
	uint32_t b;
	memcpy(&b, &v, sizeof b);
	const uint32_t sign = b & 0x80000000u, mag = b & 0x7FFFFFFFu, e = mag >> 23;
	if (mag >= 0x7F800000u)                   /* inf stays; NaN: the canonical one */
		return mag == 0x7F800000u ? v : NAN;
	/* binary32 exponent field e: float24's normals from 2^-62 (e 65) keep
	 * 16 of 23 mantissa bits; below, steps of 2^-78 drop 72 - e bits of
	 * the 24-bit significand (a carry may reach the next binade) */
	const unsigned k = e >= 65 ? 7 : 72 - e;
	if (k > 24)                               /* under half a step: +0 in every mode */
		return 0.0f;
	const uint32_t sig = e >= 65 ? mag : (mag & 0x7FFFFFu) | (e ? 0x800000u : 0);
	const uint32_t half = 1u << (k - 1), rem = sig & ((half << 1) - 1);
	uint32_t q = sig >> k;
	if ((r == ULP_ROUND_NEAREST_EVEN && (rem > half || (rem == half && (q & 1)))) ||
	    (r == ULP_ROUND_NEAREST_AWAY && rem >= half))
		q++;
	if (e < 65) {                             /* q steps of 2^-78 (2^16 of them: 2^-62) */
		const float a = (float)q * 0x1p-78f;
		return sign && q ? -a : a;
	}
	const uint32_t out = q << k;              /* the carry bumps the exponent */
	if (out >= 191u << 23)                    /* 2^64 and up: inf */
		return sign ? -INFINITY : INFINITY;
	b = sign | out;
	memcpy(&v, &b, sizeof v);
	return v;
}

static inline float f24_flush(float v)
{
	return fabsf(v) < (float)F24_MIN_NORMAL ? 0.0f : v;
}

/* arith=exact: binary32 subnormals flushed to +0 where float24's are
 * (docs/exact.md "Subnormals"; no negative zero, pica200.md §2.2). */
static inline float f24_xflush(float v)
{
	return fabsf(v) < FLT_MIN ? 0.0f : v;
}

/* A result as the mode rounds it: to float24 (f24_round), or to binary32
 * with arith=exact (docs/exact.md). */
static inline float f24_result(double v, const f24_mode *m)
{
	return m->exact ? f24_xflush((float)v) : f24_round(v, m->round);
}

/* An operand as the mode reads it: float24's subnormals flushed, or
 * binary32's with arith=exact. */
static inline float f24_operand(float v, const f24_mode *m)
{
	return m->exact ? f24_xflush(v) : f24_flush(v);
}

static inline float f24_add(float a, float b, const f24_mode *m)
{
	return f24_result((double)f24_operand(a, m) + f24_operand(b, m), m);
}

/* inf * 0 = 0 (not NaN); NaN * 0 stays NaN.  The product of two 17-bit
 * significands is exact in double, so one rounding happens. */
static inline double f24_mul_exact_(float a, float b, const f24_mode *m)
{
	a = f24_operand(a, m);
	b = f24_operand(b, m);
	if ((a == 0.0f && isinf(b)) || (b == 0.0f && isinf(a)))
		return 0.0;
	return (double)a * b;
}

static inline float f24_mul(float a, float b, const f24_mode *m)
{
	return f24_result(f24_mul_exact_(a, b, m), m);
}

/* Not fused: the product is rounded before the add (§2.2). */
static inline float f24_mad(float a, float b, float c, const f24_mode *m)
{
	return f24_add(f24_mul(a, b, m), c, m);
}

#endif
