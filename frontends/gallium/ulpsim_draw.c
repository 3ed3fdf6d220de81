/* draw_vbo, clear, blit and resource_copy_region (ulpsim_context.h).
 * A draw runs on the simulated GPU through the session; clears, blits and
 * copies are CPU work on the resources' host memory (the next draw copies
 * what they wrote into the session). */
#include "frontends/gallium/ulpsim_context.h"
#include "traces/gl/gl_prims.h"
#include "traces/gl/gl_run.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/format/u_format.h"
#include "util/u_inlines.h"
#include "util/u_prim.h"
#include "util/u_surface.h"

enum { MAX_DRAW_VERTICES = 65535 };   /* one draw's vertices (traces/replay: vfetch) */

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Index k of a draw (before the bias), from its index buffer or counting. */
static uint32_t index_at(const uint8_t *ib, unsigned size, unsigned start, unsigned k)
{
	const unsigned i = start + k;
	if (!ib)
		return i;
	if (size == 1)
		return ib[i];
	if (size == 2) {
		uint16_t v;
		memcpy(&v, ib + 2 * (size_t)i, 2);
		return v;
	}
	uint32_t v;
	memcpy(&v, ib + 4 * (size_t)i, 4);
	return v;
}

/* A primitive the pipeline assembles itself (triangles, strips, fans) as
 * the trace's mode name; NULL for the others. */
static const char *native_mode(enum pipe_prim_type m)
{
	switch (m) {
	case PIPE_PRIM_TRIANGLES: return "triangles";
	case PIPE_PRIM_TRIANGLE_STRIP: return "triangle_strip";
	case PIPE_PRIM_TRIANGLE_FAN: return "triangle_fan";
	default: return NULL;
	}
}

/* Triangle k of n of a primitive as a triangle list: its three vertices
 * (draw-order positions, winding kept), false past the last. */
static bool triangle(enum pipe_prim_type m, unsigned count, unsigned k, unsigned v[3])
{
	switch (m) {
	case PIPE_PRIM_TRIANGLES:
		if (3 * k + 2 >= count)
			return false;
		v[0] = 3 * k, v[1] = 3 * k + 1, v[2] = 3 * k + 2;
		return true;
	case PIPE_PRIM_TRIANGLE_STRIP:
		if (k + 2 >= count)
			return false;
		v[0] = k, v[1] = k & 1 ? k + 2 : k + 1, v[2] = k & 1 ? k + 1 : k + 2;
		return true;
	case PIPE_PRIM_TRIANGLE_FAN: case PIPE_PRIM_POLYGON:
		if (k + 2 >= count)
			return false;
		v[0] = 0, v[1] = k + 1, v[2] = k + 2;
		return true;
	case PIPE_PRIM_QUADS: {          /* quad q = 4q..4q+3: (0 1 3) (1 2 3) */
		const unsigned q = k / 2, b = 4 * q;
		if (b + 3 >= count)
			return false;
		if (k & 1)
			v[0] = b + 1, v[1] = b + 2, v[2] = b + 3;
		else
			v[0] = b, v[1] = b + 1, v[2] = b + 3;
		return true;
	}
	case PIPE_PRIM_QUAD_STRIP: {     /* quad q = 2q, 2q+1, 2q+3, 2q+2 */
		const unsigned q = k / 2, b = 2 * q;
		if (b + 3 >= count)
			return false;
		if (k & 1)
			v[0] = b, v[1] = b + 3, v[2] = b + 2;
		else
			v[0] = b, v[1] = b + 1, v[2] = b + 3;
		return true;
	}
	default:
		return false;
	}
}

/* Primitive k of a draw of count vertices as the vertices the pipeline
 * takes (draw-order positions): a triangle's 3, a point's 1, a line
 * segment's (a, b, b), the GS input of a line (traces/gl/gl_prims.h); 0
 * past the last. */
static unsigned prim_vertices(enum pipe_prim_type m, unsigned count, unsigned k, unsigned v[3])
{
	unsigned a, b;
	switch (m) {
	case PIPE_PRIM_POINTS:
		if (k >= count)
			return 0;
		v[0] = k;
		return 1;
	case PIPE_PRIM_LINES: case PIPE_PRIM_LINE_STRIP: case PIPE_PRIM_LINE_LOOP:
		if (!ulp_gl_line_segment(m == PIPE_PRIM_LINES ? ULP_GL_LINE_LIST : m == PIPE_PRIM_LINE_STRIP
		                         ? ULP_GL_LINE_STRIP : ULP_GL_LINE_LOOP, count, k, &a, &b))
			return 0;
		v[0] = a, v[1] = b, v[2] = b;
		return 3;
	default:
		return triangle(m, count, k, v) ? 3 : 0;
	}
}

