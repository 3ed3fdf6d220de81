/* ALU: packets of four scalar slots (alu.h). */
#include "units/gr3d/alu_lanes.h"

#include <math.h>
#include <stddef.h>

const sim_counter_def ALU_COUNTERS[ALU_CTR_COUNT] = {
	[ALU_CTR_PACKETS] = { "packets", "ALU packets run (per quad)" },
	[ALU_CTR_INSTRUCTIONS] = { "instructions", "slot operations (per pixel)" },
	[ALU_CTR_KILLS] = { "kills", "kill writes that discarded a pixel" },
};


/* A slot that copies a register operand (alu_slot.reg_copy): the operand
 * as read, with abs and negate, plus slot.xy (+-0) for FORM_ADD_K, then
 * saturated when the slot says so (a clamp to 0 or 1 is exact), formed in
 * binary32 lanes with no double steps.  An FX10 half is n / 256 and a
 * normal FP20 word (exponent 1..62) is gr3d_fp20's binary32, both exact,
 * so every step gives alu_slot_result's value: fx10_value or
 * gr3d_fp20_quad, modify (x1 and -0 are exact), the sum with +-0, and no
 * rounding (the slot is exact: round_outliers gives FP20 values and zeros
 * back).  A zero word reads as fp20_lanes_bits gives it.  The operand's
 * words are read where the plan put them (alu_slot.copy_off).  Returns
 * false, having done nothing, when an FP20 word is a subnormal read, inf or
 * NaN: then alu_slot_result forms the slot.  Else out holds the values and
 * *res the same as binary32, each an FP20 value (run_packet writes them). */
GR3D_HOT bool copy_reg(const alu_pass *ap, const alu_slot *s, double out[GR3D_PIXELS], alu_f32x4 *res)
{
	const alu_operand *o = (const alu_operand *)(const void *)((const uint8_t *)s + s->copy_opd);
	uint32_t raw[GR3D_PIXELS];
	memcpy(raw, (const uint8_t *)ap->q + s->copy_off, sizeof raw);
	if (o->shadow && ap->shadow)    /* read_raw's pre-fetch view */
		shadow_words(ap->q, o->index, raw);
	alu_u32x4 w;
	memcpy(&w, raw, sizeof w);
	alu_f32x4 f;
	if (o->fx) {
		f = fx10_lanes_in(raw, o->fx);
	} else {
		bool special, other;
		f = (alu_f32x4)fp20_lanes_bits(ap->subnormals, w, &special, &other);
		if (other)
			return false;
	}
	if (o->mods)                    /* abs, negate (a copy has no x2 or -1) */
		f = (alu_f32x4)(((alu_u32x4)f & (o->abs ? 0x7FFFFFFFu : ~0u)) ^ (o->neg ? 0x80000000u : 0u));
	if (s->form == FORM_ADD_K)
		f = f + (float)s->xy;
	if (s->saturate)                /* alu_slot_result's r < 0 ? 0 : r > 1 ? 1 : r, exact */
		f = sat_f32x4(f);
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		out[p] = f[p];
	*res = f;
	return true;
}

/* One slot's result for the four pixels.  It is formed in local arrays (no
 * aliasing, so the loops vectorise) and copied out at the end. */
void alu_slot_result(const alu_pass *ap, const alu_slot *s, double out[GR3D_PIXELS])
{
	double a[GR3D_PIXELS], b[GR3D_PIXELS], x[GR3D_PIXELS], y[GR3D_PIXELS], r[GR3D_PIXELS];
	unsigned odd = 0;                                     /* see fetch */
	switch (s->form) {
	case FORM_CONST:                                      /* formed by plan_const */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = s->xy;
		return;
	case FORM_PICK:                                       /* the choice is known */
		fetch(ap, s->a.k < 0.0 ? &s->b : &s->c, r, &odd);
		break;
	case FORM_CSEL:                                       /* (rA < 0) ? rB : rC */
		fetch(ap, &s->a, a, &odd);
		fetch(ap, &s->b, b, &odd);
		fetch(ap, &s->c, x, &odd);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] < 0.0 ? b[p] : x[p];
		break;
	case FORM_MIN:
	case FORM_MAX:
		fetch(ap, &s->a, a, &odd);
		fetch(ap, &s->b, b, &odd);
		fetch(ap, &s->c, x, &odd);
		fetch(ap, &s->d, y, &odd);
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			double l = a[p] * b[p], rr = x[p] * y[p];
			r[p] = s->form == FORM_MIN ? (l < rr ? l : rr) : (l > rr ? l : rr);
		}
		break;
	case FORM_ADD_K:
		fetch(ap, &s->a, a, &odd);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] + s->xy;
		break;
	case FORM_MAD_K:                                      /* rC*rD formed once */
		fetch(ap, &s->a, a, &odd);
		fetch(ap, &s->b, b, &odd);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] * b[p] + s->xy;
		break;
	default:                                              /* MAD */
		fetch(ap, &s->a, a, &odd);
		fetch(ap, &s->b, b, &odd);
		fetch(ap, &s->c, x, &odd);
		fetch(ap, &s->d, y, &odd);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] * b[p] + x[p] * y[p];
		break;
	}
	static const double scale[4] = { 1.0, 2.0, 4.0, 0.5 };
	const double sc = scale[s->scale];
	if (s->cc != TEGRA_CC_NONE) {      /* 0 or 1: exact in FP20, saturate keeps it */
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			double v = r[p] * sc;
			r[p] = (s->cc == TEGRA_CC_EQ ? v == 0.0 : s->cc == TEGRA_CC_GT ? v > 0.0 : v >= 0.0) ? 1.0 : 0.0;
		}
	} else {
		if (s->scale)                  /* x1 leaves every value as it is */
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				r[p] *= sc;
		if (s->saturate)
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				r[p] = r[p] < 0.0 ? 0.0 : r[p] > 1.0 ? 1.0 : r[p];
		if (s->exact) {                /* normal FP20 numbers and zeros: as they are */
			if (odd)
				round_outliers(ap->c, r, false);
		} else if (!s->unread || ap->values) {   /* else the FP20 write rounds it (plan_unread) */
			round20_lanes(ap->c, r, false);
		}
	}
	memcpy(out, r, sizeof r);
}

