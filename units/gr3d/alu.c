/* ALU: packets of four scalar slots (alu.h). */
#include "units/gr3d/alu_slot.h"

#include <math.h>
#include <stddef.h>

const sim_counter_def ALU_COUNTERS[ALU_CTR_COUNT] = {
	[ALU_CTR_PACKETS] = { "packets", "ALU packets run (per quad)" },
	[ALU_CTR_INSTRUCTIONS] = { "instructions", "slot operations (per pixel)" },
	[ALU_CTR_KILLS] = { "kills", "kill writes that discarded a pixel" },
};

/* An FX10 half (the low 10 bits) as an operand: gr3d_fx10's value, a
 * 10-bit two's complement number / 256 (a uniform; fx10_lanes_in reads a
 * register's four). */
GR3D_HOT double fx10_value(uint32_t bits)
{
	return (double)fx10_sext(bits) * 0x1p-8;
}

/* Four binary32 or int32 lanes in one SSE2 register (the compiler's vector
 * types, GCC and Clang), and a lane-wise choice by a comparison's mask. */
typedef float alu_f32x4 __attribute__((vector_size(16)));
typedef int32_t alu_i32x4 __attribute__((vector_size(16)));
typedef uint32_t alu_u32x4 __attribute__((vector_size(16)));

static inline alu_f32x4 select_f32x4(alu_i32x4 m, alu_f32x4 yes, alu_f32x4 no)
{
	return (alu_f32x4)(((alu_i32x4)yes & m) | ((alu_i32x4)no & ~m));
}

/* Four FX10 halves (fx = 1 .l, 2 .h, alu_operand.fx) as operands:
 * fx10_value's n / 256 in binary32 lanes, exact (|n| <= 512).  A
 * 1024-entry table measured slower (four scalar loads). */
GR3D_HOT alu_f32x4 fx10_lanes_in(const uint32_t raw[GR3D_PIXELS], unsigned fx)
{
	alu_u32x4 w;
	memcpy(&w, raw, sizeof w);
	const alu_i32x4 n = (alu_i32x4)(((w >> (fx == 2 ? FX10_HIGH_SHIFT : 0u)) & FX10_MASK) ^ FX10_SIGN) -
	                    (int32_t)FX10_SIGN;               /* fx10_sext on four lanes */
	return __builtin_convertvector(n, alu_f32x4) * 0x1p-8f;
}

/* A register operand's four raw words, as the ALU sees them: through the
 * batch view, and with TEX's pre-fetch view. */
GR3D_HOT void read_raw(const alu_pass *ap, const alu_operand *o, uint32_t raw[GR3D_PIXELS])
{
	const gr3d_quad *q = ap->q;
	if (o->view)                    /* tegra.alu.batch_view (plan_views) */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			raw[p] = q->view[p][o->index];
	else
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			memcpy(&raw[p], (const uint8_t *)&q->px[p] + o->off, sizeof raw[p]);
	if (o->shadow && ap->shadow)    /* tegra.tex.fp20_reads_see_coords */
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			const gr3d_pixel *px = &q->px[p];
			if (!px->tex_shadow)
				continue;
			if ((px->tex_shadow & 1u) && px->tex_reg[0] == o->index)
				raw[p] = px->tex_old[0];
			else if ((px->tex_shadow & 2u) && px->tex_reg[1] == o->index)
				raw[p] = px->tex_old[1];
		}
}

/* A register operand's four words: FP20 or one FX10 half.  *odd is set
 * when an FP20 word has exponent 0 or 63 (zero, a subnormal read, inf,
 * NaN): the values that are not normal FP20 numbers. */
