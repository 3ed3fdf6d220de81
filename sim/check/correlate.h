/* Correlation of simulated cycle counts with hardware measurements, after
 * Accel-Sim's correlator (docs/compare.md).
 *
 * Input: two CSV files (RFC 4180 quoting; LF or CRLF; a UTF-8 BOM, blank
 * lines and lines starting with '#' are ignored).  The first record is a
 * header.  It must name a column "cycles" and a key column "name" (or, when
 * there is no "name" column, "draw", or else "frame"); header names match
 * case-insensitively and other columns are ignored.  Every data row must have
 * as many fields as the header; the key must be non-empty and unique within
 * the file; cycles must be a finite non-negative decimal number.
 *
 * Rows are matched by key.  Over the n matched rows, with e_i = sim_i - hw_i:
 *   pearson  sum((s - mean s)(h - mean h)) / sqrt(sum (s - mean s)^2 * sum (h - mean h)^2)
 *            (NAN when n < 2 or either side has zero variance)
 *   mae      sum |e_i| / n                              (cycles)
 *   mape     100 * sum(|e_i| / hw_i) / n_mape           (percent; over the
 *            n_mape rows with hw_i > 0; NAN when there is none)
 *   rmse     sqrt(sum e_i^2 / n)                        (cycles)
 *   nrmse    rmse / mean(hw)                            (a ratio; NAN when mean(hw) == 0)
 *   agg_error 100 * (sum sim - sum hw) / sum hw         (percent; NAN when sum hw == 0)
 * All metrics are NAN when n == 0. */
#ifndef ULP_SIM_CORRELATE_H
#define ULP_SIM_CORRELATE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

typedef struct ulp_cycles_row {
	char *name;      /* the key */
	double cycles;
	int line;        /* 1-based line of the row in its file */
} ulp_cycles_row;

typedef struct ulp_cycles_table {
	char file[ULP_DIAG_FILE_MAX]; /* as given, for reports */
	char key[8];                  /* the key column used: "name", "draw" or "frame" */
	ulp_cycles_row *rows;         /* in file order */
	size_t n;
} ulp_cycles_table;

/* Parse CSV text (len bytes; need not be NUL-terminated).  file names the
 * source in diagnostics (file:line:col).  On failure fills d, leaves t empty
 * and returns false. */
bool ulp_cycles_parse(const char *text, size_t len, const char *file, ulp_cycles_table *t,
                      ulp_diag *d);
/* Read and parse path ("-" reads stdin). */
bool ulp_cycles_load(const char *path, ulp_cycles_table *t, ulp_diag *d);
void ulp_cycles_free(ulp_cycles_table *t);

typedef struct ulp_corr_pair {
	const char *name;       /* points into the sim table */
	double sim, hw;
	int sim_line, hw_line;
} ulp_corr_pair;

typedef struct ulp_correlation {
	ulp_corr_pair *pairs;              /* matched rows, in sim-file order */
	size_t n;
	const ulp_cycles_row **only_sim;   /* rows of sim with no hw row, in file order */
	size_t n_only_sim;
	const ulp_cycles_row **only_hw;    /* rows of hw with no sim row, in file order */
	size_t n_only_hw;
	size_t n_mape;                     /* matched rows with hw > 0 */
	double sim_total, hw_total, hw_mean;
	double pearson, mae, mape, rmse, nrmse, agg_error;
} ulp_correlation;

/* Match sim against hw and compute the metrics.  The result points into both
 * tables, which must outlive it.  Fails only when out of memory. */
bool ulp_correlate(const ulp_cycles_table *sim, const ulp_cycles_table *hw, ulp_correlation *c,
                   ulp_diag *d);
void ulp_correlation_free(ulp_correlation *c);

#endif
