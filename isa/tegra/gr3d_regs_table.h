/* The GR3D register table (gr3d_regs.def) as C: the GR3D_REG_* addresses,
 * array counts and strides, and the GR3D_GET / GR3D_PUT field accessors.
 * Low in the house so that the program container (tegra_prog.c) names its
 * upload registers from the same table as the register model (units/gr3d). */
#ifndef ULP_ISA_TEGRA_GR3D_REGS_TABLE_H
#define ULP_ISA_TEGRA_GR3D_REGS_TABLE_H

#include "base/regtable.h"

/* ---- generated from gr3d_regs.def ---- */
enum {
#define GR3D_SPACE(size, source) GR3D_REG_COUNT = (size),
#define GR3D_REG(NAME, addr, count, stride, dump, source) \
	GR3D_REG_##NAME = (addr), GR3D_N_##NAME = (count), GR3D_STRIDE_##NAME = (stride),
#define GR3D_FIELD(LAYOUT, FIELD, lo, width, count, stride) \
	GR3D_F_##LAYOUT##__##FIELD##_LO = (lo), GR3D_F_##LAYOUT##__##FIELD##_W = (width), \
	GR3D_F_##LAYOUT##__##FIELD##_N = (count), GR3D_F_##LAYOUT##__##FIELD##_S = (stride),
#include "isa/tegra/gr3d_regs.def"
};

/* Element k of an array register. */
#define GR3D_REG_AT(NAME, k) (GR3D_REG_##NAME + (k) * GR3D_STRIDE_##NAME)
/* A field of register word v; x placed in its field; element i of a
 * repeated field. */
#define GR3D_GET(v, LAYOUT, FIELD) \
	ulp_bits_get((v), GR3D_F_##LAYOUT##__##FIELD##_LO, GR3D_F_##LAYOUT##__##FIELD##_W)
#define GR3D_PUT(LAYOUT, FIELD, x) \
	ulp_bits_put((x), GR3D_F_##LAYOUT##__##FIELD##_LO, GR3D_F_##LAYOUT##__##FIELD##_W)
#define GR3D_GETI(v, LAYOUT, FIELD, i) \
	ulp_bits_get((v), GR3D_F_##LAYOUT##__##FIELD##_LO + (unsigned)(i) * GR3D_F_##LAYOUT##__##FIELD##_S, \
	             GR3D_F_##LAYOUT##__##FIELD##_W)
#define GR3D_PUTI(LAYOUT, FIELD, i, x) \
	ulp_bits_put((x), GR3D_F_##LAYOUT##__##FIELD##_LO + (unsigned)(i) * GR3D_F_##LAYOUT##__##FIELD##_S, \
	             GR3D_F_##LAYOUT##__##FIELD##_W)

/* Values the driver writes as grate does (tegra-fp.md §2.5, §4):
 * FP_PSEQ_ENGINE_INST's upper bits, PSEQ_CTL (MAX_OUT 300, MIN_OUT 200 and
 * grate's other bits), QR_S_CTRL's 0x40, QR_Z_TEST's Z_CLAMP, and
 * QR_OUTPUT_TO_SHADER for a program that discards (ulpsim's convention:
 * zs.late_when_kill) or not. */
enum {
	GR3D_PSEQ_ENGINE_INST_GRATE = 0x20006000, GR3D_PSEQ_CTL_GRATE = 0x223212CF, GR3D_S_CTRL_GRATE = 0x40,
	GR3D_Z_CLAMP_GRATE = 3, GR3D_OUTPUT_TO_SHADER_KILL = 0x60, GR3D_OUTPUT_TO_SHADER_PLAIN = 0x48,
};

#endif
