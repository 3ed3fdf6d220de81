/* DW: render-target and stencil writes, recirculation (dw.h). */
#include "units/gr3d/dw.h"

#include "units/gr3d/ahead.h"
#include "units/gr3d/zs.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const sim_counter_def DW_COUNTERS[DW_CTR_COUNT] = {
	[DW_CTR_STORES] = { "stores", "DW store instructions run (per quad)" },
	[DW_CTR_PIXELS] = { "pixels_written", "pixels written to a render target" },
	[DW_CTR_KILLED] = { "pixels_killed", "pixels a store skipped because they were killed" },
	[DW_CTR_STENCIL] = { "stencil_writes", "pixels written to the stencil buffer" },
	[DW_CTR_QUADS_DONE] = { "quads_done", "quads that finished the program" },
	[DW_CTR_ZS_FAILED] = { "zs_late_failed", "pixels the late depth/stencil test stopped (program can kill)" },
};

/* Four live pixels (covered, not killed, no kill in this EXEC), tested
 * with no branch. */
static bool quad_all_live(const gr3d_quad *q)
{
	return gr3d_flags4(q->covered) == 0x01010101u && !(gr3d_flags4(q->killed) | gr3d_flags4(q->exec_killed));
}

/* The pair (lo, hi) of one pixel as UNORM8 bytes 0..3 (rN.l, rN.h, rN+1.l,
 * rN+1.h), with the hardware-verified FX10 -> UNORM8 rule (the table). */
static void unorm8_pixel(const uint8_t unorm8[FX10_MASK + 1], uint32_t lo, uint32_t hi, uint8_t *b)
{
	const uint8_t b0 = unorm8[lo & FX10_MASK], b1 = unorm8[(lo >> FX10_HIGH_SHIFT) & FX10_MASK];
	const uint8_t b2 = unorm8[hi & FX10_MASK], b3 = unorm8[(hi >> FX10_HIGH_SHIFT) & FX10_MASK];
	b[0] = b0;
	b[1] = b1;
	b[2] = b2;
	b[3] = b3;
}

/* unorm8_pixel on the four pixels of a quad at once, in SSE2 (x86-64's
 * baseline): out[p] is pixel p's four bytes, channel k in byte k (the
 * target's order).  The table's rule (fx10_to_unorm8: v = sext10(code), 0
 * for v <= 0, (v * 255 + 127) >> 8 up to 255) is the same as clamping v to
 * [0, 256] first (256 and above give 255), so each channel is a 16-bit lane:
 * v clamped by one max and one min, v * 255 + 127 as (v << 8) - v + 127
 * (at most 65407: no carry out of the lane), shifted down, and the lanes put
 * in pixel order and packed to bytes.  tests/units/test_dw_quad.c compares it
 * with the table on every code. */
#if defined(__SSE2__)
static inline void unorm8_quad(const uint32_t lo[GR3D_PIXELS], const uint32_t hi[GR3D_PIXELS],
                               uint8_t out[GR3D_PIXELS * 4])
{
	const __m128i m0 = _mm_set1_epi32(FX10_MASK), m1 = _mm_set1_epi32((int)(FX10_MASK << 16));
	const __m128i sign = _mm_set1_epi16(FX10_SIGN);
	const __m128i l = _mm_loadu_si128((const __m128i *)(const void *)lo);
	const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)hi);
	/* each word's two codes in its two 16-bit halves: channels 0 1 (lo), 2 3 (hi) */
	__m128i a = _mm_or_si128(_mm_and_si128(l, m0), _mm_and_si128(_mm_slli_epi32(l, 16 - FX10_HIGH_SHIFT), m1));
	__m128i b = _mm_or_si128(_mm_and_si128(h, m0), _mm_and_si128(_mm_slli_epi32(h, 16 - FX10_HIGH_SHIFT), m1));
	a = _mm_sub_epi16(_mm_xor_si128(a, sign), sign);              /* sext10 */
	b = _mm_sub_epi16(_mm_xor_si128(b, sign), sign);
	const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(256), half = _mm_set1_epi16(127);
	a = _mm_min_epi16(_mm_max_epi16(a, zero), top);
	b = _mm_min_epi16(_mm_max_epi16(b, zero), top);
	a = _mm_srli_epi16(_mm_add_epi16(_mm_sub_epi16(_mm_slli_epi16(a, 8), a), half), 8);
	b = _mm_srli_epi16(_mm_add_epi16(_mm_sub_epi16(_mm_slli_epi16(b, 8), b), half), 8);
	/* pixels 0 1 and 2 3 as channels 0..3 each, then bytes */
	const __m128i bytes = _mm_packus_epi16(_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
	_mm_storeu_si128((__m128i *)(void *)out, bytes);
}
#endif

