/* Cycle-count CSV reading and sim-vs-hardware correlation (sim/check/correlate.h). */
#include "sim/check/correlate.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/fileio.h"

/* ---- CSV records ---- */

typedef struct csv_field {
	size_t off, len; /* text at buf + off, NUL-terminated */
	int col;         /* 1-based column of the field's first character */
} csv_field;

typedef struct csv_parser {
	const char *p, *end;
	const char *file;
	ulp_diag *d;
	int line;               /* current line (1-based) */
	const char *line_start;
	int rec_line;           /* line on which the current record starts */
	int end_col;            /* column just past the record's last field */
	csv_field *fields;
	size_t nf, capf;
	char *buf;
	size_t blen, bcap;
} csv_parser;

static int csv_col(const csv_parser *cp, const char *at)
{
	return (int)(at - cp->line_start) + 1;
}

static bool csv_err(csv_parser *cp, const char *at, const char *msg)
{
	return ulp_diag_at(cp->d, cp->file, cp->line, csv_col(cp, at), "%s", msg);
}

static bool csv_putc(csv_parser *cp, char c)
{
	if (cp->blen == cp->bcap) {
		size_t cap = cp->bcap ? cp->bcap * 2 : 256;
		char *nb = realloc(cp->buf, cap);
		if (!nb)
			return ulp_diag_at(cp->d, cp->file, cp->line, 0, "out of memory");
		cp->buf = nb;
		cp->bcap = cap;
	}
	cp->buf[cp->blen++] = c;
	return true;
}

static bool csv_is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* At the end of a field: ',' or end of line (LF, CRLF, a final CR) or EOF. */
static bool csv_at_field_end(const csv_parser *cp)
{
	const char *p = cp->p;
	return p >= cp->end || *p == ',' || *p == '\n' ||
	       (*p == '\r' && (p + 1 >= cp->end || p[1] == '\n'));
}

/* field := spaces ( '"' ( [^"] | '""' )* '"' | [^,"\n]* ) spaces */
static bool csv_field_parse(csv_parser *cp)
{
	while (cp->p < cp->end && csv_is_space(*cp->p))
		cp->p++;
	int col = csv_col(cp, cp->p);
	size_t off = cp->blen;
	if (cp->p < cp->end && *cp->p == '"') {
		int oline = cp->line;
		cp->p++;
		for (;;) {
			if (cp->p >= cp->end)
				return ulp_diag_at(cp->d, cp->file, oline, col, "unterminated quoted field");
			char c = *cp->p;
			if (c == '"') {
				if (cp->p + 1 < cp->end && cp->p[1] == '"') {
					cp->p += 2;
					if (!csv_putc(cp, '"'))
						return false;
					continue;
				}
				cp->p++;
				break;
			}
			if (c == '\0')
				return csv_err(cp, cp->p, "NUL byte in CSV text");
			if (!csv_putc(cp, c))
				return false;
			cp->p++;
			if (c == '\n') {
				cp->line++;
				cp->line_start = cp->p;
			}
		}
		while (cp->p < cp->end && csv_is_space(*cp->p))
			cp->p++;
		if (!csv_at_field_end(cp))
			return csv_err(cp, cp->p, "expected ',' or the end of the line after a closing quote");
	} else {
		const char *s = cp->p;
		while (!csv_at_field_end(cp)) {
			if (*cp->p == '"')
				return csv_err(cp, cp->p, "'\"' inside an unquoted field (quote the whole field)");
			if (*cp->p == '\0')
				return csv_err(cp, cp->p, "NUL byte in CSV text");
			cp->p++;
		}
		const char *e = cp->p;
		while (e > s && csv_is_space(e[-1]))
			e--;
		for (const char *q = s; q < e; q++)
			if (!csv_putc(cp, *q))
				return false;
	}
	if (!csv_putc(cp, '\0'))
		return false;
	if (cp->nf == cp->capf) {
		size_t cap = cp->capf ? cp->capf * 2 : 16;
		csv_field *nf = realloc(cp->fields, cap * sizeof *nf);
		if (!nf)
			return ulp_diag_at(cp->d, cp->file, cp->line, 0, "out of memory");
		cp->fields = nf;
		cp->capf = cap;
	}
	cp->fields[cp->nf++] = (csv_field){ off, cp->blen - off - 1, col };
	return true;
}

