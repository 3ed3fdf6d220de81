/* The fast path's instruction forms (pica_fast.h).  Semantics are
 * pica_exec.c's, operand for operand: the same reads (swizzle, negation
 * turning -0 into +0), the same float24 rules (ADD, MUL, MAD and the dot
 * products through isa/f24_vec.h's four-lane forms of f24_add, f24_mul
 * and f24_round; the rest through isa/f24.h), the same writes;
 * tests/units/test_pica_fast.c runs both paths side by side. */
#include "units/pica/pica_fast.h"

#include <stdlib.h>
#include <string.h>

#include "isa/f24_vec.h"

/* ---- the plan, once per program ---- */

static uint8_t fast_kind(const struct pica_inst *in, const pica_inst_meta *m)
{
	if (m->bad_desc || m->two_inputs)
		return PICA_FAST_GENERAL;
	const struct pica_fmt_info *f = &PICA_FMTS[in->fmt];
	for (int k = 0; k < f->nsrc && k < 3; k++)
		if (in->src[k].reg >= PICA_SRC_C && in->src[k].idx)
			return PICA_FAST_GENERAL;             /* relative addressing */
	const enum pica_op base = PICA_OPS[in->op].base;
	switch (m->exec) {
	case PICA_EX_BIN:
		return base == PICA_OP_ADD ? PICA_FAST_ADD : base == PICA_OP_MUL ? PICA_FAST_MUL
		     : base == PICA_OP_SGE ? PICA_FAST_SGE : base == PICA_OP_SLT ? PICA_FAST_SLT
		     : base == PICA_OP_MAX ? PICA_FAST_MAX : PICA_FAST_MIN;
	case PICA_EX_DOT:
		return base == PICA_OP_DP3 ? PICA_FAST_DP3 : base == PICA_OP_DP4 ? PICA_FAST_DP4
		                                                                 : PICA_FAST_DPH;
	case PICA_EX_UNARY:
		return base == PICA_OP_FLR ? PICA_FAST_FLR : PICA_FAST_MOV;
	case PICA_EX_MAD:
		return PICA_FAST_MAD;
	case PICA_EX_SFU:
		return base == PICA_OP_EX2 ? PICA_FAST_EX2 : base == PICA_OP_LG2 ? PICA_FAST_LG2
		     : base == PICA_OP_RCP ? PICA_FAST_RCP : PICA_FAST_RSQ;
	case PICA_EX_NOP:
		return PICA_FAST_NOP;
	case PICA_EX_END:
		return PICA_FAST_END;
	default:
		return PICA_FAST_GENERAL;
	}
}

static pica_fast_src fast_src(const struct pica_src *s)
{
	pica_fast_src f = { 0 };
	if (s->reg < PICA_SRC_R) {
		f.file = PICA_FILE_V;
		f.idx = s->reg;
	} else if (s->reg < PICA_SRC_C) {
		f.file = PICA_FILE_R;
		f.idx = (uint8_t)(s->reg - PICA_SRC_R);
	} else {
		f.file = PICA_FILE_C;
		f.idx = (uint8_t)(s->reg - PICA_SRC_C);   /* 0..95: a 7-bit field */
	}
	f.neg = s->neg;
	memcpy(f.swz, s->swz, sizeof f.swz);
	f.identity = s->swz[0] == 0 && s->swz[1] == 1 && s->swz[2] == 2 && s->swz[3] == 3;
	return f;
}

bool pica_fast_build(pica_program *p)
{
	p->fast = calloc(p->ncode ? p->ncode : 1, sizeof *p->fast);
	if (!p->fast)
		return false;
	for (uint32_t i = 0; i < p->ncode; i++) {
		const struct pica_inst *in = &p->inst[i];
		pica_fast_inst *f = &p->fast[i];
		f->kind = fast_kind(in, &p->meta[i]);
		if (f->kind == PICA_FAST_GENERAL || f->kind == PICA_FAST_NOP)
			continue;
		for (int k = 0; k < 3; k++)
			f->src[k] = fast_src(&in->src[k]);
		for (int k = 0; k < 4; k++)
			if (in->mask & (8 >> k))               /* descriptor mask: bit 3 = x */
				f->wmask |= (uint8_t)(1u << k);
		f->to_o = in->dst < PICA_DST_R;
		f->dst = in->dst & 15;
	}
	return true;
}

