/* The replay's driver for the draw state outside the shaders
 * (docs/replay.md): simulated memory (every trace resource at an address),
 * the viewport, scissor, texture units, vertex elements and draws as
 * register writes (units/geom/gr3d_state.h, units/geom/pica_vtx.h), and a draw's set-up
 * read back from the register models. */
#ifndef ULP_SIM_REPLAY_STATE_H
#define ULP_SIM_REPLAY_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "units/gpu.h"
#include "units/gr3d/gr3d_regs.h"
#include "units/pica/pica_regs.h"
#include "sim/core/regstream.h"
#include "traces/trace.h"
#include "units/pica/vfetch.h"

struct cJSON;

typedef struct replay_state {
	const trace *t;                /* the resources (a session's growing table) */
	/* simulated memory: resource k of t at base[k], room for cap[k] bytes;
	 * order: the resources by address; places freed by removed or moved
	 * resources are reused first-fit */
	uint32_t *base, *cap;
	size_t *order;
	size_t nplaced, nalloc;         /* resources placed (t->nres after each place) */
	uint32_t *free_base, *free_cap;
	size_t nfree, free_alloc;
	uint32_t next;                 /* the first address after the last place */
	/* the driver's view of the state (what it writes) */
	double vp_scale[3], vp_translate[3];
	bool scissor;
	int scissor_rect[4];           /* minx, miny, maxx, maxy */
	gr3d_sampler sampler[GR3D_SAMPLERS];
	uint32_t tex_ptr[GR3D_SAMPLERS], tex_w[GR3D_SAMPLERS], tex_h[GR3D_SAMPLERS];
	/* the textures a draw reads, decoded from memory as the registers say */
	ulp_image *tex_img[GR3D_SAMPLERS][GR3D_TEX_LEVELS];
	uint32_t tex_key[GR3D_SAMPLERS][3];
} replay_state;

/* No resources yet: memory is laid out as they are placed. */
void replay_state_init(replay_state *st, const trace *t);
void replay_state_free(replay_state *st);

/* Resource k of st->t (len bytes: just added as the last, or its bytes
 * replaced) gets its address: its old place while it fits, else a free
 * place, else a new place after the last (its old place becomes free).
 * A replay of a whole trace places them in order from 0x10000, 4 KB
 * aligned, a 4 KB gap between two.  Draws that sampled k's old bytes
 * decode the new ones.  False with d (at path) when the 256 MB are full. */
bool replay_state_place(replay_state *st, size_t k, size_t len, const char *path, ulp_diag *d);
/* Resource k is being removed from st->t (the caller then shifts the
 * resources after it down by one): its place becomes free. */
void replay_state_remove(replay_state *st, size_t k);


/* The commands; each appends its writes to s (the caller applies them). */
void replay_state_viewport(replay_state *st, reg_stream *s, const double scale[3], const double translate[3]);
void replay_state_scissor(replay_state *st, reg_stream *s, const struct cJSON *c);   /* c NULL: keep the rectangle */
void replay_state_scissor_enable(replay_state *st, reg_stream *s, bool on);
void replay_state_sampler(replay_state *st, reg_stream *s, const struct cJSON *c, uint8_t *shadow_cmp);
void replay_state_sampler_view(replay_state *st, reg_stream *s, const struct cJSON *c);
bool replay_state_vertex_elements(replay_state *st, reg_stream *s, const struct cJSON *c, ulp_diag *d);
/* The draw registers and the trigger; false with d for a bad index buffer
 * or primitive mode.  gs: a geometry shader takes the primitives (the mode
 * was checked against its input; PRIMITIVE_CONFIG says "geometry"). */
bool replay_state_draw(replay_state *st, reg_stream *s, const struct cJSON *c, bool gs, ulp_diag *d);

/* A triggered draw's set-up from the registers: the fetch (f), mode and
 * count, the setup state (viewport, scissor, face, linker, pos_reg), the
 * flat registers, and the texture units (images decoded from memory). */
bool replay_state_draw_setup(replay_state *st, const pica_regs *pr, const gr3d_regs *gr, bool indexed,
                             gpu_draw *g, vfetch_setup *f, ulp_diag *d);

#endif
