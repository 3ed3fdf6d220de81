/* ulpsim as a Gallium pipe driver (docs/gl.md): the objects the screen and
 * the context share.  Built inside Mesa's build (make mesa); everything of
 * the simulator is reached through traces/replay/session.h.
 *
 *   ulpsim_screen.c    pipe_screen: caps, formats, fences
 *   ulpsim_resource.c  resources in host memory, transfers, display targets
 *   ulpsim_context.c   pipe_context: CSOs and state -> session commands
 *   ulpsim_draw.c      draw_vbo, clear, blit, flush -> the simulated GPU */
#ifndef ULP_GALLIUM_H
#define ULP_GALLIUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "traces/gl/gl_tables.h"
#include "ulpsim/gl_env.h"

#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"

struct sw_winsys;
struct sw_displaytarget;
struct ulp_gl_run;

enum { ULPSIM_MAX_LEVELS = 13 };

/* What `ulpsim gl` tells the driver: include/ulpsim/gl_env.h. */

/* A buffer or texture: its bytes live in host memory, all levels and layers
 * one after another.  For a render target this memory is what DW wrote. */
struct ulpsim_resource {
	struct pipe_resource base;
	uint8_t *data;                            /* always host memory (a display target too) */
	size_t size;                              /* bytes of data */
	unsigned stride[ULPSIM_MAX_LEVELS];       /* bytes per row of level k */
	size_t level_offset[ULPSIM_MAX_LEVELS];   /* level k at data + level_offset[k] */
	size_t layer_size[ULPSIM_MAX_LEVELS];     /* bytes per layer (cube face, array slice) of level k */
	struct sw_displaytarget *dt;              /* the winsys's target (PIPE_BIND_DISPLAY_TARGET):
	                                             flush_frontbuffer copies level 0 of data into it */
	unsigned dt_stride;
	uint64_t generation;                      /* +1 on every write through a transfer, a draw or a blit */
	bool user_ptr;                            /* data is the caller's (user buffers): not freed */
};

/* Draws complete before the call that made them returns, so one fence,
 * always signalled, serves every flush (ulpsim_fence). */
struct pipe_fence_handle {
	unsigned unused;
};

/* The run so far, for the frame lines of ULPSIM_GL_SUMMARY: the context adds
 * every draw's figures here (ulpsim_draw.c); flush_frontbuffer writes the
 * figures since the previous frame (ulpsim_resource.c). */
struct ulpsim_run_totals {
	uint64_t draws, cycles, fragments;
};

struct ulpsim_screen {
	struct pipe_screen base;
	struct sw_winsys *winsys;
	struct pipe_fence_handle fence;
	char *frames_dir;                 /* ULPSIM_GL_FRAMES or NULL */
	char *summary_path;               /* ULPSIM_GL_SUMMARY or NULL */
	struct ulpsim_run_totals run;     /* every draw of every context */
	struct ulpsim_run_totals at_frame;   /* run at the last presented frame */
	unsigned frames;                  /* frames presented */
	int32_t captures;                 /* contexts that presented a frame to their capture (its names) */
	/* ULPSIM_GL_STATS / ULPSIM_GL_TIMELINE: the run's stats.txt and timeline
	 * over every context (traces/gl/gl_run.h); NULL when neither is asked */
	struct ulp_gl_run *outputs;
};

/* How ulpsim models a pipe_format (traces/gl/gl_tables.h, by its name;
 * ulpsim_screen.c), NULL: not modelled. */
const ulp_gl_format *ulpsim_format_lookup(enum pipe_format f);

static inline struct ulpsim_resource *ulpsim_resource(struct pipe_resource *p)
{
	return (struct ulpsim_resource *)p;
}

static inline struct ulpsim_screen *ulpsim_screen(struct pipe_screen *p)
{
	return (struct ulpsim_screen *)p;
}

/* ulpsim_screen.c: the entry point Mesa's software helper calls for
 * GALLIUM_DRIVER=ulpsim. */
struct pipe_screen *ulpsim_create_screen(struct sw_winsys *winsys);
/* The screen's fence, for the context's flush (fence_reference only copies
 * the pointer: it lives as long as the screen). */
struct pipe_fence_handle *ulpsim_fence(struct pipe_screen *screen);
/* ulpsim_resource.c */
void ulpsim_init_screen_resource_functions(struct pipe_screen *screen);
void ulpsim_init_context_resource_functions(struct pipe_context *pipe);
/* Appends one line (a JSON object, no newline in it) to ULPSIM_GL_SUMMARY
 * if it is set; for the context's watchdog and run lines too. */
void ulpsim_summary_line(struct ulpsim_screen *screen, const char *json);
/* ulpsim_context.c */
struct pipe_context *ulpsim_context_create(struct pipe_screen *screen, void *priv, unsigned flags);

#endif
