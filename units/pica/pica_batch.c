/* A vertex shader over a batch of vertices (pica_batch.h).  Semantics are
 * the fast forms' (pica_fast.h), which are pica_step's: the same operand
 * reads (swizzle, negation turning -0 into +0), the same float24 helpers
 * lane for lane (isa/f24_vec.h's four-lane ADD, MUL, MAD and dot-product
 * products and sums, with AVX2 also RCP and RSQ; isa/f24.h for the rest),
 * CMP as pica_exec.c's pica_cmp_op, the jump conditions through its
 * pica_jump_go and pica_flow_go.  The plan is pica_batch_plan.c's. */
#include "units/pica/pica_batch.h"

#include <stdlib.h>
#include <string.h>

#include "units/pica/pica_fast.h"
#include "units/pica/pica_shader.h"
#include "units/pica/pica_tame.h"

enum { L = PICA_BATCH_LANES, H = PICA_BATCH_LANES / 4, FULL = (1u << L) - 1 };
#define DONE UINT32_MAX

void pica_batch_walk_start(const pica_program *p, pica_batch_walk *w)
{
	w->pc = p->entry;         /* trig and tgt are read below nif only */
	w->nif = 0;
	w->bad = false;
}

/* pica_batch_walk_next, inline in the batch's loop */
static inline bool walk_next(const pica_program *p, pica_batch_walk *w, bool go, bool *taken)
{
	const uint32_t pc = w->pc;
	const struct pica_inst *in = &p->inst[pc];
	const uint8_t exec = p->meta[pc].exec;
	uint32_t jump = DONE, to = DONE;
	if (exec == PICA_EX_JMP && go) {
		jump = in->target;
	} else if (exec == PICA_EX_IF) {
		if (!go) {
			jump = in->target;
		} else if (w->nif == PICA_IF_DEPTH) {
			w->bad = true;                     /* the ring would drop an entry */
		} else {
			w->trig[w->nif] = in->target;
			w->tgt[w->nif++] = (uint16_t)(in->target + in->num);
		}
	}
	/* pica_next_pc without LOOP and CALL entries */
	const uint32_t offered = pc + 1;
	if (w->nif && w->trig[w->nif - 1] == offered)
		to = w->tgt[--w->nif];
	if (jump != DONE && to != DONE)
		w->bad = true;                             /* pica_step reports it */
	const uint32_t next = to != DONE ? to : jump != DONE ? jump : offered;
	*taken = next != offered;
	w->pc = next;
	if (next <= pc || next >= p->ncode)
		w->bad = true;
	return !w->bad;
}

bool pica_batch_walk_next(const pica_program *p, pica_batch_walk *w, bool go, bool *taken)
{
	return walk_next(p, w, go, taken);
}

/* ---- the batch, lanes = vertices ---- */

typedef struct batch_state {
	float vr[128][L];         /* rows: v 4 * reg + comp, then r (PICA_BATCH_ROW_R) */
	float o[16][4][L];
	uint32_t cmpx, cmpy;      /* the compare flags, bit l lane l */
} batch_state;

typedef f24v_f4 lanes_t[H];

/* Component k of source s for every lane (read_src / pica_fast_rd). */
static inline void rd(const batch_state *S, const pica_uniforms *u, const pica_fast_src *s,
                      unsigned k, lanes_t out)
{
	const unsigned c = s->swz[k];
	if (s->file == PICA_FILE_C) {
		const float x = u->c[s->idx].c[c];
		for (int h = 0; h < H; h++)
			out[h] = (f24v_f4){ x, x, x, x };
	} else {
		memcpy(out, S->vr[4 * s->idx + c + (s->file == PICA_FILE_R ? PICA_BATCH_ROW_R : 0)],
		       sizeof(lanes_t));
	}
	if (s->neg)
		for (int h = 0; h < H; h++)
			out[h] = -out[h] + 0.0f;
}

/* The written components of the destination get res[k] in the active
 * lanes (each res[k] the same one: a dot product's, an SFU op's, when
 * one). */
static inline void wr_from(batch_state *S, const pica_fast_inst *fi, const lanes_t *res,
                           bool one, unsigned act)
{
	float (*d)[L] = fi->to_o ? S->o[fi->dst] : &S->vr[PICA_BATCH_ROW_R + 4 * fi->dst];
	for (unsigned k = 0; k < 4; k++) {
		if (!(fi->wmask & (1u << k)))
			continue;
		const f24v_f4 *r = res[one ? 0 : k];
		if (act == FULL) {
			memcpy(d[k], r, sizeof(lanes_t));
			continue;
		}
		for (unsigned l = 0; l < L; l++)
			if (act & (1u << l))
				d[k][l] = r[l / 4][l % 4];
	}
}

static inline void wr(batch_state *S, const pica_fast_inst *fi, lanes_t res[4], unsigned act)
{
	wr_from(S, fi, (const lanes_t *)res, false, act);
}

