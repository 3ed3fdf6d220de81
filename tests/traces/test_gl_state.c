/* Gallium state as session commands and the driver's shaders (traces/gl/gl_state.h). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_compile.h"
#include "traces/gl/gl_state.h"
#include "traces/gl/gl_tables.h"

static const char *str(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static double num(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

Test(gl_state, blend_names_masks_and_clamps)
{
	const ulp_gl_blend b = { .enable = true, .rgb_func = ULP_GL_BLEND_REVERSE_SUBTRACT,
		.alpha_func = ULP_GL_BLEND_MAX, .rgb_src = ULP_GL_BLENDFACTOR_SRC_ALPHA,
		.rgb_dst = ULP_GL_BLENDFACTOR_INV_SRC_ALPHA, .alpha_src = 99, .alpha_dst = ULP_GL_BLENDFACTOR_ONE,
		.colormask = 0x1F, .color = { -1.0f, 0.25f, 2.0f, 1.0f } };
	cJSON *c = ulp_gl_blend_cmd(&b);
	cr_assert_str_eq(str(c, "cmd"), "blend");
	cr_assert_str_eq(str(c, "rgb_func"), "reverse_subtract");
	cr_assert_str_eq(str(c, "alpha_func"), "max");
	cr_assert_str_eq(str(c, "rgb_src"), "src_alpha");
	cr_assert_str_eq(str(c, "rgb_dst"), "inv_src_alpha");
	cr_assert_str_eq(str(c, "alpha_src"), "zero", "a factor out of range");
	cr_assert_eq(num(c, "colormask"), 15);
	const cJSON *col = cJSON_GetObjectItemCaseSensitive(c, "color");
	cr_assert_eq(cJSON_GetArrayItem(col, 0)->valuedouble, 0.0);
	cr_assert_eq(cJSON_GetArrayItem(col, 1)->valuedouble, 0.25);
	cr_assert_eq(cJSON_GetArrayItem(col, 2)->valuedouble, 1.0);
	cJSON_Delete(c);
}

Test(gl_state, depth_stencil_without_a_depth_buffer_pass)
{
	ulp_gl_dsa s = { .depth_enabled = true, .depth_writemask = true, .depth_func = 1 };
	s.stencil[0] = (ulp_gl_stencil){ .enabled = true, .func = 2, .ref = 0x1FF, .valuemask = 255, .writemask = 15,
		.fail_op = 5, .zfail_op = 6, .zpass_op = 7 };
	cJSON *c = ulp_gl_dsa_cmd(&s, false);
	const cJSON *dep = cJSON_GetObjectItemCaseSensitive(c, "depth");
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(dep, "enabled")), "no depth buffer: no test");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(c, "stencil"));
	cJSON_Delete(c);
	c = ulp_gl_dsa_cmd(&s, true);
	dep = cJSON_GetObjectItemCaseSensitive(c, "depth");
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(dep, "enabled")));
	cr_assert_str_eq(str(dep, "func"), "less");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "stencil");
	cr_assert_str_eq(str(st, "func"), "equal");
	cr_assert_eq(num(st, "ref"), 255, "ref is 8 bits");
	cr_assert_str_eq(str(st, "fail_op"), "incr", "INCR_WRAP saturates");
	cr_assert_str_eq(str(st, "zfail_op"), "decr");
	cr_assert_str_eq(str(st, "zpass_op"), "invert");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(c, "stencil_back"), "back stencil disabled");
	cJSON_Delete(c);
}

Test(gl_state, rasterizer_winding_flips_and_wide_prims_are_not_culled)
{
	const ulp_gl_rast r = { .cull_face = 2, .front_ccw = true, .clip_plane_enable = 0x1FF };
	cJSON *c = ulp_gl_rast_cmd(&r, false);
	cr_assert_str_eq(str(c, "cull"), "back");
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "front_ccw")), "Gallium's y-down order flips");
	cr_assert_eq(num(c, "clip_plane_enable"), 255);
	cJSON_Delete(c);
	c = ulp_gl_rast_cmd(&r, true);
	cr_assert_str_eq(str(c, "cull"), "none");
	cJSON_Delete(c);
}

Test(gl_state, sampler_wraps_compare_and_lod)
{
	const ulp_gl_sampler s = { .min_filter = ULP_GL_TEX_FILTER_LINEAR, .mip_filter = 5,
		.wrap_s = ULP_GL_TEX_WRAP_MIRROR_REPEAT, .wrap_t = ULP_GL_TEX_WRAP_CLAMP_TO_EDGE, .compare = true,
		.compare_func = ULP_GL_FUNC_LEQUAL, .lod_bias = 100.0f };
	cJSON *c = ulp_gl_sampler_cmd(2, &s);
	cr_assert_eq(num(c, "index"), 2);
	cr_assert_str_eq(str(c, "min_filter"), "linear");
	cr_assert_str_eq(str(c, "mag_filter"), "nearest");
	cr_assert_str_eq(str(c, "mip_filter"), "none");
	cr_assert_str_eq(str(c, "wrap_s"), "mirror");
	cr_assert_str_eq(str(c, "wrap_t"), "clamp");
	cr_assert_str_eq(str(c, "compare_func"), "lequal");
	cr_assert_eq(num(c, "lod_bias"), 16.0);
	cJSON_Delete(c);
}

Test(gl_state, shaders_as_the_driver_adds_them)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o;
	memset(&o, 0, sizeof o);
	o.cfg = &cfg;
	replay_result res;
	memset(&res, 0, sizeof res);
	ulp_diag d;
	ulp_diag_clear(&d);
	replay_session_units u = { .lazy = true };
	replay_session *s = replay_session_open(&o, &u, "gl", ".", &res, &d);
	cr_assert(s, "%s", d.msg);
	static const char VS[] = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL CONST[0][0..3]\n"
	                         "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], CONST[0][3]\n  2: END\n";
	ulp_gl_shader_info in = ulp_gl_shader_create(s, NULL, "vs1", true, VS, &d);
	cr_assert(in.valid, "%s", d.msg);
	cr_assert(in.has_clamped);
	cr_assert_eq(in.nconst, 4);
	uint16_t mask, mapped;
	int16_t sem[16];
	uint32_t index[16];
	cr_assert(replay_session_vs_outputs(s, "vs1c", &mask, &mapped, sem, index, &d), "the variant: %s", d.msg);
	ulp_gl_expand e = { .what = ULP_GL_POINTS };
	cr_assert(replay_session_vs_outputs(s, "vs1", &e.mask, &mapped, e.sem, e.index, &d), "%s", d.msg);
	cr_assert(ulp_gl_wide_gs(s, NULL, &e, "vs1p", &d), "%s", d.msg);
	cr_assert(replay_session_check_shader(s, "vs1p", &d), "the points GS compiles: %s", d.msg);
	in = ulp_gl_shader_create(s, NULL, "fs1", false, "FRAG\nDCL OUT[0], COLOR\n  0: FOO OUT[0]\n  1: END\n", &d);
	cr_assert(!in.valid && strstr(d.msg, "FOO"), "%s", d.msg);
	cr_assert(!in.has_clamped);
	replay_session_close(s);
}

/* A loop whose trip count is a uniform, with seven vec4 live across it
 * (Mesa's TGSI of piglit's glsl-fs-vec4-indexing-temp-src-in-loop): it is
 * unrolled to fewer iterations than the compiler's cap because no more fit
 * the fragment program, which the driver says (a note piglit-gl reads);
 * a shader without loops has no bound. */
