/* isa/f24_vec.h: each lane of the four-lane float24 helpers equals the
 * one-value helper of isa/f24.h (f24_mul, f24_add, f24_round), bit for bit,
 * in every rounding mode: register values around every exponent, the
 * flush and overflow edges, zeros, infinities and NaNs. */
#include <criterion/criterion.h>
#include <string.h>

#include "isa/f24_vec.h"
#include "tests/test_util.h"

static uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* float24 register values: every exponent with a few mantissas and both
 * signs, the edges, and specials. */
static unsigned values(float *v, unsigned max)
{
	unsigned n = 0;
	static const uint32_t mant[] = { 0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x1234, 0xAAAA };
	for (uint32_t e = 0; e < 128 && n + 16 < max; e++)
		for (unsigned m = 0; m < sizeof mant / sizeof mant[0]; m++)
			for (uint32_t s = 0; s < 2; s++)
				v[n++] = f24_decode(s << 23 | e << 16 | mant[m]);
	const float extra[] = { 0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 0x1p-62f, -0x1p-62f,
	                        0x1.fffep63f, -0x1.fffep63f, 0x1p-63f, 3.0f, 0.1f, 1e-30f, 1e30f };
	for (unsigned k = 0; k < sizeof extra / sizeof extra[0] && n < max; k++)
		v[n++] = extra[k];
	return n;
}

static const enum ulp_round MODES[] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_TRUNCATE,
                                        ULP_ROUND_NEAREST_AWAY };

Test(f24_vec, mul_and_add_lanes_equal_the_scalar_helpers)
{
	static float v[2048];
	unsigned n = values(v, 2048);
	test_rng rng = { 12345 };
	for (unsigned m = 0; m < 3; m++) {
		const f24_mode fm = { .round = MODES[m] };
		const uint64_t rne = f24v_rne(MODES[m]);
		for (unsigned it = 0; it < 200000; it++) {
			f24v_f4 a, b;
			for (int k = 0; k < 4; k++) {
				a[k] = v[test_rnd(&rng) % n];
				b[k] = v[test_rnd(&rng) % n];
			}
			/* neighbours in exponent too: sums that round */
			if (it & 1)
				b[it & 3] = a[it & 3] * 0.75f;
			f24v_f4 p = f24v_mul4(a, b, rne), s = f24v_add4(a, b, rne);
			for (int k = 0; k < 4; k++) {
				cr_assert_eq(bits_of(p[k]), bits_of(f24_mul(a[k], b[k], &fm)),
				             "mul %a %a mode %u", (double)a[k], (double)b[k], m);
				cr_assert_eq(bits_of(s[k]), bits_of(f24_add(a[k], b[k], &fm)),
				             "add %a %a mode %u", (double)a[k], (double)b[k], m);
				/* the sums of a dot product: rounded values */
				float ra = f24_mul(a[k], a[k], &fm), rb = f24_mul(b[k], a[k], &fm);
				cr_assert_eq(bits_of(f24v_sum1(ra, rb, rne)), bits_of(f24_add(ra, rb, &fm)),
				             "sum %a %a mode %u", (double)ra, (double)rb, m);
				cr_assert_eq(bits_of(f24v_add1(a[k], b[k], rne)), bits_of(f24_add(a[k], b[k], &fm)));
			}
		}
	}
}

