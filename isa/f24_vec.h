/* float24 arithmetic on four lanes at once (GCC/Clang vector types), for
 * the PICA200 fast path (units/pica/pica_fast.c).  Each lane is exactly
 * what the one-value helper of isa/f24.h gives: f24v_round2 lane k ==
 * f24_round(v[k], r), f24v_mul4 == f24_mul, f24v_add4 == f24_add,
 * f24v_round1 == f24_round, for values made by float24 arithmetic
 * (tests/units/test_f24_vec.c checks it).  The rounding stays f24_round's:
 * bit operations on the double's mantissa (an increment for nearest-even,
 * none for the other modes, which f24_round truncates), the flush to +0
 * below 2^-62, +-inf from 2^64, NaN as the one NaN f24_round returns.  A
 * change to f24_round's rules must be made here too (the test fails until
 * it is). */
#ifndef ULP_ISA_F24_VEC_H
#define ULP_ISA_F24_VEC_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "isa/f24.h"

typedef float f24v_f4 __attribute__((vector_size(16)));
typedef float f24v_f2 __attribute__((vector_size(8)));
typedef double f24v_d2 __attribute__((vector_size(16)));
typedef int32_t f24v_i4 __attribute__((vector_size(16)));
typedef int64_t f24v_l2 __attribute__((vector_size(16)));
typedef uint64_t f24v_u2 __attribute__((vector_size(16)));

/* The four-lane forms are small and hot: always inlined, so that their
 * vectors stay in registers in the callers' loops. */
#define F24V_INLINE __attribute__((always_inline))

/* 52 - 16 mantissa bits dropped */
#define F24V_DROP ((UINT64_C(1) << 36) - 1)

/* The rounding increment's mask: f24_round rounds to nearest-even in that
 * mode and truncates in every other. */
static inline uint64_t f24v_rne(enum ulp_round r) { return r == ULP_ROUND_NEAREST_EVEN ? UINT64_MAX : 0; }

#define F24V_SIGN64 (UINT64_C(1) << 63)
#define F24V_INF64 UINT64_C(0x7FF0000000000000)
#define F24V_NAN64 UINT64_C(0x7FF8000000000000)   /* converts to (float)NAN */

/* f24_round on two doubles, in their bits: below 2^-62 (before rounding)
 * +0; the mantissa rounded (a carry runs into the exponent); from 2^64
 * (after) +-inf; a NaN (found before rounding) the one NaN.  Vector casts
 * reinterpret the bits (GCC/Clang vector extension); 16-byte vectors only,
 * so that plain x86-64 (SSE2) keeps them in registers. */
static inline F24V_INLINE f24v_d2 f24v_round2(f24v_d2 v, uint64_t rne)
{
	const f24v_u2 nan = (f24v_u2)(v != v);
	f24v_u2 ub = (f24v_u2)v;
	const f24v_u2 small = (f24v_u2)((f24v_d2)(ub & ~F24V_SIGN64) < F24_MIN_NORMAL);
	ub = (ub + (((F24V_DROP >> 1) + ((ub >> 36) & 1)) & rne)) & ~F24V_DROP;
	const f24v_u2 big = (f24v_u2)((f24v_d2)(ub & ~F24V_SIGN64) >= 0x1p64);
	ub = (ub & ~big) | (big & ((ub & F24V_SIGN64) | F24V_INF64));
	ub &= ~small;
	ub = (ub & ~nan) | (nan & F24V_NAN64);
	return (f24v_d2)ub;
}

/* Four floats as two pairs of doubles, and back (exact both ways for
 * rounded values). */
