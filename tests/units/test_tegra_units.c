/* The Tegra GR3D fragment units feature by feature, with hand-worked
 * expected values (docs/tegra-units.md), and `ulpsim tegra run` on bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tegra/tegra_asm.h"
#include "tests/test_util.h"
#include "tests/units/gr3d_rig.h"
#include "units/gpu.h"
#include "units/gr3d/mfu.h"
#include "units/gr3d/pseq.h"
#include "units/gr3d/dw.h"
#include "units/gr3d/tex.h"

/* Assemble text, draw a full-screen quad over a WxH target initialised to
 * init (bytes), return the target (caller frees). */
typedef struct prog_run {
	uint32_t uniforms[32];
	const ulp_image *tex0;
	bool bilinear;
	uint8_t wrap;
	bool mipmap;
	gr3d_stats st;
	uint32_t tram0[4][4];   /* per vertex */
	ulp_config cfg;
} prog_run;

static ulp_image *run_text(const char *text, uint32_t w, uint32_t h, uint32_t init, prog_run *pr)
{
	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(fp && dec);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(text, strlen(text), "t.asm", fp, &d), "%s", d.msg);
	cr_assert(tegra_fp_decode(fp, dec, "t.asm", &d), "%s", d.msg);
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &pr->cfg;
	for (int k = 0; k < 32; k++)
		dr.uniforms[k] = pr->uniforms[k] ? pr->uniforms[k] : fp->constants[k] & FP20_MASK;
	static const double ndc[4][2] = { { -1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	for (int k = 0; k < 4; k++) {
		v[k].x = (ndc[k][0] + 1) * w / 2;
		v[k].y = (ndc[k][1] + 1) * h / 2;
		v[k].w = 1;
		memcpy(v[k].tram[0], pr->tram0[k], sizeof pr->tram0[k]);
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 2, 3 };
	dr.vtx = v;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	dr.sampler[0] = (gr3d_sampler){ .img = pr->tex0, .bilinear = pr->bilinear, .wrap = pr->wrap,
	                                .mipmap = pr->mipmap };
	ulp_image *rt = ulp_image_create(w, h, &d);
	cr_assert(rt);
	ulp_image_fill(rt, (uint8_t)init, (uint8_t)(init >> 8), (uint8_t)(init >> 16), (uint8_t)(init >> 24));
	dr.rt[1] = rt;
	cr_assert(gr3d_fp_draw(&dr, &pr->st, &d), "%s", d.msg);
	free(fp);
	free(dec);
	return rt;
}

static uint32_t px(const ulp_image *img, uint32_t x, uint32_t y)
{
	const uint8_t *p = ulp_image_cpx(img, x, y);
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static prog_run *new_run(void)
{
	prog_run *pr = calloc(1, sizeof *pr);
	cr_assert(pr);
	ulp_config_defaults(&pr->cfg);
	return pr;
}

/* ---- MFU ---- */

Test(tegra_units, sfu_ops)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_ctx c = { .cfg = &cfg };
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_RCP, 4.0), 0.25, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_RSQ, 4.0), 0.5, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_LG2, 8.0), 3.0, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_EX2, 3.0), 8.0, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_SQRT, 9.0), 3.0, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_FRC, 2.75), 0.75, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_FRC, -0.25), 0.75, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_COS, 0.0), 1.0, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_PRECOS, 0.5), 0.5, 1e-12);
	cfg.tegra_sfu_pre_reduce = true;
	double t = mfu_sfu(&c, TEGRA_SFU_PRESIN, M_PI / 2);
	cr_expect_float_eq(t, 0.25, 1e-12);
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_SIN, t), 1.0, 1e-12);
	cfg.tegra_sfu_bits = 4;     /* 1/3 = 1.010101..b x 2^-2 -> 1.0101b x 2^-2 = 0.328125 */
	cr_expect_float_eq(mfu_sfu(&c, TEGRA_SFU_RCP, 3.0), 0.328125, 1e-12);
}

/* ipl FP20 + the perspective set-up: r0 = interpolated s, written as FX10. */
Test(tegra_units, mfu_interpolation)
{
	prog_run *pr = new_run();
	for (int k = 0; k < 4; k++)
		pr->tram0[k][0] = fp20_encode(k == 2 || k == 3 ? 1.0f : 0.0f, ULP_ROUND_NEAREST_EVEN);
	ulp_image *rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n"
	                         " MFU: sfu: rcp r4\n mul0: bar, sfu, bar0\n mul1: bar, sfu, bar1\n"
	                         " ipl: t0.fp20, NOP, NOP, NOP\n"
	                         " ALU:\n ALU0: MAD r2.l, r0, #1, #0\n ALU1: MAD r2.h, r0, #1, #0\n"
	                         " ALU2: MAD r3.l, #0, #0, #0\n ALU3: MAD r3.h, #1, #1, #0\n"
	                         " DW: store rt1, r2, r3\n;\n", 4, 2, 0, pr);
	/* x = 0..3 at 4 px wide: s = (x + 0.5) / 4 = 0.125, 0.375, 0.625, 0.875 */
	static const uint8_t want[4] = { 32, 96, 159, 223 };   /* fx10 32,96,160,224 -> DW rule */
	for (uint32_t x = 0; x < 4; x++)
		for (uint32_t y = 0; y < 2; y++)
			cr_expect_eq(px(rt, x, y), want[x] | (uint32_t)want[x] << 8 | 0xFF000000u,
			             "(%u,%u) = %08x", x, y, px(rt, x, y));
	cr_expect_geq(pr->st.quads, 2);   /* quads on the diagonal come once per triangle */
	ulp_image_free(rt);
	free(pr);
}

