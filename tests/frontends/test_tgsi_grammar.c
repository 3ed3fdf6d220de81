/* TGSI grammar edge cases: Mesa 22.3.6's behaviour on each input of
 * reference tgsi.md §1.7 (accepted inputs compared with tgsi_dump's reprint),
 * the dialect pitfalls of §0/§1.6, and the representation behind them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

static tgsi_shader *parse_opts(const char *src, ulp_diag *d, bool reject_legacy)
{
	ulp_diag_clear(d);
	tgsi_parse_options o = { .reject_legacy = reject_legacy };
	return tgsi_parse(src, strlen(src), "t.tgsi", &o, d);
}

/* src must parse and reprint (as written) to exactly want. */
static void ok(const char *src, const char *want)
{
	ulp_diag d;
	tgsi_shader *sh = parse_opts(src, &d, false);
	cr_assert(sh, "rejected: %s\n-- %s:%d:%d: %s", src, d.file, d.line, d.col, d.msg);
	char *out = tgsi_dump_str(sh, TGSI_DUMP_FLOATS_AS_WRITTEN, NULL);
	cr_assert(out);
	cr_assert_str_eq(out, want, "input:\n%s", src);
	free(out);
	tgsi_shader_free(sh);
}

/* src must fail at line:col (0 = any) with a message containing sub. */
static void bad(const char *src, int line, int col, const char *sub)
{
	ulp_diag d;
	tgsi_shader *sh = parse_opts(src, &d, false);
	cr_assert_null(sh, "accepted: %s", src);
	cr_assert(d.set);
	cr_assert_str_eq(d.file, "t.tgsi");
	cr_assert(strstr(d.msg, sub), "input %s: message '%s' lacks '%s'", src, d.msg, sub);
	if (line)
		cr_assert_eq(d.line, line, "input %s: line %d (%s)", src, d.line, d.msg);
	if (col)
		cr_assert_eq(d.col, col, "input %s: col %d (%s)", src, d.col, d.msg);
}

Test(tgsi_grammar, swizzles_and_masks)
{
	bad("FRAG\nMOV OUT[0], IN[0].x\n", 2, 20, "swizzle component");
	bad("FRAG\nMOV OUT[0], IN[0].rgba\n", 2, 19, "swizzle component");
	bad("FRAG\nMOV TEMP[0].yx, IN[0]\n", 2, 14, "expected `,'");
	bad("FRAG\nMOV TEMP[0]., IN[0]\n", 2, 13, "write mask");
	ok("FRAG\nMOV TEMP[0].xyzw, IN[0].xyzw\n", "FRAG\n  0: MOV TEMP[0], IN[0]\n");
	ok("FRAG\nMOV TEMP[0].w, IN[0].wzyx\n", "FRAG\n  0: MOV TEMP[0].w, IN[0].wzyx\n");
}

Test(tgsi_grammar, whitespace_case_and_labels)
{
	ok("frag\nmov_sat out[0].xy, -|in[0].zyxw|\n", "FRAG\n  0: MOV_SAT OUT[0].xy, -|IN[0].zyxw|\n");
	ok("FRAG DCL IN[0], COLOR, LINEAR DCL OUT[0], COLOR MOV OUT[0], IN[0] END",
	   "FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n");
	ok("FRAG\n\t 7 : MOV TEMP [ 0 ] . xy , - | IN [ 0 ] . wzyx |\n",
	   "FRAG\n  0: MOV TEMP[0].xy, -|IN[0].wzyx|\n");
	ok("  FRAG\n\n 12: MOV TEMP[0], IN[0]\n 99: END\n\n",
	   "FRAG\n  0: MOV TEMP[0], IN[0]\n  1: END\n");
	bad("FRAG\r\nEND\r\n", 1, 5, "\\r");
	bad("FRAG\n# comment\nEND\n", 2, 1, "no comments");
	bad("FRAG\n; comment\nEND\n", 2, 1, "no comments");
	bad("FRAG\nEND // x\n", 2, 5, "no comments");
	bad("FRAG1.1\nEND\n", 1, 1, "expected a header");
	bad("", 1, 1, "expected a header");
	bad("FRAG\nFOO TEMP[0]\n", 2, 1, "unknown opcode `FOO'");
	bad("FRAG\n3: FOO\n", 2, 4, "unknown opcode");
	{
		static const char nul[] = "FRAG\nEND\0END\n";
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert_null(tgsi_parse(nul, sizeof nul - 1, "t.tgsi", NULL, &d));
		cr_assert(strstr(d.msg, "NUL byte"));
		cr_assert_eq(d.line, 2);
		cr_assert_eq(d.col, 4);
	}
	bad("FRAG\nMOV,TEMP[0], IN[0]\n", 2, 4, "whitespace");
	ok("FRAG", "FRAG\n");
}

