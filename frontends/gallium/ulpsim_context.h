/* The driver's pipe_context, inside (docs/gl.md "What each pipe call turns
 * into"): the CSOs and bound state, and the streaming replay session
 * (traces/replay/session.h) every draw goes through.
 *
 *   ulpsim_context.c  create/destroy, CSOs, state setters, queries, flush
 *   ulpsim_state.c    state -> session commands; buffers, textures and
 *                     render targets between pipe resources and the session
 *   ulpsim_draw.c     draw_vbo, clear, blit, resource_copy_region
 *
 * A draw is translated into the trace format's commands (framebuffer,
 * bind_shaders, constant_buffer, vertex_elements, sampler(_view), blend,
 * depth_stencil_alpha, rasterizer, clip, viewport, scissor, draw); the
 * session turns them into register writes and runs the draw on the
 * cycle-accurate GPU.  Render targets live in the pipe resources' host
 * memory: copied into the session's colour buffers before a draw when the
 * CPU wrote them since, and back after it. */
#ifndef ULP_GALLIUM_CONTEXT_H
#define ULP_GALLIUM_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "frontends/gallium/ulpsim_gallium.h"
#include "sim/core/config.h"
#include "traces/gl/gl_prims.h"
#include "traces/replay/capture.h"
#include "traces/replay/session.h"

struct cJSON;
struct ulp_gl_ctx;

enum {
	ULPSIM_UPLOADS = 96,       /* pipe resources the session holds a copy of */
	ULPSIM_SAMPLERS = 16,
	ULPSIM_VBUFS = 16,
	ULPSIM_NOTES = 32,         /* distinct messages said once */
};

/* What a draw's primitives are to the pipeline (ulpsim_draw.c): triangles,
 * or points and lines the PICA200's geometry shader expands into quads. */
enum { ULPSIM_WIDE_NONE, ULPSIM_WIDE_POINTS, ULPSIM_WIDE_LINES };

/* What changed since the last draw's commands. */
enum {
	ULPSIM_DIRTY_FB = 1u << 0,
	ULPSIM_DIRTY_SHADERS = 1u << 1,
	ULPSIM_DIRTY_BLEND = 1u << 2,
	ULPSIM_DIRTY_DSA = 1u << 3,
	ULPSIM_DIRTY_RAST = 1u << 4,
	ULPSIM_DIRTY_VIEWPORT = 1u << 5,
	ULPSIM_DIRTY_SCISSOR = 1u << 6,
	ULPSIM_DIRTY_CLIP = 1u << 7,
	ULPSIM_DIRTY_ALL = 0xFFu,
};

/* A vertex or fragment shader CSO: its TGSI text in the session. */
struct ulpsim_shader {
	enum pipe_shader_type stage;
	char id[24];               /* the session's shader id */
	bool valid;                /* the hardware can run it (else draws with it are skipped) */
	bool has_clamped;          /* "<id>c": its colour outputs saturated (clamp_vertex_color) */
	/* a vertex shader's geometry shaders expanding points and lines into
	 * quads (traces/gl/gl_prims.h): the session's id of the one made for
	 * the last such draw ("<id>.<ulp_gl_expand_key>", "" none), made again
	 * when the fragment shader's inputs or the rasterizer ask for another;
	 * 1 made, -1 refused (noted) */
	char wide_id[2][48];
	signed char wide_ok[2];
	bool has_inputs;           /* a fragment shader's declared inputs are known */
	ulp_gl_io inputs;
	unsigned nconst;           /* vec4 constants of CONST[0] it declares */
};

struct ulpsim_velems {
	unsigned n;
	struct pipe_vertex_element el[PIPE_MAX_ATTRIBS];
};

/* A pipe resource copied into the session (referenced while it is). */
struct ulpsim_upload {
	struct pipe_resource *res;
	uint64_t generation;       /* the resource's generation the copy has */
	unsigned first_level, last_level;
	uint64_t used;             /* the draw that last used it */
	char id[16];               /* the session's resource id: u<slot> */
};