Test(f24_vec, round_lanes_equal_f24_round_at_the_edges)
{
	/* doubles around the flush and overflow limits and around ties */
	const double edge[] = { 0x1p-62, 0x1p64, 1.0, 3.0, 0x1.00008p0, 0x1.00018p0, 0x1p-126,
	                        0x1p128, 0x1p-1074, 0x1p1023, INFINITY, NAN, 0.0 };
	for (unsigned m = 0; m < 3; m++) {
		const uint64_t rne = f24v_rne(MODES[m]);
		for (unsigned e = 0; e < sizeof edge / sizeof edge[0]; e++) {
			for (int d = -3; d <= 3; d++) {
				for (int s = 0; s < 2; s++) {
					double x = edge[e];
					for (int k = 0; k < (d < 0 ? -d : d); k++)
						x = d < 0 ? nextafter(x, 0) : nextafter(x, INFINITY);
					x = s ? -x : x;
					f24v_d2 r = f24v_round2((f24v_d2){ x, -x }, rne);
					f24v_f4 f = f24v_join(r, r);
					cr_assert_eq(bits_of(f[0]), bits_of(f24_round(x, MODES[m])), "%a mode %u", x, m);
					cr_assert_eq(bits_of(f[1]), bits_of(f24_round(-x, MODES[m])), "%a mode %u", -x, m);
					cr_assert_eq(bits_of(f24v_round1(x, rne)), bits_of(f24_round(x, MODES[m])));
					if (!rne) {           /* the truncating form */
						f24v_f4 t = f24v_trunc4((f24v_d2){ x, -x }, (f24v_d2){ -x, x });
						cr_assert_eq(bits_of(t[0]), bits_of(f24_round(x, MODES[m])), "%a", x);
						cr_assert_eq(bits_of(t[1]), bits_of(f24_round(-x, MODES[m])), "%a", -x);
						cr_assert_eq(bits_of(t[2]), bits_of(f24_round(-x, MODES[m])), "%a", -x);
					}
				}
			}
		}
	}
}

#if F24V_HAVE_AVX2
/* The eight-lane forms, where the CPU has them (compiled for AVX2 here). */
__attribute__((target("avx2"))) static void lanes8(const float *a, const float *b, uint64_t rne,
                                                   float *p, float *s)
{
	f24v_f8 x, y, r;
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	r = f24v_mul8(x, y, rne);
	memcpy(p, &r, sizeof r);
	r = f24v_add8(x, y, rne);
	memcpy(s, &r, sizeof r);
}

/* The adds that take rounded operands: addr8(mul8(a, b), c) (a MAD),
 * sum8(mul8(a, b), mul8(b, b)) (a dot product) */
__attribute__((target("avx2"))) static void rounded8(const float *a, const float *b, const float *c,
                                                     uint64_t rne, float *ra, float *rs)
{
	f24v_f8 x, y, z, r;
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	memcpy(&z, c, sizeof z);
	const f24v_f8 p = f24v_mul8(x, y, rne), q = f24v_mul8(y, y, rne);
	r = f24v_addr8(p, z, rne);
	memcpy(ra, &r, sizeof r);
	r = f24v_sum8(p, q, rne);
	memcpy(rs, &r, sizeof r);
}

__attribute__((target("avx2"))) static void sfu8(const float *a, uint64_t rne, float *rcp, float *rsq)
{
	f24v_f8 x, r;
	memcpy(&x, a, sizeof x);
	r = f24v_rcp8(x, rne);
	memcpy(rcp, &r, sizeof r);
	r = f24v_rsq8(x, rne);
	memcpy(rsq, &r, sizeof r);
}

/* RCP and RSQ: every value of values() (negatives, zeros, float24
 * subnormals that flush, infinities, NaNs) and random mantissas around
 * each exponent. */
Test(f24_vec, eight_lane_rcp_rsq_equal_the_scalar_helpers)
{
	if (!__builtin_cpu_supports("avx2"))
		return;
	static float v[2048];
	unsigned n = values(v, 2048);
	test_rng rng = { 4242 };
	for (unsigned m = 0; m < 3; m++) {
		const f24_mode fm = { .round = MODES[m] };
		const uint64_t rne = f24v_rne(MODES[m]);
		for (unsigned it = 0; it < n / 8 + 40000; it++) {
			float a[8], rcp[8], rsq[8];
			for (int k = 0; k < 8; k++)
				a[k] = it < n / 8 ? v[8 * it + (unsigned)k]
				                  : f24_decode(test_rnd(&rng) & 0xFFFFFFu);
			sfu8(a, rne, rcp, rsq);
			for (int k = 0; k < 8; k++) {
				cr_assert_eq(bits_of(rcp[k]), bits_of(f24_rcp(a[k], &fm)), "rcp8 %a mode %u",
				             (double)a[k], m);
				cr_assert_eq(bits_of(rsq[k]), bits_of(f24_rsq(a[k], &fm)), "rsq8 %a mode %u",
				             (double)a[k], m);
			}
		}
	}
}

