/* The MFU's four-lane paths (mfu.c's wide build, AVX2 on x86-64): the
 * perspective set-up, an SFU op on a register and FP20 interpolation, each
 * on a quad whose four pixels are active, with the weights' layout they
 * share with mfu.c's pair paths.  Included by mfu.c only; each is the
 * general path's operations, operands and roundings lane by lane
 * (tests/units/test_mfu_pair.c compares them). */
#ifndef ULP_UNITS_MFU_LANES_H
#define ULP_UNITS_MFU_LANES_H

#include "units/gr3d/mfu.h"
#include "units/gr3d/mfu_pair.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* The interpolation weights b0, b1 and 1 - b0 - b1 of each pixel, one row
 * per weight (w[k][p], or two pixels to a pair: mfu_f64x2 w[k][p / 2]). */
typedef union mfu_weights {
	double w[3][GR3D_PIXELS];
	mfu_f64x2 pair[3][GR3D_PIXELS / 2];
	mfu_f64x4 quad[3];
} mfu_weights;

/* Four floats widened to four doubles (exact): for AVX2 one conversion from
 * memory (GCC 12's generic conversion of a loaded vector goes through the
 * stack), else the generic one. */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline void f64x4_of_f32(const float f[GR3D_PIXELS], mfu_f64x4 *out)
{
	*out = (mfu_f64x4)_mm256_cvtps_pd(_mm_loadu_ps(f));
}
#else
static inline void f64x4_of_f32(const float f[GR3D_PIXELS], mfu_f64x4 *out)
{
	mfu_f32x4 v;
	memcpy(&v, f, sizeof v);
	*out = __builtin_convertvector(v, mfu_f64x4);
}
#endif

/* persp_setup on the four pixels at once (the wide build: mfu_quad_avx2):
 * the same operations, operands and roundings lane by lane. */
GR3D_HOT bool persp_setup4(const mfu_round *rd, gr3d_quad *q, mfu_weights *w)
{
	/* (f64x4_of_f32: one vcvtps2pd each, not four instructions) */
	mfu_f64x4 qw, bar0, bar1;
	f64x4_of_f32(q->q, &qw);
	f64x4_of_f32(q->bar0, &bar0);
	f64x4_of_f32(q->bar1, &bar1);
	mfu_u64x4 far = { 0, 0, 0, 0 };
	mfu_f64x4 s = 1.0 / qw;
	mfu_round20_x4(rd, &s, &far);
	mfu_f64x4 b0 = s * bar0, b1 = s * bar1;
	mfu_round20_x4(rd, &b0, &far);
	mfu_round20_x4(rd, &b1, &far);
	if (!mfu_near_x4(&far))
		return false;
	const mfu_f32x4 f0 = __builtin_convertvector(b0, mfu_f32x4), f1 = __builtin_convertvector(b1, mfu_f32x4);
	memcpy(q->b0, &f0, sizeof f0);
	memcpy(q->b1, &f1, sizeof f1);
	w->quad[0] = b0;
	w->quad[1] = b1;
	w->quad[2] = 1.0 - b0 - b1;
	return true;
}

/* reg_sfu on the four pixels at once (the wide build): the register's four
 * words read as one vector (gr3d_fp20_quad's normal case lane by lane, the
 * helper itself when a word is special), the op on four lanes where it is
 * one instruction (rcp, rsq: IEEE division and square root, the same in a
 * vector), else lane by lane as sfu_quad forms it, then the four codes.
 * Where a value is outside the pair helpers' range, every lane's code is
 * formed as run_steps forms it from the same value (gr3d_round20, then
 * gr3d_fp20_bits): no value is computed twice.  Always writes the register. */
#if defined(__x86_64__)
/* A quad's four codes, each in the low word of its 64-bit lane, into dst as
 * four words: one permute and one store. */
__attribute__((target("avx2"))) static inline void mfu_store_x4(uint32_t dst[GR3D_PIXELS], const mfu_u64x4 *code)
{
	const __m256i n = _mm256_permutevar8x32_epi32((__m256i)*code, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
	_mm_storeu_si128((__m128i *)dst, _mm256_castsi256_si128(n));
}

/* The four codes of values of which some are outside the pair helpers'
 * range, each as run_steps forms it (gr3d_round20, then gr3d_fp20_bits). */
__attribute__((noinline)) static void codes_general(const gr3d_ctx *c, const double v[GR3D_PIXELS],
                                                    uint32_t code[GR3D_PIXELS])
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		code[p] = gr3d_fp20_bits(c->fp20_round, gr3d_round20(c, v[p]));
}

