#include <stdio.h>
#include <string.h>

#include "base/hosttime.h"
#include "bench/bench.h"

void bench_add(bench_table *t, const char *name, double value, const char *unit, const char *goal)
{
	if (t->n == (int)(sizeof t->row / sizeof t->row[0]))
		return;
	bench_row *r = &t->row[t->n++];
	snprintf(r->name, sizeof r->name, "%s", name);
	r->value = value;
	r->unit = unit;
	r->goal = goal ? goal : "";
}

double bench_now(void) { return ulp_host_seconds(); }

static void print_value(double v)
{
	if (v >= 1e6)
		printf("%12.2f M", v / 1e6);
	else if (v >= 1e3)
		printf("%12.2f k", v / 1e3);
	else
		printf("%12.3f  ", v);
}

int main(void)
{
	static bench_table t;
	void (*const benches[])(bench_table *) = { bench_numfmt, bench_clock, bench_pica, bench_compile, bench_tegra, bench_gpu };
	for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
		benches[i](&t);
	printf("%-48s %14s  %-16s %s\n", "benchmark", "value", "unit", "goal");
	for (int i = 0; i < t.n; i++) {
		printf("%-48s ", t.row[i].name);
		print_value(t.row[i].value);
		printf("  %-16s %s\n", t.row[i].unit, t.row[i].goal);
	}
	return 0;
}
