/* TGSI -> PICA200 compiler: differential tests against the reference
 * interpreter over the corpora, plus hand-written shaders for the mapping,
 * the hardware constraints, refusals and the CLI.
 *
 * Differential test: every vs.tgsi of ../shared/corpus/tgsi-noint (and
 * ../shared/corpus/tgsi) is compiled, assembled and run on the PICA200 unit
 * (units/pica/pica_exec.h, f24 arithmetic with the default knobs) and on
 * tgsi_exec (f32) with the same pseudo-random inputs: IN[n] and CONST[0][n]
 * in [-2, 2], rounded to float24 first so both sides see the same values;
 * CASES cases per shader, fixed seed.  Every output component in the DVLE
 * output table is compared with
 *     |pica - ref| <= TOL * max(1, |ref|),   TOL = 2^-10
 * float24 keeps 16 mantissa bits and the unit truncates every result
 * (relative error up to 2^-16 per operation, inputs rounded to the same
 * grid); 2^-10 allows the error of ~32 such roundings relative to the
 * operands' scale (a 4x4 transform of values up to 2 reaches 16, hence the
 * absolute floor of 1 x TOL for results that cancel to near 0), and still
 * catches any wrong operand, swizzle, register or branch (errors of O(1)).
 * Cases whose indirect CONST index falls outside the declared array are
 * out-of-bounds reads in GL (undefined): they are redrawn. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "isa/f24.h"
#include "tests/frontends/compile_tally.h"
#include "tests/test_util.h"
#include "units/pica/pica_exec.h"

enum { CASES = 4, REDRAWS = 40 };
#define TOL (1.0 / 1024.0)

static float rnd_val(test_rng *r)
{
	float v = (float)((test_rnd(r) >> 8) / 16777216.0 * 4.0 - 2.0);
	return f24_decode(f24_encode(v, ULP_ROUND_NEAREST_EVEN));
}

static bool close_enough(float p, float r)
{
	if (isnan(r) || isnan(p))
		return isnan(r) && isnan(p);
	if (isinf(r) || isinf(p))
		return p == r;
	return fabs((double)p - (double)r) <= TOL * fmax(1.0, fabs((double)r));
}

enum outcome { OUT_MATCH, OUT_REFUSED, OUT_MISMATCH, OUT_PICA_ERROR, OUT_REF_ERROR, OUT_N };
static const char *const OUTCOME[OUT_N] = { "match", "refused", "value mismatch",
                                            "PICA run error", "reference error" };

typedef struct one_result {
	enum outcome o;
	enum ir_refusal why;
	char msg[1800];
} one_result;

/* Largest declared CONST[0] register + 1. */
static int32_t const_declared(const tgsi_shader *sh)
{
	int32_t n = 0;
	for (size_t i = 0; i < sh->num_decls; i++)
		if (sh->decls[i].file == TGSI_FILE_CONSTANT && (!sh->decls[i].dimension || sh->decls[i].index_2d == 0))
			if ((int32_t)sh->decls[i].last + 1 > n)
				n = (int32_t)sh->decls[i].last + 1;
	return n;
}

static bool has_indirect(const tgsi_shader *sh)
{
	for (size_t i = 0; i < sh->num_insts; i++)
		for (unsigned k = 0; k < sh->insts[i].num_src; k++)
			if (sh->insts[i].src[k].reg.indirect)
				return true;
	return false;
}

/* Every indirect CONST read of the last reference run was inside the
 * declared array (checked with the final ADDR values: the corpus sets each
 * address once). */
static bool indirect_in_range(tgsi_exec_machine *m, const tgsi_shader *sh, int32_t ndecl)
{
	for (size_t i = 0; i < sh->num_insts; i++)
		for (unsigned k = 0; k < sh->insts[i].num_src; k++) {
			const tgsi_reg_ref *r = &sh->insts[i].src[k].reg;
			if (r->file != TGSI_FILE_CONSTANT || !r->indirect)
				continue;
			uint32_t *a = tgsi_exec_reg(m, TGSI_FILE_ADDRESS, 0, (size_t)r->ind.index);
			int64_t idx = (int64_t)(int32_t)(a ? a[r->ind.swizzle & 3] : 0) + r->index;
			if (idx < 0 || idx >= ndecl)
				return false;
		}
	return true;
}

