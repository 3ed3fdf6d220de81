/* The Tegra backend's embedded constants (frontends/tegra/tegra_emit.c):
 * encoded as the driver encodes a uniform (truncation, so `u == 7.9656`
 * holds for a uniform and an immediate of the same float, piglit's
 * uniform-initializer tests), and carried beside the program as the
 * binary32 they came from, which arith=exact reads (docs/exact.md; piglit's
 * fs-degrees/radians/exp/log tests).  Through the piglit harness (the
 * replay's constant_buffer, as the Gallium driver's) and on the compile
 * result itself.  The PICA200 side likewise: an immediate's constant
 * register is float24 in the SHBIN and binary32 in exact mode. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "tests/test_util.h"
#include "traces/piglit/piglit.h"

static const char VS[] =
	"VERT\n"
	"DCL IN[0]\n"
	"DCL OUT[0], POSITION\n"
	"  0: MOV OUT[0], IN[0]\n"
	"  1: END\n";

/* green when u.x == 7.9656 (an immediate whose FP20 nearest rounding and
 * truncation differ: mantissa 0x7ee632, low 10 bits 0x232 > 0x200), else red */
static const char FS_EQ[] =
	"FRAG\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0]\n"
	"DCL TEMP[0]\n"
	"IMM[0] FLT32 {0x40fee632, 0x3f800000, 0x00000000, 0x00000000}\n"
	"  0: SEQ TEMP[0].x, CONST[0][0].xxxx, IMM[0].xxxx\n"
	"  1: MOV OUT[0].y, TEMP[0].xxxx\n"
	"  2: ADD OUT[0].x, IMM[0].yyyy, -TEMP[0].xxxx\n"
	"  3: MOV OUT[0].zw, IMM[0].zzzy\n"
	"  4: END\n";

/* red = 1000 |u.x * 57.29578 - u.y| with u.y the binary32 product of
 * u.x = 0.7 and 57.29578 (degrees()' constant): FP20's error in hw, 0 with
 * the immediate's binary32 in exact mode */
static const char FS_DEG[] =
	"FRAG\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0]\n"
	"DCL TEMP[0]\n"
	"IMM[0] FLT32 {0x42652ee1, 0x447a0000, 0x00000000, 0x3f800000}\n"
	"  0: MUL TEMP[0].x, CONST[0][0].xxxx, IMM[0].xxxx\n"
	"  1: ADD TEMP[0].x, TEMP[0].xxxx, -CONST[0][0].yyyy\n"
	"  2: MUL TEMP[0].x, |TEMP[0].xxxx|, IMM[0].yyyy\n"
	"  3: MOV OUT[0].x, TEMP[0].xxxx\n"
	"  4: MOV OUT[0].yzw, IMM[0].zzzw\n"
	"  5: END\n";

static const char META[] =
	"{\"stages\": {\"vs\": {\"file\": \"vs.tgsi\", \"source\": \"glsl\", \"nir_vars\": ["
	"\"decl_var shader_in INTERP_MODE_NONE vec4 gl_Vertex (VERT_ATTRIB_POS.xyzw, 0, 0)\"]},"
	" \"fs\": {\"file\": \"fs.tgsi\", \"source\": \"glsl\", \"nir_vars\": ["
	"\"decl_var uniform INTERP_MODE_NONE vec4 u (0, 0, 0)\"]}}}\n";

static void run(const char *fs, const char *test, pg_result *r)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *f[4] = { test_write_file(dir, "vs.tgsi", VS), test_write_file(dir, "fs.tgsi", fs),
	               test_write_file(dir, "test.txt", test), test_write_file(dir, "meta.json", META) };
	pg_run_opts o = { .run_sim = true, .run_ref = true, .run_exact = true };
	pg_run_test(dir, &o, r);
	for (int k = 0; k < 4; k++) {
		remove(f[k]);
		free(f[k]);
	}
	remove(dir);
	free(dir);
}

