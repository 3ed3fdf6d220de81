/* Tegra fragment backend, step 2: placing the scalar operations into EXECs
 * and allocating registers (tegra_int.h).
 *
 * Time line: EXEC e runs MFU instructions m = 0..2 at 8e+m, TEX at 8e+3,
 * ALU packets p = 0..2 at 8e+4+p and DW at 8e+7, the unit order inside an
 * EXEC (tegra-fp.md §2.2, §5).  A value written at t is readable from t+1:
 * ALU register writes land at the end of their packet (all four slots read
 * first), MFU results are visible to the ALU of the same EXEC.
 *
 * MFU, TEX and DW address r0..r3 of the current row (row = EXEC mod
 * alu_buffer_size; tegra-fp.md §5 "row-relative addressing"), so values
 * that cross them travel through fixed row registers: into the row before
 * an SFU op or a TEX (an ALU copy, or the operation computing the value
 * writes it there: tfp_retarget), and out of it after an ipl, SFU op or TEX
 * (an ALU copy in the same EXEC, or the ALU reads it in place until another
 * unit needs the register: tfp_reach; tegra_sched_post.c picks per op).
 * Those fixed holds are intervals on the row registers; every other value
 * is an interval allocated afterwards by a greedy scan around them (r
 * registers first, then g0..g7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_sched.h"
#include "isa/fp20.h"
#include "isa/tegra/tegra_isa.h"

bool tfp_ilist_add(tfp_ilist *l, int32_t lo, int32_t hi)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		tfp_ival *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (tfp_ival){ lo, hi, -1 };
	return true;
}

static bool ilist_free_over(const tfp_ilist *l, int32_t lo, int32_t hi)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].lo <= hi && lo <= l->v[i].hi)
			return false;
	return true;
}

/* A hold that an in-place value owns: its index, -1 out of memory. */
int32_t tfp_hold_add(tfp_sched *S, unsigned reg, int32_t lo, int32_t hi, int32_t owner)
{
	if (!tfp_ilist_add(&S->fixed[reg], lo, hi))
		return -1;
	S->fixed[reg].v[S->fixed[reg].n - 1].owner = owner;
	return (int32_t)S->fixed[reg].n - 1;
}

bool tfp_fixed_free_but(const tfp_sched *S, unsigned reg, int32_t lo, int32_t hi, int32_t skip)
{
	const tfp_ilist *l = &S->fixed[reg];
	bool ok = true;
	for (size_t i = 0; i < l->n; i++)
		if ((int32_t)i != skip && l->v[i].lo <= hi && lo <= l->v[i].hi) {
			ok = false;
			if (l->v[i].owner >= 0 && S->blocked)
				S->blocked[l->v[i].owner] = 1;
		}
	return ok;
}


/* Earliest time an operand can be read (and not before the window: an
 * operation is not hoisted far above the ones before it, which bounds the
 * registers held). */
int32_t tfp_ready(const tfp_sched *S, const tfp_opnd *o)
{
	int32_t floor_t = S->window < 0 ? 0 : S->frontier - S->window;
	if (floor_t < 0)
		floor_t = 0;
	if (o->kind != TO_VAL)
		return floor_t;
	int32_t t = S->val[o->v].def_t + 1;
	return t > floor_t ? t : floor_t;
}

/* Can the ALU of EXEC e read operand o?  An ALU write reaches the ALU's
 * reads in its own EXEC (later packets) and from the next batch on, not in
 * the other EXECs of its batch (tegra.alu.batch_view, docs/tegra-units.md
 * "Batches"): the ALU sees rows it does not carry as they were when the
 * batch began.  Values are allocated to registers after placement, so every
 * ALU-written value keeps to this; MFU and TEX results reach the ALU through
 * the carried row at once. */
static bool alu_sees(const tfp_sched *S, const tfp_opnd *o, unsigned e)
{
	if (o->kind != TO_VAL || S->val[o->v].def_t < 0 || S->val[o->v].def_t % 8 < 4)
		return true;
	const unsigned ed = (unsigned)S->val[o->v].def_t / 8, batch_end = (ed / S->rows + 1) * S->rows;
	return e == ed || e >= batch_end;
}

