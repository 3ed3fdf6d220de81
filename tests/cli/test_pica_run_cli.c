/* ulpsim pica run: output formats, --trace, --batch, and bad input. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"

static int run(const char *shbin_rel, const char *case_path, const char *extra, char **out, char **err)
{
	char *shbin = test_corpus_path(shbin_rel);
	char args[2048];
	snprintf(args, sizeof args, "pica run %s --case %s %s", shbin, case_path, extra);
	free(shbin);
	return test_run_cli(args, out, err);
}

static float num(const cJSON *a, int k)
{
	const cJSON *x = cJSON_GetArrayItem(a, k);
	return cJSON_IsString(x) && !strcmp(x->valuestring, "inf") ? 1e30f : (float)x->valuedouble;
}

Test(pica_run_cli, vertex_shader_outputs_json)
{
	char *dir = test_tmpdir();
	char *c = test_write_file(dir, "c.json",
		"{\"dvle\": 0, \"inputs\": {\"v0\": [1, 2, 3, 1], \"v1\": [\"inf\", 0.25, 1, 1]},"
		" \"uniforms\": {\"c0\": [2,0,0,0], \"c1\": [0,1,0,0], \"c2\": [0,0,1,0], \"c3\": [0,0,0,1]}}");
	char *out, *err;
	cr_assert_eq(run("pica/simple_tri/vshader.shbin", c, "", &out, &err), 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	cr_assert(root, "not JSON: %s", out);
	const cJSON *o = cJSON_GetObjectItem(root, "outputs");
	cr_assert_eq(num(cJSON_GetObjectItem(o, "o0"), 0), 2.0f, "dp4 with c0 = (2,0,0,0)");
	cr_assert_eq(num(cJSON_GetObjectItem(o, "o0"), 3), 1.0f);
	cr_assert_eq(num(cJSON_GetObjectItem(o, "o1"), 0), 1e30f, "inf printed as \"inf\"");
	cr_assert_eq(num(cJSON_GetObjectItem(o, "o1"), 1), 0.25f);
	cr_assert_gt(cJSON_GetObjectItem(root, "cycles")->valuedouble, 8);
	cJSON_Delete(root);
	free(out);
	free(err);

	cr_assert_eq(run("pica/simple_tri/vshader.shbin", c, "--trace", &out, &err), 0);
	cr_assert(strstr(err, "vsh0 002  dp4 o0.x, c0, r0"), "trace: %s", err);
	cr_assert(strstr(err, "o0=(2, 0, 0, 0)"), "trace shows changed registers: %s", err);
	free(out);
	free(err);

	cr_assert_eq(run("pica/simple_tri/vshader.shbin", c, "--batch 1000", &out, &err), 0);
	cr_assert(strstr(out, "\"vertices\": 1000, \"units\": 4"), "%s", out);
	cr_assert(strstr(out, "unit_cycles_per_s"), "%s", out);
	free(out);
	free(err);
	free(c);
	/* with a geometry shader in the SHBIN, vertices run on 3 units */
	char *vs = test_write_file(dir, "v.json", "{\"dvle\": 0}");
	cr_assert_eq(run("pica/geoshader/program.shbin", vs, "--batch 300", &out, &err), 0, "%s", err);
	cr_assert(strstr(out, "\"vertices\": 300, \"units\": 3"), "%s", out);
	free(out);
	free(err);
	free(vs);
	free(dir);
}

Test(pica_run_cli, geometry_shader_primitives_json)
{
	char *dir = test_tmpdir();
	char *c = test_write_file(dir, "g.json",
		"{\"inputs\": {\"v0\": [0,0,0,1], \"v1\": [1,0,0,1], \"v2\": [4,0,0,1],"
		" \"v3\": [0,1,0,1], \"v4\": [0,8,0,1], \"v5\": [0,0,1,1]},"
		" \"uniforms\": {\"c0\": [1,0,0,0], \"c1\": [0,1,0,0], \"c2\": [0,0,1,0], \"c3\": [0,0,0,1]}}");
	char *out, *err;
	cr_assert_eq(run("pica/geoshader/program.g.shbin", c, "", &out, &err), 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	cr_assert(root, "%s", out);
	const cJSON *prims = cJSON_GetObjectItem(root, "primitives");
	cr_assert_eq(cJSON_GetArraySize(prims), 3);
	const cJSON *p0 = cJSON_GetArrayItem(prims, 0);
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(p0, "winding_inverted")));
	const cJSON *v1 = cJSON_GetArrayItem(cJSON_GetObjectItem(p0, "vertices"), 1);
	cr_assert_eq(num(cJSON_GetObjectItem(v1, "o0"), 0), 2.0f, "mid(A,B).x");
	cJSON_Delete(root);
	free(out);
	free(err);
	free(c);
	free(dir);
}

Test(pica_run_cli, bad_cases_exit_2_with_location)
{
	char *dir = test_tmpdir();
	const struct { const char *json, *msg; } cases[] = {
		{ "{\"inputs\": {\"v0\": [1, 2, 3]}}", "$.inputs.v0: expected an array of 4 numbers" },
		{ "{\"inputs\": {\"v16\": [1, 2, 3, 4]}}", "$.inputs.v16: inputs are v0..v15" },
		{ "{\"uniforms\": {\"i0\": [1, 2, 3, 256]}}", "$.uniforms.i0[3]: expected an integer 0..255" },
		{ "{\"uniforms\": {\"b3\": 1}}", "$.uniforms.b3: expected true or false" },
		{ "{\"dvle\": 5}", "$.dvle: expected a DVLE index below 1" },
		{ "{\"bogus\": 1}", "$.bogus: unknown field" },
		{ "{\n  \"inputs\": {,}\n}", "c.json:2:" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *c = test_write_file(dir, "c.json", cases[i].json);
		char *out, *err;
		cr_assert_eq(run("pica/simple_tri/vshader.shbin", c, "", &out, &err), 2, "case %zu", i);
		cr_assert(strstr(err, cases[i].msg), "case %zu: %s", i, err);
		cr_assert_str_eq(out, "");
		free(out);
		free(err);
		free(c);
	}
	char *out, *err;
	cr_assert_eq(test_run_cli("pica run /nonexistent.shbin --case /x.json", &out, &err), 2);
	cr_assert(strstr(err, "/nonexistent.shbin"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("pica run", &out, &err), 2);
	cr_assert(strstr(err, "expected a SHBIN file"), "%s", err);
	free(out);
	free(err);
	free(dir);
}