/* ---- TEX ---- */

Test(tegra_units, tex_sampling)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(2, 2, &d);
	cr_assert(img);
	static const uint8_t texels[4][4] = { { 10, 20, 30, 40 }, { 50, 60, 70, 80 },
	                                      { 90, 100, 110, 120 }, { 130, 140, 150, 160 } };
	for (int k = 0; k < 4; k++)
		memcpy(ulp_image_px(img, (uint32_t)(k & 1), (uint32_t)(k >> 1)), texels[k], 4);
	gr3d_sampler s = { .img = img, .wrap = GR3D_WRAP_REPEAT };
	uint32_t o[4];
	cr_expect_eq(tex_sample(&s, 0, 0.25, 0.75, o), 1u);
	cr_expect(o[0] == 90 && o[3] == 120, "nearest %u %u", o[0], o[3]);
	tex_sample(&s, 0, 1.25, 0.25, o);                   /* repeat */
	cr_expect_eq(o[0], 10u);
	s.wrap = GR3D_WRAP_CLAMP;
	tex_sample(&s, 0, -3.0, 7.0, o);                    /* clamp: texel (0, 1) */
	cr_expect_eq(o[0], 90u);
	s.wrap = GR3D_WRAP_MIRROR;
	tex_sample(&s, 0, 1.25, 0.25, o);                   /* u = 2.5 -> mirrored texel 1 */
	cr_expect_eq(o[0], 50u);
	s.wrap = GR3D_WRAP_CLAMP;
	s.bilinear = true;
	cr_expect_eq(tex_sample(&s, 0, 0.5, 0.5, o), 4u);   /* centre: the average */
	cr_expect_eq(o[0], 70u);
	cr_expect_eq(o[3], 100u);
	s.bilinear = false;
	s.format = GR3D_TEX_BGRA8888;
	tex_sample(&s, 0, 0.25, 0.25, o);
	cr_expect(o[0] == 30 && o[2] == 10, "bgra %u %u", o[0], o[2]);
	s.format = GR3D_TEX_A8;
	tex_sample(&s, 0, 0.25, 0.25, o);
	cr_expect(o[0] == 0 && o[1] == 0 && o[2] == 0 && o[3] == 40);
	s.format = GR3D_TEX_L8;
	tex_sample(&s, 0, 0.25, 0.25, o);
	cr_expect(o[0] == 10 && o[1] == 10 && o[2] == 10 && o[3] == 256);
	s.format = GR3D_TEX_RGB565;
	tex_sample(&s, 0, 0.75, 0.75, o);                   /* 130 -> 16 -> 132; 140 -> 35 -> 142 */
	cr_expect(o[0] == 133 && o[1] == 143 && o[3] == 256, "565 %u %u %u", o[0], o[1], o[3]);
	gr3d_sampler none = { 0 };
	cr_expect_eq(tex_sample(&none, 0, 0.5, 0.5, o), 0u);
	cr_expect_eq(o[0], 0u);
	ulp_image_free(img);
}

/* TEX in a program: the texel comes back unchanged through FX10 and DW. */
Test(tegra_units, tex_in_pipeline)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(4, 4, &d);
	cr_assert(img);
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 4; x++) {
			uint8_t *p = ulp_image_px(img, x, y);
			p[0] = (uint8_t)(x * 60);
			p[1] = (uint8_t)(y * 60);
			p[2] = 7;
			p[3] = 255;
		}
	prog_run *pr = new_run();
	pr->tex0 = img;
	for (int k = 0; k < 4; k++) {
		static const float s[4] = { 0, 0, 1, 1 }, t[4] = { 1, 0, 1, 0 };
		pr->tram0[k][0] = fp20_encode(s[k], ULP_ROUND_NEAREST_EVEN);
		pr->tram0[k][1] = fp20_encode(t[k], ULP_ROUND_NEAREST_EVEN);
	}
	ulp_image *rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n"
	                         " MFU: sfu: rcp r4\n mul0: bar, sfu, bar0\n mul1: bar, sfu, bar1\n"
	                         " ipl: t0.fp20, t0.fp20, NOP, NOP\n"
	                         " TEX: tex r2, r3, tex0, r0, r1, r2\n DW: store rt1, r2, r3\n;\n",
	                         4, 4, 0, pr);
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 4; x++)
			cr_expect_eq(px(rt, x, y), px(img, x, y), "(%u,%u)", x, y);
	cr_expect_eq(pr->st.unit[2].counter[TEX_CTR_TEXELS], 16u);
	ulp_image_free(rt);
	ulp_image_free(img);
	free(pr);
}

