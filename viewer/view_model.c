/* What the viewer computes once, after the run: per-lane activity spans with
 * prefix sums (a pixel column of the timeline is two binary searches, never
 * a walk over the events), the BEGIN/END events of each lane, draw marks,
 * and a quad's journey through the Tegra units. */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const VIEW_JOURNEY_UNIT_NAME[VIEW_JOURNEY_UNITS] = { "pseq", "mfu", "tex", "alu", "dw" };

/* A gap this long without any item starting begins a new draw mark. */
enum { VIEW_DRAW_GAP = 256 };

static bool push_span(view_lane *l, size_t *cap, uint64_t cycle, uint8_t act)
{
	if (l->nspan && l->span[l->nspan - 1].start == cycle) {
		l->span[l->nspan - 1].act = act;         /* several changes in one cycle: the last wins */
		if (l->nspan > 1 && l->span[l->nspan - 2].act == act)
			l->nspan--;
		return true;
	}
	if (l->nspan && l->span[l->nspan - 1].act == act)
		return true;
	if (l->nspan == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		view_span *p = realloc(l->span, n * sizeof *p);
		if (!p)
			return false;
		l->span = p;
		*cap = n;
	}
	l->span[l->nspan++] = (view_span){ .start = cycle, .act = act };
	return true;
}

static bool push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		uint64_t *p = realloc(*a, c * sizeof *p);
		if (!p)
			return false;
		*a = p;
		*cap = c;
	}
	(*a)[(*n)++] = v;
	return true;
}

/* Lanes are shown in the order work flows through the pipeline; Tegra 3's
 * GR3D block B (units named "<unit>_b") after block A. */
static const char *const PIPELINE_ORDER[] = { "vfetch", "vsh0", "vsh1", "vsh2", "vsh3", "vsh_out",
                                              "prim", "gsh", "clip", "setup", "raster", "zs", "pseq", "mfu", "tex", "alu", "dw",
                                              "raster_b", "zs_b", "pseq_b", "mfu_b", "tex_b", "alu_b", "dw_b" };

static unsigned pipeline_rank(const char *name, unsigned api_index)
{
	const unsigned n = sizeof PIPELINE_ORDER / sizeof PIPELINE_ORDER[0];
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(name, PIPELINE_ORDER[k]))
			return k;
	return n + api_index;                  /* unknown lanes after, as the API lists them */
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

