/* The idle look a geometry unit would take at now + 1 (setup; clip's was
 * tried and cost more than it saved, speed-history.md session 17): after
 * it hands its work on or drops it, it ticked at now + 1 only to find its
 * input empty (or not ready) and sleep again.  That tick changes no state
 * and no figure but those of its pass when nothing else is due then: the
 * run's end (the cycle after its last pass), a cycle limit, the watchdog's
 * look.  So the unit sleeps until its input's next item (a push wakes it
 * for a later one) and owes the clock the pass at now + 1, which the clock
 * makes only when something is due then and otherwise books (sim_wheel's
 * owed, as for a wake of a unit later in the step order; sim/core/clock.c
 * run_passes).  With a timeline the tick stays (it closes the unit's lane
 * span where the unit's lane shows it). */
#ifndef ULP_UNITS_GEOM_IDLE_H
#define ULP_UNITS_GEOM_IDLE_H

#include "sim/core/port.h"

/* Instead of sim_unit_sleep_until(u, now + 1) for a look at in. */
static inline void geom_sleep_idle(sim_unit *u, const sim_port *in, uint64_t now)
{
	if (sim_unit_recording(u) || !u->clock_wheel) {
		sim_unit_sleep_until(u, now + 1);
		return;
	}
	sim_unit_sleep_until(u, sim_port_next_ready(in));   /* <= now + 1: the clock takes now + 1 */
	sim_unit_owe_pass(u, now);
}

#endif
