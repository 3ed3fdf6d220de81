/* The PICA200 shader unit, instructions and flow control: every opcode,
 * the stacks and flow-control rules of pica200.md §1.4, the float24 table
 * through real instructions, the hang diagnostics.  Expected values come
 * from the reference's rules. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tests/units/pica_rig.h"
#include "tests/test_util.h"

Test(pica_unit, arithmetic_opcodes)
{
	rig *r = build(OUTS
		".constf k(2.0, 3.0, 4.0, 0.5)\n"
		".proc main\n"
		"  add o0, k, v0\n"        /* (2,3,4,.5) + (1,2,3,4) */
		"  mul o1, k, v0\n"
		"  mad o2, v0, k, v0\n"
		"  dp3 o3.x, k, v0\n"      /* 2+6+12 = 20 */
		"  dp4 o3.y, k, v0\n"      /* 20 + 2 = 22 */
		"  dphi o3.z, v0, k\n"     /* (1,2,3,1).k = 20.5 */
		"  mov r0, k\n"
		"  dp4 o3.w, r0, r0\n"     /* 4+9+16+.25 */
		"  end\n"
		".end\n");
	set4(&r->t.v[0], 0, 0, 0, 0);
	pica_thread_reset(&r->t);
	set4(&r->t.v[0], 1, 2, 3, 4);
	pica_thread_start(&r->t, &r->p);
	pica_step_info info;
	enum pica_step_result st;
	while ((st = pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d)) == PICA_STEP_OK)
		;
	cr_assert_eq(st, PICA_STEP_END, "%s", r->d.msg);
	expect4(&r->t.o[0][0], 3, 5, 7, 4.5f, "add");
	expect4(&r->t.o[0][1], 2, 6, 12, 2, "mul");
	expect4(&r->t.o[0][2], 3, 8, 15, 6, "mad");
	expect4(&r->t.o[0][3], 20, 22, 20.5f, 29.25f, "dp3/dp4/dph");
	unbuild(r);
}

Test(pica_unit, compare_and_unary_opcodes)
{
	rig *r = build(OUTS
		".constf k(2.0, 3.0, -4.0, 0.5)\n"
		".proc main\n"
		"  sgei o0, v0, k\n"       /* (2,2.5,4,.5) >= k */
		"  slti o1, v0, k\n"
		"  max r0, k, v0\n"
		"  min r1, k, v0\n"
		"  add o2, r0, r1\n"       /* max + min = v0 + k */
		"  flr r2, -v0\n"
		"  rcp r3.x, k.w\n"        /* 2 */
		"  rsq r3.y, k.w\n"        /* 1/sqrt(.5) */
		"  ex2 r3.z, k.x\n"        /* 4 */
		"  lg2 r3.w, k.y\n"        /* log2 3 */
		"  mov o3, r3\n"
		"  end\n"
		".end\n");
	run_with_v0(r, 2, 2.5f, 4, 0.5f);
	expect4(&r->t.o[0][0], 1, 0, 1, 1, "sge");
	expect4(&r->t.o[0][1], 0, 1, 0, 0, "slt");
	expect4(&r->t.o[0][2], 4, 5.5f, 0, 1, "max+min");
	expect4(&r->t.r[2], -2, -3, -4, -1, "flr(-v0)");
	cr_assert_eq(r->t.o[0][3].c[0], 2.0f);
	cr_assert_float_eq(r->t.o[0][3].c[1], 1.41421356f, 1e-4);
	cr_assert_eq(r->t.o[0][3].c[2], 4.0f);
	cr_assert_float_eq(r->t.o[0][3].c[3], 1.5849625f, 1e-4);
	unbuild(r);
}