/* ---- one instruction ---- */

typedef f24v_f4 f4;

static inline f4 rd(const pica_thread *t, const pica_uniforms *u, const pica_fast_src *s)
{
	const pica_vec4 *r = s->file == PICA_FILE_V ? &t->v[s->idx]
	                   : s->file == PICA_FILE_R ? &t->r[s->idx] : &u->c[s->idx];
	f4 v;
	if (s->identity)
		memcpy(&v, r->c, sizeof v);
	else
		v = (f4){ r->c[s->swz[0]], r->c[s->swz[1]], r->c[s->swz[2]], r->c[s->swz[3]] };
	/* as read_src: -x + 0 turns a negated zero into +0 */
	if (s->neg)
		v = -v + 0.0f;
	return v;
}

bool pica_fast_step(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                    const pica_env *env, pica_step_info *info)
{
	const uint32_t pc = t->pc;
	const pica_fast_inst *fi = &p->fast[pc];
	if (fi->kind == PICA_FAST_GENERAL || t->steps >= env->max_steps)
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
	f4 a, b, res;
	switch (fi->kind) {
	case PICA_FAST_NOP:
		goto done;
	case PICA_FAST_ADD:
		res = f24v_add4(rd(t, u, &fi->src[0]), rd(t, u, &fi->src[1]), rne);
		break;
	case PICA_FAST_MUL:
		res = f24v_mul4(rd(t, u, &fi->src[0]), rd(t, u, &fi->src[1]), rne);
		break;
	case PICA_FAST_MAD:    /* not fused: the product rounded first (f24_mad) */
		a = f24v_mul4(rd(t, u, &fi->src[0]), rd(t, u, &fi->src[1]), rne);
		res = f24v_add4(a, rd(t, u, &fi->src[2]), rne);
		break;
	case PICA_FAST_SGE: case PICA_FAST_SLT: case PICA_FAST_MAX: case PICA_FAST_MIN:
		a = rd(t, u, &fi->src[0]);
		b = rd(t, u, &fi->src[1]);
		for (int k = 0; k < 4; k++)
			res[k] = fi->kind == PICA_FAST_SGE ? f24_sge(a[k], b[k])
			       : fi->kind == PICA_FAST_SLT ? f24_slt(a[k], b[k])
			       : fi->kind == PICA_FAST_MAX ? f24_max(a[k], b[k], fm) : f24_min(a[k], b[k], fm);
		break;
	case PICA_FAST_DP3: case PICA_FAST_DP4: case PICA_FAST_DPH: {
		/* f24_dot: each product rounded, summed in component order */
		a = rd(t, u, &fi->src[0]);
		if (fi->kind == PICA_FAST_DPH)
			a[3] = 1.0f;
		f4 pr = f24v_mul4(a, rd(t, u, &fi->src[1]), rne);
		float acc = f24v_sum1(f24v_sum1(pr[0], pr[1], rne), pr[2], rne);
		if (fi->kind != PICA_FAST_DP3)
			acc = f24v_sum1(acc, pr[3], rne);
		res = (f4){ acc, acc, acc, acc };
		break;
	}
	case PICA_FAST_MOV:
		res = rd(t, u, &fi->src[0]);
		break;
	case PICA_FAST_FLR:
		a = rd(t, u, &fi->src[0]);
		for (int k = 0; k < 4; k++)
			res[k] = f24_flr(a[k], fm);
		break;
	default: {                                 /* EX2 LG2 RCP RSQ: a.x */
		a = rd(t, u, &fi->src[0]);
		float r = fi->kind == PICA_FAST_EX2 ? f24_ex2(a[0], fm)
		        : fi->kind == PICA_FAST_LG2 ? f24_lg2(a[0], fm)
		        : fi->kind == PICA_FAST_RCP ? f24_rcp(a[0], fm) : f24_rsq(a[0], fm);
		res = (f4){ r, r, r, r };
		break;
	}
	}
	{
		float *d = fi->to_o ? t->o[t->bank][fi->dst].c : t->r[fi->dst].c;
		if (fi->wmask == 0xF) {
			memcpy(d, &res, sizeof res);
		} else {
			for (int k = 0; k < 4; k++)
				if (fi->wmask & (1u << k))
					d[k] = res[k];
		}
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