bool view_model_build(view_model *m, const ulpsim *s, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	m->sum = ulpsim_get_summary(s);
	m->ev = ulpsim_events(s);
	m->nev = ulpsim_event_count(s);
	m->img = ulpsim_image(s, &m->img_w, &m->img_h);
	if (!m->img) {
		snprintf(err, errlen, "the run produced no image");
		return false;
	}
	if (m->nev > UINT32_MAX) {
		snprintf(err, errlen, "too many events (%zu)", m->nev);
		return false;
	}
	m->nlanes = ulpsim_lane_count(s);
	m->lane = calloc(m->nlanes ? m->nlanes : 1, sizeof *m->lane);
	m->lane_of = calloc(m->nlanes ? m->nlanes : 1, sizeof *m->lane_of);
	size_t *cap = calloc(m->nlanes ? m->nlanes : 1, sizeof *cap);
	size_t *icap = calloc(m->nlanes ? m->nlanes : 1, sizeof *icap);
	bool ok = m->lane && m->lane_of && cap && icap;
	for (unsigned a = 0; ok && a < m->nlanes; a++) {     /* rank sort: few lanes */
		unsigned ra = pipeline_rank(ulpsim_lane_name(s, a), a), pos = 0;
		for (unsigned b = 0; b < m->nlanes; b++)
			pos += pipeline_rank(ulpsim_lane_name(s, b), b) < ra;
		m->lane_of[a] = pos;
	}
	for (unsigned a = 0; ok && a < m->nlanes; a++) {
		unsigned k = m->lane_of[a];
		view_lane *l = &m->lane[k];
		snprintf(l->name, sizeof l->name, "%s", ulpsim_lane_name(s, a));
		for (unsigned u = 0; u < VIEW_JOURNEY_UNITS; u++) {
			const size_t n = strlen(VIEW_JOURNEY_UNIT_NAME[u]);   /* block B's "pseq_b" too */
			l->tegra |= !strncmp(l->name, VIEW_JOURNEY_UNIT_NAME[u], n) &&
			            (!l->name[n] || !strcmp(l->name + n, "_b"));
		}
		ok = push_span(l, &cap[k], 0, ULPSIM_ACT_IDLE);
	}
	m->end = m->sum.cycles;
	size_t mcap = 0;
	uint64_t last_begin = 0;
	bool any_begin = false;
	int pseq = -1;
	for (unsigned a = 0; ok && a < m->nlanes; a++)
		if (!strcmp(ulpsim_lane_name(s, a), "pseq"))
			pseq = (int)a;
	for (size_t i = 0; ok && i < m->nev; i++) {
		const ulpsim_event *e = &m->ev[i];
		if (e->cycle + 1 > m->end)
			m->end = e->cycle + 1;
		if (e->lane >= m->nlanes)
			continue;
		const unsigned k = m->lane_of[e->lane];
		view_lane *l = &m->lane[k];
		if (e->kind == ULPSIM_EV_ACTIVITY) {
			ok = push_span(l, &cap[k], e->cycle, (uint8_t)e->arg);
			continue;
		}
		if (e->kind != ULPSIM_EV_BEGIN && e->kind != ULPSIM_EV_END)
			continue;
		if (l->nitem == icap[k]) {
			size_t n = icap[k] ? icap[k] * 2 : 64;
			uint32_t *p = realloc(l->item, n * sizeof *p);
			if (!(ok = p != NULL))
				break;
			l->item = p;
			icap[k] = n;
		}
		l->item[l->nitem++] = (uint32_t)i;
		if (e->kind != ULPSIM_EV_BEGIN)
			continue;
		/* draw marks: a new fragment pass (quad 0, EXEC 0 entering PSEQ), a
		 * new vertex batch (item 0 on a vertex shader unit), a long gap */
		bool mark = !any_begin || e->cycle > last_begin + VIEW_DRAW_GAP ||
		            ((int)e->lane == pseq && e->id == 0 && e->arg == 0) ||
		            (!strncmp(l->name, "vsh", 3) && e->id == 0);
		if (mark)
			ok = push_u64(&m->mark, &m->nmark, &mcap, e->cycle);
		any_begin = true;
		last_begin = e->cycle;
	}
	if (m->end == 0)
		m->end = 1;
	/* prefix sums */
	for (unsigned k = 0; ok && k < m->nlanes; k++) {
		view_lane *l = &m->lane[k];
		uint64_t busy = 0, stall = 0;
		for (size_t i = 0; i < l->nspan; i++) {
			view_span *sp = &l->span[i];
			uint64_t stop = i + 1 < l->nspan ? l->span[i + 1].start : m->end;
			uint64_t len = stop > sp->start ? stop - sp->start : 0;
			sp->busy_before = busy;
			sp->stall_before = stall;
			if (sp->act == ULPSIM_ACT_BUSY)
				busy += len;
			else if (sp->act >= ULPSIM_ACT_STALL)
				stall += len;
		}
		l->busy = busy;
		l->stall = stall;
	}
	if (ok && m->nmark) {
		qsort(m->mark, m->nmark, sizeof *m->mark, cmp_u64);
		size_t n = 1;
		for (size_t i = 1; i < m->nmark; i++)
			if (m->mark[i] != m->mark[n - 1])
				m->mark[n++] = m->mark[i];
		m->nmark = n;
	}
	free(cap);
	free(icap);
	if (!ok) {
		view_model_free(m);
		snprintf(err, errlen, "out of memory building the timeline");
	}
	return ok;
}

void view_model_free(view_model *m)
{
	for (unsigned k = 0; m->lane && k < m->nlanes; k++) {
		free(m->lane[k].span);
		free(m->lane[k].item);
	}
	free(m->lane);
	free(m->lane_of);
	free(m->mark);
	memset(m, 0, sizeof *m);
}

/* The last span starting at or before cycle. */
static size_t span_at(const view_lane *l, uint64_t cycle)
{
	size_t lo = 0, hi = l->nspan;          /* span[0].start == 0 */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->span[mid].start <= cycle)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint8_t view_lane_act_at(const view_lane *l, uint64_t cycle)
{
	return l->nspan ? l->span[span_at(l, cycle)].act : ULPSIM_ACT_IDLE;
}

