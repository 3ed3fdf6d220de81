/* Trace replay, end to end: TGSI vertex shader -> PICA200 units -> Tegra
 * fragment units -> PNG. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "traces/replay/replay.h"
#include "tests/test_util.h"

static ulp_image *replay_sample(const char *trace_path, const char *png, replay_result *res)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, trace_path, &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .out_png = png };
	cr_assert(replay_run(&t, &o, res, &d), "%s", d.msg);
	trace_free(&t);
	ulp_image *img = ulp_image_load_png(png, &d);
	cr_assert(img, "%s", d.msg);
	return img;
}

Test(replay, triangle_pixels)
{
	char *dir = test_tmpdir();
	char png[512];
	snprintf(png, sizeof png, "%s/tri.png", dir);
	replay_result res;
	ulp_image *img = replay_sample("traces/samples/triangle.json", png, &res);
	cr_assert_eq(img->width, 64);
	cr_assert_eq(res.draws, 1);
	cr_assert_eq(res.triangles, 1);
	cr_assert_gt(res.fragments, 1000);
	cr_assert_lt(res.fragments, 1500, "about half of 57.6 x 51.2 pixels");
	cr_assert_gt(res.vertex_cycles, 0);
	cr_assert_gt(res.fragment_cycles, res.vertex_cycles);
	const uint8_t *bg = ulp_image_cpx(img, 0, 0);
	cr_assert(bg[0] == 26 && bg[1] == 26 && bg[2] == 26 && bg[3] == 255, "clear colour 0.1");
	/* the centroid, window (32, 23) = image row 63 - 23: each weight ~1/3 */
	const uint8_t *mid = ulp_image_cpx(img, 32, 40);
	for (int k = 0; k < 3; k++)
		cr_assert(mid[k] > 75 && mid[k] < 95, "centroid channel %d = %d", k, mid[k]);
	/* near the red vertex (window (8, 8) = image row 55) red dominates */
	const uint8_t *red = ulp_image_cpx(img, 8, 55);
	cr_assert(red[0] > 200 && red[1] < 40 && red[2] < 40, "near the red vertex: %d %d %d",
	          red[0], red[1], red[2]);
	ulp_image_free(img);

	/* determinism: a second replay writes the same bytes */
	char png2[512];
	snprintf(png2, sizeof png2, "%s/tri2.png", dir);
	replay_result res2;
	ulp_image_free(replay_sample("traces/samples/triangle.json", png2, &res2));
	size_t n1, n2;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *b1 = ulp_read_file(png, &n1, &d), *b2 = ulp_read_file(png2, &n2, &d);
	cr_assert(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0, "byte-identical PNGs");
	cr_assert_eq(res.cycles, res2.cycles, "identical cycle counts");
	free(b1);
	free(b2);
	remove(png);
	remove(png2);
	remove(dir);
	free(dir);
}

static void refused(const char *json, const char *msg)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, json, "r.json", "traces/samples", &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg };
	replay_result res;
	cr_assert_not(replay_run(&t, &o, &res, &d), "replayed: %s", json);
	cr_assert(strstr(d.msg, msg), "'%s' lacks '%s'", d.msg, msg);
	trace_free(&t);
}

Test(replay, refusals_name_the_command)
{
	const char *head = "{\"format\": \"ulpsim-trace\", \"version\": 1, \"shaders\": {"
	                   "\"vs\": {\"stage\": \"vertex\", \"tgsi_file\": \"triangle.vs.tgsi\"},"
	                   "\"fs\": {\"stage\": \"fragment\", \"tgsi_file\": \"triangle.fs.tgsi\"},"
	                   "\"fa\": {\"stage\": \"fragment\", \"grate_file\": \"triangle.fs.asm\"},"
	                   "\"fi\": {\"stage\": \"fragment\", \"tgsi\": \"FRAG\\nDCL OUT[0], COLOR\\nDCL TEMP[0]\\n"
	                   "  0: UADD TEMP[0].x, TEMP[0].xxxx, TEMP[0].xxxx\\n  1: MOV OUT[0], TEMP[0]\\n  2: END\\n\"}}, ";
	char buf[2048];
	snprintf(buf, sizeof buf, "%s\"commands\": [{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fi\"}]}", head);
	refused(buf, "$.commands[0]: the fragment shader cannot be compiled for the Tegra");
	snprintf(buf, sizeof buf, "%s\"commands\": [{\"cmd\": \"framebuffer\", \"width\": 8, \"height\": 8, "
	         "\"cbufs\": [{\"format\": \"RGBA8888\"}]}, {\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fa\"}, "
	         "{\"cmd\": \"blend\", \"enable\": true}, {\"cmd\": \"draw\", \"mode\": \"triangles\", \"count\": 3}]}",
	         head);
	refused(buf, "$.commands[3]: blending needs a TGSI fragment shader");
	snprintf(buf, sizeof buf, "%s\"commands\": [{\"cmd\": \"draw\", \"mode\": \"triangles\", \"count\": 3}]}", head);
	refused(buf, "$.commands[0]: draw before bind_shaders");
	snprintf(buf, sizeof buf, "%s\"commands\": [{\"cmd\": \"registers\", \"pica\": [[705, 3, 1]]}]}", head);
	refused(buf, "$.commands[0]: register 0x2c1: byte mask 0x3 on an upload FIFO");
}

