/* make bench: every area's figures as one table.
 *
 *   ulpsim-bench [AREA...] [--size WxH] [--reps N] [--case S] [--record off|on] [--vertices N]
 *                [--check]
 *
 * AREA picks areas (numfmt, clock, pica, compile, tegra, gpu; default all).
 * --size and --reps shrink the Tegra draws for profiling (callgrind);
 * --case S keeps the Tegra draws whose label holds S;
 * --record off|on measures the gpu draws in that mode only (profiling);
 * --vertices N runs the pica shaders over N vertices (profiling);
 * --check prints what the runs computed (cycles, counts, an image hash),
 * which must not change when the simulator gets faster. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* CPU seconds of this process: on a shared, loaded host the wall clock
 * counts other jobs' time; the goals are per host core. */
double bench_now(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return ulp_host_seconds();
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_value(double v)
{
	if (v >= 1e6)
		printf("%12.2f M", v / 1e6);
	else if (v >= 1e3)
		printf("%12.2f k", v / 1e3);
	else
		printf("%12.3f  ", v);
}

static int usage(void)
{
	fprintf(stderr, "usage: ulpsim-bench [numfmt|clock|pica|compile|tegra|gpu]... "
	                "[--size WxH] [--reps N] [--case S] [--record off|on] [--vertices N] [--check]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static bench_table t;
	static const struct {
		const char *name;
		void (*run)(bench_table *);
	} benches[] = { { "numfmt", bench_numfmt }, { "clock", bench_clock }, { "pica", bench_pica },
	                { "compile", bench_compile }, { "tegra", bench_tegra }, { "gpu", bench_gpu } };
	enum { NB = sizeof benches / sizeof benches[0] };
	bool pick[NB] = { false };
	bool any = false;
	t.width = 640;
	t.height = 480;
	t.reps = 3;
	t.record = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &t.width, &t.height) != 2 || !t.width || !t.height ||
			    t.width > 4096 || t.height > 4096)
				return usage();
		} else if (!strcmp(a, "--reps") && i + 1 < argc) {
			t.reps = atoi(argv[++i]);
			if (t.reps < 1 || t.reps > 100)
				return usage();
		} else if (!strcmp(a, "--case") && i + 1 < argc) {
			t.only = argv[++i];
		} else if (!strcmp(a, "--record") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "off") && strcmp(argv[i], "on"))
				return usage();
			t.record = !strcmp(argv[i], "on");
		} else if (!strcmp(a, "--vertices") && i + 1 < argc) {
			long v = atol(argv[++i]);
			if (v < 1 || v > 100000000)
				return usage();
			t.vertices = (uint32_t)v;
		} else if (!strcmp(a, "--check")) {
			t.check = true;
		} else {
			unsigned k = 0;
			while (k < NB && strcmp(a, benches[k].name))
				k++;
			if (k == NB)
				return usage();
			pick[k] = any = true;
		}
	}
	for (unsigned k = 0; k < NB; k++)
		if (!any || pick[k])
			benches[k].run(&t);
	printf("%-48s %14s  %-16s %s\n", "benchmark", "value", "unit", "goal");
	for (int i = 0; i < t.n; i++) {
		printf("%-48s ", t.row[i].name);
		print_value(t.row[i].value);
		printf("  %-16s %s\n", t.row[i].unit, t.row[i].goal);
	}
	return 0;
}
