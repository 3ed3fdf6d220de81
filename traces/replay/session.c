/* The streaming replay (session.h) and replay_run, a loop over it. */
#include "traces/replay/session.h"

#include "traces/replay/replay_int.h"
#include "sim/out/stats_txt.h"

#include <stdlib.h>

struct replay_session {
	replay r;
	trace tr;            /* the session's resources and shaders (no commands) */
	size_t ncmd;         /* commands run */
	unsigned fs_loop_bound;   /* the last fragment shader checked (replay_session_loop_bound) */
};

/* ---- open, close ---- */

replay_session *replay_session_open(const replay_opts *o, const replay_session_units *u, const char *name,
                                    const char *dir, replay_result *res, ulp_diag *d)
{
	replay_session *s = calloc(1, sizeof *s);
	if (s) {
		s->tr.path = strdup(name ? name : "");
		s->tr.dir = strdup(dir ? dir : "");
		s->tr.opts.max_file_bytes = TRACE_MAX_FILE_BYTES;
	}
	if (!s || !s->tr.path || !s->tr.dir) {
		if (s) {
			free(s->tr.path);
			free(s->tr.dir);
		}
		free(s);
		ulp_diag_at(d, name, 0, 0, "out of memory");
		return NULL;
	}
	memset(res, 0, sizeof *res);
	replay *r = &s->r;
	r->t = &s->tr;
	r->o = o;
	r->res = res;
	r->d = d;
	r->lazy_units = u->lazy;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		r->fs_usrc[k] = (int16_t)k;   /* identity until a compiled program says otherwise */
	reg_stream_init(&r->stream);
	replay_state_init(&r->st, &s->tr);
	pica_regs_init(&r->regs, o->cfg);
	gr3d_regs_init(&r->gregs);
	r->zsa.face[0].func = r->zsa.face[1].func = ZS_ALWAYS;
	r->zsa.face[0].valuemask = r->zsa.face[1].valuemask = 0xFF;
	r->zsa.face[0].writemask = r->zsa.face[1].writemask = 0xFF;
	r->zsa.z_func = ZS_LESS;
	r->front_ccw = true;
	replay_blend_default(&r->blend);
	r->fs_blend = r->blend;
	/* every unit of the pipeline (units/gpu.h), producers first; "gsh" takes vsh3's place */
	const unsigned vunits = pica_vertex_units(o->cfg, u->gs && u->gs_only);
	for (unsigned k = 0; k < GPU_NUNIT_NAMES && res->nunits < REPLAY_MAX_UNITS; k++) {
		if ((k < 1 || k > 4 || k - 1 < vunits) && (u->gs || strcmp(GPU_UNITS[k].name, "gsh")))
			sim_unit_init(&res->unit[res->nunits++], GPU_UNITS[k].name, NULL, GPU_UNITS[k].counters,
			              GPU_UNITS[k].ncounters);
		if (u->zs && !strcmp(GPU_UNITS[k].name, "raster"))
			replay_zs_unit_stats(res, "zs");
	}
	for (unsigned k = 0; o->cfg->gr3d_instances > 1 && k < GPU_NUNIT_NAMES_B; k++) {   /* GR3D block B */
		if (res->nunits < REPLAY_MAX_UNITS)
			sim_unit_init(&res->unit[res->nunits++], GPU_UNITS_B[k].name, NULL, GPU_UNITS_B[k].counters,
			              GPU_UNITS_B[k].ncounters);
		if (u->zs && k == 0)
			replay_zs_unit_stats(res, "zs_b");
	}
	return s;
}

bool replay_session_finish(replay_session *s, ulp_diag *d)
{
	replay *r = &s->r;
	if (r->o->keep_image && r->ncbufs && !r->res->image &&
	    !(r->res->image = replay_presented(r->cbuf[0], r->upper_left, d)))
		return false;
	if (r->o->keep_depth && r->zs && !r->res->depth) {
		const zs_surface *zs = r->zs;
		r->res->depth = malloc(sizeof *r->res->depth * zs->width * zs->height);
		if (!r->res->depth)
			return ulp_diag_at(d, s->tr.path, 0, 0, "out of memory");
		for (uint32_t y = 0; y < zs->height; y++)
			for (uint32_t x = 0; x < zs->width; x++)
				r->res->depth[(size_t)y * zs->width + x] = (float)zs_surface_depth(zs, x, y);
	}
	return true;
}