struct ulpsim_context {
	struct pipe_context base;
	ulp_config cfg;
	replay_opts opts;
	replay_result res;
	replay_session *s;         /* NULL: the session could not be opened (draws are skipped) */
	replay_capture *cap;       /* ULPSIM_GL_CAPTURE: what the session is given, per frame (NULL: off) */
	bool cap_named;            /* its frames' names were decided (replay_capture_set_context) */
	struct ulp_gl_ctx *out;    /* its part of the run's stats and timeline (NULL: none asked) */
	uint64_t draws;            /* draw_vbo calls */
	double sim_seconds;        /* host time in the simulator */
	unsigned dirty;
	/* bound state */
	struct pipe_framebuffer_state fb;
	struct ulpsim_shader *vs, *fs;
	struct pipe_blend_state *blend;
	struct pipe_depth_stencil_alpha_state *dsa;
	struct pipe_rasterizer_state *rast;
	struct ulpsim_velems *velems;
	struct pipe_sampler_state *sampler[ULPSIM_SAMPLERS];
	struct pipe_sampler_view *view[ULPSIM_SAMPLERS];
	struct pipe_vertex_buffer vb[ULPSIM_VBUFS];
	unsigned nvb;
	struct pipe_constant_buffer cb[2];    /* CONST[0] of the vertex and the fragment shader */
	struct pipe_viewport_state viewport;
	struct pipe_scissor_state scissor;
	struct pipe_clip_state clip;
	struct pipe_stencil_ref stencil_ref;
	struct pipe_blend_color blend_color;
	unsigned shader_serial;
	int wide;                  /* the draw's points or lines: ULPSIM_WIDE_* (quads from the GS) */
	/* the session's copies */
	struct ulpsim_upload up[ULPSIM_UPLOADS];
	bool fb_ok;                /* the bound framebuffer is one the session models */
	uint64_t cbuf_gen[PIPE_MAX_COLOR_BUFS], zs_gen;   /* generations the session's buffers hold */
	bool cbuf_fresh[PIPE_MAX_COLOR_BUFS], zs_fresh;   /* copied in since the framebuffer command */
	char note[ULPSIM_NOTES][96];
	unsigned nnotes;
};

static inline struct ulpsim_context *ulpsim_context(struct pipe_context *p)
{
	return (struct ulpsim_context *)p;
}

/* ulpsim_context.c: prints "ulpsim: <msg>" on stderr the first time key is
 * seen (key NULL: msg is the key). */
void ulpsim_note(struct ulpsim_context *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ulpsim_state.c */
/* Runs command c (consumed): false after noting the session's message. */
bool ulpsim_cmd(struct ulpsim_context *c, struct cJSON *cmd);
/* Everything a draw needs before its draw command: the framebuffer and the
 * render targets' bytes, shaders, constants, vertex elements, textures,
 * fixed-function state.  False: the draw is skipped (noted). */
bool ulpsim_emit_state(struct ulpsim_context *c);
/* The session's copy of resource r (its levels first..last for a texture),
 * uploaded again when r changed; NULL when it cannot be made (noted). */
struct ulpsim_upload *ulpsim_upload(struct ulpsim_context *c, struct pipe_resource *r, unsigned first_level,
                                    unsigned last_level);
/* A user buffer (vertices or indices) as session buffer id. */
bool ulpsim_upload_user(struct ulpsim_context *c, const char *id, const void *bytes, size_t len);
/* After a draw: the session's colour buffers and depth surface back into
 * the bound surfaces' resources. */
void ulpsim_write_back(struct ulpsim_context *c);
/* Before a frame is captured: the bound framebuffer into the session and
 * the CPU writes of its targets since the last draw (a clear) copied in,
 * as the next draw would; nothing when no session or no capture. */
void ulpsim_sync_targets(struct ulpsim_context *c);
/* Forget the session's copies (context destroy). */
void ulpsim_release_uploads(struct ulpsim_context *c);

/* ulpsim_context.c: frame n was presented (flush_frontbuffer): the
 * capture writes it when it is one of the captured frames. */
void ulpsim_capture_frame(struct ulpsim_context *c, unsigned n);

/* ulpsim_draw.c */
void ulpsim_init_draw_functions(struct pipe_context *pipe);

#endif