Test(gl_state, loop_bound_of_a_fragment_shader)
{
	static const char FS[] =
	"FRAG\n"
	"PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0..1]\n"
	"DCL TEMP[0..13]\n"
	"IMM[0] FLT32 {0x3e4ccccd, 0x00000000, 0x3f800000, 0x40a00000}\n"
	"IMM[1] FLT32 {0x40800000, 0x40000000, 0x3f800000, 0x40400000}\n"
	"IMM[2] FLT32 {0x40c00000, 0x40a00000, 0x40e00000, 0x00000000}\n"
	"  0: MUL TEMP[0], IMM[0].xyyy, CONST[0][0].xxxx\n"
	"  1: MUL TEMP[1], IMM[0].yxyy, CONST[0][0].xxxx\n"
	"  2: MUL TEMP[2], IMM[0].yyxy, CONST[0][0].xxxx\n"
	"  3: MUL TEMP[3], IMM[0].xxyy, CONST[0][0].xxxx\n"
	"  4: MUL TEMP[4], IMM[0].yxxy, CONST[0][0].xxxx\n"
	"  5: MUL TEMP[5], IMM[0].xyxy, CONST[0][0].xxxx\n"
	"  6: MUL TEMP[6], IMM[0].xxxy, CONST[0][0].xxxx\n"
	"  7: MOV TEMP[7].x, IMM[0].yyyy\n"
	"  8: MOV TEMP[8], IMM[0].yyyy\n"
	"  9: BGNLOOP :0\n"
	" 10:   SGE TEMP[9].x, TEMP[7].xxxx, CONST[0][1].xxxx\n"
	" 11:   IF TEMP[9].xxxx :13\n"
	" 12:     BRK\n"
	" 13:   ENDIF\n"
	" 14:   SLT TEMP[9], TEMP[7].xxxx, IMM[1]\n"
	" 15:   CMP TEMP[10], -TEMP[9].zzzz, TEMP[0], TEMP[1]\n"
	" 16:   CMP TEMP[11], -TEMP[9].wwww, TEMP[2], TEMP[3]\n"
	" 17:   CMP TEMP[10], -TEMP[9].yyyy, TEMP[10], TEMP[11]\n"
	" 18:   SLT TEMP[11].xyz, TEMP[7].xxxw, IMM[2].xyzx\n"
	" 19:   CMP TEMP[12], -TEMP[11].yyyy, TEMP[4], TEMP[5]\n"
	" 20:   CMP TEMP[13], -TEMP[11].zzzz, IMM[0].yyyy, TEMP[6]\n"
	" 21:   CMP TEMP[11], -TEMP[11].xxxx, TEMP[12], TEMP[13]\n"
	" 22:   CMP TEMP[9], -TEMP[9].xxxx, TEMP[10], TEMP[11]\n"
	" 23:   ADD TEMP[8], TEMP[8], TEMP[9]\n"
	" 24:   ADD TEMP[7].x, TEMP[7].xxxx, IMM[0].zzzz\n"
	" 25: ENDLOOP :0\n"
	" 26: MOV OUT[0], TEMP[8]\n"
	" 27: END\n"
	;
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o;
	memset(&o, 0, sizeof o);
	o.cfg = &cfg;
	replay_result res;
	memset(&res, 0, sizeof res);
	ulp_diag d;
	ulp_diag_clear(&d);
	replay_session_units u = { .lazy = true };
	replay_session *s = replay_session_open(&o, &u, "gl", ".", &res, &d);
	cr_assert(s, "%s", d.msg);
	ulp_gl_shader_info in = ulp_gl_shader_create(s, NULL, "fs1", false, FS, &d);
	cr_assert(in.valid, "%s", d.msg);
	cr_assert(in.loop_bound >= 1 && in.loop_bound < TEGRA_LOOP_BOUND_MAX, "bound %u", in.loop_bound);
	cr_assert(in.loop_limited);
	in = ulp_gl_shader_create(s, NULL, "fs2", false,
	                          "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x3f800000}\n"
	                          "  0: MOV OUT[0], IMM[0]\n  1: END\n", &d);
	cr_assert(in.valid, "%s", d.msg);
	cr_assert_eq(in.loop_bound, 0);
	cr_assert(!in.loop_limited);
	replay_session_close(s);
}
