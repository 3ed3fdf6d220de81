/* The geometry-shader unit "gsh": the fourth PICA200 shader unit running a
 * geometry shader (pica200.md §4: with a GS bound, unit 3 runs it and the
 * vertex shader runs on the other three).  It is a pica_shader_unit (same
 * issue, scoreboard and latency model) in geometry mode:
 *
 *   prim (GS input buffer) --(prim_tri: v[0..per-1])--> [ gsh ] --(prim_tri)--> clip
 *
 * Input (point mode, the mode the TGSI compiler emits; picasso's manual):
 * each input primitive is `per` vertices of `stride` attributes, the
 * vertex shader's enabled output registers in register order (the VS output
 * buffer, VSH_OUTMAP_TOTAL + 1 registers per vertex); input attribute i
 * (= vertex * stride + register) goes to v[perm[i]] through the GS
 * ATTRIBUTES_PERMUTATION, for i < per * stride (GS INPUTBUFFER_CONFIG).
 * b15 becomes true after each invocation; r, a0, aL and cmp persist.
 *
 * Output: every EMIT with PRIMEMIT hands a triangle on.  The three vertex
 * slots are put in the order the strip meant (SETEMIT's winding flag): the
 * vertex just emitted last (the provoking vertex), the other two so that an
 * inverted primitive has its winding reversed.  The EMIT waits (stall
 * output_full) while the out port is full. */
#ifndef ULP_UNITS_GSH_H
#define ULP_UNITS_GSH_H

#include "units/pica/pica_shader.h"
#include "units/geom/prim.h"

typedef struct gsh_config {
	uint16_t vs_out_mask;      /* the VS's enabled output registers */
	unsigned per;              /* vertices per input primitive (1..3) */
	uint8_t perm[16];          /* input attribute -> v register */
} gsh_config;

typedef struct gsh_unit {
	pica_shader_unit sh;       /* first: the clock's view is sh.u */
	pica_uniforms unif;        /* this draw's GS uniforms (b15 changes) */
	const pica_uniforms *unif0;  /* as the draw gave them (gsh's reset) */
	gsh_config cfg;
	uint8_t src[16];           /* input attribute i -> VS o register of its vertex */
	unsigned stride, nattr;
	uint32_t in_prims, out_tris;
} gsh_unit;

/* prog must be a point-mode geometry shader; false with d otherwise. */
bool gsh_init(gsh_unit *g, const pica_program *prog, const pica_uniforms *unif, const gsh_config *c,
              const ulp_config *cfg, sim_port *in, sim_port *out, ulp_diag *d);

static inline bool gsh_idle(const gsh_unit *g) { return !g->sh.running && sim_port_empty(g->sh.in); }

#endif
