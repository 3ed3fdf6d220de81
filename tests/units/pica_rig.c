/* The PICA200 test rig (tests/units/pica_rig.h). */
#include "tests/units/pica_rig.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"


void pica_rig_on_emit(void *ctx, const pica_vec4 vtx[3][16], bool inverted)
{
	rig *r = ctx;
	if (r->prims < 4) {
		memcpy(r->prim[r->prims], vtx, sizeof r->prim[0]);
		r->inv[r->prims] = inverted;
	}
	r->prims++;
}

void pica_rig_on_warn(void *ctx, const char *msg)
{
	(void)msg;
	((rig *)ctx)->warnings++;
}

rig *build(const char *src)
{
	rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	ulp_diag_clear(&r->d);
	ulp_config_defaults(&r->cfg);
	struct pica_asm_file f = { "test.v.pica", src, strlen(src) };
	struct pica_asm_opts o = { 0 };
	cr_assert(pica_assemble(&f, 1, &o, &r->s, &r->d), "assemble: %s:%d:%d: %s", r->d.file,
	          r->d.line, r->d.col, r->d.msg);
	cr_assert(pica_program_build(&r->p, &r->s, 0, &r->cfg, &r->d), "%s", r->d.msg);
	pica_uniforms_apply_dvle(&r->u, r->p.dvle);
	pica_env_from_config(&r->env, &r->cfg);
	r->env.emit = pica_rig_on_emit;
	r->env.warn = pica_rig_on_warn;
	r->env.ctx = r;
	return r;
}

void unbuild(rig *r)
{
	pica_program_free(&r->p);
	shbin_free(&r->s);
	free(r);
}

void set4(pica_vec4 *v, float x, float y, float z, float w)
{
	v->c[0] = x, v->c[1] = y, v->c[2] = z, v->c[3] = w;
}

enum pica_step_result run(rig *r)
{
	pica_thread_reset(&r->t);
	return pica_run(&r->t, &r->p, &r->u, &r->env, &r->d);
}

void expect4(const pica_vec4 *v, float x, float y, float z, float w, const char *what)
{
	const float e[4] = { x, y, z, w };
	for (int k = 0; k < 4; k++) {
		bool same = isnan(e[k]) ? isnan(v->c[k]) : v->c[k] == e[k];
		cr_assert(same, "%s.%c = %.9g, want %.9g", what, "xyzw"[k], v->c[k], e[k]);
	}
}

void run_with_v0(rig *r, float x, float y, float z, float w)
{
	pica_thread_reset(&r->t);
	set4(&r->t.v[0], x, y, z, w);
	pica_thread_start(&r->t, &r->p);
	pica_step_info info;
	enum pica_step_result st;
	while ((st = pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d)) == PICA_STEP_OK)
		;
	cr_assert_eq(st, PICA_STEP_END, "%s", r->d.msg);
}

rig *build_words(const uint32_t *words, unsigned n)
{
	rig *r = build(OUTS ".proc main\n  end\n.end\n");
	pica_program_free(&r->p);
	free(r->s.code);
	r->s.code = calloc(n, sizeof *r->s.code);
	memcpy(r->s.code, words, n * sizeof *words);
	r->s.ncode = n;
	r->s.dvle[0].main = 0;
	r->s.dvle[0].noutputs = 0;
	cr_assert(pica_program_build(&r->p, &r->s, 0, &r->cfg, &r->d), "%s", r->d.msg);
	return r;
}

void pica_rig_keep(void *ctx, const pica_result *r)
{
	outs *o = ctx;
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->r = realloc(o->r, o->cap * sizeof *o->r);
		cr_assert(o->r);
	}
	o->r[o->n++] = *r;
}

void pica_rig_vary_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	static const float vals[] = { 0.0f, 1.0f, -1.0f, 0.5f, 3.25f, -7.0f, 1e10f, -2e-5f, 0.125f };
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < 4; k++)
			job->v[r].c[k] = vals[(id * 7u + (unsigned)r * 3u + (unsigned)k) % 9u];
}

