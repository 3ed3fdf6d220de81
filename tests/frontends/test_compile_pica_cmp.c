/* TGSI CMP on the PICA200 (no select instruction): the lowering must give
 * the selected operand's value exactly, whatever the other one holds
 * (NaN, +-inf), and c for a NaN condition, as tgsi_exec does (a < 0 ? b : c).
 * The masked form b*(a<0) + c*(a>=0) turned an unselected NaN into NaN
 * (NaN * 0 = NaN on the unit, pica200.md §2.2): piglit's vs-refract-*
 * returned NaN for refract()'s 0.  frontends/ir/ir_lower.c lower_cmp_branch,
 * docs/compiler.md "Lowering". */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/ir/ir.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "tests/test_util.h"
#include "units/pica/pica_exec.h"

/* Inputs and the value of each OUT[1..2] component, run on the unit
 * (default knobs, or arith=exact) and on tgsi_exec. */
typedef struct cmp_run {
	float pica[2][4], ref[2][4];
} cmp_run;

static void run_both(const char *text, const float in[3][4], bool exact, cmp_run *R)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "cmp.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	pica_compile_result cr;
	cr_assert(pica_compile(sh, "cmp.tgsi", NULL, &cr), "%s", cr.d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	if (exact)
		cr_assert(ulp_config_set(&cfg, "arith=exact", &d), "%s", d.msg);
	pica_program prog;
	cr_assert(pica_program_build(&prog, &cr.shbin, 0, &cfg, &d), "%s", d.msg);
	pica_env env;
	pica_env_from_config(&env, &cfg);
	pica_uniforms *u = calloc(1, sizeof *u);
	pica_thread *t = calloc(1, sizeof *t);
	cr_assert(u && t);
	pica_uniforms_apply_dvle(u, prog.dvle);
	pica_thread_reset(t);
	for (int v = 0; v < 3; v++)
		for (int c = 0; c < 4; c++)
			t->v[v].c[c] = in[v][c];
	cr_assert_eq(pica_run(t, &prog, u, &env, &d), PICA_STEP_END, "%s\n%s", d.msg, cr.asm_text);

	tgsi_exec_machine m;
	cr_assert(tgsi_exec_init(&m, sh, "cmp.tgsi", &d), "%s", d.msg);
	for (int v = 0; v < 3; v++) {
		uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_INPUT, 0, (size_t)v);
		for (int c = 0; r && c < 4; c++)
			r[c] = test_f_bits(in[v][c]);
	}
	cr_assert(tgsi_exec_run(&m, &d), "%s", d.msg);
	for (unsigned k = 0; k < cr.noutputs; k++) {
		const pica_compile_output *o = &cr.outputs[k];
		if (o->tgsi_index < 1 || o->tgsi_index > 2)
			continue;
		uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_OUTPUT, 0, (size_t)o->tgsi_index);
		for (unsigned c = 0; c < 4; c++) {
			R->pica[o->tgsi_index - 1][c] = t->o[0][o->o_reg].c[c];
			R->ref[o->tgsi_index - 1][c] = test_bits_f(r[c]);
		}
	}
	tgsi_exec_fini(&m);
	free(u);
	free(t);
	pica_program_free(&prog);
	pica_compile_result_free(&cr);
	tgsi_shader_free(sh);
}

