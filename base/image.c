/* RGBA8 images and PNG input/output through libpng (base/image.h).
 *
 * libpng reports errors by longjmp.  Each libpng session is split in two:
 * a *_guarded function holds the setjmp and nothing else (it has no locals
 * that could be clobbered), and a *_steps function does the work.  Every
 * resource that must survive the jump (the image, the row array) lives in a
 * context struct owned by the caller, which frees it on both paths. */
#include "base/image.h"

#include <inttypes.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

/* ---- the image type ---- */

static bool dims_ok(uint32_t width, uint32_t height)
{
	return width >= 1 && height >= 1 && width <= ULP_IMAGE_MAX_DIM && height <= ULP_IMAGE_MAX_DIM;
}

ulp_image *ulp_image_create(uint32_t width, uint32_t height, ulp_diag *d)
{
	if (!dims_ok(width, height)) {
		ulp_diag_at(d, NULL, 0, 0, "image size %" PRIu32 "x%" PRIu32 " is out of range (1..%d per side)",
		            width, height, (int)ULP_IMAGE_MAX_DIM);
		return NULL;
	}
	size_t bytes = (size_t)width * height * 4u;
	ulp_image *img = calloc(1, sizeof *img + bytes);
	if (!img) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory for a %" PRIu32 "x%" PRIu32 " image", width, height);
		return NULL;
	}
	img->width = width;
	img->height = height;
	return img;
}

void ulp_image_free(ulp_image *img)
{
	free(img);
}

ulp_image *ulp_image_clone(const ulp_image *img, ulp_diag *d)
{
	ulp_image *c = ulp_image_create(img->width, img->height, d);
	if (c)
		memcpy(c->rgba, img->rgba, ulp_image_bytes(img));
	return c;
}

void ulp_image_fill(ulp_image *img, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	size_t n = (size_t)img->width * img->height;
	uint8_t *p = img->rgba;
	for (size_t i = 0; i < n; i++, p += 4) {
		p[0] = r;
		p[1] = g;
		p[2] = b;
		p[3] = a;
	}
}

/* ---- libpng error plumbing ---- */

typedef struct png_msgbuf {
	char msg[200];
} png_msgbuf;

static void png_on_error(png_structp png, png_const_charp msg)
{
	png_msgbuf *e = png_get_error_ptr(png);
	snprintf(e->msg, sizeof e->msg, "%s", msg ? msg : "unknown libpng error");
	png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg)
{
	(void)png; /* warnings (e.g. a bad ancillary chunk, which libpng skips) are not errors */
	(void)msg;
}

/* ---- decode ---- */

typedef struct png_src {
	png_msgbuf err;
	const uint8_t *data;
	size_t len, pos;
	bool truncated;
	ulp_image *img;  /* owned; freed by the caller on failure */
	png_bytep *rows; /* owned; always freed by the caller */
} png_src;

static void png_src_read(png_structp png, png_bytep out, size_t n)
{
	png_src *s = png_get_io_ptr(png);
	if (n > s->len - s->pos) {
		s->truncated = true;
		png_error(png, "unexpected end of data");
	}
	memcpy(out, s->data + s->pos, n);
	s->pos += n;
}

