/* The vertex-side driver: TGSI -> compiler -> SHBIN -> register writes ->
 * the register model -> the program, which must compute what the SHBIN does. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/fileio.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "traces/replay/driver_pica.h"
#include "units/pica/pica_regs.h"
#include "units/regs.h"

static void apply(const reg_stream *s, pica_regs *r)
{
	for (size_t i = 0; i < s->n; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(s->w[i].space == REG_PICA);
		cr_assert(pica_regs_write(r, s->w[i].reg, s->w[i].mask, s->w[i].value, &d), "%s", d.msg);
	}
}

Test(driver_pica, compiled_tgsi_through_registers_matches_the_shbin)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	const char *path = "traces/samples/triangle.vs.tgsi";
	char *text = ulp_read_file(path, &len, &d);
	cr_assert(text, "%s", d.msg);
	tgsi_shader *sh = tgsi_parse(text, len, path, NULL, &d);
	cr_assert(sh, "%s", d.msg);
	static pica_compile_result res;
	cr_assert(pica_compile(sh, path, NULL, &res), "%s", res.d.msg);
	cr_assert(res.have_shbin);

	reg_stream s;
	reg_stream_init(&s);
	cr_assert(drv_pica_load_shader(&s, &res.shbin, 0, &d), "%s", d.msg);
	const uint8_t perm[2] = { 0, 1 };
	drv_pica_attributes(&s, false, 2, perm);
	cr_assert_not(s.oom);
	cr_assert_gt(s.n, res.shbin.ncode + 8);

	ulp_config cfg;
	ulp_config_defaults(&cfg);
	static pica_regs r;
	pica_regs_init(&r, &cfg);
	apply(&s, &r);
	cr_assert_eq(r.vs.code_words, res.shbin.ncode);
	cr_assert_eq(pica_regs_attr_count(&r.vs), 2);
	pica_program prog, ref;
	cr_assert(pica_regs_program(&r, false, &cfg, &prog, &d), "%s", d.msg);
	cr_assert(pica_program_build(&ref, &res.shbin, 0, &cfg, &d), "%s", d.msg);
	for (int o = 0; o < 16; o++)
		cr_assert_eq(prog.out_need[o], ref.out_need[o], "output map of o%d", o);

	pica_env env;
	pica_env_from_config(&env, &cfg);
	static pica_thread a, b;
	static pica_uniforms u;
	memset(&u, 0, sizeof u);
	pica_uniforms_apply_dvle(&u, ref.dvle);
	pica_thread_reset(&a);
	pica_thread_reset(&b);
	a.v[0] = b.v[0] = (pica_vec4){ { -0.5f, 0.25f, 0, 1 } };
	a.v[1] = b.v[1] = (pica_vec4){ { 1, 0.5f, 0, 1 } };
	cr_assert_eq(pica_run(&a, &prog, &r.vs.unif, &env, &d), PICA_STEP_END, "%s", d.msg);
	cr_assert_eq(pica_run(&b, &ref, &u, &env, &d), PICA_STEP_END, "%s", d.msg);
	cr_assert_eq(memcmp(a.o[0], b.o[0], sizeof a.o[0]), 0, "register path == SHBIN path");
	cr_assert_eq(a.o[0][res.outputs[0].o_reg].c[0], -0.5f, "position passes through");

	/* the dump names the registers */
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	reg_stream_dump(&s, f);
	fclose(f);
	cr_assert(strstr(buf, "pica 0x2cb f 00000000  VSH_CODETRANSFER_INDEX"), "%s", buf);
	cr_assert(strstr(buf, "VSH_OUTMAP_MASK"), "dump");
	cr_assert(strstr(buf, "SH_OUTMAP_O0"), "dump");
	free(buf);
	pica_program_free(&prog);
	pica_program_free(&ref);
	reg_stream_free(&s);
	pica_compile_result_free(&res);
	tgsi_shader_free(sh);
	free(text);
}

Test(driver_pica, float_uniforms_and_semantics)
{
	reg_stream s;
	reg_stream_init(&s);
	const float m[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } };
	drv_pica_float_uniforms(&s, false, 10, m, 2);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	static pica_regs r;
	pica_regs_init(&r, &cfg);
	apply(&s, &r);
	cr_assert_eq(r.vs.unif.c[10].c[0], 1.0f);
	cr_assert_eq(r.vs.unif.c[11].c[3], 8.0f);
	reg_stream_free(&s);
	cr_assert_eq(drv_pica_out_semantic(SHBIN_OUT_COLOR, 3), 0x0B);
	cr_assert_eq(drv_pica_out_semantic(SHBIN_OUT_TEXCOORD0, 2), 0x1F);
	cr_assert_eq(drv_pica_out_semantic(SHBIN_OUT_DUMMY, 0), 0x1F);
}
