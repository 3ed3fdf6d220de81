/* The one-clock draw pipeline (gpu.h). */
#include "units/gpu.h"

#include <stdlib.h>

#include "units/pica/vfetch.h"

const gpu_unit_info GPU_UNITS[GPU_NUNIT_NAMES] = {
	{ "vfetch", VFETCH_COUNTERS, VFETCH_CTR_COUNT }, { "vsh0", PICA_COUNTERS, PICA_CTR_COUNT },
	{ "vsh1", PICA_COUNTERS, PICA_CTR_COUNT }, { "vsh2", PICA_COUNTERS, PICA_CTR_COUNT },
	{ "vsh3", PICA_COUNTERS, PICA_CTR_COUNT }, { "prim", PRIM_COUNTERS, PRIM_CTR_COUNT },
	{ "gsh", PICA_COUNTERS, PICA_CTR_COUNT },
	{ "clip", CLIP_COUNTERS, CLIP_CTR_COUNT }, { "setup", SETUP_COUNTERS, SETUP_CTR_COUNT },
	{ "raster", RASTER_COUNTERS, RASTER_CTR_COUNT }, { "pseq", PSEQ_COUNTERS, PSEQ_CTR_COUNT },
	{ "mfu", MFU_COUNTERS, MFU_CTR_COUNT }, { "tex", TEX_COUNTERS, TEX_CTR_COUNT },
	{ "alu", ALU_COUNTERS, ALU_CTR_COUNT }, { "dw", DW_COUNTERS, DW_CTR_COUNT },
};

const gpu_unit_info GPU_UNITS_B[GPU_NUNIT_NAMES_B] = {
	{ "raster_b", RASTER_COUNTERS, RASTER_CTR_COUNT }, { "pseq_b", PSEQ_COUNTERS, PSEQ_CTR_COUNT },
	{ "mfu_b", MFU_COUNTERS, MFU_CTR_COUNT }, { "tex_b", TEX_COUNTERS, TEX_CTR_COUNT },
	{ "alu_b", ALU_COUNTERS, ALU_CTR_COUNT }, { "dw_b", DW_COUNTERS, DW_CTR_COUNT },
};

typedef struct gpu {
	gr3d_fp *fp[SETUP_MAX_BLOCKS];
	unsigned nfp;
	setup_unit setup;
	clip_unit clip;
	prim_unit prim;
	gsh_unit gsh;
	pica_shader_unit vsh[4];
	vfetch_unit fetch;
	sim_port vin[4], vout, p_prim, p_clip, p_gsin;
	sim_clock clock;
} gpu;

static void gpu_free(gpu *G)
{
	for (unsigned k = 0; k < 4; k++)
		sim_port_fini(&G->vin[k]);
	sim_port_fini(&G->vout);
	sim_port_fini(&G->p_prim);
	sim_port_fini(&G->p_clip);
	sim_port_fini(&G->p_gsin);
	prim_fini(&G->prim);
	for (unsigned b = 0; b < G->nfp; b++)
		gr3d_fp_free(G->fp[b]);
	free(G);
}

static void keep(gpu_stats *st, const sim_unit *u)
{
	if (st->nunits < GPU_MAX_UNITS)
		st->unit[st->nunits++] = *u;
}

