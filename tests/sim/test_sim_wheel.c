/* The clock's wheel of wakes (sim/core/clock.c) against a reference
 * scheduler that looks at every unit in every pass: units that wake each
 * other and themselves at random, within the wheel's reach and beyond it,
 * in the past, through floors and stalls, must tick in the same order at the
 * same cycles, book the same figures and end at the same cycle. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/core/clock.h"

enum { RW_MAX = SIM_CLOCK_MAX_UNITS, RW_LOG = 1 << 16 };

typedef struct rnd_world rnd_world;

typedef struct rnd_unit {
	sim_unit u;
	rnd_world *w;
	unsigned idx, ticks;
} rnd_unit;

struct rnd_world {
	rnd_unit unit[RW_MAX];
	unsigned n, max_ticks;
	uint64_t seed;
	uint32_t *log_unit;
	uint64_t *log_cycle;
	size_t nlog;
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

/* A delay: now, the past, the next cycles, within the wheel, its edges,
 * past it. */
static uint64_t rnd_at(uint64_t now, uint64_t r)
{
	switch (r % 10) {
	case 0: return now;
	case 1: return now >= 2 ? now - 1 - (r >> 8) % 2 : now;
	case 2: return now + 1;
	case 3: return now + 2 + (r >> 8) % 4;
	case 4: return now + 1 + (r >> 8) % 63;
	case 5: return now + SIM_WHEEL_SLOTS - 1 + (r >> 8) % 3;   /* 63, 64, 65 ahead */
	case 6: return now + SIM_WHEEL_SLOTS + (r >> 8) % 300;
	case 7: return now + 1 + (r >> 8) % 8;
	default: return now + 1 + (r >> 8) % 20;
	}
}

static void rnd_tick(sim_unit *su, uint64_t now)
{
	rnd_unit *ru = (rnd_unit *)su;
	rnd_world *w = ru->w;
	if (w->nlog < RW_LOG) {
		w->log_unit[w->nlog] = ru->idx;
		w->log_cycle[w->nlog] = now;
		w->nlog++;
	}
	sim_unit_wait_settle(su, now);
	if (ru->ticks++ >= w->max_ticks)
		return;                       /* asleep for good, unless woken */
	uint64_t r = mix(w->seed ^ mix((uint64_t)ru->idx << 40 ^ now << 12 ^ ru->ticks));
	const unsigned act = r % 4, self = (r >> 2) % 8, nwake = (r >> 5) % 4;
	const bool wake_first = (r >> 7) & 1u;
	r = mix(r);
	if (act == 1)
		sim_unit_busy(su);
	else if (act == 2)
		sim_unit_stall(su, SIM_STALL_OUTPUT_FULL);
	for (unsigned k = 0; k < nwake && wake_first; k++, r = mix(r))
		sim_unit_wake(&w->unit[r % w->n].u, rnd_at(now, r >> 6));
	switch (self) {
	case 0: break;                                    /* asleep until woken */
	case 1: sim_unit_sleep_until(su, rnd_at(now, r)); break;
	case 2: sim_unit_sleep_through(su, rnd_at(now, r) + 1); break;
	case 3: sim_unit_occupy(su, now, now + 1 + r % 90); break;
	case 4: sim_unit_stall_wait(su, now, SIM_STALL_OUTPUT_FULL); break;
	case 5: sim_unit_wake(su, rnd_at(now, r)); break;
	case 6: sim_unit_sleep_until(su, now + 1); break;
	default: sim_unit_wake(su, now + 1 + r % 3); sim_unit_sleep_until(su, now + 100 + r % 50); break;
	}
	r = mix(r);
	for (unsigned k = 0; k < nwake && !wake_first; k++, r = mix(r))
		sim_unit_wake(&w->unit[r % w->n].u, rnd_at(now, r >> 6));
}

static void world_init(rnd_world *w, unsigned n, unsigned max_ticks, uint64_t seed)
{
	memset(w, 0, sizeof *w);
	w->n = n;
	w->max_ticks = max_ticks;
	w->seed = seed;
	w->log_unit = calloc(RW_LOG, sizeof *w->log_unit);
	w->log_cycle = calloc(RW_LOG, sizeof *w->log_cycle);
	cr_assert(w->log_unit && w->log_cycle);
	for (unsigned i = 0; i < n; i++) {
		rnd_unit *ru = &w->unit[i];
		sim_unit_init(&ru->u, "rnd", rnd_tick, NULL, 0);
		ru->w = w;
		ru->idx = i;
		/* a few start awake, at 0 or later, some past the wheel */
		const uint64_t r = mix(seed ^ i);
		if (r % 3 == 0)
			ru->u.wake = (r >> 8) % 4 == 0 ? 70 + (r >> 16) % 100 : (r >> 16) % 8;
	}
	w->unit[0].u.wake = 0;
}

