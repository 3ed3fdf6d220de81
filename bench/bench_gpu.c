/* The whole GPU pipeline on one clock (units/gpu.h), every unit from vertex
 * fetch to DW, through replay_run (issue 6):
 *
 *   - lit_sphere: traces/samples/lit_sphere.json as it is (1152 vertices);
 *   - cube: traces/samples/textured_cube.json (textured, depth-tested)
 *     rendered at the bench size (640x480), the trace edited in memory;
 *   - fill30: a full-screen quad running the 30-EXEC corpus program
 *     blend_saturate (bench_gpu_trace.c).
 *
 * Each runs without and with timeline recording (every event handed to a
 * sink that counts and discards them), printing simulated cycles/s (skip-
 * ahead cycles included: the clock's cycles at the end of each draw) and
 * fragments/s, and the recording ratio (goals: >= 10 M cycles/s, >= 50%).
 * Then the recording memory: the timeline store with a cycle window, over
 * a short and a long run, must peak at the same size (bounded by the
 * window, not the run). --check prints what each run computed (cycles,
 * fragments, every unit's figures, an image hash): no speed-up may change
 * it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "bench/bench.h"
#include "bench/bench_gpu.h"
#include "traces/replay/replay.h"
#include "sim/core/timeline.h"
#include "sim/core/tl_store.h"

static bool count_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	(void)ev;
	*(uint64_t *)ctx += n;
	return true;
}

/* FNV-1a over the final colour buffer. */
static uint64_t image_hash(const ulp_image *img)
{
	uint64_t h = UINT64_C(14695981039346656037);
	if (!img)
		return 0;
	for (size_t k = 0; k < (size_t)img->width * img->height * 4; k++)
		h = (h ^ img->rgba[k]) * UINT64_C(1099511628211);
	return h;
}

static void print_check(const char *label, const char *mode, int rep, const replay_result *r)
{
	printf("check gpu %s %s rep %d: cycles %llu vertex %llu fragment %llu triangles %llu fragments %llu "
	       "rt %016llx\n",
	       label, mode, rep, (unsigned long long)r->cycles, (unsigned long long)r->vertex_cycles,
	       (unsigned long long)r->fragment_cycles, (unsigned long long)r->triangles,
	       (unsigned long long)r->fragments, (unsigned long long)image_hash(r->image));
	for (unsigned k = 0; k < r->nunits; k++) {
		const sim_unit *u = &r->unit[k];
		printf("check   %-7s busy %llu stalls", u->name, (unsigned long long)u->stats.busy);
		for (unsigned s = 0; s < SIM_STALL_COUNT; s++)
			printf(" %llu", (unsigned long long)u->stats.stall[s]);
		printf(" counters");
		for (unsigned c = 0; c < u->ncounters; c++)
			printf(" %llu", (unsigned long long)u->stats.counter[c]);
		printf("\n");
	}
}

/* One replay; tl NULL = no recording.  Returns seconds, < 0 on failure. */
static double run_once(const trace *tr, sim_timeline *tl, bool keep, replay_result *res)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .tl = tl, .keep_image = keep };
	ulp_diag d;
	ulp_diag_clear(&d);
	double t0 = bench_now();
	bool ok = replay_run(tr, &o, res, &d);
	double dt = bench_now() - t0;
	if (!ok) {
		fprintf(stderr, "bench: gpu: %s\n", d.msg);
		return -1;
	}
	return dt;
}

typedef struct gpu_speed {
	double dt;                  /* best of reps */
	uint64_t cycles, fragments, events;
} gpu_speed;

static bool measure(bench_table *t, const trace *tr, const char *label, bool record, gpu_speed *s)
{
	memset(s, 0, sizeof *s);
	for (int rep = 0; rep < t->reps; rep++) {
		sim_timeline tl;
		uint64_t events = 0;
		if (record) {
			if (!sim_tl_init(&tl))
				return false;
			sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = &events, .write = count_write });
			tl.enabled = true;
		}
		replay_result res;
		double dt = run_once(tr, record ? &tl : NULL, t->check, &res);
		if (record)
			sim_tl_fini(&tl);
		if (dt < 0)
			return false;
		if (t->check)
			print_check(label, record ? "recording" : "off", rep, &res);
		ulp_image_free(res.image);
		if (rep == 0 || dt < s->dt)
			s->dt = dt;
		s->cycles = res.cycles;
		s->fragments = res.fragments;
		s->events = events;
	}
	return s->dt > 0;
}

