/* The fragment pipeline: rasterizer + the five units (gr3d_fp.h). */
#include "units/gr3d_fp.h"

#include <math.h>
#include <stdlib.h>

#include "sim/port.h"
#include "units/alu.h"
#include "units/dw.h"
#include "units/mfu.h"
#include "units/pseq.h"
#include "units/tex.h"

/* ---- a minimal rasterizer: one quad per cycle, triangle by triangle ---- */

typedef struct tri_setup {
	double x[3], y[3], iw[3], z[3];
	double area;                  /* signed, > 0 counter-clockwise */
	int x0, y0, x1, y1;           /* quad-aligned bounding box (pixels) */
	/* edge k (opposite vertex k, counter-clockwise): e = ex*(px - x0k) - ey*(py - y0k) */
	double ex[3], ey[3], ox[3], oy[3];
	bool tie[3];                  /* a sample exactly on edge k belongs to this triangle */
	double inv_area;
} tri_setup;

typedef struct raster_unit {
	sim_unit u;
	sim_port *out;
	const tri_setup *tri;
	unsigned ntris, t;
	int qx, qy;
	uint32_t next_id;
	bool done;
} raster_unit;

static double edge(double ax, double ay, double bx, double by, double px, double py)
{
	return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Exactly one of two triangles sharing an edge owns a sample on it. */
static bool owns(double e, double ax, double ay, double bx, double by)
{
	if (e > 0)
		return true;
	if (e < 0)
		return false;
	double dy = by - ay, dx = bx - ax;
	return dy > 0 || (dy == 0 && dx < 0);
}

static unsigned quad_mask(const tri_setup *s, int qx, int qy, gr3d_quad_in *o)
{
	unsigned mask = 0;
	double e[GR3D_PIXELS][3];
	for (unsigned k = 0; k < GR3D_PIXELS; k++) {
		double px = qx + (int)(k & 1u) + 0.5, py = qy + (int)(k >> 1) + 0.5;
		bool in = true;
		for (unsigned v = 0; v < 3; v++) {
			e[k][v] = s->ex[v] * (py - s->oy[v]) - s->ey[v] * (px - s->ox[v]);
			in = in && (e[k][v] > 0 || (e[k][v] == 0 && s->tie[v]));
		}
		if (in)
			mask |= 1u << k;
	}
	if (!mask)                    /* the rasterizer drops the quad */
		return 0;
	/* uncovered pixels get their (extrapolated) weights too: they are the
	 * quad's helper pixels for the texture LOD */
	for (unsigned k = 0; k < GR3D_PIXELS; k++) {
		double l0 = e[k][0] * s->inv_area, l1 = e[k][1] * s->inv_area, l2 = e[k][2] * s->inv_area;
		o->bar0[k] = (float)(l0 * s->iw[0]);
		o->bar1[k] = (float)(l1 * s->iw[1]);
		o->q[k] = (float)(l0 * s->iw[0] + l1 * s->iw[1] + l2 * s->iw[2]);
		o->z[k] = l0 * s->z[0] + l1 * s->z[1] + l2 * s->z[2];   /* window z: screen-linear */
	}
	return mask;
}

static void raster_tick(sim_unit *u, uint64_t now)
{
	raster_unit *r = (raster_unit *)u;
	if (r->done)
		return;
	if (sim_port_full(r->out)) {            /* PSEQ's pop wakes us */
		sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
		sim_unit_sleep_until(u, u->tl && u->tl->enabled ? now + 1 : UINT64_MAX);
		return;
	}
	sim_unit_sleep_until(u, now + 1);
	while (r->t < r->ntris) {
		const tri_setup *s = &r->tri[r->t];
		if (r->qy > s->y1) {
			r->t++;
			if (r->t < r->ntris) {
				r->qx = r->tri[r->t].x0;
				r->qy = r->tri[r->t].y0;
			}
			continue;
		}
		gr3d_quad_in in;
		memset(&in, 0, sizeof in);
		unsigned mask = quad_mask(s, r->qx, r->qy, &in);
		in.x = (uint16_t)r->qx;
		in.y = (uint16_t)r->qy;
		r->qx += 2;
		if (r->qx > s->x1) {
			r->qx = s->x0;
			r->qy += 2;
		}
		if (!mask)
			continue;
		in.id = r->next_id++;
		in.tri = (uint8_t)r->t;
		in.mask = (uint8_t)mask;
		in.front = s->area > 0;
		/* where the quad is: the viewer's "pixel's journey" reads this */
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_INSTANT, in.id, (uint32_t)in.x | (uint32_t)in.y << 16);
		sim_port_push(r->out, &in, now);
		sim_unit_busy(u);
		return;
	}
	r->done = true;
	sim_unit_sleep_until(u, UINT64_MAX);
}

