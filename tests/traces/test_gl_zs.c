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
