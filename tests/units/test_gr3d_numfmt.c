/* The fragment units' inline FP20 helpers (units/gr3d/gr3d_quad.h) against the
 * generic minifloat path of isa/fp20: every FP20 code, the values just
 * around it and the rounding ties between codes, in every rounding mode,
 * plus a deterministic spread of arbitrary doubles.  The fast paths exist
 * for speed only; they must never change a bit. */
#include <criterion/criterion.h>
#include <math.h>

#include "tests/test_util.h"
#include "units/gr3d/gr3d_quad.h"

/* The definition the fast paths stand for. */
static uint32_t ref_bits(enum ulp_round r, double v)
{
	if (v == 0.0)
		return signbit(v) ? 1u << 19 : 0u;
	return fp20_encode(fp20_round(v, r), r);
}

static const enum ulp_round MODES[] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_TRUNCATE,
                                        ULP_ROUND_NEAREST_AWAY };

static void check_one(const gr3d_ctx *c, double v)
{
	uint32_t want = ref_bits(c->fp20_round, v);
	uint32_t got = gr3d_to_fp20(c, v);
	if (got != want)
		cr_assert_fail("mode %d: %a encodes as 0x%05x, the generic path says 0x%05x",
		               (int)c->fp20_round, v, got, want);
	/* round20 is the value of that code (0 keeps its sign, NaN stays NaN) */
	double r = gr3d_round20(c, v);
	double w = v == 0.0 ? v : gr3d_fp20(want);
	if (!(isnan(r) && isnan(w)) && (memcmp(&r, &w, sizeof r) != 0))
		cr_assert_fail("mode %d: %a rounds to %a, the generic path to %a", (int)c->fp20_round, v, r, w);
	/* the four-pixel form (the ALU's) gives each lane the one-value result,
	 * whatever its neighbours take (fast path or not) */
	const double in[GR3D_PIXELS] = { v, -v, v * 0x1p-40, v * 3.0 };
	double quad[GR3D_PIXELS];
	memcpy(quad, in, sizeof quad);
	gr3d_round20_quad(c, quad);
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const double one = gr3d_round20(c, in[p]);
		if (!(isnan(one) && isnan(quad[p])) && memcmp(&one, &quad[p], sizeof one) != 0)
			cr_assert_fail("mode %d: %a in lane %u rounds to %a, alone to %a", (int)c->fp20_round,
			               in[p], p, quad[p], one);
	}
	uint32_t codes[GR3D_PIXELS];
	gr3d_fp20_bits_quad(c->fp20_round, in, codes);
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		if (codes[p] != gr3d_to_fp20(c, in[p]))
			cr_assert_fail("mode %d: %a in lane %u encodes as 0x%05x, alone as 0x%05x",
			               (int)c->fp20_round, in[p], p, codes[p], gr3d_to_fp20(c, in[p]));
}

Test(gr3d_numfmt, fp20_rounding_matches_generic_path_around_every_code)
{
	for (unsigned m = 0; m < 3; m++) {
		gr3d_ctx c;
		memset(&c, 0, sizeof c);
		c.fp20_round = MODES[m];
		for (uint32_t code = 0; code <= FP20_MASK; code++) {
			double probes[6];   /* the code, the tie to the next code up, their neighbours */
			if (!test_fp20_probes(code, probes))
				continue;
			for (unsigned k = 0; k < 6; k++)
				if (isfinite(probes[k]) || isinf(probes[k]))
					check_one(&c, probes[k]);
		}
		/* arbitrary doubles over the whole exponent range (LCG, fixed seed) */
		uint64_t x = 0x9E3779B97F4A7C15u;
		for (unsigned i = 0; i < 1000000; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			double v;
			memcpy(&v, &x, sizeof v);
			if (!isnan(v))
				check_one(&c, v);
		}
		check_one(&c, INFINITY);
		check_one(&c, -INFINITY);
		check_one(&c, 0.0);
		check_one(&c, -0.0);
		cr_assert(isnan(gr3d_round20(&c, NAN)));
		cr_assert_eq(gr3d_to_fp20(&c, NAN), ref_bits(c.fp20_round, NAN));
	}
}

/* Encoding a value rounded first gives the code of the value itself (the
 * ALU leaves the rounding of an unread slot written as FP20 to the encoder,
 * alu_slot.unread): around every code, over random doubles (NaN payloads
 * too), infinities and zeros, in every mode. */
static void check_encode_rounded(const gr3d_ctx *c, double v)
{
	const uint32_t once = gr3d_to_fp20(c, v), twice = gr3d_to_fp20(c, gr3d_round20(c, v));
	if (once != twice)
		cr_assert_fail("mode %d: %a encodes as 0x%05x, rounded first as 0x%05x", (int)c->fp20_round, v, once,
		               twice);
}

