/* The common shape of a clocked unit (PSEQ, MFU, TEX, ALU, DW, a PICA200
 * shader unit, setup, raster...).  A unit struct embeds a sim_unit as its
 * first member; the clock calls tick() on every cycle the unit is awake.
 *
 * A tick does one cycle of work and reports what the cycle was with
 * sim_unit_busy() or sim_unit_stall(); a cycle with neither is idle.  At the
 * end of the tick the unit says when it next needs the clock with
 * sim_unit_sleep_until(); a push into one of its input ports wakes it.
 *
 * Every unit has the same life: X_init (which calls sim_unit_init and may
 * set the reset and fini hooks), then runs on a clock; sim_unit_reset puts
 * it back to the state its init left (to run again on a new clock), and
 * sim_unit_fini frees what its init allocated. */
#ifndef ULP_SIM_UNIT_H
#define ULP_SIM_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/core/timeline.h"

enum sim_stall {
#define STALL(id, name, desc) SIM_STALL_##id,
#include "sim/core/stall_causes.def"
#undef STALL
	SIM_STALL_COUNT
};

/* What a unit did in a cycle (timeline lanes colour by this). */
enum sim_activity {
	SIM_ACT_IDLE = 0,
	SIM_ACT_BUSY = 1,
	SIM_ACT_STALL = 2,   /* + cause: SIM_ACT_STALL + enum sim_stall */
};

enum { SIM_MAX_COUNTERS = 12 };

typedef struct sim_counter_def {
	const char *name;   /* e.g. "instructions" */
	const char *desc;
} sim_counter_def;

typedef struct sim_unit_stats {
	uint64_t busy;
	uint64_t stall[SIM_STALL_COUNT];
	uint64_t counter[SIM_MAX_COUNTERS];   /* unit-specific, see counter_defs */
} sim_unit_stats;

struct sim_timeline;

/* The clock's wakes by cycle (sim/core/clock.c), here because sim_unit_wake
 * fills it: a wake within SIM_WHEEL_SLOTS cycles of the pass's cycle sets
 * its unit's bit in that cycle's slot (a wake at or before it: the pass's
 * own slot, or the next cycle's for a unit the pass has passed), a later
 * one its bit in far.  A bit whose unit woke or slept
 * otherwise since is stale: the clock looks at the unit's wake and drops it. */
enum { SIM_WHEEL_SLOTS = 64 };

typedef struct sim_wheel {
	uint64_t now;                      /* the cycle of the pass (in a run) */
	uint64_t owed;                     /* now + 1 after a wake for now after cur: a pass owed */
	uint32_t cur;                      /* in a pass: the bit of the unit ticking */
	uint64_t occ;                      /* slots with a bit */
	uint64_t far_next;                 /* <= the wake of every unit in far */
	uint32_t far;                      /* units with a wake past the slots */
	uint32_t slot[SIM_WHEEL_SLOTS];    /* slot[t % SIM_WHEEL_SLOTS]: units due at t */
} sim_wheel;

/* A wake before the pass's cycle, or past the slots (unit.c). */
void sim_wheel_add_other(sim_wheel *w, uint64_t at, uint32_t bit);

static inline void sim_wheel_add(sim_wheel *w, uint64_t at, uint32_t bit)
{
	const uint64_t d = at - w->now;
	if (d == 0) {
		/* due now: in this pass when the unit comes after the one ticking,
		 * else (itself, or one before it) in the next */
		w->slot[(at + (bit <= w->cur)) % SIM_WHEEL_SLOTS] |= bit;
	} else if (d < SIM_WHEEL_SLOTS) {
		w->slot[at % SIM_WHEEL_SLOTS] |= bit;
		w->occ |= UINT64_C(1) << (at % SIM_WHEEL_SLOTS);
	} else {
		sim_wheel_add_other(w, at, bit);
	}
}

