/* The rasterizer (raster.h). */
#include "units/gr3d/raster.h"

#include <limits.h>
#include <math.h>
#include <string.h>

const sim_counter_def RASTER_COUNTERS[RASTER_CTR_COUNT] = {
	[RASTER_CTR_TRIS] = { "triangles", "triangles walked" },
	[RASTER_CTR_QUADS] = { "quads", "quads with at least one covered pixel" },
};

/* Exactly one of two triangles sharing an edge owns a sample on it. */
static bool owns(double e, double ax, double ay, double bx, double by)
{
	if (e > 0)
		return true;
	if (e < 0)
		return false;
	double dy = by - ay, dx = bx - ax;
	return dy > 0 || (dy == 0 && dx < 0);
}

/* lo, v or hi (lo <= hi; v not NaN). */
static inline double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* fmin / fmax without the library call: a NaN argument gives the other. */
static inline double min_num(double a, double b) { return a < b || b != b ? a : b; }
static inline double max_num(double a, double b) { return a > b || b != b ? a : b; }

void raster_tri_setup(raster_tri *s, const double x[3], const double y[3], const double z[3],
                      const double w[3], uint32_t width, uint32_t height)
{
	/* the ends a ([ccw][0]) and b ([ccw][1]) of the edge opposite vertex v */
	static const uint8_t END[2][2][3] = { { { 2, 0, 1 }, { 1, 2, 0 } }, { { 1, 2, 0 }, { 2, 0, 1 } } };
	double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
	for (unsigned k = 0; k < 3; k++) {
		s->x[k] = x[k];
		s->y[k] = y[k];
		s->iw[k] = 1.0 / w[k];
		s->z[k] = z[k];
		/* fmin / fmax without the library call: the running bound is never
		 * NaN, and a NaN coordinate leaves it as they would */
		minx = x[k] < minx ? x[k] : minx;
		maxx = x[k] > maxx ? x[k] : maxx;
		miny = y[k] < miny ? y[k] : miny;
		maxy = y[k] > maxy ? y[k] : maxy;
	}
	s->area = raster_tri_area(x, y);
	s->front = s->area > 0;
	/* edges in counter-clockwise order; edge v is the one opposite vertex v */
	const bool ccw = s->area > 0;
	for (unsigned v = 0; v < 3; v++) {
		const unsigned a = END[ccw][0][v], b = END[ccw][1][v];
		s->ox[v] = s->x[a];
		s->oy[v] = s->y[a];
		s->ex[v] = s->x[b] - s->x[a];
		s->ey[v] = s->y[b] - s->y[a];
		s->tie[v] = owns(0.0, s->x[a], s->y[a], s->x[b], s->y[b]);
	}
	s->inv_area = s->area != 0.0 ? 1.0 / fabs(s->area) : 0.0;
	s->sx0 = s->sy0 = INT_MIN;       /* no scissor (the box stays inside the target) */
	s->sx1 = s->sy1 = INT_MAX;
	/* The box is clamped to the target on both sides before the conversion
	 * to int: a far off-screen vertex (x = 1e12 after the viewport) is
	 * never converted out of int's range, and no pixel outside the target is
	 * walked (the same pixels as before; docs/robustness.md "Rasterizer"). */
	/* fmin(fmax(0, floor(minx)), width) is floor(minx clamped to
	 * [0, width]) (floor is monotonic, the bounds are integers), which the
	 * conversion takes (>= 0); ceil(maxx clamped to [-1, width - 1]) is
	 * its conversion, plus one when that dropped a fraction (> -1: the
	 * conversion truncates towards 0).  The bounds are never NaN. */
	const double cx0 = clamp(minx, 0.0, (double)width), cy0 = clamp(miny, 0.0, (double)height);
	const double cx1 = clamp(maxx, -1.0, (double)width - 1), cy1 = clamp(maxy, -1.0, (double)height - 1);
	s->x0 = (int)cx0 & ~1;
	s->y0 = (int)cy0 & ~1;
	s->x1 = (int)cx1 + (cx1 > (double)(int)cx1);
	s->y1 = (int)cy1 + (cy1 > (double)(int)cy1);
	if (s->area == 0.0 || s->x0 > s->x1 || s->y0 > s->y1) {
		s->x0 = 0;
		s->y0 = 1;                 /* empty: y0 > y1 */
		s->x1 = -1;
		s->y1 = -1;
	}
}

