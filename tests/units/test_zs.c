/* Early depth/stencil (units/gr3d/zs.h): compare functions, stencil ops, the
 * depth write mask, late writes when the program kills, the unit in the
 * fragment pipeline (overlapping triangles resolved by depth in either
 * order), the GR3D register round trip, and replayed traces with depth. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tegra/tegra_asm.h"
#include "units/gr3d/gr3d_regs.h"
#include "traces/replay/replay.h"
#include "tests/test_util.h"
#include "units/gpu.h"
#include "units/gr3d/zs.h"

#define FX(v) ((uint32_t)((v) * 256) & 0x3FFu)

/* The replay tests' shaders (a pass-through VS with a colour, an FS that
 * writes it) and their vertex layout (position, colour: 2 x vec4), as
 * fragments of the trace JSON. */
#define ZS_SHADERS \
	"\"shaders\":{\"vs\":{\"stage\":\"vertex\",\"tgsi\":\"VERT\\nDCL IN[0]\\nDCL IN[1]\\n" \
	"DCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n" \
	"  2: END\\n\"},\"fs\":{\"stage\":\"fragment\",\"tgsi\":\"FRAG\\nDCL IN[0], COLOR, COLOR\\n" \
	"DCL OUT[0], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: END\\n\"}},"
#define ZS_VERTEX_ELEMENTS \
	"{\"cmd\":\"vertex_elements\",\"elements\":[" \
	"{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}," \
	"{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]},"

/* ---- the test itself ---- */

Test(zs, compare_functions)
{
	/* a func b for a < b, a == b, a > b */
	static const bool want[8][3] = {
		[ZS_NEVER] = { 0, 0, 0 }, [ZS_LESS] = { 1, 0, 0 }, [ZS_EQUAL] = { 0, 1, 0 },
		[ZS_LEQUAL] = { 1, 1, 0 }, [ZS_GREATER] = { 0, 0, 1 }, [ZS_NOTEQUAL] = { 1, 0, 1 },
		[ZS_GEQUAL] = { 0, 1, 1 }, [ZS_ALWAYS] = { 1, 1, 1 },
	};
	for (int f = 0; f < 8; f++) {
		cr_expect_eq(zs_compare((enum zs_func)f, 1, 2), want[f][0], "func %d, 1 vs 2", f);
		cr_expect_eq(zs_compare((enum zs_func)f, 2, 2), want[f][1], "func %d, 2 vs 2", f);
		cr_expect_eq(zs_compare((enum zs_func)f, 3, 2), want[f][2], "func %d, 3 vs 2", f);
	}
}

Test(zs, stencil_ops)
{
	cr_expect_eq(zs_stencil_op(ZS_KEEP, 7, 3), 7);
	cr_expect_eq(zs_stencil_op(ZS_ZERO, 7, 3), 0);
	cr_expect_eq(zs_stencil_op(ZS_REPLACE, 7, 3), 3);
	cr_expect_eq(zs_stencil_op(ZS_INCR, 7, 3), 8);
	cr_expect_eq(zs_stencil_op(ZS_INCR, 255, 3), 255, "incr saturates");
	cr_expect_eq(zs_stencil_op(ZS_DECR, 0, 3), 0, "decr saturates");
	cr_expect_eq(zs_stencil_op(ZS_DECR, 7, 3), 6);
	cr_expect_eq(zs_stencil_op(ZS_INVERT, 0x0F, 3), 0xF0);
	cr_expect_eq(zs_stencil_op(ZS_INCR_WRAP, 255, 3), 0);
	cr_expect_eq(zs_stencil_op(ZS_DECR_WRAP, 0, 3), 255);
}

static zs_state depth_less(void)
{
	zs_state st;
	memset(&st, 0, sizeof st);
	st.z_enable = st.z_write = st.depth_surface = true;
	st.z_func = ZS_LESS;
	st.z_max = 0xFFFFF;
	for (int k = 0; k < 2; k++)
		st.face[k] = (zs_face){ .func = ZS_ALWAYS, .valuemask = 0xFF, .writemask = 0xFF };
	return st;
}

