/* Tegra fragment backend, step 2b: what follows the placement of
 * tegra_sched.c (tegra_int.h).
 *
 * - In-place reads: an ipl, SFU, TEX or PSEQ result the ALU reads from the
 *   row register the unit wrote (no copy out) becomes a row-register operand.
 * - The colour store: its pack reads the row copies themselves (fold) or
 *   takes over the write of the last operation (fuse).
 * - The choice between schedules: with results read in place (a result
 *   copied out only where a reader cannot reach it) or all copied, the one
 *   that runs in the fewest cycles (one per ALU packet, at least one per
 *   EXEC: tegra-fp.md §2.4 "a count of 0 means NOP, still 1 clock"). */
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_sched.h"

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

/* The write of colour channel c into the DW pair's FX10 half (o0: r, g;
 * o1: b, a), saturated as a UNORM target clamps. */
static tfp_slot color_write(const tfp_prog *p, unsigned c, unsigned o0, unsigned o1)
{
	tfp_slot w = tfp_copy_slot(p->out[c]);
	w.sat = true;
	w.dkind = TD_FIX;
	w.d = (int32_t)(c < 2 ? o0 : o1);
	w.dhalf = c & 1 ? TO_HIGH : TO_LOW;
	return w;
}

/* The write of the kill flag. */
static tfp_slot kill_write(const tfp_prog *p)
{
	tfp_slot w = tfp_copy_slot(p->kill);
	w.dkind = TD_KILL;
	return w;
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
	const unsigned o0 = tfp_row_reg(S, (unsigned)e, 2), o1 = tfp_row_reg(S, (unsigned)e, 3);
	tfp_exec x = S->ex[e];
	tfp_slot w[5];
	unsigned n = 0;
	int32_t t = p->has_kill ? tfp_ready(S, &p->kill) : 0;
	for (unsigned c = 0; c < 4; c++)
		if (!d[c]) {
			w[n++] = color_write(p, c, o0, o1);
		}
	if (p->has_kill) {
		w[n++] = kill_write(p);
	}
	for (unsigned k = 0; k < n; k++) {
		int q = -1;
		for (unsigned j = 0; j < 3 && q < 0; j++)
			if ((w[k].dkind == TD_FIX || tfp_t_alu((unsigned)e, j) >= t) && tfp_alu_sees_slot(S, &w[k], (unsigned)e) &&
			    tfp_packet_fits(S, &x.p[j], &w[k]))
				q = (int)j;
		if (q < 0)
			return false;
		tfp_packet_add(S, &x.p[q], &w[k]);
		if (w[k].dkind == TD_FIX && (unsigned)q < qmin)
			qmin = (unsigned)q;
	}
	const int32_t lo = tfp_hold_lo(tfp_t_alu((unsigned)e, qmin)), hi = tfp_hold_hi(tfp_t_dw((unsigned)e));
	if (!tfp_fixed_free(S, o0, lo, hi) || !tfp_fixed_free(S, o1, lo, hi))
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
	return tfp_ilist_add(&S->fixed[o0], lo, hi) && tfp_ilist_add(&S->fixed[o1], lo, hi);
}

/* The colour (FX10 halves of the DW pair, saturated as a UNORM target
 * clamps), the kill write and the store, in one EXEC: a kill acts on the
 * store of its own EXEC (tegra.alu.kill_this_exec). */