void raster_tri_scissor(raster_tri *s, int minx, int miny, int maxx, int maxy)
{
	s->sx0 = minx > s->sx0 ? minx : s->sx0;
	s->sy0 = miny > s->sy0 ? miny : s->sy0;
	s->sx1 = maxx < s->sx1 ? maxx : s->sx1;
	s->sy1 = maxy < s->sy1 ? maxy : s->sy1;
	if (raster_tri_empty(s))
		return;
	/* the walk stays on the quad grid; pixels outside are masked per quad */
	s->x0 = s->x0 > (s->sx0 & ~1) ? s->x0 : s->sx0 & ~1;
	s->y0 = s->y0 > (s->sy0 & ~1) ? s->y0 : s->sy0 & ~1;
	s->x1 = s->x1 < s->sx1 - 1 ? s->x1 : s->sx1 - 1;
	s->y1 = s->y1 < s->sy1 - 1 ? s->y1 : s->sy1 - 1;
	if (s->x0 > s->x1 || s->y0 > s->y1) {
		s->x0 = 0;
		s->y0 = 1;                 /* empty: y0 > y1 */
		s->x1 = -1;
		s->y1 = -1;
	}
}

/* The edge function of pixel (ix, iy) is ex*(py - oy) - ey*(px - ox): its
 * two products depend on the row and on the column alone, so the walk forms
 * ex*(py - oy) once per quad row (start_row) and ey*(px - ox) once per
 * column (edge_values): the same operations, the same values.
 *
 * Along a row an edge's computed value is monotonic in x: px - ox,
 * ey * (px - ox) and row - that product are each rounded monotonically (a
 * NaN, from an infinite coordinate, fails the test wherever it is), so the
 * pixels inside edge v form, per pixel row, a prefix of the columns
 * (ey > 0), a suffix (ey < 0) or all or none (otherwise).  The walk uses
 * this to skip quads and tests; each use rests on a quad actually tested
 * with the same arithmetic, so an estimate off by rounding costs only time. */

/* Edge v at the four pixels of the quad at column qx of the current row
 * (e[k]: pixel k). */
GR3D_HOT void edge_values(const raster_unit *r, unsigned v, int qx, double e[GR3D_PIXELS])
{
	const raster_tri *s = &r->cur;
	const double px[2] = { qx + 0.5, (qx + 1) + 0.5 };
	double c[2];
	for (unsigned j = 0; j < 2; j++)
		c[j] = s->ey[v] * (px[j] - s->ox[v]);
	for (unsigned j = 0; j < 2; j++) {
		e[j] = r->row_e[v][0] - c[j];
		e[2 + j] = r->row_e[v][1] - c[j];
	}
}

/* The pixels inside edge v: e > 0, or e == 0 on an edge the triangle owns
 * (the tie rule, chosen once for the four). */
GR3D_HOT unsigned edge_test(const raster_tri *s, unsigned v, const double e[GR3D_PIXELS])
{
	if (s->tie[v])
		return (unsigned)(e[0] >= 0) | (unsigned)(e[1] >= 0) << 1 | (unsigned)(e[2] >= 0) << 2 |
		       (unsigned)(e[3] >= 0) << 3;
	return (unsigned)(e[0] > 0) | (unsigned)(e[1] > 0) << 1 | (unsigned)(e[2] > 0) << 2 |
	       (unsigned)(e[3] > 0) << 3;
}

static unsigned edge_in(const raster_unit *r, unsigned v, int qx)
{
	double e[GR3D_PIXELS];
	edge_values(r, v, qx, e);
	return edge_test(&r->cur, v, e);
}

/* The quad column of the row at or before pixel column c (c >= x0). */
static int quad_column(const raster_tri *s, double c)
{
	const int last = s->x0 + ((s->x1 - s->x0) & ~1);
	return c >= last ? last : s->x0 + (((int)c - s->x0) & ~1);
}

/* Rows of fewer quads than this do not look for their inside quads ahead of
 * the walk (the look costs about as much as the tests it saves). */
enum { RASTER_AHEAD_MIN_QUADS = 8 };

/* The row products of quad row qy, and what is known before the walk: for
 * an edge with ey > 0 the quads up to about where it crosses the row,
 * when the last of them tested is wholly inside.  Edges with ey <= 0 learn
 * theirs during the walk (quad_mask). */
