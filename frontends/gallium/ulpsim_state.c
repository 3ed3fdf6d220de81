/* Gallium state as the session's commands, and pipe resources as the
 * session's buffers, textures and render targets (ulpsim_context.h). */
#include "frontends/gallium/ulpsim_context.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gl/gl_prims.h"
#include "traces/gl/gl_state.h"
#include "traces/gl/gl_zs.h"
#include "units/gr3d/zs.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

/* ---- commands ---- */

bool ulpsim_cmd(struct ulpsim_context *c, cJSON *cmd)
{
	if (!cmd)
		return false;
	if (getenv("ULPSIM_GL_DUMP_COMMANDS")) {    /* debugging: the session's commands on stderr */
		char *text = cJSON_PrintUnformatted(cmd);
		fprintf(stderr, "ulpsim: %s\n", text ? text : "?");
		free(text);
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = c->s && replay_session_command(c->s, cmd, &d);
	if (c->cap && c->s)
		replay_capture_command(c->cap, cmd, ok);
	if (!ok && c->s) {
		/* the message without its "$.commands[i]" (the key of a note said once) */
		const char *tail = strstr(d.msg, "]");
		char key[96];
		snprintf(key, sizeof key, "%s%s", cJSON_GetStringValue(cJSON_GetObjectItem(cmd, "cmd")), tail ? tail : d.msg);
		ulpsim_note(c, key, "%s", d.msg);
	}
	cJSON_Delete(cmd);
	return ok;
}

static cJSON *command(const char *name)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "cmd", name);
	return o;
}

static cJSON *floats(const float *v, int n)
{
	return cJSON_CreateFloatArray(v, n);
}

/* ---- formats ---- */

/* The trace's name of vertex format f, NULL: not read (gl_tables.h) */
static const char *vertex_format(enum pipe_format f)
{
	const char *n = util_format_name(f);
	return ulp_gl_vertex_format(n && !strncmp(n, "PIPE_FORMAT_", 12) ? n + 12 : n);
}

/* The bytes of level `level`, layer `layer` of r, and their row stride. */
static uint8_t *level_bytes(struct pipe_resource *p, unsigned level, unsigned layer, unsigned *stride)
{
	struct ulpsim_resource *r = ulpsim_resource(p);
	*stride = r->stride[level];
	return r->data ? r->data + r->level_offset[level] + layer * r->layer_size[level] : NULL;
}

/* ---- uploads: pipe resources the session holds a copy of ---- */

void ulpsim_release_uploads(struct ulpsim_context *c)
{
	for (unsigned k = 0; k < ULPSIM_UPLOADS; k++)
		pipe_resource_reference(&c->up[k].res, NULL);
}

bool ulpsim_upload_user(struct ulpsim_context *c, const char *id, const void *bytes, size_t len)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	if (replay_session_buffer(c->s, id, bytes, len, &d)) {
		if (c->cap)
			replay_capture_buffer(c->cap, id, bytes, len);
		return true;
	}
	ulpsim_note(c, "user-upload", "%s", d.msg);
	return false;
}

