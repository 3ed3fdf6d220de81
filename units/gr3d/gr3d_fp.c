/* The fragment pipeline: rasterizer + the five units (gr3d_fp.h). */
#include "units/gr3d/gr3d_fp.h"

#include <stdlib.h>

#include "units/gr3d/ahead.h"

gr3d_fp *gr3d_fp_new(const gr3d_draw *dr, unsigned tram_slots, bool ring, uint32_t tri_capacity,
                     uint32_t tri_latency, ulp_diag *d)
{
	const tegra_fp_decoded *prog = dr->prog;
	if (!prog || prog->exec_count < 1 || prog->exec_count > TEGRA_FP_MAX_EXEC)
		return ulp_diag_at(d, NULL, 0, 0, "fragment program has no EXEC"), (gr3d_fp *)NULL;
	if (prog->alu_buffer_size < 1 || prog->alu_buffer_size > 4)
		return ulp_diag_at(d, NULL, 0, 0, "alu_buffer_size %u: the hardware takes 1..4",
		                   prog->alu_buffer_size), (gr3d_fp *)NULL;
	if (tram_slots < 1 || tram_slots > GR3D_MAX_TRIS)
		return ulp_diag_at(d, NULL, 0, 0, "1..%d triangles, not %u", GR3D_MAX_TRIS, tram_slots),
		       (gr3d_fp *)NULL;
	const ulp_image *ref = NULL;
	for (unsigned k = 0; k < GR3D_RTS; k++) {
		if (!dr->rt[k])
			continue;
		if (ref && (dr->rt[k]->width != ref->width || dr->rt[k]->height != ref->height))
			return ulp_diag_at(d, NULL, 0, 0, "render target %u: size differs from the others", k),
			       (gr3d_fp *)NULL;
		ref = dr->rt[k];
	}
	if (!ref)
		return ulp_diag_at(d, NULL, 0, 0, "no render target bound"), (gr3d_fp *)NULL;
	if (ref->width > 0xFFFE || ref->height > 0xFFFE)
		return ulp_diag_at(d, NULL, 0, 0, "render target too large"), (gr3d_fp *)NULL;

	const ulp_config *cfg = dr->cfg;
	gr3d_fp *f = calloc(1, sizeof *f);
	if (!f)
		return ulp_diag_at(d, NULL, 0, 0, "out of memory"), (gr3d_fp *)NULL;
	gr3d_ctx *ctx = &f->ctx;
	ctx->prog = prog;
	ctx->cfg = cfg;
	memcpy(ctx->uniforms, dr->uniforms, sizeof ctx->uniforms);
	memcpy(ctx->sampler, dr->sampler, sizeof ctx->sampler);
	memcpy(ctx->rt, dr->rt, sizeof ctx->rt);
	memcpy(ctx->rt_format, dr->rt_format, sizeof ctx->rt_format);
	ctx->stencil = dr->stencil;
	ctx->probe = dr->probe;
	ctx->width = ref->width;
	ctx->height = ref->height;
	ctx->rows = prog->alu_buffer_size;
	ctx->ntris = tram_slots;
	ctx->fp20_round = cfg->fp20_round;
	ctx->fx10_round = cfg->fx10_round;
	ctx->fx10_wrap = cfg->fx10_overflow == FX10_OVERFLOW_WRAP;
	ctx->exact = cfg->arith == ULP_ARITH_EXACT;
	if (ctx->exact) {
		memcpy(ctx->xuniform, dr->xuniform, sizeof ctx->xuniform);
		ctx->xuniform_mask = dr->xuniform_mask;
	}
	f->tram_ring = ring;
	f->max_qid = pseq_max_qid(cfg, ctx->rows);
	bool ok = true;
	for (unsigned k = 0; k < GR3D_SAMPLERS && ok; k++)
		ok = tex_build_levels(&ctx->sampler[k], f->levels[k], d);
	if (!ok) {
		gr3d_fp_free(f);
		return NULL;
	}
	ok = gr3d_tram_init(&f->tram, tram_slots);
	f->slots = calloc(f->max_qid, sizeof *f->slots);
	f->free_slots = calloc(f->max_qid, sizeof *f->free_slots);
	ctx->tram = f->tram.tri;
	ctx->slot = f->slots;
	f->zs_on = zs_active(&dr->zs_state);
	f->zs_state = dr->zs_state;
	f->late_on = f->zs_on && f->zs_state.late;
	if (!ok || (f->late_on && !zs_late_init(&f->late, &f->zs_state, dr->zs))) {
		gr3d_fp_free(f);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory"), (gr3d_fp *)NULL;
	}
	zs_late *late = f->late_on ? &f->late : NULL;   /* ZS -> DW (zs.h) */
	const uint32_t fifo = (uint32_t)cfg->tegra_fifo_quads;
	mfu_init(&f->mfu, ctx);
	tex_init(&f->tex, ctx);
	alu_init(&f->alu, ctx);
	dw_init(&f->dw, ctx, late);
	ok = f->slots && f->free_slots &&
	     sim_port_init(&f->tri_in, "setup->raster", sizeof(raster_tri), tri_capacity, tri_latency, NULL) &&
	     sim_port_init(&f->p_in, f->zs_on ? "zs->pseq" : "raster->pseq", sizeof(gr3d_quad_in), fifo,
	                   (uint32_t)cfg->tegra_lat_raster, NULL) &&
	     (!f->zs_on || sim_port_init(&f->p_zs, "raster->zs", sizeof(gr3d_quad_in), fifo,
	                                 (uint32_t)cfg->tegra_lat_raster, NULL)) &&
	     sim_port_init(&f->p_mfu, "pseq->mfu", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_pseq, NULL) &&
	     sim_port_init(&f->p_tex, "mfu->tex", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_mfu, NULL) &&
	     sim_port_init(&f->p_alu, "tex->alu", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_tex, NULL) &&
	     sim_port_init(&f->p_dw, "alu->dw", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_alu, NULL) &&
	     /* every quad in flight fits: recirculation never blocks DW */
	     sim_port_init(&f->p_recirc, "dw->pseq", sizeof(gr3d_token), f->max_qid + 1,
	                   (uint32_t)cfg->tegra_lat_dw, NULL);
	if (!ok) {
		gr3d_fp_free(f);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory"), (gr3d_fp *)NULL;
	}
	/* the TRAM's holds are counted only when setup reuses its slots */
	gr3d_tram *ring_tram = ring ? &f->tram : NULL;
	raster_init(&f->raster, &f->tri_in, f->zs_on ? &f->p_zs : &f->p_in, ring_tram);
	if (f->zs_on) {               /* raster -> ZS -> PSEQ (units/gr3d/zs.h) */
		zs_init(&f->zs, &f->zs_state, dr->zs, late, (unsigned)cfg->zs_pixels_per_clock, &f->p_zs,
		        &f->p_in);
		f->zs.tram = ring_tram;   /* a quad ZS rejects lets go of its slot there */
	}
	pseq_init(&f->pseq, ctx, f->max_qid, f->free_slots, ring_tram, &f->p_in, &f->p_recirc, &f->p_mfu);
	gr3d_stage_connect(&f->mfu.s, &f->p_mfu, &f->p_tex);
	gr3d_stage_connect(&f->tex.s, &f->p_tex, &f->p_alu);
	gr3d_stage_connect(&f->alu.s, &f->p_alu, &f->p_dw);
	gr3d_stage_connect(&f->dw.s, &f->p_dw, &f->p_recirc);
	/* the units that wait for room in their output port, woken by the pop
	 * that makes it (sim_port_pop); DW never waits: dw->pseq holds every
	 * quad in flight */
	if (f->zs_on) {
		f->p_zs.producer = &f->raster.u;
		f->p_in.producer = &f->zs.u;
	} else {
		f->p_in.producer = &f->raster.u;
	}
	f->p_mfu.producer = &f->pseq.u;
	f->p_tex.producer = &f->mfu.s.u;
	f->p_alu.producer = &f->tex.s.u;
	f->p_dw.producer = &f->alu.s.u;
	unsigned packets = 0;                 /* sim.gr3d_ahead: where the ALU work pays for it */
	for (unsigned e = 0; e < prog->exec_count; e++)
		packets += f->alu.packets[e];
	if (cfg->host_gr3d_ahead && (int64_t)packets >= cfg->host_gr3d_ahead && gr3d_ahead_ok(ctx, &f->pseq, &f->alu)) {
		uint8_t lo[TEGRA_FP_MAX_EXEC], hi[TEGRA_FP_MAX_EXEC];
		bool store[TEGRA_FP_MAX_EXEC];
		for (unsigned e = 0; e < prog->exec_count; e++) {
			lo[e] = f->dw.plan[e].lo;
			hi[e] = f->dw.plan[e].hi;
			store[e] = f->dw.plan[e].enable;
		}
		/* out of memory: the general path */
		f->ahead = gr3d_ahead_new(ctx, f->max_qid, &f->mfu.s, &f->tex.s, &f->alu.s, lo, hi, store);
	}
	return f;
}

