/* ZS: early depth/stencil (zs.h, docs/tegra-units.md "ZS"). */
#include "units/gr3d/zs.h"

#include <math.h>
#include <stdlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/core/port.h"

const sim_counter_def ZS_COUNTERS[ZS_CTR_COUNT] = {
	[ZS_CTR_QUADS] = { "quads", "quads tested" },
	[ZS_CTR_PIXELS] = { "pixels_tested", "covered pixels tested" },
	[ZS_CTR_REJECTED] = { "pixels_rejected", "pixels the depth or stencil test removed" },
	[ZS_CTR_QUADS_REJECTED] = { "quads_rejected", "quads with every pixel removed (not sent on)" },
	[ZS_CTR_DEFERRED] = { "pixels_deferred", "pixels passed on untested: DW tests them after the shader" },
};

/* ---- surface ---- */

zs_surface *zs_surface_create(uint32_t w, uint32_t h, enum zs_format f, ulp_diag *d)
{
	zs_surface *s = calloc(1, sizeof *s);
	size_t n = (size_t)w * h;
	if (s) {
		s->width = w;
		s->height = h;
		s->format = (uint8_t)f;
		s->depth = calloc(n ? n : 1, sizeof *s->depth);
		s->stencil = f == ZS_D24S8 ? calloc(n ? n : 1, 1) : NULL;
	}
	if (!s || !s->depth || (f == ZS_D24S8 && !s->stencil)) {
		zs_surface_free(s);
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		return NULL;
	}
	return s;
}

void zs_surface_free(zs_surface *s)
{
	if (!s)
		return;
	free(s->depth);
	free(s->stencil);
	free(s);
}

uint32_t zs_quantize(const zs_surface *s, double z)
{
	z = z > 0 ? (z < 1 ? z : 1) : 0;     /* NaN -> 0 */
	/* lround of x = z * max (0 <= x < 2^24) without the library call (1.6 %
	 * of glmark2's texture frames): the truncation, plus one when the rest
	 * is a half or more (ties away from zero, as lround).  The rest x - i
	 * is exact: i <= x < 2i for x >= 1, and i = 0 below. */
	const double x = z * zs_depth_max(s);
	const uint32_t i = (uint32_t)x;
	return i + (x - (double)i >= 0.5);
}

void zs_surface_clear(zs_surface *s, bool depth, double z, bool stencil, uint8_t sval)
{
	size_t n = (size_t)s->width * s->height;
	if (depth) {
		uint32_t code = zs_quantize(s, z);
		for (size_t i = 0; i < n; i++)
			s->depth[i] = code;
	}
	if (stencil && s->stencil)
		memset(s->stencil, sval, n);
}

double zs_surface_depth(const zs_surface *s, uint32_t x, uint32_t y)
{
	if (x >= s->width || y >= s->height)
		return NAN;
	return (double)s->depth[(size_t)y * s->width + x] / zs_depth_max(s);
}

/* ---- the test ---- */

/* (inline in the per-pixel test: a call there cost more than the compare) */
static inline bool compare(enum zs_func f, uint32_t a, uint32_t b)
{
	switch (f) {
	case ZS_NEVER: return false;
	case ZS_LESS: return a < b;
	case ZS_EQUAL: return a == b;
	case ZS_LEQUAL: return a <= b;
	case ZS_GREATER: return a > b;
	case ZS_NOTEQUAL: return a != b;
	case ZS_GEQUAL: return a >= b;
	default: return true;
	}
}

bool zs_compare(enum zs_func f, uint32_t a, uint32_t b) { return compare(f, a, b); }

uint8_t zs_stencil_op(enum zs_op op, uint8_t old, uint8_t ref)
{
	switch (op) {
	case ZS_ZERO: return 0;
	case ZS_REPLACE: return ref;
	case ZS_INCR: return old == 0xFF ? old : (uint8_t)(old + 1);
	case ZS_DECR: return old == 0 ? old : (uint8_t)(old - 1);
	case ZS_INVERT: return (uint8_t)~old;
	case ZS_INCR_WRAP: return (uint8_t)(old + 1);
	case ZS_DECR_WRAP: return (uint8_t)(old - 1);
	default: return old;
	}
}

