/* traces/: format v1 loading, validation with JSON paths, and the schema. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "tests/test_util.h"
#include "traces/trace.h"

#define HEAD "{\"format\": \"ulpsim-trace\", \"version\": 1, "

Test(trace, sample_triangle_loads)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, "traces/samples/triangle.json", &d), "%s", d.msg);
	cr_assert_str_eq(t.name, "triangle");
	cr_assert_eq(t.ncmd, 8);
	const trace_resource *vb = trace_find_resource(&t, "vertices");
	cr_assert(vb && vb->type == TRACE_BUFFER);
	cr_assert_eq(vb->len, 24 * 4);
	float f;
	memcpy(&f, vb->bytes + 4 * 4, 4);
	cr_assert_eq(f, 1.0f, "little-endian f32 data");
	const trace_shader *vs = trace_find_shader(&t, "vs");
	cr_assert(vs && vs->code == TRACE_TGSI && vs->stage == TRACE_VERTEX);
	cr_assert(vs->text && strncmp(vs->text, "VERT", 4) == 0, "the TGSI file was read");
	trace_free(&t);
}

Test(trace, resources_decode)
{
	char *dir = test_tmpdir();
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(2, 1, &d);
	cr_assert(img);
	uint8_t *p = ulp_image_px(img, 0, 0);
	p[0] = 255, p[1] = 0, p[2] = 0, p[3] = 255;
	p = ulp_image_px(img, 1, 0);
	p[0] = 0, p[1] = 0, p[2] = 255, p[3] = 128;
	char png[512];
	snprintf(png, sizeof png, "%s/t.png", dir);
	cr_assert(ulp_image_save_png(img, png, &d), "%s", d.msg);
	ulp_image_free(img);
	const char *json = HEAD "\"resources\": {"
		"\"h\": {\"type\": \"buffer\", \"hex\": \"0102ff\"},"
		"\"w\": {\"type\": \"buffer\", \"u16\": [1, 65535]},"
		"\"bgra\": {\"type\": \"texture\", \"format\": \"BGRA8888\", \"width\": 2, \"height\": 1, \"png\": \"t.png\"},"
		"\"r565\": {\"type\": \"texture\", \"format\": \"RGB565\", \"width\": 2, \"height\": 1, \"png\": \"t.png\"},"
		"\"l8\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 2, \"height\": 2, \"u8\": [1, 2, 3, 4]},"
		"\"a8\": {\"type\": \"texture\", \"format\": \"A8\", \"width\": 3, \"height\": 1, \"fill\": [0, 0, 0, 0.5]}"
		"}, \"commands\": []}";
	trace t;
	cr_assert(trace_parse(&t, json, "r.json", dir, &d), "%s", d.msg);
	const trace_resource *r = trace_find_resource(&t, "h");
	cr_assert(r->len == 3 && r->bytes[2] == 0xFF);
	r = trace_find_resource(&t, "w");
	cr_assert(r->len == 4 && r->bytes[2] == 0xFF && r->bytes[0] == 1);
	r = trace_find_resource(&t, "bgra");
	cr_assert(r->bytes[0] == 0 && r->bytes[2] == 255 && r->bytes[4] == 255 && r->bytes[7] == 128,
	          "RGBA -> BGRA");
	r = trace_find_resource(&t, "r565");
	cr_assert_eq(r->len, 4);
	cr_assert_eq(r->bytes[0] | r->bytes[1] << 8, 0xF800, "red in RGB565");
	cr_assert_eq(r->bytes[2] | r->bytes[3] << 8, 0x001F, "blue in RGB565");
	r = trace_find_resource(&t, "a8");
	cr_assert(r->len == 3 && r->bytes[2] == 128, "fill 0.5 -> 128");
	trace_free(&t);
	remove(png);
	remove(dir);
	free(dir);
}

typedef struct bad_case { const char *json, *msg; } bad_case;

Test(trace, bad_traces_name_the_json_path)
{
	const bad_case cases[] = {
		{ "{\"format\": \"x\", \"version\": 1, \"commands\": []}", "$.format: expected \"ulpsim-trace\"" },
		{ HEAD "\"commands\": [], \"extra\": 1}", "$.extra: unknown field" },
		{ "{\"format\": \"ulpsim-trace\", \"version\": 3, \"commands\": []}",
		  "$.version: version 3 of the format is newer than this ulpsim reads" },
		{ "{\"format\": \"ulpsim-trace\", \"version\": 0, \"commands\": []}", "$.version: expected 1 to 2" },
		{ HEAD "\"commands\": {}}", "$.commands: expected an array" },
		{ HEAD "\"commands\": [{\"cmd\": \"drow\"}]}", "$.commands[0].cmd: unknown command 'drow'" },
		{ HEAD "\"commands\": [{\"mode\": \"points\"}]}", "$.commands[0].cmd: missing" },
		{ HEAD "\"commands\": [{\"cmd\": \"draw\", \"mode\": \"points\"}]}", "$.commands[0].count: missing" },
		{ HEAD "\"commands\": [{\"cmd\": \"draw\", \"mode\": \"quads\", \"count\": 3}]}",
		  "$.commands[0].mode: expected one of points, lines" },
		{ HEAD "\"commands\": [{\"cmd\": \"draw\", \"mode\": \"points\", \"count\": -1}]}",
		  "$.commands[0].count: expected an integer in 0.." },
		{ HEAD "\"commands\": [{\"cmd\": \"draw\", \"mode\": \"points\", \"count\": 3, \"cuont\": 1}]}",
		  "$.commands[0].cuont: unknown field" },
		{ HEAD "\"commands\": [{\"cmd\": \"clear\"}]}", "$.commands[0]: clear: give at least one" },
		{ HEAD "\"commands\": [{\"cmd\": \"clear\", \"color\": [1, 2, 0, 0]}]}",
		  "$.commands[0].color: expected [r, g, b, a] in 0..1" },
		{ HEAD "\"commands\": [{\"cmd\": \"framebuffer\", \"width\": 8, \"height\": 8, \"cbufs\": [{\"format\": \"RGB888\"}]}]}",
		  "$.commands[0].cbufs[0].format: expected one of RGBA8888" },
		{ HEAD "\"commands\": [{\"cmd\": \"depth_stencil_alpha\", \"depth\": {\"enabled\": true, \"func\": \"lesser\"}}]}",
		  "$.commands[0].depth.func: expected one of never" },
		{ HEAD "\"commands\": [{\"cmd\": \"bind_shaders\", \"vs\": \"nope\", \"fs\": \"nope\"}]}",
		  "$.commands[0].vs: no shader named 'nope'" },
		{ HEAD "\"commands\": [{\"cmd\": \"sampler_view\", \"index\": 0, \"resource\": \"b\"}], "
		  "\"resources\": {\"b\": {\"type\": \"buffer\", \"u8\": [1]}}}",
		  "$.commands[0].resource: no texture named 'b'" },
		{ HEAD "\"commands\": [{\"cmd\": \"constant_buffer\", \"stage\": \"vertex\", \"index\": 0}]}",
		  "$.commands[0]: constant_buffer: give exactly one" },
		{ HEAD "\"commands\": [{\"cmd\": \"constant_buffer\", \"stage\": \"vertex\", \"index\": 0, \"f32\": [1, 2, 3]}]}",
		  "$.commands[0].f32: expected a non-empty array of numbers, a multiple of 4 long" },
		{ HEAD "\"commands\": [{\"cmd\": \"registers\", \"pica\": [[0x300, 15, 0]]}]}", "invalid JSON" },
		{ HEAD "\"commands\": [{\"cmd\": \"registers\", \"pica\": [[768, 15, 0]]}]}",
		  "$.commands[0].pica[0]: register outside 0x000-0x2ff" },
		{ HEAD "\"commands\": [{\"cmd\": \"registers\", \"pica\": [[1, 16, 0]]}]}",
		  "$.commands[0].pica[0]: byte mask outside 0-15" },
		{ HEAD "\"commands\": [{\"cmd\": \"registers\", \"gr3d\": [[1, 4294967296]]}]}",
		  "$.commands[0].gr3d[0]: value is not a 32-bit unsigned integer" },
		{ HEAD "\"commands\": [{\"cmd\": \"registers\", \"gr3d\": [[1, 2], [3]]}]}",
		  "$.commands[0].gr3d[1]: expected [reg, value]" },
		{ HEAD "\"commands\": [{\"cmd\": \"constant_buffer\", \"stage\": \"vertex\", \"index\": 0, \"f32\": [1, 2, \"x\", 4]}]}",
		  "$.commands[0].f32[2]: expected a number" },
		{ HEAD "\"commands\": [], \"resources\": {\"b\": {\"type\": \"buffer\", \"u8\": [1, 2, 1e999]}}}",
		  "$.resources.b.u8[2]: not finite" },
		{ HEAD "\"commands\": [{\"cmd\": \"checkpoint\", \"name\": \"f\", \"expect_cycles\": \"12%\"}]}",
		  "$.commands[0].expect_cycles:" },
		{ HEAD "\"commands\": [{\"cmd\": \"checkpoint\", \"name\": \"f\", \"expect_image\": \"missing.png\"}]}",
		  "$.commands[0].expect_image: cannot open 'missing.png'" },
		{ HEAD "\"commands\": [], \"resources\": {\"b\": {\"type\": \"buffer\", \"u8\": [1], \"u16\": [1]}}}",
		  "$.resources.b: a buffer gives exactly one of" },
		{ HEAD "\"commands\": [], \"resources\": {\"b\": {\"type\": \"buffer\", \"u8\": [256]}}}",
		  "$.resources.b.u8[0]: expected an unsigned integer that fits" },
		{ HEAD "\"commands\": [], \"resources\": {\"b c\": {\"type\": \"buffer\", \"u8\": [1]}}}",
		  "$.resources.b c: a name is 1-63 characters" },
		{ HEAD "\"commands\": [], \"resources\": {\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 2, \"height\": 2, \"u8\": [1]}}}",
		  "$.resources.t.u8: expected width * height * bytes-per-texel = 4 bytes" },
		{ HEAD "\"commands\": [], \"shaders\": {\"f\": {\"stage\": \"vertex\", \"grate\": \"EXEC\"}}}",
		  "$.shaders.f.grate: a Tegra program is a fragment shader" },
		{ HEAD "\"commands\": [], \"shaders\": {\"f\": {\"stage\": \"vertex\", \"tgsi_file\": \"none.tgsi\"}}}",
		  "$.shaders.f.tgsi_file: cannot open 'none.tgsi'" },
		{ HEAD "\"commands\": [], \"shaders\": {\"f\": {\"stage\": \"pixel\", \"tgsi\": \"FRAG\"}}}",
		  "$.shaders.f.stage: expected one of vertex, geometry, fragment" },
		{ "{\n  \"format\": \"ulpsim-trace\",\n  \"version\": 1,\n  \"commands\": [,]\n}", "t.json:4:" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		trace t;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert_not(trace_parse(&t, cases[i].json, "t.json", "/tmp", &d), "case %zu accepted", i);
		char buf[1024];
		ulp_diag_format(&d, buf, sizeof buf);
		cr_expect(strstr(buf, cases[i].msg), "case %zu: '%s' lacks '%s'", i, buf, cases[i].msg);
		trace_free(&t);
	}
}

/* Asserts that json is refused; its message into buf. */
static void refused(const char *json, char *buf, size_t len)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(trace_parse(&t, json, "t.json", "/tmp", &d), "accepted: %s", json);
	ulp_diag_format(&d, buf, len);
	trace_free(&t);
}

