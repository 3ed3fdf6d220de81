/* The PICA200 attribute-buffer and draw registers (pica200.md §6.1; 3dbrew
 * GPU/Internal Registers): what the vertex fetch reads and how a draw is
 * triggered.  Their addresses and fields are rows of
 * isa/pica/pica_regs.def (ATTRIBBUFFERS_LOC .. PRIMITIVE_CONFIG, and
 * ulpsim's ULP_ATTRIB_UNORM); docs/registers.md says what each does. */
#ifndef ULP_SIM_PICA_VTX_H
#define ULP_SIM_PICA_VTX_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "units/pica/pica_regs.h"
#include "units/geom/prim.h"
#include "units/pica/vfetch.h"

/* A write of reg starts a draw (DRAWARRAYS, DRAWELEMENTS). */
static inline bool pica_reg_is_draw(uint16_t reg)
{
	return reg == PICA_REG_DRAWARRAYS || reg == PICA_REG_DRAWELEMENTS;
}

/* The draw the registers describe; indexed = the trigger was DRAWELEMENTS.
 * f gets the fetch set-up (read/mem/round are the caller's).  False with d
 * for a geometry-shader primitive mode or an attribute layout not read. */
bool pica_regs_draw(const pica_regs *r, bool indexed, vfetch_setup *f, enum prim_mode *mode,
                    uint32_t *count, ulp_diag *d);

/* The o register whose SH_OUTMAP x component is POSITION.x (0x00); false
 * when no enabled output carries it. */
bool pica_regs_pos_reg(const pica_regs *r, uint8_t *reg);

#endif
