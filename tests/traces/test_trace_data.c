/* traces/trace_data.c, trace_pack.c: the data forms of buffers and
 * textures (hex, base64), strict decoding with the JSON path, `ulpsim trace
 * pack` (the same replay), and the host figures of a replay. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "tests/test_util.h"
#include "traces/trace.h"
#include "traces/trace_data.h"

#define HEAD2 "{\"format\": \"ulpsim-trace\", \"version\": 2, \"commands\": [], \"resources\": "

static trace parse_ok(const char *json)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, json, "t.json", "/tmp", &d), "%s: %s", json, d.msg);
	return t;
}

Test(trace_data, b64_round_trips_every_tail_length)
{
	uint8_t bytes[64];
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(i * 37 + 250);       /* every bit pattern position, 0xff included */
	for (size_t n = 0; n <= 9; n++) {
		char *s = trace_b64_encode(bytes, n);
		cr_assert(s);
		cr_assert_eq(strlen(s), (n + 2) / 3 * 4);
		char json[512];
		snprintf(json, sizeof json, HEAD2 "{\"b\": {\"type\": \"buffer\", \"b64\": \"%s\"}}}", s);
		trace t = parse_ok(json);
		const trace_resource *r = trace_find_resource(&t, "b");
		cr_assert_eq(r->len, n, "%zu bytes from '%s'", n, s);
		cr_assert(n == 0 || !memcmp(r->bytes, bytes, n), "%zu bytes", n);
		trace_free(&t);
		free(s);
	}
	char *s = trace_b64_encode((const uint8_t *)"Man", 3);    /* RFC 4648's example */
	cr_assert_str_eq(s, "TWFu");
	free(s);
}

Test(trace_data, textures_and_levels_take_hex_and_b64)
{
	/* L8 4x2: level 0 in b64, level 1 (2x1) in hex, level 2 (1x1) as u8 */
	const char *json = HEAD2 "{\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 4, \"height\": 2, "
		"\"b64\": \"AAECAwQFBgc=\", \"levels\": [{\"hex\": \"0aFF\"}, {\"u8\": [9]}]}, "
		"\"d\": {\"type\": \"texture\", \"format\": \"D16\", \"width\": 1, \"height\": 1, \"b64\": \"NBI=\"}}}";
	trace t = parse_ok(json);
	const trace_resource *r = trace_find_resource(&t, "t");
	cr_assert_eq(r->nlevels, 3);
	for (unsigned i = 0; i < 8; i++)
		cr_assert_eq(r->bytes[i], i);
	cr_assert(r->bytes[r->level_off[1]] == 0x0a && r->bytes[r->level_off[1] + 1] == 0xff);
	cr_assert_eq(r->bytes[r->level_off[2]], 9);
	r = trace_find_resource(&t, "d");
	cr_assert_eq(r->bytes[0] | r->bytes[1] << 8, 0x1234, "D16 little-endian");
	trace_free(&t);
}

typedef struct bad { const char *json, *msg; } bad;

