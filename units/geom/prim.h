/* Primitive assembly: takes shaded vertices in the order the shader units
 * finish them, puts them back in draw order and hands triangles (lists,
 * strips with their winding kept, fans) to the clipper, one per cycle, as
 * soon as a triangle's three vertices are in.  Index buffers are resolved
 * by vertex fetch: vertex k of the draw is index k.
 *
 * With a geometry shader (PRIM_GEOMETRY, PRIMITIVE_CONFIG mode 3 "geometry
 * primitive", 3dbrew GPU/Internal Registers) it is the GS input buffer
 * instead: every `per` vertices in draw order go to the GS unit as one
 * input primitive (v[0..per-1]); the GS's emitted triangles go on to clip.
 *
 *   vsh* --(pica_result)--> [ prim ] --(prim_tri)--> clip  (or gsh -> clip) */
#ifndef ULP_UNITS_PRIM_H
#define ULP_UNITS_PRIM_H

#include "sim/core/port.h"
#include "units/pica/pica_shader.h"

enum prim_mode { PRIM_TRIANGLES, PRIM_TRIANGLE_STRIP, PRIM_TRIANGLE_FAN, PRIM_GEOMETRY };

/* A triangle: its three vertices' output registers (v[2] is the provoking
 * vertex, GL's last-vertex convention). */
typedef struct prim_tri {
	uint32_t id;
	pica_vec4 v[3][16];
} prim_tri;

enum prim_counter { PRIM_CTR_VERTICES, PRIM_CTR_TRIANGLES, PRIM_CTR_COUNT };

typedef struct prim_unit {
	sim_unit u;                   /* first: the clock's view */
	sim_port *in, *out;
	enum prim_mode mode;
	uint32_t count, got, ntris, next_tri;
	uint32_t per;                 /* PRIM_GEOMETRY: vertices per GS input primitive (1..3) */
	/* The vertices still needed (ids base.. on) in a ring of cap slots
	 * (id & (cap - 1)), nlive registers each: live's, in order.  The buffers
	 * are allocated for the whole draw (pow2 of count slots) but only the
	 * ring's first cap slots are touched, cap doubling in place when a
	 * vertex arrives cap or more past base: a draw's vertices no longer
	 * touch a fresh page each (page faults, which the host pays dearly). */
	pica_vec4 *vtx;
	uint32_t *vid;                /* per slot: id + 1 of the vertex there, 0: none */
	uint32_t cap, max_cap, base;
	uint64_t last_vertex;         /* cycle the last vertex came in */
	uint16_t live;                /* bit r: o register r is read downstream (the others are
	                               * neither kept nor copied; prim_init) */
	uint8_t nlive;                /* registers in live */
	uint8_t reg2[2];              /* nlive == 2: the two registers, in order */
} prim_unit;

extern const sim_counter_def PRIM_COUNTERS[PRIM_CTR_COUNT];

/* Only the o registers of `live` (bit r: o register r; 0 is taken as all
 * 16) are kept and reach the triangles (without a GS: what the clipper and
 * setup read, clip_live_regs | setup_live_regs); the others are left as
 * they were in the port's slot.  The vertices are kept side by side, nlive
 * registers each (fewer fresh pages to touch: a draw's vertices at 256
 * bytes each were most of a replay's page faults).  False when out of
 * memory. */
bool prim_init(prim_unit *p, enum prim_mode m, uint32_t count, uint16_t live, sim_port *in, sim_port *out);
/* PRIM_GEOMETRY: count / per input primitives of `per` (1..3) vertices
 * each, all 16 registers kept (a GS reads its own). */
bool prim_init_geometry(prim_unit *p, uint32_t per, uint32_t count, sim_port *in, sim_port *out);

/* Copies the registers of `live` (bit r: o register r) from s to d. */
static inline void prim_copy_live(pica_vec4 *restrict d, const pica_vec4 *restrict s, uint16_t live)
{
	for (uint32_t bits = live; bits; bits &= bits - 1)
		d[__builtin_ctz(bits)] = s[__builtin_ctz(bits)];
}

static inline bool prim_done(const prim_unit *p) { return p->next_tri == p->ntris && p->got == p->count; }

#endif
