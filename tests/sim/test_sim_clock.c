/* sim/clock, sim/port, sim/timeline on toy units with hand-computed timing. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/core/clock.h"
#include "sim/core/stage.h"

/* A source that pushes `left` items, one per cycle, starting at `start`. */
typedef struct toy_source {
	sim_unit u;
	sim_port *out;
	unsigned left, next_id;
	bool wait;                 /* sleep on a full port (sim_unit_wait) instead of polling */
	bool wait_at_push;         /* and when a push fills it, wait from the next cycle */
	unsigned ticks;
} toy_source;

/* A sink that takes one visible item, then rests `period - 1` cycles. */
typedef struct toy_sink {
	sim_unit u;
	sim_port *in;
	unsigned period, rest, got;
	uint64_t got_at[16];
} toy_sink;

static void source_tick(sim_unit *u, uint64_t now)
{
	toy_source *s = (toy_source *)u;
	s->ticks++;
	sim_unit_wait_settle(u, now);
	if (!s->left)
		return;
	if (sim_port_full(s->out)) {
		sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
		if (s->wait) {
			sim_unit_wait(u, now, SIM_STALL_OUTPUT_FULL);
			return;
		}
	} else {
		unsigned id = s->next_id++;
		sim_port_push(s->out, &id, now);
		sim_unit_busy(u);
		s->left--;
		if (s->wait_at_push && s->left && sim_port_full(s->out)) {
			sim_unit_wait(u, now, SIM_STALL_OUTPUT_FULL);   /* busy now, its lane stalled after */
			return;
		}
	}
	if (s->left)
		sim_unit_sleep_until(u, now + 1);
}

static void sink_tick(sim_unit *u, uint64_t now)
{
	toy_sink *k = (toy_sink *)u;
	if (k->rest) {
		k->rest--;
		sim_unit_busy(u);
		sim_unit_sleep_until(u, now + 1);
		return;
	}
	unsigned *item = sim_port_peek(k->in, now);
	if (item) {
		if (k->got < 16)
			k->got_at[k->got] = now;
		k->got++;
		sim_port_pop(k->in, now);   /* wakes the port's producer, if it names one */
		sim_unit_busy(u);
		k->rest = k->period - 1;
		if (k->rest)
			sim_unit_sleep_until(u, now + 1);
	}
	uint64_t r = sim_port_next_ready(k->in);
	if (!k->rest && r != UINT64_MAX)
		sim_unit_wake(u, r > now ? r : now + 1);
}

typedef struct toy {
	sim_clock clock;
	sim_port port;
	toy_source src;
	toy_sink sink;
} toy;

static void toy_build(toy *t, unsigned items, uint32_t cap, uint32_t lat, unsigned period,
                      uint64_t start, sim_timeline *tl)
{
	memset(t, 0, sizeof *t);
	sim_clock_init(&t->clock, 1000, tl);
	sim_unit_init(&t->src.u, "source", source_tick, NULL, 0);
	sim_unit_init(&t->sink.u, "sink", sink_tick, NULL, 0);
	cr_assert(sim_port_init(&t->port, "source->sink", sizeof(unsigned), cap, lat, &t->sink.u));
	t->src.out = &t->port;
	t->src.left = items;
	t->sink.in = &t->port;
	t->sink.period = period;
	/* consumers first: a pop frees a slot the producer can use this cycle */
	cr_assert(sim_clock_add_unit(&t->clock, &t->sink.u));
	cr_assert(sim_clock_add_unit(&t->clock, &t->src.u));
	cr_assert(sim_clock_add_port(&t->clock, &t->port));
	sim_unit_wake(&t->src.u, start);
}

