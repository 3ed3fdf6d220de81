/* Issue #13: the undefined-behaviour findings of the fuzzing campaign and
 * the input limits (docs/robustness.md).  Each test failed (or, for the
 * float conversions, was undefined behaviour that make san now reports)
 * before its fix. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "frontends/tgsi/tgsi.h"
#include "isa/pica/pica_asm.h"
#include "isa/tegra/tegra_asm.h"
#include "traces/piglit/piglit.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"
#include "units/gr3d/raster.h"
#include "tests/test_util.h"

/* ---- finding 1 and 2: the PICA assembler's register numbers ---- */

static bool pica_asm_text(const char *text, ulp_diag *d)
{
	struct pica_asm_file f = { "probe.pica", text, strlen(text) };
	struct shbin s;
	memset(&s, 0, sizeof s);
	ulp_diag_clear(d);
	bool ok = pica_assemble(&f, 1, NULL, &s, d);
	if (ok)
		shbin_free(&s);
	return ok;
}

Test(robustness, pica_in_register_out_of_range)
{
	static const char *const bad[] = { "v6666666666", "v4294967296", "v4g", "v16", "v15" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char src[256];
		snprintf(src, sizeof src, ".in pos %s\n.proc main\n\tmov o0, pos\n\tend\n.end\n", bad[i]);
		ulp_diag d;
		cr_assert_not(pica_asm_text(src, &d), ".in %s accepted", bad[i]);
		cr_assert_eq(d.line, 1, "%s: line %d: %s", bad[i], d.line, d.msg);
		cr_assert(strstr(d.msg, "register") || strstr(d.msg, "alias"), "%s: %s", bad[i], d.msg);
	}
	ulp_diag d;
	cr_assert(pica_asm_text(".in pos v14\n.proc main\n\tmov o0, pos\n\tend\n.end\n", &d), "%s", d.msg);
}

Test(robustness, pica_register_number_overflow)
{
	/* 4294967295 and 4294967311 wrapped to a valid register before (r15, o15) */
	static const char *const src[] = {
		".proc main\n\tmov r4294967295, v0\n\tend\n.end\n",
		".proc main\n\tmov o4294967311, v0\n\tend\n.end\n",
		".proc main\n\tmov o0, c4294967295\n\tend\n.end\n",
		".proc main\n\tmov o0, v99999999999999999999999\n\tend\n.end\n",
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
		ulp_diag d;
		cr_assert_not(pica_asm_text(src[i], &d), "accepted: %s", src[i]);
		cr_assert_eq(d.line, 2, "%s", d.msg);
		cr_assert(strstr(d.msg, "invalid") && strstr(d.msg, "register"), "%s", d.msg);
	}
	ulp_diag d;
	cr_assert(pica_asm_text(".proc main\n\tmov r15, v0\n\tmov o0, c95\n\tend\n.end\n", &d), "%s", d.msg);
}

/* ---- finding 2 in the Tegra assembler: grate's atoi() wrapped ---- */

static bool tegra_asm_text(const char *text, ulp_diag *d)
{
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert(p);
	ulp_diag_clear(d);
	bool ok = tegra_asm_assemble(text, strlen(text), "probe.asm", p, d);
	free(p);
	return ok;
}

