/* Trace replay: commands, state and checkpoints (replay_int.h, replay.h,
 * docs/replay.md). */
#include "traces/replay/replay_int.h"
#include "units/regs.h"

#include <math.h>
#include <stdlib.h>

#include "base/hosttime.h"

bool replay_fail(replay *r, size_t i, const char *fmt, const char *detail)
{
	char path[48], msg[ULP_DIAG_MSG_MAX];
	snprintf(path, sizeof path, "$.commands[%zu]", i);
	snprintf(msg, sizeof msg, "%s", fmt);
	return ulp_diag_at(r->d, r->t->path, 0, 0, "%s: %s%s", path, msg, detail ? detail : "");
}

/* Applies the stream's new writes to the register model (and dumps them,
 * each command's under a "# $.commands[i] name" line); a write of
 * DRAWARRAYS or DRAWELEMENTS runs the draw the registers describe. */
bool replay_flush(replay *r, size_t from, size_t i)
{
	if (r->stream.oom)
		return replay_fail(r, i, "out of memory", NULL);
	if (r->o->dump_commands && r->stream.n > from) {
		reg_stream tail = { r->stream.w + from, r->stream.n - from, 0, false };
		if (r->dumped_cmd != i + 1)
			fprintf(r->o->dump_commands, "# $.commands[%zu] %s\n", i, rp_str(r->cur, "cmd"));
		r->dumped_cmd = i + 1;
		reg_stream_dump(&tail, r->o->dump_commands);
	}
	for (size_t k = from; k < r->stream.n; k++) {
		const reg_write *w = &r->stream.w[k];
		ulp_diag inner;
		ulp_diag_clear(&inner);
		bool ok = w->space == REG_GR3D ? gr3d_regs_write(&r->gregs, w->reg, w->value, &inner)
		                               : pica_regs_write(&r->regs, w->reg, w->mask, w->value, &inner);
		if (!ok)
			return replay_fail(r, i, inner.msg, NULL);
		if (w->space == REG_PICA && pica_reg_is_draw(w->reg) &&
		    !replay_draw_regs(r, i, w->reg == PICA_REG_DRAWELEMENTS))
			return false;
	}
	return true;
}

/* ---- checkpoints ---- */

/* Render targets are stored memory row 0 first: the bottom row (window y
 * up, hw-expected.md) unless the framebuffer's origin is upper-left;
 * images are written top row first, as GL reads them back. */
ulp_image *replay_presented(const ulp_image *rt, bool upper_left, ulp_diag *d)
{
	ulp_image *img = ulp_image_create(rt->width, rt->height, d);
	if (img)
		for (uint32_t y = 0; y < rt->height; y++)
			memcpy(ulp_image_px(img, 0, upper_left ? y : rt->height - 1 - y), ulp_image_cpx(rt, 0, y),
			       (size_t)rt->width * 4);
	return img;
}

/* <dir>/<name>.depth.png: depth 0..1 as grey 0..255 (rounded), top row first. */
static bool save_depth_png(const zs_surface *zs, bool upper_left, const char *dir, const char *name, ulp_diag *d)
{
	ulp_image *img = ulp_image_create(zs->width, zs->height, d);
	if (!img)
		return false;
	for (uint32_t y = 0; y < zs->height; y++)
		for (uint32_t x = 0; x < zs->width; x++) {
			uint8_t v = (uint8_t)lround(zs_surface_depth(zs, x, y) * 255.0);
			uint8_t *p = ulp_image_px(img, x, upper_left ? y : zs->height - 1 - y);
			p[0] = p[1] = p[2] = v;
			p[3] = 255;
		}
	char path[1024];
	snprintf(path, sizeof path, "%s/%s.depth.png", dir, name);
	bool ok = ulp_image_save_png(img, path, d);
	ulp_image_free(img);
	return ok;
}

static void check_failed(replay *r, const char *what)
{
	if (!r->res->checks_failed++)
		snprintf(r->res->first_failure, sizeof r->res->first_failure, "%s", what);
}

