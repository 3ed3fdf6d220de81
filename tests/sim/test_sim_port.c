/* sim_port's dated pop (sim_port_pop_at): the slot held until its cycle,
 * what a pop in a tick at that cycle leaves, on its own and on a clock. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "sim/core/clock.h"

static void nop_tick(sim_unit *u, uint64_t now)
{
	(void)u;
	(void)now;
}

Test(sim_port, dated_pop_holds_its_slot_until_its_cycle)
{
	sim_clock c;
	sim_unit prod;
	sim_port p;
	sim_clock_init(&c, 0, NULL);
	sim_unit_init(&prod, "producer", nop_tick, NULL, 0);
	cr_assert(sim_clock_add_unit(&c, &prod));
	cr_assert(sim_port_init(&p, "p", sizeof(unsigned), 2, 1, NULL));
	p.producer = &prod;
	unsigned a = 1, b = 2, x = 3;
	sim_port_push(&p, &a, 0);
	sim_port_push(&p, &b, 0);
	cr_assert_eq(p.max_count, 2);
	/* at cycle 4 the consumer takes a, dated 5 */
	cr_assert_eq(*(unsigned *)sim_port_peek(&p, 4), 1);
	sim_port_pop_at(&p, 5);
	cr_assert_eq(*(unsigned *)sim_port_peek(&p, 4), 2, "the next item at once");
	cr_assert_eq(p.count, 1);
	cr_assert_eq(sim_port_held(&p, 4), 2, "a's slot held before 5");
	cr_assert(sim_port_full_at(&p, 4));
	cr_assert_not(sim_port_full_at(&p, 5), "free at 5");
	cr_assert_eq(sim_port_held(&p, 5), 1);
	cr_assert_eq(sim_port_pop_due(&p, 4), 5);
	cr_assert_eq(sim_port_pop_due(&p, 5), UINT64_MAX);
	cr_assert_eq(prod.wake, 5, "the producer woken at the pop's cycle");
	cr_assert_eq(c.next, 5);
	cr_assert(c.wheel.slot[5 % SIM_WHEEL_SLOTS] & prod.sched_bit, "in the slot of cycle 5");
	/* a push at 5 fills the slot: two held, the high-water mark stays 2 */
	sim_port_push_held(&p, &x, sizeof x, 5);
	cr_assert_eq(p.max_count, 2);
	cr_assert(sim_port_full_at(&p, 5));
	cr_assert_eq(*(unsigned *)sim_port_peek(&p, 5), 2);
	sim_port_pop(&p, 5);
	cr_assert_eq(*(unsigned *)sim_port_peek(&p, 6), 3);
	sim_port_reset(&p);
	cr_assert_eq(p.pop_due, 0);
	cr_assert_eq(sim_port_held(&p, 0), 0);
	cr_assert_not(sim_port_full_at(&p, 0));
	sim_port_fini(&p);
}

Test(sim_port, a_held_slot_counts_in_the_high_water_mark)
{
	sim_port p;
	cr_assert(sim_port_init(&p, "p", sizeof(unsigned), 4, 1, NULL));
	unsigned v = 0;
	sim_port_push_held(&p, &v, sizeof v, 0);
	sim_port_push_held(&p, &v, sizeof v, 0);
	cr_assert_eq(p.max_count, 2);
	sim_port_pop_at(&p, 8);              /* no producer named: nothing to wake */
	sim_port_push_held(&p, &v, sizeof v, 3);   /* 2 items and the held slot */
	cr_assert_eq(p.max_count, 3, "a tick's pop at 8 would leave three items at 3");
	sim_port_pop(&p, 8);
	sim_port_pop(&p, 8);
	sim_port_push_held(&p, &v, sizeof v, 8);   /* the held slot is free at 8 */
	cr_assert_eq(p.max_count, 3);
	cr_assert_eq(sim_port_held(&p, 8), 1);
	sim_port_fini(&p);
}

/* A producer pushing one item a cycle, waiting on a full port (with
 * sim_port_full_at and a wake at a dated pop's cycle, as vertex fetch), and
 * a consumer that works `period` cycles on each item: it takes it in a
 * tick, sleeps through the work (booked busy) and finishes it in a tick;
 * the next item is taken by a tick the cycle after (dated false) or, when
 * it is in the port already, by the finishing tick with a pop dated the
 * cycle after (dated true), as a booked PICA200 shader unit does. */
