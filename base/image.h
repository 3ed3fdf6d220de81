/* RGBA8 images and PNG input/output.
 *
 * An ulp_image is one allocation: the header and then width*height*4 bytes of
 * pixels, row-major, top row first, bytes R G B A, no row padding (the stride
 * is always width*4).
 *
 * PNG load accepts every colour type and bit depth of the PNG spec (palette,
 * grey, grey+alpha, RGB, RGBA; 1/2/4/8/16 bits; tRNS; Adam7 interlace) and
 * converts to RGBA8: palette and low-depth grey are expanded, tRNS becomes
 * alpha, grey is replicated into R, G and B, a missing alpha channel reads as
 * 255, and 16-bit samples are scaled to 8 bits with rounding
 * (v8 = round(v16 * 255 / 65535)).  No gamma or colour-space conversion is
 * applied: the stored sample values are what you get.
 *
 * PNG save writes 8-bit RGBA, non-interlaced, with only IHDR, IDAT and IEND
 * (no tIME, no text), zlib level 9 and libpng's adaptive filtering, so the
 * same image always gives byte-identical files with the same libpng and zlib.
 * The file is written atomically (base/fileio.h): a failed save never leaves
 * a partial file behind. */
#ifndef ULP_BASE_IMAGE_H
#define ULP_BASE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* Largest width or height accepted anywhere (create, load, save). */
enum { ULP_IMAGE_MAX_DIM = 16384 };
/* A PNG keeps at most this many ancillary chunks (text, profiles and
 * tables are skipped unread: base/image.c; docs/robustness.md). */
#define ULP_PNG_CHUNK_CACHE 1000

typedef struct ulp_image {
	uint32_t width, height;
	uint8_t rgba[]; /* width * height * 4 bytes */
} ulp_image;

/* A new image, all pixels (0,0,0,0).  width and height must be in
 * 1..ULP_IMAGE_MAX_DIM.  On failure fills d and returns NULL. */
ulp_image *ulp_image_create(uint32_t width, uint32_t height, ulp_diag *d);
void ulp_image_free(ulp_image *img);               /* NULL is fine */
ulp_image *ulp_image_clone(const ulp_image *img, ulp_diag *d);

static inline size_t ulp_image_bytes(const ulp_image *img)
{
	return (size_t)img->width * img->height * 4u;
}

/* Pointer to the 4 bytes of pixel (x, y); no bounds check. */
static inline uint8_t *ulp_image_px(ulp_image *img, uint32_t x, uint32_t y)
{
	return img->rgba + ((size_t)y * img->width + x) * 4u;
}
static inline const uint8_t *ulp_image_cpx(const ulp_image *img, uint32_t x, uint32_t y)
{
	return img->rgba + ((size_t)y * img->width + x) * 4u;
}

/* Set every pixel to (r, g, b, a). */
void ulp_image_fill(ulp_image *img, uint8_t r, uint8_t g, uint8_t b, uint8_t a);

/* Decode a PNG held in memory; name is used in diagnostics only.  Bad,
 * truncated or non-PNG data fills d ("name: not a PNG file",
 * "name: byte N: truncated PNG ...", "name: byte N: bad PNG: <reason>") and
 * returns NULL; nothing is leaked. */
ulp_image *ulp_image_decode_png(const void *data, size_t len, const char *name, ulp_diag *d);

/* Read and decode the PNG file at path ("-" reads stdin). */
ulp_image *ulp_image_load_png(const char *path, ulp_diag *d);

/* Write img as a PNG to path ("-" writes stdout), atomically. */
bool ulp_image_save_png(const ulp_image *img, const char *path, ulp_diag *d);

#endif
