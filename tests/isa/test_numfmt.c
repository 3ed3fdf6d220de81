/* Number formats: exhaustive FP20 / FX10 / f24 code checks, the hardware-
 * verified colour bytes of hw-expected.md, and the float24 behaviour rows
 * of pica200.md §2.2. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "isa/f24.h"
#include "isa/fp20.h"
#include "isa/fx10.h"

/* ---- generic: decode -> encode round trip and value order ---- */

static void check_format_exhaustive(const ulp_minifloat *f)
{
	const unsigned n = 1u + f->ebits + f->mbits;
	const uint32_t sign = 1u << (n - 1);
	const uint32_t inf = ((1u << f->ebits) - 1u) << f->mbits;
	unsigned canonical = 0;
	for (uint32_t c = 0; c < (1u << n); c++) {
		double v = mf_decode(f, c);
		if (!mf_is_canonical(f, c)) {
			/* NaN payloads decode to NaN; flushed/-0 codes to zero. */
			uint32_t m = c & ((1u << f->mbits) - 1u);
			if ((c & inf) == inf)
				cr_assert(isnan(v) && m, "%s 0x%x should decode to NaN", f->name, c);
			else
				cr_assert(v == 0.0, "%s 0x%x should decode to zero", f->name, c);
			continue;
		}
		canonical++;
		uint32_t back = mf_encode(f, v, ULP_ROUND_NEAREST_EVEN);
		if (back != c)
			cr_assert_fail("%s: 0x%x -> %.17g -> 0x%x", f->name, c, v, back);
		cr_assert_eq(mf_encode(f, v, ULP_ROUND_TRUNCATE), c);
	}
	cr_assert_gt(canonical, (1u << n) / 2);
	/* Order: within each sign the codes of finite values increase with |v|. */
	for (uint32_t c = 0; c < inf; c++) {
		if (!mf_is_canonical(f, c) || !mf_is_canonical(f, c + 1))
			continue;
		double a = mf_decode(f, c), b = mf_decode(f, c + 1);
		if (!(a < b))
			cr_assert_fail("%s order: 0x%x=%.17g !< 0x%x=%.17g", f->name, c, a, c + 1, b);
		if (mf_is_canonical(f, sign | c) && mf_is_canonical(f, sign | (c + 1)) && c > 0)
			cr_assert(mf_decode(f, sign | c) > mf_decode(f, sign | (c + 1)));
	}
	cr_assert(isinf(mf_decode(f, inf)) && mf_decode(f, inf) > 0);
	cr_assert(isinf(mf_decode(f, sign | inf)) && mf_decode(f, sign | inf) < 0);
}

Test(numfmt, fp20_every_code) { check_format_exhaustive(&FP20_FORMAT); }
Test(numfmt, f24_every_code) { check_format_exhaustive(&F24_FORMAT); }

Test(numfmt, fx10_every_code)
{
	for (uint32_t c = 0; c < 1024; c++) {
		float v = fx10_decode(c);
		cr_assert_eq(fx10_encode(v, ULP_ROUND_NEAREST_EVEN), c);
		cr_assert_eq(fx10_encode(v, ULP_ROUND_TRUNCATE), c);
		cr_assert_eq(fp20_to_fx10(fx10_to_fp20(c), ULP_ROUND_TRUNCATE), c, "via fp20: 0x%x", c);
		cr_assert(v >= -2.0f && v < 2.0f);
	}
	for (int i = -512; i < 511; i++)   /* order over the signed range */
		cr_assert_lt(fx10_decode((uint32_t)i & FX10_MASK), fx10_decode((uint32_t)(i + 1) & FX10_MASK));
}

/* fp20_encode (fp20_encode_f64's fast path on binary64 bits) against the generic
 * mf_encode, under every rounding: every exponent and sign, every pattern
 * of the 10 bits FP20 drops under a few kept mantissas (ties, carries into
 * the exponent, the smallest normal), and 2^20 pseudo-random words. */
static void fp20_encode_agrees(uint32_t u)
{
	float v;
	memcpy(&v, &u, sizeof v);
	for (int r = 0; r < 3; r++) {
		const uint32_t want = mf_encode(&FP20_FORMAT, (double)v, (enum ulp_round)r);
		const uint32_t got = fp20_encode(v, (enum ulp_round)r);
		if (got != want)
			cr_assert_fail("fp20_encode(bits 0x%08x, round %d) = 0x%05x, mf_encode 0x%05x", u, r, got, want);
	}
}

