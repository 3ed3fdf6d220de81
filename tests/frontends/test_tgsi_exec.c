/* TGSI reference interpreter: Mesa 22.3 tgsi_exec semantics (reference
 * tgsi.md §2) opcode by opcode, control flow, the case/outputs JSON, the
 * CLI, and an end-to-end check against piglit's probes on the noint corpus. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/tgsi/tgsi.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "tests/test_util.h"

/* Runs src with the case; returns the outputs JSON, or NULL with d set. */
static char *run(const char *src, const char *case_json, bool bits, ulp_diag *d)
{
	ulp_diag_clear(d);
	tgsi_shader *sh = tgsi_parse(src, strlen(src), "x.tgsi", NULL, d);
	cr_assert(sh, "%s", d->msg);
	tgsi_exec_machine m;
	char *out = NULL;
	if (tgsi_exec_init(&m, sh, "x.tgsi", d)) {
		if (tgsi_exec_load_case(&m, case_json, strlen(case_json), "case.json", d) &&
		    tgsi_exec_run(&m, d))
			out = tgsi_exec_outputs_json(&m, bits);
	}
	tgsi_exec_fini(&m);
	tgsi_shader_free(sh);
	return out;
}

static void expect(const char *src, const char *case_json, const char *want)
{
	ulp_diag d;
	char *out = run(src, case_json, false, &d);
	cr_assert(out, "%d:%d: %s\n%s", d.line, d.col, d.msg, src);
	cr_assert_str_eq(out, want, "%s\ngot %s", src, out);
	free(out);
}

static void expect_bits(const char *src, const char *case_json, const char *want)
{
	ulp_diag d;
	char *out = run(src, case_json, true, &d);
	cr_assert(out, "%d:%d: %s", d.line, d.col, d.msg);
	cr_assert_str_eq(out, want, "%s", src);
	free(out);
}

static void expect_fail(const char *src, const char *case_json, const char *sub)
{
	ulp_diag d;
	char *out = run(src, case_json, false, &d);
	cr_assert_null(out, "ran: %s", src);
	cr_assert(strstr(d.msg, sub), "'%s' lacks '%s'", d.msg, sub);
}

#define FS(body) "FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n" body "END\n"
#define OUT0(a) "{\"outputs\": {\"OUT[0]\": [" a "]}, \"killed\": false}\n"

Test(tgsi_exec, arithmetic_follows_tgsi_exec)
{
	static const char in[] = "{\"IN[0]\": [-4, 2.5, 0.5, 3]}";
	expect(FS("MOV OUT[0], IN[0].wzyx\n"), in, OUT0("3, 0.5, 2.5, -4"));
	expect(FS("MOV OUT[0], -|IN[0]|\n"), in, OUT0("-4, -2.5, -0.5, -3"));
	expect(FS("ADD OUT[0], IN[0], IN[0].yyyy\n"), in, OUT0("-1.5, 5, 3, 5.5"));
	expect(FS("MAD OUT[0], IN[0], IN[0].zzzz, IN[0].wwww\n"), in, OUT0("1, 4.25, 3.25, 4.5"));
	/* RSQ has no abs in 22.3: negative input gives NaN */
	expect(FS("RSQ OUT[0], IN[0].xxxx\n"), in, OUT0("\"nan\", \"nan\", \"nan\", \"nan\""));
	expect(FS("RSQ OUT[0].x, IN[0].zzzz\nRCP OUT[0].y, IN[0].zzzz\nSQRT OUT[0].zw, IN[0].wwww\n"),
	       in, OUT0("1.41421354, 2, 1.73205078, 1.73205078"));
	/* ROUND is half to even */
	expect(FS("ROUND OUT[0], IN[0].yyyy\nROUND OUT[0].y, -IN[0].yyyy\nROUND OUT[0].z, IN[0].zzzz\n"),
	       in, OUT0("2, -2, 0, 2"));
	/* LRP = s0*(s1-s2)+s2; DP3 accumulates x*x first */
	expect(FS("LRP OUT[0], IN[0].zzzz, IN[0].wwww, IN[0].xxxx\n"), in, OUT0("-0.5, -0.5, -0.5, -0.5"));
	expect(FS("DP3 OUT[0], IN[0], IN[0]\nDP2 OUT[0].w, IN[0], IN[0]\n"), in,
	       OUT0("22.5, 22.5, 22.5, 22.25"));
	/* _SAT clamps, NaN becomes 0 */
	expect(FS("MOV_SAT OUT[0], IN[0]\nRSQ_SAT OUT[0].w, IN[0].xxxx\n"), in, OUT0("0, 1, 0.5, 0"));
	/* LG2 = logf(x) * 1.442695f; EX2 = powf(2, x) */
	expect(FS("LG2 OUT[0], IN[0].yyyy\nEX2 OUT[0].w, IN[0].zzzz\n"), in,
	       OUT0("1.32192814, 1.32192814, 1.32192814, 1.41421354"));
	expect(FS("FRC OUT[0], IN[0].yzxx\nFLR OUT[0].w, -IN[0].yyyy\n"), in, OUT0("0.5, 0.5, 0, -3"));
	expect(FS("SLT OUT[0], IN[0], IN[0].zzzz\nSGE OUT[0].w, IN[0].wwww, IN[0].wwww\n"), in,
	       OUT0("1, 0, 0, 1"));
	expect(FS("CMP OUT[0], IN[0], IN[0].yyyy, IN[0].wwww\n"), in, OUT0("2.5, 3, 3, 3"));
	expect(FS("SSG OUT[0], IN[0]\nMIN OUT[0].w, IN[0].xxxx, IN[0].yyyy\n"), in, OUT0("-1, 1, 1, -4"));
	expect(FS("DIV OUT[0], IN[0], IN[0].zzzz\n"), in, OUT0("-8, 5, 1, 6"));
	/* LIT: x=1, y=max(x,0), z=x>0 ? pow(max(y,0), clamp(w)) : 0, w=1 */
	expect(FS("LIT OUT[0], IN[0].wyxz\n"), in, OUT0("1, 3, 1.58113885, 1"));
	expect(FS("LIT OUT[0], IN[0].xyzw\n"), in, OUT0("1, 0, 0, 1"));
	expect(FS("DST OUT[0], IN[0], IN[0].wzyx\n"), in, OUT0("1, 1.25, 0.5, -4"));
	expect(FS("EXP OUT[0], IN[0].yyyy\n"), in, OUT0("4, 0.5, 5.65685415, 1"));
	expect(FS("LOG OUT[0], IN[0].xxxx\n"), in, OUT0("2, 1, 2, 1"));
	expect(FS("SIN OUT[0].xy, IN[0].wwww\nCOS OUT[0].zw, IN[0].wwww\n"), in,
	       OUT0("0.141120002, 0.141120002, -0.989992499, -0.989992499"));
	expect(FS("POW OUT[0], IN[0].yyyy, IN[0].zzzz\n"), in,
	       OUT0("1.58113885, 1.58113885, 1.58113885, 1.58113885"));
	/* legacy opcodes */
	expect(FS("SUB OUT[0], IN[0], IN[0].yyyy\n"), in, OUT0("-6.5, 0, -2, 0.5"));
	expect(FS("ABS OUT[0], IN[0]\n"), in, OUT0("4, 2.5, 0.5, 3"));
	expect(FS("XPD OUT[0], IN[0], IN[0].yzxw\n"), in, OUT0("-10.25, -14.75, -8.25, 1"));
	expect(FS("CLAMP OUT[0], IN[0], IN[0].zzzz, IN[0].wwww\n"), in, OUT0("0.5, 2.5, 0.5, 3"));
	/* DDX/DDY: one lane, no neighbours */
	expect(FS("DDX OUT[0], IN[0]\n"), in, OUT0("0, 0, 0, 0"));
}

