/* The Gallium driver's translation tables (traces/gl/gl_tables.h), without
 * Mesa: every format the caps advertise is one the replay models (the
 * session accepts it as a render target, depth buffer, texture or vertex
 * format), and every value of each state enum becomes a name the session's
 * parser accepts, the ones that matter checked by name. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/pica/pica_compile.h"
#include "frontends/tegra/tegra_int.h"
#include "sim/core/config.h"
#include "tests/test_session_fx.h"
#include "traces/gl/gl_tables.h"
#include "traces/replay/session.h"

typedef test_session fx;

static void open_fx(fx *f)
{
	test_session_open(f, "tables");
}

static void close_fx(fx *f)
{
	test_session_close(f, false);
}

/* The session's verdict on a command. */
static bool accepts(fx *f, const char *json)
{
	return test_session_cmd(f, json);
}

Test(gl_tables, every_advertised_format_is_modelled)
{
	fx f;
	open_fx(&f);
	size_t n = 0, rt = 0, zs = 0, tex = 0;
	for (const ulp_gl_format *g; (g = ulp_gl_format_at(n)); n++) {
		cr_assert(ulp_gl_format_named(g->name) == g, "%s found by its name", g->name);
		cr_assert(g->tex >= 0 || g->rt || g->zs, "%s binds as something", g->name);
		char j[256];
		if (g->rt) {
			snprintf(j, sizeof j, "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"%s\"}]}",
			         g->rt);
			cr_assert(accepts(&f, j), "%s as a render target (%s): %s", g->name, g->rt, f.d.msg);
			cr_assert(ulp_gl_format_binds(g, ULP_GL_BIND_RENDER_TARGET));
			rt++;
		} else {
			cr_assert(!ulp_gl_format_binds(g, ULP_GL_BIND_RENDER_TARGET), "%s", g->name);
		}
		if (g->zs) {
			snprintf(j, sizeof j, "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":"
			         "\"RGBA8888\"}],\"zsbuf\":{\"format\":\"%s\"}}", g->zs);
			cr_assert(accepts(&f, j), "%s as a depth buffer (%s): %s", g->name, g->zs, f.d.msg);
			cr_assert(ulp_gl_format_binds(g, ULP_GL_BIND_DEPTH_STENCIL));
			zs++;
		} else {
			cr_assert(!ulp_gl_format_binds(g, ULP_GL_BIND_DEPTH_STENCIL), "%s", g->name);
		}
		if (g->tex >= 0) {
			cr_assert(g->tex <= TRACE_D16, "%s: a trace texture format", g->name);
			const enum trace_texfmt t = (enum trace_texfmt)g->tex;
			uint8_t texels[4 * 4 * 4] = { 0 };
			char id[32];
			snprintf(id, sizeof id, "t%zu", n);
			cr_assert(replay_session_texture(f.s, id, t, TRACE_TEX_2D, 4, 4, 1, texels, 16 * trace_texfmt_bpp(t),
			                                 &f.d), "%s as a texture: %s", g->name, f.d.msg);
			snprintf(j, sizeof j, "{\"cmd\":\"sampler_view\",\"index\":0,\"resource\":\"%s\"}", id);
			cr_assert(accepts(&f, j), "%s: %s", g->name, f.d.msg);
			cr_assert(ulp_gl_format_binds(g, ULP_GL_BIND_SAMPLER_VIEW | 0x4000));
			tex++;
		}
		cr_assert_eq(g->z24_as_d16, g->zs && !strcmp(g->zs, "D24S8"), "%s: the 24-bit depths are sampled as D16",
		             g->name);
		cr_assert(!g->z24_as_d16 || g->tex == TRACE_D16);
	}
	cr_assert(n == 10 && rt == 6 && zs == 3 && tex == 10, "%zu formats: %zu targets, %zu depth, %zu textures", n, rt,
	          zs, tex);
	cr_assert_null(ulp_gl_format_named("R16G16B16A16_FLOAT"), "not modelled");
	cr_assert(!accepts(&f, "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"L8\"}]}"),
	          "the parser refuses a render target it does not model");
	cr_assert_null(ulp_gl_format_named(NULL));
	const ulp_gl_format *x8 = ulp_gl_format_named("B8G8R8X8_UNORM");
	cr_assert(x8 && x8->no_alpha && !strcmp(x8->rt, "BGRA8888"), "X8 stored as its A8 twin");
	close_fx(&f);
}