/* Texture levels first..last of r into the session (as resource id). */
static bool upload_texture(struct ulpsim_context *c, const char *id, struct pipe_resource *r, unsigned first,
                           unsigned last)
{
	const ulp_gl_format *f = ulpsim_format_lookup(r->format);
	const bool native = f && f->tex >= 0;
	if (!native && (util_format_is_depth_or_stencil(r->format) || util_format_is_compressed(r->format))) {
		ulpsim_note(c, NULL, "textures of format %s are not modelled: draws sampling them are skipped",
		            util_format_short_name(r->format));
		return false;
	}
	const enum trace_texfmt tf = native ? (enum trace_texfmt)f->tex : TRACE_RGBA8888;
	/* Z24S8 / Z24X8 sampled as D16: the depth's top 16 bits (gl_tables.c) */
	const bool z24 = native && f->z24_as_d16;
	if (getenv("ULPSIM_GL_DUMP_COMMANDS"))
		fprintf(stderr, "ulpsim: texture %s: %s %ux%u levels %u..%u as trace format %d\n", id,
		        util_format_short_name(r->format), r->width0, r->height0, first, last, (int)tf);
	const unsigned bpp = z24 ? 2 : native ? util_format_get_blocksize(r->format) : 4;
	unsigned nlevels = last - first + 1;
	if (nlevels > TRACE_TEX_LEVELS)
		nlevels = TRACE_TEX_LEVELS;
	const unsigned w0 = u_minify(r->width0, first), h0 = u_minify(r->height0, first);
	size_t len = 0;
	for (unsigned l = 0; l < nlevels; l++)
		len += (size_t)u_minify(w0, l) * u_minify(h0, l) * bpp;
	uint8_t *bytes = malloc(len ? len : 1), *o = bytes;
	if (!bytes)
		return false;
	for (unsigned l = 0; l < nlevels; l++) {
		const unsigned w = u_minify(w0, l), h = u_minify(h0, l);
		unsigned stride;
		const uint8_t *src = level_bytes(r, first + l, 0, &stride);
		if (!src)
			memset(o, 0, (size_t)w * h * bpp);
		else if (z24)
			ulp_gl_z24_as_d16(src, stride, w, h, o);
		else if (native)
			for (unsigned y = 0; y < h; y++)
				memcpy(o + (size_t)y * w * bpp, src + (size_t)y * stride, (size_t)w * bpp);
		else
			util_format_unpack_rgba_8unorm_rect(r->format, o, w * 4, src, stride, w, h);
		if (native && f->no_alpha)             /* X8: alpha reads as 1 */
			for (size_t k = 3; k < (size_t)w * h * 4; k += 4)
				o[k] = 255;
		o += (size_t)w * h * bpp;
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = replay_session_texture(c->s, id, tf, h0 == 1 && r->target == PIPE_TEXTURE_1D ? TRACE_TEX_1D
	                                 : TRACE_TEX_2D, w0, h0, nlevels, bytes, len, &d);
	if (!ok)
		ulpsim_note(c, "texture-upload", "%s", d.msg);
	else if (c->cap)
		replay_capture_texture(c->cap, id, tf, h0 == 1 && r->target == PIPE_TEXTURE_1D ? TRACE_TEX_1D : TRACE_TEX_2D,
		                       w0, h0, nlevels, bytes, len);
	free(bytes);
	return ok;
}

struct ulpsim_upload *ulpsim_upload(struct ulpsim_context *c, struct pipe_resource *r, unsigned first_level,
                                    unsigned last_level)
{
	struct ulpsim_upload *u = NULL, *lru = NULL;
	for (unsigned k = 0; k < ULPSIM_UPLOADS && !u; k++) {
		struct ulpsim_upload *e = &c->up[k];
		if (e->res == r && e->first_level == first_level && e->last_level == last_level)
			u = e;
		else if (!e->res && (!lru || lru->res))
			lru = e;
		else if (e->res && e->used != c->draws && (!lru || (lru->res && e->used < lru->used)))
			lru = e;
	}
	const uint64_t gen = ulpsim_resource(r)->generation;
	if (u && u->generation == gen) {
		u->used = c->draws;
		return u;
	}
	if (!u) {
		if (!lru) {
			ulpsim_note(c, "uploads-full", "more than %d resources in one draw", ULPSIM_UPLOADS);
			return NULL;
		}
		u = lru;
		pipe_resource_reference(&u->res, r);
		u->first_level = first_level;
		u->last_level = last_level;
		snprintf(u->id, sizeof u->id, "u%u", (unsigned)(u - c->up));
	}
	bool ok;
	if (r->target == PIPE_BUFFER) {
		ulp_diag d;
		ulp_diag_clear(&d);
		const struct ulpsim_resource *ur = ulpsim_resource(r);
		ok = ur->data && replay_session_buffer(c->s, u->id, ur->data, r->width0, &d);
		if (ok && c->cap)
			replay_capture_buffer(c->cap, u->id, ur->data, r->width0);
		if (!ok)
			ulpsim_note(c, "buffer-upload", "a buffer of %u bytes: %s", r->width0, d.msg);
	} else {
		ok = upload_texture(c, u->id, r, first_level, last_level);
	}
	if (!ok) {
		pipe_resource_reference(&u->res, NULL);
		return NULL;
	}
	u->generation = gen;
	u->used = c->draws;
	return u;
}

/* ---- render targets between the surfaces and the session ---- */

static unsigned real_cbufs(const struct ulpsim_context *c)
{
	unsigned n = 0;
	while (n < c->fb.nr_cbufs && c->fb.cbufs[n])
		n++;
	return n;
}

static void copy_cbuf(struct ulpsim_context *c, unsigned k, bool in)
{
	struct pipe_surface *sf = c->fb.cbufs[k];
	ulp_image *img = replay_session_cbuf(c->s, k, NULL);
	unsigned stride;
	uint8_t *mem = level_bytes(sf->texture, sf->u.tex.level, sf->u.tex.first_layer, &stride);
	if (!img || !mem)
		return;
	const unsigned w = MIN2(img->width, sf->width), h = MIN2(img->height, sf->height);
	if (in) {
		util_format_unpack_rgba_8unorm_rect(sf->format, img->rgba, img->width * 4, mem, stride, w, h);
	} else {
		util_format_write_4ub(sf->format, img->rgba, img->width * 4, mem, stride, 0, 0, w, h);
		ulpsim_resource(sf->texture)->generation++;
	}
	c->cbuf_gen[k] = ulpsim_resource(sf->texture)->generation;
}

static void copy_zs(struct ulpsim_context *c, bool in)
{
	struct pipe_surface *sf = c->fb.zsbuf;
	zs_surface *zs = replay_session_zs(c->s);
	unsigned stride;
	uint8_t *mem = level_bytes(sf->texture, sf->u.tex.level, sf->u.tex.first_layer, &stride);
	if (!zs || !mem)
		return;
	const enum ulp_gl_zs_mem f = sf->format == PIPE_FORMAT_Z16_UNORM ? ULP_GL_Z16
	                           : sf->format == PIPE_FORMAT_Z24_UNORM_S8_UINT ? ULP_GL_Z24S8 : ULP_GL_Z24X8;
	ulp_gl_zs_copy(zs, mem, stride, MIN2(zs->width, sf->width), MIN2(zs->height, sf->height), f, in);
	if (!in)
		ulpsim_resource(sf->texture)->generation++;
	c->zs_gen = ulpsim_resource(sf->texture)->generation;
}

void ulpsim_write_back(struct ulpsim_context *c)
{
	if (!c->s || !c->fb_ok)
		return;
	for (unsigned k = 0; k < real_cbufs(c); k++)
		copy_cbuf(c, k, false);
	if (c->fb.zsbuf)
		copy_zs(c, false);
}

/* The framebuffer command: colour buffers in the surfaces' formats (a
 * stand-in RGBA8888 one when only depth is bound), the depth surface. */
static bool emit_framebuffer(struct ulpsim_context *c)
{
	c->fb_ok = false;
	const unsigned n = real_cbufs(c);
	if (n < c->fb.nr_cbufs)
		ulpsim_note(c, "cbuf-gap", "colour buffers after an unbound one are not drawn");
	if (!c->fb.width || !c->fb.height || c->fb.width > 4096 || c->fb.height > 4096)
		return false;
	cJSON *cmd = command("framebuffer");
	cJSON_AddNumberToObject(cmd, "width", c->fb.width);
	cJSON_AddNumberToObject(cmd, "height", c->fb.height);
	cJSON *cb = cJSON_AddArrayToObject(cmd, "cbufs");
	for (unsigned k = 0; k < (n ? n : 1); k++) {
		const ulp_gl_format *f = n ? ulpsim_format_lookup(c->fb.cbufs[k]->format) : NULL;
		if (n && (!f || !f->rt)) {
			ulpsim_note(c, NULL, "render targets of format %s are not modelled: draws are skipped",
			            util_format_short_name(c->fb.cbufs[k]->format));
			cJSON_Delete(cmd);
			return false;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "format", n ? f->rt : "RGBA8888");
		cJSON_AddItemToArray(cb, o);
	}
	if (c->fb.zsbuf) {
		const ulp_gl_format *f = ulpsim_format_lookup(c->fb.zsbuf->format);
		if (!f || !f->zs) {
			ulpsim_note(c, NULL, "depth buffers of format %s are not modelled: draws are skipped",
			            util_format_short_name(c->fb.zsbuf->format));
			cJSON_Delete(cmd);
			return false;
		}
		cJSON *z = cJSON_AddObjectToObject(cmd, "zsbuf");
		cJSON_AddStringToObject(z, "format", f->zs);
	}
	/* a window-system surface is drawn y-down (Gallium): its memory row 0 is
	 * the screen's top, which images and captures present (trace-format.md) */
	if (n && (c->fb.cbufs[0]->texture->bind & (PIPE_BIND_DISPLAY_TARGET | PIPE_BIND_SCANOUT | PIPE_BIND_SHARED)))
		cJSON_AddStringToObject(cmd, "origin", "upper-left");
	if (!ulpsim_cmd(c, cmd))
		return false;
	memset(c->cbuf_fresh, 0, sizeof c->cbuf_fresh);
	c->zs_fresh = false;
	c->fb_ok = true;
	/* the framebuffer command sets the default viewport and depth state */
	c->dirty |= ULPSIM_DIRTY_VIEWPORT | ULPSIM_DIRTY_DSA;
	return true;
}

/* Render targets the CPU wrote since the session's copy (or new ones). */
static void copy_in(struct ulpsim_context *c)
{
	bool wrote = false;
	for (unsigned k = 0; k < real_cbufs(c); k++) {
		const uint64_t gen = ulpsim_resource(c->fb.cbufs[k]->texture)->generation;
		if (!c->cbuf_fresh[k] || gen != c->cbuf_gen[k]) {
			copy_cbuf(c, k, true);
			wrote = true;
		}
		c->cbuf_fresh[k] = true;
	}
	if (c->fb.zsbuf) {
		const uint64_t gen = ulpsim_resource(c->fb.zsbuf->texture)->generation;
		if (!c->zs_fresh || gen != c->zs_gen) {
			copy_zs(c, true);
			wrote = true;
		}
		c->zs_fresh = true;
	}
	if (wrote && c->cap)              /* a CPU write (a clear, a blit): into the capture */
		replay_capture_targets(c->cap, c->s);
}

void ulpsim_sync_targets(struct ulpsim_context *c)
{
	if (!c->s || !c->cap || !c->fb.width)
		return;
	if ((c->dirty & ULPSIM_DIRTY_FB) || !c->fb_ok) {
		c->dirty &= ~ULPSIM_DIRTY_FB;
		if (!emit_framebuffer(c))
			return;
	}
	copy_in(c);
}

/* ---- state commands ---- */

/* The state commands: the Gallium states in traces/gl/gl_state.h's terms. */
static cJSON *blend_cmd(const struct ulpsim_context *c)
{
	const struct pipe_rt_blend_state *b = &c->blend->rt[0];
	ulp_gl_blend g = { .enable = b->blend_enable, .rgb_func = b->rgb_func, .alpha_func = b->alpha_func,
		.rgb_src = b->rgb_src_factor, .rgb_dst = b->rgb_dst_factor,
		.alpha_src = b->alpha_src_factor, .alpha_dst = b->alpha_dst_factor, .colormask = b->colormask };
	memcpy(g.color, c->blend_color.color, sizeof g.color);
	return ulp_gl_blend_cmd(&g);
}

static cJSON *dsa_cmd(const struct ulpsim_context *c)
{
	const struct pipe_depth_stencil_alpha_state *s = c->dsa;
	ulp_gl_dsa g = { .depth_enabled = s->depth_enabled, .depth_writemask = s->depth_writemask,
		.depth_func = s->depth_func };
	for (int k = 0; k < 2; k++) {
		const struct pipe_stencil_state *t = &s->stencil[k];
		g.stencil[k] = (ulp_gl_stencil){ .enabled = t->enabled, .func = t->func,
			.ref = c->stencil_ref.ref_value[k], .valuemask = t->valuemask, .writemask = t->writemask,
			.fail_op = t->fail_op, .zfail_op = t->zfail_op, .zpass_op = t->zpass_op };
	}
	return ulp_gl_dsa_cmd(&g, c->fb.zsbuf != NULL);
}

static cJSON *rast_cmd(const struct ulpsim_context *c)
{
	const struct pipe_rasterizer_state *r = c->rast;
	const ulp_gl_rast g = { .cull_face = r->cull_face, .front_ccw = r->front_ccw, .scissor = r->scissor,
		.flatshade = r->flatshade, .two_side = r->light_twoside, .clip_plane_enable = r->clip_plane_enable };
	return ulp_gl_rast_cmd(&g, c->wide);
}

static cJSON *sampler_cmd(unsigned index, const struct pipe_sampler_state *s)
{
	const ulp_gl_sampler g = { .min_filter = s->min_img_filter, .mag_filter = s->mag_img_filter,
		.mip_filter = s->min_mip_filter, .wrap_s = s->wrap_s, .wrap_t = s->wrap_t,
		.compare = s->compare_mode == PIPE_TEX_COMPARE_R_TO_TEXTURE, .compare_func = s->compare_func,
		.lod_bias = s->lod_bias };
	return ulp_gl_sampler_cmd(index, &g);
}

/* The textures of the bound sampler views. */
static bool emit_textures(struct ulpsim_context *c)
{
	for (unsigned k = 0; k < ULPSIM_SAMPLERS; k++) {
		struct pipe_sampler_view *v = c->view[k];
		if (!v || !v->texture)
			continue;
		struct pipe_resource *r = v->texture;
		if (r->target != PIPE_TEXTURE_2D && r->target != PIPE_TEXTURE_RECT && r->target != PIPE_TEXTURE_1D) {
			ulpsim_note(c, "tex-target", "only 1D and 2D textures are sampled: draws with others are skipped");
			return false;
		}
		const unsigned first = MIN2(v->u.tex.first_level, r->last_level);
		const unsigned last = MIN2(MAX2(v->u.tex.last_level, first), r->last_level);
		struct ulpsim_upload *u = ulpsim_upload(c, r, first, last);
		if (!u)
			return false;
		cJSON *cmd = command("sampler_view");
		cJSON_AddNumberToObject(cmd, "index", k);
		cJSON_AddStringToObject(cmd, "resource", u->id);
		static const char SWZ[] = "rgba01";                 /* ORDER: PIPE_SWIZZLE_X .. _1 */
		const unsigned sw[4] = { v->swizzle_r, v->swizzle_g, v->swizzle_b, v->swizzle_a };
		char s[5] = "rgba";
		for (int ch = 0; ch < 4; ch++)
			s[ch] = sw[ch] < 6 ? SWZ[sw[ch]] : SWZ[ch];
		if (strcmp(s, "rgba"))
			cJSON_AddStringToObject(cmd, "swizzle", s);
		if (!ulpsim_cmd(c, cmd))
			return false;
		if (c->sampler[k] && !ulpsim_cmd(c, sampler_cmd(k, c->sampler[k])))
			return false;
	}
	return true;
}

/* The vertex elements over the session's copies of the vertex buffers. */
static bool emit_vertex_elements(struct ulpsim_context *c)
{
	const struct ulpsim_velems *ve = c->velems;
	cJSON *cmd = command("vertex_elements");
	cJSON *arr = cJSON_AddArrayToObject(cmd, "elements");
	if (!ve || !ve->n) {
		/* a vertex shader that reads no attribute (gl_Position from
		 * constants): one element nobody reads, a zero vec4 of stride 0 */
		static const float ZERO[4];
		if (!ulpsim_upload_user(c, "zero", ZERO, sizeof ZERO)) {
			cJSON_Delete(cmd);
			return false;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "buffer", "zero");
		cJSON_AddNumberToObject(o, "offset", 0);
		cJSON_AddNumberToObject(o, "stride", 0);
		cJSON_AddStringToObject(o, "format", "R32G32B32A32_FLOAT");
		cJSON_AddItemToArray(arr, o);
		return ulpsim_cmd(c, cmd);
	}
	bool ok = true;
	for (unsigned k = 0; ok && k < ve->n && k < 16; k++) {
		const struct pipe_vertex_element *el = &ve->el[k];
		const struct pipe_vertex_buffer *vb = el->vertex_buffer_index < c->nvb ? &c->vb[el->vertex_buffer_index]
		                                                                      : NULL;
		const char *fmt = vertex_format((enum pipe_format)el->src_format);
		if (!vb || vb->is_user_buffer || !vb->buffer.resource || !fmt) {
			ulpsim_note(c, NULL, "vertex element %u: %s: draws with it are skipped", k,
			            !fmt ? "a format the vertex fetch does not read" : "no vertex buffer");
			ok = false;
			break;
		}
		struct ulpsim_upload *u = ulpsim_upload(c, vb->buffer.resource, 0, 0);
		if (!u) {
			ok = false;
			break;
		}
		if (el->instance_divisor)
			ulpsim_note(c, "instancing", "instanced attributes read instance 0 (no instancing)");
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "buffer", u->id);
		cJSON_AddNumberToObject(o, "offset", (double)vb->buffer_offset + el->src_offset);
		cJSON_AddNumberToObject(o, "stride", el->instance_divisor ? 0 : MIN2(vb->stride, 4096));
		cJSON_AddStringToObject(o, "format", fmt);
		cJSON_AddItemToArray(arr, o);
	}
	if (!ok) {
		cJSON_Delete(cmd);
		return false;
	}
	return ulpsim_cmd(c, cmd);
}

