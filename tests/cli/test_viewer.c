/* The SDL2 viewer (viewer/, docs/viewer.md): headless screenshots, the
 * pixel's journey, bad arguments, a real window under Xvfb, `ulpsim view`,
 * and the API helpers it added (ulpsim_quad_at, ulpsim_progress).
 *
 * The viewer binary comes from env ULPSIM_VIEW (the Makefile's test target
 * sets it; empty when SDL2 was missing at build time).  With SDL2 installed
 * an empty ULPSIM_VIEW is a failure, without it the viewer tests are skipped. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/fileio.h"
#include "base/image.h"
#include "tests/test_util.h"
#include "ulpsim/ulpsim.h"

#define SAMPLE "traces/samples/triangle.json"

/* The sample triangle as it was when the cycle numbers below (and in
 * docs/viewer-tour.md) were taken: its vertex shader and its fragment program
 * in grate syntax, inline, so that changes to the sample do not move them. */
static const char FIXTURE[] =
	"{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"triangle\", \"gpu\": \"tegra2\",\n"
	" \"resources\": {\"vertices\": {\"type\": \"buffer\", \"f32\": [\n"
	"   -0.8, -0.8, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,\n"
	"    0.8, -0.8, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,\n"
	"    0.0,  0.8, 0.0, 1.0,  0.0, 0.0, 1.0, 1.0]}},\n"
	" \"shaders\": {\n"
	"   \"vs\": {\"stage\": \"vertex\", \"tgsi\": \"VERT\\nDCL IN[0]\\nDCL IN[1]\\n"
	"DCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\n  0: MOV OUT[0], IN[0]\\n"
	"  1: MOV OUT[1], IN[1]\\n  2: END\\n\"},\n"
	"   \"fs\": {\"stage\": \"fragment\", \"grate\": \"alu_buffer_size = 1\\n"
	"pseq_to_dw_exec_nb = 1\\n.asm\\nEXEC\\n"
	"  MFU: sfu: rcp r4\\n  mul0: bar, sfu, bar0\\n  mul1: bar, sfu, bar1\\n"
	"  ipl: t0.fp20, t0.fp20, t0.fp20, t0.fp20\\n  TEX: NOP\\n  ALU:\\n"
	"  ALU0: MAD r3.*h, r3, #1, #0, #1\\n  ALU1: MAD r3.l*, r2, #1, #0, #1\\n"
	"  ALU2: MAD r2.*h, r1, #1, #0, #1\\n  ALU3: MAD r2.l*, r0, #1, #0, #1\\n"
	"  DW: store rt1, r2, r3\\n;\\n\"}},\n"
	" \"commands\": [\n"
	"  {\"cmd\": \"framebuffer\", \"width\": 64, \"height\": 64, \"cbufs\": [{\"format\": \"RGBA8888\"}]},\n"
	"  {\"cmd\": \"viewport\", \"scale\": [32, 32, 0.5], \"translate\": [32, 32, 0.5]},\n"
	"  {\"cmd\": \"rasterizer\", \"cull\": \"none\", \"front_ccw\": true},\n"
	"  {\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},\n"
	"  {\"cmd\": \"vertex_elements\", \"elements\": [\n"
	"    {\"buffer\": \"vertices\", \"offset\": 0, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"},\n"
	"    {\"buffer\": \"vertices\", \"offset\": 16, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"}]},\n"
	"  {\"cmd\": \"clear\", \"color\": [0.1, 0.1, 0.1, 1.0]},\n"
	"  {\"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": 3},\n"
	"  {\"cmd\": \"checkpoint\", \"name\": \"frame0\"}]}\n";

/* Writes the fixture into a fresh directory; returns the trace's path. */
static char *fixture(void)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	size_t n = strlen(dir) + 16;
	char *path = malloc(n);
	cr_assert(path);
	snprintf(path, n, "%s/tri.json", dir);
	free(dir);
	FILE *f = fopen(path, "w");
	cr_assert(f, "cannot write %s", path);
	cr_assert_eq(fwrite(FIXTURE, 1, sizeof FIXTURE - 1, f), sizeof FIXTURE - 1);
	cr_assert_eq(fclose(f), 0);
	return path;
}