static inline F24V_INLINE f24v_d2 f24v_lo(f24v_f4 a)
{
	return __builtin_convertvector(__builtin_shufflevector(a, a, 0, 1), f24v_d2);
}
static inline F24V_INLINE f24v_d2 f24v_hi(f24v_f4 a)
{
	return __builtin_convertvector(__builtin_shufflevector(a, a, 2, 3), f24v_d2);
}
static inline F24V_INLINE f24v_f4 f24v_join(f24v_d2 lo, f24v_d2 hi)
{
	const f24v_f2 l = __builtin_convertvector(lo, f24v_f2), h = __builtin_convertvector(hi, f24v_f2);
	return __builtin_shufflevector(l, h, 0, 1, 2, 3);
}

/* f24_round in its default mode (truncation, rne 0) on four results given
 * as two pairs of doubles: the dropped mantissa bits cleared, then the
 * range rules on the four floats at once (the truncated value is exact in
 * binary32 between 2^-126 and 2^128, and whatever the conversion does
 * outside that range falls under the rules): below 2^-62 +0 (truncation
 * never crosses 2^-62, so before or after rounding is the same test), from
 * 2^64 +-inf, a NaN (clearing low bits keeps a quiet NaN a NaN) the one
 * NaN.  Lane for lane f24v_round2 with rne 0. */
static inline F24V_INLINE f24v_f4 f24v_trunc4(f24v_d2 lo, f24v_d2 hi)
{
	lo = (f24v_d2)((f24v_u2)lo & ~F24V_DROP);
	hi = (f24v_d2)((f24v_u2)hi & ~F24V_DROP);
	f24v_i4 b = (f24v_i4)f24v_join(lo, hi);
	const f24v_i4 a = b & 0x7FFFFFFF;
	const f24v_i4 nan = a > 0x7F800000;
	const f24v_i4 big = (a >= 0x5F800000) & ~nan;           /* 2^64 */
	b = (b & ~big) | (big & ((b & INT32_MIN) | 0x7F800000));
	b &= ~(a < 0x20800000);                                  /* 2^-62 */
	b = (b & ~nan) | (nan & 0x7FC00000);                     /* (float)NAN */
	return (f24v_f4)b;
}

/* f24_of_f32 (not exact: a vertex attribute as a register value) on four
 * lanes.  A lane whose binary32 exponent field is 65..254 (float24's normal
 * range and the overflow above it) or that is a zero is worked out in the
 * vector: 7 mantissa bits dropped with the mode's increment (nearest-even
 * or nearest-away; every other mode truncates), a carry running into the
 * exponent, 2^64 and up +-inf, a zero +0.  A lane below 2^-62 (float24's
 * subnormal steps), an infinity or a NaN sends the four to f24_of_f32 one
 * by one.  tests/isa/test_f24_vec.c checks it lane for lane. */
static inline F24V_INLINE f24v_f4 f24v_of_f32_4(f24v_f4 v, enum ulp_round r)
{
	const f24v_i4 b = (f24v_i4)v, mag = b & 0x7FFFFFFF;   /* signed compares: mag >= 0 */
	const f24v_i4 zero = mag == 0;
	const f24v_i4 fast = ((mag >= (65 << 23)) & (mag < 0x7F800000)) | zero;
	typedef int64_t l2 __attribute__((vector_size(16)));
	const l2 all = (l2)fast;
	if ((all[0] & all[1]) != -1) {
		for (unsigned k = 0; k < 4; k++)
			v[k] = f24_of_f32(v[k], r, false);
		return v;
	}
	const f24v_i4 q = mag >> 7, rem = mag & 127;
	f24v_i4 inc = { 0, 0, 0, 0 };                   /* -1 where the mode rounds up */
	if (r == ULP_ROUND_NEAREST_EVEN)
		inc = (rem > 64) | ((rem == 64) & ((q & 1) != 0));
	else if (r == ULP_ROUND_NEAREST_AWAY)
		inc = rem >= 64;
	f24v_i4 out = (q - inc) << 7;                   /* the carry bumps the exponent; < 2^31 */
	const f24v_i4 inf = out >= (191 << 23);
	out = (out & ~inf) | (inf & 0x7F800000);
	out = (out | (b & INT32_MIN)) & ~zero;
	return (f24v_f4)out;
}