Test(tgsi_grammar, indirect_addressing)
{
	ok("FRAG\nMOV OUT[0], IMM[ADDR[0].x+1]\n", "FRAG\n  0: MOV OUT[0], IMM[ADDR[0].x+1]\n");
	bad("FRAG\nMOV OUT[0], IMM[ADDR[0].x + 1]\n", 2, 28, "expected digits");
	ok("FRAG\nMOV TEMP[ADDR[0].x+1](1), CONST[0][ADDR[0].x-2]\n",
	   "FRAG\n  0: MOV TEMP[ADDR[0].x+1](1), CONST[0][ADDR[0].x-2]\n");
	ok("FRAG\nMOV TEMP[0], CONST[ADDR[1].x+1][3]\n",
	   "FRAG\n  0: MOV TEMP[0], CONST[ADDR[1].x+1][3]\n");
	ok("FRAG\nMOV TEMP[0], CONST[ ADDR [ 2 ] . y -3 ]\n",
	   "FRAG\n  0: MOV TEMP[0], CONST[ADDR[2].y-3]\n");
	ok("FRAG\nMOV TEMP[0], CONST[ADDR[0]+0]\n", "FRAG\n  0: MOV TEMP[0], CONST[ADDR[0].x]\n");
	ok("FRAG\nMOV TEMP[0], TEMP[1](3)\n", "FRAG\n  0: MOV TEMP[0], TEMP[1]\n");
	bad("FRAG\nMOV TEMP[0], CONST[ADDR[0].q]\n", 2, 28, "indirect register swizzle");

	ulp_diag d;
	tgsi_shader *sh = parse_opts("GEOM\nMOV TEMP[ADDR[0].z-4](2), -|IN[2][ADDR[1].y+5].wzyx|\n", &d,
	                             false);
	cr_assert(sh, "%s", d.msg);
	const tgsi_instruction *in = &sh->insts[0];
	cr_assert(in->dst[0].reg.indirect);
	cr_assert_eq(in->dst[0].reg.index, -4);
	cr_assert_eq(in->dst[0].reg.ind.file, TGSI_FILE_ADDRESS);
	cr_assert_eq(in->dst[0].reg.ind.swizzle, TGSI_SWIZZLE_Z);
	cr_assert_eq(in->dst[0].reg.ind.array_id, 2);
	const tgsi_src *s = &in->src[0];
	cr_assert(s->negate && s->absolute);
	cr_assert(s->reg.dimension && !s->reg.dim_indirect);
	cr_assert_eq(s->reg.dim_index, 2);
	cr_assert(s->reg.indirect);
	cr_assert_eq(s->reg.ind.index, 1);
	cr_assert_eq(s->reg.index, 5);
	cr_assert_eq(s->swizzle[0], TGSI_SWIZZLE_W);
	cr_assert_eq(s->swizzle[3], TGSI_SWIZZLE_X);
	tgsi_shader_free(sh);
}