Test(zs, pixel_depth_and_write_mask)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	zs_surface *s = zs_surface_create(4, 4, ZS_D16, &d);
	cr_assert(s);
	zs_surface_clear(s, true, 0.5, false, 0);
	cr_expect_eq(s->depth[0], 32768u, "0.5 in D16");
	zs_state st = depth_less();
	uint32_t near = zs_pixel_z(&st, s, 0.25), far = zs_pixel_z(&st, s, 0.75);
	cr_expect(zs_pixel(&st, s, 1, 1, near, true, true));
	cr_expect_eq(s->depth[5], near, "a passing pixel writes its depth");
	cr_expect_not(zs_pixel(&st, s, 2, 1, far, true, true));
	cr_expect_eq(s->depth[6], 32768u, "a failing pixel keeps the old depth");
	st.z_write = false;
	cr_expect(zs_pixel(&st, s, 3, 1, near, true, true));
	cr_expect_eq(s->depth[7], 32768u, "write mask off: the test passes, nothing is written");
	st.z_write = true;
	st.depth_surface = false;                 /* RT_ENABLE bit 16 clear */
	cr_expect(zs_pixel(&st, s, 0, 2, near, true, true));
	cr_expect_eq(s->depth[8], 32768u);
	/* the depth range clamp: QR_Z_MIN/MAX */
	st.z_min = 0x80000;
	cr_expect_eq(zs_pixel_z(&st, s, 0.1), zs_quantize(s, (double)0x80000 / 0xFFFFF));
	zs_surface_free(s);
}

/* zs_quantize is lround(z * max) for z clamped to [0, 1] (NaN: 0), on both
 * formats: at and beside every half of a code (the ties, which lround takes
 * away from zero), on random z, and at the ends. */
Test(zs, quantize_is_lround_of_the_scaled_depth)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	zs_surface *s16 = zs_surface_create(1, 1, ZS_D16, &d), *s24 = zs_surface_create(1, 1, ZS_D24S8, &d);
	cr_assert(s16 && s24, "%s", d.msg);
	const zs_surface *ss[2] = { s16, s24 };
	unsigned checked = 0;
	for (unsigned k = 0; k < 2; k++) {
		const zs_surface *s = ss[k];
		const double max = zs_depth_max(s);
		const uint32_t step = k ? 97u : 1u;
		for (uint32_t n = 0; n <= zs_depth_max(s); n += step) {
			const double half = (n + 0.5) / max, at = n / max;
			const double zs[5] = { half, nextafter(half, 0.0), nextafter(half, 2.0), at, nextafter(at, 0.0) };
			for (unsigned j = 0; j < 5; j++) {
				const double z = zs[j] > 1.0 ? 1.0 : zs[j] < 0.0 ? 0.0 : zs[j];
				cr_assert_eq(zs_quantize(s, zs[j]), (uint32_t)lround(z * max), "z %.17g on %u bits", zs[j],
				             k ? 24u : 16u);
				checked++;
			}
		}
		uint64_t r = 0x9E3779B97F4A7C15u;
		for (unsigned j = 0; j < 100000; j++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			const double z = (double)(r >> 11) * 0x1p-53;
			cr_assert_eq(zs_quantize(s, z), (uint32_t)lround(z * max), "z %.17g", z);
		}
		cr_assert_eq(zs_quantize(s, -1.0), 0u);
		cr_assert_eq(zs_quantize(s, NAN), 0u);
		cr_assert_eq(zs_quantize(s, 2.0), zs_depth_max(s));
		cr_assert_eq(zs_quantize(s, INFINITY), zs_depth_max(s));
	}
	cr_assert_gt(checked, 500000u);
	zs_surface_free(s16);
	zs_surface_free(s24);
}