static bool place_final_copies(tfp_sched *S, const tfp_prog *p, bool color)
{
	int32_t t = 0;
	for (unsigned c = 0; c < 4; c++) {
		int32_t r = tfp_ready(S, &p->out[c]);
		t = r > t ? r : t;
	}
	if (p->has_kill) {
		int32_t r = tfp_ready(S, &p->kill);
		t = r > t ? r : t;
	}
	for (unsigned e = (unsigned)(t / 8); e < TFP_MAX_EXEC; e++) {
		unsigned o0 = tfp_row_reg(S, e, 2), o1 = tfp_row_reg(S, e, 3);
		tfp_exec x = S->ex[e];
		bool ok = true;
		tfp_slot w[5];
		unsigned n = 0, q_of[5], qmin = 2;
		if (color) {
			for (unsigned c = 0; c < 4; c++) {
				w[n++] = color_write(p, c, o0, o1);
			}
		}
		if (p->has_kill) {
			w[n++] = kill_write(p);
		}
		for (unsigned k = 0; k < n && ok; k++) {
			int q = -1;
			for (unsigned j = 0; j < 3 && q < 0; j++)
				if (tfp_t_alu(e, j) >= t && tfp_alu_sees_slot(S, &w[k], e) && tfp_packet_fits(S, &x.p[j], &w[k]))
					q = (int)j;
			if (q < 0) {
				ok = false;
			} else {
				tfp_packet_add(S, &x.p[q], &w[k]);
				q_of[k] = (unsigned)q;
				if (w[k].dkind == TD_FIX && (unsigned)q < qmin)
					qmin = (unsigned)q;
			}
		}
		/* the DW pair is held from the first colour write to the store */
		int32_t lo = tfp_hold_lo(tfp_t_alu(e, qmin)), hi = tfp_hold_hi(tfp_t_dw(e));
		if (!ok || (color && (!tfp_fixed_free(S, o0, lo, hi) || !tfp_fixed_free(S, o1, lo, hi))))
			continue;
		for (unsigned k = 0; k < n; k++)
			for (unsigned j = 0; j < 3; j++) {
				const tfp_opnd *r = &w[k].s[j];
				if (!tfp_reach(S, r, e, tfp_t_alu(e, q_of[k]), true))
					return false;
				if (color && r->kind == TO_VAL && S->val[r->v].fix >= 0 && q_of[k] > qmin &&
				    ((unsigned)S->val[r->v].fix == o0 || (unsigned)S->val[r->v].fix == o1)) {
					S->conflict = S->val[r->v].owner;   /* overwritten by an earlier colour write */
					return false;
				}
			}
		for (unsigned k = 0; k < n; k++)
			for (unsigned j = 0; j < 3; j++)
				tfp_extend(S, &w[k].s[j], tfp_t_alu(e, q_of[k]));
		x.dw = color;
		S->ex[e] = x;
		S->dw_exec = e;
		return !color || (tfp_ilist_add(&S->fixed[o0], lo, hi) && tfp_ilist_add(&S->fixed[o1], lo, hi));
	}
	return false;
}

bool tfp_place_final(tfp_sched *S, const tfp_prog *p)
{
	return (p->has_color && S->copy && place_final_fused(S, p)) || place_final_copies(S, p, p->has_color);
}

void tfp_rewrite_inplace(tfp_sched *S, uint32_t nval)
{
	for (unsigned x = 0; x < TFP_MAX_EXEC; x++)
		for (unsigned q = 0; q < 3; q++)
			for (unsigned k = 0; k < S->ex[x].p[q].n; k++)
				for (unsigned j = 0; j < 3; j++) {
					tfp_opnd *o = &S->ex[x].p[q].slot[k].s[j];
					if (o->kind != TO_VAL || S->val[o->v].fix < 0)
						continue;
					const tfp_value *v = &S->val[o->v];
					o->kind = TO_FIX;
					o->half = v->half;
					o->v = v->fix;
				}
	for (uint32_t v = 0; v < nval; v++)
		if (S->val[v].fix >= 0)
			S->val[v].def_t = -1;   /* nothing to allocate */
}

static bool is_copy_of(const tfp_slot *s)
{
	const tfp_opnd *b = &s->s[1], *c = &s->s[2];
	return s->alu == TA_MAD && s->cc == TC_NONE && b->kind == TO_IMM && b->k == 1.0f && tfp_plain(b) &&
	       c->kind == TO_IMM && c->k == 0.0f && tfp_plain(c);
}

/* How many slot operands read value v. */
static unsigned readers(const tfp_sched *S, int32_t v)
{
	unsigned n = 0;
	for (unsigned x = 0; x < TFP_MAX_EXEC; x++)
		for (unsigned q = 0; q < 3; q++)
			for (unsigned k = 0; k < S->ex[x].p[q].n; k++)
				for (unsigned i = 0; i < 3; i++) {
					const tfp_opnd *o = &S->ex[x].p[q].slot[k].s[i];
					n += o->kind == TO_VAL && o->v == v;
				}
	return n;
}

/* The colour store reading the copies out of the row registers: when the DW
 * EXEC's first packet only copies interpolated FP20 values out of the row
 * (place_ipl) and its second only packs those copies (or constants) into
 * the store's halves, the pack reads the row registers itself and the copy
 * packet goes: one ALU packet for a passed-through colour, as a
 * hand-written grate program has it (traces/samples/triangle.fs.asm,
 * docs/calibration.md).  All four slots of a packet read before any
 * writes, so the pack into r2/r3 may read r2/r3. */