Test(robustness, tegra_number_overflow)
{
	/* a corpus program with its pseq_to_dw_exec_nb (line 5) replaced */
	char *path = test_corpus_path("tegra/grate-tests/filter_quad_fs.txt");
	FILE *f = fopen(path, "rb");
	cr_assert(f, "%s", path);
	static char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	free(path);
	text[n] = '\0';
	const char *key = "pseq_to_dw_exec_nb = 1\n";
	char *at = strstr(text, key);
	cr_assert(at);
	static const struct { const char *v; bool ok; } cases[] = {
		{ "1", true }, { "2147483648", true }, { "4294967295", true },
		{ "4294967297", false },   /* read as 1 before */
		{ "4294967296", false }, { "99999999999999999999999", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char src[8300];
		snprintf(src, sizeof src, "%.*spseq_to_dw_exec_nb = %s\n%s", (int)(at - text), text, cases[i].v,
		         at + strlen(key));
		ulp_diag d;
		bool ok = tegra_asm_text(src, &d);
		cr_assert_eq(ok, cases[i].ok, "%s: %s", cases[i].v, d.msg);
		if (!ok) {
			cr_assert(strstr(d.msg, "number out of range"), "%s", d.msg);
			cr_assert_eq(d.line, 5, "%s", d.msg);
		}
	}
}

/* ---- finding 3: far off-screen window coordinates in the rasterizer ---- */

Test(robustness, raster_far_off_screen)
{
	const double z[3] = { 0.5, 0.5, 0.5 }, w[3] = { 1, 1, 1 };
	raster_tri s;
	/* entirely right of / above the target, past int's range */
	const double xr[3] = { 1e12, 2e12, 1e12 }, yr[3] = { 0, 0, 1e12 };
	raster_tri_setup(&s, xr, yr, z, w, 64, 64);
	cr_assert(raster_tri_empty(&s), "box %d..%d x %d..%d", s.x0, s.x1, s.y0, s.y1);
	const double xl[3] = { -1e12, -2e12, -1e12 }, yl[3] = { -3e12, -3e12, -1e12 };
	raster_tri_setup(&s, xl, yl, z, w, 64, 64);
	cr_assert(raster_tri_empty(&s));
	/* spanning the target from far away: the box is the whole target */
	const double xs[3] = { -1e12, 1e12, 0 }, ys[3] = { -1e12, -1e12, 1e12 };
	raster_tri_setup(&s, xs, ys, z, w, 64, 64);
	cr_assert_not(raster_tri_empty(&s));
	cr_assert_eq(s.x0, 0);
	cr_assert_eq(s.y0, 0);
	cr_assert_eq(s.x1, 63);
	cr_assert_eq(s.y1, 63);
	/* infinities and NaN stay defined too */
	const double xi[3] = { INFINITY, INFINITY, INFINITY }, yi[3] = { NAN, 0, -INFINITY };
	raster_tri_setup(&s, xi, yi, z, w, 64, 64);
	cr_assert(raster_tri_empty(&s));
}

/* The same through a whole replay: a triangle far right of the target
 * draws nothing and the replay succeeds. */
Test(robustness, replay_far_off_screen_vertices)
{
	static const char json[] =
		"{\"format\": \"ulpsim-trace\", \"version\": 1,"
		" \"resources\": {\"v\": {\"type\": \"buffer\", \"f32\": ["
		"   1e9, 0.0, 0.0, 1.0,  2e9, 0.0, 0.0, 1.0,  1e9, 1e9, 0.0, 1.0,"
		"   -1e9, -1e9, 0.0, 1.0,  -2e9, -1e9, 0.0, 1.0,  -1e9, -2e9, 0.0, 1.0]}},"
		" \"shaders\": {\"vs\": {\"stage\": \"vertex\", \"tgsi\": "
		"   \"VERT\\nDCL IN[0]\\nDCL OUT[0], POSITION\\nMOV OUT[0], IN[0]\\nEND\\n\"},"
		"  \"fs\": {\"stage\": \"fragment\", \"tgsi\": "
		"   \"FRAG\\nDCL OUT[0], COLOR\\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\\nMOV OUT[0], IMM[0]\\nEND\\n\"}},"
		" \"commands\": ["
		"  {\"cmd\": \"framebuffer\", \"width\": 16, \"height\": 16, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
		"  {\"cmd\": \"viewport\", \"scale\": [8, 8, 0.5], \"translate\": [8, 8, 0.5]},"
		"  {\"cmd\": \"rasterizer\", \"cull\": \"none\", \"front_ccw\": true},"
		"  {\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
		"  {\"cmd\": \"vertex_elements\", \"elements\": [{\"buffer\": \"v\", \"offset\": 0,"
		"    \"stride\": 16, \"format\": \"R32G32B32A32_FLOAT\"}]},"
		"  {\"cmd\": \"clear\", \"color\": [0, 0, 0, 1]},"
		"  {\"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": 6}]}";
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o;
	memset(&o, 0, sizeof o);
	o.cfg = &cfg;
	replay_result res;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(test_replay_json(json, "far.json", ".", &o, &res, &d), "%s", d.msg);
	cr_assert_eq(res.draws, 1);
	cr_assert_eq(res.fragments, 0, "%llu fragments from off-screen triangles",
	             (unsigned long long)res.fragments);
}

