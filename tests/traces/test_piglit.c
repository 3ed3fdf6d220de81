/* piglit runner (frontends/piglit, ulpsim piglit): the [test] parser over
 * both corpora, built-in matrices, uniform placement from nir_vars, the ARB
 * parameter order, a fixed subset end to end, malformed inputs. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/piglit/piglit.h"
#include "traces/piglit/piglit_int.h"
#include "tests/test_util.h"

/* ---- the parser on every corpus test ---- */

static void parse_corpus(const char *sub, unsigned *ntests)
{
	char *dir = test_corpus_path(sub);
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "cannot open %s", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
			continue;
		char p[2048];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		pg_test t;
		ulp_diag dg;
		ulp_diag_clear(&dg);
		cr_assert(pg_test_load(&t, p, &dg), "%s: %s", p, dg.msg);
		cr_assert_gt(t.ncmds, 0, "%s: no [test] command", p);
		for (size_t i = 0; i < t.ncmds; i++) {
			cr_assert_gt(t.cmds[i].line, 0);
			cr_assert_neq(t.cmds[i].kind, PG_UNSUPPORTED, "%s:%d: '%s' not recognised", p,
			              t.cmds[i].line, t.cmds[i].text);
		}
		cr_assert_not_null(t.vs.tgsi);
		cr_assert_not_null(t.fs.tgsi);
		pg_test_free(&t);
		(*ntests)++;
	}
	closedir(d);
	free(dir);
}

Test(piglit, parser_on_every_corpus_test)
{
	unsigned n = 0;
	parse_corpus("tgsi-noint", &n);
	cr_assert_eq(n, 200);
	parse_corpus("tgsi", &n);
	cr_assert_eq(n, 350);
}

/* ---- synthetic tests ---- */

static const char HEAD[] = "==== piglit [test] section (verbatim) ====\n";
static const char ORIG[] = "==== original piglit file x.shader_test (verbatim) ====\n";

/* A test from a [test] body, extra original-file sections and nir_vars. */
static bool make(pg_test *t, const char *body, const char *orig_extra, const char *vars_vs,
                 const char *vars_fs, ulp_diag *d)
{
	char txt[8192], meta[8192];
	snprintf(txt, sizeof txt, "%s[test]\n%s%s%s[test]\n%s", HEAD, body, ORIG, orig_extra, body);
	snprintf(meta, sizeof meta, "{\"stages\": {\"vs\": {\"source\": \"glsl\", \"nir_vars\": [%s]},"
	         " \"fs\": {\"source\": \"glsl\", \"nir_vars\": [%s]}}}", vars_vs, vars_fs);
	return pg_test_parse(t, txt, meta, "VERT\nEND\n", "FRAG\nEND\n", "synthetic", d);
}

