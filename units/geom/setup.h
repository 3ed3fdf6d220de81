/* Triangle setup: the viewport transform, face and culling, the linker
 * (VS output registers into TRAM rows: by semantic between TGSI stages, the
 * back colour on back faces with two-sided colour), a TRAM slot from the ring
 * of 64 / rows-per-triangle slots (tegra-fp.md §5: NUM_TRIS), and the edge
 * set-up for the rasterizer, at setup.cycles_per_triangle per visible
 * triangle (Tegra 4: 1 visible triangle / 5 clk, tegra-fp.md §5).
 *
 *   clip --(prim_tri)--> [ setup ] --(raster_tri)--> raster
 *                           |  ^ TRAM slot free (PSEQ: the last quad of the
 *                     fills v  | slot's triangle finished its last EXEC)
 *                          [ TRAM ]  (units/gr3d/tram.h)
 *
 * Setup waits (stall "window") when the next slot of the ring still holds a
 * triangle whose quads are in flight; the wiring (units/gpu.c) names setup
 * the TRAM's waiter and the producer of the raster port, so the slot's
 * release and the rasterizer's take wake it.
 *
 * With two GR3D blocks (Tegra 3, docs/tegra-units.md "Tegra 3: two blocks")
 * setup hands each triangle to the block(s) whose swaths its box touches,
 * each block with its own TRAM ring and rasterizer; a triangle over both
 * blocks' swaths goes to both, as soon as each can take it. */
#ifndef ULP_UNITS_SETUP_H
#define ULP_UNITS_SETUP_H

#include "units/gr3d/gr3d_fp.h"
#include "units/geom/prim.h"

enum setup_cull { SETUP_CULL_NONE, SETUP_CULL_FRONT, SETUP_CULL_BACK };

typedef struct setup_state {
	double vp_scale[3], vp_translate[3];
	uint8_t pos_reg;
	unsigned ntram;                           /* TRAM rows per triangle (0: none) */
	uint8_t tram_reg[GR3D_TRAM_ROWS];         /* row -> o register (0xFF: 0,0,0,1) */
	uint8_t tram_reg_back[GR3D_TRAM_ROWS];    /* on back faces with two_side (0xFF: tram_reg) */
	uint8_t cull;                             /* enum setup_cull */
	bool front_ccw, two_side;
	bool scissor;                             /* keep sx0 <= x < sx1, sy0 <= y < sy1 */
	int sx0, sy0, sx1, sy1;
	uint16_t tri_cycles;                      /* setup.cycles_per_triangle */
} setup_state;

enum { SETUP_MAX_BLOCKS = 2 };

enum setup_counter { SETUP_CTR_IN, SETUP_CTR_CULLED, SETUP_CTR_EMPTY, SETUP_CTR_OUT,
                     SETUP_CTR_TRAM_WAITS, SETUP_CTR_COUNT };

typedef struct setup_unit {
	sim_unit u;                   /* first: the clock's view */
	sim_port *in;
	const setup_state *st;
	gr3d_tram *tram[SETUP_MAX_BLOCKS];   /* per block: its TRAM ring */
	sim_port *out[SETUP_MAX_BLOCKS];     /* per block: the port to its rasterizer */
	unsigned nblocks, swath_shift;
	uint32_t width, height;       /* the render target */
	enum ulp_round fp20_round;    /* TRAM words */
	bool exact;                   /* arith=exact: TRAM words are binary32 (tram.h f32_words) */
	unsigned pending;             /* blocks still to hand the triangle in hand to */
	bool have, waited;
	raster_tri rt;
	uint32_t rows[3][GR3D_TRAM_ROWS][4];
	uint64_t first_out;           /* cycle of the first triangle handed on (UINT64_MAX: none) */
} setup_unit;

extern const sim_counter_def SETUP_COUNTERS[SETUP_CTR_COUNT];

/* TRAM slots for ntram rows per triangle: 64 / rows (tegra-fp.md §5). */
unsigned setup_tram_slots(unsigned ntram);

/* fp: the GR3D block setup fills the TRAM ring of and feeds. */
void setup_init(setup_unit *s, const setup_state *st, sim_port *in, gr3d_fp *fp);
/* The o registers setup reads: the position and the linked ones. */
uint16_t setup_live_regs(const setup_state *st);

/* A second GR3D block (its gr3d_fp_set_block done): triangles go to the
 * blocks whose swaths of 1 << swath_shift rows they touch. */
void setup_add_block(setup_unit *s, gr3d_fp *fp, unsigned swath_shift);

static inline bool setup_idle(const setup_unit *s) { return !s->have && sim_port_empty(s->in); }

#endif