bool tfp_alu_sees_slot(const tfp_sched *S, const tfp_slot *s, unsigned e)
{
	for (unsigned k = 0; k < 3; k++)
		if (!alu_sees(S, &s->s[k], e))
			return false;
	return true;
}

/* First packet of EXEC e at or after time t with room for s; -1 none. */
int tfp_find_packet(const tfp_sched *S, unsigned e, int32_t t, const tfp_slot *s)
{
	if (!tfp_alu_sees_slot(S, s, e))
		return -1;
	for (unsigned p = 0; p < 3; p++)
		if (tfp_t_alu(e, p) >= t && tfp_packet_fits(S, &S->ex[e].p[p], s))
			return (int)p;
	return -1;
}

unsigned tfp_row_reg(const tfp_sched *S, unsigned e, unsigned k) { return 4 * (e % S->rows) + k; }

tfp_slot tfp_copy_slot(tfp_opnd src)
{
	tfp_slot s = { .alu = TA_MAD, .s = { src, { .kind = TO_IMM, .k = 1.0f }, { .kind = TO_IMM, .k = 0.0f } } };
	return s;
}

tfp_opnd tfp_fixed(unsigned reg, uint8_t half)
{
	return (tfp_opnd){ .kind = TO_FIX, .v = (int32_t)reg, .half = half };
}

static unsigned mfu_total(const tfp_sched *S)
{
	unsigned n = 0;
	for (unsigned e = 0; e < TFP_MAX_EXEC; e++)
		n += S->ex[e].nm;
	return n;
}

/* An MFU instruction of EXEC e with var c free (c < 4) or the SFU free
 * (c == 4); a new one when allowed.  -1 none. */
int tfp_find_minst(const tfp_sched *S, unsigned e, unsigned c)
{
	const tfp_exec *x = &S->ex[e];
	for (unsigned m = 0; m < x->nm; m++)
		if (c < 4 ? !((x->m[m].var_mask | (x->m[m].wread ? 1u << x->m[m].wdst : 0u)) & (1u << c))
		          : !x->m[m].sfu_used)
			return (int)m;
	if (x->nm < 3 && mfu_total(S) < TFP_MAX_MFU)
		return x->nm;
	return -1;
}

bool tfp_fixed_free(const tfp_sched *S, unsigned reg, int32_t lo, int32_t hi)
{
	return tfp_fixed_free_but(S, reg, lo, hi, -1);
}

/* In-place results (an ipl, SFU, TEX or PSEQ result read by the ALU from
 * the row register the unit wrote, no copy out): the value is held there
 * from its write to its last reader.  The ALU reads MFU results of its own
 * EXEC (tegra-fp.md §2.2 unit order; the xf86 programs read interpolated
 * r6/r7 in later EXECs, §5), and with several rows a row it does not carry
 * as the batch began (alu_sees); a texel or fetched pixel only in its own
 * EXEC (libre-tegra-mesa fp/nir.c: "R2-R3 hold the TEX result for the next
 * instruction only", §3.3). */
bool tfp_inplace(const tfp_sched *S, int32_t op)
{
	return S->copy && !S->copy[op];
}

bool tfp_set_inplace(tfp_sched *S, int32_t v, unsigned reg, uint8_t half, bool same_exec, int32_t def_t,
                        int32_t lo, int32_t hi, int32_t owner, int32_t *hold)
{
	if (*hold < 0 && (*hold = tfp_hold_add(S, reg, lo, hi, owner)) < 0)
		return false;
	S->val[v].def_t = def_t;
	S->val[v].fix = (int8_t)reg;
	S->val[v].half = half;
	S->val[v].same_exec = same_exec;
	S->val[v].hold = *hold;
	S->val[v].owner = owner;
	return true;
}

static unsigned def_exec(const tfp_value *v) { return (unsigned)(v->def_t + 1) / 8; }

/* Can a read of o at time t (by the ALU of EXEC e when alu) reach its
 * in-place value?  Not: S->conflict names the op that wrote it. */