void replay_session_close(replay_session *s)
{
	if (!s)
		return;
	replay *r = &s->r;
	zs_surface_free(r->zs);
	free(r->fs_grate);
	if (r->have_vs)
		shbin_free(&r->vs_shbin);
	replay_gs_free(&r->gs);
	for (unsigned k = 0; k < r->ncbufs; k++)
		ulp_image_free(r->cbuf[k]);
	replay_state_free(&r->st);
	reg_stream_free(&r->stream);
	trace_free(&s->tr);
	free(s);
}

/* ---- resources and shaders ---- */

static long find_res(const replay_session *s, const char *id)
{
	for (size_t k = 0; k < s->tr.nres; k++)
		if (!strcmp(s->tr.res[k].id, id))
			return (long)k;
	return -1;
}

static long find_sh(const replay_session *s, const char *id)
{
	for (size_t k = 0; k < s->tr.nsh; k++)
		if (!strcmp(s->tr.sh[k].id, id))
			return (long)k;
	return -1;
}

/* A trace id (docs/trace-format.md): 1..63 of A-Z a-z 0-9 _ . - */
static bool bad_id(const replay_session *s, const char *id, ulp_diag *d)
{
	size_t n = id ? strlen(id) : 0;
	bool ok = n >= 1 && n <= 63;
	for (size_t k = 0; ok && k < n; k++)
		ok = (id[k] >= 'a' && id[k] <= 'z') || (id[k] >= 'A' && id[k] <= 'Z') || (id[k] >= '0' && id[k] <= '9') ||
		     id[k] == '_' || id[k] == '.' || id[k] == '-';
	if (ok)
		return false;
	ulp_diag_at(d, s->tr.path, 0, 0, "'%s' is not a trace id (1 to 63 of A-Z a-z 0-9 _ . -)", id ? id : "");
	return true;
}

/* Resource id (a new one at the end of the table) takes r's fields and a
 * copy of bytes, and its place in simulated memory. */
static bool set_resource(replay_session *s, const trace_resource *r, const void *bytes, ulp_diag *d)
{
	if (bad_id(s, r->id, d))
		return false;
	uint8_t *copy = malloc(r->len ? r->len : 1);
	if (!copy)
		return ulp_diag_at(d, s->tr.path, 0, 0, "out of memory");
	if (r->len)
		memcpy(copy, bytes, r->len);
	long k = find_res(s, r->id);
	if (k < 0) {
		trace_resource *grown = realloc(s->tr.res, (s->tr.nres + 1) * sizeof *grown);
		if (!grown) {
			free(copy);
			return ulp_diag_at(d, s->tr.path, 0, 0, "out of memory");
		}
		s->tr.res = grown;
		k = (long)s->tr.nres;
		memset(&grown[k], 0, sizeof grown[k]);
		if (!replay_state_place(&s->r.st, (size_t)k, r->len, s->tr.path, d)) {
			free(copy);
			return false;
		}
		s->tr.nres++;
	} else if (!replay_state_place(&s->r.st, (size_t)k, r->len, s->tr.path, d)) {
		free(copy);
		return false;
	}
	trace_resource *e = &s->tr.res[k];
	free(e->bytes);
	*e = *r;
	e->bytes = copy;
	return true;
}

bool replay_session_buffer(replay_session *s, const char *id, const void *bytes, size_t len, ulp_diag *d)
{
	trace_resource r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id ? id : "");
	r.type = TRACE_BUFFER;
	r.len = len;
	r.nlevels = 1;
	return set_resource(s, &r, bytes, d);
}

bool replay_session_texture(replay_session *s, const char *id, enum trace_texfmt f, enum trace_textarget target,
                            uint32_t width, uint32_t height, unsigned nlevels, const void *bytes, size_t len,
                            ulp_diag *d)
{
	trace_resource r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id ? id : "");
	if ((unsigned)f > TRACE_D16 || width < 1 || height < 1 || width > 4096 || height > 4096 ||
	    nlevels < 1 || nlevels > TRACE_TEX_LEVELS || (target == TRACE_TEX_1D && height != 1))
		return ulp_diag_at(d, s->tr.path, 0, 0, "texture '%s': %ux%u with %u levels is not a texture the "
		                   "trace format holds (1..4096 on a side, 1..13 levels, 1D: one row)", r.id,
		                   width, height, nlevels);
	r.type = TRACE_TEXTURE;
	r.format = f;
	r.target = target;
	r.width = width;
	r.height = height;
	r.nlevels = nlevels;
	size_t off = 0;
	for (unsigned l = 0; l < nlevels; l++) {
		uint32_t w = width >> l ? width >> l : 1, h = height >> l ? height >> l : 1;
		r.level_off[l] = off;
		off += (size_t)w * h * trace_texfmt_bpp(f);
	}
	if (off != len)
		return ulp_diag_at(d, s->tr.path, 0, 0, "texture '%s': %zu bytes given, its %u levels take %zu",
		                   r.id, len, nlevels, off);
	r.len = len;
	return set_resource(s, &r, bytes, d);
}

