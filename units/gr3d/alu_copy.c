/* A packet of copies as one kernel (alu_packet.kern, alu_copy_kern in
 * alu.h): copy_packet's steps (alu.c) with every per-slot choice planned
 * once a draw into lanes, and the slots run two at a time on eight
 * binary32 lanes (one AVX2 register; two SSE2 registers on plain x86-64).
 * fs_color's one packet (four saturated FP20 copies into two FX10 pairs)
 * and the texture frames' copy packets take it.
 *
 * Lane 4k + p is slot k's value for pixel p.  Each lane does what
 * copy_packet does for its slot:
 *  - the read: its four words (alu_slot.copy_off), decoded as FP20
 *    (fp20_lanes_bits: a normal number's binary32, a zero as fp20_read
 *    gives it) or as an FX10 half (fx10_lanes_in: the half's shift per
 *    lane, rsh); both are formed and the lane's kind picks one (fxr);
 *  - abs and negate as bit masks, the addend, the clamp (alu_slot.cp_*);
 *  - the write's code: enc20_f32 (WR_FP20), or the FX10 half shifted to
 *    its place (fx10_lanes, or fx10_lanes_unit where every FX10 write's
 *    value is in [-0, 1]: the two agree there, alu_lanes.h).
 * A slot past the copies (a NOP, alu_slot.cp_nop, or past nslots) reads
 * r0's words as an FX10 half masked off and is not written.
 * The writes then land in slot order, as copy_packet makes them: a pair
 * (alu_slot.pair_next) ORs its two slots' codes into one row register,
 * each with its own keep mask; a pixel that is not live keeps its words.
 * With TEX's pre-fetch view held by some pixel, the kernel runs only when
 * no slot reads an FP20 row (alu_copy_kern.shadow_ok), and its caller
 * (alu.c run_kern) then ends the live pixels' views of the rows it wrote
 * (alu_copy_kern.view_rows), as write_f32 does.  A word
 * copy_reg declines (a subnormal read,
 * inf, NaN) makes it return false before any write: the caller then runs
 * the packet its general way.  tests/units/test_alu_quad.c compares it with
 * the general path (alu_unit.quad_vectors off). */
#include "units/gr3d/alu_lanes.h"

#include <math.h>
#include <stddef.h>

typedef float k_f32x8 __attribute__((vector_size(32)));
typedef int32_t k_i32x8 __attribute__((vector_size(32)));
typedef uint32_t k_u32x8 __attribute__((vector_size(32)));

/* (macros and pointers: a function taking or returning a 32-byte vector
 * would change its ABI without AVX, which GCC warns about) */
#define K_SEL(m, yes, no) ((k_f32x8)(((k_i32x8)(yes) & (m)) | ((k_i32x8)(no) & ~(m))))

static inline __attribute__((always_inline)) bool k_any(const k_u32x8 *m)
{
	uint64_t h[4];
	memcpy(h, m, sizeof h);
	return ((h[0] | h[1]) | (h[2] | h[3])) != 0;
}

/* Slot s's four words then slot s + 1's, as eight lanes. */
static inline __attribute__((always_inline)) void k_words(const gr3d_quad *q, const alu_copy_kern *k, unsigned s,
                                                           k_u32x8 *w)
{
	alu_u32x4 w0, w1;
	memcpy(&w0, (const uint8_t *)q + k->off[s], sizeof w0);
	memcpy(&w1, (const uint8_t *)q + k->off[s + 1], sizeof w1);
	*w = __builtin_shufflevector(w0, w1, 0, 1, 2, 3, 4, 5, 6, 7);
}

/* fx10_lanes on eight lanes (fx10.round nearest-away or truncate, the
 * overflow's limits from alu_init). */
static inline __attribute__((always_inline)) void k_fx10(const alu_unit *a, const k_f32x8 *fp, k_u32x8 *out)
{
	const k_f32x8 f = *fp;
	k_f32x8 s = (k_f32x8)((k_i32x8)f & 0x7FFFFFFF) * 256.0f;
	s = (k_f32x8)((k_i32x8)s & (s == s));
	const k_i32x8 neg = f < 0.0f;
	const float ln = a->fx10_lim_neg, lp = a->fx10_lim_pos;
	const k_f32x8 lim = K_SEL(neg, ((k_f32x8){ ln, ln, ln, ln, ln, ln, ln, ln }),
	                          ((k_f32x8){ lp, lp, lp, lp, lp, lp, lp, lp }));
	s = s + a->fx10_half;
	s = K_SEL(s > lim, lim, s);
	k_i32x8 n = __builtin_convertvector(s, k_i32x8);
	n = (n ^ neg) - neg;
	*out = (k_u32x8)n & FX10_MASK;
}

