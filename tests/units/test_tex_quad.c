/* TEX's two builds of a quad's fetch (units/gr3d/tex.c tex_quad_avx2 and
 * tex_quad_plain; docs/speed-history.md "Fragments, session 10"): the bilinear blend
 * of a texel's four channels in one AVX2 register must give the pairs'
 * codes bit for bit.  Random textures in every format, both filters, every
 * wrap, coordinates in and around [0, 1] with odd FP20 codes among them,
 * partial quads: the registers, the pre-fetch views and the counters of
 * the two builds must agree.  The wide build takes a quad whose four pixels
 * are live through fetch_quad (the coordinates on four lanes, both
 * filters), the plain one always pixel by pixel: so fetch_quad is checked
 * against fetch_view too. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"
#include "units/gr3d/tex.h"
#include "units/gr3d/tex_lanes.h"

typedef struct rig {
	tegra_fp_decoded dec;
	ulp_config cfg;
	gr3d_ctx ctx;
	tex_unit unit;
	ulp_image *img;
} rig;

static const enum gr3d_texfmt FORMATS[] = { GR3D_TEX_RGBA8888, GR3D_TEX_BGRA8888, GR3D_TEX_A8, GR3D_TEX_L8,
                                            GR3D_TEX_RGB565, GR3D_TEX_D16 };

static rig *rig_new(test_rng *g, unsigned format, bool bilinear, unsigned wrap_s, unsigned wrap_t)
{
	rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	ulp_diag d;
	ulp_diag_clear(&d);
	const uint32_t w = 1u + test_rnd(g) % 37u, h = 1u + test_rnd(g) % 29u;
	r->img = ulp_image_create(w, h, &d);
	cr_assert(r->img, "%s", d.msg);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *px = ulp_image_px(r->img, x, y);
			const uint32_t v = test_rnd(g);
			for (unsigned k = 0; k < 4; k++)   /* the ends of the byte range often */
				px[k] = (v >> (k * 3)) & 1u ? (uint8_t)(test_rnd(g) >> 8) : (v >> (12 + k)) & 1u ? 255u : 0u;
		}
	ulp_config_defaults(&r->cfg);
	r->dec.exec_count = 1;
	r->dec.alu_buffer_size = 1;
	r->dec.exec[0].tex.enable = true;
	r->dec.exec[0].tex.dst_r2 = true;             /* r0, r1 -> r2, r3 */
	r->ctx.prog = &r->dec;
	r->ctx.cfg = &r->cfg;
	r->ctx.rows = 1;
	r->ctx.fp20_round = r->cfg.fp20_round;
	r->ctx.fx10_round = r->cfg.fx10_round;
	gr3d_sampler *sm = &r->ctx.sampler[0];
	sm->img = r->img;
	sm->format = (uint8_t)FORMATS[format];
	sm->bilinear = bilinear;
	sm->wrap = (uint8_t)wrap_s;
	sm->wrap_t_own = true;
	sm->wrap_t = (uint8_t)wrap_t;
	ulp_image *owned[GR3D_TEX_LEVELS];
	cr_assert(tex_build_levels(sm, owned, &d), "%s", d.msg);
	tex_init(&r->unit, &r->ctx);
	return r;
}

/* A coordinate's FP20 code: mostly in [-1.5, 2.5], sometimes an odd code
 * (zero, a subnormal read, inf, NaN) or a huge value. */
static uint32_t coord(test_rng *g)
{
	const uint32_t v = test_rnd(g);
	switch (v & 15u) {
	case 0: return (v >> 8) & 0x81FFFu;              /* exponent 0 */
	case 1: return ((v >> 8) & 0x81FFFu) | 0x7E000u; /* exponent 63 */
	case 2: return ((v >> 8) & 0x81FFFu) | 0x70000u; /* huge */
	default: {
		const double x = -1.5 + 4.0 * (double)(v >> 8) / (double)(1u << 24);
		return gr3d_fp20_bits(ULP_ROUND_NEAREST_EVEN, x);
	}
	}
}

