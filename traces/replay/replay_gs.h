/* Geometry shaders in a trace replay (docs/replay.md, docs/trace-format.md
 * bind_shaders.gs).  bind_shaders with a `gs` compiles a TGSI GEOM shader
 * to a PICA200 SHBIN (point mode) or loads an SHBIN's geometry DVLE, checks
 * it against the vertex shader's outputs (the GS input buffer takes the VS
 * output registers in order) and uploads it through the GS register block
 * plus the geometry-stage registers (traces/replay/driver_pica.h).  Each draw writes
 * the GS input buffer's size for its primitive (points: 1 vertex,
 * triangles: 3) and reads the unit's configuration back from the
 * registers; the draw then runs the GS on the fourth unit (units/geom/gsh.h). */
#ifndef ULP_SIM_REPLAY_GS_H
#define ULP_SIM_REPLAY_GS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/pica/shbin.h"
#include "units/pica/pica_regs.h"
#include "sim/core/regstream.h"
#include "traces/trace.h"
#include "units/gr3d/gr3d_quad.h"
#include "units/geom/gsh.h"

/* A geometry stage's outputs as the linker sees them (docs/replay.md). */
typedef struct replay_stage_io {
	bool tgsi;                        /* semantics known (compiled from TGSI) */
	int16_t sem[16];                  /* o register -> TGSI semantic, -1: none */
	uint32_t sem_index[16];
	uint8_t pos_reg;                  /* o register of POSITION */
	uint8_t tram_reg[GR3D_TRAM_ROWS]; /* fallback linker: the non-position outputs in order */
	unsigned ntram;
} replay_stage_io;

/* Compiles a TGSI vertex or geometry shader for the PICA200 (name for
 * messages): the SHBIN moves into *out and the output registers' semantics
 * into sem/sem_index; false with the compiler's message in why (sh stays the
 * caller's).  The replay's VS and GS binding both use it. */
struct tgsi_shader;
bool replay_compile_pica(struct tgsi_shader *sh, const char *name, struct shbin *out, int16_t sem[16],
                         uint32_t sem_index[16], char *why, size_t whylen);
/* The same, also giving the binary32 the immediates' constant registers
 * were filled from (arith=exact uploads them, docs/exact.md) into *x. */
typedef struct replay_pica_ximm {
	bool has[PICA_NUM_C];
	float v[PICA_NUM_C][4];
} replay_pica_ximm;
bool replay_compile_pica_x(struct tgsi_shader *sh, const char *name, struct shbin *out, int16_t sem[16],
                           uint32_t sem_index[16], replay_pica_ximm *x, char *why, size_t whylen);

typedef struct replay_gs {
	bool bound;
	struct shbin shbin;
	int in_prim;                      /* TGSI GS_INPUT_PRIMITIVE, -1: not declared (SHBIN) */
	replay_stage_io out;              /* the GS's outputs */
} replay_gs;

/* Binds shader s as the geometry shader of command cmd (messages name
 * "$.commands[cmd].gs"), after the vertex shader whose outputs are vs and
 * whose enabled output registers are vs_mask.  Appends the register writes
 * to st; the caller applies them. */
bool replay_gs_bind(replay_gs *g, const trace_shader *s, const replay_stage_io *vs, uint16_t vs_mask,
                    reg_stream *st, const char *trace_path, size_t cmd, ulp_diag *d);

/* No geometry shader: GEOSTAGE_CONFIG = 0 (when one was bound). */
void replay_gs_unbind(replay_gs *g, reg_stream *st);

/* A draw with mode `mode` while GEOSTAGE_CONFIG says a GS is in use: the
 * GS input buffer (INPUTBUFFER_CONFIG, identity permutation) for the
 * draw's primitive, appended to st. */
bool replay_gs_draw_regs(const replay_gs *g, const char *mode, const pica_regs *regs, reg_stream *st,
                         const char *trace_path, size_t cmd, ulp_diag *d);

/* The unit's configuration and program as the registers hold them. */
bool replay_gs_config(const pica_regs *regs, const ulp_config *cfg, gsh_config *c, pica_program *prog,
                      ulp_diag *d);

void replay_gs_free(replay_gs *g);

#endif
