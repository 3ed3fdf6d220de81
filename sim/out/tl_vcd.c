/* VCD timeline sink (tl_vcd.h). */
#include "sim/out/tl_vcd.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/out/tl_file.h"
#include "sim/core/unit.h"

enum { VAR_ACT, VAR_ITEM, VAR_ARG, VAR_INFLIGHT, VAR_INSTANT, VARS_PER_LANE,
       MAX_INFLIGHT = 65535 };

typedef struct vcd_item {
	uint32_t id, arg;
} vcd_item;

/* A lane's state, the fields the event loop and flush_time read side by
 * side. */
typedef struct vcd_lane {
	uint8_t act;
	uint8_t mark;                      /* MARK_*: in w->dirty, an instant this cycle */
	/* what the file shows */
	uint8_t out_act;
	uint32_t n, out_n;                 /* out_n: in flight as the file shows; an item shown iff not 0 */
	vcd_item out_item;
	vcd_item *items;                   /* in flight, in BEGIN order */
	uint32_t cap;
	uint32_t lim;                      /* a BEGIN at n >= lim grows items or is dropped */
} vcd_lane;

/* Values below SMALL (activity codes, EXEC indexes, short in-flight
 * counts) have their whole line "b<v> <code>\n" made when the header is
 * written: 16 bytes a line, its length in the last byte. */
enum { SMALL = 16, SMALL_VARS = VAR_INSTANT, MARK_DIRTY = 1, MARK_INSTANT = 2 };

/* An item id's "b<binary>" (n bytes of text, at most 33; 40 are copied),
 * tagged with the id.  Entry i holds ids whose low bits are i; at open its
 * tag is ~i, which no such id equals. */
enum { ID_CACHE = 1024, ID_TEXT = 40 };
typedef struct vcd_id_text {
	char text[ID_TEXT + 16];
	uint32_t n;
	uint32_t tag;
} vcd_id_text;
_Static_assert(sizeof(vcd_id_text) == 64, "an entry a cache line");

struct tl_vcd {
	tl_file file;               /* the output, its first error */
	tl_vcd_opts o;
	bool started;
	unsigned nlanes;                   /* declared in the header */
	uint64_t now, written;             /* current time; last "#t" written */
	/* "#<stamp_t>\n" (stamp_n bytes, 0: none yet), the last stamp made:
	 * the next one is its digits plus the step when that is below 10 */
	uint64_t stamp_t;
	unsigned stamp_n;
	char stamp[32];
	uint64_t dropped;
	uint16_t dirty[SIM_TL_MAX_LANES];
	unsigned ndirty;
	vcd_lane lane[SIM_TL_MAX_LANES];
	/* var_code of every lane's variables, made at open */
	char code[SIM_TL_MAX_LANES][VARS_PER_LANE][4];
	uint8_t code_n[SIM_TL_MAX_LANES][VARS_PER_LANE];
	uint8_t tail_n[SIM_TL_MAX_LANES][VARS_PER_LANE];
	/* " <code>\n" of every variable (tail_n[][] bytes of the 4), made at open */
	char tail[SIM_TL_MAX_LANES][VARS_PER_LANE][4];
	/* the 8 binary digits of every byte value, most significant first, and
	 * 8 spare bytes so that 8 may be copied from any place in a row */
	char bits[256 * 8 + 8];
	char small[SIM_TL_MAX_LANES][SMALL_VARS][SMALL][16];   /* the declared lanes' */
	/* the text "b<binary>" of item ids lately dumped, by the id's low bits:
	 * an item passes through several lanes (PSEQ, MFU, TEX, ALU, DW) */
	vcd_id_text ids[ID_CACHE];
};
_Static_assert(SIM_TL_MAX_LANES * VARS_PER_LANE <= 94 * 94, "variable codes of at most 2 characters");

/* Identifier code of variable v of a lane: base-94 printable ASCII; returns
 * its length. */
static size_t var_code(unsigned lane, unsigned v, char buf[8])
{
	unsigned k = lane * VARS_PER_LANE + v, n = 0;
	do {
		buf[n++] = (char)('!' + k % 94);
		k /= 94;
	} while (k && n < 7);
	buf[n] = '\0';
	return n;
}

