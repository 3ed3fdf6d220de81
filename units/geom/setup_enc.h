/* Setup's FP20 encoding of a TRAM row's four components on SSE2 lanes
 * (x86-64's baseline): fp20_encode (isa/fp20.h) of each binary32, its fast
 * path taken in the binary32 bits.  A binary32 converts to binary64
 * exactly, so its mantissa's 23 bits are the top of the binary64's 52 and
 * the bits the binary64 path rounds away (below bit 39) are the binary32's
 * below bit 10 followed by zeros: the same rounding at bit 10, the same
 * carry into the exponent, the same code after the rebias (127 -> 31
 * instead of 1023 -> 31).  fp20_f64_fast's range, biased binary64
 * exponents 994..1053, is binary32 exponents 98..157; +-0, whose code is
 * its sign, takes the lanes too.  A row with another value outside it
 * (subnormals, inf, NaN, the range's ends) is encoded word by word by
 * fp20_encode.  tests/units/test_setup_enc.c compares. */
#ifndef ULP_UNITS_SETUP_ENC_H
#define ULP_UNITS_SETUP_ENC_H

#include <stdint.h>
#include <string.h>

#include "isa/fp20.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* out[c] = fp20_encode(v[c], r), c = 0..3. */
static inline void setup_fp20_encode4(const float v[4], enum ulp_round r, uint32_t out[4])
{
#if defined(__x86_64__)
	const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)v);
	__m128i a = _mm_and_si128(b, _mm_set1_epi32(0x7FFFFFFF));
	/* 98 << 23 <= a < 158 << 23, as signed compares (a < 2^31) */
	const __m128i lo_out = _mm_cmpgt_epi32(_mm_set1_epi32(98 << 23), a);
	const __m128i hi_out = _mm_cmpgt_epi32(a, _mm_set1_epi32((158 << 23) - 1));
	/* +-0 encodes as its sign alone (fp20_encode_f64, any rounding): in the
	 * lanes too, its code masked to the sign */
	const __m128i zero = _mm_cmpeq_epi32(a, _mm_setzero_si128());
	if (_mm_movemask_epi8(_mm_andnot_si128(zero, _mm_or_si128(lo_out, hi_out))) == 0) {
		if (r == ULP_ROUND_NEAREST_EVEN)
			a = _mm_add_epi32(a, _mm_add_epi32(_mm_set1_epi32((1 << 9) - 1),
			                                   _mm_and_si128(_mm_srli_epi32(a, 10), _mm_set1_epi32(1))));
		else if (r == ULP_ROUND_NEAREST_AWAY)
			a = _mm_add_epi32(a, _mm_set1_epi32(1 << 9));
		const __m128i code = _mm_or_si128(_mm_slli_epi32(_mm_srli_epi32(b, 31), FP20_SIGN_SHIFT),
		                                  _mm_andnot_si128(zero, _mm_sub_epi32(_mm_srli_epi32(a, 10),
		                                                                       _mm_set1_epi32(96 << FP20_EXP_SHIFT))));
		_mm_storeu_si128((__m128i *)(void *)out, code);
		return;
	}
#endif
	for (unsigned c = 0; c < 4; c++)
		out[c] = fp20_encode(v[c], r);
}

#endif