Test(piglit, matrices)
{
	float m[16];
	pg_mat_ortho(m, 0, 250, 0, 250, -1, 1);
	cr_assert_float_eq(m[0], 2.0f / 250, 1e-7);
	cr_assert_float_eq(m[5], 2.0f / 250, 1e-7);
	cr_assert_float_eq(m[10], -1.0f, 1e-7);
	cr_assert_float_eq(m[12], -1.0f, 1e-7);
	cr_assert_float_eq(m[13], -1.0f, 1e-7);
	pg_mat_frustum(m, -1, 1, -1, 1, 1, 3);
	cr_assert_float_eq(m[0], 1.0f, 1e-7);
	cr_assert_float_eq(m[10], -2.0f, 1e-7);
	cr_assert_float_eq(m[11], -1.0f, 1e-7);
	cr_assert_float_eq(m[14], -3.0f, 1e-7);

	/* gl_ModelViewProjectionMatrix after `ortho 0 1 0 1`, column-major slots */
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(make(&t, "ortho 0 1 0 1\ndraw rect 0 0 1 1\n", "",
	               "\"decl_var uniform INTERP_MODE_NONE mat4 gl_ModelViewProjectionMatrix (0, 0, 0)\","
	               "\"decl_var uniform INTERP_MODE_NONE vec4[4] state.matrix.mvp.transpose.row[0] (0, 4, 0)\","
	               "\"decl_var shader_in INTERP_MODE_NONE vec4 gl_Vertex (VERT_ATTRIB_POS.xyzw, 0, 0)\"",
	               "\"decl_var uniform INTERP_MODE_NONE vec4 gl_FbWposYTransform (0, 0, 0)\"", &d),
	          "%s", d.msg);
	pg_state *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	pg_state_init(s, &t, &d);
	char why[PG_REASON_MAX] = "";
	cr_assert(pg_state_apply(s, &t, &t.cmds[0], why, sizeof why), "%s", why);
	pg_draw dr;
	cr_assert(pg_state_draw(s, &t, &t.cmds[1], &dr, why, sizeof why), "%s", why);
	cr_assert_eq(dr.nvs_const, 8);
	cr_assert_float_eq(dr.vs_const[0][0], 2.0f, 1e-6);     /* column 0 */
	cr_assert_float_eq(dr.vs_const[3][0], -1.0f, 1e-6);    /* column 3: translation */
	cr_assert_float_eq(dr.vs_const[3][1], -1.0f, 1e-6);
	cr_assert_float_eq(dr.vs_const[3][3], 1.0f, 1e-6);
	for (int k = 0; k < 4; k++)
		for (int c = 0; c < 4; c++)
			cr_assert_float_eq(dr.vs_const[4 + k][c], dr.vs_const[k][c], 1e-7);
	cr_assert_float_eq(dr.fs_const[0][0], 1.0f, 0);       /* FBO: no y flip */
	cr_assert_float_eq(dr.fs_const[0][3], 250.0f, 0);
	/* the rect: a 4-vertex strip at piglit's coordinates, z 0, w 1 */
	cr_assert_eq(dr.nverts, 4);
	cr_assert_eq(dr.prim, 1);
	cr_assert_float_eq(dr.in[3][0], 1.0f, 0);
	cr_assert_float_eq(dr.in[3][1], 1.0f, 0);
	cr_assert_float_eq(dr.in[3][3], 1.0f, 0);
	pg_draw_free(&dr);
	pg_state_free(s);
	free(s);
	pg_test_free(&t);
}

Test(piglit, uniform_placement)
{
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(make(&t, "uniform vec4 a 1 2 3 4\nuniform mat3x3 m 1 2 3 4 5 6 7 8 9\n"
	               "uniform float f[1] 7\nuniform int i 5\nuniform vec2 both 0.5 0.25\n"
	               "draw rect -1 -1 2 2\n", "",
	               "\"decl_var uniform INTERP_MODE_NONE vec4 a (1, 3, 0)\","
	               "\"decl_var uniform INTERP_MODE_NONE mat3 m (0, 5, 0)\","
	               "\"decl_var uniform INTERP_MODE_NONE vec2 both (0, 0, 0)\","
	               "\"decl_var uniform INTERP_MODE_NONE float[3] f (2, 9, 0) = { { 1.0 }, { 2.0 }, { 3.0 } }\"",
	               "\"decl_var uniform INTERP_MODE_NONE int i (0, 1, 0)\","
	               "\"decl_var uniform INTERP_MODE_NONE vec2 both (1, 0, 0)\"", &d), "%s", d.msg);
	pg_state *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	pg_state_init(s, &t, &d);
	char why[PG_REASON_MAX] = "";
	for (size_t i = 0; i + 1 < t.ncmds; i++)
		cr_assert(pg_state_apply(s, &t, &t.cmds[i], why, sizeof why), "%s", why);
	pg_draw dr;
	cr_assert(pg_state_draw(s, &t, &t.cmds[t.ncmds - 1], &dr, why, sizeof why), "%s", why);
	cr_assert_eq(dr.nvs_const, 12);
	cr_assert_float_eq(dr.vs_const[3][3], 4.0f, 0);        /* a */
	cr_assert_float_eq(dr.vs_const[5][0], 1.0f, 0);        /* m column 0 */
	cr_assert_float_eq(dr.vs_const[6][2], 6.0f, 0);        /* m column 1 row 2 */
	cr_assert_float_eq(dr.vs_const[7][2], 9.0f, 0);
	cr_assert_float_eq(dr.vs_const[9][0], 1.0f, 0);        /* initializer */
	cr_assert_float_eq(dr.vs_const[10][0], 7.0f, 0);       /* f[1] set */
	cr_assert_float_eq(dr.vs_const[11][0], 3.0f, 0);
	cr_assert_float_eq(dr.vs_const[0][1], 0.25f, 0);       /* both stages */
	cr_assert_float_eq(dr.fs_const[0][1], 0.25f, 0);
	cr_assert_float_eq(dr.fs_const[1][0], 5.0f, 0);        /* int uniform as a float */
	pg_draw_free(&dr);
	pg_state_free(s);
	free(s);
	pg_test_free(&t);
}

