/* The clock: every unit advances on one clock, in one fixed step order.
 *
 * Idle units cost nothing: a unit that sleeps (wake = UINT64_MAX, or a
 * future cycle) is not ticked, and when every unit sleeps the clock skips
 * ahead to the earliest wake.  Idle cycles are derived (cycles - busy -
 * stalls), never counted one by one.
 *
 * The watchdog stops a run in which no unit did useful work for
 * watchdog_cycles cycles while some unit was still awake, and names the
 * units (activity, PC) and ports (occupancy) involved. */
#ifndef ULP_SIM_CLOCK_H
#define ULP_SIM_CLOCK_H

#include <stdint.h>

#include "base/diag.h"
#include "sim/core/port.h"
#include "sim/core/timeline.h"
#include "sim/core/unit.h"

enum { SIM_CLOCK_MAX_UNITS = 32, SIM_CLOCK_MAX_PORTS = 48 };   /* units: a uint32_t mask */

typedef struct sim_clock {
	uint64_t now;                      /* the next cycle to simulate */
	uint64_t watchdog_cycles;          /* 0 = off */
	uint64_t last_progress;
	uint64_t next;                     /* earliest wake of any unit */
	sim_wheel wheel;                   /* the units' wakes by cycle (sim_unit_wake fills it) */
	uint32_t slept;                    /* with a timeline: units of this pass asleep past it */
	uint32_t lane_due;                 /* with a timeline: held lanes to show in the next pass */
	sim_unit *unit[SIM_CLOCK_MAX_UNITS];   /* step order */
	uint64_t last_tick[SIM_CLOCK_MAX_UNITS];
	unsigned nunits;
	sim_port *port[SIM_CLOCK_MAX_PORTS];   /* for watchdog reports */
	unsigned nports;
	sim_timeline *tl;                  /* may be NULL */
	/* with a timeline: called before each pass (phase 0) and before the
	 * spans of units that went to sleep are closed (phase 1), so that the
	 * events of clocks run side by side can be merged in the one clock's
	 * order (sim/core/clock_par.c); NULL: none */
	void (*mark)(void *ctx, uint64_t cycle, unsigned phase);
	void *mark_ctx;
} sim_clock;

enum sim_run_result {
	SIM_RUN_DRAINED,    /* every unit asleep with nothing scheduled */
	SIM_RUN_LIMIT,      /* reached the cycle limit */
	SIM_RUN_WATCHDOG,   /* no progress: d holds the report */
	SIM_RUN_HALTED,     /* a unit set halt (it holds its own error) */
};

void sim_clock_init(sim_clock *c, uint64_t watchdog_cycles, sim_timeline *tl);
/* Units tick in the order they are added.  Returns false when full. */
bool sim_clock_add_unit(sim_clock *c, sim_unit *u);
bool sim_clock_add_port(sim_clock *c, sim_port *p);

/* Simulate cycles [now, until).  Returns why it stopped. */
enum sim_run_result sim_clock_run(sim_clock *c, uint64_t until, ulp_diag *d);

/* Close open activity spans on the timeline (call when a run ends). */
void sim_clock_finish(sim_clock *c);

/* Idle cycles of u over the cycles simulated so far. */
uint64_t sim_unit_idle(const sim_clock *c, const sim_unit *u);

#endif