static void stencil_write(const zs_face *f, uint8_t *sp, enum zs_op op)
{
	uint8_t v = zs_stencil_op(op, *sp, f->ref);
	*sp = (uint8_t)((*sp & ~f->writemask) | (v & f->writemask));
}

bool zs_pixel(const zs_state *st, zs_surface *s, uint32_t x, uint32_t y, uint32_t z, bool front,
              bool write)
{
	if (!s || x >= s->width || y >= s->height)
		return true;                      /* no surface: both tests pass (as GL) */
	size_t i = (size_t)y * s->width + x;
	const zs_face *f = &st->face[front ? 0 : 1];
	uint8_t *sp = st->s_enable && s->stencil ? &s->stencil[i] : NULL;
	if (sp && !compare((enum zs_func)f->func, f->ref & f->valuemask, *sp & f->valuemask)) {
		if (write)
			stencil_write(f, sp, (enum zs_op)f->fail_op);
		return false;
	}
	bool zpass = !st->z_enable || compare((enum zs_func)st->z_func, z, s->depth[i]);
	if (write) {
		if (sp)
			stencil_write(f, sp, (enum zs_op)(zpass ? f->zpass_op : f->zfail_op));
		if (zpass && st->z_enable && st->z_write && st->depth_surface)
			s->depth[i] = z;
	}
	return zpass;
}

/* QR_Z_MIN/MAX: the depth range as 20-bit unorm (grate: 0 / 0xfffff), in 0..1 */
static void z_range(const zs_state *st, double *lo, double *hi)
{
	*lo = (double)(st->z_min & 0xFFFFFu) / 0xFFFFF;
	*hi = (double)(st->z_max & 0xFFFFFu) / 0xFFFFF;
}

/* zs_pixel_z with the range worked out (once a quad: test_quad) */
static inline uint32_t pixel_z(double lo, double hi, const zs_surface *s, double z)
{
	if (!(z >= lo))
		z = lo;
	if (z > hi)
		z = hi;
	return s ? zs_quantize(s, z) : 0;
}

uint32_t zs_pixel_z(const zs_state *st, const zs_surface *s, double z)
{
	double lo, hi;
	z_range(st, &lo, &hi);
	return pixel_z(lo, hi, s, z);
}

/* zs_quad_depth on a quad whose four pixels are covered and on the surface,
 * in SSE2 (x86-64's baseline; the generic vector types gave scalar
 * comparisons there): pixel_z and zs_quantize on two pairs of lanes with
 * their comparisons in their order (x = z * max is below 2^24, so its
 * truncation to int32 is the uint32_t one), the compare function's switch
 * once for the four (unsigned, as the sign bit flipped), the two rows of
 * depths read and written as pairs (a failing pixel's depth written back
 * as it was). */
#if defined(__SSE2__)
static inline __m128d clamp_quantize(__m128d z, __m128d lo, __m128d hi, __m128d max)
{
	const __m128d one = _mm_set1_pd(1.0), zero = _mm_setzero_pd();
	__m128d m = _mm_cmpge_pd(z, lo);                  /* !(z >= lo): lo (NaN too) */
	z = _mm_or_pd(_mm_and_pd(m, z), _mm_andnot_pd(m, lo));
	m = _mm_cmpgt_pd(z, hi);
	z = _mm_or_pd(_mm_and_pd(m, hi), _mm_andnot_pd(m, z));
	const __m128d pos = _mm_cmpgt_pd(z, zero);        /* zs_quantize: z > 0 ? (z < 1 ? z : 1) : 0 */
	m = _mm_cmplt_pd(z, one);
	z = _mm_and_pd(pos, _mm_or_pd(_mm_and_pd(m, z), _mm_andnot_pd(m, one)));
	return _mm_mul_pd(z, max);
}

