/* Textures and render targets: the TEX unit's formats, wraps, LOD and
 * filters, mip levels; the DW's colour formats and RT_PARAMS; shadow
 * sampling end to end; the trace format's texture rules.  Expected values
 * are worked out by hand in the comments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "units/gr3d/gr3d_regs.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"
#include "units/gr3d/tex.h"

/* ---- a small helper for test textures ---- */

/* A w x h image whose texel k (row-major) is texels[k]; NULL: every texel
 * (r, g, b, a) = fill. */
static ulp_image *tex_image(uint32_t w, uint32_t h, const uint8_t (*texels)[4], const uint8_t fill[4])
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(w, h, &d);
	cr_assert(img, "%s", d.msg);
	for (uint32_t k = 0; k < w * h; k++)
		memcpy(ulp_image_px(img, k % w, k / w), texels ? texels[k] : fill, 4);
	return img;
}

static void expect4(const uint32_t o[4], uint32_t a, uint32_t b, uint32_t c, uint32_t d, const char *what)
{
	cr_expect(o[0] == a && o[1] == b && o[2] == c && o[3] == d, "%s: got %u %u %u %u, want %u %u %u %u",
	          what, o[0], o[1], o[2], o[3], a, b, c, d);
}

/* ---- formats ---- */

Test(tex, formats)
{
	static const uint8_t px[1][4] = { { 10, 20, 30, 40 } };
	ulp_image *img = tex_image(1, 1, px, NULL);
	gr3d_sampler s = { .img = img };
	uint32_t o[4];
	tex_sample(&s, 0, 0.5, 0.5, o);
	expect4(o, 10, 20, 30, 40, "RGBA8888");          /* b < 128: FX10 = b */
	s.format = GR3D_TEX_BGRA8888;
	tex_sample(&s, 0, 0.5, 0.5, o);
	expect4(o, 30, 20, 10, 40, "BGRA8888");
	s.format = GR3D_TEX_A8;
	tex_sample(&s, 0, 0.5, 0.5, o);
	expect4(o, 0, 0, 0, 40, "A8");
	s.format = GR3D_TEX_L8;
	tex_sample(&s, 0, 0.5, 0.5, o);
	expect4(o, 10, 10, 10, 256, "L8");               /* alpha 255 -> FX10 1.0 = 256 */
	ulp_image_free(img);

	/* RGB565 as the replay unpacks it: 5/6/5 bits at the top of bytes 0..2;
	 * 31 -> 255 -> 256, 63 -> 255 -> 256, 16 -> 132 -> 133 */
	static const uint8_t p565[1][4] = { { 31 << 3, 63 << 2, 16 << 3, 0 } };
	img = tex_image(1, 1, p565, NULL);
	s = (gr3d_sampler){ .img = img, .format = GR3D_TEX_RGB565 };
	tex_sample(&s, 0, 0.5, 0.5, o);
	expect4(o, 256, 256, 133, 256, "RGB565");
	ulp_image_free(img);

	/* D16: 65535 -> round(256.0) = 256 (truncated: 255); 384 -> 1.5 -> 2 (truncated 1) */
	static const uint8_t pd[2][4] = { { 0xFF, 0xFF, 0, 255 }, { 0x80, 0x01, 0, 255 } };
	img = tex_image(2, 1, pd, NULL);
	s = (gr3d_sampler){ .img = img, .format = GR3D_TEX_D16 };
	tex_sample(&s, 0, 0.25, 0.5, o);
	expect4(o, 256, 256, 256, 256, "D16 1.0");
	tex_sample(&s, 0, 0.75, 0.5, o);
	expect4(o, 2, 2, 2, 256, "D16 384");
	s.depth_truncate = true;
	tex_sample(&s, 0, 0.25, 0.5, o);
	cr_expect_eq(o[0], 255u, "D16 truncated");
	tex_sample(&s, 0, 0.75, 0.5, o);
	cr_expect_eq(o[0], 1u, "D16 384 truncated");
	ulp_image_free(img);
}

