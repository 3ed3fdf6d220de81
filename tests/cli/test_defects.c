/* The defects of issue #13 found by using ulpsim as a new user would: each
 * test failed before its fix.  Most go through the CLI (ULPSIM_BIN). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "tests/test_util.h"

static int run(const char *args, char **out, char **err)
{
	return test_run_cli(args, out, err);
}

/* Runs ulpsim with printf-style arguments; stderr into *err (malloc'd). */
static int runf(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int runf(char **err, const char *fmt, ...)
{
	char args[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	char *out;
	int st = run(args, &out, err);
	free(out);
	return st;
}

static const char TRI_VS[] =
	"VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
	"MOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nEND\n";
static const char TRI_FS[] =
	"FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n";

/* A one-triangle trace in a fresh folder: gpu, the vertex shader's JSON,
 * extra resources (JSON members after "vertices", or ""), the draw's count
 * and the viewport scale's x (text, so "1e999" can be written).  Returns the
 * folder (malloc'd); the trace is DIR/t.json, the TGSI DIR/vs.tgsi and
 * DIR/fs.tgsi. */
typedef struct tri_opts {
	const char *gpu, *vs, *extra_res, *count, *scale_x;
} tri_opts;

static char *tri_trace(const tri_opts *o)
{
	char *dir = test_tmpdir();
	free(test_write_file(dir, "vs.tgsi", TRI_VS));
	free(test_write_file(dir, "fs.tgsi", TRI_FS));
	char json[4096];
	snprintf(json, sizeof json,
	         "{ \"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"tri\", \"gpu\": \"%s\",\n"
	         "  \"resources\": { \"vertices\": { \"type\": \"buffer\", \"f32\": [\n"
	         "    -0.8, -0.8, 0, 1,  1, 0, 0, 1,   0.8, -0.8, 0, 1,  0, 1, 0, 1,   0, 0.8, 0, 1,  0, 0, 1, 1 ] }%s },\n"
	         "  \"shaders\": { \"vs\": %s,\n"
	         "    \"fs\": { \"stage\": \"fragment\", \"tgsi_file\": \"fs.tgsi\" } },\n"
	         "  \"commands\": [\n"
	         "    { \"cmd\": \"framebuffer\", \"width\": 32, \"height\": 32, \"cbufs\": [ { \"format\": \"RGBA8888\" } ] },\n"
	         "    { \"cmd\": \"viewport\", \"scale\": [%s, 16, 0.5], \"translate\": [16, 16, 0.5] },\n"
	         "    { \"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\" },\n"
	         "    { \"cmd\": \"vertex_elements\", \"elements\": [\n"
	         "      { \"buffer\": \"vertices\", \"offset\": 0, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\" },\n"
	         "      { \"buffer\": \"vertices\", \"offset\": 16, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\" } ] },\n"
	         "    { \"cmd\": \"clear\", \"color\": [0, 0, 0, 1] },\n"
	         "    { \"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": %s },\n"
	         "    { \"cmd\": \"checkpoint\", \"name\": \"frame0\" } ] }\n",
	         o->gpu ? o->gpu : "tegra2", o->extra_res ? o->extra_res : "",
	         o->vs ? o->vs : "{ \"stage\": \"vertex\", \"tgsi_file\": \"vs.tgsi\" }",
	         o->scale_x ? o->scale_x : "16", o->count ? o->count : "3");
	free(test_write_file(dir, "t.json", json));
	return dir;
}

/* Removes the folder and frees its (malloc'd) name. */
static void rm_rf(char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	free(dir);
}

#define HAS(s, sub) cr_assert(strstr((s), (sub)), "'%s' lacks '%s'", (s), (sub))

/* 1: the trace's "gpu" picks the preset; --set preset= wins. */
Test(defects, trace_gpu_selects_the_preset)
{
	char *dir = tri_trace(&(tri_opts){ .gpu = "tegra3" }), *err;
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 0, "%s", err);
	HAS(err, "at 416 MHz");
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json --set preset=tegra2", dir), 0, "%s", err);
	HAS(err, "at 300 MHz");
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json --set gr3d.clock_mhz=100", dir), 0, "%s", err);
	HAS(err, "at 100 MHz");
	free(err);
	rm_rf(dir);
	dir = tri_trace(&(tri_opts){ .gpu = "tegra2" });
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 0, "%s", err);
	HAS(err, "at 300 MHz");
	free(err);
	rm_rf(dir);
}