Test(tgsi_exec, integers_bits_and_addressing)
{
	static const char in[] = "{\"IN[0]\": [\"0xfffffff9\", \"0x00000002\", 5, \"0x7fc00000\"]}";
	expect_bits(FS("UADD OUT[0], IN[0].xxxx, IN[0].yyyy\nISHR OUT[0].y, IN[0].xxxx, IN[0].yyyy\n"
	               "F2I OUT[0].z, IN[0].zzzz\nMOV OUT[0].w, IN[0].wwww\n"),
	            in, OUT0("\"0xfffffffb\", \"0xfffffffe\", \"0x00000005\", \"0x7fc00000\""));
	expect_bits(FS("IDIV OUT[0].x, IN[0].xxxx, IN[0].yyyy\nUDIV OUT[0].y, IN[0].yyyy, IMM[0].xxxx\n"
	               "INEG OUT[0].z, IN[0].yyyy\nUSEQ OUT[0].w, IN[0].yyyy, IN[0].yyyy\n"
	               "IMM[0] UINT32 {0, 0, 0, 0}\n"),
	            in, OUT0("\"0xfffffffd\", \"0xffffffff\", \"0xfffffffe\", \"0xffffffff\""));
	/* F2I of NaN and of out-of-range values: x86-64 gives INT32_MIN */
	expect_bits(FS("F2I OUT[0], IN[0].wwww\nI2F OUT[0].y, IN[0].xxxx\n"), in,
	            OUT0("\"0x80000000\", \"0xc0e00000\", \"0x80000000\", \"0x80000000\""));
	/* indirect constants through ARL (floor) */
	expect("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL CONST[0][0..3]\nDCL ADDR[0]\n"
	       "ARL ADDR[0].x, IN[0].xxxx\nMOV OUT[0], CONST[0][ADDR[0].x+1]\nEND\n",
	       "{\"IN[0]\": [1.75, 0, 0, 0], \"CONST[0][2]\": [9, 8, 7, 6], \"CONST[0][3]\": [1]}",
	       "{\"outputs\": {\"OUT[0]\": [9, 8, 7, 6]}, \"killed\": false}\n");
	expect("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL CONST[0..3]\nDCL ADDR[0]\n"
	       "ARL ADDR[0].x, IN[0].xxxx\nMOV OUT[0], CONST[ADDR[0].x-1]\nEND\n",
	       "{\"IN[0]\": [-0.5, 0, 0, 0], \"CONST[3]\": [1, 2, 3, 4]}",
	       "{\"outputs\": {\"OUT[0]\": [0, 0, 0, 0]}, \"killed\": false}\n");
	/* system values by index or by semantic name */
	expect("VERT\nDCL SV[0], INSTANCEID\nDCL OUT[0], POSITION\nMOV OUT[0], SV[0]\nEND\n",
	       "{\"INSTANCEID\": [3]}", "{\"outputs\": {\"OUT[0]\": [3, 0, 0, 0]}, \"killed\": false}\n");
}