static void cumulative(const view_lane *l, uint64_t c, uint64_t *busy, uint64_t *stall)
{
	const view_span *sp = &l->span[span_at(l, c)];
	*busy = sp->busy_before + (sp->act == ULPSIM_ACT_BUSY ? c - sp->start : 0);
	*stall = sp->stall_before + (sp->act >= ULPSIM_ACT_STALL ? c - sp->start : 0);
}

void view_lane_range(const view_lane *l, uint64_t a, uint64_t b, uint64_t *busy, uint64_t *stall)
{
	*busy = *stall = 0;
	if (!l->nspan || b <= a)
		return;
	uint64_t ba, sa, bb, sb;
	cumulative(l, a, &ba, &sa);
	cumulative(l, b, &bb, &sb);
	*busy = bb - ba;
	*stall = sb - sa;
}

/* Index into l->item of the first event with cycle > c (or nitem). */
static size_t item_after(const view_model *m, const view_lane *l, uint64_t c)
{
	size_t lo = 0, hi = l->nitem;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->ev[l->item[mid]].cycle <= c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t view_lane_first_item(const view_model *m, const view_lane *l, uint64_t cycle)
{
	return cycle ? item_after(m, l, cycle - 1) : 0;
}

bool view_lane_next_event(const view_model *m, const view_lane *l, uint64_t cycle, int dir,
                          uint64_t *out)
{
	if (dir > 0) {
		size_t i = item_after(m, l, cycle);
		if (i < l->nitem) {
			*out = m->ev[l->item[i]].cycle;
			return true;
		}
		/* lanes without items: the next activity change */
		size_t k = span_at(l, cycle);
		if (!l->nitem && k + 1 < l->nspan) {
			*out = l->span[k + 1].start;
			return true;
		}
		return false;
	}
	if (cycle == 0)
		return false;
	size_t i = item_after(m, l, cycle - 1);
	if (i > 0) {
		*out = m->ev[l->item[i - 1]].cycle;
		return true;
	}
	size_t k = span_at(l, cycle - 1);
	if (!l->nitem && l->nspan) {
		*out = l->span[k].start;
		return k > 0 || l->span[k].start < cycle;
	}
	return false;
}

bool view_lane_item_at(const view_model *m, const view_lane *l, uint64_t cycle,
                       uint32_t *id, uint32_t *arg)
{
	size_t i = item_after(m, l, cycle);
	if (i == 0)
		return false;
	const ulpsim_event *e = &m->ev[l->item[i - 1]];
	if (e->kind != ULPSIM_EV_BEGIN)
		return false;
	*id = e->id;
	*arg = e->arg;
	return true;
}

/* ---- a pixel's journey ---- */

int view_journey_unit(const view_journey *j, const char *lane)
{
	for (int u = 0; u < VIEW_JOURNEY_UNITS; u++) {
		const size_t n = strlen(VIEW_JOURNEY_UNIT_NAME[u]);
		if (!strncmp(lane, VIEW_JOURNEY_UNIT_NAME[u], n) && !strcmp(lane + n, j->q.block ? "_b" : ""))
			return u;
	}
	return -1;
}

void view_journey_find(view_journey *j, const view_model *m, ulpsim *s, uint32_t x, uint32_t y)
{
	memset(j, 0, sizeof *j);
	j->x = x;
	j->y = y;
	if (x >= m->img_w || y >= m->img_h) {
		snprintf(j->why, sizeof j->why, "pixel (%u, %u) is outside the %ux%u render target",
		         x, y, m->img_w, m->img_h);
		return;
	}
	memcpy(j->rgba, m->img + 4 * ((size_t)y * m->img_w + x), 4);
	if (!ulpsim_quad_at(s, x, y, &j->q, j->why, sizeof j->why))
		return;
	int unit_of_lane[256];
	for (unsigned k = 0; k < 256; k++)
		unit_of_lane[k] = -1;
	for (unsigned a = 0; a < m->nlanes && a < 256; a++)
		unit_of_lane[a] = view_journey_unit(j, m->lane[m->lane_of[a]].name);
	for (unsigned e = 0; e < VIEW_MAX_EXEC; e++)
		for (unsigned u = 0; u < VIEW_JOURNEY_UNITS; u++)
			j->in[e][u] = j->out[e][u] = UINT64_MAX;
	/* the first event of the pass, then only the pass's cycles */
	size_t lo = 0, hi = m->nev;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->ev[mid].cycle < j->q.pass_from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < m->nev && m->ev[i].cycle < j->q.pass_to; i++) {
		const ulpsim_event *e = &m->ev[i];
		if (e->id != j->q.quad || e->lane >= 256 || unit_of_lane[e->lane] < 0 ||
		    (e->kind != ULPSIM_EV_BEGIN && e->kind != ULPSIM_EV_END) || e->arg >= VIEW_MAX_EXEC)
			continue;
		unsigned u = (unsigned)unit_of_lane[e->lane];
		if (e->kind == ULPSIM_EV_BEGIN && j->in[e->arg][u] == UINT64_MAX)
			j->in[e->arg][u] = e->cycle;
		else if (e->kind == ULPSIM_EV_END && j->out[e->arg][u] == UINT64_MAX)
			j->out[e->arg][u] = e->cycle;
		if (e->arg + 1 > j->nexec)
			j->nexec = e->arg + 1;
	}
	if (!j->nexec) {
		snprintf(j->why, sizeof j->why, "quad %u of pass %u: no events recorded (dropped?)",
		         j->q.quad, j->q.pass);
		return;
	}
	j->valid = true;
	/* the kill: the ALU's INSTANT (arg = EXEC | pixel mask << 8) for this
	 * pixel, or PSEQ's removal of the quad (arg = the EXEC it skipped) */
	const uint32_t wy = ulpsim_window_y(s, y, m->img_h);
	j->pixel = (x - j->q.qx) + 2 * (wy - j->q.qy);
	j->kill_exec = j->removed_exec = -1;
	for (size_t i = lo; i < m->nev && m->ev[i].cycle < j->q.pass_to; i++) {
		const ulpsim_event *e = &m->ev[i];
		if (e->kind != ULPSIM_EV_INSTANT || e->id != j->q.quad || e->lane >= 256 || unit_of_lane[e->lane] < 0)
			continue;
		const int u = unit_of_lane[e->lane];
		if (u == 3 && ((e->arg >> 8) >> j->pixel & 1u) && j->kill_exec < 0) {
			j->kill_exec = (int)(e->arg & 0xFFu);
			j->kill_cycle = e->cycle;
		} else if (u == 0 && j->removed_exec < 0) {
			j->removed_exec = (int)e->arg;
			j->removed_cycle = e->cycle;
		}
	}
	/* the row registers after each EXEC: a replay watching the quad */
	if (!ulpsim_quad_regs(s, &j->q, j->regs, VIEW_MAX_EXEC, &j->nregs, j->regs_why, sizeof j->regs_why))
		j->nregs = 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
}