/* ---- a packet's slot values on a quad as vectors (alu_pass.quad) ----
 * alu_slot_result's operations, operand by operand and step by step in its
 * order, on the quad's four pixels held as one value of the compiler's
 * vector types (q_f64x4: one AVX register, or two SSE2 registers), with
 * what alu_slot_result tests per slot and per operand (exact mode, the
 * pre-fetch view, the run's `values`) tested once per packet.
 * tests/units/test_alu_quad.c compares the two on every slot shape and
 * every kind of FP20 code. */

/* (macros: a function taking or returning these would change its ABI with
 * AVX, which GCC warns about) */
#define Q_SEL(m, yes, no) ((q_f64x4)(((q_i64x4)(yes) & (m)) | ((q_i64x4)(no) & ~(m))))
#define Q_SPLAT(v) ((q_f64x4){ (v), (v), (v), (v) })

/* fetch's value of operand o in *out, when no pixel holds TEX's pre-fetch
 * view. */
GR3D_HOT void q_fetch(const alu_pass *ap, const alu_operand *o, q_f64x4 *out, unsigned *odd, bool wide)
{
	const gr3d_quad *q = ap->q;
	double v[GR3D_PIXELS];
	if (o->kind == OPD_REG) {         /* read_raw without the pre-fetch view (the common
		                               * kind, tested before the switch) */
		/* the four words side by side in the quad (gr3d_quad_reg), or the batch view's */
		uint32_t raw[GR3D_PIXELS];
		memcpy(raw, (const uint8_t *)q + o->off, sizeof raw);
		alu_u32x4 w;
		memcpy(&w, raw, sizeof w);
		if (o->fx) {
			*out = __builtin_convertvector(fx10_lanes_in(raw, o->fx), q_f64x4);
		} else if (wide && !any_u32x4(FP20_LANES_ODD(w, alu_u32x4))) {
			q_u64x4 b;                /* four normal numbers (fp20_lanes_in's rule) */
			fp20_f64_normal(raw, &b);
			*out = (q_f64x4)b;
		} else {
			*odd |= fp20_lanes_in(ap->subnormals, raw, v);
			memcpy(out, v, sizeof v);
		}
	} else switch (o->kind) {
	case OPD_CONST:                   /* modifiers folded by alu_compile */
		*out = Q_SPLAT(o->k);
		return;
	case OPD_ALU:
		*odd = 1;
		memcpy(out, o->cur ? ap->cur[o->index] : ap->prev[o->index], sizeof *out);
		break;
	case OPD_UNIFORM: {
		const uint32_t u = ap->c->uniforms[o->index];
		const double k = o->fx ? fx10_value(u >> (o->fx == 2 ? FX10_HIGH_SHIFT : 0u))
		               : gr3d_uniform20(ap->c, o->index, fp20_read(ap->subnormals, u));
		*odd |= !o->fx && fp20_is_special(u);
		*out = Q_SPLAT(k);
		break;
	}
	default:                          /* position, pface: fetch's own, modifiers included */
		fetch(ap, o, v, odd);
		memcpy(out, v, sizeof v);
		return;
	}
	if (o->mods) {                    /* modify: abs, x2, minus one, negate */
		const q_u64x4 am = { o->abs_mask, o->abs_mask, o->abs_mask, o->abs_mask };
		const q_u64x4 nm = { o->neg_mask, o->neg_mask, o->neg_mask, o->neg_mask };
		*out = (q_f64x4)((q_u64x4)((q_f64x4)((q_u64x4)*out & am) * o->mul - o->sub) ^ nm);
	}
}