bool tfp_reach(tfp_sched *S, const tfp_opnd *o, unsigned e, int32_t t, bool alu)
{
	if (o->kind != TO_VAL || S->val[o->v].fix < 0)
		return true;
	const tfp_value *v = &S->val[o->v];
	const unsigned ed = def_exec(v), bend = (ed / S->rows + 1) * S->rows;
	bool ok = !alu || (v->same_exec ? e == ed : (e == ed || e >= bend));
	ok = ok && tfp_fixed_free_but(S, (unsigned)v->fix, S->fixed[v->fix].v[v->hold].lo, tfp_hold_hi(t), v->hold);
	if (!ok)
		S->conflict = v->owner;
	return ok;
}

void tfp_extend(tfp_sched *S, const tfp_opnd *o, int32_t t)
{
	if (o->kind != TO_VAL || S->val[o->v].fix < 0)
		return;
	tfp_ival *iv = &S->fixed[S->val[o->v].fix].v[S->val[o->v].hold];
	if (iv->hi < tfp_hold_hi(t))
		iv->hi = tfp_hold_hi(t);
}

/* Every operand of slot s, read at packet p of EXEC e, reaches its value;
 * then their holds reach the read. */
static bool tfp_reach_slot(tfp_sched *S, const tfp_slot *s, unsigned e, unsigned p)
{
	for (unsigned k = 0; k < 3; k++)
		if (!tfp_reach(S, &s->s[k], e, tfp_t_alu(e, p), true))
			return false;
	for (unsigned k = 0; k < 3; k++)
		tfp_extend(S, &s->s[k], tfp_t_alu(e, p));
	return true;
}

static bool place_alu(tfp_sched *S, const tfp_op *o)
{
	tfp_slot s = { .alu = o->alu, .cc = o->cc, .sat = o->sat, .dkind = TD_VAL, .d = o->dst[0] };
	memcpy(s.s, o->s, sizeof s.s);
	int32_t t = 0;
	for (unsigned k = 0; k < 3; k++) {
		int32_t r = tfp_ready(S, &o->s[k]);
		t = r > t ? r : t;
	}
	for (unsigned e = (unsigned)(t / 8); e < TFP_MAX_EXEC; e++) {
		int p = tfp_find_packet(S, e, t, &s);
		if (p < 0)
			continue;
		if (!tfp_reach_slot(S, &s, e, (unsigned)p))
			return false;
		tfp_packet_add(S, &S->ex[e].p[p], &s);
		S->val[o->dst[0]].def_t = tfp_t_alu(e, (unsigned)p);
		return true;
	}
	return false;
}

/* The fragment's 1/w: the SFU operand r4 reads it (tegra.mfu.w_reg), mul0
 * copies it into a row register that no var of the instruction writes. */
/* An MFU result in row register X of EXEC e copied out to o's value by an
 * ALU slot of the same EXEC: the packet that takes the copy while X stays
 * free from the MFU to it, or -1.  *s is the copy slot. */
static int find_copy_out(const tfp_sched *S, const tfp_op *o, unsigned e, unsigned X, tfp_slot *s)
{
	*s = tfp_copy_slot(tfp_fixed(X, TO_FP20));
	s->dkind = TD_VAL;
	s->d = o->dst[0];
	int p = tfp_find_packet(S, e, tfp_t_alu(e, 0), s);
	return p >= 0 && tfp_fixed_free(S, X, tfp_hold_lo(tfp_t_mfu(e, 0)), tfp_hold_hi(tfp_t_alu(e, (unsigned)p))) ? p : -1;
}

/* Places the copy find_copy_out found (MFU instruction m of EXEC e is in use). */
static bool add_copy_out(tfp_sched *S, const tfp_op *o, unsigned e, int m, unsigned X, int p,
                         const tfp_slot *s)
{
	tfp_exec *x = &S->ex[e];
	if ((unsigned)m == x->nm)
		x->nm++;
	tfp_packet_add(S, &x->p[p], s);
	S->val[o->dst[0]].def_t = tfp_t_alu(e, (unsigned)p);
	return tfp_ilist_add(&S->fixed[X], tfp_hold_lo(tfp_t_mfu(e, 0)), tfp_hold_hi(tfp_t_alu(e, (unsigned)p)));
}

