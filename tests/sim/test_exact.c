/* arith=exact (docs/exact.md): the same compiled programs, units and timing
 * in binary32.  The cycle identity: every sample and calibration trace, a
 * sample of the corpus's Tegra programs through `tegra run` and its PICA
 * shaders through `pica run --batch`, give the same cycles and every timing
 * stat the same in both modes (images may differ).  And the mode is on:
 * float24's truncation and FP20's rounding are gone where they would show. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/image.h"
#include "sim/core/config.h"
#include "tests/test_util.h"
#include "units/gr3d/gr3d_quad.h"

/* text without the lines that are host timings or the arith knob's own
 * line in the config dump: what must be identical (in place). */
static void simulated_only(char *text)
{
	static const char *const drop[] = { "host", "seconds", "per_second", "wall", "\"arith\"", "/s" };
	char *w = text;
	for (char *line = text; *line;) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line + 1) : strlen(line);
		bool keep = true;
		for (size_t k = 0; k < sizeof drop / sizeof drop[0] && keep; k++) {
			const char *hit = strstr(line, drop[k]);
			keep = !hit || hit >= line + len;
		}
		if (keep) {
			memmove(w, line, len);
			w += len;
		}
		line += len;
	}
	*w = '\0';
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	cr_assert_not_null(s);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

/* ulpsim <cmd> in both modes: the simulated part of stdout, or of a
 * --stats file (appended to cmd) when stats_file is set.  Both must exit
 * alike; false (nothing in got) when both refused the input (exit 2). */
static bool both_modes(const char *cmd, bool stats_file, char *got[2])
{
	int status[2] = { 0, 0 };
	static const char *const mode[2] = { "hw", "exact" };
	char *dir = test_tmpdir();
	for (int m = 0; m < 2; m++) {
		char args[2048], stats[1200], *out, *err;
		snprintf(stats, sizeof stats, "%s/%s.stats", dir, mode[m]);
		int n = snprintf(args, sizeof args, "%s --set arith=%s%s%s", cmd, mode[m],
		                 stats_file ? " --stats " : "", stats_file ? stats : "");
		cr_assert(n > 0 && (size_t)n < sizeof args);
		status[m] = test_run_cli(args, &out, &err);
		if (m == 1)
			cr_assert_eq(status[1], status[0], "ulpsim %s: exit %d, %d with arith=hw: %s", args,
			             status[1], status[0], err);
		if (status[m] == 2) {
			free(out);
			free(err);
			continue;
		}
		cr_assert_eq(status[m], 0, "ulpsim %s: %s", args, err);
		got[m] = stats_file ? slurp(stats) : out;
		if (stats_file)
			free(out);
		free(err);
		simulated_only(got[m]);
		cr_assert(strlen(got[m]) > 20, "ulpsim %s: no stats", args);
	}
	free(dir);
	return status[0] == 0;
}

static unsigned replay_dir(const char *dir, const char *skip)
{
	size_t n;
	char **names = test_list_dir(dir, false, &n);
	unsigned runs = 0;
	for (size_t i = 0; i < n; i++) {
		const size_t l = strlen(names[i]);
		if (l < 5 || strcmp(names[i] + l - 5, ".json") || (skip && strstr(names[i], skip)))
			continue;
		char path[1024], cmd[1100], *got[2];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		snprintf(cmd, sizeof cmd, "replay %s -o /dev/null", path);
		cr_assert(both_modes(cmd, true, got), "%s: refused", path);
		cr_assert_str_eq(got[0], got[1], "%s: the stats differ between arith=hw and arith=exact", path);
		free(got[0]);
		free(got[1]);
		runs++;
	}
	test_free_names(names, n);
	return runs;
}

Test(exact, cycle_identity_traces, .timeout = 240)
{
	cr_assert_geq(replay_dir("traces/samples", "case.json"), 7);
	cr_assert_geq(replay_dir("traces/calibration", NULL), 16);
}

