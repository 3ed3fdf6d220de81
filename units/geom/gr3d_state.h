/* The GR3D draw-state registers outside the fragment program: the linker
 * and TRAM set-up, the rasterizer's face state, the viewport and scissor,
 * and the texture units.  Their addresses and fields are rows of
 * isa/tegra/gr3d_regs.def (LINKER_INSTRUCTION_SEL/FMT, CULL_FACE_LINKER_SETUP,
 * SCISSOR_*, VIEWPORT_*, TEXTURE_POINTER, TEXTURE_DESC1/2, RT_PTR,
 * TRAM_SETUP: tegra-fp.md §4 for the names and offsets; the fields inside
 * them are ulpsim's, docs/registers.md and docs/ASSUMPTIONS.md "GR3D
 * draw-state registers"). */
#ifndef ULP_SIM_GR3D_STATE_H
#define ULP_SIM_GR3D_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "units/gr3d/gr3d_regs.h"
#include "sim/core/regstream.h"
#include "units/gr3d/gr3d_quad.h"
#include "units/geom/setup.h"

/* The linker's view of one TRAM row, as the driver describes it. */
typedef struct gr3d_link_row {
	uint8_t reg;          /* o register, 0xFF: unlinked (0, 0, 0, 1) */
	uint8_t reg_back;     /* back-face o register with two-sided colour, 0xFF: none */
	bool flat;            /* constant over the triangle (the provoking vertex's) */
} gr3d_link_row;

/* The driver: the linker (LINKER_INSTRUCTION per row, CULL_FACE_LINKER_SETUP
 * with the face state, TRAM_SETUP). */
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
