/* TEX: texture fetch (tex.h). */
#include "units/gr3d/tex.h"
#include "units/gr3d/tex_lanes.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const sim_counter_def TEX_COUNTERS[TEX_CTR_COUNT] = {
	[TEX_CTR_FETCHES] = { "fetches", "TEX instructions run (per quad)" },
	[TEX_CTR_TEXELS] = { "texels", "texels read" },
};

/* i mod n in 0..n-1; a power-of-two n (the common texture) by a mask,
 * which is the same value for every int i in two's complement. */
GR3D_HOT int mod_pos(int i, int n)
{
	return (n & (n - 1)) == 0 ? i & (n - 1) : ((i % n) + n) % n;
}

GR3D_HOT int wrap_coord(int i, int n, unsigned mode)
{
	switch (mode) {
	case GR3D_WRAP_CLAMP:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	case GR3D_WRAP_MIRROR: {
		int p = 2 * n;
		int m = mod_pos(i, p);
		return m < n ? m : p - 1 - m;
	}
	default:
		return mod_pos(i, n);
	}
}

/* floor(x) as an int, for |x| < 2^31 (tex_fetch's coordinates are within
 * 1e8): truncation, one less for a negative x with a fraction.  The same
 * value as (int)floor(x) without libm's call. */
GR3D_HOT int floor_int(double x)
{
	const int i = (int)x;
	return i - (x < (double)i);
}

/* A 16-bit depth as an FX10 code: d / 65535 at the FX10 step of 1/256,
 * rounded to nearest (docs/ASSUMPTIONS.md: TEX depth texels). */
static uint32_t depth_fx10(const gr3d_sampler *sm, unsigned d)
{
	return sm->depth_truncate ? d >> 8 : (d * 256u + 32767u) / 65535u;
}

static unsigned texel_depth(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

/* Two bytes b0 | b1 << 8 as the FX10 pair unorm8_to_fx10(b0) |
 * unorm8_to_fx10(b1) << 10: each byte moved to its field, then b + (b >> 7)
 * in both fields at once (b >> 7 is 0 or 1, so no field carries). */
GR3D_HOT uint32_t fx10_pair_of_bytes(uint32_t two)
{
	const uint32_t y = (two & 0xFFu) | (two & 0xFF00u) << 2;
	return y + ((y >> 7) & 0x401u);
}

/* One texel's channels as bytes, channel k in byte k (RGBA order), gathered
 * from the format; false for a D16 texel, whose 16-bit depth is *depth. */
GR3D_HOT bool texel_bytes(const gr3d_sampler *sm, const uint8_t *p, uint32_t *w, unsigned *depth)
{
	switch (sm->format) {
	case GR3D_TEX_BGRA8888: *w = (uint32_t)p[2] | (uint32_t)p[1] << 8 | (uint32_t)p[0] << 16 | (uint32_t)p[3] << 24; break;
	case GR3D_TEX_A8: *w = (uint32_t)p[3] << 24; break;
	case GR3D_TEX_L8: *w = (uint32_t)p[0] * 0x010101u | 0xFF000000u; break;
	case GR3D_TEX_RGB565:
		*w = (((p[0] >> 3) * 527u + 23u) >> 6) | (((p[1] >> 2) * 259u + 33u) >> 6) << 8 |
		     (((p[2] >> 3) * 527u + 23u) >> 6) << 16 | 0xFF000000u;
		break;
	case GR3D_TEX_D16:
		*depth = texel_depth(p);
		return false;
	default: *w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; break;
	}
	return true;
}

/* One texel as its FX10 pairs in register order: pr[0] = channels 0 | 1 << 10,
 * pr[1] = channels 2 | 3 << 10, converted two bytes at a time. */
GR3D_HOT void texel_pair(const gr3d_sampler *sm, const uint8_t *p, uint32_t pr[2])
{
	uint32_t w;                                     /* channel k in byte k */
	unsigned dep;
	if (!texel_bytes(sm, p, &w, &dep)) {
		const uint32_t d = depth_fx10(sm, dep);
		pr[0] = d | d << FX10_HIGH_SHIFT;
		pr[1] = d | (uint32_t)unorm8_to_fx10(255) << FX10_HIGH_SHIFT;
		return;
	}
	pr[0] = fx10_pair_of_bytes(w & 0xFFFFu);
	pr[1] = fx10_pair_of_bytes(w >> 16);
}

typedef tex_level_view level_view;

GR3D_HOT level_view view_of(const gr3d_sampler *sm, unsigned lvl)
{
	const ulp_image *img = lvl && lvl < sm->nlevels ? sm->level[lvl] : sm->img;
	level_view v = { 0 };
	if (img)
		v = (level_view){ img->rgba, (int)img->width, (int)img->height, img->width, img->height,
		                  sm->wrap, sm->wrap_t_own ? sm->wrap_t : sm->wrap };
	return v;
}

/* The texel at (x, y), wrapped, as its FX10 pairs. */
GR3D_HOT void texel_at(const gr3d_sampler *sm, const level_view *lv, int x, int y, uint32_t pr[2])
{
	x = wrap_coord(x, lv->w, lv->wrap_s);
	y = wrap_coord(y, lv->h, lv->wrap_t);
	texel_pair(sm, lv->rgba + ((size_t)y * (size_t)lv->w + (size_t)x) * 4u, pr);
}

/* An FX10 pair (two codes, 0..1023 each) as two binary64 lanes (the
 * compiler's vector types, GCC and Clang), low half first. */
typedef double tex_f64x2 __attribute__((vector_size(16)));
typedef int32_t tex_i32x2 __attribute__((vector_size(8)));

GR3D_HOT tex_f64x2 pair_f64(uint32_t pr)
{
	const tex_i32x2 n = { (int32_t)(pr & FX10_MASK), (int32_t)(pr >> FX10_HIGH_SHIFT) };
	return __builtin_convertvector(n, tex_f64x2);
}

/* A texel's four FX10 codes as four binary64 lanes (pair_f64 of both
 * pairs, channels 0..3), for the wide build (tex_quad_avx2): an RGBA8888
 * texel's bytes widened in one step and unorm8_to_fx10 (b + (b >> 7)) on
 * the four at once, another format through texel_pair.  Pointers, not
 * values: a function taking or returning these would change its ABI with
 * AVX, which GCC warns about. */
typedef double tex_f64x4 __attribute__((vector_size(32)));
typedef int32_t tex_i32x4 __attribute__((vector_size(16)));
typedef uint8_t tex_u8x4 __attribute__((vector_size(4)));

GR3D_HOT void texel_lanes(const gr3d_sampler *sm, const uint8_t *p, tex_f64x4 *out)
{
	tex_i32x4 n;
	if (sm->format == GR3D_TEX_RGBA8888) {
#if defined(__SSE2__)
		/* the four bytes widened by two unpacks with zero (x86-64's
		 * baseline; the generic conversion moves them one by one) */
		uint32_t w;
		memcpy(&w, p, sizeof w);
		const __m128i z = _mm_setzero_si128();
		n = (tex_i32x4)_mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)w), z), z);
