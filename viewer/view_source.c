/* The programs overlay (S): the shaders of the draw under the cycle cursor,
 * beside the program as the hardware runs it, with the instruction the
 * selected lane holds at the cursor highlighted.
 *
 *   a vertex lane (vfetch, vsh0..3):  vertex shader (TGSI) | PICA200 program
 *                                     (the pc of the item the lane holds)
 *   any other lane:                   fragment shader (TGSI) | fragment program
 *                                     in grate syntax (the EXEC of the quad
 *                                     the lane holds) */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const SDL_Color LABEL = { 220, 220, 220, 255 }, DIM = { 150, 150, 160, 255 },
                       HEAD = { 255, 255, 255, 255 }, HILITE = { 70, 60, 10, 255 },
                       HILITE_EDGE = { 255, 210, 0, 255 };

/* Line `line` (0-based) of text, or NULL. */
static const char *line_start(const char *text, unsigned line)
{
	for (const char *p = text; p; line--) {
		if (!line)
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The line of a PICA200 listing that holds the instruction at word address
 * pc: pica_disasm ends each instruction's line with "; AAA: WWWWWWWW". */
static bool view_source_pica_line(const char *text, uint32_t pc, unsigned *line)
{
	char tag[16];
	snprintf(tag, sizeof tag, "; %03x: ", pc);
	unsigned n = 0;
	for (const char *p = text; p && *p; n++) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *hit = strstr(p, tag);
		if (hit && hit < p + len) {
			*line = n;
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* The lines of EXEC number `exec` in grate syntax: from its "EXEC" line to
 * the ";" that ends it. */
static bool view_source_exec_lines(const char *text, uint32_t exec, unsigned *first, unsigned *last)
{
	unsigned n = 0, seen = 0;
	bool in = false;
	for (const char *p = text; p && *p; n++) {
		const char *end = strchr(p, '\n');
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		bool is_exec = !strncmp(q, "EXEC", 4) && (q[4] == '\n' || q[4] == 0 || q[4] == ' ' ||
		                                         q[4] == '\t' || q[4] == '\r');
		if (!in && is_exec && seen++ == exec) {
			*first = n;
			in = true;
		} else if (in && *q == ';') {
			*last = n;
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	if (in)
		*last = n ? n - 1 : 0;
	return in;
}

static bool vertex_lane(const view_lane *l)
{
	return !strncmp(l->name, "vsh", 3) || !strcmp(l->name, "vfetch");
}

/* The program as run of one side for a draw, cached. */
static const char *program(viewer *v, bool vertex, unsigned draw, const char **err)
{
	view_prog *c = &v->prog[vertex ? 0 : 1];
	if (!c->loaded || c->draw != draw) {
		free(c->text);
		c->err[0] = 0;
		c->text = vertex ? ulpsim_vertex_pica(v->sim, draw, c->err, sizeof c->err)
		                 : ulpsim_fragment_grate(v->sim, draw, c->err, sizeof c->err);
		c->draw = draw;
		c->loaded = true;
	}
	*err = c->err[0] ? c->err : NULL;
	return c->text;
}

static void view_source_focus(viewer *v, view_focus *f)
{
	memset(f, 0, sizeof *f);
	int d = ulpsim_draw_at(v->sim, v->cursor);
	f->draw = d >= 0 ? (unsigned)d : v->have_sel && v->journey.valid ? v->journey.q.pass : 0;
	const view_lane *l = v->m.nlanes ? &v->m.lane[v->sel_lane] : NULL;
	f->vertex = l && vertex_lane(l);
	f->source = ulpsim_shader_text(v->sim, f->draw, !f->vertex);
	f->run = program(v, f->vertex, f->draw, &f->run_err);
	if (!f->vertex && f->source && f->run && !strcmp(f->source, f->run))
		f->source = NULL;                    /* a grate program: shown once */
	uint32_t id, arg;
	if (!l || !f->run || !view_lane_item_at(&v->m, l, v->cursor, &id, &arg))
		return;
	f->item = arg;
	if (f->vertex && strncmp(l->name, "vsh", 3) == 0 && strcmp(l->name, "vsh_out") != 0) {
		f->have_hl = view_source_pica_line(f->run, arg, &f->hl_first);
		f->hl_last = f->hl_first;
	} else if (l->tegra) {
		f->have_hl = view_source_exec_lines(f->run, arg, &f->hl_first, &f->hl_last);
	}
}

/* One column: the text with tabs expanded, clipped; lines [hl_first, hl_last]
 * highlighted and scrolled into view when hl. */
static void column(viewer *v, int x, int y, int w, int bottom, const char *title, const char *text,
                   const char *err, bool hl, unsigned hl_first, unsigned hl_last)
{
	int lh = v->text.line_h, max_chars = w / (v->text.char_w ? v->text.char_w : 7) - 1;
	view_text_draw(&v->text, v->r, VIEW_FONT_BOLD, x, y, HEAD, title);
	y += lh + 4;
	if (!text) {
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, DIM,
		               err ? err : "(no source: a binary shader, or no such draw)");
		return;
	}
	unsigned visible = bottom > y ? (unsigned)((bottom - y) / lh) : 0, top = 0;
	if (hl && visible && hl_last >= visible)
		top = hl_first > visible / 3 ? hl_first - visible / 3 : 0;
	char line[160];
	unsigned n = top;
	for (const char *p = line_start(text, top); p && *p && y + lh <= bottom; y += lh, n++) {
		int k = 0;
		for (; *p && *p != '\n'; p++) {
			if (*p == '\t') {
				do
					if (k < (int)sizeof line - 1 && k < max_chars)
						line[k++] = ' ';
				while (k % 4 && k < max_chars && k < (int)sizeof line - 1);
			} else if (k < (int)sizeof line - 1 && k < max_chars) {
				line[k++] = *p;
			}
		}
		line[k] = 0;
		if (*p == '\n')
			p++;
		if (hl && n >= hl_first && n <= hl_last) {
			view_fill(v->r, x - 4, y, w, lh, HILITE);
			view_fill(v->r, x - 4, y, 2, lh, HILITE_EDGE);
		}
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, x, y, LABEL, line);
	}
}

void view_source_draw(viewer *v)
{
	view_focus f;
	view_source_focus(v, &f);
	int x = 20, y = 20, w = v->w - 40, h = v->h - 40;
	view_fill(v->r, x, y, w, h, (SDL_Color){ 22, 22, 30, 255 });
	view_frame(v->r, x, y, w, h, (SDL_Color){ 0, 200, 255, 255 });
	SDL_Rect clip = { x + 1, y + 1, w - 2, h - 2 };
	SDL_RenderSetClipRect(v->r, &clip);
	char t[128];
	snprintf(t, sizeof t, "draw %u at cycle %llu: the %s side (select a %s lane for the %s side)",
	         f.draw, (unsigned long long)v->cursor, f.vertex ? "vertex" : "fragment",
	         f.vertex ? "Tegra" : "vsh", f.vertex ? "fragment" : "vertex");
	view_text_draw(&v->text, v->r, VIEW_FONT_SANS, x + 12, y + 8, DIM, t);
	int top = y + 8 + v->text.line_h + 6, bottom = y + h - 8;
	int cols = f.source || f.vertex ? 2 : 1, cw = (w - 24) / cols;
	if (cols == 2)
		column(v, x + 12, top, cw - 12, bottom, f.vertex ? "vertex shader (TGSI)" : "fragment shader (TGSI)",
		       f.source, NULL, false, 0, 0);
	if (f.vertex)
		snprintf(t, sizeof t, "PICA200 program as run%s", f.have_hl ? " (yellow: pc at the cursor)" : "");
	else
		snprintf(t, sizeof t, "fragment program as run (grate)%s",
		         f.have_hl ? " (yellow: EXEC at the cursor)" : "");
	column(v, x + 12 + (cols - 1) * cw, top, cw - 4, bottom, t, f.run, f.run_err, f.have_hl,
	       f.hl_first, f.hl_last);
	SDL_RenderSetClipRect(v->r, NULL);
}

void view_source_print(viewer *v, FILE *out)
{
	view_focus f;
	view_source_focus(v, &f);
	fprintf(out, "programs: draw %u, %s side", f.draw, f.vertex ? "vertex" : "fragment");
	if (!f.run) {
		fprintf(out, ", no program: %s\n", f.run_err ? f.run_err : "-");
		return;
	}
	if (!f.have_hl) {
		fprintf(out, ", nothing highlighted\n");
		return;
	}
	const char *p = line_start(f.run, f.hl_first);
	while (p && (*p == ' ' || *p == '\t'))
		p++;
	size_t len = p ? strcspn(p, "\n") : 0;
	fprintf(out, ", %s %u at lines %u-%u: %.*s\n", f.vertex ? "pc" : "EXEC", f.item, f.hl_first + 1,
	        f.hl_last + 1, (int)len, p ? p : "");
}