static unsigned quad_depth4(double lo, double hi, bool write, enum zs_func f, zs_surface *s, gr3d_quad_in *in,
                            uint32_t code[GR3D_PIXELS], unsigned *rejected)
{
	const __m128d vlo = _mm_set1_pd(lo), vhi = _mm_set1_pd(hi), max = _mm_set1_pd((double)zs_depth_max(s));
	const __m128d x01 = clamp_quantize(_mm_loadu_pd(&in->z[0]), vlo, vhi, max);
	const __m128d x23 = clamp_quantize(_mm_loadu_pd(&in->z[2]), vlo, vhi, max);
	const __m128i i01 = _mm_cvttpd_epi32(x01), i23 = _mm_cvttpd_epi32(x23);
	const __m128d half = _mm_set1_pd(0.5);
	/* + 1 where the rest is a half or more: the 64-bit masks' low words */
	const __m128d up01 = _mm_cmpge_pd(_mm_sub_pd(x01, _mm_cvtepi32_pd(i01)), half);
	const __m128d up23 = _mm_cmpge_pd(_mm_sub_pd(x23, _mm_cvtepi32_pd(i23)), half);
	const __m128i up = _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(up01), _mm_castpd_ps(up23), _MM_SHUFFLE(2, 0, 2, 0)));
	const __m128i c = _mm_sub_epi32(_mm_unpacklo_epi64(i01, i23), up);
	_mm_storeu_si128((__m128i *)(void *)code, c);
	uint32_t *row0 = &s->depth[(size_t)in->y * s->width + in->x], *row1 = row0 + s->width;
	const __m128i d = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)row0),
	                                     _mm_loadl_epi64((const __m128i *)(const void *)row1));
	const __m128i flip = _mm_set1_epi32(INT32_MIN), cs = _mm_xor_si128(c, flip), ds = _mm_xor_si128(d, flip);
	const __m128i all = _mm_set1_epi32(-1);
	__m128i pass;
	switch (f) {
	case ZS_NEVER: pass = _mm_setzero_si128(); break;
	case ZS_LESS: pass = _mm_cmplt_epi32(cs, ds); break;
	case ZS_EQUAL: pass = _mm_cmpeq_epi32(c, d); break;
	case ZS_LEQUAL: pass = _mm_xor_si128(_mm_cmpgt_epi32(cs, ds), all); break;
	case ZS_GREATER: pass = _mm_cmpgt_epi32(cs, ds); break;
	case ZS_NOTEQUAL: pass = _mm_xor_si128(_mm_cmpeq_epi32(c, d), all); break;
	case ZS_GEQUAL: pass = _mm_xor_si128(_mm_cmplt_epi32(cs, ds), all); break;
	default: pass = all; break;
	}
	const unsigned mask = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(pass));
	if (write && mask) {
		const __m128i n = _mm_or_si128(_mm_and_si128(pass, c), _mm_andnot_si128(pass, d));
		_mm_storel_epi64((__m128i *)(void *)row0, n);
		_mm_storel_epi64((__m128i *)(void *)row1, _mm_unpackhi_epi64(n, n));
	}
	static const uint8_t FAILS[16] = { 4, 3, 3, 2, 3, 2, 2, 1, 3, 2, 2, 1, 2, 1, 1, 0 };
	in->mask = (uint8_t)mask;
	*rejected = FAILS[mask];
	return GR3D_PIXELS;
}
#endif

/* zs_quad_depth with the range worked out (lo, hi: z_range) */
static unsigned quad_depth(double lo, double hi, const zs_state *st, zs_surface *s, gr3d_quad_in *in,
                           uint32_t code[GR3D_PIXELS], unsigned *rejected)
{
	const bool write = !st->late && st->z_enable && st->z_write && st->depth_surface;
	const enum zs_func f = st->z_enable ? (enum zs_func)st->z_func : ZS_ALWAYS;
#if defined(__SSE2__)
	if (in->mask == 0xFu && in->x + 1u < s->width && in->y + 1u < s->height)
		return quad_depth4(lo, hi, write, f, s, in, code, rejected);
#endif
	unsigned tested = 0, fail = 0, mask = in->mask;
	for (unsigned k = 0; k < GR3D_PIXELS; k++) {
		if (!(mask >> k & 1u))
			continue;
		tested++;
		const uint32_t x = in->x + (k & 1u), y = in->y + (k >> 1);
		code[k] = pixel_z(lo, hi, s, in->z[k]);
		if (x >= s->width || y >= s->height)
			continue;                     /* off the surface: passes (zs_pixel) */
		uint32_t *d = &s->depth[(size_t)y * s->width + x];
		if (!compare(f, code[k], *d)) {
			mask &= ~(1u << k);
			fail++;
		} else if (write) {
			*d = code[k];
		}
	}
	in->mask = (uint8_t)mask;
	*rejected = fail;
	return tested;
}

