/* The batch's plan, once per program (pica_batch.h): which vertex shaders
 * can shade in lanes (forward code only, no stale value reaching an output
 * or a CMP), the instructions in code order, each flow op's path bit, the
 * v, r and o registers the lanes use.  The shading is pica_batch.c's. */
#include "units/pica/pica_batch.h"

#include <stdlib.h>
#include <string.h>

#include "units/pica/pica_fast.h"
#include "units/pica/pica_shader.h"

enum { NO_BIT = 0xFF };
#define DONE UINT32_MAX

/* Bit 4 * reg + comp of each r component source s reads in lanes. */
static uint64_t comps_read(const pica_fast_src *s, unsigned lanes)
{
	uint64_t bits = 0;
	if (s->file == PICA_FILE_R)
		for (unsigned k = 0; k < 4; k++)
			if (lanes & (1u << k))
				bits |= UINT64_C(1) << (4 * s->idx + s->swz[k]);
	return bits;
}

/* Sources and lanes an instruction with a fast form reads. */
static unsigned fast_reads(const pica_fast_inst *fi, unsigned lanes[3])
{
	const unsigned w = fi->wmask;
	switch (fi->kind) {
	case PICA_FAST_NOP: case PICA_FAST_END:
		return 0;
	case PICA_FAST_MOV: case PICA_FAST_FLR:
		lanes[0] = w;
		return 1;
	case PICA_FAST_EX2: case PICA_FAST_LG2: case PICA_FAST_RCP: case PICA_FAST_RSQ:
		lanes[0] = 1;
		return 1;
	case PICA_FAST_MAD:
		lanes[0] = lanes[1] = lanes[2] = w;
		return 3;
	case PICA_FAST_DP3:
		lanes[0] = lanes[1] = 7;
		return 2;
	case PICA_FAST_DP4:
		lanes[0] = lanes[1] = 15;
		return 2;
	case PICA_FAST_DPH:
		lanes[0] = 7;
		lanes[1] = 15;
		return 2;
	default:                                   /* ADD MUL SGE SLT MAX MIN */
		lanes[0] = lanes[1] = w;
		return 2;
	}
}

/* Whether the destination components the instruction writes may hold a
 * stale value (one computed from an r component no write of this vertex
 * made: the previous vertex's on that unit): per written component k, the
 * sources' components feeding it.  taint: bit 4 * reg + comp. */
static unsigned stale_writes(const pica_fast_inst *fi, uint64_t taint, uint16_t *v_used,
                             uint16_t *r_read)
{
	unsigned lanes[3];
	const unsigned nsrc = fast_reads(fi, lanes);
	bool all = false;
	unsigned out = 0;
	for (unsigned k = 0; k < nsrc; k++) {
		if (fi->src[k].file == PICA_FILE_V)
			*v_used |= (uint16_t)(1u << fi->src[k].idx);
		if (fi->src[k].file == PICA_FILE_R)
			*r_read |= (uint16_t)(1u << fi->src[k].idx);
	}
	const bool lanewise = fi->kind == PICA_FAST_ADD || fi->kind == PICA_FAST_MUL ||
	                      fi->kind == PICA_FAST_MAD || fi->kind == PICA_FAST_MOV ||
	                      fi->kind == PICA_FAST_FLR || fi->kind == PICA_FAST_SGE ||
	                      fi->kind == PICA_FAST_SLT || fi->kind == PICA_FAST_MAX ||
	                      fi->kind == PICA_FAST_MIN;
	for (unsigned k = 0; k < nsrc; k++) {
		if (lanewise) {
			for (unsigned c = 0; c < 4; c++)
				if ((fi->wmask & (1u << c)) && (comps_read(&fi->src[k], 1u << c) & taint))
					out |= 1u << c;
		} else if (comps_read(&fi->src[k], lanes[k]) & taint) {
			all = true;                        /* a dot product, an SFU op: one value */
		}
	}
	return all ? fi->wmask : out;
}

static bool no_relative(const struct pica_inst *in)
{
	const struct pica_fmt_info *f = &PICA_FMTS[in->fmt];
	for (int k = 0; k < f->nsrc && k < 3; k++)
		if (in->src[k].reg >= PICA_SRC_C && in->src[k].idx)
			return false;
	return true;
}

void pica_batch_free(pica_program *p)
{
	if (p->batch) {
		free(p->batch->order);
		free(p->batch->jump_bit);
		free(p->batch->form);
		free(p->batch->plain);
		free(p->batch->row);
		free(p->batch);
	}
	p->batch = NULL;
}

/* The successors of pc: pc + 1, a jump's target, and for the last
 * instruction of an IF's true block (target - 1) the pop to target + num.
 * Taint (maybe stale r components) is joined at each. */
static void reach_to(uint8_t *reach, uint64_t *taint, uint32_t to, uint64_t t)
{
	reach[to] = 1;
	taint[to] |= t;
}

