/* Tegra 3's two GR3D blocks on two host threads (sim.threads, --threads;
 * sim/core/clock_par.h, docs/speed-history.md "Two host threads"): the results are
 * the one thread's, byte for byte: cycles, images, every unit's stats, the
 * ports' high-water marks and every timeline event in order (with a
 * timeline a third thread merges each window's events while the blocks run
 * the next: the small windows below hand it thousands). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "sim/core/clock_par.h"
#include "sim/core/timeline.h"
#include "tests/test_replay_pair.h"
#include "tests/test_util.h"
#include "traces/replay/replay.h"
#include "ulpsim/ulpsim.h"


static void tegra3(ulp_config *c, unsigned threads, uint64_t window)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(c);
	cr_assert(ulp_config_preset(c, "tegra3", &d), "%s", d.msg);
	c->host_threads = threads;
	c->host_thread_window = (int64_t)window;
}

/* Every sample trace under the tegra3 preset, with and without a timeline,
 * windows of 61 cycles (many edges, many merges), 32768 and the default (0:
 * the rest of the draw without a timeline, 32768 with one): one thread and
 * two alike, and some draws did run on two threads, without a timeline in
 * one window each by default. */
Test(threads, samples_tegra3_one_and_two_threads_alike, .timeout = 300)
{
	static const uint64_t windows[] = { 0, 61, 32768 };
	uint64_t threaded = 0;
	for (size_t s = 0; s < TEST_NSAMPLES; s++) {
		char path[128];
		trace t;
		test_sample_load(&t, TEST_SAMPLES[s], path, sizeof path);
		for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
			for (int record = 0; record < 2; record++) {
				ulp_config c1, c2;
				tegra3(&c1, 1, windows[w]);
				tegra3(&c2, 2, windows[w]);
				test_run a, b;
				test_replay_run(&t, &c1, record, 0, &a);
				test_replay_run(&t, &c2, record, 0, &b);
				cr_assert(a.ok, "%s: %s", path, a.msg);
				cr_assert_eq(a.res.host_threaded_draws, 0);
				threaded += b.res.host_threaded_draws;
				if (!windows[w] && !record)
					cr_assert_eq(b.res.host_par_windows, b.res.host_threaded_draws, "%s: %llu windows", path,
					             (unsigned long long)b.res.host_par_windows);
				char what[192];
				snprintf(what, sizeof what, "%s, window %llu, timeline %d", path,
				         (unsigned long long)windows[w], record);
				test_runs_same(&a, &b, what);
				test_run_free(&a);
				test_run_free(&b);
			}
		}
		trace_free(&t);
	}
	cr_assert_gt(threaded, 0, "no sample draw ran on two threads");
}

/* The fill-bound draw: alike at every window size (0: the default), with
 * and without a timeline; and the cycle budget (--max-cycles) ending the run
 * inside the blocks' work. */
Test(threads, fill_windows_and_budget, .timeout = 120)
{
	char *j = test_fill_trace(2);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, j, "fill.trace.json", ".", &d), "%s", d.msg);
	static const uint64_t windows[] = { 0, 1, 7, 64, 1000, 100000 };
	for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
		for (int record = 0; record < 2; record++) {
			ulp_config c1, c2;
			tegra3(&c1, 1, windows[w]);
			tegra3(&c2, 2, windows[w]);
			test_run a, b;
			test_replay_run(&t, &c1, record, 0, &a);
			test_replay_run(&t, &c2, record, 0, &b);
			cr_assert(a.ok, "%s", a.msg);
			if (windows[w] < 10000)   /* a window past a draw's end: it ends in the first */
				cr_assert_eq(b.res.host_threaded_draws, 2, "window %llu: both draws on two threads",
				             (unsigned long long)windows[w]);
			char what[64];
			snprintf(what, sizeof what, "fill, window %llu, timeline %d", (unsigned long long)windows[w], record);
			test_runs_same(&a, &b, what);
			const uint64_t cycles = a.res.cycles;
			test_run_free(&a);
			test_run_free(&b);
			/* a budget that ends the second draw inside the blocks' work */
			test_replay_run(&t, &c1, record, cycles - cycles / 5, &a);
			test_replay_run(&t, &c2, record, cycles - cycles / 5, &b);
			cr_assert_not(a.ok);
			snprintf(what, sizeof what, "fill, budget, window %llu, timeline %d", (unsigned long long)windows[w],
			         record);
			test_runs_same(&a, &b, what);
			test_run_free(&a);
			test_run_free(&b);
		}
	}
	trace_free(&t);
	free(j);
}

