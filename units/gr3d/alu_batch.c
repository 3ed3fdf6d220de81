/* The ALU's EXEC on a batch of quads (alu.h alu_batch_exec).  The registers
 * the EXEC reads or writes are gathered from the quads into one lane per
 * pixel (structure of arrays: a register's 4 * nq words side by side), each
 * slot runs over all lanes with what alu_slot_result decides per quad (the
 * form, the operand kinds, the modifiers) decided once per batch, and the
 * registers it wrote are scattered back.  The values, roundings and writes
 * are alu_slot_result's and run_packet's, lane by lane in their order; what
 * depends on a quad stays per quad: the odd-word test of its four FP20
 * reads (fp20_lanes_in), the outlier rounding it decides (round_outliers),
 * and its live pixels (the writes' lane masks).  The FP20 reads, roundings
 * and writes test for odd words and far values once for the whole batch
 * and take the per-quad helpers only for the quads that have them
 * (read_fp20_soa, round_soa, enc_soa).
 * tests/units/test_ahead.c compares every lane with alu_exec's. */
#include "units/gr3d/alu_lanes.h"

enum { LANES = ALU_BATCH_MAX * GR3D_PIXELS, SOA_VIEW = ALU_LANE_VIEW };
_Static_assert(ALU_LANE_VIEW == 32 && ALU_LANE_REGS == ALU_LANE_VIEW + GR3D_ROW_REGS,
               "alu_batch: r, g, cr are lane registers 0..31 (gr3d_quad's block), then the view");

/* TEX's pre-fetch view in the batch (tegra.tex.fp20_reads_see_coords; the
 * quads' tex_shadow, tex_reg, tex_old): FP20 reads of the two registers
 * the EXEC's fetch wrote see their words from before it, per pixel, until
 * an ALU write to the register ends that pixel's view (end_views). */
typedef struct soa_views {
	bool on;                                 /* some pixel holds a view */
	uint8_t reg[2];                          /* the fetch's destinations, as tex_reg */
	uint8_t bits[LANES];                     /* tex_shadow per lane */
	uint32_t old[2][LANES];                  /* tex_old per lane */
} soa_views;

/* One EXEC on the lanes. */
typedef struct soa {
	const alu_unit *a;
	const gr3d_ctx *c;
	alu_lanes *L;
	gr3d_quad *const *q;
	unsigned nq, n;                          /* quads, lanes (4 * nq) */
	soa_views *v;
	bool wide;                               /* built for AVX2 (fp20_far_lanes) */
	uint64_t add, odd;                       /* fp20.round's increment (fp20_round_add) */
} soa;

void alu_lanes_begin(alu_lanes *l, gr3d_quad *const q[], unsigned nq)
{
	l->nq = nq;
	l->in_lanes = 0;
	l->in_quads = ~UINT64_C(0);
	for (unsigned k = 0; k < nq; k++) {
		l->q[k] = q[k];
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			l->live[k * GR3D_PIXELS + p] = q[k]->killed[p] ? 0u : ~0u;
	}
}

/* The registers of regs into the lanes, from the quads where only they hold
 * them: lane register i of a quad is its register word i (gr3d_quad_reg),
 * four words side by side.  Two quads at a time, one 32-byte store: the
 * slots' 32-byte loads of a pair (read_fp20_soa, merge) then take it from
 * the store buffer, which cannot combine two 16-byte stores.  Inlined, so
 * that the AVX2 build makes the store one instruction. */
GR3D_HOT void to_lanes(alu_lanes *l, uint64_t regs)
{
	typedef uint32_t w32x8 __attribute__((vector_size(32)));
	const unsigned nq = l->nq;
	for (uint64_t m = regs & ~l->in_lanes; m; m &= m - 1) {
		const unsigned i = (unsigned)__builtin_ctzll(m);
		uint32_t *w = l->reg[i];
		unsigned k = 0;
		for (; k + 1 < nq; k += 2, w += 2 * GR3D_PIXELS) {
			alu_u32x4 a0, a1;
			memcpy(&a0, gr3d_quad_creg(l->q[k], i), sizeof a0);
			memcpy(&a1, gr3d_quad_creg(l->q[k + 1], i), sizeof a1);
			const w32x8 v = __builtin_shufflevector(a0, a1, 0, 1, 2, 3, 4, 5, 6, 7);
			memcpy(w, &v, sizeof v);
		}
		if (k < nq)
			memcpy(w, gr3d_quad_creg(l->q[k], i), sizeof(uint32_t) * GR3D_PIXELS);
	}
	l->in_lanes |= regs;
}

