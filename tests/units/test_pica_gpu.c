/* Shading ahead on the GPU's draw path (units/gpu.c, vfetch_shade_ahead):
 * vertex fetch reads the trace's buffers, makes sixteen jobs at once and
 * runs the vertex shader over them in lanes; the units book the time.  Every
 * sample trace and an es2gears frame, replayed on four and on one shader
 * unit (two with a geometry shader), must give what the ticking units give: the same cycles, every
 * unit's figures, every port's mark and the same image.  The ticking
 * references: --permissive (no shading ahead, no running ahead: each
 * instruction on the clock) and a timeline (the units tick every cycle). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "sim/core/timeline.h"
#include "tests/test_replay_pair.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"

static const char *const TRACES[] = {
	"traces/samples/triangle.json",    "traces/samples/lit_sphere.json",
	"traces/samples/textured_cube.json", "traces/samples/gs_particles.json",
	"traces/samples/alpha_blend.json", "traces/samples/discard.json",
	"traces/captures/es2gears/frame-0001.json",
};

enum how { AHEAD, PERMISSIVE, TIMELINE };

/* Replays t with units shader units (and a setting, or NULL; a cycle
 * budget, or 0); false with the message in msg when the replay stops. */
static bool run_with(const trace *t, unsigned units, const char *setting, uint64_t max_cycles, enum how how,
                     replay_result *res, test_ev_log *ev, char *msg, size_t nmsg)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	char set[32];
	snprintf(set, sizeof set, "pica.units=%u", units);
	ulp_diag d;
	cr_assert(ulp_config_set(&cfg, set, &d), "%s", d.msg);
	cr_assert(!setting || ulp_config_set(&cfg, setting, &d), "%s", d.msg);
	sim_timeline tl;
	replay_opts o = { .cfg = &cfg, .keep_image = true, .permissive = how == PERMISSIVE,
	                  .max_cycles = max_cycles };
	if (how == TIMELINE) {
		cr_assert(sim_tl_init(&tl));
		sim_tl_add_sink(&tl, test_ev_sink(ev));
		tl.enabled = true;
		o.tl = &tl;
	}
	memset(res, 0, sizeof *res);
	ulp_diag_clear(&d);
	const bool ok = replay_run(t, &o, res, &d);
	if (how == TIMELINE)
		sim_tl_fini(&tl);
	snprintf(msg, nmsg, "%s", d.msg);
	return ok;
}

static void run(const trace *t, unsigned units, enum how how, replay_result *res, test_ev_log *ev)
{
	char msg[ULP_DIAG_MSG_MAX];
	cr_assert(run_with(t, units, NULL, 0, how, res, ev, msg, sizeof msg), "%s", msg);
	cr_assert(res->image);
}

Test(pica_gpu, shading_ahead_matches_the_ticking_units, .timeout = 240)
{
	for (size_t i = 0; i < sizeof TRACES / sizeof TRACES[0]; i++) {
		trace t;
		ulp_diag d;
		cr_assert(trace_load(&t, TRACES[i], &d), "%s: %s", TRACES[i], d.msg);
		/* a geometry shader takes a unit of its own: 2 is its fewest */
		const unsigned fewest = strstr(TRACES[i], "gs_") ? 2 : 1;
		for (unsigned units = 4; units >= fewest; units = units == 4 ? fewest : 0) {
			replay_result r[3];
			test_ev_log ev[1] = { { 0 } };
			run(&t, units, AHEAD, &r[0], NULL);
			run(&t, units, PERMISSIVE, &r[1], NULL);
			run(&t, units, TIMELINE, &r[2], &ev[0]);
			char what[160];
			snprintf(what, sizeof what, "%s, %u unit(s), ahead vs permissive", TRACES[i], units);
			test_results_same(&r[0], &r[1], what);
			snprintf(what, sizeof what, "%s, %u unit(s), ahead vs timeline", TRACES[i], units);
			test_results_same(&r[0], &r[2], what);
			cr_assert_gt(r[0].vertices, 0, "%s", what);
			for (int k = 0; k < 3; k++)
				ulp_image_free(r[k].image);
			free(ev[0].ev);
		}
		trace_free(&t);
	}
}