/* A draw the watchdog stops while the blocks run apart (TEX's results take
 * longer than the watchdog waits): the same report, cycle and stats. */
Test(threads, watchdog_alike, .timeout = 120)
{
	char *j = test_fill_trace(2);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, j, "fill.trace.json", ".", &d), "%s", d.msg);
	static const uint64_t windows[] = { 0, 8, 50, 8192 };
	for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
		for (int record = 0; record < 2; record++) {
			ulp_config c1, c2;
			tegra3(&c1, 1, windows[w]);
			tegra3(&c2, 2, windows[w]);
			c1.watchdog_cycles = c2.watchdog_cycles = 200;
			c1.tegra_lat_tex = c2.tegra_lat_tex = 300;
			test_run a, b;
			test_replay_run(&t, &c1, record, 0, &a);
			test_replay_run(&t, &c2, record, 0, &b);
			cr_assert_not(a.ok);
			cr_assert(strstr(a.msg, "watchdog"), "%s", a.msg);
			char what[64];
			snprintf(what, sizeof what, "watchdog, window %llu", (unsigned long long)windows[w]);
			test_runs_same(&a, &b, what);
			test_run_free(&a);
			test_run_free(&b);
		}
	}
	trace_free(&t);
	free(j);
}

/* sim_clock_run_parts on toy units (no GPU): part 0 works every `period`
 * cycles for `works` ticks, part 1 stalls every cycle from the start (or
 * waits asleep, sim_unit_stall_wait, that nothing wakes).  The watchdog
 * fires `wd` cycles after part 0's last work; part 1 alone would have
 * reached its own horizon long before.  Without a timeline the parts end
 * their windows at different cycles (part 1 stops where the watchdog could
 * fire as far as it knows, part 0 runs on); with one they keep lock-step.
 * Either way: the one clock's report, cycle, return and stats. */
typedef struct toy {
	sim_unit u;
	unsigned period, works;   /* period 0: stalls; works UINT32_MAX: for ever */
	bool wait;
	uint64_t halt_at;         /* 0: never */
} toy;

static void toy_tick(sim_unit *u, uint64_t now)
{
	toy *t = (toy *)u;
	if (t->halt_at && now >= t->halt_at) {
		u->halt = true;
		return;
	}
	sim_unit_wait_settle(u, now);
	if (!t->period) {
		if (t->wait) {
			sim_unit_stall_wait(u, now, SIM_STALL_MEMORY);
			return;
		}
		sim_unit_stall(u, SIM_STALL_MEMORY);
		sim_unit_sleep_until(u, now + 1);
		return;
	}
	if (!t->works)
		return;
	if (t->works != UINT32_MAX)
		t->works--;
	sim_unit_busy(u);
	sim_unit_sleep_until(u, now + t->period);
}

typedef struct toy_run {
	enum sim_run_result rr;
	uint64_t now, windows;
	bool threaded;
	sim_unit_stats st[4];
	char msg[sizeof(((ulp_diag *)0)->msg)];
	test_ev_log log;
} toy_run;

/* units 0, 1: part 0 (a worker, then a staller); 2, 3: part 1 (two stallers,
 * or a worker and a staller when swap) */