Test(tex_quad, wide_build_matches_the_pairs)
{
#if defined(__x86_64__)
	if (!__builtin_cpu_supports("avx2"))
		cr_skip_test("the host has no AVX2: only the plain build runs");
#else
	cr_skip_test("not x86-64: only the plain build");
#endif
	test_rng g = { 0x7E57u };
	unsigned texels = 0;
	for (unsigned k = 0; k < 240; k++) {
		rig *fast = rig_new(&g, k % 6u, (k / 6u) % 2u == 0, (k / 12u) % 3u, (k / 36u) % 3u);
		rig *ref = calloc(1, sizeof *ref);
		cr_assert(ref);
		*ref = *fast;                              /* the same texture and plan */
		ref->ctx.prog = &ref->dec;
		ref->ctx.cfg = &ref->cfg;
		tex_init(&ref->unit, &ref->ctx);
		ref->unit.avx2 = false;
		cr_assert(fast->unit.avx2);
		for (unsigned round = 0; round < 200; round++) {
			gr3d_quad a;
			memset(&a, 0, sizeof a);
			const uint32_t mask = test_rnd(&g) & 3u ? 0xFu : test_rnd(&g) & 0xFu;
			for (unsigned p = 0; p < GR3D_PIXELS; p++) {
				a.covered[p] = (mask >> p) & 1u;
				a.killed[p] = !a.covered[p];
				for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
					a.r[i][p] = test_rnd(&g) & FP20_MASK;
				a.r[0][p] = coord(&g);
				a.r[1][p] = coord(&g);
			}
			gr3d_quad b = a;
			cr_assert_eq(fast->unit.s.exec(&fast->unit.s, &a, 0), ref->unit.s.exec(&ref->unit.s, &b, 0));
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				if (memcmp(a.r, b.r, sizeof a.r) || memcmp(&a.px[p], &b.px[p], sizeof a.px[p]))
					cr_assert_fail("texture %u (format %u), round %u, pixel %u: r2 %05x r3 %05x wide, %05x %05x pairs",
					               k, k % 6u, round, p, a.r[2][p], a.r[3][p], b.r[2][p], b.r[3][p]);
		}
		cr_assert(!memcmp(fast->unit.s.u.stats.counter, ref->unit.s.u.stats.counter,
		                  sizeof(uint64_t) * TEX_CTR_COUNT));
		texels += (unsigned)fast->unit.s.u.stats.counter[TEX_CTR_TEXELS];
		ulp_image_free(fast->img);
		free(fast);
		free(ref);
	}
	cr_assert_gt(texels, 100000u);
}

#if defined(__x86_64__)
/* tex_lanes_avx2's read of the coordinates (tex_lanes.h fp20_lanes: the
 * binary64 bits formed from the code, the odd test as an equality) against
 * gr3d_fp20_quad with subnormals on every code, bits above 20 set in some
 * lanes (the reads ignore them); returns the lanes that differ.  A value's
 * bits, not its texel: a zero read as 2^-31 would fetch the same texel. */
__attribute__((target("avx2"))) static unsigned coord_lanes_avx2(void)
{
	unsigned bad = 0;
	for (uint32_t base = 0; base < (1u << 20); base += GR3D_PIXELS) {
		uint32_t w[GR3D_PIXELS], code[GR3D_PIXELS];
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			code[p] = base + (p * 3u & 3u);
			w[p] = code[p] | (p & 1u ? 0xABC00000u : 0u);
		}
		double got[GR3D_PIXELS], want[GR3D_PIXELS];
		fp20_lanes(w, got);
		gr3d_fp20_quad(true, code, want);
		bad += memcmp(got, want, sizeof got) != 0;
	}
	return bad;
}
#endif

Test(tex_quad, coordinate_read_on_four_lanes_is_gr3d_fp20)
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
		cr_assert_eq(coord_lanes_avx2(), 0u, "lanes differ from gr3d_fp20_quad");
#endif
}