void alu_lanes_to_quads(alu_lanes *l, uint64_t regs)
{
	for (uint64_t m = regs & ~l->in_quads; m; m &= m - 1) {
		const unsigned i = (unsigned)__builtin_ctzll(m);
		const uint32_t *w = l->reg[i];
		for (unsigned k = 0; k < l->nq; k++, w += GR3D_PIXELS)
			memcpy(gr3d_quad_reg(l->q[k], i), w, sizeof(uint32_t) * GR3D_PIXELS);
	}
	l->in_quads |= regs;
}

/* A quad's four lanes as one value of the compiler's vector types (GCC and
 * Clang: two SSE2 registers on plain x86-64, one AVX register where the
 * build allows), so that a slot's arithmetic over the batch is vector
 * arithmetic whatever the optimiser's vectorising.  The operations are
 * alu_slot_result's, lane by lane: products and sums rounded as binary64
 * (no contraction in ISO C), choices by comparison masks. */
typedef double f64x4 __attribute__((vector_size(32)));
typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef uint64_t u64x4 __attribute__((vector_size(32)));

/* (macros: a function taking or returning these would change its ABI with
 * AVX, which GCC warns about) */
#define sel(m, yes, no) ((f64x4)(((i64x4)(yes) & (m)) | ((i64x4)(no) & ~(m))))
#define splat(v) ((f64x4){ (v), (v), (v), (v) })

/* An operand's lane register (kind OPD_REG). */
static inline unsigned soa_index(const alu_operand *o)
{
	return o->view ? (unsigned)SOA_VIEW + o->index : (unsigned)(o->off / (GR3D_PIXELS * sizeof(uint32_t)));
}

/* A slot's destination lane register; -1 none (lp, read-only registers). */
static inline int soa_dst(const alu_slot *s)
{
	switch (s->dst_cls) {
	case TEGRA_REG_ROW: return s->dst_index & (GR3D_ROW_REGS - 1);
	case TEGRA_REG_GLOBAL: return 16 + (s->dst_index & 7);
	case TEGRA_REG_COND: return 24 + (s->dst_index & 7);
	default: return -1;
	}
}

/* Quad k's four words of row register i as an FP20 read sees them through
 * the pre-fetch view (read_raw): w, or seen with the substituted words. */
static inline const uint32_t *view_words(const soa_views *v, unsigned i, unsigned k, const uint32_t *w,
                                         uint32_t seen[GR3D_PIXELS])
{
	if (v->reg[0] != i && v->reg[1] != i)
		return w;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const unsigned l = k * GR3D_PIXELS + p;
		seen[p] = view_seen(v->bits[l], v->reg, v->old[0][l], v->old[1][l], i, w[p]);
	}
	return seen;
}

/* fp20_lanes_in on every quad's four words w[4k..4k+3] into out[k], odd[k]
 * |= its odd: the normal numbers' rule on every quad, and only the quads
 * with a word it does not hold for (exponent 0 or 63, odd) again through
 * fp20_lanes_in; one test for the batch when there are none.  (out[k] in
 * place: GCC's vectors alias their element type.) */
GR3D_HOT void read_fp20_soa(const soa *S, const uint32_t *w, f64x4 *out, unsigned odd[ALU_BATCH_MAX])
{
	const unsigned nq = S->nq;
	alu_u32x4 sp[ALU_BATCH_MAX], any = { 0, 0, 0, 0 };
	unsigned k = 0;
	for (; k + 1 < nq; k += 2) {      /* two quads in one 8-lane vector (one AVX2 register) */
		u32x8 w8, s8;
		memcpy(&w8, &w[k * GR3D_PIXELS], sizeof w8);
		if (S->wide) {                /* the values in binary64 lanes directly */
			s8 = FP20_LANES_ODD(w8, u32x8);
			q_u64x4 b0, b1;
			fp20_f64_normal(&w[k * GR3D_PIXELS], &b0);
			fp20_f64_normal(&w[(k + 1) * GR3D_PIXELS], &b1);
			out[k] = (f64x4)b0;
			out[k + 1] = (f64x4)b1;
		} else {
			const f32x8 f = (f32x8)FP20_LANES_NORMAL(w8, s8, u32x8);
			out[k] = __builtin_convertvector(__builtin_shufflevector(f, f, 0, 1, 2, 3), f64x4);
			out[k + 1] = __builtin_convertvector(__builtin_shufflevector(f, f, 4, 5, 6, 7), f64x4);
		}
		memcpy(&sp[k], &s8, sizeof s8);
		any |= sp[k] | sp[k + 1];
	}
	if (k < nq) {
		alu_u32x4 wk;
		memcpy(&wk, &w[k * GR3D_PIXELS], sizeof wk);
		if (S->wide) {
			sp[k] = FP20_LANES_ODD(wk, alu_u32x4);
			q_u64x4 b0;
			fp20_f64_normal(&w[k * GR3D_PIXELS], &b0);
			out[k] = (f64x4)b0;
		} else {
			out[k] = __builtin_convertvector((alu_f32x4)fp20_lanes_normal(wk, &sp[k]), f64x4);
		}
		any |= sp[k];
	}
	if (any_u32x4(any))
		for (unsigned j = 0; j < nq; j++)
			if (any_u32x4(sp[j]))
				odd[j] |= fp20_lanes_in(S->a->subnormals, &w[j * GR3D_PIXELS], (double *)&out[j]);
}

