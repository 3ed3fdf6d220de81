/* TGSI text the Gallium driver reads or rewrites before handing a shader
 * to the session (frontends/gallium/ulpsim_context.c, docs/gl.md "What each
 * pipe call turns into"); the text is tgsi_dump's.  Mesa-free, tested by
 * the Criterion suite. */
#ifndef ULP_TRACES_GL_SHADER_TEXT_H
#define ULP_TRACES_GL_SHADER_TEXT_H

/* The vec4 constants of CONST[0] a shader declares: the largest index of a
 * "DCL CONST[0][a..b]" (or "DCL CONST[a..b]", "[a]") line + 1; 0 for none.
 * The driver sends that many of the constant buffer (the compiler puts its
 * immediates after them). */
unsigned ulp_gl_declared_consts(const char *text);

/* The vertex shader with its colour outputs saturated (the rasterizer's
 * clamp_vertex_color: the caps offer no unclamped vertex colours, so GL
 * expects them clamped): every instruction writing an OUT declared COLOR or
 * BCOLOR gets _SAT (once).  NULL when it writes no colour (or out of
 * memory).  Free it. */
char *ulp_gl_clamped_colors(const char *text);

#endif
