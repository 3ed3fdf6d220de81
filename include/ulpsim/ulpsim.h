/* ulpsim's public interface: what the viewer (viewer/) and other programs
 * use.  Nothing here exposes the simulator's internals; link libulpsim.a.
 *
 *   ulpsim *s = ulpsim_open("cube.json", NULL, 0, err, sizeof err);
 *   ulpsim_run(s, 0, err, sizeof err);         replay to the end, recording
 *   ulpsim_image(s, &w, &h);                   the final colour buffer
 *   ulpsim_events(s) / ulpsim_event_count(s)   the per-unit timeline
 *   ulpsim_close(s); */
#ifndef ULPSIM_ULPSIM_H
#define ULPSIM_ULPSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ulpsim ulpsim;

/* A timeline event; cycle order.  kind: see ULPSIM_EV_*. */
typedef struct ulpsim_event {
	uint64_t cycle;
	uint32_t id;        /* the item: quad id, instruction sequence number */
	uint32_t arg;       /* ACTIVITY: ULPSIM_ACT_*; BEGIN: pc or EXEC index */
	uint16_t lane;      /* ulpsim_lane_name() */
	uint8_t kind;
} ulpsim_event;

enum { ULPSIM_EV_ACTIVITY, ULPSIM_EV_BEGIN, ULPSIM_EV_END, ULPSIM_EV_INSTANT };
/* Activity codes: idle, busy, then one per stall cause (ulpsim_activity_name). */
enum { ULPSIM_ACT_IDLE = 0, ULPSIM_ACT_BUSY = 1, ULPSIM_ACT_STALL = 2 };

typedef struct ulpsim_summary {
	uint64_t cycles, vertex_cycles, fragment_cycles;
	uint64_t draws, vertices, triangles, fragments;
	unsigned checkpoints, checks_failed;
	uint64_t events, events_dropped;
	unsigned gr3d_clock_mhz;
	/* DW's writes into colour buffer 0 (the log ulpsim_image_at rebuilds
	 * frames from), those its cap dropped, and the first cycle it lacks
	 * (when writes_dropped) */
	uint64_t writes, writes_dropped, writes_cut_cycle;
} ulpsim_summary;

/* Loads a trace and applies settings ("key=value" as --set takes them) over
 * the preset its "gpu" names.  NULL with err filled on failure.  The trace's
 * side files come only from its own folder (docs/trace-format.md "Side
 * files"); ulpsim_open_with's allow_paths widens that as --allow-paths. */
ulpsim *ulpsim_open(const char *trace_path, const char *const *settings, size_t nsettings,
                    char *err, size_t errlen);
typedef struct ulpsim_open_opts {
	bool allow_paths;
	uint64_t max_side_file;     /* each side file at most this many bytes; 0: 256 MiB */
} ulpsim_open_opts;
/* A --max-side-file value ("64M": bytes, or a K, M or G suffix; 1 .. 16G)
 * into *bytes; false when it is not one. */
bool ulpsim_parse_side_file_cap(const char *s, uint64_t *bytes);
ulpsim *ulpsim_open_with(const char *trace_path, const char *const *settings, size_t nsettings,
                         const ulpsim_open_opts *opts, char *err, size_t errlen);
/* Replays the whole trace, recording at most max_events timeline events
 * (0: a default of 4 million) and the log of colour writes
 * (ulpsim_image_at).  False with err filled on failure. */
bool ulpsim_run(ulpsim *s, size_t max_events, char *err, size_t errlen);
/* The final colour buffer 0: RGBA8, top row first (NULL before a run), as
 * the program saw it (a framebuffer of origin upper-left, a window drawn
 * y-down, is not turned over; docs/trace-format.md). */
const uint8_t *ulpsim_image(const ulpsim *s, uint32_t *width, uint32_t *height);
/* Colour buffer 0 as it stood at the end of cycle `cycle` of the run (every
 * DW write and clear at or before it), RGBA8 top row first, into rgba
 * (width * height * 4 bytes, ulpsim_image's size).  Rebuilt from the run's
 * log of writes from the nearest key frame: at most max(4096, width *
 * height) writes and one copy.  From the run's last cycle on it is the final
 * image.  False with err when the log cannot rebuild that cycle (its cap
 * cut it short, or the buffer was recreated later in the run). */