Test(gr3d_numfmt, fp20_encode_of_rounded_value_is_encode_of_value)
{
	for (unsigned m = 0; m < 3; m++) {
		gr3d_ctx c;
		memset(&c, 0, sizeof c);
		c.fp20_round = MODES[m];
		for (uint32_t code = 0; code <= FP20_MASK; code++) {
			double probes[6];
			if (!test_fp20_probes(code, probes))
				continue;
			for (unsigned k = 0; k < 6; k++)
				check_encode_rounded(&c, probes[k]);
		}
		uint64_t x = 0x9E3779B97F4A7C15u;
		for (unsigned i = 0; i < 1000000; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			double v;
			memcpy(&v, &x, sizeof v);
			check_encode_rounded(&c, v);
		}
		const double edges[] = { INFINITY, -INFINITY, 0.0, -0.0, NAN, -NAN };
		for (unsigned k = 0; k < sizeof edges / sizeof edges[0]; k++)
			check_encode_rounded(&c, edges[k]);
	}
}

/* gr3d_fp20_quad (the ALU's four-pixel operand read) against gr3d_fp20 one
 * word at a time: every code in every lane, both subnormal-read settings. */
Test(gr3d_numfmt, fp20_quad_read_matches_one_word_reads)
{
	for (int sub = 0; sub < 2; sub++)
		for (uint32_t k = 0; k < (1u << 20); k++) {
			const uint32_t raw[GR3D_PIXELS] = { k, (k + 1u) & 0xFFFFFu, (k + 2u) & 0xFFFFFu,
			                                    (k + 3u) & 0xFFFFFu };
			double got[GR3D_PIXELS];
			gr3d_fp20_quad(sub != 0, raw, got);
			for (unsigned p = 0; p < GR3D_PIXELS; p++) {
				const double want = !(raw[p] & 0x7E000u) && !sub ? 0.0 : (double)gr3d_fp20(raw[p]);
				if (memcmp(&got[p], &want, sizeof want))
					cr_assert_fail("subnormals %d: 0x%05x in lane %u reads %a, one at a time %a", sub,
					               raw[p], p, got[p], want);
			}
		}
}

static void check_fx10_quad(enum ulp_round rm, bool wrap, const double in[GR3D_PIXELS])
{
	uint32_t got[GR3D_PIXELS];
	gr3d_fx10_bits_quad(rm, wrap, in, got);
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		if (got[p] != gr3d_fx10_bits(rm, wrap, in[p]))
			cr_assert_fail("mode %d wrap %d: %a in lane %u encodes as 0x%03x, alone as 0x%03x", (int)rm,
			               (int)wrap, in[p], p, got[p], gr3d_fx10_bits(rm, wrap, in[p]));
}

/* gr3d_fx10_bits_quad (the ALU's FX10 half writes) against gr3d_fx10_bits:
 * every half step of 1/256 over twice the FX10 range and its neighbours,
 * arbitrary doubles, inf, NaN and the zeros, in every mode, clamp and wrap. */
Test(gr3d_numfmt, fx10_quad_encode_matches_one_value_encodes)
{
	for (unsigned m = 0; m < 3; m++)
		for (int wrap = 0; wrap < 2; wrap++) {
			for (int k = -4096; k <= 4096; k++) {
				const double v = k / 512.0;
				const double in[GR3D_PIXELS] = { v, nextafter(v, INFINITY), nextafter(v, -INFINITY), -v };
				check_fx10_quad(MODES[m], wrap, in);
			}
			uint64_t x = 0x9E3779B97F4A7C15u;
			for (unsigned i = 0; i < 100000; i++) {
				double in[GR3D_PIXELS];
				for (unsigned p = 0; p < GR3D_PIXELS; p++) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					uint64_t b = x >> (p * 8);                          /* many magnitudes */
					memcpy(&in[p], &b, sizeof b);
				}
				check_fx10_quad(MODES[m], wrap, in);
			}
			const double special[GR3D_PIXELS] = { INFINITY, -INFINITY, NAN, -0.0 };
			const double big[GR3D_PIXELS] = { 1e300, -1e300, 4e6, -4e6 };
			check_fx10_quad(MODES[m], wrap, special);
			check_fx10_quad(MODES[m], wrap, big);
		}
}

/* The one-word reads of the fragment units go through isa/fp20.h and
 * isa/fx10.h: every FX10 code in both halves, every FP20 code. */
Test(gr3d_numfmt, one_word_reads_match_isa_every_code)
{
	for (uint32_t c = 0; c <= FX10_MASK; c++) {
		cr_assert_eq(gr3d_fx10(c, false), fx10_decode(c));
		cr_assert_eq(gr3d_fx10(c << FX10_HIGH_SHIFT | 0x3FFu, true), fx10_decode(c));
	}
	for (uint32_t c = 0; c <= FP20_MASK; c++) {
		float v = gr3d_fp20(c);
		if (fp20_exp(c) == FP20_EXP_MAX)
			cr_assert(isnan(v) || isinf(v));
		else if (fp20_exp(c) != 0 && v != fp20_decode(c))
			cr_assert_fail("0x%05x reads %a, isa decodes %a", c, (double)v, (double)fp20_decode(c));
	}
}