static bool same(float a, float b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static const char HEAD[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\n"
                           "DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL OUT[2], GENERIC[1]\n"
                           "DCL TEMP[0..1]\nIMM[0] FLT32 {0.0, 1.0, -2.0, 0.5}\n";
static const char POS[] = "MOV OUT[0], IN[0]\n";

Test(compile_pica_cmp, the_selected_operand_comes_through_exactly)
{
	static const char *const BODY[] = {
		/* per-component condition, every source an input */
		"CMP OUT[1], IN[0], IN[1], IN[2]\nCMP OUT[2], IN[0], IN[2], IN[1]\n",
		/* refract(): 0 where k < 0, else a value that is NaN there */
		"CMP OUT[1], IN[0].xxxx, IMM[0].xxxx, IN[1]\nCMP OUT[2].xy, -IN[0].yyyy, IN[2], IMM[0].yzzz\n",
		/* the destination is also a source, several condition components */
		"MOV TEMP[0], IN[1]\nCMP TEMP[0], IN[0].yxwz, TEMP[0].wzyx, TEMP[0]\n"
		"MOV TEMP[1], IN[2]\nCMP_SAT TEMP[1].xzw, TEMP[1], IN[1], TEMP[1].yyyy\n"
		"MOV OUT[1], TEMP[0]\nMOV OUT[2], TEMP[1]\n",
	};
	const float I = INFINITY, N = NAN;
	static const float A[][4] = {
		{ -1.0f, 0.0f, 2.0f, -0.5f }, { 3.0f, -4.0f, -0.0f, 1.0f }, { NAN, -1.0f, NAN, 0.25f },
		{ -INFINITY, INFINITY, -2.0f, NAN },
	};
	const float BC[][2][4] = {
		{ { N, 1.5f, N, -I }, { I, N, -3.0f, N } },
		{ { N, N, N, N }, { 0.5f, -0.5f, I, -I } },
		{ { 2.0f, -I, 0.0f, N }, { N, N, N, 7.0f } },
	};
	for (size_t b = 0; b < sizeof BODY / sizeof BODY[0]; b++) {
		char text[1024];
		snprintf(text, sizeof text, "%s%s%sEND\n", HEAD, POS, BODY[b]);
		for (size_t a = 0; a < sizeof A / sizeof A[0]; a++)
			for (size_t v = 0; v < sizeof BC / sizeof BC[0]; v++)
				for (int exact = 0; exact < 2; exact++) {
					float in[3][4];
					memcpy(in[0], A[a], sizeof in[0]);
					memcpy(in[1], BC[v][0], sizeof in[1]);
					memcpy(in[2], BC[v][1], sizeof in[2]);
					cmp_run R;
					memset(&R, 0, sizeof R);
					run_both(text, in, exact, &R);
					for (int o = 0; o < 2; o++)
						for (int c = 0; c < 4; c++)
							cr_assert(same(R.pica[o][c], R.ref[o][c]),
							          "body %zu, a %zu, b/c %zu%s: OUT[%d].%c pica %g, "
							          "reference %g", b, a, v, exact ? " (exact)" : "",
							          o + 1, "xyzw"[c], (double)R.pica[o][c],
							          (double)R.ref[o][c]);
				}
	}
}

static ir_shader *lowered(const char *body, bool if_lt0)
{
	char text[512];
	const char *imm1 = "IMM[1] FLT32 {0x7fc00000, 1.0, 1.0, 1.0}\n";   /* NaN: IR only */
	snprintf(text, sizeof text, "%s%s%s%sEND\n", HEAD, imm1, POS, body);
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "cmp.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	ir_error e;
	memset(&e, 0, sizeof e);
	ir_shader *s = ir_from_tgsi(sh, "cmp.tgsi", &e);
	tgsi_shader_free(sh);
	cr_assert(s, "%s", e.d.msg);
	ir_caps caps = { .if_lt0 = if_lt0 };
	cr_assert(ir_lower(s, &caps, &e), "%s", e.d.msg);
	return s;
}

static unsigned count(const ir_shader *s, unsigned op, int cond)
{
	unsigned n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += s->inst[i].op == op && (cond < 0 || s->inst[i].cond == cond);
	return n;
}

Test(compile_pica_cmp, one_branch_per_condition_component_and_the_cheap_form_for_immediates)
{
	/* x and z read a.x, y reads a.y, w a.w: three IFs on a < 0, each MOV
	 * straight into OUT[1] (not a source) */
	ir_shader *s = lowered("CMP OUT[1], IN[0].xyxw, IN[1], IN[2]\n", true);
	cr_assert_eq(count(s, IR_OP_IF, IR_IF_LT0), 3);
	cr_assert_eq(count(s, IR_OP_IF, -1), 3);
	cr_assert_eq(count(s, IR_OP_MOV, -1), 1 + 6, "the position MOV and two per IF");
	char *dump = ir_dump(s);
	cr_assert(dump && strstr(dump, "IF_LT0 in0.xxxx"), "%s", dump);
	free(dump);
	ir_shader_free(s);
	/* the destination is a source: a temporary and one final MOV */
	s = lowered("MOV TEMP[0], IN[1]\nCMP TEMP[0], IN[0], TEMP[0].yxzw, IN[2]\nMOV OUT[1], TEMP[0]\n", true);
	cr_assert_eq(count(s, IR_OP_IF, IR_IF_LT0), 4);
	cr_assert_eq(count(s, IR_OP_MOV, -1), 3 + 8 + 1);
	ir_shader_free(s);
	/* without IF a < 0: one SLT, then IFs on != 0 */
	s = lowered("CMP OUT[1], IN[0].xxxx, IN[1], IN[2]\n", false);
	cr_assert_eq(count(s, IR_OP_IF, IR_IF_NE0), 1);
	cr_assert_eq(count(s, IR_OP_SLT, -1), 1);
	ir_shader_free(s);
	/* both operands immediates, not NaN: SLT, ADD (1 - that), MUL, MAD */
	s = lowered("CMP OUT[1], IN[0], IMM[0].xyzw, IMM[0].wzyx\n", true);
	cr_assert_eq(count(s, IR_OP_IF, -1), 0);
	cr_assert_eq(s->n, 1 + 4 + 1, "MOV, SLT ADD MUL MAD, END: %zu", s->n);
	ir_shader_free(s);
	/* a NaN immediate is not a proof */
	s = lowered("CMP OUT[1], IN[0].xxxx, IMM[1], IMM[0]\n", true);
	cr_assert_eq(count(s, IR_OP_IF, IR_IF_LT0), 1);
	ir_shader_free(s);
}