/* Runs one draw command; its figures go into the run's totals. */
static void run_draw(struct ulpsim_context *c, cJSON *cmd)
{
	struct ulpsim_screen *scr = ulpsim_screen(c->base.screen);
	const uint64_t cycles = c->res.cycles, fragments = c->res.fragments;
	const double t0 = now_seconds();
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_gl_ctx_draw_begin(c->out);
	const bool ok = replay_session_command(c->s, cmd, &d);
	if (c->cap)
		replay_capture_command(c->cap, cmd, ok);
	ulp_gl_ctx_draw_end(c->out);
	cJSON_Delete(cmd);
	c->sim_seconds += now_seconds() - t0;
	if (ok) {
		scr->run.draws++;
		scr->run.cycles += c->res.cycles - cycles;
		scr->run.fragments += c->res.fragments - fragments;
		return;
	}
	const char *wd = strstr(d.msg, "watchdog");
	if (wd) {                        /* as after a GPU reset: reported, and the program goes on */
		fprintf(stderr, "ulpsim: draw %llu stopped by the %s\n", (unsigned long long)c->draws, wd);
		cJSON *line = cJSON_CreateObject();
		cJSON_AddStringToObject(line, "watchdog", wd);
		char *text = cJSON_PrintUnformatted(line);
		if (text)
			ulpsim_summary_line(scr, text);
		free(text);
		cJSON_Delete(line);
		return;
	}
	const char *tail = strstr(d.msg, "]");
	ulpsim_note(c, tail ? tail : d.msg, "draw %llu: %s", (unsigned long long)c->draws, d.msg);
}

static cJSON *draw_cmd(const char *mode, unsigned start, unsigned count)
{
	cJSON *cmd = cJSON_CreateObject();
	cJSON_AddStringToObject(cmd, "cmd", "draw");
	cJSON_AddStringToObject(cmd, "mode", mode);
	cJSON_AddNumberToObject(cmd, "start", start);
	cJSON_AddNumberToObject(cmd, "count", count);
	return cmd;
}

/* A draw the pipeline takes as it is: its index buffer (if any) in the session. */
static void draw_native(struct ulpsim_context *c, const struct pipe_draw_info *info,
                        const struct pipe_draw_start_count_bias *dr, const char *mode)
{
	cJSON *cmd = draw_cmd(mode, dr->start, dr->count);
	if (info->index_size) {
		const char *id = "iu";
		if (info->has_user_indices) {
			if (!ulpsim_upload_user(c, id, info->index.user, ((size_t)dr->start + dr->count) * info->index_size)) {
				cJSON_Delete(cmd);
				return;
			}
		} else {
			struct ulpsim_upload *u = ulpsim_upload(c, info->index.resource, 0, 0);
			if (!u) {
				cJSON_Delete(cmd);
				return;
			}
			id = u->id;
		}
		cJSON_AddStringToObject(cmd, "index_buffer", id);
		cJSON_AddNumberToObject(cmd, "index_size", info->index_size);
	}
	run_draw(c, cmd);
}

/* Any other draw (quads, polygons, points, lines, a bias, more vertices
 * than one draw takes) as lists of 32-bit indices, in pieces: triangles,
 * or points (the GS expands them). */