void pica_batch_build(pica_program *p)
{
	p->batch = NULL;
	const uint32_t n = p->ncode;
	if (p->is_gs || p->entry >= n || !p->fast)
		return;
	pica_batch_plan *b = calloc(1, sizeof *b);
	uint8_t *reach = calloc(n, 1);
	uint64_t *taint = calloc(n, sizeof *taint);
	uint32_t *pop = malloc(n * sizeof *pop);      /* IF pops at pc: to there */
	if (!b || !reach || !taint || !pop || !(b->order = malloc(n * sizeof *b->order)) ||
	    !(b->jump_bit = malloc(n)) || !(b->form = calloc(n, sizeof *b->form)) ||
	    !(b->plain = calloc(n, 1)) || !(b->row = calloc(n, sizeof *b->row)))
		goto decline;
	memset(b->jump_bit, NO_BIT, n);
	for (uint32_t k = 0; k < n; k++)
		pop[k] = DONE;
	reach[p->entry] = 1;
	taint[p->entry] = UINT64_MAX;           /* every r component: the last vertex's */
	unsigned nbits = 0;
	for (uint32_t pc = p->entry; pc < n; pc++) {
		if (!reach[pc])
			continue;
		b->order[b->norder++] = pc;
		const struct pica_inst *in = &p->inst[pc];
		const pica_inst_meta *m = &p->meta[pc];
		pica_fast_inst *fi = &b->form[pc];
		*fi = p->fast[pc];
		uint64_t t = taint[pc];
		uint32_t jump = DONE;
		if (m->exec == PICA_EX_END) {
			if (fi->kind != PICA_FAST_END)
				goto decline;
			continue;                          /* no successor */
		} else if (fi->kind != PICA_FAST_GENERAL) {
			const unsigned st = stale_writes(fi, t, &b->v_used, &b->r_read);
			if (fi->kind != PICA_FAST_NOP && fi->to_o) {
				if (st)
					goto decline;              /* an output from a stale value */
				b->o_used |= (uint16_t)(1u << fi->dst);
			} else if (fi->kind != PICA_FAST_NOP) {
				t &= ~((uint64_t)fi->wmask << (4 * fi->dst));
				t |= (uint64_t)st << (4 * fi->dst);
			}
		} else if (m->exec == PICA_EX_CMP) {
			if (m->bad_desc || m->two_inputs || !no_relative(in))
				goto decline;
			for (int k = 0; k < 2; k++) {
				fi->src[k] = pica_fast_src_of(&in->src[k]);
				if (fi->src[k].file == PICA_FILE_V)
					b->v_used |= (uint16_t)(1u << fi->src[k].idx);
				if (fi->src[k].file == PICA_FILE_R)
					b->r_read |= (uint16_t)(1u << fi->src[k].idx);
				if (comps_read(&fi->src[k], 3) & t)
					goto decline;              /* a path from a stale value */
			}
		} else if ((m->exec == PICA_EX_JMP || m->exec == PICA_EX_IF) &&
		           (in->fmt == PICA_FMT_2 || in->fmt == PICA_FMT_3)) {
			if (in->target <= pc || in->target >= n || nbits == PICA_BATCH_JUMPS)
				goto decline;
			jump = in->target;
			b->jump_bit[pc] = (uint8_t)nbits++;
			if (m->exec == PICA_EX_IF) {
				const uint32_t to = (uint32_t)in->target + in->num;
				if (to >= n || (pop[in->target - 1] != DONE && pop[in->target - 1] != to))
					goto decline;
				pop[in->target - 1] = to;
			}
		} else {
			goto decline;
		}
		if (pc + 1 >= n)
			goto decline;                      /* the pc would run past the code */
		reach_to(reach, taint, pc + 1, t);
		if (jump != DONE)
			reach_to(reach, taint, jump, t);
		if (pop[pc] != DONE)
			reach_to(reach, taint, pop[pc], t);
	}
	for (uint32_t k = 0; k < b->norder; k++) {
		const uint32_t pc = b->order[k];
		const uint8_t ex = p->meta[pc].exec;
		b->plain[pc] = ex != PICA_EX_END && ex != PICA_EX_JMP && ex != PICA_EX_IF && pop[pc] == DONE;
		for (unsigned i = 0; i < 3; i++) {
			const pica_fast_src *s = &b->form[pc].src[i];
			for (unsigned c = 0; c < 4; c++)
				b->row[pc][i][c] = (uint16_t)(4u * s->idx + (s->swz[c] & 3u) +
				                              (s->file == PICA_FILE_R ? PICA_BATCH_ROW_R : 0u) +
				                              (s->file == PICA_FILE_C ? PICA_BATCH_ROW_C : 0u) +
				                              (s->neg ? PICA_BATCH_ROW_NEG : 0u));
		}
	}
#if F24V_HAVE_AVX2
	b->wide = __builtin_cpu_supports("avx2");
#endif
	free(reach);
	free(taint);
	free(pop);
	p->batch = b;
	return;
decline:
	free(reach);
	free(taint);
	free(pop);
	p->batch = b;
	pica_batch_free(p);
}

bool pica_batch_usable(const pica_program *p, const pica_env *env)
{
	return p->batch && !env->general && !env->trace && !env->permissive && !env->f24.exact;
}

