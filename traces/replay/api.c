/* The public interface (include/ulpsim/ulpsim.h) over trace replay. */
#include "ulpsim/ulpsim.h"

#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "isa/fp20.h"
#include "isa/fx10.h"
#include "isa/pica/pica_disasm.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/tegra_disasm.h"
#include "sim/core/config.h"
#include "sim/out/frame_log.h"
#include "traces/replay/replay.h"
#include "traces/replay/replay_int.h"
#include "traces/replay/replay_gs.h"
#include "sim/core/tl_store.h"
#include "sim/core/unit.h"
#include "units/gr3d/gr3d_quad.h"

_Static_assert((int)ULPSIM_EV_ACTIVITY == (int)SIM_TL_ACTIVITY && (int)ULPSIM_EV_END == (int)SIM_TL_END,
               "event kinds");
_Static_assert((int)ULPSIM_ACT_STALL == (int)SIM_ACT_STALL, "activity codes");

struct ulpsim {
	trace t;
	ulp_config cfg;
	ulp_image *image;
	ulpsim_event *ev;
	size_t nev;
	char lane[SIM_TL_MAX_LANES][32];
	unsigned nlanes;
	ulpsim_summary sum;
	_Atomic uint64_t progress_cycle, progress_events;
	uint8_t *coverage;          /* ulpsim_quad_at's reconstruction (lazy) */
	uint32_t cov_w, cov_h;
	uint64_t (*draw)[2];        /* each draw's cycles [from, to), in draw order */
	unsigned ndraws, draw_cap;
	bool draw_oom;
	frame_log log;              /* colour buffer 0's writes (ulpsim_image_at) */
	size_t max_writes;
	/* each draw's fragment program as it ran (replay_opts.fs_hook): fs_text
	 * holds the distinct texts, fs_of[k] draw k's (-1: none) */
	char **fs_text;
	int *fs_of;
	unsigned nfs_text, nfs, fs_cap;
	bool fs_oom;
	stats_port_mark port[STATS_MAX_PORTS];   /* the run's port high-water marks */
	unsigned nports;
	bool upper_left;            /* the last framebuffer's origin: images present memory row 0 at the top */
};

static void set_err(char *err, size_t n, const ulp_diag *d)
{
	if (err && n)
		ulp_diag_format(d, err, n);
}

ulpsim *ulpsim_open(const char *trace_path, const char *const *settings, size_t nsettings,
                    char *err, size_t errlen)
{
	return ulpsim_open_with(trace_path, settings, nsettings, NULL, err, errlen);
}

ulpsim *ulpsim_open_with(const char *trace_path, const char *const *settings, size_t nsettings,
                         const ulpsim_open_opts *oo, char *err, size_t errlen)
{
	ulpsim *s = calloc(1, sizeof *s);
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	const trace_load_opts lo = { .allow_paths = oo && oo->allow_paths,
		                     .max_file_bytes = oo ? oo->max_side_file : 0 };
	/* the trace's "gpu" picks the preset; the settings win over it */
	ulp_config_defaults(&s->cfg);
	bool ok = trace_load_with(&s->t, trace_path, &lo, &d) && ulp_config_preset(&s->cfg, s->t.gpu, &d);
	for (size_t i = 0; ok && i < nsettings; i++)
		ok = ulp_config_set(&s->cfg, settings[i], &d);
	if (!ok) {
		set_err(err, errlen, &d);
		trace_free(&s->t);
		free(s);
		return NULL;
	}
	for (size_t i = 0; i < s->t.ncmd; i++) {    /* the origin the final image is presented in */
		const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->t.cmd[i], "cmd"));
		const char *origin = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s->t.cmd[i], "origin"));
		if (cmd && !strcmp(cmd, "framebuffer"))
			s->upper_left = origin && !strcmp(origin, "upper-left");
	}
	return s;
}

uint32_t ulpsim_window_y(const ulpsim *s, uint32_t y, uint32_t height)
{
	return s->upper_left ? y : height - 1 - y;
}

/* A second sink: counts what the store sees, for ulpsim_progress. */
static bool progress_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	ulpsim *s = ctx;
	if (n)
		atomic_store(&s->progress_cycle, ev[n - 1].cycle);
	atomic_fetch_add(&s->progress_events, (uint64_t)n);
	return true;
}