/* modify (abs, x2, minus one, negate) of operand o on every quad's values. */
GR3D_HOT void mods_soa(const soa *S, const alu_operand *o, const f64x4 *in, f64x4 *out)
{
	const i64x4 am = (i64x4)(u64x4){ o->abs_mask, o->abs_mask, o->abs_mask, o->abs_mask };
	const i64x4 nm = (i64x4)(u64x4){ o->neg_mask, o->neg_mask, o->neg_mask, o->neg_mask };
	const f64x4 mul = splat(o->mul), sub = splat(o->sub);
	for (unsigned k = 0; k < S->nq; k++)
		out[k] = (f64x4)((i64x4)((f64x4)((i64x4)in[k] & am) * mul - sub) ^ nm);
}

/* One operand over the batch: fetch's value for quad k in out[k], odd[k] as
 * fetch sets it; a register's without its modifiers unless mods. */
GR3D_HOT void fetch_soa(const soa *S, const alu_operand *o, const f64x4 *prev, const f64x4 *cur, f64x4 *out,
                      unsigned odd[ALU_BATCH_MAX], bool mods)
{
	const unsigned nq = S->nq;
	const gr3d_ctx *c = S->c;
	switch (o->kind) {
	case OPD_CONST:                   /* modifiers folded by alu_compile */
		for (unsigned k = 0; k < nq; k++)
			out[k] = splat(o->k);
		return;
	case OPD_REG: {
		const uint32_t *w = S->L->reg[soa_index(o)];
		const bool sub = S->a->subnormals;
		if (o->fx)
			for (unsigned k = 0; k < nq; k++)
				out[k] = __builtin_convertvector(fx10_lanes_in(&w[k * GR3D_PIXELS], o->fx), f64x4);
		else if (o->shadow && S->v->on)   /* read_raw's substitution */
			for (unsigned k = 0; k < nq; k++) {
				uint32_t seen[GR3D_PIXELS];
				odd[k] |= fp20_lanes_in(sub, view_words(S->v, o->index, k, &w[k * GR3D_PIXELS], seen),
				                        (double *)&out[k]);
			}
		else
			read_fp20_soa(S, w, out, odd);
		break;
	}
	case OPD_ALU:
		memcpy(out, o->cur ? &cur[o->index * ALU_BATCH_MAX] : &prev[o->index * ALU_BATCH_MAX], sizeof(f64x4) * nq);
		for (unsigned k = 0; k < nq; k++)
			odd[k] = 1;
		break;
	case OPD_UNIFORM: {               /* one value for the batch */
		const uint32_t u = c->uniforms[o->index];
		const double v = o->fx ? fx10_value(u >> (o->fx == 2 ? FX10_HIGH_SHIFT : 0u))
		               : gr3d_uniform20(c, o->index, fp20_read(S->a->subnormals, u));
		const unsigned sp = !o->fx && fp20_is_special(u);
		for (unsigned k = 0; k < nq; k++) {
			odd[k] |= sp;
			out[k] = splat(v);
		}
		break;
	}
	default: {                        /* position, pface: fetch's own, modifiers included */
		alu_pass ap = { .unit = S->a, .c = c, .subnormals = S->a->subnormals };
		for (unsigned k = 0; k < nq; k++) {
			double v[GR3D_PIXELS];
			ap.q = S->q[k];
			fetch(&ap, o, v, &odd[k]);
			memcpy(&out[k], v, sizeof v);
		}
		return;
	}
	}
	if (mods && o->mods)              /* modify: abs, x2, minus one, negate */
		mods_soa(S, o, out, out);
}

/* A packet's register reads taken once (alu_operand.keep, dup): entry i's
 * values without modifiers, and its quads' odd bits (any: some set). */
enum { SOA_STORE = 8 };
typedef struct soa_store {
	f64x4 v[SOA_STORE][ALU_BATCH_MAX];
	unsigned odd[SOA_STORE][ALU_BATCH_MAX];
	bool any[SOA_STORE];
} soa_store;

/* fetch_soa's values of operand o (and its odd bits into odd): in out, or
 * where they are already (the packet's store, for a read an earlier read
 * of the packet took: the register's words do not change before the
 * packet's writes, which land after its slots). */
