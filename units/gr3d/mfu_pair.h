/* FP20 rounding on two values at a time, for the MFU's fast paths (mfu.c:
 * the perspective set-up, an SFU op on a register, FP20 interpolation).  Written
 * with the compiler's vector types (GCC and Clang: one SSE2 register on
 * x86-64, two scalars elsewhere), so that a pair is rounded in about fifteen
 * instructions.
 *
 * Each helper is the fast path of gr3d_quad.h's one-value rule (gr3d_round20,
 * gr3d_fp20_bits) on both lanes with no branch: the rounding increment on
 * the binary64 bits.  It also ORs how far each value is from a range inside
 * that fast path into `far`; when mfu_near_x2(far) says some value was out
 * of it (zero, tiny, huge, inf, NaN), the caller redoes its work with the
 * general steps, which use the one-value helpers.  The increment of
 * fp20.round is formed once per draw (mfu_round_of).  tests/units/test_mfu_pair.c
 * checks the helpers against the one-value ones around every FP20 code, in
 * every rounding mode. */
#ifndef ULP_UNITS_MFU_PAIR_H
#define ULP_UNITS_MFU_PAIR_H

#include "isa/fp20_vec.h"
#include "units/gr3d/gr3d_quad.h"

typedef double mfu_f64x2 __attribute__((vector_size(16)));
typedef uint64_t mfu_u64x2 __attribute__((vector_size(16)));
typedef float mfu_f32x2 __attribute__((vector_size(8)));

/* fp20.round as gr3d_fp20_bits applies it: add `add` to the binary64 bits,
 * plus the lowest kept bit (bit 39) when `odd` (ties to even), then drop
 * the 39 bits below FP20's 13-bit mantissa. */
typedef struct mfu_round {
	mfu_u64x2 add, odd;
} mfu_round;

static inline mfu_round mfu_round_of(enum ulp_round rm)
{
	const uint64_t add = rm == ULP_ROUND_NEAREST_EVEN ? (UINT64_C(1) << (FP20_F64_SHIFT - 1)) - 1
	                   : rm == ULP_ROUND_NEAREST_AWAY ? UINT64_C(1) << (FP20_F64_SHIFT - 1) : 0;
	const uint64_t odd = rm == ULP_ROUND_NEAREST_EVEN;
	return (mfu_round){ .add = { add, add }, .odd = { odd, odd } };
}

/* Which values the pair helpers take: 2^-16 <= |v| < 2^16, half of
 * fp20_f64_fast's exponent range (2^-29 <= |v| < 2^31), chosen so that the
 * test is one subtraction: with d = |v|'s bits - 2^-16's bits (wrapping
 * below), |v| is in range when d < 2^57 (32 binades).  Zero, tiny and huge
 * values, inf and NaN are out.  OR-ing the d of many values tests them all
 * at once (mfu_near_x2). */
#define MFU_PAIR_LO ((uint64_t)(1023 - 16) << 52)

/* All values whose d went into far are in range. */
static inline bool mfu_near_x2(mfu_u64x2 far) { return ((far[0] | far[1]) >> 57) == 0; }

/* gr3d_round20's fast path on both lanes; far |= their d. */
GR3D_HOT mfu_f64x2 mfu_round20_x2(const mfu_round *rd, mfu_f64x2 v, mfu_u64x2 *far)
{
	const mfu_u64x2 b = (mfu_u64x2)v;
	*far |= (b & ~(UINT64_C(1) << 63)) - MFU_PAIR_LO;
	return (mfu_f64x2)((b + rd->add + ((b >> FP20_F64_SHIFT) & rd->odd)) & ~((UINT64_C(1) << FP20_F64_SHIFT) - 1));
}

/* gr3d_fp20_bits's fast path on both lanes: each lane's FP20 code; far |=
 * their d. */
GR3D_HOT mfu_u64x2 mfu_fp20_bits_x2(const mfu_round *rd, mfu_f64x2 v, mfu_u64x2 *far)
{
	const mfu_u64x2 b = (mfu_u64x2)v, a = b & ~(UINT64_C(1) << 63);
	*far |= a - MFU_PAIR_LO;
	/* fp20_from_f64_normal on both lanes */
	return (b >> 63) << FP20_SIGN_SHIFT |
	       (((a + rd->add + ((a >> FP20_F64_SHIFT) & rd->odd)) >> FP20_F64_SHIFT) -
	        (FP20_F64_REBIAS << FP20_EXP_SHIFT));
}