static void fixture_free(char *path)
{
	remove(path);
	char *slash = strrchr(path, '/');
	if (slash) {
		*slash = 0;
		remove(path);
	}
	free(path);
}

/* The viewer's path, or NULL (the test is then skipped or failed). */
static const char *viewer_bin(void)
{
	const char *v = getenv("ULPSIM_VIEW");
	if (v && *v)
		return v;
	if (system("pkg-config --exists sdl2 2>/dev/null") == 0)
		cr_assert_fail("SDL2 is installed but ULPSIM_VIEW is empty: the viewer (build/ulpsim-view, "
		               "which also needs SDL2_ttf: 'make deps') was not built, or the test was run "
		               "without ULPSIM_VIEW=<path>");
	cr_skip_test("SDL2 is not installed: no viewer to test");
	return NULL;
}

/* Runs "<prefix> <viewer> <args>"; stdout and stderr captured (malloc'd). */
static int run_view(const char *prefix, const char *args, char **out, char **err)
{
	const char *bin = viewer_bin();
	char *dir = test_tmpdir();
	cr_assert(dir);
	size_t n = strlen(prefix) + strlen(bin) + strlen(args) + 2 * strlen(dir) + 192;
	char *cmd = malloc(n);
	cr_assert(cmd);
	/* under ASan: libraries outside the project that keep memory (viewer/lsan.supp) */
	snprintf(cmd, n, "LSAN_OPTIONS=\"suppressions=$PWD/viewer/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}\" "
	         "%s %s %s >%s/out 2>%s/err </dev/null", prefix, bin, args, dir, dir);
	int st = system(cmd);
	free(cmd);
	char path[512];
	ulp_diag d;
	ulp_diag_clear(&d);
	snprintf(path, sizeof path, "%s/out", dir);
	*out = ulp_read_file(path, NULL, &d);
	remove(path);
	snprintf(path, sizeof path, "%s/err", dir);
	*err = ulp_read_file(path, NULL, &d);
	remove(path);
	remove(dir);
	free(dir);
	if (!*out)
		*out = strdup("");
	if (!*err)
		*err = strdup("");
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Pixels of img in [x0, x1) x [y0, y1) that are within tol of (r, g, b). */
static unsigned count_near(const ulp_image *img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                           int r, int g, int b, int tol)
{
	unsigned n = 0;
	for (uint32_t y = y0; y < y1 && y < img->height; y++)
		for (uint32_t x = x0; x < x1 && x < img->width; x++) {
			const uint8_t *p = ulp_image_cpx(img, x, y);
			n += abs(p[0] - r) <= tol && abs(p[1] - g) <= tol && abs(p[2] - b) <= tol;
		}
	return n;
}

/* Screenshot of a trace with extra args; returns the image. */
static ulp_image *shot(const char *prefix, const char *trace, const char *extra, char **out)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char args[1024], path[512], *err;
	snprintf(path, sizeof path, "%s/shot.png", dir);
	snprintf(args, sizeof args, "%s --screenshot %s %s", trace, path, extra);
	int st = run_view(prefix, args, out, &err);
	cr_assert_eq(st, 0, "ulpsim-view %s: exit %d: %s", args, st, err);
	free(err);
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_load_png(path, &d);
	cr_assert(img, "the screenshot: %s", d.msg);
	remove(path);
	remove(dir);
	free(dir);
	return img;
}

/* The render target's colours in the image pane (left 36 %, top 52 %) and
 * the timeline's below it. */
static void check_panes(const ulp_image *img)
{
	uint32_t w = img->width, h = img->height, iw = w * 36 / 100, top = h * 52 / 100;
	cr_assert_gt(count_near(img, 0, 0, iw, top, 250, 0, 0, 40), 10, "strongly red pixels");
	cr_assert_gt(count_near(img, 0, 0, iw, top, 0, 250, 0, 40), 10, "strongly green pixels");
	cr_assert_gt(count_near(img, 0, 0, iw, top, 0, 0, 250, 40), 10, "strongly blue pixels");
	/* busy (60,180,75) and the raster's output_full stalls (230,60,60), blended */
	cr_assert_gt(count_near(img, 0, top, w, h, 60, 180, 75, 3), 1000, "busy cycles in the timeline");
	cr_assert_gt(count_near(img, 0, top, w, h, 38, 38, 46, 0), 1000, "idle cycles in the timeline");
	cr_assert_gt(count_near(img, 0, top, w, h, 200, 55, 58, 40), 50, "stalled cycles in the timeline");
}

