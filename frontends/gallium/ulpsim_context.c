/* The driver's pipe_context: CSOs, state setters, surfaces, sampler views,
 * queries, flush (ulpsim_context.h). */
#include "frontends/gallium/ulpsim_context.h"
#include "traces/gl/gl_run.h"
#include "traces/gl/gl_state.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgsi/tgsi_dump.h"
#include "util/u_atomic.h"
#include "util/u_framebuffer.h"
#include "util/u_helpers.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"
#include "util/u_process.h"
#include "util/u_upload_mgr.h"

void ulpsim_note(struct ulpsim_context *c, const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const char *k = key ? key : msg;
	for (unsigned i = 0; i < c->nnotes; i++)
		if (!strncmp(c->note[i], k, sizeof c->note[i] - 1))
			return;
	if (c->nnotes < ULPSIM_NOTES)
		snprintf(c->note[c->nnotes++], sizeof c->note[0], "%s", k);
	fprintf(stderr, "ulpsim: %s\n", msg);
}

/* ---- the simulator's configuration (ULPSIM_GL_SET, ULPSIM_GL_CONFIG) ---- */

static void load_config(ulp_config *cfg)
{
	ulp_config_defaults(cfg);
	ulp_diag d;
	ulp_diag_clear(&d);
	const char *file = getenv(ULPSIM_ENV_CONFIG);
	if (file && *file && !ulp_config_load(cfg, file, &d))
		fprintf(stderr, "ulpsim: %s: %s (the defaults are used)\n", ULPSIM_ENV_CONFIG, d.msg);
	const char *set = getenv(ULPSIM_ENV_SET);
	char *list = set ? strdup(set) : NULL;
	for (char *save = NULL, *kv = list ? strtok_r(list, ";", &save) : NULL; kv; kv = strtok_r(NULL, ";", &save)) {
		ulp_diag_clear(&d);
		bool ok = !strncmp(kv, "preset=", 7) ? ulp_config_preset(cfg, kv + 7, &d) : ulp_config_set(cfg, kv, &d);
		if (!ok)
			fprintf(stderr, "ulpsim: %s: %s: %s (ignored)\n", ULPSIM_ENV_SET, kv, d.msg);
	}
	free(list);
}

/* ---- capture (ULPSIM_GL_CAPTURE: traces/replay/capture.h) ---- */

static void open_capture(struct ulpsim_context *c)
{
	const char *dir = getenv(ULPSIM_ENV_CAPTURE);
	if (!dir || !*dir || !c->s)
		return;
	replay_capture_opts o = { .dir = dir, .first = 0, .last = UINT_MAX, .gpu = getenv(ULPSIM_ENV_CAPTURE_GPU),
	                          .name = util_get_process_name() };
	const char *frames = getenv(ULPSIM_ENV_CAPTURE_FRAMES);
	if (frames && *frames && sscanf(frames, "%u-%u", &o.first, &o.last) == 1)
		o.last = o.first;
	ulp_diag d;
	ulp_diag_clear(&d);
	c->cap = replay_capture_open(&o, &d);
	if (!c->cap)
		fprintf(stderr, "ulpsim: %s: %s (nothing is captured)\n", ULPSIM_ENV_CAPTURE, d.msg);
}

void ulpsim_capture_frame(struct ulpsim_context *c, unsigned n)
{
	if (!c->cap || !c->s)
		return;
	ulp_diag d;
	ulp_diag_clear(&d);
	bool written;
	if (!c->cap_named) {              /* the screen's first presenting context writes frame-NNNN, */
		struct ulpsim_screen *scr = ulpsim_screen(c->base.screen);   /* the K-th other ctxK-frame-NNNN */
		replay_capture_set_context(c->cap, (unsigned)p_atomic_inc_return(&scr->captures) - 1);
		c->cap_named = true;
	}
	ulpsim_sync_targets(c);           /* a frame that ends in a clear ends with it */
	if (!replay_capture_frame(c->cap, c->s, n, c->res.cycles, &written, &d))
		fprintf(stderr, "ulpsim: capture: %s\n", d.msg);
}

/* ---- CSOs ---- */

