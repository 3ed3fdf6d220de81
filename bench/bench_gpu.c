/* The whole GPU pipeline on one clock (sim/gpu.h): simulated cycles per
 * second replaying traces/samples/lit_sphere.json (1152 vertices, 384
 * triangles, ~12k fragments), every unit from vertex fetch to DW
 * (issue 6's goal: >= 10 M simulated cycles/s). */
#include <stdio.h>

#include "bench/bench.h"
#include "sim/replay.h"

void bench_gpu(bench_table *t)
{
	trace tr;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!trace_load(&tr, "traces/samples/lit_sphere.json", &d)) {
		fprintf(stderr, "bench: %s\n", d.msg);
		trace_free(&tr);
		return;
	}
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg };
	uint64_t cycles = 0, fragments = 0;
	double t0 = bench_now(), dt = 0;
	int runs = 0;
	while (dt < 1.0 || runs < 3) {
		replay_result res;
		if (!replay_run(&tr, &o, &res, &d)) {
			fprintf(stderr, "bench: %s\n", d.msg);
			break;
		}
		cycles += res.cycles;
		fragments += res.fragments;
		runs++;
		dt = bench_now() - t0;
	}
	trace_free(&tr);
	if (runs && dt > 0) {
		bench_add(t, "gpu: lit_sphere replay, simulated cycles/s", (double)cycles / dt, "cycles/s",
		          ">= 10 M (issue 6)");
		bench_add(t, "gpu: lit_sphere replay, fragments/s", (double)fragments / dt, "fragments/s", NULL);
	}
}
