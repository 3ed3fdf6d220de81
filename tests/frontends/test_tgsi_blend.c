/* Blending written into the fragment shader (frontends/tgsi/tgsi_blend.h):
 * the lowered shader, run on the reference interpreter with a destination
 * pixel, gives the GL blend equation's result for every function and factor;
 * it prints and re-parses; RET in the main body and subroutines keep working;
 * bad input is refused. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"
#include "frontends/tgsi/tgsi_blend.h"
#include "frontends/tgsi/tgsi_exec.h"

static const char PASS_COLOR[] =
	"FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
	"  0: MOV TEMP[0], IN[0]\n  1: MOV OUT[0], TEMP[0]\n  2: END\n";

static tgsi_shader *parse(const char *text)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "blend.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	return sh;
}

/* Runs sh with IN[0] = src and the destination dst; returns OUT[0]. */
static void run(tgsi_shader *sh, const float src[4], const float dst[4], float out[4])
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_exec_machine m;
	cr_assert(tgsi_exec_init(&m, sh, "blend.tgsi", &d), "%s", d.msg);
	uint32_t *in = tgsi_exec_reg(&m, TGSI_FILE_INPUT, 0, 0);
	cr_assert(in);
	memcpy(in, src, 4 * sizeof *src);
	memcpy(m.fb_color, dst, sizeof m.fb_color);
	cr_assert(tgsi_exec_run(&m, &d), "%s", d.msg);
	uint32_t *o = tgsi_exec_reg(&m, TGSI_FILE_OUTPUT, 0, 0);
	cr_assert(o);
	memcpy(out, o, 4 * sizeof *out);
	tgsi_exec_fini(&m);
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* The GL blend factor for channel c (3 = alpha). */
static double factor(unsigned f, int c, const double s[4], const double d[4], const float k[4])
{
	switch (f) {
	case TGSI_BLEND_ZERO: return 0;
	case TGSI_BLEND_ONE: return 1;
	case TGSI_BLEND_SRC_COLOR: return s[c];
	case TGSI_BLEND_INV_SRC_COLOR: return 1 - s[c];
	case TGSI_BLEND_SRC_ALPHA: return s[3];
	case TGSI_BLEND_INV_SRC_ALPHA: return 1 - s[3];
	case TGSI_BLEND_DST_COLOR: return d[c];
	case TGSI_BLEND_INV_DST_COLOR: return 1 - d[c];
	case TGSI_BLEND_DST_ALPHA: return d[3];
	case TGSI_BLEND_INV_DST_ALPHA: return 1 - d[3];
	case TGSI_BLEND_SRC_ALPHA_SATURATE: return c == 3 ? 1 : fmin(s[3], 1 - d[3]);
	case TGSI_BLEND_CONST_COLOR: return k[c];
	case TGSI_BLEND_INV_CONST_COLOR: return 1 - k[c];
	case TGSI_BLEND_CONST_ALPHA: return k[3];
	default: return 1 - k[3];
	}
}

static double expected(const tgsi_blend_state *b, int c, const float src[4], const float dst[4])
{
	double s[4], d[4];
	for (int k = 0; k < 4; k++) {
		s[k] = clamp01(src[k]);
		d[k] = dst[k];
	}
	if (!(b->colormask & (1u << c)))
		return d[c];
	if (!b->enable)
		return src[c];
	unsigned func = c == 3 ? b->alpha_func : b->rgb_func;
	unsigned fs = c == 3 ? b->alpha_src : b->rgb_src, fd = c == 3 ? b->alpha_dst : b->rgb_dst;
	double a = s[c] * factor(fs, c, s, d, b->color), e = d[c] * factor(fd, c, s, d, b->color);
	switch (func) {
	case TGSI_BLEND_ADD: return clamp01(a + e);
	case TGSI_BLEND_SUBTRACT: return clamp01(a - e);
	case TGSI_BLEND_REVERSE_SUBTRACT: return clamp01(e - a);
	case TGSI_BLEND_MIN: return fmin(s[c], d[c]);
	default: return fmax(s[c], d[c]);
	}
}

