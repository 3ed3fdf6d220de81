/* The batch's tame forms on eight lanes (units/pica/pica_batch.c's tame
 * run, docs/speed-s17-vtx.md): MUL, ADD and MAD without the range rules,
 * for operands the batch's range test finds tame; MAX and MIN.  Only for
 * functions compiled with target("avx2"). */
#ifndef ULP_UNITS_PICA_TAME_H
#define ULP_UNITS_PICA_TAME_H

#include "isa/f24_vec.h"

#if F24V_HAVE_AVX2
/* Sixteen lanes in two registers. */
typedef struct pica_lanes8 {
	__m256 lo, hi;
} pica_lanes8;

/* ---- the tame forms: a batch whose every operand is tame ----
 * In the truncating mode, when every operand of a MUL, ADD, MAD or dot
 * product is +-0 or has 2^-23 <= |x| < 2^30 (isa/f24_vec.h's tame bound),
 * none of f24_round's range rules fires in it, as for f24v_dot8_tame:
 * - no operand is flushed, infinite or NaN, so f24_mul's inf * 0 rule and
 *   the operands' flush change nothing;
 * - a product is 0 or 2^-46 <= |p| < 2^60, exact in double; truncated it
 *   is a multiple of 2^-62 (an exponent >= -46, 17 significant bits);
 * - a sum (ADD's, MAD's of the truncated product and c) is a multiple of
 *   2^-62 below 2^61 in magnitude; its double rounding keeps that (an
 *   inexact sum's ulp is coarser), and so does the truncation: a nonzero
 *   one is >= 2^-62 (no flush), < 2^64 (no infinity);
 * - a zero result is +0 in f24_round; here -0 can come out of a product
 *   or a sum, so the end's zeros are made +0 (a MAD's -0 product added to
 *   c gives what +0 gives, but for -0 + -0, which the end makes +0).
 * The operations are the general forms' own (f24v_mul8, f24v_add8,
 * f24v_addr8: the same double products and sums, the result converted to
 * float exactly), so every lane equals theirs bit for bit.  The batch runs
 * the tame forms and gathers every such operand in one range test
 * (f24v_tame8, lanes of other paths and past the jobs too); when the test
 * fails at the end the batch runs again with the general forms
 * (pica_batch_shade), so no result of the tame run is ever kept then.
 * tests/units/test_pica_tame.c checks the forms against the general ones. */
static inline F24V_AVX2 __m256 tame_fix0(__m256 r)
{
	return _mm256_andnot_ps(_mm256_cmp_ps(r, _mm256_setzero_ps(), _CMP_EQ_OQ), r);
}

static inline F24V_AVX2 __m256 tame_mul8(__m256 a, __m256 b)
{
	const __m256d keep = _mm256_castsi256_pd(f24v_k8(F24V_K_KEEP));
	const __m256d lo = _mm256_and_pd(_mm256_mul_pd(f24v_lo8(a), f24v_lo8(b)), keep);
	const __m256d hi = _mm256_and_pd(_mm256_mul_pd(f24v_hi8(a), f24v_hi8(b)), keep);
	return tame_fix0(_mm256_castsi256_ps(f24v_join8(lo, hi)));
}

static inline F24V_AVX2 __m256 tame_add8(__m256 a, __m256 b)
{
	const __m256d keep = _mm256_castsi256_pd(f24v_k8(F24V_K_KEEP));
	const __m256d lo = _mm256_and_pd(_mm256_add_pd(f24v_lo8(a), f24v_lo8(b)), keep);
	const __m256d hi = _mm256_and_pd(_mm256_add_pd(f24v_hi8(a), f24v_hi8(b)), keep);
	return tame_fix0(_mm256_castsi256_ps(f24v_join8(lo, hi)));
}

/* not fused: the product truncated, then the sum (it stays a double) */
static inline F24V_AVX2 __m256 tame_mad8(__m256 a, __m256 b, __m256 c)
{
	const __m256d keep = _mm256_castsi256_pd(f24v_k8(F24V_K_KEEP));
	__m256d lo = _mm256_and_pd(_mm256_mul_pd(f24v_lo8(a), f24v_lo8(b)), keep);
	__m256d hi = _mm256_and_pd(_mm256_mul_pd(f24v_hi8(a), f24v_hi8(b)), keep);
	lo = _mm256_and_pd(_mm256_add_pd(lo, f24v_lo8(c)), keep);
	hi = _mm256_and_pd(_mm256_add_pd(hi, f24v_hi8(c)), keep);
	return tame_fix0(_mm256_castsi256_ps(f24v_join8(lo, hi)));
}

/* MAX and MIN on eight lanes (f24v_max4, f24v_min4; MAX with the default
 * max(0, -inf) only) */
static inline F24V_AVX2 pica_lanes8 max8(pica_lanes8 a, pica_lanes8 b)
{
	return (pica_lanes8){ _mm256_blendv_ps(b.lo, a.lo, _mm256_cmp_ps(a.lo, b.lo, _CMP_GT_OQ)),
	                 _mm256_blendv_ps(b.hi, a.hi, _mm256_cmp_ps(a.hi, b.hi, _CMP_GT_OQ)) };
}

static inline F24V_AVX2 pica_lanes8 min8(pica_lanes8 a, pica_lanes8 b)
{
	return (pica_lanes8){ _mm256_blendv_ps(b.lo, a.lo, _mm256_cmp_ps(a.lo, b.lo, _CMP_LT_OQ)),
	                 _mm256_blendv_ps(b.hi, a.hi, _mm256_cmp_ps(a.hi, b.hi, _CMP_LT_OQ)) };
}

#endif

#endif