/* TXB: the quad's footprint picks the mip level, the bias moves it. */
static uint8_t txb_pixel0(const ulp_image *img, bool mip, float bias)
{
	prog_run *pr = new_run();
	pr->tex0 = img;
	pr->uniforms[0] = fp20_encode(bias, ULP_ROUND_NEAREST_EVEN);
	for (int k = 0; k < 4; k++) {
		static const float s[4] = { 0, 0, 1, 1 }, t[4] = { 1, 0, 1, 0 };
		pr->tram0[k][0] = fp20_encode(s[k], ULP_ROUND_NEAREST_EVEN);
		pr->tram0[k][1] = fp20_encode(t[k], ULP_ROUND_NEAREST_EVEN);
	}
	pr->mipmap = mip;
	ulp_image *rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n"
	                         " MFU: sfu: rcp r4\n mul0: bar, sfu, bar0\n mul1: bar, sfu, bar1\n"
	                         " ipl: t0.fp20, t0.fp20, NOP, NOP\n"
	                         " ALU:\n ALU0: MAD r3.lh, u0, #1, #0\n;\n"
	                         "EXEC\n TEX: txb r2, r3, tex0, r0, r1, r2, r3\n DW: store rt1, r2, r3\n;\n",
	                         2, 2, 0, pr);
	uint8_t v = ulp_image_cpx(rt, 0, 0)[0];
	ulp_image_free(rt);
	free(pr);
	return v;
}

Test(tegra_units, tex_lod_bias)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(4, 4, &d);
	cr_assert(img);
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 4; x++) {
			uint8_t *p = ulp_image_px(img, x, y);
			p[0] = (uint8_t)(16 * (x + 4 * y));
			p[1] = p[2] = 0;
			p[3] = 255;
		}
	/* 2 pixels over 4 texels: LOD 1 = the 2x2 box level; texel values worked by hand */
	cr_expect_eq(txb_pixel0(img, false, 0.0f), 80u);       /* one level: texel (1,1) */
	cr_expect_eq(txb_pixel0(img, true, 0.0f), 40u);        /* level 1 */
	cr_expect_eq(txb_pixel0(img, true, 1.0f), 120u);       /* level 2: the 1x1 average */
	cr_expect_eq(txb_pixel0(img, true, -1.0f), 80u);       /* level 0 */
	cr_expect_eq(txb_pixel0(img, true, 5.0f), 120u);       /* clamped to the last level */
	ulp_image_free(img);
}

/* ---- ALU ---- */

static uint32_t alu_pixel(const char *alu_lines, uint32_t u0, uint32_t x, uint32_t y)
{
	char text[2048];
	snprintf(text, sizeof text,
	         "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD r2.lh, #0, #0, #0\n"
	         " ALU1: MAD r3.lh, #0, #0, #0\n ALU:\n%s\n DW: store rt1, r2, r3\n;\n", alu_lines);
	prog_run *pr = new_run();
	pr->uniforms[0] = u0;
	ulp_image *rt = run_text(text, 2, 2, 0x11223344u, pr);
	uint32_t v = px(rt, x, y);
	ulp_image_free(rt);
	free(pr);
	return v;
}

#define FX(v) ((uint32_t)((v) * 256) & 0x3FFu)

Test(tegra_units, alu_arithmetic)
{
	uint32_t u0 = FX(0.25) | FX(0.5) << 10;   /* u0.l = 0.25, u0.h = 0.5 */
	/* MAD 0.25*0.5 + 0.5 = 0.625 -> 160 -> 159; MUL ignores rC; x2 scale; -1 and negate */
	uint32_t v = alu_pixel(" ALU0: MAD r2.l, u0.l, u0.h, u0.h\n"
	                       " ALU1: MAD r2.h, u0.l, u0.h, u0.h (x2)\n"
	                       " ALU2: MAD r3.l, -u0.h-1, #1, #0\n"
	                       " ALU3: MAD r3.h, -abs(u0.l)*2-1, #1, #0 (sat)", u0, 0, 0);
	/* 0.625; 1.25 -> 320 -> 255 byte (clamped); -(0.5-1) = 0.5 -> 127; -(|0.25|*2-1) = 0.5 */
	cr_expect_eq(v, 159u | 255u << 8 | 127u << 16 | 127u << 24, "got %08x", v);
	v = alu_pixel(" ALU0: MIN r2.l, u0.l, #1, u0.h\n ALU1: MAX r2.h, u0.l, #1, u0.h\n"
	              " ALU2: CSEL r3.l, -u0.l, u0.h, #0\n ALU3: CSEL r3.h, u0.l, u0.h, #1", u0, 0, 0);
	cr_expect_eq(v, 64u | 127u << 8 | 127u << 16 | 255u << 24, "got %08x", v);
	/* condition codes (grate: 2 gt, 3 ge) and saturate of a negative */
	v = alu_pixel(" ALU0: MAD r2.l, u0.l, #1, -u0.l (ge)\n ALU1: MAD r2.h, u0.l, #1, -u0.l (gt)\n"
	              " ALU2: MAD r3.l, u0.l, #1, -u0.l (eq)\n ALU3: MAD r3.h, -u0.h, #1, #0 (sat)", u0, 0, 0);
	cr_expect_eq(v, 255u | 0u << 8 | 255u << 16 | 0u << 24, "got %08x", v);
}

