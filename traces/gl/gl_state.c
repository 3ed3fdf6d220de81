/* Gallium state as the session's commands; the driver's shaders (gl_state.h). */
#include "traces/gl/gl_state.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_compile.h"
#include "traces/gl/gl_shader_text.h"
#include "traces/gl/gl_tables.h"


/* x clamped to lo..hi as the driver's CLAMP did (a NaN stays NaN) */
static float clampf(float x, float lo, float hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static cJSON *command(const char *name)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "cmd", name);
	return o;
}

cJSON *ulp_gl_blend_cmd(const ulp_gl_blend *b)
{
	cJSON *cmd = command("blend");
	cJSON_AddBoolToObject(cmd, "enable", b->enable);
	cJSON_AddStringToObject(cmd, "rgb_func", ulp_gl_blend_func(b->rgb_func));
	cJSON_AddStringToObject(cmd, "rgb_src", ulp_gl_blend_factor(b->rgb_src));
	cJSON_AddStringToObject(cmd, "rgb_dst", ulp_gl_blend_factor(b->rgb_dst));
	cJSON_AddStringToObject(cmd, "alpha_func", ulp_gl_blend_func(b->alpha_func));
	cJSON_AddStringToObject(cmd, "alpha_src", ulp_gl_blend_factor(b->alpha_src));
	cJSON_AddStringToObject(cmd, "alpha_dst", ulp_gl_blend_factor(b->alpha_dst));
	cJSON_AddNumberToObject(cmd, "colormask", b->colormask & 15);
	float col[4];
	for (int k = 0; k < 4; k++)
		col[k] = clampf(b->color[k], 0.0f, 1.0f);
	cJSON_AddItemToObject(cmd, "color", cJSON_CreateFloatArray(col, 4));
	return cmd;
}

static cJSON *stencil_obj(const ulp_gl_stencil *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "enabled", s->enabled);
	cJSON_AddStringToObject(o, "func", ulp_gl_compare_func(s->func));
	cJSON_AddNumberToObject(o, "ref", s->ref & 255);
	cJSON_AddNumberToObject(o, "valuemask", s->valuemask);
	cJSON_AddNumberToObject(o, "writemask", s->writemask);
	cJSON_AddStringToObject(o, "fail_op", ulp_gl_stencil_op(s->fail_op));
	cJSON_AddStringToObject(o, "zfail_op", ulp_gl_stencil_op(s->zfail_op));
	cJSON_AddStringToObject(o, "zpass_op", ulp_gl_stencil_op(s->zpass_op));
	return o;
}

cJSON *ulp_gl_dsa_cmd(const ulp_gl_dsa *s, bool zs)
{
	cJSON *cmd = command("depth_stencil_alpha");
	cJSON *dep = cJSON_AddObjectToObject(cmd, "depth");
	cJSON_AddBoolToObject(dep, "enabled", zs && s->depth_enabled);
	cJSON_AddBoolToObject(dep, "writemask", s->depth_writemask);
	cJSON_AddStringToObject(dep, "func", ulp_gl_compare_func(s->depth_func));
	if (zs && s->stencil[0].enabled) {
		cJSON_AddItemToObject(cmd, "stencil", stencil_obj(&s->stencil[0]));
		if (s->stencil[1].enabled)
			cJSON_AddItemToObject(cmd, "stencil_back", stencil_obj(&s->stencil[1]));
	}
	return cmd;
}

cJSON *ulp_gl_rast_cmd(const ulp_gl_rast *r, bool wide)
{
	cJSON *cmd = command("rasterizer");
	cJSON_AddStringToObject(cmd, "cull", ulp_gl_cull(r->cull_face, wide));
	/* Gallium's window order is in window coordinates with y down (origin
	 * upper left: gallium-docs-0.4.txt, rasterizer front_ccw); the trace's is
	 * GL's, y up (units/geom/setup.c): the same triangle winds the other way */
	cJSON_AddBoolToObject(cmd, "front_ccw", !r->front_ccw);
	cJSON_AddBoolToObject(cmd, "scissor", r->scissor);
	cJSON_AddBoolToObject(cmd, "flatshade", r->flatshade);
	cJSON_AddBoolToObject(cmd, "two_side", r->two_side);
	cJSON_AddNumberToObject(cmd, "clip_plane_enable", r->clip_plane_enable & 255);
	return cmd;
}

