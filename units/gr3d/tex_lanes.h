/* TEX's AVX2 helpers for a quad on four lanes (tex.c tex_lanes_avx2): the
 * coordinates' FP20 read and the bilinear RGBA8888 blend channel by
 * channel.  Included by tex.c only; each function is built for AVX2 and
 * called from AVX2 code. */
#ifndef ULP_UNITS_TEX_LANES_H
#define ULP_UNITS_TEX_LANES_H

#include <string.h>

#include "isa/fp20_vec.h"
#include "units/gr3d/tex.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* A register's four FP20 words as operands, as gr3d_fp20_quad reads them
 * with subnormals (every code as gr3d_fp20): the normal case on four lanes
 * (isa/fp20_vec.h, the binary64 bits formed straight from the code), the
 * helper itself where a word has exponent 0 or 63. */
__attribute__((target("avx2"), always_inline)) static inline void fp20_lanes(const uint32_t raw[GR3D_PIXELS],
                                                                             double out[GR3D_PIXELS])
{
	fp20v_u32x4 w;
	memcpy(&w, raw, sizeof w);
	const fp20v_u32x4 odd = FP20_LANES_ODD(w, fp20v_u32x4);
	if (_mm_movemask_ps(_mm_castsi128_ps((__m128i)odd))) {
		gr3d_fp20_quad(true, raw, out);
		return;
	}
	fp20v_u64x4 bits;
	fp20v_f64_bits_normal(w, &bits);
	memcpy(out, &bits, sizeof bits);
}

/* The bilinear blend of a quad's RGBA8888 texels channel by channel (for
 * fetch_quad in tex_lanes_avx2): each corner's four texels (a: row ya,
 * column xa; b: ya, xb; c: yb, xa; d: yb, xb) formed in one register, its
 * bytes put channel by channel and widened with unorm8_to_fx10 (b + (b >>
 * 7)), then per channel on the four pixels' lanes fetch_view's blend
 * gv * (gu * a + ku * b) + kv * (gu * c + ku * d) + 0.5 in that order, its
 * truncation and the two pairs: each lane's operations and operands are
 * those of the pixel's blend on its channel lane. */
__attribute__((target("avx2"))) static inline __m256d fx10_channel(__m128i w16, int half)
{
	return _mm256_cvtepi32_pd(_mm_cvtepu16_epi32(half ? _mm_srli_si128(w16, 8) : w16));
}

__attribute__((target("avx2"))) static inline void corner_channels(const uint8_t *const t[GR3D_PIXELS],
                                                                   __m256d ch[4])
{
	/* formed in a register (a vector load of words stored one by one waits
	 * for the stores) */
	uint32_t w0, w1, w2, w3;
	memcpy(&w0, t[0], sizeof w0);
	memcpy(&w1, t[1], sizeof w1);
	memcpy(&w2, t[2], sizeof w2);
	memcpy(&w3, t[3], sizeof w3);
	const __m128i v = _mm_shuffle_epi8(_mm_setr_epi32((int)w0, (int)w1, (int)w2, (int)w3),
	                                   _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
	__m128i c01 = _mm_cvtepu8_epi16(v), c23 = _mm_cvtepu8_epi16(_mm_srli_si128(v, 8));
	c01 = _mm_add_epi16(c01, _mm_srli_epi16(c01, 7));
	c23 = _mm_add_epi16(c23, _mm_srli_epi16(c23, 7));
	ch[0] = fx10_channel(c01, 0);
	ch[1] = fx10_channel(c01, 1);
	ch[2] = fx10_channel(c23, 0);
	ch[3] = fx10_channel(c23, 1);
}

__attribute__((target("avx2"))) static inline void blend_rgba4(const tex_level_view *lv,
                                                               const int32_t xa[GR3D_PIXELS],
                                                               const int32_t xb[GR3D_PIXELS],
                                                               const int32_t ya[GR3D_PIXELS],
                                                               const int32_t yb[GR3D_PIXELS],
                                                               const double fu[GR3D_PIXELS],
                                                               const double fv[GR3D_PIXELS],
                                                               uint32_t lo[GR3D_PIXELS], uint32_t hi[GR3D_PIXELS])
{
	const size_t w4 = (size_t)lv->w * 4u;
	const uint8_t *ta[GR3D_PIXELS], *tb[GR3D_PIXELS], *tc[GR3D_PIXELS], *td[GR3D_PIXELS];
#pragma GCC unroll 4
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const uint8_t *row0 = lv->rgba + (size_t)ya[p] * w4, *row1 = lv->rgba + (size_t)yb[p] * w4;
		ta[p] = row0 + (size_t)xa[p] * 4u;
		tb[p] = row0 + (size_t)xb[p] * 4u;
		tc[p] = row1 + (size_t)xa[p] * 4u;
		td[p] = row1 + (size_t)xb[p] * 4u;
	}
	__m256d a[4], b[4], c[4], d[4];
	corner_channels(ta, a);
	corner_channels(tb, b);
	corner_channels(tc, c);
	corner_channels(td, d);
	const __m256d one = _mm256_set1_pd(1.0), half = _mm256_set1_pd(0.5);
	const __m256d ku = _mm256_loadu_pd(fu), kv = _mm256_loadu_pd(fv);
	const __m256d gu = _mm256_sub_pd(one, ku), gv = _mm256_sub_pd(one, kv);
	__m128i n[4];
#pragma GCC unroll 4
	for (unsigned k = 0; k < 4; k++) {
		const __m256d top = _mm256_add_pd(_mm256_mul_pd(gu, a[k]), _mm256_mul_pd(ku, b[k]));
		const __m256d bot = _mm256_add_pd(_mm256_mul_pd(gu, c[k]), _mm256_mul_pd(ku, d[k]));
		const __m256d r = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(gv, top), _mm256_mul_pd(kv, bot)), half);
		n[k] = _mm_and_si128(_mm256_cvttpd_epi32(r), _mm_set1_epi32((int)FX10_MASK));
	}
	_mm_storeu_si128((__m128i *)(void *)lo, _mm_or_si128(n[0], _mm_slli_epi32(n[1], FX10_HIGH_SHIFT)));
	_mm_storeu_si128((__m128i *)(void *)hi, _mm_or_si128(n[2], _mm_slli_epi32(n[3], FX10_HIGH_SHIFT)));
}
#endif

#endif