Test(viewer, headless_screenshot_size_and_colours)
{
	char *out;
	ulp_image *img = shot("", SAMPLE, "--size 900x620", &out);
	cr_assert_eq(img->width, 900);
	cr_assert_eq(img->height, 620);
	check_panes(img);
	/* the statistics pane's port line, printed too: the fixture's quads
	 * fill raster->pseq (raster stalls on output_full) */
	cr_assert(strstr(out, "ports (most held/capacity): setup->raster "), "%s", out);
	cr_assert(strstr(out, " raster->pseq 8/8 (full) "), "%s", out);
	ulp_image_free(img);
	free(out);
}

Test(viewer, select_prints_and_draws_the_journey)
{
	char *out, *tri = fixture();
	ulp_image *img = shot("", tri, "--select 32,40 --at-cycle 797", &out);
	cr_assert_eq(img->width, 1000, "the default screenshot size");
	cr_assert_eq(img->height, 700);
	cr_assert(strstr(out, "pixel (32, 40)"), "%s", out);
	cr_assert(strstr(out, "quad 193 of fragment pass 0, at window (32, 22)"), "%s", out);
	cr_assert(strstr(out, "EXEC  pseq"), "%s", out);
	cr_assert(strstr(out, "   0    789-793     795-799     803-807     815-819     822-826"), "%s", out);
	/* the program copies the interpolated colour: r0, r1 FP20 red and green,
	 * r2 = FX10 (red, green), r3 = FX10 (blue, alpha) (see the API test) */
	cr_assert(strstr(out, "killed: no"), "%s", out);
	cr_assert(strstr(out, "row registers after each EXEC, pixel 2 of the quad"), "%s", out);
	cr_assert(strstr(out, "EXEC 0, DW cycle 822:"), "%s", out);
	cr_assert(strstr(out, "r0  3a960    0.323242 |"), "%s", out);
	cr_assert(strstr(out, "r2  16053") && strstr(out, "|  0.324  0.344"), "%s", out);
	cr_assert(strstr(out, "r3  40056") && strstr(out, "|  0.336  1.000"), "%s", out);
	/* the selection (255,220,0) outlined in the render target and on the lanes */
	uint32_t top = img->height * 52 / 100;
	cr_assert_gt(count_near(img, 0, 0, img->width * 36 / 100, top, 255, 220, 0, 0), 8);
	cr_assert_gt(count_near(img, 0, top, img->width, img->height, 255, 220, 0, 0), 20);
	ulp_image_free(img);
	free(out);
	img = shot("", tri, "--select 10,60", &out);
	cr_assert(strstr(out, "not covered"), "%s", out);
	ulp_image_free(img);
	free(out);
	fixture_free(tri);
}

/* Stepping through the recorded run, key by key (--keys prints the cursor).
 * The fragment side starts 7 cycles later than when vertices and fragments
 * ran on separate clocks: the first triangle now passes prim, clip and setup
 * (5 cycles per triangle) on the draw's one clock (units/gpu.h). */