static void start_row(raster_unit *r)
{
	const raster_tri *s = &r->cur;
	const double py0 = r->qy + 0.5, py1 = (r->qy + 1) + 0.5;
	/* a quad keeps its four pixels when sx0 <= qx, qx + 1 < sx1 and both rows are in */
	const bool rows_in = r->qy >= s->sy0 && r->qy + 1 < s->sy1;
	r->scissor_lo = rows_in ? s->sx0 : INT_MAX;
	r->scissor_hi = rows_in && s->sx1 > INT_MIN + 1 ? s->sx1 - 2 : INT_MIN;
	/* the three edges' products formed in locals and stored once (the
	 * stores into r no longer make the loads of r->cur wait) */
	double e0[3], e1[3];
#pragma GCC unroll 3
	for (unsigned v = 0; v < 3; v++) {
		e0[v] = s->ex[v] * (py0 - s->oy[v]);
		e1[v] = s->ex[v] * (py1 - s->oy[v]);
	}
#pragma GCC unroll 3
	for (unsigned v = 0; v < 3; v++) {
		r->row_e[v][0] = e0[v];
		r->row_e[v][1] = e1[v];
		r->row_q[v][0] = r->row_q[v][1] = e0[v];
		r->row_q[v][2] = r->row_q[v][3] = e1[v];
		r->inside_lo[v] = r->inside_hi[v] = INT_MAX;      /* none known */
	}
	r->row_set = true;
	if (s->x1 - s->x0 < 2 * RASTER_AHEAD_MIN_QUADS)
		return;
	for (unsigned v = 0; v < 3; v++) {
		if (!(s->ey[v] > 0))
			continue;
		/* inside at px <= ox + row / ey; a quad's right pixel is qx + 1.5,
		 * and a quad's margin */
		const double c = s->ox[v] + min_num(e0[v], e1[v]) / s->ey[v] - 1.5 - 2.0;
		if (!(c >= s->x0))                                  /* also NaN */
			continue;
		const int k = quad_column(s, c);
		if (edge_in(r, v, k) == 0xFu) {
			r->inside_lo[v] = INT_MIN;
			r->inside_hi[v] = k;
		}
	}
}

/* The column after the quad at qx whose every pixel is outside edge v
 * where the walk of the current row goes on: the columns up to that quad's
 * which are wholly outside too are skipped (they emit nothing and cost no
 * cycle, so only the host's work changes).
 *   - ey >= 0 (or NaN): everything to the right is outside too: the row ends.
 *   - ey < 0: the inside starts about where the edge crosses the quad row,
 *     at px = ox + row / ey.  The quad two columns before that estimate is
 *     tested; when it is wholly outside, so is every quad before it and the
 *     walk resumes after it.  Otherwise the walk goes on to the next quad. */
static int skip_outside(const raster_unit *r, unsigned v, int qx)
{
	const raster_tri *s = &r->cur;
	if (!(s->ey[v] < 0))
		return s->x1 + 1;
	const double row = max_num(r->row_e[v][0], r->row_e[v][1]);
	const double c = s->ox[v] + row / s->ey[v] - 0.5 - 2.0;    /* a pixel column, a quad's margin */
	if (!(c >= qx + 2.0))                                   /* also NaN */
		return qx + 2;
	const int k = quad_column(s, c);
	return edge_in(r, v, k) ? qx + 2 : k + 2;
}

/* A quad's four pixels as the lanes of one vector (pixel k in lane k): one
 * AVX2 register in quad_mask's wide build, two SSE2 halves in the plain
 * one.  Lane operations are IEEE binary64 like the scalar ones (ISO C: no
 * contraction), so each lane's value is the scalar definition's. */
typedef double raster_f64x4 __attribute__((vector_size(32)));
typedef int64_t raster_i64x4 __attribute__((vector_size(32)));
typedef float raster_f32x4 __attribute__((vector_size(16)));

/* edge_test on the lanes of e (by pointer: a function taking a 32-byte
 * vector by value changes its ABI with AVX, which GCC warns about). */
GR3D_HOT unsigned lanes_in(const raster_tri *s, unsigned v, const raster_f64x4 *e)
{
	const raster_f64x4 zero = { 0.0, 0.0, 0.0, 0.0 };
	const raster_i64x4 m = s->tie[v] ? *e >= zero : *e > zero;
	/* lane k's bit k, ORed across the lanes by two shuffles (not four
	 * extracts) */
	raster_i64x4 b = m & (raster_i64x4){ 1, 2, 4, 8 };
	b |= __builtin_shufflevector(b, b, 2, 3, 0, 1);
	b |= __builtin_shufflevector(b, b, 1, 0, 3, 2);
	return (unsigned)b[0];
}

