/* The GR3D registers (tegra-fp.md §2.5, §4): the fragment program's upload
 * FIFOs and their indices, FP_CONST, the draw-time globals, depth/stencil,
 * render targets and Tegra 3's two blocks.  The register model rebuilds
 * the program the hardware would hold; the drv_gr3d_* writers are the
 * driver's side.  Every address, name and field is a row of gr3d_regs.def
 * (the draw-state registers' models are units/geom/gr3d_state.h);
 * docs/registers.md says what ulpsim does with each.
 *
 * Generated here:
 *   GR3D_REG_<NAME>          the address (an array's element 0), with
 *   GR3D_N_<NAME>, GR3D_STRIDE_<NAME> and GR3D_REG_AT(NAME, k);
 *   GR3D_GET(v, LAYOUT, FIELD), GR3D_PUT(LAYOUT, FIELD, x) and, for fields
 *   repeated in a word, GR3D_GETI / GR3D_PUTI with an element index. */
#ifndef ULP_SIM_GR3D_REGS_H
#define ULP_SIM_GR3D_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/regtable.h"
#include "isa/tegra/tegra_prog.h"
#include "isa/tegra/gr3d_regs_table.h"
#include "sim/core/regstream.h"
#include "units/gr3d/zs.h"


enum gr3d_upload {
	GR3D_UP_PSEQ, GR3D_UP_MFU_SCHED, GR3D_UP_MFU, GR3D_UP_TEX, GR3D_UP_ALU_SCHED, GR3D_UP_ALU,
	GR3D_UP_COMPLEMENT, GR3D_UP_DW, GR3D_UP_COUNT
};

typedef struct gr3d_regs {
	uint32_t raw[GR3D_REG_COUNT];
	uint32_t index[GR3D_UP_COUNT];       /* next word of each upload FIFO */
	uint32_t words[GR3D_UP_COUNT];       /* high-water marks */
	uint32_t pseq[TEGRA_FP_MAX_EXEC], mfu_sched[TEGRA_FP_MAX_EXEC], tex[TEGRA_FP_MAX_EXEC];
	uint32_t alu_sched[TEGRA_FP_MAX_EXEC], complement[TEGRA_FP_MAX_EXEC], dw[TEGRA_FP_MAX_EXEC];
	uint32_t mfu[2 * TEGRA_FP_MAX_MFU];
	uint32_t alu[8 * TEGRA_FP_MAX_ALU_PACKETS];
	/* Tegra 3's GSHIM: the first register written to one block only (the
	 * model holds one register file for both blocks, docs/registers.md) */
	bool one_block;
	uint16_t one_block_reg;
	uint8_t one_block_mask;
} gr3d_regs;

/* Short names for the GSHIM and swath registers (tests/units/test_swath.c). */
enum {
	GR3D_GSHIM_WRITE_MASK = GR3D_REG_GSHIM_WRITE_MASK,
	GR3D_GSHIM_LAST = GR3D_REG_GSHIM_OTHER + GR3D_N_GSHIM_OTHER - 1,
	GR3D_GSHIM_GPU_A = 1 << GR3D_F_GSHIM_WRITE_MASK__GPU_A_LO,
	GR3D_GSHIM_GPU_B = 1 << GR3D_F_GSHIM_WRITE_MASK__GPU_B_LO,
	GR3D_SWATH_RENDERING = GR3D_REG_GLOBAL_HORIZONTAL_SWATH_RENDERING,
};

/* RT_PARAMS.FORMAT codes.  The names are grate's PIXEL_FORMAT list
 * (tegra-fp.md §4); their numbers are not in the reference, so these are the
 * simulator's (docs/registers.md).  The hardware has one 32-bit colour code:
 * a B8G8R8A8 surface is programmed as RGBA8888, the byte order being the
 * driver's business, as grate's Gallium driver does. */
