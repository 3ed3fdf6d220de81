/* The common shape of the MFU, TEX, ALU and DW units (gr3d_quad.h): take a
 * token from the input port, do the unit's work on the quad, occupy the
 * unit for the cycles that work costs, then hand the token on
 * (sim/core/stage.h's skeleton). */
#include "units/gr3d/gr3d_quad.h"

#include "sim/core/port.h"
#include "sim/core/timeline.h"

static void gr3d_stage_tick(sim_unit *u, uint64_t now);

/* Nothing held (the per-draw plans of MFU, TEX, ALU and DW stay). */
static void gr3d_stage_reset(sim_unit *u)
{
	gr3d_stage *s = (gr3d_stage *)u;
	s->hold = (sim_hold){ 0 };
	s->cur = (gr3d_token){ 0 };
	s->now = 0;
}

void gr3d_stage_init(gr3d_stage *s, const char *name, gr3d_ctx *ctx,
                     const sim_counter_def *counters, uint8_t ncounters)
{
	memset(s, 0, sizeof *s);
	sim_unit_init(&s->u, name, gr3d_stage_tick, counters, ncounters);
	s->u.reset = gr3d_stage_reset;
	s->ctx = ctx;
	s->quad_clocks = (uint16_t)ctx->cfg->tegra_quad_clocks;
}

void gr3d_stage_connect(gr3d_stage *s, sim_port *in, sim_port *out)
{
	s->in = in;
	s->out = out;
	in->consumer = &s->u;
}

/* The ports between the stages carry gr3d_tokens (gr3d_fp.c): the stages
 * copy them with the size known, a plain 4-byte store.  Timeline events
 * are formed only when a timeline records them (their arguments cost loads). */
static void gr3d_stage_tick(sim_unit *u, uint64_t now)
{
	gr3d_stage *s = (gr3d_stage *)u;
	sim_unit_wait_settle(u, now);
	if (s->hold.on) {                      /* now == done_at: sim_hold_begin slept through */
		if (!sim_hold_room(u, s->out, now))   /* the consumer's pop wakes us */
			return;
		if (sim_unit_recording(u))
			sim_tl_emit(u->tl, now, u->lane, SIM_TL_END, s->ctx->slot[s->cur.qid].id, s->cur.exec);
		if (s->route)                      /* cur is done with: route it in place */
			s->route(s, &s->cur);
		sim_port_push_sized(s->out, &s->cur, sizeof s->cur, now);
		sim_hold_end(&s->hold);
	}
	const gr3d_token *in = sim_port_peek_sized(s->in, sizeof *in, now);
	if (!in) {
		uint64_t r = sim_port_next_ready(s->in);
		if (r != UINT64_MAX)
			sim_unit_wake(u, r);
		return;
	}
	s->cur = *in;
	s->now = now;
	sim_port_pop(s->in, now);              /* wakes the producer, when it waits */
	gr3d_quad *q = &s->ctx->slot[s->cur.qid];
	if (sim_unit_recording(u))
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_BEGIN, q->id, s->cur.exec);
	const unsigned cycles = s->exec(s, q, s->cur.exec);
	u->debug_pc = s->cur.exec;
	u->has_pc = true;
	sim_hold_begin(u, &s->hold, now, cycles);
}