Test(exact_imm, uniform_equals_immediate_of_the_same_float, .timeout = 60)
{
	static const char test[] =
		"==== piglit [test] section (verbatim) ====\n"
		"[test]\n"
		"uniform vec4 u 7.9656 0 0 0\n"
		"draw rect -1 -1 2 2\n"
		"probe all rgba 0 1 0 1\n"
		"==== original piglit file eq.shader_test (verbatim) ====\n";
	pg_result r;
	run(FS_EQ, test, &r);
	cr_assert_eq(r.ref.status, PG_PASS, "reference %s: %s", pg_status_name(r.ref.status), r.ref.reason);
	cr_assert_eq(r.sim.status, PG_PASS, "hw %s: %s", pg_status_name(r.sim.status), r.sim.reason);
	cr_assert_eq(r.exact.status, PG_PASS, "exact %s: %s", pg_status_name(r.exact.status), r.exact.reason);
	pg_result_free(&r);
}

Test(exact_imm, exact_mode_reads_the_immediates_binary32, .timeout = 60)
{
	static const char test[] =
		"==== piglit [test] section (verbatim) ====\n"
		"[test]\n"
		"uniform vec4 u 0.7 40.1070442 0 0\n"
		"draw rect -1 -1 2 2\n"
		"probe all rgba 0 0 0 1\n"
		"==== original piglit file deg.shader_test (verbatim) ====\n";
	pg_result r;
	run(FS_DEG, test, &r);
	cr_assert_eq(r.ref.status, PG_PASS, "reference %s: %s", pg_status_name(r.ref.status), r.ref.reason);
	cr_assert_eq(r.sim.status, PG_FAIL, "hw: FP20's error in 57.29578 shows (%s)", pg_status_name(r.sim.status));
	cr_assert_eq(r.exact.status, PG_PASS, "exact %s: %s", pg_status_name(r.exact.status), r.exact.reason);
	pg_result_free(&r);
}

/* The compile result's table: the immediate's binary32 for the packet or
 * the FP_CONST word that holds it, and tegra_fp_apply_ximm gives it to that packet only while the
 * packet's words are the compiled ones. */
Test(exact_imm, compile_result_table)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(FS_DEG, strlen(FS_DEG), "deg", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	tegra_compile_result *res = calloc(1, sizeof *res);
	cr_assert(res);
	cr_assert(tegra_compile(sh, "deg", res), "%s", res->d.msg);
	const tegra_fp_ximm *x = &res->ximm;
	cr_assert_eq(x->count, res->prog.alu_packet_count);
	unsigned found = 0;
	for (unsigned p = 0; p < x->count; p++)
		for (unsigned k = 0; k < 4; k++)
			for (unsigned j = 0; j < 3; j++)
				if (x->mask[p] >> (3 * k + j) & 1u) {
					cr_assert(x->k[p][k][j] == 57.29578f || x->k[p][k][j] == 1000.0f,
					          "packet %u slot %u source %u = %g", p, k, j, (double)x->k[p][k][j]);
					found += x->k[p][k][j] == 57.29578f;
				}
	/* the scheduler may move a packet's constant to an FP_CONST word when
	 * the packet's slot 3 is taken (docs/compiler.md): its binary32 is then
	 * kept per word */
	for (unsigned u = 0; u < TEGRA_FP_NUM_CONST; u++)
		if (x->umask >> u & 1u)
			found += x->uk[u] == 57.29578f;
	cr_assert_eq(found, 1, "57.29578 is in the table once");
	tegra_fp_decoded *dec = calloc(1, sizeof *dec);
	cr_assert(dec);
	cr_assert(tegra_fp_decode(&res->prog, dec, "deg", &d), "%s", d.msg);
	tegra_fp_apply_ximm(dec, x);
	unsigned applied = 0;
	for (unsigned e = 0; e < dec->exec_count; e++)
		for (unsigned k = 0; k < dec->exec[e].alu_sched.count; k++)
			applied += dec->exec[e].alu[k].xmask != 0;
	cr_assert_geq(applied, 1);
	/* a packet whose words changed (another program in the registers) keeps none */
	tegra_fp_ximm *y = malloc(sizeof *y);
	cr_assert(y);
	*y = *x;
	for (unsigned p = 0; p < y->count; p++)
		y->words[p][0] ^= 1u;
	tegra_fp_apply_ximm(dec, y);
	for (unsigned e = 0; e < dec->exec_count; e++)
		for (unsigned k = 0; k < dec->exec[e].alu_sched.count; k++)
			cr_assert_eq(dec->exec[e].alu[k].xmask, 0);
	free(y);
	free(dec);
	tegra_compile_result_free(res);
	free(res);
	tgsi_shader_free(sh);
}