Test(viewer, keys_step_through_the_recorded_run)
{
	static const char *const cases[][2] = {
		{ "Right,Right,Left", "cursor cycle 1 lane pseq" },
		{ "N,N,N", "cursor cycle 25 lane pseq: busy  quad 2 EXEC 0" },
		{ "N,N,N,P", "cursor cycle 21 lane pseq" },
		{ "D,D", "cursor cycle 17 lane pseq: busy  quad 0 EXEC 0" },
		{ "D,D,D", "message: no later draw" },
		{ "7,9,7,Return", "cursor cycle 797 lane pseq: busy  quad 195 EXEC 0" },
		{ "G,1,2,BackSpace,Return", "cursor cycle 1 lane pseq" },
		{ "1,2,Escape", "cursor cycle 0 lane pseq" },
		{ "End", "cursor cycle 1509 lane pseq" },
		{ "J", "cursor cycle 789 lane pseq: busy  quad 193 EXEC 0" },
		{ "J,Down,Down,Down,Down,8,2,2,Return", "cursor cycle 822 lane dw: busy  quad 193 EXEC 0" },
		{ "Up,Up,Up,Up,Up,Up,Up,Up,N", "cursor cycle 1 lane vsh0: busy  item 0 pc 0" },
		{ "Space,F1,Escape,Shift+D", "cursor cycle 0 lane pseq" },
		{ "S,Escape,S,N", "cursor cycle 17 lane pseq" },
	};
	char *tri = fixture();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char args[512], *out;
		/* the cursor starts at the last cycle (the final frame): Home first */
		snprintf(args, sizeof args, "--select 32,40 --keys Home,%s", cases[i][0]);
		ulp_image *img = shot("", tri, args, &out);
		cr_expect(strstr(out, cases[i][1]), "--keys %s: '%s' lacks '%s'", cases[i][0], out,
		          cases[i][1]);
		ulp_image_free(img);
		free(out);
	}
	fixture_free(tri);
}

/* The programs overlay (S) highlights what the selected lane holds at the
 * cursor: the EXEC of a quad on a Tegra lane, the pc on a shader unit. */
Test(viewer, programs_overlay_highlights_the_exec_and_the_pc)
{
	static const char *const cases[][3] = {
		/* J: the selected quad's first cycle in PSEQ, in its EXEC 0 */
		{ "J,S", "programs: draw 0, fragment side, EXEC 0 at lines 4-16: EXEC", "quad 193 EXEC 0" },
		/* the top lane is vfetch, the next vsh0; N: its first instruction */
		{ "Up,Up,Up,Up,Up,Up,Up,Up,Up,Up,Up,Up,Down,N,S",
		  "programs: draw 0, vertex side, pc 0 at lines", "lane vsh0: busy  item 0 pc 0" },
		{ "S", "programs: draw 0, fragment side, nothing highlighted", "lane pseq: idle" },
	};
	char *tri = fixture();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char args[512], *out;
		snprintf(args, sizeof args, "--select 32,40 --keys Home,%s", cases[i][0]);
		ulp_image *img = shot("", tri, args, &out);
		cr_expect(strstr(out, cases[i][1]), "--keys %s: '%s' lacks '%s'", cases[i][0], out, cases[i][1]);
		cr_expect(strstr(out, cases[i][2]), "--keys %s: '%s' lacks '%s'", cases[i][0], out, cases[i][2]);
		if (i == 1)
			cr_expect(strstr(out, "mov o0, v0") && strstr(out, "; 000: "), "the pc 0 line: '%s'", out);
		ulp_image_free(img);
		free(out);
	}
	fixture_free(tri);
}

