/* A streaming replay (docs/replay.md "Sessions"): the replay of
 * traces/replay/replay.h one command at a time, with resources and shaders
 * added, replaced and removed by id between commands.  replay_run is a loop
 * over a session; the Gallium driver (frontends/gallium) drives one too.
 *
 *   s = replay_session_open(&opts, &units, name, dir, &res, &d);
 *   replay_session_buffer(s, "vb", bytes, len, &d);   (or _texture, _shader)
 *   replay_session_command(s, cmd, &d);               (a cJSON object of the trace format)
 *   ... replay_session_cbuf(s, 0), replay_session_zs(s): what DW wrote ...
 *   replay_session_finish(s, &d);  replay_session_close(s);
 *
 * Commands are the trace format's (docs/trace-format.md; version 2's
 * update and write_target included, run here: a capture replays through
 * replay_run): each is
 * validated as the loader validates a trace's command (its ids must name
 * the session's resources and shaders) and fails with the JSON path
 * "$.commands[i]", i counting the session's commands from 0.  The result
 * (cycles, draws, every unit's stats) accumulates in the caller's
 * replay_result over the session's life.  No global state: sessions are
 * independent. */
#ifndef ULP_REPLAY_SESSION_H
#define ULP_REPLAY_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/image.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"

struct cJSON;
struct zs_surface;

typedef struct replay_session replay_session;

/* The units a run's stats list (replay_result.unit), decided up front as
 * replay_run does from the whole trace; with `lazy`, a unit the list lacks
 * (zs, gsh, ...) is added at the first draw that has it instead.  Lists
 * only: no result depends on them. */
typedef struct replay_session_units {
	bool zs;        /* "zs" (and "zs_b") from the start */
	bool gs;        /* "gsh": some draw has a geometry shader */
	bool gs_only;   /* every draw has one: vsh3 is not listed */
	bool lazy;
} replay_session_units;

/* A session with options o (o and res must outlive it; o->cfg is
 * required).  name names the session in messages (a trace's path), dir
 * resolves the relative file names of commands (checkpoint images).  NULL with d when out of memory. */
replay_session *replay_session_open(const replay_opts *o, const replay_session_units *u, const char *name,
                                    const char *dir, replay_result *res, ulp_diag *d);

/* Buffer id (a trace id: 1..63 of [A-Za-z0-9_.-]) gets a copy of len
 * bytes, added or replacing the old bytes (a vertex or index buffer bound
 * by id reads the new bytes from the next draw on). */
bool replay_session_buffer(replay_session *s, const char *id, const void *bytes, size_t len, ulp_diag *d);
/* Texture id: width x height at level 0, nlevels levels (1..13), the bytes
 * of level 0, 1, ... one after another, tightly packed in format f
 * (trace_texfmt_bpp bytes a texel); len must be their sum.  A sampler
 * view that names it samples the new texels at the next draw; a change of
 * size or format needs a new sampler_view command. */
bool replay_session_texture(replay_session *s, const char *id, enum trace_texfmt f, enum trace_textarget target,
                            uint32_t width, uint32_t height, unsigned nlevels, const void *bytes, size_t len,
                            ulp_diag *d);
/* A resource of a loaded trace, copied as it is. */
bool replay_session_resource(replay_session *s, const trace_resource *r, ulp_diag *d);
/* Shader sh->id: a copy of sh (text for TGSI and grate; path for SHBIN,
 * words and .fp binaries, a file name as it is opened), added or
 * replacing.  It is
 * compiled when a bind_shaders command names it. */
bool replay_session_shader(replay_session *s, const trace_shader *sh, ulp_diag *d);
/* Compiles TGSI shader id for its stage as bind_shaders would (default
 * sampler and blend state): false with the compiler's message when the
 * hardware cannot run it (a driver refuses it at link time). */
bool replay_session_check_shader(replay_session *s, const char *id, ulp_diag *d);
/* After replay_session_check_shader accepted a fragment shader: how many
 * times its loops whose exit is a run-time value were unrolled
 * (tegra_compile_result.loop_bound; 0: it has none). */
unsigned replay_session_loop_bound(const replay_session *s);
/* The output registers of TGSI vertex shader id as the PICA200 compiler
 * lays them out (what a geometry shader bound after it reads, in register
 * order): *mask the o registers it writes, *mapped those of them with an
 * output-map semantic (not "dummy": the only ones a geometry shader's EMIT
 * passes on, units/pica/pica_exec.c), sem[r] and index[r] their TGSI
 * semantic (-1: none).  False with the compiler's message. */
bool replay_session_vs_outputs(replay_session *s, const char *id, uint16_t *mask, uint16_t *mapped,
                               int16_t sem[16], uint32_t index[16], ulp_diag *d);
/* Forget resource or shader id (false: no such id).  A removed resource
 * that a command still names fails that command's validation. */
bool replay_session_remove_resource(replay_session *s, const char *id);
bool replay_session_remove_shader(replay_session *s, const char *id);

/* Runs one command.  A failed check (checkpoint) is not an error: it is
 * counted in res->checks_failed.  After an error the session stays usable:
 * the command's state may be half applied (a driver should stop or set the
 * state again). */
bool replay_session_command(replay_session *s, const struct cJSON *c, ulp_diag *d);
/* The same; last_checkpoint: this checkpoint's image also goes to
 * o->out_png (replay_session_command sends every checkpoint there). */
bool replay_session_command_ex(replay_session *s, const struct cJSON *c, bool last_checkpoint, ulp_diag *d);
/* Commands run so far (the next command's index). */
size_t replay_session_ncommands(const replay_session *s);

/* The bound framebuffer: colour buffer k (NULL past the bound ones) as
 * RGBA8 images, bottom row first (window y up), in the view its format
 * stores (RGB565 expanded, A8 alpha only; *format: enum gr3d_rtfmt), and
 * the depth/stencil surface (NULL: none).  What DW wrote; the caller may
 * write into them between commands (a CPU write), as the next draw reads
 * them (blending, depth test).  A framebuffer command makes new ones. */
unsigned replay_session_ncbufs(const replay_session *s);
/* The bound framebuffer's origin (its command's "origin", version 2):
 * true when memory row 0 is the image's top (upper-left: a window-system
 * framebuffer, which Gallium draws y-down), false when it is the bottom. */
bool replay_session_upper_left(const replay_session *s);
ulp_image *replay_session_cbuf(replay_session *s, unsigned k, uint8_t *format);
struct zs_surface *replay_session_zs(replay_session *s);

/* The run so far as stats.txt (sim/out/stats_txt.h: every unit's totals,
 * no per-draw sections, no host figures; the config after them). */
bool replay_session_write_stats(replay_session *s, const char *path, ulp_diag *d);

/* res->image and res->depth as o->keep_image and keep_depth ask (call once,
 * after the last command). */
bool replay_session_finish(replay_session *s, ulp_diag *d);
void replay_session_close(replay_session *s);

#endif