Test(tgsi_grammar, immediates)
{
	ok("FRAG\nIMM FLT32 {1, .5, -2e-3, 3.}\n",
	   "FRAG\nIMM[0] FLT32 {    1.0000,     0.5000,    -0.0020,     3.0000}\n");
	ok("FRAG\nIMM FLT32 {0x3f800000, 1, 0x40000000, 0.30000001}\n",
	   "FRAG\nIMM[0] FLT32 {0x3f800000,     1.0000, 0x40000000,     0.3000}\n");
	bad("FRAG\nIMM[3] FLT32 {1, 2, 3, 4}\n", 2, 5, "must be sorted");
	ok("FRAG\nIMM[0] UINT32 {1, 2, 3, 4}\nIMM[1] INT32 {-1, +2, -3, 4}\n",
	   "FRAG\nIMM[0] UINT32 {1, 2, 3, 4}\nIMM[1] INT32 {-1, 2, -3, 4}\n");
	/* non-finite values as Mesa 22.3.6's tgsi_dump prints them (glibc's
	 * "%10.4f"), which Mesa's own parser refuses: the driver's text has them */
	ok("FRAG\nIMM FLT32 {inf, -inf, nan, -nan}\n",
	   "FRAG\nIMM[0] FLT32 {       inf,       -inf,        nan,       -nan}\n");
	bad("FRAG\nIMM FLT32 {Inf, 0, 0, 0}\n", 2, 12, "immediate constant");
	bad("FRAG\nIMM FLT32 {infinity, 0, 0, 0}\n", 2, 12, "immediate constant");
	bad("FRAG\nIMM FLT32 {+inf, 0, 0, 0}\n", 2, 12, "immediate constant");
	bad("FRAG\nIMM FLT32 {nan1, 0, 0, 0}\n", 2, 12, "immediate constant");
	bad("FRAG\nIMM UINT32 {-1, 0, 0, 0}\n", 2, 13, "immediate constant");
	bad("FRAG\nIMM FLT32 {1, 2, 3}\n", 2, 19, "expected `,'");
	bad("FRAG\nIMM FLT32 {1, 2, 3, 4, 5}\n", 2, 22, "expected `}'");
	bad("FRAG\nIMM FLT32 {0x3f80, 0, 0, 0}\n", 2, 18, "8 hex digits");
	bad("FRAG\nIMM FLT32 {1e, 0, 0, 0}\n", 2, 14, "exponent");
	bad("FRAG\nIMMFLT32 {1, 0, 0, 0}\n", 2, 1, "unknown opcode");
	bad("FRAG\nIMM FLT16 {1, 0, 0, 0}\n", 2, 5, "immediate type");
	bad("FRAG\nIMM UINT32 {4294967296, 0, 0, 0}\n", 2, 13, "too large");
	ok("FRAG\nIMM[0] FLT64 {1.5, 0.1}\n", "FRAG\nIMM[0] FLT64 {1.50000000, 0.10000000}\n");
	ok("FRAG\nIMM UINT64 {0x10, 7}\nIMM INT64 {-5, 9}\n",
	   "FRAG\nIMM[0] UINT64 {16, 7}\nIMM[1] INT64 {-5, 9}\n");

	ulp_diag d;
	tgsi_shader *sh = parse_opts("FRAG\nIMM FLT32 {      -nan,        inf,       -inf, nan}\n", &d, false);
	cr_assert(sh, "%s", d.msg);
	cr_assert_eq(sh->imms[0].u[0], 0xffc00000u);
	cr_assert_eq(sh->imms[0].u[1], 0x7f800000u);
	cr_assert_eq(sh->imms[0].u[2], 0xff800000u);
	cr_assert_eq(sh->imms[0].u[3], 0x7fc00000u);
	tgsi_shader_free(sh);
	sh = parse_opts("FRAG\nIMM FLT32 {0x3C8EFA35, 0.017453292, -0, 1e-5}\n", &d, false);
	cr_assert(sh, "%s", d.msg);
	const tgsi_immediate *im = &sh->imms[0];
	cr_assert_eq(im->u[0], 0x3c8efa35u);
	cr_assert_eq(im->notation[0], TGSI_FLOAT_HEX);
	cr_assert_eq(im->u[1], 0x3c8efa35u, "0.017453292 -> %#x", im->u[1]);
	cr_assert_eq(im->notation[1], TGSI_FLOAT_DECIMAL);
	cr_assert_eq(im->u[2], 0x80000000u);
	char *dec = tgsi_dump_str(sh, TGSI_DUMP_FLOATS_DECIMAL, NULL);
	cr_assert_str_eq(dec, "FRAG\nIMM[0] FLT32 {    0.0175,     0.0175,    -0.0000,     0.0000}\n");
	char *hex = tgsi_dump_str(sh, TGSI_DUMP_FLOATS_HEX, NULL);
	cr_assert_str_eq(hex, "FRAG\nIMM[0] FLT32 {0x3c8efa35, 0x3c8efa35, 0x80000000, 0x3727c5ac}\n");
	free(dec);
	free(hex);
	tgsi_shader_free(sh);
}

