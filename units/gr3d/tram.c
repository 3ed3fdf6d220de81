/* TRAM, the triangle RAM the GR3D units share (tram.h). */
#include "units/gr3d/tram.h"

#include <stdlib.h>
#include <string.h>

#include "isa/fp20.h"
#include "units/gr3d/gr3d_quad.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

bool gr3d_tram_init(gr3d_tram *t, unsigned nslots)
{
	memset(t, 0, sizeof *t);
	t->nslots = nslots;
	t->fill_rows = GR3D_TRAM_ROWS;
	t->tri = calloc(nslots ? nslots : 1, sizeof *t->tri);
	return t->tri != NULL;
}

void gr3d_tram_reset(gr3d_tram *t)
{
	t->next = 0;
	memset(t->refs, 0, sizeof t->refs);
}

void gr3d_tram_fini(gr3d_tram *t)
{
	free(t->tri);
	t->tri = NULL;
}

#if defined(__x86_64__)
/* Lanes 0..2 of x at d[0..2] (d[3] is left alone): one 8-byte and one
 * 4-byte store. */
static inline void store3(float *d, __m128 x)
{
	_mm_storel_pi((__m64 *)(void *)d, x);
	_mm_store_ss(d + 2, _mm_movehl_ps(x, x));
}

static inline void store3i(uint32_t *d, __m128i x)
{
	_mm_storel_epi64((__m128i *)(void *)d, x);
	d[2] = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x, 8));
}

/* Row r on SSE2 lanes (x86-64's baseline): the three vertices' rows of four
 * words transposed once (lane i of column k: vertex i's component k; lane 3
 * a zero nobody reads), each column decoded on its lanes with the plain
 * row's operations (the FX10 halves' int -> float conversion and the
 * product by 1/256 are exact in binary32, as there), and stored as the
 * slot's three words of component k.  A column's four-lane store writes one
 * word past its three, which the next store in the slot's order writes
 * again; the last of each array stores three.  Words of exponent 0 (but
 * +-0, the sign alone on the lanes) or 63 take gr3d_fp20 after the
 * stores, as in the plain row. */
static void load_row_fp20(gr3d_tram_tri *s, unsigned r, const uint32_t (*const v[3])[4])
{
	const __m128i m20 = _mm_set1_epi32((int)FP20_MASK);
	__m128 a0 = _mm_castsi128_ps(_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)v[0][r]), m20));
	__m128 a1 = _mm_castsi128_ps(_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)v[1][r]), m20));
	__m128 a2 = _mm_castsi128_ps(_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)v[2][r]), m20));
	__m128 a3 = _mm_setzero_ps();
	_MM_TRANSPOSE4_PS(a0, a1, a2, a3);
	const __m128 col[4] = { a0, a1, a2, a3 };
	uint32_t *const wv = &s->v[r][0][0];
	float *const fv = &s->f[r][0][0], *const xv = &s->fx[r][0][0][0];
	const __m128i exp_max = _mm_set1_epi32((int)FP20_EXP_MAX), zero = _mm_setzero_si128();
	const __m128 fx_scale = _mm_set1_ps(1.0f / 256.0f);
	unsigned special = 0;
	for (unsigned k = 0; k < 4; k++) {
		const __m128i w = _mm_castps_si128(col[k]);
		const __m128i e = _mm_and_si128(_mm_srli_epi32(w, FP20_EXP_SHIFT), exp_max);
		/* +-0 (exponent and mantissa 0) reads as its sign alone
		 * (fp20_read_f32: 0 * 2^-43), in the lanes: not special */
		const __m128i mag = _mm_and_si128(w, _mm_set1_epi32((int)(FP20_SIGN_MASK - 1u)));
		const __m128i z = _mm_cmpeq_epi32(mag, zero);
		const __m128i sp = _mm_or_si128(_mm_andnot_si128(z, _mm_cmpeq_epi32(e, zero)), _mm_cmpeq_epi32(e, exp_max));
		special |= ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(sp)) & 7u) << (3 * k);
		/* fp20_f32_bits_normal: the sign (bit 19) to bit 31, the exponent
		 * and mantissa (bits 0..18) up by 10 with the rebias added to the
		 * exponent (at most 62 + 96: no carry into the sign); +-0 the sign */
		const __m128i fb = _mm_or_si128(
			_mm_and_si128(_mm_slli_epi32(w, 31 - FP20_SIGN_SHIFT), _mm_set1_epi32((int)0x80000000u)),
			_mm_andnot_si128(z, _mm_add_epi32(_mm_slli_epi32(mag, FP20_F32_SHIFT),
			                                  _mm_set1_epi32((int)(FP20_F32_REBIAS << 23)))));
		/* each FX10 half sign-extended by a shift up and an arithmetic
		 * shift down */
		const __m128i lo = _mm_srai_epi32(_mm_slli_epi32(w, 32 - FX10_HIGH_SHIFT), 32 - FX10_HIGH_SHIFT);
		const __m128i hi = _mm_srai_epi32(_mm_slli_epi32(w, 32 - 2 * FX10_HIGH_SHIFT), 32 - FX10_HIGH_SHIFT);
		const __m128 flo = _mm_mul_ps(_mm_cvtepi32_ps(lo), fx_scale);
		const __m128 fhi = _mm_mul_ps(_mm_cvtepi32_ps(hi), fx_scale);
		if (k < 3) {
			_mm_storeu_si128((__m128i *)(void *)(wv + 3 * k), w);
			_mm_storeu_ps(fv + 3 * k, _mm_castsi128_ps(fb));
			_mm_storeu_ps(xv + 6 * k, flo);
			_mm_storeu_ps(xv + 6 * k + 3, fhi);
		} else {
			store3i(wv + 3 * k, w);
			store3(fv + 3 * k, _mm_castsi128_ps(fb));
			_mm_storeu_ps(xv + 6 * k, flo);
			store3(xv + 6 * k + 3, fhi);
		}
	}
	for (; special; special &= special - 1) {
		const unsigned j = (unsigned)__builtin_ctz(special);
		s->f[r][j / 3][j % 3] = gr3d_fp20(s->v[r][j / 3][j % 3]);
	}
}
#else
/* Row r of slot s from FP20 words, word by word in the slot's order
 * (component, then vertex) but the twelve decoded side by side (the loops
 * vectorise): FP20's normal case with no branch, the words of exponent 0 or
 * 63 then by gr3d_fp20.  The same values as load_rows_rule's
 * (gr3d_tram_load_rule; tests/units/test_tram.c); off x86-64. */
