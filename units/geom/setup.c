/* Triangle setup (setup.h). */
#include "units/geom/setup.h"

#include <math.h>

const sim_counter_def SETUP_COUNTERS[SETUP_CTR_COUNT] = {
	[SETUP_CTR_IN] = { "triangles_in", "triangles from the clipper" },
	[SETUP_CTR_CULLED] = { "culled", "triangles dropped by face culling" },
	[SETUP_CTR_EMPTY] = { "empty", "triangles with no area or no pixel of the target in their box" },
	[SETUP_CTR_OUT] = { "triangles_out", "triangles handed to the rasterizer" },
	[SETUP_CTR_TRAM_WAITS] = { "tram_waits", "triangles that waited for a TRAM slot" },
};

unsigned setup_tram_slots(unsigned ntram)
{
	unsigned rows = ntram ? ntram : 1;
	unsigned n = 64u / rows;
	return n < 1 ? 1 : n > GR3D_MAX_TRIS ? GR3D_MAX_TRIS : n;
}

/* Viewport, face, culling, linker.  Returns false for a dropped triangle. */
static bool prepare(setup_unit *s, const prim_tri *t)
{
	const setup_state *st = s->st;
	double x[3], y[3], z[3], w[3];
	for (unsigned k = 0; k < 3; k++) {
		const float *p = t->v[k][st->pos_reg & 15].c;
		w[k] = p[3];
		x[k] = p[0] / w[k] * st->vp_scale[0] + st->vp_translate[0];
		y[k] = p[1] / w[k] * st->vp_scale[1] + st->vp_translate[1];
		z[k] = p[2] / w[k] * st->vp_scale[2] + st->vp_translate[2];   /* for ZS */
		if (!isfinite(z[k]))
			z[k] = 0.0;
		if (!isfinite(x[k]) || !isfinite(y[k]) || !isfinite(w[k]) || w[k] == 0.0) {
			sim_unit_count(&s->u, SETUP_CTR_EMPTY, 1);
			return false;
		}
	}
	raster_tri *rt = &s->rt;
	raster_tri_setup(rt, x, y, z, w, s->fp[0]->ctx.width, s->fp[0]->ctx.height);
	rt->front = (rt->area > 0) == st->front_ccw;
	if ((st->cull == SETUP_CULL_FRONT && rt->front) || (st->cull == SETUP_CULL_BACK && !rt->front)) {
		sim_unit_count(&s->u, SETUP_CTR_CULLED, 1);
		return false;
	}
	if (st->scissor)
		raster_tri_scissor(rt, st->sx0, st->sy0, st->sx1, st->sy1);
	if (raster_tri_empty(rt)) {
		sim_unit_count(&s->u, SETUP_CTR_EMPTY, 1);
		return false;
	}
	const bool back = st->two_side && !rt->front;
	const enum ulp_round round = s->fp[0]->ctx.fp20_round;
	memset(s->rows, 0, sizeof s->rows);
	for (unsigned row = 0; row < st->ntram && row < GR3D_TRAM_ROWS; row++) {
		uint8_t reg = back && st->tram_reg_back[row] < 16 ? st->tram_reg_back[row] : st->tram_reg[row];
		for (unsigned k = 0; k < 3; k++) {
			static const float unlinked[4] = { 0, 0, 0, 1 };
			const float *val = reg < 16 ? t->v[k][reg].c : unlinked;
			for (unsigned c = 0; c < 4; c++)
				s->rows[k][row][c] = fp20_encode(val[c], round);
		}
	}
	return true;
}

/* Hands the triangle in hand to the rasterizer of each block still
 * pending; false when one must wait. */
static bool hand_on(setup_unit *s, uint64_t now)
{
	sim_unit *u = &s->u;                      /* now >= done_at: gr3d_occupy slept through */
	const uint32_t (*rows[3])[4] = { s->rows[0], s->rows[1], s->rows[2] };
	enum sim_stall wait = SIM_STALL_COUNT;
	bool pushed = false;
	for (unsigned b = 0; b < s->nblocks; b++) {
		if (!(s->pending & 1u << b))
			continue;
		gr3d_fp *f = s->fp[b];
		unsigned slot = s->next_slot[b];
		if (f->use.refs[slot]) {              /* the ring's next slot is still in use */
			if (!s->waited)
				sim_unit_count(u, SETUP_CTR_TRAM_WAITS, 1);
			s->waited = true;
			if (wait == SIM_STALL_COUNT)
				wait = SIM_STALL_WINDOW;
			continue;
		}
		if (sim_port_full(&f->tri_in)) {      /* the rasterizer's take wakes us */
			if (wait == SIM_STALL_COUNT)
				wait = SIM_STALL_OUTPUT_FULL;
			continue;
		}
		gr3d_fp_load(f, slot, rows);
		f->use.refs[slot] = 1;                /* the walk's hold (raster releases it) */
		s->rt.slot = (uint8_t)slot;
		sim_port_push(&f->tri_in, &s->rt, now);
		s->next_slot[b] = (slot + 1) % f->tram_slots;
		s->pending &= ~(1u << b);
		pushed = true;
	}
	if (pushed && s->first_out == UINT64_MAX)
		s->first_out = now;
	if (s->pending) {
		if (!pushed) {
			gr3d_stall_wait(u, now, wait);
			return false;
		}
		sim_unit_busy(u);                     /* a push is this cycle's work; the other block next */
		sim_unit_sleep_until(u, now + 1);
		return false;
	}
	s->have = false;
	sim_unit_count(u, SETUP_CTR_OUT, 1);
	sim_unit_busy(u);
	return true;
}

static void setup_tick(sim_unit *u, uint64_t now)
{
	setup_unit *s = (setup_unit *)u;
	sim_unit_wait_settle(u, now);
	if (s->have && !hand_on(s, now))
		return;
	/* the next triangle, in the cycle the last one left */
	const prim_tri *t = sim_port_peek(s->in, now);
	if (!t) {
		sim_unit_sleep_until(u, sim_port_next_ready(s->in));
		return;
	}
	sim_unit_count(u, SETUP_CTR_IN, 1);
	s->have = prepare(s, t);
	s->pending = s->have ? raster_tri_blocks(&s->rt, s->swath_shift, s->nblocks) : 0;
	s->have = s->pending != 0;
	sim_port_pop(s->in);
	if (s->producer)
		sim_unit_wake(s->producer, now);
	sim_unit_busy(u);
	/* a dropped triangle costs this cycle; a visible one tri_cycles */
	s->done_at = now + (s->have ? s->st->tri_cycles : 1u);
	s->waited = false;
	gr3d_occupy(u, now, s->done_at);
}

void setup_init(setup_unit *s, const setup_state *st, sim_port *in, gr3d_fp *fp)
{
	memset(s, 0, sizeof *s);
	sim_unit_init(&s->u, "setup", setup_tick, SETUP_COUNTERS, SETUP_CTR_COUNT);
	s->st = st;
	s->in = in;
	s->fp[0] = fp;
	s->nblocks = 1;
	in->consumer = &s->u;
	fp->use.waiter = &s->u;
	fp->raster.producer = &s->u;
	s->first_out = UINT64_MAX;
}

void setup_add_block(setup_unit *s, gr3d_fp *fp, unsigned swath_shift)
{
	if (s->nblocks >= SETUP_MAX_BLOCKS)
		return;
	s->fp[s->nblocks++] = fp;
	s->swath_shift = swath_shift;
	fp->use.waiter = &s->u;
	fp->raster.producer = &s->u;
}