static void *create_blend(struct pipe_context *pipe, const struct pipe_blend_state *s)
{
	(void)pipe;
	return mem_dup(s, sizeof *s);
}

static void bind_blend(struct pipe_context *pipe, void *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->blend = s;
	c->dirty |= ULPSIM_DIRTY_BLEND;
}

static void *create_dsa(struct pipe_context *pipe, const struct pipe_depth_stencil_alpha_state *s)
{
	(void)pipe;
	return mem_dup(s, sizeof *s);
}

static void bind_dsa(struct pipe_context *pipe, void *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->dsa = s;
	c->dirty |= ULPSIM_DIRTY_DSA;
}

static void *create_rast(struct pipe_context *pipe, const struct pipe_rasterizer_state *s)
{
	(void)pipe;
	return mem_dup(s, sizeof *s);
}

static void bind_rast(struct pipe_context *pipe, void *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	const bool clamp = c->rast && c->rast->clamp_vertex_color;
	c->rast = s;
	c->dirty |= ULPSIM_DIRTY_RAST | ULPSIM_DIRTY_SCISSOR;
	if (c->rast && clamp != c->rast->clamp_vertex_color)
		c->dirty |= ULPSIM_DIRTY_SHADERS;       /* the vertex shader's clamped variant */
}

static void *create_sampler(struct pipe_context *pipe, const struct pipe_sampler_state *s)
{
	(void)pipe;
	return mem_dup(s, sizeof *s);
}

static void bind_samplers(struct pipe_context *pipe, enum pipe_shader_type shader, unsigned start, unsigned n,
                          void **s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	if (shader != PIPE_SHADER_FRAGMENT)
		return;                    /* the PICA200 vertex unit has no texture fetch (the caps say 0) */
	for (unsigned k = 0; k < n && start + k < ULPSIM_SAMPLERS; k++)
		c->sampler[start + k] = s ? s[k] : NULL;
}

static void *create_velems(struct pipe_context *pipe, unsigned n, const struct pipe_vertex_element *el)
{
	(void)pipe;
	struct ulpsim_velems *v = CALLOC_STRUCT(ulpsim_velems);
	if (v) {
		v->n = MIN2(n, PIPE_MAX_ATTRIBS);
		memcpy(v->el, el, v->n * sizeof *el);
	}
	return v;
}

static void bind_velems(struct pipe_context *pipe, void *s)
{
	ulpsim_context(pipe)->velems = s;
}

static void delete_state(struct pipe_context *pipe, void *s)
{
	(void)pipe;
	FREE(s);
}

static void *create_shader(struct pipe_context *pipe, const struct pipe_shader_state *st, enum pipe_shader_type stage)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	struct ulpsim_shader *sh = CALLOC_STRUCT(ulpsim_shader);
	if (!sh)
		return NULL;
	sh->stage = stage;
	snprintf(sh->id, sizeof sh->id, "%s%u", stage == PIPE_SHADER_VERTEX ? "vs" : "fs", ++c->shader_serial);
	if (st->type != PIPE_SHADER_IR_TGSI || !st->tokens) {
		ulpsim_note(c, "not-tgsi", "a shader that is not TGSI: draws with it are skipped");
		return sh;
	}
	size_t size = 64 * 1024;
	char *text = NULL;
	for (int tries = 0; tries < 6; tries++, size *= 2) {      /* tgsi_dump_str says when the text did not fit */
		free(text);
		text = malloc(size);
		/* FLT32 immediates as bit patterns: "%10.4f" would print 4e-9 as 0.0000 */
		if (!text || tgsi_dump_str(st->tokens, TGSI_DUMP_FLOAT_AS_HEX, text, size))
			break;
	}
	if (!text || !c->s) {
		free(text);
		return sh;
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	const ulp_gl_shader_info in = ulp_gl_shader_create(c->s, c->cap, sh->id, stage == PIPE_SHADER_VERTEX, text, &d);
	sh->valid = in.valid;
	sh->has_clamped = in.has_clamped;
	sh->nconst = in.nconst;
	if (!sh->valid)           /* a real driver refuses it at link time: said once, draws skipped */
		ulpsim_note(c, NULL, "%s shader %s cannot run on the simulated GPU: %s",
		            stage == PIPE_SHADER_VERTEX ? "vertex" : "fragment", sh->id, d.msg);
	/* the fragment program has no branches: loops are unrolled (docs/compiler.md), here to fewer
	 * iterations than the compiler's cap because no more fit */
	if (in.loop_limited)
		ulpsim_note(c, NULL, "fragment shader %s: a loop whose exit is a run-time value is unrolled %u times, "
		            "all the fragment program holds (no branches, 64 EXECs, r0..r15 and g0..g7: tegra-fp.md); "
		            "a draw that needs more iterations drops them", sh->id, in.loop_bound);
	if (stage == PIPE_SHADER_FRAGMENT)     /* what the points' and lines' GS must pass on */
		sh->has_inputs = ulp_gl_shader_inputs(text, &sh->inputs);
	if (getenv("ULPSIM_GL_DUMP_TGSI"))
		fprintf(stderr, "ulpsim: %s\n%s\n", sh->id, text);
	free(text);
	return sh;
}