Test(tgsi_exec, control_flow)
{
	static const char in[] = "{\"IN[0]\": [0, -0, 1, \"0x7fc00000\"]}";
	/* IF tests != 0.0: +0 and -0 false, NaN true */
	expect(FS("MOV OUT[0], IN[0].xxxx\nIF IN[0].xxxx :3\nMOV OUT[0].x, IN[0].zzzz\nENDIF\n"
	          "IF IN[0].yyyy\nMOV OUT[0].y, IN[0].zzzz\nELSE\nMOV OUT[0].y, -IN[0].zzzz\nENDIF\n"
	          "IF IN[0].wwww\nMOV OUT[0].z, IN[0].zzzz\nENDIF\n"),
	       in, OUT0("0, -1, 1, 0"));
	/* loop: count to 4 with BRK, CONT skipping odd steps */
	expect(FS("MOV TEMP[0], IN[0].xxxx\nBGNLOOP :0\n  ADD TEMP[0].x, TEMP[0].xxxx, IN[0].zzzz\n"
	          "  SGE TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx\n  IF TEMP[1].xxxx\n    BRK\n  ENDIF\n"
	          "  FRC TEMP[2].x, TEMP[0].xxxx\n  ADD TEMP[0].y, TEMP[0].yyyy, IN[0].zzzz\n"
	          "ENDLOOP :0\nMOV OUT[0], TEMP[0]\nIMM[0] FLT32 {4, 0, 0, 0}\n"),
	       in, OUT0("4, 3, 0, 0"));
	/* subroutine after END, RET in main */
	expect("FRAG\nDCL OUT[0], COLOR\nCAL :4\nCAL :4\nRET\nMOV OUT[0].x, IMM[0].xxxx\n"
	       "BGNSUB\nADD OUT[0].y, OUT[0].yyyy, IMM[0].xxxx\nRET\nENDSUB\nIMM[0] FLT32 {2, 0, 0, 0}\n",
	       "{}", OUT0("0, 4, 0, 0"));
	/* SWITCH on integers, with fallthrough into DEFAULT */
	expect("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nIMM[0] UINT32 {1, 2, 0, 0}\nSWITCH IN[0].xxxx\n"
	       "CASE IMM[0].xxxx\nMOV OUT[0].x, IMM[1].xxxx\nCASE IMM[0].yyyy\nMOV OUT[0].y, IMM[1].xxxx\n"
	       "BRK\nDEFAULT\nMOV OUT[0].z, IMM[1].xxxx\nENDSWITCH\nIMM[1] FLT32 {1, 0, 0, 0}\nEND\n",
	       "{\"IN[0]\": [\"0x1\"]}", OUT0("1, 1, 0, 0"));
	/* KILL_IF: any component < 0 (NaN does not kill); KILL always */
	expect(FS("MOV OUT[0], IN[0].zzzz\nKILL_IF IN[0].wxyw\n"), in, OUT0("1, 1, 1, 1"));
	expect(FS("MOV OUT[0], IN[0].zzzz\nKILL_IF -IN[0].xxzx\n"), in,
	       "{\"outputs\": {\"OUT[0]\": [1, 1, 1, 1]}, \"killed\": true}\n");
	/* UIF tests the integer bits: -0.0 is true */
	expect(FS("MOV OUT[0], IN[0].xxxx\nUIF IN[0].yyyy\nMOV OUT[0], IN[0].zzzz\nENDIF\n"), in,
	       OUT0("1, 1, 1, 1"));
}

Test(tgsi_exec, textures_and_errors)
{
	expect("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nDCL SAMP[1]\nTEX OUT[0], IN[0], SAMP[1], 2D\nEND\n",
	       "{\"SAMP[1]\": [1, 0.5, 0, 1]}", OUT0("1, 0.5, 0, 1"));
	expect_fail("FRAG\nDCL OUT[0], COLOR\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND\n", "{}",
	            "no texel for this sampler");
	expect_fail(FS("BGNLOOP\nENDLOOP\n"), "{}", "step limit exceeded");
	expect_fail(FS("MOV OUT[0], IN[0]\n"), "{\"IN[0]\": 3}", "array of 1 to 4");
	expect_fail(FS("MOV OUT[0], IN[0]\n"), "{\"TEMP[0]\": [1]}", "only IN, CONST, SV and SAMP");
	expect_fail(FS("MOV OUT[0], IN[0]\n"), "{\"FOO\": [1]}", "key \"FOO\"");
	expect_fail(FS("MOV OUT[0], IN[0]\n"), "{\"IN[0]\": [\"1.5\"]}", "neither a number");
	expect_fail(FS("MOV OUT[0], IN[0]\n"), "[1, 2]", "JSON object");
	expect_fail(FS("MOV OUT[0], IN[0]\n"), "{", "invalid JSON");
	expect_fail(FS("MOV IN[0], IN[0]\n"), "{}", "writes only OUT, TEMP and ADDR");
	expect_fail(FS("DADD OUT[0], IN[0], IN[0]\n"), "{}", "not supported");
	expect_fail(FS("ELSE\n"), "{}", "ELSE without");
}

Test(tgsi_exec, cli_run)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char sp[1024], cp[1024], op[1024], args[4096];
	snprintf(sp, sizeof sp, "%s/s.tgsi", dir);
	snprintf(cp, sizeof cp, "%s/c.json", dir);
	snprintf(op, sizeof op, "%s/o.json", dir);
	static const char src[] = FS("MUL OUT[0], IN[0], IMM[0]\nIMM[0] FLT32 {0x3f000000, 2, 0.1, 1}\n");
	static const char cs[] = "{\"IN[0]\": [1, 2, 3, 4]}";
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_write_file(sp, src, sizeof src - 1, &d));
	cr_assert(ulp_write_file(cp, cs, sizeof cs - 1, &d));
	char *out, *err;
	snprintf(args, sizeof args, "tgsi run %s --case %s", sp, cp);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, OUT0("0.5, 4, 0.300000012, 4"));
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi run %s --case %s --bits -o %s", sp, cp, op);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	char *got = ulp_read_file(op, NULL, &d);
	cr_assert(got);
	cr_assert_str_eq(got, OUT0("\"0x3f000000\", \"0x40800000\", \"0x3e99999a\", \"0x40800000\""));
	free(got);
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi run %s", sp);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi run %s --case %s/missing.json", sp, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "missing.json"), "%s", err);
	free(out);
	free(err);
	remove(sp);
	remove(cp);
	remove(op);
	remove(dir);
	free(dir);
}

/* ---- geometry shaders: EMIT snapshots OUT as a vertex, ENDPRIM closes the
 * primitive, END closes an open one; over GS_MAX_OUTPUT_VERTICES per
 * primitive an EMIT is dropped (tgsi_exec's check) ---- */

#define GS_HEAD(max) "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n" \
	"PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES " max "\n" \
	"DCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n" \
	"DCL CONST[0][0]\nIMM[0] UINT32 {0, 1, 0, 0}\n"

