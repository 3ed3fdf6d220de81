/* sim/compare and `ulpsim compare`: metrics with known answers, the diff
 * image, size mismatches, exit codes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "sim/check/compare.h"
#include "tests/test_util.h"

static ulp_image *solid(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	ulp_image *img = ulp_image_create(w, h, NULL);
	cr_assert(img);
	ulp_image_fill(img, r, g, b, a);
	return img;
}

static void expect_colour(const uint8_t *p, int r, int g, int b)
{
	cr_assert(p[0] == r && p[1] == g && p[2] == b && p[3] == 255,
	          "colour (%d,%d,%d,%d), want (%d,%d,%d,255)", p[0], p[1], p[2], p[3], r, g, b);
}

Test(compare_metrics, identical)
{
	ulp_image *a = solid(10, 10, 1, 2, 3, 4), *b = solid(10, 10, 1, 2, 3, 4);
	ulp_compare_result r;
	ulp_image *diff;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_compare_images(a, b, 0, &r, &diff, &d), "%s", d.msg);
	cr_assert_eq(r.max_diff, 0);
	cr_assert_eq(r.differing, 0);
	cr_assert_eq(r.over_tolerance, 0);
	cr_assert_eq(r.pixels, 100);
	cr_assert_eq(r.mse, 0.0);
	cr_assert(isinf(r.psnr_db) && r.psnr_db > 0, "identical images: PSNR +inf, got %g", r.psnr_db);
	cr_assert(ulp_compare_identical(&r));
	cr_assert(diff && diff->width == 10 && diff->height == 10);
	for (uint32_t y = 0; y < 10; y++)
		for (uint32_t x = 0; x < 10; x++)
			expect_colour(ulp_image_cpx(diff, x, y), 0, 0, 0);
	ulp_image_free(diff);
	ulp_image_free(a);
	ulp_image_free(b);
}

Test(compare_metrics, single_pixel_known_psnr)
{
	/* One channel of one pixel of a 10x10 image differs by 255:
	 * MSE = 255^2 / 400, PSNR = 10 log10(400) = 26.0205999... dB. */
	ulp_image *a = solid(10, 10, 0, 0, 0, 255), *b = solid(10, 10, 0, 0, 0, 255);
	ulp_image_px(b, 7, 3)[1] = 255;
	ulp_compare_result r;
	cr_assert(ulp_compare_images(a, b, 0, &r, NULL, NULL));
	cr_assert_eq(r.max_diff, 255);
	cr_assert_eq(r.max_x, 7);
	cr_assert_eq(r.max_y, 3);
	cr_assert_eq(r.differing, 1);
	cr_assert_eq(r.over_tolerance, 1);
	cr_assert_float_eq(r.mse, 65025.0 / 400.0, 1e-12);
	cr_assert_float_eq(r.psnr_db, 26.020599913279625, 1e-9);
	cr_assert_not(ulp_compare_identical(&r));
	ulp_image_free(a);
	ulp_image_free(b);

	/* 250x250, one pixel with R +3 and A -3: MSE = 18 / 250000,
	 * PSNR = 10 log10(65025 * 250000 / 18) = 89.5574786... dB. */
	a = solid(250, 250, 100, 100, 100, 100);
	b = solid(250, 250, 100, 100, 100, 100);
	ulp_image_px(b, 0, 249)[0] = 103;
	ulp_image_px(b, 0, 249)[3] = 97;
	cr_assert(ulp_compare_images(a, b, 2, &r, NULL, NULL));
	cr_assert_eq(r.max_diff, 3);
	cr_assert_eq(r.over_tolerance, 1);
	cr_assert_float_eq(r.psnr_db, 89.55747864436643, 1e-9);
	cr_assert(ulp_compare_images(a, b, 3, &r, NULL, NULL));
	cr_assert_eq(r.over_tolerance, 0, "a difference equal to the tolerance passes");
	cr_assert_eq(r.differing, 1);
	ulp_image_free(a);
	ulp_image_free(b);
}