/* Slot pair h (slots 2h, 2h + 1) into enc[8h..8h + 7]: the write codes.
 * False: a word copy_reg declines. */
static inline __attribute__((always_inline)) bool k_pair(const alu_unit *a, const alu_copy_kern *k,
                                                          const gr3d_quad *q, unsigned h, uint32_t *enc)
{
	k_u32x8 w;
	k_words(q, k, 2 * h, &w);
	k_u32x8 fxr, am, xm, wfx;
	k_f32x8 add, lo, hi;
	memcpy(&fxr, &k->fxr[8 * h], sizeof fxr);
	memcpy(&am, &k->am[8 * h], sizeof am);
	memcpy(&xm, &k->xm[8 * h], sizeof xm);
	memcpy(&add, &k->add[8 * h], sizeof add);
	memcpy(&lo, &k->lo[8 * h], sizeof lo);
	memcpy(&hi, &k->hi[8 * h], sizeof hi);
	memcpy(&wfx, &k->wfx[8 * h], sizeof wfx);
	k_f32x8 f = { 0 };
	if (k->rd[h] & 1u) {              /* fp20_lanes_bits; the lanes read as FX10 do not count */
		k_u32x8 sp;
		const k_u32x8 b = FP20_LANES_NORMAL(w, sp, k_u32x8);
		const k_u32x8 zero = (k_u32x8)((w & ~FP20_SIGN_MASK) == 0u);
		const k_u32x8 bad = sp & ~zero & ~fxr;
		if (k_any(&bad))
			return false;
		const uint32_t sgnz = a->subnormals ? 0x80000000u : 0u;
		f = (k_f32x8)((b & ~zero) | (zero & (w << (31 - FP20_SIGN_SHIFT)) & sgnz));
	}
	if (k->rd[h] & 2u) {              /* fx10_lanes_in, the half per lane */
		k_u32x8 rsh;
		memcpy(&rsh, &k->rsh[8 * h], sizeof rsh);
		const k_i32x8 n = (k_i32x8)(((w >> rsh) & FX10_MASK) ^ FX10_SIGN) - (int32_t)FX10_SIGN;
		const k_f32x8 x = __builtin_convertvector(n, k_f32x8) * 0x1p-8f;
		f = k->rd[h] == 2u ? x : K_SEL((k_i32x8)fxr, x, f);
	}
	f = (k_f32x8)(((k_u32x8)f & am) ^ xm) + add;
	f = K_SEL(f < lo, lo, f);         /* clamp_f32x4: min(hi, max(lo, f)) */
	f = K_SEL(f > hi, hi, f);
	k_u32x8 e = { 0 };
	if (k->wr[h] & 1u) {              /* enc20_f32 */
		const k_u32x8 fb = (k_u32x8)f, ab = fb & 0x7FFFFFFFu;
		e = (fb >> 31) << FP20_SIGN_SHIFT |
		    (((ab >> FP20_F32_SHIFT) - (FP20_F32_REBIAS << FP20_EXP_SHIFT)) & (k_u32x8)(ab != 0u));
	}
	if (k->wr[h] & 2u) {              /* the FX10 half in its place */
		k_u32x8 e10, wsh;
		memcpy(&wsh, &k->wsh[8 * h], sizeof wsh);
		if (k->unit01)                /* fx10_lanes_unit */
			e10 = (k_u32x8)__builtin_convertvector(f * 256.0f + a->fx10_half, k_i32x8) & FX10_MASK;
		else
			k_fx10(a, &f, &e10);
		e10 <<= wsh;
		e = k->wr[h] == 2u ? e10 : (e10 & wfx) | (e & ~wfx);
	}
	memcpy(&enc[8 * h], &e, sizeof e);
	return true;
}

/* ---- a packet of products (alu_copy_kern.prod) ----
 * q_slot's FORM_MAD_K on the quad as vectors, slot by slot: operands read
 * as q_fetch reads them (a register's FP20 words or FX10 half, a
 * constant), their modifiers, rA*rB + slot.xy, the scale, the saturate,
 * the FP20 rounding (round20_lanes' near rule) unless alu_slot.unread,
 * then the write's code (enc20_lanes' near rule, or fx10_quad's
 * fx10_lanes of the binary32).  A word copy_reg declines (a subnormal
 * read, inf, NaN), or a value in fp20_far_lanes (which round20_lanes and
 * enc20_lanes take one by one), makes it return false: the general path
 * runs the packet. */
