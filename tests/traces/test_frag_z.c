/* gl_FragCoord.z on the Tegra backend (frontends/tegra/tegra_lower.c
 * frag_z): the POSITION row's z interpolated by the MFU, times r4's 1/w,
 * mapped to the depth range [0, 1].  A rect whose w and z change across it
 * (so perspective-correct and screen-linear interpolation differ) drawn
 * through the piglit harness: the simulator's image, in hw and exact mode,
 * against the f32 reference's, which takes gl_FragCoord.z from the
 * rasterizer. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"
#include "traces/piglit/piglit.h"

/* w = 1.75 + 0.5 x + 0.25 y in [1, 2.5]; z/w = 0.6 x - 0.3 y */
static const char VS[] =
	"VERT\n"
	"DCL IN[0]\n"
	"DCL OUT[0], POSITION\n"
	"DCL TEMP[0]\n"
	"IMM[0] FLT32 {0x3f000000, 0x3e800000, 0x3fe00000, 0x3f19999a}\n"
	"IMM[1] FLT32 {0xbe99999a, 0x00000000, 0x00000000, 0x00000000}\n"
	"  0: MAD TEMP[0].w, IN[0].xxxx, IMM[0].xxxx, IMM[0].zzzz\n"
	"  1: MAD TEMP[0].w, IN[0].yyyy, IMM[0].yyyy, TEMP[0].wwww\n"
	"  2: MUL TEMP[0].z, IN[0].xxxx, IMM[0].wwww\n"
	"  3: MAD TEMP[0].z, IN[0].yyyy, IMM[1].xxxx, TEMP[0].zzzz\n"
	"  4: MOV TEMP[0].xy, IN[0].xyxx\n"
	"  5: MUL OUT[0].xyz, TEMP[0].xyzz, TEMP[0].wwww\n"
	"  6: MOV OUT[0].w, TEMP[0].wwww\n"
	"  7: END\n";

/* colour = (z, 0, z, 1) */
static const char FS[] =
	"FRAG\n"
	"PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
	"PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER\n"
	"DCL IN[0], POSITION, LINEAR\n"
	"DCL OUT[0], COLOR\n"
	"IMM[0] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x00000000}\n"
	"  0: MOV OUT[0].xz, IN[0].zzzz\n"
	"  1: MOV OUT[0].yw, IMM[0].yyyx\n"
	"  2: END\n";

/* z at the centre of pixel (125, 125): x = y = 0.004 -> 0.5 + 0.5 * 0.0012 */
static const char TEST[] =
	"==== piglit [test] section (verbatim) ====\n"
	"[test]\n"
	"draw rect -1 -1 2 2\n"
	"probe rgba 125 125 0.5006 0.0 0.5006 1.0\n"
	"probe rgba 10 240 0.0866 0.0 0.0866 1.0\n"
	"==== original piglit file frag_z.shader_test (verbatim) ====\n";

static const char META[] =
	"{\"stages\": {\"vs\": {\"file\": \"vs.tgsi\", \"source\": \"glsl\", \"nir_vars\": ["
	"\"decl_var shader_in INTERP_MODE_NONE vec4 gl_Vertex (VERT_ATTRIB_POS.xyzw, 0, 0)\"]},"
	" \"fs\": {\"file\": \"fs.tgsi\", \"source\": \"glsl\", \"nir_vars\": []}}}\n";

static unsigned max_diff(const ulp_image *a, const ulp_image *b)
{
	unsigned m = 0;
	for (size_t i = 0; i < (size_t)a->width * a->height * 4; i++) {
		int d = abs((int)a->rgba[i] - (int)b->rgba[i]);
		m = (unsigned)d > m ? (unsigned)d : m;
	}
	return m;
}

Test(frag_z, tegra_backend_matches_reference, .timeout = 60)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *f[4] = { test_write_file(dir, "vs.tgsi", VS), test_write_file(dir, "fs.tgsi", FS),
	               test_write_file(dir, "test.txt", TEST), test_write_file(dir, "meta.json", META) };
	pg_result r;
	pg_run_opts o = { .run_sim = true, .run_ref = true, .run_exact = true };
	pg_run_test(dir, &o, &r);
	cr_assert_eq(r.ref.status, PG_PASS, "reference %s: %s", pg_status_name(r.ref.status), r.ref.reason);
	cr_assert_eq(r.sim.status, PG_PASS, "sim %s: %s", pg_status_name(r.sim.status), r.sim.reason);
	cr_assert_eq(r.exact.status, PG_PASS, "exact %s: %s", pg_status_name(r.exact.status), r.exact.reason);
	cr_assert(r.sim.image && r.ref.image && r.exact.image);
	unsigned dh = max_diff(r.sim.image, r.ref.image), dx = max_diff(r.exact.image, r.ref.image);
	cr_log_info("frag_z: hw max diff %u, exact max diff %u (of 255)", dh, dx);
	cr_assert_leq(dh, 1, "hw: max channel difference %u", dh);
	cr_assert_leq(dx, 1, "exact: max channel difference %u", dx);
	pg_result_free(&r);
	for (unsigned k = 0; k < 4; k++) {
		remove(f[k]);
		free(f[k]);
	}
	remove(dir);
	free(dir);
}