typedef struct d_src {
	sim_unit u;
	sim_port *out;
	unsigned left, id;
} d_src;

typedef struct d_sink {
	sim_unit u;
	sim_port *in;
	unsigned period, got, ndated;
	bool dated, working;
	uint64_t got_at[64];
	unsigned got_id[64];
} d_sink;

static void d_src_tick(sim_unit *u, uint64_t now)
{
	d_src *s = (d_src *)u;
	sim_unit_wait_settle(u, now);
	if (!s->left)
		return;
	if (sim_port_full_at(s->out, now)) {
		s->out->producer = u;
		sim_unit_stall_wait(u, now, SIM_STALL_OUTPUT_FULL);
		sim_unit_wake(u, sim_port_pop_due(s->out, now));
		return;
	}
	sim_port_push_held(s->out, &s->id, sizeof s->id, now);
	s->id++;
	s->left--;
	sim_unit_busy(u);
	sim_unit_sleep_until(u, now + 1);
}

/* The item id taken at cycle at: worked on until at + period - 1. */
static void d_start(d_sink *k, uint64_t at, unsigned id)
{
	if (k->got < 64) {
		k->got_at[k->got] = at;
		k->got_id[k->got] = id;
	}
	k->got++;
	k->working = true;
	k->u.stats.busy += k->period - 2;      /* cycles at + 1 .. at + period - 2 */
	sim_unit_sleep_through(&k->u, at + k->period - 1);
}

static void d_sink_tick(sim_unit *u, uint64_t now)
{
	d_sink *k = (d_sink *)u;
	sim_unit_busy(u);
	if (k->working) {                       /* the item's last cycle */
		k->working = false;
		sim_unit_sleep_until(u, now + 1);
		const unsigned *item = k->dated ? sim_port_peek(k->in, now + 1) : NULL;
		if (item) {                     /* the next one, dated now + 1 */
			const unsigned id = *item;
			sim_port_pop_at(k->in, now + 1);
			u->stats.busy++;        /* cycle now + 1, its tick's */
			k->ndated++;
			d_start(k, now + 1, id);
		}
		return;
	}
	const unsigned *item = sim_port_peek(k->in, now);
	if (!item) {
		u->activity = SIM_ACT_IDLE;
		const uint64_t r = sim_port_next_ready(k->in);
		if (r != UINT64_MAX)
			sim_unit_wake(u, r);
		return;
	}
	const unsigned id = *item;
	sim_port_pop(k->in, now);
	d_start(k, now, id);
}

typedef struct d_result {
	d_sink k;
	d_src s;
	uint64_t now;
	uint32_t max_count, held;
	enum sim_run_result rr;
} d_result;

static void d_run(d_result *r, bool dated, unsigned period, uint32_t cap, uint32_t lat,
                  unsigned items, uint64_t until)
{
	sim_clock c;
	sim_port p;
	ulp_diag d;
	ulp_diag_clear(&d);
	memset(r, 0, sizeof *r);
	sim_clock_init(&c, 0, NULL);
	sim_unit_init(&r->k.u, "sink", d_sink_tick, NULL, 0);
	sim_unit_init(&r->s.u, "source", d_src_tick, NULL, 0);
	cr_assert(sim_port_init(&p, "source->sink", sizeof(unsigned), cap, lat, &r->k.u));
	r->k.in = &p;
	r->k.period = period;
	r->k.dated = dated;
	r->s.out = &p;
	r->s.left = items;
	cr_assert(sim_clock_add_unit(&c, &r->k.u));   /* consumer first */
	cr_assert(sim_clock_add_unit(&c, &r->s.u));
	cr_assert(sim_clock_add_port(&c, &p));
	sim_unit_wake(&r->s.u, 0);
	r->rr = sim_clock_run(&c, until, &d);
	r->now = c.now;
	r->max_count = p.max_count;
	r->held = sim_port_held(&p, c.now - 1);
	sim_port_fini(&p);
}