static bool setup_tris(const gr3d_draw *dr, uint32_t w, uint32_t h, tri_setup *ts, ulp_diag *d)
{
	for (unsigned t = 0; t < dr->ntris; t++) {
		tri_setup *s = &ts[t];
		double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
		for (unsigned k = 0; k < 3; k++) {
			unsigned i = dr->idx[3 * t + k];
			if (i >= dr->nvtx)
				return ulp_diag_at(d, NULL, 0, 0, "triangle %u: vertex index %u out of range", t, i);
			const gr3d_vertex *v = &dr->vtx[i];
			if (!isfinite(v->x) || !isfinite(v->y) || !isfinite(v->w) || v->w == 0.0)
				return ulp_diag_at(d, NULL, 0, 0, "triangle %u: vertex %u is not finite", t, i);
			s->x[k] = v->x;
			s->y[k] = v->y;
			s->iw[k] = 1.0 / v->w;
			s->z[k] = isfinite(v->z) ? v->z : 0.0;
			minx = fmin(minx, v->x);
			maxx = fmax(maxx, v->x);
			miny = fmin(miny, v->y);
			maxy = fmax(maxy, v->y);
		}
		s->area = edge(s->x[0], s->y[0], s->x[1], s->y[1], s->x[2], s->y[2]);
		/* edges in counter-clockwise order; edge v is the one opposite vertex v */
		const bool ccw = s->area > 0;
		for (unsigned v = 0; v < 3; v++) {
			unsigned a = ccw ? (v + 1) % 3 : (v + 2) % 3, b = ccw ? (v + 2) % 3 : (v + 1) % 3;
			s->ox[v] = s->x[a];
			s->oy[v] = s->y[a];
			s->ex[v] = s->x[b] - s->x[a];
			s->ey[v] = s->y[b] - s->y[a];
			s->tie[v] = owns(0.0, s->x[a], s->y[a], s->x[b], s->y[b]);
		}
		s->inv_area = s->area != 0.0 ? 1.0 / fabs(s->area) : 0.0;
		s->x0 = (int)fmax(0.0, floor(minx)) & ~1;
		s->y0 = (int)fmax(0.0, floor(miny)) & ~1;
		s->x1 = (int)fmin((double)w - 1, ceil(maxx));
		s->y1 = (int)fmin((double)h - 1, ceil(maxy));
		if (s->area == 0.0 || s->x0 > s->x1 || s->y0 > s->y1) {
			s->x0 = 0;
			s->y0 = 1;                 /* empty: y0 > y1 */
			s->x1 = -1;
			s->y1 = -1;
		}
	}
	return true;
}

