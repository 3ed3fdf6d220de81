/* ZS: the early depth/stencil unit of the Tegra GR3D fragment pipeline
 * (docs/tegra-units.md "ZS").  It sits between the rasterizer and PSEQ:
 *
 *   raster --(gr3d_quad_in)--> ZS --(gr3d_quad_in, survivors)--> PSEQ
 *
 * and tests every covered pixel of a quad against the depth/stencil surface
 * ("early-Z rejects 4 px/clk", tegra-fp.md §5; knob zs.pixels_per_clock).
 * When the program can kill pixels (QR_OUTPUT_TO_SHADER 0x40f = 0x60,
 * tegra-fp.md §2.5) the writes move after the shader: ZS only rejects what
 * is safe to reject and DW tests again and writes for the pixels it stores
 * (zs_late_store).  The surface is kept bottom row first, as the colour
 * targets are. */
#ifndef ULP_UNITS_ZS_H
#define ULP_UNITS_ZS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/timeline.h"
#include "sim/core/unit.h"
#include "units/gr3d/gr3d_quad.h"
#include "units/gr3d/tram.h"

/* ---- the depth/stencil surface ---------------------------------------- */

enum zs_format { ZS_D16, ZS_D24S8 };

typedef struct zs_surface {
	uint32_t width, height;
	uint8_t format;               /* enum zs_format */
	uint32_t *depth;              /* width*height unorm codes (16 or 24 bits), bottom row first */
	uint8_t *stencil;             /* width*height (D24S8; NULL for D16) */
} zs_surface;

zs_surface *zs_surface_create(uint32_t w, uint32_t h, enum zs_format f, ulp_diag *d);
void zs_surface_free(zs_surface *s);
/* Clears depth (0..1, as a unorm code of the format) and/or stencil. */
void zs_surface_clear(zs_surface *s, bool depth, double z, bool stencil, uint8_t sval);
static inline uint32_t zs_depth_max(const zs_surface *s) { return s->format == ZS_D16 ? 0xFFFFu : 0xFFFFFFu; }
/* The depth at (x, y) (bottom row first) as a value in 0..1. */
double zs_surface_depth(const zs_surface *s, uint32_t x, uint32_t y);
/* z in 0..1 (clamped) as the format's unorm code, rounded to nearest. */
uint32_t zs_quantize(const zs_surface *s, double z);

/* ---- state (decoded from the GR3D registers: units/gr3d/gr3d_regs.h) --------- */

/* Compare functions and stencil ops in the order the registers encode them
 * (GL's order; docs/registers.md). */
enum zs_func { ZS_NEVER, ZS_LESS, ZS_EQUAL, ZS_LEQUAL, ZS_GREATER, ZS_NOTEQUAL, ZS_GEQUAL, ZS_ALWAYS };
enum zs_op { ZS_KEEP, ZS_ZERO, ZS_REPLACE, ZS_INCR, ZS_DECR, ZS_INVERT, ZS_INCR_WRAP, ZS_DECR_WRAP };

typedef struct zs_face {
	uint8_t func, ref, valuemask, writemask;
	uint8_t fail_op, zfail_op, zpass_op;
} zs_face;

typedef struct zs_state {
	bool z_enable, z_write;
	uint8_t z_func;
	uint32_t z_min, z_max;        /* QR_Z_MIN/MAX: 20-bit unorm depth-range clamp */
	bool s_enable;
	zs_face face[2];              /* [0] front, [1] back */
	bool late;                    /* the program can kill: writes happen in DW */
	bool depth_surface;           /* RT_ENABLE bit 16: the depth surface is written */
} zs_state;

static inline bool zs_active(const zs_state *st) { return st->z_enable || st->s_enable; }

bool zs_compare(enum zs_func f, uint32_t a, uint32_t b);     /* a func b */
uint8_t zs_stencil_op(enum zs_op op, uint8_t old, uint8_t ref);

/* The whole test for one pixel with z a unorm code: returns pass, updates
 * the surface when write is set (depth and stencil as the state says). */
bool zs_pixel(const zs_state *st, zs_surface *s, uint32_t x, uint32_t y, uint32_t z, bool front,
              bool write);