static void progress_close(void *ctx) { (void)ctx; }

/* The probe's hooks into the write log. */
/* The probe's hooks into the write log (which keeps the image top row
 * first from memory rows bottom first: an upper-left framebuffer's rows are
 * turned over on the way in, so the log presents what ulpsim_image does). */
static void log_pixel(void *ctx, uint64_t cycle, uint32_t x, uint32_t y, const uint8_t rgba[4])
{
	ulpsim *s = ctx;
	if (s->upper_left && y < s->log.h)
		y = s->log.h - 1 - y;
	frame_log_pixel(&s->log, cycle, x, y, rgba);
}

static void log_snapshot(void *ctx, uint64_t cycle, const ulp_image *cbuf0)
{
	ulpsim *s = ctx;
	if (!s->upper_left) {
		frame_log_snapshot(&s->log, cycle, cbuf0);
		return;
	}
	ulp_diag d;
	ulp_image *rows = replay_presented(cbuf0, false, &d);      /* turned over: frame_log turns it back */
	if (rows)
		frame_log_snapshot(&s->log, cycle, rows);
	ulp_image_free(rows);
}

void ulpsim_set_max_writes(ulpsim *s, size_t max_writes) { s->max_writes = max_writes; }

/* Before and after each draw: its cycle range (ulpsim_draw_range). */
static void draw_hook(void *ctx, bool end, replay_result *res)
{
	ulpsim *s = ctx;
	if (end) {
		if (s->ndraws)
			s->draw[s->ndraws - 1][1] = res->cycles;
		return;
	}
	if (s->ndraws == s->draw_cap) {
		unsigned cap = s->draw_cap ? 2 * s->draw_cap : 16;
		uint64_t (*d)[2] = realloc(s->draw, cap * sizeof *d);
		if (!d) {
			s->draw_oom = true;
			return;
		}
		s->draw = d;
		s->draw_cap = cap;
	}
	s->draw[s->ndraws][0] = s->draw[s->ndraws][1] = res->cycles;
	s->ndraws++;
}

static void fs_clear(ulpsim *s)
{
	for (unsigned k = 0; k < s->nfs_text; k++)
		free(s->fs_text[k]);
	free(s->fs_text);
	free(s->fs_of);
	s->fs_text = NULL;
	s->fs_of = NULL;
	s->nfs_text = s->nfs = s->fs_cap = 0;
	s->fs_oom = false;
}

/* At each draw: the fragment program the replay runs (one compile path:
 * the viewer shows what the replay compiled, variant and all). */
static void fs_hook(void *ctx, const char *grate)
{
	ulpsim *s = ctx;
	if (s->fs_oom)
		return;
	if (s->nfs == s->fs_cap) {
		unsigned cap = s->fs_cap ? 2 * s->fs_cap : 16;
		int *of = realloc(s->fs_of, cap * sizeof *of);
		char **text = realloc(s->fs_text, cap * sizeof *text);
		if (of)
			s->fs_of = of;
		if (text)
			s->fs_text = text;
		if (!of || !text) {
			s->fs_oom = true;
			return;
		}
		s->fs_cap = cap;
	}
	int at = -1;
	if (grate && s->nfs_text && !strcmp(s->fs_text[s->nfs_text - 1], grate))
		at = (int)s->nfs_text - 1;
	else if (grate) {
		char *c = strdup(grate);
		if (!c) {
			s->fs_oom = true;
			return;
		}
		s->fs_text[s->nfs_text] = c;
		at = (int)s->nfs_text++;
	}
	s->fs_of[s->nfs++] = at;
}