/* CONST[0] of a stage: what its constant buffer holds, as f32 numbers. */
static bool emit_constants(struct ulpsim_context *c, bool fragment)
{
	const struct pipe_constant_buffer *cb = &c->cb[fragment];
	const uint8_t *bytes = cb->user_buffer;
	if (!bytes && cb->buffer) {
		const struct ulpsim_resource *r = ulpsim_resource(cb->buffer);
		bytes = r->data ? r->data + cb->buffer_offset : NULL;
	}
	unsigned nvec = cb->buffer_size / 16;
	const struct ulpsim_shader *sh = fragment ? c->fs : c->vs;
	if (nvec > sh->nconst)                      /* what it declares: the compiler's immediates follow */
		nvec = sh->nconst;
	if (!fragment && nvec > 96)
		nvec = 96;                              /* the PICA200's 96 float uniforms (caps) */
	if (nvec > 4096)
		nvec = 4096;
	if (!bytes || !nvec)
		return true;
	float *v = malloc(nvec * 16);
	if (!v)
		return false;
	memcpy(v, bytes, nvec * 16);
	cJSON *cmd = command("constant_buffer");
	cJSON_AddStringToObject(cmd, "stage", fragment ? "fragment" : "vertex");
	cJSON_AddNumberToObject(cmd, "index", 0);
	cJSON_AddItemToObject(cmd, "f32", floats(v, (int)nvec * 4));
	free(v);
	return ulpsim_cmd(c, cmd);
}