/* alu_slot_result's value of slot s (a run: values false) in out. */
GR3D_HOT void q_slot(const alu_pass *ap, const alu_slot *s, double out[GR3D_PIXELS], bool wide)
{
	q_f64x4 a, b, x, y, r;
	unsigned odd = 0;
	const q_f64x4 zero = Q_SPLAT(0.0), one = Q_SPLAT(1.0);
	switch (s->form) {
	case FORM_CONST:
		r = Q_SPLAT(s->xy);
		memcpy(out, &r, sizeof r);
		return;
	case FORM_PICK:
		q_fetch(ap, s->a.k < 0.0 ? &s->b : &s->c, &r, &odd, wide);
		break;
	case FORM_CSEL:
		q_fetch(ap, &s->a, &a, &odd, wide);
		q_fetch(ap, &s->b, &b, &odd, wide);
		q_fetch(ap, &s->c, &x, &odd, wide);
		r = Q_SEL(a < zero, b, x);
		break;
	case FORM_ADD_K:
		q_fetch(ap, &s->a, &a, &odd, wide);
		r = a + s->xy;
		break;
	case FORM_MAD_K:
		q_fetch(ap, &s->a, &a, &odd, wide);
		q_fetch(ap, &s->b, &b, &odd, wide);
		r = a * b + s->xy;
		break;
	default: {                        /* MAD, MIN, MAX */
		q_fetch(ap, &s->a, &a, &odd, wide);
		q_fetch(ap, &s->b, &b, &odd, wide);
		q_fetch(ap, &s->c, &x, &odd, wide);
		q_fetch(ap, &s->d, &y, &odd, wide);
		const q_f64x4 l = a * b, rr = x * y;
		r = s->form == FORM_MIN ? Q_SEL(l < rr, l, rr) : s->form == FORM_MAX ? Q_SEL(l > rr, l, rr) : l + rr;
		break;
	}
	}
	static const double scale[4] = { 1.0, 2.0, 4.0, 0.5 };
	const double sc = scale[s->scale];
	if (s->cc != TEGRA_CC_NONE) {     /* 0 or 1 */
		const q_f64x4 v = r * sc;
		const q_i64x4 m = s->cc == TEGRA_CC_EQ ? v == zero : s->cc == TEGRA_CC_GT ? v > zero : v >= zero;
		r = Q_SEL(m, one, zero);
		memcpy(out, &r, sizeof r);
		return;
	}
	if (s->scale)
		r *= sc;
	if (s->saturate)                  /* r < 0 ? 0 : r > 1 ? 1 : r (NaN stays) */
		r = Q_SEL(r < zero, zero, Q_SEL(r > one, one, r));
	memcpy(out, &r, sizeof r);
	if (s->exact) {
		if (odd)
			round_outliers(ap->c, out, wide);
	} else if (!s->unread) {
		round20_lanes(ap->c, out, wide);
	}
}

/* Every slot's value of packet p into cur (slots past nslots untouched);
 * returns the slots copy_reg formed (bit k), whose binary32 lanes are in
 * f32[k]. */
GR3D_HOT unsigned q_slots(const alu_pass *ap, const alu_packet *p, double cur[4][GR3D_PIXELS],
                          alu_f32x4 f32[4], bool wide)
{
	unsigned copied = 0;
	for (unsigned k = 0; k < p->nslots; k++) {
		if (p->slot[k].reg_copy && copy_reg(ap, &p->slot[k], cur[k], &f32[k]))
			copied |= 1u << k;
		else
			q_slot(ap, &p->slot[k], cur[k], wide);
	}
	return copied;
}

/* Built twice on x86-64, as alu_batch_exec is: for AVX2 (a q_f64x4 is one
 * register) and for plain x86-64; IEEE binary64 either way. */
#if defined(__x86_64__)
__attribute__((target("avx2"), noinline)) static unsigned q_slots_avx2(const alu_pass *ap, const alu_packet *p,
                                                                       double cur[4][GR3D_PIXELS], alu_f32x4 f32[4])
{
	return q_slots(ap, p, cur, f32, true);
}
#endif
__attribute__((noinline)) static unsigned q_slots_plain(const alu_pass *ap, const alu_packet *p,
                                                        double cur[4][GR3D_PIXELS], alu_f32x4 f32[4])
{
	return q_slots(ap, p, cur, f32, false);
}

/* The writes of a slot's value formed in binary32 lanes f (copy_reg: an
 * FP20 value in each lane), as write_slot and write_pair write the same
 * value from binary64: the FX10 halves through fx10_lanes (fx10_quad
 * takes the binary32 of each value, which is f), an FP20 word through
 * enc20_f32 (enc20_lanes' code of an FP20 value). */
static inline __attribute__((always_inline)) void write_pair_f32(const alu_unit *a, const gr3d_ctx *c, gr3d_quad *q, unsigned live, bool shadow,
                           const alu_slot *s, alu_f32x4 f0, alu_f32x4 f1)
{
	if (shadow)
		end_views(q, live, s[0].dst_index);
	uint32_t set[GR3D_PIXELS];
	alu_u32x4 e;
	if (s[0].unit01 && s[1].unit01)   /* values in [-0, 1] */
		e = fx10_lanes_unit(a, f0) << s[0].fx10_shift | fx10_lanes_unit(a, f1) << s[1].fx10_shift;
	else
		e = fx10_lanes(a, f0) << s[0].fx10_shift | fx10_lanes(a, f1) << s[1].fx10_shift;
	memcpy(set, &e, sizeof set);
	const uint32_t m = gr3d_fx_mask(c);
	write_row_bits(q, s[0].dst_index & (GR3D_ROW_REGS - 1), live, ~(m | m << gr3d_fx_shift(c)), set);
}

