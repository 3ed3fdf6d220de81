#include "sim/core/clock.h"

#include <stdio.h>
#include <string.h>

void sim_clock_init(sim_clock *c, uint64_t watchdog_cycles, sim_timeline *tl)
{
	memset(c, 0, sizeof *c);
	c->watchdog_cycles = watchdog_cycles;
	c->tl = tl;
	c->next = UINT64_MAX;
	c->wheel.far_next = UINT64_MAX;
}

bool sim_clock_add_unit(sim_clock *c, sim_unit *u)
{
	if (c->nunits == SIM_CLOCK_MAX_UNITS)
		return false;
	if (c->tl)
		u->lane = sim_tl_lane(c->tl, u->name);
	u->tl = c->tl;
	u->clock_next = &c->next;
	u->clock_wheel = &c->wheel;
	u->clock_progress = &c->last_progress;
	u->sched_bit = UINT32_C(1) << c->nunits;
	if (u->wake < c->next)
		c->next = u->wake;
	c->last_tick[c->nunits] = UINT64_MAX;
	c->unit[c->nunits++] = u;
	return true;
}

bool sim_clock_add_port(sim_clock *c, sim_port *p)
{
	if (c->nports == SIM_CLOCK_MAX_PORTS)
		return false;
	c->port[c->nports++] = p;
	return true;
}

/* A unit's activity became idle after its last tick. */
static void close_activity(sim_clock *c, unsigned i, uint64_t at)
{
	sim_unit *u = c->unit[i];
	if (u->last_activity != SIM_ACT_IDLE) {
		sim_tl_emit(c->tl, at, u->lane, SIM_TL_ACTIVITY, 0, SIM_ACT_IDLE);
		u->last_activity = SIM_ACT_IDLE;
	}
}

static void watchdog_report(const sim_clock *c, ulp_diag *d)
{
	char buf[ULP_DIAG_MSG_MAX];
	size_t n = 0;
	n += (size_t)snprintf(buf + n, sizeof buf - n,
	                      "watchdog: no unit made progress for %llu cycles (cycle %llu):",
	                      (unsigned long long)c->watchdog_cycles, (unsigned long long)c->now);
	for (unsigned i = 0; i < c->nunits && n < sizeof buf; i++) {
		const sim_unit *u = c->unit[i];
		if (u->wake == UINT64_MAX && !u->waiting)
			continue;
		n += (size_t)snprintf(buf + n, sizeof buf - n, " %s %s", u->name,
		                      sim_activity_name(u->activity));
		if (u->has_pc && n < sizeof buf)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " pc 0x%x", u->debug_pc);
		if (n < sizeof buf)
			n += (size_t)snprintf(buf + n, sizeof buf - n, ";");
	}
	for (unsigned i = 0; i < c->nports && n < sizeof buf; i++) {
		/* the items held in the last cycle simulated (c->now - 1): a
		 * pop dated later still holds its slot, as a tick's pop would */
		const sim_port *p = c->port[i];
		const uint32_t held = sim_port_held(p, c->now ? c->now - 1 : 0);
		if (held)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " port %s %u/%u;", p->name,
			                      held, p->capacity);
	}
	ulp_diag_at(d, NULL, 0, 0, "%s", buf);
}

/* The watchdog stops the run at cycle t: the units asleep in
 * sim_unit_wait would have ticked at t and stalled again. */
static void waiting_book(sim_clock *c, uint64_t t)
{
	for (unsigned i = 0; i < c->nunits; i++) {
		sim_unit *u = c->unit[i];
		if (u->waiting) {
			u->stats.stall[u->waiting_cause] += t - u->waiting_since;
			u->waiting_since = t;
			u->activity = (uint8_t)(SIM_ACT_STALL + u->waiting_cause);
		}
	}
}

/* The watchdog stops the run in cycle t: the waiting units' stalls booked
 * up to it, the run's end the cycle after, the report in d. */
static void watchdog_stop(sim_clock *c, uint64_t t, ulp_diag *d)
{
	waiting_book(c, t);
	c->now = t + 1;
	watchdog_report(c, d);
}

/* Units asleep in sim_unit_wait would have ticked, stalled, every cycle:
 * when the clock skips past the watchdog's horizon with one of them
 * waiting, the watchdog fires at that horizon as it would have then, with
 * the waiting units' stall cycles booked up to it. */