/* What the expanding geometry shader is made for with the bound state
 * (traces/gl/gl_prims.h); false when the vertex shader's outputs are not
 * known (noted). */
static bool wide_expand(struct ulpsim_context *c, ulp_gl_expand *e)
{
	const struct pipe_rasterizer_state *r = c->rast;
	memset(e, 0, sizeof *e);
	e->what = c->wide == ULPSIM_WIDE_POINTS ? ULP_GL_POINTS : ULP_GL_LINES;
	e->fs = c->fs->has_inputs ? &c->fs->inputs : NULL;
	e->clip = r->clip_plane_enable != 0;
	e->two_side = r->light_twoside;
	e->psize = r->point_size_per_vertex;
	/* Gallium's sprite_coord_enable names GENERIC indices (PIPE_CAP_TGSI_TEXCOORD is 0) */
	e->sprite = r->point_quad_rasterization ? r->sprite_coord_enable : 0;
	uint16_t mapped;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (replay_session_vs_outputs(c->s, c->vs->id, &e->mask, &mapped, e->sem, e->index, &d))
		return true;
	ulpsim_note(c, NULL, "%s of vertex shader %s are not drawn: %s", e->what == ULP_GL_LINES ? "lines" : "points",
	            c->vs->id, d.msg);
	return false;
}

