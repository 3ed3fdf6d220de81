/* stats.txt: exact lines for a known run, toy units on a real clock,
 * per-draw sections, host figures only on request, the config dump,
 * determinism, and failures. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "sim/out/stats_txt.h"
#include "tests/test_util.h"

static const sim_counter_def COUNTERS[2] = {
	{ "instructions", "instructions issued" },
	{ "invocations", "vertex invocations completed" },
};

static void noop_tick(sim_unit *u, uint64_t now)
{
	(void)u;
	(void)now;
}

typedef struct files {
	char *dir, *path;
} files;

static void files_make(files *f, const char *name)
{
	f->dir = test_tmpdir();
	cr_assert(f->dir);
	size_t n = strlen(f->dir) + strlen(name) + 2;
	f->path = malloc(n);
	cr_assert(f->path);
	snprintf(f->path, n, "%s/%s", f->dir, name);
}

static void files_free(files *f)
{
	remove(f->path);
	rmdir(f->dir);
	free(f->path);
	free(f->dir);
}

static char *slurp(const char *path)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, NULL, &d);
	cr_assert(s, "%s", d.msg);
	return s;
}

/* The value on the line of statistic `name` ("" when absent). */
static const char *value_of(const char *s, const char *name, char *buf, size_t n)
{
	size_t k = strlen(name);
	buf[0] = '\0';
	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, name, k) == 0 && p[k] == ' ') {
			sscanf(p + k, "%63s", buf);
			(void)n;
			break;
		}
	}
	return buf;
}

static uint64_t u64_of(const char *s, const char *name)
{
	char buf[64];
	value_of(s, name, buf, sizeof buf);
	cr_assert(buf[0], "no statistic %s", name);
	return strtoull(buf, NULL, 10);
}

Test(stats_txt, exact_lines_for_a_known_run)
{
	sim_unit u;
	sim_unit_init(&u, "vsh0", noop_tick, COUNTERS, 2);
	u.stats.busy = 60;
	u.stats.stall[SIM_STALL_DEPENDENCY] = 25;
	u.stats.stall[SIM_STALL_FLOW] = 5;
	u.stats.counter[0] = 60;
	u.stats.counter[1] = 3;
	sim_unit *units[1] = { &u };
	files f;
	files_make(&f, "stats.txt");
	ulp_diag d;
	ulp_diag_clear(&d);
	stats_txt *st = stats_txt_open(f.path, units, 1, NULL, &d);
	cr_assert(st, "%s", d.msg);
	cr_assert(stats_txt_close(st, 120, 0.0, &d), "%s", d.msg);
	char *s = slurp(f.path);
	const char *want =
		"---------- Begin Simulation Statistics ----------\n"
		"sim.cycles                                                    120  # cycles simulated\n"
		"gpu.vsh0.busy_cycles                                           60  # cycles doing useful work\n"
		"gpu.vsh0.stall_cycles::output_full                              0  # stalled: the downstream port was full (backpressure)\n"
		"gpu.vsh0.stall_cycles::dependency                              25  # stalled: an operand was not ready (result latency)\n"
		"gpu.vsh0.stall_cycles::flow                                     5  # stalled: flow-control bubble (branch, call, loop)\n"
		"gpu.vsh0.stall_cycles::hazard                                   0  # stalled: structural or address hazard (e.g. MOVA then use)\n"
		"gpu.vsh0.stall_cycles::window                                   0  # stalled: the in-flight window was full\n"
		"gpu.vsh0.stall_cycles::memory                                   0  # stalled: waiting for a memory or texture fetch\n"
		"gpu.vsh0.stall_cycles::total                                   30  # stalled, all causes\n"
		"gpu.vsh0.idle_cycles                                           30  # neither busy nor stalled\n"
		"gpu.vsh0.utilization                                     0.500000  # busy_cycles / sim.cycles\n"
		"gpu.vsh0.instructions                                          60  # instructions issued\n"
		"gpu.vsh0.invocations                                            3  # vertex invocations completed\n"
		"---------- End Simulation Statistics   ----------\n";
	cr_assert_str_eq(s, want);
	free(s);
	files_free(&f);
}

/* ---- toy units on a real clock: a producer and a slow consumer ---- */

typedef struct toy_src {
	sim_unit u;
	sim_port *out;
	unsigned left;
} toy_src;

typedef struct toy_snk {
	sim_unit u;
	sim_port *in;
	unsigned rest;
} toy_snk;

static void src_tick(sim_unit *u, uint64_t now)
{
	toy_src *s = (toy_src *)u;
	if (!s->left)
		return;
	unsigned v = s->left;
	if (sim_port_full(s->out)) {
		sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
	} else {
		sim_port_push(s->out, &v, now);
		sim_unit_busy(u);
		sim_unit_count(u, 0, 1);
		s->left--;
	}
	if (s->left)
		sim_unit_sleep_until(u, now + 1);
}