typedef double k_f64x4 __attribute__((vector_size(32)));
typedef int64_t k_i64x4 __attribute__((vector_size(32)));
#define K_SEL64(m, yes, no) ((k_f64x4)(((k_i64x4)(yes) & (m)) | ((k_i64x4)(no) & ~(m))))

static inline __attribute__((always_inline)) bool k_opd(const alu_unit *a, const alu_operand *o, const gr3d_quad *q,
                                                         k_f64x4 *out)
{
	if (o->kind == OPD_CONST) {       /* modifiers folded by alu_compile */
		*out = (k_f64x4){ o->k, o->k, o->k, o->k };
		return true;
	}
	const uint32_t *raw = (const uint32_t *)(const void *)((const uint8_t *)q + o->off);
	alu_f32x4 f;
	if (o->fx) {
		f = fx10_lanes_in(raw, o->fx);
	} else {
		alu_u32x4 w;
		memcpy(&w, raw, sizeof w);
		bool special, other;
		f = (alu_f32x4)fp20_lanes_bits(a->subnormals, w, &special, &other);
		if (other)
			return false;
	}
	*out = __builtin_convertvector(f, k_f64x4);   /* exact */
	if (o->mods) {                    /* modify: abs, x2, minus one, negate */
		const q_u64x4 am = { o->abs_mask, o->abs_mask, o->abs_mask, o->abs_mask };
		const q_u64x4 nm = { o->neg_mask, o->neg_mask, o->neg_mask, o->neg_mask };
		*out = (k_f64x4)((q_u64x4)((k_f64x4)((q_u64x4)*out & am) * o->mul - o->sub) ^ nm);
	}
	return true;
}

static inline __attribute__((always_inline)) bool k_prod(const alu_unit *a, const alu_copy_kern *k,
                                                          const alu_slot *sl, const gr3d_quad *q, unsigned s,
                                                          uint32_t *enc, bool wide)
{
	k_f64x4 x, y;
	if (!k_opd(a, &sl->a, q, &x) || !k_opd(a, &sl->b, q, &y))
		return false;
	k_f64x4 r = x * y + sl->xy;
	static const double scale[4] = { 1.0, 2.0, 4.0, 0.5 };
	if (sl->scale)
		r *= scale[sl->scale];
	if (sl->saturate) {               /* r < 0 ? 0 : r > 1 ? 1 : r */
		const k_f64x4 zero = { 0.0, 0.0, 0.0, 0.0 }, one = { 1.0, 1.0, 1.0, 1.0 };
		r = K_SEL64(r < zero, zero, K_SEL64(r > one, one, r));
	}
	q_u64x4 b = (q_u64x4)r;
	alu_u32x4 far = fp20_far_lanes(&b, wide);
	if (!sl->unread)
		round20_near(&b, k->radd, k->rodd);
	far |= fp20_far_lanes(&b, wide);
	if (any_u32x4(far))
		return false;
	alu_u32x4 e;
	if (k->wfx[4 * s]) {              /* fx10_quad: fx10_lanes of the binary32 (exact) */
		const k_f64x4 v = (k_f64x4)b;
		e = fx10_lanes(a, __builtin_convertvector(v, alu_f32x4)) << k->wsh[4 * s];
	} else {
		e = enc20_near(&b, k->radd, k->rodd, wide);
	}
	memcpy(&enc[4 * s], &e, sizeof e);
	return true;
}

/* ~0 in lane p where bit p of live is set */
static const uint32_t LIVE_LANES[16][GR3D_PIXELS] __attribute__((aligned(16))) = {
#define L(m) { (m) & 1u ? ~0u : 0u, (m) & 2u ? ~0u : 0u, (m) & 4u ? ~0u : 0u, (m) & 8u ? ~0u : 0u }
	L(0), L(1), L(2), L(3), L(4), L(5), L(6), L(7), L(8), L(9), L(10), L(11), L(12), L(13), L(14), L(15),
#undef L
};