Test(tex, wrap_per_axis)
{
	static const uint8_t px[4][4] = { { 1, 0, 0, 0 }, { 2, 0, 0, 0 }, { 3, 0, 0, 0 }, { 4, 0, 0, 0 } };
	ulp_image *img = tex_image(2, 2, px, NULL);
	gr3d_sampler s = { .img = img, .wrap = GR3D_WRAP_REPEAT, .wrap_t_own = true, .wrap_t = GR3D_WRAP_CLAMP };
	uint32_t o[4];
	tex_sample(&s, 0, 1.25, 1.25, o);          /* u = 2.5 -> x 2 -> repeat 0; v 2.5 -> y 2 -> clamp 1 */
	cr_expect_eq(o[0], 3u);
	s.wrap = GR3D_WRAP_MIRROR;
	tex_sample(&s, 0, 1.25, -0.25, o);         /* x 2 -> mirror 1; y -1 -> clamp 0 */
	cr_expect_eq(o[0], 2u);
	s.wrap_t_own = false;                      /* t follows s: mirror, y -1 -> 0 */
	tex_sample(&s, 0, 0.25, 1.75, o);          /* y 3 -> mirror 0 */
	cr_expect_eq(o[0], 1u);
	ulp_image_free(img);
}

/* Every byte in every channel of every format, against the plain rule: each
 * byte b as unorm8_to_fx10(b) = b + (b >> 7), RGB565 expanded as
 * round(v * 255 / 31) (/ 63).  (tex.c converts two bytes at a time.) */
Test(tex, every_byte_every_format)
{
	uint8_t (*px)[4] = malloc(256 * sizeof *px);
	cr_assert(px);
	for (unsigned b = 0; b < 256; b++) {
		px[b][0] = (uint8_t)b;
		px[b][1] = (uint8_t)(255 - b);
		px[b][2] = (uint8_t)(b * 7 + 3);
		px[b][3] = (uint8_t)(b ^ 0xA5);
	}
	ulp_image *img = tex_image(256, 1, (const uint8_t (*)[4])px, NULL);
	for (unsigned f = GR3D_TEX_RGBA8888; f <= GR3D_TEX_RGB565; f++) {
		gr3d_sampler s = { .img = img, .format = (uint8_t)f };
		for (unsigned b = 0; b < 256; b++) {
			const uint8_t *p = px[b];
			unsigned want[4];
			switch (f) {
			case GR3D_TEX_BGRA8888: want[0] = p[2], want[1] = p[1], want[2] = p[0], want[3] = p[3]; break;
			case GR3D_TEX_A8: want[0] = want[1] = want[2] = 0, want[3] = p[3]; break;
			case GR3D_TEX_L8: want[0] = want[1] = want[2] = p[0], want[3] = 255; break;
			case GR3D_TEX_RGB565:
				want[0] = ((p[0] >> 3) * 255u + 15u) / 31u;
				want[1] = ((p[1] >> 2) * 255u + 31u) / 63u;
				want[2] = ((p[2] >> 3) * 255u + 15u) / 31u;
				want[3] = 255;
				break;
			default: want[0] = p[0], want[1] = p[1], want[2] = p[2], want[3] = p[3]; break;
			}
			uint32_t o[4];
			cr_assert_eq(tex_sample(&s, 0, (b + 0.5) / 256.0, 0.5, o), 1u);
			for (unsigned k = 0; k < 4; k++)
				cr_assert_eq(o[k], want[k] + (want[k] >> 7), "format %u byte %u channel %u: %u", f, b, k,
				             o[k]);
		}
	}
	ulp_image_free(img);
	free(px);
}

/* Repeat and mirror on power-of-two sizes (tex.c takes a mask) and others,
 * far on both sides of the texture, against the plain modulo definitions. */
Test(tex, wrap_against_the_definition)
{
	for (unsigned w = 1; w <= 8; w++) {
		uint8_t (*px)[4] = calloc(w, sizeof *px);
		cr_assert(px);
		for (unsigned x = 0; x < w; x++)
			px[x][0] = (uint8_t)(x + 1);
		ulp_image *img = tex_image(w, 1, (const uint8_t (*)[4])px, NULL);
		for (unsigned mode = GR3D_WRAP_REPEAT; mode <= GR3D_WRAP_MIRROR; mode++) {
			gr3d_sampler s = { .img = img, .wrap = (uint8_t)mode };
			for (int i = -40; i < 40; i++) {
				const int n = (int)w, p2 = 2 * n;
				const int m = ((i % p2) + p2) % p2;
				const int x = mode == GR3D_WRAP_CLAMP ? (i < 0 ? 0 : i >= n ? n - 1 : i)
				            : mode == GR3D_WRAP_MIRROR ? (m < n ? m : p2 - 1 - m) : ((i % n) + n) % n;
				uint32_t o[4];
				tex_sample(&s, 0, (i + 0.5) / w, 0.5, o);
				cr_assert_eq(o[0], (uint32_t)x + 1u, "width %u mode %u x %d", w, mode, i);
			}
		}
		ulp_image_free(img);
		free(px);
	}
}

/* ---- LOD, min/mag, mip levels ---- */