static void snk_tick(sim_unit *u, uint64_t now)
{
	toy_snk *k = (toy_snk *)u;
	if (k->rest) {
		k->rest--;
		sim_unit_busy(u);
		sim_unit_sleep_until(u, now + 1);
		return;
	}
	if (sim_port_peek(k->in, now)) {
		sim_port_pop(k->in, now);
		sim_unit_busy(u);
		sim_unit_count(u, 0, 1);   /* its only counter: invocations */
		k->rest = 2;
		sim_unit_sleep_until(u, now + 1);
	}
	uint64_t r = sim_port_next_ready(k->in);
	if (!k->rest && r != UINT64_MAX)
		sim_unit_wake(u, r > now ? r : now + 1);
}

typedef struct toy {
	sim_clock clock;
	sim_port port;
	toy_src src;
	toy_snk snk;
} toy;

static void toy_init(toy *t)
{
	memset(t, 0, sizeof *t);
	sim_clock_init(&t->clock, 1000, NULL);
	sim_unit_init(&t->src.u, "src", src_tick, COUNTERS, 1);
	sim_unit_init(&t->snk.u, "snk", snk_tick, COUNTERS + 1, 1);
	cr_assert(sim_port_init(&t->port, "src->snk", sizeof(unsigned), 1, 1, &t->snk.u));
	t->src.out = &t->port;
	t->snk.in = &t->port;
	cr_assert(sim_clock_add_unit(&t->clock, &t->snk.u));
	cr_assert(sim_clock_add_unit(&t->clock, &t->src.u));
}

/* Feed `items` starting now and run until drained. */
static void toy_batch(toy *t, unsigned items)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	t->src.left = items;
	sim_unit_wake(&t->src.u, t->clock.now);
	cr_assert_eq(sim_clock_run(&t->clock, UINT64_MAX, &d), SIM_RUN_DRAINED, "%s", d.msg);
}

Test(stats_txt, toy_run_matches_unit_stats)
{
	toy t;
	toy_init(&t);
	toy_batch(&t, 5);
	files f;
	files_make(&f, "stats.txt");
	ulp_diag d;
	ulp_diag_clear(&d);
	stats_txt_opts o = { .prefix = "gr3d", .silicon_mhz = 100 };
	cr_assert(stats_txt_write_clock(f.path, &t.clock, &o, 0.0, &d), "%s", d.msg);
	char *s = slurp(f.path);
	cr_assert_eq(u64_of(s, "sim.cycles"), t.clock.now);
	cr_assert_eq(u64_of(s, "gr3d.src.busy_cycles"), 5);
	cr_assert_eq(u64_of(s, "gr3d.src.stall_cycles::output_full"),
	             t.src.u.stats.stall[SIM_STALL_OUTPUT_FULL]);
	cr_assert_gt(t.src.u.stats.stall[SIM_STALL_OUTPUT_FULL], 0);
	cr_assert_eq(u64_of(s, "gr3d.snk.busy_cycles"), 15, "3 cycles per item");
	cr_assert_eq(u64_of(s, "gr3d.snk.idle_cycles"), sim_unit_idle(&t.clock, &t.snk.u));
	cr_assert_eq(u64_of(s, "gr3d.src.idle_cycles"), sim_unit_idle(&t.clock, &t.src.u));
	cr_assert_eq(u64_of(s, "gr3d.src.instructions"), 5);
	cr_assert_eq(u64_of(s, "gr3d.snk.invocations"), 5);
	char buf[64];
	char want[64];
	snprintf(want, sizeof want, "%.9f", (double)t.clock.now / 100e6);
	cr_assert_str_eq(value_of(s, "sim.seconds", buf, sizeof buf), want);
	cr_assert_null(strstr(s, "host_seconds"), "no host figures unless asked");
	free(s);
	sim_port_fini(&t.port);
	files_free(&f);
}

