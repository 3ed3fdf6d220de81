/* MFU, TEX, ALU and DW as stages whose time is computed, not ticked
 * (docs/speed-history.md "Fragments, session 9" and "session 10"; sim.gr3d_chain).
 *
 * The four stages are a tandem of one-token servers: with token k in the
 * order PSEQ pushed them, stage s, its input latency lat[s] and the middle
 * ports' capacity cap,
 *
 *   take[s][k] = max(push[s-1][k] + lat[s], push[s][k-1])
 *   push[s][k] = max(take[s][k] + hold[s][k], take[s+1][k-cap])   (DW's output never fills)
 *
 * where hold is the clocks the stage's work returns (at least 1): a stage
 * pushes and takes in one tick, and consumers step before producers, so a
 * pop frees a slot for the same cycle (tests/units/test_chain.c checks this
 * against the four clocked units on every corpus program).  PSEQ, the only
 * unit that sees the stages (its output port `in`, recirculation `out`),
 * drives them (pseq.h, pseq_attach_chain): when it pushes a token
 * (gr3d_chain_push) the token's work is done in the four stages' own exec
 * functions and its times worked out; their busy and output_full cycles and
 * the middle ports' high-water marks are booked.  Before PSEQ acts at a
 * cycle it asks for that cycle's side of the stages (gr3d_chain_sync):
 * MFU's pops of `in` and DW's pushes into `out`, each at its own cycle, so
 * both ports (their fill, their marks) are what the four units leave.  So
 * the draw's cycles, every stat, port mark and image are the four units'.
 *
 * A draw takes it (gr3d_chain_ok) when nothing outside the token's own quad
 * sees the stages' work at its time: no timeline or viewer probe (they see
 * every cycle), no cycle budget (a stop inside the draw would find work
 * booked ahead), no texture that is also a target (TEX would read what DW
 * writes), no ALU uniform write (shared across quads), no late
 * depth/stencil (ZS reads what DW's test wrote).  Where PSEQ fetches the
 * destination (a blend), DW's work waits for its take (dw_at): the sync
 * before PSEQ's fetch at a cycle does it (DW steps before PSEQ), so each
 * fetch reads the target as the four units leave it (DW's clocks are one
 * quad_clocks whatever it does: dw.c).
 *
 * The watchdog: the stages' takes and PSEQ's issues are the progress (busy
 * ticks).  PSEQ reports the latest of them it has synced at each of its
 * ticks; it runs at most sim.gr3d_chain_ahead cycles and a hold ahead of
 * the clock.  While a token is in flight, the oldest one's MFU take was at most
 * gr3d_chain_lag cycles before what the clock has been told (every token
 * ahead of it in the four stages, each held at most max_hold, the
 * latencies, and the run ahead), so a watchdog longer than that cannot fire
 * in the chain or in the four units; once none is, the last DW take is the
 * latest take of all, reported as the units leave it.  So the watchdog
 * fires where and as theirs would (a draw with a shorter one keeps the
 * units). */
#ifndef ULP_UNITS_GR3D_CHAIN_H
#define ULP_UNITS_GR3D_CHAIN_H

#include "sim/core/port.h"
#include "units/gr3d/alu.h"
#include "units/gr3d/gr3d_quad.h"

enum { GR3D_CHAIN_STAGES = 4 };   /* mfu, tex, alu, dw */

/* A recirculation push to come: the token (after DW's route), at cycle at;
 * DW took it at dw_take. */
typedef struct gr3d_chain_out {
	uint64_t at, dw_take;
	gr3d_token t;
} gr3d_chain_out;

