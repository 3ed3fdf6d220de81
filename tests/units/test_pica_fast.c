/* The PICA200 fast path (units/pica/pica_fast.h, docs/speed-history.md "Vertices")
 * against the general path (env.general: every instruction through
 * pica_step, one tick per cycle): every corpus vertex shader over a batch,
 * under several knob settings, on 1 and 4 units, must give the same
 * outputs in the same order, the same cycles and every unit's figures;
 * with a timeline, the same events; an error found ahead, the same message
 * at the same cycle. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/units/pica_rig.h"
#include "units/pica/pica_batch.h"
#include "tests/test_replay_pair.h"
#include "tests/test_util.h"

typedef pica_rig_run run_out;

static void run_batch(const pica_program *p, const pica_uniforms *u, const ulp_config *cfg,
                      bool general, bool record, unsigned units, uint32_t n, run_out *out)
{
	pica_rig_run_jobs(p, u, cfg, general, record, units, n, pica_rig_vary_job, pica_rig_keep, NULL, out);
}

static void expect_same(const run_out *g, const run_out *f, const char *what)
{
	pica_rig_expect_same(g, f, what);
	cr_assert_eq(g->ev.n, f->ev.n, "%s: %zu vs %zu events", what, g->ev.n, f->ev.n);
	for (size_t k = 0; k < g->ev.n; k++)
		cr_assert_eq(memcmp(&g->ev.ev[k], &f->ev.ev[k], sizeof g->ev.ev[k]), 0,
		             "%s: event %zu differs", what, k);
}

static void compare(const pica_program *p, const pica_uniforms *u, const ulp_config *cfg,
                    bool record, unsigned units, uint32_t n, const char *what)
{
	run_out g, f;
	run_batch(p, u, cfg, true, record, units, n, &g);
	run_batch(p, u, cfg, false, record, units, n, &f);
	expect_same(&g, &f, what);
	pica_rig_run_free(&g);
	pica_rig_run_free(&f);
}

/* The defaults with one knob set (NULL: none); returns its name for the
 * messages. */
static const char *knob_config(rig *r, const char *knob, ulp_config *cfg)
{
	ulp_config_defaults(cfg);
	if (knob)
		cr_assert(ulp_config_set(cfg, knob, &r->d), "%s", r->d.msg);
	return knob ? knob : "defaults";
}

static const char *const SETTINGS[] = {
	NULL,
	"pica.issue_cycles=2",
	"pica.flow_bubble=0",
	"pica.flow_bubble=3",
	"pica.latency.sfu=9",
	"pica.latency.alu=1",
	"f24.round=nearest-even",
	"f24.max_zero_neg_inf=neg_inf",
	"sim.watchdog_cycles=0",
	"sim.watchdog_cycles=60",          /* too short for the fast path: it stays off */
	"pica.max_steps=20",               /* an error ahead in the longer shaders */
};

static void fast_case(void *ctx, const pica_program *p, const pica_uniforms *u, const ulp_config *cfg,
                      size_t setting, const char *what)
{
	(void)ctx;
	compare(p, u, cfg, false, 4, 48, what);
	compare(p, u, cfg, false, 1, 5, what);
	if (setting == 0 || setting == 3)
		compare(p, u, cfg, true, 4, 12, what);
}

Test(pica_fast, corpus_vertex_shaders_match_the_general_path)
{
	const unsigned shaders =
		pica_rig_each_corpus_vs(SETTINGS, sizeof SETTINGS / sizeof SETTINGS[0], fast_case, NULL);
	cr_assert_gt(shaders, 15, "only %u vertex shaders", shaders);
}

/* Programs that stop with an error part-way, found by the fast path ahead of
 * time: the same message, at the same cycle, with the same figures. */