Test(zs, pixel_stencil_front_back)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	zs_surface *s = zs_surface_create(2, 2, ZS_D24S8, &d);
	cr_assert(s);
	zs_surface_clear(s, true, 1.0, true, 5);
	cr_expect_eq(s->depth[0], 0xFFFFFFu);
	zs_state st = depth_less();
	st.s_enable = true;
	/* front: pass when ref 5 == stencil, zpass incr, zfail replace with 9,
	 * fail zero; back: never, fail invert, write mask 0x0F */
	st.face[0] = (zs_face){ .func = ZS_EQUAL, .ref = 5, .valuemask = 0xFF, .writemask = 0xFF,
	                        .fail_op = ZS_ZERO, .zfail_op = ZS_REPLACE, .zpass_op = ZS_INCR };
	st.face[1] = (zs_face){ .func = ZS_NEVER, .ref = 0, .valuemask = 0xFF, .writemask = 0x0F,
	                        .fail_op = ZS_INVERT };
	uint32_t z = zs_pixel_z(&st, s, 0.5);
	cr_expect(zs_pixel(&st, s, 0, 0, z, true, true));
	cr_expect_eq(s->stencil[0], 6, "zpass: incr");
	cr_expect_not(zs_pixel(&st, s, 0, 0, z, true, true), "stencil 6 != 5");
	cr_expect_eq(s->stencil[0], 0, "fail: zero");
	s->stencil[1] = 5;
	s->depth[1] = 0;
	cr_expect_not(zs_pixel(&st, s, 1, 0, z, true, true), "depth fails");
	cr_expect_eq(s->stencil[1], 5, "zfail: replace with the ref (5)");
	st.face[0].ref = 9;
	st.face[0].valuemask = 0x0;               /* (9 & 0) == (x & 0): always equal */
	cr_expect_not(zs_pixel(&st, s, 1, 0, z, true, true));
	cr_expect_eq(s->stencil[1], 9, "zfail: replace");
	s->stencil[2] = 0x33;
	cr_expect_not(zs_pixel(&st, s, 0, 1, z, false, true), "back face: never");
	cr_expect_eq(s->stencil[2], 0x3C, "invert under write mask 0x0F");
	zs_surface_free(s);
}

/* ---- the unit in the fragment pipeline ---- */

typedef struct zs_rig {
	tegra_fp_program fp;
	tegra_fp_decoded dec;
	ulp_config cfg;
	ulp_image *rt;
	zs_surface *zs;
	gr3d_stats st;
} zs_rig;

/* One EXEC writing u0 (an FX10 pair) as bytes 0..1; kill: the ALU kills
 * every pixel first. */
static zs_rig *rig_new(bool kill)
{
	zs_rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	ulp_config_defaults(&r->cfg);
	const char *text = kill
		? "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD kill, #1, #1, #0\n ALU1: MAD r0.l, u0.l, #1, #0\n"
		  " ALU2: MAD r0.h, u0.h, #1, #0\n DW: store rt1, r0, r1\n;\n"
		: "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU1: MAD r0.l, u0.l, #1, #0\n"
		  " ALU2: MAD r0.h, u0.h, #1, #0\n DW: store rt1, r0, r1\n;\n";
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(text, strlen(text), "t.asm", &r->fp, &d), "%s", d.msg);
	cr_assert(tegra_fp_decode(&r->fp, &r->dec, "t.asm", &d), "%s", d.msg);
	cr_expect_eq(r->fp.discards_fragment, kill, "the assembler marks a program that kills");
	r->rt = ulp_image_create(16, 16, &d);
	r->zs = zs_surface_create(16, 16, ZS_D24S8, &d);
	cr_assert(r->rt && r->zs);
	zs_surface_clear(r->zs, true, 1.0, true, 0);
	return r;
}

static void rig_free(zs_rig *r)
{
	ulp_image_free(r->rt);
	zs_surface_free(r->zs);
	free(r);
}

/* A triangle covering the lower-left half of the 16x16 target (and one
 * covering the whole target when full) at depth z, colour u0 = (a, b). */
