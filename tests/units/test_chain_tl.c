/* Recording a timeline with the stage chain allowed (sim.gr3d_chain on) and
 * forced off: every event, in order, and every result the same (issue 18's
 * recording goal; docs/speed-s15-rec.md).  The oracle is the path where MFU,
 * TEX, ALU and DW tick as clocked units.  Today a draw with a timeline keeps
 * them (gr3d_chain_ok); these tests hold any change that lets the chain run
 * under a timeline to the same event stream: every corpus program (1 EXEC,
 * several EXECs with recirculation, textures, kills), five port settings,
 * the whole draw and a cycle window (--timeline-from/to), and the sample
 * traces on Tegra 2, Tegra 3's two blocks on one host thread and on two.
 * Mutant: gr3d_chain_ok without its timeline test fails both. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/core/timeline.h"
#include "tests/test_replay_pair.h"
#include "tests/units/gr3d_rig.h"
#include "traces/replay/replay.h"
#include "ulpsim/ulpsim.h"

/* The first event where a and b differ, as text into buf (n bytes); false
 * when they are the same. */
static bool first_diff(const test_ev_log *a, const test_ev_log *b, char *buf, size_t n)
{
	const size_t m = a->n < b->n ? a->n : b->n;
	for (size_t i = 0; i < m; i++) {
		const sim_tl_event *x = &a->ev[i], *y = &b->ev[i];
		if (x->cycle != y->cycle || x->id != y->id || x->arg != y->arg || x->lane != y->lane ||
		    x->kind != y->kind) {
			snprintf(buf, n,
			         "event %zu of %zu/%zu: off (cycle %llu lane %u kind %u id %u arg %u) "
			         "on (cycle %llu lane %u kind %u id %u arg %u)",
			         i, a->n, b->n, (unsigned long long)x->cycle, x->lane, x->kind, x->id, x->arg,
			         (unsigned long long)y->cycle, y->lane, y->kind, y->id, y->arg);
			return true;
		}
	}
	if (a->n != b->n) {
		snprintf(buf, n, "%zu events off, %zu on", a->n, b->n);
		return true;
	}
	return false;
}

/* The lane names registered (their order gives the lane ids). */
static void lanes_same(const sim_timeline *a, const sim_timeline *b, const char *what)
{
	cr_assert_eq(a->nlanes, b->nlanes, "%s: %u lanes off, %u on", what, a->nlanes, b->nlanes);
	for (unsigned l = 0; l < a->nlanes; l++)
		cr_assert_str_eq(a->lane_name[l], b->lane_name[l], "%s: lane %u", what, l);
}

/* Ports as in test_chain.c's settings: the defaults, then small FIFOs and
 * uneven latencies (output_full stalls, recirculation waits). */
static void port_setting(ulp_config *c, unsigned setting)
{
	switch (setting) {
	case 1:
		c->tegra_fifo_quads = 1;
		break;
	case 2:
		c->tegra_fifo_quads = 2;
		c->tegra_lat_mfu = 3;
		c->tegra_lat_alu = 4;
		break;
	default:
		break;
	}
}

typedef struct tl_ctx {
	ulp_image *tex;
	unsigned draws;
	size_t events;
} tl_ctx;

static void draw_logged(const tegra_fp_decoded *dec, const tegra_fp_program *fp, const ulp_config *c,
                        const ulp_image *tex, uint64_t from, uint64_t to, test_ev_log *log, sim_timeline *tl,
                        gr3d_rig_out *o)
{
	cr_assert(sim_tl_init(tl));
	cr_assert(sim_tl_add_sink(tl, test_ev_sink(log)));
	tl->enabled = true;
	tl->from = from;
	tl->to = to;
	gr3d_rig_draw(dec, fp->constants, c, tex, tl, o);
	sim_tl_flush(tl);
}

static void program_tl(void *ctx, const char *path, const tegra_fp_program *fp, const tegra_fp_decoded *dec)
{
	tl_ctx *x = ctx;
	for (unsigned setting = 0; setting < 3; setting++) {
		for (unsigned window = 0; window < 2; window++) {
			ulp_config on;
			ulp_config_defaults(&on);
			port_setting(&on, setting);
			on.host_gr3d_chain = true;
			ulp_config off = on;
			off.host_gr3d_chain = false;
			const uint64_t from = window ? 40 : 0, to = window ? 400 : UINT64_MAX;
			test_ev_log la = { 0 }, lb = { 0 };
			sim_timeline ta, tb;
			gr3d_rig_out a, b;
			draw_logged(dec, fp, &off, x->tex, from, to, &la, &ta, &a);
			draw_logged(dec, fp, &on, x->tex, from, to, &lb, &tb, &b);
			char what[1200], diff[400];
			snprintf(what, sizeof what, "%s, setting %u, window %u", path, setting, window);
			lanes_same(&ta, &tb, what);
			cr_assert(!first_diff(&la, &lb, diff, sizeof diff), "%s: %s", what, diff);
			gr3d_rig_same(&a, &b, what);
			x->draws++;
			x->events += la.n;
			free(la.ev);
			free(lb.ev);
			sim_tl_fini(&ta);
			sim_tl_fini(&tb);
			ulp_image_free(a.rt);
			ulp_image_free(b.rt);
		}
	}
}

Test(chain_tl, corpus_programs_same_events, .timeout = 600)
{
	tl_ctx x = { .tex = gr3d_rig_texture() };
	const unsigned programs = gr3d_rig_each_program(program_tl, &x);
	ulp_image_free(x.tex);
	fprintf(stderr, "chain_tl: %u corpus programs, %u draws, %zu events each way\n", programs, x.draws, x.events);
	cr_assert_gt(programs, 50);
	cr_assert_gt(x.events, 0);
}

/* The sample traces (vertex and fragment units on one clock): Tegra 2, and
 * Tegra 3's two blocks on one host thread and on two. */
Test(chain_tl, samples_same_events_on_both_gpus_and_threads, .timeout = 600)
{
	for (size_t s = 0; s < TEST_NSAMPLES; s++) {
		char path[128];
		trace t;
		test_sample_load(&t, TEST_SAMPLES[s], path, sizeof path);
		for (unsigned setting = 0; setting < 3; setting++) {
			ulp_config on;
			test_gpu_setting(&on, setting);
			on.host_gr3d_chain = true;
			ulp_config off = on;
			off.host_gr3d_chain = false;
			test_run a, b;
			test_replay_run(&t, &off, true, 0, &a);
			test_replay_run(&t, &on, true, 0, &b);
			char what[192];
			snprintf(what, sizeof what, "%s, setting %u", path, setting);
			cr_assert(a.ok && b.ok, "%s: %s | %s", what, a.msg, b.msg);
			cr_assert_gt(a.log.n, 0, "%s: no events", what);
			test_runs_same(&a, &b, what);
			test_run_free(&a);
			test_run_free(&b);
		}
		trace_free(&t);
	}
}