/* One walk checks nesting and numbers: the first offending value in
 * document order is named, and a trace exactly TRACE_MAX_DEPTH deep passes
 * that walk (its unknown field is then the error). */
Test(trace, nesting_and_numbers_in_one_walk)
{
	char json[1024];
	for (int levels = TRACE_MAX_DEPTH; levels <= TRACE_MAX_DEPTH + 1; levels++) {
		/* $ is level 1 and $.x level 2: levels-1 nested arrays put the
		 * deepest container at level `levels` */
		int n = snprintf(json, sizeof json, HEAD "\"commands\": [], \"x\": ");
		for (int k = 0; k < levels - 1; k++)
			json[n++] = '[';
		json[n++] = '1';
		for (int k = 0; k < levels - 1; k++)
			json[n++] = ']';
		snprintf(json + n, sizeof json - (size_t)n, "}");
		char buf[1024];
		refused(json, buf, sizeof buf);
		if (levels > TRACE_MAX_DEPTH)
			cr_expect(strstr(buf, "levels deep (TRACE_MAX_DEPTH"), "%d levels: %s", levels, buf);
		else
			cr_expect(strstr(buf, "$.x: unknown field"), "%d levels: %s", levels, buf);
	}
	/* a bad number before a too-deep value is the one named */
	snprintf(json, sizeof json, HEAD "\"commands\": [], \"a\": 1e999, \"x\": %s1%s}",
	         "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
	char buf[1024];
	refused(json, buf, sizeof buf);
	cr_expect(strstr(buf, "$.a: not finite"), "%s", buf);
}

Test(trace, schema_file_is_the_generated_schema)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *file = ulp_read_file("traces/schema/trace.schema.json", NULL, &d);
	cr_assert(file, "%s", d.msg);
	char *gen = trace_schema_json();
	cr_assert(gen);
	size_t n = strlen(gen);
	cr_assert(strncmp(file, gen, n) == 0 && strcmp(file + n, "\n") == 0,
	          "traces/schema/trace.schema.json is stale: regenerate with "
	          "'build/ulpsim trace schema > traces/schema/trace.schema.json'");
	cJSON *root = cJSON_Parse(gen);
	cr_assert(root);
	const cJSON *defs = cJSON_GetObjectItem(root, "$defs");
	unsigned n_cmds = 0;
	for (int i = 0; TRACE_COMMANDS[i]; i++, n_cmds++) {
		char name[64];
		snprintf(name, sizeof name, "cmd_%s", TRACE_COMMANDS[i]);
		const cJSON *def = cJSON_GetObjectItem(defs, name);
		cr_assert(def, "schema lacks %s", name);
		const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(def, "properties"), "cmd"), "const");
		cr_assert_str_eq(c->valuestring, TRACE_COMMANDS[i]);
	}
	const cJSON *one = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(root, "properties"), "commands"), "items"), "oneOf");
	cr_assert_eq((unsigned)cJSON_GetArraySize(one), n_cmds);
	cJSON_Delete(root);
	free(gen);
	free(file);
}

