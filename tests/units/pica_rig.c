/* The PICA200 test rig (tests/units/pica_rig.h). */
#include "tests/units/pica_rig.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


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