__attribute__((target("avx2"), always_inline)) static inline void reg_sfu4(const gr3d_ctx *c, const mfu_round *rd,
                                                                           const mfu_plan *in, gr3d_quad *q)
{
	uint32_t *reg = q->r[in->sfu_reg];
	mfu_u32x4 w;
	memcpy(&w, reg, sizeof w);
	/* the normal words' binary64 bits straight from the FP20 code (one
	 * vpmovzxdq, no binary32 step: GCC 12 widens four floats to doubles in
	 * six instructions here), and the odd test as an equality */
	mfu_f64x4 x;
	mfu_fp20_f64_normal(w, &x);
	const mfu_u32x4 sp = mfu_fp20_odd(w);
	if (_mm_movemask_ps((__m128)sp)) {
		double xs[GR3D_PIXELS];
		gr3d_fp20_quad(true, reg, xs);
		memcpy(&x, xs, sizeof x);
	}
	mfu_f64x4 v;
	const unsigned op = in->sfu_op;
	const bool cut = c->cfg->tegra_sfu_bits < 13;
	if (op == TEGRA_SFU_RCP && !cut) {
		v = 1.0 / x;
	} else if (op == TEGRA_SFU_RSQ && !cut) {
		const mfu_f64x4 a = (mfu_f64x4)((mfu_u64x4)x & ~(UINT64_C(1) << 63));
		v = 1.0 / (mfu_f64x4)_mm256_sqrt_pd((__m256d)a);
	} else if (op == TEGRA_SFU_PREEX2 && !cut) {
		v = x;
	} else {
		double r[GR3D_PIXELS];
		memcpy(r, &x, sizeof r);
		mfu_sfu_lanes(c, op, r);
		memcpy(&v, r, sizeof v);
	}
	mfu_u64x4 far = { 0, 0, 0, 0 }, code;
	mfu_fp20_bits_x4(rd, &v, &far, &code, false);
	if (!mfu_near_x4(&far)) {
		double vs[GR3D_PIXELS];
		memcpy(vs, &v, sizeof vs);
		codes_general(c, vs, reg);
		return;
	}
	mfu_store_x4(reg, &code);
}
#endif

/* ipl_fp20 on the four pixels at once (the wide build); permute: each
 * register's four codes stored by one permute (mfu_store_x4), else lane by
 * lane (fewer instructions in mfu_persp_ipl_avx2, more in the others, as
 * GCC 12 builds them). */
GR3D_HOT bool ipl_fp20_4(const mfu_round *rd, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                         const mfu_weights *w, bool permute, bool zeros)
{
	const float *f = &t->f[0][0][0];
	mfu_u64x4 far = { 0, 0, 0, 0 };
	const mfu_f64x4 w0 = w->quad[0], w1 = w->quad[1], w2 = w->quad[2];
	for (unsigned j = 0; j < in->nvar; j++) {
		const float *a = f + in->var[j].tram;
		const double a0 = a[0], a1 = a[1], a2 = a[2];
		const unsigned reg = in->var[j].reg;
		const mfu_f64x4 v = w0 * a0 + w1 * a1 + w2 * a2;
		mfu_u64x4 c;
		mfu_fp20_bits_x4(rd, &v, &far, &c, zeros);
#if defined(__x86_64__)
		if (permute) {
			mfu_store_x4(q->r[reg], &c);
			continue;
		}
#endif
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			q->r[reg][p] = (uint32_t)c[p];
	}
	return mfu_near_x4(&far);
}

/* ipl_fp20_4's retry when a value was out of range, with +-0 in range (out
 * of line: the first try stays as small as it was).  Where it fails too,
 * ipl_vars redoes every var; either way every var is written again. */
#if defined(__x86_64__)
__attribute__((target("avx2")))
#endif
__attribute__((noinline)) static bool ipl_fp20_4_zeros(const mfu_round *rd, const mfu_plan *in,
                                                       const gr3d_tram_tri *t, gr3d_quad *q,
                                                       const mfu_weights *w)
{
	return ipl_fp20_4(rd, in, t, q, w, false, true);
}

/* FP20 interpolation on the four lanes (the wide build), the retry
 * included. */
GR3D_HOT bool ipl_lanes(const mfu_round *rd, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                        const mfu_weights *w, bool permute)
{
	return ipl_fp20_4(rd, in, t, q, w, permute, false) || ipl_fp20_4_zeros(rd, in, t, q, w);
}

#if defined(__x86_64__)
/* var j's TRAM value for vertex i: lane i of the twelve doubles d (var j's
 * three values are lanes 3j..3j+2), in all four lanes (one permute). */
#define MFU_TRAM_LANE(d, i) __builtin_shufflevector((d)[(i) / 4], (d)[(i) / 4], (i) % 4, (i) % 4, (i) % 4, (i) % 4)

/* Two registers' codes (each in the low words of its four 64-bit lanes, as
 * mfu_fp20_bits_x4 leaves them) into dst[0..7], a register's four pixel
 * words side by side: one shuffle, one permute, one store. */
__attribute__((target("avx2"))) static inline void mfu_store_x8(uint32_t dst[2 * GR3D_PIXELS], const mfu_u64x4 *c0,
                                                                const mfu_u64x4 *c1)
{
	/* per 128-bit half: c0's two low words, then c1's */
	const __m256 lo = _mm256_shuffle_ps((__m256)*c0, (__m256)*c1, 0x88);
	/* the halves' pairs in order: c0's four words, then c1's */
	_mm256_storeu_si256((__m256i *)dst, _mm256_permute4x64_epi64((__m256i)lo, 0xD8));
}