static bool waiting_fires(sim_clock *c, uint64_t until, ulp_diag *d)
{
	uint64_t t = c->last_progress + c->watchdog_cycles;
	if (t < c->now)
		t = c->now;
	if (t >= until)
		return false;
	bool any = false;
	for (unsigned i = 0; i < c->nunits; i++)
		any |= c->unit[i]->waiting;
	if (!any)
		return false;
	watchdog_stop(c, t, d);
	return true;
}

/* With a timeline, after unit i ticked at now: its activity span; returns
 * its bit when it may sleep past the next cycle with its lane changing then
 * (to idle, or to what it holds: close_spans), else 0.  What it holds is
 * set in its own tick only, so it is known here; whether it sleeps is known
 * only after the pass (a later unit may wake it). */
static inline uint32_t activity_span(sim_clock *c, unsigned i, uint64_t now)
{
	sim_unit *u = c->unit[i];
	c->last_tick[i] = now;
	const uint8_t act = u->activity;
	if (act != u->last_activity) {
		sim_tl_emit(c->tl, now, u->lane, SIM_TL_ACTIVITY, 0, act);
		u->last_activity = act;
	}
	const bool changes = u->lane_holds ? u->lane_next != act : act != SIM_ACT_IDLE;
	return u->wake > now + 1 && changes ? UINT32_C(1) << i : 0u;
}

/* Units that ticked in this pass and sleep past the next cycle are idle
 * from now + 1: their spans close here, so the event stream stays in cycle
 * order.  A unit that holds its lane while asleep (busy through booked
 * work, a stall until woken: sim_unit_lane_hold) shows what it holds from
 * now + 1 instead, in its place in the next pass (lane_due), as a tick
 * there would: a unit woken in that pass ticks and shows its own. */
static void close_spans(sim_clock *c, uint64_t now)
{
	for (uint32_t slept = c->slept; slept; slept &= slept - 1) {
		unsigned i = (unsigned)__builtin_ctz(slept);
		sim_unit *u = c->unit[i];
		if (u->wake <= now + 1)
			continue;
		if (!u->lane_holds) {
			close_activity(c, i, now + 1);
		} else if (u->lane_next != u->last_activity) {
			c->lane_due |= UINT32_C(1) << i;   /* the next pass visits it */
			if (c->next > now + 1)
				c->next = now + 1;
		}
	}
}

/* Unit i holds its lane and does not tick at now: it shows what it holds
 * (the caller takes it out of lane_due). */
static void show_held_lane(sim_clock *c, unsigned i, uint64_t now)
{
	sim_unit *u = c->unit[i];
	sim_tl_emit(c->tl, now, u->lane, SIM_TL_ACTIVITY, 0, u->lane_next);
	u->last_activity = u->lane_next;
}

/* The units in far whose wake falls within the slots from base (the
 * pass's cycle, or the next one) go to their slots; a unit asleep leaves
 * far; far_next becomes the earliest wake of those left. */
static void far_in(sim_clock *c, uint64_t base)
{
	sim_wheel *w = &c->wheel;
	uint64_t fn = UINT64_MAX;
	w->now = base;
	for (uint32_t f = w->far; f; f &= f - 1) {
		const unsigned i = (unsigned)__builtin_ctz(f);
		const uint64_t wk = c->unit[i]->wake;
		if (wk == UINT64_MAX || wk < base + SIM_WHEEL_SLOTS) {
			w->far &= ~(UINT32_C(1) << i);
			if (wk != UINT64_MAX) {
				const unsigned sl = (unsigned)((wk > base ? wk : base) % SIM_WHEEL_SLOTS);
				w->slot[sl] |= UINT32_C(1) << i;
				w->occ |= UINT64_C(1) << sl;
			}
		} else if (wk < fn) {
			fn = wk;
		}
	}
	w->far_next = fn;
}

/* The wheel from the units' wakes (a run's start: wakes may have been set
 * between runs with no clock cycle to place them by). */
