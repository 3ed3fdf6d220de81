/* Tegra fragment lowering, control flow: the fragment unit has no branches
 * (tegra-fp.md §2.4 lists no jump in any unit), so IF/ELSE/ENDIF become CSEL
 * selects on a predicate stack, loops are unrolled while their exit is known
 * at compile time, and KILL_IF accumulates the discard flag. */
#include <math.h>
#include <string.h>

#include "frontends/tegra/tegra_lower.h"
#include "isa/tegra/tegra_isa.h"

bool tfl_kill_if(lctx *L, tfp_opnd cond_neg_kills)
{
	/* kill = (x < 0) ? 1 : kill, under the predicate */
	tfp_opnd k = L->p->has_kill ? L->p->kill : imm(0.0f);
	tfp_opnd t;
	if (cond_neg_kills.kind == TO_IMM)
		t = cond_neg_kills.k < 0.0f ? imm(1.0f) : k;
	else
		t = tfl_alu(L, TA_CSEL, TC_NONE, cond_neg_kills, imm(1.0f), k);
	if (L->depth > 0)
		t = tfl_sel(L, L->stack[L->depth - 1].p, t, k);
	L->p->kill = t;
	L->p->has_kill = true;
	return !L->e->d.set;
}

static tfp_opnd minus_one(lctx *L, tfp_opnd f)
{
	if (f.kind == TO_IMM)
		return imm(f.k - 1.0f);
	if (!plain(&f))
		f = tfl_mov(L, f);
	f.m1 = true;
	return f;
}

/* 1 when a or b is 1 (flags are 0/1) */
static tfp_opnd or_flag(lctx *L, tfp_opnd a, tfp_opnd b)
{
	if (a.kind == TO_IMM && a.k == 0.0f)
		return b;
	if (b.kind == TO_IMM && b.k == 0.0f)
		return a;
	if ((a.kind == TO_IMM && a.k == 1.0f) || (b.kind == TO_IMM && b.k == 1.0f))
		return imm(1.0f);
	return tfl_alu(L, TA_MAX, TC_NONE, a, imm(1.0f), b);
}

/* Recomputes f/p of every level from `from` up (after a BRK/CONT changed a
 * loop's flags, the blocks inside it turn off too). */
static void refresh(lctx *L, int from)
{
	for (int j = from; j < L->depth; j++) {
		pred *P = &L->stack[j];
		tfp_opnd outer = j > 0 ? L->stack[j - 1].f : imm(0.0f);
		P->f = P->loop ? or_flag(L, outer, or_flag(L, P->broken, P->cont)) : or_flag(L, outer, P->own);
		P->p = minus_one(L, P->f);
	}
}

bool tfl_if(lctx *L, const ir_inst *in)
{
	if (L->depth == MAX_DEPTH)
		return tfl_refuse(L, IR_REFUSE_CONTROL_FLOW, "IF nested too deeply", NULL);
	tfp_opnd x;
	if (!tfl_read_src(L, &in->src[0], 0, &x))
		return false;
	pred *P = &L->stack[L->depth];
	memset(P, 0, sizeof *P);
	/* eqz = (x == 0): NaN != 0, so NaN runs the block (tgsi IF) */
	P->eqz = tfl_alu(L, TA_MAD, TC_EQ, x, imm(1.0f), imm(0.0f));
	P->own = P->eqz;
	L->depth++;
	refresh(L, L->depth - 1);
	return !L->e->d.set;
}

bool tfl_else(lctx *L)
{
	if (L->depth == 0 || L->stack[L->depth - 1].loop)
		return tfl_refuse(L, IR_REFUSE_MALFORMED, "ELSE outside IF", NULL);
	pred *P = &L->stack[L->depth - 1];
	tfp_opnd ne = P->eqz;             /* 1 - eqz = -(eqz - 1) */
	if (ne.kind == TO_IMM) {
		ne.k = 1.0f - ne.k;
	} else {
		ne.m1 = true;
		ne.neg = true;
	}
	P->own = ne;
	refresh(L, L->depth - 1);
	return !L->e->d.set;
}

static int innermost_loop(const lctx *L)
{
	for (int j = L->depth - 1; j >= 0; j--)
		if (L->stack[j].loop)
			return j;
	return -1;
}

/* Is (temp t, component c) written by one of the instructions [a, b)? */
static bool written_in(const ir_shader *s, size_t a, size_t b, int32_t t, unsigned c)
{
	for (size_t k = a; k < b; k++)
		if (s->inst[k].dst.file == IR_TEMP && s->inst[k].dst.index == t && (s->inst[k].dst.mask & (1u << c)))
			return true;
	return false;
}

/* Component c of source x reads nothing that [a, b) writes. */
static bool invariant_in(const ir_shader *s, size_t a, size_t b, const ir_src *x, unsigned c)
{
	if (x->file == IR_TEMP)
		return !written_in(s, a, b, x->index, x->swz[c] & 3u);
	return x->file == IR_CONST || x->file == IR_IMM || x->file == IR_INPUT;
}