#else
		tex_u8x4 b;
		memcpy(&b, p, sizeof b);
		n = __builtin_convertvector(b, tex_i32x4);
#endif
		n = n + (n >> 7);
	} else {
		uint32_t pr[2];
		texel_pair(sm, p, pr);
		n = (tex_i32x4){ (int32_t)(pr[0] & FX10_MASK), (int32_t)(pr[0] >> FX10_HIGH_SHIFT),
		                 (int32_t)(pr[1] & FX10_MASK), (int32_t)(pr[1] >> FX10_HIGH_SHIFT) };
	}
	*out = __builtin_convertvector(n, tex_f64x4);
}

/* tex_fetch on a level's view, with the result as FX10 pairs (texel_pair's
 * order); inlined into tex_quad's loop.  wide: the bilinear blend on the
 * four channels at once (one AVX2 register; the same operations on each
 * lane as the pairs'). */
GR3D_HOT unsigned fetch_view(const gr3d_sampler *sm, const level_view *lv, bool linear, double s, double t,
                             uint32_t pr[2], bool wide)
{
	if (!lv->rgba || !isfinite(s) || !isfinite(t)) {
		pr[0] = pr[1] = 0;
		return 0;
	}
	double u = s * lv->fw, v = t * lv->fh;
	if (fabs(u) > 1e8 || fabs(v) > 1e8)
		u = v = 0.0;
	if (!linear) {
		texel_at(sm, lv, floor_int(u), floor_int(v), pr);
		return 1;
	}
	u -= 0.5;
	v -= 0.5;
	const int x0 = floor_int(u), y0 = floor_int(v);
	const double fu = u - x0, fv = v - y0;
	/* the four texels' columns and rows, each wrapped once */
	const size_t xa = (size_t)wrap_coord(x0, lv->w, lv->wrap_s), xb = (size_t)wrap_coord(x0 + 1, lv->w, lv->wrap_s);
	const size_t w = (size_t)lv->w;
	const uint8_t *row0 = lv->rgba + (size_t)wrap_coord(y0, lv->h, lv->wrap_t) * w * 4u;
	const uint8_t *row1 = lv->rgba + (size_t)wrap_coord(y0 + 1, lv->h, lv->wrap_t) * w * 4u;
	if (wide) {
		tex_f64x4 ta, tb, tc, td;
		texel_lanes(sm, row0 + xa * 4u, &ta);
		texel_lanes(sm, row0 + xb * 4u, &tb);
		texel_lanes(sm, row1 + xa * 4u, &tc);
		texel_lanes(sm, row1 + xb * 4u, &td);
		const tex_f64x4 gu = { 1 - fu, 1 - fu, 1 - fu, 1 - fu }, ku = { fu, fu, fu, fu };
		const tex_f64x4 gv = { 1 - fv, 1 - fv, 1 - fv, 1 - fv }, kv = { fv, fv, fv, fv };
		const tex_f64x4 r = gv * (gu * ta + ku * tb) + kv * (gu * tc + ku * td) + 0.5;
		const tex_i32x4 n = __builtin_convertvector(r, tex_i32x4) & (int32_t)FX10_MASK;
		pr[0] = (uint32_t)n[0] | (uint32_t)n[1] << FX10_HIGH_SHIFT;
		pr[1] = (uint32_t)n[2] | (uint32_t)n[3] << FX10_HIGH_SHIFT;
		return 4;
	}
	uint32_t a[2], b[2], cc[2], d[2];
	texel_pair(sm, row0 + xa * 4u, a);
	texel_pair(sm, row0 + xb * 4u, b);
	texel_pair(sm, row1 + xa * 4u, cc);
	texel_pair(sm, row1 + xb * 4u, d);
	/* per channel (1 - fv) * ((1 - fu) * a + fu * b) + fv * ((1 - fu) * c + fu * d),
	 * two channels (one FX10 pair) to a vector: the same operations on each lane */
	const tex_f64x2 gu = { 1 - fu, 1 - fu }, ku = { fu, fu }, gv = { 1 - fv, 1 - fv }, kv = { fv, fv };
	for (unsigned h = 0; h < 2; h++) {
		const tex_f64x2 ta = pair_f64(a[h]), tb = pair_f64(b[h]), tc = pair_f64(cc[h]), td = pair_f64(d[h]);
		const tex_f64x2 r = gv * (gu * ta + ku * tb) + kv * (gu * tc + ku * td) + 0.5;
		/* r >= 0 and below 1024: the truncation is floor, and int32 holds it */
		const tex_i32x2 n = __builtin_convertvector(r, tex_i32x2) & (int32_t)FX10_MASK;
		pr[h] = (uint32_t)n[0] | (uint32_t)n[1] << FX10_HIGH_SHIFT;
	}
	return 4;
}