Test(tgsi_grammar, opcode_suffixes_and_modifiers)
{
	ok("FRAG\nMUL_SAT_PRECISE TEMP[0], IN[0], IN[1]\n",
	   "FRAG\n  0: MUL_SAT_PRECISE TEMP[0], IN[0], IN[1]\n");
	ok("FRAG\nMUL_PRECISE TEMP[0], IN[0], IN[1]\n",
	   "FRAG\n  0: MUL_PRECISE TEMP[0], IN[0], IN[1]\n");
	bad("FRAG\nMUL_PRECISE_SAT TEMP[0], IN[0], IN[1]\n", 2, 1, "unknown opcode");
	bad("FRAG\nMOV TEMP[0], |-TEMP[1]|\n", 2, 15, "-|x|");
	bad("FRAG\nMOV TEMP[0], |TEMP[1]\n", 0, 0, "expected `|'");
	ok("FRAG\nTEX_LZ TEMP[0], IN[0], SAMP[0], 2D\n", "FRAG\n  0: TEX_LZ TEMP[0], IN[0], SAMP[0], 2D\n");
	ok("FRAG\nDDX_FINE_SAT TEMP[0], IN[0]\n", "FRAG\n  0: DDX_FINE_SAT TEMP[0], IN[0]\n");
	bad("FRAG\nMOV TEMP[0]\n", 2, 12, "expected `,'");
	bad("FRAG\nMOV TEMP[0], IN[0], IN[1]\n", 2, 19, "whitespace or end of text");
	bad("FRAG\nMOV TEMP, IN[0]\n", 2, 9, "expected `['");
	bad("FRAG\nMOV FOO[0], IN[0]\n", 2, 5, "unknown register file");
}

Test(tgsi_grammar, texture_instructions)
{
	bad("FRAG\nTEX OUT[0], IN[0], SAMP[0]\n", 2, 27, "texture target");
	ok("FRAG\nTEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz\n",
	   "FRAG\n  0: TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz\n");
	ok("FRAG\nTXP TEMP[0], IN[0], SAMP[0], shadow2d\n",
	   "FRAG\n  0: TXP TEMP[0], IN[0], SAMP[0], SHADOW2D\n");
	ok("FRAG\nTEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0], IMM[1].zzz\n",
	   "FRAG\n  0: TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz, IMM[1].zzz\n");
	ok("FRAG\nSAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyz\n",
	   "FRAG\n  0: SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[0].xyz\n");
	ok("COMP\nLOAD TEMP[0], BUFFER[0], TEMP[1].xxxx, volatile, COHERENT, 2D, pipe_format_r32_uint\n",
	   "COMP\n  0: LOAD TEMP[0], BUFFER[0], TEMP[1].xxxx, COHERENT, VOLATILE, 2D, "
	   "PIPE_FORMAT_R32_UINT\n");
	bad("COMP\nLOAD TEMP[0], BUFFER[0], TEMP[1].xxxx, FOO\n", 2, 40, "memory qualifier");

	ulp_diag d;
	tgsi_shader *sh = parse_opts("FRAG\nTXB TEMP[0], IN[0], SAMP[1], CUBE\n", &d, false);
	cr_assert(sh);
	cr_assert(sh->insts[0].texture);
	cr_assert_eq(sh->insts[0].target, TGSI_TEXTURE_CUBE);
	cr_assert_eq(sh->insts[0].num_src, 2);
	cr_assert_eq(sh->insts[0].src[1].reg.file, TGSI_FILE_SAMPLER);
	cr_assert_eq(sh->insts[0].src[1].reg.index, 1);
	tgsi_shader_free(sh);
}