Test(tgsi_exec, geometry_shader_emit_endprim)
{
	static const char in[] = "{\"IN[0][0]\": [1, 2, 3, 4], \"IN[1][0]\": [5, 6, 7, 8], "
		"\"IN[2][0]\": [9], \"IN[0][1]\": [0.5], \"IN[2][1]\": [0, 0, 0, 2], "
		"\"CONST[0][0]\": [0.25, 0.25, 0.25, 0.25]}";
	/* tgsi.md §1.8 (h): three EMITs, END closes the strip */
	expect(GS_HEAD("3") "MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nMOV OUT[0], IN[1][0]\n"
	       "EMIT IMM[0].xxxx\nMOV OUT[0], IN[2][0]\nEMIT IMM[0].xxxx\nEND\n", in,
	       "{\"output_primitive\": \"TRIANGLE_STRIP\", \"primitives\": [{\"vertices\": ["
	       "{\"OUT[0]\": [1, 2, 3, 4], \"OUT[1]\": [0, 0, 0, 0]}, "
	       "{\"OUT[0]\": [5, 6, 7, 8], \"OUT[1]\": [0, 0, 0, 0]}, "
	       "{\"OUT[0]\": [9, 0, 0, 0], \"OUT[1]\": [0, 0, 0, 0]}]}]}\n");
	/* a vertex's outputs start at 0 after EMIT; the third EMIT of a primitive
	 * is over the limit of 2 (dropped, OUT kept); ENDPRIM twice gives an
	 * empty primitive */
	expect(GS_HEAD("2") "ADD OUT[1], IN[0][1], CONST[0][0]\nMOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\n"
	       "MOV OUT[0].x, IN[1][0].yyyy\nEMIT IMM[0].xxxx\nMOV OUT[0], IN[2][0]\nEMIT IMM[0].xxxx\n"
	       "ENDPRIM IMM[0].xxxx\nENDPRIM IMM[0].xxxx\nMOV OUT[1], IN[2][1]\nEMIT IMM[0].xxxx\n"
	       "ENDPRIM IMM[0].xxxx\nEND\n", in,
	       "{\"output_primitive\": \"TRIANGLE_STRIP\", \"primitives\": [{\"vertices\": ["
	       "{\"OUT[0]\": [1, 2, 3, 4], \"OUT[1]\": [0.75, 0.25, 0.25, 0.25]}, "
	       "{\"OUT[0]\": [6, 0, 0, 0], \"OUT[1]\": [0, 0, 0, 0]}]}, {\"vertices\": []}, "
	       "{\"vertices\": [{\"OUT[0]\": [9, 0, 0, 0], \"OUT[1]\": [0, 0, 0, 2]}]}]}\n");
	/* loops and RET in main end the invocation like END; no limit property
	 * means no limit */
	expect("GEOM\nDCL OUT[0], POSITION\nDCL TEMP[0]\nIMM[0] FLT32 {1, 3, 0, 0}\n"
	       "BGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nMOV OUT[0], TEMP[0]\nEMIT IMM[1].xxxx\n"
	       "SGE TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\nIF TEMP[0].yyyy\nRET\nENDIF\nENDLOOP\n"
	       "IMM[1] UINT32 {0, 0, 0, 0}\nEND\n", "{}",
	       "{\"primitives\": [{\"vertices\": [{\"OUT[0]\": [1, 0, 0, 0]}, "
	       "{\"OUT[0]\": [2, 0, 0, 0]}, {\"OUT[0]\": [3, 0, 0, 0]}]}]}\n");
	expect("GEOM\nDCL OUT[0], POSITION\nEND\n", "{}", "{\"primitives\": []}\n");
	expect_fail(GS_HEAD("3") "EMIT IMM[0].yyyy\nEND\n", "{}", "stream 1");
	expect_fail(FS("EMIT IMM[0].xxxx\nIMM[0] UINT32 {0, 0, 0, 0}\n"), "{}", "only a GEOM");
	expect_fail("GEOM\nDCL OUT[0]\nIMM[0] UINT32 {0, 0, 0, 0}\nBGNLOOP\nEMIT IMM[0].xxxx\nENDLOOP\n",
	            "{}", "more than 65536 vertices");
}

/* Every GEOM shader of the corpora runs (today there are none: the corpus
 * READMEs say "No GS/CS"). */
Test(tgsi_exec, corpus_geometry_shaders_run)
{
	static const char *const sets[] = { "tgsi", "tgsi-noint" };
	int ran = 0;
	for (int k = 0; k < 2; k++) {
		char *root = test_corpus_path(sets[k]);
		DIR *dir = opendir(root);
		struct dirent *e;
		while (dir && (e = readdir(dir))) {
			static const char *const stages[] = { "gs.tgsi", "geom.tgsi" };
			for (int s = 0; s < 2 && e->d_name[0] != '.'; s++) {
				char path[2048];
				snprintf(path, sizeof path, "%s/%s/%s", root, e->d_name, stages[s]);
				ulp_diag d;
				ulp_diag_clear(&d);
				char *src = ulp_read_file(path, NULL, &d);
				if (!src || strncmp(src, "GEOM", 4) != 0) {
					free(src);
					continue;
				}
				char *out = run(src, "{}", false, &d);
				cr_assert(out && strstr(out, "\"primitives\""), "%s: %s", path, d.msg);
				free(out);
				free(src);
				ran++;
			}
		}
		if (dir)
			closedir(dir);
		free(root);
	}
	fprintf(stderr, "tgsi run: %d corpus geometry shaders\n", ran);
}

/* ---- texture images: texel (i, j) covers [i, i+1) x [j, j+1) in texel
 * units, row 0 at t = 0; GL-spec wraps on integer texel coordinates ---- */

#define TEXFS(op, target) "FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[1]\n" \
	op " OUT[0], IN[0], SAMP[0], " target "\nEND\n"
/* 2x2: r = i + 2j; 4x1: r = i */
#define IMG22 "\"width\": 2, \"height\": 2, \"texels\": [[0], [1], [2], [3]]"
#define IMG41 "\"width\": 4, \"height\": 1, \"texels\": [0, 1, 2, [3]]"