Test(piglit, struct_uniforms)
{
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(make(&t, "uniform vec4 vals[1].v 0 0.5 0 0\nuniform float vals[2].f 2\n"
	               "uniform float vals[0].zz 3\ndraw rect -1 -1 2 2\n",
	               "[fragment shader]\nstruct S {\n\tfloat f;\n\tvec4 v;\n\tmat2 m, g;\n};\n", "",
	               "\"decl_var uniform INTERP_MODE_NONE S[3] vals (0, 0, 0)\"", &d), "%s", d.msg);
	pg_state *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	pg_state_init(s, &t, &d);
	char why[PG_REASON_MAX] = "";
	cr_assert_not(pg_state_apply(s, &t, &t.cmds[2], why, sizeof why));  /* no member zz */
	for (size_t i = 0; i < 2; i++)
		cr_assert(pg_state_apply(s, &t, &t.cmds[i], why, sizeof why), "%s", why);
	pg_draw dr;
	cr_assert(pg_state_draw(s, &t, &t.cmds[3], &dr, why, sizeof why), "%s", why);
	cr_assert_eq(dr.nfs_const, 18);                          /* 3 x (1 + 1 + 2 + 2) */
	cr_assert_float_eq(dr.fs_const[7][1], 0.5f, 0);        /* vals[1].v */
	cr_assert_float_eq(dr.fs_const[12][0], 2.0f, 0);       /* vals[2].f */
	pg_draw_free(&dr);
	pg_state_free(s);
	free(s);
	pg_test_free(&t);
}

Test(piglit, arb_parameter_order)
{
	pg_arb_list l;
	char why[PG_REASON_MAX] = "";
	cr_assert(pg_arb_params("!!ARBvp1.0\nOPTION ARB_position_invariant;\nTEMP t;\n"
	                        "MUL t, t.x, program.local[0];\nMOV t, program.local[2];\n"
	                        "MAD t, t.y, program.local[1], t;\nADD result.color, t, {0.5}.x;\nEND\n",
	                        &l, why, sizeof why), "%s", why);
	cr_assert_eq(l.n, 8);
	cr_assert_eq(l.v[0].kind, PG_ARB_CONST);   /* constants first */
	cr_assert_float_eq(l.v[0].v[0], 0.5f, 0);
	cr_assert_eq(l.v[1].kind, PG_ARB_LOCAL);
	cr_assert_eq(l.v[2].index, 2);              /* then state, in order of reference */
	cr_assert_eq(l.v[3].index, 1);
	cr_assert_eq(l.v[4].kind, PG_ARB_MATRIX);   /* position invariant: MVP last */
	cr_assert_eq(l.v[7].row, 3);
	free(l.v);
	/* a constant that is a swizzle of another shares its slot; SWZ selectors are not constants */
	cr_assert(pg_arb_params("!!ARBvp1.0\nMOV r, {0.0, 0.25, 2.0, -1.0};\n"
	                        "MOV s, {0.25, 0.0, -1.0, 2.0};\nSWZ result.color, r, 1,x,z,0;\nEND\n",
	                        &l, why, sizeof why), "%s", why);
	cr_assert_eq(l.n, 1);
	free(l.v);
	cr_assert_not(pg_arb_params("!!ARBvp1.0\nMOV r, state.fog.color;\nEND\n", &l, why, sizeof why));
	cr_assert(strstr(why, "state.fog.color"), "%s", why);
}

