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

static bool make(pg_test *t, const char *body, const char *orig_extra, ulp_diag *d)
{
	char txt[8192];
	snprintf(txt, sizeof txt, "%s[test]\n%s%s%s[test]\n%s", HEAD, body, ORIG, orig_extra, body);
	return pg_test_parse(t, txt, "{\"stages\": {\"vs\": {\"source\": \"glsl\", \"nir_vars\": []},"
	                     " \"fs\": {\"source\": \"glsl\", \"nir_vars\": []}}}",
	                     "VERT\nEND\n", "FRAG\nEND\n", "synthetic", d);
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
