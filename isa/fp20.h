/* Tegra GR3D FP20: sign bit 19, exponent bits 13..18 (bias 31), mantissa
 * bits 0..12.  1.0 = 0x3E000.  The layout is named here once (FP20_*,
 * fp20_fields_of); every unit reads and writes FP20 through these.  Exponent 63 = inf/NaN; exponent 0 = zero
 * (no subnormals: tegra-fp.md §2.4, grate's decoder has none).
 * Registers carry FP20 values as host floats (every FP20 is exact in binary32). */
#ifndef ULP_ISA_FP20_H
#define ULP_ISA_FP20_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa/minifloat.h"

extern const ulp_minifloat FP20_FORMAT;

/* ---- the layout, named once (tegra-fp.md §2.4) ----
 *   19   18 .. 13   12 .. 0
 *  +----+----------+--------+
 *  |sign| exponent |mantissa|
 *  +----+----------+--------+   */
#define FP20_MANT_BITS 13
#define FP20_EXP_BITS 6
#define FP20_BIAS 31
#define FP20_EXP_SHIFT FP20_MANT_BITS                       /* 13 */
#define FP20_SIGN_SHIFT (FP20_MANT_BITS + FP20_EXP_BITS)    /* 19 */
#define FP20_MANT_MASK ((1u << FP20_MANT_BITS) - 1u)        /* 0x1FFF */
#define FP20_EXP_MAX ((1u << FP20_EXP_BITS) - 1u)           /* 63: inf / NaN */
#define FP20_EXP_MASK (FP20_EXP_MAX << FP20_EXP_SHIFT)      /* 0x7E000 */
#define FP20_SIGN_MASK (1u << FP20_SIGN_SHIFT)              /* 0x80000 */
#define FP20_MASK 0xFFFFFu
#define FP20_ONE ((uint32_t)FP20_BIAS << FP20_EXP_SHIFT)    /* 1.0 = 0x3E000 */

/* Against binary32 / binary64: the mantissa shifts and the rebias. */
#define FP20_F32_SHIFT (23 - FP20_MANT_BITS)                /* 10 */
#define FP20_F64_SHIFT (52 - FP20_MANT_BITS)                /* 39 */
#define FP20_F32_REBIAS (127u - FP20_BIAS)                  /* 96 */
#define FP20_F64_REBIAS (1023u - FP20_BIAS)                 /* 992 */

typedef struct fp20_fields { uint32_t sign, exp, mant; } fp20_fields;

static inline uint32_t fp20_sign(uint32_t bits) { return (bits >> FP20_SIGN_SHIFT) & 1u; }
static inline uint32_t fp20_exp(uint32_t bits) { return (bits >> FP20_EXP_SHIFT) & FP20_EXP_MAX; }
static inline uint32_t fp20_mant(uint32_t bits) { return bits & FP20_MANT_MASK; }

static inline fp20_fields fp20_fields_of(uint32_t bits)
{
	return (fp20_fields){ fp20_sign(bits), fp20_exp(bits), fp20_mant(bits) };
}

/* The fields packed (each masked to its width). */
static inline uint32_t fp20_pack(fp20_fields f)
{
	return (f.sign & 1u) << FP20_SIGN_SHIFT | (f.exp & FP20_EXP_MAX) << FP20_EXP_SHIFT |
	       (f.mant & FP20_MANT_MASK);
}

/* Exponent 0 (zero, or a subnormal read) or 63 (inf, NaN): not a normal
 * number.  One unsigned compare, so it also runs on vector lanes. */
static inline bool fp20_is_special(uint32_t bits) { return fp20_exp(bits) - 1u >= FP20_EXP_MAX - 1u; }

/* binary32 bits of a normal code (exponent 1..62) with no branch: sign
 * moved to bit 31, exponent rebiased 31 -> 127, mantissa widened. */
static inline uint32_t fp20_f32_bits_normal(uint32_t bits)
{
	return ((bits << (31 - FP20_SIGN_SHIFT)) & 0x80000000u) |
	       (fp20_exp(bits) + FP20_F32_REBIAS) << 23 | fp20_mant(bits) << FP20_F32_SHIFT;
}

/* Every code as a float, exactly: exponent 63 is inf / NaN (the mantissa
 * kept as the payload), exponent 0 with a mantissa reads as a subnormal,
 * mant * 2^(1 - bias - 13) (the tegra.fp20.read_subnormals reading; isa's
 * fp20_decode has no subnormals). */
static inline float fp20_read_f32(uint32_t bits)
{
	const fp20_fields f = fp20_fields_of(bits);
	uint32_t u;
	if (f.exp == 0) {
		float v = (float)f.mant * 0x1p-43f;      /* 2^(1 - FP20_BIAS - FP20_MANT_BITS) */
		return f.sign ? -v : v;
	}
	if (f.exp == FP20_EXP_MAX)
		u = f.sign << 31 | 0x7F800000u | f.mant << FP20_F32_SHIFT;
	else
		u = fp20_f32_bits_normal(bits);
	float v;
	memcpy(&v, &u, sizeof v);
	return v;
}

/* The code of a binary64 whose bits (sign removed: a) were already rounded
 * at bit FP20_F64_SHIFT and whose exponent lies in FP20's normal range: the
 * mantissa's top 13 bits and the rebiased exponent in one subtraction. */
static inline uint32_t fp20_from_f64_normal(uint64_t sign, uint64_t a)
{
	return (uint32_t)sign << FP20_SIGN_SHIFT |
	       ((uint32_t)(a >> FP20_F64_SHIFT) - (FP20_F64_REBIAS << FP20_EXP_SHIFT));
}

/* Is |v| (binary64 bits without the sign) a normal number with an exponent
 * in [-29, 30], where rounding to FP20 stays normal and finite?  One
 * unsigned compare: biased exponents 994..1053. */
static inline bool fp20_f64_fast(uint64_t a)
{
	return a - ((uint64_t)(1023 - 29) << 52) < ((uint64_t)60 << 52);
}

/* mf_encode(&FP20_FORMAT, v, r): the fast path rounds the binary64
 * mantissa in place (a carry moves into the exponent) and rebiases the
 * exponent (1023 -> 31) in the same word; +-0 is its sign; values near the
 * ends of the range, inf and NaN take the generic encoder. */
static inline uint32_t fp20_encode_f64(double v, enum ulp_round r)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	uint64_t a = b & ~(UINT64_C(1) << 63);
	if (!fp20_f64_fast(a))
		return !a ? (uint32_t)(b >> 63) << FP20_SIGN_SHIFT : mf_encode(&FP20_FORMAT, v, r);   /* +-0 */
	if (r == ULP_ROUND_NEAREST_EVEN)
		a += (UINT64_C(1) << (FP20_F64_SHIFT - 1)) - 1 + ((a >> FP20_F64_SHIFT) & 1u);
	else if (r == ULP_ROUND_NEAREST_AWAY)
		a += UINT64_C(1) << (FP20_F64_SHIFT - 1);
	return fp20_from_f64_normal(b >> 63, a);
}

float fp20_decode(uint32_t bits);
/* fp20_encode_f64 of a binary32 (exact in binary64). */
uint32_t fp20_encode(float v, enum ulp_round r);
/* Round a double to an FP20 value (mantissa 13 bits, overflow -> inf, below
 * 2^-30 -> zero keeping the sign). */
float fp20_round(double v, enum ulp_round r);

#endif
