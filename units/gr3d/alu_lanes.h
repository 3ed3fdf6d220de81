/* The ALU's operand reads, FX10 lanes and register writes on the four
 * pixels of a quad, shared by its run (alu.c) and its batch (alu_batch.c).
 * Inline: the per-quad work is small enough that a call costs as much. */
#ifndef ULP_UNITS_ALU_LANES_H
#define ULP_UNITS_ALU_LANES_H

#include <stddef.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "isa/fp20_vec.h"
#include "units/gr3d/alu_slot.h"

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

/* alu_slot_result's saturate, r < 0 ? 0 : r > 1 ? 1 : r, on four binary32
 * lanes: SSE's maxps(0, r) is 0 > r ? 0 : r (a -0 and a NaN stay), and
 * minps(1, x) is 1 < x ? 1 : x (a NaN stays). */
static inline alu_f32x4 sat_f32x4(alu_f32x4 f)
{
	const alu_f32x4 zero = { 0.0f, 0.0f, 0.0f, 0.0f }, one = { 1.0f, 1.0f, 1.0f, 1.0f };
#if defined(__SSE2__)
	return (alu_f32x4)_mm_min_ps((__m128)one, _mm_max_ps((__m128)zero, (__m128)f));
#else
	return select_f32x4(f < zero, zero, select_f32x4(f > one, one, f));
#endif
}

/* min(h, max(l, f)) as sat_f32x4 forms it, on four binary32 lanes: with
 * bounds with 0 and 1 sat_f32x4 itself; with -inf and inf every
 * number as it is. */
