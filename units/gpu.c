/* The one-clock draw pipeline (gpu.h). */
#include "units/gpu.h"

#include <math.h>
#include <stdlib.h>

#include "sim/core/clock_par.h"
#include "units/pica/vfetch.h"

/* The one step order of every clock: consumers before producers, so a pop
 * frees a slot its producer can fill in the same cycle (docs/ARCHITECTURE.md),
 * and a pass's scan stops after the last unit with a wake: the geometry
 * units, once done, cost nothing (sim/core/clock.c).  The fragment kinds
 * come first, one GR3D block after the other. */
const gpu_step GPU_STEP_ORDER[GPU_STEP_KINDS] = {
	{ GPU_STEP_DW, true }, { GPU_STEP_ALU, true }, { GPU_STEP_TEX, true }, { GPU_STEP_MFU, true },
	{ GPU_STEP_PSEQ, true }, { GPU_STEP_ZS, true }, { GPU_STEP_RASTER, true },
	{ GPU_STEP_SETUP, false }, { GPU_STEP_CLIP, false }, { GPU_STEP_GSH, false },
	{ GPU_STEP_PRIM, false }, { GPU_STEP_VSH, false }, { GPU_STEP_VFETCH, false },
};

static bool add_unit(sim_clock *c, sim_unit *u) { return !u || sim_clock_add_unit(c, u); }

bool gpu_clock_add_units(sim_clock *c, const gpu_step_units *s)
{
	unsigned nb = 0;                          /* the leading per-block kinds */
	while (nb < GPU_STEP_KINDS && GPU_STEP_ORDER[nb].per_block)
		nb++;
	for (unsigned b = 0; b < GPU_STEP_INSTANCES; b++)
		for (unsigned e = 0; e < nb; e++)
			if (!add_unit(c, s->u[GPU_STEP_ORDER[e].kind][b]))
				return false;
	for (unsigned e = nb; e < GPU_STEP_KINDS; e++)
		for (unsigned i = 0; i < GPU_STEP_INSTANCES; i++)
			if (!add_unit(c, s->u[GPU_STEP_ORDER[e].kind][i]))
				return false;
	return true;
}

/* Block b's fragment units into s. */
static void step_block(gpu_step_units *s, gr3d_fp *f, unsigned b)
{
	const gr3d_fp_units fu = gr3d_fp_units_of(f);
	s->u[GPU_STEP_DW][b] = fu.dw;
	s->u[GPU_STEP_ALU][b] = fu.alu;
	s->u[GPU_STEP_TEX][b] = fu.tex;
	s->u[GPU_STEP_MFU][b] = fu.mfu;
	s->u[GPU_STEP_PSEQ][b] = fu.pseq;
	s->u[GPU_STEP_ZS][b] = fu.zs;
	s->u[GPU_STEP_RASTER][b] = fu.raster;
}

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
	sim_unit *stand_in;               /* while the blocks run apart (run_clock) */
} gpu;

/* Cycles per lock-step window of the two blocks on two threads when the
 * draw does not say (sim.thread_window 0) and records a timeline: how far
 * one block may run ahead of the other; the timeline's events of a window
 * are held until it ends (sim/core/clock_par.h).  Without a timeline
 * nothing is held: one window, the rest of the draw (it ends early only
 * where the watchdog could fire). */
enum { GPU_PAR_WINDOW = 32768, GPU_PAR_LOOK = 256 };

/* Every unit after the blocks' (from) asleep for good, and the geometry
 * drained: from here the blocks no longer interact with anything but
 * setup's wakes, whose ticks would find nothing to do. */
static bool shared_asleep(const gpu *G, unsigned from, bool gs)
{
	const sim_clock *c = &G->clock;
	for (unsigned i = from; i < c->nunits; i++) {
		const sim_unit *u = c->unit[i];
		if (u->wake != UINT64_MAX || u->waiting || ((c->lane_due >> i) & 1u))
			return false;
	}
	return setup_idle(&G->setup) && clip_idle(&G->clip) && prim_done(&G->prim) && (!gs || gsh_idle(&G->gsh));
}

/* While the blocks run apart, the wakes they send setup (a pop of its
 * port, a freed TRAM slot) go to a stand-in on each block's clock: setup
 * would tick and find nothing, but the wake still makes the clock run the
 * next cycle. */