/* Final-value replacement of a counted loop with a run-time bound whose
 * body only accumulates loop-invariant values (it cannot be unrolled far
 * enough: glsl-fs-loop-300 runs 300 iterations):
 *
 *   BGNLOOP; SGE c, i, U; IF c; BRK; ENDIF; ADD v, v, inv ...; ENDLOOP
 *
 * with i constant at entry (i0) and stepped once by ADD i, i, s (s > 0 a
 * power of two, so (U - i0) / s is one exact product); U and every inv
 * unwritten in the loop; each accumulator written once, read only by its
 * own ADD.  The trip count is n = max(ceil((U - i0) / s), 0) (ceil(d) =
 * d + FRC(-d)), every accumulator ends at v + n * inv, i at i0 + n * s and
 * c at 1.  False (nothing emitted) when the loop is not of this form. */
static bool closed_form(lctx *L, size_t pc)
{
	const ir_shader *s = L->s;
	const ir_inst *b = &s->inst[pc];
	if (b->close < 0 || (size_t)b->close <= pc + 5)
		return false;
	size_t end = (size_t)b->close, body = pc + 5;
	const ir_inst *t = &s->inst[pc + 1], *f = &s->inst[pc + 2];
	if (t->op != IR_OP_SGE || t->sat || t->dst.file != IR_TEMP || s->inst[pc + 3].op != IR_OP_BRK ||
	    s->inst[pc + 4].op != IR_OP_ENDIF || f->op != IR_OP_IF)
		return false;
	unsigned cc = 0;
	while (cc < 4 && t->dst.mask != (1u << cc))
		cc++;
	if (cc == 4 || t->src[0].file != IR_TEMP || t->src[0].neg || t->src[0].abs || t->src[0].indirect ||
	    f->src[0].file != IR_TEMP || f->src[0].index != t->dst.index || (f->src[0].swz[0] & 3u) != cc ||
	    f->src[0].neg || f->src[0].abs)
		return false;
	int32_t ti = t->src[0].index;
	unsigned ci = t->src[0].swz[cc] & 3u;
	if (ti < 0 || (uint32_t)ti >= s->ntemps)
		return false;
	if (!invariant_in(s, pc + 1, end, &t->src[1], cc) || L->temp[(size_t)ti * 4 + ci].kind != TO_IMM)
		return false;
	/* the body: ADD v, v, inv (either operand order), nothing else */
	bool counter = false;
	float step = 0.0f;
	for (size_t k = body; k < end; k++) {
		const ir_inst *a = &s->inst[k];
		if (a->op != IR_OP_ADD || a->sat || a->dst.file != IR_TEMP || a->dst.index == t->dst.index)
			return false;
		for (unsigned c = 0; c < 4; c++) {
			if (!(a->dst.mask & (1u << c)))
				continue;
			unsigned self = 2;
			for (unsigned j = 0; j < 2; j++)
				if (a->src[j].file == IR_TEMP && a->src[j].index == a->dst.index && (a->src[j].swz[c] & 3u) == c &&
				    !a->src[j].neg && !a->src[j].abs && !a->src[j].indirect)
					self = j;
			if (self == 2 || !invariant_in(s, pc + 1, end, &a->src[1 - self], c))
				return false;
			/* written once, read by nothing else in the loop */
			for (size_t m = pc + 1; m < end; m++) {
				const ir_inst *o = &s->inst[m];
				if (m != k && o->dst.file == IR_TEMP && o->dst.index == a->dst.index && (o->dst.mask & (1u << c)))
					return false;
				for (unsigned j = 0; j < ir_op_get(o->op)->nsrc && j < IR_MAX_SRC; j++)
					if (o->src[j].file == IR_TEMP && o->src[j].index == a->dst.index &&
					    (ir_src_reads(o, j) & (1u << c)) && !(m == k && j == self) &&
					    !(m == pc + 1 && j == 0 && a->dst.index == ti && c == ci))
						return false;
			}
			if (a->dst.index == ti && c == ci) {
				const ir_src *x = &a->src[1 - self];
				if (x->file != IR_IMM || x->abs || x->index < 0 || (size_t)x->index >= s->nimm)
					return false;
				memcpy(&step, &s->imm[x->index][x->swz[c] & 3u], sizeof step);
				if (x->neg)
					step = -step;
				int ex;
				if (!(step > 0.0f) || frexpf(step, &ex) != 0.5f)
					return false;
				counter = true;
			}
		}
	}
	if (!counter)
		return false;
	/* n = max(ceil((U - i0) / s), 0) */
	float i0 = L->temp[(size_t)ti * 4 + ci].k;
	tfp_opnd u;
	if (!tfl_read_src(L, &t->src[1], cc, &u))
		return true;
	tfp_opnd d = tfl_alu(L, TA_MAD, TC_NONE, u, imm(1.0f / step), imm(-i0 / step));
	tfp_opnd nd = d;
	if (nd.kind == TO_IMM)
		nd.k = -nd.k;
	else
		nd.neg = !nd.neg;
	tfp_opnd up = nd.kind == TO_IMM ? imm(ceilf(d.k) - d.k) : tfl_sfu(L, TEGRA_SFU_FRC, 0, nd);
	tfp_opnd n = tfl_alu(L, TA_MAX, TC_NONE, tfl_alu(L, TA_MAD, TC_NONE, d, imm(1.0f), up), imm(1.0f),
	                     imm(0.0f));
	/* every value is read before any is written (the ADDs read invariants only) */
	tfp_opnd fin[64][4];
	if (end - body > 64)
		return false;
	for (size_t k = body; k < end; k++) {
		const ir_inst *a = &s->inst[k];
		for (unsigned c = 0; c < 4; c++) {
			if (!(a->dst.mask & (1u << c)))
				continue;
			unsigned self = a->src[0].file == IR_TEMP && a->src[0].index == a->dst.index &&
			                (a->src[0].swz[c] & 3u) == c && !a->src[0].neg && !a->src[0].abs ? 0 : 1;
			tfp_opnd v0, inv;
			if (!tfl_read_src(L, &a->src[self], c, &v0) || !tfl_read_src(L, &a->src[1 - self], c, &inv))
				return true;
			fin[k - body][c] = tfl_alu(L, TA_MAD, TC_NONE, n, inv, v0);
		}
	}
	for (size_t k = body; k < end; k++)
		for (unsigned c = 0; c < 4; c++)
			if ((s->inst[k].dst.mask & (1u << c)) && !tfl_write(L, &s->inst[k].dst, c, fin[k - body][c]))
				return true;
	tfl_write(L, &t->dst, cc, imm(1.0f));
	L->next = end + 1;
	return true;
}