static void rig_draw(zs_rig *r, const zs_state *st, bool full, double z, double a, double b)
{
	static const double big[3][2] = { { -8, -8 }, { 40, -8 }, { -8, 40 } };
	static const double half[3][2] = { { 0, 0 }, { 16, 0 }, { 0, 16 } };
	gr3d_vertex v[3];
	memset(v, 0, sizeof v);
	for (int k = 0; k < 3; k++) {
		v[k].x = full ? big[k][0] : half[k][0];
		v[k].y = full ? big[k][1] : half[k][1];
		v[k].w = 1;
		v[k].z = z;
	}
	static const uint16_t idx[3] = { 0, 1, 2 };
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = &r->dec;
	dr.cfg = &r->cfg;
	dr.uniforms[0] = FX(a) | FX(b) << 10;
	dr.vtx = v;
	dr.nvtx = 3;
	dr.idx = idx;
	dr.ntris = 1;
	dr.rt[1] = r->rt;
	dr.zs_state = *st;
	dr.zs = r->zs;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(gr3d_fp_draw(&dr, &r->st, &d), "%s", d.msg);
}

static unsigned byte0(const zs_rig *r, uint32_t x, uint32_t y) { return ulp_image_cpx(r->rt, x, y)[0]; }

Test(zs, overlapping_triangles_resolved_by_depth_in_either_order)
{
	zs_state st = depth_less();
	zs_rig *a = rig_new(false), *b = rig_new(false);
	/* a: far (0.7, byte 0x40) then near (0.3, byte 0xC0); b: the other order */
	rig_draw(a, &st, true, 0.7, 0.25, 0);
	rig_draw(a, &st, false, 0.3, 0.75, 0);
	rig_draw(b, &st, false, 0.3, 0.75, 0);
	cr_expect(b->st.zs_used);
	rig_draw(b, &st, true, 0.7, 0.25, 0);
	cr_expect_gt(b->st.zs.counter[ZS_CTR_REJECTED], 100u, "the far triangle is rejected early");
	cr_expect_eq(b->st.zs.counter[ZS_CTR_QUADS], b->st.quads);
	cr_expect_eq(b->st.zs.counter[ZS_CTR_PIXELS], 256u, "the full-screen triangle: 256 pixels tested");
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 16; x++) {
			cr_expect_eq(byte0(a, x, y), byte0(b, x, y), "(%u, %u)", x, y);
			cr_expect_eq(a->zs->depth[y * 16 + x], b->zs->depth[y * 16 + x], "(%u, %u)", x, y);
		}
	cr_expect_eq(byte0(a, 2, 2), 191u, "near colour inside the small triangle");
	cr_expect_eq(byte0(a, 14, 14), 64u, "far colour outside it");
	cr_expect_eq(a->zs->depth[2 * 16 + 2], zs_quantize(a->zs, 0.3));
	rig_free(a);
	rig_free(b);
}

/* The unit clamps each pixel's z to QR_Z_MIN/MAX as zs_pixel_z does (the
 * range it works out once, zs.c): a triangle below the range and one above
 * it store the range's ends, draw after draw with other ranges. */
Test(zs, unit_clamps_to_the_depth_range)
{
	zs_rig *r = rig_new(false);
	static const uint32_t range[3][2] = { { 0x80000, 0xC0000 }, { 0x40000, 0x60000 }, { 0, 0xFFFFF } };
	for (unsigned k = 0; k < 3; k++) {
		zs_state st = depth_less();
		st.z_func = ZS_ALWAYS;
		st.z_min = range[k][0];
		st.z_max = range[k][1];
		rig_draw(r, &st, true, 0.05, 0.25, 0);           /* below the range (or in it) */
		cr_expect_eq(r->zs->depth[0], zs_pixel_z(&st, r->zs, 0.05), "range %u: z_min", k);
		cr_expect_eq(r->zs->depth[15 * 16 + 15], zs_pixel_z(&st, r->zs, 0.05), "range %u: z_min", k);
		rig_draw(r, &st, true, 0.95, 0.25, 0);           /* above it */
		cr_expect_eq(r->zs->depth[0], zs_pixel_z(&st, r->zs, 0.95), "range %u: z_max", k);
		cr_expect_eq(r->zs->depth[7 * 16 + 3], zs_pixel_z(&st, r->zs, 0.95), "range %u: z_max", k);
	}
	rig_free(r);
}