/* The session's id of the GS for the bound state (see ulpsim_shader). */
static void wide_id(struct ulpsim_context *c, const ulp_gl_expand *e, char *id, size_t n)
{
	char key[40];
	ulp_gl_expand_key(e, key, sizeof key);
	snprintf(id, n, "%s.%s", c->vs->id, key);
}

/* The geometry shader expanding the bound vertex shader's points or lines
 * into quads, made when the bound state asks for one not made; its id in
 * id. */
static bool wide_gs(struct ulpsim_context *c, char *id, size_t n)
{
	struct ulpsim_shader *vs = c->vs;
	const int w = c->wide == ULPSIM_WIDE_POINTS ? 0 : 1;
	ulp_gl_expand e;
	if (!wide_expand(c, &e))
		return false;
	wide_id(c, &e, id, n);
	if (!strcmp(vs->wide_id[w], id))
		return vs->wide_ok[w] > 0;
	if (vs->wide_ok[w] > 0) {            /* the one made for other state */
		replay_session_remove_shader(c->s, vs->wide_id[w]);
		if (c->cap)
			replay_capture_remove_shader(c->cap, vs->wide_id[w]);
	}
	snprintf(vs->wide_id[w], sizeof vs->wide_id[w], "%s", id);
	vs->wide_ok[w] = -1;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (ulp_gl_wide_gs(c->s, c->cap, &e, id, &d))
		vs->wide_ok[w] = 1;
	if (vs->wide_ok[w] < 0)
		ulpsim_note(c, NULL, "%s of vertex shader %s are not drawn: %s", w ? "lines" : "points", vs->id, d.msg);
	return vs->wide_ok[w] > 0;
}

