/* Blending the Tegra way, end to end: a fragment shader lowered with the
 * blend state (tgsi_blend_lower), compiled for the GR3D (FBFETCH becomes
 * PSEQ's destination fetch 0x0081000A) and drawn by the clocked units over a
 * render target of random pixels, against the reference interpreter run with
 * each pixel's destination colour. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi_blend.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "isa/fp20.h"
#include "isa/fx10.h"
#include "isa/tegra/tegra_prog.h"
#include "sim/core/config.h"
#include "units/gpu.h"

enum { W = 8, H = 8 };

static const char SHADER[] =
	"FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

static uint32_t next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* The byte DW stores for a value the interpreter computes. */
static uint8_t ref_byte(float v)
{
	double c = isnan(v) ? 0.0 : v < 0.0f ? 0.0 : v > 1.0f ? 1.0 : (double)v;
	return fx10_to_unorm8(fx10_encode(c, ULP_ROUND_NEAREST_AWAY));
}

/* Largest byte difference between the GR3D and the interpreter for one
 * blend state; the program text in *asm_out (malloc'd) when asked. */
static int blend_case(const tgsi_blend_state *b, uint32_t seed, char **asm_out)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(SHADER, strlen(SHADER), "blend.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	tgsi_shader *bl = tgsi_blend_lower(sh, b, "blend.tgsi", &d);
	cr_assert(bl, "%s", d.msg);
	tegra_compile_result *tr = calloc(1, sizeof *tr);
	tegra_fp_decoded *dec = calloc(1, sizeof *dec);
	cr_assert(tr && dec);
	cr_assert(tegra_compile(bl, "blend.tgsi", tr), "compile: %s", tr->d.msg);
	cr_assert(tegra_fp_decode(&tr->prog, dec, "blend", &d), "%s", d.msg);
	if (asm_out)
		*asm_out = strdup(tr->asm_text);
	/* a constant source colour, a random destination per pixel */
	float src[4];
	for (int c = 0; c < 4; c++)
		src[c] = fp20_decode(fp20_encode((float)(next(&seed) % 1001) / 1000.0f, ULP_ROUND_NEAREST_EVEN));
	ulp_image *rt = ulp_image_create(W, H, &d);
	cr_assert(rt);
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			for (int c = 0; c < 4; c++)
				ulp_image_px(rt, x, y)[c] = (uint8_t)(next(&seed) & 0xFF);
	ulp_image *before = ulp_image_clone(rt, &d);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &cfg;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)   /* the program's own constants, as loaded */
		dr.uniforms[k] = dec->constants[k] & FP20_MASK;
	static const double P[4][2] = { { 0, 0 }, { W, 0 }, { 0, H }, { W, H } };
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	for (unsigned i = 0; i < 4; i++) {
		v[i].x = P[i][0];
		v[i].y = P[i][1];
		v[i].w = 1.0;
		for (unsigned c = 0; c < 4; c++)
			v[i].tram[0][c] = fp20_encode(src[c], ULP_ROUND_NEAREST_EVEN) & FP20_MASK;
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 3, 2 };
	dr.vtx = v;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	dr.rt[1] = rt;
	gr3d_stats st;
	cr_assert(gr3d_fp_draw(&dr, &st, &d), "draw: %s", d.msg);
	int worst = 0;
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			tgsi_exec_machine m;
			cr_assert(tgsi_exec_init(&m, bl, "blend.tgsi", &d), "%s", d.msg);
			uint32_t *in = tgsi_exec_reg(&m, TGSI_FILE_INPUT, 0, 0);
			cr_assert(in);
			memcpy(in, src, sizeof src);
			for (int c = 0; c < 4; c++)   /* the destination as the units see it */
				m.fb_color[c] = (float)fx10_decode(unorm8_to_fx10(ulp_image_cpx(before, x, y)[c]));
			cr_assert(tgsi_exec_run(&m, &d), "%s", d.msg);
			const uint32_t *o = tgsi_exec_reg(&m, TGSI_FILE_OUTPUT, 0, 0);
			for (int c = 0; c < 4; c++) {
				float f;
				memcpy(&f, &o[c], 4);
				int diff = abs((int)ref_byte(f) - (int)ulp_image_cpx(rt, x, y)[c]);
				worst = diff > worst ? diff : worst;
			}
			tgsi_exec_fini(&m);
		}
	ulp_image_free(before);
	ulp_image_free(rt);
	tegra_compile_result_free(tr);
	free(tr);
	free(dec);
	tgsi_shader_free(bl);
	tgsi_shader_free(sh);
	return worst;
}

/* Every function with common factor pairs, on the five clocked units.
 * Tolerance 1/255: the GR3D blends with FP20 arithmetic on FX10 inputs and
 * stores FX10, the reference computes in f32. */