static inline alu_f32x4 clamp_f32x4(alu_f32x4 f, alu_f32x4 l, alu_f32x4 h)
{
#if defined(__SSE2__)
	return (alu_f32x4)_mm_min_ps((__m128)h, _mm_max_ps((__m128)l, (__m128)f));
#else
	return select_f32x4(f < l, l, select_f32x4(f > h, h, f));
#endif
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

/* Four binary64 lanes, as their bits and comparison masks. */
typedef double q_f64x4 __attribute__((vector_size(32)));
typedef int64_t q_i64x4 __attribute__((vector_size(32)));
typedef uint64_t q_u64x4 __attribute__((vector_size(32)));

/* Is some lane of a comparison's mask set? (two 64-bit ORs, not four
 * lane extracts) */
static inline bool any_u32x4(alu_u32x4 m)
{
	uint64_t h[2];
	memcpy(h, &m, sizeof h);
	return (h[0] | h[1]) != 0;
}

/* binary32 bits of four FP20 words as operands where each is a normal
 * number (fp20_f32_bits_normal); *sp: the lanes whose word is not (exponent
 * 0 or 63), for which the bits do not apply.  The macro: the same rule on a
 * vector of any width (w, its mask sp, their unsigned type). */
#define FP20_LANES_NORMAL(w, sp, type)                                                          \
	((sp) = FP20_LANES_ODD(w, type),                                                           \
	 (((w) << (31 - FP20_SIGN_SHIFT)) & 0x80000000u) |                                          \
	 ((((w) >> FP20_EXP_SHIFT) & FP20_EXP_MAX) + FP20_F32_REBIAS) << 23 |                       \
	 ((w) & FP20_MANT_MASK) << FP20_F32_SHIFT)

GR3D_HOT alu_u32x4 fp20_lanes_normal(alu_u32x4 w, alu_u32x4 *sp)
{
	return FP20_LANES_NORMAL(w, *sp, alu_u32x4);
}

/* fp20_lanes_normal's values as binary64 bits, for a build for AVX2
 * (the exponent re-biased, the mantissa moved up, the sign to bit 63; one
 * vpmovzxdq widens the words): GCC 12 converts four binary32 lanes to
 * binary64 in six instructions there, not one vcvtps2pd. */
static inline void fp20_f64_normal(const uint32_t w[GR3D_PIXELS], q_u64x4 *out)
{
	fp20v_u32x4 w4;
	memcpy(&w4, w, sizeof w4);
	fp20v_f64_bits_normal(w4, out);
}

/* binary32 bits of four FP20 words as operands (gr3d_fp20_quad), where
 * every word is a normal number or a zero (exponent and mantissa 0): the
 * normal ones as fp20_f32_bits_normal, a zero as fp20_read gives it (+0, or
 * the code's sign with tegra.fp20.read_subnormals).  *special: some word
 * has exponent 0 or 63 (not a normal number); *other: one of them is not a
 * zero (a subnormal read, inf, NaN), and the bits do not apply. */
GR3D_HOT alu_u32x4 fp20_lanes_bits(bool subnormals, alu_u32x4 w, bool *special, bool *other)
{
	alu_u32x4 sp;
	alu_u32x4 f = fp20_lanes_normal(w, &sp);
	*special = any_u32x4(sp);
	*other = false;
	if (*special) {
		const alu_u32x4 zero = (alu_u32x4)((w & ~FP20_SIGN_MASK) == 0u);
		*other = any_u32x4(sp & ~zero);
		f = (f & ~zero) | (zero & (w << (31 - FP20_SIGN_SHIFT)) & (subnormals ? 0x80000000u : 0u));
	}
	return f;
}

/* Four FP20 words as operands (gr3d_fp20_quad): fp20_lanes_bits on four
 * lanes; a quad with a word that is neither normal nor zero takes
 * gr3d_fp20_quad's per-word path.  Returns 1 when a word was odd (exponent
 * 0 or 63). */
GR3D_HOT unsigned fp20_lanes_in(bool subnormals, const uint32_t raw[GR3D_PIXELS], double out[GR3D_PIXELS])
{
	alu_u32x4 w;
	memcpy(&w, raw, sizeof w);
	bool special, other;
	const alu_f32x4 f = (alu_f32x4)fp20_lanes_bits(subnormals, w, &special, &other);
	if (other) {
		gr3d_fp20_quad(subnormals, raw, out);
		return 1;
	}
	/* one 32-byte store: a caller's vector load of out then takes it from
	 * the store buffer (four 8-byte stores cannot be forwarded to it) */
	const q_f64x4 d = __builtin_convertvector(f, q_f64x4);
	memcpy(out, &d, sizeof d);
	return special;
}

/* The low 32-bit words of four 64-bit lanes.  Built for AVX2 (wide), one
 * vpermd; GCC 12's __builtin_convertvector takes five instructions there
 * (two vperm2i128, two vpshufd, a vpunpcklqdq), but on plain x86-64 is one
 * shufps, where the shuffle would go through memory. */
static inline alu_u32x4 narrow_u64x4(const q_u64x4 *b, bool wide)
{
	if (wide) {
		typedef uint32_t u32x8 __attribute__((vector_size(32)));
		const u32x8 v = (u32x8)*b;
		return __builtin_shufflevector(v, v, 0, 2, 4, 6);
	}
	return __builtin_convertvector(*b, alu_u32x4);
}

/* The lanes of four binary64 (bits b) outside fp20_f64_fast's range that
 * are not zero: the ones gr3d_round20 and gr3d_fp20_bits take their generic
 * path for (their fast rule gives a zero back as it is).  On the high and
 * low 32-bit words, gr3d_round20_quad's test: 32-bit lanes compare on
 * plain x86-64 (SSE2 has no 64-bit compare). */
GR3D_HOT alu_u32x4 fp20_far_lanes(const q_u64x4 *b, bool wide)
{
	if (wide) {                       /* built for AVX2: signed 64-bit compares (|v| < 2^63) */
		/* a in [lo, hi) is a - lo in [0, hi - lo) unsigned, which is one signed compare once
		 * the sign bit is flipped: a + (2^63 - lo) < INT64_MIN + (hi - lo) */
		const q_u64x4 a = *b & ~(UINT64_C(1) << 63);
		const uint64_t lo = (uint64_t)(1023 - 29) << 52, hi = (uint64_t)(1023 + 31) << 52;
		const q_i64x4 x = (q_i64x4)(a + ((UINT64_C(1) << 63) - lo));
		const q_i64x4 far = (x > (int64_t)(INT64_MIN + (int64_t)(hi - lo) - 1)) & (q_i64x4)(a != 0);
		return narrow_u64x4((const q_u64x4 *)&far, true);
	}
	const alu_u32x4 hi = __builtin_convertvector(*b >> 32, alu_u32x4) & 0x7FFFFFFFu;
	const alu_u32x4 lo = __builtin_convertvector(*b, alu_u32x4);
	return (alu_u32x4)(hi - ((1023u - 29u) << 20) >= (60u << 20)) & (alu_u32x4)((hi | lo) != 0u);
}

/* fp20.round's increment on the binary64 bits (gr3d_fp20_bits): add, plus
 * the lowest kept bit when odd (ties to even). */
static inline void fp20_round_add(enum ulp_round rm, uint64_t *add, uint64_t *odd)
{
	*add = rm == ULP_ROUND_NEAREST_EVEN ? (UINT64_C(1) << (FP20_F64_SHIFT - 1)) - 1
	     : rm == ULP_ROUND_NEAREST_AWAY ? UINT64_C(1) << (FP20_F64_SHIFT - 1) : 0;
	*odd = rm == ULP_ROUND_NEAREST_EVEN;
}

/* The fast rule of gr3d_round20 and of gr3d_fp20_bits (fp20.round's
 * increment add, odd) on four binary64 (bits b), for the lanes
 * fp20_far_lanes does not name: the rounded value's bits (in place), and
 * its FP20 code (a zero's code is its sign).  (Pointers: a 32-byte vector
 * argument would change the ABI with AVX, which GCC warns about.) */
static inline void round20_near(q_u64x4 *b, uint64_t add, uint64_t odd)
{
	*b = (*b + add + ((*b >> FP20_F64_SHIFT) & odd)) & ~((UINT64_C(1) << FP20_F64_SHIFT) - 1);
}

static inline alu_u32x4 enc20_near(const q_u64x4 *b, uint64_t add, uint64_t odd, bool wide)
{
	const q_u64x4 a = *b & ~(UINT64_C(1) << 63), sign = (*b >> 63) << FP20_SIGN_SHIFT;
	const q_u64x4 code = sign | ((((a + add + ((a >> FP20_F64_SHIFT) & odd)) >> FP20_F64_SHIFT) -
	                              (FP20_F64_REBIAS << FP20_EXP_SHIFT)) & (q_u64x4)(a != 0));
	return narrow_u64x4(&code, wide);
}

/* The FP20 codes of four binary32 lanes that each hold an FP20 value (a
 * normal FP20 number or a zero: a register copy's, alu.c copy_reg): the
 * value's own code, which gr3d_fp20_bits gives it in every fp20.round mode
 * (nothing is rounded off); a zero's code is its sign. */
static inline alu_u32x4 enc20_f32(alu_f32x4 f)
{
	const alu_u32x4 b = (alu_u32x4)f, a = b & 0x7FFFFFFFu;
	return (b >> 31) << FP20_SIGN_SHIFT |
	       (((a >> FP20_F32_SHIFT) - (FP20_F32_REBIAS << FP20_EXP_SHIFT)) & (alu_u32x4)(a != 0u));
}

/* gr3d_round20_quad, with zeros on the branch-free path too (rounding
 * gives them back).  The lanes fp20_far_lanes names take gr3d_round20. */
GR3D_HOT void round20_lanes(const gr3d_ctx *c, double r[GR3D_PIXELS], bool wide)
{
	if (c->exact) {
		gr3d_round20_quad(c, r);
		return;
	}
	uint64_t add, odd;
	fp20_round_add(c->fp20_round, &add, &odd);
	q_u64x4 b;
	memcpy(&b, r, sizeof b);
	const alu_u32x4 far = fp20_far_lanes(&b, wide);
	round20_near(&b, add, odd);
	if (any_u32x4(far))
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if (far[p]) {
				const double v = gr3d_round20(c, r[p]);
				uint64_t bits;       /* (a vector element has no address in clang) */
				memcpy(&bits, &v, sizeof bits);
				b[p] = bits;
			}
	memcpy(r, &b, sizeof b);
}

/* gr3d_enc20_quad (the FP20 codes of four values), with zeros on the
 * branch-free path: a zero's code is its sign (gr3d_fp20_bits).  The
 * lanes fp20_far_lanes names take gr3d_fp20_bits. */
GR3D_HOT void enc20_lanes(const gr3d_ctx *c, const double v[GR3D_PIXELS], uint32_t out[GR3D_PIXELS], bool wide)
{
	if (c->exact) {
		gr3d_enc20_quad(c, v, out);
		return;
	}
	uint64_t add, odd;
	fp20_round_add(c->fp20_round, &add, &odd);
	q_u64x4 b;
	memcpy(&b, v, sizeof b);
	const alu_u32x4 far = fp20_far_lanes(&b, wide);
	const alu_u32x4 w = enc20_near(&b, add, odd, wide);
	memcpy(out, &w, sizeof w);
	if (any_u32x4(far))
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if (far[p])
				out[p] = gr3d_fp20_bits(c->fp20_round, v[p]);
}

/* TEX's pre-fetch view of one pixel (tegra.tex.fp20_reads_see_coords):
 * bits (tex_shadow) say which of the fetch's two destinations reg[] it
 * still shows as old0, old1; an FP20 read of row register i sees view_seen, and
 * a write to i by a live pixel leaves view_ended of the bits.  Shared by
 * the quad (read_raw, end_views) and the lanes (alu_batch.c). */
static inline uint32_t view_seen(unsigned bits, const uint8_t reg[2], uint32_t old0, uint32_t old1, unsigned i,
                                 uint32_t w)
{
	return ((bits & 1u) && reg[0] == i) ? old0 : ((bits & 2u) && reg[1] == i) ? old1 : w;
}

static inline uint8_t view_ended(unsigned bits, const uint8_t reg[2], unsigned i)
{
	for (unsigned k = 0; k < 2; k++)
		if (reg[k] == i)
			bits &= ~(1u << k);
	return (uint8_t)bits;
}

/* Row register i's four words raw as an FP20 read sees them through TEX's
 * pre-fetch view (tegra.tex.fp20_reads_see_coords). */
GR3D_HOT void shadow_words(const gr3d_quad *q, unsigned i, uint32_t raw[GR3D_PIXELS])
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const gr3d_pixel *px = &q->px[p];
		if (px->tex_shadow)
			raw[p] = view_seen(px->tex_shadow, px->tex_reg, px->tex_old[0], px->tex_old[1], i, raw[p]);
	}
}

