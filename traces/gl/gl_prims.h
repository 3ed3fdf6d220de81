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
 * from a to b). */
#ifndef ULP_TRACES_GL_PRIMS_H
#define ULP_TRACES_GL_PRIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

enum ulp_gl_wide { ULP_GL_POINTS, ULP_GL_LINES };
/* ORDER: the line primitives a draw can have */
enum ulp_gl_line_mode { ULP_GL_LINE_LIST, ULP_GL_LINE_STRIP, ULP_GL_LINE_LOOP };

/* The TGSI text of the geometry shader that expands `what` after a vertex
 * shader whose output registers are mask/sem/index
 * (replay_session_vs_outputs).  Its constants: ulp_gl_expand_consts.
 * NULL with d when the vertex shader writes no position, or (lines) its
 * outputs do not fit three vertices in the 16 GS inputs.  Free it. */
char *ulp_gl_expand_gs(enum ulp_gl_wide what, uint16_t mask, const int16_t sem[16], const uint32_t index[16],
                       ulp_diag *d);

/* CONST[0][0..1] of that shader (8 floats): the half size in NDC units
 * (size/2 pixels over the viewport's half extent |scale|), then the
 * viewport's |scale| (pixels per NDC unit). */
void ulp_gl_expand_consts(float size, const float vp_scale[2], float out[8]);

/* Segment k of a line primitive of count vertices: its two vertices
 * (draw-order positions); false past the last. */
bool ulp_gl_line_segment(enum ulp_gl_line_mode m, unsigned count, unsigned k, unsigned *a, unsigned *b);

#endif