unsigned zs_quad_depth(const zs_state *st, zs_surface *s, gr3d_quad_in *in, uint32_t code[GR3D_PIXELS],
                       unsigned *rejected)
{
	double lo, hi;
	z_range(st, &lo, &hi);
	return quad_depth(lo, hi, st, s, in, code, rejected);
}

bool zs_late_init(zs_late *l, const zs_state *st, zs_surface *surf)
{
	memset(l, 0, sizeof *l);
	l->st = st;
	l->surf = surf;
	l->ring = calloc(ZS_LATE_ENTRIES, sizeof *l->ring);
	return l->ring != NULL;
}

void zs_late_reset(zs_late *l)
{
	memset(l->ring, 0, ZS_LATE_ENTRIES * sizeof *l->ring);
	l->lost = false;
}

void zs_late_fini(zs_late *l)
{
	free(l->ring);
	l->ring = NULL;
}

void zs_late_enter(zs_late *l, uint32_t id, const uint32_t z[GR3D_PIXELS])
{
	zs_late_entry *e = &l->ring[id % ZS_LATE_ENTRIES];
	e->id = id;
	e->valid = true;
	e->resolved = e->passed = e->discarded = 0;
	memcpy(e->z, z, sizeof e->z);
}

zs_late_entry *zs_late_entry_of(zs_late *l, const gr3d_quad *q)
{
	zs_late_entry *e = &l->ring[q->id % ZS_LATE_ENTRIES];
	if (e->valid && e->id == q->id)
		return e;
	l->lost = true;
	return NULL;
}

void zs_late_note_kills(zs_late_entry *e, const gr3d_quad *q)
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		if (q->covered[p] && (q->killed[p] || q->exec_killed[p]))
			e->discarded |= (uint8_t)(1u << p);
}

bool zs_late_resolve(zs_late *l, zs_late_entry *e, const gr3d_quad *q, unsigned p)
{
	uint8_t bit = (uint8_t)(1u << p);
	if (e->discarded & bit)       /* killed in an earlier EXEC: no depth/stencil write */
		return true;
	if (!(e->resolved & bit)) {
		e->resolved |= bit;
		uint32_t x = q->x + (p & 1u), y = q->y + (p >> 1);
		if (zs_pixel(l->st, l->surf, x, y, e->z[p], q->front[p], true))
			e->passed |= bit;
	}
	return e->passed & bit;
}

void zs_late_finish(zs_late *l, zs_late_entry *e, const gr3d_quad *q)
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		if (q->covered[p] && !((e->discarded | e->resolved) & (1u << p)))
			zs_late_resolve(l, e, q, p);
	e->valid = false;
}

/* ---- the unit ---- */

/* Late mode: may a pixel that fails the test now be dropped before the
 * shader?  Only when it would write nothing after it either, and the
 * failure cannot turn into a pass as earlier quads still in flight write:
 * no stencil (its fail ops write), and a depth function for which the
 * writes of passing quads only move the stored value away from a pass. */
static bool early_reject_safe(const zs_state *st)
{
	if (st->s_enable)
		return false;
	switch (st->z_func) {
	case ZS_NEVER: case ZS_LESS: case ZS_LEQUAL: case ZS_GREATER: case ZS_GEQUAL: return true;
	default: return false;
	}
}

