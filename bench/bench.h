/* make bench: each benchmark reports one or more figures as table rows. */
#ifndef ULP_BENCH_H
#define ULP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

typedef struct bench_row {
	char name[80];
	double value;
	const char *unit;
	const char *goal;   /* "" when the issue sets none */
} bench_row;

typedef struct bench_table {
	bench_row row[64];
	int n;
	/* options (bench_main.c) */
	unsigned width, height;   /* the Tegra draws: 640x480 unless --size */
	int reps;                 /* best of reps (3) */
	bool check;               /* --check: print what the runs computed */
	const char *only;         /* --case S: only the Tegra draws whose label holds S */
	int record;               /* --record off|on: gpu rows measure only that mode (-1: both) */
	uint32_t vertices;        /* --vertices N: the pica rows' vertex count (0: 10^6) */
} bench_table;

void bench_add(bench_table *t, const char *name, double value, const char *unit, const char *goal);
double bench_now(void);   /* CPU seconds of the process (one host core) */

/* Benchmarks: one function per area, each adding rows. */
void bench_numfmt(bench_table *t);
void bench_clock(bench_table *t);
void bench_pica(bench_table *t);
void bench_compile(bench_table *t);
void bench_tegra(bench_table *t);
void bench_gpu(bench_table *t);

#endif
