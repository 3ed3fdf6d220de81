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

#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"

struct sw_winsys;
struct sw_displaytarget;

enum { ULPSIM_MAX_LEVELS = 13 };

/* What `ulpsim gl` (cli/cmd_gl.c) tells the driver, through the program's
 * environment; each may be unset.
 *   ULPSIM_GL_SET      knobs, "key=value" separated by ';' (--set)
 *   ULPSIM_GL_CONFIG   a config JSON file (--config)
 *   ULPSIM_GL_FRAMES   a folder: each presented frame as frame-NNNN.png (--frames)
 *   ULPSIM_GL_SUMMARY  a file the driver appends one JSON object per line to:
 *                      {"frame":N,"draws":N,"cycles":N,"fragments":N} per presented
 *                      frame, {"watchdog":"unit pc ..."} per draw the watchdog stopped
 *   ULPSIM_GL_STATS, ULPSIM_GL_TIMELINE  stats.txt / Perfetto timeline of the run */
#define ULPSIM_ENV_SET "ULPSIM_GL_SET"
#define ULPSIM_ENV_CONFIG "ULPSIM_GL_CONFIG"
#define ULPSIM_ENV_FRAMES "ULPSIM_GL_FRAMES"
#define ULPSIM_ENV_SUMMARY "ULPSIM_GL_SUMMARY"
#define ULPSIM_ENV_STATS "ULPSIM_GL_STATS"
#define ULPSIM_ENV_TIMELINE "ULPSIM_GL_TIMELINE"

/* A buffer or texture: its bytes live in host memory, all levels and layers
 * one after another.  For a render target this memory is what DW wrote. */
struct ulpsim_resource {
	struct pipe_resource base;
	uint8_t *data;                            /* NULL for a display target until mapped */
	size_t size;                              /* bytes of data */
	unsigned stride[ULPSIM_MAX_LEVELS];       /* bytes per row of level k */
	size_t level_offset[ULPSIM_MAX_LEVELS];   /* level k at data + level_offset[k] */
	size_t layer_size[ULPSIM_MAX_LEVELS];     /* bytes per layer (cube face, array slice) of level k */
	struct sw_displaytarget *dt;              /* the winsys's target (PIPE_BIND_DISPLAY_TARGET) */
	unsigned dt_stride;
	uint64_t generation;                      /* +1 on every write through a transfer, a draw or a blit */
	bool user_ptr;                            /* data is the caller's (user buffers): not freed */
};

struct ulpsim_screen {
	struct pipe_screen base;
	struct sw_winsys *winsys;
};

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
/* ulpsim_resource.c */
void ulpsim_init_screen_resource_functions(struct pipe_screen *screen);
void ulpsim_init_context_resource_functions(struct pipe_context *pipe);
/* ulpsim_context.c */
struct pipe_context *ulpsim_context_create(struct pipe_screen *screen, void *priv, unsigned flags);

#endif
