#include "sim/core/unit.h"

#include <string.h>

static const char *const stall_names[] = {
#define STALL(id, name, desc) name,
#include "sim/core/stall_causes.def"
#undef STALL
};

static const char *const stall_descs[] = {
#define STALL(id, name, desc) desc,
#include "sim/core/stall_causes.def"
#undef STALL
};

static const char *const activity_names[] = {
	"idle", "busy",
#define STALL(id, name, desc) "stall:" name,
#include "sim/core/stall_causes.def"
#undef STALL
};

_Static_assert(sizeof stall_names / sizeof stall_names[0] == SIM_STALL_COUNT, "stall table");

void sim_unit_init(sim_unit *u, const char *name, void (*tick)(sim_unit *, uint64_t),
                   const sim_counter_def *counters, uint8_t ncounters)
{
	memset(u, 0, sizeof *u);
	u->name = name;
	u->tick = tick;
	u->counter_defs = counters;
	u->ncounters = ncounters < SIM_MAX_COUNTERS ? ncounters : SIM_MAX_COUNTERS;
	u->wake = UINT64_MAX;
}

void sim_wheel_add_other(sim_wheel *w, uint64_t at, uint32_t bit)
{
	if (at < w->now) {
		/* due: in this pass when the unit comes after the one ticking,
		 * else in the next (as a wake for now) */
		w->slot[(w->now + (bit <= w->cur)) % SIM_WHEEL_SLOTS] |= bit;
	} else {
		w->far |= bit;
		if (at < w->far_next)
			w->far_next = at;
	}
}

void sim_unit_reset(sim_unit *u)
{
	memset(&u->stats, 0, sizeof u->stats);
	u->wake = UINT64_MAX;
	u->wake_floor = 0;
	u->activity = u->last_activity = SIM_ACT_IDLE;
	u->halt = false;
	u->waiting = false;
	u->waiting_cause = 0;
	u->waiting_since = 0;
	u->lane_holds = false;
	u->lane_next = SIM_ACT_IDLE;
	u->debug_pc = 0;
	u->has_pc = false;
	if (u->reset)
		u->reset(u);
}

void sim_unit_stats_add(sim_unit_stats *a, const sim_unit_stats *b)
{
	a->busy += b->busy;
	for (int k = 0; k < SIM_STALL_COUNT; k++)
		a->stall[k] += b->stall[k];
	for (int k = 0; k < SIM_MAX_COUNTERS; k++)
		a->counter[k] += b->counter[k];
}

const char *sim_stall_name(enum sim_stall s) { return s < SIM_STALL_COUNT ? stall_names[s] : "?"; }
const char *sim_stall_desc(enum sim_stall s) { return s < SIM_STALL_COUNT ? stall_descs[s] : "?"; }

const char *sim_activity_name(uint8_t a)
{
	return a < sizeof activity_names / sizeof activity_names[0] ? activity_names[a] : "?";
}
