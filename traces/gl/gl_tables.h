/* The Gallium driver's translation tables, Mesa-free (docs/gl.md "Caps and
 * why", "Formats"): which formats ulpsim models and what each is to the
 * trace format, and Gallium's state enums as the trace format's names
 * (docs/trace-format.md).  The driver (frontends/gallium) keys the formats
 * by Gallium's name (util_format_name without "PIPE_FORMAT_") and passes
 * its enums' values, which this header mirrors from Mesa 22.3.6's
 * p_defines.h; the driver checks each mirrored value against Mesa's with a
 * static assertion (ulpsim_screen.c), so a Mesa that renumbers them does
 * not build.  The Criterion suite tests every entry against the replay
 * session's parser. */
#ifndef ULP_TRACES_GL_TABLES_H
#define ULP_TRACES_GL_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/pica/pica_isa.h"
#include "traces/trace.h"

/* The shader limits the caps say (docs/gl.md "Caps and why").
 * PICA200: v0-v15 inputs, o0-o15 outputs, c0-c95 float uniforms, r0-r15
 * temporaries, 512 instructions of code; IF stack 8 deep
 * (../shared/reference/pica200.md §1.1, §1.4, "512 instructions").
 * Tegra GR3D: an MFU varying names TRAM row 0..15 (4 bits), TEX a sampler
 * 0..15, a program has at most 64 EXECs of one TEX and one ALU packet of 4
 * instructions each (tegra-fp.md §2.4, §2; the compiler's TFP_MAX_EXEC).
 * 32 FP_CONST slots of 20 bits: 16 vec4 declared (the GLES 2.0 minimum)
 * and the compiler refuses a program that reads more than 32 components
 * (frontends/tegra/tegra_compile.h).  Textures: TRACE_TEX_LEVELS. */
enum {
	ULP_GL_VS_INPUTS = 16, ULP_GL_VS_OUTPUTS = 16, ULP_GL_VS_CONSTS = PICA_NUM_C, ULP_GL_VS_TEMPS = 16,
	ULP_GL_VS_INSTRUCTIONS = 512, ULP_GL_VS_CF_DEPTH = 8,
	ULP_GL_FS_INPUTS = 16, ULP_GL_FS_SAMPLERS = 16, ULP_GL_FS_EXECS = 64, ULP_GL_FS_ALU = ULP_GL_FS_EXECS * 4,
	ULP_GL_FS_CONSTS = 16, ULP_GL_FS_TEMPS = 16, ULP_GL_FS_CF_DEPTH = 32,
};

/* Gallium's values (p_defines.h, Mesa 22.3.6) */
enum {
	ULP_GL_BLENDFACTOR_ONE = 1, ULP_GL_BLENDFACTOR_SRC_COLOR, ULP_GL_BLENDFACTOR_SRC_ALPHA,
	ULP_GL_BLENDFACTOR_DST_ALPHA, ULP_GL_BLENDFACTOR_DST_COLOR, ULP_GL_BLENDFACTOR_SRC_ALPHA_SATURATE,
	ULP_GL_BLENDFACTOR_CONST_COLOR, ULP_GL_BLENDFACTOR_CONST_ALPHA, ULP_GL_BLENDFACTOR_SRC1_COLOR,
	ULP_GL_BLENDFACTOR_SRC1_ALPHA,
	ULP_GL_BLENDFACTOR_ZERO = 0x11, ULP_GL_BLENDFACTOR_INV_SRC_COLOR, ULP_GL_BLENDFACTOR_INV_SRC_ALPHA,
	ULP_GL_BLENDFACTOR_INV_DST_ALPHA, ULP_GL_BLENDFACTOR_INV_DST_COLOR,
	ULP_GL_BLENDFACTOR_INV_CONST_COLOR = 0x17, ULP_GL_BLENDFACTOR_INV_CONST_ALPHA,
	ULP_GL_BLENDFACTOR_INV_SRC1_COLOR, ULP_GL_BLENDFACTOR_INV_SRC1_ALPHA,
};
enum { ULP_GL_BLEND_ADD, ULP_GL_BLEND_SUBTRACT, ULP_GL_BLEND_REVERSE_SUBTRACT, ULP_GL_BLEND_MIN, ULP_GL_BLEND_MAX };
enum { ULP_GL_FUNC_NEVER, ULP_GL_FUNC_LESS, ULP_GL_FUNC_EQUAL, ULP_GL_FUNC_LEQUAL, ULP_GL_FUNC_GREATER,
       ULP_GL_FUNC_NOTEQUAL, ULP_GL_FUNC_GEQUAL, ULP_GL_FUNC_ALWAYS };
