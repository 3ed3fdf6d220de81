/* sim/correlate and `ulpsim correlate`: the CSV format, hand-computed
 * metrics, malformed input with file:line:col, exit codes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "sim/check/correlate.h"
#include "tests/test_util.h"

static void parse_ok(const char *text, ulp_cycles_table *t)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_cycles_parse(text, strlen(text), "t.csv", t, &d), "%s:%d:%d: %s", d.file, d.line,
	          d.col, d.msg);
}

static void parse_bad(const char *text, size_t len, int line, int col, const char *msg_sub)
{
	ulp_cycles_table t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(ulp_cycles_parse(text, len, "bad.csv", &t, &d), "parsed: %s", text);
	cr_assert_eq(t.n, 0);
	cr_assert_null(t.rows);
	cr_assert_str_eq(d.file, "bad.csv");
	cr_assert(d.line == line && d.col == col, "'%s': at %d:%d, want %d:%d (%s)", text, d.line, d.col,
	          line, col, d.msg);
	cr_assert(strstr(d.msg, msg_sub), "'%s': message '%s' lacks '%s'", text, d.msg, msg_sub);
}

/* ---- the CSV format ---- */

Test(correlate_csv, basic)
{
	ulp_cycles_table t;
	parse_ok("name,cycles\ndraw0,100\ndraw1,250.5\n", &t);
	cr_assert_eq(t.n, 2);
	cr_assert_str_eq(t.key, "name");
	cr_assert_str_eq(t.rows[0].name, "draw0");
	cr_assert_eq(t.rows[0].cycles, 100.0);
	cr_assert_eq(t.rows[0].line, 2);
	cr_assert_str_eq(t.rows[1].name, "draw1");
	cr_assert_eq(t.rows[1].cycles, 250.5);
	ulp_cycles_free(&t);
}

Test(correlate_csv, extra_columns_keys_quotes_crlf_comments)
{
	ulp_cycles_table t;
	/* BOM, comment, blank line, CRLF, case-insensitive header, extra
	 * columns, key 'draw', spaces around fields, quoted fields with a comma,
	 * an escaped quote and a newline, exponent notation, no final newline. */
	parse_ok("\xEF\xBB\xBF# produced by a script\r\n\r\n"
	         "Frame, Draw ,unit,CYCLES,notes\r\n"
	         "0, d0 ,pica, 1200 ,\"a, b\"\r\n"
	         "0,\"d\"\"1\",tegra,1.5e3,\"two\nlines\"\r\n"
	         "1,d2,tegra,7,", &t);
	cr_assert_str_eq(t.key, "draw", "'draw' is used when there is no 'name'");
	cr_assert_eq(t.n, 3);
	cr_assert_str_eq(t.rows[0].name, "d0");
	cr_assert_eq(t.rows[0].cycles, 1200.0);
	cr_assert_eq(t.rows[0].line, 4);
	cr_assert_str_eq(t.rows[1].name, "d\"1");
	cr_assert_eq(t.rows[1].cycles, 1500.0);
	cr_assert_eq(t.rows[1].line, 5);
	cr_assert_str_eq(t.rows[2].name, "d2");
	cr_assert_eq(t.rows[2].line, 7, "the quoted newline counts as a line");
	ulp_cycles_free(&t);

	parse_ok("frame,cycles\n1,10\n2,20\n", &t);
	cr_assert_str_eq(t.key, "frame");
	cr_assert_eq(t.n, 2);
	ulp_cycles_free(&t);
	parse_ok("draw,name,cycles\n1,x,10\n1,y,20\n", &t);
	cr_assert_str_eq(t.key, "name", "'name' wins over 'draw'");
	cr_assert_str_eq(t.rows[1].name, "y");
	ulp_cycles_free(&t);
}

Test(correlate_csv, malformed)
{
#define BAD(text, line, col, msg) parse_bad(text, sizeof(text) - 1, line, col, msg)
	BAD("", 0, 0, "no header row");
	BAD("# only a comment\n\n", 0, 0, "no header row");
	BAD("name,cycles\n", 1, 0, "not followed by any data row");
	BAD("name,time\na,1\n", 1, 1, "no 'cycles' column");
	BAD("id,cycles\na,1\n", 1, 1, "no key column");
	BAD("name,cycles,Cycles\na,1,2\n", 1, 13, "appears twice");
	BAD("name,cycles\na,1\nb,2,3\n", 3, 5, "row has 3 fields but the header (line 1) has 2");
	BAD("name,cycles\na,1\nb\n", 3, 2, "row has 1 field but");
	BAD("name,cycles\na,1\nb,abc\n", 3, 3, "'abc' is not a cycle count");
	BAD("name,cycles\na,-5\n", 2, 3, "not a cycle count");
	BAD("name,cycles\na,0x10\n", 2, 3, "not a cycle count");
	BAD("name,cycles\na,inf\n", 2, 3, "not a cycle count");
	BAD("name,cycles\na,1e999\n", 2, 3, "not a cycle count");
	BAD("name,cycles\na,\n", 2, 3, "not a cycle count");
	BAD("name,cycles\n,5\n", 2, 1, "empty name");
	BAD("name,cycles\na,1\nb,2\na,3\nb,4\n", 4, 1, "duplicate key 'a' (first at line 2)");
	BAD("name,cycles\na,1\n\"b,2\n", 3, 1, "unterminated quoted field");
	BAD("name,cycles\n\"a\"x,1\n", 2, 4, "after a closing quote");
	BAD("name,cycles\na\"b,1\n", 2, 2, "inside an unquoted field");
	parse_bad("name,cycles\na,1\0\n", 17, 2, 4, "NUL byte");
#undef BAD
}