GR3D_HOT const f64x4 *opd_soa(const soa *S, soa_store *st, const alu_operand *o, const f64x4 *prev,
                              const f64x4 *cur, f64x4 *out, unsigned odd[ALU_BATCH_MAX])
{
	const unsigned nq = S->nq;
	if (o->kind == OPD_ALU) {         /* fetch_soa's values where they are (no copy) */
		const f64x4 *v = o->cur ? &cur[o->index * ALU_BATCH_MAX] : &prev[o->index * ALU_BATCH_MAX];
		for (unsigned k = 0; k < nq; k++)
			odd[k] = 1;
		if (!o->mods)
			return v;
		mods_soa(S, o, v, out);
		return out;
	}
	if (o->dup) {
		const unsigned i = o->dup - 1u;
		if (st->any[i])
			for (unsigned k = 0; k < nq; k++)
				odd[k] |= st->odd[i][k];
	} else if (o->keep) {
		const unsigned i = o->keep - 1u;
		unsigned *t = st->odd[i];
		memset(t, 0, sizeof st->odd[i]);   /* a fixed size: two stores, not rep stos */
		fetch_soa(S, o, prev, cur, st->v[i], t, false);
		unsigned any = 0;
		for (unsigned k = 0; k < nq; k++) {
			odd[k] |= t[k];
			any |= t[k];
		}
		st->any[i] = any != 0;
	} else {
		fetch_soa(S, o, prev, cur, out, odd, true);
		return out;
	}
	const f64x4 *v = st->v[(o->dup ? o->dup : o->keep) - 1u];
	if (!o->mods)
		return v;
	mods_soa(S, o, v, out);
	return out;
}

/* round20_lanes (not arith=exact) on every quad's values r[k]: the fast
 * rule (round20_near, fp20.round's increment set up once in soa) on every quad,
 * gr3d_round20 on the lanes fp20_far_lanes names (one test for the batch
 * when there are none). */
GR3D_HOT void round_soa(const soa *S, f64x4 *r)
{
	const unsigned nq = S->nq;
	alu_u32x4 far[ALU_BATCH_MAX], any = { 0, 0, 0, 0 };
	f64x4 in[ALU_BATCH_MAX];
	for (unsigned k = 0; k < nq; k++) {
		q_u64x4 b = (q_u64x4)r[k];
		in[k] = r[k];
		far[k] = fp20_far_lanes(&b, S->wide);
		any |= far[k];
		round20_near(&b, S->add, S->odd);
		r[k] = (f64x4)b;
	}
	if (any_u32x4(any))
		for (unsigned k = 0; k < nq; k++)
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				if (far[k][p])
					r[k][p] = gr3d_round20(S->c, in[k][p]);
}

/* enc20_lanes (not arith=exact) on every quad's values v[k] into enc[4k..4k+3], as
 * round_soa: the far lanes take gr3d_fp20_bits. */
GR3D_HOT void enc_soa(const soa *S, const f64x4 *v, uint32_t *enc)
{
	const unsigned nq = S->nq;
	alu_u32x4 far[ALU_BATCH_MAX], any = { 0, 0, 0, 0 };
	for (unsigned k = 0; k < nq; k++) {
		const q_u64x4 b = (q_u64x4)v[k];
		far[k] = fp20_far_lanes(&b, S->wide);
		any |= far[k];
		const alu_u32x4 w = enc20_near(&b, S->add, S->odd, S->wide);
		memcpy(&enc[k * GR3D_PIXELS], &w, sizeof w);
	}
	if (any_u32x4(any))
		for (unsigned k = 0; k < nq; k++)
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				if (far[k][p])
					enc[k * GR3D_PIXELS + p] = gr3d_fp20_bits(S->c->fp20_round, v[k][p]);
}