/* Every fourth Tegra program of the corpus (as scripts/golden.sh runs them). */
/* The corpus's Tegra programs under dir (*.asm, *_fs.txt), sorted per folder. */
static void tegra_programs(const char *dir, char ***list, size_t *n)
{
	size_t k;
	char **names = test_list_dir(dir, false, &k);
	for (size_t i = 0; i < k; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		const size_t l = strlen(names[i]);
		struct stat sb;
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			tegra_programs(path, list, n);
		} else if ((l > 4 && !strcmp(names[i] + l - 4, ".asm")) || (l > 7 && !strcmp(names[i] + l - 7, "_fs.txt"))) {
			*list = realloc(*list, (*n + 1) * sizeof **list);
			cr_assert_not_null(*list);
			(*list)[(*n)++] = strdup(path);
		}
	}
	test_free_names(names, k);
}

/* Every fourth Tegra program of the corpus (as scripts/golden.sh runs them). */
Test(exact, cycle_identity_tegra_run, .timeout = 240)
{
	char **list = NULL;
	size_t n = 0;
	char *root = test_corpus_path("tegra");
	tegra_programs(root, &list, &n);
	free(root);
	unsigned runs = 0;
	for (size_t k = 0; k < n; k++) {
		if (k % 4 == 0) {
			char run[1400], *got[2];
			snprintf(run, sizeof run, "tegra run %s --size 24x16 --varying t0=0.25,0.5,0.75,1 --uniform u0=0.5 "
			         "--uniform u1=0.25 -o /dev/null --stats", list[k]);
			if (both_modes(run, false, got)) {     /* else not a whole program (a linker fragment) */
				cr_assert_str_eq(got[0], got[1], "%s: tegra run stats differ between the modes", list[k]);
				free(got[0]);
				free(got[1]);
				runs++;
			}
		}
		free(list[k]);
	}
	free(list);
	cr_assert_geq(runs, 10);
}

/* "cycles": N of pica run's JSON, or -1. */
static long cycles_of(const char *json)
{
	const char *c = strstr(json, "\"cycles\"");
	return c ? strtol(c + 9 + strspn(c + 9, " :\t"), NULL, 10) : -1;
}

Test(exact, cycle_identity_pica_run, .timeout = 120)
{
	static const char *const shaders[] = { "pica/simple_tri/vshader.shbin", "pica/lenny/vshader.shbin",
	                                       "pica/fragment_light/vshader.shbin", "pica/cubemap/skybox.shbin" };
	char *dir = test_tmpdir();
	char *c = test_write_file(dir, "c.json",
		"{\"dvle\": 0, \"inputs\": {\"v0\": [0.1, 0.2, 0.3, 1], \"v1\": [0.3, 0.7, 0.11, 1]},"
		" \"uniforms\": {\"c0\": [0.3,0.1,0,0], \"c1\": [0,0.7,0,0], \"c2\": [0,0,1.3,0], \"c3\": [0,0,0,1]}}");
	for (size_t i = 0; i < sizeof shaders / sizeof shaders[0]; i++) {
		char *sh = test_corpus_path(shaders[i]);
		long cyc[2];
		for (int m = 0; m < 2; m++) {
			char args[2048], *out, *err;
			snprintf(args, sizeof args, "pica run %s --case %s --set arith=%s", sh, c, m ? "exact" : "hw");
			cr_assert_eq(test_run_cli(args, &out, &err), 0, "ulpsim %s: %s", args, err);
			cyc[m] = cycles_of(out);
			cr_assert_gt(cyc[m], 0, "ulpsim %s: %s", args, out);
			free(out);
			free(err);
		}
		cr_assert_eq(cyc[0], cyc[1], "%s: %ld cycles, %ld with arith=exact", shaders[i], cyc[0], cyc[1]);
		free(sh);
	}
	free(c);
	free(dir);
}

/* The mode is on: a dp4 with 1/3 gives float24's truncated third by
 * default and binary32's third with arith=exact. */