Test(replay, cli_checks_and_dump)
{
	char *dir = test_tmpdir();
	char args[1024], *out, *err;
	snprintf(args, sizeof args, "replay traces/samples/triangle.json -o %s/a.png", dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	cr_assert(strstr(err, "1 draws, 3 vertices, 1 triangles"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "replay traces/samples/triangle.json -o %s/b.png --expect %s/a.png", dir, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "identical: %s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "replay traces/samples/triangle.json --expect-cycles 10+-1%%");
	cr_assert_eq(test_run_cli(args, &out, &err), 1, "cycles far off: %s", err);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("replay traces/samples/triangle.json --dump-commands", &out, &err), 0);
	cr_assert(strstr(out, "VSH_CODETRANSFER_DATA"), "dump");
	cr_assert(strstr(out, "VSH_ATTRIBUTES_PERMUTATION_LOW"), "dump");
	cr_assert(strstr(out, "gr3d 0x520 20006001"), "the fragment program's EXEC count: %s", out);
	cr_assert(strstr(out, "gr3d 0x804 "), "ALU packets through their FIFO");
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("replay /nonexistent.json", &out, &err), 2);
	free(out);
	free(err);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	cr_assert_eq(system(args), 0);
	free(dir);
}

Test(replay, stats_timeline_kanata_outputs)
{
	char *dir = test_tmpdir();
	char args[2048], *out, *err;
	snprintf(args, sizeof args, "replay traces/samples/triangle.json --stats %s/s.txt "
	         "--timeline %s/t.json --kanata %s/k.log", dir, dir, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	char path[600];
	ulp_diag d;
	ulp_diag_clear(&d);
	snprintf(path, sizeof path, "%s/s.txt", dir);
	char *stats = ulp_read_file(path, NULL, &d);
	cr_assert(stats, "%s", d.msg);
	cr_assert(strstr(stats, "---------- Begin Simulation Statistics ----------"));
	cr_assert(strstr(stats, "gpu.vsh0.instructions"), "PICA units");
	cr_assert(strstr(stats, "gpu.alu.busy_cycles"), "Tegra units");
	cr_assert(strstr(stats, "draw0.gpu.dw.busy_cycles"), "per-draw section");
	cr_assert(strstr(stats, "\"watchdog_cycles\""), "the config used follows");
	snprintf(path, sizeof path, "%s/t.json", dir);
	char *tl = ulp_read_file(path, NULL, &d);
	cr_assert(tl && strstr(tl, "\"traceEvents\"") && strstr(tl, "\"pseq\""), "Perfetto JSON with lanes");
	snprintf(path, sizeof path, "%s/k.log", dir);
	char *k = ulp_read_file(path, NULL, &d);
	cr_assert(k && strncmp(k, "Kanata\t0004", 11) == 0, "Kanata header");
	free(stats);
	free(tl);
	free(k);
	/* determinism of the stats file */
	snprintf(args, sizeof args, "replay traces/samples/triangle.json --stats %s/s2.txt", dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "cmp -s %s/s.txt %s/s2.txt", dir, dir);
	cr_assert_eq(system(args), 0, "stats.txt byte-identical across runs");
	snprintf(args, sizeof args, "replay traces/samples/triangle.json --timeline %s/t.txt", dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2, "unknown timeline kind");
	free(out);
	free(err);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	cr_assert_eq(system(args), 0);
	free(dir);
}

Test(replay, lit_sphere_and_teaching_samples)
{
	char *dir = test_tmpdir();
	char png[512];
	snprintf(png, sizeof png, "%s/s.png", dir);
	replay_result res;
	ulp_image *img = replay_sample("traces/samples/lit_sphere.json", png, &res);
	cr_assert_eq(res.triangles, 384, "a 12 x 16 sphere, over several 64-triangle passes");
	cr_assert_eq(res.vertices, 1152);
	/* lit from (0.4, 0.6, 0.7): the upper right is bright orange, the lower
	 * left only ambient; the corners keep the clear colour */
	const uint8_t *lit = ulp_image_cpx(img, 80, 45), *dark = ulp_image_cpx(img, 30, 100);
	cr_assert(lit[0] > 150 && lit[1] > 80 && lit[2] < lit[1], "lit: %d %d %d", lit[0], lit[1], lit[2]);
	cr_assert(dark[0] < 50 && dark[1] < 50, "dark: %d %d %d", dark[0], dark[1], dark[2]);
	cr_assert(dark[3] == 255 && lit[3] == 255, "opaque");
	const uint8_t *corner = ulp_image_cpx(img, 0, 0);
	cr_assert(corner[0] == 5 && corner[2] == 13, "clear colour: %d %d %d", corner[0], corner[1], corner[2]);
	ulp_image_free(img);
	img = replay_sample("traces/samples/teaching_8x8.json", png, &res);
	cr_assert_eq(img->width, 8);
	cr_assert_eq(res.fragments, 21, "the 8 x 8 triangle covers 21 pixel centres");
	ulp_image_free(img);
	remove(png);
	remove(dir);
	free(dir);
}

/* A file that is not a trace is refused before any output exists: no
 * partial timeline, Kanata, stats or image file is left behind. */
Test(replay, bad_trace_leaves_no_partial_outputs)
{
	char *dir = test_tmpdir();
	char args[2048], *out, *err;
	snprintf(args, sizeof args, "replay traces/samples/lit_vertex.case.json --timeline %s/t.json "
	         "--kanata %s/k.log --stats %s/s.txt -o %s/o.png", dir, dir, dir, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2, "%s", err);
	cr_assert(strstr(err, "lit_vertex.case.json"), "%s", err);
	free(out);
	free(err);
	size_t n;
	char **names = test_list_dir(dir, false, &n);
	cr_assert_eq(n, 0, "left behind: %s", n ? names[0] : "");
	test_free_names(names, n);
	remove(dir);
	free(dir);
}