static inline __attribute__((always_inline)) void write_f32(const alu_unit *a, gr3d_quad *q, unsigned live, bool shadow, const alu_slot *s,
                      alu_f32x4 f)
{
	if (shadow && s->dst_cls == TEGRA_REG_ROW)
		end_views(q, live, s->dst_index);
	uint32_t set[GR3D_PIXELS];
	uint32_t keep = 0;
	if (s->wr == WR_FP20) {
		const alu_u32x4 e = enc20_f32(f);
		memcpy(set, &e, sizeof set);
	} else {                          /* WR_FX10 (not arith=exact: FX10_MASK at fx10_shift) */
		const alu_u32x4 e = (s->unit01 ? fx10_lanes_unit(a, f) : fx10_lanes(a, f)) << s->fx10_shift;
		memcpy(set, &e, sizeof set);
		keep = ~(FX10_MASK << s->fx10_shift);
	}
	write_bits(q, s->wr_off, live, keep, set);
}

/* Two adjacent slots that write the two FX10 halves of one row register
 * (alu_slot.pair_next): one pass over the register, the same bits as two. */
static void write_pair(const alu_unit *a, const gr3d_ctx *c, gr3d_quad *q, unsigned live,
                       bool shadow, const alu_slot *s, const double v0[GR3D_PIXELS],
                       const double v1[GR3D_PIXELS])
{
	if (shadow)
		end_views(q, live, s[0].dst_index);
	uint32_t e0[GR3D_PIXELS], e1[GR3D_PIXELS], set[GR3D_PIXELS];
	if (a->fx10_lanes && s[0].unit01 && s[1].unit01) {   /* values in [-0, 1] or NaNs */
		const alu_u32x4 e = fx10_unit_lanes(a, v0) << s[0].fx10_shift | fx10_unit_lanes(a, v1) << s[1].fx10_shift;
		memcpy(set, &e, sizeof set);
	} else {
		fx10_quad(a, c, v0, e0);
		fx10_quad(a, c, v1, e1);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			set[p] = e0[p] << s[0].fx10_shift | e1[p] << s[1].fx10_shift;
	}
	const uint32_t m = gr3d_fx_mask(c);
	write_row_bits(q, s[0].dst_index & (GR3D_ROW_REGS - 1), live, ~(m | m << gr3d_fx_shift(c)), set);
}

/* One slot's destination write for the live pixels (bit p of live).  Slot
 * by slot gives the same registers as pixel by pixel: every live pixel runs
 * the same slots, and a pixel's own writes stay in slot order. */
static void write_slot(const alu_unit *a, const gr3d_ctx *c, gr3d_ctx *wc, gr3d_quad *q,
                       unsigned live, bool shadow, const alu_slot *s, const double v[GR3D_PIXELS],
                       uint64_t *kills)
{
	const bool lo = s->write_low, hi = s->write_high;
	const unsigned i = s->dst_index;
	switch (s->dst_cls) {
	case TEGRA_REG_ROW: {
		const unsigned ri = i & (GR3D_ROW_REGS - 1);
		if (shadow)
			end_views(q, live, i);
		write_value(a, c, q, offsetof(gr3d_quad, r) + ri * sizeof q->r[0], live, lo, hi, v);
		break;
	}
	case TEGRA_REG_GLOBAL:
		write_value(a, c, q, offsetof(gr3d_quad, g) + (i & 7u) * sizeof q->g[0], live, lo, hi, v);
		break;
	case TEGRA_REG_UNIFORM: {  /* u0..u7 as a destination (tegra-fp.md §2.3): the shared file */
		const unsigned k = i & 31u;
		for (unsigned p = 0; p < GR3D_PIXELS && wc; p++)
			if ((live >> p) & 1u) {
				gr3d_write_reg_hw(c, &wc->uniforms[k], v[p], lo, hi);
				wc->xuniform[k] = (float)v[p];   /* the last live pixel's, as the word */
			}
		/* arith=exact: an FP20 write keeps the ALU's binary32 beside the word
		 * (read back by gr3d_uniform20); an FX10 half write leaves the word
		 * the register holds (its other half is the earlier value's) */
		if (wc && live && c->exact && lo && hi)
			wc->xuniform_mask |= 1u << k;
		else if (wc && live)
			wc->xuniform_mask &= ~(1u << k);
		break;
	}
	case TEGRA_REG_COND:       /* the two write bits select the half (tegra-fp.md §2.3) */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if ((live >> p) & 1u)
				gr3d_write_reg(c, &q->cr[i & 7u][p], v[p], !hi, hi);
		break;
	case TEGRA_REG_KILL:
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			if (((live >> p) & 1u) && v[p] != 0.0 && !q->killed[p] && !q->exec_killed[p]) {
				if (c->cfg->tegra_kill_this_exec)
					q->exec_killed[p] = true;
				else
					q->killed[p] = true;
				(*kills)++;
			}
		}
		break;
	default:                   /* lp, read-only registers: discarded */
		break;
	}
}