/* alu_slot_result over the batch (values: false, as a run). */
GR3D_HOT void slot_soa(const soa *S, soa_store *st, const alu_slot *s, const f64x4 *prev, const f64x4 *cur,
                       f64x4 *out)
{
	/* formed in out: an operand reads only earlier slots' values (another
	 * cur slot, or prev), never this one's */
	f64x4 a[ALU_BATCH_MAX], b[ALU_BATCH_MAX], x[ALU_BATCH_MAX], y[ALU_BATCH_MAX], *r = out;
	const f64x4 *A, *B, *X, *Y;
	unsigned odd[ALU_BATCH_MAX] = { 0 };
	const unsigned nq = S->nq;
	const f64x4 zero = splat(0.0), one = splat(1.0);
	switch (s->form) {
	case FORM_CONST:
		for (unsigned k = 0; k < nq; k++)
			out[k] = splat(s->xy);
		return;
	case FORM_PICK:
		A = opd_soa(S, st, s->a.k < 0.0 ? &s->b : &s->c, prev, cur, r, odd);
		if (A != r)
			memcpy(r, A, sizeof(f64x4) * nq);
		break;
	case FORM_CSEL:
		A = opd_soa(S, st, &s->a, prev, cur, a, odd);
		B = opd_soa(S, st, &s->b, prev, cur, b, odd);
		X = opd_soa(S, st, &s->c, prev, cur, x, odd);
		for (unsigned k = 0; k < nq; k++)
			r[k] = sel(A[k] < zero, B[k], X[k]);
		break;
	case FORM_MIN:
	case FORM_MAX:
		A = opd_soa(S, st, &s->a, prev, cur, a, odd);
		B = opd_soa(S, st, &s->b, prev, cur, b, odd);
		X = opd_soa(S, st, &s->c, prev, cur, x, odd);
		Y = opd_soa(S, st, &s->d, prev, cur, y, odd);
		for (unsigned k = 0; k < nq; k++) {
			const f64x4 l = A[k] * B[k], rr = X[k] * Y[k];
			r[k] = sel(s->form == FORM_MIN ? l < rr : l > rr, l, rr);
		}
		break;
	case FORM_ADD_K:
		A = opd_soa(S, st, &s->a, prev, cur, a, odd);
		for (unsigned k = 0; k < nq; k++)
			r[k] = A[k] + s->xy;
		break;
	case FORM_MAD_K:
		A = opd_soa(S, st, &s->a, prev, cur, a, odd);
		B = opd_soa(S, st, &s->b, prev, cur, b, odd);
		for (unsigned k = 0; k < nq; k++)
			r[k] = A[k] * B[k] + s->xy;
		break;
	default:                          /* MAD */
		A = opd_soa(S, st, &s->a, prev, cur, a, odd);
		B = opd_soa(S, st, &s->b, prev, cur, b, odd);
		X = opd_soa(S, st, &s->c, prev, cur, x, odd);
		Y = opd_soa(S, st, &s->d, prev, cur, y, odd);
		for (unsigned k = 0; k < nq; k++)
			r[k] = A[k] * B[k] + X[k] * Y[k];
		break;
	}
	static const double scale[4] = { 1.0, 2.0, 4.0, 0.5 };
	const double sc = scale[s->scale];
	if (s->cc != TEGRA_CC_NONE) {      /* 0 or 1 */
		for (unsigned k = 0; k < nq; k++) {
			const f64x4 v = r[k] * sc;
			const i64x4 m = s->cc == TEGRA_CC_EQ ? v == zero : s->cc == TEGRA_CC_GT ? v > zero : v >= zero;
			r[k] = sel(m, one, zero);
		}
	} else {
		if (s->scale)
			for (unsigned k = 0; k < nq; k++)
				r[k] *= sc;
		if (s->saturate)              /* r < 0 ? 0 : r > 1 ? 1 : r (NaN stays) */
			for (unsigned k = 0; k < nq; k++)
				r[k] = sel(r[k] < zero, zero, sel(r[k] > one, one, r[k]));
		if (s->exact) {
			for (unsigned k = 0; k < nq; k++)
				if (odd[k]) {
					double v[GR3D_PIXELS];
					memcpy(v, &r[k], sizeof v);
					round_outliers(S->c, v, S->wide);
					memcpy(&r[k], v, sizeof v);
				}
		} else if (!s->unread) {
			round_soa(S, r);
		}
	}
}

/* The live lanes of register w: the bits outside keep become set.  Two
 * quads at a time, as read_fp20_soa reads them: its 32-byte load of a pair
 * then takes a pair's store from the store buffer (a load cannot combine
 * two 16-byte stores; perf showed such stalls in session 10). */
GR3D_HOT void merge(soa *S, uint32_t *w, uint32_t keep, const uint32_t set[LANES])
{
	unsigned k = 0;
	for (; k + 1 < S->nq; k += 2) {
		u32x8 wv, lv;
		alu_u32x4 s0, s1;             /* set: two loads, as its writers store a quad's four */
		memcpy(&wv, &w[k * GR3D_PIXELS], sizeof wv);
		memcpy(&lv, &S->L->live[k * GR3D_PIXELS], sizeof lv);
		memcpy(&s0, &set[k * GR3D_PIXELS], sizeof s0);
		memcpy(&s1, &set[(k + 1) * GR3D_PIXELS], sizeof s1);
		wv = (wv & (keep | ~lv)) | (__builtin_shufflevector(s0, s1, 0, 1, 2, 3, 4, 5, 6, 7) & lv);
		memcpy(&w[k * GR3D_PIXELS], &wv, sizeof wv);
	}
	for (; k < S->nq; k++) {
		alu_u32x4 wv, lv, sv;
		memcpy(&wv, &w[k * GR3D_PIXELS], sizeof wv);
		memcpy(&lv, &S->L->live[k * GR3D_PIXELS], sizeof lv);
		memcpy(&sv, &set[k * GR3D_PIXELS], sizeof sv);
		wv = (wv & (keep | ~lv)) | (sv & lv);
		memcpy(&w[k * GR3D_PIXELS], &wv, sizeof wv);
	}
}

