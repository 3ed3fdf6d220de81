/* piglit's probes: per-channel tolerance 3/256 for 8-bit channels
 * (piglit_set_tolerance_for_bits), window coordinates with y up,
 * `relative` coordinates scaled by the framebuffer size and truncated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "traces/piglit/piglit.h"
#include "traces/piglit/piglit_int.h"

/* Probe coordinates are clamped to this before the conversion; a pixel
 * outside the image fails the probe (pixel()), so the loops stay bounded. */
#define COORD_MAX 65536

static const float TOL = 3.0f / 256.0f;
static const float DEPTH_TOL = 0.01f;

static bool pixel(const pg_cmd *c, const ulp_image *img, const float *depth, int x, int y,
                  const float *exp, unsigned ncomp, pg_probe_result *r)
{
	if (x < 0 || y < 0 || x >= (int)img->width || y >= (int)img->height) {
		r->pass = false;
		r->x = x;
		r->y = y;
		return false;
	}
	float got[4];
	if (c->probe == PG_PROBE_DEPTH) {
		got[0] = depth ? depth[(size_t)y * img->width + (size_t)x] : NAN;
	} else {
		const uint8_t *p = ulp_image_cpx(img, (uint32_t)x, img->height - 1 - (uint32_t)y);
		for (int k = 0; k < 4; k++)
			got[k] = (float)p[k] / 255.0f;
	}
	for (unsigned k = 0; k < ncomp; k++) {
		float tol = c->probe == PG_PROBE_DEPTH ? DEPTH_TOL : TOL;
		if (!(fabsf(got[k] - exp[k]) <= tol)) {
			r->pass = false;
			r->x = x;
			r->y = y;
			memcpy(r->expected, exp, ncomp * sizeof *exp);
			memcpy(r->got, got, ncomp * sizeof *got);
			return false;
		}
	}
	return true;
}

static int coord(float v)
{
	return pg_trunc(v, -COORD_MAX, COORD_MAX);
}

bool pg_probe_check(const pg_cmd *c, const ulp_image *img, const float *depth,
                    pg_probe_result *r)
{
	memset(r, 0, sizeof *r);
	r->pass = true;
	r->line = c->line;
	snprintf(r->text, sizeof r->text, "%s", c->text);
	int x0 = 0, y0 = 0, w = (int)img->width, h = (int)img->height;
	const float *exp;
	unsigned ncomp = c->rgba ? 4 : 3;
	switch (c->probe) {
	case PG_PROBE_ALL:
		exp = c->v;
		break;
	case PG_PROBE_RECT:
		x0 = coord(c->v[0]);
		y0 = coord(c->v[1]);
		w = coord(c->v[2]);
		h = coord(c->v[3]);
		if (c->relative) {
			x0 = coord(c->v[0] * (float)img->width);
			y0 = coord(c->v[1] * (float)img->height);
			w = coord(c->v[2] * (float)img->width);
			h = coord(c->v[3] * (float)img->height);
		}
		exp = c->v + 4;
		break;
	case PG_PROBE_DEPTH:
		ncomp = 1;
		/* fall through */
	default:
		if (c->relative) {
			/* shader_runner clamps relative probes into the framebuffer */
			x0 = coord(c->v[0] * (float)img->width);
			y0 = coord(c->v[1] * (float)img->height);
			if (x0 >= (int)img->width)
				x0 = (int)img->width - 1;
			if (y0 >= (int)img->height)
				y0 = (int)img->height - 1;
		} else {
			x0 = coord(c->v[0]);
			y0 = coord(c->v[1]);
		}
		w = h = 1;
		exp = c->v + 2;
		break;
	}
	r->ncomp = ncomp;
	memcpy(r->expected, exp, ncomp * sizeof *exp);
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++)
			if (!pixel(c, img, depth, x, y, exp, ncomp, r))
				return false;
	return true;
}