static bool checkpoint(replay *r, const cJSON *c, size_t i, bool last)
{
	r->res->checkpoints++;
	if (!r->ncbufs)
		return replay_fail(r, i, "checkpoint before framebuffer", NULL);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	ulp_image *img = replay_presented(r->cbuf[0], r->upper_left, &inner);
	if (!img)
		return replay_fail(r, i, inner.msg, NULL);
	const char *name = rp_str(c, "name");
	bool ok = true;
	if (r->o->out_dir) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s.png", r->o->out_dir, name);
		ok = ulp_image_save_png(img, path, &inner);
	}
	if (ok && last && r->o->out_png)
		ok = ulp_image_save_png(img, r->o->out_png, &inner);
	if (ok && r->o->out_dir && r->zs)            /* the depth surface as grey, 0 = near, top row first */
		ok = save_depth_png(r->zs, r->upper_left, r->o->out_dir, rp_str(c, "name"), &inner);
	const char *expect = rp_str(c, "expect_image");
	if (ok && expect) {
		size_t n = strlen(r->t->dir) + strlen(expect) + 2;
		char *path = malloc(n);
		ulp_image *ref = NULL;
		if (path) {
			snprintf(path, n, "%s%s%s", expect[0] == '/' ? "" : r->t->dir,
			         expect[0] == '/' || !r->t->dir[0] ? "" : "/", expect);
			ref = ulp_image_load_png(path, &inner);
		}
		free(path);
		ulp_compare_result cmp;
		if (ref && (ref->width != img->width || ref->height != img->height))
			ulp_diag_at(&inner, NULL, 0, 0, "checkpoint '%s' is %ux%u but expect_image '%s' is %ux%u", name,
			            (unsigned)img->width, (unsigned)img->height, expect, (unsigned)ref->width,
			            (unsigned)ref->height);
		ok = ref && !inner.set && ulp_compare_images(img, ref, (unsigned)rp_num(c, "tolerance", 0), &cmp, NULL, &inner);
		if (ok && cmp.over_tolerance) {
			char what[256];
			snprintf(what, sizeof what, "checkpoint '%s': %llu pixels differ by more than %u (max %u)",
			         name, (unsigned long long)cmp.over_tolerance, cmp.tolerance, cmp.max_diff);
			check_failed(r, what);
		}
		ulp_image_free(ref);
	}
	const cJSON *ec = cJSON_GetObjectItemCaseSensitive(c, "expect_cycles");
	if (ok && ec) {
		double want = 0, pct = 0;
		if (cJSON_IsNumber(ec))
			want = ec->valuedouble;
		else if (sscanf(ec->valuestring, "%lf\xC2\xB1%lf", &want, &pct) != 2)
			sscanf(ec->valuestring, "%lf+-%lf", &want, &pct);
		double got = (double)r->res->cycles;
		if (fabs(got - want) > want * pct / 100.0) {
			char what[256];
			snprintf(what, sizeof what, "checkpoint '%s': %.0f cycles, expected %.0f \xC2\xB1%g%%",
			         name, got, want, pct);
			check_failed(r, what);
		}
	}
	ulp_image_free(img);
	char why[ULP_DIAG_MSG_MAX];
	ulp_diag_format(&inner, why, sizeof why);      /* with the file it concerns */
	return ok || replay_fail(r, i, why, NULL);
}

/* ---- commands ---- */

/* ---- depth/stencil ---- */

/* The trace's depth/stencil state and the viewport's depth range into the
 * GR3D registers (units/gr3d/gr3d_regs.h); the caller flushes the stream. */
static bool program_zs(replay *r)
{
	double a = r->st.vp_translate[2] - r->st.vp_scale[2], b = r->st.vp_translate[2] + r->st.vp_scale[2];
	double lo = fmin(a, b), hi = fmax(a, b);
	lo = lo < 0 ? 0 : lo > 1 ? 1 : lo;
	hi = hi < 0 ? 0 : hi > 1 ? 1 : hi;
	const double one = ulp_bits_ones(GR3D_F_Z_RANGE__VALUE_W);   /* QR_Z_MIN/MAX: 20-bit unorm */
	r->zsa.z_min = (uint32_t)lround(lo * one);
	r->zsa.z_max = (uint32_t)lround(hi * one);
	drv_gr3d_zs(&r->stream, &r->zsa);
	return true;
}

