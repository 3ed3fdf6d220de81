/* base/image: the RGBA8 type, PNG load of every colour type and depth (test
 * files written here with libpng directly), deterministic atomic save, and
 * rejection of truncated, corrupt and non-PNG input. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <glob.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/image.h"
#include "tests/test_util.h"

/* ---- helpers ---- */

static char *tmp_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static void rm_dir(char *dir)
{
	DIR *dp = opendir(dir);
	if (dp) {
		struct dirent *e;
		while ((e = readdir(dp))) {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				char *p = tmp_path(dir, e->d_name);
				remove(p);
				free(p);
			}
		}
		closedir(dp);
	}
	remove(dir);
	free(dir);
}

static int count_entries(const char *dir)
{
	int n = 0;
	DIR *dp = opendir(dir);
	cr_assert(dp);
	struct dirent *e;
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static ulp_image *pattern_image(uint32_t w, uint32_t h)
{
	ulp_image *img = ulp_image_create(w, h, NULL);
	cr_assert(img);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *p = ulp_image_px(img, x, y);
			p[0] = (uint8_t)(x * 37 + y);
			p[1] = (uint8_t)(y * 51);
			p[2] = (uint8_t)((x ^ y) * 13);
			p[3] = (uint8_t)(255 - x * 3 - y * 7);
		}
	return img;
}

static void expect_px(const ulp_image *img, uint32_t x, uint32_t y, int r, int g, int b, int a)
{
	const uint8_t *p = ulp_image_cpx(img, x, y);
	cr_assert(p[0] == r && p[1] == g && p[2] == b && p[3] == a,
	          "pixel (%u,%u) = (%d,%d,%d,%d), want (%d,%d,%d,%d)", x, y, p[0], p[1], p[2], p[3], r,
	          g, b, a);
}

/* A PNG described by its raw stored rows, written with libpng directly. */
typedef struct gen_png {
	int w, h, ctype, depth, interlace;
	const uint8_t *rows;          /* h rows of gen_rowbytes() bytes, as stored */
	const png_color *palette;
	int npalette;
	const uint8_t *trans_alpha;   /* palette tRNS */
	int ntrans;
	const png_color_16 *trans_colour; /* grey / RGB tRNS */
} gen_png;

enum {
	GREY = PNG_COLOR_TYPE_GRAY,
	GREY_A = PNG_COLOR_TYPE_GRAY_ALPHA,
	PAL = PNG_COLOR_TYPE_PALETTE,
	RGB = PNG_COLOR_TYPE_RGB,
	RGBA = PNG_COLOR_TYPE_RGB_ALPHA,
	ADAM7 = PNG_INTERLACE_ADAM7,
};
#define DESC(W, H, CT, D, IL, ROWS) \
	.w = (W), .h = (H), .ctype = (CT), .depth = (D), .interlace = (IL), .rows = (ROWS)

static size_t gen_rowbytes(const gen_png *g)
{
	int ch = g->ctype == PNG_COLOR_TYPE_GRAY || g->ctype == PNG_COLOR_TYPE_PALETTE ? 1
	       : g->ctype == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
	       : g->ctype == PNG_COLOR_TYPE_RGB ? 3 : 4;
	return ((size_t)g->w * (size_t)ch * (size_t)g->depth + 7) / 8;
}

static bool gen_write_guarded(png_structp png, png_infop info, const gen_png *g, FILE *f,
                              png_bytep *rowp)
{
	if (setjmp(png_jmpbuf(png)))
		return false;
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)g->w, (png_uint_32)g->h, g->depth, g->ctype, g->interlace,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (g->palette)
		png_set_PLTE(png, info, g->palette, g->npalette);
	if (g->trans_alpha || g->trans_colour)
		png_set_tRNS(png, info, g->trans_alpha, g->ntrans, g->trans_colour);
	png_write_info(png, info);
	png_write_image(png, rowp);
	png_write_end(png, NULL);
	return true;
}