cJSON *ulp_gl_sampler_cmd(unsigned index, const ulp_gl_sampler *s)
{
	cJSON *cmd = command("sampler");
	cJSON_AddNumberToObject(cmd, "index", index);
	cJSON_AddStringToObject(cmd, "min_filter", ulp_gl_filter(s->min_filter));
	cJSON_AddStringToObject(cmd, "mag_filter", ulp_gl_filter(s->mag_filter));
	cJSON_AddStringToObject(cmd, "mip_filter", ulp_gl_mip_filter(s->mip_filter));
	cJSON_AddStringToObject(cmd, "wrap_s", ulp_gl_wrap(s->wrap_s));
	cJSON_AddStringToObject(cmd, "wrap_t", ulp_gl_wrap(s->wrap_t));
	if (s->compare) {
		cJSON_AddStringToObject(cmd, "compare_mode", "ref_to_texture");
		cJSON_AddStringToObject(cmd, "compare_func", ulp_gl_compare_func(s->compare_func));
	}
	cJSON_AddNumberToObject(cmd, "lod_bias", clampf(s->lod_bias, -16.0f, 16.0f));
	return cmd;
}

/* ---- shaders ---- */

static void shader_of(trace_shader *ts, const char *id, enum trace_stage stage, const char *text)
{
	memset(ts, 0, sizeof *ts);
	snprintf(ts->id, sizeof ts->id, "%s", id);
	ts->stage = stage;
	ts->code = TRACE_TGSI;
	ts->text = (char *)text;        /* only read: replay_session_shader copies it */
}

/* Shader ts added to s, and to cap when it is. */
static bool add_ts(replay_session *s, replay_capture *cap, const trace_shader *ts, ulp_diag *d)
{
	if (!replay_session_shader(s, ts, d))
		return false;
	if (cap)
		replay_capture_shader(cap, ts);
	return true;
}

ulp_gl_shader_info ulp_gl_shader_create(replay_session *s, replay_capture *cap, const char *id, bool vertex,
                                        const char *text, ulp_diag *d)
{
	ulp_gl_shader_info in = { .nconst = ulp_gl_declared_consts(text) };
	const enum trace_stage st = vertex ? TRACE_VERTEX : TRACE_FRAGMENT;
	trace_shader ts;
	shader_of(&ts, id, st, text);
	in.valid = replay_session_shader(s, &ts, d) && replay_session_check_shader(s, id, d);
	in.loop_bound = in.valid && !vertex ? replay_session_loop_bound(s) : 0;
	in.loop_limited = in.loop_bound && in.loop_bound < TEGRA_LOOP_BOUND_MAX;
	if (in.valid && cap)
		replay_capture_shader(cap, &ts);
	char *clamped = in.valid && vertex ? ulp_gl_clamped_colors(text) : NULL;
	if (clamped) {                   /* the variant for clamp_vertex_color */
		char cid[sizeof ts.id];
		snprintf(cid, sizeof cid, "%sc", id);
		shader_of(&ts, cid, st, clamped);
		in.has_clamped = add_ts(s, cap, &ts, d);
		free(clamped);
	}
	return in;
}

bool ulp_gl_add_shader(replay_session *s, replay_capture *cap, const char *id, enum trace_stage stage,
                       const char *text, ulp_diag *d)
{
	trace_shader ts;
	shader_of(&ts, id, stage, text);
	return add_ts(s, cap, &ts, d);
}

bool ulp_gl_wide_gs(replay_session *s, replay_capture *cap, const ulp_gl_expand *e, const char *gs_id,
                    ulp_diag *d)
{
	char *text = ulp_gl_expand_gs(e, d);
	if (!text)
		return false;
	const bool ok = ulp_gl_add_shader(s, cap, gs_id, TRACE_GEOMETRY, text, d);
	free(text);
	return ok;
}