void gr3d_fp_free(gr3d_fp *f)
{
	if (!f)
		return;
	sim_port_fini(&f->tri_in);
	sim_port_fini(&f->p_in);
	sim_port_fini(&f->p_mfu);
	sim_port_fini(&f->p_tex);
	sim_port_fini(&f->p_alu);
	sim_port_fini(&f->p_dw);
	sim_port_fini(&f->p_recirc);
	if (f->zs_on)
		sim_port_fini(&f->p_zs);
	zs_late_fini(&f->late);
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		for (unsigned l = 0; l < GR3D_TEX_LEVELS; l++)
			ulp_image_free(f->levels[k][l]);
	gr3d_tram_fini(&f->tram);
	gr3d_ahead_free(f->ahead);
	if (f->chain_on)
		gr3d_chain_fini(&f->chain);
	free(f->slots);
	free(f->free_slots);
	free(f);
}

void gr3d_fp_set_block(gr3d_fp *f, unsigned block, unsigned nblocks, unsigned swath_shift)
{
	f->raster.block = (uint8_t)block;
	f->raster.nblocks = (uint8_t)nblocks;
	f->raster.swath_shift = (uint8_t)swath_shift;
	if (block == 0)
		return;
	/* GSHIM_WRITE_MASK calls the blocks GPU_A and GPU_B (tegra-fp.md §4) */
	f->raster.u.name = "raster_b";
	f->zs.u.name = "zs_b";
	f->pseq.u.name = "pseq_b";
	f->mfu.s.u.name = "mfu_b";
	f->tex.s.u.name = "tex_b";
	f->alu.s.u.name = "alu_b";
	f->dw.s.u.name = "dw_b";
	f->tri_in.name = "setup->raster_b";
	f->p_in.name = f->zs_on ? "zs->pseq_b" : "raster->pseq_b";
	f->p_zs.name = "raster->zs_b";
	f->p_mfu.name = "pseq->mfu_b";
	f->p_tex.name = "mfu->tex_b";
	f->p_alu.name = "tex->alu_b";
	f->p_dw.name = "alu->dw_b";
	f->p_recirc.name = "dw->pseq_b";
}