/* 4: replay --permissive exists and turns a PICA200 hang into warnings. */
Test(defects, replay_permissive)
{
	char *dir = tri_trace(&(tri_opts){ .vs = "{ \"stage\": \"vertex\", \"shbin\": \"h.shbin\" }" }), *err;
	free(test_write_file(dir, "h.v.pica",
	                     ".out o0 position\n.out o1 color\n.constf k(1.0, 0.5, 0.25, 1.0)\n.proc main\n"
	                     "  mov o0, v0\n  mov o1, k\n  mov o1.x, k\n  end\n.end\n"));
	cr_assert_eq(runf(&err, "pica asm -o %s/h.shbin %s/h.v.pica", dir, dir), 0, "%s", err);
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 2);
	HAS(err, "--permissive to continue");
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json --permissive", dir), 0, "%s", err);
	HAS(err, "warning: pc 0x002");
	HAS(err, "1 draws");
	free(err);
	rm_rf(dir);
}

/* 8: --out-dir creates its folder; an error names the path. */
Test(defects, replay_out_dir_is_created)
{
	char *dir = tri_trace(&(tri_opts){ 0 }), *err;
	cr_assert_eq(runf(&err, "replay %s/t.json --out-dir %s/a/b", dir, dir), 0, "%s", err);
	free(err);
	char p[600];
	snprintf(p, sizeof p, "%s/a/b/frame0.png", dir);
	cr_assert_eq(access(p, F_OK), 0, "%s written", p);
	free(test_write_file(dir, "plain", "x"));
	cr_assert_eq(runf(&err, "replay %s/t.json --out-dir %s/plain/sub", dir, dir), 2);
	HAS(err, "/plain");
	free(err);
	rm_rf(dir);
}

/* 13: --expect works without -o (the final image). */
Test(defects, replay_expect_without_o)
{
	char *dir = tri_trace(&(tri_opts){ 0 }), *err;
	cr_assert_eq(runf(&err, "replay %s/t.json -o %s/ref.png", dir, dir), 0, "%s", err);
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json --expect %s/ref.png", dir, dir), 0, "%s", err);
	free(err);
	rm_rf(dir);
}

/* 5: a shader's error in a trace keeps its file:line:col after the JSON
 * path; trace check compiles the shaders. */
Test(defects, shader_errors_keep_their_position)
{
	char *dir = tri_trace(&(tri_opts){ 0 }), *err;
	free(test_write_file(dir, "vs.tgsi",
	                     "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
	                     "DCL CONST[0][0..200]\n  MOV OUT[0], IN[0]\n  ADD OUT[1], IN[1], CONST[0][150]\n  END\n"));
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 2);
	HAS(err, "$.commands[2]");
	HAS(err, "vs.tgsi:8:3:");
	free(err);
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "$.shaders.vs: ");
	HAS(err, "vs.tgsi:8:3:");
	free(err);
	free(test_write_file(dir, "vs.tgsi", TRI_VS));
	free(test_write_file(dir, "fs.tgsi", "FRAG\nDCL OUT[0], COLOR\n  FROB OUT[0], IN[0]\n  END\n"));
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "$.shaders.fs: ");
	HAS(err, "fs.tgsi:3:3: unknown opcode");
	free(err);
	free(test_write_file(dir, "fs.tgsi", TRI_FS));
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 0, "%s", err);
	free(err);
	rm_rf(dir);
}

