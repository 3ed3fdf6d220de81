/* The vertex-side driver layer: the register writes a 3DS driver makes to
 * load a shader and its uniforms (pica200.md §6.1; 3dbrew GPU/Internal
 * Registers), appended to a register stream. */
#ifndef ULP_SIM_DRIVER_PICA_H
#define ULP_SIM_DRIVER_PICA_H

#include <stdbool.h>

#include "base/diag.h"
#include "isa/pica/shbin.h"
#include "sim/regstream.h"

/* Code, operand descriptors, the DVLE's constants, entry point, output map
 * (mask and per-component semantics) and input count for the DVLE's unit
 * (a GS DVLE programs the GS block).  VSH_COM_MODE is set to 1 first, so
 * the two units are programmed separately. */
bool drv_pica_load_shader(reg_stream *s, const struct shbin *sh, unsigned dvle, ulp_diag *d);

/* count vec4 float uniforms from c[first], in the f32 upload mode. */
void drv_pica_float_uniforms(reg_stream *s, bool gs, unsigned first, const float (*v)[4],
                             unsigned count);

/* nattr input attributes; attribute i goes to register reg[i]. */
void drv_pica_attributes(reg_stream *s, bool gs, unsigned nattr, const uint8_t *reg);

/* The geometry stage (3dbrew GPU/Internal Registers): GEOSTAGE_CONFIG = 2
 * with a GS in use (0 without), and then VSH_OUTMAP_TOTAL1/2 = the VS's
 * output registers - 1 (the attributes per vertex the GS receives) and
 * GSH_MISC0 = 0 (point mode). */
void drv_pica_geostage(reg_stream *s, bool gs_on, unsigned vs_outputs);

/* The SH_OUTMAP semantic code of component c (0 = x) of an output type
 * (enum shbin_out_type); 0x1F = unused. */
unsigned drv_pica_out_semantic(unsigned type, unsigned comp);

#endif