/* The float24 MUL and ADD on every lane: four lanes an operation, or
 * eight with AVX2 (isa/f24_vec.h; the same IEEE operations lane for lane,
 * so the results do not depend on the host). */
static inline F24V_INLINE void mul_l4(lanes_t r, const lanes_t a, const lanes_t b, uint64_t rne)
{
	for (int h = 0; h < H; h++)
		r[h] = f24v_mul4(a[h], b[h], rne);
}
static inline F24V_INLINE void add_l4(lanes_t r, const lanes_t a, const lanes_t b, uint64_t rne)
{
	for (int h = 0; h < H; h++)
		r[h] = f24v_add4(a[h], b[h], rne);
}

/* One arithmetic instruction on every lane, defined twice: NAME with
 * target ATTR and the lane operations MUL, ADD. */
#define DEFINE_RUN_FAST(NAME, ATTR, MUL, ADD) \
ATTR static void NAME(batch_state *S, const pica_fast_inst *fi, const uint16_t (*row)[4], \
                     const pica_uniforms *u, const f24_mode *fm, uint64_t rne, unsigned act, \
                     void *tame) \
{ \
	(void)row;            /* rd reads the fast form's sources */ \
	(void)tame;           /* the general forms only */ \
	lanes_t res[4], a, b, c; \
	switch (fi->kind) { \
	case PICA_FAST_NOP: \
		return; \
	case PICA_FAST_DP3: case PICA_FAST_DP4: case PICA_FAST_DPH: { \
		/* f24_dot: each product rounded, summed in component order */ \
		const unsigned nc = fi->kind == PICA_FAST_DP3 ? 3 : 4; \
		lanes_t acc; \
		for (unsigned k = 0; k < nc; k++) { \
			if (fi->kind == PICA_FAST_DPH && k == 3) \
				for (int h = 0; h < H; h++) \
					a[h] = (f24v_f4){ 1.0f, 1.0f, 1.0f, 1.0f }; \
			else \
				rd(S, u, &fi->src[0], k, a); \
			rd(S, u, &fi->src[1], k, b); \
			/* the products and sums are rounded values: the add's \
			 * flush changes nothing, so it is f24v_sum1 lane for lane */ \
			if (k) { \
				MUL(b, a, b, rne); \
				ADD(acc, acc, b, rne); \
			} else { \
				MUL(acc, a, b, rne); \
			} \
		} \
		wr_from(S, fi, (const lanes_t *)&acc, true, act); \
		return; \
	} \
	case PICA_FAST_EX2: case PICA_FAST_LG2: case PICA_FAST_RCP: case PICA_FAST_RSQ: \
		rd(S, u, &fi->src[0], 0, a); \
		for (unsigned l = 0; l < L; l++) { \
			const float x = a[l / 4][l % 4]; \
			a[l / 4][l % 4] = fi->kind == PICA_FAST_EX2 ? f24_ex2(x, fm) \
			                : fi->kind == PICA_FAST_LG2 ? f24_lg2(x, fm) \
			                : fi->kind == PICA_FAST_RCP ? f24_rcp(x, fm) : f24_rsq(x, fm); \
		} \
		wr_from(S, fi, (const lanes_t *)&a, true, act); \
		return; \
	default:                                   /* component-wise */ \
		for (unsigned k = 0; k < 4; k++) { \
			if (!(fi->wmask & (1u << k))) \
				continue; \
			rd(S, u, &fi->src[0], k, a); \
			if (fi->kind == PICA_FAST_MOV) { \
				memcpy(res[k], a, sizeof a); \
				continue; \
			} \
			if (fi->kind == PICA_FAST_FLR) { \
				for (unsigned l = 0; l < L; l++) \
					res[k][l / 4][l % 4] = f24_flr(a[l / 4][l % 4], fm); \
				continue; \
			} \
			rd(S, u, &fi->src[1], k, b); \
			switch (fi->kind) { \
			case PICA_FAST_ADD: \
				ADD(res[k], a, b, rne); \
				break; \
			case PICA_FAST_MUL: \
				MUL(res[k], a, b, rne); \
				break; \
			case PICA_FAST_MAD:    /* not fused: the product rounded first (f24_mad) */ \
				rd(S, u, &fi->src[2], k, c); \
				MUL(a, a, b, rne); \
				ADD(res[k], a, c, rne); \
				break; \
			case PICA_FAST_SGE: \
				for (int h = 0; h < H; h++) \
					res[k][h] = f24v_sge4(a[h], b[h]); \
				break; \
			case PICA_FAST_SLT: \
				for (int h = 0; h < H; h++) \
					res[k][h] = f24v_slt4(a[h], b[h]); \
				break; \
			case PICA_FAST_MAX: \
				for (int h = 0; h < H; h++) \
					res[k][h] = f24v_max4(a[h], b[h], fm); \
				break; \
			default:               /* MIN */ \
				for (int h = 0; h < H; h++) \
					res[k][h] = f24v_min4(a[h], b[h]); \
				break; \
			} \
		} \
		break; \
	} \
	wr(S, fi, res, act); \
}