/* "b<v in binary> <code>\n" at p, a byte of v (8 digits) at a time from
 * w->bits: the top byte's digits from its first 1, then every lower byte
 * whole; returns the new end.  Each copy moves 8 bytes, and what a short one
 * moves past its digits is overwritten by what follows, so the line needs
 * BIN_ROOM bytes of room. */
enum { BIN_ROOM = 1 + 32 + 8, LANE_ROOM = 4 * BIN_ROOM + 8, TIME_ROOM = 24 };

/* A line's tail after its value at p: " <code>\n" of the lane's variable
 * (4 bytes copied, tail_n of them kept); returns the new end. */
static inline char *tail_at(const tl_vcd *w, char *p, unsigned lane, unsigned var)
{
	memcpy(p, w->tail[lane][var], 4);
	return p + w->tail_n[lane][var];
}

static inline char *bin_at(const tl_vcd *w, char *p, uint32_t v, unsigned lane, unsigned var)
{
	unsigned nb = v ? 32u - (unsigned)__builtin_clz(v) : 1u;
	unsigned k = ((nb - 1u) & 7u) + 1u;  /* digits of the top byte */
	unsigned sh = nb - k;                /* bits below it: 0, 8, 16 or 24 */
	*p++ = 'b';
	memcpy(p, w->bits + 8u * (v >> sh) + (8u - k), 8);
	p += k;
	while (sh) {
		sh -= 8u;
		memcpy(p, w->bits + 8u * ((v >> sh) & 255u), 8);
		p += 8;
	}
	return tail_at(w, p, lane, var);
}

/* bin_at for an item id whose text is not in w->ids: it is kept there.
 * The room holds BIN_ROOM bytes, so ID_TEXT may be copied from it. */
static __attribute__((noinline)) char *id_miss(tl_vcd *w, char *p, uint32_t v, unsigned lane)
{
	vcd_id_text *c = &w->ids[v & (ID_CACHE - 1u)];
	char *const end = bin_at(w, p, v, lane, VAR_ITEM);
	memcpy(c->text, p, ID_TEXT);   /* what follows the text is never shown */
	c->n = (uint32_t)(end - p) - w->tail_n[lane][VAR_ITEM];
	c->tag = v;
	return end;
}

/* bin_at, for an item id: an item passes through several lanes (PSEQ, MFU,
 * TEX, ALU, DW), and its text is made once (w->ids). */
static inline char *id_at(tl_vcd *w, char *p, uint32_t v, unsigned lane)
{
	const vcd_id_text *c = &w->ids[v & (ID_CACHE - 1u)];
	if (c->tag != v)
		return id_miss(w, p, v, lane);
	memcpy(p, c->text, ID_TEXT);
	return tail_at(w, p + c->n, lane, VAR_ITEM);
}

/* bin_at, for any value: a value below SMALL copies its line whole (16
 * bytes; the room for bin_at's 41 covers it). */
static inline char *val_at(const tl_vcd *w, char *p, uint32_t v, unsigned lane, unsigned var)
{
	if (v < SMALL) {
		const char *line = w->small[lane][var][v];
		memcpy(p, line, 16);
		return p + (unsigned char)line[15];
	}
	return bin_at(w, p, v, lane, var);
}

/* "#<t>\n" at p (TIME_ROOM bytes of room); returns the new end.  The
 * stamps rise by a few cycles: the last one's text (w->stamp) plus the
 * step, with the carry, unless the step is 10 or more or the digits all
 * carry.  The text is copied before its digits change, and the changed
 * bytes are stored in both places: a wide load of bytes just stored would
 * wait for them (no store forwarding), as long as the rest of the stamp. */
TL_INLINE char *stamp_at(tl_vcd *w, char *p, uint64_t t)
{
	const uint64_t step = t - w->stamp_t;
	char *const s = w->stamp;
	const unsigned n = w->stamp_n;
	w->stamp_t = t;
	if (n && step < 10u) {
		memcpy(p, s, TIME_ROOM);
		unsigned i = n - 2u;                 /* the last digit */
		const unsigned c = (unsigned)(s[i] - '0') + (unsigned)step;
		if (c < 10u) {
			p[i] = s[i] = (char)('0' + c);
			return p + n;
		}
		p[i] = s[i] = (char)('0' + c - 10u);
		while (s[--i] == '9')
			p[i] = s[i] = '0';
		if (s[i] != '#') {
			p[i] = s[i] = (char)(s[i] + 1);
			return p + n;
		}
		/* 99..9 + step: one more digit, made afresh */
	}
	p[0] = s[0] = '#';
	const size_t k = tl_fmt_u64(p + 1, t);
	tl_fmt_u64(s + 1, t);
	p[1 + k] = s[1 + k] = '\n';
	w->stamp_n = (unsigned)k + 2u;
	return p + k + 2;
}