/* Runs one case on both sides; false + msg on a mismatch or error. */
static enum outcome run_case(const char *path, tgsi_shader *sh, const pica_compile_result *cr,
                             const pica_program *prog, const pica_env *env, test_rng *g, int32_t ndecl,
                             char *msg, size_t msz, bool *skipped)
{
	*skipped = false;
	float in[16][4], cst[96][4];
	for (int v = 0; v < 16; v++)
		for (int c = 0; c < 4; c++)
			in[v][c] = rnd_val(g);
	/* with indirect addressing, non-negative constants keep ARL addresses
	 * mostly inside the array (the final-ADDR check below redraws the rest) */
	bool nonneg = has_indirect(sh);
	for (int n = 0; n < 96; n++)
		for (int c = 0; c < 4; c++) {
			cst[n][c] = rnd_val(g);
			if (nonneg)
				cst[n][c] = fabsf(cst[n][c]);
		}
	tgsi_exec_machine m;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!tgsi_exec_init(&m, sh, path, &d)) {
		snprintf(msg, msz, "%.512s", d.msg);
		return OUT_REF_ERROR;
	}
	for (int v = 0; v < 16; v++) {
		uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_INPUT, 0, (size_t)v);
		for (int c = 0; r && c < 4; c++)
			r[c] = test_f_bits(in[v][c]);
	}
	for (int32_t n = 0; n < ndecl && n < 96; n++) {
		uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_CONSTANT, 0, (size_t)n);
		for (int c = 0; r && c < 4; c++)
			r[c] = test_f_bits(cst[n][c]);
	}
	if (!tgsi_exec_run(&m, &d)) {
		snprintf(msg, msz, "%.512s", d.msg);
		tgsi_exec_fini(&m);
		return OUT_REF_ERROR;
	}
	if (!indirect_in_range(&m, sh, ndecl)) {
		tgsi_exec_fini(&m);
		*skipped = true;
		return OUT_MATCH;
	}
	pica_uniforms *u = calloc(1, sizeof *u);
	pica_thread *t = calloc(1, sizeof *t);
	cr_assert(u && t);
	pica_uniforms_apply_dvle(u, prog->dvle);
	for (int32_t n = 0; n < ndecl && n < 96 - (int32_t)cr->imm_regs; n++)
		for (int c = 0; c < 4; c++)
			u->c[n].c[c] = cst[n][c];
	pica_thread_reset(t);
	for (int v = 0; v < 16; v++)
		for (int c = 0; c < 4; c++)
			t->v[v].c[c] = in[v][c];
	enum outcome res = OUT_MATCH;
	if (pica_run(t, prog, u, env, &d) != PICA_STEP_END) {
		snprintf(msg, msz, "%.512s", d.msg);
		res = OUT_PICA_ERROR;
	}
	for (unsigned k = 0; res == OUT_MATCH && k < cr->noutputs; k++) {
		const pica_compile_output *o = &cr->outputs[k];
		uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_OUTPUT, 0, (size_t)o->tgsi_index);
		for (unsigned c = 0; c < 4 && r; c++) {
			if (!(o->mask & (1u << c)))
				continue;
			float want = test_bits_f(r[c]), got = t->o[0][o->o_reg].c[c];
			if (!close_enough(got, want)) {
				snprintf(msg, msz, "OUT[%d].%c: pica %.9g, reference %.9g", o->tgsi_index,
				         "xyzw"[c], (double)got, (double)want);
				res = OUT_MISMATCH;
				break;
			}
		}
	}
	free(u);
	free(t);
	tgsi_exec_fini(&m);
	return res;
}

static one_result check_text(const char *path, const char *text, size_t len, uint32_t seed)
{
	one_result R = { .o = OUT_MATCH };
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, len, path, NULL, &d);
	cr_assert(sh, "%s: %s", path, d.msg);
	pica_compile_result cr;
	if (!pica_compile(sh, path, NULL, &cr)) {
		R.o = OUT_REFUSED;
		R.why = cr.why;
		/* every refusal must say why, with a position */
		cr_expect(cr.d.set && cr.d.msg[0], "%s: refused without a message", path);
		snprintf(R.msg, sizeof R.msg, "%s:%d:%d: %s", path, cr.d.line, cr.d.col, cr.d.msg);
		pica_compile_result_free(&cr);
		tgsi_shader_free(sh);
		return R;
	}
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	pica_program prog;
	if (!pica_program_build(&prog, &cr.shbin, 0, &cfg, &d)) {
		R.o = OUT_PICA_ERROR;
		snprintf(R.msg, sizeof R.msg, "%s: program build: %s", path, d.msg);
		pica_compile_result_free(&cr);
		tgsi_shader_free(sh);
		return R;
	}
	pica_env env;
	pica_env_from_config(&env, &cfg);
	test_rng g = { seed ? seed : 1 };
	int32_t ndecl = const_declared(sh);
	bool indirect = has_indirect(sh);
	int done = 0;
	for (int tries = 0; done < CASES && tries < CASES * REDRAWS; tries++) {
		char msg[700] = "";
		bool skipped;
		enum outcome o = run_case(path, sh, &cr, &prog, &env, &g, ndecl, msg, sizeof msg, &skipped);
		if (skipped && indirect)
			continue;
		done++;
		if (o != OUT_MATCH) {
			R.o = o;
			snprintf(R.msg, sizeof R.msg, "%s: case %d: %s", path, done - 1, msg);
			break;
		}
	}
	if (R.o == OUT_MATCH && done < CASES) {
		R.o = OUT_REF_ERROR;
		snprintf(R.msg, sizeof R.msg, "%s: no case with in-range indirect reads", path);
	}
	pica_program_free(&prog);
	pica_compile_result_free(&cr);
	tgsi_shader_free(sh);
	return R;
}

