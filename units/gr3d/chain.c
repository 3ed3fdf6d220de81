/* MFU, TEX, ALU and DW as stages whose time is computed (chain.h). */
#include "units/gr3d/chain.h"

#include <stdlib.h>
#include <string.h>

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
	/* rows never written read as 0: no bound before token cap (gr3d_chain_work) */
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
	ch->lat_back = out->latency;
	ch->book = ctx->ahead != NULL;
#if defined(__x86_64__)
	ch->avx2 = __builtin_cpu_supports("avx2");
#endif
	for (unsigned s = 0; s + 1 < GR3D_CHAIN_STAGES; s++)   /* MFU, TEX, ALU in the records' order */
		ch->book &= stage[s]->exec == gr3d_ahead_book && stage[s]->ahead_unit == s;
	/* the take history: DW takes at most 3 * (cap + 1) tokens behind MFU,
	 * and MFU's takes of the tokens in `in` are read when they pop */
	const uint32_t hist = 4 * (ch->cap + 1) + 1;
	ch->mask = sim_ring_size(hist > in->capacity ? hist : in->capacity) - 1;
	/* every token in flight holds a slot until PSEQ pops it from recirculation */
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

/* dw_at: DW's work for the tokens it takes by t, in order (a token is
 * pushed after it is taken, so none is pushed unworked). */
void gr3d_chain_dw_work(gr3d_chain *ch, uint64_t t)
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

void gr3d_chain_sync_due(gr3d_chain *ch, uint64_t t) { gr3d_chain_sync_body(ch, t); }