Test(pica_fast, errors_found_ahead_stop_at_their_cycle)
{
	static const char *const SRC[] = {
		/* an output written twice after a few instructions */
		".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  mov r0, k\n  dp4 r1.x, r0, r0\n  mul r2, k, r1.xxxx\n  mov o0, r2\n  mov o0.x, k\n  end\n.end\n",
		/* an output left unwritten at END */
		".out o0 position\n.out o1 color\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  mov r0, k\n  rcp r1, r0.y\n  mov o0, r1\n  end\n.end\n",
		/* a loop that runs into pica.max_steps */
		".out o0 position\n.consti n(200, 0, 1, 0)\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  mov r0, k\n  for n\n    add r0, k, r0\n  .end\n  mov o0, r0\n  end\n.end\n",
	};
	for (size_t k = 0; k < sizeof SRC / sizeof SRC[0]; k++) {
		rig *r = build(SRC[k]);
		if (k == 2)
			cr_assert(ulp_config_set(&r->cfg, "pica.max_steps=150", &r->d));
		run_out g, f;
		run_batch(&r->p, &r->u, &r->cfg, true, false, 4, 9, &g);
		run_batch(&r->p, &r->u, &r->cfg, false, false, 4, 9, &f);
		cr_assert_not(g.ok, "program %zu should fail", k);
		expect_same(&g, &f, "error program");
		pica_rig_run_free(&g);
		pica_rig_run_free(&f);
		unbuild(r);
	}
}

/* A loop, calls and ifs: flow control inside the fast path's run ahead. */
Test(pica_fast, flow_control_matches)
{
	const char *src =
		".out o0 position\n.out o1 color\n.consti n(3, 0, 1, 0)\n"
		".constf k(1.0, 2.0, 3.0, 4.0)\n.bool b0\n.proc main\n"
		"  mov r0, v0\n  for n\n    mad r0, r0, k, v1\n    call sub\n  .end\n"
		"  cmp k, lt, ge, r0\n  ifc cmp.x\n    mov o1, r0\n  .else\n    mov o1, -r0\n  .end\n"
		"  dp4 o0.x, k, r0\n  dph o0.y, k, r0\n  dp3 o0.z, k, r0\n  mov o0.w, k.w\n  end\n.end\n"
		".proc sub\n  rsq r1, r0.x\n  add r0, r0, r1.xxxx\n.end\n";
	rig *r = build(src);
	for (size_t k = 0; k < sizeof SETTINGS / sizeof SETTINGS[0] - 1; k++) {
		ulp_config cfg;
		const char *what = knob_config(r, SETTINGS[k], &cfg);
		compare(&r->p, &r->u, &cfg, false, 4, 40, what);
		compare(&r->p, &r->u, &cfg, true, 2, 6, what);
	}
	unbuild(r);
}

/* ---- the batch path (units/pica/pica_batch.h): vertex fetch shades
 * PICA_BATCH_LANES vertices at once ahead of the units, which book each
 * path's schedule.  Compared with the general path like the rest. ---- */

/* CMP, JMPC, nested IFC with .else, IFU, every arithmetic fast form, a
 * stale r read feeding a dead value only; the inputs take several paths. */
static const char BATCH_SRC[] =
	".out o0 position\n.out o1 color\n.out o2 texcoord0\n"
	".constf k(1.0, 2.0, 0.5, -1.0)\n.bool b0\n.proc main\n"
	"  mov r0, v0\n  mov r1, k\n  mul r5, k, r3\n"
	"  cmp k, gt, le, r0\n  jmpc cmp.x, skip\n"
	"  add r0, r0, v1\n  sge r1, r0, v1\n  slt r2, v1, r0\n  mad r1, r1, k, r2\n"
	"skip:\n  max r2, r0, v1\n  min r3, r0, -v1\n"
	"  ifc cmp.y\n    ifc cmp.x\n      flr r4, r0\n      ex2 r6, r0.y\n      mov r4.y, r6\n"
	"    .else\n      lg2 r4, r0.w\n      rcp r4.z, r0.x\n    .end\n    nop\n"
	"  .else\n    rsq r4, r0.z\n    dp3 r4.x, r0, v1\n  .end\n"
	"  dp4 o0.x, k, r0\n  dph o0.y, k, r1\n  dp3 o0.z, r2, r3\n  mov o0.w, k.w\n"
	"  mul o1, r4, r1\n  mad o2, r3, k, r0\n"
	"  ifu b0\n    mov r7, k\n  .else\n    mov r7, -k\n  .end\n  end\n.end\n";