/* f24_flush: |x| < 2^-62 -> +0 */
static inline F24V_INLINE f24v_f4 f24v_flush4(f24v_f4 a)
{
	const f24v_i4 bits = (f24v_i4)a;
	return (f24v_f4)(bits & ~((bits & 0x7FFFFFFF) < 0x20800000));
}

/* The exact product of two pairs, inf * 0 = 0 (the only NaN a product of
 * two non-NaN values makes). */
static inline F24V_INLINE f24v_d2 f24v_prod2(f24v_d2 a, f24v_d2 b)
{
	const f24v_d2 p = a * b;
	const f24v_l2 inf0 = (p != p) & (a == a) & (b == b);
	return (f24v_d2)((f24v_l2)p & ~inf0);
}

/* f24_mul: flushed operands, the exact product rounded once. */
static inline F24V_INLINE f24v_f4 f24v_mul4(f24v_f4 a, f24v_f4 b, uint64_t rne)
{
	a = f24v_flush4(a);
	b = f24v_flush4(b);
	const f24v_d2 lo = f24v_prod2(f24v_lo(a), f24v_lo(b)), hi = f24v_prod2(f24v_hi(a), f24v_hi(b));
	if (!rne)
		return f24v_trunc4(lo, hi);
	return f24v_join(f24v_round2(lo, rne), f24v_round2(hi, rne));
}

/* f24_add */
static inline F24V_INLINE f24v_f4 f24v_add4(f24v_f4 a, f24v_f4 b, uint64_t rne)
{
	a = f24v_flush4(a);
	b = f24v_flush4(b);
	const f24v_d2 lo = f24v_lo(a) + f24v_lo(b), hi = f24v_hi(a) + f24v_hi(b);
	if (!rne)
		return f24v_trunc4(lo, hi);
	return f24v_join(f24v_round2(lo, rne), f24v_round2(hi, rne));
}

/* f24_round on one double, the same bit steps. */
static inline float f24v_round1(double v, uint64_t rne)
{
	if (isnan(v))
		return NAN;
	if (fabs(v) < F24_MIN_NORMAL)
		return 0.0f;
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	bits = (bits + (((F24V_DROP >> 1) + ((bits >> 36) & 1)) & rne)) & ~F24V_DROP;
	memcpy(&v, &bits, sizeof v);
	if (fabs(v) >= 0x1p64)
		return v < 0 ? -INFINITY : INFINITY;
	return (float)v;
}

/* f24_add on one pair of f24 register values */
static inline float f24v_add1(float a, float b, uint64_t rne)
{
	return f24v_round1((double)f24_flush(a) + f24_flush(b), rne);
}

/* f24_add of two rounded values (f24_round results: +0, normal, +-inf or
 * NaN), for which f24_flush changes nothing: the sums of a dot product. */
static inline float f24v_sum1(float a, float b, uint64_t rne)
{
	return f24v_round1((double)a + b, rne);
}

/* ---- comparisons and choices: f24_sge, f24_slt, f24_max, f24_min ----
 * A lane's result is one of the operands' floats, or 1.0 / 0.0, bit for bit
 * as the one-value helpers give it (a NaN compares false, -0 == +0). */

/* m's lanes (all ones or zero): a where set, else b, every bit kept. */
static inline F24V_INLINE f24v_f4 f24v_select4(f24v_i4 m, f24v_f4 a, f24v_f4 b)
{
	return (f24v_f4)((m & (f24v_i4)a) | (~m & (f24v_i4)b));
}

static inline F24V_INLINE f24v_f4 f24v_sge4(f24v_f4 a, f24v_f4 b)
{
	return (f24v_f4)((a >= b) & (f24v_i4){ 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000 });
}

static inline F24V_INLINE f24v_f4 f24v_slt4(f24v_f4 a, f24v_f4 b)
{
	return (f24v_f4)((a < b) & (f24v_i4){ 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000 });
}

