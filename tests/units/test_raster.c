/* The rasterizer's walk against the plain definition (docs/tegra-units.md
 * "The quad's journey"): every quad of the box in raster order, each pixel's
 * edge functions ex*(py - oy) - ey*(px - ox) formed on their own, the tie
 * rule, the scissor, the weights.  The unit skips quads it can prove empty
 * and forms products once per row; the quads it emits, their order and
 * every bit of their weights must be the same. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tests/test_util.h"
#include "units/gr3d/raster.h"

enum { MAXQ = 1 << 14 };

typedef struct quads {
	gr3d_quad_in q[MAXQ];
	unsigned n;
} quads;

/* The definition, quad by quad over the box (block's swaths only). */
static void reference(const raster_tri *s, unsigned block, unsigned nblocks, unsigned swath_shift,
                      quads *out)
{
	for (int qy = s->y0; qy <= s->y1;) {
		if (raster_swath_block(qy, swath_shift, nblocks) != block) {
			const int h = 1 << swath_shift;
			qy = (qy & ~(h - 1)) + h;
			continue;
		}
		for (int qx = s->x0; qx <= s->x1; qx += 2) {
			double e[3][GR3D_PIXELS];
			unsigned mask = 0;
			for (unsigned k = 0; k < GR3D_PIXELS; k++) {
				const int ix = qx + (int)(k & 1u), iy = qy + (int)(k >> 1);
				const double px = ix + 0.5, py = iy + 0.5;
				bool in = ix >= s->sx0 && ix < s->sx1 && iy >= s->sy0 && iy < s->sy1;
				for (unsigned v = 0; v < 3; v++) {
					e[v][k] = s->ex[v] * (py - s->oy[v]) - s->ey[v] * (px - s->ox[v]);
					in = in && (s->tie[v] ? e[v][k] >= 0 : e[v][k] > 0);
				}
				mask |= (unsigned)in << k;
			}
			if (!mask)
				continue;
			cr_assert_lt(out->n, MAXQ);
			gr3d_quad_in *o = &out->q[out->n++];
			memset(o, 0, sizeof *o);
			o->x = (uint16_t)qx;
			o->y = (uint16_t)qy;
			o->mask = (uint8_t)mask;
			o->tri = s->slot;
			o->front = s->front;
			for (unsigned k = 0; k < GR3D_PIXELS; k++) {
				double l0 = e[0][k] * s->inv_area, l1 = e[1][k] * s->inv_area, l2 = e[2][k] * s->inv_area;
				o->bar0[k] = (float)(l0 * s->iw[0]);
				o->bar1[k] = (float)(l1 * s->iw[1]);
				o->q[k] = (float)(l0 * s->iw[0] + l1 * s->iw[1] + l2 * s->iw[2]);
				o->z[k] = l0 * s->z[0] + l1 * s->z[1] + l2 * s->z[2];
			}
		}
		qy += 2;
	}
}

/* The unit alone on a hand-run clock: its output port is drained every
 * cycle (and the unit woken, as PSEQ's pop would). */
static void walk(const raster_tri *tris, unsigned ntris, unsigned block, unsigned nblocks,
                 unsigned swath_shift, bool avx2, quads *out)
{
	sim_port in, po;
	cr_assert(sim_port_init(&in, "tri", sizeof(raster_tri), ntris, 0, NULL));
	cr_assert(sim_port_init(&po, "quad", sizeof(gr3d_quad_in), 2, 0, NULL));
	raster_unit r;
	raster_init(&r, &in, &po, NULL);
	raster_use_avx2(&r, avx2);          /* false: the plain build */
	r.block = (uint8_t)block;
	r.nblocks = (uint8_t)nblocks;
	r.swath_shift = (uint8_t)swath_shift;
	for (unsigned k = 0; k < ntris; k++)
		sim_port_push(&in, &tris[k], 0);
	for (uint64_t now = 0; !raster_idle(&r) || !sim_port_empty(&po); now++) {
		cr_assert_lt(now, 4u * MAXQ, "the walk ends");
		if (r.u.wake <= now)
			r.u.tick(&r.u, now);
		const gr3d_quad_in *q;
		while ((q = sim_port_peek(&po, now))) {
			cr_assert_lt(out->n, MAXQ);
			out->q[out->n++] = *q;
			sim_port_pop(&po, now);
			sim_unit_wake(&r.u, now + 1);
		}
	}
	sim_port_fini(&in);
	sim_port_fini(&po);
}

