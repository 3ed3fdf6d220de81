/* The PICA200 attribute-buffer and draw registers (pica200.md §6.1; 3dbrew
 * GPU/Internal Registers): what the vertex fetch reads and how a draw is
 * triggered.
 *
 *   0x200 ATTRIBBUFFERS_LOC      [28:1] base address >> 3 (16-byte aligned)
 *   0x201 ATTRIBBUFFERS_FORMAT_LOW   attributes 0-7, 4 bits each: [1:0] type
 *                                (byte, ubyte, short, float), [3:2] components - 1
 *   0x202 ATTRIBBUFFERS_FORMAT_HIGH  [15:0] attributes 8-11, [27:16] fixed
 *                                attributes, [31:28] attributes - 1
 *   0x203+3j / 0x204+3j / 0x205+3j   buffer j: OFFSET [27:0] from the base;
 *                                CONFIG1 components 0-7; CONFIG2 [15:0]
 *                                components 8-11, [23:16] bytes per vertex,
 *                                [31:28] components (a component is an
 *                                attribute 0-11, or 12-15: 4-16 padding bytes)
 *   0x227 INDEXBUFFER_CONFIG     [27:0] offset from the base, [31] 16-bit
 *                                indices, [30] 32-bit (ulpsim's; else 8-bit)
 *   0x228 NUMVERTICES   0x22A VERTEX_OFFSET   0x242 VSH_NUM_ATTR [3:0]
 *   0x22E DRAWARRAYS / 0x22F DRAWELEMENTS: a write starts the draw
 *   0x25E PRIMITIVE_CONFIG       [9:8] 0 triangles, 1 strip, 2 fan, 3 GS
 *   0x2F0 ulpsim's ATTRIB_UNORM  bit i: ubyte attribute i reads as / 255
 *                                (not a hardware register: docs/registers.md) */
#ifndef ULP_SIM_PICA_VTX_H
#define ULP_SIM_PICA_VTX_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "units/pica/pica_regs.h"
#include "units/geom/prim.h"
#include "units/pica/vfetch.h"

enum {
	PICA_REG_ATTRIBBUFFERS_LOC = 0x200, PICA_REG_ATTRIBBUFFERS_FORMAT_LOW = 0x201,
	PICA_REG_ATTRIBBUFFERS_FORMAT_HIGH = 0x202, PICA_REG_ATTRIBBUFFER0 = 0x203,
	PICA_REG_INDEXBUFFER_CONFIG = 0x227, PICA_REG_NUMVERTICES = 0x228, PICA_REG_VERTEX_OFFSET = 0x22A,
	PICA_REG_DRAWARRAYS = 0x22E, PICA_REG_DRAWELEMENTS = 0x22F, PICA_REG_VSH_NUM_ATTR = 0x242,
	PICA_REG_PRIMITIVE_CONFIG = 0x25E, PICA_REG_ULP_ATTRIB_UNORM = 0x2F0,
};

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
