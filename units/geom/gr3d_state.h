/* The GR3D draw-state registers outside the fragment program: the linker
 * and TRAM set-up, the rasterizer's face state, the viewport and scissor,
 * and the texture units (tegra-fp.md §4 for the register names and
 * offsets; the fields inside them are ulpsim's, docs/registers.md and
 * docs/ASSUMPTIONS.md "GR3D draw-state registers").
 *
 *   0x300+2i LINKER_INSTRUCTION export select (TRAM row i):
 *            0..3 o register, 4 unlinked (reads 0,0,0,1), 8..11 back-face
 *            o register, 12 back-face register valid, 16 flat (constant)
 *   0x301+2i LINKER_INSTRUCTION TRAM format: 0 = FP20 x, y, z, w (the only one)
 *   0x343    CULL_FACE_LINKER_SETUP: FIRST_INST 0..4, count - 1 5..9,
 *            cull 10..11 (0 none, 1 front, 2 back), 12 front face clockwise,
 *            13 two-sided colour
 *   0x350/1  SCISSOR_HORIZ/VERT: min 0..12, max (exclusive) 16..28, HORIZ 31 on
 *   0x352..7 VIEWPORT x/y translate, x/y scale, z translate, z scale (f32 bits)
 *   0x710+i  TEXTURE_POINTER: the texture's address in the replay's memory (0: none)
 *   0x720+2i TEXTURE_DESC1: 0 mag linear, 1..2 min filter, 3 mip linear,
 *            4 mip none, 5..6 wrap s, 7..8 wrap t, 9 wrap t own, 10..12
 *            format (enum gr3d_texfmt), 14..31 LOD bias s5.12
 *   0x721+2i TEXTURE_DESC2: width 0..13, height 14..27, levels - 1 28..31
 *   0xe00+i  RT_PTR: render target i's address (0: none; the replay's colour buffers)
 *   0xe21    TRAM_SETUP: NUM_TRIS 0..6 (TRAM slots), TRI_ROWS 8..14 (rows per triangle) */
#ifndef ULP_SIM_GR3D_STATE_H
#define ULP_SIM_GR3D_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "units/gr3d/gr3d_regs.h"
#include "sim/core/regstream.h"
#include "units/gr3d/gr3d_quad.h"
#include "units/geom/setup.h"

enum {
	GR3D_REG_LINKER = 0x300, GR3D_REG_LINKER_SETUP = 0x343, GR3D_REG_SCISSOR_HORIZ = 0x350,
	GR3D_REG_SCISSOR_VERT = 0x351, GR3D_REG_VIEWPORT = 0x352, GR3D_REG_TEXTURE_POINTER = 0x710,
	GR3D_REG_TEXTURE_DESC = 0x720, GR3D_REG_RT_PTR = 0xe00, GR3D_REG_TRAM_SETUP = 0xe21,
};

/* The linker's view of one TRAM row, as the driver describes it. */
typedef struct gr3d_link_row {
	uint8_t reg;          /* o register, 0xFF: unlinked (0, 0, 0, 1) */
	uint8_t reg_back;     /* back-face o register with two-sided colour, 0xFF: none */
	bool flat;            /* constant over the triangle (the provoking vertex's) */
} gr3d_link_row;

/* The driver: the linker (LINKER_INSTRUCTION per row, 0x343 with the face
 * state, TRAM_SETUP). */
void drv_gr3d_linker(reg_stream *s, const gr3d_link_row *rows, unsigned nrows, uint8_t cull,
                     bool front_ccw, bool two_side);
/* The driver: the viewport (scale, translate per axis) and the scissor
 * (on: keep minx <= x < maxx, miny <= y < maxy). */
void drv_gr3d_viewport(reg_stream *s, const double scale[3], const double translate[3]);
void drv_gr3d_scissor(reg_stream *s, bool on, const int rect[4]);
/* The driver: texture unit i: pointer (0: none) and its descriptor (from a
 * sampler's state, with width, height and level count of the bound view). */
void drv_gr3d_texture(reg_stream *s, unsigned i, uint32_t pointer, const gr3d_sampler *sm,
                      uint32_t width, uint32_t height);

/* The setup state the registers hold: linker rows, TRAM rows, face state,
 * viewport, scissor (the caller sets pos_reg and tri_cycles).  flat_regs
 * gets the o registers the linker marks flat.  False with d for a TRAM
 * format ulpsim does not link. */
bool gr3d_regs_setup(const gr3d_regs *r, setup_state *su, uint16_t *flat_regs, ulp_diag *d);

/* Texture unit i as the registers describe it (img/level left NULL: the
 * caller resolves the pointer); *pointer gets TEXTURE_POINTER. */
void gr3d_regs_texture(const gr3d_regs *r, unsigned i, gr3d_sampler *sm, uint32_t *pointer,
                       uint32_t *width, uint32_t *height);

#endif
