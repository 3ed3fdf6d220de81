/* MFU, TEX, ALU and DW as stages whose time is computed (chain.h). */
#include "units/gr3d/chain.h"

#include <stdlib.h>
#include <string.h>

#include "units/gr3d/ahead.h"
#include "units/gr3d/tex.h"

uint64_t gr3d_chain_lag(const ulp_config *cfg, unsigned max_hold)
{
	/* generous: the tokens ahead (three ports and three stages) and the four
	 * stages once more, each a hold, and the latencies twice; and how far
	 * PSEQ runs ahead of the clock (sim.gr3d_chain_ahead and a hold) */
	const uint64_t cap = (uint64_t)cfg->tegra_fifo_quads;
	return (4 * cap + 9) * max_hold + (uint64_t)cfg->host_gr3d_chain_ahead +
	       2 * (uint64_t)(cfg->tegra_lat_pseq + cfg->tegra_lat_mfu + cfg->tegra_lat_tex + cfg->tegra_lat_alu +
	                      cfg->tegra_lat_dw);
}

bool gr3d_chain_ok(const gr3d_ctx *ctx, const alu_unit *alu, bool late, bool budget, bool timeline,
                   unsigned max_hold)
{
	const ulp_config *cfg = ctx->cfg;
	if (!cfg->host_gr3d_chain || ctx->probe || late || budget || timeline)
		return false;
	if (cfg->watchdog_cycles && (uint64_t)cfg->watchdog_cycles <= gr3d_chain_lag(cfg, max_hold))
		return false;
	if (alu_writes(alu, TEGRA_REG_UNIFORM))    /* the shared file */
		return false;
	return !tex_samples_target(ctx);   /* a texture that is also a target */
}

void gr3d_chain_reset(gr3d_chain *ch)
{
	ch->ntok = 0;
	memset(ch->taken, 0, sizeof ch->taken);
	memset(ch->last_push, 0, sizeof ch->last_push);
	ch->oq_head = ch->oq_n = ch->oq_worked = 0;
	ch->progress = 0;
	ch->due = UINT64_MAX;
	/* rows never written read as 0: no bound before token cap (work_out) */
	memset(ch->take, 0, (size_t)(ch->mask + 1) * sizeof *ch->take);
}

bool gr3d_chain_init(gr3d_chain *ch, gr3d_ctx *ctx, gr3d_stage *const stage[GR3D_CHAIN_STAGES], sim_port *in,
                     sim_port *const mid[GR3D_CHAIN_STAGES - 1], sim_port *out, unsigned max_qid, bool dw_at)
{
	memset(ch, 0, sizeof *ch);
	ch->ctx = ctx;
	for (unsigned s = 0; s < GR3D_CHAIN_STAGES; s++)
		ch->stage[s] = stage[s];
	for (unsigned s = 0; s + 1 < GR3D_CHAIN_STAGES; s++)
		ch->mid[s] = mid[s];
	ch->in = in;
	ch->out = out;
	ch->lat[0] = in->latency;
	for (unsigned s = 1; s < GR3D_CHAIN_STAGES; s++)
		ch->lat[s] = mid[s - 1]->latency;
	ch->cap = mid[0]->capacity;
	ch->dw_at = dw_at;
	ch->due = UINT64_MAX;
	ch->book = ctx->ahead != NULL;
	for (unsigned s = 0; s + 1 < GR3D_CHAIN_STAGES; s++)   /* MFU, TEX, ALU in the records' order */
		ch->book &= stage[s]->exec == gr3d_ahead_book && stage[s]->ahead_unit == s;
	/* the take history: DW takes at most 3 * (cap + 1) tokens behind MFU,
	 * and MFU's takes of the tokens in `in` are read when they pop */
	const uint32_t hist = 4 * (ch->cap + 1) + 1;
	ch->mask = sim_ring_size(hist > in->capacity ? hist : in->capacity) - 1;
	/* every token in flight between PSEQ and recirculation holds a slot */
	ch->oq_mask = sim_ring_size(max_qid + 2) - 1;
	ch->take = calloc((size_t)ch->mask + 1, sizeof *ch->take);
	ch->outq = calloc((size_t)ch->oq_mask + 1, sizeof *ch->outq);
	if (ch->mask == UINT32_MAX || ch->oq_mask == UINT32_MAX || !ch->take || !ch->outq) {
		gr3d_chain_fini(ch);
		return false;
	}
	/* nobody ticks for these ports' pushes and pops: PSEQ asks (gr3d_chain_sync) */
	in->consumer = NULL;
	in->producer = NULL;
	out->consumer = NULL;
	return true;
}

