/* The input of fuzz_gl_state, fed as the Gallium driver feeds the
 * simulator (frontends/gallium, without Mesa), shared with the suite's
 * reproducer test (tests/cli/test_fuzz_repro.c).  The input is
 *   VS TGSI text NUL FS TGSI text NUL op bytes
 * (a text that is missing or empty is a pass-through shader's).  The
 * shaders are added as the driver's create_vs/create_fs adds them
 * (ulp_gl_shader_create: link-time check, clamped-colour variant); the
 * ops are the driver's state and draw calls: Gallium states in
 * traces/gl/gl_state.h's terms turned into commands by the driver's own
 * translation, framebuffers, vertex elements, buffers and textures as
 * the driver emits them, and draws of every primitive (points and lines
 * through the expanding geometry shader of gl_prims, ulp_gl_wide_gs), with
 * the harnesses' cycle budget (fuzz_replay_setup).  Every command's
 * outcome is an answer; a crash, a sanitizer report or a leak is not. */
#ifndef ULP_FUZZ_GL_H
#define ULP_FUZZ_GL_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "fuzz/fuzz_trace.h"
#include "traces/gl/gl_prims.h"
#include "traces/gl/gl_state.h"
#include "traces/replay/session.h"

enum { FUZZ_GL_MAX_OPS = 64, FUZZ_GL_MAX_DIM = 64, FUZZ_GL_MAX_VERTS = 96 };

typedef struct fuzz_gl {
	const uint8_t *op, *end;           /* the op bytes not read yet */
	replay_session *s;
	ulp_diag d;
	ulp_gl_shader_info vs, fs;
	bool zs;                           /* the framebuffer has a depth buffer */
	ulp_gl_rast rast;
	float vp_scale[2];
	unsigned ncmd;                     /* commands sent */
} fuzz_gl;

/* The next op byte (0 past the end). */
static inline unsigned fuzz_gl_byte(fuzz_gl *g)
{
	return g->op < g->end ? *g->op++ : 0;
}

/* A float from 4 op bytes: any bit pattern, NaN and infinities too. */
static inline float fuzz_gl_float(fuzz_gl *g)
{
	uint32_t u = 0;
	for (int k = 0; k < 4; k++)
		u = u << 8 | fuzz_gl_byte(g);
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* A float from 1 op byte: a small value -2..2 in steps of 1/32, the usual case. */
static inline float fuzz_gl_small(fuzz_gl *g)
{
	return ((float)fuzz_gl_byte(g) - 128.0f) / 64.0f;
}

static inline bool fuzz_gl_send(fuzz_gl *g, cJSON *cmd)
{
	if (!cmd)
		return false;
	ulp_diag_clear(&g->d);
	const bool ok = replay_session_command(g->s, cmd, &g->d);
	cJSON_Delete(cmd);
	g->ncmd++;
	return ok;
}

static inline cJSON *fuzz_gl_command(const char *name)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "cmd", name);
	return o;
}

static inline void fuzz_gl_framebuffer(fuzz_gl *g)
{
	static const char *const RT[] = { "RGBA8888", "BGRA8888", "RGB565", "A8" };  /* ORDER: enum gr3d_rtfmt */
	const unsigned b = fuzz_gl_byte(g);
	cJSON *cmd = fuzz_gl_command("framebuffer");
	cJSON_AddNumberToObject(cmd, "width", 1 + fuzz_gl_byte(g) % FUZZ_GL_MAX_DIM);
	cJSON_AddNumberToObject(cmd, "height", 1 + fuzz_gl_byte(g) % FUZZ_GL_MAX_DIM);
	cJSON *cb = cJSON_AddArrayToObject(cmd, "cbufs");
	for (unsigned k = 0; k < 1 + (b & 1); k++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "format", RT[(b >> (1 + 2 * k)) & 3]);
		cJSON_AddItemToArray(cb, o);
	}
	g->zs = (b >> 5) % 3 != 0;
	if (g->zs)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(cmd, "zsbuf"), "format", (b >> 5) % 3 == 1 ? "D16" : "D24S8");
	fuzz_gl_send(g, cmd);
}