Test(tex, lod_from_the_quad)
{
	static const uint8_t grey[4] = { 9, 9, 9, 9 };
	ulp_image *img = tex_image(8, 8, NULL, grey);
	gr3d_sampler s = { .img = img };
	/* s steps 0.25 across the quad: 0.25 * 8 = 2 texels per pixel -> LOD 1 */
	const double cs[4] = { 0, 0.25, 0, 0.25 }, ct[4] = { 0, 0, 0.125, 0.125 };
	cr_expect_float_eq(tex_lod(&s, cs, ct, 0.0), 1.0, 1e-12);
	cr_expect_float_eq(tex_lod(&s, cs, ct, 0.5), 1.5, 1e-12, "TXB bias adds");
	s.lod_bias = -2.0f;
	cr_expect_float_eq(tex_lod(&s, cs, ct, 0.5), -0.5, 1e-12, "and the sampler's lod_bias");
	const double flat[4] = { 0.3, 0.3, 0.3, 0.3 };
	cr_expect_float_eq(tex_lod(&s, flat, flat, 0.0), 0.0, 1e-12, "no footprint: 0");
	ulp_image_free(img);
}

Test(tex, min_and_mag_filters)
{
	static const uint8_t px[4][4] = { { 0, 0, 0, 0 }, { 100, 0, 0, 0 }, { 20, 0, 0, 0 }, { 40, 0, 0, 0 } };
	ulp_image *img = tex_image(2, 2, px, NULL);
	gr3d_sampler s = { .img = img, .wrap = GR3D_WRAP_CLAMP, .bilinear = true,
	                   .min_filter = GR3D_MIN_NEAREST };
	uint32_t o[4];
	cr_expect_eq(tex_filter(&s, -1.0, 0.5, 0.5, o), 4u, "magnified: bilinear");
	cr_expect_eq(o[0], 40u);                   /* (0 + 100 + 20 + 40) / 4 */
	cr_expect_eq(tex_filter(&s, 1.0, 0.5, 0.5, o), 1u, "minified: nearest");
	cr_expect_eq(o[0], 40u);                   /* texel (1, 1) */
	s.bilinear = false;
	s.min_filter = GR3D_MIN_LINEAR;
	cr_expect_eq(tex_filter(&s, 0.0, 0.5, 0.5, o), 1u, "LOD 0 counts as magnified");
	cr_expect_eq(tex_filter(&s, 0.5, 0.5, 0.5, o), 4u);
	s.min_filter = GR3D_MIN_AS_MAG;
	cr_expect_eq(tex_filter(&s, 2.0, 0.5, 0.5, o), 1u, "min follows mag");
	ulp_image_free(img);
}

/* A 4x4 red, 2x2 green, 1x1 blue chain given by the caller. */
typedef struct chain {
	ulp_image *lv[3];
	gr3d_sampler s;
} chain;

static void chain_make(chain *c)
{
	static const uint8_t col[3][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 } };
	for (unsigned k = 0; k < 3; k++)
		c->lv[k] = tex_image(4u >> k, 4u >> k, NULL, col[k]);
	c->s = (gr3d_sampler){ .img = c->lv[0], .nlevels = 3, .wrap = GR3D_WRAP_CLAMP };
	for (unsigned k = 0; k < 3; k++)
		c->s.level[k] = c->lv[k];
}

static void chain_free(chain *c)
{
	for (unsigned k = 0; k < 3; k++)
		ulp_image_free(c->lv[k]);
}

Test(tex, mip_nearest_and_linear)
{
	chain c;
	chain_make(&c);
	ulp_image *owned[GR3D_TEX_LEVELS];
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tex_build_levels(&c.s, owned, &d), "%s", d.msg);
	cr_expect_eq(c.s.nlevels, 3, "the caller's levels are kept");
	for (unsigned k = 0; k < GR3D_TEX_LEVELS; k++)
		cr_expect_null(owned[k]);
	uint32_t o[4];
	tex_filter(&c.s, 0.4, 0.5, 0.5, o);
	expect4(o, 256, 0, 0, 256, "LOD 0.4: level 0");
	tex_filter(&c.s, 0.6, 0.5, 0.5, o);
	expect4(o, 0, 256, 0, 256, "LOD 0.6: level 1");
	tex_filter(&c.s, 1.6, 0.5, 0.5, o);
	expect4(o, 0, 0, 256, 256, "LOD 1.6: level 2");
	tex_filter(&c.s, 7.0, 0.5, 0.5, o);
	expect4(o, 0, 0, 256, 256, "LOD 7: clamped to the last level");
	c.s.mip_linear = true;
	cr_expect_eq(tex_filter(&c.s, 0.25, 0.5, 0.5, o), 2u, "two levels read");
	expect4(o, 192, 64, 0, 256, "LOD 0.25: 3/4 red + 1/4 green");
	tex_filter(&c.s, 1.5, 0.5, 0.5, o);
	expect4(o, 0, 128, 128, 256, "LOD 1.5: half green, half blue");
	tex_filter(&c.s, 2.5, 0.5, 0.5, o);
	expect4(o, 0, 0, 256, 256, "past the last level");
	c.s.mip_none = true;
	tex_filter(&c.s, 1.5, 0.5, 0.5, o);
	expect4(o, 256, 0, 0, 256, "mip filter none: level 0");
	/* a chain with a hole is refused */
	c.s.level[2] = NULL;
	cr_expect_not(tex_build_levels(&c.s, owned, &d));
	cr_expect(strstr(d.msg, "level 2"), "%s", d.msg);
	chain_free(&c);
}