/* arith=exact (docs/exact.md): a channel of `levels` + 1 steps from its
 * exact-mode half, rounded to nearest once, expanded back to 8 bits as the
 * target keeps it (levels 255: the byte; 31, 63: RGB565 read back). */
static uint8_t xchannel(uint32_t w, bool high, unsigned levels)
{
	double v = gr3d_xfx(w, high);
	v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
	const unsigned n = (unsigned)lround(v * levels);
	return (uint8_t)(levels == 31 ? (n * 527 + 23) >> 6 : levels == 63 ? (n * 259 + 33) >> 6 : n);
}

static void xpixel(uint32_t lo, uint32_t hi, uint8_t fmt, uint8_t *b)
{
	const bool c565 = fmt == GR3D_RT_RGB565;
	b[0] = xchannel(lo, false, c565 ? 31 : 255);
	b[1] = xchannel(lo, true, c565 ? 63 : 255);
	b[2] = xchannel(hi, false, c565 ? 31 : 255);
	b[3] = c565 ? 255 : xchannel(hi, true, 255);
}

/* The store of a quad pixel by pixel: uncovered, killed and (late
 * depth/stencil) failing pixels are skipped, stencil stores, any target
 * format, pixels outside the target, the viewer's write log. */
static __attribute__((noinline)) void dw_store_pixels(dw_unit *w, gr3d_quad *q, const dw_plan *pl, zs_late_entry *ze)
{
	gr3d_stage *s = &w->s;
	gr3d_ctx *c = s->ctx;
	ulp_image *rt = pl->rt;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		if (!q->covered[p])
			continue;
		if (q->killed[p] || q->exec_killed[p]) {
			sim_unit_count(&s->u, DW_CTR_KILLED, 1);
			continue;
		}
		uint32_t x = q->x + (p & 1u), y = q->y + (p >> 1);
		if (ze && !zs_late_resolve(w->late, ze, q, p)) {
			sim_unit_count(&s->u, DW_CTR_ZS_FAILED, 1);
			continue;
		}
		if (pl->stencil) {         /* store stencil: marks the pixel (docs/tegra-units.md) */
			if (c->stencil && x < c->width && y < c->height)
				c->stencil[(size_t)y * c->width + x] = 0xFF;
			sim_unit_count(&s->u, DW_CTR_STENCIL, 1);
			continue;
		}
		if (!rt || x >= rt->width || y >= rt->height)
			continue;
		uint8_t *b = ulp_image_px(rt, x, y);
		if (c->exact)
			xpixel(q->r[pl->lo][p], q->r[pl->hi][p], pl->fmt, b);
		else
			unorm8_pixel(w->unorm8, q->r[pl->lo][p], q->r[pl->hi][p], b);
		if (pl->fmt == GR3D_RT_RGB565 && c->exact) {
			/* xpixel stored the 5/6-bit channels */
		} else if (pl->fmt == GR3D_RT_RGB565) {   /* the view of what the target stores */
			b[0] = w->r5[b[0]];
			b[1] = w->g6[b[1]];
			b[2] = w->r5[b[2]];
			b[3] = 255;
		} else if (pl->fmt == GR3D_RT_A8) {
			b[0] = b[1] = b[2] = 0;
		}
		sim_unit_count(&s->u, DW_CTR_PIXELS, 1);
		if (c->probe && rt == c->probe->target && c->probe->pixel)   /* the viewer's write log */
			c->probe->pixel(c->probe->ctx, c->probe->base + s->now, x, y, b);
	}
}