static void speed_rows(bench_table *t, const trace *tr, const char *label)
{
	if (t->only && !strstr(label, t->only))
		return;
	gpu_speed off, on;
	char name[128];
	if (t->record >= 0) {        /* one mode (profiling) */
		if (!measure(t, tr, label, t->record, &on))
			return;
		snprintf(name, sizeof name, "gpu %s%s: simulated cycles", label, t->record ? ", recording" : "");
		bench_add(t, name, on.cycles / on.dt, "cycles/s", "");
		return;
	}
	if (!measure(t, tr, label, false, &off) || !measure(t, tr, label, true, &on))
		return;
	snprintf(name, sizeof name, "gpu %s: simulated cycles", label);
	bench_add(t, name, off.cycles / off.dt, "cycles/s", ">= 10 M (issue 6)");
	snprintf(name, sizeof name, "gpu %s: fragments", label);
	bench_add(t, name, off.fragments / off.dt, "fragments/s", "");
	snprintf(name, sizeof name, "gpu %s, recording: simulated cycles", label);
	bench_add(t, name, on.cycles / on.dt, "cycles/s", "");
	snprintf(name, sizeof name, "gpu %s, recording: fragments", label);
	bench_add(t, name, on.fragments / on.dt, "fragments/s", "");
	snprintf(name, sizeof name, "gpu %s, recording: events", label);
	bench_add(t, name, (double)on.events, "events", "");
	snprintf(name, sizeof name, "gpu %s: speed recording / off", label);
	bench_add(t, name, 100.0 * off.dt / on.dt, "%", ">= 50% (issue 6)");
}

/* The timeline store's high-water mark, recording a window of cycles of a
 * run; the whole run's events are counted by a second sink. */
static bool window_peak(const trace *tr, uint64_t window, size_t *peak_bytes, uint64_t *events,
                        uint64_t *cycles)
{
	sim_timeline tl;
	sim_tl_store store;
	if (!sim_tl_init(&tl))
		return false;
	sim_tl_store_init(&store, SIZE_MAX / sizeof(sim_tl_event));
	sim_tl_add_sink(&tl, sim_tl_store_sink(&store));
	tl.enabled = true;
	tl.from = 0;
	tl.to = window;
	replay_result res;
	double dt = run_once(tr, &tl, false, &res);
	sim_tl_flush(&tl);
	*peak_bytes = store.cap * sizeof(sim_tl_event) + SIM_TL_CHUNK * sizeof(sim_tl_event);
	sim_tl_fini(&tl);
	sim_tl_store_free(&store);
	if (dt < 0)
		return false;
	/* the same run's events over its whole length */
	if (!sim_tl_init(&tl))
		return false;
	*events = 0;
	sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = events, .write = count_write });
	tl.enabled = true;
	dt = run_once(tr, &tl, false, &res);
	sim_tl_fini(&tl);
	*cycles = res.cycles;
	return dt >= 0;
}

static void memory_rows(bench_table *t)
{
	if ((t->only && !strstr("fill30 memory", t->only)) || t->record >= 0)
		return;
	enum { WINDOW = 100000 };
	const unsigned sizes[2][2] = { { 320, 240 }, { 640, 480 } };
	for (int k = 0; k < 2; k++) {
		trace tr;
		if (!bench_gpu_fill30(&tr, sizes[k][0], sizes[k][1]))
			return;
		size_t peak;
		uint64_t events, cycles;
		bool ok = window_peak(&tr, WINDOW, &peak, &events, &cycles);
		trace_free(&tr);
		if (!ok)
			return;
		char name[128];
		snprintf(name, sizeof name, "gpu fill30 %ux%u: cycles (run length)", sizes[k][0], sizes[k][1]);
		bench_add(t, name, (double)cycles, "cycles", "");
		snprintf(name, sizeof name, "gpu fill30 %ux%u: events in the run", sizes[k][0], sizes[k][1]);
		bench_add(t, name, (double)events, "events", "");
		snprintf(name, sizeof name, "gpu fill30 %ux%u: store peak, 100k-cycle window", sizes[k][0],
		         sizes[k][1]);
		bench_add(t, name, (double)peak, "bytes", "same for both lengths");
	}
}

void bench_gpu(bench_table *t)
{
	char label[64];
	trace tr;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (trace_load(&tr, "traces/samples/lit_sphere.json", &d))
		speed_rows(t, &tr, "lit_sphere 128x128");
	else
		fprintf(stderr, "bench: %s\n", d.msg);
	trace_free(&tr);
	if (bench_gpu_cube(&tr, t->width, t->height)) {
		snprintf(label, sizeof label, "cube %ux%u", t->width, t->height);
		speed_rows(t, &tr, label);
		trace_free(&tr);
	}
	if (bench_gpu_fill30(&tr, t->width, t->height)) {
		snprintf(label, sizeof label, "fill30 %ux%u", t->width, t->height);
		speed_rows(t, &tr, label);
		trace_free(&tr);
	}
	memory_rows(t);
}