Test(trace, cli_check_and_schema)
{
	char *out, *err;
	cr_assert_eq(test_run_cli("trace check traces/samples/triangle.json", &out, &err), 0, "%s", err);
	cr_assert(strstr(out, "1 resources, 2 shaders, 8 commands"), "%s", out);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("trace check /nonexistent.json", &out, &err), 2);
	cr_assert(strstr(err, "ulpsim: /nonexistent.json"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("trace schema", &out, &err), 0);
	cr_assert(strstr(out, "\"cmd_draw\""), "schema");
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("trace frob", &out, &err), 2);
	free(out);
	free(err);
}

/* Finding 6 of issue #13: a side file over the size cap is refused. */
Test(trace, side_file_size_cap)
{
	char *dir = test_tmpdir();
	free(test_write_file(dir, "b.bin", "0123456789abcdef0123456789abcdef"));
	const char *json = "{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": "
	                   "{\"b\": {\"type\": \"buffer\", \"file\": \"b.bin\"}}, \"commands\": []}";
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	trace_load_opts lo = { .max_file_bytes = 16 };
	cr_assert_not(trace_parse_with(&t, json, "cap.json", dir, &lo, &d));
	cr_assert(strstr(d.msg, "$.resources.b.file") && strstr(d.msg, "over the side-file cap"), "%s", d.msg);
	trace_free(&t);
	ulp_diag_clear(&d);
	lo.max_file_bytes = 32;
	cr_assert(trace_parse_with(&t, json, "cap.json", dir, &lo, &d), "%s", d.msg);
	cr_assert_eq(t.res[0].len, 32);
	trace_free(&t);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	free(dir);
}