Test(numfmt, fp20_encode_matches_the_generic_encoder)
{
	static const uint32_t kept[] = { 0, 1, 2, 0x555, 0xAAA, 0x1000, 0x1FFE, 0x1FFF };
	for (uint32_t e8 = 0; e8 < 256; e8++)
		for (uint32_t sign = 0; sign < 2; sign++)
			for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
				for (uint32_t low = 0; low < 1024; low++)
					fp20_encode_agrees(sign << 31 | e8 << 23 | kept[k] << 10 | low);
	uint32_t x = 0x12345678u;
	for (unsigned i = 0; i < 1u << 20; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;   /* xorshift32 */
		fp20_encode_agrees(x);
	}
}

/* ---- the formats' defining constants (tegra-fp.md §2.4, pica200.md §2.1) ---- */

Test(numfmt, fp20_known_codes)
{
	cr_assert_eq(fp20_encode(1.0f, ULP_ROUND_NEAREST_EVEN), 0x3E000);
	cr_assert_eq(fp20_encode(-1.0f, ULP_ROUND_NEAREST_EVEN), 0xBE000);
	cr_assert_eq(fp20_encode(0.5f, ULP_ROUND_NEAREST_EVEN), 0x3C000);
	cr_assert_eq(fp20_encode(0.0f, ULP_ROUND_NEAREST_EVEN), 0);
	cr_assert_eq(fp20_encode(INFINITY, ULP_ROUND_NEAREST_EVEN), 0x7E000);
	cr_assert_eq(fp20_encode(-INFINITY, ULP_ROUND_NEAREST_EVEN), 0xFE000);
	cr_assert(isnan(fp20_decode(0x7E001)));
	cr_assert_eq(fp20_encode(1e30f, ULP_ROUND_TRUNCATE), 0x7E000, "overflow -> inf");
	cr_assert_eq(fp20_decode(0x00123), 0.0f, "no subnormals: exponent 0 is zero");
	/* grate's truncating encoder, values of hw-expected.md */
	cr_assert_eq(fp20_encode(0.1f, ULP_ROUND_TRUNCATE), 0x37333);
	cr_assert_eq(fp20_encode(0.2f, ULP_ROUND_TRUNCATE), 0x39333);
	cr_assert_eq(fp20_encode(0.3f, ULP_ROUND_TRUNCATE), 0x3A666);
	cr_assert_eq(fp20_encode(0.4f, ULP_ROUND_TRUNCATE), 0x3B333);
	cr_assert_eq(fp20_encode((float)cos(0.5), ULP_ROUND_TRUNCATE), 0x3D82A);
	cr_assert_eq(fp20_encode((float)(sqrt(2.0) - 1.0), ULP_ROUND_TRUNCATE), 0x3B504);
	cr_assert_eq(fp20_encode(1.0f - 1.0f / 512, ULP_ROUND_TRUNCATE), 0x3DFE0);
	cr_assert_eq(fp20_encode(1.0f / 512, ULP_ROUND_TRUNCATE), 0x2C000);
	/* rounding knob: 0.1 = 0x37333.33.. truncates and rounds down alike; 1/3 differs */
	cr_assert_eq(fp20_encode(1.0f / 3, ULP_ROUND_TRUNCATE), 0x3AAAA);
	cr_assert_eq(fp20_encode(1.0f / 3, ULP_ROUND_NEAREST_EVEN), 0x3AAAB);
	cr_assert_eq(fp20_encode(0.7f, ULP_ROUND_TRUNCATE), 0x3CCCC);
	cr_assert_eq(fp20_encode(0.7f, ULP_ROUND_NEAREST_EVEN), 0x3CCCD);
	/* a tie: 1 + 2^-14 is halfway between two codes */
	cr_assert_eq(fp20_encode(1.0f + 1.0f / 16384, ULP_ROUND_NEAREST_EVEN), 0x3E000);
	cr_assert_eq(fp20_encode(1.0f + 1.0f / 16384, ULP_ROUND_NEAREST_AWAY), 0x3E001);
	cr_assert_eq(fp20_encode(1.0f + 3.0f / 16384, ULP_ROUND_TRUNCATE), 0x3E001);
	cr_assert_eq(fp20_encode(1.0f + 3.0f / 16384, ULP_ROUND_NEAREST_EVEN), 0x3E002);
}