/* wrap_coord on four lanes: a power-of-two repeat by a mask, a clamp by
 * comparisons, another wrap lane by lane. */
GR3D_HOT tex_i32x4 wrap4(tex_i32x4 i, int n, unsigned mode)
{
	if (mode == GR3D_WRAP_REPEAT && (n & (n - 1)) == 0)
		return i & (n - 1);
	if (mode == GR3D_WRAP_CLAMP) {
		const tex_i32x4 top = { n - 1, n - 1, n - 1, n - 1 };
		const tex_i32x4 lo = i < 0, hi = i >= n;   /* (a comparison's lanes are 0 or -1) */
		return (~lo & ~hi & i) | (hi & top);
	}
	for (unsigned k = 0; k < GR3D_PIXELS; k++)
		i[k] = wrap_coord(i[k], n, mode);
	return i;
}

/* The fetch of a quad whose four pixels are live (tex_quad's wide build,
 * level 0 without a LOD): fetch_view's steps with the coordinates on four
 * lanes (u = s * fw, v = t * fh, the range test, for a bilinear filter
 * u - 0.5, floor_int, the fractions, each column and row wrapped), then
 * each pixel's texel (texel_pair, as fetch_view's nearest filter) or blend
 * (as fetch_view's wide one).  The four addresses are known before the
 * first load, so the loads of texels that miss the cache overlap.  The
 * four codes of each destination register in lo[], hi[].  Returns false,
 * having done nothing, when a coordinate is not finite or out of the range:
 * fetch_view then runs pixel by pixel. */
typedef int64_t tex_i64x4 __attribute__((vector_size(32)));

#if defined(__x86_64__)
/* floor_int on four lanes for fetch_quad's callers, which are built for
 * AVX2: vroundpd toward minus infinity, then the truncation, which is exact
 * (|u| <= 1e8 + 0.5): the truncation less one where u is below it, as
 * floor_int, in two instructions, not five and a narrowing. */
__attribute__((target("avx2"))) static inline void floor4(const tex_f64x4 *u, tex_i32x4 *out)
{
	*out = (tex_i32x4)_mm256_cvttpd_epi32(_mm256_floor_pd((__m256d)*u));
}
#endif

/* rgba4: the caller is built for AVX2 and a bilinear RGBA8888 fetch may take
 * blend_rgba4. */