Test(tex, built_levels_of_a_depth_texture)
{
	/* depths 0, 100, 200, 301: the box filter averages the 16-bit values,
	 * (601 + 2) / 4 = 150, not the bytes */
	static const uint8_t pd[4][4] = { { 0, 0, 0, 255 }, { 100, 0, 0, 255 }, { 200, 0, 0, 255 },
	                                  { 0x2D, 0x01, 0, 255 } };
	ulp_image *img = tex_image(2, 2, pd, NULL);
	gr3d_sampler s = { .img = img, .format = GR3D_TEX_D16, .mipmap = true };
	ulp_image *owned[GR3D_TEX_LEVELS];
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tex_build_levels(&s, owned, &d), "%s", d.msg);
	cr_assert_eq(s.nlevels, 2);
	const uint8_t *p = ulp_image_cpx(s.level[1], 0, 0);
	cr_expect(p[0] == 150 && p[1] == 0, "level 1 depth %u", p[0] | p[1] << 8);
	for (unsigned k = 0; k < GR3D_TEX_LEVELS; k++)
		ulp_image_free(owned[k]);
	ulp_image_free(img);
}

/* ---- render targets ---- */

Test(tex, rt_params_register)
{
	reg_stream st;
	reg_stream_init(&st);
	drv_gr3d_rt_params(&st, 1, GR3D_RT_RGB565, 128);
	drv_gr3d_rt_params(&st, 2, GR3D_RT_A8, 64);
	drv_gr3d_rt_params(&st, 3, GR3D_RT_BGRA8888, 256);
	gr3d_regs r;
	gr3d_regs_init(&r);
	ulp_diag d;
	ulp_diag_clear(&d);
	for (size_t k = 0; k < st.n; k++)
		cr_assert(gr3d_regs_write(&r, st.w[k].reg, st.w[k].value, &d), "%s", d.msg);
	/* FORMAT at bits 2..6, PITCH at 8..24 */
	cr_expect_eq(r.raw[0xe11], (uint32_t)GR3D_PF_RGB565 << 2 | 128u << 8);
	cr_expect_eq((r.raw[0xe13] >> 8) & 0x1FFFF, 256u);
	uint8_t f;
	cr_expect(gr3d_regs_rt_format(&r, 1, &f, &d) && f == GR3D_RT_RGB565);
	cr_expect(gr3d_regs_rt_format(&r, 2, &f, &d) && f == GR3D_RT_A8);
	cr_expect(gr3d_regs_rt_format(&r, 3, &f, &d) && f == GR3D_RT_RGBA8888, "BGRA is programmed as RGBA8888");
	cr_expect(gr3d_regs_rt_format(&r, 4, &f, &d) && f == GR3D_RT_RGBA8888, "never written");
	cr_assert(gr3d_regs_write(&r, 0xe15, (uint32_t)GR3D_PF_D16_LINEAR << 2, &d));
	cr_expect_not(gr3d_regs_rt_format(&r, 5, &f, &d), "a depth format is not a colour target");
	cr_expect(strstr(d.msg, "0xe15"), "%s", d.msg);
	reg_stream_free(&st);
}

static const char *const FULLSCREEN_VS = "VERT\\nDCL IN[0]\\nDCL IN[1]\\nDCL OUT[0], POSITION\\n"
	"DCL OUT[1], GENERIC[0]\\n  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n  2: END\\n";

/* Replays a full-screen 8x8 quad (texcoord s = 0..1 left to right, r = 0.5)
 * with fragment shader fs, extra resources res and commands cmds before the
 * draw; returns the final image (row 0 = top). */