Test(numfmt, f24_known_codes)
{
	cr_assert_eq(f24_encode(1.0f, ULP_ROUND_NEAREST_EVEN), F24_ONE);
	cr_assert_eq(f24_encode(-1.0f, ULP_ROUND_NEAREST_EVEN), 0xBF0000);
	cr_assert_eq(f24_encode(-0.0f, ULP_ROUND_NEAREST_EVEN), 0, "no negative zero");
	cr_assert_eq(f24_decode(0x800000), 0.0f);
	cr_assert(!signbit(f24_decode(0x800000)));
	cr_assert_eq(f24_decode(0x010000), (float)0x1p-62, "smallest normal");
	cr_assert_eq(f24_decode(0x7EFFFF), (float)(0x1p63 * (2.0 - 0x1p-16)), "largest");
	cr_assert(isnan(f24_decode(0x7F8000)));     /* azahar pica_types test vector */
	cr_assert(isinf(f24_decode(0x7F0000)));
	cr_assert_eq(f24_decode(0x000001), (float)0x1p-78, "subnormal decoded exactly");
	cr_assert_eq(f24_encode(0.1f, ULP_ROUND_TRUNCATE), 0x3B9999);
	cr_assert_eq(f24_encode(0.1f, ULP_ROUND_NEAREST_EVEN), 0x3B999A);
}

/* ---- the Tegra colour path: hw-expected.md, every hardware-verified byte ---- */

static uint8_t alu_to_byte(float v)
{
	return fx10_to_unorm8(fx10_encode(v, ULP_ROUND_NEAREST_AWAY));
}

