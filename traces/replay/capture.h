/* Capture (docs/capture.md): what a replay session (session.h) is given,
 * written out per frame as a self-contained trace of format version 2
 * that `ulpsim replay` runs without Mesa, bit for bit and cycle for cycle.
 *
 *   cap = replay_capture_open(&o, &d);
 *   ... each time the session accepts something, the same to the capture:
 *   replay_capture_buffer / _texture / _shader / _remove_* / _command
 *   replay_capture_targets(cap, s)     the caller wrote the render targets
 *   replay_capture_frame(cap, s, n, cycles, &d)   frame n ended: DIR/frame-NNNN.json
 *   replay_capture_close(cap);
 *
 * The capture mirrors the session: its resources and shaders in the
 * session's order, and the last state command of each kind (framebuffer,
 * bind_shaders, constant_buffer per stage and index, sampler and
 * sampler_view per index, ...) in the order they were last given.  A
 * frame's file holds that mirror as it was at the frame's start (the
 * resources' bytes, the shaders' TGSI, the state commands, the render
 * targets' contents as write_target commands where the frame reads
 * them), then the frame's commands, with every mid-frame upload as an
 * `update` from a resource holding the new bytes, then a checkpoint with
 * the colour buffer 0 the frame left and the frame's simulated cycles.
 * Bytes go to side files named by their content (<hash>.bin raw, <hash>.png
 * for render targets), shared by the frames of a folder; every file is
 * written temp+rename and the frame's JSON last, so a failed capture leaves
 * no half frame.  No global state. */
#ifndef ULP_REPLAY_CAPTURE_H
#define ULP_REPLAY_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "traces/replay/session.h"
#include "traces/trace.h"

struct cJSON;

typedef struct replay_capture replay_capture;

typedef struct replay_capture_opts {
	const char *dir;          /* the capture folder (created if missing) */
	unsigned first, last;     /* frames first..last (0-based, as frame-NNNN) are written */
	const char *gpu;          /* the trace's "gpu" (tegra2, tegra3); NULL: tegra2 */
	const char *name;         /* the traces' "name" prefix (the program); NULL: "capture" */
	unsigned context;         /* 0: frames are DIR/frame-NNNN.json; K > 0: DIR/ctxK-frame-NNNN.json
	                           * (the K-th other context capturing into the same folder) */
} replay_capture_opts;

/* NULL with d when the folder cannot be made or out of memory. */
replay_capture *replay_capture_open(const replay_capture_opts *o, ulp_diag *d);
void replay_capture_close(replay_capture *c);

/* What the session was given (call after the session accepted it; the
 * arguments are the session call's). */
void replay_capture_buffer(replay_capture *c, const char *id, const void *bytes, size_t len);
void replay_capture_texture(replay_capture *c, const char *id, enum trace_texfmt f, enum trace_textarget target,
                            uint32_t width, uint32_t height, unsigned nlevels, const void *bytes, size_t len);
void replay_capture_shader(replay_capture *c, const trace_shader *sh);
void replay_capture_remove_resource(replay_capture *c, const char *id);
void replay_capture_remove_shader(replay_capture *c, const char *id);
/* A command the session ran; ok false: it failed (the frame is not
 * written: its state may be half applied). */
void replay_capture_command(replay_capture *c, const struct cJSON *cmd, bool ok);
/* The caller wrote the session's render targets (replay_session_cbuf,
 * replay_session_zs) between commands: recorded as write_target commands. */
void replay_capture_targets(replay_capture *c, replay_session *s);

/* The context number of the frames' names from now on (opts.context). */
void replay_capture_set_context(replay_capture *c, unsigned context);

/* Frame n ended (the program presented it); cycles: the session's
 * replay_result cycles so far.  Writes DIR/frame-NNNN.json (ctxK-frame-NNNN.json
 * for opts.context K > 0; and its side
 * files) when n is in first..last.  False with d when writing failed or
 * the frame could not be captured (d says why; nothing of the frame's
 * JSON is left); *written tells whether a frame file was made. */
bool replay_capture_frame(replay_capture *c, replay_session *s, unsigned n, uint64_t cycles, bool *written,
                          ulp_diag *d);

#endif