Test(exact, pica_keeps_binary32)
{
	char *dir = test_tmpdir();
	char *c = test_write_file(dir, "c.json",
		"{\"dvle\": 0, \"inputs\": {\"v0\": [0.3333333333, 0, 0, 1]},"
		" \"uniforms\": {\"c0\": [1,0,0,0], \"c1\": [0,1,0,0], \"c2\": [0,0,1,0], \"c3\": [0,0,0,1]}}");
	char *sh = test_corpus_path("pica/simple_tri/vshader.shbin");
	double x[2];
	for (int m = 0; m < 2; m++) {
		char args[2048], *out, *err;
		snprintf(args, sizeof args, "pica run %s --case %s --set arith=%s", sh, c, m ? "exact" : "hw");
		cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
		const char *o0 = strstr(out, "\"o0\"");
		cr_assert_not_null(o0, "%s", out);
		x[m] = strtod(strchr(o0, '[') + 1, NULL);
		free(out);
		free(err);
	}
	cr_assert_float_eq(x[1], 0.3333333333, 1e-7, "exact: %.10f", x[1]);
	cr_assert_gt(x[1] - x[0], 1e-6, "hw truncates to 16 mantissa bits: %.10f vs %.10f", x[0], x[1]);
	free(sh);
	free(c);
	free(dir);
}

/* The GR3D helpers (units/gr3d/gr3d_quad.h) in exact mode: binary32 where
 * FP20 rounds, 14 fraction bits where FX10 keeps 8, FX10's range kept. */
Test(exact, gr3d_helpers)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_ctx hw = { .cfg = &cfg, .fp20_round = cfg.fp20_round, .fx10_round = cfg.fx10_round };
	gr3d_ctx ex = hw;
	ex.exact = true;
	const double third = 1.0 / 3.0;
	cr_assert_eq(gr3d_round20(&ex, third), (double)(float)third);
	cr_assert_neq(gr3d_round20(&hw, third), (double)(float)third);
	cr_assert_eq(gr3d_rd20(&ex, gr3d_to_fp20(&ex, third)), (double)(float)third);
	double q[GR3D_PIXELS] = { third, -third, 1e-20, 3e38 };
	gr3d_round20_quad(&ex, q);
	cr_assert_eq(q[2], (double)(float)1e-20, "below FP20's range: kept, not flushed");
	cr_assert_eq(q[3], (double)(float)3e38, "above FP20's range: kept, not inf");
	/* FX10 halves: both in one word, each within 2^-15 */
	uint32_t reg = 0;
	gr3d_write_reg(&ex, &reg, 0.3, true, false);
	gr3d_write_reg(&ex, &reg, 0.7, false, true);
	cr_assert_lt(fabs(gr3d_rdfx(&ex, reg, false) - 0.3), 0x1p-15);
	cr_assert_lt(fabs(gr3d_rdfx(&ex, reg, true) - 0.7), 0x1p-15);
	gr3d_write_reg(&hw, &reg, 0.3, true, false);
	cr_assert_gt(fabs(gr3d_rdfx(&hw, reg, false) - 0.3), 0x1p-12, "hw: FX10's 1/256 step");
	/* the range the program's write asks for is kept: [-2, 2) */
	reg = 0;
	gr3d_write_reg(&ex, &reg, 5.0, true, false);
	gr3d_write_reg(&ex, &reg, -7.0, false, true);
	cr_assert_eq(gr3d_rdfx(&ex, reg, false), 32767.0 / 16384.0);
	cr_assert_eq(gr3d_rdfx(&ex, reg, true), -2.0);
}

/* GR3D end to end: the triangle sample's image is not hw's in exact mode
 * (FP20 interpolation and FX10 colour no longer round), its stats are. */
