/* The clipper (clip.h). */
#include "units/geom/clip.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

const sim_counter_def CLIP_COUNTERS[CLIP_CTR_COUNT] = {
	[CLIP_CTR_IN] = { "triangles_in", "triangles from primitive assembly" },
	[CLIP_CTR_CLIPPED] = { "clipped", "triangles that crossed a plane and were cut" },
	[CLIP_CTR_CULLED] = { "culled", "triangles wholly outside a plane (dropped)" },
	[CLIP_CTR_OUT] = { "triangles_out", "triangles handed to setup" },
};

/* The planes that can cut (bit p: dist[p]): near, far and w always, and
 * the user planes that are on or read a CLIPDIST register.  Every other
 * plane's distance is 1 at every vertex: it keeps them all and cuts none. */
static uint32_t active_planes(const clip_state *st)
{
	uint32_t user = st->plane_enable;
	user |= st->clipdist_reg[0] < 16 ? 0x0Fu : 0u;
	user |= st->clipdist_reg[1] < 16 ? 0xF0u : 0u;
	return 0x7u | user << 3;
}

/* Signed distances to the planes of the vertex whose o registers are o:
 * >= 0 is inside.  The planes that cannot cut get 1 (ones; read only by
 * the polygon clip's lerp) or are left alone. */
static inline __attribute__((always_inline)) void distances_of(const clip_state *st, uint32_t active,
                                                               const pica_vec4 *o, float dist[3 + CLIP_PLANES],
                                                               bool ones)
{
	const float *p = o[st->pos_reg & 15].c;
	dist[0] = p[3] + p[2];                    /* near: z >= -w */
	dist[1] = p[3] - p[2];                    /* far: z <= w */
	dist[2] = p[3] - st->w_epsilon;           /* w > epsilon */
	const float *cv = st->clipvert_reg < 16 ? o[st->clipvert_reg].c : p;
	if (ones)
		for (unsigned k = 0; k < CLIP_PLANES; k++)
			dist[3 + k] = 1.0f;
	for (uint32_t bits = active >> 3; bits; bits &= bits - 1) {   /* the planes that can cut */
		const unsigned k = (unsigned)__builtin_ctz(bits);
		float d = 1.0f;
		if (st->plane_enable >> k & 1u)
			d = st->plane[k][0] * cv[0] + st->plane[k][1] * cv[1] + st->plane[k][2] * cv[2] +
			    st->plane[k][3] * cv[3];
		uint8_t cd = st->clipdist_reg[k / 4];
		if (cd < 16 && o[cd].c[k % 4] < d)
			d = o[cd].c[k % 4];
		dist[3 + k] = d;
	}
}

static void distances(const clip_state *st, uint32_t active, clip_vtx *v)
{
	distances_of(st, active, v->o, v->dist, true);
}

static void lerp(clip_vtx *o, const clip_vtx *a, const clip_vtx *b, float t, uint16_t live)
{
	for (uint32_t bits = live; bits; bits &= bits - 1)
		for (unsigned c = 0, r = (unsigned)__builtin_ctz(bits); c < 4; c++)
			o->o[r].c[c] = a->o[r].c[c] + (b->o[r].c[c] - a->o[r].c[c]) * t;
	for (unsigned k = 0; k < 3 + CLIP_PLANES; k++)
		o->dist[k] = a->dist[k] + (b->dist[k] - a->dist[k]) * t;
}

/* Sutherland-Hodgman over every plane that can cut; returns the polygon's
 * size. */
static unsigned clip_poly(clip_unit *c, uint32_t active)
{
	unsigned n = c->n;
	for (; active && n > 0; active &= active - 1) {
		const unsigned p = (unsigned)__builtin_ctz(active);
		unsigned m = 0;
		for (unsigned i = 0; i < n && m < CLIP_MAX_POLY - 1; i++) {
			const clip_vtx *a = &c->poly[i], *b = &c->poly[(i + 1) % n];
			float da = a->dist[p], db = b->dist[p];
			if (da >= 0)
				c->tmp[m++] = *a;
			if ((da >= 0) != (db >= 0))
				lerp(&c->tmp[m++], a, b, da / (da - db), c->live);
		}
		memcpy(c->poly, c->tmp, (size_t)m * sizeof c->poly[0]);
		n = m;
	}
	return n;
}

/* Out, cut or neither by the distances of the planes in active (a NaN
 * distance is neither inside nor outside: the polygon clip drops it). */