bool ulpsim_image_at(const ulpsim *s, uint64_t cycle, uint8_t *rgba, char *err, size_t errlen);
/* Before ulpsim_run: the memory of the write log, as a number of writes
 * (16 bytes each; a key frame costs width * height / 4).  0: the default,
 * 4194304 (64 MiB). */
void ulpsim_set_max_writes(ulpsim *s, size_t max_writes);
/* After ulpsim_run: the ports between the units (as stats.txt reports them,
 * gpu.port.<name>.max_count): name ("raster->pseq"), capacity and the most
 * items each held at once over the run (the highest over the draws). */
unsigned ulpsim_port_count(const ulpsim *s);
bool ulpsim_port_mark(const ulpsim *s, unsigned k, const char **name, uint32_t *capacity, uint32_t *max_count);
unsigned ulpsim_lane_count(const ulpsim *s);
const char *ulpsim_lane_name(const ulpsim *s, unsigned lane);
size_t ulpsim_event_count(const ulpsim *s);
const ulpsim_event *ulpsim_events(const ulpsim *s);
/* "idle", "busy", "stall:dependency", ... */
const char *ulpsim_activity_name(uint8_t activity);
ulpsim_summary ulpsim_get_summary(const ulpsim *s);
const char *ulpsim_trace_name(const ulpsim *s);
void ulpsim_close(ulpsim *s);

/* Writes an RGBA8 image (top row first) as a PNG, atomically (no partial
 * file on failure).  False with err filled on failure. */
bool ulpsim_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                      char *err, size_t errlen);

/* ---- viewer helpers ---------------------------------------------------- */

/* Row y of an image height rows high (ulpsim_image, top row first) in
 * window coordinates (y up, as the rasterizer walks), and back: height - 1
 * - y, or y when the trace's last framebuffer has origin upper-left. */
uint32_t ulpsim_window_y(const ulpsim *s, uint32_t y, uint32_t height);
/* While ulpsim_run works (from another thread): the last simulated cycle
 * the timeline has seen and the events recorded so far.  Safe to call at
 * any time; both are 0 before a run. */
void ulpsim_progress(const ulpsim *s, uint64_t *cycle, uint64_t *events);

/* The quad that wrote pixel (x, y) of ulpsim_image (top row first) in the
 * last fragment pass that covered it.  pass: the fragment pass (quad ids
 * restart in every pass), quad: its id (the BEGIN/END events' id on the
 * Tegra lanes), qx, qy: its top-left pixel in window coordinates (y up, as
 * the rasterizer walks), exact: found from the rasterizer's events (an
 * INSTANT on the raster lane per quad, arg = x | y << 16) rather than
 * reconstructed.  Without those events it is reconstructed for a run of
 * exactly one triangle (a coverage replay of the trace with a constant
 * fragment program; the quads are numbered as the rasterizer walks).
 * False with err filled when the pixel has no quad or it cannot be found.
 * With two GR3D blocks (Tegra 3) block is 1 for a quad of block B's swaths:
 * its events are on the "<unit>_b" lanes and pass counts block B's passes.
 * After ulpsim_run; may replay the trace once more (not thread-safe). */
typedef struct ulpsim_quad_ref {
	uint32_t pass, quad;
	uint32_t qx, qy;
	uint64_t pass_from, pass_to;    /* the pass's cycles: [from, to) */
	bool exact;
	uint8_t block;                  /* GR3D block: 0 (A), 1 (B) */
} ulpsim_quad_ref;
bool ulpsim_quad_at(ulpsim *s, uint32_t x, uint32_t y, ulpsim_quad_ref *q, char *err, size_t errlen);

/* The source text of the vertex (fragment = false) or fragment shader bound
 * at the draw-th "draw" command of the trace (0-based), as the trace gives
 * it: TGSI, or grate assembly for a fragment program.  NULL when that draw
 * does not exist or the shader is binary (shbin, words, fp).  Fragment pass
 * k is draw k when no draw has more than 64 triangles.  Valid until
 * ulpsim_close. */