static uint8_t enum_index(const char *v, const char *const *names, uint8_t def)
{
	for (uint8_t k = 0; v && names[k]; k++)
		if (!strcmp(v, names[k]))
			return k;
	return def;
}

static const char *const ZS_FUNCS[] = { "never", "less", "equal", "lequal", "greater", "notequal",
	"gequal", "always", NULL };
static const char *const ZS_OPS[] = { "keep", "zero", "replace", "incr", "decr", "invert", NULL };

static bool depth_stencil_alpha(replay *r, const cJSON *c, size_t i)
{
	const cJSON *dep = cJSON_GetObjectItemCaseSensitive(c, "depth");
	const cJSON *sten = cJSON_GetObjectItemCaseSensitive(c, "stencil");
	zs_state *st = &r->zsa;
	st->z_enable = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(dep, "enabled"));
	const cJSON *wm = cJSON_GetObjectItemCaseSensitive(dep, "writemask");
	st->z_write = st->z_enable && (!wm || cJSON_IsTrue(wm));     /* Gallium: writes only when enabled */
	st->z_func = enum_index(rp_str(dep, "func"), ZS_FUNCS, ZS_LESS);
	st->s_enable = sten && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sten, "enabled"));
	/* stencil: both faces; stencil_back (two-sided stencil) for the back faces */
	const cJSON *back = cJSON_GetObjectItemCaseSensitive(c, "stencil_back");
	for (int k = 0; k < 2; k++) {
		const cJSON *sf = k && back ? back : sten;
		zs_face *f = &st->face[k];
		f->func = enum_index(rp_str(sf, "func"), ZS_FUNCS, ZS_ALWAYS);
		f->ref = (uint8_t)rp_num(sf, "ref", 0);
		f->valuemask = (uint8_t)rp_num(sf, "valuemask", 255);
		f->writemask = (uint8_t)rp_num(sf, "writemask", 255);
		f->fail_op = enum_index(rp_str(sf, "fail_op"), ZS_OPS, ZS_KEEP);
		f->zfail_op = enum_index(rp_str(sf, "zfail_op"), ZS_OPS, ZS_KEEP);
		f->zpass_op = enum_index(rp_str(sf, "zpass_op"), ZS_OPS, ZS_KEEP);
	}
	size_t from = r->stream.n;
	return program_zs(r) && replay_flush(r, from, i);
}

