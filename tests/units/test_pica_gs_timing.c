/* The PICA200 shader unit: geometry shaders (emission, output banks, the
 * three input modes), the timing model, vertex batches, and every corpus
 * DVLE running to END. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tests/units/pica_rig.h"
#include "tests/test_util.h"
#include <stdio.h>
#include <stdlib.h>

#define GS_SRC(body) \
	".gsh point c0\n.out o0 position\n.out o1 color\n" \
	".constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n" body "  end\n.end\n"

Test(pica_unit, gs_emits_primitives_with_winding)
{
	rig *r = build(GS_SRC(
		"  setemit 0\n  mov o0, k.xxxx\n  mov o1, k.xxxx\n  emit\n"
		"  setemit 1\n  mov o0, k.yyyy\n  mov o1, k.yyyy\n  emit\n"
		"  setemit 2, prim inv\n  mov o0, k.zzzz\n  mov o1, k.zzzz\n  emit\n"));
	cr_assert(r->p.is_gs);
	cr_assert_eq(run(r), PICA_STEP_END, "%s", r->d.msg);
	cr_assert_eq(r->prims, 1);
	cr_assert(r->inv[0]);
	for (int v = 0; v < 3; v++)
		expect4(&r->prim[0][v][0], (float)(v + 1), (float)(v + 1), (float)(v + 1), (float)(v + 1), "vtx");
	unbuild(r);
}

Test(pica_unit, gs_output_banks_carry_two_emits_back)
{
	/* o1 is written only before the first two emits: the third vertex gets
	 * the value from two emits earlier (pica200.md §1.1, banking). */
	rig *r = build(GS_SRC(
		"  setemit 0\n  mov o0, k.xxxx\n  mov o1, k.xxxx\n  emit\n"
		"  setemit 1\n  mov o0, k.yyyy\n  mov o1, k.yyyy\n  emit\n"
		"  setemit 2, prim\n  mov o0, k.zzzz\n  emit\n"));
	cr_assert_eq(run(r), PICA_STEP_END, "%s", r->d.msg);
	cr_assert_eq(r->prims, 1);
	cr_assert_not(r->inv[0]);
	expect4(&r->prim[0][2][1], 1, 1, 1, 1, "o1 of vertex 2 comes from bank 0");
	unbuild(r);
}

/* ---- timing ---- */

static void zero_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	(void)id;
	memset(job, 0, sizeof *job);
}

static uint64_t cycles_of(const char *src, const char *set, pica_batch_stats *st)
{
	rig *r = build(src);
	if (set) {
		cr_assert(ulp_config_set(&r->cfg, set, &r->d), "%s", r->d.msg);
		pica_env_from_config(&r->env, &r->cfg);
	}
	cr_assert(pica_batch_run(&r->p, &r->u, &r->cfg, &r->env, 1, 1, zero_job, NULL, NULL, NULL, st,
	                         &r->d), "%s", r->d.msg);
	unbuild(r);
	return st->cycles;
}

Test(pica_unit, timing_dependency_stalls)
{
	/* Defaults: issue 1/cycle, ALU latency 3.  Three independent movs issue
	 * at 1, 2, 3; END waits for the last write (3 + 3 = 6).  A dependent
	 * chain waits the full latency each time. */
	pica_batch_stats a, b;
	const char *indep = ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	                    "  mov r0, k\n  mov r1, k\n  mov o0, k\n  end\n.end\n";
	const char *chain = ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	                    "  mov r0, k\n  mov r1, r0\n  mov o0, r1\n  end\n.end\n";
	uint64_t ci = cycles_of(indep, NULL, &a);
	uint64_t cc = cycles_of(chain, NULL, &b);
	cr_assert_eq(b.unit[0].stall[SIM_STALL_DEPENDENCY] - a.unit[0].stall[SIM_STALL_DEPENDENCY], 4,
	             "two waits of 2 cycles");
	cr_assert_eq(cc - ci, 4);
	cr_assert_eq(a.instructions, 4);
	cr_assert_eq(a.unit[0].busy, 4);
	/* latency 1: no stalls at all */
	pica_batch_stats c;
	cycles_of(chain, "pica.latency.alu=1", &c);
	cr_assert_eq(c.unit[0].stall[SIM_STALL_DEPENDENCY], 0);
}