/* "bx <code>\n" at p; returns the new end. */
static inline char *x_at(const tl_vcd *w, char *p, unsigned lane, unsigned var)
{
	return tail_at(w, TL_LIT(p, "bx"), lane, var);
}

static void put_bin(tl_vcd *w, uint32_t v, unsigned lane, unsigned var)
{
	tl_file *f = &w->file;
	tl_done(f, bin_at(w, tl_room(f, BIN_ROOM), v, lane, var));
}

static void put_x(tl_vcd *w, unsigned lane, unsigned var)
{
	tl_file *f = &w->file;
	tl_done(f, x_at(w, tl_room(f, BIN_ROOM), lane, var));
}

/* Scope names: identifier characters only. */
static void put_scope(tl_file *f, const char *name)
{
	TL_PUT_LIT(f, "$scope module ");
	for (const char *p = name; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		          c == '_';
		tl_putc(f, ok ? c : '_');
	}
	TL_PUT_LIT(f, " $end\n");
}

static void header(tl_vcd *w, const sim_tl_event *ev, size_t n)
{
	tl_file *f = &w->file;
	const sim_timeline *tl = w->o.tl;
	unsigned nl = tl ? tl->nlanes : 0;
	for (size_t i = 0; i < n; i++)
		if (ev[i].lane >= nl && ev[i].lane < SIM_TL_MAX_LANES)
			nl = ev[i].lane + 1u;
	w->nlanes = nl;
	TL_PUT_LIT(f, "$version ulpsim timeline (docs/outputs.md) $end\n$comment activity codes:");
	for (unsigned a = 0; a < SIM_ACT_STALL + SIM_STALL_COUNT; a++) {
		tl_putc(f, ' ');
		tl_put_u64(f, a);
		tl_putc(f, ' ');
		tl_puts(f, sim_activity_name((uint8_t)a));
		if (a + 1 < SIM_ACT_STALL + SIM_STALL_COUNT)
			tl_putc(f, ',');
	}
	TL_PUT_LIT(f, " $end\n$timescale 1ns $end\n");
	put_scope(f, w->o.top ? w->o.top : "gpu");
	static const char *const var_type[VARS_PER_LANE] = {
		"reg 8", "reg 32", "reg 32", "reg 16", "event 1",
	};
	static const char *const var_name[VARS_PER_LANE] = {
		"activity", "item", "arg", "inflight", "instant",
	};
	for (unsigned l = 0; l < nl; l++) {
		char buf[32], code[8];
		const char *name = tl && l < tl->nlanes && tl->lane_name[l] ? tl->lane_name[l] : NULL;
		if (!name) {
			snprintf(buf, sizeof buf, "lane%u", l);
			name = buf;
		}
		put_scope(f, name);
		for (unsigned v = 0; v < VARS_PER_LANE; v++) {
			var_code(l, v, code);
			TL_PUT_LIT(f, "$var ");
			tl_puts(f, var_type[v]);
			tl_putc(f, ' ');
			tl_puts(f, code);
			tl_putc(f, ' ');
			tl_puts(f, var_name[v]);
			TL_PUT_LIT(f, " $end\n");
		}
		TL_PUT_LIT(f, "$upscope $end\n");
	}
	for (unsigned l = 0; l < nl; l++) {
		for (unsigned v = 0; v < SMALL_VARS; v++) {
			for (unsigned x = 0; x < SMALL; x++) {
				char line[BIN_ROOM];
				size_t len = (size_t)(bin_at(w, line, x, l, v) - line);
				memcpy(w->small[l][v][x], line, len);
				w->small[l][v][x][15] = (char)len;
			}
		}
	}
	TL_PUT_LIT(f, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
	for (unsigned l = 0; l < nl; l++) {
		put_bin(w, 0, l, VAR_ACT);
		put_x(w, l, VAR_ITEM);
		put_x(w, l, VAR_ARG);
		put_bin(w, 0, l, VAR_INFLIGHT);
	}
	TL_PUT_LIT(f, "$end\n");
	w->started = true;
}

static void put_time(tl_vcd *w, uint64_t t)
{
	tl_file *f = &w->file;
	tl_done(f, stamp_at(w, tl_room(f, TIME_ROOM), t));
}

/* Dump the end-of-cycle values of the lanes that changed at w->now, after
 * "#<now>" when that is not the time last written and a value changed.  The
 * room for all of it is taken at once (at most 64 lanes: 11 KiB), and the
 * stamp is taken back when no value changed. */
TL_INLINE void flush_time(tl_vcd *w)
{
	if (!w->ndirty)
		return;
	_Static_assert(TIME_ROOM + SIM_TL_MAX_LANES * LANE_ROOM <= TL_TEXT_BUF, "a time's text fits the buffer");
	tl_file *f = &w->file;
	char *const start = tl_room(f, TIME_ROOM + (size_t)w->ndirty * LANE_ROOM);
	char *p = start;
	if (w->now != w->written)
		p = stamp_at(w, p, w->now);
	char *const values = p;
	for (const uint16_t *d = w->dirty, *const end = d + w->ndirty; d < end; d++) {
		const unsigned ln = *d;
		vcd_lane *l = &w->lane[ln];
		const uint8_t m = l->mark;
		l->mark = 0;
		const uint8_t act = l->act;
		if (act != l->out_act) {
			p = val_at(w, p, act, ln, VAR_ACT);
			l->out_act = act;
		}
		/* the newest item in flight; what the file shows of an empty lane
		 * (out_item) is never read */
		const uint32_t n = l->n, out_n = l->out_n;
		if (n) {
			const vcd_item cur = l->items[n - 1];
			if (!out_n) {
				p = id_at(w, p, cur.id, ln);
				p = val_at(w, p, cur.arg, ln, VAR_ARG);
			} else {
				if (cur.id != l->out_item.id)
					p = id_at(w, p, cur.id, ln);
				if (cur.arg != l->out_item.arg)
					p = val_at(w, p, cur.arg, ln, VAR_ARG);
			}
			l->out_item = cur;
		} else if (out_n) {
			p = x_at(w, p, ln, VAR_ITEM);
			p = x_at(w, p, ln, VAR_ARG);
		}
		if (n != out_n) {
			p = val_at(w, p, n, ln, VAR_INFLIGHT);
			l->out_n = n;
		}
		if (m & MARK_INSTANT) {
			*p++ = '1';
			memcpy(p, w->code[ln][VAR_INSTANT], 4);
			p += w->code_n[ln][VAR_INSTANT];
			*p++ = '\n';
		}
	}
	w->ndirty = 0;
	if (p == values)
		p = start;                      /* nothing changed: no stamp */
	else
		w->written = w->now;
	tl_done(f, p);
}

/* A BEGIN on a lane with n >= lim: its items grow, or it is dropped at
 * MAX_INFLIGHT. */
static bool item_push_slow(tl_vcd *w, vcd_lane *l, const sim_tl_event *e)
{
	if (l->n == MAX_INFLIGHT) {
		w->dropped++;
		return true;
	}
	uint32_t cap = l->cap ? l->cap * 2 : 16;
	vcd_item *ni = realloc(l->items, cap * sizeof *ni);
	if (!ni)
		return tl_file_fail(&w->file, "out of memory");
	l->items = ni;
	l->cap = cap;
	l->lim = cap < MAX_INFLIGHT ? cap : MAX_INFLIGHT;
	l->items[l->n++] = (vcd_item){ e->id, e->arg };
	return true;
}

static inline void item_pop(vcd_lane *l, uint32_t id)
{
	if (l->n == 1 && l->items[0].id == id) {   /* the usual case: the only one */
		l->n = 0;
		return;
	}
	for (uint32_t i = 0; i < l->n; i++) {
		if (l->items[i].id == id) {
			if (i + 1 < l->n)
				memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
			l->n--;
			return;
		}
	}
}

/* The events in order: each sets its lane's state, and the lanes it touched
 * in a cycle are dumped (flush_time) in the order of their first event
 * there, when the next cycle begins.  The time and the dirty count stay in
 * locals between the flushes. */
static bool vcd_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	tl_vcd *w = ctx;
	if (w->file.failed)
		return false;
	if (!w->started)
		header(w, ev, n);
	const unsigned nlanes = w->nlanes;
	uint64_t now = w->now;
	unsigned ndirty = w->ndirty;
	for (const sim_tl_event *e = ev, *const end = ev + n; e < end; e++) {
		const unsigned ln = e->lane;
		if (ln >= nlanes) {
			w->dropped++;
			continue;
		}
		if (e->cycle > now) {
			w->ndirty = ndirty;
			flush_time(w);
			ndirty = 0;
			w->now = now = e->cycle;
		}
		vcd_lane *l = &w->lane[ln];
		/* by the kinds' frequency (BEGIN and END come in pairs, ACTIVITY
		 * less often, INSTANT rarely): tests, not a jump table */
		const unsigned kind = e->kind;
		if (kind == SIM_TL_END) {
			item_pop(l, e->id);
		} else if (kind == SIM_TL_BEGIN) {
			if (l->n < l->lim)
				l->items[l->n++] = (vcd_item){ e->id, e->arg };
			else if (!item_push_slow(w, l, e)) {
				w->ndirty = ndirty;
				return false;
			}
		} else if (kind == SIM_TL_ACTIVITY) {
			l->act = (uint8_t)e->arg;
		} else if (kind == SIM_TL_INSTANT) {
			l->mark |= MARK_INSTANT;
		} else {
			continue;
		}
		if (!(l->mark & MARK_DIRTY)) {
			l->mark |= MARK_DIRTY;
			w->dirty[ndirty++] = (uint16_t)ln;
		}
	}
	w->ndirty = ndirty;
	return tl_file_check(&w->file);
}