void tfp_fold_store_copies(tfp_sched *S)
{
	if (S->rows != 1)
		return;
	const unsigned e = S->dw_exec;
	tfp_exec *x = &S->ex[e];
	if (!x->dw || x->tex || x->fetch || !x->p[0].n || !x->p[1].n || x->p[2].n || x->p[0].nimm)
		return;
	const tfp_packet *c = &x->p[0];
	for (unsigned k = 0; k < c->n; k++) {
		const tfp_slot *s = &c->slot[k];
		if (!is_copy_of(s) || s->sat || s->dkind != TD_VAL || s->s[0].kind != TO_FIX ||
		    s->s[0].half != TO_FP20 || !tfp_plain(&s->s[0]))
			return;
	}
	tfp_packet w = x->p[1];
	for (unsigned k = 0; k < w.n; k++) {
		tfp_slot *s = &w.slot[k];
		if (s->dkind != TD_FIX || !is_copy_of(s) || !s->sat)
			return;
		if (s->s[0].kind != TO_VAL)
			continue;
		if (!tfp_plain(&s->s[0]))
			return;
		int src = -1;
		for (unsigned j = 0; j < c->n; j++)
			if (c->slot[j].d == s->s[0].v)
				src = (int)j;
		if (src < 0)
			return;
		s->s[0] = c->slot[src].s[0];
	}
	/* the copies must have no reader but the pack */
	for (unsigned j = 0; j < c->n; j++) {
		unsigned in_pack = 0;
		for (unsigned k = 0; k < x->p[1].n; k++)
			for (unsigned i = 0; i < 3; i++)
				in_pack += x->p[1].slot[k].s[i].kind == TO_VAL && x->p[1].slot[k].s[i].v == c->slot[j].d;
		if (readers(S, c->slot[j].d) != in_pack)
			return;
	}
	for (unsigned j = 0; j < c->n; j++)
		S->val[c->slot[j].d].def_t = -1;
	x->p[0] = w;
	memset(&x->p[1], 0, sizeof x->p[1]);
}

/* The colour write fused with the operation that computes it: when a
 * store half only copies (saturated) a value an earlier packet of the DW
 * EXEC computed and nothing else reads, that operation writes the FX10
 * half itself, saturated (an ALU result written to an FX10 half is
 * converted from the ALU's result, tegra-fp.md §7 "conversion model"; one
 * FP20 rounding fewer).  The DW register is then held from that packet on,
 * so nothing else may hold it in between.  Likewise the kill flag: the
 * operation computing it writes `kill` (tegra-fp.md §2.3, register 76) in
 * the store's EXEC (tegra.alu.kill_this_exec). */
static void remove_slot(tfp_packet *pk, unsigned k)
{
	memmove(&pk->slot[k], &pk->slot[k + 1], (pk->n - k - 1) * sizeof pk->slot[0]);
	pk->n--;
}

void tfp_fuse_store(tfp_sched *S)
{
	const unsigned e = S->dw_exec;
	tfp_exec *x = &S->ex[e];
	if (!x->dw)
		return;
	for (unsigned q = 1; q < 3; q++)
		for (unsigned k = 0; k < x->p[q].n; k++) {
			tfp_slot *w = &x->p[q].slot[k];
			if (w->dkind == TD_KILL && is_copy_of(w) && w->s[0].kind == TO_VAL && tfp_plain(&w->s[0])) {
				/* the kill flag written by the operation computing it */
				unsigned qd = 0;
				tfp_slot *d = def_slot(S, e, w->s[0].v, &qd);
				if (!d || qd >= q || readers(S, w->s[0].v) != 1)
					continue;
				S->val[w->s[0].v].def_t = -1;
				d->dkind = TD_KILL;
				remove_slot(&x->p[q], k--);
				continue;
			}
			if (w->dkind != TD_FIX || !w->sat || !is_copy_of(w) || w->s[0].kind != TO_VAL || !tfp_plain(&w->s[0]))
				continue;
			const int32_t v = w->s[0].v;
			tfp_slot *d = NULL;
			unsigned qd = 0;
			for (unsigned j = 0; j < q && !d; j++)
				for (unsigned i = 0; i < x->p[j].n && !d; i++)
					if (x->p[j].slot[i].dkind == TD_VAL && x->p[j].slot[i].d == v) {
						d = &x->p[j].slot[i];
						qd = j;
					}
			if (!d || d->cc != TC_NONE || readers(S, v) != 1)
				continue;
			const unsigned X = (unsigned)w->d;
			int32_t hold = -1;
			for (size_t i = 0; i < S->fixed[X].n; i++)
				if (S->fixed[X].v[i].hi == tfp_hold_hi(tfp_t_dw(e)))
					hold = (int32_t)i;
			const int32_t lo = tfp_hold_lo(tfp_t_alu(e, qd));
			if (hold < 0 || !tfp_fixed_free_but(S, X, lo, tfp_hold_hi(tfp_t_dw(e)), hold))
				continue;
			if (S->fixed[X].v[hold].lo > lo)
				S->fixed[X].v[hold].lo = lo;
			d->dkind = TD_FIX;
			d->d = w->d;
			d->dhalf = w->dhalf;
			d->sat = true;
			S->val[v].def_t = -1;
			remove_slot(&x->p[q], k--);
		}
}