/* A quad whose four pixels are live and inside the target (two rows of two). */
static inline bool quad_whole(const dw_plan *pl, const gr3d_quad *q)
{
	return q->x + 1u < pl->rt->width && q->y + 1u < pl->rt->height && quad_all_live(q);
}

/* A whole quad's store into a plain target: the four pixels' bytes formed
 * at once, then two rows of two pixels, one 8-byte store each. */
static inline void store_quad(const dw_unit *w, const dw_plan *pl, const gr3d_quad *q)
{
	uint8_t *row = ulp_image_px(pl->rt, q->x, q->y);
	const size_t stride = (size_t)pl->rt->width * 4u;
#if defined(__SSE2__)
	(void)w;
	uint8_t px[GR3D_PIXELS * 4];
	unorm8_quad(q->r[pl->lo], q->r[pl->hi], px);
	memcpy(row, px, 8);                      /* pixels 0 1, then 2 3 */
	memcpy(row + stride, px + 8, 8);
#else
	/* locals: a byte store may alias anything, the compiler would reload
	 * what it reads through a pointer after each */
	const unsigned lo = pl->lo, hi = pl->hi;
	const uint8_t *unorm8 = w->unorm8;
	for (unsigned p = 0; p < GR3D_PIXELS; p += 2, row += stride) {   /* pixels 0 1, then 2 3 */
		unorm8_pixel(unorm8, q->r[lo][p], q->r[hi][p], row);
		unorm8_pixel(unorm8, q->r[lo][p + 1], q->r[hi][p + 1], row + 4);
	}
#endif
}

static __attribute__((noinline)) unsigned dw_exec_general(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	gr3d_ctx *c = s->ctx;
	dw_unit *w = (dw_unit *)s;
	const dw_plan *pl = &w->plan[e];
	zs_late_entry *ze = NULL;
	if (c->probe && c->probe->quad)   /* the viewer's watch: the registers after the EXEC */
		c->probe->quad(c->probe->ctx, c->probe->base + s->now, s->u.name, c->rows, q, e);
	if (w->late) {                    /* the program can kill: depth/stencil happen here (units/gr3d/zs.h) */
		ze = zs_late_entry_of(w->late, q);
		if (!ze) {                    /* (w->late->lost: gr3d_fp_finish reports it) */
			s->u.halt = true;
			return s->quad_clocks;
		}
		zs_late_note_kills(ze, q);
	}
	if (pl->enable) {
		if (c->ahead)                 /* the pair as this EXEC left it (ahead.h) */
			gr3d_ahead_restore(c->ahead, q, e);
		sim_unit_count(&s->u, DW_CTR_STORES, 1);
		/* the common quad: four live pixels inside a plain target, no late
		 * depth/stencil: the four pixels' bytes formed at once, then two
		 * rows of two pixels, one 8-byte store each */
		if (pl->plain && !ze && quad_whole(pl, q)) {
			store_quad(w, pl, q);
			sim_unit_count(&s->u, DW_CTR_PIXELS, GR3D_PIXELS);
			return s->quad_clocks;        /* (no ze: nothing to finish) */
		}
		dw_store_pixels(w, q, pl, ze);
	}
	if (ze && e + 1u >= c->prog->exec_count)
		zs_late_finish(w->late, ze, q);
	return s->quad_clocks;
}

/* dw_exec_general's store into a plain target without a viewer or late
 * depth/stencil: the pair restored with quads ahead, then the whole quad's
 * store or the pixels' (out of line, so that dw_exec's own fast paths
 * save no registers). */
static __attribute__((noinline)) unsigned dw_exec_plain(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const gr3d_ctx *c = s->ctx;
	dw_unit *w = (dw_unit *)s;
	const dw_plan *pl = &w->plan[e];
	if (c->ahead)                     /* the pair as this EXEC left it (ahead.h) */
		gr3d_ahead_restore(c->ahead, q, e);
	sim_unit_count(&s->u, DW_CTR_STORES, 1);
	if (quad_whole(pl, q)) {
		store_quad(w, pl, q);
		sim_unit_count(&s->u, DW_CTR_PIXELS, GR3D_PIXELS);
	} else {
		dw_store_pixels(w, q, pl, NULL);
	}
	return s->quad_clocks;
}