unsigned pica_rig_each_corpus_vs(const char *const *settings, size_t nsettings, pica_rig_case_fn *fn,
                                 void *ctx)
{
	size_t npaths;
	char **paths = test_corpus_files("pica", ".shbin", &npaths);
	unsigned shaders = 0;
	for (size_t f = 0; f < npaths; f++) {
		struct shbin s;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(shbin_load(paths[f], &s, &d), "%s", d.msg);
		for (unsigned e = 0; e < s.ndvle; e++) {
			if (s.dvle[e].type == SHBIN_GS)
				continue;
			for (size_t k = 0; k < nsettings; k++) {
				ulp_config cfg;
				ulp_config_defaults(&cfg);
				if (settings[k])
					cr_assert(ulp_config_set(&cfg, settings[k], &d), "%s", d.msg);
				pica_program p;
				static pica_uniforms u;
				memset(&u, 0, sizeof u);
				cr_assert(pica_program_build(&p, &s, e, &cfg, &d), "%s: %s", paths[f], d.msg);
				pica_uniforms_apply_dvle(&u, p.dvle);
				for (int i = 0; i < 96; i++)
					u.c[i].c[i % 4] += 1.0f;
				for (int i = 0; i < 4; i++) {
					u.i[i][0] = (uint8_t)(2 + i);
					u.i[i][2] = 1;
				}
				char what[1200];
				snprintf(what, sizeof what, "%s DVLE %u %s", paths[f], e,
				         settings[k] ? settings[k] : "defaults");
				fn(ctx, &p, &u, &cfg, k, what);
				pica_program_free(&p);
			}
			shaders++;
		}
		shbin_free(&s);
	}
	test_free_names(paths, npaths);
	return shaders;
}

void pica_rig_run_jobs(const pica_program *p, const pica_uniforms *u, const ulp_config *cfg, bool general,
                       bool record, unsigned units, uint32_t n,
                       void (*make_job)(void *ctx, uint32_t id, pica_job *job),
                       void (*on_result)(void *ctx, const pica_result *r), void *ctx, pica_rig_run *out)
{
	memset(out, 0, sizeof *out);
	pica_env env;
	pica_env_from_config(&env, cfg);
	env.general = general;
	sim_timeline tl;
	if (record) {
		cr_assert(sim_tl_init(&tl));
		sim_tl_add_sink(&tl, test_ev_sink(&out->ev));
		tl.enabled = true;
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	out->ok = pica_batch_run(p, u, cfg, &env, units, n, make_job, on_result, ctx ? ctx : &out->o,
	                         record ? &tl : NULL, &out->st, &d);
	if (record)
		sim_tl_fini(&tl);
	snprintf(out->msg, sizeof out->msg, "%s", d.msg);
}

void pica_rig_run_free(pica_rig_run *r)
{
	free(r->o.r);
	free(r->ev.ev);
}

void pica_rig_expect_same(const pica_rig_run *a, const pica_rig_run *b, const char *what)
{
	cr_assert_eq(a->ok, b->ok, "%s: %d (%s) vs %d (%s)", what, a->ok, a->msg, b->ok, b->msg);
	cr_assert_str_eq(a->msg, b->msg, "%s", what);
	cr_assert_eq(a->st.cycles, b->st.cycles, "%s: cycles %llu vs %llu", what,
	             (unsigned long long)a->st.cycles, (unsigned long long)b->st.cycles);
	cr_assert_eq(memcmp(&a->st, &b->st, sizeof a->st), 0, "%s: unit figures differ", what);
	cr_assert_eq(a->o.n, b->o.n, "%s: %zu vs %zu outputs", what, a->o.n, b->o.n);
	for (size_t k = 0; k < a->o.n; k++)
		cr_assert_eq(memcmp(&a->o.r[k], &b->o.r[k], sizeof a->o.r[k]), 0, "%s: output %zu differs",
		             what, k);
}
