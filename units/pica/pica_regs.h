/* The PICA200 shader registers: how a driver programs the shader units,
 * one register write at a time (pica200.md §6.1; 3dbrew Internal_Registers).
 *
 *   GS block 0x280-0x2AF, VS block 0x2B0-0x2DF (0x30 words each):
 *   +0x00 BOOLUNIFORM        [15:0] b0-b15
 *   +0x01..0x04 INTUNIFORM_I0..I3   x | y << 8 | z << 16 | w << 24
 *   +0x09 INPUTBUFFER_CONFIG [3:0] attributes - 1
 *   +0x0A ENTRYPOINT         [15:0] word address
 *   +0x0B/0x0C ATTRIBUTES_PERMUTATION_LOW/HIGH: 4 bits per attribute -> v
 *   +0x0D OUTMAP_MASK        o0-o15 enables
 *   +0x0F CODETRANSFER_END
 *   +0x10 FLOATUNIFORM_INDEX [7:0] index, [31] 1 = f32 words (w, z, y, x),
 *                            0 = packed float24 (3 words per vec4)
 *   +0x11..0x18 FLOATUNIFORM_DATA (one FIFO)
 *   +0x1B CODETRANSFER_INDEX [11:0];  +0x1C..0x23 CODETRANSFER_DATA (FIFO)
 *   +0x25 OPDESCS_INDEX;              +0x26..0x2D OPDESCS_DATA (FIFO)
 *   0x244 VSH_COM_MODE: 0 = VS uploads also reach the GS unit (unit 3).
 *   0x050..0x056 SH_OUTMAP_O0..O6: per component semantic, 0x1F = unused
 *                (the last stage's outputs: the GS's when one is in use).
 *   The geometry stage (3dbrew GPU/Internal Registers):
 *   0x229 GEOSTAGE_CONFIG  [1:0] 2 = a geometry shader is in use
 *   0x24A/0x251 VSH_OUTMAP_TOTAL1/2 [3:0] VS output registers - 1: the
 *                attributes per vertex of the GS input buffer
 *   0x252 GSH_MISC0        0 = point mode (the only mode modelled here;
 *                1 = subdivision, 0x01004302 = particle system)
 *   GS INPUTBUFFER_CONFIG [3:0] = the GS's input attributes - 1 per
 *   invocation (vertices per primitive * VS outputs in point mode). */
#ifndef ULP_SIM_PICA_REGS_H
#define ULP_SIM_PICA_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "units/pica/pica_exec.h"

enum {
	PICA_REG_OUTMAP_O0 = 0x050,
	PICA_REG_GEOSTAGE_CONFIG = 0x229,
	PICA_REG_VSH_COM_MODE = 0x244,
	PICA_REG_VSH_OUTMAP_TOTAL1 = 0x24A,
	PICA_REG_VSH_OUTMAP_TOTAL2 = 0x251,
	PICA_REG_GSH_MISC0 = 0x252,
	PICA_REG_GSH_BASE = 0x280,
	PICA_REG_VSH_BASE = 0x2B0,
	PICA_REG_BLOCK_SIZE = 0x30,
	PICA_REG_COUNT = 0x300,
};

/* One shader unit's block. */
typedef struct pica_sh_regs {
	uint32_t code[PICA_CODE_MAX];
	uint32_t opdesc[PICA_OPDESC_MAX];
	uint32_t code_index, opdesc_index;
	uint32_t code_words, opdesc_count;   /* high-water marks: the program's size */
	pica_uniforms unif;
	uint32_t float_index;
	bool float_f32;
	uint32_t float_words[4];
	unsigned float_nwords;
	uint32_t raw[PICA_REG_BLOCK_SIZE];
	uint64_t uploads;                    /* FIFO words taken (stats) */
} pica_sh_regs;

typedef struct pica_regs {
	pica_sh_regs vs, gs;
	uint32_t raw[PICA_REG_COUNT];
	enum ulp_round uniform_round;        /* knob f24.uniform_round */
} pica_regs;

void pica_regs_init(pica_regs *r, const ulp_config *cfg);

/* One write: reg (0x000-0x2FF), byte-enable mask (bits 0-3), value.
 * Partial masks on FIFO registers are refused (not publicly described). */
bool pica_regs_write(pica_regs *r, uint32_t reg, uint32_t mask, uint32_t value, ulp_diag *d);

/* The program the registers describe for the VS or the GS unit (code and
 * descriptors up to their high-water marks, the entry point, and the output
 * components the output map configures). */
bool pica_regs_program(const pica_regs *r, bool gs, const ulp_config *cfg, pica_program *out,
                       ulp_diag *d);

/* GEOSTAGE_CONFIG says a geometry shader is in use. */
static inline bool pica_regs_gs_on(const pica_regs *r) { return (r->raw[PICA_REG_GEOSTAGE_CONFIG] & 3) == 2; }

/* Input attribute i goes to v register pica_regs_attr_reg(...) (permutation). */
unsigned pica_regs_attr_reg(const pica_sh_regs *b, unsigned attr);
unsigned pica_regs_attr_count(const pica_sh_regs *b);

/* Packed float24 uniform words (pica200.md §2.1):
 * word0 = ZZWWWWWW, word1 = YYYYZZZZ, word2 = XXXXXXYY. */
void pica_unpack_f24x4(const uint32_t w[3], uint32_t out_xyzw[4]);

/* The name of a PICA register ulpsim implements, or NULL. */
const char *pica_reg_name(uint16_t reg, char *buf, size_t n);

#endif