GR3D_HOT bool fetch_quad(const gr3d_sampler *sm, const level_view *lv, bool linear, const double cs[GR3D_PIXELS],
                         const double ct[GR3D_PIXELS], uint32_t lo[GR3D_PIXELS], uint32_t hi[GR3D_PIXELS],
                         bool rgba4)
{
	tex_f64x4 u, v;
	memcpy(&u, cs, sizeof u);
	memcpy(&v, ct, sizeof v);
	u = u * lv->fw;
	v = v * lv->fh;
	/* !isfinite(s), !isfinite(t) or |u|, |v| > 1e8 in a lane: not here
	 * (a NaN or inf s gives a NaN or inf u) */
	const tex_i64x4 ok = (u <= 1e8) & (u >= -1e8) & (v <= 1e8) & (v >= -1e8);
	if (!(ok[0] & ok[1] & ok[2] & ok[3]))
		return false;
	if (linear) {
		u -= 0.5;
		v -= 0.5;
	}
	/* floor_int: the truncation, one less where u < it */
#if defined(__x86_64__)
	tex_i32x4 x0, y0;
	floor4(&u, &x0);
	floor4(&v, &y0);
#else
	const tex_i32x4 iu = __builtin_convertvector(u, tex_i32x4), iv = __builtin_convertvector(v, tex_i32x4);
	const tex_i32x4 x0 = iu + __builtin_convertvector(u < __builtin_convertvector(iu, tex_f64x4), tex_i32x4);
	const tex_i32x4 y0 = iv + __builtin_convertvector(v < __builtin_convertvector(iv, tex_f64x4), tex_i32x4);
#endif
	if (!linear) {
		const tex_i32x4 x = wrap4(x0, lv->w, lv->wrap_s), y = wrap4(y0, lv->h, lv->wrap_t);
		const uint8_t *t[GR3D_PIXELS];
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			t[p] = lv->rgba + ((size_t)y[p] * (size_t)lv->w + (size_t)x[p]) * 4u;
#if defined(__SSE2__)
		if (sm->format == GR3D_TEX_RGBA8888) {
			/* texel_pair of the four texels on four lanes: channel k in
			 * byte k, fx10_pair_of_bytes of the low and high halves */
			uint32_t w[GR3D_PIXELS];
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				memcpy(&w[p], t[p], sizeof w[p]);
			const __m128i tw = _mm_loadu_si128((const __m128i *)(const void *)w);
			const __m128i b0 = _mm_set1_epi32(0xFF), b1 = _mm_set1_epi32(0xFF00);
			const __m128i h = _mm_srli_epi32(tw, 16);
			const __m128i yl = _mm_or_si128(_mm_and_si128(tw, b0), _mm_slli_epi32(_mm_and_si128(tw, b1), 2));
			const __m128i yh = _mm_or_si128(_mm_and_si128(h, b0), _mm_slli_epi32(_mm_and_si128(h, b1), 2));
			const __m128i k = _mm_set1_epi32(0x401);
			const __m128i pl = _mm_add_epi32(yl, _mm_and_si128(_mm_srli_epi32(yl, 7), k));
			const __m128i ph = _mm_add_epi32(yh, _mm_and_si128(_mm_srli_epi32(yh, 7), k));
			_mm_storeu_si128((__m128i *)(void *)lo, pl);
			_mm_storeu_si128((__m128i *)(void *)hi, ph);
			return true;
		}
#endif
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			uint32_t pr[2];
			texel_pair(sm, t[p], pr);
			lo[p] = pr[0];
			hi[p] = pr[1];
		}
		return true;
	}
	const tex_f64x4 fu = u - __builtin_convertvector(x0, tex_f64x4), fv = v - __builtin_convertvector(y0, tex_f64x4);
	const tex_i32x4 xa = wrap4(x0, lv->w, lv->wrap_s), xb = wrap4(x0 + 1, lv->w, lv->wrap_s);
	const tex_i32x4 ya = wrap4(y0, lv->h, lv->wrap_t), yb = wrap4(y0 + 1, lv->h, lv->wrap_t);
#if defined(__x86_64__)
	if (rgba4 && sm->format == GR3D_TEX_RGBA8888) {
		int32_t ixa[GR3D_PIXELS], ixb[GR3D_PIXELS], iya[GR3D_PIXELS], iyb[GR3D_PIXELS];
		double dfu[GR3D_PIXELS], dfv[GR3D_PIXELS];
		memcpy(ixa, &xa, sizeof ixa);
		memcpy(ixb, &xb, sizeof ixb);
		memcpy(iya, &ya, sizeof iya);
		memcpy(iyb, &yb, sizeof iyb);
		memcpy(dfu, &fu, sizeof dfu);
		memcpy(dfv, &fv, sizeof dfv);
		blend_rgba4(lv, ixa, ixb, iya, iyb, dfu, dfv, lo, hi);
		return true;
	}
#else
	(void)rgba4;
#endif
	const size_t w4 = (size_t)lv->w * 4u;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const uint8_t *row0 = lv->rgba + (size_t)ya[p] * w4, *row1 = lv->rgba + (size_t)yb[p] * w4;
		tex_f64x4 ta, tb, tc, td;
		texel_lanes(sm, row0 + (size_t)xa[p] * 4u, &ta);
		texel_lanes(sm, row0 + (size_t)xb[p] * 4u, &tb);
		texel_lanes(sm, row1 + (size_t)xa[p] * 4u, &tc);
		texel_lanes(sm, row1 + (size_t)xb[p] * 4u, &td);
		const double gu1 = 1 - fu[p], ku1 = fu[p], gv1 = 1 - fv[p], kv1 = fv[p];
		const tex_f64x4 gu = { gu1, gu1, gu1, gu1 }, ku = { ku1, ku1, ku1, ku1 };
		const tex_f64x4 gv = { gv1, gv1, gv1, gv1 }, kv = { kv1, kv1, kv1, kv1 };
		const tex_f64x4 r = gv * (gu * ta + ku * tb) + kv * (gu * tc + ku * td) + 0.5;
		const tex_i32x4 n = __builtin_convertvector(r, tex_i32x4) & (int32_t)FX10_MASK;
		lo[p] = (uint32_t)n[0] | (uint32_t)n[1] << FX10_HIGH_SHIFT;
		hi[p] = (uint32_t)n[2] | (uint32_t)n[3] << FX10_HIGH_SHIFT;
	}
	return true;
}

/* Level lvl of a sampler (level 0 = img when no chain is built) at
 * normalised (s, t), nearest or bilinear within the level: four FX10 codes;
 * returns the number of texels read. */
static unsigned tex_fetch(const gr3d_sampler *sm, unsigned lvl, bool linear, double s, double t,
                          uint32_t out[4])
{
	uint32_t pr[2];
	const level_view lv = view_of(sm, lvl);
	const unsigned n = fetch_view(sm, &lv, linear, s, t, pr, false);
	out[0] = pr[0] & FX10_MASK;
	out[1] = pr[0] >> FX10_HIGH_SHIFT;
	out[2] = pr[1] & FX10_MASK;
	out[3] = pr[1] >> FX10_HIGH_SHIFT;
	return n;
}

unsigned tex_sample(const gr3d_sampler *sm, unsigned lvl, double s, double t, uint32_t out[4])
{
	return tex_fetch(sm, lvl, sm->bilinear, s, t, out);
}

