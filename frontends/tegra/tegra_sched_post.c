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

#include "frontends/tegra/tegra_int.h"

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
 * so nothing else may hold it in between. */
void tfp_fuse_store(tfp_sched *S)
{
	const unsigned e = S->dw_exec;
	tfp_exec *x = &S->ex[e];
	if (!x->dw)
		return;
	for (unsigned q = 1; q < 3; q++)
		for (unsigned k = 0; k < x->p[q].n; k++) {
			tfp_slot *w = &x->p[q].slot[k];
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
			tfp_packet *pk = &x->p[q];
			memmove(&pk->slot[k], &pk->slot[k + 1], (pk->n - k - 1) * sizeof pk->slot[0]);
			pk->n--;
			k--;
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
	if (ok)
		tfp_sched_free(S);
	*S = cur;
	S->copy = NULL;
	return true;
}
