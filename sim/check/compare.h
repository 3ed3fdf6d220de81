/* Golden-image comparison of two RGBA8 images of the same size
 * (docs/compare.md).
 *
 * Per pixel, m = the largest absolute difference over its four channels
 * (R, G, B and A all count).  The result gives
 *   max_diff        the largest m over the image (0..255);
 *   differing       pixels with m > 0;
 *   over_tolerance  pixels with m > tolerance (the pass/fail count);
 *   mse, psnr_db    MSE = sum of squared channel differences / (4 * pixels),
 *                   PSNR = 10 * log10(255^2 / MSE) dB; identical images have
 *                   MSE 0 and PSNR +INFINITY (test with ulp_compare_identical
 *                   or isinf, never by comparing to a large number).
 *
 * The optional diff image has the size of the inputs and is opaque:
 *   m == 0                black (0,0,0);
 *   0 < m <= tolerance    blue (0, 0, 64 + round(191 * m / 255)): tolerated;
 *   m > tolerance         a heat ramp: s = 64 + round(701 * m / 255),
 *                         R = min(s, 255), G = clamp(s - 255, 0, 255),
 *                         B = clamp(s - 510, 0, 255); dark red for m = 1,
 *                         through red and yellow to white for m = 255. */
#ifndef ULP_SIM_COMPARE_H
#define ULP_SIM_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/image.h"

typedef struct ulp_compare_result {
	unsigned tolerance;        /* as passed */
	unsigned max_diff;         /* 0..255 */
	uint32_t max_x, max_y;     /* first pixel (row-major) with m == max_diff */
	uint64_t pixels;           /* width * height */
	uint64_t differing;        /* pixels with m > 0 */
	uint64_t over_tolerance;   /* pixels with m > tolerance */
	double mse;                /* over all 4 channels, in 8-bit units squared */
	double psnr_db;            /* +INFINITY when mse == 0 */
} ulp_compare_result;

/* Compare a with b.  tolerance is a per-channel difference (0..255) that a
 * pixel may show and still pass.  When diff is non-NULL, *diff receives a new
 * image (free with ulp_image_free) as described above.  Different sizes or an
 * out-of-range tolerance fill d and return false. */
bool ulp_compare_images(const ulp_image *a, const ulp_image *b, unsigned tolerance,
                        ulp_compare_result *res, ulp_image **diff, ulp_diag *d);

static inline bool ulp_compare_identical(const ulp_compare_result *r)
{
	return r->differing == 0;
}

/* The colour the diff image uses for a pixel with channel difference m. */
void ulp_compare_diff_colour(unsigned m, unsigned tolerance, uint8_t rgba[4]);

#endif