static void gen_write(const gen_png *g, const char *path)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f, "cannot create %s", path);
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	cr_assert(png && info);
	png_bytep rowp[64];
	cr_assert(g->h <= 64);
	for (int y = 0; y < g->h; y++)
		rowp[y] = (png_bytep)(uintptr_t)(g->rows + (size_t)y * gen_rowbytes(g));
	bool ok = gen_write_guarded(png, info, g, f, rowp);
	png_destroy_write_struct(&png, &info);
	fclose(f);
	cr_assert(ok, "libpng failed writing %s", path);
}

static ulp_image *gen_load(const char *dir, const char *name, const gen_png *g)
{
	char *p = tmp_path(dir, name);
	gen_write(g, p);
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_load_png(p, &d);
	cr_assert(img, "loading %s: %s", name, d.msg);
	cr_assert_eq(img->width, (uint32_t)g->w);
	cr_assert_eq(img->height, (uint32_t)g->h);
	free(p);
	return img;
}

static uint8_t *save_to_memory(const ulp_image *img, const char *dir, const char *name, size_t *len)
{
	char *p = tmp_path(dir, name);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_image_save_png(img, p, &d), "save: %s", d.msg);
	uint8_t *bytes = (uint8_t *)ulp_read_file(p, len, &d);
	cr_assert(bytes, "read back: %s", d.msg);
	free(p);
	return bytes;
}

static uint32_t crc32_png(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return c ^ 0xffffffffu;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Offset of the first chunk of the given type (its length field), or 0. */
static size_t find_chunk(const uint8_t *png, size_t len, const char *type)
{
	size_t off = 8;
	while (off + 12 <= len) {
		uint32_t n = be32(png + off);
		if (memcmp(png + off + 4, type, 4) == 0)
			return off;
		off += 12 + (size_t)n;
	}
	return 0;
}

static void fix_crc(uint8_t *png, size_t chunk)
{
	uint32_t n = be32(png + chunk);
	uint32_t c = crc32_png(png + chunk + 4, 4 + (size_t)n);
	uint8_t *q = png + chunk + 8 + n;
	q[0] = (uint8_t)(c >> 24);
	q[1] = (uint8_t)(c >> 16);
	q[2] = (uint8_t)(c >> 8);
	q[3] = (uint8_t)c;
}

static void expect_decode_fails(const uint8_t *data, size_t len, const char *want)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_decode_png(data, len, "bad.png", &d);
	cr_assert_null(img, "%zu bytes decoded although %s was expected", len, want);
	char buf[1024];
	ulp_diag_format(&d, buf, sizeof buf);
	cr_assert(d.set && strstr(buf, "bad.png"), "diag '%s' lacks the name", buf);
	cr_assert(strstr(buf, want), "diag '%s' lacks '%s'", buf, want);
}

/* ---- the type ---- */

Test(image_type, create_fill_clone)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(3, 2, &d);
	cr_assert(img);
	cr_assert_eq(ulp_image_bytes(img), 24u);
	for (size_t i = 0; i < 24; i++)
		cr_assert_eq(img->rgba[i], 0);
	ulp_image_fill(img, 1, 2, 3, 4);
	for (uint32_t y = 0; y < 2; y++)
		for (uint32_t x = 0; x < 3; x++)
			expect_px(img, x, y, 1, 2, 3, 4);
	ulp_image_px(img, 2, 1)[0] = 9;
	cr_assert_eq(img->rgba[(1 * 3 + 2) * 4], 9, "row-major, no padding");
	ulp_image *c = ulp_image_clone(img, &d);
	cr_assert(c);
	cr_assert_eq(memcmp(c->rgba, img->rgba, 24), 0);
	ulp_image_free(c);
	ulp_image_free(img);
	ulp_image_free(NULL);
}