/* ---- malformed inputs ---- */

Test(piglit, malformed)
{
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(pg_test_parse(&t, "no markers here\n", NULL, NULL, NULL, "bad", &d));
	cr_assert(strstr(d.msg, "not a corpus test.txt"), "%s", d.msg);
	pg_test_free(&t);

	ulp_diag_clear(&d);
	cr_assert_not(make(&t, "draw arrays GL_TRIANGLES 0 3\n", "[vertex data]\nv/float/2\n1 2 3\n", "", "", &d));
	cr_assert(strstr(d.msg, "[vertex data]"), "%s", d.msg);
	cr_assert_gt(d.line, 0);
	pg_test_free(&t);

	ulp_diag_clear(&d);
	char txt[512];
	snprintf(txt, sizeof txt, "%s[test]\ndraw rect 0 0 1 1\n%s", HEAD, ORIG);
	cr_assert_not(pg_test_parse(&t, txt, "{ \"stages\": ", "VERT\nEND\n", "FRAG\nEND\n", "bad", &d));
	cr_assert(strstr(d.msg, "JSON"), "%s", d.msg);
	pg_test_free(&t);

	/* unknown and malformed commands are kept, with their line, as unsupported */
	ulp_diag_clear(&d);
	cr_assert(make(&t, "clear color 1 2\nfrobnicate 3\nprobe rgb 1 1 0 0\nuniform vec4\n", "", "", "", &d),
	          "%s", d.msg);
	cr_assert_eq(t.ncmds, 4);
	for (size_t i = 0; i < 4; i++) {
		cr_assert_eq(t.cmds[i].kind, PG_UNSUPPORTED);
		cr_assert_eq(t.cmds[i].line, (int)i + 3);
	}
	pg_test_free(&t);

	/* a folder that does not exist: refused on both paths, no crash */
	pg_result r;
	pg_run_opts o = { .run_sim = true, .run_ref = true };
	pg_run_test("/nonexistent/piglit-test", &o, &r);
	cr_assert_eq(r.sim.status, PG_REFUSED);
	cr_assert_eq(r.ref.status, PG_REFUSED);
	pg_result_free(&r);
}

/* ---- a fixed subset end to end ---- */

/* Expected on the simulator: pass (VS-focused tests: the PICA200 vertex
 * shader, the TGSI -> Tegra backend's trivial FS and the Tegra pipeline),
 * a refusal that is the harness's or the trace format's, or neither:
 * whatever today's build says (the backend is still growing). */
static const struct {
	const char *name;
	bool sim_pass;
	const char *sim_refusal;
} subset[] = {
	{ "tests__spec__glsl-1.10__execution__discard__glsl-fs-discard-01", false, NULL },
	{ "tests__spec__glsl-1.10__execution__loops__glsl-fs-loop-two-counter-02", false, NULL },
	{ "generated_tests__spec__glsl-1.10__execution__built-in-functions__vs-op-eq-vec4-vec4-using-if",
	  false, NULL },
	{ "generated_tests__spec__glsl-1.10__execution__variable-indexing__fs-uniform-array-mat2-col-rd",
	  false, NULL },
	{ "tests__spec__arb_fragment_program__texturing__txb-2d", true, NULL },
	{ "tests__spec__glsl-1.10__execution__samplers__glsl-fs-shadow2D-07", true, NULL },
	{ "tests__spec__arb_vertex_program__instructions__swz_src_and_constants", true, NULL },
	{ "tests__spec__arb_vertex_program__vp-arl-local-array", true, NULL },
	/* user clip planes and two-sided colour: the clipper and setup (units/gpu.h) */
	{ "tests__spec__glsl-1.20__execution__clipping__vs-clip-vertex-const-reject", true, NULL },
	{ "generated_tests__spec__glsl-1.10__execution__interpolation__interpolation-none-gl_BackColor-smooth-vertex",
	  true, NULL },
	{ "tests__spec__glsl-1.10__execution__temp-array-indexing__glsl-vs-vec4-indexing-temp-src-in-nested-loop-inner",
	  true, NULL },
	/* the Tegra backend: an indirect uniform array in the packed FP_CONST layout
	 * (uploaded through the program's map), whole-vec4 reads packed after
	 * dead-code removal, a loop with a uniform trip count, gl_FragCoord.w */
	{ "generated_tests__spec__glsl-1.10__execution__variable-indexing__fs-uniform-array-mat3-index-col-rd",
	  true, NULL },
	{ "tests__spec__glsl-1.10__execution__gl_lightsource_indirect", true, NULL },
	{ "tests__shaders__ssa__fs-while-loop-rotate-value", true, NULL },
	{ "tests__spec__glsl-1.10__execution__fragcoord_w", true, NULL },
};