bool replay_session_resource(replay_session *s, const trace_resource *r, ulp_diag *d)
{
	return set_resource(s, r, r->bytes, d);
}

bool replay_session_remove_resource(replay_session *s, const char *id)
{
	long k = id ? find_res(s, id) : -1;
	if (k < 0)
		return false;
	replay_state_remove(&s->r.st, (size_t)k);
	free(s->tr.res[k].bytes);
	memmove(&s->tr.res[k], &s->tr.res[k + 1], (s->tr.nres - (size_t)k - 1) * sizeof *s->tr.res);
	s->tr.nres--;
	return true;
}

static char *dup_or_null(const char *text, bool *oom)
{
	char *c = text ? strdup(text) : NULL;
	*oom |= text && !c;
	return c;
}

bool replay_session_shader(replay_session *s, const trace_shader *sh, ulp_diag *d)
{
	if (bad_id(s, sh->id, d))
		return false;
	bool oom = false;
	char *text = dup_or_null(sh->text, &oom), *path = dup_or_null(sh->path, &oom);
	const bool has_text = sh->code == TRACE_TGSI || sh->code == TRACE_GRATE;
	if (oom || (has_text ? !text : !path)) {
		free(text);
		free(path);
		if (oom)
			return ulp_diag_at(d, s->tr.path, 0, 0, "out of memory");
		return ulp_diag_at(d, s->tr.path, 0, 0, "shader '%s': no %s", sh->id, has_text ? "text" : "file");
	}
	long k = find_sh(s, sh->id);
	if (k < 0) {
		const long bound = s->r.fs_src ? (long)(s->r.fs_src - s->tr.sh) : -1;
		trace_shader *grown = realloc(s->tr.sh, (s->tr.nsh + 1) * sizeof *grown);
		if (!grown) {
			free(text);
			free(path);
			return ulp_diag_at(d, s->tr.path, 0, 0, "out of memory");
		}
		s->tr.sh = grown;
		if (bound >= 0)
			s->r.fs_src = &grown[bound];          /* the bound fragment shader moved with the table */
		k = (long)s->tr.nsh++;
		memset(&grown[k], 0, sizeof grown[k]);
	}
	trace_shader *e = &s->tr.sh[k];
	free(e->text);
	free(e->path);
	*e = *sh;
	e->text = text;
	e->path = path;
	return true;
}

bool replay_session_remove_shader(replay_session *s, const char *id)
{
	long k = id ? find_sh(s, id) : -1;
	if (k < 0)
		return false;
	trace_shader *e = &s->tr.sh[k];
	if (s->r.fs_src == e) {                 /* the bound fragment shader: bind another before drawing */
		s->r.fs_src = NULL;
		s->r.have_fs = false;
	} else if (s->r.fs_src > e) {
		s->r.fs_src--;
	}
	free(e->text);
	free(e->path);
	memmove(e, e + 1, (s->tr.nsh - (size_t)k - 1) * sizeof *e);
	s->tr.nsh--;
	return true;
}

bool replay_session_check_shader(replay_session *s, const char *id, ulp_diag *d)
{
	long k = id ? find_sh(s, id) : -1;
	if (k < 0)
		return ulp_diag_at(d, s->tr.path, 0, 0, "no shader named '%s'", id ? id : "");
	const trace_shader *sh = &s->tr.sh[k];
	if (sh->code != TRACE_TGSI)
		return true;                      /* binaries are checked when bound */
	tgsi_shader *t = tgsi_parse(sh->text, strlen(sh->text), sh->id, NULL, d);
	if (!t)
		return false;
	bool ok;
	if (sh->stage == TRACE_FRAGMENT) {
		tegra_compile_opts opts;
		memset(&opts, 0, sizeof opts);
		tegra_compile_result *tr = calloc(1, sizeof *tr);
		ok = tr && tegra_compile_with(t, sh->id, &opts, tr);
		s->fs_loop_bound = ok ? tr->loop_bound : 0;
		if (!ok)
			ulp_diag_at(d, s->tr.path, 0, 0, "shader '%s': the Tegra cannot run it: %s", sh->id,
			            tr ? tr->d.msg : "out of memory");
		if (tr)
			tegra_compile_result_free(tr);
		free(tr);
	} else {
		struct shbin bin;
		int16_t sem[16];
		uint32_t sem_index[16];
		char why[ULP_DIAG_MSG_MAX];
		ok = replay_compile_pica(t, sh->id, &bin, sem, sem_index, why, sizeof why);
		if (ok)
			shbin_free(&bin);
		else
			ulp_diag_at(d, s->tr.path, 0, 0, "shader '%s': the PICA200 cannot run it: %s", sh->id, why);
	}
	tgsi_shader_free(t);
	return ok;
}