Test(pica_fast, batch_path_matches_on_every_path)
{
	rig *r = build(BATCH_SRC);
	cr_assert(r->p.batch, "the batch plan should accept this program");
	/* b0 both ways; the last round on four lanes an operation where the
	 * CPU has eight (both forms tested on an AVX2 host) */
	for (int b0 = 0; b0 < 3; b0++) {
		r->u.b[0] = b0 == 1;
		if (b0 == 2)
			r->p.batch->wide = false;
		for (size_t k = 0; k < sizeof SETTINGS / sizeof SETTINGS[0]; k++) {
			ulp_config cfg;
			const char *what = knob_config(r, SETTINGS[k], &cfg);
			compare(&r->p, &r->u, &cfg, false, 4, 77, what);
			compare(&r->p, &r->u, &cfg, false, 1, 13, what);
			compare(&r->p, &r->u, &cfg, false, 3, 9, what);
			if (k == 0 || k == 3)
				compare(&r->p, &r->u, &cfg, true, 4, 12, what);
		}
	}
	unbuild(r);
}

/* A path that pica_step diagnoses (an output written twice, an output left
 * unwritten) taken by some vertices only: those run the ordinary way and
 * stop the run at the same cycle with the same message. */
Test(pica_fast, batch_path_errors_on_some_paths)
{
	static const char *const SRC[] = {
		".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  mov r0, v0\n  cmp k, lt, ge, v0\n  ifc cmp.x\n    mov o0, k\n  .end\n"
		"  mov o0.x, r0\n  mov o0.yzw, r0\n  end\n.end\n",
		".out o0 position\n.out o1 color\n.constf k(1.0, 1000000000.0, 3.0, 4.0)\n.proc main\n"
		"  mov r0, v0\n  cmp k, lt, ge, v1\n  mov o0, r0\n  ifc cmp.y\n    mov o1, v0\n  .end\n"
		"  end\n.end\n",
	};
	for (size_t k = 0; k < sizeof SRC / sizeof SRC[0]; k++) {
		rig *r = build(SRC[k]);
		cr_assert(r->p.batch, "program %zu: the batch plan should accept it", k);
		run_out g, f;
		run_batch(&r->p, &r->u, &r->cfg, true, false, 4, 24, &g);
		run_batch(&r->p, &r->u, &r->cfg, false, false, 4, 24, &f);
		cr_assert_not(g.ok, "program %zu should fail", k);
		cr_assert_gt(g.o.n, 0, "program %zu: some vertices should finish first", k);
		expect_same(&g, &f, "error path");
		pica_rig_run_free(&g);
		pica_rig_run_free(&f);
		unbuild(r);
	}
}

/* What the plan declines: an output or a CMP fed by an r component the
 * vertex never wrote, a loop, MOVA; the units then run as before. */
Test(pica_fast, batch_plan_declines)
{
	static const char *const SRC[] = {
		".out o0 position\n.proc main\n  mov r0.xyz, v0\n  mov o0, r0\n  end\n.end\n",
		".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  cmp k, lt, lt, r2\n  mov o0, k\n  end\n.end\n",
		".out o0 position\n.consti n(3, 0, 1, 0)\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  mov r0, k\n  for n\n    add r0, k, r0\n  .end\n  mov o0, r0\n  end\n.end\n",
		".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
		"  mova a0.x, v0\n  mov o0, k\n  end\n.end\n",
	};
	for (size_t k = 0; k < sizeof SRC / sizeof SRC[0]; k++) {
		rig *r = build(SRC[k]);
		cr_assert_null(r->p.batch, "program %zu should be declined", k);
		compare(&r->p, &r->u, &r->cfg, false, 4, 10, "declined program");
		unbuild(r);
	}
	/* a stale value that only feeds dead values is accepted */
	rig *r = build(".out o0 position\n.proc main\n  mov r0, v0\n  mul r1, r0, r3\n  mov o0, r0\n"
	               "  end\n.end\n");
	cr_assert(r->p.batch);
	unbuild(r);
}

/* The batch's CMP (pica_batch_cmp, sixteen lanes at once) against
 * pica_cmp_op, for every op (6 and 7 "always true") over every pair of
 * edge values: zeros of both signs, float24 subnormals (CMP does not
 * flush), infinities, NaNs. */