/* A varying the vertex shader fills from an immediate (1.1, which float24
 * and FP20 cannot hold) compared for equality with a uniform of the same
 * float (piglit's fs-input-array-vec2-index-rd): in hw both sides end as
 * the same truncated FP20 (truncating to float24 then to FP20 is truncating
 * to FP20); in exact mode it passes only when the PICA200's constant
 * register holds the immediate's binary32 (it held the float24 before). */
Test(exact_imm, vertex_immediate_reaches_the_fragment_shader_exactly, .timeout = 60)
{
	static const char vs[] =
		"VERT\n"
		"DCL IN[0]\n"
		"DCL OUT[0], POSITION\n"
		"DCL OUT[1], GENERIC[9]\n"
		"IMM[0] FLT32 {0x3f8ccccd, 0x00000000, 0x00000000, 0x3f800000}\n"
		"  0: MOV OUT[0], IN[0]\n"
		"  1: MOV OUT[1], IMM[0]\n"
		"  2: END\n";
	static const char fs[] =
		"FRAG\n"
		"DCL IN[0], GENERIC[9], PERSPECTIVE\n"
		"DCL OUT[0], COLOR\n"
		"DCL CONST[0][0]\n"
		"DCL TEMP[0]\n"
		"IMM[0] FLT32 {0x3f800000, 0x00000000, 0x00000000, 0x00000000}\n"
		"  0: SEQ TEMP[0].x, IN[0].xxxx, CONST[0][0].xxxx\n"
		"  1: MOV OUT[0].y, TEMP[0].xxxx\n"
		"  2: ADD OUT[0].x, IMM[0].xxxx, -TEMP[0].xxxx\n"
		"  3: MOV OUT[0].zw, IMM[0].yyyx\n"
		"  4: END\n";
	static const char test[] =
		"==== piglit [test] section (verbatim) ====\n"
		"[test]\n"
		"uniform vec4 u 1.1 0 0 0\n"
		"draw rect -1 -1 2 2\n"
		"probe all rgba 0 1 0 1\n"
		"==== original piglit file vsimm.shader_test (verbatim) ====\n";
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *f[4] = { test_write_file(dir, "vs.tgsi", vs), test_write_file(dir, "fs.tgsi", fs),
	               test_write_file(dir, "test.txt", test), test_write_file(dir, "meta.json", META) };
	pg_result r;
	pg_run_opts o = { .run_sim = true, .run_ref = true, .run_exact = true };
	pg_run_test(dir, &o, &r);
	cr_assert_eq(r.ref.status, PG_PASS, "reference %s: %s", pg_status_name(r.ref.status), r.ref.reason);
	cr_assert_eq(r.sim.status, PG_PASS, "hw %s: %s", pg_status_name(r.sim.status), r.sim.reason);
	cr_assert_eq(r.exact.status, PG_PASS, "exact %s: %s", pg_status_name(r.exact.status), r.exact.reason);
	pg_result_free(&r);
	for (int k = 0; k < 4; k++) {
		remove(f[k]);
		free(f[k]);
	}
	remove(dir);
	free(dir);
}