/* A register operand's four raw words, as the ALU sees them: through the
 * batch view, and with TEX's pre-fetch view. */
GR3D_HOT void read_raw(const alu_pass *ap, const alu_operand *o, uint32_t raw[GR3D_PIXELS])
{
	const gr3d_quad *q = ap->q;
	/* four words side by side: the register's, or the batch view's (plan_views) */
	memcpy(raw, (const uint8_t *)q + o->off, sizeof(uint32_t) * GR3D_PIXELS);
	if (o->shadow && ap->shadow)
		shadow_words(q, o->index, raw);
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
		*odd |= fp20_lanes_in(ap->subnormals, raw, out);
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
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {   /* byte by byte: GCC 12 vectorises the
			                                                * plain loop, and q_slots_avx2, which
			                                                * inlines it, then runs ~70 more
			                                                * instructions a packet */
			bool f;
			memcpy(&f, &q->front[p], sizeof f);
			out[p] = f ? 1.0 : -1.0;
		}
		break;
	}
	if (o->mods)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = modify(o, out[p]);
}

/* gr3d_round20_quad for a result that, in fp20_f64_fast's range, FP20
 * holds already (slot.exact, plan_slot): rounding gives those values back,
 * so only the others (zero, the ends of the range, inf, NaN) take
 * gr3d_round20.  The range test is gr3d_round20_quad's, on the high word. */
