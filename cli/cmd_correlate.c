/* ulpsim correlate sim.csv hw.csv [--max-mape P]
 * Simulated vs hardware cycle counts (sim/check/correlate.h, docs/compare.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/check/correlate.h"

static const char usage[] =
	"usage: ulpsim correlate <sim.csv> <hw.csv> [--max-mape P]\n"
	"  each CSV has a header row naming a 'cycles' column and a key column\n"
	"  'name' (or 'draw', or 'frame'); other columns are ignored; rows are\n"
	"  matched by key\n"
	"  --max-mape P   exit 1 when the MAPE exceeds P percent\n"
	"prints one line per matched row (sim, hw, error = sim - hw, error%% of hw),\n"
	"the rows found in only one file, then\n"
	"  matched <n>  only_sim <k>  only_hw <k>\n"
	"  pearson <r>  mae <cycles>  mape <%%>  nrmse <ratio>  agg_error <%%>\n"
	"  nrmse = rmse / mean(hw); n/a marks an undefined metric\n"
	"exit: 0 ok, 1 MAPE over --max-mape (or undefined with it),\n"
	"      2 bad usage, bad CSV, or no key common to both files\n";

static bool parse_percent(const char *s, double *out)
{
	char *end;
	errno = 0;
	if (!((*s >= '0' && *s <= '9') || *s == '.'))
		return false;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

static void print_metric(const char *label, double v, int decimals, bool sign, const char *unit)
{
	if (isnan(v))
		printf("%sn/a", label);
	else
		printf(sign ? "%s%+.*f%s" : "%s%.*f%s", label, decimals, v, unit);
}

static void print_table(const ulp_correlation *c, const char *key)
{
	int w = (int)strlen(key);
	for (size_t i = 0; i < c->n; i++) {
		size_t len = strlen(c->pairs[i].name);
		if (len > (size_t)w)
			w = len > 48 ? 48 : (int)len;
	}
	printf("%-*s %14s %14s %14s %10s\n", w, key, "sim", "hw", "error", "error%");
	for (size_t i = 0; i < c->n; i++) {
		const ulp_corr_pair *p = &c->pairs[i];
		double e = p->sim - p->hw;
		printf("%-*s %14.15g %14.15g %+14.15g", w, p->name, p->sim, p->hw, e);
		if (p->hw > 0)
			printf(" %+9.2f%%\n", 100.0 * e / p->hw);
		else
			printf(" %10s\n", "n/a");
	}
}

static int report(const ulp_cycles_table *sim, const ulp_cycles_table *hw, const ulp_correlation *c,
                  bool have_max, double max_mape)
{
	print_table(c, sim->key);
	for (size_t i = 0; i < c->n_only_sim; i++)
		printf("only in %s: %s (line %d)\n", sim->file, c->only_sim[i]->name, c->only_sim[i]->line);
	for (size_t i = 0; i < c->n_only_hw; i++)
		printf("only in %s: %s (line %d)\n", hw->file, c->only_hw[i]->name, c->only_hw[i]->line);
	printf("matched %zu  only_sim %zu  only_hw %zu\n", c->n, c->n_only_sim, c->n_only_hw);
	print_metric("pearson ", c->pearson, 6, false, "");
	print_metric("  mae ", c->mae, 2, false, "");
	print_metric("  mape ", c->mape, 2, false, "%");
	print_metric("  nrmse ", c->nrmse, 6, false, "");
	print_metric("  agg_error ", c->agg_error, 2, true, "%");
	printf("\n");
	fflush(stdout);
	if (c->n == 0) {
		fprintf(stderr, "ulpsim: correlate: no %s in %s matches one in %s\n", sim->key, sim->file,
		        hw->file);
		return EXIT_BAD;
	}
	if (have_max && isnan(c->mape)) {
		fprintf(stderr, "ulpsim: correlate: mape is undefined (no matched row has hw > 0)\n");
		return EXIT_CHECK;
	}
	if (have_max && c->mape > max_mape) {
		fprintf(stderr, "ulpsim: correlate: mape %.2f%% exceeds --max-mape %g%%\n", c->mape, max_mape);
		return EXIT_CHECK;
	}
	return EXIT_OK;
}

int cmd_correlate(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	bool have_max = false;
	double max_mape = 0;
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	bool opts_done = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!opts_done && strcmp(arg, "--") == 0) {
			opts_done = true;
		} else if (!opts_done && strcmp(arg, "--max-mape") == 0) {
			if (++i >= argc || !parse_percent(argv[i], &max_mape))
				return cli_usage("correlate", "--max-mape takes a non-negative percentage");
			have_max = true;
		} else if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
			return cli_usage("correlate", "unknown option '%s'", arg);
		} else if (npos < 2) {
			pos[npos++] = arg;
		} else {
			return cli_usage("correlate", "unexpected argument '%s'", arg);
		}
	}
	if (npos != 2)
		return cli_usage("correlate", "expected two CSV files: <sim.csv> <hw.csv>");

	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_cycles_table sim, hw;
	if (!ulp_cycles_load(pos[0], &sim, &d))
		return cli_fail(&d);
	if (!ulp_cycles_load(pos[1], &hw, &d)) {
		ulp_cycles_free(&sim);
		return cli_fail(&d);
	}
	ulp_correlation c;
	int rc;
	if (!ulp_correlate(&sim, &hw, &c, &d)) {
		rc = cli_fail(&d);
	} else {
		rc = report(&sim, &hw, &c, have_max, max_mape);
		ulp_correlation_free(&c);
	}
	ulp_cycles_free(&sim);
	ulp_cycles_free(&hw);
	return rc;
}