/* Quad k's four values read in place (GCC's vectors alias their element
 * type).  A copy into a double[4] was two 16-byte stores, which the 32-byte
 * load of the encoders right after could not take from the store buffer:
 * a stall of about 15 cycles a quad, 15 % of fs_lit's time in `ulpsim gl`
 * (perf), which instruction counts do not show. */
static inline const double *quad_values(const f64x4 *v, unsigned k) { return (const double *)&v[k]; }

/* One slot's write (alu_write_slot; write_pair when pair: s[0], s[1] and
 * their values v, v1), on the lanes. */
GR3D_HOT void write_soa(soa *S, const alu_slot *s, bool pair, const f64x4 *v, const f64x4 *v1)
{
	const gr3d_ctx *c = S->c;
	const int d = soa_dst(s);
	if (d < 0)
		return;
	if (S->v->on && s->dst_cls == TEGRA_REG_ROW) {   /* end_views: the live pixels' view of it */
		const uint8_t keep = view_ended(3u, S->v->reg, s->dst_index);   /* the views it leaves */
		for (unsigned l = 0; l < S->n && keep != 3u; l++)
			if (S->L->live[l])
				S->v->bits[l] &= keep;
	}
	uint32_t *w = S->L->reg[d];
	uint32_t enc[LANES];
	const unsigned nq = S->nq;
	if (pair) {                       /* the two FX10 halves of one row register */
		const unsigned sh0 = s[0].fx10_shift, sh1 = s[1].fx10_shift;
		if (S->a->fx10_lanes && s[0].unit01 && s[1].unit01)   /* values in [-0, 1] or NaNs (write_pair) */
			for (unsigned k = 0; k < nq; k++) {
				const alu_u32x4 e = fx10_unit_lanes(S->a, quad_values(v, k)) << sh0 |
				                    fx10_unit_lanes(S->a, quad_values(v1, k)) << sh1;
				memcpy(&enc[k * GR3D_PIXELS], &e, sizeof e);
			}
		else
			for (unsigned k = 0; k < nq; k++) {
				uint32_t w0[GR3D_PIXELS], w1[GR3D_PIXELS];
				alu_u32x4 e0, e1;
				fx10_quad(S->a, c, quad_values(v, k), w0);
				fx10_quad(S->a, c, quad_values(v1, k), w1);
				memcpy(&e0, w0, sizeof e0);
				memcpy(&e1, w1, sizeof e1);
				const alu_u32x4 e = e0 << sh0 | e1 << sh1;
				memcpy(&enc[k * GR3D_PIXELS], &e, sizeof e);
			}
		const uint32_t m = gr3d_fx_mask(c);
		merge(S, w, ~(m | m << gr3d_fx_shift(c)), enc);
		return;
	}
	const bool lo = s->write_low, hi = s->write_high;
	if (s->dst_cls == TEGRA_REG_COND) {   /* the two write bits select the half */
		for (unsigned k = 0; k < nq; k++) {
			const double *vk = quad_values(v, k);
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				if (S->L->live[k * GR3D_PIXELS + p])
					gr3d_write_reg(c, &w[k * GR3D_PIXELS + p], vk[p], !hi, hi);
		}
		return;
	}
	if (lo && hi) {
		enc_soa(S, v, enc);
		merge(S, w, 0, enc);
	} else if (lo || hi) {
		const unsigned sh = hi ? gr3d_fx_shift(c) : 0u;
		for (unsigned k = 0; k < nq; k++) {
			fx10_quad(S->a, c, quad_values(v, k), &enc[k * GR3D_PIXELS]);
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				enc[k * GR3D_PIXELS + p] <<= sh;
		}
		merge(S, w, ~(gr3d_fx_mask(c) << sh), enc);
	}
}

/* The operands slot_soa fetches, in its order (j: 0 rA, 1 rB, 2 rC, 3 rD). */
static bool fetched(const alu_slot *s, unsigned j)
{
	switch (s->form) {
	case FORM_CONST: return false;
	case FORM_PICK: return j == (s->a.k < 0.0 ? 1u : 2u);
	case FORM_CSEL: return j < 3;
	case FORM_ADD_K: return j == 0;
	case FORM_MAD_K: return j < 2;
	default: return true;
	}
}