static bool place_wpos(tfp_sched *S, const tfp_op *o)
{
	for (unsigned e = 0; e < TFP_MAX_EXEC; e++) {
		int m = tfp_find_minst(S, e, 4);
		if (m < 0)
			continue;
		tfp_exec *x = &S->ex[e];
		for (unsigned c = 0; c < 4; c++) {
			if ((unsigned)m < x->nm && (x->m[m].var_mask & (1u << c)))
				continue;
			unsigned X = tfp_row_reg(S, e, c);
			tfp_slot s;
			const int32_t lo = tfp_hold_lo(tfp_t_mfu(e, 0));
			int32_t hold = -1;
			if (tfp_inplace(S, S->cur) ? !tfp_fixed_free(S, X, lo, tfp_hold_hi(tfp_t_alu(e, 0))) : find_copy_out(S, o, e, X, &s) < 0)
				continue;
			x->m[m].sfu_used = true;
			x->m[m].sfu_op = TEGRA_SFU_NOP;
			x->m[m].sfu_reg = 4;
			x->m[m].wread = true;
			x->m[m].wdst = (uint8_t)c;
			if (tfp_inplace(S, S->cur)) {
				if ((unsigned)m == x->nm)
					x->nm++;
				return tfp_set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(e, (unsigned)m), lo,
				                   tfp_hold_hi(tfp_t_alu(e, 0)), S->cur, &hold);
			}
			return add_copy_out(S, o, e, m, X, find_copy_out(S, o, e, X, &s), &s);
		}
	}
	return false;
}

static bool place_ipl(tfp_sched *S, const tfp_op *o)
{
	unsigned c = o->comp;
	if (o->wpos)
		return place_wpos(S, o);
	for (unsigned e = 0; e < TFP_MAX_EXEC; e++) {
		int m = tfp_find_minst(S, e, c);
		if (m < 0)
			continue;
		unsigned X = tfp_row_reg(S, e, c);
		tfp_slot s;
		const int32_t lo = tfp_hold_lo(tfp_t_mfu(e, 0));
		const int32_t hi = tfp_hold_hi(tfp_t_alu(e, 0));   /* an in-place value lives to the ALU at least */
		int p = tfp_inplace(S, S->cur) ? (tfp_fixed_free(S, X, lo, hi) ? 0 : -1) : find_copy_out(S, o, e, X, &s);
		if (p < 0)
			continue;
		S->ex[e].m[m].var_mask |= (uint8_t)(1u << c);
		S->ex[e].m[m].var_row[c] = o->tram_row;
		if (tfp_inplace(S, S->cur)) {
			int32_t hold = -1;
			if ((unsigned)m == S->ex[e].nm)
				S->ex[e].nm++;
			return tfp_set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(e, (unsigned)m), lo, hi, S->cur, &hold);
		}
		return add_copy_out(S, o, e, m, X, p, &s);
	}
	return false;
}

/* An operand the ALU computes for one reader only (an SFU op or a TEX
 * coordinate) is written by its operation straight into the row register
 * the unit reads (the ALU addresses r0..r15 absolutely, MFU and TEX read
 * their row at once, tegra-fp.md §5), instead of a copy into it: the
 * defining slot, NULL when o is not such a value (*ed its EXEC). */
tfp_slot *tfp_retarget(tfp_sched *S, const tfp_opnd *o, unsigned *ed)
{
	if (!S->copy || o->kind != TO_VAL || !tfp_plain(o) || S->uses[o->v] != 1 || S->val[o->v].fix >= 0 ||
	    S->val[o->v].def_t < 0 || S->val[o->v].def_t % 8 < 4)
		return NULL;
	*ed = (unsigned)S->val[o->v].def_t / 8;
	for (unsigned j = 0; j < 3; j++)
		for (unsigned k = 0; k < S->ex[*ed].p[j].n; k++) {
			tfp_slot *s = &S->ex[*ed].p[j].slot[k];
			if (s->dkind == TD_VAL && s->d == o->v)
				return s;
		}
	return NULL;
}

void tfp_retarget_to(tfp_sched *S, tfp_slot *d, unsigned reg)
{
	S->val[d->d].def_t = -1;
	d->dkind = TD_FIX;
	d->dhalf = TO_FP20;
	d->d = (int32_t)reg;
}