Test(tegra_units, alu_constants_position_and_groups)
{
	/* imm0 in slot 3; posx/posy are pixel centres; FP20 uniform; (this)/(other) sum */
	uint32_t v = alu_pixel(" ALU0: MAD r2.l, posx, imm0, #0\n ALU1: MAD r2.h, posy, imm0, #0\n"
	                       " ALU2: MAD r3.l, imm0, #1, #0\n ALU3: imm0 = 0.25", 0, 1, 1);
	cr_expect_eq(v, 96u | 96u << 8 | 64u << 16, "got %08x", v);
	v = alu_pixel(" ALU0: MAD lp.lh, #1, #1, #0 (this)\n ALU1: MAD lp.lh, #1, #1, #0 (other)\n"
	              " ALU2: MAD lp.lh, #1, #1, #0 (other)\n ALU3: MAD lp.lh, #1, #0, #0\n"
	              " ALU:\n ALU0: MAD r2.l, alu0, imm0, #0\n ALU1: MAD r2.h, alu1, imm0, #0\n"
	              " ALU3: imm0 = 0.125", 0, 0, 0);
	/* alu0 = 1+1+1+0 = 3 -> 3/8; alu1 of the previous packet = 1 -> 1/8 */
	cr_expect_eq(v & 0xFFFFu, 96u | 32u << 8, "got %08x", v);
}

Test(tegra_units, alu_kill_and_condition_registers)
{
	uint32_t u0 = FX(0.25);
	/* cr1 = (u0.l > 0) = 1; kill = cr1 * 1: the pixel keeps its old value */
	uint32_t v = alu_pixel(" ALU0: MAD cr1, u0.l, #1, #0 (gt)\n"
	                       " ALU:\n ALU0: MAD kill, cr1, #1, #0", u0, 0, 0);
	cr_expect_eq(v, 0x11223344u, "got %08x", v);
	v = alu_pixel(" ALU0: MAD cr1, -u0.l, #1, #0 (gt)\n"
	              " ALU:\n ALU0: MAD kill, cr1, #1, #0", u0, 1, 0);
	cr_expect_eq(v, 0u, "got %08x", v);
}

/* ---- rows, PSEQ, DW ---- */

Test(tegra_units, row_relative_registers_and_dst_fetch)
{
	/* 2 rows: EXEC 1 (row 0) fetches the destination into r2,r3; its ALU copies
	 * it to r4,r5 (absolute); EXEC 2 (row 1) stores "r0, r1" = r4, r5. */
	prog_run *pr = new_run();
	ulp_image *rt = run_text("alu_buffer_size = 2\n.asm\nEXEC\n PSEQ: 0x0081000A\n ALU:\n"
	                         " ALU0: MAD r4.l, r2.h, #1, #0\n ALU1: MAD r4.h, r2.l, #1, #0\n"
	                         " ALU2: MAD r5.l, r3.h, #1, #0\n ALU3: MAD r5.h, r3.l, #1, #0\n;\n"
	                         "EXEC\n DW: store rt1, r0, r1\n;\n", 2, 2, 0x40302010u, pr);
	cr_expect_eq(px(rt, 1, 1), 0x30401020u, "got %08x", px(rt, 1, 1));
	cr_expect_eq(pr->st.unit[0].counter[PSEQ_CTR_FETCHES], 4u);
	cr_expect_eq(pr->st.unit[0].counter[PSEQ_CTR_ISSUES], 2u * pr->st.quads);
	ulp_image_free(rt);
	pr->cfg.tegra_row_relative = false;              /* now EXEC 2 stores r0,r1 = zero */
	rt = run_text("alu_buffer_size = 2\n.asm\nEXEC\n PSEQ: 0x0081000A\n ALU:\n"
	              " ALU0: MAD r4.l, r2.h, #1, #0\n;\nEXEC\n DW: store rt1, r0, r1\n;\n",
	              2, 2, 0x40302010u, pr);
	cr_expect_eq(px(rt, 0, 0), 0u);
	ulp_image_free(rt);
	free(pr);
}

