/* Depth/stencil bytes between host memory and the session (gl_zs.h). */
#include "traces/gl/gl_zs.h"

#include <string.h>

/* One row of w texels each way, the format decided once a row and four
 * texels at a time in the compiler's vector types (GCC and Clang): a
 * per-texel test of the format and the direction, in scalar loops, cost
 * glmark2's frames 2 to 4 % of their time in `ulpsim gl` (perf, session
 * 11).  Words are read and written with memcpy, in host order, as before. */
typedef uint32_t zs_u32x4 __attribute__((vector_size(16)));
typedef uint8_t zs_u8x4 __attribute__((vector_size(4)));

static void row_in(zs_surface *zs, const uint8_t *row, size_t i, unsigned w, enum ulp_gl_zs_mem f)
{
	uint32_t *depth = zs->depth + i;
	if (f == ULP_GL_Z16) {
		for (unsigned x = 0; x < w; x++) {
			uint16_t v;
			memcpy(&v, row + 2 * x, 2);
			depth[x] = v;
		}
		return;
	}
	uint8_t *stencil = zs->stencil ? zs->stencil + i : NULL;
	const uint32_t smask = f == ULP_GL_Z24S8 ? 0xFFu : 0u;   /* Z24X8 reads stencil 0 */
	unsigned x = 0;
	for (; x + 4 <= w; x += 4) {
		zs_u32x4 v;
		memcpy(&v, row + 4 * x, sizeof v);
		const zs_u32x4 d = v & 0xFFFFFFu;
		memcpy(&depth[x], &d, sizeof d);
		if (stencil) {
			const zs_u8x4 st = __builtin_convertvector((v >> 24) & smask, zs_u8x4);
			memcpy(&stencil[x], &st, sizeof st);
		}
	}
	for (; x < w; x++) {
		uint32_t v;
		memcpy(&v, row + 4 * x, 4);
		depth[x] = v & 0xFFFFFFu;
		if (stencil)
			stencil[x] = (uint8_t)((v >> 24) & smask);
	}
}

static void row_out(const zs_surface *zs, uint8_t *row, size_t i, unsigned w, enum ulp_gl_zs_mem f)
{
	const uint32_t *depth = zs->depth + i;
	if (f == ULP_GL_Z16) {
		for (unsigned x = 0; x < w; x++) {
			const uint16_t v = (uint16_t)depth[x];
			memcpy(row + 2 * x, &v, 2);
		}
		return;
	}
	const uint8_t *stencil = f == ULP_GL_Z24S8 && zs->stencil ? zs->stencil + i : NULL;
	unsigned x = 0;
	for (; x + 4 <= w; x += 4) {
		zs_u32x4 d;
		memcpy(&d, &depth[x], sizeof d);
		d &= 0xFFFFFFu;
		if (stencil) {
			zs_u8x4 st;
			memcpy(&st, &stencil[x], sizeof st);
			d |= __builtin_convertvector(st, zs_u32x4) << 24;
		}
		memcpy(row + 4 * x, &d, sizeof d);
	}
	for (; x < w; x++) {
		const uint32_t v = (depth[x] & 0xFFFFFFu) | (stencil ? (uint32_t)stencil[x] << 24 : 0u);
		memcpy(row + 4 * x, &v, 4);
	}
}

void ulp_gl_zs_copy(zs_surface *zs, uint8_t *mem, unsigned stride, unsigned w, unsigned h, enum ulp_gl_zs_mem f,
                    bool in)
{
	if (w > zs->width)
		w = zs->width;
	if (h > zs->height)
		h = zs->height;
	for (unsigned y = 0; y < h; y++) {
		uint8_t *row = mem + (size_t)y * stride;
		const size_t i = (size_t)y * zs->width;
		if (in)
			row_in(zs, row, i, w, f);
		else
			row_out(zs, row, i, w, f);
	}
}

void ulp_gl_z24_as_d16(const uint8_t *src, unsigned stride, unsigned w, unsigned h, uint8_t *dst)
{
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint32_t v;
			memcpy(&v, src + (size_t)y * stride + 4 * x, 4);
			const uint16_t d = (uint16_t)((v & 0xFFFFFFu) >> 8);
			memcpy(dst + ((size_t)y * w + x) * 2, &d, 2);
		}
}