/* Finding 6: side files only from inside the trace's folder by default. */
Test(defects, side_files_stay_in_the_trace_folder)
{
	char *other = test_tmpdir(), *err, res[1200];
	char *secret = test_write_file(other, "secret.bin", "0123456789abcdef");
	snprintf(res, sizeof res, ", \"b\": { \"type\": \"buffer\", \"file\": \"%s\" }", secret);
	char *dir = tri_trace(&(tri_opts){ .extra_res = res });
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "$.resources.b.file");
	HAS(err, "--allow-paths");
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 2);
	HAS(err, "$.resources.b.file");
	free(err);
	cr_assert_eq(runf(&err, "trace check --allow-paths %s/t.json", dir), 0, "%s", err);
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json --allow-paths", dir), 0, "%s", err);
	free(err);
	rm_rf(dir);
	/* .. */
	dir = tri_trace(&(tri_opts){ .extra_res = ", \"b\": { \"type\": \"buffer\", \"file\": \"../x/secret.bin\" }" });
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "without '..'");
	free(err);
	rm_rf(dir);
	/* a device: not even with --allow-paths */
	dir = tri_trace(&(tri_opts){ .extra_res = ", \"b\": { \"type\": \"buffer\", \"file\": \"/dev/zero\" }" });
	cr_assert_eq(runf(&err, "trace check --allow-paths %s/t.json", dir), 2);
	HAS(err, "not a regular file");
	free(err);
	rm_rf(dir);
	/* a link inside the folder that points out of it */
	dir = tri_trace(&(tri_opts){ .extra_res = ", \"b\": { \"type\": \"buffer\", \"file\": \"link.bin\" }" });
	char link[600];
	snprintf(link, sizeof link, "%s/link.bin", dir);
	cr_assert_eq(symlink(secret, link), 0);
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "out of the trace's folder");
	free(err);
	cr_assert_eq(runf(&err, "trace check --allow-paths %s/t.json", dir), 0, "%s", err);
	free(err);
	rm_rf(dir);
	free(secret);
	rm_rf(other);
}