static void load_row_fp20(gr3d_tram_tri *s, unsigned r, const uint32_t (*const v[3])[4])
{
	enum { N = 4 * 3 };
	uint32_t w[N], fb[N];
	float f[N], lo[N], hi[N];
	for (unsigned k = 0; k < 4; k++)
		for (unsigned i = 0; i < 3; i++)
			w[3 * k + i] = v[i][r][k] & FP20_MASK;
	uint32_t special = 0;
	for (unsigned j = 0; j < N; j++) {
		special |= fp20_is_special(w[j]);
		fb[j] = fp20_f32_bits_normal(w[j]);
		lo[j] = gr3d_fx10(w[j], false);
		hi[j] = gr3d_fx10(w[j], true);
	}
	memcpy(f, fb, sizeof f);
	if (special)
		for (unsigned j = 0; j < N; j++)
			if (fp20_is_special(w[j]))
				f[j] = gr3d_fp20(w[j]);
	memcpy(s->v[r], w, sizeof s->v[r]);
	memcpy(s->f[r], f, sizeof s->f[r]);
	for (unsigned k = 0; k < 4; k++) {
		memcpy(s->fx[r][k][0], &lo[3 * k], sizeof s->fx[r][k][0]);
		memcpy(s->fx[r][k][1], &hi[3 * k], sizeof s->fx[r][k][1]);
	}
}
#endif

/* The rule, word by word. */
static void load_rows_rule(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4], unsigned nrows)
{
	gr3d_tram_tri *s = &t->tri[slot];
	for (unsigned r = 0; r < nrows; r++)
		for (unsigned k = 0; k < 4; k++)
			for (unsigned i = 0; i < 3; i++) {
				if (t->f32_words) {           /* a binary32 value, whole: read as FX10 too */
					const uint32_t w = v[i][r][k];
					s->v[r][k][i] = w;
					s->f[r][k][i] = s->fx[r][k][0][i] = s->fx[r][k][1][i] = gr3d_xf32(w);
					continue;
				}
				uint32_t w = v[i][r][k] & FP20_MASK;
				s->v[r][k][i] = w;
				s->f[r][k][i] = gr3d_fp20(w);
				s->fx[r][k][0][i] = gr3d_fx10(w, false);
				s->fx[r][k][1][i] = gr3d_fx10(w, true);
			}
}

static void load_rows(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4], unsigned nrows)
{
	if (t->f32_words) {
		load_rows_rule(t, slot, v, nrows);
		return;
	}
	for (unsigned r = 0; r < nrows; r++)
		load_row_fp20(&t->tri[slot], r, v);
}

void gr3d_tram_load_rule(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4])
{
	load_rows_rule(t, slot, v, GR3D_TRAM_ROWS);
}

void gr3d_tram_load(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4])
{
	load_rows(t, slot, v, GR3D_TRAM_ROWS);
}

unsigned gr3d_tram_fill(gr3d_tram *t, const uint32_t (*const v[3])[4])
{
	const unsigned slot = t->next;
	load_rows(t, slot, v, t->fill_rows < GR3D_TRAM_ROWS ? t->fill_rows : GR3D_TRAM_ROWS);
	t->refs[slot] = 1;                    /* the walk's hold (raster releases it) */
	t->next = slot + 1 == t->nslots ? 0 : slot + 1;   /* slot < nslots: no division */
	return slot;
}