static void draw_as_lists(struct ulpsim_context *c, const struct pipe_draw_info *info,
                          const struct pipe_draw_start_count_bias *dr, enum pipe_prim_type mode)
{
	const char *list = mode == PIPE_PRIM_POINTS ? "points" : "triangles";
	const uint8_t *ib = NULL;
	if (info->index_size)
		ib = info->has_user_indices ? info->index.user
		   : ulpsim_resource(info->index.resource)->data;
	if (info->index_size && !ib)
		return;
	uint32_t *idx = malloc(MAX_DRAW_VERTICES / 3 * 3 * sizeof *idx);
	if (!idx)
		return;
	unsigned n = 0, v[3], nv;
	for (unsigned k = 0; (nv = prim_vertices(mode, dr->count, k, v)) > 0; k++) {
		for (unsigned j = 0; j < nv; j++) {
			int64_t i = (int64_t)index_at(ib, info->index_size, dr->start, v[j]) + (info->index_size ? dr->index_bias : 0);
			idx[n++] = i < 0 ? 0 : (uint32_t)i;
		}
		if (n + 3 > MAX_DRAW_VERTICES / 3 * 3) {
			if (ulpsim_upload_user(c, "ix", idx, n * sizeof *idx)) {
				cJSON *cmd = draw_cmd(list, 0, n);
				cJSON_AddStringToObject(cmd, "index_buffer", "ix");
				cJSON_AddNumberToObject(cmd, "index_size", 4);
				run_draw(c, cmd);
			}
			n = 0;
		}
	}
	if (n && ulpsim_upload_user(c, "ix", idx, n * sizeof *idx)) {
		cJSON *cmd = draw_cmd(list, 0, n);
		cJSON_AddStringToObject(cmd, "index_buffer", "ix");
		cJSON_AddNumberToObject(cmd, "index_size", 4);
		run_draw(c, cmd);
	}
	free(idx);
}

static void draw(struct ulpsim_context *c, const struct pipe_draw_info *info,
                 const struct pipe_draw_indirect_info *indirect, const struct pipe_draw_start_count_bias *draws,
                 unsigned num_draws)
{
	if (indirect) {
		ulpsim_note(c, "indirect", "indirect draws are not supported (skipped)");
		return;
	}
	if (!c->s || !info->instance_count)
		return;
	const enum pipe_prim_type mode = info->mode;
	const char *native = native_mode(mode);
	const int wide = mode == PIPE_PRIM_POINTS ? ULPSIM_WIDE_POINTS
	               : mode == PIPE_PRIM_LINES || mode == PIPE_PRIM_LINE_STRIP || mode == PIPE_PRIM_LINE_LOOP
	               ? ULPSIM_WIDE_LINES : ULPSIM_WIDE_NONE;
	if (!native && !wide && mode != PIPE_PRIM_QUADS && mode != PIPE_PRIM_QUAD_STRIP && mode != PIPE_PRIM_POLYGON) {
		ulpsim_note(c, NULL, "%s are not drawn by this pipeline (skipped)", u_prim_name(mode));
		return;
	}
	if (wide != c->wide) {           /* the expanding GS bound or unbound, culling off or on */
		c->wide = wide;
		c->dirty |= ULPSIM_DIRTY_SHADERS | ULPSIM_DIRTY_RAST;
	}
	if (info->instance_count > 1)
		ulpsim_note(c, "instances", "instanced draws draw instance 0 only (no instancing)");
	if (info->primitive_restart)
		ulpsim_note(c, "restart", "primitive restart is not supported (the indices are drawn as they are)");
	if (!ulpsim_emit_state(c))
		return;
	for (unsigned k = 0; k < num_draws; k++) {
		const struct pipe_draw_start_count_bias *dr = &draws[k];
		if (!dr->count)
			continue;
		const bool bias = info->index_size && dr->index_bias;
		if (native && !bias && dr->count <= MAX_DRAW_VERTICES)
			draw_native(c, info, dr, native);
		else
			draw_as_lists(c, info, dr, mode);
	}
	ulpsim_write_back(c);
}

static void draw_vbo(struct pipe_context *pipe, const struct pipe_draw_info *info, unsigned drawid_offset,
                     const struct pipe_draw_indirect_info *indirect, const struct pipe_draw_start_count_bias *draws,
                     unsigned num_draws)
{
	(void)drawid_offset;
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->draws++;
	draw(c, info, indirect, draws, num_draws);
	if (info->take_index_buffer_ownership && info->index_size && !info->has_user_indices) {
		struct pipe_resource *r = info->index.resource;    /* ours to release, drawn or skipped */
		pipe_resource_reference(&r, NULL);
	}
}

/* ---- clears: CPU writes into the surfaces ---- */

