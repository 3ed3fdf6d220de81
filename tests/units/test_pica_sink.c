/* pica_batch_run's sink and vertex fetch ahead of the clock (units/gpu.c,
 * units/pica/vfetch.c, docs/speed-s14-vertex.md): without a timeline the
 * units hand their results to the sink at END instead of its ticking a
 * cycle later, and a unit's END may run vertex fetch's next tick ahead.
 * Both must give what the ticking sink and vertex fetch give with a
 * timeline: the same outputs in the same order, cycles, every unit's
 * figures, errors and their messages. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"
#include "tests/units/pica_rig.h"

typedef pica_rig_run run_out;

/* a: without a timeline (the sink takes at END, vertex fetch may run
 * ahead), b: with one (everything ticks) */
static void expect_same(const run_out *a, const run_out *b, const char *what)
{
	pica_rig_expect_same(a, b, what);
	cr_assert_gt(b->ev.n, 0, "%s: the timeline recorded nothing", what);
}

static void compare(const pica_program *p, const pica_uniforms *u, const ulp_config *cfg, bool general,
                    unsigned units, uint32_t n, const char *what)
{
	run_out a, b;
	pica_rig_run_jobs(p, u, cfg, general, false, units, n, pica_rig_vary_job, pica_rig_keep, NULL, &a);
	pica_rig_run_jobs(p, u, cfg, general, true, units, n, pica_rig_vary_job, pica_rig_keep, NULL, &b);
	char w[1300];
	snprintf(w, sizeof w, "%s, %u units, %u jobs%s", what, units, n, general ? ", general" : "");
	expect_same(&a, &b, w);
	pica_rig_run_free(&a);
	pica_rig_run_free(&b);
}

static const char *const SETTINGS[] = {
	NULL,
	"pica.issue_cycles=2",
	"pica.flow_bubble=3",
	"pica.latency.alu=1",
	"pica.latency.sfu=9",
	"sim.watchdog_cycles=0",
	"sim.watchdog_cycles=60",
	"pica.max_steps=20",
};

static void sink_case(void *ctx, const pica_program *p, const pica_uniforms *u, const ulp_config *cfg,
                      size_t setting, const char *what)
{
	(void)ctx;
	for (unsigned units = 1; units <= 4; units++)
		compare(p, u, cfg, false, units, units == 4 ? 41 : 13, what);
	if (setting == 0 || setting == 6)
		compare(p, u, cfg, true, 4, 9, what);
}

Test(pica_sink, corpus_shaders_without_a_timeline_match_the_ticking_sink, .timeout = 240)
{
	const unsigned shaders =
		pica_rig_each_corpus_vs(SETTINGS, sizeof SETTINGS / sizeof SETTINGS[0], sink_case, NULL);
	cr_assert_gt(shaders, 15, "only %u vertex shaders", shaders);
}

/* Vertex 1 (unit 1's) waits 64 cycles for an RCP, the others are quick:
 * the watchdog (40 cycles) counts from the last busy cycle, which is the
 * sink's pop of vertex 2's result, the cycle after unit 0's END. */
static void slow_second_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	for (int k = 0; k < 4; k++) {
		job->v[0].c[k] = (float)(id + (unsigned)k);
		job->v[1].c[k] = id == 1 ? 10.0f : 0.0f;
	}
}

Test(pica_sink, the_watchdog_counts_from_the_sinks_last_pop)
{
	rig *r = build(".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	               "  cmp k, lt, lt, v1\n  ifc cmp.x\n    rcp r0, v1.x\n    mul r1, r0, v1\n  .end\n"
	               "  mov o0, v0\n  end\n.end\n");
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cr_assert(ulp_config_set(&cfg, "pica.latency.sfu=64", &r->d), "%s", r->d.msg);
	cr_assert(ulp_config_set(&cfg, "sim.watchdog_cycles=40", &r->d), "%s", r->d.msg);
	run_out res[2];
	for (int record = 0; record < 2; record++) {
		run_out *o = &res[record];
		pica_rig_run_jobs(&r->p, &r->u, &cfg, false, record, 2, 3, slow_second_job, pica_rig_keep, NULL, o);
		cr_assert_not(o->ok, "the watchdog should stop the run");
		cr_assert(strstr(o->msg, "watchdog"), "%s", o->msg);
		cr_assert_eq(o->o.n, 2, "vertices 0 and 2 done, %zu", o->o.n);
	}
	expect_same(&res[0], &res[1], "a watchdog after the last pop");
	pica_rig_run_free(&res[0]);
	pica_rig_run_free(&res[1]);
	unbuild(r);
}