typedef struct gr3d_chain {
	gr3d_ctx *ctx;
	gr3d_stage *stage[GR3D_CHAIN_STAGES];
	sim_port *in, *out;                        /* pseq->mfu, dw->pseq */
	sim_port *mid[GR3D_CHAIN_STAGES - 1];      /* mfu->tex, tex->alu, alu->dw: marks only */
	uint32_t lat[GR3D_CHAIN_STAGES];           /* each stage's input latency */
	uint32_t cap;                              /* the middle ports' capacity */
	/* the take history, a ring of mask + 1 > 4 * (cap + 1) tokens (DW takes
	 * at most 3 * (cap + 1) tokens behind MFU) and at least in's capacity
	 * (MFU's takes of the tokens in it): a row of the four stages' takes a
	 * token */
	uint32_t mask;
	uint64_t (*take)[GR3D_CHAIN_STAGES];       /* [token & mask][stage] */
	uint64_t ntok;                             /* tokens worked out */
	uint64_t taken[GR3D_CHAIN_STAGES - 1];     /* tokens the stage after each middle port took */
	uint64_t last_push[GR3D_CHAIN_STAGES];
	uint64_t progress;                         /* the latest take synced (the watchdog's) */
	uint64_t due;                              /* no sync has work before it (UINT64_MAX: none) */
	gr3d_chain_out *outq;                      /* ring of pushes to come */
	uint32_t oq_head, oq_n, oq_mask;
	bool dw_at;                                /* DW's work at its take (a destination fetch) */
	bool book;                                 /* MFU, TEX, ALU book ahead.h's records */
	uint32_t oq_worked;                        /* ... then: the entries from oq_head DW has worked */
} gr3d_chain;

/* Does the draw allow the chain?  (The conditions above: late, late
 * depth/stencil on; budget, a cycle budget may stop the draw; timeline,
 * one records it.) */
bool gr3d_chain_ok(const gr3d_ctx *ctx, const alu_unit *alu, bool late, bool budget, bool timeline,
                   unsigned max_hold);
/* At least the most cycles between a stage's take and the MFU take of its
 * token, and between a take and the clock hearing of it:
 * (4 * tegra.fifo_quads + 9) * max_hold + sim.gr3d_chain_ahead + twice the
 * five latencies (a generous bound: the tokens ahead in three ports and
 * three stages, the four stages once more, each held at most max_hold, and
 * PSEQ's run ahead). */
uint64_t gr3d_chain_lag(const ulp_config *cfg, unsigned max_hold);

/* The stages mfu, tex, alu, dw (their exec and route kept) between in and
 * out, which lose their consumer and producer (PSEQ asks the chain);
 * dw_at: PSEQ fetches the destination (DW works at its take); false when
 * out of memory. */
bool gr3d_chain_init(gr3d_chain *ch, gr3d_ctx *ctx, gr3d_stage *const stage[GR3D_CHAIN_STAGES], sim_port *in,
                     sim_port *const mid[GR3D_CHAIN_STAGES - 1], sim_port *out, unsigned max_qid, bool dw_at);
void gr3d_chain_fini(gr3d_chain *ch);
/* Nothing in flight, as init left it (gr3d_fp_reset). */
void gr3d_chain_reset(gr3d_chain *ch);

/* The stages' side of cycle t (t never falls): DW's work up to its takes
 * (dw_at), its pushes into out and MFU's pops of in up to t, each at its
 * own cycle; nothing before the first of them is due (ch->due). */
void gr3d_chain_sync_due(gr3d_chain *ch, uint64_t t);
static inline void gr3d_chain_sync(gr3d_chain *ch, uint64_t t)
{
	if (t >= ch->due)
		gr3d_chain_sync_due(ch, t);
}
/* PSEQ pushes token t into in from cycle at: the stages' side of cycle at
 * (gr3d_chain_sync), and when in is full then, of the cycle MFU's next pop
 * frees a slot, which is the push's; the token's work in the four stages
 * and their times.  Returns the cycle of the push (> at: in was full
 * until then). */
uint64_t gr3d_chain_push(gr3d_chain *ch, gr3d_token t, uint64_t at);
/* The cycle the next token coming back becomes visible in out
 * (UINT64_MAX: none in flight). */
uint64_t gr3d_chain_next_back(const gr3d_chain *ch);

#endif