Test(piglit, subset_end_to_end, .timeout = 60)
{
	for (size_t i = 0; i < sizeof subset / sizeof subset[0]; i++) {
		char rel[512];
		snprintf(rel, sizeof rel, "tgsi-noint/%s", subset[i].name);
		char *p = test_corpus_path(rel);
		pg_result r;
		pg_run_opts o = { .run_sim = true, .run_ref = true, .run_exact = true, .compare_softpipe = true };
		pg_run_test(p, &o, &r);
		cr_assert_eq(r.ref.status, PG_PASS, "%s: reference %s: %s", subset[i].name,
		             pg_status_name(r.ref.status), r.ref.reason);
		cr_assert_gt(r.ref.probes, 0);
		cr_assert(r.ref_compared && r.have_softpipe);
		if (subset[i].sim_pass)
			cr_assert_eq(r.sim.status, PG_PASS, "%s: sim %s: %s", subset[i].name,
			             pg_status_name(r.sim.status), r.sim.reason);
		if (subset[i].sim_pass)
			cr_assert(r.sim_compared && r.psnr_sim > 30.0, "%s: psnr %f", subset[i].name, r.psnr_sim);
		if (subset[i].sim_refusal) {
			cr_assert_eq(r.sim.status, PG_REFUSED, "%s", subset[i].name);
			cr_assert(strstr(r.sim.reason, subset[i].sim_refusal), "%s: %s", subset[i].name,
			          r.sim.reason);
		}
		/* whatever the simulator says, it says it with a reason */
		if (r.sim.status != PG_PASS)
			cr_assert(r.sim.reason[0], "%s", subset[i].name);
		cr_assert_eq(r.precision, r.sim.status == PG_FAIL && r.exact.status == PG_PASS);
		pg_result_free(&r);
		free(p);
	}
}

Test(piglit, cli_report)
{
	char *tmp = test_tmpdir();
	char *t1 = test_corpus_path("tgsi-noint/tests__spec__glsl-1.10__execution__discard__glsl-fs-discard-01");
	char *t2 = test_corpus_path("tgsi-noint/tests__spec__arb_vertex_program__instructions__max");
	char args[4096];
	snprintf(args, sizeof args, "piglit %s %s --report %s/r.json --quiet --compare-softpipe", t1, t2, tmp);
	char *out = NULL, *err = NULL;
	int rc = test_run_cli(args, &out, &err);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strstr(out, "piglit: "), "%s", out);
	cr_assert(strstr(out, "of 2\n"), "%s", out);
	cr_assert(strstr(out, "reference: 2 pass"), "%s", out);
	cr_assert(!strstr(out, "piglit: 0 pass"), "%s", out);     /* max: an ARB VP test */
	char rp[1200];
	snprintf(rp, sizeof rp, "%s/r.json", tmp);
	FILE *f = fopen(rp, "r");
	cr_assert_not_null(f);
	fclose(f);
	free(out);
	free(err);
	rc = test_run_cli("piglit", &out, &err);
	cr_assert_eq(rc, 2);
	free(out);
	free(err);
	free(t1);
	free(t2);
	free(tmp);
}