DEFINE_RUN_FAST(run_fast4, , mul_l4, add_l4)

#if F24V_HAVE_AVX2
/* With AVX2 the instructions that make up most of a vertex shader (MUL,
 * ADD, MAD, MOV, the dot products, RCP, RSQ) keep their sixteen lanes in two 32-byte
 * registers from the source registers' read to the destination's write:
 * no copies of the operands.  Lane for lane the same operations as
 * run_fast4 (f24v_mul8 / f24v_add8 == f24v_mul4 / f24v_add4; the negation
 * -x + 0 and the masked write keep every bit), which runs the others. */
typedef pica_lanes8 lanes8;

/* rd on two registers */
static inline F24V_AVX2 lanes8 rd8(const batch_state *S, const pica_uniforms *u, unsigned row)
{
	lanes8 r;
	if (row & PICA_BATCH_ROW_C) {
		r.lo = r.hi = _mm256_broadcast_ss(&u->c[(row >> 2) & 127].c[row & 3]);
	} else {
		const float *p = S->vr[row & 127];
		r.lo = _mm256_loadu_ps(p);
		r.hi = _mm256_loadu_ps(p + 8);
	}
	if (row & PICA_BATCH_ROW_NEG) {
		const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
		r.lo = _mm256_add_ps(_mm256_xor_ps(r.lo, sign), zero);
		r.hi = _mm256_add_ps(_mm256_xor_ps(r.hi, sign), zero);
	}
	return r;
}

static inline F24V_AVX2 lanes8 mul8(lanes8 a, lanes8 b, uint64_t rne)
{
	return (lanes8){ (__m256)f24v_mul8((f24v_f8)a.lo, (f24v_f8)b.lo, rne),
	                 (__m256)f24v_mul8((f24v_f8)a.hi, (f24v_f8)b.hi, rne) };
}

static inline F24V_AVX2 lanes8 add8(lanes8 a, lanes8 b, uint64_t rne)
{
	return (lanes8){ (__m256)f24v_add8((f24v_f8)a.lo, (f24v_f8)b.lo, rne),
	                 (__m256)f24v_add8((f24v_f8)a.hi, (f24v_f8)b.hi, rne) };
}

/* a rounded (a product): f24v_addr8 */
static inline F24V_AVX2 lanes8 addr8(lanes8 a, lanes8 b, uint64_t rne)
{
	return (lanes8){ (__m256)f24v_addr8((f24v_f8)a.lo, (f24v_f8)b.lo, rne),
	                 (__m256)f24v_addr8((f24v_f8)a.hi, (f24v_f8)b.hi, rne) };
}

/* both rounded (a dot product's sum and product): f24v_sum8 */
static inline F24V_AVX2 lanes8 sum8(lanes8 a, lanes8 b, uint64_t rne)
{
	return (lanes8){ (__m256)f24v_sum8((f24v_f8)a.lo, (f24v_f8)b.lo, rne),
	                 (__m256)f24v_sum8((f24v_f8)a.hi, (f24v_f8)b.hi, rne) };
}

/* Component k of the destination gets r in the active lanes (wr_from). */
static inline F24V_AVX2 void wr8(float *d, lanes8 r, unsigned act, const lanes8 *keep)
{
	if (act != FULL) {
		r.lo = _mm256_blendv_ps(_mm256_loadu_ps(d), r.lo, keep->lo);
		r.hi = _mm256_blendv_ps(_mm256_loadu_ps(d + 8), r.hi, keep->hi);
	}
	_mm256_storeu_ps(d, r.lo);
	_mm256_storeu_ps(d + 8, r.hi);
}

/* The masks of a batch's active lanes for wr8 (0 where all are active) */
static inline F24V_AVX2 lanes8 keep8(unsigned act)
{
	lanes8 keep = { _mm256_setzero_ps(), _mm256_setzero_ps() };
	if (act != FULL) {
		const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
		const __m256i lo = _mm256_set1_epi32((int)(act & 0xFF)), hi = _mm256_set1_epi32((int)(act >> 8));
		keep.lo = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(lo, bit), bit));
		keep.hi = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(hi, bit), bit));
	}
	return keep;
}

/* RCP / RSQ on eight lanes: one value (component 0's) to every component written */
static inline F24V_AVX2 void rcp_rsq8(const batch_state *S, const pica_fast_inst *fi, const uint16_t (*row)[4],
                                      const pica_uniforms *u, uint64_t rne, unsigned act, float (*d)[L],
                                      const lanes8 *keep)
{
	lanes8 a = rd8(S, u, row[0][0]);
	if (fi->kind == PICA_FAST_RCP) {
		a.lo = (__m256)f24v_rcp8((f24v_f8)a.lo, rne);
		a.hi = (__m256)f24v_rcp8((f24v_f8)a.hi, rne);
	} else {
		a.lo = (__m256)f24v_rsq8((f24v_f8)a.lo, rne);
		a.hi = (__m256)f24v_rsq8((f24v_f8)a.hi, rne);
	}
	for (unsigned k = 0; k < 4; k++)
		if (fi->wmask & (1u << k))
			wr8(d[k], a, act, keep);
}

