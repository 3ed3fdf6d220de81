/* DW's store of a whole quad (units/gr3d/dw.c unorm8_quad: the four pixels'
 * bytes formed at once, two 8-byte row stores; in dw_exec, and in
 * dw_exec_general where a viewer is attached) against its general path
 * (dw_store_pixels, pixel by pixel through the fx10_to_unorm8 table).  Random
 * quads with every FX10 code in every channel, both source pairs, both
 * plain formats, quads on the target's edges and partly live: the targets'
 * bytes and the counters of the two paths must agree. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"
#include "units/gr3d/dw.h"

typedef struct rig {
	tegra_fp_decoded dec;
	ulp_config cfg;
	gr3d_ctx ctx;
	dw_unit unit;
	ulp_image *img;
	gr3d_probe probe;             /* a viewer that watches nothing (the general path's quad store) */
} rig;

static rig *rig_new(uint32_t w, uint32_t h, bool src_r2, unsigned fmt, bool plain)
{
	rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	ulp_diag d;
	ulp_diag_clear(&d);
	r->img = ulp_image_create(w, h, &d);
	cr_assert(r->img, "%s", d.msg);
	memset(r->img->rgba, 0x5A, (size_t)w * h * 4u);
	ulp_config_defaults(&r->cfg);
	r->dec.exec_count = 1;
	r->dec.alu_buffer_size = 1;
	r->dec.exec[0].dw.enable = true;
	r->dec.exec[0].dw.src_r2 = src_r2;
	r->ctx.prog = &r->dec;
	r->ctx.cfg = &r->cfg;
	r->ctx.rows = 1;
	r->ctx.fp20_round = r->cfg.fp20_round;
	r->ctx.fx10_round = r->cfg.fx10_round;
	r->ctx.rt[0] = r->img;
	r->ctx.rt_format[0] = (uint8_t)fmt;
	r->ctx.width = w;
	r->ctx.height = h;
	dw_init(&r->unit, &r->ctx, NULL);
	cr_assert(r->unit.plan[0].plain);
	r->unit.plan[0].plain = plain;                 /* false: the general path */
	return r;
}

static void rig_free(rig *r)
{
	ulp_image_free(r->img);
	free(r);
}

/* A register word: two FX10 codes, the ends of the range and the signs'
 * edges often. */
static uint32_t fx10_pair(test_rng *g)
{
	static const uint16_t EDGE[] = { 0, 1, 255, 256, 257, 510, 511, 512, 513, 1023 };
	uint32_t w = 0;
	for (unsigned h = 0; h < 2; h++) {
		const uint32_t v = test_rnd(g);
		const uint32_t c = v & 1u ? EDGE[(v >> 1) % 10u] : (v >> 8) & FX10_MASK;
		w |= c << (h * FX10_HIGH_SHIFT);
	}
	return w;
}

/* Both paths on the same quad; returns whether the fast unit takes its
 * whole-quad store for it (four live pixels inside the target). */
static bool store_both(rig *fast, rig *ref, const gr3d_quad *q)
{
	gr3d_quad a = *q, b = *q;
	cr_assert_eq(fast->unit.s.exec(&fast->unit.s, &a, 0), ref->unit.s.exec(&ref->unit.s, &b, 0));
	cr_assert(!memcmp(&a, &b, sizeof a), "the quad itself changed");
	bool live = q->x + 1u < fast->img->width && q->y + 1u < fast->img->height;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		live &= q->covered[p] && !q->killed[p] && !q->exec_killed[p];
	return live;
}

static void compare(const rig *fast, const rig *ref, unsigned k)
{
	const size_t n = (size_t)fast->img->width * fast->img->height * 4u;
	for (size_t i = 0; i < n; i++)
		if (fast->img->rgba[i] != ref->img->rgba[i])
			cr_assert_fail("target %u: byte %zu (pixel %zu, channel %zu) is %u, the general path %u", k, i,
			               i / 4u, i % 4u, fast->img->rgba[i], ref->img->rgba[i]);
	cr_assert(!memcmp(fast->unit.s.u.stats.counter, ref->unit.s.u.stats.counter,
	                  sizeof(uint64_t) * DW_CTR_COUNT),
	          "target %u: the counters differ", k);
}