static void *create_vs(struct pipe_context *pipe, const struct pipe_shader_state *st)
{
	return create_shader(pipe, st, PIPE_SHADER_VERTEX);
}

static void *create_fs(struct pipe_context *pipe, const struct pipe_shader_state *st)
{
	return create_shader(pipe, st, PIPE_SHADER_FRAGMENT);
}

static void bind_vs(struct pipe_context *pipe, void *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->vs = s;
	c->dirty |= ULPSIM_DIRTY_SHADERS;
}

static void bind_fs(struct pipe_context *pipe, void *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->fs = s;
	c->dirty |= ULPSIM_DIRTY_SHADERS;
}

static void delete_shader(struct pipe_context *pipe, void *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	struct ulpsim_shader *sh = s;
	if (c->vs == sh || c->fs == sh) {      /* still bound: forget it when the next one is bound */
		if (c->vs == sh)
			c->vs = NULL;
		if (c->fs == sh)
			c->fs = NULL;
		c->dirty |= ULPSIM_DIRTY_SHADERS;
	}
	if (c->s) {
		replay_session_remove_shader(c->s, sh->id);
		char id[sizeof sh->id + 1];
		if (c->cap)
			replay_capture_remove_shader(c->cap, sh->id);
		if (sh->has_clamped) {
			snprintf(id, sizeof id, "%sc", sh->id);
			replay_session_remove_shader(c->s, id);
			if (c->cap)
				replay_capture_remove_shader(c->cap, id);
		}
		for (int w = 0; w < 2; w++)           /* its point and line geometry shaders */
			if (sh->wide_ok[w] > 0) {
				replay_session_remove_shader(c->s, sh->wide_id[w]);
				if (c->cap)
					replay_capture_remove_shader(c->cap, sh->wide_id[w]);
			}
	}
	FREE(sh);
}

/* ---- parameters ---- */

static void set_blend_color(struct pipe_context *pipe, const struct pipe_blend_color *bc)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->blend_color = *bc;
	c->dirty |= ULPSIM_DIRTY_BLEND;
}

static void set_stencil_ref(struct pipe_context *pipe, const struct pipe_stencil_ref ref)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->stencil_ref = ref;
	c->dirty |= ULPSIM_DIRTY_DSA;
}

static void set_sample_mask(struct pipe_context *pipe, unsigned mask)
{
	(void)pipe, (void)mask;    /* one sample per pixel */
}

static void set_min_samples(struct pipe_context *pipe, unsigned n)
{
	(void)pipe, (void)n;
}

static void set_clip_state(struct pipe_context *pipe, const struct pipe_clip_state *clip)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	c->clip = *clip;
	c->dirty |= ULPSIM_DIRTY_CLIP;
}

static void set_constant_buffer(struct pipe_context *pipe, enum pipe_shader_type shader, uint index,
                                bool take_ownership, const struct pipe_constant_buffer *cb)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	if (index != 0 || (shader != PIPE_SHADER_VERTEX && shader != PIPE_SHADER_FRAGMENT)) {
		if (take_ownership && cb && cb->buffer) {
			struct pipe_resource *r = cb->buffer;
			pipe_resource_reference(&r, NULL);
		}
		return;                    /* one constant buffer per stage (the caps) */
	}
	util_copy_constant_buffer(&c->cb[shader == PIPE_SHADER_FRAGMENT], cb, take_ownership);
}