Test(pica_unit, float24_rules_through_instructions)
{
	/* pica200.md §2.2 through real instructions: inf*0 = 0 in MUL and DP4,
	 * rcp(0) = +inf, rsq(-1) = NaN, max(NaN,0) = 0, max(0,NaN) = NaN. */
	rig *r = build(OUTS
		".constf k(0.0, 1.0, -1.0, 0.0)\n"
		".proc main\n"
		"  rcp r0, k.x\n"          /* +inf */
		"  rsq r1, k.z\n"          /* NaN */
		"  mul o0.x, k.x, r0\n"    /* 0*inf = 0 */
		"  dp4 o0.y, k.xxxx, r0\n"
		"  mov r2, k.x\n"
		"  max o0.z, r1, r2\n"    /* max(NaN,0) = 0 */
		"  max o0.w, r2, r1\n"    /* max(0,NaN) = NaN */
		"  mov o1, r0\n"
		"  add o2, r0, -r0\n"      /* inf - inf = NaN */
		"  mov o3, -k.x\n"         /* no negative zero */
		"  end\n"
		".end\n");
	run_with_v0(r, 0, 0, 0, 0);
	expect4(&r->t.o[0][0], 0, 0, 0, NAN, "inf*0, max NaN");
	cr_assert(isinf(r->t.o[0][1].c[0]) && r->t.o[0][1].c[0] > 0);
	cr_assert(isnan(r->t.o[0][2].c[0]));
	cr_assert(!signbit(r->t.o[0][3].c[0]), "-0 reads as +0");
	unbuild(r);
}

Test(pica_unit, mova_and_relative_addressing)
{
	/* index = (c + a0) & 0x7F, >= 96 reads 1.0; offsets outside [-128,127]
	 * apply nothing; MOVA truncates toward zero (pica200.md §1.2, §1.3). */
	rig *r = build(OUTS
		".fvec arr[8]\n"
		".constf k(2.7, -1.5, 95.0, 300.0)\n"
		".proc main\n"
		"  mova a0.xy, k\n"        /* a0 = (2, -1) */
		"  mov o0, arr[a0.x]\n"    /* arr[2] */
		"  mov o1, arr[a0.y+3]\n"  /* arr[2] via -1 + 3 */
		"  mov r0, k.zwzw\n"
		"  mova a0.xy, r0\n"       /* a0 = (95, 300) */
		"  nop\n"
		"  mov o2, arr[a0.x+1]\n"  /* c(0 + 95 + 1) = c96 -> 1.0 */
		"  mov o3, arr[a0.y]\n"    /* 300 is out of range: arr[0] */
		"  end\n"
		".end\n");
	for (int i = 0; i < 8; i++)
		set4(&r->u.c[i], (float)i, (float)i, (float)i, (float)i);
	run_with_v0(r, 0, 0, 0, 0);
	cr_assert_eq(r->t.a0[0], 95);
	cr_assert_eq(r->t.a0[1], 300);
	expect4(&r->t.o[0][0], 2, 2, 2, 2, "arr[a0.x]");
	expect4(&r->t.o[0][1], 2, 2, 2, 2, "arr[a0.y+3]");
	expect4(&r->t.o[0][2], 1, 1, 1, 1, "index >= 96");
	expect4(&r->t.o[0][3], 0, 0, 0, 0, "offset out of range");
	unbuild(r);
}

Test(pica_unit, cmp_ifc_else_and_jmpc)
{
	rig *r = build(OUTS
		".constf k(1.0, 2.0, 3.0, 4.0)\n"
		".proc main\n"
		"  cmp k, gt, le, v0\n"    /* cmp.x = 1 > v0.x, cmp.y = 2 <= v0.y */
		"  ifc cmp.x\n"
		"    mov r0, k.xxxx\n"
		"  .else\n"
		"    mov r0, k.yyyy\n"
		"  .end\n"
		"  jmpc !cmp.y, skip\n"
		"  add r0, k.zzzz, r0\n"
		"skip:\n"
		"  mov o0, r0\n"
		"  mov o1, k\n  mov o2, k\n  mov o3, k\n"
		"  end\n"
		".end\n");
	run_with_v0(r, 0, 5, 0, 0);        /* x: if-branch (1); y: add 3 */
	cr_assert_eq(r->t.o[0][0].c[0], 4.0f);
	run_with_v0(r, 7, 0, 0, 0);        /* else (2); jump over the add */
	cr_assert_eq(r->t.o[0][0].c[0], 2.0f);
	unbuild(r);
}

