/* Layout, the stats and journey panels, the status bar, the help overlay,
 * and the keys and mouse. */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const SDL_Color LABEL = { 220, 220, 220, 255 }, DIM = { 150, 150, 160, 255 },
                       HEAD = { 255, 255, 255, 255 }, PANEL = { 24, 24, 30, 255 },
                       BORDER = { 70, 70, 80, 255 }, WARN = { 255, 170, 60, 255 },
                       BG = { 14, 14, 18, 255 };

void view_fill(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c)
{
	SDL_Rect rc = { x, y, w, h };
	SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
	SDL_RenderFillRect(r, &rc);
}

void view_frame(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c)
{
	SDL_Rect rc = { x, y, w, h };
	SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
	SDL_RenderDrawRect(r, &rc);
}

/* Lines of the statistics pane for the ports' high-water marks. */
enum { VIEW_PORT_LINES = 3 };

void view_layout(viewer *v)
{
	int status = v->text.line_h + 8;
	int top = (v->h - status) * 52 / 100;
	int img_w = v->w * 36 / 100;
	v->pane_img = (view_rect){ 0, 0, img_w, top };
	/* the statistics take what their lines need: title, three lines, the
	 * ports, lane rows, key */
	int rows = v->ready ? (int)(v->m.nlanes + 1) / 2 : 6;
	int stats_h = (rows + 6 + VIEW_PORT_LINES) * v->text.line_h + 4;
	if (stats_h > top - 5 * v->text.line_h)
		stats_h = top - 5 * v->text.line_h;
	v->pane_stats = (view_rect){ img_w, 0, v->w - img_w, stats_h };
	v->pane_journey = (view_rect){ img_w, stats_h, v->w - img_w, top - stats_h };
	v->pane_tl = (view_rect){ 0, top, v->w, v->h - status - top };
	v->pane_status = (view_rect){ 0, v->h - status, v->w, status };
	if (v->ready && v->img_fitted)
		view_image_fit(v);
	if (v->ready && v->tl_fitted)
		view_timeline_fit(v);
}

static void view_set_cursor(viewer *v, uint64_t cycle)
{
	if (!v->ready)
		return;
	v->cursor = cycle < v->m.end ? cycle : v->m.end - 1;
	view_timeline_keep_cursor_visible(v);
}

void view_select_pixel(viewer *v, uint32_t x, uint32_t y)
{
	if (!v->ready)
		return;
	view_journey_find(&v->journey, &v->m, v->sim, x, y);
	v->have_sel = true;
	v->journey_scroll = 0;
}

/* ---- panels ---- */

/* The colour key of the timeline: one swatch per activity. */
static void draw_legend(viewer *v, int x, int y, int max_x)
{
	int lh = v->text.line_h;
	for (unsigned a = 0; a < 16; a++) {
		const char *name = ulpsim_activity_name((uint8_t)a);
		if (!strcmp(name, "?"))
			break;
		if (!strncmp(name, "stall:", 6))
			name += 6;
		int w = v->text.char_w * (int)strlen(name) + lh + 10;
		if (x + w > max_x)
			break;
		view_fill(v->r, x, y + 3, lh - 6, lh - 6, view_act_color((uint8_t)a));
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x + lh - 2, y, DIM, name);
		x += w;
	}
}


/* The ports' high-water marks, flowing over VIEW_PORT_LINES lines; a port
 * that reached its capacity in the warning colour.  Returns the next y. */
static int draw_ports(viewer *v, int x0, int y, int max_x)
{
	int lh = v->text.line_h, x = x0, line = 0;
	x += view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, DIM, VIEW_PORTS_TITLE);
	char item[96];
	bool full;
	for (unsigned k = 0; view_port_item(v->sim, k, item, sizeof item, &full); k++) {
		int w = v->text.char_w * ((int)strlen(item) + 1);
		if (x + w > max_x) {
			if (++line == VIEW_PORT_LINES)
				break;
			x = x0 + 2 * v->text.char_w;
			y += lh;
		}
		x += v->text.char_w + view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x + v->text.char_w, y,
		                                     full ? WARN : LABEL, item);
	}
	return y + lh;
}