static void toy_clock(bool parts, bool swap, bool wait, bool record, uint64_t window, uint64_t wd, toy_run *r)
{
	memset(r, 0, sizeof *r);
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	cr_assert(sim_tl_add_sink(&tl, test_ev_sink(&r->log)));
	tl.enabled = true;
	toy t[4];
	static const char *const names[] = { "a0", "a1", "b0", "b1" };
	sim_clock c;
	sim_clock_init(&c, wd, record ? &tl : NULL);
	for (unsigned i = 0; i < 4; i++) {
		const bool worker = swap ? i == 2 : i == 0;
		t[i] = (toy){ .period = worker ? 37 : 0, .works = worker ? 40 : 0, .wait = wait };
		sim_unit_init(&t[i].u, names[i], toy_tick, NULL, 0);
		t[i].u.wake = worker || i != 3 ? 0 : 5;   /* one staller starts later */
		cr_assert(sim_clock_add_unit(&c, &t[i].u));
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	if (parts) {
		sim_clock_parts ps = { .n = 2, .first = { 0, 2 }, .count = { 2, 2 } };
		sim_par_host host = { 0 };
		r->rr = sim_clock_run_parts(&c, &ps, UINT64_MAX, window, &r->threaded, &host, &d);
		r->windows = host.windows;
	} else {
		r->rr = sim_clock_run(&c, UINT64_MAX, &d);
	}
	sim_clock_finish(&c);
	r->now = c.now;
	for (unsigned i = 0; i < 4; i++)
		r->st[i] = t[i].u.stats;
	snprintf(r->msg, sizeof r->msg, "%s", d.msg);
	sim_tl_fini(&tl);
}

Test(threads, parts_watchdog_windows_apart, .timeout = 60)
{
	static const uint64_t windows[] = { UINT64_MAX, 1000, 64, 7 };
	for (int swap = 0; swap < 2; swap++)
		for (int wait = 0; wait < 2; wait++)
			for (int record = 0; record < 2; record++)
				for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
					toy_run a, b;
					toy_clock(false, swap, wait, record, windows[w], 100, &a);
					toy_clock(true, swap, wait, record, windows[w], 100, &b);
					char what[96];
					snprintf(what, sizeof what, "swap %d wait %d timeline %d window %llu", swap, wait, record,
					         (unsigned long long)windows[w]);
					cr_assert(b.threaded, "%s", what);
					cr_assert_eq(a.rr, SIM_RUN_WATCHDOG, "%s: %d", what, a.rr);
					cr_assert_eq(a.now, 39 * 37 + 100 + 1, "%s: %llu", what, (unsigned long long)a.now);
					cr_assert_eq(a.rr, b.rr, "%s: %d vs %d", what, a.rr, b.rr);
					cr_assert_eq(a.now, b.now, "%s: cycle %llu vs %llu", what, (unsigned long long)a.now,
					             (unsigned long long)b.now);
					cr_assert_str_eq(a.msg, b.msg, "%s", what);
					cr_assert(!memcmp(a.st, b.st, sizeof a.st), "%s: stats", what);
					cr_assert_eq(a.log.n, b.log.n, "%s: %zu vs %zu events", what, a.log.n, b.log.n);
					cr_assert(!a.log.n || !memcmp(a.log.ev, b.log.ev, a.log.n * sizeof *a.log.ev), "%s: events", what);
					/* one long window: the stallers' part stops where the watchdog
					 * could fire as far as it knows, the worker's part runs on; a
					 * second window brings the first there.  Waiting stallers
					 * sleep: both parts drain in the first, the one clock fires */
					if (windows[w] == UINT64_MAX && !record)
						cr_assert_eq(b.windows, wait ? 1 : 2, "%s: %llu windows", what,
						             (unsigned long long)b.windows);
					free(a.log.ev);
					free(b.log.ev);
				}
}

/* Without the watchdog (the stallers wait asleep: the run drains) the
 * parts of a long window meet once. */
Test(threads, parts_one_window_without_watchdog)
{
	toy_run a, b;
	toy_clock(false, false, true, false, UINT64_MAX, 0, &a);
	toy_clock(true, false, true, false, UINT64_MAX, 0, &b);
	cr_assert(b.threaded);
	cr_assert_eq(a.rr, SIM_RUN_DRAINED);
	cr_assert_eq(b.rr, SIM_RUN_DRAINED);
	cr_assert_eq(a.now, b.now);
	cr_assert(!memcmp(a.st, b.st, sizeof a.st));
	cr_assert_eq(b.windows, 1);
}

/* A unit that halts (an internal error) stops its own part at once; the
 * other part, busy for ever in one unbounded window, stops at the end of
 * its slice (65536 cycles) instead of running on for ever (not exact: the
 * one clock stops at the halt; how far the other part got depends on the
 * host's scheduling). */
Test(threads, parts_halt_stops_the_other, .timeout = 60)
{
	toy t[2];
	sim_clock c;
	sim_clock_init(&c, 0, NULL);
	for (unsigned i = 0; i < 2; i++) {
		t[i] = (toy){ .period = 1, .works = UINT32_MAX, .halt_at = i == 0 ? 1000 : 0 };
		sim_unit_init(&t[i].u, i ? "b" : "a", toy_tick, NULL, 0);
		t[i].u.wake = 0;
		cr_assert(sim_clock_add_unit(&c, &t[i].u));
	}
	sim_clock_parts ps = { .n = 2, .first = { 0, 1 }, .count = { 1, 1 } };
	sim_par_host host = { 0 };
	bool threaded = false;
	ulp_diag d;
	ulp_diag_clear(&d);
	const enum sim_run_result rr = sim_clock_run_parts(&c, &ps, UINT64_MAX, UINT64_MAX, &threaded, &host, &d);
	cr_assert(threaded);
	cr_assert_eq(rr, SIM_RUN_HALTED);
	cr_assert(t[0].u.halt);
	cr_assert_eq(host.windows, 1);
}