Test(pica_unit, loop_al_and_break)
{
	/* for i0 with i0 = (count-1 = 3, start 10, step 2): 4 iterations, aL =
	 * 10, 12, 14, 16 in the body and 18 after the last one (pica200.md §1.3). */
	rig *r = build(OUTS
		".constf k(1.0, 0.0, 0.0, 0.0)\n"
		".ivec it\n"
		".proc main\n"
		"  mov r0, k.yyyy\n"
		"  for it\n"
		"    add r0, k.xxxx, r0\n"
		"    mov r1, c0[aL]\n"
		"  .end\n"
		"  mov o0, r0\n"
		"  mov o1, r1\n"
		"  mov o2, k\n  mov o3, k\n"
		"  end\n"
		".end\n");
	/* find the ivec's register from the uniform table: it is i0 */
	r->u.i[0][0] = 3, r->u.i[0][1] = 10, r->u.i[0][2] = 2;
	for (int i = 0; i < 90; i++)        /* k lives at c95 */
		set4(&r->u.c[i], (float)i, 0, 0, 0);
	run_with_v0(r, 0, 0, 0, 0);
	cr_assert_eq(r->t.o[0][0].c[0], 4.0f, "4 iterations, got %g", r->t.o[0][0].c[0]);
	cr_assert_eq(r->t.o[0][1].c[0], 16.0f, "c[aL] on the last iteration");
	cr_assert_eq(r->t.al, 18, "aL steps after the last iteration too");
	unbuild(r);

	r = build(OUTS
		".constf k(1.0, 5.0, 0.0, 0.0)\n"
		".ivec it\n"
		".proc main\n"
		"  mov r0, k.zzzz\n"
		"  for it\n"
		"    add r0, k.xxxx, r0\n"
		"    cmp k.yyyy, le, le, r0\n"
		"    breakc cmp.x\n"
		"    nop\n"
		"  .end\n"
		"  mov o0, r0\n  mov o1, k\n  mov o2, k\n  mov o3, k\n"
		"  end\n"
		".end\n");
	r->u.i[0][0] = 99;                 /* 100 iterations unless broken */
	run_with_v0(r, 0, 0, 0, 0);
	cr_assert_eq(r->t.o[0][0].c[0], 5.0f, "breakc leaves at 5");
	cr_assert_eq(r->t.st.nloop, 0);
	unbuild(r);
}

Test(pica_unit, callc_madi_and_break)
{
	rig *r = build(OUTS
		".constf k(1.0, 3.0, 0.5, 0.0)\n"
		".ivec it\n"
		".proc twice\n"
		"  add r0, r0, r0\n"
		".end\n"
		".proc main\n"
		"  mov r0, k.xxxx\n"
		"  cmp k, eq, ne, r0\n"       /* cmp.x = 1 == 1, cmp.y = 3 != 1 */
		"  callc cmp.x, twice\n"      /* taken: 2 */
		"  callc !cmp.y, twice\n"     /* not taken */
		"  mov r1, k.yyyy\n"
		"  mad r2, r0, r1, k.zzzz\n"  /* MADI (wide src3): 2 * 3 + .5 */
		"  mov r3, k.wwww\n"
		"  for it\n"
		"    add r3, k.xxxx, r3\n"
		"    break\n"
		"    nop\n"
		"  .end\n"
		"  mov o0, r0\n  mov o1, r2\n  mov o2, r3\n  mov o3, k\n"
		"  end\n"
		".end\n");
	r->u.i[0][0] = 9;
	run_with_v0(r, 0, 0, 0, 0);
	cr_assert_eq(r->t.o[0][0].c[0], 2.0f, "one call taken");
	cr_assert_eq(r->t.o[0][1].c[0], 6.5f, "madi");
	cr_assert_eq(r->t.o[0][2].c[0], 1.0f, "break leaves after one iteration");
	bool saw_madi = false;
	for (uint32_t i = 0; i < r->p.ncode; i++)
		saw_madi |= r->p.inst[i].op == PICA_OP_MADI;
	cr_assert(saw_madi, "the assembler chose the MADI form");
	unbuild(r);
}

Test(pica_unit, call_ifu_callu_jmpu)
{
	rig *r = build(OUTS
		".constf k(1.0, 10.0, 100.0, 0.0)\n"
		".bool flag\n"
		".proc addone\n"
		"  add r0, k.xxxx, r0\n"
		".end\n"
		".proc main\n"
		"  mov r0, k.wwww\n"
		"  call addone\n"
		"  callu flag, addone\n"
		"  ifu flag\n"
		"    add r0, k.yyyy, r0\n"
		"  .end\n"
		"  jmpu !flag, done\n"
		"  add r0, k.zzzz, r0\n"
		"done:\n"
		"  mov o0, r0\n  mov o1, k\n  mov o2, k\n  mov o3, k\n"
		"  end\n"
		".end\n");
	r->u.b[0] = false;
	run_with_v0(r, 0, 0, 0, 0);
	cr_assert_eq(r->t.o[0][0].c[0], 1.0f, "flag false: one call, no if, jump taken");
	r->u.b[0] = true;
	run_with_v0(r, 0, 0, 0, 0);
	cr_assert_eq(r->t.o[0][0].c[0], 112.0f, "flag true: 1 + 1 + 10 + 100");
	unbuild(r);
}