/* A coordinate: on the pixel grid, on a pixel centre, anywhere, or far
 * outside the target (huge values keep the edge products finite); with
 * odd, now and then infinite or NaN (the products are then inf or NaN). */
static double coord(test_rng *g, double size, bool odd)
{
	const uint32_t kind = test_rnd(g) % (odd ? 9 : 8);
	const double u = (double)(test_rnd(g) % 100000) / 100000.0 * (size + 16) - 8;
	switch (kind) {
	case 0: return (double)(int)u;
	case 1: return (int)u + 0.5;
	case 2: return (test_rnd(g) & 1 ? -1.0 : 1.0) * 1e6 * (1 + test_rnd(g) % 7);
	case 3: return (test_rnd(g) & 1 ? -1.0 : 1.0) * 3e30;
	case 8: return test_rnd(g) % 3 == 0 ? NAN : (test_rnd(g) & 1 ? -1.0 : 1.0) * INFINITY;
	default: return u;
	}
}

static void compare(const quads *got, const quads *want, unsigned trial)
{
	cr_assert_eq(got->n, want->n, "trial %u: %u quads, want %u", trial, got->n, want->n);
	for (unsigned i = 0; i < got->n; i++) {
		const gr3d_quad_in *a = &got->q[i], *b = &want->q[i];
		cr_assert(a->x == b->x && a->y == b->y && a->mask == b->mask && a->tri == b->tri &&
		          a->front == b->front && a->id == i,
		          "trial %u quad %u: (%u,%u) mask %x, want (%u,%u) mask %x", trial, i, a->x, a->y,
		          a->mask, b->x, b->y, b->mask);
		cr_assert(!memcmp(a->bar0, b->bar0, sizeof a->bar0) && !memcmp(a->bar1, b->bar1, sizeof a->bar1) &&
		          !memcmp(a->q, b->q, sizeof a->q) && !memcmp(a->z, b->z, sizeof a->z),
		          "trial %u quad %u: weights differ", trial, i);
	}
}

/* trials random batches of triangles (odd: with infinite and NaN
 * coordinates), walked by quad_mask's AVX2 build (where the host has it) and
 * its plain one, against the definition; returns the quads emitted. */
static unsigned walk_trials(uint32_t seed, unsigned trials, bool odd)
{
	static quads got, want;
	test_rng g = { seed };
	enum { W = 48, H = 40, BATCH = 6 };
	unsigned emitted = 0;
	for (unsigned trial = 0; trial < trials; trial++) {
		raster_tri tris[BATCH];
		for (unsigned t = 0; t < BATCH; t++) {
			double x[3], y[3], z[3], w[3];
			for (unsigned k = 0; k < 3; k++) {
				x[k] = coord(&g, W, odd);
				y[k] = coord(&g, H, odd);
				z[k] = (double)(test_rnd(&g) % 1000) / 999.0;
				w[k] = 0.25 + (double)(test_rnd(&g) % 1000) / 250.0;
			}
			if (test_rnd(&g) % 4 == 0) {       /* a sliver: two vertices close */
				x[2] = x[1] + (double)(test_rnd(&g) % 3) * 0.25;
				y[2] = y[1] + 0.5;
			}
			raster_tri_setup(&tris[t], x, y, z, w, W, H);
			tris[t].slot = (uint8_t)t;
			if (test_rnd(&g) % 3 == 0)
				raster_tri_scissor(&tris[t], (int)(test_rnd(&g) % W) - 4, (int)(test_rnd(&g) % H) - 4,
				                   (int)(test_rnd(&g) % W) + 8, (int)(test_rnd(&g) % H) + 8);
		}
		const unsigned nblocks = trial % 3 == 2 ? 2 : 1, block = nblocks > 1 ? trial / 3 % 2 : 0;
		want.n = 0;
		for (unsigned t = 0; t < BATCH; t++)
			reference(&tris[t], block, nblocks, 2, &want);
		for (unsigned i = 0; i < want.n; i++)
			want.q[i].id = i;
		for (unsigned wide = 0; wide < 2; wide++) {
			got.n = 0;
			walk(tris, BATCH, block, nblocks, 2, wide, &got);
			compare(&got, &want, trial);
		}
		emitted += got.n;
	}
	return emitted;
}