Test(stats_txt, per_draw_sections_sum_to_totals)
{
	toy t;
	toy_init(&t);
	files f;
	files_make(&f, "stats.txt");
	ulp_diag d;
	ulp_diag_clear(&d);
	stats_txt *st = stats_txt_open(f.path, t.clock.unit, t.clock.nunits, NULL, &d);
	cr_assert(st, "%s", d.msg);
	cr_assert(stats_txt_begin_draw(st, t.clock.now, &d));
	toy_batch(&t, 2);
	cr_assert(stats_txt_end_draw(st, t.clock.now, &d), "%s", d.msg);
	uint64_t mid = t.clock.now;
	cr_assert(stats_txt_begin_draw(st, t.clock.now, &d));
	toy_batch(&t, 3);
	cr_assert(stats_txt_end_draw(st, t.clock.now, &d), "%s", d.msg);
	cr_assert(stats_txt_close(st, t.clock.now, 0.0, &d), "%s", d.msg);
	char *s = slurp(f.path);
	cr_assert_eq(u64_of(s, "draw0.sim.cycles"), mid);
	cr_assert_eq(u64_of(s, "draw1.sim.cycles"), t.clock.now - mid);
	cr_assert_eq(u64_of(s, "draw0.gpu.snk.busy_cycles"), 6);
	cr_assert_eq(u64_of(s, "draw1.gpu.snk.busy_cycles"), 9);
	cr_assert_eq(u64_of(s, "draw0.gpu.src.instructions") + u64_of(s, "draw1.gpu.src.instructions"),
	             u64_of(s, "gpu.src.instructions"));
	cr_assert_eq(u64_of(s, "draw0.gpu.src.stall_cycles::output_full") +
	             u64_of(s, "draw1.gpu.src.stall_cycles::output_full"),
	             u64_of(s, "gpu.src.stall_cycles::output_full"));
	/* the draws come after the totals, inside Begin/End */
	const char *tot = strstr(s, "\ngpu.src.busy_cycles"), *d0 = strstr(s, "\ndraw0.sim.cycles"),
	           *d1 = strstr(s, "\ndraw1.sim.cycles"), *end = strstr(s, "---------- End");
	cr_assert(tot && d0 && d1 && end);
	cr_assert(tot < d0 && d0 < d1 && d1 < end);
	free(s);
	/* misuse is an error, not a crash */
	st = stats_txt_open(f.path, t.clock.unit, t.clock.nunits, NULL, &d);
	cr_assert(st);
	cr_assert_not(stats_txt_end_draw(st, 0, &d));
	cr_assert(strstr(d.msg, "end_draw without begin_draw"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert(stats_txt_begin_draw(st, 0, &d));
	cr_assert_not(stats_txt_begin_draw(st, 0, &d));
	stats_txt_abort(st);
	sim_port_fini(&t.port);
	files_free(&f);
}

Test(stats_txt, host_figures_only_when_asked)
{
	sim_unit u;
	sim_unit_init(&u, "vsh0", noop_tick, NULL, 0);
	u.stats.busy = 10;
	sim_unit *units[1] = { &u };
	files f;
	files_make(&f, "stats.txt");
	ulp_diag d;
	ulp_diag_clear(&d);
	stats_txt_opts o = { .host = true, .silicon_mhz = 268 };
	stats_txt *st = stats_txt_open(f.path, units, 1, &o, &d);
	cr_assert(st);
	cr_assert(stats_txt_close(st, 268000000, 4.0, &d), "%s", d.msg);
	char *s = slurp(f.path), buf[64];
	cr_assert_str_eq(value_of(s, "host_seconds", buf, sizeof buf), "4.000000");
	cr_assert_str_eq(value_of(s, "sim_cycles_per_s", buf, sizeof buf), "67000000.000000");
	cr_assert_str_eq(value_of(s, "silicon_slowdown", buf, sizeof buf), "4.000000",
	                 "one simulated second took four host seconds");
	cr_assert_str_eq(value_of(s, "sim.seconds", buf, sizeof buf), "1.000000000");
	free(s);
	files_free(&f);
}

Test(stats_txt, config_dump_follows_and_runs_are_identical)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	char *out[2];
	for (int r = 0; r < 2; r++) {
		toy t;
		toy_init(&t);
		toy_batch(&t, 4);
		files f;
		files_make(&f, "stats.txt");
		ulp_diag d;
		ulp_diag_clear(&d);
		stats_txt_opts o = { .cfg = &cfg, .silicon_mhz = 268 };
		cr_assert(stats_txt_write_clock(f.path, &t.clock, &o, 1.5, &d), "%s", d.msg);
		out[r] = slurp(f.path);
		sim_port_fini(&t.port);
		files_free(&f);
	}
	cr_assert_str_eq(out[0], out[1], "byte-identical");
	const char *end = strstr(out[0], "---------- End Simulation Statistics   ----------\n");
	cr_assert(end);
	cJSON *cj = cJSON_Parse(end + strlen("---------- End Simulation Statistics   ----------\n"));
	cr_assert(cj, "the config after End is JSON");
	const cJSON *pica = cJSON_GetObjectItem(cj, "pica");
	cr_assert(cJSON_IsObject(pica));
	cr_assert_eq(cJSON_GetObjectItem(pica, "clock_mhz")->valuedouble, 268);
	cJSON_Delete(cj);
	free(out[0]);
	free(out[1]);
}

Test(stats_txt, failures_leave_no_file)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	sim_unit u;
	sim_unit_init(&u, "vsh0", noop_tick, NULL, 0);
	sim_unit *units[1] = { &u };
	cr_assert_null(stats_txt_open("/nonexistent-ulpsim/stats.txt", units, 1, NULL, &d));
	cr_assert(d.set);
	cr_assert(strstr(d.msg, "cannot create output"), "%s", d.msg);
	files f;
	files_make(&f, "stats.txt");
	ulp_diag_clear(&d);
	stats_txt *st = stats_txt_open(f.path, units, 1, NULL, &d);
	cr_assert(st);
	stats_txt_abort(st);   /* a failed run */
	cr_assert_neq(access(f.path, F_OK), 0);
	cr_assert_eq(rmdir(f.dir), 0, "no temp file left either");
	free(f.path);
	free(f.dir);
}