/* The pixels of the quad at (qx, qy) inside the triangle and the scissor,
 * and their weights in o.  With none, *next is the column where the walk
 * of this row goes on (skip_outside), else qx + 2.  edge_values, edge_test
 * and the weights' products and sums on the four pixels' lanes, in the same
 * order; tests/units/test_raster.c compares both builds with the plain
 * definition. */
GR3D_HOT unsigned quad_mask(raster_unit *r, int qx, int qy, gr3d_quad_in *o, int *next)
{
	const raster_tri *s = &r->cur;
	*next = qx + 2;
	/* the scissor: a quad wholly inside keeps every pixel */
	unsigned mask = 0xFu;
	if (!(qx >= r->scissor_lo && qx <= r->scissor_hi)) {
		mask = 0;
		for (unsigned k = 0; k < GR3D_PIXELS; k++) {
			int ix = qx + (int)(k & 1u), iy = qy + (int)(k >> 1);
			mask |= (unsigned)(ix >= s->sx0 && ix < s->sx1 && iy >= s->sy0 && iy < s->sy1) << k;
		}
	}
	/* e[v]: edge v at the four pixels, row - ey * (px - ox); px = qx + 0.5
	 * and (qx + 1) + 0.5 are exact either way */
	const raster_f64x4 px = (double)qx + (raster_f64x4){ 0.5, 1.5, 0.5, 1.5 };
	raster_f64x4 e[3];
#pragma GCC unroll 3
	for (unsigned v = 0; v < 3; v++) {
		raster_f64x4 row;
		memcpy(&row, r->row_q[v], sizeof row);
		e[v] = row - s->ey[v] * (px - s->ox[v]);
	}
	/* a quad outside one edge stops there */
#pragma GCC unroll 3
	for (unsigned v = 0; v < 3; v++) {
		if (qx >= r->inside_lo[v] && qx <= r->inside_hi[v])
			continue;                 /* known: wholly inside */
		const unsigned in = lanes_in(s, v, &e[v]);
		if (!in) {
			*next = skip_outside(r, v, qx);
			return 0;
		}
		if (in == 0xFu && !(s->ey[v] > 0)) {   /* (a NaN is never inside) */
			r->inside_lo[v] = qx;             /* ey <= 0: so are the quads after it */
			r->inside_hi[v] = INT_MAX;
		}
		mask &= in;
		if (!mask)                /* the rasterizer drops the quad */
			return 0;
	}
	/* uncovered pixels get their (extrapolated) weights too: they are the
	 * quad's helper pixels for the texture LOD */
	const raster_f64x4 l0 = e[0] * s->inv_area, l1 = e[1] * s->inv_area, l2 = e[2] * s->inv_area;
	const raster_f64x4 b0 = l0 * s->iw[0], b1 = l1 * s->iw[1];
	const raster_f32x4 bar0 = __builtin_convertvector(b0, raster_f32x4);
	const raster_f32x4 bar1 = __builtin_convertvector(b1, raster_f32x4);
	const raster_f32x4 qw = __builtin_convertvector(b0 + b1 + l2 * s->iw[2], raster_f32x4);
	const raster_f64x4 z = l0 * s->z[0] + l1 * s->z[1] + l2 * s->z[2];   /* window z: screen-linear */
	memcpy(o->bar0, &bar0, sizeof o->bar0);
	memcpy(o->bar1, &bar1, sizeof o->bar1);
	memcpy(o->q, &qw, sizeof o->q);
	memcpy(o->z, &z, sizeof o->z);
	return mask;
}

/* Takes the next triangle from the input port; false when none is visible. */
static bool take(raster_unit *r, uint64_t now)
{
	const raster_tri *t = sim_port_peek(r->in, now);
	if (!t)
		return false;
	r->cur = *t;
	sim_port_pop(r->in, now);               /* wakes setup (in the one-clock GPU) */
	r->have = true;
	r->qx = r->cur.x0;
	r->qy = r->cur.y0;
	r->row_set = false;
	sim_unit_count(&r->u, RASTER_CTR_TRIS, 1);
	return true;
}