static one_result check_shader(const char *path, uint32_t seed)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	cr_assert(text, "%s", d.msg);
	one_result R = check_text(path, text, len, seed);
	free(text);
	return R;
}

/* A fragment shader relabelled as a vertex shader: the header becomes VERT
 * and input declarations lose their semantic/interpolation (VERT inputs take
 * none); SV declarations stay (the backend refuses them). */
static one_result check_fs_as_vs(const char *path, uint32_t seed)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	cr_assert(text, "%s", d.msg);
	char *out = malloc(len + 8);
	cr_assert(out);
	size_t n = 0;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t ll = nl ? (size_t)(nl - line) + 1 : strlen(line);
		size_t keep = ll;
		if (line == text && !strncmp(line, "FRAG", 4)) {
			memcpy(out, "VERT", 4);
			n = 4;
			line += 4;
			continue;
		}
		if (!strncmp(line, "DCL IN[", 7)) {
			char *close = memchr(line, ']', ll);
			if (close) {
				keep = (size_t)(close - line) + 1;
				memcpy(out + n, line, keep);
				n += keep;
				out[n++] = '\n';
				line += ll;
				continue;
			}
		}
		memcpy(out + n, line, keep);
		n += keep;
		line += ll;
	}
	out[n] = 0;
	one_result R = check_text(path, out, n, seed);
	free(out);
	free(text);
	return R;
}

typedef struct corpus_run {
	bool fs;
	compile_tally T;
} corpus_run;

static void corpus_shader(void *ctx, const char *path, uint32_t seed)
{
	corpus_run *c = ctx;
	one_result R = c->fs ? check_fs_as_vs(path, seed) : check_shader(path, seed);
	compile_tally_add(&c->T, R.o, R.why, R.msg);
}

static compile_tally run_corpus(const char *set, const char *stage)
{
	corpus_run c = { .fs = !strcmp(stage, "fs"),
	                 .T = { .outcome = OUTCOME, .nout = OUT_N, .match = OUT_MATCH, .refused = OUT_REFUSED } };
	char file[16], label[64];
	snprintf(file, sizeof file, "%s.tgsi", stage);
	compile_corpus_each(set, file, corpus_shader, &c);
	snprintf(label, sizeof label, "pica (%s %s)", set, stage);
	compile_tally_print(&c.T, label);
	return c.T;
}

Test(compile_pica, corpus_noint_vertex_shaders, .timeout = 120)
{
	compile_tally S = run_corpus("tgsi-noint", "vs");
	cr_assert_gt(S.total, 100, "expected the tgsi-noint corpus (%u vertex shaders)", S.total);
	/* goal: compile and match >= 95% */
	cr_assert_geq(S.matching * 100, S.total * 95, "matching %u/%u is below 95%%", S.matching, S.total);
}

/* More coverage: the corpora's fragment shaders (IF/ELSE-heavy, CMP, KILL,
 * textures) compiled as vertex shaders.  Everything that compiles must
 * match; texture/KILL/DDX uses must be refused, never crash. */
Test(compile_pica, corpus_fragment_shaders_as_vertex_shaders, .timeout = 120)
{
	compile_tally a = run_corpus("tgsi-noint", "fs"), b = run_corpus("tgsi", "fs");
	cr_assert_gt(a.compiled + b.compiled, 200);
	/* reference errors (an endless loop for the drawn uniforms) decide nothing */
	cr_assert_eq(a.by_out[OUT_MISMATCH] + a.by_out[OUT_PICA_ERROR], 0, "tgsi-noint fs");
	cr_assert_eq(b.by_out[OUT_MISMATCH] + b.by_out[OUT_PICA_ERROR], 0, "tgsi fs");
}