Test(image_type, bad_sizes)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_null(ulp_image_create(0, 5, &d));
	cr_assert(d.set && strstr(d.msg, "out of range"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_null(ulp_image_create(5, ULP_IMAGE_MAX_DIM + 1, &d));
	cr_assert(d.set);
}

/* ---- save ---- */

Test(image_png, round_trip_and_deterministic_bytes)
{
	char *dir = test_tmpdir();
	ulp_image *img = pattern_image(37, 23);
	size_t n1, n2;
	uint8_t *b1 = save_to_memory(img, dir, "a.png", &n1);
	uint8_t *b2 = save_to_memory(img, dir, "b.png", &n2);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(b1, b2, n1), 0, "saving twice must give identical bytes");

	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *back = ulp_image_decode_png(b1, n1, "a.png", &d);
	cr_assert(back, "%s", d.msg);
	cr_assert_eq(back->width, 37);
	cr_assert_eq(back->height, 23);
	cr_assert_eq(memcmp(back->rgba, img->rgba, ulp_image_bytes(img)), 0);

	/* Only IHDR, IDAT and IEND: no time stamp, text or colour chunks. */
	size_t off = 8;
	int chunks = 0;
	while (off + 12 <= n1) {
		uint32_t len = be32(b1 + off);
		const char *t = (const char *)b1 + off + 4;
		cr_assert(!memcmp(t, "IHDR", 4) || !memcmp(t, "IDAT", 4) || !memcmp(t, "IEND", 4),
		          "unexpected chunk %.4s", t);
		off += 12 + len;
		chunks++;
	}
	cr_assert_eq(off, n1);
	cr_assert_geq(chunks, 3);
	/* IHDR: 8-bit RGBA, not interlaced. */
	cr_assert_eq(b1[8 + 8 + 8], 8);
	cr_assert_eq(b1[8 + 8 + 9], PNG_COLOR_TYPE_RGB_ALPHA);
	cr_assert_eq(b1[8 + 8 + 12], PNG_INTERLACE_NONE);

	/* A different image gives different bytes. */
	ulp_image_px(img, 0, 0)[0] ^= 1;
	size_t n3;
	uint8_t *b3 = save_to_memory(img, dir, "c.png", &n3);
	cr_assert(n3 != n1 || memcmp(b3, b1, n1) != 0);
	free(b1);
	free(b2);
	free(b3);
	ulp_image_free(back);
	ulp_image_free(img);
	rm_dir(dir);
}

Test(image_png, failed_save_leaves_nothing)
{
	char *dir = test_tmpdir();
	ulp_image *img = pattern_image(4, 4);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *missing = tmp_path(dir, "no/such/dir/x.png");
	cr_assert_not(ulp_image_save_png(img, missing, &d));
	cr_assert(d.set && strstr(d.file, "x.png"), "diag names the file: '%s'", d.file);
	free(missing);

	/* The target exists as a directory: the rename fails after the PNG was
	 * written to the temp file, which must be removed. */
	char *sub = tmp_path(dir, "target.png");
	cr_assert_eq(mkdir(sub, 0755), 0);
	ulp_diag_clear(&d);
	cr_assert_not(ulp_image_save_png(img, sub, &d));
	cr_assert(d.set);
	cr_assert_eq(count_entries(dir), 1, "only the directory is left, no temp file");
	remove(sub);
	free(sub);
	ulp_image_free(img);
	rm_dir(dir);
}

/* An output path that names a device (here a link to /dev/null, so that a
 * regression replaces the link in the test's folder, not the device) is
 * written in place: the temp-file-and-rename of ordinary outputs would put
 * a regular file where the device node was (test_exact's `-o /dev/null`
 * did, as root). */