typedef struct sim_unit {
	const char *name;          /* "pseq", "mfu", "vsh0", ... */
	uint16_t lane;             /* timeline lane */
	uint8_t ncounters;
	const sim_counter_def *counter_defs;
	void (*tick)(struct sim_unit *u, uint64_t now);
	void (*reset)(struct sim_unit *u);   /* its own run state back to init's (NULL: none) */
	void (*fini)(struct sim_unit *u);    /* frees what its init allocated (NULL: nothing) */
	/* A unit that books cycles ahead of its ticks (a run ahead) takes back
	 * what it booked for cycles >= end, the first cycle it did not tick in
	 * a run that stopped early (halted, or at a cycle limit);
	 * sim_clock_finish calls it (NULL: none). */
	void (*settle)(struct sim_unit *u, uint64_t end);
	uint64_t wake;             /* next cycle to tick; UINT64_MAX = asleep */
	uint64_t wake_floor;       /* wakes for earlier cycles are ignored (sim_unit_sleep_through) */
	uint8_t activity;          /* this cycle's activity (SIM_ACT_*) */
	uint8_t last_activity;     /* previous reported activity (timeline) */
	sim_unit_stats stats;
	struct sim_timeline *tl;   /* may be NULL */
	uint64_t *clock_next;      /* the clock's earliest pending wake (or NULL) */
	sim_wheel *clock_wheel;    /* the clock's wakes by cycle (with clock_next) */
	uint32_t sched_bit;        /* this unit's bit in it (1 << its step index) */
	uint64_t *clock_progress;  /* the clock's last cycle with a busy unit (or NULL) */
	bool halt;                 /* set by a unit that hit an error: the run stops */
	/* sim_unit_wait: asleep in a stall since waiting_since, until a
	 * neighbour wakes it; the watchdog counts it as awake */
	bool waiting;
	uint8_t waiting_cause;
	uint64_t waiting_since;
	/* asleep, but its timeline lane shows lane_next from the next cycle
	 * until it ticks again: busy through booked work, or stalled until woken,
	 * as ticking every cycle would show it (sim_unit_lane_hold; the clock
	 * clears it before each tick) */
	bool lane_holds;
	uint8_t lane_next;
	/* For watchdog messages: what the unit is working on. */
	uint32_t debug_pc;
	bool has_pc;
} sim_unit;

void sim_unit_init(sim_unit *u, const char *name, void (*tick)(sim_unit *, uint64_t),
                   const sim_counter_def *counters, uint8_t ncounters);
/* Back to the state the unit's init left: stats 0, asleep, nothing waited
 * for, and the unit's own reset hook.  Name, tick, counters and hooks stay;
 * the unit then goes on a new clock (sim_clock_add_unit). */
void sim_unit_reset(sim_unit *u);
/* The unit's fini hook, if any. */
static inline void sim_unit_fini(sim_unit *u)
{
	if (u->fini)
		u->fini(u);
}

static inline void sim_unit_wake(sim_unit *u, uint64_t at)
{
	if (at < u->wake && at >= u->wake_floor) {
		u->wake = at;
		if (u->clock_next) {
			sim_wheel *w = u->clock_wheel;
			const uint32_t bit = u->sched_bit;
			const uint64_t d = at - w->now;
			if (d == 0 && bit > w->cur) {
				/* due in the pass at now, after the unit ticking (a pop
				 * waking its producer): the pass reads its slot again and
				 * ticks it.  Such a wake owes a pass at now + 1 (the clock's
				 * rule, which the end cycle, a limit's and the watchdog's
				 * depend on): the clock books it from owed and makes it only
				 * when something is due then (run_passes), not through its
				 * next.  Outside a pass (between runs) sim_clock_run takes
				 * the units' wakes. */
				w->slot[at % SIM_WHEEL_SLOTS] |= bit;
				w->owed = at + 1;
				return;
			}
			if (at < *u->clock_next)
				*u->clock_next = at;
			if (d == 0) {                  /* itself, or a unit before it: the next pass */
				w->slot[(at + 1) % SIM_WHEEL_SLOTS] |= bit;
			} else if (d < SIM_WHEEL_SLOTS) {
				w->slot[at % SIM_WHEEL_SLOTS] |= bit;
				w->occ |= UINT64_C(1) << (at % SIM_WHEEL_SLOTS);
			} else {
				sim_wheel_add_other(w, at, bit);
			}
		}
	}
}

/* Is a timeline recording this unit's events? */
static inline bool sim_unit_recording(const sim_unit *u) { return u->tl && u->tl->enabled; }

static inline void sim_unit_sleep_until(sim_unit *u, uint64_t at) { u->wake = at; }
/* The unit's pass at now + 1 is owed to the clock, as after a wake for now
 * of a unit later in the step order (sim_unit_wake): the clock makes that
 * pass only when something is due then and otherwise books it (run_passes).
 * For a unit that would tick at now + 1 only to find nothing to do and
 * sleep again (units/geom/geom_idle.h); only on a clock (clock_wheel set). */
