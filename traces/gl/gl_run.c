/* The outputs of a whole `ulpsim gl` run over its GL contexts (gl_run.h). */
#include "traces/gl/gl_run.h"

#include <stdlib.h>
#include <string.h>

#include "sim/out/stats_txt.h"
#include "sim/out/tl_chrome.h"
#include "sim/out/tl_vcd.h"

struct ulp_gl_ctx {
	ulp_gl_run *run;
	const ulp_config *cfg;       /* the session's, while the context lives */
	replay_result *res;          /* the session's, while the context lives */
	replay_result *done;         /* a copy of its figures once it ended */
	bool has_tl;
	sim_timeline tl;             /* its session's events, on the context's axis */
	uint64_t offset;             /* run axis - context axis for the current draw */
	uint64_t begin_cycles;       /* res->cycles when the draw began */
	uint16_t lane[SIM_TL_MAX_LANES];   /* its lanes as the run's (+1; 0: not matched yet) */
};

struct ulp_gl_run {
	char *stats_path;            /* NULL: none */
	bool has_tl;
	sim_timeline tl;             /* the run's axis */
	tl_chrome *chrome;
	tl_vcd *vcd;
	ulp_gl_ctx **cx;             /* in creation order */
	size_t ncx, cap;
	uint64_t cycles;             /* the run's axis: every context's draws one after another */
	ulp_config cfg;              /* the first context's (stats.txt writes it) */
	bool have_cfg;
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

ulp_gl_run *ulp_gl_run_open(const char *stats_path, const char *timeline_path, ulp_diag *d)
{
	ulp_gl_run *run = calloc(1, sizeof *run);
	if (!run) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		return NULL;
	}
	ulp_config_defaults(&run->cfg);
	if (stats_path && *stats_path && !(run->stats_path = strdup(stats_path))) {
		free(run);
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		return NULL;
	}
	if (!timeline_path || !*timeline_path)
		return run;
	const bool json = ends_with(timeline_path, ".json");
	if (!json && !ends_with(timeline_path, ".vcd")) {
		ulp_diag_at(d, timeline_path, 0, 0, "a timeline is FILE.json (Perfetto) or FILE.vcd");
	} else if (!sim_tl_init(&run->tl)) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
	} else {
		run->has_tl = true;
		bool ok;
		if (json) {
			tl_chrome_opts co = { .tl = &run->tl, .process_name = "ulpsim gl" };
			run->chrome = tl_chrome_open(timeline_path, &co, d);
			ok = run->chrome && sim_tl_add_sink(&run->tl, tl_chrome_sink(run->chrome));
		} else {
			tl_vcd_opts vo = { .tl = &run->tl, .top = "gpu" };
			run->vcd = tl_vcd_open(timeline_path, &vo, d);
			ok = run->vcd && sim_tl_add_sink(&run->tl, tl_vcd_sink(run->vcd));
		}
		if (ok) {
			run->tl.enabled = true;
			return run;
		}
		sim_tl_fini(&run->tl);
		if (run->chrome)
			tl_chrome_abort(run->chrome);
		if (run->vcd)
			tl_vcd_abort(run->vcd);
	}
	free(run->stats_path);
	free(run);
	return NULL;
}

/* The context's events onto the run's axis and into the run's timeline. */
static bool forward(void *ctx, const sim_tl_event *ev, size_t n)
{
	ulp_gl_ctx *cx = ctx;
	sim_timeline *to = &cx->run->tl;
	for (size_t k = 0; k < n; k++) {
		const uint16_t l = ev[k].lane < SIM_TL_MAX_LANES ? ev[k].lane : SIM_TL_MAX_LANES - 1;
		if (!cx->lane[l])
			cx->lane[l] = (uint16_t)(sim_tl_lane(to, l < cx->tl.nlanes ? cx->tl.lane_name[l] : "?") + 1);
		sim_tl_emit(to, ev[k].cycle + cx->offset, (uint16_t)(cx->lane[l] - 1), (enum sim_tl_kind)ev[k].kind,
		            ev[k].id, ev[k].arg);
	}
	return !to->failed;
}

static void forward_close(void *ctx)
{
	(void)ctx;
}

ulp_gl_ctx *ulp_gl_run_add(ulp_gl_run *run, const ulp_config *cfg, replay_result *res)
{
	if (run->ncx == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 4;
		ulp_gl_ctx **grown = realloc(run->cx, cap * sizeof *grown);
		if (!grown)
			return NULL;
		run->cx = grown;
		run->cap = cap;
	}
	ulp_gl_ctx *cx = calloc(1, sizeof *cx);
	if (!cx)
		return NULL;
	cx->run = run;
	cx->cfg = cfg;
	cx->res = res;
	if (run->has_tl) {
		if (!sim_tl_init(&cx->tl) ||
		    !sim_tl_add_sink(&cx->tl, (sim_tl_sink){ .ctx = cx, .write = forward, .close = forward_close })) {
			free(cx->tl.buf);
			free(cx);
			return NULL;
		}
		cx->has_tl = true;
		cx->tl.enabled = true;
	}
	if (!run->have_cfg) {
		run->cfg = *cfg;
		run->have_cfg = true;
	}
	run->cx[run->ncx++] = cx;
	return cx;
}