static void check_state(const tgsi_blend_state *b, const char *what)
{
	tgsi_shader *sh = parse(PASS_COLOR);
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *bl = tgsi_blend_lower(sh, b, "blend.tgsi", &d);
	cr_assert(bl, "%s: %s", what, d.msg);
	static const float srcs[][4] = { { 0.2f, 0.5f, 0.9f, 0.6f }, { 1.3f, -0.2f, 0.5f, 0.25f },
	                                 { 0, 0, 0, 0 }, { 1, 1, 1, 1 } };
	static const float dsts[][4] = { { 0.7f, 0.1f, 0.4f, 0.3f }, { 1, 1, 1, 1 }, { 0, 0.5f, 1, 0 } };
	for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++)
		for (size_t j = 0; j < sizeof dsts / sizeof dsts[0]; j++) {
			float out[4];
			run(bl, srcs[i], dsts[j], out);
			for (int c = 0; c < 4; c++) {
				double want = expected(b, c, srcs[i], dsts[j]);
				cr_assert(fabs(out[c] - want) < 1e-6, "%s: src %zu dst %zu channel %d: got %g, want %g",
				          what, i, j, c, out[c], want);
			}
		}
	/* the lowered shader prints and parses back to the same text */
	char *text = tgsi_dump_str(bl, TGSI_DUMP_FLOATS_AS_WRITTEN, NULL);
	cr_assert(text);
	tgsi_shader *again = parse(text);
	char *text2 = tgsi_dump_str(again, TGSI_DUMP_FLOATS_AS_WRITTEN, NULL);
	cr_assert_str_eq(text, text2, "%s", what);
	cr_assert(strstr(text, "FBFETCH") || (b->colormask == 15 && !b->enable), "%s:\n%s", what, text);
	free(text);
	free(text2);
	tgsi_shader_free(again);
	tgsi_shader_free(bl);
	tgsi_shader_free(sh);
}

Test(tgsi_blend, every_factor_and_function_matches_the_gl_equation)
{
	unsigned n = 0;
	for (unsigned func = 0; func < TGSI_BLEND_FUNC_COUNT; func++)
		for (unsigned fs = 0; fs < TGSI_BLEND_FACTOR_COUNT; fs++)
			for (unsigned fd = 0; fd < TGSI_BLEND_FACTOR_COUNT; fd += 3) {
				tgsi_blend_state b = { .enable = true, .rgb_func = (uint8_t)func,
				                       .alpha_func = (uint8_t)((func + 1) % TGSI_BLEND_FUNC_COUNT),
				                       .rgb_src = (uint8_t)fs, .rgb_dst = (uint8_t)fd,
				                       .alpha_src = (uint8_t)fd, .alpha_dst = (uint8_t)fs,
				                       .colormask = 15, .color = { 0.25f, 0.5f, 0.75f, 0.125f } };
				char what[96];
				snprintf(what, sizeof what, "%s %s/%s", tgsi_blend_func_name(func),
				         tgsi_blend_factor_name(fs), tgsi_blend_factor_name(fd));
				check_state(&b, what);
				/* the same factors for colour and alpha (one set of instructions) */
				b.alpha_func = b.rgb_func;
				b.alpha_src = b.rgb_src;
				b.alpha_dst = b.rgb_dst;
				check_state(&b, what);
				n += 2;
			}
	cr_assert_eq(n, 5u * 15u * 5u * 2u);
}

Test(tgsi_blend, colour_mask_and_blending_off)
{
	tgsi_blend_state over = { .enable = true, .rgb_src = TGSI_BLEND_SRC_ALPHA,
	                          .rgb_dst = TGSI_BLEND_INV_SRC_ALPHA, .alpha_src = TGSI_BLEND_ONE,
	                          .alpha_dst = TGSI_BLEND_INV_SRC_ALPHA, .colormask = 5 };
	check_state(&over, "over, mask xz");
	tgsi_blend_state off = { .enable = false, .colormask = 8 };
	check_state(&off, "off, mask w");
	off.colormask = 0;
	check_state(&off, "off, mask none");
	off.colormask = 15;
	cr_assert(tgsi_blend_is_noop(&off));
	check_state(&off, "off");
	cr_assert(!tgsi_blend_is_noop(&over));
}