/* A constant the Tegra backend folds at compile time (tfp_fold: `1.1 + i`
 * in a loop it unrolls, piglit's vs-output-array-vec2-index-wr) compared
 * for equality with the vertex shader's 1.1 + 2 through a varying: in
 * exact mode the fold must be exact mode's binary32 sum (the PICA200's sum
 * there), not the FP20 result the ALU would give in hw. */
Test(exact_imm, folded_constant_carries_its_binary32_fold, .timeout = 60)
{
	static const char vs[] =
		"VERT\n"
		"DCL IN[0]\n"
		"DCL OUT[0], POSITION\n"
		"DCL OUT[1], GENERIC[9]\n"
		"DCL TEMP[0]\n"
		"IMM[0] FLT32 {0x3f8ccccd, 0x40000000, 0x00000000, 0x3f800000}\n"
		"  0: MOV OUT[0], IN[0]\n"
		"  1: MOV TEMP[0], IMM[0].yyyy\n"
		"  2: ADD OUT[1], IMM[0].xxxx, TEMP[0]\n"
		"  3: END\n";
	static const char fs[] =
		"FRAG\n"
		"DCL IN[0], GENERIC[9], PERSPECTIVE\n"
		"DCL OUT[0], COLOR\n"
		"DCL TEMP[0]\n"
		"IMM[0] FLT32 {0x3f8ccccd, 0x40000000, 0x00000000, 0x3f800000}\n"
		"  0: ADD TEMP[0].x, IMM[0].xxxx, IMM[0].yyyy\n"
		"  1: SEQ TEMP[0].x, IN[0].xxxx, TEMP[0].xxxx\n"
		"  2: MOV OUT[0].y, TEMP[0].xxxx\n"
		"  3: ADD OUT[0].x, IMM[0].wwww, -TEMP[0].xxxx\n"
		"  4: MOV OUT[0].zw, IMM[0].zzzw\n"
		"  5: END\n";
	static const char test[] =
		"==== piglit [test] section (verbatim) ====\n"
		"[test]\n"
		"draw rect -1 -1 2 2\n"
		"probe all rgba 0 1 0 1\n"
		"==== original piglit file fold.shader_test (verbatim) ====\n";
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *f[4] = { test_write_file(dir, "vs.tgsi", vs), test_write_file(dir, "fs.tgsi", fs),
	               test_write_file(dir, "test.txt", test), test_write_file(dir, "meta.json", META) };
	pg_result r;
	pg_run_opts o = { .run_sim = true, .run_ref = true, .run_exact = true };
	pg_run_test(dir, &o, &r);
	cr_assert_eq(r.ref.status, PG_PASS, "reference %s: %s", pg_status_name(r.ref.status), r.ref.reason);
	cr_assert_eq(r.exact.status, PG_PASS, "exact %s: %s", pg_status_name(r.exact.status), r.exact.reason);
	pg_result_free(&r);
	for (int k = 0; k < 4; k++) {
		remove(f[k]);
		free(f[k]);
	}
	remove(dir);
	free(dir);

	/* the table holds the binary32 sum; the program's words hold its FP20 */
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(fs, strlen(fs), "fold", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	tegra_compile_result *res = calloc(1, sizeof *res);
	cr_assert(res);
	cr_assert(tegra_compile(sh, "fold", res), "%s", res->d.msg);
	const volatile float one_one = 1.1f;
	const float want = one_one + 2.0f;
	unsigned found = 0;
	const tegra_fp_ximm *x = &res->ximm;
	for (unsigned p = 0; p < x->count; p++)
		for (unsigned k = 0; k < 12; k++)
			found += (x->mask[p] >> k & 1u) && fabsf(x->k[p][k / 3][k % 3]) == want;
	for (unsigned u = 0; u < TEGRA_FP_NUM_CONST; u++)
		found += (x->umask >> u & 1u) && fabsf(x->uk[u]) == want;
	cr_assert_geq(found, 1, "1.1 + 2 in binary32 (%.9g) is in the table", (double)want);
	tegra_compile_result_free(res);
	free(res);
	tgsi_shader_free(sh);
}