/* Hand-placed flow control: the priority rule and the lost 4th return. */
Test(pica_unit, four_returns_in_one_step_lose_the_fourth)
{
	/* Four nested calls whose bodies all end at word 9: when 10 is offered,
	 * the call stack pops 4 times; the 4th return (to 1) is lost, so
	 * execution resumes at the 3rd pop's return address, 6. */
	uint32_t w[12] = {
		W_CALL(5, 5),  /* 0: A = 5..9, ret 1 */
		W_END,         /* 1 */
		W_NOP, W_NOP, W_NOP,
		W_CALL(6, 4),  /* 5: B = 6..9, ret 6 */
		W_CALL(7, 3),  /* 6: C = 7..9, ret 7 */
		W_CALL(8, 2),  /* 7: D = 8..9, ret 8 */
		W_NOP,         /* 8 */
		W_NOP,         /* 9: last body word; 10 is offered */
		W_END, W_END,
	};
	rig *r = build_words(w, 12);
	pica_thread_reset(&r->t);
	pica_thread_start(&r->t, &r->p);
	pica_step_info info;
	for (int i = 0; i < 6; i++)       /* 0, 5, 6, 7, 8, 9 */
		cr_assert_eq(pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d), PICA_STEP_OK);
	cr_assert_eq(r->t.pc, 6, "resumed at 0x%x", r->t.pc);
	cr_assert_eq(r->t.st.ncall, 0);
	unbuild(r);
}

Test(pica_unit, stack_priority_if_over_call)
{
	/* An IF body and a CALL body end on the same word: IF > CALL, so the
	 * call's return is lost (why picasso pads with NOPs). */
	uint32_t w[10] = {
		W_CALL(3, 3),      /* 0: body 3..5, ret 1 */
		W_END,             /* 1 */
		W_END,             /* 2 */
		W_IFC_X1(6, 2),    /* 3: cmp.x == 1 -> body 4..5, then jump to 8 */
		W_NOP,             /* 4 */
		W_NOP,             /* 5: 6 offered to both stacks */
		W_END, W_END,
		W_END,             /* 8: the IF's target wins */
		W_END,
	};
	rig *r = build_words(w, 10);
	pica_thread_reset(&r->t);
	pica_thread_start(&r->t, &r->p);
	r->t.cmp[0] = true;
	pica_step_info info;
	for (int i = 0; i < 4; i++)
		cr_assert_eq(pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d), PICA_STEP_OK);
	cr_assert_eq(r->t.pc, 8);
	cr_assert_eq(r->t.st.ncall, 0, "the call entry popped too");
	unbuild(r);
}

Test(pica_unit, call_stack_overflow_drops_oldest)
{
	/* 5 nested calls: the ring keeps 4, so the outermost return is lost. */
	uint32_t w[16] = {
		W_CALL(2, 12), W_END,                 /* 0 -> 2..13 ret 1 */
		W_CALL(3, 10),                        /* 2 -> 3..12 ret 3 */
		W_CALL(4, 8),                         /* 3 -> 4..11 ret 4 */
		W_CALL(5, 6),                         /* 4 -> 5..10 ret 5 */
		W_CALL(6, 4),                         /* 5 -> 6..9  ret 6 */
		W_NOP, W_NOP, W_NOP, W_NOP, W_NOP, W_NOP, W_NOP, W_NOP, W_END, W_END,
	};
	rig *r = build_words(w, 16);
	pica_thread_reset(&r->t);
	pica_thread_start(&r->t, &r->p);
	pica_step_info info;
	for (int i = 0; i < 5; i++)
		cr_assert_eq(pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d), PICA_STEP_OK);
	cr_assert_eq(r->t.st.ncall, 4, "depth 4");
	cr_assert_eq(r->t.st.call[r->t.st.call_top].ret, 6);
	unbuild(r);
}

