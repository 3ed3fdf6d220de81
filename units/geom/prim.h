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
	pica_vec4 (*vtx)[16];         /* count entries (allocated per draw) */
	uint8_t *have;
	uint64_t last_vertex;         /* cycle the last vertex came in */
} prim_unit;

extern const sim_counter_def PRIM_COUNTERS[PRIM_CTR_COUNT];

bool prim_init(prim_unit *p, enum prim_mode m, uint32_t count, sim_port *in, sim_port *out);
/* PRIM_GEOMETRY: count / per input primitives of `per` (1..3) vertices each. */
bool prim_init_geometry(prim_unit *p, uint32_t per, uint32_t count, sim_port *in, sim_port *out);

static inline bool prim_done(const prim_unit *p) { return p->next_tri == p->ntris && p->got == p->count; }

#endif
