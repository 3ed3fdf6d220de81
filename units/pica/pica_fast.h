/* The PICA200 shader unit's fast path (docs/speed-history.md "Vertices").
 *
 * What an instruction computes is resolved once per program
 * (pica_fast_build, called by pica_program_from_code): the handler, the
 * register file and index of each source, its swizzle and negation, the
 * components written.  pica_fast_step then runs the instruction at the
 * thread's pc with the same float24 helpers (isa/f24.h) and the same
 * effects as pica_step, or declines (no change to the thread) when the
 * general path must run it: flow control, MOVA, CMP, LITP, DST, a GS's
 * END, relative addressing, anything pica_step would diagnose (two inputs,
 * an output written twice or left unwritten, the watchdog).  When it runs
 * an instruction it cannot fail.
 *
 * The clocked unit (pica_shader.c) books the time: it runs a vertex's
 * instructions in one go from the tick that issues the first one and books
 * the cycles a tick per cycle would have counted. */
#ifndef ULP_UNITS_PICA_FAST_H
#define ULP_UNITS_PICA_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include <string.h>

#include "isa/f24_vec.h"
#include "units/pica/pica_exec.h"

enum pica_fast_kind {
	PICA_FAST_GENERAL = 0,            /* pica_step runs it */
	PICA_FAST_ADD, PICA_FAST_MUL, PICA_FAST_SGE, PICA_FAST_SLT, PICA_FAST_MAX, PICA_FAST_MIN,
	PICA_FAST_DP3, PICA_FAST_DP4, PICA_FAST_DPH,
	PICA_FAST_MOV, PICA_FAST_FLR, PICA_FAST_MAD,
	PICA_FAST_EX2, PICA_FAST_LG2, PICA_FAST_RCP, PICA_FAST_RSQ,
	PICA_FAST_NOP,
	PICA_FAST_END,                    /* a vertex shader's END, its outputs all written */
};

enum pica_fast_file { PICA_FILE_V, PICA_FILE_R, PICA_FILE_C };

typedef struct pica_fast_src {
	uint8_t file;                 /* enum pica_fast_file */
	uint8_t idx;                  /* register index in that file */
	bool neg;
	bool identity;                /* swizzle .xyzw */
	uint8_t swz[4];
} pica_fast_src;

typedef struct pica_fast_inst {
	int32_t lanes[4];             /* the write mask as lanes: -1 written, 0 kept */
	uint8_t kind;                 /* enum pica_fast_kind */
	uint8_t wmask;                /* components written: bit k = component k (x = bit 0) */
	bool to_o;                    /* destination o[dst], else r[dst] */
	uint8_t dst;
	pica_fast_src src[3];
} pica_fast_inst;

/* A source operand's fast form (no relative addressing: the caller checks). */
pica_fast_src pica_fast_src_of(const struct pica_src *s);
/* The fast forms of p's instructions (p->fast); false when out of memory. */
bool pica_fast_build(pica_program *p);

/* ---- one instruction (semantics: pica_exec.c's; tests/units/test_pica_fast.c) ---- */


static inline f24v_f4 pica_fast_rd(const pica_vec4 *const base[3], const pica_fast_src *s)
{
	const pica_vec4 *r = &base[s->file][s->idx];
	f24v_f4 v;
	if (s->identity)
		memcpy(&v, r->c, sizeof v);
	else
		v = (f24v_f4){ r->c[s->swz[0]], r->c[s->swz[1]], r->c[s->swz[2]], r->c[s->swz[3]] };
	/* as read_src: -x + 0 turns a negated zero into +0 */
	if (s->neg)
		v = -v + 0.0f;
	return v;
}

/* Run the instruction at t->pc (< p->ncode) when it has a fast form: true
 * with info filled as pica_step fills it (an END: what pica_step does
 * before it returns PICA_STEP_END; the caller hands the outputs on);
 * false, with t unchanged, when pica_step must run it.  Inline: the unit's
 * run ahead compiles it into its loop. */