sim_timeline *ulp_gl_ctx_timeline(ulp_gl_ctx *cx)
{
	return cx && cx->has_tl ? &cx->tl : NULL;
}

void ulp_gl_ctx_draw_begin(ulp_gl_ctx *cx)
{
	if (!cx || !cx->res)
		return;
	if (cx->has_tl)
		sim_tl_flush(&cx->tl);           /* anything recorded since the last draw, at its offset */
	cx->begin_cycles = cx->res->cycles;
	cx->offset = cx->run->cycles - cx->res->cycles;
}

void ulp_gl_ctx_draw_end(ulp_gl_ctx *cx)
{
	if (!cx || !cx->res)
		return;
	if (cx->has_tl)
		sim_tl_flush(&cx->tl);
	cx->run->cycles += cx->res->cycles - cx->begin_cycles;
}

void ulp_gl_run_remove(ulp_gl_run *run, ulp_gl_ctx *cx)
{
	(void)run;
	if (!cx || !cx->res)
		return;
	if (cx->has_tl) {
		sim_tl_fini(&cx->tl);
		cx->has_tl = false;
	}
	cx->done = malloc(sizeof *cx->done);
	if (cx->done) {
		*cx->done = *cx->res;
		cx->done->image = NULL;          /* the session's to free */
		cx->done->depth = NULL;
	}
	cx->res = NULL;
	cx->cfg = NULL;
}

uint64_t ulp_gl_run_cycles(const ulp_gl_run *run)
{
	return run->cycles;
}

static sim_unit *unit_named(sim_unit *u, unsigned n, const char *name)
{
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(u[k].name, name))
			return &u[k];
	return NULL;
}

bool ulp_gl_run_write_stats(ulp_gl_run *run, ulp_diag *d)
{
	if (!run->stats_path)
		return true;
	enum { MAX_UNITS = 2 * REPLAY_MAX_UNITS };
	sim_unit *sum = calloc(MAX_UNITS, sizeof *sum);
	if (!sum)
		return ulp_diag_at(d, run->stats_path, 0, 0, "out of memory");
	unsigned n = 0;
	uint64_t cycles = 0;
	for (size_t k = 0; k < run->ncx; k++) {
		const replay_result *r = run->cx[k]->res ? run->cx[k]->res : run->cx[k]->done;
		if (!r)
			continue;
		cycles += r->cycles;
		for (unsigned j = 0; j < r->nunits; j++) {
			const sim_unit *u = &r->unit[j];
			sim_unit *s = unit_named(sum, n, u->name);
			if (!s && n < MAX_UNITS) {
				s = &sum[n++];
				sim_unit_init(s, u->name, NULL, u->counter_defs, u->ncounters);
			}
			if (s)
				sim_unit_stats_add(&s->stats, &u->stats);
		}
	}
	sim_unit *ptr[MAX_UNITS];
	for (unsigned k = 0; k < n; k++)
		ptr[k] = &sum[k];
	stats_txt_opts o = { .prefix = "gpu", .silicon_mhz = (uint32_t)run->cfg.gr3d_clock_mhz, .cfg = &run->cfg };
	stats_txt *w = stats_txt_open(run->stats_path, ptr, n, &o, d);
	bool ok = w != NULL;
	if (ok) {
		for (size_t k = 0; k < run->ncx; k++) {
			const replay_result *r = run->cx[k]->res ? run->cx[k]->res : run->cx[k]->done;
			if (r)
				stats_txt_port_marks(w, r->port, r->nports);
		}
		ok = stats_txt_close(w, cycles, 0, d);
	}
	free(sum);
	return ok;
}

bool ulp_gl_run_close(ulp_gl_run *run, ulp_diag *d)
{
	if (!run)
		return true;
	bool ok = ulp_gl_run_write_stats(run, d);
	for (size_t k = 0; k < run->ncx; k++) {
		if (run->cx[k]->has_tl)
			sim_tl_fini(&run->cx[k]->tl);
		free(run->cx[k]->done);
		free(run->cx[k]);
	}
	free(run->cx);
	if (run->has_tl) {
		sim_tl_fini(&run->tl);
		ulp_diag td;
		ulp_diag_clear(&td);
		bool tok = true;
		if (run->chrome)
			tok = tl_chrome_close(run->chrome, &td);
		if (run->vcd)
			tok = tl_vcd_close(run->vcd, &td);
		if (ok && !tok) {
			*d = td;
			ok = false;
		}
	}
	free(run->stats_path);
	free(run);
	return ok;
}