/* E steps through the selected quad's EXECs (PSEQ entries), Shift+E back. */
Test(viewer, e_steps_one_exec_of_the_selected_quad)
{
	static const char *const cases[][2] = {
		{ "Home,E", "EXEC 0  message: quad" },
		{ "Home,E,E", "EXEC 1  message: quad" },
		{ "Home,E,E,Shift+E", "EXEC 0  message: quad" },
		{ "End,E", "message: no later EXEC of quad" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char args[512], *out;
		snprintf(args, sizeof args, "--select 32,32 --keys %s", cases[i][0]);
		ulp_image *img = shot("", "traces/samples/discard.json", args, &out);
		cr_expect(strstr(out, cases[i][1]), "--keys %s: '%s' lacks '%s'", cases[i][0], out, cases[i][1]);
		ulp_image_free(img);
		free(out);
	}
}

Test(viewer, bad_arguments_exit_2)
{
	char *tri = fixture();
	static const char *const bad[][2] = {
		{ "", "no trace" },
		{ "@ --frobnicate 1", "unknown option" },
		{ "@ --screenshot", "needs a value" },
		{ "@ --screenshot /tmp/x.png --size 10x10", "--size" },
		{ "@ --screenshot /tmp/x.png --size wide", "--size" },
		{ "@ --screenshot /tmp/x.png --select 1", "--select" },
		{ "@ --screenshot /tmp/x.png --select 64,0", "render target is 64x64" },
		{ "@ --screenshot /tmp/x.png --at-cycle -3", "--at-cycle" },
		{ "@ --screenshot /tmp/x.png --at-cycle 99999999", "the run has cycles 0..1509" },
		{ "@ --window", "--window goes with --screenshot" },
		{ "@ --keys N", "--keys goes with --screenshot" },
		{ "@ --screenshot /tmp/x.png --keys Bogus", "unknown key 'Bogus'" },
		{ "@ --screenshot /tmp/x.png --bench-frames 0", "--bench-frames" },
		{ "traces/samples/missing.json --screenshot /tmp/x.png", "missing.json" },
		{ "@ --screenshot /nonexistent/dir/x.png", "x.png" },
		{ "@ --set no.such.knob=1 --screenshot /tmp/x.png", "no.such.knob" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *out, *err, args[512];
		/* "@" stands for the fixture's path */
		snprintf(args, sizeof args, "%s%s", bad[i][0][0] == '@' ? tri : "",
		         bad[i][0] + (bad[i][0][0] == '@'));
		int st = run_view("", args, &out, &err);
		cr_expect_eq(st, 2, "ulpsim-view %s: exit %d (%s)", bad[i][0], st, err);
		cr_expect(strstr(err, bad[i][1]), "ulpsim-view %s: stderr '%s' lacks '%s'", bad[i][0], err,
		          bad[i][1]);
		free(out);
		free(err);
	}
	fixture_free(tri);
}

Test(viewer, real_window_under_xvfb)
{
	viewer_bin();
	if (system("command -v xvfb-run >/dev/null 2>&1") != 0)
		cr_assert_fail("xvfb-run is missing: 'make deps' installs the xvfb package");
	char *out;
	/* Under ASan, leak checking is off for this one run: the X11 video
	 * driver's libraries, loaded and unloaded by SDL, leave allocations whose
	 * stacks LeakSanitizer can only print as "<unknown module>", so no
	 * suppression can name them (about one run in three).  The headless
	 * tests check the viewer's own memory. */
	ulp_image *img = shot("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
	                      "xvfb-run -a -s '-screen 0 1280x1024x24'", SAMPLE, "--window --size 800x600", &out);
	cr_assert_eq(img->width, 800);
	cr_assert_eq(img->height, 600);
	check_panes(img);
	ulp_image_free(img);
	free(out);
}

Test(viewer, ulpsim_view_runs_the_viewer_beside_it)
{
	viewer_bin();
	char *out, *err;
	int st = test_run_cli("view --help", &out, &err);
	cr_assert_eq(st, 0, "ulpsim view --help: %s", err);
	cr_assert(strstr(out, "usage: ulpsim view TRACE.json"), "%s", out);
	free(out);
	free(err);
	/* a copy of ulpsim with no viewer beside it */
	const char *bin = getenv("ULPSIM_BIN");
	char *dir = test_tmpdir();
	cr_assert(dir);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp %s %s/ulpsim && %s/ulpsim view " SAMPLE " >%s/out 2>%s/err",
	         bin && *bin ? bin : "build/ulpsim", dir, dir, dir, dir);
	int rc = system(cmd);
	cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "exit %d", rc);
	snprintf(cmd, sizeof cmd, "grep -q 'the viewer is not built' %s/err", dir);
	cr_assert_eq(system(cmd), 0, "the message names the missing viewer");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
	free(dir);
}