/* rd8, and in the tame run its lanes seen by the range test (a uniform's
 * two halves are one value: one look) */
static inline F24V_AVX2 lanes8 rd8t(const batch_state *S, const pica_uniforms *u, unsigned row,
                                    f24v_tame8 *t)
{
	const lanes8 r = rd8(S, u, row);
	if (t) {
		f24v_tame8_see(t, r.lo);
		if (!(row & PICA_BATCH_ROW_C))
			f24v_tame8_see(t, r.hi);
	}
	return r;
}

static inline F24V_AVX2 void run_fast8(batch_state *S, const pica_fast_inst *fi,
                                       const uint16_t (*row)[4], const pica_uniforms *u,
                                       const f24_mode *fm, uint64_t rne, unsigned act, void *tame)
{
	(void)tame;             /* the general forms (run_fast8t: the tame run's) */
	const unsigned kind = fi->kind;
	const uint32_t here = 1u << PICA_FAST_MUL | 1u << PICA_FAST_ADD | 1u << PICA_FAST_MAD |
	                      1u << PICA_FAST_MOV | 1u << PICA_FAST_DP3 | 1u << PICA_FAST_DP4 |
	                      1u << PICA_FAST_DPH | 1u << PICA_FAST_RCP | 1u << PICA_FAST_RSQ;
	_Static_assert(PICA_FAST_END < 32, "a kind's bit");
	if (!(here >> kind & 1)) {
		run_fast4(S, fi, row, u, fm, rne, act, NULL);
		return;
	}
	float (*d)[L] = fi->to_o ? S->o[fi->dst] : &S->vr[PICA_BATCH_ROW_R + 4 * fi->dst];
	const lanes8 keep = keep8(act);
	if (kind == PICA_FAST_RCP || kind == PICA_FAST_RSQ) {
		rcp_rsq8(S, fi, row, u, rne, act, d, &keep);
		return;
	}
	if (kind == PICA_FAST_DP3 || kind == PICA_FAST_DP4 || kind == PICA_FAST_DPH) {
		/* f24_dot: each product rounded, summed in component order; with
		 * truncation and every operand tame, f24v_dot8_tame */
		const unsigned n = kind == PICA_FAST_DP3 ? 3 : 4;
		__m256 alo[4], ahi[4], blo[4], bhi[4];
		f24v_tame8 t = f24v_tame8_start();
		for (unsigned k = 0; k < n; k++) {
			lanes8 a = { _mm256_set1_ps(1.0f), _mm256_set1_ps(1.0f) };   /* DPH's w */
			if (k < 3 || kind == PICA_FAST_DP4)
				a = rd8(S, u, row[0][k]);
			const lanes8 b = rd8(S, u, row[1][k]);
			alo[k] = a.lo;
			ahi[k] = a.hi;
			blo[k] = b.lo;
			bhi[k] = b.hi;
			f24v_tame8_see(&t, a.lo);
			f24v_tame8_see(&t, a.hi);
			f24v_tame8_see(&t, b.lo);
			f24v_tame8_see(&t, b.hi);
		}
		lanes8 acc;
		if (!rne && f24v_tame8_ok(&t)) {
			acc.lo = f24v_dot8_tame(alo, blo, n);
			acc.hi = f24v_dot8_tame(ahi, bhi, n);
		} else {
			acc = mul8((lanes8){ alo[0], ahi[0] }, (lanes8){ blo[0], bhi[0] }, rne);
			for (unsigned k = 1; k < n; k++)
				acc = sum8(acc, mul8((lanes8){ alo[k], ahi[k] }, (lanes8){ blo[k], bhi[k] }, rne), rne);
		}
		for (unsigned k = 0; k < 4; k++)
			if (fi->wmask & (1u << k))
				wr8(d[k], acc, act, &keep);
		return;
	}
	lanes8 res[4];                              /* every source read before a write */
	for (unsigned k = 0; k < 4; k++) {
		if (!(fi->wmask & (1u << k)))
			continue;
		lanes8 r = rd8(S, u, row[0][k]);
		if (kind == PICA_FAST_MUL)
			r = mul8(r, rd8(S, u, row[1][k]), rne);
		else if (kind == PICA_FAST_ADD)
			r = add8(r, rd8(S, u, row[1][k]), rne);
		else if (kind == PICA_FAST_MAD)    /* not fused: the product rounded first (f24_mad) */
			r = addr8(mul8(r, rd8(S, u, row[1][k]), rne), rd8(S, u, row[2][k]), rne);
		res[k] = r;
	}
	for (unsigned k = 0; k < 4; k++)
		if (fi->wmask & (1u << k))
			wr8(d[k], res[k], act, &keep);
}