/* OUT[0].x of `op target` on image `img` ({...} body) at coordinates co. */
static float tex_r(const char *op, const char *target, const char *img, const char *co)
{
	char src[512], cs[1024];
	snprintf(src, sizeof src, TEXFS("%s", "%s"), op, target);
	snprintf(cs, sizeof cs, "{\"IN[0]\": [%s], \"SAMP[0]\": {%s}}", co, img);
	ulp_diag d;
	char *out = run(src, cs, false, &d);
	cr_assert(out, "%s: %s", cs, d.msg);
	cJSON *root = cJSON_Parse(out);
	const cJSON *o = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "outputs"), "OUT[0]");
	cr_assert(cJSON_IsNumber(cJSON_GetArrayItem(o, 0)), "%s", out);
	float r = (float)cJSON_GetArrayItem(o, 0)->valuedouble;
	cJSON_Delete(root);
	free(out);
	return r;
}

Test(tgsi_exec, texture_nearest_linear_and_wraps)
{
	static const struct { const char *filter, *co; float repeat, clamp, mirror; } t[] = {
		/* nearest on 4x1: centres, edges (a texel owns its left edge), outside */
		{ "nearest", "0.125, 0.5", 0, 0, 0 },      { "nearest", "0.25, 0.5", 1, 1, 1 },
		{ "nearest", "0.875, 0.5", 3, 3, 3 },      { "nearest", "0, 0", 0, 0, 0 },
		{ "nearest", "1, 0.5", 0, 3, 3 },          { "nearest", "1.125, 0.5", 0, 3, 3 },
		{ "nearest", "1.375, 0.5", 1, 3, 2 },      { "nearest", "-0.125, 0.5", 3, 0, 0 },
		{ "nearest", "-0.375, 0.5", 2, 0, 1 },     { "nearest", "2.125, 0.5", 0, 3, 0 },
		{ "nearest", "0.5, 7.9", 2, 2, 2 },
		/* linear on 4x1: centres exact, midpoints, the edges blend per wrap */
		{ "linear", "0.375, 0.5", 1, 1, 1 },       { "linear", "0.25, 0.5", 0.5f, 0.5f, 0.5f },
		{ "linear", "0.5, 0.5", 1.5f, 1.5f, 1.5f }, { "linear", "0, 0.5", 1.5f, 0, 0 },
		{ "linear", "1, 0.5", 1.5f, 3, 3 },        { "linear", "1.0625, 0.5", 0.75f, 3, 3 },
		{ "linear", "-0.0625, 0.5", 2.25f, 0, 0 },
	};
	static const char *const wraps[] = { "repeat", "clamp", "mirror" };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		for (int w = 0; w < 3; w++) {
			char img[256];
			snprintf(img, sizeof img, IMG41 ", \"filter\": \"%s\", \"wrap\": \"%s\"",
			         t[i].filter, wraps[w]);
			float want = w == 0 ? t[i].repeat : w == 1 ? t[i].clamp : t[i].mirror;
			float got = tex_r("TEX", "2D", img, t[i].co);
			cr_assert_eq(got, want, "%s %s at (%s): got %g, want %g", t[i].filter, wraps[w],
			             t[i].co, (double)got, (double)want);
		}
	/* 2x2: texel centres, bilinear midpoints, per-axis wraps */
	cr_assert_eq(tex_r("TEX", "2D", IMG22, "0.75, 0.25"), 1);
	cr_assert_eq(tex_r("TEX", "2D", IMG22, "0.25, 0.75"), 2);
	cr_assert_eq(tex_r("TEX", "2D", IMG22, "0.5, 0.5"), 3);
	cr_assert_eq(tex_r("TEX", "2D", IMG22 ", \"filter\": \"linear\"", "0.5, 0.5"), 1.5f);
	cr_assert_eq(tex_r("TEX", "2D", IMG22 ", \"filter\": \"linear\"", "0.5, 0.25"), 0.5f);
	cr_assert_eq(tex_r("TEX", "2D", IMG22 ", \"filter\": \"linear\"", "0.25, 0.5"), 1);
	cr_assert_eq(tex_r("TEX", "2D", IMG22 ", \"filter\": \"linear\"", "0.375, 0.625"), 1.75f);
	cr_assert_eq(tex_r("TEX", "2D", IMG22 ", \"wrap\": [\"repeat\", \"clamp\"]", "1.25, 1.25"), 2);
	cr_assert_eq(tex_r("TEX", "2D", IMG22 ", \"wrap\": [\"clamp\", \"mirror\"]", "1.25, -0.25"), 1);
	/* 1D ignores t, RECT is in texels, TXP divides by w, TXB/TXL ignore w */
	cr_assert_eq(tex_r("TEX", "1D", IMG41, "0.6, 0.9"), 2);
	cr_assert_eq(tex_r("TEX", "RECT", IMG22, "1.5, 0.5"), 1);
	cr_assert_eq(tex_r("TEX", "RECT", IMG22 ", \"filter\": \"linear\"", "1, 1"), 1.5f);
	cr_assert_eq(tex_r("TXP", "2D", IMG22, "1.5, 0.5, 0, 2"), 1);
	cr_assert_eq(tex_r("TXB", "2D", IMG22, "0.75, 0.75, 0, -3"), 3);
	cr_assert_eq(tex_r("TXL", "2D", IMG22, "0.25, 0.75, 0, 5"), 2);
	expect("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
	       "TXD OUT[0], IN[0], IN[0], IN[0], SAMP[0], 2D\nEND\n",
	       "{\"IN[0]\": [0.75, 0.25], \"SAMP[0]\": {" IMG22 "}}", OUT0("1, 0, 0, 1"));
	/* missing channels: g = b = 0, a = 1; "0x" bit patterns */
	expect(TEXFS("TEX", "2D"), "{\"IN[0]\": [0.5], \"SAMP[0]\": {\"width\": 1, "
	       "\"texels\": [[\"0x3f000000\", 0.25]]}}", OUT0("0.5, 0.25, 0, 1"));
}

