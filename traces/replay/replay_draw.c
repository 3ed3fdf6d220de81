/* Trace replay: draws (replay_int.h). */
#include "traces/replay/replay_int.h"

#include "isa/tegra/tegra_disasm.h"

#include <stdlib.h>

static sim_unit *replay_unit_named(replay_result *res, const char *name)
{
	for (unsigned k = 0; k < res->nunits; k++)
		if (strcmp(res->unit[k].name, name) == 0)
			return &res->unit[k];
	return NULL;
}

/* The "zs" unit of the run's stats ("zs_b": GR3D block B's), registered up
 * front when the trace uses depth/stencil, else added at its first use. */
sim_unit *replay_zs_unit_stats(replay_result *res, const char *name)
{
	sim_unit *u = replay_unit_named(res, name);
	if (!u && res->nunits < REPLAY_MAX_UNITS) {
		u = &res->unit[res->nunits++];
		sim_unit_init(u, !strcmp(name, "zs") ? "zs" : "zs_b", NULL, ZS_COUNTERS, ZS_CTR_COUNT);
	}
	return u;
}

/* The o register with a semantic (TGSI vertex shaders), or 0xFF. */
static uint8_t replay_vs_reg(const replay *r, int sem, uint32_t index)
{
	for (unsigned o = 0; r->vs_tgsi && o < 16; o++)
		if (r->vs_sem[o] == sem && r->vs_sem_index[o] == index)
			return (uint8_t)o;
	return 0xFF;
}

/* The linker (docs/replay.md) into LINKER_INSTRUCTION, CULL_FACE_LINKER_SETUP and
 * TRAM_SETUP (units/geom/gr3d_state.h): TRAM rows by semantic when both stages are
 * TGSI, else every non-position output in register order; the back colours
 * for two-sided colour; the rows flat shading holds constant. */
static void program_linker(replay *r)
{
	gr3d_link_row row[GR3D_TRAM_ROWS];
	unsigned n = r->ntram;
	for (unsigned k = 0; k < n; k++)
		row[k] = (gr3d_link_row){ r->tram_reg[k], 0xFF, false };
	if (r->vs_tgsi && r->fs_tgsi) {
		n = r->fs_nin;
		for (unsigned k = 0; k < n; k++) {
			gr3d_link_row *w = &row[k];
			w->reg = r->fs_sem[k] >= 0 ? replay_vs_reg(r, r->fs_sem[k], r->fs_sem_index[k]) : 0xFF;
			w->reg_back = r->fs_sem[k] == TGSI_SEMANTIC_COLOR ? replay_vs_reg(r, TGSI_SEMANTIC_BCOLOR, r->fs_sem_index[k])
			                                                : 0xFF;
			bool flat = r->fs_interp[k] == TGSI_INTERPOLATE_CONSTANT ||
			            (r->fs_interp[k] == TGSI_INTERPOLATE_COLOR && r->flatshade);
			w->flat = flat && r->fs_sem[k] != TGSI_SEMANTIC_POSITION && r->fs_sem[k] != TGSI_SEMANTIC_FACE;
		}
	}
	drv_gr3d_linker(&r->stream, row, n, r->cull, r->front_ccw, r->two_side);
}

/* A unit of the pipeline (units/gpu.h) added to the stats at its first
 * draw (a session with lazy units). */
static sim_unit *lazy_unit(replay_result *res, const char *name)
{
	for (unsigned k = 0; k < GPU_NUNIT_NAMES + GPU_NUNIT_NAMES_B && res->nunits < REPLAY_MAX_UNITS; k++) {
		const gpu_unit_info *g = k < GPU_NUNIT_NAMES ? &GPU_UNITS[k] : &GPU_UNITS_B[k - GPU_NUNIT_NAMES];
		if (!strcmp(g->name, name)) {
			sim_unit *u = &res->unit[res->nunits++];
			sim_unit_init(u, g->name, NULL, g->counters, g->ncounters);
			return u;
		}
	}
	return NULL;
}

static void add_units(replay_result *res, const gpu_stats *st, bool lazy)
{
	for (unsigned k = 0; k < st->nunits; k++) {
		sim_unit *u = replay_unit_named(res, st->unit[k].name);
		if (!u && (!strcmp(st->unit[k].name, "zs") || !strcmp(st->unit[k].name, "zs_b")))
			u = replay_zs_unit_stats(res, st->unit[k].name);   /* depth/stencil from raw register blocks */
		if (!u && lazy)
			u = lazy_unit(res, st->unit[k].name);
		if (u)
			sim_unit_stats_add(&u->stats, &st->unit[k].stats);
	}
	for (unsigned k = 0; k < st->nports; k++) {      /* the highest mark per port name */
		unsigned j = 0;
		while (j < res->nports && strcmp(res->port[j].name, st->port[k].name))
			j++;
		if (j == res->nports && res->nports < STATS_MAX_PORTS)
			res->port[res->nports++] = st->port[k];
		else if (j < res->nports && st->port[k].max_count > res->port[j].max_count)
			res->port[j].max_count = st->port[k].max_count;
	}
}