static inline __attribute__((always_inline)) void classify(const clip_vtx *v, uint32_t active, bool *out,
                                                           bool *cut)
{
	/* cut: a distance below 0 or NaN, i.e. not >= 0; out: all three below */
	bool o = false, c = false;
	for (uint32_t bits = active; bits; bits &= bits - 1) {
		const unsigned p = (unsigned)__builtin_ctz(bits);
		const float d0 = v[0].dist[p], d1 = v[1].dist[p], d2 = v[2].dist[p];
		o |= (d0 < 0) & (d1 < 0) & (d2 < 0);
		c |= !((d0 >= 0) & (d1 >= 0) & (d2 >= 0));
	}
	*out = o;
	*cut = c;
}

#if defined(__x86_64__)
/* classify over near, far and w alone (active == 0x7: no user plane, no
 * CLIPDIST) from t's positions, on SSE2 lanes: lane k is vertex k (lane 3
 * a zero nobody reads), each plane's distances formed as distances_of
 * forms them (binary32 sums) and compared as classify compares them. */
static inline __attribute__((always_inline)) void classify_basic(const clip_state *st, const prim_tri *t, bool *out,
                                                                 bool *cut)
{
	const unsigned pr = st->pos_reg & 15;
	__m128 x = _mm_loadu_ps(t->v[0][pr].c), y = _mm_loadu_ps(t->v[1][pr].c), z = _mm_loadu_ps(t->v[2][pr].c);
	__m128 w = _mm_setzero_ps();
	_MM_TRANSPOSE4_PS(x, y, z, w);            /* z: the three z, w: the three w */
	const __m128 zero = _mm_setzero_ps();
	const __m128 d0 = _mm_add_ps(w, z), d1 = _mm_sub_ps(w, z), d2 = _mm_sub_ps(w, _mm_set1_ps(st->w_epsilon));
	/* cut: some distance not >= 0 (NaN included); out: a plane's three < 0 */
	const unsigned ge = (unsigned)_mm_movemask_ps(_mm_cmpge_ps(d0, zero)) &
	                    (unsigned)_mm_movemask_ps(_mm_cmpge_ps(d1, zero)) &
	                    (unsigned)_mm_movemask_ps(_mm_cmpge_ps(d2, zero));
	const unsigned lt0 = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(d0, zero)) & 7u;
	const unsigned lt1 = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(d1, zero)) & 7u;
	const unsigned lt2 = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(d2, zero)) & 7u;
	*cut = (ge & 7u) != 7u;
	*out = lt0 == 7u || lt1 == 7u || lt2 == 7u;
}
#endif

/* t's vertices into the polygon: the live registers, the flat ones from
 * the provoking vertex. */
static inline __attribute__((always_inline)) void copy_in(clip_unit *c, const prim_tri *t)
{
	for (unsigned k = 0; k < 3; k++) {
		prim_copy_live(c->poly[k].o, t->v[k], c->live);   /* no rep movs of 256 bytes */
		for (uint32_t bits = c->st->flat_regs & c->live; bits; bits &= bits - 1)
			c->poly[k].o[__builtin_ctz(bits)] = t->v[2][__builtin_ctz(bits)];
	}
}

/* Takes a triangle: 1 cycle through, clip.cycles more when it is cut.  A
 * triangle kept whole whose distances came from t (c->whole) is not copied
 * into the polygon: its vertices are still t's only. */
static void take(clip_unit *c, const prim_tri *t, uint64_t now)
{
	const clip_state *st = c->st;
	const uint32_t active = active_planes(st);
	c->id = t->id;
	c->whole = false;
	bool out, cut;
	/* the registers the distances read are t's own (live, not flat): the
	 * distances from t, and a triangle kept whole is not copied (the tick
	 * hands t on, or copies it when it must wait) */
	const uint16_t regs = clip_live_regs(st);
	if (!(regs & ~c->live) && !(regs & st->flat_regs & c->live)) {
#if defined(__x86_64__)
		if (active == 0x7u && !c->general) {   /* near, far, w: the distances are not kept */
			classify_basic(st, t, &out, &cut);
		} else
#endif
		{
			for (unsigned k = 0; k < 3; k++)
				distances_of(st, active, t->v[k], c->poly[k].dist, false);
			classify(c->poly, active, &out, &cut);
		}
		if (!out && !cut) {
			c->whole = true;
		} else if (cut) {
			copy_in(c, t);
			for (unsigned k = 0; k < 3; k++)
				distances(st, active, &c->poly[k]);
		}
	} else {
		copy_in(c, t);
		for (unsigned k = 0; k < 3; k++)
			distances(st, active, &c->poly[k]);
		classify(c->poly, active, &out, &cut);
	}
	c->emit = 1;
	c->n = 3;
	c->ready_at = now;
	if (out) {
		c->n = 0;
		c->whole = false;
		sim_unit_count(&c->u, CLIP_CTR_CULLED, 1);
	} else if (cut) {
		c->n = clip_poly(c, active);
		c->ready_at = now + st->clip_cycles;
		sim_unit_count(&c->u, c->n >= 3 ? CLIP_CTR_CLIPPED : CLIP_CTR_CULLED, 1);
	}
}

