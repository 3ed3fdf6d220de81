/* An in-memory timeline: a sink that keeps events for a viewer or a test,
 * up to a cap (the timeline window); events past the cap are counted, not
 * kept, so memory stays bounded. */
#ifndef ULP_SIM_TL_STORE_H
#define ULP_SIM_TL_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/core/timeline.h"

typedef struct sim_tl_store {
	sim_tl_event *ev;
	size_t n, cap, max;
	uint64_t dropped;
} sim_tl_store;

void sim_tl_store_init(sim_tl_store *s, size_t max_events);
void sim_tl_store_free(sim_tl_store *s);
/* The sink to add to a timeline. */
sim_tl_sink sim_tl_store_sink(sim_tl_store *s);

#endif