/* ---- the metrics ---- */

static void correlate_text(const char *sim_text, const char *hw_text, ulp_cycles_table *sim,
                           ulp_cycles_table *hw, ulp_correlation *c)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_cycles_parse(sim_text, strlen(sim_text), "sim.csv", sim, &d), "%s", d.msg);
	cr_assert(ulp_cycles_parse(hw_text, strlen(hw_text), "hw.csv", hw, &d), "%s", d.msg);
	cr_assert(ulp_correlate(sim, hw, c, &d), "%s", d.msg);
}

Test(correlate_metrics, hand_computed)
{
	/* sim 110 190 300 400, hw 100 200 300 500; e = +10 -10 0 -100.
	 * pearson = 64000 / sqrt(48200 * 87500) = 0.98549046882...
	 * mae = 120/4 = 30; mape = 100 * (0.1 + 0.05 + 0 + 0.2) / 4 = 8.75 %
	 * rmse = sqrt(10200 / 4) = 50.4975...; nrmse = rmse / 275 = 0.18362736...
	 * agg = 100 * (1000 - 1100) / 1100 = -9.0909 % */
	ulp_cycles_table sim, hw;
	ulp_correlation c;
	correlate_text("name,cycles\na,110\nb,190\nonly_s,5\nc,300\nd,400\n",
	               "name,unit,cycles\nd,x,500\nc,x,300\nonly_h,x,9\nb,x,200\na,x,100\n", &sim, &hw,
	               &c);
	cr_assert_eq(c.n, 4);
	cr_assert_str_eq(c.pairs[0].name, "a", "pairs in sim-file order");
	cr_assert_str_eq(c.pairs[3].name, "d");
	cr_assert_eq(c.pairs[3].sim, 400.0);
	cr_assert_eq(c.pairs[3].hw, 500.0);
	cr_assert_eq(c.pairs[3].hw_line, 2);
	cr_assert_eq(c.n_only_sim, 1);
	cr_assert_str_eq(c.only_sim[0]->name, "only_s");
	cr_assert_eq(c.only_sim[0]->line, 4);
	cr_assert_eq(c.n_only_hw, 1);
	cr_assert_str_eq(c.only_hw[0]->name, "only_h");
	cr_assert_float_eq(c.pearson, 0.9854904688212476, 1e-12);
	cr_assert_float_eq(c.mae, 30.0, 1e-12);
	cr_assert_float_eq(c.mape, 8.75, 1e-12);
	cr_assert_eq(c.n_mape, 4);
	cr_assert_float_eq(c.rmse, 50.49752469181039, 1e-9);
	cr_assert_float_eq(c.hw_mean, 275.0, 1e-12);
	cr_assert_float_eq(c.nrmse, 0.18362736251567416, 1e-12);
	cr_assert_float_eq(c.agg_error, -9.090909090909092, 1e-9);
	ulp_correlation_free(&c);
	ulp_cycles_free(&sim);
	ulp_cycles_free(&hw);
}

Test(correlate_metrics, perfect_and_undefined)
{
	ulp_cycles_table sim, hw;
	ulp_correlation c;
	/* sim = 2 * hw: r = 1 exactly, mape 100 %. */
	correlate_text("name,cycles\na,2\nb,4\nc,6\n", "name,cycles\na,1\nb,2\nc,3\n", &sim, &hw, &c);
	cr_assert_float_eq(c.pearson, 1.0, 1e-15);
	cr_assert_float_eq(c.mape, 100.0, 1e-12);
	ulp_correlation_free(&c);
	ulp_cycles_free(&sim);
	ulp_cycles_free(&hw);

	/* One pair: pearson undefined; a hw value of 0 is left out of MAPE. */
	correlate_text("name,cycles\na,5\nz,3\n", "name,cycles\na,0\n", &sim, &hw, &c);
	cr_assert_eq(c.n, 1);
	cr_assert(isnan(c.pearson));
	cr_assert(isnan(c.mape));
	cr_assert_eq(c.n_mape, 0);
	cr_assert(isnan(c.nrmse));
	cr_assert_float_eq(c.mae, 5.0, 1e-12);
	ulp_correlation_free(&c);
	ulp_cycles_free(&sim);
	ulp_cycles_free(&hw);

	/* Constant hw: pearson undefined, other metrics defined. */
	correlate_text("name,cycles\na,9\nb,11\n", "name,cycles\na,10\nb,10\n", &sim, &hw, &c);
	cr_assert(isnan(c.pearson));
	cr_assert_float_eq(c.mape, 10.0, 1e-12);
	cr_assert_float_eq(c.nrmse, 0.1, 1e-12);
	ulp_correlation_free(&c);
	ulp_cycles_free(&sim);
	ulp_cycles_free(&hw);

	/* Nothing in common: n = 0, every metric NAN. */
	correlate_text("name,cycles\na,1\n", "name,cycles\nb,1\n", &sim, &hw, &c);
	cr_assert_eq(c.n, 0);
	cr_assert(isnan(c.mae) && isnan(c.pearson) && isnan(c.nrmse));
	cr_assert_eq(c.n_only_sim, 1);
	cr_assert_eq(c.n_only_hw, 1);
	ulp_correlation_free(&c);
	ulp_cycles_free(&sim);
	ulp_cycles_free(&hw);
}