static inline void fuzz_gl_stencil(fuzz_gl *g, ulp_gl_stencil *s)
{
	const unsigned b = fuzz_gl_byte(g), ops = fuzz_gl_byte(g);
	*s = (ulp_gl_stencil){ .enabled = b & 1, .func = b >> 1, .ref = fuzz_gl_byte(g),
		.valuemask = fuzz_gl_byte(g), .writemask = fuzz_gl_byte(g), .fail_op = ops, .zfail_op = ops >> 3,
		.zpass_op = (ops >> 6) | (b >> 4) };
}

/* The vertex buffer "vb" (n bytes of the ops) and 1..4 vertex elements over it. */
static inline void fuzz_gl_vertices(fuzz_gl *g)
{
	static const char *const FMT[] = { "R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT", "R32G32B32A32_FLOAT",
		"R8G8B8A8_UNORM" };          /* the driver's vertex_format() */
	const unsigned b = fuzz_gl_byte(g);
	uint8_t vb[FUZZ_GL_MAX_VERTS * 16];
	const size_t n = (size_t)(fuzz_gl_byte(g) % (FUZZ_GL_MAX_VERTS + 1)) * 16;
	for (size_t k = 0; k < n; k += 4) {     /* small floats: positions on the target, colours */
		const float f = fuzz_gl_small(g);
		memcpy(vb + k, &f, 4);
	}
	replay_session_buffer(g->s, "vb", vb, n, &g->d);
	cJSON *cmd = fuzz_gl_command("vertex_elements");
	cJSON *arr = cJSON_AddArrayToObject(cmd, "elements");
	for (unsigned k = 0; k < 1 + (b & 3); k++) {
		const unsigned e = fuzz_gl_byte(g);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "buffer", "vb");
		cJSON_AddNumberToObject(o, "offset", (e & 7) * 4);
		cJSON_AddNumberToObject(o, "stride", (b & 4) ? 0 : 16 * (1 + (e >> 6)));   /* 0: instanced */
		cJSON_AddStringToObject(o, "format", FMT[(e >> 3) % 5]);
		cJSON_AddItemToArray(arr, o);
	}
	fuzz_gl_send(g, cmd);
}

/* A texture "t<k>" of the op bytes and the sampler view and sampler of unit k. */
static inline void fuzz_gl_texture(fuzz_gl *g)
{
	const unsigned b = fuzz_gl_byte(g), unit = b & 3;
	const enum trace_texfmt f = (enum trace_texfmt)(fuzz_gl_byte(g) % 6);
	const uint32_t w = 1 + fuzz_gl_byte(g) % 16, h = (b & 4) ? 1 : 1 + fuzz_gl_byte(g) % 16;
	const size_t len = (size_t)w * h * trace_texfmt_bpp(f);
	uint8_t *tex = malloc(len);
	if (!tex)
		return;
	for (size_t k = 0; k < len; k++)
		tex[k] = (uint8_t)fuzz_gl_byte(g);
	char id[8];
	snprintf(id, sizeof id, "t%u", unit);
	replay_session_texture(g->s, id, f, (b & 4) ? TRACE_TEX_1D : TRACE_TEX_2D, w, h, 1, tex, len, &g->d);
	free(tex);
	cJSON *cmd = fuzz_gl_command("sampler_view");
	cJSON_AddNumberToObject(cmd, "index", unit);
	cJSON_AddStringToObject(cmd, "resource", id);
	if (b & 8) {
		static const char SWZ[] = "rgba01";
		const unsigned sw = fuzz_gl_byte(g) | fuzz_gl_byte(g) << 8;
		char s[5] = "rgba";
		for (int ch = 0; ch < 4; ch++)
			s[ch] = SWZ[((sw >> (3 * ch)) & 7) % 6];
		cJSON_AddStringToObject(cmd, "swizzle", s);
	}
	fuzz_gl_send(g, cmd);
	const unsigned m = fuzz_gl_byte(g);
	const ulp_gl_sampler sm = { .min_filter = m & 1, .mag_filter = (m >> 1) & 1, .mip_filter = (m >> 2) & 3,
		.wrap_s = (m >> 4) & 7, .wrap_t = (m >> 5) & 7, .compare = b & 16,
		.compare_func = b >> 5, .lod_bias = (b & 128) ? fuzz_gl_float(g) : fuzz_gl_small(g) };
	fuzz_gl_send(g, ulp_gl_sampler_cmd(unit, &sm));
}

