/* piglit runner: every [test] command of the piglit lists (docs/piglit.md
 * "Refusal and failure categories"): link, hint, probe warn, trailing
 * semicolons, light, points and lines, int vertex columns; and, when Debian's
 * piglit is installed, no command of the make piglit-gl list left
 * unrecognised. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "traces/piglit/piglit.h"

static const char HEAD[] = "==== piglit [test] section (verbatim) ====\n";
static const char ORIG[] = "==== original piglit file x.shader_test (verbatim) ====\n";

static bool make_vars(pg_test *t, const char *body, const char *orig_extra, const char *fs_vars, ulp_diag *d)
{
	char txt[8192], meta[2048];
	snprintf(txt, sizeof txt, "%s[test]\n%s%s%s[test]\n%s", HEAD, body, ORIG, orig_extra, body);
	snprintf(meta, sizeof meta, "{\"stages\": {\"vs\": {\"source\": \"glsl\", \"nir_vars\": []},"
	         " \"fs\": {\"source\": \"glsl\", \"nir_vars\": [%s]}}}", fs_vars);
	return pg_test_parse(t, txt, meta, "VERT\nEND\n", "FRAG\nEND\n", "synthetic", d);
}

static bool make(pg_test *t, const char *body, const char *orig_extra, ulp_diag *d)
{
	return make_vars(t, body, orig_extra, "", d);
}

/* Struct uniforms: nested members, member arrays, a sampler member (split
 * out by Mesa into a uniform named by its path, no slot in the struct). */
Test(piglit_cmds, nested_struct_members)
{
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(make_vars(&t, "uniform float s[1].t.f 7\nuniform vec4 s[0].t.g[1] 1 2 3 4\n"
	                    "uniform float s[1].h 9\nuniform int s[0].tex 3\nuniform float s[0].t 1\n"
	                    "uniform float s[0].v.x 1\nuniform float s[0].t.g[2] 1\ndraw rect -1 -1 2 2\n",
	                    "[fragment shader]\nstruct Tx { vec4 q; };\nstruct T { float f; vec4 g[2]; };\n"
	                    "struct S {\n\tvec4 v;\n\tT t;\n\tsampler2D tex;\n\tfloat h;\n};\n",
	                    "\"decl_var uniform INTERP_MODE_NONE S[2] s (0, 2, 0)\", "
	                    "\"decl_var uniform INTERP_MODE_NONE sampler2D s[0].tex (1, 1, 0)\"", &d), "%s", d.msg);
	pg_state *s = malloc(sizeof *s);
	cr_assert_not_null(s);
	cr_assert(pg_state_init(s, &t, &d), "%s", d.msg);
	char why[PG_REASON_MAX] = "";
	for (size_t i = 0; i < 4; i++)
		cr_assert(pg_state_apply(s, &t, &t.cmds[i], why, sizeof why), "%s: %s", t.cmds[i].text, why);
	for (size_t i = 4; i < 7; i++)   /* a whole struct member, a member of a vec4, past g[1] */
		cr_assert_not(pg_state_apply(s, &t, &t.cmds[i], why, sizeof why), "%s", t.cmds[i].text);
	/* S = v (1) + t (T: f 1 + g 2 = 3) + tex (0) + h (1) = 5 slots, from slot 2 */
	cr_assert_float_eq(s->user[1][2 + 5 + 1][0], 7.0f, 0);     /* s[1].t.f */
	cr_assert_float_eq(s->user[1][2 + 0 + 1 + 1 + 1][3], 4.0f, 0);   /* s[0].t.g[1] */
	cr_assert_float_eq(s->user[1][2 + 5 + 4][0], 9.0f, 0);     /* s[1].h */
	cr_assert_eq(s->samp_unit[1], 3);                          /* s[0].tex (Mesa names it by its path) -> SAMP[1] */
	pg_draw dr;
	cr_assert(pg_state_draw(s, &t, &t.cmds[7], &dr, why, sizeof why), "%s", why);
	cr_assert_eq(dr.nfs_const, 12);                             /* 2 + 2 x 5 */
	pg_draw_free(&dr);
	pg_state_free(s);
	free(s);
	pg_test_free(&t);
}