/* The draw command: the linker, the draw registers and the trigger (the
 * draw runs when flush_stream applies the trigger). */
bool replay_draw(replay *r, const cJSON *c, size_t i)
{
	if (!r->have_vs || !r->have_fs)
		return replay_fail(r, i, "draw before bind_shaders", NULL);
	if (!r->ncbufs)
		return replay_fail(r, i, "draw before framebuffer", NULL);
	if (!replay_fs_variant(r, i))
		return false;
	const char *mode = rp_str(c, "mode");
	const bool gs_on = pica_regs_gs_on(&r->regs);      /* GEOSTAGE_CONFIG: a GS is in use */
	size_t from = r->stream.n;
	if (gs_on) {                                       /* the GS input buffer for this draw */
		if (!replay_gs_draw_regs(&r->gs, mode, &r->regs, &r->stream, r->t->path, i, r->d))
			return false;
	} else if (strcmp(mode, "triangles") && strcmp(mode, "triangle_strip") && strcmp(mode, "triangle_fan")) {
		return replay_fail(r, i, "points and lines are not in this build yet (points: with a geometry shader): ",
		            mode);
	}
	program_linker(r);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (!replay_state_draw(&r->st, &r->stream, c, gs_on, &inner))
		return replay_fail(r, i, inner.msg, NULL);
	return replay_flush(r, from, i);
}

/* A draw as the registers describe it (the PICA200 shader, attribute and
 * draw registers; the GR3D program, linker, viewport, scissor, textures,
 * render targets and depth/stencil), with the stats hook around it. */