static void stand_in_tick(sim_unit *u, uint64_t now)
{
	(void)u;
	(void)now;
}

static void rewire_setup(void *ctx, bool apart)
{
	gpu *G = ctx;
	for (unsigned b = 0; b < G->setup.nblocks; b++) {
		sim_unit *to = apart ? &G->stand_in[b] : &G->setup.u;
		G->setup.out[b]->producer = to;
		G->setup.tram[b]->waiter = to;
	}
}

/* The draw's clock until `until`: one thread, or with two GR3D blocks
 * alternating swaths and two threads, one thread until the geometry is done
 * (in windows, to notice it) and then the blocks side by side.  The same
 * results either way (docs/speed-history.md "Two host threads"). */
static enum sim_run_result run_clock(gpu *G, const gpu_draw *g, const gpu_step_units *su, uint64_t until,
                                     bool *threaded, sim_par_host *host, ulp_diag *d)
{
	sim_clock *c = &G->clock;
	const uint64_t window = g->thread_window ? g->thread_window : g->tl ? GPU_PAR_WINDOW : UINT64_MAX;
	*threaded = false;
	unsigned threads = g->threads ? g->threads : sim_host_cores();
	if (threads > G->nfp)
		threads = G->nfp;
	if (threads < 2 || !g->swath_alternate || g->frag.probe || G->setup.nblocks != G->nfp)
		return sim_clock_run(c, until, d);
	/* the blocks' units lead the clock, block A's then block B's */
	sim_unit stand_in[SIM_PAR_MAX_PARTS];
	sim_clock_parts ps = { .n = SIM_PAR_MAX_PARTS, .rewire = rewire_setup, .ctx = G };
	unsigned from = 0;
	for (unsigned b = 0; b < SIM_PAR_MAX_PARTS; b++) {
		ps.first[b] = from;
		ps.count[b] = 0;
		for (unsigned e = 0; e < GPU_STEP_KINDS && GPU_STEP_ORDER[e].per_block; e++)
			ps.count[b] += su->u[GPU_STEP_ORDER[e].kind][b] != NULL;
		from += ps.count[b];
		sim_unit_init(&stand_in[b], "setup", stand_in_tick, NULL, 0);
		ps.stand_in[b] = &stand_in[b];
	}
	G->stand_in = stand_in;
	/* the geometry's end is looked for every GPU_PAR_LOOK cycles */
	const uint64_t look = window < GPU_PAR_LOOK ? window : GPU_PAR_LOOK;
	for (;;) {
		const uint64_t e = until - c->now > look ? c->now + look : until;
		const enum sim_run_result rr = sim_clock_run(c, e, d);
		if (rr != SIM_RUN_LIMIT || e == until)
			return rr;
		if (shared_asleep(G, from, g->gs_prog != NULL))
			break;
	}
	const enum sim_run_result rr = sim_clock_run_parts(c, &ps, until, window, threaded, host, d);
	G->stand_in = NULL;
	return rr;
}