/* run_fast8 in the tame run: tame is its range test (rne is 0: the
 * truncating mode); MAX and MIN on eight lanes too */
static inline F24V_AVX2 void run_fast8t(batch_state *S, const pica_fast_inst *fi,
                                       const uint16_t (*row)[4], const pica_uniforms *u,
                                       const f24_mode *fm, uint64_t rne, unsigned act, void *tame)
{
	f24v_tame8 *const t = tame;
	const unsigned kind = fi->kind;
	const uint32_t here = 1u << PICA_FAST_MUL | 1u << PICA_FAST_ADD | 1u << PICA_FAST_MAD |
	                      1u << PICA_FAST_MOV | 1u << PICA_FAST_DP3 | 1u << PICA_FAST_DP4 |
	                      1u << PICA_FAST_DPH | 1u << PICA_FAST_RCP | 1u << PICA_FAST_RSQ |
	                      1u << PICA_FAST_MAX | 1u << PICA_FAST_MIN;
	_Static_assert(PICA_FAST_END < 32, "a kind's bit");
	if (!(here >> kind & 1) || (kind == PICA_FAST_MAX && fm->max_neg_inf != F24_MAX_FORMULA)) {
		run_fast4(S, fi, row, u, fm, rne, act, NULL);
		return;
	}
	float (*d)[L] = fi->to_o ? S->o[fi->dst] : &S->vr[PICA_BATCH_ROW_R + 4 * fi->dst];
	const lanes8 keep = keep8(act);
	if (kind == PICA_FAST_RCP || kind == PICA_FAST_RSQ) {
		rcp_rsq8(S, fi, row, u, rne, act, d, &keep);
		return;
	}
	if (kind == PICA_FAST_DP3 || kind == PICA_FAST_DP4 || kind == PICA_FAST_DPH) {
		/* f24_dot: each product rounded, summed in component order; with
		 * every operand tame, f24v_dot8_tame: the operands go to the
		 * batch's test */
		const unsigned n = kind == PICA_FAST_DP3 ? 3 : 4;
		__m256 alo[4], ahi[4], blo[4], bhi[4];
		for (unsigned k = 0; k < n; k++) {
			lanes8 a = { _mm256_set1_ps(1.0f), _mm256_set1_ps(1.0f) };   /* DPH's w */
			if (k < 3 || kind == PICA_FAST_DP4)
				a = rd8(S, u, row[0][k]);
			const lanes8 b = rd8(S, u, row[1][k]);
			alo[k] = a.lo;
			ahi[k] = a.hi;
			blo[k] = b.lo;
			bhi[k] = b.hi;
			f24v_tame8_see(t, a.lo);
			f24v_tame8_see(t, a.hi);
			f24v_tame8_see(t, b.lo);
			f24v_tame8_see(t, b.hi);
		}
		const lanes8 acc = { f24v_dot8_tame(alo, blo, n), f24v_dot8_tame(ahi, bhi, n) };
		for (unsigned k = 0; k < 4; k++)
			if (fi->wmask & (1u << k))
				wr8(d[k], acc, act, &keep);
		return;
	}
	const uint32_t arith = 1u << PICA_FAST_MUL | 1u << PICA_FAST_ADD | 1u << PICA_FAST_MAD;
	lanes8 res[4];                              /* every source read before a write */
	for (unsigned k = 0; k < 4; k++) {
		if (!(fi->wmask & (1u << k)))
			continue;
		lanes8 r;
		if (!(arith >> kind & 1)) {                /* MOV, MAX, MIN */
			r = rd8(S, u, row[0][k]);
			if (kind == PICA_FAST_MAX)
				r = max8(r, rd8(S, u, row[1][k]));
			else if (kind == PICA_FAST_MIN)
				r = min8(r, rd8(S, u, row[1][k]));
		} else {
			const lanes8 a = rd8t(S, u, row[0][k], t), b = rd8t(S, u, row[1][k], t);
			if (kind == PICA_FAST_MUL) {
				r = (lanes8){ tame_mul8(a.lo, b.lo), tame_mul8(a.hi, b.hi) };
			} else if (kind == PICA_FAST_ADD) {
				r = (lanes8){ tame_add8(a.lo, b.lo), tame_add8(a.hi, b.hi) };
			} else {
				const lanes8 c = rd8t(S, u, row[2][k], t);
				r = (lanes8){ tame_mad8(a.lo, b.lo, c.lo), tame_mad8(a.hi, b.hi, c.hi) };
			}
		}
		res[k] = r;
	}
	for (unsigned k = 0; k < 4; k++)
		if (fi->wmask & (1u << k))
			wr8(d[k], res[k], act, &keep);
}
#endif