/* Does write_slot discard a write to this class (lp, read-only registers)? */
static bool discarded(unsigned cls)
{
	return cls != TEGRA_REG_ROW && cls != TEGRA_REG_GLOBAL && cls != TEGRA_REG_UNIFORM &&
	       cls != TEGRA_REG_COND && cls != TEGRA_REG_KILL;
}

/* A constant slot written to a row or global register (a planned write or
 * half of a pair) whose value is zero or a normal FP20 number, which
 * write_f32 and write_pair_f32 write from its binary32 as write_slot and
 * write_pair do from binary64: planned as copy_packet's copy of r0's FX10
 * low half with every bit masked off, its sign set and the constant added
 * (+-0 + xy with the sign of xy is xy, bit for bit), no clamp. */
static void plan_const_copy(const gr3d_ctx *c, alu_slot *s)
{
	double v[GR3D_PIXELS] = { s->xy, s->xy, s->xy, s->xy };
	uint32_t w[GR3D_PIXELS];
	gr3d_enc20_quad(c, v, w);
	const uint32_t ex = w[0] & FP20_EXP_MASK;
	const double back = gr3d_fp20(w[0]);
	const float f = (float)s->xy;
	if (s->form != FORM_CONST || s->dst_cls > TEGRA_REG_GLOBAL || (f != s->xy) ||
	    memcmp(&back, &s->xy, sizeof back) || !(s->xy == 0.0 || (ex && ex != FP20_EXP_MASK)))
		return;
	s->cp_const = true;
	s->cp_fx = 1;
	s->cp_shadow = false;
	s->copy_off = (uint16_t)offsetof(gr3d_quad, r);
	for (unsigned p = 0; p < 4; p++) {
		s->cp_and[p] = 0u;
		s->cp_xor[p] = signbit(s->xy) ? 0x80000000u : 0u;
		s->cp_add[p] = f;
		s->cp_lo[p] = -INFINITY;
		s->cp_hi[p] = INFINITY;
	}
}

/* A packet of register copies only (alu_packet.copies): copy_reg's steps
 * for each slot (with TEX's pre-fetch view) as straight-line lane
 * operations, with what it tests per slot planned into masks and
 * bounds (alu_slot.cp_*: abs and negate as bit masks; an addend of -0,
 * which gives every number back, where copy_reg adds nothing; a clamp to
 * -inf and inf, which gives every number back, where it does not
 * saturate; no lane is a NaN, as copy_reg forms only FP20 values), then
 * the writes from the binary32 lanes (write_pair_f32, write_f32), as
 * run_packet makes them.  Slots from alu_packet.copy_n on are constants
 * whose writes write_slot discards (alu_slot.cp_nop, a NOP into lp): only
 * their aluK values, slot.xy.  A constant written to a register
 * (alu_slot.cp_const) runs as a copy whose read is masked off.  The aluK values only when the next packet reads
 * them (alu_packet.copy_vals).  Returns false, having written nothing,
 * when a word is one copy_reg declines (a subnormal read, inf, NaN):
 * run_packet then runs the packet itself. */
static bool copy_packet(const alu_pass *ap, const alu_packet *p, double cur[4][GR3D_PIXELS], unsigned live)
{
	const alu_unit *a = ap->unit;
	gr3d_quad *q = ap->q;
	const unsigned n = p->copy_n;     /* (then constants whose writes are discarded) */
	const bool view = p->copy_view && ap->shadow;
	alu_f32x4 f32[4];
	for (unsigned k = 0; k < n; k++) {
		const alu_slot *s = &p->slot[k];
		const uint32_t *raw = (const uint32_t *)(const void *)((const uint8_t *)q + s->copy_off);
		uint32_t seen[GR3D_PIXELS];
		if (view && s->cp_shadow) {   /* read_raw's pre-fetch view */
			memcpy(seen, raw, sizeof seen);
			shadow_words(q, s->cp_index, seen);
			raw = seen;
		}
		alu_f32x4 f;
		if (s->cp_fx) {
			f = fx10_lanes_in(raw, s->cp_fx);
		} else {
			alu_u32x4 w;
			memcpy(&w, raw, sizeof w);
			bool special, other;
			f = (alu_f32x4)fp20_lanes_bits(ap->subnormals, w, &special, &other);
			if (other)
				return false;
		}
		alu_u32x4 am, xm;
		alu_f32x4 add, lo, hi;
		memcpy(&am, s->cp_and, sizeof am);
		memcpy(&xm, s->cp_xor, sizeof xm);
		memcpy(&add, s->cp_add, sizeof add);
		memcpy(&lo, s->cp_lo, sizeof lo);
		memcpy(&hi, s->cp_hi, sizeof hi);
		f = (alu_f32x4)(((alu_u32x4)f & am) ^ xm) + add;
		f32[k] = clamp_f32x4(f, lo, hi);
	}
	if (p->copy_vals) {
		for (unsigned k = 0; k < n; k++)
			for (unsigned px = 0; px < GR3D_PIXELS; px++)
				cur[k][px] = f32[k][px];
		for (unsigned k = n; k < p->nslots; k++)
			for (unsigned px = 0; px < GR3D_PIXELS; px++)
				cur[k][px] = p->slot[k].xy;
		if (p->nslots < 4)
			memset(cur[p->nslots], 0, sizeof cur[p->nslots]);
	}
	for (unsigned k = 0; k < n; k++) {
		if (p->slot[k].pair_next) {
			write_pair_f32(a, ap->c, q, live, ap->shadow, &p->slot[k], f32[k], f32[k + 1]);
			k++;
		} else {
			write_f32(a, q, live, ap->shadow, &p->slot[k], f32[k]);
		}
	}
	return true;
}