static bool framebuffer(replay *r, const cJSON *c, size_t i)
{
	for (unsigned k = 0; k < r->ncbufs; k++)
		ulp_image_free(r->cbuf[k]);
	r->ncbufs = 0;
	r->width = (uint32_t)rp_num(c, "width", 1);
	r->height = (uint32_t)rp_num(c, "height", 1);
	const char *origin = rp_str(c, "origin");
	r->upper_left = origin && !strcmp(origin, "upper-left");
	const cJSON *cb = cJSON_GetObjectItemCaseSensitive(c, "cbufs");
	size_t from = r->stream.n;
	for (const cJSON *it = cb ? cb->child : NULL; it && r->ncbufs < MAX_CBUFS; it = it->next) {
		uint8_t fmt;
		unsigned bpp;
		if (!replay_cbuf_format(rp_str(it, "format"), &fmt, &bpp))
			return replay_fail(r, i, "not a colour-buffer format: ", rp_str(it, "format"));
		ulp_diag inner;
		ulp_diag_clear(&inner);
		if (!(r->cbuf[r->ncbufs] = ulp_image_create(r->width, r->height, &inner)))
			return replay_fail(r, i, inner.msg, NULL);
		r->cbuf_fmt[r->ncbufs] = fmt;
		uint8_t b[4] = { 0, 0, 0, 0 };
		replay_cbuf_view(r->o->cfg, fmt, b);
		ulp_image_fill(r->cbuf[r->ncbufs], b[0], b[1], b[2], b[3]);
		drv_gr3d_rt_params(&r->stream, r->ncbufs + 1, fmt, r->width * bpp);
		reg_stream_gr3d(&r->stream, (uint16_t)GR3D_REG_AT(RT_PTR, r->ncbufs + 1), cbuf_addr(r->ncbufs));
		r->ncbufs++;
	}
	ulp_diag sw;                              /* Tegra 3: broadcast writes, the swath split */
	ulp_diag_clear(&sw);
	if (!drv_gr3d_swath(&r->stream, (unsigned)r->o->cfg->gr3d_instances,
	                    (unsigned)r->o->cfg->gr3d_swath_height, &sw))
		return replay_fail(r, i, sw.msg, NULL);
	for (unsigned k = r->ncbufs; k < MAX_CBUFS; k++)
		reg_stream_gr3d(&r->stream, (uint16_t)GR3D_REG_AT(RT_PTR, k + 1), 0);   /* unbound */
	const double vp[3] = { r->width / 2.0, r->height / 2.0, 0.5 };   /* the default viewport */
	replay_state_viewport(&r->st, &r->stream, vp, vp);
	if (!replay_flush(r, from, i))
		return false;
	const cJSON *zb = cJSON_GetObjectItemCaseSensitive(c, "zsbuf");
	bool had = r->zs != NULL;
	zs_surface_free(r->zs);
	r->zs = NULL;
	if (zb) {
		ulp_diag inner;
		ulp_diag_clear(&inner);
		r->zs = zs_surface_create(r->width, r->height, strcmp(rp_str(zb, "format"), "D16") ? ZS_D24S8 : ZS_D16,
		                          &inner);
		if (!r->zs)
			return replay_fail(r, i, inner.msg, NULL);
	}
	if (!zb && !had)
		return true;
	from = r->stream.n;
	drv_gr3d_rt_enable(&r->stream, r->ncbufs, zb != NULL);
	return program_zs(r) && replay_flush(r, from, i);
}

static bool vertex_elements(replay *r, const cJSON *c, size_t i)
{
	size_t from = r->stream.n;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (!replay_state_vertex_elements(&r->st, &r->stream, c, &inner))
		return replay_fail(r, i, inner.msg, NULL);
	return replay_flush(r, from, i);
}

static bool sampler_view(replay *r, const cJSON *c, size_t i)
{
	unsigned idx = (unsigned)rp_num(c, "index", 0) % GR3D_SAMPLERS;
	size_t from = r->stream.n;
	replay_state_sampler_view(&r->st, &r->stream, c);
	replay_view_swizzle(rp_str(c, "swizzle"), r->view_swz[idx]);
	return replay_flush(r, from, i);
}

static bool sampler(replay *r, const cJSON *c, size_t i)
{
	unsigned idx = (unsigned)rp_num(c, "index", 0) % GR3D_SAMPLERS;
	size_t from = r->stream.n;
	replay_state_sampler(&r->st, &r->stream, c, &r->shadow_cmp[idx]);
	return replay_flush(r, from, i);
}

static bool rasterizer(replay *r, const cJSON *c, size_t i)
{
	const char *cull = rp_str(c, "cull");
	r->cull = !cull || !strcmp(cull, "none") ? SETUP_CULL_NONE
	        : !strcmp(cull, "front") ? SETUP_CULL_FRONT : SETUP_CULL_BACK;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "front_ccw");
	r->front_ccw = !v || cJSON_IsTrue(v);
	r->two_side = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "two_side"));
	r->flatshade = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "flatshade"));
	r->clip_plane_enable = (uint8_t)rp_num(c, "clip_plane_enable", 0);
	size_t from = r->stream.n;
	replay_state_scissor_enable(&r->st, &r->stream, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "scissor")));
	return replay_flush(r, from, i);
}