/* The level(s) a LOD picks, shared by the hardware and the exact filter:
 * level lv[0] alone (n == 1), or lv[0] and lv[0] + 1 blended by f (the
 * linear mip filter); `linear` is the filter within a level. */
typedef struct lod_pick {
	unsigned lv, n;
	double f;
	bool linear;
} lod_pick;

static inline lod_pick pick_levels(const gr3d_sampler *sm, double lod)
{
	lod_pick p = { 0, 1, 0.0, sm->bilinear };
	if (!(lod > 0))                                /* magnification (or no LOD): level 0 */
		return p;
	p.linear = sm->min_filter == GR3D_MIN_AS_MAG ? sm->bilinear : sm->min_filter == GR3D_MIN_LINEAR;
	if (sm->nlevels < 2 || sm->mip_none)
		return p;
	const unsigned last = sm->nlevels - 1u;
	if (!sm->mip_linear) {
		double l = floor(lod + 0.5);
		p.lv = l >= last ? last : (unsigned)l;
		return p;
	}
	double l0 = floor(lod);
	if (l0 >= last) {
		p.lv = last;
		return p;
	}
	p.lv = (unsigned)l0;
	p.n = 2;
	p.f = lod - l0;
	return p;
}

unsigned tex_filter(const gr3d_sampler *sm, double lod, double s, double t, uint32_t out[4])
{
	const lod_pick p = pick_levels(sm, lod);
	if (p.n == 1)
		return tex_fetch(sm, p.lv, p.linear, s, t, out);
	uint32_t a[4], b[4];
	unsigned n = tex_fetch(sm, p.lv, p.linear, s, t, a);
	n += tex_fetch(sm, p.lv + 1, p.linear, s, t, b);
	for (unsigned k = 0; k < 4; k++)
		out[k] = (uint32_t)((1 - p.f) * a[k] + p.f * b[k] + 0.5) & FX10_MASK;   /* >= 0: floor */
	return n;
}

/* ---- arith=exact (docs/exact.md): the same texels, levels, weights and
 * counts as fetch_view / tex_fetch / tex_filter, with the channels as
 * values (bytes / 255, a depth / 65535) and no FX10 step in the filter. */
static void xtexel(const gr3d_sampler *sm, const level_view *lv, int x, int y, double out[4])
{
	x = wrap_coord(x, lv->w, lv->wrap_s);
	y = wrap_coord(y, lv->h, lv->wrap_t);
	uint32_t w;
	unsigned dep;
	if (!texel_bytes(sm, lv->rgba + ((size_t)y * (size_t)lv->w + (size_t)x) * 4u, &w, &dep)) {
		out[0] = out[1] = out[2] = dep / 65535.0;
		out[3] = 1.0;
		return;
	}
	for (unsigned k = 0; k < 4; k++)
		out[k] = (double)((w >> (8 * k)) & 0xFFu) / 255.0;
}

static unsigned xtex_fetch(const gr3d_sampler *sm, unsigned lvl, bool linear, double s, double t, double out[4])
{
	const level_view lv = view_of(sm, lvl);
	for (unsigned k = 0; k < 4; k++)
		out[k] = 0.0;
	if (!lv.rgba || !isfinite(s) || !isfinite(t))
		return 0;
	double u = s * lv.fw, v = t * lv.fh;
	if (fabs(u) > 1e8 || fabs(v) > 1e8)
		u = v = 0.0;
	if (!linear) {
		xtexel(sm, &lv, floor_int(u), floor_int(v), out);
		return 1;
	}
	u -= 0.5;
	v -= 0.5;
	const int x0 = floor_int(u), y0 = floor_int(v);
	const double fu = u - x0, fv = v - y0;
	double a[4], b[4], cc[4], d[4];
	xtexel(sm, &lv, x0, y0, a);
	xtexel(sm, &lv, x0 + 1, y0, b);
	xtexel(sm, &lv, x0, y0 + 1, cc);
	xtexel(sm, &lv, x0 + 1, y0 + 1, d);
	for (unsigned k = 0; k < 4; k++)
		out[k] = (float)((1 - fv) * ((1 - fu) * a[k] + fu * b[k]) + fv * ((1 - fu) * cc[k] + fu * d[k]));
	return 4;
}

static unsigned xtex_filter(const gr3d_sampler *sm, bool use_lod, double lod, double s, double t, double out[4])
{
	const lod_pick p = pick_levels(sm, use_lod ? lod : 0.0);
	if (p.n == 1)
		return xtex_fetch(sm, p.lv, p.linear, s, t, out);
	double a[4], b[4];
	unsigned n = xtex_fetch(sm, p.lv, p.linear, s, t, a);
	n += xtex_fetch(sm, p.lv + 1, p.linear, s, t, b);
	for (unsigned k = 0; k < 4; k++)
		out[k] = (float)((1 - p.f) * a[k] + p.f * b[k]);
	return n;
}

/* The four channels as exact-mode register words: two 16-bit halves each. */
static void xtex_pairs(const gr3d_ctx *c, const double ch[4], uint32_t pr[2])
{
	pr[0] = gr3d_xfx_bits(c->fx10_wrap, ch[0]) | gr3d_xfx_bits(c->fx10_wrap, ch[1]) << GR3D_XFX_SHIFT;
	pr[1] = gr3d_xfx_bits(c->fx10_wrap, ch[2]) | gr3d_xfx_bits(c->fx10_wrap, ch[3]) << GR3D_XFX_SHIFT;
}