Test(raster, walk_matches_definition)
{
	const unsigned emitted = walk_trials(0x5eed1234u, 400, false);
	cr_assert_gt(emitted, 10000u, "the trials cover many quads (%u)", emitted);
}

/* Infinite and NaN vertices: edge values and weights inf or NaN in some
 * lanes; the lanes must give the definition's bits (NaNs included). */
Test(raster, walk_with_infinite_and_nan_vertices_matches_definition)
{
	const unsigned emitted = walk_trials(0x0dd5eedu, 400, true);
	cr_assert_gt(emitted, 5000u, "the trials cover many quads (%u)", emitted);
}

/* raster_tri_setup's box and edges (the box clamped without libm's fmin,
 * fmax, floor and ceil; the edges' ends from a table) against their
 * definition, on coordinates on and off the grid, huge, infinite and NaN,
 * and targets of 0, 1 and odd sizes; raster_tri_area (setup's cull before
 * the set-up) is the set-up's area. */
Test(raster, tri_setup_box_and_edges_match_definition)
{
	test_rng g = { 0xb0c5eedu };
	static const uint32_t SIZES[] = { 0, 1, 2, 3, 47, 48, 640, 4096 };
	unsigned boxes = 0;
	for (unsigned trial = 0; trial < 20000; trial++) {
		const uint32_t W = SIZES[test_rnd(&g) % 8], H = SIZES[test_rnd(&g) % 8];
		double x[3], y[3], z[3] = { 0.25, 0.5, 0.75 }, w[3] = { 1, 2, 4 };
		for (unsigned k = 0; k < 3; k++) {
			x[k] = coord(&g, W, trial % 4 == 3);
			y[k] = coord(&g, H, trial % 4 == 3);
		}
		raster_tri s;
		raster_tri_setup(&s, x, y, z, w, W, H);
		/* the definition */
		double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
		for (unsigned k = 0; k < 3; k++) {
			minx = x[k] < minx ? x[k] : minx;
			maxx = x[k] > maxx ? x[k] : maxx;
			miny = y[k] < miny ? y[k] : miny;
			maxy = y[k] > maxy ? y[k] : maxy;
		}
		const double area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
		int x0 = (int)fmin(fmax(0.0, floor(minx)), (double)W) & ~1;
		int y0 = (int)fmin(fmax(0.0, floor(miny)), (double)H) & ~1;
		int x1 = (int)fmax(-1.0, fmin((double)W - 1, ceil(maxx)));
		int y1 = (int)fmax(-1.0, fmin((double)H - 1, ceil(maxy)));
		if (area == 0.0 || x0 > x1 || y0 > y1)
			x0 = 0, y0 = 1, x1 = -1, y1 = -1;
		cr_assert(memcmp(&s.area, &area, sizeof area) == 0 || (area != area && s.area != s.area));
		const double a2 = raster_tri_area(x, y);
		cr_assert(memcmp(&s.area, &a2, sizeof a2) == 0, "raster_tri_area is the set-up's");
		cr_assert(s.x0 == x0 && s.y0 == y0 && s.x1 == x1 && s.y1 == y1,
		          "trial %u (%ux%u): box %d,%d..%d,%d, want %d,%d..%d,%d (x %g %g %g, y %g %g %g)", trial, W, H,
		          s.x0, s.y0, s.x1, s.y1, x0, y0, x1, y1, x[0], x[1], x[2], y[0], y[1], y[2]);
		boxes += y0 <= y1;
		const bool ccw = area > 0;
		for (unsigned v = 0; v < 3; v++) {
			const unsigned a = ccw ? (v + 1) % 3 : (v + 2) % 3, b = ccw ? (v + 2) % 3 : (v + 1) % 3;
			const double ex = x[b] - x[a], ey = y[b] - y[a];
			cr_assert(memcmp(&s.ox[v], &x[a], sizeof ex) == 0 && memcmp(&s.oy[v], &y[a], sizeof ex) == 0 &&
			          memcmp(&s.ex[v], &ex, sizeof ex) == 0 && memcmp(&s.ey[v], &ey, sizeof ey) == 0,
			          "trial %u: edge %u", trial, v);
			cr_assert_eq(s.tie[v], ey > 0 || (ey == 0 && ex < 0), "trial %u: tie %u", trial, v);
		}
	}
	cr_assert_gt(boxes, 5000u, "the trials cover many boxes (%u)", boxes);
}