GR3D_HOT void round_outliers(const gr3d_ctx *c, double r[GR3D_PIXELS], bool wide)
{
	q_u64x4 b;
	memcpy(&b, r, sizeof b);
	const alu_u32x4 far = fp20_far_lanes(&b, wide);   /* zeros stay as they are */
	if (any_u32x4(far))
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if (far[p])
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

/* fx10_lanes of four lanes in [-0, 1] (a saturated copy, alu.c copy_reg:
 * no NaN): v * 256 + half is |v| * 256 + half (the same operations; a -0
 * gives +-0 or half, which truncate to 0 as +0's do), at most 256.5, below
 * every clamp, and no lane is negative, so the rule is the truncation. */
static inline alu_u32x4 fx10_lanes_unit(const alu_unit *a, alu_f32x4 f)
{
	const alu_i32x4 n = __builtin_convertvector(f * 256.0f + a->fx10_half, alu_i32x4);
	return (alu_u32x4)n & FX10_MASK;
}

/* fx10_quad of four values each in [-0, 1] or a NaN (alu_slot.unit01,
 * not arith=exact, alu_unit.fx10_lanes): a value rounded to FP20 is exact
 * as a binary32, and fx10_lanes takes a NaN's lane as 0, which
 * fx10_lanes_unit gives 0 too. */
GR3D_HOT alu_u32x4 fx10_unit_lanes(const alu_unit *a, const double v[GR3D_PIXELS])
{
	alu_f32x4 f = { (float)v[0], (float)v[1], (float)v[2], (float)v[3] };
	f = (alu_f32x4)((alu_i32x4)f & (f == f));
	return fx10_lanes_unit(a, f);
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

/* A write to row register i ends the live pixels' pre-fetch view of it. */
GR3D_HOT void end_views(gr3d_quad *q, unsigned live, unsigned i)
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		if (px->tex_shadow && ((live >> p) & 1u))
			px->tex_shadow = view_ended(px->tex_shadow, px->tex_reg, i);
	}
}

