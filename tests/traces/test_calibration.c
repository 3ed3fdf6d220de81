/* Calibration against the public silicon figures (docs/calibration.md):
 * every row of traces/calibration/figures.csv is replayed on its preset and
 * its rate checked against the published figure within the row's tolerance;
 * a row with a known_failure reason must still miss it (the list stays
 * honest); `ulpsim correlate` runs over the met rows; the tegra3/tegra2
 * whole-pipeline ratio on the bundled scenes falls in GLBenchmark's range. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"

#define FIGURES "traces/calibration/figures.csv"
#define PIXELS 65536.0 /* 256 x 256: gen_calibration.py */

typedef struct figure {
	char name[64], trace[96], unit[32], known[256];
	double work, published, tol_pct;
} figure;

/* Splits line at commas into at most n fields (the last keeps the rest). */
static size_t split(char *line, char **f, size_t n)
{
	size_t k = 0;
	line[strcspn(line, "\r\n")] = 0;
	f[k++] = line;
	for (char *p = line; *p && k < n; p++)
		if (*p == ',') {
			*p = 0;
			f[k++] = p + 1;
		}
	return k;
}

static size_t load_figures(figure *out, size_t cap)
{
	FILE *fp = fopen(FIGURES, "r");
	cr_assert_not_null(fp, "cannot open %s", FIGURES);
	char line[1024];
	size_t n = 0;
	cr_assert_not_null(fgets(line, sizeof line, fp));
	static const char header[] = "name,trace,work_per_pixel,published_per_clock,tolerance_pct,unit,known_failure";
	cr_assert(strncmp(line, header, sizeof header - 1) == 0,
	          "%s: unexpected header %s", FIGURES, line);
	while (fgets(line, sizeof line, fp)) {
		char *f[7];
		cr_assert_eq(split(line, f, 7), 7, "%s:%zu: want 7 fields", FIGURES, n + 2);
		cr_assert_lt(n, cap);
		figure *g = &out[n++];
		snprintf(g->name, sizeof g->name, "%s", f[0]);
		snprintf(g->trace, sizeof g->trace, "%s", f[1]);
		g->work = strtod(f[2], NULL);
		g->published = strtod(f[3], NULL);
		g->tol_pct = strtod(f[4], NULL);
		snprintf(g->unit, sizeof g->unit, "%s", f[5]);
		snprintf(g->known, sizeof g->known, "%s", f[6]);
		cr_assert(g->work > 0 && g->published > 0 && g->tol_pct > 0, "%s:%zu: bad numbers", FIGURES, n + 1);
	}
	fclose(fp);
	return n;
}

/* Replays trace on preset; the summary line's cycles and the preset's MHz. */
static void replay_cycles(const char *trace, const char *preset, double *cycles, double *mhz)
{
	char args[512], *out, *err;
	snprintf(args, sizeof args, "replay %s --set preset=%s", trace, preset);
	int st = test_run_cli(args, &out, &err);
	cr_assert_eq(st, 0, "ulpsim %s: %s", args, err);
	const char *c = strstr(err, " cycles (vertex");
	const char *m = strstr(err, "silicon at ");
	cr_assert(c && m, "ulpsim %s: no cycle count in: %s", args, err);
	const char *s = c;
	while (s > err && s[-1] >= '0' && s[-1] <= '9')
		s--;
	*cycles = strtod(s, NULL);
	*mhz = strtod(m + strlen("silicon at "), NULL);
	cr_assert(*cycles > 0 && *mhz > 0, "ulpsim %s: %s", args, err);
	free(out);
	free(err);
}

static const char *preset_of(const char *trace, char *buf, size_t n)
{
	snprintf(buf, n, "%s", trace);
	char *dot = strstr(buf, ".json");
	cr_assert_not_null(dot);
	*dot = 0;
	const char *g = strrchr(buf, '.');
	cr_assert_not_null(g, "%s: the preset is the name's last part (NAME.tegra2.json)", trace);
	return g + 1;
}