static void clip_tick(sim_unit *u, uint64_t now)
{
	clip_unit *c = (clip_unit *)u;
	sim_unit_wait_settle(u, now);
	const prim_tri *in = NULL;            /* the triangle taken in this tick */
	if (c->emit + 1 >= c->n) {                /* nothing in hand: take a triangle */
		const prim_tri *t = sim_port_peek(c->in, now);
		if (!t) {
			sim_unit_sleep_until(u, sim_port_next_ready(c->in));
			return;
		}
		take(c, t, now);
		in = t;                           /* its slot is not reused before our next tick */
		sim_port_pop(c->in, now);             /* wakes prim (or gsh) */
		sim_unit_count(u, CLIP_CTR_IN, 1);
	}
	sim_unit_busy(u);
	sim_unit_sleep_until(u, now + 1);
	if (c->emit + 1 >= c->n || now < c->ready_at)
		return;                               /* culled, or still cutting */
	if (sim_port_full(c->out)) {              /* setup's pop wakes us */
		if (c->whole && in) {             /* kept whole: into the polygon to wait */
			copy_in(c, in);
			c->whole = false;
		}
		sim_unit_stall_wait(u, now, SIM_STALL_OUTPUT_FULL);
		return;
	}
	prim_tri *t = sim_port_tail(c->out);   /* built in the port: one copy */
	t->id = c->id;
	if (c->whole && in && c->two && !(c->st->flat_regs & c->live)) {   /* two stores a vertex */
		for (unsigned k = 0; k < 3; k++) {
			t->v[k][c->reg2[0]] = in->v[k][c->reg2[0]];
			t->v[k][c->reg2[1]] = in->v[k][c->reg2[1]];
		}
		c->whole = false;
	} else if (c->whole && in) {              /* t's vertices, flat registers from the last */
		for (unsigned k = 0; k < 3; k++) {
			prim_copy_live(t->v[k], in->v[k], c->live);
			for (uint32_t bits = c->st->flat_regs & c->live; bits; bits &= bits - 1)
				t->v[k][__builtin_ctz(bits)] = in->v[2][__builtin_ctz(bits)];
		}
		c->whole = false;
	} else {
		const clip_vtx *v[3] = { &c->poly[0], &c->poly[c->emit], &c->poly[c->emit + 1] };
		for (unsigned k = 0; k < 3; k++)
			prim_copy_live(t->v[k], v[k]->o, c->live);
	}
	sim_port_commit(c->out, now);
	c->emit++;
	sim_unit_count(u, CLIP_CTR_OUT, 1);
}

static void clip_reset(sim_unit *u)
{
	clip_unit *c = (clip_unit *)u;
	c->n = c->emit = 0;
	c->whole = false;
	c->id = 0;
	c->ready_at = 0;
}

void clip_init(clip_unit *c, const clip_state *st, sim_port *in, sim_port *out)
{
	memset(c, 0, sizeof *c);
	sim_unit_init(&c->u, "clip", clip_tick, CLIP_COUNTERS, CLIP_CTR_COUNT);
	c->u.reset = clip_reset;
	c->st = st;
	c->in = in;
	c->out = out;
	c->live = 0xFFFFu;
	in->consumer = &c->u;
}

uint16_t clip_live_regs(const clip_state *st)
{
	uint32_t live = 1u << (st->pos_reg & 15);
	live |= st->clipvert_reg < 16 ? 1u << st->clipvert_reg : 0u;
	for (unsigned k = 0; k < 2; k++)
		live |= st->clipdist_reg[k] < 16 ? 1u << st->clipdist_reg[k] : 0u;
	return (uint16_t)live;
}