Test(f24_vec, eight_lanes_equal_the_scalar_helpers)
{
	if (!__builtin_cpu_supports("avx2"))
		return;                                /* nothing to check on this host */
	static float v[2048];
	unsigned n = values(v, 2048);
	test_rng rng = { 777 };
	for (unsigned m = 0; m < 3; m++) {
		const f24_mode fm = { .round = MODES[m] };
		const uint64_t rne = f24v_rne(MODES[m]);
		for (unsigned it = 0; it < 100000; it++) {
			float a[8], b[8], p[8], s[8];
			for (int k = 0; k < 8; k++) {
				a[k] = v[test_rnd(&rng) % n];
				b[k] = (it & 1) && k == (int)(it & 7) ? a[k] * 0.75f : v[test_rnd(&rng) % n];
			}
			lanes8(a, b, rne, p, s);
			float c[8], ra[8], rs[8];
			for (int k = 0; k < 8; k++)         /* the addend: often a float24 subnormal */
				c[k] = k & 1 ? v[test_rnd(&rng) % n] : -f24_decode(test_rnd(&rng) & 0xFFFFu);
			rounded8(a, b, c, rne, ra, rs);
			for (int k = 0; k < 8; k++) {
				const float pk = f24_mul(a[k], b[k], &fm), qk = f24_mul(b[k], b[k], &fm);
				cr_assert_eq(bits_of(ra[k]), bits_of(f24_add(pk, c[k], &fm)),
				             "addr8 %a %a mode %u", (double)a[k], (double)b[k], m);
				cr_assert_eq(bits_of(rs[k]), bits_of(f24_add(pk, qk, &fm)),
				             "sum8 %a %a mode %u", (double)a[k], (double)b[k], m);
				cr_assert_eq(bits_of(p[k]), bits_of(f24_mul(a[k], b[k], &fm)),
				             "mul8 %a %a mode %u", (double)a[k], (double)b[k], m);
				cr_assert_eq(bits_of(s[k]), bits_of(f24_add(a[k], b[k], &fm)),
				             "add8 %a %a mode %u", (double)a[k], (double)b[k], m);
			}
		}
	}
}
#endif

/* f24_of_f32 (a vertex attribute or uniform as a register value) worked out
 * on the bits equals f24_decode(f24_encode(v, r)): every binary32 exponent
 * with the mantissas around each rounding boundary (the 7 bits a normal
 * drops, the 8..24 a float24 subnormal drops), random ones, both signs,
 * every mode, and the specials.  (An exhaustive run over all 2^32 inputs in
 * the three modes agreed when it was written, docs/speed-history.md "Vertices".) */
Test(f24_vec, of_f32_equals_encode_then_decode)
{
	test_rng rng = { 4242 };
	for (unsigned m = 0; m < 3; m++) {
		for (uint32_t e = 0; e < 256; e++) {
			for (unsigned j = 0; j < 400; j++) {
				uint32_t mant;
				if (j < 25 * 12) {        /* around bit j/12's half-way point */
					const unsigned k = j / 12, d = j % 12;
					const uint32_t half = k ? 1u << (k - 1) : 0;
					const uint32_t base = (test_rnd(&rng) & 0x7FFFFFu) & ~((2u << k) - 1u);
					mant = (base + half + (d < 6 ? d : (uint32_t)-(int)(d - 5))) & 0x7FFFFFu;
					if (d == 11)
						mant = 0x7FFFFFu - (d & 1);
				} else {
					mant = test_rnd(&rng) & 0x7FFFFFu;
				}
				for (uint32_t s = 0; s < 2; s++) {
					const uint32_t b = s << 31 | e << 23 | mant;
					float v;
					memcpy(&v, &b, sizeof v);
					const float want = f24_decode(f24_encode(v, MODES[m]));
					cr_assert_eq(bits_of(f24_of_f32(v, MODES[m], false)), bits_of(want),
					             "f24_of_f32(%a) mode %u: %a, want %a", (double)v, m,
					             (double)f24_of_f32(v, MODES[m], false), (double)want);
					cr_assert_eq(bits_of(f24_of_f32(v, MODES[m], true)), b);
				}
			}
		}
	}
}