GR3D_HOT void read_reg(const alu_pass *ap, const alu_operand *o, double out[GR3D_PIXELS], unsigned *odd)
{
	uint32_t raw[GR3D_PIXELS];      /* a 20-bit register of each pixel */
	read_raw(ap, o, raw);
	if (ap->c->exact) {             /* arith=exact: binary32 words, 16-bit halves */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = o->fx ? gr3d_xfx(raw[p], o->fx == 2) : gr3d_xf32(raw[p]);
		return;
	}
	if (o->fx) {
		const alu_f32x4 f = fx10_lanes_in(raw, o->fx);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = f[p];
	} else {
		/* fp20_is_special and fp20_f32_bits_normal on four lanes (copy_reg);
		 * a quad with an odd word takes gr3d_fp20_quad's per-word path */
		alu_u32x4 w;
		memcpy(&w, raw, sizeof w);
		const alu_u32x4 e = (w >> FP20_EXP_SHIFT) & FP20_EXP_MAX;
		const alu_u32x4 sp = (alu_u32x4)(e - 1u >= FP20_EXP_MAX - 1u);
		if (sp[0] | sp[1] | sp[2] | sp[3]) {
			*odd = 1;
			gr3d_fp20_quad(ap->subnormals, raw, out);
			return;
		}
		const alu_f32x4 f = (alu_f32x4)(((w << (31 - FP20_SIGN_SHIFT)) & 0x80000000u) |
		                                (e + FP20_F32_REBIAS) << 23 | (w & FP20_MANT_MASK) << FP20_F32_SHIFT);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = f[p];
	}
}

/* One operand for the four pixels of a quad.  *odd is set when a value may
 * not be a normal FP20 number or zero: an FP20 word with exponent 0 or 63,
 * and any aluK value (not looked at).  FX10 reads and constants never set it. */
GR3D_HOT void fetch(const alu_pass *ap, const alu_operand *o, double out[GR3D_PIXELS], unsigned *odd)
{
	const gr3d_ctx *c = ap->c;
	const gr3d_quad *q = ap->q;
	switch (o->kind) {
	case OPD_CONST:                   /* modifiers folded by alu_compile */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = o->k;
		return;
	case OPD_REG:
		read_reg(ap, o, out, odd);
		break;
	case OPD_ALU:
		*odd = 1;
		memcpy(out, o->cur ? ap->cur[o->index] : ap->prev[o->index], sizeof(double) * GR3D_PIXELS);
		break;
	case OPD_UNIFORM: {               /* one value for the quad: decode it once */
		const uint32_t u = c->uniforms[o->index];
		const double v = o->fx ? fx10_value(u >> (o->fx == 2 ? FX10_HIGH_SHIFT : 0u))
		               : gr3d_uniform20(c, o->index, fp20_read(ap->subnormals, u));
		*odd |= !o->fx && fp20_is_special(u);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = v;
		break;
	}
	case OPD_POSX:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->x + (p & 1u) + c->cfg->tegra_pos_offset;
		break;
	case OPD_POSY:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->y + (p >> 1) + c->cfg->tegra_pos_offset;
		break;
	default:                          /* pface */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->px[p].front ? 1.0 : -1.0;
		break;
	}
	if (o->mods)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = modify(o, out[p]);
}

/* gr3d_round20_quad for a result that, in gr3d_fp20_fast's range, FP20
 * holds already (slot.exact, plan_slot): rounding gives those values back,
 * so only the others (zero, the ends of the range, inf, NaN) take
 * gr3d_round20.  The range test is gr3d_round20_quad's, on the high word. */
GR3D_HOT void round_outliers(const gr3d_ctx *c, double r[GR3D_PIXELS])
{
	uint64_t b[GR3D_PIXELS];
	memcpy(b, r, sizeof b);
	uint32_t slow = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		slow |= ((uint32_t)(b[p] >> 32) & 0x7FFFFFFFu) - ((1023u - 29u) << 20) >= (60u << 20);
	if (slow)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if (!gr3d_fp20_fast(b[p] & ~(UINT64_C(1) << 63)))
				r[p] = gr3d_round20(c, r[p]);
}