/* MFU instruction m of exec x runs the SFU op on row register j. */
static void put_sfu(tfp_exec *x, unsigned m, uint8_t op, unsigned j)
{
	if (m == x->nm)
		x->nm++;
	x->m[m].sfu_used = true;
	x->m[m].sfu_op = op;
	x->m[m].sfu_reg = (uint8_t)j;
}

static bool place_sfu(tfp_sched *S, const tfp_op *o)
{
	const unsigned R = S->rows;
	const unsigned back = o->pre ? R + 1 : 1;   /* PRE step in an earlier EXEC of the same row */
	int32_t t = tfp_ready(S, &o->s[0]);
	unsigned ed = 0;
	tfp_slot *rt = tfp_retarget(S, &o->s[0], &ed);
	for (unsigned es = rt ? 1 : back; es < TFP_MAX_EXEC; es++) {
		unsigned ein = es >= back ? es - back : 0, epre = es >= R ? es - R : 0;
		if (rt ? (o->pre ? es < R || epre <= ed : es <= ed) : tfp_t_alu(ein, 2) < t)
			continue;
		int ms = tfp_find_minst(S, es, 4);
		if (ms < 0)
			continue;
		int mp = -1;
		if (o->pre && (mp = tfp_find_minst(S, epre, 4)) < 0)
			continue;
		for (unsigned j = 0; j < 4 && rt; j++) {   /* the operand written into the row register */
			unsigned X = tfp_row_reg(S, es, j);
			const bool inp = tfp_inplace(S, S->cur);
			tfp_slot cout = tfp_copy_slot(tfp_fixed(X, TO_FP20));
			cout.dkind = TD_VAL;
			cout.d = o->dst[0];
			int pout = inp ? 0 : tfp_find_packet(S, es, tfp_t_alu(es, 0), &cout);
			const int32_t lo = tfp_hold_lo(S->val[o->s[0].v].def_t), hi = tfp_hold_hi(tfp_t_alu(es, (unsigned)pout));
			if (pout < 0 || !tfp_fixed_free(S, X, lo, hi))
				continue;
			if (o->pre)
				put_sfu(&S->ex[epre], (unsigned)mp, o->pre, j);
			put_sfu(&S->ex[es], (unsigned)ms, o->sfu, j);
			tfp_retarget_to(S, rt, X);
			int32_t hold = -1;
			if (inp)
				return tfp_set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(es, (unsigned)ms), lo, hi, S->cur,
				                   &hold);
			tfp_packet_add(S, &S->ex[es].p[pout], &cout);
			S->val[o->dst[0]].def_t = tfp_t_alu(es, (unsigned)pout);
			return tfp_ilist_add(&S->fixed[X], lo, hi);
		}
		if (rt && (es < back || tfp_t_alu(ein, 2) < t))
			continue;
		for (unsigned j = 0; j < 4; j++) {
			unsigned X = tfp_row_reg(S, es, j);
			tfp_slot cin = tfp_copy_slot(o->s[0]);
			cin.dkind = TD_FIX;
			cin.d = (int32_t)X;
			tfp_slot cout = tfp_copy_slot(tfp_fixed(X, TO_FP20));
			cout.dkind = TD_VAL;
			cout.d = o->dst[0];
			const bool inp = tfp_inplace(S, S->cur);
			int pin = tfp_find_packet(S, ein, t, &cin);
			int pout = inp ? 0 : tfp_find_packet(S, es, tfp_t_alu(es, 0), &cout);
			if (pin < 0 || pout < 0)
				break;
			int32_t lo = tfp_hold_lo(tfp_t_alu(ein, (unsigned)pin)), hi = tfp_hold_hi(tfp_t_alu(es, (unsigned)pout));
			if (inp)
				hi = tfp_hold_hi(tfp_t_alu(es, 0));
			if (!tfp_fixed_free(S, X, lo, hi))
				continue;
			if (!tfp_reach_slot(S, &cin, ein, (unsigned)pin))
				return false;
			if (o->pre)
				put_sfu(&S->ex[epre], (unsigned)mp, o->pre, j);
			put_sfu(&S->ex[es], (unsigned)ms, o->sfu, j);
			tfp_packet_add(S, &S->ex[ein].p[pin], &cin);
			if (inp) {
				int32_t hold = -1;
				return tfp_set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(es, (unsigned)ms), lo, hi, S->cur,
				                   &hold);
			}
			tfp_packet_add(S, &S->ex[es].p[pout], &cout);
			S->val[o->dst[0]].def_t = tfp_t_alu(es, (unsigned)pout);
			return tfp_ilist_add(&S->fixed[X], lo, hi);
		}
	}
	return false;
}

