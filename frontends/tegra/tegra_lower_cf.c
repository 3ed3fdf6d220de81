/* Tegra fragment lowering, control flow: the fragment unit has no branches
 * (tegra-fp.md §2.4 lists no jump in any unit), so IF/ELSE/ENDIF become CSEL
 * selects on a predicate stack, loops are unrolled while their exit is known
 * at compile time, and KILL_IF accumulates the discard flag. */
#include <string.h>

#include "frontends/tegra/tegra_lower.h"

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

/* Loops are unrolled while their exit is known at compile time: every
 * iteration is lowered again under the loop's predicate, BRK/CONT set the
 * loop's flags under the current one; the loop ends when the flags say
 * "broken" as a constant. */
bool tfl_loop(lctx *L, const ir_inst *in, size_t pc)
{
	int j;
	switch (in->op) {
	case IR_OP_BGNLOOP:
		if (L->depth == MAX_DEPTH)
			return tfl_refuse(L, IR_REFUSE_CONTROL_FLOW, "loop nested too deeply", NULL);
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
		if (++P->iter >= MAX_ITER)
			return tfl_refuse(L, IR_REFUSE_CONTROL_FLOW, "loop: its trip count is not known at "
			              "compile time (or over 32); the fragment unit has no branches, "
			              "loops are unrolled", NULL);
		P->cont = imm(0.0f);
		refresh(L, L->depth - 1);
		L->next = P->start + 1;
		return !L->e->d.set;
	}
	}
}