Test(zs, write_mask_and_equal)
{
	zs_state st = depth_less();
	zs_rig *r = rig_new(false);
	st.z_write = false;
	rig_draw(r, &st, true, 0.5, 0.25, 0);
	cr_expect_eq(r->zs->depth[0], 0xFFFFFFu, "writemask off keeps the cleared depth");
	cr_expect_eq(byte0(r, 0, 0), 64u, "but the colour is written");
	st.z_write = true;
	st.z_func = ZS_EQUAL;
	rig_draw(r, &st, true, 0.5, 0.75, 0);
	cr_expect_eq(byte0(r, 0, 0), 64u, "0.5 != 1.0: nothing passes EQUAL");
	st.z_func = ZS_GEQUAL;
	rig_draw(r, &st, true, 1.0, 0.5, 0);
	cr_expect_eq(byte0(r, 5, 5), 127u, "1.0 >= 1.0 passes (0.5 stores as 0x7F)");
	rig_free(r);
}

Test(zs, killed_pixels_keep_the_old_depth)
{
	zs_state st = depth_less();
	zs_rig *r = rig_new(true);
	st.late = true;                           /* 0x40f = 0x60: writes after the shader */
	rig_draw(r, &st, true, 0.25, 0.75, 0);
	cr_expect_eq(r->zs->depth[3 * 16 + 3], 0xFFFFFFu, "killed: the depth stays 1.0");
	cr_expect_eq(byte0(r, 3, 3), 0u, "and no colour");
	cr_expect_eq(r->st.zs.counter[ZS_CTR_REJECTED], 0u);
	/* the same program tested early (as if the kill were unknown) writes the depth */
	zs_rig *e = rig_new(true);
	st.late = false;
	rig_draw(e, &st, true, 0.25, 0.75, 0);
	cr_expect_eq(e->zs->depth[3 * 16 + 3], zs_quantize(e->zs, 0.25));
	rig_free(e);
	/* a program that does not kill, late: DW tests and writes */
	zs_rig *k = rig_new(false);
	st.late = true;
	rig_draw(k, &st, true, 0.25, 0.75, 0);
	cr_expect_eq(k->zs->depth[3 * 16 + 3], zs_quantize(k->zs, 0.25));
	cr_expect_eq(byte0(k, 3, 3), 191u);
	rig_draw(k, &st, true, 0.5, 0.25, 0);     /* farther: fails early (LESS is safe) */
	cr_expect_eq(byte0(k, 3, 3), 191u);
	cr_expect_gt(k->st.zs.counter[ZS_CTR_REJECTED], 0u);
	st.z_func = ZS_NOTEQUAL;                  /* not safe early: deferred to DW */
	rig_draw(k, &st, true, 0.25, 0.25, 0);
	cr_expect_gt(k->st.zs.counter[ZS_CTR_DEFERRED], 0u);
	cr_expect_eq(byte0(k, 3, 3), 191u, "equal depth fails NOTEQUAL in DW");
	rig_free(k);
	rig_free(r);
}

Test(zs, pixels_per_clock_sets_the_rate)
{
	zs_state st = depth_less();
	zs_rig *r = rig_new(false);
	r->cfg.zs_pixels_per_clock = 1;
	rig_draw(r, &st, true, 0.5, 0.25, 0);
	cr_expect_eq(r->st.zs.busy, 256u, "1 px/clk: one cycle per pixel");
	zs_rig *f = rig_new(false);
	rig_draw(f, &st, true, 0.5, 0.25, 0);
	cr_expect_eq(f->st.zs.busy, 64u, "4 px/clk: one cycle per quad");
	rig_free(r);
	rig_free(f);
}

/* ---- registers ---- */