/* An EXEC of one instruction that interpolates n FP20 varyings (1 <= n <=
 * 4) whose TRAM values are the first 3n floats of a row and whose registers
 * are n in a row, with the perspective set-up before it (persp) or with the
 * weights an earlier EXEC's set-up left (mfu_exec_plan.row_fn: fs_color's
 * `MOV OUT[0], IN[0]`, fs_tex's two varyings) on a quad whose four pixels
 * are active: persp_setup4 (or weights()) and ipl_fp20_4 in one pass with
 * one range test, the row's floats widened by one conversion each four and
 * broadcast by permutes, the vars unrolled, the codes stored two registers
 * at a time.  Each value is formed by the same operations, operands and
 * roundings as theirs: s = round20(1 / q), b0 = round20(s * bar0),
 * b1 = round20(s * bar1) (else b0, b1 read from the quad), w2 = 1 - b0 - b1,
 * then var j's value b0*a0 + b1*a1 + w2*a2 in that order and its code.
 * Writes b0, b1 (persp; as floats: an FP20 value is exact in one) and the
 * n registers' codes in regs[0..n-1] (q->r + reg0); returns 0 when every
 * value is in the pair helpers' range.  Else the caller goes on as
 * mfu_persp_ipl_avx2 or mfu_lanes_avx2 would, whose paths read none of what
 * it wrote (q, bar0, bar1 or b0, b1, and the TRAM only) and write it all
 * again (as ipl_fp20_4's registers are written again by ipl_vars): 2, a
 * set-up value is out of range, and the EXEC runs from the start; 1, the
 * set-up's are in range (b0 and b1 are as persp_setup4 writes them, and
 * weights() reads the weights back), so ipl_fp20_4's first try would fail
 * as this one did and its retry with +-0 comes next: this function again
 * without persp and with zeros, +-0 in range (mfu_fp20_bits_x4), which is
 * ipl_fp20_4_zeros on these vars.  n, persp and zeros are constants where
 * it is inlined. */
__attribute__((target("avx2"), always_inline)) static inline unsigned ipl_row(const mfu_round *rd, const float (*row)[3],
                                                                              gr3d_quad *q, uint32_t (*regs)[GR3D_PIXELS],
                                                                              unsigned n, bool persp, bool zeros)
{
	mfu_u64x4 far = { 0, 0, 0, 0 };
	mfu_f64x4 b0, b1;
	if (persp) {
		mfu_f64x4 qw, bar0, bar1;
		f64x4_of_f32(q->q, &qw);
		f64x4_of_f32(q->bar0, &bar0);
		f64x4_of_f32(q->bar1, &bar1);
		mfu_f64x4 s = 1.0 / qw;
		mfu_round20_x4(rd, &s, &far);
		b0 = s * bar0;
		b1 = s * bar1;
		mfu_round20_x4(rd, &b0, &far);
		mfu_round20_x4(rd, &b1, &far);
		const mfu_f32x4 f0 = __builtin_convertvector(b0, mfu_f32x4), f1 = __builtin_convertvector(b1, mfu_f32x4);
		memcpy(q->b0, &f0, sizeof f0);
		memcpy(q->b1, &f1, sizeof f1);
	} else {
		f64x4_of_f32(q->b0, &b0);                   /* weights() */
		f64x4_of_f32(q->b1, &b1);
	}
	const mfu_u64x4 far_setup = far;
	const mfu_f64x4 w2 = 1.0 - b0 - b1;
	/* the row's floats as doubles: those of var j are lanes 3j..3j+2 (the
	 * last conversion may read a float of the row beyond them) */
	const float *f = (const float *)row;
	mfu_f64x4 d[3] = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
	f64x4_of_f32(f, &d[0]);
	if (n > 1)
		f64x4_of_f32(f + 4, &d[1]);
	if (n > 2)
		f64x4_of_f32(f + 8, &d[2]);
	/* the codes stored as soon as formed (fewer registers live) */
	mfu_u64x4 c[4];
#define IPL_ROW_VAR(j) \
	do { \
		const mfu_f64x4 v = b0 * MFU_TRAM_LANE(d, 3 * (j)) + b1 * MFU_TRAM_LANE(d, 3 * (j) + 1) + \
		                    w2 * MFU_TRAM_LANE(d, 3 * (j) + 2); \
		mfu_fp20_bits_x4(rd, &v, &far, &c[j], zeros); \
	} while (0)
	IPL_ROW_VAR(0);
	if (n == 1)
		mfu_store_x4(regs[0], &c[0]);
	if (n > 1) {
		IPL_ROW_VAR(1);
		mfu_store_x8((uint32_t *)regs, &c[0], &c[1]);
	}
	if (n > 2)
		IPL_ROW_VAR(2);
	if (n == 3)
		mfu_store_x4(regs[2], &c[2]);
	if (n > 3) {
		IPL_ROW_VAR(3);
		mfu_store_x8((uint32_t *)(regs + 2), &c[2], &c[3]);
	}
#undef IPL_ROW_VAR
	if (mfu_near_x4(&far))
		return 0;
	return !persp || mfu_near_x4(&far_setup) ? 1 : 2;
}
#endif

#endif