void gr3d_fp_reset(gr3d_fp *f)
{
	const gr3d_fp_units fu = gr3d_fp_units_of(f);
	sim_unit *us[] = { &f->dw.s.u, &f->alu.s.u, &f->tex.s.u, &f->mfu.s.u, fu.pseq, fu.zs, fu.raster };
	for (unsigned k = 0; k < sizeof us / sizeof us[0]; k++)
		if (us[k])
			sim_unit_reset(us[k]);
	sim_port *ports[] = { &f->tri_in, &f->p_in, &f->p_mfu, &f->p_tex, &f->p_alu, &f->p_dw, &f->p_recirc };
	for (unsigned k = 0; k < sizeof ports / sizeof ports[0]; k++)
		sim_port_reset(ports[k]);
	if (f->zs_on)
		sim_port_reset(&f->p_zs);
	gr3d_tram_reset(&f->tram);
	if (f->late_on)
		zs_late_reset(&f->late);
	if (f->ahead)
		gr3d_ahead_reset(f->ahead);
	if (f->chain_on)
		gr3d_chain_reset(&f->chain);
}

gr3d_fp_units gr3d_fp_units_of(gr3d_fp *f)
{
	if (f->chain_on)                      /* PSEQ drives the stages (chain.h) */
		return (gr3d_fp_units){ .pseq = &f->pseq.u, .zs = f->zs_on ? &f->zs.u : NULL, .raster = &f->raster.u };
	return (gr3d_fp_units){ .dw = &f->dw.s.u, .alu = &f->alu.s.u, .tex = &f->tex.s.u, .mfu = &f->mfu.s.u,
	                        .pseq = &f->pseq.u, .zs = f->zs_on ? &f->zs.u : NULL,
	                        .raster = &f->raster.u };
}