static void set_framebuffer_state(struct pipe_context *pipe, const struct pipe_framebuffer_state *fb)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	util_copy_framebuffer_state(&c->fb, fb);
	c->dirty |= ULPSIM_DIRTY_FB;
}

static void set_polygon_stipple(struct pipe_context *pipe, const struct pipe_poly_stipple *s)
{
	(void)pipe, (void)s;       /* no stipple unit: ignored */
}

static void set_scissor_states(struct pipe_context *pipe, unsigned start, unsigned n,
                               const struct pipe_scissor_state *s)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	if (start == 0 && n) {
		c->scissor = s[0];
		c->dirty |= ULPSIM_DIRTY_SCISSOR;
	}
}

static void set_viewport_states(struct pipe_context *pipe, unsigned start, unsigned n,
                                const struct pipe_viewport_state *v)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	if (start == 0 && n) {
		c->viewport = v[0];
		c->dirty |= ULPSIM_DIRTY_VIEWPORT;
	}
}

static void set_sampler_views(struct pipe_context *pipe, enum pipe_shader_type shader, unsigned start,
                              unsigned n, unsigned unbind_trailing, bool take_ownership,
                              struct pipe_sampler_view **views)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	for (unsigned k = 0; k < n + unbind_trailing; k++) {
		struct pipe_sampler_view *v = views && k < n ? views[k] : NULL;
		if (shader != PIPE_SHADER_FRAGMENT || start + k >= ULPSIM_SAMPLERS) {
			if (take_ownership && v)
				pipe_sampler_view_reference(&v, NULL);
			continue;
		}
		struct pipe_sampler_view **dst = &c->view[start + k];
		if (take_ownership) {
			pipe_sampler_view_reference(dst, NULL);
			*dst = v;
		} else {
			pipe_sampler_view_reference(dst, v);
		}
	}
}

static void set_vertex_buffers(struct pipe_context *pipe, unsigned start, unsigned n, unsigned unbind_trailing,
                               bool take_ownership, const struct pipe_vertex_buffer *vb)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	util_set_vertex_buffers_count(c->vb, &c->nvb, vb, start, n, unbind_trailing, take_ownership);
}

/* ---- sampler views, surfaces ---- */

static struct pipe_sampler_view *create_sampler_view(struct pipe_context *pipe, struct pipe_resource *res,
                                                     const struct pipe_sampler_view *templ)
{
	struct pipe_sampler_view *v = CALLOC_STRUCT(pipe_sampler_view);
	if (!v)
		return NULL;
	*v = *templ;
	pipe_reference_init(&v->reference, 1);
	v->texture = NULL;
	pipe_resource_reference(&v->texture, res);
	v->context = pipe;
	return v;
}

static void sampler_view_destroy(struct pipe_context *pipe, struct pipe_sampler_view *v)
{
	(void)pipe;
	pipe_resource_reference(&v->texture, NULL);
	FREE(v);
}

static struct pipe_surface *create_surface(struct pipe_context *pipe, struct pipe_resource *res,
                                           const struct pipe_surface *templ)
{
	struct pipe_surface *s = CALLOC_STRUCT(pipe_surface);
	if (!s)
		return NULL;
	pipe_reference_init(&s->reference, 1);
	pipe_resource_reference(&s->texture, res);
	s->context = pipe;
	s->format = templ->format;
	s->u = templ->u;
	if (res->target == PIPE_BUFFER) {
		s->width = templ->u.buf.last_element - templ->u.buf.first_element + 1;
		s->height = 1;
	} else {
		s->width = u_minify(res->width0, templ->u.tex.level);
		s->height = u_minify(res->height0, templ->u.tex.level);
	}
	return s;
}

static void surface_destroy(struct pipe_context *pipe, struct pipe_surface *s)
{
	(void)pipe;
	pipe_resource_reference(&s->texture, NULL);
	FREE(s);
}