Test(trace_data, bad_data_is_refused_with_its_path)
{
#define TEX(data) HEAD2 "{\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 2, \"height\": 2, " data "}}}"
#define BUF(data) HEAD2 "{\"b\": {\"type\": \"buffer\", " data "}}}"
	const bad cases[] = {
		{ BUF("\"b64\": \"AQI\""), "$.resources.b.b64: 3 characters: base64 comes in groups of 4" },
		{ BUF("\"b64\": \"AQ!D\""), "$.resources.b.b64: character 2 ('!') is not base64" },
		{ BUF("\"b64\": \"A=ID\""), "$.resources.b.b64: character 1 ('=') is not base64" },
		{ BUF("\"b64\": \"AQID AQID\""), "$.resources.b.b64: 9 characters" },
		{ BUF("\"b64\": \"AQ\\nD\""), "$.resources.b.b64: character 2 (\\x0a) is not base64" },
		{ BUF("\"b64\": \"AR==\""), "$.resources.b.b64: the last group's unused bits are not zero" },
		{ BUF("\"b64\": \"A===\""), "$.resources.b.b64: character 1 ('=') is not base64" },
		{ BUF("\"b64\": 12"), "$.resources.b.b64: expected a base64 string" },
		{ BUF("\"hex\": \"0g\""), "$.resources.b.hex: character 1 ('g') is not a hex digit" },
		{ BUF("\"hex\": \"012\""), "$.resources.b.hex: expected an even number of hex digits" },
		{ BUF("\"b64\": \"AQID\", \"u8\": [1]"), "$.resources.b: a buffer gives exactly one of f32, u32, u16, u8, hex, b64, file" },
		{ BUF("\"u16\": [1, 65536]"), "$.resources.b.u16[1]: expected an unsigned integer that fits (0..65535)" },
		{ TEX("\"b64\": \"AQID\""), "$.resources.t.b64: 3 bytes; this level's texels take width * height * bytes-per-texel = 4" },
		{ TEX("\"hex\": \"01020304050\""), "$.resources.t.hex: expected an even number of hex digits" },
		{ TEX("\"hex\": \"0102\""), "$.resources.t.hex: 2 bytes; this level's texels take" },
		{ TEX("\"u8\": [1, 2, 3, 256]"), "$.resources.t.u8[3]: expected an unsigned integer that fits (0..255)" },
		{ TEX("\"b64\": \"AQIDBA==\", \"levels\": [{\"b64\": \"AQ==\", \"hex\": \"01\"}]"),
		  "$.resources.t.levels[0]: a texture level gives exactly one of u16, u8, hex, b64, file, png, fill" },
		{ TEX("\"b64\": \"AQIDBA==\", \"levels\": [{\"b64\": \"AQI=\"}]"),
		  "$.resources.t.levels[0].b64: 2 bytes; this level's texels take width * height * bytes-per-texel = 1" },
		{ TEX("\"f32\": [1, 2, 3, 4]"), "$.resources.t.f32: unknown field" },
		{ "{\"format\": \"ulpsim-trace\", \"version\": 1, \"commands\": [], \"resources\": "
		  "{\"b\": {\"type\": \"buffer\", \"b64\": \"AQID\"}}}",
		  "$.resources.b.b64: a field of version 2 of the format: say \"version\": 2" },
		{ "{\"format\": \"ulpsim-trace\", \"version\": 1, \"commands\": [], \"resources\": "
		  "{\"t\": {\"type\": \"texture\", \"format\": \"L8\", \"width\": 1, \"height\": 1, \"hex\": \"01\"}}}",
		  "$.resources.t.hex: a field of version 2 of the format" },
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
#undef TEX
#undef BUF
}

/* The simulated lines of a stats file (the host figures left out). */
static char *simulated_lines(const char *path)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, NULL, &d);
	cr_assert(s, "%s", d.msg);
	char *out = calloc(strlen(s) + 1, 1), *o = out;
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n"))
		if (!strstr(line, "host") && !strstr(line, "seconds") && !strstr(line, "per_s"))
			o += sprintf(o, "%s\n", line);
	free(s);
	return out;
}

static char *read_all(const char *path, size_t *n)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, n, &d);
	cr_assert(s, "%s", d.msg);
	return s;
}

/* textured_cube (f32 and u16 buffers, a u8 texture) packed: no number
 * arrays left in its resources, the same image and statistics. */