/* The pixels the packets run on: not killed (bit p). */
static unsigned live_pixels(const gr3d_quad *q)
{
	return gr3d_mask4(~gr3d_flags4(q->killed));
}

/* Does some pixel hold TEX's pre-fetch view (tegra.tex.fp20_reads_see_coords)? */
static bool any_shadow(const gr3d_quad *q)
{
	const gr3d_pixel *px = q->px;
	return (px[0].tex_shadow | px[1].tex_shadow | px[2].tex_shadow | px[3].tex_shadow) != 0;
}

/* run_kern's kernel with some pixel's pre-fetch view held and rows
 * written: when it runs, it ends the live pixels' views of those rows, as
 * write_f32 does (after the writes: the kernel reads no viewed row). */
static __attribute__((noinline)) bool run_kern_views(const alu_unit *a, const alu_packet *p, const alu_copy_kern *k,
                                                      gr3d_quad *q, unsigned live)
{
#if defined(__x86_64__)
	const bool ran = a->avx2 ? alu_copy_run_avx2(a, p, k, q, live) : alu_copy_run_plain(a, p, k, q, live);
#else
	const bool ran = alu_copy_run_plain(a, p, k, q, live);
#endif
	if (ran)
		for (unsigned m = k->view_rows; m; m &= m - 1)
			end_views(q, live, (unsigned)__builtin_ctz(m));
	return ran;
}

/* Packet p as its kernel (alu_packet.kern, alu_copy.c) on the live
 * pixels (not 0); shadow: some pixel may hold TEX's pre-fetch view.  False:
 * not run, nothing written. */
static inline bool run_kern(const alu_unit *a, const alu_packet *p, gr3d_quad *q, unsigned live, bool shadow)
{
	const alu_copy_kern *k = &a->kern[p->kern - 1];
	if (shadow && !k->shadow_ok)
		return false;
	if (shadow && k->view_rows)       /* its row writes end the live pixels' views (write_f32) */
		return run_kern_views(a, p, k, q, live);
#if defined(__x86_64__)
	if (a->avx2)
		return alu_copy_run_avx2(a, p, k, q, live);
#endif
	return alu_copy_run_plain(a, p, k, q, live);
}

/* One packet: prev holds the aluK values of the previous packet, cur
 * receives this packet's (slots past nslots read as 0).  It runs on the
 * pixels of live and returns them without the ones a sticky kill took out;
 * shadow says whether some pixel may still hold TEX's pre-fetch view (only
 * writes end one). */
static unsigned run_packet(alu_pass *ap, gr3d_ctx *wc, const alu_packet *p, double cur[4][GR3D_PIXELS],
                           uint64_t *kills, unsigned live)
{
	const alu_unit *a = ap->unit;
	const gr3d_ctx *c = ap->c;
	gr3d_quad *q = ap->q;
	const unsigned n = p->nslots;
	ap->shadow = ap->shadow && any_shadow(q);
	if (ap->kern && p->kern && run_kern(a, p, q, live, ap->shadow))
		return live;                  /* (copies or products as the packet's kernel) */
	if (ap->quad && p->copies && copy_packet(ap, p, cur, live))
		return live;                  /* (copies write rows and globals: no kill) */
	alu_f32x4 f32[4];
	unsigned copied = 0;                           /* the slots copy_reg formed (bit k) */
	if (ap->quad && p->vectors && !ap->shadow) {   /* the vector form (q_slots) */
#if defined(__x86_64__)
		if (a->avx2)
			copied = q_slots_avx2(ap, p, cur, f32);
		else
#endif
			copied = q_slots_plain(ap, p, cur, f32);
	} else {
		for (unsigned k = 0; k < n; k++) {
			if (p->slot[k].reg_copy && copy_reg(ap, &p->slot[k], cur[k], &f32[k]))
				copied |= 1u << k;
			else
				alu_slot_result(ap, &p->slot[k], cur[k]);
		}
	}
	if (!a->fx10_lanes)               /* the FX10 writes from binary32 lanes need them */
		copied = 0;
	if (n < 4)
		memset(cur[n], 0, sizeof cur[n]);
	if (p->groups) {
		copied = 0;                   /* a group's head takes the rounded sum */
		for (unsigned k = 0; k < n; k++) {
			if (p->group_head[k] != (int)k)
				continue;
			double sum[GR3D_PIXELS] = { 0.0, 0.0, 0.0, 0.0 };   /* members in slot order */
			for (unsigned j = k; j < n; j++)
				if (p->group_head[j] == (int)k)
					for (unsigned px = 0; px < GR3D_PIXELS; px++)
						sum[px] += cur[j][px];
			for (unsigned px = 0; px < GR3D_PIXELS; px++)
				cur[k][px] = gr3d_round20(c, sum[px]);
		}
	}
	/* register writes land at the end of the packet (xf86 swaps r2.l/r3.l in one packet);
	 * with no live pixel each write leaves everything as it is */
	const uint64_t before = *kills;
	for (unsigned k = 0; k < n; k++) {
		if (p->slot[k].pair_next) {
			if (((copied >> k) & 3u) == 3u)
				write_pair_f32(a, c, q, live, ap->shadow, &p->slot[k], f32[k], f32[k + 1]);
			else
				write_pair(a, c, q, live, ap->shadow, &p->slot[k], cur[k], cur[k + 1]);
			k++;
		} else if (((copied >> k) & 1u) && p->slot[k].wr != WR_OTHER) {
			write_f32(a, q, live, ap->shadow, &p->slot[k], f32[k]);
		} else {
			write_slot(a, c, wc, q, live, ap->shadow, &p->slot[k], cur[k], kills);
		}
	}
	if (*kills != before)             /* tegra.alu.kill_this_exec off: killed for good */
		live = live_pixels(q);
	return live;
}