/* The assembler refuses these programs, so they are made by patching the
 * words of valid ones: patch(word index, field mask, field value). */
typedef struct hang_case {
	const char *body;
	unsigned word;
	uint32_t mask, value;
	const char *msg;
} hang_case;

Test(pica_unit, hang_diagnostics)
{
	const hang_case cases[] = {
		/* mova; nop; -> patch the nop into a second mova */
		{ "  mova a0.x, k\n  mova a0.y, k\n", 0, 0, 0, "two adjacent MOVA" },
		/* add r0, v0, r1 -> src2 (bits 11:7) = v1 */
		{ "  add r0, v0, r1\n", 0, 0x1Fu << 7, 0x01u << 7, "two distinct input registers" },
		{ "  mov o0, k\n  mov o0.x, k\n", 0, 0, 0, "o0.x written twice" },
		{ "  break\n", 0, 0, 0, "BREAK with an empty loop stack" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[1024];
		snprintf(src, sizeof src, ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n"
		                          ".proc main\n%s  mov o0, k\n  end\n.end\n", cases[i].body);
		rig *r = build(src);
		if (cases[i].mask) {
			r->s.code[cases[i].word] = (r->s.code[cases[i].word] & ~cases[i].mask) | cases[i].value;
			pica_program_free(&r->p);
			cr_assert(pica_program_build(&r->p, &r->s, 0, &r->cfg, &r->d));
		}
		cr_assert_eq(run(r), PICA_STEP_ERROR, "case %zu ran", i);
		cr_assert(strstr(r->d.msg, cases[i].msg), "case %zu: %s", i, r->d.msg);
		cr_assert(strstr(r->d.msg, "pc 0x"), "names the pc: %s", r->d.msg);
		r->env.permissive = true;
		ulp_diag_clear(&r->d);
		run(r);
		cr_assert_gt(r->warnings, 0, "--permissive warns (case %zu)", i);
		unbuild(r);
	}
	rig *r = build(".out o0 position\n.out o1 color\n.constf k(1.0, 2.0, 3.0, 4.0)\n"
	               ".proc main\n  mov o0, k\n  mov o1.xy, k\n  end\n.end\n");
	cr_assert_eq(run(r), PICA_STEP_ERROR);
	cr_assert(strstr(r->d.msg, "o1.zw left unwritten at END"), "%s", r->d.msg);
	unbuild(r);
}

Test(pica_unit, watchdog_and_undocumented_opcodes)
{
	uint32_t loop_forever[2] = { 0x2Cu << 26 | 1u << 25 | 2u << 22 | 0u << 10, W_END }; /* jmpc cmp.x, 0 */
	rig *r = build_words(loop_forever, 2);
	r->env.max_steps = 1000;
	pica_thread_reset(&r->t);
	pica_thread_start(&r->t, &r->p);
	r->t.cmp[0] = true;
	pica_step_info info;
	enum pica_step_result st;
	while ((st = pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d)) == PICA_STEP_OK)
		;
	cr_assert_eq(st, PICA_STEP_ERROR);
	cr_assert(strstr(r->d.msg, "watchdog") && strstr(r->d.msg, "pc 0x000"), "%s", r->d.msg);
	unbuild(r);

	uint32_t undoc[2] = { 0x10u << 26, W_END };
	r = build_words(undoc, 2);
	cr_assert_eq(run(r), PICA_STEP_ERROR);
	cr_assert(strstr(r->d.msg, "undocumented opcode 0x10"), "%s", r->d.msg);
	r->env.undocumented = PICA_UNDOC_NOP;
	ulp_diag_clear(&r->d);
	cr_assert_eq(run(r), PICA_STEP_END, "policy nop: %s", r->d.msg);
	unbuild(r);
}

/* ---- geometry shader: emission and output banking ---- */

typedef struct f24_row {
	const char *what;
	const char *code;
	float want;          /* NaN = expect NaN */
} f24_row;

#define R_INF  "r2"
#define R_NAN  "r3"
#define R_SUB  "r4"
#define R_NORM "r5"