Test(tegra_blend, functions_and_factors_match_the_interpreter, .timeout = 60)
{
	static const uint8_t pairs[][2] = {
		{ TGSI_BLEND_SRC_ALPHA, TGSI_BLEND_INV_SRC_ALPHA }, { TGSI_BLEND_ONE, TGSI_BLEND_ONE },
		{ TGSI_BLEND_ONE, TGSI_BLEND_INV_SRC_ALPHA }, { TGSI_BLEND_DST_COLOR, TGSI_BLEND_ZERO },
		{ TGSI_BLEND_INV_DST_ALPHA, TGSI_BLEND_DST_ALPHA }, { TGSI_BLEND_ZERO, TGSI_BLEND_SRC_COLOR },
		{ TGSI_BLEND_SRC_ALPHA_SATURATE, TGSI_BLEND_ONE }, { TGSI_BLEND_CONST_COLOR, TGSI_BLEND_INV_CONST_ALPHA },
	};
	unsigned n = 0;
	for (unsigned f = 0; f < TGSI_BLEND_FUNC_COUNT; f++)
		for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
			tgsi_blend_state b = { .enable = true, .rgb_func = (uint8_t)f, .alpha_func = (uint8_t)f,
			                       .rgb_src = pairs[p][0], .rgb_dst = pairs[p][1],
			                       .alpha_src = TGSI_BLEND_ONE, .alpha_dst = TGSI_BLEND_INV_SRC_ALPHA,
			                       .colormask = 15, .color = { 0.25f, 0.5f, 0.75f, 0.5f } };
			int worst = blend_case(&b, 1000u + 17u * n, NULL);
			cr_expect_leq(worst, 1, "%s %s/%s: %d/255 off", tgsi_blend_func_name(f),
			              tgsi_blend_factor_name(pairs[p][0]), tgsi_blend_factor_name(pairs[p][1]), worst);
			n++;
		}
	cr_assert_eq(n, 40u);
}

Test(tegra_blend, the_program_fetches_the_destination_in_pseq)
{
	tgsi_blend_state over = { .enable = true, .rgb_src = TGSI_BLEND_SRC_ALPHA,
	                          .rgb_dst = TGSI_BLEND_INV_SRC_ALPHA, .alpha_src = TGSI_BLEND_ONE,
	                          .alpha_dst = TGSI_BLEND_INV_SRC_ALPHA, .colormask = 15 };
	char *text = NULL;
	int worst = blend_case(&over, 7u, &text);
	cr_assert_leq(worst, 1);
	cr_assert(text && strstr(text, "PSEQ:\t0x0081000A"), "%s", text ? text : "");
	free(text);
	/* a colour mask alone: the masked channels keep the destination exactly */
	tgsi_blend_state mask = { .enable = false, .colormask = TGSI_WRITEMASK_X | TGSI_WRITEMASK_W };
	cr_assert_leq(blend_case(&mask, 9u, NULL), 1);
}

#include "ulpsim/ulpsim.h"

/* The pixel (x, y) (top row first) of a sample replayed through the API. */
static void sample_pixel(const char *trace, uint32_t x, uint32_t y, uint8_t out[4], uint32_t *w)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open(trace, NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 1000, err, sizeof err), "%s: %s", trace, err);
	uint32_t h;
	const uint8_t *img = ulpsim_image(s, w, &h);
	cr_assert(img && x < *w && y < h);
	memcpy(out, img + 4 * ((size_t)y * *w + x), 4);
	ulpsim_close(s);
}

static void expect_near(const uint8_t got[4], const int want[4], const char *what)
{
	for (int c = 0; c < 4; c++)
		cr_expect(abs(got[c] - want[c]) <= 2, "%s: channel %d is %d, want %d", what, c, got[c], want[c]);
}

/* traces/samples/alpha_blend.json: red glass (alpha 0.5) over the clear
 * colour (0.05, 0.05, 0.15) and over the opaque white triangle. */
Test(tegra_blend, alpha_blend_sample)
{
	uint8_t px[4];
	uint32_t w;
	sample_pixel("traces/samples/alpha_blend.json", 28, 33, px, &w);
	cr_assert_eq(w, 96u);
	expect_near(px, (const int[4]){ 134, 6, 19, 255 }, "red over the background");
	sample_pixel("traces/samples/alpha_blend.json", 38, 33, px, &w);
	expect_near(px, (const int[4]){ 255, 128, 128, 255 }, "red over white");
	sample_pixel("traces/samples/alpha_blend.json", 2, 2, px, &w);
	expect_near(px, (const int[4]){ 13, 13, 38, 255 }, "the background");
}

/* traces/samples/discard.json: the disc survives, the quad's corners are
 * discarded (the clear colour stays). */
Test(tegra_blend, discard_sample)
{
	uint8_t px[4];
	uint32_t w;
	sample_pixel("traces/samples/discard.json", 2, 2, px, &w);
	expect_near(px, (const int[4]){ 26, 26, 26, 255 }, "a discarded corner");
	sample_pixel("traces/samples/discard.json", 32, 32, px, &w);   /* on the green-blue diagonal */
	expect_near(px, (const int[4]){ 0, 128, 128, 255 }, "the disc's centre");
	sample_pixel("traces/samples/discard.json", 61, 61, px, &w);
	expect_near(px, (const int[4]){ 26, 26, 26, 255 }, "another corner");
}
