/* Gallium state as session commands and the driver's shaders (traces/gl/gl_state.h). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
