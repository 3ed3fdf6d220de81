/* Depth/stencil bytes between a Gallium resource's memory and the session
 * (traces/gl/gl_zs.h): the layouts round-trip, stencil where the format has it. */
#include <criterion/criterion.h>
#include <string.h>

#include "traces/gl/gl_zs.h"

Test(gl_zs, z24s8_round_trips_with_its_stencil_and_a_padded_stride)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	zs_surface *zs = zs_surface_create(3, 2, ZS_D24S8, &d);
	cr_assert(zs, "%s", d.msg);
	uint8_t mem[2][16];                          /* 3 texels of 4 bytes, a 16-byte stride */
	memset(mem, 0xEE, sizeof mem);
	for (unsigned y = 0; y < 2; y++)
		for (unsigned x = 0; x < 3; x++) {
			const uint32_t v = (uint32_t)(0x10 * (y * 3 + x) + 1) << 24 | (0x123456u + y * 3 + x);
			memcpy(&mem[y][4 * x], &v, 4);
		}
	ulp_gl_zs_copy(zs, &mem[0][0], 16, 3, 2, ULP_GL_Z24S8, true);
	cr_assert_eq(zs->depth[4], 0x123456u + 4, "depth of (1, 1): bits 0-23");
	cr_assert_eq(zs->stencil[4], 0x41, "stencil of (1, 1): bits 24-31");
	zs->depth[5] = 0xABCDEF;
	zs->stencil[5] = 7;
	ulp_gl_zs_copy(zs, &mem[0][0], 16, 3, 2, ULP_GL_Z24S8, false);
	uint32_t v;
	memcpy(&v, &mem[1][8], 4);
	cr_assert_eq(v, 0x07ABCDEFu);
	cr_assert_eq(mem[0][12], 0xEE, "the stride's padding is not written");
	zs_surface_free(zs);
}

Test(gl_zs, z16_and_z24x8)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	zs_surface *z16 = zs_surface_create(2, 1, ZS_D16, &d);
	cr_assert(z16);
	const uint16_t in16[2] = { 0x1234, 0xFFFF };
	ulp_gl_zs_copy(z16, (uint8_t *)in16, 4, 2, 1, ULP_GL_Z16, true);
	cr_assert(z16->depth[0] == 0x1234 && z16->depth[1] == 0xFFFF);
	zs_surface_free(z16);
	zs_surface *zs = zs_surface_create(1, 1, ZS_D24S8, &d);
	cr_assert(zs);
	const uint32_t x8 = 0xFF000010u;             /* the X8 byte is not a stencil */
	uint8_t m[4];
	memcpy(m, &x8, 4);
	ulp_gl_zs_copy(zs, m, 4, 1, 1, ULP_GL_Z24X8, true);
	cr_assert(zs->depth[0] == 0x10 && zs->stencil[0] == 0);
	zs->stencil[0] = 9;
	ulp_gl_zs_copy(zs, m, 4, 1, 1, ULP_GL_Z24X8, false);
	uint32_t back;
	memcpy(&back, m, 4);
	cr_assert_eq(back, 0x10u, "Z24X8 writes 0 in bits 24-31");
	zs_surface_free(zs);
}

Test(gl_zs, z24_sampled_as_its_top_16_bits)
{
	const uint32_t src[2][2] = { { 0xAA123456u, 0x00FFFFFFu }, { 0x00000000u, 0x5500FF80u } };
	uint16_t out[4];
	ulp_gl_z24_as_d16((const uint8_t *)src, 8, 2, 2, (uint8_t *)out);
	cr_assert(out[0] == 0x1234 && out[1] == 0xFFFF && out[2] == 0 && out[3] == 0x00FF, "%x %x %x %x", out[0], out[1],
	          out[2], out[3]);
}

/* Every format both ways on pseudo-random texels, a surface wider than the
 * copy and a padded stride: each texel is what the header says, and the
 * bytes outside the copy are not touched. */
Test(gl_zs, every_format_both_ways_texel_by_texel)
{
	enum { W = 7, H = 3, SW = 9, STRIDE = 4 * W + 5 };
	ulp_diag d;
	ulp_diag_clear(&d);
	uint32_t seed = 12345;
	for (int f = ULP_GL_Z16; f <= ULP_GL_Z24X8; f++) {
		zs_surface *zs = zs_surface_create(SW, H, f == ULP_GL_Z16 ? ZS_D16 : ZS_D24S8, &d);
		cr_assert(zs, "%s", d.msg);
		uint8_t mem[H][STRIDE];
		for (unsigned i = 0; i < sizeof mem; i++)
			(&mem[0][0])[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
		for (unsigned i = 0; i < SW * H; i++) {
			zs->depth[i] = 0xDEAD;
			if (zs->stencil)
				zs->stencil[i] = 0x5A;
		}
		ulp_gl_zs_copy(zs, &mem[0][0], STRIDE, W, H, (enum ulp_gl_zs_mem)f, true);
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < SW; x++) {
				const size_t i = (size_t)y * SW + x;
				if (x >= W) {
					cr_assert_eq(zs->depth[i], 0xDEADu, "(%u, %u) is outside the copy", x, y);
					continue;
				}
				uint32_t v = 0;
				memcpy(&v, &mem[y][f == ULP_GL_Z16 ? 2 * x : 4 * x], f == ULP_GL_Z16 ? 2 : 4);
				cr_assert_eq(zs->depth[i], f == ULP_GL_Z16 ? v : v & 0xFFFFFFu, "format %d (%u, %u)", f, x, y);
				if (zs->stencil)
					cr_assert_eq(zs->stencil[i], f == ULP_GL_Z24S8 ? v >> 24 : 0u, "format %d (%u, %u)", f, x, y);
			}
		uint8_t before[H][STRIDE];
		memcpy(before, mem, sizeof mem);
		for (unsigned i = 0; i < SW * H; i++) {
			zs->depth[i] = (seed = seed * 1103515245u + 12345u);
			if (zs->stencil)
				zs->stencil[i] = (uint8_t)(seed >> 24);
		}
		ulp_gl_zs_copy(zs, &mem[0][0], STRIDE, W, H, (enum ulp_gl_zs_mem)f, false);
		const unsigned bpp = f == ULP_GL_Z16 ? 2 : 4;
		for (unsigned y = 0; y < H; y++) {
			for (unsigned x = 0; x < W; x++) {
				const size_t i = (size_t)y * SW + x;
				uint32_t v = 0;
				memcpy(&v, &mem[y][bpp * x], bpp);
				const uint32_t want = f == ULP_GL_Z16 ? (uint16_t)zs->depth[i]
				                    : (zs->depth[i] & 0xFFFFFFu) |
				                      (f == ULP_GL_Z24S8 ? (uint32_t)zs->stencil[i] << 24 : 0u);
				cr_assert_eq(v, want, "format %d (%u, %u)", f, x, y);
			}
			cr_assert(!memcmp(&mem[y][bpp * W], &before[y][bpp * W], STRIDE - bpp * W),
			          "format %d: row %u's padding is not written", f, y);
		}
		zs_surface_free(zs);
	}
}