Test(tgsi_exec, texture_fetch_query_offsets_shadow)
{
	/* TXF: integer texel coordinates, 0 outside; TXQ: width, height, 0, 1 */
	expect(TEXFS("TXF", "2D"), "{\"IN[0]\": [\"0x1\", \"0x1\"], \"SAMP[0]\": {" IMG22 "}}",
	       OUT0("3, 0, 0, 1"));
	expect(TEXFS("TXF", "2D"), "{\"IN[0]\": [\"0x2\", \"0x0\"], \"SAMP[0]\": {" IMG22 "}}",
	       OUT0("0, 0, 0, 0"));
	expect_bits(TEXFS("TXQ", "2D"), "{\"SAMP[0]\": {" IMG41 "}}",
	            OUT0("\"0x00000004\", \"0x00000001\", \"0x00000000\", \"0x00000001\""));
	/* a texel offset (in texels) */
	expect("FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nDCL SAMP[0]\nIMM[0] INT32 {1, -1, 0, 0}\n"
	       "TEX OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz\nEND\n",
	       "{\"IN[0]\": [0.25, 0.75], \"SAMP[0]\": {" IMG22 "}}", OUT0("1, 0, 0, 1"));
	/* depth compare `ref OP d` per texel, ref = z clamped to [0, 1], filtered */
#define DEPTH "\"width\": 2, \"texels\": [0.25, 0.75], \"compare\": "
	expect(TEXFS("TEX", "SHADOW2D"), "{\"IN[0]\": [0.25, 0, 0.5], \"SAMP[0]\": {" DEPTH
	       "\"less\"}}", OUT0("0, 0, 0, 1"));
	expect(TEXFS("TEX", "SHADOW2D"), "{\"IN[0]\": [0.75, 0, 0.5], \"SAMP[0]\": {" DEPTH
	       "\"less\"}}", OUT0("1, 1, 1, 1"));
	expect(TEXFS("TEX", "SHADOW2D"), "{\"IN[0]\": [0.5, 0, 0.5], \"SAMP[0]\": {" DEPTH
	       "\"less\", \"filter\": \"linear\", \"wrap\": \"clamp\"}}", OUT0("0.5, 0.5, 0.5, 1"));
	expect(TEXFS("TEX", "SHADOW2D"), "{\"IN[0]\": [0.25, 0, -1], \"SAMP[0]\": {" DEPTH
	       "\"lequal\"}}", OUT0("1, 1, 1, 1"));
	expect(TEXFS("TXP", "SHADOW2D"), "{\"IN[0]\": [0.5, 0, 1, 2], \"SAMP[0]\": {" DEPTH
	       "\"greater\"}}", OUT0("1, 1, 1, 1"));
	expect(TEXFS("TEX", "SHADOW1D"), "{\"IN[0]\": [0.75, 0, 0.75], \"SAMP[0]\": {" DEPTH
	       "\"notequal\"}}", OUT0("0, 0, 0, 1"));
	/* a non-shadow target ignores compare */
	expect(TEXFS("TEX", "2D"), "{\"IN[0]\": [0.75], \"SAMP[0]\": {" DEPTH "\"never\"}}",
	       OUT0("0.75, 0, 0, 1"));
	/* the constant-texel form still works, next to an image */
	expect("FRAG\nDCL IN[0]\nDCL OUT[0..1]\nDCL SAMP[0..1]\nTEX OUT[0], IN[0], SAMP[0], 2D\n"
	       "TEX OUT[1], IN[0], SAMP[1], 3D\nEND\n",
	       "{\"IN[0]\": [0.75, 0.75], \"SAMP[0]\": {" IMG22 "}, \"SAMP[1]\": [1, 0.5]}",
	       "{\"outputs\": {\"OUT[0]\": [3, 0, 0, 1], \"OUT[1]\": [1, 0.5, 0, 0]}, "
	       "\"killed\": false}\n");
	expect_fail(TEXFS("TEX", "SHADOW2D"), "{\"SAMP[0]\": {" IMG22 "}}", "needs \"compare\"");
	expect_fail(TEXFS("TEX", "3D"), "{\"SAMP[0]\": {" IMG22 "}}", "SAMP[0]: target 3D");
	expect_fail(TEXFS("LODQ", "2D"), "{\"SAMP[0]\": {" IMG22 "}}", "not supported with an image");
#undef DEPTH
}