/* 13: a port's high-water mark is in stats.txt. */
Test(defects, stats_report_port_high_water_marks)
{
	char *dir = tri_trace(&(tri_opts){ 0 }), *err;
	cr_assert_eq(runf(&err, "replay %s/t.json --stats %s/s.txt", dir, dir), 0, "%s", err);
	free(err);
	char p[600];
	snprintf(p, sizeof p, "%s/s.txt", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *txt = ulp_read_file(p, NULL, &d);
	cr_assert(txt, "%s", d.msg);
	const char *l = strstr(txt, "gpu.port.raster_to_pseq.max_count");
	cr_assert(l, "no port mark in %s", txt);
	unsigned long v = strtoul(l + strlen("gpu.port.raster_to_pseq.max_count"), NULL, 10);
	cr_assert(v >= 1 && v <= 8, "raster->pseq held %lu (capacity 8)", v);
	free(txt);
	rm_rf(dir);
}

/* 13: the build prints "CC file" per object, V=1 the whole command. */
Test(defects, make_prints_cc_per_file, .timeout = 120)
{
	char *dir = test_tmpdir();
	char cmd[1200], p[600];
	snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u V make --no-print-directory BUILD=%s %s/obj/base/strbuf.o > %s/log 2>&1", dir,
	         dir, dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(p, sizeof p, "%s/log", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *log = ulp_read_file(p, NULL, &d);
	cr_assert(log, "%s", d.msg);
	cr_assert_str_eq(log, "CC base/strbuf.c\n");
	free(log);
	snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -B V=1 BUILD=%s %s/obj/base/strbuf.o > %s/log 2>&1",
	         dir, dir, dir);
	cr_assert_eq(system(cmd), 0);
	log = ulp_read_file(p, NULL, &d);
	cr_assert(log && strstr(log, "-c base/strbuf.c -o "), "%s", log);
	free(log);
	rm_rf(dir);
}

/* 7: ulpsim piglit's exit codes follow the README; --report-only scores. */
Test(defects, piglit_exit_codes, .timeout = 120)
{
	char *src = test_corpus_path("tgsi-noint/generated_tests__spec__glsl-1.10__execution__built-in-"
	                             "functions__vs-op-eq-vec4-vec4-using-if");
	char *dir = test_tmpdir(), *err, cmd[1600];
	snprintf(cmd, sizeof cmd, "cp -r '%s' '%s/t'", src, dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(runf(&err, "piglit %s/t --quiet", dir), 0, "%s", err);
	free(err);
	char p[600];
	snprintf(p, sizeof p, "%s/t/test.txt", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *txt = ulp_read_file(p, NULL, &d);
	cr_assert(txt, "%s", d.msg);
	char *probe = strstr(txt, "(0, 0, 4, 4) (1.0, 1.0");
	cr_assert(probe);
	memcpy(probe, "(0, 0, 4, 4) (0.0, 1.0", 22);     /* a probe that cannot pass */
	cr_assert(ulp_write_file(p, txt, strlen(txt), &d), "%s", d.msg);
	free(txt);
	cr_assert_eq(runf(&err, "piglit %s/t --quiet", dir), 1, "%s", err);
	free(err);
	cr_assert_eq(runf(&err, "piglit %s/t --quiet --report-only", dir), 0, "%s", err);
	free(err);
	cr_assert_eq(runf(&err, "piglit %s/not-there --quiet", dir), 2);
	HAS(err, "not-there");
	free(err);
	rm_rf(dir);
	free(src);
}

/* 9: help and docs that said something was not there. */
Test(defects, help_and_docs_are_current)
{
	char *out, *err;
	cr_assert_eq(run("tgsi --help", &out, &err), 0);
	cr_assert_null(strstr(out, "not built yet"), "%s", out);
	HAS(out, "tegra: a FRAG shader");
	free(out);
	free(err);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *doc = ulp_read_file("docs/tegra-isa.md", NULL, &d);
	cr_assert(doc, "%s", d.msg);
	cr_assert_null(strstr(doc, "(`run` reserved)"));
	HAS(doc, "`ulpsim tegra run`");
	free(doc);
}

/* 10: tegra run -o of a render target nothing binds is refused. */
Test(defects, tegra_run_unbound_out_rt)
{
	char *prog = test_corpus_path("tegra/xf86/blend_over/blend_over/fragment.asm"), *err, *dir = test_tmpdir();
	cr_assert_eq(runf(&err, "tegra run %s --size 8x8 -o %s/o.png --out-rt 5", prog, dir), 2);
	HAS(err, "--out-rt 5: render target 5 is not bound");
	HAS(err, "stores to rt1");
	free(err);
	char p[600];
	snprintf(p, sizeof p, "%s/o.png", dir);
	cr_assert_neq(access(p, F_OK), 0, "no image written");
	cr_assert_eq(runf(&err, "tegra run %s --size 8x8 -o %s/o.png --out-rt 5 --rt 5=0xff0000ff", prog, dir), 0,
	             "%s", err);
	free(err);
	cr_assert_eq(runf(&err, "tegra run %s --size 8x8 -o %s/o.png", prog, dir), 0, "%s", err);
	free(err);
	rm_rf(dir);
	free(prog);
}

/* 6: tgsi run --case refuses keys the shader does not declare, gives bad
 * JSON's line:col, and takes "inf" as pica run does. */
Test(defects, tgsi_run_case_keys_json_and_inf)
{
	char *dir = test_tmpdir(), *err, *out;
	free(test_write_file(dir, "s.tgsi", "FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\nDCL CONST[0][0..1]\n"
	                                    "ADD OUT[0], IN[0], CONST[0][1]\nEND\n"));
	free(test_write_file(dir, "undeclared.json", "{\"IN[9]\": [1, 2, 3, 4]}"));
	free(test_write_file(dir, "bank.json", "{\"CONST[1][0]\": [1, 2, 3, 4]}"));
	free(test_write_file(dir, "bad.json", "{\n  \"IN[0]\": [1, 2,\n}\n"));
	free(test_write_file(dir, "inf.json", "{\"IN[0]\": [\"inf\", \"-inf\", 1, 0], \"CONST[0][1]\": [1, 1, 1, 1]}"));
	cr_assert_eq(runf(&err, "tgsi run %s/s.tgsi --case %s/undeclared.json", dir, dir), 2);
	HAS(err, "IN[9]");
	HAS(err, "declares no");
	free(err);
	cr_assert_eq(runf(&err, "tgsi run %s/s.tgsi --case %s/bank.json", dir, dir), 2);
	HAS(err, "declares no CONST[0] in that constant buffer");
	free(err);
	cr_assert_eq(runf(&err, "tgsi run %s/s.tgsi --case %s/bad.json", dir, dir), 2);
	HAS(err, "bad.json:3:1: ");
	free(err);
	char args[1200];
	snprintf(args, sizeof args, "tgsi run %s/s.tgsi --case %s/inf.json", dir, dir);
	cr_assert_eq(run(args, &out, &err), 0, "%s", err);
	HAS(out, "inf");
	free(out);
	free(err);
	rm_rf(dir);
}

/* 12: non-finite numbers (1e999 parses as infinity) are refused with the
 * JSON path, by trace check and replay; the viewport has a range. */
Test(defects, non_finite_numbers_refused)
{
	char *dir = tri_trace(&(tri_opts){ .scale_x = "1e999" }), *err;
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "$.commands[1].scale[0]: not finite");
	free(err);
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 2);
	HAS(err, "$.commands[1].scale[0]");
	free(err);
	rm_rf(dir);
	dir = tri_trace(&(tri_opts){ .scale_x = "1e9" });
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "$.commands[1].scale: expected 3 numbers in -65536..65536");
	free(err);
	rm_rf(dir);
	/* a buffer's f32 past the f32 range would become infinity */
	dir = tri_trace(&(tri_opts){ .extra_res = ", \"b\": { \"type\": \"buffer\", \"f32\": [1, 2, 3, 1e39] }" });
	cr_assert_eq(runf(&err, "trace check %s/t.json", dir), 2);
	HAS(err, "$.resources.b.f32[3]: out of range");
	free(err);
	rm_rf(dir);
}