Test(sim_clock, latency_and_skip_ahead)
{
	toy t;
	ulp_diag d;
	ulp_diag_clear(&d);
	toy_build(&t, 1, 4, 3, 1, 1000, NULL);
	cr_assert_eq(sim_clock_run(&t.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(t.sink.got, 1);
	cr_assert_eq(t.sink.got_at[0], 1003, "pushed at 1000, latency 3");
	cr_assert_eq(t.src.u.stats.busy, 1);
	cr_assert_eq(t.sink.u.stats.busy, 1, "the sink was not ticked while waiting");
	cr_assert_eq(t.clock.now, 1004);
	cr_assert_eq(sim_unit_idle(&t.clock, &t.sink.u), 1003);
	sim_port_fini(&t.port);
}

Test(sim_clock, backpressure_counts_stalls)
{
	/* capacity 1, latency 1, the sink takes one item every 4 cycles:
	 * pushes at 0, 2, 6, 10 (the slot frees when the sink pops at 1, 5, 9). */
	toy t;
	ulp_diag d;
	ulp_diag_clear(&d);
	toy_build(&t, 4, 1, 1, 4, 0, NULL);
	cr_assert_eq(sim_clock_run(&t.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(t.sink.got, 4);
	uint64_t want[4] = { 1, 5, 9, 13 };
	for (int i = 0; i < 4; i++)
		cr_assert_eq(t.sink.got_at[i], want[i], "item %d at %llu", i,
		             (unsigned long long)t.sink.got_at[i]);
	cr_assert_eq(t.src.u.stats.busy, 4);
	cr_assert_eq(t.src.u.stats.stall[SIM_STALL_OUTPUT_FULL], 6, "stalled 1 + 3 + 3 - 1 cycles");
	cr_assert_eq(t.port.max_count, 1);
	sim_port_fini(&t.port);
}

/* sim_unit_wait: the source sleeps on the full port until the sink's pop
 * wakes it; the same pushes and stall cycles as polling, fewer ticks. */
Test(sim_clock, waiting_books_the_same_stalls_as_polling)
{
	toy poll, wait;
	ulp_diag d;
	ulp_diag_clear(&d);
	toy_build(&poll, 4, 1, 1, 4, 0, NULL);
	toy_build(&wait, 4, 1, 1, 4, 0, NULL);
	wait.src.wait = true;
	wait.port.producer = &wait.src.u;   /* the sink's pop wakes the source */
	cr_assert_eq(sim_clock_run(&poll.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(sim_clock_run(&wait.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(wait.sink.got_at[i], poll.sink.got_at[i], "item %d", i);
	cr_assert_eq(wait.src.u.stats.stall[SIM_STALL_OUTPUT_FULL], 6);
	cr_assert_eq(wait.src.u.stats.busy, 4);
	cr_assert_eq(wait.clock.now, poll.clock.now);
	cr_assert_lt(wait.src.ticks, poll.src.ticks, "%u vs %u ticks", wait.src.ticks, poll.src.ticks);
	sim_port_fini(&poll.port);
	sim_port_fini(&wait.port);
}

/* Nobody ever pops: the polling source and the waiting one stop the run
 * with the same watchdog report, at the same cycle, with the same stalls. */
Test(sim_clock, watchdog_sees_a_waiting_unit)
{
	char msg[2][ULP_DIAG_MSG_MAX];
	uint64_t stall[2], now[2];
	for (int k = 0; k < 2; k++) {
		sim_clock c;
		sim_port p;
		toy_source s;
		memset(&s, 0, sizeof s);
		ulp_diag d;
		ulp_diag_clear(&d);
		sim_clock_init(&c, 20, NULL);
		sim_unit_init(&s.u, "source", source_tick, NULL, 0);
		cr_assert(sim_port_init(&p, "source->none", sizeof(unsigned), 1, 1, NULL));
		s.out = &p;
		s.left = 3;
		s.wait = k == 1;
		sim_clock_add_unit(&c, &s.u);
		sim_clock_add_port(&c, &p);
		sim_unit_wake(&s.u, 5);
		cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_WATCHDOG);
		snprintf(msg[k], sizeof msg[k], "%s", d.msg);
		stall[k] = s.u.stats.stall[SIM_STALL_OUTPUT_FULL];
		now[k] = c.now;
		sim_port_fini(&p);
	}
	cr_assert_str_eq(msg[1], msg[0]);
	cr_assert(strstr(msg[1], "source stall:output_full"), "%s", msg[1]);
	cr_assert_eq(stall[1], stall[0]);
	cr_assert_eq(now[1], now[0]);
	cr_assert_eq(now[0], 5 + 20 + 1, "last progress at 5, fires at 25");
}

static void stuck_tick(sim_unit *u, uint64_t now)
{
	u->has_pc = true;
	u->debug_pc = 0x2a;
	sim_unit_stall(u, SIM_STALL_DEPENDENCY);
	sim_unit_sleep_until(u, now + 1);
}

Test(sim_clock, watchdog_names_unit_pc_and_port)
{
	sim_clock c;
	sim_unit u;
	sim_port p;
	ulp_diag d;
	ulp_diag_clear(&d);
	sim_clock_init(&c, 50, NULL);
	sim_unit_init(&u, "vsh0", stuck_tick, NULL, 0);
	cr_assert(sim_port_init(&p, "vsh0->pa", 4, 2, 1, NULL));
	unsigned x = 7;
	sim_port_push(&p, &x, 0);
	sim_clock_add_unit(&c, &u);
	sim_clock_add_port(&c, &p);
	sim_unit_wake(&u, 0);
	cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_WATCHDOG);
	cr_assert(d.set);
	cr_assert(strstr(d.msg, "vsh0 stall:dependency pc 0x2a"), "%s", d.msg);
	cr_assert(strstr(d.msg, "port vsh0->pa 1/2"), "%s", d.msg);
	cr_assert_eq(u.stats.stall[SIM_STALL_DEPENDENCY], 51);
	sim_port_fini(&p);
}

typedef struct tl_capture {
	sim_tl_event ev[256];
	size_t n;
} tl_capture;

static bool capture_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	tl_capture *c = ctx;
	for (size_t i = 0; i < n && c->n < 256; i++)
		c->ev[c->n++] = ev[i];
	return true;
}

Test(sim_clock, timeline_activity_spans)
{
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	tl_capture *cap = calloc(1, sizeof *cap);
	sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = cap, .write = capture_write });
	tl.enabled = true;
	toy t;
	ulp_diag d;
	ulp_diag_clear(&d);
	toy_build(&t, 1, 4, 3, 1, 10, &tl);
	cr_assert_eq(sim_clock_run(&t.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	sim_clock_finish(&t.clock);
	/* source busy [10,11), sink busy [13,14): four activity changes */
	cr_assert_eq(cap->n, 4);
	uint16_t src = t.src.u.lane, snk = t.sink.u.lane;
	cr_assert_neq(src, snk);
	cr_assert_str_eq(tl.lane_name[src], "source");
	struct { uint64_t cycle; uint16_t lane; uint32_t act; } want[4] = {
		{ 10, src, SIM_ACT_BUSY }, { 11, src, SIM_ACT_IDLE },
		{ 13, snk, SIM_ACT_BUSY }, { 14, snk, SIM_ACT_IDLE },
	};
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(cap->ev[i].cycle, want[i].cycle, "event %d", i);
		cr_assert_eq(cap->ev[i].lane, want[i].lane, "event %d", i);
		cr_assert_eq(cap->ev[i].arg, want[i].act, "event %d", i);
	}
	/* the cycle window filters */
	tl.from = 100;
	sim_tl_emit(&tl, 50, 0, SIM_TL_INSTANT, 1, 2);
	sim_tl_flush(&tl);
	cr_assert_eq(cap->n, 4);
	sim_tl_fini(&tl);
	free(cap);
	sim_port_fini(&t.port);
}

/* A sink that takes an item, then sleeps through the next 5 cycles: pushes
 * in between must not tick it (sim_unit_sleep_through). */
typedef struct toy_slow {
	sim_unit u;
	sim_port *in;
	unsigned ticks, got;
	uint64_t got_at[4];
} toy_slow;

static void slow_tick(sim_unit *u, uint64_t now)
{
	toy_slow *k = (toy_slow *)u;
	k->ticks++;
	unsigned *item = sim_port_peek(k->in, now);
	if (item) {
		if (k->got < 4)
			k->got_at[k->got] = now;
		k->got++;
		sim_port_pop(k->in, now);
		sim_unit_busy(u);
		sim_unit_sleep_through(u, now + 5);
		return;
	}
	uint64_t r = sim_port_next_ready(k->in);
	if (r != UINT64_MAX)
		sim_unit_wake(u, r);
}

/* A pass in step order: a unit with no wake does not tick; one later in the
 * order woken during the pass ticks in that same cycle; one earlier in the
 * order ticks in the next (the pass scans from the first unit with a wake
 * to the last, whose end it reads again after each tick). */
typedef struct toy_waker {
	sim_unit u;
	sim_unit *later, *earlier;
	unsigned ticks;
	uint64_t at[4];
} toy_waker;

static void waker_tick(sim_unit *u, uint64_t now)
{
	toy_waker *w = (toy_waker *)u;
	if (w->ticks < 4)
		w->at[w->ticks] = now;
	w->ticks++;
	sim_unit_busy(u);
	if (w->later)
		sim_unit_wake(w->later, now);
	if (w->earlier)
		sim_unit_wake(w->earlier, now);
}

Test(sim_clock, a_pass_ticks_later_wakes_now_and_earlier_ones_next)
{
	sim_clock c;
	toy_waker a, b, d;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&d, 0, sizeof d);
	sim_clock_init(&c, 1000, NULL);
	sim_unit_init(&a.u, "a", waker_tick, NULL, 0);
	sim_unit_init(&b.u, "b", waker_tick, NULL, 0);
	sim_unit_init(&d.u, "d", waker_tick, NULL, 0);
	b.later = &d.u;                /* b, second in the order, wakes d (third) and a (first) */
	b.earlier = &a.u;
	cr_assert(sim_clock_add_unit(&c, &a.u));
	cr_assert(sim_clock_add_unit(&c, &b.u));
	cr_assert(sim_clock_add_unit(&c, &d.u));
	sim_unit_wake(&b.u, 5);
	ulp_diag diag;
	ulp_diag_clear(&diag);
	cr_assert_eq(sim_clock_run(&c, 100, &diag), SIM_RUN_DRAINED);
	cr_assert_eq(b.ticks, 1u);
	cr_assert_eq(b.at[0], 5u);
	cr_assert_eq(d.ticks, 1u, "d ticks once");
	cr_assert_eq(d.at[0], 5u, "d, later in the order, ticks in the pass that woke it");
	cr_assert_eq(a.ticks, 1u, "a ticks once");
	cr_assert_eq(a.at[0], 6u, "a, earlier in the order, ticks in the next cycle");
	cr_assert_eq(a.u.stats.busy + b.u.stats.busy + d.u.stats.busy, 3u);
}

Test(sim_clock, sleep_through_ignores_earlier_wakes)
{
	sim_clock c;
	sim_port p;
	toy_source src;
	toy_slow sink;
	memset(&src, 0, sizeof src);
	memset(&sink, 0, sizeof sink);
	ulp_diag d;
	ulp_diag_clear(&d);
	sim_clock_init(&c, 1000, NULL);
	sim_unit_init(&src.u, "source", source_tick, NULL, 0);
	sim_unit_init(&sink.u, "sink", slow_tick, NULL, 0);
	cr_assert(sim_port_init(&p, "source->sink", sizeof(unsigned), 4, 1, &sink.u));
	src.out = &p;
	src.left = 3;
	sink.in = &p;
	cr_assert(sim_clock_add_unit(&c, &sink.u));
	cr_assert(sim_clock_add_unit(&c, &src.u));
	sim_unit_wake(&src.u, 0);
	cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(sink.got, 3);
	/* pushes at 1 and 2 (visible at 2 and 3) did not wake the sink early */
	cr_assert_eq(sink.got_at[0], 1);
	cr_assert_eq(sink.got_at[1], 6);
	cr_assert_eq(sink.got_at[2], 11);
	cr_assert_eq(sink.ticks, 4, "ticks at 1, 6, 11 and 16 only, not %u", sink.ticks);
	sim_port_fini(&p);
}

/* A port's ring has a power-of-two number of slots (4 for capacity 3): it
 * is still full at 3 items, keeps FIFO order across many wraps, and the
 * sized forms (the GR3D stages' token copies) see the same items. */
Test(sim_port, capacity_not_a_power_of_two)
{
	sim_port p;
	cr_assert(sim_port_init(&p, "p", sizeof(uint32_t), 3, 2, NULL));
	uint32_t next_in = 0, next_out = 0;
	for (uint64_t now = 0; now < 200; now++) {
		uint32_t *head = sim_port_peek(&p, now);
		cr_assert_eq(head, sim_port_peek_sized(&p, sizeof(uint32_t), now));
		if (head && now % 3 != 0) {           /* the consumer skips every third cycle */
			cr_assert_eq(*head, next_out, "cycle %llu", (unsigned long long)now);
			next_out++;
			sim_port_pop(&p, now);
		}
		if (!sim_port_full(&p)) {
			if (now % 2)
				sim_port_push(&p, &next_in, now);
			else
				sim_port_push_sized(&p, &next_in, sizeof next_in, now);
			next_in++;
		}
		cr_assert_leq(p.count, 3);
	}
	cr_assert_gt(next_out, 100);
	cr_assert_eq(p.max_count, 3, "the port filled up to its capacity");
	cr_assert_eq(next_in - next_out, p.count);
	sim_port_fini(&p);
}

/* An item built in the port's tail slot (sim_port_tail) is pushed by
 * sim_port_commit exactly as sim_port_push pushes a copy: same visibility,
 * same order, the consumer woken at the same cycle; one left uncommitted
 * is not there at all and its slot is simply reused. */
typedef struct big_item {
	uint32_t id;
	double payload[11];
} big_item;

Test(sim_port, build_in_place_equals_push)
{
	sim_port a, b;
	sim_unit ua, ub;
	sim_unit_init(&ua, "a", NULL, NULL, 0);
	sim_unit_init(&ub, "b", NULL, NULL, 0);
	cr_assert(sim_port_init(&a, "a", sizeof(big_item), 3, 2, &ua));
	cr_assert(sim_port_init(&b, "b", sizeof(big_item), 3, 2, &ub));
	uint32_t next_in = 0, next_out = 0;
	for (uint64_t now = 0; now < 100; now++) {
		const big_item *ha = sim_port_peek(&a, now), *hb = sim_port_peek(&b, now);
		cr_assert_eq(ha == NULL, hb == NULL, "cycle %llu", (unsigned long long)now);
		if (ha && now % 3 != 0) {
			cr_assert_eq(ha->id, next_out);
			cr_assert_eq(hb->id, next_out);
			cr_assert(memcmp(ha->payload, hb->payload, sizeof ha->payload) == 0);
			next_out++;
			sim_port_pop(&a, now);
			sim_port_pop(&b, now);
		}
		if (sim_port_full(&a))
			continue;
		big_item *t = sim_port_tail(&a);
		t->id = 0xdead;                       /* a quad found empty: never committed */
		t = sim_port_tail(&a);
		t->id = next_in;
		big_item copy = { .id = next_in };
		for (unsigned k = 0; k < 11; k++)
			t->payload[k] = copy.payload[k] = next_in * 0.5 + k;
		ua.wake = ub.wake = UINT64_MAX;
		sim_port_commit(&a, now);
		sim_port_push(&b, &copy, now);
		cr_assert_eq(ua.wake, now + 2, "the consumer woken when the item is visible");
		cr_assert_eq(ub.wake, ua.wake);
		next_in++;
		cr_assert_eq(a.count, b.count);
	}
	cr_assert_gt(next_out, 40);
	cr_assert_eq(a.max_count, b.max_count);
	sim_port_fini(&a);
	sim_port_fini(&b);
}

/* sim_port_pop wakes the port's producer in the cycle of the pop, and no
 * one when the port names none (a producer that polls). */
Test(sim_port, pop_wakes_the_producer)
{
	sim_port p;
	sim_unit prod;
	sim_unit_init(&prod, "prod", NULL, NULL, 0);
	cr_assert(sim_port_init(&p, "p", sizeof(uint32_t), 2, 0, NULL));
	uint32_t v = 7;
	sim_port_push(&p, &v, 0);
	sim_port_push(&p, &v, 0);
	sim_port_pop(&p, 3);
	cr_assert_eq(prod.wake, UINT64_MAX, "no producer named: nobody woken");
	p.producer = &prod;
	sim_port_pop(&p, 5);
	cr_assert_eq(prod.wake, 5, "woken in the cycle of the pop");
	cr_assert(sim_port_empty(&p));
	sim_port_fini(&p);
}

/* A one-item-at-a-time stage on sim/core/stage.h's skeleton (sim_hold:
 * occupied for `cycles`, then out, waiting for room), against the same
 * stage ticking every cycle: the same hand-offs, busy and stall cycles,
 * with fewer ticks. */
typedef struct toy_stage {
	sim_unit u;
	sim_port *in, *out;
	unsigned cycles, ticks;
	bool skeleton;
	sim_hold hold;
	unsigned cur, rest;       /* the ticking version: cycles left on cur */
	bool have;
} toy_stage;

static void stage_tick(sim_unit *u, uint64_t now)
{
	toy_stage *s = (toy_stage *)u;
	s->ticks++;
	if (s->skeleton) {
		sim_unit_wait_settle(u, now);
		if (s->hold.on) {
			if (!sim_hold_room(u, s->out, now))
				return;
			sim_port_push(s->out, &s->cur, now);
			sim_hold_end(&s->hold);
		}
	} else if (s->have) {
		if (s->rest) {                 /* still working */
			s->rest--;
			sim_unit_busy(u);
			sim_unit_sleep_until(u, now + 1);
			return;
		}
		if (sim_port_full(s->out)) {   /* polled */
			sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
			sim_unit_sleep_until(u, now + 1);
			return;
		}
		sim_port_push(s->out, &s->cur, now);
		s->have = false;
	}
	const unsigned *item = sim_port_peek(s->in, now);
	if (!item) {
		uint64_t r = sim_port_next_ready(s->in);
		if (r != UINT64_MAX)
			sim_unit_wake(u, r);
		return;
	}
	s->cur = *item;
	sim_port_pop(s->in, now);
	if (s->skeleton) {
		sim_hold_begin(u, &s->hold, now, s->cycles);
		return;
	}
	s->have = true;
	s->rest = s->cycles - 1;
	sim_unit_busy(u);
	sim_unit_sleep_until(u, now + 1);
}

typedef struct toy_line {
	sim_clock clock;
	sim_port a, b;
	toy_source src;
	toy_stage st;
	toy_sink sink;
} toy_line;

static void line_build_tl(toy_line *t, bool skeleton, sim_timeline *tl)
{
	memset(t, 0, sizeof *t);
	sim_clock_init(&t->clock, 1000, tl);
	sim_unit_init(&t->src.u, "source", source_tick, NULL, 0);
	sim_unit_init(&t->st.u, "stage", stage_tick, NULL, 0);
	sim_unit_init(&t->sink.u, "sink", sink_tick, NULL, 0);
	cr_assert(sim_port_init(&t->a, "source->stage", sizeof(unsigned), 2, 1, &t->st.u));
	cr_assert(sim_port_init(&t->b, "stage->sink", sizeof(unsigned), 1, 1, &t->sink.u));
	t->src.out = &t->a;
	t->src.left = 8;
	t->src.wait = true;
	t->a.producer = &t->src.u;            /* the stage's pop wakes the source */
	t->st.in = &t->a;
	t->st.out = &t->b;
	t->st.cycles = 3;
	t->st.skeleton = skeleton;
	if (skeleton)
		t->b.producer = &t->st.u;         /* the sink's pop wakes the stage */
	t->sink.in = &t->b;
	t->sink.period = 5;                   /* slower than the stage: it backs up */
	cr_assert(sim_clock_add_unit(&t->clock, &t->sink.u));
	cr_assert(sim_clock_add_unit(&t->clock, &t->st.u));
	cr_assert(sim_clock_add_unit(&t->clock, &t->src.u));
	sim_unit_wake(&t->src.u, 0);
}

static void line_build(toy_line *t, bool skeleton) { line_build_tl(t, skeleton, NULL); }

Test(sim_stage, hold_books_what_ticking_counts)
{
	toy_line tick, hold;
	ulp_diag d;
	ulp_diag_clear(&d);
	line_build(&tick, false);
	line_build(&hold, true);
	cr_assert_eq(sim_clock_run(&tick.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(sim_clock_run(&hold.clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
	cr_assert_eq(hold.sink.got, 8);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(hold.sink.got_at[i], tick.sink.got_at[i], "item %d", i);
	cr_assert_eq(hold.st.u.stats.busy, 8 * 3, "3 busy cycles per item");
	cr_assert_eq(hold.st.u.stats.busy, tick.st.u.stats.busy);
	cr_assert_gt(tick.st.u.stats.stall[SIM_STALL_OUTPUT_FULL], 0, "the sink backs the stage up");
	cr_assert_eq(hold.st.u.stats.stall[SIM_STALL_OUTPUT_FULL],
	             tick.st.u.stats.stall[SIM_STALL_OUTPUT_FULL]);
	cr_assert_eq(hold.clock.now, tick.clock.now);
	cr_assert_lt(hold.st.ticks, tick.st.ticks, "%u vs %u ticks", hold.st.ticks, tick.st.ticks);
	sim_port_fini(&tick.a);
	sim_port_fini(&tick.b);
	sim_port_fini(&hold.a);
	sim_port_fini(&hold.b);
}

/* The timeline of units that hold their lanes while asleep (the stage busy
 * through its item's cycles and stalled until the sink's pop wakes it; the
 * source busy in the cycle its push fills the port and stalled after) is
 * the one they show ticking every cycle: the clock's span bookkeeping
 * (activity_span, close_spans, the held lanes shown in the next pass) gives
 * the same activity events, in the same order. */
Test(sim_stage, held_lanes_show_what_ticking_shows)
{
	sim_timeline tl[2];
	tl_capture *cap[2];
	toy_line line[2];
	ulp_diag d;
	ulp_diag_clear(&d);
	for (int k = 0; k < 2; k++) {
		cr_assert(sim_tl_init(&tl[k]));
		cap[k] = calloc(1, sizeof *cap[k]);
		cr_assert(cap[k]);
		sim_tl_add_sink(&tl[k], (sim_tl_sink){ .ctx = cap[k], .write = capture_write });
		tl[k].enabled = true;
		line_build_tl(&line[k], k == 1, &tl[k]);
		line[k].src.wait = k == 1;        /* ticking: the source polls its full port */
		line[k].src.wait_at_push = k == 1;
		cr_assert_eq(sim_clock_run(&line[k].clock, UINT64_MAX, &d), SIM_RUN_DRAINED);
		sim_clock_finish(&line[k].clock);
	}
	cr_assert_gt(cap[0]->n, 8);
	cr_assert_lt(cap[0]->n, 256);
	cr_assert_lt(line[1].st.ticks, line[0].st.ticks);
	cr_assert_eq(cap[1]->n, cap[0]->n, "%zu events held, %zu ticking", cap[1]->n, cap[0]->n);
	bool stalled = false;
	for (size_t i = 0; i < cap[0]->n; i++) {
		const sim_tl_event *a = &cap[0]->ev[i], *b = &cap[1]->ev[i];
		cr_assert(a->cycle == b->cycle && a->lane == b->lane && a->kind == b->kind && a->arg == b->arg,
		          "event %zu: ticking (%llu, lane %u, %u, %u), held (%llu, lane %u, %u, %u)", i,
		          (unsigned long long)a->cycle, a->lane, a->kind, a->arg, (unsigned long long)b->cycle,
		          b->lane, b->kind, b->arg);
		stalled |= a->lane == line[0].st.u.lane && a->arg == SIM_ACT_STALL + SIM_STALL_OUTPUT_FULL;
	}
	cr_assert(stalled, "the stage's lane shows its output_full stall");
	cr_assert_lt(line[1].src.ticks, line[0].src.ticks);
	for (int k = 0; k < 2; k++) {
		sim_tl_fini(&tl[k]);
		free(cap[k]);
		sim_port_fini(&line[k].a);
		sim_port_fini(&line[k].b);
	}
}
