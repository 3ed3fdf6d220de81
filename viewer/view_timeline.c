/* The timeline pane: one lane per unit, each pixel column coloured by what
 * the unit did in the cycles under it (busy, stalled with a colour per
 * cause, idle).  A column costs two binary searches in the lane's spans
 * (view_model.c), so a frame does not depend on the number of events. */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const SDL_Color IDLE = { 38, 38, 46, 255 }, BUSY = { 60, 180, 75, 255 },
                       LABEL = { 220, 220, 220, 255 }, DIM = { 140, 140, 150, 255 },
                       PANEL = { 24, 24, 30, 255 }, BORDER = { 70, 70, 80, 255 },
                       CURSOR = { 255, 255, 255, 255 }, MARK = { 0, 200, 255, 255 },
                       SELBG = { 55, 55, 90, 255 }, JOURNEY = { 255, 220, 0, 255 };
/* stall causes in sim/core/stall_causes.def order */
static const SDL_Color STALL[] = {
	{ 230, 60, 60, 255 },   /* output_full */
	{ 245, 130, 48, 255 },  /* dependency */
	{ 170, 70, 210, 255 },  /* flow */
	{ 240, 50, 230, 255 },  /* hazard */
	{ 255, 225, 25, 255 },  /* window */
	{ 0, 130, 200, 255 },   /* memory */
};

SDL_Color view_act_color(uint8_t act)
{
	if (act == ULPSIM_ACT_IDLE)
		return IDLE;
	if (act == ULPSIM_ACT_BUSY)
		return BUSY;
	unsigned k = (unsigned)(act - ULPSIM_ACT_STALL);
	return k < sizeof STALL / sizeof STALL[0] ? STALL[k] : (SDL_Color){ 200, 200, 200, 255 };
}

static int label_w(const viewer *v) { return v->text.char_w * 9 + 12; }
static int header_h(const viewer *v) { return v->text.line_h + 8; }
static int data_w(const viewer *v) { return v->pane_tl.w - label_w(v) - 6; }

static int lane_h(const viewer *v)
{
	int n = v->m.nlanes ? (int)v->m.nlanes : 1;
	int h = (v->pane_tl.h - header_h(v) - 4) / n;
	return h > 28 ? 28 : h < 4 ? 4 : h;
}

void view_timeline_fit(viewer *v)
{
	int w = data_w(v);
	v->tl_c0 = 0;
	v->tl_cpp = (double)(v->m.end ? v->m.end : 1) / (w > 1 ? w : 1);
	v->tl_fitted = true;
}

void view_timeline_zoom(viewer *v, int sx, double factor)
{
	int x0 = v->pane_tl.x + label_w(v);
	double col, at;
	if (sx >= x0) {                          /* around the pointer */
		col = sx - x0;
		at = v->tl_c0 + col * v->tl_cpp;
	} else {                                 /* keys: around the cursor */
		at = (double)v->cursor;
		col = (at - v->tl_c0) / v->tl_cpp;
		if (col < 0 || col > data_w(v))
			col = data_w(v) / 2.0;
	}
	double cpp = v->tl_cpp * factor;
	double max_cpp = (double)v->m.end / 16.0 + 1;
	cpp = cpp < 1.0 / 32 ? 1.0 / 32 : cpp > max_cpp ? max_cpp : cpp;
	v->tl_cpp = cpp;
	v->tl_c0 = at - col * cpp;
	if (v->tl_c0 < 0)
		v->tl_c0 = 0;
	v->tl_fitted = false;
}

void view_timeline_keep_cursor_visible(viewer *v)
{
	double span = data_w(v) * v->tl_cpp;
	if (v->cursor < v->tl_c0 || v->cursor >= v->tl_c0 + span) {
		v->tl_c0 = v->cursor - span / 4;
		if (v->tl_c0 < 0)
			v->tl_c0 = 0;
		v->tl_fitted = false;
	}
}

void view_timeline_center(viewer *v)
{
	v->tl_c0 = (double)v->cursor - data_w(v) * v->tl_cpp / 2;
	if (v->tl_c0 < 0)
		v->tl_c0 = 0;
	v->tl_fitted = false;
}

bool view_timeline_hit(const viewer *v, int sx, int sy, int *lane, uint64_t *cycle)
{
	const view_rect *p = &v->pane_tl;
	if (!v->ready || sx < p->x || sy < p->y || sx >= p->x + p->w || sy >= p->y + p->h)
		return false;
	int y0 = p->y + header_h(v), lh = lane_h(v);
	*lane = sy >= y0 ? (sy - y0) / lh : -1;
	if (*lane >= (int)v->m.nlanes)
		*lane = -1;
	double c = v->tl_c0 + (sx - p->x - label_w(v)) * v->tl_cpp;
	*cycle = c <= 0 ? 0 : c >= (double)v->m.end ? v->m.end - 1 : (uint64_t)c;
	return true;
}