bool ulpsim_run(ulpsim *s, size_t max_events, char *err, size_t errlen)
{
	fs_clear(s);
	atomic_store(&s->progress_cycle, 0);
	atomic_store(&s->progress_events, 0);
	free(s->coverage);
	s->coverage = NULL;
	ulp_diag d;
	ulp_diag_clear(&d);
	sim_timeline tl;
	sim_tl_store store;
	if (!sim_tl_init(&tl)) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	sim_tl_store_init(&store, max_events ? max_events : 4u << 20);
	sim_tl_add_sink(&tl, sim_tl_store_sink(&store));
	sim_tl_add_sink(&tl, (sim_tl_sink){ s, progress_write, progress_close });
	tl.enabled = true;
	s->ndraws = 0;
	s->draw_oom = false;
	const size_t max_writes = s->max_writes ? s->max_writes : (size_t)4 << 20;
	frame_log_free(&s->log);
	frame_log_init(&s->log, max_writes > SIZE_MAX / 16 ? SIZE_MAX : max_writes * 16);
	gr3d_probe probe = { .ctx = s, .pixel = log_pixel, .snapshot = log_snapshot };
	replay_opts o = { .cfg = &s->cfg, .tl = &tl, .keep_image = true, .probe = &probe,
	                  .draw_hook = draw_hook, .fs_hook = fs_hook, .hook_ctx = s };
	replay_result res;
	bool ok = replay_run(&s->t, &o, &res, &d);
	sim_tl_flush(&tl);
	for (unsigned i = 0; i < tl.nlanes && i < SIM_TL_MAX_LANES; i++)
		snprintf(s->lane[i], sizeof s->lane[i], "%s", tl.lane_name[i]);
	s->nlanes = tl.nlanes;
	sim_tl_fini(&tl);
	free(s->ev);
	s->ev = malloc((store.n ? store.n : 1) * sizeof *s->ev);
	s->nev = s->ev ? store.n : 0;
	for (size_t i = 0; i < s->nev; i++)
		s->ev[i] = (ulpsim_event){ store.ev[i].cycle, store.ev[i].id, store.ev[i].arg,
		                           store.ev[i].lane, store.ev[i].kind };
	ulp_image_free(s->image);
	s->image = ok ? res.image : NULL;
	memcpy(s->port, res.port, sizeof s->port);
	s->nports = ok ? res.nports : 0;
	s->sum = (ulpsim_summary){
		.cycles = res.cycles, .vertex_cycles = res.vertex_cycles,
		.fragment_cycles = res.fragment_cycles, .draws = res.draws, .vertices = res.vertices,
		.triangles = res.triangles, .fragments = res.fragments, .checkpoints = res.checkpoints,
		.checks_failed = res.checks_failed, .events = store.n, .events_dropped = store.dropped,
		.gr3d_clock_mhz = (unsigned)s->cfg.gr3d_clock_mhz,
		.writes = s->log.writes, .writes_dropped = s->log.dropped,
		.writes_cut_cycle = s->log.cut ? s->log.cut_cycle : 0,
	};
	sim_tl_store_free(&store);
	if (!ok)
		set_err(err, errlen, &d);
	return ok;
}

const uint8_t *ulpsim_image(const ulpsim *s, uint32_t *width, uint32_t *height)
{
	if (!s->image)
		return NULL;
	*width = s->image->width;
	*height = s->image->height;
	return s->image->rgba;
}

unsigned ulpsim_port_count(const ulpsim *s) { return s->nports; }

bool ulpsim_port_mark(const ulpsim *s, unsigned k, const char **name, uint32_t *capacity, uint32_t *max_count)
{
	if (k >= s->nports)
		return false;
	*name = s->port[k].name;
	*capacity = s->port[k].capacity;
	*max_count = s->port[k].max_count;
	return true;
}

unsigned ulpsim_lane_count(const ulpsim *s) { return s->nlanes; }
const char *ulpsim_lane_name(const ulpsim *s, unsigned lane) { return lane < s->nlanes ? s->lane[lane] : "?"; }
size_t ulpsim_event_count(const ulpsim *s) { return s->nev; }
const ulpsim_event *ulpsim_events(const ulpsim *s) { return s->ev; }
const char *ulpsim_activity_name(uint8_t activity) { return sim_activity_name(activity); }
ulpsim_summary ulpsim_get_summary(const ulpsim *s) { return s->sum; }
const char *ulpsim_trace_name(const ulpsim *s) { return s->t.name; }

void ulpsim_close(ulpsim *s)
{
	if (!s)
		return;
	trace_free(&s->t);
	ulp_image_free(s->image);
	free(s->ev);
	free(s->coverage);
	free(s->draw);
	fs_clear(s);
	frame_log_free(&s->log);
	free(s);
}