static void clear(struct pipe_context *pipe, unsigned buffers, const struct pipe_scissor_state *sc,
                  const union pipe_color_union *color, double depth, unsigned stencil)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	const struct pipe_framebuffer_state *fb = &c->fb;
	for (unsigned k = 0; k < fb->nr_cbufs; k++) {
		struct pipe_surface *s = fb->cbufs[k];
		if (!s || !(buffers & (PIPE_CLEAR_COLOR0 << k)))
			continue;
		unsigned x = sc ? sc->minx : 0, y = sc ? sc->miny : 0;
		unsigned w = sc ? sc->maxx - sc->minx : s->width, h = sc ? sc->maxy - sc->miny : s->height;
		util_clear_render_target(pipe, s, color, x, y, MIN2(w, s->width - MIN2(x, s->width)),
		                         MIN2(h, s->height - MIN2(y, s->height)));
	}
	if (fb->zsbuf && (buffers & PIPE_CLEAR_DEPTHSTENCIL)) {
		struct pipe_surface *s = fb->zsbuf;
		unsigned x = sc ? sc->minx : 0, y = sc ? sc->miny : 0;
		unsigned w = sc ? sc->maxx - sc->minx : s->width, h = sc ? sc->maxy - sc->miny : s->height;
		util_clear_depth_stencil(pipe, s, buffers & PIPE_CLEAR_DEPTHSTENCIL, depth, stencil, x, y,
		                         MIN2(w, s->width - MIN2(x, s->width)), MIN2(h, s->height - MIN2(y, s->height)));
	}
}

static void clear_render_target(struct pipe_context *pipe, struct pipe_surface *dst,
                                const union pipe_color_union *color, unsigned x, unsigned y, unsigned w,
                                unsigned h, bool render_condition_enabled)
{
	(void)render_condition_enabled;
	util_clear_render_target(pipe, dst, color, x, y, w, h);
}

static void clear_depth_stencil(struct pipe_context *pipe, struct pipe_surface *dst, unsigned flags, double depth,
                                unsigned stencil, unsigned x, unsigned y, unsigned w, unsigned h,
                                bool render_condition_enabled)
{
	(void)render_condition_enabled;
	util_clear_depth_stencil(pipe, dst, flags, depth, stencil, x, y, w, h);
}

/* ---- copies and blits: CPU work on host memory ---- */

static void resource_copy_region(struct pipe_context *pipe, struct pipe_resource *dst, unsigned dst_level,
                                 unsigned dx, unsigned dy, unsigned dz, struct pipe_resource *src,
                                 unsigned src_level, const struct pipe_box *box)
{
	util_resource_copy_region(pipe, dst, dst_level, dx, dy, dz, src, src_level, box);
}

static uint8_t *texel_row(struct pipe_resource *p, unsigned level, unsigned layer, unsigned y)
{
	struct ulpsim_resource *r = ulpsim_resource(p);
	return r->data + r->level_offset[level] + layer * r->layer_size[level] + (size_t)y * r->stride[level];
}

/* A scaled or converting colour blit: each destination pixel samples the
 * source box (nearest, or linear between the four nearest texels), as
 * floats through the formats' pack and unpack (util_format). */
static void blit_color(const struct pipe_blit_info *b)
{
	struct pipe_resource *src = b->src.resource, *dst = b->dst.resource;
	const int sw = b->src.box.width, sh = b->src.box.height;
	const int dw = b->dst.box.width, dh = b->dst.box.height;
	const unsigned srcw = u_minify(src->width0, b->src.level), srch = u_minify(src->height0, b->src.level);
	float *in = malloc(sizeof *in * 4 * srcw * 2), *out = malloc(sizeof *out * 4 * (size_t)dw);
	if (!in || !out || dw <= 0 || dh <= 0)
		goto done;
	for (int j = 0; j < dh; j++) {
		const int y = b->dst.box.y + j;
		if (b->scissor_enable && (y < (int)b->scissor.miny || y >= (int)b->scissor.maxy))
			continue;
		const float fy = b->src.box.y + (j + 0.5f) * sh / dh - 0.5f;
		int y0 = (int)floorf(fy), y1 = y0 + 1;
		float ty = fy - y0;
		if (b->filter != PIPE_TEX_FILTER_LINEAR) {
			y0 = y1 = (int)floorf(fy + 0.5f);
			ty = 0;
		}
		y0 = CLAMP(y0, 0, (int)srch - 1);
		y1 = CLAMP(y1, 0, (int)srch - 1);
		util_format_unpack_rgba(b->src.format, in, texel_row(src, b->src.level, b->src.box.z, y0), srcw);
		util_format_unpack_rgba(b->src.format, in + 4 * srcw, texel_row(src, b->src.level, b->src.box.z, y1), srcw);
		uint8_t *drow = texel_row(dst, b->dst.level, b->dst.box.z, y);
		const unsigned bpp = util_format_get_blocksize(b->dst.format);
		util_format_unpack_rgba(b->dst.format, out, drow + (size_t)b->dst.box.x * bpp, dw);   /* masked channels */
		for (int i = 0; i < dw; i++) {
			const int x = b->dst.box.x + i;
			if (b->scissor_enable && (x < (int)b->scissor.minx || x >= (int)b->scissor.maxx))
				continue;
			const float fx = b->src.box.x + (i + 0.5f) * sw / dw - 0.5f;
			int x0 = (int)floorf(fx), x1 = x0 + 1;
			float tx = fx - x0;
			if (b->filter != PIPE_TEX_FILTER_LINEAR) {
				x0 = x1 = (int)floorf(fx + 0.5f);
				tx = 0;
			}
			x0 = CLAMP(x0, 0, (int)srcw - 1);
			x1 = CLAMP(x1, 0, (int)srcw - 1);
			for (int ch = 0; ch < 4; ch++) {
				if (!(b->mask & (1u << ch)))
					continue;
				const float a = in[4 * x0 + ch] * (1 - tx) + in[4 * x1 + ch] * tx;
				const float e = in[4 * (srcw + x0) + ch] * (1 - tx) + in[4 * (srcw + x1) + ch] * tx;
				out[4 * i + ch] = a * (1 - ty) + e * ty;
			}
		}
		util_format_pack_rgba(b->dst.format, drow + (size_t)b->dst.box.x * bpp, out, dw);
	}
done:
	free(in);
	free(out);
}