Test(dw_quad, every_code_matches_the_table)
{
	/* each of the four channels of each pixel takes every FX10 code */
	rig *fast = rig_new(4, 4, false, GR3D_RT_RGBA8888, true);
	rig *ref = rig_new(4, 4, false, GR3D_RT_RGBA8888, false);
	for (uint32_t c = 0; c <= FX10_MASK; c++) {
		gr3d_quad q;
		memset(&q, 0, sizeof q);
		q.x = (uint16_t)(2u * (c & 1u));
		q.y = (uint16_t)(c & 2u);
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			q.covered[p] = true;
			const uint32_t a = (c + 256u * p) & FX10_MASK, b = (c * 7u + p) & FX10_MASK;
			q.r[0][p] = a | b << FX10_HIGH_SHIFT;
			q.r[1][p] = b | a << FX10_HIGH_SHIFT;
		}
		cr_assert(store_both(fast, ref, &q));
		compare(fast, ref, c);
		/* and the bytes are the table's */
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			const uint8_t *px = ulp_image_cpx(fast->img, q.x + (p & 1u), q.y + (p >> 1));
			cr_assert_eq(px[0], fx10_to_unorm8(q.r[0][p] & FX10_MASK));
			cr_assert_eq(px[3], fx10_to_unorm8(q.r[1][p] >> FX10_HIGH_SHIFT));
		}
	}
	cr_assert_eq(fast->unit.s.u.stats.counter[DW_CTR_PIXELS], 4u * (FX10_MASK + 1u));
	rig_free(fast);
	rig_free(ref);
}

Test(dw_quad, random_quads_match_the_general_path)
{
	test_rng g = { 0xD3u };
	unsigned whole = 0;
	for (unsigned k = 0; k < 48; k++) {
		const uint32_t w = 1u + test_rnd(&g) % 13u, h = 1u + test_rnd(&g) % 11u;
		const bool r2 = k & 1u;
		const unsigned fmt = (k >> 1) & 1u ? GR3D_RT_BGRA8888 : GR3D_RT_RGBA8888;
		rig *fast = rig_new(w, h, r2, fmt, true);
		rig *ref = rig_new(w, h, r2, fmt, false);
		if (k % 4u == 3u)   /* dw_exec_general's whole-quad store, not dw_exec's own */
			fast->ctx.probe = &fast->probe;
		ref->ctx.probe = &ref->probe;   /* the reference always takes dw_exec_general */
		const bool store = k % 8u != 5u;   /* else an EXEC without a store: nothing written */
		fast->unit.plan[0].enable = ref->unit.plan[0].enable = store;
		for (unsigned round = 0; round < 400; round++) {
			gr3d_quad q;
			memset(&q, 0, sizeof q);
			q.x = (uint16_t)(test_rnd(&g) % (w + 1u));   /* some on or past the edges */
			q.y = (uint16_t)(test_rnd(&g) % (h + 1u));
			const uint32_t v = test_rnd(&g);
			for (unsigned p = 0; p < GR3D_PIXELS; p++) {
				q.covered[p] = v & 7u ? true : (v >> (4 + p)) & 1u;
				q.killed[p] = !q.covered[p] || (v & 0x700u ? false : (v >> (12 + p)) & 1u);
				q.exec_killed[p] = v & 0x7000u ? false : (v >> (20 + p)) & 1u;
				for (unsigned i = 0; i < 4; i++)
					q.r[i][p] = fx10_pair(&g);
			}
			whole += store_both(fast, ref, &q) && store;
		}
		compare(fast, ref, k);
		if (store)
			cr_assert_gt(fast->unit.s.u.stats.counter[DW_CTR_PIXELS], 100u);
		else
			for (size_t i = 0; i < (size_t)w * h * 4u; i++)
				cr_assert_eq(fast->img->rgba[i], 0x5A, "target %u: a byte written without a store", k);
		rig_free(fast);
		rig_free(ref);
	}
	cr_assert_gt(whole, 2000u);                   /* the whole-quad store ran often */
}
