/* Foundation benchmarks: float24 arithmetic and the bare clock. */
#include <stdint.h>

#include "bench/bench.h"
#include "isa/f24.h"
#include "isa/fp20.h"
#include "sim/core/clock.h"

void bench_numfmt(bench_table *t)
{
	const f24_mode *m = &F24_MODE_DEFAULT;
	const int n = 20 * 1000 * 1000;
	float acc = 1.0f, x = 1.0001f;
	double t0 = bench_now();
	for (int i = 0; i < n; i++)
		acc = f24_mad(acc, x, 0.25f, m);
	double dt = bench_now() - t0;
	bench_add(t, "f24 MAD (mul + add, each rounded)", n / dt, "ops/s", "");
	volatile float sink = acc;
	(void)sink;

	uint32_t h = 0;
	t0 = bench_now();
	for (int i = 0; i < n / 4; i++)
		h += fp20_encode((float)i * 0.001f, ULP_ROUND_NEAREST_EVEN);
	dt = bench_now() - t0;
	bench_add(t, "FP20 encode from float", (n / 4) / dt, "ops/s", "");
	volatile uint32_t hs = h;
	(void)hs;
}

/* Two units ping-ponging through ports with latency 1: the cost of the
 * clock, the ports and the accounting per simulated cycle. */
typedef struct relay {
	sim_unit u;
	sim_port *in, *out;
	uint64_t moved;
} relay;

static void relay_tick(sim_unit *u, uint64_t now)
{
	relay *r = (relay *)u;
	uint32_t *v = sim_port_peek(r->in, now);
	if (v && !sim_port_full(r->out)) {
		uint32_t x = *v + 1;
		sim_port_pop(r->in, now);
		sim_port_push(r->out, &x, now);
		r->moved++;
		sim_unit_busy(u);
	}
	uint64_t next = sim_port_next_ready(r->in);
	if (next != UINT64_MAX)
		sim_unit_wake(u, next);
}

void bench_clock(bench_table *t)
{
	sim_clock c;
	sim_port a, b;
	relay r1, r2;
	sim_clock_init(&c, 1000, NULL);
	sim_unit_init(&r1.u, "r1", relay_tick, NULL, 0);
	sim_unit_init(&r2.u, "r2", relay_tick, NULL, 0);
	if (!sim_port_init(&a, "a", 4, 4, 1, &r2.u) || !sim_port_init(&b, "b", 4, 4, 1, &r1.u))
		return;
	r1.in = &b, r1.out = &a, r1.moved = 0;
	r2.in = &a, r2.out = &b, r2.moved = 0;
	sim_clock_add_unit(&c, &r1.u);
	sim_clock_add_unit(&c, &r2.u);
	for (uint32_t i = 0; i < 2; i++)
		sim_port_push(&b, &i, 0);
	ulp_diag d;
	ulp_diag_clear(&d);
	const uint64_t cycles = 20 * 1000 * 1000;
	double t0 = bench_now();
	sim_clock_run(&c, cycles, &d);
	double dt = bench_now() - t0;
	bench_add(t, "clock: 2 units, 2 ports, busy every cycle", cycles / dt, "cycles/s", "");
	sim_port_fini(&a);
	sim_port_fini(&b);
}