unsigned replay_session_loop_bound(const replay_session *s)
{
	return s->fs_loop_bound;
}

bool replay_session_vs_outputs(replay_session *s, const char *id, uint16_t *mask, uint16_t *mapped,
                               int16_t sem[16], uint32_t index[16], ulp_diag *d)
{
	long k = id ? find_sh(s, id) : -1;
	if (k < 0)
		return ulp_diag_at(d, s->tr.path, 0, 0, "no shader named '%s'", id ? id : "");
	const trace_shader *sh = &s->tr.sh[k];
	if (sh->code != TRACE_TGSI || sh->stage != TRACE_VERTEX)
		return ulp_diag_at(d, s->tr.path, 0, 0, "shader '%s' is not a TGSI vertex shader", sh->id);
	tgsi_shader *t = tgsi_parse(sh->text, strlen(sh->text), sh->id, NULL, d);
	if (!t)
		return false;
	struct shbin bin;
	char why[ULP_DIAG_MSG_MAX];
	bool ok = replay_compile_pica(t, sh->id, &bin, sem, index, why, sizeof why);
	tgsi_shader_free(t);
	if (!ok)
		return ulp_diag_at(d, s->tr.path, 0, 0, "shader '%s': the PICA200 cannot run it: %s", sh->id, why);
	*mask = *mapped = 0;              /* as drv_pica writes OUTMAP_MASK: the output table's registers */
	for (size_t j = 0; bin.ndvle && j < bin.dvle[0].noutputs; j++) {
		const struct shbin_output *o = &bin.dvle[0].outputs[j];
		if (o->reg < 16) {
			*mask |= (uint16_t)(1u << o->reg);
			if (o->type != SHBIN_OUT_DUMMY)
				*mapped |= (uint16_t)(1u << o->reg);
		}
	}
	shbin_free(&bin);
	return true;
}

/* ---- commands ---- */

/* update (format version 2): resource `resource` takes the type, size and
 * bytes of resource `from`, in place, as replay_session_buffer/_texture
 * replace one (a capture's mid-frame upload). */
static bool update(replay_session *s, const cJSON *c, size_t i)
{
	const trace_resource *from = trace_find_resource(&s->tr, rp_str(c, "from"));
	trace_resource r = *from;
	snprintf(r.id, sizeof r.id, "%s", rp_str(c, "resource"));
	return set_resource(s, &r, from->bytes, s->r.d) || replay_fail(&s->r, i, s->r.d->msg, NULL);
}

/* write_target (format version 2): a CPU write of a whole render target
 * from an RGBA8888 texture of its size, top row first (as a PNG shows it;
 * the top is memory row 0 when the framebuffer's origin is upper-left):
 * colour buffer `cbuf` as the RGBA its format stores, or the depth/stencil
 * surface with the depth code in red (bits 0-7), green (8-15), blue
 * (16-23) and the stencil in alpha. */
static bool write_target(replay_session *s, const cJSON *c, size_t i)
{
	replay *r = &s->r;
	const trace_resource *t = trace_find_resource(&s->tr, rp_str(c, "resource"));
	const cJSON *cb = cJSON_GetObjectItemCaseSensitive(c, "cbuf");
	uint32_t w, h;
	if (cb) {
		if ((unsigned)cb->valueint >= r->ncbufs)
			return replay_fail(r, i, "write_target: no such colour buffer bound", NULL);
		w = r->cbuf[cb->valueint]->width, h = r->cbuf[cb->valueint]->height;
	} else {
		if (!r->zs)
			return replay_fail(r, i, "write_target: no depth/stencil surface bound", NULL);
		w = r->zs->width, h = r->zs->height;
	}
	if (t->format != TRACE_RGBA8888 || t->width != w || t->height != h) {
		char what[160];
		snprintf(what, sizeof what, "'%s' is not an RGBA8888 texture of %ux%u", t->id, (unsigned)w, (unsigned)h);
		return replay_fail(r, i, "write_target: ", what);
	}
	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *row = t->bytes + (size_t)(r->upper_left ? y : h - 1 - y) * w * 4;
		if (cb) {
			memcpy(ulp_image_px(r->cbuf[cb->valueint], 0, y), row, (size_t)w * 4);
			continue;
		}
		for (uint32_t x = 0; x < w; x++) {
			const uint8_t *p = row + 4 * x;
			const size_t k = (size_t)y * w + x;
			r->zs->depth[k] = ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16) & zs_depth_max(r->zs);
			if (r->zs->stencil)
				r->zs->stencil[k] = p[3];
		}
	}
	return true;
}