Test(compile_pica, corpus_tgsi_vertex_shaders, .timeout = 120)
{
	compile_tally S = run_corpus("tgsi", "vs");
	cr_assert_gt(S.total, 100);
	cr_assert_geq(S.matching * 100, S.total * 95, "matching %u/%u is below 95%%", S.matching, S.total);
}

/* ---- every lowering, differentially (hand-written vertex shaders) ---- */

static const char HEAD[] =
	"VERT\n"
	"DCL IN[0]\nDCL IN[1]\nDCL IN[2]\n"
	"DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL OUT[2], GENERIC[1]\n"
	"DCL CONST[0][0..7]\nDCL TEMP[0..7]\nDCL ADDR[0]\n"
	"IMM[0] FLT32 {0.5, 1.0, 2.0, -1.5}\n"
	"IMM[1] FLT32 {3.0, 0.25, 100.0, 0.0}\n"
	"IMM[2] FLT32 {2.5, -1.5, 0.5, 3.5}\n"
	"MOV OUT[0], IN[0]\n";

static const struct { const char *name, *body; } OP_TESTS[] = {
	{ "sin_cos", "MUL TEMP[0], IN[1], IMM[1].xxxx\n"
	  "SIN OUT[1].xy, TEMP[0].xxxx\nCOS OUT[1].zw, TEMP[0].yyyy\n"
	  "SCS OUT[2], TEMP[0].zzzz\n" },
	{ "lit_log_exp_dst", "LIT OUT[1], IN[1]\nEXP TEMP[0], IN[2].xxxx\n"
	  "LOG TEMP[1], IN[2].yyyy\nADD OUT[2].xy, TEMP[0].xyxx, TEMP[1].xyxx\n"
	  "DST OUT[2].zw, IN[1], IN[2]\n" },
	{ "pow_div_sqrt", "POW OUT[1].x, |IN[1].xxxx|, IN[1].yyyy\nDIV OUT[1].yzw, IN[1].zzzw, IN[2].xyzw\n"
	  "SQRT_SAT OUT[2].x, IN[2].xxxx\nRSQ OUT[2].y, |IN[2].yyyy|\nRCP OUT[2].z, IN[2].zzzz\n"
	  "EX2 OUT[2].w, IN[2].wwww\n" },
	{ "rounding", "MUL TEMP[0], IN[1], IMM[1].xxxx\nFRC OUT[1].x, TEMP[0].xxxx\n"
	  "CEIL OUT[1].y, TEMP[0].yyyy\nTRUNC OUT[1].zw, TEMP[0]\nROUND TEMP[1], TEMP[0]\n"
	  "ROUND TEMP[2], IMM[2]\nADD OUT[2], TEMP[1], TEMP[2]\nSSG TEMP[3], TEMP[0]\n"
	  "FLR TEMP[4], TEMP[0]\nMAD OUT[2], TEMP[3], TEMP[4], OUT[2]\n" },
	{ "compare_select", "SEQ TEMP[0], IN[1], IN[1].xxxx\nSNE TEMP[1], IN[1], IN[1].yyyy\n"
	  "SGT TEMP[2], IN[1], CONST[0][0]\nSLE TEMP[3], CONST[0][1], IN[1]\n"
	  "ADD TEMP[0], TEMP[0], TEMP[1]\nMAD TEMP[0], TEMP[2], IMM[0].zzzz, TEMP[0]\n"
	  "MAD OUT[1], TEMP[3], IMM[1].xxxx, TEMP[0]\n"
	  "CMP TEMP[4], IN[2], CONST[0][2], IN[1]\nLRP TEMP[5], IN[1], CONST[0][3], IN[2]\n"
	  "MIN TEMP[6], CONST[0][4], IN[1]\nMAX TEMP[7], IN[2], CONST[0][5]\n"
	  "ADD TEMP[4], TEMP[4], TEMP[5]\nADD TEMP[6], TEMP[6], TEMP[7]\n"
	  "SLT TEMP[5], CONST[0][6], IN[2]\nSGE TEMP[7], IN[1], CONST[0][6]\n"
	  "MAD TEMP[4], TEMP[5], IMM[0].zzzz, TEMP[4]\nMAD TEMP[6], TEMP[7], IMM[1].xxxx, TEMP[6]\n"
	  "ADD OUT[2], TEMP[4], TEMP[6]\n" },
	{ "dot_products", "DP2 OUT[1].x, IN[1], CONST[0][0]\nDP3 OUT[1].y, CONST[0][1], IN[1]\n"
	  "DP4 OUT[1].z, IN[1], CONST[0][2]\nDPH OUT[1].w, IN[1], CONST[0][3]\n"
	  "XPD OUT[2], IN[1], CONST[0][4]\n" },
	{ "modifiers", "ADD_SAT OUT[1].x, -|IN[1].xxxx|, IMM[0].zzzz\nMOV_SAT OUT[1].y, IN[1].yyyy\n"
	  "SUB OUT[1].z, IN[1].zzzz, CONST[0][0].xxxx\nABS OUT[1].w, IN[1].wwww\n"
	  "CLAMP TEMP[0], IN[2], -IMM[0].xxxx, IMM[0].xxxx\n"
	  "MAD TEMP[1], CONST[0][0], CONST[0][1], IN[1]\nMAD TEMP[2], IN[0], IN[1], IN[2]\n"
	  "ADD TEMP[3], IN[1], IN[2]\nMUL TEMP[4], CONST[0][2], CONST[0][2].yxwz\n"
	  "ADD TEMP[0], TEMP[0], TEMP[1]\nADD TEMP[2], TEMP[2], TEMP[3]\n"
	  "ADD TEMP[0], TEMP[0], TEMP[4]\nADD OUT[2], TEMP[0], TEMP[2]\n" },
	{ "indirect", "ARL ADDR[0].x, CONST[0][0].xxxx\nARL ADDR[0].y, CONST[0][0].yyyy\n"
	  "MOV OUT[1], CONST[0][ADDR[0].x+2]\nADD OUT[2], CONST[0][ADDR[0].y+4], IN[1]\n" },
	{ "loops", "MOV TEMP[0], IMM[1].wwww\nMOV TEMP[1], IMM[1].wwww\n"
	  "BGNLOOP\n ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
	  " SGE TEMP[2].x, TEMP[0].xxxx, IMM[1].xxxx\n IF TEMP[2].xxxx\n  BRK\n ENDIF\n"
	  " SLT TEMP[2].x, IN[1].xxxx, IMM[0].wwww\n IF TEMP[2].xxxx\n  CONT\n ENDIF\n"
	  " ADD TEMP[1], TEMP[1], IN[1]\nENDLOOP\nMOV OUT[1], TEMP[1]\n"
	  "MOV TEMP[3], IMM[1].wwww\n"
	  "BGNLOOP\n ADD TEMP[3].x, TEMP[3].xxxx, IMM[0].yyyy\n"
	  " SLT TEMP[2].x, IMM[0].zzzz, TEMP[3].xxxx\n"
	  " IF TEMP[2].xxxx\n  MOV OUT[2], TEMP[3].xxxx\n  BRK\n ELSE\n"
	  "  MOV OUT[2].y, IN[2].yyyy\n ENDIF\nENDLOOP\n" },
	{ "deep_ifs", "MOV TEMP[0], IMM[1].wwww\n"
	  "SLT TEMP[1], IMM[1].wwww, IN[1]\nSLT TEMP[2], IMM[1].wwww, IN[2]\n"
	  "IF TEMP[1].xxxx\n IF TEMP[1].yyyy\n  IF TEMP[1].zzzz\n   IF TEMP[1].wwww\n"
	  "    IF TEMP[2].xxxx\n     IF TEMP[2].yyyy\n      IF TEMP[2].zzzz\n       IF TEMP[2].wwww\n"
	  "        IF IN[0].xxxx\n         IF CONST[0][0].xxxx\n          ADD TEMP[0], TEMP[0], IMM[0]\n"
	  "         ELSE\n          ADD TEMP[0], TEMP[0], IMM[1]\n         ENDIF\n"
	  "        ENDIF\n       ENDIF\n      ENDIF\n     ENDIF\n    ELSE\n     MOV TEMP[0].x, IN[2].wwww\n"
	  "    ENDIF\n   ENDIF\n  ENDIF\n ENDIF\nELSE\n MOV TEMP[0].y, IN[1].xxxx\nENDIF\n"
	  "MOV OUT[1], TEMP[0]\nMOV OUT[2].xz, TEMP[0].wwyy\n" },
};