static void draw_stats(viewer *v)
{
	const view_rect *p = &v->pane_stats;
	view_fill(v->r, p->x, p->y, p->w, p->h, PANEL);
	view_frame(v->r, p->x, p->y, p->w, p->h, BORDER);
	int x = p->x + 8, y = p->y + 3, lh = v->text.line_h;
	view_text_draw(&v->text, v->r, VIEW_FONT_BOLD, x, y, HEAD, "statistics");
	y += lh + 2;
	if (!v->ready)
		return;
	const ulpsim_summary *s = &v->m.sum;
	char buf[192];
	snprintf(buf, sizeof buf, "trace %s   cycles %llu (vertex %llu, fragment %llu)",
	         ulpsim_trace_name(v->sim), (unsigned long long)s->cycles,
	         (unsigned long long)s->vertex_cycles, (unsigned long long)s->fragment_cycles);
	view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, LABEL, buf);
	y += lh;
	snprintf(buf, sizeof buf, "draws %llu  vertices %llu  triangles %llu  fragments %llu",
	         (unsigned long long)s->draws, (unsigned long long)s->vertices,
	         (unsigned long long)s->triangles, (unsigned long long)s->fragments);
	view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, LABEL, buf);
	y += lh;
	snprintf(buf, sizeof buf, "events %llu  dropped %llu%s", (unsigned long long)s->events,
	         (unsigned long long)s->events_dropped,
	         s->events_dropped ? "  (the timeline is cut short)" : "");
	int ew = view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, s->events_dropped ? WARN : LABEL, buf);
	if (s->writes_dropped)
		snprintf(buf, sizeof buf, "   pixel writes %llu, %llu dropped: no frames from cycle %llu",
		         (unsigned long long)s->writes, (unsigned long long)s->writes_dropped,
		         (unsigned long long)s->writes_cut_cycle);
	else
		snprintf(buf, sizeof buf, "   pixel writes %llu", (unsigned long long)s->writes);
	view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x + ew, y, s->writes_dropped ? WARN : LABEL, buf);
	y += lh;
	y = draw_ports(v, x, y, p->x + p->w - 8) + 2;
	/* utilisation per lane, from the activity spans, in two columns */
	unsigned rows = (v->m.nlanes + 1) / 2;
	int colw = (p->w - 16) / 2;
	double total = (double)v->m.end;
	for (unsigned k = 0; k < v->m.nlanes; k++) {
		const view_lane *l = &v->m.lane[k];
		int cx = x + (int)(k / rows) * colw, cy = y + (int)(k % rows) * lh;
		if (cy + lh > p->y + p->h - lh - 3)
			continue;                          /* no room: the key stays readable */
		double b = 100.0 * (double)l->busy / total, st = 100.0 * (double)l->stall / total;
		snprintf(buf, sizeof buf, "%-8.8s busy %5.1f%% stall %5.1f%%", l->name, b, st);
		int tw = view_text_draw(&v->text, v->r, VIEW_FONT_MONO, cx, cy, LABEL, buf);
		int bar_w = colw - tw - 16;
		if (bar_w > 20) {
			int bx = cx + tw + 6, bh = lh - 6;
			view_fill(v->r, bx, cy + 3, bar_w, bh, view_act_color(ULPSIM_ACT_IDLE));
			int wb = (int)(bar_w * b / 100), ws = (int)(bar_w * st / 100);
			view_fill(v->r, bx, cy + 3, wb, bh, view_act_color(ULPSIM_ACT_BUSY));
			view_fill(v->r, bx + wb, cy + 3, ws, bh, view_act_color(ULPSIM_ACT_STALL));
		}
	}
	draw_legend(v, x, p->y + p->h - lh - 3, p->x + p->w - 8);
}

