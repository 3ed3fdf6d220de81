/* ulpsim-view: the SDL2 viewer.  It uses the simulator only through
 * include/ulpsim/ulpsim.h.  One `viewer` struct holds everything (no global
 * mutable state); the files split the work:
 *
 *   main.c           arguments, the replay thread, the event loop, headless mode
 *   view_model.c     what is computed once after the run: per-lane activity
 *                    spans with prefix sums, draw marks, utilisation, journeys
 *   view_text.c      SDL2_ttf fonts and a small cache of rendered strings
 *   view_image.c     the render-target pane (zoom, pan, grid, cursor readout)
 *   view_timeline.c  the per-unit timeline (one lane per unit, by pixel column)
 *   view_ui.c        layout, stats and journey panels, status bar, help, keys */
#ifndef ULPSIM_VIEWER_VIEW_H
#define ULPSIM_VIEWER_VIEW_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "ulpsim/ulpsim.h"

/* ---- the recorded run, precomputed (view_model.c) ---- */

/* A run of cycles [start, next span's start) in one activity. */
typedef struct view_span {
	uint64_t start;
	uint64_t busy_before, stall_before;  /* cycles busy / stalled in earlier spans */
	uint8_t act;                         /* ULPSIM_ACT_* */
} view_span;

typedef struct view_lane {
	char name[32];
	view_span *span;
	size_t nspan;
	uint64_t busy, stall;                /* totals over the run */
	uint32_t *item;                      /* indices of BEGIN/END events of this lane */
	size_t nitem;
	bool tegra;                          /* one of pseq, mfu, tex, alu, dw */
} view_lane;

enum { VIEW_JOURNEY_UNITS = 5, VIEW_MAX_EXEC = 64 };

/* One quad's passes through the Tegra units, from its BEGIN/END events. */
typedef struct view_journey {
	bool valid;
	uint32_t x, y;                       /* the selected pixel (image coordinates) */
	uint8_t rgba[4];
	ulpsim_quad_ref q;
	char why[256];                       /* when !valid: why not */
	unsigned nexec;
	/* cycles of entering / leaving unit u in EXEC e; UINT64_MAX: not seen */
	uint64_t in[VIEW_MAX_EXEC][VIEW_JOURNEY_UNITS], out[VIEW_MAX_EXEC][VIEW_JOURNEY_UNITS];
	/* the kill: the ALU's INSTANT for this pixel, or PSEQ removing the quad */
	int kill_exec, removed_exec;         /* -1: none */
	uint64_t kill_cycle, removed_cycle;
	/* the row registers after each EXEC (ulpsim_quad_regs), or why not */
	unsigned pixel;                      /* the selected pixel's index in the quad */
	ulpsim_exec_regs regs[VIEW_MAX_EXEC];
	size_t nregs;
	char regs_why[160];
} view_journey;

typedef struct view_model {
	view_lane *lane;                     /* in pipeline order, not the API's */
	unsigned nlanes;
	unsigned *lane_of;                   /* API lane -> index into lane */
	uint64_t end;                        /* last cycle + 1 */
	uint64_t *mark;                      /* draw starts (sorted) */
	size_t nmark;
	const ulpsim_event *ev;
	size_t nev;
	ulpsim_summary sum;
	const uint8_t *img;
	uint32_t img_w, img_h;
} view_model;

bool view_model_build(view_model *m, const ulpsim *s, char *err, size_t errlen);
void view_model_free(view_model *m);
/* Activity of a lane at a cycle, and cycles busy / stalled in [a, b). */
uint8_t view_lane_act_at(const view_lane *l, uint64_t cycle);
void view_lane_range(const view_lane *l, uint64_t a, uint64_t b, uint64_t *busy, uint64_t *stall);
/* The first BEGIN/END event of the lane after (dir > 0) or before (dir < 0)
 * the cycle; false when there is none. */
bool view_lane_next_event(const view_model *m, const view_lane *l, uint64_t cycle, int dir,
                          uint64_t *out);
/* Index into l->item of the first BEGIN/END event at or after the cycle. */
size_t view_lane_first_item(const view_model *m, const view_lane *l, uint64_t cycle);
/* The item the lane holds at a cycle (last BEGIN without its END); false if none. */
bool view_lane_item_at(const view_model *m, const view_lane *l, uint64_t cycle,
                       uint32_t *id, uint32_t *arg);
void view_journey_find(view_journey *j, const view_model *m, ulpsim *s, uint32_t x, uint32_t y);
/* The journey unit (index into VIEW_JOURNEY_UNIT_NAME) a lane is for the
 * journey's GR3D block ("pseq" for block A, "pseq_b" for B), or -1. */
int view_journey_unit(const view_journey *j, const char *lane);
/* The journey as text lines (for stdout and the panel; the panel leaves out
 * the legend and the position's source when it is the rasterizer's); returns
 * the count. */
enum { VIEW_LINE = 160, VIEW_JOURNEY_LINES = 320 };
unsigned view_journey_lines(const view_journey *j, char lines[][VIEW_LINE], unsigned max, bool panel);
/* Port k's high-water mark as "raster->pseq 2/4" (the most items it held at
 * once over the run / its capacity, as stats.txt's gpu.port.*.max_count);
 * *full: it reached its capacity (a producer may have waited on it).  False
 * past the last port. */