unsigned alu_run_packet(const alu_unit *a, const gr3d_ctx *c, gr3d_ctx *wc, const alu_packet *p,
                        gr3d_quad *q, double alu[4][GR3D_PIXELS], uint64_t *kills, bool values)
{
	double cur[4][GR3D_PIXELS];
	alu_pass ap = { .unit = a, .c = c, .q = q, .prev = (const double (*)[GR3D_PIXELS])alu,
	                .cur = (const double (*)[GR3D_PIXELS])cur, .subnormals = a->subnormals, .shadow = true,
	                .values = values };
	run_packet(&ap, wc, p, cur, kills, live_pixels(q));
	memcpy(alu, cur, sizeof cur);
	return p->nslots;
}

/* Covered pixels killed now that were alive before the EXEC (dead). */
static unsigned killed_now(const gr3d_quad *q, unsigned dead)
{
	const unsigned m = gr3d_mask4(gr3d_flags4(q->covered) & (gr3d_flags4(q->killed) | gr3d_flags4(q->exec_killed)));
	return m & ~dead;
}

/* The ALU's view of the rows at the start of EXEC e (tegra.alu.batch_view,
 * docs/tegra-units.md "Batches"): a batch start loads every row, another
 * EXEC the row it carries, each as it is now.  Only the registers a later
 * EXEC reads through the view are copied (alu_unit.view_load, plan_views). */
static void load_view(const alu_unit *a, gr3d_quad *q, unsigned e)
{
	const uint16_t m = a->view_load[e];
	for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
		if ((m >> i) & 1u)
			memcpy(q->view[i], q->r[i], sizeof q->view[i]);
}

static inline uint64_t slot_ops(const alu_unit *a, unsigned e, unsigned live)
{
	/* every packet counts its slots for the pixels live when the EXEC began */
	const unsigned alive = (unsigned)(UINT64_C(0x4332322132212110) >> (4 * live)) & 0xFu;   /* bits of live */
	return (uint64_t)a->slots[e] * alive;
}

/* The packets of EXEC e (count of them) on quad q. */
static __attribute__((noinline)) void run_exec(alu_unit *a, gr3d_quad *q, unsigned e, unsigned count)
{
	gr3d_stage *s = &a->s;
	uint64_t kills = 0;
	unsigned live = live_pixels(q);
	const unsigned dead = ~live & 0xFu;
	sim_unit_count(&s->u, ALU_CTR_INSTRUCTIONS, slot_ops(a, e, live));
	if (!live)
		return;
	double buf[2][4][GR3D_PIXELS];              /* aluK: previous and current packet */
	if (a->pk[e][0].reads_prev)                 /* aluK read as 0 at the start of an EXEC */
		memset(buf[0], 0, sizeof buf[0]);
	/* the packets of the EXEC share one pass; only ALU writes end a pre-fetch view */
	alu_pass ap = { .unit = a, .c = s->ctx, .q = q, .subnormals = a->subnormals, .shadow = true,
	                .quad = a->quad_vectors, .kern = a->quad_vectors && !a->kexec[e] };
	/* once no pixel is live, the packets left write nothing: they are skipped */
	for (unsigned i = 0; i < count && live; i++) {
		ap.prev = (const double (*)[GR3D_PIXELS])buf[i & 1];
		ap.cur = (const double (*)[GR3D_PIXELS])buf[(i & 1) ^ 1];
		live = run_packet(&ap, s->ctx, &a->pk[e][i], buf[(i & 1) ^ 1], &kills, live);
	}
	if (kills) {   /* the pixels this EXEC killed: an INSTANT, arg = EXEC | pixel mask << 8 */
		sim_unit_count(&s->u, ALU_CTR_KILLS, kills);
		sim_tl_emit(s->u.tl, s->now, s->u.lane, SIM_TL_INSTANT, q->id, e | killed_now(q, dead) << 8);
	}
}

/* An EXEC with no packets (most of the xf86 programs' EXECs) only loads the
 * batch view: the packets' work is out of line. */