static void draw_journey(viewer *v)
{
	const view_rect *p = &v->pane_journey;
	view_fill(v->r, p->x, p->y, p->w, p->h, PANEL);
	view_frame(v->r, p->x, p->y, p->w, p->h, BORDER);
	int x = p->x + 8, y = p->y + 3, lh = v->text.line_h;
	view_text_draw(&v->text, v->r, VIEW_FONT_BOLD, x, y, HEAD, "a pixel's journey");
	y += lh + 2;
	if (!v->have_sel) {
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, DIM,
		               "click a pixel of the render target (or --select X,Y)");
		return;
	}
	_Static_assert(VIEW_JOURNEY_LINES * VIEW_LINE <= 64 * 1024, "the lines fit on the stack");
	char lines[VIEW_JOURNEY_LINES][VIEW_LINE];
	unsigned n = view_journey_lines(&v->journey, lines, VIEW_JOURNEY_LINES, true);
	int max_chars = (p->w - 16) / (v->text.char_w ? v->text.char_w : 7);
	if (max_chars < 20)
		max_chars = 20;
	if (v->journey_scroll > (int)n - 1)
		v->journey_scroll = n ? (int)n - 1 : 0;
	if (v->journey_scroll < 0)
		v->journey_scroll = 0;
	const unsigned first = (unsigned)v->journey_scroll;
	for (unsigned i = first; i < n && y + lh <= p->y + p->h; i++) {
		if (y + 2 * lh > p->y + p->h && i + 1 < n) {    /* the last row: say what is below */
			char more[96];
			snprintf(more, sizeof more, "... %u more lines (wheel scrolls; --select prints them all)", n - i);
			view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, DIM, more);
			break;
		}
		/* long lines (the reasons) wrap at a space */
		const char *s = lines[i];
		while (*s && y + lh <= p->y + p->h) {
			char part[VIEW_LINE];
			size_t len = strlen(s), take = len;
			if ((int)len > max_chars) {
				take = (size_t)max_chars;
				while (take > 1 && s[take] != ' ')
					take--;
				if (take <= 1)
					take = (size_t)max_chars;
			}
			memcpy(part, s, take);
			part[take] = 0;
			view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y,
			               !strncmp(lines[i], "EXEC ", 5) && v->journey.valid ? HEAD : LABEL,
			               part);
			y += lh;
			s += take;
			while (*s == ' ')
				s++;
		}
	}
}

static void draw_status(viewer *v, uint64_t pc, uint64_t pe)
{
	const view_rect *p = &v->pane_status;
	view_fill(v->r, p->x, p->y, p->w, p->h, BG);
	char buf[320];
	int x = p->x + 8, y = p->y + 4;
	if (!v->ready) {
		if (v->run_err[0])
			snprintf(buf, sizeof buf, "replay failed: %.200s", v->run_err);
		else
			snprintf(buf, sizeof buf, "replaying ...  simulated cycle %llu, %llu events recorded",
			         (unsigned long long)pc, (unsigned long long)pe);
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, v->run_err[0] ? WARN : LABEL, buf);
		return;
	}
	const view_lane *l = v->m.nlanes ? &v->m.lane[v->sel_lane] : NULL;
	char item[64] = "";
	uint32_t id, arg;
	if (l && view_lane_item_at(&v->m, l, v->cursor, &id, &arg))
		snprintf(item, sizeof item, l->tegra ? "  quad %u EXEC %u" : "  item %u pc %u", id, arg);
	snprintf(buf, sizeof buf, "%s cycle %llu / %llu   %s: %s%s", v->playing ? ">" : "||",
	         (unsigned long long)v->cursor, (unsigned long long)v->m.end, l ? l->name : "-",
	         l ? ulpsim_activity_name(view_lane_act_at(l, v->cursor)) : "-", item);
	x += view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, LABEL, buf) + 20;
	if (v->prompt_on) {
		snprintf(buf, sizeof buf, "go to cycle: %s_", v->prompt);
		x += view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, WARN, buf) + 20;
	} else if (v->msg[0]) {
		x += view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, WARN, v->msg) + 20;
	}
	view_text_draw(&v->text, v->r, VIEW_FONT_MONO, p->w - v->text.char_w * 10, y, DIM, "F1: help");
}