double tex_lod(const gr3d_sampler *sm, const double s[4], const double t[4], double bias)
{
	if (!sm->img)
		return 0.0;
	double w = sm->img->width, h = sm->img->height;
	/* pixel 1 is right of pixel 0, pixel 2 below it */
	double dx = fmax(fabs(s[1] - s[0]) * w, fabs(t[1] - t[0]) * h);
	double dy = fmax(fabs(s[2] - s[0]) * w, fabs(t[2] - t[0]) * h);
	double rho = fmax(dx, dy);
	bias += sm->lod_bias;
	if (!(rho > 0) || !isfinite(rho) || !isfinite(bias))
		return 0.0;
	return log2(rho) + bias;
}

bool tex_build_levels(gr3d_sampler *sm, ulp_image *owned[GR3D_TEX_LEVELS], ulp_diag *d)
{
	for (unsigned k = 0; k < GR3D_TEX_LEVELS; k++)
		owned[k] = NULL;
	if (sm->img && !sm->mipmap && sm->nlevels > 1) {   /* the caller's levels */
		sm->level[0] = sm->img;
		for (unsigned k = 1; k < sm->nlevels; k++)
			if (!sm->level[k])
				return ulp_diag_at(d, NULL, 0, 0, "texture level %u is missing", k);
		return true;
	}
	sm->level[0] = sm->img;
	sm->nlevels = sm->img ? 1 : 0;
	if (!sm->img || !sm->mipmap)
		return true;
	const ulp_image *prev = sm->img;
	for (unsigned k = 1; k < GR3D_TEX_LEVELS && (prev->width > 1 || prev->height > 1); k++) {
		uint32_t w = prev->width > 1 ? prev->width / 2 : 1, h = prev->height > 1 ? prev->height / 2 : 1;
		ulp_image *img = ulp_image_create(w, h, d);
		if (!img)
			return false;
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				uint32_t x0 = prev->width > 1 ? 2 * x : 0, y0 = prev->height > 1 ? 2 * y : 0;
				uint32_t x1 = prev->width > 1 ? x0 + 1 : 0, y1 = prev->height > 1 ? y0 + 1 : 0;
				const uint8_t *q[4] = { ulp_image_cpx(prev, x0, y0), ulp_image_cpx(prev, x1, y0),
				                        ulp_image_cpx(prev, x0, y1), ulp_image_cpx(prev, x1, y1) };
				uint8_t *o = ulp_image_px(img, x, y);
				if (sm->format == GR3D_TEX_D16) {    /* the 16-bit depth, not its bytes */
					unsigned v = (texel_depth(q[0]) + texel_depth(q[1]) + texel_depth(q[2]) +
					              texel_depth(q[3]) + 2) / 4;
					o[0] = (uint8_t)v, o[1] = (uint8_t)(v >> 8), o[2] = 0, o[3] = 255;
					continue;
				}
				for (unsigned c = 0; c < 4; c++)
					o[c] = (uint8_t)((q[0][c] + q[1][c] + q[2][c] + q[3][c] + 2) / 4);
			}
		owned[k] = img;
		sm->level[k] = img;
		sm->nlevels = (uint8_t)(k + 1);
		prev = img;
	}
	return true;
}

/* A quad's fetched pair (lo4, hi4: its four pixels' words) into registers
 * dlo and dhi, the old values kept for the viewer when shadow, the fetch
 * and its texels counted; the quad's clocks. */
static inline __attribute__((always_inline)) unsigned store_quad(const tex_unit *tu, gr3d_quad *q, unsigned dlo,
                                                                 unsigned dhi, bool shadow,
                                                                 const uint32_t lo4[GR3D_PIXELS],
                                                                 const uint32_t hi4[GR3D_PIXELS], uint64_t texels)
{
	for (unsigned p = 0; p < GR3D_PIXELS && shadow; p++) {
		gr3d_pixel *px = &q->px[p];
		px->tex_old[0] = q->r[dlo][p];
		px->tex_old[1] = q->r[dhi][p];
		px->tex_reg[0] = (uint8_t)dlo;
		px->tex_reg[1] = (uint8_t)dhi;
		px->tex_shadow = 3;
	}
	memcpy(q->r[dlo], lo4, GR3D_PIXELS * sizeof *lo4);
	memcpy(q->r[dhi], hi4, GR3D_PIXELS * sizeof *hi4);
	gr3d_stage *s = &((tex_unit *)tu)->s;
	sim_unit_count(&s->u, TEX_CTR_FETCHES, 1);
	sim_unit_count(&s->u, TEX_CTR_TEXELS, texels);
	return s->quad_clocks;
}

/* The fetch of an enabled TEX instruction for the quad's live pixels;
 * returns the clocks.  Built twice (tex_quad_avx2, tex_quad_plain), out of
 * line (and reached by a tail call), so that the many EXECs without a
 * fetch do not pay for its registers. */
