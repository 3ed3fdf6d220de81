/* The fast path's instruction forms (pica_fast.h).  Semantics are
 * pica_exec.c's, operand for operand: the same reads (swizzle, negation
 * turning -0 into +0), the same float24 rules (ADD, MUL, MAD and the dot
 * products through isa/f24_vec.h's four-lane forms of f24_add, f24_mul
 * and f24_round; the rest through isa/f24.h), the same writes;
 * tests/units/test_pica_fast.c runs both paths side by side. */
#include "units/pica/pica_fast.h"

#include <stdlib.h>
#include <string.h>


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

pica_fast_src pica_fast_src_of(const struct pica_src *s)
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
			f->src[k] = pica_fast_src_of(&in->src[k]);
		for (int k = 0; k < 4; k++)
			if (in->mask & (8 >> k)) {             /* descriptor mask: bit 3 = x */
				f->wmask |= (uint8_t)(1u << k);
				f->lanes[k] = -1;
			}
		f->to_o = in->dst < PICA_DST_R;
		f->dst = in->dst & 15;
	}
	return true;
}