Test(tgsi_blend, ret_in_the_main_body_and_subroutines)
{
	/* the colour is written before an early RET and in a subroutine */
	static const char text[] =
		"FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nIMM[0] FLT32 {    0.5000,     0.0000,     0.0000,     0.0000}\n"
		"  0: CAL :6\n  1: IF IN[0].xxxx :4\n  2:   MOV OUT[0], IN[0]\n  3:   RET\n  4: ENDIF\n"
		"  5: END\n  6: BGNSUB\n  7:   MOV OUT[0], IMM[0].xxxx\n  8:   RET\n  9: ENDSUB\n";
	tgsi_shader *sh = parse(text);
	tgsi_blend_state add = { .enable = true, .rgb_src = TGSI_BLEND_ONE, .rgb_dst = TGSI_BLEND_ONE,
	                         .alpha_src = TGSI_BLEND_ONE, .alpha_dst = TGSI_BLEND_ONE, .colormask = 15 };
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *bl = tgsi_blend_lower(sh, &add, "ret.tgsi", &d);
	cr_assert(bl, "%s", d.msg);
	const float dst[4] = { 0.25f, 0.25f, 0.25f, 0.25f };
	const float taken[4] = { 0.5f, 0.125f, 0, 1 }, not_taken[4] = { 0, 0.5f, 0.5f, 0.5f };
	float out[4];
	run(bl, taken, dst, out);             /* IN.x != 0: OUT = IN, then RET: blended */
	cr_assert(fabsf(out[0] - 0.75f) < 1e-6f && fabsf(out[1] - 0.375f) < 1e-6f && out[3] == 1.0f,
	          "(%g %g %g %g)", out[0], out[1], out[2], out[3]);
	run(bl, not_taken, dst, out);         /* OUT = 0.5 from the subroutine, then END */
	for (int c = 0; c < 4; c++)
		cr_assert(fabsf(out[c] - 0.75f) < 1e-6f, "channel %d: %g", c, out[c]);
	tgsi_shader_free(bl);
	tgsi_shader_free(sh);
}

Test(tgsi_blend, refusals_and_names)
{
	tgsi_blend_state b = { .enable = true, .rgb_src = TGSI_BLEND_ONE, .colormask = 15 };
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *vs = parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n");
	cr_assert_null(tgsi_blend_lower(vs, &b, "vs.tgsi", &d));
	cr_assert(strstr(d.msg, "fragment shader"), "%s", d.msg);
	tgsi_shader_free(vs);
	ulp_diag_clear(&d);
	tgsi_shader *ind = parse("FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nDCL ADDR[0]\n"
	                         "  0: ARL ADDR[0].x, IN[0].xxxx\n  1: MOV OUT[ADDR[0].x], IN[0]\n  2: END\n");
	cr_assert_null(tgsi_blend_lower(ind, &b, "ind.tgsi", &d));
	cr_assert(!strcmp(d.file, "ind.tgsi") && d.line == 6 && strstr(d.msg, "indirectly"), "%s:%d: %s",
	          d.file, d.line, d.msg);
	tgsi_shader_free(ind);
	/* no colour output: copied unchanged */
	tgsi_shader *nocol = parse("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n  0: KILL_IF IN[0]\n  1: END\n");
	tgsi_shader *copy = tgsi_blend_lower(nocol, &b, "nocol.tgsi", &d);
	cr_assert(copy);
	char *a = tgsi_dump_str(nocol, TGSI_DUMP_FLOATS_AS_WRITTEN, NULL), *c = tgsi_dump_str(copy, TGSI_DUMP_FLOATS_AS_WRITTEN, NULL);
	cr_assert_str_eq(a, c);
	free(a);
	free(c);
	tgsi_shader_free(copy);
	tgsi_shader_free(nocol);
	for (unsigned k = 0; k < TGSI_BLEND_FACTOR_COUNT; k++)
		cr_assert_eq(tgsi_blend_factor_from_name(tgsi_blend_factor_name(k)), k);
	for (unsigned k = 0; k < TGSI_BLEND_FUNC_COUNT; k++)
		cr_assert_eq(tgsi_blend_func_from_name(tgsi_blend_func_name(k)), k);
	cr_assert_eq(tgsi_blend_factor_from_name("one_minus_src"), TGSI_BLEND_FACTOR_COUNT);
	cr_assert_null(tgsi_blend_factor_name(TGSI_BLEND_FACTOR_COUNT));
}