/* tegra.alu.batch_view (docs/tegra-units.md "Batches"): with 2 rows, EXEC 0
 * and 1 form a batch.  EXEC 1's ALU sees row 0 as it was when the batch
 * began (the destination fetch, not EXEC 0's ALU write), its own row 1 as it
 * is (EXEC 0's write to r4.h), and EXEC 2 (the next batch) sees everything. */
Test(tegra_units, alu_batch_view)
{
	static const char prog[] =
		"alu_buffer_size = 2\n.asm\n"
		"EXEC\n PSEQ: 0x0081000A\n"
		" ALU:\n  ALU0: MAD r2.l, u0.l, #1, #0\n  ALU1: MAD r4.h, u0.l, #1, #0\n"
		" ALU:\n  ALU0: MAD r6.l, r2.l, #1, #0\n;\n"          /* a later packet: 0.25 */
		"EXEC\n ALU:\n  ALU0: MAD r4.l, r2.l, #1, #0\n  ALU1: MAD r5.h, r4.h, #1, #0\n;\n"
		"EXEC\n ALU:\n  ALU0: MAD r0.l, r4.l, #1, #0\n  ALU1: MAD r0.h, r2.l, #1, #0\n"
		"  ALU2: MAD r1.l, r6.l, #1, #0\n  ALU3: MAD r1.h, r5.h, #1, #0\n"
		" DW: store rt1, r0, r1\n;\n";
	prog_run *pr = new_run();
	pr->uniforms[0] = FX(0.25);                       /* 0.25 -> byte 0x40 */
	ulp_image *rt = run_text(prog, 2, 2, 0x40302010u, pr);
	cr_expect_eq(px(rt, 1, 0), 0x40404010u, "batch view: got %08x", px(rt, 1, 0));
	ulp_image_free(rt);
	pr->cfg.tegra_alu_batch_view = false;            /* one view: EXEC 1 reads 0.25 */
	rt = run_text(prog, 2, 2, 0x40302010u, pr);
	cr_expect_eq(px(rt, 1, 0), 0x40404040u, "one view: got %08x", px(rt, 1, 0));
	ulp_image_free(rt);
	free(pr);
}

Test(tegra_units, pseq_window_and_timing)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cr_expect_eq(pseq_max_qid(&cfg, 1), 74u);       /* tegra-fp.md §5 */
	cr_expect_eq(pseq_max_qid(&cfg, 2), 37u);
	cr_expect_eq(pseq_max_qid(&cfg, 3), 24u);
	cr_expect_eq(pseq_max_qid(&cfg, 4), 18u);
	/* a 1-EXEC program over 16x16 = 64 quads, 8 of them on the diagonal split
	 * between the two triangles: 72 quads, each unit busy 4 cycles per quad */
	prog_run *pr = new_run();
	ulp_image *rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD r0.lh, #1, #1, #0\n"
	                         " DW: store rt1, r0, r1\n;\n", 16, 16, 0, pr);
	cr_expect_eq(pr->st.quads, 72u);
	for (int k = 0; k < GR3D_UNITS; k++)
		cr_expect_eq(pr->st.unit[k].busy, 288u, "%s busy %llu", pr->st.name[k],
		             (unsigned long long)pr->st.unit[k].busy);
	cr_expect_lt(pr->st.cycles, 288u + 64u);
	cr_expect_eq(pr->st.pixels, 256u);
	ulp_image_free(rt);
	/* a tiny window forces window stalls, and a longer run */
	uint64_t fast = pr->st.cycles;
	pr->cfg.tegra_pseq_max_out = 5;                   /* MAX_QID 1 */
	pr->cfg.tegra_lat_dw = 20;
	rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n;\nEXEC\n DW: store rt1, r0, r1\n;\n", 16, 16, 0, pr);
	cr_expect_gt(pr->st.unit[0].stall[SIM_STALL_WINDOW], 0u);
	cr_expect_gt(pr->st.cycles, fast * 4);
	cr_expect_eq(pr->st.max_qid, 1u);
	ulp_image_free(rt);
	free(pr);
}

/* ---- the CLI on bad input: a clear message, exit 2, no crash ---- */

static void expect_bad(const char *args, const char *needle)
{
	char *out = NULL, *err = NULL;
	int rc = test_run_cli(args, &out, &err);
	cr_expect_eq(rc, 2, "%s: exit %d, stderr %s", args, rc, err);
	cr_expect(err && strstr(err, "ulpsim:"), "%s: stderr %s", args, err);
	if (needle)
		cr_expect(err && strstr(err, needle), "%s: stderr lacks '%s': %s", args, needle, err);
	free(out);
	free(err);
}