Test(tgsi_grammar, branches_and_indentation)
{
	ok("FRAG\nIF IN[0].xxxx :2\nKILL\nELSE :4\nKILL\nENDIF\nEND\n",
	   "FRAG\n  0: IF IN[0].xxxx :2\n  1:   KILL\n  2: ELSE :4\n  3:   KILL\n  4: ENDIF\n  5: END\n");
	bad("FRAG\nIF IN[0].xxxx\nENDIF :2\n", 3, 7, "branch label");
	ok("FRAG\nBGNLOOP :5\nCAL :10\nCONT\nENDLOOP :2\nEND\nBGNSUB\nRET\nENDSUB\n",
	   "FRAG\n  0: BGNLOOP :5\n  1:   CAL :10\n  2:   CONT\n  3: ENDLOOP :2\n  4: END\n"
	   "  5: BGNSUB\n  6:   RET\n  7: ENDSUB\n");
	ok("FRAG\nSWITCH IN[0].xxxx\nCASE IMM[0].xxxx\nBRK\nDEFAULT\nENDSWITCH\n",
	   "FRAG\n  0: SWITCH IN[0].xxxx\n  1: CASE IMM[0].xxxx\n  2: BRK\n  3: DEFAULT\n"
	   "  4: ENDSWITCH\n");
	ok("FRAG\nUIF IN[0].xxxx :0\nIF IN[1] :0\nENDIF\nENDIF\n",
	   "FRAG\n  0: UIF IN[0].xxxx :0\n  1:   IF IN[1] :0\n  2:   ENDIF\n  3: ENDIF\n");
	/* unbalanced text still reprints as tgsi_dump would (indent may go negative) */
	ok("FRAG\nENDIF\nIF IN[0]\nMOV TEMP[0], IN[0]\n",
	   "FRAG\n  0: ENDIF\n  1: IF IN[0]\n  2: MOV TEMP[0], IN[0]\n");
	bad("FRAG\nIF IN[0] :\n", 2, 11, "expected a label");
}