static ulp_image *run_quad(const char *cbuf_fmt, const char *res, const char *fs, const char *cmds, bool draw)
{
	char *json = malloc(16384);
	cr_assert(json);
	snprintf(json, 16384,
	         "{\"format\": \"ulpsim-trace\", \"version\": 1,\n"
	         " \"resources\": {\"vb\": {\"type\": \"buffer\", \"f32\": [\n"
	         "   -1, -1, 0, 1,  0, 0, 0.5, 1,   1, -1, 0, 1,  1, 0, 0.5, 1,\n"
	         "   -1,  1, 0, 1,  0, 1, 0.5, 1,   1,  1, 0, 1,  1, 1, 0.5, 1]}%s},\n"
	         " \"shaders\": {\"vs\": {\"stage\": \"vertex\", \"tgsi\": \"%s\"},\n"
	         "              \"fs\": {\"stage\": \"fragment\", \"tgsi\": \"%s\"}},\n"
	         " \"commands\": [\n"
	         "  {\"cmd\": \"framebuffer\", \"width\": 8, \"height\": 8, \"cbufs\": [{\"format\": \"%s\"}]},\n"
	         "  {\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},\n"
	         "  {\"cmd\": \"vertex_elements\", \"elements\": [\n"
	         "    {\"buffer\": \"vb\", \"offset\": 0, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"},\n"
	         "    {\"buffer\": \"vb\", \"offset\": 16, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"}]},\n"
	         "  {\"cmd\": \"clear\", \"color\": [0.1, 0.1, 0.1, 1]},\n"
	         "  %s{\"cmd\": \"draw\", \"mode\": \"triangle_strip\", \"start\": 0, \"count\": %d}]}\n",
	         res, FULLSCREEN_VS, fs, cbuf_fmt, cmds, draw ? 4 : 0);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, json, "q.json", ".", &d), "%s", d.msg);
	free(json);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true };
	replay_result res_;
	cr_assert(replay_run(&t, &o, &res_, &d), "%s", d.msg);
	trace_free(&t);
	cr_assert(res_.image);
	return res_.image;
}

static const char *const CONST_FS = "FRAG\\nDCL OUT[0], COLOR\\nIMM[0] FLT32 { 0.2, 0.5, 0.7, 0.4 }\\n"
	"  0: MOV OUT[0], IMM[0]\\n  1: END\\n";