static void wheel_fill(sim_clock *c)
{
	sim_wheel *w = &c->wheel;
	for (uint64_t o = w->occ; o; o &= o - 1)
		w->slot[__builtin_ctzll(o)] = 0;
	w->occ = 0;
	w->far = 0;
	w->far_next = UINT64_MAX;
	w->now = c->now;
	w->cur = 0;
	w->owed = 0;
	for (unsigned i = 0; i < c->nunits; i++)
		if (c->unit[i]->wake != UINT64_MAX)
			sim_wheel_add(w, c->unit[i]->wake, UINT32_C(1) << i);
}

/* wheel_next's search past its first look: the slots in cycle order from
 * base; the stale bits of the slots it passes over go. */
static uint64_t wheel_search(sim_clock *c, uint64_t base, uint64_t b)
{
	sim_wheel *w = &c->wheel;
	const unsigned r = (unsigned)(base % SIM_WHEEL_SLOTS);
	/* bit k: the slot of cycle base + k */
	uint64_t rot = r ? w->occ >> r | w->occ << (SIM_WHEEL_SLOTS - r) : w->occ;
	while (rot) {
		const uint64_t t = base + (unsigned)__builtin_ctzll(rot);
		if (t >= b)
			return b;
		const unsigned sl = (unsigned)(t % SIM_WHEEL_SLOTS);
		for (uint32_t m = w->slot[sl]; m; m &= m - 1)
			if (c->unit[__builtin_ctz(m)]->wake <= t)
				return t;
		w->slot[sl] = 0;                   /* every bit stale */
		w->occ &= ~(UINT64_C(1) << sl);
		rot &= rot - 1;
	}
	if (w->far && b > base + SIM_WHEEL_SLOTS - 1) {
		far_in(c, base);                   /* far_next exact: every wake there is later */
		if (w->far_next < b)
			return w->far_next;
	}
	return b;
}

/* After the pass at now (every wake due by now ticked, or moved to now + 1's
 * slot): the earliest wake of any unit if it is before b, else b (b > now
 * + 1: a wake of this pass's, or a unit's after its tick).  The first look
 * (the earliest slot with a bit, and its first unit) is inlined. */
static inline __attribute__((always_inline)) uint64_t wheel_next(sim_clock *c, uint64_t now, uint64_t b)
{
	sim_wheel *w = &c->wheel;
	const uint64_t base = now + 1;
	if (w->far_next < base + SIM_WHEEL_SLOTS)
		far_in(c, base);
	const unsigned r = (unsigned)(base % SIM_WHEEL_SLOTS);
	const uint64_t rot = r ? w->occ >> r | w->occ << (SIM_WHEEL_SLOTS - r) : w->occ;
	if (rot) {
		const uint64_t t = base + (unsigned)__builtin_ctzll(rot);
		if (t >= b)
			return b;
		const uint32_t m = w->slot[t % SIM_WHEEL_SLOTS];
		if (m && c->unit[__builtin_ctz(m)]->wake <= t)
			return t;
	} else if (!w->far) {
		return b;
	}
	return wheel_search(c, base, b);
}

/* One pass at cycle now: ticks the units due now in step order and gathers
 * the earliest of their wakes in *next_wake; true when a unit halted.
 * Always inlined with spans constant (run_passes), so the run without a
 * timeline carries none of the span bookkeeping. */