static inline __attribute__((always_inline)) bool k_run(const alu_unit *a, const alu_packet *p,
                                                         const alu_copy_kern *k, gr3d_quad *q, unsigned live, bool wide)
{
	_Alignas(32) uint32_t enc[16];
	if (k->prod) {
		for (unsigned s = 0; s < p->nslots; s++)
			if (!k_prod(a, k, &p->slot[s], q, s, enc, wide))
				return false;
	} else if (!k_pair(a, k, q, 0, enc) || (k->npairs > 1 && !k_pair(a, k, q, 1, enc))) {
		return false;
	}
	/* the writes, in slot order (write_pair_f32, write_f32 without the views) */
	alu_u32x4 lm;
	memcpy(&lm, LIVE_LANES[live & 15u], sizeof lm);
	for (unsigned i = 0; i < k->nw; i++) {
		const unsigned s = k->w_slot[i];
		alu_u32x4 set, d;
		memcpy(&set, &enc[4 * s], sizeof set);
		if (k->w_pair[i]) {
			alu_u32x4 other;
			memcpy(&other, &enc[4 * s + 4], sizeof other);
			set |= other;
		}
		uint8_t *dst = (uint8_t *)q + k->w_off[i];
		memcpy(&d, dst, sizeof d);
		d = (d & (k->w_keep[i] | ~lm)) | (set & lm);
		memcpy(dst, &d, sizeof d);
	}
	return true;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) bool alu_copy_run_avx2(const alu_unit *a, const alu_packet *p, const alu_copy_kern *k,
                                                        gr3d_quad *q, unsigned live)
{
	return k_run(a, p, k, q, live, true);
}
#endif
bool alu_copy_run_plain(const alu_unit *a, const alu_packet *p, const alu_copy_kern *k, gr3d_quad *q, unsigned live)
{
	return k_run(a, p, k, q, live, false);
}

/* The row registers kernel k's writes land in (alu_copy_kern.view_rows). */
static void plan_view_rows(alu_copy_kern *k)
{
	const size_t r0 = offsetof(gr3d_quad, r), row = sizeof(uint32_t) * GR3D_PIXELS;
	k->view_rows = 0;
	for (unsigned i = 0; i < k->nw; i++)
		if (k->w_off[i] >= r0 && k->w_off[i] < r0 + GR3D_ROW_REGS * row)
			k->view_rows |= (uint16_t)(1u << ((k->w_off[i] - r0) / row));
}

/* A register or constant operand (q_fetch's first kinds). */
static bool plain_operand(const alu_operand *o)
{
	return o->kind == OPD_CONST || o->kind == OPD_REG;
}

/* Plans packet p as a kernel of products (alu_copy_kern.prod) when every
 * slot is one: FORM_MAD_K, no condition, rounded (not exact), not a copy,
 * rA and rB registers or constants, written to a row or global as FP20 or
 * one FX10 half; no group, no aluK value read after it. */
static void plan_prod(alu_unit *a, const gr3d_ctx *c, alu_packet *p)
{
	if (p->copies || p->copy_vals || p->groups || !p->nslots || !a->fx10_lanes || c->exact ||
	    a->nkern >= ALU_KERN_MAX)
		return;
	for (unsigned s = 0; s < p->nslots; s++) {
		const alu_slot *sl = &p->slot[s];
		if (sl->form != FORM_MAD_K || sl->cc != TEGRA_CC_NONE || sl->exact || sl->reg_copy ||
		    !plain_operand(&sl->a) || !plain_operand(&sl->b) || sl->wr == WR_OTHER)
			return;
	}
	alu_copy_kern *k = &a->kern[a->nkern];
	memset(k, 0, sizeof *k);
	k->prod = true;
	k->shadow_ok = true;              /* no FP20 row read (alu_operand.shadow) */
	for (unsigned s = 0; s < p->nslots; s++)
		k->shadow_ok &= !p->slot[s].a.shadow && !p->slot[s].b.shadow;
	fp20_round_add(c->fp20_round, &k->radd, &k->rodd);
	for (unsigned s = 0; s < p->nslots; s++) {
		const alu_slot *sl = &p->slot[s];
		const unsigned i = k->nw++;
		k->w_slot[i] = (uint8_t)s;
		if (sl->pair_next) {          /* write_pair */
			const uint32_t m = gr3d_fx_mask(c);
			k->w_pair[i] = true;
			k->w_off[i] = (uint16_t)(offsetof(gr3d_quad, r) + (sl->dst_index & (GR3D_ROW_REGS - 1)) * sizeof(uint32_t) * GR3D_PIXELS);
			k->w_keep[i] = ~(m | m << gr3d_fx_shift(c));
			k->wfx[4 * s] = k->wfx[4 * s + 4] = ~0u;
			k->wsh[4 * s] = sl[0].fx10_shift;
			k->wsh[4 * s + 4] = sl[1].fx10_shift;
			s++;
			continue;
		}
		k->w_off[i] = sl->wr_off;     /* write_value */
		k->wfx[4 * s] = sl->wr == WR_FX10 ? ~0u : 0u;
		k->wsh[4 * s] = sl->wr == WR_FX10 ? sl->fx10_shift : 0u;
		k->w_keep[i] = sl->wr == WR_FX10 ? ~(gr3d_fx_mask(c) << sl->fx10_shift) : 0u;
	}
	plan_view_rows(k);
	p->kern = (uint8_t)++a->nkern;
}