Test(compile_pica, every_lowering_matches_the_interpreter)
{
	for (size_t k = 0; k < sizeof OP_TESTS / sizeof OP_TESTS[0]; k++) {
		char text[4096];
		int n = snprintf(text, sizeof text, "%sEND\n", HEAD);
		cr_assert(n > 0 && (size_t)n < sizeof text);
		n = snprintf(text, sizeof text, "%s%sEND\n", HEAD, OP_TESTS[k].body);
		cr_assert(n > 0 && (size_t)n < sizeof text);
		for (uint32_t seed = 1; seed <= 8; seed++) {
			one_result R = check_text(OP_TESTS[k].name, text, (size_t)n, seed * 7919u);
			cr_assert_eq(R.o, OUT_MATCH, "%s (seed %u): %s: %s", OP_TESTS[k].name, seed,
			             OUTCOME[R.o], R.msg);
		}
	}
}

/* ---- constraints, tables, geometry shaders, refusals, CLI ---- */

static bool compile_text(const char *text, pica_compile_result *r)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "t.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	bool ok = pica_compile(sh, "t.tgsi", NULL, r);
	tgsi_shader_free(sh);
	return ok;
}

Test(compile_pica, generated_code_keeps_the_hardware_rules)
{
	/* two inputs in one instruction, three in a MAD, two constants in a MAD,
	 * a constant as IF value, two ARLs in a row, nine outputs */
	pica_compile_result r;
	bool ok = compile_text(
		"VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
		"DCL OUT[2..8], GENERIC[0]\nDCL CONST[0][0..3]\nDCL TEMP[0]\nDCL ADDR[0]\n"
		"ADD OUT[0], IN[0], IN[1]\nMAD OUT[1], IN[0], IN[1], IN[2]\n"
		"MAD OUT[2], CONST[0][0], CONST[0][1], IN[0]\n"
		"ARL ADDR[0].x, IN[0].xxxx\nARL ADDR[0].y, IN[0].yyyy\n"
		"MOV OUT[3], CONST[0][ADDR[0].y+1]\nMOV OUT[4], IN[2]\nMOV OUT[5].xy, IN[1]\n"
		"IF CONST[0][0].xxxx\nMOV TEMP[0], IN[1]\nENDIF\nMOV OUT[6], TEMP[0]\n"
		"MOV OUT[7], IN[0]\nMOV OUT[8], IN[0]\nEND\n", &r);
	cr_assert(ok, "%s", r.d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	pica_program p;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(pica_program_build(&p, &r.shbin, 0, &cfg, &d), "%s", d.msg);
	for (uint32_t i = 0; i < p.ncode; i++) {
		cr_assert_not(p.meta[i].two_inputs, "pc %u reads two input registers\n%s", i, r.asm_text);
		if (i > 0)
			cr_assert_not(p.inst[i].op == PICA_OP_MOVA && p.inst[i - 1].op == PICA_OP_MOVA,
			              "adjacent MOVAs at %u", i);
	}
	/* output table: position o0, color o1, three texcoords, the rest dummy;
	 * only o0-o6 may carry a semantic */
	cr_assert_eq(r.noutputs, 9);
	unsigned tc = 0;
	for (unsigned k = 0; k < r.noutputs; k++) {
		const pica_compile_output *o = &r.outputs[k];
		if (o->tgsi_index == 0)
			cr_assert(o->o_reg == 0 && o->type == SHBIN_OUT_POSITION);
		if (o->tgsi_index == 1)
			cr_assert_eq(o->type, SHBIN_OUT_COLOR);
		if (o->tgsi_index == 5)
			cr_assert_eq(o->mask, 0xF, "declared xyzw: unwritten zw are written as 0");
		tc += o->type >= SHBIN_OUT_TEXCOORD0 && o->type <= SHBIN_OUT_TEXCOORD2;
		if (o->o_reg >= 7)
			cr_assert_eq(o->type, SHBIN_OUT_DUMMY);
	}
	cr_assert_eq(tc, 3);
	/* and it runs: every table component written exactly once, no hang */
	pica_uniforms u;
	memset(&u, 0, sizeof u);
	pica_uniforms_apply_dvle(&u, p.dvle);
	pica_thread t;
	pica_thread_reset(&t);
	pica_env env;
	pica_env_from_config(&env, &cfg);
	cr_assert_eq(pica_run(&t, &p, &u, &env, &d), PICA_STEP_END, "%s", d.msg);
	pica_program_free(&p);
	pica_compile_result_free(&r);
}

typedef struct gs_capture { unsigned n; pica_vec4 v[4][3][16]; bool inv[4]; } gs_capture;

static void on_prim(void *ctx, const pica_vec4 vtx[3][16], bool inv)
{
	gs_capture *g = ctx;
	if (g->n < 4) {
		memcpy(g->v[g->n], vtx, sizeof g->v[0]);
		g->inv[g->n] = inv;
	}
	g->n++;
}

Test(compile_pica, geometry_shader_strip_becomes_setemit_emit)
{
	pica_compile_result r;
	bool ok = compile_text(
		"GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
		"PROPERTY GS_MAX_OUTPUT_VERTICES 4\nDCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\n"
		"DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL CONST[0][0]\n"
		"IMM[0] UINT32 {0, 0, 0, 0}\n"
		"MOV OUT[0], IN[0][0]\nADD OUT[1], IN[0][1], CONST[0][0]\nEMIT IMM[0].xxxx\n"
		"MOV OUT[0], IN[1][0]\nMOV OUT[1], IN[1][1]\nEMIT IMM[0].xxxx\n"
		"MOV OUT[0], IN[2][0]\nMOV OUT[1], IN[2][1]\nEMIT IMM[0].xxxx\n"
		"MOV OUT[0], IN[0][0].yxzw\nMOV OUT[1], IN[0][1]\nEMIT IMM[0].xxxx\n"
		"ENDPRIM IMM[0].xxxx\nEND\n", &r);
	cr_assert(ok, "%s", r.d.msg);
	cr_assert(strstr(r.asm_text, ".gsh point c0") && strstr(r.asm_text, "setemit 0, prim inv"),
	          "%s", r.asm_text);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	pica_program p;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(pica_program_build(&p, &r.shbin, 0, &cfg, &d), "%s", d.msg);
	cr_assert(p.is_gs);
	pica_uniforms u;
	memset(&u, 0, sizeof u);
	pica_uniforms_apply_dvle(&u, p.dvle);
	for (int c = 0; c < 4; c++)
		u.c[0].c[c] = 0.5f;
	pica_thread t;
	pica_thread_reset(&t);
	for (int v = 0; v < 6; v++)
		for (int c = 0; c < 4; c++)
			t.v[v].c[c] = (float)(10 * v + c);
	gs_capture g = { 0 };
	pica_env env;
	pica_env_from_config(&env, &cfg);
	env.emit = on_prim;
	env.ctx = &g;
	cr_assert_eq(pica_run(&t, &p, &u, &env, &d), PICA_STEP_END, "%s", d.msg);
	cr_assert_eq(g.n, 2, "a 4-vertex strip is 2 triangles");
	/* triangle 0 = (vertex 0, 1, 2); the generic of vertex 0 got + c0 */
	cr_assert(g.v[0][0][0].c[0] == 0 && g.v[0][1][0].c[0] == 20 && g.v[0][2][0].c[0] == 40);
	cr_assert(g.v[0][0][1].c[1] == 11.5f);
	cr_assert_not(g.inv[0]);
	/* triangle 1: slot 0 = the 4th vertex (v0.yxzw), slots 1, 2 kept, winding inverted */
	cr_assert(g.v[1][0][0].c[0] == 1 && g.v[1][0][0].c[1] == 0 && g.v[1][1][0].c[0] == 20);
	cr_assert(g.inv[1]);
	pica_program_free(&p);
	pica_compile_result_free(&r);
}

Test(compile_pica, what_the_pica200_cannot_do_is_refused_with_its_line)
{
	static const struct { const char *text; enum ir_refusal why; const char *what; } C[] = {
		{ "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], OUT[0]\nEND\n", IR_REFUSE_STAGE, "FRAG" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
		  "TEX OUT[0], IN[0], SAMP[0], 2D\nEND\n", IR_REFUSE_TEXTURE, "t.tgsi:6:1: TEX" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], CONST[0][100]\nEND\n",
		  IR_REFUSE_CONSTANTS, "t.tgsi:4:1: MOV: CONST[0][100]" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL ADDR[0..1]\nARL ADDR[1].x, IN[0].xxxx\n"
		  "MOV OUT[0], CONST[0][ADDR[1].x]\nEND\n", IR_REFUSE_ADDRESSING, "ADDR[0]" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL ADDR[0]\nARL ADDR[0].x, IN[0].xxxx\n"
		  "MOV OUT[0], CONST[0][ADDR[0].x-1]\nEND\n", IR_REFUSE_ADDRESSING, "t.tgsi:6:1" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nKILL_IF IN[0]\nMOV OUT[0], IN[0]\nEND\n",
		  IR_REFUSE_OPCODE, "t.tgsi:4:1: KILL_IF" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nAND OUT[0], IN[0], IN[0]\nEND\n",
		  IR_REFUSE_INTEGER, "t.tgsi:4:1: AND" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nMOV OUT[20], IN[0]\nEND\n",
		  IR_REFUSE_IO, "OUT[20]" },
		{ "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
		  "DCL IN[][0]\nDCL OUT[0], POSITION\nIMM[0] UINT32 {0, 0, 0, 0}\n"
		  "MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nEND\n", IR_REFUSE_OPCODE, "triangles only" },
	};
	for (size_t k = 0; k < sizeof C / sizeof C[0]; k++) {
		pica_compile_result r;
		cr_assert_not(compile_text(C[k].text, &r), "case %zu compiled:\n%s", k, r.asm_text);
		cr_assert_eq(r.why, C[k].why, "case %zu: %s: %s", k, ir_refusal_name(r.why), r.d.msg);
		char buf[600];
		ulp_diag_format(&r.d, buf, sizeof buf);
		cr_assert(strstr(buf, C[k].what), "case %zu: '%s' lacks '%s'", k, buf, C[k].what);
		pica_compile_result_free(&r);
	}
	/* 17 values live at once: more than r0-r15 */
	char text[4096];
	int n = snprintf(text, sizeof text, "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..16]\n");
	for (int t = 0; t < 17; t++)
		n += snprintf(text + n, sizeof text - (size_t)n, "ADD TEMP[%d], IN[0], IN[0].yzwx\n"
		              "MUL TEMP[%d], TEMP[%d], IN[0].%c%c%c%c\n", t, t, t, "xyzw"[t % 4],
		              "xyzw"[t / 4 % 4], "xyzw"[t % 3], "xyzw"[t % 2]);
	n += snprintf(text + n, sizeof text - (size_t)n, "MOV TEMP[17], TEMP[0]\n");
	for (int t = 1; t < 17; t++)
		n += snprintf(text + n, sizeof text - (size_t)n, "ADD TEMP[17], TEMP[17], TEMP[%d]\n", t);
	snprintf(text + n, sizeof text - (size_t)n, "MOV OUT[0], TEMP[17]\nEND\n");
	pica_compile_result r;
	cr_assert_not(compile_text(text, &r));
	cr_assert_eq(r.why, IR_REFUSE_REGISTERS, "%s", r.d.msg);
	pica_compile_result_free(&r);
}