Test(tex, colour_buffer_formats, .timeout = 60)
{
	/* FX10 0.2 = 51, 0.5 = 128, 0.7 = 179, 0.4 = 102; DW's UNORM8 rule
	 * (fx10 * 255 + 127) >> 8 gives 51, 127, 178, 102 */
	static const struct {
		const char *fmt;
		uint8_t px[4];
		uint8_t clear0;
	} cases[] = {
		{ "RGBA8888", { 51, 127, 178, 102 }, 26 },
		{ "BGRA8888", { 51, 127, 178, 102 }, 26 },
		/* 565: 51 -> 6 -> 49; 127 -> 31 -> 125; 178 -> 22 -> 181; no alpha: 255;
		 * the clear 0.1 = 26 -> 3 -> 25 */
		{ "RGB565", { 49, 125, 181, 255 }, 25 },
		{ "A8", { 0, 0, 0, 102 }, 0 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		ulp_image *img = run_quad(cases[k].fmt, "", CONST_FS, "", true);
		const uint8_t *p = ulp_image_cpx(img, 3, 3);
		cr_expect(!memcmp(p, cases[k].px, 4), "%s: %u %u %u %u", cases[k].fmt, p[0], p[1], p[2], p[3]);
		ulp_image_free(img);
		/* the clear colour goes through the same format */
		img = run_quad(cases[k].fmt, "", CONST_FS, "", false);
		cr_expect_eq(ulp_image_cpx(img, 0, 0)[0], cases[k].clear0, "%s clear", cases[k].fmt);
		ulp_image_free(img);
	}
}

static const char *const SHADOW_FS = "FRAG\\nDCL IN[0], GENERIC[0], PERSPECTIVE\\nDCL OUT[0], COLOR\\n"
	"DCL SAMP[0]\\nDCL SVIEW[0], SHADOW1D, FLOAT\\n  0: TEX OUT[0], IN[0], SAMP[0], SHADOW1D\\n"
	"  1: END\\n";

Test(tex, shadow_compare_end_to_end, .timeout = 60)
{
	/* a 1D depth texture, depth 0 on the left half, 1 on the right; the
	 * reference r = 0.5 everywhere */
	const char *res = ",\"d\": {\"type\": \"texture\", \"format\": \"D16\", \"target\": \"1D\", "
	                  "\"width\": 2, \"height\": 1, \"u16\": [0, 65535]}";
	static const struct {
		const char *func;
		uint8_t left, right;
	} cases[] = {
		{ "less", 0, 255 },       /* 0.5 < d */
		{ "greater", 255, 0 },    /* 0.5 > d */
		{ "always", 255, 255 },
		{ "never", 0, 0 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char cmds[512];
		snprintf(cmds, sizeof cmds,
		         "{\"cmd\": \"sampler_view\", \"index\": 0, \"resource\": \"d\"},\n"
		         "{\"cmd\": \"sampler\", \"index\": 0, \"filter\": \"nearest\", \"wrap\": \"clamp\", "
		         "\"compare_mode\": \"ref_to_texture\", \"compare_func\": \"%s\"},", cases[k].func);
		ulp_image *img = run_quad("RGBA8888", res, SHADOW_FS, cmds, true);
		const uint8_t *l = ulp_image_cpx(img, 1, 4), *r = ulp_image_cpx(img, 6, 4);
		cr_expect(l[0] == cases[k].left && l[2] == cases[k].left && l[3] == 255, "%s left: %u %u",
		          cases[k].func, l[0], l[3]);
		cr_expect(r[0] == cases[k].right && r[3] == 255, "%s right: %u", cases[k].func, r[0]);
		ulp_image_free(img);
	}
}

Test(tex, view_swizzle_gives_the_depth_modes, .timeout = 60)
{
	/* GL depth texture modes on the compare result c (here "less": left 0,
	 * right 1) through the view swizzle compiled into the program */
	const char *res = ",\"d\": {\"type\": \"texture\", \"format\": \"D16\", \"target\": \"1D\", "
	                  "\"width\": 2, \"height\": 1, \"u16\": [0, 65535]}";
	static const struct {
		const char *swz;
		uint8_t right[4];
	} cases[] = {
		{ "rrr1", { 255, 255, 255, 255 } },   /* luminance */
		{ "rrrr", { 255, 255, 255, 255 } },   /* intensity */
		{ "000r", { 0, 0, 0, 255 } },         /* alpha */
		{ "r001", { 255, 0, 0, 255 } },       /* red */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char cmds[512];
		snprintf(cmds, sizeof cmds,
		         "{\"cmd\": \"sampler_view\", \"index\": 0, \"resource\": \"d\", \"swizzle\": \"%s\"},\n"
		         "{\"cmd\": \"sampler\", \"index\": 0, \"filter\": \"nearest\", \"wrap\": \"clamp\", "
		         "\"compare_mode\": \"ref_to_texture\", \"compare_func\": \"less\"},", cases[k].swz);
		ulp_image *img = run_quad("RGBA8888", res, SHADOW_FS, cmds, true);
		const uint8_t *l = ulp_image_cpx(img, 1, 4), *r = ulp_image_cpx(img, 6, 4);
		cr_expect(!memcmp(r, cases[k].right, 4), "%s right: %u %u %u %u", cases[k].swz, r[0], r[1], r[2], r[3]);
		/* left: c = 0; the alpha channel is 1 only where the swizzle says 1 */
		uint8_t a = cases[k].swz[3] == '1' ? 255 : 0;
		cr_expect(l[0] == 0 && l[3] == a, "%s left: %u %u", cases[k].swz, l[0], l[3]);
		ulp_image_free(img);
	}
}

Test(tex, mip_levels_through_the_replay, .timeout = 60)
{
	/* an 8x8 red texture with a 4x4 green and 2x2 blue level, minified: the
	 * 8x8 screen quad maps s 0..1 over 8 pixels -> 1 texel per pixel -> LOD 0;
	 * lod_bias 1.2 -> level 1 (green), 2 -> level 2 (blue) */
	const char *res = ",\"t\": {\"type\": \"texture\", \"format\": \"RGBA8888\", \"width\": 8, \"height\": 8,"
	                  " \"fill\": [1, 0, 0, 1], \"levels\": [{\"fill\": [0, 1, 0, 1]}, {\"fill\": [0, 0, 1, 1]}]}";
	const char *fs = "FRAG\\nDCL IN[0], GENERIC[0], PERSPECTIVE\\nDCL OUT[0], COLOR\\nDCL SAMP[0]\\n"
	                 "DCL SVIEW[0], 2D, FLOAT\\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\\n  1: END\\n";
	static const struct {
		const char *bias, *mip;
		uint8_t want[3];
	} cases[] = {
		{ "0", "nearest", { 255, 0, 0 } },
		{ "1.2", "nearest", { 0, 255, 0 } },
		{ "2", "nearest", { 0, 0, 255 } },
		{ "2", "none", { 255, 0, 0 } },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char cmds[512];
		snprintf(cmds, sizeof cmds,
		         "{\"cmd\": \"sampler_view\", \"index\": 0, \"resource\": \"t\"},\n"
		         "{\"cmd\": \"sampler\", \"index\": 0, \"filter\": \"nearest\", \"mip_filter\": \"%s\", "
		         "\"lod_bias\": %s},", cases[k].mip, cases[k].bias);
		ulp_image *img = run_quad("RGBA8888", res, fs, cmds, true);
		const uint8_t *p = ulp_image_cpx(img, 4, 4);
		cr_expect(!memcmp(p, cases[k].want, 3), "bias %s mip %s: %u %u %u", cases[k].bias, cases[k].mip,
		          p[0], p[1], p[2]);
		ulp_image_free(img);
	}
}

/* ---- the trace format's texture rules ---- */

static void bad_trace(const char *resources, const char *cmds, const char *want)
{
	char json[4096];
	snprintf(json, sizeof json,
	         "{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": {%s}, \"commands\": [%s]}",
	         resources, cmds);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = trace_parse(&t, json, "bad.json", ".", &d);
	trace_free(&t);                /* frees what a refused parse left, too */
	cr_expect_not(ok, "accepted: %s", resources);
	cr_expect(strstr(d.msg, want), "'%s' not in '%s'", want, d.msg);
}

Test(tex, trace_texture_rules)
{
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"D24\", \"width\": 1, \"height\": 1, \"u8\": [0]}", "",
	          "$.resources.t.format: expected one of");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"target\": \"3D\", \"width\": 1, \"height\": 1, "
	          "\"u8\": [0]}", "", "$.resources.t.target: 3-D textures are not modelled");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"target\": \"1D\", \"width\": 4, \"height\": 2, "
	          "\"fill\": [0, 0, 0, 0]}", "", "$.resources.t.height: a 1D texture has height 1");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 2, \"height\": 2, \"u16\": [0, 0, 0, 0]}",
	          "", "$.resources.t.u16: u16 texels are for the 16-bit formats");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 4, \"height\": 4, \"u8\": ["
	          "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], \"levels\": [{\"u8\": [0, 0, 0]}]}", "",
	          "$.resources.t.levels[0].u8: expected width * height * bytes-per-texel = 4 bytes");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 2, \"height\": 2, \"fill\": [0,0,0,0], "
	          "\"levels\": [{\"fill\": [0,0,0,0]}, {\"fill\": [0,0,0,0]}]}", "",
	          "$.resources.t.levels: expected an array of 1 to 1 level objects");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 2, \"height\": 2, \"fill\": [0,0,0,0], "
	          "\"levels\": [{\"fill\": [0,0,0,0], \"lod\": 1}]}", "", "$.resources.t.levels[0].lod: unknown field");
	bad_trace("", "{\"cmd\": \"sampler\", \"index\": 0, \"compare_func\": \"lessequal\"}",
	          "$.commands[0].compare_func: expected one of");
	bad_trace("", "{\"cmd\": \"sampler\", \"index\": 0, \"mip_filter\": \"cubic\"}",
	          "$.commands[0].mip_filter: expected one of none, nearest, linear");
	bad_trace("", "{\"cmd\": \"sampler\", \"index\": 0, \"lod_bias\": 40}", "$.commands[0].lod_bias");
	bad_trace("\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 1, \"height\": 1, \"u8\": [0]}",
	          "{\"cmd\": \"sampler_view\", \"index\": 0, \"resource\": \"t\", \"swizzle\": \"rgbx\"}",
	          "$.commands[0].swizzle: expected 4 of r, g, b, a, 0, 1");
	bad_trace("", "{\"cmd\": \"framebuffer\", \"width\": 4, \"height\": 4, \"cbufs\": [{\"format\": \"D16\"}]}",
	          "$.commands[0].cbufs[0].format: expected one of RGBA8888, BGRA8888, RGB565, A8");

	/* a good one: D16 with two levels, byte layout little-endian */
	const char *good = "{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": {\"t\": {\"type\": \"texture\","
	                   " \"format\": \"D16\", \"width\": 2, \"height\": 1, \"u16\": [258, 65535],"
	                   " \"levels\": [{\"fill\": [0.5, 0, 0, 0]}]}}, \"commands\": []}";
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, good, "good.json", ".", &d), "%s", d.msg);
	const trace_resource *r = trace_find_resource(&t, "t");
	cr_assert(r && r->nlevels == 2 && r->len == 6);
	cr_expect(r->bytes[0] == 2 && r->bytes[1] == 1 && r->bytes[3] == 0xFF);
	cr_expect_eq(r->level_off[1], 4u);
	/* fill 0.5 keeps 16 bits: 32768 = 0x8000 */
	cr_expect(r->bytes[4] == 0x00 && r->bytes[5] == 0x80, "%02x %02x", r->bytes[4], r->bytes[5]);
	trace_free(&t);
}