static void world_fini(rnd_world *w)
{
	free(w->log_unit);
	free(w->log_cycle);
}

/* The reference: every pass looks at every unit in step order and ticks
 * those whose wake has come; the next pass is at the earliest wake of any
 * unit or wake given in the pass (the clock's rule), at least a cycle on. */
static uint64_t reference_run(rnd_world *w)
{
	uint64_t T = UINT64_MAX;
	sim_wheel dummy;                  /* sim_unit_wake fills one; not read */
	memset(&dummy, 0, sizeof dummy);
	dummy.far_next = UINT64_MAX;
	/* every unit counts as passed (cur): each wake lowers T, the rule the
	 * clock keeps (a wake for now owes a pass at now + 1) */
	dummy.cur = UINT32_MAX;
	for (unsigned i = 0; i < w->n; i++) {
		w->unit[i].u.clock_next = &T;
		w->unit[i].u.clock_wheel = &dummy;
		w->unit[i].u.sched_bit = UINT32_C(1) << i;
	}
	uint64_t now = UINT64_MAX;
	for (unsigned i = 0; i < w->n; i++)
		now = w->unit[i].u.wake < now ? w->unit[i].u.wake : now;
	while (now != UINT64_MAX) {
		T = UINT64_MAX;
		dummy.now = now;
		for (unsigned i = 0; i < w->n; i++) {
			sim_unit *u = &w->unit[i].u;
			if (u->wake > now)
				continue;
			u->activity = SIM_ACT_IDLE;
			u->wake = UINT64_MAX;
			u->tick(u, now);
			if (u->activity == SIM_ACT_BUSY)
				u->stats.busy++;
			else if (u->activity >= SIM_ACT_STALL)
				u->stats.stall[u->activity - SIM_ACT_STALL]++;
			if (u->wake <= now)
				u->wake = now + 1;
		}
		uint64_t nx = T;
		for (unsigned i = 0; i < w->n; i++)
			nx = w->unit[i].u.wake < nx ? w->unit[i].u.wake : nx;
		if (nx == UINT64_MAX)
			return now + 1;
		now = nx > now ? nx : now + 1;
	}
	return 0;
}

static bool discard(void *ctx, const sim_tl_event *ev, size_t n)
{
	(void)ctx;
	(void)ev;
	(void)n;
	return true;
}

/* The clock, in calls of at most `slice` cycles (0: one call), with a
 * timeline or not. */
static uint64_t clock_run(rnd_world *w, uint64_t slice, bool timeline)
{
	sim_timeline tl;
	if (timeline) {
		cr_assert(sim_tl_init(&tl));
		cr_assert(sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = NULL, .write = discard }));
		tl.enabled = true;
	}
	sim_clock c;
	sim_clock_init(&c, 0, timeline ? &tl : NULL);
	for (unsigned i = 0; i < w->n; i++)
		cr_assert(sim_clock_add_unit(&c, &w->unit[i].u));
	ulp_diag d;
	ulp_diag_clear(&d);
	enum sim_run_result rr;
	do
		rr = sim_clock_run(&c, slice ? c.now + slice : UINT64_MAX, &d);
	while (rr == SIM_RUN_LIMIT);
	cr_assert_eq(rr, SIM_RUN_DRAINED);
	sim_clock_finish(&c);
	for (unsigned i = 0; i < w->n; i++)
		cr_assert_eq(sim_unit_idle(&c, &w->unit[i].u),
		             c.now - w->unit[i].u.stats.busy - w->unit[i].u.stats.stall[SIM_STALL_OUTPUT_FULL]);
	if (timeline)
		sim_tl_fini(&tl);
	return c.now;
}