Test(piglit_cmds, every_command_of_the_lists)
{
	static const char body[] =
		"link success\n"
		"hint GL_FRAGMENT_SHADER_DERIVATIVE_HINT GL_NICEST\n"
		"uniform float i 2.0;\n"
		"relative probe rgba (0.25, 0.5) (0.2, 0.2, 0.2, 1.0);\n"
		"probe warn all rgba 0.0 1.0 0.0 1.0\n"
		"light 1 GL_DIFFUSE float 0.3 0.2 0.1 0.4\n"
		"light 0 GL_POSITION float 0.5 0.1 0.4 0.6\n"
		"draw arrays GL_POINTS 0 1\n"
		"draw arrays GL_LINES 0 2\n"
		"link error\n"
		"light 9 GL_DIFFUSE float 1 1 1 1\n";
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(make(&t, body, "[vertex data]\nv/float/2 foo/int/1\n0 0 1\n1 0 2\n", &d), "%s", d.msg);
	cr_assert_eq(t.ncmds, 11);
	static const enum pg_cmd_kind want[11] = { PG_NOP, PG_NOP, PG_UNIFORM, PG_PROBE, PG_PROBE, PG_LIGHT,
		PG_LIGHT, PG_DRAW_ARRAYS, PG_DRAW_ARRAYS, PG_LINK_ERROR, PG_UNSUPPORTED };
	for (size_t i = 0; i < 11; i++)
		cr_assert_eq(t.cmds[i].kind, want[i], "line %d '%s': kind %d", t.cmds[i].line, t.cmds[i].text,
		             (int)t.cmds[i].kind);
	cr_assert(t.cmds[2].nv == 1 && t.cmds[2].v[0] == 2.0f);
	cr_assert(t.cmds[3].relative && t.cmds[3].rgba && t.cmds[3].nv == 6 && t.cmds[3].v[5] == 1.0f);
	cr_assert(t.cmds[4].warn && t.cmds[4].probe == PG_PROBE_ALL);
	cr_assert(t.cmds[5].unit == 1 && t.cmds[5].v[0] == 0.3f && t.cmds[5].v[3] == 0.4f);
	cr_assert(t.cmds[7].prim == 3 && t.cmds[8].prim == 4);
	cr_assert(t.vdata.ncols == 2 && t.vdata.nrows == 2 && t.vdata.rows[5] == 2.0f);

	pg_state s;
	cr_assert(pg_state_init(&s, &t, &d), "%s", d.msg);
	char reason[PG_REASON_MAX];
	/* GL's defaults, then the commands */
	cr_assert(s.light[0][1][0] == 1.0f && s.light[1][1][0] == 0.0f && s.light[1][1][3] == 1.0f);
	cr_assert(s.light[2][3][2] == 1.0f && s.light[2][3][3] == 0.0f);
	for (size_t i = 0; i < 2; i++)
		cr_assert(pg_state_apply(&s, &t, &t.cmds[i], reason, sizeof reason), "%s", reason);
	cr_assert(pg_state_apply(&s, &t, &t.cmds[5], reason, sizeof reason), "%s", reason);
	cr_assert(pg_state_apply(&s, &t, &t.cmds[6], reason, sizeof reason), "%s", reason);
	cr_assert(s.light[1][1][0] == 0.3f && s.light[1][1][3] == 0.4f);
	cr_assert(s.light[0][3][0] == 0.5f && s.light[0][3][3] == 0.6f);
	/* points and lines: refused with the reason, as link error */
	pg_draw dr;
	cr_assert_not(pg_state_draw(&s, &t, &t.cmds[7], &dr, reason, sizeof reason));
	cr_assert(strstr(reason, "points and lines"), "%s", reason);
	cr_assert_not(pg_state_apply(&s, &t, &t.cmds[9], reason, sizeof reason));
	cr_assert(strstr(reason, "link error"), "%s", reason);
	pg_state_free(&s);
	pg_test_free(&t);
}

/* The [test] section of a .shader_test as a corpus test.txt. */
static char *as_test_txt(const char *orig)
{
	const char *ts = strstr(orig, "\n[test]");
	ts = ts ? ts + 1 : (!strncmp(orig, "[test]", 6) ? orig : "");
	const char *te = *ts ? ts + 6 : ts;
	while (*te && !(*te == '[' && te[-1] == '\n'))
		te++;
	size_t n = strlen(HEAD) + (size_t)(te - ts) + strlen(ORIG) + strlen(orig) + 1;
	char *out = malloc(n);
	cr_assert(out);
	snprintf(out, n, "%s%.*s%s%s", HEAD, (int)(te - ts), ts, ORIG, orig);
	return out;
}

/* Every command of the make piglit-gl list (scripts/piglit_gl.sh) is
 * recognised: none is PG_UNSUPPORTED. */
Test(piglit_cmds, installed_piglit_list_parses, .timeout = 120)
{
	static const char root[] = "/usr/lib/x86_64-linux-gnu/piglit";
	struct stat sb;
	if (stat(root, &sb) != 0)
		cr_skip_test("%s: piglit is not installed (make deps)", root);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cd %s && find tests/shaders tests/spec/glsl-1.10 tests/spec/glsl-1.20 "
	         "tests/spec/arb_fragment_program tests/spec/arb_vertex_program generated_tests/spec/glsl-1.10 "
	         "generated_tests/spec/glsl-1.20 -name '*.shader_test' 2>/dev/null", root);
	FILE *fp = popen(cmd, "r");
	cr_assert(fp);
	char line[1024];
	unsigned files = 0, cmds = 0;
	while (fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = 0;
		char path[2048];
		snprintf(path, sizeof path, "%s/%s", root, line);
		ulp_diag d;
		ulp_diag_clear(&d);
		size_t len;
		char *orig = ulp_read_file(path, &len, &d);
		cr_assert(orig, "%s", d.msg);
		char *txt = as_test_txt(orig);
		pg_test t;
		cr_assert(pg_test_parse(&t, txt, NULL, NULL, NULL, line, &d), "%s: %s", line, d.msg);
		for (size_t i = 0; i < t.ncmds; i++)
			cr_assert_neq(t.cmds[i].kind, PG_UNSUPPORTED, "%s:%d: '%s' not recognised", line,
			              t.cmds[i].line, t.cmds[i].text);
		cmds += (unsigned)t.ncmds;
		files++;
		pg_test_free(&t);
		free(txt);
		free(orig);
	}
	pclose(fp);
	cr_assert_gt(files, 3000, "only %u tests listed", files);
	cr_assert_gt(cmds, files);
}