static void note_use(tfp_sched *S, const tfp_opnd *o, int32_t t)
{
	if (o->kind == TO_VAL && S->val[o->v].last_t < t)
		S->val[o->v].last_t = t;
}

static bool allocate(tfp_sched *S, const tfp_prog *p, ir_error *e)
{
	for (unsigned x = 0; x < TFP_MAX_EXEC; x++)
		for (unsigned q = 0; q < 3; q++)
			for (unsigned k = 0; k < S->ex[x].p[q].n; k++)
				for (unsigned j = 0; j < 3; j++)
					note_use(S, &S->ex[x].p[q].slot[k].s[j], tfp_t_alu(x, q));
	/* values by definition time */
	uint32_t *order = malloc((p->nval + 1) * sizeof *order);
	if (!order)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "out of memory");
	size_t n = 0;
	for (uint32_t v = 0; v < p->nval; v++)
		if (S->val[v].def_t >= 0)
			order[n++] = v;
	for (size_t i = 1; i < n; i++) {          /* insertion sort: stable, small n */
		uint32_t v = order[i];
		size_t j = i;
		while (j > 0 && S->val[order[j - 1]].def_t > S->val[v].def_t) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	const unsigned nrow = 4 * S->rows;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		tfp_value *v = &S->val[order[i]];
		int32_t lo = tfp_hold_lo(v->def_t), hi = v->last_t > v->def_t ? tfp_hold_hi(v->last_t) : lo;
		int reg = -1;
		for (unsigned r = 0; r < nrow + 8 && reg < 0; r++) {
			unsigned R = r < nrow ? r : 16 + (r - nrow);
			if (R < 16 && !tfp_fixed_free(S, R, lo, hi))
				continue;
			if (ilist_free_over(&S->busy[R], lo, hi))
				reg = (int)R;
		}
		if (reg < 0 || !tfp_ilist_add(&S->busy[reg], lo, hi))
			ok = false;
		v->reg = (int16_t)reg;
	}
	free(order);
	if (!ok)
		return ir_refuse(e, IR_REFUSE_REGISTERS, p->file, 1, 1,
		                 "more live values than the %u row registers and g0..g7 hold",
		                 4 * S->rows);
	return true;
}

void tfp_sched_free(tfp_sched *S)
{
	for (unsigned r = 0; r < 16; r++)
		free(S->fixed[r].v);
	for (unsigned r = 0; r < TFP_NREGS; r++)
		free(S->busy[r].v);
	free(S->val);
	free(S->up);
	free(S->blocked);
	free(S->uses);
	memset(S, 0, sizeof *S);
}