bool ulpsim_image_at(const ulpsim *s, uint64_t cycle, uint8_t *rgba, char *err, size_t errlen)
{
	if (!s->image) {
		snprintf(err, errlen, "no image: run the trace first");
		return false;
	}
	const size_t bytes = (size_t)s->image->width * s->image->height * 4;
	if (s->log.w != s->image->width || s->log.h != s->image->height) {
		snprintf(err, errlen, "the pixel-write log has no record of the final colour buffer");
		return false;
	}
	char why[160];
	if (frame_log_image_at(&s->log, cycle, rgba, why, sizeof why))
		return true;
	if (cycle + 1 >= s->sum.cycles) {         /* the end of the run: the final image */
		memcpy(rgba, s->image->rgba, bytes);
		return true;
	}
	snprintf(err, errlen, "the frame at cycle %llu: %s", (unsigned long long)cycle, why);
	return false;
}

bool ulpsim_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                      char *err, size_t errlen)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(width, height, &d);
	bool ok = img != NULL;
	if (ok) {
		memcpy(img->rgba, rgba, ulp_image_bytes(img));
		ok = ulp_image_save_png(img, path, &d);
	}
	ulp_image_free(img);
	if (!ok)
		set_err(err, errlen, &d);
	return ok;
}

void ulpsim_progress(const ulpsim *s, uint64_t *cycle, uint64_t *events)
{
	*cycle = atomic_load(&s->progress_cycle);
	*events = atomic_load(&s->progress_events);
}

/* ---- ulpsim_quad_at ---- */

static int lane_named(const ulpsim *s, const char *name)
{
	for (unsigned k = 0; k < s->nlanes; k++)
		if (!strcmp(s->lane[k], name))
			return (int)k;
	return -1;
}

/* The cycles of fragment pass `pass` of GR3D block `block`: from its first
 * quad entering PSEQ (quad 0, EXEC 0) to the next pass's, or the end of the
 * run. */
static void pass_range(const ulpsim *s, unsigned block, uint32_t pass, uint64_t *from, uint64_t *to)
{
	int pseq = lane_named(s, block ? "pseq_b" : "pseq");
	uint32_t k = 0;
	bool found = false;
	*from = 0;
	*to = s->sum.cycles;
	for (size_t i = 0; pseq >= 0 && i < s->nev; i++) {
		const ulpsim_event *e = &s->ev[i];
		if (e->lane != (unsigned)pseq || e->kind != ULPSIM_EV_BEGIN || e->id || e->arg)
			continue;
		if (found) {
			*to = e->cycle;
			return;
		}
		if (k++ == pass) {
			*from = e->cycle;
			found = true;
		}
	}
}

/* The probe: every fragment program writes white, every clear is black. */
static const char PROBE_FP[] =
	"alu_buffer_size = 1\n"
	"pseq_to_dw_exec_nb = 1\n"
	".asm\n"
	"EXEC\n"
	"\tMFU:\tNOP\n"
	"\tTEX:\tNOP\n"
	"\tALU:\n"
	"\t\tALU0:\tMAD  r0.*h, #1, #1, #0, #1\n"
	"\t\tALU1:\tMAD  r0.l*, #1, #1, #0, #1\n"
	"\t\tALU2:\tMAD  r1.*h, #1, #1, #0, #1\n"
	"\t\tALU3:\tMAD  r1.l*, #1, #1, #0, #1\n"
	"\tDW:\tstore rt1, r0, r1\n"
	";\n";

