/* TRAM: the GR3D block's triangle RAM, a resource three units share
 * (docs/tegra-units.md "TRAM"):
 *
 *   setup --fills a slot--> [ TRAM slots ] <--reads-- MFU (ipl), TEX
 *                              holds: raster (the walk, each quad it emits)
 *                              releases: raster (walk done), PSEQ (quad done)
 *
 * A slot holds one triangle's rows: per row, per component, per vertex a
 * raw 20-bit word (FP20, or an FX10 pair when the linker packs fx10 lo/hi).
 * 64 rows in all, so 64 / rows-per-triangle slots (tegra-fp.md §5:
 * NUM_TRIS).
 *
 * When triangles stream through a ring of slots (the one-clock GPU,
 * units/gpu.h) each slot counts its holds: the quads of its triangle still
 * in flight plus one while setup/the rasterizer hold it.  When the count
 * drops to 0 the slot is free and the waiter (setup) is woken.  A TRAM that
 * gives every triangle of a draw its own slot (gr3d_fp_draw) counts
 * nothing: its users get NULL for it. */
#ifndef ULP_UNITS_TRAM_H
#define ULP_UNITS_TRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/core/unit.h"

enum {
	GR3D_TRAM_ROWS = 16,      /* ipl tN: N = 0..15 */
	GR3D_MAX_TRIS = 64,       /* TRAM holds 64 rows (tegra-fp.md §5) */
};

typedef struct gr3d_tram_tri {
	uint32_t v[GR3D_TRAM_ROWS][4][3];
	float f[GR3D_TRAM_ROWS][4][3];        /* v decoded as FP20 (gr3d_tram_load) */
	float fx[GR3D_TRAM_ROWS][4][2][3];    /* v decoded as FX10 .l / .h (gr3d_tram_load) */
} gr3d_tram_tri;

typedef struct gr3d_tram {
	gr3d_tram_tri *tri;           /* nslots entries */
	unsigned nslots;
	unsigned next;                /* the ring: the slot gr3d_tram_fill fills next */
	uint16_t refs[GR3D_MAX_TRIS]; /* the ring: holds per slot */
	sim_unit *waiter;             /* woken when a slot's holds drop to 0 (setup); may be NULL */
	bool f32_words;               /* arith=exact, setup's rows: binary32 words, not FP20 (docs/exact.md) */
	/* the rows gr3d_tram_fill loads (init: all): setup's linked rows, whose
	 * words are the only non-zero ones; the rest keep init's zeros */
	unsigned fill_rows;
} gr3d_tram;

/* nslots: 1..GR3D_MAX_TRIS.  False when out of memory. */
bool gr3d_tram_init(gr3d_tram *t, unsigned nslots);
/* Every slot free, the ring from slot 0 (the rows stay as loaded). */
void gr3d_tram_reset(gr3d_tram *t);
void gr3d_tram_fini(gr3d_tram *t);

/* Loads slot `slot` from three vertices' rows (raw 20-bit words). */
void gr3d_tram_load(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4]);

/* gr3d_tram_load word by word: the rule its FP20 path (twelve words at a
 * time) is tested against. */
void gr3d_tram_load_rule(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4]);

/* The ring: may setup fill the next slot (no quad of its last triangle is
 * still in flight)? */
static inline bool gr3d_tram_next_free(const gr3d_tram *t) { return t->refs[t->next] == 0; }

/* The ring: loads the next slot (gr3d_tram_next_free) with one hold, the
 * rasterizer's walk, and returns it. */
unsigned gr3d_tram_fill(gr3d_tram *t, const uint32_t (*const v[3])[4]);

/* One more hold on slot (the rasterizer, per quad it emits). */
static inline void gr3d_tram_hold(gr3d_tram *t, unsigned slot) { t->refs[slot]++; }

/* A hold on slot ends (the walk, or a quad that finished); the last one
 * frees the slot and wakes the waiter as soon as the clock can (and the
 * waiter takes wakes). */
static inline void gr3d_tram_release(gr3d_tram *t, unsigned slot)
{
	if (--t->refs[slot] == 0 && t->waiter)
		sim_unit_wake(t->waiter, t->waiter->wake_floor);
}

#endif
