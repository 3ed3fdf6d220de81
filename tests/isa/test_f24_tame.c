/* isa/f24_vec.h's dot product of tame operands (f24v_tame8_*,
 * f24v_dot8_tame): the range test says tame exactly when every operand is
 * +-0 or 2^-23 <= |x| < 2^30, and then each lane equals f24_dot in the
 * default (truncating) mode bit for bit.  Operands on both sides of both
 * bounds, zeros of both signs, infinities, NaNs, float24 subnormals, binary32
 * values that are not float24 values, every exponent of the range with
 * random mantissas, and the cases that meet the bounds' reasons: sums that
 * cancel down to 2^-62 and below, products and sums near 2^64. */
#include <criterion/criterion.h>
#include <string.h>

#include "isa/f24_vec.h"
#include "tests/test_util.h"

#if F24V_HAVE_AVX2
static uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static float of_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* The bound, one value at a time. */
static bool tame1(float x)
{
	const uint32_t a = bits_of(x) & 0x7FFFFFFF;
	return a == 0 || (a >= 0x34000000 && a < 0x4E800000);
}

/* Eight lanes of n pairs: the range test and, when it passes, the dot. */
__attribute__((target("avx2"))) static bool dot8(const float (*a)[8], const float (*b)[8], unsigned n,
                                                 float *out)
{
	__m256 va[4], vb[4];
	f24v_tame8 t = f24v_tame8_start();
	for (unsigned k = 0; k < n; k++) {
		va[k] = _mm256_loadu_ps(a[k]);
		vb[k] = _mm256_loadu_ps(b[k]);
		f24v_tame8_see(&t, va[k]);
		f24v_tame8_see(&t, vb[k]);
	}
	if (!f24v_tame8_ok(&t))
		return false;
	_mm256_storeu_ps(out, f24v_dot8_tame(va, vb, n));
	return true;
}

/* A float24 value (17-bit significand) with exponent e (unbiased), a random
 * mantissa and sign; or a binary32 one (24 bits) when wide. */
static float rnd_val(test_rng *r, int e, bool wide)
{
	const uint32_t m = wide ? test_rnd(r) & 0x7FFFFF : (test_rnd(r) & 0xFFFF) << 7;
	return of_bits((test_rnd(r) & 1) << 31 | (uint32_t)(e + 127) << 23 | m);
}

/* One lane's operands: kind chooses among the edges, tame values, values
 * just outside, and cancellations (a[1] b[1] close to -a[0] b[0]). */
static void lane(test_rng *r, unsigned kind, float a[4], float b[4])
{
	static const uint32_t edge[] = {
		0x00000000, 0x80000000, 0x34000000, 0xB4000000, 0x33FFFF80, 0x33FFFFFF, 0x33800000,
		0x4E7FFF80, 0xCE7FFFFF, 0x4E800000, 0xCE800000, 0x4F000000, 0x7F800000, 0xFF800000,
		0x7FC00000, 0x20800000, 0x20000000, 0x00000001, 0x3F800000, 0x5F7FFF80, 0x1F800000,
	};
	const unsigned ne = sizeof edge / sizeof edge[0];
	for (unsigned k = 0; k < 4; k++) {
		const unsigned c = kind % 5;
		if (c == 0) {
			a[k] = of_bits(edge[test_rnd(r) % ne]);
			b[k] = of_bits(edge[test_rnd(r) % ne]);
		} else if (c == 1 || c == 2) {          /* tame: every exponent of the range */
			a[k] = test_rnd(r) % 8 == 0 ? (test_rnd(r) & 1 ? -0.0f : 0.0f)
			                            : rnd_val(r, -23 + (int)(test_rnd(r) % 53), c == 2);
			b[k] = rnd_val(r, -23 + (int)(test_rnd(r) % 53), c == 2 && (test_rnd(r) & 1));
		} else if (c == 3) {                    /* the lowest and highest exponents */
			const int e = test_rnd(r) & 1 ? -23 - (int)(test_rnd(r) % 2) : 29 + (int)(test_rnd(r) % 2);
			a[k] = rnd_val(r, e, false);
			b[k] = rnd_val(r, e, test_rnd(r) & 1);
		} else {                                /* products that cancel */
			const int e = test_rnd(r) & 1 ? -23 : -23 + (int)(test_rnd(r) % 53);
			a[k] = rnd_val(r, e, false);
			b[k] = rnd_val(r, e, false);
			if (k & 1) {
				a[k] = a[k - 1];
				b[k] = of_bits(bits_of(-b[k - 1]) + ((test_rnd(r) % 3) << 7) - 128);
			}
		}
	}
}