static void compare(unsigned n, unsigned max_ticks, uint64_t seed, uint64_t slice, bool timeline)
{
	rnd_world *ref = malloc(sizeof *ref), *got = malloc(sizeof *got);
	cr_assert(ref && got);
	world_init(ref, n, max_ticks, seed);
	world_init(got, n, max_ticks, seed);
	const uint64_t end_ref = reference_run(ref);
	const uint64_t end_got = clock_run(got, slice, timeline);
	cr_assert_lt(ref->nlog, (size_t)RW_LOG);
	cr_assert_eq(got->nlog, ref->nlog, "seed %llu: %zu ticks, the reference %zu",
	             (unsigned long long)seed, got->nlog, ref->nlog);
	for (size_t k = 0; k < ref->nlog; k++) {
		cr_assert_eq(got->log_cycle[k], ref->log_cycle[k], "seed %llu, tick %zu: cycle",
		             (unsigned long long)seed, k);
		cr_assert_eq(got->log_unit[k], ref->log_unit[k], "seed %llu, tick %zu (cycle %llu): unit",
		             (unsigned long long)seed, k, (unsigned long long)ref->log_cycle[k]);
	}
	cr_assert_eq(end_got, end_ref, "seed %llu: the end cycle", (unsigned long long)seed);
	for (unsigned i = 0; i < n; i++) {
		const sim_unit_stats *a = &got->unit[i].u.stats, *b = &ref->unit[i].u.stats;
		cr_assert_eq(a->busy, b->busy, "seed %llu unit %u", (unsigned long long)seed, i);
		cr_assert_eq(a->stall[SIM_STALL_OUTPUT_FULL], b->stall[SIM_STALL_OUTPUT_FULL],
		             "seed %llu unit %u", (unsigned long long)seed, i);
	}
	world_fini(ref);
	world_fini(got);
	free(ref);
	free(got);
}

Test(sim_wheel, random_wakes_tick_as_the_reference_scheduler)
{
	static const unsigned sizes[] = { 1, 2, 5, 13, 32 };
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (uint64_t seed = 1; seed <= 40; seed++)
			compare(sizes[s], 60, seed * 7919 + sizes[s], 0, false);
}

Test(sim_wheel, runs_in_slices_and_with_a_timeline_tick_the_same)
{
	static const uint64_t slices[] = { 1, 3, 64, 65, 200 };
	for (unsigned s = 0; s < sizeof slices / sizeof slices[0]; s++)
		for (uint64_t seed = 1; seed <= 12; seed++) {
			compare(9, 40, seed * 104729 + s, slices[s], false);
			compare(32, 20, seed * 15485863 + s, slices[s], true);
		}
	for (uint64_t seed = 1; seed <= 20; seed++)
		compare(32, 40, seed * 31337, 0, true);
}

/* Far wakes alone: units asleep past the wheel for long stretches. */
Test(sim_wheel, a_wake_past_the_wheel_comes_at_its_cycle)
{
	sim_clock c;
	rnd_world *w = malloc(sizeof *w);
	cr_assert(w);
	world_init(w, 3, 0, 1);
	sim_clock_init(&c, 0, NULL);
	for (unsigned i = 0; i < 3; i++) {
		w->unit[i].u.wake = i == 1 ? 1000 : i == 2 ? 64 : 63;
		cr_assert(sim_clock_add_unit(&c, &w->unit[i].u));
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(w->nlog, 3);
	cr_assert_eq(w->log_unit[0], 0);
	cr_assert_eq(w->log_cycle[0], 63);
	cr_assert_eq(w->log_unit[1], 2);
	cr_assert_eq(w->log_cycle[1], 64);
	cr_assert_eq(w->log_unit[2], 1);
	cr_assert_eq(w->log_cycle[2], 1000);
	cr_assert_eq(c.now, 1001);
	world_fini(w);
	free(w);
}

/* A unit that sleeps from its own tick by the given delays in turn: the
 * pass places a wake 2 to 63 cycles on in its slot and a later one in far
 * (clock_pass), at the edges of the wheel. */
typedef struct hop_unit {
	sim_unit u;
	const uint64_t *delay;
	unsigned n, k;
	uint64_t at[16];
} hop_unit;

static void hop_tick(sim_unit *su, uint64_t now)
{
	hop_unit *h = (hop_unit *)su;
	sim_unit_busy(su);
	if (h->k < 16)
		h->at[h->k] = now;
	if (h->k < h->n)
		sim_unit_sleep_until(su, now + h->delay[h->k]);
	h->k++;
}

Test(sim_wheel, a_units_own_wake_at_the_wheels_edges_comes_at_its_cycle)
{
	static const uint64_t delay[] = { 2, 63, 64, 65, 1, 62, 127, 3, 200, 64 };
	const unsigned n = sizeof delay / sizeof delay[0];
	hop_unit h;
	sim_unit_init(&h.u, "hop", hop_tick, NULL, 0);
	h.delay = delay;
	h.n = n;
	h.k = 0;
	h.u.wake = 5;
	sim_clock c;
	sim_clock_init(&c, 0, NULL);
	cr_assert(sim_clock_add_unit(&c, &h.u));
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(h.k, n + 1);
	uint64_t t = 5;
	for (unsigned k = 0; k <= n; k++) {
		cr_assert_eq(h.at[k], t, "tick %u at %llu, not %llu", k, (unsigned long long)h.at[k],
		             (unsigned long long)t);
		if (k < n)
			t += delay[k];
	}
	cr_assert_eq(c.now, t + 1);
	cr_assert_eq(h.u.stats.busy, (uint64_t)n + 1);
}