/* The two commonest EXECs first, with nothing to save around them: without
 * a viewer or late depth/stencil, no store (dw_exec_general does nothing
 * then), or a store into a plain target of four live pixels inside it
 * without quads ahead (dw_exec_general's own whole-quad store, store_quad:
 * the same bytes and counts); another store into a plain target without
 * them goes to dw_exec_plain, the rest to dw_exec_general. */
static unsigned dw_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const gr3d_ctx *c = s->ctx;
	dw_unit *w = (dw_unit *)s;
	const dw_plan *pl = &w->plan[e];
	const bool quiet = !c->probe && !w->late;
	if (quiet && !pl->enable)
		return s->quad_clocks;
	if (quiet && pl->plain && !c->ahead && quad_whole(pl, q)) {
		store_quad(w, pl, q);
		sim_unit_count(&s->u, DW_CTR_STORES, 1);
		sim_unit_count(&s->u, DW_CTR_PIXELS, GR3D_PIXELS);
		return s->quad_clocks;
	}
	if (quiet && pl->plain)                      /* (a store: quiet EXECs without one returned) */
		return dw_exec_plain(s, q, e);
	return dw_exec_general(s, q, e);
}

_Static_assert(sizeof(gr3d_token) == sizeof(uint32_t), "dw_route stores a token as one word");

static void dw_route(gr3d_stage *s, gr3d_token *t)
{
	gr3d_token n = *t;
	if ((unsigned)n.exec + 1u >= s->ctx->prog->exec_count) {
		n.done = 1;
		sim_unit_count(&s->u, DW_CTR_QUADS_DONE, 1);
	} else {
		n.exec++;
	}
	/* stored whole, as one word: the caller's 4-byte load of the token is
	 * then forwarded from the store buffer (a byte store's is not) */
	uint32_t w;
	memcpy(&w, &n, sizeof w);
	memcpy(t, &w, sizeof w);
}

void dw_init(dw_unit *w, gr3d_ctx *ctx, struct zs_late *late)
{
	gr3d_stage_init(&w->s, "dw", ctx, DW_COUNTERS, DW_CTR_COUNT);
	w->late = late;
	w->s.exec = dw_exec;
	w->s.route = dw_route;
	for (uint32_t k = 0; k <= FX10_MASK; k++)
		w->unorm8[k] = fx10_to_unorm8(k);
	/* RGB565: 5/6 bits (tegra.dw.rgb565_round), read back expanded as the
	 * TEX unit expands RGB565 texels (round(v * 255 / 31), / 63) */
	const bool rnd = ctx->cfg->tegra_dw_rgb565_round;
	for (unsigned v = 0; v < 256; v++) {
		unsigned v5 = rnd ? (v * 31 + 127) / 255 : v >> 3, v6 = rnd ? (v * 63 + 127) / 255 : v >> 2;
		w->r5[v] = (uint8_t)((v5 * 527 + 23) >> 6);
		w->g6[v] = (uint8_t)((v6 * 259 + 33) >> 6);
	}
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		const tegra_dw_inst *in = &ctx->prog->exec[e].dw;
		dw_plan *pl = &w->plan[e];
		pl->enable = in->enable;
		pl->stencil = in->stencil;
		pl->lo = (uint8_t)gr3d_row_reg(ctx, e, in->src_r2 ? 2 : 0);
		pl->hi = (uint8_t)gr3d_row_reg(ctx, e, in->src_r2 ? 3 : 1);
		pl->rt = ctx->rt[in->rt & (GR3D_RTS - 1)];
		pl->fmt = ctx->rt_format[in->rt & (GR3D_RTS - 1)];
		pl->plain = pl->rt && !pl->stencil && pl->fmt != GR3D_RT_RGB565 && !ctx->exact &&
		            pl->fmt != GR3D_RT_A8 &&
		            !(ctx->probe && ctx->probe->pixel);
	}
}