static inline F24V_INLINE f24v_f4 f24v_max4(f24v_f4 a, f24v_f4 b, const f24_mode *m)
{
	f24v_f4 r = f24v_select4(a > b, a, b);
	if (m->max_neg_inf == F24_MAX_NEG_INF)         /* max(+-0, -inf) = -inf */
		r = f24v_select4((b == -INFINITY) & (a == 0.0f), b, r);
	return r;
}

static inline F24V_INLINE f24v_f4 f24v_min4(f24v_f4 a, f24v_f4 b) { return f24v_select4(a < b, a, b); }

/* ---- eight lanes with AVX2 (x86-64 only; the caller checks the CPU) ----
 * The same operations on 32-byte vectors, for functions compiled with
 * target("avx2") (units/pica/pica_batch.c picks them at run time): four
 * doubles per operation instead of two.  Lane for lane f24v_mul4 and
 * f24v_add4 (the same IEEE operations in the same order);
 * tests/isa/test_f24_vec.c checks them where the CPU has AVX2.  Written
 * with the AVX2 intrinsics: GCC 12 builds a float -> double conversion of
 * half a vector from vector-extension code in four instructions instead of
 * one, and the range rules in twice the instructions. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define F24V_HAVE_AVX2 1
#define F24V_AVX2 __attribute__((target("avx2"), always_inline))

typedef float f24v_f8 __attribute__((vector_size(32)));
typedef double f24v_d4 __attribute__((vector_size(32)));

/* The eight-lane constants, read from memory: GCC 12 otherwise builds each
 * one at each use from an integer register (mov, vmovd, vpbroadcastd), a
 * third of a MUL's instructions.  The empty asm hides where the table is,
 * so that a constant stays a load, which the instruction using it takes as
 * its memory operand. */
enum { F24V_K_ABS, F24V_K_TINY, F24V_K_BIG, F24V_K_INF, F24V_K_SIGN, F24V_K_NAN, F24V_K_KEEP,
       F24V_K_N };
typedef struct f24v_row8 {
	int32_t v[8];
} __attribute__((aligned(32))) f24v_row8;
#define F24V_ROW8(x) { { x, x, x, x, x, x, x, x } }
static const f24v_row8 F24V_K8[F24V_K_N] = {
	[F24V_K_ABS] = F24V_ROW8(INT32_MAX),
	[F24V_K_TINY] = F24V_ROW8(0x20800000),      /* 2^-62 */
	[F24V_K_BIG] = F24V_ROW8(0x5F7FFFFF),       /* below 2^64 */
	[F24V_K_INF] = F24V_ROW8(0x7F800000),
	[F24V_K_SIGN] = F24V_ROW8(INT32_MIN),
	[F24V_K_NAN] = F24V_ROW8(0x7FC00000),       /* (float)NAN */
	[F24V_K_KEEP] = { { 0, -16, 0, -16, 0, -16, 0, -16 } },   /* ~F24V_DROP: 0xFFFFFFF0'00000000 */
};
#undef F24V_ROW8

static inline F24V_AVX2 __m256i f24v_k8(unsigned k)
{
	const f24v_row8 *t = F24V_K8;
	__asm__("" : "+r"(t));
	return _mm256_load_si256((const __m256i *)t[k].v);
}

/* The four low and the four high floats as doubles (exact). */
static inline F24V_AVX2 __m256d f24v_lo8(__m256 a) { return _mm256_cvtps_pd(_mm256_castps256_ps128(a)); }
static inline F24V_AVX2 __m256d f24v_hi8(__m256 a) { return _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)); }

/* Two times four doubles as eight floats (the conversion rounds as
 * f24v_join's does). */
static inline F24V_AVX2 __m256i f24v_join8(__m256d lo, __m256d hi)
{
	return _mm256_castps_si256(_mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)),
	                                                _mm256_cvtpd_ps(hi), 1));
}