/* 11: a draw whose count runs past its vertex buffer is refused with the
 * JSON path, not replayed with (0, 0, 0, 1) vertices. */
Test(defects, draw_past_the_vertex_buffer)
{
	char *dir = tri_trace(&(tri_opts){ .count = "6" }), *err;
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 2);
	HAS(err, "$.commands[5]: ");
	HAS(err, "vertex 5 of the draw is past the end of vertex element 0's buffer 'vertices' (96 bytes");
	free(err);
	rm_rf(dir);
	dir = tri_trace(&(tri_opts){ .count = "3" });
	cr_assert_eq(runf(&err, "replay %s/t.json", dir), 0, "%s", err);
	free(err);
	rm_rf(dir);
}

/* 2: the Kanata log has one instruction per quad-EXEC, through the GR3D
 * stages pseq, mfu, tex, alu, dw (it retires on leaving DW, not while it
 * waits in a port between units). */
Test(defects, kanata_one_instruction_per_quad_exec)
{
	char *dir = tri_trace(&(tri_opts){ 0 }), *err;
	cr_assert_eq(runf(&err, "replay %s/t.json --kanata %s/k.log", dir, dir), 0, "%s", err);
	free(err);
	char p[600];
	snprintf(p, sizeof p, "%s/k.log", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *log = ulp_read_file(p, NULL, &d);
	cr_assert(log, "%s", d.msg);
	enum { MAXI = 4096 };
	static char seq[MAXI][48];
	memset(seq, 0, sizeof seq);
	unsigned ninstr = 0, nquad = 0, flushed = 0;
	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long serial, a, b;
		char stage[16];
		if (line[0] == 'I')
			ninstr++;
		else if (line[0] == 'S' && sscanf(line, "S\t%lu\t%lu\t%15s", &serial, &a, stage) == 3 && serial < MAXI) {
			strncat(seq[serial], stage, sizeof seq[serial] - strlen(seq[serial]) - 2);
			strcat(seq[serial], " ");
		} else if (line[0] == 'R' && sscanf(line, "R\t%lu\t%lu\t%lu", &serial, &a, &b) == 3)
			flushed += b == 1;
	}
	cr_assert_lt(ninstr, MAXI);
	for (unsigned k = 0; k < ninstr; k++) {
		if (strncmp(seq[k], "vsh", 3) == 0)
			continue;
		cr_assert_str_eq(seq[k], "pseq mfu tex alu dw ", "instruction %u", k);
		nquad++;
	}
	cr_assert_gt(nquad, 10, "quad-EXECs");
	cr_assert_eq(flushed, 0, "every instruction retired in the run");
	free(log);
	rm_rf(dir);
}