/* ---- finding 4: the piglit harness's texture sizes ---- */

Test(robustness, piglit_texture_size_out_of_range)
{
	static const char *const cmds[] = {
		"texture rgbw 0 (8, -1e30)", "texture rgbw 0 (1e30, 8)", "texture rgbw 0 (nan, 8)",
		"texture rgbw 0 (8, 0)", "texture rgbw 0 (4097, 8)",
		"texture checkerboard 0 0 (8, -1e30) (1, 0, 0, 1) (0, 1, 0, 1)",
		"texture shadow2D 0 (-1e30, 8)",
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char txt[512];
		snprintf(txt, sizeof txt, "==== piglit [test] section (verbatim) ====\n[test]\n%s\n"
		         "==== original piglit file x.shader_test (verbatim) ====\n[test]\n%s\n", cmds[i], cmds[i]);
		pg_test t;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(pg_test_parse(&t, txt, NULL, "VERT\nEND\n", "FRAG\nEND\n", "size", &d), "%s", d.msg);
		cr_assert_eq(t.ncmds, 1);
		pg_state *s = calloc(1, sizeof *s);
		cr_assert(s);
		pg_state_init(s, &t, &d);
		char why[256] = "";
		cr_assert_not(pg_state_apply(s, &t, &t.cmds[0], why, sizeof why), "'%s' accepted", cmds[i]);
		cr_assert(strstr(why, "bad size"), "%s: %s", cmds[i], why);
		pg_state_free(s);
		free(s);
		pg_test_free(&t);
	}
}

/* Probe coordinates far outside any image (1e30, -inf, NaN) are clamped
 * before the conversion and fail the probe at the first pixel outside. */
Test(robustness, piglit_probe_far_outside)
{
	static const char *const cmds[] = {
		"probe rgba 1e30 0 1 0 0 1", "probe rgb -1e30 0 1 0 0", "probe rgba 7 7 1 0 0 1",
		"probe rect rgba (0, 0, 1e30, 1e30) (1, 0, 0, 1)",
		"relative probe rgba (1e30, -1e30) (1, 0, 0, 1)", "probe rgba nan 0 1 0 0 1",
	};
	ulp_diag d;
	ulp_image *img = ulp_image_create(8, 8, &d);
	cr_assert(img);
	ulp_image_fill(img, 255, 0, 0, 255);    /* every probe's colour: only where fails */
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char txt[512];
		snprintf(txt, sizeof txt, "==== piglit [test] section (verbatim) ====\n[test]\n%s\n"
		         "==== original piglit file x.shader_test (verbatim) ====\n[test]\n%s\n", cmds[i], cmds[i]);
		pg_test t;
		ulp_diag_clear(&d);
		cr_assert(pg_test_parse(&t, txt, NULL, "VERT\nEND\n", "FRAG\nEND\n", "probe", &d), "%s", d.msg);
		cr_assert_eq(t.ncmds, 1);
		cr_assert_eq(t.cmds[0].kind, PG_PROBE, "%s", cmds[i]);
		pg_probe_result r;
		bool pass = pg_probe_check(&t.cmds[0], img, NULL, &r);
		bool inside = i == 2;   /* the one probe inside the image passes */
		cr_assert_eq(pass, inside, "'%s' on an 8x8 red image", cmds[i]);
		if (!inside)
			cr_assert(r.x < 0 || r.y < 0 || r.x >= 8 || r.y >= 8, "%s: failed at %d,%d", cmds[i], r.x, r.y);
		pg_test_free(&t);
	}
	ulp_image_free(img);
}

/* ---- the trace loader's limits ---- */

static bool load(const char *json, ulp_diag *d)
{
	trace t;
	ulp_diag_clear(d);
	bool ok = trace_parse(&t, json, "limits.json", ".", d);
	trace_free(&t);
	return ok;
}