static inline unsigned clocks(const alu_unit *a, unsigned e)
{
	const unsigned count = a->packets[e];
	return count ? a->s.quad_clocks * count : a->s.quad_clocks;   /* count 0 still takes a clock (wiki) */
}

static unsigned alu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	alu_unit *a = (alu_unit *)s;
	const unsigned count = a->packets[e];
	if (a->view_load[e])                    /* also with no packets: a batch start */
		load_view(a, q, e);
	if (!count)
		return clocks(a, e);
	sim_unit_count(&s->u, ALU_CTR_PACKETS, count);
	if (a->kexec[e] && a->quad_vectors) {   /* one packet, a kernel: run_exec's work, no pass
		                                         * (where it declines, run_exec does not try again) */
		const unsigned live = live_pixels(q);
		if (live && run_kern(a, &a->pk[e][0], q, live, any_shadow(q))) {
			sim_unit_count(&s->u, ALU_CTR_INSTRUCTIONS, slot_ops(a, e, live));
			return clocks(a, e);
		}
	}
	run_exec(a, q, e, count);
	return clocks(a, e);
}
/* alu_slot.h's pieces for the batch (alu_batch.c, ahead.c) */
unsigned alu_live_pixels(const gr3d_quad *q) { return live_pixels(q); }
bool alu_any_shadow(const gr3d_quad *q) { return any_shadow(q); }

bool alu_writes(const alu_unit *a, unsigned cls)
{
	const unsigned n = a->s.ctx->prog->exec_count;
	for (unsigned e = 0; e < n && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < a->packets[e] && i < TEGRA_FP_MAX_PER_EXEC; i++)
			for (unsigned k = 0; k < a->pk[e][i].nslots; k++)
				if (a->pk[e][i].slot[k].dst_cls == cls)
					return true;
	return false;
}
void alu_load_view(const alu_unit *a, gr3d_quad *q, unsigned e) { load_view(a, q, e); }
uint64_t alu_slot_ops(const alu_unit *a, unsigned e, unsigned live) { return slot_ops(a, e, live); }
unsigned alu_clocks(const alu_unit *a, unsigned e) { return clocks(a, e); }

void alu_init(alu_unit *a, gr3d_ctx *ctx)
{
	gr3d_stage_init(&a->s, "alu", ctx, ALU_COUNTERS, ALU_CTR_COUNT);
	a->s.exec = alu_exec;
	a->batch_view = ctx->rows > 1 && ctx->cfg->tegra_alu_batch_view;
	a->subnormals = ctx->cfg->tegra_fp20_subnormals;
	a->quad_vectors = !ctx->exact;
#if defined(__x86_64__)
	a->avx2 = __builtin_cpu_supports("avx2");
#endif
	a->fx10_lanes = !ctx->exact &&
	                (ctx->fx10_round == ULP_ROUND_NEAREST_AWAY || ctx->fx10_round == ULP_ROUND_TRUNCATE);
	a->fx10_half = ctx->fx10_round == ULP_ROUND_NEAREST_AWAY ? 0.5f : 0.0f;
	a->fx10_lim_pos = ctx->fx10_wrap ? 1e9f : 511.0f;
	a->fx10_lim_neg = ctx->fx10_wrap ? 1e9f : 512.0f;
	alu_plan_draw(a, ctx);
	alu_batch_plan(a);
	a->nkern = 0;
	memset(a->kexec, 0, sizeof a->kexec);
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < a->packets[e] && i < TEGRA_FP_MAX_PER_EXEC; i++) {
			alu_packet *p = &a->pk[e][i];
			for (unsigned k = 0; k < p->nslots; k++)
				p->vectors |= !p->slot[k].reg_copy && p->slot[k].form != FORM_CONST;
			/* copy_packet: every slot a copy (or a constant planned as one), written as a
			 * pair or with a planned write */
			/* (then, from copy_n on, constants whose writes are discarded: cp_nop) */
			p->copies = a->fx10_lanes && !p->groups;
			p->copy_n = p->nslots;
			while (p->copy_n && p->slot[p->copy_n - 1].form == FORM_CONST &&
			       discarded(p->slot[p->copy_n - 1].dst_cls))
				p->slot[--p->copy_n].cp_nop = true;
			for (unsigned k = 0; k < p->copy_n; k++)
				plan_const_copy(ctx, &p->slot[k]);
			for (unsigned k = 0; k < p->copy_n; k++) {
				const alu_slot *s = &p->slot[k];
				p->copies &= (s->reg_copy || s->cp_const) && (s->pair_next || s->wr != WR_OTHER);
				k += s->pair_next;
				p->copies &= !s->pair_next || s[1].reg_copy || s[1].cp_const;
				p->copy_view |= s->cp_shadow || (s->pair_next && s[1].cp_shadow);
			}
			p->copy_vals = i + 1 < a->packets[e] && i + 1 < TEGRA_FP_MAX_PER_EXEC && a->pk[e][i + 1].reads_prev;
			alu_copy_plan(a, ctx, p);
			a->kexec[e] = a->packets[e] == 1 && p->kern && !p->reads_prev;
		}
}
