/* Golden-image comparison (sim/check/compare.h, docs/compare.md). */
#include "sim/check/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

static uint8_t clamp255(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void ulp_compare_diff_colour(unsigned m, unsigned tolerance, uint8_t rgba[4])
{
	rgba[0] = rgba[1] = rgba[2] = 0;
	rgba[3] = 255;
	if (m == 0)
		return;
	if (m > 255)
		m = 255;
	if (m <= tolerance) {
		rgba[2] = (uint8_t)(64 + (191 * m + 127) / 255);
		return;
	}
	int s = (int)(64 + (701 * m + 127) / 255);
	rgba[0] = clamp255(s);
	rgba[1] = clamp255(s - 255);
	rgba[2] = clamp255(s - 510);
}

static unsigned absdiff(uint8_t x, uint8_t y)
{
	return x > y ? (unsigned)(x - y) : (unsigned)(y - x);
}

bool ulp_compare_images(const ulp_image *a, const ulp_image *b, unsigned tolerance,
                        ulp_compare_result *res, ulp_image **diff, ulp_diag *d)
{
	if (diff)
		*diff = NULL;
	if (a->width != b->width || a->height != b->height)
		return ulp_diag_at(d, NULL, 0, 0,
		                   "image sizes differ: %" PRIu32 "x%" PRIu32 " vs %" PRIu32 "x%" PRIu32,
		                   a->width, a->height, b->width, b->height);
	if (tolerance > 255)
		return ulp_diag_at(d, NULL, 0, 0, "tolerance %u is out of range (0..255)", tolerance);
	ulp_image *out = NULL;
	if (diff) {
		out = ulp_image_create(a->width, a->height, d);
		if (!out)
			return false;
	}

	ulp_compare_result r = { .tolerance = tolerance };
	r.pixels = (uint64_t)a->width * a->height;
	uint64_t sumsq = 0; /* at most 4 * 2^28 * 255^2 < 2^47 */
	for (uint32_t y = 0; y < a->height; y++) {
		const uint8_t *pa = ulp_image_cpx(a, 0, y), *pb = ulp_image_cpx(b, 0, y);
		for (uint32_t x = 0; x < a->width; x++, pa += 4, pb += 4) {
			unsigned m = 0;
			for (int c = 0; c < 4; c++) {
				unsigned dc = absdiff(pa[c], pb[c]);
				sumsq += (uint64_t)dc * dc;
				if (dc > m)
					m = dc;
			}
			if (m > r.max_diff) {
				r.max_diff = m;
				r.max_x = x;
				r.max_y = y;
			}
			r.differing += m > 0;
			r.over_tolerance += m > tolerance;
			if (out)
				ulp_compare_diff_colour(m, tolerance, ulp_image_px(out, x, y));
		}
	}
	r.mse = (double)sumsq / (4.0 * (double)r.pixels);
	r.psnr_db = sumsq == 0 ? INFINITY : 10.0 * log10(255.0 * 255.0 / r.mse);
	*res = r;
	if (diff)
		*diff = out;
	return true;
}
