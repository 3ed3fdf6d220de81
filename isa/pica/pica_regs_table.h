/* The PICA200 register table (pica_regs.def) as C: the PICA_REG_* and
 * PICA_SH_* addresses, counts and strides, and the PICA_GET / PICA_PUT
 * field accessors. */
#ifndef ULP_ISA_PICA_REGS_TABLE_H
#define ULP_ISA_PICA_REGS_TABLE_H

#include "base/regtable.h"

/* ---- generated from pica_regs.def ---- */
enum {
#define PICA_REG(NAME, addr, count, stride, dump, source) \
	PICA_REG_##NAME = (addr), PICA_N_##NAME = (count), PICA_STRIDE_##NAME = (stride),
#define PICA_SH_BLOCK(NAME, base, size, source) PICA_REG_##NAME##_BASE = (base), PICA_SH_SIZE_##NAME = (size),
#define PICA_SPACE(size, source) PICA_REG_COUNT = (size),
#include "isa/pica/pica_regs.def"
};
enum {
#define PICA_SH_REG(NAME, offset, count, dump, source) \
	PICA_SH_##NAME = (offset), PICA_N_SH_##NAME = (count), \
	PICA_REG_VSH_##NAME = PICA_REG_VSH_BASE + (offset), PICA_REG_GSH_##NAME = PICA_REG_GSH_BASE + (offset),
#define PICA_FIELD(LAYOUT, FIELD, lo, width, count, stride) \
	PICA_F_##LAYOUT##__##FIELD##_LO = (lo), PICA_F_##LAYOUT##__##FIELD##_W = (width), \
	PICA_F_##LAYOUT##__##FIELD##_N = (count), PICA_F_##LAYOUT##__##FIELD##_S = (stride),
#include "isa/pica/pica_regs.def"
	PICA_REG_BLOCK_SIZE = PICA_SH_SIZE_VSH,
};

/* Element k of an array register. */
#define PICA_REG_AT(NAME, k) (PICA_REG_##NAME + (k) * PICA_STRIDE_##NAME)
/* A field of register word v; x placed in its field; element i of a
 * repeated field. */
#define PICA_GET(v, LAYOUT, FIELD) \
	ulp_bits_get((v), PICA_F_##LAYOUT##__##FIELD##_LO, PICA_F_##LAYOUT##__##FIELD##_W)
#define PICA_PUT(LAYOUT, FIELD, x) \
	ulp_bits_put((x), PICA_F_##LAYOUT##__##FIELD##_LO, PICA_F_##LAYOUT##__##FIELD##_W)
#define PICA_GETI(v, LAYOUT, FIELD, i) \
	ulp_bits_get((v), PICA_F_##LAYOUT##__##FIELD##_LO + (unsigned)(i) * PICA_F_##LAYOUT##__##FIELD##_S, \
	             PICA_F_##LAYOUT##__##FIELD##_W)
#define PICA_PUTI(LAYOUT, FIELD, i, x) \
	ulp_bits_put((x), PICA_F_##LAYOUT##__##FIELD##_LO + (unsigned)(i) * PICA_F_##LAYOUT##__##FIELD##_S, \
	             PICA_F_##LAYOUT##__##FIELD##_W)

#endif