Test(sim_port, dated_pops_give_what_ticking_pops_give)
{
	static const unsigned periods[] = { 2, 3, 5 };
	unsigned dated_total = 0;
	for (uint32_t cap = 1; cap <= 3; cap++)
		for (uint32_t lat = 1; lat <= 2; lat++)
			for (unsigned pi = 0; pi < 3; pi++) {
				const unsigned period = periods[pi];
				d_result a, b;
				d_run(&a, false, period, cap, lat, 40, UINT64_MAX);
				d_run(&b, true, period, cap, lat, 40, UINT64_MAX);
				#define WHAT "cap %u lat %u period %u", cap, lat, period
				cr_assert_eq(a.rr, SIM_RUN_DRAINED);
				cr_assert_eq(b.rr, SIM_RUN_DRAINED);
				cr_assert_eq(b.k.got, 40, WHAT);
				cr_assert_eq(b.k.got, a.k.got);
				for (unsigned i = 0; i < 40; i++) {
					cr_assert_eq(b.k.got_at[i], a.k.got_at[i], WHAT);
					cr_assert_eq(b.k.got_id[i], a.k.got_id[i]);
				}
				cr_assert_eq(b.now, a.now, WHAT);
				cr_assert_eq(b.max_count, a.max_count, WHAT);
				cr_assert_eq(b.k.u.stats.busy, a.k.u.stats.busy, WHAT);
				cr_assert_eq(b.s.u.stats.busy, a.s.u.stats.busy);
				cr_assert_eq(b.s.u.stats.stall[SIM_STALL_OUTPUT_FULL],
				             a.s.u.stats.stall[SIM_STALL_OUTPUT_FULL], WHAT);
				dated_total += b.k.ndated;
				/* stopped part-way: the producer's figures and what the
				 * port holds in the last cycle are the same */
				for (uint64_t until = 3; until < 40; until += 3) {
					d_run(&a, false, period, cap, lat, 40, until);
					d_run(&b, true, period, cap, lat, 40, until);
					cr_assert_eq(b.now, a.now);
					cr_assert_eq(b.held, a.held, WHAT);
					cr_assert_eq(b.max_count, a.max_count);
					cr_assert_eq(b.s.u.stats.busy, a.s.u.stats.busy);
					cr_assert_eq(b.s.u.stats.stall[SIM_STALL_OUTPUT_FULL],
					             a.s.u.stats.stall[SIM_STALL_OUTPUT_FULL],
					             "until %llu", (unsigned long long)until);
				}
			}
	cr_assert_gt(dated_total, 100, "the dated path ran (%u pops)", dated_total);
}

/* The watchdog's report while a dated pop holds its slot: the port shows
 * it held, as with the pop still to come in a tick. */
static void late_tick(sim_unit *u, uint64_t now)
{
	(void)u;
	(void)now;
}

Test(sim_port, the_watchdog_reports_a_held_slot)
{
	char msg[2][ULP_DIAG_MSG_MAX];
	for (int k = 0; k < 2; k++) {
		sim_clock c;
		sim_port p;
		d_src s;
		sim_unit late;
		memset(&s, 0, sizeof s);
		ulp_diag d;
		ulp_diag_clear(&d);
		sim_clock_init(&c, 20, NULL);
		sim_unit_init(&late, "late", late_tick, NULL, 0);
		sim_unit_init(&s.u, "source", d_src_tick, NULL, 0);
		cr_assert(sim_port_init(&p, "source->late", sizeof(unsigned), 1, 1, &late));
		s.out = &p;
		s.left = 3;
		sim_clock_add_unit(&c, &late);
		sim_clock_add_unit(&c, &s.u);
		sim_clock_add_port(&c, &p);
		unsigned x = 9;
		sim_port_push(&p, &x, 0);
		if (k == 1)                     /* taken, its slot held until 100 */
			sim_port_pop_at(&p, 100);
		sim_unit_sleep_through(&late, 100);
		sim_unit_wake(&s.u, 5);
		cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_WATCHDOG);
		snprintf(msg[k], sizeof msg[k], "%s", d.msg);
		sim_port_fini(&p);
	}
	cr_assert_str_eq(msg[1], msg[0]);
	cr_assert(strstr(msg[1], "port source->late 1/1"), "%s", msg[1]);
}
