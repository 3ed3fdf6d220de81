/* Setup's FP20 encoding of a row's four components at once
 * (units/geom/setup_enc.h: the fast path in the binary32 bits) against
 * fp20_encode word by word, in every rounding mode: random binary32 bit
 * patterns (every exponent: zeros, subnormals, the ends of FP20's range,
 * inf, NaN, both signs), rows drawn from the fast range only and +-0 (so
 * the lanes run, with and without zeros), the values whose rounding carries into the exponent, and halfway
 * cases. */
#include <criterion/criterion.h>
#include <string.h>

#include "isa/fp20.h"
#include "units/geom/setup_enc.h"

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

/* A binary32's bits: anything, or in (or at the ends of) FP20's fast
 * range, or with the low mantissa bits a rounding looks at set specially. */
static uint32_t f32_bits(uint64_t *s, bool in_range)
{
	uint32_t b = rnd(s);
	const uint32_t sign = b & 0x80000000u;
	if (in_range && rnd(s) % 8 == 0)
		return sign;                                  /* +-0: its sign alone, on the lanes too */
	uint32_t e = in_range ? 98u + rnd(s) % 60u : rnd(s) % 8 ? 90u + rnd(s) % 76u : rnd(s) % 256u;
	uint32_t m = b & 0x7FFFFFu;
	switch (rnd(s) % 6) {
	case 0: m |= 0x3FFu << 0; break;                  /* below bit 10 all ones */
	case 1: m = (m & ~0x3FFu) | 0x200u; break;        /* exactly halfway */
	case 2: m = 0x7FFFFFu; break;                     /* the carry into the exponent */
	case 3: m &= ~0x3FFu; break;                      /* exact */
	default: break;
	}
	return sign | e << 23 | m;
}

Test(setup_enc, four_at_once_match_fp20_encode)
{
	static const enum ulp_round R[] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, ULP_ROUND_TRUNCATE };
	uint64_t seed = 0x5e70e1c0u;
	unsigned lanes = 0, zero_rows = 0;
	for (unsigned n = 0; n < 200000; n++) {
		const bool in_range = n % 2;
		float v[4];
		bool fast = true, zero = false;
		for (unsigned c = 0; c < 4; c++) {
			const uint32_t b = f32_bits(&seed, in_range);
			memcpy(&v[c], &b, sizeof b);
			const uint32_t a = b & 0x7FFFFFFFu;
			fast &= (a >= 98u << 23 && a < 158u << 23) || a == 0;
			zero |= a == 0;
		}
		lanes += fast;
		zero_rows += fast && zero;
		const enum ulp_round r = R[n % 3];
		uint32_t got[4];
		setup_fp20_encode4(v, r, got);
		for (unsigned c = 0; c < 4; c++)
			cr_assert_eq(got[c], fp20_encode(v[c], r), "round %u mode %d lane %u: %a", n, (int)r, c, (double)v[c]);
	}
	cr_assert_gt(lanes, 90000u, "rows in the fast range: %u", lanes);
	cr_assert_gt(zero_rows, 30000u, "rows in the fast range with a +-0: %u", zero_rows);
}