Test(pica_unit, float24_table_through_instructions)
{
	const float vals[12] = {
		0.0f, 1.0f, INFINITY, NAN, (float)0x1p-70, (float)0x1p-62,
		-INFINITY, 2.0f, 0.5f, -0.1f, -2.0f, -1.0f,
	};
	const f24_row rows[] = {
		{ "rcp(-0) = +inf", "rcp r12, -r0\n", INFINITY },
		{ "rsq(-0) = +inf", "rsq r12, -r0\n", INFINITY },
		{ "rsq(rcp(-inf)) = +inf", "rcp r13, r6\n  rsq r12, r13\n", INFINITY },
		{ "inf * 0 = 0 (MUL)", "mul r12, " R_INF ", r0\n", 0.0f },
		{ "0 * inf = 0 (MUL)", "mul r12, r0, " R_INF "\n", 0.0f },
		{ "inf * 0 + 1 = 1 (MAD)", "mad r12, r0, " R_INF ", r1\n", 1.0f },
		{ "DP3 with inf * 0", "mov r13, r1\n  mov r13.x, " R_INF "\n  mov r14, r1\n  mov r14.x, r0\n  dp3 r12, r13, r14\n", 2.0f },
		{ "DP4 with inf * 0", "mov r13, r1\n  mov r13.x, " R_INF "\n  mov r14, r1\n  mov r14.x, r0\n  dp4 r12, r13, r14\n", 3.0f },
		{ "DPH with inf * 0", "mov r13, r1\n  mov r13.x, " R_INF "\n  mov r14, r1\n  mov r14.x, r0\n  dph r12, r13, r14\n", 3.0f },
		{ "NaN * 0 = NaN", "mul r12, " R_NAN ", r0\n", NAN },
		{ "+inf - +inf = NaN", "add r12, " R_INF ", -" R_INF "\n", NAN },
		{ "mul(s, 2) = 0", "mul r12, " R_SUB ", r7\n", 0.0f },
		{ "mul(n, 0.5) = 0", "mul r12, " R_NORM ", r8\n", 0.0f },
		{ "max(s, 0) = s (no flush)", "max r12, " R_SUB ", r0\n", (float)0x1p-70 },
		{ "cmp(s, 0) is false (no flush)", "mov r12, r1\n  cmp " R_SUB ", eq, eq, r0\n  ifc cmp.x\n    mov r12, r0\n  .end\n", 1.0f },
		{ "rcp(0) = +inf", "rcp r12, r0\n", INFINITY },
		{ "rcp(+inf) = 0", "rcp r12, " R_INF "\n", 0.0f },
		{ "rcp(NaN) = NaN", "rcp r12, " R_NAN "\n", NAN },
		{ "rsq(-2) = NaN", "rsq r12, r10\n", NAN },
		{ "rsq(+inf) = 0", "rsq r12, " R_INF "\n", 0.0f },
		{ "rsq(-inf) = NaN", "rsq r12, r6\n", NAN },
		{ "max(0, NaN) = NaN", "max r12, r0, " R_NAN "\n", NAN },
		{ "max(NaN, 0) = 0", "max r12, " R_NAN ", r0\n", 0.0f },
		{ "min(0, NaN) = NaN", "min r12, r0, " R_NAN "\n", NAN },
		{ "min(NaN, 0) = 0", "min r12, " R_NAN ", r0\n", 0.0f },
		{ "max(0, -inf) = 0 (knob default)", "max r12, r0, r6\n", 0.0f },
		{ "sge(NaN, 0) = 0", "sge r12, " R_NAN ", r0\n", 0.0f },
		{ "sge(0, NaN) = 0", "sge r12, r0, " R_NAN "\n", 0.0f },
		{ "slt(NaN, 0) = 0", "slt r12, " R_NAN ", r0\n", 0.0f },
		{ "slt(0, NaN) = 0", "slt r12, r0, " R_NAN "\n", 0.0f },
		{ "-flr(-0.1) = 1", "flr r13, r9\n  mov r12, -r13\n", 1.0f },
		{ "ex2(-inf) = 0", "ex2 r12, r6\n", 0.0f },
		{ "lg2(rcp(-inf)) = -inf", "rcp r13, r6\n  lg2 r12, r13\n", -INFINITY },
		{ "lg2(-1) = NaN", "lg2 r12, r11\n", NAN },
		{ "lg2(0) = -inf", "lg2 r12, r0\n", -INFINITY },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char src[1024];
		int n = snprintf(src, sizeof src, ".out o0 position\n.fvec vals[12]\n.proc main\n");
		for (int k = 0; k < 12; k++)
			n += snprintf(src + n, sizeof src - (size_t)n, "  mov r%d, vals[%d]\n", k, k);
		snprintf(src + n, sizeof src - (size_t)n, "  %s  mov o0, r12.xxxx\n  end\n.end\n", rows[i].code);
		rig *r = build(src);
		for (int k = 0; k < 12; k++)
			set4(&r->u.c[k], vals[k], vals[k], vals[k], vals[k]);
		cr_assert_eq(run(r), PICA_STEP_END, "%s: %s", rows[i].what, r->d.msg);
		float got = r->t.o[0][0].c[0];
		if (isnan(rows[i].want))
			cr_expect(isnan(got), "%s: got %.9g", rows[i].what, got);
		else
			cr_expect(got == rows[i].want && signbit(got) == signbit(rows[i].want),
			          "%s: got %.9g", rows[i].what, got);
		unbuild(r);
	}
	/* the disputed row under its alternative knob value */
	rig *r = build(".out o0 position\n.fvec vals[2]\n.proc main\n  mov r0, vals[0]\n"
	               "  mov r1, vals[1]\n  max o0, r0, r1\n  end\n.end\n");
	set4(&r->u.c[1], -INFINITY, -INFINITY, -INFINITY, -INFINITY);
	r->env.f24.max_neg_inf = F24_MAX_NEG_INF;
	cr_assert_eq(run(r), PICA_STEP_END);
	cr_assert(isinf(r->t.o[0][0].c[0]) && r->t.o[0][0].c[0] < 0, "3dbrew's -inf under the knob");
	unbuild(r);
}

