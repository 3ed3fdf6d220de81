/* The skeleton of a unit that works on one item at a time (GR3D's PSEQ, ZS,
 * MFU, TEX, ALU, DW; triangle setup):
 *
 *   tick(now):
 *     sim_unit_wait_settle(u, now);           cycles slept waiting, booked
 *     if (h.on) {                             the held item's time is over
 *       if (!sim_hold_room(u, out, now))      out full: wait for its pop
 *         return;
 *       push the item; sim_hold_end(&h);
 *     }
 *     take the next item from in (sim_port_pop wakes in's producer);
 *     do its work; sim_hold_begin(u, &h, now, cycles);
 *
 * sim_hold_begin books the item's cycles as busy and sleeps through them
 * (sim_unit_occupy); the unit ticks again at done_at, in the cycle the item
 * may leave. */
#ifndef ULP_SIM_STAGE_H
#define ULP_SIM_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/core/port.h"
#include "sim/core/unit.h"

typedef struct sim_hold {
	bool on;                  /* an item is held */
	uint64_t done_at;         /* the cycle it may leave */
} sim_hold;

/* The unit took an item at cycle now that occupies it for `cycles` cycles
 * (0 counts as 1): this cycle is busy, and so are the ones up to done_at. */
static inline void sim_hold_begin(sim_unit *u, sim_hold *h, uint64_t now, uint64_t cycles)
{
	h->done_at = now + (cycles ? cycles : 1);
	h->on = true;
	sim_unit_busy(u);
	sim_unit_occupy(u, now, h->done_at);
}

/* May the held item leave into out?  While out is full, no: the unit
 * stalls (output_full) until out's consumer pops and so wakes it (the
 * wiring names the unit as out's producer). */
static inline bool sim_hold_room(sim_unit *u, const sim_port *out, uint64_t now)
{
	if (!sim_port_full(out))
		return true;
	sim_unit_stall_wait(u, now, SIM_STALL_OUTPUT_FULL);
	return false;
}

static inline void sim_hold_end(sim_hold *h) { h->on = false; }

#endif