static bool csv_line_is_blank_or_comment(const csv_parser *cp)
{
	const char *q = cp->p;
	if (q < cp->end && *q == '#')
		return true;
	while (q < cp->end && (csv_is_space(*q) || *q == '\r'))
		q++;
	return q >= cp->end || *q == '\n';
}

static void csv_skip_line(csv_parser *cp)
{
	while (cp->p < cp->end && *cp->p != '\n')
		cp->p++;
	if (cp->p < cp->end) {
		cp->p++;
		cp->line++;
		cp->line_start = cp->p;
	}
}

/* Reads the next record into cp->fields.  Returns 1, 0 at EOF, -1 on error. */
static int csv_next_record(csv_parser *cp)
{
	while (cp->p < cp->end && csv_line_is_blank_or_comment(cp))
		csv_skip_line(cp);
	if (cp->p >= cp->end)
		return 0;
	cp->nf = 0;
	cp->blen = 0;
	cp->rec_line = cp->line;
	for (;;) {
		if (!csv_field_parse(cp))
			return -1;
		if (cp->p < cp->end && *cp->p == ',') {
			cp->p++;
			continue;
		}
		cp->end_col = csv_col(cp, cp->p);
		if (cp->p < cp->end && *cp->p == '\r')
			cp->p++;
		if (cp->p < cp->end && *cp->p == '\n') {
			cp->p++;
			cp->line++;
			cp->line_start = cp->p;
		}
		return 1;
	}
}

static const char *csv_text(const csv_parser *cp, size_t i)
{
	return cp->buf + cp->fields[i].off;
}

/* ---- the cycles table ---- */

void ulp_cycles_free(ulp_cycles_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i].name);
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

/* cycles: digits with an optional fraction and exponent; no sign except in
 * the exponent, so no hex, inf or nan either. */
static bool parse_cycles(const char *s, double *out)
{
	const char *q = s;
	bool digits = false;
	while (*q >= '0' && *q <= '9')
		q++, digits = true;
	if (*q == '.')
		for (q++; *q >= '0' && *q <= '9'; q++)
			digits = true;
	if (!digits)
		return false;
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!(*q >= '0' && *q <= '9'))
			return false;
		while (*q >= '0' && *q <= '9')
			q++;
	}
	if (*q)
		return false;
	double v = strtod(s, NULL);
	if (!isfinite(v))
		return false;
	*out = v;
	return true;
}

typedef struct header_cols {
	size_t key, cycles, count;
	const char *key_name;
} header_cols;

static bool parse_header(csv_parser *cp, header_cols *h)
{
	static const char *const keys[] = { "name", "draw", "frame" };
	size_t key_at[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX };
	h->cycles = SIZE_MAX;
	h->count = cp->nf;
	for (size_t i = 0; i < cp->nf; i++) {
		const char *name = csv_text(cp, i);
		size_t *slot = NULL;
		if (strcasecmp(name, "cycles") == 0)
			slot = &h->cycles;
		for (int k = 0; k < 3; k++)
			if (strcasecmp(name, keys[k]) == 0)
				slot = &key_at[k];
		if (!slot)
			continue;
		if (*slot != SIZE_MAX)
			return ulp_diag_at(cp->d, cp->file, cp->rec_line, cp->fields[i].col,
			                   "column '%s' appears twice in the header", name);
		*slot = i;
	}
	if (h->cycles == SIZE_MAX)
		return ulp_diag_at(cp->d, cp->file, cp->rec_line, 1,
		                   "the header has no 'cycles' column (the first row must be a header "
		                   "naming 'cycles' and a key column 'name', 'draw' or 'frame')");
	for (int k = 0; k < 3; k++) {
		if (key_at[k] != SIZE_MAX) {
			h->key = key_at[k];
			h->key_name = keys[k];
			return true;
		}
	}
	return ulp_diag_at(cp->d, cp->file, cp->rec_line, 1,
	                   "the header has no key column ('name', 'draw' or 'frame')");
}

