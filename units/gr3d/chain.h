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
#include "units/gr3d/ahead.h"
#include "units/gr3d/alu.h"
#include "units/gr3d/gr3d_quad.h"

enum { GR3D_CHAIN_STAGES = 4 };   /* mfu, tex, alu, dw */

/* A recirculation push: the token (after DW's route), at cycle at; DW took
 * it at dw_take. */
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
	gr3d_chain_out *outq;                      /* ring: recirculation's tokens, then the pushes to come */
	uint32_t oq_head, oq_n, oq_mask;
	uint64_t lat_back;                         /* out's latency */
	bool dw_at;                                /* DW's work at its take (a destination fetch) */
	bool book;                                 /* MFU, TEX, ALU book ahead.h's records */
	bool avx2;                                 /* PSEQ ticks in its AVX2 build (pseq.c) */
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

/* DW's work for the tokens it takes by t (dw_at; chain.c). */
void gr3d_chain_dw_work(gr3d_chain *ch, uint64_t t);

static inline uint64_t gr3d_chain_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t gr3d_chain_min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Recirculation (out) is the ring outq: from oq_head, out->count entries
 * DW has pushed (a token is visible at its at + out's latency), then the
 * pushes to come.  Only the port's count and mark change (PSEQ, the one
 * consumer, reads the ring: gr3d_chain_back), as with in. */

/* The stages' side of cycle t (t never falls): DW's work up to its takes
 * (dw_at), its pushes into out and MFU's pops of in up to t, each at its
 * own cycle; nothing before the first of them is due (ch->due).  Inline
 * where PSEQ pushes. */
static inline __attribute__((always_inline)) void gr3d_chain_sync_body(gr3d_chain *ch, uint64_t t)
{
	if (ch->dw_at)
		gr3d_chain_dw_work(ch, t);
	/* DW's pushes into recirculation (one a cycle at most), at their cycles */
	sim_port *out = ch->out;
	while (out->count < ch->oq_n) {
		const gr3d_chain_out *o = &ch->outq[(ch->oq_head + out->count) & ch->oq_mask];
		if (o->at > t)
			break;
		if (++out->count > out->max_count)
			out->max_count = out->count;
		ch->progress = gr3d_chain_max(ch->progress, o->dw_take);
	}
	/* MFU's pops of its input, at its takes (the count alone: push) */
	sim_port *in = ch->in;
	uint64_t due = UINT64_MAX;
	while (in->count) {
		const uint64_t take = ch->take[(ch->ntok - in->count) & ch->mask][0];
		if (take > t) {
			due = take;
			break;
		}
		in->count--;
		ch->progress = gr3d_chain_max(ch->progress, take);
	}
	/* what is due next: the oldest token's next event (a token in `in` has
	 * its MFU take before its DW take and push) */
	if (out->count < ch->oq_n) {
		due = gr3d_chain_min(due, ch->outq[(ch->oq_head + out->count) & ch->oq_mask].at);
		if (ch->dw_at && ch->oq_worked < ch->oq_n)
			due = gr3d_chain_min(due, ch->outq[(ch->oq_head + ch->oq_worked) & ch->oq_mask].dw_take);
	}
	ch->due = due;
}

void gr3d_chain_sync_due(gr3d_chain *ch, uint64_t t);
static inline void gr3d_chain_sync(gr3d_chain *ch, uint64_t t)
{
	if (t >= ch->due)
		gr3d_chain_sync_due(ch, t);
}

/* Token t, visible at MFU's input from cycle vis: its work in the four
 * stages, their times and bookings.  book: the draw works ahead (the three
 * records side by side, booked as gr3d_ahead_book would: one look-up, no
 * call per stage); a constant where it is inlined, so each of the two
 * forms is straight code over the stages.  Returns MFU's take. */