Test(pica_unit, dst_litp_index_wrap_and_lost_jump)
{
	rig *r = build(OUTS ".fvec a\n.fvec b\n.fvec arr[2]\n.proc main\n"
		"  mov r0, a\n  mov r1, b\n"
		"  dst o0, r0, r1\n"       /* {1, a.y*b.y, a.z, b.w} */
		"  dsti o1, r0, b\n"       /* the same with the 1i widths (knob default) */
		"  litp o2, r0\n"          /* {max(a.x,0), clamp(a.y), 0, max(a.w,0)} */
		"  mova a0.x, b\n"         /* a0.x = trunc(b.x) = 40 */
		"  nop\n"
		"  mov o3, arr[a0.x+90]\n" /* (c_arr + 130) & 0x7F */
		"  end\n.end\n");
	/* a = c0, b = c1, arr = c2 */
	set4(&r->u.c[0], -3, 200, 5, 7);
	set4(&r->u.c[1], 40.9f, 0.5f, 9, 11);
	set4(&r->u.c[4], 42, 42, 42, 42);     /* (2 + 90 + 40) & 0x7F = 4 */
	run_with_v0(r, 0, 0, 0, 0);
	expect4(&r->t.o[0][0], 1, 100, 5, 11, "dst");
	expect4(&r->t.o[0][1], 1, 100, 5, 11, "dsti");
	expect4(&r->t.o[0][2], 0, (float)0x7FFF / 0x100, 0, 7, "litp");
	cr_assert_not(r->t.cmp[0], "litp: cmp.x = a.x >= 0");
	cr_assert(r->t.cmp[1], "litp: cmp.y = a.w >= 0");
	expect4(&r->t.o[0][3], 42, 42, 42, 42, "index wraps at 0x80");
	unbuild(r);

	/* a JMPC as the last instruction of an IF body: never taken on silicon */
	uint32_t w[8] = {
		W_IFC_X1(3, 0),                               /* 0: body 1..2 */
		W_NOP,                                        /* 1 */
		0x2Cu << 26 | 1u << 25 | 2u << 22 | 6u << 10, /* 2: jmpc cmp.x, 6 */
		W_END, W_END, W_END, W_END, W_END,
	};
	r = build_words(w, 8);
	pica_thread_reset(&r->t);
	pica_thread_start(&r->t, &r->p);
	r->t.cmp[0] = true;
	pica_step_info info;
	enum pica_step_result st;
	while ((st = pica_step(&r->t, &r->p, &r->u, &r->env, &info, &r->d)) == PICA_STEP_OK)
		;
	cr_assert_eq(st, PICA_STEP_ERROR);
	cr_assert(strstr(r->d.msg, "last instruction of a block"), "%s", r->d.msg);
	unbuild(r);
}