Test(pica_unit, timing_sfu_and_flow_bubble)
{
	pica_batch_stats a, b;
	const char *sfu = ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	                  "  rcp r0, k.x\n  mov o0, r0\n  end\n.end\n";
	cycles_of(sfu, NULL, &a);
	cr_assert_eq(a.unit[0].stall[SIM_STALL_DEPENDENCY], 5 + 2, "wait 5 for rcp, 2 for END");
	const char *jump = ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	                   "  mov r0, k\n  cmp k, eq, eq, r0\n  jmpc cmp.x, over\n  nop\nover:\n  mov o0, k\n  end\n.end\n";
	cycles_of(jump, NULL, &b);
	cr_assert_eq(b.unit[0].stall[SIM_STALL_FLOW], 1, "one bubble after the taken jmpc");
	cr_assert_eq(b.unit[0].counter[PICA_CTR_TAKEN], 1);
}

Test(pica_unit, batch_spreads_over_four_units_deterministically)
{
	const char *src = ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	                  "  mov r0, k\n  dp4 r1.x, r0, r0\n  mov o0, r1.xxxx\n  end\n.end\n";
	pica_batch_stats a, b;
	rig *r = build(src);
	cr_assert(pica_batch_run(&r->p, &r->u, &r->cfg, &r->env, 4, 100, zero_job, NULL, NULL, NULL, &a, &r->d));
	cr_assert(pica_batch_run(&r->p, &r->u, &r->cfg, &r->env, 4, 100, zero_job, NULL, NULL, NULL, &b, &r->d));
	cr_assert_eq(a.invocations, 100);
	cr_assert_eq(a.cycles, b.cycles, "deterministic");
	for (int k = 0; k < 4; k++)
		cr_assert_eq(a.unit[k].counter[PICA_CTR_INVOCATIONS], 25, "unit %d", k);
	pica_batch_stats one;
	cr_assert(pica_batch_run(&r->p, &r->u, &r->cfg, &r->env, 1, 100, zero_job, NULL, NULL, NULL, &one, &r->d));
	cr_assert_lt(a.cycles * 3, one.cycles, "4 units are more than 3x faster than 1");
	unbuild(r);
}

/* ---- every corpus SHBIN runs to END on the clocked unit ---- */

typedef struct corpus_ctx { unsigned prims; } corpus_ctx;

static void count_emit(void *ctx, const pica_vec4 vtx[3][16], bool inverted)
{
	(void)vtx;
	(void)inverted;
	((corpus_ctx *)ctx)->prims++;
}

static void unit_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < 4; k++)
			job->v[r].c[k] = (float)((id + (unsigned)r + (unsigned)k) % 5) * 0.25f;
}

Test(pica_unit, corpus_shaders_run_to_end)
{
	size_t npaths;
	char **paths = test_corpus_files("pica", ".shbin", &npaths);
	unsigned runs = 0, ok = 0;
	for (size_t f = 0; f < npaths; f++) {
		const char *path = paths[f];
		struct shbin s;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(shbin_load(path, &s, &d), "%s", d.msg);
		for (unsigned e = 0; e < s.ndvle; e++) {
			ulp_config cfg;
			ulp_config_defaults(&cfg);
			pica_program p;
			static pica_uniforms u;
			memset(&u, 0, sizeof u);
			cr_assert(pica_program_build(&p, &s, e, &cfg, &d), "%s: %s", path, d.msg);
			pica_uniforms_apply_dvle(&u, p.dvle);
			for (int i = 0; i < 96; i++)       /* identity-ish matrices */
				if (!(p.dvle->nconsts && i >= 90))
					u.c[i].c[i % 4] = u.c[i].c[i % 4] == 0.0f ? 1.0f : u.c[i].c[i % 4];
			pica_env env;
			corpus_ctx cc = { 0 };
			pica_env_from_config(&env, &cfg);
			env.emit = count_emit;
			env.ctx = &cc;
			pica_batch_stats st;
			runs++;
			if (pica_batch_run(&p, &u, &cfg, &env, 4, 8, unit_job, NULL, NULL, NULL, &st, &d))
				ok++;
			else
				cr_log_error("%s DVLE %u: %s", path, e, d.msg);
			if (p.is_gs)
				cr_expect_gt(cc.prims, 0, "%s: the GS emitted nothing", path);
			pica_program_free(&p);
			ulp_diag_clear(&d);
		}
		shbin_free(&s);
	}
	test_free_names(paths, npaths);
	cr_log_info("pica unit: %u/%u corpus DVLEs run to END", ok, runs);
	fprintf(stderr, "pica unit: %u/%u corpus DVLEs run to END\n", ok, runs);
	cr_assert_gt(runs, 20);
	cr_assert_eq(ok, runs);
}

