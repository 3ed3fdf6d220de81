/* The PICA200 registers: how a driver programs the shader units and the
 * draws, one register write at a time (pica200.md §6.1; 3dbrew GPU/Internal
 * Registers).  Every address, name and field is a row of pica_regs.def;
 * docs/registers.md says what ulpsim does with each.
 *
 * Generated here:
 *   PICA_REG_<NAME>          the address (an array's element 0), with
 *   PICA_N_<NAME>, PICA_STRIDE_<NAME> and PICA_REG_AT(NAME, k);
 *   PICA_REG_VSH_<NAME>, PICA_REG_GSH_<NAME> and PICA_SH_<NAME> (the
 *   offset in a block) for the shader block registers;
 *   PICA_GET(v, LAYOUT, FIELD), PICA_PUT(LAYOUT, FIELD, x) and, for fields
 *   repeated in a word, PICA_GETI / PICA_PUTI with an element index.
 * Block registers' layouts are SH_<NAME> (PICA_GET(v, SH_ENTRYPOINT, ADDR)). */
#ifndef ULP_SIM_PICA_REGS_H
#define ULP_SIM_PICA_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/regtable.h"
#include "isa/pica/pica_regs_table.h"
#include "sim/core/config.h"
#include "units/pica/pica_exec.h"


/* SH_OUTMAP_O component codes (3dbrew GPU/Internal Registers): an unused
 * component, and POSITION.x. */
enum { PICA_OUTMAP_UNUSED = 0x1F, PICA_OUTMAP_POSITION_X = 0x00 };

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
	bool uniform_exact;                  /* arith=exact: 32-bit uploads kept as binary32 */
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
static inline bool pica_regs_gs_on(const pica_regs *r)
{
	return PICA_GET(r->raw[PICA_REG_GEOSTAGE_CONFIG], GEOSTAGE_CONFIG, MODE) == 2;
}

/* Input attribute i goes to v register pica_regs_attr_reg(...) (permutation). */
unsigned pica_regs_attr_reg(const pica_sh_regs *b, unsigned attr);
unsigned pica_regs_attr_count(const pica_sh_regs *b);

/* Packed float24 uniform words (pica200.md §2.1):
 * word0 = ZZWWWWWW, word1 = YYYYZZZZ, word2 = XXXXXXYY. */
void pica_unpack_f24x4(const uint32_t w[3], uint32_t out_xyzw[4]);

/* The name of a PICA register ulpsim implements (pica_regs.def: "VSH_CODETRANSFER_INDEX",
 * "SH_OUTMAP_O2", "ATTRIBBUFFER3_CONFIG2"), or NULL. */
const char *pica_reg_name(uint16_t reg, char *buf, size_t n);
/* The address of the register pica_reg_name names so, or -1. */
int pica_reg_find(const char *name);

#endif