static const char *const HELP[] = {
	"ulpsim-view: keys and mouse",
	"",
	"Space        run / pause (the cycle cursor moves through the run)",
	"Right  .     step one cycle        Left  ,     one cycle back",
	"N            next event on the selected lane   P  previous",
	"D            next draw (new pass or batch, or a long gap)   Shift+D  previous",
	"0-9 Enter    run to cycle N (type the digits; G opens the prompt; Esc cancels)",
	"Up  Down     select the lane",
	"+  -         zoom the timeline in / out    (wheel over the timeline too)",
	"Home  End    cursor to the first / last cycle",
	"C            centre the timeline on the cursor",
	"J            cursor to the selected quad's first cycle in PSEQ",
	"E  Shift+E   step one EXEC of the selected quad (its next / previous PSEQ entry)",
	"F            fit the render target and the timeline",
	"S            the programs of the draw at the cursor: TGSI and as run, with the",
	"             pc (vsh lanes) or EXEC (Tegra lanes) at the cursor highlighted",
	"F1  H        this help            Q  Esc     quit",
	"Mouse: wheel zooms, drag pans (render target and timeline);",
	"       click a pixel: its journey; click the timeline: cursor and lane.",
	"Wheel over the journey scrolls it.",
	"",
	"Stepping moves the cycle cursor through the RECORDED run: the replay ran",
	"to the end first, logging every colour write; the render target shows",
	"the frame as it stood at the cursor, rebuilt from that log.",
};

static void draw_help(viewer *v)
{
	unsigned n = sizeof HELP / sizeof HELP[0];
	int lh = v->text.line_h, w = v->text.char_w * 80 + 24, h = (int)n * lh + 20;
	int x = (v->w - w) / 2, y = (v->h - h) / 2;
	if (SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_BLEND) == 0) {
		view_fill(v->r, 0, 0, v->w, v->h, (SDL_Color){ 0, 0, 0, 140 });
		SDL_SetRenderDrawBlendMode(v->r, SDL_BLENDMODE_NONE);
	}
	view_fill(v->r, x, y, w, h, (SDL_Color){ 30, 30, 40, 255 });
	view_frame(v->r, x, y, w, h, (SDL_Color){ 0, 200, 255, 255 });
	for (unsigned i = 0; i < n; i++)
		view_text_draw(&v->text, v->r, i ? VIEW_FONT_MONO : VIEW_FONT_BOLD, x + 12,
		               y + 10 + (int)i * lh, i ? LABEL : HEAD, HELP[i]);
}

void view_draw(viewer *v, uint64_t progress_cycle, uint64_t progress_events)
{
	v->text.frame++;
	SDL_SetRenderDrawColor(v->r, BG.r, BG.g, BG.b, 255);
	SDL_RenderClear(v->r);
	view_image_draw(v);
	draw_stats(v);
	draw_journey(v);
	view_timeline_draw(v);
	draw_status(v, progress_cycle, progress_events);
	if (v->source && v->ready)
		view_source_draw(v);
	if (v->help)
		draw_help(v);
}

/* ---- input ---- */

static void step_lane_event(viewer *v, int dir)
{
	uint64_t c;
	if (v->m.nlanes && view_lane_next_event(&v->m, &v->m.lane[v->sel_lane], v->cursor, dir, &c))
		view_set_cursor(v, c);
	else
		snprintf(v->msg, sizeof v->msg, "no %s event on %s", dir > 0 ? "later" : "earlier",
		         v->m.nlanes ? v->m.lane[v->sel_lane].name : "-");
}

/* E / Shift+E: the cursor to the selected quad's next (previous) EXEC, the
 * cycle it enters PSEQ for it. */
static void step_exec(viewer *v, int dir)
{
	if (!v->have_sel || !v->journey.valid) {
		snprintf(v->msg, sizeof v->msg, "select a pixel with a journey first");
		return;
	}
	const view_journey *j = &v->journey;
	int best = -1;
	for (unsigned e = 0; e < j->nexec && e < VIEW_MAX_EXEC; e++) {
		uint64_t c = j->in[e][0];
		if (c == UINT64_MAX || (dir > 0 ? c <= v->cursor : c >= v->cursor))
			continue;
		if (best < 0 || (dir > 0 ? c < j->in[best][0] : c > j->in[best][0]))
			best = (int)e;
	}
	if (best < 0) {
		snprintf(v->msg, sizeof v->msg, "no %s EXEC of quad %u", dir > 0 ? "later" : "earlier", j->q.quad);
		return;
	}
	view_set_cursor(v, j->in[best][0]);
	snprintf(v->msg, sizeof v->msg, "quad %u EXEC %d", j->q.quad, best);
}