Test(numfmt, fx10_hw_expected_pixels)
{
	struct { uint32_t fp20; uint8_t byte; } rows[] = {
		{ 0x37333, 0x1A }, /* 0.1 */
		{ 0x39333, 0x33 }, /* 0.2 */
		{ 0x3A666, 0x4D }, /* 0.3 */
		{ 0x3B333, 0x66 }, /* 0.4 */
		{ 0x3C000, 0x7F }, /* 0.5 */
		{ 0x3D82A, 0xE0 }, /* cos 0.5 */
		{ 0x3B504, 0x6A }, /* sqrt(2) - 1 */
		{ 0x3DFE0, 0xFF }, /* 1 - 1/512 */
		{ 0x2C000, 0x01 }, /* 1/512 */
		{ 0x3E000, 0xFF }, /* 1.0 */
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		cr_assert_eq(alu_to_byte(fp20_decode(rows[i].fp20)), rows[i].byte,
		             "fp20 0x%05x -> byte 0x%02x", rows[i].fp20, rows[i].byte);
	/* FX10 uniforms truncated on the host (grate float_to_fx10), copied unchanged */
	cr_assert_eq(fx10_to_unorm8(fx10_encode(0.1, ULP_ROUND_TRUNCATE)), 0x19);
	cr_assert_eq(fx10_to_unorm8(fx10_encode(0.3, ULP_ROUND_TRUNCATE)), 0x4C);
	cr_assert_eq(fx10_to_unorm8(fx10_encode(0.4, ULP_ROUND_TRUNCATE)), 0x66);
	/* ties-to-even would lose the verified 1/512 -> 0x01 byte */
	cr_assert_eq(fx10_encode(1.0 / 512, ULP_ROUND_NEAREST_EVEN), 0);
	/* the four whole pixels */
	uint32_t px1 = (uint32_t)alu_to_byte(0.0f) | (uint32_t)alu_to_byte(fp20_decode(0x3DFE0)) << 8 |
	               (uint32_t)alu_to_byte(fp20_decode(0x2C000)) << 16 | (uint32_t)alu_to_byte(1.0f) << 24;
	cr_assert_eq(px1, 0xFF01FF00u);
	uint32_t px12 = (uint32_t)alu_to_byte(fp20_decode(0x3D82A)) | 0x7Fu << 8 |
	                (uint32_t)alu_to_byte(fp20_decode(0x3B504)) << 16 | (uint32_t)alu_to_byte(0.5f) << 24;
	cr_assert_eq(px12, 0x7F6A7FE0u);
}

Test(numfmt, fx10_unorm8_edges)
{
	cr_assert_eq(fx10_to_unorm8(FX10_ONE), 255);
	cr_assert_eq(fx10_to_unorm8(0x1FF), 255, "above 1.0 clamps");
	cr_assert_eq(fx10_to_unorm8(0x3FF), 0, "negative clamps");
	cr_assert_eq(fx10_encode(5.0, ULP_ROUND_NEAREST_EVEN), 0x1FF, "saturates high");
	cr_assert_eq(fx10_encode(-5.0, ULP_ROUND_NEAREST_EVEN), 0x200, "saturates low");
	cr_assert_eq(fx10_encode(NAN, ULP_ROUND_NEAREST_EVEN), 0);
	/* fx10.overflow = wrap: modulo 4 (1024 codes) */
	cr_assert_eq(fx10_encode_ovf(2.5, ULP_ROUND_NEAREST_EVEN, true), 0x280, "2.5 wraps to -1.5");
	cr_assert_eq(fx10_encode_ovf(-2.5, ULP_ROUND_NEAREST_EVEN, true), 0x180, "-2.5 wraps to 1.5");
	cr_assert_eq(fx10_encode_ovf(1.5, ULP_ROUND_NEAREST_EVEN, true), 0x180, "in range: unchanged");
	for (int b = 0; b < 256; b++) {
		uint16_t fx = unorm8_to_fx10((uint8_t)b);
		cr_assert_eq(fx10_to_unorm8(fx), b, "unorm8 %d round trip", b);
		cr_assert_eq(fx, (uint16_t)floor(b * 256.0 / 255.0 + 0.5), "round(b*256/255) for %d", b);
	}
}

/* ---- float24 arithmetic: pica200.md §2.2 (3dbrew "Floating-Point Behavior") ---- */

static const f24_mode *M = &F24_MODE_DEFAULT;
#define F24_SUB ((float)0x1p-70)        /* an f24 subnormal */
#define F24_N   ((float)0x1p-62)        /* smallest f24 normal */

Test(f24_behaviour, no_negative_zero)
{
	cr_assert(isinf(f24_rcp(-0.0f, M)) && f24_rcp(-0.0f, M) > 0, "rcp(-0) = +inf");
	cr_assert(isinf(f24_rsq(-0.0f, M)) && f24_rsq(-0.0f, M) > 0, "rsq(-0) = +inf");
	float t = f24_rcp(-INFINITY, M);
	cr_assert(isinf(f24_rsq(t, M)) && f24_rsq(t, M) > 0, "rsq(rcp(-inf)) = +inf");
	cr_assert(!signbit(f24_mul(-1.0f, 0.0f, M)), "results are never -0");
}

Test(f24_behaviour, inf_times_zero)
{
	cr_assert_eq(f24_mul(INFINITY, 0.0f, M), 0.0f);
	cr_assert_eq(f24_mul(0.0f, -INFINITY, M), 0.0f);
	cr_assert_eq(f24_mad(INFINITY, 0.0f, 1.0f, M), 1.0f);
	float a[4] = { INFINITY, 1, 1, 1 }, b[4] = { 0, 1, 1, 1 };
	cr_assert_eq(f24_dot(a, b, 3, M), 2.0f, "dp3 (inf,1,1).(0,1,1)");
	cr_assert_eq(f24_dot(a, b, 4, M), 3.0f, "dp4");
	cr_assert(isnan(f24_mul(NAN, 0.0f, M)), "NaN * 0 = NaN");
	cr_assert(isnan(f24_add(INFINITY, -INFINITY, M)), "+inf - +inf = NaN");
}

Test(f24_behaviour, subnormal_flush)
{
	cr_assert_eq(f24_mul(F24_SUB, 2.0f, M), 0.0f, "mul(s,2) = 0");
	cr_assert_eq(f24_mul(F24_N, 0.5f, M), 0.0f, "mul(n,0.5) = 0");
	float x = 1.0f;
	int steps = 0;
	while (x != 0.0f && steps < 200) {
		x = f24_mul(x, 0.5f, M);
		steps++;
	}
	cr_assert_eq(steps, 63, "1.0 halves to 0 after 63 steps");
	cr_assert_eq(f24_max(F24_SUB, 0.0f, M), F24_SUB, "max(s,0) = s: MAX does not flush");
	cr_assert_eq(f24_sge(F24_SUB, 0.0f), 1.0f);
	cr_assert_eq(f24_slt(0.0f, F24_SUB), 1.0f, "cmp does not flush");
}

Test(f24_behaviour, special_functions)
{
	cr_assert(isinf(f24_rcp(0.0f, M)) && f24_rcp(0.0f, M) > 0, "rcp(0) = +inf");
	cr_assert_eq(f24_rcp(INFINITY, M), 0.0f, "rcp(+inf) = 0");
	cr_assert(isnan(f24_rcp(NAN, M)), "rcp(NaN) = NaN");
	cr_assert(isnan(f24_rsq(-2.0f, M)), "rsq(-2) = NaN");
	cr_assert_eq(f24_rsq(INFINITY, M), 0.0f, "rsq(+inf) = 0");
	cr_assert(isnan(f24_rsq(-INFINITY, M)), "rsq(-inf) = NaN");
	cr_assert_eq(-f24_flr(-0.1f, M), 1.0f, "-flr(-0.1) = 1");
	cr_assert_eq(f24_ex2(-INFINITY, M), 0.0f, "ex2(-inf) = 0");
	cr_assert(isinf(f24_lg2(f24_rcp(-INFINITY, M), M)) && f24_lg2(0.0f, M) < 0, "lg2(rcp(-inf)) = -inf");
	cr_assert(isnan(f24_lg2(-1.0f, M)), "lg2(-1) = NaN");
	cr_assert(isinf(f24_lg2(0.0f, M)) && f24_lg2(0.0f, M) < 0, "lg2(0) = -inf");
}

Test(f24_behaviour, max_min_nan_asymmetry)
{
	cr_assert(isnan(f24_max(0.0f, NAN, M)), "max(0,NaN) = NaN");
	cr_assert_eq(f24_max(NAN, 0.0f, M), 0.0f, "max(NaN,0) = 0");
	cr_assert(isnan(f24_min(0.0f, NAN, M)), "min(0,NaN) = NaN");
	cr_assert_eq(f24_min(NAN, 0.0f, M), 0.0f, "min(NaN,0) = 0");
}

Test(f24_behaviour, max_zero_neg_inf_knob)
{
	/* Disputed (pica200.md §8 q4): default follows the formula (0), the
	 * alternative follows 3dbrew's table (-inf). */
	cr_assert_eq(f24_max(0.0f, -INFINITY, M), 0.0f);
	f24_mode alt = *M;
	alt.max_neg_inf = F24_MAX_NEG_INF;
	float r = f24_max(0.0f, -INFINITY, &alt);
	cr_assert(isinf(r) && r < 0);
}

Test(f24_behaviour, compare_nan_is_false)
{
	cr_assert_eq(f24_sge(NAN, 0.0f), 0.0f);
	cr_assert_eq(f24_sge(0.0f, NAN), 0.0f);
	cr_assert_eq(f24_slt(NAN, 0.0f), 0.0f);
	cr_assert_eq(f24_slt(0.0f, NAN), 0.0f);
}

Test(f24_behaviour, mad_not_fused_and_rounding_knob)
{
	/* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product rounds before the add. */
	float a = 1.0f + (float)0x1p-12;
	float fused = f24_round((double)a * a - 1.0, ULP_ROUND_TRUNCATE);
	float mad = f24_mad(a, a, -1.0f, M);
	cr_assert_eq(mad, (float)0x1p-11);
	cr_assert_neq(mad, fused, "an FMA would keep 2^-24");
	/* every result has a 16-bit mantissa; the mode decides the last bit */
	double third = 1.0 / 3.0;
	cr_assert_eq(f24_encode(f24_round(third, ULP_ROUND_TRUNCATE), ULP_ROUND_TRUNCATE), 0x3D5555);
	cr_assert_eq(f24_encode(f24_round(2 * third, ULP_ROUND_TRUNCATE), ULP_ROUND_TRUNCATE), 0x3E5555);
	cr_assert_eq(f24_encode(f24_round(2 * third, ULP_ROUND_NEAREST_EVEN), ULP_ROUND_TRUNCATE), 0x3E5555);
	cr_assert_eq(f24_encode(f24_round(1 + 3 * 0x1p-17, ULP_ROUND_NEAREST_EVEN), ULP_ROUND_TRUNCATE), 0x3F0002);
	cr_assert_eq(f24_encode(f24_round(1 + 3 * 0x1p-17, ULP_ROUND_TRUNCATE), ULP_ROUND_TRUNCATE), 0x3F0001);
	cr_assert(isinf(f24_mul(0x1p40f, 0x1p40f, M)), "overflow -> inf");
}

/* ---- the named FP20 / FX10 layout and lane helpers, over every code ---- */

Test(numfmt, fp20_fields_and_lane_helpers_every_code)
{
	cr_assert_eq(FP20_MANT_MASK | FP20_EXP_MASK | FP20_SIGN_MASK, FP20_MASK);
	cr_assert_eq(FP20_MANT_BITS, FP20_FORMAT.mbits);
	cr_assert_eq(FP20_EXP_BITS, FP20_FORMAT.ebits);
	cr_assert_eq(FP20_BIAS, FP20_FORMAT.bias);
	cr_assert_eq(FP20_ONE, 0x3E000u);
	cr_assert_eq(fp20_decode(FP20_ONE), 1.0f);
	for (uint32_t c = 0; c <= FP20_MASK; c++) {
		fp20_fields f = fp20_fields_of(c);
		cr_assert_eq(fp20_pack(f), c);
		cr_assert_lt(f.mant, 1u << FP20_MANT_BITS);
		cr_assert_lt(f.exp, 1u << FP20_EXP_BITS);
		/* garbage above bit 19 (a register word) is ignored */
		cr_assert_eq(fp20_pack(fp20_fields_of(c | 0xABC00000u)), c);
		bool special = f.exp == 0 || f.exp == FP20_EXP_MAX;
		cr_assert_eq(fp20_is_special(c), special, "0x%05x", c);
		float r = fp20_read_f32(c);
		double v = fp20_decode(c);
		if (!special) {
			uint32_t u = fp20_f32_bits_normal(c);
			float lane;
			memcpy(&lane, &u, sizeof lane);
			if (lane != (float)v)
				cr_assert_fail("lane read 0x%05x: %a, decode %a", c, (double)lane, v);
			cr_assert_eq(r, lane);
			/* a normal value in binary64 goes back through the fast encode */
			uint64_t b;
			memcpy(&b, &v, sizeof b);
			cr_assert_eq(fp20_from_f64_normal(b >> 63, b & ~(UINT64_C(1) << 63)), c, "0x%05x", c);
		} else if (f.exp == FP20_EXP_MAX) {
			cr_assert(f.mant ? isnan(r) : isinf(r), "0x%05x", c);
			cr_assert_eq(signbit(r) != 0, f.sign == 1);
		} else {
			/* exponent 0: a subnormal read, mant * 2^(1 - 31 - 13) */
			cr_assert_eq((double)r, (f.sign ? -1.0 : 1.0) * ldexp(f.mant, 1 - FP20_BIAS - FP20_MANT_BITS));
		}
	}
}

Test(numfmt, fx10_fields_every_code)
{
	cr_assert_eq(FX10_MASK, 0x3FFu);
	cr_assert_eq(FX10_SIGN, 0x200u);
	cr_assert_eq(fx10_decode(FX10_ONE), 1.0f);
	for (uint32_t c = 0; c <= FX10_MASK; c++) {
		cr_assert_eq(fx10_sext(c), fx10_to_int(c));
		cr_assert_eq((float)fx10_sext(c) / (float)FX10_ONE, fx10_decode(c));
		uint32_t word = c << FX10_HIGH_SHIFT | (c ^ 0x155u);
		cr_assert_eq(fx10_half(word, true), c);
		cr_assert_eq(fx10_half(word, false), c ^ 0x155u);
		cr_assert_eq(fx10_sext(c | 0xFFFFFC00u), fx10_to_int(c));
	}
}