/* f24_flush: |x| < 2^-62 -> +0 */
static inline F24V_AVX2 __m256 f24v_flush8(__m256 a)
{
	const __m256i b = _mm256_castps_si256(a);
	const __m256i small = _mm256_cmpgt_epi32(f24v_k8(F24V_K_TINY), _mm256_and_si256(b, f24v_k8(F24V_K_ABS)));
	return _mm256_castsi256_ps(_mm256_andnot_si256(small, b));
}

/* f24v_round2 on four doubles */
static inline F24V_AVX2 __m256d f24v_round4d(__m256d v, uint64_t rne)
{
	typedef uint64_t u4 __attribute__((vector_size(32)));
	const u4 nan = (u4)_mm256_cmp_pd(v, v, _CMP_UNORD_Q);
	u4 ub = (u4)v;
	const u4 small = (u4)((f24v_d4)(ub & ~F24V_SIGN64) < F24_MIN_NORMAL);
	ub = (ub + (((F24V_DROP >> 1) + ((ub >> 36) & 1)) & rne)) & ~F24V_DROP;
	const u4 big = (u4)((f24v_d4)(ub & ~F24V_SIGN64) >= 0x1p64);
	ub = (ub & ~big) | (big & ((ub & F24V_SIGN64) | F24V_INF64));
	ub &= ~small;
	ub = (ub & ~nan) | (nan & F24V_NAN64);
	return (__m256d)ub;
}

/* f24v_trunc4 on eight, the NaN lanes getting nanv's bits: the dropped
 * mantissa bits cleared, the range rules on the floats (small and big are
 * apart; big takes in the NaNs, which the last step then sets). */
static inline F24V_AVX2 __m256 f24v_trunc8(__m256d lo, __m256d hi, __m256i nanv)
{
	const __m256d keep = _mm256_castsi256_pd(f24v_k8(F24V_K_KEEP));
	const __m256i b = f24v_join8(_mm256_and_pd(lo, keep), _mm256_and_pd(hi, keep));
	const __m256i a = _mm256_and_si256(b, f24v_k8(F24V_K_ABS));
	const __m256i small = _mm256_cmpgt_epi32(f24v_k8(F24V_K_TINY), a);   /* 2^-62 */
	const __m256i big = _mm256_cmpgt_epi32(a, f24v_k8(F24V_K_BIG));     /* 2^64 */
	const __m256i nan = _mm256_cmpgt_epi32(a, f24v_k8(F24V_K_INF));
	const __m256i inf = _mm256_or_si256(_mm256_and_si256(b, f24v_k8(F24V_K_SIGN)), f24v_k8(F24V_K_INF));
	__m256i r = _mm256_andnot_si256(small, b);
	r = _mm256_blendv_epi8(r, inf, big);
	return _mm256_castsi256_ps(_mm256_blendv_epi8(r, nanv, nan));
}

static inline F24V_AVX2 __m256 f24v_join_round8(__m256d lo, __m256d hi, uint64_t rne)
{
	return _mm256_castsi256_ps(f24v_join8(f24v_round4d(lo, rne), f24v_round4d(hi, rne)));
}

/* f24v_mul4 on eight.  A product is NaN from a NaN operand or from inf * 0,
 * which gives 0 (f24v_prod2): with truncation a NaN lane takes (float)NAN
 * where an operand is a NaN, else 0. */