static inline void sim_unit_owe_pass(sim_unit *u, uint64_t now) { u->clock_wheel->owed = now + 1; }

/* Sleep until cycle at and ignore wakes before it: a unit busy with work it
 * has already accounted for looks at its inputs then anyway, so an earlier
 * push would only make it tick to go back to sleep. */
static inline void sim_unit_sleep_through(sim_unit *u, uint64_t at)
{
	u->wake = at;
	u->wake_floor = at;
}

/* A unit that cannot go on until a neighbour acts (a pop downstream frees a
 * slot, a push upstream): it reports the stall for this cycle and sleeps
 * until a port wakes it (keeping any earlier wake it set) instead of
 * ticking every cycle to stall again; sim_unit_wait_settle at its next tick
 * books the cycles in between as that stall, exactly what ticking would
 * have counted.  The watchdog still sees it as awake, and its timeline lane
 * stays stalled until then (lane_holds). */
static inline void sim_unit_lane_hold(sim_unit *u, uint8_t activity)
{
	u->lane_holds = true;
	u->lane_next = activity;
}

static inline void sim_unit_wait(sim_unit *u, uint64_t now, enum sim_stall cause)
{
	sim_unit_lane_hold(u, (uint8_t)(SIM_ACT_STALL + cause));
	u->waiting = true;
	u->waiting_cause = (uint8_t)cause;
	u->waiting_since = now;
}

static inline void sim_unit_wait_settle(sim_unit *u, uint64_t now)
{
	if (u->waiting) {
		u->stats.stall[u->waiting_cause] += now - u->waiting_since - 1;
		u->waiting = false;
	}
}

static inline void sim_unit_busy(sim_unit *u)
{
	u->activity = SIM_ACT_BUSY;
}

static inline void sim_unit_stall(sim_unit *u, enum sim_stall cause)
{
	u->activity = (uint8_t)(SIM_ACT_STALL + cause);
}

/* A unit that cannot go on (output full, window full, a resource in use)
 * stalls and sleeps until what it waits for wakes it (a pop downstream, a
 * push upstream, a resource freed): sim_unit_wait books the cycles it slept
 * as that stall at its next tick (sim_unit_wait_settle), keeps its timeline
 * lane stalled, and lets the watchdog see it as waiting, the same with a
 * timeline or not. */
static inline void sim_unit_stall_wait(sim_unit *u, uint64_t now, enum sim_stall cause)
{
	sim_unit_stall(u, cause);
	sim_unit_wait(u, now, cause);
	sim_unit_sleep_until(u, UINT64_MAX);
}

/* A unit that took work at cycle now and is occupied by it until done_at
 * sleeps until then, deaf to earlier wakes (a push or a pop would only make
 * it tick to go back to sleep), and books the cycles in between as busy
 * (the clock would count them one tick at a time); its timeline lane stays
 * busy until that tick (lane_holds), as if it had ticked busy every cycle. */
static inline void sim_unit_occupy(sim_unit *u, uint64_t now, uint64_t done_at)
{
	if (done_at > now + 1) {
		u->stats.busy += done_at - now - 1;
		sim_unit_lane_hold(u, SIM_ACT_BUSY);
		sim_unit_sleep_through(u, done_at);
		return;
	}
	sim_unit_sleep_until(u, now + 1);
}

/* A unit that booked busy cycles without ticking them (it ran ahead and
 * slept through them) tells the watchdog, at its next tick, the last of
 * them (at <= now): the clock's progress is then what ticking every cycle
 * would have left. */
static inline void sim_unit_progress(sim_unit *u, uint64_t at)
{
	if (u->clock_progress && at > *u->clock_progress)
		*u->clock_progress = at;
}

static inline void sim_unit_count(sim_unit *u, unsigned counter, uint64_t n)
{
	u->stats.counter[counter] += n;
}

/* a += b, field by field (aggregating one unit's stats over several runs). */
void sim_unit_stats_add(sim_unit_stats *a, const sim_unit_stats *b);

const char *sim_stall_name(enum sim_stall s);
const char *sim_stall_desc(enum sim_stall s);
/* "idle", "busy", "stall:output_full", ... */
const char *sim_activity_name(uint8_t activity);

#endif