static inline __attribute__((always_inline)) unsigned tex_quad(const tex_unit *tu, gr3d_quad *q, unsigned e,
                                                               bool wide)
{
	const gr3d_ctx *c = tu->s.ctx;
	const tex_plan *pl = &tu->plan[e];
	const bool shadow = tu->shadow;
	/* coordinates: r0,r1,r2[,r3] or r2,r3,r0[,r1] of the row the MFU wrote
	 * (tegra.tex.src_row_from_mfu) or of the current row */
	unsigned sS, sT, sB;
	if (!tu->src_from_mfu || q->tex_row < TEX_PLAN_ROWS) {
		const uint8_t *src = pl->src[tu->src_from_mfu ? q->tex_row : 0];
		sS = src[0], sT = src[1], sB = src[2];
	} else {
		const tegra_tex_inst *in = &c->prog->exec[e].tex;
		sS = gr3d_row_reg(c, q->tex_row, in->src_r2 ? 2 : 0);
		sT = gr3d_row_reg(c, q->tex_row, in->src_r2 ? 3 : 1);
		sB = gr3d_row_reg(c, q->tex_row, in->src_r2 ? 1 : 3);
	}
	const unsigned dlo = pl->dst[0], dhi = pl->dst[1];
	/* a copy: the register stores below cannot alias it, so its fields
	 * stay in registers (a byte store may alias any byte field) */
	const gr3d_sampler smv = c->sampler[pl->sampler];
	const gr3d_sampler *sm = &smv;
	/* coordinates of all four pixels (helpers too) give the quad's LOD
	 * (gr3d_fp20_quad with subnormals is gr3d_fp20 for every code) */
	double cs[GR3D_PIXELS], ct[GR3D_PIXELS];
	gr3d_rd20_quad(c, true, q->r[sS], cs);
	gr3d_rd20_quad(c, true, q->r[sT], ct);
	/* one LOD per quad when a level or the min/mag choice depends on it */
	double lod = 0.0;
	bool minmag = sm->min_filter != GR3D_MIN_AS_MAG &&
	              (sm->min_filter == GR3D_MIN_LINEAR) != sm->bilinear;
	const bool use_lod = (sm->nlevels > 1 && !sm->mip_none) || minmag;
	if (use_lod) {
		/* TXB: the bias of the first live pixel */
		double bias = 0.0;
		for (unsigned p = 0; p < GR3D_PIXELS && pl->bias; p++)
			if (!q->killed[p]) {
				bias = gr3d_rd20(c, q->r[sB][p]);
				break;
			}
		lod = tex_lod(sm, cs, ct, bias);
	}
	const level_view l0 = view_of(sm, 0);
	uint64_t texels = 0;
	uint32_t lo4[GR3D_PIXELS], hi4[GR3D_PIXELS];
	if (wide && !c->exact && !use_lod && l0.rgba && !gr3d_flags4(q->killed) &&
	    fetch_quad(sm, &l0, sm->bilinear, cs, ct, lo4, hi4, false)) {
		return store_quad(tu, q, dlo, dhi, shadow, lo4, hi4, (sm->bilinear ? 4u : 1u) * GR3D_PIXELS);
	}
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		if (shadow)
			px->tex_shadow = 0;
		if (q->killed[p])
			continue;
		uint32_t pr[2];
		if (c->exact) {    /* arith=exact: the channels as values */
			double ch[4];
			texels += xtex_filter(sm, use_lod, lod, cs[p], ct[p], ch);
			xtex_pairs(c, ch, pr);
		} else if (use_lod) {
			uint32_t t4[4];
			texels += tex_filter(sm, lod, cs[p], ct[p], t4);
			pr[0] = t4[0] | t4[1] << FX10_HIGH_SHIFT;
			pr[1] = t4[2] | t4[3] << FX10_HIGH_SHIFT;
		} else {           /* without a LOD tex_filter magnifies: level 0, the mag filter */
			texels += fetch_view(sm, &l0, sm->bilinear, cs[p], ct[p], pr, wide);
		}
		if (shadow) {
			px->tex_old[0] = q->r[dlo][p];
			px->tex_old[1] = q->r[dhi][p];
			px->tex_reg[0] = (uint8_t)dlo;
			px->tex_reg[1] = (uint8_t)dhi;
			px->tex_shadow = 3;
		}
		q->r[dlo][p] = pr[0];
		q->r[dhi][p] = pr[1];
	}
	gr3d_stage *s = &((tex_unit *)tu)->s;
	sim_unit_count(&s->u, TEX_CTR_FETCHES, 1);
	sim_unit_count(&s->u, TEX_CTR_TEXELS, texels);
	return s->quad_clocks;
}

/* For AVX2, where the bilinear blend of a texel's four channels is one
 * register (fetch_view's wide), and for plain x86-64; IEEE binary64 either
 * way. */
#if defined(__x86_64__)
__attribute__((target("avx2"), noinline)) static unsigned tex_quad_avx2(const tex_unit *tu, gr3d_quad *q,
                                                                        unsigned e)
{
	return tex_quad(tu, q, e, true);
}
/* tex_quad's fetch on four lanes (fetch_quad) for an EXEC whose plan says
 * lanes, without what the plan settled for the draw (the sampler's copy,
 * the LOD's decisions, level 0's view): a quad with a pixel killed, a
 * coordinate row the plan does not hold or a coordinate fetch_quad does
 * not take goes to tex_quad_avx2, which does the same from the start. */