/* ---- geometry-shader input modes (picasso Manual.md ".gsh") ---- */

static rig *build_gs(const char *src)
{
	rig *r = build(src);
	cr_assert(r->p.is_gs);
	return r;
}

static void run_gs(rig *r, const pica_vec4 *vtx, unsigned nvtx, unsigned stride)
{
	pica_gs_prim prim = { vtx, nvtx, stride, 0 };
	pica_thread_reset(&r->t);
	cr_assert(pica_gs_load(&r->p, &prim, &r->t, &r->u, &r->d), "%s", r->d.msg);
	cr_assert_eq(pica_run(&r->t, &r->p, &r->u, &r->env, &r->d), PICA_STEP_END, "%s", r->d.msg);
	pica_gs_invocation_done(&r->u);
}

/* Vertex k, register j holds (10k + j, 0, 0, 1). */
static void make_vertices(pica_vec4 *v, unsigned n, unsigned stride)
{
	for (unsigned k = 0; k < n; k++)
		for (unsigned j = 0; j < stride; j++)
			set4(&v[k * stride + j], (float)(10 * k + j), 0, 0, 1);
}

Test(pica_unit, gs_point_mode_inputs_in_v)
{
	rig *r = build_gs(".gsh point c0\n.out o0 position\n.out o1 color\n.proc main\n"
		"  setemit 0\n  mov o0, v0\n  mov o1, v1\n  emit\n"
		"  setemit 1\n  mov o0, v2\n  mov o1, v3\n  emit\n"
		"  setemit 2, prim\n  mov o0, v4\n  mov o1, v5\n  emit\n  end\n.end\n");
	pica_vec4 v[6];
	make_vertices(v, 3, 2);
	run_gs(r, v, 3, 2);
	cr_assert_eq(r->prims, 1);
	for (int k = 0; k < 3; k++) {
		cr_assert_eq(r->prim[0][k][0].c[0], 10.0f * k, "vertex %d position", k);
		cr_assert_eq(r->prim[0][k][1].c[0], 10.0f * k + 1, "vertex %d colour", k);
	}
	unbuild(r);
}

Test(pica_unit, gs_variable_mode_count_full_vertices_then_positions)
{
	/* .gsh variable c48 2: c0 = count, c1-c4 = 2 full vertices of stride 2,
	 * c5.. = the position of each further vertex. */
	rig *r = build_gs(".gsh variable c48 2\n.out o0 position\n.out o1 color\n.proc main\n"
		"  setemit 0\n  mov o0, c0\n  mov o1, c2\n  emit\n"
		"  setemit 1\n  mov o0, c3\n  mov o1, c4\n  emit\n"
		"  setemit 2, prim\n  mov o0, c5\n  mov o1, c6\n  emit\n  end\n.end\n");
	pica_vec4 v[8];
	make_vertices(v, 4, 2);
	run_gs(r, v, 4, 2);
	cr_assert_eq(r->prims, 1);
	expect4(&r->prim[0][0][0], 4, 4, 4, 4, "c0 = vertex count");
	cr_assert_eq(r->prim[0][0][1].c[0], 1.0f, "c2 = vertex 0 register 1");
	cr_assert_eq(r->prim[0][1][0].c[0], 10.0f, "c3 = vertex 1 register 0");
	cr_assert_eq(r->prim[0][1][1].c[0], 11.0f, "c4 = vertex 1 register 1");
	cr_assert_eq(r->prim[0][2][0].c[0], 20.0f, "c5 = vertex 2 position only");
	cr_assert_eq(r->prim[0][2][1].c[0], 30.0f, "c6 = vertex 3 position only");
	unbuild(r);
}