/* The depth test of quad in's covered pixels on surface s without stencil
 * (st->s_enable off, or s without stencil), each as zs_pixel with write set
 * unless st->late (the early test of a late quad writes nothing): the
 * pixels that fail leave in->mask, code[k] is covered pixel k's unorm code
 * (zs_pixel_z), *rejected the pixels that failed.  Returns the pixels
 * tested. */
unsigned zs_quad_depth(const zs_state *st, zs_surface *s, gr3d_quad_in *in, uint32_t code[GR3D_PIXELS],
                       unsigned *rejected);

/* The pixel's z in 0..1, clamped by QR_Z_MIN/MAX, as a unorm code. */
uint32_t zs_pixel_z(const zs_state *st, const zs_surface *s, double z);

/* ---- late writes: what ZS hands DW for the quads it passes ------------- *
 *
 * A resource the two units share (gr3d_fp.c gives both the same zs_late):
 * ZS enters each quad it passes in late mode, DW tests and writes its
 * pixels as it stores them. */

enum { ZS_LATE_ENTRIES = 1024 };   /* a ring by quad id; must exceed the quads in flight */

typedef struct zs_late_entry {
	uint32_t id;
	uint32_t z[GR3D_PIXELS];      /* unorm codes */
	uint8_t resolved, passed;     /* bit k: pixel k tested in DW / passed there */
	uint8_t discarded;            /* bit k: the program killed pixel k in some EXEC */
	bool valid;
} zs_late_entry;

typedef struct zs_late {
	const zs_state *st;
	zs_surface *surf;
	zs_late_entry *ring;          /* ZS_LATE_ENTRIES */
	bool lost;                    /* DW found a quad's entry overwritten (the run stops) */
} zs_late;

/* The late writes of a draw with state st into surf.  False when out of
 * memory. */
bool zs_late_init(zs_late *l, const zs_state *st, zs_surface *surf);
/* No entry, nothing lost. */
void zs_late_reset(zs_late *l);
void zs_late_fini(zs_late *l);

/* ZS's side: quad id passed with pixel depths z (unorm codes). */
void zs_late_enter(zs_late *l, uint32_t id, const uint32_t z[GR3D_PIXELS]);

/* DW's side, every EXEC of a quad ZS passed in late mode:
 *   e = zs_late_entry_of(l, q)   NULL: the entry was overwritten (sets
 *                                l->lost; DW halts the run);
 *   zs_late_note_kills(e, q)     first: the pixels this EXEC killed;
 *   zs_late_resolve(l, e, q, p)  at a store of pixel p: the late test and
 *                                write, once per pixel; false: skip the store;
 *   zs_late_finish(l, e, q)      at the last EXEC: the pixels no store
 *                                resolved (a program without colour output). */
zs_late_entry *zs_late_entry_of(zs_late *l, const gr3d_quad *q);
void zs_late_note_kills(zs_late_entry *e, const gr3d_quad *q);
bool zs_late_resolve(zs_late *l, zs_late_entry *e, const gr3d_quad *q, unsigned p);
void zs_late_finish(zs_late *l, zs_late_entry *e, const gr3d_quad *q);

/* ---- the clocked unit ---------------------------------------------------- */

enum zs_counter { ZS_CTR_QUADS, ZS_CTR_PIXELS, ZS_CTR_REJECTED, ZS_CTR_QUADS_REJECTED,
                  ZS_CTR_DEFERRED, ZS_CTR_COUNT };
extern const sim_counter_def ZS_COUNTERS[ZS_CTR_COUNT];

struct sim_port;
typedef struct zs_unit {
	sim_unit u;                   /* first: the clock's view */
	const zs_state *st;
	zs_surface *surf;
	zs_late *late;                /* NULL unless st->late */
	struct sim_port *in, *out;
	gr3d_tram *tram;              /* a rejected quad's hold on its TRAM slot ends here (NULL: no ring) */
	unsigned px_per_clock;
	sim_hold hold;                /* cur, for the cycles its test takes */
	gr3d_quad_in cur;
	/* the depth range in 0..1 (zs.c, z_range) for QR_Z_MIN/MAX range_min,
	 * range_max, once range_set */
	double range_lo, range_hi;
	uint32_t range_min, range_max;
	bool range_set;
} zs_unit;

/* late may be NULL when st->late is false. */
void zs_init(zs_unit *z, const zs_state *st, zs_surface *surf, zs_late *late, unsigned px_per_clock,
             struct sim_port *in, struct sim_port *out);

#endif