bool gr3d_fp_draw(const gr3d_draw *dr, gr3d_stats *st, ulp_diag *d)
{
	const tegra_fp_decoded *prog = dr->prog;
	if (!prog || prog->exec_count < 1 || prog->exec_count > TEGRA_FP_MAX_EXEC)
		return ulp_diag_at(d, NULL, 0, 0, "fragment program has no EXEC");
	if (prog->alu_buffer_size < 1 || prog->alu_buffer_size > 4)
		return ulp_diag_at(d, NULL, 0, 0, "alu_buffer_size %u: the hardware takes 1..4",
		                   prog->alu_buffer_size);
	if (dr->ntris < 1 || dr->ntris > GR3D_MAX_TRIS)
		return ulp_diag_at(d, NULL, 0, 0, "1..%d triangles, not %u", GR3D_MAX_TRIS, dr->ntris);
	const ulp_image *ref = NULL;
	for (unsigned k = 0; k < GR3D_RTS; k++) {
		if (!dr->rt[k])
			continue;
		if (ref && (dr->rt[k]->width != ref->width || dr->rt[k]->height != ref->height))
			return ulp_diag_at(d, NULL, 0, 0, "render target %u: size differs from the others", k);
		ref = dr->rt[k];
	}
	if (!ref)
		return ulp_diag_at(d, NULL, 0, 0, "no render target bound");
	if (ref->width > 0xFFFE || ref->height > 0xFFFE)
		return ulp_diag_at(d, NULL, 0, 0, "render target too large");

	gr3d_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.prog = prog;
	ctx.cfg = dr->cfg;
	memcpy(ctx.uniforms, dr->uniforms, sizeof ctx.uniforms);
	memcpy(ctx.sampler, dr->sampler, sizeof ctx.sampler);
	ulp_image *levels[GR3D_SAMPLERS][GR3D_TEX_LEVELS];
	memset(levels, 0, sizeof levels);
	bool ok = true;
	for (unsigned k = 0; k < GR3D_SAMPLERS && ok; k++)
		ok = tex_build_levels(&ctx.sampler[k], levels[k], d);
	memcpy(ctx.rt, dr->rt, sizeof ctx.rt);
	memcpy(ctx.rt_format, dr->rt_format, sizeof ctx.rt_format);
	ctx.stencil = dr->stencil;
	ctx.width = ref->width;
	ctx.height = ref->height;
	ctx.rows = prog->alu_buffer_size;
	ctx.ntris = dr->ntris;
	ctx.fp20_round = dr->cfg->fp20_round;
	ctx.fx10_round = dr->cfg->fx10_round;
	ctx.fx10_wrap = dr->cfg->fx10_overflow == FX10_OVERFLOW_WRAP;
	const unsigned max_qid = pseq_max_qid(dr->cfg, ctx.rows);

	gr3d_tram_tri *tram = calloc(dr->ntris, sizeof *tram);
	tri_setup *ts = calloc(dr->ntris, sizeof *ts);
	gr3d_quad *slots = calloc(max_qid, sizeof *slots);
	uint16_t *free_slots = calloc(max_qid, sizeof *free_slots);
	typedef struct units {
		raster_unit raster;
		pseq_unit pseq;
		mfu_unit mfu;
		tex_unit tex;
		alu_unit alu;
		dw_unit dw;
		zs_unit zs;
		zs_late late;
		sim_port p_zs;                /* raster->zs when the ZS unit runs */
		sim_port p_in, p_mfu, p_tex, p_alu, p_dw, p_recirc;
		sim_clock clock;
	} units;
	units *U = calloc(1, sizeof *U);
	const bool zs_on = zs_active(&dr->zs_state);
	zs_late_entry *late_ring = zs_on && dr->zs_state.late ? calloc(ZS_LATE_ENTRIES, sizeof *late_ring) : NULL;
	if (!ok)
		goto out;
	ok = tram && ts && slots && free_slots && U && (!zs_on || !dr->zs_state.late || late_ring);
	if (!ok) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		goto out;
	}
	ok = setup_tris(dr, ctx.width, ctx.height, ts, d);
	if (!ok)
		goto out;
	for (unsigned t = 0; t < dr->ntris; t++)
		for (unsigned v = 0; v < 3; v++)
			for (unsigned r = 0; r < GR3D_TRAM_ROWS; r++)
				for (unsigned k = 0; k < 4; k++) {
					tram[t].v[r][k][v] = dr->vtx[dr->idx[3 * t + v]].tram[r][k] & FP20_MASK;
					tram[t].f[r][k][v] = gr3d_fp20(tram[t].v[r][k][v]);
					tram[t].fx[r][k][0][v] = gr3d_fx10(tram[t].v[r][k][v], false);
					tram[t].fx[r][k][1][v] = gr3d_fx10(tram[t].v[r][k][v], true);
				}
	ctx.tram = tram;
	ctx.slot = slots;

	const ulp_config *cfg = dr->cfg;
	const uint32_t fifo = (uint32_t)cfg->tegra_fifo_quads;
	sim_clock_init(&U->clock, (uint64_t)cfg->watchdog_cycles, dr->tl);
	mfu_init(&U->mfu, &ctx);
	tex_init(&U->tex, &ctx);
	alu_init(&U->alu, &ctx);
	dw_init(&U->dw, &ctx);
	ok = sim_port_init(&U->p_in, zs_on ? "zs->pseq" : "raster->pseq", sizeof(gr3d_quad_in), fifo,
	                   (uint32_t)cfg->tegra_lat_raster, NULL) &&
	     sim_port_init(&U->p_mfu, "pseq->mfu", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_pseq, &U->mfu.s.u) &&
	     sim_port_init(&U->p_tex, "mfu->tex", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_mfu, &U->tex.s.u) &&
	     sim_port_init(&U->p_alu, "tex->alu", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_tex, &U->alu.s.u) &&
	     sim_port_init(&U->p_dw, "alu->dw", sizeof(gr3d_token), fifo,
	                   (uint32_t)cfg->tegra_lat_alu, &U->dw.s.u) &&
	     /* every quad in flight fits: recirculation never blocks DW */
	     sim_port_init(&U->p_recirc, "dw->pseq", sizeof(gr3d_token), max_qid + 1,
	                   (uint32_t)cfg->tegra_lat_dw, NULL) &&
	     (!zs_on || sim_port_init(&U->p_zs, "raster->zs", sizeof(gr3d_quad_in), fifo,
	                              (uint32_t)cfg->tegra_lat_raster, NULL));
	if (!ok) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		goto ports;
	}
	pseq_init(&U->pseq, &ctx, max_qid, free_slots, &U->p_in, &U->p_recirc, &U->p_mfu);
	U->p_in.consumer = &U->pseq.u;
	U->p_recirc.consumer = &U->pseq.u;
	U->mfu.s.in = &U->p_mfu;
	U->mfu.s.out = &U->p_tex;
	U->tex.s.in = &U->p_tex;
	U->tex.s.out = &U->p_alu;
	U->alu.s.in = &U->p_alu;
	U->alu.s.out = &U->p_dw;
	U->dw.s.in = &U->p_dw;
	U->dw.s.out = &U->p_recirc;
	U->pseq.producer = &U->raster.u;
	if (zs_on) {                  /* raster -> ZS -> PSEQ (units/zs.h) */
		U->late.st = &dr->zs_state;
		U->late.surf = dr->zs;
		U->late.ring = late_ring;
		ctx.zs_late = late_ring ? &U->late : NULL;
		zs_init(&U->zs, &dr->zs_state, dr->zs, late_ring ? &U->late : NULL,
		        (unsigned)cfg->zs_pixels_per_clock, &U->p_zs, &U->p_in);
		U->zs.producer = &U->raster.u;
		U->pseq.producer = &U->zs.u;
		U->raster.out = &U->p_zs;
	}
	U->mfu.s.producer = &U->pseq.u;
	U->tex.s.producer = &U->mfu.s.u;
	U->alu.s.producer = &U->tex.s.u;
	U->dw.s.producer = &U->alu.s.u;
	sim_unit_init(&U->raster.u, "raster", raster_tick, NULL, 0);
	U->raster.out = zs_on ? &U->p_zs : &U->p_in;
	U->raster.tri = ts;
	U->raster.ntris = dr->ntris;
	U->raster.qx = ts[0].x0;
	U->raster.qy = ts[0].y0;
	/* consumers before producers (docs/ARCHITECTURE.md) */
	sim_clock_add_unit(&U->clock, &U->dw.s.u);
	sim_clock_add_unit(&U->clock, &U->alu.s.u);
	sim_clock_add_unit(&U->clock, &U->tex.s.u);
	sim_clock_add_unit(&U->clock, &U->mfu.s.u);
	sim_clock_add_unit(&U->clock, &U->pseq.u);
	if (zs_on) {
		sim_clock_add_unit(&U->clock, &U->zs.u);
		sim_clock_add_port(&U->clock, &U->p_zs);
	}
	sim_clock_add_unit(&U->clock, &U->raster.u);
	sim_port *ports[] = { &U->p_in, &U->p_mfu, &U->p_tex, &U->p_alu, &U->p_dw, &U->p_recirc };
	for (unsigned k = 0; k < 6; k++)
		sim_clock_add_port(&U->clock, ports[k]);
	sim_unit_wake(&U->raster.u, 0);
	enum sim_run_result rr = sim_clock_run(&U->clock, UINT64_MAX, d);
	sim_clock_finish(&U->clock);
	if (ctx.zs_lost) {
		ok = ulp_diag_at(d, NULL, 0, 0, "depth/stencil: more than %d quads in flight between ZS and DW",
		                 ZS_LATE_ENTRIES);
	} else if (rr == SIM_RUN_WATCHDOG || rr == SIM_RUN_HALTED) {
		ok = false;
	} else if (U->pseq.inflight || !U->raster.done) {
		ok = ulp_diag_at(d, NULL, 0, 0, "fragment pipeline stopped with %u quads in flight",
		                 U->pseq.inflight);
	}
	if (st) {
		memset(st, 0, sizeof *st);
		st->cycles = U->clock.now;
		st->quads = U->raster.next_id;
		st->max_qid = max_qid;
		sim_unit *us[GR3D_UNITS] = { &U->pseq.u, &U->mfu.s.u, &U->tex.s.u, &U->alu.s.u, &U->dw.s.u };
		for (unsigned k = 0; k < GR3D_UNITS; k++) {
			st->name[k] = us[k]->name;
			st->unit[k] = us[k]->stats;
			st->idle[k] = sim_unit_idle(&U->clock, us[k]);
			st->counter_defs[k] = us[k]->counter_defs;
			st->ncounters[k] = us[k]->ncounters;
		}
		st->pixel_execs = U->pseq.u.stats.counter[PSEQ_CTR_ISSUES] * GR3D_PIXELS;
		st->pixels = U->dw.s.u.stats.counter[DW_CTR_PIXELS];
		if (zs_on) {
			st->zs_used = true;
			st->zs = U->zs.u.stats;
			st->zs_idle = sim_unit_idle(&U->clock, &U->zs.u);
		}
	}
ports:
	sim_port_fini(&U->p_in);
	sim_port_fini(&U->p_mfu);
	sim_port_fini(&U->p_tex);
	sim_port_fini(&U->p_alu);
	sim_port_fini(&U->p_dw);
	sim_port_fini(&U->p_recirc);
	if (zs_on)
		sim_port_fini(&U->p_zs);
out:
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		for (unsigned l = 0; l < GR3D_TEX_LEVELS; l++)
			ulp_image_free(levels[k][l]);
	free(tram);
	free(ts);
	free(slots);
	free(free_slots);
	free(late_ring);
	free(U);
	return ok;
}