static void png_decode_steps(png_structp png, png_infop info, png_src *s)
{
	png_set_read_fn(png, s, png_src_read);
	png_set_user_limits(png, ULP_IMAGE_MAX_DIM, ULP_IMAGE_MAX_DIM);
	/* Ancillary chunks that carry text, profiles or tables are skipped
	 * unread: libpng 1.6.39 allocates such a chunk's declared length before
	 * reading it, so a 358-byte file claiming a 2 GB zTXt took 2 GB
	 * (fuzz_png; tests/fuzz_repro/png).  Skipped chunks are read through
	 * in small blocks and never held. */
	static const png_byte SKIP[] = "iCCP\0zTXt\0iTXt\0tEXt\0sPLT\0eXIf\0pCAL\0sCAL\0hIST\0";
	png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, SKIP, (int)(sizeof SKIP / 5));
	png_set_chunk_cache_max(png, ULP_PNG_CHUNK_CACHE);
	png_read_info(png, info);

	png_uint_32 w, h;
	int depth, ctype, interlace;
	png_get_IHDR(png, info, &w, &h, &depth, &ctype, &interlace, NULL, NULL);
	bool trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
	if (ctype == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (ctype == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (trns)
		png_set_tRNS_to_alpha(png);
	if (depth == 16)
		png_set_scale_16(png);
	if (ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_gray_to_rgb(png);
	if (!(ctype & PNG_COLOR_MASK_ALPHA) && !trns)
		png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);

	if (!dims_ok(w, h))
		png_error(png, "image size out of range");
	if (png_get_rowbytes(png, info) != (size_t)w * 4u || png_get_bit_depth(png, info) != 8)
		png_error(png, "internal: conversion to RGBA8 failed");
	s->img = ulp_image_create(w, h, NULL);
	s->rows = malloc(sizeof *s->rows * h);
	if (!s->img || !s->rows)
		png_error(png, "out of memory");
	for (png_uint_32 y = 0; y < h; y++)
		s->rows[y] = ulp_image_px(s->img, 0, y);
	png_read_image(png, s->rows);
	png_read_end(png, NULL); /* checks the chunks after the image, up to IEND */
}

static bool png_decode_guarded(png_structp png, png_infop info, png_src *s)
{
	if (setjmp(png_jmpbuf(png)))
		return false;
	png_decode_steps(png, info, s);
	return true;
}

ulp_image *ulp_image_decode_png(const void *data, size_t len, const char *name, ulp_diag *d)
{
	if (!name)
		name = "<png>";
	if (len == 0) {
		ulp_diag_at(d, name, 0, 0, "not a PNG file (the file is empty)");
		return NULL;
	}
	if (len < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
		ulp_diag_at(d, name, 0, 0, "not a PNG file (no PNG signature)");
		return NULL;
	}
	png_src s = { .data = data, .len = len };
	png_structp png =
		png_create_read_struct(PNG_LIBPNG_VER_STRING, &s.err, png_on_error, png_on_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	bool ok = info && png_decode_guarded(png, info, &s);
	if (!info)
		snprintf(s.err.msg, sizeof s.err.msg, "out of memory");
	png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
	free(s.rows);
	if (ok)
		return s.img;
	ulp_image_free(s.img);
	if (s.truncated)
		ulp_diag_byte(d, name, (long)s.len, "truncated PNG: the data ends before the image is complete");
	else
		ulp_diag_byte(d, name, (long)s.pos, "bad PNG: %s", s.err.msg);
	return NULL;
}

ulp_image *ulp_image_load_png(const char *path, ulp_diag *d)
{
	size_t len = 0;
	char *data = ulp_read_file(path, &len, d);
	if (!data)
		return NULL;
	ulp_image *img = ulp_image_decode_png(data, len, path, d);
	free(data);
	return img;
}

/* ---- encode ---- */

typedef struct png_dst {
	png_msgbuf err;
	FILE *f;
} png_dst;

static void png_dst_write(png_structp png, png_bytep data, size_t n)
{
	png_dst *o = png_get_io_ptr(png);
	if (fwrite(data, 1, n, o->f) != n)
		png_error(png, "write error");
}

static void png_dst_flush(png_structp png)
{
	(void)png; /* ulp_out_commit flushes */
}

static void png_encode_steps(png_structp png, png_infop info, const ulp_image *img,
                             png_bytep *rows, png_dst *o)
{
	png_set_write_fn(png, o, png_dst_write, png_dst_flush);
	png_set_IHDR(png, info, img->width, img->height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	/* Fixed settings: the output depends only on the pixels (and the
	 * libpng/zlib versions).  No tIME, text or colour-space chunks.  zlib's
	 * default level 6: level 9 took 0.80 s for a 640x480 image of smooth
	 * shading (fs_lit), 6 takes 0.066 s for a file 14% larger (docs/speed-history.md
	 * "Loading a trace"). */
	png_set_compression_level(png, 6);
	png_set_compression_mem_level(png, 8);
	png_set_compression_window_bits(png, 15);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
	png_write_info(png, info);
	png_write_image(png, rows);
	png_write_end(png, NULL);
}

static bool png_encode_guarded(png_structp png, png_infop info, const ulp_image *img,
                               png_bytep *rows, png_dst *o)
{
	if (setjmp(png_jmpbuf(png)))
		return false;
	png_encode_steps(png, info, img, rows, o);
	return true;
}

bool ulp_image_save_png(const ulp_image *img, const char *path, ulp_diag *d)
{
	if (!dims_ok(img->width, img->height))
		return ulp_diag_at(d, path, 0, 0, "cannot save a %" PRIu32 "x%" PRIu32 " image",
		                   img->width, img->height);
	/* libpng takes non-const row pointers but only reads them when no
	 * transforms are set: it copies each row before filtering. */
	png_bytep *rows = malloc(sizeof *rows * img->height);
	if (!rows)
		return ulp_diag_at(d, path, 0, 0, "out of memory");
	for (uint32_t y = 0; y < img->height; y++)
		rows[y] = (png_bytep)(uintptr_t)ulp_image_cpx(img, 0, y);

	ulp_out out;
	if (!ulp_out_open(&out, path, d)) {
		free(rows);
		return false;
	}
	png_dst o = { .f = out.f };
	png_structp png =
		png_create_write_struct(PNG_LIBPNG_VER_STRING, &o.err, png_on_error, png_on_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	bool ok = info && png_encode_guarded(png, info, img, rows, &o);
	if (!info)
		snprintf(o.err.msg, sizeof o.err.msg, "out of memory");
	png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
	free(rows);
	if (!ok) {
		ulp_out_abort(&out);
		return ulp_diag_at(d, path, 0, 0, "cannot write PNG: %s", o.err.msg);
	}
	return ulp_out_commit(&out, d);
}