/* alu_operand.keep and dup of packet p: a register read (the same lane
 * register and FX10 half) that an earlier fetched read of the packet took
 * already reads entry dup - 1 of the store, which that first read (keep)
 * fills; at most SOA_STORE entries. */
static void plan_store(alu_packet *p)
{
	alu_operand *first[4 * 4];
	unsigned nfirst = 0, entries = 0;
	for (unsigned k = 0; k < 4; k++) {
		alu_operand *o[4] = { &p->slot[k].a, &p->slot[k].b, &p->slot[k].c, &p->slot[k].d };
		for (unsigned j = 0; j < 4; j++)
			o[j]->keep = o[j]->dup = 0;
	}
	for (unsigned k = 0; k < p->nslots; k++) {
		alu_operand *o[4] = { &p->slot[k].a, &p->slot[k].b, &p->slot[k].c, &p->slot[k].d };
		for (unsigned j = 0; j < 4; j++) {
			if (!fetched(&p->slot[k], j) || o[j]->kind != OPD_REG)
				continue;
			alu_operand *f = NULL;
			for (unsigned i = 0; i < nfirst && !f; i++)
				if (soa_index(first[i]) == soa_index(o[j]) && first[i]->fx == o[j]->fx)
					f = first[i];
			if (!f) {
				first[nfirst++] = o[j];
				continue;
			}
			if (!f->keep) {
				if (entries == SOA_STORE)
					continue;
				f->keep = (uint8_t)++entries;
			}
			o[j]->dup = f->keep;
		}
	}
}

void alu_batch_plan(alu_unit *a)
{
	const gr3d_ctx *c = a->s.ctx;
	for (unsigned e = 0; e < c->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		uint64_t rd = 0, wr = 0;
		bool ok = !c->exact;
		for (unsigned i = 0; i < a->packets[e] && i < TEGRA_FP_MAX_PER_EXEC; i++) {
			const alu_packet *p = &a->pk[e][i];
			for (unsigned k = 0; k < p->nslots; k++) {
				const alu_slot *s = &p->slot[k];
				const alu_operand *o[4] = { &s->a, &s->b, &s->c, &s->d };
				for (unsigned j = 0; j < 4; j++)
					if (o[j]->kind == OPD_REG)
						rd |= UINT64_C(1) << soa_index(o[j]);
				const int d = soa_dst(s);
				if (d >= 0)
					wr |= UINT64_C(1) << d;
				ok &= s->dst_cls != TEGRA_REG_UNIFORM && s->dst_cls != TEGRA_REG_KILL;
			}
		}
		for (unsigned i = 0; i < a->packets[e] && i < TEGRA_FP_MAX_PER_EXEC; i++)
			plan_store(&a->pk[e][i]);
		a->lane_rd[e] = rd | wr;      /* a write keeps the bits outside it */
		a->lane_wr[e] = wr;
		a->lane_ok[e] = ok;
	}
}

/* Does a pixel of the batch hold TEX's pre-fetch view? */
static bool any_view(const alu_lanes *l)
{
	unsigned any = 0;
	for (unsigned k = 0; k < l->nq; k++)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			any |= l->q[k]->px[p].tex_shadow;
	return any != 0;
}

/* The batch's pre-fetch views, from the quads; false when the pixels that
 * hold one do not agree on its two registers (every fetch of an EXEC writes
 * the same two, so only hand-made quads differ): the EXEC then declines. */
static bool views_in(const alu_lanes *l, soa_views *v)
{
	v->on = true;
	bool named = false;
	for (unsigned k = 0; k < l->nq; k++)
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			const gr3d_pixel *px = &l->q[k]->px[p];
			const unsigned i = k * GR3D_PIXELS + p;
			v->bits[i] = px->tex_shadow;
			v->old[0][i] = px->tex_old[0];
			v->old[1][i] = px->tex_old[1];
			if (!px->tex_shadow)
				continue;
			if (!named) {
				v->reg[0] = px->tex_reg[0];
				v->reg[1] = px->tex_reg[1];
				named = true;
			} else if (v->reg[0] != px->tex_reg[0] || v->reg[1] != px->tex_reg[1]) {
				return false;
			}
		}
	return true;
}

/* ... and back: the views the EXEC's writes ended. */
static void views_out(const soa_views *v, alu_lanes *l)
{
	for (unsigned k = 0; k < l->nq; k++)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			l->q[k]->px[p].tex_shadow = v->bits[k * GR3D_PIXELS + p];
}