/* One vertex, bad, leaves o1 unwritten after n more instructions than
 * the others: the run halts at its END, in a pass where vertex fetch may
 * have booked a wait from that cycle (its stall taken back by settle) or
 * the other units their next jobs.  Every halting vertex from the 4th to
 * the 40th, on 4 and 3 units, its END 0 to 7 cycles later: vertex fetch's
 * figures too must be the ticking ones. */
static void one_bad_job(void *ctx, uint32_t id, pica_job *job)
{
	const uint32_t bad = *(const uint32_t *)ctx;
	for (int k = 0; k < 4; k++) {
		job->v[0].c[k] = (float)(id + (uint32_t)k) * 0.25f;
		job->v[1].c[k] = id == bad ? 1e10f : k == 0 ? 0.0f : (float)(id % 5);
	}
}

Test(pica_sink, halted_runs_match_the_ticking_units, .timeout = 120)
{
	unsigned stalled = 0;
	for (unsigned n = 0; n < 8; n++) {
		char src[600] = ".out o0 position\n.out o1 color\n.constf k(1.0, 1000000000.0, 3.0, 4.0)\n"
		                ".proc main\n  mov r0, v0\n  cmp k, lt, ge, v1\n  mul r1, k, v0\n  mov o0, r0\n"
		                "  ifc cmp.x\n";
		for (unsigned i = 0; i < n; i++)
			strcat(src, "    nop\n");
		strcat(src, "  .end\n  ifc cmp.y\n    mov o1, r1\n  .end\n  end\n.end\n");
		rig *r = build(src);
		cr_assert(r->p.batch, "the batch plan should accept this program");
		for (unsigned units = 4; units >= 3; units--)
			for (uint32_t bad = 4; bad <= 40; bad++) {
				run_out res[2];
				for (int record = 0; record < 2; record++) {
					run_out *o = &res[record];
					pica_rig_run_jobs(&r->p, &r->u, &r->cfg, false, record, units, 80, one_bad_job, NULL,
					                  &bad, o);
					cr_assert_not(o->ok, "vertex %u should stop the run", bad);
				}
				char what[80];
				snprintf(what, sizeof what, "%u nops, %u units, vertex %u bad", n, units, bad);
				expect_same(&res[0], &res[1], what);
				stalled += res[0].st.fetch.stall[SIM_STALL_OUTPUT_FULL] > 0;
				pica_rig_run_free(&res[0]);
				pica_rig_run_free(&res[1]);
			}
		unbuild(r);
	}
	cr_assert_gt(stalled, 400, "vertex fetch should wait for room in most runs");
}

/* A program that writes part of an output register (o2.xy): the taken
 * result's o2 follows o[0] component by component (shade_merge). */
Test(pica_sink, partly_written_outputs_match_the_ticking_sink)
{
	rig *r = build(".out - position o0.xyzw\n.out - texcoord0 o2.xy\n.proc main\n  mov o0, v0\n"
	               "  mov o2.xy, v1\n  end\n.end\n");
	cr_assert(r->p.batch, "the batch plan should accept this program");
	compare(&r->p, &r->u, &r->cfg, false, 4, 37, "o2.xy");
	compare(&r->p, &r->u, &r->cfg, false, 1, 9, "o2.xy");
	compare(&r->p, &r->u, &r->cfg, true, 2, 9, "o2.xy");
	unbuild(r);
}