static inline __attribute__((always_inline)) bool clock_pass(sim_clock *c, uint64_t now, bool spans,
                                                             uint64_t *next_wake_out)
{
	sim_wheel *w = &c->wheel;
	const unsigned s = (unsigned)(now % SIM_WHEEL_SLOTS);
	uint64_t next_wake = *next_wake_out;
	/* with a timeline: c->lane_due and c->slept, kept here during the pass
	 * (only the clock changes them, not the units' ticks) */
	uint32_t due = spans ? c->lane_due : 0u, slept = 0u;
	/* now's bit in occ goes here, not after the ticks: no tick sets it (a
	 * wake for now goes in the slot without occ, one for a later cycle in
	 * another slot, or in far) */
	w->occ &= ~(UINT64_C(1) << s);
	/* The units of now's slot (and, with a timeline, those whose held lane
	 * shows now), in step order.  A tick that wakes a later unit for now
	 * sets its bit in the slot, which the pass reads again; one that wakes
	 * an earlier unit (or itself) for now sets it in now + 1's
	 * (sim_wheel_add, by w->cur). */
	for (;;) {
		const uint32_t m = w->slot[s] | due;
		if (!m)
			break;
		const unsigned i = (unsigned)__builtin_ctz(m);
		const uint32_t bit = m & -m;
		w->slot[s] = spans ? w->slot[s] & ~bit : m ^ bit;
		w->cur = bit;
		sim_unit *u = c->unit[i];
		uint64_t wk = u->wake;
		if (wk > now) {                   /* a stale bit, or a held lane to show */
			if (spans && (due & bit)) {
				due &= ~bit;
				show_held_lane(c, i, now);
			}
			continue;
		}
		if (spans) {                      /* it ticks: it shows its own */
			due &= ~bit;
			u->lane_holds = false;
		}
		u->activity = SIM_ACT_IDLE;
		u->wake = UINT64_MAX;
		u->tick(u, now);
		const uint8_t act = u->activity;
		if (act == SIM_ACT_BUSY) {
			u->stats.busy++;
			c->last_progress = now;
		} else if (act >= SIM_ACT_STALL) {
			u->stats.stall[act - SIM_ACT_STALL]++;
		}
		if (spans)
			slept |= activity_span(c, i, now);
		if (u->halt) {
			if (spans) {
				c->lane_due = due;
				c->slept = slept;
			}
			return true;
		}
		wk = u->wake;
		if (wk <= now + 1) {             /* a same-cycle wake means "next cycle" */
			u->wake = now + 1;
			w->slot[(now + 1) % SIM_WHEEL_SLOTS] |= bit;
			next_wake = now + 1;
		} else if (wk - now < SIM_WHEEL_SLOTS) {
			/* sim_wheel_add for a wake 2 to 63 cycles on (w->now is now) */
			w->slot[wk % SIM_WHEEL_SLOTS] |= bit;
			w->occ |= UINT64_C(1) << (wk % SIM_WHEEL_SLOTS);
			next_wake = wk < next_wake ? wk : next_wake;
		} else if (wk != UINT64_MAX) {
			sim_wheel_add_other(w, wk, bit);   /* past the slots: far */
			next_wake = wk < next_wake ? wk : next_wake;
		}
	}
	/* now + 1's slot needs no bit in occ: a pass that puts a unit there
	 * has a wake at now + 1, so the next pass takes it (wheel_next is not
	 * asked) */
	if (spans) {
		c->lane_due = due;
		c->slept = slept;
	}
	*next_wake_out = next_wake;
	return false;
}