/* Loops are unrolled while their exit is known at compile time: every
 * iteration is lowered again under the loop's predicate, BRK/CONT set the
 * loop's flags under the current one; the loop ends when the flags say
 * "broken" as a constant.  A loop whose exit depends on run-time values
 * (its BRK flag is not a constant) is unrolled L->loop_bound times (the
 * largest count that fits, tegra_emit.c), each iteration under its flag:
 * the result is exact for every trip count up to the bound; iterations
 * past it are dropped.  Counted accumulation loops get their final values
 * in closed form instead (closed_form). */
bool tfl_loop(lctx *L, const ir_inst *in, size_t pc)
{
	int j;
	switch (in->op) {
	case IR_OP_BGNLOOP:
		if (L->depth == MAX_DEPTH)
			return tfl_refuse(L, IR_REFUSE_CONTROL_FLOW, "loop nested too deeply", NULL);
		if (closed_form(L, pc))
			return !L->e->d.set;
		memset(&L->stack[L->depth], 0, sizeof L->stack[0]);
		L->stack[L->depth].loop = true;
		L->stack[L->depth].start = pc;
		L->stack[L->depth].broken = imm(0.0f);
		L->stack[L->depth].cont = imm(0.0f);
		L->depth++;
		refresh(L, L->depth - 1);
		return !L->e->d.set;
	case IR_OP_BRK:
	case IR_OP_CONT:
		if ((j = innermost_loop(L)) < 0)
			return tfl_refuse(L, IR_REFUSE_MALFORMED, "outside a loop", NULL);
		if (in->op == IR_OP_BRK)
			L->stack[j].broken = tfl_sel(L, L->stack[L->depth - 1].p, imm(1.0f), L->stack[j].broken);
		else
			L->stack[j].cont = tfl_sel(L, L->stack[L->depth - 1].p, imm(1.0f), L->stack[j].cont);
		refresh(L, j);
		return !L->e->d.set;
	default: {   /* ENDLOOP */
		if (L->depth == 0 || !L->stack[L->depth - 1].loop)
			return tfl_refuse(L, IR_REFUSE_MALFORMED, "ENDLOOP without BGNLOOP", NULL);
		pred *P = &L->stack[L->depth - 1];
		tfp_opnd outer = L->depth > 1 ? L->stack[L->depth - 2].f : imm(0.0f);
		tfp_opnd done = or_flag(L, outer, P->broken);
		if (done.kind == TO_IMM && done.k == 1.0f) {
			L->depth--;
			return true;
		}
		bool runtime = P->broken.kind != TO_IMM;
		if (runtime)
			L->p->runtime_loops = true;
		++P->iter;
		if (runtime && P->iter >= L->loop_bound) {   /* the bound: later iterations dropped */
			L->depth--;
			return true;
		}
		if (P->iter >= MAX_ITER)
			return tfl_refuse(L, IR_REFUSE_CONTROL_FLOW, "loop: more than 32 iterations; the fragment "
			              "unit has no branches, loops are unrolled", NULL);
		P->cont = imm(0.0f);
		refresh(L, L->depth - 1);
		L->next = P->start + 1;
		return !L->e->d.set;
	}
	}
}