Test(pica_fast, batch_cmp_equals_pica_cmp_op)
{
	const float edge[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0x1p-70f, -0x1p-70f, 0x1p-62f, 2.5f,
	                       INFINITY, -INFINITY, NAN, -NAN, 0x1.fffep63f, 1.0f + 0x1p-16f };
	enum { N = sizeof edge / sizeof edge[0] };
	float a[PICA_BATCH_LANES], b[PICA_BATCH_LANES];
	unsigned n = 0;
	for (unsigned op = 0; op < 8; op++)
		for (unsigned i = 0; i < N; i++)
			for (unsigned j = 0; j < N; j++) {
				a[n % PICA_BATCH_LANES] = edge[i];
				b[n % PICA_BATCH_LANES] = edge[(j + n) % N];
				if (++n % PICA_BATCH_LANES)
					continue;
				const uint32_t bits = pica_batch_cmp((uint8_t)op, a, b);
				for (unsigned l = 0; l < PICA_BATCH_LANES; l++)
					cr_assert_eq(bits >> l & 1, pica_cmp_op((uint8_t)op, a[l], b[l]),
					             "op %u %a %a", op, (double)a[l], (double)b[l]);
			}
}

/* ---- session 11: vertex fetch zeroes only the inputs a shaded program
 * reads; a unit books through its own tick (booked_tick) and falls back to
 * the ordinary run for paths past the schedules it keeps ---- */

/* v0 always, v1 only for every third vertex: the others must read v1 as 0
 * (the job's slot held another vertex's v1 before). */
static void sparse_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	for (int k = 0; k < 4; k++)
		job->v[0].c[k] = (float)(id * 4u + (unsigned)k);
	if (id % 3 == 0)
		for (int k = 0; k < 4; k++)
			job->v[1].c[k] = (float)(id + 1u);
}

Test(pica_fast, batch_inputs_not_made_read_zero)
{
	rig *r = build(".out o0 position\n.out o1 color\n.proc main\n"
	               "  mov o0, v0\n  mov o1, v1\n  end\n.end\n");
	cr_assert(r->p.batch, "the batch plan should accept this program");
	run_out res[2];
	for (int general = 0; general < 2; general++) {
		run_out *o = &res[general];
		pica_rig_run_jobs(&r->p, &r->u, &r->cfg, general, false, 4, 100, sparse_job, pica_rig_keep, NULL, o);
		cr_assert(o->ok, "%s", o->msg);
		cr_assert_eq(o->o.n, 100);
		for (size_t k = 0; k < o->o.n; k++) {
			const pica_result *x = &o->o.r[k];
			const float want = x->id % 3 == 0 ? (float)(x->id + 1) : 0.0f;
			for (int c = 0; c < 4; c++)
				cr_assert_eq(x->o[1].c[c], want, "%s: vertex %u o1.%d = %g, not %g",
				             general ? "general" : "batch", x->id, c, x->o[1].c[c], want);
		}
	}
	expect_same(&res[1], &res[0], "sparse inputs");
	pica_rig_run_free(&res[0]);
	pica_rig_run_free(&res[1]);
	unbuild(r);
}

/* Six IFs on the inputs: pica_rig_vary_job's nine kinds of vertex take nine paths,
 * more than the PICA_SCHED_PATHS schedules a unit keeps, so that booked
 * vertices and ordinary runs take turns on each unit (booked_tick handing
 * over to pica_shader_tick and back). */