static bool coverage_replay(ulpsim *s, ulp_diag *d)
{
	trace t;
	if (!trace_load_with(&t, s->t.path, &s->t.opts, d))
		return false;
	bool ok = true;
	for (size_t k = 0; ok && k < t.nsh; k++) {
		if (t.sh[k].stage != TRACE_FRAGMENT)
			continue;
		char *text = malloc(sizeof PROBE_FP);
		ok = text != NULL;
		if (ok) {
			memcpy(text, PROBE_FP, sizeof PROBE_FP);
			free(t.sh[k].text);
			t.sh[k].text = text;
			t.sh[k].code = TRACE_GRATE;
		}
	}
	for (size_t i = 0; ok && i < t.ncmd; i++) {
		cJSON *c = (cJSON *)t.cmd[i];
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "cmd");
		cJSON *col = cJSON_GetObjectItemCaseSensitive(c, "color");
		if (cJSON_IsString(name) && !strcmp(name->valuestring, "clear") && col)
			for (cJSON *x = col->child; x; x = x->next)
				cJSON_SetNumberValue(x, 0.0);
	}
	if (!ok) {
		trace_free(&t);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	replay_opts o = { .cfg = &s->cfg, .keep_image = true };
	replay_result res;
	ok = replay_run(&t, &o, &res, d);
	trace_free(&t);
	if (!ok) {
		ulp_image_free(res.image);
		return false;
	}
	if (!res.image)
		return ulp_diag_at(d, NULL, 0, 0, "the coverage replay kept no image");
	s->cov_w = res.image->width;
	s->cov_h = res.image->height;
	s->coverage = calloc((size_t)s->cov_w * s->cov_h, 1);
	if (s->coverage)
		for (size_t p = 0; p < (size_t)s->cov_w * s->cov_h; p++) {
			const uint8_t *px = res.image->rgba + 4 * p;
			s->coverage[p] = (px[0] | px[1] | px[2] | px[3]) != 0;
		}
	ulp_image_free(res.image);
	return s->coverage ? true : ulp_diag_at(d, NULL, 0, 0, "out of memory");
}

/* Covered in window coordinates (y up); the coverage image is top row first. */
static bool covered(const ulpsim *s, uint32_t wx, uint32_t wy)
{
	return wx < s->cov_w && wy < s->cov_h && s->coverage[(size_t)ulpsim_window_y(s, wy, s->cov_h) * s->cov_w + wx];
}

bool ulpsim_quad_at(ulpsim *s, uint32_t x, uint32_t y, ulpsim_quad_ref *q, char *err, size_t errlen)
{
	memset(q, 0, sizeof *q);
	if (!s->image || x >= s->image->width || y >= s->image->height) {
		snprintf(err, errlen, "pixel (%u, %u) is outside the render target", x, y);
		return false;
	}
	const uint32_t wy = ulpsim_window_y(s, y, s->image->height), qx = x & ~1u, qy = wy & ~1u;
	q->qx = qx;
	q->qy = qy;
	/* 1. the rasterizer's own record, when the units emit it (on Tegra 3
	 * each block's rasterizer walks its own swaths: the last hit wins) */
	bool any = false, hit = false;
	uint64_t hit_cycle = 0;
	for (unsigned b = 0; b < 2; b++) {
		int raster = lane_named(s, b ? "raster_b" : "raster");
		bool seen = false;
		uint32_t pass = 0;
		for (size_t i = 0; raster >= 0 && i < s->nev; i++) {
			const ulpsim_event *e = &s->ev[i];
			if (e->lane != (unsigned)raster || e->kind != ULPSIM_EV_INSTANT)
				continue;
			if (e->id == 0 && seen)
				pass++;
			seen = any = true;
			if ((e->arg & 0xFFFFu) == qx && (e->arg >> 16) == qy && (!hit || e->cycle >= hit_cycle)) {
				q->pass = pass;
				q->quad = e->id;
				q->block = (uint8_t)b;
				hit_cycle = e->cycle;
				hit = true;
			}
		}
	}
	if (any) {
		if (!hit) {
			snprintf(err, errlen, "pixel (%u, %u) is not covered: no quad was rasterized there", x, y);
			return false;
		}
		q->exact = true;
		pass_range(s, q->block, q->pass, &q->pass_from, &q->pass_to);
		return true;
	}
	/* 2. reconstruction: one triangle, numbered as the rasterizer walks it
	 * (quad rows bottom up, quads left to right, empty quads skipped) */
	if (s->sum.triangles != 1) {
		snprintf(err, errlen, "the rasterizer records no quad positions and this run has "
		         "%llu triangles (reconstruction needs exactly one)",
		         (unsigned long long)s->sum.triangles);
		return false;
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!s->coverage && !coverage_replay(s, &d)) {
		set_err(err, errlen, &d);
		return false;
	}
	if (!covered(s, x, wy)) {
		snprintf(err, errlen, "pixel (%u, %u) is not covered by the triangle", x, y);
		return false;
	}
	uint32_t id = 0;
	for (uint32_t by = 0; by < s->cov_h; by += 2)
		for (uint32_t bx = 0; bx < s->cov_w; bx += 2) {
			if (bx == qx && by == qy) {
				q->quad = id;
				pass_range(s, 0, 0, &q->pass_from, &q->pass_to);
				return true;
			}
			if (covered(s, bx, by) || covered(s, bx + 1, by) || covered(s, bx, by + 1) ||
			    covered(s, bx + 1, by + 1))
				id++;
		}
	snprintf(err, errlen, "pixel (%u, %u): no quad", x, y);
	return false;
}

