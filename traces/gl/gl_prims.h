/* Points and lines on a pipeline that rasterizes triangles only
 * (docs/gl.md "Points and lines"): the Gallium driver expands each point
 * and each line segment into a screen-aligned quad with the PICA200's
 * geometry shader unit, as 3DS software does on this hardware (the setup
 * and rasterizer take triangles: units/geom/setup.c; the GS unit runs in
 * point mode, a fixed number of vertices per primitive:
 * traces/replay/replay_gs.c).  Mesa-free, tested by the Criterion suite.
 *
 *   points: a draw of mode "points"; the GS reads one vertex and emits a
 *           strip of 4 at the centre +- (size/2 pixels) in x and y;
 *   lines:  every segment (a, b) of a list, strip or loop as the triangle
 *           (a, b, b) of a "triangles" draw (the GS input buffer takes 1 or
 *           3 vertices); the GS emits a strip of 4, a and b each moved
 *           +- width/2 pixels across the line's minor axis (GL's rule for
 *           aliased wide lines: x-major lines are widened in y).
 * The varyings of each corner are its vertex's (a line interpolates them
 * from a to b).  A point's size may come from each vertex (PSIZE), and the
 * point sprite coordinates (0..1 across the quad) replace the generic
 * varyings Gallium's sprite_coord_enable names.
 *
 * The GS has only o0-o6 (pica200.md §1.1: "o7-o15 exist only in the VS.
 * The outmap has only 7 slots"), the VS o0-o15: the GS passes on the
 * position and the outputs the bound fragment shader reads (the clip
 * vertex when user clip planes are on, the back colours for two-sided
 * colour), at most 6; the VS's other outputs are read and dropped. */
#ifndef ULP_TRACES_GL_PRIMS_H
#define ULP_TRACES_GL_PRIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

enum ulp_gl_wide { ULP_GL_POINTS, ULP_GL_LINES };
/* The largest point size and line width the driver offers (pixels): its
 * choice, not a hardware limit (any size the clipper takes). */
enum { ULP_GL_WIDE_MAX = 64 };
/* ORDER: the line primitives a draw can have */
enum ulp_gl_line_mode { ULP_GL_LINE_LIST, ULP_GL_LINE_STRIP, ULP_GL_LINE_LOOP };

/* A shader's inputs (or outputs) by register: TGSI semantic (-1: none) and
 * index. */
typedef struct ulp_gl_io {
	unsigned n;
	int16_t sem[16];
	uint32_t index[16];
} ulp_gl_io;

/* The declared inputs of a TGSI shader's text (a fragment shader's: what
 * the expanding GS must pass on).  False when the text does not parse. */
bool ulp_gl_shader_inputs(const char *text, ulp_gl_io *in);

/* What the expanding geometry shader is made for. */
typedef struct ulp_gl_expand {
	enum ulp_gl_wide what;
	/* the vertex shader's output registers (replay_session_vs_outputs) */
	uint16_t mask;
	int16_t sem[16];
	uint32_t index[16];
	/* the fragment shader's inputs: only the outputs it reads are passed on
	 * (the GS has 7 output registers); NULL: every output */
	const ulp_gl_io *fs;
	bool clip;          /* user clip planes on: the clip vertex is passed on */
	bool two_side;      /* two-sided colour: the back colours are passed on */
	bool psize;         /* points: each point's size is the VS's PSIZE output (clamped) */
	uint32_t sprite;    /* points: GENERIC[i] (bit i) are the point sprite coordinates */
} ulp_gl_expand;

/* The vertex shader output registers the GS passes on (the position
 * always; a sprite coordinate replaces the VS's GENERIC of that index). */
uint16_t ulp_gl_expand_keep(const ulp_gl_expand *e);

/* A name for the GS e gives (two with the same name have the same text):
 * "p" or "l", the kept registers, the sprite coordinates, "s" for
 * per-vertex sizes. */
void ulp_gl_expand_key(const ulp_gl_expand *e, char *buf, size_t n);

/* The TGSI text of the geometry shader that expands e.what after the
 * vertex shader (its constants: ulp_gl_expand_consts).  NULL with d when
 * the vertex shader writes no position, its outputs of 3 vertices do not
 * fit the 16 GS inputs (lines), or the outputs to pass on do not fit the
 * GS's 7 output registers.  Free it. */
char *ulp_gl_expand_gs(const ulp_gl_expand *e, ulp_diag *d);

/* The fixed-function state the GS's constants come from. */
typedef struct ulp_gl_expand_state {
	float size;               /* the rasterizer's point size or line width, in pixels */
	float vp_scale[2];        /* the viewport's scale (pixels per NDC unit, signed) */
	float size_min, size_max; /* per-vertex point sizes are clamped to these */
	bool sprite_upper_left;   /* Gallium's sprite_coord_mode: t = 0 at the top row (smallest window y) */
} ulp_gl_expand_state;

enum { ULP_GL_EXPAND_CONSTS = 5 };   /* vec4s of CONST[0] */

/* CONST[0][0..4] of that shader (20 floats): [0] the half size in NDC
 * units (size/2 pixels over |scale|), [1] |scale|, [2] 0.5 pixel in NDC
 * units (times a per-vertex size), [3] the size range, [4] the sprite
 * coordinates at the corners: s at -x, s at +x, t at -y, t at +y (NDC). */
void ulp_gl_expand_consts(const ulp_gl_expand_state *st, float out[4 * ULP_GL_EXPAND_CONSTS]);

/* Segment k of a line primitive of count vertices: its two vertices
 * (draw-order positions); false past the last. */
bool ulp_gl_line_segment(enum ulp_gl_line_mode m, unsigned count, unsigned k, unsigned *a, unsigned *b);

#endif