Test(compare_metrics, tolerance_counts_and_diff_image)
{
	ulp_image *a = solid(4, 1, 50, 50, 50, 50), *b = solid(4, 1, 50, 50, 50, 50);
	ulp_image_px(b, 1, 0)[0] = 51;  /* m = 1 */
	ulp_image_px(b, 2, 0)[2] = 48;  /* m = 2 */
	ulp_image_px(b, 3, 0)[3] = 255; /* m = 205 */
	ulp_compare_result r;
	ulp_image *diff;
	cr_assert(ulp_compare_images(a, b, 1, &r, &diff, NULL));
	cr_assert_eq(r.differing, 3);
	cr_assert_eq(r.over_tolerance, 2);
	cr_assert_eq(r.max_diff, 205);
	cr_assert_eq(r.max_x, 3);
	expect_colour(ulp_image_cpx(diff, 0, 0), 0, 0, 0);
	expect_colour(ulp_image_cpx(diff, 1, 0), 0, 0, 65);  /* tolerated: 64 + round(191/255) */
	expect_colour(ulp_image_cpx(diff, 2, 0), 69, 0, 0);  /* s = 64 + round(1402/255) = 69 */
	expect_colour(ulp_image_cpx(diff, 3, 0), 255, 255, 118); /* s = 64 + 564 = 628 */
	ulp_image_free(diff);
	ulp_image_free(a);
	ulp_image_free(b);
}

Test(compare_metrics, diff_colour_ramp)
{
	uint8_t c[4];
	ulp_compare_diff_colour(0, 0, c);
	expect_colour(c, 0, 0, 0);
	ulp_compare_diff_colour(1, 0, c);
	expect_colour(c, 67, 0, 0); /* the smallest failing difference is visible */
	ulp_compare_diff_colour(255, 0, c);
	expect_colour(c, 255, 255, 255);
	ulp_compare_diff_colour(255, 255, c);
	expect_colour(c, 0, 0, 255);
	/* Monotone: brightness never falls as m grows. */
	int prev = -1;
	for (unsigned m = 1; m <= 255; m++) {
		ulp_compare_diff_colour(m, 0, c);
		int sum = c[0] + c[1] + c[2];
		cr_assert_geq(sum, prev, "m=%u", m);
		prev = sum;
	}
}

Test(compare_metrics, size_mismatch_and_bad_tolerance)
{
	ulp_image *a = solid(4, 4, 0, 0, 0, 0), *b = solid(4, 5, 0, 0, 0, 0);
	ulp_compare_result r;
	ulp_image *diff = (ulp_image *)&r; /* must be reset to NULL */
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(ulp_compare_images(a, b, 0, &r, &diff, &d));
	cr_assert_null(diff);
	cr_assert(d.set && strstr(d.msg, "sizes differ") && strstr(d.msg, "4x4") && strstr(d.msg, "4x5"),
	          "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_not(ulp_compare_images(a, a, 256, &r, NULL, &d));
	cr_assert(strstr(d.msg, "tolerance"), "%s", d.msg);
	ulp_image_free(a);
	ulp_image_free(b);
}

/* ---- the command ---- */

typedef struct cli_fixture {
	char *dir, *a, *b, *c, *small, *txt;
} cli_fixture;

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static void save(const ulp_image *img, const char *path)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_image_save_png(img, path, &d), "%s", d.msg);
}

/* a: 5x7 grey; b: a with one pixel off by 4 in G; c = a; small: 5x6. */
static cli_fixture make_fixture(void)
{
	cli_fixture f;
	f.dir = test_tmpdir();
	cr_assert(f.dir);
	f.a = join(f.dir, "a.png");
	f.b = join(f.dir, "b.png");
	f.c = join(f.dir, "c.png");
	f.small = join(f.dir, "small.png");
	f.txt = join(f.dir, "notpng.png");
	ulp_image *img = solid(5, 7, 128, 128, 128, 255);
	save(img, f.a);
	save(img, f.c);
	ulp_image_px(img, 2, 3)[1] = 132;
	save(img, f.b);
	ulp_image_free(img);
	img = solid(5, 6, 0, 0, 0, 255);
	save(img, f.small);
	ulp_image_free(img);
	FILE *t = fopen(f.txt, "w");
	cr_assert(t);
	fputs("hello\n", t);
	fclose(t);
	return f;
}

static void free_fixture(cli_fixture *f)
{
	char *files[] = { f->a, f->b, f->c, f->small, f->txt };
	for (int i = 0; i < 5; i++) {
		remove(files[i]);
		free(files[i]);
	}
	remove(f->dir);
	free(f->dir);
}

static void expect(const char *args, int code, const char *out_exact, const char *err_sub)
{
	char *out, *err;
	int st = test_run_cli(args, &out, &err);
	cr_assert_eq(st, code, "ulpsim %s: exit %d, want %d (stdout: %s stderr: %s)", args, st, code, out,
	             err);
	if (out_exact)
		cr_assert_str_eq(out, out_exact, "ulpsim %s", args);
	if (err_sub)
		cr_assert(strstr(err, err_sub), "ulpsim %s: stderr '%s' lacks '%s'", args, err, err_sub);
	free(out);
	free(err);
}