Test(tgsi_exec, texture_case_errors_name_the_json_path)
{
	static const struct { const char *samp, *msg; } t[] = {
		{ "{\"width\": 0, \"texels\": []}", "SAMP[0].width: expected a whole number" },
		{ "{\"width\": 1.5, \"texels\": []}", "SAMP[0].width" },
		{ "{\"width\": 2, \"height\": 99999, \"texels\": []}", "SAMP[0].height" },
		{ "{\"width\": 2, \"height\": 2, \"texels\": [1, 2, 3]}",
		  "SAMP[0].texels: expected an array of width * height = 4" },
		{ "{\"width\": 2, \"texels\": [1, [1, 2, 3, 4, 5]]}", "SAMP[0].texels[1]: expected" },
		{ "{\"width\": 2, \"texels\": [1, [true]]}", "SAMP[0].texels[1]" },
		{ "{\"width\": 1, \"texels\": [1], \"filter\": \"cubic\"}", "SAMP[0].filter" },
		{ "{\"width\": 1, \"texels\": [1], \"wrap\": \"border\"}", "SAMP[0].wrap: expected" },
		{ "{\"width\": 1, \"texels\": [1], \"wrap\": [\"repeat\", 3]}", "SAMP[0].wrap[1]" },
		{ "{\"width\": 1, \"texels\": [1], \"wrap\": [\"repeat\"]}", "array of two" },
		{ "{\"width\": 1, \"texels\": [1], \"compare\": \"lt\"}", "SAMP[0].compare" },
		{ "{\"width\": 1, \"texels\": [1], \"size\": 1}", "SAMP[0].size: unknown key" },
		{ "{\"png\": \"/nonexistent/x.png\"}", "SAMP[0].png: " },
		{ "{\"png\": 3}", "SAMP[0].png: expected a file name" },
		{ "{\"png\": \"a.png\", \"width\": 1}", "either \"png\"" },
		{ "{}", "SAMP[0].width" },
		{ "[]", "array of 1 to 4 values or an image" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char cs[512];
		snprintf(cs, sizeof cs, "{\"SAMP[0]\": %s}", t[i].samp);
		expect_fail(TEXFS("TEX", "2D"), cs, t[i].msg);
	}
	expect_fail(TEXFS("TEX", "2D"), "{\"IN[0]\": {\"width\": 1}}", "array of 1 to 4 values");
	expect_fail(TEXFS("TEX", "2D"), "{\"SAMP[1][0]\": {\"width\": 1}}", "expected SAMP[n]");
}

/* PNG images through the CLI: a path relative to the case file, bytes / 255,
 * the first row at t = 0; a malformed case exits 2 naming the JSON path. */
Test(tgsi_exec, cli_texture_png_and_errors)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char sp[1024], cp[1024], pp[1024], args[4096];
	snprintf(sp, sizeof sp, "%s/s.tgsi", dir);
	snprintf(cp, sizeof cp, "%s/c.json", dir);
	snprintf(pp, sizeof pp, "%s/img.png", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(2, 2, &d);
	cr_assert(img);
	ulp_image_fill(img, 0, 0, 0, 255);
	memcpy(ulp_image_px(img, 1, 0), (const uint8_t[4]){ 255, 51, 0, 255 }, 4);
	cr_assert(ulp_image_save_png(img, pp, &d), "%s", d.msg);
	ulp_image_free(img);
	static const char src[] = TEXFS("TEX", "2D");
	static const char cs[] = "{\"IN[0]\": [0.75, 0.25], \"SAMP[0]\": {\"png\": \"img.png\"}}";
	cr_assert(ulp_write_file(sp, src, sizeof src - 1, &d));
	cr_assert(ulp_write_file(cp, cs, sizeof cs - 1, &d));
	char *out, *err;
	snprintf(args, sizeof args, "tgsi run %s --case %s", sp, cp);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, OUT0("1, 0.200000003, 0, 1"));
	free(out);
	free(err);
	static const char bad[] = "{\"SAMP[0]\": {\"width\": 2, \"texels\": [1, \"x\"]}}";
	cr_assert(ulp_write_file(cp, bad, sizeof bad - 1, &d));
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "c.json: SAMP[0].texels[1]: expected"), "%s", err);
	free(out);
	free(err);
	remove(sp);
	remove(cp);
	remove(pp);
	remove(dir);
	free(dir);
}

/* ---- end to end: noint fragment shaders without varyings or textures, one
 * full-screen draw, uniforms from [test] mapped through nir_vars; OUT[0]
 * (clamped to [0, 1]) must match every probe within piglit's 3/256. ---- */

static char *slurp(const char *dir, const char *name)
{
	char rel[1024];
	snprintf(rel, sizeof rel, "tgsi-noint/%s/%s", dir, name);
	char *path = test_corpus_path(rel);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *t = ulp_read_file(path, NULL, &d);
	free(path);
	return t;
}

/* Uses built-in GL state (state.*, gl_*) that a harness would have to compute. */
static bool uses_state(cJSON *vars)
{
	cJSON *v;
	cJSON_ArrayForEach(v, vars) {
		char nm[128];
		if (cJSON_IsString(v) &&
		    sscanf(v->valuestring, "decl_var uniform %*s %*s %127s", nm) == 1 &&
		    (strncmp(nm, "state.", 6) == 0 || strncmp(nm, "gl_", 3) == 0))
			return true;
	}
	return false;
}

/* Uniforms with initialisers ("float[4] c (1, 1, 0) = { { 0.0 }, { 1.0 } }":
 * constant arrays Mesa promoted to uniforms) fill their slots; false if one
 * cannot be read. */
static bool load_initialisers(cJSON *vars, tgsi_exec_machine *m)
{
	cJSON *v;
	cJSON_ArrayForEach(v, vars) {
		int loc, drv;
		const char *s = cJSON_IsString(v) ? v->valuestring : "";
		const char *eq = strstr(s, ") = {");
		if (strncmp(s, "decl_var uniform", 16) != 0 || !eq)
			continue;
		if (strstr(s, " mat"))
			return false;   /* matrix initialisers: column layout not modelled here */
		const char *paren = strrchr(s, '(');
		if (!paren || sscanf(paren, "(%d, %d", &loc, &drv) != 2 || drv < 0)
			return false;
		const char *p = eq + 5;
		bool nested = strchr(p, '{') != NULL;
		int slot = drv;
		while (*p && *p != '}') {
			if (nested) {
				while (*p == ' ' || *p == ',')
					p++;
				if (*p == '}')
					break;
				if (*p != '{')
					return false;
				p++;
			}
			uint32_t *r = tgsi_exec_reg(m, TGSI_FILE_CONSTANT, 0, (size_t)slot++);
			cr_assert(r);
			for (int c = 0; c < 4; c++) {
				while (*p == ' ' || *p == ',')
					p++;
				char *end;
				float f = strtof(p, &end);
				if (end == p)
					break;
				memcpy(&r[c], &f, sizeof f);
				p = end;
			}
			while (*p == ' ' || *p == ',')
				p++;
			if (nested) {
				if (*p != '}')
					return false;
				p++;
			} else {
				break;
			}
		}
	}
	return true;
}

/* CONST slot of uniform `name` in the fs nir_vars, or -1. */
static int uniform_slot(cJSON *vars, const char *name)
{
	char base[128];
	int elem = -1;
	snprintf(base, sizeof base, "%s", name);
	char *br = strchr(base, '[');
	if (br) {
		elem = atoi(br + 1);
		*br = '\0';
	}
	cJSON *v;
	cJSON_ArrayForEach(v, vars) {
		char type[64], nm[128];
		int loc, drv;
		if (!cJSON_IsString(v) ||
		    sscanf(v->valuestring, "decl_var uniform %*s %63s %127s (%d, %d", type, nm, &loc,
		           &drv) != 4)
			continue;
		if (strcmp(nm, base) != 0 || strncmp(type, "mat", 3) == 0)
			continue;
		bool array = strchr(type, '[') != NULL;
		if (array && elem >= 0)
			return drv + elem;
		if (!array && elem < 0)
			return drv;
	}
	return -1;
}