/* CONST[0] of the expanding geometry shader: the point size or the line
 * width (the rasterizer's) over the viewport, the point size range, the
 * sprite coordinates' origin. */
static bool emit_wide_constants(struct ulpsim_context *c)
{
	const struct pipe_rasterizer_state *r = c->rast;
	if (c->wide == ULPSIM_WIDE_LINES && r->line_stipple_enable)
		ulpsim_note(c, "stipple", "line stipple is not modelled (lines are drawn solid)");
	if ((c->wide == ULPSIM_WIDE_LINES && r->line_smooth) || (c->wide == ULPSIM_WIDE_POINTS && r->point_smooth))
		ulpsim_note(c, "smooth", "smooth (antialiased) points and lines are drawn aliased");
	float k[4 * ULP_GL_EXPAND_CONSTS];
	const ulp_gl_expand_state st = {
		.size = c->wide == ULPSIM_WIDE_POINTS ? r->point_size : r->line_width,
		.vp_scale = { c->viewport.scale[0], c->viewport.scale[1] },
		.size_min = 1, .size_max = ULP_GL_WIDE_MAX,
		.sprite_upper_left = r->sprite_coord_mode == PIPE_SPRITE_COORD_UPPER_LEFT,
	};
	ulp_gl_expand_consts(&st, k);
	cJSON *cmd = command("constant_buffer");
	cJSON_AddStringToObject(cmd, "stage", "geometry");
	cJSON_AddNumberToObject(cmd, "index", 0);
	cJSON_AddItemToObject(cmd, "f32", floats(k, 4 * ULP_GL_EXPAND_CONSTS));
	return ulpsim_cmd(c, cmd);
}

