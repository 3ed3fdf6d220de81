/* Gallium state as the session's commands (frontends/gallium/ulpsim_state.c,
 * docs/gl.md "What each pipe call turns into"), and the driver's way of
 * adding a shader: Mesa-free, so that the Criterion suite and the fuzz
 * target fuzz_gl_state (docs/robustness.md) run the driver's own
 * translation.  Each *_cmd returns a new cJSON object of the trace format
 * (docs/trace-format.md; NULL when out of memory) for
 * replay_session_command.  Numbers that are Gallium enums keep Gallium's
 * values (mirrored in gl_tables.h, which names them); an unknown value
 * gets the name gl_tables.h gives it. */
#ifndef ULP_TRACES_GL_STATE_H
#define ULP_TRACES_GL_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "traces/gl/gl_prims.h"
#include "traces/replay/capture.h"
#include "traces/replay/session.h"

struct cJSON;

/* render target 0's blend state and the blend colour */
typedef struct ulp_gl_blend {
	bool enable;
	unsigned rgb_func, alpha_func;           /* PIPE_BLEND_* */
	unsigned rgb_src, rgb_dst, alpha_src, alpha_dst;   /* PIPE_BLENDFACTOR_* */
	unsigned colormask;                      /* PIPE_MASK_RGBA bits */
	float color[4];                          /* clamped to 0..1 */
} ulp_gl_blend;

typedef struct ulp_gl_stencil {
	bool enabled;
	unsigned func;                           /* PIPE_FUNC_* */
	unsigned ref, valuemask, writemask;
	unsigned fail_op, zfail_op, zpass_op;    /* PIPE_STENCIL_OP_* (the wrapping ones saturate) */
} ulp_gl_stencil;

typedef struct ulp_gl_dsa {
	bool depth_enabled, depth_writemask;
	unsigned depth_func;                     /* PIPE_FUNC_* */
	ulp_gl_stencil stencil[2];               /* front, back (back: two-sided stencil) */
} ulp_gl_dsa;

typedef struct ulp_gl_rast {
	unsigned cull_face;                      /* PIPE_FACE_* */
	bool front_ccw;                          /* Gallium's (window y down) */
	bool scissor, flatshade, two_side;
	unsigned clip_plane_enable;
} ulp_gl_rast;

typedef struct ulp_gl_sampler {
	unsigned min_filter, mag_filter;         /* PIPE_TEX_FILTER_* */
	unsigned mip_filter;                     /* PIPE_TEX_MIPFILTER_* */
	unsigned wrap_s, wrap_t;                 /* PIPE_TEX_WRAP_* */
	bool compare;                            /* PIPE_TEX_COMPARE_R_TO_TEXTURE */
	unsigned compare_func;                   /* PIPE_FUNC_* */
	float lod_bias;                          /* clamped to -16..16 */
} ulp_gl_sampler;

struct cJSON *ulp_gl_blend_cmd(const ulp_gl_blend *b);
/* zs: a depth/stencil buffer is bound (without one both tests pass) */
struct cJSON *ulp_gl_dsa_cmd(const ulp_gl_dsa *s, bool zs);
/* wide: the draw's points or lines (never culled: their quads' winding is the GS's) */
struct cJSON *ulp_gl_rast_cmd(const ulp_gl_rast *r, bool wide);
struct cJSON *ulp_gl_sampler_cmd(unsigned index, const ulp_gl_sampler *s);

/* A shader as the driver's create_vs/create_fs adds it: TGSI text (as
 * tgsi_dump prints it) added as shader id and compiled as at link time;
 * a vertex shader that writes colours gets its clamped variant "<id>c"
 * (ulp_gl_clamped_colors).  Each shader added goes to cap too (NULL:
 * none). */
typedef struct ulp_gl_shader_info {
	bool valid;                              /* the hardware can run it (else d says why) */
	bool has_clamped;                        /* "<id>c" was added */
	unsigned nconst;                         /* vec4 constants of CONST[0] it declares */
	unsigned loop_bound;                     /* fragment: replay_session_loop_bound */
	bool loop_limited;                       /* loop_bound below the compiler's cap: no more fit */
} ulp_gl_shader_info;
ulp_gl_shader_info ulp_gl_shader_create(replay_session *s, replay_capture *cap, const char *id, bool vertex,
                                        const char *text, ulp_diag *d);

/* A shader (TGSI text) added to s as id, and to cap (NULL: none) when it
 * is; false with d. */
bool ulp_gl_add_shader(replay_session *s, replay_capture *cap, const char *id, enum trace_stage stage,
                       const char *text, ulp_diag *d);

/* The geometry shader gs_id expanding points or lines into quads as e asks
 * (gl_prims.h; e's vertex-shader outputs from replay_session_vs_outputs),
 * added to s (and cap): false with d. */
bool ulp_gl_wide_gs(replay_session *s, replay_capture *cap, const ulp_gl_expand *e, const char *gs_id,
                    ulp_diag *d);

#endif