/* f24v_of_f32_4 (vertex fetch's four components at once) lane for lane
 * against f24_of_f32: every binary32 exponent (the vector's range, 65..254
 * and zeros, and the lanes it hands to f24_of_f32: float24's subnormal
 * steps, infinities, NaNs), mantissas at and around the 7 dropped bits'
 * half-way point and random ones, both signs, every mode; a quadruple of
 * only vector lanes and one with a single scalar lane among them. */
Test(f24_vec, of_f32_4_equals_of_f32_lane_for_lane)
{
	test_rng rng = { 77 };
	for (unsigned m = 0; m < 3; m++) {
		for (unsigned i = 0; i < 200000; i++) {
			f24v_f4 v;
			for (unsigned k = 0; k < 4; k++) {
				const uint32_t e = (i & 7) == 0 && k == (i >> 3) % 4 ? test_rnd(&rng) % 256
				                   : 65 + test_rnd(&rng) % 190;
				const uint32_t d = test_rnd(&rng) % 8, half = 64;
				uint32_t mant = test_rnd(&rng) & 0x7FFFFFu;
				if (d < 5)                 /* at the half-way point and a step either side */
					mant = (mant & ~127u) | (half + d - 2u);
				else if (d == 5)
					mant = 0x7FFFFFu;      /* a carry into the exponent (254: into 2^128) */
				uint32_t b = (test_rnd(&rng) & 1u) << 31 | e << 23 | mant;
				if (test_rnd(&rng) % 64 == 0)
					b &= 0x80000000u;      /* a zero of either sign */
				memcpy(&v[k], &b, sizeof b);
			}
			const f24v_f4 got = f24v_of_f32_4(v, MODES[m]);
			for (unsigned k = 0; k < 4; k++)
				cr_assert_eq(bits_of(got[k]), bits_of(f24_of_f32(v[k], MODES[m], false)),
				             "lane %u of %a mode %u: %a, want %a", k, (double)v[k], m, (double)got[k],
				             (double)f24_of_f32(v[k], MODES[m], false));
		}
	}
}

/* The comparisons and choices lane for lane against f24_sge, f24_slt,
 * f24_max (both settings of f24.max_zero_neg_inf) and f24_min, over every
 * pair of the values (zeros of both signs, infinities, NaNs among them). */
Test(f24_vec, compare_lanes_equal_the_scalar_helpers)
{
	static float v[2048];
	unsigned n = values(v, 2040);
	v[n++] = -0.0f;                      /* (not a register value: -0 vs +0 picked apart) */
	v[n++] = 0.0f;
	v[n++] = -0.0f;
	v[n++] = 0.0f;
	f24_mode modes[2] = { F24_MODE_DEFAULT, F24_MODE_DEFAULT };
	modes[1].max_neg_inf = F24_MAX_NEG_INF;
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j + 4 <= n; j += 4) {
			const f24v_f4 a = { v[i], v[i], v[j], v[j + 1] };
			const f24v_f4 b = { v[j], v[j + 1], v[i], v[j + 2] };
			for (unsigned m = 0; m < 2; m++) {
				const f24v_f4 ge = f24v_sge4(a, b), lt = f24v_slt4(a, b);
				const f24v_f4 mx = f24v_max4(a, b, &modes[m]), mn = f24v_min4(a, b);
				for (int l = 0; l < 4; l++) {
					bad += bits_of(ge[l]) != bits_of(f24_sge(a[l], b[l]));
					bad += bits_of(lt[l]) != bits_of(f24_slt(a[l], b[l]));
					bad += bits_of(mx[l]) != bits_of(f24_max(a[l], b[l], &modes[m]));
					bad += bits_of(mn[l]) != bits_of(f24_min(a[l], b[l], &modes[m]));
				}
			}
		}
	/* the -inf rule's own case, in both orders */
	const f24v_f4 z = { 0.0f, -0.0f, -INFINITY, -INFINITY }, ni = { -INFINITY, -INFINITY, 0.0f, -0.0f };
	for (int l = 0; l < 4; l++)
		bad += bits_of(f24v_max4(z, ni, &modes[1])[l]) != bits_of(f24_max(z[l], ni[l], &modes[1]));
	cr_expect_eq(f24v_max4(z, ni, &modes[1])[0], -INFINITY);
	cr_expect_eq(f24v_max4(z, ni, &modes[0])[0], 0.0f);
	cr_expect_eq(bad, 0u, "%u lanes differ", bad);
}