/* ---- queries: none is supported (the caps say so); GPU_FINISHED is always done ---- */

struct ulpsim_query {
	unsigned type;
};

static struct pipe_query *create_query(struct pipe_context *pipe, unsigned type, unsigned index)
{
	(void)index;
	if (type != PIPE_QUERY_GPU_FINISHED && type != PIPE_QUERY_TIMESTAMP_DISJOINT) {
		ulpsim_note(ulpsim_context(pipe), NULL, "query type %u is not supported", type);
		return NULL;
	}
	struct ulpsim_query *q = CALLOC_STRUCT(ulpsim_query);
	if (q)
		q->type = type;
	return (struct pipe_query *)q;
}

static void destroy_query(struct pipe_context *pipe, struct pipe_query *q)
{
	(void)pipe;
	FREE(q);
}

static bool begin_query(struct pipe_context *pipe, struct pipe_query *q)
{
	(void)pipe, (void)q;
	return true;
}

static bool end_query(struct pipe_context *pipe, struct pipe_query *q)
{
	(void)pipe, (void)q;
	return true;
}

static bool get_query_result(struct pipe_context *pipe, struct pipe_query *q, bool wait,
                             union pipe_query_result *result)
{
	(void)pipe, (void)wait;
	const struct ulpsim_query *uq = (const struct ulpsim_query *)q;
	memset(result, 0, sizeof *result);
	if (uq->type == PIPE_QUERY_GPU_FINISHED)
		result->b = true;              /* draws finish before the call that made them returns */
	else
		result->timestamp_disjoint.disjoint = true;
	return true;
}

static void set_active_query_state(struct pipe_context *pipe, bool enable)
{
	(void)pipe, (void)enable;
}

/* ---- flush, barriers ---- */

static void flush(struct pipe_context *pipe, struct pipe_fence_handle **fence, unsigned flags)
{
	(void)flags;                       /* every draw is done when draw_vbo returns */
	if (fence)
		*fence = ulpsim_fence(pipe->screen);
}

static void texture_barrier(struct pipe_context *pipe, unsigned flags)
{
	(void)pipe, (void)flags;
}

static void memory_barrier(struct pipe_context *pipe, unsigned flags)
{
	(void)pipe, (void)flags;
}

static void flush_resource(struct pipe_context *pipe, struct pipe_resource *r)
{
	(void)pipe, (void)r;
}

static void invalidate_resource(struct pipe_context *pipe, struct pipe_resource *r)
{
	(void)pipe, (void)r;
}

/* ---- create, destroy ---- */

static void destroy(struct pipe_context *pipe)
{
	struct ulpsim_context *c = ulpsim_context(pipe);
	struct ulpsim_screen *scr = ulpsim_screen(pipe->screen);
	if (c->draws) {
		char line[256];
		snprintf(line, sizeof line, "{\"run\":1,\"draws\":%llu,\"cycles\":%llu,\"fragments\":%llu,"
		         "\"sim_seconds\":%.3f}", (unsigned long long)c->res.draws, (unsigned long long)c->res.cycles,
		         (unsigned long long)c->res.fragments, c->sim_seconds);
		ulpsim_summary_line(scr, line);
	}
	if (pipe->stream_uploader)
		u_upload_destroy(pipe->stream_uploader);
	util_unreference_framebuffer_state(&c->fb);
	for (unsigned k = 0; k < ULPSIM_SAMPLERS; k++)
		pipe_sampler_view_reference(&c->view[k], NULL);
	for (unsigned k = 0; k < ULPSIM_VBUFS; k++)
		pipe_vertex_buffer_unreference(&c->vb[k]);
	for (unsigned k = 0; k < 2; k++)
		pipe_resource_reference(&c->cb[k].buffer, NULL);
	ulpsim_release_uploads(c);
	if (c->s) {
		ulp_diag d;
		ulp_diag_clear(&d);
		replay_session_finish(c->s, &d);
		replay_session_close(c->s);
	}
	replay_capture_close(c->cap);
	if (c->out) {              /* its figures stay in the run's; stats.txt and timeline so far */
		ulp_gl_run_remove(scr->outputs, c->out);
		ulp_diag d;
		ulp_diag_clear(&d);
		if (!ulp_gl_run_write(scr->outputs, &d))
			fprintf(stderr, "ulpsim: %s\n", d.msg);
	}
	FREE(c);
}