/* "entered-left", both numbers `digits` wide, so the columns line up. */
static void cell(char *buf, size_t n, int digits, uint64_t in, uint64_t out)
{
	char tmp[48];
	int k;
	digits = digits < 1 ? 1 : digits > 20 ? 20 : digits;
	if (in == UINT64_MAX)
		k = snprintf(tmp, sizeof tmp, "-");
	else if (out == UINT64_MAX)
		k = snprintf(tmp, sizeof tmp, "%*llu-?", digits, (unsigned long long)in);
	else
		k = snprintf(tmp, sizeof tmp, "%*llu-%llu", digits, (unsigned long long)in,
		             (unsigned long long)out);
	if (k < 0)
		tmp[0] = '\0';
	if (snprintf(buf, n, "%-*s", 2 * digits + 1, tmp) < 0 && n)
		buf[0] = '\0';
}

unsigned view_journey_lines(const view_journey *j, char lines[][VIEW_LINE], unsigned max, bool panel)
{
	unsigned n = 0;
#define LINE(...) do { if (n < max) snprintf(lines[n++], VIEW_LINE, __VA_ARGS__); } while (0)
	LINE("pixel (%u, %u)  RGBA %u %u %u %u", j->x, j->y, j->rgba[0], j->rgba[1], j->rgba[2],
	     j->rgba[3]);
	if (!j->valid) {
		LINE("no journey: %.120s", j->why);
		return n;
	}
	LINE("quad %u of fragment pass %u, at window (%u, %u)%s", j->q.quad, j->q.pass, j->q.qx, j->q.qy,
	     j->q.block ? ", GR3D block B (the _b lanes)" : "");
	if (!panel || !j->q.exact)
		LINE("  (%s)", j->q.exact ? "position from the rasterizer's events"
		                          : "position reconstructed from a coverage replay");
	if (j->nregs && !((j->regs[0].covered >> (j->pixel & 3u)) & 1u))
		LINE("note: this quad does not cover the pixel; another quad at the same position "
		     "(of another triangle) does, and the journey cannot tell which");
	uint64_t most = 0;                       /* the column width: the largest cycle */
	for (unsigned e = 0; e < j->nexec; e++)
		for (unsigned u = 0; u < VIEW_JOURNEY_UNITS; u++) {
			if (j->in[e][u] != UINT64_MAX && j->in[e][u] > most)
				most = j->in[e][u];
			if (j->out[e][u] != UINT64_MAX && j->out[e][u] > most)
				most = j->out[e][u];
		}
	int digits = 5;
	for (uint64_t limit = 100000; digits < 12 && most >= limit; limit *= 10)
		digits++;
	char head[VIEW_LINE] = "EXEC  ";
	for (unsigned u = 0; u < VIEW_JOURNEY_UNITS; u++) {
		size_t len = strlen(head);
		snprintf(head + len, sizeof head - len, "%-*s ", 2 * digits + 1, VIEW_JOURNEY_UNIT_NAME[u]);
	}
	trim(head);
	LINE("%s", head);
	for (unsigned e = 0; e < j->nexec; e++) {
		char row[VIEW_LINE];
		int len = snprintf(row, sizeof row, "%4u  ", e);
		for (unsigned u = 0; u < VIEW_JOURNEY_UNITS && len > 0 && (size_t)len < sizeof row; u++) {
			char c[64];
			cell(c, sizeof c, digits, j->in[e][u], j->out[e][u]);
			len += snprintf(row + len, sizeof row - (size_t)len, "%s ", c);
		}
		trim(row);
		LINE("%s", row);
	}
	if (!panel)
		LINE("cycles: entered-left (left = handed to the next unit)");
	if (j->kill_exec >= 0)
		LINE("killed: in EXEC %d (the ALU's kill, cycle %llu)", j->kill_exec,
		     (unsigned long long)j->kill_cycle);
	else if (j->removed_exec >= 0)
		LINE("killed: PSEQ removed the quad before EXEC %d (all its pixels killed), cycle %llu",
		     j->removed_exec, (unsigned long long)j->removed_cycle);
	else
		LINE("killed: no");
	LINE("final colour: RGBA %u %u %u %u", j->rgba[0], j->rgba[1], j->rgba[2], j->rgba[3]);
	if (!j->nregs) {
		LINE("row registers: %.120s", j->regs_why);
		return n;
	}
	LINE("row registers after each EXEC, pixel %u of the quad (raw: %s)", j->pixel,
	     j->regs[0].exact ? "binary32 | 16-bit halves .l .h, arith=exact" : "FP20 | FX10 .l .h");
	for (size_t k = 0; k < j->nregs; k++) {
		const ulpsim_exec_regs *r = &j->regs[k];
		const unsigned p = j->pixel & 3u, nreg = r->rows ? 4 * r->rows : 4;
		LINE("EXEC %u, DW cycle %llu%s:", r->exec, (unsigned long long)r->cycle,
		     (r->killed >> p) & 1u ? " (pixel killed)" : "");
		for (unsigned i = 0; i < nreg && i < 16; i += 2) {
			char half[2][72];
			for (unsigned h = 0; h < 2; h++) {
				const uint32_t w = r->r[p][i + h];
				/* arith=exact: a binary32 word or 16-bit halves (ulpsim_reg_*) */
				snprintf(half[h], sizeof half[h], "r%-2u %0*x %11.6g | %6.3f %6.3f", i + h, r->exact ? 8 : 5,
				         (unsigned)w, (double)ulpsim_reg_value(r, w), (double)ulpsim_reg_half(r, w, false),
				         (double)ulpsim_reg_half(r, w, true));
			}
			LINE("  %s   %s", half[0], half[1]);
		}
	}
#undef LINE
	return n;
}

bool view_port_item(const ulpsim *s, unsigned k, char *buf, size_t len, bool *full)
{
	const char *name;
	uint32_t cap, max;
	if (!ulpsim_port_mark(s, k, &name, &cap, &max))
		return false;
	snprintf(buf, len, "%s %u/%u", name, max, cap);
	*full = cap && max >= cap;
	return true;
}