bool tegra_schedule(const tfp_prog *p, unsigned rows, int32_t window, const uint8_t *copy, tfp_sched *S,
                    ir_error *e)
{
	memset(S, 0, sizeof *S);
	S->rows = rows;
	S->window = window;
	S->copy = copy;
	S->conflict = -1;
	S->val = malloc((p->nval + 1) * sizeof *S->val);
	S->up = calloc(1, sizeof *S->up);
	S->blocked = calloc(p->n + 1, 1);
	if (!S->val || !S->up || !S->blocked)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "out of memory");
	S->up->free = p->ufree;
	for (uint32_t v = 0; v <= p->nval; v++)
		S->val[v] = (tfp_value){ .def_t = -1, .last_t = -1, .reg = -1, .fix = -1, .hold = -1, .owner = -1 };
	/* values nothing reads: TEX channels are skipped (-2) */
	S->uses = calloc(p->nval + 1, sizeof *S->uses);
	if (!S->uses)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "out of memory");
	for (size_t i = 0; i < p->n; i++)
		for (unsigned k = 0; k < 3; k++)
			if (p->op[i].live && p->op[i].s[k].kind == TO_VAL)
				S->uses[p->op[i].s[k].v]++;
	for (unsigned c = 0; c < 4; c++)
		if (p->out[c].kind == TO_VAL)
			S->uses[p->out[c].v]++;
	if (p->has_kill && p->kill.kind == TO_VAL)
		S->uses[p->kill.v]++;
	for (size_t i = 0; i < p->n; i++)
		if (p->op[i].kind == TF_TEX || p->op[i].kind == TF_FETCH)
			for (unsigned c = 0; c < 4; c++)
				if (p->op[i].dst[c] >= 0 && !S->uses[p->op[i].dst[c]])
					S->val[p->op[i].dst[c]].def_t = -2;
	if (p->any_ipl) {
		S->ex[0].nm = 1;
		S->ex[0].m[0].setup = true;
		S->ex[0].m[0].sfu_used = true;
	}
	for (size_t i = 0; i < p->n; i++) {
		const tfp_op *o = &p->op[i];
		if (!o->live)
			continue;
		bool ok;
		S->cur = (int32_t)i;
		switch (o->kind) {
		case TF_ALU: ok = place_alu(S, o); break;
		case TF_IPL: ok = place_ipl(S, o); break;
		case TF_SFU: ok = place_sfu(S, o); break;
		case TF_FETCH: ok = tfp_place_fetch(S, o); break;
		default: ok = tfp_place_tex(S, o); break;
		}
		for (unsigned k = 0; ok && k < 4; k++)
			if (o->dst[k] >= 0 && S->val[o->dst[k]].def_t > S->frontier)
				S->frontier = S->val[o->dst[k]].def_t;
		if (!ok && S->conflict >= 0)
			return ir_refuse(e, IR_REFUSE_LIMITS, p->file, o->line ? o->line : 1, o->col ? o->col : 1,
			                 "cannot read an in-place result here");
		if (!ok)
			return ir_refuse(e, IR_REFUSE_LIMITS, p->file, o->line ? o->line : 1, o->col ? o->col : 1,
			                 "does not fit in %d EXECs (%d MFU instructions, %d ALU packets)",
			                 TFP_MAX_EXEC, TFP_MAX_MFU, TFP_MAX_PACKETS);
	}
	for (uint32_t v = 0; v < p->nval; v++)
		if (S->val[v].def_t == -2)
			S->val[v].def_t = -1;
	if (!tfp_place_final(S, p))
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, S->conflict >= 0 ? "the colour store cannot "
		                 "read an in-place result" : "the colour store does not fit in %d EXECs", TFP_MAX_EXEC);
	tfp_rewrite_inplace(S, p->nval);
	tfp_fold_store_copies(S);
	tfp_fuse_store(S);
	if (S->up->overflow)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "the embedded constants of two packets "
		                 "need more FP_CONST words than are free");
	/* extent and totals */
	S->nexec = 0;
	for (unsigned x = 0; x < TFP_MAX_EXEC; x++) {
		const tfp_exec *ex = &S->ex[x];
		bool any = ex->nm || ex->tex || ex->dw || ex->fetch;
		unsigned np = 0;
		for (unsigned q = 0; q < 3; q++)
			if (ex->p[q].n)
				np = q + 1;
		for (unsigned q = 0; q < np; q++)
			S->slots += ex->p[q].n;
		S->packets += np;
		S->minsts += ex->nm;
		if (any || np)
			S->nexec = x + 1;
	}
	if (S->nexec >= TFP_MAX_EXEC)   /* FP_PSEQ_ENGINE_INST's EXEC_COUNT has 6 bits (isa/tegra/gr3d_regs.def) */
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "needs %u EXECs, FP_PSEQ_ENGINE_INST counts at "
		                 "most %d", S->nexec, TFP_MAX_EXEC - 1);
	if (S->packets > TFP_MAX_PACKETS)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "needs %u ALU packets, the "
		                 "program holds %d", S->packets, TFP_MAX_PACKETS);
	return allocate(S, p, e);
}