Test(pica_fast, batch_paths_past_the_schedules_a_unit_keeps)
{
	rig *r = build(".out o0 position\n.out o1 color\n.constf k(0.0, 1.0, 2.0, 3.0)\n.proc main\n"
	               "  mov r0, k.xxxx\n  mov r1, k.yyyy\n  cmp k, lt, lt, v0\n"
	               "  ifc cmp.x\n    add r0.x, k.yyyy, r0.xxxx\n  .end\n"
	               "  ifc cmp.y\n    mul r0.y, k.zzzz, v0.yyyy\n    rcp r1.x, v0.yyyy\n  .end\n"
	               "  cmp k, lt, lt, v1\n"
	               "  ifc cmp.x\n    rsq r0.z, v1.xxxx\n    mul r1.y, r1.xxxx, r0.zzzz\n  .end\n"
	               "  ifc cmp.y\n    dp4 r0.w, k, v1\n  .end\n"
	               "  cmp k.zzzz, lt, lt, v0\n  ifc cmp.x\n    add r1.z, k.wwww, v0.xxxx\n  .end\n"
	               "  cmp k.xxxx, gt, gt, v1\n  ifc cmp.x\n    mul r1.w, k.wwww, v1.xxxx\n  .end\n"
	               "  mov o0, r0\n  mov o1, r1\n  end\n.end\n");
	cr_assert(r->p.batch, "the batch plan should accept this program");
	/* the paths pica_rig_vary_job's inputs take */
	uint64_t seen = 0;
	for (uint32_t id = 0; id < 200; id++) {
		pica_job job;
		pica_rig_vary_job(NULL, id, &job);
		const float *a = job.v[0].c, *b = job.v[1].c;
		const unsigned path = (a[0] > 0.0f) | (a[1] > 1.0f) << 1 | (b[0] > 0.0f) << 2 |
		                      (b[1] > 1.0f) << 3 | (a[0] > 2.0f) << 4 | (b[0] < 0.0f) << 5;
		seen |= UINT64_C(1) << path;
	}
	cr_assert_gt(__builtin_popcountll(seen), PICA_SCHED_PATHS, "only %d paths",
	             __builtin_popcountll(seen));
	static const char *const KNOBS[] = { NULL, "pica.issue_cycles=2", "pica.flow_bubble=3",
	                                     "pica.max_steps=12" };
	for (size_t k = 0; k < sizeof KNOBS / sizeof KNOBS[0]; k++) {
		ulp_config cfg;
		const char *what = knob_config(r, KNOBS[k], &cfg);
		compare(&r->p, &r->u, &cfg, false, 4, 200, what);
		compare(&r->p, &r->u, &cfg, false, 1, 60, what);
	}
	unbuild(r);
}

/* One vertex, bad, takes a path that pica_step diagnoses (o1 left
 * unwritten): the run halts at that vertex's END, while the other units
 * book their vertices.  A unit whose END ticked in that cycle before the
 * bad one's has taken its next job already, dated the cycle after
 * (booked_next): a run that halts then never reached it, so settle takes
 * that start back.  Every halting vertex from the 4th to the 60th, on 4
 * and 3 units. */
static void one_bad_job(void *ctx, uint32_t id, pica_job *job)
{
	const uint32_t bad = *(const uint32_t *)ctx;
	for (int k = 0; k < 4; k++) {
		job->v[0].c[k] = (float)(id + (uint32_t)k) * 0.25f;
		job->v[1].c[k] = id == bad ? 1e10f : (float)(id % 5);
	}
}

Test(pica_fast, a_halt_takes_back_the_next_jobs_dated_start)
{
	rig *r = build(".out o0 position\n.out o1 color\n.constf k(1.0, 1000000000.0, 3.0, 4.0)\n"
	               ".proc main\n  mov r0, v0\n  cmp k, lt, ge, v1\n  mul r1, k, v0\n  mov o0, r0\n"
	               "  ifc cmp.y\n    mov o1, r1\n  .end\n  end\n.end\n");
	cr_assert(r->p.batch, "the batch plan should accept this program");
	for (unsigned units = 4; units >= 3; units--)
		for (uint32_t bad = 4; bad <= 60; bad++) {
			run_out res[2];
			for (int general = 0; general < 2; general++) {
				run_out *o = &res[general];
				pica_rig_run_jobs(&r->p, &r->u, &r->cfg, general, false, units, 80, one_bad_job, NULL, &bad, o);
				cr_assert_not(o->ok, "vertex %u should stop the run", bad);
				cr_assert_geq(o->st.invocations, bad - units, "vertex %u", bad);
			}
			char what[64];
			snprintf(what, sizeof what, "%u units, vertex %u bad", units, bad);
			expect_same(&res[1], &res[0], what);
		}
	unbuild(r);
}

/* One instruction and END: END issues the cycle after the job's first
 * issue, which booked_next dates a cycle after the last END: the unit
 * sleeps through to it, deaf to the pushes of the cycles before. */
Test(pica_fast, a_one_instruction_shader_matches)
{
	rig *r = build(".out o0 position\n.proc main\n  mov o0, v0\n  end\n.end\n");
	cr_assert(r->p.batch, "the batch plan should accept this program");
	for (size_t k = 0; k < sizeof SETTINGS / sizeof SETTINGS[0]; k++) {
		ulp_config cfg;
		const char *what = knob_config(r, SETTINGS[k], &cfg);
		compare(&r->p, &r->u, &cfg, false, 4, 50, what);
		compare(&r->p, &r->u, &cfg, false, 2, 21, what);
		compare(&r->p, &r->u, &cfg, false, 1, 9, what);
	}
	unbuild(r);
}