/* FX10 halves of four slot results (fx10.round, fx10.overflow): the rule of
 * gr3d_fx10_bits in four binary32 lanes of one vector.
 * Every slot result is an FP20 value (rounded to FP20, or a condition's 0
 * or 1), so it is exact as a binary32 and so is |v| * 256 (14 significant
 * bits at most) and the 1e9 clamp.  With truncation nothing else happens.
 * With nearest-away, s + 0.5 is exact below 2^23 (at most 24 bits from
 * s's top bit down to 0.5 or s's last bit); from 2^23 up s is a multiple of
 * 1024 and s + 0.5 rounds back to s, which truncates as s + 0.5 does.
 * The clamps come before the conversion, as one limit on s + 0.5 (or s):
 * truncation is monotonic, so for a limit L that is a whole number
 * min(trunc(x), L) = trunc(min(x, L)) with x >= 0.  L is 511, or 512 for a
 * negative v (fx10.overflow clamp), or 1e9, which (s + 0.5 rounding to
 * 1e9 from s = 1e9 up) is the 1e9 clamp too (wrap).
 * tests/units/test_alu_plan.c checks every FP20 code against gr3d_fx10_bits.
 * Round-to-even takes gr3d_fx10_bits_quad.  alu_init sets the lanes up. */
GR3D_HOT alu_u32x4 fx10_lanes(const alu_unit *a, alu_f32x4 f)
{
	alu_f32x4 s = (alu_f32x4)((alu_i32x4)f & 0x7FFFFFFF) * 256.0f;          /* |v| * 256 */
	s = (alu_f32x4)((alu_i32x4)s & (s == s));                                  /* NaN: 0 */
	const alu_i32x4 neg = f < 0.0f;
	const float ln = a->fx10_lim_neg, lp = a->fx10_lim_pos;
	const alu_f32x4 lim = select_f32x4(neg, (alu_f32x4){ ln, ln, ln, ln }, (alu_f32x4){ lp, lp, lp, lp });
	s = s + a->fx10_half;
	s = select_f32x4(s > lim, lim, s);                                         /* the clamps */
	alu_i32x4 n = __builtin_convertvector(s, alu_i32x4);
	n = (n ^ neg) - neg;                                                      /* -n when v < 0 */
	return (alu_u32x4)n & FX10_MASK;
}

GR3D_HOT void fx10_quad(const alu_unit *a, const gr3d_ctx *c, const double v[GR3D_PIXELS],
                        uint32_t enc[GR3D_PIXELS])
{
	if (!a->fx10_lanes) {           /* also arith=exact (alu_init) */
		gr3d_encfx_quad(c, v, enc);
		return;
	}
	const alu_u32x4 n = fx10_lanes(a, (alu_f32x4){ (float)v[0], (float)v[1], (float)v[2], (float)v[3] });
	memcpy(enc, &n, sizeof n);
}

/* A slot that copies a register operand (alu_slot.reg_copy): the operand
 * as read, with abs and negate, plus slot.xy (+-0) for FORM_ADD_K, then
 * saturated when the slot says so (a clamp to 0 or 1 is exact), formed in
 * binary32 lanes with no double steps.  An FX10 half is n / 256 and a
 * normal FP20 word (exponent 1..62) is gr3d_fp20's binary32, both exact,
 * so every step gives alu_slot_result's value: fx10_value or
 * gr3d_fp20_quad, modify (x1 and -0 are exact), the sum with +-0, and no
 * rounding (the slot is exact and no word read is odd).  Returns false,
 * having done nothing, when an FP20 word has exponent 0 or 63: then
 * alu_slot_result forms the slot. */
GR3D_HOT bool copy_reg(const alu_pass *ap, const alu_slot *s, double out[GR3D_PIXELS])
{
	const alu_operand *o = s->copy_src == 0 ? &s->a : s->copy_src == 1 ? &s->b : &s->c;
	uint32_t raw[GR3D_PIXELS];
	read_raw(ap, o, raw);
	alu_u32x4 w;
	memcpy(&w, raw, sizeof w);
	alu_f32x4 f;
	if (o->fx) {
		f = fx10_lanes_in(raw, o->fx);
	} else {
		/* fp20_is_special and fp20_f32_bits_normal on four lanes */
		const alu_u32x4 e = (w >> FP20_EXP_SHIFT) & FP20_EXP_MAX;
		const alu_u32x4 odd = (alu_u32x4)(e - 1u >= FP20_EXP_MAX - 1u);
		if (odd[0] | odd[1] | odd[2] | odd[3])           /* GCC and Clang alike */
			return false;
		f = (alu_f32x4)(((w << (31 - FP20_SIGN_SHIFT)) & 0x80000000u) | (e + FP20_F32_REBIAS) << 23 |
		                (w & FP20_MANT_MASK) << FP20_F32_SHIFT);
	}
	f = (alu_f32x4)(((alu_u32x4)f & (o->abs ? 0x7FFFFFFFu : ~0u)) ^ (o->neg ? 0x80000000u : 0u));
	if (s->form == FORM_ADD_K)
		f = f + (float)s->xy;
	if (s->saturate) {              /* alu_slot_result's r < 0 ? 0 : r > 1 ? 1 : r, exact */
		const alu_f32x4 zero = { 0.0f, 0.0f, 0.0f, 0.0f }, one = { 1.0f, 1.0f, 1.0f, 1.0f };
		f = select_f32x4(f < zero, zero, select_f32x4(f > one, one, f));
	}
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		out[p] = f[p];
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
				round_outliers(ap->c, r);
		} else if (!s->unread || ap->values) {   /* else the FP20 write rounds it (plan_unread) */
			gr3d_round20_quad(ap->c, r);
		}
	}
	memcpy(out, r, sizeof r);
}