static bool run_draw(replay *r, size_t i, bool indexed)
{
	if (!r->ncbufs)
		return replay_fail(r, i, "draw before framebuffer", NULL);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	const ulp_config *cfg = r->o->cfg;
	gpu_draw *g = calloc(1, sizeof *g);
	vfetch_setup *f = calloc(1, sizeof *f);
	if (!g || !f) {
		free(g);
		free(f);
		return replay_fail(r, i, "out of memory", NULL);
	}
	pica_program prog, gprog;
	memset(&gprog, 0, sizeof gprog);
	bool have_prog = false;
	const bool gs_on = pica_regs_gs_on(&r->regs);
	bool ok = replay_state_draw_setup(&r->st, &r->regs, &r->gregs, indexed, g, f, &inner) &&
	          (have_prog = pica_regs_program(&r->regs, false, cfg, &prog, &inner));
	if (ok && gs_on) {        /* the fourth unit runs the GS (units/geom/gsh.h) */
		ok = replay_gs_config(&r->regs, cfg, &g->gs, &gprog, &inner);
		if (!ok) {
			char why[ULP_DIAG_MSG_MAX];
			snprintf(why, sizeof why, "%s", inner.msg);
			ulp_diag_at(&inner, NULL, 0, 0, "geometry shader: %.400s", why);
		}
		g->gs_prog = &gprog;
		g->gs_unif = &r->regs.gs.unif;
		g->setup.pos_reg = g->clip.pos_reg = r->pos_reg;   /* the GS's position output */
	}
	/* the fragment program and its constants, as the GR3D registers hold them */
	ok = ok && gr3d_regs_program(&r->gregs, &r->fp, &inner) && tegra_fp_decode(&r->fp, &r->fpd, NULL, &inner);
	if (ok && cfg->arith == ULP_ARITH_EXACT)   /* the compiler's binary32 immediates (docs/exact.md) */
		tegra_fp_apply_ximm(&r->fpd, &r->fs_ximm);
	if (ok && r->o->fs_hook) {    /* the program as the registers hold it, when no binding said */
		char *dis = r->fs_grate ? NULL : tegra_disasm(&r->fp, 0, NULL, &inner);
		r->o->fs_hook(r->o->hook_ctx, r->fs_grate ? r->fs_grate : dis);
		free(dis);
		ulp_diag_clear(&inner);
	}
	g->cfg = cfg;
	g->tl = r->o->tl;
	g->prog = &prog;
	g->unif = &r->regs.vs.unif;
	pica_env_from_config(&g->env, cfg);
	g->env.permissive = r->o->permissive;
	g->env.warn = r->o->warn;
	g->env.ctx = r->o->warn_ctx;
	g->vunits = pica_vertex_units(cfg, gs_on);
	g->clip.clipvert_reg = replay_vs_reg(r, TGSI_SEMANTIC_CLIPVERTEX, 0);
	g->clip.clipdist_reg[0] = replay_vs_reg(r, TGSI_SEMANTIC_CLIPDIST, 0);
	g->clip.clipdist_reg[1] = replay_vs_reg(r, TGSI_SEMANTIC_CLIPDIST, 1);
	g->clip.plane_enable = r->clip_plane_enable;
	memcpy(g->clip.plane, r->ucp, sizeof g->clip.plane);
	g->clip.w_epsilon = (float)cfg->clip_w_epsilon;
	g->clip.clip_cycles = (uint16_t)cfg->clip_cycles;
	g->setup.tri_cycles = (uint16_t)cfg->setup_tri_cycles;
	gr3d_draw *dr = &g->frag;
	dr->prog = &r->fpd;
	dr->cfg = cfg;
	dr->xuniform_mask = 0;
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++) {
		dr->uniforms[k] = r->gregs.raw[GR3D_REG_AT(FP_CONST, k)] & FP20_MASK;
		/* arith=exact: a word still as a constant_buffer wrote it reads as
		 * the binary32 it came from (docs/exact.md) */
		if (cfg->arith == ULP_ARITH_EXACT && ((r->fs_f32_mask >> k) & 1u) &&
		    r->gregs.raw[GR3D_REG_AT(FP_CONST, k)] == r->fs_f32_word[k]) {
			dr->xuniform[k] = r->fs_f32[k];
			dr->xuniform_mask |= 1u << k;
		}
	}
	for (unsigned rt = 0; ok && rt < GR3D_RTS; rt++) {
		/* RT_PTR: a colour buffer's address (the driver binds colour buffer k to RT k + 1) */
		uint32_t ptr = r->gregs.raw[GR3D_REG_AT(RT_PTR, rt)];
		unsigned k = 0;
		while (ptr && k < r->ncbufs && cbuf_addr(k) != ptr)
			k++;
		if (!ptr)
			continue;
		if (k == r->ncbufs)
			ok = ulp_diag_at(&inner, NULL, 0, 0, "RT_PTR (0x%03x) = 0x%x is no colour buffer's address",
			                 GR3D_REG_AT(RT_PTR, rt), ptr);
		else if (rt)                          /* RT 0 is not a colour target here (RT_ENABLE bit 0) */
			dr->rt[rt] = r->cbuf[k];
		ok = ok && gr3d_regs_rt_format(&r->gregs, rt, &dr->rt_format[rt], &inner);
	}
	gr3d_regs_zs(&r->gregs, cfg->zs_late_when_kill, &dr->zs_state);
	dr->zs = r->zs;
	g->blocks = (unsigned)cfg->gr3d_instances;
	g->threads = (unsigned)cfg->host_threads;
	g->thread_window = (uint64_t)cfg->host_thread_window;
	ok = ok && gr3d_regs_swath(&r->gregs, g->blocks, &g->swath_alternate, &g->swath_shift, &inner);
	if (r->o->tl)
		r->o->tl->base = r->res->cycles;      /* the draw's clock starts here */
	if (r->o->probe) {
		r->o->probe->base = r->res->cycles;
		r->o->probe->target = r->ncbufs ? r->cbuf[0] : NULL;
		dr->probe = r->o->probe;
	}
	/* the whole run's budget: what is left of it bounds this draw's clock */
	bool over_budget = r->o->max_cycles && r->res->cycles >= r->o->max_cycles;
	ok = ok && !over_budget;
	if (r->o->max_cycles && !over_budget)
		g->max_cycles = r->o->max_cycles - r->res->cycles;
	gpu_stats *st = ok ? calloc(1, sizeof *st) : NULL;
	if (ok && !st)
		ok = ulp_diag_at(&inner, NULL, 0, 0, "out of memory");
	ok = ok && gpu_draw_run(g, st, &inner);
	if (have_prog)
		pica_program_free(&prog);
	pica_program_free(&gprog);
	const uint32_t count = g->count;
	const uint64_t g_max = g->max_cycles;
	free(g);
	free(f);
	if (ok) {
		r->res->cycles += st->cycles;
		r->res->vertex_cycles += st->vertex_cycles;
		r->res->fragment_cycles += st->fragment_cycles;
		r->res->vertices += count;
		r->res->triangles += st->triangles;
		r->res->clipped += st->clipped;
		r->res->culled += st->culled;
		r->res->fragments += st->fragments;
		r->res->host_threaded_draws += st->threaded;
		r->res->host_par_cpu += st->host_par_cpu;
		r->res->host_par_critical += st->host_par_critical;
		r->res->host_par_windows += st->host_par_windows;
		add_units(r->res, st, r->lazy_units);
	}
	/* gpu_draw_run fills st even when the draw stops */
	over_budget |= !ok && st && g_max && st->cycles >= g_max;
	free(st);
	r->res->draws++;
	if (over_budget) {
		char why[96];
		snprintf(why, sizeof why, " (--max-cycles %llu)", (unsigned long long)r->o->max_cycles);
		return replay_fail(r, i, "stopped: the run reached its budget of simulated cycles", why);
	}
	return ok || replay_fail(r, i, "", inner.msg);
}

bool replay_draw_regs(replay *r, size_t i, bool indexed)
{
	if (r->o->draw_hook)
		r->o->draw_hook(r->o->hook_ctx, false, r->res);
	bool ok = run_draw(r, i, indexed);
	if (ok && r->o->draw_hook)
		r->o->draw_hook(r->o->hook_ctx, true, r->res);
	return ok;
}