/* A depth/stencil blit between surfaces of one format: the nearest
 * texel's bytes. */
static void blit_zs(const struct pipe_blit_info *b)
{
	const unsigned bpp = util_format_get_blocksize(b->dst.format);
	const int sw = b->src.box.width, sh = b->src.box.height;
	const int dw = b->dst.box.width, dh = b->dst.box.height;
	const int srcw = u_minify(b->src.resource->width0, b->src.level);
	const int srch = u_minify(b->src.resource->height0, b->src.level);
	for (int j = 0; j < dh; j++) {
		int sy = (int)floorf(b->src.box.y + (j + 0.5f) * sh / dh);
		sy = CLAMP(sy, 0, srch - 1);
		const uint8_t *srow = texel_row(b->src.resource, b->src.level, b->src.box.z, sy);
		uint8_t *drow = texel_row(b->dst.resource, b->dst.level, b->dst.box.z, b->dst.box.y + j);
		for (int i = 0; i < dw; i++) {
			int sx = (int)floorf(b->src.box.x + (i + 0.5f) * sw / dw);
			sx = CLAMP(sx, 0, srcw - 1);
			memcpy(drow + (size_t)(b->dst.box.x + i) * bpp, srow + (size_t)sx * bpp, bpp);
		}
	}
}

static void blit(struct pipe_context *pipe, const struct pipe_blit_info *info)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	if (util_try_blit_via_copy_region(pipe, info, false))
		return;
	struct ulpsim_resource *src = ulpsim_resource(info->src.resource), *dst = ulpsim_resource(info->dst.resource);
	if (!src->data || !dst->data || info->src.resource->target == PIPE_BUFFER)
		return;
	const bool zs = info->mask & (PIPE_MASK_Z | PIPE_MASK_S);
	if (zs) {
		if (info->src.format != info->dst.format || info->dst.box.width <= 0 || info->dst.box.height <= 0) {
			ulpsim_note(c, "blit-zs", "depth/stencil blits between formats are not supported (skipped)");
			return;
		}
		blit_zs(info);
	} else if (util_format_is_depth_or_stencil(info->src.format) || util_format_is_compressed(info->src.format) ||
	           util_format_is_pure_integer(info->src.format)) {
		ulpsim_note(c, NULL, "a blit from %s is not supported (skipped)", util_format_short_name(info->src.format));
		return;
	} else {
		blit_color(info);
	}
	dst->generation++;
}

void ulpsim_init_draw_functions(struct pipe_context *pipe)
{
	pipe->draw_vbo = draw_vbo;
	pipe->clear = clear;
	pipe->clear_render_target = clear_render_target;
	pipe->clear_depth_stencil = clear_depth_stencil;
	pipe->resource_copy_region = resource_copy_region;
	pipe->blit = blit;
}
