/* A test rig for the GR3D fragment units: a corpus program drawn on two
 * triangles whose edges cut quads (partial quads, one of them clockwise),
 * and every corpus program decoded in turn.  Shared by
 * tests/units/test_ahead.c, test_chain.c and test_tegra_units.c. */
#ifndef ULP_TESTS_GR3D_RIG_H
#define ULP_TESTS_GR3D_RIG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/image.h"
#include "isa/tegra/fp_words.h"
#include "sim/core/timeline.h"
#include "units/gr3d/gr3d_fp.h"

typedef struct gr3d_rig_out {
	ulp_image *rt;                /* 42x32, filled before the draw */
	gr3d_stats st;
	bool ahead;                   /* the draw took the ahead path (sim.gr3d_ahead) */
	bool chain;                   /* ... and the computed stage chain (sim.gr3d_chain) */
} gr3d_rig_out;

/* Draws dec (its constants consts) under cfg, sampling tex, into o->rt;
 * with a timeline when tl is not NULL.  Asserts that the draw ran. */
void gr3d_rig_draw(const tegra_fp_decoded *dec, const uint32_t consts[32], const ulp_config *cfg,
                   const ulp_image *tex, sim_timeline *tl, gr3d_rig_out *o);

/* Asserts that two draws computed the same: image, cycles, pixels, every
 * unit's stats and idle cycles, the middle ports' marks (st.mid_marks). */
void gr3d_rig_same(const gr3d_rig_out *a, const gr3d_rig_out *b, const char *what);

/* Draws dec under off and under on (no timeline) into *a and *b, asserts
 * that they computed the same (what: the program and setting), and frees
 * their images (a->rt, b->rt NULL; the path flags of the plain triangles
 * stay): on six small triangles stacked over the same 6x6 pixels (a
 * destination fetch meets the quads before it in flight), then on the
 * rig's two. */
void gr3d_rig_alike(const tegra_fp_decoded *dec, const uint32_t consts[32], const ulp_config *off,
                    const ulp_config *on, const ulp_image *tex, const char *what, gr3d_rig_out *a,
                    gr3d_rig_out *b);

/* Calls fn for every corpus fragment program (the .words files under tegra/, sorted) that
 * decodes; returns how many did. */
typedef void gr3d_rig_program_fn(void *ctx, const char *path, const tegra_fp_program *fp,
                                 const tegra_fp_decoded *dec);
unsigned gr3d_rig_each_program(gr3d_rig_program_fn *fn, void *ctx);

/* Two triangles covering a 16x16 target pushed into f's input, then f's
 * units (those the chain leaves on the clock) and ports run on a new clock
 * until they drain; *st: gr3d_fp_finish's figures.  For gr3d_fp_reset's
 * tests: a second run after the reset must give the first one's. */
void gr3d_rig_fp_run(gr3d_fp *f, gr3d_stats *st);
/* The fragment half for gr3d_rig_fp_run: dec under cfg into a new 16x16
 * target 1 (dr holds the draw; the caller frees f, then dr->rt[1]). */
gr3d_fp *gr3d_rig_fp_new(const tegra_fp_decoded *dec, const ulp_config *cfg, gr3d_draw *dr);

/* A's figures again in b (a second run after gr3d_fp_reset): cycles, quads,
 * every unit's stats, the middle ports' marks. */
void gr3d_rig_stats_same(const gr3d_stats *a, const gr3d_stats *b);

/* Assembles and decodes a Tegra program's text (asserts that it does). */
void gr3d_rig_assemble(const char *text, tegra_fp_program *fp, tegra_fp_decoded *dec);

/* A 16x8 texture of pseudo-random texels (the caller frees it). */
ulp_image *gr3d_rig_texture(void);

#endif
