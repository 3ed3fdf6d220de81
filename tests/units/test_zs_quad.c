/* ZS's quad-at-a-time depth test (zs_quad_depth, the unit's path without
 * stencil) against the per-pixel rule (zs_pixel_z, zs_pixel with write
 * unless late): masks, codes, rejections and the surface, word for word, on
 * random quads (on and off the surface, partly covered), random surfaces of
 * both formats (D24S8 with the stencil test off), every compare function,
 * the test, the write and the surface's write bit on and off, early and
 * late, depth ranges that clamp, NaN and infinite depths; half the quads
 * whole (zs.c quad_depth4, the four pixels on lanes). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "units/gr3d/zs.h"

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

static double depth(uint64_t *s)
{
	switch (rnd(s) % 11) {
	case 8: return NAN;                            /* NaN and infinite vertices */
	case 9: return rnd(s) % 2 ? INFINITY : -INFINITY;
	case 10: return 0.5 / 0xFFFFFF * (rnd(s) % 64);   /* halves of a code step: lround's ties */
	case 0: return 0.0;
	case 1: return 1.0;
	case 2: return -0.25;
	case 3: return 1.5;
	case 4: return (double)(rnd(s) % 5) / 4.0;      /* ties with the stored codes */
	default: return (double)(rnd(s) % 1000001) / 1000000.0;
	}
}

Test(zs_quad, quad_depth_matches_the_per_pixel_rule)
{
	uint64_t seed = 0x2bd5eed7u;
	enum { W = 9, H = 7 };
	unsigned rejected_all = 0, written = 0, funcs = 0, whole = 0;
	for (unsigned round = 0; round < 400; round++) {
		const enum zs_format fmt = round % 2 ? ZS_D24S8 : ZS_D16;
		zs_surface *a = zs_surface_create(W, H, fmt, NULL), *b = zs_surface_create(W, H, fmt, NULL);
		cr_assert(a && b);
		for (unsigned i = 0; i < W * H; i++) {
			a->depth[i] = b->depth[i] = zs_quantize(a, depth(&seed) < 0 ? 0.0 : (double)(rnd(&seed) % 5) / 4.0);
			if (rnd(&seed) % 8 == 0)               /* a word with its top bit set: unsigned compares */
				a->depth[i] = b->depth[i] = rnd(&seed) | 0x80000000u;
		}
		zs_state st;
		memset(&st, 0, sizeof st);
		st.z_enable = rnd(&seed) % 6 != 0;
		st.z_write = rnd(&seed) % 4 != 0;
		st.depth_surface = rnd(&seed) % 4 != 0;
		st.z_func = (uint8_t)(round % 8);
		st.late = rnd(&seed) % 3 == 0;
		st.z_min = rnd(&seed) % 3 ? 0 : rnd(&seed) % 0x80000u;
		st.z_max = rnd(&seed) % 3 ? 0xFFFFFu : 0x80000u + rnd(&seed) % 0x80000u;
		funcs |= 1u << st.z_func;
		for (unsigned n = 0; n < 40; n++) {
			gr3d_quad_in q;
			memset(&q, 0, sizeof q);
			q.x = (uint16_t)(rnd(&seed) % (W + 2) & ~1u);
			q.y = (uint16_t)(rnd(&seed) % (H + 2) & ~1u);
			q.mask = (uint8_t)(rnd(&seed) % 2 ? 0xFu : rnd(&seed) % 16);   /* whole quads: the lanes */
			whole += q.mask == 0xFu && q.x + 1u < W && q.y + 1u < H;
			q.front = rnd(&seed) % 2;
			for (unsigned k = 0; k < GR3D_PIXELS; k++)
				q.z[k] = depth(&seed);
			/* the rule */
			uint8_t want = q.mask;
			uint32_t want_code[GR3D_PIXELS] = { 0 };
			unsigned want_tested = 0, want_rejected = 0;
			for (unsigned k = 0; k < GR3D_PIXELS; k++) {
				if (!(q.mask >> k & 1u))
					continue;
				want_tested++;
				want_code[k] = zs_pixel_z(&st, b, q.z[k]);
				if (!zs_pixel(&st, b, q.x + (k & 1u), q.y + (k >> 1), want_code[k], q.front, !st.late)) {
					want &= (uint8_t)~(1u << k);
					want_rejected++;
				}
			}
			uint32_t code[GR3D_PIXELS] = { 0 };
			unsigned rejected = 99;
			const unsigned tested = zs_quad_depth(&st, a, &q, code, &rejected);
			cr_assert_eq(q.mask, want, "round %u quad %u: mask %x, want %x", round, n, q.mask, want);
			cr_assert_eq(tested, want_tested);
			cr_assert_eq(rejected, want_rejected);
			cr_assert(memcmp(code, want_code, sizeof code) == 0, "round %u quad %u: codes", round, n);
			cr_assert(memcmp(a->depth, b->depth, W * H * sizeof *a->depth) == 0, "round %u quad %u: surface", round, n);
			rejected_all += rejected;
		}
		for (unsigned i = 0; i < W * H; i++)
			written += a->depth[i] != zs_quantize(a, 0.0) && a->depth[i] % (zs_depth_max(a) / 4) != 0 &&
			           !(a->depth[i] >> 31);
		zs_surface_free(a);
		zs_surface_free(b);
	}
	cr_assert_eq(funcs, 0xFFu);
	cr_assert_gt(whole, 4000u, "whole quads on the surface: %u", whole);
	cr_assert_gt(rejected_all, 1000u, "rejections: %u", rejected_all);
	cr_assert_gt(written, 100u, "writes: %u", written);
}