Test(tegra_units, cli_rejects_bad_input)
{
	char *fs = test_corpus_path("tegra/grate-tests/fs_vs_tests.txt");
	char a[1024];
	expect_bad("tegra run", "expected a program file");
	expect_bad("tegra run /nonexistent/prog.asm --size 4x4 -o /tmp/x.png", "nonexistent");
	snprintf(a, sizeof a, "tegra run %s --size 4x4", fs);
	expect_bad(a, "-o");
	snprintf(a, sizeof a, "tegra run %s --size 0x4 -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "--size");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --varying t0=1,2,3,4,5 -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "--varying");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --varying t16=1 -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "TRAM row");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --uniform nosuch=1 -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "nosuch");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --tex 3=/nonexistent.png -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, NULL);
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --tex 16=a.png -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "sampler");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --rt 1=0xZZ -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "colour");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --const 40=0x1 -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "--const");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --bogus -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "unknown option");
	snprintf(a, sizeof a, "tegra run %s --size 4x4 --set tegra.quad_clocks=0 -o /tmp/ulpsim-never.png", fs);
	expect_bad(a, "quad_clocks");
	expect_bad("tegra run /etc/hostname --size 4x4 -o /tmp/ulpsim-never.png", NULL);
	char *out = NULL, *err = NULL;
	cr_expect_eq(test_run_cli("tegra run --help", &out, &err), 0);
	cr_expect(out && strstr(out, "usage: ulpsim tegra run"));
	free(out);
	free(err);
	FILE *f = fopen("/tmp/ulpsim-never.png", "rb");
	cr_expect_null(f, "a failed run left an output file");
	if (f)
		fclose(f);
	free(fs);
}

/* ---- more knobs and paths ---- */

Test(tegra_units, sticky_kill_removes_quads)
{
	prog_run *pr = new_run();
	pr->cfg.tegra_kill_this_exec = false;
	const char *text = "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD kill, #1, #1, #0\n;\n"
	                   "EXEC\n ALU:\n ALU0: MAD r0.lh, #1, #1, #0\n DW: store rt1, r0, r1\n;\n";
	ulp_image *rt = run_text(text, 4, 4, 0x01020304u, pr);
	cr_expect_eq(px(rt, 3, 3), 0x01020304u);
	cr_expect_eq(pr->st.unit[0].counter[PSEQ_CTR_REMOVED], pr->st.quads);
	cr_expect_eq(pr->st.unit[0].counter[PSEQ_CTR_ISSUES], pr->st.quads);   /* EXEC 2 never issued */
	ulp_image_free(rt);
	pr->cfg.tegra_kill_this_exec = true;              /* the default: the kill ends with its EXEC */
	rt = run_text(text, 4, 4, 0x01020304u, pr);
	cr_expect_neq(px(rt, 3, 3), 0x01020304u);
	cr_expect_eq(pr->st.unit[0].counter[PSEQ_CTR_REMOVED], 0u);
	ulp_image_free(rt);
	free(pr);
}

Test(tegra_units, fx10_interpolation_and_condition_order)
{
	prog_run *pr = new_run();
	for (int k = 0; k < 4; k++)      /* FX10 pair (0.25, 0.75) at every vertex */
		pr->tram0[k][2] = FX(0.25) | FX(0.75) << 10;
	ulp_image *rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n"
	                         " MFU: sfu: rcp r4\n mul0: bar, sfu, bar0\n mul1: bar, sfu, bar1\n"
	                         " ipl: NOP, NOP, t0.fx10, NOP\n"
	                         " ALU:\n ALU0: MAD r0.l, r2.l, #1, #0\n ALU1: MAD r0.h, r2.h, #1, #0\n"
	                         " ALU2: MAD r1.l, #0, #0, #0 (gt)\n ALU3: MAD r1.h, #0, #0, #0 (ge)\n"
	                         " DW: store rt1, r0, r1\n;\n", 2, 2, 0, pr);
	cr_expect_eq(px(rt, 0, 0), 64u | 191u << 8 | 0u << 16 | 255u << 24, "got %08x", px(rt, 0, 0));
	ulp_image_free(rt);
	pr->cfg.tegra_cc_mesa = true;                     /* Mesa's order: 2 = ge, 3 = gt */
	rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD r1.l, #0, #0, #0 (gt)\n"
	              " ALU1: MAD r1.h, #0, #0, #0 (ge)\n DW: store rt1, r0, r1\n;\n", 2, 2, 0, pr);
	cr_expect_eq(px(rt, 0, 0) >> 16, 255u, "got %08x", px(rt, 0, 0));
	ulp_image_free(rt);
	free(pr);
}