static inline __attribute__((always_inline)) bool batch_exec(const alu_unit *a, alu_lanes *l, unsigned e, bool wide)
{
	const gr3d_ctx *c = a->s.ctx;
	const unsigned nq = l->nq;
	gr3d_quad *const *q = l->q;
	if (!a->lane_ok[e] || nq < 1 || nq > ALU_BATCH_MAX)
		return false;
	soa_views views;                  /* (only on is read until views_in fills the rest) */
	views.on = false;
	if (any_view(l) && !views_in(l, &views))
		return false;
	const uint64_t rd = a->lane_rd[e], wr = a->lane_wr[e];
	const uint16_t vl = a->view_load[e];
	if (vl) {                         /* alu_load_view, in the lanes */
		to_lanes(l, vl);
		for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
			if ((vl >> i) & 1u)
				memcpy(l->reg[SOA_VIEW + i], l->reg[i], sizeof(uint32_t) * GR3D_PIXELS * nq);
		l->in_lanes |= (uint64_t)vl << SOA_VIEW;
		l->in_quads &= ~((uint64_t)vl << SOA_VIEW);
	}
	const unsigned count = a->packets[e];
	if (!count)
		return true;
	to_lanes(l, rd);
	l->in_quads &= ~wr;
	soa lanes = { .a = a, .c = c, .L = l, .q = q, .nq = nq, .n = nq * GR3D_PIXELS, .v = &views, .wide = wide };
	soa *S = &lanes;
	fp20_round_add(c->fp20_round, &S->add, &S->odd);   /* not arith=exact (lane_ok) */
	f64x4 buf[2][4 * ALU_BATCH_MAX];  /* aluK: previous and current packet, [slot * MAX + quad] */
	soa_store store;                  /* (each entry filled before it is read) */
	if (a->pk[e][0].reads_prev)       /* aluK reads as 0 at the start of an EXEC */
		for (unsigned k = 0; k < 4; k++)
			memset(&buf[0][k * ALU_BATCH_MAX], 0, sizeof(f64x4) * nq);
	for (unsigned i = 0; i < count; i++) {
		const alu_packet *p = &a->pk[e][i];
		const f64x4 *prev = buf[i & 1];
		f64x4 *cur = buf[(i & 1) ^ 1];
		const unsigned ns = p->nslots;
		for (unsigned k = 0; k < ns; k++)
			slot_soa(S, &store, &p->slot[k], prev, cur, &cur[k * ALU_BATCH_MAX]);
		if (ns < 4 && i + 1 < count && a->pk[e][i + 1].reads_prev)   /* only a reader sees them */
			for (unsigned k = ns; k < 4; k++)
				memset(&cur[k * ALU_BATCH_MAX], 0, sizeof(f64x4) * nq);
		if (p->groups)
			for (unsigned k = 0; k < ns; k++) {
				if (p->group_head[k] != (int)k)
					continue;
				for (unsigned q4 = 0; q4 < nq; q4++) {
					double sum[GR3D_PIXELS] = { 0.0, 0.0, 0.0, 0.0 };   /* members in slot order */
					for (unsigned j = k; j < ns; j++)
						if (p->group_head[j] == (int)k)
							for (unsigned px = 0; px < GR3D_PIXELS; px++)
								sum[px] += cur[j * ALU_BATCH_MAX + q4][px];
					for (unsigned px = 0; px < GR3D_PIXELS; px++)
						sum[px] = gr3d_round20(c, sum[px]);
					memcpy(&cur[k * ALU_BATCH_MAX + q4], sum, sizeof sum);
				}
			}
		for (unsigned k = 0; k < ns; k++) {
			const alu_slot *s = &p->slot[k];
			write_soa(S, s, s->pair_next, &cur[k * ALU_BATCH_MAX],
			          s->pair_next ? &cur[(k + 1) * ALU_BATCH_MAX] : NULL);
			k += s->pair_next;
		}
	}
	if (views.on)
		views_out(&views, l);
	return true;
}

/* Built twice on x86-64: for AVX2, where a quad's four doubles are one
 * register, and for plain x86-64, picked by what the host runs (as
 * units/pica/pica_batch.c does; not target_clones, whose ifunc Clang 14
 * leaves without the plain symbol in a static library).  The operations are
 * IEEE binary64 either way (ISO C: no contraction), so the results are the
 * same. */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static bool batch_exec_avx2(const alu_unit *a, alu_lanes *l, unsigned e)
{
	return batch_exec(a, l, e, true);
}
#endif

static bool batch_exec_plain(const alu_unit *a, alu_lanes *l, unsigned e)
{
	return batch_exec(a, l, e, false);
}

bool alu_batch_exec(const alu_unit *a, alu_lanes *l, unsigned e)
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
		return batch_exec_avx2(a, l, e);
#endif
	return batch_exec_plain(a, l, e);
}