Test(gl_tables, vertex_formats_are_the_fetchs)
{
	static const char *const V[] = { "R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT", "R32G32B32A32_FLOAT" };
	fx f;
	open_fx(&f);
	static const float B[16];
	cr_assert(replay_session_buffer(f.s, "vb", B, sizeof B, &f.d), "%s", f.d.msg);
	for (int k = 0; k < 4; k++) {
		const char *n = ulp_gl_vertex_format(V[k]);
		cr_assert(n && !strcmp(n, V[k]));
		char j[256];
		snprintf(j, sizeof j, "{\"cmd\":\"vertex_elements\",\"elements\":[{\"buffer\":\"vb\",\"offset\":0,"
		         "\"stride\":16,\"format\":\"%s\"}]}", n);
		cr_assert(accepts(&f, j), "%s: %s", n, f.d.msg);
	}
	cr_assert_null(ulp_gl_vertex_format("R8G8B8A8_UNORM"), "Mesa converts it (u_vbuf)");
	cr_assert_null(ulp_gl_vertex_format("R16G16_FLOAT"));
	close_fx(&f);
}

Test(gl_tables, blend_enums)
{
	fx f;
	open_fx(&f);
	cr_assert(accepts(&f, "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}]}"));
	for (unsigned v = 0; v < 0x20; v++) {
		char j[512];
		snprintf(j, sizeof j, "{\"cmd\":\"blend\",\"enable\":true,\"rgb_func\":\"%s\",\"rgb_src\":\"%s\",\"rgb_dst\":"
		         "\"%s\",\"alpha_func\":\"%s\",\"alpha_src\":\"%s\",\"alpha_dst\":\"%s\",\"colormask\":15,"
		         "\"color\":[0,0,0,0]}", ulp_gl_blend_func(v), ulp_gl_blend_factor(v), ulp_gl_blend_factor(v),
		         ulp_gl_blend_func(v), ulp_gl_blend_factor(v), ulp_gl_blend_factor(v));
		cr_assert(accepts(&f, j), "value %u: %s", v, f.d.msg);
	}
	static const struct { unsigned v; const char *n; } F[] = {
		{ ULP_GL_BLENDFACTOR_ZERO, "zero" }, { ULP_GL_BLENDFACTOR_ONE, "one" },
		{ ULP_GL_BLENDFACTOR_SRC_ALPHA, "src_alpha" }, { ULP_GL_BLENDFACTOR_INV_SRC_ALPHA, "inv_src_alpha" },
		{ ULP_GL_BLENDFACTOR_SRC_ALPHA_SATURATE, "src_alpha_saturate" },
		{ ULP_GL_BLENDFACTOR_INV_CONST_ALPHA, "inv_const_alpha" }, { ULP_GL_BLENDFACTOR_DST_COLOR, "dst_color" },
		{ ULP_GL_BLENDFACTOR_SRC1_COLOR, "zero" }, { ULP_GL_BLENDFACTOR_INV_SRC1_ALPHA, "zero" },
	};
	for (size_t k = 0; k < sizeof F / sizeof F[0]; k++)
		cr_assert_str_eq(ulp_gl_blend_factor(F[k].v), F[k].n);
	cr_assert_str_eq(ulp_gl_blend_func(ULP_GL_BLEND_REVERSE_SUBTRACT), "reverse_subtract");
	cr_assert_str_eq(ulp_gl_blend_func(ULP_GL_BLEND_MAX), "max");
	cr_assert(!accepts(&f, "{\"cmd\":\"blend\",\"enable\":true,\"rgb_src\":\"src1_color\"}"),
	          "the parser refuses a name it does not know: the loop above can fail");
	close_fx(&f);
}