/* CONST[0] of a stage: nvec vec4s of the op bytes. */
static inline void fuzz_gl_constants(fuzz_gl *g)
{
	static const char *const STAGE[] = { "vertex", "fragment" };
	const unsigned b = fuzz_gl_byte(g), nvec = 1 + (b >> 1) % 16;
	float v[16 * 4];
	for (unsigned k = 0; k < nvec * 4; k++)
		v[k] = (b & 128) ? fuzz_gl_float(g) : fuzz_gl_small(g);
	cJSON *cmd = fuzz_gl_command("constant_buffer");
	cJSON_AddStringToObject(cmd, "stage", STAGE[b & 1]);
	cJSON_AddNumberToObject(cmd, "index", 0);
	cJSON_AddItemToObject(cmd, "f32", cJSON_CreateFloatArray(v, (int)nvec * 4));
	fuzz_gl_send(g, cmd);
}

/* bind_shaders (the expanding GS for points and lines) and a draw. */
static inline void fuzz_gl_draw(fuzz_gl *g)
{
	static const char *const MODE[] = { "triangles", "triangle_strip", "triangle_fan", "points", "lines",
		"line_strip", "line_loop" };
	const unsigned b = fuzz_gl_byte(g), mode = b % 7;
	const bool wide = mode >= 3;
	const bool clamped = (b & 8) && g->vs.has_clamped;
	cJSON *bind = fuzz_gl_command("bind_shaders");
	cJSON_AddStringToObject(bind, "vs", clamped ? "vsc" : "vs");
	if (wide) {
		/* as the driver's wide_gs: the GS the bound state asks for, named
		 * by its key (gl_prims.h) */
		ulp_gl_expand e;
		memset(&e, 0, sizeof e);
		e.what = mode == 3 ? ULP_GL_POINTS : ULP_GL_LINES;
		const unsigned eb = fuzz_gl_byte(g);
		e.clip = eb & 1;
		e.two_side = eb & 2;
		e.psize = mode == 3 && (eb & 4);
		e.sprite = mode == 3 ? eb >> 3 : 0;
		uint16_t mapped;
		char gs[64], key[40];
		ulp_diag_clear(&g->d);
		if (!replay_session_vs_outputs(g->s, clamped ? "vsc" : "vs", &e.mask, &mapped, e.sem, e.index, &g->d)) {
			cJSON_Delete(bind);
			return;                              /* the driver notes it: the draw is skipped */
		}
		ulp_gl_expand_key(&e, key, sizeof key);
		snprintf(gs, sizeof gs, "gs.%s", key);
		replay_session_remove_shader(g->s, gs);
		if (!ulp_gl_wide_gs(g->s, NULL, &e, gs, &g->d)) {
			cJSON_Delete(bind);
			return;
		}
		cJSON_AddStringToObject(bind, "gs", gs);
	}
	cJSON_AddStringToObject(bind, "fs", "fs");
	fuzz_gl_send(g, bind);
	if (wide) {
		float k[4 * ULP_GL_EXPAND_CONSTS];
		const ulp_gl_expand_state st = {
			.size = (b & 16) ? fuzz_gl_float(g) : 1.0f + (float)(fuzz_gl_byte(g) % 16),
			.vp_scale = { g->vp_scale[0], g->vp_scale[1] }, .size_min = 1, .size_max = ULP_GL_WIDE_MAX,
			.sprite_upper_left = b & 64 };
		ulp_gl_expand_consts(&st, k);
		cJSON *cmd = fuzz_gl_command("constant_buffer");
		cJSON_AddStringToObject(cmd, "stage", "geometry");
		cJSON_AddNumberToObject(cmd, "index", 0);
		cJSON_AddItemToObject(cmd, "f32", cJSON_CreateFloatArray(k, 4 * ULP_GL_EXPAND_CONSTS));
		fuzz_gl_send(g, cmd);
	}
	fuzz_gl_send(g, ulp_gl_rast_cmd(&g->rast, wide));
	const unsigned start = fuzz_gl_byte(g) % 8, count = fuzz_gl_byte(g) % (FUZZ_GL_MAX_VERTS / 2);
	cJSON *cmd = fuzz_gl_command("draw");
	if (mode >= 4) {                             /* lines: each segment the triangle (a, b, b) */
		uint32_t idx[3 * FUZZ_GL_MAX_VERTS];
		unsigned n = 0, a, e;
		for (unsigned k = 0; ulp_gl_line_segment((enum ulp_gl_line_mode)(mode - 4), count, k, &a, &e); k++) {
			idx[n++] = start + a;
			idx[n++] = start + e;
			idx[n++] = start + e;
		}
		replay_session_buffer(g->s, "ix", idx, n * sizeof *idx, &g->d);
		cJSON_AddStringToObject(cmd, "mode", "triangles");
		cJSON_AddNumberToObject(cmd, "start", 0);
		cJSON_AddNumberToObject(cmd, "count", n);
		cJSON_AddStringToObject(cmd, "index_buffer", "ix");
		cJSON_AddNumberToObject(cmd, "index_size", 4);
	} else {
		cJSON_AddStringToObject(cmd, "mode", MODE[mode]);
		cJSON_AddNumberToObject(cmd, "start", start);
		cJSON_AddNumberToObject(cmd, "count", count);
		if (b & 32) {                            /* 16-bit indices of the op bytes */
			uint16_t idx[FUZZ_GL_MAX_VERTS];
			for (unsigned k = 0; k < start + count; k++)
				idx[k] = (uint16_t)(fuzz_gl_byte(g) % FUZZ_GL_MAX_VERTS);
			replay_session_buffer(g->s, "ib", idx, (start + count) * sizeof *idx, &g->d);
			cJSON_AddStringToObject(cmd, "index_buffer", "ib");
			cJSON_AddNumberToObject(cmd, "index_size", 2);
		}
	}
	fuzz_gl_send(g, cmd);
}