/* A write to row register i ends the live pixels' pre-fetch view of it. */
GR3D_HOT void end_views(gr3d_quad *q, unsigned live, unsigned i)
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		if (px->tex_shadow && ((live >> p) & 1u))
			for (unsigned k = 0; k < 2; k++)
				if (px->tex_reg[k] == i)
					px->tex_shadow &= (uint8_t)~(1u << k);
	}
}

/* The register word at byte offset off in each live pixel (row, global):
 * the bits outside keep become set[p]. */
GR3D_HOT void write_bits(gr3d_quad *q, size_t off, unsigned live, uint32_t keep,
                         const uint32_t set[GR3D_PIXELS])
{
	uint8_t *b = (uint8_t *)q->px + off;
	if (live == 0xFu)                      /* all four: no test per pixel */
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			uint32_t *w = (uint32_t *)(void *)(b + p * sizeof(gr3d_pixel));
			*w = (*w & keep) | set[p];
		}
	else
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if ((live >> p) & 1u) {
				uint32_t *w = (uint32_t *)(void *)(b + p * sizeof(gr3d_pixel));
				*w = (*w & keep) | set[p];
			}
}

/* Row register ri of the live pixels: the bits outside keep become set[p]. */
GR3D_HOT void write_row_bits(gr3d_quad *q, unsigned ri, unsigned live, uint32_t keep,
                             const uint32_t set[GR3D_PIXELS])
{
	write_bits(q, offsetof(gr3d_pixel, r) + ri * sizeof(uint32_t), live, keep, set);
}

/* One value per pixel into the register word at off: both halves (lo and
 * hi) as FP20, one half as FX10 (shift 0 or gr3d_fx_shift), gr3d_write_reg's
 * rule on four pixels, in ctx's arithmetic (arith=exact: binary32 words,
 * 16-bit halves). */
GR3D_HOT void write_value(const alu_unit *a, const gr3d_ctx *c, gr3d_quad *q, size_t off, unsigned live,
                          bool lo, bool hi, const double v[GR3D_PIXELS])
{
	uint32_t enc[GR3D_PIXELS];
	if (lo && hi) {
		gr3d_enc20_quad(c, v, enc);
		write_bits(q, off, live, 0, enc);
	} else if (lo || hi) {
		const unsigned sh = hi ? gr3d_fx_shift(c) : 0u;
		fx10_quad(a, c, v, enc);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			enc[p] <<= sh;
		write_bits(q, off, live, ~(gr3d_fx_mask(c) << sh), enc);
	}
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
	fx10_quad(a, c, v0, e0);
	fx10_quad(a, c, v1, e1);
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		set[p] = e0[p] << s[0].fx10_shift | e1[p] << s[1].fx10_shift;
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
		write_value(a, c, q, offsetof(gr3d_pixel, r) + ri * sizeof(uint32_t), live, lo, hi, v);
		break;
	}
	case TEGRA_REG_GLOBAL:
		write_value(a, c, q, offsetof(gr3d_pixel, g) + (i & 7u) * sizeof(uint32_t), live, lo, hi, v);
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
				gr3d_write_reg(c, &q->px[p].cr[i & 7u], v[p], !hi, hi);
		break;
	case TEGRA_REG_KILL:
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			gr3d_pixel *px = &q->px[p];
			if (((live >> p) & 1u) && v[p] != 0.0 && !px->killed && !px->exec_killed) {
				if (c->cfg->tegra_kill_this_exec)
					px->exec_killed = true;
				else
					px->killed = true;
				(*kills)++;
			}
		}
		break;
	default:                   /* lp, read-only registers: discarded */
		break;
	}
}