static int cmp_row_ptr(const void *a, const void *b)
{
	const ulp_cycles_row *x = *(const ulp_cycles_row *const *)a;
	const ulp_cycles_row *y = *(const ulp_cycles_row *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* A malloc'd array of pointers to t's rows sorted by (name, line). */
static const ulp_cycles_row **sorted_rows(const ulp_cycles_table *t)
{
	const ulp_cycles_row **v = malloc((t->n ? t->n : 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		v[i] = &t->rows[i];
	qsort(v, t->n, sizeof *v, cmp_row_ptr);
	return v;
}

static bool check_unique(const ulp_cycles_table *t, ulp_diag *d)
{
	const ulp_cycles_row **v = sorted_rows(t);
	if (!v)
		return ulp_diag_at(d, t->file, 0, 0, "out of memory");
	/* Within a name, v is sorted by line: v[g] is the first occurrence and
	 * v[g + 1] the first repeat.  Report the repeat with the lowest line. */
	const ulp_cycles_row *dup = NULL, *first = NULL;
	size_t g = 0;
	for (size_t i = 1; i < t->n; i++) {
		if (strcmp(v[i]->name, v[g]->name) != 0) {
			g = i;
			continue;
		}
		if (i == g + 1 && (!dup || v[i]->line < dup->line)) {
			dup = v[i];
			first = v[g];
		}
	}
	if (dup)
		ulp_diag_at(d, t->file, dup->line, 1, "duplicate key '%s' (first at line %d)", dup->name,
		            first->line);
	free(v);
	return dup == NULL;
}

static bool table_push(csv_parser *cp, ulp_cycles_table *t, size_t *cap, const char *name,
                       double cycles)
{
	if (t->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		ulp_cycles_row *nr = realloc(t->rows, nc * sizeof *nr);
		if (!nr)
			return ulp_diag_at(cp->d, cp->file, cp->rec_line, 0, "out of memory");
		t->rows = nr;
		*cap = nc;
	}
	char *copy = strdup(name);
	if (!copy)
		return ulp_diag_at(cp->d, cp->file, cp->rec_line, 0, "out of memory");
	t->rows[t->n++] = (ulp_cycles_row){ copy, cycles, cp->rec_line };
	return true;
}

static bool parse_rows(csv_parser *cp, ulp_cycles_table *t)
{
	int r = csv_next_record(cp);
	if (r < 0)
		return false;
	if (r == 0)
		return ulp_diag_at(cp->d, cp->file, 0, 0,
		                   "no header row (expected a header naming 'cycles' and 'name', "
		                   "'draw' or 'frame')");
	header_cols h = { 0 };
	if (!parse_header(cp, &h))
		return false;
	snprintf(t->key, sizeof t->key, "%s", h.key_name);
	int header_line = cp->rec_line;
	size_t cap = 0;
	while ((r = csv_next_record(cp)) > 0) {
		if (cp->nf != h.count) {
			int col = cp->nf > h.count ? cp->fields[h.count].col : cp->end_col;
			return ulp_diag_at(cp->d, cp->file, cp->rec_line, col,
			                   "row has %zu field%s but the header (line %d) has %zu", cp->nf,
			                   cp->nf == 1 ? "" : "s", header_line, h.count);
		}
		const char *key = csv_text(cp, h.key);
		if (!*key)
			return ulp_diag_at(cp->d, cp->file, cp->rec_line, cp->fields[h.key].col,
			                   "empty %s", h.key_name);
		const char *cyc = csv_text(cp, h.cycles);
		double v;
		if (!parse_cycles(cyc, &v))
			return ulp_diag_at(cp->d, cp->file, cp->rec_line, cp->fields[h.cycles].col,
			                   "'%.40s' is not a cycle count (a non-negative decimal number)", cyc);
		if (!table_push(cp, t, &cap, key, v))
			return false;
	}
	if (r < 0)
		return false;
	if (t->n == 0)
		return ulp_diag_at(cp->d, cp->file, header_line, 0, "the header is not followed by any data row");
	return check_unique(t, cp->d);
}

bool ulp_cycles_parse(const char *text, size_t len, const char *file, ulp_cycles_table *t,
                      ulp_diag *d)
{
	memset(t, 0, sizeof *t);
	snprintf(t->file, sizeof t->file, "%s", file ? file : "");
	csv_parser cp = { .p = text, .end = text + len, .file = t->file, .d = d, .line = 1 };
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		cp.p += 3; /* UTF-8 byte order mark */
	cp.line_start = cp.p;
	bool ok = parse_rows(&cp, t);
	free(cp.fields);
	free(cp.buf);
	if (!ok)
		ulp_cycles_free(t);
	return ok;
}

bool ulp_cycles_load(const char *path, ulp_cycles_table *t, ulp_diag *d)
{
	memset(t, 0, sizeof *t);
	size_t len = 0;
	char *text = ulp_read_file(path, &len, d);
	if (!text)
		return false;
	bool ok = ulp_cycles_parse(text, len, path, t, d);
	free(text);
	return ok;
}

/* ---- correlation ---- */

void ulp_correlation_free(ulp_correlation *c)
{
	free(c->pairs);
	free(c->only_sim);
	free(c->only_hw);
	memset(c, 0, sizeof *c);
}

static const ulp_cycles_row *find_row(const ulp_cycles_row **sorted, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sorted[mid]->name, name);
		if (c == 0)
			return sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void compute_metrics(ulp_correlation *c)
{
	c->pearson = c->mae = c->mape = c->rmse = c->nrmse = c->agg_error = c->hw_mean = NAN;
	c->sim_total = c->hw_total = 0;
	c->n_mape = 0;
	if (c->n == 0)
		return;
	double n = (double)c->n, abs_sum = 0, sq_sum = 0, pct_sum = 0;
	for (size_t i = 0; i < c->n; i++) {
		const ulp_corr_pair *p = &c->pairs[i];
		double e = p->sim - p->hw;
		c->sim_total += p->sim;
		c->hw_total += p->hw;
		abs_sum += fabs(e);
		sq_sum += e * e;
		if (p->hw > 0) {
			pct_sum += fabs(e) / p->hw;
			c->n_mape++;
		}
	}
	double sim_mean = c->sim_total / n;
	c->hw_mean = c->hw_total / n;
	c->mae = abs_sum / n;
	c->rmse = sqrt(sq_sum / n);
	if (c->n_mape)
		c->mape = 100.0 * pct_sum / (double)c->n_mape;
	if (c->hw_mean > 0)
		c->nrmse = c->rmse / c->hw_mean;
	if (c->hw_total > 0)
		c->agg_error = 100.0 * (c->sim_total - c->hw_total) / c->hw_total;

	double sxx = 0, syy = 0, sxy = 0;
	for (size_t i = 0; i < c->n; i++) {
		double ds = c->pairs[i].sim - sim_mean, dh = c->pairs[i].hw - c->hw_mean;
		sxx += ds * ds;
		syy += dh * dh;
		sxy += ds * dh;
	}
	if (c->n >= 2 && sxx > 0 && syy > 0) {
		double r = sxy / sqrt(sxx * syy);
		c->pearson = r > 1 ? 1 : r < -1 ? -1 : r;
	}
}

bool ulp_correlate(const ulp_cycles_table *sim, const ulp_cycles_table *hw, ulp_correlation *c,
                   ulp_diag *d)
{
	memset(c, 0, sizeof *c);
	const ulp_cycles_row **hw_sorted = sorted_rows(hw);
	bool *hw_used = calloc(hw->n ? hw->n : 1, sizeof *hw_used);
	c->pairs = malloc((sim->n ? sim->n : 1) * sizeof *c->pairs);
	c->only_sim = malloc((sim->n ? sim->n : 1) * sizeof *c->only_sim);
	c->only_hw = malloc((hw->n ? hw->n : 1) * sizeof *c->only_hw);
	if (!hw_sorted || !hw_used || !c->pairs || !c->only_sim || !c->only_hw) {
		free(hw_sorted);
		free(hw_used);
		ulp_correlation_free(c);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	for (size_t i = 0; i < sim->n; i++) {
		const ulp_cycles_row *s = &sim->rows[i];
		const ulp_cycles_row *h = find_row(hw_sorted, hw->n, s->name);
		if (!h) {
			c->only_sim[c->n_only_sim++] = s;
			continue;
		}
		hw_used[h - hw->rows] = true;
		c->pairs[c->n++] = (ulp_corr_pair){ s->name, s->cycles, h->cycles, s->line, h->line };
	}
	for (size_t i = 0; i < hw->n; i++)
		if (!hw_used[i])
			c->only_hw[c->n_only_hw++] = &hw->rows[i];
	free(hw_sorted);
	free(hw_used);
	compute_metrics(c);
	return true;
}