struct pipe_context *ulpsim_context_create(struct pipe_screen *screen, void *priv, unsigned flags)
{
	(void)flags;
	struct ulpsim_context *c = CALLOC_STRUCT(ulpsim_context);
	if (!c)
		return NULL;
	load_config(&c->cfg);
	c->opts.cfg = &c->cfg;
	struct ulpsim_screen *scr = ulpsim_screen(screen);
	if (scr->outputs) {
		c->out = ulp_gl_run_add(scr->outputs, &c->cfg, &c->res);
		c->opts.tl = ulp_gl_ctx_timeline(c->out);
		if (!c->out)
			fprintf(stderr, "ulpsim: out of memory (this context is left out of the stats and timeline)\n");
	}
	replay_session_units u = { .lazy = true };
	ulp_diag d;
	ulp_diag_clear(&d);
	c->s = replay_session_open(&c->opts, &u, "gl", "", &c->res, &d);
	if (!c->s)
		fprintf(stderr, "ulpsim: %s (draws are skipped)\n", d.msg);
	open_capture(c);
	c->dirty = ULPSIM_DIRTY_ALL;
	struct pipe_context *p = &c->base;
	p->screen = screen;
	p->priv = priv;
	p->destroy = destroy;
	p->create_blend_state = create_blend;
	p->bind_blend_state = bind_blend;
	p->delete_blend_state = delete_state;
	p->create_depth_stencil_alpha_state = create_dsa;
	p->bind_depth_stencil_alpha_state = bind_dsa;
	p->delete_depth_stencil_alpha_state = delete_state;
	p->create_rasterizer_state = create_rast;
	p->bind_rasterizer_state = bind_rast;
	p->delete_rasterizer_state = delete_state;
	p->create_sampler_state = create_sampler;
	p->bind_sampler_states = bind_samplers;
	p->delete_sampler_state = delete_state;
	p->create_vertex_elements_state = create_velems;
	p->bind_vertex_elements_state = bind_velems;
	p->delete_vertex_elements_state = delete_state;
	p->create_vs_state = create_vs;
	p->bind_vs_state = bind_vs;
	p->delete_vs_state = delete_shader;
	p->create_fs_state = create_fs;
	p->bind_fs_state = bind_fs;
	p->delete_fs_state = delete_shader;
	p->set_blend_color = set_blend_color;
	p->set_stencil_ref = set_stencil_ref;
	p->set_sample_mask = set_sample_mask;
	p->set_min_samples = set_min_samples;
	p->set_clip_state = set_clip_state;
	p->set_constant_buffer = set_constant_buffer;
	p->set_framebuffer_state = set_framebuffer_state;
	p->set_polygon_stipple = set_polygon_stipple;
	p->set_scissor_states = set_scissor_states;
	p->set_viewport_states = set_viewport_states;
	p->set_sampler_views = set_sampler_views;
	p->set_vertex_buffers = set_vertex_buffers;
	p->create_sampler_view = create_sampler_view;
	p->sampler_view_destroy = sampler_view_destroy;
	p->create_surface = create_surface;
	p->surface_destroy = surface_destroy;
	p->create_query = create_query;
	p->destroy_query = destroy_query;
	p->begin_query = begin_query;
	p->end_query = end_query;
	p->get_query_result = get_query_result;
	p->set_active_query_state = set_active_query_state;
	p->flush = flush;
	p->texture_barrier = texture_barrier;
	p->memory_barrier = memory_barrier;
	p->flush_resource = flush_resource;
	p->invalidate_resource = invalidate_resource;
	ulpsim_init_context_resource_functions(p);
	ulpsim_init_draw_functions(p);
	p->stream_uploader = u_upload_create_default(p);
	if (!p->stream_uploader) {
		destroy(p);
		return NULL;
	}
	p->const_uploader = p->stream_uploader;
	return p;
}
