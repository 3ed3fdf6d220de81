/* Primitive assembly (prim.h). */
#include "units/geom/prim.h"

#include <stdlib.h>
#include <string.h>

static void prim_fini(prim_unit *p);

const sim_counter_def PRIM_COUNTERS[PRIM_CTR_COUNT] = {
	[PRIM_CTR_VERTICES] = { "vertices", "shaded vertices received" },
	[PRIM_CTR_TRIANGLES] = { "triangles", "triangles handed to the clipper (with a GS: its input primitives)" },
};

/* Triangles of `count` vertices in mode m (not PRIM_GEOMETRY). */
static uint32_t prim_triangles(enum prim_mode m, uint32_t count)
{
	if (count < 3)
		return 0;
	return m == PRIM_TRIANGLES ? count / 3 : count - 2;
}

/* Draw positions of triangle t's vertices (winding kept). */
static void prim_indices(enum prim_mode m, uint32_t t, uint32_t idx[3])
{
	if (m == PRIM_TRIANGLES) {
		idx[0] = 3 * t, idx[1] = 3 * t + 1, idx[2] = 3 * t + 2;
	} else if (m == PRIM_TRIANGLE_STRIP) {
		bool odd = t & 1;                 /* keep the winding */
		idx[0] = odd ? t + 1 : t, idx[1] = odd ? t : t + 1, idx[2] = t + 2;
	} else {
		idx[0] = 0, idx[1] = t + 1, idx[2] = t + 2;
	}
}

enum { PRIM_RING_START = 64 };    /* the ring's first size (slots) */

/* The lowest id a triangle still to come reads (a fan reads vertex 0 to
 * the end: its ring holds the whole draw, as the buffer did before). */
static uint32_t prim_base(const prim_unit *p)
{
	switch (p->mode) {
	case PRIM_TRIANGLES: return 3 * p->next_tri;
	case PRIM_TRIANGLE_STRIP: return p->next_tri;
	case PRIM_TRIANGLE_FAN: return 0;
	default: return p->per * p->next_tri;
	}
}

/* Has vertex id (>= base) arrived? */
static inline __attribute__((always_inline)) bool prim_has(const prim_unit *p, uint32_t id)
{
	return p->vid[id & (p->cap - 1)] == id + 1;
}

/* Its registers (prim_has). */
static inline __attribute__((always_inline)) const pica_vec4 *prim_vertex(const prim_unit *p, uint32_t id)
{
	return p->vtx + (size_t)(id & (p->cap - 1)) * p->nlive;
}

/* The ring twice as large, in place: a vertex still needed whose id has
 * the bit cap moves up by cap slots (into slots never touched). */
static void prim_grow(prim_unit *p)
{
	const uint32_t cap = p->cap;
	for (uint32_t s = 0; s < cap; s++) {
		const uint32_t v = p->vid[s];
		if (!v)
			continue;
		if (v - 1 < p->base) {                /* consumed */
			p->vid[s] = 0;
			continue;
		}
		if ((v - 1) & cap) {
			memcpy(p->vtx + (size_t)(s + cap) * p->nlive, p->vtx + (size_t)s * p->nlive,
			       p->nlive * sizeof *p->vtx);
			p->vid[s + cap] = v;
			p->vid[s] = 0;
		}
	}
	p->cap = 2 * cap;
}