/* One op of the stream (its operands follow it). */
static inline void fuzz_gl_op(fuzz_gl *g, unsigned op)
{
	switch (op % 12) {
	case 0: fuzz_gl_framebuffer(g); break;
	case 1: {
		const unsigned b = fuzz_gl_byte(g), f = fuzz_gl_byte(g) | fuzz_gl_byte(g) << 8;
		ulp_gl_blend bl = { .enable = b & 1, .rgb_func = b >> 1, .alpha_func = b >> 4,
			.rgb_src = f & 31, .rgb_dst = (f >> 5) & 31, .alpha_src = (f >> 10) & 31, .alpha_dst = f >> 15,
			.colormask = fuzz_gl_byte(g) };
		for (int k = 0; k < 4; k++)
			bl.color[k] = (b & 128) ? fuzz_gl_float(g) : fuzz_gl_small(g);
		fuzz_gl_send(g, ulp_gl_blend_cmd(&bl));
		break;
	}
	case 2: {
		const unsigned b = fuzz_gl_byte(g);
		ulp_gl_dsa s = { .depth_enabled = b & 1, .depth_writemask = b & 2, .depth_func = b >> 2 };
		fuzz_gl_stencil(g, &s.stencil[0]);
		fuzz_gl_stencil(g, &s.stencil[1]);
		fuzz_gl_send(g, ulp_gl_dsa_cmd(&s, g->zs));
		break;
	}
	case 3: {
		const unsigned b = fuzz_gl_byte(g);
		g->rast = (ulp_gl_rast){ .cull_face = b, .front_ccw = b & 4, .scissor = b & 8, .flatshade = b & 16,
			.two_side = b & 32, .clip_plane_enable = fuzz_gl_byte(g) };
		break;                                   /* sent before each draw, as `wide` decides the culling */
	}
	case 4: {
		const unsigned b = fuzz_gl_byte(g);
		float sc[3], tr[3];
		for (int k = 0; k < 3; k++) {
			sc[k] = (b & 1) ? fuzz_gl_float(g) : 16.0f * fuzz_gl_small(g);
			tr[k] = (b & 1) ? fuzz_gl_float(g) : 16.0f + 16.0f * fuzz_gl_small(g);
		}
		g->vp_scale[0] = sc[0];
		g->vp_scale[1] = sc[1];
		cJSON *cmd = fuzz_gl_command("viewport");
		cJSON_AddItemToObject(cmd, "scale", cJSON_CreateFloatArray(sc, 3));
		cJSON_AddItemToObject(cmd, "translate", cJSON_CreateFloatArray(tr, 3));
		fuzz_gl_send(g, cmd);
		break;
	}
	case 5: {
		static const char *const K[4] = { "minx", "miny", "maxx", "maxy" };
		cJSON *cmd = fuzz_gl_command("scissor");
		for (int k = 0; k < 4; k++)
			cJSON_AddNumberToObject(cmd, K[k], fuzz_gl_byte(g) % (FUZZ_GL_MAX_DIM + 8));
		fuzz_gl_send(g, cmd);
		break;
	}
	case 6: {
		float planes[32];
		for (int k = 0; k < 32; k++)
			planes[k] = k < 8 ? fuzz_gl_small(g) : 0.0f;
		cJSON *cmd = fuzz_gl_command("clip");
		cJSON_AddItemToObject(cmd, "planes", cJSON_CreateFloatArray(planes, 32));
		fuzz_gl_send(g, cmd);
		break;
	}
	case 7: fuzz_gl_constants(g); break;
	case 8: fuzz_gl_vertices(g); break;
	case 9: fuzz_gl_texture(g); break;
	case 10: {                                   /* the program deletes its index or vertex buffer */
		replay_session_remove_resource(g->s, (fuzz_gl_byte(g) & 1) ? "vb" : "ib");
		break;
	}
	default: fuzz_gl_draw(g); break;
	}
}