static void step_draw(viewer *v, int dir)
{
	for (size_t i = 0; i < v->m.nmark; i++) {
		size_t k = dir > 0 ? i : v->m.nmark - 1 - i;
		if ((dir > 0 && v->m.mark[k] > v->cursor) || (dir < 0 && v->m.mark[k] < v->cursor)) {
			view_set_cursor(v, v->m.mark[k]);
			return;
		}
	}
	snprintf(v->msg, sizeof v->msg, "no %s draw", dir > 0 ? "later" : "earlier");
}

static void key(viewer *v, const SDL_KeyboardEvent *k)
{
	SDL_Keycode c = k->keysym.sym;
	bool shift = (k->keysym.mod & KMOD_SHIFT) != 0;
	v->msg[0] = 0;
	if (c == SDLK_F1 || (c == SDLK_h && !v->prompt_on)) {
		v->help = !v->help;
		return;
	}
	if (v->prompt_on || (c >= SDLK_0 && c <= SDLK_9) || (c >= SDLK_KP_1 && c <= SDLK_KP_0)) {
		size_t n = strlen(v->prompt);
		int digit = c >= SDLK_0 && c <= SDLK_9 ? (int)(c - SDLK_0)
		          : c == SDLK_KP_0 ? 0 : c >= SDLK_KP_1 && c <= SDLK_KP_9 ? (int)(c - SDLK_KP_1) + 1 : -1;
		if (digit >= 0) {
			v->prompt_on = true;
			if (n + 1 < sizeof v->prompt) {
				v->prompt[n] = (char)('0' + digit);
				v->prompt[n + 1] = 0;
			}
			return;
		}
		if (c == SDLK_BACKSPACE) {
			if (n)
				v->prompt[n - 1] = 0;
			return;
		}
		if (c == SDLK_RETURN || c == SDLK_KP_ENTER) {
			if (n) {
				uint64_t cyc = strtoull(v->prompt, NULL, 10);
				view_set_cursor(v, cyc);
				if (cyc >= v->m.end)
					snprintf(v->msg, sizeof v->msg, "the run ends at cycle %llu",
					         (unsigned long long)(v->m.end - 1));
			}
			v->prompt_on = false;
			v->prompt[0] = 0;
			return;
		}
		if (c == SDLK_ESCAPE) {
			v->prompt_on = false;
			v->prompt[0] = 0;
			return;
		}
		if (v->prompt_on)
			return;
	}
	if (c == SDLK_ESCAPE && (v->help || v->source)) {
		v->help = v->source = false;
		return;
	}
	switch (c) {
	case SDLK_q: case SDLK_ESCAPE: v->quit = true; break;
	case SDLK_SPACE: v->playing = !v->playing; v->play_acc = 0; break;
	case SDLK_RIGHT: case SDLK_PERIOD: view_set_cursor(v, v->cursor + 1); break;
	case SDLK_LEFT: case SDLK_COMMA: view_set_cursor(v, v->cursor ? v->cursor - 1 : 0); break;
	case SDLK_n: step_lane_event(v, shift ? -1 : 1); break;
	case SDLK_p: step_lane_event(v, -1); break;
	case SDLK_d: step_draw(v, shift ? -1 : 1); break;
	case SDLK_g: v->prompt_on = true; v->prompt[0] = 0; break;
	case SDLK_UP: if (v->sel_lane) v->sel_lane--; break;
	case SDLK_DOWN: if (v->sel_lane + 1 < v->m.nlanes) v->sel_lane++; break;
	case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS: view_timeline_zoom(v, -1, 0.5); break;
	case SDLK_MINUS: case SDLK_KP_MINUS: view_timeline_zoom(v, -1, 2.0); break;
	case SDLK_HOME: view_set_cursor(v, 0); break;
	case SDLK_END: view_set_cursor(v, v->m.end - 1); break;
	case SDLK_c: view_timeline_center(v); break;
	case SDLK_f: view_image_fit(v); view_timeline_fit(v); break;
	case SDLK_s: v->source = !v->source; break;
	case SDLK_e: step_exec(v, shift ? -1 : 1); break;
	case SDLK_j:
		if (v->have_sel && v->journey.valid && v->journey.in[0][0] != UINT64_MAX)
			view_set_cursor(v, v->journey.in[0][0]);
		else
			snprintf(v->msg, sizeof v->msg, "select a pixel with a journey first");
		break;
	default: break;
	}
}

