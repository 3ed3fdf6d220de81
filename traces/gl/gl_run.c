/* The outputs of a whole `ulpsim gl` run over its GL contexts (gl_run.h). */
#include "traces/gl/gl_run.h"

#include <stdio.h>
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
	char *tl_path;               /* NULL: none */
	bool has_tl;
	sim_timeline tl;             /* the run's axis: its sink appends to log */
	FILE *log;                   /* every event of the run so far (tmpfile: memory stays bounded) */
	bool log_failed;
	uint64_t logged;             /* events in log */
	char lane[SIM_TL_MAX_LANES][64];   /* the run's lane names (a context's may go with it) */
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

/* The run's timeline sink: the events into the log. */
static bool log_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	ulp_gl_run *run = ctx;
	if (run->log_failed || fwrite(ev, sizeof *ev, n, run->log) != n) {
		run->log_failed = true;
		return false;
	}
	run->logged += n;
	return true;
}

/* A timeline writer at path for tl (lanes named): tl's sink; false with d. */
static bool writer_open(const char *path, sim_timeline *tl, tl_chrome **chrome, tl_vcd **vcd, ulp_diag *d)
{
	*chrome = NULL, *vcd = NULL;
	if (ends_with(path, ".json")) {
		tl_chrome_opts co = { .tl = tl, .process_name = "ulpsim gl" };
		*chrome = tl_chrome_open(path, &co, d);
		return *chrome && sim_tl_add_sink(tl, tl_chrome_sink(*chrome));
	}
	tl_vcd_opts vo = { .tl = tl, .top = "gpu" };
	*vcd = tl_vcd_open(path, &vo, d);
	return *vcd && sim_tl_add_sink(tl, tl_vcd_sink(*vcd));
}

static void writer_abort(tl_chrome *chrome, tl_vcd *vcd)
{
	if (chrome)
		tl_chrome_abort(chrome);
	if (vcd)
		tl_vcd_abort(vcd);
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
	if (!ends_with(timeline_path, ".json") && !ends_with(timeline_path, ".vcd")) {
		ulp_diag_at(d, timeline_path, 0, 0, "a timeline is FILE.json (Perfetto) or FILE.vcd");
	} else if (!(run->tl_path = strdup(timeline_path)) || !sim_tl_init(&run->tl)) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
	} else {
		run->has_tl = true;
		/* the path is tried now, so a bad one is said before the program runs */
		sim_timeline probe;
		tl_chrome *chrome;
		tl_vcd *vcd;
		bool ok = sim_tl_init(&probe);
		if (ok) {
			ok = writer_open(timeline_path, &probe, &chrome, &vcd, d);
			probe.nsinks = 0;                 /* the writer is aborted, not closed by fini */
			sim_tl_fini(&probe);
			writer_abort(chrome, vcd);
		} else {
			ulp_diag_at(d, NULL, 0, 0, "out of memory");
		}
		if (ok && !(run->log = tmpfile()))
			ok = ulp_diag_at(d, timeline_path, 0, 0, "cannot make a temporary file for the timeline's events");
		if (ok && sim_tl_add_sink(&run->tl, (sim_tl_sink){ .ctx = run, .write = log_write, .close = NULL })) {
			run->tl.enabled = true;
			return run;
		}
		if (run->log)
			fclose(run->log);
		sim_tl_fini(&run->tl);
	}
	free(run->tl_path);
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
		if (!cx->lane[l]) {
			const unsigned before = to->nlanes;
			const uint16_t id = sim_tl_lane(to, l < cx->tl.nlanes ? cx->tl.lane_name[l] : "?");
			if (to->nlanes > before) {
				snprintf(cx->run->lane[id], sizeof cx->run->lane[id], "%s", to->lane_name[id]);
				to->lane_name[id] = cx->run->lane[id];
			}
			cx->lane[l] = (uint16_t)(id + 1);
		}
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

/* The timeline of the run so far, written anew from the log (temp +
 * rename: the file is whole after every call). */
static bool write_timeline(ulp_gl_run *run, ulp_diag *d)
{
	if (!run->has_tl)
		return true;
	sim_tl_flush(&run->tl);
	if (run->log_failed || fflush(run->log) || ferror(run->log))
		return ulp_diag_at(d, run->tl_path, 0, 0, "the temporary file of the timeline's events: write error");
	sim_timeline t;
	if (!sim_tl_init(&t))
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	for (unsigned k = 0; k < run->tl.nlanes; k++)
		sim_tl_lane(&t, run->tl.lane_name[k]);
	tl_chrome *chrome;
	tl_vcd *vcd;
	if (!writer_open(run->tl_path, &t, &chrome, &vcd, d)) {
		t.nsinks = 0;
		sim_tl_fini(&t);
		writer_abort(chrome, vcd);
		return false;
	}
	t.enabled = true;
	rewind(run->log);
	sim_tl_event ev[256];
	uint64_t left = run->logged;
	bool ok = true;
	while (left && ok) {
		const size_t want = left < 256 ? (size_t)left : 256;
		const size_t got = fread(ev, sizeof *ev, want, run->log);
		for (size_t k = 0; k < got; k++)
			sim_tl_emit(&t, ev[k].cycle, ev[k].lane, (enum sim_tl_kind)ev[k].kind, ev[k].id, ev[k].arg);
		ok = got == want;
		left -= got;
	}
	if (fseek(run->log, 0, SEEK_END))
		ok = false;
	sim_tl_fini(&t);
	if (!ok) {
		writer_abort(chrome, vcd);
		return ulp_diag_at(d, run->tl_path, 0, 0, "the temporary file of the timeline's events: read error");
	}
	return chrome ? tl_chrome_close(chrome, d) : tl_vcd_close(vcd, d);
}

bool ulp_gl_run_write(ulp_gl_run *run, ulp_diag *d)
{
	bool ok = ulp_gl_run_write_stats(run, d);
	ulp_diag td;
	ulp_diag_clear(&td);
	if (!write_timeline(run, &td) && ok) {
		*d = td;
		ok = false;
	}
	return ok;
}

bool ulp_gl_run_close(ulp_gl_run *run, ulp_diag *d)
{
	if (!run)
		return true;
	for (size_t k = 0; k < run->ncx; k++)     /* a context not removed: its last events */
		if (run->cx[k]->has_tl)
			sim_tl_flush(&run->cx[k]->tl);
	bool ok = ulp_gl_run_write(run, d);
	for (size_t k = 0; k < run->ncx; k++) {
		if (run->cx[k]->has_tl)
			sim_tl_fini(&run->cx[k]->tl);
		free(run->cx[k]->done);
		free(run->cx[k]);
	}
	free(run->cx);
	if (run->has_tl) {
		sim_tl_fini(&run->tl);
		fclose(run->log);
	}
	free(run->tl_path);
	free(run->stats_path);
	free(run);
	return ok;
}