/* ---- bilinear against its definition ---- */

static int wrap_ref(int i, int n, unsigned mode)
{
	if (mode == GR3D_WRAP_CLAMP)
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	if (mode == GR3D_WRAP_MIRROR) {
		int m = ((i % (2 * n)) + 2 * n) % (2 * n);
		return m < n ? m : 2 * n - 1 - m;
	}
	return ((i % n) + n) % n;
}

/* tex_sample's bilinear fetch (tex.c fetch_view: each row and column
 * wrapped once, two channels to a vector) against the plain definition:
 * the four texels (read one by one through the nearest fetch at their
 * centres) weighted per channel as (1 - fv)((1 - fu)a + fu b) + fv((1 - fu)c + fu d),
 * rounded to nearest, on power-of-two and other sizes, every wrap pair and
 * every colour format, at random coordinates inside and outside [0, 1]. */
Test(tex, bilinear_matches_its_definition)
{
	static const uint32_t sizes[][2] = { { 8, 8 }, { 5, 3 }, { 1, 4 }, { 16, 2 } };
	static const uint8_t fmts[] = { GR3D_TEX_RGBA8888, GR3D_TEX_BGRA8888, GR3D_TEX_A8, GR3D_TEX_L8,
	                                GR3D_TEX_RGB565 };
	uint64_t x = 0x853C49E6748FEA9Bu;
	for (unsigned z = 0; z < 4; z++) {
		const int w = (int)sizes[z][0], h = (int)sizes[z][1];
		uint8_t (*px)[4] = malloc((size_t)w * (size_t)h * 4u);
		cr_assert(px);
		for (int k = 0; k < w * h; k++)
			for (unsigned c = 0; c < 4; c++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				px[k][c] = (uint8_t)(x >> 24);
			}
		ulp_image *img = tex_image((uint32_t)w, (uint32_t)h, (const uint8_t (*)[4])px, NULL);
		for (unsigned f = 0; f < sizeof fmts; f++)
			for (unsigned ws = 0; ws < 3; ws++)
				for (unsigned wt = 0; wt < 3; wt++) {
					gr3d_sampler lin = { .img = img, .format = fmts[f], .bilinear = true, .wrap = (uint8_t)ws,
					                     .wrap_t_own = true, .wrap_t = (uint8_t)wt };
					gr3d_sampler near = lin;
					near.bilinear = false;
					for (unsigned trial = 0; trial < 200; trial++) {
						x ^= x << 13, x ^= x >> 7, x ^= x << 17;
						const double s = (double)(x >> 40) / 0x1p24 * 3.0 - 1.0;
						const double t = (double)((x >> 16) & 0xFFFFFF) / 0x1p24 * 3.0 - 1.0;
						const double u = s * w - 0.5, v = t * h - 0.5;
						const int x0 = (int)floor(u), y0 = (int)floor(v);
						const double fu = u - x0, fv = v - y0;
						uint32_t tx[4][4];
						for (unsigned k = 0; k < 4; k++) {
							const int cx = wrap_ref(x0 + (int)(k & 1u), w, ws);
							const int cy = wrap_ref(y0 + (int)(k >> 1), h, wt);
							tex_sample(&near, 0, (cx + 0.5) / w, (cy + 0.5) / h, tx[k]);
						}
						uint32_t got[4];
						cr_assert_eq(tex_sample(&lin, 0, s, t, got), 4u);
						for (unsigned c = 0; c < 4; c++) {
							const double r = (1 - fv) * ((1 - fu) * tx[0][c] + fu * tx[1][c]) +
							                 fv * ((1 - fu) * tx[2][c] + fu * tx[3][c]);
							const uint32_t want = (uint32_t)(r + 0.5);
							if (got[c] != want)
								cr_assert_fail("%dx%d format %u wrap %u/%u at (%a, %a): channel %u is %u, want %u",
								               w, h, fmts[f], ws, wt, s, t, c, got[c], want);
						}
					}
				}
		ulp_image_free(img);
		free(px);
	}
}
