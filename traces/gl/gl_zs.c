/* Depth/stencil bytes between host memory and the session (gl_zs.h). */
#include "traces/gl/gl_zs.h"

#include <string.h>

void ulp_gl_zs_copy(zs_surface *zs, uint8_t *mem, unsigned stride, unsigned w, unsigned h, enum ulp_gl_zs_mem f,
                    bool in)
{
	if (w > zs->width)
		w = zs->width;
	if (h > zs->height)
		h = zs->height;
	for (unsigned y = 0; y < h; y++) {
		uint8_t *row = mem + (size_t)y * stride;
		for (unsigned x = 0; x < w; x++) {
			const size_t i = (size_t)y * zs->width + x;
			if (f == ULP_GL_Z16) {
				uint16_t v;
				if (in) {
					memcpy(&v, row + 2 * x, 2);
					zs->depth[i] = v;
				} else {
					v = (uint16_t)zs->depth[i];
					memcpy(row + 2 * x, &v, 2);
				}
				continue;
			}
			uint32_t v;
			if (in) {
				memcpy(&v, row + 4 * x, 4);
				zs->depth[i] = v & 0xFFFFFFu;
				if (zs->stencil)
					zs->stencil[i] = f == ULP_GL_Z24S8 ? (uint8_t)(v >> 24) : 0;
			} else {
				v = (zs->depth[i] & 0xFFFFFFu) |
				    (f == ULP_GL_Z24S8 && zs->stencil ? (uint32_t)zs->stencil[i] << 24 : 0);
				memcpy(row + 4 * x, &v, 4);
			}
		}
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