Test(tegra_units, stencil_and_uniform_writes)
{
	prog_run *pr = new_run();
	ulp_image *rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n DW: store stencil\n;\n", 4, 2, 0x55u, pr);
	cr_expect_eq(pr->st.unit[4].counter[DW_CTR_STENCIL], 8u);
	cr_expect_eq(pr->st.unit[4].counter[DW_CTR_PIXELS], 0u);
	cr_expect_eq(px(rt, 0, 0), 0x55u);
	ulp_image_free(rt);
	/* u1 written by the first EXEC, read by the second (the shared file) */
	rt = run_text("alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD u1.l, #1, #1, #0\n;\n"
	              "EXEC\n ALU:\n ALU0: MAD r0.l, u1.l, #1, #0\n DW: store rt1, r0, r1\n;\n", 2, 2, 0, pr);
	cr_expect_eq(px(rt, 0, 0) & 0xFFu, 255u, "got %08x", px(rt, 0, 0));
	ulp_image_free(rt);
	free(pr);
}

typedef struct tl_capture {
	uint64_t n, last_cycle, begins[8], ends[8];
	bool ordered;
} tl_capture;

static bool capture_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	tl_capture *t = ctx;
	for (size_t i = 0; i < n; i++) {
		if (ev[i].cycle < t->last_cycle)
			t->ordered = false;
		t->last_cycle = ev[i].cycle;
		if (ev[i].lane < 8 && ev[i].kind == SIM_TL_BEGIN)
			t->begins[ev[i].lane]++;
		if (ev[i].lane < 8 && ev[i].kind == SIM_TL_END)
			t->ends[ev[i].lane]++;
		t->n++;
	}
	return true;
}

/* With a timeline, every unit reports each quad pass entering and leaving, in
 * cycle order, and the stats equal those of a run without one. */