/* ---- ulpsim_shader_text, ulpsim_fragment_grate ---- */

/* The shader bound at the draw-th "draw" command; NULL if there is none. */
static const trace_shader *bound_shader(const ulpsim *s, unsigned draw, bool fragment)
{
	const char *bound = NULL;
	unsigned n = 0;
	for (size_t i = 0; i < s->t.ncmd; i++) {
		const cJSON *c = s->t.cmd[i];
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "cmd");
		if (!cJSON_IsString(name))
			continue;
		if (!strcmp(name->valuestring, "bind_shaders")) {
			const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, fragment ? "fs" : "vs");
			bound = cJSON_IsString(id) ? id->valuestring : NULL;
		} else if (!strcmp(name->valuestring, "draw") && n++ == draw) {
			return bound ? trace_find_shader(&s->t, bound) : NULL;
		}
	}
	return NULL;
}

const char *ulpsim_shader_text(const ulpsim *s, unsigned draw, bool fragment)
{
	const trace_shader *sh = bound_shader(s, draw, fragment);
	return sh && (sh->code == TRACE_TGSI || sh->code == TRACE_GRATE) ? sh->text : NULL;
}

static char *copy_text(const char *t)
{
	size_t n = strlen(t) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, t, n);
	return c;
}

char *ulpsim_fragment_grate(const ulpsim *s, unsigned draw, char *err, size_t errlen)
{
	if (s->fs_oom) {
		snprintf(err, errlen, "out of memory while the run recorded its fragment programs");
		return NULL;
	}
	if (draw >= s->nfs || s->fs_of[draw] < 0) {
		snprintf(err, errlen, "draw %u: no such draw in the run, or no fragment program bound", draw);
		return NULL;
	}
	char *text = copy_text(s->fs_text[s->fs_of[draw]]);
	if (!text)
		snprintf(err, errlen, "out of memory");
	return text;
}

/* ---- ulpsim_vertex_pica, draw ranges ---- */