/* Test the quad in z->cur; returns the pixels tested. */
static unsigned test_quad(zs_unit *z)
{
	gr3d_quad_in *in = &z->cur;
	const zs_state *st = z->st;
	unsigned tested = 0, rejected = 0, deferred = 0;
	uint32_t code[GR3D_PIXELS] = { 0 };
	bool safe = early_reject_safe(st);
	/* the depth range, worked out again only when QR_Z_MIN/MAX changed
	 * (constant for a draw: two divisions a draw, not a quad) */
	if (!z->range_set || st->z_min != z->range_min || st->z_max != z->range_max) {
		z_range(st, &z->range_lo, &z->range_hi);
		z->range_min = st->z_min;
		z->range_max = st->z_max;
		z->range_set = true;
	}
	const double lo = z->range_lo, hi = z->range_hi;
	/* no stencil, every covered pixel tested: the quad at a time */
	const bool quad = z->surf && !(st->s_enable && z->surf->stencil) && (!st->late || safe);
	if (quad)
		tested = quad_depth(lo, hi, st, z->surf, in, code, &rejected);
	for (unsigned k = 0; k < GR3D_PIXELS && !quad; k++) {
		if (!((in->mask >> k) & 1u))
			continue;
		tested++;
		uint32_t x = in->x + (k & 1u), y = in->y + (k >> 1);
		code[k] = pixel_z(lo, hi, z->surf, in->z[k]);
		bool pass;
		if (!st->late) {
			pass = zs_pixel(st, z->surf, x, y, code[k], in->front, true);
		} else if (safe) {
			pass = zs_pixel(st, z->surf, x, y, code[k], in->front, false);
		} else {
			pass = true;
			deferred++;
		}
		if (!pass) {
			in->mask &= (uint8_t)~(1u << k);
			rejected++;
		}
	}
	if (st->late && in->mask)
		zs_late_enter(z->late, in->id, code);
	sim_unit_count(&z->u, ZS_CTR_QUADS, 1);
	sim_unit_count(&z->u, ZS_CTR_PIXELS, tested);
	sim_unit_count(&z->u, ZS_CTR_REJECTED, rejected);
	sim_unit_count(&z->u, ZS_CTR_DEFERRED, deferred);
	if (!in->mask)
		sim_unit_count(&z->u, ZS_CTR_QUADS_REJECTED, 1);
	return tested;
}

static void zs_tick(sim_unit *u, uint64_t now)
{
	zs_unit *z = (zs_unit *)u;
	sim_unit_wait_settle(u, now);
	if (z->hold.on) {                      /* now == done_at: sim_hold_begin slept through */
		if (z->cur.mask) {                 /* (a quad with every pixel rejected goes nowhere) */
			if (!sim_hold_room(u, z->out, now))   /* PSEQ's pop wakes us */
				return;
			sim_port_push_sized(z->out, &z->cur, sizeof z->cur, now);   /* no library call */
		} else if (z->tram) {                  /* rejected: PSEQ never sees it, so it lets go here */
			gr3d_tram_release(z->tram, z->cur.tri);
		}
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_END, z->cur.id, z->cur.mask);
		sim_hold_end(&z->hold);
	}
	const gr3d_quad_in *in = sim_port_peek(z->in, now);
	if (!in) {
		sim_unit_sleep_until(u, sim_port_next_ready(z->in));
		return;
	}
	z->cur = *in;
	sim_port_pop(z->in, now);              /* wakes the rasterizer */
	sim_tl_emit(u->tl, now, u->lane, SIM_TL_BEGIN, z->cur.id, z->cur.mask);
	unsigned tested = test_quad(z);
	unsigned cycles = (tested + z->px_per_clock - 1) / z->px_per_clock;
	sim_hold_begin(u, &z->hold, now, cycles);
}

static void zs_reset(sim_unit *u)
{
	zs_unit *z = (zs_unit *)u;
	z->hold = (sim_hold){ 0 };
	memset(&z->cur, 0, sizeof z->cur);
}

void zs_init(zs_unit *z, const zs_state *st, zs_surface *surf, zs_late *late, unsigned px_per_clock,
             struct sim_port *in, struct sim_port *out)
{
	memset(z, 0, sizeof *z);
	sim_unit_init(&z->u, "zs", zs_tick, ZS_COUNTERS, ZS_CTR_COUNT);
	z->u.reset = zs_reset;
	z->st = st;
	z->surf = surf;
	z->late = late;
	z->px_per_clock = px_per_clock ? px_per_clock : 1;
	z->in = in;
	z->out = out;
	in->consumer = &z->u;
}