/* Returns 1 checked and matching, 0 not eligible; asserts on a mismatch. */
static int check_test(const char *dir)
{
	char *fs = slurp(dir, "fs.tgsi"), *tt = slurp(dir, "test.txt"), *meta = slurp(dir, "meta.json");
	cr_assert(fs && tt && meta, "%s", dir);
	int result = 0;
	cJSON *root = NULL;
	tgsi_shader *sh = NULL;
	tgsi_exec_machine m;
	bool inited = false;
	char *orig = strstr(tt, "==== original");
	if (orig)
		*orig = '\0';
	if (strstr(fs, "DCL IN") || strstr(fs, "SAMP") || strstr(fs, "DCL SV"))
		goto done;
	root = cJSON_Parse(meta);
	cr_assert(root);
	cJSON *vars = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "stages"), "fs"),
		"nir_vars");
	if (uses_state(vars))
		goto done;
	ulp_diag d;
	ulp_diag_clear(&d);
	sh = tgsi_parse(fs, strlen(fs), dir, NULL, &d);
	cr_assert(sh, "%s: %s", dir, d.msg);
	cr_assert(tgsi_exec_init(&m, sh, dir, &d), "%s: %s", dir, d.msg);
	inited = true;
	if (!load_initialisers(vars, &m))
		goto done;
	int draws = 0, probes = 0;
	bool have_clear = false;
	float clear[4] = { 0, 0, 0, 0 };
	float want[16][4];
	int want_n[16];
	char *save = NULL;
	for (char *line = strtok_r(strchr(tt, '\n'), "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#' || strncmp(line, "[test]", 6) == 0 || strcmp(line, "clear") == 0)
			continue;
		if (strncmp(line, "clear color", 11) == 0) {
			have_clear = sscanf(line, "clear color %f %f %f %f", &clear[0], &clear[1], &clear[2],
			                    &clear[3]) == 4;
			continue;
		}
		if (strncmp(line, "uniform ", 8) == 0) {
			char type[32], name[128];
			int used;
			if (draws || sscanf(line, "uniform %31s %127s %n", type, name, &used) != 2 ||
			    strchr(type, 'm') || strncmp(type, "sampler", 7) == 0)
				goto done;
			if (strchr(name, '.'))
				goto done;     /* struct members: layout not modelled here */
			int slot = uniform_slot(vars, name);
			if (slot < 0)
				continue;      /* not used by the FS */
			uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_CONSTANT, 0, (size_t)slot);
			cr_assert(r);
			char *p = line + used;
			for (int c = 0; c < 4 && *p; c++) {
				char *end;
				float f;
				if (strncmp(p, "true", 4) == 0) {
					f = 1.0f;
					end = p + 4;
				} else if (strncmp(p, "false", 5) == 0) {
					f = 0.0f;
					end = p + 5;
				} else {
					f = strtof(p, &end);
					if (end == p)
						goto done;
				}
				memcpy(&r[c], &f, sizeof f);
				p = end;
				while (*p == ' ')
					p++;
			}
		} else if (strncmp(line, "draw ", 5) == 0) {
			if (strcmp(line, "draw rect -1 -1 2 2") != 0)
				goto done;
			draws++;
		} else if (strncmp(line, "probe ", 6) == 0 || strncmp(line, "relative probe ", 15) == 0) {
			int n = strstr(line, "rgba") ? 4 : 3;
			float nums[16];
			int k = 0;
			for (char *p = line; *p && k < 16; ) {
				char *end;
				if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '.') {
					nums[k] = strtof(p, &end);
					if (end != p) {
						k++;
						p = end;
						continue;
					}
				}
				p++;
			}
			if (k < n || probes == 16 || !draws)
				goto done;
			for (int c = 0; c < n; c++)
				want[probes][c] = nums[k - n + c];
			want_n[probes++] = n;
		} else {
			goto done;
		}
	}
	if (draws != 1 || !probes)
		goto done;
	cr_assert(tgsi_exec_run(&m, &d), "%s: %d:%d: %s", dir, d.line, d.col, d.msg);
	/* a killed fragment leaves the clear colour */
	cr_assert(!m.killed || have_clear, "%s: killed without a clear colour", dir);
	const uint32_t *o = tgsi_exec_reg(&m, TGSI_FILE_OUTPUT, 0, 0);
	cr_assert(o);
	for (int p = 0; p < probes; p++)
		for (int c = 0; c < want_n[p]; c++) {
			float f;
			if (m.killed)
				f = clear[c];
			else
				memcpy(&f, &o[c], sizeof f);
			f = fminf(fmaxf(f, 0.0f), 1.0f);
			cr_assert(fabsf(f - want[p][c]) <= 3.0f / 256.0f + 1e-6f,
			          "%s: channel %d = %g, probe wants %g", dir, c, (double)f, (double)want[p][c]);
		}
	result = 1;
done:
	if (inited)
		tgsi_exec_fini(&m);
	tgsi_shader_free(sh);
	cJSON_Delete(root);
	free(fs);
	free(tt);
	free(meta);
	return result;
}

Test(tgsi_exec, noint_corpus_matches_piglit_probes, .timeout = 60)
{
	char *root = test_corpus_path("tgsi-noint");
	DIR *dir = opendir(root);
	cr_assert(dir, "%s", root);
	struct dirent *e;
	int checked = 0;
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.' && e->d_type == DT_DIR)
			checked += check_test(e->d_name);
	closedir(dir);
	free(root);
	fprintf(stderr, "tgsi run: %d noint fragment shaders match piglit's probes\n", checked);
	cr_assert_geq(checked, 20, "only %d tests were eligible", checked);
}
