/* The fragment side of grate's 12 hardware-verified asm_tests cases
 * (corpus tegra/grate-tests/hw-expected.md): first pixel of a full-screen
 * quad on a 256x256 RGBA8888 target, RT 1, cleared to 0x4C4C4C4C.  The
 * vertex shader's vcolor per vertex is the value hw-expected.md derives;
 * the linker stores it in TRAM row 0 as (y, x, z, w), FP20 (truncated, as
 * grate's float_to_fp20).  Only pixel (0,0) is checked, so the target is
 * 2x2 while the vertices stay where a 256x256 viewport puts them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/tegra/tegra_asm.h"
#include "tests/test_util.h"
#include "units/gpu.h"

typedef struct hw_case {
	const char *vs, *fs;
	float vcolor[4][4];          /* per vertex v0..v3 */
	const char *uniforms;        /* fs_uniform: name=value pairs */
	uint32_t expected;           /* 0xAABBGGRR */
} hw_case;

#define COLORS { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 0, 0, 1 } }
#define SAME(a, b, c, d) { { a, b, c, d }, { a, b, c, d }, { a, b, c, d }, { a, b, c, d } }

static const hw_case cases[] = {
	{ "vs_mov", "fs_vs_tests", COLORS, NULL, 0xFF01FF00u },
	{ "vs_constant", "fs_vs_tests", SAME(0.1f, 0.2f, 0.3f, 0.4f), NULL, 0x664D331Au },
	{ "vs_branching", "fs_vs_tests", COLORS, NULL, 0xFF01FF00u },
	{ "vs_function", "fs_vs_tests", COLORS, NULL, 0xFF01FF00u },
	{ "vs_stack", "fs_vs_tests", COLORS, NULL, 0xFF01FF00u },
	{ "vs_predicate", "fs_vs_tests", SAME(0.5f, 0.0f, 0.5f, 0.4f), NULL, 0x667F007Fu },
	{ "vs_constant_relative_addressing", "fs_vs_tests", SAME(0.1f, 0.2f, 0.3f, 0.4f), NULL, 0x664D331Au },
	{ "vs_attribute_relative_addressing", "fs_vs_tests", COLORS, NULL, 0xFF01FF00u },
	{ "vs_export_relative_addressing", "fs_vs_tests",
	  { { 0.1f, 0, 0, 0.4f }, { 0.1f, 1, 0, 0.4f }, { 0.1f, 0, 1, 0.4f }, { 0.1f, 0, 0, 0.4f } },
	  NULL, 0x6601FF1Au },
	{ "vs_uniform", "fs_vs_tests", SAME(0.1f, 0.2f, 0.3f, 0.4f), NULL, 0x664D331Au },
	{ "vs_mov", "fs_uniform", COLORS, "u", 0x19334C66u },
	{ "vs_mov", "fs_mfu_tests", COLORS, NULL, 0x7F6A7FE0u },
};

static bool load(const char *fs, tegra_fp_program *fp, tegra_fp_decoded *dec, ulp_diag *d)
{
	char rel[128];
	snprintf(rel, sizeof rel, "tegra/grate-tests/%s.txt", fs);
	char *path = test_corpus_path(rel);
	size_t len;
	char *src = ulp_read_file(path, &len, d);
	free(path);
	bool ok = src && tegra_asm_assemble(src, len, rel, fp, d) && tegra_fp_decode(fp, dec, rel, d);
	free(src);
	return ok;
}

static uint32_t first_pixel(const hw_case *c)
{
	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(fp && dec);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(load(c->fs, fp, dec, &d), "%s: %s", c->fs, d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &cfg;
	for (int k = 0; k < 32; k++)
		dr.uniforms[k] = fp->constants[k] & FP20_MASK;
	if (c->uniforms) {   /* hw-expected.md case 11, converted as grate's host does */
		dr.uniforms[0] = tegra_grate_fx10(0.1f);
		dr.uniforms[2] = tegra_grate_fp20(0.2f);
		dr.uniforms[31] = tegra_grate_fx10(0.3f) | tegra_grate_fx10(0.4f) << 10;
		cr_expect_eq(dr.uniforms[0], 0x00019u);
		cr_expect_eq(dr.uniforms[2], 0x39333u);
		cr_expect_eq(dr.uniforms[31], 0x1984Cu);
	}
	static const double ndc[4][2] = { { -1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	for (int k = 0; k < 4; k++) {
		v[k].x = 128 + 128 * ndc[k][0];     /* viewport 256x256 (hw-expected.md) */
		v[k].y = 128 + 128 * ndc[k][1];
		v[k].w = 1;
		static const int swz[4] = { 1, 0, 2, 3 };   /* tram0.yxzw */
		for (int j = 0; j < 4; j++)
			v[k].tram[0][j] = tegra_grate_fp20(c->vcolor[k][swz[j]]);
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 2, 3 };
	dr.vtx = v;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	ulp_image *rt = ulp_image_create(2, 2, &d);
	cr_assert(rt);
	ulp_image_fill(rt, 0x4C, 0x4C, 0x4C, 0x4C);   /* grate_clear_color(0.3...) */
	dr.rt[1] = rt;
	gr3d_stats st;
	cr_assert(gr3d_fp_draw(&dr, &st, &d), "%s", d.msg);
	const uint8_t *p = ulp_image_cpx(rt, 0, 0);
	uint32_t got = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	cr_expect_gt(st.cycles, 0);
	ulp_image_free(rt);
	free(fp);
	free(dec);
	return got;
}

Test(tegra_hw, asm_tests_first_pixels)
{
	unsigned pass = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t got = first_pixel(&cases[i]);
		cr_expect_eq(got, cases[i].expected, "case %zu (%s / %s): got 0x%08X, hardware 0x%08X",
		             i + 1, cases[i].vs, cases[i].fs, got, cases[i].expected);
		pass += got == cases[i].expected;
	}
	printf("tegra hw: %u/12 first pixels match the hardware\n", pass);
	cr_expect_eq(pass, 12u);
}

/* The same case 1 through the CLI at the real 256x256 size. */
Test(tegra_hw, cli_run_case1)
{
	char *dir = test_tmpdir();
	char *fs = test_corpus_path("tegra/grate-tests/fs_vs_tests.txt");
	char cmd[1024], *out = NULL, *err = NULL;
	snprintf(cmd, sizeof cmd,
	         "tegra run %s --size 256x256 --rt 1=0x4C4C4C4C "
	         "--varying 't0=0,1,0,1/1,0,0,1/0,0,1,1/0,1,0,1' -o %s/out.png", fs, dir);
	int rc = test_run_cli(cmd, &out, &err);
	cr_assert_eq(rc, 0, "%s", err);
	cr_expect(strstr(out, "cycles "), "%s", out);
	cr_expect(strstr(out, "pseq busy "), "%s", out);
	char png[512];
	snprintf(png, sizeof png, "%s/out.png", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_load_png(png, &d);
	cr_assert(img, "%s", d.msg);
	const uint8_t *p = ulp_image_cpx(img, 0, 0);
	cr_expect(p[0] == 0x00 && p[1] == 0xFF && p[2] == 0x01 && p[3] == 0xFF,
	          "pixel 0 = %02x %02x %02x %02x", p[0], p[1], p[2], p[3]);
	ulp_image_free(img);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	free(out);
	free(err);
	free(fs);
	free(dir);
}