Test(calibration, figures_and_correlate, .timeout = 300)
{
	figure fig[64];
	size_t n = load_figures(fig, 64), met = 0, known = 0;
	cr_assert_geq(n, 7, "the table lost rows");
	char *dir = test_tmpdir();
	cr_assert_not_null(dir);
	char simp[512], hwp[512];
	snprintf(simp, sizeof simp, "%s/sim.csv", dir);
	snprintf(hwp, sizeof hwp, "%s/hw.csv", dir);
	FILE *sim = fopen(simp, "w"), *hw = fopen(hwp, "w");
	cr_assert(sim && hw);
	fputs("name,cycles\n", sim);
	fputs("name,cycles\n", hw);
	for (size_t i = 0; i < n; i++) {
		const figure *g = &fig[i];
		char path[256], pb[96];
		snprintf(path, sizeof path, "traces/calibration/%s", g->trace);
		double cyc, mhz;
		replay_cycles(path, preset_of(g->trace, pb, sizeof pb), &cyc, &mhz);
		double rate = g->work * PIXELS / cyc, ratio = rate / g->published;
		bool within = fabs(ratio - 1.0) <= g->tol_pct / 100.0;
		if (g->known[0]) {
			known++;
			cr_expect_not(within, "%s: listed as a known failure (%s) but meets %g %s/clk (%.3f): "
			              "drop it from %s", g->name, g->known, g->published, g->unit, rate, FIGURES);
		} else {
			met++;
			cr_expect(within, "%s: %.3f %s/clk, published %g (ratio %.3f, tolerance %g%%)", g->name, rate,
			          g->unit, g->published, ratio, g->tol_pct);
			fprintf(sim, "%s,%.0f\n", g->name, cyc);
			fprintf(hw, "%s,%.0f\n", g->name, g->work * PIXELS / g->published);
		}
	}
	fclose(sim);
	fclose(hw);
	cr_log_info("calibration: %zu figures met, %zu known failures", met, known);

	char args[1200], *out, *err;
	snprintf(args, sizeof args, "correlate %s %s --max-mape 10", simp, hwp);
	int st = test_run_cli(args, &out, &err);
	cr_expect_eq(st, 0, "ulpsim %s: %s%s", args, out, err);
	char want[64];
	snprintf(want, sizeof want, "matched %zu  only_sim 0  only_hw 0", met);
	cr_expect(strstr(out, want), "correlate output lacks '%s': %s", want, out);
	free(out);
	free(err);
	remove(simp);
	remove(hwp);
	remove(dir);
	free(dir);
}

/* GLBenchmark 2.1, 720p: Tegra 3 = 1.95x (Pro) .. 2.6x (Egypt) Tegra 2
 * (mesa-driver.md §5).  ulpsim's frames-per-second ratio at the presets'
 * clocks, geometric mean over the bundled scenes wider than one swath. */
Test(calibration, tegra3_over_tegra2_scenes, .timeout = 300)
{
	static const char *const scenes[] = { "alpha_blend", "discard", "gs_particles",
		                               "lit_sphere", "textured_cube", "triangle" };
	double logsum = 0;
	size_t n = sizeof scenes / sizeof scenes[0];
	for (size_t i = 0; i < n; i++) {
		char path[256];
		snprintf(path, sizeof path, "traces/samples/%s.json", scenes[i]);
		double c2, m2, c3, m3;
		replay_cycles(path, "tegra2", &c2, &m2);
		replay_cycles(path, "tegra3", &c3, &m3);
		cr_expect_gt(c2 / c3, 1.5, "%s: tegra3 only %.3fx faster per clock", scenes[i], c2 / c3);
		logsum += log(c2 / c3 * m3 / m2);
	}
	double geo = exp(logsum / (double)n);
	cr_expect(geo >= 1.95 * 0.9 && geo <= 2.6 * 1.1, "tegra3/tegra2 fps ratio %.3f outside 1.95..2.6 +-10%%", geo);
}

/* docs/calibration.md names every row of the table and every trace exists. */
Test(calibration, doc_names_every_row)
{
	figure fig[64];
	size_t n = load_figures(fig, 64);
	FILE *fp = fopen("docs/calibration.md", "r");
	cr_assert_not_null(fp, "docs/calibration.md is missing");
	static char doc[1 << 16];
	size_t len = fread(doc, 1, sizeof doc - 1, fp);
	doc[len] = 0;
	fclose(fp);
	for (size_t i = 0; i < n; i++) {
		cr_expect(strstr(doc, fig[i].name), "docs/calibration.md does not name %s", fig[i].name);
		char path[256];
		snprintf(path, sizeof path, "traces/calibration/%s", fig[i].trace);
		FILE *t = fopen(path, "r");
		cr_expect_not_null(t, "%s: %s is missing", fig[i].name, path);
		if (t)
			fclose(t);
	}
}