enum { ULP_GL_STENCIL_OP_KEEP, ULP_GL_STENCIL_OP_ZERO, ULP_GL_STENCIL_OP_REPLACE, ULP_GL_STENCIL_OP_INCR,
       ULP_GL_STENCIL_OP_DECR, ULP_GL_STENCIL_OP_INCR_WRAP, ULP_GL_STENCIL_OP_DECR_WRAP, ULP_GL_STENCIL_OP_INVERT };
enum { ULP_GL_FACE_NONE, ULP_GL_FACE_FRONT, ULP_GL_FACE_BACK, ULP_GL_FACE_FRONT_AND_BACK };
enum { ULP_GL_TEX_WRAP_REPEAT, ULP_GL_TEX_WRAP_CLAMP, ULP_GL_TEX_WRAP_CLAMP_TO_EDGE, ULP_GL_TEX_WRAP_CLAMP_TO_BORDER,
       ULP_GL_TEX_WRAP_MIRROR_REPEAT, ULP_GL_TEX_WRAP_MIRROR_CLAMP, ULP_GL_TEX_WRAP_MIRROR_CLAMP_TO_EDGE,
       ULP_GL_TEX_WRAP_MIRROR_CLAMP_TO_BORDER };
enum { ULP_GL_TEX_MIPFILTER_NEAREST, ULP_GL_TEX_MIPFILTER_LINEAR, ULP_GL_TEX_MIPFILTER_NONE };
enum { ULP_GL_TEX_FILTER_NEAREST, ULP_GL_TEX_FILTER_LINEAR };
enum { ULP_GL_BIND_DEPTH_STENCIL = 1 << 0, ULP_GL_BIND_RENDER_TARGET = 1 << 1, ULP_GL_BIND_SAMPLER_VIEW = 1 << 3 };

/* A format ulpsim models. */
typedef struct ulp_gl_format {
	const char *name;          /* Gallium's, without "PIPE_FORMAT_" */
	int tex;                   /* enum trace_texfmt a sampler view reads it as, -1: none */
	const char *rt;            /* the trace's colour buffer format, NULL: not a render target */
	const char *zs;            /* the trace's depth/stencil format, NULL: not one */
	bool no_alpha;             /* an X8 format stored as its A8 twin: alpha reads as 1 */
	bool z24_as_d16;           /* sampled as D16: the depth's top 16 bits (docs/gl.md "Formats") */
} ulp_gl_format;

/* The format named name, NULL: not modelled. */
const ulp_gl_format *ulp_gl_format_named(const char *name);
/* The k-th modelled format, NULL past the last (the caps advertise these). */
const ulp_gl_format *ulp_gl_format_at(size_t k);
/* Whether f can be bound as bind (ULP_GL_BIND_* bits; others: no
 * constraint here). */
bool ulp_gl_format_binds(const ulp_gl_format *f, unsigned bind);
/* A vertex buffer format the vertex fetch reads (its trace name), NULL:
 * Mesa converts it first (u_vbuf). */
const char *ulp_gl_vertex_format(const char *name);

/* Gallium's state enums as the trace format's names; an unknown value
 * gives the fallback said. */
const char *ulp_gl_blend_factor(unsigned f);   /* the dual-source factors (the caps say none): "zero" */
const char *ulp_gl_blend_func(unsigned f);     /* unknown: "add" */
const char *ulp_gl_compare_func(unsigned f);   /* the low 3 bits */
const char *ulp_gl_stencil_op(unsigned op);    /* the wrapping ops as the saturating ones (no wrap in the ZS unit) */
const char *ulp_gl_cull(unsigned face, bool wide);   /* points and lines (wide): never culled */
const char *ulp_gl_wrap(unsigned wrap);        /* the clamps and mirror clamps: "clamp" */
const char *ulp_gl_mip_filter(unsigned f);     /* unknown: "none" */
const char *ulp_gl_filter(unsigned f);

#endif