/* A column's colour: busy, stalled (the cause under the column's middle,
 * else at its ends) and idle mixed by their share of the column's cycles,
 * so a column over an alternating pattern shows the mix, not whichever
 * phase it happens to hit. */
/* Busy and stalled cycles in [0, x), x fractional: a cycle counts pro rata. */
static void cumulative_at(const view_lane *l, double x, double *busy, double *stall)
{
	uint64_t i = (uint64_t)x, b, st;
	view_lane_range(l, 0, i, &b, &st);
	uint8_t act = view_lane_act_at(l, i);
	double part = x - (double)i;
	*busy = (double)b + (act == ULPSIM_ACT_BUSY ? part : 0);
	*stall = (double)st + (act >= ULPSIM_ACT_STALL ? part : 0);
}

static SDL_Color column_color(const view_lane *l, double ca, double cb)
{
	double b0, s0, b1, s1;
	cumulative_at(l, ca, &b0, &s0);
	cumulative_at(l, cb, &b1, &s1);
	double len = cb - ca, fb = (b1 - b0) / len, fs = (s1 - s0) / len;
	if (fb <= 0 && fs <= 0)
		return IDLE;
	fb = fb > 1 ? 1 : fb;
	fs = fs > 1 - fb ? 1 - fb : fs < 0 ? 0 : fs;
	uint64_t a = (uint64_t)ca, b = (uint64_t)cb > a ? (uint64_t)cb : a + 1;
	uint64_t stall = s1 > s0 ? 1 : 0;
	SDL_Color sc = IDLE;
	if (stall) {
		uint8_t act = view_lane_act_at(l, a + (b - a) / 2);
		if (act < ULPSIM_ACT_STALL)
			act = view_lane_act_at(l, a);
		if (act < ULPSIM_ACT_STALL)
			act = view_lane_act_at(l, b - 1);
		if (act < ULPSIM_ACT_STALL)
			act = ULPSIM_ACT_STALL;
		sc = view_act_color(act);
	}
	double fi = 1.0 - fb - fs;
	return (SDL_Color){ (Uint8)(BUSY.r * fb + sc.r * fs + IDLE.r * fi),
	                    (Uint8)(BUSY.g * fb + sc.g * fs + IDLE.g * fi),
	                    (Uint8)(BUSY.b * fb + sc.b * fs + IDLE.b * fi), 255 };
}

static int cycle_x(const viewer *v, double c)
{
	double col = floor((c - v->tl_c0) / v->tl_cpp);
	col = col < -100000 ? -100000 : col > 100000 ? 100000 : col;   /* off the pane: clamp */
	return v->pane_tl.x + label_w(v) + (int)col;
}

static void draw_axis(viewer *v, int x0, int y, int w)
{
	double span = w * v->tl_cpp, step = 1;
	for (unsigned k = 0; step / v->tl_cpp < 90; k++)
		step *= k % 3 == 1 ? 2.5 : 2;          /* 1, 2, 5, 10, 20, 50 ... */
	SDL_SetRenderDrawColor(v->r, DIM.r, DIM.g, DIM.b, 255);
	for (double c = ceil(v->tl_c0 / step) * step; c <= v->tl_c0 + span; c += step) {
		int x = cycle_x(v, c);
		SDL_RenderDrawLine(v->r, x, y + header_h(v) - 5, x, y + header_h(v) - 1);
		char buf[32];
		snprintf(buf, sizeof buf, "%.0f", c);
		if (x + 2 < x0 + w - 40)
			view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x + 2, y + 1, DIM, buf);
	}
	/* draw marks */
	SDL_SetRenderDrawColor(v->r, MARK.r, MARK.g, MARK.b, 255);
	for (size_t i = 0; i < v->m.nmark; i++) {
		double c = (double)v->m.mark[i];
		if (c < v->tl_c0 || c > v->tl_c0 + span)
			continue;
		int x = cycle_x(v, c);
		SDL_Rect tri = { x - 1, y + header_h(v) - 6, 3, 6 };
		SDL_RenderFillRect(v->r, &tri);
	}
}

/* Zoomed in: a tick where each item enters the lane, and its id when the
 * item is wide enough ("q12/1": quad 12, EXEC 1; "pc5": instruction at pc 5). */