Test(f24_tame, range_test_and_dot_equal_f24_dot_truncating)
{
	if (!__builtin_cpu_supports("avx2"))
		return;                             /* nothing to check on this host */
	const f24_mode fm = { .round = ULP_ROUND_TRUNCATE };
	test_rng rng = { 2468 };
	unsigned tame_sets = 0, tiny = 0;
	for (unsigned it = 0; it < 400000; it++) {
		const unsigned n = 3 + (it & 1);
		float a[4][8], b[4][8], out[8];
		for (unsigned l = 0; l < 8; l++) {
			float la[4], lb[4];
			/* mostly one kind for the eight lanes, so that sets pass */
			lane(&rng, it % 7 < 5 ? it % 7 : test_rnd(&rng), la, lb);
			for (unsigned k = 0; k < 4; k++) {
				a[k][l] = la[k];
				b[k][l] = lb[k];
			}
		}
		bool want = true;
		for (unsigned k = 0; k < n; k++)
			for (unsigned l = 0; l < 8; l++)
				want = want && tame1(a[k][l]) && tame1(b[k][l]);
		const bool got = dot8((const float (*)[8])a, (const float (*)[8])b, n, out);
		cr_assert_eq(got, want, "range test, iteration %u", it);
		if (!got)
			continue;
		tame_sets++;
		for (unsigned l = 0; l < 8; l++) {
			const float x[4] = { a[0][l], a[1][l], a[2][l], a[3][l] };
			const float y[4] = { b[0][l], b[1][l], b[2][l], b[3][l] };
			const float ref = f24_dot(x, y, (int)n, &fm);
			cr_assert_eq(bits_of(out[l]), bits_of(ref), "dot%u lane %u: %a %a %a %a . %a %a %a %a",
			             n, l, (double)x[0], (double)x[1], (double)x[2], (double)x[3], (double)y[0],
			             (double)y[1], (double)y[2], (double)y[3]);
			tiny += ref != 0.0f && fabsf(ref) < 0x1p-40f;
		}
	}
	cr_assert_gt(tame_sets, 100000u);
	cr_assert_gt(tiny, 100u);                   /* the cancellations reached the low bound */
}

/* The bounds' reasons, case by case: a sum that cancels to exactly 2^-62
 * (kept), products near 2^60 summed four times (finite), a zero product
 * with a negative factor (+0), and the lanes just outside either bound
 * refused. */
Test(f24_tame, the_bounds_cases)
{
	if (!__builtin_cpu_supports("avx2"))
		return;
	const f24_mode fm = { .round = ULP_ROUND_TRUNCATE };
	const float lo = 0x1p-23f, top = of_bits(0x4E7FFF80);   /* 2^30 - its float24 ulp */
	const float rows[][2][4] = {
		{ { lo * (1 + 0x1p-16f), -lo, 0, 0 }, { lo, lo, 0, 0 } },          /* 2^-62 */
		{ { lo, -lo, 0, 0 }, { lo * (1 + 0x1p-16f), lo, 0, 0 } },
		{ { top, top, top, top }, { top, top, top, top } },
		{ { -top, top, -top, top }, { top, top, top, -top } },
		{ { 0.0f, -0.0f, 0.0f, -0.0f }, { -3.0f, 2.0f, -0.0f, -1.0f } },
		{ { 1.0f, -1.0f, 0, 0 }, { 0.5f, 0.5f, 0, 0 } },                     /* x - x = +0 */
	};
	for (unsigned r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		float a[4][8], b[4][8], out[8];
		for (unsigned k = 0; k < 4; k++)
			for (unsigned l = 0; l < 8; l++) {
				a[k][l] = rows[r][0][k];
				b[k][l] = rows[r][1][k];
			}
		cr_assert(dot8((const float (*)[8])a, (const float (*)[8])b, 4, out), "row %u", r);
		const float ref = f24_dot(rows[r][0], rows[r][1], 4, &fm);
		for (unsigned l = 0; l < 8; l++)
			cr_assert_eq(bits_of(out[l]), bits_of(ref), "row %u: %a vs %a", r, (double)out[l], (double)ref);
		if (r == 0)
			cr_assert_eq(ref, 0x1p-62f);
		/* one lane just outside the range: the set is refused */
		for (unsigned v = 0; v < 4; v++) {
			const uint32_t out_of_range[] = { 0x33FFFF80, 0x4E800000, 0x7F800000, 0x7FC00000 };
			a[1][3] = of_bits(out_of_range[v]);
			cr_assert(!dot8((const float (*)[8])a, (const float (*)[8])b, 4, out), "row %u v %u", r, v);
			a[1][3] = rows[r][0][1];
			b[2][5] = of_bits(out_of_range[v] | 0x80000000);
			cr_assert(!dot8((const float (*)[8])a, (const float (*)[8])b, 4, out), "row %u v %u", r, v);
			b[2][5] = rows[r][1][2];
		}
	}
}
#endif