/* Bit k of four lanes' compare result (all ones or zero). */
static inline unsigned mask4(f24v_i4 m)
{
#if F24V_HAVE_AVX2                       /* x86-64: SSE2 */
	return (unsigned)_mm_movemask_ps((__m128)m);
#else
	const f24v_i4 bit = m & (f24v_i4){ 1, 2, 4, 8 };
	return (unsigned)(bit[0] | bit[1] | bit[2] | bit[3]);
#endif
}

uint32_t pica_batch_cmp(uint8_t op, const float *a, const float *b)
{
	uint32_t bits = 0;
	for (int h = 0; h < H; h++) {
		f24v_f4 x, y;
		memcpy(&x, a + 4 * h, sizeof x);
		memcpy(&y, b + 4 * h, sizeof y);
		f24v_i4 m;
		switch (op) {                      /* pica_cmp_op: no flush in CMP */
		case PICA_CMP_EQ: m = x == y; break;
		case PICA_CMP_NE: m = x != y; break;
		case PICA_CMP_LT: m = x < y; break;
		case PICA_CMP_LE: m = x <= y; break;
		case PICA_CMP_GT: m = x > y; break;
		case PICA_CMP_GE: m = x >= y; break;
		default: m = (f24v_i4){ -1, -1, -1, -1 }; break;
		}
		bits |= mask4(m) << (4 * h);
	}
	return bits;
}

/* CMP (ex_cmp) on the active lanes. */
static void run_cmp(batch_state *S, const struct pica_inst *in, const pica_fast_inst *fi,
                    const pica_uniforms *u, unsigned act)
{
	lanes_t ax, ay, bx, by;
	rd(S, u, &fi->src[0], 0, ax);
	rd(S, u, &fi->src[0], 1, ay);
	rd(S, u, &fi->src[1], 0, bx);
	rd(S, u, &fi->src[1], 1, by);
	float a[2][L], b[2][L];
	memcpy(a[0], ax, sizeof a[0]);
	memcpy(a[1], ay, sizeof a[1]);
	memcpy(b[0], bx, sizeof b[0]);
	memcpy(b[1], by, sizeof b[1]);
	S->cmpx = (S->cmpx & ~act) | (pica_batch_cmp(in->cmp_op[0], a[0], b[0]) & act);
	S->cmpy = (S->cmpy & ~act) | (pica_batch_cmp(in->cmp_op[1], a[1], b[1]) & act);
}

/* The lanes a JMPC/JMPU or IFC/IFU goes on, as bits: a decision depends
 * only on a lane's two compare flags, so pica_jump_go / pica_flow_go are
 * asked once for each of the four pairs. */
static inline uint32_t flow_go_lanes(const struct pica_inst *in, const pica_inst_meta *m,
                                     const pica_uniforms *u, uint32_t cmpx, uint32_t cmpy)
{
	uint32_t go = 0;
	for (unsigned k = 0; k < 4; k++) {
		const bool x = k & 2, y = k & 1;
		if (m->exec == PICA_EX_JMP ? pica_jump_go(in, u, x, y) : pica_flow_go(in, u, x, y))
			go |= (x ? cmpx : ~cmpx) & (y ? cmpy : ~cmpy);
	}
	return go;
}