/* Gallium's clip_state: user planes k = 0.. as a, b, c, d in a flat list. */
static bool clip_planes(replay *r, const cJSON *c)
{
	memset(r->ucp, 0, sizeof r->ucp);
	const cJSON *pl = cJSON_GetObjectItemCaseSensitive(c, "planes");
	unsigned k = 0;
	for (const cJSON *x = pl ? pl->child : NULL; x && k < 4 * CLIP_PLANES; x = x->next, k++)
		r->ucp[k / 4][k % 4] = (float)x->valuedouble;
	return true;
}


/* Colour buffer 0 changed outside a draw: the probe's snapshot. */
static void probe_snapshot(const replay *r)
{
	if (r->o->probe && r->o->probe->snapshot && r->ncbufs)
		r->o->probe->snapshot(r->o->probe->ctx, r->res->cycles, r->cbuf[0]);
}

bool replay_command(replay *r, const cJSON *c, size_t i, bool last_checkpoint)
{
	r->cur = c;
	const char *cmd = rp_str(c, "cmd");
	if (!strcmp(cmd, "framebuffer")) {
		bool ok = framebuffer(r, c, i);
		probe_snapshot(r);
		return ok;
	}
	if (!strcmp(cmd, "bind_shaders"))
		return replay_bind_vs(r, trace_find_shader(r->t, rp_str(c, "vs")), i) && replay_bind_gs(r, c, i) &&
		       replay_bind_fs(r, trace_find_shader(r->t, rp_str(c, "fs")), i);
	if (!strcmp(cmd, "vertex_elements"))
		return vertex_elements(r, c, i);
	if (!strcmp(cmd, "viewport")) {
		double sc[3], tr[3];
		for (int k = 0; k < 3; k++) {
			sc[k] = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "scale"), k)->valuedouble;
			tr[k] = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "translate"), k)->valuedouble;
		}
		size_t from = r->stream.n;
		replay_state_viewport(&r->st, &r->stream, sc, tr);
		if (r->zs || zs_active(&r->zsa))
			program_zs(r);                                /* the depth range: QR_Z_MIN/MAX */
		return replay_flush(r, from, i);
	}
	if (!strcmp(cmd, "constant_buffer")) {
		const char *stage = rp_str(c, "stage");
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(c, "f32");
		if (!f)
			return replay_fail(r, i, "constant buffers from a buffer resource are not in this build yet", NULL);
		unsigned n = (unsigned)cJSON_GetArraySize(f) / 4;
		const bool gs = strcmp(stage, "geometry") == 0;      /* the GS register block */
		if (strcmp(stage, "vertex") == 0 || gs) {
			if (n > 96)
				return replay_fail(r, i, "more than 96 vec4 constants", NULL);
			float (*v)[4] = calloc(n ? n : 1, sizeof *v);
			if (!v)
				return replay_fail(r, i, "out of memory", NULL);
			unsigned k = 0;
			for (const cJSON *x = f->child; x && k < 4 * n; x = x->next, k++)
				v[k / 4][k % 4] = (float)x->valuedouble;
			size_t from = r->stream.n;
			drv_pica_float_uniforms(&r->stream, gs, 0, (const float (*)[4])v, n);
			free(v);
			return replay_flush(r, from, i);
		}
		if (strcmp(stage, "fragment") == 0) {
			/* FP_CONST u0..u31: one FP20 word each (grate's host truncates), u_k
			 * = float fs_usrc[k] of the buffer (the bound program's layout) */
			size_t from = r->stream.n;
			int nf = cJSON_GetArraySize(f);
			for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++) {
				int src = r->fs_usrc[k];
				if (src < 0 || src >= nf)
					continue;
				const cJSON *x = cJSON_GetArrayItem(f, src);
				const uint32_t w = fp20_encode((float)x->valuedouble, ULP_ROUND_TRUNCATE);
				reg_stream_gr3d(&r->stream, (uint16_t)GR3D_REG_AT(FP_CONST, k), w);
				r->fs_f32[k] = (float)x->valuedouble;   /* arith=exact reads this */
				r->fs_f32_word[k] = w;
				r->fs_f32_mask |= 1u << k;
			}
			return replay_flush(r, from, i);
		}
		return replay_fail(r, i, "unknown constant_buffer stage ", stage);
	}
	if (!strcmp(cmd, "clear")) {
		const cJSON *col = cJSON_GetObjectItemCaseSensitive(c, "color");
		if (col) {
			uint8_t b[4];
			for (int k = 0; k < 4; k++)
				b[k] = (uint8_t)lround(cJSON_GetArrayItem(col, k)->valuedouble * 255.0);
			for (unsigned k = 0; k < r->ncbufs; k++) {
				uint8_t v[4] = { b[0], b[1], b[2], b[3] };
				replay_cbuf_view(r->o->cfg, r->cbuf_fmt[k], v);
				ulp_image_fill(r->cbuf[k], v[0], v[1], v[2], v[3]);
			}
			probe_snapshot(r);
		}
		const cJSON *cd = cJSON_GetObjectItemCaseSensitive(c, "depth");
		const cJSON *cs = cJSON_GetObjectItemCaseSensitive(c, "stencil");
		if (r->zs && (cd || cs))
			zs_surface_clear(r->zs, cd != NULL, cd ? cd->valuedouble : 1.0, cs != NULL,
			                 cs ? (uint8_t)cs->valueint : 0);
		return true;
	}
	if (!strcmp(cmd, "draw"))
		return replay_draw(r, c, i);
	if (!strcmp(cmd, "checkpoint")) {
		const double t0 = ulp_host_seconds();      /* host, not a result: --host-stats */
		const bool ok = checkpoint(r, c, i, last_checkpoint);
		r->res->host_output_seconds += ulp_host_seconds() - t0;
		return ok;
	}
	if (!strcmp(cmd, "sampler"))
		return sampler(r, c, i);
	if (!strcmp(cmd, "rasterizer"))
		return rasterizer(r, c, i);
	if (!strcmp(cmd, "clip"))
		return clip_planes(r, c);
	if (!strcmp(cmd, "scissor")) {
		size_t from = r->stream.n;
		replay_state_scissor(&r->st, &r->stream, c);
		return replay_flush(r, from, i);
	}
	if (!strcmp(cmd, "sampler_view"))
		return sampler_view(r, c, i);
	if (!strcmp(cmd, "blend")) {   /* compiled into the fragment program at the next draw */
		replay_blend_state(c, &r->blend);
		return true;
	}
	if (!strcmp(cmd, "depth_stencil_alpha"))
		return depth_stencil_alpha(r, c, i);
	if (!strcmp(cmd, "registers")) {
		const cJSON *pica = cJSON_GetObjectItemCaseSensitive(c, "pica");
		const cJSON *gr3d = cJSON_GetObjectItemCaseSensitive(c, "gr3d");
		size_t from = r->stream.n;
		for (const cJSON *w = pica ? pica->child : NULL; w; w = w->next)
			reg_stream_pica(&r->stream, (uint16_t)cJSON_GetArrayItem(w, 0)->valuedouble,
			                (uint8_t)cJSON_GetArrayItem(w, 1)->valuedouble,
			                (uint32_t)cJSON_GetArrayItem(w, 2)->valuedouble);
		for (const cJSON *w = gr3d ? gr3d->child : NULL; w; w = w->next)
			reg_stream_gr3d(&r->stream, (uint16_t)cJSON_GetArrayItem(w, 0)->valuedouble,
			                (uint32_t)cJSON_GetArrayItem(w, 1)->valuedouble);
		r->have_fs |= gr3d != NULL;       /* a captured stream may load the program itself */
		if (gr3d) {                       /* fs_hook: disassemble what the registers hold */
			free(r->fs_grate);
			r->fs_grate = NULL;
		}
		return replay_flush(r, from, i);
	}
	return replay_fail(r, i, "unknown command ", cmd);
}