Test(tgsi_grammar, declarations)
{
	ok("FRAG\nDCL IN[1], GENERIC[3], PERSPECTIVE, CENTROID\nDCL IN[3].xy, TEXCOORD[0], PERSPECTIVE, SAMPLE\n",
	   "FRAG\nDCL IN[1], GENERIC[3], PERSPECTIVE, CENTROID\nDCL IN[3].xy, TEXCOORD[0], PERSPECTIVE, SAMPLE\n");
	ok("FRAG\nDCL IN[0], COLOR[0], COLOR, CENTER\nDCL IN[1], GENERIC\nDCL IN[2], COLOR[1]\n",
	   "FRAG\nDCL IN[0], COLOR, COLOR\nDCL IN[1], GENERIC[0]\nDCL IN[2], COLOR[1]\n");
	ok("FRAG\nDCL SVIEW[1], 3D, UINT, UINT, FLOAT, FLOAT\n", "FRAG\nDCL SVIEW[1], 3D, UINT\n");
	ok("FRAG\nDCL SVIEW[0], 2D, FLOAT\nDCL SAMP[0]\n", "FRAG\nDCL SVIEW[0], 2D, FLOAT\nDCL SAMP[0]\n");
	bad("FRAG\nDCL SVIEW[0], 2D\n", 2, 17, "return type");
	ok("FRAG\nDCL TEMP[4..7], ARRAY(1)\nDCL TEMP[0..3], LOCAL\nDCL ADDR[0..1]\nDCL CONST[1][0..3]\n"
	   "DCL SV[0], SAMPLEID\nDCL CONST[ 2 ] [ 5 .. 6 ]\n",
	   "FRAG\nDCL TEMP[4..7], ARRAY(1)\nDCL TEMP[0..3], LOCAL\nDCL ADDR[0..1]\nDCL CONST[1][0..3]\n"
	   "DCL SV[0], SAMPLEID\nDCL CONST[2][5..6]\n");
	ok("VERT\nDCL OUT[1..2], ARRAY(1), GENERIC[0]\nDCL OUT[0], POSITION, INVARIANT\n"
	   "DCL OUT[3], GENERIC[1], PERSPECTIVE\n",
	   "VERT\nDCL OUT[1..2], ARRAY(1), GENERIC[0]\nDCL OUT[0], POSITION, INVARIANT\n"
	   "DCL OUT[3], GENERIC[1]\n");
	ok("GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
	   "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], GENERIC[0]\nDCL IN[3][1], POSITION\n"
	   "DCL OUT[0], GENERIC[1], STREAM(1, 0, 2, 0)\nEMIT IMM[0].xxxx\n",
	   "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
	   "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], GENERIC[0]\nDCL IN[][1], POSITION\n"
	   "DCL OUT[0], GENERIC[1], STREAM(1, 0, 2, 0)\n  0: EMIT IMM[0].xxxx\n");
	bad("GEOM\nDCL IN[][0], GENERIC[0]\n", 2, 8, "implied size");
	bad("GEOM\nEMIT\n", 2, 5, "operands of EMIT");
	bad("VERT\nDCL IN[0], POSITION\n", 2, 10, "VERT input");
	ok("VERT\nDCL IN[0..1].xy\n", "VERT\nDCL IN[0..1].xy\n");
	ok("FRAG\nDCL IN[0], LINEAR\n", "FRAG\nDCL IN[0], LINEAR\n");
	bad("FRAG\nDCL IN[0], GENERIC[0], CENTROID, PERSPECTIVE\n", 2, 34, "in that order");
	bad("FRAG\nDCL IN[0], FOO\n", 2, 12, "expected semantic");
	bad("FRAG\nDCL IN[0..]\n", 2, 11, "after `..'");
	bad("FRAG\nDCL IN[0.1]\n", 2, 9, "`]' or `..'");
	ok("TESS_CTRL\nDCL IN[][0], GENERIC[0]\nDCL OUT[][1], GENERIC[0]\nDCL OUT[2], PATCH\n"
	   "DCL OUT[3], TESSINNER\n",
	   "TESS_CTRL\nDCL IN[][0], GENERIC[0]\nDCL OUT[][1], GENERIC[0]\nDCL OUT[2], PATCH\n"
	   "DCL OUT[3], TESSINNER\n");
	ok("COMP\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\nDCL IMAGE[1], 3D, RAW\n"
	   "DCL BUFFER[0], ATOMIC\nDCL MEMORY[0], SHARED\nDCL MEMORY[1]\nDCL HWATOMIC[0]\n",
	   "COMP\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\n"
	   "DCL IMAGE[1], 3D, PIPE_FORMAT_NONE, RAW\nDCL BUFFER[0], ATOMIC\nDCL MEMORY[0], SHARED\n"
	   "DCL MEMORY[1], GLOBAL\nDCL HWATOMIC[0]\n");

	ulp_diag d;
	tgsi_shader *sh = parse_opts("FRAG\nDCL IN[2].xz, TEXCOORD[5], PERSPECTIVE, CENTROID\n"
	                             "DCL CONST[3][1..4]\n", &d, false);
	cr_assert(sh);
	const tgsi_declaration *dc = &sh->decls[0];
	cr_assert_eq(dc->file, TGSI_FILE_INPUT);
	cr_assert_eq(dc->first, 2);
	cr_assert_eq(dc->usage_mask, TGSI_WRITEMASK_X | TGSI_WRITEMASK_Z);
	cr_assert(dc->semantic);
	cr_assert_eq(dc->semantic_name, TGSI_SEMANTIC_TEXCOORD);
	cr_assert_eq(dc->semantic_index, 5);
	cr_assert(dc->interpolate);
	cr_assert_eq(dc->interp, TGSI_INTERPOLATE_PERSPECTIVE);
	cr_assert_eq(dc->location, TGSI_INTERPOLATE_LOC_CENTROID);
	cr_assert(sh->decls[1].dimension);
	cr_assert_eq(sh->decls[1].index_2d, 3);
	cr_assert_eq(sh->decls[1].last, 4);
	tgsi_shader_free(sh);
}

Test(tgsi_grammar, properties)
{
	ok("FRAG\nPROPERTY FS_COORD_ORIGIN lower_left\nPROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER\n"
	   "PROPERTY NEXT_SHADER VERT\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n",
	   "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER\n"
	   "PROPERTY NEXT_SHADER VERT\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n");
	bad("FRAG\nPROPERTY FOO_BAR 1\n", 2, 10, "unknown property `FOO_BAR'");
	bad("FRAG\nPROPERTY NEXT_SHADER FOO\n", 2, 22, "shader stage");
	bad("FRAG\nPROPERTY GS_INVOCATIONS x\n", 2, 25, "unsigned integer");
	bad("FRAG\nPROPERTY\n", 2, 9, "property name");
}