bool replay_session_command_ex(replay_session *s, const cJSON *c, bool last_checkpoint, ulp_diag *d)
{
	const size_t i = s->ncmd++;
	s->r.d = d;
	if (!trace_check_command(&s->tr, c, i, d))
		return false;
	const char *cmd = rp_str(c, "cmd");
	if (!strcmp(cmd, "update"))
		return update(s, c, i);
	if (!strcmp(cmd, "write_target"))
		return write_target(s, c, i);
	return replay_command(&s->r, c, i, last_checkpoint);
}

bool replay_session_command(replay_session *s, const cJSON *c, ulp_diag *d)
{
	return replay_session_command_ex(s, c, true, d);
}

size_t replay_session_ncommands(const replay_session *s)
{
	return s->ncmd;
}

unsigned replay_session_ncbufs(const replay_session *s)
{
	return s->r.ncbufs;
}

bool replay_session_upper_left(const replay_session *s) { return s->r.upper_left; }

ulp_image *replay_session_cbuf(replay_session *s, unsigned k, uint8_t *format)
{
	if (k >= s->r.ncbufs)
		return NULL;
	if (format)
		*format = s->r.cbuf_fmt[k];
	return s->r.cbuf[k];
}

struct zs_surface *replay_session_zs(replay_session *s)
{
	return s->r.zs;
}

bool replay_session_write_stats(replay_session *s, const char *path, ulp_diag *d)
{
	replay_result *res = s->r.res;
	sim_unit *units[REPLAY_MAX_UNITS];
	for (unsigned k = 0; k < res->nunits; k++)
		units[k] = &res->unit[k];
	const ulp_config *cfg = s->r.o->cfg;
	stats_txt_opts o = { .prefix = "gpu", .silicon_mhz = (uint32_t)cfg->gr3d_clock_mhz, .cfg = cfg };
	stats_txt *w = stats_txt_open(path, units, res->nunits, &o, d);
	return w && stats_txt_close(w, res->cycles, 0, d);
}

/* ---- replay_run ---- */

/* The units a whole trace's stats list: zs when some command has a
 * depth/stencil surface or state, gsh when some bind_shaders has a gs. */
static void trace_units(const trace *t, replay_session_units *u)
{
	bool vs_only = false;
	memset(u, 0, sizeof *u);
	for (size_t k = 0; k < t->ncmd; k++) {
		const char *cmd = rp_str(t->cmd[k], "cmd");
		u->zs |= cJSON_GetObjectItemCaseSensitive(t->cmd[k], "zsbuf") || !strcmp(cmd, "depth_stencil_alpha");
		if (!strcmp(cmd, "bind_shaders")) {
			if (cJSON_GetObjectItemCaseSensitive(t->cmd[k], "gs"))
				u->gs = true;
			else
				vs_only = true;
		}
	}
	u->gs_only = u->gs && !vs_only;
}

bool replay_run(const trace *t, const replay_opts *o, replay_result *res, ulp_diag *d)
{
	replay_session_units u;
	trace_units(t, &u);
	replay_session *s = replay_session_open(o, &u, t->path, t->dir, res, d);
	if (!s)
		return false;
	s->tr.opts = t->opts;        /* the side files' rules the trace was loaded with */
	bool ok = true;
	for (size_t k = 0; ok && k < t->nres; k++)
		ok = replay_session_resource(s, &t->res[k], d);
	for (size_t k = 0; ok && k < t->nsh; k++)
		ok = replay_session_shader(s, &t->sh[k], d);
	size_t last = SIZE_MAX;
	for (size_t i = 0; i < t->ncmd; i++)
		if (!strcmp(rp_str(t->cmd[i], "cmd"), "checkpoint"))
			last = i;
	for (size_t i = 0; ok && i < t->ncmd; i++) {
		ok = replay_session_command_ex(s, t->cmd[i], i == last, d);
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, t->ncmd, res->cycles);
	}
	ok = ok && replay_session_finish(s, d);
	replay_session_close(s);
	return ok;
}