static void prim_tick(sim_unit *u, uint64_t now)
{
	prim_unit *p = (prim_unit *)u;
	const pica_result *r;
	sim_unit_wait_settle(u, now);
	while ((r = sim_port_peek(p->in, now))) {   /* the out port is shared by the units */
		const uint32_t id = r->id;
		/* a vertex below base has arrived before (a triangle read it) */
		if (id < p->count && id >= p->base && !prim_has(p, id)) {
			while (id - p->base >= p->cap)           /* cap <= max_cap: id - base < count */
				prim_grow(p);
			const uint32_t s = id & (p->cap - 1);
			pica_vec4 *d = p->vtx + (size_t)s * p->nlive;
			p->vid[s] = id + 1;
			if (p->nlive == 2) {              /* the position and one row: no loop */
				d[0] = r->o[p->reg2[0]];
				d[1] = r->o[p->reg2[1]];
			} else {
				for (uint32_t bits = p->live; bits; bits &= bits - 1)   /* no rep movs of 256 bytes */
					*d++ = r->o[__builtin_ctz(bits)];
			}
			p->got++;
			p->last_vertex = now;
			sim_unit_count(u, PRIM_CTR_VERTICES, 1);
		}
		sim_port_pop(p->in, now);
		sim_unit_busy(u);
	}
	sim_unit_sleep_until(u, sim_port_next_ready(p->in));
	if (p->next_tri == p->ntris)
		return;
	uint32_t idx[3];
	const unsigned nv = p->mode == PRIM_GEOMETRY ? p->per : 3;
	if (p->mode == PRIM_GEOMETRY)
		idx[0] = p->per * p->next_tri, idx[1] = idx[0] + 1, idx[2] = idx[0] + 2;
	else
		prim_indices(p->mode, p->next_tri, idx);
	for (unsigned k = nv; k-- > 0;)           /* the last to arrive first (vertices come in order, mostly) */
		if (!prim_has(p, idx[k]))
			return;                           /* a vertex push wakes us */
	if (sim_port_full(p->out)) {              /* the clipper's pop wakes us */
		if (u->activity != SIM_ACT_BUSY)
			sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
		if (p->out->producer == u)        /* the wiring has the pop wake us (sim_port_pop) */
			sim_unit_wait(u, now, SIM_STALL_OUTPUT_FULL);   /* a vertex push wakes us too */
		else
			sim_unit_sleep_until(u, now + 1);           /* polled */
		return;
	}
	prim_tri *t = sim_port_tail(p->out);      /* built in the port: one copy */
	if (nv < 3)
		memset(t, 0, sizeof *t);
	t->id = p->next_tri;
	if (p->nlive == 2) {
		for (unsigned k = 0; k < nv; k++) {
			const pica_vec4 *v = prim_vertex(p, idx[k]);
			t->v[k][p->reg2[0]] = v[0];
			t->v[k][p->reg2[1]] = v[1];
		}
	} else {
		for (unsigned k = 0; k < nv; k++) {
			const pica_vec4 *v = prim_vertex(p, idx[k]);
			for (uint32_t bits = p->live; bits; bits &= bits - 1)
				t->v[k][__builtin_ctz(bits)] = *v++;
		}
	}
	sim_port_commit(p->out, now);
	p->next_tri++;
	p->base = prim_base(p);
	sim_unit_count(u, PRIM_CTR_TRIANGLES, 1);
	sim_unit_busy(u);
	sim_unit_sleep_until(u, now + 1);
}

static void prim_reset(sim_unit *u)
{
	prim_unit *p = (prim_unit *)u;
	p->got = p->next_tri = 0;
	p->last_vertex = 0;
	p->base = prim_base(p);
	if (p->vid)
		memset(p->vid, 0, (size_t)p->cap * sizeof *p->vid);
	p->cap = p->max_cap < PRIM_RING_START ? p->max_cap : PRIM_RING_START;
}

static void prim_fini_unit(sim_unit *u) { prim_fini((prim_unit *)u); }

bool prim_init(prim_unit *p, enum prim_mode m, uint32_t count, uint16_t live, sim_port *in, sim_port *out)
{
	memset(p, 0, sizeof *p);
	sim_unit_init(&p->u, "prim", prim_tick, PRIM_COUNTERS, PRIM_CTR_COUNT);
	p->u.reset = prim_reset;
	p->u.fini = prim_fini_unit;
	p->in = in;
	p->out = out;
	p->mode = m;
	p->count = count;
	p->ntris = prim_triangles(m, count);
	p->live = live ? live : 0xFFFFu;
	p->nlive = (uint8_t)__builtin_popcount(p->live);
	p->reg2[0] = (uint8_t)__builtin_ctz(p->live);
	p->reg2[1] = (uint8_t)(31 - __builtin_clz(p->live));
	p->base = prim_base(p);
	p->max_cap = 1;
	while (p->max_cap < count)
		p->max_cap *= 2;
	p->cap = p->max_cap < PRIM_RING_START ? p->max_cap : PRIM_RING_START;
	/* vtx needs no zeros (vid says which slots hold a vertex); neither is
	 * touched past the ring's cap slots */
	p->vtx = malloc((size_t)p->max_cap * p->nlive * sizeof *p->vtx);
	p->vid = calloc(p->max_cap, sizeof *p->vid);
	in->consumer = &p->u;
	return p->vtx && p->vid;
}

bool prim_init_geometry(prim_unit *p, uint32_t per, uint32_t count, sim_port *in, sim_port *out)
{
	bool ok = prim_init(p, PRIM_GEOMETRY, count, 0xFFFFu, in, out);
	p->per = per < 1 ? 1 : per > 3 ? 3 : per;
	p->ntris = count / p->per;
	return ok;
}

static void prim_fini(prim_unit *p)
{
	free(p->vtx);
	free(p->vid);
	p->vtx = NULL;
	p->vid = NULL;
}
