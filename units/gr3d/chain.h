/* MFU, TEX, ALU and DW as one unit whose time is computed, not ticked
 * (docs/speed.md "Fragments, session 9"; sim.gr3d_chain).
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
 * against the four clocked units on every corpus program).  The unit does
 * each token's work in the four stages' own exec functions, in token order,
 * when the token reaches the head of PSEQ's output port; it books their
 * busy and output_full cycles and the middle ports' high-water marks, and
 * ticks only where the rest of the pipeline sees the stages: MFU's pops of
 * PSEQ's port, and DW's pushes into recirculation.  So the draw's cycles,
 * every stat, port mark and image are the four units'.
 *
 * A draw takes it (gr3d_chain_ok) when nothing outside the token's own quad
 * sees the stages' work at its time: no timeline or viewer probe (they see
 * every cycle), no cycle budget (a stop inside the draw would find work
 * booked ahead), no texture that is also a target (TEX would read what DW
 * writes), no ALU uniform write (shared across quads), no late
 * depth/stencil (ZS reads what DW's test wrote).  Where PSEQ fetches the
 * destination (a blend), DW's work waits for its take (dw_at): the unit
 * ticks then, in MFU's place, which is still before PSEQ in the step order,
 * so each fetch reads the target as the four units leave it (DW's clocks
 * are one quad_clocks whatever it does: dw.c).
 *
 * The watchdog: the stages' takes are their progress (their busy ticks).
 * The chain shows MFU's take of each token (its pop: a busy tick) and, at
 * the token's push into recirculation, DW's take of it.  While a token is
 * in flight, the oldest one's MFU take was at most gr3d_chain_lag cycles
 * ago (every token ahead of it in the four stages, each held at most
 * max_hold, plus the latencies), so a watchdog longer than that cannot fire
 * in the chain or in the four units; once none is, the last DW take shown
 * is the latest take of all, as the units left it.  So the watchdog fires
 * where and as theirs would (a draw with a shorter one keeps the units). */
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
	sim_unit u;
	gr3d_ctx *ctx;
	gr3d_stage *stage[GR3D_CHAIN_STAGES];
	sim_port *in, *out;                        /* pseq->mfu, dw->pseq */
	sim_port *mid[GR3D_CHAIN_STAGES - 1];      /* mfu->tex, tex->alu, alu->dw: marks only */
	uint32_t lat[GR3D_CHAIN_STAGES];           /* each stage's input latency */
	uint32_t cap;                              /* the middle ports' capacity */
	/* the take history, a ring of mask + 1 >= 4 * (cap + 1) tokens per stage:
	 * DW takes at most 3 * (cap + 1) tokens behind MFU */
	uint32_t mask;
	uint64_t *take[GR3D_CHAIN_STAGES];         /* [token & mask], one allocation */
	uint64_t ntok;                             /* tokens worked out */
	uint64_t taken[GR3D_CHAIN_STAGES - 1];     /* tokens the stage after each middle port took */
	uint64_t last_push[GR3D_CHAIN_STAGES];
	bool head_done;                            /* in's head worked out, popped at pop_at */
	uint64_t pop_at;
	gr3d_chain_out *outq;                      /* ring of pushes to come */
	uint32_t oq_head, oq_n, oq_mask;
	bool dw_at;                                /* DW's work at its take (a destination fetch) */
	uint32_t oq_worked;                        /* ... then: the entries from oq_head DW has worked */
} gr3d_chain;

/* Does the draw allow the chain?  (The conditions above: late, late
 * depth/stencil on; budget, a cycle budget may stop the draw; timeline,
 * one records it.) */
bool gr3d_chain_ok(const gr3d_ctx *ctx, const alu_unit *alu, bool late, bool budget, bool timeline,
                   unsigned max_hold);
/* At least the most cycles between a stage's take and the MFU take of its
 * token: (4 * tegra.fifo_quads + 8) * max_hold + twice the five latencies
 * (a generous bound: the tokens ahead in three ports and three stages, and
 * the four stages once more, each held at most max_hold). */
uint64_t gr3d_chain_lag(const ulp_config *cfg, unsigned max_hold);

/* The unit for stages mfu, tex, alu, dw (their exec and route kept), between
 * in (its consumer becomes the chain) and out; dw_at: PSEQ fetches the
 * destination (DW works at its take); false when out of memory. */
bool gr3d_chain_init(gr3d_chain *ch, gr3d_ctx *ctx, gr3d_stage *const stage[GR3D_CHAIN_STAGES], sim_port *in,
                     sim_port *const mid[GR3D_CHAIN_STAGES - 1], sim_port *out, unsigned max_qid, bool dw_at);
void gr3d_chain_fini(gr3d_chain *ch);

#endif