Test(zs, registers_round_trip)
{
	zs_state st = depth_less();
	st.s_enable = true;
	st.z_func = ZS_GEQUAL;
	st.z_min = 0x1234;
	st.face[0] = (zs_face){ ZS_NOTEQUAL, 0x21, 0xF0, 0x3C, ZS_INVERT, ZS_DECR, ZS_REPLACE };
	st.face[1] = (zs_face){ ZS_LEQUAL, 0x02, 0x0F, 0xC3, ZS_ZERO, ZS_INCR, ZS_KEEP };
	reg_stream s;
	reg_stream_init(&s);
	drv_gr3d_zs(&s, &st);
	drv_gr3d_rt_enable(&s, 1, true);
	reg_stream_gr3d(&s, 0x40f, 0x60);
	gr3d_regs *g = calloc(1, sizeof *g);
	cr_assert(g);
	gr3d_regs_init(g);
	ulp_diag d;
	ulp_diag_clear(&d);
	for (size_t k = 0; k < s.n; k++)
		cr_assert(gr3d_regs_write(g, s.w[k].reg, s.w[k].value, &d));
	zs_state back;
	gr3d_regs_zs(g, true, &back);
	st.late = true;
	cr_expect_eq(memcmp(&st, &back, sizeof st), 0, "the state survives the registers");
	cr_expect_eq(g->raw[0x903], 0x10002u, "RT_ENABLE: RT1 and the depth bit 16");
	gr3d_regs_zs(g, false, &back);
	cr_expect_not(back.late, "zs.late_when_kill off");
	free(g);
	reg_stream_free(&s);
}

/* ---- replay ---- */

static bool replay_text(const char *json, replay_result *res, bool keep, ulp_diag *d)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = keep, .keep_depth = keep };
	return test_replay_json(json, "zs.json", ".", &o, res, d);
}

/* Two full-screen triangles at z = zfar (red) and znear (green), in the order given. */
static char *two_quads(const char *order, const char *fmt, const char *func)
{
	char *json = malloc(8192);
	cr_assert(json);
	const char *far = "-1,-1,0.6,1, 1,0,0,1,  3,-1,0.6,1, 1,0,0,1,  -1,3,0.6,1, 1,0,0,1";
	const char *near = "-1,-1,-0.2,1, 0,1,0,1,  3,-1,-0.2,1, 0,1,0,1,  -1,3,-0.2,1, 0,1,0,1";
	int first_far = !strcmp(order, "far_first");
	snprintf(json, 8192,
	         "{\"format\":\"ulpsim-trace\",\"version\":1,"
	         "\"resources\":{\"vb\":{\"type\":\"buffer\",\"f32\":[%s, %s]}},"
	         ZS_SHADERS
	         "\"commands\":["
	         "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
	         "\"zsbuf\":{\"format\":\"%s\"}},"
	         "{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":true,\"writemask\":true,\"func\":\"%s\"}},"
	         "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"},"
	         ZS_VERTEX_ELEMENTS
	         "{\"cmd\":\"clear\",\"color\":[0,0,0,1],\"depth\":1.0,\"stencil\":0},"
	         "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"count\":6},"
	         "{\"cmd\":\"checkpoint\",\"name\":\"f\"}]}",
	         first_far ? far : near, first_far ? near : far, fmt, func);
	return json;
}

Test(zs, replay_depth_in_either_order)
{
	const char *fmts[] = { "D16", "D24S8" };
	for (int f = 0; f < 2; f++) {
		replay_result a, b;
		ulp_diag d;
		ulp_diag_clear(&d);
		char *ja = two_quads("far_first", fmts[f], "less"), *jb = two_quads("near_first", fmts[f], "less");
		cr_assert(replay_text(ja, &a, true, &d), "%s", d.msg);
		cr_assert(replay_text(jb, &b, true, &d), "%s", d.msg);
		cr_assert(a.image && b.image && a.depth && b.depth);
		const uint8_t *pa = ulp_image_cpx(a.image, 3, 3);
		cr_expect(pa[0] == 0 && pa[1] == 255, "%s: green (near) wins: %d %d", fmts[f], pa[0], pa[1]);
		cr_expect_eq(memcmp(a.image->rgba, b.image->rgba, ulp_image_bytes(a.image)), 0);
		/* window z = ndc z * 0.5 + 0.5: -0.2 -> 0.4 */
		cr_expect_float_eq(a.depth[3 * 8 + 3], 0.4f, 1e-4f, "depth %f", (double)a.depth[27]);
		cr_expect_float_eq(b.depth[3 * 8 + 3], 0.4f, 1e-4f);
		cr_expect_lt(b.fragments, a.fragments, "near first: the far triangle is rejected early");
		ulp_image_free(a.image);
		ulp_image_free(b.image);
		free(a.depth);
		free(b.depth);
		free(ja);
		free(jb);
	}
	/* greater: the far one wins */
	replay_result g;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *jg = two_quads("near_first", "D24S8", "always");
	cr_assert(replay_text(jg, &g, true, &d), "%s", d.msg);
	const uint8_t *p = ulp_image_cpx(g.image, 3, 3);
	cr_expect(p[0] == 255 && p[1] == 0, "always: the last one drawn (far, red) wins");
	cr_expect_float_eq(g.depth[27], 0.8f, 1e-4f);
	ulp_image_free(g.image);
	free(g.depth);
	free(jg);
}