Test(robustness, trace_json_depth)
{
	char json[512];
	int n = snprintf(json, sizeof json, "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"x\","
	                 " \"commands\": [], \"resources\": {\"b\": {\"type\": \"buffer\", \"u8\": ");
	for (int i = 0; i < TRACE_MAX_DEPTH; i++)
		json[n++] = '[';
	for (int i = 0; i < TRACE_MAX_DEPTH; i++)
		json[n++] = ']';
	snprintf(json + n, sizeof json - (size_t)n, "}}}");
	ulp_diag d;
	cr_assert_not(load(json, &d));
	cr_assert(strstr(d.msg, "nested more than 32 levels"), "%s", d.msg);
	cr_assert(strstr(d.msg, "$.resources.b.u8[0][0]"), "%s", d.msg);
}

Test(robustness, trace_total_texture_bytes, .timeout = 60)
{
	/* 4096 x 4096 RGBA8888 is 64 MiB: four fit the 256 MiB, the fifth not */
	char json[2048];
	int n = snprintf(json, sizeof json, "{\"format\": \"ulpsim-trace\", \"version\": 1, \"commands\": [],"
	                 " \"resources\": {");
	for (int i = 0; i < 5; i++)
		n += snprintf(json + n, sizeof json - (size_t)n,
		              "%s\"t%d\": {\"type\": \"texture\", \"format\": \"RGBA8888\", \"target\": \"2D\","
		              " \"width\": 4096, \"height\": 4096, \"fill\": [0, 0, 0, 0]}", i ? ", " : "", i);
	snprintf(json + n, sizeof json - (size_t)n, "}}");
	ulp_diag d;
	cr_assert_not(load(json, &d));
	cr_assert(strstr(d.msg, "$.resources.t4"), "%s", d.msg);
	cr_assert(strstr(d.msg, "256 MiB"), "%s", d.msg);
}

/* ---- replay --max-cycles ---- */

Test(robustness, replay_max_cycles, .timeout = 60)
{
	char *out = NULL, *err = NULL;
	int rc = test_run_cli("replay traces/samples/triangle.json --max-cycles 100", &out, &err);
	cr_assert_eq(rc, 2, "%s", err);
	cr_assert(strstr(err, "budget of simulated cycles (--max-cycles 100)"), "%s", err);
	cr_assert(strstr(err, "$.commands[6]"), "%s", err);
	free(out);
	free(err);
	rc = test_run_cli("replay traces/samples/triangle.json --max-cycles 100000000", &out, &err);
	cr_assert_eq(rc, 0, "%s", err);
	free(out);
	free(err);
	rc = test_run_cli("replay traces/samples/triangle.json --max-cycles -5", &out, &err);
	cr_assert_eq(rc, 2, "%s", err);
	cr_assert(strstr(err, "--max-cycles takes"), "%s", err);
	free(out);
	free(err);
}

/* ---- tgsi fmt refuses deep nesting like run and compile ---- */

Test(robustness, tgsi_fmt_deep_if, .timeout = 60)
{
	char *dir = test_tmpdir();
	size_t cap = 64 * 20000, len = 0;
	char *buf = malloc(cap);
	cr_assert(buf);
	len += (size_t)sprintf(buf, "FRAG\n");
	for (int i = 0; i < 10000; i++)
		len += (size_t)sprintf(buf + len, "IF IN[0].xxxx\n");
	for (int i = 0; i < 10000; i++)
		len += (size_t)sprintf(buf + len, "ENDIF\n");
	char *path = test_write_file(dir, "deep.tgsi", buf);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "tgsi fmt %s", path);
	char *out = NULL, *err = NULL;
	int rc = test_run_cli(cmd, &out, &err);
	cr_assert_eq(rc, 2, "%s", err);
	cr_assert(strstr(err, "deep.tgsi:1026:1: IF nested too deeply"), "%s", err);
	cr_assert_eq(strlen(out), 0, "partial output");
	free(out);
	free(err);
	free(path);
	free(buf);
	free(dir);
}