static inline F24V_AVX2 f24v_f8 f24v_mul8(f24v_f8 x, f24v_f8 y, uint64_t rne)
{
	const __m256 a = f24v_flush8((__m256)x), b = f24v_flush8((__m256)y);
	__m256d lo = _mm256_mul_pd(f24v_lo8(a), f24v_lo8(b)), hi = _mm256_mul_pd(f24v_hi8(a), f24v_hi8(b));
	if (!rne) {
		const __m256i nan_in = _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_UNORD_Q));
		return (f24v_f8)f24v_trunc8(lo, hi, _mm256_and_si256(nan_in, f24v_k8(F24V_K_NAN)));
	}
	const __m256d z = _mm256_setzero_pd();
	lo = _mm256_blendv_pd(lo, z, _mm256_andnot_pd(_mm256_cmp_pd(f24v_lo8(a), f24v_lo8(b), _CMP_UNORD_Q),
	                                              _mm256_cmp_pd(lo, lo, _CMP_UNORD_Q)));
	hi = _mm256_blendv_pd(hi, z, _mm256_andnot_pd(_mm256_cmp_pd(f24v_hi8(a), f24v_hi8(b), _CMP_UNORD_Q),
	                                              _mm256_cmp_pd(hi, hi, _CMP_UNORD_Q)));
	return (f24v_f8)f24v_join_round8(lo, hi, rne);
}

/* f24v_add4 on eight: a NaN sum (a NaN operand, inf - inf) is (float)NAN.
 * f24v_addr8 takes x rounded (an f24_round result: +0, |x| >= 2^-62, inf
 * or the NaN), which the flush leaves as it is: a MAD's product, a dot
 * product's sum; f24v_sum8 takes both rounded (a dot product's sums). */
static inline F24V_AVX2 f24v_f8 f24v_add8_(__m256 a, __m256 b, uint64_t rne)
{
	const __m256d lo = _mm256_add_pd(f24v_lo8(a), f24v_lo8(b)), hi = _mm256_add_pd(f24v_hi8(a), f24v_hi8(b));
	if (!rne)
		return (f24v_f8)f24v_trunc8(lo, hi, f24v_k8(F24V_K_NAN));
	return (f24v_f8)f24v_join_round8(lo, hi, rne);
}

static inline F24V_AVX2 f24v_f8 f24v_add8(f24v_f8 x, f24v_f8 y, uint64_t rne)
{
	return f24v_add8_(f24v_flush8((__m256)x), f24v_flush8((__m256)y), rne);
}

static inline F24V_AVX2 f24v_f8 f24v_addr8(f24v_f8 x, f24v_f8 y, uint64_t rne)
{
	return f24v_add8_((__m256)x, f24v_flush8((__m256)y), rne);
}

static inline F24V_AVX2 f24v_f8 f24v_sum8(f24v_f8 x, f24v_f8 y, uint64_t rne)
{
	return f24v_add8_((__m256)x, (__m256)y, rne);
}

/* f24_rcp and f24_rsq on eight: the flushed operand, 1 / x or 1 / sqrt(x)
 * in doubles (IEEE division and square root, correctly rounded as the
 * scalar helpers' are), rounded once; a NaN (a NaN operand, the root of a
 * negative) is (float)NAN. */
static inline F24V_AVX2 f24v_f8 f24v_sfu8(f24v_f8 x, uint64_t rne, bool root)
{
	const __m256 a = f24v_flush8((__m256)x);
	const __m256d one = _mm256_set1_pd(1.0);
	__m256d lo = f24v_lo8(a), hi = f24v_hi8(a);
	if (root) {
		lo = _mm256_sqrt_pd(lo);
		hi = _mm256_sqrt_pd(hi);
	}
	lo = _mm256_div_pd(one, lo);
	hi = _mm256_div_pd(one, hi);
	if (!rne)
		return (f24v_f8)f24v_trunc8(lo, hi, f24v_k8(F24V_K_NAN));
	return (f24v_f8)f24v_join_round8(lo, hi, rne);
}

static inline F24V_AVX2 f24v_f8 f24v_rcp8(f24v_f8 x, uint64_t rne) { return f24v_sfu8(x, rne, false); }
static inline F24V_AVX2 f24v_f8 f24v_rsq8(f24v_f8 x, uint64_t rne) { return f24v_sfu8(x, rne, true); }

