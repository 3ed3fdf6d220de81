/* The protocol between `ulpsim gl` (cli/cmd_gl.c) and the ulpsim Gallium
 * driver (frontends/gallium/, docs/gl.md): environment variables of the
 * program the driver is loaded into.  No code; both sides include this. */
#ifndef ULPSIM_GL_ENV_H
#define ULPSIM_GL_ENV_H

/* What `ulpsim gl` (cli/cmd_gl.c) tells the driver, through the program's
 * environment; each may be unset.
 *   ULPSIM_GL_SET      knobs, "key=value" separated by ';' (--set)
 *   ULPSIM_GL_CONFIG   a config JSON file (--config)
 *   ULPSIM_GL_FRAMES   a folder: each presented frame as frame-NNNN.png (--frames)
 *   ULPSIM_GL_SUMMARY  a file the driver appends one JSON object per line to:
 *                      {"frame":N,"draws":N,"cycles":N,"fragments":N} per presented
 *                      frame (the figures since the previous frame),
 *                      {"watchdog":"unit pc ..."} per draw the watchdog stopped,
 *                      {"run":1,"draws":N,"cycles":N,"fragments":N,"sim_seconds":S}
 *                      when a context is destroyed (its draws; S = host seconds
 *                      spent simulating).  `ulpsim gl` sums the run lines (the
 *                      frame lines when there are none)
 *   ULPSIM_GL_STATS, ULPSIM_GL_TIMELINE  stats.txt / Perfetto timeline of the run
 *   ULPSIM_GL_CAPTURE  a folder: frames as self-contained traces, frame-NNNN.json
 *                      (--capture; traces/replay/capture.h, docs/capture.md)
 *   ULPSIM_GL_CAPTURE_FRAMES  "A-B" (or "A"): the frames captured (default all)
 *   ULPSIM_GL_CAPTURE_GPU     the captures' "gpu": tegra2 (default) or tegra3 */
#define ULPSIM_ENV_SET "ULPSIM_GL_SET"
#define ULPSIM_ENV_CONFIG "ULPSIM_GL_CONFIG"
#define ULPSIM_ENV_FRAMES "ULPSIM_GL_FRAMES"
#define ULPSIM_ENV_SUMMARY "ULPSIM_GL_SUMMARY"
#define ULPSIM_ENV_STATS "ULPSIM_GL_STATS"
#define ULPSIM_ENV_TIMELINE "ULPSIM_GL_TIMELINE"
#define ULPSIM_ENV_CAPTURE "ULPSIM_GL_CAPTURE"
#define ULPSIM_ENV_CAPTURE_FRAMES "ULPSIM_GL_CAPTURE_FRAMES"
#define ULPSIM_ENV_CAPTURE_GPU "ULPSIM_GL_CAPTURE_GPU"

#endif