/* The passes of sim_clock_run, always inlined with spans constant. */
static inline __attribute__((always_inline)) enum sim_run_result run_passes(sim_clock *c, uint64_t until,
                                                                            ulp_diag *d, bool spans)
{
	/* the watchdog's cycles, UINT64_MAX when it is off */
	const uint64_t wd = c->watchdog_cycles ? c->watchdog_cycles : UINT64_MAX;
	/* c->now and c->next between the passes (the units' wakes lower c->next
	 * during a pass) */
	uint64_t now = c->now, next = c->next;
	while (now < until) {
		if (next > now) {                 /* skip ahead: everyone sleeps */
			if (next - c->last_progress > wd) {
				c->now = now;
				if (waiting_fires(c, until, d))
					return SIM_RUN_WATCHDOG;
			}
			if (next >= until) {
				c->now = next == UINT64_MAX ? now : until;
				return next == UINT64_MAX ? SIM_RUN_DRAINED : SIM_RUN_LIMIT;
			}
			now = next;
		}
		if (spans)                         /* else c->now is set where the run stops */
			c->now = now;
		c->wheel.now = now;
		if (c->wheel.far_next < now + SIM_WHEEL_SLOTS)
			far_in(c, now);
		/* One pass ticks the units due and gathers the earliest of their
		 * wakes; wakes caused by pushes during the pass land in c->next too,
		 * and the wheel gives the other units' earliest. */
		c->next = UINT64_MAX;
		uint64_t next_wake = UINT64_MAX;
		if (spans) {
			c->slept = 0;
			if (c->mark)
				c->mark(c->mark_ctx, now, 0);
		}
		if (clock_pass(c, now, spans, &next_wake)) {
			c->now = now + 1;
			return SIM_RUN_HALTED;
		}
		next = c->next;
		if (next <= now)                    /* pushed into an already-ticked unit */
			next = now + 1;
		if (next_wake < next)
			next = next_wake;
		/* a unit woken for now after the one ticking ticked in this pass
		 * (sim_unit_wake), and owes a pass at now + 1; with a timeline it is
		 * made (the marks and spans see every pass), else only its figures
		 * are, below, when nothing is due then */
		if (spans && c->wheel.owed == now + 1)
			next = now + 1;
		if (spans && c->slept) {
			if (c->mark)
				c->mark(c->mark_ctx, now, 1);
			c->next = next;
			close_spans(c, now);
			next = c->next;
		}
		bool empty = false;                 /* the owed pass at now + 1 is empty */
		if (next > now + 1) {
			if (!spans && c->wheel.owed == now + 1) {
				/* the owed pass would find the next wake in the wheel
				 * alone, from now + 2 (its c->next starts afresh).  The
				 * wakes gathered in this pass are in the wheel too, but
				 * c->next may be stale (a unit woken for later, then for
				 * now, or a wake its own tick then overwrote), so only
				 * next_wake bounds the search: the wakes the pass gave the
				 * units that ticked, which only a lower wake (in the
				 * wheel) can change.  Nothing is due at now + 1 (it would
				 * be in next) unless the wheel says so. */
				next = wheel_next(c, now, next_wake);
				empty = next > now + 1;
				if (!empty)
					next = now + 1;
			} else {
				next = wheel_next(c, now, next);
			}
		}
		c->next = next;
		/* no unit busy in this cycle (a busy one set last_progress to now) */
		if (now - c->last_progress >= wd) {
			if (empty)                      /* the pass owed */
				c->next = now + 1;
			watchdog_stop(c, now, d);
			return SIM_RUN_WATCHDOG;
		}
		now++;
		if (empty) {
			/* the empty pass at now (the old now + 1): what it did to the
			 * run's figures, its limit and its watchdog check; the wheel's
			 * search from now + 1 (wheel_next) gave what it would give */
			if (now >= until) {
				c->next = now;              /* the pass owed, in the next run */
				break;
			}
			if (now - c->last_progress >= wd) {
				watchdog_stop(c, now, d);
				return SIM_RUN_WATCHDOG;
			}
			now++;
		}
	}
	c->now = now;
	return SIM_RUN_LIMIT;
}

enum sim_run_result sim_clock_run(sim_clock *c, uint64_t until, ulp_diag *d)
{
	/* wakes may predate this call; a pass owed at now (a wake for a cycle
	 * already simulated, when the last call ended) is kept, so that a run
	 * in several calls is the run in one */
	uint64_t next = c->next <= c->now ? c->now : UINT64_MAX;
	for (unsigned i = 0; i < c->nunits; i++)
		if (c->unit[i]->wake < next)
			next = c->unit[i]->wake;
	if (c->lane_due && next > c->now)      /* held lanes still to show (close_spans) */
		next = c->now;
	c->next = next;
	wheel_fill(c);
	/* activity spans: timeline only */
	return c->tl ? run_passes(c, until, d, true) : run_passes(c, until, d, false);
}

void sim_clock_finish(sim_clock *c)
{
	/* A halted pass ticked the units up to the one that halted, at now - 1 */
	unsigned halted = c->nunits;
	for (unsigned i = 0; i < c->nunits && halted == c->nunits; i++)
		if (c->unit[i]->halt)
			halted = i;
	for (unsigned i = 0; i < c->nunits; i++)
		if (c->unit[i]->settle)
			c->unit[i]->settle(c->unit[i], i > halted && c->now ? c->now - 1 : c->now);
	for (unsigned i = 0; i < c->nunits; i++)
		if (c->last_tick[i] != UINT64_MAX)
			close_activity(c, i, c->last_tick[i] + 1);
	if (c->tl)
		sim_tl_flush(c->tl);
}

uint64_t sim_unit_idle(const sim_clock *c, const sim_unit *u)
{
	uint64_t used = u->stats.busy;
	for (int s = 0; s < SIM_STALL_COUNT; s++)
		used += u->stats.stall[s];
	return c->now > used ? c->now - used : 0;
}