bool ulpsim_emit_state(struct ulpsim_context *c)
{
	if (!c->s)
		return false;
	if (!c->vs || !c->fs || !c->vs->valid || !c->fs->valid || !c->blend || !c->dsa || !c->rast)
		return false;                            /* said when the shader was made */
	if (c->rast->cull_face == PIPE_FACE_FRONT_AND_BACK && !c->wide)
		return false;                            /* every triangle culled */
	if ((c->dirty & ULPSIM_DIRTY_FB) || !c->fb_ok) {
		c->dirty &= ~ULPSIM_DIRTY_FB;
		if (!emit_framebuffer(c))
			return false;
	}
	copy_in(c);
	if (c->wide && !(c->dirty & ULPSIM_DIRTY_SHADERS)) {
		/* the fragment shader's inputs and the rasterizer choose the GS */
		ulp_gl_expand e;
		char id[sizeof c->vs->wide_id[0]];
		if (!wide_expand(c, &e))
			return false;
		wide_id(c, &e, id, sizeof id);
		if (strcmp(id, c->vs->wide_id[c->wide == ULPSIM_WIDE_POINTS ? 0 : 1]))
			c->dirty |= ULPSIM_DIRTY_SHADERS;
	}
	if (c->dirty & ULPSIM_DIRTY_SHADERS) {
		cJSON *cmd = command("bind_shaders");
		char vs[sizeof c->vs->id + 1];
		snprintf(vs, sizeof vs, "%s%s", c->vs->id, c->vs->has_clamped && c->rast->clamp_vertex_color ? "c" : "");
		cJSON_AddStringToObject(cmd, "vs", vs);
		char gs[sizeof c->vs->wide_id[0]];
		if (c->wide && !wide_gs(c, gs, sizeof gs)) {
			cJSON_Delete(cmd);
			return false;
		}
		if (c->wide)
			cJSON_AddStringToObject(cmd, "gs", gs);
		cJSON_AddStringToObject(cmd, "fs", c->fs->id);
		if (!ulpsim_cmd(c, cmd))
			return false;
		c->dirty &= ~ULPSIM_DIRTY_SHADERS;
	}
	if (!emit_constants(c, false) || !emit_constants(c, true) || (c->wide && !emit_wide_constants(c)))
		return false;
	if ((c->dirty & ULPSIM_DIRTY_BLEND) && !ulpsim_cmd(c, blend_cmd(c)))
		return false;
	if ((c->dirty & ULPSIM_DIRTY_DSA) && !ulpsim_cmd(c, dsa_cmd(c)))
		return false;
	if ((c->dirty & ULPSIM_DIRTY_RAST) && !ulpsim_cmd(c, rast_cmd(c)))
		return false;
	if (c->dirty & ULPSIM_DIRTY_VIEWPORT) {
		cJSON *cmd = command("viewport");
		cJSON_AddItemToObject(cmd, "scale", floats(c->viewport.scale, 3));
		cJSON_AddItemToObject(cmd, "translate", floats(c->viewport.translate, 3));
		if (!ulpsim_cmd(c, cmd))
			return false;
	}
	if (c->dirty & ULPSIM_DIRTY_SCISSOR) {
		cJSON *cmd = command("scissor");
		const unsigned v[4] = { c->scissor.minx, c->scissor.miny, c->scissor.maxx, c->scissor.maxy };
		static const char *const K[4] = { "minx", "miny", "maxx", "maxy" };
		for (int k = 0; k < 4; k++)
			cJSON_AddNumberToObject(cmd, K[k], MIN2(v[k], 4096));
		if (!ulpsim_cmd(c, cmd))
			return false;
	}
	if ((c->dirty & ULPSIM_DIRTY_CLIP) && c->rast->clip_plane_enable) {
		cJSON *cmd = command("clip");
		cJSON_AddItemToObject(cmd, "planes", floats(&c->clip.ucp[0][0], 32));
		if (!ulpsim_cmd(c, cmd))
			return false;
		c->dirty &= ~ULPSIM_DIRTY_CLIP;
	}
	c->dirty &= ULPSIM_DIRTY_CLIP;
	return emit_textures(c) && emit_vertex_elements(c);
}
