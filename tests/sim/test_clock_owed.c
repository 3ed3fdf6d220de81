/* A wake for now of a unit after the one ticking (a pop waking its
 * producer, which steps after its consumer) ticks that unit in the same pass
 * and owes a pass at now + 1 (sim/core/clock.c, run_passes; unit.h,
 * sim_unit_wake).  Without a timeline the clock makes that pass only when
 * something is due then, and books what the empty pass did: the cycle a
 * drained run ends at, a limit's cycle and next, the watchdog's check at
 * now + 1.  Each is compared here with the run under a timeline, where the
 * pass is made, and with the cycles worked out by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "sim/core/clock.h"

/* Unit 0 (the consumer) ticks at the cycles of `at` and wakes unit 1 (the
 * producer) for its own cycle; unit 1 only counts its ticks. */
typedef struct owe_unit {
	sim_unit u;
	struct owe_unit *other;
	const uint64_t *at;
	unsigned n, k, ticks;
	uint64_t last;
} owe_unit;

static void owe_consumer(sim_unit *su, uint64_t now)
{
	owe_unit *o = (owe_unit *)su;
	o->ticks++;
	o->last = now;
	sim_unit_wake(&o->other->u, now);
	while (o->k < o->n && o->at[o->k] <= now)
		o->k++;
	if (o->k < o->n)
		sim_unit_sleep_until(su, o->at[o->k]);
}

static void owe_producer(sim_unit *su, uint64_t now)
{
	owe_unit *o = (owe_unit *)su;
	o->ticks++;
	o->last = now;
}

static bool discard(void *ctx, const sim_tl_event *ev, size_t n)
{
	(void)ctx;
	(void)ev;
	(void)n;
	return true;
}

typedef struct owe_run {
	enum sim_run_result rr;
	uint64_t now, next;
	unsigned ticks[2];
	uint64_t last[2];
} owe_run;

/* The consumer at the cycles of at, until `until`, with the watchdog's
 * cycles wd (0: off), with a timeline or not. */
static owe_run run(const uint64_t *at, unsigned n, uint64_t until, uint64_t wd, bool timeline)
{
	sim_timeline tl;
	if (timeline) {
		cr_assert(sim_tl_init(&tl));
		cr_assert(sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = NULL, .write = discard }));
		tl.enabled = true;
	}
	owe_unit a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	sim_unit_init(&a.u, "consumer", owe_consumer, NULL, 0);
	sim_unit_init(&b.u, "producer", owe_producer, NULL, 0);
	a.other = &b;
	a.at = at;
	a.n = n;
	a.u.wake = at[0];
	sim_clock c;
	sim_clock_init(&c, wd, timeline ? &tl : NULL);
	cr_assert(sim_clock_add_unit(&c, &a.u));
	cr_assert(sim_clock_add_unit(&c, &b.u));
	ulp_diag d;
	ulp_diag_clear(&d);
	owe_run r = { .rr = sim_clock_run(&c, until, &d) };
	sim_clock_finish(&c);
	r.now = c.now;
	r.next = c.next;
	r.ticks[0] = a.ticks;
	r.ticks[1] = b.ticks;
	r.last[0] = a.last;
	r.last[1] = b.last;
	if (timeline)
		sim_tl_fini(&tl);
	return r;
}

static void same(owe_run x, owe_run y, const char *what)
{
	cr_assert_eq(x.rr, y.rr, "%s: result", what);
	cr_assert_eq(x.now, y.now, "%s: now %llu, with a timeline %llu", what, (unsigned long long)x.now,
	             (unsigned long long)y.now);
	cr_assert_eq(x.next, y.next, "%s: next", what);
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(x.ticks[i], y.ticks[i], "%s: unit %u's ticks", what, i);
		cr_assert_eq(x.last[i], y.last[i], "%s: unit %u's last tick", what, i);
	}
}

Test(clock_owed, a_drained_run_ends_after_the_owed_pass)
{
	static const uint64_t at[] = { 3, 10, 11, 20, 40, 41, 42, 150 };
	const unsigned n = sizeof at / sizeof at[0];
	const owe_run r = run(at, n, UINT64_MAX, 0, false);
	same(r, run(at, n, UINT64_MAX, 0, true), "drained");
	cr_assert_eq(r.rr, SIM_RUN_DRAINED);
	cr_assert_eq(r.ticks[0], n);
	cr_assert_eq(r.ticks[1], n);             /* in the consumer's pass */
	cr_assert_eq(r.last[1], 150);
	cr_assert_eq(r.now, 152);               /* the last pass 150, the owed one 151 */
}

Test(clock_owed, a_limit_at_the_owed_pass_leaves_it_to_the_next_run)
{
	static const uint64_t at[] = { 3, 10, 20 };
	for (uint64_t until = 4; until < 25; until++) {
		const owe_run r = run(at, 3, until, 0, false);
		same(r, run(at, 3, until, 0, true), "limit");
		if (until == 11 || until == 21) {   /* just past a consumer's pass */
			cr_assert_eq(r.rr, SIM_RUN_LIMIT);
			cr_assert_eq(r.now, until);
			cr_assert_eq(r.next, until, "until %llu: the owed pass", (unsigned long long)until);
		}
	}
}

/* No unit is ever busy: the watchdog fires at the first pass at or after
 * cycle wd, the owed pass at now + 1 included. */
Test(clock_owed, the_watchdog_checks_at_the_owed_pass)
{
	static const uint64_t at[] = { 3, 10, 30 };
	for (uint64_t wd = 2; wd < 35; wd++) {
		const owe_run r = run(at, 3, UINT64_MAX, wd, false);
		same(r, run(at, 3, UINT64_MAX, wd, true), "watchdog");
		if (wd == 11 || wd == 4) {          /* the owed passes at 11 and 4 */
			cr_assert_eq(r.rr, SIM_RUN_WATCHDOG, "wd %llu", (unsigned long long)wd);
			cr_assert_eq(r.now, wd + 1, "wd %llu", (unsigned long long)wd);
		}
	}
}