Test(pica_unit, gs_fixed_mode_array_start_and_b15)
{
	/* .gsh fixed c48 c8 3: three vertices of stride 2 from c8; b15 reads
	 * false on the first invocation and true afterwards (pica200.md §1.1). */
	rig *r = build_gs(".gsh fixed c48 c8 3\n.out o0 position\n.out o1 color\n"
		".constf k(1.0, 2.0, 0.0, 0.0)\n.proc main\n"
		"  mov r0, k.zzzz\n"
		"  ifu b15\n    mov r0, k.xxxx\n  .end\n"
		"  setemit 0\n  mov o0, c8\n  mov o1, r0\n  emit\n"
		"  setemit 1\n  mov o0, c10\n  mov o1, r0\n  emit\n"
		"  setemit 2, prim\n  mov o0, c12\n  mov o1, c13\n  emit\n  end\n.end\n");
	pica_vec4 v[6];
	make_vertices(v, 3, 2);
	run_gs(r, v, 3, 2);
	run_gs(r, v, 3, 2);
	cr_assert_eq(r->prims, 2);
	for (int k = 0; k < 3; k++)
		cr_assert_eq(r->prim[0][k][0].c[0], 10.0f * k, "vertex %d at c8 + 2k", k);
	cr_assert_eq(r->prim[0][2][1].c[0], 21.0f);
	cr_assert_eq(r->prim[0][0][1].c[0], 0.0f, "b15 false on the first invocation");
	cr_assert_eq(r->prim[1][0][1].c[0], 1.0f, "b15 true after it");
	pica_vec4 four[8];
	make_vertices(four, 4, 2);
	pica_gs_prim bad = { four, 4, 2, 0 };
	cr_assert_not(pica_gs_load(&r->p, &bad, &r->t, &r->u, &r->d));
	cr_assert(strstr(r->d.msg, "fixed mode: 4 vertices, the shader takes 3"), "%s", r->d.msg);
	unbuild(r);
}

Test(pica_unit, gs_corpus_point_mode_subdivides_a_triangle)
{
	/* corpus geoshader: point mode, v0-v5 = (pos, colour) x 3; it emits the
	 * 3 corner triangles of the midpoint subdivision (projection = identity). */
	char *path = test_corpus_path("pica/geoshader/program.g.shbin");
	rig *r = calloc(1, sizeof *r);
	ulp_diag_clear(&r->d);
	ulp_config_defaults(&r->cfg);
	cr_assert(shbin_load(path, &r->s, &r->d), "%s", r->d.msg);
	free(path);
	cr_assert(pica_program_build(&r->p, &r->s, 0, &r->cfg, &r->d), "%s", r->d.msg);
	pica_uniforms_apply_dvle(&r->u, r->p.dvle);
	for (int i = 0; i < 4; i++)
		r->u.c[i].c[i] = 1.0f;               /* projection[4] at c0-c3 */
	pica_env_from_config(&r->env, &r->cfg);
	r->env.emit = pica_rig_on_emit;
	r->env.ctx = r;
	pica_vec4 v[6];
	set4(&v[0], 0, 0, 0, 1);  set4(&v[1], 1, 0, 0, 1);   /* A, red */
	set4(&v[2], 4, 0, 0, 1);  set4(&v[3], 0, 1, 0, 1);   /* B, green */
	set4(&v[4], 0, 8, 0, 1);  set4(&v[5], 0, 0, 1, 1);   /* C, blue */
	run_gs(r, v, 3, 2);
	cr_assert_eq(r->prims, 3);
	expect4(&r->prim[0][0][0], 0, 0, 0, 1, "A");
	expect4(&r->prim[0][1][0], 2, 0, 0, 1, "mid(A,B)");
	expect4(&r->prim[0][2][0], 0, 4, 0, 1, "mid(C,A)");
	expect4(&r->prim[1][2][0], 2, 4, 0, 1, "mid(B,C)");
	expect4(&r->prim[0][1][1], 0, 1, 0, 1, "slot 1 takes the second vertex's colour");
	unbuild(r);
}

/* ---- the float24 behaviour table (pica200.md §2.2) through instructions ----
 * Registers r0-r11 are loaded from c0-c11 with the special values below; each
 * row's code leaves its result in r12.x. */