/* A draw that stops: pica.max_steps below the shader's length (each vertex
 * runs the ordinary way and reports at its cycle), and a cycle budget that
 * runs out mid-draw (the booked cycles taken back): the same message and
 * the same figures shading ahead as ticking with a timeline. */
Test(pica_gpu, stopped_draws_match_the_ticking_units, .timeout = 120)
{
	static const char *const STOP[] = { "traces/samples/lit_sphere.json",
	                                    "traces/captures/es2gears/frame-0001.json" };
	for (size_t i = 0; i < sizeof STOP / sizeof STOP[0]; i++) {
		trace t;
		ulp_diag d;
		cr_assert(trace_load(&t, STOP[i], &d), "%s: %s", STOP[i], d.msg);
		replay_result full;
		run(&t, 4, AHEAD, &full, NULL);
		for (int k = 0; k < 2; k++) {
			const char *setting = k == 0 ? "pica.max_steps=4" : NULL;
			const uint64_t budget = k == 0 ? 0 : full.vertex_cycles / 2 + 1;
			for (unsigned units = 4; units >= 1; units -= 3) {
				replay_result a, b;
				test_ev_log ev = { 0 };
				char ma[ULP_DIAG_MSG_MAX], mb[ULP_DIAG_MSG_MAX];
				const bool oka = run_with(&t, units, setting, budget, AHEAD, &a, NULL, ma, sizeof ma);
				const bool okb = run_with(&t, units, setting, budget, TIMELINE, &b, &ev, mb, sizeof mb);
				cr_assert_not(oka, "%s %d: the draw should stop", STOP[i], k);
				cr_assert_not(okb, "%s %d: the draw should stop", STOP[i], k);
				cr_assert_str_eq(ma, mb, "%s %d, %u unit(s)", STOP[i], k, units);
				cr_assert_eq(a.cycles, b.cycles, "%s %d", STOP[i], k);
				cr_assert_eq(a.draws, b.draws, "%s %d", STOP[i], k);
				ulp_image_free(a.image);
				ulp_image_free(b.image);
				free(ev.ev);
				if (units == 1)
					break;
			}
		}
		ulp_image_free(full.image);
		trace_free(&t);
	}
}

/* The shared out port full (a long geometry latency: results wait in it):
 * a booked vertex's END waits for room, as END does on the ticking units. */
Test(pica_gpu, full_out_port_matches_the_ticking_units, .timeout = 120)
{
	static const char *const BUSY[] = { "traces/samples/lit_sphere.json",
	                                    "traces/captures/es2gears/frame-0001.json" };
	for (size_t i = 0; i < sizeof BUSY / sizeof BUSY[0]; i++) {
		trace t;
		ulp_diag d;
		cr_assert(trace_load(&t, BUSY[i], &d), "%s: %s", BUSY[i], d.msg);
		replay_result r[3];
		test_ev_log ev = { 0 };
		char msg[ULP_DIAG_MSG_MAX];
		const enum how how[3] = { AHEAD, PERMISSIVE, TIMELINE };
		for (int k = 0; k < 3; k++)
			cr_assert(run_with(&t, 4, "gpu.latency.geometry=100", 0, how[k], &r[k],
			                   how[k] == TIMELINE ? &ev : NULL, msg, sizeof msg), "%s", msg);
		uint64_t full = 0;
		for (unsigned k = 0; k < r[0].nunits; k++)
			if (strncmp(r[0].unit[k].name, "vsh", 3) == 0)
				full += r[0].unit[k].stats.stall[SIM_STALL_OUTPUT_FULL];
		cr_assert_gt(full, 0, "%s: the shader units should wait for the out port", BUSY[i]);
		char what[160];
		snprintf(what, sizeof what, "%s, out port full, ahead vs permissive", BUSY[i]);
		test_results_same(&r[0], &r[1], what);
		snprintf(what, sizeof what, "%s, out port full, ahead vs timeline", BUSY[i]);
		test_results_same(&r[0], &r[2], what);
		for (int k = 0; k < 3; k++)
			ulp_image_free(r[k].image);
		free(ev.ev);
		trace_free(&t);
	}
}