static void draw_items(viewer *v, const view_lane *l, int y, int lh, int x_end)
{
	const view_model *m = &v->m;
	uint64_t c0 = v->tl_c0 > 16 ? (uint64_t)v->tl_c0 - 16 : 0;   /* items begun just before */
	double c1 = v->tl_c0 + (x_end - v->pane_tl.x - label_w(v)) * v->tl_cpp;
	const SDL_Color tick = { 10, 10, 14, 255 }, text = { 10, 10, 14, 255 };
	for (size_t i = view_lane_first_item(m, l, c0); i < l->nitem; i++) {
		const ulpsim_event *e = &m->ev[l->item[i]];
		if ((double)e->cycle > c1)
			break;
		if (e->kind != ULPSIM_EV_BEGIN)
			continue;
		int x = cycle_x(v, (double)e->cycle);
		view_fill(v->r, x, y + 1, 1, lh - 2, tick);
		/* the label's room: to its END or the next item's BEGIN (pipelined
		 * units overlap items), a few events on at most */
		uint64_t end = e->cycle + 1;
		bool have_end = false;
		for (size_t k = i + 1; k < l->nitem && k < i + 8; k++) {
			const ulpsim_event *f = &m->ev[l->item[k]];
			if (f->kind == ULPSIM_EV_BEGIN) {
				if (!have_end || f->cycle < end)
					end = f->cycle > e->cycle ? f->cycle : e->cycle;
				break;
			}
			if (!have_end && f->id == e->id) {
				end = f->cycle;
				have_end = true;
			}
		}
		char buf[32];
		if (l->tegra)
			snprintf(buf, sizeof buf, "q%u/%u", e->id, e->arg);
		else
			snprintf(buf, sizeof buf, "pc%u", e->arg);
		int room = cycle_x(v, (double)end) - x - 4;
		if (room >= v->text.char_w * (int)strlen(buf) && lh >= v->text.line_h)
			view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x + 3, y + (lh - v->text.line_h) / 2,
			               text, buf);
	}
}

void view_timeline_draw(viewer *v)
{
	const view_rect *p = &v->pane_tl;
	view_fill(v->r, p->x, p->y, p->w, p->h, PANEL);
	view_frame(v->r, p->x, p->y, p->w, p->h, BORDER);
	if (!v->ready) {
		view_text_draw(&v->text, v->r, VIEW_FONT_BOLD, p->x + 8, p->y + 4, LABEL, "timeline");
		return;
	}
	const int x0 = p->x + label_w(v), w = data_w(v), lh = lane_h(v), y0 = p->y + header_h(v);
	SDL_Rect clip = { p->x + 1, p->y + 1, p->w - 2, p->h - 2 };
	SDL_RenderSetClipRect(v->r, &clip);
	draw_axis(v, x0, p->y, w);
	for (unsigned k = 0; k < v->m.nlanes; k++) {
		const view_lane *l = &v->m.lane[k];
		int y = y0 + (int)k * lh;
		if (k == v->sel_lane)
			view_fill(v->r, p->x + 1, y, label_w(v) - 2, lh, SELBG);
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, p->x + 6, y + (lh - v->text.line_h) / 2,
		               k == v->sel_lane ? (SDL_Color){ 255, 255, 255, 255 } : LABEL, l->name);
		/* columns, merged into runs of one colour */
		int run_x = x0;
		SDL_Color run = IDLE;
		bool have = false;
		for (int col = 0; col <= w; col++) {
			SDL_Color c = PANEL;
			if (col < w) {
				double a = v->tl_c0 + col * v->tl_cpp, b = a + v->tl_cpp, end = (double)v->m.end;
				if (a < end)
					c = column_color(l, a, b < end ? b : end);
			}
			if (have && (col == w || memcmp(&c, &run, sizeof c) != 0)) {
				view_fill(v->r, run_x, y + 1, x0 + col - run_x, lh - 2, run);
				have = false;
			}
			if (!have) {
				run = c;
				run_x = x0 + col;
				have = true;
			}
		}
	}
	if (v->tl_cpp <= 0.5) {
		SDL_Rect data = { x0, p->y + 1, w, p->h - 2 };
		SDL_RenderSetClipRect(v->r, &data);
		for (unsigned k = 0; k < v->m.nlanes; k++)
			draw_items(v, &v->m.lane[k], y0 + (int)k * lh, lh, x0 + w);
		SDL_RenderSetClipRect(v->r, &clip);
	}
	/* the selected quad's passes, outlined on the Tegra lanes */
	if (v->have_sel && v->journey.valid) {
		for (unsigned k = 0; k < v->m.nlanes; k++)
			for (unsigned u = 0; u < VIEW_JOURNEY_UNITS; u++) {
				if (view_journey_unit(&v->journey, v->m.lane[k].name) != (int)u)
					continue;
				for (unsigned e = 0; e < v->journey.nexec; e++) {
					uint64_t a = v->journey.in[e][u], b = v->journey.out[e][u];
					if (a == UINT64_MAX)
						continue;
					if (b == UINT64_MAX || b <= a)
						b = a + 1;
					int xa = cycle_x(v, (double)a), xb = cycle_x(v, (double)b);
					if (xb - xa < 3)
						xb = xa + 3;
					view_frame(v->r, xa, y0 + (int)k * lh, xb - xa, lh, JOURNEY);
				}
			}
	}
	/* the cycle cursor */
	int cx = cycle_x(v, (double)v->cursor + (v->tl_cpp < 1 ? 0.5 : 0));
	if (cx >= x0 && cx < x0 + w) {
		SDL_SetRenderDrawColor(v->r, CURSOR.r, CURSOR.g, CURSOR.b, 255);
		SDL_RenderDrawLine(v->r, cx, p->y + 2, cx, y0 + (int)v->m.nlanes * lh);
	}
	SDL_RenderSetClipRect(v->r, NULL);
}
