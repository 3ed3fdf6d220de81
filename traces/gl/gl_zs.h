/* Depth/stencil bytes between a Gallium resource's host memory and the
 * session (frontends/gallium/ulpsim_state.c, docs/gl.md "Formats"):
 * Mesa-free, tested by the Criterion suite.  Memory layouts are Gallium's
 * (little-endian): Z16_UNORM a 16-bit depth; Z24_UNORM_S8_UINT and
 * Z24X8_UNORM the depth in bits 0-23, the stencil (or nothing) in 24-31.
 * Row y of memory is row y of the session's surface (both the driver's
 * colour and depth copies keep the row order). */
#ifndef ULP_TRACES_GL_ZS_H
#define ULP_TRACES_GL_ZS_H

#include <stdbool.h>
#include <stdint.h>

#include "units/gr3d/zs.h"

enum ulp_gl_zs_mem { ULP_GL_Z16, ULP_GL_Z24S8, ULP_GL_Z24X8 };

/* w x h texels (stride bytes a row) into the session's surface (in) or
 * back into memory.  Z24X8 reads stencil 0 and writes 0 in bits 24-31. */
void ulp_gl_zs_copy(zs_surface *zs, uint8_t *mem, unsigned stride, unsigned w, unsigned h, enum ulp_gl_zs_mem f,
                    bool in);

/* w x h Z24S8 / Z24X8 texels (stride bytes a row) as D16 texels, tightly
 * packed: the depth's top 16 bits (how the TEX unit samples a D24S8
 * surface: it models no 24-bit texel, and its depth path keeps fewer than
 * 16 bits, D16 -> FX10). */
void ulp_gl_z24_as_d16(const uint8_t *src, unsigned stride, unsigned w, unsigned h, uint8_t *dst);

#endif