void gr3d_fp_chain(gr3d_fp *f, bool timeline, bool budget)
{
	if (f->chain_on)
		return;
	/* the longest a stage holds a token: MFU's and the ALU's clocks per EXEC,
	 * TEX's and DW's one quad_clocks (mfu.c, alu.c, tex.c, dw.c) */
	unsigned most = 1;
	for (unsigned e = 0; e < f->ctx.prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		most = f->mfu.count[e] > most ? f->mfu.count[e] : most;
		most = f->alu.packets[e] > most ? f->alu.packets[e] : most;
	}
	const unsigned max_hold = most * (unsigned)f->ctx.cfg->tegra_quad_clocks;
	if (!gr3d_chain_ok(&f->ctx, &f->alu, f->late_on, budget, timeline, max_hold))
		return;
	const bool fetch = pseq_fetches(&f->pseq);   /* a blend: DW's work at its take (chain.h) */
	gr3d_stage *const st[GR3D_CHAIN_STAGES] = { &f->mfu.s, &f->tex.s, &f->alu.s, &f->dw.s };
	sim_port *const mid[GR3D_CHAIN_STAGES - 1] = { &f->p_tex, &f->p_alu, &f->p_dw };
	/* out of memory: the four units */
	f->chain_on = gr3d_chain_init(&f->chain, &f->ctx, st, &f->p_mfu, mid, &f->p_recirc, f->max_qid, fetch);
	if (f->chain_on)
		pseq_attach_chain(&f->pseq, &f->chain);
}

bool gr3d_fp_add_ports(gr3d_fp *f, sim_clock *c)
{
	sim_port *ports[] = { &f->tri_in, &f->p_in, &f->p_mfu, &f->p_tex, &f->p_alu, &f->p_dw, &f->p_recirc };
	bool ok = true;
	for (unsigned k = 0; ok && k < sizeof ports / sizeof ports[0]; k++)
		ok = sim_clock_add_port(c, ports[k]);
	if (ok && f->zs_on)
		ok = sim_clock_add_port(c, &f->p_zs);
	return ok;
}

bool gr3d_fp_finish(const gr3d_fp *f, const sim_clock *c, gr3d_stats *st, ulp_diag *d)
{
	bool ok = true;
	if (f->late_on && f->late.lost)
		ok = ulp_diag_at(d, NULL, 0, 0, "depth/stencil: more than %d quads in flight between ZS and DW",
		                 ZS_LATE_ENTRIES);
	else if (f->pseq.inflight || !raster_idle(&f->raster))
		ok = ulp_diag_at(d, NULL, 0, 0, "fragment pipeline stopped with %u quads in flight",
		                 f->pseq.inflight);
	if (st) {
		memset(st, 0, sizeof *st);
		st->cycles = c->now;
		st->quads = f->raster.next_id;
		st->max_qid = f->max_qid;
		const sim_unit *us[GR3D_UNITS] = { &f->pseq.u, &f->mfu.s.u, &f->tex.s.u, &f->alu.s.u, &f->dw.s.u };
		for (unsigned k = 0; k < GR3D_UNITS; k++) {
			st->name[k] = us[k]->name;
			st->unit[k] = us[k]->stats;
			st->idle[k] = sim_unit_idle(c, us[k]);
			st->counter_defs[k] = us[k]->counter_defs;
			st->ncounters[k] = us[k]->ncounters;
		}
		st->mid_marks[0] = f->p_tex.max_count;
		st->mid_marks[1] = f->p_alu.max_count;
		st->mid_marks[2] = f->p_dw.max_count;
		st->pixel_execs = f->pseq.u.stats.counter[PSEQ_CTR_ISSUES] * GR3D_PIXELS;
		st->pixels = f->dw.s.u.stats.counter[DW_CTR_PIXELS];
		if (f->zs_on) {
			st->zs_used = true;
			st->zs = f->zs.u.stats;
			st->zs_idle = sim_unit_idle(c, &f->zs.u);
		}
	}
	return ok;
}