Test(image_png, device_output_written_in_place)
{
	char *dir = test_tmpdir();
	char *link = tmp_path(dir, "null.png");
	cr_assert_eq(symlink("/dev/null", link), 0);
	ulp_image *img = pattern_image(4, 4);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_image_save_png(img, link, &d), "%s", d.msg);
	cr_assert(ulp_write_file(link, "x", 1, &d), "%s", d.msg);
	struct stat st;
	cr_assert_eq(lstat(link, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link is still a link");
	cr_assert_eq(stat(link, &st), 0);
	cr_assert(S_ISCHR(st.st_mode), "and names the device");
	cr_assert_eq(count_entries(dir), 1, "no temp file beside it");
	remove(link);
	free(link);
	ulp_image_free(img);
	rm_dir(dir);
}

/* ---- load: every colour type ---- */

Test(image_png, grey_depths)
{
	char *dir = test_tmpdir();
	/* 8-bit grey */
	static const uint8_t g8[] = { 0, 127, 255, 10, 20, 30 };
	ulp_image *img = gen_load(dir, "g8.png", &(gen_png){ DESC(3, 2, GREY, 8, 0, g8) });
	expect_px(img, 1, 0, 127, 127, 127, 255);
	expect_px(img, 2, 1, 30, 30, 30, 255);
	ulp_image_free(img);
	/* 1-bit grey: 0 -> 0, 1 -> 255; bits are MSB first. */
	static const uint8_t g1[] = { 0xa0, 0x40 };
	img = gen_load(dir, "g1.png", &(gen_png){ DESC(3, 2, GREY, 1, 0, g1) });
	expect_px(img, 0, 0, 255, 255, 255, 255);
	expect_px(img, 1, 0, 0, 0, 0, 255);
	expect_px(img, 2, 0, 255, 255, 255, 255);
	expect_px(img, 1, 1, 255, 255, 255, 255);
	ulp_image_free(img);
	/* 2-bit grey with tRNS grey 1: levels 0, 85, 170, 255; 85 transparent. */
	static const uint8_t g2[] = { 0x1b }; /* 00 01 10 11 */
	png_color_16 tc = { .gray = 1 };
	img = gen_load(dir, "g2.png", &(gen_png){ DESC(4, 1, GREY, 2, 0, g2), .trans_colour = &tc });
	expect_px(img, 0, 0, 0, 0, 0, 255);
	expect_px(img, 1, 0, 85, 85, 85, 0);
	expect_px(img, 2, 0, 170, 170, 170, 255);
	expect_px(img, 3, 0, 255, 255, 255, 255);
	ulp_image_free(img);
	/* 16-bit grey: scaled with rounding, round(v * 255 / 65535). */
	static const uint8_t g16[] = { 0xff, 0xff, 0x00, 0x00, 0x80, 0x80, 0x12, 0xff };
	img = gen_load(dir, "g16.png", &(gen_png){ DESC(4, 1, GREY, 16, 0, g16) });
	expect_px(img, 0, 0, 255, 255, 255, 255);
	expect_px(img, 1, 0, 0, 0, 0, 255);
	expect_px(img, 2, 0, 128, 128, 128, 255);
	expect_px(img, 3, 0, 19, 19, 19, 255); /* 0x12ff = 4863 -> 18.92 -> 19 */
	ulp_image_free(img);
	/* grey + alpha, 8 and 16 bits */
	static const uint8_t ga8[] = { 50, 200, 60, 0 };
	img = gen_load(dir, "ga8.png", &(gen_png){ DESC(2, 1, GREY_A, 8, 0, ga8) });
	expect_px(img, 0, 0, 50, 50, 50, 200);
	expect_px(img, 1, 0, 60, 60, 60, 0);
	ulp_image_free(img);
	static const uint8_t ga16[] = { 0x40, 0x00, 0xff, 0xff };
	img = gen_load(dir, "ga16.png", &(gen_png){ DESC(1, 1, GREY_A, 16, 0, ga16) });
	expect_px(img, 0, 0, 64, 64, 64, 255); /* 0x4000 = 16384 -> 63.75 -> 64 */
	ulp_image_free(img);
	rm_dir(dir);
}

Test(image_png, palette)
{
	char *dir = test_tmpdir();
	static const png_color pal[4] = { { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 9, 8, 7 } };
	static const uint8_t alpha[2] = { 128, 0 };
	static const uint8_t p8[] = { 0, 1, 2, 3 };
	ulp_image *img = gen_load(dir, "p8.png",
	                          &(gen_png){ DESC(2, 2, PAL, 8, 0, p8), .palette = pal, .npalette = 4,
	                                      .trans_alpha = alpha, .ntrans = 2 });
	expect_px(img, 0, 0, 255, 0, 0, 128);
	expect_px(img, 1, 0, 0, 255, 0, 0);
	expect_px(img, 0, 1, 0, 0, 255, 255); /* beyond the tRNS entries: opaque */
	expect_px(img, 1, 1, 9, 8, 7, 255);
	ulp_image_free(img);
	/* 4-bit palette, no tRNS: two pixels per byte, high nibble first. */
	static const uint8_t p4[] = { 0x32, 0x10 };
	img = gen_load(dir, "p4.png",
	               &(gen_png){ DESC(3, 1, PAL, 4, 0, p4), .palette = pal, .npalette = 4 });
	expect_px(img, 0, 0, 9, 8, 7, 255);
	expect_px(img, 1, 0, 0, 0, 255, 255);
	expect_px(img, 2, 0, 0, 255, 0, 255);
	ulp_image_free(img);
	rm_dir(dir);
}

Test(image_png, rgb_rgba_16bit_and_interlaced)
{
	char *dir = test_tmpdir();
	static const uint8_t rgb8[] = { 1, 2, 3, 4, 5, 6 };
	ulp_image *img = gen_load(dir, "rgb8.png", &(gen_png){ DESC(2, 1, RGB, 8, 0, rgb8) });
	expect_px(img, 0, 0, 1, 2, 3, 255);
	expect_px(img, 1, 0, 4, 5, 6, 255);
	ulp_image_free(img);
	/* RGB with a tRNS colour */
	png_color_16 tc = { .red = 4, .green = 5, .blue = 6 };
	img = gen_load(dir, "rgbt.png", &(gen_png){ DESC(2, 1, RGB, 8, 0, rgb8), .trans_colour = &tc });
	expect_px(img, 0, 0, 1, 2, 3, 255);
	expect_px(img, 1, 0, 4, 5, 6, 0);
	ulp_image_free(img);
	static const uint8_t rgb16[] = { 0xff, 0xff, 0x80, 0x80, 0x00, 0x01 };
	img = gen_load(dir, "rgb16.png", &(gen_png){ DESC(1, 1, RGB, 16, 0, rgb16) });
	expect_px(img, 0, 0, 255, 128, 0, 255);
	ulp_image_free(img);
	static const uint8_t rgba16[] = { 0x10, 0x00, 0x20, 0x00, 0x30, 0x00, 0x7f, 0xff };
	img = gen_load(dir, "rgba16.png", &(gen_png){ DESC(1, 1, RGBA, 16, 0, rgba16) });
	expect_px(img, 0, 0, 16, 32, 48, 127);
	ulp_image_free(img);
	/* Adam7-interlaced RGBA: must read back exactly what was written. */
	ulp_image *src = pattern_image(13, 11);
	img = gen_load(dir, "adam7.png", &(gen_png){ DESC(13, 11, RGBA, 8, ADAM7, src->rgba) });
	cr_assert_eq(memcmp(img->rgba, src->rgba, ulp_image_bytes(src)), 0);
	ulp_image_free(img);
	ulp_image_free(src);
	rm_dir(dir);
}

/* ---- load: bad input ---- */

Test(image_bad, not_png_and_missing_file)
{
	expect_decode_fails((const uint8_t *)"", 0, "not a PNG file");
	expect_decode_fails((const uint8_t *)"P6\n1 1\n255\nabc", 15, "not a PNG file");
	expect_decode_fails((const uint8_t *)"\x89PNG\r\n", 6, "not a PNG file");
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_null(ulp_image_load_png("/nonexistent/dir/missing.png", &d));
	cr_assert(strstr(d.file, "missing.png") && strstr(d.msg, "cannot open"), "%s: %s", d.file,
	          d.msg);
}

Test(image_bad, every_truncation)
{
	char *dir = test_tmpdir();
	ulp_image *img = pattern_image(9, 7);
	size_t n;
	uint8_t *bytes = save_to_memory(img, dir, "t.png", &n);
	for (size_t len = 0; len < n; len++)
		expect_decode_fails(bytes, len, len < 8 ? "not a PNG file" : "truncated PNG");
	/* The complete file still decodes. */
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *ok = ulp_image_decode_png(bytes, n, "t.png", &d);
	cr_assert(ok, "%s", d.msg);
	ulp_image_free(ok);
	/* A truncated file on disk through the file API names the file. */
	char *p = tmp_path(dir, "cut.png");
	cr_assert(ulp_write_file(p, bytes, n / 2, &d));
	cr_assert_null(ulp_image_load_png(p, &d));
	cr_assert(strstr(d.file, "cut.png") && strstr(d.msg, "truncated"), "%s", d.msg);
	cr_assert_eq(d.offset, (long)(n / 2));
	free(p);
	free(bytes);
	ulp_image_free(img);
	rm_dir(dir);
}

Test(image_bad, corrupt_chunks)
{
	char *dir = test_tmpdir();
	ulp_image *img = pattern_image(16, 16);
	size_t n;
	uint8_t *orig = save_to_memory(img, dir, "c.png", &n);
	uint8_t *b = malloc(n);
	cr_assert(b);

	/* A flipped bit in the IDAT CRC: CRC error. */
	size_t idat = find_chunk(orig, n, "IDAT");
	cr_assert_gt(idat, 0);
	memcpy(b, orig, n);
	b[idat + 8 + be32(orig + idat)] ^= 0x10;
	expect_decode_fails(b, n, "CRC error");

	/* A flipped bit in the IDAT data with a matching CRC: the zlib stream is
	 * now bad (its Adler-32 check or its structure). */
	memcpy(b, orig, n);
	b[idat + 8 + 5] ^= 0x10;
	fix_crc(b, idat);
	expect_decode_fails(b, n, "bad PNG");

	/* IHDR with width 0 (CRC fixed). */
	memcpy(b, orig, n);
	memset(b + 16, 0, 4);
	fix_crc(b, 8);
	expect_decode_fails(b, n, "bad PNG");

	/* IHDR wider than ULP_IMAGE_MAX_DIM (libpng's user limit). */
	memcpy(b, orig, n);
	b[16] = 0;
	b[17] = 0;
	b[18] = 0x50; /* 20480 */
	b[19] = 0;
	fix_crc(b, 8);
	expect_decode_fails(b, n, "bad PNG");

	/* IHDR with an impossible bit depth for RGBA. */
	memcpy(b, orig, n);
	b[24] = 3;
	fix_crc(b, 8);
	expect_decode_fails(b, n, "bad PNG");

	/* Every single-byte corruption after the signature either fails cleanly
	 * (no crash, no leak: run under the sanitizers) or decodes to an image of
	 * the original size. */
	int failed = 0;
	for (size_t i = 8; i < n; i++) {
		memcpy(b, orig, n);
		b[i] ^= 0x5a;
		ulp_diag d;
		ulp_diag_clear(&d);
		ulp_image *got = ulp_image_decode_png(b, n, "c.png", &d);
		if (got) {
			cr_assert(got->width == 16 && got->height == 16);
			ulp_image_free(got);
		} else {
			cr_assert(d.set && strcmp(d.file, "c.png") == 0);
			failed++;
		}
	}
	cr_assert_gt(failed, (int)(n - 8) * 9 / 10, "CRCs must catch nearly every corruption");
	free(b);
	free(orig);
	ulp_image_free(img);
	rm_dir(dir);
}

/* ---- real images from the corpus ---- */

Test(image_corpus, softpipe_pngs)
{
	char *pattern = test_corpus_path("tgsi-noint/*/softpipe.png");
	cr_assert(pattern);
	glob_t g;
	cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "no corpus PNGs match %s", pattern);
	cr_assert_geq(g.gl_pathc, 5);
	char *dir = test_tmpdir();
	for (size_t i = 0; i < g.gl_pathc && i < 12; i += (g.gl_pathc / 12) + 1) {
		ulp_diag d;
		ulp_diag_clear(&d);
		ulp_image *img = ulp_image_load_png(g.gl_pathv[i], &d);
		cr_assert(img, "%s: %s", g.gl_pathv[i], d.msg);
		cr_assert(img->width >= 16 && img->width <= 4096 && img->height >= 16 &&
		          img->height <= 4096, "%s: %ux%u", g.gl_pathv[i], img->width, img->height);
		/* Our save of it reads back identical. */
		size_t n;
		uint8_t *bytes = save_to_memory(img, dir, "rt.png", &n);
		ulp_image *back = ulp_image_decode_png(bytes, n, "rt.png", &d);
		cr_assert(back);
		cr_assert_eq(memcmp(back->rgba, img->rgba, ulp_image_bytes(img)), 0);
		ulp_image_free(back);
		free(bytes);
		ulp_image_free(img);
	}
	globfree(&g);
	free(pattern);
	rm_dir(dir);
}