Test(exact, gr3d_image_changes)
{
	char *dir = test_tmpdir();
	char a[1200], b[1200];
	snprintf(a, sizeof a, "%s/hw.png", dir);
	snprintf(b, sizeof b, "%s/exact.png", dir);
	for (int m = 0; m < 2; m++) {
		char args[2600], *out, *err;
		snprintf(args, sizeof args, "replay traces/samples/triangle.json -o %s --set arith=%s", m ? b : a,
		         m ? "exact" : "hw");
		cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
		free(out);
		free(err);
	}
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	cr_assert(fa && fb);
	bool differ = false;
	for (int ca = 0, cb = 0; ca != EOF || cb != EOF;) {
		ca = fgetc(fa);
		cb = fgetc(fb);
		differ |= ca != cb;
	}
	fclose(fa);
	fclose(fb);
	cr_assert(differ, "arith=exact left the triangle's PNG byte for byte as hw's");
	free(dir);
}

/* Runs a grate program through `tegra run` (4x4) in both modes: the red
 * byte of the first pixel and the cycles line of each. */
static void tegra_red(const char *prog, unsigned red[2], char cycles[2][64])
{
	char *dir = test_tmpdir();
	char *src = test_write_file(dir, "p.txt", prog);
	for (int m = 0; m < 2; m++) {
		char png[1200], args[2600], *out, *err;
		snprintf(png, sizeof png, "%s/%d.png", dir, m);
		snprintf(args, sizeof args, "tegra run %s --size 4x4 -o %s --set arith=%s", src, png,
		         m ? "exact" : "hw");
		cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
		snprintf(cycles[m], 64, "%.*s", (int)strcspn(out, "\n"), out);
		ulp_diag d;
		ulp_diag_clear(&d);
		ulp_image *im = ulp_image_load_png(png, &d);
		cr_assert(im, "%s", d.msg);
		red[m] = im->rgba[0];
		ulp_image_free(im);
		remove(png);
		free(out);
		free(err);
	}
	remove(src);
	free(src);
	remove(dir);
	free(dir);
}

/* An ALU write to u0..u7 keeps the ALU's binary32 in exact mode (hw: the
 * FP20 word): d = |imm0 * imm0 - u0| after u0 = imm0 * imm0, scaled by
 * 2^20, is FP20's rounding error (saturates to 1) in hw and below one
 * 8-bit step in exact mode; the cycles are the same. */
Test(exact, alu_uniform_write_keeps_binary32)
{
	static const char prog[] =
		"alu_buffer_size = 1\npseq_to_dw_exec_nb = 2\n\n.asm\n"
		"EXEC\n\tALU:\n\t\tALU0: MAD u0.lh, imm0, imm0, #0\n\t\tALU3: imm0 = 0.3, imm1 = 1024.0\n"
		"\tALU:\n\t\tALU0: MAD r0.lh, imm0, imm0, -u0\n\t\tALU3: imm0 = 0.3, imm1 = 1024.0\n"
		"\tALU:\n\t\tALU0: MUL r0.lh, abs(r0), imm1, #0\n\t\tALU3: imm0 = 0.3, imm1 = 1024.0\n;\n"
		"EXEC\n\tALU:\n\t\tALU0: MUL r0.lh, r0, imm1, #0\n\t\tALU3: imm0 = 0.3, imm1 = 1024.0\n"
		"\tALU:\n\t\tALU0: MAD r2.l*, r0, #1, #0 (sat)\n\t\tALU1: MAD r2.*h, #0, #1, #0 (sat)\n"
		"\t\tALU2: MAD r3.l*, #0, #1, #0 (sat)\n\t\tALU3: MAD r3.*h, #1, #1, #0 (sat)\n"
		"\tDW: store rt1, r2, r3\n;\n";
	unsigned red[2];
	char cycles[2][64];
	tegra_red(prog, red, cycles);
	cr_assert_eq(red[0], 255, "hw: u0 holds the FP20 word, the difference saturates (%u)", red[0]);
	cr_assert_leq(red[1], 2, "exact: u0 holds the binary32 (%u)", red[1]);
	cr_assert_str_eq(cycles[0], cycles[1]);
}