bool gpu_draw_run(const gpu_draw *g, gpu_stats *st, ulp_diag *d)
{
	static const char *const vnames[4] = { "vsh0", "vsh1", "vsh2", "vsh3" };
	const ulp_config *cfg = g->cfg;
	if (g->vunits < 1 || g->vunits > 4)
		return ulp_diag_at(d, NULL, 0, 0, "1 to 4 shader units, not %u", g->vunits);
	gpu *G = calloc(1, sizeof *G);
	if (!G)
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	const uint32_t fifo = (uint32_t)cfg->gpu_fifo_triangles, lat = (uint32_t)cfg->gpu_lat_geometry;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	const unsigned blocks = g->blocks > 1 ? SETUP_MAX_BLOCKS : 1;
	if (blocks > 1 && (g->swath_shift < 1 || g->swath_shift > 12)) {
		gpu_free(G);
		return ulp_diag_at(d, NULL, 0, 0, "swaths of 2^%u rows: 2..4096 rows", g->swath_shift);
	}
	/* one fragment half per GR3D block, each with its own TRAM (Tegra 3:
	 * a second copy of the pipeline, tegra-fp.md §5) */
	for (unsigned b = 0; b < blocks; b++) {
		G->fp[b] = gr3d_fp_new(&g->frag, setup_tram_slots(g->setup.ntram), true, fifo, lat, &inner);
		if (!G->fp[b]) {
			gpu_free(G);
			return ulp_diag_at(d, NULL, 0, 0, "fragment pipeline: %s", inner.msg);
		}
		G->nfp = b + 1;
		/* without ALTERNATE block A takes every triangle (block B idles) */
		gr3d_fp_set_block(G->fp[b], b, g->swath_alternate ? blocks : 1, g->swath_shift);
	}
	const unsigned n = g->vunits;
	bool ok = sim_port_init(&G->vout, "vsh->prim", sizeof(pica_result), 4, lat, NULL) &&
	          sim_port_init(&G->p_prim, g->gs_prog ? "gsh->clip" : "prim->clip", sizeof(prim_tri), fifo, lat,
	                        NULL) &&
	          sim_port_init(&G->p_clip, "clip->setup", sizeof(prim_tri), fifo, lat, NULL);
	for (unsigned k = 0; ok && k < n; k++) {
		pica_shader_init(&G->vsh[k], vnames[k], k, g->prog, g->unif, cfg, &G->vin[k], &G->vout);
		G->vsh[k].env = g->env;
		ok = sim_port_init(&G->vin[k], vnames[k], sizeof(pica_job), 2, 1, &G->vsh[k].u);
	}
	const bool gs = g->gs_prog != NULL;
	if (gs) {       /* prim -> gsh (the fourth unit) -> clip */
		ok = ok && sim_port_init(&G->p_gsin, "prim->gsh", sizeof(prim_tri), 2, lat, NULL) &&
		     prim_init_geometry(&G->prim, g->gs.per, g->count, &G->vout, &G->p_gsin);
		if (ok && !gsh_init(&G->gsh, g->gs_prog, g->gs_unif, &g->gs, cfg, &G->p_gsin, &G->p_prim, &inner)) {
			gpu_free(G);
			return ulp_diag_at(d, NULL, 0, 0, "geometry shader: %s", inner.msg);
		}
		G->gsh.sh.env.f24 = g->env.f24;
		G->gsh.sh.env.permissive = g->env.permissive;
	} else {
		ok = ok && prim_init(&G->prim, g->mode, g->count, &G->vout, &G->p_prim);
	}
	if (!ok) {
		gpu_free(G);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	sim_port *to[4] = { &G->vin[0], &G->vin[1], &G->vin[2], &G->vin[3] };
	vfetch_init(&G->fetch, to, n, g->count, g->make_job, g->ctx);
	clip_init(&G->clip, &g->clip, &G->p_prim, &G->p_clip);
	G->clip.producer = gs ? &G->gsh.sh.u : &G->prim.u;
	G->prim.pop_wakes = !gs;
	setup_init(&G->setup, &g->setup, &G->p_clip, G->fp[0]);
	for (unsigned b = 1; b < G->nfp && g->swath_alternate; b++)
		setup_add_block(&G->setup, G->fp[b], g->swath_shift);
	G->setup.producer = &G->clip.u;

	/* one clock, consumers before producers (docs/ARCHITECTURE.md) */
	sim_clock *c = &G->clock;
	sim_clock_init(c, (uint64_t)cfg->watchdog_cycles, g->tl);
	for (unsigned b = 0; b < G->nfp; b++)
		ok = ok && gr3d_fp_attach(G->fp[b], c);
	ok = ok && sim_clock_add_unit(c, &G->setup.u) &&
	     sim_clock_add_unit(c, &G->clip.u) && (!gs || sim_clock_add_unit(c, &G->gsh.sh.u)) &&
	     sim_clock_add_unit(c, &G->prim.u) && (!gs || sim_clock_add_port(c, &G->p_gsin));
	for (unsigned k = 0; ok && k < n; k++)
		ok = sim_clock_add_unit(c, &G->vsh[k].u) && sim_clock_add_port(c, &G->vin[k]);
	ok = ok && sim_clock_add_unit(c, &G->fetch.u) && sim_clock_add_port(c, &G->vout) &&
	     sim_clock_add_port(c, &G->p_prim) && sim_clock_add_port(c, &G->p_clip);
	if (!ok) {
		gpu_free(G);
		return ulp_diag_at(d, NULL, 0, 0, "the clock has no room for the draw's units");
	}
	sim_unit_wake(&G->fetch.u, 0);
	enum sim_run_result rr = sim_clock_run(c, UINT64_MAX, d);
	sim_clock_finish(c);
	for (unsigned k = 0; k < n; k++) {
		if (G->vsh[k].failed) {
			char buf[ULP_DIAG_MSG_MAX + 16];
			ulp_diag_format(&G->vsh[k].err, buf, sizeof buf);
			ulp_diag_at(d, NULL, 0, 0, "vertex shader: %s: %s", vnames[k], buf);
			ok = false;
		}
	}
	if (gs && G->gsh.sh.failed) {
		char buf[ULP_DIAG_MSG_MAX + 16];
		ulp_diag_format(&G->gsh.sh.err, buf, sizeof buf);
		ulp_diag_at(d, NULL, 0, 0, "geometry shader: gsh: %s", buf);
		ok = false;
	}
	if (rr == SIM_RUN_WATCHDOG || rr == SIM_RUN_HALTED)
		ok = false;
	else if (ok && !prim_done(&G->prim))
		ok = ulp_diag_at(d, NULL, 0, 0, "draw ended with %u of %u vertices", G->prim.got, g->count);
	else if (ok && gs && !gsh_idle(&G->gsh))
		ok = ulp_diag_at(d, NULL, 0, 0, "draw ended with primitives in the geometry shader unit");
	else if (ok && (!clip_idle(&G->clip) || !setup_idle(&G->setup)))
		ok = ulp_diag_at(d, NULL, 0, 0, "draw ended with triangles in the clipper or setup");
	gr3d_stats fst[SETUP_MAX_BLOCKS];
	for (unsigned b = 0; b < G->nfp; b++)
		ok = gr3d_fp_finish(G->fp[b], c, &fst[b], d) && ok;
	if (st) {
		memset(st, 0, sizeof *st);
		st->cycles = c->now;
		st->vertex_cycles = G->prim.got ? G->prim.last_vertex + 1 : 0;
		st->fragment_cycles = G->setup.first_out == UINT64_MAX ? 0 : c->now - G->setup.first_out;
		st->triangles = gs ? G->gsh.sh.u.stats.counter[PICA_CTR_PRIMITIVES]
		                   : G->prim.u.stats.counter[PRIM_CTR_TRIANGLES];
		st->clipped = G->clip.u.stats.counter[CLIP_CTR_CLIPPED] + G->clip.u.stats.counter[CLIP_CTR_CULLED];
		st->culled = G->setup.u.stats.counter[SETUP_CTR_CULLED];
		for (unsigned b = 0; b < G->nfp; b++) {
			st->fragments += fst[b].pixels;
			st->quads += fst[b].quads;
		}
		keep(st, &G->fetch.u);
		for (unsigned k = 0; k < n; k++)
			keep(st, &G->vsh[k].u);
		keep(st, &G->prim.u);
		if (gs)
			keep(st, &G->gsh.sh.u);
		keep(st, &G->clip.u);
		keep(st, &G->setup.u);
		for (unsigned b = 0; b < G->nfp; b++) {
			const gr3d_fp *f = G->fp[b];
			keep(st, &f->raster.u);
			if (f->zs_on)
				keep(st, &f->zs.u);
			keep(st, &f->pseq.u);
			keep(st, &f->mfu.s.u);
			keep(st, &f->tex.s.u);
			keep(st, &f->alu.s.u);
			keep(st, &f->dw.s.u);
		}
		for (unsigned k = 0; k < c->nports && k < SIM_CLOCK_MAX_PORTS; k++)
			st->port[st->nports++] = stats_port_mark_of(c->port[k]->name, c->port[k]->capacity,
			                                            c->port[k]->max_count);
	}
	gpu_free(G);
	return ok;
}