bool view_port_item(const ulpsim *s, unsigned k, char *buf, size_t len, bool *full);
#define VIEW_PORTS_TITLE "ports (most held/capacity):"
extern const char *const VIEW_JOURNEY_UNIT_NAME[VIEW_JOURNEY_UNITS];

/* ---- text (view_text.c) ---- */

enum { VIEW_TEXT_CACHE = 512 };

typedef struct view_text_entry {
	char s[128];
	uint32_t rgba;
	int font;
	SDL_Texture *tex;
	int w, h;
	uint64_t used;
} view_text_entry;

typedef struct view_text {
	TTF_Font *mono, *sans, *bold;
	int line_h;                          /* height of a mono line */
	int char_w;
	view_text_entry cache[VIEW_TEXT_CACHE];
	uint64_t frame;
} view_text;

enum { VIEW_FONT_MONO, VIEW_FONT_SANS, VIEW_FONT_BOLD };

bool view_text_init(view_text *t, int px, char *err, size_t errlen);
void view_text_fini(view_text *t);
/* Draws s at (x, y) (top-left); returns its width in pixels. */
int view_text_draw(view_text *t, SDL_Renderer *r, int font, int x, int y, SDL_Color c, const char *s);

/* ---- the viewer ---- */

/* A program as the hardware runs it, loaded for one draw (view_source.c). */
typedef struct view_prog {
	char *text;
	unsigned draw;
	bool loaded;
	char err[256];
} view_prog;

typedef struct view_rect { int x, y, w, h; } view_rect;

typedef struct viewer {
	ulpsim *sim;
	view_model m;
	bool ready;                          /* the run finished and the model is built */
	char run_err[512];
	SDL_Renderer *r;
	SDL_Texture *img_tex;
	view_text text;
	int w, h;                            /* output size */
	view_rect pane_img, pane_stats, pane_journey, pane_tl, pane_status;
	/* render target view */
	double img_zoom, img_ox, img_oy;      /* screen = pane + offset + pixel * zoom */
	bool img_fitted;
	int mouse_x, mouse_y;
	bool drag_img, drag_tl;
	int drag_x, drag_y;
	double drag_ox, drag_oy;
	/* timeline view */
	double tl_c0, tl_cpp;                /* first visible cycle, cycles per pixel */
	bool tl_fitted;
	unsigned sel_lane;
	uint64_t cursor;
	bool playing;
	double play_acc;
	/* the frame at the cursor (ulpsim_image_at) in img_tex */
	uint8_t *frame;
	uint64_t frame_cycle;
	bool frame_valid, frame_final;       /* frame_final: showing the final image instead */
	char frame_why[200];
	/* selection */
	view_journey journey;
	bool have_sel;
	int journey_scroll;                  /* first line shown in the journey panel */
	/* input */
	char prompt[24];
	bool prompt_on;
	bool help;
	bool source;                         /* the programs overlay (S) */
	view_prog prog[2];                   /* as run: the PICA200 program, the fragment program */
	char msg[160];
	bool quit;
} viewer;

/* view_ui.c */
void view_layout(viewer *v);
void view_draw(viewer *v, uint64_t progress_cycle, uint64_t progress_events);
void view_handle_event(viewer *v, const SDL_Event *e);
void view_tick(viewer *v, double dt);
void view_select_pixel(viewer *v, uint32_t x, uint32_t y);

/* view_source.c: the programs overlay.  Its focus: the draw under the
 * cursor, the side the selected lane belongs to, and the lines of the
 * instruction (PICA200 pc) or EXEC (Tegra) the lane holds at the cursor. */
typedef struct view_focus {
	unsigned draw;
	bool vertex;
	const char *source;                  /* the TGSI of that side (NULL: none) */
	const char *run, *run_err;           /* the program as run, or why not */
	bool have_hl;
	uint32_t item;                       /* the pc or the EXEC */
	unsigned hl_first, hl_last;          /* 0-based lines of run */
} view_focus;
void view_source_draw(viewer *v);
/* One line for --keys S in headless mode: what the overlay highlights. */
void view_source_print(viewer *v, FILE *out);

/* view_image.c */
bool view_image_upload(viewer *v);
void view_image_fit(viewer *v);
void view_image_draw(viewer *v);
bool view_image_pixel_at(const viewer *v, int sx, int sy, uint32_t *x, uint32_t *y);
void view_image_zoom(viewer *v, int sx, int sy, double factor);

/* view_timeline.c */
void view_timeline_fit(viewer *v);
void view_timeline_draw(viewer *v);
void view_timeline_zoom(viewer *v, int sx, double factor);
/* The lane / cycle under a screen point in the timeline pane. */
bool view_timeline_hit(const viewer *v, int sx, int sy, int *lane, uint64_t *cycle);
SDL_Color view_act_color(uint8_t act);
void view_timeline_keep_cursor_visible(viewer *v);
void view_timeline_center(viewer *v);

void view_fill(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c);
void view_frame(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c);

#endif
