/* The vertex-side driver layer: the register writes a 3DS driver makes to
 * load a shader and its uniforms (pica200.md §6.1; 3dbrew GPU/Internal
 * Registers), appended to a register stream. */
#ifndef ULP_SIM_DRIVER_PICA_H
#define ULP_SIM_DRIVER_PICA_H

#include <stdbool.h>

#include "base/diag.h"
#include "isa/pica/shbin.h"
#include "sim/core/regstream.h"

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

/* ---- attribute buffers and draws (units/geom/pica_vtx.h for the registers) ---- */

/* One vertex element: attribute i, read from its own attribute buffer. */
typedef struct drv_pica_attr {
	uint32_t addr, stride;      /* simulated address of vertex 0's attribute; bytes per vertex */
	uint8_t type, ncomp;        /* enum vfetch_type, 1..4 */
	bool normalize;             /* ubyte / 255 */
} drv_pica_attr;

/* The attribute-buffer registers for nattr attributes (buffer i holds
 * attribute i; the base is 0, so offsets are addresses).  False with d for
 * a stride past 255 bytes or more than 12 attributes. */
bool drv_pica_vertex_buffers(reg_stream *s, const drv_pica_attr *a, unsigned nattr, ulp_diag *d);

/* The draw registers and the trigger: an array draw of count vertices from
 * first (index_size 0), or an indexed draw reading index_size-byte indices
 * at index_addr.  mode is an enum prim_mode. */
void drv_pica_draw(reg_stream *s, unsigned mode, uint32_t count, uint32_t first, uint32_t index_addr,
                   unsigned index_size);