char *ulpsim_vertex_pica(const ulpsim *s, unsigned draw, char *err, size_t errlen)
{
	const trace_shader *sh = bound_shader(s, draw, false);
	if (!sh) {
		snprintf(err, errlen, "draw %u: no such draw, or no vertex shader bound", draw);
		return NULL;
	}
	const char *name = sh->path ? sh->path : sh->id;
	ulp_diag d;
	ulp_diag_clear(&d);
	struct shbin bin;
	memset(&bin, 0, sizeof bin);
	bool have = false;
	if (sh->code == TRACE_TGSI) {
		/* the compile the replay runs (traces/replay/replay_shaders.c bind_vs) */
		tgsi_shader *t = tgsi_parse(sh->text, strlen(sh->text), name, NULL, &d);
		int16_t sem[16];
		uint32_t sem_index[16];
		char why[ULP_DIAG_MSG_MAX];
		have = t && replay_compile_pica(t, name, &bin, sem, sem_index, why, sizeof why);
		if (t && !have)
			ulp_diag_at(&d, NULL, 0, 0, "%s", why);
		tgsi_shader_free(t);
	} else if (sh->code == TRACE_SHBIN) {
		have = shbin_load(sh->path, &bin, &d);
	} else {
		snprintf(err, errlen, "draw %u: the vertex shader is neither TGSI nor an SHBIN", draw);
		return NULL;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = have ? open_memstream(&text, &len) : NULL;
	bool exact;
	bool ok = f && pica_disasm(&bin, f, &exact, &d);
	if (f && fclose(f) != 0)
		ok = false;
	if (have)
		shbin_free(&bin);
	if (!ok) {
		free(text);
		if (d.set)
			set_err(err, errlen, &d);
		else
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return text;
}

unsigned ulpsim_draw_count(const ulpsim *s) { return s->draw_oom ? 0 : s->ndraws; }

bool ulpsim_draw_range(const ulpsim *s, unsigned draw, uint64_t *from, uint64_t *to)
{
	if (s->draw_oom || draw >= s->ndraws)
		return false;
	*from = s->draw[draw][0];
	*to = s->draw[draw][1];
	return true;
}

int ulpsim_draw_at(const ulpsim *s, uint64_t cycle)
{
	/* the last draw that started at or before the cycle */
	int found = -1;
	for (unsigned k = 0; !s->draw_oom && k < s->ndraws && s->draw[k][0] <= cycle; k++)
		found = (int)k;
	return found;
}

/* ---- ulpsim_quad_regs: a replay with a watch on one quad ---- */

typedef struct quad_watch {
	const ulpsim_quad_ref *q;
	ulpsim_exec_regs *regs;
	size_t max, n;
	bool exact;             /* arith=exact: the words' format (docs/exact.md) */
} quad_watch;

static void watch_quad(void *ctx, uint64_t cycle, const char *unit, unsigned rows, const gr3d_quad *q,
                       unsigned exec)
{
	quad_watch *w = ctx;
	const bool block_b = strcmp(unit, "dw") != 0;
	if (q->id != w->q->quad || block_b != (w->q->block != 0) || cycle < w->q->pass_from ||
	    cycle >= w->q->pass_to)
		return;
	if (w->n < w->max) {
		ulpsim_exec_regs *r = &w->regs[w->n];
		memset(r, 0, sizeof *r);
		r->exec = exec;
		r->cycle = cycle;
		r->rows = rows;
		r->exact = w->exact;
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
				r->r[p][i] = q->r[i][p];
			r->covered |= (uint8_t)(q->covered[p] << p);
			r->killed |= (uint8_t)((q->covered[p] && (q->killed[p] || q->exec_killed[p])) << p);
		}
	}
	w->n++;
}

_Static_assert(sizeof ((ulpsim_exec_regs *)0)->r[0] == GR3D_ROW_REGS * sizeof(uint32_t), "row registers");

bool ulpsim_quad_regs(ulpsim *s, const ulpsim_quad_ref *q, ulpsim_exec_regs *regs, size_t max,
                      size_t *n, char *err, size_t errlen)
{
	*n = 0;
	quad_watch w = { .q = q, .regs = regs, .max = max, .exact = s->cfg.arith == ULP_ARITH_EXACT };
	gr3d_probe probe = { .ctx = &w, .quad = watch_quad };
	replay_opts o = { .cfg = &s->cfg, .probe = &probe };
	replay_result res;
	memset(&res, 0, sizeof res);
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = replay_run(&s->t, &o, &res, &d);
	ulp_image_free(res.image);
	free(res.depth);
	if (!ok) {
		set_err(err, errlen, &d);
		return false;
	}
	if (!w.n) {
		snprintf(err, errlen, "quad %u of pass %u never reached DW", q->quad, q->pass);
		return false;
	}
	*n = w.n < max ? w.n : max;
	return true;
}

float ulpsim_fp20_value(uint32_t bits) { return fp20_decode(bits & FP20_MASK); }
float ulpsim_fx10_value(uint32_t bits, bool high) { return fx10_decode(high ? bits >> 10 : bits); }
float ulpsim_reg_value(const ulpsim_exec_regs *r, uint32_t bits)
{
	return r->exact ? gr3d_xf32(bits) : ulpsim_fp20_value(bits);
}
float ulpsim_reg_half(const ulpsim_exec_regs *r, uint32_t bits, bool high)
{
	return r->exact ? (float)gr3d_xfx(bits, high) : ulpsim_fx10_value(bits, high);
}

bool ulpsim_parse_side_file_cap(const char *s, uint64_t *bytes)
{
	return trace_parse_side_file_cap(s, bytes);
}
