/* Triangle setup (setup.h). */
#include "units/geom/setup.h"

#include <math.h>

#include "units/geom/geom_idle.h"
#include "units/geom/setup_enc.h"

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
	/* the face from the area raster_tri_setup finds: a culled triangle
	 * costs no set-up */
	const bool front = (raster_tri_area(x, y) > 0) == st->front_ccw;
	if ((st->cull == SETUP_CULL_FRONT && front) || (st->cull == SETUP_CULL_BACK && !front)) {
		sim_unit_count(&s->u, SETUP_CTR_CULLED, 1);
		return false;
	}
	raster_tri *rt = &s->rt;
	raster_tri_setup(rt, x, y, z, w, s->width, s->height);
	rt->front = front;
	if (st->scissor)
		raster_tri_scissor(rt, st->sx0, st->sy0, st->sx1, st->sy1);
	if (raster_tri_empty(rt)) {
		sim_unit_count(&s->u, SETUP_CTR_EMPTY, 1);
		return false;
	}
	const bool back = st->two_side && !rt->front;
	const enum ulp_round round = s->fp20_round;
	/* the rows past ntram stay as setup_init zeroed them: TRAM reads ntram
	 * rows (fill_rows), and no memset of 384 bytes (a rep stos) a triangle */
	for (unsigned row = 0; row < st->ntram && row < GR3D_TRAM_ROWS; row++) {
		uint8_t reg = back && st->tram_reg_back[row] < 16 ? st->tram_reg_back[row] : st->tram_reg[row];
		for (unsigned k = 0; k < 3; k++) {
			static const float unlinked[4] = { 0, 0, 0, 1 };
			const float *val = reg < 16 ? t->v[k][reg].c : unlinked;
			if (s->exact)
				for (unsigned c = 0; c < 4; c++)
					s->rows[k][row][c] = gr3d_xbits(val[c]);
			else                          /* fp20_encode of the four at once */
				setup_fp20_encode4(val, round, s->rows[k][row]);
		}
	}
	return true;
}

/* Hands the triangle in hand to the rasterizer of each block still
 * pending; false when one must wait. */
static bool hand_on(setup_unit *s, uint64_t now)
{
	sim_unit *u = &s->u;                      /* sim_unit_occupy slept through the set-up */
	const uint32_t (*rows[3])[4] = { s->rows[0], s->rows[1], s->rows[2] };
	enum sim_stall wait = SIM_STALL_COUNT;
	bool pushed = false;
	for (unsigned b = 0; b < s->nblocks; b++) {
		if (!(s->pending & 1u << b))
			continue;
		gr3d_tram *tram = s->tram[b];
		if (!gr3d_tram_next_free(tram)) {     /* the slot's release wakes us */
			if (!s->waited)
				sim_unit_count(u, SETUP_CTR_TRAM_WAITS, 1);
			s->waited = true;
			if (wait == SIM_STALL_COUNT)
				wait = SIM_STALL_WINDOW;
			continue;
		}
		if (sim_port_full(s->out[b])) {       /* the rasterizer's take wakes us */
			if (wait == SIM_STALL_COUNT)
				wait = SIM_STALL_OUTPUT_FULL;
			continue;
		}
		s->rt.slot = (uint8_t)gr3d_tram_fill(tram, rows);   /* held for the walk */
		sim_port_push(s->out[b], &s->rt, now);
		s->pending &= ~(1u << b);
		pushed = true;
	}
	if (pushed && s->first_out == UINT64_MAX)
		s->first_out = now;
	if (s->pending) {
		if (!pushed) {
			sim_unit_stall_wait(u, now, wait);
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
	sim_port_pop(s->in, now);                 /* wakes the clipper */
	sim_unit_busy(u);
	s->waited = false;
	/* a dropped triangle costs this cycle (then the next triangle's tick,
	 * geom_idle.h); a visible one tri_cycles */
	if (s->have)
		sim_unit_occupy(u, now, now + s->st->tri_cycles);
	else
		geom_sleep_idle(u, s->in, now);
}

static void setup_reset(sim_unit *u)
{
	setup_unit *s = (setup_unit *)u;
	s->have = s->waited = false;
	s->pending = 0;
	s->first_out = UINT64_MAX;
}

void setup_init(setup_unit *s, const setup_state *st, sim_port *in, gr3d_fp *fp)
{
	memset(s, 0, sizeof *s);
	sim_unit_init(&s->u, "setup", setup_tick, SETUP_COUNTERS, SETUP_CTR_COUNT);
	s->u.reset = setup_reset;
	s->st = st;
	s->in = in;
	s->tram[0] = &fp->tram;
	s->out[0] = &fp->tri_in;
	s->nblocks = 1;
	s->width = fp->ctx.width;
	s->height = fp->ctx.height;
	s->fp20_round = fp->ctx.fp20_round;
	s->exact = fp->ctx.exact;
	fp->tram.f32_words = s->exact;
	fp->tram.fill_rows = st->ntram;     /* the rows past ntram: setup_init's zeros */
	in->consumer = &s->u;
	s->first_out = UINT64_MAX;
}

uint16_t setup_live_regs(const setup_state *st)
{
	uint32_t live = 1u << (st->pos_reg & 15);
	for (unsigned row = 0; row < st->ntram && row < GR3D_TRAM_ROWS; row++) {
		live |= st->tram_reg[row] < 16 ? 1u << st->tram_reg[row] : 0u;
		live |= st->two_side && st->tram_reg_back[row] < 16 ? 1u << st->tram_reg_back[row] : 0u;
	}
	return (uint16_t)live;
}

void setup_add_block(setup_unit *s, gr3d_fp *fp, unsigned swath_shift)
{
	if (s->nblocks >= SETUP_MAX_BLOCKS)
		return;
	s->tram[s->nblocks] = &fp->tram;
	fp->tram.f32_words = s->exact;
	fp->tram.fill_rows = s->st->ntram;
	s->out[s->nblocks++] = &fp->tri_in;
	s->swath_shift = swath_shift;
}