static inline f24v_f4 ld4(const float *p)
{
	f24v_f4 v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline void st4(float *p, f24v_f4 v) { memcpy(p, &v, sizeof v); }

/* The 4x4 transpose of the rows a, b, c, d (moves only: every bit kept):
 * column j to cols[j]'s four floats. */
static inline void transpose4(f24v_f4 a, f24v_f4 b, f24v_f4 c, f24v_f4 d, float *const cols[4])
{
	const f24v_f4 t0 = __builtin_shufflevector(a, b, 0, 4, 1, 5);
	const f24v_f4 t1 = __builtin_shufflevector(a, b, 2, 6, 3, 7);
	const f24v_f4 t2 = __builtin_shufflevector(c, d, 0, 4, 1, 5);
	const f24v_f4 t3 = __builtin_shufflevector(c, d, 2, 6, 3, 7);
	st4(cols[0], __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
	st4(cols[1], __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
	st4(cols[2], __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
	st4(cols[3], __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
}

/* Register r of jobs[0..n) into the lanes (components x lanes); lanes past
 * n keep what they hold. */
static inline void lanes_in(float dst[4][L], pica_job *const *jobs, unsigned n, unsigned r)
{
	unsigned l = 0;
	for (; l + 4 <= n; l += 4) {             /* four lanes: a transpose */
		float *const cols[4] = { &dst[0][l], &dst[1][l], &dst[2][l], &dst[3][l] };
		transpose4(ld4(jobs[l]->v[r].c), ld4(jobs[l + 1]->v[r].c), ld4(jobs[l + 2]->v[r].c),
		           ld4(jobs[l + 3]->v[r].c), cols);
	}
	for (; l < n; l++)
		for (unsigned c = 0; c < 4; c++)
			dst[c][l] = jobs[l]->v[r].c[c];
}

/* The lanes (components x lanes) into register r of jobs[0..n)'s o. */
static inline void lanes_out(float src[4][L], pica_job *const *jobs, unsigned n, unsigned r)
{
	unsigned l = 0;
	for (; l + 4 <= n; l += 4) {
		float *const cols[4] = { jobs[l]->o[r].c, jobs[l + 1]->o[r].c, jobs[l + 2]->o[r].c,
		                         jobs[l + 3]->o[r].c };
		transpose4(ld4(&src[0][l]), ld4(&src[1][l]), ld4(&src[2][l]), ld4(&src[3][l]), cols);
	}
	for (; l < n; l++)
		for (unsigned c = 0; c < 4; c++)
			jobs[l]->o[r].c[c] = src[c][l];
}

/* The lanes' pcs where they go separate ways, four to a vector. */
typedef uint32_t u32x4 __attribute__((vector_size(16)));

/* The lanes whose pc is pc, as bits. */
static inline unsigned lanes_at(const u32x4 lpc[H], uint32_t pc)
{
	unsigned act = 0;
	for (int h = 0; h < H; h++) {
		const u32x4 m = (u32x4)(lpc[h] == pc);
#if F24V_HAVE_AVX2                       /* x86-64: SSE2 */
		act |= (unsigned)_mm_movemask_ps((__m128)m) << (4 * h);
#else
		const u32x4 bit = m & (u32x4){ 1, 2, 4, 8 };
		act |= (bit[0] | bit[1] | bit[2] | bit[3]) << (4 * h);
#endif
	}
	return act;
}

/* The lanes at pc move on to pc + 1 (a compare's all-ones is -1). */
static inline void lanes_step(u32x4 lpc[H], uint32_t pc)
{
	for (int h = 0; h < H; h++)
		lpc[h] -= (u32x4)(lpc[h] == pc);
}

/* The program over the lanes, each arithmetic instruction through run
 * (run_fast8 or run_fast4: a constant where this is inlined, so that the
 * AVX2 form is inlined in its loop). */
typedef void run_fn(batch_state *S, const pica_fast_inst *fi, const uint16_t (*row)[4],
                    const pica_uniforms *u, const f24_mode *fm, uint64_t rne, unsigned act,
                    void *tame);

static inline __attribute__((always_inline)) void
shade_lanes(const pica_program *p, const pica_uniforms *u, const pica_env *env, batch_state *S,
            pica_batch_walk *w, uint32_t *sig, run_fn *run, void *tame)
{
	const pica_batch_plan *b = p->batch;
	const uint64_t rne = f24v_rne(env->f24.round);
	/* conv: every lane at pc cpc; else lane l at lpc[l / 4][l % 4] (DONE
	 * at END).  The walks' pcs are set at the flow ops only (plain
	 * instructions leave the IF rings alone). */
	bool conv = true;
	uint32_t cpc = p->entry;
	u32x4 lpc[H];
	for (uint32_t i = 0; i < b->norder; i++) {
		const uint32_t pc = b->order[i];
		unsigned act = 0;
		if (conv) {
			if (pc != cpc)
				continue;
			act = FULL;
		} else {
			act = lanes_at(lpc, pc);
			if (!act)
				continue;
		}
		const pica_fast_inst *fi = &b->form[pc];
		const struct pica_inst *in = &p->inst[pc];
		const pica_inst_meta *m = &p->meta[pc];
		if (m->exec == PICA_EX_END) {              /* never plain */
			if (conv)
				for (int h = 0; h < H; h++)
					lpc[h] = (u32x4){ pc, pc, pc, pc };
			conv = false;
			for (int h = 0; h < H; h++)
				lpc[h] |= (u32x4)(lpc[h] == pc);   /* DONE */
			continue;
		}
		uint32_t go = 0;
		if (fi->kind != PICA_FAST_GENERAL) {
			run(S, fi, (const uint16_t (*)[4])b->row[pc], u, &env->f24, rne, act, tame);
		} else if (m->exec == PICA_EX_CMP) {
			run_cmp(S, in, fi, u, act);
		} else {                                   /* JMP, IF (ex_jmp, ex_if) */
			go = flow_go_lanes(in, m, u, S->cmpx, S->cmpy) & act;
			for (uint32_t bits = go; bits; bits &= bits - 1)
				sig[__builtin_ctz(bits)] |= UINT32_C(1) << b->jump_bit[pc];
		}
		if (b->plain[pc]) {                        /* on to pc + 1 */
			if (act == FULL) {
				conv = true;
				cpc = pc + 1;
			} else {
				lanes_step(lpc, pc);
			}
			continue;
		}
		if (conv)
			for (int h = 0; h < H; h++)
				lpc[h] = (u32x4){ pc, pc, pc, pc };
		conv = false;
		for (uint32_t bits = act; bits; bits &= bits - 1) {
			const unsigned l = (unsigned)__builtin_ctz(bits);
			bool taken;
			w[l].pc = pc;
			if (!walk_next(p, &w[l], go >> l & 1, &taken)) {
				sig[l] |= PICA_BATCH_BAD;
				w[l].pc = DONE;
			}
			lpc[l / 4][l % 4] = w[l].pc;
		}
	}
}

static void shade_lanes4(const pica_program *p, const pica_uniforms *u, const pica_env *env,
                         batch_state *S, pica_batch_walk *w, uint32_t *sig)
{
	shade_lanes(p, u, env, S, w, sig, run_fast4, NULL);
}

#if F24V_HAVE_AVX2
__attribute__((target("avx2"))) static void shade_lanes8(const pica_program *p,
                                                         const pica_uniforms *u,
                                                         const pica_env *env, batch_state *S,
                                                         pica_batch_walk *w, uint32_t *sig)
{
	shade_lanes(p, u, env, S, w, sig, run_fast8, NULL);
}

/* The tame run (run_fast8's tame forms, the truncating mode): whether
 * every operand of its MUL, ADD, MAD and dot products was tame, so that
 * its results are the general forms'. */
__attribute__((target("avx2"))) static bool shade_lanes8_tame(const pica_program *p,
                                                              const pica_uniforms *u,
                                                              const pica_env *env, batch_state *S,
                                                              pica_batch_walk *w, uint32_t *sig)
{
	f24v_tame8 t = f24v_tame8_start();
	shade_lanes(p, u, env, S, w, sig, run_fast8t, &t);
	return f24v_tame8_ok(&t);
}
#endif

/* The state a run starts from: r read and o zeroed (a stale read, a dead
 * value, reads 0, as does a lane on another path, masked on write), the
 * compare flags clear, each lane's walk at the entry.  A register's lanes
 * are zeroed by a copy from zeros (vector stores): GCC makes a memset of
 * this size a rep stos, which costs more cycles. */
static const float ZERO_REG[4][L];

static inline __attribute__((always_inline)) void run_start(const pica_program *p, batch_state *S,
                                                        pica_batch_walk *w, uint32_t *sig)
{
	const pica_batch_plan *b = p->batch;
	for (uint32_t bits = b->r_read; bits; bits &= bits - 1)
		memcpy(S->vr[PICA_BATCH_ROW_R + 4 * __builtin_ctz(bits)], ZERO_REG, sizeof ZERO_REG);
	S->cmpx = S->cmpy = 0;
	for (uint32_t bits = b->o_used; bits; bits &= bits - 1)
		memcpy(S->o[__builtin_ctz(bits)], ZERO_REG, sizeof ZERO_REG);
	for (unsigned l = 0; l < L; l++) {
		pica_batch_walk_start(p, &w[l]);
		sig[l] = 0;
	}
}

void pica_batch_shade(const pica_program *p, const pica_uniforms *u, const pica_env *env,
                      pica_job *const *jobs, unsigned n, pica_batch_luck *luck)
{
	const pica_batch_plan *b = p->batch;
	batch_state S;
	/* lanes past n: inputs 0 (the v registers: a run only reads them) */
	for (uint32_t bits = b->v_used; bits; bits &= bits - 1) {
		const unsigned r = (unsigned)__builtin_ctz(bits);
		if (n < L)
			memcpy(S.vr[4 * r], ZERO_REG, sizeof ZERO_REG);
		lanes_in(&S.vr[4 * r], jobs, n < L ? n : L, r);
	}
	pica_batch_walk w[L];
	uint32_t sig[L];
	run_start(p, &S, w, sig);
#if F24V_HAVE_AVX2
	if (b->wide) {
		/* the tame run first, in the truncating mode; run again with the
		 * general forms when an operand was not tame */
		bool try = !f24v_rne(env->f24.round);
		if (try && luck && luck->wait) {
			luck->wait--;
			try = false;
		}
		const bool tame = try && shade_lanes8_tame(p, u, env, &S, w, sig);
		if (try && luck) {
			const unsigned twice = luck->skip ? 2u * luck->skip : 1u;
			luck->skip = tame ? 0 : (uint16_t)(twice < PICA_BATCH_TAME_SKIP_MAX ? twice : PICA_BATCH_TAME_SKIP_MAX);
			luck->wait = luck->skip;
		}
		if (!tame) {
			if (try)
				run_start(p, &S, w, sig);
			shade_lanes8(p, u, env, &S, w, sig);
		}
	} else
#endif
		shade_lanes4(p, u, env, &S, w, sig);
	for (unsigned l = 0; l < n && l < L; l++) {
		jobs[l]->shaded = true;
		jobs[l]->sig = sig[l];
	}
	for (uint32_t bits = b->o_used; bits; bits &= bits - 1)
		lanes_out(S.o[__builtin_ctz(bits)], jobs, n < L ? n : L, (unsigned)__builtin_ctz(bits));
}