/* Plans packet p (alu_init has planned its copies: alu_packet.copies) as
 * kernel a->kern[a->nkern] when it is one: every copy written as a pair or a
 * planned write, no aluK value read after it (copy_vals), a free entry.
 * Sets p->kern (the entry + 1). */
void alu_copy_plan(alu_unit *a, const gr3d_ctx *c, alu_packet *p)
{
	p->kern = 0;
	plan_prod(a, c, p);
	if (!p->copies || p->copy_vals || a->nkern >= ALU_KERN_MAX)
		return;
	alu_copy_kern *k = &a->kern[a->nkern];
	memset(k, 0, sizeof *k);
	k->unit01 = true;
	k->shadow_ok = !p->copy_view;     /* no FP20 row read */
	for (unsigned s = 0; s < 4; s++) {
		const alu_slot *sl = &p->slot[s];
		const bool on = s < p->copy_n;
		k->off[s] = on ? sl->copy_off : (uint16_t)offsetof(gr3d_quad, r);
		for (unsigned px = 0; px < GR3D_PIXELS; px++) {
			const unsigned l = 4 * s + px;
			k->fxr[l] = !on || sl->cp_fx ? ~0u : 0u;
			k->rsh[l] = on && sl->cp_fx == 2 ? FX10_HIGH_SHIFT : 0u;
			k->am[l] = on ? sl->cp_and[px] : 0u;
			k->xm[l] = on ? sl->cp_xor[px] : 0u;
			k->add[l] = on ? sl->cp_add[px] : 0.0f;
			k->lo[l] = on ? sl->cp_lo[px] : -INFINITY;
			k->hi[l] = on ? sl->cp_hi[px] : INFINITY;
		}
		if (on)
			k->rd[s / 2] |= sl->cp_fx ? 2u : 1u;
	}
	k->npairs = (uint8_t)((p->copy_n + 1u) / 2u);
	if (!k->npairs)
		return;                       /* (no copy: copy_packet's loops do it) */
	for (unsigned s = 0; s < p->copy_n; s++) {
		const alu_slot *sl = &p->slot[s];
		const unsigned i = k->nw++;
		k->w_slot[i] = (uint8_t)s;
		bool fx10 = true;
		if (sl->pair_next) {          /* write_pair_f32 */
			const uint32_t m = gr3d_fx_mask(c);
			k->w_pair[i] = true;
			k->w_off[i] = (uint16_t)(offsetof(gr3d_quad, r) + (sl->dst_index & (GR3D_ROW_REGS - 1)) * sizeof(uint32_t) * GR3D_PIXELS);
			k->w_keep[i] = ~(m | m << gr3d_fx_shift(c));
			k->unit01 &= sl[0].unit01 && sl[1].unit01;
			for (unsigned px = 0; px < GR3D_PIXELS; px++) {
				k->wfx[4 * s + px] = k->wfx[4 * s + 4 + px] = ~0u;
				k->wsh[4 * s + px] = sl[0].fx10_shift;
				k->wsh[4 * s + 4 + px] = sl[1].fx10_shift;
			}
			k->wr[s / 2] |= 2u;
			k->wr[(s + 1) / 2] |= 2u;
			s++;
			continue;
		}
		k->w_off[i] = sl->wr_off;     /* write_f32 */
		if (sl->wr == WR_FP20) {
			fx10 = false;
			k->w_keep[i] = 0u;
		} else {
			k->w_keep[i] = ~(FX10_MASK << sl->fx10_shift);
			k->unit01 &= sl->unit01;
		}
		k->wr[s / 2] |= fx10 ? 2u : 1u;
		for (unsigned px = 0; px < GR3D_PIXELS; px++) {
			k->wfx[4 * s + px] = fx10 ? ~0u : 0u;
			k->wsh[4 * s + px] = fx10 ? sl->fx10_shift : 0u;
		}
	}
	plan_view_rows(k);
	p->kern = (uint8_t)++a->nkern;
}