Test(compile_pica, cli)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *good = test_write_file(dir, "good.tgsi", "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
	                       "DCL CONST[0][0]\nMUL OUT[0], IN[0], CONST[0][0]\nEND\n");
	char *bad = test_write_file(dir, "bad.tgsi", "VERT\nDCL IN[0]\nMOV OUT[0], IN[0].x\nEND\n");
	char *intg = test_write_file(dir, "int.tgsi", "VERT\nDCL IN[0]\nDCL OUT[0]\n"
	                       "UADD OUT[0], IN[0], IN[0]\nEND\n");
	char args[2048], *out, *err;
	snprintf(args, sizeof args, "tgsi compile %s --target pica -o %s/good.shbin", good, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/good.shbin", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	struct shbin s;
	cr_assert(shbin_load(args, &s, &d), "%s", d.msg);
	cr_assert_eq(s.ndvle, 1);
	shbin_free(&s);
	snprintf(args, sizeof args, "tgsi compile %s --target pica --asm", good);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	cr_assert(strstr(out, ".proc main") && strstr(out, "mul o0.xyzw"), "%s", out);
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi compile %s --target tegra -o %s/x", good, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2, "a vertex shader for the fragment target");
	cr_assert(strstr(err, "fragment shaders only"), "%s", err);
	free(out);
	free(err);
	/* malformed, unsupported, missing target: exit 2, a message, no output file */
	snprintf(args, sizeof args, "tgsi compile %s --target pica -o %s/bad.shbin", bad, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "bad.tgsi:3:"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi compile %s --target pica -o %s/int.shbin", intg, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "int.tgsi:4:1: UADD: integer"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/int.shbin", dir);
	cr_assert_null(fopen(args, "r"), "a refused compile left an output file");
	snprintf(args, sizeof args, "tgsi compile %s -o %s/x.shbin", good, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi compile %s/missing.tgsi --target pica --asm", dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/good.shbin", dir);
	remove(args);
	remove(good);
	remove(bad);
	remove(intg);
	remove(dir);
	free(good);
	free(bad);
	free(intg);
	free(dir);
}
