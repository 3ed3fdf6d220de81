#include "isa/fp20.h"

/* tegra-fp.md §2.4: sign 19, exponent 13..18 bias 31, mantissa 0..12; no
 * denormals (grate's decoder); -0 is a distinct code (sign bit alone). */
const ulp_minifloat FP20_FORMAT = {
	.name = "fp20", .ebits = 6, .mbits = 13, .bias = 31,
	.subnormals = false, .neg_zero = true,
};

float fp20_decode(uint32_t bits) { return (float)mf_decode(&FP20_FORMAT, bits & FP20_MASK); }

/* s >> k rounded under r (1 <= k <= 31): the integer part of s / 2^k. */
static uint32_t shift_round(uint32_t s, unsigned k, enum ulp_round r)
{
	const uint32_t q = s >> k, rem = s & ((1u << k) - 1u), half = 1u << (k - 1);
	if (r == ULP_ROUND_TRUNCATE)
		return q;
	if (rem > half || (rem == half && (r == ULP_ROUND_NEAREST_AWAY || (q & 1u))))
		return q + 1u;
	return q;
}

/* mf_encode(&FP20_FORMAT, v, r) from the binary32's fields, in integers
 * (tests/isa/test_numfmt.c checks the two agree). */
uint32_t fp20_encode(float v, enum ulp_round r)
{
	uint32_t u;
	memcpy(&u, &v, sizeof u);
	const uint32_t sign = (u >> 31) << FP20_SIGN_SHIFT, e8 = (u >> 23) & 0xFFu, m23 = u & 0x7FFFFFu;
	if (e8 == 0xFFu)                         /* NaN: the canonical one; inf */
		return m23 ? FP20_EXP_MASK | 1u << (FP20_MANT_BITS - 1) : sign | FP20_EXP_MASK;
	if (e8 == 0)                             /* zero, or a binary32 subnormal: far below 2^-30 */
		return sign;
	const uint32_t s = 1u << 23 | m23;       /* v = s * 2^(e8 - 127 - 23) */
	const int biased = (int)e8 - 127 + FP20_BIAS;
	if (biased >= 1) {
		uint32_t q = shift_round(s, FP20_F32_SHIFT, r), e = (uint32_t)biased;   /* 2^13 <= q <= 2^14 */
		if (q >> (FP20_MANT_BITS + 1)) {
			q >>= 1;
			e++;
		}
		if (e >= FP20_EXP_MAX)
			return sign | FP20_EXP_MASK;
		return sign | e << FP20_EXP_SHIFT | (q & FP20_MANT_MASK);
	}
	/* below the smallest normal (no subnormals): zero, unless it rounds up
	 * to 2^-30; q = v * 2^43 rounded, s shifted right by k */
	const unsigned k = (unsigned)(1 - biased) + FP20_F32_SHIFT;
	if (k > 24)                              /* v * 2^43 < 1/2 */
		return sign;
	return shift_round(s, k, r) >> FP20_MANT_BITS ? sign | 1u << FP20_EXP_SHIFT : sign;
}

float fp20_round(double v, enum ulp_round r) { return (float)mf_round(&FP20_FORMAT, v, r); }