static inline __attribute__((always_inline)) uint64_t gr3d_chain_work(gr3d_chain *ch, gr3d_token t, uint64_t vis,
                                                                      bool book)
{
	const uint64_t k = ch->ntok++;
	const uint32_t mask = ch->mask;
	uint64_t *const row = ch->take[(uint32_t)k & mask];
	/* token k - cap's takes (its take after each stage frees the slot the
	 * push needs); before token cap, a row never written: 0, no bound */
	const uint64_t *const freed = ch->take[(uint32_t)(k - ch->cap) & mask];
	gr3d_quad *q = &ch->ctx->slot[t.qid];
	const gr3d_ahead_rec *rec = book ? gr3d_ahead_recs(ch->ctx->ahead, t.qid, t.exec) : NULL;
	uint64_t take0 = 0;
#pragma GCC unroll 3
	for (unsigned s = 0; s + 1 < GR3D_CHAIN_STAGES; s++) {   /* MFU, TEX, ALU */
		gr3d_stage *st = ch->stage[s];
		const uint64_t take = gr3d_chain_max(vis, ch->last_push[s]);
		unsigned clocks;
		if (book) {
			clocks = gr3d_ahead_count(st, &rec[s]);
		} else {
			st->now = take;
			clocks = st->exec(st, q, t.exec);
		}
		const uint64_t done = take + (clocks ? clocks : 1u);
		const uint64_t push = gr3d_chain_max(done, freed[s + 1]);
		/* the port after the push: this token and those the next stage has
		 * not taken by then (earlier tokens: their takes are known; pushes
		 * rise, so the tokens taken by a push only grow), never more than
		 * the capacity (the push waited for token k - cap's take).  Its
		 * mark m rises only when token k - m is not taken (before token m:
		 * a row never written, 0); then counted from taken[s], the tokens
		 * taken by an earlier push, or k + 1 - cap */
		sim_port *mid = ch->mid[s];
		const uint32_t m = mid->max_count;
		if (m < ch->cap && (!m || ch->take[(uint32_t)(k - m) & mask][s + 1] > push)) {
			uint64_t n = k + 1 > ch->cap ? k + 1 - ch->cap : 0;
			n = gr3d_chain_max(n, ch->taken[s]);
			while (n < k && ch->take[n & mask][s + 1] <= push)
				n++;
			ch->taken[s] = n;
			const uint32_t count = (uint32_t)(k + 1 - n);
			if (count > m)
				mid->max_count = count;
		}
		st->u.stats.busy += done - take;
		st->u.stats.stall[SIM_STALL_OUTPUT_FULL] += push - done;
		ch->last_push[s] = push;
		row[s] = take;
		if (s == 0)
			take0 = take;
		vis = push + ch->lat[s + 1];
	}
	/* DW: its output never fills; with a destination fetch its work waits
	 * for its take (gr3d_chain_dw_work) */
	gr3d_stage *dw = ch->stage[GR3D_CHAIN_STAGES - 1];
	const uint64_t take = gr3d_chain_max(vis, ch->last_push[GR3D_CHAIN_STAGES - 1]);
	unsigned clocks = dw->quad_clocks;
	if (!ch->dw_at) {
		dw->now = take;
		clocks = dw->exec(dw, q, t.exec);
		dw->route(dw, &t);
	}
	const uint64_t done = take + (clocks ? clocks : 1u);
	ch->outq[(ch->oq_head + ch->oq_n++) & ch->oq_mask] = (gr3d_chain_out){ done, take, t };
	dw->u.stats.busy += done - take;
	ch->last_push[GR3D_CHAIN_STAGES - 1] = done;
	row[GR3D_CHAIN_STAGES - 1] = take;
	return take0;
}

/* PSEQ pushes token t into in from cycle at: the stages' side of cycle at
 * (gr3d_chain_sync), and when in is full then, of the cycle MFU's next pop
 * frees a slot, which is the push's; the token's work in the four stages
 * and their times (book: ch->book, a constant where it is inlined).
 * Returns the cycle of the push (> at: in was full until then). */
static inline __attribute__((always_inline)) uint64_t gr3d_chain_push(gr3d_chain *ch, gr3d_token t, uint64_t at,
                                                                      bool book)
{
	if (at >= ch->due)
		gr3d_chain_sync_body(ch, at);
	/* in: only its count and mark (MFU, the chain, never reads its items) */
	sim_port *in = ch->in;
	if (in->count == in->capacity) {   /* MFU's next pop (after at: the sync made those by at) */
		at = ch->take[(ch->ntok - in->count) & ch->mask][0];
		gr3d_chain_sync_body(ch, at);
	}
	if (++in->count > in->max_count)
		in->max_count = in->count;
	/* the token's MFU take comes before its DW take and push: the
	 * earliest of its events */
	const uint64_t take0 = gr3d_chain_work(ch, t, at + ch->lat[0], book);
	ch->due = gr3d_chain_min(ch->due, take0);
	return at;
}

/* The token at the head of recirculation when it is visible at cycle now,
 * else NULL; gr3d_chain_back_pop takes it (PSEQ's pop).  PSEQ asks after
 * the stages' side of now (gr3d_chain_sync or the push): every token DW
 * pushes by now is in out, and one visible at now was pushed by then (at +
 * latency <= now), so the head's cycle alone says, not out's count. */
static inline const gr3d_token *gr3d_chain_back(const gr3d_chain *ch, uint64_t now)
{
	const gr3d_chain_out *o = &ch->outq[ch->oq_head];
	return ch->oq_n && o->at + ch->lat_back <= now ? &o->t : NULL;
}
static inline void gr3d_chain_back_pop(gr3d_chain *ch)
{
	ch->oq_head = (ch->oq_head + 1) & ch->oq_mask;
	ch->oq_n--;
	ch->out->count--;
	ch->oq_worked -= ch->dw_at;
}
/* The cycle the next token coming back becomes visible in out
 * (UINT64_MAX: none in flight). */
static inline uint64_t gr3d_chain_next_back(const gr3d_chain *ch)
{
	return ch->oq_n ? ch->outq[ch->oq_head].at + ch->lat_back : UINT64_MAX;
}

#endif