Test(gl_tables, depth_stencil_enums)
{
	fx f;
	open_fx(&f);
	cr_assert(accepts(&f, "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
	                      "\"zsbuf\":{\"format\":\"D24S8\"}}"), "%s", f.d.msg);
	for (unsigned v = 0; v < 8; v++) {
		char st[256], j[768];
		snprintf(st, sizeof st, "{\"enabled\":true,\"func\":\"%s\",\"ref\":1,\"valuemask\":255,\"writemask\":255,"
		         "\"fail_op\":\"%s\",\"zfail_op\":\"%s\",\"zpass_op\":\"%s\"}", ulp_gl_compare_func(v),
		         ulp_gl_stencil_op(v), ulp_gl_stencil_op(v), ulp_gl_stencil_op(v));
		snprintf(j, sizeof j, "{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":true,\"writemask\":true,"
		         "\"func\":\"%s\"},\"stencil\":%s,\"stencil_back\":%s}", ulp_gl_compare_func(v), st, st);
		cr_assert(accepts(&f, j), "value %u: %s", v, f.d.msg);
	}
	cr_assert_str_eq(ulp_gl_compare_func(ULP_GL_FUNC_LEQUAL), "lequal");
	cr_assert_str_eq(ulp_gl_compare_func(ULP_GL_FUNC_NOTEQUAL), "notequal");
	cr_assert_str_eq(ulp_gl_stencil_op(ULP_GL_STENCIL_OP_INCR_WRAP), "incr", "no wrap in the ZS unit");
	cr_assert_str_eq(ulp_gl_stencil_op(ULP_GL_STENCIL_OP_INVERT), "invert");
	cr_assert(!accepts(&f, "{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":true,\"func\":\"lessequal\"}}"),
	          "the parser refuses a name it does not know");
	close_fx(&f);
}

Test(gl_tables, rasterizer_and_sampler_enums)
{
	fx f;
	open_fx(&f);
	for (unsigned v = 0; v < 4; v++) {
		char j[256];
		snprintf(j, sizeof j, "{\"cmd\":\"rasterizer\",\"cull\":\"%s\"}", ulp_gl_cull(v, false));
		cr_assert(accepts(&f, j), "face %u: %s", v, f.d.msg);
		cr_assert_str_eq(ulp_gl_cull(v, true), "none", "points and lines are never culled");
	}
	cr_assert_str_eq(ulp_gl_cull(ULP_GL_FACE_BACK, false), "back");
	for (unsigned v = 0; v < 8; v++) {
		char j[512];
		snprintf(j, sizeof j, "{\"cmd\":\"sampler\",\"index\":0,\"min_filter\":\"%s\",\"mag_filter\":\"%s\","
		         "\"mip_filter\":\"%s\",\"wrap_s\":\"%s\",\"wrap_t\":\"%s\",\"lod_bias\":0}", ulp_gl_filter(v & 1),
		         ulp_gl_filter(v), ulp_gl_mip_filter(v), ulp_gl_wrap(v), ulp_gl_wrap(v));
		cr_assert(accepts(&f, j), "value %u: %s", v, f.d.msg);
	}
	cr_assert_str_eq(ulp_gl_wrap(ULP_GL_TEX_WRAP_MIRROR_REPEAT), "mirror");
	cr_assert_str_eq(ulp_gl_wrap(ULP_GL_TEX_WRAP_CLAMP_TO_BORDER), "clamp");
	cr_assert_str_eq(ulp_gl_mip_filter(ULP_GL_TEX_MIPFILTER_NONE), "none");
	cr_assert_str_eq(ulp_gl_filter(ULP_GL_TEX_FILTER_LINEAR), "linear");
	cr_assert(!accepts(&f, "{\"cmd\":\"sampler\",\"index\":0,\"wrap_s\":\"clamp_to_border\"}"),
	          "the parser refuses a name it does not know");
	cr_assert(!accepts(&f, "{\"cmd\":\"rasterizer\",\"cull\":\"front_and_back\"}"));
	close_fx(&f);
}

Test(gl_tables, the_caps_limits_are_the_compilers)
{
	cr_assert_eq(ULP_GL_FS_EXECS, TFP_MAX_EXEC, "a program's EXECs");
	cr_assert_eq(ULP_GL_VS_OUTPUTS, PICA_COMPILE_MAX_OUT, "o0-o15");
	cr_assert_eq(ULP_GL_VS_CONSTS, 96, "c0-c95");
}