Test(tgsi_grammar, legacy_dialect)
{
	ok("FRAG\nSUB TEMP[0], IN[0], IN[1]\nABS TEMP[1], IN[0]\nXPD TEMP[2], IN[0], IN[1]\n"
	   "DPH TEMP[3].x, IN[0], IN[1]\nSCS TEMP[4].xy, IN[0].xxxx\nKIL -TEMP[0]\n"
	   "CLAMP TEMP[5], IN[0], IN[1], IN[2]\n",
	   "FRAG\n  0: SUB TEMP[0], IN[0], IN[1]\n  1: ABS TEMP[1], IN[0]\n  2: XPD TEMP[2], IN[0], IN[1]\n"
	   "  3: DPH TEMP[3].x, IN[0], IN[1]\n  4: SCS TEMP[4].xy, IN[0].xxxx\n  5: KIL -TEMP[0]\n"
	   "  6: CLAMP TEMP[5], IN[0], IN[1], IN[2]\n");
	ulp_diag d;
	tgsi_shader *sh = parse_opts("FRAG\nSUB TEMP[0], IN[0], IN[1]\n", &d, true);
	cr_assert_null(sh);
	cr_assert(strstr(d.msg, "unknown opcode `SUB'"), "%s", d.msg);
	/* undeclared registers and a missing END are accepted (Mesa's default) */
	ok("FRAG\nMOV TEMP[3], TEMP[9]\n", "FRAG\n  0: MOV TEMP[3], TEMP[9]\n");
	/* relative and unset labels are kept as written */
	ok("FRAG\nIF TEMP[2].xxxx :2\nKILL\nENDIF\n",
	   "FRAG\n  0: IF TEMP[2].xxxx :2\n  1:   KILL\n  2: ENDIF\n");
	/* hand-written graw style: no numbers, IMM without index, blank lines */
	ok("FRAG\n\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\n\nDCL TEMP[0]\n\n"
	   "IMM FLT32 { -0.2, -0.3, -0.4, 0.0 }\nIMM FLT32 { -1.0, -1.0, -1.0, -1.0 }\n\n"
	   "ADD TEMP[0], IN[0], IMM[0]\nMOV TEMP[0], -|TEMP[0]|\nMUL OUT[0], TEMP[0], IMM[1]\n\nEND\n",
	   "FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
	   "IMM[0] FLT32 {   -0.2000,    -0.3000,    -0.4000,     0.0000}\n"
	   "IMM[1] FLT32 {   -1.0000,    -1.0000,    -1.0000,    -1.0000}\n"
	   "  0: ADD TEMP[0], IN[0], IMM[0]\n  1: MOV TEMP[0], -|TEMP[0]|\n"
	   "  2: MUL OUT[0], TEMP[0], IMM[1]\n  3: END\n");
}

Test(tgsi_grammar, opcode_table)
{
	cr_assert_eq(TGSI_OPCODE_COUNT, 251);
	unsigned legacy = 0;
	for (unsigned i = 0; i < TGSI_OPCODE_COUNT; i++) {
		const tgsi_opcode_info *info = tgsi_get_opcode_info((enum tgsi_opcode)i);
		cr_assert(info && info->mnemonic);
		cr_assert_eq(tgsi_opcode_from_name(info->mnemonic, strlen(info->mnemonic)), i);
		cr_assert_leq(info->num_dst, TGSI_MAX_DST);
		cr_assert_leq(info->num_src, TGSI_MAX_SRC);
		legacy += (info->flags & TGSI_OPF_LEGACY) != 0;
	}
	cr_assert_eq(TGSI_OPCODE_COUNT - legacy, 244, "Mesa 22.3 has 244 opcode names");
	cr_assert_eq(tgsi_get_opcode_info(TGSI_OPCODE_MAD)->num_src, 3);
	cr_assert_eq(tgsi_get_opcode_info(TGSI_OPCODE_DP3)->output_mode, TGSI_OUT_REPL);
	cr_assert(tgsi_get_opcode_info(TGSI_OPCODE_TXP)->flags & TGSI_OPF_TEX);
	cr_assert(tgsi_get_opcode_info(TGSI_OPCODE_IF)->flags & TGSI_OPF_BRANCH);
	cr_assert_null(tgsi_get_opcode_info(TGSI_OPCODE_COUNT));
	cr_assert_eq(tgsi_opcode_from_name("kill_if", 7), TGSI_OPCODE_KILL_IF);
	cr_assert_eq(tgsi_opcode_from_name("MOVE", 4), TGSI_OPCODE_COUNT);
	cr_assert_str_eq(tgsi_semantic_name(TGSI_SEMANTIC_VIEWPORT_MASK), "VIEWPORT_MASK");
	cr_assert_null(tgsi_file_name(TGSI_FILE_COUNT));
}