unsigned tfp_sched_cycles(const tfp_sched *S)
{
	unsigned c = 0;
	for (unsigned x = 0; x < S->nexec; x++) {
		unsigned np = 0;
		for (unsigned q = 0; q < 3; q++)
			if (S->ex[x].p[q].n)
				np = q + 1;
		c += np ? np : 1;
	}
	return c;
}

/* a runs faster than b (then fewer packets, then fewer slots). */
static bool better(const tfp_sched *a, const tfp_sched *b)
{
	unsigned ca = tfp_sched_cycles(a), cb = tfp_sched_cycles(b);
	if (ca != cb)
		return ca < cb;
	if (a->packets != b->packets)
		return a->packets < b->packets;
	return a->slots < b->slots;
}

/* Schedules with the results of the ops in copy copied out, the others
 * read in place; an op whose in-place result a reader cannot reach joins
 * copy and the placement starts again. */
static bool try_copy(const tfp_prog *p, unsigned rows, int32_t window, uint8_t *copy, tfp_sched *T)
{
	for (size_t i = 0; i <= p->n; i++) {
		ir_error e2;
		memset(&e2, 0, sizeof e2);
		ulp_diag_clear(&e2.d);
		if (tegra_schedule(p, rows, window, copy, T, &e2))
			return true;
		const int32_t c = T->conflict;
		tfp_sched_free(T);
		if (c < 0 || copy[c])
			return false;
		copy[c] = 1;
	}
	return false;
}

enum { SEARCH_ROUNDS = 6, SEARCH_CANDIDATES = 16 };

static bool producer(const tfp_op *o)
{
	return o->live && (o->kind == TF_IPL || o->kind == TF_SFU || o->kind == TF_TEX || o->kind == TF_FETCH);
}

/* Hill-climbing from copy (schedule *cur): flipping one op's choice (set,
 * its results copied; clear, read in place) among the candidates, kept
 * while the program gets shorter. */
static void climb(const tfp_prog *p, unsigned rows, int32_t window, uint8_t *copy, tfp_sched *cur, bool set)
{
	uint8_t *trial = malloc(p->n + 1), *pick = malloc(p->n + 1);
	for (unsigned round = 0; trial && pick && round < SEARCH_ROUNDS; round++) {
		bool found = false;
		tfp_sched best, U;
		unsigned tried = 0;
		for (size_t i = 0; i < p->n && tried < SEARCH_CANDIDATES; i++) {
			/* set: an op whose in-place hold moved another placement,
			 * copying may free the register; clear: any copied producer */
			if (set ? !cur->blocked[i] || copy[i] : !producer(&p->op[i]) || !copy[i])
				continue;
			tried++;
			memcpy(trial, copy, p->n + 1);
			trial[i] = set;
			if (!try_copy(p, rows, window, trial, &U))
				continue;
			if (better(&U, found ? &best : cur)) {
				if (found)
					tfp_sched_free(&best);
				best = U;
				memcpy(pick, trial, p->n + 1);
				found = true;
			} else {
				tfp_sched_free(&U);
			}
		}
		if (!found)
			break;
		tfp_sched_free(cur);
		*cur = best;
		memcpy(copy, pick, p->n + 1);
	}
	free(trial);
	free(pick);
}

bool tegra_schedule_best(const tfp_prog *p, unsigned rows, int32_t window, tfp_sched *S, ir_error *e)
{
	bool ok = tegra_schedule(p, rows, window, NULL, S, e);
	uint8_t *copy = calloc(p->n + 1, 1);
	tfp_sched cur;
	bool have = copy && try_copy(p, rows, window, copy, &cur);
	if (have) {
		climb(p, rows, window, copy, &cur, true);
	} else if (ok && copy) {
		/* all in place does not allocate: from all copied, read in place
		 * one producer's results at a time */
		memset(copy, 1, p->n + 1);
		have = try_copy(p, rows, window, copy, &cur);
		if (have)
			climb(p, rows, window, copy, &cur, false);
	}
	free(copy);
	if (!have)
		return ok;
	if (ok && !better(&cur, S)) {
		tfp_sched_free(&cur);
		return true;
	}
	tfp_sched_free(S);   /* the all-copied schedule: longer, or failed */
	*S = cur;
	S->copy = NULL;
	return true;
}
