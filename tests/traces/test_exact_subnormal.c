/* arith=exact flushes binary32 subnormals where the hardware flushes its
 * formats' (docs/exact.md "Subnormals"): PICA200 arithmetic operands and
 * results to +0 (CMP, MAX/MIN keep them, as float24's, pica200.md §2.2),
 * GR3D ALU/MFU results and binary32 operands (uniforms, immediates) to a
 * zero of their sign (FP20 has none, isa/fp20.h).  End to end: piglit's
 * fs-underflow-mul-compare-zero, whose 2^-61 * 2^-28 * 2^-61 rounds to the
 * binary32 subnormal 2^-149 and must compare as 0. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "isa/f24.h"
#include "tests/test_util.h"
#include "traces/piglit/piglit.h"
#include "units/gr3d/gr3d_quad.h"

static const f24_mode EXACT = { .exact = true };

Test(exact_subnormal, pica_results_and_operands_flush_to_plus_zero)
{
	const float tiny = ldexpf(1.0f, -140), half_min = FLT_MIN / 2;
	cr_assert_eq(f24_mul(ldexpf(1.0f, -70), ldexpf(1.0f, -70), &EXACT), 0.0f);
	cr_assert(!signbit(f24_mul(-ldexpf(1.0f, -70), ldexpf(1.0f, -70), &EXACT)), "+0, not -0");
	cr_assert_eq(f24_mul(ldexpf(1.0f, -63), ldexpf(1.0f, -63), &EXACT), FLT_MIN, "normal: kept");
	cr_assert_eq(f24_add(tiny, 1.0f, &EXACT), 1.0f);
	cr_assert_eq(f24_mul(tiny, ldexpf(1.0f, 100), &EXACT), 0.0f, "a subnormal operand reads as 0");
	cr_assert_eq(f24_rcp(half_min, &EXACT), INFINITY);
	cr_assert_eq(f24_max(half_min, 0.0f, &EXACT), half_min, "MAX does not flush");
	cr_assert(isnan(f24_add(NAN, 1.0f, &EXACT)));
	/* the default mode flushes float24's range, as before */
	cr_assert_eq(f24_mul(ldexpf(1.0f, -40), ldexpf(1.0f, -40), &F24_MODE_DEFAULT), 0.0f);
}

Test(exact_subnormal, gr3d_rounding_flushes_to_a_signed_zero)
{
	cr_assert_eq(gr3d_xround(ldexp(1.0, -149)), 0.0f);
	cr_assert(signbit(gr3d_xround(-ldexp(1.0, -140))), "-0 as FP20's flush");
	cr_assert_eq(gr3d_xround(ldexp(1.0, -126)), FLT_MIN);
	cr_assert_eq(gr3d_xround(ldexp(1.0, -126) * (1 - ldexp(1.0, -30))), FLT_MIN, "rounds up to normal: kept");
	cr_assert(isnan(gr3d_xround(NAN)));
	cr_assert_eq(gr3d_xround(1e300), INFINITY);
}

static const char VS[] =
	"VERT\n"
	"DCL IN[0]\n"
	"DCL OUT[0], POSITION\n"
	"  0: MOV OUT[0], IN[0]\n"
	"  1: END\n";

/* fs-underflow-mul-compare-zero: green when (0 < (|a| + e)(|b| + e)e) ==
 * (u.z != 0), e = 2^-61 */
static const char FS[] =
	"FRAG\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0]\n"
	"DCL TEMP[0..1]\n"
	"IMM[0] FLT32 {0x21000000, 0x00000000, 0x3f800000, 0x00000000}\n"
	"  0: ADD TEMP[0].x, |CONST[0][0].xxxx|, IMM[0].xxxx\n"
	"  1: ADD TEMP[1].x, |CONST[0][0].yyyy|, IMM[0].xxxx\n"
	"  2: MUL TEMP[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
	"  3: MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
	"  4: SLT TEMP[0].x, IMM[0].yyyy, TEMP[0].xxxx\n"
	"  5: SNE TEMP[1].x, CONST[0][0].zzzz, IMM[0].yyyy\n"
	"  6: SEQ TEMP[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
	"  7: MOV OUT[0].y, TEMP[0].xxxx\n"
	"  8: ADD OUT[0].x, IMM[0].zzzz, -TEMP[0].xxxx\n"
	"  9: MOV OUT[0].zw, IMM[0].yyyz\n"
	" 10: END\n";

static const char META[] =
	"{\"stages\": {\"vs\": {\"file\": \"vs.tgsi\", \"source\": \"glsl\", \"nir_vars\": ["
	"\"decl_var shader_in INTERP_MODE_NONE vec4 gl_Vertex (VERT_ATTRIB_POS.xyzw, 0, 0)\"]},"
	" \"fs\": {\"file\": \"fs.tgsi\", \"source\": \"glsl\", \"nir_vars\": ["
	"\"decl_var uniform INTERP_MODE_NONE vec4 u (0, 0, 0)\"]}}}\n";

Test(exact_subnormal, underflowing_product_compares_as_zero, .timeout = 60)
{
	/* the piglit test's three cases whose product underflows binary32
	 * (2^-150 and below: 2^-149 after rounding, or 0), expected 0 */
	static const char test[] =
		"==== piglit [test] section (verbatim) ====\n"
		"[test]\n"
		"uniform vec4 u 0.000000000000000000433681 0.0000000037252902984619140625 0 0\n"
		"draw rect -1 -1 1 1\n"
		"uniform vec4 u 0.000000000000028421709430404007434844970703125 "
		"0.00000000000005684341886080801486968994140625 0 0\n"
		"draw rect 0 -1 1 1\n"
		"uniform vec4 u 0.000000000000000000433681 0.000000000000000000433681 0 0\n"
		"draw rect -1 0 1 1\n"
		"uniform vec4 u 1 1 1 0\n"
		"draw rect 0 0 1 1\n"
		"probe all rgba 0 1 0 1\n"
		"==== original piglit file underflow.shader_test (verbatim) ====\n";
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *f[4] = { test_write_file(dir, "vs.tgsi", VS), test_write_file(dir, "fs.tgsi", FS),
	               test_write_file(dir, "test.txt", test), test_write_file(dir, "meta.json", META) };
	pg_result r;
	pg_run_opts o = { .run_sim = true, .run_exact = true };
	pg_run_test(dir, &o, &r);
	cr_assert_eq(r.exact.status, PG_PASS, "exact %s: %s", pg_status_name(r.exact.status), r.exact.reason);
	pg_result_free(&r);
	for (int k = 0; k < 4; k++) {
		remove(f[k]);
		free(f[k]);
	}
	remove(dir);
	free(dir);
}