/* The pixels the packets run on: not killed (bit p). */
static unsigned live_pixels(const gr3d_quad *q)
{
	unsigned live = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		live |= (unsigned)!q->px[p].killed << p;
	return live;
}

/* Does some pixel hold TEX's pre-fetch view (tegra.tex.fp20_reads_see_coords)? */
static bool any_shadow(const gr3d_quad *q)
{
	unsigned any = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		any |= q->px[p].tex_shadow;
	return any != 0;
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
	for (unsigned k = 0; k < n; k++)
		if (!p->slot[k].reg_copy || !copy_reg(ap, &p->slot[k], cur[k]))
			alu_slot_result(ap, &p->slot[k], cur[k]);
	if (n < 4)
		memset(cur[n], 0, sizeof cur[n]);
	if (p->groups) {
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
			write_pair(a, c, q, live, ap->shadow, &p->slot[k], cur[k], cur[k + 1]);
			k++;
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
	unsigned m = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		m |= (unsigned)(q->px[p].covered && (q->px[p].killed || q->px[p].exec_killed)) << p;
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
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				q->view[p][i] = q->px[p].r[i];
}

/* The packets of EXEC e (count of them) on quad q. */
static __attribute__((noinline)) void run_exec(alu_unit *a, gr3d_quad *q, unsigned e, unsigned count)
{
	gr3d_stage *s = &a->s;
	uint64_t kills = 0;
	unsigned live = live_pixels(q);
	const unsigned dead = ~live & 0xFu;
	/* every packet counts its slots for the pixels live when the EXEC began */
	const unsigned alive = (unsigned)(UINT64_C(0x4332322132212110) >> (4 * live)) & 0xFu;   /* bits of live */
	sim_unit_count(&s->u, ALU_CTR_INSTRUCTIONS, (uint64_t)a->slots[e] * alive);
	if (!live)
		return;
	double buf[2][4][GR3D_PIXELS];              /* aluK: previous and current packet */
	if (a->pk[e][0].reads_prev)                 /* aluK read as 0 at the start of an EXEC */
		memset(buf[0], 0, sizeof buf[0]);
	/* the packets of the EXEC share one pass; only ALU writes end a pre-fetch view */
	alu_pass ap = { .unit = a, .c = s->ctx, .q = q, .subnormals = a->subnormals, .shadow = true };
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
static unsigned alu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	alu_unit *a = (alu_unit *)s;
	const unsigned count = a->packets[e];
	if (a->view_load[e])                    /* also with no packets: a batch start */
		load_view(a, q, e);
	if (!count)
		return s->quad_clocks;              /* count 0 still takes a clock (wiki) */
	sim_unit_count(&s->u, ALU_CTR_PACKETS, count);
	run_exec(a, q, e, count);
	return s->quad_clocks * count;
}
void alu_init(alu_unit *a, gr3d_ctx *ctx)
{
	gr3d_stage_init(&a->s, "alu", ctx, ALU_COUNTERS, ALU_CTR_COUNT);
	a->s.exec = alu_exec;
	a->batch_view = ctx->rows > 1 && ctx->cfg->tegra_alu_batch_view;
	a->subnormals = ctx->cfg->tegra_fp20_subnormals;
	a->fx10_lanes = !ctx->exact &&
	                (ctx->fx10_round == ULP_ROUND_NEAREST_AWAY || ctx->fx10_round == ULP_ROUND_TRUNCATE);
	a->fx10_half = ctx->fx10_round == ULP_ROUND_NEAREST_AWAY ? 0.5f : 0.0f;
	a->fx10_lim_pos = ctx->fx10_wrap ? 1e9f : 511.0f;
	a->fx10_lim_neg = ctx->fx10_wrap ? 1e9f : 512.0f;
	alu_plan_draw(a, ctx);
}