Test(zs, sample_cube_replays_and_needs_the_depth_test)
{
	replay_result res;
	ulp_diag d;
	ulp_diag_clear(&d);
	trace t;
	cr_assert(trace_load(&t, "traces/samples/textured_cube.json", &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	char *dir = test_tmpdir();
	replay_opts o = { .cfg = &cfg, .keep_image = true, .keep_depth = true, .out_dir = dir };
	cr_assert(replay_run(&t, &o, &res, &d), "%s", d.msg);
	trace_free(&t);
	char path[600];
	snprintf(path, sizeof path, "%s/frame0.depth.png", dir);
	ulp_image *dimg = ulp_image_load_png(path, &d);
	cr_assert(dimg, "the checkpoint writes the depth surface: %s", d.msg);
	cr_expect_eq(ulp_image_cpx(dimg, 0, 0)[0], 255, "background: depth 1.0");
	cr_expect_lt(ulp_image_cpx(dimg, 64, 64)[0], 250, "the cube is nearer");
	ulp_image_free(dimg);
	free(dir);
	cr_expect_eq(res.triangles, 12u);
	cr_expect_lt(res.fragments, 128u * 128u / 2, "hidden faces rejected");
	bool zs_seen = false;
	for (unsigned k = 0; k < res.nunits; k++)
		if (!strcmp(res.unit[k].name, "zs")) {
			zs_seen = true;
			cr_expect_gt(res.unit[k].stats.counter[ZS_CTR_REJECTED], 1000u);
		}
	cr_expect(zs_seen, "the stats have a zs unit");
	/* the centre is on the cube: depth < 1; a corner is background: 1 */
	cr_expect_lt(res.depth[64 * 128 + 64], 0.99f);
	cr_expect_float_eq(res.depth[0], 1.0f, 1e-6f);
	ulp_image_free(res.image);
	free(res.depth);
}

Test(zs, refusals_name_the_json_path)
{
	replay_result res;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *j = two_quads("far_first", "D32", "less");
	cr_expect_not(replay_text(j, &res, false, &d));
	cr_expect(strstr(d.msg, "$.commands[0].zsbuf.format"), "%s", d.msg);
	free(j);
	ulp_diag_clear(&d);
	j = two_quads("far_first", "D16", "lesser");
	cr_expect_not(replay_text(j, &res, false, &d));
	cr_expect(strstr(d.msg, "$.commands[1].depth.func"), "%s", d.msg);
	free(j);
}

/* Stencil through the whole replay: a small triangle marks the stencil
 * (always, replace with 1), then a full-screen one draws only where it is 1. */
Test(zs, replay_stencil_marks_then_masks)
{
	const char *json =
	    "{\"format\":\"ulpsim-trace\",\"version\":1,"
	    "\"resources\":{\"vb\":{\"type\":\"buffer\",\"f32\":["
	    "-1,-1,0,1, 1,0,0,1,  0,-1,0,1, 1,0,0,1,  -1,0,0,1, 1,0,0,1,"
	    "-1,-1,0,1, 0,1,0,1,  3,-1,0,1, 0,1,0,1,  -1,3,0,1, 0,1,0,1]}},"
	    ZS_SHADERS
	    "\"commands\":["
	    "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
	    "\"zsbuf\":{\"format\":\"D24S8\"}},"
	    "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"},"
	    ZS_VERTEX_ELEMENTS
	    "{\"cmd\":\"clear\",\"color\":[0,0,0,1],\"depth\":1.0,\"stencil\":0},"
	    "{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":false},\"stencil\":{\"enabled\":true,"
	    "\"func\":\"always\",\"ref\":1,\"zpass_op\":\"replace\"}},"
	    "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":0,\"count\":3},"
	    "{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":false},\"stencil\":{\"enabled\":true,"
	    "\"func\":\"equal\",\"ref\":1}},"
	    "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":3,\"count\":3},"
	    "{\"cmd\":\"checkpoint\",\"name\":\"f\"}]}";
	replay_result res;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(replay_text(json, &res, true, &d), "%s", d.msg);
	/* image top row first: window (0, 0) is image row 7 */
	const uint8_t *in = ulp_image_cpx(res.image, 0, 7), *out = ulp_image_cpx(res.image, 7, 0);
	cr_expect(in[1] == 255 && in[0] == 0, "inside the marked triangle: green (%d %d)", in[0], in[1]);
	cr_expect(out[0] == 0 && out[1] == 0, "outside: the clear colour (%d %d)", out[0], out[1]);
	cr_expect_float_eq(res.depth[0], 1.0f, 1e-6f, "depth test off: no depth writes");
	ulp_image_free(res.image);
	free(res.depth);
}