enum gr3d_pixel_format {
	GR3D_PF_A8 = 0, GR3D_PF_L8 = 1, GR3D_PF_S8 = 2, GR3D_PF_LA88 = 3, GR3D_PF_RGB565 = 4,
	GR3D_PF_RGBA5551 = 5, GR3D_PF_RGBA4444 = 6, GR3D_PF_D16_LINEAR = 7, GR3D_PF_D16_NONLINEAR = 8,
	GR3D_PF_RGBA8888 = 9, GR3D_PF_RGBA_FP32 = 10,
};

void gr3d_regs_init(gr3d_regs *r);
bool gr3d_regs_write(gr3d_regs *r, uint32_t reg, uint32_t value, ulp_diag *d);
/* The program the registers hold (counts from the upload high-water marks
 * and FP_PSEQ_ENGINE_INST; globals from ALU_BUFFER_SIZE and FP_PSEQ_DW_CFG;
 * constants from FP_CONST).  False with d when the registers describe no valid program. */
bool gr3d_regs_program(const gr3d_regs *r, tegra_fp_program *out, ulp_diag *d);

/* The colour format RT_PARAMS of render target rt describes: an enum gr3d_rtfmt
 * (RGBA8888 for a never-written register).  False with d for a FORMAT code
 * the DW does not write as colour. */
bool gr3d_regs_rt_format(const gr3d_regs *r, unsigned rt, uint8_t *fmt, ulp_diag *d);

/* The driver: RT_PARAMS of render target rt for a colour buffer of format
 * fmt (enum gr3d_rtfmt), pitch in bytes. */
void drv_gr3d_rt_params(reg_stream *s, unsigned rt, unsigned fmt, uint32_t pitch);
/* The depth/stencil state the registers hold (QR_S_TEST_FRONT .. QR_Z_MAX,
 * STENCIL_FRONT2/BACK2, RT_ENABLE.DEPTH, and QR_OUTPUT_TO_SHADER =
 * GR3D_OUTPUT_TO_SHADER_KILL for late writes when late_when_kill). */
void gr3d_regs_zs(const gr3d_regs *r, bool late_when_kill, zs_state *st);
/* The driver: the registers for a depth/stencil state (st->late and
 * st->depth_surface are not written here: QR_OUTPUT_TO_SHADER comes with the program,
 * RT_ENABLE with the framebuffer). */
void drv_gr3d_zs(reg_stream *s, const zs_state *st);
/* RT_ENABLE: colour targets 1..ncolor, bit 16 the depth surface. */
void drv_gr3d_rt_enable(reg_stream *s, unsigned ncolor, bool depth);

/* The swath split of `blocks` GR3D blocks (1, or 2 on Tegra 3): alternate
 * (GLOBAL_HORIZONTAL_SWATH_RENDERING.ALTERNATE) and the swath height as
 * log2 rows (SWATH_ALIGN).  False with d when two blocks were programmed
 * differently (a write while GSHIM_WRITE_MASK selected one block) or
 * ALTERNATE asks for swaths of under 2 rows. */
bool gr3d_regs_swath(const gr3d_regs *r, unsigned blocks, bool *alternate, unsigned *swath_shift,
                     ulp_diag *d);
/* The driver: with two blocks, broadcast writes (GSHIM_WRITE_MASK = GPU_A |
 * GPU_B) and swaths of swath_height rows alternating between them; nothing
 * with one.  False with d when swath_height is not a power of two 2..4096. */
bool drv_gr3d_swath(reg_stream *s, unsigned blocks, unsigned swath_height, ulp_diag *d);

/* The driver: a program's upload in grate's order (tegra-fp.md §2.5) and
 * the per-draw registers grate writes, with the given FP_CONST words. */
void drv_gr3d_load_program(reg_stream *s, const tegra_fp_program *p, const uint32_t fp_const[32]);

/* The name of a GR3D register ulpsim implements (gr3d_regs.def: "FP_CONST5",
 * "LINKER_INSTRUCTION_2.1", "TEXTURE_DESC0.1"), or NULL. */
const char *gr3d_reg_name(uint16_t reg, char *buf, size_t n);
/* The address of the register gr3d_reg_name names so, or -1. */
int gr3d_reg_find(const char *name);

#endif