static char *fmt_args(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *fmt_args(const char *fmt, ...)
{
	char *buf = malloc(4096);
	cr_assert(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, 4096, fmt, ap);
	va_end(ap);
	return buf;
}

Test(compare_cli, pass_fail_and_output)
{
	cli_fixture f = make_fixture();
	char *args = fmt_args("compare %s %s", f.a, f.c);
	expect(args, 0, "max_diff 0  over_tolerance 0/35  psnr inf dB\n", NULL);
	free(args);
	/* 1 pixel, 1 channel, diff 4: MSE = 16/140, PSNR = 10 log10(65025*140/16) = 57.55 dB */
	args = fmt_args("compare %s %s", f.a, f.b);
	expect(args, 1,
	       "max_diff 4  over_tolerance 1/35  psnr 57.55 dB\n"
	       "worst (2,3)  a #808080ff  b #808480ff\n", NULL);
	free(args);
	args = fmt_args("compare --tolerance 4 %s %s", f.a, f.b);
	expect(args, 0,
	       "max_diff 4  over_tolerance 0/35  psnr 57.55 dB\n"
	       "worst (2,3)  a #808080ff  b #808480ff\n", NULL);
	free(args);
	args = fmt_args("compare %s %s --tolerance 3", f.a, f.b);
	expect(args, 1, NULL, NULL);
	free(args);
	free_fixture(&f);
}

Test(compare_cli, diff_output)
{
	cli_fixture f = make_fixture();
	char *d = join(f.dir, "d.png");
	char *args = fmt_args("compare %s %s --diff %s", f.a, f.b, d);
	expect(args, 1, NULL, NULL);
	free(args);
	ulp_diag dg;
	ulp_diag_clear(&dg);
	ulp_image *img = ulp_image_load_png(d, &dg);
	cr_assert(img, "%s", dg.msg);
	cr_assert(img->width == 5 && img->height == 7);
	for (uint32_t y = 0; y < 7; y++)
		for (uint32_t x = 0; x < 5; x++) {
			uint8_t want[4];
			ulp_compare_diff_colour(x == 2 && y == 3 ? 4 : 0, 0, want);
			cr_assert_eq(memcmp(ulp_image_cpx(img, x, y), want, 4), 0, "(%u,%u)", x, y);
		}
	ulp_image_free(img);
	remove(d);
	free(d);
	free_fixture(&f);
}

Test(compare_cli, bad_input)
{
	cli_fixture f = make_fixture();
	expect("compare --help", 0, NULL, NULL);
	expect("help compare", 0, NULL, NULL);
	expect("compare", 2, "", "expected two PNG files");
	char *args = fmt_args("compare %s", f.a);
	expect(args, 2, "", "expected two PNG files");
	free(args);
	args = fmt_args("compare %s %s %s", f.a, f.b, f.c);
	expect(args, 2, "", "unexpected argument");
	free(args);
	args = fmt_args("compare %s %s --tolerance 256", f.a, f.b);
	expect(args, 2, "", "--tolerance");
	free(args);
	args = fmt_args("compare %s %s --tolerance -1", f.a, f.b);
	expect(args, 2, "", "--tolerance");
	free(args);
	args = fmt_args("compare %s %s --tolerance", f.a, f.b);
	expect(args, 2, "", "--tolerance");
	free(args);
	args = fmt_args("compare %s %s --frobnicate", f.a, f.b);
	expect(args, 2, "", "unknown option '--frobnicate'");
	free(args);
	args = fmt_args("compare %s %s/missing.png", f.a, f.dir);
	expect(args, 2, "", "missing.png: cannot open");
	free(args);
	args = fmt_args("compare %s %s", f.txt, f.a);
	expect(args, 2, "", "notpng.png: not a PNG file");
	free(args);
	args = fmt_args("compare %s %s", f.a, f.small);
	expect(args, 2, "", "small.png: image is 5x6 but");
	free(args);
	/* A failed diff write is bad input too, and leaves no file. */
	args = fmt_args("compare %s %s --diff %s/no/dir/d.png", f.a, f.b, f.dir);
	expect(args, 2, "", "d.png");
	free(args);
	free_fixture(&f);
}

Test(compare_cli, corpus_image_against_itself)
{
	char *p = test_corpus_path("tgsi-noint/generated_tests__spec__glsl-1.10__execution__"
	                           "built-in-functions__vs-lessThanEqual-ivec2-ivec2/softpipe.png");
	char *args = fmt_args("compare %s %s", p, p);
	expect(args, 0, "max_diff 0  over_tolerance 0/62500  psnr inf dB\n", NULL);
	free(args);
	free(p);
}