/* ---- the command ---- */

static char *write_tmp(const char *dir, const char *name, const char *text)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert(p);
	snprintf(p, n, "%s/%s", dir, name);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_write_file(p, text, strlen(text), &d), "%s", d.msg);
	return p;
}

static void expect(int code, const char *out_exact, const char *err_sub, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void expect(int code, const char *out_exact, const char *err_sub, const char *fmt, ...)
{
	char args[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	char *out, *err;
	int st = test_run_cli(args, &out, &err);
	cr_assert_eq(st, code, "ulpsim %s: exit %d, want %d (stdout: %s stderr: %s)", args, st, code, out,
	             err);
	if (out_exact)
		cr_assert_str_eq(out, out_exact, "ulpsim %s", args);
	if (err_sub)
		cr_assert(strstr(err, err_sub), "ulpsim %s: stderr '%s' lacks '%s'", args, err, err_sub);
	free(out);
	free(err);
}

Test(correlate_cli, report_and_max_mape)
{
	char *dir = test_tmpdir();
	char *sim = write_tmp(dir, "sim.csv", "name,cycles\na,110\nb,190\nonly_s,5\nc,300\nd,400\n");
	char *hw = write_tmp(dir, "hw.csv", "name,cycles\na,100\nb,200\nc,300\nd,500\nonly_h,9\n");
	char want[2048];
	snprintf(want, sizeof want,
	         "name            sim             hw          error     error%%\n"
	         "a               110            100            +10    +10.00%%\n"
	         "b               190            200            -10     -5.00%%\n"
	         "c               300            300             +0     +0.00%%\n"
	         "d               400            500           -100    -20.00%%\n"
	         "only in %s: only_s (line 4)\n"
	         "only in %s: only_h (line 6)\n"
	         "matched 4  only_sim 1  only_hw 1\n"
	         "pearson 0.985490  mae 30.00  mape 8.75%%  nrmse 0.183627  agg_error -9.09%%\n",
	         sim, hw);
	expect(0, want, NULL, "correlate %s %s", sim, hw);
	expect(0, want, NULL, "correlate %s %s --max-mape 8.75", sim, hw);
	expect(1, want, "mape 8.75% exceeds --max-mape 8.5%", "correlate --max-mape 8.5 %s %s", sim, hw);
	remove(sim);
	remove(hw);
	free(sim);
	free(hw);
	remove(dir);
	free(dir);
}

Test(correlate_cli, bad_input)
{
	char *dir = test_tmpdir();
	char *good = write_tmp(dir, "good.csv", "name,cycles\na,1\nb,2\n");
	char *other = write_tmp(dir, "other.csv", "name,cycles\nx,1\n");
	char *bad = write_tmp(dir, "bad.csv", "name,cycles\na,1\nb,many\n");
	char *zero = write_tmp(dir, "zero.csv", "name,cycles\na,0\nb,0\n");
	expect(0, NULL, NULL, "correlate --help");
	expect(0, NULL, NULL, "help correlate");
	expect(2, "", "expected two CSV files", "correlate %s", good);
	expect(2, "", "unexpected argument", "correlate %s %s %s", good, good, good);
	expect(2, "", "--max-mape", "correlate %s %s --max-mape", good, good);
	expect(2, "", "--max-mape", "correlate %s %s --max-mape -3", good, good);
	expect(2, "", "--max-mape", "correlate %s %s --max-mape lots", good, good);
	expect(2, "", "unknown option '--bogus'", "correlate %s %s --bogus", good, good);
	expect(2, "", "bad.csv:3:3: 'many' is not a cycle count", "correlate %s %s", good, bad);
	expect(2, "", "bad.csv:3:3:", "correlate %s %s", bad, good);
	expect(2, "", "missing.csv: cannot open", "correlate %s %s/missing.csv", good, dir);
	expect(2, NULL, "no name in", "correlate %s %s", good, other);
	/* all hw zero: MAPE undefined; fine without a limit, a failed check with one */
	expect(0, NULL, NULL, "correlate %s %s", good, zero);
	expect(1, NULL, "mape is undefined", "correlate %s %s --max-mape 50", good, zero);
	char *files[] = { good, other, bad, zero };
	for (int i = 0; i < 4; i++) {
		remove(files[i]);
		free(files[i]);
	}
	remove(dir);
	free(dir);
}