GR3D_HOT void tick(sim_unit *u, uint64_t now)
{
	raster_unit *r = (raster_unit *)u;
	sim_unit_wait_settle(u, now);
	if (sim_port_full(r->out)) {            /* PSEQ's pop wakes us */
		sim_unit_stall_wait(u, now, SIM_STALL_OUTPUT_FULL);
		return;
	}
	sim_unit_sleep_until(u, now + 1);
	for (;;) {
		if (!r->have && !take(r, now)) {
			/* setup's push wakes us (a queued triangle still in flight: then) */
			sim_unit_sleep_until(u, sim_port_next_ready(r->in));
			return;
		}
		const raster_tri *s = &r->cur;
		if (r->qx > s->x1) {                /* the row is walked */
			r->qx = s->x0;
			r->qy += 2;
			r->row_set = false;
		}
		if (r->qy > s->y1) {                /* walked: the walk's hold on the slot ends */
			r->have = false;
			if (r->tram)
				gr3d_tram_release(r->tram, s->slot);
			continue;
		}
		if (!r->row_set) {                  /* a new row */
			if (raster_swath_block(r->qy, r->swath_shift, r->nblocks) != r->block) {
				/* another block's swath: on to the first row of our next one
				 * (the rows are not ours to walk, they cost nothing) */
				const int h = 1 << r->swath_shift;
				r->qy = (r->qy & ~(h - 1)) + h;
				r->qx = s->x0;
				continue;
			}
			start_row(r);
		}
		/* the quad is built in the port's free tail slot (the port is not
		 * full here) and pushed with sim_port_commit: no copy; an empty
		 * quad is simply not committed.  Every field is set before that. */
		gr3d_quad_in *in = sim_port_tail(r->out);
		int next;
		const unsigned mask = quad_mask(r, r->qx, r->qy, in, &next);
		in->x = (uint16_t)r->qx;
		in->y = (uint16_t)r->qy;
		r->qx = next;
		if (!mask)
			continue;
		in->id = r->next_id++;
		in->tri = s->slot;
		in->mask = (uint8_t)mask;
		in->front = s->front;
		if (r->tram)
			gr3d_tram_hold(r->tram, s->slot);
		/* where the quad is: the viewer's "pixel's journey" reads this */
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_INSTANT, in->id, (uint32_t)in->x | (uint32_t)in->y << 16);
		sim_port_commit(r->out, now);
		sim_unit_count(u, RASTER_CTR_QUADS, 1);
		if (sim_port_full(r->out)) {
			/* the tick at now + 1 would only find the port full and wait:
			 * wait from here (from now + 1 on, as that tick would) */
			sim_unit_stall_wait(u, now, SIM_STALL_OUTPUT_FULL);
		}
		sim_unit_busy(u);                   /* this cycle pushed */
		return;
	}
}

/* The tick built twice on x86-64, with quad_mask inline: for AVX2 (a
 * quad's lanes in one register) and plain (two SSE2 halves); raster_use_avx2
 * picks one. */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static void raster_tick_avx2(sim_unit *u, uint64_t now)
{
	tick(u, now);
}
#endif

static void raster_tick_plain(sim_unit *u, uint64_t now)
{
	tick(u, now);
}

void raster_use_avx2(raster_unit *r, bool on)
{
#if defined(__x86_64__)
	r->avx2 = on && __builtin_cpu_supports("avx2");
	r->u.tick = r->avx2 ? raster_tick_avx2 : raster_tick_plain;
#else
	(void)on;
	r->avx2 = false;
	r->u.tick = raster_tick_plain;
#endif
}

unsigned raster_tri_blocks(const raster_tri *s, unsigned swath_shift, unsigned nblocks)
{
	if (raster_tri_empty(s))
		return 0;
	if (nblocks < 2)
		return 1;
	unsigned mask = 0;
	/* swaths alternate: a box over nblocks swaths touches every block */
	for (int y = s->y0 >> swath_shift, n = 0; y <= s->y1 >> swath_shift && n < (int)nblocks; y++, n++)
		mask |= 1u << raster_swath_block(y << swath_shift, swath_shift, nblocks);
	return mask;
}

/* No triangle in hand, quad ids from 0 (the swath split stays). */
static void raster_reset(sim_unit *u)
{
	raster_unit *r = (raster_unit *)u;
	r->have = false;
	r->qx = r->qy = 0;
	r->row_set = false;
	r->next_id = 0;
}

void raster_init(raster_unit *r, sim_port *in, sim_port *out, gr3d_tram *tram)
{
	memset(r, 0, sizeof *r);
	sim_unit_init(&r->u, "raster", raster_tick_plain, RASTER_COUNTERS, RASTER_CTR_COUNT);
	r->u.reset = raster_reset;
	r->in = in;
	r->out = out;
	r->tram = tram;
	raster_use_avx2(r, true);
	in->consumer = &r->u;
}