/* ---- a dot product of tame operands, in the default mode (truncation) ----
 * When every operand is +-0 or has 2^-23 <= |x| < 2^30, f24_dot's range
 * rules never fire, and each f24_round is the clearing of the 36 dropped
 * mantissa bits (a zero's sign aside):
 * - no flush of an operand (|x| >= 2^-23 or 0) and no NaN or infinity in;
 * - a product is 0 or 2^-46 <= |p| < 2^60 (exact in double, as f24_mul's);
 *   truncated it keeps an exponent >= -46, so it is a multiple of 2^-62;
 * - a sum of multiples of 2^-62, rounded to double and truncated, is a
 *   multiple of 2^-62 again and below 4 * 2^60 in magnitude: a nonzero one
 *   is >= 2^-62 (no flush) and < 2^64 (no infinity);
 * - a zero result is +0 in f24_round; here a -0 can pass through a sum
 *   (x + -0 == x for x != 0), so the end's zeros are made +0.
 * The operations are f24_dot's own (the same double products and sums in
 * the same order), so a lane equals f24_dot's bit for bit; a lane outside
 * the range sends the dot product to the general forms (f24v_mul8,
 * f24v_sum8).  tests/isa/test_f24_tame.c checks both sides of every bound. */
#define F24V_TAME_MIN 0x34000000      /* 2^-23 */
#define F24V_TAME_END 0x4E800000      /* 2^30 */

/* The operands seen so far: the largest |x| and the smallest |x| - 1
 * (unsigned: a zero's is the largest). */
typedef struct f24v_tame8 {
	__m256i max, min1;
} f24v_tame8;

static inline F24V_AVX2 f24v_tame8 f24v_tame8_start(void)
{
	return (f24v_tame8){ _mm256_setzero_si256(), _mm256_set1_epi32(-1) };
}

static inline F24V_AVX2 void f24v_tame8_see(f24v_tame8 *t, __m256 v)
{
	const __m256i a = _mm256_and_si256(_mm256_castps_si256(v), f24v_k8(F24V_K_ABS));
	t->max = _mm256_max_epu32(t->max, a);
	t->min1 = _mm256_min_epu32(t->min1, _mm256_add_epi32(a, _mm256_set1_epi32(-1)));
}

/* Whether every operand seen is tame. */
static inline F24V_AVX2 bool f24v_tame8_ok(const f24v_tame8 *t)
{
	const __m256i lo = _mm256_set1_epi32(F24V_TAME_MIN - 1);
	const __m256i ok = _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(F24V_TAME_END), t->max),
	                                    _mm256_cmpeq_epi32(_mm256_max_epu32(t->min1, lo), t->min1));
	return _mm256_movemask_epi8(ok) == -1;
}

/* f24_dot of n (3 or 4) pairs of tame operands, truncating: each product
 * and sum in double with the dropped bits cleared, the zeros made +0. */
static inline F24V_AVX2 __m256 f24v_dot8_tame(const __m256 *a, const __m256 *b, unsigned n)
{
	const __m256d keep = _mm256_castsi256_pd(f24v_k8(F24V_K_KEEP));
	__m256d lo = _mm256_and_pd(_mm256_mul_pd(f24v_lo8(a[0]), f24v_lo8(b[0])), keep);
	__m256d hi = _mm256_and_pd(_mm256_mul_pd(f24v_hi8(a[0]), f24v_hi8(b[0])), keep);
	for (unsigned k = 1; k < n; k++) {
		const __m256d plo = _mm256_and_pd(_mm256_mul_pd(f24v_lo8(a[k]), f24v_lo8(b[k])), keep);
		const __m256d phi = _mm256_and_pd(_mm256_mul_pd(f24v_hi8(a[k]), f24v_hi8(b[k])), keep);
		lo = _mm256_and_pd(_mm256_add_pd(lo, plo), keep);
		hi = _mm256_and_pd(_mm256_add_pd(hi, phi), keep);
	}
	const __m256 r = _mm256_castsi256_ps(f24v_join8(lo, hi));
	return _mm256_andnot_ps(_mm256_cmp_ps(r, _mm256_setzero_ps(), _CMP_EQ_OQ), r);
}
#endif

#endif