__attribute__((target("avx2"), noinline)) static unsigned tex_lanes_avx2(const tex_unit *tu, gr3d_quad *q,
                                                                         unsigned e)
{
	const gr3d_ctx *c = tu->s.ctx;
	const tex_plan *pl = &tu->plan[e];
	if (gr3d_flags4(q->killed) || (tu->src_from_mfu && q->tex_row >= TEX_PLAN_ROWS))
		return tex_quad_avx2(tu, q, e);
	const uint8_t *src = pl->src[tu->src_from_mfu ? q->tex_row : 0];
	double cs[GR3D_PIXELS], ct[GR3D_PIXELS];
	fp20_lanes(q->r[src[0]], cs);
	fp20_lanes(q->r[src[1]], ct);
	uint32_t lo4[GR3D_PIXELS], hi4[GR3D_PIXELS];
	/* (fetch_quad only loads: the sampler needs no copy) */
	if (!fetch_quad(&c->sampler[pl->sampler], &pl->l0, pl->linear, cs, ct, lo4, hi4, true))
		return tex_quad_avx2(tu, q, e);
	const unsigned dlo = pl->dst[0], dhi = pl->dst[1];
	return store_quad(tu, q, dlo, dhi, tu->shadow, lo4, hi4, (pl->linear ? 4u : 1u) * GR3D_PIXELS);
}
#endif
__attribute__((noinline)) static unsigned tex_quad_plain(const tex_unit *tu, gr3d_quad *q, unsigned e)
{
	return tex_quad(tu, q, e, false);
}

static unsigned tex_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const tex_unit *tu = (const tex_unit *)s;
#if defined(__x86_64__)
	if (tu->fetch[e] && tu->avx2)
		return tu->plan[e].lanes ? tex_lanes_avx2(tu, q, e) : tex_quad_avx2(tu, q, e);
#endif
	if (tu->fetch[e])
		return tex_quad_plain(tu, q, e);
	if (tu->end_view[e])
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			q->px[p].tex_shadow = 0;
	return s->quad_clocks;
}

bool tex_samples_target(const gr3d_ctx *ctx)
{
	for (unsigned s = 0; s < GR3D_SAMPLERS; s++)
		for (unsigned r = 0; r < GR3D_RTS; r++) {
			const ulp_image *rt = ctx->rt[r];
			if (!rt)
				continue;
			if (ctx->sampler[s].img == rt)
				return true;
			for (unsigned l = 0; l < GR3D_TEX_LEVELS; l++)
				if (ctx->sampler[s].level[l] == rt)
					return true;
		}
	return false;
}

void tex_init(tex_unit *t, gr3d_ctx *ctx)
{
	gr3d_stage_init(&t->s, "tex", ctx, TEX_COUNTERS, TEX_CTR_COUNT);
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		ctx->sampler[k].depth_truncate = !ctx->cfg->tegra_tex_depth_round;
	t->s.exec = tex_exec;
	t->shadow = ctx->cfg->tegra_tex_fp20_coords;
	t->src_from_mfu = ctx->cfg->tegra_tex_src_from_mfu;
#if defined(__x86_64__)
	t->avx2 = __builtin_cpu_supports("avx2");
#endif
	memset(t->fetch, 0, sizeof t->fetch);
	memset(t->end_view, 0, sizeof t->end_view);
	memset(t->plan, 0, sizeof t->plan);
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		const tegra_tex_inst *in = &ctx->prog->exec[e].tex;
		tex_plan *pl = &t->plan[e];
		t->fetch[e] = in->enable;
		/* The pre-fetch view (tex_shadow) lasts one EXEC.  Only tex_quad sets
		 * it (tegra.tex.fp20_reads_see_coords); PSEQ admits a quad with it 0
		 * and a quad runs its EXECs in order (DW recirculates EXEC e as e + 1),
		 * so an EXEC without a fetch finds it set only after an EXEC with one:
		 * it clears it there, and everywhere else it is 0 already. */
		t->end_view[e] = t->shadow && e > 0 && ctx->prog->exec[e - 1].tex.enable;
		pl->sampler = in->sampler & (GR3D_SAMPLERS - 1);
		/* tex_quad's conditions for fetch_quad that hold for the whole draw */
		const gr3d_sampler *sm = &ctx->sampler[pl->sampler];
		const bool minmag = sm->min_filter != GR3D_MIN_AS_MAG && (sm->min_filter == GR3D_MIN_LINEAR) != sm->bilinear;
		const bool use_lod = (sm->nlevels > 1 && !sm->mip_none) || minmag;
		pl->l0 = view_of(sm, 0);
		pl->linear = sm->bilinear;
		pl->lanes = t->avx2 && in->enable && !ctx->exact && !use_lod && pl->l0.rgba;
		pl->bias = in->bias;
		pl->dst[0] = (uint8_t)gr3d_row_reg(ctx, e, in->dst_r2 ? 2 : 0);
		pl->dst[1] = (uint8_t)gr3d_row_reg(ctx, e, in->dst_r2 ? 3 : 1);
		for (unsigned r = 0; r < TEX_PLAN_ROWS; r++) {
			const unsigned src_exec = t->src_from_mfu ? r : e;   /* [0]: the EXEC's own row */
			pl->src[r][0] = (uint8_t)gr3d_row_reg(ctx, src_exec, in->src_r2 ? 2 : 0);
			pl->src[r][1] = (uint8_t)gr3d_row_reg(ctx, src_exec, in->src_r2 ? 3 : 1);
			pl->src[r][2] = (uint8_t)gr3d_row_reg(ctx, src_exec, in->src_r2 ? 1 : 3);
		}
	}
}