/* The part of the input up to the next NUL (advancing *p), or "" when none is left. */
static inline char *fuzz_gl_part(char **p, char *end)
{
	char *s = *p;
	if (s >= end)
		return end;
	const size_t n = strnlen(s, (size_t)(end - s));
	*p = s + n + (s + n < end);
	return s;
}

/* Feeds one input; false with d when a shader was refused (the driver
 * skips draws with it), true otherwise: every op's outcome is an answer. */
static inline bool fuzz_gl_feed(const uint8_t *data, size_t size, ulp_diag *d)
{
	static const char VS[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
		"  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n";
	static const char FS[] = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
	char *text = fuzz_text(data, size);
	if (!text)
		return true;
	char *p = text, *end = text + size;
	char *vs = fuzz_gl_part(&p, end), *fs = fuzz_gl_part(&p, end);
	ulp_config cfg;
	replay_opts o;
	fuzz_replay_setup(&cfg, &o);
	replay_result res;
	memset(&res, 0, sizeof res);
	fuzz_gl g = { .op = (const uint8_t *)p, .end = (const uint8_t *)end, .vp_scale = { 16.0f, 16.0f } };
	ulp_diag_clear(&g.d);
	replay_session_units u = { .lazy = true };
	g.s = replay_session_open(&o, &u, "gl", ".", &res, &g.d);
	bool ok = g.s != NULL;
	if (ok) {
		g.vs = ulp_gl_shader_create(g.s, NULL, "vs", true, *vs ? vs : VS, &g.d);
		if (!g.vs.valid)
			*d = g.d;
		g.fs = ulp_gl_shader_create(g.s, NULL, "fs", false, *fs ? fs : FS, &g.d);
		if (g.vs.valid && !g.fs.valid)
			*d = g.d;
		ok = g.vs.valid && g.fs.valid;
	}
	/* as the driver: draws with a shader the hardware refused are skipped */
	for (unsigned n = 0; ok && n < FUZZ_GL_MAX_OPS && g.op < g.end && res.cycles < o.max_cycles; n++)
		fuzz_gl_op(&g, fuzz_gl_byte(&g));
	if (g.s) {
		ulp_diag_clear(&g.d);
		replay_session_finish(g.s, &g.d);
		ulp_image_free(res.image);
		free(res.depth);
		replay_session_close(g.s);
	}
	free(text);
	return ok;
}

#endif