Test(tegra_units, timeline_events)
{
	const char *text = "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD r0.lh, #1, #1, #0\n;\n"
	                   "EXEC\n DW: store rt1, r0, r1\n;\n";
	prog_run *pr = new_run();
	ulp_image *rt = run_text(text, 8, 8, 0, pr);
	gr3d_stats plain = pr->st;
	ulp_image_free(rt);
	free(pr);

	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(fp && dec);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(text, strlen(text), "t.asm", fp, &d), "%s", d.msg);
	cr_assert(tegra_fp_decode(fp, dec, "t.asm", &d));
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	tl_capture cap = { .ordered = true };
	sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = &cap, .write = capture_write });
	tl.enabled = true;
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	static const double ndc[4][2] = { { -1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	for (int k = 0; k < 4; k++) {
		v[k].x = (ndc[k][0] + 1) * 4;
		v[k].y = (ndc[k][1] + 1) * 4;
		v[k].w = 1;
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 2, 3 };
	gr3d_draw dr = { .prog = dec, .cfg = &cfg, .vtx = v, .nvtx = 4, .idx = idx, .ntris = 2, .tl = &tl };
	rt = ulp_image_create(8, 8, &d);
	cr_assert(rt);
	dr.rt[1] = rt;
	gr3d_stats st;
	cr_assert(gr3d_fp_draw(&dr, &st, &d), "%s", d.msg);
	sim_tl_fini(&tl);
	cr_expect(cap.ordered, "timeline events out of cycle order");
	uint64_t passes = st.unit[0].counter[PSEQ_CTR_ISSUES];
	cr_expect_eq(passes, 2 * st.quads);
	unsigned lanes = 0;
	for (int l = 0; l < 8; l++) {
		if (!cap.begins[l])
			continue;
		lanes++;
		cr_expect_eq(cap.begins[l], passes, "lane %d begins", l);
		cr_expect_eq(cap.ends[l], passes, "lane %d ends", l);
	}
	cr_expect_eq(lanes, 5u);
	cr_expect_eq(st.cycles, plain.cycles);
	for (int k = 0; k < GR3D_UNITS; k++)
		cr_expect_eq(st.unit[k].busy, plain.unit[k].busy, "%s busy", st.name[k]);
	ulp_image_free(rt);
	free(fp);
	free(dec);
}

/* The same program from .asm, .words and .fp gives the same image. */
Test(tegra_units, cli_program_formats)
{
	char *dir = test_tmpdir();
	char *words = test_corpus_path("tegra/grate-tests/fs_uniform.words");
	char *asmf = test_corpus_path("tegra/grate-tests/fs_uniform.txt");
	char cmd[2048], *out = NULL, *err = NULL;
	snprintf(cmd, sizeof cmd, "tegra asm %s -o %s/p.fp", asmf, dir);
	cr_assert_eq(test_run_cli(cmd, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	const char *srcs[3] = { asmf, words, NULL };
	char fp[600];
	snprintf(fp, sizeof fp, "%s/p.fp", dir);
	srcs[2] = fp;
	for (int k = 0; k < 3; k++) {
		snprintf(cmd, sizeof cmd,
		         "tegra run %s --size 2x2 --uniform uniform_0_low=0.1 --uniform u2=0.2 "
		         "--uniform u31.l=0.3 --uniform uniform_31_high=0.4 -o %s/o%d.png", srcs[k], dir, k);
		out = err = NULL;
		cr_expect_eq(test_run_cli(cmd, &out, &err), 0, "%s: %s", srcs[k], err);
		free(out);
		free(err);
		char png[700];
		snprintf(png, sizeof png, "%s/o%d.png", dir, k);
		ulp_diag d;
		ulp_diag_clear(&d);
		ulp_image *img = ulp_image_load_png(png, &d);
		cr_assert(img, "%s", d.msg);
		cr_expect_eq(px(img, 1, 1), 0x19334C66u, "%s: %08x", srcs[k], px(img, 1, 1));   /* hw case 11 */
		ulp_image_free(img);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	free(words);
	free(asmf);
	free(dir);
}

Test(tegra_units, globals_and_pface)
{
	/* g0 written in packet 1, read in packet 2; pface +1 on the counter-clockwise
	 * triangle {v0,v1,v2} (upper left of the diagonal), -1 on {v1,v2,v3} */
	const char *alu = " ALU0: MAD g0.lh, #1, #1, #0 (/2)\n"
	                  " ALU:\n ALU0: MAD r2.l, pface, #1, #0 (sat)\n ALU1: MAD r2.h, g0, #1, #0\n"
	                  " ALU2: MAD r3.l, -pface, #1, #0 (sat)";
	uint32_t front = alu_pixel(alu, 0, 0, 1), back = alu_pixel(alu, 0, 1, 0);
	cr_expect_eq(front & 0xFFFFFFu, 255u | 127u << 8 | 0u << 16, "front %08x", front);
	cr_expect_eq(back & 0xFFFFFFu, 0u | 127u << 8 | 255u << 16, "back %08x", back);
}

/* TRAM as a ring (units/gr3d/tram.h): setup fills the slots in order, each
 * with the walk's hold; a slot whose holds are not all released stops the
 * ring; the last release frees it and wakes the waiter. */
Test(tram, ring_holds_release_and_wake)
{
	gr3d_tram t;
	cr_assert(gr3d_tram_init(&t, 2));
	sim_unit waiter;
	sim_unit_init(&waiter, "setup", NULL, NULL, 0);
	t.waiter = &waiter;
	uint32_t rows[3][GR3D_TRAM_ROWS][4];
	memset(rows, 0, sizeof rows);
	rows[1][0][2] = 0x3E000u;                 /* FP20 1.0: exponent 31, mantissa 0 */
	const uint32_t (*v[3])[4] = { rows[0], rows[1], rows[2] };
	cr_assert(gr3d_tram_next_free(&t));
	cr_assert_eq(gr3d_tram_fill(&t, v), 0);
	cr_assert_eq(t.tri[0].v[0][2][1], 0x3E000u, "row 0, component z, vertex 1");
	cr_assert_float_eq(t.tri[0].f[0][2][1], 1.0f, 0.0f);
	gr3d_tram_hold(&t, 0);                    /* a quad of the triangle */
	cr_assert(gr3d_tram_next_free(&t));
	cr_assert_eq(gr3d_tram_fill(&t, v), 1);
	cr_assert_not(gr3d_tram_next_free(&t), "slot 0 is held: the ring waits");
	gr3d_tram_release(&t, 0);                 /* the walk ends */
	cr_assert_not(gr3d_tram_next_free(&t));
	cr_assert_eq(waiter.wake, UINT64_MAX, "not yet woken");
	gr3d_tram_release(&t, 0);                 /* the quad finishes */
	cr_assert(gr3d_tram_next_free(&t));
	cr_assert_eq(waiter.wake, 0, "the last release wakes the waiter");
	gr3d_tram_fini(&t);
}

/* gr3d_fp_reset: the fragment half run twice on new clocks, reset in
 * between, gives the first run's figures again (without the reset the
 * rasterizer's quad ids, PSEQ's window and every stat would carry on). */
Test(tegra_units, reset_runs_the_same_again)
{
	static const char text[] = "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD r0.lh, #1, #1, #0\n"
	                           " DW: store rt1, r0, r1\n;\n";
	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(fp && dec);
	gr3d_rig_assemble(text, fp, dec);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cfg.tegra_pseq_max_out = 9;              /* MAX_QID 2: window stalls too */
	gr3d_draw dr;
	gr3d_fp *f = gr3d_rig_fp_new(dec, &cfg, &dr);
	gr3d_stats a, b;
	gr3d_rig_fp_run(f, &a);
	cr_assert_eq(a.quads, 72u);
	cr_assert_gt(a.unit[0].stall[SIM_STALL_WINDOW], 0, "PSEQ's window filled");
	gr3d_fp_reset(f);
	cr_assert_eq(f->pseq.u.stats.busy, 0);
	cr_assert_eq(f->raster.next_id, 0);
	gr3d_rig_fp_run(f, &b);
	gr3d_rig_stats_same(&a, &b);
	gr3d_fp_free(f);
	ulp_image_free(dr.rt[1]);
	free(fp);
	free(dec);
}