/* Two-sided stencil: stencil_back (never) stops the clockwise triangle,
 * stencil (always) lets the counter-clockwise one through. */
Test(zs, replay_two_sided_stencil)
{
	static const char *const order[2] = { "-1,3,0,1, 0,1,0,1,  3,-1,0,1, 0,1,0,1",
	                                      "3,-1,0,1, 0,1,0,1,  -1,3,0,1, 0,1,0,1" };
	for (int ccw = 0; ccw < 2; ccw++) {
		char json[4096];
		snprintf(json, sizeof json,
		         "{\"format\":\"ulpsim-trace\",\"version\":1,"
		         "\"resources\":{\"vb\":{\"type\":\"buffer\",\"f32\":[-1,-1,0,1, 0,1,0,1, %s]}},"
		         ZS_SHADERS
		         "\"commands\":["
		         "{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
		         "\"zsbuf\":{\"format\":\"D24S8\"}},"
		         "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"},"
		         ZS_VERTEX_ELEMENTS
		         "{\"cmd\":\"clear\",\"color\":[0,0,0,1],\"stencil\":0},"
		         "{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":false},"
		         "\"stencil\":{\"enabled\":true,\"func\":\"always\"},"
		         "\"stencil_back\":{\"enabled\":true,\"func\":\"never\"}},"
		         "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"count\":3},"
		         "{\"cmd\":\"checkpoint\",\"name\":\"f\"}]}", order[ccw]);
		replay_result res;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(replay_text(json, &res, true, &d), "%s", d.msg);
		const uint8_t *p = ulp_image_cpx(res.image, 2, 5);
		cr_expect_eq(p[1], ccw ? 255 : 0, "%s face: green %d", ccw ? "front" : "back", p[1]);
		ulp_image_free(res.image);
		free(res.depth);
	}
}

/* The late-write state ZS and DW share (zs_late): an entry ZS made is
 * found by its quad id; one overwritten by a quad ZS_LATE_ENTRIES later
 * is not, and the state says it was lost. */
Test(zs, late_entries_and_the_lost_flag)
{
	zs_state st = { .z_enable = true, .z_write = true, .z_func = ZS_LESS, .z_max = 0xFFFFF,
	                .late = true, .depth_surface = true };
	zs_late l;
	cr_assert(zs_late_init(&l, &st, NULL));
	const uint32_t z[GR3D_PIXELS] = { 1, 2, 3, 4 };
	zs_late_enter(&l, 5, z);
	gr3d_quad q;
	memset(&q, 0, sizeof q);
	q.id = 5;
	zs_late_entry *e = zs_late_entry_of(&l, &q);
	cr_assert_not_null(e);
	cr_assert_eq(e->z[2], 3);
	cr_assert_not(l.lost);
	zs_late_enter(&l, 5 + ZS_LATE_ENTRIES, z);   /* the same ring entry */
	cr_assert_null(zs_late_entry_of(&l, &q));
	cr_assert(l.lost, "DW found quad 5's entry overwritten");
	zs_late_fini(&l);
}