void view_handle_event(viewer *v, const SDL_Event *e)
{
	switch (e->type) {
	case SDL_QUIT: v->quit = true; return;
	case SDL_WINDOWEVENT:
		if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
			v->w = e->window.data1;
			v->h = e->window.data2;
			view_layout(v);
		}
		return;
	case SDL_KEYDOWN:
		if (v->ready || e->key.keysym.sym == SDLK_q || e->key.keysym.sym == SDLK_ESCAPE ||
		    e->key.keysym.sym == SDLK_F1)
			key(v, &e->key);
		return;
	case SDL_MOUSEMOTION:
		v->mouse_x = e->motion.x;
		v->mouse_y = e->motion.y;
		if (v->drag_img) {
			v->img_ox = v->drag_ox + (e->motion.x - v->drag_x);
			v->img_oy = v->drag_oy + (e->motion.y - v->drag_y);
			v->img_fitted = false;
		} else if (v->drag_tl) {
			v->tl_c0 = v->drag_ox - (e->motion.x - v->drag_x) * v->tl_cpp;
			if (v->tl_c0 < 0)
				v->tl_c0 = 0;
			v->tl_fitted = false;
		}
		return;
	case SDL_MOUSEWHEEL: {
		if (!v->ready || !e->wheel.y)
			return;
		double f = e->wheel.y > 0 ? 1.25 : 0.8;
		int lane;
		uint64_t cyc;
		const view_rect *jp = &v->pane_journey;
		if (view_timeline_hit(v, v->mouse_x, v->mouse_y, &lane, &cyc))
			view_timeline_zoom(v, v->mouse_x, 1.0 / f);
		else if (v->mouse_x >= jp->x && v->mouse_y >= jp->y && v->mouse_x < jp->x + jp->w &&
		         v->mouse_y < jp->y + jp->h)
			v->journey_scroll += e->wheel.y > 0 ? -3 : 3;
		else
			view_image_zoom(v, v->mouse_x, v->mouse_y, f);
		return;
	}
	case SDL_MOUSEBUTTONDOWN:
		if (!v->ready || e->button.button != SDL_BUTTON_LEFT)
			return;
		v->drag_x = e->button.x;
		v->drag_y = e->button.y;
		if (view_timeline_hit(v, e->button.x, e->button.y, &(int){ 0 }, &(uint64_t){ 0 })) {
			v->drag_tl = true;
			v->drag_ox = v->tl_c0;
		} else {
			v->drag_img = true;
			v->drag_ox = v->img_ox;
			v->drag_oy = v->img_oy;
		}
		return;
	case SDL_MOUSEBUTTONUP: {
		if (!v->ready || e->button.button != SDL_BUTTON_LEFT)
			return;
		bool click = abs(e->button.x - v->drag_x) < 3 && abs(e->button.y - v->drag_y) < 3;
		bool was_img = v->drag_img, was_tl = v->drag_tl;
		v->drag_img = v->drag_tl = false;
		if (!click)
			return;
		if (was_tl) {
			v->tl_c0 = v->drag_ox;
			int lane;
			uint64_t cyc;
			if (view_timeline_hit(v, e->button.x, e->button.y, &lane, &cyc)) {
				v->cursor = cyc;
				if (lane >= 0)
					v->sel_lane = (unsigned)lane;
			}
		} else if (was_img) {
			v->img_ox = v->drag_ox;
			v->img_oy = v->drag_oy;
			uint32_t x, y;
			if (view_image_pixel_at(v, e->button.x, e->button.y, &x, &y))
				view_select_pixel(v, x, y);
		}
		return;
	}
	default: return;
	}
}

void view_tick(viewer *v, double dt)
{
	if (!v->ready || !v->playing)
		return;
	/* a visible window in about eight seconds, at least one cycle a frame */
	double rate = v->tl_cpp * (v->pane_tl.w > 0 ? v->pane_tl.w : 1) / 8.0;
	v->play_acc += rate * dt;
	uint64_t n = (uint64_t)v->play_acc;
	if (n < 1)
		n = 1;
	v->play_acc -= (double)n;
	if (v->play_acc < 0)
		v->play_acc = 0;
	if (v->cursor + n >= v->m.end) {
		view_set_cursor(v, v->m.end - 1);
		v->playing = false;
		return;
	}
	view_set_cursor(v, v->cursor + n);
}
