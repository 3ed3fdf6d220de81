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
 * that cross them travel through fixed row registers: an ALU copy into the
 * row before an SFU op or a TEX, an ALU copy out of it after an ipl, SFU op
 * or TEX in the same EXEC.  Those fixed holds are intervals on the row
 * registers; every other value is an interval allocated afterwards by a
 * greedy scan around them (r registers first, then g0..g7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_int.h"
#include "isa/fp20.h"
#include "isa/tegra/tegra_isa.h"


static bool ilist_add(tfp_ilist *l, int32_t lo, int32_t hi)
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
static int32_t hold_add(tfp_sched *S, unsigned reg, int32_t lo, int32_t hi, int32_t owner)
{
	if (!ilist_add(&S->fixed[reg], lo, hi))
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


/* Constant operand: 0 when it is #0/#1 with modifiers, else 1 and its FP20. */
static int imm_bits(float k, uint32_t *bits)
{
	if (k == 0.0f || k == 1.0f || k == -1.0f || k == 2.0f || k == -2.0f)
		return 0;
	*bits = fp20_encode(k, ULP_ROUND_NEAREST_EVEN) & FP20_MASK;
	if ((*bits & 0x7FFFFu) == 0)
		return 0;   /* rounds to zero: #0 */
	return 1;
}

static unsigned slot_imms(const tfp_slot *s, uint32_t out[3])
{
	unsigned n = 0;
	for (unsigned k = 0; k < 3; k++) {
		uint32_t b;
		if (s->s[k].kind != TO_IMM || !imm_bits(s->s[k].k, &b))
			continue;
		bool dup = false;
		for (unsigned j = 0; j < n; j++)
			dup |= out[j] == b;
		if (!dup)
			out[n++] = b;
	}
	return n;
}

/* Distinct embedded constants of packet pk with slot s added (out, n). */
static unsigned packet_imms(const tfp_packet *pk, const tfp_slot *s, uint32_t out[6])
{
	uint32_t im[3];
	unsigned n = slot_imms(s, im), total = pk->nimm;
	memcpy(out, pk->imm, sizeof pk->imm);
	for (unsigned j = 0; j < n; j++) {
		bool have = false;
		for (unsigned i = 0; i < total; i++)
			have |= out[i] == im[j];
		if (!have)
			out[total++] = im[j];
	}
	return total;
}

/* The FP_CONST slot holding bits, -1 none. */
static int upool_find(const tfp_upool *u, uint32_t bits)
{
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		if ((u->used >> k & 1u) && u->bits[k] == bits)
			return (int)k;
	return -1;
}

/* Can the n constants im move to FP_CONST (held already or free slots)? */
static bool upool_room(const tfp_upool *u, const uint32_t *im, unsigned n)
{
	unsigned need = 0;
	for (unsigned j = 0; j < n; j++)
		need += upool_find(u, im[j]) < 0;
	return need <= (unsigned)__builtin_popcount(u->free);
}

/* Can slot s join packet pk?  Embedded constants take slot 3; when that
 * leaves no room for s, the packet's constants may move to FP_CONST. */
static bool packet_fits(const tfp_sched *S, const tfp_packet *pk, const tfp_slot *s)
{
	uint32_t im[6];
	unsigned total = packet_imms(pk, s, im);
	if (total <= 3 && (unsigned)pk->n + 1 <= (total ? 3u : 4u))
		return true;
	return (unsigned)pk->n + 1 <= 4u && upool_room(S->up, im, total);
}

/* Operand o reads FP_CONST instead of an embedded constant. */
static void to_uniform(tfp_upool *u, tfp_opnd *o)
{
	uint32_t b;
	if (o->kind != TO_IMM || !imm_bits(o->k, &b))
		return;
	int k = upool_find(u, b);
	if (k < 0 && !u->free) {   /* two packets converted on one check (place_sfu) */
		u->overflow = true;
		return;
	}
	if (k < 0) {
		k = __builtin_ctz(u->free);
		u->free &= ~(1u << k);
		u->used |= 1u << k;
		u->bits[k] = b;
	}
	*o = (tfp_opnd){ .kind = TO_UNIF, .v = k, .neg = o->neg, .abs = o->abs, .m1 = o->m1, .x2 = o->x2 };
}

static void packet_add(const tfp_sched *S, tfp_packet *pk, const tfp_slot *s)
{
	uint32_t im[6];
	unsigned total = packet_imms(pk, s, im);
	pk->slot[pk->n++] = *s;
	if (total <= 3 && (unsigned)pk->n <= (total ? 3u : 4u)) {
		pk->nimm = (uint8_t)total;
		memcpy(pk->imm, im, sizeof pk->imm);
		return;
	}
	for (unsigned k = 0; k < pk->n; k++)   /* packet_fits checked the room */
		for (unsigned j = 0; j < 3; j++)
			to_uniform(S->up, &pk->slot[k].s[j]);
	pk->nimm = 0;
}

/* Earliest time an operand can be read (and not before the window: an
 * operation is not hoisted far above the ones before it, which bounds the
 * registers held). */
static int32_t ready(const tfp_sched *S, const tfp_opnd *o)
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

static bool alu_sees_slot(const tfp_sched *S, const tfp_slot *s, unsigned e)
{
	for (unsigned k = 0; k < 3; k++)
		if (!alu_sees(S, &s->s[k], e))
			return false;
	return true;
}

/* First packet of EXEC e at or after time t with room for s; -1 none. */
static int find_packet(const tfp_sched *S, unsigned e, int32_t t, const tfp_slot *s)
{
	if (!alu_sees_slot(S, s, e))
		return -1;
	for (unsigned p = 0; p < 3; p++)
		if (tfp_t_alu(e, p) >= t && packet_fits(S, &S->ex[e].p[p], s))
			return (int)p;
	return -1;
}

static unsigned row_reg(const tfp_sched *S, unsigned e, unsigned k) { return 4 * (e % S->rows) + k; }

static tfp_slot copy_slot(tfp_opnd src)
{
	tfp_slot s = { .alu = TA_MAD, .s = { src, { .kind = TO_IMM, .k = 1.0f }, { .kind = TO_IMM, .k = 0.0f } } };
	return s;
}

static tfp_opnd fixed(unsigned reg, uint8_t half)
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
static int find_minst(const tfp_sched *S, unsigned e, unsigned c)
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

static bool fixed_free(const tfp_sched *S, unsigned reg, int32_t lo, int32_t hi)
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
static bool inplace(const tfp_sched *S, int32_t op)
{
	return S->copy && !S->copy[op];
}

static bool set_inplace(tfp_sched *S, int32_t v, unsigned reg, uint8_t half, bool same_exec, int32_t def_t,
                        int32_t lo, int32_t hi, int32_t owner, int32_t *hold)
{
	if (*hold < 0 && (*hold = hold_add(S, reg, lo, hi, owner)) < 0)
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
static bool reach(tfp_sched *S, const tfp_opnd *o, unsigned e, int32_t t, bool alu)
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

static void extend(tfp_sched *S, const tfp_opnd *o, int32_t t)
{
	if (o->kind != TO_VAL || S->val[o->v].fix < 0)
		return;
	tfp_ival *iv = &S->fixed[S->val[o->v].fix].v[S->val[o->v].hold];
	if (iv->hi < tfp_hold_hi(t))
		iv->hi = tfp_hold_hi(t);
}

/* Every operand of slot s, read at packet p of EXEC e, reaches its value;
 * then their holds reach the read. */
static bool reach_slot(tfp_sched *S, const tfp_slot *s, unsigned e, unsigned p)
{
	for (unsigned k = 0; k < 3; k++)
		if (!reach(S, &s->s[k], e, tfp_t_alu(e, p), true))
			return false;
	for (unsigned k = 0; k < 3; k++)
		extend(S, &s->s[k], tfp_t_alu(e, p));
	return true;
}

static bool place_alu(tfp_sched *S, const tfp_op *o)
{
	tfp_slot s = { .alu = o->alu, .cc = o->cc, .sat = o->sat, .dkind = TD_VAL, .d = o->dst[0] };
	memcpy(s.s, o->s, sizeof s.s);
	int32_t t = 0;
	for (unsigned k = 0; k < 3; k++) {
		int32_t r = ready(S, &o->s[k]);
		t = r > t ? r : t;
	}
	for (unsigned e = (unsigned)(t / 8); e < TFP_MAX_EXEC; e++) {
		int p = find_packet(S, e, t, &s);
		if (p < 0)
			continue;
		if (!reach_slot(S, &s, e, (unsigned)p))
			return false;
		packet_add(S, &S->ex[e].p[p], &s);
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
	*s = copy_slot(fixed(X, TO_FP20));
	s->dkind = TD_VAL;
	s->d = o->dst[0];
	int p = find_packet(S, e, tfp_t_alu(e, 0), s);
	return p >= 0 && fixed_free(S, X, tfp_hold_lo(tfp_t_mfu(e, 0)), tfp_hold_hi(tfp_t_alu(e, (unsigned)p))) ? p : -1;
}

/* Places the copy find_copy_out found (MFU instruction m of EXEC e is in use). */
static bool add_copy_out(tfp_sched *S, const tfp_op *o, unsigned e, int m, unsigned X, int p,
                         const tfp_slot *s)
{
	tfp_exec *x = &S->ex[e];
	if ((unsigned)m == x->nm)
		x->nm++;
	packet_add(S, &x->p[p], s);
	S->val[o->dst[0]].def_t = tfp_t_alu(e, (unsigned)p);
	return ilist_add(&S->fixed[X], tfp_hold_lo(tfp_t_mfu(e, 0)), tfp_hold_hi(tfp_t_alu(e, (unsigned)p)));
}

static bool place_wpos(tfp_sched *S, const tfp_op *o)
{
	for (unsigned e = 0; e < TFP_MAX_EXEC; e++) {
		int m = find_minst(S, e, 4);
		if (m < 0)
			continue;
		tfp_exec *x = &S->ex[e];
		for (unsigned c = 0; c < 4; c++) {
			if ((unsigned)m < x->nm && (x->m[m].var_mask & (1u << c)))
				continue;
			unsigned X = row_reg(S, e, c);
			tfp_slot s;
			const int32_t lo = tfp_hold_lo(tfp_t_mfu(e, 0));
			int32_t hold = -1;
			if (inplace(S, S->cur) ? !fixed_free(S, X, lo, tfp_hold_hi(tfp_t_alu(e, 0))) : find_copy_out(S, o, e, X, &s) < 0)
				continue;
			x->m[m].sfu_used = true;
			x->m[m].sfu_op = TEGRA_SFU_NOP;
			x->m[m].sfu_reg = 4;
			x->m[m].wread = true;
			x->m[m].wdst = (uint8_t)c;
			if (inplace(S, S->cur)) {
				if ((unsigned)m == x->nm)
					x->nm++;
				return set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(e, (unsigned)m), lo,
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
		int m = find_minst(S, e, c);
		if (m < 0)
			continue;
		unsigned X = row_reg(S, e, c);
		tfp_slot s;
		const int32_t lo = tfp_hold_lo(tfp_t_mfu(e, 0));
		const int32_t hi = tfp_hold_hi(tfp_t_alu(e, 0));   /* an in-place value lives to the ALU at least */
		int p = inplace(S, S->cur) ? (fixed_free(S, X, lo, hi) ? 0 : -1) : find_copy_out(S, o, e, X, &s);
		if (p < 0)
			continue;
		S->ex[e].m[m].var_mask |= (uint8_t)(1u << c);
		S->ex[e].m[m].var_row[c] = o->tram_row;
		if (inplace(S, S->cur)) {
			int32_t hold = -1;
			if ((unsigned)m == S->ex[e].nm)
				S->ex[e].nm++;
			return set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(e, (unsigned)m), lo, hi, S->cur, &hold);
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
static tfp_slot *retarget(tfp_sched *S, const tfp_opnd *o, unsigned *ed)
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

static void retarget_to(tfp_sched *S, tfp_slot *d, unsigned reg)
{
	S->val[d->d].def_t = -1;
	d->dkind = TD_FIX;
	d->dhalf = TO_FP20;
	d->d = (int32_t)reg;
}

static bool place_sfu(tfp_sched *S, const tfp_op *o)
{
	const unsigned R = S->rows;
	const unsigned back = o->pre ? R + 1 : 1;   /* PRE step in an earlier EXEC of the same row */
	int32_t t = ready(S, &o->s[0]);
	unsigned ed = 0;
	tfp_slot *rt = retarget(S, &o->s[0], &ed);
	for (unsigned es = rt ? 1 : back; es < TFP_MAX_EXEC; es++) {
		unsigned ein = es >= back ? es - back : 0, epre = es >= R ? es - R : 0;
		if (rt ? (o->pre ? es < R || epre <= ed : es <= ed) : tfp_t_alu(ein, 2) < t)
			continue;
		int ms = find_minst(S, es, 4);
		if (ms < 0)
			continue;
		int mp = -1;
		if (o->pre && (mp = find_minst(S, epre, 4)) < 0)
			continue;
		for (unsigned j = 0; j < 4 && rt; j++) {   /* the operand written into the row register */
			unsigned X = row_reg(S, es, j);
			const bool inp = inplace(S, S->cur);
			tfp_slot cout = copy_slot(fixed(X, TO_FP20));
			cout.dkind = TD_VAL;
			cout.d = o->dst[0];
			int pout = inp ? 0 : find_packet(S, es, tfp_t_alu(es, 0), &cout);
			const int32_t lo = tfp_hold_lo(S->val[o->s[0].v].def_t), hi = tfp_hold_hi(tfp_t_alu(es, (unsigned)pout));
			if (pout < 0 || !fixed_free(S, X, lo, hi))
				continue;
			if (o->pre) {
				tfp_exec *x = &S->ex[epre];
				if ((unsigned)mp == x->nm)
					x->nm++;
				x->m[mp].sfu_used = true;
				x->m[mp].sfu_op = o->pre;
				x->m[mp].sfu_reg = (uint8_t)j;
			}
			tfp_exec *x = &S->ex[es];
			if ((unsigned)ms == x->nm)
				x->nm++;
			x->m[ms].sfu_used = true;
			x->m[ms].sfu_op = o->sfu;
			x->m[ms].sfu_reg = (uint8_t)j;
			retarget_to(S, rt, X);
			int32_t hold = -1;
			if (inp)
				return set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(es, (unsigned)ms), lo, hi, S->cur,
				                   &hold);
			packet_add(S, &x->p[pout], &cout);
			S->val[o->dst[0]].def_t = tfp_t_alu(es, (unsigned)pout);
			return ilist_add(&S->fixed[X], lo, hi);
		}
		if (rt && (es < back || tfp_t_alu(ein, 2) < t))
			continue;
		for (unsigned j = 0; j < 4; j++) {
			unsigned X = row_reg(S, es, j);
			tfp_slot cin = copy_slot(o->s[0]);
			cin.dkind = TD_FIX;
			cin.d = (int32_t)X;
			tfp_slot cout = copy_slot(fixed(X, TO_FP20));
			cout.dkind = TD_VAL;
			cout.d = o->dst[0];
			const bool inp = inplace(S, S->cur);
			int pin = find_packet(S, ein, t, &cin);
			int pout = inp ? 0 : find_packet(S, es, tfp_t_alu(es, 0), &cout);
			if (pin < 0 || pout < 0)
				break;
			int32_t lo = tfp_hold_lo(tfp_t_alu(ein, (unsigned)pin)), hi = tfp_hold_hi(tfp_t_alu(es, (unsigned)pout));
			if (inp)
				hi = tfp_hold_hi(tfp_t_alu(es, 0));
			if (!fixed_free(S, X, lo, hi))
				continue;
			if (!reach_slot(S, &cin, ein, (unsigned)pin))
				return false;
			if (o->pre) {
				tfp_exec *x = &S->ex[epre];
				if ((unsigned)mp == x->nm)
					x->nm++;
				x->m[mp].sfu_used = true;
				x->m[mp].sfu_op = o->pre;
				x->m[mp].sfu_reg = (uint8_t)j;
			}
			tfp_exec *x = &S->ex[es];
			if ((unsigned)ms == x->nm)
				x->nm++;
			x->m[ms].sfu_used = true;
			x->m[ms].sfu_op = o->sfu;
			x->m[ms].sfu_reg = (uint8_t)j;
			packet_add(S, &S->ex[ein].p[pin], &cin);
			if (inp) {
				int32_t hold = -1;
				return set_inplace(S, o->dst[0], X, TO_FP20, false, tfp_t_mfu(es, (unsigned)ms), lo, hi, S->cur,
				                   &hold);
			}
			packet_add(S, &x->p[pout], &cout);
			S->val[o->dst[0]].def_t = tfp_t_alu(es, (unsigned)pout);
			return ilist_add(&S->fixed[X], lo, hi);
		}
	}
	return false;
}

/* ALU copies, in the packets of EXEC e (trial copy b), of the four FX10
 * halves a TEX or the destination fetch left in d0 (R, G) and d1 (B, A)
 * into the op's values; out_t gets each copy's time, *last the latest.
 * False when the packets have no room. */
static bool copy_out(const tfp_sched *S, const tfp_op *o, tfp_exec *b, unsigned e, unsigned d0,
                     unsigned d1, int32_t out_t[4], int32_t *last)
{
	for (unsigned ch = 0; ch < 4; ch++) {
		if (o->dst[ch] < 0 || !o->live || S->val[o->dst[ch]].def_t == -2)   /* dead channel */
			continue;
		tfp_slot cout = copy_slot(fixed(ch < 2 ? d0 : d1, ch & 1 ? TO_HIGH : TO_LOW));
		cout.dkind = TD_VAL;
		cout.d = o->dst[ch];
		int p = -1;
		for (unsigned q = 0; q < 3 && p < 0; q++)
			if (packet_fits(S, &b->p[q], &cout))
				p = (int)q;
		if (p < 0)
			return false;
		packet_add(S, &b->p[p], &cout);
		out_t[ch] = tfp_t_alu(e, (unsigned)p);
		*last = out_t[ch] > *last ? out_t[ch] : *last;
	}
	return true;
}

/* Is o an in-place FP20 value in row register reg that the TEX of EXEC et
 * can read there (no copy in)? */
static bool in_row(const tfp_sched *S, const tfp_opnd *o, unsigned reg, unsigned et)
{
	if (o->kind != TO_VAL || !tfp_plain(o) || S->val[o->v].fix != (int8_t)reg || S->val[o->v].half != TO_FP20)
		return false;
	const tfp_value *v = &S->val[o->v];
	return v->def_t < tfp_t_tex(et) &&
	       tfp_fixed_free_but(S, reg, S->fixed[reg].v[v->hold].lo, tfp_hold_hi(tfp_t_tex(et)), v->hold);
}

/* The texel's channels held in place in d0 (R, G) and d1 (B, A) from the
 * fetch of EXEC et (or PSEQ's, before it: t) on, read in that EXEC only. */
static bool texel_inplace(tfp_sched *S, const tfp_op *o, unsigned d0, unsigned d1, int32_t lo0, int32_t lo1,
                          int32_t t, int32_t t_read)
{
	int32_t h[2] = { -1, -1 };
	for (unsigned ch = 0; ch < 4; ch++)
		if (o->dst[ch] >= 0 && o->live && S->val[o->dst[ch]].def_t != -2 &&
		    !set_inplace(S, o->dst[ch], ch < 2 ? d0 : d1, ch & 1 ? TO_HIGH : TO_LOW, true, t, ch < 2 ? lo0 : lo1,
		                 tfp_hold_hi(t_read), S->cur, &h[ch / 2]))
			return false;
	/* the fetch writes both registers, read or not */
	return (h[0] >= 0 || hold_add(S, d0, lo0, tfp_hold_hi(t), S->cur) >= 0) &&
	       (h[1] >= 0 || hold_add(S, d1, lo1, tfp_hold_hi(t), S->cur) >= 0);
}

static bool place_tex(tfp_sched *S, const tfp_op *o)
{
	int32_t t = 0;
	for (unsigned k = 0; k < 3; k++) {
		int32_t r = ready(S, &o->s[k]);
		t = r > t ? r : t;
	}
	const unsigned ncoord = o->bias ? 3 : 2;
	const bool inp = inplace(S, S->cur);
	for (unsigned et = 0; et < TFP_MAX_EXEC; et++) {
		tfp_exec *x = &S->ex[et];
		unsigned creg[3] = { row_reg(S, et, 0), row_reg(S, et, 1), row_reg(S, et, 3) };
		unsigned d0 = row_reg(S, et, 2), d1 = row_reg(S, et, 3);
		/* a coordinate an interpolation left in its row register is read
		 * there; the others are copied in by the ALU of the EXEC before */
		bool here[3] = { false, false, false }, copies = false;
		tfp_slot *rt[3] = { NULL, NULL, NULL };
		for (unsigned k = 0; k < ncoord; k++) {
			unsigned ed = 0;
			here[k] = in_row(S, &o->s[k], creg[k], et);
			if (!here[k] && (rt[k] = retarget(S, &o->s[k], &ed)) &&
			    (ed >= et || !fixed_free(S, creg[k], tfp_hold_lo(S->val[o->s[k].v].def_t), tfp_hold_hi(tfp_t_tex(et)))))
				rt[k] = NULL;
			copies |= !here[k] && !rt[k];
		}
		if (x->tex || (copies ? et == 0 || tfp_t_alu(et - 1, 2) < t : tfp_t_tex(et) < t))
			continue;
		unsigned ein = copies ? et - 1 : et;
		/* rows > 1: an interpolation in this EXEC makes the TEX read this row
		 * (tegra.tex.src_row_from_mfu); a dummy ipl into r2, the R coordinate
		 * a 2D fetch ignores and the destination overwrites */
		int mdummy = -1;
		if (S->rows > 1 && (mdummy = find_minst(S, et, 2)) < 0)
			continue;
		/* try the copies on a scratch copy of the two EXECs */
		tfp_exec a = S->ex[ein], b = *x;
		bool ok = true;
		int32_t cin_t[3] = { 0, 0, 0 };
		tfp_slot cin[3];
		for (unsigned k = 0; k < ncoord && ok; k++) {
			if (here[k] || rt[k])
				continue;
			cin[k] = copy_slot(o->s[k]);
			cin[k].dkind = TD_FIX;
			cin[k].d = (int32_t)creg[k];
			int p = -1;
			for (unsigned q = 0; q < 3 && p < 0; q++)
				if (tfp_t_alu(ein, q) >= t && alu_sees_slot(S, &cin[k], ein) && packet_fits(S, &a.p[q], &cin[k]))
					p = (int)q;
			if (p < 0) {
				ok = false;
				break;
			}
			packet_add(S, &a.p[p], &cin[k]);
			cin_t[k] = tfp_t_alu(ein, (unsigned)p);
			ok = fixed_free(S, creg[k], tfp_hold_lo(cin_t[k]), tfp_hold_hi(tfp_t_tex(et)));
		}
		int32_t out_t[4] = { -1, -1, -1, -1 }, last = tfp_t_tex(et);
		if (inp)
			last = tfp_t_alu(et, 0);   /* read in place, by the ALU of this EXEC */
		ok = ok && (inp || copy_out(S, o, &b, et, d0, d1, out_t, &last));
		int32_t dlo = tfp_hold_lo(S->rows > 1 ? tfp_t_mfu(et, 0) : tfp_t_tex(et));
		if (ok)
			ok = fixed_free(S, d0, dlo, tfp_hold_hi(last)) && fixed_free(S, d1, tfp_hold_lo(tfp_t_tex(et)), tfp_hold_hi(last));
		if (!ok)
			continue;
		for (unsigned k = 0; k < ncoord; k++)
			if (!here[k] && !rt[k] && !reach(S, &cin[k].s[0], ein, cin_t[k], true))
				return false;
		for (unsigned k = 0; k < ncoord; k++)
			if (!rt[k])
				extend(S, here[k] ? &o->s[k] : &cin[k].s[0], here[k] ? tfp_t_tex(et) : cin_t[k]);
		if (mdummy >= 0) {
			if ((unsigned)mdummy == b.nm)
				b.nm++;
			b.m[mdummy].var_mask |= 1u << 2;
			b.m[mdummy].var_row[2] = 0;
		}
		b.tex = true;
		b.tex_bias = o->bias;
		b.tex_sampler = o->sampler;
		if (copies)
			S->ex[ein] = a;
		*x = b;
		for (unsigned k = 0; k < ncoord; k++) {
			if (rt[k])
				cin_t[k] = S->val[o->s[k].v].def_t;
			if (rt[k])
				retarget_to(S, rt[k], creg[k]);
			if (!here[k] && !ilist_add(&S->fixed[creg[k]], tfp_hold_lo(cin_t[k]), tfp_hold_hi(tfp_t_tex(et))))
				return false;
		}
		if (inp)
			return texel_inplace(S, o, d0, d1, dlo, tfp_hold_lo(tfp_t_tex(et)), tfp_t_tex(et), tfp_t_alu(et, 0));
		for (unsigned ch = 0; ch < 4; ch++)
			if (out_t[ch] >= 0)
				S->val[o->dst[ch]].def_t = out_t[ch];
		return ilist_add(&S->fixed[d0], dlo, tfp_hold_hi(last)) &&
		       ilist_add(&S->fixed[d1], tfp_hold_lo(tfp_t_tex(et)), tfp_hold_hi(last));
	}
	return false;
}

/* PSEQ's destination fetch (TF_FETCH): at the start of EXEC e, before its
 * MFU, PSEQ writes the pixel of render target 1 into r2, r3 of the row as
 * FX10 halves (R G, B A); ALU copies in EXEC e take the channels out. */
static bool place_fetch(tfp_sched *S, const tfp_op *o)
{
	int32_t floor_t = S->window < 0 ? 0 : S->frontier - S->window;
	unsigned e0 = floor_t > 0 ? (unsigned)(floor_t / 8) : 0;
	for (unsigned e = e0; e < TFP_MAX_EXEC; e++) {
		tfp_exec *x = &S->ex[e];
		if (x->fetch)
			continue;
		unsigned d0 = row_reg(S, e, 2), d1 = row_reg(S, e, 3);
		const int32_t tw = 8 * (int32_t)e - 1;   /* before MFU 0 of EXEC e */
		tfp_exec b = *x;
		int32_t out_t[4] = { -1, -1, -1, -1 }, last = tfp_t_mfu(e, 0);
		const bool inp = inplace(S, S->cur);
		if (inp)
			last = tfp_t_alu(e, 0);
		bool ok = inp || copy_out(S, o, &b, e, d0, d1, out_t, &last);
		if (!ok || !fixed_free(S, d0, tfp_hold_lo(tw), tfp_hold_hi(last)) || !fixed_free(S, d1, tfp_hold_lo(tw), tfp_hold_hi(last)))
			continue;
		b.fetch = true;
		*x = b;
		if (inp)
			return texel_inplace(S, o, d0, d1, tfp_hold_lo(tw), tfp_hold_lo(tw), tw, tfp_t_alu(e, 0));
		for (unsigned ch = 0; ch < 4; ch++)
			if (out_t[ch] >= 0)
				S->val[o->dst[ch]].def_t = out_t[ch];
		return ilist_add(&S->fixed[d0], tfp_hold_lo(tw), tfp_hold_hi(last)) &&
		       ilist_add(&S->fixed[d1], tfp_hold_lo(tw), tfp_hold_hi(last));
	}
	return false;
}

/* The slot of EXEC e's packets that defines value v, or NULL (*q its packet). */
static tfp_slot *def_slot(tfp_sched *S, unsigned e, int32_t v, unsigned *q)
{
	for (unsigned j = 0; j < 3; j++)
		for (unsigned k = 0; k < S->ex[e].p[j].n; k++)
			if (S->ex[e].p[j].slot[k].dkind == TD_VAL && S->ex[e].p[j].slot[k].d == v) {
				*q = j;
				return &S->ex[e].p[j].slot[k];
			}
	return NULL;
}

static bool read_by_slot(const tfp_sched *S, int32_t v)
{
	for (unsigned x = 0; x < TFP_MAX_EXEC; x++)
		for (unsigned q = 0; q < 3; q++)
			for (unsigned k = 0; k < S->ex[x].p[q].n; k++)
				for (unsigned i = 0; i < 3; i++)
					if (S->ex[x].p[q].slot[k].s[i].kind == TO_VAL && S->ex[x].p[q].slot[k].s[i].v == v)
						return true;
	return false;
}

/* The colour written by the operations that compute it (tfp_fuse_store's
 * rule, when they fill their EXEC to its last packet): each colour value
 * an ALU slot of EXEC e computes and nothing else reads is written to its
 * FX10 half by that slot, saturated; constants get their own slots. */
static bool place_final_fused(tfp_sched *S, const tfp_prog *p)
{
	int e = -1;
	tfp_slot *d[4] = { NULL, NULL, NULL, NULL };
	unsigned qd[4] = { 0, 0, 0, 0 }, qmin = 2;
	for (unsigned c = 0; c < 4; c++) {
		const tfp_opnd *o = &p->out[c];
		if (o->kind != TO_VAL)
			continue;
		const int32_t dt = S->val[o->v].def_t;
		if (!tfp_plain(o) || dt < 0 || dt % 8 < 4 || (e >= 0 && dt / 8 != e) || read_by_slot(S, o->v) ||
		    (p->has_kill && p->kill.kind == TO_VAL && p->kill.v == o->v))
			return false;
		for (unsigned j = 0; j < c; j++)
			if (p->out[j].kind == TO_VAL && p->out[j].v == o->v)
				return false;
		e = dt / 8;
		d[c] = def_slot(S, (unsigned)e, o->v, &qd[c]);
		if (!d[c] || d[c]->cc != TC_NONE)
			return false;
		qmin = qd[c] < qmin ? qd[c] : qmin;
	}
	if (e < 0)
		return false;
	const unsigned o0 = row_reg(S, (unsigned)e, 2), o1 = row_reg(S, (unsigned)e, 3);
	tfp_exec x = S->ex[e];
	tfp_slot w[5];
	unsigned n = 0;
	int32_t t = p->has_kill ? ready(S, &p->kill) : 0;
	for (unsigned c = 0; c < 4; c++)
		if (!d[c]) {
			w[n] = copy_slot(p->out[c]);
			w[n].sat = true;
			w[n].dkind = TD_FIX;
			w[n].d = (int32_t)(c < 2 ? o0 : o1);
			w[n].dhalf = c & 1 ? TO_HIGH : TO_LOW;
			n++;
		}
	if (p->has_kill) {
		w[n] = copy_slot(p->kill);
		w[n].dkind = TD_KILL;
		n++;
	}
	for (unsigned k = 0; k < n; k++) {
		int q = -1;
		for (unsigned j = 0; j < 3 && q < 0; j++)
			if ((w[k].dkind == TD_FIX || tfp_t_alu((unsigned)e, j) >= t) && alu_sees_slot(S, &w[k], (unsigned)e) &&
			    packet_fits(S, &x.p[j], &w[k]))
				q = (int)j;
		if (q < 0)
			return false;
		packet_add(S, &x.p[q], &w[k]);
		if (w[k].dkind == TD_FIX && (unsigned)q < qmin)
			qmin = (unsigned)q;
	}
	const int32_t lo = tfp_hold_lo(tfp_t_alu((unsigned)e, qmin)), hi = tfp_hold_hi(tfp_t_dw((unsigned)e));
	if (!fixed_free(S, o0, lo, hi) || !fixed_free(S, o1, lo, hi))
		return false;
	for (unsigned k = 0; k < n; k++)   /* constants and the kill flag: no in-place reads to check */
		for (unsigned j = 0; j < 3; j++)
			if (w[k].s[j].kind == TO_VAL && S->val[w[k].s[j].v].fix >= 0)
				return false;
	for (unsigned c = 0; c < 4; c++)
		if (d[c]) {
			tfp_slot *s = &x.p[qd[c]].slot[d[c] - S->ex[e].p[qd[c]].slot];
			s->dkind = TD_FIX;
			s->d = (int32_t)(c < 2 ? o0 : o1);
			s->dhalf = c & 1 ? TO_HIGH : TO_LOW;
			s->sat = true;
			S->val[p->out[c].v].def_t = -1;
		}
	x.dw = true;
	S->ex[e] = x;
	S->dw_exec = (unsigned)e;
	return ilist_add(&S->fixed[o0], lo, hi) && ilist_add(&S->fixed[o1], lo, hi);
}

/* The colour (FX10 halves of the DW pair, saturated as a UNORM target
 * clamps), the kill write and the store, in one EXEC: a kill acts on the
 * store of its own EXEC (tegra.alu.kill_this_exec). */
static bool place_final(tfp_sched *S, const tfp_prog *p, bool color)
{
	int32_t t = 0;
	for (unsigned c = 0; c < 4; c++) {
		int32_t r = ready(S, &p->out[c]);
		t = r > t ? r : t;
	}
	if (p->has_kill) {
		int32_t r = ready(S, &p->kill);
		t = r > t ? r : t;
	}
	for (unsigned e = (unsigned)(t / 8); e < TFP_MAX_EXEC; e++) {
		unsigned o0 = row_reg(S, e, 2), o1 = row_reg(S, e, 3);
		tfp_exec x = S->ex[e];
		bool ok = true;
		tfp_slot w[5];
		unsigned n = 0, q_of[5], qmin = 2;
		if (color) {
			for (unsigned c = 0; c < 4; c++) {
				w[n] = copy_slot(p->out[c]);
				w[n].sat = true;
				w[n].dkind = TD_FIX;
				w[n].d = (int32_t)(c < 2 ? o0 : o1);
				w[n].dhalf = c & 1 ? TO_HIGH : TO_LOW;
				n++;
			}
		}
		if (p->has_kill) {
			w[n] = copy_slot(p->kill);
			w[n].dkind = TD_KILL;
			n++;
		}
		for (unsigned k = 0; k < n && ok; k++) {
			int q = -1;
			for (unsigned j = 0; j < 3 && q < 0; j++)
				if (tfp_t_alu(e, j) >= t && alu_sees_slot(S, &w[k], e) && packet_fits(S, &x.p[j], &w[k]))
					q = (int)j;
			if (q < 0) {
				ok = false;
			} else {
				packet_add(S, &x.p[q], &w[k]);
				q_of[k] = (unsigned)q;
				if (w[k].dkind == TD_FIX && (unsigned)q < qmin)
					qmin = (unsigned)q;
			}
		}
		/* the DW pair is held from the first colour write to the store */
		int32_t lo = tfp_hold_lo(tfp_t_alu(e, qmin)), hi = tfp_hold_hi(tfp_t_dw(e));
		if (!ok || (color && (!fixed_free(S, o0, lo, hi) || !fixed_free(S, o1, lo, hi))))
			continue;
		for (unsigned k = 0; k < n; k++)
			for (unsigned j = 0; j < 3; j++) {
				const tfp_opnd *r = &w[k].s[j];
				if (!reach(S, r, e, tfp_t_alu(e, q_of[k]), true))
					return false;
				if (color && r->kind == TO_VAL && S->val[r->v].fix >= 0 && q_of[k] > qmin &&
				    ((unsigned)S->val[r->v].fix == o0 || (unsigned)S->val[r->v].fix == o1)) {
					S->conflict = S->val[r->v].owner;   /* overwritten by an earlier colour write */
					return false;
				}
			}
		for (unsigned k = 0; k < n; k++)
			for (unsigned j = 0; j < 3; j++)
				extend(S, &w[k].s[j], tfp_t_alu(e, q_of[k]));
		x.dw = color;
		S->ex[e] = x;
		S->dw_exec = e;
		return !color || (ilist_add(&S->fixed[o0], lo, hi) && ilist_add(&S->fixed[o1], lo, hi));
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
			if (R < 16 && !fixed_free(S, R, lo, hi))
				continue;
			if (ilist_free_over(&S->busy[R], lo, hi))
				reg = (int)R;
		}
		if (reg < 0 || !ilist_add(&S->busy[reg], lo, hi))
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
		case TF_FETCH: ok = place_fetch(S, o); break;
		default: ok = place_tex(S, o); break;
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
	if (!(p->has_color && S->copy && place_final_fused(S, p)) && !place_final(S, p, p->has_color))
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