Test(trace_data, pack_replays_identically, .timeout = 120)
{
	char *dir = test_tmpdir();
	const char *files[] = { "textured_cube.json", "textured_cube.vs.tgsi", "textured_cube.fs.tgsi" };
	for (int i = 0; i < 3; i++) {
		char src[256];
		snprintf(src, sizeof src, "traces/samples/%s", files[i]);
		char *text = read_all(src, NULL);
		free(test_write_file(dir, files[i], text));
		free(text);
	}
	char cmd[2048], *out = NULL, *err = NULL;
	snprintf(cmd, sizeof cmd, "trace pack %s/textured_cube.json %s/packed.json", dir, dir);
	cr_assert_eq(test_run_cli(cmd, &out, &err), 0, "%s", err);
	cr_expect(strstr(err, "3 data fields as base64"), "%s", err);
	free(out), free(err);
	char path[512];
	snprintf(path, sizeof path, "%s/packed.json", dir);
	char *packed = read_all(path, NULL);
	cr_expect(strstr(packed, "\"b64\"") && !strstr(packed, "\"u8\"") && !strstr(packed, "\"u16\""), "%s", packed);
	cr_expect(strstr(packed, "\"version\":\t2"), "b64 makes it version 2");
	free(packed);
	const char *names[] = { "textured_cube", "packed" };
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd, "replay %s/%s.json -o %s/%s.png --stats %s/%s.stats", dir, names[i], dir,
		         names[i], dir, names[i]);
		cr_assert_eq(test_run_cli(cmd, &out, &err), 0, "%s", err);
		free(out), free(err);
	}
	size_t na, nb;
	snprintf(path, sizeof path, "%s/textured_cube.png", dir);
	char *a = read_all(path, &na);
	snprintf(path, sizeof path, "%s/packed.png", dir);
	char *b = read_all(path, &nb);
	cr_assert(na == nb && !memcmp(a, b, na), "the packed trace's image differs");
	free(a), free(b);
	snprintf(path, sizeof path, "%s/textured_cube.stats", dir);
	a = simulated_lines(path);
	snprintf(path, sizeof path, "%s/packed.stats", dir);
	b = simulated_lines(path);
	cr_assert_str_eq(a, b, "the packed trace's statistics differ");
	free(a), free(b);
	/* a bad trace is refused and nothing is written */
	snprintf(cmd, sizeof cmd, "trace pack %s/nothere.json %s/out.json", dir, dir);
	cr_assert_eq(test_run_cli(cmd, &out, &err), 2, "%s", err);
	free(out), free(err);
	snprintf(path, sizeof path, "%s/out.json", dir);
	cr_assert_null(fopen(path, "r"), "no output for a bad trace");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
	free(dir);
}

/* pack keeps -0.0 (cJSON would print it as 0): the constant's sign survives. */
Test(trace_data, pack_keeps_negative_zero)
{
	const char *json = "{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": "
		"{\"b\": {\"type\": \"buffer\", \"f32\": [-0.0, 1.5]}}, \"commands\": [{\"cmd\": \"constant_buffer\", "
		"\"stage\": \"vertex\", \"index\": 0, \"f32\": [-0.0, 0.1, 1e-7, 3]}]}";
	trace t = parse_ok(json);
	unsigned n = 0;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *text = trace_pack_json(&t, &n, &d);
	trace_free(&t);
	cr_assert(text, "%s", d.msg);
	cr_assert_eq(n, 1);
	cr_expect(strstr(text, "[-0.0, 0.1, 1e-07, 3]"), "%s", text);
	cr_expect(strstr(text, "\"b64\":\t\"AAAAgAAAwD8=\""), "%s", text);
	t = parse_ok(text);
	free(text);
	const trace_resource *r = trace_find_resource(&t, "b");
	cr_assert(r->len == 8 && r->bytes[3] == 0x80, "the buffer's -0.0 bits");
	trace_free(&t);
}

Test(trace_data, host_stats_split_load_compile_draw_output, .timeout = 60)
{
	char *dir = test_tmpdir();
	char cmd[1024], *out = NULL, *err = NULL;
	snprintf(cmd, sizeof cmd, "replay traces/samples/triangle.json -o %s/t.png --host-stats %s/h.txt", dir, dir);
	cr_assert_eq(test_run_cli(cmd, &out, &err), 0, "%s", err);
	free(out), free(err);
	char path[512];
	snprintf(path, sizeof path, "%s/h.txt", dir);
	char *h = read_all(path, NULL);
	const char *keys[] = { "host.trace_load_seconds", "host.compile_seconds", "host.draw_seconds",
		"host.output_seconds", "host.total_seconds", "host.load_compile_share" };
	double v[6];
	for (int i = 0; i < 6; i++) {
		char *at = strstr(h, keys[i]);
		cr_assert(at, "%s lacks %s", h, keys[i]);
		cr_assert_eq(sscanf(at + strlen(keys[i]), "%lf", &v[i]), 1, "%s", keys[i]);
		cr_assert(v[i] >= 0, "%s", keys[i]);
	}
	cr_expect(v[3] > 0, "the checkpoint's PNG takes time");
	/* the parts add up to the total (each printed to 1e-6), the share leaves the output out */
	cr_expect(v[0] + v[1] + v[2] + v[3] <= v[4] + 1e-5, "%s", h);
	cr_expect(v[5] <= (v[0] + v[1]) / v[4] + 1e-3 && v[5] >= (v[0] + v[1]) / v[4] - 1e-3, "%s", h);
	free(h);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
	free(dir);
}