static inline __attribute__((always_inline)) bool pica_fast_step(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                                  const pica_env *env, pica_step_info *info)
{
	const uint32_t pc = t->pc;
	const pica_fast_inst *fi = &p->fast[pc];
	/* arith=exact: the four-lane forms round to float24, pica_step does not */
	if (fi->kind == PICA_FAST_GENERAL || t->steps >= env->max_steps || env->f24.exact)
		return false;
	if (fi->kind == PICA_FAST_END) {
		/* ex_end: a vertex shader's output table all written */
		uint64_t need[2], got[2];
		memcpy(need, p->out_need, sizeof need);
		memcpy(got, t->o_written, sizeof got);
		if (p->is_gs || (need[0] & ~got[0]) | (need[1] & ~got[1]))
			return false;                  /* pica_step reports it, or runs a GS's END */
		t->steps++;
		t->last_was_mova = false;
		info->pc = pc;
		info->taken = false;
		return true;
	}
	if (fi->to_o && (t->o_written[fi->dst] & fi->wmask))
		return false;                          /* pica_step reports it */
	const f24_mode *fm = &env->f24;
	const uint64_t rne = f24v_rne(fm->round);
	const pica_vec4 *const base[3] = { t->v, t->r, u->c };   /* enum pica_fast_file */
	f24v_f4 a, b, res;
	switch (fi->kind) {
	case PICA_FAST_NOP:
		goto done;
	case PICA_FAST_ADD:
		res = f24v_add4(pica_fast_rd(base, &fi->src[0]), pica_fast_rd(base, &fi->src[1]), rne);
		break;
	case PICA_FAST_MUL:
		res = f24v_mul4(pica_fast_rd(base, &fi->src[0]), pica_fast_rd(base, &fi->src[1]), rne);
		break;
	case PICA_FAST_MAD:    /* not fused: the product rounded first (f24_mad) */
		a = f24v_mul4(pica_fast_rd(base, &fi->src[0]), pica_fast_rd(base, &fi->src[1]), rne);
		res = f24v_add4(a, pica_fast_rd(base, &fi->src[2]), rne);
		break;
	case PICA_FAST_SGE: case PICA_FAST_SLT: case PICA_FAST_MAX: case PICA_FAST_MIN:
		a = pica_fast_rd(base, &fi->src[0]);
		b = pica_fast_rd(base, &fi->src[1]);
		for (int k = 0; k < 4; k++)
			res[k] = fi->kind == PICA_FAST_SGE ? f24_sge(a[k], b[k])
			       : fi->kind == PICA_FAST_SLT ? f24_slt(a[k], b[k])
			       : fi->kind == PICA_FAST_MAX ? f24_max(a[k], b[k], fm) : f24_min(a[k], b[k], fm);
		break;
	case PICA_FAST_DP3: case PICA_FAST_DP4: case PICA_FAST_DPH: {
		/* f24_dot: each product rounded, summed in component order */
		a = pica_fast_rd(base, &fi->src[0]);
		if (fi->kind == PICA_FAST_DPH)
			a[3] = 1.0f;
		f24v_f4 pr = f24v_mul4(a, pica_fast_rd(base, &fi->src[1]), rne);
		float acc = f24v_sum1(f24v_sum1(pr[0], pr[1], rne), pr[2], rne);
		if (fi->kind != PICA_FAST_DP3)
			acc = f24v_sum1(acc, pr[3], rne);
		res = (f24v_f4){ acc, acc, acc, acc };
		break;
	}
	case PICA_FAST_MOV:
		res = pica_fast_rd(base, &fi->src[0]);
		break;
	case PICA_FAST_FLR:
		a = pica_fast_rd(base, &fi->src[0]);
		for (int k = 0; k < 4; k++)
			res[k] = f24_flr(a[k], fm);
		break;
	default: {                                 /* EX2 LG2 RCP RSQ: a.x */
		a = pica_fast_rd(base, &fi->src[0]);
		float r = fi->kind == PICA_FAST_EX2 ? f24_ex2(a[0], fm)
		        : fi->kind == PICA_FAST_LG2 ? f24_lg2(a[0], fm)
		        : fi->kind == PICA_FAST_RCP ? f24_rcp(a[0], fm) : f24_rsq(a[0], fm);
		res = (f24v_f4){ r, r, r, r };
		break;
	}
	}
	{
		float *d = fi->to_o ? t->o[t->bank][fi->dst].c : t->r[fi->dst].c;
		f24v_i4 old, lanes;
		memcpy(&old, d, sizeof old);
		memcpy(&lanes, fi->lanes, sizeof lanes);
		old = (old & ~lanes) | ((f24v_i4)res & lanes);
		memcpy(d, &old, sizeof old);
		if (fi->to_o)
			t->o_written[fi->dst] |= fi->wmask;
	}
done:
	t->steps++;
	t->last_was_mova = false;
	if (!(t->st.nloop | t->st.nif | t->st.ncall)) {
		t->pc = pc + 1;
		info->pc = pc;
		info->taken = false;
		return true;
	}
	pica_next_pc(t, p, env, pc, PICA_NO_PC, info, NULL);   /* no jump: cannot fail */
	return true;
}

#endif