/* --max-side-file's sizes (replay, trace check, the viewer and the API). */
Test(trace, side_file_cap_option)
{
	const struct { const char *s; bool ok; uint64_t bytes; } cases[] = {
		{ "16", true, 16 }, { "1K", true, 1024 }, { "64m", true, 64ull << 20 }, { "16G", true, 16ull << 30 },
		{ "17G", false, 0 }, { "0", false, 0 }, { "-1", false, 0 }, { "1T", false, 0 }, { "", false, 0 },
		{ "K", false, 0 }, { "99999999999999999999", false, 0 }, { "12 ", false, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t b = 0;
		cr_expect_eq(trace_parse_side_file_cap(cases[i].s, &b), cases[i].ok, "'%s'", cases[i].s);
		if (cases[i].ok)
			cr_expect_eq(b, cases[i].bytes, "'%s'", cases[i].s);
	}
	/* through the CLI: the cap refuses the 32-byte side file, a larger one takes it */
	char *dir = test_tmpdir();
	free(test_write_file(dir, "b.bin", "0123456789abcdef0123456789abcdef"));
	char *json = test_write_file(dir, "t.json", "{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": "
	                             "{\"b\": {\"type\": \"buffer\", \"file\": \"b.bin\"}}, \"commands\": []}");
	char args[700], *out, *err;
	snprintf(args, sizeof args, "trace check --max-side-file 16 %s", json);
	cr_expect_eq(test_run_cli(args, &out, &err), 2);
	cr_expect(strstr(err, "over the side-file cap of 16 bytes"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "trace check --max-side-file 1K %s", json);
	cr_expect_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "replay --max-side-file 0 %s", json);
	cr_expect_eq(test_run_cli(args, &out, &err), 2);
	cr_expect(strstr(err, "--max-side-file takes a size"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "rm -rf '%s'", dir);
	cr_assert_eq(system(args), 0);
	free(json);
	free(dir);
}