_Static_assert(offsetof(tl_vcd, file) == 0, "tl_file_new_writer: the file comes first");

tl_vcd *tl_vcd_open(const char *path, const tl_vcd_opts *opts, ulp_diag *d)
{
	tl_vcd *w = tl_file_new_writer(sizeof *w, path, d);
	if (!w)
		return NULL;
	if (opts)
		w->o = *opts;
	for (unsigned l = 0; l < SIM_TL_MAX_LANES; l++) {
		for (unsigned v = 0; v < VARS_PER_LANE; v++) {
			size_t n = var_code(l, v, w->code[l][v]);
			w->code_n[l][v] = (uint8_t)n;
			w->tail[l][v][0] = ' ';
			memcpy(&w->tail[l][v][1], w->code[l][v], n);
			w->tail[l][v][1 + n] = '\n';
			w->tail_n[l][v] = (uint8_t)(n + 2);
		}
	}
	for (uint32_t i = 0; i < ID_CACHE; i++)
		w->ids[i].tag = ~i;
	for (unsigned b = 0; b < 256; b++)
		for (unsigned i = 0; i < 8; i++)
			w->bits[8 * b + i] = (char)('0' + ((b >> (7 - i)) & 1u));
	return w;
}

sim_tl_sink tl_vcd_sink(tl_vcd *w)
{
	return (sim_tl_sink){ .ctx = w, .write = vcd_write, .close = NULL };
}

uint64_t tl_vcd_dropped(const tl_vcd *w) { return w->dropped; }

static void free_writer(tl_vcd *w)
{
	for (unsigned i = 0; i < SIM_TL_MAX_LANES; i++)
		free(w->lane[i].items);
	free(w);
}

bool tl_vcd_close(tl_vcd *w, ulp_diag *d)
{
	if (!w)
		return false;
	if (!w->file.failed) {
		if (!w->started)
			header(w, NULL, 0);
		flush_time(w);
		if (w->now != w->written)
			put_time(w, w->now);
	}
	bool ok = tl_file_close(&w->file, d);
	free_writer(w);
	return ok;
}

void tl_vcd_abort(tl_vcd *w)
{
	if (!w)
		return;
	ulp_out_abort(&w->file.out);
	free_writer(w);
}