static void gpu_free(gpu *G)
{
	for (unsigned k = 0; k < 4; k++)
		sim_port_fini(&G->vin[k]);
	sim_port_fini(&G->vout);
	sim_port_fini(&G->p_prim);
	sim_port_fini(&G->p_clip);
	sim_port_fini(&G->p_gsin);
	sim_unit_fini(&G->prim.u);            /* the only unit with a fini hook */
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
		gr3d_fp_chain(G->fp[b], g->tl != NULL, g->max_cycles != 0);
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
		ok = sim_port_init(&G->vin[k], vnames[k], sizeof(pica_job_ref), VFETCH_PORT_ITEMS, 1,
		                   &G->vsh[k].u);
	}
	const bool gs = g->gs_prog != NULL;
	/* only the o registers the clipper and setup read travel through prim
	 * (without a GS, which reads its own) and clip */
	const uint16_t live = clip_live_regs(&g->clip) | setup_live_regs(&g->setup);
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
		ok = ok && prim_init(&G->prim, g->mode, g->count, live, &G->vout, &G->p_prim);
	}
	if (!ok) {
		gpu_free(G);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	sim_port *to[4] = { &G->vin[0], &G->vin[1], &G->vin[2], &G->vin[3] };
	vfetch_init(&G->fetch, to, n, g->count, g->make_job, g->ctx);
	/* make_job reads the trace's buffers, which no unit writes during a
	 * draw (the colour and depth targets are the replay's own surfaces),
	 * and the uniforms hold for the draw: what a vertex computes does not
	 * depend on when it is fetched, so vertex fetch may shade ahead */
	vfetch_shade_ahead(&G->fetch, g->prog, g->unif, &g->env);
	clip_init(&G->clip, &g->clip, &G->p_prim, &G->p_clip);
	setup_init(&G->setup, &g->setup, &G->p_clip, G->fp[0]);
	clip_set_live(&G->clip, live);
	for (unsigned b = 1; b < G->nfp && g->swath_alternate; b++)
		setup_add_block(&G->setup, G->fp[b], g->swath_shift);
	/* who waits for whom, woken by a pop (sim_port_pop) or a freed TRAM
	 * slot: setup by its blocks' rasterizers and TRAMs, the clipper by
	 * setup, prim (without a GS) or the GS unit by the clipper.  The
	 * shader units and prim before a GS poll. */
	for (unsigned b = 0; b < G->setup.nblocks; b++) {
		G->setup.out[b]->producer = &G->setup.u;
		G->setup.tram[b]->waiter = &G->setup.u;
	}
	G->p_clip.producer = &G->clip.u;
	G->p_prim.producer = gs ? &G->gsh.sh.u : &G->prim.u;

	/* one clock, in the one step order */
	sim_clock *c = &G->clock;
	sim_clock_init(c, (uint64_t)cfg->watchdog_cycles, g->tl);
	gpu_step_units su = { 0 };
	for (unsigned b = 0; b < G->nfp; b++)
		step_block(&su, G->fp[b], b);
	su.u[GPU_STEP_SETUP][0] = &G->setup.u;
	su.u[GPU_STEP_CLIP][0] = &G->clip.u;
	su.u[GPU_STEP_GSH][0] = gs ? &G->gsh.sh.u : NULL;
	su.u[GPU_STEP_PRIM][0] = &G->prim.u;
	for (unsigned k = 0; k < n; k++)
		su.u[GPU_STEP_VSH][k] = &G->vsh[k].u;
	su.u[GPU_STEP_VFETCH][0] = &G->fetch.u;
	ok = ok && gpu_clock_add_units(c, &su);
	for (unsigned b = 0; b < G->nfp; b++)
		ok = ok && gr3d_fp_add_ports(G->fp[b], c);
	ok = ok && (!gs || sim_clock_add_port(c, &G->p_gsin));
	for (unsigned k = 0; ok && k < n; k++)
		ok = sim_clock_add_port(c, &G->vin[k]);
	ok = ok && sim_clock_add_port(c, &G->vout) && sim_clock_add_port(c, &G->p_prim) &&
	     sim_clock_add_port(c, &G->p_clip);
	if (!ok) {
		gpu_free(G);
		return ulp_diag_at(d, NULL, 0, 0, "the clock has no room for the draw's units");
	}
	sim_unit_wake(&G->fetch.u, 0);
	bool threaded = false;
	sim_par_host host = { 0 };
	enum sim_run_result rr = run_clock(G, g, &su, g->max_cycles ? g->max_cycles : UINT64_MAX, &threaded, &host, d);
	if (rr == SIM_RUN_LIMIT && c->next == UINT64_MAX)
		rr = SIM_RUN_DRAINED;             /* drained exactly at the limit */
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
	else if (rr == SIM_RUN_LIMIT)
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
	if (rr == SIM_RUN_LIMIT)          /* after finish: its report is not the cause */
		ulp_diag_at(d, NULL, 0, 0, "the cycle budget ran out at cycle %llu of this draw",
		            (unsigned long long)c->now);
	if (st) {
		memset(st, 0, sizeof *st);
		st->cycles = c->now;
		st->threaded = threaded;
		st->host_par_cpu = host.cpu_sum;
		st->host_par_critical = host.cpu_critical;
		st->host_par_windows = host.windows;
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

/* The fragment half alone: every triangle has its own TRAM slot and is in
 * the rasterizer's queue at cycle 0, as if set up beforehand. */
bool gr3d_fp_draw(const gr3d_draw *dr, gr3d_stats *st, ulp_diag *d)
{
	if (dr->ntris < 1 || dr->ntris > GR3D_MAX_TRIS)
		return ulp_diag_at(d, NULL, 0, 0, "1..%d triangles, not %u", GR3D_MAX_TRIS, dr->ntris);
	gr3d_fp *f = gr3d_fp_new(dr, dr->ntris, false, dr->ntris, 0, d);
	if (!f)
		return false;
	gr3d_fp_chain(f, dr->tl != NULL, false);
	for (unsigned t = 0; t < dr->ntris; t++) {
		const uint32_t (*rows[3])[4];
		double x[3], y[3], z[3], w[3];
		for (unsigned k = 0; k < 3; k++) {
			unsigned i = dr->idx[3 * t + k];
			if (i >= dr->nvtx) {
				gr3d_fp_free(f);
				return ulp_diag_at(d, NULL, 0, 0, "triangle %u: vertex index %u out of range", t, i);
			}
			const gr3d_vertex *v = &dr->vtx[i];
			if (!isfinite(v->x) || !isfinite(v->y) || !isfinite(v->w) || v->w == 0.0) {
				gr3d_fp_free(f);
				return ulp_diag_at(d, NULL, 0, 0, "triangle %u: vertex %u is not finite", t, i);
			}
			x[k] = v->x;
			y[k] = v->y;
			w[k] = v->w;
			z[k] = isfinite(v->z) ? v->z : 0.0;
			rows[k] = v->tram;
		}
		raster_tri rt;
		raster_tri_setup(&rt, x, y, z, w, f->ctx.width, f->ctx.height);
		rt.slot = (uint8_t)t;
		gr3d_tram_load(&f->tram, t, rows);
		sim_port_push(&f->tri_in, &rt, 0);
	}
	sim_clock clock;
	sim_clock_init(&clock, (uint64_t)dr->cfg->watchdog_cycles, dr->tl);
	gpu_step_units su = { 0 };
	step_block(&su, f, 0);
	bool ok = gpu_clock_add_units(&clock, &su) && gr3d_fp_add_ports(f, &clock);
	sim_unit_wake(&f->raster.u, 0);
	enum sim_run_result rr = sim_clock_run(&clock, UINT64_MAX, d);
	sim_clock_finish(&clock);
	/* the first error wins: a watchdog report stays in d */
	ok = gr3d_fp_finish(f, &clock, st, d) && ok && rr != SIM_RUN_WATCHDOG && rr != SIM_RUN_HALTED;
	gr3d_fp_free(f);
	return ok;
}

/* ---- a vertex batch over the shader units alone ---- */

/* The batch's sink takes the results in prim's place. */

typedef struct batch_sink {
	sim_unit u;
	sim_port *from;
	uint32_t got;
	void (*on_result)(void *ctx, const pica_result *r);
	void *ctx;
} batch_sink;

static void sink_reset(sim_unit *u) { ((batch_sink *)u)->got = 0; }

static void sink_tick(sim_unit *u, uint64_t now)
{
	batch_sink *k = (batch_sink *)u;
	const pica_result *r;
	while ((r = sim_port_peek(k->from, now))) {
		if (k->on_result)
			k->on_result(k->ctx, r);
		sim_port_pop(k->from, now);
		k->got++;
		sim_unit_busy(u);
	}
	uint64_t next = sim_port_next_ready(k->from);
	if (next != UINT64_MAX)
		sim_unit_wake(u, next);
}

/* Without a timeline the sink does not tick: the units hand it each
 * result at their END (pica_shader_unit take).  Ticking, it pops each
 * result the cycle after its push (the port's latency, the sink stepping
 * before the units), so a unit's END never finds the port full (at most
 * one push a unit a cycle, four units at most, capacity 4): the order of
 * the results, the units' figures and the cycles are the same; the
 * sink's own figures are not reported, its busy cycle reaches the
 * watchdog through the unit (push_result). */
static void sink_take(void *ctx, const pica_result *r)
{
	batch_sink *k = ctx;
	if (k->on_result)
		k->on_result(k->ctx, r);
	k->got++;
}

bool pica_batch_run(const pica_program *prog, const pica_uniforms *unif, const ulp_config *cfg,
                    const pica_env *env, unsigned units, uint32_t njobs,
                    void (*make_job)(void *ctx, uint32_t id, pica_job *job),
                    void (*on_result)(void *ctx, const pica_result *r), void *ctx,
                    sim_timeline *tl, pica_batch_stats *stats, ulp_diag *d)
{
	static const char *const names[4] = { "vsh0", "vsh1", "vsh2", "vsh3" };
	if (units < 1 || units > 4)
		return ulp_diag_at(d, NULL, 0, 0, "1 to 4 shader units, not %u", units);
	pica_shader_unit *sh = calloc(units, sizeof *sh);
	sim_port *in = calloc(units, sizeof *in);
	sim_port out;
	vfetch_unit fetch;
	batch_sink sink;
	sim_clock clock;
	bool ok = sh && in && sim_port_init(&out, "vsh->out", sizeof(pica_result), 4, 1, NULL);
	if (!ok) {
		free(sh);
		free(in);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	sim_clock_init(&clock, (uint64_t)cfg->watchdog_cycles, tl);
	sim_unit_init(&sink.u, "vsh_out", sink_tick, NULL, 0);
	sink.u.reset = sink_reset;
	sink.from = &out;
	sink.got = 0;
	sink.on_result = on_result;
	sink.ctx = ctx;
	out.consumer = &sink.u;
	sim_port *to[4] = { &in[0], units > 1 ? &in[1] : NULL, units > 2 ? &in[2] : NULL,
	                    units > 3 ? &in[3] : NULL };
	vfetch_init(&fetch, to, units, njobs, make_job, ctx);
	vfetch_shade_ahead(&fetch, prog, unif, env);   /* make_job: the caller's, timeless */
	unsigned ninit = 0;
	for (unsigned k = 0; k < units && ok; k++) {
		pica_shader_init(&sh[k], names[k], k, prog, unif, cfg, &in[k], &out);
		sh[k].env = *env;
		if (!tl) {
			sh[k].take = sink_take;
			sh[k].take_ctx = &sink;
		}
		ok = sim_port_init(&in[k], names[k], sizeof(pica_job_ref), VFETCH_PORT_ITEMS, 1, &sh[k].u);
		ninit = k + 1;
	}
	/* the one step order (GPU_STEP_ORDER); at most 6 units: room enough */
	gpu_step_units su = { 0 };
	su.u[GPU_STEP_PRIM][0] = &sink.u;
	for (unsigned k = 0; k < ninit; k++)
		su.u[GPU_STEP_VSH][k] = &sh[k].u;
	su.u[GPU_STEP_VFETCH][0] = &fetch.u;
	gpu_clock_add_units(&clock, &su);
	for (unsigned k = 0; k < ninit; k++)
		sim_clock_add_port(&clock, &in[k]);
	sim_clock_add_port(&clock, &out);
	sim_unit_wake(&fetch.u, 0);
	enum sim_run_result rr = ok ? sim_clock_run(&clock, UINT64_MAX, d) : SIM_RUN_WATCHDOG;
	if (!ok)
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
	sim_clock_finish(&clock);
	for (unsigned k = 0; k < units; k++) {
		if (sh[k].failed && ok) {
			char buf[ULP_DIAG_MSG_MAX + 16];
			ulp_diag_format(&sh[k].err, buf, sizeof buf);
			ulp_diag_at(d, NULL, 0, 0, "%s: %s", names[k], buf);
			ok = false;
		}
	}
	if (ok && rr == SIM_RUN_WATCHDOG)
		ok = false;
	if (ok && sink.got != njobs)
		ok = ulp_diag_at(d, NULL, 0, 0, "batch ended with %u of %u vertices", sink.got, njobs);
	if (stats) {
		memset(stats, 0, sizeof *stats);
		stats->cycles = clock.now;
		stats->fetch = fetch.u.stats;
		for (unsigned k = 0; k < units; k++) {
			stats->unit[k] = sh[k].u.stats;
			stats->unit_idle[k] = sim_unit_idle(&clock, &sh[k].u);
			stats->instructions += sh[k].u.stats.counter[PICA_CTR_INSTRUCTIONS];
			stats->invocations += sh[k].u.stats.counter[PICA_CTR_INVOCATIONS];
		}
	}
	for (unsigned k = 0; k < units; k++)
		sim_port_fini(&in[k]);
	sim_port_fini(&out);
	free(sh);
	free(in);
	return ok;
}