/* The API helpers the viewer added (no SDL needed). */
Test(viewer, api_quad_at_and_progress)
{
	char err[512] = "", *tri = fixture();
	ulpsim *s = ulpsim_open(tri, NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	uint64_t c, e;
	ulpsim_progress(s, &c, &e);
	cr_assert(c == 0 && e == 0);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	ulpsim_progress(s, &c, &e);
	ulpsim_summary sum = ulpsim_get_summary(s);
	cr_assert_eq(e, sum.events + sum.events_dropped);
	cr_assert(c > 0 && c < sum.cycles);
	ulpsim_quad_ref q;
	cr_assert(ulpsim_quad_at(s, 32, 40, &q, err, sizeof err), "%s", err);
	cr_assert_eq(q.pass, 0);
	cr_assert_eq(q.quad, 193);
	cr_assert(q.qx == 32 && q.qy == 22, "(%u, %u)", q.qx, q.qy);
	cr_assert(q.pass_from < q.pass_to && q.pass_to <= sum.cycles);
	/* the first quad is the bottom row's leftmost; the two pixels of a quad agree */
	ulpsim_quad_ref q2;
	cr_assert(ulpsim_quad_at(s, 33, 41, &q2, err, sizeof err), "%s", err);
	cr_assert_eq(q2.quad, q.quad);
	cr_assert(!ulpsim_quad_at(s, 10, 60, &q, err, sizeof err));
	cr_assert(strstr(err, "not covered"), "%s", err);
	cr_assert(!ulpsim_quad_at(s, 64, 0, &q, err, sizeof err));
	cr_assert(strstr(err, "outside"), "%s", err);
	const char *vs = ulpsim_shader_text(s, 0, false), *fs = ulpsim_shader_text(s, 0, true);
	cr_assert(vs && strstr(vs, "VERT"), "the vertex shader's TGSI");
	cr_assert(fs && strstr(fs, "EXEC") && strstr(fs, "store rt1"), "the fragment program's grate text");
	cr_assert_null(ulpsim_shader_text(s, 1, true), "there is one draw");
	char *grate = ulpsim_fragment_grate(s, 0, err, sizeof err);
	cr_assert(grate && strstr(grate, "store rt1, r2, r3"), "the grate text: %s", err);
	free(grate);
	cr_assert_null(ulpsim_fragment_grate(s, 1, err, sizeof err));
	cr_assert(strstr(err, "no such draw"), "%s", err);
	/* the vertex shader as the PICA200 units run it, and the draw's cycles */
	char *pica = ulpsim_vertex_pica(s, 0, err, sizeof err);
	cr_assert(pica && strstr(pica, "mov o0, v0") && strstr(pica, "; 000: ") && strstr(pica, "end"),
	          "the PICA200 listing: %s", pica ? pica : err);
	free(pica);
	cr_assert_null(ulpsim_vertex_pica(s, 1, err, sizeof err));
	cr_assert(strstr(err, "no such draw"), "%s", err);
	uint64_t from, to;
	cr_assert_eq(ulpsim_draw_count(s), 1);
	cr_assert(ulpsim_draw_range(s, 0, &from, &to));
	cr_assert(from == 0 && to == sum.cycles, "draw 0 takes [%llu, %llu) of %llu cycles",
	          (unsigned long long)from, (unsigned long long)to, (unsigned long long)sum.cycles);
	cr_assert(!ulpsim_draw_range(s, 1, &from, &to));
	cr_assert_eq(ulpsim_draw_at(s, 0), 0);
	cr_assert_eq(ulpsim_draw_at(s, sum.cycles + 5), 0, "the last draw that started");
	ulpsim_close(s);
	fixture_free(tri);
	/* a TGSI fragment shader: the Tegra compiler's grate output */
	s = ulpsim_open(SAMPLE, NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);   /* the program that ran */
	fs = ulpsim_shader_text(s, 0, true);
	grate = ulpsim_fragment_grate(s, 0, err, sizeof err);
	if (fs && strstr(fs, "FRAG")) {
		cr_assert(grate && strstr(grate, "EXEC") && strstr(grate, "store rt1"), "%s", err);
	}
	free(grate);
	ulpsim_close(s);
}

/* The render target shows the frame at the cursor: the clear colour at
 * cycle 0, part of the triangle halfway through the fragment work, all of it
 * at the end (where the cursor starts). */
Test(viewer, render_target_shows_the_frame_at_the_cursor)
{
	char *out, *tri = fixture();
	static const struct { const char *args; unsigned min_red, max_red; } cases[] = {
		{ "", 10, 100000 },
		{ "--at-cycle 0", 0, 0 },
		{ "--keys Home", 0, 0 },
	};
	unsigned red[3], clear[3];
	for (size_t i = 0; i < 3; i++) {
		ulp_image *img = shot("", tri, cases[i].args, &out);
		uint32_t iw = img->width * 36 / 100, top = img->height * 52 / 100;
		red[i] = count_near(img, 0, 0, iw, top, 250, 0, 0, 40);
		clear[i] = count_near(img, 0, 0, iw, top, 26, 26, 26, 0);   /* the clear colour 0.1 */
		cr_expect(red[i] >= cases[i].min_red && red[i] <= cases[i].max_red, "'%s': %u strongly red pixels",
		          cases[i].args, red[i]);
		ulp_image_free(img);
		free(out);
	}
	cr_expect(clear[1] == clear[2] && clear[0] < clear[1], "clear-colour pixels: %u at the end, %u at 0",
	          clear[0], clear[1]);
	/* the rasterizer walks up from the bottom row: at cycle 500 the bottom
	 * rows are stored, the top (blue) is not */
	ulp_image *img = shot("", tri, "--at-cycle 500", &out);
	uint32_t iw = img->width * 36 / 100, top = img->height * 52 / 100;
	unsigned mid = count_near(img, 0, 0, iw, top, 26, 26, 26, 0);
	cr_expect(mid > clear[0] && mid < clear[1], "halfway: %u clear-colour pixels (%u .. %u)", mid,
	          clear[0], clear[1]);
	cr_expect_eq(count_near(img, 0, 0, iw, top, 0, 0, 250, 40), 0, "no blue yet (the top vertex)");
	ulp_image_free(img);
	free(out);
	fixture_free(tri);
}

/* Kills: a pixel of the discarding sample's corners, outside the circle */
Test(viewer, journey_names_the_kill)
{
	char *out;
	ulp_image *img = shot("", "traces/samples/discard.json", "--select 5,58", &out);
	cr_assert(strstr(out, "killed: in EXEC 1 (the ALU's kill, cycle 832)"), "%s", out);
	cr_assert(strstr(out, "EXEC 1, DW cycle 843 (pixel killed):"), "%s", out);
	ulp_image_free(img);
	free(out);
	img = shot("", "traces/samples/discard.json", "--select 32,32", &out);
	cr_assert(strstr(out, "killed: no"), "the centre is kept: %s", out);
	ulp_image_free(img);
	free(out);
}

/* The row registers through the API, for pixel (32, 40) of the fixture.
 * By hand: the pixel's centre is window (32.5, 23.5); the vertices are at
 * (6.4, 6.4) red, (57.6, 6.4) green, (32, 57.6) blue, so the barycentrics
 * are blue 17.1 / 51.2 = 0.333984375, green (26.1 - 0.333984375 * 25.6) /
 * 51.2 = 0.3427734375, red 0.3232421875: all exact in FP20 (1.29296875 *
 * 2^-2 = exponent 29, mantissa 2400: 0x3a960; 1.37109375 * 2^-2: 0x3abe0).
 * The ALU packs r2 = FX10 (red, green) = (82.75, 87.75 -> 83, 88) and r3 =
 * FX10 (blue, alpha) = (85.5 -> 86 (nearest even), 256). */
Test(viewer, api_row_registers_after_each_exec)
{
	char err[512] = "", *tri = fixture();
	ulpsim *s = ulpsim_open(tri, NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	ulpsim_quad_ref q;
	cr_assert(ulpsim_quad_at(s, 32, 40, &q, err, sizeof err), "%s", err);
	ulpsim_exec_regs r[4];
	size_t n = 0;
	cr_assert(ulpsim_quad_regs(s, &q, r, 4, &n, err, sizeof err), "%s", err);
	cr_assert_eq(n, 1, "one EXEC");
	cr_assert_eq(r[0].exec, 0);
	cr_assert_eq(r[0].cycle, 822, "DW's BEGIN for quad 193");
	cr_assert_eq(r[0].rows, 1);
	cr_assert_eq(r[0].covered, 0xF);
	cr_assert_eq(r[0].killed, 0);
	const uint32_t *px = r[0].r[2];          /* window (32, 23) = pixel 2 of the quad at (32, 22) */
	cr_assert_eq(px[0], 0x3a960, "r0 0x%05x", px[0]);
	cr_assert_eq(px[1], 0x3abe0, "r1 0x%05x", px[1]);
	cr_assert_eq(px[2], 83u | 88u << 10, "r2 0x%05x", px[2]);
	cr_assert_eq(px[3], 86u | 256u << 10, "r3 0x%05x", px[3]);
	cr_assert_float_eq(ulpsim_fp20_value(px[0]), 0.3232421875f, 0.0f);
	cr_assert_float_eq(ulpsim_fx10_value(px[3], true), 1.0f, 0.0f);
	cr_assert_float_eq(ulpsim_fx10_value(px[2], false), 83.0f / 256.0f, 0.0f);
	cr_assert_not(r[0].exact);
	cr_assert_float_eq(ulpsim_reg_value(&r[0], px[0]), 0.3232421875f, 0.0f);
	cr_assert_float_eq(ulpsim_reg_half(&r[0], px[2], false), 83.0f / 256.0f, 0.0f);
	/* a quad that does not exist is refused */
	q.quad = 999999;
	cr_assert(!ulpsim_quad_regs(s, &q, r, 4, &n, err, sizeof err));
	cr_assert(strstr(err, "never reached DW"), "%s", err);
	ulpsim_close(s);

	/* arith=exact: the words are binary32 and 16-bit halves (docs/exact.md),
	 * read by the EXEC's mode: the barycentric red weight unrounded, the
	 * colour halves with 14 fraction bits (red 82.75 / 256 on the dot) */
	const char *set[] = { "arith=exact" };
	s = ulpsim_open(tri, set, 1, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	cr_assert(ulpsim_quad_at(s, 32, 40, &q, err, sizeof err), "%s", err);
	cr_assert(ulpsim_quad_regs(s, &q, r, 4, &n, err, sizeof err), "%s", err);
	cr_assert(r[0].exact);
	px = r[0].r[2];
	cr_assert_float_eq(ulpsim_reg_value(&r[0], px[0]), 0.3232421875f, 1e-6f, "%.9g",
	                   (double)ulpsim_reg_value(&r[0], px[0]));
	cr_assert_float_eq(ulpsim_reg_half(&r[0], px[2], false), 82.75f / 256.0f, 1e-4f, "%.9g",
	                   (double)ulpsim_reg_half(&r[0], px[2], false));
	cr_assert_float_eq(ulpsim_reg_half(&r[0], px[3], true), 1.0f, 1e-4f);
	cr_assert_gt(fabsf(ulpsim_fp20_value(px[0]) - 0.3232421875f), 0.01f,
	             "the FP20 reading of a binary32 word is another number");
	ulpsim_close(s);
	fixture_free(tri);
}

/* Issue #13 defect 3: with no display SDL offers only its "offscreen"
 * driver, a window nobody sees: exit 2 with a message, not spin. */
Test(viewer, no_display_exits_2, .timeout = 60)
{
	char *out, *err;
	/* leaks unchecked, as in real_window_under_xvfb: SDL's video drivers are probed and unloaded */
	int st = run_view("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
	                  "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 20", SAMPLE, &out, &err);
	cr_assert_eq(st, 2, "exit %d (124: still running after 20 s): %s", st, err);
	cr_assert(strstr(err, "cannot open a display") && strstr(err, "--screenshot"), "%s", err);
	free(out);
	free(err);
}

/* Issue #13 defect 3: an idle viewer waits for events and redraws only on a
 * change: five seconds of an idle window cost well under a second of CPU
 * (it drew every 8 ms, about 65% of a core, before). */
Test(viewer, idle_window_sleeps, .timeout = 90)
{
	viewer_bin();
	if (system("command -v xvfb-run >/dev/null 2>&1") != 0)
		cr_assert_fail("xvfb-run is missing: 'make deps' installs the xvfb package");
	char *out, *err;
	/* bash's time: the viewer's CPU (timeout waits for it); leaks unchecked as in real_window_under_xvfb */
	int st = run_view("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
	                  "xvfb-run -a -s '-screen 0 1280x1024x24' bash -c 'TIMEFORMAT=\"cpu %U %S\"; "
	                  "time timeout -s TERM 5 \"$0\" \"$@\"'",
	                  SAMPLE, &out, &err);
	const char *t = strstr(err, "cpu ");
	cr_assert(t, "exit %d, no time in: %s", st, err);
	double user = 0, sys = 0;
	cr_assert_eq(sscanf(t, "cpu %lf %lf", &user, &sys), 2, "%s", t);
	cr_assert_lt(user + sys, 1.5, "an idle window used %.2f s of CPU in 5 s", user + sys);
	free(out);
	free(err);
}
