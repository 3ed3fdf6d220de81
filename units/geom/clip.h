/* The clipper: clips each triangle in clip space against w > epsilon, the
 * near and far planes (-w <= z <= w) and the enabled user clip planes
 * (Gallium's clip_state ucp against CLIPVERTEX, else the position; a VS
 * CLIPDIST output also clips), Sutherland-Hodgman in that plane order, and
 * hands the resulting polygon on as a fan of triangles, one per cycle.
 * Every output register is interpolated linearly in clip space at a new
 * vertex.  Flat-shaded registers take the provoking (last) vertex's value
 * first, so they stay constant across the fan.
 *
 *   prim --(prim_tri)--> [ clip ] --(prim_tri)--> setup */
#ifndef ULP_UNITS_CLIP_H
#define ULP_UNITS_CLIP_H

#include "sim/core/port.h"
#include "units/geom/prim.h"

enum { CLIP_PLANES = 8, CLIP_NONE = 0xFF };

typedef struct clip_state {
	uint8_t pos_reg;              /* o register of POSITION */
	uint8_t clipvert_reg;         /* CLIPVERTEX, or CLIP_NONE: the position */
	uint8_t clipdist_reg[2];      /* CLIPDIST 0..1, or CLIP_NONE */
	uint8_t plane_enable;         /* bit k: user plane k */
	float plane[CLIP_PLANES][4];
	uint16_t flat_regs;           /* bit r: o register r is flat shaded */
	float w_epsilon;              /* clip.w_epsilon */
	uint16_t clip_cycles;         /* clip.cycles: extra cycles for a triangle that is clipped */
} clip_state;

enum { CLIP_MAX_POLY = 3 + 3 + CLIP_PLANES };   /* each plane adds at most one vertex */

typedef struct clip_vtx {
	pica_vec4 o[16];
	float dist[3 + CLIP_PLANES];
} clip_vtx;

enum clip_counter { CLIP_CTR_IN, CLIP_CTR_CLIPPED, CLIP_CTR_CULLED, CLIP_CTR_OUT, CLIP_CTR_COUNT };

typedef struct clip_unit {
	sim_unit u;                   /* first: the clock's view */
	sim_port *in, *out;
	const clip_state *st;
	clip_vtx poly[CLIP_MAX_POLY], tmp[CLIP_MAX_POLY];
	unsigned n, emit;             /* polygon size; next fan triangle (1..n-2) */
	uint32_t id;
	uint64_t ready_at;
	bool whole;                   /* the triangle in hand is kept whole and its vertices are
	                               * still only in the input port's slot (take, this tick) */
	uint16_t live;                /* bit r: o register r is read here or by setup (clip_set_live,
	                               * default all 16): the others are neither copied nor cut */
	bool general;                 /* tests: classify by the distances always (not the lanes of
	                               * near, far and w alone) */
	bool two;                     /* live holds two registers (the position and one row) */
	uint8_t reg2[2];              /* two: they, in order */
} clip_unit;

extern const sim_counter_def CLIP_COUNTERS[CLIP_CTR_COUNT];

void clip_init(clip_unit *c, const clip_state *st, sim_port *in, sim_port *out);

/* The o registers the clipper reads: the position, CLIPVERTEX, CLIPDIST. */
uint16_t clip_live_regs(const clip_state *st);

/* Only the o registers of `live` (a superset of clip_live_regs: what setup
 * reads too) are taken, cut and handed on; the others are left as they were
 * in the output port's slot. */
static inline void clip_set_live(clip_unit *c, uint16_t live)
{
	c->live = live;
	c->two = __builtin_popcount(live) == 2;
	c->reg2[0] = (uint8_t)__builtin_ctz(live | 0x8000u);
	c->reg2[1] = (uint8_t)(31 - __builtin_clz(live | 1u));
}

static inline bool clip_idle(const clip_unit *c) { return c->emit + 1 >= c->n && sim_port_empty(c->in); }

#endif