void gr3d_chain_fini(gr3d_chain *ch)
{
	free(ch->take);
	free(ch->outq);
	ch->take = NULL;
	ch->outq = NULL;
}

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Token t, visible at MFU's input from cycle vis: its work in the four
 * stages, their times and bookings.  book: the draw works ahead (the three
 * records side by side, booked as gr3d_ahead_book would: one look-up, no
 * call per stage); a constant where push calls it, so each of the two
 * forms is straight code over the stages.  Returns MFU's take. */
static inline __attribute__((always_inline)) uint64_t work_out(gr3d_chain *ch, gr3d_token t, uint64_t vis, bool book)
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
		const uint64_t take = max64(vis, ch->last_push[s]);
		unsigned clocks;
		if (book) {
			clocks = gr3d_ahead_count(st, &rec[s]);
		} else {
			st->now = take;
			clocks = st->exec(st, q, t.exec);
		}
		const uint64_t done = take + (clocks ? clocks : 1u);
		const uint64_t push = max64(done, freed[s + 1]);
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
			n = max64(n, ch->taken[s]);
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
	 * for its take (dw_work) */
	gr3d_stage *dw = ch->stage[GR3D_CHAIN_STAGES - 1];
	const uint64_t take = max64(vis, ch->last_push[GR3D_CHAIN_STAGES - 1]);
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

/* dw_at: DW's work for the tokens it takes by t, in order (a token is
 * pushed after it is taken, so none is pushed unworked). */
static void dw_work(gr3d_chain *ch, uint64_t t)
{
	gr3d_stage *dw = ch->stage[GR3D_CHAIN_STAGES - 1];
	while (ch->oq_worked < ch->oq_n) {
		gr3d_chain_out *o = &ch->outq[(ch->oq_head + ch->oq_worked) & ch->oq_mask];
		if (o->dw_take > t)
			break;
		dw->now = o->dw_take;
		dw->exec(dw, &ch->ctx->slot[o->t.qid], o->t.exec);
		dw->route(dw, &o->t);
		ch->oq_worked++;
	}
}

/* gr3d_chain_sync_due's body, inlined where the push syncs */
static inline __attribute__((always_inline)) void sync_due(gr3d_chain *ch, uint64_t t)
{
	if (ch->dw_at)
		dw_work(ch, t);
	/* DW's pushes into recirculation (one a cycle at most), at their cycles */
	while (ch->oq_n && ch->outq[ch->oq_head].at <= t) {
		const gr3d_chain_out *o = &ch->outq[ch->oq_head];
		sim_port_push_sized(ch->out, &o->t, sizeof(gr3d_token), o->at);
		ch->progress = max64(ch->progress, o->dw_take);
		ch->oq_head = (ch->oq_head + 1) & ch->oq_mask;
		ch->oq_n--;
		ch->oq_worked -= ch->dw_at;
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
		ch->progress = max64(ch->progress, take);
	}
	/* what is due next: the oldest token's next event (a token in `in` has
	 * its MFU take before its DW take and push) */
	if (ch->oq_n) {
		due = min64(due, ch->outq[ch->oq_head].at);
		if (ch->dw_at && ch->oq_worked < ch->oq_n)
			due = min64(due, ch->outq[(ch->oq_head + ch->oq_worked) & ch->oq_mask].dw_take);
	}
	ch->due = due;
}

void gr3d_chain_sync_due(gr3d_chain *ch, uint64_t t) { sync_due(ch, t); }

uint64_t gr3d_chain_push(gr3d_chain *ch, gr3d_token t, uint64_t at)
{
	if (at >= ch->due)
		sync_due(ch, at);
	/* in: only its count and mark (MFU, the chain, never reads its items) */
	sim_port *in = ch->in;
	if (in->count == in->capacity) {   /* MFU's next pop (after at: the sync made those by at) */
		at = ch->take[(ch->ntok - in->count) & ch->mask][0];
		sync_due(ch, at);
	}
	if (++in->count > in->max_count)
		in->max_count = in->count;
	const uint64_t vis = at + ch->lat[0];
	/* the token's MFU take comes before its DW take and push: the
	 * earliest of its events */
	const uint64_t take0 = ch->book ? work_out(ch, t, vis, true) : work_out(ch, t, vis, false);
	ch->due = min64(ch->due, take0);
	return at;
}

uint64_t gr3d_chain_next_back(const gr3d_chain *ch)
{
	const uint64_t r = sim_port_next_ready(ch->out);
	if (r != UINT64_MAX || !ch->oq_n)
		return r;
	return ch->outq[ch->oq_head].at + ch->out->latency;
}