/* mfu_fp20_bits_x2 on one value (for values stored one by one, which a
 * vector load would wait for): its FP20 code; far |= its d. */
static inline uint32_t mfu_fp20_bits_1(const mfu_round *rd, double v, uint64_t *far)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	const uint64_t a = b & ~(UINT64_C(1) << 63);
	*far |= a - MFU_PAIR_LO;
	return (uint32_t)((b >> 63) << FP20_SIGN_SHIFT |
	                  (((a + rd->add[0] + ((a >> FP20_F64_SHIFT) & rd->odd[0])) >> FP20_F64_SHIFT) -
	                   (FP20_F64_REBIAS << FP20_EXP_SHIFT)));
}

/* The same on four lanes, for the builds where a quad's four binary64 are
 * one register (AVX2: mfu.c's wide paths).  Pointers, not values: a
 * function taking or returning these would change its ABI with AVX, which
 * GCC warns about. */
typedef double mfu_f64x4 __attribute__((vector_size(32)));
typedef uint64_t mfu_u64x4 __attribute__((vector_size(32)));
typedef float mfu_f32x4 __attribute__((vector_size(16)));
typedef uint32_t mfu_u32x4 __attribute__((vector_size(16)));

static inline bool mfu_near_x4(const mfu_u64x4 *far)
{
	/* the two halves OR-ed first: one extract, not three */
	const mfu_u64x2 h = __builtin_shufflevector(*far, *far, 0, 1) | __builtin_shufflevector(*far, *far, 2, 3);
	return ((h[0] | h[1]) >> 57) == 0;
}

/* mfu_round20_x2 on four lanes, in place. */
GR3D_HOT void mfu_round20_x4(const mfu_round *rd, mfu_f64x4 *v, mfu_u64x4 *far)
{
	const mfu_u64x4 b = (mfu_u64x4)*v;
	*far |= (b & ~(UINT64_C(1) << 63)) - MFU_PAIR_LO;
	*v = (mfu_f64x4)((b + rd->add[0] + ((b >> FP20_F64_SHIFT) & rd->odd[0])) &
	                 ~((UINT64_C(1) << FP20_F64_SHIFT) - 1));
}

/* mfu_fp20_bits_x2 on four lanes: each lane's code in its 64-bit lane of
 * *code (the caller stores each lane's low word where it goes: narrowing
 * the vector first costs five shuffles).  zeros (a constant): +-0 is in
 * range too, its code its sign (fp20_encode_f64), for three more operations;
 * the callers take it only on a retry, after a value was out of range (a
 * varying that is 0 at a triangle's three vertices interpolates to +-0). */
GR3D_HOT void mfu_fp20_bits_x4(const mfu_round *rd, const mfu_f64x4 *v, mfu_u64x4 *far, mfu_u64x4 *code,
                               bool zeros)
{
	const mfu_u64x4 b = (mfu_u64x4)*v, a = b & ~(UINT64_C(1) << 63);
	const mfu_u64x4 keep = zeros ? (mfu_u64x4)(a != 0) : ~(mfu_u64x4){ 0, 0, 0, 0 };
	*far |= (a - MFU_PAIR_LO) & keep;
	*code = (b >> 63) << FP20_SIGN_SHIFT |
	        ((((a + rd->add[0] + ((a >> FP20_F64_SHIFT) & rd->odd[0])) >> FP20_F64_SHIFT) -
	          (FP20_F64_REBIAS << FP20_EXP_SHIFT)) & keep);
}

/* The binary64 bits of four FP20 words that are normal numbers, and the
 * words that are not (exponent 0 or 63), as a comparison's mask
 * (isa/fp20_vec.h). */
static inline void mfu_fp20_f64_normal(mfu_u32x4 w, mfu_f64x4 *out)
{
	fp20v_u64x4 b;
	fp20v_f64_bits_normal(w, &b);
	*out = (mfu_f64x4)b;
}
static inline mfu_u32x4 mfu_fp20_odd(mfu_u32x4 w) { return FP20_LANES_ODD(w, mfu_u32x4); }

#endif