/* The register at byte offset off in the quad (row, global), in each live
 * pixel: the bits outside keep become set[p]. */
GR3D_HOT void write_bits(gr3d_quad *q, size_t off, unsigned live, uint32_t keep,
                         const uint32_t set[GR3D_PIXELS])
{
	uint32_t *w = (uint32_t *)(void *)((uint8_t *)q + off);
	if (live == 0xFu)                      /* all four: no test per pixel */
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			w[p] = (w[p] & keep) | set[p];
	else
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if ((live >> p) & 1u)
				w[p] = (w[p] & keep) | set[p];
}

/* Row register ri of the live pixels: the bits outside keep become set[p]. */
GR3D_HOT void write_row_bits(gr3d_quad *q, unsigned ri, unsigned live, uint32_t keep,
                             const uint32_t set[GR3D_PIXELS])
{
	write_bits(q, offsetof(gr3d_quad, r) + ri * sizeof q->r[0], live, keep, set);
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
		enc20_lanes(c, v, enc, false);
		write_bits(q, off, live, 0, enc);
	} else if (lo || hi) {
		const unsigned sh = hi ? gr3d_fx_shift(c) : 0u;
		fx10_quad(a, c, v, enc);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			enc[p] <<= sh;
		write_bits(q, off, live, ~(gr3d_fx_mask(c) << sh), enc);
	}
}

#endif