const char *ulpsim_shader_text(const ulpsim *s, unsigned draw, bool fragment);

/* After ulpsim_run: the fragment program the draw-th draw of the run ran
 * (draws as ulpsim_draw_count counts them), in grate syntax, recorded by
 * the replay itself: the Tegra compiler's output for a TGSI shader (with
 * the draw's blend, shadow compare and swizzles compiled in), the source
 * for grate, the disassembly for words / .fp or a program the registers
 * loaded.  malloc'd (free it); NULL with err filled when there is no such
 * draw (or no run yet). */
char *ulpsim_fragment_grate(const ulpsim *s, unsigned draw, char *err, size_t errlen);

/* The vertex shader bound at the draw-th draw as the PICA200 units run it:
 * the disassembly (picasso syntax) of the SHBIN the PICA200 compiler made
 * from TGSI (the replay's own compile), or of the trace's SHBIN.  Each instruction's line ends with a
 * comment "; AAA: WWWWWWWW" giving its word address (the pc of the timeline's
 * BEGIN events on the vsh lanes) and its code word.  malloc'd (free it);
 * NULL with err filled when there is no such draw or it does not compile. */
char *ulpsim_vertex_pica(const ulpsim *s, unsigned draw, char *err, size_t errlen);

/* After ulpsim_run: the draws of the run and the cycles [from, to) each
 * took, in draw order; ulpsim_draw_at gives the last draw that started at
 * or before a cycle (-1: none). */
unsigned ulpsim_draw_count(const ulpsim *s);
bool ulpsim_draw_range(const ulpsim *s, unsigned draw, uint64_t *from, uint64_t *to);
int ulpsim_draw_at(const ulpsim *s, uint64_t cycle);

/* The row registers of quad q (from ulpsim_quad_at) after each EXEC of its
 * program, as DW received the quad (the ALU's writes done).  Pixel k of the
 * quad is at window (qx + (k & 1), qy + (k >> 1)); each register is a raw
 * 20-bit word: one FP20, or two FX10 halves (.l bits 0..9, .h bits 10..19);
 * ulpsim_fp20_value and ulpsim_fx10_value read them.  With arith=exact
 * (exact set) a word is a binary32, or two 16-bit halves with 14 fraction
 * bits (docs/exact.md); ulpsim_reg_value and ulpsim_reg_half read a word in
 * the mode of its EXEC. */
typedef struct ulpsim_exec_regs {
	uint32_t exec;
	uint64_t cycle;                 /* DW took the quad: its BEGIN on the dw lane */
	unsigned rows;                  /* alu_buffer_size: r0..r(4 * rows - 1) are live */
	uint32_t r[4][16];              /* [pixel][register] */
	uint8_t covered, killed;        /* bit k: pixel k covered; killed (sticky or in this EXEC) */
	bool exact;                     /* the run's arith=exact: words are binary32 / 16-bit halves */
} ulpsim_exec_regs;
/* Replays the trace once more with a watch on that quad (no timeline) and
 * gives up to max EXECs in regs, their number in *n.  After ulpsim_run;
 * not thread-safe.  False with err filled when the replay fails or the quad
 * never reached DW. */
bool ulpsim_quad_regs(ulpsim *s, const ulpsim_quad_ref *q, ulpsim_exec_regs *regs, size_t max,
                      size_t *n, char *err, size_t errlen);
float ulpsim_fp20_value(uint32_t bits);
float ulpsim_fx10_value(uint32_t bits, bool high);
float ulpsim_reg_value(const ulpsim_exec_regs *r, uint32_t bits);              /* FP20 or binary32 */
float ulpsim_reg_half(const ulpsim_exec_regs *r, uint32_t bits, bool high);    /* an FX10 half */

/* Timeline INSTANT events: on the raster lanes a quad's position (id = quad,
 * arg = x | y << 16); on the alu lanes a kill (id = quad, arg = EXEC | mask
 * << 8, bit k of mask: pixel k of the quad was killed in that EXEC); on the
 * pseq lanes a quad PSEQ removed because all its pixels were killed (id =
 * quad, arg = the EXEC it would have run next). */

#endif
